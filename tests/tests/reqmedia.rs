//! A request body offered in several media types (`tests/fixtures/valid/reqmedia`, spec key
//! `body.alternatives`, issue 48): `placeOrder` takes an order as JSON, as a multipart form
//! with its receipt, or as raw XML; `importItems` a list as JSON or as raw bytes. The client
//! sends each alternative in its media type; the server tells them apart by `Content-Type`,
//! reads and validates each as its own body (the API's error body naming each violation) and
//! hands the handler the variant that came; a media type no alternative lists answers 415.

use apigen_runtime::{Bytes, FilePart};
use reqmedia_client::{AttachReceiptContentType, Client, RetryPolicy};
use reqmedia_server::types::{
    AttachReceiptContent, AttachReceiptMultipartFormDataBody, ImportItemsContent, NoteOrderBody, NoteOrderContent,
    Order, PlaceOrderContent, PlaceOrderMultipartFormDataBody, Placed, RenameOrderContent,
};
use reqmedia_server::{
    Anonymous, ApiError, AttachReceiptRequest, Authenticator, Context, Credential, ImportItemsRequest,
    NoteOrderRequest, PlaceOrderRequest, RenameOrderRequest, RouterBuilder,
};

struct Public;

impl Authenticator for Public {
    type Principal = String;
    async fn authenticate(&self, _: Credential<'_>) -> Result<String, ApiError> {
        Err(ApiError::unauthorized("every operation is public"))
    }
}

/// What a handler received, in words: the variant and what it held.
fn told(content: &PlaceOrderContent) -> String {
    match content {
        PlaceOrderContent::ApplicationJson(order) => format!("json {} x{}", order.item, order.quantity),
        PlaceOrderContent::MultipartFormData(form) => {
            let receipt = form.receipt.as_ref().map(|f| (f.file_name.clone(), f.bytes.len()));
            format!("form {} x{} receipt {receipt:?}", form.item, form.quantity)
        }
        PlaceOrderContent::ApplicationXml(text) => format!("xml {text}"),
    }
}

/// The service: each handler answers which alternative it received and what it held.
async fn start() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = RouterBuilder::new(Public)
        .place_order(|_, _: Context<Anonymous>, request: PlaceOrderRequest| async move {
            Ok(Placed { how: told(&request.body) })
        })
        .import_items(|_, _: Context<Anonymous>, request: ImportItemsRequest| async move {
            let how = match request.body {
                ImportItemsContent::ApplicationJson(items) => format!("json {} items", items.len()),
                ImportItemsContent::ApplicationOctetStream(bytes) => format!("bytes {:?}", bytes.as_ref()),
            };
            Ok(Placed { how })
        })
        .attach_receipt(|_, _: Context<Anonymous>, request: AttachReceiptRequest| async move {
            let how = match request.body {
                AttachReceiptContent::ImagePng(bytes) => format!("bytes {:?}", bytes.as_ref()),
                AttachReceiptContent::MultipartFormData(form) => {
                    format!("form {} {}", form.name, form.scan.bytes.len())
                }
            };
            Ok(Placed { how })
        })
        .rename_order(|_, _: Context<Anonymous>, request: RenameOrderRequest| async move {
            let how = match request.body {
                RenameOrderContent::ApplicationJson(name) => format!("json {name}"),
                RenameOrderContent::ApplicationXml(xml) => format!("xml {xml}"),
            };
            Ok(Placed { how })
        })
        .note_order(|_, _: Context<Anonymous>, request: NoteOrderRequest| async move {
            let how = match request.body {
                None => "no note".to_owned(),
                Some(NoteOrderContent::ApplicationJson(body)) => format!("json {:?}", body.note),
                Some(NoteOrderContent::TextPlain(text)) => format!("text {text}"),
            };
            Ok(Placed { how: format!("{} {how}", request.id) })
        })
        .build();
    tokio::spawn(apigen_runtime::listener::serve(listener, app.unwrap(), Default::default()));
    format!("http://{address}")
}

fn client(base: &str) -> Client {
    Client::builder(base).retry(RetryPolicy::none()).build().unwrap()
}

fn order(item: &str, quantity: i64) -> Order {
    Order { item: item.into(), quantity }
}

