//! Collections (Part A §2.7, §4.1): nestable groupings of spaces in an organization.
//!
//! Stored under kind `collection`, scope the parent collection's id or, at the top level, the
//! organization's id. Decisions where the documents are silent: `position` orders a
//! collection among its sibling collections (a target that is not a sibling collection is a
//! 400 naming it); a collection cannot be moved into itself or its descendants (400);
//! deleting a collection deletes the collections nested in it and moves its spaces to the
//! top level of the organization (no content is lost by deleting a grouping); transfer needs
//! `admin` in both organizations and moves the collection with its nested collections and
//! spaces.

use crate::api::prelude::*;
use crate::domain::collections::{parent_in, scope_of};
use crate::domain::kinds::{COLLECTION, ORGANIZATION, SPACE};
use crate::domain::spaces::change_organization;

/// The ids of `collection` and every collection nested in it.
fn subtree(tx: &Tx, collection: &str) -> Result<Vec<String>, ApiError> {
    let mut ids = vec![collection.to_owned()];
    let mut index = 0;
    while index < ids.len() {
        let children = tx.all(COLLECTION.name, &ids[index])?;
        ids.extend(children.into_iter().map(|row| row.id));
        index += 1;
    }
    Ok(ids)
}

/// Every collection of an organization in depth-first order (a parent before its children).
/// The walk keeps its own stack: collections nest as deep as members make them.
fn nested(tx: &Tx, org: &str) -> Result<Vec<Value>, ApiError> {
    let mut out = Vec::new();
    let mut stack: Vec<Row> = tx.all(COLLECTION.name, org)?.into_iter().rev().collect();
    while let Some(row) = stack.pop() {
        stack.extend(tx.all(COLLECTION.name, &row.id)?.into_iter().rev());
        out.push(row.data);
    }
    Ok(out)
}

fn index(tx: &Tx, org: &str, document: &Value) -> Result<(), ApiError> {
    let id = document["id"].as_str().unwrap_or_default();
    let title = document["title"].as_str().unwrap_or_default();
    let description = document["description"].as_str().unwrap_or_default();
    tx.index(org, COLLECTION.name, id, title, description)
}

impl CollectionsApi for Sandbox {
    async fn get_collection(&self, context: Ctx, request: GetCollectionRequest) -> Result<Collection, ApiError> {
        self.store()
            .read_async(move |tx| {
                out(COLLECTION, found(tx, COLLECTION, &request.collection_id, &context.principal, Role::Read)?.data)
            })
            .await
    }

