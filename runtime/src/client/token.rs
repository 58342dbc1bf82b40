//! Tokens a client gets for itself: the [`TokenProvider`] trait (where a bearer token comes
//! from), the [`AccessToken`] it gives, and the [`TokenCache`] in front of it that a client
//! asks before each request needing the token; the providers that need no OAuth2 machinery
//! ([`StaticToken`], [`token_fn`]). The OAuth2 grants are in `oauth` (feature `oauth2`).
//!
//! The cache, as a client uses it:
//!
//! - **cached**: a token is fetched once and reused until it nears its expiry;
//! - **refreshed before expiry**: a token whose lifetime is known (`expires_in`) is fetched
//!   again once less than the cache's margin (default [`DEFAULT_REFRESH_MARGIN`], 60 s) or
//!   half its lifetime, whichever is shorter, is left, so a token is never sent in its last
//!   seconds; one whose lifetime is unknown is kept until invalidated;
//! - **single-flight**: calls that need a token while one is being fetched wait for that
//!   fetch and share its token (one request to the token endpoint, however many calls);
//! - **invalidated** by [`TokenCache::invalidate`] with the token the API refused: the next
//!   call fetches a new one (a token fetched meanwhile by another call is kept).

use super::error::TokenError;
use super::settings::Token;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// The default margin before a token's expiry at which the cache fetches a new one: 60 s.
pub const DEFAULT_REFRESH_MARGIN: Duration = Duration::from_secs(60);

/// A bearer token as a provider gives it: the secret and, when known, how long it lives.
#[derive(Debug, Clone)]
pub struct AccessToken {
    /// The token (redacted in `Debug`).
    pub token: Token,
    /// How long it is valid from when it was asked for (OAuth2's `expires_in`); `None` when
    /// unknown: the cache keeps it until invalidated.
    pub expires_in: Option<Duration>,
}

impl AccessToken {
    /// A token whose lifetime is unknown.
    pub fn new(token: impl Into<String>) -> Self {
        AccessToken { token: Token::new(token), expires_in: None }
    }

    /// The token, valid for `lifetime` from when it was asked for.
    pub fn expires_in(mut self, lifetime: Duration) -> Self {
        self.expires_in = Some(lifetime);
        self
    }
}

/// What a provider's fetch returns: a boxed future, so the trait stays object-safe.
pub type TokenFuture<'a> = Pin<Box<dyn Future<Output = Result<AccessToken, TokenError>> + Send + 'a>>;

/// Where a client's bearer token for one auth scheme comes from: each call of
/// [`TokenProvider::fetch`] gets a fresh token (from a token endpoint, a vault, a file).
///
/// A client never calls it directly: it asks the [`TokenCache`] in front of it (see the
/// module docs), before each request of an operation the scheme secures. Implemented here by
/// [`StaticToken`], [`token_fn`] (an async closure of yours) and, with the feature `oauth2`,
/// the OAuth2 grants (`ClientCredentials`, `RefreshToken`, and what `AuthorizationCode`
/// exchanges a code for).
pub trait TokenProvider: Send + Sync + 'static {
    /// A fresh token.
    fn fetch(&self) -> TokenFuture<'_>;

    /// Whether fetching again can give another token (true but for [`StaticToken`]): a call
    /// the API answers 401 is retried with a new token only when it can.
    fn refreshes(&self) -> bool {
        true
    }
}

/// The same token every time (what `.token(scheme, token)` sends, as a provider): never
/// refreshed, so a 401 is not retried.
#[derive(Debug, Clone)]
pub struct StaticToken(pub Token);

impl StaticToken {
    /// The token.
    pub fn new(token: impl Into<String>) -> Self {
        StaticToken(Token::new(token))
    }
}

impl TokenProvider for StaticToken {
    fn fetch(&self) -> TokenFuture<'_> {
        let token = AccessToken { token: self.0.clone(), expires_in: None };
        Box::pin(async move { Ok(token) })
    }

    fn refreshes(&self) -> bool {
        false
    }
}

/// A provider of your own async closure: called for each fresh token the cache needs.
///
/// ```
/// # use apigen_runtime::client::{AccessToken, TokenError, token_fn};
/// # use std::time::Duration;
/// let provider = token_fn(|| async {
///     let token = std::env::var("API_TOKEN").map_err(|e| TokenError::Provider(e.to_string()))?;
///     Ok(AccessToken::new(token).expires_in(Duration::from_secs(3600)))
/// });
/// ```
pub fn token_fn<F, Fut>(fetch: F) -> FnToken<F>
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<AccessToken, TokenError>> + Send + 'static,
{
    FnToken(fetch)
}

/// The provider [`token_fn`] makes.
pub struct FnToken<F>(F);

impl<F> fmt::Debug for FnToken<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FnToken(..)")
    }
}

impl<F, Fut> TokenProvider for FnToken<F>
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<AccessToken, TokenError>> + Send + 'static,
{
    fn fetch(&self) -> TokenFuture<'_> {
        Box::pin((self.0)())
    }
}

/// The cache in front of a [`TokenProvider`] (see the module docs): cloned cheaply, its
/// clones sharing one token, so one cache may serve several clients.
#[derive(Clone)]
pub struct TokenCache(Arc<Cache>);

struct Cache {
    provider: Box<dyn TokenProvider>,
    margin: Duration,
    /// The token held; locked across a fetch, which makes concurrent callers share it.
    held: tokio::sync::Mutex<Option<Held>>,
}

