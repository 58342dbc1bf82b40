//! The generated axum server: every operation reaches its handler with what was sent, and
//! every rejection answers the exact status and error body.

use apigen_runtime::server::axum::body::{Body, to_bytes};
use apigen_runtime::server::axum::http::{Request, StatusCode, header};
use apigen_runtime::server::axum::{self, Router};
use apigen_tests::calls::sample_calls;
use docs_api_server::mock::{MockCall, MockService};
use docs_api_server::{ApiError, Authenticator, ServerConfig, router, router_with};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::{Arc, Mutex};
use tower::ServiceExt;

/// A mock that records every call and answers `answers[operation]`, or `{}`.
fn recording(answers: Arc<Mutex<Vec<(String, Value)>>>) -> (MockService, Arc<Mutex<Vec<MockCall>>>) {
    let calls = Arc::new(Mutex::new(Vec::new()));
    let recorded = Arc::clone(&calls);
    let service = MockService::new(move |call: MockCall| {
        let answer = answers.lock().unwrap().iter().find(|(op, _)| op == call.operation).map(|(_, v)| v.clone());
        recorded.lock().unwrap().push(call);
        Ok(answer.unwrap_or(json!({})))
    });
    (service, calls)
}

async fn send(app: &Router, request: Request<Body>) -> (StatusCode, header::HeaderMap, Vec<u8>) {
    let response = app.clone().oneshot(request).await.unwrap();
    let (parts, body) = response.into_parts();
    (parts.status, parts.headers, to_bytes(body, usize::MAX).await.unwrap().to_vec())
}

fn request(method: &str, uri: &str, body: Option<&str>) -> Request<Body> {
    let builder = Request::builder().method(method).uri(uri).header(header::AUTHORIZATION, "Bearer token-1");
    match body {
        Some(body) => {
            builder.header(header::CONTENT_TYPE, "application/json").body(Body::from(body.to_owned())).unwrap()
        }
        None => builder.body(Body::empty()).unwrap(),
    }
}

fn json_body(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(bytes)))
}

