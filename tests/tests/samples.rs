//! The generated server's `mock::samples()` and the generated client's `samples::calls`, met
//! on the wire: every operation of a spec that is not this repository's is called once with
//! its samples (raw and multipart bodies included) and answered with the spec's sample
//! response, which the client decodes. What a conformance run relies on, on both sides.

use apigen_runtime::client::Error;
use apigen_runtime::server::axum::Router;
use apigen_runtime::server::axum::extract::Request;
use apigen_runtime::server::axum::middleware::{Next, from_fn};
use futures_util::future::join_all;
use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Serves `router` on a loopback port and gives its base URL.
async fn serve(router: apigen_runtime::server::axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(apigen_runtime::listener::serve(listener, router, Default::default()));
    format!("http://{address}")
}

/// Every call's outcome by operation name: `ok` or the error.
async fn outcomes<'a>(
    calls: Vec<(&'static str, impl std::future::Future<Output = Result<serde_json::Value, Error>> + 'a)>,
) -> Vec<(&'static str, String)> {
    let (names, futures): (Vec<_>, Vec<_>) = calls.into_iter().unzip();
    let results = join_all(futures).await;
    names
        .into_iter()
        .zip(results)
        .map(|(name, result)| (name, result.map_or_else(|e| e.to_string(), |_| "ok".into())))
        .collect()
}

/// The operation names of a generated openapi.json.
fn operations(openapi: &str) -> BTreeSet<String> {
    let document: serde_json::Value = serde_json::from_str(openapi).unwrap();
    let paths = document["paths"].as_object().unwrap();
    paths
        .values()
        .flat_map(|item| item.as_object().unwrap().values())
        .filter_map(|op| op["operationId"].as_str())
        .map(str::to_owned)
        .collect()
}

