//! Bodies that are not JSON: how a media type is encoded ([`Encoding`]), `Accept` negotiation,
//! file parts ([`FilePart`]) and the `multipart/form-data` format (RFC 7578), read by the
//! server and written by the client.
//!
//! Multipart is hand-written here rather than taken from a crate: bodies are bounded by the
//! server's body limit and read whole, so a buffered parser of the format's few rules is
//! enough, and the crates that stream it pull a charset library into every server build.

use bytes::Bytes;
use std::borrow::Cow;
use std::fmt;

/// How a body of a media type is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// JSON (`application/json`, `application/*+json`, `text/json`).
    Json,
    /// `application/x-www-form-urlencoded`.
    Form,
    /// `multipart/form-data`.
    Multipart,
    /// Text (`text/*`, and XML: `application/xml`, `application/<x>+xml`).
    Text,
    /// Anything else: bytes as they are.
    Binary,
}

/// The media type without parameters, lower-cased (`Text/CSV; charset=utf-8` gives `text/csv`).
pub fn essence(media_type: &str) -> Cow<'_, str> {
    lower(media_type.split(';').next().unwrap_or_default().trim())
}

/// `text` in ASCII lower case, copied only when it has upper-case letters (media types on the
/// wire almost never do).
fn lower(text: &str) -> Cow<'_, str> {
    if text.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(text.to_ascii_lowercase())
    } else {
        Cow::Borrowed(text)
    }
}

/// How a body of `media_type` is written.
pub fn encoding(media_type: &str) -> Encoding {
    let essence = essence(media_type);
    match &*essence {
        "application/json" | "text/json" => Encoding::Json,
        "application/x-www-form-urlencoded" => Encoding::Form,
        "multipart/form-data" => Encoding::Multipart,
        e if e.starts_with("application/") && e.ends_with("+json") => Encoding::Json,
        e if e.starts_with("text/") => Encoding::Text,
        "application/xml" => Encoding::Text,
        e if e.starts_with("application/") && e.ends_with("+xml") => Encoding::Text,
        _ => Encoding::Binary,
    }
}

/// The `Content-Type` a text body is sent or answered in: `media_type` with `charset=utf-8`
/// added for text and XML (whose charset would otherwise be guessed), and exactly as declared
/// for anything else: a urlencoded form passed raw has no charset parameter (WHATWG URL), so
/// `application/x-www-form-urlencoded` travels as it is.
pub fn text_content_type(media_type: &str) -> Cow<'_, str> {
    let charset = encoding(media_type) == Encoding::Text && !media_type.contains("charset");
    if charset { Cow::Owned(format!("{media_type}; charset=utf-8")) } else { Cow::Borrowed(media_type) }
}

/// Whether a request's `Content-Type` is one of `accepted` (declared media types, `image/*`
/// ranges allowed): compared by essence; any JSON media type stands for every JSON one.
pub fn accepts(accepted: &[&str], content_type: &str) -> Option<usize> {
    let given = essence(content_type);
    let json = encoding(&given) == Encoding::Json;
    accepted.iter().position(|declared| {
        let declared = essence(declared);
        declared == given
            || (json && encoding(&declared) == Encoding::Json)
            || declared.strip_suffix("/*").is_some_and(|major| given.split('/').next() == Some(major))
    })
}

