//! JSON decoding and encoding for generated types, without serde derive.
//!
//! Generated types decode through [`FromJson`], a trait whose implementations are short and
//! non-generic: each field is one call on an [`Object`] reader. A value is read from a
//! [`Source`]: a parsed [`serde_json::Value`] (responses, parameters, forms), or the text of
//! a request body, read straight from its bytes without building a tree (see the `source`
//! module: [`check_strict`] checks the body once, then each object is read as the list of its
//! keys with their values' text, each array item by item).
//! The [`Decoder`] tracks the JSON pointer of the value being read and collects every problem
//! instead of stopping at the first, in one of two modes:
//!
//! - [`Mode::Lenient`] reads what a service sends: unknown fields are ignored, a wrong
//!   `object` constant is tolerated, `null` reads as absent. Used by `Deserialize` and the
//!   client.
//! - [`Mode::Strict`] reads what a caller sends: unknown fields, wrong constants, `null` where
//!   the spec does not allow it and missing required fields are all violations. Used by the
//!   server before a handler runs.
//!
//! Values the spec does not list (enumeration values, union variants) are kept in both modes;
//! `validate()` rejects them where the spec says the list is closed.

use crate::validate::{Capped, Violation, Violations};
use serde::Serialize;
use serde::ser::SerializeMap;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;

mod source;
use source::Place;
pub use source::{Checked, Source, StrictParseError, check_strict};

/// How strictly to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Read responses: tolerate what a newer service may add.
    Lenient,
    /// Read requests: enforce the shape the spec gives.
    Strict,
    /// Like lenient, but unknown fields are rejected: used to choose between untagged
    /// variants, so that an object is matched by the variant that knows all its fields.
    Exact,
}

/// One step of a JSON pointer. A key is a range of [`Decoder::keys`], so entering a field
/// allocates nothing once the buffer has grown to the deepest path.
#[derive(Debug, Clone)]
enum Step {
    Key(std::ops::Range<usize>),
    Index(usize),
}

/// Reads JSON values into generated types, collecting every problem with its JSON pointer.
#[derive(Debug)]
pub struct Decoder {
    mode: Mode,
    path: Vec<Step>,
    /// The keys of `path`, one after the other.
    keys: String,
    violations: Vec<Violation>,
    /// Violations found, built or not.
    found: usize,
    /// Most violations built; `None` builds every one.
    cap: Option<usize>,
    /// Lenient mode: optional fields whose value could not be read, left absent (pointer,
    /// reason).
    not_understood: Vec<(String, String)>,
    /// Building a [`FromJson::placeholder`]: every object decodes, whatever it lacks.
    placeholder: bool,
    /// Reading a form body ([`decode_form`]): its scalars arrive as text and are parsed by
    /// their type, and lists and objects take the forms a form gives them.
    text: bool,
    /// In a form's text, an empty value is an empty list or object where one is wanted (a
    /// form body's way, Stripe's to clear `metadata`); not in a query ([`decode_query`]),
    /// where OpenAPI writes an empty object or list as nothing.
    empty_is_container: bool,
}

/// A part of a response the client could not read. Reading a response degrades locally: an
/// optional or nullable field whose value does not fit its type (a shape the service sends
/// and the spec does not describe) is left absent, and recorded here with its value, instead
/// of failing the whole response. A required field that does not fit fails the nearest
/// optional field holding it, or the response when there is none.
#[derive(Debug, Clone, PartialEq)]
pub struct NotUnderstood {
    /// JSON pointer of the field in the response body (`/items/0/space`).
    pub pointer: String,
    /// Why it could not be read, each problem with its own pointer.
    pub reason: String,
    /// The value as the service sent it.
    pub value: Value,
}

/// Decodes a value of type `T` in the given mode.
pub fn decode<T: FromJson>(value: Value, mode: Mode) -> Result<T, Violations> {
    let mut decoder = Decoder::new(mode);
    match T::from_json(Source::Tree(value), &mut decoder) {
        Some(decoded) if decoder.found == 0 => Ok(decoded),
        _ => Err(decoder.into_error()),
    }
}

/// Decodes a value of type `T` strictly (a request body), building only the first `cap`
/// violations and counting the rest. A request body is given as the text [`check_strict`]
/// accepted, and decoded straight from it.
pub fn decode_capped<'j, T: FromJson>(value: impl Into<Source<'j>>, cap: usize) -> Result<T, Capped> {
    let mut decoder = Decoder::new(Mode::Strict);
    decoder.cap = Some(cap);
    match T::from_json(value.into(), &mut decoder) {
        Some(decoded) if decoder.found == 0 => Ok(decoded),
        _ => {
            let all = decoder.found.max(1);
            Err(Capped { listed: decoder.into_error().0, all })
        }
    }
}

/// Decodes a form body strictly (see [`crate::form`]): `value` is the tree of its keys, every
/// scalar a string parsed by the type it is read as (`"5"` is an integer where one is
/// expected), a list given by repeated keys, `[]` or indexes, an empty value an empty list or
/// object.
pub fn decode_form<T: FromJson>(value: Value) -> Result<T, Violations> {
    decode_text(value, true)
}

/// Decodes a query parameter read as a form's tree (an object or union parameter: see
/// [`crate::form`]) strictly, as [`decode_form`] does, except that an empty value is an
/// empty string, never an empty list or object.
pub fn decode_query<T: FromJson>(value: Value) -> Result<T, Violations> {
    decode_text(value, false)
}

/// Decodes a tree of text strictly, each scalar parsed by its type ([`decode_form`],
/// [`decode_query`]).
fn decode_text<T: FromJson>(value: Value, empty_is_container: bool) -> Result<T, Violations> {
    let mut decoder = Decoder::new(Mode::Strict);
    decoder.text = true;
    decoder.empty_is_container = empty_is_container;
    match T::from_json(Source::Tree(value), &mut decoder) {
        Some(decoded) if decoder.found == 0 => Ok(decoded),
        _ => Err(decoder.into_error()),
    }
}

/// Decodes a response body leniently, with the parts that were not understood (each left
/// absent in the result; see [`NotUnderstood`]).
pub fn from_slice_reporting<T: FromJson>(bytes: &[u8]) -> Result<(T, Vec<NotUnderstood>), Violations> {
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| Violations(vec![Violation::new("", format!("invalid JSON: {e}"))]))?;
    decode_reporting(value, || serde_json::from_slice(bytes).unwrap_or_default())
}

/// Decodes a response value leniently, with the parts that were not understood. `reread`
/// gives the value again (decoding consumes it); it is called only when a part was not
/// understood, so the common path copies nothing.
pub fn decode_reporting<T: FromJson>(
    value: Value,
    reread: impl FnOnce() -> Value,
) -> Result<(T, Vec<NotUnderstood>), Violations> {
    let mut decoder = Decoder::new(Mode::Lenient);
    let decoded = T::from_json(Source::Tree(value), &mut decoder);
    let reread = std::cell::Cell::new(Some(reread));
    let reread = || reread.take().map_or(Value::Null, |reread| reread());
    let not_understood = decoder.finish_reporting(decoded.is_some(), &reread)?;
    // `finish_reporting` refuses a value that did not decode.
    decoded.map(|decoded| (decoded, not_understood)).ok_or_else(|| Violations(Vec::new()))
}

impl Decoder {
    /// What a lenient decoding left: its violations as an error when the value did not
    /// decode (or decoded with violations), else the parts not understood, each with its
    /// value (read again with `reread`, only when there are any).
    fn finish_reporting(self, decoded: bool, reread: &dyn Fn() -> Value) -> Result<Vec<NotUnderstood>, Violations> {
        if !decoded || self.found > 0 {
            return Err(self.into_error());
        }
        if self.not_understood.is_empty() {
            return Ok(Vec::new());
        }
        let original = reread();
        let parts = self
            .not_understood
            .into_iter()
            .map(|(pointer, reason)| {
                let value = original.pointer(&pointer).cloned().unwrap_or(Value::Null);
                NotUnderstood { pointer, reason, value }
            })
            .collect();
        Ok(parts)
    }
}

