//! Form bodies of nested objects and lists (`application/x-www-form-urlencoded` holding more
//! than scalars), in brackets, as Stripe's API and clients and Rails / PHP / `qs` write them:
//!
//! | value | pairs |
//! |---|---|
//! | `{"name": "x"}` | `name=x` |
//! | `{"tags": ["a", "b"]}` (a list of scalars, at the top) | `tags=a&tags=b`, or with `indexed` (`style: deepObject`) `tags[0]=a&tags[1]=b` |
//! | `{"metadata": {"k": "v"}}` | `metadata[k]=v` |
//! | `{"items": [{"price": "p", "n": 2}]}` | `items[0][price]=p&items[0][n]=2` |
//! | `{"a": {"ids": [1, 2]}}` (a list below the top) | `a[ids][0]=1&a[ids][1]=2` |
//! | `{"metadata": {}}`, `{"tags": []}` | `metadata=`, `tags=` |
//!
//! The client writes ([`to_pairs`]) exactly the column on the right. The server reads
//! ([`from_pairs`]) every way a list is written by the clients in use, into one tree that
//! [`crate::json::decode_form`] decodes like a JSON body: repeated keys (`tags=a&tags=b`),
//! empty brackets (`tags[]=a&tags[]=b`) and indexes (`tags[0]=a&tags[1]=b`, which give the
//! order only: `tags[3]=a&tags[7]=b` is `[a, b]`). An empty value is an empty list or object
//! where one is expected (Stripe's way to clear `metadata`), so a list cannot hold a single
//! empty string. Scalars are text and are parsed by the type the field has.
//!
//! A key is a name followed by bracketed segments (`a[b][0]`); a segment ends at the first
//! `]`, so a map key holding `]` cannot be written (the client refuses it). A key that does not
//! have this shape (`a]b`, `a[b`, `a[b]c`) is a name as it stands. Brackets sent
//! percent-encoded (`a%5Bb%5D`) are the same key: the pairs are decoded first.

use crate::validate::Violation;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The deepest a key may nest (segments after its name): a deeper key is refused rather than
/// read into a tree that decoding would walk recursively.
pub const MAX_DEPTH: usize = 32;

/// The most objects and lists a form's keys may make in all (each costs hundreds of bytes
/// for the three of `[x]`): a form of 900 distinct keys 32 deep made 28,800 and cost 12 MiB
/// for 0.13 MiB. Past it the form is refused whole, before any more is built.
pub const MAX_NESTED: usize = 1024;

/// The pairs of a form body for a JSON object (the body as the client serialized it): each
/// scalar a pair, nested values in brackets (see the module's table); `null` is left out (a
/// form has no null); with `indexed`, a top-level list of scalars too has indexes
/// (`expand[0]=a`, `style: deepObject`). Fails on a map key holding `]` and on a value that is
/// not an object.
pub fn to_pairs(value: &Value, indexed: bool) -> Result<Vec<(String, String)>, String> {
    write_top(value, indexed, true)
}

/// The pairs of a query parameter's value under its name, or of an exploded object's fields
/// (see [`to_pairs`]), except that an empty object or list is left out: OpenAPI writes it as
/// nothing, and the server reads an empty value as an empty string.
pub fn to_query_pairs(value: &Value) -> Result<Vec<(String, String)>, String> {
    write_top(value, false, false)
}

fn write_top(value: &Value, indexed: bool, empty_containers: bool) -> Result<Vec<(String, String)>, String> {
    let Value::Object(fields) = value else {
        return Err("a form body is an object".to_owned());
    };
    let mut pairs = Vec::new();
    for (name, value) in fields {
        match value {
            // The top level's lists of scalars are repeated keys, as a form of scalars sends them.
            Value::Array(items) if !indexed && !items.is_empty() && items.iter().all(is_scalar) => {
                for item in items {
                    write(name.clone(), item, &mut pairs, empty_containers)?;
                }
            }
            value => write(name.clone(), value, &mut pairs, empty_containers)?,
        }
    }
    Ok(pairs)
}

fn is_scalar(value: &Value) -> bool {
    !matches!(value, Value::Array(_) | Value::Object(_))
}

