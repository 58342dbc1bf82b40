//! The overhead of one generated-client call over a bare reqwest call of the same request,
//! both against the generated router serving `getSpace` in-process on loopback.
//!
//! Usage: `cargo run --release -p apigen-bench --bin client_overhead [calls, default 20000]`.
//! Calls are sequential on one kept-alive connection, after a warm-up. The variants run in
//! 20 interleaved rounds (so drift of the machine hits them alike); the numbers are the
//! median over rounds of the mean time per call.

use docs_api_client::{Client, RetryPolicy};
use docs_api_types::Space;
use std::time::{Duration, Instant};

async fn time<F, Fut>(calls: u32, mut call: F) -> Duration
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    for _ in 0..calls / 10 {
        call().await;
    }
    let started = Instant::now();
    for _ in 0..calls {
        call().await;
    }
    started.elapsed() / calls
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let calls: u32 = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(20_000);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("an address"));
    let server = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        runtime.block_on(async move {
            let app = apigen_bench::app();
            apigen_runtime::server::axum::serve(listener, app).await.expect("serve")
        })
    });

    let client = Client::builder(&base).bearer("token").retry(RetryPolicy::none()).build().expect("a client");
    let http = reqwest::Client::new();
    let url = format!("{base}/v1/spaces/space_1");

    let rounds = 20;
    let per_round = (calls / rounds).max(1);
    let (mut generated, mut bare, mut bare_decoded) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        generated.push(
            time(per_round, || async {
                let space = client.spaces().get("space_1").send().await.expect("a space");
                assert_eq!(space.id, "space_1");
            })
            .await,
        );
        bare.push(
            time(per_round, || async {
                let response = http.get(&url).bearer_auth("token").send().await.expect("an answer");
                let bytes = response.bytes().await.expect("a body");
                assert!(!bytes.is_empty());
            })
            .await,
        );
        bare_decoded.push(
            time(per_round, || async {
                let response = http.get(&url).bearer_auth("token").send().await.expect("an answer");
                let space: Space = serde_json::from_slice(&response.bytes().await.expect("a body")).expect("a space");
                assert_eq!(space.id, "space_1");
            })
            .await,
        );
    }
    let median = |mut times: Vec<Duration>| {
        times.sort();
        times[times.len() / 2].as_secs_f64() * 1e6
    };
    let (generated, bare, bare_decoded) = (median(generated), median(bare), median(bare_decoded));
    println!("calls per variant: {}", per_round * rounds);
    println!("generated client  {generated:>8.1} µs/call");
    println!("bare reqwest      {bare:>8.1} µs/call");
    println!("bare + decode     {bare_decoded:>8.1} µs/call");
    println!(
        "overhead of the generated client: {:+.1} µs/call over bare reqwest, {:+.1} µs over bare + decode",
        generated - bare,
        generated - bare_decoded
    );
    drop(server);
}
