//! Raw spec structures: the YAML, one to one, before any meaning is checked.
//!
//! Every key a spec file may contain is a field here. Keys that are not are reported by the
//! loader (all of them, not only the first). Which keys make sense together (`in` only on
//! parameters, `default` only on optional fields, ...) is checked later, in `lower`,
//! where the meaning is known.

use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// The top of a spec file. `api` appears in exactly one file (by convention `api.yaml`);
/// every other section may appear in any file and is merged across files.
#[derive(Debug, Default, Deserialize)]
pub struct RawFile {
    /// What the API is: name, title, version, description.
    pub api: Option<serde_yaml::Value>,
    /// The groups operations belong to, in the order the reference shows them.
    pub tags: Option<serde_yaml::Mapping>,
    /// Parameters shared by name between operations.
    pub parameters: Option<serde_yaml::Mapping>,
    /// Pagination conventions.
    pub pagination: Option<serde_yaml::Value>,
    /// The tag of every operation of this file that names none.
    pub tag: Option<String>,
    /// Named types.
    pub types: Option<serde_yaml::Mapping>,
    /// Operations.
    pub operations: Option<serde_yaml::Mapping>,
    /// Gaps: what the documents do not show, and the decision taken.
    pub gaps: Option<serde_yaml::Mapping>,
}

/// `api:` the API itself.
#[derive(Debug, Deserialize)]
pub struct RawApi {
    /// Crate-name prefix of the generated crates (`docs-api` gives `docs-api-types`).
    pub name: String,
    /// Human title.
    pub title: String,
    /// Version string.
    pub version: String,
    /// What the API does.
    pub description: Option<String>,
    /// Where the API is described, for the reference.
    pub source: Option<String>,
    /// The license of the API's generated crates (their `license`): an SPDX expression
    /// (`MIT OR Apache-2.0`), or the license's name. Absent: their manifests say none.
    pub license: Option<String>,
    /// How callers prove who they are: schemes by name. Absent: one `bearer` scheme.
    pub auth: Option<IndexMap<String, RawAuthScheme>>,
    /// Where the API is served. Absent: a placeholder base URL.
    #[serde(default)]
    pub servers: Vec<RawServer>,
    /// The API's error body and where it carries the status, message and violations.
    /// Absent: the built-in envelope `{"error": {"code", "message", "violations"?}}`.
    pub errors: Option<RawErrors>,
    /// OpenAPI `x-` extensions an import kept, written back by the export: `x-<name>` at the
    /// document's root, `info.x-<name>` in its `info`.
    #[serde(default)]
    pub extensions: IndexMap<String, serde_json::Value>,
    /// What a request object's undeclared fields meet, unless its type says otherwise.
    /// Absent: `refuse`.
    pub unknown_fields: Option<RawUnknownFields>,
}

/// `unknown_fields:` what the server does with a request object's fields its type does not
/// declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RawUnknownFields {
    /// A violation each (`is not a field of this object`): the format's default.
    Refuse,
    /// Dropped unread: OpenAPI's objects without `additionalProperties: false`.
    Ignore,
}

/// `api.servers[]:` one base URL of the API.
#[derive(Debug, Deserialize)]
pub struct RawServer {
    /// Its name in the generated client (`servers::<name>`), snake_case; default
    /// `server_<n>`, counted from 1 in the list.
    pub name: Option<String>,
    /// The base URL; `{name}` placeholders are filled from `variables`.
    pub url: String,
    /// What this server is.
    pub description: Option<String>,
    /// The placeholders of `url`, each with its default.
    #[serde(default)]
    pub variables: IndexMap<String, RawServerVariable>,
}

/// `api.servers[].variables.<name>:` a placeholder of a server URL.
#[derive(Debug, Deserialize)]
pub struct RawServerVariable {
    /// The value used unless the caller gives another.
    pub default: String,
    /// The only values it may take (the default among them): the client types them as an
    /// enumeration.
    #[serde(rename = "enum")]
    pub values: Option<Vec<String>>,
    /// What it is.
    pub description: Option<String>,
}

