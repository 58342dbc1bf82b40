//! Organizations (Part A §2.6, §4.3): the organizations the caller is a member of, their
//! settings, invite links, search over their content, agent instructions.
//!
//! Decisions where the documents are silent: settings, invite links and agent instructions
//! need `admin`; joining adds the caller with the organization's `defaultRole` when the
//! domain of their email is one of its `emailDomains` (403 otherwise; a member joining again
//! changes nothing); search (SQLite FTS5, each word a prefix) answers the spaces whose title
//! or pages match, each with its matching pages; the email-domain lookup lists every
//! organization accepting that domain, to any authenticated caller (it is how a user finds
//! what to join).

use crate::api::prelude::*;
use crate::domain::kinds::{AGENT_INSTRUCTIONS, INVITE_LINK, ORGANIZATION, ORGANIZATIONS, SITE, SPACE, USER};
use crate::domain::members::add_member;

/// Part A §7: default content naming what the organization does not have is refused (400).
fn check_default_content(tx: &Tx, org: &str, content: &Value) -> Result<(), ApiError> {
    if content.is_null() {
        return Ok(());
    }
    let site = content["site"].as_str().unwrap_or_default();
    match tx.row(SITE.name, site)? {
        Some(row) if row.org == org && row.deleted_at.is_none() && content["type"] == "site" => Ok(()),
        _ => Err(ApiError::bad_request(format!(
            "invalid default content: {content} is not a site of organization {org}"
        ))),
    }
}

