//! Serves the generated server of one document on `127.0.0.1:PORT`, every operation answering
//! the spec's sample response (`mock::samples()`, which accepts every credential), and prints
//! `listening on http://127.0.0.1:PORT` (bench/conformance.sh runs schemathesis against it).

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let port: u16 = std::env::args().nth(1).and_then(|p| p.parse().ok()).expect("the port");
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.expect("a free port");
    println!("listening on http://127.0.0.1:{port}");
    let router = __SERVER__::router(__SERVER__::mock::samples());
    apigen_runtime::listener::serve(listener, router, Default::default()).await.expect("serves");
}
