//! One operation call as generated code builds it ([`Call`], its [`CallBody`], path
//! [`segment`]s), and the request an attempt sends for it: the credentials presented the way
//! the operation's scheme says (a header, a query parameter or a cookie), cookies, headers,
//! and where a redirect leads. Building a request reads the client's core through an
//! [`Endpoint`] it lends, so this module stays below `core`, which sends what it builds.

use super::error::{Error, ErrorTypes};
use super::settings::{Credentials, Settings, Token};
use crate::auth::{KeyIn, SchemeKind};
use crate::error::ErrorShape;
use bytes::Bytes;
use reqwest::header::HeaderValue;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// One operation call, built by generated code.
#[derive(Debug, Clone)]
pub struct Call {
    /// The operation's name in the spec (for errors and logs).
    pub operation: &'static str,
    /// HTTP method.
    pub method: reqwest::Method,
    /// Path with parameters already percent-encoded.
    pub path: String,
    /// Query parameters, in order; repeated keys for lists. A key is the parameter's name,
    /// or one an object parameter's value gives (`filter[status]`, see
    /// [`Core::query_object`](super::Core::query_object)).
    pub query: Vec<(std::borrow::Cow<'static, str>, String)>,
    /// The body.
    pub body: Option<CallBody>,
    /// The auth schemes the operation accepts, by name, in the spec's order (empty for a
    /// public operation): alternatives, each the schemes a request carries together (one,
    /// usually). The call sends the credentials of the first alternative the client holds
    /// whole.
    pub auth: &'static [&'static [&'static str]],
    /// The error types the spec declares for the operation's failure statuses, if any.
    pub errors: Option<ErrorTypes>,
    /// The error bodies of the statuses the operation answers in another body than the API's
    /// (`api.errors.bodies`; `0` standing for `default`): where the error of such a status
    /// holds its message, status and violations.
    pub error_bodies: &'static [(u16, &'static ErrorShape)],
    /// Headers of this call only, by name and value (after the client's default ones):
    /// header parameters and the builder's `.header(..)`.
    pub headers: Vec<(String, String)>,
    /// Cookie parameters, by name and value, sent in one `Cookie` header (values
    /// percent-encoded where a cookie value cannot hold a character).
    pub cookies: Vec<(&'static str, String)>,
}

impl Call {
    /// A call of `operation` (`method` on `path`, percent-encoded already) with the caller's
    /// `headers`: public (no scheme), no error type, no query, cookie or body. Generated code
    /// sets what its operation has with the struct's update syntax.
    pub fn new(operation: &'static str, method: reqwest::Method, path: impl Into<String>, headers: Headers) -> Self {
        Call {
            operation,
            method,
            path: path.into(),
            query: Vec::new(),
            body: None,
            auth: &[],
            errors: None,
            error_bodies: &[],
            headers,
            cookies: Vec::new(),
        }
    }
}

/// The headers a caller adds to one call, by name and value.
pub type Headers = Vec<(String, String)>;

/// A call made, or the reason it cannot be (an invalid body or object query parameter).
pub type Made = Result<Call, Error>;

/// The body of a call.
#[derive(Clone)]
pub enum CallBody {
    /// JSON, serialized.
    Json(Vec<u8>),
    /// Bytes of a media type: a form, a multipart body, text, a file in memory.
    Raw {
        /// The `Content-Type` sent.
        content_type: String,
        /// The bytes.
        bytes: Bytes,
    },
    /// A stream, sent as it is read and only once (never retried).
    Stream {
        /// The `Content-Type` sent.
        content_type: String,
        /// The body, taken by the first attempt.
        stream: Arc<std::sync::Mutex<Option<reqwest::Body>>>,
    },
}

impl fmt::Debug for CallBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallBody::Json(bytes) => write!(f, "Json({} bytes)", bytes.len()),
            CallBody::Raw { content_type, bytes } => write!(f, "Raw({content_type}, {} bytes)", bytes.len()),
            CallBody::Stream { content_type, .. } => write!(f, "Stream({content_type})"),
        }
    }
}

