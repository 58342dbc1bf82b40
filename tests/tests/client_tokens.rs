//! A generated client that gets its own tokens (issue 49, item 3), on the wire: the client of
//! `tests/fixtures/valid/forge` (bearer scheme `token`) with a token provider of the runtime's
//! (feature `oauth2`), against an in-process OAuth2 token endpoint and an API that both count
//! what reaches them. Tokens are fetched once and cached, refreshed before they expire, shared
//! by concurrent calls; an expired token refused with 401 `invalid_token` is replaced and the
//! call sent exactly once more; the endpoint's `invalid_client` is a typed error without the
//! secret.

use apigen_runtime::client::{StaticToken, TokenEndpoint, TokenError};
use apigen_runtime::server::axum::http::{HeaderMap, StatusCode, header};
use apigen_runtime::server::axum::response::{IntoResponse, Response};
use apigen_runtime::server::axum::{self, Router, routing::post};
use forge_client::{Client, Error};
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const CLIENT_ID: &str = "forge-app";
const SECRET: &str = "client-s3cret/+1";
/// `Authorization: Basic` of the client id and secret (RFC 6749 section 2.3.1: each
/// form-encoded, then base64).
const BASIC: &str = "Basic Zm9yZ2UtYXBwOmNsaWVudC1zM2NyZXQlMkYlMkIx";

/// What the token endpoint does and saw.
#[derive(Default)]
struct Issuer {
    /// `expires_in` of the tokens it issues.
    lifetime: u64,
    /// How long it takes to answer (so that concurrent calls overlap a fetch).
    delay: Duration,
    /// The forms of the token requests received, in order.
    requests: Vec<String>,
    /// The `Authorization` headers of the token requests received.
    authorizations: Vec<String>,
    /// The path each token request reached (`/token`, or `/refresh`).
    paths: Vec<String>,
}

/// What the API accepts and saw.
#[derive(Default)]
struct Api {
    /// The tokens it accepts; any other is answered 401 `invalid_token`.
    valid: BTreeSet<String>,
    /// Every token is refused (they all expire at once).
    refuse_all: bool,
    /// The `Authorization` header of each request received, in order.
    seen: Vec<String>,
}

struct World {
    issuer: Arc<Mutex<Issuer>>,
    api: Arc<Mutex<Api>>,
    token_url: String,
    base_url: String,
}

impl World {
    /// A token endpoint issuing tokens that live `lifetime` seconds (valid at the API as soon
    /// as issued), and the API.
    async fn start(lifetime: u64) -> World {
        let issuer = Arc::new(Mutex::new(Issuer { lifetime, ..Issuer::default() }));
        let api = Arc::new(Mutex::new(Api::default()));
        let (i, a) = (issuer.clone(), api.clone());
        // The same endpoint at `/refresh`, as a spec's `refresh_url` may name another URL.
        let endpoint = post(move |uri: axum::http::Uri, headers: HeaderMap, form: String| {
            let (issuer, api) = (i.clone(), a.clone());
            async move {
                issuer.lock().unwrap().paths.push(uri.path().to_owned());
                token_endpoint(&issuer, &api, &headers, form).await
            }
        });
        let tokens = Router::new().route("/token", endpoint.clone()).route("/refresh", endpoint);
        let a = api.clone();
        let service =
            Router::new().fallback(move |headers: HeaderMap, method: axum::http::Method, uri: axum::http::Uri| {
                let api = a.clone();
                async move { api_answer(&api, &headers, &method, uri.path()) }
            });
        World { issuer, api, token_url: format!("{}/token", serve(tokens).await), base_url: serve(service).await }
    }

    /// A client getting its tokens by the client-credentials grant with `secret`.
    fn client(&self, secret: &str) -> Client {
        self.client_of(TokenEndpoint::new(&self.token_url, CLIENT_ID).client_secret(secret))
    }

    /// A client getting its tokens from `endpoint` by the client-credentials grant.
    fn client_of(&self, endpoint: TokenEndpoint) -> Client {
        let grant = endpoint.client_credentials().scopes(["repo:read", "repo:write"]);
        Client::builder(&self.base_url).token_provider(grant).build().unwrap()
    }

    fn fetches(&self) -> usize {
        self.issuer.lock().unwrap().requests.len()
    }

    fn api_saw(&self) -> Vec<String> {
        self.api.lock().unwrap().seen.clone()
    }

