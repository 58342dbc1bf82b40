//! Members (Part A §2.5, §4.4): the members of an organization, their roles, spaces and teams.
//!
//! Stored under kind `member`, id `<org>/<user>`, scope the organization; the user is
//! embedded as the API shows it. Decisions where the documents are silent: changing roles,
//! removing others and SSO need `admin`; a member may remove themselves; no change may leave
//! an organization without an admin (400); removing a member removes their team memberships;
//! a member's spaces are every space of the organization with the member's role as
//! permission (none for a guest); `ping` records `lastSeenAt` and answers unsigned claims
//! (the sandbox has no signing key).

use crate::api::prelude::*;
use crate::domain::kinds::{MEMBER, ORGANIZATION, SPACE, TEAM, TEAM_MEMBER};
use crate::domain::teams::with_counts;

/// Where the bootstrap, the demo data and tests make members.
pub use crate::domain::members::add_member;

/// A member row of `org`, or a 404 naming the user.
fn member_row(tx: &Tx, org: &str, user: &str) -> Result<Row, ApiError> {
    tx.live(MEMBER.name, &format!("{org}/{user}"))
        .map_err(|_| ApiError::not_found(format!("user {user} is not a member of organization {org}")))
}

/// Refuses a change that would leave the organization with no admin.
fn keep_an_admin(tx: &Tx, org: &str, leaving: &str) -> Result<(), ApiError> {
    let admins =
        tx.all(MEMBER.name, org)?.into_iter().filter(|m| m.data["role"] == "admin" && m.data["id"] != leaving).count();
    if admins == 0 {
        return Err(ApiError::bad_request(format!("organization {org} must keep at least one admin")));
    }
    Ok(())
}