/// `api.errors:` the API's error body.
#[derive(Debug, Deserialize)]
pub struct RawErrors {
    /// The named object type of every error body; absent: the built-in envelope (then only
    /// `media_type` may be given).
    #[serde(rename = "type")]
    pub ty: Option<String>,
    /// Its media type (default `application/json`; `application/problem+json` for RFC 9457).
    pub media_type: Option<String>,
    /// JSON pointer of the HTTP status in the body, if it carries one (`/status`).
    pub status: Option<String>,
    /// JSON pointer of the message (`/message`, `/detail`, `/error/message`); required with
    /// `type`.
    pub message: Option<String>,
    /// JSON pointer of a string code the router fills from the status (`/error/code`,
    /// OAuth's `/error`: `invalid_request`, `not_found`, ...).
    pub code: Option<String>,
    /// JSON pointer of the list of violations, if it carries one (`/errors`).
    pub violations: Option<String>,
    /// The keys of one violation object (default `path` and `message`).
    pub violation: Option<RawViolationKeys>,
    /// JSON pointers of required scalar fields the router fills with the field's sample
    /// (its `sample`, else its default, else its first value, else one made to fit its
    /// constraints): what no other pointer names (RFC 9457's `type`, a correlation id).
    pub fill: Option<Vec<String>>,
    /// The other error bodies, by their named object type, each with the places the router
    /// writes its refusals into: an operation answering a status in one of them
    /// (`errors: [{ status: 401, type: AuthError }]`) has the router's refusals of that
    /// status written in it.
    pub bodies: Option<IndexMap<String, RawErrorBody>>,
}

impl RawErrors {
    /// Its places, as one entry of `bodies` gives them.
    pub fn places(&self) -> RawErrorBody {
        RawErrorBody {
            media_type: self.media_type.clone(),
            status: self.status.clone(),
            message: self.message.clone(),
            code: self.code.clone(),
            violations: self.violations.clone(),
            violation: self.violation.clone(),
            fill: self.fill.clone(),
        }
    }
}

/// `api.errors.bodies.<Type>:` where one more error body holds the status, the message and the
/// violations (the keys of `api.errors` but `type`, which is the key of the entry, and
/// `bodies`).
#[derive(Debug, Clone, Deserialize)]
pub struct RawErrorBody {
    /// Its media type (default `application/json`).
    pub media_type: Option<String>,
    /// JSON pointer of the HTTP status in the body.
    pub status: Option<String>,
    /// JSON pointer of the message; absent: the body has no place for one.
    pub message: Option<String>,
    /// JSON pointer of a string code the router fills from the status.
    pub code: Option<String>,
    /// JSON pointer of the list of violations (`""`: the body is the list).
    pub violations: Option<String>,
    /// The keys of one violation object (default `path` and `message`).
    pub violation: Option<RawViolationKeys>,
    /// JSON pointers of scalar or enumeration fields the router fills with the field's sample.
    pub fill: Option<Vec<String>>,
}

/// `api.errors.violation:` the keys of one violation object.
#[derive(Debug, Clone, Deserialize)]
pub struct RawViolationKeys {
    /// The key holding the violation's location (a JSON pointer, or `query.<name>`).
    pub path: Option<String>,
    /// The key holding what is wrong.
    pub message: Option<String>,
}

/// `api.auth.<name>:` one way a caller proves who it is.
#[derive(Debug, Deserialize)]
pub struct RawAuthScheme {
    /// `bearer` (`Authorization: Bearer <token>`), `basic` (`Authorization: Basic ..`),
    /// `api-key` (a key in a header, the query or a cookie), `http` (`Authorization: <scheme>
    /// ..`, which the client leaves to its signer), `oauth2` or `openid-connect` (bearer tokens
    /// an authorization server issues).
    #[serde(rename = "type")]
    pub ty: String,
    /// Where an `api-key` travels: `header`, `query` or `cookie`.
    #[serde(rename = "in")]
    pub location: Option<String>,
    /// The header or query parameter of an `api-key`.
    pub name: Option<String>,
    /// The auth-scheme of an `http` scheme (`Digest`, `Signature`, a vendor's): what the
    /// `Authorization` header starts with.
    pub scheme: Option<String>,
    /// What the credential is and where a caller gets one.
    pub description: Option<String>,
    /// The flows of an `oauth2` scheme, by grant (`client_credentials`, `authorization_code`,
    /// `password`, `implicit`, `device_code`).
    pub flows: Option<IndexMap<String, RawFlow>>,
    /// The OpenID Connect discovery document of an `openid-connect` scheme.
    pub url: Option<String>,
}

