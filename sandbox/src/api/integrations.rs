//! IntegrationsApi: see the module docs of `crate::api`.

use crate::api::prelude::*;

impl IntegrationsApi for Sandbox {
    async fn list_integrations(
        &self,
        context: Ctx,
        request: ListIntegrationsRequest,
    ) -> Result<ListPage<Integration>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listIntegrations"))
    }

    async fn get_integration(&self, context: Ctx, request: GetIntegrationRequest) -> Result<Integration, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getIntegration"))
    }

    async fn publish_integration(
        &self,
        context: Ctx,
        request: PublishIntegrationRequest,
    ) -> Result<Integration, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("publishIntegration"))
    }

    async fn delete_integration(&self, context: Ctx, request: DeleteIntegrationRequest) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("deleteIntegration"))
    }

    async fn list_integration_installations(
        &self,
        context: Ctx,
        request: ListIntegrationInstallationsRequest,
    ) -> Result<ListPage<Installation>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listIntegrationInstallations"))
    }

    async fn install_integration(
        &self,
        context: Ctx,
        request: InstallIntegrationRequest,
    ) -> Result<Installation, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("installIntegration"))
    }

    async fn list_integration_events(
        &self,
        context: Ctx,
        request: ListIntegrationEventsRequest,
    ) -> Result<ListPage<IntegrationEvent>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listIntegrationEvents"))
    }

    async fn get_integration_event(
        &self,
        context: Ctx,
        request: GetIntegrationEventRequest,
    ) -> Result<IntegrationEventDetail, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getIntegrationEvent"))
    }

    async fn list_integration_spaces(
        &self,
        context: Ctx,
        request: ListIntegrationSpacesRequest,
    ) -> Result<ListPage<IntegrationSpaceEntry>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listIntegrationSpaces"))
    }

    async fn list_integration_sites(
        &self,
        context: Ctx,
        request: ListIntegrationSitesRequest,
    ) -> Result<ListPage<IntegrationSiteEntry>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listIntegrationSites"))
    }

    async fn update_integration_dev_mode(
        &self,
        context: Ctx,
        request: UpdateIntegrationDevModeRequest,
    ) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateIntegrationDevMode"))
    }
}
