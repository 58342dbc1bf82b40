//! Validation: the constraints of the spec, checked on values already decoded.
//!
//! Generated types implement [`Validate`] with one call per constrained field; the
//! [`Validator`] keeps the JSON pointer of the value being checked and collects every
//! violation. The server runs it on every request before a handler; the client can run it
//! on a request body before sending it.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

/// One problem with a value: where (a JSON pointer, empty for the whole value) and what.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Violation {
    /// JSON pointer to the offending value (`/title`, `/items/3/name`; empty for the root).
    pub path: String,
    /// What is wrong with it.
    pub message: String,
}

impl Violation {
    /// A violation at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Violation { path: path.into(), message: message.into() }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() { "(root)" } else { &self.path };
        write!(f, "{path}: {}", self.message)
    }
}

/// Every violation found in a value: at least one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violations(pub Vec<Violation>);

impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, violation) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{violation}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Violations {}

/// Violations of which only the first few were built (a server lists at most
/// [`crate::defaults::MAX_LISTED_VIOLATIONS`]): the rest were counted, never built, so a body
/// of 500,000 invalid items costs 100 violations, not 500,000.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capped {
    /// The violations built, in the order found.
    pub listed: Vec<Violation>,
    /// How many were found in all (at least `listed.len()`).
    pub all: usize,
}

/// A value whose constraints can be checked.
pub trait Validate {
    /// Records the violations of this value (and of the values it holds) in `v`.
    fn validate_into(&self, v: &mut Validator);

    /// Checks this value: `Err` lists every violation with its JSON pointer. (Not part of
    /// the `dyn Validate` vtable, which would compile a copy for every generated type.)
    fn validate(&self) -> Result<(), Violations>
    where
        Self: Sized,
    {
        let mut validator = Validator::default();
        self.validate_into(&mut validator);
        validator.finish()
    }
}

/// Collects violations while walking a value.
#[derive(Debug, Default)]
pub struct Validator {
    root: String,
    path: Vec<String>,
    violations: Vec<Violation>,
    /// Violations found, built or not.
    found: usize,
    /// Most violations built; `None` builds every one.
    cap: Option<usize>,
}

impl Validator {
    /// A validator building only the first `cap` violations it finds, counting the rest
    /// ([`Validator::finish_capped`]).
    pub fn capped(cap: usize) -> Self {
        Validator { cap: Some(cap), ..Validator::default() }
    }

    /// The violations found, as a result: those built, and how many were found in all.
    pub fn finish_capped(self) -> Result<(), Capped> {
        if self.found == 0 { Ok(()) } else { Err(Capped { listed: self.violations, all: self.found }) }
    }

    /// A validator whose violations are reported under `root` instead of a JSON pointer
    /// (`query.limit` for a parameter).
    pub fn rooted(root: impl Into<String>) -> Self {
        Validator { root: root.into(), ..Validator::default() }
    }

    /// The violations found, as a result.
    pub fn finish(self) -> Result<(), Violations> {
        if self.violations.is_empty() { Ok(()) } else { Err(Violations(self.violations)) }
    }

    fn pointer(&self) -> String {
        let mut pointer = self.root.clone();
        for segment in &self.path {
            pointer.push('/');
            pointer.push_str(segment);
        }
        pointer
    }

    /// Records a violation at the current position.
    pub fn fail(&mut self, message: impl Into<String>) {
        self.found += 1;
        if self.cap.is_none_or(|cap| self.violations.len() < cap) {
            let pointer = self.pointer();
            self.violations.push(Violation::new(pointer, message));
        }
    }