/// Decodes bytes holding JSON into `T`, reading leniently (a response).
pub fn from_slice<T: FromJson>(bytes: &[u8]) -> Result<T, Violations> {
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| Violations(vec![Violation::new("", format!("invalid JSON: {e}"))]))?;
    decode(value, Mode::Lenient)
}

/// The body of a generated `Deserialize` impl: reads any self-describing format into a JSON
/// value, then decodes it leniently. Errors name the JSON pointer of each problem.
#[doc(hidden)]
pub fn deserialize<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: FromJson,
{
    let value = Value::deserialize(deserializer)?;
    decode(value, Mode::Lenient).map_err(serde::de::Error::custom)
}

use serde::Deserialize;

impl Decoder {
    /// A decoder in the given mode.
    pub fn new(mode: Mode) -> Self {
        Decoder {
            mode,
            path: Vec::new(),
            keys: String::new(),
            violations: Vec::new(),
            found: 0,
            cap: None,
            not_understood: Vec::new(),
            placeholder: false,
            text: false,
            empty_is_container: false,
        }
    }

    /// A decoder for a trial (a variant of a union) of this one: same path and text rule.
    fn trial(&self, mode: Mode) -> Decoder {
        let mut trial = Decoder::new(mode);
        trial.path = self.path.clone();
        trial.keys = self.keys.clone();
        trial.text = self.text;
        trial.empty_is_container = self.empty_is_container;
        trial.cap = self.cap;
        trial
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The problems found so far, as an error.
    pub fn into_error(self) -> Violations {
        let mut violations = self.violations;
        if violations.is_empty() {
            violations.push(Violation::new("", "the value could not be decoded"));
        }
        Violations(violations)
    }

    /// The JSON pointer of the value being read.
    pub fn pointer(&self) -> String {
        let mut pointer = String::new();
        for step in &self.path {
            pointer.push('/');
            match step {
                Step::Key(key) => pointer.push_str(&self.keys[key.clone()].replace('~', "~0").replace('/', "~1")),
                Step::Index(index) => pointer.push_str(&index.to_string()),
            }
        }
        pointer
    }

    // The generic readers below are instantiated once per field type of every generated type,
    // so each keeps only the call to `T::from_json` generic and leaves the rest to plain
    // functions (which are compiled once): the types crate's code size follows from it.

    /// Records a problem at the current position. Always returns `None`, for `?` chains.
    pub fn fail<T>(&mut self, message: impl Into<String>) -> Option<T> {
        self.record(message.into());
        None
    }

    fn record(&mut self, message: String) {
        self.found += 1;
        if self.cap.is_none_or(|cap| self.violations.len() < cap) {
            let pointer = self.pointer();
            self.violations.push(Violation::new(pointer, message));
        }
    }

    fn enter_key(&mut self, key: &str) {
        let start = self.keys.len();
        self.keys.push_str(key);
        self.path.push(Step::Key(start..self.keys.len()));
    }

    fn enter_index(&mut self, index: usize) {
        self.path.push(Step::Index(index));
    }

    fn leave(&mut self) {
        if let Some(Step::Key(key)) = self.path.pop() {
            self.keys.truncate(key.start);
        }
    }

    /// Reads `value` as the element at `key` of the current object.
    pub fn at_key<T: FromJson>(&mut self, key: &str, value: Source<'_>) -> Option<T> {
        self.enter_key(key);
        let result = T::from_json(value, self);
        self.leave();
        result
    }

    /// Reads `value` as the optional field `key`; `None` when it did not decode (recorded).
    /// Lenient: a value that does not fit is recorded as not understood instead, and read as
    /// absent, so the rest of the response survives.
    fn at_optional_key<T: FromJson>(&mut self, key: &str, value: Source<'_>) -> Option<T> {
        let before = self.found;
        self.enter_key(key);
        let result = T::from_json(value, self);
        if self.leave_optional_key(before, result.is_some()) { None } else { result }
    }

    /// Leaves the optional field entered with `before` violations recorded. True when it is
    /// to be read as absent: lenient, and it did not decode (or decoded with violations),
    /// which is then recorded as not understood.
    fn leave_optional_key(&mut self, before: usize, decoded: bool) -> bool {
        let absent = self.mode == Mode::Lenient && (!decoded || self.found > before);
        if absent {
            let kept = before.min(self.violations.len());
            self.found = before;
            let reasons: Vec<String> = self
                .violations
                .drain(kept..)
                .map(|v| if v.path.is_empty() { v.message } else { format!("{}: {}", v.path, v.message) })
                .collect();
            let reason = if reasons.is_empty() { "does not decode".to_owned() } else { reasons.join("; ") };
            self.not_understood.push((self.pointer(), reason));
        }
        self.leave();
        absent
    }

    /// Reads `value` as the element at `index` of the current array.
    pub fn at_index<T: FromJson>(&mut self, index: usize, value: Source<'_>) -> Option<T> {
        self.enter_index(index);
        let result = T::from_json(value, self);
        self.leave();
        result
    }

    /// Starts reading an object; records a problem when `value` is not one.
    pub fn object<'j>(&mut self, value: Source<'j>) -> Option<Object<'_, 'j>> {
        let fields = match value {
            Source::Tree(value) => match self.as_form_gives(value, Want::Object) {
                Value::Object(map) => Entries::Tree(map),
                other => return self.not_an_object(&other),
            },
            Source::Text(text) => match Entries::of_text(text) {
                Some(entries) => entries,
                None => return self.not_an_object(&Source::Text(text).scalar()),
            },
        };
        let before = self.found;
        Some(Object { fields, decoder: self, before })
    }

    fn not_an_object<T>(&mut self, found: &Value) -> Option<T> {
        self.fail(format!("expected an object, found {}", kind(found)))
    }

    /// `value` as a form gives it for what is wanted (when reading a form; otherwise `value`
    /// itself): an empty value is an empty list or object, one value a list of one, and an
    /// object of indexes (`a[0]`, `a[1]`) a list in the order of its indexes.
    fn as_form_gives(&self, value: Value, want: Want) -> Value {
        if !self.text {
            return value;
        }
        match (value, want) {
            (Value::String(s), Want::List) if s.is_empty() && self.empty_is_container => Value::Array(Vec::new()),
            (Value::String(s), Want::Object) if s.is_empty() && self.empty_is_container => Value::Object(Map::new()),
            (Value::String(s), Want::List) => Value::Array(vec![Value::String(s)]),
            (Value::Object(map), Want::List) if crate::form::indexed(&map) => crate::form::by_index(map),
            (value, _) => value,
        }
    }

    /// Reads a scalar given as text in a form with `parse` (any other value as JSON, with
    /// `json`).
    fn scalar<T>(
        &mut self,
        value: Source<'_>,
        parse: fn(&str) -> Result<T, String>,
        json: fn(Value, &mut Decoder) -> Option<T>,
    ) -> Option<T> {
        match value.scalar() {
            Value::String(text) if self.text => match parse(&text) {
                Ok(parsed) => Some(parsed),
                Err(message) => self.fail(message),
            },
            other => json(other, self),
        }
    }

    /// Reads a string.
    pub fn string(&mut self, value: Source<'_>) -> Option<String> {
        match value.scalar() {
            Value::String(s) => Some(s),
            other => self.fail(format!("expected a string, found {}", kind(&other))),
        }
    }
}

/// What a form's value is read as, for [`Decoder::as_form_gives`].
#[derive(Clone, Copy)]
enum Want {
    List,
    Object,
}

/// A short description of a JSON value for messages: its kind, and small scalars in full.
pub fn kind(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) if s.chars().count() <= 40 => format!("the string {s:?}"),
        Value::String(_) => "a string".into(),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// A type that can be read from JSON by a [`Decoder`].
