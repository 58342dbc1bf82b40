//! The credentials a generated client holds go to the API's origin only, and never show in
//! what it reports: a redirect to another host or port carries no key (in a header, the query
//! or a cookie) and no `Referer`; a same-origin redirect carries them again. Through the
//! client of `tests/fixtures/valid/forge` (keys in a header, the query and a cookie; bearer
//! and basic), against loopback servers that record what reaches them.

use apigen_runtime::server::axum::body::Bytes;
use apigen_runtime::server::axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use apigen_runtime::server::axum::response::{IntoResponse, Response};
use apigen_runtime::server::axum::{self, Router};
use forge_client::{Client, ClientBuilder, RetryPolicy};
use std::sync::{Arc, Mutex};

/// The secrets the clients hold: long enough to be redacted, with characters that are
/// escaped in JSON and percent-encoded in a URL.
const KEY: &str = "key/secret+1\"";
const TOKEN: &str = "tok-secret-2";
const PASSWORD: &str = "pw-secret-3";

/// One request as a server received it.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    method: String,
    /// Path and query.
    target: String,
    /// Every header, by lower-case name, in the order received.
    headers: Vec<(String, String)>,
    body: String,
}

impl Seen {
    fn header_names(&self) -> Vec<&str> {
        self.headers.iter().map(|(name, _)| name.as_str()).collect()
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, value)| value.as_str())
    }
}

type Log = Arc<Mutex<Vec<Seen>>>;

