//! The tokens [`TokenCache`]s give a client, one attempt at a call at a time ([`Provided`]):
//! which schemes need one (those of the alternative the call sends), the tokens as a request
//! carries them, the redactor that takes them out of errors, and whether a 401 asks for new
//! ones. Also which schemes a provider may serve ([`providers_of`]).

use super::call::{Call, Presented};
use super::error::{Error, TokenError};
use super::redact::Redactor;
use super::settings::Token;
use super::token::TokenCache;
use crate::auth::{Scheme, SchemeKind};
use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue, WWW_AUTHENTICATE};
use std::sync::LazyLock;

/// The token providers of a client by scheme name, each checked against the API's schemes: a
/// name the API does not declare, or a scheme other than bearer, fails with [`Error::Config`].
pub(super) fn providers_of(
    schemes: &'static [Scheme],
    providers: Vec<(String, TokenCache)>,
) -> Result<Vec<(&'static str, TokenCache)>, Error> {
    providers
        .into_iter()
        .map(|(name, cache)| match schemes.iter().find(|scheme| scheme.name == name) {
            Some(Scheme { name, kind: SchemeKind::Bearer }) => Ok((*name, cache)),
            Some(_) => {
                Err(Error::Config(format!("`{name}` is not a bearer scheme: a token provider serves bearer schemes")))
            }
            None => {
                let known: Vec<&str> = schemes.iter().map(|s| s.name).collect();
                let known = if known.is_empty() { "none".to_owned() } else { known.join(", ") };
                Err(Error::Config(format!("the API has no auth scheme `{name}` (it has: {known})")))
            }
        })
        .collect()
}

/// The tokens providers gave for one attempt at a call.
#[derive(Default)]
pub(super) struct Provided(Vec<Given>);

struct Given {
    scheme: &'static str,
    cache: TokenCache,
    token: Token,
    presented: Presented,
}

impl Provided {
    /// The tokens of the providers among the schemes of the first alternative of `call`'s
    /// operation the client holds whole (`statics` or `providers`); none when it holds none
    /// (building the request then says which credentials are missing).
    pub(super) async fn fetch(
        call: &Call,
        statics: &[(&'static str, Presented)],
        providers: &[(&'static str, TokenCache)],
    ) -> Result<Provided, Error> {
        if providers.is_empty() {
            return Ok(Provided::default());
        }
        let held = |scheme: &&str| {
            statics.iter().any(|(name, _)| name == scheme) || providers.iter().any(|(name, _)| name == scheme)
        };
        let Some(set) = call.auth.iter().find(|set| set.iter().all(held)) else { return Ok(Provided::default()) };
        let mut given = Vec::new();
        for (scheme, cache) in providers.iter().filter(|(name, _)| set.contains(name)) {
            let token = cache.token().await.map_err(|error| Error::Token { scheme: (*scheme).to_owned(), error })?;
            let presented = bearer(scheme, &token)?;
            given.push(Given { scheme, cache: cache.clone(), token, presented });
        }
        Ok(Provided(given))
    }

    /// Whether no provider gave a token.
    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The tokens as a request carries them, by scheme name.
    pub(super) fn presented(&self) -> impl Iterator<Item = (&'static str, Presented)> + '_ {
        self.0.iter().map(|given| (given.scheme, given.presented.clone()))
    }

    /// `redactor` and these tokens.
    pub(super) fn redactor(&self, redactor: &Redactor) -> Redactor {
        if self.0.is_empty() {
            return redactor.clone();
        }
        redactor.with(self.0.iter().map(|given| given.token.0.to_string()))
    }

    /// Whether an answer `status` with `headers` asks for new tokens: a 401 to a call carrying
    /// a token from a provider that refreshes, unless `WWW-Authenticate` names an error other
    /// than `invalid_token`.
    pub(super) fn refused(&self, status: u16, headers: &HeaderMap) -> bool {
        status == 401
            && self.0.iter().any(|given| given.cache.refreshes())
            && bearer_errors(headers).iter().all(|error| error == "invalid_token")
    }

    /// Invalidates the tokens given (those fetched since by other calls are kept).
    pub(super) async fn invalidate(&self) {
        for given in &self.0 {
            given.cache.invalidate(&given.token).await;
        }
    }
}

/// `Authorization: Bearer <token>`, sensitive; a token a header cannot hold fails.
fn bearer(scheme: &str, token: &Token) -> Result<Presented, Error> {
    let mut value = HeaderValue::from_str(&format!("Bearer {}", token.0)).map_err(|_| Error::Token {
        scheme: scheme.to_owned(),
        error: TokenError::Response("the token holds characters a header cannot".into()),
    })?;
    value.set_sensitive(true);
    Ok(Presented::Header(AUTHORIZATION, value))
}

/// The `error` parameters of the `WWW-Authenticate` headers (RFC 6750 section 3), lower case.
fn bearer_errors(headers: &HeaderMap) -> Vec<String> {
    static ERROR: LazyLock<regex_lite::Regex> =
        LazyLock::new(|| regex_lite::Regex::new(r#"(?i)(?:^|[\s,])error\s*=\s*"?([A-Za-z0-9_]+)"#).expect("valid"));
    headers
        .get_all(WWW_AUTHENTICATE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|text| ERROR.captures_iter(text).map(|found| found[1].to_ascii_lowercase()).collect::<Vec<_>>())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_of_www_authenticate_is_read() {
        let errors = |values: &[&str]| {
            let mut headers = HeaderMap::new();
            for value in values {
                headers.append(WWW_AUTHENTICATE, HeaderValue::from_str(value).unwrap());
            }
            bearer_errors(&headers)
        };
        assert_eq!(
            errors(&[r#"Bearer realm="x", error="invalid_token", error_description="expired""#]),
            ["invalid_token"]
        );
        assert_eq!(errors(&[r#"Bearer error=invalid_request"#]), ["invalid_request"]);
        assert_eq!(errors(&[r#"Bearer realm="x", error_description="no error here""#]), Vec::<String>::new());
        assert_eq!(errors(&[]), Vec::<String>::new());
    }
}
