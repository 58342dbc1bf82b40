//! Auth: the schemes a spec declares and what each operation requires.
//!
//! `api.auth` names schemes: `bearer` (`Authorization: Bearer <token>`), `basic`
//! (`Authorization: Basic ..`) and `api-key` (a key in a header, the query or a cookie, under
//! `name`). An operation's `auth:` picks one by name, a list of alternatives (the request
//! carries any one), or `none` for a public operation, and defaults to the first scheme. A
//! spec without `api.auth` has one bearer scheme, named `bearer`.

use crate::diag::{Diagnostics, Location};
use crate::load::raw::{RawAuth, RawAuthScheme};
use crate::model::names::{Case, sanitize};
use crate::model::{Auth, AuthScheme, ParamIn, SchemeKind};
use indexmap::IndexMap;

/// The name an operation's `auth:` uses for a public operation.
pub const PUBLIC: &str = "none";

/// The schemes of `api.auth`, each checked; `at` locates a key below `api.auth`.
pub fn lower_schemes(
    raw: Option<&IndexMap<String, RawAuthScheme>>,
    at: impl Fn(&[&str]) -> Location,
    diags: &mut Diagnostics,
) -> Vec<AuthScheme> {
    let Some(raw) = raw else {
        return vec![AuthScheme {
            name: "bearer".into(),
            rust: "bearer".into(),
            description: None,
            kind: SchemeKind::Bearer,
            origin: at(&[]),
        }];
    };
    if raw.is_empty() {
        diags
            .error(at(&[]), "`auth` declares no scheme")
            .hint("declare one (`bearer: { type: bearer }`), or remove `auth` for the default bearer scheme");
    }
    let mut schemes = Vec::new();
    for (name, scheme) in raw {
        if name == PUBLIC {
            diags
                .error(at(&[name]), format!("`{PUBLIC}` names public operations and cannot name a scheme"))
                .hint("rename the scheme");
            continue;
        }
        let at = |key: &str| at(&[name, key]);
        let Some(kind) = scheme_kind(scheme, &at, diags) else { continue };
        let rust = sanitize(name, Case::Snake);
        if let Some(other) = schemes.iter().find(|s: &&AuthScheme| s.rust == rust) {
            diags
                .error(at("type"), format!("schemes `{}` and `{name}` have one Rust name, `{rust}`", other.name))
                .hint("rename one");
            continue;
        }
        let origin = at("type");
        schemes.push(AuthScheme { name: name.clone(), rust, description: scheme.description.clone(), kind, origin });
    }
    schemes
}

/// What a scheme's `type`, `in` and `name` say, checked together.
fn scheme_kind(scheme: &RawAuthScheme, at: &impl Fn(&str) -> Location, diags: &mut Diagnostics) -> Option<SchemeKind> {
    let api_key_only = |diags: &mut Diagnostics, why: &str| {
        for (key, value) in [("in", &scheme.location), ("name", &scheme.name)] {
            if value.is_some() {
                diags.error(at(key), format!("`{key}` belongs to `api-key` schemes")).hint(why.to_owned());
            }
        }
    };
    if scheme.ty != "http" && scheme.scheme.is_some() {
        diags
            .error(at("scheme"), "`scheme` belongs to `http` schemes")
            .hint("an `http` scheme names the auth-scheme `Authorization` starts with (`scheme: Digest`)");
    }
    match scheme.ty.as_str() {
        "bearer" => {
            api_key_only(diags, "a bearer token always travels in `Authorization: Bearer <token>`");
            Some(SchemeKind::Bearer)
        }
        "basic" => {
            api_key_only(diags, "basic credentials always travel in `Authorization: Basic <credentials>`");
            Some(SchemeKind::Basic)
        }
        "api-key" => {
            let location = match scheme.location.as_deref() {
                Some("header") => Some(ParamIn::Header),
                Some("query") => Some(ParamIn::Query),
                Some("cookie") => Some(ParamIn::Cookie),
                other => {
                    let found = other.map_or("nothing".to_owned(), |o| format!("`{o}`"));
                    diags
                        .error(at("in"), format!("an `api-key` travels in {found}"))
                        .hint("set `in:` to `header`, `query` or `cookie`");
                    None
                }
            };
            let name = match &scheme.name {
                Some(name) if is_token(name) => Some(name.clone()),
                Some(name) => {
                    diags
                        .error(at("name"), format!("`{name}` cannot name a header, query parameter or cookie"))
                        .hint("use an HTTP token: letters, digits and `!#$%&'*+-.^_`|~`");
                    None
                }
                None => {
                    diags
                        .error(at("type"), "an `api-key` scheme needs `name`")
                        .hint("name the header, query parameter or cookie the key travels in (`name: X-API-Key`)");
                    None
                }
            };
            Some(SchemeKind::ApiKey { location: location?, name: name? })
        }
        "http" => {
            api_key_only(diags, "an `http` scheme travels in `Authorization: <scheme> <credentials>`");
            http_scheme(scheme.scheme.as_deref(), at, diags)
        }
        other => {
            diags
                .error(at("type"), format!("`{other}` is not an auth scheme type"))
                .hint("use `bearer`, `basic`, `api-key` or `http`");
            None
        }
    }
}

