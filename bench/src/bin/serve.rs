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

use apigen_runtime::server::axum;

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
            apigen_runtime::listener::serve(listener, apigen_bench::handwritten::app(), config).await.expect("serve")
        }
        "generated-axum-serve" => axum::serve(listener, apigen_bench::app()).await.expect("serve"),
        other => {
            eprintln!("unknown server {other:?}");
            std::process::exit(2);
        }
    }
}