    /// The API stops accepting `token` (it expired).
    fn expire(&self, token: &str) {
        self.api.lock().unwrap().valid.remove(token);
    }
}

async fn serve(router: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    format!("http://{address}")
}

fn json(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// RFC 6749 section 5: a token for the right client credentials (`Authorization: Basic`), else
/// `invalid_client`, its description echoing the secret it was sent, as careless servers do.
async fn token_endpoint(issuer: &Mutex<Issuer>, api: &Mutex<Api>, headers: &HeaderMap, form: String) -> Response {
    let authorization = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    let fields: Vec<(String, String)> = form_urlencoded::parse(form.as_bytes()).into_owned().collect();
    let field = |name: &str| fields.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone()).unwrap_or_default();
    let delay = {
        let mut issuer = issuer.lock().unwrap();
        issuer.requests.push(form.clone());
        issuer.authorizations.push(authorization.clone());
        issuer.delay
    };
    tokio::time::sleep(delay).await;
    let in_body = field("client_id") == CLIENT_ID && field("client_secret") == SECRET;
    if authorization != BASIC && !in_body {
        let body = serde_json::json!({
            "error": "invalid_client",
            "error_description": format!("unknown client secret {}", field("client_secret")),
        });
        return json(StatusCode::UNAUTHORIZED, body.to_string());
    }
    let (number, lifetime) = {
        let issuer = issuer.lock().unwrap();
        (issuer.requests.len(), issuer.lifetime)
    };
    let token = format!("access-{number}");
    let mut body = serde_json::json!({"access_token": token, "token_type": "bearer", "expires_in": lifetime});
    match field("grant_type").as_str() {
        "client_credentials" => {}
        // The code of `authorization_code_flow`, with its PKCE verifier and redirect URL.
        "authorization_code" if field("code") == "the-code" && field("code_verifier").len() == 43 => {
            body["refresh_token"] = format!("refresh-{number}").into();
        }
        // Refresh tokens rotate: the one sent last is the only one valid.
        "refresh_token" if field("refresh_token") == format!("refresh-{}", number - 1) => {
            body["refresh_token"] = format!("refresh-{number}").into();
        }
        _ => return json(StatusCode::BAD_REQUEST, serde_json::json!({"error": "invalid_grant"}).to_string()),
    }
    api.lock().unwrap().valid.insert(token);
    json(StatusCode::OK, body.to_string())
}

