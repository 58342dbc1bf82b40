//! A spec file's parsed YAML tree as bytes, so that `generate` does not parse again a file it
//! parsed on an earlier run (issue 52: YAML was about a fifth of an edit's CPU on GitHub's
//! API). The tree is what [`super::load`] decodes into raw structures, so every entry is still
//! decoded and checked, every unknown key still reported, and every diagnostic still located
//! in the file's text (read and hashed on every run anyway): only the YAML parser is skipped.
//!
//! The encoding is this build's own (a tag byte per node, lengths as LEB128): read back only
//! by the same build, under the cache's seal, keyed by the file's text ([`key`]). Reading is
//! bounded all the same: a length past the end, a node deeper than [`MAX_DEPTH`], a byte that
//! is no tag, text that is not UTF-8 or bytes left over each make the whole tree unreadable,
//! and the file is parsed as YAML instead.

use serde_yaml::value::{Tag, TaggedValue};
use serde_yaml::{Mapping, Number, Value};

/// What a tree store keeps between runs: trees by key. `generate` hands one to
/// [`super::load_with`]; the store vouches for nothing ([`decode`] checks every byte).
pub trait Trees: Sync {
    /// The bytes stored under `key`, if any.
    fn get(&self, key: &str) -> Option<Vec<u8>>;
    /// Stores `bytes` under `key` (a store that cannot write forgets it).
    fn put(&self, key: &str, bytes: &[u8]);
}

/// No store: every file is parsed.
pub struct NoTrees;

impl Trees for NoTrees {
    fn get(&self, _: &str) -> Option<Vec<u8>> {
        None
    }
    fn put(&self, _: &str, _: &[u8]) {}
}

/// The key of the tree of a file's `text` (line endings normalized): its hash with this build
/// of apigen's, so another build (whose parser or budget may differ) parses again.
pub fn key(text: &str) -> String {
    crate::hash::parts(&[env!("APIGEN_SOURCE_HASH"), "yaml tree", text])
}

/// Deeper than this, a tree is refused on reading: the YAML parser refuses deeper nesting
/// first (flow nesting is capped at [`super::MAX_FLOW_NESTING`], block nesting by the
/// parser's own recursion limit of 128), so no tree written holds one.
pub const MAX_DEPTH: usize = 256;

const NULL: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
const UNSIGNED: u8 = 3;
const SIGNED: u8 = 4;
const FLOAT: u8 = 5;
const STRING: u8 = 6;
const SEQUENCE: u8 = 7;
const MAPPING: u8 = 8;
const TAGGED: u8 = 9;

/// The bytes of `value`.
pub fn encode(value: &Value) -> Vec<u8> {
    let mut out = Vec::with_capacity(4096);
    write_value(&mut out, value);
    out
}

fn write_value(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Null => out.push(NULL),
        Value::Bool(b) => out.push(if *b { TRUE } else { FALSE }),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => {
            out.push(STRING);
            write_str(out, s);
        }
        Value::Sequence(items) => {
            out.push(SEQUENCE);
            write_len(out, items.len());
            items.iter().for_each(|item| write_value(out, item));
        }
        Value::Mapping(mapping) => {
            out.push(MAPPING);
            write_len(out, mapping.len());
            for (key, value) in mapping {
                write_value(out, key);
                write_value(out, value);
            }
        }
        Value::Tagged(tagged) => {
            out.push(TAGGED);
            // The tag's text as it prints (`!name`): tags compare and deserialize alike with
            // or without the `!`.
            write_str(out, &tagged.tag.to_string());
            write_value(out, &tagged.value);
        }
    }
}

/// A number as YAML gave it: unsigned, signed or floating (the three are distinct values).
fn write_number(out: &mut Vec<u8>, n: &Number) {
    if let Some(u) = n.as_u64().filter(|_| n.is_u64()) {
        out.push(UNSIGNED);
        out.extend_from_slice(&u.to_le_bytes());
    } else if let Some(i) = n.as_i64().filter(|_| n.is_i64()) {
        out.push(SIGNED);
        out.extend_from_slice(&i.to_le_bytes());
    } else {
        out.push(FLOAT);
        out.extend_from_slice(&n.as_f64().unwrap_or(f64::NAN).to_bits().to_le_bytes());
    }
}

