//! Bodies whose document schemas give an object's properties without `type: object`
//! (`tests/fixtures/valid/untyped`, what the import writes for
//! `tests/fixtures/openapi/untyped-bodies-3.0.json`): by JSON Schema a value that is not an
//! object fits such a schema, so the server accepts it and the handler reads the body as left
//! out (`None`); an object is still decoded and validated whole, and the client sends the
//! object it is given. Properties alike (`PUT /profiles`, Azure's `customProfile`): a value
//! that is not an object reads as the field left out, and a required one must still be given.

use untyped_server::types::Read;
use untyped_server::{Anonymous, ApiError, Authenticator, Context, Credential, RouterBuilder};
use untyped_server::{CreateInviteRequest, CreatePostRequest, PutGatewayRequest, PutProfileRequest};

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
        .create_post(|_, _: Context<Anonymous>, request: CreatePostRequest| async move { Ok(seen(request.body)) })
        .put_gateway(|_, _: Context<Anonymous>, request: PutGatewayRequest| async move { Ok(seen(request.body)) })
        .create_invite(|_, _: Context<Anonymous>, request: CreateInviteRequest| async move { Ok(seen(request.body)) })
        .put_profile(|_, _: Context<Anonymous>, request: PutProfileRequest| async move { Ok(seen(Some(request.body))) })
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

