//! OAuth 2.0 and scopes: the flows of an `oauth2` scheme (each grant with the URLs it needs
//! and the scopes a token may carry), and the scopes an operation's requirement names.
//!
//! Scopes an operation requires of an `oauth2` scheme must be declared by one of its flows.
//! Any other scheme may require names the spec does not declare, as OpenAPI 3.1 allows:
//! roles for bearer, basic and API-key schemes, and an OpenID Connect provider's scopes (its
//! discovery document lists them). Every scope is an RFC 6749 `scope-token` (printable ASCII
//! but space, `"` and `\`), so it travels in a `WWW-Authenticate` challenge as it is.

use crate::diag::{Diagnostics, Location, suggest};
use crate::load::raw::{RawFlow, RawNeed};
use crate::model::{AuthScheme, Grant, Need, OAuthFlow, SchemeKind, is_scope_token};
use indexmap::IndexMap;
use std::collections::BTreeSet;

/// The flows of an `oauth2` scheme, each checked; `at` locates a key below the scheme.
pub fn lower_flows(
    raw: Option<&IndexMap<String, RawFlow>>,
    at: &impl Fn(&[&str]) -> Location,
    diags: &mut Diagnostics,
) -> Option<Vec<OAuthFlow>> {
    let Some(raw) = raw.filter(|flows| !flows.is_empty()) else {
        diags.error(at(&["type"]), "an `oauth2` scheme needs `flows`").hint(
            "say how a client gets a token: `flows: { client_credentials: { token_url: https://.., scopes: { read: Read } } }`",
        );
        return None;
    };
    let mut flows = Vec::new();
    let mut valid = true;
    for (key, flow) in raw {
        let Some(grant) = Grant::ALL.into_iter().find(|grant| grant.spec_name() == key) else {
            let hint = suggest(key, Grant::ALL.iter().map(|grant| grant.spec_name())).unwrap_or_else(|| {
                let all: Vec<&str> = Grant::ALL.iter().map(|grant| grant.spec_name()).collect();
                format!("use one of: {}", all.join(", "))
            });
            diags.error(at(&["flows", key]), format!("`{key}` is not an OAuth 2.0 grant")).hint(hint);
            valid = false;
            continue;
        };
        let flow_at = at(&["flows", key]);
        let at = |field: &str| at(&["flows", key, field]);
        valid &= check_urls(grant, flow, (&flow_at, &at), diags);
        for scope in flow.scopes.keys().filter(|scope| !is_scope_token(scope)) {
            diags.error(at("scopes"), format!("`{scope}` cannot be a scope")).hint(SCOPE_TOKEN);
            valid = false;
        }
        flows.push(OAuthFlow {
            grant,
            authorization_url: flow.authorization_url.clone(),
            device_authorization_url: flow.device_authorization_url.clone(),
            token_url: flow.token_url.clone(),
            refresh_url: flow.refresh_url.clone(),
            scopes: flow.scopes.iter().map(|(scope, what)| (scope.clone(), what.trim().to_owned())).collect(),
            constant: None,
        });
    }
    valid.then_some(flows)
}

const SCOPE_TOKEN: &str = "a scope is printable ASCII without spaces, `\"` or `\\` (RFC 6749 `scope-token`)";

/// Whether the flow has each URL its grant needs and none it cannot use (RFC 6749, RFC 8628).
fn check_urls(
    grant: Grant,
    flow: &RawFlow,
    (flow_at, at): (&Location, &impl Fn(&str) -> Location),
    diags: &mut Diagnostics,
) -> bool {
    let (authorization, device, token) = grant.urls();
    let mut valid = true;
    let urls = [
        ("authorization_url", &flow.authorization_url, authorization),
        ("device_authorization_url", &flow.device_authorization_url, device),
        ("token_url", &flow.token_url, token),
    ];
    for (key, url, needed) in urls {
        let grant = grant.spec_name();
        match (url.as_deref().map(str::trim), needed) {
            (None | Some(""), true) => {
                diags.error(flow_at.clone(), format!("the `{grant}` flow needs `{key}`")).hint("give the URL");
                valid = false;
            }
            (Some(_), false) => {
                diags.error(at(key), format!("the `{grant}` flow has no `{key}`")).hint("remove it");
                valid = false;
            }
            _ => {}
        }
    }
    valid
}

