//! Authentication: the service's [`Authenticator`], how the router finds the credentials it
//! is handed, for the schemes an operation accepts ([`Scheme`]), and the scopes an operation
//! requires of them (OAuth 2.0 scopes, or roles for other schemes).

use super::ApiError;
use crate::auth::{Credential, KeyIn, Scheme, SchemeKind, Secret};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use std::borrow::Cow;
use std::future::Future;

/// Checks credentials. The service implements it; the router calls it on every request to an
/// operation that is not public, before any handler, with the credential of the first scheme
/// (in the order the spec lists the operation's schemes) the request carries. Where the
/// operation asks for several schemes together (two keys at once), it is called with each of
/// their credentials in the spec's order, every one must be accepted, and the handler gets
/// the principal of the first.
pub trait Authenticator: Send + Sync + 'static {
    /// Who the credential belongs to, handed to every handler in its [`Context`](super::Context).
    type Principal: Clone + Send + Sync + 'static;

    /// Accepts the credential and says whose it is, or refuses it with 401 (unknown or expired)
    /// or 403 (known, but not allowed here). `credential.scheme` names the scheme that matched;
    /// `credential.token()` is the bearer token or API key.
    fn authenticate(
        &self,
        credential: Credential<'_>,
    ) -> impl Future<Output = Result<Self::Principal, ApiError>> + Send;

    /// Whether `principal` was granted `scope` (an OAuth 2.0 scope, or a role the spec names
    /// for another scheme). The router asks it for every scope an operation's requirement
    /// lists, after [`authenticate`](Self::authenticate) and before the handler, and refuses a
    /// principal lacking one with 403 and `WWW-Authenticate: Bearer
    /// error="insufficient_scope"`. It is synchronous: the scopes come with the credential, so
    /// `authenticate` keeps them in the principal (a token's `scope` claim, an introspection's
    /// answer). The default grants none, so an operation requiring scopes is refused until the
    /// service says which its principals hold; operations requiring none never ask.
    fn grants(&self, principal: &Self::Principal, scope: &str) -> bool {
        let _ = (principal, scope);
        false
    }
}

/// What a generated `Service` asks of a group of operations that its build leaves out (the
/// group's cargo feature off): nothing, so every type meets it.
pub trait GroupLeftOut {}

impl<T: ?Sized> GroupLeftOut for T {}

/// A credential found in a request: its text borrowed from a header, or owned when decoded
/// (a basic pair, a percent-decoded query or cookie value).
struct Found<'p> {
    scheme: &'static str,
    kind: SchemeKind,
    text: Cow<'p, str>,
}

impl Found<'_> {
    fn credential(&self) -> Credential<'_> {
        let secret = match self.kind {
            SchemeKind::Bearer => Secret::Bearer(&self.text),
            SchemeKind::ApiKey { .. } => Secret::ApiKey(&self.text),
            SchemeKind::Http { .. } => Secret::Http(&self.text),
            SchemeKind::Basic => {
                let (user, password) = self.text.split_once(':').unwrap_or((&self.text, ""));
                Secret::Basic { user, password }
            }
        };
        Credential { scheme: self.scheme, secret }
    }
}

/// Why the router refuses a request before its handler: the credentials (401, or whatever
/// the authenticator answered), or the scopes the chosen credentials lack (403).
pub(crate) enum Refusal {
    /// Missing or refused credentials.
    Credentials(ApiError),
    /// Accepted credentials lacking scopes: the alternative's required scopes, and the
    /// missing ones among them.
    Scopes { required: Vec<&'static str>, missing: Vec<&'static str> },
}