/// The text of a scalar value (a union of scalars, as a path parameter holds it): a string
/// as it is, a number or a boolean as JSON writes it. Fails on anything else (an object, a
/// list, `null`), which no path segment can carry.
#[doc(hidden)]
pub fn scalar_text<T: serde::Serialize>(name: &str, value: &T) -> Result<String, Error> {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(text)) => Ok(text),
        Ok(serde_json::Value::Number(number)) => Ok(number.to_string()),
        Ok(serde_json::Value::Bool(flag)) => Ok(flag.to_string()),
        Ok(other) => {
            Err(Error::Config(format!("the path parameter `{name}` holds {other}, which a path segment cannot carry")))
        }
        Err(e) => Err(Error::Config(format!("the path parameter `{name}` cannot be serialized: {e}"))),
    }
}

/// Pushes the optional parameter `name` onto a call's `list` (its query, headers or cookies)
/// when it is given, as its text (`Display`: a string as it is, a number, `true`, an
/// enumeration's value). One call per parameter in a generated `call()`, instead of a branch.
#[doc(hidden)]
pub fn given<K: From<&'static str>, T: std::fmt::Display>(
    list: &mut Vec<(K, String)>,
    name: &'static str,
    value: &Option<T>,
) {
    if let Some(value) = value {
        list.push((K::from(name), value.to_string()));
    }
}

/// [`given`] for a date-time, written in RFC 3339 (`Display` writes `2024-01-15 09:30:00 UTC`).
#[doc(hidden)]
pub fn given_time<K: From<&'static str>>(
    list: &mut Vec<(K, String)>,
    name: &'static str,
    value: &Option<chrono::DateTime<chrono::Utc>>,
) {
    if let Some(value) = value {
        list.push((K::from(name), value.to_rfc3339()));
    }
}

/// A path parameter holding a list: its items' text (`Display`), each percent-encoded, joined
/// by commas (OpenAPI's `simple` style: `/users/1,2`).
#[doc(hidden)]
pub fn segments<T: std::fmt::Display>(items: &[T]) -> String {
    let encoded: Vec<String> = items.iter().map(|item| segment(&item.to_string())).collect();
    encoded.join(",")
}

/// Percent-encodes a path parameter (everything but unreserved characters; `.` and `..` in
/// full, so a value can never climb out of its path).
#[doc(hidden)]
pub fn segment(value: &str) -> String {
    if value == "." || value == ".." {
        return value.replace('.', "%2E");
    }
    let mut encoded = String::with_capacity(value.len());
    for byte in value.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => encoded.push(byte as char),
            other => encoded.push_str(&format!("%{other:02X}")),
        }
    }
    encoded
}

