//! The state tables through the generated client: the space lifecycle of Part A §3.1 (with
//! the clock moved past the 7-day window), moves and pagination of collections and spaces,
//! and the change-request states of Part B §3.1 with the space's revision and counters.

mod common;

use docs_api_types::{
    ChangeRequestResult, ChangeRequestStatus, Space, SpaceEditMode, SpacePosition, SpacePositionSpace,
    UpdateChangeRequestAnswer,
};

fn space_in(sb: &common::Running, collection: &str, title: &str) -> String {
    let org = sb.boot.organization.clone();
    sb.sandbox
        .store()
        .write(|tx| docs_api_sandbox::api::spaces::create_space(tx, &org, Some(collection), title))
        .unwrap()
}

fn stored_space(sb: &common::Running, id: &str) -> Space {
    sb.sandbox.store().read(|tx| tx.get::<Space>("space", id)).unwrap()
}

fn before(space: &str) -> SpacePosition {
    SpacePosition { before: Some(SpacePositionSpace { space: space.to_owned() }.into()), after: None }
}

#[tokio::test]
async fn a_deleted_space_leaves_its_list_and_is_restorable_for_seven_days_only() {
    let sb = common::start().await;
    let collection = sb
        .client
        .collections()
        .create_organization_collection(&sb.boot.organization)
        .title("Guides")
        .send()
        .await
        .unwrap();
    let space = space_in(&sb, &collection.id, "Handbook");
    assert_eq!(sb.client.collections().list_spaces(&collection.id).send().await.unwrap().count, Some(1));

    sb.client.spaces().delete(&space).send().await.unwrap();
    let deleted = sb.client.spaces().get(&space).send().await.unwrap();
    assert!(deleted.deleted_at.is_some(), "a deleted space shows when it was deleted");
    assert_eq!(sb.client.collections().list_spaces(&collection.id).send().await.unwrap().count, Some(0));
    assert_eq!(common::status(sb.client.spaces().update(&space).title("Renamed").send().await), 404);
    // Its content is gone with it until it is restored (CI's fuzzing leaves out schemathesis's
    // use_after_free check, which does not know a restore: this is the check instead).
    assert_eq!(common::status(sb.client.content().list_space_pages(&space).send().await), 404);
    assert_eq!(common::status(sb.client.content().list_space_files(&space).send().await), 404);

    sb.clock().advance(chrono::Duration::days(6));
    let restored = sb.client.spaces().restore(&space).send().await.unwrap();
    assert_eq!(restored.deleted_at, None);
    sb.client.content().list_space_pages(&space).send().await.unwrap();
    sb.client.content().list_space_files(&space).send().await.unwrap();
    assert_eq!(sb.client.collections().list_spaces(&collection.id).send().await.unwrap().count, Some(1));
    let (status, message) = common::failure(sb.client.spaces().restore(&space).send().await);
    assert_eq!((status, message.as_str()), (400, format!("space {space} is not deleted").as_str()));

    sb.client.spaces().delete(&space).send().await.unwrap();
    sb.clock().advance(chrono::Duration::days(8));
    assert_eq!(common::status(sb.client.spaces().restore(&space).send().await), 404);
    assert_eq!(common::status(sb.client.spaces().get(&space).send().await), 404);
    // Deleting what is not there succeeds with no content.
    sb.client.spaces().delete(&space).send().await.unwrap();
    sb.client.spaces().delete("space_404").send().await.unwrap();
    sb.client.collections().delete("collection_404").send().await.unwrap();
}

#[tokio::test]
async fn edit_mode_locks_content_and_only_members_with_the_role_change_a_space() {
    let sb = common::start().await;
    let space = sb.seed_space("Locked");
    let locked = sb.client.spaces().update(&space).edit_mode(SpaceEditMode::Locked).send().await.unwrap();
    assert_eq!(locked.edit_mode, Some(SpaceEditMode::Locked));
    let (status, message) =
        common::failure(sb.client.content().apply_space_content_template(&space, "tpl_1").send().await);
    assert_eq!((status, message), (400, format!("space {space} is locked: its content cannot be edited")));
    let (_, reader) = sb.member("rita", Some("read"));
    assert_eq!(reader.spaces().get(&space).send().await.unwrap().id, space);
    let (status, message) = common::failure(reader.spaces().update(&space).title("Mine").send().await);
    assert_eq!(
        (status, message.as_str()),
        (403, format!("this needs the create role in organization {}", sb.boot.organization).as_str())
    );
    let (_, stranger) = {
        let (id, client) = sb.member("sam", Some("read"));
        sb.sandbox.store().write(|tx| tx.delete("member", &format!("{}/{id}", sb.boot.organization))).unwrap();
        (id, client)
    };
    assert_eq!(common::status(stranger.spaces().get(&space).send().await), 403);
}

