//! `apigen diff`: compares two lowered models and classifies every change for the two kinds
//! of consumer. IR only: nothing here emits code; [`render`] owns the text and JSON output.
//!
//! Comparing models (not YAML) means a renamed file, reordered keys or flow-vs-block YAML is no
//! change. Operations are matched by name, then unmatched ones by method and path (a rename);
//! types by spec name, fields and parameters by wire name, enum values by wire value, union
//! variants by type.
//!
//! Consumers:
//! - **callers**: HTTP clients and users of the generated client. The generated client decodes
//!   responses leniently (unknown enum values and union variants are kept), but a hand-written
//!   client may decode strictly, so loosening a response is classed breaking for callers.
//! - **implementers**: services on the generated server traits and users of the types crate.
//!   They are broken by Rust-visible changes: a type, field, variant or method renamed, added to
//!   something they construct (response structs are built with struct literals) or match
//!   exhaustively, or removed from something they read.
//!
//! | change                                   | callers                  | implementers |
//! |------------------------------------------|--------------------------|--------------|
//! | operation added                          | safe                     | breaking (new trait method) |
//! | operation removed                        | breaking                 | breaking     |
//! | operation renamed (same method and path) | breaking (client method) | breaking     |
//! | method or path changed                   | breaking                 | safe         |
//! | success status changed                   | breaking                 | safe         |
//! | other status added (`also`)              | breaking                 | breaking (status enum, `Context` type) |
//! | other status removed                     | safe                     | breaking     |
//! | operation made public / made to need auth| safe / breaking          | breaking (principal type) |
//! | required scope added / removed (same schemes) | breaking (403) / safe | breaking (`grants` must grant it) / breaking (handlers run without it) |
//! | oauth2 flows, URLs or declared scopes changed | safe (the token still travels as bearer) | safe |
//! | pagination added / removed               | breaking                 | breaking     |
//! | response or body type changed            | breaking                 | breaking     |
//! | request body added (required)            | breaking                 | breaking     |
//! | body media type removed / added          | breaking (415) / safe    | safe         |
//! | body alternative added (`alternatives`)  | safe (`From` keeps the old argument) | breaking (a variant to handle) |
//! | body alternative removed / its type changed | breaking (415; the variant is gone) | breaking |
//! | response media type removed              | breaking (406)           | safe         |
//! | response media type added                | safe                     | breaking for `bytes` (the handler writes it), else safe |
//! | first response media type changed        | breaking (no `Accept`, another format) | safe |
//! | parameter added, required                | breaking                 | safe         |
//! | parameter added, optional                | safe                     | safe         |
//! | parameter removed                        | breaking                 | breaking     |
//! | parameter made required                  | breaking                 | breaking (`Option<T>` → `T`) |
//! | parameter made optional                  | safe                     | breaking     |
//! | parameter type changed                   | breaking                 | breaking     |
//! | form body style changed (`expand=a` ↔ `expand[0]=a`) | breaking (the service may read one form only) | safe |
//! | parameter style changed (`ids=1&ids=2` ↔ `ids=1,2`) | breaking (old clients send the other form) | safe (the generated server reads the new form) |
//! | request constraint tightened / loosened  | breaking / safe          | safe         |
//! | response constraint tightened / loosened | safe / breaking          | safe         |
//! | request field added required / optional  | breaking / safe          | safe         |
//! | response field added                     | safe                     | breaking (struct literal) |
//! | field removed                            | breaking                 | breaking     |
//! | field made required / optional / nullable| by direction (request: tightening breaks callers; response: loosening does) | breaking (Rust type) |
//! | field made read-only / write-only        | breaking if it was sent (request) / read (response), or its Rust type changes | breaking if its Rust type changes |
//! | enumeration of strings ↔ of integers     | breaking                 | breaking     |
//! | included types changed (`includes`)      | docs (the fields are compared one by one) | docs |
//! | enum value or union variant added        | request: safe; response: breaking if closed | breaking if closed (exhaustive match) |
//! | enum value or union variant removed      | request: breaking; response: safe | breaking |
//! | enumeration or union opened / closed     | by direction             | breaking (fallback variant) |
//! | type added / removed                     | safe / breaking          | safe / breaking |
//! | Rust name of a type or field changed     | breaking (generated client) | breaking  |
//! | deprecation added / removed              | docs                     | docs         |
//! | description or summary changed           | docs                     | docs         |
//!
//! A type used both in requests and responses gets the stricter class of the two directions.

pub mod git;
mod rename;
pub mod render;

use crate::diag::Location;
use crate::model::{
    Access, Api, Constraints, Enum, ErrorConvention, Field, Need, Object, Operation, Param, ResponseBody, TypeDef,
    TypeKind, Union, Usage,
};
use std::collections::{BTreeMap, HashMap, VecDeque};

/// How a change affects one kind of consumer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// Only documentation changes.
    Docs,
    /// Existing consumers keep working.
    Safe,
    /// Existing consumers may stop working.
    Breaking,
}

impl Class {
    /// Lower-case name used in the output.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Docs => "docs",
            Class::Safe => "safe",
            Class::Breaking => "breaking",
        }
    }
}

/// One classified change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Stable kind name (`field-added`, `operation-removed`).
    pub kind: &'static str,
    /// What changed (`operation getPet`, `type Pet field name`).
    pub subject: String,
    /// Where it was in the old spec.
    pub old: Option<Location>,
    /// Where it is in the new spec.
    pub new: Option<Location>,
    /// Class for HTTP callers and users of the generated client.
    pub callers: Class,
    /// Class for implementers of the server traits and users of the types crate.
    pub implementers: Class,
    /// Why, in one line.
    pub reason: String,
}

/// The semver bump a list of changes implies for the generated crates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bump {
    /// Nothing changed.
    None,
    /// Documentation only.
    Patch,
    /// Additions only.
    Minor,
    /// Something breaks.
    Major,
}

impl Bump {
    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Bump::None => "none",
            Bump::Patch => "patch",
            Bump::Minor => "minor",
            Bump::Major => "major",
        }
    }
}

/// The bump implied by `changes`: major when anything breaks either consumer.
pub fn bump(changes: &[Change]) -> Bump {
    changes
        .iter()
        .map(|c| match c.callers.max(c.implementers) {
            Class::Breaking => Bump::Major,
            Class::Safe => Bump::Minor,
            Class::Docs => Bump::Patch,
        })
        .max()
        .unwrap_or(Bump::None)
}

