//! Headers both ways: the client's default headers and a call's own headers reach the
//! server; the status and headers of an answer (and of a failure) reach the caller.

use apigen_runtime::server::axum::http::{HeaderMap, StatusCode};
use apigen_runtime::server::axum::response::IntoResponse;
use apigen_runtime::server::axum::{Router, routing::get};
use docs_api_client::{Client, Error, RetryPolicy};

/// Answers a space whose title lists the headers it received, with a request id header; and
/// a 404 with its own header for any other space.
async fn echo(headers: HeaderMap, path: apigen_runtime::server::axum::extract::Path<String>) -> impl IntoResponse {
    let seen = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("-").to_owned();
    if path.0 != "space_1" {
        let body = r#"{"error":{"code":404,"message":"no such space"}}"#;
        return (
            StatusCode::NOT_FOUND,
            [("content-type", "application/json"), ("x-request-id", "req-404")],
            body.to_owned(),
        );
    }
    let title = format!("tenant={} trace={} agent={}", seen("x-tenant"), seen("x-trace"), seen("user-agent"));
    let body = serde_json::json!({
        "object": "space", "id": "space_1", "title": title, "emoji": "📘",
        "visibility": "public", "createdAt": "2024-01-15T09:30:00Z",
        "updatedAt": "2024-01-15T09:30:00Z", "mergeRules": {"type": "inherit"},
        "organization": "org_1", "revision": "rev_1", "defaultLevel": null,
        "comments": 0, "changeRequests": 0, "changeRequestsOpen": 0, "changeRequestsDraft": 0
    });
    (StatusCode::OK, [("content-type", "application/json"), ("x-request-id", "req-1")], body.to_string())
}

async fn start() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = Router::new().route("/v1/spaces/{spaceId}", get(echo));
    tokio::spawn(apigen_runtime::listener::serve(listener, app, Default::default()));
    format!("http://{address}")
}

#[tokio::test]
async fn default_and_per_call_headers_arrive_and_status_and_headers_come_back() {
    let base = start().await;
    let client = Client::builder(&base)
        .bearer("token-1")
        .retry(RetryPolicy::none())
        .user_agent("shop/2.0")
        .default_header("x-tenant", "acme")
        .build()
        .unwrap();
    let answer = client.spaces().get("space_1").header("x-trace", "t-9").send_with_response().await.unwrap();
    assert_eq!(answer.status, 200);
    assert_eq!(answer.headers["x-request-id"], "req-1");
    assert_eq!(answer.body.title, "tenant=acme trace=t-9 agent=shop/2.0");
    // Without the per-call header, only the default one.
    assert_eq!(client.spaces().get("space_1").send().await.unwrap().title, "tenant=acme trace=- agent=shop/2.0");

    let error = client.spaces().get("space_2").send_with_response().await.unwrap_err();
    let Error::Api { status, headers, message, .. } = &error else { panic!("{error:?}") };
    assert_eq!((*status, message.as_str()), (404, "no such space"));
    assert_eq!(headers["x-request-id"], "req-404", "a failure keeps its headers");

    let bad = client.spaces().get("space_1").header("bad header", "x").send().await.unwrap_err();
    assert_eq!(bad.to_string(), "a header of `getSpace` is not valid: names are tokens, values visible ASCII");
}
