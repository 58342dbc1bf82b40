//! The request signer: a hook the user implements ([`Sign`]) for credentials the spec format
//! cannot hold (an HMAC of the request, AWS Signature V4, an `http` scheme other than bearer
//! and basic). It sees each request as it will be sent ([`Signing`]: the method, the full URL
//! with its query, the headers, the body's bytes when the body is buffered) and adds or
//! replaces headers.
//!
//! Decisions, where the issue left them open:
//!
//! - **One signer per client**, not one per scheme: the signer is given the operation's name
//!   ([`Signing::operation`]) and the schemes the call presents
//!   ([`Signing::schemes`]), so one implementation can tell calls apart when an API mixes
//!   schemes. Setting another replaces it.
//! - **Called last**: after the credentials, the cookies, `Accept`, `Content-Type`, `User-Agent`
//!   and every default and per-call header are set, so a signature covers them. Headers that
//!   only the transport adds afterwards are not seen: `Host` (read it from
//!   [`Signing::url`]), `Content-Length`, and the default headers of a reqwest client given to
//!   [`Builder::http_client`](super::Builder::http_client).
//! - **Called for each request sent**: each retry and each redirect hop is signed again (a
//!   signature with a time in it, as AWS Signature V4's, must be fresh; a hop's URL differs). A
//!   hop away from the API's origin (scheme, host and port of the base URL) is **not** signed:
//!   a signature is a credential, and credentials go to the API's origin only.
//! - **Public operations are signed too**: the signer decides (an operation whose
//!   [`Signing::schemes`] is empty is one the spec says needs none).
//! - A signer that fails ends the call with [`Error::Config`] naming the operation, before
//!   anything is sent; the call is not retried.
//! - The signer runs synchronously, once per request: fetch what it needs (keys, temporary
//!   credentials) before, or cache it inside.
//!
//! AWS Signature V4 with the `aws-sigv4` crate (1.x) and `aws-credential-types`, in the
//! user's code (not compiled here: they are the user's dependencies, not the runtime's):
//!
//! ```ignore
//! use aws_sigv4::http_request::{sign, SignableBody, SignableRequest, SigningSettings};
//! use aws_sigv4::sign::v4;
//! use aws_credential_types::Credentials;
//! use apigen_runtime::client::{Sign, SignError, Signing};
//!
//! struct SigV4 { credentials: Credentials, region: String, service: String }
//!
//! impl Sign for SigV4 {
//!     fn sign(&self, request: &mut Signing<'_>) -> Result<(), SignError> {
//!         let identity = self.credentials.clone().into();
//!         let params = v4::SigningParams::builder()
//!             .identity(&identity)
//!             .region(&self.region)
//!             .name(&self.service)
//!             .time(std::time::SystemTime::now())
//!             .settings(SigningSettings::default())
//!             .build()?
//!             .into();
//!         // A streamed body cannot be hashed: AWS accepts it unsigned.
//!         let body = match request.body() {
//!             Some(bytes) => SignableBody::Bytes(bytes),
//!             None => SignableBody::UnsignedPayload,
//!         };
//!         let headers: Vec<(String, String)> = request
//!             .headers()
//!             .iter()
//!             .filter_map(|(name, value)| Some((name.to_string(), value.to_str().ok()?.to_owned())))
//!             .collect();
//!         let signable = SignableRequest::new(
//!             request.method().as_str(),
//!             request.url().as_str(),
//!             headers.iter().map(|(name, value)| (name.as_str(), value.as_str())),
//!             body,
//!         )?;
//!         let (instructions, _signature) = sign(signable, &params)?.into_parts();
//!         let (headers, _query) = instructions.into_parts();
//!         headers.iter().try_for_each(|header| request.set_header(header.name(), header.value()))
//!     }
//! }
//!
//! // let client = Client::builder(BASE_URL).signer(SigV4 { .. }).build()?;
//! ```
//!
//! An HMAC-SHA256 signature of the method, path and body, as webhooks carry them, is
//! `runtime/examples/hmac_signer.rs` (compiled with the runtime's examples).

use super::error::Error;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use std::fmt;
use std::sync::Arc;