/// True when any change breaks callers or implementers.
pub fn is_breaking(changes: &[Change]) -> bool {
    changes.iter().any(|c| c.callers == Class::Breaking || c.implementers == Class::Breaking)
}

/// Every change from `old` to `new`, operations first (by name), then types (by name).
///
/// A type removed and one added with the same shape is a rename (only the Rust name differs, an
/// inline type's `type_name` for instance): the old model is rewritten to the new name first,
/// so the rename is one `type-rust-renamed` change instead of a removal, an addition and every
/// use changing type.
pub fn diff(old: &Api, new: &Api) -> Vec<Change> {
    let renames = renamed_types(old, new);
    let renamed_old;
    let old = if renames.is_empty() {
        old
    } else {
        renamed_old = rename::apply(old, &renames);
        &renamed_old
    };
    let mut out = Vec::new();
    compare_schemes(old, new, &mut out);
    compare_error_convention(old, new, &mut out);
    compare_operations(old, new, &mut out);
    compare_types(old, new, &mut out);
    out
}

/// Old name → new name for each removed type whose shape equals exactly one added type. The
/// added types are bucketed by shape first, so matching takes time linear in the number of
/// types (comparing each removed type with each added one took 82 s for 5,000 renames).
fn renamed_types(old: &Api, new: &Api) -> BTreeMap<String, String> {
    let shape = |t: &TypeDef| format!("{:?}", t.kind);
    let mut added: HashMap<String, Vec<&str>> = HashMap::new();
    for after in new.types.values().filter(|t| !old.types.contains_key(&t.name)) {
        added.entry(shape(after)).or_default().push(&after.name);
    }
    old.types
        .values()
        .filter(|t| !new.types.contains_key(&t.name))
        .filter_map(|before| match added.get(&shape(before)).map(Vec::as_slice) {
            Some([after]) => Some((before.name.clone(), (*after).to_owned())),
            _ => None,
        })
        .collect()
}

/// Collects changes about one subject, located in both specs.
struct Sink<'a> {
    out: &'a mut Vec<Change>,
    subject: String,
    old: Option<Location>,
    new: Option<Location>,
}

impl Sink<'_> {
    fn push(&mut self, kind: &'static str, callers: Class, implementers: Class, reason: impl Into<String>) {
        self.out.push(Change {
            kind,
            subject: self.subject.clone(),
            old: self.old.clone(),
            new: self.new.clone(),
            callers,
            implementers,
            reason: reason.into(),
        });
    }

    /// A sink for an element inside this subject: same lines, spec paths extended by `keys`.
    fn child(&mut self, keys: &[&str]) -> Sink<'_> {
        let extend = |at: &Option<Location>| {
            at.clone().map(|mut at| {
                let mut path = at.path.take().unwrap_or_default();
                for key in keys {
                    path = path.key(*key);
                }
                at.path = Some(path);
                at
            })
        };
        Sink { old: extend(&self.old), new: extend(&self.new), subject: self.subject.clone(), out: self.out }
    }

    fn docs(&mut self, kind: &'static str, reason: impl Into<String>) {
        self.push(kind, Class::Docs, Class::Docs, reason);
    }
}

fn sink<'a>(out: &'a mut Vec<Change>, subject: String, old: &Location, new: &Location) -> Sink<'a> {
    Sink { out, subject, old: Some(old.clone()), new: Some(new.clone()) }
}

// ---------------------------------------------------------------- the API's conventions

/// Auth schemes: one whose credential moves (another kind, header or name) breaks every caller
/// presenting it and every authenticator reading it; added and removed ones show in the
/// operations that accept them.
/// The API's error body: another type or other places for the status, message and violations
/// change what every caller reads and what the router writes; so does each of its other
/// bodies (`api.errors.bodies`) changed or removed. A body added changes what the router writes
/// for the statuses that answer it (callers read another body) and nothing a handler does.
fn compare_error_convention(old: &Api, new: &Api, out: &mut Vec<Change>) {
    let without_bodies = |api: &Api| ErrorConvention { bodies: Default::default(), ..api.errors.clone() };
    if without_bodies(old) != without_bodies(new) {
        let name = |api: &Api| api.errors.ty.clone().unwrap_or_else(|| "the built-in envelope".into());
        out.push(Change {
            kind: "error-body-changed",
            subject: "the API's error body".into(),
            old: None,
            new: None,
            callers: Class::Breaking,
            implementers: Class::Breaking,
            reason: format!(
                "error bodies change from {} to {} (or where they carry the status, message or violations)",
                name(old),
                name(new)
            ),
        });
    }
    let names: std::collections::BTreeSet<&String> = old.errors.bodies.keys().chain(new.errors.bodies.keys()).collect();
    for name in names {
        let (kind, implementers, reason) = match (old.errors.bodies.get(name), new.errors.bodies.get(name)) {
            (Some(before), Some(after)) if before == after => continue,
            (Some(_), Some(_)) => {
                ("error-body-changed", Class::Breaking, "where it carries the status, message or violations changes")
            }
            (Some(_), None) => {
                ("error-body-removed", Class::Breaking, "the router no longer writes its refusals in it")
            }
            (None, Some(_)) => {
                ("error-body-added", Class::Safe, "the router writes the refusals of the statuses answering it in it")
            }
            (None, None) => continue,
        };
        out.push(Change {
            kind,
            subject: format!("error body {name}"),
            old: None,
            new: None,
            callers: Class::Breaking,
            implementers,
            reason: reason.to_owned(),
        });
    }
}

fn compare_schemes(old: &Api, new: &Api, out: &mut Vec<Change>) {
    for before in &old.auth_schemes {
        let Some(after) = new.auth_schemes.iter().find(|s| s.name == before.name) else { continue };
        let mut s = sink(&mut *out, format!("auth scheme {}", before.name), &before.origin, &after.origin);
        if before.kind != after.kind && before.kind.is_bearer() && after.kind.is_bearer() {
            // Bearer, OAuth 2.0 and OpenID Connect tokens all travel in `Authorization`.
            s.push(
                "auth-scheme-flows-changed",
                Class::Safe,
                Class::Safe,
                "how a client obtains its token changes (the type, flows, URLs or declared scopes); the token still travels as `Authorization: Bearer`",
            );
        } else if before.kind != after.kind {
            s.push(
                "auth-scheme-changed",
                Class::Breaking,
                Class::Breaking,
                format!("the credential moves from {} to {}", before.kind.describe(), after.kind.describe()),
            );
        } else if before.description != after.description {
            s.docs("auth-scheme-description-changed", "the scheme's description changed");
        }
    }
}