/// `api.auth.<name>.flows.<grant>:` how a client obtains a token of an `oauth2` scheme.
#[derive(Debug, Deserialize)]
pub struct RawFlow {
    /// Where the user authorizes the client (`authorization_code`, `implicit`).
    pub authorization_url: Option<String>,
    /// Where the client asks for a device code (`device_code`).
    pub device_authorization_url: Option<String>,
    /// Where the client gets a token (every grant but `implicit`).
    pub token_url: Option<String>,
    /// Where the client refreshes a token.
    pub refresh_url: Option<String>,
    /// The scopes a token of this flow may carry: name to what it allows.
    #[serde(default)]
    pub scopes: IndexMap<String, String>,
}

/// `tags.<name>:` a group of operations.
#[derive(Debug, Deserialize)]
pub struct RawTag {
    /// Title shown in the reference.
    pub title: String,
    /// What the group covers.
    pub description: Option<String>,
    /// Where in the documents the group is described.
    pub source: Option<String>,
}

/// `pagination:` how paginated operations page (in `api.yaml`, and per operation under
/// `response.pagination`).
#[derive(Debug, Deserialize)]
pub struct RawPagination {
    /// Names of shared parameters added to every paginated operation.
    pub params: Vec<String>,
    /// The parameter that takes the next page's position (one of `params`).
    pub cursor: String,
    /// `cursor` (default), `has-more`, `offset`, `page` or `link`.
    pub style: Option<String>,
    /// `cursor` style: JSON pointer of the next cursor in the body (default `/next/page`).
    pub next: Option<String>,
    /// JSON pointer of the items in the body (default `/items`; empty: the body is the list).
    pub items: Option<String>,
    /// `has-more` style: JSON pointer of the boolean saying more follow (default `/has_more`).
    pub has_more: Option<String>,
    /// `has-more` style: JSON pointer, inside an item, of the next cursor (default `/id`).
    pub item_id: Option<String>,
    /// Gaps of the list convention (last page, ...).
    #[serde(default)]
    pub gaps: Vec<String>,
    /// What the list envelope is, for the reference.
    pub description: Option<String>,
}

/// `gaps.<id>:` one thing the documents do not show that the code depends on.
#[derive(Debug, Deserialize)]
pub struct RawGap {
    /// Where the documents say "not shown".
    pub source: String,
    /// What is not shown, close to the documents' words.
    pub gap: String,
    /// The decision taken and why.
    pub decision: String,
}

/// `types.<Name>:` a named type. Exactly one of `fields`, `enum` and `union` says which kind.
#[derive(Debug, Default, Deserialize)]
pub struct RawType {
    /// What the type is.
    pub description: Option<String>,
    /// Where in the documents the type is described.
    pub source: Option<String>,
    /// Object: the fields, in wire order.
    pub fields: Option<IndexMap<String, RawField>>,
    /// Object: the type of keys beyond `fields`, kept rather than dropped.
    pub additional_properties: Option<String>,
    /// Object: what a request's undeclared fields meet (`api.unknown_fields` when absent).
    pub unknown_fields: Option<RawUnknownFields>,
    /// Object: object types whose fields come first in this one (OpenAPI `allOf`).
    pub includes: Option<Vec<String>>,
    /// Enumeration: the values.
    #[serde(rename = "enum")]
    pub enum_values: Option<Vec<RawEnumValue>>,
    /// Enumeration: true when values beyond those listed may appear.
    pub open: Option<bool>,
    /// Union: the variants.
    pub union: Option<RawUnion>,
    /// Gaps this type depends on.
    #[serde(default)]
    pub gaps: Vec<String>,
}

/// `union:` a value that is one of several object types.
#[derive(Debug, Deserialize)]
pub struct RawUnion {
    /// The field naming the variant; absent for an untagged union.
    pub tag: Option<String>,
    /// The variant types, by name.
    pub variants: Vec<String>,
    /// True when variants beyond those listed may appear (kept as raw JSON).
    pub open: bool,
}

/// An enumeration value: `admin` or `admin: what it means`; an integer (`2`, `2: high`)
/// for an enumeration of integers; or, to give it a Rust name of its own, the long form
/// `{value: a-b, rust_name: AB2, description: ...}` (two keys or more: a one-key map is always
/// `value: meaning`).
#[derive(Debug, Clone, PartialEq)]
pub struct RawEnumValue {
    /// The value as sent on the wire (an integer's decimal text).
    pub value: String,
    /// The value is an integer.
    pub integer: bool,
    /// What it means.
    pub description: Option<String>,
    /// The Rust variant name, when the value's own would collide (`a-b` beside `a_b`).
    pub rust_name: Option<String>,
}

