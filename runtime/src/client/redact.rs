//! The secrets a client holds, taken out of everything it reports ([`Redactor`]).
//!
//! A service may echo a caller's credentials back: in an error message, in a header, in a
//! body that does not decode, in a link. What the client reports (an [`Error`]'s `Display`
//! and `Debug`, its message, violations, body, headers and snippets, the URLs it quotes) holds
//! none of them, in any form a service writes them:
//!
//! - each secret the credentials hold (a token, an API key, a password, and the base64 of
//!   `user:password` that `Authorization: Basic` carries), raw;
//! - percent-encoded (every byte but unreserved ones, as in a path; the query's encoding, as
//!   the client sends a key there; the cookie's), with upper- or lower-case hex digits;
//! - JSON-escaped (serde's escapes, with `/` as `\/` as PHP writes it, everything beyond ASCII
//!   as `\uXXXX` as Python writes it, `<`, `>`, `&` as Go writes them); and in a JSON text,
//!   a string literal holding a secret once decoded, however it is escaped, is rewritten;
//! - written with any of its bytes escaped, however an encoder chose them: `%XX` in either
//!   case (Python's `quote` keeps `/`, JavaScript's `encodeURIComponent` keeps `!*'()`, some
//!   encode every byte) and JSON's `\uXXXX`, `\/` and the like, in any text, mixed or not;
//! - in a URL, the value of every query parameter carrying one of the API's keys (its query
//!   API-key schemes), whatever it holds.
//!
//! Each is replaced by `<redacted>` (percent-encoded, `%3Credacted%3E`, where a URL type
//! encodes it). Secrets shorter than 4 bytes are left alone: they would blank out ordinary
//! words. What a caller asks for explicitly ([`Error::body_as`], a success's body and headers)
//! is left as the service sent it.

use super::error::{Error, TokenError};
use super::settings::{Credentials, Settings};
use crate::validate::{Violation, Violations};
use std::fmt;
use std::sync::Arc;

/// What stands in for a secret.
pub(super) const MARKER: &str = "<redacted>";

/// The shortest secret redacted: shorter ones would blank out ordinary words of a message.
const SHORTEST_REDACTED: usize = 4;

/// Takes the secrets a client holds out of what it reports; cloned cheaply, never printed.
#[derive(Clone, Default)]
pub(super) struct Redactor(Arc<Forms>);

#[derive(Default)]
struct Forms {
    /// Every form of every secret, longest first.
    forms: Vec<String>,
    /// The secrets themselves (those long enough to redact), found also through escapes.
    secrets: Vec<String>,
    /// The query parameters carrying the API's keys.
    query_keys: Vec<&'static str>,
}

impl fmt::Debug for Redactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"<redacted>\"")
    }
}

impl Redactor {
    /// The redactor of the credentials and auth schemes of `settings`.
    pub(super) fn new(settings: &Settings) -> Self {
        use base64::Engine;
        let mut secrets = Vec::new();
        for (_, credentials) in &settings.credentials {
            match credentials {
                Credentials::Token(token) => secrets.push(token.0.to_string()),
                Credentials::Basic { user, password } => {
                    secrets.push(password.0.to_string());
                    secrets.push(base64::engine::general_purpose::STANDARD.encode(format!("{user}:{}", password.0)));
                }
            }
        }
        secrets.retain(|secret| secret.len() >= SHORTEST_REDACTED);
        let query_keys = super::call::query_keys(settings.schemes).collect();
        Redactor::of(secrets, query_keys)
    }

    fn of(mut secrets: Vec<String>, query_keys: Vec<&'static str>) -> Self {
        let mut forms: Vec<String> =
            secrets.iter().flat_map(|secret| forms_of(secret)).filter(|form| form.len() >= SHORTEST_REDACTED).collect();
        // Longest first, so a form holding another is replaced whole.
        forms.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        forms.dedup();
        secrets.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        secrets.dedup();
        Redactor(Arc::new(Forms { forms, secrets, query_keys }))
    }

