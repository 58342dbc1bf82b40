//! Bodies the format cannot type travel raw, never dropped (`tests/fixtures/valid/bodies`,
//! c.yaml: what the import writes for tests/fixtures/openapi/raw-bodies-3.0.json): an order
//! in XML, rows in CSV and an OAuth token request whose form is one of two grants, each a
//! `string` body. The client sends the text exactly as given in its media type; the server
//! checks the `Content-Type` (415) and UTF-8 (400 naming `body`) and hands the handler the text.
//!
//! And forms of open objects (c.yaml's `postSubscription`, `postNote`): a form keeping
//! undeclared keys (`additional_properties`) hands them to the handler in `extra`, and the
//! client sends them; a form of an API that ignores undeclared fields drops them; a field
//! breaking a declared property is still refused.

use bodies_client::{Client, PostOrderContentType, RetryPolicy};
use bodies_server::types::{PostSubscriptionBody, Taken, Token};
use bodies_server::{
    Anonymous, ApiError, Authenticator, Context, Credential, PostNoteRequest, PostOrderRequest, PostRowsRequest,
    PostSubscriptionRequest, PostTokenRequest, RouterBuilder, ServerConfig,
};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The token request of the document's own example.
const GRANT: &str = "grant_type=refresh_token&client_id=app-1&refresh_token=r-123";

struct Public;

impl Authenticator for Public {
    type Principal = String;
    async fn authenticate(&self, _: Credential<'_>) -> Result<String, ApiError> {
        Err(ApiError::unauthorized("every operation is public"))
    }
}

/// The service: each handler answers what it received, so a test sees the text the handler got.
async fn start_with(config: ServerConfig) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = RouterBuilder::new(Public)
        .with_config(config)
        .post_order(|_, _: Context<Anonymous>, request: PostOrderRequest| async move {
            Ok(request.body.replace("<order>", "<order placed=\"true\">"))
        })
        .post_rows(|_, _: Context<Anonymous>, request: PostRowsRequest| async move {
            Ok(Taken { rows: i64::try_from(request.body.lines().count()).unwrap() })
        })
        .post_token(|_, _: Context<Anonymous>, request: PostTokenRequest| async move {
            Ok(Token { access_token: request.body, token_type: "Bearer".into() })
        })
        .post_subscription(|_, _: Context<Anonymous>, request: PostSubscriptionRequest| async move {
            let PostSubscriptionBody { plan, quantity, extra } = request.body;
            Ok(json!({ "plan": plan, "quantity": quantity, "extra": extra }))
        })
        .post_note(|_, _: Context<Anonymous>, request: PostNoteRequest| async move {
            Ok(json!({ "text": request.body.text }))
        })
        .build_partial(); // getA and getB are tests/tests/bodies.rs's.
    tokio::spawn(apigen_runtime::listener::serve(listener, app, Default::default()));
    format!("http://{address}")
}

async fn start() -> String {
    start_with(ServerConfig::default()).await
}

fn client(base: &str) -> Client {
    Client::builder(base).retry(RetryPolicy::none()).build().unwrap()
}

/// One request as it arrives on the wire: its `Content-Type` and body bytes. The listener
/// answers it with `answer` (a JSON body, or XML for `/orders`).
async fn capture(answer: &'static str) -> (String, tokio::task::JoinHandle<(String, Vec<u8>)>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let seen = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut received = Vec::new();
        let mut buffer = [0u8; 4096];
        let (head, length) = loop {
            let n = socket.read(&mut buffer).await.unwrap();
            assert!(n > 0, "the connection closed before the request ended");
            received.extend_from_slice(&buffer[..n]);
            if let Some(end) = received.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8(received[..end].to_vec()).unwrap();
                let length = head
                    .lines()
                    .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_owned()))
                    .map_or(0, |v| v.parse::<usize>().unwrap());
                received.drain(..end + 4);
                break (head, length);
            }
        };
        while received.len() < length {
            let n = socket.read(&mut buffer).await.unwrap();
            assert!(n > 0, "the connection closed before the body ended");
            received.extend_from_slice(&buffer[..n]);
        }
        let content_type = head
            .lines()
            .find_map(|l| l.to_ascii_lowercase().starts_with("content-type:").then(|| l[13..].trim().to_owned()))
            .unwrap_or_default();
        let media = if answer.starts_with('<') { "application/xml" } else { "application/json" };
        let reply = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: {media}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{answer}",
            answer.len()
        );
        socket.write_all(reply.as_bytes()).await.unwrap();
        (content_type, received)
    });
    (base, seen)
}