/// The media type of `offered` (in the operation's order of preference) an `Accept` header
/// (RFC 9110 §12.5.1) takes best: the highest `q`, then the earliest offered; `None` when it
/// takes none (406). No header, or one that does not parse, takes the first.
pub fn negotiate(accept: Option<&str>, offered: &[&'static str]) -> Option<&'static str> {
    let Some(accept) = accept.filter(|a| !a.trim().is_empty()) else { return offered.first().copied() };
    let ranges: Vec<(Cow<'_, str>, f32)> = accept
        .split(',')
        .filter_map(|range| {
            let mut parts = range.split(';');
            let media = lower(parts.next()?.trim());
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q=").or_else(|| p.trim().strip_prefix("Q=")))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            (!media.is_empty()).then_some((media, q))
        })
        .collect();
    if ranges.is_empty() {
        return offered.first().copied();
    }
    // Each offered type's quality: that of the most specific range matching it. An offered
    // range (`image/*`, an answer whose handler names the concrete type) meets any type of
    // the `Accept` within it too (`image/png`), at that type's quality.
    let quality = |offer: &str| -> f32 {
        let offer = essence(offer);
        let (major, _) = offer.split_once('/').unwrap_or((&*offer, ""));
        let exact = ranges.iter().find(|(range, _)| *range == offer);
        let family = ranges.iter().find(|(range, _)| range.strip_suffix("/*") == Some(major));
        let any = ranges.iter().find(|(range, _)| range == "*/*");
        let inside = ranges.iter().filter(|(range, _)| within(&offer, range)).map(|(_, q)| *q).reduce(f32::max);
        exact.or(family).or(any).map(|(_, q)| *q).or(inside).unwrap_or(0.0)
    };
    let mut best: Option<(&'static str, f32)> = None;
    for offer in offered {
        let q = quality(offer);
        if q > 0.0 && best.is_none_or(|(_, b)| q > b) {
            best = Some((offer, q));
        }
    }
    best.map(|(offer, _)| offer)
}

/// Whether `media_type` lies within `range` (`image/png` within `image/*`, anything within
/// `*/*`, a type within itself), compared by essence without case.
pub fn within(range: &str, media_type: &str) -> bool {
    let (range, media) = (essence(range), essence(media_type));
    match range.split_once('/') {
        Some(("*", "*")) => true,
        Some((major, "*")) => media.split_once('/').is_some_and(|(m, _)| m == major),
        _ => range == media,
    }
}

/// The concrete media type an answer declared only as a range is sent in when its handler
/// names none: `application/octet-stream` for `*/*` and `application/*` (RFC 2046's type of
/// arbitrary bytes), a common member of a well-known family (`image/png`, `audio/mpeg`,
/// `video/mp4`, `text/plain`, `font/woff2`), else `<type>/octet-stream`; a concrete type is
/// itself.
pub fn range_default(range: &str) -> Cow<'_, str> {
    let Some(major) = essence(range).strip_suffix("/*").map(str::to_owned) else { return Cow::Borrowed(range) };
    Cow::Borrowed(match major.as_str() {
        "*" | "application" => "application/octet-stream",
        "image" => "image/png",
        "audio" => "audio/mpeg",
        "video" => "video/mp4",
        "text" => "text/plain",
        "font" => "font/woff2",
        _ => return Cow::Owned(format!("{major}/octet-stream")),
    })
}

/// The media type a part declared in `allowed` is sent in: the first concrete one, else a
/// common member of the first range ([`range_default`]: `image/png` for `image/*`).
pub fn sent_type<'a>(allowed: &[&'a str]) -> Cow<'a, str> {
    match allowed.iter().find(|media| !media.contains('*')) {
        Some(concrete) => Cow::Borrowed(concrete),
        None => allowed.first().map_or(Cow::Borrowed("application/octet-stream"), |range| range_default(range)),
    }
}

/// A file part of a `multipart/form-data` body: its bytes with the file name and content type
/// the sender gave.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct FilePart {
    /// The file name the sender gave (`filename` of the part), if any.
    pub file_name: Option<String>,
    /// The part's `Content-Type`, if any.
    pub content_type: Option<String>,
    /// The file's bytes.
    pub bytes: Bytes,
}

impl FilePart {
    /// A file part of these bytes, named and typed.
    pub fn new(file_name: impl Into<String>, content_type: impl Into<String>, bytes: impl Into<Bytes>) -> Self {
        FilePart { file_name: Some(file_name.into()), content_type: Some(content_type.into()), bytes: bytes.into() }
    }
}

impl fmt::Debug for FilePart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FilePart")
            .field("file_name", &self.file_name)
            .field("content_type", &self.content_type)
            .field("size", &self.bytes.len())
            .finish()
    }
}

/// A file part is written in logs and mocks as its name, type and size; its bytes travel only
/// in multipart bodies.
impl serde::Serialize for FilePart {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut fields = crate::json::Fields::begin(serializer)?;
        fields.optional("file_name", &self.file_name);
        fields.optional("content_type", &self.content_type);
        fields.put("size", &self.bytes.len());
        fields.end()
    }
}

/// A file never travels in JSON. Read leniently (samples, mocks), a string is a text file of
/// those bytes, so a multipart body can be built from a JSON sample.
impl crate::json::FromJson for FilePart {
    fn from_json(value: crate::json::Source<'_>, d: &mut crate::json::Decoder) -> Option<Self> {
        match value.into_value() {
            serde_json::Value::String(text) if d.mode() == crate::json::Mode::Lenient => {
                Some(FilePart::new("sample.txt", "text/plain", text))
            }
            _ => d.fail("a file is sent as a part of a multipart body, not in JSON"),
        }
    }

