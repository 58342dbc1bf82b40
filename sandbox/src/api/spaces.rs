//! Spaces (Part A §2.8, §3.1, §4.2): a space's lifecycle (active, deleted, restored within 7
//! days), updates, moves, transfers, duplicates and link reports.
//!
//! Stored under kind `space`, scope the parent collection's id or the organization's id.
//! The lifecycle of §3.1: `deleteSpace` sets `deletedAt` (the row is soft-deleted: lists and
//! every other operation no longer find it); `getSpace` still answers a deleted space, with
//! `deletedAt`, until it is permanently removed 7 days after deletion; `restoreSpace` within
//! 7 days clears `deletedAt`; after 7 days the space is removed when next touched and both
//! answer 404 (gap `space-restore-after-window`). Restoring an active space is a refused
//! state change (400). The API has no operation creating a space: [`create_space`] is what
//! the demo data and tests use.

use crate::api::prelude::*;
use crate::domain::collections::{parent_in, scope_of};
use crate::domain::content::{copy_space_content, current_revision, revision_links};
use crate::domain::kinds::{ORGANIZATION, SPACE};
use crate::domain::spaces::link_report;

/// Where tests and tools create a space (the API has no operation for it).
pub use crate::domain::spaces::create_space;

/// How long a deleted space can be restored.
const RESTORE_WINDOW_DAYS: i64 = 7;

/// A space, deleted or not; one deleted more than 7 days ago is gone (absent), and removed
/// for good when `purge` (a write transaction).
fn any_space(tx: &Tx, id: &str, purge: bool) -> Result<Option<Row>, ApiError> {
    let Some(row) = tx.row(SPACE.name, id)? else { return Ok(None) };
    if let Some(deleted) = row.deleted_at.as_deref().and_then(|d| chrono::DateTime::parse_from_rfc3339(d).ok())
        && tx.now() - deleted.to_utc() > chrono::Duration::days(RESTORE_WINDOW_DAYS)
    {
        if purge {
            tx.delete(SPACE.name, id)?;
        }
        return Ok(None);
    }
    Ok(Some(row))
}

fn not_found(id: &str) -> ApiError {
    ApiError::not_found(format!("no space with id {id}"))
}

impl SpacesApi for Sandbox {
    async fn get_space(&self, context: Ctx, request: GetSpaceRequest) -> Result<Space, ApiError> {
        self.store()
            .read_async(move |tx| {
                let row = any_space(tx, &request.space_id, false)?.ok_or_else(|| not_found(&request.space_id))?;
                require(tx, &context.principal, &row.org, Role::Read)?;
                out(SPACE, row.data)
            })
            .await
    }