/// A key or value inside an enumeration value's map: a string or an integer.
enum RawEnumScalar {
    Integer(i64),
    Text(String),
}

impl RawEnumScalar {
    fn into_value(self) -> (String, bool) {
        match self {
            RawEnumScalar::Integer(value) => (value.to_string(), true),
            RawEnumScalar::Text(value) => (value, false),
        }
    }
}

impl<'de> Deserialize<'de> for RawEnumScalar {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ScalarVisitor;
        impl Visitor<'_> for ScalarVisitor {
            type Value = RawEnumScalar;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string or an integer")
            }
            fn visit_str<E: de::Error>(self, value: &str) -> Result<RawEnumScalar, E> {
                Ok(RawEnumScalar::Text(value.to_owned()))
            }
            fn visit_i64<E: de::Error>(self, value: i64) -> Result<RawEnumScalar, E> {
                Ok(RawEnumScalar::Integer(value))
            }
            fn visit_u64<E: de::Error>(self, value: u64) -> Result<RawEnumScalar, E> {
                i64::try_from(value)
                    .map(RawEnumScalar::Integer)
                    .map_err(|_| E::custom(format!("enumeration value {value} is larger than a 64-bit integer")))
            }
        }
        deserializer.deserialize_any(ScalarVisitor)
    }
}

/// The long form's keys.
const LONG_FORM_KEYS: &[&str] = &["value", "rust_name", "description"];

impl RawEnumValue {
    /// The long form, from its entries (two or more).
    fn long_form<E: de::Error>(entries: Vec<(RawEnumScalar, RawEnumScalar)>) -> Result<Self, E> {
        let mut parsed = RawEnumValue { value: String::new(), integer: false, description: None, rust_name: None };
        let mut has_value = false;
        for (key, value) in entries {
            let RawEnumScalar::Text(key) = key else {
                return Err(E::custom(
                    "an enumeration value is one `value: meaning` pair; put each value in its own list item",
                ));
            };
            match (key.as_str(), value) {
                ("value", value) => {
                    (parsed.value, parsed.integer) = value.into_value();
                    has_value = true;
                }
                ("rust_name", RawEnumScalar::Text(name)) => parsed.rust_name = Some(name),
                ("description", value) => parsed.description = Some(value.into_value().0),
                ("rust_name", RawEnumScalar::Integer(_)) => {
                    return Err(E::custom("`rust_name` of an enumeration value is a name"));
                }
                (other, _) => {
                    return Err(E::custom(format!(
                        "`{other}` is not a key of an enumeration value's long form ({}); a one-key map is `value: meaning`, and each value is its own list item",
                        LONG_FORM_KEYS.join(", ")
                    )));
                }
            }
        }
        if !has_value {
            return Err(E::custom("the long form of an enumeration value needs `value`"));
        }
        Ok(parsed)
    }
}

impl<'de> Deserialize<'de> for RawEnumValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EnumValueVisitor;
        impl<'de> Visitor<'de> for EnumValueVisitor {
            type Value = RawEnumValue;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a value (`admin`) or a value with its meaning (`admin: what it means`)")
            }
            fn visit_str<E: de::Error>(self, value: &str) -> Result<RawEnumValue, E> {
                Ok(RawEnumValue { value: value.to_owned(), integer: false, description: None, rust_name: None })
            }
            fn visit_i64<E: de::Error>(self, value: i64) -> Result<RawEnumValue, E> {
                Ok(RawEnumValue { value: value.to_string(), integer: true, description: None, rust_name: None })
            }
            fn visit_u64<E: de::Error>(self, value: u64) -> Result<RawEnumValue, E> {
                match i64::try_from(value) {
                    Ok(value) => self.visit_i64(value),
                    Err(_) => Err(E::custom(format!("enumeration value {value} is larger than a 64-bit integer"))),
                }
            }
            fn visit_bool<E: de::Error>(self, value: bool) -> Result<RawEnumValue, E> {
                Err(E::custom(format!("enumeration value `{value}` is a YAML boolean; quote it: \"{value}\"")))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawEnumValue, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<RawEnumScalar, RawEnumScalar>()? {
                    entries.push(entry);
                }
                if entries.len() > 1 {
                    return RawEnumValue::long_form(entries);
                }
                let Some((key, description)) = entries.pop() else {
                    return Err(de::Error::custom("an enumeration value needs a name"));
                };
                let (value, integer) = key.into_value();
                let description = Some(description.into_value().0);
                Ok(RawEnumValue { value, integer, description, rust_name: None })
            }
        }
        deserializer.deserialize_any(EnumValueVisitor)
    }
}

