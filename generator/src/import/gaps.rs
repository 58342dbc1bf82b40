//! The gaps an import records: what the document says that the format cannot hold yet, each
//! beside the decision taken. One kind of gap is one entry of the spec's `gaps:`, used by every
//! element it concerns (so `apigen gaps` lists where); an operation left out has a gap of its
//! own, since no element is left to refer to it.

use indexmap::IndexMap;
use std::collections::BTreeMap;

/// A kind of gap: its id in the spec, what the format cannot hold, and the decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Kind {
    /// The gap id (`header-params`).
    pub id: &'static str,
    /// What the document says that the format cannot hold.
    pub gap: &'static str,
    /// What the import did about it.
    pub decision: &'static str,
}

macro_rules! kinds {
    ($($name:ident = $id:literal, $gap:literal, $decision:literal;)*) => {
        $(
            #[doc = $gap]
            pub const $name: Kind = Kind { id: $id, gap: $gap, decision: $decision };
        )*

        /// Every kind of gap an import records (bench/conformance's rules name them by id).
        pub fn kinds() -> &'static [Kind] {
            &[$($name),*]
        }
    };
}

kinds! {
    IGNORED_HEADER = "ignored-header-params", "Header parameters named `Accept`, `Content-Type` or `Authorization` (in any case), which OpenAPI 3 says SHALL be ignored.",
        "Left out of the operation: the media types travel as its `requestBody` and `responses` content say, the credentials as its security schemes say (an operation whose document names no scheme is public).";
    HEADER_PARAM = "header-params", "Header parameters naming a header the HTTP layer sets itself (`Content-Length`, `Cookie`, `Host`, `Transfer-Encoding`), or that are not HTTP tokens.",
        "Left out of the operation.";
    UNLISTED_REFUSALS = "unlisted-refusals", "Operations whose responses list no 400 (nor `4XX`, nor `default`): the generated router refuses a request breaking the document's rules with 400 in the API's error body (401 without credentials; 404, 405, 406, 413 and 415 where they apply), statuses the document does not list.",
        "Kept: the router refuses as the format does; bench/conformance.sh counts these refusals apart as the document's own incompleteness.";
    COOKIE_PARAM = "cookie-params", "Cookie parameters whose names are not HTTP tokens.",
        "Left out of the operation.";
    OBJECT_PARAM = "object-params", "Parameters the format cannot hold yet: unions and lists of objects outside `content: application/json`, exploded objects of nested values, without fields or with a field another parameter names, objects in a path or header, `content` in a path or in a media type that is not JSON.",
        "Left out of the operation.";
    CONTENT_SCALAR = "content-scalar-params", "Scalar parameters declared with `content: application/json` (as JSON a string would travel quoted: `\"abc\"`).",
        "Kept as plain scalar parameters, the value unquoted.";
    PARAM_STYLE = "param-styles", "Query lists sent as one comma-, space- or pipe-separated value (`explode: false`).",
        "Sent as repeated keys (`a=1&a=2`), the format's only list style.";
    PARAM_COLLISION = "param-name-collisions", "Two parameters of one operation share a name and a place (header names compared without case).",
        "The later one is left out. (Parameters whose Rust names collide keep their wire names and take `rust_name: <name>_2`.)";
    PATH_PARAM_RENAMED = "path-param-names", "Path parameters named with characters the format refuses, or named differently by operations sharing a route.",
        "Renamed (a path parameter's name never travels: the wire is unchanged).";
    UNDECLARED_PATH_PARAM = "undeclared-path-params", "A `{parameter}` of the path that the operation does not declare.",
        "Declared as a required string path parameter (its sample one item, as text, when the document's was a list of numbers the format cannot type).";
    API_KEY = "api-key-auth", "API keys whose location is not a header, the query or a cookie, or that name no parameter.",
        "The scheme is left out: operations needing only it are public; add the key to the HTTP client's default headers.";
    BASIC = "other-http-auth", "Authentication the format cannot hold: mutual TLS, an `http` scheme naming no auth-scheme, a type OpenAPI does not define.",
        "The scheme is left out: operations needing only it are public; add the credentials to the HTTP client's default headers.";
    SIGNED = "http-signer", "HTTP authentication other than bearer and basic (Digest, HOBA, HTTP signatures, a vendor's auth-scheme), whose credentials apigen cannot compute.",
        "Kept as an `http` scheme with its auth-scheme: the generated client leaves it to a signer the user sets (`.signer(..)`, which sees the final request), and the server hands the whole `Authorization` value to the authenticator.";
    OPTIONAL_AUTH = "optional-auth", "Security that also allows no credential (`{}` among the alternatives), or an alternative naming a scheme the format cannot hold.",
        "An alternative keeps the schemes the format holds (carried together, as the document asks); an alternative of no credential is dropped, so a credential is required.";
    SERVERS = "servers", "Servers whose URL is relative or has a variable without a default.",
        "Left out of `api.servers`.";
    METHOD = "methods", "An operation whose method is TRACE (or not an HTTP method).",
        "Left out.";
    PATH = "paths", "A path the format cannot route: a query in the path (`/alerts?lat={lat}`), a fragment naming no declared header or query parameter (`/files/{id}#add_shared_link`), optional segments in parentheses (`(/ref/{ref})`), two parameters with no text between them, `%` or a space, an empty segment.",
        "Operation left out.";
    ROUTE = "routes", "Two operations with the same method on the same route (up to parameter names).",
        "The later operation is left out.";
    NON_JSON_BODY = "non-json-request-bodies", "A request body the format can neither type nor pass raw: a multipart form it cannot type (files beside nested values, a schema that is not an object of properties), a media range (`image/*`).",
        "A required one: operation left out. An optional one: left out of the operation.";
    RAW_REQUEST = "raw-request-bodies", "A request body whose schema the format cannot type, passed raw: XML (`application/xml`, `text/xml`, `application/<x>+xml`), a urlencoded form that is not an object of properties (`allOf`, `oneOf`, no properties), text whose schema says more than a string.",
        "A `string` body in its media types: the client sends the text as given, the server checks the `Content-Type` (415 otherwise) and UTF-8 and hands the text to the handler, the schema unchecked.";
    PART_ENCODING = "part-encoding", "A form's `encoding` saying what the format does not keep: a multipart part's `headers`, or a urlencoded field's `contentType` (its value written as JSON text in the form).",
        "The part travels without those headers, the field as OpenAPI's defaults write it; a multipart part's `contentType` is kept (the field's `media_type`).";
    REQUEST_ALTERNATIVES = "request-media-alternatives", "A request body also offered in a media range (`image/*`, `*/*` beside another media type), which a client cannot send as itself. (Every concrete media type is kept: the body's own, and each other one as an alternative typed as its format can, `body.alternatives`.)",
        "The range is left out: the server answers 415 to a media type no alternative lists.";
    FORM_OBJECTS = "form-objects", "Objects inside a urlencoded form body without an `encoding` of `style: deepObject`: OpenAPI's default (`style: form`, exploded) writes an object's fields as keys of their own (`amount=1&currency=EUR`), beside the form's.",
        "Read and written in brackets (`instructed_amount[amount]=1`), as Stripe's `deepObject` encoding says: a client writing OpenAPI's default is refused for the object it seems to leave out.";
    BODY_ON_GET = "bodies-on-get-delete", "A request body on a GET or HEAD operation (a DELETE's is kept).",
        "Left out of the operation.";
    XML_RESPONSE = "xml-responses", "A success response in XML (`application/xml`, `text/xml`, `application/atom+xml`): the format has no XML type.",
        "Answered and read as text (a `string`; raw bytes when another media type that is not text is listed beside it), its schema unchecked.";
    NON_JSON_RESPONSE = "non-json-responses", "A success response that is not JSON and that the format cannot hold: a media type that is neither concrete nor a range (`*/png`). (A response given only as ranges, `image/*` or `*/*`, is raw bytes whose handler names the concrete type.)",
        "Declared without body (`empty: true`): the generated client does not read it.";
    RESPONSE_ALTERNATIVES = "response-media-alternatives", "A JSON success response that also offers media types the format cannot answer for the same value (`application/xml`, `text/plain`, `application/zip` beside `application/json`), or that is JSON only by a media range (`*/*`).",
        "The JSON body is kept (a media range is answered as `application/json`); the other media types are not: the client asks for JSON, and the server answers 406 to an `Accept` naming only another.";
    OTHER_SUCCESS = "success-bodies", "Another success status answering a different body than the first.",
        "Only the first success status is kept with its body; the others are left out.";
    DEFAULT_SUCCESS = "default-as-success", "An operation whose only response with a body is `default`.",
        "Read as the success response, status 200.";
    NO_SUCCESS = "no-success-response", "An operation that declares no success response (2xx or `default`).",
        "Status 200 without body (`empty: true`).";
    REDIRECTS = "redirect-responses", "Informational and redirect responses (1xx, 3xx).",
        "Left out.";
    RESPONSE_HEADERS = "response-headers", "Headers of responses: the format holds no response headers yet.",
        "Left out: the generated client does not expose them.";
    ERROR_BODY = "error-body", "Error responses that share no body: no component schema is the JSON body of more than half of the document's 4xx, 5xx and `default` responses.",
        "The format's built-in error body (`{\"error\": {\"code\", \"message\"}}`) is declared; the error schemas are kept as types.";
    ERROR_BODY_NO_MESSAGE = "error-body-no-message", "An error body most error responses share that `api.errors` cannot point into: not an object, or without a string message at its top or inside its `error` (`message`, `detail`, `error_description`, `title`, `error`).",
        "The format's built-in error body (`{\"error\": {\"code\", \"message\"}}`) is declared; the shared schema is kept as a type.";
    ERROR_BODY_UNFILLABLE = "error-body-unfillable", "An error body most error responses share with a required field that none of the pointers (`status`, `message`, `violations`) names or passes through and that is not a scalar the router fills with its sample (an object, a list, a pattern without example): the generated router could not write a valid value of it.",
        "The format's built-in error body (`{\"error\": {\"code\", \"message\"}}`) is declared; the shared schema is kept as a type.";
    ERROR_MEDIA = "error-media", "Error responses given only in a media type other than JSON (`text/plain`, XML).",
        "The router's own refusals (400, 401, 404, 405, 406, 413, 415) are JSON, in the API's error body; a handler's errors are too.";
    ERROR_BODY_ELSEWHERE = "error-body-elsewhere", "Client error responses (4xx, `default`) of an operation whose JSON body is another schema than the error body most error responses share (authentiq's RFC 9457 problems beside its OAuth errors).",
        "The router's own refusals of that operation (400, 401, 404, 405, 406, 413, 415) are written in `api.errors`; the handler answers the operation's own error types.";
    ERROR_BODY_BY_NAME = "error-body-by-name", "Where the error body holds its message, status and violations: OpenAPI has no word for it.",
        "Told from the field names (apigen's guide, \"Importing an OpenAPI document\") and declared as `api.errors`: check the pointers against the API's documentation.";
    PAGINATION = "pagination", "How a list pages: OpenAPI has no word for it, so the import tells it from the names the document uses (a `Link` response header, a `has_more` boolean with a `starting_after` parameter, a next cursor in the body and the parameter taking it, an `offset` or `page` parameter).",
        "Declared as the convention those names say (`pagination`; the rules are in apigen's guide, \"Importing an OpenAPI document\"): check it against the API's documentation.";
    PAGE_URL = "pagination-next-url", "Lists whose next page is a URL in the body (Azure's `nextLink`, OData's `@odata.nextLink`, `next_page_url`): the format's `cursor` style passes a token as a query parameter, and its `link` style reads the `Link` header.",
        "A plain response (no `.stream()`): the caller follows the URL.";
    PAGE_UNTOLD = "pagination-unknown", "Lists taking a paging parameter (`cursor`, `after`, `page_token`, a `page` or `offset` that is not an integer, ...) whose response shows no next position the format can read: no `Link` header, no `has_more`, no next cursor.",
        "A plain response (no `.stream()`): the caller passes the parameter itself.";
    PAGE_CURSOR_PARAM = "pagination-cursor-param", "Lists whose next position no parameter can be told to take: a next cursor in the body no query parameter is named for, a `Link` header whose next URL sets no parameter of the operation, or a cursor parameter declared otherwise (another type or constraints) by another operation, or not a scalar.",
        "A plain response (no `.stream()`): the caller passes the cursor itself.";
    PAGE_ITEMS = "pagination-items", "Pages whose items cannot be told: the body holds several lists of objects, or its types do not hold what its names say.",
        "A plain response (no `.stream()`).";
    PAGE_ITEM_ID = "pagination-item-id", "Lists with `has_more` whose items carry no string or integer `id` to pass as `starting_after`.",
        "A plain response (no `.stream()`): the caller passes the last item's cursor itself.";
    CALLBACKS = "callbacks", "Callbacks and webhooks: requests the API sends, which the format does not describe.",
        "Left out.";
    LINKS = "links", "Links between responses and operations.",
        "Left out.";
    NON_STRING_ENUM = "non-string-enums", "Enumerations of numbers or booleans (or mixing kinds): the format's enumerations hold strings or integers.",
        "Typed as the scalar; the listed values are not enforced.";
    CONTRADICTING_TYPE = "contradicting-types", "A `type` beside an `allOf` of one schema of another type (Lyft's `type: object` beside a string enumeration): no value is both, so no sample, mock answer or real one can satisfy the document.",
        "Typed as the `allOf`'s schema, as the document's examples show its values; the `type` beside it is ignored.";
    ITEM_CONSTRAINTS = "item-constraints", "Constraints on the items of a list or the values of a map that `item:` cannot hold (an inner list's count, an object's constraints): the format constrains the list itself.",
        "Left out: items are not checked.";
    NULLABLE_ITEMS = "nullable-items", "Lists or maps whose items may be null.",
        "Items are not nullable: a null item fails to decode.";
    UNION_OVERLAP = "union-overlaps", "Unions (oneOf, anyOf) whose variants cannot be told apart (the format decodes untagged unions by shape), or mix a union with other variants.",
        "Typed `json`: any value decodes, unchecked.";
    IMPLICIT_TAG = "implicit-tags", "Unions without a discriminator whose variants overlap in shape but each hold one constant in a field of one name (`type: {enum: [email]}`, `type: {enum: [sms]}`).",
        "Tagged by that field: a value without it fits several variants, which `oneOf` refuses, so every value carries it.";
    DISCRIMINATOR = "discriminators", "A discriminator the format cannot use: a variant that is not an object, that serves two tag values, or that another union tags differently.",
        "Read as an untagged union (variants told apart by shape) where possible, else typed `json`.";
    POLYMORPHIC_BASE = "polymorphic-bases", "A schema with a discriminator whose subtypes extend it (allOf) instead of being listed (oneOf).",
        "Typed as the base object: fields of the subtypes are not decoded.";
    COMPOSITION = "compositions", "allOf compositions the format's `includes` cannot say: an inline type composed, parts that are not object components, or parts giving one property differently.",
        "The parts' fields are merged into one object type.";
    UNSUPPORTED_KEYWORD = "schema-keywords", "Schema keywords the format has no word for: `not`, `patternProperties`, `if`/`then`/`else`, `dependentSchemas`, `propertyNames`, `prefixItems`, `contains`.",
        "Left out: values are not checked against them.";
    MULTIPLE_OF = "multiple-of", "`multipleOf` constraints.", "Left out: not checked.";
    UNIQUE_ITEMS = "unique-items", "`uniqueItems` on a list asking for more than one item (`minItems: 2`): apigen's samples repeat one invented item. (Other lists keep it as `unique_items`.)", "Left out: duplicates are not refused.";
    PROPERTY_COUNT = "property-counts", "`minProperties` and `maxProperties` on an object of `properties`: the format does not count a struct's fields. (A map's are its `min_items`, `max_items`.)", "Left out: not checked.";
    EXCLUSIVE_BOUND = "exclusive-bounds", "Exclusive bounds of numbers (the format's ranges are inclusive).",
        "Left out (for integers they become the inclusive bound next to them, which loses nothing).";
    NUMBER_AS_INTEGER = "number-as-integer", "A `number` with an integer format (`int32`, `int64`), a format OpenAPI defines for `integer`: Prism reads it as an integer and refuses a fraction, a validator ignoring the format (schemathesis) takes one.",
        "A number, as JSON Schema reads it: the router takes a fraction (and no range from the format); the samples, which the client sends, are whole numbers, which both readings take.";
    CONTRADICTORY = "contradictory-constraints", "Constraints no value satisfies (a minimum above the maximum), constraints that do not apply to the type (a length on a number), or bounds that are not whole numbers for integers.",
        "Left out.";
    PATTERN = "patterns", "Patterns the format cannot hold: read neither by the regex crate nor by a backtracking engine (look-around and back references are read), or given without an example that matches (the format needs a sample for each pattern).",
        "Left out: values are not checked against them.";
    LARGE_SAMPLE = "large-constraints", "Item counts above 256 or lengths above 4096 with no example (the format invents samples only up to those sizes).",
        "Left out.";
    DEFAULT_DROPPED = "defaults", "Defaults the format cannot hold: on a required field, of a structured type, null, or not a valid value of the type.",
        "Left out: an absent value stays absent.";
    EXAMPLE_DROPPED = "examples", "Examples of structured values, or examples that do not fit the type and constraints.",
        "Left out: apigen invents samples that fit.";
    READ_ONLY = "read-write-only", "A field both readOnly and writeOnly, or a constant marked either.",
        "Kept in both directions.";
    NON_STRING_CONST = "constants", "Constants that are not strings, or constants of optional fields.",
        "A string constant of an optional field is a one-value enumeration; other constants are typed by their value.";
    EXTERNAL_REF = "external-refs", "References to other documents.", "Typed `json`.";
    BROKEN_REF = "broken-refs", "References to nothing, or to something that is not a schema.", "Typed `json`.";
    TOO_DEEP = "deep-schemas", "Schemas nesting deeper than the format's limits (16 levels of lists and maps, 32 of inline schemas) or aliases of themselves.",
        "Typed `json` below the limit.";
    UNDECLARED_REQUIRED = "undeclared-required", "Names an object's `required` lists that its `properties` do not declare (any value fits them), or that `additionalProperties: false` forbids.",
        "A required field of any JSON value (`json`; the additional properties' type when they have one); left out under `additionalProperties: false`.";
    INFINITE = "infinite-types", "Types that must contain themselves (a required, non-nullable field leading back to its own type), which no finite value has.",
        "The field that closes the cycle is optional.";
    WEBHOOKS = "webhooks", "Webhooks: requests the API sends, which the format does not describe.", "Left out.";
    BAD_VALUE = "invalid-schemas", "Schema keywords with values of the wrong type (`\"pattern\": 0`, `\"required\": true`), or keys that are not schemas.",
        "Left out.";
}

