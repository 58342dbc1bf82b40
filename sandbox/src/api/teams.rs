//! TeamsApi: see the module docs of `crate::api`.

use crate::api::prelude::*;

impl TeamsApi for Sandbox {
    async fn list_organization_teams(
        &self,
        context: Ctx,
        request: ListOrganizationTeamsRequest,
    ) -> Result<ListPage<Team>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listOrganizationTeams"))
    }

    async fn create_organization_team(
        &self,
        context: Ctx,
        request: CreateOrganizationTeamRequest,
    ) -> Result<Team, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("createOrganizationTeam"))
    }

    async fn get_organization_team(&self, context: Ctx, request: GetOrganizationTeamRequest) -> Result<Team, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getOrganizationTeam"))
    }

    async fn delete_organization_team(
        &self,
        context: Ctx,
        request: DeleteOrganizationTeamRequest,
    ) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("deleteOrganizationTeam"))
    }

    async fn update_organization_team(
        &self,
        context: Ctx,
        request: UpdateOrganizationTeamRequest,
    ) -> Result<Team, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateOrganizationTeam"))
    }
}