    async fn delete_collection(&self, context: Ctx, request: DeleteCollectionRequest) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let Some(row) = tx.row(COLLECTION.name, &request.collection_id)? else { return Ok(()) };
                require(tx, &context.principal, &row.org, Role::Admin)?;
                for id in subtree(tx, &row.id)? {
                    for space in tx.all(SPACE.name, &id)? {
                        tx.rehome(SPACE.name, &space.id, &row.org, &row.org)?;
                        tx.modify(SPACE.name, &space.id, |s| {
                            s.as_object_mut().map(|s| s.remove("parent"));
                        })?;
                    }
                    tx.delete(COLLECTION.name, &id)?;
                }
                Ok(())
            })
            .await
    }

    async fn update_collection(&self, context: Ctx, request: UpdateCollectionRequest) -> Result<Collection, ApiError> {
        self.store()
            .write_async(move |tx| {
                let row = found(tx, COLLECTION, &request.collection_id, &context.principal, Role::Create)?;
                let document = touch(tx, COLLECTION, &row.id, &encode(&request.body))?;
                index(tx, &row.org, &document)?;
                out(COLLECTION, document)
            })
            .await
    }

    async fn list_collection_spaces(
        &self,
        context: Ctx,
        request: ListCollectionSpacesRequest,
    ) -> Result<ListPage<Space>, ApiError> {
        self.store()
            .read_async(move |tx| {
                found(tx, COLLECTION, &request.collection_id, &context.principal, Role::Read)?;
                let list = format!("spaces:{}", request.collection_id);
                tx.page_where(
                    SPACE.name,
                    &request.collection_id,
                    &[],
                    false,
                    (&list, request.page.as_deref(), request.limit),
                )
            })
            .await
    }

    async fn move_collection(&self, context: Ctx, request: MoveCollectionRequest) -> Result<Collection, ApiError> {
        self.store()
            .write_async(move |tx| {
                let row = found(tx, COLLECTION, &request.collection_id, &context.principal, Role::Create)?;
                let body = encode(&request.body);
                if let Some(parent) = body.get("parent") {
                    let parent = parent.as_str();
                    if let Some(parent) = parent {
                        parent_in(tx, &row.org, parent)?;
                        if subtree(tx, &row.id)?.iter().any(|id| id == parent) {
                            return Err(ApiError::bad_request(format!(
                                "collection {} cannot move into itself or a collection nested in it",
                                row.id
                            )));
                        }
                    }
                    tx.rehome(COLLECTION.name, &row.id, &row.org, &scope_of(&row.org, parent))?;
                    tx.modify(COLLECTION.name, &row.id, |c| match parent {
                        Some(parent) => c["parent"] = json!(parent),
                        None => {
                            c.as_object_mut().map(|c| c.remove("parent"));
                        }
                    })?;
                }
                tx.place(COLLECTION.name, &row.id, &place_of(body.get("position")))?;
                out(COLLECTION, touch(tx, COLLECTION, &row.id, &json!({}))?)
            })
            .await
    }

    async fn transfer_collection(
        &self,
        context: Ctx,
        request: TransferCollectionRequest,
    ) -> Result<Collection, ApiError> {
        self.store()
            .write_async(move |tx| {
                let row = found(tx, COLLECTION, &request.collection_id, &context.principal, Role::Admin)?;
                let target = &request.body.organization;
                tx.live(ORGANIZATION.name, target)
                    .map_err(|_| ApiError::bad_request(format!("no organization {target} to transfer to")))?;
                require(tx, &context.principal, target, Role::Admin)?;
                for id in subtree(tx, &row.id)? {
                    let scope = if id == row.id { target.clone() } else { tx.live(COLLECTION.name, &id)?.scope };
                    tx.rehome(COLLECTION.name, &id, target, &scope)?;
                    tx.modify(COLLECTION.name, &id, |c| {
                        c["organization"] = json!(target);
                        if id == row.id {
                            c.as_object_mut().map(|c| c.remove("parent"));
                        }
                    })?;
                    for space in tx.all(SPACE.name, &id)? {
                        change_organization(tx, &space.id, target)?;
                    }
                }
                out(COLLECTION, touch(tx, COLLECTION, &row.id, &json!({}))?)
            })
            .await
    }

    async fn list_organization_collections(
        &self,
        context: Ctx,
        request: ListOrganizationCollectionsRequest,
    ) -> Result<ListPage<Collection>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let org = &request.organization_id;
                tx.live(ORGANIZATION.name, org)?;
                require(tx, &context.principal, org, Role::Read)?;
                let items = if request.nested {
                    nested(tx, org)?
                } else {
                    tx.all(COLLECTION.name, org)?.into_iter().map(|r| r.data).collect()
                };
                tx.paginate(
                    &format!("collections:{org}:{}", request.nested),
                    items,
                    request.page.as_deref(),
                    request.limit,
                    |item| decode(COLLECTION.name, item),
                )
            })
            .await
    }

    async fn create_organization_collection(
        &self,
        context: Ctx,
        request: CreateOrganizationCollectionRequest,
    ) -> Result<Collection, ApiError> {
        self.store()
            .write_async(move |tx| {
                let org = &request.organization_id;
                tx.live(ORGANIZATION.name, org)?;
                require(tx, &context.principal, org, Role::Create)?;
                let body = request.body.as_ref().map(encode).unwrap_or_else(|| json!({}));
                let parent = body.get("parent").and_then(Value::as_str).map(str::to_owned);
                if let Some(parent) = &parent {
                    parent_in(tx, org, parent)?;
                }
                let mut fields = json!({"object": "collection", "organization": org, "title": "Untitled"});
                merge(&mut fields, &body);
                let document = create(tx, COLLECTION, org, &scope_of(org, parent.as_deref()), &fields)?;
                index(tx, org, &document)?;
                out(COLLECTION, document)
            })
            .await
    }
}
