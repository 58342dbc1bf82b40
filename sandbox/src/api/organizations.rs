//! Organizations (Part A §2.6, §4.3): the organizations the caller is a member of, their
//! settings, invite links, search over their content, agent instructions.

use crate::api::prelude::*;

/// The kind organizations are stored under (scope: `orgs`).
pub const KIND: &str = "organization";

/// Creates the first organization of a new database and its admin user (and membership).
pub fn create_first(tx: &Tx) -> Result<(String, String), ApiError> {
    let org = tx.new_id("org")?;
    let user = tx.new_id("user")?;
    let now = timestamp(tx.now());
    let organization = json!({
        "object": "organization", "id": org, "title": "Sandbox", "createdAt": now,
        "emailDomains": [], "type": "business", "defaultRole": "read",
        "sso": false, "ai": false, "inviteLinks": true,
        "urls": {"app": format!("https://app.example.com/o/{org}"), "location": format!("/v1/orgs/{org}")},
    });
    tx.insert(KIND, &org, &org, "orgs", &organization)?;
    crate::api::members::add_member(
        tx,
        &org,
        &json!({
            "object": "user", "id": user, "displayName": "Sandbox Admin", "email": "admin@example.com",
        }),
        Some("admin"),
    )?;
    Ok((org, user))
}

/// The organizations `user` is a member of.
fn member_orgs(tx: &Tx, user: &User) -> Result<Vec<Value>, ApiError> {
    let mut orgs = Vec::new();
    for row in tx.all(KIND, "orgs")? {
        if role_of(tx, user, &row.id)?.is_some() {
            orgs.push(row.data);
        }
    }
    Ok(orgs)
}

impl OrganizationsApi for Sandbox {
    async fn list_organizations(
        &self,
        context: Ctx,
        request: ListOrganizationsRequest,
    ) -> Result<ListPage<Organization>, ApiError> {
        self.store().read(|tx| {
            let orgs = member_orgs(tx, &context.principal)?;
            let page =
                tx.paginate(&format!("orgs:{}", context.principal.id), orgs, request.page.as_deref(), request.limit)?;
            Ok(ListPage {
                next: page.next,
                count: page.count,
                items: page.items.into_iter().map(|o| decode(KIND, o)).collect::<Result<_, _>>()?,
            })
        })
    }

    async fn get_organization(&self, context: Ctx, request: GetOrganizationRequest) -> Result<Organization, ApiError> {
        self.store().read(|tx| {
            let org = tx.get::<Organization>(KIND, &request.organization_id)?;
            require(tx, &context.principal, &org.id, Role::Read)?;
            Ok(org)
        })
    }

    async fn update_organization(
        &self,
        context: Ctx,
        request: UpdateOrganizationRequest,
    ) -> Result<Organization, ApiError> {
        self.store().write(|tx| {
            tx.live(KIND, &request.organization_id)?;
            require(tx, &context.principal, &request.organization_id, Role::Admin)?;
            let data = tx.modify(KIND, &request.organization_id, |org| merge(org, &encode(&request.body)))?;
            decode(KIND, data)
        })
    }

    async fn delete_organization_invite_link(
        &self,
        context: Ctx,
        request: DeleteOrganizationInviteLinkRequest,
    ) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("deleteOrganizationInviteLink"))
    }

    async fn join_organization(&self, context: Ctx, request: JoinOrganizationRequest) -> Result<(), ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("joinOrganization"))
    }

    async fn search_organization_content(
        &self,
        context: Ctx,
        request: SearchOrganizationContentRequest,
    ) -> Result<ListPage<OrganizationSearchResult>, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("searchOrganizationContent"))
    }

    async fn get_organization_agent_instructions(
        &self,
        context: Ctx,
        request: GetOrganizationAgentInstructionsRequest,
    ) -> Result<OrganizationAgentInstructions, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("getOrganizationAgentInstructions"))
    }

    async fn update_organization_agent_instructions(
        &self,
        context: Ctx,
        request: UpdateOrganizationAgentInstructionsRequest,
    ) -> Result<OrganizationAgentInstructions, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("updateOrganizationAgentInstructions"))
    }

    async fn list_organizations_by_email_domain(
        &self,
        context: Ctx,
        request: ListOrganizationsByEmailDomainRequest,
    ) -> Result<EmailDomainOrganizations, ApiError> {
        let _ = (context, request);
        Err(ApiError::not_implemented("listOrganizationsByEmailDomain"))
    }
}