/// An element left out entirely (an operation): it has a gap of its own.
#[derive(Debug, Clone)]
struct Own {
    source: String,
    gap: String,
    decision: String,
}

/// Every gap of one import, with the places each kind applies to.
#[derive(Debug, Default)]
pub struct Gaps {
    /// Places of each kind, in the order met.
    kinds: BTreeMap<Kind, Vec<String>>,
    /// Gaps of left-out elements, by id.
    own: IndexMap<String, Own>,
    /// Gaps the document carries itself (`x-gaps` of an apigen export), by id.
    carried: IndexMap<String, Own>,
    /// How many of each kind of left-out element, by the kind's id.
    left_out: BTreeMap<&'static str, usize>,
}

/// How many places a gap's `source` names before saying how many more there are.
const SOURCES_SHOWN: usize = 3;

impl Gaps {
    /// Records that `kind` applies at `pointer` (a JSON pointer of the document); returns the
    /// id elements list in their `gaps:`.
    pub fn note(&mut self, kind: Kind, pointer: &str) -> String {
        let id = self.id_of(kind);
        let places = self.kinds.entry(kind).or_default();
        if places.len() < 10_000 {
            places.push(pointer.to_owned());
        }
        id
    }

    /// The id of a kind: its own, unless the document carried a gap of that id.
    fn id_of(&self, kind: Kind) -> String {
        if self.carried.contains_key(kind.id) { format!("import-{}", kind.id) } else { kind.id.to_owned() }
    }

