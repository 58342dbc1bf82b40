//! The sandbox's document and reference page list where to call it: the sandbox first, then
//! every server of the spec (issue 49, item 5).

use docs_api_sandbox::{Sandbox, clock::Clock, store::Store};
use tower::ServiceExt;

#[tokio::test]
async fn the_served_document_lists_the_sandbox_then_the_specs_servers() {
    let sandbox = Sandbox::new(Store::open(None, Clock::default()).unwrap());
    let app = sandbox.app_at("http://127.0.0.1:8080");
    let request = axum::http::Request::get("/openapi.json").body(axum::body::Body::empty()).unwrap();
    let response = app.oneshot(request).await.unwrap();
    assert_eq!(response.status(), 200);
    let body = axum::body::to_bytes(response.into_body(), 1 << 24).await.unwrap();
    let served: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        served["servers"],
        serde_json::json!([
            {"url": "http://127.0.0.1:8080", "description": "This sandbox (docs-api-sandbox)."},
            {
                "url": "{base_url}",
                "description": "Every path starts with /v1 and is appended to the base URL, which the documents do not show.",
                "variables": {"base_url": {"default": "https://api.example.com"}},
            },
        ])
    );
    // Nothing else of the document changed.
    let mut generated: serde_json::Value = serde_json::from_str(docs_api_sandbox::OPENAPI_JSON).unwrap();
    let mut rest = served.clone();
    rest["servers"].as_array_mut().unwrap().remove(0);
    generated["servers"] = rest["servers"].clone();
    assert_eq!(rest, generated);
}

#[test]
fn the_specs_servers_are_printed_with_their_variables_at_their_defaults() {
    assert_eq!(
        docs_api_sandbox::spec_servers(),
        [(
            "https://api.example.com".to_owned(),
            "Every path starts with /v1 and is appended to the base URL, which the documents do not show.".to_owned()
        )]
    );
}
