//! Change requests (Part B §2.10, §3.1, §4.6): a space's proposed edits, on a revision of
//! their own, through draft → open → merged.
//!
//! Stored under kind `change-request`, scope the space's id. Creating one copies the space's
//! current revision into the change request's own (`revisionInitial` is the space's revision
//! then). `PATCH` with `status` moves it between the states (`draft`, `open`; other values
//! are kept as given, since the documents do not list them). Merging makes a `merge`
//! revision of the space (parents: the space's revision and the change request's), moves
//! the space's `revision` to it and sets `revisionMerged`; every other unmerged change
//! request of the space becomes `outdated`. Decisions where the documents are silent: a
//! merged change request keeps its status and is no longer listed under `draft` or `open`;
//! merging it again is a refused state change (400); merging an outdated change request
//! changes nothing and answers `result: conflicts` with the space's revision (update from
//! main first), so a caller tells a conflict from a success; updating from main sets
//! `revisionMergedAncestor` to the space's revision and clears `outdated`. The space's
//! counters (`changeRequests`, `changeRequestsOpen`, `changeRequestsDraft`) follow every change.

use crate::api::prelude::*;
use crate::domain::change_requests::change_request;
use crate::domain::content::derive_revision;
use crate::domain::kinds::{CHANGE_REQUEST, ORGANIZATION, SPACE};
use crate::domain::members::user_json;

fn is_merged(request: &Value) -> bool {
    request.get("revisionMerged").is_some_and(|r| !r.is_null())
}

/// Recomputes the change-request counters of a space.
fn recount(tx: &Tx, space: &str) -> Result<(), ApiError> {
    // Unmerged ones by status: `revisionMerged` is absent until the merge.
    let unmerged = |status: &str| tx.count_state(CHANGE_REQUEST.name, space, status);
    let (total, open, draft) = (tx.count(CHANGE_REQUEST.name, space)?, unmerged("open")?, unmerged("draft")?);
    tx.modify(SPACE.name, space, |s| {
        s["changeRequests"] = json!(total);
        s["changeRequestsOpen"] = json!(open);
        s["changeRequestsDraft"] = json!(draft);
    })?;
    Ok(())
}

/// The change requests of `rows` that pass the list filters.
fn filtered(rows: Vec<Row>, status: &ChangeRequestStatus, creator: Option<&str>, cluster: Option<&str>) -> Vec<Value> {
    rows.into_iter()
        .map(|row| row.data)
        .filter(|r| !is_merged(r) || !matches!(status, ChangeRequestStatus::Draft | ChangeRequestStatus::Open))
        .filter(|r| r["status"] == status.as_str())
        .filter(|r| creator.is_none_or(|c| r["createdBy"]["id"] == c))
        .filter(|r| cluster.is_none_or(|c| r["conversationsIssuesCluster"] == c))
        .collect()
}

impl ChangeRequestsApi for Sandbox {
    async fn list_space_change_requests(
        &self,
        context: Ctx,
        request: ListSpaceChangeRequestsRequest,
    ) -> Result<ListPage<ChangeRequest>, ApiError> {
        self.store()
            .read_async(move |tx| {
                found(tx, SPACE, &request.space_id, &context.principal, Role::Read)?;
                let items = filtered(
                    tx.all(CHANGE_REQUEST.name, &request.space_id)?,
                    &request.status,
                    request.creator.as_deref(),
                    request.conversations_issues_cluster.as_deref(),
                );
                let list = format!(
                    "crs:{}:{}:{:?}:{:?}",
                    request.space_id,
                    request.status.as_str(),
                    request.creator,
                    request.conversations_issues_cluster
                );
                tx.paginate(&list, items, request.page.as_deref(), request.limit, |item| {
                    decode(CHANGE_REQUEST.name, item)
                })
            })
            .await
    }

    async fn create_space_change_request(
        &self,
        context: Ctx,
        request: CreateSpaceChangeRequestRequest,
    ) -> Result<ChangeRequest, ApiError> {
        self.store().write_async(move |tx| {
            let space = found(tx, SPACE, &request.space_id, &context.principal, Role::Edit)?;
            let base = space.data["revision"].as_str().unwrap_or_default().to_owned();
            let revision = derive_revision(tx, &space.org, &space.id, &base, "edits", &[&base])?;
            // Change requests are never deleted: the next number is one more than how many.
            let number = tx.count_all(CHANGE_REQUEST.name, &space.id)? + 1;
            let (id, mut document) = new_document(tx, CHANGE_REQUEST, &json!({}))?;
            merge(&mut document, &json!({
                "object": "change-request", "number": number, "status": "draft", "subject": "",
                "createdBy": user_json(tx, &context.principal)?, "space": space.id, "revision": revision,
                "revisionInitial": base, "comments": 0, "outdated": false,
                "urls": {"location": format!("{API_URL}/v1/spaces/{}/change-requests/{id}", space.id), "app": format!("https://app.example.com/s/{}/~/changes/{number}", space.id)},
            }));
            merge(&mut document, &encode(&request.body));
            tx.insert(CHANGE_REQUEST.name, &id, &space.org, &space.id, &document)?;
            tx.index(&space.org, CHANGE_REQUEST.name, &id, document["subject"].as_str().unwrap_or_default(), "")?;
            recount(tx, &space.id)?;
            out(CHANGE_REQUEST, document)
        }).await
    }

