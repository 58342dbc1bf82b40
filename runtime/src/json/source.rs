//! Where a [`FromJson`](super::FromJson) reads a value from: a parsed tree, or the text of
//! one JSON value already checked ([`check_strict`]), read straight from the bytes.
//!
//! A request body is read from its text, in two passes over its bytes and no tree:
//!
//! 1. [`check_strict`] reads the whole body once without building anything: its syntax,
//!    numbers in range, and every key given twice (by its pointer), exactly as a parse into a
//!    [`Value`] would refuse them, so a body is refused for the same reasons, with the same
//!    messages, as when it was parsed into a tree first.
//! 2. Decoding reads each object as the list of its keys with the text of each value (slices
//!    of the body, nothing copied but keys with escapes), each array item by item, and parses
//!    a scalar where its type reads it. A value nobody reads (an unknown field, dropped or
//!    refused) is never looked into again.
//!
//! Decision: a generated object reads its fields in the order its spec lists them (one struct
//! literal of reader calls, see [`super::Object`]), not in the order they arrive, so an
//! object's entries are listed before its fields are read. A generated visitor per type
//! (a `match` on each key into an `Option` slot) would read each byte once instead of once
//! per level of nesting, at the price of a second copy of every object's reading code, which
//! is what a big API's types crate pays for in compile time (round 2 measured it). Shapes
//! that need look-ahead (unions) read their node as a tree and reuse the tree's code.

use serde::de::{DeserializeSeed, Deserializer as _, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::cell::RefCell;

/// The value a [`FromJson`](super::FromJson) reads.
#[derive(Debug, Clone)]
pub enum Source<'j> {
    /// A parsed value (a response, a parameter, a form's tree).
    Tree(Value),
    /// The text of one value of a request body that [`check_strict`] accepted.
    Text(Checked<'j>),
}

/// The text of one JSON value, known to be valid and to give no key twice: only
/// [`check_strict`] makes one, and the values inside one.
#[derive(Debug, Clone, Copy)]
pub struct Checked<'j>(&'j str);

impl Checked<'_> {
    /// The JSON text.
    pub fn as_str(&self) -> &str {
        self.0
    }

    fn first(&self) -> u8 {
        self.0.as_bytes().first().copied().unwrap_or(b'n')
    }
}

impl From<Value> for Source<'_> {
    fn from(value: Value) -> Self {
        Source::Tree(value)
    }
}

impl<'j> From<Checked<'j>> for Source<'j> {
    fn from(text: Checked<'j>) -> Self {
        Source::Text(text)
    }
}

impl<'j> Source<'j> {
    /// The value as a tree: the text's node is parsed now (a union choosing its variant
    /// reads its node whole).
    pub fn into_value(self) -> Value {
        match self {
            Source::Tree(value) => value,
            // Checked already: parsing cannot fail.
            Source::Text(text) => serde_json::from_str(text.0).unwrap_or_default(),
        }
    }

    /// The value where a scalar is wanted: a scalar as it is, an array or object of the text
    /// as an empty one (only its kind is read: the reader refuses it).
    pub(crate) fn scalar(self) -> Value {
        match self {
            Source::Text(text) if text.first() == b'[' => Value::Array(Vec::new()),
            Source::Text(text) if text.first() == b'{' => Value::Object(serde_json::Map::new()),
            other => other.into_value(),
        }
    }

    /// True for `null`.
    pub fn is_null(&self) -> bool {
        match self {
            Source::Tree(value) => value.is_null(),
            Source::Text(text) => text.0 == "null",
        }
    }

    /// The entries of an object of the text, in order; `None` when it is not an object.
    pub(crate) fn text_entries(text: Checked<'j>) -> Option<Vec<(Cow<'j, str>, Checked<'j>)>> {
        if text.first() != b'{' {
            return None;
        }
        let mut entries = Vec::new();
        let mut deserializer = serde_json::Deserializer::from_str(text.0);
        deserializer.deserialize_map(Entries(&mut entries)).ok()?;
        Some(entries)
    }
}

/// Reads an object's entries into the list.
struct Entries<'a, 'j>(&'a mut Vec<(Cow<'j, str>, Checked<'j>)>);

impl<'j> Visitor<'j> for Entries<'_, 'j> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'j>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key_seed(Key)? {
            let value: &'j RawValue = map.next_value()?;
            self.0.push((key, Checked(value.get())));
        }
        Ok(())
    }
}

