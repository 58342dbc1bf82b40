//! Responses whose shape the documents leave open decode in every plausible shape, through
//! the client against a loopback server answering what a real service could send; and one
//! part the client does not understand degrades locally: the field is left absent and the
//! caller reads what it was in `not_understood`, while the rest of the response decodes.

use apigen_runtime::server::axum::Router;
use apigen_runtime::server::axum::http::{StatusCode, Uri};
use apigen_runtime::server::axum::response::IntoResponse;
use docs_api_client::{Client, RetryPolicy};
use docs_api_types::{
    BacklinkVersionContext, ChangeRequestResult, FileRef, OrganizationRef, Page, RevisionType, SitePublication,
    SiteSectionOrGroup, SpaceRef, UpdateChangeRequestAnswer, UpdateOrganizationAnswer, UpdateOrganizationTeamAnswer,
    VariableValue,
};
use docs_api_types::{
    CreateSiteSpaceAnswer, UpdateSiteSectionAnswer, UpdateSiteSectionGroupAnswer, UpdateSiteSpaceAnswer,
};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A server answering each path with its canned body (what a service could send).
async fn serve(bodies: Vec<(&'static str, Value)>) -> Client {
    serve_statuses(bodies.into_iter().map(|(path, body)| (path, 200, Some(body))).collect()).await
}

/// A server answering each path with its canned status and body (`None`: no body at all).
async fn serve_statuses(answers: Vec<(&'static str, u16, Option<Value>)>) -> Client {
    type Canned = (StatusCode, Option<String>);
    let answers: Arc<BTreeMap<&'static str, Canned>> = Arc::new(
        answers
            .into_iter()
            .map(|(path, status, body)| (path, (StatusCode::from_u16(status).unwrap(), body.map(|b| b.to_string()))))
            .collect(),
    );
    let app = Router::new().fallback(move |uri: Uri| {
        let answer = answers.get(uri.path()).cloned();
        async move {
            match answer {
                Some((status, Some(body))) => (status, [("content-type", "application/json")], body).into_response(),
                Some((status, None)) => status.into_response(),
                None => (StatusCode::NOT_FOUND, [("content-type", "application/json")], String::new()).into_response(),
            }
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(apigen_runtime::listener::serve(listener, app, Default::default()));
    Client::builder(format!("http://{address}")).bearer("token").retry(RetryPolicy::none()).build().unwrap()
}

fn space() -> Value {
    json!({
        "object": "space", "id": "space_1", "title": "Docs", "emoji": "📘", "visibility": "public",
        "createdAt": "2024-01-15T09:30:00Z", "updatedAt": "2024-01-15T09:30:00Z",
        "mergeRules": {"type": "inherit"}, "organization": "org_1", "revision": "rev_1",
        "defaultLevel": null, "comments": 0, "changeRequests": 0, "changeRequestsOpen": 0,
        "changeRequestsDraft": 0
    })
}

#[tokio::test]
async fn backlink_targets_are_ids_or_embedded_objects_and_the_envelope_next_may_be_null() {
    let path = "/v1/spaces/space_1/content/files/file_1/backlinks";
    let body = json!({"next": null, "count": 2, "items": [
        {"kind": "file", "organization": "org_1", "space": "space_1", "file": "file_1",
         "versionContext": {"type": "revision", "revision": "rev_1"}},
        {"kind": "file", "organization": {"object": "organization", "id": "org_1", "title": "Acme"},
         "space": space(), "file": {"id": "file_1", "name": "logo.png"},
         "versionContext": {"type": "change-request", "changeRequest": "cr_1", "revision": "rev_2"}}
    ]});
    let client = serve(vec![(path, body)]).await;
    let page = client.content().list_space_file_backlinks("space_1", "file_1").send_with_response().await.unwrap();
    assert!(page.not_understood.is_empty(), "{:?}", page.not_understood);
    assert_eq!(page.body.next, None);
    let [ids, objects] = &page.body.items[..] else { panic!("{:?}", page.body.items) };
    let (docs_api_types::Backlink::File(ids), docs_api_types::Backlink::File(objects)) = (ids, objects) else {
        panic!("not file backlinks")
    };
    assert_eq!(ids.organization, Some(OrganizationRef::String("org_1".into())));
    assert_eq!(ids.space, Some(SpaceRef::String("space_1".into())));
    assert_eq!(ids.file, Some(FileRef::String("file_1".into())));
    let Some(OrganizationRef::Organization(organization)) = &objects.organization else { panic!("{objects:?}") };
    assert_eq!(organization.title.as_deref(), Some("Acme"));
    let Some(SpaceRef::Space(space)) = &objects.space else { panic!("{objects:?}") };
    assert_eq!(space.title, "Docs");
    let Some(FileRef::File(file)) = &objects.file else { panic!("{objects:?}") };
    assert_eq!(file.name.as_deref(), Some("logo.png"));
    let Some(BacklinkVersionContext::ChangeRequest(context)) = &objects.version_context else { panic!() };
    assert_eq!(context.change_request.as_deref(), Some("cr_1"));
}

#[tokio::test]
async fn merge_and_update_results_keep_their_outcome_conflicts_included() {
    let client = serve(vec![
        ("/v1/spaces/space_1/change-requests/cr_1/merge", json!({"revision": "rev_3", "result": "merge"})),
        ("/v1/spaces/space_1/change-requests/cr_2/merge", json!({"result": "conflicts"})),
        ("/v1/spaces/space_1/change-requests/cr_3/merge", json!({"result": "rebased"})),
        ("/v1/spaces/space_1/change-requests/cr_1/update", json!({"revision": "rev_4", "result": "update"})),
    ])
    .await;
    let requests = client.change_requests();
    let merged = requests.merge("space_1", "cr_1").send().await.unwrap();
    assert_eq!((merged.result, merged.revision.as_deref()), (Some(ChangeRequestResult::Merge), Some("rev_3")));
    let conflict = requests.merge("space_1", "cr_2").send().await.unwrap();
    assert_eq!(conflict.result, Some(ChangeRequestResult::Conflicts), "a conflict is not a success");
    let other = requests.merge("space_1", "cr_3").send().await.unwrap();
    assert_eq!(other.result, Some(ChangeRequestResult::Unknown("rebased".into())), "kept, not dropped");
    let updated = requests.update_from_main("space_1", "cr_1").send().await.unwrap();
    assert_eq!(updated.result, Some(ChangeRequestResult::Update));
}

#[tokio::test]
async fn revisions_of_any_type_decode_with_variables_of_any_scalar_type() {
    let client = serve(vec![(
        "/v1/spaces/space_1/content",
        json!({"object": "revision", "id": "rev_9", "type": "merge", "parents": ["rev_7", "rev_8"],
               "mergedFrom": "cr_1",
               "variables": {"version": "2.0", "major": 2, "ratio": 0.5, "beta": false}}),
    )])
    .await;
    let answer = client.content().get_space_content("space_1").send_with_response().await.unwrap();
    let revision = answer.body;
    assert_eq!(revision.type_, Some(RevisionType::Unknown("merge".into())), "a merge revision is typed");
    assert_eq!(revision.parents.as_deref(), Some(&["rev_7".to_owned(), "rev_8".to_owned()][..]));
    assert_eq!(revision.extra["mergedFrom"], json!("cr_1"), "fields other types add are kept");
    let variables = revision.variables.unwrap();
    assert_eq!(variables["version"], VariableValue::String("2.0".into()));
    assert_eq!(variables["major"], VariableValue::Integer(2));
    assert_eq!(variables["ratio"], VariableValue::Number(0.5));
    assert_eq!(variables["beta"], VariableValue::Boolean(false));
    // Written back unchanged: an integer stays an integer.
    assert_eq!(serde_json::to_value(&variables).unwrap()["major"], json!(2));
}

#[tokio::test]
async fn section_lists_hold_groups_nested_in_groups() {
    let client = serve(vec![(
        "/v1/orgs/org_1/sites/site_1/sections",
        json!({"count": 2, "items": [
            {"object": "site-section", "id": "sec_1", "title": "Guides", "path": "guides"},
            {"object": "site-section-group", "id": "grp_1", "title": "Products", "children": [
                {"object": "site-section", "id": "sec_2", "title": "API", "path": "api"},
                {"object": "site-section-group", "id": "grp_2", "title": "Legacy"}
            ]}
        ]}),
    )])
    .await;
    let page = client.site_structure().list_site_sections("org_1", "site_1").send().await.unwrap();
    let [SiteSectionOrGroup::SiteSection(section), SiteSectionOrGroup::SiteSectionGroup(group)] = &page.items[..]
    else {
        panic!("{:?}", page.items)
    };
    assert_eq!(section.path, "guides");
    let children = group.children.as_deref().unwrap();
    assert!(matches!(&children[1], SiteSectionOrGroup::SiteSectionGroup(inner) if inner.id == "grp_2"));
}

#[tokio::test]
async fn document_content_is_kept_for_pages_and_comments_without_a_schema_version() {
    let document = json!({"object": "document", "nodes": [{"object": "block", "type": "paragraph"}]});
    let client = serve(vec![
        (
            "/v1/spaces/space_1/content/page/page_1",
            json!({"type": "document", "object": "page", "id": "page_1", "document": document}),
        ),
        (
            "/v1/spaces/space_1/comments/com_1",
            json!({"object": "comment", "id": "com_1", "body": {"document": document}}),
        ),
    ])
    .await;
    let page = client.content().get_space_page("space_1", "page_1").format("document").send().await.unwrap();
    let Page::Document(page) = page else { panic!("{page:?}") };
    let content = page.document.expect("the document content is kept");
    assert_eq!(content.nodes.len(), 1);
    assert_eq!(content.data, None, "no schemaVersion: the latest");
    let comment = client.comments().get_space_comment("space_1", "com_1").send().await.unwrap();
    assert_eq!(comment.body.unwrap().document.unwrap().nodes[0].object, "block");
}

#[tokio::test]
async fn a_part_the_client_does_not_understand_degrades_locally_and_is_reported() {
    // `emoji` is a number and `urls.app` an object: neither fits; the rest of the space does.
    let mut odd = space();
    odd["emoji"] = json!(42);
    odd["urls"] = json!({"location": "https://api.example.com/v1/spaces/space_1", "app": {"href": "x"}});
    let client = serve(vec![("/v1/spaces/space_1", odd)]).await;
    let answer = client.spaces().get("space_1").send_with_response().await;
    let error = answer.as_ref().err().map(ToString::to_string);
    // `emoji` is required: it fails the response, since there is no optional field above it.
    assert_eq!(
        error.as_deref(),
        Some("the response does not decode at /emoji: expected a string, found the number 42 (near 42)")
    );

    let mut odd = space();
    odd["urls"] = json!({"location": "https://api.example.com/v1/spaces/space_1", "app": {"href": "x"}});
    odd["parent"] = json!(["col_1"]);
    let client = serve(vec![("/v1/spaces/space_1", odd)]).await;
    let answer = client.spaces().get("space_1").send_with_response().await.unwrap();
    assert_eq!(answer.body.title, "Docs", "the rest decodes");
    assert_eq!(answer.body.parent, None);
    let urls = answer.body.urls.expect("the readable part of `urls` is kept");
    assert_eq!(urls.location.as_deref(), Some("https://api.example.com/v1/spaces/space_1"));
    assert_eq!(urls.app, None, "the field that does not fit, and only it, is left absent");
    let seen: Vec<(&str, &str, Value)> =
        answer.not_understood.iter().map(|n| (n.pointer.as_str(), n.reason.as_str(), n.value.clone())).collect();
    assert_eq!(
        seen,
        [
            ("/urls/app", "/urls/app: expected a string, found an object", json!({"href": "x"})),
            ("/parent", "/parent: expected a string, found an array", json!(["col_1"])),
        ]
    );
}

#[test]
fn the_types_alone_decode_the_same_shapes_and_report_the_same_parts() {
    // Through serde, as a downstream crate using only the types would.
    let result: docs_api_types::ChangeRequestMergeResult =
        serde_json::from_value(json!({"result": "conflicts"})).unwrap();
    assert_eq!(result.result, Some(ChangeRequestResult::Conflicts));
    let reference: OrganizationRef = serde_json::from_value(json!({"object": "organization", "id": "org_1"})).unwrap();
    assert!(matches!(reference, OrganizationRef::Organization(o) if o.id == "org_1"));
    // Through the runtime, with what was not understood.
    let bytes = br#"{"object": "revision", "id": "rev_1", "type": "edits", "createdAt": "yesterday"}"#;
    let (revision, parts) = apigen_runtime::json::from_slice_reporting::<docs_api_types::Revision>(bytes).unwrap();
    assert_eq!((revision.type_, revision.created_at), (Some(RevisionType::Edits), None));
    assert_eq!(parts.len(), 1);
    assert_eq!((parts[0].pointer.as_str(), &parts[0].value), ("/createdAt", &json!("yesterday")));
}

#[tokio::test]
async fn publishing_a_site_may_answer_a_checkout_session_instead_of_the_site() {
    let client = serve(vec![
        ("/v1/orgs/org_1/sites/site_1/publish", json!({"type": "checkout", "sessionId": "cs_1"})),
        // A session carrying more than the two fields shown still reads as a session.
        (
            "/v1/orgs/org_1/sites/site_2/publish",
            json!({"type": "checkout", "sessionId": "cs_2", "url": "https://pay.example.com/cs_2"}),
        ),
        (
            "/v1/orgs/org_1/sites/site_3/publish",
            json!({"object": "site", "id": "site_3", "type": "basic", "title": "Docs", "published": true}),
        ),
        // A site with a field the spec does not list is still the site.
        (
            "/v1/orgs/org_1/sites/site_4/publish",
            json!({"object": "site", "id": "site_4", "published": true, "theme": "dark"}),
        ),
    ])
    .await;
    let sites = client.sites();
    let session = sites.publish("org_1", "site_1").send_with_response().await.unwrap();
    assert!(session.not_understood.is_empty(), "{:?}", session.not_understood);
    let SitePublication::SiteCheckoutSession(session) = session.body else { panic!("{:?}", session.body) };
    assert_eq!(session.session_id, "cs_1");
    assert_eq!(serde_json::to_value(&session).unwrap(), json!({"type": "checkout", "sessionId": "cs_1"}));
    let SitePublication::SiteCheckoutSession(larger) = sites.publish("org_1", "site_2").send().await.unwrap() else {
        panic!("a larger session is a session")
    };
    assert_eq!(larger.session_id, "cs_2");
    let SitePublication::Site(site) = sites.publish("org_1", "site_3").send().await.unwrap() else {
        panic!("a site is a site")
    };
    assert_eq!((site.id.as_str(), site.published, site.title.as_deref()), ("site_3", Some(true), Some("Docs")));
    let SitePublication::Site(site) = sites.publish("org_1", "site_4").send().await.unwrap() else {
        panic!("a site with a new field is a site")
    };
    assert_eq!(site.id, "site_4");
    // The types alone read the same.
    let read: SitePublication = serde_json::from_value(json!({"type": "checkout", "sessionId": "cs_9"})).unwrap();
    assert!(matches!(read, SitePublication::SiteCheckoutSession(s) if s.session_id == "cs_9"));
}

#[tokio::test]
async fn an_answer_of_several_statuses_reports_what_it_did_not_understand_as_one_status_does() {
    // One path: `getChangeRequest` answers one status, `updateChangeRequest` 200 or 204.
    let body = json!({
        "object": "change-request",
        "id": "cr_1",
        "subject": "Fix typos",
        "number": "seven",
        "urls": {"app": 5, "location": "https://app.example.com/cr_1"},
    });
    let client = serve_statuses(vec![("/v1/spaces/space_1/change-requests/cr_1", 200, Some(body))]).await;
    let requests = client.change_requests();
    let single = requests.get("space_1", "cr_1").send_with_response().await.unwrap();
    let several = requests.update("space_1", "cr_1").subject("New").send_with_response().await.unwrap();
    let UpdateChangeRequestAnswer::Ok(updated) = &several.body else { panic!("200 answers the change request") };
    assert_eq!(updated, &single.body, "the rest decodes alike");
    assert_eq!(updated.subject.as_deref(), Some("Fix typos"));
    let seen: Vec<(&str, &str, Value)> =
        several.not_understood.iter().map(|n| (n.pointer.as_str(), n.reason.as_str(), n.value.clone())).collect();
    assert_eq!(
        seen,
        [
            ("/number", "/number: expected an integer, found the string \"seven\"", json!("seven")),
            ("/urls/app", "/urls/app: expected a string, found the number 5", json!(5)),
        ]
    );
    assert_eq!(several.not_understood, single.not_understood);
}

#[tokio::test]
async fn site_structure_changes_the_service_answers_with_204_and_no_body_are_accepted() {
    // The service's newer version (gap `site-structure-no-content`).
    let site_space = json!({"object": "site-space", "id": "sitesp_2", "path": "v2", "title": "V2"});
    let client = serve_statuses(vec![
        ("/v1/orgs/org_1/sites/site_1/site-spaces", 204, None),
        ("/v1/orgs/org_1/sites/site_1/sections/sec_1", 204, None),
        ("/v1/orgs/org_1/sites/site_1/site-spaces/sitesp_1", 204, None),
        ("/v1/orgs/org_1/sites/site_1/site-spaces/sitesp_2", 200, Some(site_space)),
        ("/v1/orgs/org_1/sites/site_1/section-groups/group_1", 204, None),
    ])
    .await;
    let structure = client.site_structure();
    let added = structure.create_site_space("org_1", "site_1", "space_1").send_with_response().await.unwrap();
    assert_eq!((added.status, added.body), (204, CreateSiteSpaceAnswer::NoContent));
    let section = structure.update_site_section("org_1", "site_1", "sec_1").title("Guides").send().await.unwrap();
    assert_eq!(section, UpdateSiteSectionAnswer::NoContent);
    let space = structure.update_site_space("org_1", "site_1", "sitesp_1").path("v2").send().await.unwrap();
    assert_eq!(space, UpdateSiteSpaceAnswer::NoContent);
    let UpdateSiteSpaceAnswer::Ok(space) =
        structure.update_site_space("org_1", "site_1", "sitesp_2").path("v2").send().await.unwrap()
    else {
        panic!("200 answers the site space")
    };
    assert_eq!(space.path, "v2");
    let group = structure.update_site_section_group("org_1", "site_1", "group_1").title("P").send().await.unwrap();
    assert_eq!((group.status(), group), (204, UpdateSiteSectionGroupAnswer::NoContent));
}

#[tokio::test]
async fn updates_the_service_answers_with_204_and_no_body_are_accepted() {
    let team = json!({"object": "team", "id": "team_1", "title": "Writers"});
    let client = serve_statuses(vec![
        ("/v1/orgs/org_1", 204, None),
        ("/v1/orgs/org_2", 200, Some(json!({"object": "organization", "id": "org_2", "title": "Acme"}))),
        ("/v1/orgs/org_1/teams/team_1", 204, None),
        ("/v1/orgs/org_1/teams/team_2", 200, Some(team)),
        ("/v1/spaces/space_1/change-requests/cr_1", 204, None),
    ])
    .await;
    let organizations = client.organizations();
    let answer = organizations.update("org_1").title("Acme").send_with_response().await.unwrap();
    assert_eq!((answer.status, answer.body), (204, UpdateOrganizationAnswer::NoContent));
    let UpdateOrganizationAnswer::Ok(org) = organizations.update("org_2").title("Acme").send().await.unwrap() else {
        panic!("200 answers the organization")
    };
    assert_eq!(org.title.as_deref(), Some("Acme"));
    let teams = client.teams();
    let no_content = teams.update_organization_team("org_1", "team_1", "Writers").send().await.unwrap();
    assert_eq!(no_content, UpdateOrganizationTeamAnswer::NoContent);
    assert_eq!(no_content.status(), 204);
    let updated = teams.update_organization_team("org_1", "team_2", "Writers").send().await.unwrap();
    assert!(matches!(updated, UpdateOrganizationTeamAnswer::Ok(t) if t.title.as_deref() == Some("Writers")));
    let requests = client.change_requests();
    assert_eq!(
        requests.update("space_1", "cr_1").subject("New").send().await.unwrap(),
        UpdateChangeRequestAnswer::NoContent
    );
}

#[tokio::test]
async fn the_space_counters_read_any_json_number() {
    let mut counted = space();
    counted["comments"] = json!(3);
    counted["changeRequests"] = json!(12.0);
    counted["changeRequestsOpen"] = json!(2.5);
    counted["changeRequestsDraft"] = json!(1e3);
    let client = serve(vec![("/v1/spaces/space_1", counted)]).await;
    let answer = client.spaces().get("space_1").send_with_response().await.unwrap();
    assert!(answer.not_understood.is_empty(), "{:?}", answer.not_understood);
    let space = answer.body;
    assert_eq!(
        [space.comments, space.change_requests, space.change_requests_open, space.change_requests_draft],
        [3.0, 12.0, 2.5, 1000.0]
    );
    let read: docs_api_types::Space = serde_json::from_value(space_with_comments(json!(3))).unwrap();
    assert_eq!(read.comments, 3.0, "a JSON integer reads into the counter");
}

fn space_with_comments(comments: Value) -> Value {
    let mut space = space();
    space["comments"] = comments;
    space
}
