//! Where collections and spaces sit: the list scope a parent collection gives, and which
//! collection may be a parent.

use super::kinds::COLLECTION;
use crate::store::Tx;
use apigen_runtime::server::ApiError;

/// The list scope of a resource whose parent is `parent` (a collection) in `org`.
pub fn scope_of(org: &str, parent: Option<&str>) -> String {
    parent.unwrap_or(org).to_owned()
}

/// A collection of `org` that may hold a new child, or a 400 naming the id.
pub fn parent_in(tx: &Tx, org: &str, parent: &str) -> Result<(), ApiError> {
    match tx.row(COLLECTION.name, parent)? {
        Some(row) if row.deleted_at.is_none() && row.org == org => Ok(()),
        _ => Err(ApiError::bad_request(format!("parent {parent} is not a collection of organization {org}"))),
    }
}
