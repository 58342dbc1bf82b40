//! SsoApi: see the module docs of `crate::api`.

use crate::api::prelude::*;

impl SsoApi for Sandbox {
    async fn list_organization_saml_providers(
        &self,
        context: Ctx,
        request: ListOrganizationSamlProvidersRequest,
    ) -> Result<ListPage<SamlProvider>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listOrganizationSamlProviders"))
    }

    async fn create_organization_saml_provider(
        &self,
        context: Ctx,
        request: CreateOrganizationSamlProviderRequest,
    ) -> Result<SamlProvider, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("createOrganizationSamlProvider"))
    }

    async fn get_organization_saml_provider(
        &self,
        context: Ctx,
        request: GetOrganizationSamlProviderRequest,
    ) -> Result<SamlProvider, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getOrganizationSamlProvider"))
    }

    async fn delete_organization_saml_provider(
        &self,
        context: Ctx,
        request: DeleteOrganizationSamlProviderRequest,
    ) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("deleteOrganizationSamlProvider"))
    }

    async fn update_organization_saml_provider(
        &self,
        context: Ctx,
        request: UpdateOrganizationSamlProviderRequest,
    ) -> Result<SamlProvider, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateOrganizationSamlProvider"))
    }

    async fn list_organization_sso_providers(
        &self,
        context: Ctx,
        request: ListOrganizationSsoProvidersRequest,
    ) -> Result<SsoProviderList, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listOrganizationSsoProviders"))
    }
}
