//! Members (Part A §2.5, §4.4): the members of an organization, their roles, spaces and teams.

use crate::api::prelude::*;

/// Stores `user` (a `User` JSON, kept if it exists) and makes them a member of `org` with
/// `role` (`None`: a guest).
pub fn add_member(tx: &Tx, org: &str, user: &Value, role: Option<&str>) -> Result<(), ApiError> {
    let id = user["id"].as_str().unwrap_or_default().to_owned();
    if tx.row("user", &id)?.is_none() {
        tx.insert("user", &id, org, "users", user)?;
    }
    let member = json!({
        "object": "member", "id": id, "role": role, "user": user,
        "disabled": false, "joinedAt": timestamp(tx.now()), "sso": false,
    });
    tx.insert(member_kind(), &format!("{org}/{id}"), org, org, &member)
}

impl MembersApi for Sandbox {
    async fn list_organization_members(
        &self,
        context: Ctx,
        request: ListOrganizationMembersRequest,
    ) -> Result<ListPage<Member>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listOrganizationMembers"))
    }

    async fn get_organization_member(
        &self,
        context: Ctx,
        request: GetOrganizationMemberRequest,
    ) -> Result<Member, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getOrganizationMember"))
    }

    async fn delete_organization_member(
        &self,
        context: Ctx,
        request: DeleteOrganizationMemberRequest,
    ) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("deleteOrganizationMember"))
    }

    async fn update_organization_member(
        &self,
        context: Ctx,
        request: UpdateOrganizationMemberRequest,
    ) -> Result<Member, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateOrganizationMember"))
    }

    async fn ping_organization(
        &self,
        context: Ctx,
        request: PingOrganizationRequest,
    ) -> Result<PingOrganizationResponse, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("pingOrganization"))
    }

    async fn set_organization_member_sso(
        &self,
        context: Ctx,
        request: SetOrganizationMemberSsoRequest,
    ) -> Result<Member, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("setOrganizationMemberSso"))
    }

    async fn list_organization_member_spaces(
        &self,
        context: Ctx,
        request: ListOrganizationMemberSpacesRequest,
    ) -> Result<ListPage<MemberSpace>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listOrganizationMemberSpaces"))
    }

    async fn list_organization_member_teams(
        &self,
        context: Ctx,
        request: ListOrganizationMemberTeamsRequest,
    ) -> Result<ListPage<MemberTeam>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listOrganizationMemberTeams"))
    }
}
