//! The change request of a space, as its content, comments and own operations find it.

use super::kinds::{CHANGE_REQUEST, SPACE};
use super::require;
use crate::User;
use crate::store::{Row, Tx};
use apigen_runtime::server::ApiError;
use docs_api_types::Role;

/// The change request `id` of `space` that the user may act on with `min` (404 when the
/// space or the change request is absent, or the change request belongs to another space).
pub fn change_request(tx: &Tx, user: &User, space: &str, id: &str, min: Role) -> Result<Row, ApiError> {
    tx.live(SPACE.name, space)?;
    let row = tx.live(CHANGE_REQUEST.name, id)?;
    if row.scope != space {
        return Err(ApiError::not_found(format!("no change request {id} in space {space}")));
    }
    require(tx, user, &row.org, min)?;
    Ok(row)
}
