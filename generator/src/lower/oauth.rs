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
use crate::model::{AuthScheme, Grant, Need, OAuthFlow, is_scope_token};
use indexmap::IndexMap;

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