    /// Records an element left out for `kind`, with its own gap: `what` names the element,
    /// `why` says what about it the format cannot hold.
    pub fn left_out(&mut self, kind: Kind, id: &str, pointer: &str, what: &str, why: &str) {
        *self.left_out.entry(kind.id).or_default() += 1;
        let mut id = format!("left-out-{id}");
        let base = id.clone();
        let mut n = 2;
        while self.own.contains_key(&id) {
            id = format!("{base}-{n}");
            n += 1;
        }
        let gap = format!("{what}: {why}");
        self.own
            .insert(id, Own { source: pointer.to_owned(), gap, decision: format!("{} ({})", kind.decision, kind.id) });
    }

    /// A gap the document carries itself (an apigen export), kept under its id.
    pub fn carry(&mut self, id: &str, source: &str, gap: &str, decision: &str) {
        let own = Own { source: source.to_owned(), gap: gap.to_owned(), decision: decision.to_owned() };
        self.carried.insert(id.to_owned(), own);
    }

    /// True when the document carried a gap of this id.
    pub fn carries(&self, id: &str) -> bool {
        self.carried.contains_key(id)
    }

    /// Elements left out, by kind id.
    pub fn left_out_counts(&self) -> &BTreeMap<&'static str, usize> {
        &self.left_out
    }

    /// How many places each kind applies to, by id.
    pub fn kind_counts(&self) -> BTreeMap<&'static str, usize> {
        self.kinds.iter().map(|(kind, places)| (kind.id, places.len())).collect()
    }

    /// The `gaps:` entries, `(id, source, gap, decision)`: the carried ones, the kinds sorted
    /// by id, then the left-out elements in the order met.
    pub fn entries(&self, document: &str) -> Vec<(String, String, String, String)> {
        let mut out = Vec::new();
        for (id, own) in &self.carried {
            out.push((id.clone(), own.source.clone(), own.gap.clone(), own.decision.clone()));
        }
        let mut kinds: Vec<_> = self.kinds.iter().collect();
        kinds.sort_by_key(|(kind, _)| kind.id);
        for (kind, places) in kinds {
            let shown: Vec<&str> = places.iter().take(SOURCES_SHOWN).map(String::as_str).collect();
            let more = places.len().saturating_sub(SOURCES_SHOWN);
            let mut source = format!("{document}: {}", shown.join(", "));
            if more > 0 {
                source.push_str(&format!(" and {more} more"));
            }
            out.push((self.id_of(*kind), source, kind.gap.to_owned(), kind.decision.to_owned()));
        }
        for (id, own) in &self.own {
            out.push((id.clone(), format!("{document}: {}", own.source), own.gap.clone(), own.decision.clone()));
        }
        out
    }
}
