//! End to end: the generated client against the generated server on a loopback port.

use apigen_runtime::server::axum::http::{HeaderMap, StatusCode, header};
use apigen_runtime::server::axum::response::IntoResponse;
use apigen_runtime::server::axum::routing::{get, post};
use apigen_runtime::server::axum::{self, Router};
use apigen_runtime::testing::json_eq;
use apigen_tests::calls::sample_calls;
use docs_api_client::types::{MergeRules, SpaceVisibility};
use docs_api_client::{Client, Error, RetryPolicy};
use docs_api_server::ApiError;
use docs_api_server::mock::{MockCall, MockService};
use futures_util::StreamExt;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Serves `app` on an ephemeral loopback port; the base URL.
async fn serve(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{address}")
}

type Calls = Arc<Mutex<Vec<MockCall>>>;

/// The generated router over a mock answering with `answer`, recording every call.
async fn mock(answer: impl Fn(&MockCall) -> Result<Value, ApiError> + Send + Sync + 'static) -> (String, Calls) {
    let calls: Calls = Arc::default();
    let recorded = Arc::clone(&calls);
    let service = MockService::new(move |call| {
        let result = answer(&call);
        recorded.lock().unwrap().push(call);
        result
    });
    (serve(docs_api_server::router(service)).await, calls)
}

fn client(base: &str) -> Client {
    Client::builder(base).bearer("token-1").retry(RetryPolicy::none()).build().unwrap()
}

fn space_json() -> Value {
    let (api, _) = apigen::load(Path::new("../spec")).unwrap();
    apigen::model::sample::of_type(&api, "Space")
}

#[tokio::test]
async fn every_operation_is_called_through_the_client() {
    let (api, _) = apigen::load(Path::new("../spec")).unwrap();
    let expected = sample_calls(&api);
    let answers: Vec<(String, Option<Value>)> =
        expected.iter().map(|c| (c.op.name.clone(), c.response.clone())).collect();
    let (base, calls) = mock(move |call| {
        let answer = answers.iter().find(|(op, _)| op == call.operation).and_then(|(_, a)| a.clone());
        Ok(answer.unwrap_or(Value::Null))
    })
    .await;
    let client = client(&base);
    let mut failures = Vec::new();
    let mut exercised = BTreeSet::new();
    for (name, call) in docs_api_client::samples::calls(&client) {
        let sample = expected.iter().find(|c| c.op.name == name).expect("an operation of the spec");
        let answer = call.await;
        let Some(received) = calls.lock().unwrap().pop() else {
            failures.push(format!("{name}: the server saw no call ({answer:?})"));
            continue;
        };
        exercised.insert(received.operation.to_owned());
        if received.operation != name {
            failures.push(format!("{name}: reached {}", received.operation));
        }
        if !json_eq(&received.request, &sample.expected_request) {
            failures
                .push(format!("{name}: server received {}\n  expected {}", received.request, sample.expected_request));
        }
        match (answer, &sample.response) {
            (Ok(value), Some(expected)) if json_eq(&value, expected) => {}
            (Ok(Value::Null), None) => {}
            (other, expected) => failures.push(format!("{name}: answered {other:?}\n  expected {expected:?}")),
        }
    }
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n"));
    let in_spec: BTreeSet<String> = api.operations.iter().map(|op| op.name.clone()).collect();
    assert_eq!(exercised, in_spec, "the operations exercised are exactly those of the spec");
}

