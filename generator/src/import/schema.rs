//! Schemas: JSON Schema (OpenAPI 3.0 and 3.1 dialects) to the format's types. One function per
//! construct: references, compositions (allOf), unions (oneOf, anyOf), each JSON type, the
//! annotations and the constraints. What has no word in the format becomes a gap beside the
//! decision.

use super::gaps::{self, Kind};
use super::merge;
use super::refs::{self, RefProblem};
use super::typed::{Expr, Typed};
use super::{Importer, TypeOut, add_gaps, names};
use crate::model::names::{Case, sanitize};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// How deeply inline schemas may nest before the rest is typed `json`.
const MAX_DEPTH: usize = 32;

/// The format's limit on nested lists and maps (`model::typeref::MAX_NESTING`).
const MAX_NESTING: usize = crate::model::typeref::MAX_NESTING;

/// Where a schema is met: its pointer, the name an inline shape here takes, and the depth.
#[derive(Debug, Clone)]
pub struct At {
    /// JSON pointer of the schema in the document.
    pub pointer: String,
    /// The name lowering derives for an inline shape here.
    pub name: String,
    /// Inline schemas above this one.
    pub depth: usize,
}

impl At {
    /// A new place: the root of a schema.
    pub fn new(pointer: impl Into<String>, name: impl Into<String>) -> Self {
        At { pointer: pointer.into(), name: name.into(), depth: 0 }
    }

    fn below(&self, key: &str, name: String) -> At {
        At { pointer: refs::child(&self.pointer, key), name, depth: self.depth + 1 }
    }
}

/// Keywords the format has no word for; their presence is a gap.
const UNSUPPORTED: &[&str] = &[
    "not",
    "patternProperties",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependentRequired",
    "propertyNames",
    "prefixItems",
    "contains",
    "unevaluatedProperties",
    "unevaluatedItems",
];

