//! The generated `Client::builder(url)`, its credentials chosen after (issue 49): `.bearer(..)`
//! and `.api_key(..)` reach the API's first scheme of their kind on the wire; a setter naming
//! no scheme fails `build()` on an API without one; the builder knows the spec's
//! client-credentials flows, and `.client_credentials(id, secret)` runs the first of them.

use apigen_runtime::auth::ClientCredentialsFlow;
use apigen_runtime::client::Error;
use apigen_runtime::server::axum::http::{HeaderMap, header};
use apigen_runtime::server::axum::{Router, routing::get, routing::post};
use std::sync::{Arc, Mutex};

type Seen = Arc<Mutex<Vec<(Option<String>, Option<String>)>>>;

/// An API answering every request `[]`, recording its `Authorization` and `X-Forge-Key`; a
/// token endpoint at `/oauth/token` issuing `issued`, recording the forms.
async fn api() -> (String, Seen, Arc<Mutex<Vec<String>>>) {
    let seen: Seen = Arc::default();
    let forms: Arc<Mutex<Vec<String>>> = Arc::default();
    let (log, form_log) = (Arc::clone(&seen), Arc::clone(&forms));
    let header = |headers: &HeaderMap, name: &str| headers.get(name).map(|v| v.to_str().unwrap().to_owned());
    let router = Router::new()
        .route(
            "/oauth/token",
            post(move |form: String| async move {
                form_log.lock().unwrap().push(form);
                (
                    [(header::CONTENT_TYPE, "application/json")],
                    r#"{"access_token": "issued", "token_type": "bearer", "expires_in": 3600}"#,
                )
            }),
        )
        .fallback(get(move |headers: HeaderMap| async move {
            log.lock().unwrap().push((header(&headers, "authorization"), header(&headers, "x-forge-key")));
            ([(header::CONTENT_TYPE, "application/json")], "[]")
        }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(apigen_runtime::listener::serve(listener, router, Default::default()));
    (base, seen, forms)
}

#[tokio::test]
async fn bearer_and_api_key_reach_the_first_scheme_of_their_kind() {
    let (base, seen, _) = api().await;
    // `listRepos` accepts `token` (bearer) or `apiKey` (header `X-Forge-Key`).
    let bearer = forge_client::Client::builder(&base).bearer("t-1").build().unwrap();
    bearer.repos().list().send().await.unwrap();
    let keyed = forge_client::Client::builder(&base).api_key("k-1").build().unwrap();
    keyed.repos().list().send().await.unwrap();
    assert_eq!(*seen.lock().unwrap(), [(Some("Bearer t-1".into()), None), (None, Some("k-1".into()))]);
}

#[tokio::test]
async fn a_setter_naming_no_scheme_fails_build_on_an_api_without_one() {
    let error = docs_api_client::Client::builder("http://127.0.0.1:9").api_key("k").build().unwrap_err();
    assert_eq!(error.to_string(), "`.api_key(..)`: the API declares no API-key scheme (it has: `bearerAuth`)");
    let error = forge_client::Client::builder("http://127.0.0.1:9").client_credentials("id", "secret").build();
    let Err(Error::Config(message)) = error else { panic!("{error:?}") };
    assert_eq!(
        message,
        "`.client_credentials(..)`: the API declares no OAuth 2.0 client-credentials flow and no OpenID Connect scheme"
    );
}

#[test]
fn the_builder_knows_the_specs_client_credentials_flow() {
    let builder = vault_client::Client::builder("https://vault.example.com");
    let printed = format!("{builder:?}");
    let flow = format!("flows: [{:?}]", vault_client::oauth::VAULT);
    assert!(printed.contains(&flow), "{printed}");
    assert!(flow.contains(r#"token_url: "https://auth.vault.example.com/oauth/token""#), "{flow}");
}

#[tokio::test]
async fn client_credentials_runs_the_first_flow_with_the_operations_scopes() {
    let (base, seen, forms) = api().await;
    // The spec's flow, its token endpoint moved to the test's: the builder's first flow.
    let token_url: &'static str = Box::leak(format!("{base}/oauth/token").into_boxed_str());
    let flows: &'static [ClientCredentialsFlow] =
        Box::leak(Box::new([ClientCredentialsFlow { token_url, ..vault_client::oauth::VAULT }]));
    let client = vault_client::Client::builder(&base)
        .oauth_flows(flows)
        .client_credentials("vault-app", "s3cret")
        .build()
        .unwrap();
    client.secrets().list().send().await.unwrap();
    client.secrets().list().send().await.unwrap();
    assert_eq!(*forms.lock().unwrap(), ["grant_type=client_credentials&scope=secrets%3Aread+secrets%3Awrite+admin"]);
    assert_eq!(*seen.lock().unwrap(), [(Some("Bearer issued".into()), None), (Some("Bearer issued".into()), None)]);
}