/// Posts `body` as `content_type` and returns the status and the answer's text.
async fn send(base: &str, method: &str, path: &str, content_type: &str, body: Vec<u8>) -> (u16, String) {
    let http = reqmedia_client::http_client_builder().build().unwrap();
    let method = method.parse().unwrap();
    let response = http
        .request(method, format!("{base}{path}"))
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

#[tokio::test]
async fn each_alternative_reaches_the_handler_as_its_own_variant() {
    let base = start().await;
    let orders = client(&base);
    // JSON, the body's own media type; the order converts into its variant.
    let placed = orders.orders().place(order("pen", 2)).send().await.unwrap();
    assert_eq!(placed.how, "json pen x2");
    // The multipart form, its receipt a file part.
    let receipt = FilePart::new("receipt.png", "image/png", Bytes::from_static(b"\x89PNG-scan"));
    let form = PlaceOrderMultipartFormDataBody { item: "ink".into(), quantity: 3, receipt: Some(receipt) };
    let placed = orders.orders().place(form).send().await.unwrap();
    assert_eq!(placed.how, r#"form ink x3 receipt Some((Some("receipt.png"), 9))"#);
    // XML, handed over as the text it is.
    let xml = "<order><item>tea</item></order>";
    let placed = orders.orders().place(PlaceOrderContent::ApplicationXml(xml.into())).send().await.unwrap();
    assert_eq!(placed.how, format!("xml {xml}"));
    // A list as JSON, or the same operation's raw bytes.
    let items = orders.orders().import_items(vec![order("pen", 1), order("ink", 1)]).send().await.unwrap();
    assert_eq!(items.how, "json 2 items");
    let raw = orders.orders().import_items(Bytes::from_static(b"\x00\x01export")).send().await.unwrap();
    assert_eq!(raw.how, r#"bytes [0, 1, 101, 120, 112, 111, 114, 116]"#);
}

#[tokio::test]
async fn each_alternative_travels_in_its_media_type_and_is_read_by_content_type() {
    let base = start().await;
    // Each of the XML alternative's media types, by essence (parameters and case aside).
    let xml = b"<order/>".to_vec();
    for content_type in ["application/xml", "text/xml", "Text/XML; charset=utf-8"] {
        assert_eq!(
            send(&base, "POST", "/orders", content_type, xml.clone()).await,
            (201, r#"{"how":"xml <order/>"}"#.to_owned()),
            "{content_type}"
        );
    }
    let boundary = "b0undary";
    let form = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"item\"\r\n\r\ncup\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"quantity\"\r\n\r\n4\r\n--{boundary}--\r\n"
    );
    assert_eq!(
        send(&base, "POST", "/orders", &format!("multipart/form-data; boundary={boundary}"), form.into_bytes()).await,
        (201, r#"{"how":"form cup x4 receipt None"}"#.to_owned())
    );
    assert_eq!(
        send(&base, "PUT", "/items", "application/octet-stream", b"raw".to_vec()).await,
        (200, r#"{"how":"bytes [114, 97, 119]"}"#.to_owned())
    );
}

#[tokio::test]
async fn a_media_type_no_alternative_lists_is_refused_with_415_naming_every_one() {
    let base = start().await;
    assert_eq!(
        send(&base, "POST", "/orders", "text/plain", b"pen".to_vec()).await,
        (
            415,
            r#"{"error":{"code":415,"message":"the body must be sent as one of: application/json, multipart/form-data, application/xml, text/xml"}}"#
                .to_owned()
        )
    );
    assert_eq!(
        send(&base, "PUT", "/items", "application/xml", b"<items/>".to_vec()).await,
        (
            415,
            r#"{"error":{"code":415,"message":"the body must be sent as one of: application/json, application/octet-stream"}}"#
                .to_owned()
        )
    );
}

#[tokio::test]
async fn each_alternative_is_validated_as_its_own_body() {
    let base = start().await;
    // A violation inside the form alternative is named by its field.
    let boundary = "b0undary";
    let form = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"item\"\r\n\r\nfountain pen\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"quantity\"\r\n\r\n0\r\n--{boundary}--\r\n"
    );
    let (status, body) =
        send(&base, "POST", "/orders", &format!("multipart/form-data; boundary={boundary}"), form.into_bytes()).await;
    assert_eq!(status, 400);
    assert_eq!(
        body,
        r#"{"error":{"code":400,"message":"the request is invalid","violations":[{"path":"/item","message":"must be at most 8 characters long (found 12)"},{"path":"/quantity","message":"must be at least 1 (found 0)"}]}}"#
    );
    // The JSON alternative is still checked as JSON.
    let (status, body) =
        send(&base, "POST", "/orders", "application/json", br#"{"item":"pen","quantity":0}"#.to_vec()).await;
    assert_eq!(status, 400);
    assert_eq!(
        body,
        r#"{"error":{"code":400,"message":"the request is invalid","violations":[{"path":"/quantity","message":"must be at least 1 (found 0)"}]}}"#
    );
    // Nothing sent is a missing body, whatever the alternatives.
    let http = reqmedia_client::http_client_builder().build().unwrap();
    let response = http.post(format!("{base}/orders")).send().await.unwrap();
    assert_eq!(response.status(), 400);
    assert_eq!(
        response.text().await.unwrap(),
        r#"{"error":{"code":400,"message":"the request is invalid","violations":[{"path":"","message":"a JSON body is required"}]}}"#
    );
    // The client checks a form before sending it, as it checks JSON.
    let form = PlaceOrderMultipartFormDataBody { item: "pen".into(), quantity: 0, receipt: None };
    let refused = client(&base).orders().place(form).send().await.unwrap_err();
    assert!(refused.to_string().contains("quantity"), "{refused}");
}

#[tokio::test]
async fn an_optional_body_with_alternatives_is_absent_or_one_of_them() {
    let base = start().await;
    let orders = client(&base);
    assert_eq!(orders.orders().note("o-1").send().await.unwrap().how, "o-1 no note");
    let json = NoteOrderBody { note: Some("fragile".into()) };
    assert_eq!(orders.orders().note("o-1").body(json).send().await.unwrap().how, r#"o-1 json Some("fragile")"#);
    let text = NoteOrderContent::TextPlain("ring twice".into());
    assert_eq!(orders.orders().note("o-1").body(text).send().await.unwrap().how, "o-1 text ring twice");
    assert_eq!(
        send(&base, "PATCH", "/orders/o-2", "text/plain; charset=utf-8", b"leave it".to_vec()).await,
        (200, r#"{"how":"o-2 text leave it"}"#.to_owned())
    );
}

#[tokio::test]
async fn a_raw_body_with_alternatives_is_read_whole_in_each_of_its_media_types() {
    let base = start().await;
    let orders = client(&base);
    let receipt = orders
        .orders()
        .attach_receipt("o-1", Bytes::from_static(b"%PDF-1"))
        .content_type(AttachReceiptContentType::ApplicationPdf);
    assert_eq!(receipt.send().await.unwrap().how, "bytes [37, 80, 68, 70, 45, 49]");
    assert_eq!(
        orders.orders().attach_receipt("o-1", Bytes::from_static(b"pn")).send().await.unwrap().how,
        "bytes [112, 110]"
    );
    // Each raw media type reaches the raw variant; another is refused.
    assert_eq!(
        send(&base, "PUT", "/orders/o-1/receipt", "application/pdf", b"%".to_vec()).await,
        (200, r#"{"how":"bytes [37]"}"#.to_owned())
    );
    assert_eq!(send(&base, "PUT", "/orders/o-1/receipt", "image/jpeg", b"%".to_vec()).await.0, 415);
    let scan = FilePart::new("r.png", "image/png", Bytes::from_static(b"png!"));
    let form = AttachReceiptMultipartFormDataBody { name: "march".into(), scan };
    assert_eq!(orders.orders().attach_receipt("o-1", form).send().await.unwrap().how, "form march 4");
}

#[tokio::test]
async fn two_alternatives_holding_text_are_told_apart_by_their_variant() {
    let base = start().await;
    let orders = client(&base);
    let json = orders.orders().rename("o-1", RenameOrderContent::ApplicationJson("Ada's".into()));
    assert_eq!(json.send().await.unwrap().how, "json Ada's");
    let xml = orders.orders().rename("o-1", RenameOrderContent::ApplicationXml("<name/>".into()));
    assert_eq!(xml.send().await.unwrap().how, "xml <name/>");
    assert_eq!(
        send(&base, "POST", "/orders/o-1/name", "application/json", br#""Bo""#.to_vec()).await,
        (200, r#"{"how":"json Bo"}"#.to_owned())
    );
}
