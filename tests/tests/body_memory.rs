//! What a hostile request body costs the generated server in memory, counted by this test
//! binary's own global allocator (as tests/form_memory.rs does): the peak of bytes allocated
//! while the router answers, above what was allocated before (the request body included).
//! Bodies whose trees or violation lists used to be built in full before any limit applied.

use apigen_runtime::server::axum::body::Body;
use apigen_runtime::server::axum::http::Request;
use files_server::ServerConfig;
use files_server::mock::{MockCall, MockService};
use serde_json::json;
use std::alloc::{GlobalAlloc, Layout, System};
use std::borrow::Cow;
use std::sync::atomic::{AtomicUsize, Ordering};
use tower::ServiceExt;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let live = LIVE.fetch_add(bytes, Ordering::SeqCst) + bytes;
    PEAK.fetch_max(live, Ordering::SeqCst);
}

// SAFETY: every call is forwarded to the system allocator unchanged; only sizes are counted.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let at = unsafe { System.alloc(layout) };
        if !at.is_null() {
            grew(layout.size());
        }
        at
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let at = unsafe { System.alloc_zeroed(layout) };
        if !at.is_null() {
            grew(layout.size());
        }
        at
    }

    unsafe fn dealloc(&self, at: *mut u8, layout: Layout) {
        unsafe { System.dealloc(at, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
    }

    unsafe fn realloc(&self, at: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        let moved = unsafe { System.realloc(at, layout, size) };
        if !moved.is_null() {
            if size > layout.size() {
                grew(size - layout.size());
            } else {
                LIVE.fetch_sub(layout.size() - size, Ordering::SeqCst);
            }
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The status, the error body and the peak of bytes allocated above the start while the files
/// server's router answers `body` posted as `content_type` to `createCharge`.
fn post(content_type: &str, body: String) -> (u16, serde_json::Value, usize) {
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let router = files_server::router_with(MockService::new(|_: MockCall| Ok(json!({}))), ServerConfig::default());
    let request = Request::post("/charges")
        .header("authorization", "Bearer tok")
        .header("content-type", content_type)
        .body(Body::from(body))
        .unwrap();
    let start = LIVE.load(Ordering::SeqCst);
    PEAK.store(start, Ordering::SeqCst);
    let (status, bytes) = runtime.block_on(async {
        let response = router.oneshot(request).await.unwrap();
        let status = response.status().as_u16();
        (status, apigen_runtime::server::axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap())
    });
    let peak = PEAK.load(Ordering::SeqCst) - start;
    (status, serde_json::from_slice(&bytes).unwrap_or_default(), peak)
}

fn mib(bytes: usize) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

/// One test, so that nothing else allocates while it counts.
#[test]
fn hostile_bodies_cost_a_bounded_multiple_of_their_size() {
    // 500,000 invalid items (a number where a string is wanted) in a 1 MB JSON body: only the
    // 100 violations listed are built, the rest counted. All 500,000 were built before: 103 MiB.
    let body = format!(r#"{{"amount":1,"currency":"usd","tags":[{}1]}}"#, "1,".repeat(499_999));
    let size = body.len();
    let (status, error, peak) = post("application/json", body);
    eprintln!(
        "500,000 invalid items: {size} bytes, answered {status}, peak {} ({:.1}x)",
        mib(peak),
        peak as f64 / size as f64
    );
    assert_eq!(status, 400);
    assert_eq!(error["error"]["message"], "the request is invalid: 500000 violations, the first 100 listed");
    assert_eq!(
        error["error"]["violations"][0],
        json!({"path": "/tags/0", "message": "expected a string, found the number 1"})
    );
    assert_eq!(error["error"]["violations"].as_array().map(Vec::len), Some(100));
    // The parsed tree is still built whole before decoding: 72 bytes a `serde_json::Value`
    // (`preserve_order`), 36 MiB for these 500,000 items, so 36 times this dense body; the
    // violations past the listed 100 cost nothing more (103 MiB before).
    assert!(peak < 40 * size, "peak {} ({:.1}x)", mib(peak), peak as f64 / size as f64);

    // An unknown field holding 690,000 empty objects (2 MB) in a closed object: refused by
    // its key, its value checked for syntax and never built (50 MiB before).
    let body = format!(r#"{{"amount":1,"currency":"usd","junk":[{}{{}}]}}"#, "{},".repeat(689_999));
    let size = body.len();
    let (status, error, peak) = post("application/json", body);
    eprintln!(
        "690,000 objects refused: {size} bytes, answered {status}, peak {} ({:.1}x)",
        mib(peak),
        peak as f64 / size as f64
    );
    assert_eq!(
        (status, error),
        (
            400,
            json!({"error": {"code": 400, "message": "the request is invalid", "violations": [
                {"path": "/junk", "message": "is not a field of this object"}
            ]}})
        )
    );
    assert!(peak < 4 * size, "peak {} ({:.1}x)", mib(peak), peak as f64 / size as f64);

    // The same in an object that ignores unknown fields (`unknown_fields: ignore`): dropped
    // without being built, as the server's JSON body reader parses and decodes it.
    let body = format!(r#"{{"name":"n","reason":"r","junk":[{}{{}}]}}"#, "{},".repeat(689_999));
    let size = body.len();
    let start = LIVE.load(Ordering::SeqCst);
    PEAK.store(start, Ordering::SeqCst);
    let value = apigen_runtime::json::parse_for::<forge_server::types::InvalidParam>(body.as_bytes()).unwrap();
    let decoded = apigen_runtime::json::decode_capped::<forge_server::types::InvalidParam>(value, 100).unwrap();
    let peak = PEAK.load(Ordering::SeqCst) - start;
    eprintln!("690,000 objects ignored: {size} bytes, peak {} ({:.1}x)", mib(peak), peak as f64 / size as f64);
    assert_eq!((decoded.name.as_str(), decoded.reason.as_str()), ("n", "r"));
    assert!(peak < 4 * size, "peak {} ({:.1}x)", mib(peak), peak as f64 / size as f64);

    // 900 distinct keys 32 deep (0.13 MiB) made 28,800 objects before (12 MiB): the keys'
    // tree stops at 1024 objects and lists (tests/styles.rs checks the 400 that answers it).
    let body: String = (0..900).map(|i| format!("k{i}{}=1&", "[x]".repeat(32))).collect();
    let size = body.len();
    let pairs: Vec<(Cow<str>, Cow<str>)> = body
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (Cow::Borrowed(k), Cow::Borrowed(v)))
        .collect();
    let start = LIVE.load(Ordering::SeqCst);
    PEAK.store(start, Ordering::SeqCst);
    let (_, problems) = apigen_runtime::form::from_pairs(pairs);
    let peak = PEAK.load(Ordering::SeqCst) - start;
    eprintln!("900 keys 32 deep: {size} bytes, peak {} ({:.1}x)", mib(peak), peak as f64 / size as f64);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].message, "the form's keys make more than 1024 objects and lists");
    assert!(peak < 8 * size, "peak {} ({:.1}x)", mib(peak), peak as f64 / size as f64);
}