/// `getRepo` and `createRepo` (the vault's `listSecrets`, under `/v1/`) for a valid bearer
/// token; 401 `invalid_token` otherwise.
fn api_answer(api: &Mutex<Api>, headers: &HeaderMap, method: &axum::http::Method, path: &str) -> Response {
    let authorization = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    let mut api = api.lock().unwrap();
    api.seen.push(authorization.clone());
    let token = authorization.strip_prefix("Bearer ").unwrap_or_default();
    if api.refuse_all || !api.valid.contains(token) {
        // The token echoed, as careless services do: the client's error must not show it.
        let body =
            serde_json::json!({"status": 401, "detail": format!("the access token {token} expired")}).to_string();
        let mut response = json(StatusCode::UNAUTHORIZED, body);
        let challenge = r#"Bearer realm="forge", error="invalid_token", error_description="expired""#;
        response.headers_mut().insert(header::WWW_AUTHENTICATE, challenge.parse().unwrap());
        return response;
    }
    if path.starts_with("/v1/") {
        return json(StatusCode::OK, "[]".to_owned());
    }
    let status = if method == axum::http::Method::POST { StatusCode::CREATED } else { StatusCode::OK };
    json(status, r#"{"id": 1, "name": "hello", "full_name": "octo/hello", "private": false}"#.to_owned())
}

#[tokio::test]
async fn a_token_is_fetched_once_and_cached_across_calls() {
    let world = World::start(3600).await;
    let client = world.client(SECRET);
    for _ in 0..3 {
        assert_eq!(client.repos().get("octo", "hello").send().await.unwrap().full_name, "octo/hello");
    }
    assert_eq!(world.fetches(), 1);
    assert_eq!(world.api_saw(), ["Bearer access-1"; 3]);
    let issuer = world.issuer.lock().unwrap();
    assert_eq!(issuer.requests, ["grant_type=client_credentials&scope=repo%3Aread+repo%3Awrite"]);
    // RFC 6749 section 2.3.1: the id and secret form-encoded, then base64.
    assert_eq!(issuer.authorizations, [BASIC]);
}

#[tokio::test]
async fn a_token_is_refreshed_before_it_expires() {
    // A token living 2 s is fetched again once half its lifetime is gone (the default margin
    // of 60 s is longer than that), while the API still accepts it.
    let world = World::start(2).await;
    let client = world.client(SECRET);
    client.repos().get("octo", "hello").send().await.unwrap();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    client.repos().get("octo", "hello").send().await.unwrap();
    assert_eq!(world.fetches(), 2);
    assert_eq!(world.api_saw(), ["Bearer access-1", "Bearer access-2"]);
}

#[tokio::test]
async fn concurrent_calls_share_one_fetch() {
    let world = World::start(3600).await;
    world.issuer.lock().unwrap().delay = Duration::from_millis(300);
    let client = world.client(SECRET);
    let calls = (0..8).map(|_| {
        let client = client.clone();
        tokio::spawn(async move { client.repos().get("octo", "hello").send().await.map(|_| ()) })
    });
    for call in calls.collect::<Vec<_>>() {
        call.await.unwrap().unwrap();
    }
    assert_eq!(world.fetches(), 1);
    assert_eq!(world.api_saw(), ["Bearer access-1"; 8]);
}

#[tokio::test]
async fn an_expired_token_refused_with_401_is_replaced_and_the_call_sent_once_more() {
    let world = World::start(3600).await;
    let client = world.client(SECRET);
    client.repos().get("octo", "hello").send().await.unwrap();
    world.expire("access-1");
    // A POST too: the API refused it, so sending it again is safe.
    let created = client.repos().create("hello").send().await.unwrap();
    assert!(matches!(created, forge_client::types::CreateRepoAnswer::Created(repo) if repo.name == "hello"));
    assert_eq!(world.fetches(), 2);
    assert_eq!(world.api_saw(), ["Bearer access-1", "Bearer access-1", "Bearer access-2"]);
    // The new token is cached.
    client.repos().get("octo", "hello").send().await.unwrap();
    assert_eq!(world.fetches(), 2);
}

#[tokio::test]
async fn a_call_is_sent_again_once_only() {
    let world = World::start(3600).await;
    let client = world.client(SECRET);
    client.repos().get("octo", "hello").send().await.unwrap();
    // From now on the API refuses every token: the call is sent once more with a new one, then
    // fails with the 401.
    world.api.lock().unwrap().refuse_all = true;
    let error = client.repos().get("octo", "hello").send().await.unwrap_err();
    assert_eq!(error.status(), Some(401));
    assert_eq!(world.fetches(), 2);
    assert_eq!(world.api_saw(), ["Bearer access-1", "Bearer access-1", "Bearer access-2"]);
    // The token the service echoed is taken out of the error, as a key is.
    assert_eq!(error.to_string(), "the service answered 401: the access token <redacted> expired");
    assert!(!format!("{error:?}").contains("access-2"));
}

#[tokio::test]
async fn a_static_token_refused_with_401_is_not_sent_again() {
    let world = World::start(3600).await;
    let client = Client::builder(&world.base_url).token_provider(StaticToken::new("static-token")).build().unwrap();
    let error = client.repos().get("octo", "hello").send().await.unwrap_err();
    assert_eq!(error.status(), Some(401));
    assert_eq!(world.api_saw(), ["Bearer static-token"]);
}

#[tokio::test]
async fn the_endpoints_invalid_client_is_a_typed_error_without_the_secret() {
    let world = World::start(3600).await;
    let wrong = "wrong-s3cret-value";
    // The secret in the form body: the endpoint sees it, and echoes it.
    let client =
        world.client_of(TokenEndpoint::new(&world.token_url, CLIENT_ID).client_secret(wrong).credentials_in_body());
    let error = client.repos().get("octo", "hello").send().await.unwrap_err();
    let Error::Token { scheme, error: TokenError::Refused { error: code, description } } = &error else {
        panic!("{error:?}")
    };
    assert_eq!((scheme.as_str(), code.as_str()), ("token", "invalid_client"));
    assert_eq!(description.as_deref(), Some("unknown client secret <redacted>"));
    assert_eq!(
        error.to_string(),
        "no token for `token`: the token endpoint refused: invalid_client (unknown client secret <redacted>)"
    );
    assert!(!format!("{error:?}").contains(wrong));
    // No request reached the API.
    assert!(world.api_saw().is_empty());
    let forms = world.issuer.lock().unwrap().requests.clone();
    assert_eq!(
        forms,
        [
            "grant_type=client_credentials&scope=repo%3Aread+repo%3Awrite&client_id=forge-app&client_secret=wrong-s3cret-value"
        ]
    );
}

#[tokio::test]
async fn authorization_code_flow() {
    let world = World::start(3600).await;
    let flow = TokenEndpoint::new(&world.token_url, CLIENT_ID)
        .client_secret(SECRET)
        .authorization_code("https://auth.forge.example/authorize", "http://127.0.0.1:8400/back")
        .scopes(["repo:read"]);
    // The URL to open; the authorization server sends the user back with a code and the state.
    let authorization = flow.start().unwrap();
    let url = &authorization.url;
    assert!(
        url.starts_with("https://auth.forge.example/authorize?response_type=code&client_id=forge-app&state="),
        "{url}"
    );
    assert!(
        url.contains("&code_challenge_method=S256&redirect_uri=http%3A%2F%2F127.0.0.1%3A8400%2Fback&scope=repo%3Aread"),
        "{url}"
    );
    // A state that is not the one sent: the code is not exchanged.
    let other = flow.start().unwrap();
    let refused = flow.exchange(other, "the-code", &authorization.state).await.unwrap_err();
    assert_eq!(refused, TokenError::StateMismatch);
    assert_eq!(world.fetches(), 0);

    let state = authorization.state.clone();
    let tokens = flow.exchange(authorization, "the-code", &state).await.unwrap();
    assert_eq!(world.fetches(), 1);
    let form = world.issuer.lock().unwrap().requests[0].clone();
    assert!(form.starts_with("grant_type=authorization_code&code=the-code&code_verifier="), "{form}");
    assert!(form.ends_with("&redirect_uri=http%3A%2F%2F127.0.0.1%3A8400%2Fback"), "{form}");

    // The client first sends the token the code was exchanged for, then refreshes it.
    let client = Client::builder(&world.base_url).token_provider(tokens).build().unwrap();
    client.repos().get("octo", "hello").send().await.unwrap();
    assert_eq!(world.fetches(), 1);
    world.expire("access-1");
    client.repos().get("octo", "hello").send().await.unwrap();
    world.expire("access-2");
    client.repos().get("octo", "hello").send().await.unwrap();
    assert_eq!(
        world.api_saw(),
        ["Bearer access-1", "Bearer access-1", "Bearer access-2", "Bearer access-2", "Bearer access-3"]
    );
    let forms = world.issuer.lock().unwrap().requests[1..].to_vec();
    // Each refresh sends the refresh token the last answer rotated to.
    assert_eq!(
        forms,
        [
            "grant_type=refresh_token&refresh_token=refresh-1&scope=repo%3Aread",
            "grant_type=refresh_token&refresh_token=refresh-2&scope=repo%3Aread",
        ]
    );
}

#[tokio::test]
async fn a_streamed_body_refused_with_401_is_not_sent_again() {
    use apigen_runtime::Bytes;
    use apigen_runtime::client::Upload;
    let world = World::start(3600).await;
    let grant = TokenEndpoint::new(&world.token_url, CLIENT_ID).client_secret(SECRET).client_credentials();
    let client = files_client::Client::builder(&world.base_url).token_provider(grant).build().unwrap();
    world.api.lock().unwrap().refuse_all = true;
    // A stream is sent once: the call fails with the 401, the token is not even refreshed.
    let chunks = vec![Ok::<_, std::io::Error>(Bytes::from_static(b"abc"))];
    let error = client.blobs().put("a", Upload::stream(futures_util::stream::iter(chunks))).send().await.unwrap_err();
    assert_eq!(error.status(), Some(401));
    assert_eq!(world.api_saw(), ["Bearer access-1"]);
    assert_eq!(world.fetches(), 1);
    // The same body in memory is sent once more, with a new token.
    let error = client.blobs().put("a", Upload::bytes(&b"abc"[..])).send().await.unwrap_err();
    assert_eq!(error.status(), Some(401));
    assert_eq!(world.api_saw(), ["Bearer access-1", "Bearer access-1", "Bearer access-2"]);
}

/// base64url without padding (RFC 7636 appendix A).
fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let bits: Vec<bool> = bytes.iter().flat_map(|byte| (0..8).rev().map(move |i| byte >> i & 1 == 1)).collect();
    let six = |chunk: &[bool]| (0..6).fold(0, |n, i| n << 1 | usize::from(chunk.get(i).copied().unwrap_or(false)));
    bits.chunks(6).map(|chunk| char::from(ALPHABET[six(chunk)])).collect()
}

