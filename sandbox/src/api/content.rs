//! Space content (Part B §2.6 to §2.9, §4.5, §4.7): revisions, pages, files, backlinks,
//! page links, search, templates; change-request content reads the change request's own
//! revision.
//!
//! A revision is one document (kind `revision`, scope the space's id) holding its `pages`
//! and `files` inline, so a revision is immutable once superseded and a change request's
//! revision is a copy of the space's. Decisions where the documents are silent: without
//! `format` (or with `markdown`) a page answers `markdown`, with `format=document` it answers
//! `document` instead (gap `content-format-values`); `metadata`, `computed` and `evaluated`
//! change nothing here (pages have no computed parts in the sandbox); a file's backlinks are
//! the pages whose Markdown names the file's id; a page's links are the Markdown links in it,
//! `ok` when absolute (`http://`, `https://`) and `broken` otherwise; search matches pages
//! whose title or Markdown contains every word of the query (case-insensitive); applying a
//! template adds a page titled after the template to the space's current revision.

use crate::api::prelude::*;
use crate::domain::change_requests::change_request;
use crate::domain::content::{current_revision, links_of, pages_of};
use crate::domain::kinds::{FILE, PAGE, REVISION, SPACE};
use crate::domain::spaces::link_report;

/// Where tests and tools add content (the API has no page or file upload operation).
pub use crate::domain::content::{seed_file, seed_page};

/// A page as answered in `format`.
fn formatted(mut page: Value, format: Option<&str>) -> Value {
    if format == Some("document") {
        let markdown = page["markdown"].as_str().unwrap_or_default().to_owned();
        let nodes: Vec<Value> = markdown
            .split("\n\n")
            .filter(|block| !block.trim().is_empty())
            .map(|block| json!({"object": "block", "type": "paragraph", "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": block.trim()}]}]}))
            .collect();
        page["document"] = json!({"object": "document", "nodes": nodes});
        page.as_object_mut().map(|p| p.remove("markdown"));
    }
    page
}

fn page_in(revision: &Value, id: &str) -> Result<Value, ApiError> {
    pages_of(revision)
        .into_iter()
        .find(|p| p["id"] == id)
        .ok_or_else(|| ApiError::not_found(format!("no page with id {id}")))
}

fn file_in(revision: &Value, id: &str) -> Result<Value, ApiError> {
    revision["files"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|f| f["id"] == id)
        .cloned()
        .ok_or_else(|| ApiError::not_found(format!("no file with id {id}")))
}

/// The backlinks of `file`: one `link` (a backlink naming the organization, space and
/// version context) per page of the revision naming the file.
fn backlinks(
    tx: &Tx,
    revision: &Value,
    file: &str,
    link: Value,
    list: &str,
    (page, limit): (Option<&str>, i64),
) -> Result<ListPage<Backlink>, ApiError> {
    file_in(revision, file)?;
    let mut link = link;
    link["kind"] = json!("file");
    link["file"] = json!(file);
    let items: Vec<Value> = pages_of(revision)
        .iter()
        .filter(|p| p["markdown"].as_str().is_some_and(|m| m.contains(file)))
        .map(|_| link.clone())
        .collect();
    tx.paginate(list, items, page, limit, |item| decode("backlink", item))
}

fn files_page(
    tx: &Tx,
    revision: &Value,
    list: &str,
    page: Option<&str>,
    limit: i64,
) -> Result<ListPage<File>, ApiError> {
    let files: Vec<Value> = revision["files"].as_array().cloned().unwrap_or_default();
    tx.paginate(list, files, page, limit, |item| decode(FILE.name, item))
}

fn page_list(revision: &Value) -> Result<PageList, ApiError> {
    decode("page list", json!({"pages": revision["pages"].clone()}))
}

/// The space (readable by the user) and its current revision.
fn space_content(tx: &Tx, user: &User, space: &str) -> Result<(Row, Value), ApiError> {
    let row = found(tx, SPACE, space, user, Role::Read)?;
    let revision = current_revision(tx, space)?;
    Ok((row, revision))
}

