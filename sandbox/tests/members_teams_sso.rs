//! Organizations, members, teams and SAML providers through the generated client, and the
//! failure cases of Part A §7 with the spec's statuses.

mod common;

use docs_api_types::{OrganizationDefaultContentSite, Role, UpdateOrganizationSamlProviderAnswer};

#[tokio::test]
async fn members_page_filter_and_change_roles_without_losing_the_last_admin() {
    let sb = common::start().await;
    let org = sb.boot.organization.clone();
    for n in 0..6 {
        sb.member(&format!("writer{n}"), Some("edit"));
    }
    let (reader_id, reader) = sb.member("rita", Some("read"));
    let members = sb.client.members();
    let mut page = members.list_organization_members(&org).limit(3).send().await.unwrap();
    assert_eq!(page.count, Some(8));
    let mut pages = 1;
    while let Some(next) = page.next.clone() {
        page = members.list_organization_members(&org).limit(3).page(next.page).send().await.unwrap();
        pages += 1;
    }
    assert_eq!((pages, page.items.len()), (3, 2));
    assert_eq!(members.list_organization_members(&org).role(Role::Edit).send().await.unwrap().count, Some(6));
    assert_eq!(members.list_organization_members(&org).search("RITA@").send().await.unwrap().items[0].id, reader_id);

    // A reader cannot change roles; an admin can, but not away from the last admin.
    assert_eq!(
        common::status(reader.members().update_organization_member(&org, &reader_id).role(Role::Admin).send().await),
        403
    );
    let promoted = members.update_organization_member(&org, &reader_id).role(Role::Create).send().await.unwrap();
    assert_eq!(promoted.role, Some(Role::Create));
    let (status, message) =
        common::failure(members.update_organization_member(&org, &sb.boot.user).role(Role::Read).send().await);
    assert_eq!((status, message), (400, format!("organization {org} must keep at least one admin")));

    // Ping records when a member was last seen; sorting by it lists only those.
    reader.members().ping_organization(&org).send().await.unwrap();
    let seen =
        members.list_organization_members(&org).sort(docs_api_types::MemberSort::LastSeenAt).send().await.unwrap();
    assert_eq!(seen.items.iter().map(|m| m.id.clone()).collect::<Vec<_>>(), std::slice::from_ref(&reader_id));

    // Removing a member (twice: the second is a success too).
    members.delete_organization_member(&org, &reader_id).send().await.unwrap();
    members.delete_organization_member(&org, &reader_id).send().await.unwrap();
    assert_eq!(common::status(members.get_organization_member(&org, &reader_id).send().await), 404);
    assert_eq!(common::status(reader.organizations().get(&org).send().await), 403);
}

#[tokio::test]
async fn teams_have_owners_members_and_filters() {
    let sb = common::start().await;
    let org = sb.boot.organization.clone();
    let (alice, alice_client) = sb.member("alice", Some("create"));
    let (bob, _) = sb.member("bob", Some("edit"));
    let team =
        alice_client.teams().create_organization_team(&org, "Writers").members(vec![bob.clone()]).send().await.unwrap();
    assert_eq!(team.members, Some(2), "the creator owns the team, bob is a member");
    assert_eq!(team.permissions.map(|p| p.admin), Some(Some(true)));
    sb.client.teams().create_organization_team(&org, "Reviewers").send().await.unwrap();
    let teams = sb.client.teams().list_organization_teams(&org).title("WRIT").send().await.unwrap();
    assert_eq!(teams.items.iter().map(|t| t.title.clone().unwrap_or_default()).collect::<Vec<_>>(), ["Writers"]);
    assert_eq!(
        sb.client.teams().list_organization_teams(&org).owner(alice.clone()).send().await.unwrap().count,
        Some(1)
    );
    let bobs = sb.client.members().list_organization_member_teams(&org, &bob).send().await.unwrap();
    assert_eq!(bobs.items[0].member.as_ref().and_then(|m| m.role.clone()).as_deref(), Some("member"));
    let (status, message) =
        common::failure(sb.client.teams().create_organization_team(&org, "Ghosts").members(["user_404"]).send().await);
    assert_eq!((status, message), (400, format!("user_404 is not a member of organization {org}")));
    sb.client.teams().delete_organization_team(&org, &team.id).send().await.unwrap();
    sb.client.teams().delete_organization_team(&org, &team.id).send().await.unwrap();
    assert_eq!(common::status(sb.client.teams().get_organization_team(&org, &team.id).send().await), 404);
}

