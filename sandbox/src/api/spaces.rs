//! Spaces (Part A §2.8, §3.1, §4.2): a space's lifecycle (active, deleted, restored within 7
//! days), updates, moves, transfers, duplicates and link reports.

use crate::api::prelude::*;

/// The kind spaces are stored under (scope: the parent collection's id, or the organization's
/// id for a space outside collections).
pub const KIND: &str = "space";

impl SpacesApi for Sandbox {
    async fn get_space(&self, context: Ctx, request: GetSpaceRequest) -> Result<Space, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getSpace"))
    }

    async fn delete_space(&self, context: Ctx, request: DeleteSpaceRequest) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("deleteSpace"))
    }

    async fn update_space(&self, context: Ctx, request: UpdateSpaceRequest) -> Result<Space, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateSpace"))
    }

    async fn duplicate_space(&self, context: Ctx, request: DuplicateSpaceRequest) -> Result<Space, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("duplicateSpace"))
    }

    async fn restore_space(&self, context: Ctx, request: RestoreSpaceRequest) -> Result<Space, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("restoreSpace"))
    }

    async fn move_space(&self, context: Ctx, request: MoveSpaceRequest) -> Result<Space, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("moveSpace"))
    }

    async fn transfer_space(&self, context: Ctx, request: TransferSpaceRequest) -> Result<Space, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("transferSpace"))
    }

    async fn list_space_links(&self, context: Ctx, request: ListSpaceLinksRequest) -> Result<LinkReportList, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listSpaceLinks"))
    }
}