// ---------------------------------------------------------------- operations

fn compare_operations(old: &Api, new: &Api, out: &mut Vec<Change>) {
    let old_ops: BTreeMap<&str, &Operation> = old.operations.iter().map(|o| (o.name.as_str(), o)).collect();
    let new_ops: BTreeMap<&str, &Operation> = new.operations.iter().map(|o| (o.name.as_str(), o)).collect();
    let mut removed: Vec<&Operation> =
        old_ops.iter().filter(|(n, _)| !new_ops.contains_key(*n)).map(|(_, o)| *o).collect();
    let mut added: Vec<&Operation> =
        new_ops.iter().filter(|(n, _)| !old_ops.contains_key(*n)).map(|(_, o)| *o).collect();
    for (name, before) in &old_ops {
        if let Some(after) = new_ops.get(name) {
            compare_operation(before, after, out);
        }
    }
    pair_renamed_operations(&mut removed, &mut added, out);
    for op in removed {
        let subject = format!("operation {}", op.name);
        Sink { out, subject, old: Some(op.origin.clone()), new: None }.push(
            "operation-removed",
            Class::Breaking,
            Class::Breaking,
            format!(
                "{} {} no longer exists; its trait method and client method are gone",
                op.method.as_str(),
                op.path.raw
            ),
        );
    }
    for op in added {
        let subject = format!("operation {}", op.name);
        Sink { out, subject, old: None, new: Some(op.origin.clone()) }.push(
            "operation-added",
            Class::Safe,
            Class::Breaking,
            format!("new {} {}; implementers must add the trait method `{}`", op.method.as_str(), op.path.raw, op.rust),
        );
    }
}

/// An operation removed and one added with the same method and path is a rename; each removed
/// one (in name order) takes the first added one of its route. Routes are looked up, not
/// searched, so renaming every operation stays linear.
fn pair_renamed_operations(removed: &mut Vec<&Operation>, added: &mut Vec<&Operation>, out: &mut Vec<Change>) {
    let mut by_route: BTreeMap<String, VecDeque<usize>> = BTreeMap::new();
    for (index, op) in added.iter().enumerate() {
        by_route.entry(route_text(op)).or_default().push_back(index);
    }
    let mut paired = vec![false; added.len()];
    removed.retain(|before| {
        let route = route_text(before);
        let Some(index) = by_route.get_mut(&route).and_then(VecDeque::pop_front) else {
            return true;
        };
        paired[index] = true;
        let after = added[index];
        let subject = format!("operation {} -> {}", before.name, after.name);
        let mut s = sink(out, subject, &before.origin, &after.origin);
        s.push(
            "operation-renamed",
            Class::Breaking,
            Class::Breaking,
            format!(
                "same wire call; Rust method `{}` becomes `{}` in the server trait and client",
                before.rust, after.rust
            ),
        );
        compare_operation(before, after, out);
        false
    });
    let mut index = 0;
    added.retain(|_| {
        index += 1;
        !paired[index - 1]
    });
}

/// Every rule comparing two versions of one operation.
fn compare_operation(old: &Operation, new: &Operation, out: &mut Vec<Change>) {
    let mut s = sink(out, format!("operation {}", new.name), &old.origin, &new.origin);
    operation_route(old, new, &mut s);
    operation_status(old, new, &mut s);
    operation_statuses(old, new, &mut s);
    operation_auth(old, new, &mut s);
    operation_response(old, new, &mut s);
    operation_headers(old, new, &mut s);
    operation_error_types(old, new, &mut s);
    operation_body(old, new, &mut s);
    operation_media_types(old, new, &mut s);
    operation_params(old, new, &mut s);
    operation_deprecation(old, new, &mut s);
    operation_docs(old, new, &mut s);
}

/// `POST /` and its selectors (`POST / with header X-Amz-Target: A`): what routes a request.
fn route_text(op: &Operation) -> String {
    let mut text = format!("{} {}", op.method.as_str(), op.path.raw);
    for (i, selector) in op.select.iter().enumerate() {
        text.push_str(if i == 0 { " with " } else { " and " });
        text.push_str(&format!("{} {}={}", selector.location.as_str(), selector.name, selector.value));
    }
    text
}

/// A changed method, path or selector: a request built for the old route no longer reaches it.
fn operation_route(old: &Operation, new: &Operation, s: &mut Sink) {
    if old.method != new.method || old.path.raw != new.path.raw || old.select != new.select {
        let selected = !old.select.is_empty() || !new.select.is_empty();
        let refusals = if selected { "404/405 (400 for a selector)" } else { "404/405" };
        s.push(
            "route-changed",
            Class::Breaking,
            Class::Safe,
            format!(
                "{} becomes {}; callers built for the old route get {refusals}, the trait is unchanged",
                route_text(old),
                route_text(new)
            ),
        );
    }
}

fn operation_status(old: &Operation, new: &Operation, s: &mut Sink) {
    if old.response.status != new.response.status {
        s.push(
            "status-changed",
            Class::Breaking,
            Class::Safe,
            format!(
                "success status {} becomes {}; callers checking the status break, the generated server sets it",
                old.response.status, new.response.status
            ),
        );
    }
}

/// The other statuses a handler may choose: each is a variant of the operation's status
/// enumeration, and having any changes the handler's `Context` type.
fn operation_statuses(old: &Operation, new: &Operation, s: &mut Sink) {
    let before: Vec<u16> = old.response.statuses().skip(1).collect();
    let after: Vec<u16> = new.response.statuses().skip(1).collect();
    let (before, after) = (&before, &after);
    let added: Vec<String> = after.iter().filter(|c| !before.contains(c)).map(u16::to_string).collect();
    let removed: Vec<String> = before.iter().filter(|c| !after.contains(c)).map(u16::to_string).collect();
    if !added.is_empty() {
        s.push(
            "status-added",
            Class::Breaking,
            Class::Breaking,
            format!(
                "the handler may also answer {}; callers checking for one status break, and the handler's status \
                 enumeration (its `Context` type) changes",
                added.join(", ")
            ),
        );
    }
    if !removed.is_empty() {
        s.push(
            "status-removed",
            Class::Safe,
            Class::Breaking,
            format!("the handler may no longer answer {}; handlers choosing it no longer compile", removed.join(", ")),
        );
    }
}

