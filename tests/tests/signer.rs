//! The request signer on the wire, and the example of one: an HMAC-SHA256 signature of the
//! method, the path with its query and the body, as webhooks carry them (`X-Signature:
//! sha256=<hex>`), checked by a server that refuses a request without it. The signer sees the
//! exact bytes the server receives; it signs each retry and each redirect hop to the API's
//! origin, never a hop elsewhere; a signer that fails ends the call before anything is sent.

use apigen_runtime::client::{SignError, Signing};
use apigen_runtime::server::axum::body::Bytes;
use apigen_runtime::server::axum::http::{HeaderMap, Method, StatusCode, Uri};
use apigen_runtime::server::axum::response::{IntoResponse, Response};
use apigen_runtime::server::axum::{Router, extract::State};
use hmac::{Hmac, KeyInit, Mac};
use petstore_client::types::{PetKind, PutPetBody};
use petstore_client::{Client, Error, RetryPolicy};
use sha2::Sha256;
use std::sync::{Arc, Mutex};

const SECRET: &[u8] = b"webhook-secret";

/// The signature of a request: HMAC-SHA256 of `METHOD\npath?query\nbody`, in hex.
fn signature(method: &str, path_and_query: &str, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(SECRET).expect("any key length");
    mac.update(method.as_bytes());
    mac.update(b"\n");
    mac.update(path_and_query.as_bytes());
    mac.update(b"\n");
    mac.update(body);
    let bytes = mac.finalize().into_bytes();
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The example signer: what a user writes for an API that wants its requests signed.
fn hmac_signer(request: &mut Signing<'_>) -> Result<(), SignError> {
    let body = request.body().ok_or("a streamed body cannot be signed")?;
    let url = request.url();
    let path_and_query = match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_owned(),
    };
    let value = format!("sha256={}", signature(request.method().as_str(), &path_and_query, body));
    request.set_header("x-signature", &value)
}

/// What the server received: method, path with query, body, and whether its signature held.
#[derive(Debug, Clone, PartialEq)]
struct Received {
    method: String,
    target: String,
    body: Vec<u8>,
    signed: bool,
}

/// A status to answer, with the `Location` it carries.
type Queued = (u16, Option<String>);

/// The body bytes each signing saw.
type Seen = Arc<Mutex<Vec<Vec<u8>>>>;

#[derive(Clone, Default)]
struct Server {
    received: Arc<Mutex<Vec<Received>>>,
    /// Answers to give before the real one, by status (a 503 to retry, a 307 to follow).
    before: Arc<Mutex<Vec<Queued>>>,
}

/// Checks the signature; a request without a valid one is answered 401 with the API's error
/// body. A valid one gets the next answer queued, else the pet.
async fn serve(State(server): State<Server>, method: Method, uri: Uri, headers: HeaderMap, body: Bytes) -> Response {
    let target = uri.path_and_query().map(|p| p.as_str().to_owned()).unwrap_or_default();
    let expected = format!("sha256={}", signature(method.as_str(), &target, &body));
    let signed = headers.get("x-signature").is_some_and(|value| value.as_bytes() == expected.as_bytes());
    server.received.lock().unwrap().push(Received { method: method.to_string(), target, body: body.to_vec(), signed });
    if !signed {
        let body = r#"{"error":{"code":401,"message":"missing or wrong X-Signature"}}"#;
        return (StatusCode::UNAUTHORIZED, [("content-type", "application/json")], body).into_response();
    }
    let queued = server.before.lock().unwrap().pop();
    match queued {
        Some((status, location)) => {
            let mut response = StatusCode::from_u16(status).unwrap().into_response();
            if let Some(location) = location {
                response.headers_mut().insert("location", location.parse().unwrap());
            }
            response
        }
        None => {
            let pet = r#"{"object":"pet","id":"pet_1","name":"Rex","kind":"dog"}"#;
            (StatusCode::CREATED, [("content-type", "application/json")], pet).into_response()
        }
    }
}

async fn start(server: Server) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = Router::new().fallback(serve).with_state(server);
    tokio::spawn(apigen_runtime::listener::serve(listener, app, Default::default()));
    format!("http://{address}")
}

fn rex() -> PutPetBody {
    PutPetBody { name: "Rex".into(), kind: PetKind::Dog }
}

