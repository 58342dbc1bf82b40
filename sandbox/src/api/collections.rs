//! CollectionsApi: see the module docs of `crate::api`.

use crate::api::prelude::*;

impl CollectionsApi for Sandbox {
    async fn get_collection(&self, context: Ctx, request: GetCollectionRequest) -> Result<Collection, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getCollection"))
    }

    async fn delete_collection(&self, context: Ctx, request: DeleteCollectionRequest) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("deleteCollection"))
    }

    async fn update_collection(&self, context: Ctx, request: UpdateCollectionRequest) -> Result<Collection, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateCollection"))
    }

    async fn list_collection_spaces(
        &self,
        context: Ctx,
        request: ListCollectionSpacesRequest,
    ) -> Result<ListPage<Space>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listCollectionSpaces"))
    }

    async fn move_collection(&self, context: Ctx, request: MoveCollectionRequest) -> Result<Collection, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("moveCollection"))
    }

    async fn transfer_collection(
        &self,
        context: Ctx,
        request: TransferCollectionRequest,
    ) -> Result<Collection, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("transferCollection"))
    }

    async fn list_organization_collections(
        &self,
        context: Ctx,
        request: ListOrganizationCollectionsRequest,
    ) -> Result<ListPage<Collection>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listOrganizationCollections"))
    }

    async fn create_organization_collection(
        &self,
        context: Ctx,
        request: CreateOrganizationCollectionRequest,
    ) -> Result<Collection, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("createOrganizationCollection"))
    }
}
