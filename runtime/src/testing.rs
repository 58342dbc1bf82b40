//! Helpers for generated tests: JSON compared as values, and the generated client crate's test
//! calling every operation against the generated server's `mock::samples()`.

use serde_json::Value;
use std::future::Future;

/// Serves `router` on a loopback port in the background of the current tokio runtime, and
/// gives the base URL a client calls.
#[cfg(feature = "server")]
pub async fn serve_on_loopback(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
    let address = listener.local_addr().expect("the loopback port's address");
    tokio::spawn(crate::listener::serve(listener, router, crate::listener::ServeConfig::default()));
    format!("http://{address}")
}

/// Awaits every sample call in turn, and panics naming each operation whose call failed (the
/// server refused it, or its answer did not decode) and each of `operations` no call made.
pub async fn assert_every_sample_answered<E: std::fmt::Display>(
    calls: Vec<(&'static str, impl Future<Output = Result<Value, E>>)>,
    operations: &[&'static str],
) {
    let mut failed = Vec::new();
    let mut called = std::collections::BTreeSet::new();
    for (operation, call) in calls {
        called.insert(operation);
        if let Err(error) = call.await {
            failed.push(format!("{operation}: {error}"));
        }
    }
    failed.extend(operations.iter().filter(|name| !called.contains(*name)).map(|name| format!("{name}: not called")));
    assert!(failed.is_empty(), "{} of {} operations failed:\n{}", failed.len(), operations.len(), failed.join("\n"));
}

/// JSON equality where numbers compare by value (`1` equals `1.0`) and object key order does
/// not matter: what "the same JSON" means for a round trip.
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(key, value)| y.get(key).is_some_and(|other| json_eq(value, other)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_compare_by_value_and_keys_by_set() {
        assert!(json_eq(&json!({"a": 1, "b": [2.0]}), &json!({"b": [2], "a": 1.0})));
        assert!(!json_eq(&json!({"a": 1}), &json!({"a": 1, "b": null})));
        assert!(!json_eq(&json!([1, 2]), &json!([2, 1])));
    }

    /// Runs `future` to its end on a runtime of this thread.
    #[cfg(feature = "server")]
    fn run(future: impl Future<Output = ()>) {
        tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(future);
    }

    #[cfg(feature = "server")]
    #[test]
    fn every_operation_answered_passes() {
        let calls = vec![("getThing", std::future::ready(Ok::<_, String>(json!({"id": 1}))))];
        run(assert_every_sample_answered(calls, &["getThing"]));
    }

    #[cfg(feature = "server")]
    #[test]
    #[should_panic(expected = "2 of 2 operations failed:\ngetThing: refused\nlistThings: not called")]
    fn a_failed_call_and_an_operation_no_call_made_are_named() {
        let calls = vec![("getThing", std::future::ready(Err::<Value, _>("refused")))];
        run(assert_every_sample_answered(calls, &["getThing", "listThings"]));
    }
}
