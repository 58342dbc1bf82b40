//! The YAML an import writes, by hand so it reads like the hand-written spec: short mappings of
//! scalars in flow style (`{ type: string, description: Id. }`), everything else in blocks,
//! multi-line text as literal blocks. Every scalar YAML could misread (`yes`, `1.0`, `a: b`,
//! `#`) is quoted. The bytes depend only on the value, so importing twice gives the same files.
//!
//! The spec loader counts `[` and `{` anywhere in a file to refuse deep flow nesting before
//! parsing, so text is written such that it never adds to that count: quoted text whose
//! brackets do not balance escapes them (`\x5B`), and a `#` after a space is escaped.

use serde_json::{Map, Value};

/// The widest line a flow mapping may make.
const FLOW_WIDTH: usize = 110;

/// A file: the top-level mapping, one section after another, separated by blank lines.
pub fn file(sections: &Map<String, Value>) -> String {
    let mut out = String::new();
    for (i, (key, value)) in sections.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        entry(&mut out, 0, key, value);
    }
    out
}

/// The longest key written as `key: value`: YAML reads an implicit key of at most 1024
/// characters (its quotes included); a longer one is written explicitly, `? key` then
/// `: value`.
const MAX_IMPLICIT_KEY: usize = 1000;

/// `key: value` at `indent`, the value in the style it fits.
fn entry(out: &mut String, indent: usize, key: &str, value: &Value) {
    let text = scalar_text(key);
    if text.chars().count() > MAX_IMPLICIT_KEY {
        let pad = " ".repeat(indent);
        let mut implicit = String::new();
        entry(&mut implicit, indent, "k", value);
        let rest = implicit.strip_prefix(&format!("{pad}k:")).unwrap_or(&implicit);
        out.push_str(&format!("{pad}? {text}\n{pad}:{rest}"));
        return;
    }
    let pad = " ".repeat(indent);
    let key = text;
    match value {
        Value::Object(map) if map.is_empty() => out.push_str(&format!("{pad}{key}: {{}}\n")),
        Value::Array(items) if items.is_empty() => out.push_str(&format!("{pad}{key}: []\n")),
        Value::Object(map) => match flow(value) {
            Some(text) if indent + key.len() + 2 + text.len() <= FLOW_WIDTH && map.len() <= 8 => {
                out.push_str(&format!("{pad}{key}: {text}\n"));
            }
            _ => {
                out.push_str(&format!("{pad}{key}:\n"));
                for (k, v) in map {
                    entry(out, indent + 2, k, v);
                }
            }
        },
        Value::Array(items) => match flow(value) {
            Some(text) if indent + key.len() + 2 + text.len() <= FLOW_WIDTH => {
                out.push_str(&format!("{pad}{key}: {text}\n"));
            }
            _ => {
                out.push_str(&format!("{pad}{key}:\n"));
                for item in items {
                    list_item(out, indent + 2, item);
                }
            }
        },
        Value::String(text) if literal_fits(text) => {
            out.push_str(&format!("{pad}{key}: {}\n", literal_header(text)));
            literal_body(out, indent + 2, text);
        }
        scalar => out.push_str(&format!("{pad}{key}: {}\n", scalar_value(scalar))),
    }
}

/// `- item` at `indent`.
fn list_item(out: &mut String, indent: usize, item: &Value) {
    let pad = " ".repeat(indent);
    match item {
        Value::Object(map) if !map.is_empty() => match flow(item) {
            Some(text) if indent + 2 + text.len() <= FLOW_WIDTH && map.len() <= 8 => {
                out.push_str(&format!("{pad}- {text}\n"));
            }
            _ => {
                // The first key shares the dash's line; the others align under it.
                let mut inner = String::new();
                for (k, v) in map {
                    entry(&mut inner, indent + 2, k, v);
                }
                out.push_str(&format!("{pad}- {}", &inner[indent + 2..]));
            }
        },
        Value::Array(items) if !items.is_empty() => {
            out.push_str(&format!("{pad}-\n"));
            for inner in items {
                list_item(out, indent + 2, inner);
            }
        }
        other => match flow(other) {
            Some(text) => out.push_str(&format!("{pad}- {text}\n")),
            None => out.push_str(&format!("{pad}- {}\n", scalar_value(other))),
        },
    }
}

