//! OpenapiSpecsApi: see the module docs of `crate::api`.

use crate::api::prelude::*;

impl OpenapiSpecsApi for Sandbox {
    async fn list_organization_open_api_specs(
        &self,
        context: Ctx,
        request: ListOrganizationOpenApiSpecsRequest,
    ) -> Result<ListPage<OpenApiSpec>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listOrganizationOpenApiSpecs"))
    }

    async fn create_organization_open_api_spec(
        &self,
        context: Ctx,
        request: CreateOrganizationOpenApiSpecRequest,
    ) -> Result<OpenApiSpec, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("createOrganizationOpenApiSpec"))
    }

    async fn get_open_api_spec(&self, context: Ctx, request: GetOpenApiSpecRequest) -> Result<OpenApiSpec, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getOpenApiSpec"))
    }

    async fn create_or_update_open_api_spec(
        &self,
        context: Ctx,
        request: CreateOrUpdateOpenApiSpecRequest,
    ) -> Result<OpenApiSpec, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("createOrUpdateOpenApiSpec"))
    }

    async fn delete_open_api_spec(&self, context: Ctx, request: DeleteOpenApiSpecRequest) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("deleteOpenApiSpec"))
    }

    async fn update_open_api_spec(
        &self,
        context: Ctx,
        request: UpdateOpenApiSpecRequest,
    ) -> Result<OpenApiSpec, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateOpenApiSpec"))
    }
}