    /// The validator for the value held in field (or item, or entry) `key`: what is recorded
    /// through the returned guard is reported at the pointer extended by `key`, until the
    /// guard is dropped. Every check below applies to "the current value"; this is how one
    /// reaches a field (`let mut v = v.at("title"); v.length(title, ..)`).
    pub fn at(&mut self, key: &str) -> At<'_> {
        self.path.push(key.replace('~', "~0").replace('/', "~1"));
        At(self)
    }

    /// Checks a value held in field `key` with its own [`Validate`].
    pub fn field(&mut self, key: &str, value: &dyn Validate) {
        value.validate_into(&mut self.at(key));
    }

    /// Checks that the value held in field `key` is an absolute URL: `at(key).url(value)` in
    /// one call, which generated code uses for its many URL fields (no guard to drop in each).
    pub fn url_at(&mut self, key: &str, value: &str) {
        if !is_absolute_url(value) {
            self.at(key).fail("must be an absolute URL");
        }
    }

    /// Length of the current value in characters, within `min..=max`.
    pub fn length(&mut self, value: &str, min: Option<u64>, max: Option<u64>) {
        let found = value.chars().count() as u64;
        if let Some(min) = min.filter(|min| found < *min) {
            self.fail(format!("must be at least {min} characters long (found {found})"));
        }
        if let Some(max) = max.filter(|max| found > *max) {
            self.fail(format!("must be at most {max} characters long (found {found})"));
        }
    }

    /// The current value has `format`.
    pub fn format(&mut self, value: &str, format: crate::Format) {
        if !format.accepts(value) {
            self.fail(format!("must be a valid {}", format.as_str()));
        }
    }

    /// The current value matches `pattern`.
    pub fn pattern(&mut self, value: &str, pattern: &Pattern) {
        if !pattern.is_match(value) {
            self.fail(format!("must match the pattern {}", pattern.source()));
        }
    }

    /// The current value within `min..=max`.
    pub fn int_range(&mut self, value: i64, min: Option<i64>, max: Option<i64>) {
        if let Some(min) = min.filter(|min| value < *min) {
            self.fail(format!("must be at least {min} (found {value})"));
        }
        if let Some(max) = max.filter(|max| value > *max) {
            self.fail(format!("must be at most {max} (found {value})"));
        }
    }

    /// The current value within `min..=max`.
    pub fn num_range(&mut self, value: f64, min: Option<f64>, max: Option<f64>) {
        if let Some(min) = min.filter(|min| value < *min) {
            self.fail(format!("must be at least {min} (found {value})"));
        }
        if let Some(max) = max.filter(|max| value > *max) {
            self.fail(format!("must be at most {max} (found {value})"));
        }
    }

    /// Number of items of the current value within `min..=max`, or exactly `exact`.
    pub fn item_count(&mut self, found: usize, min: Option<u64>, max: Option<u64>, exact: Option<u64>) {
        let found = found as u64;
        if let Some(exact) = exact.filter(|exact| found != *exact) {
            self.fail(format!("must hold exactly {exact} items (found {found})"));
        }
        if let Some(min) = min.filter(|min| found < *min) {
            self.fail(format!("must hold at least {min} items (found {found})"));
        }
        if let Some(max) = max.filter(|max| found > *max) {
            self.fail(format!("must hold at most {max} items (found {found})"));
        }
    }

    /// Number of entries of the current map within `min..=max` (OpenAPI's `minProperties`,
    /// `maxProperties` on a map).
    pub fn entry_count(&mut self, found: usize, min: Option<u64>, max: Option<u64>) {
        let found = found as u64;
        if let Some(min) = min.filter(|min| found < *min) {
            self.fail(format!("must have at least {min} entries (found {found})"));
        }
        if let Some(max) = max.filter(|max| found > *max) {
            self.fail(format!("must have at most {max} entries (found {found})"));
        }
    }

    /// No two items of the current list are equal (OpenAPI's `uniqueItems`): each repeat is
    /// reported at its index, naming the first item it repeats (`/tags/2`: "repeats item 0").
    ///
    /// Items are compared as the JSON they write, each written once and hashed, so a list of
    /// n items costs n writes, never n² comparisons. The JSON a generated type writes is
    /// canonical for the type (fields in declared order, map keys sorted), so equal values
    /// write equal text; where JSON Schema's equality is looser (`-0.0` and `0.0`, a `json`
    /// item's objects with keys in another order), a repeat may go unnoticed, never the
    /// reverse.
    pub fn unique<T: Serialize>(&mut self, items: &[T]) {
        let mut first_of: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        for (index, item) in items.iter().enumerate() {
            // A value that does not write as JSON cannot be compared; it never is a repeat.
            let Ok(text) = serde_json::to_string(item) else { continue };
            match first_of.entry(text) {
                std::collections::hash_map::Entry::Occupied(first) => {
                    let first = *first.get();
                    self.at(&index.to_string()).fail(format!("repeats item {first}: the items must be unique"));
                }
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(index);
                }
            }
        }
    }

    /// Checks each item of the current list with `check`, each reported at its index
    /// (`/tags/2`): a list's `item:` constraints.
    pub fn each<T>(&mut self, items: &[T], mut check: impl FnMut(&mut Validator, &T)) {
        items.iter().enumerate().for_each(|(index, item)| check(&mut self.at(&index.to_string()), item));
    }

    /// Checks each value of the current map with `check`, each reported at its key
    /// (`/tags/team`): a map's `item:` constraints (OpenAPI's `additionalProperties` holding
    /// a constrained scalar, AWS's tag maps).
    pub fn each_value<T>(&mut self, entries: &BTreeMap<String, T>, mut check: impl FnMut(&mut Validator, &T)) {
        entries.iter().for_each(|(key, value)| check(&mut self.at(key), value));
    }

    /// The current value is an absolute URL ([`is_absolute_url`]).
    pub fn url(&mut self, value: &str) {
        if !is_absolute_url(value) {
            self.fail("must be an absolute URL");
        }
    }

    /// For a value of a closed enumeration that is not listed.
    pub fn not_listed(&mut self, found: &str, allowed: &[&str]) {
        self.fail(format!("{found:?} is not one of: {}", allowed.join(", ")));
    }
}

