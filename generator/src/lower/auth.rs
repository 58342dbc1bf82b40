//! Auth: the schemes a spec declares and what each operation requires.
//!
//! `api.auth` names schemes: `bearer` (`Authorization: Bearer <token>`), `basic`
//! (`Authorization: Basic ..`), `api-key` (a key in a header, the query or a cookie, under
//! `name`), `http` (`Authorization: <scheme> ..`, left to the client's signer), `oauth2` (its
//! `flows`, see [`super::oauth`]) and `openid-connect` (its discovery `url`). An operation's
//! `auth:` picks one by name, one with scopes (`{oauth: [write]}`), a list of alternatives
//! (the request carries any one), or `none` for a public operation, and defaults to the first
//! scheme. A spec without `api.auth` has one bearer scheme, named `bearer`.

use crate::diag::{Diagnostics, Location};
use crate::load::raw::{RawAuth, RawAuthScheme, RawNeed};
use crate::model::names::{Case, sanitize};
use crate::model::{Auth, AuthScheme, Need, ParamIn, SchemeKind};
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
        let below = |keys: &[&str]| at(&[&[name.as_str()], keys].concat());
        let at = |key: &str| at(&[name, key]);
        misplaced_keys(scheme, &at, diags);
        let kind = match scheme.ty.as_str() {
            "oauth2" => super::oauth::lower_flows(scheme.flows.as_ref(), &below, diags)
                .map(|flows| SchemeKind::OAuth2 { flows }),
            _ => scheme_kind(scheme, &at, diags),
        };
        let Some(kind) = kind else { continue };
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
    super::oauth::claim_flow_constants(&mut schemes);
    schemes
}

/// The keys of one type of scheme on a scheme of another (`flows` on an `api-key`, `scheme`
/// on anything but `http`).
fn misplaced_keys(scheme: &RawAuthScheme, at: &impl Fn(&str) -> Location, diags: &mut Diagnostics) {
    let owned = [
        ("in", scheme.location.is_some(), "api-key"),
        ("name", scheme.name.is_some(), "api-key"),
        ("flows", scheme.flows.is_some(), "oauth2"),
        ("url", scheme.url.is_some(), "openid-connect"),
    ];
    for (key, _, owner) in owned.iter().filter(|(_, set, owner)| *set && *owner != scheme.ty) {
        // An `api-key`'s keys on a bearer, basic or http scheme have a hint of their own below.
        if *owner != "api-key" || !matches!(scheme.ty.as_str(), "bearer" | "basic" | "http") {
            diags
                .error(at(key), format!("`{key}` belongs to `{owner}` schemes"))
                .hint(format!("remove it, or make the scheme `type: {owner}`"));
        }
    }
    if scheme.ty != "http" && scheme.scheme.is_some() {
        diags
            .error(at("scheme"), "`scheme` belongs to `http` schemes")
            .hint("an `http` scheme names the auth-scheme `Authorization` starts with (`scheme: Digest`)");
    }
}

/// What a scheme's `type`, `in`, `name` and `url` say, checked together (an `oauth2`
/// scheme's flows are [`super::oauth`]'s).
fn scheme_kind(scheme: &RawAuthScheme, at: &impl Fn(&str) -> Location, diags: &mut Diagnostics) -> Option<SchemeKind> {
    let api_key_only = |diags: &mut Diagnostics, why: &str| {
        for (key, value) in [("in", &scheme.location), ("name", &scheme.name)] {
            if value.is_some() {
                diags.error(at(key), format!("`{key}` belongs to `api-key` schemes")).hint(why.to_owned());
            }
        }
    };
    match scheme.ty.as_str() {
        "openid-connect" => match scheme.url.as_deref().map(str::trim) {
            Some(url) if !url.is_empty() => Some(SchemeKind::OpenIdConnect { url: url.to_owned() }),
            _ => {
                diags
                    .error(at("type"), "an `openid-connect` scheme needs `url`")
                    .hint("give its discovery document (`https://../.well-known/openid-configuration`)");
                None
            }
        },
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
                .hint("use `bearer`, `basic`, `api-key`, `http`, `oauth2` or `openid-connect`");
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
    at: impl Fn() -> Location,
    diags: &mut Diagnostics,
) -> Option<Auth> {
    let Some(RawAuth(alternatives)) = raw else {
        let first = schemes.first().map(|s| Need { scheme: s.name.clone(), scopes: Vec::new() });
        return Some(first.map_or(Auth::None, |need| Auth::Any(vec![vec![need]])));
    };
    let names: Vec<&String> = alternatives.iter().flatten().map(|need| &need.scheme).collect();
    let public = |set: &[RawNeed]| matches!(set, [only] if only.scheme == PUBLIC && only.scopes.is_empty());
    match alternatives.as_slice() {
        [] => {
            diags
                .error(at(), "`auth` lists no scheme")
                .hint(format!("name a scheme, or `{PUBLIC}` for a public operation"));
            None
        }
        [only] if public(only) => Some(Auth::None),
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
        _ => resolve_alternatives(alternatives, &names, schemes, &at, diags),
    }
}

/// Alternatives naming schemes (none `none`, none empty), checked: each scheme declared and
/// listed once in its alternative, each alternative once, each scope declared.
fn resolve_alternatives(
    alternatives: &[Vec<RawNeed>],
    names: &[&String],
    schemes: &[AuthScheme],
    at: &impl Fn() -> Location,
    diags: &mut Diagnostics,
) -> Option<Auth> {
    let unknown = names.iter().find(|n| !schemes.iter().any(|s| &&s.name == *n));
    let repeated_in_set = alternatives
        .iter()
        .find_map(|set| set.iter().enumerate().find(|(i, n)| set[..*i].iter().any(|m| m.scheme == n.scheme)));
    let repeated_set = alternatives.iter().enumerate().find(|(i, set)| alternatives[..*i].contains(set));
    if let Some(name) = unknown {
        let known: Vec<&str> = schemes.iter().map(|s| s.name.as_str()).chain(std::iter::once(PUBLIC)).collect();
        diags
            .error(at(), format!("`{name}` is not an auth scheme of `api.auth`"))
            .hint(format!("use one of: {}", known.join(", ")));
        None
    } else if let Some((_, need)) = repeated_in_set {
        diags
            .error(at(), format!("`auth` lists `{}` twice in one alternative", need.scheme))
            .hint("list each scheme once");
        None
    } else if let Some((_, set)) = repeated_set {
        let words: Vec<&str> = set.iter().map(|need| need.scheme.as_str()).collect();
        diags
            .error(at(), format!("`auth` lists the alternative {} twice", words.join(" and ")))
            .hint("list each alternative once");
        None
    } else {
        let resolved: Vec<Option<Vec<Need>>> =
            alternatives.iter().map(|set| super::oauth::resolve_needs(set, schemes, at, diags)).collect();
        resolved.into_iter().collect::<Option<Vec<_>>>().map(Auth::Any)
    }
}