/// Constraints on each item of a list (`item: { max_length: 20, pattern: .. }`): those of a
/// text or a number, as a field has them.
#[derive(Debug, Default, Deserialize)]
pub struct RawItemConstraints {
    /// Minimum length in characters.
    pub min_length: Option<u64>,
    /// Maximum length in characters.
    pub max_length: Option<u64>,
    /// Regular expression the whole string must match.
    pub pattern: Option<String>,
    /// A string format.
    pub format: Option<String>,
    /// Smallest allowed number.
    pub minimum: Option<serde_json::Number>,
    /// Largest allowed number.
    pub maximum: Option<serde_json::Number>,
}

/// A field of an object, a parameter, or a request body. The keys that only make sense in one
/// of these places (`in`, `required`, `name` for parameters) are checked by the lowering.
#[derive(Debug, Default, Deserialize)]
pub struct RawField {
    /// Parameter: its name (inline parameters only).
    pub name: Option<String>,
    /// Parameter: `path` or `query`.
    #[serde(rename = "in")]
    pub location: Option<String>,
    /// Parameter: must the caller give it.
    pub required: Option<bool>,
    /// Parameter: how a list travels, in OpenAPI's words (`form`, `spaceDelimited`,
    /// `pipeDelimited`, `deepObject` in the query; `simple` in a path or header; `form` in a
    /// cookie).
    pub style: Option<String>,
    /// Parameter: whether a list of a `form` style is repeated keys (`true`, the default) or
    /// one comma-separated value.
    pub explode: Option<bool>,
    /// Query parameter: an empty value (`limit=`) is the parameter left out, as OpenAPI's
    /// `allowEmptyValue` lets a client send it; a text parameter's empty value stays `""`.
    #[serde(default)]
    pub allow_empty: bool,
    /// Type expression: `string`, `integer`, `number`, `boolean`, `date-time`, `url`, `json`,
    /// a type name, `list<T>`, `map<T>`, `object` (with `fields`), `enum` (with `enum`).
    #[serde(rename = "type")]
    pub ty: Option<String>,
    /// Inline type: its Rust name, when the derived one reads badly.
    pub type_name: Option<String>,
    /// Field, parameter or response header: its Rust name, when the one derived from the wire
    /// name collides or reads badly (an API's own names cannot be renamed).
    pub rust_name: Option<String>,
    /// What it means.
    pub description: Option<String>,
    /// May be absent.
    #[serde(default)]
    pub optional: bool,
    /// May be null.
    #[serde(default)]
    pub nullable: bool,
    /// Body: the document's schema gives the object's properties without `type: object`, so
    /// by JSON Schema any value that is not an object fits it; the server reads such a value
    /// as the body left out (the handler's `None`).
    #[serde(default)]
    pub untyped: bool,
    /// Value assumed when absent. `default: ~` is kept as `Some(Null)` (not read as "no
    /// default"), so lowering can refuse it instead of dropping it silently.
    #[serde(default, deserialize_with = "present")]
    pub default: Option<serde_json::Value>,
    /// A sample value, used in docs and round-trip tests.
    pub sample: Option<serde_json::Value>,
    /// A string constant the field always holds (`object: { const: collection }`).
    #[serde(rename = "const")]
    pub constant: Option<String>,
    /// Minimum length in characters.
    pub min_length: Option<u64>,
    /// Maximum length in characters.
    pub max_length: Option<u64>,
    /// Regular expression the whole string must match.
    pub pattern: Option<String>,
    /// A string format (`uuid`, `email`, `date`, ...: OpenAPI's `format`).
    pub format: Option<String>,
    /// Smallest allowed number.
    pub minimum: Option<serde_json::Number>,
    /// Largest allowed number.
    pub maximum: Option<serde_json::Number>,
    /// Fewest list items (or map entries).
    pub min_items: Option<u64>,
    /// Most list items (or map entries).
    pub max_items: Option<u64>,
    /// Exact number of list items.
    pub exact_items: Option<u64>,
    /// No two items of the list are equal (OpenAPI's `uniqueItems`).
    #[serde(default)]
    pub unique_items: bool,
    /// Constraints on each item of a list.
    pub item: Option<RawItemConstraints>,
    /// Carries a secret: redacted in `Debug` and logs.
    #[serde(default)]
    pub sensitive: bool,
    /// Field: answered, never accepted in a request.
    #[serde(default)]
    pub read_only: bool,
    /// Field: sent, never answered.
    #[serde(default)]
    pub write_only: bool,
    /// A request body's media types (one, or a list the server takes and the client chooses
    /// among); absent: JSON, or `application/octet-stream` for `bytes`.
    pub media_type: Option<RawMediaTypes>,
    /// Inline object: its fields.
    pub fields: Option<IndexMap<String, RawField>>,
    /// Body: the same body also taken in other media types, each with a type of its own (an
    /// XML body as text beside its JSON, a multipart upload beside it); the handler receives
    /// which one came.
    pub alternatives: Option<Vec<RawField>>,
    /// Inline object: the type of keys beyond `fields`.
    pub additional_properties: Option<String>,
    /// Inline object: what a request's undeclared fields meet (`api.unknown_fields` when
    /// absent).
    pub unknown_fields: Option<RawUnknownFields>,
    /// Inline enumeration: its values.
    #[serde(rename = "enum")]
    pub enum_values: Option<Vec<RawEnumValue>>,
    /// Inline enumeration: open or closed.
    pub open: Option<bool>,
    /// Gaps this element depends on.
    #[serde(default)]
    pub gaps: Vec<String>,
}

