//! OpenID Connect and the device grant in the generated client (issue 49), on the wire: the
//! client of `tests/fixtures/valid/oauth` (the vault: an `oauth2` scheme with a device-code
//! flow, and the OpenID Connect scheme `staff`) against an in-process provider that serves a
//! discovery document, a token endpoint and a device authorization endpoint, and counts what
//! reaches them. The spec's URLs are moved to the test's, as a user points a client at a
//! staging provider.

use apigen_runtime::client::{OpenIdProvider, TokenError};
use apigen_runtime::codegen::{DeviceCodeFlow, OpenIdConnectFlow};
use apigen_runtime::server::axum::http::{HeaderMap, StatusCode, header};
use apigen_runtime::server::axum::response::{IntoResponse, Response};
use apigen_runtime::server::axum::{self, Router, routing::get, routing::post};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use vault_client::{Client, Error};

const SECRET: &str = "oidc-s3cret";

/// What the provider serves and saw.
#[derive(Default)]
struct Provider {
    /// The discovery document's status and body; `None`: the document naming this provider's
    /// endpoints.
    document: Option<(StatusCode, String)>,
    /// How many times the document was fetched.
    discoveries: usize,
    /// The forms of the token requests, in order, with when each arrived.
    token_requests: Vec<(String, Instant)>,
    /// The device authorization requests' forms.
    device_requests: Vec<String>,
    /// What the device code's polls are answered, in order (then a token).
    device_answers: VecDeque<&'static str>,
    /// The device authorization answer's `expires_in` and `interval`.
    device_timing: (u64, u64),
    /// The `Authorization` header of each API call.
    api_saw: Vec<String>,
}

struct World {
    provider: Arc<Mutex<Provider>>,
    base: String,
}

impl World {
    async fn start() -> World {
        let provider = Arc::new(Mutex::new(Provider { device_timing: (600, 1), ..Provider::default() }));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (p, b) = (provider.clone(), base.clone());
        let discovery = get(move || {
            let (provider, base) = (p.clone(), b.clone());
            async move { discovery(&provider, &base) }
        });
        let p = provider.clone();
        let token = post(move |form: String| {
            let provider = p.clone();
            async move { token(&provider, form) }
        });
        let (p, b) = (provider.clone(), base.clone());
        let device = post(move |form: String| {
            let (provider, base) = (p.clone(), b.clone());
            async move { device(&provider, &base, form) }
        });
        let p = provider.clone();
        let api = move |headers: HeaderMap| {
            let provider = p.clone();
            async move {
                let authorization = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).unwrap_or("");
                provider.lock().unwrap().api_saw.push(authorization.to_owned());
                json(StatusCode::OK, r#"{"count": 1}"#.to_owned())
            }
        };
        let router = Router::new()
            .route("/.well-known/openid-configuration", discovery)
            .route("/token", token)
            .route("/device", device)
            .fallback(api);
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        World { provider, base }
    }

    fn discovery_url(&self) -> &'static str {
        Box::leak(format!("{}/.well-known/openid-configuration", self.base).into_boxed_str())
    }

    /// The vault's client as on an API whose only token source is the OpenID Connect scheme
    /// `staff` (no client-credentials flow), its discovery document the test's.
    fn client(&self) -> Result<Client, Error> {
        let staff = OpenIdConnectFlow { discovery_url: self.discovery_url(), ..vault_client::oauth::STAFF };
        Client::builder(&self.base)
            .oauth_flows(&[])
            .openid_flows(Box::leak(Box::new([staff])))
            .client_credentials("staff-app", SECRET)
            .build()
    }

    fn serve_document(&self, status: StatusCode, body: &str) {
        self.provider.lock().unwrap().document = Some((status, body.to_owned()));
    }

    fn token_forms(&self) -> Vec<String> {
        self.provider.lock().unwrap().token_requests.iter().map(|(form, _)| form.clone()).collect()
    }
}

