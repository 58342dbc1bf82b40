//! Request bodies and object parameters as the client's core encodes them for generated code
//! (its `body`, `form`, `query_object`, ... are these): JSON (validated first when the client
//! validates requests, `validate`), a form, a multipart body, text, and a raw [`Upload`].

use super::call::CallBody;
use super::error::Error;
use super::transfer::{Upload, UploadBody};
use crate::validate::Validate;
use bytes::Bytes;
use std::sync::Arc;

/// Serializes a request body, validating it first when `validate`.
pub(super) fn json_body<T: serde::Serialize + Validate>(body: &T, validate: bool) -> Result<CallBody, Error> {
    check(body, validate)?;
    // A request never carries read-only fields.
    let bytes = crate::json::writing(crate::json::Direction::Request, || serde_json::to_vec(body))
        .map_err(|e| Error::Config(format!("the body cannot be serialized: {e}")))?;
    Ok(CallBody::Json(bytes))
}

/// Validates a request body when `validate`.
pub(super) fn check<T: Validate>(body: &T, validate: bool) -> Result<(), Error> {
    if validate {
        body.validate().map_err(Error::Invalid)?;
    }
    Ok(())
}

/// Validates a parameter when `validate`, each violation named by `name` from its JSON
/// pointer in the value (as the server names it).
fn check_named<T: Validate>(value: &T, validate: bool, name: impl Fn(&str) -> String) -> Result<(), Error> {
    if !validate {
        return Ok(());
    }
    value.validate().map_err(|found| {
        let named = found.0.into_iter().map(|v| crate::validate::Violation::new(name(&v.path), v.message));
        Error::Invalid(crate::validate::Violations(named.collect()))
    })
}

/// A form body (`application/x-www-form-urlencoded`) of these fields, lists as repeated keys.
pub(super) fn form(fields: &[(&'static str, String)]) -> CallBody {
    let mut form = form_urlencoded::Serializer::new(String::new());
    for (name, value) in fields {
        form.append_pair(name, value);
    }
    CallBody::Raw { content_type: "application/x-www-form-urlencoded".into(), bytes: form.finish().into() }
}

/// A form body of nested objects and lists, in brackets (see [`crate::form`]), urlencoded or
/// (`multipart`) one text part per pair, every list indexed with `indexed`; validated first
/// when `validate`.
pub(super) fn nested_form<T: serde::Serialize + Validate>(
    body: &T,
    multipart: bool,
    indexed: bool,
    validate: bool,
) -> Result<CallBody, Error> {
    check(body, validate)?;
    let value = crate::json::writing(crate::json::Direction::Request, || serde_json::to_value(body))
        .map_err(|e| Error::Config(format!("the body cannot be serialized: {e}")))?;
    let pairs = crate::form::to_pairs(&value, indexed)
        .map_err(|e| Error::Config(format!("the body cannot be sent as a form: {e}")))?;
    if multipart {
        let parts: Vec<crate::media::Part> = pairs
            .into_iter()
            .map(|(name, value)| crate::media::Part {
                name,
                file_name: None,
                content_type: None,
                bytes: value.into_bytes().into(),
            })
            .collect();
        return Ok(self::multipart(&parts));
    }
    let mut form = form_urlencoded::Serializer::new(String::new());
    form.extend_pairs(&pairs);
    Ok(CallBody::Raw { content_type: "application/x-www-form-urlencoded".into(), bytes: form.finish().into() })
}

/// Adds the pairs of an object query parameter to `query`, under its name in brackets with
/// `deep`, each field a parameter of its own without; validated first when `validate`, the
/// violations named as the query reads (`query.filter[status]`).
pub(super) fn query_object<T: serde::Serialize + Validate>(
    query: &mut Vec<(std::borrow::Cow<'static, str>, String)>,
    name: &'static str,
    value: &T,
    deep: bool,
    validate: bool,
) -> Result<(), Error> {
    let key_of = |pointer: &str| {
        let pointer = if deep { format!("/{name}{pointer}") } else { pointer.to_owned() };
        match crate::form::key_of_pointer(&pointer) {
            key if key.is_empty() => format!("query.{name}"),
            key => format!("query.{key}"),
        }
    };
    check_named(value, validate, key_of)?;
    let value = crate::json::writing(crate::json::Direction::Request, || serde_json::to_value(value))
        .map_err(|e| Error::Config(format!("the query parameter `{name}` cannot be serialized: {e}")))?;
    let value = if deep { serde_json::Value::Object([(name.to_owned(), value)].into_iter().collect()) } else { value };
    let pairs = crate::form::to_query_pairs(&value)
        .map_err(|e| Error::Config(format!("the query parameter `{name}` cannot be sent: {e}")))?;
    query.extend(pairs.into_iter().map(|(key, value)| (std::borrow::Cow::Owned(key), value)));
    Ok(())
}

/// The JSON text of a parameter written as JSON, validated first when `validate`, the
/// violations named `query.filter/a` (`place` is `query` or `header`).
pub(super) fn json_param<T: serde::Serialize + Validate>(
    place: &str,
    name: &'static str,
    value: &T,
    validate: bool,
) -> Result<String, Error> {
    check_named(value, validate, |pointer| format!("{place}.{name}{pointer}"))?;
    crate::json::writing(crate::json::Direction::Request, || serde_json::to_string(value))
        .map_err(|e| Error::Config(format!("the {place} parameter `{name}` cannot be serialized: {e}")))
}

/// The part of a multipart body's field that is not a scalar: its JSON in one part of
/// `content_type` (`application/json` unless the document names another). The body was
/// checked whole before.
pub(super) fn json_part<T: serde::Serialize>(
    name: &str,
    value: &T,
    content_type: &str,
) -> Result<crate::media::Part, Error> {
    let json = crate::json::writing(crate::json::Direction::Request, || serde_json::to_string(value))
        .map_err(|e| Error::Config(format!("the multipart field `{name}` cannot be serialized: {e}")))?;
    Ok(crate::media::Part::json(name, json, content_type))
}

/// A `multipart/form-data` body of these parts.
pub(super) fn multipart(parts: &[crate::media::Part]) -> CallBody {
    let (content_type, bytes) = crate::media::write_multipart(parts);
    CallBody::Raw { content_type, bytes: bytes.into() }
}

/// A text body in `media_type`.
pub(super) fn text(text: &str, media_type: &str) -> CallBody {
    let content_type = crate::media::text_content_type(media_type).into_owned();
    CallBody::Raw { content_type, bytes: Bytes::copy_from_slice(text.as_bytes()) }
}

/// A raw body in `media_type`, from an [`Upload`].
pub(super) fn upload(upload: &Upload, media_type: &str) -> CallBody {
    match &upload.0 {
        UploadBody::Bytes(bytes) => CallBody::Raw { content_type: media_type.to_owned(), bytes: bytes.clone() },
        UploadBody::Stream(stream) => {
            CallBody::Stream { content_type: media_type.to_owned(), stream: Arc::clone(stream) }
        }
    }
}