#[tokio::test]
async fn spaces_move_among_siblings_and_lists_page_with_cursors() {
    let sb = common::start().await;
    let collection = sb
        .client
        .collections()
        .create_organization_collection(&sb.boot.organization)
        .title("Many")
        .send()
        .await
        .unwrap();
    let ids: Vec<String> = (1..=7).map(|n| space_in(&sb, &collection.id, &format!("Space {n}"))).collect();
    sb.client.spaces().move_(&ids[6]).position(before(&ids[0])).send().await.unwrap();

    let mut seen = Vec::new();
    let mut page = sb.client.collections().list_spaces(&collection.id).limit(3).send().await.unwrap();
    let mut pages = 1;
    assert_eq!(page.count, Some(7));
    loop {
        seen.extend(page.items.iter().map(|s| s.id.clone()));
        let Some(next) = page.next.clone() else { break };
        page = sb.client.collections().list_spaces(&collection.id).limit(3).page(next.page).send().await.unwrap();
        pages += 1;
    }
    assert_eq!(pages, 3);
    let mut expected = vec![ids[6].clone()];
    expected.extend(ids[..6].iter().cloned());
    assert_eq!(seen, expected);

    // A cursor of one list is refused by another.
    let first = sb.client.collections().list_spaces(&collection.id).limit(3).send().await.unwrap();
    let other = sb.client.collections().create_organization_collection(&sb.boot.organization).send().await.unwrap();
    let cursor = first.next.unwrap().page;
    assert_eq!(common::status(sb.client.collections().list_spaces(&other.id).page(cursor).send().await), 400);

    // A position naming a space of another collection is refused, naming it.
    let stray = space_in(&sb, &other.id, "Elsewhere");
    let (status, message) = common::failure(sb.client.spaces().move_(&ids[0]).position(before(&stray)).send().await);
    assert_eq!((status, message), (400, format!("{stray} is not a sibling of {}", ids[0])));

    // Moving into another collection changes the parent and the lists.
    let moved = sb.client.spaces().move_(&ids[0]).parent(other.id.clone()).send().await.unwrap();
    assert_eq!(moved.parent.as_deref(), Some(other.id.as_str()));
    assert_eq!(sb.client.collections().list_spaces(&collection.id).send().await.unwrap().count, Some(6));
    assert_eq!(sb.client.collections().list_spaces(&other.id).send().await.unwrap().count, Some(2));
}

#[tokio::test]
async fn a_change_request_goes_from_draft_to_open_to_merged_and_moves_the_space() {
    let sb = common::start().await;
    let space = sb.seed_space("Docs");
    let crs = sb.client.change_requests();
    let first = crs.create_space_change_request(&space).subject("Fix typos").send().await.unwrap();
    let second = crs.create_space_change_request(&space).subject("New guide").send().await.unwrap();
    assert_eq!((first.number, first.status.clone()), (Some(1), Some(ChangeRequestStatus::Draft)));
    assert_eq!(second.number, Some(2));
    let main = stored_space(&sb, &space).revision;
    assert_eq!(first.revision_initial.as_deref(), Some(main.as_str()));
    assert_eq!(
        (stored_space(&sb, &space).change_requests, stored_space(&sb, &space).change_requests_draft),
        (2.0, 2.0)
    );

    let UpdateChangeRequestAnswer::Ok(opened) =
        crs.update(&space, &first.id).status(ChangeRequestStatus::Open).send().await.unwrap()
    else {
        panic!("the sandbox answers an update with the change request")
    };
    assert_eq!(opened.status, Some(ChangeRequestStatus::Open));
    let counted = stored_space(&sb, &space);
    assert_eq!((counted.change_requests_open, counted.change_requests_draft), (1.0, 1.0));
    assert_eq!(
        crs.list_space_change_requests(&space).send().await.unwrap().count,
        Some(1),
        "the list shows open ones by default"
    );

    let merged = crs.merge(&space, &first.id).send().await.unwrap();
    assert_eq!(merged.result, Some(ChangeRequestResult::Merge));
    let after = stored_space(&sb, &space);
    assert_eq!(Some(after.revision.clone()), merged.revision);
    assert_ne!(after.revision, main);
    assert_eq!(crs.get(&space, &first.id).send().await.unwrap().revision_merged, merged.revision);
    assert_eq!((after.change_requests_open, after.change_requests), (0.0, 2.0));
    let (status, message) = common::failure(crs.merge(&space, &first.id).send().await);
    assert_eq!((status, message), (400, format!("change request {} is already merged", first.id)));

    // The other one is now behind main: merging it reports a conflict and changes nothing,
    // until it is brought up to date.
    assert_eq!(crs.get(&space, &second.id).send().await.unwrap().outdated, Some(true));
    let refused = crs.merge(&space, &second.id).send().await.unwrap();
    assert_eq!(
        (refused.result, refused.revision),
        (Some(ChangeRequestResult::Conflicts), Some(after.revision.clone()))
    );
    let updated = crs.update_from_main(&space, &second.id).send().await.unwrap();
    assert_eq!(updated.result, Some(ChangeRequestResult::Update));
    assert_eq!(
        crs.get(&space, &second.id).send().await.unwrap().revision_merged_ancestor,
        Some(after.revision.clone())
    );
    assert_eq!(crs.merge(&space, &second.id).send().await.unwrap().result, Some(ChangeRequestResult::Merge));

    // The PDF link of one page carries the page as a URL-safe query value, whatever was sent.
    let pdf = crs.get_pdf(&space, &first.id).only(true).page("a b/ü").send().await.unwrap();
    assert_eq!(pdf.url.unwrap(), format!("https://pdf.example.com/{space}/{}.pdf?page=a%20b%2F%C3%BC", first.id));
    assert_eq!(common::status(crs.get_pdf(&space, &first.id).only(true).send().await), 400);

    // A change request of another space is not found through this one.
    let elsewhere = sb.seed_space("Other");
    assert_eq!(common::status(crs.get(&elsewhere, &first.id).send().await), 404);
}

