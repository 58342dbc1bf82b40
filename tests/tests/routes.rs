//! Every route form of `tests/fixtures/valid/routes`, on the wire: the generated client sends
//! the exact request line (path bytes and query) and selector headers, and the generated
//! server's router answers with the operation they name; near misses answer 404, 405 or a 400
//! naming the selector.

use apigen_runtime::server::axum::extract::Request;
use apigen_runtime::server::axum::middleware::{Next, from_fn};
use apigen_runtime::server::axum::{self, Router};
use apigen_runtime::server::{MockService, Selector};
use routes_client::{Client, RetryPolicy};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

type Lines = Arc<Mutex<Vec<String>>>;

/// The generated router over a mock echoing the operation and the request it read; every
/// request line (and `X-Amz-Target`) recorded as the server received it.
async fn serve() -> (Client, Lines) {
    let service = MockService::new(|call| Ok(json!({ "operation": call.operation, "request": call.request })));
    let lines: Lines = Arc::default();
    let recorded = Arc::clone(&lines);
    let app: Router = routes_server::router(service).layer(from_fn(move |request: Request, next: Next| {
        let target = request.headers().get("x-amz-target").map(|v| format!(" X-Amz-Target: {}", v.to_str().unwrap()));
        recorded.lock().unwrap().push(format!("{} {}{}", request.method(), request.uri(), target.unwrap_or_default()));
        next.run(request)
    }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (Client::builder(base).bearer("t").retry(RetryPolicy::none()).build().unwrap(), lines)
}

#[tokio::test]
async fn every_route_form_reaches_its_operation_with_the_exact_request_line() {
    let (client, lines) = serve().await;
    let routes = client.routes();
    let key = || routes_client::types::PutItemInput { key: "k1".into(), value: "v1".into() };
    let answers: Vec<(routes_client::types::Echo, &str, &str, Value)> = vec![
        (routes.get_file("a b").send().await.unwrap(), "GET /v1/files/a%20b", "getFile", json!({"id": "a b"})),
        (routes.get_file_json("7").send().await.unwrap(), "GET /v1/files/7.json", "getFileJson", json!({"id": "7"})),
        (
            routes.get_file_json("x.json").send().await.unwrap(),
            "GET /v1/files/x.json.json",
            "getFileJson",
            json!({"id": "x.json"}),
        ),
        (routes.get_job("j1").send().await.unwrap(), "GET /v1/jobs/j1", "getJob", json!({"name": "j1"})),
        (
            routes.cancel_job("a:b").send().await.unwrap(),
            "POST /v1/jobs/a%3Ab:cancel",
            "cancelJob",
            json!({"name": "a:b"}),
        ),
        (
            routes.send_message("j1").send().await.unwrap(),
            "POST /v1/jobs/j1/messages:send",
            "sendMessage",
            json!({"name": "j1"}),
        ),
        (
            routes.get_participant("p1").send().await.unwrap(),
            "GET /v1/participants/$p1",
            "getParticipant",
            json!({"participantId": "p1"}),
        ),
        (
            routes.item_at("x y", 2).send().await.unwrap(),
            "GET /v1/fn(a='x%20y',b=2)",
            "itemAt",
            json!({"a": "x y", "b": 2}),
        ),
        (
            routes.nearby(1.5, -2.0).send().await.unwrap(),
            "GET /v1/near/1.5,-2",
            "nearby",
            json!({"lat": 1.5, "lon": -2.0}),
        ),
        (routes.list_items().send().await.unwrap(), "GET /v1/items", "listItems", json!({})),
        (routes.list_items_slash().send().await.unwrap(), "GET /v1/items/", "listItemsSlash", json!({})),
        (
            routes.get_item("k1").send().await.unwrap(),
            "POST / X-Amz-Target: Store_20240101.GetItem",
            "getItem",
            json!({"body": {"key": "k1"}}),
        ),
        (
            routes.put_item(key()).send().await.unwrap(),
            "POST / X-Amz-Target: Store_20240101.PutItem",
            "putItem",
            json!({"body": {"key": "k1", "value": "v1"}}),
        ),
        (
            routes.describe_things().max_results(5).send().await.unwrap(),
            "GET /?Action=DescribeThings&Version=2024-01-01&MaxResults=5",
            "describeThings",
            json!({"MaxResults": 5}),
        ),
        (
            routes.list_things().send().await.unwrap(),
            "GET /?Action=ListThings&Version=2024-01-01",
            "listThings",
            json!({}),
        ),
    ];
    let lines = lines.lock().unwrap().clone();
    for ((echo, line, operation, request), sent) in answers.into_iter().zip(&lines) {
        assert_eq!(sent, line);
        assert_eq!((echo.operation.as_str(), &echo.request), (operation, &request), "{line}");
    }
    assert_eq!(lines.len(), 15);
}

/// Literal segments starting with `:` or `*` (axum's router panicked at startup on them,
/// taking them for axum 0.7's captures): the router builds, the generated client sends them
/// as written, and each reaches its operation; a near miss reaches the parameter beside the
/// literal, or answers 404.
#[tokio::test]
async fn literal_segments_axum_reads_as_syntax_route_as_written() {
    let (client, lines) = serve().await;
    let routes = client.routes();
    let answers: Vec<(routes_client::types::Echo, &str, &str, Value)> = vec![
        (routes.feed_webhook().send().await.unwrap(), "POST /v1/webhooks/feed/:token", "feedWebhook", json!({})),
        (
            routes.feed_by_key("k1").send().await.unwrap(),
            "POST /v1/webhooks/feed/k1",
            "feedByKey",
            json!({"key": "k1"}),
        ),
        (
            routes.feed_by_key(":token").send().await.unwrap(),
            "POST /v1/webhooks/feed/%3Atoken",
            "feedByKey",
            json!({"key": ":token"}),
        ),
        (routes.star_item("s1").send().await.unwrap(), "GET /v1/*stars/s1", "starItem", json!({"id": "s1"})),
    ];
    let lines = lines.lock().unwrap().clone();
    assert_eq!(lines.len(), answers.len());
    for ((echo, line, operation, request), sent) in answers.into_iter().zip(&lines) {
        assert_eq!(sent, line);
        assert_eq!((echo.operation.as_str(), &echo.request), (operation, &request), "{line}");
    }
    let (base, http) = serve_plain().await;
    let echo = |operation: &str, request: Value| (200, None, json!({ "operation": operation, "request": request }));
    let cases = [
        (http.post(format!("{base}/v1/webhooks/feed/:tokens")), echo("feedByKey", json!({"key": ":tokens"}))),
        (http.get(format!("{base}/v1/*star/s1")), (404, None, error(404, "no operation matches this path"))),
        (http.get(format!("{base}/v1/stars/s1")), (404, None, error(404, "no operation matches this path"))),
    ];
    for (request, expected) in cases {
        assert_eq!(raw(&http, request).await, expected);
    }
}

/// A raw request's status, `Allow` header and body.
async fn raw(
    client: &apigen_runtime::client::reqwest::Client,
    request: apigen_runtime::client::reqwest::RequestBuilder,
) -> (u16, Option<String>, Value) {
    let response = client.execute(request.bearer_auth("t").build().unwrap()).await.unwrap();
    let allow = response.headers().get("allow").map(|v| v.to_str().unwrap().to_owned());
    (response.status().as_u16(), allow, serde_json::from_slice(&response.bytes().await.unwrap()).unwrap())
}

/// The generated router over the echoing mock, with no recording layer, and a bare HTTP client
/// for requests the generated client would never send.
async fn serve_plain() -> (String, apigen_runtime::client::reqwest::Client) {
    let service = MockService::new(|call| Ok(json!({ "operation": call.operation, "request": call.request })));
    let app = routes_server::router(service);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, apigen_runtime::client::http_client_builder().build().unwrap())
}

fn error(code: u16, message: &str) -> Value {
    json!({ "error": { "code": code, "message": message } })
}

#[tokio::test]
async fn near_misses_answer_404_405_and_a_400_naming_the_selector() {
    let (base, http) = serve_plain().await;
    let target = "X-Amz-Target";
    let cases = [
        (http.get(format!("{base}/v1/near/1.5")), (404, None, error(404, "no operation matches this path"))),
        // Numbers are finite: NaN would pass any bound, and 1e400 parses as infinity.
        (
            http.get(format!("{base}/v1/near/NaN,1e400")),
            (
                400,
                None,
                json!({"error": {"code": 400, "message": "the request is invalid", "violations": [
                    {"path": "path.lat", "message": "expected a finite number, found \"NaN\""},
                    {"path": "path.lon", "message": "expected a finite number, found \"1e400\""},
                ]}}),
            ),
        ),
        (http.get(format!("{base}/v1/items//")), (404, None, error(404, "no operation matches this path"))),
        (
            http.post(format!("{base}/v1/jobs/j1")),
            (405, Some("GET".to_owned()), error(405, "the method is not allowed on this path")),
        ),
        (
            http.post(format!("{base}/")).header("content-type", "application/json").body(r#"{"key": "k"}"#),
            (
                400,
                None,
                error(
                    400,
                    "the header `X-Amz-Target` selects the operation and is missing; send one of: `Store_20240101.GetItem`, `Store_20240101.PutItem`",
                ),
            ),
        ),
        (
            http.post(format!("{base}/"))
                .header(target, "Store_20240101.Nope")
                .header("content-type", "application/json")
                .body(r#"{"key": "k"}"#),
            (
                400,
                None,
                error(
                    400,
                    "the header `X-Amz-Target` is `Store_20240101.Nope`, which selects no operation; send one of: `Store_20240101.GetItem`, `Store_20240101.PutItem`",
                ),
            ),
        ),
        (
            http.get(format!("{base}/?Action=Nope&Version=2024-01-01")),
            (
                400,
                None,
                error(
                    400,
                    "the query parameter `Action` is `Nope`, which selects no operation; send one of: `DescribeThings`, `ListThings`",
                ),
            ),
        ),
        (
            http.get(format!("{base}/?Action=ListThings")),
            (
                400,
                None,
                error(
                    400,
                    "the query parameter `Version` selects the operation and is missing; send one of: `2024-01-01`",
                ),
            ),
        ),
        // A selector sent twice selects nothing: not the last value (which ran `ListThings`),
        // not the first, in any spelling the router decodes.
        (http.get(format!("{base}/?Action=DescribeThings&Action=ListThings&Version=2024-01-01")), twice_action()),
        (http.get(format!("{base}/?Action=DescribeThings&Act%69on=ListThings&Version=2024-01-01")), twice_action()),
        (http.get(format!("{base}/?Action=Nope&Action=ListThings&Version=2024-01-01")), twice_action()),
        (
            http.get(format!("{base}/?Action=ListThings&Version=2024-01-01&Version=2024-01-01&Version=x")),
            (
                400,
                None,
                error(400, "the query parameter `Version` selects the operation and is sent 3 times; send it once"),
            ),
        ),
        (
            http.post(format!("{base}/"))
                .header(target, "Store_20240101.GetItem")
                .header("x-amz-target", "Store_20240101.PutItem")
                .header("content-type", "application/json")
                .body(r#"{"key": "k", "value": "v"}"#),
            (
                400,
                None,
                error(400, "the header `X-Amz-Target` selects the operation and is sent 2 times; send it once"),
            ),
        ),
    ];
    for (request, expected) in cases {
        assert_eq!(raw(&http, request).await, expected);
    }
}

fn twice_action() -> (u16, Option<String>, Value) {
    (400, None, error(400, "the query parameter `Action` selects the operation and is sent 2 times; send it once"))
}

#[tokio::test]
async fn a_path_past_the_uri_limit_is_refused_before_any_route_is_tried() {
    // A 64,900-byte path on the OData call's segment took 9.9 s to refuse while every split
    // was tried (issue 50); now no route is tried for a path past the limit (8 KiB), on the
    // routed method or another, and one under it is matched in one pass.
    let (base, http) = serve_plain().await;
    let long = "y".repeat(32_430);
    let path = format!("/v1/fn(a='{long}',b={long}");
    let too_long = error(414, &format!("the path and query are {} bytes long; the limit is 8192", path.len()));
    for request in [http.get(format!("{base}{path}")), http.delete(format!("{base}{path}"))] {
        // (axum adds `Allow` to what the other method's fallback answers.)
        let (status, _, body) = raw(&http, request).await;
        assert_eq!((status, body), (414, too_long.clone()));
    }
    let under = "y".repeat(4_000);
    let (status, _, body) = raw(&http, http.get(format!("{base}/v1/fn(a='{under}',b=7)"))).await;
    assert_eq!((status, &body["operation"], &body["request"]["b"]), (200, &json!("itemAt"), &json!(7)));
}

#[test]
fn the_generated_descriptors_hold_the_templates_and_selectors() {
    // The router parses each template once (the runtime's `parses_templates` test).
    let info = |name: &str| routes_server::OPERATIONS.iter().find(|op| op.name == name).unwrap();
    assert_eq!(info("itemAt").path, "/v1/fn(a='{a}',b={b})");
    assert_eq!(info("listItemsSlash").path, "/v1/items/");
    assert_eq!(info("getItem").select, [Selector::Header("X-Amz-Target", "Store_20240101.GetItem")]);
    assert_eq!(
        info("listThings").select,
        [Selector::Query("Action", "ListThings"), Selector::Query("Version", "2024-01-01")]
    );
}