/// Writes `value` under the key `key` (an empty list or object as `key=` when
/// `empty_containers`, else not at all).
fn write(key: String, value: &Value, pairs: &mut Vec<(String, String)>, empty_containers: bool) -> Result<(), String> {
    match value {
        Value::Null => {}
        Value::Bool(b) => pairs.push((key, b.to_string())),
        Value::Number(n) => pairs.push((key, n.to_string())),
        Value::String(s) => pairs.push((key, s.clone())),
        Value::Array(items) if items.is_empty() => {
            if empty_containers {
                pairs.push((key, String::new()));
            }
        }
        Value::Object(fields) if fields.is_empty() => {
            if empty_containers {
                pairs.push((key, String::new()));
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                write(format!("{key}[{index}]"), item, pairs, empty_containers)?;
            }
        }
        Value::Object(fields) => {
            for (name, item) in fields {
                if name.contains(']') {
                    return Err(format!("the key {name:?} of `{key}` holds `]`, which a form key cannot carry"));
                }
                write(format!("{key}[{name}]"), item, pairs, empty_containers)?;
            }
        }
    }
    Ok(())
}

/// The tree of a form's pairs (decoded already: `+` a space, `%XX` a byte), for
/// [`crate::json::decode_form`], and the keys that could not be placed in it (a name given
/// both as a value and with brackets, a key nested too deeply), each named by its key.
pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (Cow<'a, str>, Cow<'a, str>)>) -> (Value, Vec<Violation>) {
    tree_of_pairs(pairs, false)
}

/// [`from_pairs`] reading each key's first bracket as a property even when empty:
/// `sort_by[]=a` is `{"sort_by": {"": "a"}}`, as OpenAPI's `deepObject` names a property in
/// the first bracket (schemathesis sends the key `""` of a free-form object that way).
pub fn from_pairs_keyed<'a>(pairs: impl IntoIterator<Item = (Cow<'a, str>, Cow<'a, str>)>) -> (Value, Vec<Violation>) {
    tree_of_pairs(pairs, true)
}

fn tree_of_pairs<'a>(
    pairs: impl IntoIterator<Item = (Cow<'a, str>, Cow<'a, str>)>,
    keyed_first: bool,
) -> (Value, Vec<Violation>) {
    let mut root = Map::new();
    let mut problems = Vec::new();
    let mut nested = MAX_NESTED;
    for (key, value) in pairs {
        let (name, segments) = split_key(&key);
        let (first, segments) = match segments.split_first() {
            Some((first, rest)) if keyed_first => (Some(*first), rest),
            _ => (None, segments.as_slice()),
        };
        match place(&mut root, name, first, segments, value.into_owned(), &mut nested) {
            Ok(()) => {}
            Err(Misplaced::Key(message)) => problems.push(Violation::new(key.into_owned(), message)),
            Err(Misplaced::TooNested) => {
                let message = format!("the form's keys make more than {MAX_NESTED} objects and lists");
                return (Value::Object(Map::new()), vec![Violation::new("", message)]);
            }
        }
    }
    (Value::Object(root), problems)
}

/// Why a key could not be placed.
enum Misplaced {
    /// This key cannot be placed (the message says why).
    Key(String),
    /// The keys so far made [`MAX_NESTED`] objects and lists already.
    TooNested,
}

impl From<&str> for Misplaced {
    fn from(message: &str) -> Self {
        Misplaced::Key(message.to_owned())
    }
}

/// A key's name and bracketed segments (`a[b][]` is `a`, `["b", ""]`); a key not of that
/// shape is a name alone.
fn split_key(key: &str) -> (&str, Vec<&str>) {
    let Some(open) = key.find('[').filter(|&open| open > 0) else { return (key, Vec::new()) };
    let mut segments = Vec::new();
    let mut rest = &key[open..];
    while let Some(inner) = rest.strip_prefix('[') {
        let Some(close) = inner.find(']') else { return (key, Vec::new()) };
        segments.push(&inner[..close]);
        rest = &inner[close + 1..];
    }
    if rest.is_empty() { (&key[..open], segments) } else { (key, Vec::new()) }
}

