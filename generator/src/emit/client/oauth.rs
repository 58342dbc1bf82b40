//! `oauth`: the OAuth 2.0 flows and OpenID Connect schemes of the spec a client runs itself,
//! as constants of the client's root: each client-credentials flow (`oauth::<SCHEME>`) and
//! each OpenID Connect scheme (`oauth::<SCHEME>`, its discovery URL), which `Client::builder`
//! hands the runtime builder so that `.client_credentials(id, secret)` reads them, each
//! authorization-code flow (`oauth::<SCHEME>_AUTHORIZATION_CODE`), whose `.for_client(..)`
//! gives the PKCE helper, and each device-code flow (`oauth::<SCHEME>_DEVICE_CODE`, the
//! RFC 8628 helper) (the client crate's feature `oauth2`, the runtime's): where the tokens
//! come from and the scopes the operations require. Each constant's name is the model's
//! (claimed once in lowering). The token requests, cache and refresh are the runtime's.

use super::super::rust::{doc, ident};
use crate::model::{Api, AuthScheme, Grant, OAuthFlow, SchemeKind};
use proc_macro2::TokenStream;
use quote::quote;

/// The `oauth` module, or nothing when no scheme has a flow a client runs itself.
pub(super) fn oauth_module(api: &Api) -> TokenStream {
    let flows: Vec<TokenStream> = api
        .auth_schemes
        .iter()
        .flat_map(|scheme| {
            [
                client_credentials_const(api, scheme),
                openid_connect_const(api, scheme),
                authorization_code_const(api, scheme),
                device_code_const(api, scheme),
            ]
        })
        .flatten()
        .collect();
    if flows.is_empty() {
        return TokenStream::new();
    }
    quote! {
        /// The OAuth 2.0 flows and OpenID Connect schemes of the spec a client runs itself.
        /// With this crate's feature `oauth2`: `Client::builder(url).client_credentials(id,
        /// secret)` gets, caches and refreshes its own tokens by the first client-credentials
        /// flow, else the first OpenID Connect scheme (`.client_credentials_of(&oauth::<SCHEME>,
        /// ..)` by another); `oauth::<SCHEME>_AUTHORIZATION_CODE.for_client(id, redirect_url)`
        /// gives a PKCE URL to open, then exchanges the code for tokens that
        /// `.token_provider(..)` refreshes; `oauth::<SCHEME>_DEVICE_CODE.for_client(id)` shows
        /// a user code, then polls for the tokens.
        pub mod oauth {
            #(#flows)*
        }
    }
}

/// True when the client declares a flow, and so has the feature `oauth2`.
pub(super) fn has_flows(api: &Api) -> bool {
    api.auth_schemes.iter().any(|scheme| {
        client_credentials_url(scheme).is_some()
            || authorization_code(scheme).is_some()
            || device_code(scheme).is_some()
            || discovery_url(scheme).is_some()
    })
}

