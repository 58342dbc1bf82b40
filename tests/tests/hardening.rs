//! The generated server and client under attack: oversized and malformed requests answered
//! with the error body, idle and slow connections closed, unbounded or slow responses cut
//! off. Every server here is real (loopback TCP); every wait has a bound so nothing hangs.

use apigen_runtime::listener::{ServeConfig, serve};
use docs_api_client::{Client, Error, RetryPolicy};
use docs_api_server::mock::{MockCall, MockService};
use docs_api_server::{ServerConfig, router_with};
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A bound on any single wait of these tests: far above what a correct run needs.
const PATIENCE: Duration = Duration::from_secs(10);

/// Serves the generated router (every operation answering `{}`-shaped samples) with `serve`.
async fn start(server: ServerConfig, connections: ServeConfig) -> String {
    let service = MockService::new(|call: MockCall| {
        Ok(match call.operation {
            "getSpace" => json!({
                "object": "space", "id": "space_1", "title": "Docs", "emoji": "📘",
                "visibility": "public", "createdAt": "2024-01-15T09:30:00Z",
                "updatedAt": "2024-01-15T09:30:00Z", "mergeRules": {"type": "inherit"},
                "organization": "org_1", "revision": "rev_1", "defaultLevel": null,
                "comments": 0, "changeRequests": 0, "changeRequestsOpen": 0, "changeRequestsDraft": 0
            }),
            _ => json!({}),
        })
    });
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    tokio::spawn(serve(listener, router_with(service, server), connections));
    address
}

/// Sends raw bytes on a new connection and reads the whole answer (the server closes).
async fn raw(address: &str, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut answer)).await.expect("answered in time").unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

fn status_and_body(answer: &str) -> (String, Value) {
    let status = answer.get(9..12).unwrap_or_default().to_owned();
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, body)| body);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

fn get(path_and_query: &str, extra_headers: &str) -> Vec<u8> {
    format!(
        "GET {path_and_query} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n{extra_headers}Connection: close\r\n\r\n"
    )
    .into_bytes()
}

/// 16,000 distinct unknown parameters in a 64 KB query, as an attacker would send them.
fn query_of_16k_params() -> String {
    let alphabet: Vec<char> = ('a'..='z').chain('A'..='Z').chain('0'..='9').collect();
    let name = |i: usize| -> String { [i / 3844, i / 62 % 62, i % 62].iter().map(|&k| alphabet[k]).collect() };
    (0..16_000).map(name).collect::<Vec<_>>().join("&")
}

#[tokio::test]
async fn a_query_of_16k_unknown_parameters_is_refused_at_once_with_the_error_body() {
    let address = start(ServerConfig::default(), ServeConfig::default()).await;
    let answer = raw(&address, &get(&format!("/v1/spaces/space_1?{}", query_of_16k_params()), "")).await;
    let (status, body) = status_and_body(&answer);
    assert_eq!(status, "414");
    assert_eq!(
        body,
        json!({"error": {"code": 414, "message": "the path and query are 64018 bytes long; the limit is 8192"}})
    );
}

#[tokio::test]
async fn with_the_limits_raised_every_unknown_parameter_is_reported_once() {
    let limits = ServerConfig { max_uri_bytes: 1 << 20, max_query_params: 100_000, ..ServerConfig::default() };
    let address = start(limits, ServeConfig::default()).await;
    let query = format!("{}&aaa&aaa", query_of_16k_params());
    let answer = raw(&address, &get(&format!("/v1/spaces/space_1?{query}"), "")).await;
    let (status, body) = status_and_body(&answer);
    assert_eq!(status, "400");
    // Every name is found once, repeated or not; the error body lists the first 100.
    assert_eq!(body["error"]["message"], "the request is invalid: 16000 violations, the first 100 listed");
    let violations = body["error"]["violations"].as_array().unwrap();
    assert_eq!(violations.len(), 100);
    assert_eq!(violations[0], json!({"path": "query.aaa", "message": "is not a parameter of this operation"}));
}