/// Why a signer could not sign a request; the call fails with [`Error::Config`] saying so.
pub type SignError = Box<dyn std::error::Error + Send + Sync>;

/// Signs each request a generated client sends to the API's origin: set it with
/// [`Builder::signer`](super::Builder::signer). See the [module](self) for when it is called
/// and what it sees.
///
/// A closure `Fn(&mut Signing<'_>) -> Result<(), SignError>` is a signer too.
pub trait Sign: Send + Sync + 'static {
    /// Adds or replaces the headers that sign `request`; an error ends the call.
    fn sign(&self, request: &mut Signing<'_>) -> Result<(), SignError>;
}

impl<F> Sign for F
where
    F: Fn(&mut Signing<'_>) -> Result<(), SignError> + Send + Sync + 'static,
{
    fn sign(&self, request: &mut Signing<'_>) -> Result<(), SignError> {
        self(request)
    }
}

/// The signer a client holds ([`Settings::signer`](super::Settings::signer)), shared by its
/// clones.
#[derive(Clone)]
pub struct Signer(pub(super) Arc<dyn Sign>);

impl Signer {
    /// Wraps a signer.
    pub fn new(signer: impl Sign) -> Self {
        Signer(Arc::new(signer))
    }
}

impl fmt::Debug for Signer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Signer(..)")
    }
}

/// One request as the signer sees it, about to be sent.
pub struct Signing<'a> {
    operation: &'static str,
    schemes: &'a [&'static str],
    request: &'a mut reqwest::Request,
}

impl fmt::Debug for Signing<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Signing")
            .field("operation", &self.operation)
            .field("method", self.request.method())
            .field("schemes", &self.schemes)
            .finish_non_exhaustive()
    }
}

impl Signing<'_> {
    /// The operation's name in the spec (`createSpace`).
    pub fn operation(&self) -> &'static str {
        self.operation
    }

    /// The auth schemes whose credentials this request carries, by name in the spec (the
    /// first alternative of the operation's `auth` the client holds; a scheme left to the
    /// signer counts as held); empty for a public operation.
    pub fn schemes(&self) -> &[&'static str] {
        self.schemes
    }

    /// The HTTP method.
    pub fn method(&self) -> &reqwest::Method {
        self.request.method()
    }

    /// The full URL: the base URL, the path, the query (an API key in the query included).
    pub fn url(&self) -> &reqwest::Url {
        self.request.url()
    }

    /// The headers set so far.
    pub fn headers(&self) -> &HeaderMap {
        self.request.headers()
    }

    /// The headers, to change as the signer needs.
    pub fn headers_mut(&mut self) -> &mut HeaderMap {
        self.request.headers_mut()
    }

    /// The body's bytes, exactly as sent: empty for a request without a body, `None` for a
    /// streamed body (an upload from a file or a stream), which is read only as it is sent.
    pub fn body(&self) -> Option<&[u8]> {
        match self.request.body() {
            None => Some(&[]),
            Some(body) => body.as_bytes(),
        }
    }

    /// Sets the header `name` to `value`, replacing any value it had; marked sensitive (kept
    /// out of reqwest's logs). Fails when a header cannot hold the name or the value.
    pub fn set_header(&mut self, name: &str, value: &str) -> Result<(), SignError> {
        let name = HeaderName::from_bytes(name.as_bytes())?;
        let mut value = HeaderValue::from_str(value)?;
        value.set_sensitive(true);
        self.request.headers_mut().insert(name, value);
        Ok(())
    }
}

/// Builds one request of `operation` and, when `signer` is given, signs it.
pub(super) fn signed(
    builder: reqwest::RequestBuilder,
    signer: Option<&Signer>,
    operation: &'static str,
    schemes: &[&'static str],
) -> Result<reqwest::Request, Error> {
    let mut request =
        builder.build().map_err(|e| Error::Config(format!("the request of `{operation}` cannot be built: {e}")))?;
    if let Some(Signer(signer)) = signer {
        let mut signing = Signing { operation, schemes, request: &mut request };
        signer
            .sign(&mut signing)
            .map_err(|e| Error::Config(format!("the signer could not sign `{operation}`: {e}")))?;
    }
    Ok(request)
}
