//! The rules the handlers share, under them: the kinds of stored resources, the caller's
//! role, how a new document is made and a stored one changed, and the rules of one resource
//! that the operations of another group apply (a change request's space, a site of an
//! organization, a space's first revision…). Handlers (`crate::api`) import from here and
//! from the store, never from each other; this layer imports only the store and the
//! generated types.
//!
//! Decisions where the documents are silent (recorded here and in the README's behaviour
//! table): a caller who is not a member of the organization that owns a resource gets 403;
//! reading needs the `read` role, commenting `comment`, editing content `edit`, reviewing and
//! merging change requests `review`, creating spaces, collections and sites `create`, and
//! administering the organization (members, teams, SSO, integrations, settings, deletes of
//! spaces and collections) `admin`. Roles rank as Part A §2.2 lists them:
//! admin > create > review > edit > comment > read.
//!
//! Walks over stored data never recurse without a bound: a walk over rows (collections
//! nested in collections, the groups of a site) keeps its own stack, and what is answered
//! nested (section groups in section groups) has a depth that creating refuses to pass
//! ([`site_structure::MAX_GROUP_DEPTH`]). A walk over one stored JSON document (pages nested
//! in a revision, a merge patch, the words of a page) is bounded by the nesting limit of the
//! JSON parser (128), which every stored document and request body has passed.

pub mod change_requests;
pub mod collections;
pub mod content;
pub mod kinds;
pub mod members;
pub mod organizations;
pub mod site_structure;
pub mod sites;
pub mod skeleton;
pub mod spaces;
pub mod teams;

use crate::User;
use crate::store::{Place, Row, Tx};
use apigen_runtime::server::ApiError;
use docs_api_types::Role;
use kinds::{Kind, MEMBER, ORGANIZATION};
use serde_json::Value;

/// The rank of a role: higher may do more (Part A §2.2 order).
fn rank(role: &Role) -> u8 {
    match role {
        Role::Admin => 6,
        Role::Create => 5,
        Role::Review => 4,
        Role::Edit => 3,
        Role::Comment => 2,
        Role::Read => 1,
        Role::Unknown(_) => 0,
    }
}

/// The user's role in an organization: `None` when not a member; `Some(None)` for a guest
/// (a member whose role is null).
pub fn role_of(tx: &Tx, user: &User, org: &str) -> Result<Option<Option<Role>>, ApiError> {
    let Some(row) = tx.row(MEMBER.name, &format!("{org}/{}", user.id))? else { return Ok(None) };
    if row.deleted_at.is_some() {
        return Ok(None);
    }
    let member: docs_api_types::Member = crate::store::decode(MEMBER.name, row.data)?;
    Ok(Some(member.role))
}

/// Refuses with 403 unless the user is a member of `org` with at least `min`.
pub fn require(tx: &Tx, user: &User, org: &str, min: Role) -> Result<(), ApiError> {
    match role_of(tx, user, org)? {
        None => Err(ApiError::forbidden(format!("you are not a member of organization {org}"))),
        Some(role) if role.as_ref().map_or(0, rank) >= rank(&min) => Ok(()),
        Some(_) => Err(ApiError::forbidden(format!("this needs the {} role in organization {org}", min.as_str()))),
    }
}

/// A live resource the user may act on with `min`: 404 when absent, then 403.
pub fn found(tx: &Tx, kind: Kind, id: &str, user: &User, min: Role) -> Result<Row, ApiError> {
    let row = tx.live(kind.name, id)?;
    require(tx, user, &row.org, min)?;
    Ok(row)
}

/// The organization named in a path, which must exist (404), and the user's right to `min`
/// in it (403).
pub fn organization(tx: &Tx, user: &User, org: &str, min: Role) -> Result<(), ApiError> {
    tx.live(ORGANIZATION.name, org)?;
    require(tx, user, org, min)
}

/// JSON merge patch (RFC 7386): what a PATCH body's JSON does to a stored document. A
/// `null` removes the member; an object merges into an object; anything else replaces.
/// Recursion follows the patch, whose depth the JSON parser bounds (128).
pub fn merge(target: &mut Value, patch: &Value) {
    match (target, patch) {
        (Value::Object(target), Value::Object(patch)) => {
            for (key, value) in patch {
                if value.is_null() {
                    target.remove(key);
                } else {
                    merge(target.entry(key.clone()).or_insert(Value::Null), value);
                }
            }
        }
        (target, patch) => *target = patch.clone(),
    }
}

