//! Sites and their structure: publication (Part B §3.2), the published profile, sections,
//! section groups and site spaces with their moves, the adaptive schema, pages of site spaces,
//! and the failures a user meets (unknown ids, positions that are no siblings, roles).
#![allow(deprecated)] // the section and site space moves are deprecated and keep working

mod common;

use docs_api_types::{
    CreateSiteSpaceAnswer, SiteSection, SiteSectionGroup, SiteSpace, UpdateSiteSectionAnswer,
    UpdateSiteSectionGroupAnswer, UpdateSiteSpaceAnswer,
};
use docs_api_types::{
    PublishedSiteStructure, SitePublication, SiteSectionGroupPosition, SiteSectionGroupPositionTarget,
    SiteSectionOrGroup, SiteSectionPosition, SiteSectionPositionTarget, SiteSpacePosition, SiteSpacePositionTarget,
    SiteVisibility, UpdateSiteAdaptiveSchemaAnswer,
};

// The service may answer these four with 204 and no body (gap `site-structure-no-content`);
// the sandbox answers the resource.
fn added(answer: CreateSiteSpaceAnswer) -> SiteSpace {
    let CreateSiteSpaceAnswer::Created(space) = answer else { panic!("the sandbox answers the site space") };
    space
}

fn updated_section(answer: UpdateSiteSectionAnswer) -> SiteSection {
    let UpdateSiteSectionAnswer::Ok(section) = answer else { panic!("the sandbox answers the section") };
    section
}

fn updated_group(answer: UpdateSiteSectionGroupAnswer) -> SiteSectionGroup {
    let UpdateSiteSectionGroupAnswer::Ok(group) = answer else { panic!("the sandbox answers the section group") };
    group
}

fn updated_space(answer: UpdateSiteSpaceAnswer) -> SiteSpace {
    let UpdateSiteSpaceAnswer::Ok(space) = answer else { panic!("the sandbox answers the site space") };
    space
}

/// Titles of the entries of a section list (a group shows as `[title: children…]`).
fn titles(items: &[SiteSectionOrGroup]) -> Vec<String> {
    items
        .iter()
        .map(|item| match item {
            SiteSectionOrGroup::SiteSection(section) => section.title.clone(),
            SiteSectionOrGroup::SiteSectionGroup(group) => format!(
                "[{}: {}]",
                group.title.clone().unwrap_or_default(),
                titles(group.children.as_deref().unwrap_or_default()).join(", ")
            ),
            SiteSectionOrGroup::Unknown(other) => format!("?{other}"),
        })
        .collect()
}

fn before_section(id: &str) -> SiteSectionPosition {
    SiteSectionPosition { before: Some(SiteSectionPositionTarget { site_section: id.to_owned() }), after: None }
}

fn after_section(id: &str) -> SiteSectionPosition {
    SiteSectionPosition { before: None, after: Some(SiteSectionPositionTarget { site_section: id.to_owned() }) }
}

