//! Scopes on the wire, through the oauth fixture's generated server: an operation requiring
//! scopes answers 403 with RFC 6750's `insufficient_scope` challenge and the API's error body
//! naming what is missing, before its handler runs; the scopes granted let it through; any
//! one alternative requirement suffices; the handler gets the principal.

use apigen_runtime::server::axum::Router;
use apigen_runtime::server::axum::body::{Body, to_bytes};
use apigen_runtime::server::axum::http::{HeaderName, HeaderValue, Request, StatusCode, header};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tower::ServiceExt;
use vault_server::types::{Count, Secret};
use vault_server::{
    ApiError, Authenticator, Context, Credential, DeleteSecretRequest, HealthRequest, ListSecretsRequest,
    PutSecretRequest, RotateSecretRequest, RouterBuilder,
};

/// Knows six tokens, each of a user granted some scopes (`TOKENS`).
struct Vault {
    handled: Arc<AtomicUsize>,
}

#[derive(Debug, Clone, PartialEq)]
struct Principal {
    user: String,
    scheme: &'static str,
    scopes: Vec<String>,
}

impl Authenticator for Vault {
    type Principal = Principal;

    async fn authenticate(&self, credential: Credential<'_>) -> Result<Principal, ApiError> {
        let token = credential.token().unwrap_or_default();
        let Some((_, user, scopes)) = TOKENS.iter().find(|(known, _, _)| *known == token) else {
            return Err(ApiError::unauthorized("unknown token"));
        };
        let scopes = scopes.iter().map(|scope| (*scope).to_owned()).collect();
        Ok(Principal { user: (*user).to_owned(), scheme: credential.scheme, scopes })
    }

    fn grants(&self, principal: &Principal, scope: &str) -> bool {
        principal.scopes.iter().any(|granted| granted == scope)
    }
}

/// Token, user, scopes granted.
const TOKENS: &[(&str, &str, &[&str])] = &[
    ("reader", "ada", &["secrets:read"]),
    ("writer", "ada", &["secrets:write"]),
    ("rotator", "ada", &["secrets:write", "secrets:read"]),
    ("nothing", "ada", &[]),
    ("admin", "ada", &["admin"]),
    ("staff", "bob", &["vault-admin"]),
];

/// An authenticator that never says which scopes it grants: the default grants none.
struct Silent;

impl Authenticator for Silent {
    type Principal = String;

    async fn authenticate(&self, _: Credential<'_>) -> Result<String, ApiError> {
        Ok("anyone".to_owned())
    }
}

/// The generated router with a handler for each operation the tests call; `handled` counts
/// the handlers that ran.
fn app() -> (Router, Arc<AtomicUsize>) {
    let handled = Arc::new(AtomicUsize::new(0));
    let vault = Vault { handled: Arc::clone(&handled) };
    let builder = RouterBuilder::new(vault)
        .list_secrets(|service: Arc<Vault>, context: Context<Principal>, _: ListSecretsRequest| async move {
            service.handled.fetch_add(1, Ordering::SeqCst);
            Ok(vec![Secret { name: context.principal.user.clone(), value: "hunter2".into() }])
        })
        .put_secret(|service: Arc<Vault>, _: Context<Principal>, request: PutSecretRequest| async move {
            service.handled.fetch_add(1, Ordering::SeqCst);
            Ok(Secret { name: request.name, value: request.body.value })
        })
        .rotate_secret(|service: Arc<Vault>, _: Context<Principal>, request: RotateSecretRequest| async move {
            service.handled.fetch_add(1, Ordering::SeqCst);
            Ok(Secret { name: request.name, value: "new".into() })
        })
        .delete_secret(|service: Arc<Vault>, context: Context<Principal>, _: DeleteSecretRequest| async move {
            service.handled.fetch_add(1, Ordering::SeqCst);
            // Who passed, and through which alternative's scheme.
            let by = format!("{}@{}", context.principal.user, context.principal.scheme);
            context
                .insert_response_header(HeaderName::from_static("x-deleted-by"), HeaderValue::from_str(&by).unwrap());
            Ok(())
        })
        .health(|_: Arc<Vault>, _: Context<vault_server::Anonymous>, _: HealthRequest| async {
            Ok(Count { count: 1 })
        });
    (builder.build_partial(), handled)
}