impl Importer<'_> {
    /// A schema as the spec holds it at `at`.
    pub(super) fn schema(&mut self, schema: &Value, at: &At) -> Typed {
        if at.depth > MAX_DEPTH || self.walk.budget == 0 {
            return self.json_because(gaps::TOO_DEEP, &at.pointer);
        }
        self.walk.budget -= 1;
        let Value::Object(map) = schema else {
            return match schema {
                // `true` accepts anything; `false` nothing, which no type says: any JSON either way.
                Value::Bool(_) => Typed::of(Expr::Json),
                _ => self.json_because(gaps::BAD_VALUE, &at.pointer),
            };
        };
        let mut typed = if let Some(reference) = map.get("$ref") {
            self.reference(reference, at)
        } else if map.contains_key("allOf") {
            self.all_of(map, at)
        } else if map.contains_key("oneOf") || map.contains_key("anyOf") {
            self.one_of(map, at)
        } else {
            self.by_type(map, at)
        };
        self.annotate(&mut typed, map, at);
        typed
    }

    /// `json`, with the gap that made it so.
    pub(super) fn json_because(&mut self, kind: Kind, pointer: &str) -> Typed {
        let mut typed = Typed::of(Expr::Json);
        typed.gap(self.built.gaps.note(kind, pointer));
        typed
    }

    /// A `$ref`: a component schema by its type name (or expanded when it is not a type of the
    /// format: a scalar, a list, a map), any other pointer expanded in place.
    fn reference(&mut self, reference: &Value, at: &At) -> Typed {
        let Some(reference) = reference.as_str() else {
            return self.json_because(gaps::BAD_VALUE, &at.pointer);
        };
        if let Some(key) = reference.strip_prefix("#/components/schemas/")
            && !key.contains('/')
        {
            let key = key.replace("~1", "/").replace("~0", "~");
            if let Some(name) = self.component_type(&key) {
                let mut typed = Typed::of(Expr::Named(name));
                let schema = self.doc.value["components"]["schemas"].get(&key).cloned().unwrap_or(Value::Null);
                typed.nullable = is_nullable(&schema);
                return typed;
            }
        }
        let target = match refs::lookup(self.doc.value, reference) {
            Ok(target) => target,
            Err(RefProblem::External) => return self.json_because(gaps::EXTERNAL_REF, &at.pointer),
            Err(RefProblem::Broken) => return self.json_because(gaps::BROKEN_REF, &at.pointer),
        };
        if self.walk.expanding.iter().any(|r| r == reference) || self.walk.expanding.len() >= refs::MAX_HOPS {
            return self.json_because(gaps::TOO_DEEP, &at.pointer);
        }
        self.walk.expanding.push(reference.to_owned());
        let inner = At { pointer: reference.to_owned(), name: at.name.clone(), depth: at.depth + 1 };
        let typed = self.schema(target, &inner);
        self.walk.expanding.pop();
        typed
    }

    /// allOf: one part (with annotations beside it) is that part; several are merged into one
    /// object, the format having no composition yet.
    fn all_of(&mut self, map: &Map<String, Value>, at: &At) -> Typed {
        let Some(parts) = map.get("allOf").and_then(Value::as_array) else {
            return self.json_because(gaps::BAD_VALUE, &at.pointer);
        };
        let shaping: Vec<&Value> = parts.iter().filter(|p| shapes(p)).collect();
        let contradicted = shaping.len() == 1 && self.contradicting_type(map, shaping[0]);
        let siblings_shape =
            map.keys().any(|k| k != "allOf" && SHAPE_KEYS.contains(&k.as_str()) && !(contradicted && k == "type"));
        if shaping.len() == 1 && !siblings_shape {
            let part = shaping[0];
            let mut typed = self.schema(part, &at.below("allOf", at.name.clone()));
            if contradicted {
                typed.gap(self.built.gaps.note(gaps::CONTRADICTING_TYPE, &at.pointer));
            }
            for other in parts.iter().filter(|p| !shapes(p)) {
                if let Value::Object(annotations) = other {
                    self.annotate(&mut typed, annotations, at);
                }
            }
            return typed;
        }
        // A composition met again inside itself (through its own fields) would expand forever.
        let identity = std::ptr::from_ref(map) as usize;
        if self.walk.merging.contains(&identity) {
            return self.json_because(gaps::TOO_DEEP, &at.pointer);
        }
        let mut merged = merge::merged(self.doc.value, &mut self.walk, &mut self.built.gaps, map, &at.pointer);
        merged.remove("allOf");
        if merged.contains_key("oneOf") || merged.contains_key("anyOf") {
            return self.json_because(gaps::UNION_OVERLAP, &at.pointer);
        }
        self.walk.merging.push(identity);
        let mut typed = self.by_type(&merged, at);
        self.walk.merging.pop();
        if shaping.len() > 1 {
            typed.gap(self.built.gaps.note(gaps::COMPOSITION, &at.pointer));
        }
        typed
    }

    /// True when `map`'s own `type` is one no value of its one shaping `allOf` part has
    /// (`type: object` beside a string enumeration, as Lyft's `ride_profile`): merged, no
    /// value would fit, so the part is what the document means (its examples give the part's
    /// values). An integer part beside `type: number` fits.
    fn contradicting_type(&self, map: &Map<String, Value>, part: &Value) -> bool {
        let Some(own) = map.get("type").and_then(Value::as_str) else { return false };
        let part = match part.get("$ref").and_then(Value::as_str) {
            Some(reference) => refs::lookup(self.doc.value, reference).ok(),
            None => Some(part),
        };
        match part.and_then(|p| p.get("type")).and_then(Value::as_str) {
            Some(theirs) => theirs != own && !(own == "number" && theirs == "integer"),
            None => false,
        }
    }

    /// A component written as `allOf` of object components (by `$ref`) and at most one inline
    /// object, none giving a property another gives differently: the included components'
    /// names and the schema of the component's own part (properties repeated from an
    /// included component with the same schema are left to it). `None` when the composition
    /// is anything else (it is then merged into one object, as before).
    pub(super) fn composition(
        &mut self,
        map: &Map<String, Value>,
        at: &At,
    ) -> Option<(Vec<String>, Map<String, Value>)> {
        let parts = map.get("allOf")?.as_array()?;
        // `additionalProperties: false` is what the format's objects are anyway.
        let open = map.get("additionalProperties").is_some_and(|a| *a != Value::Bool(false));
        if open || map.keys().any(|k| matches!(k.as_str(), "oneOf" | "anyOf" | "discriminator")) {
            return None;
        }
        let mut bases = Vec::new();
        let mut inherited = Map::new();
        let mut inherited_required: Vec<Value> = Vec::new();
        let mut own = Map::new();
        for (key, value) in map.iter().filter(|(k, _)| !matches!(k.as_str(), "allOf" | "additionalProperties")) {
            own.insert(key.clone(), value.clone());
        }
        // A closed composition stays closed to undeclared fields (`unknown_fields: refuse`).
        if map.get("additionalProperties") == Some(&Value::Bool(false)) && own.contains_key("properties") {
            own.insert("additionalProperties".into(), Value::Bool(false));
        }
        let mut inline_parts = 0;
        for part in parts {
            let part_map = part.as_object()?;
            if let Some(reference) = part_map.get("$ref").and_then(Value::as_str) {
                let key = reference.strip_prefix("#/components/schemas/")?;
                if key.contains('/') || part_map.len() > 1 {
                    return None;
                }
                let key = key.replace("~1", "/").replace("~0", "~");
                let target = self.doc.value["components"]["schemas"].get(&key)?.as_object()?;
                if !is_object_schema(target) || target.contains_key("discriminator") {
                    return None;
                }
                // Components including each other: merged instead (the cycle cut, with a gap).
                if merge::composes_back(self.doc.value, &key, &at.pointer) {
                    return None;
                }
                let name = self.component_type(&key)?;
                let merged = merge::merged(self.doc.value, &mut self.walk, &mut self.built.gaps, target, &at.pointer);
                for (property, schema) in merged.get("properties").and_then(Value::as_object).into_iter().flatten() {
                    if inherited.insert(property.clone(), schema.clone()).is_some() {
                        return None; // Two included components give the same property.
                    }
                }
                inherited_required
                    .extend(merged.get("required").and_then(Value::as_array).cloned().unwrap_or_default());
                // A closed base closes what includes it: by JSON Schema its
                // `additionalProperties: false` refuses any property it does not list, in the
                // whole instance (Azure's `ResourceReference` under `ConnectionGatewayReference`).
                if merged.get("additionalProperties") == Some(&Value::Bool(false)) {
                    own.insert("additionalProperties".into(), Value::Bool(false));
                }
                bases.push(name);
            } else if shapes(part) {
                inline_parts += 1;
                if inline_parts > 1 || !is_object_schema(part_map) || part_map.contains_key("allOf") {
                    return None;
                }
                for (key, value) in part_map {
                    if own.insert(key.clone(), value.clone()).is_some() {
                        return None;
                    }
                }
            }
        }
        if bases.is_empty() {
            return None;
        }
        // A union tags its variants by a property each holds as a constant of its own: a
        // variant inheriting that property would share its base's tag, so it is merged.
        if inherited.keys().any(|property| self.doc.discriminators().contains(property)) {
            return None;
        }
        leave_inherited(&mut own, &inherited, &inherited_required)?;
        own.insert("type".into(), json!("object"));
        own.entry("properties").or_insert_with(|| json!({}));
        Some((bases, own))
    }

    /// oneOf / anyOf: null variants make the value nullable, an enum beside a plain string is an
    /// open enumeration, one variant is that variant, several are a union.
    fn one_of(&mut self, map: &Map<String, Value>, at: &At) -> Typed {
        let key = if map.contains_key("oneOf") { "oneOf" } else { "anyOf" };
        let Some(all) = map.get(key).and_then(Value::as_array) else {
            return self.json_because(gaps::BAD_VALUE, &at.pointer);
        };
        let mut nullable = false;
        let mut variants: Vec<&Value> = Vec::new();
        for variant in all {
            // `{nullable: true, type: object}` beside a reference is Microsoft Graph's way to
            // say "or null" (the object says nothing else).
            let null_object = variant.as_object().is_some_and(|m| {
                m.get("nullable") == Some(&Value::Bool(true))
                    && m.get("type") == Some(&json!("object"))
                    && m.keys().all(|k| matches!(k.as_str(), "nullable" | "type" | "description" | "title"))
            });
            if is_null_schema(variant) || null_object && all.len() > 1 {
                nullable = true;
            } else if map.get("x-open-union") == Some(&Value::Bool(true)) && is_catch_all(variant) {
                // An apigen export's fallback for variants not listed: the union is open.
            } else {
                variants.push(variant);
            }
        }
        let open_union = map.get("x-open-union") == Some(&Value::Bool(true));
        if variants.iter().all(|v| !shapes(v)) && map.keys().any(|k| SHAPE_KEYS.contains(&k.as_str())) {
            // Variants that only constrain an object (`oneOf: [{required: [a]}, {required: [b]}]`).
            let mut rest = map.clone();
            rest.remove(key);
            let mut typed = self.by_type(&rest, at);
            typed.gap(self.built.gaps.note(gaps::UNSUPPORTED_KEYWORD, &at.pointer));
            return typed;
        }
        if let Some(open_enum) = self.open_enum(&variants, at) {
            let mut typed = open_enum;
            typed.nullable |= nullable;
            return typed;
        }
        let mut typed = match variants.as_slice() {
            [] => Typed::of(Expr::Json),
            [only] if !open_union => self.schema(only, &at.below(key, at.name.clone())),
            _ => self.union(map, key, &variants, open_union, at),
        };
        typed.nullable |= nullable;
        typed
    }

    /// `anyOf: [{type: string, enum: [...]}, {type: string}]`: values beyond those listed may
    /// appear, which is the format's open enumeration.
    fn open_enum(&mut self, variants: &[&Value], at: &At) -> Option<Typed> {
        let [a, b] = variants else { return None };
        let (listed, plain) = if a.get("enum").is_some() { (a, b) } else { (b, a) };
        let plain_string = plain.get("type") == Some(&json!("string"))
            && plain.as_object().is_some_and(|m| m.keys().all(|k| matches!(k.as_str(), "type" | "description")));
        if !plain_string || listed.get("type") != Some(&json!("string")) {
            return None;
        }
        let mut typed = self.schema(listed, at);
        if typed.expr == Expr::Enum {
            typed.open = Some(true);
            Some(typed)
        } else {
            None
        }
    }

    /// A union: a named type (the place's name), its variants lifted to named types where
    /// they are inline; whether it is tagged, untagged or `json` is settled once every type
    /// is known (`settle`).
    fn union(&mut self, map: &Map<String, Value>, key: &str, variants: &[&Value], open: bool, at: &At) -> Typed {
        let name = self.claim_type(&at.name);
        let mut exprs = Vec::new();
        for (i, variant) in variants.iter().enumerate() {
            let hint = variant
                .get("title")
                .and_then(Value::as_str)
                .map(names::type_name)
                .filter(|t| !t.is_empty())
                .map_or_else(|| format!("{name}Variant{}", i + 1), |t| format!("{name}{t}"));
            let typed = self.schema(variant, &at.below(&format!("{key}/{i}"), hint.clone()));
            if typed.nullable {
                self.built.gaps.note(gaps::NULLABLE_ITEMS, &at.pointer);
            }
            exprs.push(self.complete(typed, &at.pointer));
        }
        let discriminator = map.get("discriminator").and_then(|d| {
            let tag = d.get("propertyName")?.as_str()?.to_owned();
            let mapping: Vec<(String, String)> = d
                .get("mapping")
                .and_then(Value::as_object)
                .map(|m| m.iter().filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned()))).collect())
                .unwrap_or_default();
            Some((tag, mapping))
        });
        // An apigen export says the tag of an open union in its catch-all variant.
        let discriminator = discriminator.or_else(|| {
            let all = map.get(key)?.as_array()?;
            let tag = all
                .iter()
                .filter(|v| is_catch_all(v))
                .find_map(|v| v.get("properties")?.as_object()?.keys().next().cloned())?;
            Some((tag, Vec::new()))
        });
        let refs: Vec<Option<String>> =
            variants.iter().map(|v| v.get("$ref").and_then(Value::as_str).map(str::to_owned)).collect();
        let mut node = Map::new();
        if let Some(description) = description_of(map) {
            node.insert("description".into(), Value::String(description));
        }
        node.insert(
            "union".into(),
            json!({ "variants": exprs.iter().map(|e| Value::String(e.to_string())).collect::<Vec<_>>(), "open": open }),
        );
        self.built.types.insert(name.clone(), TypeOut { node, pointer: at.pointer.clone() });
        self.built.pending_unions.push(super::PendingUnion {
            name: name.clone(),
            discriminator,
            variant_refs: refs,
            pointer: at.pointer.clone(),
        });
        Typed::of(Expr::Named(name))
    }

    /// A complete type expression for places that cannot declare an inline shape (union
    /// variants, additional properties): an inline object or enumeration becomes a named type.
    pub(super) fn complete(&mut self, typed: Typed, pointer: &str) -> Expr {
        if !typed.expr.is_inline() {
            return typed.expr;
        }
        let name = typed.inline_name.clone().unwrap_or_else(|| self.claim_type("Inline"));
        let mut shape =
            Typed { expr: if typed.enum_values.is_some() { Expr::Enum } else { Expr::Object }, ..typed.clone() };
        shape.inline_name = None;
        shape.constraints.clear();
        shape.default = None;
        shape.sample = None;
        shape.nullable = false;
        shape.gaps.clear();
        let mut node = shape.node(Vec::new());
        node.remove("type");
        if shape.expr == Expr::Object && !node.contains_key("fields") && !node.contains_key("additional_properties") {
            node.insert("fields".into(), json!({}));
        }
        self.built.types.insert(name.clone(), TypeOut { node, pointer: pointer.to_owned() });
        typed.expr.with_core(Expr::Named(name))
    }

    /// A schema by its `type` (a list of types in 3.1; inferred from the keywords when absent).
    fn by_type(&mut self, map: &Map<String, Value>, at: &At) -> Typed {
        let mut types: Vec<&str> = match map.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            Some(_) => {
                self.built.gaps.note(gaps::BAD_VALUE, &at.pointer);
                Vec::new()
            }
            None => Vec::new(),
        };
        let nullable = types.contains(&"null") || map.get("nullable") == Some(&Value::Bool(true));
        types.retain(|t| *t != "null");
        if types.is_empty() {
            types.push(infer_type(map));
        }
        let mut typed = match types.as_slice() {
            [one] => self.one_type(one, map, at),
            _ => self.scalar_union(&types, map, at),
        };
        typed.nullable |= nullable;
        typed
    }

    /// `type: [string, integer]`: an untagged union of the types.
    fn scalar_union(&mut self, types: &[&str], map: &Map<String, Value>, at: &At) -> Typed {
        let variants: Vec<Value> = types
            .iter()
            .map(|t| {
                let mut variant = map.clone();
                variant.insert("type".into(), json!(t));
                Value::Object(variant)
            })
            .collect();
        let refs: Vec<&Value> = variants.iter().collect();
        self.union(&Map::new(), "type", &refs, false, at)
    }

    fn one_type(&mut self, ty: &str, map: &Map<String, Value>, at: &At) -> Typed {
        if let Some(values) = map.get("enum") {
            return self.enumeration(ty, values, map, at);
        }
        match ty {
            "string" => self.string(map, at),
            "integer" | "number" => self.number(ty, map, at),
            "boolean" => Typed::of(Expr::Scalar("boolean")),
            "array" => self.array(map, at),
            "object" => self.object(map, at),
            "any" => Typed::of(Expr::Json),
            _ => self.json_because(gaps::BAD_VALUE, &at.pointer),
        }
    }

    fn string(&mut self, map: &Map<String, Value>, at: &At) -> Typed {
        let format = map.get("format").and_then(Value::as_str).unwrap_or_default();
        let expr = match format {
            "date-time" => Expr::Scalar("date-time"),
            // An absolute URI. An IRI may hold what a URI may not (`https://例え.jp/`), so it
            // stays text; so does `url`, a format JSON Schema does not define (any string is
            // valid: telnyx's `webhook_url` defaults to `""`), sampled as a URL since Prism
            // checks it as one.
            "uri" => Expr::Scalar("url"),
            _ => Expr::Scalar("string"),
        };
        let mut typed = Typed::of(expr);
        typed.sensitive = format == "password";
        if typed.expr == Expr::Scalar("string")
            && let Some(format) = crate::model::Format::parse(format)
        {
            typed.constraints.push(("format", json!(format.as_str())));
        }
        if let Some(constant) = map.get("const") {
            match constant.as_str() {
                Some(c) if !c.is_empty() => typed.constant = Some(c.to_owned()),
                _ => typed.gap(self.built.gaps.note(gaps::NON_STRING_CONST, &at.pointer)),
            }
        }
        self.string_constraints(&mut typed, map, at);
        // Only where it fits: a document's own example replaces it, and a pattern or lengths
        // it breaks are sampled by lint instead.
        typed.sample = text_format_sample(format).filter(|sample| self.fits(sample, &typed));
        typed
    }

    fn string_constraints(&mut self, typed: &mut Typed, map: &Map<String, Value>, at: &At) {
        let min = self.count(map, "minLength", at);
        let max = self.count(map, "maxLength", at);
        match (min, max) {
            (Some(lo), Some(hi)) if lo > hi => typed.gap(self.built.gaps.note(gaps::CONTRADICTORY, &at.pointer)),
            _ => {
                if let Some(lo) = min.filter(|&lo| lo > 0) {
                    typed.constraints.push(("min_length", json!(lo)));
                }
                if let Some(hi) = max {
                    typed.constraints.push(("max_length", json!(hi)));
                }
            }
        }
        match map.get("pattern") {
            None => {}
            Some(Value::String(pattern)) if crate::model::pattern::Engine::compile(pattern).is_ok() => {
                typed.constraints.push(("pattern", json!(pattern)));
            }
            Some(Value::String(_)) => typed.gap(self.built.gaps.note(gaps::PATTERN, &at.pointer)),
            Some(_) => typed.gap(self.built.gaps.note(gaps::BAD_VALUE, &at.pointer)),
        }
    }

    /// A non-negative whole number keyword (`minLength`), or `None` with a gap when it is not.
    fn count(&mut self, map: &Map<String, Value>, key: &str, at: &At) -> Option<u64> {
        let value = map.get(key)?;
        match value.as_u64().or_else(|| value.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0).map(|f| f as u64)) {
            Some(n) => Some(n),
            None => {
                self.built.gaps.note(gaps::BAD_VALUE, &at.pointer);
                None
            }
        }
    }

    fn number(&mut self, ty: &str, map: &Map<String, Value>, at: &At) -> Typed {
        // `type: number` with an integer format (`int32`, `int64`), a format OpenAPI defines
        // for integers: a number, as JSON Schema reads it (schemathesis sends `251.66` and
        // `99.0` as valid), sampled as a whole number, which Prism (reading the format as an
        // integer's and refusing a fraction) takes too. The format's range is not a bound:
        // JSON Schema gives a number's format no range either.
        let format = map.get("format").and_then(Value::as_str);
        let integer = ty == "integer";
        let whole_format = ty == "number" && format.is_some_and(|f| f == "int64" || format_range(f).is_some());
        let mut typed = Typed::of(Expr::Scalar(if integer { "integer" } else { "number" }));
        if whole_format {
            typed.gap(self.built.gaps.note(gaps::NUMBER_AS_INTEGER, &at.pointer));
        }
        let bound = |key: &str, exclusive: &str, step: i64, this: &mut Self, typed: &mut Typed| -> Option<f64> {
            // 3.0: `exclusiveMinimum: true` beside `minimum`; 3.1: `exclusiveMinimum: <number>`.
            let plain = map.get(key).and_then(Value::as_f64);
            let (value, is_exclusive) = match map.get(exclusive) {
                Some(Value::Bool(true)) => (plain, true),
                Some(Value::Number(n)) => (n.as_f64(), true),
                _ => (plain, false),
            };
            if map.get(key).is_some_and(|v| !v.is_number()) {
                typed.gap(this.built.gaps.note(gaps::BAD_VALUE, &at.pointer));
            }
            let value = value?;
            if !is_exclusive {
                return Some(value);
            }
            if integer && value.fract() == 0.0 && value.abs() < 9.0e15 {
                Some(value + step as f64)
            } else {
                typed.gap(this.built.gaps.note(gaps::EXCLUSIVE_BOUND, &at.pointer));
                None
            }
        };
        let mut min = bound("minimum", "exclusiveMinimum", 1, self, &mut typed);
        let mut max = bound("maximum", "exclusiveMaximum", -1, self, &mut typed);
        // A sized integer format bounds the values as the document's own bounds would: the
        // format's integers are 64-bit, and a 32-bit one must be refused past its range.
        if let Some((lo, hi)) =
            integer.then(|| map.get("format").and_then(Value::as_str).and_then(format_range)).flatten()
        {
            min = Some(min.map_or(lo, |m| m.max(lo)));
            max = Some(max.map_or(hi, |m| m.min(hi)));
        }
        let whole = |v: f64| v.fract() == 0.0 && v.abs() < 9.0e15;
        match (min, max) {
            (Some(lo), Some(hi)) if lo > hi => typed.gap(self.built.gaps.note(gaps::CONTRADICTORY, &at.pointer)),
            _ => {
                for (key, value) in [("minimum", min), ("maximum", max)] {
                    let Some(value) = value else { continue };
                    if integer && !whole(value) {
                        typed.gap(self.built.gaps.note(gaps::CONTRADICTORY, &at.pointer));
                    } else if integer {
                        typed.constraints.push((key, json!(value as i64)));
                    } else if let Some(n) = serde_json::Number::from_f64(value) {
                        typed.constraints.push((key, Value::Number(n)));
                    }
                }
            }
        }
        if map.contains_key("multipleOf") {
            typed.gap(self.built.gaps.note(gaps::MULTIPLE_OF, &at.pointer));
        }
        if whole_format {
            typed.sample = whole_sample(min, max);
        }
        typed
    }

    /// One item fitting the constraints of `item` that its list or map cannot keep: the
    /// document's example when it fits, else a scalar invented to fit (a pattern walked within
    /// its lengths, a format's sample, a number in range) or a list of those of the count
    /// asked; `None` for other items.
    fn item_sample(&self, item: &Typed) -> Option<Value> {
        if let Some(example) = item.sample.as_ref().filter(|example| self.fits(example, item)) {
            return Some(example.clone());
        }
        let constraints = item.model_constraints();
        let sample = match &item.expr {
            Expr::Scalar(name) => crate::model::sample::of_scalar(&scalar_ref(name)?, &constraints, "item")?,
            Expr::List(inner) => {
                let Expr::Scalar(name) = inner.as_ref() else { return None };
                let one = crate::model::sample::of_scalar(&scalar_ref(name)?, &Default::default(), "item")?;
                let n = constraints.exact_items.or(constraints.min_items).unwrap_or(1).max(1);
                if n > crate::model::sample::MAX_ITEMS {
                    return None;
                }
                json!(vec![one; n as usize])
            }
            _ => return None,
        };
        self.fits(&sample, item).then_some(sample)
    }

    fn array(&mut self, map: &Map<String, Value>, at: &At) -> Typed {
        let items = map.get("items").cloned().unwrap_or(Value::Bool(true));
        let inner = self.schema(&items, &at.below("items", format!("{}Item", at.name)));
        let mut typed = self.wrap(inner, true, at);
        let min = self.count(map, "minItems", at);
        let max = self.count(map, "maxItems", at);
        match (min, max) {
            (Some(lo), Some(hi)) if lo > hi => typed.gap(self.built.gaps.note(gaps::CONTRADICTORY, &at.pointer)),
            (Some(lo), Some(hi)) if lo == hi && lo > 0 => typed.constraints.push(("exact_items", json!(lo))),
            _ => {
                if let Some(lo) = min.filter(|&lo| lo > 0) {
                    typed.constraints.push(("min_items", json!(lo)));
                }
                if let Some(hi) = max {
                    typed.constraints.push(("max_items", json!(hi)));
                }
            }
        }
        // A sample of one item (for item constraints) repeated to the count the list asks.
        let wanted = typed.constraints.iter().find(|(k, _)| matches!(*k, "exact_items" | "min_items"));
        let wanted = wanted.and_then(|(_, v)| v.as_u64()).unwrap_or(1);
        if map.get("uniqueItems") == Some(&Value::Bool(true)) {
            // apigen's samples repeat one invented item: a list asking for several unique ones
            // would need the document's own sample.
            if wanted <= 1 {
                typed.constraints.push(("unique_items", json!(true)));
            } else {
                typed.gap(self.built.gaps.note(gaps::UNIQUE_ITEMS, &at.pointer));
            }
        }
        if let Some(Value::Array(items)) = &typed.sample
            && let [one] = items.as_slice()
            && wanted > 1
        {
            let fits = wanted <= crate::model::sample::MAX_ITEMS;
            typed.sample = fits.then(|| json!(vec![one.clone(); wanted as usize]));
        }
        typed
    }

    /// `list<inner>` or `map<inner>`: the inner shape is kept, its value keys (constraints,
    /// nullability, default, sample) cannot be said of items. An item's constraints become the
    /// list's sample (one item fitting them, [`Self::item_sample`]), so the samples apigen
    /// sends stay valid by the document's rules.
    fn wrap(&mut self, inner: Typed, list: bool, at: &At) -> Typed {
        if inner.expr.nesting() + 1 > MAX_NESTING {
            return self.json_because(gaps::TOO_DEEP, &at.pointer);
        }
        // An item's constraints or its own sample (the document's example, or a `format: url`
        // string's URL) become the list's sample: the format keeps neither on items.
        let item = if inner.constraints.is_empty() && inner.sample.is_none() { None } else { self.item_sample(&inner) };
        let held = if inner.constraints.is_empty() { None } else { Some(item_constraints(&inner)) };
        let mut typed = Typed {
            expr: if list { Expr::List(Box::new(inner.expr)) } else { Expr::Map(Box::new(inner.expr)) },
            inline_name: inner.inline_name,
            derived_name: inner.derived_name,
            fields: inner.fields,
            additional: inner.additional,
            enum_values: inner.enum_values,
            enum_renamed: inner.enum_renamed,
            open: inner.open,
            ..Typed::default()
        };
        if inner.nullable {
            typed.gap(self.built.gaps.note(gaps::NULLABLE_ITEMS, &at.pointer));
        }
        match held {
            Some(Some(item)) => typed.constraints.push(("item", item)),
            Some(None) => typed.gap(self.built.gaps.note(gaps::ITEM_CONSTRAINTS, &at.pointer)),
            None => {}
        }
        typed.sample = item.map(|item| if list { json!([item]) } else { json!({ "key": item }) });
        if let Some(constant) = inner.constant {
            // A constant item is a one-value enumeration item.
            typed.expr = typed.expr.with_core(Expr::Enum);
            typed.enum_values = Some(vec![json!(constant)]);
            typed.open = Some(false);
            typed.inline_name = Some(self.claim_type(&format!("{}{}", at.name, if list { "Item" } else { "Value" })));
        }
        for gap in inner.gaps {
            typed.gap(gap);
        }
        typed
    }

    /// `minProperties` and `maxProperties`: the entry counts of a map (`min_items`,
    /// `max_items`), `None` when the document gives neither (or only `minProperties: 0`). An
    /// object of properties cannot say them (gap `property-counts`).
    fn property_counts(
        &mut self,
        map: &Map<String, Value>,
        is_map: bool,
        at: &At,
    ) -> Option<(Option<u64>, Option<u64>)> {
        let min = self.count(map, "minProperties", at).filter(|&n| n > 0);
        let max = self.count(map, "maxProperties", at);
        if min.is_none() && max.is_none() {
            return None;
        }
        match (min, max) {
            (Some(lo), Some(hi)) if lo > hi => {
                self.built.gaps.note(gaps::CONTRADICTORY, &at.pointer);
                None
            }
            _ if !is_map => {
                self.built.gaps.note(gaps::PROPERTY_COUNT, &at.pointer);
                None
            }
            // apigen invents samples of at most MAX_ITEMS entries; a map asking for more is
            // left unchecked rather than unsampled.
            (Some(lo), _) if lo > crate::model::sample::MAX_ITEMS => {
                self.built.gaps.note(gaps::LARGE_SAMPLE, &at.pointer);
                None
            }
            counts => Some(counts),
        }
    }

    fn object(&mut self, map: &Map<String, Value>, at: &At) -> Typed {
        if map.contains_key("discriminator") {
            self.built.gaps.note(gaps::POLYMORPHIC_BASE, &at.pointer);
        }
        let properties = match map.get("properties") {
            Some(Value::Object(p)) => Some(p),
            Some(_) => {
                self.built.gaps.note(gaps::BAD_VALUE, &at.pointer);
                None
            }
            None => None,
        };
        let additional = map.get("additionalProperties");
        let is_map = properties.is_none_or(|p| p.is_empty()) && additional != Some(&Value::Bool(false));
        let counts = self.property_counts(map, is_map, at);
        if properties.is_none_or(|p| p.is_empty()) {
            let mut typed = match additional {
                Some(Value::Bool(false)) => {
                    let name = self.claim_type(&at.name);
                    Typed {
                        expr: Expr::Object,
                        inline_name: Some(name),
                        derived_name: Some(at.name.clone()),
                        fields: Some(Map::new()),
                        refuses_unknown: true,
                        ..Typed::default()
                    }
                }
                Some(schema @ Value::Object(_)) => {
                    let inner = self.schema(schema, &at.below("additionalProperties", format!("{}Value", at.name)));
                    self.wrap(inner, false, at)
                }
                _ => Typed::of(Expr::Map(Box::new(Expr::Json))),
            };
            if let (Expr::Map(_), Some((min, max))) = (&typed.expr, counts) {
                count_entries(&mut typed, min, max);
            }
            return typed;
        }
        let name = self.claim_type(&at.name);
        let fields = self.fields(&name, map, properties.into_iter().flatten(), at);
        let mut typed = Typed {
            expr: Expr::Object,
            inline_name: Some(name.clone()),
            derived_name: Some(at.name.clone()),
            refuses_unknown: additional == Some(&Value::Bool(false)),
            ..Typed::default()
        };
        self.built.open_objects |= additional.is_none();
        typed.additional = match additional {
            Some(Value::Bool(true)) => Some("json".to_owned()),
            Some(schema @ Value::Object(_)) => {
                let inner = self.schema(schema, &at.below("additionalProperties", format!("{name}Extra")));
                Some(self.complete(inner, &at.pointer).to_string())
            }
            _ => None,
        };
        typed.fields = Some(fields);
        typed
    }

    /// The fields of an object named `owner`. A field whose Rust name another took (`foo_bar`
    /// beside `fooBar`, or `extra` beside the map of additional properties) keeps its wire name
    /// and takes `<name>_2` as `rust_name` (its `x-rust-name` when the document gives one).
    fn fields<'v>(
        &mut self,
        owner: &str,
        map: &Map<String, Value>,
        properties: impl Iterator<Item = (&'v String, &'v Value)>,
        at: &At,
    ) -> Map<String, Value> {
        let required: Vec<&str> = match map.get("required") {
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            Some(_) => {
                self.built.gaps.note(gaps::BAD_VALUE, &at.pointer);
                Vec::new()
            }
            None => Vec::new(),
        };
        let mut taken = names::Taken::new(Case::Snake);
        if matches!(map.get("additionalProperties"), Some(Value::Bool(true) | Value::Object(_))) {
            taken.reserve("extra");
        }
        let mut fields = Map::new();
        let properties_at = At { pointer: refs::child(&at.pointer, "properties"), ..at.clone() };
        for (wire, schema) in properties {
            let field_at = properties_at.below(wire, format!("{owner}{}", sanitize(wire, Case::Pascal)));
            let mut field = self.field(schema, required.contains(&wire.as_str()), &field_at);
            // The object's example shows this field's value: kept for a field whose type turns
            // out `json` once types are settled (sendgrid's `from`, an object requiring `email`
            // without properties), which has no fields to sample from.
            if !field.contains_key("sample")
                && let Some(example) = map.get("example").and_then(|e| e.get(wire.as_str()))
            {
                field.insert(
                    super::settle::PENDING_EXAMPLE.into(),
                    super::settle::pending_example(example.clone(), None),
                );
            }
            let wanted = schema.get("x-rust-name").and_then(Value::as_str);
            if let Some(rust) = claim_rust_name(&mut taken, wire, wanted) {
                field.insert("rust_name".into(), json!(rust));
            }
            fields.insert(wire.clone(), Value::Object(field));
        }
        self.undeclared_required(owner, map, &required, (&mut fields, &mut taken), at);
        fields
    }

    /// Names `required` lists that `properties` does not declare: JSON Schema asks for the key,
    /// with any value (or the additional properties' schema), so each is a required field of
    /// that type, with gap `undeclared-required`. Under `additionalProperties: false` no object
    /// fits; the name is left out with the same gap.
    fn undeclared_required(
        &mut self,
        owner: &str,
        map: &Map<String, Value>,
        required: &[&str],
        (fields, taken): (&mut Map<String, Value>, &mut names::Taken),
        at: &At,
    ) {
        // A base others include may require what they declare (Box's `...--Base`): left to them.
        if self.doc.is_included(&at.pointer) {
            return;
        }
        let additional = match map.get("additionalProperties") {
            Some(Value::Bool(false)) => None,
            Some(schema @ Value::Object(_)) => Some(schema.clone()),
            _ => Some(json!({})),
        };
        let required_at = refs::child(&at.pointer, "required");
        for (i, &wire) in required.iter().enumerate() {
            if fields.contains_key(wire) {
                continue;
            }
            let pointer = refs::child(&required_at, &i.to_string());
            let gap = self.built.gaps.note(gaps::UNDECLARED_REQUIRED, &pointer);
            let Some(schema) = &additional else { continue };
            let field_at =
                At { pointer: pointer.clone(), ..at.below(wire, format!("{owner}{}", sanitize(wire, Case::Pascal))) };
            let mut field = self.field(schema, true, &field_at);
            // Any value fits it, `null` too.
            if field.get("type") == Some(&json!("json")) {
                field.insert("nullable".into(), json!(true));
            }
            add_gaps(&mut field, &[gap]);
            if let Some(rust) = claim_rust_name(taken, wire, None) {
                field.insert("rust_name".into(), json!(rust));
            }
            fields.insert(wire.to_owned(), Value::Object(field));
        }
    }

    /// One field: its type and value keys, `optional` unless required.
    fn field(&mut self, schema: &Value, required: bool, at: &At) -> Map<String, Value> {
        let mut typed = self.schema(schema, at);
        let optional = !required;
        if optional && null_unlisted(self.doc.value, schema) {
            // Nullable by `nullable: true` while its `enum` does not list `null`, which OpenAPI
            // 3.0.3 lets the enumeration refuse: an optional field that is not nullable refuses
            // `null` in requests (schemathesis sends it expecting a refusal) and reads it as
            // absent in answers (services answer it: GitHub's `state_reason`), each direction
            // as the document's readers do. A required one stays nullable: its `null` answers
            // could not be read otherwise.
            typed.nullable = false;
        }
        if typed.constant.is_some() && (optional || typed.nullable) {
            self.constant_to_enum(&mut typed, at);
        }
        self.settle_values(&mut typed, optional, at);
        let mut extra =
            if optional && typed.constant.is_none() { vec![("optional", Value::Bool(true))] } else { vec![] };
        match (typed.read_only, typed.write_only) {
            (false, false) => {}
            (true, true) => typed.gap(self.built.gaps.note(gaps::READ_ONLY, &at.pointer)),
            (_, _) if typed.constant.is_some() => typed.gap(self.built.gaps.note(gaps::READ_ONLY, &at.pointer)),
            (true, false) => extra.push(("read_only", Value::Bool(true))),
            (false, true) => extra.push(("write_only", Value::Bool(true))),
        }
        if self.untyped_field(schema, &typed) {
            extra.push(("untyped", Value::Bool(true)));
        }
        let mut node = typed.node(extra);
        self.share_inline_shape(&typed, &mut node);
        node
    }

    /// Whether a property is read `untyped`: its schema gives an object's properties without
    /// `type` (Azure's `customProfile`), so by JSON Schema `null`, `3` or `[]` fits it, or
    /// apigen's own openapi.json says so with `x-untyped`. Not where the schema says
    /// `nullable` or a default (they say what `null` and absence read as), nor on a field
    /// travelling one way only (decisions named in spec/README.md, `untyped`).
    fn untyped_field(&self, schema: &Value, typed: &Typed) -> bool {
        let object = matches!(typed.expr, Expr::Object | Expr::Named(_));
        let plain = !typed.nullable && typed.default.is_none() && typed.constant.is_none();
        let both_ways = !typed.read_only && !typed.write_only;
        let untyped =
            schema.get("x-untyped") == Some(&Value::Bool(true)) || admits_non_objects(self.doc.value, schema, 0);
        object && plain && both_ways && untyped
    }

    /// An inline object or enumeration the same as one met before (fields, their types and
    /// descriptions, or values) names that one instead of declaring a copy: documents
    /// generated from code repeat shapes (GitHub's webhook payloads hold thousands of copies
    /// of a repository), and each copy would be a type of its own to compile. The shape's
    /// constraints (an enumeration's `max_length`) belong to it: they are part of what must be
    /// the same, and the field naming the shared type leaves them to the type.
    fn share_inline_shape(&mut self, typed: &Typed, node: &mut Map<String, Value>) {
        const SHAPE: [&str; 5] = ["fields", "additional_properties", "unknown_fields", "enum", "open"];
        if !self.pass.share_shapes || !matches!(typed.expr, Expr::Object | Expr::Enum) || typed.constant.is_some() {
            return;
        }
        let Some(name) = typed.inline_name.clone() else { return };
        let of_shape = |key: &str| SHAPE.contains(&key) || typed.constraints.iter().any(|(c, _)| *c == key);
        let shape: Map<String, Value> =
            node.iter().filter(|(k, _)| of_shape(k)).map(|(k, v)| (k.clone(), v.clone())).collect();
        if shape.is_empty() {
            return;
        }
        let key = Value::Object(shape).to_string();
        match self.built.inline_shapes.get(&key) {
            Some(first) if *first != name => {
                let mut shared = Map::new();
                shared.insert("type".into(), json!(first));
                for (k, v) in std::mem::take(node) {
                    if !of_shape(&k) && !matches!(k.as_str(), "type" | "type_name") {
                        shared.insert(k, v);
                    }
                }
                *node = shared;
                self.built.shared_shapes += 1;
            }
            Some(_) => {}
            None => {
                self.built.inline_shapes.insert(key, name);
            }
        }
    }

    /// A constant the format cannot hold as `const` (an optional field's): a one-value enum.
    fn constant_to_enum(&mut self, typed: &mut Typed, at: &At) {
        let Some(constant) = typed.constant.take() else { return };
        typed.gap(self.built.gaps.note(gaps::NON_STRING_CONST, &at.pointer));
        typed.expr = Expr::Enum;
        typed.enum_values = Some(vec![json!(constant)]);
        typed.open = Some(false);
        typed.inline_name = Some(self.claim_type(&at.name));
        typed.derived_name = Some(at.name.clone());
        typed.constraints.clear();
    }

    /// A string enumeration; other enumerations are typed by their scalar (gap).
    fn enumeration(&mut self, ty: &str, values: &Value, map: &Map<String, Value>, at: &At) -> Typed {
        let Some(values) = values.as_array() else {
            return self.json_because(gaps::BAD_VALUE, &at.pointer);
        };
        let strings: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
        let non_null = values.iter().filter(|v| !v.is_null()).count();
        let integers: Vec<i64> = values.iter().filter_map(Value::as_i64).collect();
        // `type: number` listing only whole numbers is an enumeration of integers too.
        if matches!(ty, "integer" | "number") && integers.len() == non_null && !integers.is_empty() {
            return self.integer_enumeration(&integers, values, at);
        }
        if ty != "string" || strings.len() != non_null || strings.is_empty() {
            let mut without = map.clone();
            without.remove("enum");
            let mut typed = if ty == "string" && strings.is_empty() {
                Typed::of(Expr::Scalar("string"))
            } else {
                self.one_type(ty, &without, at)
            };
            typed.gap(self.built.gaps.note(gaps::NON_STRING_ENUM, &at.pointer));
            typed.nullable |= values.iter().any(Value::is_null);
            // Unchecked, but sampled with a value the document lists.
            typed.sample = values.iter().find(|v| !v.is_null() && self.fits(v, &typed)).cloned();
            return typed;
        }
        // Closed, also under Azure's `x-ms-enum: {modelAsString: true}` (values may be added
        // later): the generated server knows the values this document lists and refuses others,
        // as the schema says; the client keeps any value it receives, as for every enumeration.
        let mut typed = Typed::default();
        let (listed, renamed) = enum_variant_names(values, map.get("x-enum-varnames"));
        typed.enum_renamed = renamed;
        typed.expr = Expr::Enum;
        typed.nullable = values.iter().any(Value::is_null);
        typed.enum_values = Some(listed);
        typed.open = Some(false);
        typed.inline_name = Some(self.claim_type(&at.name));
        typed.derived_name = Some(at.name.clone());
        self.string_constraints(&mut typed, map, at);
        typed.constraints.retain(|(k, _)| *k != "pattern");
        typed
    }

    /// An enumeration of integers, each listed once.
    fn integer_enumeration(&mut self, integers: &[i64], values: &[Value], at: &At) -> Typed {
        let mut seen = BTreeSet::new();
        let listed: Vec<Value> =
            integers.iter().filter(|value| seen.insert(**value)).map(|value| json!(value)).collect();
        Typed {
            expr: Expr::Enum,
            nullable: values.iter().any(Value::is_null),
            enum_values: Some(listed),
            open: Some(false),
            inline_name: Some(self.claim_type(&at.name)),
            derived_name: Some(at.name.clone()),
            ..Typed::default()
        }
    }

    /// Description, default, examples, direction, secrets, and the keywords with no word.
    pub(super) fn annotate(&mut self, typed: &mut Typed, map: &Map<String, Value>, at: &At) {
        if let Some(description) = description_of(map) {
            typed.description = Some(description);
        }
        if map.contains_key("default") {
            typed.default = map.get("default").cloned();
        }
        if let Some(example) = map.get("example").or_else(|| map.get("examples").and_then(|e| e.get(0))) {
            // A sample made to fit item constraints stays over an example that does not fit.
            if typed.sample.is_none() || self.fits(example, typed) {
                typed.sample = Some(example.clone());
            } else {
                typed.gap(self.built.gaps.note(gaps::EXAMPLE_DROPPED, &at.pointer));
            }
        }
        typed.read_only |= map.get("readOnly") == Some(&Value::Bool(true));
        typed.write_only |= map.get("writeOnly") == Some(&Value::Bool(true));
        typed.sensitive |= map.get("x-sensitive") == Some(&Value::Bool(true));
        if map.get("nullable") == Some(&Value::Bool(true)) {
            typed.nullable = true;
        }
        for key in UNSUPPORTED {
            if map.contains_key(*key) && !(*key == "not" && is_not_null(map)) {
                typed.gap(self.built.gaps.note(gaps::UNSUPPORTED_KEYWORD, &at.pointer));
            }
        }
        for id in map.get("x-gap").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
            if self.built.gaps.carries(id) {
                typed.gap(id.to_owned());
            }
        }
    }

    /// Keeps the default and sample only where the format holds them: scalars and enumeration
    /// values that fit the type and constraints, a default only on what may be absent.
    pub(super) fn settle_values(&mut self, typed: &mut Typed, optional: bool, at: &At) {
        // Lengths and patterns of a date-time: the format checks it as a date-time.
        if typed.expr == Expr::Scalar("date-time")
            && typed.constraints.iter().any(|(k, _)| matches!(*k, "min_length" | "max_length" | "pattern"))
        {
            typed.constraints.retain(|(k, _)| !matches!(*k, "min_length" | "max_length" | "pattern"));
            typed.gap(self.built.gaps.note(gaps::CONTRADICTORY, &at.pointer));
        }
        if let Some(default) = typed.default.take() {
            // A scalar: a list's or a map's default is not written as a literal.
            let scalar = !default.is_null() && !default.is_array() && !default.is_object();
            // Any JSON takes any sample, but a default only where the format writes a literal.
            if optional && scalar && typed.expr != Expr::Json && self.fits(&default, typed) {
                typed.default = Some(default);
            } else if !default.is_null() || !optional {
                typed.gap(self.built.gaps.note(gaps::DEFAULT_DROPPED, &at.pointer));
            }
        }
        if let Some(sample) = typed.sample.take() {
            if self.fits(&sample, typed) {
                typed.sample = Some(sample);
            } else if typed.expr.core().is_named() && (sample.is_object() || sample.is_array()) {
                // A structured example of a named type may fit after all, once the type turns
                // out `json` (a union whose variants overlap): decided when types are settled.
                typed.pending_example = Some(super::settle::pending_example(sample, Some(&at.pointer)));
            } else {
                typed.gap(self.built.gaps.note(gaps::EXAMPLE_DROPPED, &at.pointer));
            }
        }
        // A pattern stays when the document shows a sample, or when lint can invent one (it does
        // where the spec gives none); one it cannot walk is dropped.
        let mut drop_pattern = typed.sample.is_none() && typed.constraints.iter().any(|(k, _)| *k == "pattern");
        if drop_pattern && typed.expr == Expr::Scalar("string") {
            drop_pattern = crate::model::sample::fit_pattern(&typed.model_constraints()).is_none();
        }
        if drop_pattern {
            typed.constraints.retain(|(k, _)| *k != "pattern");
            typed.gap(self.built.gaps.note(gaps::PATTERN, &at.pointer));
        }
        let large = typed.constraints.iter().any(|(k, v)| match *k {
            "min_items" | "exact_items" => v.as_u64().is_some_and(|n| n > crate::model::sample::MAX_ITEMS),
            "min_length" => v.as_u64().is_some_and(|n| n > crate::model::sample::MAX_LENGTH),
            _ => false,
        });
        if large && typed.sample.is_none() {
            typed.constraints.retain(|(k, _)| !matches!(*k, "min_items" | "exact_items" | "min_length"));
            typed.gap(self.built.gaps.note(gaps::LARGE_SAMPLE, &at.pointer));
        }
    }

    /// True when `value` is a valid scalar value of `typed` (its type and constraints).
    pub(super) fn fits(&self, value: &Value, typed: &Typed) -> bool {
        let check = |c: &str| typed.constraints.iter().find(|(k, _)| *k == c).map(|(_, v)| v);
        let in_range = |n: f64| {
            check("minimum").and_then(Value::as_f64).is_none_or(|m| n >= m)
                && check("maximum").and_then(Value::as_f64).is_none_or(|m| n <= m)
        };
        let string_fits = |s: &str| {
            let len = s.chars().count() as u64;
            check("min_length").and_then(Value::as_u64).is_none_or(|m| len >= m)
                && check("max_length").and_then(Value::as_u64).is_none_or(|m| len <= m)
                && check("pattern").and_then(Value::as_str).is_none_or(|p| crate::model::pattern::matches(p, s))
                && check("format")
                    .and_then(Value::as_str)
                    .and_then(crate::model::Format::parse)
                    .is_none_or(|f| f.accepts(s))
        };
        match (&typed.expr, value) {
            (Expr::Scalar("string"), Value::String(s)) => string_fits(s),
            (Expr::Scalar("url"), Value::String(s)) => crate::model::is_absolute_url(s) && string_fits(s),
            (Expr::Scalar("date-time"), Value::String(s)) => crate::lower::is_rfc3339(s),
            (Expr::Scalar("integer"), Value::Number(n)) => n.is_i64() && in_range(n.as_f64().unwrap_or(0.0)),
            (Expr::Scalar("number"), Value::Number(n)) => in_range(n.as_f64().unwrap_or(0.0)),
            (Expr::Scalar("boolean"), Value::Bool(_)) => true,
            (Expr::Enum, Value::String(s)) => {
                (typed.open == Some(true) || typed.enum_values.iter().flatten().any(|v| v == value)) && string_fits(s)
            }
            (Expr::Enum, Value::Number(_)) => {
                typed.open == Some(true) || typed.enum_values.iter().flatten().any(|v| v == value)
            }
            (Expr::Named(name), Value::String(s)) => self.enum_accepts(name, value) && string_fits(s),
            (Expr::Named(name), Value::Number(n)) => n.is_i64() && self.enum_accepts(name, value),
            (Expr::List(_), Value::Array(items)) => {
                let count = items.len() as u64;
                let exact = check("exact_items").and_then(Value::as_u64);
                exact.is_none_or(|n| count == n)
                    && check("min_items").and_then(Value::as_u64).is_none_or(|n| count >= n)
                    && check("max_items").and_then(Value::as_u64).is_none_or(|n| count <= n)
                    && items.iter().all(|item| self.fits(item, &typed.item()))
                    && (check("unique_items").is_none() || (1..items.len()).all(|i| !items[..i].contains(&items[i])))
            }
            (Expr::Map(_), Value::Object(values)) => {
                let count = values.len() as u64;
                check("min_items").and_then(Value::as_u64).is_none_or(|n| count >= n)
                    && check("max_items").and_then(Value::as_u64).is_none_or(|n| count <= n)
                    && values.values().all(|value| self.fits(value, &typed.item()))
            }
            // Any JSON: the document's example of a shape the format cannot type.
            (Expr::Json, _) => true,
            _ => false,
        }
    }

    /// True when the named type is an enumeration taking `value` (a string, or an integer for
    /// an enumeration of integers).
    fn enum_accepts(&self, name: &str, value: &Value) -> bool {
        let Some(ty) = self.built.types.get(name) else {
            // A component enumeration not built yet: read the document's values.
            let Some((key, _)) = self.doc.components.iter().find(|(_, n)| n.as_deref() == Some(name)) else {
                return false;
            };
            let schema = &self.doc.value["components"]["schemas"][key];
            let listed = |s: &Value| s["enum"].as_array().is_some_and(|v| v.contains(value));
            let kind = if value.is_string() { "string" } else { "integer" };
            let open = schema["anyOf"]
                .as_array()
                .is_some_and(|a| a.iter().any(|s| s.get("enum").is_none() && s["type"] == kind));
            return listed(schema) || open;
        };
        let same_kind =
            |values: &Vec<Value>| values.first().is_some_and(|first| first.is_string() == value.is_string());
        match (ty.node.get("enum"), ty.node.get("open")) {
            (Some(Value::Array(values)), Some(Value::Bool(true))) => same_kind(values),
            (Some(Value::Array(values)), _) => values.contains(value),
            _ => false,
        }
    }
}

