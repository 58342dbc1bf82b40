//! What needs every type: unions become tagged (the discriminator's tag made a constant of
//! each variant), untagged (variants provably distinct, as lowering requires) or `json`; types
//! that could not be built are `json` wherever referenced; a type that must contain itself
//! gets an optional field to end the cycle.

use super::gaps;
use super::{Importer, add_gaps};
use crate::model::names::{Case, sanitize};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// The key a node holds the document's example under until types are settled.
pub(super) const PENDING_EXAMPLE: &str = "x-example";

/// What JSON an untagged variant accepts while a union chooses (as `lower` reads it).
enum Shape {
    String(Option<BTreeSet<String>>),
    Integer,
    Number,
    Boolean,
    Array,
    Object { required: BTreeSet<String>, known: Option<BTreeSet<String>> },
    Any,
}

impl Importer<'_> {
    pub(super) fn settle(&mut self) {
        self.settle_tagged();
        loop {
            self.rewrite_failed();
            if !self.settle_untagged() {
                break;
            }
        }
        self.settle_finite();
        self.settle_pending_examples();
    }

    /// A value whose type ended up `json` (a union whose variants overlap), or lists and maps
    /// of it, takes the document's example kept aside as its sample: a made-up object may fit
    /// none of the variants of its `oneOf`, or several. Elsewhere the example stays left out.
    fn settle_pending_examples(&mut self) {
        let gaps = &mut self.built.gaps;
        for ty in self.built.types.values_mut() {
            settle_examples(&mut ty.node, gaps);
        }
        for op in &mut self.built.operations {
            settle_examples(&mut op.node, gaps);
        }
        for (node, _) in self.built.shared.values_mut() {
            settle_examples(node, gaps);
        }
    }

    /// Unions with a discriminator whose variants can carry its tag become tagged.
    fn settle_tagged(&mut self) {
        let pending = std::mem::take(&mut self.built.pending_unions);
        for union in &pending {
            let Some((tag, mapping)) = &union.discriminator else { continue };
            let Some(variants) = self.variants(&union.name) else { continue };
            match self.tag_values(&variants, &union.variant_refs, tag, mapping) {
                Some(values) => {
                    for (variant, value) in variants.iter().zip(&values) {
                        self.set_tag(variant, tag, value);
                    }
                    self.set_union_tag(&union.name, tag);
                }
                None => {
                    let id = self.built.gaps.note(gaps::DISCRIMINATOR, &union.pointer);
                    if let Some(ty) = self.built.types.get_mut(&union.name) {
                        add_gaps(&mut ty.node, &[id]);
                    }
                }
            }
        }
        self.built.pending_unions = pending;
    }

    /// The variant expressions of a union type.
    fn variants(&self, union: &str) -> Option<Vec<String>> {
        let list = self.built.types.get(union)?.node.get("union")?.get("variants")?.as_array()?;
        Some(list.iter().filter_map(Value::as_str).map(str::to_owned).collect())
    }

    /// The tag value of each variant, or `None` when the format cannot tag them: a variant
    /// that is not an object type, serves two values, or is tagged otherwise elsewhere.
    fn tag_values(
        &self,
        variants: &[String],
        refs: &[Option<String>],
        tag: &str,
        mapping: &[(String, String)],
    ) -> Option<Vec<String>> {
        let mut values = Vec::new();
        let mut rust = BTreeSet::new();
        for (variant, reference) in variants.iter().zip(refs) {
            let ty = self.built.types.get(variant)?;
            let fields = ty.node.get("fields")?.as_object()?;
            let reference = reference.as_ref()?;
            let mapped: Vec<&String> = mapping
                .iter()
                .filter(|(_, r)| r == reference || reference.ends_with(&format!("/{r}")))
                .map(|(v, _)| v)
                .collect();
            let existing = fields.get(tag).and_then(|f| f.get("const")).and_then(Value::as_str);
            let value = match (mapped.as_slice(), existing) {
                ([], Some(constant)) => constant.to_owned(),
                ([], None) => reference.rsplit('/').next()?.replace("~1", "/").replace("~0", "~"),
                ([one], _) => (*one).clone(),
                _ => return None,
            };
            if existing.is_some_and(|e| e != value) {
                return None;
            }
            if value.is_empty() || !rust.insert(sanitize(&value, Case::Pascal)) {
                return None;
            }
            values.push(value);
        }
        Some(values)
    }

    /// Makes the tag field of a variant the constant `value`, first among its fields.
    fn set_tag(&mut self, variant: &str, tag: &str, value: &str) {
        let Some(Value::Object(fields)) = self.built.types.get_mut(variant).and_then(|t| t.node.get_mut("fields"))
        else {
            return;
        };
        let mut field = Map::new();
        field.insert("const".into(), json!(value));
        if let Some(description) = fields.get(tag).and_then(|f| f.get("description")).cloned() {
            field.insert("description".into(), description);
        }
        if fields.contains_key(tag) {
            fields.insert(tag.to_owned(), Value::Object(field));
        } else {
            let mut reordered = Map::new();
            reordered.insert(tag.to_owned(), Value::Object(field));
            reordered.append(fields);
            *fields = reordered;
        }
    }

    /// Untagged unions whose variants overlap become `json`; true when one did.
    fn settle_untagged(&mut self) -> bool {
        let mut failed_any = false;
        let names: Vec<String> = self
            .built
            .types
            .iter()
            .filter(|(_, t)| t.node.get("union").is_some_and(|u| u.get("tag").is_none()))
            .map(|(n, _)| n.clone())
            .collect();
        for name in names {
            let Some(variants) = self.variants(&name) else { continue };
            let shapes: Vec<Shape> = variants.iter().map(|v| self.shape(v)).collect();
            let overlapping =
                (0..shapes.len()).any(|i| ((i + 1)..shapes.len()).any(|j| overlap(&shapes[i], &shapes[j])));
            let mut rust = BTreeSet::new();
            let names_clash = variants.iter().any(|v| !rust.insert(self.untagged_variant_name(&name, v)));
            if overlapping && !names_clash && self.tag_implicitly(&name, &variants) {
                continue;
            }
            if overlapping || names_clash {
                let pointer = self.built.types.get(&name).map(|t| t.pointer.clone()).unwrap_or_default();
                self.built.gaps.note(gaps::UNION_OVERLAP, &pointer);
                self.built.types.shift_remove(&name);
                self.built.failed.insert(name, "json".into());
                failed_any = true;
            }
        }
        failed_any
    }

    /// Tags a union without a discriminator whose variants overlap in shape but each hold one
    /// constant in a field of one name (`type: {enum: [email]}` beside `type: {enum: [sms]}`):
    /// under `oneOf`, a value without that field fits several variants and so none, so the
    /// field is the tag every value carries. True when the union is tagged (gap
    /// `implicit-tags`).
    fn tag_implicitly(&mut self, union: &str, variants: &[String]) -> bool {
        let constants = |ty: Option<&super::TypeOut>| -> Option<Vec<(String, String)>> {
            let fields = ty?.node.get("fields")?.as_object()?;
            let one = |field: &Value| -> Option<String> {
                if let Some(constant) = field.get("const").and_then(Value::as_str) {
                    return Some(constant.to_owned());
                }
                // An inline enumeration, a named one, or the shape of an inline one met before
                // (shared shapes).
                let values = match (field.get("enum"), field.get("type").and_then(Value::as_str)) {
                    (Some(values), _) => values.clone(),
                    (None, Some(name)) => match self.built.types.get(name) {
                        Some(ty) => ty.node.get("enum")?.clone(),
                        None => self.inline_shape(name)?.get("enum")?.clone(),
                    },
                    (None, None) => return None,
                };
                match values.as_array()?.as_slice() {
                    [only] => only.as_str().map(str::to_owned),
                    _ => None,
                }
            };
            Some(fields.iter().filter_map(|(name, field)| Some((name.clone(), one(field)?))).collect())
        };
        let Some(all) = variants.iter().map(|v| constants(self.built.types.get(v))).collect::<Option<Vec<_>>>() else {
            return false;
        };
        let Some(first) = all.first() else { return false };
        let tag = first.iter().map(|(name, _)| name).find(|tag| {
            let mut rust = BTreeSet::new();
            all.iter().all(|fields| {
                fields
                    .iter()
                    .find(|(name, _)| name == *tag)
                    .is_some_and(|(_, value)| !value.is_empty() && rust.insert(sanitize(value, Case::Pascal)))
            })
        });
        let Some(tag) = tag.cloned() else { return false };
        for (variant, fields) in variants.iter().zip(&all) {
            let value = fields.iter().find(|(name, _)| *name == tag).map(|(_, v)| v.clone()).unwrap_or_default();
            self.set_tag(variant, &tag, &value);
        }
        self.set_union_tag(union, &tag);
        let pointer = self.built.types.get(union).map(|t| t.pointer.clone()).unwrap_or_default();
        let id = self.built.gaps.note(gaps::IMPLICIT_TAG, &pointer);
        if let Some(ty) = self.built.types.get_mut(union) {
            add_gaps(&mut ty.node, &[id]);
        }
        true
    }

    /// The shape of the inline type named `name` that later places share (`enum`, `fields`).
    fn inline_shape(&self, name: &str) -> Option<Map<String, Value>> {
        let (key, _) = self.built.inline_shapes.iter().find(|(_, first)| *first == name)?;
        serde_json::from_str(key).ok()
    }

    /// Makes `tag` the tag of the union type `union`, first among its keys.
    fn set_union_tag(&mut self, union: &str, tag: &str) {
        if let Some(Value::Object(u)) = self.built.types.get_mut(union).and_then(|t| t.node.get_mut("union")) {
            let mut ordered = Map::new();
            ordered.insert("tag".into(), json!(tag));
            ordered.append(u);
            *u = ordered;
        }
    }

    /// The Rust variant name lowering gives an untagged variant.
    fn untagged_variant_name(&self, union: &str, variant: &str) -> String {
        if self.built.types.contains_key(variant) {
            let rust = sanitize(variant, Case::Pascal);
            let prefix = sanitize(union, Case::Pascal);
            return match rust.strip_prefix(&prefix) {
                Some(rest) if rest.starts_with(|c: char| c.is_ascii_uppercase()) => rest.to_owned(),
                _ => rust,
            };
        }
        if variant.starts_with("list<") {
            "List".into()
        } else if variant.starts_with("map<") {
            "Map".into()
        } else {
            sanitize(variant, Case::Pascal)
        }
    }

    fn shape(&self, expr: &str) -> Shape {
        match expr {
            "string" | "date-time" | "url" => Shape::String(None),
            "integer" => Shape::Integer,
            "number" => Shape::Number,
            "boolean" => Shape::Boolean,
            e if e.starts_with("list<") => Shape::Array,
            e if e.starts_with("map<") => Shape::Object { required: BTreeSet::new(), known: None },
            name => match self.built.types.get(name) {
                None => Shape::Any,
                Some(ty) => {
                    let node = &ty.node;
                    if let Some(values) = node.get("enum").and_then(Value::as_array) {
                        if node.get("open") == Some(&Value::Bool(true)) {
                            Shape::String(None)
                        } else {
                            Shape::String(Some(values.iter().filter_map(Value::as_str).map(str::to_owned).collect()))
                        }
                    } else if node.contains_key("union") {
                        Shape::Any
                    } else {
                        let fields = node.get("fields").and_then(Value::as_object);
                        let required = fields
                            .into_iter()
                            .flatten()
                            .filter(|(_, f)| f.get("optional") != Some(&Value::Bool(true)))
                            .map(|(k, _)| k.clone())
                            .collect();
                        let known = (!node.contains_key("additional_properties"))
                            .then(|| fields.into_iter().flatten().map(|(k, _)| k.clone()).collect());
                        Shape::Object { required, known }
                    }
                }
            },
        }
    }

    /// Rewrites every reference to a type that failed (or a union that became `json`).
    fn rewrite_failed(&mut self) {
        if self.built.failed.is_empty() {
            return;
        }
        let failed = self.built.failed.clone();
        for ty in self.built.types.values_mut() {
            rewrite_map(&mut ty.node, &failed);
        }
        for op in &mut self.built.operations {
            rewrite_map(&mut op.node, &failed);
        }
        for (node, _) in self.built.shared.values_mut() {
            rewrite_map(node, &failed);
        }
    }

    /// Types that must contain themselves get the field closing the cycle optional.
    fn settle_finite(&mut self) {
        for _ in 0..64 {
            let finite = self.finite_types();
            let infinite: Vec<String> = self.built.types.keys().filter(|n| !finite.contains(*n)).cloned().collect();
            if infinite.is_empty() {
                return;
            }
            for name in infinite {
                let pointer = self.built.types[&name].pointer.clone();
                let id = self.built.gaps.note(gaps::INFINITE, &pointer);
                let Some(Value::Object(fields)) =
                    self.built.types.get_mut(&name).and_then(|t| t.node.get_mut("fields"))
                else {
                    continue;
                };
                loosen_required(fields, &finite, &id);
            }
        }
    }

    /// The types with a finite value, found from the ones that plainly have one.
    fn finite_types(&self) -> BTreeSet<String> {
        let mut finite: BTreeSet<String> = BTreeSet::new();
        loop {
            let mut grew = false;
            for (name, ty) in &self.built.types {
                if finite.contains(name) {
                    continue;
                }
                let ok = if let Some(union) = ty.node.get("union") {
                    union
                        .get("variants")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .any(|v| expr_finite(v, &finite, &self.built.types))
                } else {
                    ty.node
                        .get("fields")
                        .and_then(Value::as_object)
                        .is_none_or(|f| fields_finite(f, &finite, &self.built.types))
                };
                if ok {
                    finite.insert(name.clone());
                    grew = true;
                }
            }
            if !grew {
                return finite;
            }
        }
    }
}