/// Authenticates a request to an operation accepting `alternatives` (at least one), which
/// require `scopes` (`scopes[i][j]` of scheme `j` of alternative `i`; empty when none does):
/// each alternative the request carries whole, in order, has its credentials handed to the
/// service, one by one, and the first whose principals hold every scope it requires passes,
/// with the principal of its first credential. None carried gives 401 naming what to send
/// (with a `WWW-Authenticate` challenge for each scheme that has one); a refusal of the
/// authenticator is answered as it is; carried alternatives all lacking scopes give 403 for
/// the first of them.
pub(crate) async fn authenticate<S: Authenticator>(
    service: &S,
    parts: &Parts,
    alternatives: &'static [&'static [Scheme]],
    scopes: &'static [&'static [&'static [&'static str]]],
) -> Result<S::Principal, Refusal> {
    // Found twice (to choose the alternative, then to hand over), which costs less than a
    // list of what was found on every request.
    let mut accepted: Vec<(&'static str, S::Principal)> = Vec::new();
    let mut refusal = None;
    let carried = alternatives.iter().enumerate().filter(|(_, set)| set.iter().all(|s| find(parts, s).is_some()));
    for (index, set) in carried {
        let mut principals = Vec::with_capacity(set.len());
        for found in set.iter().filter_map(|scheme| find(parts, scheme)) {
            principals.push(accept(service, found, &mut accepted).await.map_err(Refusal::Credentials)?);
        }
        let required = scopes.get(index).copied().unwrap_or_default();
        let lacking = missing_scopes(service, &principals, required);
        if lacking.is_empty() {
            let first = principals.into_iter().next();
            return first.ok_or_else(|| Refusal::Credentials(missing(parts, alternatives)));
        }
        let required = required.iter().flat_map(|scopes| scopes.iter().copied()).collect();
        refusal.get_or_insert(Refusal::Scopes { required, missing: lacking });
    }
    Err(refusal.unwrap_or_else(|| Refusal::Credentials(missing(parts, alternatives))))
}

/// The principal of a credential, asked of the service once per scheme a request presents
/// (two alternatives naming one scheme with different scopes share its answer).
async fn accept<S: Authenticator>(
    service: &S,
    found: Found<'_>,
    accepted: &mut Vec<(&'static str, S::Principal)>,
) -> Result<S::Principal, ApiError> {
    if let Some((_, principal)) = accepted.iter().find(|(scheme, _)| *scheme == found.scheme) {
        return Ok(principal.clone());
    }
    let principal = service.authenticate(found.credential()).await?;
    accepted.push((found.scheme, principal.clone()));
    Ok(principal)
}

/// The scopes of `required` (per credential of an alternative) that the principal of that
/// credential was not granted, each once, in the spec's order.
fn missing_scopes<S: Authenticator>(
    service: &S,
    principals: &[S::Principal],
    required: &[&'static [&'static str]],
) -> Vec<&'static str> {
    let mut missing: Vec<&'static str> = Vec::new();
    for (principal, scopes) in principals.iter().zip(required) {
        for scope in scopes.iter().filter(|scope| !service.grants(principal, scope)) {
            if !missing.contains(scope) {
                missing.push(scope);
            }
        }
    }
    missing
}

/// The 403 for accepted credentials lacking scopes, in the API's error body, naming the
/// missing scopes, with RFC 6750's challenge: `Bearer error="insufficient_scope",
/// scope="<every scope the alternative requires>"` (the scope a new token must carry, as
/// §3 defines the attribute).
pub(crate) fn insufficient_scope(
    required: &[&str],
    missing: &[&str],
    errors: &'static crate::error::ErrorShape,
) -> Response {
    let listed: Vec<String> = missing.iter().map(|scope| format!("`{scope}`")).collect();
    let noun = if missing.len() == 1 { "scope" } else { "scopes" };
    let message = format!("the credentials are not granted the {noun} this operation requires: {}", listed.join(", "));
    let mut response = ApiError::new(StatusCode::FORBIDDEN, message).into_response_with(errors);
    let challenge = format!("Bearer error=\"insufficient_scope\", scope=\"{}\"", required.join(" "));
    if let Ok(value) = HeaderValue::from_str(&challenge) {
        response.headers_mut().insert(header::WWW_AUTHENTICATE, value);
    }
    response
}

