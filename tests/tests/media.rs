//! Bodies other than JSON on the wire, through the generated server and client of a spec that
//! is not this repository's (`tests/fixtures/valid/files`): raw bytes streamed both ways, a
//! form that also takes JSON and is validated like it, a multipart upload of two files and a
//! field, a multipart upload of an object (one JSON part) and N files (a part each), CSV and plain text, a document rendered as PDF or Markdown by `Accept`, and the
//! 415 and 406 the router answers for media types an operation does not take or give, and an
//! answer declared only as a range (`image/*`) in the concrete type its handler chooses.

use apigen_runtime::Bytes;
use apigen_runtime::client::CallBody;
use files_client::{Client, CreateChargeContentType, Error, RenderDocumentAccept, RetryPolicy, Upload};
use files_server::types::{
    AttachmentUpload, Attachments, Blob, BundleMeta, BundleOwner, BundleUpload, Charge, ChargeForm, Currency,
    QuoteForm, Stored,
};
use files_server::{
    ApiError, Authenticator, BlobsApi, Context, CreateChargeRequest, Credential, EchoNoteRequest, ExportChargesRequest,
    FormsApi, GetBlobRequest, GetThumbnailRequest, PutBlobRequest, QuoteChargeRequest, RenderDocumentRequest, Secret,
    ServerConfig, UploadAttachmentsRequest, UploadBundleRequest,
};
use futures_util::StreamExt;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// The service: blobs and charges in memory.
#[derive(Default, Clone)]
struct Store {
    blobs: Arc<Mutex<BTreeMap<String, Bytes>>>,
    charges: Arc<Mutex<Vec<Charge>>>,
}

impl Authenticator for Store {
    type Principal = ();

    async fn authenticate(&self, credential: Credential<'_>) -> Result<(), ApiError> {
        match credential.secret {
            Secret::Bearer("tok") => Ok(()),
            _ => Err(ApiError::unauthorized("unknown token")),
        }
    }
}

/// The sum of `bytes` modulo 2^32, the fixture's stand-in for a digest.
fn checksum(bytes: &[u8]) -> i64 {
    bytes.iter().fold(0u32, |sum, b| sum.wrapping_add(u32::from(*b))).into()
}

impl BlobsApi for Store {
    async fn put_blob(&self, _: Context<()>, request: PutBlobRequest) -> Result<Blob, ApiError> {
        // Read chunk by chunk, as a service writing to disk would.
        let mut body = request.body;
        let mut stored = Vec::new();
        while let Some(chunk) = body.next().await {
            stored.extend_from_slice(&chunk?);
        }
        let blob = Blob { name: request.name.clone(), size: stored.len() as i64, checksum: checksum(&stored) };
        self.blobs.lock().unwrap().insert(request.name, Bytes::from(stored));
        Ok(blob)
    }

    async fn get_blob(&self, _: Context<()>, request: GetBlobRequest) -> Result<files_server::Download, ApiError> {
        let blob = self.blobs.lock().unwrap().get(&request.name).cloned();
        let blob = blob.ok_or_else(|| ApiError::not_found("no such blob"))?;
        // Answered as a stream of 64 KiB chunks.
        let chunks: Vec<Result<Bytes, std::io::Error>> =
            blob.chunks(64 * 1024).map(|c| Ok(blob.slice_ref(c))).collect();
        Ok(files_server::Download::stream(futures_util::stream::iter(chunks)))
    }

    async fn get_thumbnail(
        &self,
        _: Context<()>,
        request: GetThumbnailRequest,
    ) -> Result<files_server::Download, ApiError> {
        // The image type follows the name; `.txt` is a handler's bug, a type outside `image/*`.
        let thumbnail = files_server::Download::bytes(format!("thumb of {}", request.name));
        Ok(match request.name.rsplit_once('.').map(|(_, extension)| extension) {
            Some("webp") => thumbnail.content_type("image/webp"),
            Some("txt") => thumbnail.content_type("text/plain"),
            _ => thumbnail,
        })
    }

    async fn render_document(
        &self,
        context: Context<()>,
        request: RenderDocumentRequest,
    ) -> Result<files_server::Download, ApiError> {
        let rendered = match context.media_type() {
            "application/pdf" => format!("%PDF-1.7\n% {}\n%%EOF\n", request.id),
            _ => format!("# {}\n", request.id),
        };
        Ok(files_server::Download::bytes(rendered))
    }
}