    async fn delete_space(&self, context: Ctx, request: DeleteSpaceRequest) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let Some(row) = any_space(tx, &request.space_id, true)? else { return Ok(()) };
                require(tx, &context.principal, &row.org, Role::Admin)?;
                if row.deleted_at.is_some() {
                    return Ok(());
                }
                let now = timestamp(tx.now());
                tx.modify(SPACE.name, &row.id, |s| s["deletedAt"] = now.clone())?;
                tx.soft_delete(SPACE.name, &row.id, now.as_str())
            })
            .await
    }

    async fn update_space(&self, context: Ctx, request: UpdateSpaceRequest) -> Result<Space, ApiError> {
        self.store()
            .write_async(move |tx| {
                let row = found(tx, SPACE, &request.space_id, &context.principal, Role::Create)?;
                let document = touch(tx, SPACE, &row.id, &encode(&request.body))?;
                tx.index(&row.org, SPACE.name, &row.id, document["title"].as_str().unwrap_or_default(), "")?;
                out(SPACE, document)
            })
            .await
    }

    async fn duplicate_space(&self, context: Ctx, request: DuplicateSpaceRequest) -> Result<Space, ApiError> {
        self.store()
            .write_async(move |tx| {
                let row = found(tx, SPACE, &request.space_id, &context.principal, Role::Create)?;
                let parent = row.data["parent"].as_str().map(str::to_owned);
                let title = format!("{} (copy)", row.data["title"].as_str().unwrap_or_default());
                let title: String = title.chars().take(50).collect();
                let copy = create_space(tx, &row.org, parent.as_deref(), &title)?;
                let revision = tx.live(SPACE.name, &copy)?.data["revision"].as_str().unwrap_or_default().to_owned();
                let mut settings = row.data.clone();
                if let Value::Object(settings) = &mut settings {
                    settings.retain(|key, _| {
                        matches!(
                            key.as_str(),
                            "emoji" | "visibility" | "editMode" | "mergeRules" | "language" | "defaultLevel"
                        )
                    });
                }
                tx.modify(SPACE.name, &copy, |s| merge(s, &settings))?;
                copy_space_content(tx, &row.id, &revision)?;
                out(SPACE, tx.live(SPACE.name, &copy)?.data)
            })
            .await
    }

    async fn restore_space(&self, context: Ctx, request: RestoreSpaceRequest) -> Result<Space, ApiError> {
        self.store()
            .write_async(move |tx| {
                let row = any_space(tx, &request.space_id, true)?.ok_or_else(|| not_found(&request.space_id))?;
                require(tx, &context.principal, &row.org, Role::Admin)?;
                if row.deleted_at.is_none() {
                    return Err(ApiError::bad_request(format!("space {} is not deleted", row.id)));
                }
                tx.soft_delete(SPACE.name, &row.id, None)?;
                out(SPACE, touch(tx, SPACE, &row.id, &json!({"deletedAt": null}))?)
            })
            .await
    }

    async fn move_space(&self, context: Ctx, request: MoveSpaceRequest) -> Result<Space, ApiError> {
        self.store()
            .write_async(move |tx| {
                let row = found(tx, SPACE, &request.space_id, &context.principal, Role::Create)?;
                let body = encode(&request.body);
                if let Some(parent) = body.get("parent") {
                    let parent = parent.as_str();
                    if let Some(parent) = parent {
                        parent_in(tx, &row.org, parent)?;
                    }
                    tx.rehome(SPACE.name, &row.id, &row.org, &scope_of(&row.org, parent))?;
                    tx.modify(SPACE.name, &row.id, |s| match parent {
                        Some(parent) => s["parent"] = json!(parent),
                        None => {
                            s.as_object_mut().map(|s| s.remove("parent"));
                        }
                    })?;
                }
                tx.place(SPACE.name, &row.id, &place_of(body.get("position")))?;
                out(SPACE, touch(tx, SPACE, &row.id, &json!({}))?)
            })
            .await
    }

    async fn transfer_space(&self, context: Ctx, request: TransferSpaceRequest) -> Result<Space, ApiError> {
        self.store()
            .write_async(move |tx| {
                let row = found(tx, SPACE, &request.space_id, &context.principal, Role::Admin)?;
                let target = &request.body.organization;
                tx.live(ORGANIZATION.name, target)
                    .map_err(|_| ApiError::bad_request(format!("no organization {target} to transfer to")))?;
                require(tx, &context.principal, target, Role::Admin)?;
                tx.rehome(SPACE.name, &row.id, target, target)?;
                tx.modify(SPACE.name, &row.id, |s| {
                    s["organization"] = json!(target);
                    s.as_object_mut().map(|s| s.remove("parent"));
                })?;
                out(SPACE, touch(tx, SPACE, &row.id, &json!({}))?)
            })
            .await
    }

    async fn list_space_links(&self, context: Ctx, request: ListSpaceLinksRequest) -> Result<LinkReportList, ApiError> {
        self.store()
            .read_async(move |tx| {
                let row = found(tx, SPACE, &request.space_id, &context.principal, Role::Read)?;
                let links = revision_links(&current_revision(tx, &row.id)?);
                link_report(
                    tx,
                    &row.id,
                    links,
                    request.status.as_ref().map(LinkStatus::as_str),
                    request.page.as_deref(),
                    request.limit,
                )
            })
            .await
    }
}
