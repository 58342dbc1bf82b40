//! Organizations: the bootstrap organization is reachable, settings change, cursors are checked.

mod common;

use docs_api_types::UpdateOrganizationAnswer;

#[tokio::test]
async fn the_first_organization_is_listed_and_updated_by_its_admin() {
    let sb = common::start().await;
    let orgs = sb.client.organizations().list().send().await.unwrap();
    assert_eq!(orgs.count, Some(1));
    assert_eq!(orgs.items[0].id, sb.boot.organization);
    let UpdateOrganizationAnswer::Ok(org) =
        sb.client.organizations().update(&sb.boot.organization).title("Acme").send().await.unwrap()
    else {
        panic!("the sandbox answers an update with the organization")
    };
    assert_eq!(org.title.as_deref(), Some("Acme"));
    assert_eq!(
        sb.client.organizations().get(&sb.boot.organization).send().await.unwrap().title.as_deref(),
        Some("Acme")
    );
    let (_, reader) = sb.member("rita", Some("read"));
    assert_eq!(common::status(reader.organizations().update(&sb.boot.organization).title("Mine").send().await), 403);
    let (status, message) = common::failure(sb.client.organizations().list().page("bogus").send().await);
    assert_eq!(
        (status, message.as_str()),
        (400, "page cursor \"bogus\" does not belong to this list: start again without `page`")
    );
    assert_eq!(common::status(sb.client_with("nope").organizations().list().send().await), 401);
}