#[tokio::test]
async fn the_specs_authorization_code_flow_from_the_url_to_refreshed_calls() {
    use sha2::Digest;
    let world = World::start(3600).await;
    // The vault's flow as the spec declares it, its token and refresh URLs moved to the test's.
    let spec = vault_client::oauth::VAULT_AUTHORIZATION_CODE;
    assert_eq!(
        (spec.authorization_url, spec.token_url, spec.refresh_url, spec.scopes),
        (
            "https://auth.vault.example.com/oauth/authorize",
            "https://auth.vault.example.com/oauth/token",
            Some("https://auth.vault.example.com/oauth/refresh"),
            &["secrets:read", "secrets:write"][..],
        )
    );
    let refresh_url: &'static str = Box::leak(world.token_url.replace("/token", "/refresh").into_boxed_str());
    let token_url: &'static str = Box::leak(world.token_url.clone().into_boxed_str());
    let moved = apigen_runtime::auth::AuthorizationCodeFlow { token_url, refresh_url: Some(refresh_url), ..spec };
    let flow = moved.for_client(CLIENT_ID, "http://127.0.0.1:8400/back").client_secret(SECRET);

    // The URL to open: its query, exactly.
    let authorization = flow.start().unwrap();
    let (at, query) = authorization.url.split_once('?').unwrap();
    assert_eq!(at, "https://auth.vault.example.com/oauth/authorize");
    let query: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes()).into_owned().collect();
    let challenge = query.iter().find(|(name, _)| name == "code_challenge").map(|(_, v)| v.clone()).unwrap();
    let state = authorization.state.clone();
    let expected = [
        ("response_type", "code"),
        ("client_id", CLIENT_ID),
        ("state", state.as_str()),
        ("code_challenge", challenge.as_str()),
        ("code_challenge_method", "S256"),
        ("redirect_uri", "http://127.0.0.1:8400/back"),
        ("scope", "secrets:read secrets:write"),
    ];
    let expected: Vec<(String, String)> = expected.iter().map(|(n, v)| ((*n).to_owned(), (*v).to_owned())).collect();
    assert_eq!(query, expected);
    assert_eq!(state.len(), 22, "a random state of 16 bytes, base64url");

    // The code exchanged: the form carries the code, the PKCE verifier whose S256 is the
    // challenge, and the redirect URL; the client id and secret as `Authorization: Basic`.
    let tokens = flow.exchange(authorization, "the-code", &state).await.unwrap();
    let form = world.issuer.lock().unwrap().requests[0].clone();
    let fields: Vec<(String, String)> = form_urlencoded::parse(form.as_bytes()).into_owned().collect();
    let names: Vec<&str> = fields.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["grant_type", "code", "code_verifier", "redirect_uri"]);
    assert_eq!((fields[0].1.as_str(), fields[1].1.as_str()), ("authorization_code", "the-code"));
    assert_eq!(fields[3].1, "http://127.0.0.1:8400/back");
    assert_eq!(base64url(&sha2::Sha256::digest(fields[2].1.as_bytes())), challenge);
    assert_eq!(world.issuer.lock().unwrap().authorizations, [BASIC]);

    // The client sends the token the code was exchanged for, then refreshes it at the
    // refresh URL with the refresh token, once the API refuses the first.
    let client = vault_client::Client::builder(&world.base_url).token_provider(tokens).build().unwrap();
    client.secrets().list().send().await.unwrap();
    world.expire("access-1");
    client.secrets().list().send().await.unwrap();
    assert_eq!(world.api_saw(), ["Bearer access-1", "Bearer access-1", "Bearer access-2"]);
    let issuer = world.issuer.lock().unwrap();
    assert_eq!(issuer.paths, ["/token", "/refresh"]);
    assert_eq!(
        issuer.requests[1],
        "grant_type=refresh_token&refresh_token=refresh-1&scope=secrets%3Aread+secrets%3Awrite"
    );
}