/// A timestamp as the API writes it.
pub fn timestamp(at: chrono::DateTime<chrono::Utc>) -> Value {
    Value::String(at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
}

/// The base of the absolute `urls.location` links the sandbox answers (the spec's `url` type
/// is an absolute URI; the sandbox does not know the address clients reach it at).
pub const API_URL: &str = "https://api.example.com";

/// `text` made safe to stand in a URL path segment or query value: every byte outside the
/// unreserved set of RFC 3986 percent-encoded (what callers send may be any text).
pub fn url_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The host of a URL (or of a bare domain), lowercased.
pub fn host_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    host.split(':').next().unwrap_or_default().to_ascii_lowercase()
}

/// A new document of `kind` (not stored): the type's skeleton, a new id, `object` and the
/// timestamps the type has set to now, then `fields` merged over it.
pub fn new_document(tx: &Tx, kind: Kind, fields: &Value) -> Result<(String, Value), ApiError> {
    let id = tx.new_id(kind.prefix)?;
    let mut document = skeleton::of(kind.schema);
    let now = timestamp(tx.now());
    if let Value::Object(object) = &mut document {
        object.insert("id".into(), Value::String(id.clone()));
        for field in ["createdAt", "updatedAt"] {
            if skeleton::has_field(kind.schema, field) {
                object.insert(field.into(), now.clone());
            }
        }
    }
    merge(&mut document, fields);
    Ok((id, document))
}

/// Creates and stores a document of `kind` (see [`new_document`]) last in `scope`.
pub fn create(tx: &Tx, kind: Kind, org: &str, scope: &str, fields: &Value) -> Result<Value, ApiError> {
    let (id, document) = new_document(tx, kind, fields)?;
    tx.insert(kind.name, &id, org, scope, &document)?;
    Ok(document)
}

/// Merges `patch` into a stored document, sets its `updatedAt`, and answers the new document.
pub fn touch(tx: &Tx, kind: Kind, id: &str, patch: &Value) -> Result<Value, ApiError> {
    let now = timestamp(tx.now());
    tx.modify(kind.name, id, |document| {
        merge(document, patch);
        if skeleton::has_field(kind.schema, "updatedAt") {
            document["updatedAt"] = now;
        }
    })
}

/// Deletes a resource for good: absent already is success (Part A §7: deletes of absent
/// targets answer 204); present needs `min`.
pub fn remove(tx: &Tx, kind: Kind, id: &str, user: &User, min: Role) -> Result<(), ApiError> {
    let Some(row) = tx.row(kind.name, id)? else { return Ok(()) };
    require(tx, user, &row.org, min)?;
    tx.delete(kind.name, id)?;
    Ok(())
}

/// A stored document as its API type.
pub fn out<T: apigen_runtime::FromJson>(kind: Kind, document: Value) -> Result<T, ApiError> {
    crate::store::decode(kind.name, document)
}

/// Where a `position` body (`{ before | after: <target> }`, the target an id or an object
/// naming one) puts a resource; no position is the end.
pub fn place_of(position: Option<&Value>) -> Place {
    fn target(value: &Value) -> Option<String> {
        match value {
            Value::String(id) => Some(id.clone()),
            Value::Object(object) => object
                .iter()
                .filter(|(key, _)| !matches!(key.as_str(), "type" | "object" | "kind"))
                .find_map(|(_, value)| value.as_str().map(str::to_owned)),
            _ => None,
        }
    }
    let Some(position) = position else { return Place::End };
    if let Some(id) = position.get("before").and_then(target) {
        return Place::Before(id);
    }
    if let Some(id) = position.get("after").and_then(target) {
        return Place::After(id);
    }
    Place::End
}

/// A body field naming something that is not there is a bad request about that field (400
/// naming it), not a 404: the resource of the path exists, and a client reading 404 would
/// think it gone (spec gap `failure-status-codes`).
pub fn in_body<T>(field: &str, result: Result<T, ApiError>) -> Result<T, ApiError> {
    result.map_err(|error| match error.status().as_u16() {
        404 => {
            let message = error.message().unwrap_or("names nothing").to_owned();
            ApiError::invalid(vec![apigen_runtime::Violation::new(field, message)])
        }
        _ => error,
    })
}