#[tokio::test]
async fn saml_providers_are_active_until_deleted_and_listed_for_sign_in() {
    let sb = common::start().await;
    let org = sb.boot.organization.clone();
    let team = sb.client.teams().create_organization_team(&org, "Everyone").send().await.unwrap();
    let sso = sb.client.sso();
    let provider =
        sso.create_organization_saml_provider(&org, "Okta").default_team(team.id.clone()).send().await.unwrap();
    assert_eq!(provider.default_team.map(|t| t.id), Some(team.id.clone()));
    let UpdateOrganizationSamlProviderAnswer::Ok(renamed) =
        sso.update_organization_saml_provider(&org, &provider.id).label("Okta EU").send().await.unwrap()
    else {
        panic!("the sandbox answers an update with the provider")
    };
    assert_eq!(renamed.label.as_deref(), Some("Okta EU"));
    let (_, reader) = sb.member("rita", Some("read"));
    let sign_in = reader.sso().list_organization_sso_providers(&org).send().await.unwrap();
    assert_eq!(sign_in.items.len(), 1);
    assert_eq!(common::status(reader.sso().get_organization_saml_provider(&org, &provider.id).send().await), 403);
    assert_eq!(
        common::status(sso.create_organization_saml_provider(&org, "Bad").default_team("team_404").send().await),
        400
    );
    sso.delete_organization_saml_provider(&org, &provider.id).send().await.unwrap();
    sso.delete_organization_saml_provider(&org, &provider.id).send().await.unwrap();
    assert_eq!(common::status(sso.get_organization_saml_provider(&org, &provider.id).send().await), 404);
}

#[tokio::test]
async fn joining_needs_an_accepted_email_domain_and_search_finds_titles() {
    let sb = common::start().await;
    let org = sb.boot.organization.clone();
    sb.client.organizations().update(&org).email_domains(["acme.test"]).send().await.unwrap();
    let outsider = {
        let token = "token-olga";
        sb.sandbox
            .store()
            .write(|tx| {
                tx.insert(
                    "user",
                    "user_olga",
                    "",
                    "users",
                    &serde_json::json!({"object": "user", "id": "user_olga", "email": "olga@acme.test"}),
                )?;
                tx.insert(
                    "user",
                    "user_eve",
                    "",
                    "users",
                    &serde_json::json!({"object": "user", "id": "user_eve", "email": "eve@evil.test"}),
                )?;
                tx.add_token(token, "user_olga")?;
                tx.add_token("token-eve", "user_eve")
            })
            .unwrap();
        sb.client_with(token)
    };
    assert_eq!(common::status(outsider.organizations().get(&org).send().await), 403);
    assert_eq!(
        sb.client.organizations().list_by_email_domain("ACME.test").send().await.unwrap().organizations.len(),
        1
    );
    outsider.organizations().join(&org).send().await.unwrap();
    assert_eq!(outsider.organizations().get(&org).send().await.unwrap().id, org);
    let (status, _) = common::failure(sb.client_with("token-eve").organizations().join(&org).send().await);
    assert_eq!(status, 403);
    assert_eq!(common::status(outsider.organizations().join("org_404").send().await), 404);

    let space = sb.seed_space("Release notes");
    sb.sandbox
        .store()
        .write(|tx| docs_api_sandbox::api::content::seed_page(tx, &space, "Upgrading", "How to upgrade safely."))
        .unwrap();
    let hits = sb.client.organizations().search_content(&org, "upgr").send().await.unwrap();
    assert_eq!(hits.count, Some(1));
    assert_eq!(hits.items[0].id, space);
    assert_eq!(hits.items[0].pages.as_ref().map(Vec::len), Some(1));
    assert_eq!(sb.client.organizations().search_content(&org, "release").send().await.unwrap().items[0].id, space);
}

#[tokio::test]
async fn part_a_section_7_failure_cases_answer_the_spec_statuses() {
    let sb = common::start().await;
    let org = sb.boot.organization.clone();
    let space = sb.seed_space("Docs");
    // Deletes of absent targets succeed with no content.
    sb.client.collections().delete("collection_404").send().await.unwrap();
    sb.client.spaces().delete("space_404").send().await.unwrap();
    sb.client.members().delete_organization_member(&org, "user_404").send().await.unwrap();
    sb.client.teams().delete_organization_team(&org, "team_404").send().await.unwrap();
    sb.client.organizations().delete_invite_link(&org, "invite_404").send().await.unwrap();
    sb.client.sso().delete_organization_saml_provider(&org, "saml_404").send().await.unwrap();
    sb.client.sites().delete(&org, "site_404").send().await.unwrap();
    sb.client.comments().delete_space_comment(&space, "comment_404").send().await.unwrap();
    sb.client.comments().delete_space_comment_reply(&space, "comment_404", "reply_404").send().await.unwrap();
    sb.client.openapi_specs().delete(&org, "nope").send().await.unwrap();
    // Lookups of what does not exist.
    assert_eq!(common::status(sb.client.organizations().get("org_404").send().await), 404);
    assert_eq!(common::status(sb.client.sso().get_organization_saml_provider(&org, "saml_404").send().await), 404);
    assert_eq!(common::status(sb.client.sites().get(&org, "site_404").send().await), 404);
    assert_eq!(common::status(sb.client.sites().get_published_site(&org, "site_404").send().await), 404);
    assert_eq!(common::status(sb.client.change_requests().get(&space, "cr_404").send().await), 404);
    // PATCH organization with default content the organization does not have.
    let bad = OrganizationDefaultContentSite { site: "site_404".into() };
    let (status, message) = common::failure(sb.client.organizations().update(&org).default_content(bad).send().await);
    assert_eq!(status, 400);
    assert!(message.starts_with("invalid default content"), "{message}");
}