impl FormsApi for Store {
    async fn quote_charge(&self, _: Context<()>, request: QuoteChargeRequest) -> Result<i64, ApiError> {
        Ok(request.body.map_or(0, |form| form.amount / 100))
    }

    async fn create_charge(&self, _: Context<()>, request: CreateChargeRequest) -> Result<Charge, ApiError> {
        let mut charges = self.charges.lock().unwrap();
        let form = request.body;
        let charge = Charge {
            id: format!("ch_{}", charges.len() + 1),
            amount: form.amount,
            currency: form.currency,
            tags: form.tags.unwrap_or_default(),
        };
        charges.push(charge.clone());
        Ok(charge)
    }

    async fn upload_attachments(
        &self,
        _: Context<()>,
        request: UploadAttachmentsRequest,
    ) -> Result<Attachments, ApiError> {
        let upload = request.body;
        let stored = |field: &str, file: &files_server::FilePart| Stored {
            field: field.into(),
            file_name: file.file_name.clone(),
            content_type: file.content_type.clone(),
            size: file.bytes.len() as i64,
        };
        let mut files = vec![stored("document", &upload.document)];
        files.extend(upload.preview.as_ref().map(|p| stored("preview", p)));
        // The caller's own counts (`extra`), when any, follow the title.
        let extra: Vec<String> = upload.extra.iter().map(|(name, count)| format!("{name}={count}")).collect();
        let title = if extra.is_empty() { upload.title } else { format!("{} +{}", upload.title, extra.join(",")) };
        Ok(Attachments { title, files })
    }

    async fn upload_bundle(&self, _: Context<()>, request: UploadBundleRequest) -> Result<Attachments, ApiError> {
        let upload = request.body;
        let owners: Vec<String> = upload.owners.unwrap_or_default().iter().map(|o| o.id.to_string()).collect();
        let title = format!(
            "{} ({} pages; {}; owners {})",
            upload.meta.title,
            upload.meta.pages.unwrap_or(0),
            upload.labels.unwrap_or_default().join(","),
            owners.join(",")
        );
        let files = upload
            .files
            .iter()
            .map(|file| Stored {
                field: "files".into(),
                file_name: file.file_name.clone(),
                content_type: file.content_type.clone(),
                size: file.bytes.len() as i64,
            })
            .collect();
        Ok(Attachments { title, files })
    }

    async fn export_charges(&self, _: Context<()>, _: ExportChargesRequest) -> Result<String, ApiError> {
        let mut csv = String::from("id,amount,currency\n");
        for charge in self.charges.lock().unwrap().iter() {
            csv.push_str(&format!("{},{},{}\n", charge.id, charge.amount, charge.currency.as_str()));
        }
        Ok(csv)
    }

    async fn echo_note(&self, _: Context<()>, request: EchoNoteRequest) -> Result<String, ApiError> {
        Ok(request.body.to_uppercase())
    }
}

async fn start_with(config: ServerConfig) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let router = files_server::router_with(Store::default(), config);
    tokio::spawn(apigen_runtime::listener::serve(listener, router, Default::default()));
    format!("http://{address}")
}

async fn start() -> String {
    start_with(ServerConfig::default()).await
}

fn client(base: &str) -> Client {
    Client::builder(base).bearer("tok").retry(RetryPolicy::none()).build().unwrap()
}

fn http() -> apigen_runtime::client::reqwest::Client {
    files_client::http_client_builder().build().unwrap()
}

/// Sends `request` and returns the status, the `Content-Type` and the body as JSON.
async fn answer(request: apigen_runtime::client::reqwest::RequestBuilder) -> (u16, String, Value) {
    let response = request.bearer_auth("tok").send().await.unwrap();
    let status = response.status().as_u16();
    let content_type = response.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned());
    let bytes = response.bytes().await.unwrap();
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, content_type.unwrap_or_default(), body)
}