    /// The redactor of these secrets (a token provider's: a client secret, a refresh token),
    /// with no query keys.
    #[cfg(feature = "oauth2")]
    pub(super) fn of_secrets(secrets: impl IntoIterator<Item = String>) -> Self {
        let secrets = secrets.into_iter().filter(|secret| secret.len() >= SHORTEST_REDACTED).collect();
        Redactor::of(secrets, Vec::new())
    }

    /// This redactor and the `extra` secrets (the tokens providers gave for one call).
    pub(super) fn with(&self, extra: impl IntoIterator<Item = String>) -> Self {
        let mut secrets = self.0.secrets.clone();
        secrets.extend(extra.into_iter().filter(|secret| secret.len() >= SHORTEST_REDACTED));
        Redactor::of(secrets, self.0.query_keys.clone())
    }

    fn is_empty(&self) -> bool {
        self.0.forms.is_empty() && self.0.query_keys.is_empty()
    }

    /// `text` with every form of every secret replaced (see the module docs).
    pub(super) fn text(&self, text: &str) -> String {
        if self.0.forms.is_empty() {
            return text.to_owned();
        }
        let text = self.json_strings(text).unwrap_or_else(|| text.to_owned());
        self.forms(text)
    }

    /// `text` with every form of every secret replaced by the marker, outside markers already
    /// there (so a text redacted twice reads the same).
    fn forms(&self, mut text: String) -> String {
        for form in &self.0.forms {
            if text.contains(form.as_str()) {
                text = replace_outside_markers(&text, form);
            }
        }
        if text.contains(['%', '\\']) {
            text = replace_escaped(&text, &self.0.secrets);
        }
        text
    }

    /// `text` with each JSON string literal that holds a secret once decoded written again,
    /// redacted; `None` when none does. Only literals with escapes are decoded (one without is
    /// its own text, which [`Redactor::forms`] reads as it is).
    fn json_strings(&self, text: &str) -> Option<String> {
        if !text.contains('\\') {
            return None;
        }
        let bytes = text.as_bytes();
        let mut out = String::new();
        let (mut copied, mut at) = (0, 0);
        while let Some(start) = bytes[at..].iter().position(|&b| b == b'"').map(|i| i + at) {
            let (mut end, mut escaped) = (start + 1, false);
            while end < bytes.len() && bytes[end] != b'"' {
                if bytes[end] == b'\\' {
                    escaped = true;
                    end += 1;
                }
                end += 1;
            }
            if end >= bytes.len() {
                break;
            }
            let literal = &text[start..=end];
            if escaped && let Ok(decoded) = serde_json::from_str::<String>(literal) {
                let clean = self.forms(decoded.clone());
                if clean != decoded {
                    out.push_str(&text[copied..start]);
                    out.push_str(&serde_json::to_string(&clean).unwrap_or_default());
                    copied = end + 1;
                }
            }
            at = end + 1;
        }
        if copied == 0 {
            return None;
        }
        out.push_str(&text[copied..]);
        Some(out)
    }

    /// A URL as text, the value of every query parameter carrying one of the API's keys
    /// replaced, then every form of every secret.
    pub(super) fn url_text(&self, url: &str) -> String {
        if self.is_empty() {
            return url.to_owned();
        }
        let (before, fragment) = url.split_once('#').map_or((url, None), |(before, after)| (before, Some(after)));
        let mut clean = match before.split_once('?') {
            Some((path, query)) => {
                let pieces: Vec<String> = query
                    .split('&')
                    .map(|piece| {
                        let raw_name = piece.split('=').next().unwrap_or_default();
                        let name = form_urlencoded::parse(raw_name.as_bytes()).next().map(|(name, _)| name);
                        match name {
                            Some(name) if self.0.query_keys.contains(&name.as_ref()) => format!("{raw_name}={MARKER}"),
                            _ => piece.to_owned(),
                        }
                    })
                    .collect();
                format!("{path}?{}", pieces.join("&"))
            }
            None => before.to_owned(),
        };
        if let Some(fragment) = fragment {
            clean.push('#');
            clean.push_str(fragment);
        }
        self.text(&clean)
    }

