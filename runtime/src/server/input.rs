//! A request's parameters and body, read by generated code into the operation's typed request
//! with every problem collected.

use super::ApiError;
use crate::defaults::MAX_LISTED_VIOLATIONS;
use crate::json::{FromJson, Mode};
use crate::media::{Encoding, FilePart};
use crate::params::FromParam;
use crate::validate::{Validate, Validator, Violation};
use axum::body::Bytes;
use axum::http::HeaderMap;
use std::borrow::Cow;

/// A request's parameters and body, read by generated code into the operation's typed
/// request. Every problem is collected; [`Input::finish`] answers them all at once.
pub struct Input {
    /// The path parameters by wire name, each given to the first read of it.
    path: Vec<(Cow<'static, str>, PathValue)>,
    query: Vec<(String, String, bool)>,
    headers: HeaderMap,
    /// The cookies of the `Cookie` headers, read on first use.
    cookies: Option<Vec<(String, String)>>,
    body: Bytes,
    /// The body as a stream, for an operation taking raw bytes (not buffered).
    stream: Option<super::BodyStream>,
    /// The fields of a form or multipart body, found on first use.
    form: Option<Form>,
    /// Most fields a form may have ([`super::ServerConfig::max_form_fields`]).
    max_form_fields: usize,
    has_body: bool,
    violations: Vec<Violation>,
    /// Violations found and counted but never built (a body's past the listed ones).
    unlisted: usize,
    syntax: Option<String>,
    /// The answer to a request refused whole (a form of too many fields), whatever else is
    /// wrong with it.
    refused: Option<ApiError>,
    /// A multipart body's parts: each name and `Content-Type` as sent, in order.
    part_types: Vec<(String, Option<String>)>,
}

/// A path parameter as the router matched it.
#[derive(Debug)]
pub(crate) struct PathValue {
    /// Percent-decoded: what generated code reads.
    pub(crate) decoded: String,
    /// As sent, still percent-encoded: where a style's prefix (`;rev=`) is looked for, so an
    /// encoded delimiter (`%3Brev=a`) is data, never the delimiter.
    pub(crate) raw: String,
}

/// The fields of a form body, found once.
///
/// A urlencoded form is the body (held already) plus 8 bytes a pair: where the pair is, and
/// whether it was read; a pair is decoded each time a field is looked up. As a pair takes at
/// least 2 bytes (`a&`), the fields cost at most 4 times the body: a 2 MB form of 1,000,000
/// pairs held 138 MiB as owned strings, it holds 8 MB this way.
enum Form {
    /// `application/x-www-form-urlencoded`.
    Pairs(Vec<Pair>),
    /// `multipart/form-data`: each part (its bytes shared with the body), whether it was read.
    Parts(Vec<(String, FormValue, bool)>),
}

/// One `name=value` of a urlencoded form: its bytes `start..end` of the body (both under
/// 2^31), the top bit of `end` set once it was read.
#[derive(Debug, Clone, Copy)]
struct Pair {
    start: u32,
    end: u32,
}

const READ: u32 = 1 << 31;

impl Pair {
    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.end & !READ) as usize
    }

    fn was_read(self) -> bool {
        self.end & READ != 0
    }

    /// The name and value, decoded as `form_urlencoded` does (`+` is a space, `%XX` a byte,
    /// invalid UTF-8 replaced).
    fn decode(self, body: &[u8]) -> (std::borrow::Cow<'_, str>, std::borrow::Cow<'_, str>) {
        form_urlencoded::parse(&body[self.range()]).next().unwrap_or_default()
    }
}

/// The pairs of a urlencoded form (its non-empty `&`-separated pieces, as `form_urlencoded`
/// reads them), or the refusal of one with more than `max` or of 2 GiB or more.
fn pairs(body: &[u8], max: usize) -> Result<Vec<Pair>, ApiError> {
    if body.len() >= READ as usize {
        return Err(super::too_large(READ as usize - 1));
    }
    let pieces = || body.split(|&b| b == b'&').filter(|piece| !piece.is_empty());
    let count = pieces().count();
    if count > max {
        return Err(ApiError::bad_request(format!("the form has {count} fields; the limit is {max}")));
    }
    let mut pairs = Vec::with_capacity(count);
    let mut start = 0;
    for piece in body.split(|&b| b == b'&') {
        let end = start + piece.len();
        if !piece.is_empty() {
            pairs.push(Pair { start: start as u32, end: end as u32 });
        }
        start = end + 1;
    }
    Ok(pairs)
}

/// Where a parameter is read from: the prefix of its violations (`query.limit`).
#[derive(Debug, Clone, Copy)]
enum Place {
    Path,
    Query,
    Header,
    Cookie,
}

impl Place {
    fn at(self, name: &str) -> String {
        let place = match self {
            Place::Path => "path",
            Place::Query => "query",
            Place::Header => "header",
            Place::Cookie => "cookie",
        };
        format!("{place}.{name}")
    }
}