#[tokio::test]
async fn a_blob_streams_up_from_a_stream_and_down_in_chunks() {
    let base = start().await;
    let client = client(&base);
    // 5 MiB, more than the 2 MiB limit on bodies read into memory, sent in 256 chunks.
    let data: Vec<u8> = (0..5 * 1024 * 1024u32).map(|i| (i % 251) as u8).collect();
    let chunks: Vec<Result<Bytes, std::io::Error>> =
        data.chunks(20 * 1024).map(|c| Ok(Bytes::copy_from_slice(c))).collect();
    let upload = Upload::stream(futures_util::stream::iter(chunks));
    let blob = client.blobs().put("big.bin", upload).send().await.unwrap();
    assert_eq!(blob, Blob { name: "big.bin".into(), size: data.len() as i64, checksum: checksum(&data) });

    let mut download = client.blobs().get("big.bin").send().await.unwrap();
    assert_eq!(download.content_type(), Some("application/octet-stream"));
    let (mut received, mut chunks) = (Vec::new(), 0);
    while let Some(chunk) = download.chunk().await.unwrap() {
        received.extend_from_slice(&chunk);
        chunks += 1;
    }
    assert_eq!(received, data);
    assert!(chunks > 1, "the download arrived in {chunks} chunk(s)");

    // A missing blob is the API's error, not a download.
    let error = client.blobs().get("nothing").send().await.unwrap_err();
    assert!(matches!(&error, Error::Api { status: 404, .. }), "{error:?}");
}

#[tokio::test]
async fn a_required_raw_body_sent_as_nothing_is_refused_and_an_empty_file_is_a_body() {
    let base = start().await;
    let (status, _, body) = answer(http().put(format!("{base}/blobs/a"))).await;
    let expected = json!({"code": 400, "message": "the request is invalid", "violations": [{"path": "", "message": "a body is required"}]});
    assert_eq!((status, &body["error"]), (400, &expected));
    let (status, _, body) =
        answer(http().put(format!("{base}/blobs/a")).header("content-type", "application/octet-stream")).await;
    assert_eq!((status, &body["size"]), (201, &json!(0)));
    let blob = client(&base).blobs().put("b", Vec::new()).send().await.unwrap();
    assert_eq!(blob.size, 0);
}

#[tokio::test]
async fn a_required_form_sent_as_nothing_is_refused_as_missing_not_read_field_by_field() {
    let base = start().await;
    let (status, _, body) = answer(http().post(format!("{base}/attachments"))).await;
    let expected = json!({"code": 400, "message": "the request is invalid", "violations": [{"path": "", "message": "a form body is required"}]});
    assert_eq!((status, &body["error"]), (400, &expected));
    // Sent, but without its fields: each is named.
    let (status, _, body) = answer(
        http()
            .post(format!("{base}/attachments"))
            .header("content-type", "multipart/form-data; boundary=x")
            .body("--x--\r\n"),
    )
    .await;
    let paths: Vec<&str> =
        body["error"]["violations"].as_array().unwrap().iter().map(|v| v["path"].as_str().unwrap()).collect();
    assert_eq!((status, paths), (400, vec!["/title", "/document"]));
}

#[tokio::test]
async fn a_streamed_upload_past_the_limit_is_refused_413_before_or_while_it_streams() {
    let base = start_with(ServerConfig { upload_limit: 1000, ..Default::default() }).await;
    // Declared too large: refused from `Content-Length`, before the body is read.
    let (status, _, body) = answer(
        http().put(format!("{base}/blobs/a")).header("content-type", "application/octet-stream").body(vec![0u8; 1001]),
    )
    .await;
    assert_eq!((status, &body["error"]["message"]), (413, &json!("the body is larger than 1000 bytes")));
    // Streamed without a length: the handler's stream ends with the 413.
    let chunks: Vec<Result<Bytes, std::io::Error>> = (0..4).map(|_| Ok(Bytes::from(vec![1u8; 400]))).collect();
    let error = client(&base).blobs().put("a", Upload::stream(futures_util::stream::iter(chunks))).send().await;
    assert!(matches!(&error, Err(Error::Api { status: 413, .. })), "{error:?}");
    // Within the limit, the same way, it is stored.
    let blob = client(&base).blobs().put("a", vec![7u8; 1000]).send().await.unwrap();
    assert_eq!(blob.size, 1000);
}