fn json(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

fn discovery(provider: &Mutex<Provider>, base: &str) -> Response {
    let mut provider = provider.lock().unwrap();
    provider.discoveries += 1;
    if let Some((status, body)) = &provider.document {
        return json(*status, body.clone());
    }
    let document = serde_json::json!({
        "issuer": base,
        "authorization_endpoint": format!("{base}/authorize"),
        "token_endpoint": format!("{base}/token"),
        "device_authorization_endpoint": format!("{base}/device"),
        "scopes_supported": ["openid", "vault-admin"],
        "response_types_supported": ["code"],
    });
    json(StatusCode::OK, document.to_string())
}

fn field(form: &str, name: &str) -> String {
    form_urlencoded::parse(form.as_bytes()).find(|(n, _)| n == name).map(|(_, v)| v.into_owned()).unwrap_or_default()
}

/// Tokens numbered by request; the device grant's polls answered as scripted first.
fn token(provider: &Mutex<Provider>, form: String) -> Response {
    let mut provider = provider.lock().unwrap();
    provider.token_requests.push((form.clone(), Instant::now()));
    let number = provider.token_requests.len();
    if field(&form, "grant_type") == "urn:ietf:params:oauth:grant-type:device_code"
        && let Some(error) = provider.device_answers.pop_front()
    {
        return json(StatusCode::BAD_REQUEST, serde_json::json!({ "error": error }).to_string());
    }
    let body = serde_json::json!({
        "access_token": format!("access-{number}"),
        "token_type": "bearer",
        "expires_in": 3600,
        "refresh_token": format!("refresh-{number}"),
    });
    json(StatusCode::OK, body.to_string())
}

fn device(provider: &Mutex<Provider>, base: &str, form: String) -> Response {
    let mut provider = provider.lock().unwrap();
    provider.device_requests.push(form);
    let (expires_in, interval) = provider.device_timing;
    let body = serde_json::json!({
        "device_code": "device-s3cret",
        "user_code": "WDJB-MJHT",
        "verification_uri": format!("{base}/activate"),
        "expires_in": expires_in,
        "interval": interval,
    });
    json(StatusCode::OK, body.to_string())
}

#[tokio::test]
async fn client_credentials_on_an_openid_connect_scheme_discovers_once_then_calls() {
    let world = World::start().await;
    let client = world.client().unwrap();
    for _ in 0..3 {
        assert_eq!(client.secrets().whoami().send().await.unwrap().count, 1);
    }
    assert_eq!(world.provider.lock().unwrap().discoveries, 1);
    // The scopes the operations require of `staff`; the secret in `Authorization: Basic`.
    assert_eq!(world.token_forms(), ["grant_type=client_credentials&scope=vault-admin"]);
    assert_eq!(world.provider.lock().unwrap().api_saw, ["Bearer access-1"; 3]);
}

#[tokio::test]
async fn discovery_failures_are_named_without_a_secret_and_tried_again() {
    let world = World::start().await;
    let url = world.discovery_url();
    let cases = [
        (StatusCode::OK, "<html>sign in</html>", "is not JSON: expected value at line 1 column 1"),
        (
            StatusCode::OK,
            r#"{"token_endpoint": 7}"#,
            "is not an OpenID provider's metadata: invalid type: integer `7`, expected a string",
        ),
        (StatusCode::OK, r#"{"issuer": "https://sso.example.com"}"#, "names no `token_endpoint`"),
        (StatusCode::NOT_FOUND, "{}", "was answered 404 Not Found"),
    ];
    let client = world.client().unwrap();
    for (status, body, problem) in cases {
        world.serve_document(status, body);
        let error = client.secrets().whoami().send().await.unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("no token for `staff`: the OpenID Connect discovery document at {url} {problem}")
        );
        assert!(!format!("{error:?}").contains(SECRET), "{error:?}");
    }
    // Nothing failed is kept: once the document is right, the next call discovers it.
    world.provider.lock().unwrap().document = None;
    client.secrets().whoami().send().await.unwrap();
    assert_eq!(world.provider.lock().unwrap().discoveries, 5);
    assert_eq!(world.provider.lock().unwrap().api_saw, ["Bearer access-1"]);
}

#[tokio::test]
async fn the_authorization_code_and_refresh_grants_use_the_discovered_endpoints() {
    let world = World::start().await;
    let staff = OpenIdConnectFlow { discovery_url: world.discovery_url(), ..vault_client::oauth::STAFF };
    let provider = staff.for_client("staff-app").client_secret(SECRET);
    let grant = provider.authorization_code("http://localhost:8080/back").await.unwrap();
    let authorization = grant.start().unwrap();
    let url = reqwest_url(&authorization.url);
    assert_eq!(url.0, format!("{}/authorize", world.base));
    assert_eq!(url.1.iter().find(|(k, _)| k == "scope").unwrap().1, "openid vault-admin");
    let state = authorization.state.clone();
    let tokens = grant.exchange(authorization, "the-code", &state).await.unwrap();
    let client = Client::builder(&world.base).token_provider(tokens).build().unwrap();
    client.secrets().count().send().await.unwrap();
    let refreshed = provider.refresh_token("refresh-9").await.unwrap();
    let client = Client::builder(&world.base).token_provider(refreshed).build().unwrap();
    client.secrets().count().send().await.unwrap();
    assert_eq!(world.provider.lock().unwrap().api_saw, ["Bearer access-1", "Bearer access-2"]);
    let forms = world.token_forms();
    assert_eq!(
        (field(&forms[0], "grant_type"), field(&forms[0], "code")),
        ("authorization_code".into(), "the-code".into())
    );
    assert_eq!(
        (field(&forms[1], "grant_type"), field(&forms[1], "refresh_token")),
        ("refresh_token".into(), "refresh-9".into())
    );
    // One discovery for every grant of the provider.
    assert_eq!(world.provider.lock().unwrap().discoveries, 1);
}

/// A URL's address without its query, and its query's pairs.
fn reqwest_url(url: &str) -> (String, Vec<(String, String)>) {
    let (address, query) = url.split_once('?').unwrap();
    (address.to_owned(), form_urlencoded::parse(query.as_bytes()).into_owned().collect())
}

/// The spec's device-code flow, at the test's provider.
fn device_flow(world: &World) -> DeviceCodeFlow {
    let at = |path: &str| -> &'static str { Box::leak(format!("{}{path}", world.base).into_boxed_str()) };
    DeviceCodeFlow {
        device_authorization_url: at("/device"),
        token_url: at("/token"),
        ..vault_client::oauth::VAULT_DEVICE_CODE
    }
}

#[tokio::test]
async fn the_device_grant_polls_past_pending_and_slow_down_at_the_intervals_asked() {
    let world = World::start().await;
    world.provider.lock().unwrap().device_answers = ["authorization_pending", "slow_down"].into();
    let grant = device_flow(&world).for_client("vault-cli");
    let started = grant.start().await.unwrap();
    assert_eq!((started.user_code.as_str(), started.interval), ("WDJB-MJHT", Duration::from_secs(1)));
    assert_eq!(started.verification_uri, format!("{}/activate", world.base));
    let printed = format!("{started:?}");
    assert!(printed.ends_with(r#"device_code: "<redacted>" }"#) && !printed.contains("device-s3cret"), "{printed}");
    assert_eq!(world.provider.lock().unwrap().device_requests, ["scope=secrets%3Aread&client_id=vault-cli"]);

    let tokens = grant.poll(started).await.unwrap();
    let polls = world.provider.lock().unwrap().token_requests.clone();
    assert_eq!(polls.len(), 3, "pending, slow_down, then the token");
    for (form, _) in &polls {
        assert_eq!(field(form, "grant_type"), "urn:ietf:params:oauth:grant-type:device_code");
        assert_eq!(field(form, "device_code"), "device-s3cret");
    }
    // RFC 8628 section 3.5: `interval` after `authorization_pending`, 5 s more after `slow_down`.
    assert!(polls[1].1 - polls[0].1 >= Duration::from_secs(1), "{:?}", polls[1].1 - polls[0].1);
    assert!(polls[2].1 - polls[1].1 >= Duration::from_secs(6), "{:?}", polls[2].1 - polls[1].1);

    // The tokens got are the provider's first; a client sends them.
    let client = Client::builder(&world.base).token_provider(tokens).build().unwrap();
    assert_eq!(client.secrets().count().send().await.unwrap().count, 1);
    assert_eq!(world.provider.lock().unwrap().api_saw, ["Bearer access-3"]);
}

#[tokio::test]
async fn the_device_grant_stops_on_expired_token_and_when_its_code_expires() {
    let world = World::start().await;
    let grant = device_flow(&world).for_client("vault-cli");
    // The server says the code expired: one poll, the error as the server named it.
    world.provider.lock().unwrap().device_answers = ["expired_token"].into();
    let started = grant.start().await.unwrap();
    let error = grant.poll(started).await.unwrap_err();
    assert_eq!(error, TokenError::Refused { error: "expired_token".into(), description: None });
    assert_eq!(world.token_forms().len(), 1);

    // The server answers `authorization_pending` past `expires_in`: polling stops by itself,
    // once a second (no busy loop), after 2 s.
    {
        let mut provider = world.provider.lock().unwrap();
        provider.token_requests.clear();
        provider.device_answers = ["authorization_pending"; 10].into();
        provider.device_timing = (2, 1);
    }
    let started = grant.start().await.unwrap();
    let error = grant.poll(started).await.unwrap_err();
    let TokenError::Refused { error, .. } = error else { panic!("{error:?}") };
    assert_eq!(error, "expired_token");
    // At most one poll a second (a busy loop would poll thousands of times); no lower bound,
    // which a starved runner could miss.
    let polls = world.token_forms().len();
    assert!(polls <= 4, "{polls} polls in 2 s at 1 s intervals");
}

#[tokio::test]
async fn the_device_grant_of_an_openid_connect_provider_uses_its_device_endpoint() {
    let world = World::start().await;
    let provider = OpenIdProvider::new(world.discovery_url(), "staff-cli").scopes(["vault-admin"]);
    let grant = provider.device_code().await.unwrap();
    let started = grant.start().await.unwrap();
    let tokens = grant.poll(started).await.unwrap();
    let client = Client::builder(&world.base).token_provider(tokens).build().unwrap();
    client.secrets().count().send().await.unwrap();
    assert_eq!(world.provider.lock().unwrap().api_saw, ["Bearer access-1"]);
    assert_eq!(world.provider.lock().unwrap().device_requests, ["scope=vault-admin&client_id=staff-cli"]);
    // A document naming no device endpoint: a clear error.
    world.serve_document(StatusCode::OK, &format!(r#"{{"token_endpoint": "{}/token"}}"#, world.base));
    let fresh = OpenIdProvider::new(world.discovery_url(), "staff-cli");
    let error = fresh.device_code().await.unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "the OpenID Connect discovery document at {} names no `device_authorization_endpoint`",
            world.discovery_url()
        )
    );
}

/// Issue 49's fixture holds, in one spec, flows of both kinds with scopes per operation and
/// two servers, one with a variable: the client offers each, its variable typed.
#[test]
fn the_vault_offers_both_servers_its_region_typed() {
    use vault_client::servers::{production, regional};
    assert_eq!(vault_client::DEFAULT_BASE_URL, production::URL);
    assert_eq!(regional::URL, "https://eu.vault.example.com");
    assert_eq!(regional::url(regional::Region::Us), "https://us.vault.example.com");
    assert_eq!(regional::Region::ALL, [regional::Region::Eu, regional::Region::Us]);
    let client = Client::builder(regional::url(regional::Region::Us)).client_credentials("id", "secret").build();
    assert_eq!(client.unwrap().settings().base_url, "https://us.vault.example.com");
}

/// An API whose only scheme is OpenID Connect: its client's builder knows the provider, so
/// `Client::builder(url).client_credentials(id, secret)` runs it (the vault's client above,
/// its client-credentials flows set aside, is that builder compiled and on the wire).
#[test]
fn an_api_whose_only_scheme_is_openid_connect_gets_its_provider_in_the_builder() {
    let dir = tempfile::tempdir().unwrap();
    let (spec, out) = (dir.path().join("spec"), dir.path().join("generated"));
    std::fs::create_dir_all(&spec).unwrap();
    let text = r#"
api:
  name: sso
  title: SSO API
  version: "1"
  description: One OpenID Connect scheme.
  auth:
    sso: { type: openid-connect, url: "https://sso.example.com/.well-known/openid-configuration" }
tags:
  me: { title: Me, description: The caller. }
tag: me
types:
  Me:
    description: The caller.
    fields:
      name: { type: string, description: The name. }
operations:
  me:
    method: GET
    path: /me
    summary: Who the caller is.
    auth: { sso: [profile] }
    response: { status: 200, type: Me }
"#;
    std::fs::write(spec.join("api.yaml"), text).unwrap();
    let runtime = std::fs::canonicalize("../runtime").unwrap();
    apigen::Generator::new()
        .spec(&spec)
        .out(&out)
        .runtime_path(runtime)
        .cache(apigen::CacheDir::none())
        .generate()
        .unwrap();
    // Read with its line breaks and indentation as single spaces.
    let root = std::fs::read_to_string(out.join("client/src/root.rs")).unwrap();
    let root = root.split_whitespace().collect::<Vec<_>>().join(" ");
    let builder = "ClientBuilder::new(base_url, USER_AGENT, SCHEMES, &ERRORS) .openid_flows(&[oauth::SSO])";
    assert!(root.contains(builder), "{root}");
    assert!(!root.contains(".oauth_flows("), "{root}");
    assert!(root.contains("discovery_url: \"https://sso.example.com/.well-known/openid-configuration\""), "{root}");
    assert!(root.contains("scopes: &[\"profile\"]"), "{root}");
    assert!(root.contains("`.client_credentials(client_id, client_secret)` (feature `oauth2`)"), "{root}");
    let manifest = std::fs::read_to_string(out.join("client/Cargo.toml")).unwrap();
    assert!(manifest.contains("oauth2 = [\"apigen-runtime/oauth2\"]"), "{manifest}");
}
