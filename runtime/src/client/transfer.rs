//! What travels besides JSON, and the reading of answers: a raw request body ([`Upload`]), a
//! raw response body read as it arrives ([`Download`]), a decoded body with its status and
//! headers ([`Response`], typed headers through [`read_headers`]), an answer before decoding
//! ([`Answer`]), response bodies read within the client's limit, and bodies decoded leniently
//! ([`decode_body`], an error body as its declared type: [`decode_error_as`]; text) with the
//! first problem located.

use super::error::Error;
use super::redact::Redactor;
use crate::json::FromJson;
use crate::validate::Violation;
use bytes::Bytes;
use futures_util::stream::{self, Stream};
use std::fmt;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};

/// A raw request body (an operation whose body is `bytes`): bytes in memory, a file or a
/// stream. A file or stream is sent as it is read, never held whole, and never retried.
#[derive(Clone)]
pub struct Upload(pub(super) UploadBody);

#[derive(Clone)]
pub(super) enum UploadBody {
    Bytes(Bytes),
    Stream(Arc<std::sync::Mutex<Option<reqwest::Body>>>),
}

impl Upload {
    /// These bytes.
    pub fn bytes(bytes: impl Into<Bytes>) -> Self {
        Upload(UploadBody::Bytes(bytes.into()))
    }

    /// The chunks of `stream`, sent as they come.
    pub fn stream<S, E>(stream: S) -> Self
    where
        S: futures_util::Stream<Item = Result<Bytes, E>> + Send + 'static,
        E: Into<Box<dyn std::error::Error + Send + Sync>> + 'static,
    {
        use futures_util::TryStreamExt;
        let frames = stream.map_ok(http_body::Frame::data).map_err(Into::into);
        let body = http_body_util::StreamBody::new(sync_wrapper::SyncStream::new(frames));
        Upload(UploadBody::Stream(Arc::new(std::sync::Mutex::new(Some(reqwest::Body::wrap(body))))))
    }

    /// The file at `path`, read in chunks as it is sent.
    pub async fn file(path: impl AsRef<std::path::Path>) -> std::io::Result<Self> {
        use tokio::io::AsyncReadExt;
        let file = tokio::fs::File::open(path).await?;
        let chunks = stream::unfold(file, |mut file| async move {
            let mut buffer = Vec::with_capacity(64 * 1024);
            match file.read_buf(&mut buffer).await {
                Ok(0) => None,
                Ok(_) => Some((Ok::<Bytes, std::io::Error>(Bytes::from(buffer)), file)),
                Err(error) => Some((Err(error), file)),
            }
        });
        Ok(Upload::stream(chunks))
    }
}

impl From<Vec<u8>> for Upload {
    fn from(bytes: Vec<u8>) -> Self {
        Upload::bytes(bytes)
    }
}

impl From<Bytes> for Upload {
    fn from(bytes: Bytes) -> Self {
        Upload::bytes(bytes)
    }
}

impl From<&'static [u8]> for Upload {
    fn from(bytes: &'static [u8]) -> Self {
        Upload::bytes(bytes)
    }
}

impl From<String> for Upload {
    fn from(text: String) -> Self {
        Upload::bytes(text)
    }
}

impl fmt::Debug for Upload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            UploadBody::Bytes(bytes) => write!(f, "Upload({} bytes)", bytes.len()),
            UploadBody::Stream(_) => f.write_str("Upload(stream)"),
        }
    }
}

/// A raw response body (an operation answering `bytes`), read as it arrives: never held
/// whole, and not bounded by the client's response limit (which applies to JSON).
pub struct Download {
    /// The HTTP status.
    pub status: u16,
    /// The response headers.
    pub headers: reqwest::header::HeaderMap,
    pub(super) body: DownloadBody,
    /// Takes the client's secrets out of a failure while the body arrives.
    pub(super) redactor: Redactor,
}

/// The body of a download: still arriving, or read already (what is left of it).
pub(super) enum DownloadBody {
    Live(reqwest::Response),
    Read(Option<Bytes>),
}

impl Download {
    /// The `Content-Type` the service answered.
    pub fn content_type(&self) -> Option<&str> {
        self.headers.get(reqwest::header::CONTENT_TYPE).and_then(|v| v.to_str().ok())
    }

    /// The next chunk of the body, `None` at its end.
    pub async fn chunk(&mut self) -> Result<Option<Bytes>, Error> {
        match &mut self.body {
            DownloadBody::Live(response) => {
                response.chunk().await.map_err(|error| self.redactor.error(Error::Transport(error)))
            }
            DownloadBody::Read(rest) => Ok(rest.take()),
        }
    }

