//! The keys the spec format accepts at a place of a spec file, read from the format's own JSON
//! Schema ([`super::SCHEMA`], which `generator/tests/schema.rs` keeps in step with the raw
//! structs): what an unknown key's "did you mean" is chosen from.

use crate::diag::Segment;
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// The format's schema, parsed once.
fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| serde_json::from_str(super::SCHEMA).unwrap_or(Value::Null))
}

/// The keys a mapping at `path` (from a file's root) may hold, by every alternative the
/// schema gives for that place; empty when the place is not known to the schema.
pub(super) fn known_at(path: &[Segment]) -> BTreeSet<String> {
    let root = schema();
    let mut places = alternatives(root, root);
    for segment in path {
        places = places.into_iter().flat_map(|node| step(root, node, segment)).collect();
    }
    places.iter().filter_map(|node| node.get("properties")?.as_object()).flat_map(|p| p.keys().cloned()).collect()
}

/// The schemas a value at `node` may follow: `$ref`s resolved, `oneOf`, `anyOf` and `allOf`
/// flattened (depth-bounded: the schema is ours, but a loop must not hang a lint).
fn alternatives<'a>(root: &'a Value, node: &'a Value) -> Vec<&'a Value> {
    let mut out = Vec::new();
    let mut pending = vec![(node, 0)];
    while let Some((node, depth)) = pending.pop() {
        if depth > 16 {
            continue;
        }
        if let Some(target) = node.get("$ref").and_then(Value::as_str).and_then(|r| root.pointer(r.strip_prefix('#')?))
        {
            pending.push((target, depth + 1));
            continue;
        }
        let mut combined = false;
        for key in ["oneOf", "anyOf", "allOf"] {
            for part in node.get(key).and_then(Value::as_array).into_iter().flatten() {
                pending.push((part, depth + 1));
                combined = true;
            }
        }
        if !combined || node.get("properties").is_some() {
            out.push(node);
        }
    }
    out
}

/// The schemas of what `segment` leads to from a value following `node`.
fn step<'a>(root: &'a Value, node: &'a Value, segment: &Segment) -> Vec<&'a Value> {
    let next = match segment {
        Segment::Key(key) => node
            .get("properties")
            .and_then(|p| p.get(key))
            .or_else(|| node.get("additionalProperties").filter(|a| a.is_object())),
        Segment::Index(_) => node.get("items"),
    };
    next.map(|next| alternatives(root, next)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(path: &[&str]) -> BTreeSet<String> {
        let path: Vec<Segment> = path
            .iter()
            .map(|s| s.parse().map(Segment::Index).unwrap_or_else(|_| Segment::Key((*s).to_owned())))
            .collect();
        known_at(&path)
    }

    #[test]
    fn keys_are_read_from_the_schema_at_every_depth() {
        assert!(keys(&[]).contains("operations") && keys(&[]).contains("types"));
        let field = keys(&["types", "Thing", "fields", "title"]);
        assert!(field.contains("max_length") && field.contains("description"), "{field:?}");
        let operation = keys(&["operations", "getThing"]);
        assert!(operation.contains("summary") && operation.contains("response"), "{operation:?}");
        // A parameter written as a mapping, inside the list of an operation's parameters.
        assert!(keys(&["operations", "getThing", "params", "0"]).contains("in"));
        assert!(keys(&["nowhere", "at", "all"]).is_empty());
    }
}
