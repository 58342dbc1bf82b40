//! Teams as every group answers them: with their counts and what the caller may do.

use super::kinds::TEAM_MEMBER;
use super::role_of;
use crate::User;
use crate::store::{Row, Tx};
use apigen_runtime::server::ApiError;
use docs_api_types::Role;
use serde_json::{Value, json};

/// Whether `user` manages the team: one of its owners, or an admin of its organization.
pub fn manages(tx: &Tx, user: &str, team: &Row) -> Result<bool, ApiError> {
    let owner = tx.row(TEAM_MEMBER.name, &format!("{}/{user}", team.id))?.is_some_and(|m| m.data["role"] == "owner");
    let admin = matches!(role_of(tx, &User { id: user.to_owned() }, &team.org)?, Some(Some(Role::Admin)));
    Ok(owner || admin)
}

/// A team's document with its counts and the caller's permissions.
pub fn with_counts(tx: &Tx, user: &User, team: Row) -> Result<Value, ApiError> {
    let members = tx.count(TEAM_MEMBER.name, &team.id)?;
    let admin = manages(tx, &user.id, &team)?;
    let mut document = team.data;
    document["members"] = json!(members);
    document["spaces"] = json!(0);
    document["permissions"] = json!({"admin": admin, "view": true});
    Ok(document)
}
