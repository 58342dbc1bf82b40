//! Teams (Part A §2.4, §4.5) of an organization.
//!
//! Stored under kind `team`, scope the organization; memberships under `team-member`, id
//! `<team>/<user>`, scope the team, with `role` `owner` (who created the team) or `member`.
//! `members` and `spaces` are counted when answered (the API has no operation giving a team
//! spaces, so `spaces` is 0); `permissions` say what the caller may do: `admin` for the team's
//! owners and the organization's admins, `view` for every member of the organization.
//! Decisions where the documents are silent: creating a team needs `create`; renaming and
//! deleting need to manage it (owner or organization admin); listed members must be members
//! of the organization (400 naming the first that is not); the member filter (`owner`) keeps
//! the teams that member can manage.

use crate::api::prelude::*;
use crate::domain::kinds::{MEMBER, TEAM, TEAM_MEMBER};
use crate::domain::teams::{manages, with_counts};

fn team_row(tx: &Tx, org: &str, id: &str) -> Result<Row, ApiError> {
    match tx.row(TEAM.name, id)? {
        Some(row) if row.org == org => Ok(row),
        _ => Err(ApiError::not_found(format!("no team {id} in organization {org}"))),
    }
}

fn add_members(tx: &Tx, org: &str, team: &str, members: &[String]) -> Result<(), ApiError> {
    for member in members {
        if tx.row(MEMBER.name, &format!("{org}/{member}"))?.is_none() {
            return Err(ApiError::bad_request(format!("{member} is not a member of organization {org}")));
        }
        let id = format!("{team}/{member}");
        if tx.row(TEAM_MEMBER.name, &id)?.is_none() {
            tx.insert(TEAM_MEMBER.name, &id, org, team, &json!({"user": member, "role": "member"}))?;
        }
    }
    Ok(())
}

impl TeamsApi for Sandbox {
    async fn list_organization_teams(
        &self,
        context: Ctx,
        request: ListOrganizationTeamsRequest,
    ) -> Result<ListPage<Team>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let org = &request.organization_id;
                organization(tx, &context.principal, org, Role::Read)?;
                let title = request.title.as_deref().map(str::to_lowercase);
                let mut teams = Vec::new();
                for team in tx.all(TEAM.name, org)? {
                    if title
                        .as_deref()
                        .is_some_and(|t| !team.data["title"].as_str().unwrap_or_default().to_lowercase().contains(t))
                    {
                        continue;
                    }
                    if let Some(owner) = &request.owner
                        && !manages(tx, owner, &team)?
                    {
                        continue;
                    }
                    teams.push(with_counts(tx, &context.principal, team)?);
                }
                tx.paginate(
                    &format!("teams:{org}:{:?}:{:?}", request.owner, request.title),
                    teams,
                    request.page.as_deref(),
                    request.limit,
                    |item| decode(TEAM.name, item),
                )
            })
            .await
    }

    async fn create_organization_team(
        &self,
        context: Ctx,
        request: CreateOrganizationTeamRequest,
    ) -> Result<Team, ApiError> {
        self.store()
            .write_async(move |tx| {
                let org = &request.organization_id;
                organization(tx, &context.principal, org, Role::Create)?;
                let document = create(tx, TEAM, org, org, &json!({"object": "team", "title": request.body.title}))?;
                let id = document["id"].as_str().unwrap_or_default().to_owned();
                tx.insert(
                    TEAM_MEMBER.name,
                    &format!("{id}/{}", context.principal.id),
                    org,
                    &id,
                    &json!({"user": context.principal.id, "role": "owner"}),
                )?;
                add_members(tx, org, &id, request.body.members.as_deref().unwrap_or_default())?;
                out(TEAM, with_counts(tx, &context.principal, tx.live(TEAM.name, &id)?)?)
            })
            .await
    }

    async fn get_organization_team(&self, context: Ctx, request: GetOrganizationTeamRequest) -> Result<Team, ApiError> {
        self.store()
            .read_async(move |tx| {
                organization(tx, &context.principal, &request.organization_id, Role::Read)?;
                out(
                    TEAM,
                    with_counts(tx, &context.principal, team_row(tx, &request.organization_id, &request.team_id)?)?,
                )
            })
            .await
    }

    async fn delete_organization_team(
        &self,
        context: Ctx,
        request: DeleteOrganizationTeamRequest,
    ) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let Ok(team) = team_row(tx, &request.organization_id, &request.team_id) else { return Ok(()) };
                if !manages(tx, &context.principal.id, &team)? {
                    return Err(ApiError::forbidden(format!("you do not manage team {}", team.id)));
                }
                tx.delete_scope(TEAM_MEMBER.name, &team.id)?;
                tx.delete(TEAM.name, &team.id)?;
                Ok(())
            })
            .await
    }

    async fn update_organization_team(
        &self,
        context: Ctx,
        request: UpdateOrganizationTeamRequest,
    ) -> Result<UpdateOrganizationTeamAnswer, ApiError> {
        self.store()
            .write_async(move |tx| {
                organization(tx, &context.principal, &request.organization_id, Role::Read)?;
                let team = team_row(tx, &request.organization_id, &request.team_id)?;
                if !manages(tx, &context.principal.id, &team)? {
                    return Err(ApiError::forbidden(format!("you do not manage team {}", team.id)));
                }
                touch(tx, TEAM, &team.id, &encode(&request.body))?;
                out(TEAM, with_counts(tx, &context.principal, tx.live(TEAM.name, &team.id)?)?)
            })
            .await
            .map(UpdateOrganizationTeamAnswer::Ok)
    }
}
