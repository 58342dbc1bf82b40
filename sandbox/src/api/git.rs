//! GitApi: see the module docs of `crate::api`.

use crate::api::prelude::*;

impl GitApi for Sandbox {
    async fn import_space_from_git(&self, context: Ctx, request: ImportSpaceFromGitRequest) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("importSpaceFromGit"))
    }

    async fn export_space_to_git(&self, context: Ctx, request: ExportSpaceToGitRequest) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("exportSpaceToGit"))
    }

    async fn get_space_git_info(
        &self,
        context: Ctx,
        request: GetSpaceGitInfoRequest,
    ) -> Result<SpaceGitInfo, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getSpaceGitInfo"))
    }

    async fn delete_space_git_legacy_installation(
        &self,
        context: Ctx,
        request: DeleteSpaceGitLegacyInstallationRequest,
    ) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("deleteSpaceGitLegacyInstallation"))
    }
}
