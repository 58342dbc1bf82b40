//! Sample values: a JSON instance of any type, built from the spec's `sample`s.
//!
//! Where the spec gives a sample it is used; elsewhere a value is built from the type that
//! satisfies its constraints (lengths, ranges, item counts). Samples feed the round-trip test
//! of every generated type, the OpenAPI examples and the reference. Every field is filled,
//! optional ones included, so a round trip exercises all of them, except an optional field of
//! any JSON given no sample (`Sampler::field` says why); recursion stops at a fixed
//! depth by leaving optional fields out and lists empty, but an object keeps one scalar field
//! and a map of scalars one entry (neither recurses; `minProperties` may need them).

use super::{Api, Constraints, Field, Operation, Param, Presence, ResponseBody, TypeKind, TypeRef};
use serde_json::{Map, Number, Value, json};

/// How deep nested objects are filled before optional parts are left out.
const MAX_DEPTH: usize = 3;

/// The most items an invented list sample holds; a spec asking for more gives its own sample.
pub const MAX_ITEMS: u64 = 256;

/// The most characters an invented string sample holds; a spec asking for more gives its own.
pub const MAX_LENGTH: u64 = 4096;

/// Unions without a tag nested at most this deep get a sample valid as one variant only
/// (`Sampler::one_of`); deeper ones, the first variant's (each variant tried costs a sample).
const ONE_OF_DEPTH: usize = 4;

/// A sample of the named type.
pub fn of_type(api: &Api, name: &str) -> Value {
    Sampler { api }.named(name, 0)
}

/// A sample of a type reference, constrained like `constraints`.
pub fn of_ref(api: &Api, ty: &TypeRef, constraints: &Constraints, hint: &str) -> Value {
    Sampler { api }.value(ty, constraints, hint, 0)
}

/// A sample value of a parameter: its own sample, else one built from its type. A union of
/// scalars travels as text, where the text of one variant may read as another (`1` is a
/// number and a string): its sample is the first variant's whose text fits no other, so that
/// it matches exactly one (OpenAPI's `oneOf`).
pub fn of_param(api: &Api, param: &Param) -> Value {
    if let Some(sample) = &param.sample {
        return sample.clone();
    }
    let sampler = Sampler { api };
    if let Some(super::TypeKind::Union(union)) = param.ty.named().map(|n| &api.ty(n).kind) {
        let samples: Vec<Value> =
            union.variants.iter().map(|v| sampler.value(&v.ty, &Constraints::default(), &param.wire, 0)).collect();
        let unique = samples.iter().enumerate().find(|(index, sample)| {
            let text = text_of(sample);
            union.variants.iter().enumerate().all(|(other, v)| other == *index || !text_fits(api, &v.ty, &text))
        });
        if let Some((_, sample)) = unique {
            return sample.clone();
        }
    }
    sampler.value(&param.ty, &param.constraints, &param.wire, 0)
}

/// A scalar sample as a parameter's text.
fn text_of(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// Whether `text` reads as a value of `ty` (a scalar or an enumeration; anything else never).
fn text_fits(api: &Api, ty: &TypeRef, text: &str) -> bool {
    match ty {
        TypeRef::String | TypeRef::Url => true,
        TypeRef::Integer => text.parse::<i64>().is_ok(),
        TypeRef::Number => text.parse::<f64>().is_ok(),
        TypeRef::Boolean => text == "true" || text == "false",
        // The shape of RFC 3339 (`2024-01-31T12:00:00Z`): the samples compared are ours.
        TypeRef::DateTime => text.len() >= 20 && text.as_bytes().get(4) == Some(&b'-') && text.contains('T'),
        TypeRef::Named(name) => match &api.ty(name).kind {
            TypeKind::Enum(e) => e.values.iter().any(|v| v.wire == text),
            _ => false,
        },
        _ => false,
    }
}

/// A sample value of a response header: its own sample, else one built from its type.
pub fn of_response_header(api: &Api, header: &super::ResponseHeader) -> Value {
    header.sample.clone().unwrap_or_else(|| of_ref(api, &header.ty, &Constraints::default(), &header.wire))
}

/// A sample request body of an operation, when it takes one.
pub fn of_body(api: &Api, op: &Operation) -> Option<Value> {
    let body = op.body.as_ref()?;
    Some(body.sample.clone().unwrap_or_else(|| of_ref(api, &body.ty, &Constraints::default(), "body")))
}

/// A sample success body of an operation: pages hold one item and a `next` cursor.
pub fn of_response(api: &Api, op: &Operation) -> Option<Value> {
    match &op.response.body {
        ResponseBody::Empty => None,
        ResponseBody::Value(ty) => {
            Some(op.response.sample.clone().unwrap_or_else(|| of_ref(api, ty, &Constraints::default(), "response")))
        }
        ResponseBody::Page { envelope: Some(envelope), .. } => Some(of_type(api, envelope)),
        // A page holds one item, or as many as its `min_items` asks.
        ResponseBody::Page { item, envelope: None } if op.pagination.as_ref().is_some_and(|p| !p.is_standard()) => {
            let page = Constraints { min_items: op.response.min_items, ..Constraints::default() };
            Some(of_ref(api, &TypeRef::List(Box::new(item.clone())), &page, "item"))
        }
        ResponseBody::Page { item, envelope: None } => {
            let count = op.response.min_items.unwrap_or(1).clamp(1, MAX_ITEMS);
            let items = vec![of_ref(api, item, &Constraints::default(), "item"); usize::try_from(count).unwrap_or(1)];
            Some(json!({ "next": { "page": "page_2" }, "count": 1, "items": items }))
        }
    }
}

struct Sampler<'a> {
    api: &'a Api,
}