#[tokio::test]
async fn a_value_that_is_not_an_object_reads_as_an_optional_body_left_out() {
    let base = start().await;
    let posts = format!("{base}/posts");
    for value in ["null", "3", "[]", "true", "\"x\"", " [1, {\"raw\": 2}] "] {
        assert_eq!(send("POST", &posts, Some(value)).await, (200, ABSENT.to_owned()), "{value}");
    }
    assert_eq!(send("POST", &posts, None).await, (200, ABSENT.to_owned()), "no body at all");
    // An object is the body: decoded, every violation named.
    let read = send("POST", &posts, Some(r#"{"raw": "hello", "title": "t"}"#)).await;
    assert_eq!(read, (200, r#"{"body":"{\"title\":\"t\",\"raw\":\"hello\"}"}"#.to_owned()));
    let refused = send("POST", &posts, Some(r#"{"raw": "h", "title": "a title far longer than twenty"}"#)).await;
    assert_eq!(
        refused,
        (
            400,
            concat!(
                r#"{"error":{"code":400,"message":"the request is invalid","violations":["#,
                r#"{"path":"/title","message":"must be at most 20 characters long (found 30)"},"#,
                r#"{"path":"/raw","message":"must be at least 2 characters long (found 1)"}]}}"#
            )
            .to_owned()
        )
    );
    let (status, text) = send("POST", &posts, Some(r#"{"raw": "hello", "x": 1}"#)).await;
    assert_eq!(
        (status, text.contains(r#"{"path":"/x","message":"is not a field of this object"}"#)),
        (400, true),
        "{text}"
    );
    // Text that is not JSON is still refused, as are keys given twice inside a list.
    let (status, text) = send("POST", &posts, Some("nul")).await;
    assert_eq!(status, 400, "{text}");
    let (status, text) = send("POST", &posts, Some(r#"[{"a": 1, "a": 2}]"#)).await;
    assert_eq!(
        (status, text.contains(r#""path":"/0/a","message":"is given more than once in the object""#)),
        (400, true),
        "{text}"
    );
}

#[tokio::test]
async fn a_required_untyped_body_must_be_sent_but_a_value_that_is_not_an_object_reads_as_none() {
    let base = start().await;
    let gateway = format!("{base}/gateways/g1");
    for value in ["null", "3", "[]"] {
        assert_eq!(send("PUT", &gateway, Some(value)).await, (200, ABSENT.to_owned()), "{value}");
    }
    // Required: sending nothing is refused.
    assert_eq!(
        send("PUT", &gateway, None).await,
        (
            400,
            r#"{"error":{"code":400,"message":"the request is invalid","violations":[{"path":"","message":"a JSON body is required"}]}}"#
                .to_owned()
        )
    );
    let refused = send("PUT", &gateway, Some(r#"{"zones": ["a", "b", "c"], "location": 1}"#)).await;
    assert_eq!(
        refused,
        (
            400,
            r#"{"error":{"code":400,"message":"the request is invalid","violations":[{"path":"/location","message":"expected a string, found the number 1"}]}}"#
                .to_owned()
        )
    );
    let refused = send("PUT", &gateway, Some(r#"{"zones": ["a", "b", "c"]}"#)).await;
    assert_eq!(
        refused,
        (
            400,
            r#"{"error":{"code":400,"message":"the request is invalid","violations":[{"path":"/zones","message":"must hold at most 2 items (found 3)"}]}}"#
                .to_owned()
        )
    );
    // The client sends the object it is given.
    let client = untyped_client::Client::builder(&base).build().unwrap();
    let read = client.gateways().put("g1", ["a"]).send().await.unwrap();
    assert_eq!(read.body, r#"{"zones":["a"]}"#);
}

#[tokio::test]
async fn a_body_whose_schema_says_type_object_still_refuses_a_value_that_is_not_one() {
    let base = start().await;
    let (status, text) = send("POST", &format!("{base}/invites"), Some("null")).await;
    assert_eq!(
        (status, text.as_str()),
        (
            400,
            r#"{"error":{"code":400,"message":"the request is invalid","violations":[{"path":"","message":"expected an object, found null"}]}}"#
        )
    );
}

/// The body of a 400 naming each `(path, message)`.
fn invalid(violations: &[(&str, &str)]) -> (u16, String) {
    let listed: Vec<String> =
        violations.iter().map(|(path, message)| format!(r#"{{"path":"{path}","message":"{message}"}}"#)).collect();
    let body =
        format!(r#"{{"error":{{"code":400,"message":"the request is invalid","violations":[{}]}}}}"#, listed.join(","));
    (400, body)
}

#[tokio::test]
async fn a_property_that_is_not_an_object_reads_as_left_out_where_its_schema_gives_no_type() {
    let base = start().await;
    let profiles = format!("{base}/profiles");
    // `customProfile` (optional) and `owner` (required) give their properties without `type`.
    for value in ["null", "3", "[]", "true", "\"x\""] {
        let body = format!(r#"{{"customProfile": {value}, "owner": {value}}}"#);
        let read = send("PUT", &profiles, Some(&body)).await;
        assert_eq!(read, (200, r#"{"body":"{\"owner\":null}"}"#.to_owned()), "{value}");
    }
    // An object is read and validated as before.
    let body = r#"{"customProfile": {"id": "abc"}, "owner": {"id": "o1"}}"#;
    let read = send("PUT", &profiles, Some(body)).await;
    assert_eq!(read, (200, r#"{"body":"{\"customProfile\":{\"id\":\"abc\"},\"owner\":{\"id\":\"o1\"}}"}"#.to_owned()));
    let refused = send("PUT", &profiles, Some(r#"{"owner": {}}"#)).await;
    assert_eq!(refused, invalid(&[("/owner/id", "is required")]));
    let refused = send("PUT", &profiles, Some(r#"{"customProfile": {"id": "abcdef"}, "owner": null}"#)).await;
    assert_eq!(refused, invalid(&[("/customProfile/id", "must be at most 5 characters long (found 6)")]));
    // `owner` is required: the key must be given, whatever its value.
    assert_eq!(send("PUT", &profiles, Some("{}")).await, invalid(&[("/owner", "is required")]));
    // `account` says `type: object`: `null` there is still refused.
    let refused = send("PUT", &profiles, Some(r#"{"owner": null, "account": null}"#)).await;
    assert_eq!(refused, invalid(&[("/account", "must not be null")]));
    // The client writes a required untyped field left as `None` as `null`, which the document
    // admits, and the server reads it back as `None`.
    let client = untyped_client::Client::builder(&base).build().unwrap();
    let read = client.profiles().put().send().await.unwrap();
    assert_eq!(read.body, r#"{"owner":null}"#);
}

#[test]
fn the_fixture_is_what_the_import_writes_for_the_document() {
    let text = std::fs::read_to_string("fixtures/openapi/untyped-bodies-3.0.json").unwrap();
    let document: serde_json::Value = serde_json::from_str(&text).unwrap();
    let imported = apigen::import::import(&document, "untyped-bodies-3.0.json").unwrap();
    for (name, written) in &imported.files {
        if name == "api.yaml" {
            continue;
        }
        let fixture = std::fs::read_to_string(format!("fixtures/valid/untyped/{name}")).unwrap();
        assert_eq!(&fixture, written, "{name}");
    }
}
