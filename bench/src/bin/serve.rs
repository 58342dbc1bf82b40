//! Serves `GET /v1/spaces/{spaceId}` on loopback two ways, for `bench/server-rps.sh`:
//!
//! - `generated`: the generated router, with a service implementing `getSpace`;
//! - `handwritten`: a plain axum route doing the same work by hand: check the bearer token,
//!   read the path parameter, build the same `Space`, answer it as JSON.
//!
//! Both run under `apigen_runtime::listener::serve` (the hardened accept loop), so the ratio
//! measures the router; `generated-axum-serve` runs the generated router under `axum::serve`
//! to measure the loop itself. Binds `127.0.0.1:0` and prints `listening on PORT`.
//!
//! Usage: `serve generated|handwritten|generated-axum-serve`.

use apigen_bench::space;
use apigen_runtime::server::axum::extract::Path;
use apigen_runtime::server::axum::http::{HeaderMap, StatusCode, header};
use apigen_runtime::server::axum::response::{IntoResponse, Response};
use apigen_runtime::server::axum::{self, Router, routing::get};

/// The same work, written by hand.
async fn get_space(headers: HeaderMap, Path(space_id): Path<String>) -> Response {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .filter(|token| !token.is_empty());
    if bearer.is_none() {
        return (StatusCode::UNAUTHORIZED, "missing token").into_response();
    }
    let body = serde_json::to_vec(&space(space_id)).expect("serializes");
    (StatusCode::OK, [(header::CONTENT_TYPE, "application/json")], body).into_response()
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
            let app: Router = Router::new().route("/v1/spaces/{spaceId}", get(get_space));
            apigen_runtime::listener::serve(listener, app, config).await.expect("serve")
        }
        "generated-axum-serve" => axum::serve(listener, apigen_bench::app()).await.expect("serve"),
        other => {
            eprintln!("unknown server {other:?}");
            std::process::exit(2);
        }
    }
}