    async fn get_change_request(
        &self,
        context: Ctx,
        request: GetChangeRequestRequest,
    ) -> Result<ChangeRequest, ApiError> {
        self.store()
            .read_async(move |tx| {
                out(
                    CHANGE_REQUEST,
                    change_request(tx, &context.principal, &request.space_id, &request.change_request_id, Role::Read)?
                        .data,
                )
            })
            .await
    }

    async fn update_change_request(
        &self,
        context: Ctx,
        request: UpdateChangeRequestRequest,
    ) -> Result<UpdateChangeRequestAnswer, ApiError> {
        self.store()
            .write_async(move |tx| {
                let row =
                    change_request(tx, &context.principal, &request.space_id, &request.change_request_id, Role::Edit)?;
                let document = touch(tx, CHANGE_REQUEST, &row.id, &encode(&request.body))?;
                tx.index(&row.org, CHANGE_REQUEST.name, &row.id, document["subject"].as_str().unwrap_or_default(), "")?;
                recount(tx, &row.scope)?;
                out(CHANGE_REQUEST, document)
            })
            .await
            .map(UpdateChangeRequestAnswer::Ok)
    }

    async fn merge_change_request(
        &self,
        context: Ctx,
        request: MergeChangeRequestRequest,
    ) -> Result<ChangeRequestMergeResult, ApiError> {
        self.store()
            .write_async(move |tx| {
                let row = change_request(
                    tx,
                    &context.principal,
                    &request.space_id,
                    &request.change_request_id,
                    Role::Review,
                )?;
                if is_merged(&row.data) {
                    return Err(ApiError::bad_request(format!("change request {} is already merged", row.id)));
                }
                let space = tx.live(SPACE.name, &row.scope)?;
                let main = space.data["revision"].as_str().unwrap_or_default().to_owned();
                if row.data["outdated"] == true {
                    return decode("merge result", json!({"revision": main, "result": "conflicts"}));
                }
                let theirs = row.data["revision"].as_str().unwrap_or_default().to_owned();
                let merged = derive_revision(tx, &space.org, &space.id, &theirs, "merge", &[&main, &theirs])?;
                tx.modify(SPACE.name, &space.id, |s| s["revision"] = json!(merged))?;
                touch(tx, CHANGE_REQUEST, &row.id, &json!({"revisionMerged": merged}))?;
                for other in tx.all(CHANGE_REQUEST.name, &space.id)? {
                    if other.id != row.id && !is_merged(&other.data) {
                        tx.modify(CHANGE_REQUEST.name, &other.id, |r| r["outdated"] = json!(true))?;
                    }
                }
                recount(tx, &space.id)?;
                decode("merge result", json!({"revision": merged, "result": "merge"}))
            })
            .await
    }

    async fn update_change_request_from_main(
        &self,
        context: Ctx,
        request: UpdateChangeRequestFromMainRequest,
    ) -> Result<ChangeRequestUpdateResult, ApiError> {
        self.store()
            .write_async(move |tx| {
                let row =
                    change_request(tx, &context.principal, &request.space_id, &request.change_request_id, Role::Edit)?;
                if is_merged(&row.data) {
                    return Err(ApiError::bad_request(format!("change request {} is already merged", row.id)));
                }
                let main = tx.live(SPACE.name, &row.scope)?.data["revision"].as_str().unwrap_or_default().to_owned();
                let document =
                    touch(tx, CHANGE_REQUEST, &row.id, &json!({"revisionMergedAncestor": main, "outdated": false}))?;
                decode("update result", json!({"revision": document["revision"], "result": "update"}))
            })
            .await
    }

    async fn get_change_request_pdf(
        &self,
        context: Ctx,
        request: GetChangeRequestPdfRequest,
    ) -> Result<ChangeRequestPdf, ApiError> {
        self.store()
            .read_async(move |tx| {
                let row =
                    change_request(tx, &context.principal, &request.space_id, &request.change_request_id, Role::Read)?;
                let mut url = format!("https://pdf.example.com/{}/{}.pdf", row.scope, row.id);
                if request.only {
                    let page = request
                        .page
                        .as_deref()
                        .ok_or_else(|| ApiError::bad_request("`only` needs `page`: the page to render"))?;
                    url.push_str(&format!("?page={}", url_component(page)));
                }
                decode("pdf", json!({"url": url}))
            })
            .await
    }

    async fn list_organization_change_requests(
        &self,
        context: Ctx,
        request: ListOrganizationChangeRequestsRequest,
    ) -> Result<ListPage<ChangeRequest>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let org = &request.organization_id;
                tx.live(ORGANIZATION.name, org)?;
                require(tx, &context.principal, org, Role::Read)?;
                let items = filtered(
                    tx.all_in_org(CHANGE_REQUEST.name, org)?,
                    &request.status,
                    request.creator.as_deref(),
                    request.conversations_issues_cluster.as_deref(),
                );
                let list = format!(
                    "org-crs:{org}:{}:{:?}:{:?}",
                    request.status.as_str(),
                    request.creator,
                    request.conversations_issues_cluster
                );
                tx.paginate(&list, items, request.page.as_deref(), request.limit, |item| {
                    decode(CHANGE_REQUEST.name, item)
                })
            })
            .await
    }
}