/// Credentials as a request carries them, built once.
#[derive(Debug, Clone)]
pub(super) enum Presented {
    /// A header (`Authorization`, or an API key's), marked sensitive.
    Header(reqwest::header::HeaderName, HeaderValue),
    /// A query parameter.
    Query(&'static str, Token),
    /// A cookie.
    Cookie(&'static str, Token),
}

/// Each credential of the settings as a request carries it; a scheme the API does not declare,
/// credentials of the wrong kind, or a secret a header cannot hold fail with [`Error::Config`].
pub(super) fn present(settings: &Settings) -> Result<Vec<(&'static str, Presented)>, Error> {
    let mut presented = Vec::new();
    for (name, credentials) in &settings.credentials {
        let Some(scheme) = settings.schemes.iter().find(|s| s.name == name) else {
            let known: Vec<&str> = settings.schemes.iter().map(|s| s.name).collect();
            return Err(Error::Config(format!(
                "the API has no auth scheme `{name}` (it has: {})",
                if known.is_empty() { "none".to_owned() } else { known.join(", ") }
            )));
        };
        let sensitive = |text: &str| {
            let mut value = HeaderValue::from_str(text)
                .map_err(|_| Error::Config(format!("the credentials of `{name}` hold characters a header cannot")))?;
            value.set_sensitive(true);
            Ok::<_, Error>(value)
        };
        let how = match (scheme.kind, credentials) {
            (SchemeKind::Http { scheme: auth }, _) => {
                return Err(Error::Config(format!(
                    "`{name}` is an `http` scheme (`Authorization: {auth} ..`) the client leaves to its signer: \
                     set `.signer(..)` on the builder instead of credentials"
                )));
            }
            (SchemeKind::Bearer, Credentials::Token(token)) => {
                Presented::Header(reqwest::header::AUTHORIZATION, sensitive(&format!("Bearer {}", token.0))?)
            }
            (SchemeKind::Basic, Credentials::Basic { user, password }) => {
                use base64::Engine;
                let pair = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{}", password.0));
                Presented::Header(reqwest::header::AUTHORIZATION, sensitive(&format!("Basic {pair}"))?)
            }
            (SchemeKind::ApiKey { location: KeyIn::Header, name: header }, Credentials::Token(key)) => {
                let header = reqwest::header::HeaderName::from_bytes(header.as_bytes())
                    .map_err(|_| Error::Config(format!("`{header}` is not a header name")))?;
                Presented::Header(header, sensitive(&key.0)?)
            }
            (SchemeKind::ApiKey { location: KeyIn::Query, name: param }, Credentials::Token(key)) => {
                Presented::Query(param, key.clone())
            }
            (SchemeKind::ApiKey { location: KeyIn::Cookie, name: cookie }, Credentials::Token(key)) => {
                Presented::Cookie(cookie, key.clone())
            }
            (SchemeKind::Basic, Credentials::Token(_)) => {
                return Err(Error::Config(format!("`{name}` is a basic scheme: give it a user and password")));
            }
            (_, Credentials::Basic { .. }) => {
                return Err(Error::Config(format!("`{name}` takes a token, not a user and password")));
            }
        };
        presented.push((scheme.name, how));
    }
    Ok(presented)
}

/// A cookie value as RFC 6265 allows it: `%`, controls, space, `"`, `,`, `;`, backslash and
/// non-ASCII percent-encoded (the generated server decodes them).
pub(super) fn cookie_value(value: &str) -> String {
    let mut encoded = String::with_capacity(value.len());
    for byte in value.bytes() {
        match byte {
            0x21 | 0x23..=0x24 | 0x26..=0x2B | 0x2D..=0x3A | 0x3C..=0x5B | 0x5D..=0x7E => encoded.push(byte as char),
            other => encoded.push_str(&format!("%{other:02X}")),
        }
    }
    encoded
}

/// The client as a request reaches the API, lent by its core for building one hop: the base
/// URL, the settings (auth schemes, default headers), the credentials ready to send, the HTTP
/// client and the user agent.
pub(super) struct Endpoint<'a> {
    pub(super) base: &'a reqwest::Url,
    pub(super) settings: &'a Settings,
    pub(super) credentials: &'a [(&'static str, Presented)],
    pub(super) http: &'a reqwest::Client,
    pub(super) user_agent: &'a HeaderValue,
}

impl<'a> Endpoint<'a> {
    /// Whether the client holds what `scheme` needs: `Some` with the credentials it presents,
    /// or `Some(None)` for an `http` scheme left to the signer when one is set; `None` when
    /// it holds nothing for it.
    fn held(&self, scheme: &str) -> Option<Option<&'a Presented>> {
        match self.credentials.iter().find(|(name, _)| *name == scheme) {
            Some((_, presented)) => Some(Some(presented)),
            None if self.settings.signer.is_some() && self.left_to_signer(scheme) => Some(None),
            None => None,
        }
    }

    /// Whether `scheme` is an `http` scheme, whose credentials only a signer can give.
    fn left_to_signer(&self, scheme: &str) -> bool {
        self.settings.schemes.iter().any(|s| s.name == scheme && matches!(s.kind, SchemeKind::Http { .. }))
    }
}

