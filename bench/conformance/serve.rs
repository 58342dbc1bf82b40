//! Serves the generated server of one document on `127.0.0.1:PORT`, every operation answering
//! the spec's sample response (`mock::samples()`, which accepts every credential), and prints
//! `listening on http://127.0.0.1:PORT` (bench/conformance.sh runs schemathesis against it).
//! PORT 0 takes a port the system gives, printed so: two judge runs on one machine (several
//! engineers) never share a port, and one whose port was taken would hand its requests to the
//! other run's server.
//! The sample credentials (`sample-token`, `sample-user:sample-password`, what
//! schemathesis_auth.py gives) are granted every scope an operation requires; any other
//! credential none, so that an operation requiring scopes answers it 403 with RFC 6750's
//! `insufficient_scope` challenge (`SAMPLE_TOKEN=other bench/conformance.sh DOC` shows it).

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let port: u16 = std::env::args().nth(1).and_then(|p| p.parse().ok()).expect("the port");
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.expect("a free port");
    let port = listener.local_addr().expect("the bound address").port();
    println!("listening on http://127.0.0.1:{port}");
    let sample = |principal: &str| matches!(principal, "sample-token" | "sample-user:sample-password");
    let service = __SERVER__::mock::samples().with_grants(move |principal, _scope| sample(principal));
    let router = __SERVER__::router(service);
    apigen_runtime::listener::serve(listener, router, Default::default()).await.expect("serves");
}