#[tokio::test]
async fn a_site_is_unpublished_until_published_and_then_has_a_published_profile() {
    let sb = common::start().await;
    let org = sb.boot.organization.clone();
    let guides = sb.seed_space("Guides");
    let sites = sb.client.sites();
    let site = sites.create_organization_site(&org).title("Acme Docs").spaces([guides.clone()]).send().await.unwrap();
    assert_eq!(site.published, Some(false));
    assert_eq!(site.site_spaces, Some(1));
    assert_eq!(site.visibility, Some(SiteVisibility::Public));
    assert!(site.urls.as_ref().unwrap().published.is_none());

    // No published profile before publishing.
    assert_eq!(common::status(sites.get_published_site(&org, &site.id).send().await), 404);
    assert_eq!(sites.list_organization_sites(&org).published(false).send().await.unwrap().count, Some(1));
    assert_eq!(sites.list_organization_sites(&org).published(true).send().await.unwrap().count, Some(0));

    // unpublished --publish--> published, answering the site (never a checkout session).
    let SitePublication::Site(published) = sites.publish(&org, &site.id).send().await.unwrap() else {
        panic!("the sandbox answers publishing with the site")
    };
    assert_eq!(published.published, Some(true));
    let url = published.urls.unwrap().published.unwrap();
    assert!(url.starts_with("https://"), "{url}");
    assert_eq!(common::status(sites.publish(&org, &site.id).send().await), 400, "already published");
    assert_eq!(sites.list_organization_sites(&org).published(true).send().await.unwrap().count, Some(1));

    // A site without sections publishes its root site spaces.
    let profile = sites.get_published_site(&org, &site.id).send().await.unwrap();
    assert_eq!(profile.site.unwrap().title.as_deref(), Some("Acme Docs"));
    match profile.structure.unwrap() {
        PublishedSiteStructure::Unknown(raw) => {
            assert_eq!(raw["type"], "site-spaces");
            assert_eq!(raw["structure"][0]["title"], "Guides");
            assert!(raw["structure"][0]["urls"]["published"].as_str().unwrap().ends_with("/guides"));
        }
        other => panic!("expected the site-spaces structure, got {other:?}"),
    }
    assert_eq!(profile.customizations.unwrap().site.unwrap().title.as_deref(), Some("Acme Docs"));

    // With a section, the structure is made of sections; the root site space moved into it.
    let api = sb.seed_space("API");
    let section = sb.client.site_structure().create_site_section(&org, &site.id, &api).send().await.unwrap();
    assert_eq!(section.default, Some(true));
    let spaces: Vec<_> = section.site_spaces.unwrap().into_iter().map(|s| s.title).collect();
    assert_eq!(spaces, ["Guides", "API"]);
    let profile = sites.get_published_site(&org, &site.id).send().await.unwrap();
    match profile.structure.unwrap() {
        PublishedSiteStructure::Sections(sections) => {
            assert_eq!(titles(sections.structure.as_deref().unwrap()), ["API"]);
        }
        other => panic!("expected sections, got {other:?}"),
    }

    // A share-link site's published URLs carry the share key.
    sites.update(&org, &site.id).visibility(SiteVisibility::ShareLink).send().await.unwrap();
    let profile = sites.get_published_site(&org, &site.id).share_key("k3y").send().await.unwrap();
    assert!(profile.site.unwrap().urls.unwrap().published.unwrap().ends_with("?share-key=k3y"));
}

