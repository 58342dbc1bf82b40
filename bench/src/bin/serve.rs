//! Serves `GET /v1/spaces/{spaceId}` and `POST /v1/spaces/{spaceId}/change-requests` on
//! loopback two ways, for `bench/server-rps.sh`:
//!
//! - `generated`: the generated router, with a service implementing `getSpace` and
//!   `createSpaceChangeRequest`;
//! - `handwritten`: plain axum routes doing the same work by hand: check the bearer token,
//!   read the path parameter (and for the POST, check the content type and decode the JSON
//!   body, refusing unknown fields), build the same value, answer it as JSON (201 for the
//!   POST).
//!
//! Both run under `apigen_runtime::listener::serve` (the hardened accept loop), so the ratio
//! measures the router; `generated-axum-serve` runs the generated router under `axum::serve`
//! to measure the loop itself. Binds `127.0.0.1:0` and prints `listening on PORT`.
//!
//! Usage: `serve generated|handwritten|generated-axum-serve`.

use apigen_bench::{change_request, space};
use apigen_runtime::server::axum::body::Bytes;
use apigen_runtime::server::axum::extract::Path;
use apigen_runtime::server::axum::http::{HeaderMap, StatusCode, header};
use apigen_runtime::server::axum::response::{IntoResponse, Response};
use apigen_runtime::server::axum::{
    self, Router,
    routing::{get, post},
};

/// True when the request carries a bearer token.
fn authorized(headers: &HeaderMap) -> bool {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .is_some_and(|token| !token.is_empty())
}

/// The same work, written by hand.
async fn get_space(headers: HeaderMap, Path(space_id): Path<String>) -> Response {
    if !authorized(&headers) {
        return (StatusCode::UNAUTHORIZED, "missing token").into_response();
    }
    let body = serde_json::to_vec(&space(space_id)).expect("serializes");
    (StatusCode::OK, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// The body of `createSpaceChangeRequest`, decoded by serde as a hand-written service would.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NewChangeRequest {
    subject: Option<String>,
    #[allow(dead_code)] // Decoded and checked like the generated router does; not answered.
    agent_task_id: Option<String>,
}

/// The same work, written by hand: the content type checked, the body decoded by serde.
async fn create_change_request(headers: HeaderMap, Path(space_id): Path<String>, body: Bytes) -> Response {
    if !authorized(&headers) {
        return (StatusCode::UNAUTHORIZED, "missing token").into_response();
    }
    let json = headers.get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !json {
        return (StatusCode::UNSUPPORTED_MEDIA_TYPE, "send JSON").into_response();
    }
    let body: NewChangeRequest = match serde_json::from_slice(&body) {
        Ok(body) => body,
        Err(error) => return (StatusCode::BAD_REQUEST, error.to_string()).into_response(),
    };
    let body = serde_json::to_vec(&change_request(space_id, body.subject)).expect("serializes");
    (StatusCode::CREATED, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

#[tokio::main]
async fn main() {
    let Some(kind) = std::env::args().nth(1) else {
        eprintln!("usage: serve generated|handwritten|generated-axum-serve");
        std::process::exit(2);
    };
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await.expect("bind");
    println!("listening on {}", listener.local_addr().expect("bound").port());
    let config = apigen_runtime::listener::ServeConfig::default();
    match kind.as_str() {
        "generated" => apigen_runtime::listener::serve(listener, apigen_bench::app(), config).await.expect("serve"),
        "handwritten" => {
            let app: Router = Router::new()
                .route("/v1/spaces/{spaceId}", get(get_space))
                .route("/v1/spaces/{spaceId}/change-requests", post(create_change_request));
            apigen_runtime::listener::serve(listener, app, config).await.expect("serve")
        }
        "generated-axum-serve" => axum::serve(listener, apigen_bench::app()).await.expect("serve"),
        other => {
            eprintln!("unknown server {other:?}");
            std::process::exit(2);
        }
    }
}