/// Serves `answer` on a loopback port, recording every request; the base URL and the record.
async fn server(answer: impl Fn(&Seen) -> Response + Clone + Send + Sync + 'static) -> (String, Log) {
    let log: Log = Arc::default();
    let record = Arc::clone(&log);
    let app = Router::new().fallback(move |method: Method, uri: Uri, headers: HeaderMap, body: Bytes| {
        let (record, answer) = (Arc::clone(&record), answer.clone());
        async move {
            let seen = Seen {
                method: method.to_string(),
                target: uri.path_and_query().map(ToString::to_string).unwrap_or_default(),
                headers: headers
                    .iter()
                    .map(|(name, value)| (name.to_string(), String::from_utf8_lossy(value.as_bytes()).into_owned()))
                    .collect(),
                body: String::from_utf8_lossy(&body).into_owned(),
            };
            let response = answer(&seen);
            record.lock().unwrap().push(seen);
            response
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{address}"), log)
}

/// What each operation used here answers when it is served.
fn served(seen: &Seen) -> Response {
    let json = |status: StatusCode, body: &str| {
        (status, [(header::CONTENT_TYPE, "application/json")], body.to_owned()).into_response()
    };
    let path = seen.target.split('?').next().unwrap_or_default();
    match (seen.method.as_str(), path) {
        ("GET", "/user/repos") => json(StatusCode::OK, "[]"),
        ("POST", "/user/repos") => {
            json(StatusCode::CREATED, r#"{"id": 8, "name": "fresh", "full_name": "octo/fresh", "private": false}"#)
        }
        ("GET", "/user/settings") => json(StatusCode::OK, r#"{"theme": "light"}"#),
        ("GET", "/repos/octo/hello/events") => json(StatusCode::OK, r#"{"events": []}"#),
        _ => json(StatusCode::NOT_FOUND, r#"{"status": 404, "detail": "no such path"}"#),
    }
}

/// The other host: serves every operation.
async fn elsewhere() -> (String, Log) {
    server(served).await
}

/// The API: answers `status` with a `Location` of the same path and query at `to` (the query
/// echoed whole, the key in it included, as a service moving its paths would), and serves a
/// request whose query says `moved=1`.
async fn api_redirecting(status: u16, to: Option<String>) -> (String, Log) {
    let to = Arc::new(Mutex::new(to));
    let target = Arc::clone(&to);
    let (base, log) = server(move |seen: &Seen| {
        if seen.target.contains("moved=1") {
            return served(seen);
        }
        let location = match target.lock().unwrap().clone() {
            Some(other) => format!("{other}{}", seen.target),
            // The same origin: the same path, the query dropped (the client adds its key).
            None => format!("{}?moved=1", seen.target.split('?').next().unwrap_or_default()),
        };
        (StatusCode::from_u16(status).unwrap(), [(header::LOCATION, location)]).into_response()
    })
    .await;
    (base, log)
}

/// A client holding only the credentials `set` gives it.
fn client_with(base: &str, set: impl FnOnce(ClientBuilder) -> ClientBuilder) -> Client {
    let builder = ClientBuilder::new(base, forge_client::USER_AGENT, forge_client::SCHEMES, &forge_client::ERRORS);
    set(builder).retry(RetryPolicy::none()).build().unwrap()
}

fn only(log: &Log) -> Seen {
    let seen = log.lock().unwrap();
    assert_eq!(seen.len(), 1, "{seen:#?}");
    seen[0].clone()
}

#[tokio::test]
async fn a_redirect_to_another_port_carries_no_key_in_a_header_and_no_referer() {
    // With the client's own reqwest client, and with one of the caller's built from
    // `http_client_builder` (which leaves redirects to the generated client).
    for (status, own) in [(302, true), (307, true), (302, false), (307, false)] {
        let (other, reached) = elsewhere().await;
        let (api, asked) = api_redirecting(status, Some(other)).await;
        let client = client_with(&api, |b| {
            let b = b.token("apiKey", KEY);
            if own { b } else { b.http_client(forge_client::http_client_builder().build().unwrap()) }
        });
        let repos = client.repos().list().per_page(3).send().await.unwrap();
        assert!(repos.is_empty());
        let first = only(&asked);
        assert_eq!(first.header("x-forge-key"), Some(KEY), "the API gets its key");
        let second = only(&reached);
        assert_eq!((second.method.as_str(), second.target.as_str()), ("GET", "/user/repos?per_page=3"));
        assert_eq!(second.header_names(), ["user-agent", "accept", "host"], "{status} {own}: {second:#?}");
    }
}

#[tokio::test]
async fn a_redirect_to_another_port_carries_no_key_in_the_query_even_echoed_in_its_location() {
    for status in [302, 307] {
        let (other, reached) = elsewhere().await;
        let (api, asked) = api_redirecting(status, Some(other)).await;
        let client = client_with(&api, |b| b.token("queryKey", KEY));
        let page = client.events().list("octo", "hello").limit(3).send().await.unwrap();
        assert!(page.events.is_empty());
        assert_eq!(only(&asked).target, "/repos/octo/hello/events?limit=3&access_token=key%2Fsecret%2B1%22");
        let second = only(&reached);
        assert_eq!(second.target, "/repos/octo/hello/events?limit=3", "{status}");
        assert_eq!(second.header_names(), ["user-agent", "accept", "host"], "{status}: no Referer: {second:#?}");
    }
}

#[tokio::test]
async fn a_redirect_to_another_port_carries_no_cookie_and_no_authorization() {
    let (other, reached) = elsewhere().await;
    let (api, asked) = api_redirecting(302, Some(other)).await;
    let browser = client_with(&api, |b| b.token("session", KEY));
    assert_eq!(browser.repos().get_settings().theme("dark").send().await.unwrap().theme, "light");
    assert_eq!(only(&asked).header("cookie"), Some("theme=dark; forge_session=key/secret+1%22"));
    assert_eq!(only(&reached).header_names(), ["user-agent", "accept", "host"]);

    // A 307 keeps the method and the body, not the credentials.
    for (scheme, set) in [("token", 0), ("basic", 1)] {
        let (other, reached) = elsewhere().await;
        let (api, asked) = api_redirecting(307, Some(other)).await;
        let client =
            client_with(&api, |b| if set == 0 { b.token("token", TOKEN) } else { b.basic("basic", "ada", PASSWORD) });
        client.repos().create("fresh").send().await.unwrap();
        assert!(only(&asked).header("authorization").is_some(), "{scheme}: the API gets its credentials");
        let second = only(&reached);
        assert_eq!((second.method.as_str(), second.body.as_str()), ("POST", r#"{"name":"fresh"}"#));
        assert_eq!(
            second.header_names(),
            ["user-agent", "accept", "content-type", "host", "content-length"],
            "{scheme}: {second:#?}"
        );
    }
}

#[tokio::test]
async fn a_redirect_within_the_apis_origin_carries_the_credentials_again() {
    let (api, asked) = api_redirecting(302, None).await;
    let client = client_with(&api, |b| b.token("apiKey", KEY));
    client.repos().list().send().await.unwrap();
    let seen = asked.lock().unwrap().clone();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[1].target, "/user/repos?moved=1");
    assert_eq!(seen[1].header("x-forge-key"), Some(KEY));

    let (api, asked) = api_redirecting(307, None).await;
    let client = client_with(&api, |b| b.token("queryKey", KEY));
    client.events().list("octo", "hello").send().await.unwrap();
    let seen = asked.lock().unwrap().clone();
    assert_eq!(seen[1].target, "/repos/octo/hello/events?moved=1&access_token=key%2Fsecret%2B1%22");
}

#[tokio::test]
async fn a_redirect_loop_ends_after_ten_with_the_redirect_as_the_error() {
    let (api, asked) =
        server(|seen: &Seen| (StatusCode::FOUND, [(header::LOCATION, seen.target.clone())], "again").into_response())
            .await;
    let error = client_with(&api, |b| b.token("apiKey", KEY)).repos().list().send().await.unwrap_err();
    assert_eq!(error.status(), Some(302));
    assert_eq!(asked.lock().unwrap().len(), 11, "the request and 10 redirects");
}
