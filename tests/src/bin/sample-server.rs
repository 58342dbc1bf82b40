//! Serves the generated `docs-api-server` router on loopback, every operation answering the
//! spec's sample response (`docs_api_server::mock::samples()`): the target of the OpenAPI
//! conformance run in CI (schemathesis checks that what the server accepts and answers is what
//! `generated/openapi.json` says).
//!
//! Usage: `sample-server`. Binds `127.0.0.1:0` and prints `listening on
//! http://127.0.0.1:PORT` once it accepts connections. The one accepted bearer token is
//! [`TOKEN`]; any other answers 401, so authentication checks see a real refusal.

use apigen_runtime::server::ApiError;
use std::io::Write;

/// The bearer token the server accepts.
const TOKEN: &str = "sample-token";

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let service = docs_api_server::mock::samples().with_auth(|token| match token {
        TOKEN => Ok("sample-user".to_owned()),
        _ => Err(ApiError::unauthorized("unknown token")),
    });
    let listener = match tokio::net::TcpListener::bind(("127.0.0.1", 0)).await {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!("cannot bind a loopback port: {error}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let address = listener.local_addr().expect("a bound listener has an address");
    println!("listening on http://{address}");
    let _ = std::io::stdout().flush();
    let config = apigen_runtime::listener::ServeConfig::default();
    match apigen_runtime::listener::serve(listener, docs_api_server::router(service), config).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{error}");
            std::process::ExitCode::FAILURE
        }
    }
}