pub trait FromJson: Sized {
    /// Reads `value`. On failure the problems are recorded in `decoder` and `None` returned
    /// (never `None` without a problem recorded: [`Object`] relies on it).
    fn from_json(value: Source<'_>, decoder: &mut Decoder) -> Option<Self>;

    /// Whether `null` is a value of this type: only for any JSON (`serde_json::Value`), which
    /// a request may give as `null` where a field's type is any JSON (JSON Schema's `{}`).
    const TAKES_NULL: bool = false;

    /// A value standing in for one that did not decode: the [`Object`] reader gives it to a
    /// field that failed, so that a generated object is built in one struct literal, and the
    /// object is then refused as a whole (see [`Object`]); callers never see it. The default
    /// reads an empty object with every field left to its own placeholder, which suits any
    /// generated object; other types give their own.
    fn placeholder() -> Self {
        let mut decoder = Decoder::new(Mode::Lenient);
        decoder.placeholder = true;
        match Self::from_json(Source::Tree(Value::Object(Map::new())), &mut decoder) {
            Some(value) => value,
            None => no_placeholder(std::any::type_name::<Self>()),
        }
    }
}

#[cold]
fn no_placeholder(name: &str) -> ! {
    panic!("{name} gives no placeholder: implement FromJson::placeholder")
}

impl FromJson for String {
    fn from_json(value: Source<'_>, d: &mut Decoder) -> Option<Self> {
        d.string(value)
    }

    fn placeholder() -> Self {
        String::new()
    }
}

impl FromJson for bool {
    fn from_json(value: Source<'_>, d: &mut Decoder) -> Option<Self> {
        d.scalar(value, crate::params::FromParam::from_param, |value, d| match value {
            Value::Bool(b) => Some(b),
            other => d.fail(format!("expected a boolean, found {}", kind(&other))),
        })
    }

    fn placeholder() -> Self {
        false
    }
}

/// `x` as an `i64` when it has no fraction and fits.
fn whole(x: f64) -> Option<i64> {
    // Up to 2^53 every whole number has its own f64; beyond, `x` may stand for a neighbour
    // (an integer literal too large for i64 is read as the nearest f64), so it is refused.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    (x.fract() == 0.0 && (-EXACT..=EXACT).contains(&x)).then_some(x as i64)
}

impl FromJson for i64 {
    fn from_json(value: Source<'_>, d: &mut Decoder) -> Option<Self> {
        d.scalar(value, crate::params::FromParam::from_param, integer)
    }

    fn placeholder() -> Self {
        0
    }
}

/// An integer of JSON.
fn integer(value: Value, d: &mut Decoder) -> Option<i64> {
    match &value {
        // JSON (and JSON Schema) make no difference between `3` and `3.0`: a number with
        // no fraction is a whole number, whichever way it was written.
        Value::Number(n) => match n.as_i64().or_else(|| n.as_f64().and_then(whole)) {
            Some(i) => Some(i),
            None => d.fail(format!("expected a whole number, found {}", kind(&value))),
        },
        other => d.fail(format!("expected an integer, found {}", kind(other))),
    }
}

impl FromJson for f64 {
    fn from_json(value: Source<'_>, d: &mut Decoder) -> Option<Self> {
        d.scalar(value, crate::params::FromParam::from_param, |value, d| match &value {
            Value::Number(n) => n.as_f64().or_else(|| d.fail("the number is out of range")),
            other => d.fail(format!("expected a number, found {}", kind(other))),
        })
    }

    fn placeholder() -> Self {
        0.0
    }
}

impl FromJson for Value {
    fn from_json(value: Source<'_>, _: &mut Decoder) -> Option<Self> {
        Some(value.into_value())
    }

    const TAKES_NULL: bool = true;

    fn placeholder() -> Self {
        Value::Null
    }
}

impl FromJson for chrono::DateTime<chrono::Utc> {
    fn from_json(value: Source<'_>, d: &mut Decoder) -> Option<Self> {
        let text = d.string(value)?;
        match chrono::DateTime::parse_from_rfc3339(&text) {
            Ok(at) => Some(at.with_timezone(&chrono::Utc)),
            Err(_) => d.fail(format!("expected an RFC 3339 date-time, found {text:?}")),
        }
    }

    fn placeholder() -> Self {
        Self::default()
    }
}

/// A value that may be `null` (a response body the document declares nullable): `null` is
/// `None`.
impl<T: FromJson> FromJson for Option<T> {
    fn from_json(value: Source<'_>, d: &mut Decoder) -> Option<Self> {
        if value.is_null() { Some(None) } else { T::from_json(value, d).map(Some) }
    }

    fn placeholder() -> Self {
        None
    }
}

impl<T: FromJson> FromJson for Box<T> {
    fn from_json(value: Source<'_>, d: &mut Decoder) -> Option<Self> {
        T::from_json(value, d).map(Box::new)
    }

    fn placeholder() -> Self {
        Box::new(T::placeholder())
    }
}

// Lists and maps of every item type an API uses each compile their `from_json`: it only
// decodes and keeps one item, and the walk (pointers, problems) is a plain function.

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(value: Source<'_>, d: &mut Decoder) -> Option<Self> {
        // Not sized by the items up front, and dropped at the first item that fails: a list
        // that does not decode keeps nothing while the rest is read for its violations.
        let mut decoded = Vec::new();
        let mut failed = false;
        let ok = read_list(value, d, &mut |item, d| match T::from_json(item, d) {
            Some(item) => {
                if !failed {
                    decoded.push(item);
                }
                true
            }
            None => {
                if !failed {
                    failed = true;
                    decoded = Vec::new();
                }
                false
            }
        })?;
        if ok { Some(decoded) } else { None }
    }

    fn placeholder() -> Self {
        Vec::new()
    }
}

impl<T: FromJson> FromJson for BTreeMap<String, T> {
    fn from_json(value: Source<'_>, d: &mut Decoder) -> Option<Self> {
        let entries = match value {
            Source::Tree(value) => match d.as_form_gives(value, Want::Object) {
                Value::Object(map) => Entries::Tree(map),
                other => return d.not_an_object(&other),
            },
            Source::Text(text) => match Entries::of_text(text) {
                Some(entries) => entries,
                None => return d.not_an_object(&Source::Text(text).scalar()),
            },
        };
        read_map(entries, d)
    }

    fn placeholder() -> Self {
        BTreeMap::new()
    }
}

fn read_map<T: FromJson>(fields: Entries<'_>, d: &mut Decoder) -> Option<BTreeMap<String, T>> {
    let mut decoded = BTreeMap::new();
    let ok = read_entries(fields, d, &mut |key, item, d| match T::from_json(item, d) {
        Some(item) => {
            decoded.insert(key, item);
            true
        }
        None => false,
    });
    if ok { Some(decoded) } else { None }
}

/// Reads every item of a list with `each` (which keeps it, and says whether it decoded), each
/// at its index. True when every item decoded; `None` (recorded) when `value` is not a list.
fn read_list<'j>(
    value: Source<'j>,
    d: &mut Decoder,
    each: &mut dyn FnMut(Source<'j>, &mut Decoder) -> bool,
) -> Option<bool> {
    match value {
        Source::Tree(value) => match d.as_form_gives(value, Want::List) {
            Value::Array(items) => Some(read_items(items, d, each)),
            other => d.fail(format!("expected an array, found {}", kind(&other))),
        },
        Source::Text(text) => match source::read_text_items(text, d, each) {
            Some(ok) => Some(ok),
            None => d.fail(format!("expected an array, found {}", kind(&Source::Text(text).scalar()))),
        },
    }
}

/// Reads every item of an array with `each`, as [`read_list`] does.
fn read_items<'j>(items: Vec<Value>, d: &mut Decoder, each: &mut dyn FnMut(Source<'j>, &mut Decoder) -> bool) -> bool {
    let mut ok = true;
    for (index, item) in items.into_iter().enumerate() {
        d.enter_index(index);
        ok &= each(Source::Tree(item), d);
        d.leave();
    }
    ok
}

/// Reads every entry of an object with `each`, like [`read_items`], each at its key.
fn read_entries<'j>(
    fields: Entries<'j>,
    d: &mut Decoder,
    each: &mut dyn FnMut(String, Source<'j>, &mut Decoder) -> bool,
) -> bool {
    let mut ok = true;
    for (key, item) in fields.into_entries() {
        d.enter_key(&key);
        ok &= each(key, item, d);
        d.leave();
    }
    ok
}

