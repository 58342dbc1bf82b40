//! Data as deep as members can make it: no walk over stored data recurses without a bound.
//! Collections nest without limit and are listed by an iterative walk; section groups, which
//! are answered nested, nest at most 10 deep.

mod common;

use docs_api_sandbox::domain::create;
use docs_api_sandbox::domain::kinds::COLLECTION;
use docs_api_types::SiteSectionOrGroup;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_lists_nested_collections_over_a_chain_of_6000() {
    let sb = common::start().await;
    let org = sb.boot.organization.clone();
    sb.sandbox
        .store()
        .write(|tx| {
            let mut parent: Option<String> = None;
            for level in 0..6000 {
                let scope = parent.clone().unwrap_or_else(|| org.clone());
                let fields = json!({"object": "collection", "organization": org, "title": format!("Level {level}"), "parent": parent});
                let collection = create(tx, COLLECTION, &org, &scope, &fields)?;
                parent = collection["id"].as_str().map(str::to_owned);
            }
            Ok(())
        })
        .unwrap();
    let (_, reader) = sb.member("reader", Some("read"));
    let collections = reader.collections();
    let first = collections.list_organization_collections(&org).nested(true).limit(1000).send().await.unwrap();
    assert_eq!(first.count, Some(6000));
    let titles: Vec<&str> = first.items.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(titles[..3], ["Level 0", "Level 1", "Level 2"], "a parent before its children");
    assert_eq!(titles[999], "Level 999");
    let page = first.next.unwrap().page;
    let second = collections.list_organization_collections(&org).nested(true).limit(1000).page(page).send().await;
    assert_eq!(second.unwrap().items[0].title, "Level 1000");
}

#[tokio::test]
async fn section_groups_nest_ten_deep_and_a_group_in_the_tenth_is_refused() {
    let sb = common::start().await;
    let org = sb.boot.organization.clone();
    let structure = sb.client.site_structure();
    let site = sb.client.sites().create_organization_site(&org).title("Deep").send().await.unwrap();
    let mut parent: Option<String> = None;
    for depth in 1..=10 {
        let mut create = structure.create_site_section_group(&org, &site.id, format!("Depth {depth}"));
        if let Some(parent) = &parent {
            create = create.parent(parent.clone());
        }
        parent = Some(create.send().await.unwrap().id);
    }
    let deepest = parent.unwrap();
    let refused = structure.create_site_section_group(&org, &site.id, "Depth 11").parent(deepest.clone()).send().await;
    assert_eq!(
        common::failure(refused),
        (
            400,
            format!(
                "section groups nest at most 10 deep: group {deepest} is at depth 10, so a group in it would be deeper"
            )
        )
    );
    // The tree answers all ten levels, each group holding the next.
    let sections = structure.list_site_sections(&org, &site.id).send().await.unwrap();
    let mut level = sections.items;
    let mut depth = 0;
    while let Some(SiteSectionOrGroup::SiteSectionGroup(group)) = level.first() {
        depth += 1;
        assert_eq!(group.title.as_deref(), Some(format!("Depth {depth}").as_str()));
        level = group.children.clone().unwrap_or_default();
    }
    assert_eq!(depth, 10);
    let groups = structure.list_site_section_groups(&org, &site.id).send().await.unwrap();
    assert_eq!(groups.count, Some(10));
}
