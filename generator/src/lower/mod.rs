//! Lowering: raw spec → validated [`Api`], with every semantic check.
//!
//! One pass declares names (so references may point forward and across files), one lowers
//! each entry, and the final passes check what needs the whole picture: references,
//! union tags and distinctness, list envelopes, defaults and samples against their types,
//! gap references. Every problem is recorded with its location and lowering goes on, so one
//! run lists them all. The result is `None` when any error was found.

use crate::diag::suggest;
use crate::diag::{Diagnostics, Location};
use crate::load::raw::*;
use crate::load::{Entry, Origin, Spec};
use crate::model::names::{self, Case, Scope, sanitize};
use crate::model::typeref::{self, Parsed, Placeholder};
use crate::model::*;
use serde_json::{Number, Value};
use std::collections::{BTreeMap, BTreeSet};

mod auth;
mod checks;
mod finite;
mod graph;
mod head;
mod oauth;
mod operations;
mod params;
mod routes;
mod servers;
mod shapes;
mod styles;
mod types;
mod values;

use values::*;

pub use head::{MAX_TITLE, MAX_VERSION};
pub use values::is_rfc3339;

/// Runtime names a generated enum or union may use for the variant that keeps what the spec
/// does not list, in order of preference.
const FALLBACK_NAMES: &[&str] = &["Unknown", "UnknownValue", "Unrecognized"];

/// Lowers a loaded spec. Returns `None` when an error was recorded.
pub fn lower(spec: &Spec, diags: &mut Diagnostics) -> Option<Api> {
    let mut lowerer = Lowerer::new(spec, diags);
    let api = lowerer.run();
    if lowerer.diags.has_errors() {
        return None;
    }
    if let Some(api) = &api {
        for name in crate::model::reach::unused_types(api) {
            let at = api.ty(name).origin.clone();
            lowerer
                .diags
                .warning(crate::diag::Lint::UnusedType, at, format!("type `{name}` is taken or answered by no operation"))
                .hint("remove it, or allow `unused-type` under [lint] in apigen.toml if it is there for users of the types");
        }
    }
    api
}

/// A reference to a gap from an element.
struct GapUse {
    id: String,
    element: String,
    at: Location,
}

/// A value (default or sample) to check once every type is known.
struct ValueCheck {
    value: Value,
    ty: TypeRef,
    constraints: Constraints,
    what: &'static str,
    at: Location,
}

struct Lowerer<'a> {
    spec: &'a Spec,
    diags: &'a mut Diagnostics,
    types: BTreeMap<String, TypeDef>,
    type_scope: Scope,
    /// Where each spec type name was declared, for duplicate reports.
    declared: BTreeMap<String, Location>,
    refs: Vec<(TypeRef, Location)>,
    gap_uses: Vec<GapUse>,
    value_checks: Vec<ValueCheck>,
    shared_params: BTreeMap<String, Param>,
    /// Where each union variant is listed, by union name and index.
    variant_at: BTreeMap<(String, usize), Location>,
    /// Names of the types the spec declares as enumerations (known before they are lowered).
    raw_enums: BTreeSet<&'a str>,
    /// The schemes of `api.auth` (set by `lower_api`).
    auth_schemes: Vec<AuthScheme>,
    /// `api.servers` (set by `lower_api`).
    servers: Vec<Server>,
    /// `api.errors` (set by `lower_api`), and where it is declared.
    errors: (ErrorConvention, Option<Origin>),
    /// `api.unknown_fields: ignore` (set by `lower_api`): objects that say nothing ignore a
    /// request's undeclared fields.
    ignore_unknown: bool,
    /// The `includes:` of each object type, resolved once every type is lowered.
    includes: Vec<(String, Vec<String>, Origin)>,
    /// Text constraints (`max_length`...) on a named type not lowered yet when met (an inline
    /// enumeration of an operation in a later file): checked once every type is lowered.
    text_checks: Vec<(String, &'static str, Location)>,
    /// The type of each field marked `untyped`, and where: checked to be an object once every
    /// type is lowered.
    untyped_fields: Vec<(TypeRef, Location)>,
}

/// What a [`RawField`] is being read as.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Field,
    Param,
    Body,
}