/// Puts `value` at `name` and then `segments` in `root`. A last empty segment (`a[]`) adds to
/// a list as a repeated key does; an empty one before the last is refused (which element it
/// means is not said).
/// `first`, when given, is a property of the object at `name` even when empty
/// ([`from_pairs_keyed`]). `nested` is what is left of [`MAX_NESTED`].
fn place(
    root: &mut Map<String, Value>,
    name: &str,
    first: Option<&str>,
    segments: &[&str],
    value: String,
    nested: &mut usize,
) -> Result<(), Misplaced> {
    if segments.len() + usize::from(first.is_some()) > MAX_DEPTH {
        return Err(Misplaced::Key(format!("nests deeper than {MAX_DEPTH} levels")));
    }
    let segments = match segments.split_last() {
        Some((&"", before)) => before,
        _ => segments,
    };
    if segments.contains(&"") {
        return Err("`[]` may only end a key".into());
    }
    let mut node = root.entry(name.to_owned()).or_insert(Value::Null);
    for segment in first.iter().chain(segments) {
        // An empty value is an empty object (`a[b]=`), which later keys may fill
        // (`a[b]=&a[b][c]=1` is `{"b": {"c": "1"}}`).
        if node.is_null() || node.as_str() == Some("") {
            *nested = nested.checked_sub(1).ok_or(Misplaced::TooNested)?;
            *node = Value::Object(Map::new());
        }
        let Value::Object(map) = node else {
            return Err("is given both as a value and as an object".into());
        };
        node = map.entry((*segment).to_owned()).or_insert(Value::Null);
    }
    match node {
        Value::Null => *node = Value::String(value),
        Value::String(first) => {
            *nested = nested.checked_sub(1).ok_or(Misplaced::TooNested)?;
            let first = std::mem::take(first);
            *node = Value::Array(vec![Value::String(first), Value::String(value)]);
        }
        Value::Array(items) => items.push(Value::String(value)),
        _ => return Err("is given both as an object and as a value".into()),
    }
    Ok(())
}

/// Whether every key of `map` is an index (`0`, `17`): the object is a list written with
/// indexes.
pub(crate) fn indexed(map: &Map<String, Value>) -> bool {
    !map.is_empty() && map.keys().all(|key| key.parse::<u64>().is_ok())
}

/// The values of an object of indexes as a list, in the order of the indexes.
pub(crate) fn by_index(map: Map<String, Value>) -> Value {
    let mut items: Vec<(u64, Value)> =
        map.into_iter().map(|(key, value)| (key.parse::<u64>().unwrap_or(u64::MAX), value)).collect();
    items.sort_by_key(|(index, _)| *index);
    Value::Array(items.into_iter().map(|(_, value)| value).collect())
}