    /// A URL as [`Redactor::url_text`] writes it (the marker percent-encoded by the URL).
    pub(super) fn url(&self, url: &reqwest::Url) -> reqwest::Url {
        if self.is_empty() {
            return url.clone();
        }
        reqwest::Url::parse(&self.url_text(url.as_str())).unwrap_or_else(|_| {
            let mut bare = url.clone();
            bare.set_query(None);
            bare
        })
    }

    /// The headers, every value holding a form of a secret redacted.
    pub(super) fn headers(&self, mut headers: reqwest::header::HeaderMap) -> reqwest::header::HeaderMap {
        if self.0.forms.is_empty() {
            return headers;
        }
        for value in headers.values_mut() {
            let text = String::from_utf8_lossy(value.as_bytes());
            let clean = self.text(&text);
            if clean != text {
                *value = reqwest::header::HeaderValue::from_bytes(clean.as_bytes())
                    .unwrap_or(reqwest::header::HeaderValue::from_static(MARKER));
            }
        }
        headers
    }

    fn violations(&self, violations: Vec<Violation>) -> Vec<Violation> {
        violations
            .into_iter()
            .map(|violation| Violation { path: self.text(&violation.path), message: self.text(&violation.message) })
            .collect()
    }

    /// The error with every secret taken out of what it reports: the text of a received body
    /// (message, violations, raw body, snippet), its headers, the URL of a transport failure,
    /// a pagination error's link. The decoded error body ([`Error::body_as`]) is left as the
    /// service sent it.
    pub(super) fn error(&self, error: Error) -> Error {
        if self.is_empty() {
            return error;
        }
        match error {
            Error::Api { status, code, message, violations, body, headers, decoded } => Error::Api {
                status,
                code,
                message: self.text(&message),
                violations: self.violations(violations),
                body: self.text(&body),
                headers: Box::new(self.headers(*headers)),
                decoded,
            },
            Error::Transport(error) => match error.url().map(|url| self.url(url)) {
                Some(url) => Error::Transport(error.with_url(url)),
                None => Error::Transport(error),
            },
            Error::Decode { path, message, snippet } => {
                Error::Decode { path: self.text(&path), message: self.text(&message), snippet: self.text(&snippet) }
            }
            Error::Invalid(violations) => Error::Invalid(Violations(self.violations(violations.0))),
            Error::Pagination(message) => Error::Pagination(self.text(&message)),
            Error::Config(message) => Error::Config(self.text(&message)),
            Error::Redirect(message) => Error::Redirect(self.text(&message)),
            Error::Token { scheme, error: TokenError::Refused { error, description } } => Error::Token {
                scheme,
                error: TokenError::Refused { error, description: description.map(|text| self.text(&text)) },
            },
            other @ (Error::Timeout(_) | Error::TooLarge { .. } | Error::Token { .. }) => other,
        }
    }
}

/// Every form of `secret` a service may write it in (see the module docs).
fn forms_of(secret: &str) -> Vec<String> {
    let json = serde_json::to_string(secret).unwrap_or_default();
    let json = json.get(1..json.len().saturating_sub(1)).unwrap_or_default().to_owned();
    let mut ascii = String::new();
    for unit in json.encode_utf16() {
        match char::from_u32(u32::from(unit)).filter(char::is_ascii) {
            Some(c) => ascii.push(c),
            None => ascii.push_str(&format!("\\u{unit:04x}")),
        }
    }
    let go = json.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026");
    let percent = percent_encoded(secret, |b| b.is_ascii_alphanumeric() || b"-._~".contains(&b));
    let query: String = form_urlencoded::byte_serialize(secret.as_bytes()).collect();
    let cookie = super::call::cookie_value(secret);
    let mut forms = vec![secret.to_owned(), json.replace('/', "\\/"), ascii.replace('/', "\\/"), ascii, go, json];
    for encoded in [percent, query, cookie] {
        forms.push(lower_hex(&encoded));
        forms.push(encoded);
    }
    forms
}