/// Response headers: one removed breaks callers reading it and handlers setting it; one added
/// is safe for callers, and breaks handlers when it is required (they must now set it).
fn operation_headers(old: &Operation, new: &Operation, s: &mut Sink) {
    let find =
        |op: &Operation, wire: &str| op.response.headers.iter().find(|h| h.wire.eq_ignore_ascii_case(wire)).cloned();
    for before in &old.response.headers {
        match find(new, &before.wire) {
            None => s.push(
                "response-header-removed",
                Class::Breaking,
                Class::Breaking,
                format!("the response header `{}` is gone from `{}Headers`", before.wire, old.rust_type),
            ),
            Some(after) if after.ty != before.ty => s.push(
                "response-header-type-changed",
                Class::Breaking,
                Class::Breaking,
                format!("the response header `{}` changes type from `{}` to `{}`", before.wire, before.ty, after.ty),
            ),
            Some(after) if after.required && !before.required => s.push(
                "response-header-required",
                Class::Safe,
                Class::Breaking,
                format!("the response header `{}` is always sent now: handlers must set it", before.wire),
            ),
            Some(_) => {}
        }
    }
    for after in new.response.headers.iter().filter(|h| find(old, &h.wire).is_none()) {
        let implementers = if after.required { Class::Breaking } else { Class::Safe };
        s.push(
            "response-header-added",
            Class::Safe,
            implementers,
            format!("the response header `{}` is added", after.wire),
        );
    }
}

/// Error types per status: a status answering another type changes what callers decode.
fn operation_error_types(old: &Operation, new: &Operation, s: &mut Sink) {
    for after in new.errors.iter().filter(|e| e.ty.is_some()) {
        let before = old.errors.iter().find(|e| e.status == after.status).and_then(|e| e.ty.clone());
        if before.is_some() && before != after.ty {
            s.push(
                "error-type-changed",
                Class::Breaking,
                Class::Breaking,
                format!(
                    "failure {} answers `{}` instead of `{}`",
                    after.status,
                    after.ty.as_ref().map(ToString::to_string).unwrap_or_default(),
                    before.map(|t| t.to_string()).unwrap_or_default()
                ),
            );
        }
    }
}

fn operation_auth(old: &Operation, new: &Operation, s: &mut Sink) {
    if !old.auth.is_public() && !new.auth.is_public() {
        let (before, after) = (old.auth.alternatives(), new.auth.alternatives());
        let mut removed = Vec::new();
        for alternative in before.iter().filter(|alt| !after.iter().any(|other| same_need(alt, other))) {
            match counterpart(alternative, after, before) {
                Some(now) => scope_changes(alternative, now, s),
                None => removed.push(need_words(alternative)),
            }
        }
        let added: Vec<String> = after
            .iter()
            .filter(|alt| !before.iter().any(|other| same_need(alt, other)))
            .filter(|alt| counterpart(alt, before, after).is_none())
            .map(|alt| need_words(alt))
            .collect();
        if !removed.is_empty() {
            s.push(
                "auth-scheme-removed",
                Class::Breaking,
                Class::Safe,
                format!("the operation no longer accepts {}; callers presenting only that get 401", removed.join(", ")),
            );
        }
        if !added.is_empty() {
            s.push(
                "auth-scheme-added",
                Class::Safe,
                Class::Breaking,
                format!("the operation also accepts {}; the authenticator receives its credentials", added.join(", ")),
            );
        }
    }
    match (old.auth.is_public(), new.auth.is_public()) {
        (true, false) => s.push(
            "auth-required",
            Class::Breaking,
            Class::Breaking,
            "the operation is no longer public; callers without a token get 401, handlers get a principal",
        ),
        (false, true) => s.push(
            "auth-dropped",
            Class::Safe,
            Class::Breaking,
            "the operation becomes public; handlers get no principal (`Anonymous`)",
        ),
        _ => {}
    }
}

/// Two alternatives asking the same: the same schemes (in any order), each with the same
/// scopes (in any order).
fn same_need(a: &[Need], b: &[Need]) -> bool {
    let normal = |set: &[Need]| {
        let mut set: Vec<(String, Vec<String>)> = set
            .iter()
            .map(|need| {
                let mut scopes = need.scopes.clone();
                scopes.sort();
                (need.scheme.clone(), scopes)
            })
            .collect();
        set.sort();
        set
    };
    normal(a) == normal(b)
}

/// The schemes of an alternative, sorted.
fn scheme_set(set: &[Need]) -> Vec<&str> {
    let mut names: Vec<&str> = set.iter().map(|need| need.scheme.as_str()).collect();
    names.sort_unstable();
    names
}

/// The one alternative of `others` with the schemes of `alternative` (whose scopes changed),
/// when neither side has another alternative of those schemes.
fn counterpart<'a>(alternative: &[Need], others: &'a [Vec<Need>], own: &[Vec<Need>]) -> Option<&'a Vec<Need>> {
    let schemes = scheme_set(alternative);
    let mut matching = others.iter().filter(|other| scheme_set(other) == schemes);
    let only = matching.next().filter(|_| matching.next().is_none())?;
    (own.iter().filter(|set| scheme_set(set) == schemes).count() == 1).then_some(only)
}

/// An alternative in words: `` `a` and `b` `` with its scopes (`` `oauth` (scope `x`) ``).
fn need_words(set: &[Need]) -> String {
    set.iter().map(Need::describe).collect::<Vec<_>>().join(" and ")
}