#[tokio::test]
async fn every_operation_reaches_its_handler_with_what_was_sent() {
    let (api, _) = apigen::load(Path::new("../spec")).expect("the spec loads");
    let calls = sample_calls(&api);
    let answers = Arc::new(Mutex::new(
        calls.iter().filter_map(|c| c.response.clone().map(|r| (c.op.name.clone(), r))).collect::<Vec<_>>(),
    ));
    let (service, recorded) = recording(answers);
    let app = router(service);
    let mut failures = Vec::new();
    let mut exercised = BTreeSet::new();
    for call in &calls {
        let body = call.body.as_ref().map(Value::to_string);
        let (status, _, bytes) = send(&app, request(call.op.method.as_str(), &call.uri, body.as_deref())).await;
        let name = &call.op.name;
        if status.as_u16() != call.op.response.status {
            failures.push(format!(
                "{name}: status {status}, expected {}: {}",
                call.op.response.status,
                String::from_utf8_lossy(&bytes)
            ));
            continue;
        }
        let Some(received) = recorded.lock().unwrap().pop() else {
            failures.push(format!("{name}: the handler was not called"));
            continue;
        };
        exercised.insert(received.operation.to_owned());
        if received.operation != name || received.principal.as_deref() != Some("token-1") {
            failures.push(format!("{name}: reached {} as {:?}", received.operation, received.principal));
        }
        if !apigen_runtime::testing::json_eq(&received.request, &call.expected_request) {
            failures.push(format!("{name}: received {}\n  expected {}", received.request, call.expected_request));
        }
        match &call.response {
            None if !bytes.is_empty() => failures.push(format!("{name}: {status} must have no body")),
            Some(expected) if !apigen_runtime::testing::json_eq(&json_body(&bytes), expected) => {
                failures.push(format!("{name}: answered {}\n  expected {expected}", String::from_utf8_lossy(&bytes)))
            }
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n"));
    let in_spec: BTreeSet<String> = api.operations.iter().map(|op| op.name.clone()).collect();
    assert_eq!(exercised, in_spec, "the operations exercised are exactly those of the spec");
    let in_server: BTreeSet<String> = docs_api_server::OPERATIONS.iter().map(|op| op.name.to_owned()).collect();
    assert_eq!(in_server, in_spec);
    assert_eq!(in_spec.len(), 145);
}

fn app_answering(operation: &'static str, answer: Value) -> (Router, Arc<Mutex<Vec<MockCall>>>) {
    let (service, recorded) = recording(Arc::new(Mutex::new(vec![(operation.to_owned(), answer)])));
    (router(service), recorded)
}

fn error(code: u16, message: &str) -> Value {
    json!({"error": {"code": code, "message": message}})
}

#[tokio::test]
async fn defaults_apply_and_query_values_are_typed() {
    let (app, recorded) = app_answering("listOrganizationCollections", json!({"count": 0, "items": []}));
    let (status, _, _) = send(&app, request("GET", "/v1/orgs/org_1/collections", None)).await;
    assert_eq!(status, StatusCode::OK);
    let call = recorded.lock().unwrap().pop().unwrap();
    assert_eq!(call.request, json!({"organizationId": "org_1", "nested": true, "limit": 50}));

    let uri = "/v1/orgs/org_1/collections?nested=false&limit=7&page=abc%20d";
    let (status, _, _) = send(&app, request("GET", uri, None)).await;
    assert_eq!(status, StatusCode::OK);
    let call = recorded.lock().unwrap().pop().unwrap();
    assert_eq!(call.request, json!({"organizationId": "org_1", "page": "abc d", "nested": false, "limit": 7}));
}

#[tokio::test]
async fn authentication_comes_first() {
    let (app, recorded) = app_answering("getSpace", json!({}));
    let unauthenticated = Request::builder().uri("/v1/spaces/s1").body(Body::empty()).unwrap();
    let (status, headers, bytes) = send(&app, unauthenticated).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(headers[header::WWW_AUTHENTICATE], "Bearer");
    assert_eq!(json_body(&bytes), error(401, "missing `Authorization: Bearer <token>` header"));

    for malformed in ["Basic dXNlcjpwdw==", "Bearer", "Bearer ", "Bearer two tokens", "token-1"] {
        let request = Request::builder()
            .uri("/v1/spaces/s1?bad=query")
            .header(header::AUTHORIZATION, malformed)
            .body(Body::empty());
        let (status, _, bytes) = send(&app, request.unwrap()).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{malformed}");
        assert_eq!(json_body(&bytes), error(401, "the `Authorization` header must be `Bearer <token>`"), "{malformed}");
    }
    assert!(recorded.lock().unwrap().is_empty(), "no handler ran");
}

#[tokio::test]
async fn the_authenticator_can_refuse_with_401_or_403() {
    let service = MockService::new(|_| Ok(json!({}))).with_auth(|token| match token {
        "expired" => Err(ApiError::unauthorized("the token expired")),
        "reader" => Err(ApiError::forbidden("read-only token")),
        other => Ok(other.to_owned()),
    });
    let app = router(service);
    for (token, code, message) in [("expired", 401, "the token expired"), ("reader", 403, "read-only token")] {
        let request = Request::builder()
            .method("DELETE")
            .uri("/v1/spaces/s1")
            .header(header::AUTHORIZATION, format!("Bearer {token}"));
        let (status, _, bytes) = send(&app, request.body(Body::empty()).unwrap()).await;
        assert_eq!(status.as_u16(), code);
        assert_eq!(json_body(&bytes), error(code, message));
    }
}

#[tokio::test]
async fn body_rejections_answer_the_error_body() {
    let (app, recorded) = app_answering("transferCollection", json!({}));
    let uri = "/v1/collections/col_1/transfer";

    let (status, _, bytes) = send(&app, request("POST", uri, Some(r#"{"organization": "#))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        json_body(&bytes),
        error(400, "the body is not valid JSON: EOF while parsing a value at line 1 column 17")
    );

    let (status, _, bytes) = send(&app, request("POST", uri, Some(r#"{"organization": 42}"#))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        json_body(&bytes),
        json!({"error": {"code": 400, "message": "the request is invalid",
            "violations": [{"path": "/organization", "message": "expected a string, found the number 42"}]}})
    );

    let (status, _, bytes) = send(&app, request("POST", uri, Some(r#"{"org": "o2"}"#))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        json_body(&bytes)["error"]["violations"],
        json!([{"path": "/organization", "message": "is required"}, {"path": "/org", "message": "is not a field of this object"}])
    );

    let (status, _, bytes) = send(&app, request("POST", uri, None)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(json_body(&bytes)["error"]["violations"], json!([{"path": "", "message": "a JSON body is required"}]));

    let text = Request::builder()
        .method("POST")
        .uri(uri)
        .header(header::AUTHORIZATION, "Bearer t")
        .header(header::CONTENT_TYPE, "text/plain")
        .body(Body::from("organization=o2"))
        .unwrap();
    let (status, _, bytes) = send(&app, text).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(json_body(&bytes), error(415, "the body must be JSON, sent with `Content-Type: application/json`"));
    assert!(recorded.lock().unwrap().is_empty(), "no handler ran");
}

#[tokio::test]
async fn a_body_above_the_limit_answers_413() {
    let service = MockService::new(|_| Ok(json!({})));
    let app = router_with(service, ServerConfig { body_limit: 64, ..ServerConfig::default() });
    let body = format!(r#"{{"organization": "{}"}}"#, "o".repeat(100));
    let (status, _, bytes) = send(&app, request("POST", "/v1/collections/c/transfer", Some(&body))).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(json_body(&bytes), error(413, "the body is larger than 64 bytes"));
}

#[tokio::test]
async fn validation_reports_every_violation_before_the_handler_runs() {
    let (app, recorded) = app_answering("updateSiteSection", json!({}));
    let uri = "/v1/orgs/o/sites/s/sections/sec?limit=3&debug=1";
    let body = json!({"title": "x", "path": "", "icon": "i".repeat(51), "condition": null, "extra": true});
    let (status, _, bytes) = send(&app, request("PATCH", uri, Some(&body.to_string()))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        json_body(&bytes),
        json!({"error": {"code": 400, "message": "the request is invalid", "violations": [
            {"path": "/extra", "message": "is not a field of this object"},
            {"path": "query.limit", "message": "is not a parameter of this operation"},
            {"path": "query.debug", "message": "is not a parameter of this operation"},
        ]}})
    );
    let body = json!({"title": "x", "path": "", "icon": "i".repeat(51), "condition": null});
    let (status, _, bytes) =
        send(&app, request("PATCH", "/v1/orgs/o/sites/s/sections/sec", Some(&body.to_string()))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        json_body(&bytes)["error"]["violations"],
        json!([
            {"path": "/title", "message": "must be at least 2 characters long (found 1)"},
            {"path": "/path", "message": "must be at least 1 characters long (found 0)"},
            {"path": "/icon", "message": "must be at most 50 characters long (found 51)"},
        ])
    );

    let (app, _) = app_answering("listSpaceLinks", json!({}));
    let (status, _, bytes) =
        send(&app, request("GET", "/v1/spaces/s/links?limit=5000&status=gone&page=a&page=b", None)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        json_body(&bytes)["error"]["violations"],
        json!([
            {"path": "query.status", "message": "\"gone\" is not one of: ok, broken, in-app"},
            {"path": "query.page", "message": "is given more than once"},
            {"path": "query.limit", "message": "must be at most 1000 (found 5000)"},
        ])
    );
    let (status, _, _) = send(&app, request("GET", "/v1/orgs/o/openapi/Not_A_Slug", None)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(recorded.lock().unwrap().is_empty(), "no handler ran");
}

#[tokio::test]
async fn path_parameters_are_checked_and_decoded() {
    let (api, _) = apigen::load(Path::new("../spec")).unwrap();
    let (app, recorded) = app_answering("getOpenApiSpec", apigen::model::sample::of_type(&api, "OpenApiSpec"));
    let (status, _, bytes) = send(&app, request("GET", "/v1/orgs/o/openapi/Not_A_Slug", None)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        json_body(&bytes)["error"]["violations"],
        json!([{"path": "path.specSlug", "message": "must match the pattern ^[a-z0-9]+(?:-[a-z0-9]+)*$"}])
    );
    let (status, _, _) = send(&app, request("GET", "/v1/orgs/org%201/openapi/pet-store", None)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        recorded.lock().unwrap().pop().unwrap().request,
        json!({"organizationId": "org 1", "specSlug": "pet-store"})
    );
}

#[tokio::test]
async fn unknown_routes_answer_404_and_wrong_methods_405() {
    let (app, _) = app_answering("getSpace", json!({}));
    let (status, _, bytes) = send(&app, request("GET", "/v1/nowhere", None)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(json_body(&bytes), error(404, "no operation matches this path"));

    let (status, headers, bytes) = send(&app, request("PUT", "/v1/spaces/s1", Some("{}"))).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(headers[header::ALLOW], "GET, DELETE, PATCH");
    assert_eq!(json_body(&bytes), error(405, "the method is not allowed on this path"));
}

#[tokio::test]
async fn deletes_answer_204_without_body() {
    let (app, recorded) = app_answering("deleteSpace", json!(null));
    let (status, headers, bytes) = send(&app, request("DELETE", "/v1/spaces/s1", None)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert!(bytes.is_empty());
    assert!(headers.get(header::CONTENT_TYPE).is_none());
    assert_eq!(recorded.lock().unwrap().pop().unwrap().request, json!({"spaceId": "s1"}));
}

/// A service that implements nothing: built partially, every operation answers 501.
struct Unimplemented;

impl Authenticator for Unimplemented {
    type Principal = ();
    async fn authenticate(&self, _: docs_api_server::Credential<'_>) -> Result<(), ApiError> {
        Ok(())
    }
}

#[tokio::test]
async fn unimplemented_operations_answer_501_naming_the_operation() {
    let builder = docs_api_server::RouterBuilder::new(Unimplemented);
    assert_eq!(builder.unimplemented().len(), docs_api_server::OPERATIONS.len());
    let app = builder.build_partial();
    let (status, _, bytes) = send(&app, request("GET", "/v1/spaces/s1", None)).await;
    assert_eq!(status, StatusCode::NOT_IMPLEMENTED);
    assert_eq!(json_body(&bytes), error(501, "the operation `getSpace` is not implemented"));
}

#[tokio::test]
async fn a_panicking_handler_answers_500_and_the_server_keeps_serving() {
    let service = MockService::new(|call| match call.operation {
        "getSpace" => panic!("handler bug"),
        _ => Ok(json!(null)),
    });
    let app = router(service);
    let (status, _, bytes) = send(&app, request("GET", "/v1/spaces/s1", None)).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(json_body(&bytes), error(500, "the handler failed unexpectedly"));
    let (status, _, _) = send(&app, request("DELETE", "/v1/spaces/s1", None)).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "the next request succeeds");
}

#[tokio::test]
async fn handler_errors_use_the_same_body() {
    let service = MockService::new(|call| match call.operation {
        "getOrganization" => Err(ApiError::not_found("no matching organization for the id")),
        "joinOrganization" => Err(ApiError::bad_request("the user's email domain is not valid")),
        "updateSpace" => Err(ApiError::conflict("the space changed meanwhile")),
        _ => Err(ApiError::forbidden("no")),
    });
    let app = router(service);
    let cases = [
        ("GET", "/v1/orgs/o1", None, 404, "no matching organization for the id"),
        ("POST", "/v1/orgs/o1/join", None, 400, "the user's email domain is not valid"),
        ("PATCH", "/v1/spaces/s1", Some("{}"), 409, "the space changed meanwhile"),
        ("GET", "/v1/spaces/s1", None, 403, "no"),
    ];
    for (method, uri, body, code, message) in cases {
        let (status, _, bytes) = send(&app, request(method, uri, body)).await;
        assert_eq!(status.as_u16(), code, "{method} {uri}");
        assert_eq!(json_body(&bytes), error(code, message));
    }
}

#[test]
fn the_router_is_an_axum_router() {
    let _: axum::Router = router(MockService::new(|_| Ok(json!({}))));
}
