//! What a form body costs the generated server in memory, counted by this test binary's own
//! global allocator: the peak of bytes allocated while the router answers a request, above
//! what was allocated before it (the request body included).

mod posting;

use apigen_tests::memory::{Counting, mib};
use files_server::ServerConfig;
use posting::post;
use serde_json::json;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const FORM: &str = "application/x-www-form-urlencoded";

/// The shapes measured: the form of issue 34 (a 2 MB form of 1,000,000 pairs), a list field
/// repeated, distinct unknown names, and JSON of the same size for comparison.
fn shapes() -> Vec<(&'static str, &'static str, String)> {
    vec![
        ("1,000,000 pairs `a&`", FORM, "a&".repeat(1_000_000)),
        ("285,714 list values `tags=x&`", FORM, "tags=x&".repeat(285_714)),
        ("340,000 distinct unknown names", FORM, (0..340_000).map(|i| format!("{i:05x}&")).collect()),
        ("the same size of JSON", "application/json", format!("{{\"x\":[{}0]}}", "0,".repeat(999_995))),
    ]
}

/// One test, so that nothing else allocates while it counts. Before this round, the form of
/// 1,000,000 pairs peaked at 137.9 MiB (72 times its size: an owned name and value per pair)
/// and the list at 109.9 MiB; JSON of the same size peaks at 72 MiB.
#[test]
fn a_form_costs_a_bounded_multiple_of_its_size() {
    let lifted = ServerConfig { max_form_fields: usize::MAX, ..ServerConfig::default() };
    for (limit, config) in [("default", ServerConfig::default()), ("lifted", lifted.clone())] {
        for (name, content_type, body) in shapes() {
            let size = body.len();
            let (status, error, peak) = post(&config, content_type, body);
            eprintln!(
                "{limit} field limit: {name}: {size} bytes, answered {status}, peak {} ({:.1}x the body): {}",
                mib(peak),
                peak as f64 / size as f64,
                error["error"]["message"]
            );
        }
    }

    // By default, a form of more than 1000 fields is refused before any is decoded.
    let (status, error, peak) = post(&ServerConfig::default(), FORM, "a&".repeat(1_000_000));
    assert_eq!(
        (status, error),
        (400, json!({"error": {"code": 400, "message": "the form has 1000000 fields; the limit is 1000"}}))
    );
    assert!(peak < 64 * 1024, "peak {peak} bytes");

    // With the limit lifted, the 2 MB form of a million pairs costs 8 bytes a pair: 4 times
    // its size, where it cost 72 times.
    let (status, error, peak) = post(&lifted, FORM, "a&".repeat(1_000_000));
    assert_eq!(status, 400);
    assert_eq!(
        error["error"]["violations"],
        json!([
            {"path": "/amount", "message": "is required"},
            {"path": "/currency", "message": "is required"},
            {"path": "/a", "message": "is not a field of this form"}
        ])
    );
    assert!(peak <= 4 * 2_000_000 + 64 * 1024, "peak {} ({:.1}x)", mib(peak), peak as f64 / 2_000_000.0);

    // Multipart parts count as fields too.
    let part = "--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nT\r\n";
    let (status, error, _) =
        post(&ServerConfig::default(), "multipart/form-data; boundary=b", format!("{}--b--\r\n", part.repeat(1001)));
    assert_eq!(
        (status, error),
        (400, json!({"error": {"code": 400, "message": "the form has 1001 fields; the limit is 1000"}}))
    );
}