impl Input {
    pub(crate) fn new(
        path: Vec<(Cow<'static, str>, PathValue)>,
        query: &str,
        headers: HeaderMap,
        body: Bytes,
        has_body: bool,
    ) -> Self {
        let query =
            form_urlencoded::parse(query.as_bytes()).map(|(k, v)| (k.into_owned(), v.into_owned(), false)).collect();
        Input {
            path,
            query,
            headers,
            cookies: None,
            body,
            stream: None,
            form: None,
            max_form_fields: crate::defaults::DEFAULT_MAX_FORM_FIELDS,
            has_body,
            violations: Vec::new(),
            unlisted: 0,
            syntax: None,
            refused: None,
            part_types: Vec::new(),
        }
    }

    /// The input with this limit on the fields of a form body (the router's
    /// [`super::ServerConfig::max_form_fields`]).
    #[must_use]
    pub(crate) fn with_max_form_fields(mut self, max: usize) -> Self {
        self.max_form_fields = max;
        self
    }

    /// An input built by hand, for tests of generated parsing.
    pub fn for_test(path: &[(&str, &str)], query: &str, body: &str, has_body: bool) -> Self {
        let value = |v: &str| PathValue { decoded: v.to_owned(), raw: v.to_owned() };
        let path = path.iter().map(|(k, v)| (Cow::Owned((*k).to_owned()), value(v))).collect();
        Input::new(path, query, HeaderMap::new(), Bytes::copy_from_slice(body.as_bytes()), has_body)
    }

    /// The input with these request headers (header and cookie parameters), for tests.
    #[must_use]
    pub fn with_headers(mut self, headers: HeaderMap) -> Self {
        self.headers = headers;
        self.cookies = None;
        self
    }

    /// The request headers, taken back once parsing is done (the handler's context holds
    /// them).
    pub(crate) fn take_headers(&mut self) -> HeaderMap {
        std::mem::take(&mut self.headers)
    }

    /// The input of an operation taking raw bytes: the body streamed to the handler.
    pub(crate) fn with_stream(mut self, stream: super::BodyStream) -> Self {
        self.stream = Some(stream);
        self
    }

    /// Marks the query parameter `name` as read (an API key the router took as a credential).
    pub(crate) fn accept_query(&mut self, name: &str) {
        for (key, _, used) in &mut self.query {
            *used |= key == name;
        }
    }

    fn fail(&mut self, path: String, message: impl Into<String>) {
        self.violations.push(Violation::new(path, message));
    }

    /// A path parameter (always present: the route matched it). Each is read once: a second
    /// read of the same name is empty.
    pub fn path(&mut self, name: &str) -> String {
        self.path.iter_mut().find(|(k, _)| k == name).map(|(_, v)| std::mem::take(&mut v.decoded)).unwrap_or_default()
    }

    /// Takes the prefix of a path parameter written after a dot or after its name (OpenAPI's
    /// `label`, `.5`, and `matrix`, `;id=5`) off its value before it is read; a value without
    /// it is a violation at `path.<name>`. The prefix is looked for in the path as sent: a
    /// percent-encoded `.` or `;` is part of the value.
    pub fn path_prefix(&mut self, name: &str, prefix: &str) {
        let Some((_, value)) = self.path.iter_mut().find(|(k, _)| k == name) else { return };
        match value.raw.strip_prefix(prefix) {
            Some(rest) => {
                // The rest of a value that decoded as UTF-8 whole, after ASCII text: UTF-8.
                value.decoded = String::from_utf8_lossy(&super::dispatch::percent_decode(rest)).into_owned();
                value.raw = rest.to_owned();
            }
            None => {
                let message = format!("is written `{prefix}` and the value");
                self.fail(format!("path.{name}"), message);
            }
        }
    }

    /// A path parameter of another type than text (integer, number, boolean, date-time); a
    /// value that does not parse is a violation at `path.<name>`.
    pub fn path_as<T: FromParam>(&mut self, name: &str) -> Option<T> {
        let text = self.path(name);
        self.parse(Place::Path, name, &text)
    }

    /// A path parameter holding a list: one segment of comma-separated items (OpenAPI's
    /// `simple` style, `/users/1,2`), each parsed; a bad item is a violation at
    /// `path.<name>`, and an empty segment no item.
    pub fn path_list<T: FromParam>(&mut self, name: &str) -> Vec<T> {
        let text = self.path(name);
        text.split(',').filter(|item| !item.is_empty()).filter_map(|item| self.parse(Place::Path, name, item)).collect()
    }

    /// A path parameter of a union of scalars (`integer` or `string`), decoded from its text
    /// as a form's value is (the first variant the text fits, in declared order) and
    /// validated; a violation is named `path.<name>`.
    pub fn path_decoded<T: FromJson + Validate>(&mut self, name: &str) -> Option<T> {
        let text = self.path(name);
        let decoded = crate::json::decode_query::<T>(serde_json::Value::String(text));
        self.validated(decoded, &format!("path.{name}"))
    }

    /// An optional query parameter; given twice is a violation.
    pub fn query<T: FromParam>(&mut self, name: &str) -> Option<T> {
        self.one(Place::Query, name, false)
    }

    /// A required query parameter.
    pub fn query_required<T: FromParam>(&mut self, name: &str) -> Option<T> {
        self.one(Place::Query, name, true)
    }

    /// A query parameter whose empty value (`limit=`) is the parameter left out (OpenAPI's
    /// `allowEmptyValue` on a value that is not text): its default applies, or it is missing.
    pub fn query_unless_empty<T: FromParam>(&mut self, name: &str, required: bool) -> Option<T> {
        let mut values = self.values(Place::Query, name);
        values.retain(|value| !value.is_empty());
        self.single(Place::Query, name, &values, required)
    }

    /// A list-valued query parameter, sent as repeated keys.
    pub fn query_list<T: FromParam>(&mut self, name: &str) -> Vec<T> {
        self.list(Place::Query, name)
    }

    /// A list-valued query parameter sent as one value of items separated by `delimiter`
    /// (`ids=1,2`: `form` with `explode: false`, `spaceDelimited`, `pipeDelimited`); repeated
    /// keys add their items, and an empty value is no item.
    pub fn query_delimited<T: FromParam>(&mut self, name: &str, delimiter: char) -> Vec<T> {
        let values = self.values(Place::Query, name);
        let items = values.iter().filter(|value| !value.is_empty()).flat_map(|value| value.split(delimiter));
        let items: Vec<String> = items.map(str::to_owned).collect();
        items.iter().filter_map(|item| self.parse(Place::Query, name, item)).collect()
    }

    /// A list-valued query parameter sent in brackets (`expand[]=a&expand[]=b`: `deepObject`
    /// on a list, as Stripe's API reads it); indexes (`expand[0]=a`, which give the order) and
    /// repeated keys (`expand=a`) are read too, as clients write them.
    pub fn query_brackets<T: FromParam>(&mut self, name: &str) -> Vec<T> {
        let mut found: Vec<(u64, u64, String)> = Vec::new();
        for (position, (key, value, used)) in self.query.iter_mut().enumerate() {
            let index = match key.strip_prefix(name) {
                Some("" | "[]") => Some(u64::MAX),
                Some(rest) => rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')).and_then(|i| i.parse().ok()),
                None => None,
            };
            if let Some(index) = index {
                *used = true;
                found.push((index, position as u64, value.clone()));
            }
        }
        // Indexes give the order; unindexed items keep theirs, after them.
        found.sort_by_key(|(index, position, _)| (*index, *position));
        let at = format!("{name}[]");
        found.iter().filter_map(|(_, _, value)| self.parse(Place::Query, &at, value)).collect()
    }

    /// An object (or union) query parameter, decoded strictly and validated like a form body
    /// of nested values (see [`crate::form`]), each violation named by its key in the query
    /// (`query.filter[status]`). With `fields` `None` (`style: deepObject`, or a union) its
    /// pairs are those under its name (`filter[status]=open`, `created=5`); with
    /// `Some(fields)` (`style: form`, exploded) they are the object's fields given as query
    /// parameters of their own (`status=open&limit=2`), and the object is absent only when
    /// none is given. An empty value is an empty string (`filter=` is no object), as OpenAPI
    /// writes an empty object or list as nothing. `None` when absent (a violation when
    /// `required`) or invalid.
    pub fn query_object<T: FromJson + Validate>(
        &mut self,
        name: &str,
        fields: Option<&[&str]>,
        required: bool,
    ) -> Option<T> {
        let mut pairs: Vec<(Cow<'_, str>, Cow<'_, str>)> = Vec::new();
        for (key, value, used) in &mut self.query {
            let (field, _) = key.split_once('[').unwrap_or((key.as_str(), ""));
            let ours = match fields {
                None => field == name,
                Some(fields) => fields.contains(&field),
            };
            if ours {
                *used = true;
                pairs.push((Cow::Borrowed(key.as_str()), Cow::Borrowed(value.as_str())));
            }
        }
        let absent = pairs.is_empty() && (fields.is_none() || !required);
        if absent {
            if required {
                self.violations.push(Violation::new(format!("query.{name}"), "is required"));
            }
            return None;
        }
        let empty_property = fields.is_none() && pairs.iter().any(|(key, _)| key.starts_with(&format!("{name}[]")));
        let read = object_of_pairs::<T>(name, fields, crate::form::from_pairs(pairs.iter().cloned()));
        let read = match read {
            // deepObject's first bracket names a property: `sort_by[]=a` is the property `""`
            // of an object (schemathesis writes a free-form object's key `""` so), read so when
            // the brackets read as a list do not give a valid value.
            Err(_) if empty_property => {
                object_of_pairs::<T>(name, fields, crate::form::from_pairs_keyed(pairs)).or(read)
            }
            read => read,
        };
        match read {
            Ok(decoded) => Some(decoded),
            Err(violations) => {
                self.violations.extend(violations);
                None
            }
        }
    }

    /// A query parameter written as JSON (OpenAPI's `content: application/json`:
    /// `filter={"a":1}`), parsed strictly, decoded and validated like a JSON body, each
    /// violation named `query.filter/a`. `None` when absent (a violation when `required`),
    /// given twice, or invalid.
    pub fn query_json<T: FromJson + Validate>(&mut self, name: &str, required: bool) -> Option<T> {
        self.json(Place::Query, name, required)
    }

    /// A header parameter written as JSON, as [`Input::query_json`] reads a query one.
    pub fn header_json<T: FromJson + Validate>(&mut self, name: &str, required: bool) -> Option<T> {
        self.json(Place::Header, name, required)
    }

    fn json<T: FromJson + Validate>(&mut self, place: Place, name: &str, required: bool) -> Option<T> {
        let values = self.values(place, name);
        let text = match values.as_slice() {
            [] => {
                if required {
                    self.fail(place.at(name), "is required");
                }
                return None;
            }
            [text] => text,
            _ => {
                self.fail(place.at(name), "is given more than once");
                return None;
            }
        };
        let at = place.at(name);
        let value = self.strict_json(text.as_bytes(), &at)?;
        self.validated(crate::json::decode::<T>(value, Mode::Strict), &at)
    }

    /// A JSON value given as one parameter or form part, parsed strictly: its syntax error, or
    /// each repeated key by its pointer, recorded under `at`.
    fn strict_json(&mut self, bytes: &[u8], at: &str) -> Option<serde_json::Value> {
        match crate::json::parse_strict(bytes) {
            Ok(value) => Some(value),
            Err(crate::json::StrictParseError::Syntax(error)) => {
                self.fail(at.to_owned(), format!("is not valid JSON: {error}"));
                None
            }
            Err(crate::json::StrictParseError::DuplicateKeys(paths)) => {
                for path in paths {
                    self.fail(format!("{at}{path}"), "is given more than once in the object");
                }
                None
            }
        }
    }

    /// A value decoded, then validated; its violations recorded under `at` (`path.key`,
    /// `query.bounds`: a JSON pointer inside the value follows).
    fn validated<T: Validate>(&mut self, decoded: Result<T, crate::validate::Violations>, at: &str) -> Option<T> {
        match decoded.and_then(|decoded| decoded.validate().map(|()| decoded)) {
            Ok(decoded) => Some(decoded),
            Err(found) => {
                let named = found.0.into_iter().map(|v| Violation::new(format!("{at}{}", v.path), v.message));
                self.violations.extend(named);
                None
            }
        }
    }

    /// An optional header parameter (its name compared without case); given twice is a
    /// violation at `header.<name>`.
    pub fn header<T: FromParam>(&mut self, name: &str) -> Option<T> {
        self.one(Place::Header, name, false)
    }

    /// A required header parameter.
    pub fn header_required<T: FromParam>(&mut self, name: &str) -> Option<T> {
        self.one(Place::Header, name, true)
    }

    /// A list-valued header parameter: comma-separated values, in one header or several.
    pub fn header_list<T: FromParam>(&mut self, name: &str) -> Vec<T> {
        self.list(Place::Header, name)
    }

    /// An optional cookie parameter (its value percent-decoded); given twice is a violation
    /// at `cookie.<name>`.
    pub fn cookie<T: FromParam>(&mut self, name: &str) -> Option<T> {
        self.one(Place::Cookie, name, false)
    }

    /// A required cookie parameter.
    pub fn cookie_required<T: FromParam>(&mut self, name: &str) -> Option<T> {
        self.one(Place::Cookie, name, true)
    }

    /// The values given for `name` at `place`, as text; header values that are not visible
    /// ASCII are violations.
    /// Whether the query gives `name` at all (`ids=`, `ids[]=a`, `ids[0]=a`): an optional
    /// list given no key is absent, and its item counts are not checked.
    pub fn query_given(&self, name: &str) -> bool {
        self.query
            .iter()
            .any(|(key, _, _)| key.strip_prefix(name).is_some_and(|rest| rest.is_empty() || rest.starts_with('[')))
    }

    fn values(&mut self, place: Place, name: &str) -> Vec<String> {
        match place {
            Place::Path => vec![self.path(name)],
            Place::Query => {
                let mut values = Vec::new();
                for (key, value, used) in &mut self.query {
                    if key == name {
                        *used = true;
                        values.push(value.clone());
                    }
                }
                values
            }
            Place::Header => {
                let mut values = Vec::new();
                let mut invalid = false;
                for value in self.headers.get_all(name) {
                    match value.to_str() {
                        Ok(text) => values.push(text.trim().to_owned()),
                        Err(_) => invalid = true,
                    }
                }
                if invalid {
                    self.fail(place.at(name), "is not visible ASCII text");
                }
                values
            }
            Place::Cookie => {
                let headers = &self.headers;
                let cookies = self.cookies.get_or_insert_with(|| read_cookies(headers));
                cookies.iter().filter(|(key, _)| key == name).map(|(_, value)| value.clone()).collect()
            }
        }
    }

    fn one<T: FromParam>(&mut self, place: Place, name: &str, required: bool) -> Option<T> {
        let values = self.values(place, name);
        self.single(place, name, &values, required)
    }

    /// The one value of a parameter given `values`: none is a violation when it is required,
    /// and more than one always.
    fn single<T: FromParam>(&mut self, place: Place, name: &str, values: &[String], required: bool) -> Option<T> {
        match values {
            [] if required => {
                self.fail(place.at(name), "is required");
                None
            }
            [] => None,
            [value] => self.parse(place, name, value),
            _ => {
                self.fail(place.at(name), "is given more than once");
                None
            }
        }
    }

    fn list<T: FromParam>(&mut self, place: Place, name: &str) -> Vec<T> {
        let mut values = self.values(place, name);
        if let Place::Header = place {
            values = values
                .iter()
                .flat_map(|v| v.split(','))
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
                .collect();
        }
        values.iter().filter_map(|value| self.parse(place, name, value)).collect()
    }

    fn parse<T: FromParam>(&mut self, place: Place, name: &str, value: &str) -> Option<T> {
        match T::from_param(value) {
            Ok(parsed) => Some(parsed),
            Err(message) => {
                self.fail(place.at(name), message);
                None
            }
        }
    }

    /// Checks a parameter's value; `location` is `path.<name>`, `query.<name>`,
    /// `header.<name>` or `cookie.<name>`.
    pub fn check(&mut self, location: &str, check: impl FnOnce(&mut Validator)) {
        let mut validator = Validator::rooted(location);
        check(&mut validator);
        if let Err(found) = validator.finish() {
            self.violations.extend(found.0);
        }
    }

    /// Checks a parameter's value, when given, against its type's own rules (a closed
    /// enumeration's list); `location` as for [`Input::check`]. An enumeration parameter's
    /// reading is this one call, not a closure of its own in each operation.
    pub fn validate<T: Validate>(&mut self, location: &str, value: Option<&T>) {
        if let Some(value) = value {
            self.check(location, |validator| value.validate_into(validator));
        }
    }

    /// The JSON body, decoded strictly and validated. `None` when absent (allowed only when
    /// `required` is false) or invalid (the problems are recorded). An optional object body
    /// given as JSON `null` is refused: `null` is not an instance of its schema (where the
    /// document's schema gives no `type`, it is, and [`Input::untyped_body`] reads it).
    pub fn body<T: FromJson + Validate>(&mut self, required: bool) -> Option<T> {
        if self.body_is_empty() {
            if required {
                self.fail(String::new(), "a JSON body is required");
            }
            return None;
        }
        // Checked whole first (syntax, keys given twice), then decoded straight from the text:
        // no tree of the body is built.
        let text = match crate::json::check_strict(&self.body) {
            Ok(text) => text,
            Err(crate::json::StrictParseError::Syntax(error)) => {
                self.syntax = Some(format!("the body is not valid JSON: {error}"));
                return None;
            }
            Err(crate::json::StrictParseError::DuplicateKeys(paths)) => {
                for path in paths {
                    self.fail(path, "is given more than once in the object");
                }
                return None;
            }
        };
        // Past the listed violations, the rest are counted and never built.
        let decoded = crate::json::decode_capped::<T>(text, MAX_LISTED_VIOLATIONS).and_then(|decoded| {
            let mut validator = Validator::capped(MAX_LISTED_VIOLATIONS);
            decoded.validate_into(&mut validator);
            validator.finish_capped().map(|()| decoded)
        });
        match decoded {
            Ok(decoded) => Some(decoded),
            Err(found) => {
                self.unlisted += found.all - found.listed.len();
                self.violations.extend(found.listed);
                None
            }
        }
    }

    /// The JSON body where the document's schema gives an object's properties without `type:
    /// object` (spec key `untyped`). By JSON Schema such a schema constrains objects only: a
    /// value that is not an object (`null`, `true`, `3`, `"x"`, `[]`) fits it and carries
    /// none of its properties, so it reads as the body left out: `None`, no violation. The
    /// rest is read as [`Input::body`] reads it: nothing sent is refused when `required`,
    /// text that is not JSON (or repeats a key) is refused, and an object is decoded and
    /// validated whole, each violation named.
    pub fn untyped_body<T: FromJson + Validate>(&mut self, required: bool) -> Option<T> {
        let first = self.body.iter().find(|b| !b.is_ascii_whitespace());
        let not_an_object = first.is_some_and(|b| *b != b'{');
        if not_an_object && crate::json::check_strict(&self.body).is_ok() {
            return None;
        }
        self.body(required)
    }

    /// The JSON body where the document's schema admits `null` (spec key `nullable` on the
    /// body: OpenAPI 3.0's `nullable: true`, 3.1's `type: [object, "null"]`). JSON `null`
    /// reads as the body left out: `None`, no violation, required or not (a required body
    /// must still send something: nothing sent is refused as [`Input::body`] refuses it).
    /// Any other value is read as [`Input::body`] reads it: `"x"` is still refused.
    pub fn nullable_body<T: FromJson + Validate>(&mut self, required: bool) -> Option<T> {
        if self.body.trim_ascii() == b"null" {
            return None;
        }
        self.body(required)
    }

    /// True when the request carries no body (none, or only whitespace) and names no media
    /// type for one: an optional form body read field by field is then absent, not a form
    /// missing its required fields. An empty body sent as a form is a form without fields,
    /// as for a required one ([`Input::required_form`]).
    pub fn body_is_empty(&self) -> bool {
        !self.headers.contains_key(axum::http::header::CONTENT_TYPE) && self.body.iter().all(u8::is_ascii_whitespace)
    }

    /// A form body (urlencoded, or multipart without files) of nested objects and lists
    /// (`items[0][price]=x`, see [`crate::form`]),
    /// decoded strictly and validated like a JSON body, every violation named by its key in
    /// the form (`items[0][price]`). `None` when absent (allowed only when `required` is
    /// false) or invalid (the problems are recorded).
    pub fn form_body<T: FromJson + Validate>(&mut self, required: bool) -> Option<T> {
        if self.body_is_empty() {
            if required {
                self.fail(String::new(), "a form body is required");
            }
            return None;
        }
        self.form_fields();
        let (tree, problems) = match self.form.as_mut() {
            Some(Form::Pairs(pairs)) => {
                for pair in pairs.iter_mut() {
                    pair.end |= READ;
                }
                let body = &self.body;
                crate::form::from_pairs(pairs.iter().map(|pair| pair.decode(body)))
            }
            Some(Form::Parts(parts)) => {
                let mut files = Vec::new();
                let mut texts = Vec::new();
                for (name, value, read) in parts.iter_mut() {
                    *read = true;
                    match value {
                        FormValue::Text(text) => {
                            texts.push((Cow::Borrowed(name.as_str()), Cow::Borrowed(text.as_str())))
                        }
                        FormValue::File(_) => {
                            files.push(Violation::new(name.clone(), "is a file; a value was expected"))
                        }
                    }
                }
                let (tree, mut problems) = crate::form::from_pairs(texts);
                problems.extend(files);
                (tree, problems)
            }
            None => return None,
        };
        if !problems.is_empty() {
            self.violations.extend(problems);
            return None;
        }
        let decoded = crate::json::decode_form::<T>(tree).and_then(|decoded| decoded.validate().map(|()| decoded));
        match decoded {
            Ok(decoded) => Some(decoded),
            Err(found) => {
                let named =
                    found.0.into_iter().map(|v| Violation::new(crate::form::key_of_pointer(&v.path), v.message));
                self.violations.extend(named);
                None
            }
        }
    }

    /// The raw body, streamed (for an operation whose body is `bytes`); the body limit is
    /// enforced while it streams. A `required` body is a violation when the request sends
    /// none: no `Content-Type` and no bytes declared (an empty file sent with its media type
    /// is a body).
    pub fn stream_body(&mut self, required: bool) -> super::BodyStream {
        if required && !self.sends_body() {
            self.fail(String::new(), "a body is required");
        }
        self.stream.take().unwrap_or_else(super::BodyStream::empty)
    }

    /// The raw body, read whole (a raw alternative of a body offered in several media types,
    /// read under [`super::ServerConfig::body_limit`] as the others are; a body that is raw
    /// bytes alone streams instead, see [`Input::stream_body`]). `None` when the request sends
    /// none (a violation when `required`); an empty file sent with its media type is a body.
    pub fn bytes_body(&mut self, required: bool) -> Option<Bytes> {
        if !self.sends_body() {
            if required {
                self.fail(String::new(), "a body is required");
            }
            return None;
        }
        Some(self.body.clone())
    }

    /// Whether the request's `Content-Type` is one of `media_types` (compared by essence, as
    /// the router compares them; any JSON media type stands for every JSON one): which
    /// alternative of a body offered in several media types came. `false` without one.
    pub fn content_in(&self, media_types: &[&str]) -> bool {
        let content_type = self.headers.get(axum::http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
        content_type.is_some_and(|given| crate::media::accepts(media_types, given).is_some())
    }

    /// For an operation whose form body (read field by field) is required: whether the request
    /// sends one, a violation when it does not (no `Content-Type` and no bytes). An empty form
    /// sent with its media type is a form without fields.
    pub fn required_form(&mut self) -> bool {
        let sent = self.sends_body();
        if !sent {
            self.fail(String::new(), "a form body is required");
        }
        sent
    }

    /// Reads a form body of no fields the operation accepts: each field it gives is then
    /// refused by [`Input::finish`] as a field of no such form.
    pub fn empty_form(&mut self) {
        self.form_fields();
    }

    /// For a form whose object ignores undeclared fields (`unknown_fields: ignore`, what an
    /// imported document's open objects say): every field the operation did not read is
    /// dropped, never refused by [`Input::finish`]. Called after the declared fields are read.
    pub fn ignore_other_form_fields(&mut self) {
        match self.form_fields() {
            Form::Pairs(pairs) => pairs.iter_mut().for_each(|pair| pair.end |= READ),
            Form::Parts(parts) => parts.iter_mut().for_each(|(_, _, read)| *read = true),
        }
    }

    /// Whether the request sends a body: a `Content-Type`, or bytes declared (a length above
    /// zero, or a chunked transfer).
    fn sends_body(&self) -> bool {
        use axum::http::header;
        [header::CONTENT_TYPE, header::TRANSFER_ENCODING].iter().any(|h| self.headers.contains_key(h))
            || self.headers.get(header::CONTENT_LENGTH).is_some_and(|length| length.as_bytes() != b"0")
            || !self.body.is_empty()
    }

    /// The body as text (a `string` body: `text/*`, XML, a urlencoded form passed raw). `None`
    /// when absent (a violation when `required`) or not UTF-8 (a violation of `body` saying
    /// where the text stops being UTF-8).
    pub fn text_body(&mut self, required: bool) -> Option<String> {
        if self.body.is_empty() {
            if required {
                self.fail(String::new(), "a body is required");
            }
            return None;
        }
        match std::str::from_utf8(&self.body) {
            Ok(text) => Some(text.to_owned()),
            Err(error) => {
                let at = error.valid_up_to();
                self.fail("body".to_owned(), format!("is not UTF-8 text (from byte {at})"));
                None
            }
        }
    }

    /// Whether the body is a form (`application/x-www-form-urlencoded` or `multipart/form-data`),
    /// for an operation taking either a form or JSON.
    pub fn is_form(&self) -> bool {
        matches!(self.encoding(), Encoding::Form | Encoding::Multipart)
    }

    /// Whether the body is `multipart/form-data`, for an operation taking a form both ways,
    /// whose urlencoded form nests in brackets where a multipart one sends a nested value as
    /// one JSON part.
    pub fn is_multipart(&self) -> bool {
        self.encoding() == Encoding::Multipart
    }

    fn encoding(&self) -> Encoding {
        let content_type = self.headers.get(axum::http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
        content_type.map_or(Encoding::Json, crate::media::encoding)
    }

    /// Finds the fields of a form body once (urlencoded or multipart, by its `Content-Type`);
    /// a form of too many fields is refused and read as empty.
    fn form_fields(&mut self) -> &mut Form {
        if self.form.is_none() {
            let form = match self.encoding() {
                Encoding::Multipart => Form::Parts(self.multipart_fields()),
                _ => Form::Pairs(pairs(&self.body, self.max_form_fields).unwrap_or_else(|refusal| {
                    self.refused = Some(refusal);
                    Vec::new()
                })),
            };
            self.form = Some(form);
        }
        self.form.get_or_insert(Form::Pairs(Vec::new()))
    }

    fn multipart_fields(&mut self) -> Vec<(String, FormValue, bool)> {
        let content_type = self.headers.get(axum::http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
        let max = self.max_form_fields;
        let parts = match content_type.and_then(crate::media::boundary) {
            Some(boundary) => crate::media::parse_parts(&self.body, &boundary, max),
            None => Err("the multipart content type names no boundary".into()),
        };
        match parts {
            Ok((_, count)) if count > max => {
                self.refused = Some(ApiError::bad_request(format!("the form has {count} fields; the limit is {max}")));
                Vec::new()
            }
            Ok((parts, _)) => parts
                .into_iter()
                .map(|part| {
                    self.part_types.push((part.name.clone(), part.content_type.clone()));
                    let value = match part.file_name {
                        Some(_) => FormValue::File(FilePart {
                            file_name: part.file_name,
                            content_type: part.content_type,
                            bytes: part.bytes,
                        }),
                        None => FormValue::Text(String::from_utf8_lossy(&part.bytes).into_owned()),
                    };
                    (part.name, value, false)
                })
                .collect(),
            Err(message) => {
                self.syntax = Some(format!("the body is not a valid multipart form: {message}"));
                Vec::new()
            }
        }
    }

    /// Refuses the request whole, **415** in the API's error body naming the part, when a part
    /// named `name` of a multipart body is sent in a media type `allowed` (the field's
    /// declared ones, OpenAPI's `encoding.<field>.contentType`; ranges allowed) does not take;
    /// a part without `Content-Type` is `text/plain`, as RFC 7578 §4.4 reads it. 415 rather
    /// than 400: the request is well formed, and its content is in a format the operation does
    /// not take, which is what the router answers a body's own media type with too.
    pub fn part_type(&mut self, name: &str, allowed: &[&str]) {
        self.form_fields();
        if self.refused.is_some() {
            return;
        }
        let refused = self.part_types.iter().find(|(part, sent)| {
            part == name && crate::media::accepts(allowed, sent.as_deref().unwrap_or("text/plain")).is_none()
        });
        if let Some((_, sent)) = refused {
            let sent = match sent {
                Some(sent) => format!("as `{sent}`"),
                None => "without `Content-Type` (read as `text/plain`)".to_owned(),
            };
            let message =
                format!("the part `{name}` must be sent as one of: {}; it was sent {sent}", allowed.join(", "));
            self.refused = Some(ApiError::new(axum::http::StatusCode::UNSUPPORTED_MEDIA_TYPE, message));
        }
    }

    /// The fields of a multipart form no declared field read, each by its name read with
    /// `read` (as a declared field of the extras' type is: its violations named under the
    /// name): what a form keeping undeclared fields beside its files (`additional_properties`)
    /// hands the handler in `extra`. Called after the declared fields are read.
    pub fn form_extras<T>(
        &mut self,
        mut read: impl FnMut(&mut Self, &str) -> Option<T>,
    ) -> std::collections::BTreeMap<String, T> {
        self.form_fields();
        let mut names: Vec<String> = match self.form.as_ref() {
            Some(Form::Parts(parts)) => {
                parts.iter().filter(|(_, _, read)| !read).map(|(name, _, _)| name.clone()).collect()
            }
            _ => Vec::new(),
        };
        names.dedup();
        names.into_iter().filter_map(|name| read(self, &name).map(|value| (name, value))).collect()
    }

    /// Calls `seen` with every value given for form field `name`, in order, each marked read.
    fn visit_form(&mut self, name: &str, mut seen: impl FnMut(&FormValueRef<'_>)) {
        self.form_fields();
        match self.form.as_mut() {
            Some(Form::Pairs(pairs)) => {
                for pair in pairs.iter_mut() {
                    let (key, value) = pair.decode(&self.body);
                    if key == name {
                        seen(&FormValueRef::Text(&value));
                        pair.end |= READ;
                    }
                }
            }
            Some(Form::Parts(parts)) => {
                for (key, value, read) in parts.iter_mut() {
                    if key == name {
                        seen(&match value {
                            FormValue::Text(text) => FormValueRef::Text(text),
                            FormValue::File(file) => FormValueRef::File(file),
                        });
                        *read = true;
                    }
                }
            }
            None => {}
        }
    }

    /// The values given for form field `name`, at most `most` of them, and how many there
    /// are; every one is marked read.
    fn take_form(&mut self, name: &str, most: usize) -> (Vec<FormValue>, usize) {
        let mut values = Vec::new();
        let mut count = 0;
        self.visit_form(name, |value| {
            count += 1;
            if values.len() < most {
                values.push(match value {
                    FormValueRef::Text(text) => FormValue::Text((*text).to_owned()),
                    FormValueRef::File(file) => FormValue::File((*file).clone()),
                });
            }
        });
        (values, count)
    }

    /// A form field (a scalar or enumeration as text), at `/<name>`; given twice is a
    /// violation, and so is a missing one when `required`.
    pub fn form_field<T: FromParam>(&mut self, name: &str, required: bool) -> Option<T> {
        let at = pointer(name);
        // One value is read, and whether there are more: a field repeated a million times
        // is not copied a million times.
        let (values, count) = self.take_form(name, 1);
        match (values.as_slice(), count) {
            (_, 2..) => {
                self.fail(at, "is given more than once");
                None
            }
            ([], _) if required => {
                self.fail(at, "is required");
                None
            }
            ([FormValue::Text(text)], _) => self.parse_form(&at, text),
            ([FormValue::File(_)], _) => {
                self.fail(at, "is a file; a value was expected");
                None
            }
            _ => None,
        }
    }

    /// A list-valued form field: repeated keys.
    pub fn form_list<T: FromParam>(&mut self, name: &str) -> Vec<T> {
        // Each value is parsed where it is found, never copied first.
        let (mut parsed, mut failures) = (Vec::new(), Vec::new());
        self.visit_form(name, |value| match value {
            FormValueRef::Text(text) => match T::from_param(text) {
                Ok(value) => parsed.push(value),
                Err(message) => failures.push(message),
            },
            FormValueRef::File(_) => failures.push("is a file; a value was expected".to_owned()),
        });
        let at = pointer(name);
        for message in failures {
            self.fail(at.clone(), message);
        }
        parsed
    }

    /// A file part of a multipart body; a missing one is a violation when `required`.
    pub fn form_file(&mut self, name: &str, required: bool) -> Option<FilePart> {
        let at = pointer(name);
        let mut files = self.form_files(name);
        match files.len() {
            0 if required => {
                self.fail(at, "is required (a file)");
                None
            }
            0 | 1 => files.pop(),
            _ => {
                self.fail(at, "is given more than once");
                None
            }
        }
    }

    /// Every file part named `name` of a multipart body.
    pub fn form_files(&mut self, name: &str) -> Vec<FilePart> {
        let at = pointer(name);
        let (values, _) = self.take_form(name, usize::MAX);
        values
            .into_iter()
            .filter_map(|value| match value {
                FormValue::File(file) => Some(file),
                FormValue::Text(_) => {
                    self.fail(at.clone(), "is a value; a file was expected");
                    None
                }
            })
            .collect()
    }

    /// A field of a multipart body that is not a scalar (an object, a map, a list of objects,
    /// JSON): ONE part holding its JSON, as OpenAPI's `encoding` defaults say (a part of type
    /// `application/json`; a part sent without `Content-Type`, or as a file, is read the same
    /// way). Decoded strictly, each violation named under the field (`/meta/size`); the
    /// constraints are checked with the whole body ([`Input::check_body`]). `None` when absent
    /// (a violation when `required`), given twice, or invalid.
    pub fn form_json<T: FromJson>(&mut self, name: &str, required: bool) -> Option<T> {
        let at = pointer(name);
        let (values, count) = self.take_form(name, 1);
        let bytes = match (values.as_slice(), count) {
            (_, 2..) => {
                self.fail(at, "is given more than once");
                return None;
            }
            ([], _) => {
                if required {
                    self.fail(at, "is required");
                }
                return None;
            }
            ([FormValue::Text(text)], _) => Bytes::copy_from_slice(text.as_bytes()),
            ([FormValue::File(file)], _) => file.bytes.clone(),
            _ => return None,
        };
        let value = self.strict_json(&bytes, &at)?;
        match crate::json::decode::<T>(value, Mode::Strict) {
            Ok(decoded) => Some(decoded),
            Err(found) => {
                let named = found.0.into_iter().map(|v| Violation::new(format!("{at}{}", v.path), v.message));
                self.violations.extend(named);
                None
            }
        }
    }

    fn parse_form<T: FromParam>(&mut self, at: &str, text: &str) -> Option<T> {
        match T::from_param(text) {
            Ok(value) => Some(value),
            Err(message) => {
                self.fail(at.to_owned(), message);
                None
            }
        }
    }

    /// Checks a body read field by field (a form) against the spec's constraints.
    pub fn check_body(&mut self, body: &impl Validate) {
        if let Err(found) = body.validate() {
            self.violations.extend(found.0);
        }
    }

    /// Ends parsing: unknown query parameters and an unexpected body are violations; any
    /// problem answers 400. The problems are handed over: a second call finds none.
    pub fn finish(&mut self) -> Result<(), ApiError> {
        if let Some(refused) = self.refused.take() {
            return Err(refused);
        }
        // One violation per unknown name, however often it is repeated; a set keeps this
        // linear in the number of parameters.
        let mut reported: std::collections::BTreeSet<String> = self.violations.iter().map(|v| v.path.clone()).collect();
        let unknown: Vec<String> = self.query.iter().filter(|(_, _, used)| !used).map(|(k, _, _)| k.clone()).collect();
        for name in unknown {
            let path = format!("query.{name}");
            if reported.insert(path.clone()) {
                self.fail(path, "is not a parameter of this operation");
            }
        }
        if !self.has_body && !self.body.iter().all(u8::is_ascii_whitespace) {
            self.fail(String::new(), "this operation takes no body");
        }
        // Unread form fields, one violation per name, without copying every name first.
        let mut unread = |name: &str| {
            let path = pointer(name);
            if !reported.contains(&path) {
                reported.insert(path.clone());
                self.violations.push(Violation::new(path, "is not a field of this form"));
            }
        };
        match &self.form {
            Some(Form::Pairs(pairs)) => {
                for pair in pairs.iter().filter(|pair| !pair.was_read()) {
                    unread(&pair.decode(&self.body).0);
                }
            }
            Some(Form::Parts(parts)) => {
                for (name, _, _) in parts.iter().filter(|(_, _, read)| !read) {
                    unread(name);
                }
            }
            None => {}
        }
        let mut violations = std::mem::take(&mut self.violations);
        match self.syntax.take() {
            Some(message) if violations.is_empty() => Err(ApiError::bad_request(message)),
            Some(message) => {
                violations.push(Violation::new("", message));
                Err(ApiError::invalid_counted(violations, self.unlisted))
            }
            None if violations.is_empty() => Ok(()),
            None => Err(ApiError::invalid_counted(violations, self.unlisted)),
        }
    }
}

/// A value of a form field: text, or a file of a multipart body.
#[derive(Debug, Clone)]
enum FormValue {
    Text(String),
    File(FilePart),
}

/// A value of a form field where it is held (a pair decoded, or a multipart part).
enum FormValueRef<'a> {
    Text(&'a str),
    File(&'a FilePart),
}

/// The JSON pointer of a form field (its violations read like a JSON body's).
fn pointer(name: &str) -> String {
    format!("/{}", name.replace('~', "~0").replace('/', "~1"))
}

/// The cookies of every `Cookie` header (`a=1; b=2`), values percent-decoded (the client
/// percent-encodes what a cookie value cannot hold); pairs without `=` are skipped.
pub(crate) fn read_cookies(headers: &HeaderMap) -> Vec<(String, String)> {
    let mut cookies = Vec::new();
    for header in headers.get_all(axum::http::header::COOKIE) {
        let Ok(text) = header.to_str() else { continue };
        for pair in text.split(';') {
            if let Some((name, value)) = pair.trim().split_once('=') {
                let value = super::dispatch::percent_decode(value.trim());
                cookies.push((name.trim().to_owned(), String::from_utf8_lossy(&value).into_owned()));
            }
        }
    }
    cookies
}

/// The object (or union) query parameter `name` of [`Input::query_object`] from the tree of
/// its pairs and the keys that could not be placed in it: decoded and validated, or its
/// violations, each named by its key in the query (`query.filter[status]`).
fn object_of_pairs<T: FromJson + Validate>(
    name: &str,
    fields: Option<&[&str]>,
    (tree, problems): (serde_json::Value, Vec<Violation>),
) -> Result<T, Vec<Violation>> {
    let tree = match (fields, tree) {
        (None, serde_json::Value::Object(mut top)) => top.remove(name).unwrap_or_default(),
        (_, tree) => tree,
    };
    if !problems.is_empty() {
        return Err(problems.into_iter().map(|v| Violation::new(format!("query.{}", v.path), v.message)).collect());
    }
    crate::json::decode_query::<T>(tree).and_then(|decoded| decoded.validate().map(|()| decoded)).map_err(|found| {
        let keys = found.0.into_iter().map(|v| {
            let pointer = if fields.is_none() { format!("/{name}{}", v.path) } else { v.path };
            match crate::form::key_of_pointer(&pointer) {
                key if key.is_empty() => Violation::new(format!("query.{name}"), v.message),
                key => Violation::new(format!("query.{key}"), v.message),
            }
        });
        keys.collect()
    })
}

/// A parameter of an enumeration from its text (an open one keeps a value it does not list;
/// a closed one is then checked by [`Input::validate`]): what each enumeration parameter's
/// reading maps its text through.
pub fn from_text<T: for<'s> From<&'s str>>(text: String) -> T {
    T::from(text.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    enum Color {
        Red,
        Other(String),
    }

    impl From<&str> for Color {
        fn from(text: &str) -> Self {
            if text == "red" { Color::Red } else { Color::Other(text.to_owned()) }
        }
    }

    impl Validate for Color {
        fn validate_into(&self, validator: &mut Validator) {
            if let Color::Other(text) = self {
                validator.fail(format!("`{text}` is not one of the listed values"));
            }
        }
    }

    #[test]
    fn an_enumeration_parameter_is_read_from_its_text_and_checked_where_it_was_given() {
        let mut input = Input::for_test(&[], "color=blue&shade=red", "", false);
        let color = input.query::<String>("color").map(from_text::<Color>);
        let shade = input.query::<String>("shade").map(from_text::<Color>);
        let absent = input.query::<String>("absent").map(from_text::<Color>);
        input.validate("query.color", color.as_ref());
        input.validate("query.shade", shade.as_ref());
        input.validate("query.absent", absent.as_ref());
        assert_eq!((color, shade, absent), (Some(Color::Other("blue".to_owned())), Some(Color::Red), None));
        let error = input.finish().unwrap_err();
        let found: Vec<(&str, &str)> =
            error.violations().iter().map(|v| (v.path.as_str(), v.message.as_str())).collect();
        assert_eq!(found, [("query.color", "`blue` is not one of the listed values")]);
    }

    fn form(body: &str) -> Input {
        let mut headers = HeaderMap::new();
        headers.insert(axum::http::header::CONTENT_TYPE, "application/x-www-form-urlencoded".parse().unwrap());
        Input::for_test(&[], "", body, true).with_headers(headers)
    }

    fn json(body: &str) -> Input {
        let mut headers = HeaderMap::new();
        headers.insert(axum::http::header::CONTENT_TYPE, "application/json".parse().unwrap());
        Input::for_test(&[], "", body, true).with_headers(headers)
    }

    #[test]
    fn an_untyped_body_reads_a_value_that_is_not_an_object_as_left_out_and_an_object_whole() {
        use std::collections::BTreeMap;
        type Object = BTreeMap<String, i64>;
        for value in ["null", " 3 ", "[]", "\"x\"", "true", "[{\"a\": \"b\"}]"] {
            let mut input = json(value);
            assert_eq!(input.untyped_body::<Object>(true), None, "{value}");
            assert!(input.finish().is_ok(), "{value}: no violation");
        }
        let mut input = json(r#"{"a": 1}"#);
        assert_eq!(input.untyped_body::<Object>(true), Some(BTreeMap::from([("a".to_owned(), 1)])));
        // Not JSON, a key given twice, an object of the wrong values, nothing sent: refused.
        for body in ["nul", r#"[{"a": 1, "a": 2}]"#, r#"{"a": "x"}"#] {
            let mut input = json(body);
            assert_eq!(input.untyped_body::<Object>(false), None, "{body}");
            assert!(input.finish().is_err(), "{body}");
        }
        let mut input = Input::for_test(&[], "", "", false);
        assert_eq!(input.untyped_body::<Object>(true), None);
        assert!(input.finish().is_err(), "a required body sent as nothing");
    }

    #[test]
    fn a_nullable_body_reads_null_as_left_out_and_refuses_other_values_that_are_not_objects() {
        use std::collections::BTreeMap;
        type Object = BTreeMap<String, i64>;
        for (value, required) in [("null", true), (" null\n", true), ("null", false)] {
            let mut input = json(value);
            assert_eq!(input.nullable_body::<Object>(required), None, "{value}");
            assert!(input.finish().is_ok(), "{value}: no violation");
        }
        let mut input = json(r#"{"a": 1}"#);
        assert_eq!(input.nullable_body::<Object>(true), Some(BTreeMap::from([("a".to_owned(), 1)])));
        let mut input = json("\"x\"");
        assert_eq!(input.nullable_body::<Object>(true), None);
        let error = input.finish().unwrap_err();
        let found: Vec<(&str, &str)> =
            error.violations().iter().map(|v| (v.path.as_str(), v.message.as_str())).collect();
        assert_eq!(found, [("", "expected an object, found the string \"x\"")]);
        let mut input = Input::for_test(&[], "", "", false);
        assert_eq!(input.nullable_body::<Object>(true), None);
        assert!(input.finish().is_err(), "a required body sent as nothing");
    }

    #[test]
    fn cookie_values_are_percent_decoded_lossily() {
        let mut headers = HeaderMap::new();
        headers.insert(axum::http::header::COOKIE, "a=x%3By; b=%FF%4; c".parse().unwrap());
        let expected = [("a".to_owned(), "x;y".to_owned()), ("b".to_owned(), "\u{FFFD}%4".to_owned())];
        assert_eq!(read_cookies(&headers), expected);
    }

    #[test]
    fn pairs_are_where_form_urlencoded_finds_them_and_decode_alike() {
        let body = "&&a=1&b+c=d+e&%41%zz=%E2%9C%93&=x&flag&a=2&&\u{e9}=%ff";
        let found: Vec<(String, String)> = pairs(body.as_bytes(), usize::MAX)
            .unwrap()
            .into_iter()
            .map(|pair| {
                let (name, value) = pair.decode(body.as_bytes());
                (name.into_owned(), value.into_owned())
            })
            .collect();
        let expected: Vec<(String, String)> =
            form_urlencoded::parse(body.as_bytes()).map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
        assert_eq!(found, expected);
        assert_eq!(found.len(), 7);
    }

    #[test]
    fn fields_are_read_once_repeated_ones_refused_and_unread_ones_reported_once() {
        let mut input = form("a=1&a=2&tags=x&tags=y&z=1&z=2");
        assert_eq!(input.form_field::<String>("a", true), None);
        assert_eq!(input.form_list::<String>("tags"), ["x", "y"]);
        assert_eq!(input.form_list::<i64>("missing"), Vec::<i64>::new());
        let error = input.finish().unwrap_err();
        let found: Vec<(&str, &str)> =
            error.violations().iter().map(|v| (v.path.as_str(), v.message.as_str())).collect();
        assert_eq!(found, [("/a", "is given more than once"), ("/z", "is not a field of this form")]);
    }

    #[test]
    fn delimited_query_lists_split_on_their_delimiter() {
        let cases: [(&str, char, Vec<i64>); 6] = [
            ("ids=1,2,3", ',', vec![1, 2, 3]),
            ("ids=1%202&ids=3", ' ', vec![1, 2, 3]),
            ("ids=1+2", ' ', vec![1, 2]),
            ("ids=1|2", '|', vec![1, 2]),
            ("ids=", ',', vec![]),
            ("other=1", ',', vec![]),
        ];
        for (query, delimiter, expected) in cases {
            let mut input = Input::for_test(&[], query, "", false);
            assert_eq!(input.query_delimited::<i64>("ids", delimiter), expected, "{query}");
        }
        let mut input = Input::for_test(&[], "ids=1,x,", "", false);
        assert_eq!(input.query_delimited::<i64>("ids", ','), [1]);
        let error = input.finish().unwrap_err();
        let found: Vec<(&str, &str)> =
            error.violations().iter().map(|v| (v.path.as_str(), v.message.as_str())).collect();
        assert_eq!(
            found,
            [("query.ids", "expected an integer, found \"x\""), ("query.ids", "expected an integer, found \"\"")]
        );
    }

    #[test]
    fn bracketed_query_lists_read_every_way_clients_write_them() {
        let cases: [(&str, Vec<i64>); 5] = [
            ("ids[]=1&ids[]=2", vec![1, 2]),
            ("ids%5B%5D=1&ids%5B%5D=2", vec![1, 2]),
            ("ids[1]=2&ids[0]=1&ids=3", vec![1, 2, 3]),
            ("ids=1&idsx=9&ids[x]=9", vec![1]),
            ("", vec![]),
        ];
        for (query, expected) in cases {
            let mut input = Input::for_test(&[], query, "", false);
            assert_eq!(input.query_brackets::<i64>("ids"), expected, "{query}");
        }
        let mut input = Input::for_test(&[], "ids[]=x&ids[y]=1", "", false);
        assert!(input.query_brackets::<i64>("ids").is_empty());
        let error = input.finish().unwrap_err();
        let found: Vec<(&str, &str)> =
            error.violations().iter().map(|v| (v.path.as_str(), v.message.as_str())).collect();
        assert_eq!(
            found,
            [
                ("query.ids[]", "expected an integer, found \"x\""),
                ("query.ids[y]", "is not a parameter of this operation")
            ]
        );
    }

    #[test]
    fn a_form_of_too_many_fields_is_refused_whole() {
        let mut input = form("a=1&b=2&c=3").with_max_form_fields(2);
        assert_eq!(input.form_field::<String>("a", true), None);
        let error = input.finish().unwrap_err();
        assert_eq!(error.to_string(), "400 the form has 3 fields; the limit is 2");
        assert!(form("a=1&&b=2&").with_max_form_fields(2).finish().is_ok(), "empty pieces are no fields");
    }
}

/// The request of an operation without parameters or body: the generated `<Operation>Request`
/// of such an operation names it, so that each does not repeat its parser.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NoParams {}

impl NoParams {
    /// Reads the request: a query parameter or a body it does not take is refused (400).
    pub fn from_input(input: &mut Input) -> Result<Self, ApiError> {
        input.finish()?;
        Ok(NoParams {})
    }
}

impl serde::Serialize for NoParams {
    /// An empty object, as the request of an operation with parameters writes them.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        serializer.serialize_map(Some(0))?.end()
    }
}