impl Sampler<'_> {
    fn named(&self, name: &str, depth: usize) -> Value {
        let def = self.api.ty(name);
        match &def.kind {
            TypeKind::Enum(e) if e.integer => e.values[0].wire.parse::<i64>().map_or(Value::Null, Value::from),
            TypeKind::Enum(e) => Value::String(e.values[0].wire.clone()),
            TypeKind::Union(u) if u.tag.is_none() && depth < ONE_OF_DEPTH => self.one_of(u, name, depth),
            TypeKind::Union(u) => {
                // Past the depth limit, the variant with the smallest value, so recursion
                // through a union ends (lowering guarantees one exists).
                let variant = if depth >= MAX_DEPTH {
                    u.variants.iter().min_by_key(|v| v.ty.named().map_or(0, |n| self.api.ty(n).depth))
                } else {
                    u.variants.first()
                };
                match variant {
                    Some(variant) => self.value(&variant.ty, &Constraints::default(), name, depth),
                    None => json!({}),
                }
            }
            TypeKind::Object(o) => {
                let mut map = Map::new();
                for field in &o.fields {
                    if let Some(value) = self.field(field, depth, def.usage) {
                        map.insert(field.wire.clone(), value);
                    }
                }
                if let Some(extra) = &o.additional
                    && depth < MAX_DEPTH
                {
                    map.insert("extraKey".into(), self.value(extra, &Constraints::default(), "extra", depth + 1));
                }
                // Past the depth limit an object of optional fields would be `{}`, which a
                // document's `minProperties` refuses (mailscript's `Criteria`): its first
                // scalar field stays, which cannot recurse.
                if map.is_empty()
                    && let Some(field) = o.fields.iter().find(|f| f.constant.is_none() && self.is_scalar(&f.ty))
                {
                    map.insert(field.wire.clone(), self.value(&field.ty, &field.constraints, &field.wire, depth + 1));
                }
                Value::Object(map)
            }
        }
    }

    /// The sample of an untagged union (OpenAPI's `oneOf` without discriminator): the first
    /// variant's whose sample is valid as no other variant, as the document's JSON Schema reads
    /// it, so that it satisfies exactly one; the first variant's when none is (variants whose
    /// objects are open and whose required fields overlap may accept every value of another).
    /// Each variant is sampled only when the ones before failed.
    fn one_of(&self, union: &super::Union, name: &str, depth: usize) -> Value {
        let mut first = None;
        for (index, variant) in union.variants.iter().enumerate() {
            let sample = self.value(&variant.ty, &Constraints::default(), name, depth);
            let others = union.variants.iter().enumerate().filter(|(other, _)| *other != index);
            if others.clone().all(|(_, other)| !self.valid_as(&sample, &other.ty, depth)) {
                return sample;
            }
            first.get_or_insert(sample);
        }
        first.unwrap_or_else(|| json!({}))
    }

    /// Whether `value` is valid as `ty`, as a document's JSON Schema reads the type: a value of
    /// the kind, an object holding every required field (an open object takes any other), each
    /// declared field's value valid as its type, an enumeration's listed value (an open one,
    /// any). Past the depth limit anything is.
    fn valid_as(&self, value: &Value, ty: &TypeRef, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return true;
        }
        match (ty, value) {
            (TypeRef::Json, _) => true,
            (TypeRef::String | TypeRef::Url | TypeRef::DateTime, Value::String(_)) => true,
            (TypeRef::Integer, Value::Number(n)) => n.is_i64() || n.is_u64(),
            (TypeRef::Number, Value::Number(_)) | (TypeRef::Boolean, Value::Bool(_)) => true,
            (TypeRef::List(inner), Value::Array(items)) => items.iter().all(|i| self.valid_as(i, inner, depth + 1)),
            (TypeRef::Map(inner), Value::Object(map)) => map.values().all(|v| self.valid_as(v, inner, depth + 1)),
            (TypeRef::Named(name), value) => match &self.api.ty(name).kind {
                TypeKind::Enum(e) => {
                    let kind = if e.integer { value.is_number() } else { value.is_string() };
                    kind && (e.open || e.values.iter().any(|v| v.wire == text_of(value)))
                }
                TypeKind::Union(u) => u.open || u.variants.iter().any(|v| self.valid_as(value, &v.ty, depth + 1)),
                TypeKind::Object(o) => {
                    let Value::Object(map) = value else { return false };
                    let fields_valid = o.fields.iter().all(|f| match map.get(&f.wire) {
                        None => f.optional || f.default.is_some(),
                        Some(Value::Null) => f.nullable,
                        Some(v) => {
                            let constant = f.constant.as_ref().is_none_or(|c| v.as_str() == Some(c.as_str()));
                            constant && self.valid_as(v, &f.ty, depth + 1)
                        }
                    });
                    let open = o.ignores_unknown || o.additional.is_some();
                    fields_valid && (open || map.keys().all(|k| o.field(k).is_some()))
                }
            },
            _ => false,
        }
    }

    /// A type whose sample holds no other type: a scalar, a URL, a date-time or an
    /// enumeration.
    fn is_scalar(&self, ty: &TypeRef) -> bool {
        match ty {
            TypeRef::String
            | TypeRef::Integer
            | TypeRef::Number
            | TypeRef::Boolean
            | TypeRef::DateTime
            | TypeRef::Url => true,
            TypeRef::Named(name) => matches!(self.api.ty(name).kind, TypeKind::Enum(_)),
            _ => false,
        }
    }

    fn field(&self, field: &Field, depth: usize, usage: super::Usage) -> Option<Value> {
        if let Some(constant) = &field.constant {
            return Some(Value::String(constant.clone()));
        }
        if depth >= MAX_DEPTH && field.optional {
            return None;
        }
        if let Some(sample) = &field.sample {
            return Some(sample.clone());
        }
        if let Some(default) = &field.default {
            return Some(default.clone());
        }
        if field.optional && field.ty == TypeRef::Json {
            // A made-up value of any JSON may fit none of the shapes the document gives it (an
            // import types `json` what the format cannot check: a union whose variants overlap,
            // where `{"key": "value"}` is valid as several and `oneOf` refuses it), as a made-up
            // item of a `list<json>` may: left out, the value is valid whatever they are.
            return None;
        }
        if field.presence(usage) == Presence::Nullable && depth >= MAX_DEPTH {
            return Some(Value::Null);
        }
        Some(self.value(&field.ty, &field.constraints, &field.wire, depth + 1))
    }

    fn value(&self, ty: &TypeRef, c: &Constraints, hint: &str, depth: usize) -> Value {
        match ty {
            TypeRef::String
            | TypeRef::Url
            | TypeRef::DateTime
            | TypeRef::Integer
            | TypeRef::Number
            | TypeRef::Boolean => of_scalar(ty, c, hint).unwrap_or(Value::Null),
            TypeRef::Json => json!({ "key": "value" }),
            // Raw bytes travel outside JSON; a file of a multipart body is sampled as its
            // text (the runtime's `FilePart` reads a string leniently).
            TypeRef::Bytes => json!(null),
            TypeRef::File => json!("sample file"),
            TypeRef::Named(name) => self.named(name, depth),
            TypeRef::List(inner) => {
                let count = match (c.exact_items, c.min_items, c.max_items) {
                    (Some(exact), _, _) => exact,
                    // Items of any JSON: a made-up item may fit none of the shapes the document
                    // gives them (`anyOf` of objects with required fields); no item fits all.
                    _ if depth >= MAX_DEPTH || **inner == TypeRef::Json => c.min_items.unwrap_or(0),
                    (None, min, max) => min.unwrap_or(1).max(1).min(max.unwrap_or(u64::MAX)),
                }
                .min(MAX_ITEMS); // lowering asks for a sample above this
                if count == 0 {
                    return Value::Array(Vec::new()); // no item to build (it may recurse)
                }
                let item = self.value(inner, c.item.as_deref().unwrap_or(&Constraints::default()), hint, depth + 1);
                Value::Array((0..count).map(|_| item.clone()).collect())
            }
            TypeRef::Map(inner) => {
                let mut map = Map::new();
                // Values of any JSON: none, as for a list of them; past the depth limit, a
                // scalar value still (it cannot recurse, and `minProperties` may need one).
                // A map that may not be empty (`min_items`) is filled at any depth, as a list
                // is: lowering refuses a type that could only be filled forever.
                let needed = c.min_items.unwrap_or(0) > 0;
                if needed || ((depth < MAX_DEPTH || self.is_scalar(inner)) && **inner != TypeRef::Json) {
                    let value =
                        self.value(inner, c.item.as_deref().unwrap_or(&Constraints::default()), hint, depth + 1);
                    // As many entries as `min_items` asks (`key`, `key2`, ...), else one.
                    let count = c.min_items.unwrap_or(1).max(1).min(c.max_items.unwrap_or(u64::MAX)).min(MAX_ITEMS);
                    for n in 1..=count {
                        let key = if n == 1 { "key".to_owned() } else { format!("key{n}") };
                        map.insert(key, value.clone());
                    }
                }
                Value::Object(map)
            }
        }
    }
}