/// Reads every item of an array of the text with `each` (which keeps it, and says whether it
/// decoded), each at its index, as [`super::read_items`] does a tree's. `None` when the text
/// is not an array.
pub(crate) fn read_text_items<'j>(
    text: Checked<'j>,
    d: &mut super::Decoder,
    each: &mut dyn FnMut(Source<'j>, &mut super::Decoder) -> bool,
) -> Option<bool> {
    if text.first() != b'[' {
        return None;
    }
    let mut deserializer = serde_json::Deserializer::from_str(text.0);
    deserializer.deserialize_seq(Items { d, each }).ok()
}

struct Items<'a, 'j> {
    d: &'a mut super::Decoder,
    each: &'a mut dyn FnMut(Source<'j>, &mut super::Decoder) -> bool,
}

impl<'j> Visitor<'j> for Items<'_, 'j> {
    type Value = bool;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'j>>(self, mut seq: A) -> Result<bool, A::Error> {
        let mut ok = true;
        let mut index = 0;
        while let Some(item) = seq.next_element::<&'j RawValue>()? {
            self.d.enter_index(index);
            ok &= (self.each)(Source::Text(Checked(item.get())), self.d);
            self.d.leave();
            index += 1;
        }
        Ok(ok)
    }
}

/// An object's key, borrowed from the text unless it holds escapes.
struct Key;

impl<'j> DeserializeSeed<'j> for Key {
    type Value = Cow<'j, str>;

    fn deserialize<D: serde::Deserializer<'j>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'j> Visitor<'j> for Key {
    type Value = Cow<'j, str>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E>(self, v: &'j str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v))
    }
}

/// Why a request body could not be read by [`super::parse_strict`] or [`check_strict`].
#[derive(Debug)]
pub enum StrictParseError {
    /// Not JSON.
    Syntax(serde_json::Error),
    /// An object gives a key twice: the JSON pointer of each repeated key (RFC 8259 leaves
    /// the meaning open; parsers disagree on which value wins, so a request may not rely on
    /// one).
    DuplicateKeys(Vec<String>),
}

/// Checks a request body without building it, refusing what [`super::parse_strict`] refuses
/// (not JSON, numbers out of range, objects that give a key twice), and gives its text to be
/// decoded straight from it (`decode_capped(text, ..)`).
pub fn check_strict(bytes: &[u8]) -> Result<Checked<'_>, StrictParseError> {
    let duplicates = RefCell::new(Vec::new());
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    Skipped { at: &Place::Root, duplicates: &duplicates }
        .deserialize(&mut deserializer)
        .and_then(|()| deserializer.end())
        .map_err(StrictParseError::Syntax)?;
    let duplicates = duplicates.into_inner();
    if !duplicates.is_empty() {
        return Err(StrictParseError::DuplicateKeys(duplicates));
    }
    // JSON outside strings is ASCII, and its strings were read as UTF-8.
    let text = std::str::from_utf8(bytes).map_err(|_| StrictParseError::Syntax(not_utf8()))?;
    Ok(Checked(text.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'))))
}

#[cold]
fn not_utf8() -> serde_json::Error {
    serde::de::Error::custom("the body is not UTF-8")
}

/// A place in the document being parsed, as the chain of steps from its root.
pub(super) enum Place<'a> {
    Root,
    Key(&'a Place<'a>, &'a str),
    Index(&'a Place<'a>, usize),
}

impl Place<'_> {
    /// The JSON pointer of this place (RFC 6901).
    pub(super) fn pointer(&self) -> String {
        match self {
            Place::Root => String::new(),
            Place::Key(parent, key) => format!("{}/{}", parent.pointer(), key.replace('~', "~0").replace('/', "~1")),
            Place::Index(parent, index) => format!("{}/{index}", parent.pointer()),
        }
    }
}

/// Reads a value without building it, recording the pointer of every repeated key, in the
/// order a parse into a tree finds them (a key's after its value's). An object's keys are
/// remembered by a 64-bit hash (8 bytes a key, with a random seed), only while the object is
/// read.
struct Skipped<'a> {
    at: &'a Place<'a>,
    duplicates: &'a RefCell<Vec<String>>,
}

impl<'de> DeserializeSeed<'de> for Skipped<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Skipped<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0;
        loop {
            let at = Place::Index(self.at, index);
            if seq.next_element_seed(Skipped { at: &at, duplicates: self.duplicates })?.is_none() {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        use std::hash::BuildHasher;
        let seed = std::collections::hash_map::RandomState::new();
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key_seed(Key)? {
            let at = Place::Key(self.at, &key);
            map.next_value_seed(Skipped { at: &at, duplicates: self.duplicates })?;
            if !seen.insert(seed.hash_one(&*key)) {
                self.duplicates.borrow_mut().push(at.pointer());
            }
        }
        Ok(())
    }
}
