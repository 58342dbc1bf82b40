//! Bodies whose document schemas admit `null` (`tests/fixtures/valid/nullbody`, what the import
//! writes for `tests/fixtures/openapi/nullable-bodies-3.0.json`: `type: object, nullable:
//! true`, as 16 of GitHub's bodies say): the server reads a JSON `null` body as the body left
//! out (`None`), required or not, and still refuses any other value that is not an object; the
//! client sends `null` for a required nullable body it is not given. OpenAPI 3.1's `type:
//! [object, "null"]` imports alike, and the generated openapi.json imports back the same.

use nullbody_server::types::{AddProjectBody, AddProjectBodyPermission, Read};
use nullbody_server::{AddProjectRequest, CreateNoteRequest};
use nullbody_server::{Anonymous, ApiError, Authenticator, Context, Credential, RouterBuilder};

/// The service answers what its handler was given: `absent`, or the body as JSON.
struct Echo;

impl Authenticator for Echo {
    type Principal = String;
    async fn authenticate(&self, _: Credential<'_>) -> Result<String, ApiError> {
        Err(ApiError::unauthorized("every operation is public"))
    }
}

fn seen<T: apigen_runtime::serde::Serialize>(body: Option<T>) -> Read {
    Read { body: body.map_or_else(|| "absent".to_owned(), |b| serde_json::to_string(&b).unwrap()) }
}

async fn start() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = RouterBuilder::new(Echo)
        .add_project(|_, _: Context<Anonymous>, request: AddProjectRequest| async move { Ok(seen(request.body)) })
        .create_note(|_, _: Context<Anonymous>, request: CreateNoteRequest| async move { Ok(seen(request.body)) })
        .build()
        .unwrap();
    tokio::spawn(apigen_runtime::listener::serve(listener, app, Default::default()));
    format!("http://{address}")
}