fn expr_finite(expr: &str, finite: &BTreeSet<String>, types: &indexmap::IndexMap<String, super::TypeOut>) -> bool {
    !types.contains_key(expr) || finite.contains(expr)
}

/// True when every required field of an object has a finite value.
fn fields_finite(
    fields: &Map<String, Value>,
    finite: &BTreeSet<String>,
    types: &indexmap::IndexMap<String, super::TypeOut>,
) -> bool {
    fields.values().all(|field| {
        if field.get("optional") == Some(&Value::Bool(true)) || field.get("nullable") == Some(&Value::Bool(true)) {
            return true;
        }
        match (field.get("type").and_then(Value::as_str), field.get("fields").and_then(Value::as_object)) {
            (None | Some("object"), Some(inner)) => fields_finite(inner, finite, types),
            (Some(expr), _) => expr_finite(expr, finite, types),
            (None, None) => true,
        }
    })
}

/// Makes optional every required field leading to a type without a finite value.
fn loosen_required(fields: &mut Map<String, Value>, finite: &BTreeSet<String>, gap: &str) {
    for field in fields.values_mut() {
        let Value::Object(field) = field else { continue };
        if field.get("optional") == Some(&Value::Bool(true)) || field.get("nullable") == Some(&Value::Bool(true)) {
            continue;
        }
        let leads_back = match field.get("type").and_then(Value::as_str) {
            Some(expr) => {
                !expr.contains('<') && expr.starts_with(|c: char| c.is_ascii_uppercase()) && !finite.contains(expr)
            }
            None => false,
        };
        if leads_back {
            field.shift_remove("const");
            field.insert("optional".into(), Value::Bool(true));
            add_gaps(field, &[gap.to_owned()]);
        } else if let Some(Value::Object(inner)) = field.get_mut("fields") {
            loosen_required(inner, finite, gap);
        }
    }
}

