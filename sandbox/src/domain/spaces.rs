//! Spaces as other groups make and move them: a new space with its first revision (the API
//! has no operation creating one: the demo data and tests use it), a space following its
//! collection to another organization, and the link report of a space or a page.

use super::collections::{parent_in, scope_of};
use super::content::first_revision;
use super::kinds::SPACE;
use super::{API_URL, merge, new_document};
use crate::store::{Tx, decode};
use apigen_runtime::server::ApiError;
use docs_api_types::LinkReportList;
use serde_json::{Value, json};

/// Creates an active space in `org` (in collection `parent` when given), with its first
/// revision, and answers its id.
pub fn create_space(tx: &Tx, org: &str, parent: Option<&str>, title: &str) -> Result<String, ApiError> {
    if let Some(parent) = parent {
        parent_in(tx, org, parent)?;
    }
    let (id, mut document) = new_document(tx, SPACE, &json!({}))?;
    let revision = first_revision(tx, org, &id)?;
    merge(
        &mut document,
        &json!({
            "object": "space", "title": title, "emoji": "📘", "visibility": if parent.is_some() { "in-collection" } else { "private" },
            "mergeRules": {"type": "inherit"}, "organization": org, "parent": parent, "revision": revision,
            "editMode": "live", "comments": 0, "changeRequests": 0, "changeRequestsOpen": 0, "changeRequestsDraft": 0,
            "urls": {"location": format!("{API_URL}/v1/spaces/{id}"), "app": format!("https://app.example.com/s/{id}")},
        }),
    );
    // Null (a guest's level) until set: the skeleton's first role is not a decision.
    document["defaultLevel"] = Value::Null;
    tx.insert(SPACE.name, &id, org, &scope_of(org, parent), &document)?;
    tx.index(org, SPACE.name, &id, title, "")?;
    Ok(id)
}

/// Moves a space to another organization (out of any collection), with its content rows.
pub fn change_organization(tx: &Tx, space: &str, org: &str) -> Result<(), ApiError> {
    let row = tx.live(SPACE.name, space)?;
    let scope = if row.scope == row.org { org.to_owned() } else { row.scope.clone() };
    tx.rehome(SPACE.name, space, org, &scope)?;
    tx.modify(SPACE.name, space, |s| s["organization"] = json!(org))?;
    tx.index(org, SPACE.name, space, row.data["title"].as_str().unwrap_or_default(), "")
}

/// A link report (of a space, or of a page named by `scope`): the links with `status` kept,
/// and stats over all of them.
pub fn link_report(
    tx: &Tx,
    scope: &str,
    links: Vec<Value>,
    status: Option<&str>,
    page: Option<&str>,
    limit: i64,
) -> Result<LinkReportList, ApiError> {
    let broken = links.iter().filter(|l| l["status"] == "broken").count();
    let stats = json!({"total": links.len(), "broken": {"total": broken}});
    let kept: Vec<Value> = links.into_iter().filter(|l| status.is_none_or(|s| l["status"] == s)).collect();
    let page = tx.paginate(&format!("links:{scope}:{status:?}"), kept, page, limit, Ok)?;
    decode(
        "link report",
        json!({"next": page.next.map(|n| json!({"page": n.page})), "count": page.count, "items": page.items, "stats": stats}),
    )
}