/// Keys that give a schema a shape (as opposed to annotating one).
const SHAPE_KEYS: &[&str] =
    &["type", "properties", "items", "additionalProperties", "enum", "$ref", "allOf", "oneOf", "anyOf", "const"];

/// The own part of a composition without what its included components give: properties
/// repeated from one must say the same, and stay there; required names of inherited
/// properties must be required there too. `None` when they do not.
fn leave_inherited(
    own: &mut Map<String, Value>,
    inherited: &Map<String, Value>,
    inherited_required: &[Value],
) -> Option<()> {
    if let Some(Value::Object(properties)) = own.get_mut("properties") {
        for (property, schema) in inherited.iter() {
            match properties.get(property) {
                Some(repeated) if repeated == schema => {
                    properties.shift_remove(property);
                }
                Some(_) => return None,
                None => {}
            }
        }
    }
    // Required names of inherited properties must be required there too.
    if let Some(Value::Array(required)) = own.get_mut("required") {
        for name in required.iter() {
            let inherited_here = name.as_str().is_some_and(|n| inherited.contains_key(n));
            if inherited_here && !inherited_required.contains(name) {
                return None;
            }
        }
        required.retain(|name| !name.as_str().is_some_and(|n| inherited.contains_key(n)));
    }
    Some(())
}

