//! Serves `GET /v1/spaces/{spaceId}` on loopback two ways, for `bench/server-rps.sh`:
//!
//! - `generated`: the generated router, with a service implementing `getSpace`;
//! - `handwritten`: a plain axum route doing the same work by hand: check the bearer token,
//!   read the path parameter, build the same `Space`, answer it as JSON.
//!
//! Usage: `serve generated|handwritten PORT`.

use apigen_runtime::server::axum::extract::Path;
use apigen_runtime::server::axum::http::{HeaderMap, StatusCode, header};
use apigen_runtime::server::axum::response::{IntoResponse, Response};
use apigen_runtime::server::axum::{self, Router, routing::get};
use docs_api_server::{ApiError, Authenticator, Context, SpacesApi, router};
use docs_api_types::{MergeRules, MergeRulesInherit, Space, SpaceVisibility};

fn space(id: String) -> Space {
    let at = "2024-01-15T09:30:00Z".parse().expect("a date-time");
    Space {
        id,
        title: "API reference".into(),
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
        comments: 2,
        change_requests: 12,
        change_requests_open: 3,
        change_requests_draft: 1,
        permissions: None,
    }
}

/// The generated router's service: `getSpace` only.
struct Bench;

impl Authenticator for Bench {
    type Principal = ();
    async fn authenticate(&self, token: &str) -> Result<(), ApiError> {
        if token.is_empty() { Err(ApiError::unauthorized("no token")) } else { Ok(()) }
    }
}

impl SpacesApi for Bench {
    async fn get_space(&self, _: Context<()>, request: docs_api_server::GetSpaceRequest) -> Result<Space, ApiError> {
        Ok(space(request.space_id))
    }
}

impl docs_api_server::OrganizationsApi for Bench {}
impl docs_api_server::MembersApi for Bench {}
impl docs_api_server::TeamsApi for Bench {}
impl docs_api_server::SsoApi for Bench {}
impl docs_api_server::CollectionsApi for Bench {}
impl docs_api_server::SitesApi for Bench {}
impl docs_api_server::SiteStructureApi for Bench {}
impl docs_api_server::ContentApi for Bench {}
impl docs_api_server::ChangeRequestsApi for Bench {}
impl docs_api_server::CommentsApi for Bench {}
impl docs_api_server::OpenapiSpecsApi for Bench {}
impl docs_api_server::IntegrationsApi for Bench {}
impl docs_api_server::TranslationsApi for Bench {}
impl docs_api_server::ConversationsApi for Bench {}
impl docs_api_server::GitApi for Bench {}

/// The same work, written by hand.
async fn get_space(headers: HeaderMap, Path(space_id): Path<String>) -> Response {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .filter(|token| !token.is_empty());
    if bearer.is_none() {
        return (StatusCode::UNAUTHORIZED, "missing token").into_response();
    }
    let body = serde_json::to_vec(&space(space_id)).expect("serializes");
    (StatusCode::OK, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(kind), Some(port)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: serve generated|handwritten PORT");
        std::process::exit(2);
    };
    let app: Router = match kind.as_str() {
        "generated" => router(Bench),
        "handwritten" => Router::new().route("/v1/spaces/{spaceId}", get(get_space)),
        other => {
            eprintln!("unknown server {other:?}");
            std::process::exit(2);
        }
    };
    let listener =
        tokio::net::TcpListener::bind(("127.0.0.1", port.parse::<u16>().expect("a port"))).await.expect("bind");
    axum::serve(listener, app).await.expect("serve");
}