/// `operations.<name>:` one HTTP operation.
#[derive(Debug, Deserialize)]
pub struct RawOperation {
    /// `GET`, `POST`, `PUT`, `PATCH` or `DELETE`.
    pub method: String,
    /// The path, with `{param}` placeholders, as the documents spell it.
    pub path: String,
    /// The group; defaults to the file's `tag`.
    pub tag: Option<String>,
    /// One line saying what it does.
    pub summary: String,
    /// Everything else the documents say about it.
    pub description: Option<String>,
    /// Where in the documents it is described.
    pub source: Option<String>,
    /// Parameters: names of shared parameters, or inline definitions.
    #[serde(default)]
    pub params: Vec<RawParam>,
    /// The request body.
    pub body: Option<RawField>,
    /// The success response.
    pub response: RawResponse,
    /// Failure cases.
    #[serde(default)]
    pub errors: Vec<RawError>,
    /// Set when the operation is deprecated.
    pub deprecated: Option<RawDeprecated>,
    /// The auth schemes the operation accepts, by name (one, or a list of alternatives), or
    /// `none` for a public operation; absent: the first scheme of `api.auth`.
    pub auth: Option<RawAuth>,
    /// Constants that select this operation among those sharing its method and path: the
    /// client always sends them, the router dispatches on them.
    pub select: Option<RawSelect>,
    /// Gaps this operation depends on.
    #[serde(default)]
    pub gaps: Vec<String>,
}

/// `select:` of an operation: header and query values, each a constant.
#[derive(Debug, Default, Deserialize)]
pub struct RawSelect {
    /// Header name to its value (`X-Amz-Target: DynamoDB_20120810.GetItem`).
    #[serde(default)]
    pub header: IndexMap<String, String>,
    /// Query parameter name to its value (`Action: DescribeInstances`).
    #[serde(default)]
    pub query: IndexMap<String, String>,
}

/// `media_type:` one media type, or a list.
#[derive(Debug)]
pub struct RawMediaTypes(pub Vec<String>);

impl<'de> Deserialize<'de> for RawMediaTypes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MediaVisitor;
        impl<'de> Visitor<'de> for MediaVisitor {
            type Value = RawMediaTypes;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a media type (`application/pdf`), or a list of them")
            }
            fn visit_str<E: de::Error>(self, media: &str) -> Result<RawMediaTypes, E> {
                Ok(RawMediaTypes(vec![media.to_owned()]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawMediaTypes, A::Error> {
                let mut types = Vec::new();
                while let Some(media) = seq.next_element::<String>()? {
                    types.push(media);
                }
                Ok(RawMediaTypes(types))
            }
        }
        deserializer.deserialize_any(MediaVisitor)
    }
}

