//! SitesApi: see the module docs of `crate::api`.

use crate::api::prelude::*;

impl SitesApi for Sandbox {
    async fn list_organization_sites(
        &self,
        context: Ctx,
        request: ListOrganizationSitesRequest,
    ) -> Result<ListPage<Site>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listOrganizationSites"))
    }

    async fn create_organization_site(
        &self,
        context: Ctx,
        request: CreateOrganizationSiteRequest,
    ) -> Result<Site, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("createOrganizationSite"))
    }

    async fn get_site(&self, context: Ctx, request: GetSiteRequest) -> Result<Site, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getSite"))
    }

    async fn delete_site(&self, context: Ctx, request: DeleteSiteRequest) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("deleteSite"))
    }

    async fn update_site(&self, context: Ctx, request: UpdateSiteRequest) -> Result<Site, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateSite"))
    }

    async fn get_site_adaptive_schema(
        &self,
        context: Ctx,
        request: GetSiteAdaptiveSchemaRequest,
    ) -> Result<SiteAdaptiveSchema, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getSiteAdaptiveSchema"))
    }

    async fn update_site_adaptive_schema(
        &self,
        context: Ctx,
        request: UpdateSiteAdaptiveSchemaRequest,
    ) -> Result<SiteAdaptiveSchema, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateSiteAdaptiveSchema"))
    }

    async fn list_site_template_conditions(
        &self,
        context: Ctx,
        request: ListSiteTemplateConditionsRequest,
    ) -> Result<SiteTemplateConditionList, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listSiteTemplateConditions"))
    }

    async fn get_published_site(
        &self,
        context: Ctx,
        request: GetPublishedSiteRequest,
    ) -> Result<PublishedContentSite, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getPublishedSite"))
    }

    async fn publish_site(&self, context: Ctx, request: PublishSiteRequest) -> Result<Site, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("publishSite"))
    }
}