impl MembersApi for Sandbox {
    async fn list_organization_members(
        &self,
        context: Ctx,
        request: ListOrganizationMembersRequest,
    ) -> Result<ListPage<Member>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let org = &request.organization_id;
                organization(tx, &context.principal, org, Role::Read)?;
                let key = match request.sort {
                    MemberSort::LastSeenAt => "lastSeenAt",
                    _ => "joinedAt",
                };
                let search = request.search.as_deref().map(str::to_lowercase);
                let mut members: Vec<Value> = tx
                    .all(MEMBER.name, org)?
                    .into_iter()
                    .map(|row| row.data)
                    .filter(|m| request.role.as_ref().is_none_or(|role| m["role"] == role.as_str()))
                    .filter(|m| {
                        search.as_deref().is_none_or(|s| {
                            [&m["user"]["displayName"], &m["user"]["email"]]
                                .iter()
                                .any(|f| f.as_str().is_some_and(|f| f.to_lowercase().contains(s)))
                        })
                    })
                    .filter(|m| key != "lastSeenAt" || m.get("lastSeenAt").is_some())
                    .collect();
                members.sort_by(|a, b| {
                    a[key].as_str().cmp(&b[key].as_str()).then(a["id"].as_str().cmp(&b["id"].as_str()))
                });
                if !matches!(request.order, MemberOrder::Asc) {
                    members.reverse();
                }
                let list =
                    format!("members:{org}:{}:{:?}:{:?}:{key}", request.order.as_str(), request.role, request.search);
                tx.paginate(&list, members, request.page.as_deref(), request.limit, |item| decode(MEMBER.name, item))
            })
            .await
    }

    async fn get_organization_member(
        &self,
        context: Ctx,
        request: GetOrganizationMemberRequest,
    ) -> Result<Member, ApiError> {
        self.store()
            .read_async(move |tx| {
                organization(tx, &context.principal, &request.organization_id, Role::Read)?;
                decode(MEMBER.name, member_row(tx, &request.organization_id, &request.user_id)?.data)
            })
            .await
    }

    async fn delete_organization_member(
        &self,
        context: Ctx,
        request: DeleteOrganizationMemberRequest,
    ) -> Result<(), ApiError> {
        self.store()
            .write_async(move |tx| {
                let org = &request.organization_id;
                let Ok(row) = member_row(tx, org, &request.user_id) else { return Ok(()) };
                if request.user_id != context.principal.id {
                    require(tx, &context.principal, org, Role::Admin)?;
                }
                keep_an_admin(tx, org, &request.user_id)?;
                for team in tx.all(TEAM.name, org)? {
                    tx.delete(TEAM_MEMBER.name, &format!("{}/{}", team.id, request.user_id))?;
                }
                tx.delete(MEMBER.name, &row.id)?;
                Ok(())
            })
            .await
    }

    async fn update_organization_member(
        &self,
        context: Ctx,
        request: UpdateOrganizationMemberRequest,
    ) -> Result<Member, ApiError> {
        self.store()
            .write_async(move |tx| {
                let org = &request.organization_id;
                organization(tx, &context.principal, org, Role::Admin)?;
                let row = member_row(tx, org, &request.user_id)?;
                let role = match &request.body.role {
                    Patch::Absent => return decode(MEMBER.name, row.data),
                    Patch::Null => Value::Null,
                    Patch::Value(role) => json!(role.as_str()),
                };
                if role != "admin" {
                    keep_an_admin(tx, org, &request.user_id)?;
                }
                decode(MEMBER.name, tx.modify(MEMBER.name, &row.id, |m| m["role"] = role)?)
            })
            .await
    }

    async fn ping_organization(
        &self,
        context: Ctx,
        request: PingOrganizationRequest,
    ) -> Result<PingOrganizationResponse, ApiError> {
        self.store()
            .write_async(move |tx| {
                let org = &request.organization_id;
                tx.live(ORGANIZATION.name, org)?;
                let row = member_row(tx, org, &context.principal.id)
                    .map_err(|_| ApiError::forbidden(format!("you are not a member of organization {org}")))?;
                let now = timestamp(tx.now());
                tx.modify(MEMBER.name, &row.id, |m| m["lastSeenAt"] = now)?;
                let claims = format!(
                    "eyJhbGciOiJub25lIn0.{}.",
                    hex(&format!("{{\"sub\":\"{}\",\"org\":\"{org}\"}}", context.principal.id))
                );
                decode("ping", json!({"serviceVisitorClaims": claims}))
            })
            .await
    }

    async fn set_organization_member_sso(
        &self,
        context: Ctx,
        request: SetOrganizationMemberSsoRequest,
    ) -> Result<Member, ApiError> {
        self.store()
            .write_async(move |tx| {
                organization(tx, &context.principal, &request.organization_id, Role::Admin)?;
                let row = member_row(tx, &request.organization_id, &request.user_id)?;
                decode(MEMBER.name, tx.modify(MEMBER.name, &row.id, |m| m["sso"] = json!(true))?)
            })
            .await
    }

    async fn list_organization_member_spaces(
        &self,
        context: Ctx,
        request: ListOrganizationMemberSpacesRequest,
    ) -> Result<ListPage<MemberSpace>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let org = &request.organization_id;
                organization(tx, &context.principal, org, Role::Read)?;
                let member = member_row(tx, org, &request.user_id)?;
                let permission = member.data["role"].clone();
                let mut spaces: Vec<Value> = if permission.is_null() {
                    Vec::new()
                } else {
                    tx.all_in_org(SPACE.name, org)?
                        .into_iter()
                        .map(|s| json!({"permission": permission, "space": s.data}))
                        .collect()
                };
                spaces.sort_by(|a, b| {
                    a["space"]["createdAt"]
                        .as_str()
                        .cmp(&b["space"]["createdAt"].as_str())
                        .then(a["space"]["id"].as_str().cmp(&b["space"]["id"].as_str()))
                });
                if !matches!(request.order, MemberOrder::Asc) {
                    spaces.reverse();
                }
                tx.paginate(
                    &format!("member-spaces:{org}:{}:{}", request.user_id, request.order.as_str()),
                    spaces,
                    request.page.as_deref(),
                    request.limit,
                    |item| decode(MEMBER.name, item),
                )
            })
            .await
    }

    async fn list_organization_member_teams(
        &self,
        context: Ctx,
        request: ListOrganizationMemberTeamsRequest,
    ) -> Result<ListPage<MemberTeam>, ApiError> {
        self.store()
            .read_async(move |tx| {
                let org = &request.organization_id;
                organization(tx, &context.principal, org, Role::Read)?;
                member_row(tx, org, &request.user_id)?;
                let title = request.title.as_deref().map(str::to_lowercase);
                let mut teams = Vec::new();
                for team in tx.all(TEAM.name, org)? {
                    let Some(membership) = tx.row(TEAM_MEMBER.name, &format!("{}/{}", team.id, request.user_id))?
                    else {
                        continue;
                    };
                    if title
                        .as_deref()
                        .is_some_and(|t| !team.data["title"].as_str().unwrap_or_default().to_lowercase().contains(t))
                    {
                        continue;
                    }
                    let team = with_counts(tx, &context.principal, team)?;
                    teams.push(json!({"team": team, "member": {"role": membership.data["role"]}}));
                }
                tx.paginate(
                    &format!("member-teams:{org}:{}:{:?}", request.user_id, request.title),
                    teams,
                    request.page.as_deref(),
                    request.limit,
                    |item| decode(MEMBER.name, item),
                )
            })
            .await
    }
}

/// Lowercase hex of a string's bytes (the sandbox's unsigned claims).
fn hex(text: &str) -> String {
    text.bytes().map(|b| format!("{b:02x}")).collect()
}
