//! `apigen import`: an OpenAPI 3.0 or 3.1 document becomes spec files a person would have
//! written.
//!
//! One function per construct of the document, each the one place to extend when the format
//! learns more: [`schema`] (schemas to types), [`operations`] (paths, routes, tags) with
//! [`params`], [`bodies`], [`responses`], [`security`] and [`media`] (media types), [`settle`]
//! (unions, finiteness, names that failed), [`files`] (the spec files). What OpenAPI has no word for is told from the names a document uses and written in
//! the spec to be checked: how lists page ([`pagination`]) and the error body ([`errors`]),
//! both checked against the types built ([`walk`]). Whatever the format cannot hold yet
//! becomes a gap ([`gaps`]) recorded beside the decision taken, so nothing is lost silently:
//! `apigen gaps` lists them, and the import prints how many of each.
//!
//! An import is a pipeline over three values: the [`document`] read once (never changed while
//! building), what is being written ([`built`]), and the guards of the schema walk
//! ([`guards`]); what one operation's parameters tell besides them travels with the operation
//! ([`params::ParamsRead`]).
//!
//! Decisions that hold for every document: wire names (fields, parameters, enumeration
//! values, paths) are kept exactly; names the format derives Rust names from (types,
//! operations, tags) are made valid and unique; an object without `additionalProperties` is
//! read as the format reads objects (unknown fields are ignored in responses and refused in
//! requests by the generated server).

mod bodies;
mod built;
mod document;
mod errors;
mod failure;
mod files;
mod flows;
pub mod gaps;
mod guards;
mod media;
mod merge;
mod names;
mod operations;
mod pagination;
mod params;
mod refs;
mod responses;
mod schema;
mod security;
mod settle;
mod typed;
mod walk;
pub(crate) mod write;
pub mod yaml;

pub use failure::{ImportFailure, imported_levels};

use built::{Built, OperationOut, PendingCursor, PendingUnion, TypeOut};
use document::Document;
use guards::Walk;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// What an import produced: the spec files and what it kept and left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    /// Spec files by name (`api.yaml`, `pets.yaml`), in writing order.
    pub files: Vec<(String, String)>,
    /// The counts the summary line gives.
    pub summary: Summary,
    /// How many inline shapes name an earlier copy instead of repeating it.
    pub shared_shapes: usize,
    /// The crate-name prefix written as `api.name`.
    pub crate_name: String,
}

/// What an import kept and left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Operations of the document.
    pub operations: usize,
    /// Operations kept in the spec.
    pub kept: usize,
    /// Parameters of the operations kept, as the document declares them (path-level ones
    /// counted with each operation).
    pub params: usize,
    /// Of those, the parameters left out with a gap (an object, a union, a style the format
    /// does not hold, a header the generated code sets itself, a name taken twice).
    pub params_left_out: usize,
    /// Named types written.
    pub types: usize,
    /// Gap entries written.
    pub gaps: usize,
    /// Places each kind of gap applies to, by gap id.
    pub kinds: BTreeMap<String, usize>,
    /// Operations left out, by the id of the kind of gap that left them out.
    pub left_out: BTreeMap<String, usize>,
}

impl Summary {
    /// One line: `12 of 14 operations kept, 30 of 31 parameters kept, 20 types, 6 gaps; ...`.
    pub fn line(&self) -> String {
        let mut kinds: Vec<(&String, &usize)> = self.kinds.iter().collect();
        kinds.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let kinds: Vec<String> = kinds.iter().map(|(id, n)| format!("{id} {n}")).collect();
        let left_out: Vec<String> = self.left_out.iter().map(|(id, n)| format!("{id} {n}")).collect();
        let mut line = format!(
            "{} of {} operations kept, {} of {} parameters kept, {}, {}",
            self.kept,
            self.operations,
            self.params - self.params_left_out,
            self.params,
            crate::diag::count(self.types, "type"),
            crate::diag::count(self.gaps, "gap")
        );
        if !left_out.is_empty() {
            line.push_str(&format!("; left out: {}", left_out.join(", ")));
        }
        if !kinds.is_empty() {
            line.push_str(&format!("; gap places: {}", kinds.join(", ")));
        }
        line
    }
}

/// Why a document cannot be imported at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// Not an OpenAPI 3.0 or 3.1 document.
    #[error("{0}")]
    NotOpenApi(String),
}

/// Why an operation is left out.
struct LeftOut {
    kind: gaps::Kind,
    why: String,
}

impl LeftOut {
    fn new(kind: gaps::Kind, why: impl Into<String>) -> Self {
        LeftOut { kind, why: why.into() }
    }
}

/// One pass of an import: what it reads, how it builds, what it has built.
struct Importer<'a> {
    /// The document and what is told from it before anything is built.
    doc: &'a Document<'a>,
    /// How this pass builds.
    pass: Pass,
    /// The spec built so far.
    built: Built,
    /// The guards of the schema walk.
    walk: Walk,
}

