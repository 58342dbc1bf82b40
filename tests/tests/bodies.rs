//! An imported API's own error body on the wire (`tests/fixtures/valid/bodies`, what the
//! import writes for a document whose error body is written inline under
//! `components/responses`): the router's refusals are in the document's shape, `{ message,
//! extensions }` with `extensions` filled, and the client reads the message from where the
//! convention says, never the raw JSON.

use bodies_client::{Client, Error, RetryPolicy};
use bodies_server::types::{ErrorBody, Thing};
use bodies_server::{Anonymous, ApiError, Authenticator, Context, Credential, GetARequest, GetBRequest, RouterBuilder};

/// The service: `getA` finds nothing, `getB` finds the thing it is asked for.
struct Things;

impl Authenticator for Things {
    type Principal = String;
    async fn authenticate(&self, _: Credential<'_>) -> Result<String, ApiError> {
        Err(ApiError::unauthorized("every operation is public"))
    }
}

async fn start() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = RouterBuilder::new(Things)
        .get_a(|_, _: Context<Anonymous>, request: GetARequest| async move {
            Err::<Thing, _>(ApiError::not_found(format!("no thing is {}", request.q)))
        })
        .get_b(|_, _: Context<Anonymous>, request: GetBRequest| async move { Ok(Thing { id: Some(request.q) }) })
        // The raw bodies of tag `raw` are tests/tests/raw_bodies.rs's.
        .build_partial();
    tokio::spawn(apigen_runtime::listener::serve(listener, app, Default::default()));
    format!("http://{address}")
}

fn client(base: &str) -> Client {
    Client::builder(base).bearer("unused").retry(RetryPolicy::none()).build().unwrap()
}

#[tokio::test]
async fn a_refusal_is_written_in_the_documents_own_error_body() {
    let base = start().await;
    let http = bodies_client::http_client_builder().build().unwrap();
    // The required query parameter left out: 400, in `{ message, extensions }`.
    let refused = http.get(format!("{base}/b")).send().await.unwrap();
    assert_eq!(refused.status(), 400);
    assert_eq!(refused.headers()["content-type"], "application/json");
    assert_eq!(
        refused.text().await.unwrap(),
        r#"{"extensions":{},"message":"the request is invalid: query.q: is required"}"#
    );
    // An unknown route: 404 in the same shape.
    let missing = http.get(format!("{base}/nowhere")).send().await.unwrap();
    assert_eq!(missing.status(), 404);
    let body: serde_json::Value = serde_json::from_str(&missing.text().await.unwrap()).unwrap();
    assert_eq!(body["extensions"], serde_json::json!({}));
    assert!(body["message"].is_string(), "{body}");
}

#[tokio::test]
async fn the_client_reads_the_message_where_the_documents_error_body_holds_it() {
    let base = start().await;
    let error = client(&base).a().get("blue").send().await.unwrap_err();
    let Error::Api { status, message, body, .. } = &error else { panic!("{error:?}") };
    assert_eq!((*status, message.as_str()), (404, "no thing is blue"), "the message, not the raw JSON");
    assert_eq!(body, r#"{"extensions":{},"message":"no thing is blue"}"#);
    let decoded = error.body_as::<ErrorBody>().expect("the API's error type, decoded");
    assert_eq!(decoded.message, "no thing is blue");
    assert_eq!((&decoded.extensions.code, &decoded.extensions.trace), (&None, &None));
    // And an answer still decodes.
    let thing = client(&base).b().get("red").send().await.unwrap();
    assert_eq!(thing.id.as_deref(), Some("red"));
}

#[test]
fn the_fixture_declares_the_error_body_the_import_finds_in_the_document() {
    let text = std::fs::read_to_string("fixtures/openapi/errors-responses-3.0.json").unwrap();
    let document: serde_json::Value = serde_json::from_str(&text).unwrap();
    let imported = apigen::import::import(&document, "errors-responses-3.0.json").unwrap();
    let errors_line = |api_yaml: &str| api_yaml.lines().find(|l| l.starts_with("  errors:")).map(str::to_owned);
    let written = imported.files.iter().find(|(name, _)| name.as_str() == "api.yaml").map(|(_, text)| text).unwrap();
    let fixture = std::fs::read_to_string("fixtures/valid/bodies/api.yaml").unwrap();
    assert_eq!(errors_line(written), errors_line(&fixture));
    assert_eq!(
        errors_line(&fixture).as_deref(),
        Some("  errors: { type: ErrorBody, media_type: application/json, message: /message, fill: [/extensions] }")
    );
}
