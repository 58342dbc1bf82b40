//! Authentication: the service's [`Authenticator`] and how the router finds the credentials it
//! is handed.

use super::ApiError;
use axum::http::{HeaderMap, header};
use std::future::Future;

/// Checks bearer tokens. The service implements it; the router calls it on every request,
/// before any handler, with the token of the `Authorization: Bearer <token>` header.
pub trait Authenticator: Send + Sync + 'static {
    /// Who the token belongs to, handed to every handler in its [`Context`](super::Context).
    type Principal: Clone + Send + Sync + 'static;

    /// Accepts the token and says whose it is, or refuses it with 401 (unknown or expired
    /// token) or 403 (known, but not allowed here).
    fn authenticate(&self, token: &str) -> impl Future<Output = Result<Self::Principal, ApiError>> + Send;
}

pub(crate) async fn authenticate<S: Authenticator>(service: &S, headers: &HeaderMap) -> Result<S::Principal, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Err(ApiError::unauthorized("missing `Authorization: Bearer <token>` header"));
    };
    let token = value
        .to_str()
        .ok()
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, token)| scheme.eq_ignore_ascii_case("bearer") && is_token(token))
        .map(|(_, token)| token);
    match token {
        Some(token) => service.authenticate(token).await,
        None => Err(ApiError::unauthorized("the `Authorization` header must be `Bearer <token>`")),
    }
}

/// RFC 6750 `b64token`: visible characters, no spaces.
fn is_token(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~+/=".contains(&b))
}