#[tokio::test]
async fn sections_and_groups_move_and_nest_as_the_list_shows() {
    let sb = common::start().await;
    let org = sb.boot.organization.clone();
    let structure = sb.client.site_structure();
    let site = sb.client.sites().create_organization_site(&org).title("Docs").send().await.unwrap();
    let mut ids = Vec::new();
    for title in ["Alpha", "Beta", "Gamma"] {
        let space = sb.seed_space(title);
        let section = structure.create_site_section(&org, &site.id, &space).send().await.unwrap();
        assert_eq!(section.path, title.to_lowercase());
        ids.push(section.id);
    }
    let (a, b, c) = (&ids[0], &ids[1], &ids[2]);
    let list = || async { titles(&structure.list_site_sections(&org, &site.id).send().await.unwrap().items) };
    assert_eq!(list().await, ["Alpha", "Beta", "Gamma"]);

    structure.move_site_section(&org, &site.id, c).position(before_section(a)).send().await.unwrap();
    assert_eq!(list().await, ["Gamma", "Alpha", "Beta"]);
    structure.move_site_section(&org, &site.id, a).position(after_section(b)).send().await.unwrap();
    assert_eq!(list().await, ["Gamma", "Beta", "Alpha"]);

    // A group takes the sections it is given; it is created last at the root.
    let group =
        structure.create_site_section_group(&org, &site.id, "Products").sections([b.clone()]).send().await.unwrap();
    assert_eq!(titles(group.children.as_deref().unwrap()), ["Beta"]);
    assert_eq!(list().await, ["Gamma", "Alpha", "[Products: Beta]"]);
    let beta = updated_section(structure.update_site_section(&org, &site.id, b).description("B").send().await.unwrap());
    assert_eq!(beta.section_group.as_deref(), Some(group.id.as_str()));

    // Moving a group among sections; a section of another level is no sibling.
    let position =
        SiteSectionGroupPosition { before: Some(SiteSectionGroupPositionTarget { id: c.clone() }), after: None };
    structure.move_site_section_group(&org, &site.id, &group.id).position(position).send().await.unwrap();
    assert_eq!(list().await, ["[Products: Beta]", "Gamma", "Alpha"]);
    let refused = structure.move_site_section(&org, &site.id, a).position(before_section(b)).send().await;
    assert_eq!(common::status(refused), 400);
    let both = SiteSectionPosition { before: before_section(c).before, after: after_section(c).after };
    assert_eq!(common::status(structure.move_site_section(&org, &site.id, a).position(both).send().await), 400);

    // Adding and removing sections; nested groups.
    let group = structure.add_site_section_group_section(&org, &site.id, &group.id, a).send().await.unwrap();
    assert_eq!(titles(group.children.as_deref().unwrap()), ["Beta", "Alpha"]);
    structure.remove_site_section_group_section(&org, &site.id, &group.id, b).send().await.unwrap();
    assert_eq!(list().await, ["[Products: Alpha]", "Beta", "Gamma"]);
    structure.remove_site_section_group_section(&org, &site.id, &group.id, b).send().await.unwrap(); // not in it: 204
    let nested = structure
        .create_site_section_group(&org, &site.id, "Legacy")
        .parent(&group.id)
        .icon("box")
        .send()
        .await
        .unwrap();
    assert_eq!(nested.section_group.as_deref(), Some(group.id.as_str()));
    assert_eq!(list().await, ["[Products: Alpha, [Legacy: ]]", "Beta", "Gamma"]);
    let groups = structure.list_site_section_groups(&org, &site.id).send().await.unwrap();
    let names: Vec<_> = groups.items.iter().map(|g| g.title.clone().unwrap()).collect();
    assert_eq!(names, ["Products", "Legacy"]);
    let renamed = updated_group(
        structure.update_site_section_group(&org, &site.id, &nested.id).title("Old").send().await.unwrap(),
    );
    assert_eq!(renamed.title.as_deref(), Some("Old"));

    // Deleting a group keeps its children, in its place.
    structure.delete_site_section_group(&org, &site.id, &group.id).send().await.unwrap();
    assert_eq!(list().await, ["Alpha", "[Old: ]", "Beta", "Gamma"]);
    let groups = structure.list_site_section_groups(&org, &site.id).send().await.unwrap();
    assert_eq!(groups.count, Some(1));
    assert_eq!(groups.items[0].section_group, None);

    // Deleting a section deletes its site spaces; the default section passes on.
    assert_eq!(sb.client.sites().get(&org, &site.id).send().await.unwrap().site_spaces, Some(3));
    structure.delete_site_section(&org, &site.id, a).send().await.unwrap();
    assert_eq!(list().await, ["[Old: ]", "Beta", "Gamma"]);
    assert_eq!(sb.client.sites().get(&org, &site.id).send().await.unwrap().site_spaces, Some(2));
    let sections = structure.list_site_sections(&org, &site.id).send().await.unwrap().items;
    let defaults: Vec<_> = sections
        .iter()
        .filter_map(|item| match item {
            SiteSectionOrGroup::SiteSection(s) if s.default == Some(true) => Some(s.title.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(defaults, ["Beta"]);
    structure.delete_site_section(&org, &site.id, a).send().await.unwrap(); // already gone: 204
}

#[tokio::test]
async fn site_spaces_are_added_updated_moved_and_paged() {
    let sb = common::start().await;
    let org = sb.boot.organization.clone();
    let structure = sb.client.site_structure();
    let site = sb.client.sites().create_organization_site(&org).send().await.unwrap();
    let mut ids = Vec::new();
    for n in 1..=7 {
        let space = sb.seed_space(&format!("Version {n}"));
        let added = added(structure.create_site_space(&org, &site.id, &space).send().await.unwrap());
        assert_eq!(added.path, format!("version-{n}"));
        assert_eq!(added.space.as_ref().unwrap().id, space);
        assert_eq!(added.default, Some(n == 1), "the first site space is the default");
        ids.push(added.id);
    }

    // Three pages of three, three and one.
    let first = structure.list_site_spaces(&org, &site.id).limit(3).send().await.unwrap();
    assert_eq!((first.count, first.items.len()), (Some(7), 3));
    let second =
        structure.list_site_spaces(&org, &site.id).limit(3).page(first.next.unwrap().page).send().await.unwrap();
    assert_eq!(second.items.len(), 3);
    let third =
        structure.list_site_spaces(&org, &site.id).limit(3).page(second.next.unwrap().page).send().await.unwrap();
    assert_eq!(third.items.len(), 1);
    assert!(third.next.is_none());
    assert_eq!(third.items[0].id, ids[6]);

    // Moves among siblings.
    let position =
        SiteSpacePosition { before: Some(SiteSpacePositionTarget { site_space: ids[0].clone() }), after: None };
    structure.move_site_space(&org, &site.id, &ids[6]).position(position).send().await.unwrap();
    let order: Vec<_> = structure.list_site_spaces(&org, &site.id).limit(2).send().await.unwrap().items;
    assert_eq!([order[0].id.as_str(), order[1].id.as_str()], [ids[6].as_str(), ids[0].as_str()]);

    // Updates: path, condition set and removed, another space; a sibling's path is refused.
    let moved = updated_space(
        structure
            .update_site_space(&org, &site.id, &ids[1])
            .path("v2")
            .condition("visitor.claims.isBetaUser")
            .send()
            .await
            .unwrap(),
    );
    assert_eq!((moved.path.as_str(), moved.condition.as_deref()), ("v2", Some("visitor.claims.isBetaUser")));
    let cleared =
        updated_space(structure.update_site_space(&org, &site.id, &ids[1]).clear_condition().send().await.unwrap());
    assert_eq!((cleared.path.as_str(), cleared.condition), ("v2", None));
    let other = sb.seed_space("Other");
    let repointed =
        updated_space(structure.update_site_space(&org, &site.id, &ids[1]).space_id(&other).send().await.unwrap());
    assert_eq!((repointed.title.as_str(), repointed.space.unwrap().id), ("Other", other.clone()));
    let taken = structure.update_site_space(&org, &site.id, &ids[2]).path("v2").send().await;
    assert_eq!(common::status(taken), 400);

    // The default site space, and the list filter on it.
    sb.client.sites().update(&org, &site.id).default_site_space(&ids[3]).send().await.unwrap();
    let defaults = structure.list_site_spaces(&org, &site.id).default(true).send().await.unwrap();
    assert_eq!(defaults.items.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(), [ids[3].as_str()]);
    assert_eq!(structure.list_site_spaces(&org, &site.id).default(false).send().await.unwrap().count, Some(6));

    // Sites publishing a space; removing a site space.
    let publishing = sb.client.sites().list_organization_sites(&org).space(&other).send().await.unwrap();
    assert_eq!(publishing.count, Some(1));
    structure.delete_site_space(&org, &site.id, &ids[1]).send().await.unwrap();
    assert_eq!(sb.client.sites().list_organization_sites(&org).space(&other).send().await.unwrap().count, Some(0));
    assert_eq!(sb.client.sites().get(&org, &site.id).send().await.unwrap().site_spaces, Some(6));
    structure.delete_site_space(&org, &site.id, &ids[1]).send().await.unwrap(); // already gone: 204

    // Into a section: the first section gathers the root's site spaces.
    let extra = sb.seed_space("Extra");
    let section = structure.create_site_section(&org, &site.id, &extra).title("Docs").send().await.unwrap();
    assert_eq!(section.site_spaces.unwrap().len(), 7);
    let more = sb.seed_space("More");
    let added = added(structure.create_site_space(&org, &site.id, &more).send().await.unwrap());
    assert_eq!(added.section.as_deref(), Some(section.id.as_str()), "added to the default section");
}

#[tokio::test]
async fn sites_are_updated_listed_and_deleted() {
    let sb = common::start().await;
    let org = sb.boot.organization.clone();
    let sites = sb.client.sites();
    let site = sites.create_organization_site(&org).title("Handbook").send().await.unwrap();
    sites.create_organization_site(&org).title("Blog").send().await.unwrap();
    let updated = sites
        .update(&org, &site.id)
        .title("Team Handbook")
        .basename("handbook")
        .proxy("company-domain/docs")
        .send()
        .await
        .unwrap();
    assert_eq!(updated.title.as_deref(), Some("Team Handbook"));
    assert_eq!(updated.basename.as_deref(), Some("handbook"));
    let proxy = updated.proxy.unwrap();
    assert_eq!(proxy.target.as_deref(), Some("company-domain/docs"));
    assert_eq!(proxy.origin.as_deref(), Some("https://company-domain"));
    assert!(sites.update(&org, &site.id).clear_proxy().send().await.unwrap().proxy.is_none());
    assert_eq!(common::status(sites.update(&org, &site.id).proxy("no-path").send().await), 400);
    // A default section that is not the site's: the site is there, the field is wrong.
    let error = sites.update(&org, &site.id).default_site_section("section_404").send().await.unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "the service answered 400: the request is invalid; /defaultSiteSection: no site-section with id section_404 in site {}",
            site.id
        )
    );

    let found = sites.list_organization_sites(&org).title("handbook").send().await.unwrap();
    assert_eq!((found.count, found.items[0].id.as_str()), (Some(1), site.id.as_str()));
    assert_eq!(sites.list_organization_sites(&org).send().await.unwrap().count, Some(2));

    sites.delete(&org, &site.id).send().await.unwrap();
    assert_eq!(common::status(sites.get(&org, &site.id).send().await), 404);
    sites.delete(&org, &site.id).send().await.unwrap(); // already gone: 204
    assert_eq!(sites.list_organization_sites(&org).send().await.unwrap().count, Some(1));
}

#[tokio::test]
async fn the_adaptive_schema_is_checked_and_gives_template_conditions() {
    let sb = common::start().await;
    let org = sb.boot.organization.clone();
    let sites = sb.client.sites();
    let site = sites.create_organization_site(&org).send().await.unwrap();
    assert_eq!(common::status(sites.get_adaptive_schema(&org, &site.id).send().await), 404);
    assert!(sites.list_template_conditions(&org, &site.id).send().await.unwrap().items.is_empty());

    let bad = serde_json::json!({"type": "object", "properties": {"plan": {"type": "string"}}});
    assert_eq!(common::status(sites.update_adaptive_schema(&org, &site.id, bad).send().await), 400);
    let schema = serde_json::json!({
        "type": "object", "additionalProperties": false,
        "properties": {
            "isBetaUser": {"type": "boolean", "description": "The visitor is a beta user."},
            "unsigned": {"type": "object", "additionalProperties": false,
                "properties": {"isLoggedIn": {"type": "boolean", "description": "The visitor is logged in."}}},
        },
    });
    let UpdateSiteAdaptiveSchemaAnswer::Ok(saved) =
        sites.update_adaptive_schema(&org, &site.id, schema.clone()).send().await.unwrap()
    else {
        panic!("the sandbox answers an update with the schema")
    };
    assert_eq!(saved.json_schema.as_ref(), Some(&schema));
    assert!(saved.updated_at.is_some());
    assert_eq!(sites.get_adaptive_schema(&org, &site.id).send().await.unwrap().json_schema, Some(schema));
    let conditions = sites.list_template_conditions(&org, &site.id).send().await.unwrap().items;
    let pairs: Vec<_> =
        conditions.iter().map(|c| (c.condition.clone().unwrap(), c.description.clone().unwrap())).collect();
    assert_eq!(
        pairs,
        [
            ("visitor.claims.isBetaUser".to_owned(), "The visitor is a beta user.".to_owned()),
            ("visitor.claims.unsigned.isLoggedIn".to_owned(), "The visitor is logged in.".to_owned()),
        ]
    );
}

#[tokio::test]
async fn unknown_ids_roles_and_missing_credentials_are_refused() {
    let sb = common::start().await;
    let org = sb.boot.organization.clone();
    let space = sb.seed_space("Guides");
    let sites = sb.client.sites();
    let structure = sb.client.site_structure();
    let site = sites.create_organization_site(&org).title("Docs").send().await.unwrap();

    // Unknown ids: 404.
    assert_eq!(common::status(sites.get(&org, "site_404").send().await), 404);
    assert_eq!(common::status(sites.get(org.replace("org", "nope"), &site.id).send().await), 404);
    assert_eq!(common::status(sites.publish(&org, "site_404").send().await), 404);
    assert_eq!(common::status(structure.list_site_sections(&org, "site_404").send().await), 404);
    // An unknown id in the body: 400 naming the field (the site itself is there).
    assert_eq!(common::status(structure.create_site_space(&org, &site.id, "space_404").send().await), 400);
    assert_eq!(common::status(structure.create_site_section(&org, &site.id, "space_404").send().await), 400);
    assert_eq!(common::status(structure.update_site_section(&org, &site.id, "section_404").send().await), 404);
    assert_eq!(common::status(structure.update_site_space(&org, &site.id, "sitesp_404").send().await), 404);
    let moved = structure.move_site_section_group(&org, &site.id, "group_404").send().await;
    assert_eq!(common::status(moved), 404);
    let refused = structure.create_site_space(&org, &site.id, &space).section_id("section_404").send().await;
    assert_eq!(common::status(refused), 400);
    structure.delete_site_section_group(&org, &site.id, "group_404").send().await.unwrap();

    // A position naming something that is not a sibling: 400.
    let first = added(structure.create_site_space(&org, &site.id, &space).send().await.unwrap());
    let position = SiteSpacePosition {
        before: Some(SiteSpacePositionTarget { site_space: "sitesp_404".to_owned() }),
        after: None,
    };
    assert_eq!(
        common::status(structure.move_site_space(&org, &site.id, &first.id).position(position).send().await),
        400
    );

    // A reader reads but changes nothing: 403.
    let (_, reader) = sb.member("rita", Some("read"));
    assert_eq!(reader.sites().get(&org, &site.id).send().await.unwrap().id, site.id);
    assert_eq!(reader.site_structure().list_site_spaces(&org, &site.id).send().await.unwrap().count, Some(1));
    assert_eq!(common::status(reader.sites().create_organization_site(&org).send().await), 403);
    assert_eq!(common::status(reader.sites().publish(&org, &site.id).send().await), 403);
    assert_eq!(common::status(reader.sites().delete(&org, &site.id).send().await), 403);
    let created = reader.site_structure().create_site_section(&org, &site.id, &space).send().await;
    assert_eq!(common::status(created), 403);
    assert_eq!(common::status(reader.site_structure().delete_site_space(&org, &site.id, &first.id).send().await), 403);
    let (_, creator) = sb.member("carl", Some("create"));
    creator.sites().publish(&org, &site.id).send().await.unwrap();

    // No credentials: 401.
    assert_eq!(common::status(sb.client_with("nope").sites().get(&org, &site.id).send().await), 401);
}