#[tokio::test]
async fn an_optional_form_sent_as_nothing_is_absent_and_one_sent_is_checked() {
    let base = start().await;
    let client = client(&base);
    assert_eq!(client.forms().quote_charge().send().await.unwrap(), 0);
    assert_eq!(client.forms().quote_charge().body(QuoteForm { amount: 1200 }).send().await.unwrap(), 12);
    let form = |body: &'static str| {
        http()
            .post(format!("{base}/charges/quote"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
    };
    assert_eq!(answer(http().post(format!("{base}/charges/quote"))).await, (200, "application/json".into(), json!(0)));
    let (status, _, body) = answer(form("amount=0")).await;
    assert_eq!((status, &body["error"]["violations"][0]["path"]), (400, &json!("/amount")));
    // A form given without its required field is not absent.
    let (status, _, body) = answer(form("other=1")).await;
    assert_eq!((status, &body["error"]["violations"][0]["path"]), (400, &json!("/amount")));
}

#[tokio::test]
async fn a_form_is_validated_like_json_and_the_client_sends_either() {
    let base = start().await;
    let client = client(&base);
    let form = ChargeForm {
        amount: 1250,
        currency: Currency::Eur,
        tags: Some(vec!["a".into(), "b".into()]),
        description: None,
    };
    let charge = client.forms().create_charge(form.clone()).send().await.unwrap();
    assert_eq!(charge.tags, ["a", "b"], "repeated keys are a list");
    let as_json =
        client.forms().create_charge(form).content_type(CreateChargeContentType::ApplicationJson).send().await.unwrap();
    assert_eq!((charge.id.as_str(), as_json.id.as_str()), ("ch_1", "ch_2"));

    // On the wire: the form the client sends, and every violation of a bad one at once.
    let call = client.forms().create_charge(ChargeForm {
        amount: 5,
        currency: Currency::Usd,
        tags: Some(vec!["x y".into()]),
        description: None,
    });
    match call.call().unwrap().body {
        Some(CallBody::Raw { content_type, bytes }) => {
            assert_eq!(content_type, "application/x-www-form-urlencoded");
            assert_eq!(bytes, "amount=5&currency=usd&tags=x+y");
        }
        other => panic!("a form, not {other:?}"),
    }
    let bad = "amount=0&currency=gbp&tags=1&tags=2&tags=3&tags=4&extra=1";
    let (status, content_type, body) = answer(
        http().post(format!("{base}/charges")).header("content-type", "application/x-www-form-urlencoded").body(bad),
    )
    .await;
    assert_eq!((status, content_type.as_str()), (400, "application/json"));
    let violations: Vec<(String, String)> = body["error"]["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["path"].as_str().unwrap().to_owned(), v["message"].as_str().unwrap().to_owned()))
        .collect();
    let expected = [
        ("/amount", "must be at least 1 (found 0)"),
        ("/currency", "\"gbp\" is not one of: eur, usd"),
        ("/tags", "must hold at most 3 items (found 4)"),
        ("/extra", "is not a field of this form"),
    ];
    let expected: Vec<(String, String)> = expected.iter().map(|(p, m)| (p.to_string(), m.to_string())).collect();
    assert_eq!(violations, expected);
}

#[tokio::test]
async fn a_multipart_upload_carries_two_files_and_a_field() {
    let base = start().await;
    let client = client(&base);
    let upload = AttachmentUpload {
        title: "Quarterly report".into(),
        document: files_client::FilePart::new("report.pdf", "application/pdf", &b"%PDF-1.7 ..."[..]),
        preview: Some(files_client::FilePart::new("cover.png", "image/png", vec![0x89, b'P', b'N', b'G'])),
        extra: Default::default(),
    };
    let stored = client.forms().upload_attachments(upload).send().await.unwrap();
    let expected = Attachments {
        title: "Quarterly report".into(),
        files: vec![
            Stored {
                field: "document".into(),
                file_name: Some("report.pdf".into()),
                content_type: Some("application/pdf".into()),
                size: 12,
            },
            Stored {
                field: "preview".into(),
                file_name: Some("cover.png".into()),
                content_type: Some("image/png".into()),
                size: 4,
            },
        ],
    };
    assert_eq!(stored, expected);

    // Without the required file, or with an empty title: named like a JSON body's problems
    // (constraints are checked once every field is there with its type, as for JSON).
    let missing = "--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nT\r\n--b--\r\n";
    let empty_title = "--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\n\r\n--b\r\n\
        Content-Disposition: form-data; name=\"document\"; filename=\"a.txt\"\r\n\r\nA\r\n--b--\r\n";
    let mut problems = Vec::new();
    for body in [missing, empty_title] {
        let request =
            http().post(format!("{base}/attachments")).header("content-type", "multipart/form-data; boundary=b");
        let (status, _, answer) = answer(request.body(body)).await;
        problems.push((status, answer["error"]["violations"].clone()));
    }
    assert_eq!(
        problems,
        [
            (400, json!([{"path": "/document", "message": "is required (a file)"}])),
            (400, json!([{"path": "/title", "message": "must be at least 1 characters long (found 0)"}])),
        ]
    );
}

#[tokio::test]
async fn a_part_of_declared_media_types_is_sent_in_one_and_refused_415_in_another() {
    let base = start().await;
    let client = client(&base);
    let upload = |preview: files_client::FilePart| AttachmentUpload {
        title: "T".into(),
        document: files_client::FilePart::new("a.pdf", "application/pdf", &b"%PDF"[..]),
        preview: Some(preview),
        extra: Default::default(),
    };
    // The file's own type when the declared ones take it; else the first declared (never
    // `text/plain`, which the document refuses); none given: the first too.
    let mut sent = Vec::new();
    for own in [Some("image/jpeg"), Some("text/plain"), None] {
        let preview = files_client::FilePart {
            file_name: Some("p".into()),
            content_type: own.map(Into::into),
            bytes: Bytes::from_static(b"img"),
        };
        let stored = client.forms().upload_attachments(upload(preview)).send().await.unwrap();
        sent.push(stored.files[1].content_type.clone());
    }
    assert_eq!(sent, [Some("image/jpeg".into()), Some("image/png".into()), Some("image/png".into())]);

    // The server refuses a part in a type the encoding does not allow: 415, naming the part.
    let part = |head: &str| {
        format!(
            "--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nT\r\n--b\r\n\
             Content-Disposition: form-data; name=\"document\"; filename=\"a.pdf\"\r\n\r\nA\r\n--b\r\n\
             Content-Disposition: form-data; name=\"preview\"; filename=\"p\"\r\n{head}\r\nP\r\n--b--\r\n"
        )
    };
    let mut answers = Vec::new();
    for head in ["Content-Type: text/plain\r\n", "", "Content-Type: IMAGE/JPEG\r\n"] {
        let request =
            http().post(format!("{base}/attachments")).header("content-type", "multipart/form-data; boundary=b");
        let (status, _, body) = answer(request.body(part(head))).await;
        answers.push((status, body["error"]["message"].clone()));
    }
    assert_eq!(
        answers,
        [
            (
                415,
                json!("the part `preview` must be sent as one of: image/png, image/jpeg; it was sent as `text/plain`")
            ),
            (
                415,
                json!(
                    "the part `preview` must be sent as one of: image/png, image/jpeg; it was sent without `Content-Type` (read as `text/plain`)"
                )
            ),
            (201, Value::Null),
        ]
    );
}

#[tokio::test]
async fn a_multipart_forms_undeclared_parts_beside_files_reach_extra_typed_both_ways() {
    let base = start().await;
    let client = client(&base);
    let upload = AttachmentUpload {
        title: "T".into(),
        document: files_client::FilePart::new("a.pdf", "application/pdf", &b"%PDF"[..]),
        preview: None,
        extra: [("pages".to_owned(), 3), ("copies".to_owned(), 2)].into_iter().collect(),
    };
    let stored = client.forms().upload_attachments(upload).send().await.unwrap();
    assert_eq!(stored.title, "T +copies=2,pages=3");
    // Each extra is checked as its type (`integer`), named by its part.
    let body = "--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nT\r\n--b\r\n\
        Content-Disposition: form-data; name=\"document\"; filename=\"a.pdf\"\r\n\r\nA\r\n--b\r\n\
        Content-Disposition: form-data; name=\"pages\"\r\n\r\nmany\r\n--b--\r\n";
    let request = http().post(format!("{base}/attachments")).header("content-type", "multipart/form-data; boundary=b");
    let (status, _, answer) = answer(request.body(body)).await;
    assert_eq!(status, 400);
    assert_eq!(
        answer["error"]["violations"],
        json!([{"path": "/pages", "message": "expected an integer, found \"many\""}])
    );
}

#[tokio::test]
async fn a_multipart_object_is_one_json_part_and_a_list_of_files_a_part_each_both_ways() {
    let base = start().await;
    let client = client(&base);
    let upload = BundleUpload {
        meta: BundleMeta { title: "Q3".into(), pages: Some(12) },
        labels: Some(vec!["a".into(), "b".into()]),
        owners: Some(vec![BundleOwner { id: 7 }, BundleOwner { id: 8 }]),
        files: vec![
            files_client::FilePart::new("one.pdf", "application/pdf", &b"%PDF"[..]),
            files_client::FilePart { file_name: Some("two.bin".into()), content_type: None, bytes: Bytes::from("22") },
        ],
    };
    // The exact parts: the object one `application/json` part, and so the list of objects, each label a part without
    // `Content-Type` (text/plain), each file a part of the same name (one without a type of
    // its own is `application/octet-stream`).
    let call = client.forms().upload_bundle(upload.clone()).call().unwrap();
    let Some(CallBody::Raw { content_type, bytes }) = call.body else { panic!("a multipart body") };
    let boundary = content_type.strip_prefix("multipart/form-data; boundary=").expect(&content_type).to_owned();
    let expected = [
        "Content-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{\"title\":\"Q3\",\"pages\":12}\r\n",
        "Content-Disposition: form-data; name=\"labels\"\r\n\r\na\r\n",
        "Content-Disposition: form-data; name=\"labels\"\r\n\r\nb\r\n",
        "Content-Disposition: form-data; name=\"owners\"\r\nContent-Type: application/json\r\n\r\n[{\"id\":7},{\"id\":8}]\r\n",
        "Content-Disposition: form-data; name=\"files\"; filename=\"one.pdf\"\r\nContent-Type: application/pdf\r\n\r\n%PDF\r\n",
        "Content-Disposition: form-data; name=\"files\"; filename=\"two.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n22\r\n",
    ]
    .map(|part| format!("--{boundary}\r\n{part}"))
    .concat()
        + &format!("--{boundary}--\r\n");
    assert_eq!(String::from_utf8_lossy(&bytes), expected);

    // The server hands the handler the object and both files.
    let stored = client.forms().upload_bundle(upload).send().await.unwrap();
    let file = |name: &str, content_type: &str, size| Stored {
        field: "files".into(),
        file_name: Some(name.into()),
        content_type: Some(content_type.into()),
        size,
    };
    let expected = Attachments {
        title: "Q3 (12 pages; a,b; owners 7,8)".into(),
        files: vec![file("one.pdf", "application/pdf", 4), file("two.bin", "application/octet-stream", 2)],
    };
    assert_eq!(stored, expected);

    // A JSON part that does not parse, one of the wrong shape, and too few files: each named
    // by its field, as a JSON body's problems are.
    let files = "--b\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a\"\r\n\r\nA\r\n\
        --b\r\nContent-Disposition: form-data; name=\"files\"; filename=\"b\"\r\n\r\nB\r\n";
    let meta = |json: &str| {
        format!(
            "--b\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{json}\r\n"
        )
    };
    let bodies = [
        format!("{}{files}--b--\r\n", meta("{\"title\": ")),
        format!("{}{files}--b--\r\n", meta("{\"title\": 5, \"pages\": 0}")),
        format!("{}--b--\r\n", meta("{\"title\": \"\", \"pages\": 0}")),
    ];
    let mut answers = Vec::new();
    for body in bodies {
        let request = http().post(format!("{base}/bundles")).header("content-type", "multipart/form-data; boundary=b");
        let (status, _, answer) = answer(request.body(body)).await;
        answers.push((status, answer));
    }
    let invalid = |violations: Value| json!({"error": {"code": 400, "message": "the request is invalid", "violations": violations}});
    assert_eq!(
        answers,
        [
            (
                400,
                invalid(
                    json!([{"path": "/meta", "message": "is not valid JSON: EOF while parsing a value at line 1 column 10"}])
                )
            ),
            (400, invalid(json!([{"path": "/meta/title", "message": "expected a string, found the number 5"}]))),
            (
                400,
                invalid(json!([
                    {"path": "/meta/title", "message": "must be at least 1 characters long (found 0)"},
                    {"path": "/meta/pages", "message": "must be at least 1 (found 0)"},
                    {"path": "/files", "message": "must hold at least 2 items (found 0)"}
                ]))
            ),
        ]
    );
}

#[tokio::test]
async fn csv_and_plain_text_travel_as_text() {
    let base = start().await;
    let client = client(&base);
    let form = ChargeForm { amount: 300, currency: Currency::Usd, tags: None, description: None };
    client.forms().create_charge(form).send().await.unwrap();
    assert_eq!(client.forms().export_charges().send().await.unwrap(), "id,amount,currency\nch_1,300,usd\n");
    let response = http().get(format!("{base}/charges.csv")).bearer_auth("tok").send().await.unwrap();
    assert_eq!(response.headers()["content-type"], "text/csv; charset=utf-8");
    assert_eq!(client.forms().echo_note("café au lait".to_owned()).send().await.unwrap(), "CAFÉ AU LAIT");
}

#[tokio::test]
async fn a_document_is_rendered_in_the_media_type_accept_asks_for() {
    let base = start().await;
    let client = client(&base);
    let pdf = client.blobs().render_document("doc_1").send().await.unwrap();
    assert_eq!(pdf.content_type(), Some("application/pdf"));
    assert_eq!(pdf.bytes(1 << 20).await.unwrap(), "%PDF-1.7\n% doc_1\n%%EOF\n");
    let markdown =
        client.blobs().render_document("doc_1").accept(RenderDocumentAccept::TextMarkdown).send().await.unwrap();
    assert_eq!(markdown.content_type(), Some("text/markdown"));
    assert_eq!(markdown.bytes(1 << 20).await.unwrap(), "# doc_1\n");
    // A caller's own `Accept` with weights: the preferred one the operation gives.
    let response = http()
        .get(format!("{base}/documents/doc_2"))
        .bearer_auth("tok")
        .header("accept", "application/pdf;q=0.5, text/*")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["content-type"], "text/markdown");
}

#[tokio::test]
async fn a_media_type_the_operation_does_not_take_is_415_and_an_accept_it_cannot_meet_406() {
    let base = start().await;
    let (status, _, body) =
        answer(http().post(format!("{base}/charges")).header("content-type", "text/plain").body("amount=1")).await;
    assert_eq!(status, 415);
    assert_eq!(
        body,
        json!({"error": {
            "code": 415,
            "message": "the body must be sent as one of: application/x-www-form-urlencoded, application/json",
        }})
    );
    let (status, _, body) = answer(http().get(format!("{base}/documents/doc_1")).header("accept", "image/png")).await;
    assert_eq!(status, 406);
    assert_eq!(
        body,
        json!({"error": {
            "code": 406,
            "message": "the operation answers application/pdf, text/markdown; `Accept` allows none of them",
        }})
    );
}

#[tokio::test]
async fn an_answer_declared_as_a_range_is_sent_in_the_type_the_handler_chooses_within_it() {
    let base = start().await;
    let client = client(&base);
    // The handler names one: the caller reads it.
    let webp = client.blobs().get_thumbnail("photo.webp").send().await.unwrap();
    assert_eq!(webp.content_type(), Some("image/webp"));
    assert_eq!(webp.bytes(1 << 20).await.unwrap(), "thumb of photo.webp");
    // It names none: a common member of the range, never the range itself.
    let png = client.blobs().get_thumbnail("photo").send().await.unwrap();
    assert_eq!(png.content_type(), Some("image/png"));
    // A caller's `Accept` naming a type within the range is met; one outside it is 406.
    let response =
        http().get(format!("{base}/blobs/a.webp/thumbnail")).bearer_auth("tok").header("accept", "image/webp").send();
    let response = response.await.unwrap();
    assert_eq!(
        (response.status().as_u16(), &response.headers()["content-type"]),
        (200, &"image/webp".parse().unwrap())
    );
    let (status, _, body) =
        answer(http().get(format!("{base}/blobs/a.webp/thumbnail")).header("accept", "text/plain")).await;
    assert_eq!(status, 406);
    assert_eq!(
        body,
        json!({"error": {"code": 406, "message": "the operation answers image/*; `Accept` allows none of them"}})
    );
    // A type outside the range is the handler's bug: 500 in the API's error body, not sent.
    let (status, content_type, body) = answer(http().get(format!("{base}/blobs/notes.txt/thumbnail"))).await;
    assert_eq!((status, content_type.as_str()), (500, "application/json"));
    assert_eq!(
        body,
        json!({"error": {
            "code": 500,
            "message": "the handler answered `Content-Type: text/plain`, which is not a media type within `image/*`",
        }})
    );
}