impl Call {
    /// The credentials this call sends: those of every scheme of the first alternative its
    /// operation accepts whose schemes the client all holds (one scheme, usually; two keys
    /// the API asks for together); none for a public operation.
    fn presented<'a>(&self, endpoint: &Endpoint<'a>) -> Result<Vec<&'a Presented>, Error> {
        if self.auth.is_empty() {
            return Ok(Vec::new());
        }
        let held = |scheme: &&str| endpoint.held(scheme);
        let all_held = self.auth.iter().find_map(|set| set.iter().map(held).collect::<Option<Vec<_>>>());
        let all_held = all_held.map(|presented| presented.into_iter().flatten().collect());
        all_held.ok_or_else(|| {
            let alternatives: Vec<String> = self
                .auth
                .iter()
                .map(|set| set.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(" and "))
                .collect();
            let signed = self.auth.iter().flat_map(|set| set.iter()).any(|scheme| endpoint.left_to_signer(scheme));
            Error::Config(format!(
                "`{}` needs the credentials of {}; give them to the client builder{}",
                self.operation,
                alternatives.join(" or "),
                if signed { " (an `http` scheme's by its `.signer(..)`)" } else { "" }
            ))
        })
    }

    /// The alternative of the operation's `auth` whose credentials this call sends (as
    /// [`Call::presented`] chooses it); empty for a public operation or when none is held.
    pub(super) fn alternative(&self, endpoint: &Endpoint<'_>) -> &'static [&'static str] {
        let held = |scheme: &&str| endpoint.held(scheme).is_some();
        self.auth.iter().copied().find(|set| set.iter().all(held)).unwrap_or(&[])
    }

    /// The URL of this call: the base URL, the path and the query, without credentials.
    fn url(&self, base: &reqwest::Url) -> Result<reqwest::Url, Error> {
        let mut url = match join_path(base, &self.path) {
            Ok(url) => url,
            Err(e) => {
                return Err(Error::Config(format!("the path {:?} does not join the base URL: {e}", self.path)));
            }
        };
        if !self.query.is_empty() {
            url.query_pairs_mut().extend_pairs(self.query.iter().map(|(key, value)| (key.as_ref(), value.as_str())));
        }
        Ok(url)
    }

    /// The first request of an attempt at this call: its own URL, method and body.
    pub(super) fn first_hop(&self, endpoint: &Endpoint<'_>) -> Result<Hop, Error> {
        let url = self.url(endpoint.base)?;
        let credentials = same_origin(&url, endpoint.base);
        Ok(Hop { url, method: self.method.clone(), body: true, credentials })
    }

    /// Where a redirect answer (`status` with `headers`) to `hop` leads, when the client
    /// follows it: 301, 302 (a POST becomes a GET without body), 303 (a GET, or a HEAD,
    /// without body), 307 and 308 (the same method and body, unless the body was a stream,
    /// sent once), to an `http` or `https` URL. Credentials go only where the URL has the
    /// API's origin (scheme, host and port of the base URL); elsewhere the query parameters
    /// that carry the API's keys are taken out of the URL too. `None` when the client does not
    /// follow it (the answer is then the redirect itself).
    ///
    /// A `Location` carrying userinfo (`http://user:password@host/`) the request did not carry
    /// is refused with [`Error::Redirect`]: reqwest would send it as `Authorization: Basic`
    /// ahead of the client's own credentials, so whoever can write a `Location` on the API's
    /// origin would choose who the client authenticates as. It is refused rather than followed
    /// without the userinfo, since no API redirects there on purpose: a caller told why sees
    /// the tampering, one whose call silently succeeds elsewhere does not.
    pub(super) fn redirect(
        &self,
        endpoint: &Endpoint<'_>,
        hop: &Hop,
        status: u16,
        headers: &reqwest::header::HeaderMap,
    ) -> Result<Option<Hop>, Error> {
        use reqwest::Method;
        let (method, body) = match status {
            301 | 302 if hop.method == Method::POST => (Method::GET, false),
            303 if hop.method == Method::HEAD => (Method::HEAD, false),
            303 => (Method::GET, false),
            301 | 302 | 307 | 308 => (hop.method.clone(), hop.body),
            _ => return Ok(None),
        };
        if body && matches!(self.body, Some(CallBody::Stream { .. })) {
            return Ok(None);
        }
        let location = headers.get(reqwest::header::LOCATION).and_then(|l| l.to_str().ok());
        let Some(mut url) = location.and_then(|location| hop.url.join(location).ok()) else { return Ok(None) };
        if !matches!(url.scheme(), "http" | "https") {
            return Ok(None);
        }
        if adds_userinfo(&url, &hop.url) {
            return Err(Error::Redirect(format!(
                "the service answered {status} with a `Location` carrying a user name or password; \
                 the client does not follow it"
            )));
        }
        let credentials = same_origin(&url, endpoint.base);
        if !credentials {
            let keys: Vec<&str> = query_keys(endpoint.settings.schemes).collect();
            without_params(&mut url, &keys);
        }
        Ok(Some(Hop { url, method, body, credentials }))
    }

    /// The request of one hop of an attempt at this call: the hop's URL (with the API key in the
    /// query when the operation's scheme says so and the hop goes to the API's origin), the
    /// user agent, the timeout, `Accept`, the body, the credentials (a header, a query
    /// parameter or a cookie), the cookies and the headers; a call that cannot be sent fails
    /// with [`Error::Config`]. A hop away from the API's origin carries no credentials, no
    /// `Cookie` header and none of the headers `Authorization` and `Proxy-Authorization`,
    /// whoever set them.
    pub(super) fn request(
        &self,
        endpoint: &Endpoint<'_>,
        hop: &Hop,
        timeout: Duration,
    ) -> Result<reqwest::RequestBuilder, Error> {
        let presented = if hop.credentials { self.presented(endpoint)? } else { Vec::new() };
        let mut url = hop.url.clone();
        for presented in &presented {
            if let Presented::Query(name, key) = presented
                && !url.query_pairs().any(|(param, _)| param == *name)
            {
                url.query_pairs_mut().append_pair(name, &key.0);
            }
        }
        let mut request = endpoint
            .http
            .request(hop.method.clone(), url)
            .header(reqwest::header::USER_AGENT, endpoint.user_agent.clone())
            .timeout(timeout);
        if !self.headers.iter().any(|(name, _)| name.eq_ignore_ascii_case("accept")) {
            request = request.header(reqwest::header::ACCEPT, "application/json");
        }
        match self.body.as_ref().filter(|_| hop.body) {
            None => {}
            Some(CallBody::Json(bytes)) => {
                request = request.header(reqwest::header::CONTENT_TYPE, "application/json").body(bytes.clone());
            }
            Some(CallBody::Raw { content_type, bytes }) => {
                request = request.header(reqwest::header::CONTENT_TYPE, content_type.as_str()).body(bytes.clone());
            }
            Some(CallBody::Stream { content_type, stream }) => {
                let Some(body) = stream.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take() else {
                    return Err(Error::Config(format!(
                        "the streamed body of `{}` was sent already: a stream is sent once",
                        self.operation
                    )));
                };
                request = request.header(reqwest::header::CONTENT_TYPE, content_type.as_str()).body(body);
            }
        }
        for presented in &presented {
            if let Presented::Header(name, value) = presented {
                request = request.header(name.clone(), value.clone());
            }
        }
        let keys_in_cookies: Vec<String> = presented
            .iter()
            .filter_map(|presented| match presented {
                Presented::Cookie(name, key) => Some(format!("{name}={}", cookie_value(&key.0))),
                _ => None,
            })
            .collect();
        if hop.credentials && (!self.cookies.is_empty() || !keys_in_cookies.is_empty()) {
            let pairs: Vec<String> = self
                .cookies
                .iter()
                .map(|(name, value)| format!("{name}={}", cookie_value(value)))
                .chain(keys_in_cookies)
                .collect();
            match HeaderValue::from_str(&pairs.join("; ")) {
                Ok(cookie) => request = request.header(reqwest::header::COOKIE, cookie),
                Err(_) => return Err(Error::Config("a cookie value is not valid".into())),
            }
        }
        for (name, value) in endpoint.settings.default_headers.iter().chain(&self.headers) {
            let name = reqwest::header::HeaderName::from_bytes(name.as_bytes());
            let value = HeaderValue::from_str(value);
            let (Ok(name), Ok(value)) = (name, value) else {
                return Err(Error::Config(format!(
                    "a header of `{}` is not valid: names are tokens, values visible ASCII",
                    self.operation
                )));
            };
            if !hop.credentials && CREDENTIAL_HEADERS.contains(&name) {
                continue;
            }
            request = request.header(name, value);
        }
        Ok(request)
    }
}

