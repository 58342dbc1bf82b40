//! TranslationsApi: see the module docs of `crate::api`.

use crate::api::prelude::*;

impl TranslationsApi for Sandbox {
    async fn list_organization_translations(
        &self,
        context: Ctx,
        request: ListOrganizationTranslationsRequest,
    ) -> Result<ListPage<Translation>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listOrganizationTranslations"))
    }

    async fn create_organization_translation(
        &self,
        context: Ctx,
        request: CreateOrganizationTranslationRequest,
    ) -> Result<Translation, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("createOrganizationTranslation"))
    }

    async fn get_translation(&self, context: Ctx, request: GetTranslationRequest) -> Result<Translation, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getTranslation"))
    }

    async fn update_translation_instructions(
        &self,
        context: Ctx,
        request: UpdateTranslationInstructionsRequest,
    ) -> Result<Translation, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateTranslationInstructions"))
    }

    async fn delete_translation(&self, context: Ctx, request: DeleteTranslationRequest) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("deleteTranslation"))
    }

    async fn run_translation(&self, context: Ctx, request: RunTranslationRequest) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("runTranslation"))
    }
}
