//! Serves `GET /v1/spaces/{spaceId}` on loopback two ways, for `bench/server-rps.sh`:
//!
//! - `generated`: the generated router, with a service implementing `getSpace`;
//! - `handwritten`: a plain axum route doing the same work by hand: check the bearer token,
//!   read the path parameter, build the same `Space`, answer it as JSON.
//!
//! Usage: `serve generated|handwritten PORT`.

use apigen_bench::{Bench, space};
use apigen_runtime::server::axum::extract::Path;
use apigen_runtime::server::axum::http::{HeaderMap, StatusCode, header};
use apigen_runtime::server::axum::response::{IntoResponse, Response};
use apigen_runtime::server::axum::{self, Router, routing::get};
use docs_api_server::router;

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
    let args: Vec<String> = std::env::args().collect();
    let (Some(kind), Some(port)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: serve generated|handwritten PORT");
        std::process::exit(2);
    };
    let app: Router = match kind.as_str() {
        "generated" => router(Bench),
        "handwritten" => Router::new().route("/v1/spaces/{spaceId}", get(get_space)),
        other => {
            eprintln!("unknown server {other:?}");
            std::process::exit(2);
        }
    };
    let listener =
        tokio::net::TcpListener::bind(("127.0.0.1", port.parse::<u16>().expect("a port"))).await.expect("bind");
    axum::serve(listener, app).await.expect("serve");
}
