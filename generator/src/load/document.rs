//! Reading a foreign document (an OpenAPI description, JSON or YAML) into a JSON value, for
//! `apigen import`. YAML goes through serde_yaml here, like every other YAML apigen reads.
//!
//! The document is untrusted: its size is capped before it is read, flow nesting is refused
//! before the YAML parser sees it (the parser is quadratic in that depth), and both parsers
//! stop at a fixed nesting depth, so no input can exhaust memory or the stack.

use serde_json::{Map, Value};
use std::path::Path;

/// Why a document could not be read, with the line and column where that is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentError {
    /// What is wrong.
    pub message: String,
    /// 1-based line.
    pub line: Option<usize>,
    /// 1-based column.
    pub column: Option<usize>,
}

impl DocumentError {
    fn new(message: impl Into<String>) -> Self {
        DocumentError { message: message.into(), line: None, column: None }
    }

    fn at(message: impl Into<String>, line: usize, column: usize) -> Self {
        DocumentError { message: message.into(), line: Some(line), column: Some(column) }
    }
}

/// Reads the document at `path`: a regular file (or a link to one) of at most
/// [`crate::input::MAX_FILE_BYTES`], holding UTF-8 JSON or YAML.
pub fn read_document(path: &Path) -> Result<Value, DocumentError> {
    let text = read_capped(path)?;
    parse_document(&text)
}

/// The document's text through the one input reader (a regular file, capped, UTF-8).
fn read_capped(path: &Path) -> Result<String, DocumentError> {
    crate::input::read_text(path).map_err(|error| match error {
        crate::input::ReadError::NotUtf8 { line, column, .. } => {
            DocumentError::at("the document is not UTF-8", line, column)
        }
        other => DocumentError::new(other.to_string()),
    })
}

/// Parses a document's text: JSON when it starts with `{` (after white space), YAML otherwise.
pub fn parse_document(text: &str) -> Result<Value, DocumentError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim_start().starts_with('{') {
        return serde_json::from_str(text).map_err(|e| {
            let message = e.to_string();
            let message = message.find(" at line ").map_or(message.clone(), |at| message[..at].to_owned());
            DocumentError::at(format!("JSON syntax error: {message}"), e.line(), e.column())
        });
    }
    if let Some((line, column)) = super::too_deep_flow(text) {
        return Err(DocumentError::at(
            format!("flow collections (`[...]`, `{{...}}`) nest more than {} levels deep", super::MAX_FLOW_NESTING),
            line,
            column,
        ));
    }
    let yaml: serde_yaml::Value = super::budget::from_str(text).map_err(|e| {
        let message = super::strip_position(&e.to_string());
        let message =
            if message.contains(super::budget::EXPANDS) { message } else { format!("YAML syntax error: {message}") };
        match e.location() {
            Some(at) => DocumentError::at(message, at.line(), at.column()),
            None => DocumentError::new(message),
        }
    })?;
    Ok(to_json(yaml))
}

/// A YAML value as JSON: keys that are numbers or booleans (`200:` under `responses`) become
/// their text, tags are dropped, and a key that is itself a collection is refused as text.
fn to_json(value: serde_yaml::Value) -> Value {
    use serde_yaml::Value as Y;
    match value {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(b),
        Y::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::from(i)
            } else if let Some(u) = n.as_u64() {
                Value::from(u)
            } else {
                n.as_f64().and_then(serde_json::Number::from_f64).map_or(Value::Null, Value::Number)
            }
        }
        Y::String(s) => Value::String(s),
        Y::Sequence(items) => Value::Array(items.into_iter().map(to_json).collect()),
        Y::Mapping(mapping) => {
            let mut map = Map::new();
            for (key, value) in mapping {
                map.insert(key_text(&key), to_json(value));
            }
            Value::Object(map)
        }
        Y::Tagged(tagged) => to_json(tagged.value),
    }
}

fn key_text(key: &serde_yaml::Value) -> String {
    use serde_yaml::Value as Y;
    match key {
        Y::String(s) => s.clone(),
        Y::Bool(b) => b.to_string(),
        Y::Number(n) => n.to_string(),
        Y::Null => "null".to_owned(),
        Y::Tagged(tagged) => key_text(&tagged.value),
        Y::Sequence(_) | Y::Mapping(_) => "<collection>".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_keys_that_are_numbers_become_text() {
        let doc = parse_document("responses:\n  200: { description: ok }\n  true: x\n").unwrap();
        assert_eq!(doc, serde_json::json!({"responses": {"200": {"description": "ok"}, "true": "x"}}));
    }

    #[test]
    fn errors_are_located() {
        let error = parse_document("{\n  \"a\": [1,\n}").unwrap_err();
        assert_eq!((error.line, error.column), (Some(3), Some(1)));
        assert!(error.message.starts_with("JSON syntax error"), "{}", error.message);
        let error = parse_document("a: b\n c: d: e\n").unwrap_err();
        assert_eq!(error.line, Some(2));
        let deep = format!("a: {}{}", "[".repeat(100), "]".repeat(100));
        assert_eq!(parse_document(&deep).unwrap_err().line, Some(1));
    }

    #[test]
    fn deep_json_is_refused_not_overflowed() {
        let deep = format!("{{\"a\": {}{}}}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(parse_document(&deep).unwrap_err().message.contains("recursion limit"));
    }
}