/// Every scheme the alternatives name, each once, in order.
pub(crate) fn schemes_of(alternatives: &[&'static [Scheme]]) -> Vec<&'static Scheme> {
    let mut schemes: Vec<&'static Scheme> = Vec::new();
    for scheme in alternatives.iter().flat_map(|set| set.iter()) {
        if !schemes.iter().any(|known| known.name == scheme.name) {
            schemes.push(scheme);
        }
    }
    schemes
}

/// The `WWW-Authenticate` value for a 401 of an operation accepting `alternatives`.
pub(crate) fn challenge(alternatives: &[&'static [Scheme]]) -> Option<HeaderValue> {
    let challenges: Vec<&str> = schemes_of(alternatives)
        .into_iter()
        .filter_map(|scheme| match scheme.kind {
            SchemeKind::Bearer => Some("Bearer"),
            SchemeKind::Basic => Some("Basic realm=\"api\""),
            SchemeKind::ApiKey { .. } => None,
            // The auth-scheme alone: its parameters (a Digest nonce) are the service's.
            SchemeKind::Http { scheme } => Some(scheme),
        })
        .collect();
    if challenges.is_empty() { None } else { HeaderValue::from_str(&challenges.join(", ")).ok() }
}

fn find<'p>(parts: &'p Parts, scheme: &Scheme) -> Option<Found<'p>> {
    let text = match scheme.kind {
        SchemeKind::Bearer => Cow::Borrowed(authorization(parts, "bearer").filter(|token| is_token(token))?),
        SchemeKind::Basic => Cow::Owned(basic(authorization(parts, "basic")?)?),
        SchemeKind::ApiKey { location: KeyIn::Header, name } => {
            Cow::Borrowed(parts.headers.get(name)?.to_str().ok().map(str::trim).filter(|key| !key.is_empty())?)
        }
        SchemeKind::ApiKey { location: KeyIn::Query, name } => {
            let query = parts.uri.query()?;
            form_urlencoded::parse(query.as_bytes()).find(|(key, _)| key == name)?.1
        }
        SchemeKind::ApiKey { location: KeyIn::Cookie, name } => {
            Cow::Owned(super::input::read_cookies(&parts.headers).into_iter().find(|(key, _)| key == name)?.1)
        }
        SchemeKind::Http { scheme } => {
            authorization(parts, scheme).filter(|credentials| !credentials.is_empty())?;
            Cow::Borrowed(parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim())
        }
    };
    Some(Found { scheme: scheme.name, kind: scheme.kind, text })
}

/// The credentials of `Authorization: <auth-scheme> <credentials>` when the auth-scheme is
/// `expected` (compared without case).
fn authorization<'p>(parts: &'p Parts, expected: &str) -> Option<&'p str> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, credentials) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case(expected).then(|| credentials.trim())
}

/// `user:password` from the base64 of basic credentials, when it decodes to UTF-8 with a `:`.
fn basic(credentials: &str) -> Option<String> {
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD.decode(credentials).ok()?;
    String::from_utf8(bytes).ok().filter(|pair| pair.contains(':'))
}

/// The 401 for a request carrying none of the alternatives of credentials accepted.
fn missing(parts: &Parts, alternatives: &[&'static [Scheme]]) -> ApiError {
    let schemes = schemes_of(alternatives);
    let reads_authorization =
        schemes.iter().any(|s| matches!(s.kind, SchemeKind::Bearer | SchemeKind::Basic | SchemeKind::Http { .. }));
    let forms: Vec<String> =
        alternatives.iter().map(|set| set.iter().map(Scheme::describe).collect::<Vec<_>>().join(" and ")).collect();
    let message = match alternatives {
        [[Scheme { kind: SchemeKind::Bearer, .. }]] if parts.headers.contains_key(header::AUTHORIZATION) => {
            "the `Authorization` header must be `Bearer <token>`".to_owned()
        }
        [[Scheme { kind: SchemeKind::Bearer, .. }]] => "missing `Authorization: Bearer <token>` header".to_owned(),
        _ if reads_authorization && parts.headers.contains_key(header::AUTHORIZATION) => {
            format!("the credentials are not valid: send {}", forms.join(" or "))
        }
        _ => format!("missing credentials: send {}", forms.join(" or ")),
    };
    ApiError::unauthorized(message)
}

/// RFC 6750 `b64token`: visible characters, no spaces.
fn is_token(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~+/=".contains(&b))
}