    fn placeholder() -> Self {
        FilePart { file_name: None, content_type: None, bytes: Bytes::new() }
    }
}

impl crate::validate::Validate for FilePart {
    fn validate_into(&self, _: &mut crate::validate::Validator) {}
}

/// One part of a multipart body.
#[doc(hidden)] // Generated code names it through `codegen`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// The field name (`name` of the part's `Content-Disposition`).
    pub name: String,
    /// The file name, for a file part.
    pub file_name: Option<String>,
    /// The part's `Content-Type`, if any.
    pub content_type: Option<String>,
    /// Its bytes.
    pub bytes: Bytes,
}

impl Part {
    /// A text part: a scalar, sent without `Content-Type`, which RFC 7578 §4.4 reads as
    /// `text/plain` (OpenAPI's default for a primitive property), as browsers send fields.
    pub fn text(name: &str, text: String) -> Part {
        Part { name: name.to_owned(), file_name: None, content_type: None, bytes: Bytes::from(text) }
    }

    /// A file part: the file's name and bytes, and its own content type, or `default` when it
    /// has none (`application/octet-stream`, OpenAPI's default for a binary property, unless
    /// the document's `encoding.contentType` names another).
    pub fn file(name: &str, file: &FilePart, default: &str) -> Part {
        Part {
            name: name.to_owned(),
            file_name: file.file_name.clone(),
            content_type: Some(file.content_type.clone().unwrap_or_else(|| default.to_owned())),
            bytes: file.bytes.clone(),
        }
    }

    /// A file part of a field whose media types are declared (OpenAPI's
    /// `encoding.<field>.contentType`, ranges allowed): sent in the file's own content type
    /// when `allowed` takes it, else in the first concrete one allowed ([`sent_type`]), so the
    /// part never travels as a type the document refuses.
    pub fn file_within(name: &str, file: &FilePart, allowed: &[&str]) -> Part {
        let own = file.content_type.as_deref().filter(|own| accepts(allowed, own).is_some());
        let content_type = own.map_or_else(|| sent_type(allowed).into_owned(), str::to_owned);
        Part {
            name: name.to_owned(),
            file_name: file.file_name.clone(),
            content_type: Some(content_type),
            bytes: file.bytes.clone(),
        }
    }

    /// A text part of a field whose media types are declared: `text` sent in the first
    /// concrete one ([`sent_type`]; a scalar the document sends as `application/json`).
    pub fn text_within(name: &str, text: String, allowed: &[&str]) -> Part {
        Part {
            name: name.to_owned(),
            file_name: None,
            content_type: Some(sent_type(allowed).into_owned()),
            bytes: Bytes::from(text),
        }
    }

    /// A part holding `json`, the JSON text of a value that is not a scalar (an object, a map,
    /// a list of objects): one part of type `application/json`, OpenAPI's default for such a
    /// property, or of `content_type` when the document names another.
    pub fn json(name: &str, json: String, content_type: &str) -> Part {
        Part {
            name: name.to_owned(),
            file_name: None,
            content_type: Some(content_type.to_owned()),
            bytes: Bytes::from(json),
        }
    }
}

/// The boundary of a `multipart/form-data` content type.
pub fn boundary(content_type: &str) -> Option<String> {
    content_type.split(';').skip(1).find_map(|param| {
        let (key, value) = param.split_once('=')?;
        key.trim().eq_ignore_ascii_case("boundary").then(|| value.trim().trim_matches('"').to_owned())
    })
}

/// The parts of a multipart body, or what is wrong with it.
pub fn parse_multipart(body: &Bytes, boundary: &str) -> Result<Vec<Part>, String> {
    parse_parts(body, boundary, usize::MAX).map(|(parts, _)| parts)
}