/// Where one request of an attempt goes: the call's own URL, or where a redirect led.
#[derive(Debug, Clone)]
pub(super) struct Hop {
    pub(super) url: reqwest::Url,
    pub(super) method: reqwest::Method,
    /// The call's body is sent (not after a 303, nor a 301 or 302 of a POST).
    pub(super) body: bool,
    /// The URL has the API's origin: the credentials go too.
    pub(super) credentials: bool,
}

/// Headers that carry credentials, never sent away from the API's origin (reqwest's own
/// list, for a caller's default headers; the API's keys in headers are left out by scheme).
const CREDENTIAL_HEADERS: [reqwest::header::HeaderName; 3] =
    [reqwest::header::AUTHORIZATION, reqwest::header::COOKIE, reqwest::header::PROXY_AUTHORIZATION];

/// Whether two URLs have the same origin: scheme, host and port.
pub(super) fn same_origin(a: &reqwest::Url, b: &reqwest::Url) -> bool {
    a.scheme() == b.scheme() && a.host_str() == b.host_str() && a.port_or_known_default() == b.port_or_known_default()
}

/// True when `to` carries a user name or password other than `from`'s (a base URL's own
/// userinfo, kept by a relative `Location`, is the caller's).
fn adds_userinfo(to: &reqwest::Url, from: &reqwest::Url) -> bool {
    let userinfo = |url: &reqwest::Url| (url.username().to_owned(), url.password().map(str::to_owned));
    userinfo(to) != (String::new(), None) && userinfo(to) != userinfo(from)
}