fn write_str(out: &mut Vec<u8>, s: &str) {
    write_len(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

/// A length, seven bits a byte (LEB128).
fn write_len(out: &mut Vec<u8>, mut len: usize) {
    while len >= 0x80 {
        out.push((len as u8 & 0x7f) | 0x80);
        len >>= 7;
    }
    out.push(len as u8);
}

/// The tree `bytes` hold, or `None` when they are not exactly one tree as [`encode`] writes it.
pub fn decode(bytes: &[u8]) -> Option<Value> {
    let mut reader = Reader { bytes, at: 0 };
    let value = reader.value(0)?;
    (reader.at == bytes.len()).then_some(value)
}

/// Reads a tree, every step checked against the bytes left.
struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Option<u8> {
        let byte = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(byte)
    }

    fn take(&mut self, len: usize) -> Option<&[u8]> {
        let end = self.at.checked_add(len)?;
        let taken = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(taken)
    }

    fn word(&mut self) -> Option<[u8; 8]> {
        self.take(8)?.try_into().ok()
    }

    /// A length, which must not exceed the bytes left (each element takes at least one).
    fn len(&mut self) -> Option<usize> {
        let mut len = 0usize;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            len |= usize::from(byte & 0x7f).checked_shl(shift)?;
            if byte & 0x80 == 0 {
                return (len <= self.bytes.len() - self.at).then_some(len);
            }
        }
        None
    }

    fn string(&mut self) -> Option<String> {
        let len = self.len()?;
        std::str::from_utf8(self.take(len)?).ok().map(str::to_owned)
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        Some(match self.byte()? {
            NULL => Value::Null,
            FALSE => Value::Bool(false),
            TRUE => Value::Bool(true),
            UNSIGNED => Value::Number(u64::from_le_bytes(self.word()?).into()),
            SIGNED => Value::Number(i64::from_le_bytes(self.word()?).into()),
            FLOAT => Value::Number(f64::from_bits(u64::from_le_bytes(self.word()?)).into()),
            STRING => Value::String(self.string()?),
            SEQUENCE => {
                let len = self.len()?;
                let mut items = Vec::with_capacity(len);
                for _ in 0..len {
                    items.push(self.value(depth + 1)?);
                }
                Value::Sequence(items)
            }
            MAPPING => {
                let len = self.len()?;
                let mut mapping = Mapping::with_capacity(len);
                for _ in 0..len {
                    let key = self.value(depth + 1)?;
                    let value = self.value(depth + 1)?;
                    mapping.insert(key, value);
                }
                Value::Mapping(mapping)
            }
            TAGGED => {
                let tag = self.string().filter(|tag| !tag.is_empty())?;
                Value::Tagged(Box::new(TaggedValue { tag: Tag::new(tag), value: self.value(depth + 1)? }))
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Value {
        super::super::budget::from_str(text).unwrap()
    }

    #[test]
    fn a_tree_reads_back_as_parsed() {
        let text = "a: [1, -2, 3.5, true, false, null, ~, text, 18446744073709551615, -9223372036854775808]\n\
                    b: !tagged { c: d }\n? [x]\n: y\nanchor: &a { e: f }\nalias: *a\n\"\": ''\nlong: |\n  \
                    ünïcode\n  text\n1: 2.0\nnan: .nan\ninf: -.inf\n";
        let value = parsed(text);
        let bytes = encode(&value);
        let back = decode(&bytes).unwrap();
        assert_eq!(back, value);
        // Equal as values is not enough where a number's kind shows: the same debug text.
        assert_eq!(format!("{back:?}"), format!("{value:?}"));
        assert_eq!(encode(&back), bytes, "encoding is deterministic");
        let long: String = (0..300).map(|i| format!("k{i}: {}\n", "v".repeat(i))).collect();
        assert_eq!(decode(&encode(&parsed(&long))).unwrap(), parsed(&long));
    }

    #[test]
    fn bytes_that_are_not_one_tree_read_as_none() {
        let bytes = encode(&parsed("a: [1, two, { c: d }]\nb: text\n"));
        for end in 0..bytes.len() {
            assert_eq!(decode(&bytes[..end]), None, "cut at {end}");
        }
        let mut longer = bytes.clone();
        longer.push(NULL);
        assert_eq!(decode(&longer), None, "bytes left over");
        for at in 0..bytes.len() {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0xff;
            // Any answer but a panic; most flips are refused.
            let _ = decode(&flipped);
        }
        assert_eq!(decode(&[STRING, 2, 0xff, 0xfe]), None, "not UTF-8");
        assert_eq!(decode(&[SEQUENCE, 0xff, 0xff, 0xff, 0xff, 0x0f]), None, "a length past the end");
        assert_eq!(decode(&[42]), None, "no such tag");
        let deep: Vec<u8> = std::iter::repeat_n([SEQUENCE, 1], MAX_DEPTH + 2).flatten().chain([NULL]).collect();
        assert_eq!(decode(&deep), None, "deeper than any tree written");
    }
}
