//! Internal references (`#/components/schemas/Pet`): JSON pointers into the document, followed
//! a bounded number of hops so a reference loop cannot hang the import.

use serde_json::Value;

/// How many references a chain may follow before it is taken for a loop.
pub const MAX_HOPS: usize = 32;

/// Why a reference leads nowhere usable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefProblem {
    /// To another document (`other.yaml#/Pet`): imports read one document.
    External,
    /// To nothing in this document, or a chain longer than [`MAX_HOPS`].
    Broken,
}

/// The value a JSON pointer reference (`#/a/b~1c`) names in `doc`.
pub fn lookup<'a>(doc: &'a Value, reference: &str) -> Result<&'a Value, RefProblem> {
    let Some(pointer) = reference.strip_prefix('#') else {
        return Err(RefProblem::External);
    };
    if pointer.is_empty() {
        return Ok(doc);
    }
    let Some(pointer) = pointer.strip_prefix('/') else {
        return Err(RefProblem::Broken);
    };
    let mut at = doc;
    for token in pointer.split('/') {
        let token = percent_decode(token).replace("~1", "/").replace("~0", "~");
        at = match at {
            Value::Object(map) => map.get(&token).ok_or(RefProblem::Broken)?,
            Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)).ok_or(RefProblem::Broken)?,
            _ => return Err(RefProblem::Broken),
        };
    }
    Ok(at)
}

/// Follows `$ref` from `value` until a value without one: the value and its pointer (the
/// last reference followed, or `pointer` when there was none).
pub fn follow<'a>(doc: &'a Value, value: &'a Value, pointer: &str) -> Result<(&'a Value, String), RefProblem> {
    let mut at = value;
    let mut where_ = pointer.to_owned();
    for _ in 0..MAX_HOPS {
        match at.get("$ref").and_then(Value::as_str) {
            Some(reference) => {
                at = lookup(doc, reference)?;
                where_ = reference.to_owned();
            }
            None => return Ok((at, where_)),
        }
    }
    Err(RefProblem::Broken)
}

/// The JSON pointer of `key` below `pointer`.
pub fn child(pointer: &str, key: &str) -> String {
    format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"))
}

fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `value` with its references followed, `None` when one leads nowhere.
pub fn lookup_value<'a>(doc: &'a Value, value: &'a Value) -> Option<&'a Value> {
    follow(doc, value, "").ok().map(|(found, _)| found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointers_and_loops() {
        let doc = json!({
            "components": {"schemas": {"a/b": {"type": "string"}, "Loop": {"$ref": "#/components/schemas/Loop"}}},
            "paths": {"/pets/{id}": {"get": {}}}
        });
        assert_eq!(lookup(&doc, "#/components/schemas/a~1b"), Ok(&json!({"type": "string"})));
        assert_eq!(lookup(&doc, "#/paths/~1pets~1%7Bid%7D/get"), Ok(&json!({})));
        assert_eq!(lookup(&doc, "#/nothing"), Err(RefProblem::Broken));
        assert_eq!(lookup(&doc, "other.json#/x"), Err(RefProblem::External));
        let looping = json!({"$ref": "#/components/schemas/Loop"});
        assert_eq!(follow(&doc, &looping, "#").unwrap_err(), RefProblem::Broken);
        assert_eq!(child("#/paths", "/pets/{id}"), "#/paths/~1pets~1{id}");
    }
}