fn quoted(names: &[String]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

/// The scopes an alternative (the same schemes before and after) requires more or less: a
/// new one refuses callers whose token lacks it (403); one dropped lets handlers run for
/// principals lacking it.
fn scope_changes(before: &[Need], after: &[Need], s: &mut Sink) {
    for need in after {
        let old: &[String] = before.iter().find(|b| b.scheme == need.scheme).map_or(&[], |b| &b.scopes);
        let added: Vec<String> = need.scopes.iter().filter(|scope| !old.contains(scope)).cloned().collect();
        let dropped: Vec<String> = old.iter().filter(|scope| !need.scopes.contains(scope)).cloned().collect();
        let scheme = &need.scheme;
        if !added.is_empty() {
            s.push(
                "auth-scope-added",
                Class::Breaking,
                Class::Breaking,
                format!(
                    "the operation requires {} of `{scheme}`; callers whose credentials lack it get 403, and the service's `Authenticator::grants` must grant it",
                    quoted(&added)
                ),
            );
        }
        if !dropped.is_empty() {
            s.push(
                "auth-scope-removed",
                Class::Safe,
                Class::Breaking,
                format!(
                    "the operation no longer requires {} of `{scheme}`; handlers run for principals lacking it",
                    quoted(&dropped)
                ),
            );
        }
    }
}

fn operation_response(old: &Operation, new: &Operation, s: &mut Sink) {
    if let (Some(before), Some(after)) = (&old.pagination, &new.pagination) {
        let (was, is) = (before.style.as_str(), after.style.as_str());
        let moved = before.style != after.style || before.items != after.items || before.cursor != after.cursor;
        if moved {
            s.push(
                "pagination-changed",
                Class::Breaking,
                Class::Breaking,
                format!("the list is paged another way (`{was}` by `{}` becomes `{is}` by `{}`); callers following pages and handlers building them change", before.cursor, after.cursor),
            );
        }
    }
    match (&old.response.body, &new.response.body) {
        (ResponseBody::Page { .. }, ResponseBody::Page { .. }) | (ResponseBody::Empty, ResponseBody::Empty) => {}
        (ResponseBody::Value(_), ResponseBody::Value(_)) => {}
        (ResponseBody::Page { .. }, _) => s.push(
            "pagination-removed",
            Class::Breaking,
            Class::Breaking,
            "the response is no longer a page; callers and the trait's return type change",
        ),
        (_, ResponseBody::Page { .. }) => s.push(
            "pagination-added",
            Class::Breaking,
            Class::Breaking,
            "the response becomes a page; callers and the trait's return type change",
        ),
        _ => {}
    }
    let (before, after) = (response_type(&old.response.body), response_type(&new.response.body));
    if before != after {
        s.push(
            "response-type-changed",
            Class::Breaking,
            Class::Breaking,
            format!("response body `{}` becomes `{}`", before.unwrap_or_default(), after.unwrap_or_default()),
        );
    }
}

fn response_type(body: &ResponseBody) -> Option<String> {
    match body {
        ResponseBody::Empty => None,
        ResponseBody::Value(ty) => Some(ty.to_string()),
        ResponseBody::Page { item, .. } => Some(format!("page of {item}")),
    }
}

fn operation_body(old: &Operation, new: &Operation, s: &mut Sink) {
    match (&old.body, &new.body) {
        (None, None) => {}
        (None, Some(b)) if b.optional => {
            s.push("body-added", Class::Safe, Class::Safe, "an optional request body is accepted")
        }
        (None, Some(_)) => s.push("body-added", Class::Breaking, Class::Breaking, "a request body is now required"),
        (Some(_), None) => s.push(
            "body-removed",
            Class::Breaking,
            Class::Breaking,
            "the request body is gone; callers sending it and code reading it break",
        ),
        (Some(a), Some(b)) => {
            if a.ty != b.ty {
                s.push(
                    "body-type-changed",
                    Class::Breaking,
                    Class::Breaking,
                    format!("request body `{}` becomes `{}`", a.ty, b.ty),
                );
            }
            if a.optional && !b.optional {
                s.push("body-required", Class::Breaking, Class::Breaking, "the request body becomes required");
            }
            if !a.optional && b.optional {
                s.push(
                    "body-optional",
                    Class::Safe,
                    Class::Breaking,
                    "the request body becomes optional (`Option` in Rust)",
                );
            }
            if a.untyped != b.untyped {
                body_untyped_changed(s, a, b);
            }
            body_alternatives_changed(s, a, b);
            if a.brackets != b.brackets {
                // The generated server reads both; another server may read only one.
                let now = if b.brackets { "with indexes (`expand[0]=a`)" } else { "as repeated keys" };
                s.push("body-style-changed", Class::Breaking, Class::Safe, format!("the form's lists travel {now}"));
            }
        }
    }
}

/// Alternatives (`body.alternatives`), told by their variant: one added is a variant more for
/// handlers to match, and for callers a media type more where the body had alternatives already
/// (their argument is the content enumeration either way); the first one added breaks callers,
/// whose body fields (positional arguments, setters) or string argument become one argument of
/// the enumeration (`tag(id, "good")` no longer compiles). One removed is a 415 for callers
/// sending it; one whose type changes breaks both.
fn body_alternatives_changed(s: &mut Sink, a: &crate::model::Body, b: &crate::model::Body) {
    let find =
        |body: &crate::model::Body, variant: &str| body.alternatives.iter().find(|v| v.variant == variant).cloned();
    for old in &a.alternatives {
        match find(b, &old.variant) {
            None => s.push(
                "body-alternative-removed",
                Class::Breaking,
                Class::Breaking,
                format!(
                    "the body is no longer taken as {} (`{}`); callers sending it get 415",
                    old.media_types.join(", "),
                    old.variant
                ),
            ),
            Some(new) if new.ty != old.ty => s.push(
                "body-alternative-type-changed",
                Class::Breaking,
                Class::Breaking,
                format!("the body's `{}` alternative `{}` becomes `{}`", old.variant, old.ty, new.ty),
            ),
            Some(_) => {}
        }
    }
    let callers = if a.alternatives.is_empty() { Class::Breaking } else { Class::Safe };
    for new in b.alternatives.iter().filter(|v| find(a, &v.variant).is_none()) {
        s.push(
            "body-alternative-added",
            callers,
            Class::Breaking,
            format!(
                "the body is also taken as {} (`{}`), a variant handlers must match",
                new.media_types.join(", "),
                new.variant
            ),
        );
    }
}

/// `untyped` set or dropped: a value that is not an object read as the body left out, or
/// refused. The handler's type changes only where the body is required (`T` and `Option<T>`).
fn body_untyped_changed(s: &mut Sink, a: &crate::model::Body, b: &crate::model::Body) {
    let handler = if a.optional && b.optional { Class::Safe } else { Class::Breaking };
    if b.untyped {
        let text = "a JSON body that is not an object is accepted, read as left out (`Option` in Rust)";
        s.push("body-untyped", Class::Safe, handler, text);
    } else {
        let text = "a JSON body that is not an object is refused (no longer read as left out)";
        s.push("body-typed", Class::Breaking, handler, text);
    }
}

/// Media types, compared when the body (or the response) is there before and after: one
/// removed from a body is a 415 for callers sending it, one removed from a response a 406 for
/// callers asking for it; another first response media type changes what a caller that sets
/// no `Accept` receives. The router encodes every JSON, form and text media type itself, so
/// only raw `bytes` answers make an added media type the handlers' work.
fn operation_media_types(old: &Operation, new: &Operation, s: &mut Sink) {
    let listed = |media: &[String]| media.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ");
    let missing = |from: &[String], to: &[String]| -> Vec<String> {
        from.iter().filter(|m| !to.iter().any(|t| t.eq_ignore_ascii_case(m))).cloned().collect()
    };
    if let (Some(before), Some(after)) = (&old.body, &new.body) {
        let (removed, added) =
            (missing(&before.media_types, &after.media_types), missing(&after.media_types, &before.media_types));
        if !removed.is_empty() {
            let reason = format!("the body is no longer taken as {}; callers sending it get 415", listed(&removed));
            s.push("body-media-type-removed", Class::Breaking, Class::Safe, reason);
        }
        if !added.is_empty() {
            s.push(
                "body-media-type-added",
                Class::Safe,
                Class::Safe,
                format!("the body is also taken as {}", listed(&added)),
            );
        }
    }
    let (before, after) = (&old.response.media_types, &new.response.media_types);
    if before.is_empty() || after.is_empty() {
        return; // A body that appears or goes is the response's change.
    }
    let (removed, added) = (missing(before, after), missing(after, before));
    if !removed.is_empty() {
        let reason = format!("the response is no longer given as {}; callers asking for it get 406", listed(&removed));
        s.push("response-media-type-removed", Class::Breaking, Class::Safe, reason);
    }
    if !added.is_empty() {
        let raw = new.response.encoding() == Some(crate::model::Encoding::Binary);
        let implementers = if raw { Class::Breaking } else { Class::Safe };
        let who = if raw { "handlers must write it too (`context.media_type()`)" } else { "the router writes it" };
        s.push(
            "response-media-type-added",
            Class::Safe,
            implementers,
            format!("the response is also given as {}; {who}", listed(&added)),
        );
    }
    if removed.is_empty() && before.first() != after.first() {
        let reason = format!(
            "the response is given as `{}` instead of `{}` when the caller sets no `Accept`",
            after[0], before[0]
        );
        s.push("response-media-type-default-changed", Class::Breaking, Class::Safe, reason);
    }
}

fn operation_params(old: &Operation, new: &Operation, s: &mut Sink) {
    for before in &old.params {
        match new.params.iter().find(|p| p.wire == before.wire) {
            Some(after) => compare_param(before, after, s),
            None => s.push(
                "param-removed",
                Class::Breaking,
                Class::Breaking,
                format!(
                    "parameter `{}` is gone; callers sending it and code reading `{}` break",
                    before.wire, before.rust
                ),
            ),
        }
    }
    for after in new.params.iter().filter(|p| !old.params.iter().any(|b| b.wire == p.wire)) {
        if after.required {
            s.push(
                "param-added",
                Class::Breaking,
                Class::Safe,
                format!("required parameter `{}` added; old callers do not send it", after.wire),
            );
        } else {
            s.push("param-added", Class::Safe, Class::Safe, format!("optional parameter `{}` added", after.wire));
        }
    }
}

fn compare_param(old: &Param, new: &Param, s: &mut Sink) {
    let name = &new.wire;
    if old.location != new.location {
        s.push(
            "param-moved",
            Class::Breaking,
            Class::Breaking,
            format!(
                "parameter `{name}` moves from the {} to the {}; old callers send it where the server no longer reads it",
                old.location.as_str(),
                new.location.as_str()
            ),
        );
    }
    if old.ty != new.ty {
        s.push(
            "param-type-changed",
            Class::Breaking,
            Class::Breaking,
            format!("parameter `{name}` type `{}` becomes `{}`", old.ty, new.ty),
        );
    }
    if old.rust != new.rust {
        s.push(
            "param-rust-renamed",
            Class::Breaking,
            Class::Breaking,
            format!("parameter `{name}` Rust name `{}` becomes `{}`", old.rust, new.rust),
        );
    }
    if old.style != new.style {
        // The server reads only the new form: `ids=1,2` read as repeated keys is one item.
        s.push(
            "param-style-changed",
            Class::Breaking,
            Class::Safe,
            format!("parameter `{name}` travels as {} instead of {}", new.style.words(), old.style.words()),
        );
    }
    if !old.required && new.required {
        s.push(
            "param-required",
            Class::Breaking,
            Class::Breaking,
            format!("parameter `{name}` becomes required (`Option<T>` becomes `T`)"),
        );
    }
    if old.required && !new.required {
        s.push(
            "param-optional",
            Class::Safe,
            Class::Breaking,
            format!("parameter `{name}` becomes optional (`T` becomes `Option<T>`)"),
        );
    }
    constraints(
        &old.constraints,
        &new.constraints,
        Usage { input: true, output: false },
        &format!("parameter `{name}`"),
        s,
    );
    if old.description != new.description {
        s.docs("param-description-changed", format!("parameter `{name}` description changed"));
    }
}

fn operation_deprecation(old: &Operation, new: &Operation, s: &mut Sink) {
    match (&old.deprecated, &new.deprecated) {
        (None, Some(_)) => s.docs("deprecated", "the operation is deprecated"),
        (Some(_), None) => s.docs("undeprecated", "the operation is no longer deprecated"),
        _ => {}
    }
}

fn operation_docs(old: &Operation, new: &Operation, s: &mut Sink) {
    if old.summary != new.summary || old.description != new.description {
        s.docs("description-changed", "summary or description changed");
    }
}

// ---------------------------------------------------------------- constraints

/// Whether the set of accepted values shrank (tightened) or grew (loosened).
#[derive(Default)]
struct Direction {
    tightened: bool,
    loosened: bool,
}

fn lower_bound<T: PartialOrd>(old: Option<T>, new: Option<T>, d: &mut Direction) {
    match (old, new) {
        (None, Some(_)) => d.tightened = true,
        (Some(_), None) => d.loosened = true,
        (Some(a), Some(b)) if b > a => d.tightened = true,
        (Some(a), Some(b)) if b < a => d.loosened = true,
        _ => {}
    }
}

fn upper_bound<T: PartialOrd>(old: Option<T>, new: Option<T>, d: &mut Direction) {
    lower_bound(old.map(std::cmp::Reverse), new.map(std::cmp::Reverse), d);
}

fn as_f64(n: &Option<serde_json::Number>) -> Option<f64> {
    n.as_ref().and_then(serde_json::Number::as_f64)
}

fn constraint_direction(old: &Constraints, new: &Constraints) -> Direction {
    let mut d = Direction::default();
    lower_bound(old.min_length, new.min_length, &mut d);
    upper_bound(old.max_length, new.max_length, &mut d);
    lower_bound(as_f64(&old.minimum), as_f64(&new.minimum), &mut d);
    upper_bound(as_f64(&old.maximum), as_f64(&new.maximum), &mut d);
    lower_bound(old.min_items, new.min_items, &mut d);
    upper_bound(old.max_items, new.max_items, &mut d);
    if old.exact_items != new.exact_items {
        d.tightened |= new.exact_items.is_some();
        d.loosened |= old.exact_items.is_some();
    }
    // Unique items required refuse the repeats they took; no longer required, take them.
    d.tightened |= new.unique_items && !old.unique_items;
    d.loosened |= old.unique_items && !new.unique_items;
    if old.format != new.format {
        // A format added refuses what it refused not; one removed accepts what it refused.
        d.tightened |= new.format.is_some();
        d.loosened |= old.format.is_some();
    }
    if old.pattern != new.pattern {
        // A changed pattern cannot be compared: it may reject values the old one accepted.
        d.tightened |= new.pattern.is_some();
        d.loosened |= old.pattern.is_some();
    }
    // Constraints on each item tighten or loosen the list as they do a value.
    let none = Constraints::default();
    let (old_item, new_item) = (old.item.as_deref().unwrap_or(&none), new.item.as_deref().unwrap_or(&none));
    if old_item != new_item {
        let item = constraint_direction(old_item, new_item);
        d.tightened |= item.tightened;
        d.loosened |= item.loosened;
    }
    d
}

/// Request values tightened break callers; response values loosened break strict callers.
fn constraints(old: &Constraints, new: &Constraints, usage: Usage, what: &str, s: &mut Sink) {
    if old == new {
        return;
    }
    let d = constraint_direction(old, new);
    let breaks_callers = (usage.input && d.tightened) || (usage.output && d.loosened);
    let word = match (d.tightened, d.loosened) {
        (true, false) => "tightened",
        (false, true) => "loosened",
        _ => "changed",
    };
    let callers = if breaks_callers { Class::Breaking } else { Class::Safe };
    s.push("constraint-changed", callers, Class::Safe, format!("{what} constraint {word}"));
}

// ---------------------------------------------------------------- types

fn compare_types(old: &Api, new: &Api, out: &mut Vec<Change>) {
    for (name, before) in &old.types {
        match new.types.get(name) {
            Some(after) => compare_type(before, after, out),
            None => Sink { out, subject: format!("type {name}"), old: Some(before.origin.clone()), new: None }.push(
                "type-removed",
                Class::Breaking,
                Class::Breaking,
                format!("Rust type `{}` is gone", before.rust),
            ),
        }
    }
    for (name, after) in new.types.iter().filter(|(n, _)| !old.types.contains_key(*n)) {
        Sink { out, subject: format!("type {name}"), old: None, new: Some(after.origin.clone()) }.push(
            "type-added",
            Class::Safe,
            Class::Safe,
            format!("new Rust type `{}`", after.rust),
        );
    }
}

/// Both directions a type travels in, in either version.
fn usage_of(old: &TypeDef, new: &TypeDef) -> Usage {
    Usage { input: old.usage.input || new.usage.input, output: old.usage.output || new.usage.output }
}

fn compare_type(old: &TypeDef, new: &TypeDef, out: &mut Vec<Change>) {
    let usage = usage_of(old, new);
    let mut s = sink(out, format!("type {}", new.name), &old.origin, &new.origin);
    if old.rust != new.rust {
        s.push(
            "type-rust-renamed",
            Class::Breaking,
            Class::Breaking,
            format!("same JSON; Rust type `{}` becomes `{}`", old.rust, new.rust),
        );
    }
    if old.description != new.description {
        s.docs("description-changed", "type description changed");
    }
    match (&old.kind, &new.kind) {
        (TypeKind::Object(a), TypeKind::Object(b)) => compare_objects(a, b, usage, &mut s),
        (TypeKind::Enum(a), TypeKind::Enum(b)) => compare_enums(a, b, usage, &mut s),
        (TypeKind::Union(a), TypeKind::Union(b)) => compare_unions(a, b, usage, &mut s),
        _ => s.push(
            "type-kind-changed",
            Class::Breaking,
            Class::Breaking,
            "the type changes between object, enumeration and union",
        ),
    }
}

fn compare_objects(old: &Object, new: &Object, usage: Usage, s: &mut Sink) {
    if old.includes != new.includes {
        // The fields themselves are compared below, included ones too.
        let list = |names: &[String]| if names.is_empty() { "none".to_owned() } else { names.join(", ") };
        s.docs("includes-changed", format!("includes {} (was {})", list(&new.includes), list(&old.includes)));
    }
    for before in &old.fields {
        match new.field(&before.wire) {
            Some(after) => compare_field(before, after, usage, &mut s.child(&["fields", &before.wire])),
            None => s.child(&["fields", &before.wire]).push(
                "field-removed",
                Class::Breaking,
                Class::Breaking,
                format!("field `{}` is gone; code reading or setting `{}` breaks", before.wire, before.rust),
            ),
        }
    }
    for after in new.fields.iter().filter(|f| old.field(&f.wire).is_none()) {
        field_added(after, usage, &mut s.child(&["fields", &after.wire]));
    }
    if usage.input && old.ignores_unknown != new.ignores_unknown {
        // A request the server took (a field it did not declare, dropped) may now be refused;
        // the generated client only sends declared fields, so only other callers notice.
        let (callers, message) = if new.ignores_unknown {
            (Class::Safe, "undeclared fields of a request are ignored (were refused)")
        } else {
            (Class::Breaking, "undeclared fields of a request are refused (were ignored)")
        };
        s.push("unknown-fields-changed", callers, Class::Safe, message.to_owned());
    }
}

fn field_added(field: &Field, usage: Usage, s: &mut Sink) {
    let required = !field.optional;
    let callers = if usage.input && required { Class::Breaking } else { Class::Safe };
    // Response structs are built with struct literals, which must name every field.
    let implementers = if usage.output { Class::Breaking } else { Class::Safe };
    let presence = if required { "required" } else { "optional" };
    s.push("field-added", callers, implementers, format!("{presence} field `{}` added", field.wire));
}

fn compare_field(old: &Field, new: &Field, usage: Usage, s: &mut Sink) {
    let name = &new.wire;
    if old.ty != new.ty {
        s.push(
            "field-type-changed",
            Class::Breaking,
            Class::Breaking,
            format!("field `{name}` type `{}` becomes `{}`", old.ty, new.ty),
        );
    }
    if old.rust != new.rust {
        s.push(
            "field-rust-renamed",
            Class::Breaking,
            Class::Breaking,
            format!("same JSON; Rust field `{}` becomes `{}`", old.rust, new.rust),
        );
    }
    if old.access != new.access {
        access_change(old, new, usage, s);
    }
    presence_change("required", old.optional && !new.optional, !old.optional && new.optional, name, usage, s);
    presence_change("nullable", !old.nullable && new.nullable, old.nullable && !new.nullable, name, usage, s);
    constraints(&old.constraints, &new.constraints, usage, &format!("field `{name}`"), s);
    if old.description != new.description {
        s.docs("field-description-changed", format!("field `{name}` description changed"));
    }
}

/// A field becoming read-only (no longer accepted in requests), write-only (no longer
/// answered) or neither: breaking for callers who lose a direction they use, and for both
/// sides when the Rust type changes (`Option` one way or the other).
fn access_change(old: &Field, new: &Field, usage: Usage, s: &mut Sink) {
    let name = &new.wire;
    let word = |access: Access| match access {
        Access::ReadWrite => "read-write",
        Access::ReadOnly => "read-only",
        Access::WriteOnly => "write-only",
    };
    let loses_requests = new.access == Access::ReadOnly && usage.input;
    let loses_responses = new.access == Access::WriteOnly && usage.output;
    let retyped = old.presence(usage) != new.presence(usage);
    let callers = if loses_requests || loses_responses || retyped { Class::Breaking } else { Class::Safe };
    let implementers = if retyped { Class::Breaking } else { Class::Safe };
    let message = format!("field `{name}` becomes {} (was {})", word(new.access), word(old.access));
    s.push("field-access-changed", callers, implementers, message);
}

/// A presence rule: `tightened` means fewer values are accepted (made required, made not
/// nullable), `loosened` the reverse. Either changes the Rust type (`Option`).
fn presence_change(what: &str, tightened: bool, loosened: bool, name: &str, usage: Usage, s: &mut Sink) {
    let (kind, word) = match (what, tightened, loosened) {
        ("required", true, _) => ("field-required", "becomes required"),
        ("required", _, true) => ("field-optional", "becomes optional"),
        (_, true, _) => ("field-nullable", "becomes nullable"),
        (_, _, true) => ("field-not-nullable", "is no longer nullable"),
        _ => return,
    };
    // For nullability the accepted set grows when a field becomes nullable.
    let grows = if what == "required" { loosened } else { tightened };
    let breaks_callers = (usage.input && !grows) || (usage.output && grows);
    let callers = if breaks_callers { Class::Breaking } else { Class::Safe };
    s.push(kind, callers, Class::Breaking, format!("field `{name}` {word} (its Rust type changes)"));
}

/// Names of the members of an enumeration or union, with the change kinds for them.
struct Members {
    noun: &'static str,
    added_kind: &'static str,
    removed_kind: &'static str,
    opened_kind: &'static str,
}

const ENUM_VALUES: Members = Members {
    noun: "value",
    added_kind: "enum-value-added",
    removed_kind: "enum-value-removed",
    opened_kind: "enum-openness-changed",
};
const UNION_VARIANTS: Members = Members {
    noun: "variant",
    added_kind: "union-variant-added",
    removed_kind: "union-variant-removed",
    opened_kind: "union-openness-changed",
};

fn compare_enums(old: &Enum, new: &Enum, usage: Usage, s: &mut Sink) {
    if old.integer != new.integer {
        let (was, now) = if new.integer { ("strings", "integers") } else { ("integers", "strings") };
        s.push("enum-kind-changed", Class::Breaking, Class::Breaking, format!("the values are {now} (were {was})"));
        return;
    }
    let before: Vec<String> = old.values.iter().map(|v| v.wire.clone()).collect();
    let after: Vec<String> = new.values.iter().map(|v| v.wire.clone()).collect();
    compare_members(&ENUM_VALUES, (&before, old.open), (&after, new.open), usage, s);
    for value in &new.values {
        if let Some(was) = old.values.iter().find(|v| v.wire == value.wire) {
            if was.rust != value.rust {
                s.push(
                    "enum-value-rust-renamed",
                    Class::Breaking,
                    Class::Breaking,
                    format!("same JSON; Rust variant `{}` becomes `{}`", was.rust, value.rust),
                );
            }
            if was.description != value.description {
                s.docs("enum-value-description-changed", format!("value `{}` description changed", value.wire));
            }
        }
    }
}

fn compare_unions(old: &Union, new: &Union, usage: Usage, s: &mut Sink) {
    let names = |u: &Union| -> Vec<String> { u.variants.iter().map(|v| v.ty.to_string()).collect() };
    compare_members(&UNION_VARIANTS, (&names(old), old.open), (&names(new), new.open), usage, s);
    if old.tag != new.tag {
        s.push("union-tag-changed", Class::Breaking, Class::Breaking, "the union's tag field changed");
    }
}

/// Added members break strict response readers (closed only) and exhaustive Rust matches
/// (closed only: an open one has a fallback arm already); removed ones break request senders
/// and Rust code naming them.
fn compare_members(m: &Members, old: (&[String], bool), new: (&[String], bool), usage: Usage, s: &mut Sink) {
    let ((before, was_open), (after, open)) = (old, new);
    for value in after.iter().filter(|v| !before.contains(v)) {
        let callers = if usage.output && !open { Class::Breaking } else { Class::Safe };
        let implementers = if open { Class::Safe } else { Class::Breaking };
        s.push(m.added_kind, callers, implementers, format!("{} `{value}` added", m.noun));
    }
    for value in before.iter().filter(|v| !after.contains(v)) {
        let callers = if usage.input { Class::Breaking } else { Class::Safe };
        s.push(m.removed_kind, callers, Class::Breaking, format!("{} `{value}` removed", m.noun));
    }
    if was_open != open {
        // Opening lets responses carry unknown members; closing lets requests fail on them.
        let breaks_callers = (open && usage.output) || (!open && usage.input);
        let callers = if breaks_callers { Class::Breaking } else { Class::Safe };
        let word = if open { "becomes open" } else { "becomes closed" };
        s.push(
            m.opened_kind,
            callers,
            Class::Breaking,
            format!("{word}: the Rust fallback variant is added or removed"),
        );
    }
}
