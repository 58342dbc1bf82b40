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

#[tokio::test]
async fn a_redirect_to_a_url_carrying_userinfo_is_refused_and_sends_nothing() {
    // `Location: http://mallory:evil@<api origin>/x` made the client send
    // `Authorization: Basic <mallory:evil>` ahead of its own credentials (issue 50).
    let locations = |api: &str| {
        let authority = api.trim_start_matches("http://");
        [
            format!("http://mallory:evil@{authority}/user/repos?moved=1"),
            format!("//mallory:evil@{authority}/user/repos?moved=1"),
            format!("http://mallory@{authority}/user/repos?moved=1"),
        ]
    };
    for status in [301, 302, 303, 307, 308] {
        for which in 0..3 {
            let location: Arc<Mutex<String>> = Arc::default();
            let answer = Arc::clone(&location);
            let (api, asked) = server(move |seen: &Seen| {
                if seen.target.contains("moved=1") {
                    return served(seen);
                }
                (StatusCode::from_u16(status).unwrap(), [(header::LOCATION, answer.lock().unwrap().clone())])
                    .into_response()
            })
            .await;
            *location.lock().unwrap() = locations(&api)[which].clone();
            let error = client_with(&api, |b| b.token("apiKey", KEY)).repos().list().send().await.unwrap_err();
            assert_eq!(
                error.to_string(),
                format!(
                    "the service answered {status} with a `Location` carrying a user name or password; \
                     the client does not follow it"
                )
            );
            assert!(matches!(error, forge_client::Error::Redirect(_)), "{error:?}");
            let seen = only(&asked);
            assert_eq!((seen.target.as_str(), seen.header("authorization")), ("/user/repos", None));
        }
    }
}

/// The forms of `secret` a service may echo in a header or in text: raw, JSON-escaped
/// (serde's, and PHP's with `\/`), percent-encoded (either case of hex digits), the query
/// encoding (`+` for a space), and as other encoders escape it (issue 50).
fn forms(secret: &str) -> Vec<String> {
    let json = serde_json::to_string(secret).unwrap();
    let json = json[1..json.len() - 1].to_owned();
    let percent: String = secret
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    let lower = percent.split('%').enumerate().map(|(i, part)| {
        if i == 0 {
            part.to_owned()
        } else {
            format!("{}{}", part.get(..2).unwrap_or_default().to_lowercase(), part.get(2..).unwrap_or_default())
        }
    });
    let lower = lower.collect::<Vec<_>>().join("%");
    // How other encoders write it: Python's `quote` keeps `/`; hex digits of both cases; every
    // byte escaped; JSON's `\u` escapes outside a JSON string (in a header); both at once.
    let python = percent.replace("%2F", "/");
    let mixed: String = percent
        .split('%')
        .enumerate()
        .map(|(i, part)| match part.split_at_checked(2) {
            Some((hex, rest)) if i % 2 == 0 && i > 0 => format!("{}{rest}", hex.to_lowercase()),
            _ => part.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("%");
    let every: String = secret.bytes().map(|b| format!("%{b:02x}")).collect();
    let unicode: String = secret.chars().map(|c| format!("\\u{:04x}", c as u32)).collect();
    let both = json.replace('/', "\\/").replace('+', "%2B").replace(' ', "%20");
    let mut all = vec![
        secret.to_owned(),
        json.clone(),
        json.replace('/', "\\/"),
        percent.clone(),
        lower,
        percent.replace("%20", "+"),
        python,
        mixed,
        every,
        unicode,
        both,
    ];
    all.sort();
    all.dedup();
    all
}

/// A JSON string literal of `text` with every character but letters and digits escaped as
/// `\uXXXX`: valid JSON no serializer writes, that any reader decodes to `text`.
fn escaped_literal(text: &str) -> String {
    let inner: String = text
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c.to_string() } else { format!("\\u{:04x}", c as u32) })
        .collect();
    format!("\"{inner}\"")
}

/// Base64 of `user:password`, as `Authorization: Basic` carries it.
fn basic(user: &str, password: &str) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let bytes = format!("{user}:{password}").into_bytes();
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            out.push(if i <= chunk.len() { ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char } else { '=' });
        }
    }
    out
}

/// Every secret of the clients here, and the `Authorization: Basic` value of `ada`.
fn secrets() -> [String; 4] {
    [KEY.to_owned(), TOKEN.to_owned(), PASSWORD.to_owned(), basic("ada", PASSWORD)]
}

/// Asserts that no form of the secrets `held` shows in the error's `Display` or `Debug`, nor
/// as `Debug` escapes it, nor as the escaped JSON literal (in case one was left as it came).
fn assert_clean(error: &forge_client::Error, held: &[String]) {
    let shown = format!("{error}\n{error:?}");
    for secret in held {
        let escaped = escaped_literal(secret);
        for form in forms(secret).into_iter().chain([escaped[1..escaped.len() - 1].to_owned()]) {
            let debugged = format!("{form:?}");
            for shape in [form.as_str(), &debugged[1..debugged.len() - 1]] {
                assert!(!shown.contains(shape), "{shape:?} shows in:\n{shown}");
            }
        }
    }
}

#[tokio::test]
async fn a_connection_failure_never_shows_a_key_of_the_query() {
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap().local_addr().unwrap();
    let client = client_with(&format!("http://{closed}"), |b| b.token("queryKey", KEY));
    let error = client.events().list("octo", "hello").limit(3).send().await.unwrap_err();
    assert!(matches!(error, forge_client::Error::Transport(_)), "{error:?}");
    assert_eq!(
        error.to_string(),
        format!(
            "the request failed: error sending request for url \
             (http://{closed}/repos/octo/hello/events?limit=3&access_token=%3Credacted%3E)"
        )
    );
    assert_clean(&error, &[KEY.to_owned()]);
}