/// The flow form of a value made of scalars (a mapping or list of scalars, at most one level),
/// or `None` when it holds collections or multi-line text.
fn flow(value: &Value) -> Option<String> {
    match value {
        Value::Object(map) => {
            let mut parts = Vec::new();
            for (k, v) in map {
                let key = scalar_text(k);
                if key.chars().count() > MAX_IMPLICIT_KEY {
                    return None;
                }
                parts.push(format!("{key}: {}", flow_scalar(v)?));
            }
            Some(format!("{{ {} }}", parts.join(", ")))
        }
        Value::Array(items) => {
            let parts: Option<Vec<String>> = items.iter().map(flow_scalar).collect();
            Some(format!("[{}]", parts?.join(", ")))
        }
        other => flow_scalar(other),
    }
}

fn flow_scalar(value: &Value) -> Option<String> {
    match value {
        Value::Object(map) if map.is_empty() => Some("{}".to_owned()),
        Value::Array(items) if items.is_empty() => Some("[]".to_owned()),
        Value::Array(items) if items.iter().all(|i| !i.is_object() && !i.is_array()) => flow(value),
        Value::Object(_) | Value::Array(_) => None,
        Value::String(text) if text.contains('\n') => None,
        other => Some(scalar_value(other)),
    }
}

fn scalar_value(value: &Value) -> String {
    match value {
        Value::Null => "~".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => scalar_text(s),
        // Collections never reach here (`entry` and `list_item` handle them).
        other => quoted(&other.to_string()),
    }
}

/// Words YAML 1.1 or 1.2 reads as booleans or null.
const SPECIAL_WORDS: &[&str] = &["y", "yes", "n", "no", "true", "false", "on", "off", "null", "~"];

/// A string as a plain scalar when YAML reads it back as that same string in block and flow
/// context alike, else quoted.
pub fn scalar_text(text: &str) -> String {
    if is_plain(text) { text.to_owned() } else { quoted(text) }
}

fn is_plain(text: &str) -> bool {
    let Some(first) = text.chars().next() else { return false };
    let allowed = |c: char| c.is_ascii_alphanumeric() || " _-./()'`+=?!;@$%^&*~<>|".contains(c);
    (first.is_ascii_alphabetic() || first == '_' || first == '/')
        && text.chars().all(allowed)
        && !text.ends_with(' ')
        && !text.contains("  ")
        && !SPECIAL_WORDS.contains(&text.to_ascii_lowercase().as_str())
}

/// A double-quoted scalar: JSON-like escapes, and escapes for what the loader's flow-depth
/// count would misread.
fn quoted(text: &str) -> String {
    let escape_brackets = !balanced(text);
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    let mut previous = ' ';
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '#' if previous == ' ' || previous == '\t' => out.push_str("\\x23"),
            '[' | ']' | '{' | '}' if escape_brackets => out.push_str(&format!("\\x{:02X}", c as u32)),
            c if !printable(c) => {
                let code = c as u32;
                if code <= 0xFF {
                    out.push_str(&format!("\\x{code:02X}"));
                } else if code <= 0xFFFF {
                    out.push_str(&format!("\\u{code:04X}"));
                } else {
                    out.push_str(&format!("\\U{code:08X}"));
                }
            }
            c => out.push(c),
        }
        previous = c;
    }
    out.push('"');
    out
}

/// YAML's printable characters, less the line breaks YAML 1.1 knows beyond `\n` and `\r`.
fn printable(c: char) -> bool {
    matches!(c as u32, 0x20..=0x7E | 0xA0..=0x2027 | 0x202A..=0xD7FF | 0xE000..=0xFEFE | 0xFF00..=0xFFFD | 0x10000..=0x10FFFF)
}

