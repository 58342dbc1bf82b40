//! Error bodies that differ per status on the wire (`tests/fixtures/valid/errstatus`, what the
//! import writes for a document whose error statuses each give their own body, issue 48): the
//! router writes each refusal in the body the operation declares for that status (a 400 as
//! its list of errors, a 401 with its code the first the document lists for that status, a
//! 404 in its two enumerations); a status the operation gives no body answers the built-in one.

use errstatus_server::{
    AddItemRequest, ApiError, Authenticator, Context, Credential, ListItemsRequest, RouterBuilder, Secret,
};

/// The service: the key `k-1` is accepted; `listItems` finds nothing for `none`, `addItem`
/// answers the item it is given.
struct Items;

impl Authenticator for Items {
    type Principal = String;
    async fn authenticate(&self, credential: Credential<'_>) -> Result<String, ApiError> {
        match credential.secret {
            Secret::ApiKey("k-1") => Ok("k-1".to_owned()),
            _ => Err(ApiError::unauthorized("the key is not known")),
        }
    }
}

async fn start() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = RouterBuilder::new(Items)
        .list_items(|_, _: Context<String>, request: ListItemsRequest| async move {
            match request.q.as_str() {
                "none" => Err(ApiError::not_found("no item matches `none`")),
                _ => Ok(Vec::new()),
            }
        })
        .add_item(|_, _: Context<String>, request: AddItemRequest| async move { Ok(request.body) })
        .build()
        .unwrap();
    tokio::spawn(apigen_runtime::listener::serve(listener, app, Default::default()));
    format!("http://{address}")
}

/// The status, `Content-Type` and body of a request.
async fn answer(request: apigen_runtime::client::reqwest::RequestBuilder) -> (u16, String, String) {
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let media = response.headers()["content-type"].to_str().unwrap().to_owned();
    (status, media, response.text().await.unwrap())
}

fn http() -> apigen_runtime::client::reqwest::Client {
    errstatus_client::http_client_builder().build().unwrap()
}

#[tokio::test]
async fn a_400_is_written_as_the_list_of_errors_the_operation_declares_for_it() {
    let base = start().await;
    let too_long = http().get(format!("{base}/items?q=far-too-long")).header("X-Key", "k-1");
    assert_eq!(
        answer(too_long).await,
        (
            400,
            "application/json".to_owned(),
            r#"{"errors":[{"field":"query.q","message":"must be at most 8 characters long (found 12)"}]}"#.to_owned()
        )
    );
    // A body that is not an object: the violation names the body's root.
    let not_an_object = http()
        .post(format!("{base}/items"))
        .header("X-Key", "k-1")
        .header("content-type", "application/json")
        .body("[1]");
    assert_eq!(
        answer(not_an_object).await.2,
        r#"{"errors":[{"field":"","message":"expected an object, found an array"}]}"#
    );
}

#[tokio::test]
async fn a_401_carries_the_first_code_the_document_lists_for_that_status() {
    let base = start().await;
    assert_eq!(
        answer(http().get(format!("{base}/items?q=a"))).await,
        (
            401,
            "application/json".to_owned(),
            r#"{"error":"invalid_authentication","error_description":"missing credentials: send the header `X-Key`"}"#
                .to_owned()
        )
    );
    let refused = http().get(format!("{base}/items?q=a")).header("X-Key", "k-2");
    assert_eq!(
        answer(refused).await.2,
        r#"{"error":"invalid_authentication","error_description":"the key is not known"}"#
    );
}

#[tokio::test]
async fn a_body_without_a_free_message_is_still_written_whole_and_valid() {
    let base = start().await;
    // The handler's 404: the document's 404 is two enumerations, each written with its first value.
    let none = http().get(format!("{base}/items?q=none")).header("X-Key", "k-1");
    assert_eq!(
        answer(none).await,
        (
            404,
            "application/json".to_owned(),
            r#"{"error":"record_not_found","errorDescription":"No record found"}"#.to_owned()
        )
    );
    // A status the operation gives no body (415): the built-in body.
    let text =
        http().post(format!("{base}/items")).header("X-Key", "k-1").header("content-type", "text/plain").body("x");
    let (status, _, body) = answer(text).await;
    assert_eq!(status, 415);
    assert!(body.starts_with(r#"{"error":{"code":415,"message":"#), "{body}");
    // And a success is untouched.
    let found = http().get(format!("{base}/items?q=a")).header("X-Key", "k-1");
    assert_eq!(answer(found).await, (200, "application/json".to_owned(), "[]".to_owned()));
}

#[test]
fn the_fixture_declares_the_error_bodies_the_import_finds_in_the_document() {
    let text = std::fs::read_to_string("fixtures/openapi/errors-per-status-3.0.json").unwrap();
    let document: serde_json::Value = serde_json::from_str(&text).unwrap();
    let imported = apigen::import::import(&document, "errors-per-status-3.0.json").unwrap();
    for (name, written) in &imported.files {
        let fixture = std::fs::read_to_string(format!("fixtures/valid/errstatus/{name}")).unwrap();
        // The fixture's own comment first, then what the import writes (named `errstatus`).
        let fixture: String = fixture.lines().skip_while(|l| l.starts_with('#')).map(|l| format!("{l}\n")).collect();
        assert_eq!(fixture.replace("name: errstatus", "name: errors-per-status-3-0"), *written, "{name}");
    }
}

#[tokio::test]
async fn the_client_reads_each_statuss_error_from_that_statuss_body() {
    use errstatus_client::{Client, Error, RetryPolicy};
    let base = start().await;
    let client = |key: &str| Client::builder(&base).api_key(key).retry(RetryPolicy::none()).build().unwrap();
    // 400: the list of errors; the first item's message is the message, each item a violation.
    let error = client("k-1").items().list("far-too-long").send().await.unwrap_err();
    let Error::Api { status, message, violations, .. } = &error else { panic!("{error:?}") };
    assert_eq!((*status, message.as_str()), (400, "must be at most 8 characters long (found 12)"));
    assert_eq!(violations.len(), 1);
    assert_eq!(violations[0].path, "query.q");
    let decoded = error.body_as::<errstatus_client::types::ErrorBody400>().expect("the 400's own type");
    assert_eq!(decoded.errors[0].field.as_deref(), Some("query.q"));
    // 401: the message where the 401's body holds it, not the raw JSON.
    let error = client("k-2").items().list("a").send().await.unwrap_err();
    let Error::Api { status, message, .. } = &error else { panic!("{error:?}") };
    assert_eq!((*status, message.as_str()), (401, "the key is not known"));
    // 404: a body without a message: the raw text stands for it.
    let error = client("k-1").items().list("none").send().await.unwrap_err();
    let Error::Api { status, message, .. } = &error else { panic!("{error:?}") };
    assert_eq!(
        (*status, message.as_str()),
        (404, r#"{"error":"record_not_found","errorDescription":"No record found"}"#)
    );
}