fn assert_every_call_ok(outcomes: &[(&'static str, String)], openapi: &str) {
    let failed: Vec<_> = outcomes.iter().filter(|(_, outcome)| outcome != "ok").collect();
    assert!(failed.is_empty(), "{failed:#?}");
    let called: BTreeSet<String> = outcomes.iter().map(|(name, _)| (*name).to_owned()).collect();
    assert_eq!(called, operations(openapi), "a sample call for every operation");
}

#[tokio::test]
async fn files_every_body_kind_raw_and_multipart_included_is_called_and_answered() {
    let base = serve(files_server::router(files_server::mock::samples())).await;
    let client = files_client::samples::client(&base).unwrap();
    let outcomes = outcomes(files_client::samples::calls(&client)).await;
    assert_every_call_ok(&outcomes, include_str!("../fixtures/generated/files/openapi.json"));
}

#[tokio::test]
async fn forge_every_scheme_page_style_and_status_is_called_and_answered() {
    let base = serve(forge_server::router(forge_server::mock::samples())).await;
    let client = forge_client::samples::client(&base).unwrap();
    let outcomes = outcomes(forge_client::samples::calls(&client)).await;
    assert_every_call_ok(&outcomes, include_str!("../fixtures/generated/forge/openapi.json"));
}

#[tokio::test]
async fn shapes_every_body_shape_is_called_and_answered() {
    let base = serve(shapes_server::router(shapes_server::mock::samples())).await;
    let client = shapes_client::samples::client(&base).unwrap();
    let outcomes = outcomes(shapes_client::samples::calls(&client)).await;
    assert_every_call_ok(&outcomes, include_str!("../fixtures/generated/shapes/openapi.json"));
}

#[tokio::test]
async fn the_sample_mock_answers_the_specs_sample_and_an_optional_body_may_be_left_out() {
    let base = serve(shapes_server::router(shapes_server::mock::samples())).await;
    let http = apigen_runtime::client::http_client_builder().build().unwrap();
    // touchEverything's body is optional: no body at all is a valid request.
    let touched = http.post(format!("{base}/v1/everything/touch")).bearer_auth("t").send().await.unwrap();
    assert_eq!(touched.status(), 204, "{:?}", touched.text().await);
    // JSON `null` is not: it is no instance of the body's object schema (schemathesis's
    // negative check on generated/openapi.json expects it refused).
    let null = http
        .post(format!("{base}/v1/everything/touch"))
        .bearer_auth("t")
        .header("content-type", "application/json")
        .body("null")
        .send()
        .await
        .unwrap();
    assert_eq!(null.status(), 400, "{:?}", null.text().await);
    // Lists and maps of any JSON are answered empty: a made-up item may fit none of the shapes
    // a document gives them (GitHub's `protection_rules`, an `anyOf` of objects).
    let answer = http.get(format!("{base}/v1/everything/n/2/0.5?q=q&qNum=1.5")).bearer_auth("t").send().await;
    let answer: serde_json::Value = serde_json::from_str(&answer.unwrap().text().await.unwrap()).unwrap();
    assert_eq!((&answer["JsonList"], &answer["JsonMap"]), (&serde_json::json!([]), &serde_json::json!({})));
    assert_eq!(answer["jsonRequired"], serde_json::json!({"key": "value"}), "any JSON alone is still sampled");
    // An optional field of any JSON is left out, for the same reason (dnd5eapi's `from`, a
    // `oneOf` of open objects: `{"key": "value"}` is valid as all of them, which `oneOf` refuses).
    let optional: Vec<_> = ["jsonOptional", "jsonOptionalNullable"].iter().filter_map(|k| answer.get(k)).collect();
    assert!(optional.is_empty(), "{answer}");
    let files = serve(files_server::router(files_server::mock::samples())).await;
    let http = apigen_runtime::client::http_client_builder().build().unwrap();
    let charge = http
        .post(format!("{files}/charges"))
        .bearer_auth("t")
        .header("content-type", "application/x-www-form-urlencoded")
        .body("amount=1000&currency=eur")
        .send()
        .await
        .unwrap();
    assert_eq!(charge.status(), 201);
    // The spec's sample of `Charge`, the answer's type (not the form that was sent).
    assert_eq!(charge.text().await.unwrap(), r#"{"id":"ch_1","amount":1000,"currency":"eur","tags":["tags"]}"#);
}

/// Every item of a `.stream()`, or the error that ended it.
async fn streamed<I>(items: apigen_runtime::client::Items<I>) -> Result<Vec<I>, Error> {
    futures_util::TryStreamExt::try_collect(items).await
}

/// `router` counting the requests it answers.
fn counted(router: Router) -> (Router, Arc<AtomicUsize>) {
    let count = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&count);
    let router = router.layer(from_fn(move |request: Request, next: Next| {
        seen.fetch_add(1, Ordering::SeqCst);
        next.run(request)
    }));
    (router, count)
}

/// The requests `count` saw since it last read `before`: the pages a stream read.
fn pages_since(count: &AtomicUsize, before: &mut usize) -> usize {
    let now = count.load(Ordering::SeqCst);
    std::mem::replace(before, now).abs_diff(now)
}

#[tokio::test]
async fn a_list_answered_by_the_sample_mock_ends_on_the_page_after_the_samples_in_every_page_style() {
    // The first page is the sample, pointing to a next one as the style says; the next page
    // is the last: the sample again pointing nowhere, or (offset, page) an empty page where
    // the document lets a page be empty. Every stream reads two pages.
    let (router, count) = counted(forge_server::router(forge_server::mock::samples()));
    let forge = serve(router).await;
    let client = forge_client::samples::client(&forge).unwrap();
    let mut seen = 0;
    // A cursor in the body (`/response_metadata/next_cursor`).
    let events = streamed(client.events().list("octo", "hello").stream()).await.unwrap();
    assert_eq!(events.iter().map(|event| event.id.as_str()).collect::<Vec<_>>(), ["ev_1", "ev_1"]);
    assert_eq!(pages_since(&count, &mut seen), 2);
    // The `Link` header's next URL, the body the list itself.
    let repos = streamed(client.repos().list().stream()).await.unwrap();
    assert_eq!(repos.iter().map(|repo| repo.full_name.as_str()).collect::<Vec<_>>(), ["octo/hello", "octo/hello"]);
    assert_eq!(pages_since(&count, &mut seen), 2);
    // An offset, the list ending at an empty page (its document sets no `min_items`).
    let log = streamed(client.events().list_log("octo", "hello").stream()).await.unwrap();
    assert_eq!(log.iter().map(|event| event.id.as_str()).collect::<Vec<_>>(), ["ev_1"]);
    assert_eq!(pages_since(&count, &mut seen), 2);
    // The built-in envelope's `next.page`, beside fields of the API's own.
    let (router, count) = counted(docs_api_server::router(docs_api_server::mock::samples()));
    let docs = serve(router).await;
    let client = docs_api_client::samples::client(&docs).unwrap();
    let links = streamed(client.spaces().list_links("s").stream()).await.unwrap();
    assert_eq!(links.len(), 2, "{links:?}");
    assert_eq!(count.load(Ordering::SeqCst), 2);
    // On the wire: the page after the sample's is the sample without its next cursor.
    let http = apigen_runtime::client::http_client_builder().build().unwrap();
    let last = http.get(format!("{forge}/repos/octo/hello/events?cursor=next_cursor&access_token=t")).send().await;
    let last = last.unwrap();
    assert_eq!(last.status(), 200);
    assert_eq!(last.text().await.unwrap(), r#"{"events":[{"id":"ev_1","kind":"push"}]}"#);
}

#[tokio::test]
async fn the_sample_mock_never_answers_an_empty_page_of_a_list_whose_document_says_min_items() {
    // `listEventArchive` pages by number and says `min_items: 1`: an empty page, the only way
    // that style ends, breaks its document, so every page is the sample.
    let forge = serve(forge_server::router(forge_server::mock::samples())).await;
    let http = apigen_runtime::client::http_client_builder().build().unwrap();
    for page in ["1", "2", "3"] {
        let url = format!("{forge}/repos/octo/hello/events/archive?page={page}");
        let answer = http.get(url).bearer_auth("t").send().await.unwrap();
        assert_eq!(answer.status(), 200);
        assert_eq!(answer.text().await.unwrap(), r#"[{"id":"ev_1","kind":"push"}]"#, "page {page}");
    }
    // Its openapi.json says so, as the document the judge reads would.
    let openapi: serde_json::Value =
        serde_json::from_str(include_str!("../fixtures/generated/forge/openapi.json")).unwrap();
    let archive = &openapi["paths"]["/repos/{owner}/{repo}/events/archive"]["get"]["responses"]["200"];
    assert_eq!(archive["content"]["application/json"]["schema"]["minItems"], 1);
    // The offset list beside it may be empty, and its page after the sample's is.
    let last = http.get(format!("{forge}/repos/octo/hello/events/log?offset=1")).bearer_auth("t").send().await;
    assert_eq!(last.unwrap().text().await.unwrap(), "[]");
}
