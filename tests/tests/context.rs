//! What a handler can read besides its request: the principal, the headers, the operation,
//! the method and matched route, what tower middleware inserted, and the caller's address.

use apigen_runtime::server::axum::Extension;
use docs_api_server::types::{MergeRules, MergeRulesInherit, Space, SpaceVisibility};
use docs_api_server::{ApiError, Authenticator, Context, GetSpaceRequest, RouterBuilder};
use std::sync::Arc;

/// What the service's own middleware puts in every request.
#[derive(Debug, Clone)]
struct RequestId(&'static str);

struct Probe;

impl Authenticator for Probe {
    type Principal = String;
    async fn authenticate(&self, credential: docs_api_server::Credential<'_>) -> Result<String, ApiError> {
        Ok(format!("user of {}", credential.token().unwrap_or_default()))
    }
}

async fn get_space(_: Arc<Probe>, context: Context<String>, request: GetSpaceRequest) -> Result<Space, ApiError> {
    let request_id = context.extensions.get::<RequestId>().map_or("none", |id| id.0);
    let remote = context.remote_addr().map_or("unknown".to_owned(), |a| a.ip().to_string());
    let title = format!(
        "{} {} {} {} {} {}",
        context.operation, context.method, context.path, request_id, remote, context.principal
    );
    let at = "2024-01-15T09:30:00Z".parse().unwrap();
    Ok(Space {
        id: request.space_id,
        title,
        emoji: "📘".into(),
        visibility: SpaceVisibility::Public,
        created_at: at,
        updated_at: at,
        deleted_at: None,
        edit_mode: None,
        merge_rules: MergeRules::from(MergeRulesInherit {}),
        urls: None,
        organization: "org_1".into(),
        parent: None,
        language: None,
        git_sync: None,
        visitor_auth: None,
        revision: "rev_1".into(),
        default_level: None,
        comments: 0.0,
        change_requests: 0.0,
        change_requests_open: 0.0,
        change_requests_draft: 0.0,
        permissions: None,
    })
}

#[tokio::test]
async fn a_handler_reads_the_route_the_middleware_values_and_the_remote_address() {
    // The generated router is a plain axum::Router: the service's own layers wrap it.
    let app = RouterBuilder::new(Probe).get_space(get_space).build_partial().layer(Extension(RequestId("req-42")));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(apigen_runtime::listener::serve(listener, app, Default::default()));
    let client = docs_api_client::Client::builder(format!("http://{address}")).bearer("tok").build().unwrap();
    let space = client.spaces().get("space_1").send().await.unwrap();
    assert_eq!(space.title, "getSpace GET /v1/spaces/{spaceId} req-42 127.0.0.1 user of tok");
}
