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

    /// A form body (`application/x-www-form-urlencoded`) of these fields, lists as repeated
    /// keys (generated code lists them, after [`Core::check`]).
    pub fn form(&self, fields: &[(&'static str, String)]) -> CallBody {
        let mut form = form_urlencoded::Serializer::new(String::new());
        for (name, value) in fields {
            form.append_pair(name, value);
        }
        CallBody::Raw { content_type: "application/x-www-form-urlencoded".into(), bytes: form.finish().into() }
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
