//! The generated server's `mock::samples()` and the generated client's `samples::calls`, met
//! on the wire: every operation of a spec that is not this repository's is called once with
//! its samples (raw and multipart bodies included) and answered with the spec's sample
//! response, which the client decodes. What a conformance run relies on, on both sides.

use apigen_runtime::client::Error;
use futures_util::future::join_all;
use std::collections::BTreeSet;

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