/// AWS's `DELETE /tags/{arn}` takes up to 500 `tagKeys` (groundstation): a query of 500
/// parameters is read and judged parameter by parameter, not refused by the count.
#[tokio::test]
async fn a_query_of_500_parameters_is_read_not_refused_by_the_count() {
    let address = start(ServerConfig::default(), ServeConfig::default()).await;
    let params = (0..500).map(|i| format!("p{i}")).collect::<Vec<_>>().join("&");
    let (status, body) = status_and_body(&raw(&address, &get(&format!("/v1/spaces/space_1?{params}"), "")).await);
    assert_eq!(status, "400");
    assert_eq!(body["error"]["message"], "the request is invalid: 500 violations, the first 100 listed");
    assert_eq!(
        body["error"]["violations"][0],
        json!({"path": "query.p0", "message": "is not a parameter of this operation"})
    );
}

#[tokio::test]
async fn too_many_parameters_long_headers_and_big_declared_bodies_answer_the_error_body() {
    let address = start(ServerConfig::default(), ServeConfig::default()).await;
    let params = (0..1001).map(|i| format!("p{i}")).collect::<Vec<_>>().join("&");
    let (status, body) = status_and_body(&raw(&address, &get(&format!("/v1/spaces/space_1?{params}"), "")).await);
    assert_eq!(
        (status.as_str(), body),
        ("400", json!({"error": {"code": 400, "message": "the query has 1001 parameters; the limit is 1000"}}))
    );

    let big_header = format!("X-Padding: {}\r\n", "a".repeat(70_000));
    let answer = raw(&address, &get("/v1/spaces/space_1", &big_header)).await;
    let (status, body) = status_and_body(&answer);
    assert_eq!(status, "431");
    assert_eq!(body["error"]["message"], "the headers are 70050 bytes long; the limit is 65536");

    // A client asking to send 100 MB is refused before it sends a byte: no `100 Continue`.
    let request = "POST /v1/orgs/org_1/collections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\
                   Content-Type: application/json\r\nContent-Length: 100000000\r\nExpect: 100-continue\r\n\r\n";
    let mut stream = TcpStream::connect(&address).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = vec![0; 4096];
    let read = tokio::time::timeout(PATIENCE, stream.read(&mut head)).await.expect("answered").unwrap();
    let answer = String::from_utf8_lossy(&head[..read]).into_owned();
    assert!(answer.starts_with("HTTP/1.1 413 "), "{answer}");
    assert!(
        answer.ends_with(r#"{"error":{"code":413,"message":"the body is larger than 2097152 bytes"}}"#),
        "{answer}"
    );
}

#[tokio::test]
async fn heads_past_hypers_own_limits_answer_the_error_body_too() {
    let address = start(ServerConfig::default(), ServeConfig::default()).await;
    let long_target = format!("/v1/spaces/space_1?q={}", "a".repeat(70_000));
    let (status, body) = status_and_body(&raw(&address, &get(&long_target, "")).await);
    assert_eq!(
        (status.as_str(), body),
        ("414", json!({"error": {"code": 414, "message": "the request target is over 65000 bytes"}}))
    );

    let many: String = (0..150).map(|i| format!("X-H{i}: 1\r\n")).collect();
    let (status, body) = status_and_body(&raw(&address, &get("/v1/spaces/space_1", &many)).await);
    assert_eq!(
        (status.as_str(), body),
        ("431", json!({"error": {"code": 431, "message": "the request has more than 100 headers"}}))
    );

    let huge = format!("X-Padding: {}\r\n", "a".repeat(1_100_000));
    let (status, body) = status_and_body(&raw(&address, &get("/v1/spaces/space_1", &huge)).await);
    assert_eq!(
        (status.as_str(), body),
        ("431", json!({"error": {"code": 431, "message": "the request head is over 1048576 bytes"}}))
    );
}

#[tokio::test]
async fn a_raw_byte_that_is_not_utf8_in_the_target_answers_the_error_body() {
    // hyper answered these with an empty 400 of its own (issue 50); the bytes escaped are read.
    let address = start(ServerConfig::default(), ServeConfig::default()).await;
    let refused = json!({"error": {"code": 400, "message":
        "the request target is not a valid URI: send bytes that are not UTF-8 text, spaces and controls percent-encoded"}});
    for target in [&b"/v1/spaces/space_\xff"[..], b"/v1/spaces/space_1?q=\x80", b"/v1/spaces/a\x7fb"] {
        let request =
            [&b"GET "[..], target, b" HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nConnection: close\r\n\r\n"]
                .concat();
        let (status, body) = status_and_body(&raw(&address, &request).await);
        assert_eq!((status.as_str(), &body), ("400", &refused), "{}", String::from_utf8_lossy(target));
    }
    // Raw UTF-8 is read, as hyper reads it; an escape that decodes to no UTF-8 is the router's.
    let (status, body) = status_and_body(&raw(&address, &get("/v1/spaces/é", "")).await);
    assert_eq!((status.as_str(), &body["id"]), ("200", &json!("space_1")));
    let (status, _) = status_and_body(&raw(&address, &get("/v1/spaces/space_%FF", "")).await);
    assert_eq!(status, "400");
    let (status, _) = status_and_body(&raw(&address, &get("/v1/spaces/space_1", "")).await);
    assert_eq!(status, "200");
}

#[tokio::test]
async fn a_refused_head_after_bodies_on_one_connection_is_found_where_it_starts() {
    let address = start(ServerConfig::default(), ServeConfig::default()).await;
    // A fixed-length body and a chunked one whose bytes look like heads, then a head with too
    // many headers, all in one write: the first two are served, the third refused.
    let fixed = "{\"title\": \"GET / HTTP/1.1\\r\\n\"}";
    let chunked = "{\"title\": \"A\"}";
    let many: String = (0..150).map(|i| format!("X-H{i}: 1\r\n")).collect();
    let requests = format!(
        "POST /v1/orgs/org_1/collections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{fixed}\
         POST /v1/orgs/org_1/collections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\
         Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n\
         {:x};ext=1\r\n{chunked}\r\n0\r\nX-Trailer: 1\r\n\r\n\
         GET /v1/spaces/space_1 HTTP/1.1\r\nHost: x\r\n{many}\r\n",
        fixed.len(),
        chunked.len()
    );
    let answer = raw(&address, requests.as_bytes()).await;
    let statuses: Vec<&str> = answer.match_indices("HTTP/1.1 ").map(|(at, _)| &answer[at + 9..at + 12]).collect();
    assert_eq!(statuses.len(), 3, "{answer}");
    assert!(statuses[..2].iter().all(|status| *status != "431" && *status != "400"), "{answer}");
    assert_eq!(statuses[2], "431", "{answer}");
    assert!(
        answer.ends_with(r#"{"error":{"code":431,"message":"the request has more than 100 headers"}}"#),
        "{answer}"
    );
}

#[tokio::test]
async fn a_json_body_giving_a_key_twice_is_refused_naming_the_key() {
    let address = start(ServerConfig::default(), ServeConfig::default()).await;
    let body = r#"{"title": "Guides", "nested": {"a": 1, "a": 2}, "title": "Other"}"#;
    let request = format!(
        "POST /v1/orgs/org_1/collections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let (status, body) = status_and_body(&raw(&address, request.as_bytes()).await);
    assert_eq!(status, "400");
    assert_eq!(
        body,
        json!({"error": {"code": 400, "message": "the request is invalid", "violations": [
            {"path": "/nested/a", "message": "is given more than once in the object"},
            {"path": "/title", "message": "is given more than once in the object"}
        ]}})
    );
}

#[tokio::test]
async fn an_error_body_lists_at_most_100_violations_whatever_the_request() {
    let address = start(ServerConfig::default(), ServeConfig::default()).await;
    // 100,000 unknown fields in a 1.3 MB body: answered with a body of a few kilobytes.
    let fields: Vec<String> = (0..100_000).map(|i| format!("\"f{i}\":1")).collect();
    let body = format!("{{\"title\":\"Guides\",{}}}", fields.join(","));
    let request = format!(
        "POST /v1/orgs/org_1/collections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let answer = raw(&address, request.as_bytes()).await;
    assert!(answer.len() < 10_000, "an answer of {} bytes to {} bytes", answer.len(), request.len());
    let (status, body) = status_and_body(&answer);
    assert_eq!(status, "400");
    assert_eq!(body["error"]["message"], "the request is invalid: 100000 violations, the first 100 listed");
    let violations = body["error"]["violations"].as_array().unwrap();
    assert_eq!(violations.len(), 100);
    assert!(violations.iter().all(|v| v["message"] == "is not a field of this object"), "{violations:?}");
}

/// A POST declaring a body of `declared` bytes, of which it sends only the head.
fn slow_post(declared: usize) -> String {
    format!(
        "POST /v1/orgs/org_1/collections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\
         Content-Type: application/json\r\nContent-Length: {declared}\r\n\r\n"
    )
}

#[tokio::test]
async fn a_body_that_stops_coming_is_answered_408_and_its_connection_closed() {
    let connections = ServeConfig { body_read_timeout: Duration::from_millis(300), ..ServeConfig::default() };
    let address = start(ServerConfig::default(), connections).await;
    let mut stream = TcpStream::connect(&address).await.unwrap();
    stream.write_all(slow_post(100_000).as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut answer)).await.expect("answered and closed").unwrap();
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (status, body) = status_and_body(&answer);
    assert_eq!(status, "408", "{answer}");
    assert!(answer.to_ascii_lowercase().contains("\r\nconnection: close\r\n"), "{answer}");
    assert_eq!(body, json!({"error": {"code": 408, "message": "the body is too slow: 0 bytes arrived in 0.3 s"}}));
}

#[tokio::test]
async fn bodies_trickling_a_byte_at_a_time_cannot_hold_every_connection() {
    let connections = ServeConfig {
        body_read_timeout: Duration::from_millis(300),
        max_connections: 8,
        header_read_timeout: Duration::from_secs(30),
        ..ServeConfig::default()
    };
    let address = start(ServerConfig::default(), connections).await;
    // Eight connections, one per slot, each sending a byte of its 100 kB body every 100 ms.
    let mut tricklers = Vec::new();
    for _ in 0..8 {
        let mut stream = TcpStream::connect(&address).await.unwrap();
        stream.write_all(slow_post(100_000).as_bytes()).await.unwrap();
        tricklers.push(tokio::spawn(async move {
            let mut answer = Vec::new();
            loop {
                if stream.write_all(b" ").await.is_err() {
                    break;
                }
                let mut chunk = [0u8; 4096];
                match tokio::time::timeout(Duration::from_millis(100), stream.read(&mut chunk)).await {
                    Ok(Ok(0)) | Ok(Err(_)) => break,
                    Ok(Ok(read)) => answer.extend_from_slice(&chunk[..read]),
                    Err(_) => {}
                }
            }
            String::from_utf8_lossy(&answer).into_owned()
        }));
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = Instant::now();
    let answer = raw(&address, &get("/v1/spaces/space_1", "")).await;
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
    // Without a pace, the trickling bodies would hold their slots for 100,000 x 100 ms. (The
    // bound leaves 20 times what it takes on a busy 2-core machine.)
    assert!(started.elapsed() < Duration::from_secs(20), "answered after {:?}", started.elapsed());
    for trickler in tricklers {
        let answer = tokio::time::timeout(PATIENCE, trickler).await.expect("closed").unwrap();
        assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
    }
}

/// Opens a connection sending the head of a POST declaring a 2,000,000-byte body, then
/// `burst` bytes of it at once, then `pace` bytes every 100 ms (none when 0) until the server
/// closes; answers what the server sent before closing.
async fn slow_body(address: &str, burst: usize, pace: usize) -> tokio::task::JoinHandle<String> {
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream.write_all(slow_post(2_000_000).as_bytes()).await.unwrap();
    stream.write_all(&vec![b' '; burst]).await.unwrap();
    tokio::spawn(async move {
        let mut answer = Vec::new();
        loop {
            if pace > 0 && stream.write_all(&vec![b' '; pace]).await.is_err() {
                break;
            }
            let mut chunk = [0u8; 4096];
            match tokio::time::timeout(Duration::from_millis(100), stream.read(&mut chunk)).await {
                Ok(Ok(0)) | Ok(Err(_)) => break,
                Ok(Ok(read)) => answer.extend_from_slice(&chunk[..read]),
                Err(_) => {}
            }
        }
        String::from_utf8_lossy(&answer).into_owned()
    })
}

#[tokio::test]
async fn a_body_keeping_the_pace_is_cut_at_the_most_a_body_may_take() {
    // 1,100 B/s keeps `min_body_rate`; `max_body_time` (60 s by default) ends it anyway.
    let connections = ServeConfig { max_body_time: Duration::from_secs(1), ..ServeConfig::default() };
    let address = start(ServerConfig::default(), connections).await;
    let started = Instant::now();
    let answer = slow_body(&address, 0, 110).await;
    let answer = tokio::time::timeout(PATIENCE, answer).await.expect("answered and closed").unwrap();
    let took = started.elapsed();
    // Cut at 1 s, not the default 60 s: the upper bound leaves a busy machine 20 times the wait.
    assert!(took >= Duration::from_secs(1) && took < Duration::from_secs(20), "answered after {took:?}");
    let (status, body) = status_and_body(&answer);
    assert_eq!(status, "408", "{answer}");
    assert!(answer.to_ascii_lowercase().contains("\r\nconnection: close\r\n"), "{answer}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("the body is too slow: ") && message.ends_with(" bytes arrived in 1.0 s"), "{message}");
}

/// What a slow body's connection read before the server closed it, or `None` while it is open.
type Closing = tokio::task::JoinHandle<String>;

/// Whether `body` was closed by the server within `wait`: its answer if so.
async fn closed_within(body: &mut Closing, wait: Duration) -> Option<String> {
    tokio::time::timeout(wait, body).await.ok().map(Result::unwrap)
}

/// Fills the 8 slots of a server with slow bodies (`burst` bytes at once, then `pace` every
/// 100 ms), waits `after`, and answers a GET then sent ([`get_while_full`]) with the slow
/// bodies' connections.
async fn get_past_slow_bodies(burst: usize, pace: usize, after: Duration) -> (String, Vec<Closing>) {
    let connections =
        ServeConfig { max_connections: 8, header_read_timeout: Duration::from_secs(30), ..ServeConfig::default() };
    let address = start(ServerConfig::default(), connections).await;
    let mut slow = Vec::new();
    for _ in 0..8 {
        slow.push(slow_body(&address, burst, pace).await);
    }
    tokio::time::sleep(after).await;
    (get_while_full(&address).await, slow)
}

/// A GET sent while bodies hold every slot, given 20 s (twenty times the second it needs);
/// how long it took is printed for the record.
async fn get_while_full(address: &str) -> String {
    let started = Instant::now();
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream.write_all(&get("/v1/spaces/space_1", "")).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut answer))
        .await
        .expect("a GET answered while bodies held every slot")
        .unwrap();
    eprintln!("a GET sent while bodies held every slot answered after {:?}", started.elapsed());
    String::from_utf8_lossy(&answer).into_owned()
}

/// Asserts a connection closed by shedding read a 408 with the error body, or nothing (its
/// 408 may be lost to the reset of a connection closed with bytes unread).
fn assert_shed(answer: &str) {
    if !answer.is_empty() {
        assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
        assert!(answer.contains(r#"{"error":{"code":408,"message":"the body is too slow: "#), "{answer}");
    }
}

#[tokio::test]
async fn slow_bodies_holding_every_slot_are_shed_and_a_get_is_answered() {
    // Every slot holds a body keeping the pace of `min_body_rate` (1,100 B/s against 1,024),
    // one that sent 64 KiB at once and then nothing, or one that sent 1.9 MB at once and then
    // nothing: by that pace alone, they held their slots for 30 minutes (2 MB at 1,100 B/s)
    // or 60 s (`max_body_time`). Averaged since the head, the 1.9 MB burst stays above
    // `shed_body_rate` (32 KiB/s) for 58 s; over the last `body_pace_window` (2 s) it is 0.
    // Under pressure, every body under `shed_body_rate` over the window after
    // `shed_idle_after` (1 s) is cut.
    for (burst, pace, after) in [(0, 110, 1100), (64 * 1024, 0, 2100), (1_900_000, 0, 2100)] {
        let (answer, slow) = get_past_slow_bodies(burst, pace, Duration::from_millis(after)).await;
        assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
        for mut body in slow {
            let answer = closed_within(&mut body, PATIENCE).await.expect("a slow body shed");
            assert_shed(&answer);
        }
    }
}

#[tokio::test]
async fn bodies_of_any_pace_holding_every_slot_give_way_to_a_get_slowest_first() {
    // Seven bodies at 120 kB/s and one at 40 kB/s after a burst of 1 MB, all above
    // `shed_body_rate` (32 KiB/s, so a stall of the test's own writers by less than 3.6 times
    // leaves the seven above it): when a GET waits for a slot, the body slowest over the last
    // window goes first, whatever it sent before, and the GET is answered.
    let connections =
        ServeConfig { max_connections: 8, header_read_timeout: Duration::from_secs(30), ..ServeConfig::default() };
    let address = start(ServerConfig::default(), connections).await;
    let mut fast = Vec::new();
    for _ in 0..7 {
        fast.push(slow_body(&address, 0, 12_000).await);
    }
    let mut slowest = slow_body(&address, 1_000_000, 4096).await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let answer = get_while_full(&address).await;
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
    assert_shed(&closed_within(&mut slowest, PATIENCE).await.expect("the slowest body shed"));
    // One slot was needed, so one body was cut: the seven faster ones are all still open.
    let mut still_open = 0;
    for mut body in fast {
        if closed_within(&mut body, Duration::from_millis(300)).await.is_none() {
            still_open += 1;
        }
        body.abort();
    }
    assert_eq!(still_open, 7);
}

#[tokio::test]
async fn bodies_being_received_count_against_one_memory_budget() {
    // Five bodies send 300 kB each at once and then nothing, against a budget of 1 MB for all:
    // the bodies slowest over the window (the two oldest) are cut until the rest fit, where
    // each held its bytes for a minute (`max_body_time`) before.
    let connections = ServeConfig { max_buffered_body_bytes: 1_000_000, ..ServeConfig::default() };
    let address = start(ServerConfig::default(), connections).await;
    let mut bodies = Vec::new();
    for _ in 0..5 {
        bodies.push(slow_body(&address, 300_000, 0).await);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for body in &mut bodies[..2] {
        assert_shed(&closed_within(body, PATIENCE).await.expect("an old body cut to fit the budget"));
    }
    for body in &mut bodies[2..] {
        assert_eq!(closed_within(body, Duration::from_millis(300)).await, None, "a body cut past the budget");
        body.abort();
    }
    // The server still answers.
    let answer = raw(&address, &get("/v1/spaces/space_1", "")).await;
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
}

#[tokio::test]
async fn when_slots_run_out_idle_connections_are_closed_first() {
    // The head timeout is long, so only shedding can free a slot in time.
    let connections = ServeConfig {
        header_read_timeout: Duration::from_secs(30),
        max_connections: 8,
        shed_idle_after: Duration::from_millis(200),
        ..ServeConfig::default()
    };
    let address = start(ServerConfig::default(), connections).await;
    let mut idle = Vec::new();
    for _ in 0..8 {
        idle.push(TcpStream::connect(&address).await.unwrap());
    }
    let started = Instant::now();
    let answer = raw(&address, &get("/v1/spaces/space_1", "")).await;
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
    // Without shedding it would wait for the 30 s head timeout.
    assert!(started.elapsed() < Duration::from_secs(20), "answered after {:?}", started.elapsed());
    let mut closed = 0;
    for stream in &mut idle {
        let mut byte = [0u8; 1];
        if matches!(tokio::time::timeout(Duration::from_millis(500), stream.read(&mut byte)).await, Ok(Ok(0) | Err(_)))
        {
            closed += 1;
        }
    }
    assert!(closed >= 1, "no idle connection was closed");
}

/// True when the server closed `stream` (a read returns end of file) within `PATIENCE`.
async fn closed_by_server(stream: &mut TcpStream) -> bool {
    let mut byte = [0u8; 1];
    matches!(tokio::time::timeout(PATIENCE, stream.read(&mut byte)).await, Ok(Ok(0)) | Ok(Err(_)))
}

#[tokio::test]
async fn idle_and_slow_connections_are_closed_and_never_starve_a_normal_request() {
    let connections =
        ServeConfig { header_read_timeout: Duration::from_millis(300), max_connections: 8, ..ServeConfig::default() };
    let address = start(ServerConfig::default(), connections).await;
    // Eight idle connections fill every slot; a slow one trickles its headers.
    let mut idle = Vec::new();
    for _ in 0..8 {
        idle.push(TcpStream::connect(&address).await.unwrap());
    }
    let mut slow = TcpStream::connect(&address).await.unwrap();
    let trickle = tokio::spawn(async move {
        for byte in b"GET /v1/spaces/space_1 HTTP/1.1\r\nHost: x\r\n" {
            if slow.write_all(&[*byte]).await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        slow
    });
    // A normal request still gets its answer: the idle connections are closed in time.
    let started = Instant::now();
    let answer = raw(&address, &get("/v1/spaces/space_1", "")).await;
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
    assert!(started.elapsed() < PATIENCE);
    for stream in &mut idle {
        assert!(closed_by_server(stream).await, "an idle connection stayed open");
    }
    let mut slow = trickle.await.unwrap();
    assert!(closed_by_server(&mut slow).await, "a slowloris connection stayed open");
}

/// A server answering every connection with `response` then, if `endless`, chunks forever.
async fn misbehaving_server(response: &'static str, endless: bool) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut request = vec![0; 65536];
                let _ = stream.read(&mut request).await;
                let _ = stream.write_all(response.as_bytes()).await;
                let chunk = format!("10000\r\n{}\r\n", "x".repeat(0x10000));
                while endless && stream.write_all(chunk.as_bytes()).await.is_ok() {}
            });
        }
    });
    address
}

#[tokio::test]
async fn a_token_the_service_echoes_never_reaches_the_callers_logs() {
    let base = misbehaving_server(
        "HTTP/1.1 401 No\r\nContent-Type: application/json\r\nContent-Length: 95\r\nConnection: close\r\n\r\n\
         {\"error\":{\"code\":401,\"message\":\"the token token-secret-42 is revoked\",\"violations\":[]},\"x\":\"t\"}",
        false,
    )
    .await;
    let client = Client::builder(&base).bearer("token-secret-42").retry(RetryPolicy::none()).build().unwrap();
    let error = client.spaces().get("space_1").send().await.unwrap_err();
    assert_eq!(error.to_string(), "the service answered 401: the token <redacted> is revoked");
    let Error::Api { body, .. } = &error else { panic!("{error:?}") };
    assert!(body.contains("the token <redacted> is revoked"), "{body}");
    assert!(!format!("{error:?}").contains("token-secret-42"), "{error:?}");
}

fn client(base: &str) -> docs_api_client::ClientBuilder {
    Client::builder(base).bearer("token-1").retry(RetryPolicy::none())
}

#[tokio::test]
async fn an_endless_response_body_fails_once_the_limit_is_read() {
    let base = misbehaving_server(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
        true,
    )
    .await;
    let client = client(&base).max_response_bytes(1 << 20).build().unwrap();
    let error =
        tokio::time::timeout(PATIENCE, client.spaces().get("space_1").send()).await.expect("no hang").unwrap_err();
    assert!(matches!(error, Error::TooLarge { status: 200, limit: 1_048_576 }), "{error:?}");
    assert_eq!(error.to_string(), "the service answered 200 with a body larger than the limit of 1048576 bytes");
}

#[tokio::test]
async fn a_declared_1_gib_body_fails_before_it_is_read() {
    let base = misbehaving_server(
        "HTTP/1.1 500 Oops\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n{",
        false,
    )
    .await;
    let error = client(&base).build().unwrap().spaces().get("space_1").send().await.unwrap_err();
    assert!(matches!(error, Error::TooLarge { status: 500, limit: 8_388_608 }), "{error:?}");
}

#[tokio::test]
async fn a_long_retry_after_ends_the_call_at_its_deadline_not_after_the_wait() {
    let base = misbehaving_server(
        "HTTP/1.1 503 Busy\r\nRetry-After: 60\r\nContent-Type: application/json\r\nContent-Length: 54\r\n\r\n{\"error\":{\"code\":503,\"message\":\"busy, come back later\"}}",
        false,
    )
    .await;
    let client = Client::builder(&base).bearer("token-1").timeout(Duration::from_secs(2)).build().unwrap();
    let started = Instant::now();
    let error = client.spaces().get("space_1").send().await.unwrap_err();
    // The default deadline is 2 s x 4 attempts: a 60 s wait would pass it, so the 503 is
    // answered at once instead of after 3 waits of 60 s (the bound leaves a busy machine room).
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
    assert_eq!(error.status(), Some(503), "{error:?}");
}