#[tokio::test]
async fn content_reads_the_space_revision_and_the_change_request_revision() {
    let sb = common::start().await;
    let space = sb.seed_space("Manual");
    let (page, file) = sb
        .sandbox
        .store()
        .write(|tx| {
            let file = docs_api_sandbox::api::content::seed_file(tx, &space, "logo.png", "image/png", 1024)?;
            let page = docs_api_sandbox::api::content::seed_page(
                tx,
                &space,
                "Install guide",
                &format!("Install it.\n\nSee [the site](https://example.com) and [a draft](draft-page), image {file}."),
            )?;
            Ok((page, file))
        })
        .unwrap();
    let content = sb.client.content();
    let pages = content.list_space_pages(&space).send().await.unwrap();
    assert_eq!(pages.pages.len(), 1);
    let docs_api_types::Page::Document(read) = content.get_space_page(&space, &page).send().await.unwrap() else {
        panic!("a document page")
    };
    assert!(read.markdown.as_deref().unwrap().starts_with("Install it."));
    let docs_api_types::Page::Document(as_document) =
        content.get_space_page(&space, &page).format("document").send().await.unwrap()
    else {
        panic!()
    };
    assert_eq!((as_document.markdown.is_none(), as_document.document.map(|d| d.nodes.len())), (true, Some(2)));
    let links = content.list_space_page_links(&space, &page).send().await.unwrap();
    assert_eq!(links.count, Some(2));
    let broken =
        content.list_space_page_links(&space, &page).status(docs_api_types::LinkStatus::Broken).send().await.unwrap();
    assert_eq!((broken.count, broken.stats.and_then(|s| s.total)), (Some(1), Some(2)));
    assert_eq!(content.list_space_file_backlinks(&space, &file).send().await.unwrap().count, Some(1));
    assert_eq!(content.search_space_content(&space, "install GUIDE").send().await.unwrap().count, Some(1));
    assert_eq!(content.search_space_content(&space, "nothing like this").send().await.unwrap().count, Some(0));
    assert_eq!(common::status(content.get_space_page(&space, "page_404").send().await), 404);

    let cr = sb.client.change_requests().create_space_change_request(&space).send().await.unwrap();
    let cr_pages = content.list_change_request_pages(&space, &cr.id).send().await.unwrap();
    assert_eq!(cr_pages.pages.len(), 1, "a change request starts from the space's content");
    assert_eq!(
        content.get_change_request_file(&space, &cr.id, &file).send().await.unwrap().name.as_deref(),
        Some("logo.png")
    );
}