/// A document's example kept aside in a node until types are settled, with where it was
/// (`None`: left out silently where it does not fit, as a request body's, whose type's fields
/// have samples of their own).
pub(super) fn pending_example(example: Value, pointer: Option<&str>) -> Value {
    json!({ "at": pointer, "value": example })
}

/// Settles every pending example below `node` (see `Importer::settle_pending_examples`): a
/// sample where the type is `json`, else left out as gap `examples`.
fn settle_examples(node: &mut Map<String, Value>, gaps: &mut gaps::Gaps) {
    each_element(node, &mut |element| {
        let Some(Value::Object(mut pending)) = element.shift_remove(PENDING_EXAMPLE) else { return };
        let example = pending.shift_remove("value").unwrap_or_default();
        let expr = element.get("type").and_then(Value::as_str).unwrap_or_default();
        if any_json_fits(expr, &example) {
            element.insert("sample".into(), example);
        } else if let Some(at) = pending.get("at").and_then(Value::as_str) {
            add_gaps(element, &[gaps.note(gaps::EXAMPLE_DROPPED, at)]);
        }
    });
}

/// True when `expr` is `json`, or lists and maps of it, and `value` has their shape.
fn any_json_fits(expr: &str, value: &Value) -> bool {
    if expr == "json" {
        return true;
    }
    if let Some(inner) = expr.strip_prefix("list<").and_then(|e| e.strip_suffix('>')) {
        return value.as_array().is_some_and(|items| items.iter().all(|item| any_json_fits(inner, item)));
    }
    if let Some(inner) = expr.strip_prefix("map<").and_then(|e| e.strip_suffix('>')) {
        return value.as_object().is_some_and(|values| values.values().all(|v| any_json_fits(inner, v)));
    }
    false
}

