//! What a hostile request body costs the generated server in memory, counted by this test
//! binary's own global allocator (as tests/form_memory.rs does): the peak of bytes allocated
//! while the router answers, above what was allocated before (the request body included).
//! Bodies whose trees or violation lists used to be built in full before any limit applied.

mod posting;

use apigen_tests::memory::{Counting, mib, peak_during};
use files_server::ServerConfig;
use posting::post;
use serde_json::json;
use std::borrow::Cow;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// One test, so that nothing else allocates while it counts.
#[test]
fn hostile_bodies_cost_a_bounded_multiple_of_their_size() {
    // 500,000 invalid items (a number where a string is wanted) in a 1 MB JSON body: only the
    // 100 violations listed are built, the rest counted. All 500,000 were built before: 103 MiB.
    let body = format!(r#"{{"amount":1,"currency":"usd","tags":[{}1]}}"#, "1,".repeat(499_999));
    let size = body.len();
    let (status, error, peak) = post(&ServerConfig::default(), "application/json", body);
    eprintln!(
        "500,000 invalid items: {size} bytes, answered {status}, peak {peak} bytes ({:.3}x)",
        peak as f64 / size as f64
    );
    assert_eq!(status, 400);
    assert_eq!(error["error"]["message"], "the request is invalid: 500000 violations, the first 100 listed");
    assert_eq!(
        error["error"]["violations"][0],
        json!({"path": "/tags/0", "message": "expected a string, found the number 1"})
    );
    assert_eq!(error["error"]["violations"].as_array().map(Vec::len), Some(100));
    // The body is decoded straight from its text, item by item: no tree (a parsed tree was 72
    // bytes a `serde_json::Value`, 36 MiB here, 36 times this dense body), and the violations
    // past the listed 100 cost nothing (103 MiB before either).
    assert!(peak < size / 50, "peak {} bytes ({:.2}x)", peak, peak as f64 / size as f64);

    // An unknown field holding 690,000 empty objects (2 MB) in a closed object: refused by
    // its key, its value checked for syntax and never built (50 MiB before).
    let body = format!(r#"{{"amount":1,"currency":"usd","junk":[{}{{}}]}}"#, "{},".repeat(689_999));
    let size = body.len();
    let (status, error, peak) = post(&ServerConfig::default(), "application/json", body);
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
    let (decoded, peak) = peak_during(|| {
        let text = apigen_runtime::json::check_strict(body.as_bytes()).unwrap();
        apigen_runtime::json::decode_capped::<forge_server::types::InvalidParam>(text, 100).unwrap()
    });
    eprintln!("690,000 objects ignored: {size} bytes, peak {} ({:.1}x)", mib(peak), peak as f64 / size as f64);
    assert_eq!((decoded.name.as_str(), decoded.reason.as_str()), ("n", "r"));
    assert!(peak < 4 * size, "peak {} ({:.1}x)", mib(peak), peak as f64 / size as f64);

    // One object of a million tiny distinct keys (about 10 bytes each), ignored by an object
    // that drops unknown fields: its list of keys is the one thing decoding builds that grows
    // with the body (an entry per key, offsets into the body rather than slices of it).
    let body = tiny_keys_object(r#""name":"n","reason":"r""#, 1_000_000);
    let size = body.len();
    let (decoded, peak) = peak_during(|| {
        let text = apigen_runtime::json::check_strict(body.as_bytes()).unwrap();
        apigen_runtime::json::decode_capped::<forge_server::types::InvalidParam>(text, 100).unwrap()
    });
    eprintln!("1,000,000 tiny keys ignored: {size} bytes, peak {} ({:.1}x)", mib(peak), peak as f64 / size as f64);
    assert_eq!((decoded.name.as_str(), decoded.reason.as_str()), ("n", "r"));
    assert!(peak < 4 * size, "peak {} ({:.1}x)", mib(peak), peak as f64 / size as f64);

    // Such keys refused by a closed object, answered by the router (200,000 of them: the body
    // limit is 2 MiB): every violation counted, the first 100 listed.
    let body = tiny_keys_object(r#""amount":1,"currency":"usd""#, 200_000);
    let size = body.len();
    let (status, error, peak) = post(&ServerConfig::default(), "application/json", body);
    eprintln!(
        "200,000 tiny keys refused: {size} bytes, answered {status}, peak {} ({:.1}x)",
        mib(peak),
        peak as f64 / size as f64
    );
    assert_eq!(status, 400);
    assert_eq!(error["error"]["message"], "the request is invalid: 200000 violations, the first 100 listed");
    // The keys left come in the order a parsed tree's map leaves them: each field read takes
    // the last key's place, so the first refused is the last key sent.
    assert_eq!(error["error"]["violations"][0], json!({"path": "/30d3f", "message": "is not a field of this object"}));
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
    let ((_, problems), peak) = peak_during(|| apigen_runtime::form::from_pairs(pairs));
    eprintln!("900 keys 32 deep: {size} bytes, peak {} ({:.1}x)", mib(peak), peak as f64 / size as f64);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].message, "the form's keys make more than 1024 objects and lists");
    assert!(peak < 8 * size, "peak {} ({:.1}x)", mib(peak), peak as f64 / size as f64);
}

/// `{<fields>,"0":0,"1":0,..}`: an object of `count` distinct keys written in hexadecimal.
fn tiny_keys_object(fields: &str, count: usize) -> String {
    let mut body = format!("{{{fields}");
    for i in 0..count {
        body.push_str(&format!(",\"{i:x}\":0"));
    }
    body.push('}');
    body
}