#[tokio::test]
async fn a_comment_is_resolved_and_reopened_and_the_space_counts_open_ones() {
    use docs_api_types::{CommentBodyMarkdown, CommentStatus, CommentStatusFilter};
    let sb = common::start().await;
    let space = sb.seed_space("Talk");
    let (commenter_id, commenter) = sb.member("cora", Some("comment"));
    let (_, reader) = sb.member("rita", Some("read"));
    let body = |text: &str| docs_api_types::CommentBody::from(CommentBodyMarkdown { markdown: text.to_owned() });
    assert_eq!(common::status(reader.comments().create_space_comment(&space, body("no")).send().await), 403);
    let first = commenter.comments().create_space_comment(&space, body("Is this right?")).send().await.unwrap();
    let second = sb.client.comments().create_space_comment(&space, body("Typo here")).send().await.unwrap();
    assert_eq!(stored_space(&sb, &space).comments, 2.0);

    let resolved = sb.client.comments().update_space_comment(&space, &first.id).resolved(true).send().await.unwrap();
    assert_eq!(resolved.status, Some(CommentStatus::Resolved));
    assert!(resolved.resolved_at.is_some());
    assert_eq!(resolved.resolved_by.map(|u| u.id), Some(sb.boot.user.clone()));
    assert_eq!(stored_space(&sb, &space).comments, 1.0);
    let only_resolved =
        sb.client.comments().list_space_comments(&space).status(CommentStatusFilter::Resolved).send().await.unwrap();
    assert_eq!(only_resolved.items.iter().map(|c| c.id.clone()).collect::<Vec<_>>(), std::slice::from_ref(&first.id));

    let reopened = commenter.comments().update_space_comment(&space, &first.id).resolved(false).send().await.unwrap();
    assert_eq!((reopened.status, reopened.resolved_at, reopened.resolved_by), (None, None, None));
    assert_eq!(stored_space(&sb, &space).comments, 2.0);

    // Newest first by default; replies are counted on their comment.
    let listed = sb.client.comments().list_space_comments(&space).send().await.unwrap();
    assert_eq!(listed.items.iter().map(|c| c.id.clone()).collect::<Vec<_>>(), [second.id.clone(), first.id.clone()]);
    let by_cora =
        sb.client.comments().list_space_comments(&space).authors([commenter_id.clone()]).send().await.unwrap();
    assert_eq!(by_cora.items.iter().map(|c| c.id.clone()).collect::<Vec<_>>(), std::slice::from_ref(&first.id));
    let by_both =
        sb.client.comments().list_space_comments(&space).authors([commenter_id.clone(), sb.boot.user.clone()]);
    assert_eq!(by_both.send().await.unwrap().count, Some(2));
    sb.client.comments().create_space_comment_reply(&space, &first.id, body("Yes")).send().await.unwrap();
    let with_reply = sb.client.comments().get_space_comment(&space, &first.id).send().await.unwrap();
    assert_eq!(with_reply.replies, Some(1));
    let commenters = sb.client.comments().list_space_commenters(&space).send().await.unwrap();
    assert_eq!(commenters.count, Some(2));
    assert!(commenters.items.iter().any(|m| m.id == commenter_id));

    // Only its author edits a body; deleting an absent comment succeeds.
    assert_eq!(
        common::status(
            commenter.comments().update_space_comment(&space, &second.id).body_body(body("mine")).send().await
        ),
        403
    );
    sb.client.comments().delete_space_comment(&space, &second.id).send().await.unwrap();
    sb.client.comments().delete_space_comment(&space, &second.id).send().await.unwrap();
    assert_eq!(stored_space(&sb, &space).comments, 1.0);
}

#[tokio::test]
async fn the_space_counters_are_answered_as_json_numbers_and_read_as_numbers() {
    use apigen_runtime::server::axum::{body::Body, http::Request};
    use docs_api_types::CommentBodyMarkdown;
    use tower::ServiceExt;
    let sb = common::start().await;
    let space = sb.seed_space("Counted");
    let body = |text: &str| docs_api_types::CommentBody::from(CommentBodyMarkdown { markdown: text.to_owned() });
    for text in ["One", "Two"] {
        sb.client.comments().create_space_comment(&space, body(text)).send().await.unwrap();
    }
    let crs = sb.client.change_requests();
    let draft = crs.create_space_change_request(&space).subject("Draft").send().await.unwrap();
    crs.create_space_change_request(&space).subject("Open").send().await.unwrap();
    crs.update(&space, &draft.id).status(ChangeRequestStatus::Open).send().await.unwrap();

    // On the wire: numbers (gap `number-types`: the service's schema types them `number`).
    let request = Request::get(format!("/v1/spaces/{space}"))
        .header("authorization", format!("Bearer {}", sb.boot.token))
        .body(Body::empty())
        .unwrap();
    let answer = sb.sandbox.app().oneshot(request).await.unwrap();
    assert_eq!(answer.status(), 200);
    let bytes = apigen_runtime::server::axum::body::to_bytes(answer.into_body(), 1 << 20).await.unwrap();
    let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let counters = ["comments", "changeRequests", "changeRequestsOpen", "changeRequestsDraft"];
    let numbers: Vec<Option<f64>> = counters.iter().map(|name| json[name].as_f64()).collect();
    assert_eq!(numbers, [Some(2.0), Some(2.0), Some(1.0), Some(1.0)], "{json}");

    // Through the client: the same numbers.
    let read = sb.client.spaces().get(&space).send().await.unwrap();
    let read = [read.comments, read.change_requests, read.change_requests_open, read.change_requests_draft];
    assert_eq!(read, [2.0, 2.0, 1.0, 1.0]);
}