/// Rewrites type expressions naming a failed type, in every mapping below `node` (samples,
/// defaults and enumeration values are data and left alone).
fn rewrite_map(node: &mut Map<String, Value>, failed: &BTreeMap<String, String>) {
    each_element(node, &mut |element| {
        for (key, value) in element.iter_mut() {
            match (key.as_str(), value) {
                ("type" | "additional_properties" | "items", Value::String(expr)) => {
                    *expr = rewrite_expr(expr, failed);
                }
                ("variants", Value::Array(list)) => {
                    for v in list.iter_mut().filter_map(|v| if let Value::String(e) = v { Some(e) } else { None }) {
                        *v = rewrite_expr(v, failed);
                    }
                }
                _ => {}
            }
        }
    });
}

/// Calls `visit` on `node` and every element mapping below it: fields by name (a field may be
/// named like a key holding data, `default`), not inside the keys that hold data (samples,
/// defaults, enumeration values, constants, a pending example) or a convention's JSON
/// pointers (`pagination`: its `items` is a pointer, not a type).
fn each_element(node: &mut Map<String, Value>, visit: &mut impl FnMut(&mut Map<String, Value>)) {
    visit(node);
    for (key, value) in node.iter_mut() {
        match (key.as_str(), value) {
            ("fields", Value::Object(fields)) => {
                for field in fields.values_mut() {
                    if let Value::Object(field) = field {
                        each_element(field, visit);
                    }
                }
            }
            ("sample" | "default" | "enum" | "const" | "pagination" | PENDING_EXAMPLE, _) => {}
            (_, Value::Object(inner)) => each_element(inner, visit),
            (_, Value::Array(list)) => {
                for item in list {
                    if let Value::Object(inner) = item {
                        each_element(inner, visit);
                    }
                }
            }
            _ => {}
        }
    }
}