/// The entries of an object being read: a tree's map, or the keys of a text with each value's
/// text, in the order they came.
enum Entries<'j> {
    Tree(Map<String, Value>),
    Text(source::TextEntries<'j>),
}

impl<'j> Entries<'j> {
    /// The entries of `text` when it is an object: listed by offsets, or past 4 GiB (which no
    /// server's body limit lets through) parsed as a tree.
    fn of_text(text: Checked<'j>) -> Option<Self> {
        if let Some(entries) = Source::text_entries(text) {
            return Some(Entries::Text(entries));
        }
        match Source::Text(text).into_value() {
            Value::Object(map) if text.as_str().starts_with('{') => Some(Entries::Tree(map)),
            _ => None,
        }
    }

    /// Takes the value of `key` out. As the tree's map (`serde_json`'s `preserve_order`) does,
    /// the last entry takes the place of the one taken out: the keys left, which a closed
    /// object refuses one by one, come in the same order from a tree and from a text.
    fn remove(&mut self, key: &str) -> Option<Source<'j>> {
        match self {
            Entries::Tree(map) => map.remove(key).map(Source::Tree),
            Entries::Text(entries) => {
                let index = entries.position(key)?;
                Some(Source::Text(entries.swap_remove(index)))
            }
        }
    }

    /// True when `key` is given as `null`.
    fn is_null(&self, key: &str) -> bool {
        match self {
            Entries::Tree(map) => map.get(key).is_some_and(Value::is_null),
            Entries::Text(entries) => {
                entries.position(key).is_some_and(|index| entries.value(index).as_str() == "null")
            }
        }
    }

    /// The keys left, in order.
    fn keys(&self) -> Box<dyn Iterator<Item = &str> + '_> {
        match self {
            Entries::Tree(map) => Box::new(map.keys().map(String::as_str)),
            Entries::Text(entries) => Box::new(entries.keys()),
        }
    }

    fn into_entries(self) -> Box<dyn Iterator<Item = (String, Source<'j>)> + 'j> {
        match self {
            Entries::Tree(map) => Box::new(map.into_iter().map(|(k, v)| (k, Source::Tree(v)))),
            Entries::Text(entries) => Box::new(entries.into_entries().map(|(k, v)| (k, Source::Text(v)))),
        }
    }
}

/// Reads the fields of one JSON object. Every read removes its key and gives the field a
/// value: the one decoded, or when it failed a [`FromJson::placeholder`], with the problem
/// recorded. [`Object::finish`] reports the keys left (in strict and exact modes) and refuses
/// the object when anything in it failed, so a placeholder never reaches a caller.
///
/// Why placeholders: a generated `FromJson` is then one struct literal of reads, followed by
/// `finish()?`. Reading each field into an `Option` and unwrapping them all afterwards (with
/// `?` or one `let .. else`) costs a branch, a drop flag and a drop per field on every failure
/// path; for an API of twenty thousand fields that was the largest part of the time and
/// memory rustc spent on the types crate, and of its machine code.
pub struct Object<'d, 'j> {
    fields: Entries<'j>,
    decoder: &'d mut Decoder,
    before: usize,
}

impl<'j> Object<'_, 'j> {
    fn take(&mut self, key: &str) -> Option<Source<'j>> {
        self.fields.remove(key)
    }

    /// Records `message` at the field `key`.
    fn violation(&mut self, key: &str, message: &str) {
        self.decoder.enter_key(key);
        self.decoder.record(message.to_owned());
        self.decoder.leave();
    }

    fn strict(&self) -> bool {
        self.decoder.mode == Mode::Strict
    }

    /// Checks a constant field (`object`, a union tag). Strict: it must be present and equal.
    pub fn constant(&mut self, key: &str, expected: &str) {
        let found = self.take(key);
        if !self.strict() {
            return;
        }
        match found.map(Source::scalar) {
            Some(Value::String(s)) if s == expected => {}
            Some(other) => self.violation(key, &format!("must be {expected:?}, found {}", kind(&other))),
            None => self.violation(key, "is required"),
        }
    }

    /// A field that must be present and not null. Strict: `null` is a violation unless the
    /// field's type is any JSON, whose value it is (not where an open union would keep it).
    pub fn required<T: FromJson>(&mut self, key: &str) -> T {
        if let Some(value) = self.take_required(key, T::TAKES_NULL) {
            self.decoder.enter_key(key);
            let decoded = T::from_json(value, self.decoder);
            self.decoder.leave();
            if let Some(decoded) = decoded {
                return decoded;
            }
        }
        T::placeholder()
    }

    /// The value of the required field `key`, or `None` (recorded) when it is missing or a
    /// refused `null`.
    fn take_required(&mut self, key: &str, takes_null: bool) -> Option<Source<'j>> {
        match self.take(key) {
            Some(value) if value.is_null() && self.strict() && !takes_null => {
                self.violation(key, "must not be null");
                None
            }
            Some(value) => Some(value),
            None => {
                self.violation(key, "is required");
                None
            }
        }
    }

    /// A field that may be absent. Lenient: `null` reads as absent; strict: `null` is a
    /// violation (the spec does not allow it), or for any JSON the value `null`.
    pub fn optional<T: FromJson>(&mut self, key: &str) -> Option<T> {
        if T::TAKES_NULL && self.strict() && self.fields.is_null(key) {
            self.take(key);
            return T::from_json(Source::Tree(Value::Null), self.decoder);
        }
        let value = self.take_optional(key)?;
        self.decoder.at_optional_key(key, value)
    }

    /// The value of the optional field `key`: `None` when it is absent (or null, lenient) or
    /// a refused `null` (strict, recorded).
    fn take_optional(&mut self, key: &str) -> Option<Source<'j>> {
        match self.take(key) {
            Some(value) if value.is_null() && self.strict() => {
                self.violation(key, "must not be null");
                None
            }
            Some(value) if value.is_null() => None,
            value => value,
        }
    }

    /// A read-only field (answered, never accepted). Strict (a request): present is a
    /// violation; otherwise an optional field.
    pub fn read_only<T: FromJson>(&mut self, key: &str) -> Option<T> {
        if !self.strict() {
            return self.optional(key);
        }
        if self.take(key).is_some() {
            self.violation(key, "is read-only: the service answers it and never accepts it");
        }
        None
    }

    /// A write-only field a request must give (sent, never answered). Strict (a request):
    /// required; otherwise an optional field.
    pub fn required_in_requests<T: FromJson>(&mut self, key: &str) -> Option<T> {
        match self.decoder.mode {
            Mode::Strict => Some(self.required(key)),
            Mode::Lenient | Mode::Exact => self.optional(key),
        }
    }

    /// A field that must be present but may be null. Lenient: absent reads as null.
    pub fn nullable<T: FromJson>(&mut self, key: &str) -> Option<T> {
        let value = self.take_nullable(key)?;
        self.decoder.at_optional_key(key, value)
    }

    /// The value of the nullable field `key`: `None` when it is null (or absent, lenient) or
    /// missing (strict, recorded).
    fn take_nullable(&mut self, key: &str) -> Option<Source<'j>> {
        match self.take(key) {
            None if self.strict() => {
                self.violation(key, "is required");
                None
            }
            Some(value) if value.is_null() => None,
            value => value,
        }
    }

    /// An optional field whose document schema gives an object's properties without `type`
    /// (spec key `untyped`). By JSON Schema such a schema constrains objects only: a value that
    /// is not an object (`null`, `true`, `3`, `"x"`, `[]`) fits it and carries none of its
    /// properties, so in every mode it reads as the field left out (`None`, no violation); an
    /// object is read as [`Object::optional`] reads it.
    pub fn untyped_optional<T: FromJson>(&mut self, key: &str) -> Option<T> {
        let value = self.take(key).filter(Source::is_object)?;
        self.decoder.at_optional_key(key, value)
    }

    /// A required field whose document schema gives an object's properties without `type`
    /// (spec key `untyped`): the key must be given (strict: missing is "is required", as the
    /// document's `required` says), but a value that is not an object fits the schema and
    /// reads as `None`, as [`Object::untyped_optional`] reads it. The field is an `Option`
    /// for that reason, and `None` is written `null`, which fits the document's schema too.
    pub fn untyped_required<T: FromJson>(&mut self, key: &str) -> Option<T> {
        let Some(value) = self.take(key) else {
            if self.strict() {
                self.violation(key, "is required");
            }
            return None;
        };
        if !value.is_object() {
            return None;
        }
        self.decoder.at_optional_key(key, value)
    }

    /// A field that may be absent, with a default; `null` reads as absent when lenient.
    pub fn defaulted<T: FromJson>(&mut self, key: &str, default: fn() -> T) -> T {
        match self.optional(key) {
            Some(value) => value,
            None => default(),
        }
    }

    /// A field that may be absent or null, each kept apart.
    pub fn patch<T: FromJson>(&mut self, key: &str) -> crate::Patch<T> {
        match self.take(key) {
            None => crate::Patch::Absent,
            Some(value) if value.is_null() => crate::Patch::Null,
            Some(value) => match self.decoder.at_key(key, value) {
                Some(value) => crate::Patch::Value(value),
                None => crate::Patch::Absent,
            },
        }
    }

    /// The keys not read so far, kept as additional properties.
    pub fn rest<T: FromJson>(&mut self) -> BTreeMap<String, T> {
        let fields = std::mem::replace(&mut self.fields, Entries::Text(source::TextEntries::default()));
        read_map(fields, self.decoder).unwrap_or_default()
    }

    /// Ends an object whose spec ignores fields it does not declare (`unknown_fields:
    /// ignore`, OpenAPI's objects without `additionalProperties: false`): keys not read are
    /// dropped in every mode. Returns what [`Object::finish`] returns.
    pub fn finish_open(self) -> Option<()> {
        (self.decoder.placeholder || self.decoder.found == self.before).then_some(())
    }

    /// Ends the object: in strict and exact modes every key not read is a violation. Returns
    /// `Some` when nothing in this object failed (a field holding a placeholder among it).
    pub fn finish(self) -> Option<()> {
        if self.decoder.mode != Mode::Lenient {
            for key in self.fields.keys() {
                self.decoder.enter_key(key);
                self.decoder.record("is not a field of this object".to_owned());
                self.decoder.leave();
            }
        }
        (self.decoder.placeholder || self.decoder.found == self.before).then_some(())
    }
}

