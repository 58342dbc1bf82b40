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

    /// True for an object (`{...}`).
    pub fn is_object(&self) -> bool {
        match self {
            Source::Tree(value) => value.is_object(),
            Source::Text(text) => text.first() == b'{',
        }
    }

    /// True for `null`.
    pub fn is_null(&self) -> bool {
        match self {
            Source::Tree(value) => value.is_null(),
            Source::Text(text) => text.0 == "null",
        }
    }

    /// The entries of an object of the text, in order; `None` when it is not an object (or,
    /// past 4 GiB, too long to list by 32-bit offsets: the caller reads it as a tree).
    pub(crate) fn text_entries(text: Checked<'j>) -> Option<TextEntries<'j>> {
        if text.first() != b'{' || u32::try_from(text.0.len()).is_err() {
            return None;
        }
        let mut entries = TextEntries { text, list: Vec::new(), escaped: Vec::new() };
        let mut deserializer = serde_json::Deserializer::from_str(text.0);
        deserializer.deserialize_map(EntriesVisitor(&mut entries)).ok()?;
        Some(entries)
    }
}

/// The keys of one object of a checked text with the text of each value, in the order they
/// came, as offsets into the object's text: 16 bytes an entry, whatever the key (a key with
/// escapes is unescaped into a list of its own). An object of a million tiny keys is read
/// with a list of 16 MB, where slices and `Cow` keys took 40 (issue 50: memory per request at
/// most about 4× its size).
#[derive(Debug, Clone, Default)]
pub(crate) struct TextEntries<'j> {
    text: Checked<'j>,
    list: Vec<Entry>,
    escaped: Vec<Box<str>>,
}

/// One entry: its key's and value's places in the object's text. A key with escapes has
/// `key == ESCAPED` and `key_len` the index of its unescaped text in `escaped`.
#[derive(Debug, Clone, Copy)]
struct Entry {
    key: u32,
    key_len: u32,
    value: u32,
    value_len: u32,
}

const ESCAPED: u32 = u32::MAX;

impl Default for Checked<'_> {
    fn default() -> Self {
        Checked("{}")
    }
}

impl<'j> TextEntries<'j> {
    /// How many entries are left.
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    /// The key of the entry at `index`.
    pub(crate) fn key(&self, index: usize) -> &str {
        let entry = self.list[index];
        if entry.key == ESCAPED {
            return &self.escaped[entry.key_len as usize];
        }
        &self.text.0[entry.key as usize..(entry.key + entry.key_len) as usize]
    }

    /// The value of the entry at `index`.
    pub(crate) fn value(&self, index: usize) -> Checked<'j> {
        let entry = self.list[index];
        Checked(&self.text.0[entry.value as usize..(entry.value + entry.value_len) as usize])
    }

    /// The index of the entry of `key`.
    pub(crate) fn position(&self, key: &str) -> Option<usize> {
        (0..self.len()).find(|&index| self.key(index) == key)
    }

    /// Takes the entry at `index` out, the last taking its place (as the tree's map does).
    pub(crate) fn swap_remove(&mut self, index: usize) -> Checked<'j> {
        let value = self.value(index);
        self.list.swap_remove(index);
        value
    }

    /// The keys left, in order.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).map(|index| self.key(index))
    }

    /// Every entry, the key owned.
    pub(crate) fn into_entries(self) -> impl Iterator<Item = (String, Checked<'j>)> {
        (0..self.len()).map(move |index| (self.key(index).to_owned(), self.value(index)))
    }

    /// The offset of `part`, a slice of the object's text.
    fn offset_of(&self, part: &str) -> u32 {
        // `part` is borrowed from `text`, no longer than 4 GiB (checked when listing).
        (part.as_ptr() as usize - self.text.0.as_ptr() as usize) as u32
    }

    fn push(&mut self, key: Cow<'j, str>, value: &'j str) {
        let (key, key_len) = match key {
            Cow::Borrowed(key) => (self.offset_of(key), key.len() as u32),
            Cow::Owned(key) => {
                self.escaped.push(key.into_boxed_str());
                (ESCAPED, (self.escaped.len() - 1) as u32)
            }
        };
        let entry = Entry { key, key_len, value: self.offset_of(value), value_len: value.len() as u32 };
        self.list.push(entry);
    }
}

/// Reads an object's entries into the list.
struct EntriesVisitor<'a, 'j>(&'a mut TextEntries<'j>);

impl<'j> Visitor<'j> for EntriesVisitor<'_, 'j> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'j>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key_seed(Key)? {
            let value: &'j RawValue = map.next_value()?;
            self.0.push(key, value.get());
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