/// The key of a form field for the JSON pointer of a value in the body (`/items/0/price` is
/// `items[0][price]`), so that a form's violations name what the client sent; the whole body
/// (`""`) stays `""`.
pub fn key_of_pointer(pointer: &str) -> String {
    let mut steps = pointer.split('/').skip(1).map(|step| step.replace("~1", "/").replace("~0", "~"));
    let Some(first) = steps.next() else { return pointer.to_owned() };
    let mut key = first;
    for step in steps {
        key.push('[');
        key.push_str(&step);
        key.push(']');
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pairs(value: Value) -> String {
        let pairs = to_pairs(&value, false).unwrap();
        pairs.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&")
    }

    fn tree(body: &str) -> (Value, Vec<String>) {
        let (value, problems) = from_pairs(form_urlencoded::parse(body.as_bytes()));
        (value, problems.into_iter().map(|v| format!("{}: {}", v.path, v.message)).collect())
    }

    #[test]
    fn values_are_written_as_the_table_says() {
        let cases = [
            (json!({"name": "x", "n": 2, "ok": true, "gone": null}), "name=x&n=2&ok=true"),
            (json!({"tags": ["a", "b"]}), "tags=a&tags=b"),
            (json!({"metadata": {"k": "v", "a[b": "c"}}), "metadata[k]=v&metadata[a[b]=c"),
            (
                json!({"items": [{"price": "p", "n": 2}, {"price": "q"}]}),
                "items[0][price]=p&items[0][n]=2&items[1][price]=q",
            ),
            (json!({"a": {"ids": [1, 2], "deep": [[1], []]}}), "a[ids][0]=1&a[ids][1]=2&a[deep][0][0]=1&a[deep][1]="),
            (json!({"metadata": {}, "tags": [], "mixed": [1, {"x": 1}]}), "metadata=&tags=&mixed[0]=1&mixed[1][x]=1"),
        ];
        for (value, expected) in cases {
            assert_eq!(pairs(value.clone()), expected, "{value}");
        }
        assert_eq!(
            to_pairs(&json!({"m": {"a]b": 1}}), false).unwrap_err(),
            "the key \"a]b\" of `m` holds `]`, which a form key cannot carry"
        );
        assert!(to_pairs(&json!([1]), false).is_err());
        let indexed = to_pairs(&json!({"expand": ["a", "b"], "n": 1}), true).unwrap();
        assert_eq!(
            indexed,
            [("expand[0]".into(), "a".into()), ("expand[1]".into(), "b".into()), ("n".into(), "1".into())]
        );
    }

    #[test]
    fn every_way_clients_write_lists_reads_as_one_tree() {
        let cases = [
            ("tags=a&tags=b", json!({"tags": ["a", "b"]})),
            ("tags[]=a&tags[]=b", json!({"tags": ["a", "b"]})),
            ("tags%5B%5D=a&tags%5B%5D=b", json!({"tags": ["a", "b"]})),
            ("tags[0]=a&tags[1]=b", json!({"tags": {"0": "a", "1": "b"}})),
            (
                "items[0][price]=p&items[0][n]=2&items[1][price]=q",
                json!({"items": {"0": {"price": "p", "n": "2"}, "1": {"price": "q"}}}),
            ),
            ("metadata%5Bk%5D=v+w&metadata%5Bk2%5D=", json!({"metadata": {"k": "v w", "k2": ""}})),
            ("a]b=1&a[b=2&a[b]c=3&[x]=4", json!({"a]b": "1", "a[b": "2", "a[b]c": "3", "[x]": "4"})),
            ("m[a[b]=1", json!({"m": {"a[b": "1"}})),
            // An empty object, then its fields.
            ("a[b]=&a[b][c]=1", json!({"a": {"b": {"c": "1"}}})),
        ];
        for (body, expected) in cases {
            assert_eq!(tree(body), (expected, Vec::new()), "{body}");
        }
    }

    #[test]
    fn keys_that_cannot_be_placed_are_named() {
        let deep = format!("a{}=1", "[x]".repeat(MAX_DEPTH + 1));
        let cases = [
            ("a=1&a[b]=2", vec!["a[b]: is given both as a value and as an object"]),
            ("a[b]=2&a=1", vec!["a: is given both as an object and as a value"]),
            ("a[][b]=1", vec!["a[][b]: `[]` may only end a key"]),
            (deep.as_str(), vec![]),
        ];
        for (body, expected) in cases {
            let (_, problems) = tree(body);
            if body == deep {
                assert_eq!(problems.len(), 1);
                assert!(problems[0].ends_with("nests deeper than 32 levels"), "{problems:?}");
                continue;
            }
            assert_eq!(problems, expected, "{body}");
        }
    }

    #[test]
    fn lists_of_indexes_keep_the_order_of_their_indexes() {
        let map = json!({"10": "c", "2": "b", "0": "a"});
        let Value::Object(map) = map else { unreachable!() };
        assert!(indexed(&map));
        assert_eq!(by_index(map), json!(["a", "b", "c"]));
        let Value::Object(named) = json!({"0": 1, "x": 2}) else { unreachable!() };
        assert!(!indexed(&named));
        assert!(!indexed(&Map::new()));
    }

    #[test]
    fn pointers_become_keys() {
        for (pointer, key) in
            [("", ""), ("/name", "name"), ("/items/0/price", "items[0][price]"), ("/m/a~1b/~0", "m[a/b][~]")]
        {
            assert_eq!(key_of_pointer(pointer), key);
        }
    }
}
