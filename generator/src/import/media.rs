//! Media types and response keys: which content is JSON, the status a response key stands
//! for, a media type's example.

use super::refs;
use serde_json::{Map, Value};

/// The status of a response key: `201` is 201, `4XX` is 400; `default` and others are `None`.
pub(super) fn status_of(code: &str) -> Option<u16> {
    if let Ok(status) = code.parse::<u16>() {
        return (100..=599).contains(&status).then_some(status);
    }
    let bytes = code.as_bytes();
    if bytes.len() == 3 && bytes[0].is_ascii_digit() && code[1..].eq_ignore_ascii_case("xx") {
        return Some(u16::from(bytes[0] - b'0') * 100);
    }
    None
}

/// The JSON media type of a content map and its schema (`{}` when it gives none).
pub(super) fn json_media(content: &Map<String, Value>) -> Option<(&str, &Value)> {
    static ANY: Value = Value::Bool(true);
    let found = content
        .iter()
        .find(|(media, _)| is_json_media(media))
        .or_else(|| content.iter().find(|(m, _)| m.as_str() == "*/*"))?;
    Some((found.0.as_str(), found.1.get("schema").unwrap_or(&ANY)))
}

/// True for `application/json`, `text/json` and the `+json` and `/json` media types.
pub(super) fn is_json_media(media: &str) -> bool {
    let essence = media.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence == "application/json" || essence.ends_with("+json") || essence == "text/json" || essence.ends_with("/json")
}

/// Whether a body of the media type (an essence) travels as text: `text/*` (JSON aside), XML
/// (`application/xml`, `application/<x>+xml`). The format has no XML type: XML is text.
pub(super) fn text_media(media: &str) -> bool {
    (media.starts_with("text/") && !is_json_media(media))
        || media == "application/xml"
        || (media.starts_with("application/") && media.ends_with("+xml"))
}

/// The JSON media type a response is answered in when it is not `application/json`
/// (`application/vnd.amadeus+json`, `application/problem+json`, `text/json`): kept, so the
/// client asks for it and the server answers in it.
pub(super) fn json_media_named(response: &Value) -> Option<String> {
    let content = response.get("content").and_then(Value::as_object)?;
    let (media, _) = json_media(content)?;
    let essence = media.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    let json = essence == "text/json" || (essence.starts_with("application/") && essence.ends_with("+json"));
    json.then_some(essence)
}

/// True when a JSON response also offers media types that are not JSON (`application/xml`,
/// `text/plain`, `application/zip`), or is JSON only by a media range (`*/*`).
pub(super) fn offers_other_media(response: &Value) -> bool {
    let Some(content) = response.get("content").and_then(Value::as_object) else { return false };
    content.keys().any(|media| !is_json_media(media))
}

/// The example a media type gives: its `example`, else the value of its first `examples` entry
/// (a reference followed; an `externalValue` is not fetched).
pub(super) fn media_example(doc: &Value, entry: &Value) -> Option<Value> {
    if let Some(example) = entry.get("example") {
        return Some(example.clone());
    }
    let (_, first) = entry.get("examples")?.as_object()?.iter().next()?;
    refs::lookup_value(doc, first)?.get("value").cloned()
}