    /// The body as a stream of chunks.
    pub fn into_stream(self) -> Pin<Box<dyn Stream<Item = Result<Bytes, Error>> + Send>> {
        Box::pin(stream::unfold(self, |mut download| async move {
            match download.chunk().await {
                Ok(Some(chunk)) => Some((Ok(chunk), download)),
                Ok(None) => None,
                Err(error) => Some((Err(error), download)),
            }
        }))
    }

    /// The whole body in memory, failing with [`Error::TooLarge`] past `limit` bytes.
    pub async fn bytes(mut self, limit: usize) -> Result<Bytes, Error> {
        let mut all = Vec::new();
        while let Some(chunk) = self.chunk().await? {
            if all.len() + chunk.len() > limit {
                return Err(Error::TooLarge { status: self.status, limit });
            }
            all.extend_from_slice(&chunk);
        }
        Ok(Bytes::from(all))
    }
}

impl fmt::Debug for Download {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Download").field("status", &self.status).field("content_type", &self.content_type()).finish()
    }
}

/// What the service answered, with the decoded body: for callers that need the status (an
/// operation may answer more than one) or the headers (a request id, rate limits, an ETag).
#[derive(Debug, Clone)]
pub struct Response<T> {
    /// The HTTP status.
    pub status: u16,
    /// The response headers.
    pub headers: reqwest::header::HeaderMap,
    /// The decoded body.
    pub body: T,
    /// Parts of the body the client could not read, each left absent in `body` (see
    /// [`crate::NotUnderstood`]), whether the operation answers one status or several (an
    /// `<Operation>Answer`); empty when the service sent what the spec describes.
    pub not_understood: Vec<crate::NotUnderstood>,
}

impl<T> Response<T> {
    /// The operation's typed response headers (the generated `<Operation>Headers`), read
    /// leniently: a header missing or not parsing is left unset.
    pub fn headers_as<H: crate::params::HeaderSet>(&self) -> H {
        read_headers(&self.headers)
    }
}

/// Typed headers read from a header map (names looked up without case).
pub fn read_headers<H: crate::params::HeaderSet>(headers: &reqwest::header::HeaderMap) -> H {
    let get = |name: &str| -> Vec<String> {
        headers.get_all(name).iter().filter_map(|value| value.to_str().ok().map(str::to_owned)).collect()
    };
    H::from_lookup(&get)
}

/// A successful answer before decoding: what operations whose statuses answer different
/// bodies decode by status (generated code).
#[doc(hidden)] // Generated code names it through `codegen`.
#[derive(Debug)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The response headers.
    pub headers: reqwest::header::HeaderMap,
    /// The body as received (a `Vec<u8>` to read), with what to take out of an error quoting
    /// it: generated code decodes it with `decode_body::<T>(&answer.body)`.
    pub body: Received,
}

/// A response body as received: its bytes (it derefs to `Vec<u8>`), the client's secrets,
/// taken out of a decode error quoting it, and the parts decoding it left unread.
#[doc(hidden)] // Generated code reaches it as `Answer::body`.
pub struct Received {
    bytes: Vec<u8>,
    redactor: Redactor,
    /// What decoding the body did not understand: an answer of several statuses is decoded by
    /// generated code through `&Answer` ([`decode_body`]), so the parts are kept here for
    /// `send_with_response` to report, as a single-status answer reports its own.
    not_understood: Mutex<Vec<crate::NotUnderstood>>,
}

impl Received {
    pub(super) fn new(bytes: Vec<u8>, redactor: &Redactor) -> Self {
        Received { bytes, redactor: redactor.clone(), not_understood: Mutex::default() }
    }

