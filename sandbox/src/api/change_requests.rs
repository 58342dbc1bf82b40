//! ChangeRequestsApi: see the module docs of `crate::api`.

use crate::api::prelude::*;

impl ChangeRequestsApi for Sandbox {
    async fn list_space_change_requests(
        &self,
        context: Ctx,
        request: ListSpaceChangeRequestsRequest,
    ) -> Result<ListPage<ChangeRequest>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listSpaceChangeRequests"))
    }

    async fn create_space_change_request(
        &self,
        context: Ctx,
        request: CreateSpaceChangeRequestRequest,
    ) -> Result<ChangeRequest, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("createSpaceChangeRequest"))
    }

    async fn get_change_request(
        &self,
        context: Ctx,
        request: GetChangeRequestRequest,
    ) -> Result<ChangeRequest, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getChangeRequest"))
    }

    async fn update_change_request(
        &self,
        context: Ctx,
        request: UpdateChangeRequestRequest,
    ) -> Result<ChangeRequest, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateChangeRequest"))
    }

    async fn merge_change_request(
        &self,
        context: Ctx,
        request: MergeChangeRequestRequest,
    ) -> Result<ChangeRequestMergeResult, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("mergeChangeRequest"))
    }

    async fn update_change_request_from_main(
        &self,
        context: Ctx,
        request: UpdateChangeRequestFromMainRequest,
    ) -> Result<ChangeRequestUpdateResult, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateChangeRequestFromMain"))
    }

    async fn get_change_request_pdf(
        &self,
        context: Ctx,
        request: GetChangeRequestPdfRequest,
    ) -> Result<ChangeRequestPdf, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getChangeRequestPdf"))
    }

    async fn list_organization_change_requests(
        &self,
        context: Ctx,
        request: ListOrganizationChangeRequestsRequest,
    ) -> Result<ListPage<ChangeRequest>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listOrganizationChangeRequests"))
    }
}