/// The body bytes each signing saw, and a signer recording them before signing.
fn recording() -> (Seen, impl Fn(&mut Signing<'_>) -> Result<(), SignError> + Send + Sync) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let signer = move |request: &mut Signing<'_>| {
        log.lock().unwrap().push(request.body().map(<[u8]>::to_vec).unwrap_or_default());
        hmac_signer(request)
    };
    (seen, signer)
}

#[tokio::test]
async fn a_signed_request_passes_and_the_signer_sees_the_exact_body_bytes() {
    let server = Server::default();
    let base = start(server.clone()).await;
    let (seen, signer) = recording();
    let client = Client::builder(&base).bearer("staff").retry(RetryPolicy::none()).signer(signer).build().unwrap();
    let pet = client.pets().put("pet_1", rex()).send().await.unwrap();
    assert_eq!(pet.name, "Rex");
    let received = server.received.lock().unwrap().clone();
    let sent = br#"{"name":"Rex","kind":"dog"}"#.to_vec();
    assert_eq!(
        received,
        [Received { method: "PUT".into(), target: "/v2/pets/pet_1".into(), body: sent.clone(), signed: true }]
    );
    assert_eq!(*seen.lock().unwrap(), [sent], "the signer saw the bytes the server received");

    // A query is signed with the URL: a GET of a list, its page size in the query.
    let server_seen = server.received.lock().unwrap().len();
    let _ = client.pets().list().page_size(5).send().await;
    let list = server.received.lock().unwrap()[server_seen].clone();
    assert_eq!((list.target.as_str(), list.body.as_slice(), list.signed), ("/v2/pets?pageSize=5", &b""[..], true));
}

#[tokio::test]
async fn an_unsigned_request_is_refused_by_the_server() {
    let base = start(Server::default()).await;
    let client = Client::builder(&base).bearer("staff").retry(RetryPolicy::none()).build().unwrap();
    let error = client.pets().put("pet_1", rex()).send().await.unwrap_err();
    let Error::Api { status, message, .. } = &error else { panic!("{error:?}") };
    assert_eq!((*status, message.as_str()), (401, "missing or wrong X-Signature"));
}

#[tokio::test]
async fn each_retry_and_each_redirect_hop_to_the_api_is_signed_again() {
    let server = Server::default();
    // Popped from the end: a 503 first (retried), then a 307 to another path (followed).
    *server.before.lock().unwrap() = vec![(307, Some("/v2/pets/pet_2?moved=1".into())), (503, None)];
    let base = start(server.clone()).await;
    let (seen, signer) = recording();
    let retry = RetryPolicy { initial_backoff: std::time::Duration::from_millis(1), ..RetryPolicy::default() };
    let client = Client::builder(&base).bearer("staff").retry(retry).signer(signer).build().unwrap();
    client.pets().put("pet_1", rex()).send().await.unwrap();
    let received = server.received.lock().unwrap().clone();
    let targets: Vec<(&str, bool)> = received.iter().map(|r| (r.target.as_str(), r.signed)).collect();
    assert_eq!(targets, [("/v2/pets/pet_1", true), ("/v2/pets/pet_1", true), ("/v2/pets/pet_2?moved=1", true)]);
    assert_eq!(seen.lock().unwrap().len(), 3, "one signing per request sent");
}

#[tokio::test]
async fn a_hop_away_from_the_apis_origin_is_not_signed() {
    let elsewhere = Server::default();
    let elsewhere_base = start(elsewhere.clone()).await;
    let api = Server::default();
    *api.before.lock().unwrap() = vec![(307, Some(format!("{elsewhere_base}/v2/pets/pet_1")))];
    let base = start(api.clone()).await;
    let client = Client::builder(&base).bearer("staff").retry(RetryPolicy::none()).signer(hmac_signer).build().unwrap();
    let error = client.pets().put("pet_1", rex()).send().await.unwrap_err();
    assert!(matches!(error, Error::Api { status: 401, .. }), "{error:?}");
    assert!(api.received.lock().unwrap()[0].signed);
    let away = elsewhere.received.lock().unwrap().clone();
    assert_eq!(away.len(), 1);
    assert!(!away[0].signed, "no signature leaves the API's origin");
}

#[tokio::test]
async fn a_signer_that_fails_ends_the_call_before_anything_is_sent() {
    let server = Server::default();
    let base = start(server.clone()).await;
    let refuse = |_: &mut Signing<'_>| -> Result<(), SignError> { Err("the key is not loaded".into()) };
    let client = Client::builder(&base).bearer("staff").signer(refuse).build().unwrap();
    let error = client.pets().put("pet_1", rex()).send().await.unwrap_err();
    assert_eq!(error.to_string(), "the signer could not sign `putPet`: the key is not loaded");
    assert!(server.received.lock().unwrap().is_empty());
}