/// The validator at a field, item or entry (see [`Validator::at`]); dropping it leaves it.
pub struct At<'a>(&'a mut Validator);

impl std::ops::Deref for At<'_> {
    type Target = Validator;
    fn deref(&self) -> &Validator {
        self.0
    }
}

impl std::ops::DerefMut for At<'_> {
    fn deref_mut(&mut self) -> &mut Validator {
        self.0
    }
}

impl Drop for At<'_> {
    fn drop(&mut self) {
        self.0.path.pop();
    }
}

pub use crate::format::is_absolute_url;

/// How many steps the backtracking engine may take on one value before it gives up (the value
/// is then refused as not matching): patterns with look-around or backreferences cannot be
/// matched in linear time, and a value chosen to make one backtrack must not hold a worker.
/// apigen's lint and samples use the same limit.
pub const PATTERN_BACKTRACK_LIMIT: usize = 100_000;

/// A regular expression compiled on first use, shared by every check of one field. The regex
/// crate's syntax, matched in linear time by regex-lite; a pattern regex-lite cannot read
/// (look-around, backreferences, Unicode classes) is matched by fancy-regex, bounded by
/// [`PATTERN_BACKTRACK_LIMIT`], when the `extended-patterns` feature is on (the generated
/// types crate turns it on when its spec has such a pattern; apigen's lint accepts a pattern
/// only when one of the two engines compiles it).
#[doc(hidden)] // Generated code names it through `codegen`.
pub struct Pattern {
    source: &'static str,
    compiled: OnceLock<Option<Engine>>,
}

/// The engine a pattern compiled with.
enum Engine {
    Linear(regex_lite::Regex),
    #[cfg(feature = "extended-patterns")]
    Backtracking(fancy_regex::Regex),
}

impl Engine {
    fn compile(source: &str) -> Option<Engine> {
        match regex_lite::Regex::new(source) {
            Ok(regex) => Some(Engine::Linear(regex)),
            #[cfg(feature = "extended-patterns")]
            Err(_) => fancy_regex::RegexBuilder::new(source)
                .backtrack_limit(PATTERN_BACKTRACK_LIMIT)
                .build()
                .ok()
                .map(Engine::Backtracking),
            #[cfg(not(feature = "extended-patterns"))]
            Err(_) => None,
        }
    }

    fn is_match(&self, value: &str) -> bool {
        match self {
            Engine::Linear(regex) => regex.is_match(value),
            // Past the limit the engine answers an error: the value is refused.
            #[cfg(feature = "extended-patterns")]
            Engine::Backtracking(regex) => regex.is_match(value).unwrap_or(false),
        }
    }
}

impl Pattern {
    /// A pattern; it is compiled the first time it is used.
    pub const fn new(source: &'static str) -> Self {
        Pattern { source, compiled: OnceLock::new() }
    }