struct Held {
    token: Token,
    /// When it is to be fetched again; `None`: not before it is invalidated.
    refresh_at: Option<Instant>,
}

impl fmt::Debug for TokenCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenCache").field("margin", &self.0.margin).finish_non_exhaustive()
    }
}

impl TokenCache {
    /// A cache in front of `provider`, with the margin [`DEFAULT_REFRESH_MARGIN`].
    pub fn new(provider: impl TokenProvider) -> Self {
        TokenCache::with_margin(provider, DEFAULT_REFRESH_MARGIN)
    }

    /// A cache refreshing a token once less than `margin` (or half its lifetime, if shorter)
    /// is left.
    pub fn with_margin(provider: impl TokenProvider, margin: Duration) -> Self {
        TokenCache(Arc::new(Cache { provider: Box::new(provider), margin, held: tokio::sync::Mutex::new(None) }))
    }

    /// The token to send now: the one held while it is fresh, else a new one from the
    /// provider (one fetch for all the callers waiting meanwhile).
    pub async fn token(&self) -> Result<Token, TokenError> {
        let mut held = self.0.held.lock().await;
        if let Some(fresh) = held.as_ref().filter(|held| held.refresh_at.is_none_or(|at| Instant::now() < at)) {
            return Ok(fresh.token.clone());
        }
        let asked = Instant::now();
        let fetched = self.0.provider.fetch().await?;
        // A lifetime past what the clock can count (`expires_in` is the endpoint's to say) is
        // kept until invalidated, rather than overflow.
        let fresh_for = |lifetime: Duration| lifetime - self.0.margin.min(lifetime / 2);
        let refresh_at = fetched.expires_in.and_then(|lifetime| asked.checked_add(fresh_for(lifetime)));
        *held = Some(Held { token: fetched.token.clone(), refresh_at });
        Ok(fetched.token)
    }

    /// Forgets `stale` (a token the API refused) if it is still the one held, so the next
    /// [`TokenCache::token`] fetches a new one; a token fetched since is kept.
    pub async fn invalidate(&self, stale: &Token) {
        let mut held = self.0.held.lock().await;
        if held.as_ref().is_some_and(|held| held.token.0 == stale.0) {
            *held = None;
        }
    }

    /// Whether its provider can give another token ([`TokenProvider::refreshes`]).
    pub fn refreshes(&self) -> bool {
        self.0.provider.refreshes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A provider counting its fetches, each token numbered, living `lifetime`.
    fn counting(lifetime: Option<Duration>) -> (TokenCache, Arc<AtomicUsize>) {
        let count = Arc::new(AtomicUsize::new(0));
        let counter = count.clone();
        let provider = token_fn(move || {
            let n = counter.fetch_add(1, Ordering::SeqCst) + 1;
            async move { Ok(AccessToken { token: Token::new(format!("token-{n}")), expires_in: lifetime }) }
        });
        (TokenCache::new(provider), count)
    }

    #[tokio::test(start_paused = true)]
    async fn a_token_is_kept_until_the_margin_then_fetched_again() {
        let (cache, count) = counting(Some(Duration::from_secs(3600)));
        assert_eq!(&*cache.token().await.unwrap().0, "token-1");
        tokio::time::advance(Duration::from_secs(3539)).await;
        assert_eq!(&*cache.token().await.unwrap().0, "token-1");
        tokio::time::advance(Duration::from_secs(2)).await;
        // 59 s before its expiry: within the 60 s margin.
        assert_eq!(&*cache.token().await.unwrap().0, "token-2");
        assert_eq!(count.load(Ordering::SeqCst), 2);
    }

    #[tokio::test(start_paused = true)]
    async fn a_short_lived_token_is_refreshed_at_half_its_lifetime() {
        let (cache, count) = counting(Some(Duration::from_secs(10)));
        cache.token().await.unwrap();
        tokio::time::advance(Duration::from_secs(4)).await;
        assert_eq!(&*cache.token().await.unwrap().0, "token-1");
        tokio::time::advance(Duration::from_secs(2)).await;
        assert_eq!(&*cache.token().await.unwrap().0, "token-2");
        assert_eq!(count.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_lifetime_past_the_clock_is_kept() {
        let (cache, count) = counting(Some(Duration::MAX));
        cache.token().await.unwrap();
        assert_eq!(&*cache.token().await.unwrap().0, "token-1");
        assert_eq!(count.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn invalidating_a_stale_token_fetches_anew_but_keeps_a_newer_one() {
        let (cache, count) = counting(None);
        let first = cache.token().await.unwrap();
        cache.invalidate(&first).await;
        let second = cache.token().await.unwrap();
        assert_eq!(&*second.0, "token-2");
        cache.invalidate(&first).await;
        assert_eq!(&*cache.token().await.unwrap().0, "token-2");
        assert_eq!(count.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn secrets_never_print() {
        let token = AccessToken::new("s3cret-access").expires_in(Duration::from_secs(5));
        assert_eq!(format!("{token:?}"), "AccessToken { token: Token(\"<redacted>\"), expires_in: Some(5s) }");
        assert_eq!(format!("{:?}", StaticToken::new("s3cret-access")), "StaticToken(Token(\"<redacted>\"))");
        assert_eq!(format!("{:?}", TokenCache::new(StaticToken::new("x"))), "TokenCache { margin: 60s, .. }");
    }
}