/// Parses a JSON parameter, refusing objects that give a key twice (`serde_json` would keep
/// the last value silently). A request body is not parsed: [`check_strict`] checks it, and it
/// is decoded from its text.
pub fn parse_strict(bytes: &[u8]) -> Result<Value, StrictParseError> {
    use serde::de::DeserializeSeed;
    let duplicates = std::cell::RefCell::new(Vec::new());
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = UniqueKeys { at: &Place::Root, duplicates: &duplicates }
        .deserialize(&mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value))
        .map_err(StrictParseError::Syntax)?;
    let duplicates = duplicates.into_inner();
    if duplicates.is_empty() { Ok(value) } else { Err(StrictParseError::DuplicateKeys(duplicates)) }
}

/// Builds a [`Value`] like serde_json does, recording the pointer of every repeated key.
struct UniqueKeys<'a> {
    /// Where the value is, written out only for a repeated key (most bodies have none).
    at: &'a Place<'a>,
    duplicates: &'a std::cell::RefCell<Vec<String>>,
}

impl<'de> serde::de::DeserializeSeed<'de> for UniqueKeys<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for UniqueKeys<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        loop {
            let at = Place::Index(self.at, items.len());
            match seq.next_element_seed(UniqueKeys { at: &at, duplicates: self.duplicates })? {
                Some(item) => items.push(item),
                None => break,
            }
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let at = Place::Key(self.at, &key);
            let value = map.next_value_seed(UniqueKeys { at: &at, duplicates: self.duplicates })?;
            if object.contains_key(&key) {
                self.duplicates.borrow_mut().push(at.pointer());
            }
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// How a union variant is decoded, for the union helpers.
#[doc(hidden)]
pub type Decode<U> = for<'j> fn(Source<'j>, &mut Decoder) -> Option<U>;

// The union helpers below are generic over the union, so each is compiled once per union of
// every API: they only call the chosen variant's `decode`, and leave the choosing (tags,
// trials, messages) to plain functions compiled once.

/// Decodes a union tagged by `tag`. `names` are the tag values of the variants and `decode`
/// their decodings, in the same order; `unknown` wraps a value whose tag is not listed (kept,
/// unless `open` is false and the mode is strict).
#[doc(hidden)]
pub fn tagged<U>(
    value: Source<'_>,
    d: &mut Decoder,
    tag: &str,
    names: &[&str],
    decode: &[Decode<U>],
    unknown: fn(Value) -> U,
    open: bool,
) -> Option<U> {
    match choose_tagged(&value, d, tag, names, open) {
        Choice::Variant(index) => decode[index](value, d),
        Choice::Unknown => Some(unknown(value.into_value())),
        Choice::Failed => None,
    }
}

/// What a union's value is read as.
enum Choice {
    /// The variant at this index (for an untagged union: already decoded).
    Variant(usize),
    /// The fallback variant, keeping the value as it came.
    Unknown,
    /// Nothing (recorded).
    Failed,
}

/// The variant of a tagged union `value` names, or why none.
fn choose_tagged(value: &Source<'_>, d: &mut Decoder, tag: &str, names: &[&str], open: bool) -> Choice {
    let found = match tag_of(value, tag) {
        Ok(found) => found,
        Err(kind) => {
            d.record(format!("expected an object, found {kind}"));
            return Choice::Failed;
        }
    };
    let strict = d.mode == Mode::Strict;
    let message = match found.as_deref() {
        Some(found) => match names.iter().position(|name| *name == found) {
            Some(index) => return Choice::Variant(index),
            None if strict && !open => format!("{found:?} is not one of: {}", names.join(", ")),
            None => return Choice::Unknown,
        },
        None if strict => "is required (it names the variant)".to_owned(),
        None => return Choice::Unknown,
    };
    d.enter_key(tag);
    d.record(message);
    d.leave();
    Choice::Failed
}

/// The string value of the field `tag` of an object (`None` when it is absent or not a
/// string), or the kind of what is not an object. A text's node is listed, not built: the
/// chosen variant reads it as it would without a tag.
fn tag_of<'v>(value: &'v Source<'_>, tag: &str) -> Result<Option<Cow<'v, str>>, String> {
    match value {
        Source::Tree(Value::Object(map)) => Ok(map.get(tag).and_then(Value::as_str).map(Cow::Borrowed)),
        Source::Tree(other) => Err(kind(other)),
        Source::Text(text) => match Entries::of_text(*text) {
            Some(mut entries) => Ok(entries.remove(tag).and_then(|found| match found.scalar() {
                Value::String(found) => Some(Cow::Owned(found)),
                _ => None,
            })),
            None => Err(kind(&value.clone().scalar())),
        },
    }
}

/// Decodes an untagged union: each variant is tried in order and the first that fits wins.
/// While choosing, objects must not carry fields a variant does not declare, so the variant
/// that knows every field is chosen. A value no variant fits is kept as `unknown` when the
/// union is open. When it is closed, lenient reading tries again tolerating unknown fields
/// (a newer service may add one to a known variant) and keeps what still fits nothing;
/// strict reading reports why each variant failed. `names` (for messages) and `decode` are
/// the variants in order.
///
/// A request's value (strict reading) is first given to the variant it is valid as, by
/// `validate()` too, as JSON Schema's `anyOf` reads it: a form's text `"0"` decodes as a
/// closed enumeration's unlisted value and as an integer, and is the integer (Stripe's
/// `delay_days`, `minimum` or a number of days). Only when it is valid as none is it given to
/// the first it decodes as, whose violations are then reported.
#[doc(hidden)]
pub fn untagged<U: crate::Validate>(
    value: Source<'_>,
    d: &mut Decoder,
    names: &[&str],
    decode: &[Decode<U>],
    unknown: fn(Value) -> U,
    open: bool,
) -> Option<U> {
    // Each variant is tried on the value: its node is built once, as a tree.
    let value = value.into_value();
    if d.mode == Mode::Strict {
        for variant in decode {
            let mut trial = d.trial(Mode::Strict);
            let decoded = variant(Source::Tree(value.clone()), &mut trial);
            if let Some(decoded) = decoded.filter(|v| trial.found == 0 && v.validate().is_ok()) {
                return Some(decoded);
            }
        }
    }
    let mut decoded = None;
    let mut attempt = |index: usize, value: Value, trial: &mut Decoder| {
        decoded = decode[index](Source::Tree(value), trial);
        decoded.is_some()
    };
    match choose_untagged(&value, d, names, &mut attempt, open) {
        Choice::Variant(_) => decoded,
        Choice::Unknown => Some(unknown(value)),
        Choice::Failed => None,
    }
}