/// `auth:` of an operation: one scheme's name (or `none`), one requirement with scopes
/// (`{oauth: [pets:write]}`), or a list of alternatives, each a scheme's name, a list of the
/// names a request carries together (`[[appKey, appToken]]`), or a requirement with scopes.
#[derive(Debug)]
pub struct RawAuth(pub Vec<Vec<RawNeed>>);

/// One scheme of an alternative of `auth:`, with the scopes it requires (none by name alone).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawNeed {
    /// The scheme, by its name in `api.auth`.
    pub scheme: String,
    /// The scopes (OAuth 2.0 scopes, or roles) its credential must be granted.
    pub scopes: Vec<String>,
}

impl RawNeed {
    fn named(scheme: String) -> Self {
        RawNeed { scheme, scopes: Vec::new() }
    }
}

/// One alternative of `auth:`: a name, the names carried together, or schemes with scopes.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RawAlternative {
    One(String),
    Together(Vec<String>),
    Scoped(IndexMap<String, RawScopes>),
}

/// The scopes of a scheme in `auth:`: one, or a list.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RawScopes {
    One(String),
    Many(Vec<String>),
}

impl RawAlternative {
    fn needs(self) -> Vec<RawNeed> {
        match self {
            RawAlternative::One(name) => vec![RawNeed::named(name)],
            RawAlternative::Together(names) => names.into_iter().map(RawNeed::named).collect(),
            RawAlternative::Scoped(schemes) => schemes
                .into_iter()
                .map(|(scheme, scopes)| {
                    let scopes = match scopes {
                        RawScopes::One(scope) => vec![scope],
                        RawScopes::Many(scopes) => scopes,
                    };
                    RawNeed { scheme, scopes }
                })
                .collect(),
        }
    }
}

