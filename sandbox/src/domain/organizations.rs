//! The organization every new database starts with.

use super::kinds::{ORGANIZATION, ORGANIZATIONS, USER};
use super::members::add_member;
use super::{API_URL, timestamp};
use crate::store::Tx;
use apigen_runtime::server::ApiError;
use serde_json::json;

/// Creates the first organization of a new database and its admin user (and membership).
pub fn create_first(tx: &Tx) -> Result<(String, String), ApiError> {
    let org = tx.new_id(ORGANIZATION.prefix)?;
    let user = tx.new_id(USER.prefix)?;
    let now = timestamp(tx.now());
    let organization = json!({
        "object": "organization", "id": org, "title": "Sandbox", "createdAt": now,
        "emailDomains": [], "type": "business", "defaultRole": "read",
        "sso": false, "ai": false, "inviteLinks": true,
        "urls": {"app": format!("https://app.example.com/o/{org}"), "location": format!("{API_URL}/v1/orgs/{org}")},
    });
    tx.insert(ORGANIZATION.name, &org, &org, ORGANIZATIONS, &organization)?;
    add_member(
        tx,
        &org,
        &json!({"object": "user", "id": user, "displayName": "Sandbox Admin", "email": "admin@example.com"}),
        Some("admin"),
    )?;
    Ok((org, user))
}