/// Tries the variants of an untagged union on `value` (see [`untagged`]): `attempt(index,
/// value, trial)` decodes with the variant at `index`, keeps the result and says whether it
/// decoded. On `Choice::Variant` the last attempt holds the chosen value.
fn choose_untagged(
    value: &Value,
    d: &mut Decoder,
    names: &[&str],
    attempt: &mut dyn FnMut(usize, Value, &mut Decoder) -> bool,
    open: bool,
) -> Choice {
    let choosing = if d.mode == Mode::Strict { Mode::Strict } else { Mode::Exact };
    let mut reasons = Vec::new();
    for (index, name) in names.iter().enumerate() {
        let mut trial = d.trial(choosing);
        if attempt(index, value.clone(), &mut trial) && trial.found == 0 {
            return Choice::Variant(index);
        }
        reasons.push(format!("{name}: {}", trial.into_error()));
    }
    if open {
        return Choice::Unknown;
    }
    if d.mode == Mode::Lenient {
        for index in 0..names.len() {
            let mut trial = d.trial(Mode::Lenient);
            if attempt(index, value.clone(), &mut trial) && trial.found == 0 {
                d.not_understood.append(&mut trial.not_understood);
                return Choice::Variant(index);
            }
        }
        return Choice::Unknown;
    }
    d.record(format!("matches no variant ({})", reasons.join("; ")));
    Choice::Failed
}

/// Which way a body being written travels: read-only fields are left out of requests and
/// write-only ones out of responses. The runtime sets it around the bodies it writes (the
/// client's requests, the server's responses, see [`writing`]); elsewhere (`serde_json` called
/// directly) every field present is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Every field present is written.
    Any,
    /// A request body: read-only fields are left out.
    Request,
    /// A response body: write-only fields are left out.
    Response,
}

thread_local! {
    static WRITING: std::cell::Cell<Direction> = const { std::cell::Cell::new(Direction::Any) };
}

/// Runs `write` (a serialization, which never awaits) with bodies travelling `direction`.
pub fn writing<R>(direction: Direction, write: impl FnOnce() -> R) -> R {
    struct Restore(Direction);
    impl Drop for Restore {
        fn drop(&mut self) {
            WRITING.with(|cell| cell.set(self.0));
        }
    }
    let _restore = Restore(WRITING.with(|cell| cell.replace(direction)));
    write()
}

fn direction() -> Direction {
    WRITING.with(std::cell::Cell::get)
}

/// Writes the fields of a generated object through a serde map serializer, skipping absent
/// optional fields and writing `null` for null ones.
///
/// The writer keeps the first error itself: once a field fails, every later call writes
/// nothing, and [`Fields::end`] returns that error instead of ending the map. So a generated
/// `Serialize` is one plain call per field, without a `?` each: for an API of thousands of
/// fields, the branch and early return that every `?` adds (each dropping what is live at
/// that point) was a large part of what rustc spent checking the types crate.
#[doc(hidden)]
pub struct Fields<M: SerializeMap> {
    map: M,
    error: Option<M::Error>,
}

impl<M: SerializeMap> Fields<M> {
    /// Starts an object.
    pub fn begin<S>(serializer: S) -> Result<Self, S::Error>
    where
        S: serde::Serializer<SerializeMap = M, Error = M::Error>,
    {
        Ok(Fields { map: serializer.serialize_map(None)?, error: None })
    }