/// The query parameters that carry API keys, by the API's schemes.
pub(super) fn query_keys(schemes: &[crate::auth::Scheme]) -> impl Iterator<Item = &'static str> + '_ {
    schemes.iter().filter_map(|scheme| match scheme.kind {
        SchemeKind::ApiKey { location: KeyIn::Query, name } => Some(name),
        _ => None,
    })
}

/// `url` without the query parameters named `names` (left as it was when it has none).
fn without_params(url: &mut reqwest::Url, names: &[&str]) {
    if !url.query_pairs().any(|(name, _)| names.contains(&name.as_ref())) {
        return;
    }
    let kept: Vec<(String, String)> = url
        .query_pairs()
        .filter(|(name, _)| !names.contains(&name.as_ref()))
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    if kept.is_empty() {
        url.set_query(None);
    } else {
        url.query_pairs_mut().clear().extend_pairs(kept);
    }
}

/// The base URL with `path` appended (the base's own path kept: `https://h/api/` and
/// `/v1/x` give `https://h/api/v1/x`). The path is joined as `./<path>`: a first segment
/// holding a colon (Google's `/v1beta:estimateCostScenario`) would otherwise read as a scheme.
fn join_path(base: &reqwest::Url, path: &str) -> Result<reqwest::Url, impl std::fmt::Display + std::fmt::Debug> {
    base.join(&format!("./{}", path.trim_start_matches('/')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_joins_the_base_even_when_its_first_segment_holds_a_colon() {
        let base = reqwest::Url::parse("https://api.example.com/base/").unwrap();
        let joined = |path: &str| join_path(&base, path).unwrap().to_string();
        assert_eq!(joined("/v1beta:estimateCostScenario"), "https://api.example.com/base/v1beta:estimateCostScenario");
        assert_eq!(joined("/v1/jobs/a:cancel"), "https://api.example.com/base/v1/jobs/a:cancel");
        assert_eq!(joined("/"), "https://api.example.com/base/");
    }

    #[test]
    fn segments_are_percent_encoded() {
        assert_eq!(segment("a b/c?d"), "a%20b%2Fc%3Fd");
        assert_eq!(segment("é"), "%C3%A9");
        assert_eq!(segment(".."), "%2E%2E");
        assert_eq!(segment("a.b"), "a.b");
        // A list's items each encoded, an item's own comma too, joined by plain commas.
        assert_eq!(segments(&["a,b", "c d"]), "a%2Cb,c%20d");
        assert_eq!(segments(&[1, 22]), "1,22");
        assert_eq!(segments::<i64>(&[]), "");
    }
}