/// The organizations `user` is a member of.
fn member_orgs(tx: &Tx, user: &User) -> Result<Vec<Value>, ApiError> {
    let mut orgs = Vec::new();
    for row in tx.all(ORGANIZATION.name, ORGANIZATIONS)? {
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
        self.store()
            .read_async(move |tx| {
                let orgs = member_orgs(tx, &context.principal)?;
                tx.paginate(
                    &format!("orgs:{}", context.principal.id),
                    orgs,
                    request.page.as_deref(),
                    request.limit,
                    |o| decode(ORGANIZATION.name, o),
                )
            })
            .await
    }

    async fn get_organization(&self, context: Ctx, request: GetOrganizationRequest) -> Result<Organization, ApiError> {
        self.store()
            .read_async(move |tx| {
                let org = tx.get::<Organization>(ORGANIZATION.name, &request.organization_id)?;
                require(tx, &context.principal, &org.id, Role::Read)?;
                Ok(org)
            })
            .await
    }

    async fn update_organization(
        &self,
        context: Ctx,
        request: UpdateOrganizationRequest,
    ) -> Result<UpdateOrganizationAnswer, ApiError> {
        self.store()
            .write_async(move |tx| {
                tx.live(ORGANIZATION.name, &request.organization_id)?;
                require(tx, &context.principal, &request.organization_id, Role::Admin)?;
                let body = encode(&request.body);
                check_default_content(tx, &request.organization_id, &body["defaultContent"])?;
                let data = tx.modify(ORGANIZATION.name, &request.organization_id, |org| merge(org, &body))?;
                decode(ORGANIZATION.name, data)
            })
            .await
            .map(UpdateOrganizationAnswer::Ok)
    }

    async fn delete_organization_invite_link(
        &self,
        context: Ctx,
        request: DeleteOrganizationInviteLinkRequest,
    ) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let Some(row) = tx.row(INVITE_LINK.name, &request.invite_id)? else { return Ok(()) };
                if row.org != request.organization_id {
                    return Ok(());
                }
                require(tx, &context.principal, &row.org, Role::Admin)?;
                tx.delete(INVITE_LINK.name, &row.id)?;
                Ok(())
            })
            .await
    }

    async fn join_organization(&self, context: Ctx, request: JoinOrganizationRequest) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let org = tx.live(ORGANIZATION.name, &request.organization_id)?;
                if role_of(tx, &context.principal, &org.id)?.is_some() {
                    return Ok(());
                }
                let user = tx.live(USER.name, &context.principal.id)?.data;
                let domain = user["email"].as_str().and_then(|e| e.rsplit_once('@')).map(|(_, d)| d.to_lowercase());
                let allowed = org.data["emailDomains"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .any(|d| Some(d.to_lowercase()) == domain);
                if !allowed {
                    return Err(ApiError::forbidden(format!(
                        "your email domain is not one organization {} accepts members from",
                        org.id
                    )));
                }
                let role = org.data["defaultRole"].as_str().map(str::to_owned);
                add_member(tx, &org.id, &user, role.as_deref())
            })
            .await
    }

    async fn search_organization_content(
        &self,
        context: Ctx,
        request: SearchOrganizationContentRequest,
    ) -> Result<ListPage<OrganizationSearchResult>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let org = &request.organization_id;
                tx.live(ORGANIZATION.name, org)?;
                require(tx, &context.principal, org, Role::Read)?;
                let mut results: Vec<Value> = Vec::new();
                for (kind, id, title) in tx.search(org, &request.query)? {
                    let (space, page) = match kind.as_str() {
                        "space" => (id.clone(), None),
                        "page" => match id.split_once('/') {
                            Some((space, page)) => (space.to_owned(), Some((page.to_owned(), title.clone()))),
                            None => continue,
                        },
                        _ => continue,
                    };
                    let Ok(space_row) = tx.live(SPACE.name, &space) else { continue };
                    let index = match results.iter().position(|r| r["id"] == space.as_str()) {
                        Some(index) => index,
                        None => {
                            results.push(json!({"id": space, "title": space_row.data["title"], "pages": []}));
                            results.len() - 1
                        }
                    };
                    if let Some((page, title)) = page {
                        let app = format!("https://app.example.com/s/{space}/{page}");
                        if let Some(pages) = results[index]["pages"].as_array_mut() {
                            pages.push(
                                json!({"id": page, "title": title, "path": page, "sections": [], "urls": {"app": app}}),
                            );
                        }
                    }
                }
                tx.paginate(
                    &format!("search:{org}:{}", request.query),
                    results,
                    request.page.as_deref(),
                    request.limit,
                    |item| decode("search result", item),
                )
            })
            .await
    }

    async fn get_organization_agent_instructions(
        &self,
        context: Ctx,
        request: GetOrganizationAgentInstructionsRequest,
    ) -> Result<OrganizationAgentInstructions, ApiError> {
        self.store().read_async(move |tx| {
            let org = &request.organization_id;
            tx.live(ORGANIZATION.name, org)?;
            require(tx, &context.principal, org, Role::Read)?;
            let stored = tx.row(AGENT_INSTRUCTIONS.name, org)?.map(|row| row.data);
            decode("agent instructions", stored.unwrap_or_else(|| {
                json!({"object": "agent-instructions", "instructions": {"object": "document", "nodes": []}, "urls": {"location": format!("{API_URL}/v1/orgs/{org}/agent-instructions")}})
            }))
        }).await
    }

    async fn update_organization_agent_instructions(
        &self,
        context: Ctx,
        request: UpdateOrganizationAgentInstructionsRequest,
    ) -> Result<UpdateOrganizationAgentInstructionsAnswer, ApiError> {
        self.store().write_async(move |tx| {
            let org = &request.organization_id;
            tx.live(ORGANIZATION.name, org)?;
            require(tx, &context.principal, org, Role::Admin)?;
            let document = json!({
                "object": "agent-instructions", "instructions": encode(&request.body.instructions), "updatedAt": timestamp(tx.now()),
                "updatedBy": context.principal.id, "urls": {"location": format!("{API_URL}/v1/orgs/{org}/agent-instructions")},
            });
            if tx.row(AGENT_INSTRUCTIONS.name, org)?.is_some() {
                tx.put(AGENT_INSTRUCTIONS.name, org, &document)?;
            } else {
                tx.insert(AGENT_INSTRUCTIONS.name, org, org, org, &document)?;
            }
            decode("agent instructions", document)
        }).await.map(UpdateOrganizationAgentInstructionsAnswer::Ok)
    }

    async fn list_organizations_by_email_domain(
        &self,
        context: Ctx,
        request: ListOrganizationsByEmailDomainRequest,
    ) -> Result<EmailDomainOrganizations, ApiError> {
        let _ = context;
        self.store()
            .read_async(move |tx| {
                let domain = request.email_domain.to_lowercase();
                let organizations: Vec<Value> = tx
                    .all(ORGANIZATION.name, ORGANIZATIONS)?
                    .into_iter()
                    .map(|row| row.data)
                    .filter(|org| {
                        org["emailDomains"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(Value::as_str)
                            .any(|d| d.to_lowercase() == domain)
                    })
                    .collect();
                decode("organizations", json!({"organizations": organizations}))
            })
            .await
    }
}
