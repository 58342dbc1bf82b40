//! Security: the document's schemes as `api.auth` declares them ([`Auth`]; OAuth 2.0 flows
//! are [`super::flows`]'), and each operation's requirement as its `auth`, with the scopes it
//! names.

use super::Importer;
use super::gaps::{self, Kind};
use super::params::{is_reserved_header, is_token};
use super::refs;
use crate::model::names::{Case, sanitize};
use indexmap::IndexMap;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

impl Importer<'_> {
    /// Notes gap `http-signer` at each `http` scheme left to the client's signer.
    pub(super) fn note_scheme_gaps(&mut self) {
        let doc = self.doc;
        for pointer in &doc.auth.signed {
            self.built.gaps.note(gaps::SIGNED, pointer);
        }
    }

    /// The auth of an operation, when it differs from the default the spec gets: a scheme's
    /// name, schemes with their scopes, a list of alternatives, or `none`. An alternative
    /// needing several schemes at once needs them all, and one allowing no credential is
    /// dropped (gap `optional-auth`).
    pub(super) fn operation_auth(
        &mut self,
        op: &Map<String, Value>,
        pointer: &str,
        op_gaps: &mut Vec<String>,
    ) -> Option<Value> {
        let doc = self.doc.value;
        let requirement = op.get("security").or_else(|| doc.get("security"));
        let alternatives: Vec<&Map<String, Value>> =
            requirement.and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_object).collect();
        // Without `api.auth` the format's default is a bearer scheme: a public operation says so.
        if requirement.and_then(Value::as_array).is_none_or(Vec::is_empty) {
            return Some(json!("none"));
        }
        // Each requirement object is an alternative; its schemes are carried together.
        let mut kept: Vec<Vec<(String, Vec<String>)>> = Vec::new();
        let mut partial = alternatives.len() < requirement.and_then(Value::as_array).map_or(0, Vec::len);
        for alternative in alternatives {
            let mut known: Vec<(String, Vec<String>)> = Vec::new();
            for (key, scopes) in alternative {
                let Some(name) = spec_name(&self.doc.auth, key) else {
                    let kind = self.doc.auth.other.get(key).copied().unwrap_or(gaps::OPTIONAL_AUTH);
                    op_gaps.push(self.built.gaps.note(kind, pointer));
                    continue;
                };
                let scopes = super::flows::requirement_scopes(scopes);
                match known.iter_mut().find(|(known, _)| *known == name) {
                    // Two document schemes the format holds as one: their scopes together.
                    Some((_, all)) => all.extend(scopes.into_iter().filter(|s| !all.contains(s)).collect::<Vec<_>>()),
                    None => known.push((name, scopes)),
                }
            }
            partial |= alternative.is_empty();
            if !known.is_empty() && !kept.contains(&known) {
                kept.push(known);
            }
        }
        if partial {
            op_gaps.push(self.built.gaps.note(gaps::OPTIONAL_AUTH, pointer));
        }
        let default_scheme = self.doc.auth.schemes.values().next().map(|(n, _)| n.clone());
        requirement_value(kept, default_scheme.as_deref())
    }
}

/// The spec name of the document's scheme `key`, when the format holds it.
fn spec_name(auth: &Auth, key: &str) -> Option<String> {
    auth.schemes.get(key).map(|(name, _)| name.clone()).or_else(|| auth.aliases.get(key).cloned())
}

/// An operation's `auth` from the alternatives kept: `none` when none is, nothing for the
/// default scheme alone, a name, schemes with their scopes (`{vault: [read]}`), or a list
/// of alternatives, each a name, names carried together, or schemes with their scopes.
fn requirement_value(kept: Vec<Vec<(String, Vec<String>)>>, default_scheme: Option<&str>) -> Option<Value> {
    let alternative = |set: Vec<(String, Vec<String>)>| match set.as_slice() {
        [(name, scopes)] if scopes.is_empty() => json!(name),
        _ if set.iter().all(|(_, scopes)| scopes.is_empty()) => {
            json!(set.into_iter().map(|(n, _)| n).collect::<Vec<_>>())
        }
        _ => Value::Object(set.into_iter().map(|(name, scopes)| (name, json!(scopes))).collect()),
    };
    match kept.as_slice() {
        [] => Some(json!("none")),
        [one] if matches!(one.as_slice(), [(name, scopes)] if scopes.is_empty() && Some(name.as_str()) == default_scheme) => {
            None
        }
        // A lone list of names would read as alternatives: the schemes needed together are
        // the list's only alternative (`[[appKey, appToken]]`).
        [_] => kept.into_iter().next().map(alternative).map(|one| if one.is_array() { json!([one]) } else { one }),
        _ => Some(Value::Array(kept.into_iter().map(alternative).collect())),
    }
}