/// The first `max` parts of a multipart body (each sharing the body's bytes), and how many
/// parts it has: the parts past `max` are counted, not built.
pub(crate) fn parse_parts(body: &Bytes, boundary: &str, max: usize) -> Result<(Vec<Part>, usize), String> {
    if boundary.is_empty() || boundary.len() > 70 {
        return Err("the multipart boundary is missing or longer than 70 characters".into());
    }
    let delimiter = format!("--{boundary}");
    let closing = format!("\r\n{delimiter}");
    let bytes = body.as_ref();
    let mut parts = Vec::new();
    let mut count = 0;
    let mut at = find(bytes, delimiter.as_bytes(), 0).ok_or("the body holds no multipart boundary")?;
    loop {
        at += delimiter.len();
        if bytes[at..].starts_with(b"--") {
            return Ok((parts, count)); // The closing delimiter.
        }
        at += crlf_at(bytes, at).ok_or("a multipart boundary is not followed by a line break")?;
        let head_end = find(bytes, b"\r\n\r\n", at).ok_or("a multipart part has no blank line after its headers")?;
        let start = head_end + 4;
        let end = find(bytes, closing.as_bytes(), start).ok_or("the multipart body does not end")?;
        count += 1;
        if parts.len() < max {
            let head =
                std::str::from_utf8(&bytes[at..head_end]).map_err(|_| "a multipart part's headers are not text")?;
            parts.push(part(head, body.slice(start..end))?);
        }
        at = end + 2;
    }
}

fn part(head: &str, bytes: Bytes) -> Result<Part, String> {
    let mut name = None;
    let mut file_name = None;
    let mut content_type = None;
    for line in head.split("\r\n") {
        let Some((key, value)) = line.split_once(':') else { continue };
        if key.trim().eq_ignore_ascii_case("content-disposition") {
            for param in value.split(';').skip(1) {
                let Some((key, value)) = param.split_once('=') else { continue };
                let value = value.trim().trim_matches('"').to_owned();
                match key.trim().to_ascii_lowercase().as_str() {
                    "name" => name = Some(value),
                    "filename" => file_name = Some(value),
                    _ => {}
                }
            }
        } else if key.trim().eq_ignore_ascii_case("content-type") {
            content_type = Some(value.trim().to_owned());
        }
    }
    let name = name.ok_or("a multipart part has no `Content-Disposition: form-data; name=..`")?;
    Ok(Part { name, file_name, content_type, bytes })
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    haystack.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|i| i + from)
}

fn crlf_at(bytes: &[u8], at: usize) -> Option<usize> {
    // Transport padding (spaces or tabs) may precede the line break.
    let padding = bytes.get(at..)?.iter().take_while(|b| matches!(b, b' ' | b'\t')).count();
    bytes[at + padding..].starts_with(b"\r\n").then_some(padding + 2)
}