/// `text` with every occurrence of a secret written with escapes (see the module docs)
/// replaced by the marker: `text` is decoded once, each decoded byte remembering where its
/// escape starts, and read from left to right; where a secret starts (the longest first), the
/// text it was decoded from is replaced, unless it touches a marker already there. One pass:
/// the work is the text's length times the secrets'.
fn replace_escaped(text: &str, secrets: &[String]) -> String {
    if u32::try_from(text.len()).is_err() {
        return text.to_owned();
    }
    let decoded = Decoded::of(text);
    let markers: Vec<std::ops::Range<usize>> = text.match_indices(MARKER).map(|(at, m)| at..at + m.len()).collect();
    let touches_marker = |range: &std::ops::Range<usize>| {
        let next = markers.partition_point(|marker| marker.end <= range.start);
        markers.get(next).is_some_and(|marker| marker.start < range.end)
    };
    let mut out = String::with_capacity(text.len());
    let (mut copied, mut at) = (0, 0);
    while at < decoded.bytes.len() {
        let rest = &decoded.bytes[at..];
        let Some(secret) = secrets.iter().map(String::as_bytes).find(|secret| rest.starts_with(secret)) else {
            at += 1;
            continue;
        };
        let range = decoded.start_of(at, text.len())..decoded.start_of(at + secret.len(), text.len());
        let whole = text.is_char_boundary(range.start) && text.is_char_boundary(range.end);
        if whole && range.start >= copied && !touches_marker(&range) {
            out.push_str(&text[copied..range.start]);
            out.push_str(MARKER);
            copied = range.end;
            at += secret.len();
        } else {
            at += 1;
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// A text with its escapes decoded (`%XX`, and JSON's `\uXXXX`, surrogate pairs included,
/// and `\/`, `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`); anything else kept as it is.
struct Decoded {
    bytes: Vec<u8>,
    /// For each decoded byte, where the text it came from starts (4 bytes each: an error's
    /// text is at most the response limit, far below 4 GiB).
    starts: Vec<u32>,
}

impl Decoded {
    fn of(text: &str) -> Decoded {
        let raw = text.as_bytes();
        let mut decoded = Decoded { bytes: Vec::with_capacity(raw.len()), starts: Vec::with_capacity(raw.len()) };
        let mut i = 0;
        while i < raw.len() {
            let (bytes, taken) = escape_at(raw, i).unwrap_or_else(|| (vec![raw[i]], 1));
            for byte in bytes {
                decoded.bytes.push(byte);
                decoded.starts.push(i as u32);
            }
            i += taken;
        }
        decoded
    }

    /// Where the text of decoded byte `index` starts (`len` past the last).
    fn start_of(&self, index: usize, len: usize) -> usize {
        self.starts.get(index).map_or(len, |&start| start as usize)
    }
}

/// The bytes the escape at `raw[i]` stands for and its length, if one starts there.
fn escape_at(raw: &[u8], i: usize) -> Option<(Vec<u8>, usize)> {
    let hex = |at: usize, digits: usize| -> Option<u32> {
        let text = std::str::from_utf8(raw.get(at..at + digits)?).ok()?;
        text.bytes().all(|b| b.is_ascii_hexdigit()).then(|| u32::from_str_radix(text, 16).ok())?
    };
    match (raw[i], raw.get(i + 1)) {
        (b'%', _) => Some((vec![hex(i + 1, 2)? as u8], 3)),
        (b'\\', Some(b'u')) => {
            let unit = hex(i + 2, 4)?;
            let (c, taken) = match unit {
                0xD800..=0xDBFF => {
                    let low = (raw.get(i + 6..i + 8) == Some(&b"\\u"[..])).then(|| hex(i + 8, 4)).flatten()?;
                    (char::decode_utf16([unit as u16, low as u16]).next()?.ok()?, 12)
                }
                _ => (char::from_u32(unit)?, 6),
            };
            Some((c.to_string().into_bytes(), taken))
        }
        (b'\\', Some(&c)) => {
            let byte = match c {
                b'/' | b'"' | b'\\' => c,
                b'b' => 0x08,
                b'f' => 0x0C,
                b'n' => b'\n',
                b'r' => b'\r',
                b't' => b'\t',
                _ => return None,
            };
            Some((vec![byte], 2))
        }
        _ => None,
    }
}

/// `text` with every byte but those `keep` allows written `%XX`.
fn percent_encoded(text: &str, keep: impl Fn(u8) -> bool) -> String {
    text.bytes().map(|b| if keep(b) { (b as char).to_string() } else { format!("%{b:02X}") }).collect()
}

/// A percent-encoded text with the hex digits of each `%XX` in lower case.
fn lower_hex(encoded: &str) -> String {
    let mut out = String::with_capacity(encoded.len());
    let mut rest = encoded;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        let escape = rest.get(at..at + 3).unwrap_or(&rest[at..]);
        out.push_str(&escape.to_ascii_lowercase());
        rest = &rest[at + escape.len()..];
    }
    out.push_str(rest);
    out
}

/// `text` with every `form` outside a marker replaced by the marker.
fn replace_outside_markers(text: &str, form: &str) -> String {
    let markers: Vec<std::ops::Range<usize>> = text.match_indices(MARKER).map(|(at, m)| at..at + m.len()).collect();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for (at, _) in text.match_indices(form) {
        let end = at + form.len();
        if markers.iter().any(|marker| at < marker.end && marker.start < end) {
            continue;
        }
        out.push_str(&text[copied..at]);
        out.push_str(MARKER);
        copied = end;
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redactor(secrets: &[&str], query_keys: &[&'static str]) -> Redactor {
        Redactor::of(secrets.iter().map(|s| (*s).to_owned()).collect(), query_keys.to_vec())
    }

    #[test]
    fn every_form_of_a_secret_is_replaced() {
        let r = redactor(&["k/é+\"<1"], &[]);
        for form in [
            "k/é+\"<1",
            "k\\/é+\\\"<1",
            "k\\/\\u00e9+\\\"<1",
            "k/\\u00e9+\\\"<1",
            "k/é+\\\"\\u003c1",
            "k%2F%C3%A9%2B%22%3C1",
            "k%2f%c3%a9%2b%22%3c1",
        ] {
            assert_eq!(r.text(&format!("a {form} b")), "a <redacted> b", "{form}");
        }
        // Any escape inside a JSON string.
        assert_eq!(r.text(r#"{"m": "x \u006b\/\u00e9\u002b\"\u003c1 y"}"#), r#"{"m": "x <redacted> y"}"#);
    }

    #[test]
    fn a_secret_is_found_through_any_escapes_an_encoder_chose() {
        let r = redactor(&["k/é+\"<1", "tok-secret-2"], &[]);
        for form in [
            "k/%C3%A9%2B%22%3C1",                   // Python's `quote`: `/` kept
            "k%2F%c3%A9%2b%22%3C1",                 // hex digits of both cases
            "%6B%2F%C3%A9%2B%22%3C%31",             // every byte
            "\\u006b\\/\\u00e9+\\u0022<1",          // JSON escapes outside a JSON string
            "k\\/%C3%A9%2B\\\"%3c1",                // both at once
            "%74%6f%6b%2d%73%65%63%72%65%74%2d%32", // the token, every byte
        ] {
            let text = format!("a {form} b");
            assert_eq!(r.text(&text), "a <redacted> b", "{form}");
            assert_eq!(r.text(&r.text(&text)), "a <redacted> b", "{form}: twice");
        }
        // Escapes that decode to no secret, or to one cut short, are left as they are.
        for kept in ["k/%C3%A9%2B%22%3C", "100% \\u00e9 %zz \\q \\ud800"] {
            assert_eq!(r.text(kept), kept);
        }
    }

    #[test]
    fn redacting_twice_reads_the_same_and_short_secrets_are_left() {
        let r = redactor(&["redacted"], &[]);
        let once = r.text("a redacted b");
        assert_eq!(once, "a <redacted> b");
        assert_eq!(r.text(&once), once);
    }

    #[test]
    fn query_keys_are_taken_out_of_urls_whatever_they_hold() {
        let r = redactor(&["s3cret"], &["access_token"]);
        assert_eq!(
            r.url_text("https://x.example/a?b=1&access_token=other&c=s3cret#f"),
            "https://x.example/a?b=1&access_token=<redacted>&c=<redacted>#f"
        );
        let url = reqwest::Url::parse("https://x.example/a?access_token=other").unwrap();
        assert_eq!(r.url(&url).as_str(), "https://x.example/a?access_token=%3Credacted%3E");
    }
}
