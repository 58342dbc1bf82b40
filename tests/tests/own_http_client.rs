//! A caller's own reqwest client, built before any generated client: alone in its test binary
//! (its own process), so no other test has installed a TLS crypto provider first. A bare
//! `reqwest::Client::new()` panics here ("no process-level CryptoProvider"); the builder the
//! client crate exports does not.

use docs_api_client::{Client, RetryPolicy};
use docs_api_server::mock::{MockCall, MockService};
use serde_json::json;

#[tokio::test]
async fn a_user_built_reqwest_client_is_used_without_a_crypto_provider_panic() {
    let http = docs_api_client::http_client_builder().user_agent("mine/1.0").build().unwrap();
    let service = MockService::new(|call: MockCall| {
        assert_eq!(call.operation, "getOrganization");
        Ok(json!({"object": "organization", "id": "org_1", "title": "Acme"}))
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(apigen_runtime::listener::serve(listener, docs_api_server::router(service), Default::default()));
    let client = Client::builder(format!("http://{address}"))
        .bearer("token-1")
        .http_client(http)
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let organization = client.organizations().get("org_1").send().await.unwrap();
    assert_eq!(organization.title.as_deref(), Some("Acme"));
}