#[tokio::test]
async fn stream_reads_every_page_with_the_original_query() {
    let (base, calls) = mock(|call| {
        let items = |ids: &[&str]| -> Vec<Value> {
            ids.iter()
                .map(|id| json!({"object": "collection", "id": id, "title": id, "organization": "o", "defaultLevel": null}))
                .collect()
        };
        Ok(match call.request.get("page").and_then(Value::as_str) {
            None => json!({"next": {"page": "p2"}, "count": 7, "items": items(&["c1", "c2", "c3"])}),
            Some("p2") => json!({"next": {"page": "p3"}, "count": 7, "items": items(&["c4", "c5", "c6"])}),
            Some(_) => json!({"items": items(&["c7"])}),
        })
    })
    .await;
    let client = client(&base);
    let stream = client.collections().list_organization_collections("org_1").nested(false).limit(3).stream();
    let ids: Vec<String> = stream.map(|item| item.unwrap().id).collect().await;
    assert_eq!(ids, ["c1", "c2", "c3", "c4", "c5", "c6", "c7"]);
    let requests: Vec<Value> = calls.lock().unwrap().iter().map(|c| c.request.clone()).collect();
    assert_eq!(
        requests,
        [
            json!({"organizationId": "org_1", "nested": false, "limit": 3}),
            json!({"organizationId": "org_1", "page": "p2", "nested": false, "limit": 3}),
            json!({"organizationId": "org_1", "page": "p3", "nested": false, "limit": 3}),
        ]
    );

    // `.send()` reads one page.
    let page = client.collections().list_organization_collections("org_1").send().await.unwrap();
    assert_eq!((page.items.len(), page.count, page.next.unwrap().page.as_str()), (3, Some(7), "p2"));

    // `count` is not promised (gap `list-count`): a page without it decodes, with no count.
    let last = client.collections().list_organization_collections("org_1").page("p3").send().await.unwrap();
    assert_eq!((last.items.len(), last.count, last.next), (1, None, None));
}

#[tokio::test]
async fn streams_stop_at_the_page_guard_and_on_a_repeated_cursor() {
    // Every page, the first included, points to "p9": the second page repeats its own cursor.
    let (base, _) = mock(|_| Ok(json!({"next": {"page": "p9"}, "count": 1, "items": [{"status": "ok"}]}))).await;
    let guarded = Client::builder(&base).bearer("t").max_pages(1).build().unwrap();
    let results: Vec<_> = guarded.spaces().list_links("s").stream().collect().await;
    assert_eq!(results.len(), 2, "{results:?}");
    assert_eq!(results[1].as_ref().unwrap_err().to_string(), "stopped after 1 pages (the client's page guard)");

    let results: Vec<_> = client(&base).spaces().list_links("s").stream().collect().await;
    let last = results.last().unwrap().as_ref().unwrap_err();
    assert_eq!(last.to_string(), "the service repeated the page cursor \"p9\"");
    assert_eq!(results.len(), 3, "two pages of one item, then the error");
}

/// A server whose `path` answers `first` once (with `Retry-After: 1` on 429), then 200.
async fn flaky(first: StatusCode) -> (String, Arc<AtomicUsize>) {
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&hits);
    let handler = move || {
        let counter = Arc::clone(&counter);
        async move {
            if counter.fetch_add(1, Ordering::SeqCst) == 0 {
                let mut headers = HeaderMap::new();
                if first == StatusCode::TOO_MANY_REQUESTS {
                    headers.insert(header::RETRY_AFTER, "1".parse().unwrap());
                }
                let body = json!({"error": {"code": first.as_u16(), "message": "slow down"}}).to_string();
                (first, headers, body).into_response()
            } else {
                let collection =
                    json!({"object": "collection", "id": "c", "title": "T", "organization": "o", "defaultLevel": null});
                ([(header::CONTENT_TYPE, "application/json")], collection.to_string()).into_response()
            }
        }
    };
    let app = Router::new()
        .route("/v1/collections/{id}", get(handler.clone()))
        .route("/v1/collections/{id}/transfer", post(handler));
    (serve(app).await, hits)
}

#[tokio::test]
async fn a_429_is_retried_after_its_retry_after_and_succeeds() {
    let (base, hits) = flaky(StatusCode::TOO_MANY_REQUESTS).await;
    let client = Client::new(&base, "t").unwrap();
    let started = Instant::now();
    let collection = client.collections().get("c").send().await.unwrap();
    assert_eq!(collection.id, "c");
    assert_eq!(hits.load(Ordering::SeqCst), 2);
    assert!(started.elapsed() >= Duration::from_millis(950), "waited {:?}", started.elapsed());
}

