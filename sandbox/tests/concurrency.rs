//! Concurrent writers lose nothing, and a database file survives a restart.

mod common;

use docs_api_sandbox::clock::Clock;
use docs_api_sandbox::store::Store;
use docs_api_types::{CommentBody, CommentBodyMarkdown};

fn markdown(text: &str) -> CommentBody {
    CommentBodyMarkdown { markdown: text.to_owned() }.into()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn thirty_two_concurrent_writers_lose_no_comment_and_no_change_request() {
    let sb = common::start().await;
    let space = sb.seed_space("Busy");
    let writers: Vec<_> = (0..32)
        .map(|writer| {
            let client = sb.client.clone();
            let space = space.clone();
            tokio::spawn(async move {
                for round in 0..5 {
                    let text = format!("writer {writer} round {round}");
                    client.comments().create_space_comment(&space, markdown(&text)).send().await.unwrap();
                    client.change_requests().create_space_change_request(&space).subject(text).send().await.unwrap();
                }
            })
        })
        .collect();
    for writer in writers {
        writer.await.unwrap();
    }
    let comments = sb.client.comments().list_space_comments(&space).limit(1).send().await.unwrap();
    assert_eq!(comments.count, Some(32 * 5));
    let requests = sb
        .client
        .change_requests()
        .list_space_change_requests(&space)
        .status(docs_api_types::ChangeRequestStatus::Draft)
        .limit(1)
        .send()
        .await
        .unwrap();
    assert_eq!(requests.count, Some(32 * 5));
    let counted = sb.sandbox.store().read(|tx| tx.get::<docs_api_types::Space>("space", &space)).unwrap();
    assert_eq!((counted.comments, counted.change_requests, counted.change_requests_draft), (160.0, 160.0, 160.0));
    let numbers: std::collections::BTreeSet<i64> = sb
        .sandbox
        .store()
        .read(|tx| tx.all("change-request", &space))
        .unwrap()
        .iter()
        .filter_map(|row| row.data["number"].as_i64())
        .collect();
    assert_eq!(numbers, (1..=160).collect(), "every change request has its own number");
    // Every comment arrived once: all 160 texts, no duplicate.
    use futures_util::TryStreamExt;
    let all: Vec<_> = sb.client.comments().list_space_comments(&space).limit(7).stream().try_collect().await.unwrap();
    let mut texts: Vec<String> = all
        .iter()
        .map(|comment| comment.body.as_ref().and_then(|body| body.markdown.clone()).unwrap_or_default())
        .collect();
    texts.sort();
    texts.dedup();
    assert_eq!(texts.len(), 160);
}

#[tokio::test]
async fn a_database_file_keeps_its_data_and_its_token_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sandbox.db");
    let org = {
        let sb = common::start_with(Store::open(Some(&path), Clock::default()).unwrap()).await;
        sb.client.organizations().update(&sb.boot.organization).title("Kept").send().await.unwrap();
        sb.boot.organization.clone()
    };
    let sb = common::start_with(Store::open(Some(&path), Clock::default()).unwrap()).await;
    assert_eq!(sb.boot.organization, org, "the restart bootstraps nothing new");
    let orgs = sb.client.organizations().list().send().await.unwrap();
    assert_eq!(orgs.count, Some(1));
    assert_eq!(orgs.items[0].title.as_deref(), Some("Kept"));
}
