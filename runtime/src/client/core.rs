//! The shared core of a generated client ([`Core`]): built once from the [`Settings`], cloned
//! cheaply, and the send paths every generated operation calls (a decoded body, no body, the
//! body with its status and headers, text, raw bytes as they arrive).

use super::builder::{Settings, http_client_builder};
use super::call::{Call, Presented, present};
use super::error::Error;
use super::redact::Redactor;
use super::retry::Outcome;
use super::transfer::{Answer, Download, DownloadBody, Received, Response, decode};
use crate::json::FromJson;
use bytes::Bytes;
use reqwest::header::HeaderValue;
use std::sync::Arc;

/// The shared core of a generated client: settings and the HTTP client.
#[derive(Debug, Clone)]
pub struct Core {
    pub(super) settings: Arc<Settings>,
    pub(super) http: reqwest::Client,
    pub(super) base: reqwest::Url,
    /// The credentials, ready to send, by scheme name; and `User-Agent`, built once.
    pub(super) credentials: Arc<Vec<(&'static str, Presented)>>,
    /// Takes the secrets the credentials hold out of every error the client reports (a
    /// service echoing the caller's token must not put it into the caller's logs).
    pub(super) redactor: Redactor,
    pub(super) user_agent: HeaderValue,
}

impl Core {
    /// Builds the core; installs ring as rustls' crypto provider unless one is installed.
    pub fn new(settings: Settings) -> Result<Self, Error> {
        let mut base_text = settings.base_url.trim_end_matches('/').to_owned();
        base_text.push('/');
        let base = reqwest::Url::parse(&base_text)
            .map_err(|e| Error::Config(format!("the base URL {:?} does not parse: {e}", settings.base_url)))?;
        let http = match &settings.http {
            Some(http) => http.clone(),
            None => http_client_builder()
                .build()
                .map_err(|e| Error::Config(format!("the HTTP client cannot be built: {e}")))?,
        };
        let credentials = Arc::new(present(&settings)?);
        let redactor = Redactor::new(&settings);
        let user_agent = HeaderValue::from_str(&settings.user_agent)
            .map_err(|_| Error::Config("the user agent holds characters a header cannot".into()))?;
        Ok(Core { settings: Arc::new(settings), http, base, credentials, redactor, user_agent })
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Sends a call and decodes its answer as `T`.
    pub async fn send<T: FromJson>(&self, call: Call) -> Result<T, Error> {
        let answer = self.execute(&call).await?;
        decode(&answer.body, &self.redactor).map(|(body, _)| body)
    }

    /// Sends a call whose answer has no body.
    pub async fn send_empty(&self, call: Call) -> Result<(), Error> {
        self.execute(&call).await.map(|_| ())
    }

    /// Sends a call; the decoded body with the status and headers.
    pub async fn send_with_response<T: FromJson>(&self, call: Call) -> Result<Response<T>, Error> {
        let answer = self.execute(&call).await?;
        let (body, not_understood) = decode(&answer.body, &self.redactor)?;
        Ok(Response { status: answer.status, headers: answer.headers, body, not_understood })
    }

    /// Sends a call; the answer undecoded (for operations whose statuses answer different
    /// bodies: generated code decodes by status with [`decode_body`](super::decode_body)).
    pub async fn send_raw(&self, call: Call) -> Result<Answer, Error> {
        self.execute(&call).await
    }

    /// Sends a call whose answer has no body; its status and headers.
    pub async fn send_empty_with_response(&self, call: Call) -> Result<Response<()>, Error> {
        let answer = self.execute(&call).await?;
        Ok(Response { status: answer.status, headers: answer.headers, body: (), not_understood: Vec::new() })
    }

    /// Sends a call, retrying as the policy allows; the body of a 2xx answer.
    pub(super) async fn execute(&self, call: &Call) -> Result<Answer, Error> {
        match self.run(call, false).await? {
            Outcome::Read(answer) => Ok(answer),
            Outcome::Open(download) => Ok(Answer {
                status: download.status,
                headers: download.headers.clone(),
                body: Received::new(download.bytes(self.settings.max_response_bytes).await?.to_vec(), &self.redactor),
            }),
        }
    }

    /// Sends a call whose answer is raw bytes, retrying as the policy allows until a success
    /// starts arriving; its body is read by the caller, as it comes.
    pub async fn send_download(&self, call: Call) -> Result<Download, Error> {
        Ok(match self.run(&call, true).await? {
            Outcome::Open(download) => download,
            Outcome::Read(answer) => Download {
                status: answer.status,
                headers: answer.headers,
                body: DownloadBody::Read(Some(Bytes::from(answer.body.into_bytes()))),
                redactor: self.redactor.clone(),
            },
        })
    }

    /// Sends a call whose answer is text (at most the response limit).
    pub async fn send_text(&self, call: Call) -> Result<String, Error> {
        let answer = self.execute(&call).await?;
        super::operation::text_of(answer.body.into_bytes(), self)
    }
}
