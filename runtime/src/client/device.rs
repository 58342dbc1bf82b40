//! The device authorization grant (RFC 8628, feature `oauth2`), for a client that cannot
//! open a browser (a command line, a TV): [`DeviceCode::start`] asks the authorization
//! server for a device code and gets the user code and the URL the user opens elsewhere;
//! [`DeviceCode::poll`] then asks the token endpoint for the tokens until the user has
//! answered, and gives a [`RefreshToken`] provider holding them.
//!
//! Polling is the `oauth2` crate's: it waits `interval` between requests (5 s when the server
//! names none), 5 s more after each `slow_down`, keeps on while the server answers
//! `authorization_pending`, and stops with [`TokenError::Refused`] `expired_token` once the
//! code's `expires_in` has passed (or the server says so), `access_denied` when the user
//! refused. It sleeps on tokio's timer, so no thread is held while it waits.
//!
//! ```no_run
//! # async fn run() -> Result<(), apigen_runtime::client::TokenError> {
//! use apigen_runtime::client::TokenEndpoint;
//! let grant = TokenEndpoint::new("https://auth.example.com/oauth/token", "my-cli")
//!     .device_code("https://auth.example.com/oauth/device")
//!     .scopes(["read"]);
//! let started = grant.start().await?;
//! println!("Open {} and enter {}", started.verification_uri, started.user_code);
//! let tokens = grant.poll(started).await?; // a RefreshToken provider for `.token_provider(..)`
//! # Ok(()) }
//! ```

use super::error::TokenError;
use super::oauth::{RefreshToken, TokenEndpoint, access_token, token_error};
use super::settings::Token;
use oauth2::TokenResponse;
use oauth2::basic::BasicTokenResponse;
use std::fmt;
use std::time::Duration;

/// The device authorization grant of one client at one authorization server: made by
/// [`TokenEndpoint::device_code`], or from a spec's flow (`oauth::<SCHEME>_DEVICE_CODE`)
/// by its `.for_client(client_id)`.
#[derive(Debug, Clone)]
pub struct DeviceCode {
    endpoint: TokenEndpoint,
    device_authorization_url: String,
    scopes: Vec<String>,
}

/// A device authorization under way: what to show the user, and the device code the client
/// polls with (a secret, which never prints).
pub struct DeviceAuthorization {
    /// The code the user types at [`DeviceAuthorization::verification_uri`].
    pub user_code: String,
    /// Where the user goes, on another device, to enter the code.
    pub verification_uri: String,
    /// The same URL with the code in it, when the server gives one (for a QR code).
    pub verification_uri_complete: Option<String>,
    /// How long the codes are valid, from when they were asked for.
    pub expires_in: Duration,
    /// How long to wait between polls, as the server asked (5 s when it named none).
    pub interval: Duration,
    details: oauth2::StandardDeviceAuthorizationResponse,
}

impl fmt::Debug for DeviceAuthorization {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DeviceAuthorization")
            .field("user_code", &self.user_code)
            .field("verification_uri", &self.verification_uri)
            .field("verification_uri_complete", &self.verification_uri_complete)
            .field("expires_in", &self.expires_in)
            .field("interval", &self.interval)
            .field("device_code", &"<redacted>")
            .finish()
    }
}

impl TokenEndpoint {
    /// The device authorization grant (RFC 8628) of this client: the device code asked for at
    /// `device_authorization_url`, the tokens polled for at this endpoint.
    pub fn device_code(self, device_authorization_url: impl Into<String>) -> DeviceCode {
        DeviceCode { endpoint: self, device_authorization_url: device_authorization_url.into(), scopes: Vec::new() }
    }
}

impl crate::auth::DeviceCodeFlow {
    /// The device authorization grant of this flow of the spec for the client `client_id` (a
    /// public client, as devices are; [`DeviceCode::client_secret`] gives a confidential one
    /// its secret): its URLs and scopes are the spec's.
    pub fn for_client(&self, client_id: impl Into<String>) -> DeviceCode {
        TokenEndpoint::new(self.token_url, client_id)
            .device_code(self.device_authorization_url)
            .scopes(self.scopes.iter().copied())
    }
}

impl DeviceCode {
    /// The client's secret, for a confidential client (redacted in `Debug`).
    pub fn client_secret(mut self, secret: impl Into<String>) -> Self {
        self.endpoint = self.endpoint.client_secret(secret);
        self
    }

    /// The scopes asked for.
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Asks the authorization server for a device code: what the user is to be shown.
    pub async fn start(&self) -> Result<DeviceAuthorization, TokenError> {
        let url = oauth2::DeviceAuthorizationUrl::new(self.device_authorization_url.clone()).map_err(|e| {
            TokenError::Config(format!(
                "the device authorization URL {:?} does not parse: {e}",
                self.device_authorization_url
            ))
        })?;
        let (client, http) = (self.endpoint.client()?.set_device_authorization_url(url), self.endpoint.http()?);
        let scopes = self.scopes.iter().cloned().map(oauth2::Scope::new);
        let answer = client.exchange_device_code().add_scopes(scopes).request_async(&http).await;
        let details: oauth2::StandardDeviceAuthorizationResponse =
            answer.map_err(|error| token_error(error, &self.endpoint.redactor([])))?;
        Ok(DeviceAuthorization {
            user_code: details.user_code().secret().clone(),
            verification_uri: details.verification_uri().to_string(),
            verification_uri_complete: details.verification_uri_complete().map(|url| url.secret().clone()),
            expires_in: details.expires_in(),
            interval: details.interval(),
            details,
        })
    }

    /// Polls the token endpoint until the user has answered (see the module docs for how
    /// often, and when it stops): a [`RefreshToken`] provider that gives the access token got
    /// now, then refreshes it.
    pub async fn poll(&self, authorization: DeviceAuthorization) -> Result<RefreshToken, TokenError> {
        let (client, http) = (self.endpoint.client()?, self.endpoint.http()?);
        let answer = client
            .exchange_device_access_token(&authorization.details)
            .set_time_fn(tokio_clock())
            .request_async(&http, tokio::time::sleep, None)
            .await;
        let code = Token::new(authorization.details.device_code().secret().clone());
        let answer: BasicTokenResponse =
            answer.map_err(|error| token_error(error, &self.endpoint.redactor([&code])))?;
        let refresh = answer.refresh_token().map(|refresh| Token::new(refresh.secret().clone()));
        Ok(RefreshToken::of(self.endpoint.clone(), Some(access_token(&answer)), refresh).scopes(self.scopes.clone()))
    }
}

/// The wall clock as tokio's timer counts it: the time polling started, advanced by tokio's
/// `Instant`, so that `expires_in` is counted on the clock the waits between polls use (the
/// same, but for a test that pauses tokio's time).
fn tokio_clock() -> impl Fn() -> chrono::DateTime<chrono::Utc> + Send + Sync {
    let (wall, start) = (chrono::Utc::now(), tokio::time::Instant::now());
    move || wall + start.elapsed()
}