/// How one pass of an import builds.
struct Pass {
    /// Components built merged rather than as `includes` (an included type was not built).
    no_compose: BTreeSet<String>,
    /// Whether a shape met before is named rather than repeated.
    share_shapes: bool,
    /// The crate-name prefix asked for (`--name`), instead of one from the document.
    crate_name: Option<String>,
}

/// Imports `doc`; `document` names it in gap sources.
///
/// A component written as `includes` may name another that does not come out an object (an
/// alias, `json`): the import then starts over with such components merged, so that nothing
/// built in the first pass (a shared inline shape, a claimed name) points at what changed.
pub fn import(doc: &Value, document: &str) -> Result<Imported, ImportError> {
    import_sharing(doc, document, true)
}

/// [`import`], sharing inline shapes met before (`share`) or declaring every copy: a shared
/// shape names the type its first copy became, which a later pass can still drop (the caller
/// imports again without sharing when the spec does not lint).
pub fn import_sharing(doc: &Value, document: &str, share: bool) -> Result<Imported, ImportError> {
    import_named(doc, document, share, None)
}

/// [`import_sharing`], the crates named `crate_name` (`--name`) instead of from the document.
pub fn import_named(
    doc: &Value,
    document: &str,
    share: bool,
    crate_name: Option<&str>,
) -> Result<Imported, ImportError> {
    check_version(doc)?;
    let read = Document::read(doc);
    let mut no_compose = BTreeSet::new();
    loop {
        let pass =
            Pass { no_compose: no_compose.clone(), share_shapes: share, crate_name: crate_name.map(str::to_owned) };
        let mut importer = Importer::new(&read, pass);
        importer.run();
        let broken = importer.broken_includes();
        if broken.is_empty() || broken.is_subset(&no_compose) {
            importer.settle();
            return Ok(importer.files(document));
        }
        no_compose.extend(broken);
    }
}

impl<'a> Importer<'a> {
    fn new(doc: &'a Document<'a>, pass: Pass) -> Self {
        Importer { doc, pass, built: Built::new(doc.component_names.clone()), walk: Walk::default() }
    }

    /// Every pass up to settling the unions.
    fn run(&mut self) {
        self.carry_gaps();
        self.build_components();
        self.declare_tags();
        self.note_scheme_gaps();
        self.tell_errors();
        self.paths();
        self.settle_cursors();
        self.hoist_pagination();
        self.note_document_gaps();
        self.build_needed();
    }
}

/// The `openapi` field says 3.0.x or 3.1.x.
fn check_version(doc: &Value) -> Result<(), ImportError> {
    if !doc.is_object() {
        return Err(ImportError::NotOpenApi("the document is not a mapping".into()));
    }
    if doc.get("swagger").is_some() {
        return Err(ImportError::NotOpenApi(
            "this is a Swagger 2.0 document; convert it to OpenAPI 3 first (for example with swagger2openapi)".into(),
        ));
    }
    match doc.get("openapi").and_then(Value::as_str) {
        Some(v) if v.starts_with("3.0") || v.starts_with("3.1") => Ok(()),
        Some(v) => Err(ImportError::NotOpenApi(format!("OpenAPI {v} is not supported: import reads 3.0 and 3.1"))),
        None => Err(ImportError::NotOpenApi("no `openapi` version field: not an OpenAPI document".into())),
    }
}