    /// The expression.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// True when `value` matches. apigen checks every pattern compiles when it reads the spec,
    /// with the same engines; if one ever did not, nothing would match.
    pub fn is_match(&self, value: &str) -> bool {
        self.compiled.get_or_init(|| Engine::compile(self.source)).as_ref().is_some_and(|engine| engine.is_match(value))
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Pattern").field(&self.source).finish()
    }
}

/// Values with nothing of their own to check (their constraints, where the spec gives any,
/// are checked by the object or parameter holding them): a whole body of any JSON or of a
/// scalar validates as it is.
macro_rules! nothing_to_check {
    ($($ty:ty),*) => {$(
        impl Validate for $ty {
            fn validate_into(&self, _: &mut Validator) {}
        }
    )*};
}

nothing_to_check!(serde_json::Value, String, i64, f64, bool, chrono::DateTime<chrono::Utc>);

impl<T: Validate> Validate for Option<T> {
    fn validate_into(&self, v: &mut Validator) {
        if let Some(value) = self {
            value.validate_into(v);
        }
    }
}

impl<T: Validate> Validate for Box<T> {
    fn validate_into(&self, v: &mut Validator) {
        (**self).validate_into(v);
    }
}

impl<T: Validate> Validate for Vec<T> {
    fn validate_into(&self, v: &mut Validator) {
        for (i, item) in self.iter().enumerate() {
            item.validate_into(&mut v.at(&i.to_string()));
        }
    }
}

impl<T: Validate> Validate for BTreeMap<String, T> {
    fn validate_into(&self, v: &mut Validator) {
        for (key, item) in self {
            item.validate_into(&mut v.at(key));
        }
    }
}

impl<T: Validate> Validate for crate::Patch<T> {
    fn validate_into(&self, v: &mut Validator) {
        if let crate::Patch::Value(value) = self {
            value.validate_into(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Thing {
        title: String,
        pulse: Vec<i64>,
        size: i64,
        slug: String,
        site: String,
    }

    impl Validate for Thing {
        fn validate_into(&self, v: &mut Validator) {
            static SLUG: Pattern = Pattern::new("^[a-z0-9]+(?:-[a-z0-9]+)*$");
            v.at("title").length(&self.title, Some(2), Some(5));
            v.at("weeklyPulse").item_count(self.pulse.len(), None, None, Some(13));
            v.at("size").int_range(self.size, Some(1), Some(1000));
            v.at("slug").pattern(&self.slug, &SLUG);
            v.url_at("site", &self.site);
        }
    }

    #[test]
    fn every_violation_is_reported_with_its_pointer() {
        let thing = Thing {
            title: "héllo!".into(),
            pulse: vec![1; 12],
            size: 1001,
            slug: "Not A Slug".into(),
            site: "example.com/x".into(),
        };
        let messages: Vec<String> = thing.validate().unwrap_err().0.iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "/title: must be at most 5 characters long (found 6)",
                "/weeklyPulse: must hold exactly 13 items (found 12)",
                "/size: must be at most 1000 (found 1001)",
                "/slug: must match the pattern ^[a-z0-9]+(?:-[a-z0-9]+)*$",
                "/site: must be an absolute URL",
            ]
        );
    }

    #[test]
    fn lengths_count_characters_not_bytes() {
        let thing =
            Thing {
                title: "ééééé".into(), pulse: vec![0; 13], size: 5, slug: "a-b".into(), site: "https://x".into()
            };
        assert_eq!(thing.validate(), Ok(()));
    }

    #[test]
    fn nested_values_extend_the_pointer() {
        struct Outer(Vec<Option<Thing>>);
        impl Validate for Outer {
            fn validate_into(&self, v: &mut Validator) {
                v.field("things", &self.0);
            }
        }
        let bad =
            Thing { title: "x".into(), pulse: vec![0; 13], size: 0, slug: "ok".into(), site: "mailto:a@b".into() };
        let outer = Outer(vec![None, Some(bad)]);
        let messages: Vec<String> = outer.validate().unwrap_err().0.iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "/things/1/title: must be at least 2 characters long (found 1)",
                "/things/1/size: must be at least 1 (found 0)"
            ]
        );
    }
}
