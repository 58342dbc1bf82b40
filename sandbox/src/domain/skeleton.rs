//! The smallest valid document of an API type, read from the schemas of
//! `generated/openapi.json`: every required field filled from its example, constant, first
//! enum value or the zero of its type. A new resource starts as this skeleton and the
//! handler overlays what the request and the documents' rules give (id, title, timestamps,
//! state…), so every field the documents leave to the service still answers schema-valid.

use serde_json::{Map, Value};
use std::sync::OnceLock;

fn schemas() -> &'static Map<String, Value> {
    static SCHEMAS: OnceLock<Map<String, Value>> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        let document: Value = serde_json::from_str(include_str!("../../../generated/openapi.json")).unwrap_or_default();
        document.pointer("/components/schemas").and_then(Value::as_object).cloned().unwrap_or_default()
    })
}

/// The skeleton of the schema named `name` (an object with its required fields).
pub fn of(name: &str) -> Value {
    value(&Value::Object(Map::from_iter([("$ref".to_owned(), format!("#/components/schemas/{name}").into())])), 0)
}

/// Whether the schema named `name` declares `field`.
pub fn has_field(name: &str, field: &str) -> bool {
    schemas().get(name).and_then(|s| s.get("properties")).and_then(|p| p.get(field)).is_some()
}

fn value(schema: &Value, depth: usize) -> Value {
    if depth > 12 {
        return Value::Null;
    }
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let name = reference.rsplit('/').next().unwrap_or_default();
        return schemas().get(name).map_or(Value::Null, |s| value(s, depth + 1));
    }
    if let Some(constant) = schema.get("const") {
        return constant.clone();
    }
    if let Some(example) = schema.get("examples").and_then(|e| e.get(0)) {
        return example.clone();
    }
    if let Some(first) = schema.get("enum").and_then(|e| e.get(0)) {
        return first.clone();
    }
    for union in ["oneOf", "anyOf"] {
        if let Some(first) = schema.get(union).and_then(|e| e.get(0)) {
            return value(first, depth + 1);
        }
    }
    let kind = match schema.get("type") {
        Some(Value::Array(types)) => types.iter().find(|t| *t != "null").and_then(Value::as_str).unwrap_or("null"),
        Some(Value::String(kind)) => kind.as_str(),
        _ => "object",
    };
    match kind {
        "object" => {
            let mut object = Map::new();
            let properties = schema.get("properties").and_then(Value::as_object);
            for name in schema.get("required").and_then(Value::as_array).into_iter().flatten() {
                let Some(name) = name.as_str() else { continue };
                let field = properties.and_then(|p| p.get(name)).cloned().unwrap_or_default();
                object.insert(name.to_owned(), value(&field, depth + 1));
            }
            Value::Object(object)
        }
        "array" => Value::Array(Vec::new()),
        "string" => {
            let length = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0).max(1);
            Value::String("x".repeat(length as usize))
        }
        "integer" | "number" => schema.get("minimum").cloned().unwrap_or(Value::from(0)),
        "boolean" => Value::Bool(false),
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_skeleton_decodes_as_its_type() {
        let space: docs_api_types::Space = crate::store::decode("space", super::of("Space")).unwrap();
        assert_eq!(space.title, "API reference");
        let request: docs_api_types::ChangeRequest =
            crate::store::decode("change-request", super::of("ChangeRequest")).unwrap();
        assert!(!request.id.is_empty());
    }
}