/// The status, the `WWW-Authenticate` header and the body of a call with `token`.
async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    token: &str,
) -> (StatusCode, Option<String>, String, Option<String>) {
    let mut request =
        Request::builder().method(method).uri(uri).header(header::AUTHORIZATION, format!("Bearer {token}"));
    let body = if method == "PUT" {
        request = request.header(header::CONTENT_TYPE, "application/json");
        Body::from(r#"{"value":"s3cret"}"#)
    } else {
        Body::empty()
    };
    let response = app.clone().oneshot(request.body(body).unwrap()).await.unwrap();
    let (parts, body) = response.into_parts();
    let text = |name: &str| parts.headers.get(name).map(|v| v.to_str().unwrap().to_owned());
    let bytes = to_bytes(body, usize::MAX).await.unwrap();
    (parts.status, text("www-authenticate"), String::from_utf8(bytes.to_vec()).unwrap(), text("x-deleted-by"))
}

#[tokio::test]
async fn a_missing_scope_is_refused_with_403_the_rfc_6750_challenge_and_the_error_body() {
    let (app, handled) = app();
    let (status, challenge, body, _) = call(&app, "GET", "/v1/secrets", "writer").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(challenge.as_deref(), Some(r#"Bearer error="insufficient_scope", scope="secrets:read""#));
    assert_eq!(
        body,
        r#"{"error":{"code":403,"message":"the credentials are not granted the scope this operation requires: `secrets:read`"}}"#
    );
    // Two required, one granted: the challenge names both (what a new token must carry), the
    // body the one missing.
    let (status, challenge, body, _) = call(&app, "POST", "/v1/secrets/db/rotate", "writer").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(challenge.as_deref(), Some(r#"Bearer error="insufficient_scope", scope="secrets:read secrets:write""#));
    assert_eq!(
        body,
        r#"{"error":{"code":403,"message":"the credentials are not granted the scope this operation requires: `secrets:read`"}}"#
    );
    let (status, _, body, _) = call(&app, "POST", "/v1/secrets/db/rotate", "nothing").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(body.contains("the scopes this operation requires: `secrets:read`, `secrets:write`"), "{body}");
    assert_eq!(handled.load(Ordering::SeqCst), 0, "no handler runs for a refused request");
}

#[tokio::test]
async fn the_scopes_granted_let_the_call_reach_its_handler_with_the_principal() {
    let (app, handled) = app();
    let (status, challenge, body, _) = call(&app, "GET", "/v1/secrets", "reader").await;
    assert_eq!((status, challenge), (StatusCode::OK, None));
    assert_eq!(body, r#"[{"name":"ada","value":"hunter2"}]"#);
    let (status, _, body, _) = call(&app, "PUT", "/v1/secrets/db", "writer").await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, r#"{"name":"db","value":"s3cret"}"#));
    let (status, _, _, _) = call(&app, "POST", "/v1/secrets/db/rotate", "rotator").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(handled.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn any_one_alternative_requirement_suffices() {
    let (app, handled) = app();
    // `deleteSecret`: `vault` with `admin`, or `staff` with `vault-admin`.
    let (status, _, _, by) = call(&app, "DELETE", "/v1/secrets/db", "admin").await;
    assert_eq!((status, by.as_deref()), (StatusCode::NO_CONTENT, Some("ada@vault")));
    let (status, _, _, by) = call(&app, "DELETE", "/v1/secrets/db", "staff").await;
    assert_eq!((status, by.as_deref()), (StatusCode::NO_CONTENT, Some("bob@staff")));
    // Neither: refused for the first alternative carried.
    let (status, challenge, body, _) = call(&app, "DELETE", "/v1/secrets/db", "writer").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(challenge.as_deref(), Some(r#"Bearer error="insufficient_scope", scope="admin""#));
    assert!(body.contains("requires: `admin`"), "{body}");
    assert_eq!(handled.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn without_credentials_the_answer_is_still_401_and_scopes_never_touch_public_operations() {
    let (app, _) = app();
    let request = Request::builder().uri("/v1/secrets").body(Body::empty()).unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(response.headers()[header::WWW_AUTHENTICATE], "Bearer");
    let (status, _, body, _) = call(&app, "GET", "/v1/health", "nobody").await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, r#"{"count":1}"#));
    // An operation requiring no scope (`countSecrets`: `vault` alone) passes any token:
    // without a handler, 501 after authentication.
    let (status, _, _, _) = call(&app, "GET", "/v1/secrets/count", "nothing").await;
    assert_eq!(status, StatusCode::NOT_IMPLEMENTED);
}

#[tokio::test]
async fn an_authenticator_that_grants_nothing_refuses_every_operation_requiring_a_scope() {
    let app = RouterBuilder::new(Silent).build_partial();
    let (status, challenge, _, _) = call(&app, "GET", "/v1/secrets", "any").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(challenge.as_deref(), Some(r#"Bearer error="insufficient_scope", scope="secrets:read""#));
    let (status, _, _, _) = call(&app, "GET", "/v1/secrets/count", "any").await;
    assert_eq!(status, StatusCode::NOT_IMPLEMENTED);
}

#[tokio::test]
async fn the_generated_client_sends_an_oauth2_token_as_a_bearer_token_and_reads_the_403() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(apigen_runtime::listener::serve(listener, app().0, Default::default()));
    let client = |token: &str| vault_client::Client::builder(&base).bearer(token).build().unwrap();
    let secrets = client("reader").secrets().list().send().await.unwrap();
    assert_eq!(secrets, [Secret { name: "ada".into(), value: "hunter2".into() }]);
    let error = client("writer").secrets().list().send().await.unwrap_err();
    let vault_client::Error::Api { status, message, .. } = &error else { panic!("{error:?}") };
    assert_eq!(
        (*status, message.as_str()),
        (403, "the credentials are not granted the scope this operation requires: `secrets:read`")
    );
}

#[tokio::test]
async fn the_generated_client_gets_its_own_token_from_the_specs_client_credentials_flow() {
    use apigen_runtime::server::axum::routing::post;
    use std::sync::Mutex;
    // The token endpoint: issues `rotator` (read and write) and records each request's form.
    let forms = Arc::new(Mutex::new(Vec::<String>::new()));
    let seen = Arc::clone(&forms);
    let issue = post(move |form: String| async move {
        seen.lock().unwrap().push(form);
        (
            [(header::CONTENT_TYPE, "application/json")],
            r#"{"access_token": "rotator", "token_type": "bearer", "expires_in": 3600}"#,
        )
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let router = app().0.route("/oauth/token", issue);
    tokio::spawn(apigen_runtime::listener::serve(listener, router, Default::default()));

    // The spec's flow, its token endpoint moved to the test's.
    let token_url: &'static str = Box::leak(format!("{base}/oauth/token").into_boxed_str());
    let flow = apigen_runtime::auth::ClientCredentialsFlow { token_url, ..vault_client::oauth::VAULT };
    assert_eq!(vault_client::oauth::VAULT.scopes, ["secrets:read", "secrets:write", "admin"]);
    let client =
        vault_client::Client::builder(&base).client_credentials_of(&flow, "vault-app", "s3cret").build().unwrap();
    let secrets = client.secrets().list().send().await.unwrap();
    assert_eq!(secrets, [Secret { name: "ada".into(), value: "hunter2".into() }]);
    client.secrets().list().send().await.unwrap();
    // One token for both calls, asked for with every scope the operations require.
    assert_eq!(*forms.lock().unwrap(), ["grant_type=client_credentials&scope=secrets%3Aread+secrets%3Awrite+admin"]);
}

#[tokio::test]
async fn a_mock_granting_scopes_to_one_token_refuses_another_with_403() {
    // What the conformance judge's server does (bench/conformance/serve.rs): the sample token
    // is granted every scope, any other token none.
    let service = vault_server::mock::samples().with_grants(|principal, _| principal == "sample-token");
    let app = vault_server::router(service);
    let (status, _, body, _) = call(&app, "GET", "/v1/secrets", "sample-token").await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, r#"[{"name":"db-password","value":"hunter2"}]"#));
    let (status, challenge, body, _) = call(&app, "GET", "/v1/secrets", "scopeless").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(challenge.as_deref(), Some(r#"Bearer error="insufficient_scope", scope="secrets:read""#));
    assert_eq!(
        body,
        r#"{"error":{"code":403,"message":"the credentials are not granted the scope this operation requires: `secrets:read`"}}"#
    );
    // An operation requiring no scope answers any token; by default a mock grants every scope.
    let (status, _, _, _) = call(&app, "GET", "/v1/secrets/count", "scopeless").await;
    assert_eq!(status, StatusCode::OK);
    let (status, _, _, _) =
        call(&vault_server::router(vault_server::mock::samples()), "GET", "/v1/secrets", "scopeless").await;
    assert_eq!(status, StatusCode::OK);
}
