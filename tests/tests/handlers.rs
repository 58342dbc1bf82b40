//! What a service controls, through a real loopback server on the petstore fixture: a
//! handler sets headers and chooses among the statuses the spec declares; a public operation
//! answers without a token while its neighbours answer 401; a service serving some
//! operations sets one handler each, and the builder names the rest, refuses them in
//! `build`, and answers 501 for them in `build_partial`.

use petstore_client::{Client, Error, RetryPolicy};
use petstore_server::types::{Health, Pet, PetKind, PutPetBody};
use petstore_server::{
    Anonymous, ApiError, Authenticator, Context, HealthRequest, MissingOperations, PutPetRequest, PutPetStatus,
    RouterBuilder,
};
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use apigen_runtime::server::axum::http::{HeaderName, HeaderValue};

/// Pets by id; `staff` is the only token.
#[derive(Default)]
struct Store {
    pets: Mutex<BTreeSet<String>>,
}

impl Authenticator for Store {
    type Principal = String;
    async fn authenticate(&self, credential: petstore_server::Credential<'_>) -> Result<String, ApiError> {
        match credential.token() {
            Some("staff") => Ok("staff".into()),
            _ => Err(ApiError::unauthorized("unknown token")),
        }
    }
}

/// 201 when the pet is new, 200 when it replaces one; an `ETag` either way.
async fn put_pet(
    store: Arc<Store>,
    context: Context<String, PutPetStatus>,
    request: PutPetRequest,
) -> Result<Pet, ApiError> {
    let replaced = !store.pets.lock().unwrap().insert(request.pet_id.clone());
    if replaced {
        context.set_status(PutPetStatus::Ok);
    }
    let etag = HeaderValue::from_str(&format!("\"{}-{}\"", request.pet_id, request.body.name)).unwrap();
    context.insert_response_header(HeaderName::from_static("etag"), etag);
    Ok(Pet {
        id: request.pet_id,
        name: request.body.name,
        kind: request.body.kind,
        tags: None,
        born: None,
        owner: None,
    })
}

async fn health(_: Arc<Store>, context: Context<Anonymous>, _: HealthRequest) -> Result<Health, ApiError> {
    assert_eq!(context.principal, Anonymous);
    Ok(Health { open: true })
}

fn builder() -> RouterBuilder<Store> {
    RouterBuilder::new(Store::default()).put_pet(put_pet).health(health)
}

async fn start() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(apigen_runtime::listener::serve(listener, builder().build_partial(), Default::default()));
    format!("http://{address}")
}

fn client(base: &str, token: &str) -> Client {
    Client::builder(base).bearer(token).retry(RetryPolicy::none()).build().unwrap()
}

#[tokio::test]
async fn a_handler_chooses_a_declared_status_and_sets_headers() {
    let base = start().await;
    let client = client(&base, "staff");
    let body = || PutPetBody { name: "Rex".into(), kind: PetKind::Dog };
    let created = client.pets().put("pet_1", body()).send_with_response().await.unwrap();
    assert_eq!(created.status, 201, "the spec's default status");
    assert_eq!(created.headers["etag"], "\"pet_1-Rex\"");
    assert_eq!(created.body.name, "Rex");
    let replaced = client.pets().put("pet_1", body()).send_with_response().await.unwrap();
    assert_eq!(replaced.status, 200, "the status the handler chose");
    assert_eq!(replaced.headers["etag"], "\"pet_1-Rex\"");
}

#[tokio::test]
async fn a_public_operation_answers_without_a_token_while_its_neighbours_answer_401() {
    let base = start().await;
    let http = petstore_client::http_client_builder().build().unwrap();
    let health = http.get(format!("{base}/v2/health")).send().await.unwrap();
    assert_eq!(health.status(), 200);
    assert_eq!(health.text().await.unwrap(), r#"{"open":true}"#);
    let neighbour = http.put(format!("{base}/v2/pets/pet_1")).body("{}").send().await.unwrap();
    assert_eq!(neighbour.status(), 401);
    assert_eq!(
        neighbour.text().await.unwrap(),
        r#"{"error":{"code":401,"message":"missing `Authorization: Bearer <token>` header"}}"#
    );
    // A public operation ignores a token it was sent, even one the authenticator refuses.
    let refused = client(&base, "intruder");
    assert!(refused.pets().health().send().await.unwrap().open);
    let error = refused.pets().get("pet_1").send().await.unwrap_err();
    assert!(matches!(error, Error::Api { status: 401, .. }), "{error:?}");
}

#[tokio::test]
async fn operations_without_a_handler_are_listed_refused_or_answered_501() {
    assert_eq!(builder().unimplemented(), ["listPets", "getPet", "updatePet", "deletePet"]);
    let missing = builder().build().unwrap_err();
    assert_eq!(missing, MissingOperations(vec!["listPets", "getPet", "updatePet", "deletePet"]));
    assert_eq!(
        missing.to_string(),
        "4 operations have no handler: listPets, getPet, updatePet, deletePet \
         (set them, or build with `build_partial` to answer 501 for them)"
    );
    let base = start().await;
    let error = client(&base, "staff").pets().delete("pet_1").send().await.unwrap_err();
    let Error::Api { status, message, .. } = &error else { panic!("{error:?}") };
    assert_eq!((*status, message.as_str()), (501, "the operation `deletePet` is not implemented"));
}

#[test]
fn a_handler_is_a_plain_function_callable_in_a_unit_test() {
    let context: Context<String, PutPetStatus> = Context::new("staff".into());
    let store = Arc::new(Store::default());
    store.pets.lock().unwrap().insert("pet_1".into());
    let request = PutPetRequest { pet_id: "pet_1".into(), body: PutPetBody { name: "Rex".into(), kind: PetKind::Cat } };
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let pet = runtime.block_on(put_pet(store, context.clone(), request)).unwrap();
    assert_eq!(pet.kind, PetKind::Cat);
    assert_eq!(context.response_status(), Some(200));
    assert_eq!(context.response_headers()["etag"], "\"pet_1-Rex\"");
}
