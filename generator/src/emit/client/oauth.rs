//! `oauth`: each OAuth 2.0 client-credentials flow of the spec as a constant of the client's
//! root (`oauth::<SCHEME>`), which `ClientBuilder::client_credentials` reads (the client
//! crate's feature `oauth2`, the runtime's): where the token comes from and the scopes the
//! operations require. The token requests, cache and refresh are the runtime's.

use super::super::rust::{doc, ident};
use crate::model::{Api, AuthScheme, Grant, SchemeKind};
use proc_macro2::TokenStream;
use quote::quote;

/// The `oauth` module, or nothing when no scheme has a client-credentials flow.
pub(super) fn oauth_module(api: &Api) -> TokenStream {
    let flows: Vec<TokenStream> = api.auth_schemes.iter().filter_map(|scheme| flow_const(api, scheme)).collect();
    if flows.is_empty() {
        return TokenStream::new();
    }
    quote! {
        /// The OAuth 2.0 client-credentials flows of the spec's schemes: with this crate's
        /// feature `oauth2`, `Client::builder(url).client_credentials(&oauth::<SCHEME>, id,
        /// secret).build()` gets, caches and refreshes its own tokens.
        pub mod oauth {
            #(#flows)*
        }
    }
}

/// True when the client declares a flow, and so has the feature `oauth2`.
pub(super) fn has_flows(api: &Api) -> bool {
    api.auth_schemes.iter().any(|scheme| client_credentials_url(scheme).is_some())
}

/// The token URL of the scheme's client-credentials flow, if it has one.
fn client_credentials_url(scheme: &AuthScheme) -> Option<&str> {
    let SchemeKind::OAuth2 { flows } = &scheme.kind else { return None };
    flows.iter().find(|flow| flow.grant == Grant::ClientCredentials)?.token_url.as_deref()
}

fn flow_const(api: &Api, scheme: &AuthScheme) -> Option<TokenStream> {
    let token_url = client_credentials_url(scheme)?;
    let name = ident(&scheme.rust.to_uppercase());
    let scopes = required_scopes(api, &scheme.name);
    let asks = if scopes.is_empty() {
        "no scope (no operation requires one)".to_owned()
    } else {
        format!(
            "the scopes the operations require ({})",
            scopes.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
        )
    };
    let doc = doc(&format!("`{}`: tokens from `{token_url}`, asking for {asks}.", scheme.name));
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