/// One alternative's schemes with their scopes, checked: each scope a scope-token, named once,
/// and declared by its scheme when the scheme declares scopes (`oauth2`). Lowering has
/// checked that each scheme exists.
pub fn resolve_needs(
    set: &[RawNeed],
    schemes: &[AuthScheme],
    at: &impl Fn() -> Location,
    diags: &mut Diagnostics,
) -> Option<Vec<Need>> {
    let mut valid = true;
    for need in set {
        let declared = schemes.iter().find(|s| s.name == need.scheme).and_then(|s| s.kind.declared_scopes());
        for (i, scope) in need.scopes.iter().enumerate() {
            if !is_scope_token(scope) {
                diags.error(at(), format!("`{scope}` cannot be a scope")).hint(SCOPE_TOKEN);
            } else if need.scopes[..i].contains(scope) {
                diags.error(at(), format!("`auth` lists the scope `{scope}` twice")).hint("list each scope once");
            } else if let Some(declared) = declared.as_ref().filter(|declared| !declared.contains(&scope.as_str())) {
                let hint = suggest(scope, declared.iter().copied()).unwrap_or_else(|| {
                    format!(
                        "declare it in a flow's `scopes` of `api.auth.{}`, or use one of: {}",
                        need.scheme,
                        declared.join(", ")
                    )
                });
                diags.error(at(), format!("`{}` declares no scope `{scope}`", need.scheme)).hint(hint);
            } else {
                continue;
            }
            valid = false;
        }
    }
    valid.then(|| set.iter().map(|need| Need { scheme: need.scheme.clone(), scopes: need.scopes.clone() }).collect())
}

/// Names the client's `oauth::` constant of each flow a client runs, each name once. A
/// scheme's own name (`oauth::VAULT`: its client-credentials flow, or its OpenID Connect
/// provider) is claimed first for every scheme, so that a scheme named `x_device_code` keeps
/// `X_DEVICE_CODE`; a flow's name (`<SCHEME>_AUTHORIZATION_CODE`, `<SCHEME>_DEVICE_CODE`)
/// taken already gains a `_` until it is free (`X_DEVICE_CODE_`), in the spec's order.
pub fn claim_flow_constants(schemes: &mut [AuthScheme]) {
    let mut taken: BTreeSet<String> = schemes.iter().map(|scheme| scheme.rust.to_uppercase()).collect();
    for scheme in schemes {
        let base = scheme.rust.to_uppercase();
        let SchemeKind::OAuth2 { flows } = &mut scheme.kind else { continue };
        for flow in flows {
            flow.constant = match flow.grant {
                Grant::ClientCredentials => Some(base.clone()),
                Grant::AuthorizationCode => Some(claim(&mut taken, format!("{base}_AUTHORIZATION_CODE"))),
                Grant::DeviceCode => Some(claim(&mut taken, format!("{base}_DEVICE_CODE"))),
                Grant::Password | Grant::Implicit => None,
            };
        }
    }
}

/// `wanted`, or it with `_` added until no other constant has the name; then taken.
fn claim(taken: &mut BTreeSet<String>, mut wanted: String) -> String {
    while taken.contains(&wanted) {
        wanted.push('_');
    }
    taken.insert(wanted.clone());
    wanted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Location;

    fn scheme(rust: &str, grants: &[Grant]) -> AuthScheme {
        let flows = grants
            .iter()
            .map(|&grant| OAuthFlow {
                grant,
                authorization_url: None,
                device_authorization_url: None,
                token_url: None,
                refresh_url: None,
                scopes: Vec::new(),
                constant: None,
            })
            .collect();
        AuthScheme {
            name: rust.to_owned(),
            rust: rust.to_owned(),
            description: None,
            kind: SchemeKind::OAuth2 { flows },
            origin: Location::file("api.yaml"),
        }
    }

    fn constants(scheme: &AuthScheme) -> Vec<Option<&str>> {
        let SchemeKind::OAuth2 { flows } = &scheme.kind else { unreachable!() };
        flows.iter().map(|flow| flow.constant.as_deref()).collect()
    }

    #[test]
    fn a_flows_constant_named_by_another_scheme_gains_an_underscore() {
        let (code, device) = (Grant::AuthorizationCode, Grant::DeviceCode);
        let mut schemes = [
            scheme("x", &[Grant::ClientCredentials, code, device, Grant::Implicit]),
            scheme("x_authorization_code", &[Grant::ClientCredentials, code]),
            scheme("x_device_code", &[device]),
        ];
        claim_flow_constants(&mut schemes);
        assert_eq!(constants(&schemes[0]), [Some("X"), Some("X_AUTHORIZATION_CODE_"), Some("X_DEVICE_CODE_"), None]);
        assert_eq!(
            constants(&schemes[1]),
            [Some("X_AUTHORIZATION_CODE"), Some("X_AUTHORIZATION_CODE_AUTHORIZATION_CODE")]
        );
        assert_eq!(constants(&schemes[2]), [Some("X_DEVICE_CODE_DEVICE_CODE")]);
    }
}
