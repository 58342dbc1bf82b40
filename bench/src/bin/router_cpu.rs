//! Time per request of the generated router against the same routes written by hand with axum
//! ([`apigen_bench::handwritten`]), in this process: no sockets, no HTTP parsing, so what is
//! measured is the router and the handler's work alone (`bench/server-rps.sh` measures them
//! over loopback, where the network stack is most of the cost and the machine's load moves
//! the rates). Each case runs `requests` requests on one thread, the cases interleaved over
//! `rounds` rounds; prints the median time per request of each and the ratio. Usage:
//! `cargo run --release -p apigen-bench --bin router_cpu -- [requests] [rounds]`.

use apigen_runtime::server::axum::Router;
use apigen_runtime::server::axum::body::Body;
use apigen_runtime::server::axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const BODY: &str = r#"{"subject":"Document the new API","agentTaskId":"task_1"}"#;

/// The request of a route, as wrk sends it.
fn request(route: &str) -> Request<Body> {
    let builder = Request::builder().header("authorization", "Bearer t").header("host", "127.0.0.1");
    match route {
        "get" => builder.method("GET").uri("/v1/spaces/space_1").body(Body::empty()),
        _ => builder
            .method("POST")
            .uri("/v1/spaces/space_1/change-requests")
            .header("content-type", "application/json")
            .header("content-length", BODY.len())
            .body(Body::from(BODY)),
    }
    .expect("a valid request")
}

/// Time of `requests` requests of `route` through `router`, each answered and its body read.
async fn measure(router: &Router, route: &str, requests: u32) -> Duration {
    use tower::ServiceExt;
    let expected = if route == "get" { StatusCode::OK } else { StatusCode::CREATED };
    let start = Instant::now();
    for _ in 0..requests {
        let response = router.clone().oneshot(request(route)).await.expect("infallible");
        assert_eq!(response.status(), expected, "{route}");
        let body = response.into_body().collect().await.expect("a body in memory").to_bytes();
        assert!(!body.is_empty());
    }
    start.elapsed()
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let requests: u32 = args.next().and_then(|n| n.parse().ok()).unwrap_or(200_000);
    let rounds: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(5);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let mut routers = vec![("generated", apigen_bench::app()), ("handwritten", apigen_bench::handwritten::app())];
    // `ONLY=generated` (or `handwritten`) runs one router, for a profiler.
    if let Ok(only) = std::env::var("ONLY") {
        routers.retain(|(name, _)| *name == only);
    }
    println!("# {requests} requests per case, {rounds} rounds interleaved, one thread, in process");
    for route in ["get", "post"] {
        let mut times: Vec<Vec<Duration>> = vec![Vec::new(); routers.len()];
        runtime.block_on(async {
            for (_, router) in &routers {
                measure(router, route, requests / 10).await; // Warm up.
            }
            for _ in 0..rounds {
                for (i, (_, router)) in routers.iter().enumerate() {
                    times[i].push(measure(router, route, requests).await);
                }
            }
        });
        let per_request: Vec<f64> =
            times.into_iter().map(|t| median(t).as_nanos() as f64 / f64::from(requests)).collect();
        let each: Vec<String> =
            routers.iter().zip(&per_request).map(|((name, _), ns)| format!("{name} {ns:7.0} ns")).collect();
        match per_request[..] {
            [generated, handwritten] => {
                println!("{route:4}  {}  ratio {:.2}", each.join("  "), generated / handwritten)
            }
            _ => println!("{route:4}  {}", each.join("  ")),
        }
    }
}