#[tokio::test]
async fn post_is_not_retried_unless_the_caller_opts_in() {
    let (base, hits) = flaky(StatusCode::SERVICE_UNAVAILABLE).await;
    let error = Client::new(&base, "t").unwrap().collections().transfer("c", "o2").send().await.unwrap_err();
    assert_eq!(error.status(), Some(503));
    assert_eq!(hits.load(Ordering::SeqCst), 1, "POST was sent once");

    let (base, hits) = flaky(StatusCode::SERVICE_UNAVAILABLE).await;
    let retry =
        RetryPolicy { retry_non_idempotent: true, initial_backoff: Duration::from_millis(1), ..RetryPolicy::default() };
    let client = Client::builder(&base).bearer("t").retry(retry).build().unwrap();
    assert_eq!(client.collections().transfer("c", "o2").send().await.unwrap().id, "c");
    assert_eq!(hits.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn api_errors_carry_the_status_code_message_and_violations() {
    let (base, _) = mock(|call| match call.operation {
        "getOrganization" => Err(ApiError::not_found("no matching organization for the id")),
        _ => Ok(Value::Null),
    })
    .await;
    let client = client(&base);
    match client.organizations().get("o_missing").send().await.unwrap_err() {
        Error::Api { status, code, message, violations, body, headers, decoded } => {
            assert!(decoded.is_none(), "the spec declares no error type: only the shape is read");
            assert_eq!((status, code, message.as_str()), (404, 404, "no matching organization for the id"));
            assert_eq!(headers["content-type"], "application/json", "the error keeps its headers");
            assert!(violations.is_empty());
            assert_eq!(body, r#"{"error":{"code":404,"message":"no matching organization for the id"}}"#);
        }
        other => panic!("expected an API error, got {other:?}"),
    }

    let source = docs_api_client::types::OpenApiSpecSource::from(docs_api_client::types::OpenApiSpecSourceUrl {
        url: "not a url".into(),
    });
    // Two required body fields: the body is a struct literal, each field named.
    let body = docs_api_client::types::CreateOpenApiSpecBody { slug: "Bad Slug".into(), source };
    let error = client.openapi_specs().create_organization_open_api_spec("o", body).send().await.unwrap_err();
    let Error::Api { status, violations, .. } = &error else { panic!("{error:?}") };
    assert_eq!(status, &400);
    let paths: Vec<&str> = violations.iter().map(|v| v.path.as_str()).collect();
    assert_eq!(paths, ["/slug", "/source/url"]);
    assert_eq!(
        error.to_string(),
        "the service answered 400: the request is invalid; /slug: must match the pattern ^[a-z0-9]+(?:-[a-z0-9]+)*$; /source/url: must be an absolute URL"
    );
}

#[tokio::test]
async fn client_side_validation_fails_before_sending() {
    let (base, calls) = mock(|_| Ok(Value::Null)).await;
    let client = Client::builder(&base).bearer("t").validate_requests(true).build().unwrap();
    let error = client.site_structure().update_site_section("o", "s", "sec").title("x").send().await.unwrap_err();
    assert_eq!(error.to_string(), "the request is invalid: /title: must be at least 2 characters long (found 1)");
    assert!(calls.lock().unwrap().is_empty(), "nothing was sent");
}

#[tokio::test]
async fn responses_with_unknown_values_variants_and_fields_decode() {
    let mut space = space_json();
    space["visibility"] = json!("members-only");
    space["mergeRules"] = json!({"type": "approvals", "count": 2});
    space["brandNewField"] = json!({"nested": true});
    let answer = space.clone();
    let (base, _) = mock(move |_| Ok(answer.clone())).await;
    let decoded = client(&base).spaces().get("space_1").send().await.unwrap();
    assert_eq!(decoded.visibility, SpaceVisibility::Unknown("members-only".into()));
    assert_eq!(decoded.merge_rules, MergeRules::Unknown(json!({"type": "approvals", "count": 2})));
    let written = serde_json::to_value(&decoded).unwrap();
    space.as_object_mut().unwrap().remove("brandNewField");
    assert!(json_eq(&written, &space), "everything known is kept: {written}");
}

#[tokio::test]
async fn decode_failures_name_the_json_path_and_show_the_value() {
    let mut space = space_json();
    space["createdAt"] = json!("yesterday");
    let (base, _) = mock(move |_| Ok(space.clone())).await;
    // The server decodes its own answer too; a raw route shows what the client does alone.
    let bad = json!({"object": "space", "id": "s", "createdAt": "yesterday"}).to_string();
    let app = Router::new()
        .route("/v1/spaces/{id}", get(move || async move { ([(header::CONTENT_TYPE, "application/json")], bad) }));
    let raw = serve(app).await;
    match client(&raw).spaces().get("s").send().await.unwrap_err() {
        Error::Decode { path, message, snippet } => {
            assert_eq!(path, "/title");
            assert_eq!(message, "is required");
            assert!(snippet.starts_with('{'), "{snippet}");
        }
        other => panic!("{other:?}"),
    }
    let error = client(&base).spaces().get("s").send().await.unwrap_err();
    assert_eq!(error.status(), Some(500), "the mock's own answer does not decode: {error}");
}

#[tokio::test]
async fn patch_fields_are_sent_absent_null_or_set() {
    let (base, calls) = mock(|_| Ok(Value::Null)).await;
    let client = client(&base);
    let section = || client.site_structure().update_site_section("o", "s", "sec");
    let _ = section().send().await;
    let _ = section().clear_condition().send().await;
    let _ = section().condition("visitor.claims.beta").icon("book").clear_description().send().await;
    let bodies: Vec<Value> = calls.lock().unwrap().iter().map(|c| c.request["body"].clone()).collect();
    assert_eq!(
        bodies,
        [
            json!({}),
            json!({"condition": null}),
            json!({"condition": "visitor.claims.beta", "icon": "book", "description": null})
        ]
    );
}

#[tokio::test]
async fn timeouts_and_transport_failures_are_told_apart() {
    let app = Router::new().route(
        "/v1/spaces/{id}",
        get(|| async {
            tokio::time::sleep(Duration::from_secs(2)).await;
            "late"
        }),
    );
    let base = serve(app).await;
    let slow = Client::builder(&base).bearer("t").timeout(Duration::from_millis(200)).build().unwrap();
    assert!(matches!(slow.spaces().get("s").send().await, Err(Error::Timeout(_))));

    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap().local_addr().unwrap();
    let unreachable = Client::builder(format!("http://{closed}"))
        .bearer("t")
        .retry(RetryPolicy { max_retries: 2, initial_backoff: Duration::from_millis(1), ..RetryPolicy::default() })
        .build()
        .unwrap();
    assert!(matches!(unreachable.spaces().get("s").send().await, Err(Error::Transport(_))));
}

#[tokio::test]
async fn the_token_never_shows_in_debug_output() {
    let client = Client::new("http://127.0.0.1:1", "hunter2-secret").unwrap();
    let debug = format!("{client:?}");
    assert!(!debug.contains("hunter2"), "{debug}");
    assert!(debug.contains("<redacted>"), "{debug}");
    let builder = client.spaces().get("s").share_key("share-secret");
    assert!(!format!("{builder:?}").contains("share-secret"), "a sensitive parameter is redacted too");
}

#[tokio::test]
async fn the_bearer_token_and_user_agent_are_sent() {
    let app = Router::new().route(
        "/v1/spaces/{id}",
        get(|headers: HeaderMap| async move {
            let seen = format!("{:?} {:?}", headers[header::AUTHORIZATION], headers[header::USER_AGENT]);
            (StatusCode::IM_A_TEAPOT, seen)
        }),
    );
    let base = serve(app).await;
    let error = Client::new(&base, "token-1").unwrap().spaces().get("s").send().await.unwrap_err();
    let Error::Api { body, .. } = error else { panic!() };
    // The service echoes the token; the error the caller gets shows it redacted.
    assert_eq!(body, format!("\"Bearer <redacted>\" {:?}", docs_api_client::USER_AGENT));
}