impl Importer<'_> {
    /// Claims a type name: `wanted` or a free variant of it.
    fn claim_type(&mut self, wanted: &str) -> String {
        if self.built.reuse_name.as_deref() == Some(wanted) {
            return self.built.reuse_name.take().unwrap_or_default();
        }
        // Derived names may carry a keyword's `_` (`Self_`): type names are letters and digits.
        let wanted: String = wanted.chars().filter(char::is_ascii_alphanumeric).collect();
        let wanted = if wanted.is_empty() { "Type" } else { wanted.as_str() };
        self.built.type_names.claim(wanted)
    }

    /// The type name of component schema `key`, when it is a type of the format.
    fn component_type(&mut self, key: &str) -> Option<String> {
        let name = self.doc.components.get(key)?.clone()?;
        if !self.built.types.contains_key(&name) && !self.built.needed.contains(&key.to_owned()) {
            self.built.needed.push(key.to_owned());
        }
        Some(name)
    }

    /// Gaps an apigen export carries (`x-gaps`), kept under their ids.
    fn carry_gaps(&mut self) {
        let Some(carried) = self.doc.value.get("x-gaps").and_then(Value::as_object) else { return };
        for (id, gap) in carried {
            let text = |key: &str| gap.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
            let (source, text_gap, decision) = (text("source"), text("gap"), text("decision"));
            if !source.is_empty() && !text_gap.is_empty() && !decision.is_empty() {
                self.built.gaps.carry(id, &source, &text_gap, &decision);
            }
        }
    }

    /// Builds every component type, but for the format's own error body (built only when
    /// something else uses it).
    fn build_components(&mut self) {
        let keys: Vec<(String, String)> =
            self.doc.components.iter().filter_map(|(k, n)| Some((k.clone(), n.clone()?))).collect();
        for (key, name) in keys {
            let schema = &self.doc.value["components"]["schemas"][&key];
            if is_default_error_body(self.doc.value, schema) {
                continue;
            }
            self.build_component(&key, &name);
        }
        self.built.needed.clear();
    }

    /// The components whose `includes` name a type that was not built as an object.
    fn broken_includes(&self) -> BTreeSet<String> {
        let broken = self.built.types.iter().filter(|(_, ty)| {
            ty.node.get("includes").and_then(Value::as_array).is_some_and(|names| {
                names
                    .iter()
                    .filter_map(Value::as_str)
                    .any(|n| self.built.types.get(n).is_none_or(|t| !t.node.contains_key("fields")))
            })
        });
        broken
            .filter_map(|(name, _)| self.doc.components.iter().find(|(_, n)| n.as_deref() == Some(name.as_str())))
            .map(|(key, _)| key.clone())
            .collect()
    }

    /// Builds the component types something used after the first pass.
    fn build_needed(&mut self) {
        while let Some(key) = self.built.needed.pop() {
            // A component is built once: one that failed is not tried again (two components
            // including each other would otherwise ask for each other forever).
            if let Some(Some(name)) = self.doc.components.get(&key).cloned()
                && !self.built.types.contains_key(&name)
                && !self.built.failed.contains_key(&name)
            {
                self.build_component(&key, &name);
            }
        }
    }

    fn build_component(&mut self, key: &str, name: &str) {
        let doc = self.doc.value;
        let schema = &doc["components"]["schemas"][key];
        let pointer = refs::child("#/components/schemas", key);
        self.built.reuse_name = Some(name.to_owned());
        self.walk.start_root();
        let at = schema::At::new(pointer.clone(), name);
        let composed = schema
            .as_object()
            .filter(|_| !self.pass.no_compose.contains(key))
            .and_then(|map| self.composition(map, &at));
        let (typed, includes) = match composed {
            Some((includes, own)) => {
                // The own part carries the component's annotations (they sit beside `allOf`).
                (self.schema(&Value::Object(own), &at), includes)
            }
            None => (self.schema(schema, &at), Vec::new()),
        };
        self.built.reuse_name = None;
        let built = match &typed.expr {
            typed::Expr::Named(n) if n == name => {
                if let Some(ty) = self.built.types.get_mut(name) {
                    add_gaps(&mut ty.node, &typed.gaps);
                }
                true
            }
            typed::Expr::Object | typed::Expr::Enum if typed.inline_name.as_deref() == Some(name) => {
                let mut node = typed.node(Vec::new());
                for key in ["type", "type_name", "nullable", "default", "sample", "const", "sensitive"] {
                    node.remove(key);
                }
                for (key, _) in &typed.constraints {
                    node.remove(*key);
                }
                if !node.contains_key("fields")
                    && !node.contains_key("enum")
                    && !node.contains_key("additional_properties")
                {
                    node.insert("fields".into(), Value::Object(Map::new()));
                }
                if !includes.is_empty() && node.contains_key("fields") {
                    node.insert("includes".into(), Value::Array(includes.into_iter().map(Value::String).collect()));
                }
                self.built.types.insert(name.to_owned(), TypeOut { node, pointer });
                true
            }
            _ => false,
        };
        if !built {
            self.built.failed.insert(name.to_owned(), "json".to_owned());
        }
    }
}

/// Adds gap ids to a node's `gaps`.
fn add_gaps(node: &mut Map<String, Value>, ids: &[String]) {
    if ids.is_empty() {
        return;
    }
    let list = node.entry("gaps").or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(list) = list {
        for id in ids {
            if !list.iter().any(|v| v.as_str() == Some(id)) {
                list.push(Value::String(id.clone()));
            }
        }
    }
}

/// True when a schema is the format's own error body, `{"error": {"code", "message",
/// "violations"?}}` and nothing more: the generated code has it already. (Google's `{"error":
/// {"code", "message", "status"}}` says more, and is a type of its own.)
fn is_default_error_body(doc: &Value, schema: &Value) -> bool {
    let Ok((schema, _)) = refs::follow(doc, schema, "#") else { return false };
    let props = schema.get("properties").and_then(Value::as_object);
    let Some(error) = props.filter(|p| p.len() == 1).and_then(|p| p.get("error")) else { return false };
    let Some(inner) = error.get("properties").and_then(Value::as_object) else { return false };
    if inner.keys().any(|k| !matches!(k.as_str(), "code" | "message" | "violations")) {
        return false;
    }
    inner.get("code").and_then(|c| c.get("type")) == Some(&Value::String("integer".into()))
        && inner.get("message").and_then(|m| m.get("type")) == Some(&Value::String("string".into()))
}

/// A mapping of `pairs`, in their order.
fn map(pairs: Vec<(&str, Value)>) -> Map<String, Value> {
    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}
