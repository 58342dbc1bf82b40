//! Security: the document's schemes as `api.auth` declares them ([`Auth`]), and each
//! operation's requirement as its `auth`.

use super::Importer;
use super::gaps::{self, Kind};
use super::params::{is_reserved_header, is_token};
use super::refs;
use crate::model::names::{Case, sanitize};
use indexmap::IndexMap;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

impl Importer<'_> {
    /// Notes gap `oauth` at each OAuth 2 or OpenID Connect scheme (kept as a bearer scheme),
    /// and `http-signer` at each `http` scheme left to the client's signer.
    pub(super) fn note_scheme_gaps(&mut self) {
        let doc = self.doc;
        for pointer in &doc.auth.oauth {
            self.built.gaps.note(gaps::OAUTH, pointer);
        }
        for pointer in &doc.auth.signed {
            self.built.gaps.note(gaps::SIGNED, pointer);
        }
    }

    /// The auth of an operation, when it differs from the default the spec gets: a scheme's
    /// name, a list of alternatives, or `none`. An alternative needing several schemes at
    /// once keeps its first, and one allowing no credential is dropped (gap `optional-auth`).
    pub(super) fn operation_auth(
        &mut self,
        op: &Map<String, Value>,
        pointer: &str,
        op_gaps: &mut Vec<String>,
    ) -> Option<Value> {
        let doc = self.doc.value;
        let requirement = op.get("security").or_else(|| doc.get("security"));
        let alternatives: Vec<Vec<String>> = requirement
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .map(|alt| alt.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default())
                    .collect()
            })
            .unwrap_or_default();
        let default_scheme = self.doc.auth.schemes.values().next().map(|(n, _)| n.clone());
        // Without `api.auth` the format's default is a bearer scheme: a public operation says so.
        if alternatives.is_empty() {
            return Some(json!("none"));
        }
        // Each requirement object is an alternative; its schemes are carried together.
        let mut kept: Vec<Vec<String>> = Vec::new();
        let mut partial = false;
        let spec_name = |auth: &Auth, key: &str| {
            auth.schemes.get(key).map(|(name, _)| name.clone()).or_else(|| auth.aliases.get(key).cloned())
        };
        for alternative in &alternatives {
            let mut known: Vec<String> = Vec::new();
            for name in alternative.iter().filter_map(|s| spec_name(&self.doc.auth, s)) {
                if !known.contains(&name) {
                    known.push(name);
                }
            }
            partial |= alternative.is_empty();
            for unknown in alternative.iter().filter(|s| spec_name(&self.doc.auth, s).is_none()) {
                let kind = self.doc.auth.other.get(unknown).copied().unwrap_or(gaps::OPTIONAL_AUTH);
                op_gaps.push(self.built.gaps.note(kind, pointer));
            }
            if !known.is_empty() && !kept.contains(&known) {
                kept.push(known);
            }
        }
        if partial {
            op_gaps.push(self.built.gaps.note(gaps::OPTIONAL_AUTH, pointer));
        }
        match kept.as_slice() {
            [] => Some(json!("none")),
            [one] if one.len() == 1 && Some(&one[0]) == default_scheme.as_ref() => None,
            [one] if one.len() == 1 => Some(json!(one[0])),
            _ => Some(Value::Array(
                kept.into_iter().map(|set| if set.len() == 1 { json!(set[0]) } else { json!(set) }).collect(),
            )),
        }
    }
}

/// The auth schemes the format can hold (bearer tokens), by document name, and what each
/// other scheme is.
#[derive(Debug, Default)]
pub struct Auth {
    /// The schemes the format holds (bearer, basic, API keys): document name -> spec name,
    /// with the scheme as `api.auth` declares it.
    pub schemes: IndexMap<String, (String, Map<String, Value>)>,
    /// Other schemes: document name -> the gap kind of why not.
    pub other: BTreeMap<String, Kind>,
    /// Schemes that say what another does: document name -> the spec name of that one.
    pub aliases: BTreeMap<String, String>,
    /// The pointers of the OAuth 2 and OpenID Connect schemes, kept as bearer schemes (gap
    /// `oauth`).
    pub oauth: Vec<String>,
    /// The pointers of the `http` schemes other than bearer and basic, kept as `http` schemes
    /// the client leaves to its signer (gap `http-signer`).
    pub signed: Vec<String>,
}

/// The security schemes: bearer, OAuth 2 and OpenID Connect (which send bearer tokens)
/// are kept; API keys and basic authentication are noted for the operations needing them;
/// another `http` auth-scheme is kept for the client's signer.
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
            ("oauth2" | "openIdConnect", _) => {
                // The client presents the token it obtained as a bearer token.
                auth.oauth.push(pointer.clone());
                node.insert("type".into(), json!("bearer"));
            }
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