/// Sends `body` (JSON, or nothing at all when `None`) and gives the status and the body text.
async fn send(method: &str, url: &str, body: Option<&str>) -> (u16, String) {
    let http = apigen_runtime::client::http_client_builder().build().unwrap();
    let mut request = http.request(method.parse().unwrap(), url);
    if let Some(body) = body {
        request = request.header("content-type", "application/json").body(body.to_owned());
    }
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

const ABSENT: &str = r#"{"body":"absent"}"#;

/// The body of a 400 naming each `(path, message)`.
fn invalid(violations: &[(&str, &str)]) -> (u16, String) {
    let listed: Vec<String> =
        violations.iter().map(|(path, message)| format!(r#"{{"path":"{path}","message":"{message}"}}"#)).collect();
    let body =
        format!(r#"{{"error":{{"code":400,"message":"the request is invalid","violations":[{}]}}}}"#, listed.join(","));
    (400, body)
}

#[tokio::test]
async fn a_required_nullable_body_reads_null_as_none_and_refuses_other_values_that_are_not_objects() {
    let base = start().await;
    let project = format!("{base}/teams/core/projects/7");
    assert_eq!(send("PUT", &project, Some("null")).await, (200, ABSENT.to_owned()));
    assert_eq!(send("PUT", &project, Some(" null\n")).await, (200, ABSENT.to_owned()));
    let read = send("PUT", &project, Some(r#"{"permission": "write"}"#)).await;
    assert_eq!(read, (200, r#"{"body":"{\"permission\":\"write\"}"}"#.to_owned()));
    assert_eq!(
        send("PUT", &project, Some("\"x\"")).await,
        invalid(&[("", r#"expected an object, found the string \"x\""#)])
    );
    assert_eq!(send("PUT", &project, Some("3")).await, invalid(&[("", "expected an object, found the number 3")]));
    // Required: sending nothing at all is still refused.
    assert_eq!(send("PUT", &project, None).await, invalid(&[("", "a JSON body is required")]));
    let refused = send("PUT", &project, Some(r#"{"permission": "owner"}"#)).await;
    assert_eq!(refused, invalid(&[("/permission", r#"\"owner\" is not one of: read, write, admin"#)]));
}

#[tokio::test]
async fn an_optional_nullable_body_reads_null_and_nothing_alike() {
    let base = start().await;
    let notes = format!("{base}/notes");
    assert_eq!(send("POST", &notes, Some("null")).await, (200, ABSENT.to_owned()));
    assert_eq!(send("POST", &notes, None).await, (200, ABSENT.to_owned()));
    assert_eq!(send("POST", &notes, Some("[]")).await, invalid(&[("", "expected an object, found an array")]));
    let refused = send("POST", &notes, Some(r#"{"text": "a note far longer than twenty"}"#)).await;
    assert_eq!(refused, invalid(&[("/text", "must be at most 20 characters long (found 29)")]));
}

#[tokio::test]
async fn the_client_sends_null_for_a_required_nullable_body_it_is_not_given() {
    let base = start().await;
    let client = nullbody_client::Client::builder(&base).build().unwrap();
    let read = client.teams().add_project("core", 7).send().await.unwrap();
    assert_eq!(read.body, "absent", "`null` sent, read as `None`");
    let read = client.teams().add_project("core", 7).permission(AddProjectBodyPermission::Admin).send().await.unwrap();
    assert_eq!(read.body, r#"{"permission":"admin"}"#);
    let read = client.teams().add_project("core", 7).body(AddProjectBody::default()).send().await.unwrap();
    assert_eq!(read.body, "{}");
    // An optional one not given sends nothing, which the server reads as it reads `null`.
    let read = client.notes().create().send().await.unwrap();
    assert_eq!(read.body, "absent");
}

#[test]
fn the_fixture_is_what_the_import_writes_for_the_document() {
    let text = std::fs::read_to_string("fixtures/openapi/nullable-bodies-3.0.json").unwrap();
    let document: serde_json::Value = serde_json::from_str(&text).unwrap();
    let imported = apigen::import::import(&document, "nullable-bodies-3.0.json").unwrap();
    for (name, written) in &imported.files {
        if name == "api.yaml" {
            continue;
        }
        let fixture = std::fs::read_to_string(format!("fixtures/valid/nullbody/{name}")).unwrap();
        assert_eq!(&fixture, written, "{name}");
    }
}

/// Whether each of `imported`'s operations has a nullable body, by name.
fn nullable_bodies(document: &serde_json::Value) -> Vec<(String, bool, bool)> {
    let imported = apigen::import::import(document, "doc.json").unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in &imported.files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let (api, _) = apigen::load(dir.path()).unwrap_or_else(|d| panic!("{}", d.render()));
    let body = |op: &apigen::model::Operation| op.body.as_ref().map(|b| (b.nullable, b.optional)).unwrap();
    api.operations.iter().map(|op| (op.name.clone(), body(op).0, body(op).1)).collect()
}

#[test]
fn a_3_1_body_of_type_object_or_null_imports_as_nullable() {
    let document = serde_json::json!({
        "openapi": "3.1.0",
        "info": {"title": "Teams", "version": "1"},
        "paths": {"/teams/{team}": {"put": {
            "operationId": "putTeam",
            "parameters": [{"name": "team", "in": "path", "required": true, "schema": {"type": "string"}}],
            "requestBody": {"required": true, "content": {"application/json": {"schema":
                {"type": ["object", "null"], "properties": {"name": {"type": "string"}}}}}},
            "responses": {"204": {"description": "Done."}}}}}
    });
    assert_eq!(nullable_bodies(&document), [("putTeam".to_owned(), true, false)]);
}

#[test]
fn the_generated_openapi_json_imports_back_with_its_nullable_bodies() {
    let text = std::fs::read_to_string("fixtures/generated/nullbody/openapi.json").unwrap();
    let document: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut found = nullable_bodies(&document);
    found.sort();
    assert_eq!(found, [("addProject".to_owned(), true, false), ("createNote".to_owned(), true, true)]);
}
