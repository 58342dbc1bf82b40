//! Single sign-on (Part A §2.10, §3.2, §4.6): the SAML providers of an organization.
//!
//! Stored under kind `saml-provider`, scope the organization, with `defaultTeam` kept as the
//! team's id and answered as the team. §3.2 names one state, `active`, and no transition: a
//! provider is active from creation until deleted. Decisions where the documents are silent:
//! everything here needs `admin` except the sign-in list (`listOrganizationSsoProviders`),
//! which every member may read; a `defaultTeam` must be a team of the organization (400);
//! `startURL` is the sandbox's sign-in address for the provider.

use crate::api::prelude::*;
use crate::domain::kinds::{SAML_PROVIDER, TEAM};
use crate::domain::teams::with_counts;

fn provider_row(tx: &Tx, org: &str, id: &str) -> Result<Row, ApiError> {
    match tx.row(SAML_PROVIDER.name, id)? {
        Some(row) if row.org == org => Ok(row),
        _ => Err(ApiError::not_found(format!("no SAML provider {id} in organization {org}"))),
    }
}

fn check_team(tx: &Tx, org: &str, body: &Value) -> Result<(), ApiError> {
    if let Some(team) = body["defaultTeam"].as_str() {
        match tx.row(TEAM.name, team)? {
            Some(row) if row.org == org => {}
            _ => return Err(ApiError::bad_request(format!("defaultTeam {team} is not a team of organization {org}"))),
        }
    }
    Ok(())
}

/// The provider as answered: its default team embedded.
fn answer(tx: &Tx, user: &User, mut document: Value) -> Result<SamlProvider, ApiError> {
    if let Some(team) = document["defaultTeam"].as_str().map(str::to_owned) {
        match tx.row(TEAM.name, &team)? {
            Some(row) => document["defaultTeam"] = with_counts(tx, user, row)?,
            None => {
                document.as_object_mut().map(|d| d.remove("defaultTeam"));
            }
        }
    }
    out(SAML_PROVIDER, document)
}

impl SsoApi for Sandbox {
    async fn list_organization_saml_providers(
        &self,
        context: Ctx,
        request: ListOrganizationSamlProvidersRequest,
    ) -> Result<ListPage<SamlProvider>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let org = &request.organization_id;
                organization(tx, &context.principal, org, Role::Admin)?;
                let providers: Vec<Value> = tx.all(SAML_PROVIDER.name, org)?.into_iter().map(|r| r.data).collect();
                tx.paginate(&format!("saml:{org}"), providers, request.page.as_deref(), request.limit, |p| {
                    answer(tx, &context.principal, p)
                })
            })
            .await
    }

    async fn create_organization_saml_provider(
        &self,
        context: Ctx,
        request: CreateOrganizationSamlProviderRequest,
    ) -> Result<SamlProvider, ApiError> {
        self.store()
            .write_async(move |tx| {
                let org = &request.organization_id;
                organization(tx, &context.principal, org, Role::Admin)?;
                let body = encode(&request.body);
                check_team(tx, org, &body)?;
                let mut fields = json!({"object": "saml-provider", "status": "active"});
                merge(&mut fields, &body);
                let document = create(tx, SAML_PROVIDER, org, org, &fields)?;
                answer(tx, &context.principal, document)
            })
            .await
    }

    async fn get_organization_saml_provider(
        &self,
        context: Ctx,
        request: GetOrganizationSamlProviderRequest,
    ) -> Result<SamlProvider, ApiError> {
        self.store()
            .read_async(move |tx| {
                organization(tx, &context.principal, &request.organization_id, Role::Admin)?;
                let row = provider_row(tx, &request.organization_id, &request.saml_provider_id)?;
                answer(tx, &context.principal, row.data)
            })
            .await
    }

    async fn delete_organization_saml_provider(
        &self,
        context: Ctx,
        request: DeleteOrganizationSamlProviderRequest,
    ) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let Ok(row) = provider_row(tx, &request.organization_id, &request.saml_provider_id) else {
                    return Ok(());
                };
                require(tx, &context.principal, &row.org, Role::Admin)?;
                tx.delete(SAML_PROVIDER.name, &row.id)?;
                Ok(())
            })
            .await
    }

    async fn update_organization_saml_provider(
        &self,
        context: Ctx,
        request: UpdateOrganizationSamlProviderRequest,
    ) -> Result<UpdateOrganizationSamlProviderAnswer, ApiError> {
        self.store()
            .write_async(move |tx| {
                organization(tx, &context.principal, &request.organization_id, Role::Admin)?;
                let row = provider_row(tx, &request.organization_id, &request.saml_provider_id)?;
                let body = encode(&request.body);
                check_team(tx, &row.org, &body)?;
                let document = touch(tx, SAML_PROVIDER, &row.id, &body)?;
                answer(tx, &context.principal, document)
            })
            .await
            .map(UpdateOrganizationSamlProviderAnswer::Ok)
    }

    async fn list_organization_sso_providers(
        &self,
        context: Ctx,
        request: ListOrganizationSsoProvidersRequest,
    ) -> Result<SsoProviderList, ApiError> {
        self.store().read_async(move |tx| {
            let org = &request.organization_id;
            organization(tx, &context.principal, org, Role::Read)?;
            let items: Vec<Value> = tx
                .all(SAML_PROVIDER.name, org)?
                .into_iter()
                .map(|p| json!({"id": p.id, "label": p.data["label"], "startURL": format!("https://sso.example.com/{org}/{}", p.id)}))
                .collect();
            decode("sso providers", json!({"items": items}))
        }).await
    }
}