    /// Writes one entry, unless an earlier one failed; keeps the first error.
    fn entry<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) {
        if self.error.is_none()
            && let Err(error) = self.map.serialize_entry(key, value)
        {
            self.error = Some(error);
        }
    }

    /// A field that is always written.
    pub fn put<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) {
        self.entry(key, value);
    }

    /// A field written only when present.
    pub fn optional<T: Serialize>(&mut self, key: &str, value: &Option<T>) {
        if let Some(value) = value {
            self.entry(key, value);
        }
    }

    /// A read-only field: written when present, except in a request body.
    pub fn read_only<T: Serialize>(&mut self, key: &str, value: &Option<T>) {
        match direction() {
            Direction::Request => {}
            Direction::Any | Direction::Response => self.optional(key, value),
        }
    }

    /// A write-only field: written when present, except in a response body.
    pub fn write_only<T: Serialize>(&mut self, key: &str, value: &Option<T>) {
        match direction() {
            Direction::Response => {}
            Direction::Any | Direction::Request => self.optional(key, value),
        }
    }

    /// A tri-state field: absent is skipped, null written as `null`.
    pub fn patch<T: Serialize>(&mut self, key: &str, value: &crate::Patch<T>) {
        match value {
            crate::Patch::Absent => {}
            crate::Patch::Null => self.entry(key, &()),
            crate::Patch::Value(value) => self.entry(key, value),
        }
    }

    /// Additional properties, after the declared fields.
    pub fn rest<T: Serialize>(&mut self, extra: &BTreeMap<String, T>) {
        for (key, value) in extra {
            self.entry(key, value);
        }
    }

    /// Ends the object, or returns the first error a field met (the map is then left
    /// unended: a serializer that failed has nothing sound to end).
    pub fn end(self) -> Result<M::Ok, M::Error> {
        match self.error {
            Some(error) => Err(error),
            None => self.map.end(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A hand-written type shaped like generated code, to test the machinery.
    #[derive(Debug, PartialEq)]
    struct Thing {
        id: String,
        size: Option<i64>,
        owner: Option<String>,
        tags: Vec<String>,
    }

    impl FromJson for Thing {
        fn from_json(value: Source<'_>, d: &mut Decoder) -> Option<Self> {
            let mut o = d.object(value)?;
            o.constant("object", "thing");
            let thing = Thing {
                id: o.required("id"),
                size: o.optional("size"),
                owner: o.nullable("owner"),
                tags: o.defaulted("tags", Vec::new),
            };
            o.finish()?;
            Some(thing)
        }
    }

    /// The messages of decoding `body` strictly as `T`, from its text (as the server reads a
    /// body) and from its tree, which must agree.
    fn from_both<T: FromJson + std::fmt::Debug>(body: &str) -> Result<T, Vec<String>> {
        let messages = |capped: Capped| capped.listed.iter().map(|v| v.to_string()).collect::<Vec<_>>();
        let text = check_strict(body.as_bytes()).unwrap();
        let from_text = decode_capped::<T>(text, 100).map_err(messages);
        let from_tree = decode_capped::<T>(parse_strict(body.as_bytes()).unwrap(), 100).map_err(messages);
        assert_eq!(format!("{from_text:?}"), format!("{from_tree:?}"), "{body}");
        from_text
    }

    #[test]
    fn a_body_decoded_from_its_text_reads_as_its_tree_does() {
        let closed = r#" {"object": "thing", "id": "t", "owner": null, "junk": [{"deep": [1, 2]}]} "#;
        assert_eq!(from_both::<Thing>(closed).unwrap_err(), ["/junk: is not a field of this object"]);
        let thing: Thing = from_both(r#"{"object": "thing", "id": "t\u0041", "owner": null, "tags": ["a"]}"#).unwrap();
        assert_eq!(thing, Thing { id: "tA".into(), size: None, owner: None, tags: vec!["a".into()] });
        // Every kind of problem, in the order a tree gives them (keys left in a closed object
        // come as `serde_json`'s map leaves them).
        let wrong = r#"{"a": 1, "tags": [1, "b", {}], "object": "other", "size": null, "b": 2, "id": [], "c": 3}"#;
        assert_eq!(
            from_both::<Thing>(wrong).unwrap_err(),
            [
                "/object: must be \"thing\", found the string \"other\"",
                "/id: expected a string, found an array",
                "/size: must not be null",
                "/owner: is required",
                "/tags/0: expected a string, found the number 1",
                "/tags/2: expected a string, found an object",
                "/a: is not a field of this object",
                "/b: is not a field of this object",
                "/c: is not a field of this object",
            ]
        );
        assert_eq!(
            from_both::<Outer>(r#"{"inner": 5, "count": 2.0}"#).unwrap_err(),
            ["/inner: expected an object, found the number 5"]
        );
        let map = from_both::<BTreeMap<String, Vec<i64>>>(r#"{"a/b": [1, 2.0], "c": []}"#).unwrap();
        assert_eq!(map, BTreeMap::from([("a/b".to_owned(), vec![1, 2]), ("c".to_owned(), vec![])]));
        assert_eq!(from_both::<Vec<Option<i64>>>("[null, 3]").unwrap(), [None, Some(3)]);
        // Keys written with escapes (kept unescaped beside the offsets of the others) are read,
        // kept and refused by their text.
        let escaped: Thing = from_both(r#"{"obj\u0065ct": "thing", "\u0069d": "t", "owner": "o"}"#).unwrap();
        assert_eq!(escaped.owner.as_deref(), Some("o"));
        let map = from_both::<BTreeMap<String, i64>>(r#"{"\u00e9": 1, "b\"": 2, "c": 3}"#).unwrap();
        assert_eq!(map, BTreeMap::from([("\u{e9}".to_owned(), 1), ("b\"".to_owned(), 2), ("c".to_owned(), 3)]));
        assert_eq!(
            from_both::<Thing>(r#"{"object": "thing", "id": "t", "owner": null, "j\u0075nk": 1}"#).unwrap_err(),
            ["/junk: is not a field of this object"]
        );
        assert_eq!(from_both::<Any>(r#"{"required": {"x": [null]}}"#).unwrap().required, json!({"x": [null]}));
        assert_eq!(from_both::<Open>(r#"{"id": "o", "junk": {"deep": [{}]}}"#).unwrap(), Open { id: "o".into() });
        // Keys given twice anywhere, and what is not JSON, are refused before decoding.
        let Err(StrictParseError::DuplicateKeys(found)) = check_strict(br#"{"id": "t", "junk": {"a": 1, "a": 2}}"#)
        else {
            panic!()
        };
        assert_eq!(found, ["/junk/a"]);
        assert!(matches!(check_strict(b"{\"a\": 1e400}"), Err(StrictParseError::Syntax(_))));
        assert!(matches!(check_strict(b"[1] x"), Err(StrictParseError::Syntax(_))));
    }

    /// An object holding another in a required field, as generated code holds one.
    #[derive(Debug, PartialEq)]
    struct Outer {
        inner: Thing,
        count: i64,
        note: Option<Thing>,
    }

    impl FromJson for Outer {
        fn from_json(value: Source<'_>, d: &mut Decoder) -> Option<Self> {
            let mut o = d.object(value)?;
            let outer = Outer { inner: o.required("inner"), count: o.required("count"), note: o.optional("note") };
            o.finish()?;
            Some(outer)
        }
    }

    /// Fields whose document schemas give an object's properties without `type` (spec key
    /// `untyped`): `profile` optional, `owner` required.
    #[derive(Debug, PartialEq)]
    struct Untyped {
        profile: Option<Open>,
        owner: Option<Open>,
    }

    impl FromJson for Untyped {
        fn from_json(value: Source<'_>, d: &mut Decoder) -> Option<Self> {
            let mut o = d.object(value)?;
            let untyped = Untyped { profile: o.untyped_optional("profile"), owner: o.untyped_required("owner") };
            o.finish()?;
            Some(untyped)
        }
    }

    #[test]
    fn an_untyped_field_reads_a_value_that_is_not_an_object_as_left_out() {
        let none = Untyped { profile: None, owner: None };
        for value in ["null", "3", "[]", "true", "\"x\"", "[{\"id\": 1}]"] {
            let body = format!(r#"{{"profile": {value}, "owner": {value}}}"#);
            assert_eq!(from_both::<Untyped>(&body).unwrap(), none, "{body}");
            let lenient: Untyped = from_slice(body.as_bytes()).unwrap();
            assert_eq!(lenient, none, "{body}");
        }
        let read = from_both::<Untyped>(r#"{"owner": {"id": "o"}}"#).unwrap();
        assert_eq!(read, Untyped { profile: None, owner: Some(Open { id: "o".into() }) });
        // The required key must be given (strict), and an object is read whole.
        assert_eq!(from_both::<Untyped>(r#"{"profile": null}"#).unwrap_err(), ["/owner: is required"]);
        assert_eq!(from_slice::<Untyped>(b"{}").unwrap(), none);
        assert_eq!(
            from_both::<Untyped>(r#"{"profile": {"id": 1}, "owner": {}}"#).unwrap_err(),
            ["/profile/id: expected a string, found the number 1", "/owner/id: is required"]
        );
    }

    #[test]
    fn a_field_that_fails_fails_its_object_with_every_problem_and_no_placeholder_is_seen() {
        let result = decode::<Outer>(json!({"inner": {"id": 5, "tags": [1]}, "count": "x"}), Mode::Strict);
        let messages: Vec<String> = result.unwrap_err().0.iter().map(|v| v.to_string()).collect();
        assert_eq!(
            messages,
            [
                "/inner/object: is required",
                "/inner/id: expected a string, found the number 5",
                "/inner/owner: is required",
                "/inner/tags/0: expected a string, found the number 1",
                "/count: expected an integer, found the string \"x\"",
            ]
        );
        // Lenient: an optional field that fails is left absent, and the rest decodes.
        let value = json!({"inner": {"id": "a"}, "count": 1, "note": {"id": 5}});
        let (outer, parts) = decode_reporting::<Outer>(value.clone(), || value.clone()).unwrap();
        assert_eq!(outer.note, None);
        assert_eq!(outer.inner.id, "a");
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].pointer, "/note");
        assert_eq!(parts[0].reason, "/note/id: expected a string, found the number 5");
        // Strict: a required field missing, and one of the wrong type, are both reported.
        let result = decode::<Outer>(json!({"inner": {"object": "thing", "owner": null}}), Mode::Strict);
        let messages: Vec<String> = result.unwrap_err().0.iter().map(|v| v.to_string()).collect();
        assert_eq!(messages, ["/inner/id: is required", "/count: is required"]);
    }

    #[test]
    fn placeholders_of_objects_are_built_from_their_fields_placeholders() {
        let outer = Outer::placeholder();
        let thing = Thing { id: String::new(), size: None, owner: None, tags: vec![] };
        assert_eq!(outer, Outer { inner: thing, count: 0, note: None });
        assert_eq!(Box::<i64>::placeholder(), Box::new(0));
        assert_eq!(Vec::<Outer>::placeholder(), vec![]);
    }

    fn violations(result: Result<Thing, Violations>) -> Vec<String> {
        result.unwrap_err().0.iter().map(|v| v.to_string()).collect()
    }

    /// An object that ignores fields it does not declare (`unknown_fields: ignore`).
    #[derive(Debug, PartialEq)]
    struct Open {
        id: String,
    }

    impl FromJson for Open {
        fn from_json(value: Source<'_>, d: &mut Decoder) -> Option<Self> {
            let mut o = d.object(value)?;
            let open = Open { id: o.required("id") };
            o.finish_open()?;
            Some(open)
        }
    }

    #[test]
    fn an_open_object_drops_undeclared_fields_in_every_mode_and_still_checks_its_own() {
        for mode in [Mode::Strict, Mode::Exact, Mode::Lenient] {
            let open: Open = decode(json!({"id": "o", "extra": {"any": 1}}), mode).unwrap();
            assert_eq!(open, Open { id: "o".into() });
        }
        let result = decode::<Open>(json!({"id": 1, "extra": true}), Mode::Strict);
        assert_eq!(
            result.unwrap_err().0.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
            ["/id: expected a string, found the number 1"]
        );
    }

    /// Fields of any JSON (JSON Schema's `{}`, Kubernetes' `JSON` and `JSONSchemaPropsOrBool`).
    #[derive(Debug, PartialEq)]
    struct Any {
        required: Value,
        optional: Option<Value>,
    }

    impl FromJson for Any {
        fn from_json(value: Source<'_>, d: &mut Decoder) -> Option<Self> {
            let mut o = d.object(value)?;
            let any = Any { required: o.required("required"), optional: o.optional("optional") };
            o.finish()?;
            Some(any)
        }
    }

    #[test]
    fn null_is_a_value_of_any_json_in_a_request() {
        let both: Any = decode(json!({"required": null, "optional": null}), Mode::Strict).unwrap();
        assert_eq!(both, Any { required: Value::Null, optional: Some(Value::Null) });
        let absent: Any = decode(json!({"required": [1]}), Mode::Strict).unwrap();
        assert_eq!(absent, Any { required: json!([1]), optional: None });
        let missing = decode::<Any>(json!({}), Mode::Strict).unwrap_err();
        assert_eq!(missing.0.iter().map(|v| v.to_string()).collect::<Vec<_>>(), ["/required: is required"]);
    }

    #[test]
    fn lenient_reading_ignores_what_a_newer_service_adds() {
        let thing: Thing =
            decode(json!({"object": "other", "id": "t", "size": null, "extra": 1}), Mode::Lenient).unwrap();
        assert_eq!(thing, Thing { id: "t".into(), size: None, owner: None, tags: vec![] });
    }

    #[test]
    fn strict_reading_reports_every_problem_with_its_pointer() {
        let result =
            decode::<Thing>(json!({"object": "other", "size": null, "tags": ["a", 2], "extra": 1}), Mode::Strict);
        assert_eq!(
            violations(result),
            [
                "/object: must be \"thing\", found the string \"other\"",
                "/id: is required",
                "/size: must not be null",
                "/owner: is required",
                "/tags/1: expected a string, found the number 2",
                "/extra: is not a field of this object",
            ]
        );
    }

    #[test]
    fn type_errors_fail_in_every_mode() {
        let result = decode::<Thing>(json!({"id": 7}), Mode::Lenient);
        assert_eq!(violations(result), ["/id: expected a string, found the number 7"]);
        let result = decode::<Thing>(json!([1]), Mode::Lenient);
        assert_eq!(violations(result), ["(root): expected an object, found an array"]);
    }

    #[test]
    fn pointers_escape_slashes_and_tildes() {
        let result = decode::<BTreeMap<String, i64>>(json!({"a/b~c": "x"}), Mode::Lenient);
        let messages: Vec<String> = result.unwrap_err().0.iter().map(|v| v.to_string()).collect();
        assert_eq!(messages, ["/a~1b~0c: expected an integer, found the string \"x\""]);
    }

    #[test]
    fn strict_parsing_names_every_repeated_key_by_its_pointer() {
        let parsed = parse_strict(br#"{"a": 1, "b": {"c/d": 1, "c/d": 2}, "e": [{"~": 1, "~": 2}], "a": 3}"#);
        match parsed {
            Err(StrictParseError::DuplicateKeys(paths)) => assert_eq!(paths, ["/b/c~1d", "/e/0/~0", "/a"]),
            other => panic!("{other:?}"),
        }
        let value = parse_strict(br#"{"a": [1, 2.5, "x", null, true], "b": {}}"#).unwrap();
        assert_eq!(value, json!({"a": [1, 2.5, "x", null, true], "b": {}}));
        assert!(matches!(parse_strict(b"{\"a\": 1} trailing"), Err(StrictParseError::Syntax(_))));
    }

    /// A value whose serialization always fails.
    struct Broken;

    impl Serialize for Broken {
        fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("broken on purpose"))
        }
    }

    /// Shaped like a generated `Serialize`: one call per field, no `?`.
    struct Written {
        before: i64,
        broken: Option<Broken>,
        after: Option<String>,
        patch: crate::Patch<i64>,
        extra: BTreeMap<String, i64>,
    }

    impl Serialize for Written {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut fields = Fields::begin(serializer)?;
            fields.put("before", &self.before);
            fields.optional("broken", &self.broken);
            fields.optional("after", &self.after);
            fields.patch("patch", &self.patch);
            fields.rest(&self.extra);
            fields.end()
        }
    }

    #[test]
    fn fields_write_each_present_field_in_order() {
        let written = Written {
            before: 1,
            broken: None,
            after: Some("a".into()),
            patch: crate::Patch::Null,
            extra: BTreeMap::from([("z".to_owned(), 2)]),
        };
        assert_eq!(serde_json::to_string(&written).unwrap(), r#"{"before":1,"after":"a","patch":null,"z":2}"#);
    }

    #[test]
    fn a_field_that_fails_ends_the_object_with_its_error_and_nothing_after_it_is_written() {
        let written = Written {
            before: 1,
            broken: Some(Broken),
            after: Some("a".into()),
            patch: crate::Patch::Value(3),
            extra: BTreeMap::from([("z".to_owned(), 2)]),
        };
        let mut out = Vec::new();
        let error = serde_json::to_writer(&mut out, &written).unwrap_err();
        assert_eq!(error.to_string(), "broken on purpose");
        let out = String::from_utf8(out).unwrap();
        assert!(out.starts_with(r#"{"before":1,"#), "{out}");
        for later in ["after", "patch", "z", "}"] {
            assert!(!out.contains(later), "{later} written after the error: {out}");
        }
        assert!(serde_json::to_value(&written).is_err());
    }

    #[test]
    fn integers_reject_fractions_and_date_times_parse_rfc3339() {
        assert!(decode::<i64>(json!(1.5), Mode::Lenient).is_err());
        assert_eq!(decode::<i64>(json!(2412.0), Mode::Strict).unwrap(), 2412, "3.0 is the whole number 3");
        assert_eq!(decode::<i64>(json!(-0.0), Mode::Strict).unwrap(), 0);
        let err = decode::<i64>(json!(1e19), Mode::Strict).unwrap_err();
        assert_eq!(err.to_string(), "(root): expected a whole number, found the number 1e+19");
        let below_i64 = serde_json::from_str("-9223372036854775809").unwrap();
        assert!(decode::<i64>(below_i64, Mode::Strict).is_err(), "not rounded into range");
        let at: chrono::DateTime<chrono::Utc> = decode(json!("2024-01-02T03:04:05+01:00"), Mode::Lenient).unwrap();
        assert_eq!(at.to_rfc3339(), "2024-01-02T02:04:05+00:00");
        let err = decode::<chrono::DateTime<chrono::Utc>>(json!("yesterday"), Mode::Lenient).unwrap_err();
        assert_eq!(err.to_string(), "(root): expected an RFC 3339 date-time, found \"yesterday\"");
    }

    #[test]
    fn forms_give_scalars_as_text_and_lists_and_objects_their_own_ways() {
        assert_eq!(decode_form::<i64>(json!("42")).unwrap(), 42);
        assert_eq!(decode_form::<f64>(json!("1.5")).unwrap(), 1.5);
        assert!(decode_form::<bool>(json!("true")).unwrap());
        assert_eq!(decode_form::<Vec<i64>>(json!({"10": "3", "2": "2", "0": "1"})).unwrap(), [1, 2, 3]);
        assert_eq!(decode_form::<Vec<i64>>(json!("7")).unwrap(), [7]);
        assert_eq!(decode_form::<Vec<i64>>(json!("")).unwrap(), Vec::<i64>::new());
        assert_eq!(decode_form::<BTreeMap<String, i64>>(json!("")).unwrap(), BTreeMap::new());
        let err = decode_form::<Vec<i64>>(json!(["1", "x"])).unwrap_err();
        assert_eq!(err.to_string(), "/1: expected an integer, found \"x\"");
        let err = decode_form::<bool>(json!({"a": "1"})).unwrap_err();
        assert_eq!(err.to_string(), "(root): expected a boolean, found an object");
        assert!(decode::<i64>(json!("42"), Mode::Strict).is_err(), "JSON keeps its types");
    }
}