/// A service echoing the credentials back in every way it could: each form in a header and
/// in a text body, in a JSON error body (each form as a string, and each secret as the
/// `\u`-escaped literal no serializer writes), and in a page's `Link` leading away.
fn echoing(seen: &Seen) -> Response {
    use apigen_runtime::server::axum::http::{HeaderName, HeaderValue};
    let path = seen.target.split('?').next().unwrap_or_default().to_owned();
    let all: Vec<String> = secrets().iter().flat_map(|secret| forms(secret)).collect();
    let mut response = match (seen.method.as_str(), path.as_str()) {
        // A 200 that is not JSON: the decode error quotes its start.
        ("GET", "/user/settings") => {
            (StatusCode::OK, [(header::CONTENT_TYPE, "text/plain")], format!("{KEY} {}", all.join(" "))).into_response()
        }
        // A 201 that is not JSON, for an operation answering by status (generated code
        // decodes it with `decode_body`).
        ("POST", "/user/repos") if seen.body.contains("plain") => {
            (StatusCode::CREATED, [(header::CONTENT_TYPE, "text/plain")], format!("{PASSWORD} {}", all.join(" ")))
                .into_response()
        }
        // A page whose next link leads away, holding the key twice.
        ("GET", "/user/repos") => {
            let link =
                format!("<http://127.0.0.2:9/user/repos?page=2&access_token=x&k={}>; rel=\"next\"", forms(KEY)[0]);
            let mut response = (StatusCode::OK, [(header::CONTENT_TYPE, "application/json")], "[]").into_response();
            response.headers_mut().insert(header::LINK, HeaderValue::from_str(&link).unwrap());
            response
        }
        _ => {
            let strings: Vec<String> = all.iter().map(|form| serde_json::to_string(form).unwrap()).collect();
            let escaped: Vec<String> = secrets().iter().map(|secret| escaped_literal(secret)).collect();
            let detail = serde_json::to_string(&format!("bad credentials {KEY}")).unwrap().replace('/', "\\/");
            // Each field of the error shape echoes the key as another encoder escapes it.
            let (python, every) = ("key/secret%2B1%22", "%6b%65%79%2f%73%65%63%72%65%74%2b%31%22");
            assert!(forms(KEY).iter().any(|f| f == python) && forms(KEY).iter().any(|f| f == every));
            let violation = serde_json::json!({"name": format!("body.{python}"), "reason": format!("is not {every}")});
            let body = format!(
                r#"{{"status": 400, "detail": {detail}, "invalid_params": [{violation}], "echo": [{}], "escaped": [{}]}}"#,
                strings.join(", "),
                escaped.join(", ")
            );
            (StatusCode::BAD_REQUEST, [(header::CONTENT_TYPE, "application/problem+json")], body).into_response()
        }
    };
    for (i, form) in all.iter().enumerate() {
        if let Ok(value) = HeaderValue::from_str(form) {
            response.headers_mut().append(HeaderName::from_bytes(format!("x-echo-{i}").as_bytes()).unwrap(), value);
        }
    }
    response
}

#[tokio::test]
async fn secrets_echoed_back_never_show_in_any_form() {
    let (api, _) = server(echoing).await;
    let clients = [
        client_with(&api, |b| b.token("apiKey", KEY).token("token", TOKEN).basic("basic", "ada", PASSWORD)),
        client_with(&api, |b| b.token("queryKey", KEY)),
        client_with(&api, |b| b.token("session", KEY)),
    ];
    // An API error whose body, headers and message echo every form.
    let error = clients[0].repos().create("fresh").send().await.unwrap_err();
    let forge_client::Error::Api { status, headers, body, .. } = &error else { panic!("{error:?}") };
    assert_eq!(*status, 400);
    assert!(body.contains("<redacted>") && headers.len() > 10, "{error:?}");
    assert_eq!(
        error.to_string(),
        "the service answered 400: bad credentials <redacted>; body.<redacted>: is not <redacted>"
    );
    assert_clean(&error, &secrets());
    let key = [KEY.to_owned()];
    let error = clients[1].events().list("octo", "hello").send().await.unwrap_err();
    assert_clean(&error, &key);
    // A decode error quoting a body that is not JSON.
    let error = clients[2].repos().get_settings().send().await.unwrap_err();
    assert!(matches!(error, forge_client::Error::Decode { .. }), "{error:?}");
    assert!(error.to_string().starts_with("the response does not decode at (root): not JSON: "), "{error}");
    assert!(error.to_string().contains("(near <redacted> "), "{error}");
    assert_clean(&error, &key);
    let error = clients[0].repos().create("plain").send().await.unwrap_err();
    assert!(error.to_string().contains("(near <redacted> "), "{error}");
    assert_clean(&error, &secrets());
    // A pagination error quoting a link: the API's query keys and every secret taken out.
    use futures_util::StreamExt;
    let results: Vec<_> = clients[0].repos().list().stream().collect().await;
    let error = results.last().unwrap().as_ref().unwrap_err();
    assert_eq!(
        error.to_string(),
        "the next page's link leads outside the API: http://127.0.0.2:9/user/repos?page=2&access_token=<redacted>&k=<redacted>"
    );
    assert_clean(error, &secrets());
}