/// The change request (readable by the user) and its revision.
fn request_content(tx: &Tx, user: &User, space: &str, request: &str) -> Result<(Row, Value), ApiError> {
    let row = change_request(tx, user, space, request, Role::Read)?;
    let revision = tx.live(REVISION.name, row.data["revision"].as_str().unwrap_or_default())?.data;
    Ok((row, revision))
}

fn revision_out(revision: Value) -> Result<Revision, ApiError> {
    decode(REVISION.name, revision)
}

impl ContentApi for Sandbox {
    async fn search_space_content(
        &self,
        context: Ctx,
        request: SearchSpaceContentRequest,
    ) -> Result<ListPage<SearchResult>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let (space, revision) = space_content(tx, &context.principal, &request.space_id)?;
                let words: Vec<String> = request.query.to_lowercase().split_whitespace().map(str::to_owned).collect();
                let hits: Vec<Value> = pages_of(&revision)
                    .into_iter()
                    .filter(|p| {
                        let text = format!(
                            "{} {}",
                            p["title"].as_str().unwrap_or_default(),
                            p["markdown"].as_str().unwrap_or_default()
                        )
                        .to_lowercase();
                        !words.is_empty() && words.iter().all(|w| text.contains(w.as_str()))
                    })
                    .map(|p| json!({"id": p["id"], "title": p["title"], "path": p["path"], "sections": []}))
                    .collect();
                tx.paginate(
                    &format!("search:{}:{}", space.id, request.query),
                    hits,
                    request.page.as_deref(),
                    request.limit,
                    |item| decode("search result", item),
                )
            })
            .await
    }

    async fn get_space_content(&self, context: Ctx, request: GetSpaceContentRequest) -> Result<Revision, ApiError> {
        self.store()
            .read_async(move |tx| revision_out(space_content(tx, &context.principal, &request.space_id)?.1))
            .await
    }

    async fn apply_space_content_template(
        &self,
        context: Ctx,
        request: ApplySpaceContentTemplateRequest,
    ) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let space = found(tx, SPACE, &request.space_id, &context.principal, Role::Edit)?;
                if space.data["editMode"] == "locked" {
                    return Err(ApiError::bad_request(format!(
                        "space {} is locked: its content cannot be edited",
                        space.id
                    )));
                }
                seed_page(tx, &space.id, &format!("From template {}", request.body.id), "")?;
                Ok(())
            })
            .await
    }

    async fn list_space_pages(&self, context: Ctx, request: ListSpacePagesRequest) -> Result<PageList, ApiError> {
        self.store().read_async(move |tx| page_list(&space_content(tx, &context.principal, &request.space_id)?.1)).await
    }

    async fn list_space_files(&self, context: Ctx, request: ListSpaceFilesRequest) -> Result<ListPage<File>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let (space, revision) = space_content(tx, &context.principal, &request.space_id)?;
                files_page(tx, &revision, &format!("files:{}", space.id), request.page.as_deref(), request.limit)
            })
            .await
    }

    async fn get_space_file(&self, context: Ctx, request: GetSpaceFileRequest) -> Result<File, ApiError> {
        self.store()
            .read_async(move |tx| {
                decode(
                    FILE.name,
                    file_in(&space_content(tx, &context.principal, &request.space_id)?.1, &request.file_id)?,
                )
            })
            .await
    }

    async fn list_space_file_backlinks(
        &self,
        context: Ctx,
        request: ListSpaceFileBacklinksRequest,
    ) -> Result<ListPage<Backlink>, ApiError> {
        self.store().read_async(move |tx| {
            let (space, revision) = space_content(tx, &context.principal, &request.space_id)?;
            let link = json!({"organization": space.org, "space": space.id, "versionContext": {"type": "revision", "revision": revision["id"]}});
            backlinks(tx, &revision, &request.file_id, link, &format!("backlinks:{}:{}", space.id, request.file_id), (request.page.as_deref(), request.limit))
        }).await
    }

    async fn get_space_page(&self, context: Ctx, request: GetSpacePageRequest) -> Result<Page, ApiError> {
        self.store()
            .read_async(move |tx| {
                let revision = space_content(tx, &context.principal, &request.space_id)?.1;
                decode(PAGE.name, formatted(page_in(&revision, &request.page_id)?, request.format.as_deref()))
            })
            .await
    }

    async fn list_space_page_links(
        &self,
        context: Ctx,
        request: ListSpacePageLinksRequest,
    ) -> Result<LinkReportList, ApiError> {
        self.store()
            .read_async(move |tx| {
                let (space, revision) = space_content(tx, &context.principal, &request.space_id)?;
                let links = links_of(&page_in(&revision, &request.page_id)?);
                link_report(
                    tx,
                    &format!("{}:{}", space.id, request.page_id),
                    links,
                    request.status.as_ref().map(LinkStatus::as_str),
                    request.page.as_deref(),
                    request.limit,
                )
            })
            .await
    }

    async fn get_change_request_content(
        &self,
        context: Ctx,
        request: GetChangeRequestContentRequest,
    ) -> Result<Revision, ApiError> {
        self.store()
            .read_async(move |tx| {
                revision_out(request_content(tx, &context.principal, &request.space_id, &request.change_request_id)?.1)
            })
            .await
    }

    async fn list_change_request_pages(
        &self,
        context: Ctx,
        request: ListChangeRequestPagesRequest,
    ) -> Result<PageList, ApiError> {
        self.store()
            .read_async(move |tx| {
                page_list(&request_content(tx, &context.principal, &request.space_id, &request.change_request_id)?.1)
            })
            .await
    }

    async fn list_change_request_files(
        &self,
        context: Ctx,
        request: ListChangeRequestFilesRequest,
    ) -> Result<ListPage<File>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let (cr, revision) =
                    request_content(tx, &context.principal, &request.space_id, &request.change_request_id)?;
                files_page(tx, &revision, &format!("files:{}", cr.id), request.page.as_deref(), request.limit)
            })
            .await
    }

    async fn get_change_request_file(
        &self,
        context: Ctx,
        request: GetChangeRequestFileRequest,
    ) -> Result<File, ApiError> {
        self.store()
            .read_async(move |tx| {
                decode(
                    "file",
                    file_in(
                        &request_content(tx, &context.principal, &request.space_id, &request.change_request_id)?.1,
                        &request.file_id,
                    )?,
                )
            })
            .await
    }

    async fn list_change_request_file_backlinks(
        &self,
        context: Ctx,
        request: ListChangeRequestFileBacklinksRequest,
    ) -> Result<ListPage<Backlink>, ApiError> {
        self.store().read_async(move |tx| {
            let (cr, revision) = request_content(tx, &context.principal, &request.space_id, &request.change_request_id)?;
            let link = json!({"organization": cr.org, "space": request.space_id, "versionContext": {"type": "change-request", "changeRequest": cr.id}});
            backlinks(tx, &revision, &request.file_id, link, &format!("backlinks:{}:{}", cr.id, request.file_id), (request.page.as_deref(), request.limit))
        }).await
    }

    async fn get_change_request_page(
        &self,
        context: Ctx,
        request: GetChangeRequestPageRequest,
    ) -> Result<Page, ApiError> {
        self.store()
            .read_async(move |tx| {
                let revision =
                    request_content(tx, &context.principal, &request.space_id, &request.change_request_id)?.1;
                decode(PAGE.name, formatted(page_in(&revision, &request.page_id)?, request.format.as_deref()))
            })
            .await
    }

    async fn list_change_request_page_links(
        &self,
        context: Ctx,
        request: ListChangeRequestPageLinksRequest,
    ) -> Result<LinkReportList, ApiError> {
        self.store()
            .read_async(move |tx| {
                let (cr, revision) =
                    request_content(tx, &context.principal, &request.space_id, &request.change_request_id)?;
                let links = links_of(&page_in(&revision, &request.page_id)?);
                link_report(
                    tx,
                    &format!("{}:{}", cr.id, request.page_id),
                    links,
                    request.status.as_ref().map(LinkStatus::as_str),
                    request.page.as_deref(),
                    request.limit,
                )
            })
            .await
    }
}