/// Writes a `multipart/form-data` body of `parts`; its content type names the boundary.
pub fn write_multipart(parts: &[Part]) -> (String, Vec<u8>) {
    let boundary = unique_boundary(parts);
    let mut body = Vec::new();
    for part in parts {
        body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        let mut disposition = format!("Content-Disposition: form-data; name=\"{}\"", quoted(&part.name));
        if let Some(file_name) = &part.file_name {
            disposition.push_str(&format!("; filename=\"{}\"", quoted(file_name)));
        }
        body.extend_from_slice(disposition.as_bytes());
        body.extend_from_slice(b"\r\n");
        if let Some(content_type) = &part.content_type {
            body.extend_from_slice(format!("Content-Type: {}\r\n", content_type.replace(['\r', '\n'], " ")).as_bytes());
        }
        body.extend_from_slice(b"\r\n");
        body.extend_from_slice(&part.bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// A name in a quoted header parameter: quotes and line breaks percent-encoded (as browsers
/// do, RFC 7578 §4.2).
fn quoted(text: &str) -> String {
    text.replace('"', "%22").replace('\r', "%0D").replace('\n', "%0A")
}

/// A boundary that no part holds.
fn unique_boundary(parts: &[Part]) -> String {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    loop {
        let boundary = format!("apigen-boundary-{seed:016x}");
        if !parts.iter().any(|p| find(&p.bytes, boundary.as_bytes(), 0).is_some()) {
            return boundary;
        }
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_follow_the_media_type() {
        let cases = [
            ("application/json", Encoding::Json),
            ("application/problem+json; charset=utf-8", Encoding::Json),
            ("Text/JSON", Encoding::Json),
            ("application/x-www-form-urlencoded", Encoding::Form),
            ("multipart/form-data; boundary=x", Encoding::Multipart),
            ("text/csv", Encoding::Text),
            ("application/xml", Encoding::Text),
            ("application/atom+xml", Encoding::Text),
            ("application/pdf", Encoding::Binary),
            ("image/png", Encoding::Binary),
        ];
        for (media, expected) in cases {
            assert_eq!(encoding(media), expected, "{media}");
        }
        assert_eq!(accepts(&["image/*"], "image/png"), Some(0));
        assert_eq!(
            accepts(&["application/json", "application/x-www-form-urlencoded"], "application/merge-patch+json"),
            Some(0)
        );
        assert_eq!(accepts(&["application/json"], "text/plain"), None);
    }

    #[test]
    fn accept_headers_choose_by_quality_then_order() {
        let offered = ["application/pdf", "text/markdown"];
        assert_eq!(negotiate(None, &offered), Some("application/pdf"));
        assert_eq!(negotiate(Some("text/markdown"), &offered), Some("text/markdown"));
        assert_eq!(negotiate(Some("text/*;q=0.9, application/pdf;q=0.5"), &offered), Some("text/markdown"));
        assert_eq!(negotiate(Some("*/*"), &offered), Some("application/pdf"));
        assert_eq!(negotiate(Some("*/*, application/pdf;q=0"), &offered), Some("text/markdown"));
        assert_eq!(negotiate(Some("image/png"), &offered), None);
        // An answer declared as a range meets the types within it.
        assert_eq!(negotiate(Some("image/webp"), &["image/*"]), Some("image/*"));
        assert_eq!(negotiate(Some("text/plain"), &["image/*"]), None);
        assert_eq!(negotiate(Some("audio/ogg;q=0.2, video/mp4"), &["audio/*", "video/*"]), Some("video/*"));
        assert_eq!(negotiate(Some("application/zip"), &["*/*"]), Some("*/*"));
    }

    #[test]
    fn a_declared_part_is_sent_in_the_files_own_type_when_allowed_else_the_first_concrete() {
        let allowed = ["image/png", "image/jpeg"];
        let file = |own: Option<&str>| FilePart {
            file_name: Some("a".into()),
            content_type: own.map(str::to_owned),
            bytes: Bytes::new(),
        };
        let sent = |own| Part::file_within("f", &file(own), &allowed).content_type;
        assert_eq!(sent(Some("image/jpeg")), Some("image/jpeg".into()));
        assert_eq!(sent(Some("text/plain")), Some("image/png".into()));
        assert_eq!(sent(None), Some("image/png".into()));
        assert_eq!(sent_type(&["video/*", "application/octet-stream"]), "application/octet-stream");
        assert_eq!(sent_type(&["image/*"]), "image/png");
        assert_eq!(
            Part::text_within("o", "{}".into(), &["application/json"]).content_type.as_deref(),
            Some("application/json")
        );
    }

    #[test]
    fn ranges_hold_their_types_and_default_to_a_member() {
        assert!(within("image/*", "Image/PNG; q=1"));
        assert!(within("*/*", "application/zip"));
        assert!(within("application/pdf", "application/pdf; name=a"));
        assert!(!within("image/*", "text/plain"));
        assert!(!within("application/pdf", "application/zip"));
        assert_eq!(range_default("*/*"), "application/octet-stream");
        assert_eq!(range_default("image/*"), "image/png");
        assert_eq!(range_default("model/*"), "model/octet-stream");
        assert_eq!(range_default("application/pdf"), "application/pdf");
    }

    #[test]
    fn multipart_bodies_round_trip() {
        let parts = vec![
            Part { name: "title".into(), file_name: None, content_type: None, bytes: Bytes::from_static(b"Hello") },
            Part {
                name: "files".into(),
                file_name: Some("a \"b\".txt".into()),
                content_type: Some("text/plain".into()),
                bytes: Bytes::from_static(b"line\r\n--not a boundary\r\n"),
            },
        ];
        let (content_type, body) = write_multipart(&parts);
        let boundary = boundary(&content_type).unwrap();
        let read = parse_multipart(&Bytes::from(body), &boundary).unwrap();
        assert_eq!(read[0], parts[0]);
        assert_eq!(read[1].file_name.as_deref(), Some("a %22b%22.txt"));
        assert_eq!(read[1].bytes, parts[1].bytes);
        assert!(parse_multipart(&Bytes::from_static(b"--x\r\nno blank line"), "x").is_err());
        assert!(parse_multipart(&Bytes::from_static(b"nothing"), "x").is_err());
    }
}
