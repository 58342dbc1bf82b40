//! An operation's parameters: path-level and operation-level ones merged, shared ones
//! (`components/parameters`) declared once under `parameters:`, each typed and styled as the
//! format carries it in a path, query, header or cookie; what cannot travel is left out with
//! a gap.

use super::gaps::{self};
use super::refs;
use super::schema::{At, free_rust_name};
use super::typed::{Expr, Typed};
use super::{Importer, names};
use crate::model::names::{Case, sanitize};
use crate::model::{PathTemplate, Selector};
use indexmap::IndexMap;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// What reading one operation's parameters tells besides them.
#[derive(Debug, Default)]
pub(super) struct ParamsRead {
    /// The parameters read, and how many of them were left out.
    pub counts: (usize, usize),
    /// The object query parameters that are exploded (`style: form`): their wire names and
    /// the query names their fields take.
    exploded: Vec<(String, Vec<String>)>,
}

impl Importer<'_> {
    /// Path-level and operation-level parameters (the operation's win), renamed path
    /// parameters, undeclared ones declared; headers, cookies and objects left out (gaps).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn parameters(
        &mut self,
        item: &Map<String, Value>,
        op: &Map<String, Value>,
        (path, select): (&PathTemplate, &[Selector]),
        renames: &BTreeMap<String, String>,
        op_type: &str,
        (pointer, op_gaps): (&str, &mut Vec<String>),
        read: &mut ParamsRead,
    ) -> Vec<Value> {
        let doc = self.doc.value;
        let merged = self.merged_params(item, op, pointer, op_gaps);
        let mut out = Vec::new();
        read.exploded.clear();
        let mut taken = names::Taken::new(Case::Snake);
        taken.reserve("body");
        let mut wires: BTreeSet<String> = BTreeSet::new();
        let in_path: Vec<&str> = path.params().collect();
        let mut declared_path: BTreeSet<String> = BTreeSet::new();
        let mut query = Vec::new();
        let mut path_out: BTreeMap<String, Value> = BTreeMap::new();
        // Path parameters left out for their type, with a text one item of the list they hold.
        let mut dropped_path: BTreeMap<String, String> = BTreeMap::new();
        // Path parameters first: a path cannot do without them, so another parameter whose
        // Rust name collides with one is the one left out.
        let mut merged: Vec<_> = merged.into_iter().collect();
        merged.sort_by_key(|((_, location), _)| location != "path");
        for ((name, location), (param, param_pointer)) in merged {
            let selects = |s: &Selector| {
                s.location.as_str() == location
                    && (s.name == name || (location == "header" && s.name.eq_ignore_ascii_case(&name)))
            };
            if select.iter().any(selects) {
                continue; // The selector's constant replaces the parameter.
            }
            // Counted read, then left out by every `continue` below but the two that say
            // otherwise (`dropped` is undone there).
            read.counts.0 += 1;
            read.counts.1 += 1;
            if self.not_a_param((&name, &location), (&param_pointer, &mut *op_gaps)) {
                continue;
            }
            let wire =
                if location == "path" { renames.get(&name).cloned().unwrap_or(name.clone()) } else { name.clone() };
            if location == "path" && !in_path.contains(&wire.as_str()) {
                // Declared for a path that does not hold it: not a parameter of the operation.
                read.counts.0 -= 1;
                read.counts.1 -= 1;
                continue;
            }
            // Parameters are told by place and name (header names without case).
            let key = if location == "header" { wire.to_ascii_lowercase() } else { wire.clone() };
            let key = format!("{location} {key}");
            if wires.contains(&key) {
                op_gaps.push(self.built.gaps.note(gaps::PARAM_COLLISION, &param_pointer));
                continue;
            }
            // A Rust name another parameter took (`statementId` beside the path's
            // `statementID`): the parameter keeps its wire name and takes `<name>_2`.
            let resolved = refs::follow(doc, &param, &param_pointer).ok().map(|(resolved, _)| resolved);
            let wanted = resolved.and_then(|r| r.get("x-rust-name")).and_then(Value::as_str);
            let rust = free_rust_name(&mut taken, &wire, wanted);
            let at = (&param_pointer[..], &mut *op_gaps);
            let Some(entry) = self.parameter(&param, (&wire, &rust), &location, op_type, at, read) else {
                if location == "path"
                    && let Some(sample) = resolved.and_then(|r| r.get("schema")).and_then(list_item_text)
                {
                    dropped_path.insert(wire.clone(), sample);
                }
                continue;
            };
            read.counts.1 -= 1;
            wires.insert(key);
            taken.claim(&rust);
            if location == "path" {
                declared_path.insert(wire.clone());
                path_out.insert(wire, entry);
            } else {
                query.push(entry);
            }
        }
        self.drop_colliding_exploded(&mut query, &wires, select, (pointer, &mut *op_gaps), read);
        for name in &in_path {
            if !declared_path.contains(*name) {
                op_gaps.push(self.built.gaps.note(gaps::UNDECLARED_PATH_PARAM, pointer));
                if let Some(entry) = undeclared_path_param(name, &mut taken, &dropped_path) {
                    path_out.insert((*name).to_owned(), entry);
                }
            }
        }
        for name in in_path {
            if let Some(entry) = path_out.remove(name) {
                out.push(entry);
            }
        }
        out.extend(query);
        out
    }

    /// The path item's and the operation's parameters by name and location (the operation's
    /// win), each as written with its pointer; a broken reference is a gap.
    fn merged_params(
        &mut self,
        item: &Map<String, Value>,
        op: &Map<String, Value>,
        pointer: &str,
        op_gaps: &mut Vec<String>,
    ) -> IndexMap<(String, String), (Value, String)> {
        let doc = self.doc.value;
        let mut merged = IndexMap::new();
        let item_pointer = pointer.rsplit_once('/').map_or(pointer, |(item, _)| item).to_owned();
        let lists = [(item.get("parameters"), item_pointer), (op.get("parameters"), pointer.to_owned())];
        for (list, at) in lists {
            for (i, param) in list.and_then(Value::as_array).into_iter().flatten().enumerate() {
                let param_pointer = refs::child(&refs::child(&at, "parameters"), &i.to_string());
                let Ok((resolved, _)) = refs::follow(doc, param, &param_pointer) else {
                    op_gaps.push(self.built.gaps.note(gaps::BROKEN_REF, &param_pointer));
                    continue;
                };
                let name = resolved.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
                let location = resolved.get("in").and_then(Value::as_str).unwrap_or_default().to_owned();
                merged.insert((name, location), (param.clone(), param_pointer));
            }
        }
        merged
    }

    /// Whether a parameter is read no further for where it travels (left out, with a gap).
    fn not_a_param(
        &mut self,
        (name, location): (&str, &str),
        (param_pointer, op_gaps): (&str, &mut Vec<String>),
    ) -> bool {
        match location {
            // OpenAPI 3: "If `in` is "header" and the `name` field is "Accept", "Content-Type"
            // or "Authorization", the parameter definition SHALL be ignored."
            "header" if is_ignored_header(name) => {
                op_gaps.push(self.built.gaps.note(gaps::IGNORED_HEADER, param_pointer));
                true
            }
            "header" if !is_token(name) || is_reserved_header(name) => {
                op_gaps.push(self.built.gaps.note(gaps::HEADER_PARAM, param_pointer));
                true
            }
            "cookie" if !is_token(name) => {
                op_gaps.push(self.built.gaps.note(gaps::COOKIE_PARAM, param_pointer));
                true
            }
            "path" | "query" | "header" | "cookie" => false,
            _ => {
                op_gaps.push(self.built.gaps.note(gaps::BAD_VALUE, param_pointer));
                true
            }
        }
    }

    /// The schema of a parameter declared with `content`, and whether it travels as JSON
    /// text: one JSON media type, a value that is not a scalar, in the query or a header. A
    /// scalar is a plain parameter (gap `content-scalar-params`); `None` for anything else.
    fn content_schema(
        &mut self,
        content: &Value,
        location: &str,
        pointer: &str,
        op_gaps: &mut Vec<String>,
    ) -> Option<(Value, bool)> {
        let content = content.as_object().filter(|c| c.len() == 1)?;
        let (media, entry) = content.iter().next()?;
        let schema = entry.get("schema")?.clone();
        if holds_binary(self.doc.value, &schema, 0) {
            return None; // Bytes travel in no parameter.
        }
        if crate::model::Encoding::of(media) != crate::model::Encoding::Json {
            // A scalar as text (`text/plain`, or a range: telnyx's `*/*` uuid in the path) is
            // the value itself, checked as its schema says.
            return scalar_schema(self.doc.value, &schema, pointer).then_some((schema, false));
        }
        if scalar_schema(self.doc.value, &schema, pointer) {
            op_gaps.push(self.built.gaps.note(gaps::CONTENT_SCALAR, pointer));
            return Some((schema, false));
        }
        matches!(location, "query" | "header").then_some((schema, true))
    }

    /// The mapping of a parameter written as JSON (`media_type: application/json`): any type.
    fn json_parameter_node(
        &mut self,
        param: &Value,
        mut typed: Typed,
        location: &str,
        json_keys: Vec<(&str, Value)>,
        pointer: &str,
    ) -> Map<String, Value> {
        let required = param.get("required") == Some(&Value::Bool(true));
        if let Some(description) =
            param.get("description").and_then(Value::as_str).map(str::trim).filter(|d| !d.is_empty())
        {
            typed.description = Some(description.to_owned());
        }
        let mut typed = self.named_param_type(typed, true, pointer);
        let at = At::new(refs::child(pointer, "content"), "");
        self.settle_values(&mut typed, !required, &at);
        let mut node: Map<String, Value> = Map::new();
        node.insert("in".into(), json!(location));
        if required {
            node.insert("required".into(), json!(true));
        }
        for (key, value) in json_keys {
            node.insert(key.to_owned(), value);
        }
        node.extend(typed.node(Vec::new()));
        node
    }

    /// A parameter's type as a named one (an inline object, union or enumeration becomes a type
    /// of its own), keeping what the parameter says of it: its description, sample and gaps,
    /// and with `constraints` those of a type not made inline (a JSON list's `max_items`).
    fn named_param_type(&mut self, typed: Typed, constraints: bool, pointer: &str) -> Typed {
        let expr = self.complete(typed.clone(), pointer);
        let keep = constraints && !typed.expr.is_inline();
        Typed {
            expr,
            description: typed.description,
            sample: typed.sample,
            gaps: typed.gaps,
            constraints: if keep { typed.constraints } else { Default::default() },
            ..Default::default()
        }
    }

    /// Leaves out (with a gap) each exploded object parameter one of whose fields another
    /// query parameter, selector or exploded object also names: a request could not tell
    /// them apart, and lint refuses them.
    fn drop_colliding_exploded(
        &mut self,
        query: &mut Vec<Value>,
        wires: &BTreeSet<String>,
        select: &[Selector],
        (pointer, op_gaps): (&str, &mut Vec<String>),
        read: &mut ParamsRead,
    ) {
        let exploded = std::mem::take(&mut read.exploded);
        for (wire, fields) in &exploded {
            let elsewhere = |name: &String| {
                (name != wire && wires.contains(&format!("query {name}")))
                    || select.iter().any(|s| s.location.as_str() == "query" && &s.name == name)
                    || exploded.iter().any(|(other, theirs)| other != wire && (other == name || theirs.contains(name)))
            };
            if fields.iter().any(elsewhere) {
                let before = query.len();
                query.retain(|entry| {
                    entry.as_str() != Some(wire.as_str()) && entry.get("name").and_then(Value::as_str) != Some(wire)
                });
                if query.len() < before {
                    op_gaps.push(self.built.gaps.note(gaps::OBJECT_PARAM, pointer));
                    read.counts.1 += 1;
                }
            }
        }
    }

    /// How an object query parameter travels, when it can: `Some(true)` in brackets (`style:
    /// deepObject`, an object or a map of anything but binary values), `Some(false)` exploded
    /// (`style: form`, the default: an object of scalars and lists of scalars, each field a
    /// query parameter). `None` for anything else (not an object, `explode: false`, a
    /// composition, an exploded object of nested values or with additional properties).
    fn object_param_style(&self, param: &Value, schema: &Value, pointer: &str) -> Option<bool> {
        let doc = self.doc.value;
        let (schema, _) = refs::follow(doc, schema, pointer).ok()?;
        let is_object = |s: &Value| {
            s.get("type").and_then(Value::as_str) == Some("object")
                || (s.get("type").is_none()
                    && (s.get("properties").is_some() || s.get("additionalProperties").is_some()))
        };
        if !is_object(schema) || ["oneOf", "anyOf", "not"].iter().any(|k| schema.get(k).is_some()) {
            return None;
        }
        let style = param.get("style").and_then(Value::as_str).unwrap_or("form");
        let explode = param.get("explode").and_then(Value::as_bool).unwrap_or(true);
        match (style, explode) {
            ("deepObject", true) => (!holds_binary(doc, schema, 0)).then_some(true),
            ("form", true) => {
                let properties = schema.get("properties").and_then(Value::as_object).filter(|p| !p.is_empty())?;
                let closed = matches!(schema.get("additionalProperties"), None | Some(Value::Bool(false)));
                let flat =
                    properties.values().all(|p| scalar_schema(doc, p, pointer) || list_of_scalars(doc, p, pointer));
                let plain = schema.get("allOf").is_none();
                (closed && flat && plain).then_some(false)
            }
            _ => None,
        }
    }

    /// How a parameter of a union type (`oneOf`, `anyOf`) travels, when it can: `Some(true)`
    /// in the query in brackets (`style: deepObject`: `created=5` or `created[gt]=1`),
    /// `Some(false)` under its name (the query's `form`, exploded, when every variant is a
    /// scalar or a list of scalars; a path segment, when every variant is a scalar). `None`
    /// when the import did not make it a union type, or it cannot travel.
    fn union_param_style(
        &self,
        param: &Value,
        schema: &Value,
        expr: &Expr,
        location: &str,
        pointer: &str,
    ) -> Option<bool> {
        let doc = self.doc.value;
        let (resolved, _) = refs::follow(doc, schema, pointer).ok()?;
        let variants = ["oneOf", "anyOf"].iter().find_map(|k| resolved.get(k)).and_then(Value::as_array)?;
        if !matches!(expr, Expr::Named(_)) || variants.is_empty() {
            return None;
        }
        // Variants of distinct JSON kinds only: a union the import later finds overlapping is
        // typed `json`, which no parameter can be.
        let kinds: Vec<&str> = variants
            .iter()
            .map(|v| {
                match refs::follow(doc, v, pointer).ok().and_then(|(v, _)| v.get("type")).and_then(Value::as_str) {
                    Some("integer" | "number") => "number",
                    Some(kind) => kind,
                    None => "?",
                }
            })
            .collect();
        let distinct: BTreeSet<&str> = kinds.iter().copied().collect();
        if distinct.len() < kinds.len() || distinct.contains("?") {
            return None;
        }
        let scalar = |s: &Value| scalar_schema(doc, s, pointer);
        let style =
            param.get("style").and_then(Value::as_str).unwrap_or(if location == "path" { "simple" } else { "form" });
        let explode = param.get("explode").and_then(Value::as_bool).unwrap_or(style == "form" || style == "deepObject");
        match (location, style, explode) {
            ("path", "simple", _) => variants.iter().all(scalar).then_some(false),
            ("query", "form", true) => {
                variants.iter().all(|v| scalar(v) || list_of_scalars(doc, v, pointer)).then_some(false)
            }
            ("query", "deepObject", true) => (!holds_binary(doc, resolved, 0)).then_some(true),
            _ => None,
        }
    }

    /// One parameter: a shared one by name (declared once under `parameters:`), or inline.
    fn parameter(
        &mut self,
        param: &Value,
        (wire, rust): (&str, &str),
        location: &str,
        op_type: &str,
        (pointer, op_gaps): (&str, &mut Vec<String>),
        read: &mut ParamsRead,
    ) -> Option<Value> {
        let doc = self.doc.value;
        let component = param
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/components/parameters/"))
            .map(str::to_owned);
        let Ok((resolved, _)) = refs::follow(doc, param, pointer) else { return None };
        let derived = match &component {
            Some(_) => sanitize(wire, Case::Pascal),
            None => format!("{op_type}{}", sanitize(wire, Case::Pascal)),
        };
        let mut node = self.parameter_node(resolved, location, &derived, (pointer, op_gaps), read)?;
        if sanitize(wire, Case::Snake) != rust {
            node.insert("rust_name".into(), json!(rust));
        }
        if let Some(component) = component {
            let original = resolved.get("name").and_then(Value::as_str).unwrap_or_default();
            let shareable = original == wire && !wire.is_empty();
            // A parameter with a Rust name of its own here is inline (its component may be
            // shared elsewhere under the wire name's).
            let shareable = shareable && !node.contains_key("rust_name");
            match self.built.shared.get(wire) {
                Some((existing, from)) if shareable && (existing == &node || from == &component) => {
                    return Some(json!(wire));
                }
                None if shareable => {
                    self.built.shared.insert(wire.to_owned(), (node, component));
                    return Some(json!(wire));
                }
                _ => {}
            }
        }
        let mut inline = Map::new();
        inline.insert("name".into(), json!(wire));
        inline.append(&mut node);
        Some(Value::Object(inline))
    }

    /// The mapping of a parameter (without its name): `in`, `required`, its type and value
    /// keys. `None` (with a gap) when its type cannot travel in a path or query.
    fn parameter_node(
        &mut self,
        param: &Value,
        location: &str,
        derived: &str,
        (pointer, op_gaps): (&str, &mut Vec<String>),
        read: &mut ParamsRead,
    ) -> Option<Map<String, Value>> {
        let (schema, as_json) = self.param_schema(param, location, (pointer, &mut *op_gaps))?;
        let json_keys = if as_json { vec![("media_type", json!("application/json"))] } else { Vec::new() };
        let schema = boolean_enum_as_text(self.doc.value, schema, pointer);
        let at = At::new(refs::child(pointer, "schema"), derived);
        let mut typed = self.schema(&schema, &at);
        if !json_keys.is_empty() {
            return Some(self.json_parameter_node(param, typed, location, json_keys, pointer));
        }
        let object_style = match location {
            "query" => self
                .object_param_style(param, &schema, pointer)
                .or_else(|| self.union_param_style(param, &schema, &typed.expr, location, pointer)),
            "path" => self.union_param_style(param, &schema, &typed.expr, location, pointer),
            _ => None,
        };
        let mut object_keys = Vec::new();
        if let Some(deep) = object_style {
            // An object, a map or a union, named (the format holds no inline object parameter).
            let resolved = refs::follow(self.doc.value, &schema, pointer).map(|(s, _)| s.clone()).unwrap_or_default();
            let is_union = ["oneOf", "anyOf"].iter().any(|k| resolved.get(k).is_some());
            let properties = resolved.get("properties").and_then(Value::as_object);
            let exploded_fields: Vec<String> = properties.map(|p| p.keys().cloned().collect()).unwrap_or_default();
            if typed.expr == Expr::Json {
                typed.expr = Expr::Map(Box::new(Expr::Json)); // A free-form object: any keys.
            }
            typed = self.named_param_type(typed, false, pointer);
            if deep {
                object_keys.push(("style", json!("deepObject")));
            } else if !is_union {
                // An exploded object's fields are query names of their own (a union travels
                // under its name, or as the path segment).
                let wire = param.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
                read.exploded.push((wire, exploded_fields));
            }
        } else {
            if typed.expr == Expr::Json {
                typed.expr = Expr::Scalar("string"); // A value without a type travels as text.
            }
            if !self.travels(&typed.expr, matches!(location, "query" | "header" | "path")) {
                op_gaps.push(self.built.gaps.note(gaps::OBJECT_PARAM, pointer));
                return None;
            }
        }
        let required = location == "path" || param.get("required") == Some(&Value::Bool(true));
        if let Some(description) =
            param.get("description").and_then(Value::as_str).map(str::trim).filter(|d| !d.is_empty())
        {
            typed.description = Some(description.to_owned());
        }
        if let Some(example) = param.get("example") {
            typed.sample = Some(example.clone());
        }
        let list = matches!(typed.expr, Expr::List(_));
        let mut style_keys = object_keys;
        let as_format = object_style.is_some() || travels_styled(param, location, list, &mut style_keys);
        if list && !as_format {
            typed.gap(self.built.gaps.note(gaps::PARAM_STYLE, pointer));
        }
        typed.nullable = false;
        typed.read_only = false;
        typed.write_only = false;
        if typed.constant.is_some() {
            let constant = typed.constant.take().unwrap_or_default();
            typed.expr = Expr::Enum;
            typed.enum_values = Some(vec![json!(constant)]);
            typed.open = Some(false);
            typed.inline_name = Some(self.claim_type(derived));
            typed.derived_name = Some(derived.to_owned());
        }
        self.settle_values(&mut typed, !required, &at);
        for id in param.get("x-gap").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
            if self.built.gaps.carries(id) {
                typed.gap(id.to_owned());
            }
        }
        typed.sensitive |= param.get("x-sensitive") == Some(&Value::Bool(true));
        Some(param_mapping(param, location, required, style_keys, &typed))
    }

    /// A parameter's schema (`schema`, or that of its `content`; text when it gives none), and
    /// whether it travels as JSON text; `None` (with a gap) for content no parameter carries.
    fn param_schema(
        &mut self,
        param: &Value,
        location: &str,
        (pointer, op_gaps): (&str, &mut Vec<String>),
    ) -> Option<(Value, bool)> {
        Some(match (param.get("schema"), param.get("content")) {
            (Some(schema), _) => (schema.clone(), false),
            (None, Some(content)) => {
                let Some((schema, as_json)) = self.content_schema(content, location, pointer, op_gaps) else {
                    op_gaps.push(self.built.gaps.note(gaps::OBJECT_PARAM, pointer));
                    return None;
                };
                (schema, as_json)
            }
            (None, None) => (json!({"type": "string"}), false),
        })
    }

    /// True when a value of `expr` can travel as a parameter: a scalar or enumeration, or
    /// (`lists`: in the query, a header or a path) a list of those.
    fn travels(&self, expr: &Expr, lists: bool) -> bool {
        let scalar = |e: &Expr| match e {
            Expr::Scalar(s) => *s != "json",
            Expr::Enum => true,
            Expr::Named(name) => {
                self.built.types.get(name).is_some_and(|t| t.node.contains_key("enum"))
                    || self.doc.components.iter().any(|(key, n)| {
                        n.as_deref() == Some(name)
                            && self.doc.value["components"]["schemas"][key].get("enum").is_some()
                            && self.doc.value["components"]["schemas"][key].get("oneOf").is_none()
                    })
            }
            _ => false,
        };
        match expr {
            Expr::List(inner) if lists => scalar(inner),
            other => scalar(other),
        }
    }
}