/// A sample of a scalar type fitting `c`: a string its pattern, format or lengths allow (from
/// `hint`, a field name), a number in range; `None` for other types.
pub fn of_scalar(ty: &TypeRef, c: &Constraints, hint: &str) -> Option<Value> {
    Some(match ty {
        TypeRef::String => Value::String(
            fit_pattern(c).or_else(|| c.format.map(|f| f.sample().to_owned())).unwrap_or_else(|| fit_length(hint, c)),
        ),
        TypeRef::Url => Value::String(format!("https://example.com/{hint}")),
        TypeRef::DateTime => Value::String("2024-01-15T09:30:00Z".into()),
        TypeRef::Integer => {
            let low = c.minimum.as_ref().and_then(Number::as_i64).unwrap_or(1);
            let high = c.maximum.as_ref().and_then(Number::as_i64).unwrap_or(i64::MAX);
            json!(low.max(1).min(high))
        }
        TypeRef::Number => {
            let low = c.minimum.as_ref().and_then(Number::as_f64).unwrap_or(1.5);
            let high = c.maximum.as_ref().and_then(Number::as_f64).unwrap_or(f64::MAX);
            json!(low.max(1.5).min(high))
        }
        TypeRef::Boolean => Value::Bool(true),
        _ => return None,
    })
}

