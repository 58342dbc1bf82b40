//! Auth: the schemes a spec declares and what each operation requires.
//!
//! `api.auth` names schemes; an operation's `auth:` picks one by name, or `none` for a public
//! operation, and defaults to the first. A spec without `api.auth` has one scheme, `bearer`.
//! Only `bearer` is implemented by the generated server and client; `api-key` (a key in a
//! header or the query) is part of the format so specs can say it, and is refused with a
//! hint until the runtime supports it.

use crate::diag::{Diagnostics, Location};
use crate::load::raw::RawAuthScheme;
use crate::model::{Auth, AuthScheme};
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
        return vec![AuthScheme { name: "bearer".into(), description: None }];
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
        match scheme.ty.as_str() {
            "bearer" => {
                for (key, value) in [("in", &scheme.location), ("name", &scheme.name)] {
                    if value.is_some() {
                        diags
                            .error(at(&[name, key]), format!("`{key}` belongs to `api-key` schemes"))
                            .hint("a bearer token always travels in `Authorization: Bearer <token>`");
                    }
                }
                schemes.push(AuthScheme { name: name.clone(), description: scheme.description.clone() });
            }
            "api-key" => {
                diags
                    .error(at(&[name, "type"]), "`api-key` schemes are not implemented by the generated code yet")
                    .hint("use `type: bearer`; a key in a header or the query is planned");
            }
            other => {
                diags
                    .error(at(&[name, "type"]), format!("`{other}` is not an auth scheme type"))
                    .hint("use `bearer` (or `api-key`, reserved)");
            }
        }
    }
    schemes
}

/// What an operation requires, from its `auth:`; `None` after reporting an unknown name.
pub fn resolve(
    raw: Option<&str>,
    schemes: &[AuthScheme],
    at: impl FnOnce() -> Location,
    diags: &mut Diagnostics,
) -> Option<Auth> {
    let bearer = |scheme: &AuthScheme| Auth::Bearer { scheme: scheme.name.clone() };
    match raw {
        None => Some(schemes.first().map_or(Auth::None, bearer)),
        Some(PUBLIC) => Some(Auth::None),
        Some(name) => match schemes.iter().find(|s| s.name == name) {
            Some(scheme) => Some(bearer(scheme)),
            None => {
                let known: Vec<&str> = schemes.iter().map(|s| s.name.as_str()).chain(std::iter::once(PUBLIC)).collect();
                diags
                    .error(at(), format!("`{name}` is not an auth scheme of `api.auth`"))
                    .hint(format!("use one of: {}", known.join(", ")));
                None
            }
        },
    }
}