/// True when the brackets of `text` close in order, so it adds nothing to a running count.
fn balanced(text: &str) -> bool {
    let mut depth = 0i64;
    for c in text.chars() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

/// Multi-line text that a literal block keeps exactly: printable, no `#` (the loader's count
/// stops at a comment), balanced brackets, a first line not starting with a space, and no
/// line made only of spaces.
fn literal_fits(text: &str) -> bool {
    text.contains('\n')
        && !text.trim_end_matches('\n').is_empty()
        && !text.starts_with([' ', '\n'])
        && text.chars().all(|c| c == '\n' || (printable(c) && c != '\t'))
        && !text.contains('#')
        && !text.contains('\r')
        && balanced(text)
        && text.lines().all(|line| line.is_empty() || !line.trim().is_empty())
        && !text.lines().any(|line| line.ends_with(' '))
}

/// `|-`, `|` or `|+` as the text ends with no, one or more line breaks.
fn literal_header(text: &str) -> &'static str {
    let trailing = text.len() - text.trim_end_matches('\n').len();
    match trailing {
        0 => "|-",
        1 => "|",
        _ => "|+",
    }
}

fn literal_body(out: &mut String, indent: usize, text: &str) {
    let pad = " ".repeat(indent);
    let body = text.trim_end_matches('\n');
    for line in body.split('\n') {
        if line.is_empty() {
            out.push('\n');
        } else {
            out.push_str(&pad);
            out.push_str(line);
            out.push('\n');
        }
    }
    let trailing = text.len() - body.len();
    for _ in 1..trailing {
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn keys_past_yamls_limit_are_written_explicitly_and_read_back() {
        let long = "k".repeat(1500);
        let value =
            serde_json::json!({ "fields": { long.clone(): { "type": "string" }, "short": { "type": "string" } } });
        let text = file(value.as_object().unwrap());
        assert!(text.contains(&format!("  ? {long}\n  : {{ type: string }}\n")), "{text}");
        assert_eq!(crate::load::document::parse_document(&text).unwrap(), value);
    }

    use super::*;
    use serde_json::json;

    #[test]
    fn scalars_yaml_would_misread_are_quoted() {
        assert_eq!(scalar_text("string"), "string");
        assert_eq!(scalar_text("list<Pet>"), "list<Pet>");
        assert_eq!(scalar_text("yes"), "\"yes\"");
        assert_eq!(scalar_text("1.0"), "\"1.0\"");
        assert_eq!(scalar_text("a: b"), "\"a: b\"");
        assert_eq!(scalar_text(""), "\"\"");
        assert_eq!(scalar_text("x # y"), "\"x \\x23 y\"");
        assert_eq!(scalar_text("[0, 1)"), "\"\\x5B0, 1)\"");
        assert_eq!(scalar_text("tab\there"), "\"tab\\there\"");
        assert_eq!(scalar_text("line\u{2028}sep"), "\"line\\u2028sep\"");
    }

    #[test]
    fn short_mappings_flow_and_long_ones_are_blocks() {
        let value = json!({
            "types": {
                "Pet": {
                    "description": "A pet.\nIt has a name.\n",
                    "fields": { "name": { "type": "string", "description": "Name: what it is called." } }
                }
            }
        });
        let text = file(value.as_object().unwrap());
        assert_eq!(
            text,
            "types:\n  Pet:\n    description: |\n      A pet.\n      It has a name.\n    fields:\n      name: { type: string, description: \"Name: what it is called.\" }\n"
        );
    }

    #[test]
    fn list_items_of_mappings() {
        let long = "x".repeat(120);
        let value = json!({ "params": ["limit", { "name": "q", "in": "query", "description": long }] });
        let text = file(value.as_object().unwrap());
        assert_eq!(text, format!("params:\n  - limit\n  - name: q\n    in: query\n    description: {long}\n"));
    }
}
