//! Space content (Part B §2.6 to §2.9, §4.5): revisions, pages, files, backlinks, search.

use crate::api::prelude::*;

/// The kind revisions are stored under (scope: the space's id).
pub const REVISION: &str = "revision";

/// Creates the first (empty) revision of a new space and answers its id: the space's
/// `revision`. Called by the spaces module when a space is created.
pub fn first_revision(tx: &Tx, org: &str, space: &str) -> Result<String, ApiError> {
    let id = tx.new_id("rev")?;
    let revision = json!({
        "object": "revision", "id": id, "type": "edits", "parents": [], "pages": [], "files": [],
        "createdAt": timestamp(tx.now()),
    });
    tx.insert(REVISION, &id, org, space, &revision)?;
    Ok(id)
}

/// Copies the content of space `from` (its current revision's pages and files) into the
/// new space `to`, whose first revision is `revision`. Called by `duplicateSpace`.
pub fn copy_space_content(tx: &Tx, from: &str, to: &str, revision: &str) -> Result<(), ApiError> {
    let _ = (tx, from, to, revision);
    Ok(())
}

impl ContentApi for Sandbox {
    async fn search_space_content(
        &self,
        context: Ctx,
        request: SearchSpaceContentRequest,
    ) -> Result<ListPage<SearchResult>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("searchSpaceContent"))
    }

    async fn get_space_content(&self, context: Ctx, request: GetSpaceContentRequest) -> Result<Revision, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getSpaceContent"))
    }

    async fn apply_space_content_template(
        &self,
        context: Ctx,
        request: ApplySpaceContentTemplateRequest,
    ) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("applySpaceContentTemplate"))
    }

    async fn list_space_pages(&self, context: Ctx, request: ListSpacePagesRequest) -> Result<PageList, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listSpacePages"))
    }

    async fn list_space_files(&self, context: Ctx, request: ListSpaceFilesRequest) -> Result<ListPage<File>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listSpaceFiles"))
    }

    async fn get_space_file(&self, context: Ctx, request: GetSpaceFileRequest) -> Result<File, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getSpaceFile"))
    }

    async fn list_space_file_backlinks(
        &self,
        context: Ctx,
        request: ListSpaceFileBacklinksRequest,
    ) -> Result<ListPage<Backlink>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listSpaceFileBacklinks"))
    }

    async fn get_space_page(&self, context: Ctx, request: GetSpacePageRequest) -> Result<Page, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getSpacePage"))
    }

    async fn list_space_page_links(
        &self,
        context: Ctx,
        request: ListSpacePageLinksRequest,
    ) -> Result<LinkReportList, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listSpacePageLinks"))
    }

    async fn get_change_request_content(
        &self,
        context: Ctx,
        request: GetChangeRequestContentRequest,
    ) -> Result<Revision, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getChangeRequestContent"))
    }

    async fn list_change_request_pages(
        &self,
        context: Ctx,
        request: ListChangeRequestPagesRequest,
    ) -> Result<PageList, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listChangeRequestPages"))
    }

    async fn list_change_request_files(
        &self,
        context: Ctx,
        request: ListChangeRequestFilesRequest,
    ) -> Result<ListPage<File>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listChangeRequestFiles"))
    }

    async fn get_change_request_file(
        &self,
        context: Ctx,
        request: GetChangeRequestFileRequest,
    ) -> Result<File, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getChangeRequestFile"))
    }

    async fn list_change_request_file_backlinks(
        &self,
        context: Ctx,
        request: ListChangeRequestFileBacklinksRequest,
    ) -> Result<ListPage<Backlink>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listChangeRequestFileBacklinks"))
    }

    async fn get_change_request_page(
        &self,
        context: Ctx,
        request: GetChangeRequestPageRequest,
    ) -> Result<Page, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getChangeRequestPage"))
    }

    async fn list_change_request_page_links(
        &self,
        context: Ctx,
        request: ListChangeRequestPageLinksRequest,
    ) -> Result<LinkReportList, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listChangeRequestPageLinks"))
    }
}