    /// The bytes.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// The parts decoding the body left unread, taken (each decoding adds its own).
    pub(super) fn take_not_understood(&self) -> Vec<crate::NotUnderstood> {
        std::mem::take(&mut *self.not_understood.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl std::ops::Deref for Received {
    type Target = Vec<u8>;

    fn deref(&self) -> &Vec<u8> {
        &self.bytes
    }
}

impl fmt::Debug for Received {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Received({} bytes)", self.bytes.len())
    }
}

/// A body [`decode_body`] decodes: the [`Received`] body of an [`Answer`] (a decode error
/// quoting it holds none of the client's secrets), or bytes from elsewhere.
#[doc(hidden)] // Generated code passes `&answer.body`.
pub trait DecodeSource {
    /// Decodes the body leniently as `T`.
    fn decode_as<T: FromJson>(&self) -> Result<T, Error>;
}

impl DecodeSource for Received {
    fn decode_as<T: FromJson>(&self) -> Result<T, Error> {
        let (body, mut parts) = decode(&self.bytes, &self.redactor)?;
        self.not_understood.lock().unwrap_or_else(PoisonError::into_inner).append(&mut parts);
        Ok(body)
    }
}

impl DecodeSource for [u8] {
    fn decode_as<T: FromJson>(&self) -> Result<T, Error> {
        decode(self, &Redactor::default()).map(|(body, _)| body)
    }
}

impl DecodeSource for Vec<u8> {
    fn decode_as<T: FromJson>(&self) -> Result<T, Error> {
        self.as_slice().decode_as()
    }
}

/// Why a response body was not read: past the limit, or the transfer failed.
pub(super) enum BodyError {
    TooLarge,
    Http(reqwest::Error),
}

/// Reads a response body of at most `limit` bytes, chunk by chunk into one buffer: a body
/// declared or found larger fails as soon as that is known, so memory stays under the limit
/// whatever the service sends (an endless body, a wrong `Content-Length`).
pub(super) async fn read_body(mut response: reqwest::Response, limit: usize) -> Result<Vec<u8>, BodyError> {
    let declared = response.content_length().unwrap_or(0);
    if declared > limit as u64 {
        return Err(BodyError::TooLarge);
    }
    let mut body = Vec::with_capacity(declared as usize);
    while let Some(chunk) = response.chunk().await.map_err(BodyError::Http)? {
        if body.len() + chunk.len() > limit {
            return Err(BodyError::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// A response body decoded leniently as `T` (generated code decoding by status passes
/// `&answer.body`, whose decode error holds none of the client's secrets; bytes from
/// elsewhere decode as before).
#[doc(hidden)] // Generated code names it through `codegen`.
pub fn decode_body<T: FromJson>(body: &(impl DecodeSource + ?Sized)) -> Result<T, Error> {
    body.decode_as()
}

/// Decodes a response body leniently (what was not understood kept apart), locating the
/// first problem when it does not decode at all; the error holds none of the secrets of
/// `redactor`.
pub(super) fn decode<T: FromJson>(bytes: &[u8], redactor: &Redactor) -> Result<(T, Vec<crate::NotUnderstood>), Error> {
    let value = parse_body(bytes, redactor)?;
    let reread = || serde_json::from_slice(bytes).unwrap_or_default();
    crate::json::decode_reporting(value, reread).map_err(|violations| decode_error(bytes, violations, redactor))
}

/// The body as JSON (the part of decoding that does not depend on the type).
pub(super) fn parse_body(bytes: &[u8], redactor: &Redactor) -> Result<serde_json::Value, Error> {
    serde_json::from_slice(bytes).map_err(|e| {
        redactor.error(Error::Decode {
            path: String::new(),
            message: format!("not JSON: {e}"),
            snippet: snippet(&String::from_utf8_lossy(bytes), redactor),
        })
    })
}

/// The error for a body that does not decode: the first violation, with the part of the body
/// it concerns.
pub(super) fn decode_error(bytes: &[u8], violations: crate::validate::Violations, redactor: &Redactor) -> Error {
    let first = violations.0.into_iter().next().unwrap_or_else(|| Violation::new("", "does not decode"));
    // The value was consumed while decoding; read it again, on this failure path only.
    let value: serde_json::Value = serde_json::from_slice(bytes).unwrap_or_default();
    let near = value.pointer(&first.path).map_or_else(|| value.to_string(), ToString::to_string);
    redactor.error(Error::Decode { path: first.path, message: first.message, snippet: snippet(&near, redactor) })
}

/// An error body decoded as `T`, boxed for [`Error::body_as`] (generated
/// [`ErrorTypes`](super::ErrorTypes) call
/// it); `None` when it does not decode.
#[doc(hidden)]
pub fn decode_error_as<T: FromJson + Send + Sync + 'static>(
    body: &[u8],
) -> Option<Box<dyn std::any::Any + Send + Sync>> {
    let (value, _) = decode::<T>(body, &Redactor::default()).ok()?;
    Some(Box::new(value))
}

/// The text of an answer's bytes; an error quoting them (without the client's secrets) when
/// they are not UTF-8.
pub(super) fn text_of(bytes: Vec<u8>, redactor: &Redactor) -> Result<String, Error> {
    String::from_utf8(bytes).map_err(|error| Error::Decode {
        path: String::new(),
        message: "the text is not UTF-8".into(),
        snippet: snippet(&String::from_utf8_lossy(error.as_bytes()), redactor),
    })
}

/// The start of `text` for an error message, the secrets of `redactor` taken out first (so a
/// cut never leaves part of one): at most 200 characters, `…` where it was cut.
pub(super) fn snippet(text: &str, redactor: &Redactor) -> String {
    let text = redactor.text(text);
    let mut cut: String = text.chars().take(200).collect();
    if cut.len() < text.len() {
        cut.push('…');
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_errors_carry_the_pointer_and_the_value() {
        let error =
            decode::<crate::Page<i64>>(br#"{"count": 1, "items": [1, "two"]}"#, &Redactor::default()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the response does not decode at /items/1: expected an integer, found the string \"two\" (near \"two\")"
        );
    }
}