/// An `http` scheme's auth-scheme: a token, neither `bearer` nor `basic` (their own types).
fn http_scheme(scheme: Option<&str>, at: &impl Fn(&str) -> Location, diags: &mut Diagnostics) -> Option<SchemeKind> {
    match scheme {
        None => {
            diags
                .error(at("type"), "an `http` scheme needs `scheme`")
                .hint("name the auth-scheme `Authorization` starts with (`scheme: Digest`)");
            None
        }
        Some(own @ ("bearer" | "basic" | "Bearer" | "Basic" | "BEARER" | "BASIC")) => {
            let ty = own.to_ascii_lowercase();
            diags
                .error(at("scheme"), format!("an `http` scheme `{own}` is a `{ty}` scheme"))
                .hint(format!("write `type: {ty}`: the generated client and server present and read it themselves"));
            None
        }
        Some(other) if !is_token(other) => {
            diags
                .error(at("scheme"), format!("`{other}` is not an auth-scheme"))
                .hint("an auth-scheme is an HTTP token: letters, digits and `!#$%&'*+-.^_`|~`");
            None
        }
        Some(other) => Some(SchemeKind::Http { scheme: other.to_owned() }),
    }
}

/// An HTTP token (RFC 9110 `tchar`s).
fn is_token(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// What an operation requires, from its `auth:`; `None` after reporting a problem.
pub fn resolve(
    raw: Option<&RawAuth>,
    schemes: &[AuthScheme],
    at: impl FnOnce() -> Location,
    diags: &mut Diagnostics,
) -> Option<Auth> {
    let Some(RawAuth(alternatives)) = raw else {
        return Some(schemes.first().map_or(Auth::None, |s| Auth::Any(vec![vec![s.name.clone()]])));
    };
    let names: Vec<&String> = alternatives.iter().flatten().collect();
    match alternatives.as_slice() {
        [] => {
            diags
                .error(at(), "`auth` lists no scheme")
                .hint(format!("name a scheme, or `{PUBLIC}` for a public operation"));
            None
        }
        [only] if only.len() == 1 && only[0] == PUBLIC => Some(Auth::None),
        _ if names.iter().any(|n| *n == PUBLIC) => {
            diags
                .error(at(), format!("`{PUBLIC}` cannot be one of several alternatives"))
                .hint("an operation is public, or needs the credentials of one of its schemes");
            None
        }
        _ if alternatives.iter().any(Vec::is_empty) => {
            diags
                .error(at(), "an alternative of `auth` lists no scheme")
                .hint("list the schemes a request carries together");
            None
        }
        _ => {
            let unknown = names.iter().find(|n| !schemes.iter().any(|s| &&s.name == *n));
            let repeated_in_set =
                alternatives.iter().find_map(|set| set.iter().enumerate().find(|(i, n)| set[..*i].contains(n)));
            let repeated_set = alternatives.iter().enumerate().find(|(i, set)| alternatives[..*i].contains(set));
            if let Some(name) = unknown {
                let known: Vec<&str> = schemes.iter().map(|s| s.name.as_str()).chain(std::iter::once(PUBLIC)).collect();
                diags
                    .error(at(), format!("`{name}` is not an auth scheme of `api.auth`"))
                    .hint(format!("use one of: {}", known.join(", ")));
                None
            } else if let Some((_, name)) = repeated_in_set {
                diags
                    .error(at(), format!("`auth` lists `{name}` twice in one alternative"))
                    .hint("list each scheme once");
                None
            } else if let Some((_, set)) = repeated_set {
                diags
                    .error(at(), format!("`auth` lists the alternative {} twice", set.join(" and ")))
                    .hint("list each alternative once");
                None
            } else {
                Some(Auth::Any(alternatives.clone()))
            }
        }
    }
}