/// The entry of a path parameter the operation does not declare (taking its name); `None`
/// when the name is taken.
fn undeclared_path_param(
    wire: &str,
    taken: &mut names::Taken,
    dropped_path: &BTreeMap<String, String>,
) -> Option<Value> {
    if !taken.is_free(wire) {
        // Cannot happen for a valid path: its parameters are distinct.
        return None;
    }
    taken.claim(wire);
    // A list of scalars (`1,2,3`) the format cannot type: text, its sample one item, which
    // the document's list takes.
    Some(match dropped_path.get(wire) {
        Some(sample) => json!({ "name": wire, "in": "path", "sample": sample }),
        None => json!({ "name": wire, "in": "path" }),
    })
}

/// Whether a parameter travels as the format carries it, adding to `style_keys` the `style`
/// and `explode` keys that say how. Query lists travel as repeated keys (`form`, exploded) or
/// one delimited value (the spec's `style`/`explode`), header lists as one comma-separated
/// value (`simple`, OpenAPI's default for headers).
fn travels_styled(param: &Value, location: &str, list: bool, style_keys: &mut Vec<(&'static str, Value)>) -> bool {
    let style = param.get("style").and_then(Value::as_str).unwrap_or("form");
    let explode = param.get("explode").and_then(Value::as_bool).unwrap_or(style == "form");
    match location {
        "header" => style == "simple" || param.get("style").is_none(),
        // A scalar after a dot or its name in the path (`.5`, `;id=5`).
        "path" if matches!(style, "label" | "matrix") && !list => {
            style_keys.push(("style", json!(style)));
            true
        }
        // A path list is comma-separated (`simple`, OpenAPI's default in a path).
        "path" => style == "simple" || param.get("style").is_none(),
        _ => match (style, explode) {
            ("form", true) => true,
            ("form", false) | ("spaceDelimited" | "pipeDelimited", false) | ("deepObject", true) if list => {
                style_keys.push(("style", json!(style)));
                if style == "form" {
                    style_keys.push(("explode", json!(false)));
                }
                // `deepObject` is exploded by default: `explode: true` says nothing more.
                true
            }
            _ => false,
        },
    }
}

/// A parameter's mapping (without its name): `in`, `required`, `allow_empty` and how it is
/// styled first, as a person writes a parameter, then the keys of its type.
fn param_mapping(
    param: &Value,
    location: &str,
    required: bool,
    mut style_keys: Vec<(&'static str, Value)>,
    typed: &Typed,
) -> Map<String, Value> {
    let mut extra = vec![("in", json!(location))];
    if required && location != "path" {
        extra.push(("required", json!(true)));
    }
    if location == "query" && param.get("allowEmptyValue") == Some(&Value::Bool(true)) {
        extra.push(("allow_empty", json!(true)));
    }
    extra.append(&mut style_keys);
    let typed_node = typed.node(Vec::new());
    // `in` and `required` first, as a person writes a parameter.
    let mut node: Map<String, Value> = extra.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    for (key, value) in typed_node {
        if !(location == "path" && key == "type" && value == json!("string")) {
            node.insert(key, value); // Path parameters are strings unless said otherwise.
        }
    }
    node
}

/// An HTTP token (RFC 9110 `tchar`s): what a header or cookie name may hold.
pub(super) fn is_token(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// Headers OpenAPI 3 says a parameter SHALL NOT declare: the media types and credentials
/// travel as the operation's bodies and security say.
pub(super) fn is_ignored_header(name: &str) -> bool {
    ["accept", "content-type", "authorization"].iter().any(|h| h.eq_ignore_ascii_case(name))
}

/// Headers the HTTP layer sets itself, which a parameter cannot carry.
pub(super) fn is_reserved_header(name: &str) -> bool {
    is_ignored_header(name)
        || ["content-length", "cookie", "host", "transfer-encoding"].iter().any(|h| h.eq_ignore_ascii_case(name))
}

/// A parameter's enumeration of booleans (discourse's `enum: [true]`) as the enumeration of
/// their texts (`"true"`), which a parameter carries exactly (the format's enumerations hold
/// strings or integers, and a boolean typed alone would accept `false`); any other schema as
/// it is.
fn boolean_enum_as_text(doc: &Value, schema: Value, pointer: &str) -> Value {
    let Ok((resolved, _)) = refs::follow(doc, &schema, pointer) else { return schema };
    let values = resolved.get("enum").and_then(Value::as_array);
    let booleans = values.filter(|v| !v.is_empty() && v.iter().all(Value::is_boolean));
    match (resolved.get("type").and_then(Value::as_str), booleans) {
        (Some("boolean") | None, Some(values)) => {
            let texts: Vec<Value> = values.iter().map(|v| json!(v.to_string())).collect();
            let mut text = json!({"type": "string", "enum": texts});
            if let Some(description) = resolved.get("description") {
                text["description"] = description.clone();
            }
            text
        }
        _ => schema,
    }
}

/// Whether `schema` (a reference followed) is one scalar a parameter carries as text: a string
/// (not binary), a number, a boolean or an enumeration.
fn scalar_schema(doc: &Value, schema: &Value, pointer: &str) -> bool {
    let Ok((schema, _)) = refs::follow(doc, schema, pointer) else { return false };
    schema.get("enum").is_some()
        || matches!(schema.get("type").and_then(Value::as_str), Some("string" | "integer" | "number" | "boolean"))
            && schema.get("format").and_then(Value::as_str) != Some("binary")
}

/// Whether `schema` (a reference followed) is a list of scalars ([`scalar_schema`]).
fn list_of_scalars(doc: &Value, schema: &Value, pointer: &str) -> bool {
    let Ok((schema, _)) = refs::follow(doc, schema, pointer) else { return false };
    schema.get("type").and_then(Value::as_str) == Some("array")
        && schema.get("items").is_some_and(|items| scalar_schema(doc, items, pointer))
}

/// Whether `schema` holds a binary string (`format: binary`) within a few levels: such an
/// object cannot travel in a query.
fn holds_binary(doc: &Value, schema: &Value, depth: usize) -> bool {
    if depth > 8 {
        return false;
    }
    let Ok((schema, _)) = refs::follow(doc, schema, "") else { return false };
    if schema.get("format").and_then(Value::as_str) == Some("binary") {
        return true;
    }
    let children = schema.get("properties").and_then(Value::as_object).into_iter().flat_map(|p| p.values());
    let more = ["items", "additionalProperties"].into_iter().filter_map(|k| schema.get(k));
    let parts =
        ["allOf", "oneOf", "anyOf"].into_iter().filter_map(|k| schema.get(k)).filter_map(Value::as_array).flatten();
    children.chain(more).chain(parts).any(|child| holds_binary(doc, child, depth + 1))
}

/// The text of one item of a list-of-scalars schema (a path parameter `1,2,3` the format
/// cannot type), fitting the item's constraints; `None` for other schemas.
fn list_item_text(schema: &Value) -> Option<String> {
    use crate::model::{Constraints, TypeRef, sample};
    if schema.get("type")? != "array" {
        return None;
    }
    let items = schema.get("items")?;
    let number = |key: &str| items.get(key).and_then(Value::as_number).cloned();
    let constraints = Constraints { minimum: number("minimum"), maximum: number("maximum"), ..Constraints::default() };
    let ty = match items.get("type")?.as_str()? {
        "integer" => TypeRef::Integer,
        "number" => TypeRef::Number,
        "boolean" => TypeRef::Boolean,
        _ => return None,
    };
    sample::of_scalar(&ty, &constraints, "item").map(|value| value.to_string())
}