/// A string matching the pattern of `c` within its lengths, when it has a pattern and one can
/// be invented ([`super::pattern`]).
pub fn fit_pattern(c: &Constraints) -> Option<String> {
    let pattern = c.pattern.as_deref()?;
    let min = c.min_length.unwrap_or(0).min(MAX_LENGTH) as usize;
    let max = c.max_length.unwrap_or(MAX_LENGTH).min(MAX_LENGTH) as usize;
    super::pattern::sample(pattern, min, max)
}

/// `hint` (a field name) stretched or cut to fit the length constraints.
fn fit_length(hint: &str, c: &Constraints) -> String {
    let mut text: String = if hint.is_empty() { "sample".into() } else { hint.to_owned() };
    let min = c.min_length.unwrap_or(0).min(MAX_LENGTH) as usize;
    let missing = min.saturating_sub(text.chars().count());
    text.extend(std::iter::repeat_n('x', missing));
    if let Some(max) = c.max_length {
        text = text.chars().take(max as usize).collect();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_fit_their_lengths() {
        let c = Constraints { min_length: Some(8), max_length: Some(10), ..Constraints::default() };
        assert_eq!(fit_length("id", &c), "idxxxxxx");
        let c = Constraints { max_length: Some(3), ..Constraints::default() };
        assert_eq!(fit_length("title", &c), "tit");
    }
}
