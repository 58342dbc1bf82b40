//! Request bodies as [`Core`] encodes them for generated code: JSON (validated first when the
//! client validates requests), a form, a multipart body, text, and a raw [`Upload`].

use super::call::CallBody;
use super::core::Core;
use super::error::Error;
use super::transfer::{Upload, UploadBody};
use crate::validate::Validate;
use bytes::Bytes;
use std::sync::Arc;

impl Core {
    /// Serializes a request body, validating it first when the client validates requests.
    pub fn body<T: serde::Serialize + Validate>(&self, body: &T) -> Result<CallBody, Error> {
        self.check(body)?;
        // A request never carries read-only fields.
        let bytes = crate::json::writing(crate::json::Direction::Request, || serde_json::to_vec(body))
            .map_err(|e| Error::Config(format!("the body cannot be serialized: {e}")))?;
        Ok(CallBody::Json(bytes))
    }

    /// Validates a request body when the client validates requests.
    pub fn check<T: Validate>(&self, body: &T) -> Result<(), Error> {
        if self.settings.validate_requests {
            body.validate().map_err(Error::Invalid)?;
        }
        Ok(())
    }

    /// Validates a parameter when the client validates requests, each violation named by
    /// `name` from its JSON pointer in the value (as the server names it).
    fn check_named<T: Validate>(&self, value: &T, name: impl Fn(&str) -> String) -> Result<(), Error> {
        if !self.settings.validate_requests {
            return Ok(());
        }
        value.validate().map_err(|found| {
            let named = found.0.into_iter().map(|v| crate::validate::Violation::new(name(&v.path), v.message));
            Error::Invalid(crate::validate::Violations(named.collect()))
        })
    }

    /// A form body (`application/x-www-form-urlencoded`) of these fields, lists as repeated
    /// keys (generated code lists them, after [`Core::check`]).
    pub fn form(&self, fields: &[(&'static str, String)]) -> CallBody {
        let mut form = form_urlencoded::Serializer::new(String::new());
        for (name, value) in fields {
            form.append_pair(name, value);
        }
        CallBody::Raw { content_type: "application/x-www-form-urlencoded".into(), bytes: form.finish().into() }
    }

    /// A form body of nested objects and lists, in brackets (`items[0][price]=x`, see
    /// [`crate::form`]): `application/x-www-form-urlencoded`, or with `multipart` a
    /// `multipart/form-data` body of one text part per pair; with `indexed` every list has
    /// indexes (`expand[0]=a`), the top level's too. Validated first when the client validates
    /// requests.
    pub fn nested_form<T: serde::Serialize + Validate>(
        &self,
        body: &T,
        multipart: bool,
        indexed: bool,
    ) -> Result<CallBody, Error> {
        self.check(body)?;
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
            return Ok(self.multipart(&parts));
        }
        let mut form = form_urlencoded::Serializer::new(String::new());
        form.extend_pairs(&pairs);
        Ok(CallBody::Raw { content_type: "application/x-www-form-urlencoded".into(), bytes: form.finish().into() })
    }

    /// Adds the pairs of an object query parameter to `query`. With `deep` (`style:
    /// deepObject`) every value goes under the parameter's name in brackets, as a form of
    /// nested values writes it ([`crate::form`]: `filter[status]=open`, `range[ids][0]=1`,
    /// `metadata[k]=v`); without (`style: form`, exploded), each field is a query parameter of
    /// its own (`status=open&limit=2`, a list as repeated keys). An empty object or list sends
    /// nothing, as OpenAPI writes it. Validated first when the client validates requests,
    /// the violations named as the query reads (`query.filter[status]`). Fails on a map key
    /// holding `]`.
    pub fn query_object<T: serde::Serialize + Validate>(
        &self,
        query: &mut Vec<(std::borrow::Cow<'static, str>, String)>,
        name: &'static str,
        value: &T,
        deep: bool,
    ) -> Result<(), Error> {
        let key_of = |pointer: &str| {
            let pointer = if deep { format!("/{name}{pointer}") } else { pointer.to_owned() };
            match crate::form::key_of_pointer(&pointer) {
                key if key.is_empty() => format!("query.{name}"),
                key => format!("query.{key}"),
            }
        };
        self.check_named(value, key_of)?;
        let value = crate::json::writing(crate::json::Direction::Request, || serde_json::to_value(value))
            .map_err(|e| Error::Config(format!("the query parameter `{name}` cannot be serialized: {e}")))?;
        let value =
            if deep { serde_json::Value::Object([(name.to_owned(), value)].into_iter().collect()) } else { value };
        let pairs = crate::form::to_query_pairs(&value)
            .map_err(|e| Error::Config(format!("the query parameter `{name}` cannot be sent: {e}")))?;
        query.extend(pairs.into_iter().map(|(key, value)| (std::borrow::Cow::Owned(key), value)));
        Ok(())
    }

    /// The JSON text of a parameter written as JSON (OpenAPI's `content: application/json`:
    /// `filter={"a":1}`), validated first when the client validates requests, the violations
    /// named `query.filter/a` (`place` is `query` or `header`).
    pub fn json_param<T: serde::Serialize + Validate>(
        &self,
        place: &str,
        name: &'static str,
        value: &T,
    ) -> Result<String, Error> {
        self.check_named(value, |pointer| format!("{place}.{name}{pointer}"))?;
        crate::json::writing(crate::json::Direction::Request, || serde_json::to_string(value))
            .map_err(|e| Error::Config(format!("the {place} parameter `{name}` cannot be serialized: {e}")))
    }

    /// A `multipart/form-data` body of these parts (generated code lists them).
    pub fn multipart(&self, parts: &[crate::media::Part]) -> CallBody {
        let (content_type, bytes) = crate::media::write_multipart(parts);
        CallBody::Raw { content_type, bytes: bytes.into() }
    }

    /// A text body in `media_type`.
    pub fn text(&self, text: &str, media_type: &str) -> CallBody {
        let content_type =
            if media_type.contains("charset") { media_type.to_owned() } else { format!("{media_type}; charset=utf-8") };
        CallBody::Raw { content_type, bytes: Bytes::copy_from_slice(text.as_bytes()) }
    }

    /// A raw body in `media_type`, from an [`Upload`].
    pub fn upload(&self, upload: &Upload, media_type: &str) -> CallBody {
        match &upload.0 {
            UploadBody::Bytes(bytes) => CallBody::Raw { content_type: media_type.to_owned(), bytes: bytes.clone() },
            UploadBody::Stream(stream) => {
                CallBody::Stream { content_type: media_type.to_owned(), stream: Arc::clone(stream) }
            }
        }
    }
}