/// The auth schemes the format can hold, by document name, and what each other scheme is.
#[derive(Debug, Default)]
pub struct Auth {
    /// The schemes the format holds (bearer, basic, API keys, OAuth 2.0, OpenID Connect,
    /// `http`): document name -> spec name, with the scheme as `api.auth` declares it.
    pub schemes: IndexMap<String, (String, Map<String, Value>)>,
    /// Other schemes: document name -> the gap kind of why not.
    pub other: BTreeMap<String, Kind>,
    /// Schemes that say what another does: document name -> the spec name of that one.
    pub aliases: BTreeMap<String, String>,
    /// The pointers of the `http` schemes other than bearer and basic, kept as `http` schemes
    /// the client leaves to its signer (gap `http-signer`).
    pub signed: Vec<String>,
}

/// The security schemes: bearer, basic, API keys, OAuth 2.0 with its flows, OpenID Connect
/// with its discovery URL and another `http` auth-scheme (for the client's signer) are kept;
/// others are noted for the operations needing them.
pub(super) fn schemes(doc: &Value) -> Auth {
    let mut auth = Auth::default();
    let Some(schemes) = doc.pointer("/components/securitySchemes").and_then(Value::as_object) else {
        return auth;
    };
    for (key, scheme) in schemes {
        let pointer = refs::child("#/components/securitySchemes", key);
        let Ok((scheme, _)) = refs::follow(doc, scheme, &pointer) else { continue };
        let ty = scheme.get("type").and_then(Value::as_str).unwrap_or_default();
        let http = scheme.get("scheme").and_then(Value::as_str).unwrap_or_default().to_ascii_lowercase();
        let text = |k: &str| scheme.get(k).and_then(Value::as_str).map(str::trim).filter(|t| !t.is_empty());
        let mut node = Map::new();
        match (ty, http.as_str()) {
            ("http", "bearer") => {
                node.insert("type".into(), json!("bearer"));
            }
            ("http", "basic") => {
                node.insert("type".into(), json!("basic"));
            }
            ("oauth2", _) => match super::flows::oauth_node(scheme, &super::flows::required_scopes(doc, key)) {
                Some(oauth) => node = oauth,
                // No usable flow: its tokens still travel as bearer tokens.
                None => {
                    node.insert("type".into(), json!("bearer"));
                }
            },
            ("openIdConnect", _) => match text("openIdConnectUrl") {
                Some(url) => {
                    node.insert("type".into(), json!("openid-connect"));
                    node.insert("url".into(), json!(url));
                }
                None => {
                    node.insert("type".into(), json!("bearer"));
                }
            },
            ("apiKey", _) => {
                let location = text("in").filter(|l| matches!(*l, "header" | "query" | "cookie"));
                // A key in `Authorization` is kept as the opaque value it is (`Basic <base64>`,
                // `OAuth <token>`, a signature or a raw key, whatever the document says): the
                // client sends what the user gives and the server hands it whole to the
                // service's check. Read as a bearer token, it forced `Bearer ` onto every call.
                let name = text("name").filter(|n| {
                    is_token(n)
                        && !(location == Some("header")
                            && is_reserved_header(n)
                            && !n.eq_ignore_ascii_case("authorization"))
                });
                let (Some(location), Some(name)) = (location, name) else {
                    auth.other.insert(key.clone(), gaps::API_KEY);
                    continue;
                };
                node.insert("type".into(), json!("api-key"));
                node.insert("in".into(), json!(location));
                node.insert("name".into(), json!(name));
            }
            // Digest, HOBA, a signature: kept as written, for the user's signer to compute.
            ("http", _) if text("scheme").is_some_and(is_token) => {
                auth.signed.push(pointer.clone());
                node.insert("type".into(), json!("http"));
                node.insert("scheme".into(), json!(text("scheme")));
            }
            _ => {
                auth.other.insert(key.clone(), gaps::BASIC);
                continue;
            }
        }
        if let Some(description) = text("description") {
            node.insert("description".into(), json!(description));
        }
        let name = if key == "none" { "none-scheme".to_owned() } else { key.clone() };
        // Two schemes the same in Rust (`bearerAuth`, `BearerAuth`): the same scheme when
        // they say the same, else the second under another name.
        let rust = |n: &str| sanitize(n, Case::Snake);
        let same = auth.schemes.values().find(|(other, _)| rust(other) == rust(&name)).cloned();
        let name = match same {
            Some((other, other_node)) if other_node == node => other,
            Some(_) => (2..)
                .map(|i| format!("{name}{i}"))
                .find(|n| auth.schemes.values().all(|(o, _)| rust(o) != rust(n)))
                .unwrap_or(name),
            None => name,
        };
        if auth.schemes.values().any(|(other, _)| *other == name) {
            auth.aliases.insert(key.clone(), name);
            continue;
        }
        auth.schemes.insert(key.clone(), (name, node));
    }
    auth
}