/// A type expression with failed names replaced (`list<Broken>` gives `list<json>`).
fn rewrite_expr(expr: &str, failed: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let replaced = failed.get(word.as_str()).cloned().unwrap_or_else(|| word.clone());
        out.push_str(&replaced);
        word.clear();
    };
    for c in expr.chars() {
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Why two shapes may accept the same JSON (as `lower::checks::overlap`).
fn overlap(a: &Shape, b: &Shape) -> bool {
    match (a, b) {
        (Shape::Any, _) | (_, Shape::Any) => true,
        (Shape::String(Some(x)), Shape::String(Some(y))) => x.intersection(y).next().is_some(),
        (Shape::String(_), Shape::String(_)) => true,
        (Shape::Number, Shape::Number) | (Shape::Integer, Shape::Integer) => true,
        (Shape::Integer, Shape::Number) => false,
        (Shape::Number, Shape::Integer) => true,
        (Shape::Boolean, Shape::Boolean) => true,
        (Shape::Array, Shape::Array) => true,
        (Shape::Object { required: ra, known: ka }, Shape::Object { required: rb, known: kb }) => {
            let fits = |required: &BTreeSet<String>, known: &Option<BTreeSet<String>>| {
                known.as_ref().is_none_or(|k| required.is_subset(k))
            };
            fits(ra, kb) && fits(rb, ka)
        }
        _ => false,
    }
}
