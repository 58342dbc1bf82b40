//! Shared pieces of the benchmarks: a service answering `getSpace` and
//! `createSpaceChangeRequest`, for the generated router, and the same two routes written by
//! hand with axum ([`handwritten`]).

use apigen_runtime::server::Credential;
use docs_api_server::{ApiError, Authenticator, Context, RouterBuilder};
use docs_api_types::{ChangeRequest, MergeRules, MergeRulesInherit, Space, SpaceVisibility};
use std::sync::Arc;

/// The space every benchmark answers.
pub fn space(id: String) -> Space {
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
        comments: 2.0,
        change_requests: 12.0,
        change_requests_open: 3.0,
        change_requests_draft: 1.0,
        permissions: None,
    }
}

/// The change request every benchmark creates: the subject and space it was given, and ids.
pub fn change_request(space: String, subject: Option<String>) -> ChangeRequest {
    ChangeRequest {
        id: "cr_1".into(),
        number: Some(1),
        status: None,
        subject,
        description: None,
        created_by: None,
        created_at: None,
        updated_at: None,
        space: Some(space),
        revision: Some("rev_1".into()),
        revision_initial: None,
        revision_merged_ancestor: None,
        revision_merged: None,
        comments: Some(0),
        outdated: None,
        conversations_issues_cluster: None,
        urls: None,
    }
}

/// The generated router's service: `getSpace` and `createSpaceChangeRequest`.
pub struct Bench;

impl Authenticator for Bench {
    type Principal = ();
    async fn authenticate(&self, credential: Credential<'_>) -> Result<(), ApiError> {
        if credential.token().is_none_or(str::is_empty) { Err(ApiError::unauthorized("no token")) } else { Ok(()) }
    }
}

async fn get_space(
    _: Arc<Bench>,
    _: Context<()>,
    request: docs_api_server::GetSpaceRequest,
) -> Result<Space, ApiError> {
    Ok(space(request.space_id))
}

async fn create_change_request(
    _: Arc<Bench>,
    _: Context<()>,
    request: docs_api_server::CreateSpaceChangeRequestRequest,
) -> Result<ChangeRequest, ApiError> {
    Ok(change_request(request.space_id, request.body.subject))
}

/// The generated router serving `getSpace` and `createSpaceChangeRequest` with [`Bench`];
/// other operations answer 501.
pub fn app() -> apigen_runtime::server::axum::Router {
    RouterBuilder::new(Bench).get_space(get_space).create_space_change_request(create_change_request).build_partial()
}

/// `getSpace` and `createSpaceChangeRequest` as plain axum routes doing the generated router's
/// work by hand: check the bearer token, read the path parameter (and for the POST, check the
/// content type and decode the JSON body, refusing unknown fields), build the same value,
/// answer it as JSON (201 for the POST).
pub mod handwritten {
    use super::{change_request, space};
    use apigen_runtime::server::axum::Router;
    use apigen_runtime::server::axum::body::Bytes;
    use apigen_runtime::server::axum::extract::Path;
    use apigen_runtime::server::axum::http::{HeaderMap, StatusCode, header};
    use apigen_runtime::server::axum::response::{IntoResponse, Response};
    use apigen_runtime::server::axum::routing::{get, post};

    /// The two routes.
    pub fn app() -> Router {
        Router::new()
            .route("/v1/spaces/{spaceId}", get(get_space))
            .route("/v1/spaces/{spaceId}/change-requests", post(create_change_request))
    }

    /// True when the request carries a bearer token.
    fn authorized(headers: &HeaderMap) -> bool {
        headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .is_some_and(|token| !token.is_empty())
    }

    async fn get_space(headers: HeaderMap, Path(space_id): Path<String>) -> Response {
        if !authorized(&headers) {
            return (StatusCode::UNAUTHORIZED, "missing token").into_response();
        }
        let body = serde_json::to_vec(&space(space_id)).expect("serializes");
        (StatusCode::OK, [(header::CONTENT_TYPE, "application/json")], body).into_response()
    }

    /// The body of `createSpaceChangeRequest`, decoded by serde as a hand-written service would.
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct NewChangeRequest {
        subject: Option<String>,
        #[allow(dead_code)] // Decoded and checked like the generated router does; not answered.
        agent_task_id: Option<String>,
    }

    async fn create_change_request(headers: HeaderMap, Path(space_id): Path<String>, body: Bytes) -> Response {
        if !authorized(&headers) {
            return (StatusCode::UNAUTHORIZED, "missing token").into_response();
        }
        let json = headers.get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
        if !json {
            return (StatusCode::UNSUPPORTED_MEDIA_TYPE, "send JSON").into_response();
        }
        let body: NewChangeRequest = match serde_json::from_slice(&body) {
            Ok(body) => body,
            Err(error) => return (StatusCode::BAD_REQUEST, error.to_string()).into_response(),
        };
        let body = serde_json::to_vec(&change_request(space_id, body.subject)).expect("serializes");
        (StatusCode::CREATED, [(header::CONTENT_TYPE, "application/json")], body).into_response()
    }
}