impl<'de> Deserialize<'de> for RawAuth {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct AuthVisitor;
        impl<'de> Visitor<'de> for AuthVisitor {
            type Value = RawAuth;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "the name of an auth scheme, `none`, schemes with their scopes, or a list of alternatives (names, lists of names, or schemes with their scopes)",
                )
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<RawAuth, E> {
                Ok(RawAuth(vec![vec![RawNeed::named(name.to_owned())]]))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RawAuth, A::Error> {
                let schemes = IndexMap::<String, RawScopes>::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(RawAuth(vec![RawAlternative::Scoped(schemes).needs()]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawAuth, A::Error> {
                let mut alternatives = Vec::new();
                while let Some(alternative) = seq.next_element::<RawAlternative>()? {
                    alternatives.push(alternative.needs());
                }
                Ok(RawAuth(alternatives))
            }
        }
        deserializer.deserialize_any(AuthVisitor)
    }
}

/// A parameter of an operation: the name of a shared parameter, or an inline definition.
#[derive(Debug)]
pub enum RawParam {
    /// A parameter declared under `parameters:`.
    Shared(String),
    /// A parameter declared here.
    Inline(Box<RawField>),
}

impl<'de> Deserialize<'de> for RawParam {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ParamVisitor;
        impl<'de> Visitor<'de> for ParamVisitor {
            type Value = RawParam;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("the name of a shared parameter or a parameter definition")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<RawParam, E> {
                Ok(RawParam::Shared(name.to_owned()))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RawParam, A::Error> {
                let field = RawField::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(RawParam::Inline(Box::new(field)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, _seq: A) -> Result<RawParam, A::Error> {
                Err(de::Error::custom("a parameter is a name or a mapping, not a list"))
            }
        }
        deserializer.deserialize_any(ParamVisitor)
    }
}

/// `response:` the success response of an operation.
#[derive(Debug, Default, Deserialize)]
pub struct RawResponse {
    /// The success status code: what the handler answers unless it chooses another.
    pub status: u16,
    /// Other success statuses the handler may choose: a status alone answers the same body
    /// (`201` or `200`); a response of its own (`{ status: 202, empty: true }`) another.
    #[serde(default)]
    pub also: Vec<RawAlso>,
    /// Response headers by name, typed like parameters (`type`, `optional`, `description`).
    #[serde(default)]
    pub headers: IndexMap<String, RawField>,
    /// What the response means.
    pub description: Option<String>,
    /// The body type (absent for a response without body).
    #[serde(rename = "type")]
    pub ty: Option<String>,
    /// Inline body object: its fields.
    pub fields: Option<IndexMap<String, RawField>>,
    /// Inline body object: its Rust name.
    pub type_name: Option<String>,
    /// Paginated: the item type of the list envelope.
    pub items: Option<String>,
    /// Paginated: a named envelope that adds fields to the standard one, or the API's own
    /// list type.
    pub envelope: Option<String>,
    /// The media types of the body (one, or a list negotiated with `Accept`); absent: JSON,
    /// or `application/octet-stream` for `bytes`.
    pub media_type: Option<RawMediaTypes>,
    /// Paginated: how this operation pages, when not as `api.yaml`'s `pagination` says.
    pub pagination: Option<Box<RawPagination>>,
    /// Paginated without a named envelope: the fewest items a page holds (OpenAPI's
    /// `minItems` on the list).
    pub min_items: Option<u64>,
    /// A response other than 204 that has no body (the documents' "201 no content").
    #[serde(default)]
    pub empty: bool,
    /// The JSON body may be `null` instead of a value of its type (OpenAPI's nullable root):
    /// the handler returns, and the client receives, an `Option`.
    #[serde(default)]
    pub nullable: bool,
    /// Gaps this response depends on (a success code the documents leave as "—").
    #[serde(default)]
    pub gaps: Vec<String>,
    /// A sample body, for a body of any JSON (`type: json`), which has no fields to hold one.
    pub sample: Option<serde_json::Value>,
}

/// An entry of `response.also`: a status with the same body, or a response of its own.
#[derive(Debug)]
pub enum RawAlso {
    /// Another status answering the same body.
    Status(u16),
    /// Another status with a body of its own (its `also` and `headers` are not allowed).
    Response(Box<RawResponse>),
}

impl<'de> Deserialize<'de> for RawAlso {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct AlsoVisitor;
        impl<'de> Visitor<'de> for AlsoVisitor {
            type Value = RawAlso;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a status code, or a response (`{ status, type | fields | items | empty }`)")
            }
            fn visit_u64<E: de::Error>(self, code: u64) -> Result<RawAlso, E> {
                u16::try_from(code).map(RawAlso::Status).map_err(|_| E::custom(format!("{code} is not a status code")))
            }
            fn visit_i64<E: de::Error>(self, code: i64) -> Result<RawAlso, E> {
                u16::try_from(code).map(RawAlso::Status).map_err(|_| E::custom(format!("{code} is not a status code")))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RawAlso, A::Error> {
                let response = RawResponse::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(RawAlso::Response(Box::new(response)))
            }
        }
        deserializer.deserialize_any(AlsoVisitor)
    }
}

/// One failure case of an operation.
#[derive(Debug, Deserialize)]
pub struct RawError {
    /// The status code answered (4xx or 5xx), or `default` for any status not listed.
    pub status: RawStatus,
    /// When it happens, in the documents' words.
    pub when: String,
    /// The error body's type for this status, when it is not the API's (`api.errors.type`).
    #[serde(rename = "type")]
    pub ty: Option<String>,
}

/// A status code, or `default`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawStatus {
    /// A status code.
    Code(u16),
    /// `default`: any status the operation does not list.
    Default,
}

impl<'de> Deserialize<'de> for RawStatus {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct StatusVisitor;
        impl<'de> Visitor<'de> for StatusVisitor {
            type Value = RawStatus;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a status code or `default`")
            }
            fn visit_u64<E: de::Error>(self, code: u64) -> Result<RawStatus, E> {
                u16::try_from(code).map(RawStatus::Code).map_err(|_| E::custom(format!("{code} is not a status code")))
            }
            fn visit_i64<E: de::Error>(self, code: i64) -> Result<RawStatus, E> {
                u16::try_from(code).map(RawStatus::Code).map_err(|_| E::custom(format!("{code} is not a status code")))
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<RawStatus, E> {
                match text {
                    "default" => Ok(RawStatus::Default),
                    other => Err(E::custom(format!("`{other}` is not a status code or `default`"))),
                }
            }
        }
        deserializer.deserialize_any(StatusVisitor)
    }
}

/// `deprecated:` what replaces a deprecated operation.
#[derive(Debug, Deserialize)]
pub struct RawDeprecated {
    /// The name of the operation that replaces it (it may be one the documents do not show).
    pub replacement: Option<String>,
    /// Anything else worth saying.
    pub note: Option<String>,
}

/// A key that is present is `Some`, even when its value is null (`default: ~`); serde's own
/// `Option` reads null as absent.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<serde_json::Value>, D::Error> {
    serde_json::Value::deserialize(deserializer).map(Some)
}
