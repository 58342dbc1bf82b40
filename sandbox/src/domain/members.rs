//! Memberships and users: what joining, the bootstrap and the demo data share, and how a
//! user is embedded in what they post.

use super::kinds::{MEMBER, USER, USERS};
use super::timestamp;
use crate::User;
use crate::store::Tx;
use apigen_runtime::server::ApiError;
use serde_json::{Value, json};

/// Stores `user` (a `User` JSON, kept if it exists) and makes them a member of `org` with
/// `role` (`None`: a guest).
pub fn add_member(tx: &Tx, org: &str, user: &Value, role: Option<&str>) -> Result<(), ApiError> {
    let id = user["id"].as_str().unwrap_or_default().to_owned();
    if tx.row(USER.name, &id)?.is_none() {
        tx.insert(USER.name, &id, org, USERS, user)?;
    }
    let member = json!({
        "object": "member", "id": id, "role": role, "user": user,
        "disabled": false, "joinedAt": timestamp(tx.now()), "sso": false,
    });
    tx.insert(MEMBER.name, &format!("{org}/{id}"), org, org, &member)
}

/// The user as embedded in what they post (`createdBy`, `postedBy`…): their stored `User`,
/// or one with only the id.
pub fn user_json(tx: &Tx, user: &User) -> Result<Value, ApiError> {
    Ok(tx.row(USER.name, &user.id)?.map_or_else(|| json!({"object": "user", "id": user.id}), |row| row.data))
}