impl<'a> Lowerer<'a> {
    fn new(spec: &'a Spec, diags: &'a mut Diagnostics) -> Self {
        Lowerer {
            spec,
            diags,
            types: BTreeMap::new(),
            type_scope: Scope::new(),
            declared: BTreeMap::new(),
            refs: Vec::new(),
            gap_uses: Vec::new(),
            value_checks: Vec::new(),
            shared_params: BTreeMap::new(),
            variant_at: BTreeMap::new(),
            raw_enums: spec.types.iter().filter(|t| t.value.enum_values.is_some()).map(|t| t.name.as_str()).collect(),
            auth_schemes: Vec::new(),
            servers: Vec::new(),
            errors: (ErrorConvention::default(), None),
            ignore_unknown: false,
            includes: Vec::new(),
            text_checks: Vec::new(),
            untyped_fields: Vec::new(),
        }
    }

    fn at(&self, origin: &Origin) -> Location {
        self.spec.locate(origin)
    }

    fn run(&mut self) -> Option<Api> {
        let head = self.lower_api();
        let gaps = self.lower_gaps();
        let tags = self.lower_tags();
        let pagination = self.lower_pagination();
        self.declare_types();
        self.lower_shared_params();
        let spec = self.spec;
        for entry in &spec.types {
            let at = self.at(&entry.origin);
            if self.declared.get(&entry.name) == Some(&at) {
                self.lower_named_type(entry);
            }
        }
        self.resolve_includes();
        self.check_file_modules();
        let operations = self.lower_operations(&tags, &pagination);
        self.check_text_constraints();
        routes::check_routes(&operations, self.diags);
        if !self.check_refs() {
            return None; // The passes below need every reference to resolve to a lowered type.
        }
        if !self.check_finite() {
            return None; // Samples and boxing would recurse forever on a type with no value.
        }
        self.check_unions();
        self.check_error_convention();
        self.check_envelopes(&operations);
        self.check_param_types(&operations);
        self.check_header_types(&operations);
        self.check_media(&operations);
        self.check_untyped_bodies(&operations);
        self.check_untyped_fields();
        let convention_at = match self.spec.pagination.first() {
            Some(first) => self.at(&first.origin.key("params")),
            None => Location::file(String::new()),
        };
        self.check_pagination_params(&pagination, &convention_at);
        for op in &operations {
            if let Some(own) = op.pagination.as_ref().filter(|p| **p != pagination) {
                let at = op.origin.clone();
                self.check_pagination_params(own, &at);
            }
        }
        self.mark_usage(&operations);
        self.mark_boxes();
        self.check_values();
        let gaps = self.resolve_gaps(gaps);
        let (name, title, version, description, source, extensions) = head?;
        let mut api = Api {
            name,
            crates: CrateNames::default(),
            title,
            version,
            description,
            source,
            license: self
                .spec
                .api
                .first()
                .and_then(|api| api.value.license.as_deref())
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_owned),
            extensions,
            tags,
            types: std::mem::take(&mut self.types),
            operations,
            gaps,
            pagination,
            auth_schemes: std::mem::take(&mut self.auth_schemes),
            servers: std::mem::take(&mut self.servers),
            errors: std::mem::take(&mut self.errors.0),
            spec_hash: self.spec.hash.clone(),
            tag_index: BTreeMap::new(),
        };
        api.index_tags();
        shapes::settle(&mut api, self.diags);
        Some(api)
    }
}

/// The Rust name of an untagged variant: the type's name without the union's name in front
/// (`CommentBodyMarkdown` in `CommentBody` gives `Markdown`), or the JSON kind.
fn untagged_variant_name(union: &str, ty: &TypeRef, types: &BTreeMap<String, TypeDef>) -> String {
    match ty {
        TypeRef::Named(name) => {
            let rust = &types[name].rust;
            match rust.strip_prefix(union) {
                Some(rest) if rest.starts_with(|c: char| c.is_ascii_uppercase()) => rest.to_owned(),
                _ => rust.clone(),
            }
        }
        TypeRef::List(_) => "List".into(),
        TypeRef::Map(_) => "Map".into(),
        other => sanitize(&other.to_string(), Case::Pascal),
    }
}

/// The first of [`FALLBACK_NAMES`] that no listed variant took.
fn fallback_name(scope: &Scope) -> String {
    FALLBACK_NAMES.iter().find(|n| !scope.contains(n)).copied().unwrap_or("UnknownVariant").to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_forms() {
        for ok in ["2024-01-01T00:00:00Z", "2024-01-01T00:00:00.123Z", "2024-01-01T00:00:00+02:00"] {
            assert!(is_rfc3339(ok), "{ok}");
        }
        for bad in ["2024-01-01", "2024-01-01 00:00:00Z", "2024-01-01T00:00:00", "2024-01-01T00:00:00.Z", "x"] {
            assert!(!is_rfc3339(bad), "{bad}");
        }
    }
}
