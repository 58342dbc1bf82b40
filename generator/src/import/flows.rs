//! OAuth 2.0 flows: a document's `oauth2` scheme as `api.auth` declares it (`type: oauth2`
//! with its flows, each grant's URLs and its scopes).
//!
//! Decisions where a document says less than the format needs:
//! - a flow without a URL its grant needs (a `clientCredentials` flow without `tokenUrl`), or
//!   under a key that is no grant, is left out, and a URL its grant has no use for is dropped;
//!   a scheme left without a flow is kept as a `bearer` scheme (its tokens travel the same
//!   way; the scopes operations require of it are kept, as roles);
//! - a scope an operation requires that no flow declares is declared in the first flow,
//!   without a description (the server enforces what the document requires);
//! - a scope that is no RFC 6749 `scope-token` (a space, a quote) is left out everywhere: no
//!   token could carry it.

use crate::model::{Grant, is_scope_token};
use serde_json::{Map, Value, json};

/// The `oauth2` scheme `scheme` as `api.auth` declares it, with the
/// scopes `required` by the document's requirements declared; `None` when no flow is usable.
pub(super) fn oauth_node(scheme: &Value, required: &[String]) -> Option<Map<String, Value>> {
    let flows = scheme.get("flows").and_then(Value::as_object)?;
    let mut kept = Map::new();
    for (key, flow) in flows {
        let (Some(grant), Some(flow)) = (Grant::from_openapi(key), flow.as_object()) else { continue };
        if let Some(node) = flow_node(grant, flow) {
            kept.entry(grant.spec_name()).or_insert(Value::Object(node));
        }
    }
    let first = kept.values_mut().next()?;
    if let Some(scopes) = first.get_mut("scopes").and_then(Value::as_object_mut) {
        for scope in required {
            scopes.entry(scope.clone()).or_insert_with(|| json!(""));
        }
    }
    let mut node = Map::new();
    node.insert("type".into(), json!("oauth2"));
    node.insert("flows".into(), Value::Object(kept));
    Some(node)
}

/// One flow: the URLs its grant has, each present, and its scopes; `None` when a URL is
/// missing.
fn flow_node(grant: Grant, flow: &Map<String, Value>) -> Option<Map<String, Value>> {
    let (authorization, device, token) = grant.urls();
    let urls = [
        ("authorizationUrl", "authorization_url", authorization),
        ("deviceAuthorizationUrl", "device_authorization_url", device),
        ("tokenUrl", "token_url", token),
        ("refreshUrl", "refresh_url", false),
    ];
    let mut node = Map::new();
    for (key, spec_key, needed) in urls {
        let url = flow.get(key).and_then(Value::as_str).map(str::trim).filter(|url| !url.is_empty());
        match url {
            Some(url) if needed || key == "refreshUrl" => {
                node.insert(spec_key.into(), json!(url));
            }
            None if needed => return None,
            _ => {}
        }
    }
    let scopes = flow.get("scopes").and_then(Value::as_object).into_iter().flatten();
    let scopes: Map<String, Value> = scopes
        .filter(|(scope, _)| is_scope_token(scope))
        .map(|(scope, what)| (scope.clone(), json!(what.as_str().map(str::trim).unwrap_or_default())))
        .collect();
    node.insert("scopes".into(), Value::Object(scopes));
    Some(node)
}

/// Every scope a requirement of `doc` (the root's or an operation's) names for the scheme
/// `key`, each once, in the document's order; only scope-tokens.
pub(super) fn required_scopes(doc: &Value, key: &str) -> Vec<String> {
    let operations = doc.get("paths").and_then(Value::as_object).into_iter().flat_map(|paths| paths.values());
    let operations = operations.filter_map(Value::as_object).flat_map(|item| item.values());
    let requirements = std::iter::once(doc).chain(operations).filter_map(|node| node.get("security"));
    let mut scopes: Vec<String> = Vec::new();
    let named = requirements.filter_map(Value::as_array).flatten().filter_map(|object| object.get(key));
    for scope in named.filter_map(Value::as_array).flatten().filter_map(Value::as_str) {
        if is_scope_token(scope) && !scopes.iter().any(|known| known == scope) {
            scopes.push(scope.to_owned());
        }
    }
    scopes
}

/// The scopes a requirement object names for one scheme: its scope-tokens, each once.
pub(super) fn requirement_scopes(value: &Value) -> Vec<String> {
    let mut scopes: Vec<String> = Vec::new();
    for scope in value.as_array().into_iter().flatten().filter_map(Value::as_str) {
        if is_scope_token(scope) && !scopes.iter().any(|known| known == scope) {
            scopes.push(scope.to_owned());
        }
    }
    scopes
}
