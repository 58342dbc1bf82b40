//! The auth schemes of an API as generated code declares them, shared by the server (which
//! finds the credentials a request carries) and the client (which sends them).

use std::fmt;

/// One way a caller proves who it is, named in the spec (`api.auth`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scheme {
    /// The scheme's name in the spec (`bearerAuth`).
    pub name: &'static str,
    /// Where the credential travels.
    pub kind: SchemeKind,
}

/// Where a scheme's credential travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemeKind {
    /// `Authorization: Bearer <token>`.
    Bearer,
    /// `Authorization: Basic <base64 of user:password>`.
    Basic,
    /// A key in a header, a query parameter or a cookie of this name.
    ApiKey {
        /// Where the key travels.
        location: KeyIn,
        /// The header, query parameter or cookie.
        name: &'static str,
    },
    /// `Authorization: <scheme> <credentials>` of an HTTP auth-scheme other than bearer and
    /// basic (`Digest`, `Signature`, a vendor's), which the spec cannot describe further: the
    /// generated client leaves it to the signer the user sets
    /// ([`Builder::signer`](crate::client::Builder::signer), feature `client`), and the server
    /// hands the whole `Authorization` value to the authenticator ([`Secret::Http`]).
    Http {
        /// The auth-scheme, as the spec writes it (compared without case).
        scheme: &'static str,
    },
}

/// An OAuth 2.0 client-credentials flow of a scheme, as the spec declares it: where a client
/// gets its token and which scopes the API's operations require of the scheme. Generated
/// clients declare one per such flow (`oauth::<SCHEME>`); with the runtime's `oauth2`
/// feature, `Builder::client_credentials` gets, caches and refreshes tokens from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientCredentialsFlow {
    /// The scheme's name in the spec.
    pub scheme: &'static str,
    /// The token endpoint.
    pub token_url: &'static str,
    /// Every scope an operation requires of the scheme, each once, in the spec's order: what
    /// a token asked for with them lets the client call (an operation requiring none needs
    /// none).
    pub scopes: &'static [&'static str],
}

/// An OAuth 2.0 authorization-code flow of a scheme, as the spec declares it: where the user
/// authorizes the client, where the code is exchanged for tokens and they are refreshed, and
/// the scopes asked for. Generated clients declare one per such flow
/// (`oauth::<SCHEME>_AUTHORIZATION_CODE`); with the runtime's `oauth2` feature,
/// `.for_client(client_id, redirect_url)` gives the PKCE helper
/// ([`AuthorizationCode`](crate::client::AuthorizationCode)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AuthorizationCodeFlow {
    /// The scheme's name in the spec.
    pub scheme: &'static str,
    /// Where the user authorizes the client (the URL the helper opens).
    pub authorization_url: &'static str,
    /// Where the code is exchanged for tokens.
    pub token_url: &'static str,
    /// Where tokens are refreshed, when the spec names another URL than `token_url`.
    pub refresh_url: Option<&'static str>,
    /// The scopes asked for: those the API's operations require of the scheme that the flow
    /// declares, each once, in the operations' order.
    pub scopes: &'static [&'static str],
}

/// An OAuth 2.0 device authorization flow of a scheme (RFC 8628), as the spec declares it:
/// where the client asks for a device code and polls for its tokens, and the scopes asked
/// for. Generated clients declare one per such flow (`oauth::<SCHEME>_DEVICE_CODE`); with the
/// runtime's `oauth2` feature, `.for_client(client_id)` gives the helper
/// ([`DeviceCode`](crate::client::DeviceCode)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceCodeFlow {
    /// The scheme's name in the spec.
    pub scheme: &'static str,
    /// Where the client asks for a device code and the user code shown to the user.
    pub device_authorization_url: &'static str,
    /// Where the client polls for its tokens, and refreshes them.
    pub token_url: &'static str,
    /// The scopes asked for: those the API's operations require of the scheme that the flow
    /// declares, each once, in the operations' order.
    pub scopes: &'static [&'static str],
}

/// An OpenID Connect scheme, as the spec declares it: the provider's discovery document and
/// the scopes the API's operations require of the scheme. Generated clients declare one per
/// such scheme (`oauth::<SCHEME>`); with the runtime's `oauth2` feature,
/// `Builder::client_credentials` gets its tokens from the endpoints the document names, and
/// `.for_client(client_id)` gives the [`OpenIdProvider`](crate::client::OpenIdProvider)
/// for the other grants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenIdConnectFlow {
    /// The scheme's name in the spec.
    pub scheme: &'static str,
    /// The provider's discovery document (`https://../.well-known/openid-configuration`).
    pub discovery_url: &'static str,
    /// Every scope an operation requires of the scheme, each once, in the spec's order.
    pub scopes: &'static [&'static str],
}

/// Where an API key travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyIn {
    /// A request header.
    Header,
    /// A query parameter.
    Query,
    /// A cookie.
    Cookie,
}

impl Scheme {
    /// How a caller presents this credential, for error messages (`header X-API-Key`).
    pub fn describe(&self) -> String {
        match self.kind {
            SchemeKind::Bearer => "`Authorization: Bearer <token>`".to_owned(),
            SchemeKind::Basic => "`Authorization: Basic <credentials>`".to_owned(),
            SchemeKind::ApiKey { location: KeyIn::Header, name } => format!("the header `{name}`"),
            SchemeKind::ApiKey { location: KeyIn::Query, name } => format!("the query parameter `{name}`"),
            SchemeKind::ApiKey { location: KeyIn::Cookie, name } => format!("the cookie `{name}`"),
            SchemeKind::Http { scheme } => format!("`Authorization: {scheme} <credentials>`"),
        }
    }
}

/// What a request presented for one scheme: handed to the service's authenticator. Never
/// printed by `Debug`.
#[derive(Clone, Copy)]
pub struct Credential<'a> {
    /// The scheme that matched, by its name in the spec.
    pub scheme: &'static str,
    /// The secret itself.
    pub secret: Secret<'a>,
}

/// A presented secret, by kind of scheme.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Secret<'a> {
    /// A bearer token.
    Bearer(&'a str),
    /// An API key.
    ApiKey(&'a str),
    /// A user name and password.
    Basic {
        /// The user name.
        user: &'a str,
        /// The password.
        password: &'a str,
    },
    /// The whole `Authorization` value of an `http` scheme (`Digest username="a", ...`), its
    /// auth-scheme included: the service parses and checks it.
    Http(&'a str),
}

impl<'a> Credential<'a> {
    /// The bearer token or API key; `None` for basic credentials and an `http` scheme's.
    pub fn token(&self) -> Option<&'a str> {
        match self.secret {
            Secret::Bearer(token) | Secret::ApiKey(token) => Some(token),
            Secret::Basic { .. } | Secret::Http(_) => None,
        }
    }
}

impl fmt::Debug for Credential<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credential").field("scheme", &self.scheme).field("secret", &self.secret).finish()
    }
}

impl fmt::Debug for Secret<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Secret::Bearer(_) => f.write_str("Bearer(\"<redacted>\")"),
            Secret::ApiKey(_) => f.write_str("ApiKey(\"<redacted>\")"),
            Secret::Http(_) => f.write_str("Http(\"<redacted>\")"),
            Secret::Basic { user, .. } => {
                f.debug_struct("Basic").field("user", user).field("password", &crate::Redacted).finish()
            }
        }
    }
}