/// True when a schema is plainly an object: properties or `type: object`, no union.
fn is_object_schema(map: &Map<String, Value>) -> bool {
    let object = map.contains_key("properties") || map.get("type") == Some(&json!("object"));
    object && !map.contains_key("oneOf") && !map.contains_key("anyOf") && !map.contains_key("enum")
}

/// True when a schema says something about the shape of values.
fn shapes(schema: &Value) -> bool {
    schema.as_object().is_some_and(|m| m.keys().any(|k| SHAPE_KEYS.contains(&k.as_str())))
}

/// `{type: null}`, `{enum: [null]}`, `{const: null}`.
fn is_null_schema(schema: &Value) -> bool {
    schema.get("type") == Some(&json!("null"))
        || schema.get("enum") == Some(&json!([null]))
        || schema.get("const") == Some(&Value::Null) && schema.get("const").is_some()
}

/// An apigen export's variant for values not listed: any value, or an object whose tag is none
/// of the listed values.
fn is_catch_all(schema: &Value) -> bool {
    !shapes(schema)
        || schema
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| p.len() == 1 && p.values().all(|v| v.get("not").is_some()))
}

/// `not: {type: null}`: what an apigen export says of a field that is not nullable.
fn is_not_null(map: &Map<String, Value>) -> bool {
    map.get("not") == Some(&json!({"type": "null"}))
}

