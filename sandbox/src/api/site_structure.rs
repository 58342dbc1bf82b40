//! SiteStructureApi: see the module docs of `crate::api`.

use crate::api::prelude::*;

impl SiteStructureApi for Sandbox {
    async fn list_site_sections(
        &self,
        context: Ctx,
        request: ListSiteSectionsRequest,
    ) -> Result<ListPage<SiteSectionOrGroup>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listSiteSections"))
    }

    async fn create_site_section(
        &self,
        context: Ctx,
        request: CreateSiteSectionRequest,
    ) -> Result<SiteSection, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("createSiteSection"))
    }

    async fn delete_site_section(&self, context: Ctx, request: DeleteSiteSectionRequest) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("deleteSiteSection"))
    }

    async fn update_site_section(
        &self,
        context: Ctx,
        request: UpdateSiteSectionRequest,
    ) -> Result<SiteSection, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateSiteSection"))
    }

    async fn move_site_section(&self, context: Ctx, request: MoveSiteSectionRequest) -> Result<SiteSection, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("moveSiteSection"))
    }

    async fn list_site_spaces(
        &self,
        context: Ctx,
        request: ListSiteSpacesRequest,
    ) -> Result<ListPage<SiteSpace>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listSiteSpaces"))
    }

    async fn create_site_space(&self, context: Ctx, request: CreateSiteSpaceRequest) -> Result<SiteSpace, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("createSiteSpace"))
    }

    async fn delete_site_space(&self, context: Ctx, request: DeleteSiteSpaceRequest) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("deleteSiteSpace"))
    }

    async fn update_site_space(&self, context: Ctx, request: UpdateSiteSpaceRequest) -> Result<SiteSpace, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateSiteSpace"))
    }

    async fn move_site_space(&self, context: Ctx, request: MoveSiteSpaceRequest) -> Result<SiteSpace, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("moveSiteSpace"))
    }

    async fn list_site_section_groups(
        &self,
        context: Ctx,
        request: ListSiteSectionGroupsRequest,
    ) -> Result<ListPage<SiteSectionGroup>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listSiteSectionGroups"))
    }

    async fn create_site_section_group(
        &self,
        context: Ctx,
        request: CreateSiteSectionGroupRequest,
    ) -> Result<SiteSectionGroup, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("createSiteSectionGroup"))
    }

    async fn delete_site_section_group(
        &self,
        context: Ctx,
        request: DeleteSiteSectionGroupRequest,
    ) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("deleteSiteSectionGroup"))
    }

    async fn update_site_section_group(
        &self,
        context: Ctx,
        request: UpdateSiteSectionGroupRequest,
    ) -> Result<SiteSectionGroup, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateSiteSectionGroup"))
    }

    async fn add_site_section_group_section(
        &self,
        context: Ctx,
        request: AddSiteSectionGroupSectionRequest,
    ) -> Result<SiteSectionGroup, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("addSiteSectionGroupSection"))
    }

    async fn remove_site_section_group_section(
        &self,
        context: Ctx,
        request: RemoveSiteSectionGroupSectionRequest,
    ) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("removeSiteSectionGroupSection"))
    }

    async fn move_site_section_group(
        &self,
        context: Ctx,
        request: MoveSiteSectionGroupRequest,
    ) -> Result<SiteSectionGroup, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("moveSiteSectionGroup"))
    }
}