/// `.oauth_flows(&[oauth::<SCHEME>, ..])` and `.openid_flows(&[..])` on the runtime builder:
/// the spec's client-credentials flows and OpenID Connect schemes, in its order; nothing for
/// a kind there is none of.
pub(super) fn flows_setter(api: &Api) -> TokenStream {
    let names = |has: fn(&AuthScheme) -> bool| -> Vec<_> {
        api.auth_schemes.iter().filter(|scheme| has(scheme)).map(|scheme| ident(&scheme.rust.to_uppercase())).collect()
    };
    let (flows, openid) = (names(|s| client_credentials_url(s).is_some()), names(|s| discovery_url(s).is_some()));
    let flows = (!flows.is_empty()).then(|| quote! { .oauth_flows(&[#(oauth::#flows),*]) });
    let openid = (!openid.is_empty()).then(|| quote! { .openid_flows(&[#(oauth::#openid),*]) });
    quote! { #flows #openid }
}

/// The scheme `.client_credentials(id, secret)` runs: the first with a client-credentials
/// flow, else the first OpenID Connect scheme (the runtime builder's order).
pub(super) fn first_flow_scheme(api: &Api) -> Option<&str> {
    let first = |has: fn(&AuthScheme) -> bool| api.auth_schemes.iter().find(|scheme| has(scheme));
    first(|s| client_credentials_url(s).is_some())
        .or_else(|| first(|s| discovery_url(s).is_some()))
        .map(|scheme| scheme.name.as_str())
}

/// The discovery URL of an OpenID Connect scheme.
fn discovery_url(scheme: &AuthScheme) -> Option<&str> {
    let SchemeKind::OpenIdConnect { url } = &scheme.kind else { return None };
    Some(url)
}

/// The scheme's device-code flow, if it has one with both its URLs.
fn device_code(scheme: &AuthScheme) -> Option<&OAuthFlow> {
    flow_of(scheme, Grant::DeviceCode)
        .filter(|flow| flow.device_authorization_url.is_some() && flow.token_url.is_some())
}

/// The token URL of the scheme's client-credentials flow, if it has one.
fn client_credentials_url(scheme: &AuthScheme) -> Option<&str> {
    flow_of(scheme, Grant::ClientCredentials)?.token_url.as_deref()
}

/// The scheme's authorization-code flow, if it has one with both its URLs.
fn authorization_code(scheme: &AuthScheme) -> Option<&OAuthFlow> {
    flow_of(scheme, Grant::AuthorizationCode)
        .filter(|flow| flow.authorization_url.is_some() && flow.token_url.is_some())
}

fn flow_of(scheme: &AuthScheme, grant: Grant) -> Option<&OAuthFlow> {
    let SchemeKind::OAuth2 { flows } = &scheme.kind else { return None };
    flows.iter().find(|flow| flow.grant == grant)
}

fn client_credentials_const(api: &Api, scheme: &AuthScheme) -> Option<TokenStream> {
    let token_url = client_credentials_url(scheme)?;
    let name = ident(&scheme.rust.to_uppercase());
    let scopes = required_scopes(api, &scheme.name);
    let doc = doc(&format!("`{}`: tokens from `{token_url}`, asking for {}.", scheme.name, asking(&scopes)));
    let scheme_name = &scheme.name;
    Some(quote! {
        #doc
        pub const #name: ::apigen_runtime::codegen::ClientCredentialsFlow = ::apigen_runtime::codegen::ClientCredentialsFlow {
            scheme: #scheme_name,
            token_url: #token_url,
            scopes: &[#(#scopes),*],
        };
    })
}

/// `oauth::<SCHEME>_AUTHORIZATION_CODE`. It asks for the scopes the operations require of the
/// scheme that this flow declares: a user cannot consent to a scope the authorization server
/// does not offer by this flow (the vault's `admin` is a client-credentials scope only).
fn authorization_code_const(api: &Api, scheme: &AuthScheme) -> Option<TokenStream> {
    let flow = authorization_code(scheme)?;
    let (authorization_url, token_url) = (flow.authorization_url.as_deref()?, flow.token_url.as_deref()?);
    let name = ident(flow.constant.as_deref()?);
    let mut scopes = required_scopes(api, &scheme.name);
    scopes.retain(|scope| flow.scopes.iter().any(|(declared, _)| declared == scope));
    let refresh_url = match flow.refresh_url.as_deref().filter(|url| *url != token_url) {
        Some(url) => quote!(::core::option::Option::Some(#url)),
        None => quote!(::core::option::Option::None),
    };
    let text = format!(
        "`{}`: the user authorizes the client at `{authorization_url}`, the code is exchanged at `{token_url}`{}, asking for {}.",
        scheme.name,
        flow.refresh_url
            .as_deref()
            .filter(|url| *url != token_url)
            .map(|url| format!(", tokens refreshed at `{url}`"))
            .unwrap_or_default(),
        asking(&scopes)
    );
    let doc = doc(&text);
    let scheme_name = &scheme.name;
    Some(quote! {
        #doc
        pub const #name: ::apigen_runtime::codegen::AuthorizationCodeFlow = ::apigen_runtime::codegen::AuthorizationCodeFlow {
            scheme: #scheme_name,
            authorization_url: #authorization_url,
            token_url: #token_url,
            refresh_url: #refresh_url,
            scopes: &[#(#scopes),*],
        };
    })
}

/// `oauth::<SCHEME>` of an OpenID Connect scheme: its discovery URL and every scope the
/// operations require of it (the provider's, which the spec does not declare).
fn openid_connect_const(api: &Api, scheme: &AuthScheme) -> Option<TokenStream> {
    let url = discovery_url(scheme)?;
    let name = ident(&scheme.rust.to_uppercase());
    let scopes = required_scopes(api, &scheme.name);
    let text = format!(
        "`{}`: the OpenID Connect provider whose discovery document is `{url}`, tokens from the endpoints it names, asking for {}.",
        scheme.name,
        asking(&scopes)
    );
    let (doc, scheme_name) = (doc(&text), &scheme.name);
    Some(quote! {
        #doc
        pub const #name: ::apigen_runtime::codegen::OpenIdConnectFlow = ::apigen_runtime::codegen::OpenIdConnectFlow {
            scheme: #scheme_name,
            discovery_url: #url,
            scopes: &[#(#scopes),*],
        };
    })
}

/// `oauth::<SCHEME>_DEVICE_CODE`, asking for the scopes the operations require of the scheme
/// that this flow declares (as the authorization-code flow's).
fn device_code_const(api: &Api, scheme: &AuthScheme) -> Option<TokenStream> {
    let flow = device_code(scheme)?;
    let (device_url, token_url) = (flow.device_authorization_url.as_deref()?, flow.token_url.as_deref()?);
    let name = ident(flow.constant.as_deref()?);
    let mut scopes = required_scopes(api, &scheme.name);
    scopes.retain(|scope| flow.scopes.iter().any(|(declared, _)| declared == scope));
    let text = format!(
        "`{}`: the device asks for a user code at `{device_url}` and polls `{token_url}` for its tokens, asking for {}.",
        scheme.name,
        asking(&scopes)
    );
    let (doc, scheme_name) = (doc(&text), &scheme.name);
    Some(quote! {
        #doc
        pub const #name: ::apigen_runtime::codegen::DeviceCodeFlow = ::apigen_runtime::codegen::DeviceCodeFlow {
            scheme: #scheme_name,
            device_authorization_url: #device_url,
            token_url: #token_url,
            scopes: &[#(#scopes),*],
        };
    })
}

/// What a flow's doc says it asks for.
fn asking(scopes: &[&str]) -> String {
    if scopes.is_empty() {
        return "no scope (no operation requires one)".to_owned();
    }
    let listed: Vec<String> = scopes.iter().map(|s| format!("`{s}`")).collect();
    format!("the scopes the operations require ({})", listed.join(", "))
}

/// Every scope an operation requires of `scheme`, each once, in the spec's order.
fn required_scopes<'a>(api: &'a Api, scheme: &str) -> Vec<&'a str> {
    let mut scopes: Vec<&str> = api
        .operations
        .iter()
        .flat_map(|op| op.auth.alternatives())
        .flatten()
        .filter(|need| need.scheme == scheme)
        .flat_map(|need| need.scopes.iter().map(String::as_str))
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    scopes.retain(|scope| seen.insert(*scope));
    scopes
}