/// True when the schema itself allows null (3.0 `nullable`, 3.1 `type: [.., null]`).
pub(super) fn is_nullable(schema: &Value) -> bool {
    schema.get("nullable") == Some(&Value::Bool(true))
        || schema.get("type").and_then(Value::as_array).is_some_and(|t| t.contains(&json!("null")))
}

/// The type a schema without `type` has, from its keywords.
fn infer_type(map: &Map<String, Value>) -> &'static str {
    if map.contains_key("properties") || map.contains_key("additionalProperties") {
        "object"
    } else if map.contains_key("items") {
        "array"
    } else if map.get("enum").and_then(Value::as_array).is_some_and(|v| v.iter().any(Value::is_string))
        || map.get("const").is_some_and(Value::is_string)
    {
        "string"
    } else {
        "any"
    }
}

/// The description of a schema, or its title; trimmed, `None` when empty.
pub(super) fn description_of(map: &Map<String, Value>) -> Option<String> {
    let text = map.get("description").and_then(Value::as_str).or_else(|| map.get("title").and_then(Value::as_str))?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// The range of an integer format of OpenAPI's registry narrower than 64 bits.
fn format_range(format: &str) -> Option<(f64, f64)> {
    match format {
        "int8" => Some((-128.0, 127.0)),
        "uint8" => Some((0.0, 255.0)),
        "int16" => Some((-32_768.0, 32_767.0)),
        "uint16" => Some((0.0, 65_535.0)),
        "int32" => Some((-2_147_483_648.0, 2_147_483_647.0)),
        "uint32" => Some((0.0, 4_294_967_295.0)),
        _ => None,
    }
}

/// The string values of an enumeration, each listed once, and the Rust names those whose
/// own name is taken must say (`rust_name`): `a-b` beside `a_b` gives `AB` and `AB2`. A
/// document's `x-enum-varnames` (openapi-generator's, one name per value; apigen's
/// openapi.json writes it) gives the names wanted. `UnknownVariant` stays free, so the
/// client's catch-all variant always has a name.
fn enum_variant_names(values: &[Value], varnames: Option<&Value>) -> (Vec<Value>, BTreeMap<String, String>) {
    let varnames = varnames.and_then(Value::as_array);
    let mut taken: BTreeSet<String> = BTreeSet::from(["UnknownVariant".to_owned()]);
    let mut listed = Vec::new();
    let mut renamed = BTreeMap::new();
    let mut seen = BTreeSet::new();
    for (i, value) in values.iter().enumerate() {
        let Some(value) = value.as_str() else { continue };
        if !seen.insert(value) {
            continue;
        }
        let own = sanitize(value, Case::Pascal);
        let wanted = varnames.and_then(|names| names.get(i)).and_then(Value::as_str).map(variant_name);
        let base = wanted.unwrap_or_else(|| own.clone());
        let rust = (1..).map(|n| if n == 1 { base.clone() } else { format!("{base}{n}") });
        let rust = rust.into_iter().find(|name| !taken.contains(name)).unwrap_or_default();
        taken.insert(rust.clone());
        if rust != own {
            renamed.insert(value.to_owned(), rust);
        }
        listed.push(json!(value));
    }
    (listed, renamed)
}

/// A variant name from a document's own name for a value: as written when it is one (a
/// capital, then letters, digits and `_`), else in Pascal case.
fn variant_name(wanted: &str) -> String {
    if crate::model::names::is_variant_name(wanted) { wanted.to_owned() } else { sanitize(wanted, Case::Pascal) }
}

/// The Rust name a field or parameter named `wire` can take in `taken` (not taken yet):
/// `wanted` (a document's `x-rust-name`) or the wire name's own, else the first free
/// `<name>_2`, `<name>_3`, ...
pub(super) fn free_rust_name(taken: &mut names::Taken, wire: &str, wanted: Option<&str>) -> String {
    // A keyword's `_` (`type_`) is not doubled by the number: `type_2`.
    let wanted = sanitize(wanted.unwrap_or(wire), Case::Snake);
    let base = wanted.trim_end_matches('_');
    let base = if base.is_empty() { wanted.as_str() } else { base };
    let free = taken.first_free(base, "_", |taken, name| taken.is_free(name));
    sanitize(&free, Case::Snake)
}

/// Takes [`free_rust_name`] in `taken`; returns it when the spec must say it (`rust_name`),
/// `None` when it is the wire name's own.
fn claim_rust_name(taken: &mut names::Taken, wire: &str, wanted: Option<&str>) -> Option<String> {
    let rust = free_rust_name(taken, wire, wanted);
    taken.claim(&rust);
    (rust != sanitize(wire, Case::Snake)).then_some(rust)
}

/// The model's type of a scalar of the format (`string`, `integer`, ...); `None` for `json`.
fn scalar_ref(name: &str) -> Option<crate::model::TypeRef> {
    use crate::model::TypeRef;
    Some(match name {
        "string" => TypeRef::String,
        "integer" => TypeRef::Integer,
        "number" => TypeRef::Number,
        "boolean" => TypeRef::Boolean,
        "date-time" => TypeRef::DateTime,
        "url" => TypeRef::Url,
        _ => return None,
    })
}

/// A sample for a string format the format keeps as text but judges check (JSON Schema's
/// format vocabulary, and `url`, which Prism checks as a URL): a field's name is not an ISO
/// 8601 duration, an IRI or a JSON pointer.
fn text_format_sample(format: &str) -> Option<Value> {
    let sample = match format {
        "url" | "iri" => "https://example.com/",
        "duration" => "P1D",
        "json-pointer" => "/",
        _ => return None,
    };
    Some(json!(sample))
}

/// True when `sample` may stand as the sample of a list or map body or answer `typed`: it
/// is one, and it fits the type (a document's example may not: xero's list sample is a
/// string holding JSON).
pub(super) fn list_or_map_sample(importer: &Importer<'_>, typed: &super::typed::Typed, sample: &Value) -> bool {
    matches!(typed.expr, Expr::List(_) | Expr::Map(_)) && importer.fits(sample, typed)
}

/// An item's constraints as its list's or map's `item:`, where the format holds them: the items
/// of a list or the values of a map (`additionalProperties`: AWS's tag maps) that are texts or
/// numbers, constrained as a text or a number is (lengths, pattern, format, bounds). `None`
/// otherwise (gap `item-constraints`).
/// True when `schema` (its reference followed) is an enumeration made nullable by `nullable:
/// true` (or 3.1's `type: [.., "null"]`) whose `enum` does not list `null`.
fn null_unlisted(doc: &Value, schema: &Value) -> bool {
    let Some(schema) = refs::lookup_value(doc, schema).and_then(Value::as_object) else { return false };
    let Some(Value::Array(values)) = schema.get("enum") else { return false };
    let null_type = match schema.get("type") {
        Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
        _ => false,
    };
    (schema.get("nullable") == Some(&Value::Bool(true)) || null_type) && !values.iter().any(Value::is_null)
}

/// The whole number nearest 1 within `min..=max` (`None` when the range holds none): the sample
/// of a `number` whose format says it is whole.
fn whole_sample(min: Option<f64>, max: Option<f64>) -> Option<Value> {
    let (lo, hi) = (min.map_or(f64::MIN, f64::ceil), max.map_or(f64::MAX, f64::floor));
    let whole = 1f64.max(lo).min(hi);
    (lo <= hi && whole.abs() < 9.0e15).then(|| json!(whole as i64))
}

/// A map's entry counts as its `min_items` and `max_items`; its sample (one entry made to fit
/// its values' constraints) repeated under other keys to the count asked.
fn count_entries(typed: &mut Typed, min: Option<u64>, max: Option<u64>) {
    if let Some(lo) = min {
        typed.constraints.push(("min_items", json!(lo)));
    }
    if let Some(hi) = max {
        typed.constraints.push(("max_items", json!(hi)));
    }
    if max == Some(0) {
        typed.sample = Some(json!({}));
    }
    if let Some(Value::Object(entries)) = &mut typed.sample
        && let Some(one) = entries.values().next().cloned()
    {
        for n in (entries.len() as u64 + 1)..=min.unwrap_or(0) {
            entries.insert(format!("key{n}"), one.clone());
        }
    }
}

fn item_constraints(inner: &Typed) -> Option<Value> {
    const ITEM_KEYS: [&str; 6] = ["min_length", "max_length", "pattern", "format", "minimum", "maximum"];
    let scalar = matches!(inner.expr, Expr::Scalar("string" | "url" | "integer" | "number"));
    let held = inner.constraints.iter().all(|(key, _)| ITEM_KEYS.contains(key));
    (scalar && held).then(|| {
        Value::Object(inner.constraints.iter().map(|(key, value)| ((*key).to_owned(), value.clone())).collect())
    })
}

/// Whether an object's schema (its reference followed) says nothing of values that are not
/// objects: properties (or `required`, `additionalProperties`) without `type`, `enum`,
/// `const` or a choice (`oneOf`, `anyOf`, `not`), and every part it is composed of (`allOf`)
/// alike. By JSON Schema `null`, `3` or `[]` then fits it.
pub(super) fn admits_non_objects(doc: &Value, schema: &Value, depth: usize) -> bool {
    const MAX_DEPTH: usize = 8;
    let Some(schema) = refs::lookup_value(doc, schema).and_then(Value::as_object) else {
        return false;
    };
    let says_type = ["type", "enum", "const", "oneOf", "anyOf", "not"].iter().any(|k| schema.contains_key(*k));
    let says_object = ["properties", "required", "additionalProperties"].iter().any(|k| schema.contains_key(*k));
    let parts = schema.get("allOf").and_then(Value::as_array);
    let parts_admit = parts
        .is_none_or(|parts| depth < MAX_DEPTH && parts.iter().all(|part| admits_non_objects(doc, part, depth + 1)));
    !says_type && (says_object || parts.is_some()) && parts_admit
}
