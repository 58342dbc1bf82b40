//! `allOf` merged into one mapping: free functions over the document, the walk's guards
//! ([`Walk`]) and the gaps. Properties and required lists add up, other keys of later parts
//! win; a property two parts give is combined. Also whether components include each other
//! ([`composes_back`]), which makes a composition merged rather than written as `includes`.

use super::gaps::{BROKEN_REF, Gaps, TOO_DEEP};
use super::guards::Walk;
use super::refs;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

/// `map` merged with its allOf parts (references followed), gaps noted at `pointer` (see
/// [`merge_into`]).
pub(super) fn merged(
    doc: &Value,
    walk: &mut Walk,
    gaps: &mut Gaps,
    map: &Map<String, Value>,
    pointer: &str,
) -> Map<String, Value> {
    let mut merged = Map::new();
    merge_into(doc, walk, gaps, &mut merged, map, pointer, 0);
    merged
}

/// Merges a schema and its allOf parts (references followed) into one mapping: properties
/// and required lists add up, other keys of later parts win. A referenced part is merged
/// once and remembered; a part naming a schema being merged (a cycle) is left out, with a
/// gap.
fn merge_into(
    doc: &Value,
    walk: &mut Walk,
    gaps: &mut Gaps,
    merged: &mut Map<String, Value>,
    map: &Map<String, Value>,
    pointer: &str,
    depth: usize,
) {
    if depth > refs::MAX_HOPS {
        return;
    }
    if let Some(parts) = map.get("allOf").and_then(Value::as_array) {
        for part in parts {
            let Ok((target, target_pointer)) = refs::follow(doc, part, pointer) else {
                gaps.note(BROKEN_REF, pointer);
                continue;
            };
            let Value::Object(target) = target else { continue };
            if part.get("$ref").is_none() {
                merge_into(doc, walk, gaps, merged, target, pointer, depth + 1);
                continue;
            }
            if walk.merge_path.contains(&target_pointer) {
                gaps.note(TOO_DEEP, pointer);
                continue;
            }
            let whole = match walk.merged_refs.get(&target_pointer) {
                Some(whole) => whole.clone(),
                None => {
                    let mut whole = Map::new();
                    walk.merge_path.push(target_pointer.clone());
                    merge_into(doc, walk, gaps, &mut whole, target, pointer, depth + 1);
                    walk.merge_path.pop();
                    walk.merged_refs.insert(target_pointer, whole.clone());
                    whole
                }
            };
            merge_keys(merged, &whole);
        }
    }
    merge_keys(merged, map);
}

/// Adds the keys of `map` (but `allOf`) to `merged`: properties and required lists add up,
/// other keys win.
fn merge_keys(merged: &mut Map<String, Value>, map: &Map<String, Value>) {
    for (key, value) in map {
        match key.as_str() {
            "allOf" => {}
            "properties" => {
                let target = merged.entry("properties").or_insert_with(|| json!({}));
                if let (Value::Object(target), Value::Object(props)) = (target, value) {
                    for (k, v) in props {
                        let combined = target.get(k).and_then(|earlier| combine_property(earlier, v));
                        target.insert(k.clone(), combined.unwrap_or_else(|| v.clone()));
                    }
                }
            }
            "required" => {
                let target = merged.entry("required").or_insert_with(|| json!([]));
                if let (Value::Array(target), Value::Array(required)) = (target, value) {
                    for name in required {
                        if !target.contains(name) {
                            target.push(name.clone());
                        }
                    }
                }
            }
            _ => {
                merged.insert(key.clone(), value.clone());
            }
        }
    }
}

/// A property two parts of an `allOf` both give, as one schema: JSON Schema applies both, so
/// the later part's keys are added to the earlier's (sendgrid's `from_email`: `format: email`
/// in the shared part, a `pattern` in the operation's). `None` (the later part wins, as
/// before) when either is a reference or they give different types.
fn combine_property(earlier: &Value, later: &Value) -> Option<Value> {
    let (Value::Object(earlier), Value::Object(later)) = (earlier, later) else { return None };
    if earlier.contains_key("$ref") || later.contains_key("$ref") {
        return None;
    }
    if let (Some(a), Some(b)) = (earlier.get("type"), later.get("type"))
        && a != b
    {
        return None;
    }
    let mut combined = earlier.clone();
    for (key, value) in later {
        combined.insert(key.clone(), value.clone());
    }
    Some(Value::Object(combined))
}

/// True when the component `key`, through the allOf references of the components it
/// names, comes back to the schema at `pointer`.
pub(super) fn composes_back(doc: &Value, key: &str, pointer: &str) -> bool {
    let schemas = &doc["components"]["schemas"];
    let mut seen = BTreeSet::new();
    let mut pending = vec![key.to_owned()];
    while let Some(key) = pending.pop() {
        if refs::child("#/components/schemas", &key) == pointer {
            return true;
        }
        if !seen.insert(key.clone()) {
            continue;
        }
        let parts = schemas.get(&key).and_then(|s| s.get("allOf")).and_then(Value::as_array);
        for part in parts.into_iter().flatten() {
            let reference = part.get("$ref").and_then(Value::as_str);
            if let Some(next) = reference.and_then(|r| r.strip_prefix("#/components/schemas/")) {
                pending.push(next.replace("~1", "/").replace("~0", "~"));
            }
        }
    }
    false
}