#[tokio::test]
async fn the_client_sends_each_raw_body_exactly_as_given_in_its_media_type() {
    // The OAuth token request: the form's text as given, its media type without parameters.
    let (base, seen) = capture(r#"{"access_token":"t-1","token_type":"Bearer"}"#).await;
    let token = client(&base).raw().post_token(GRANT.to_owned()).send().await.unwrap();
    assert_eq!(token.access_token, "t-1");
    let (content_type, body) = seen.await.unwrap();
    assert_eq!(content_type, "application/x-www-form-urlencoded");
    assert_eq!(body, GRANT.as_bytes());
    // XML in the first media type, then in the one the call chooses; text gets its charset.
    let order = "<order><item>tea</item></order>";
    let (base, seen) = capture("<order/>").await;
    assert_eq!(client(&base).raw().post_order(order.to_owned()).send().await.unwrap(), "<order/>");
    assert_eq!(seen.await.unwrap(), ("application/xml; charset=utf-8".to_owned(), order.as_bytes().to_vec()));
    let (base, seen) = capture("<order/>").await;
    let client_of_base = client(&base);
    let chosen = client_of_base.raw().post_order(order.to_owned()).content_type(PostOrderContentType::TextXml);
    chosen.send().await.unwrap();
    assert_eq!(seen.await.unwrap(), ("text/xml; charset=utf-8".to_owned(), order.as_bytes().to_vec()));
    let (base, seen) = capture(r#"{"rows":2}"#).await;
    client(&base).raw().post_rows("a,b\n1,2\n".to_owned()).send().await.unwrap();
    assert_eq!(seen.await.unwrap(), ("text/csv; charset=utf-8".to_owned(), b"a,b\n1,2\n".to_vec()));
}

#[tokio::test]
async fn the_handler_receives_the_text_the_client_sent() {
    let base = start().await;
    let client = client(&base);
    let token = client.raw().post_token(GRANT.to_owned()).send().await.unwrap();
    assert_eq!((token.access_token.as_str(), token.token_type.as_str()), (GRANT, "Bearer"));
    let placed = client.raw().post_order("<order><item>thé</item></order>".to_owned()).send().await.unwrap();
    assert_eq!(placed, "<order placed=\"true\"><item>thé</item></order>");
    assert_eq!(client.raw().post_rows("a,b\n1,2\n3,4\n".to_owned()).send().await.unwrap().rows, 3);
    // The XML answer is text in its media type, with its charset.
    let http = bodies_client::http_client_builder().build().unwrap();
    let response =
        http.post(format!("{base}/orders")).header("content-type", "text/xml").body("<order/>").send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/xml; charset=utf-8");
    assert_eq!(response.text().await.unwrap(), "<order/>");
}

/// Posts `body` as `content_type` to `path` and returns the status and the body's text.
async fn post(base: &str, path: &str, content_type: &str, body: Vec<u8>) -> (u16, String) {
    let http = bodies_client::http_client_builder().build().unwrap();
    let response =
        http.post(format!("{base}{path}")).header("content-type", content_type).body(body).send().await.unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

#[tokio::test]
async fn the_server_refuses_another_media_type_text_that_is_not_utf8_and_a_body_over_the_limit() {
    let base = start().await;
    assert_eq!(
        post(&base, "/oauth/token", "application/json", br#"{"grant_type":"refresh_token"}"#.to_vec()).await,
        (
            415,
            r#"{"extensions":{},"message":"the body must be sent as one of: application/x-www-form-urlencoded"}"#
                .to_owned()
        )
    );
    assert_eq!(
        post(&base, "/orders", "text/plain", b"<order/>".to_vec()).await,
        (415, r#"{"extensions":{},"message":"the body must be sent as one of: application/xml, text/xml"}"#.to_owned())
    );
    assert_eq!(
        post(&base, "/rows", "text/csv", b"a,b\n\xff\xfe".to_vec()).await,
        (
            400,
            r#"{"extensions":{},"message":"the request is invalid: body: is not UTF-8 text (from byte 4)"}"#.to_owned()
        )
    );
    // A media type's parameters and case do not matter; nothing sent is a missing body.
    assert_eq!(post(&base, "/rows", "Text/CSV; charset=utf-8", b"a\n".to_vec()).await, (200, r#"{"rows":1}"#.into()));
    assert_eq!(
        post(&base, "/oauth/token", "application/x-www-form-urlencoded", Vec::new()).await,
        (400, r#"{"extensions":{},"message":"the request is invalid: the body: a body is required"}"#.to_owned())
    );
    // The body limit applies to text as to any body read whole.
    let small = start_with(ServerConfig { body_limit: 64, ..Default::default() }).await;
    let (status, _) = post(&small, "/rows", "text/csv", vec![b'a'; 65]).await;
    assert_eq!(status, 413);
    assert_eq!(post(&small, "/rows", "text/csv", vec![b'a'; 64]).await, (200, r#"{"rows":1}"#.into()));
}

#[tokio::test]
async fn a_form_of_an_open_object_keeps_its_undeclared_fields_and_refuses_a_declared_one_broken() {
    let base = start().await;
    let form = "application/x-www-form-urlencoded";
    // Undeclared fields reach the handler in `extra`, beside the declared ones.
    assert_eq!(
        post(&base, "/subscriptions", form, b"plan=pro&quantity=3&source=web&coupon=SPRING".to_vec()).await,
        (200, r#"{"plan":"pro","quantity":3,"extra":{"coupon":"SPRING","source":"web"}}"#.to_owned())
    );
    // An undeclared field is still a value of `additional_properties`' type (`string`).
    assert_eq!(
        post(&base, "/subscriptions", form, b"plan=pro&metadata%5Border%5D=6735".to_vec()).await,
        (
            400,
            r#"{"extensions":{},"message":"the request is invalid: metadata: expected a string, found an object"}"#
                .to_owned()
        )
    );
    // A declared field breaking its property is refused as before, named by its key.
    assert_eq!(
        post(&base, "/subscriptions", form, b"plan=enterprise-plus&coupon=SPRING".to_vec()).await,
        (
            400,
            r#"{"extensions":{},"message":"the request is invalid: plan: must be at most 8 characters long (found 15)"}"#.to_owned()
        )
    );
    assert_eq!(
        post(&base, "/subscriptions", form, b"plan=pro&quantity=three".to_vec()).await,
        (
            400,
            r#"{"extensions":{},"message":"the request is invalid: quantity: expected an integer, found \"three\""}"#
                .to_owned()
        )
    );
    // The API ignores what a form does not declare (`unknown_fields: ignore`): dropped unread.
    assert_eq!(
        post(&base, "/notes", form, b"text=hello&mood=happy".to_vec()).await,
        (200, r#"{"text":"hello"}"#.into())
    );
    assert_eq!(
        post(&base, "/notes", form, b"text=far+too+long&mood=happy".to_vec()).await,
        (400, r#"{"extensions":{},"message":"the request is invalid: /text: must be at most 10 characters long (found 12)"}"#.to_owned())
    );
}

#[tokio::test]
async fn the_client_sends_a_forms_undeclared_fields_and_the_handler_gets_them() {
    let base = start().await;
    let extra = [("coupon".to_owned(), "SPRING".to_owned())].into_iter().collect();
    let body = bodies_client::types::PostSubscriptionBody { plan: "pro".into(), quantity: None, extra };
    let answer = client(&base).raw().post_subscription("pro").body(body.clone()).send().await.unwrap();
    assert_eq!(answer, json!({ "plan": "pro", "quantity": null, "extra": { "coupon": "SPRING" } }));
    let (capture_base, seen) = capture(r#"{}"#).await;
    client(&capture_base).raw().post_subscription("pro").body(body).send().await.unwrap();
    let (content_type, sent) = seen.await.unwrap();
    assert_eq!((content_type.as_str(), sent.as_slice()), (form_media(), b"plan=pro&coupon=SPRING".as_slice()));
}

fn form_media() -> &'static str {
    "application/x-www-form-urlencoded"
}
