//! Types built by composition, through the generated server and client of a spec that is not
//! this repository's (`tests/fixtures/valid/composition`): a base type included by others
//! (`allOf`), read-only fields refused in requests and never sent by the client, a write-only
//! password required in requests and never answered, an enumeration of integers, a union told
//! apart by `kind` and one told apart by shape, a map of labels, and an enumeration whose
//! values' own Rust names collide (`e-mail`, `e_mail`) with one renamed in the spec.

use accounts_client::{Client, Error, RetryPolicy};
use accounts_server::types::{
    Channel, Commented, Contact, EmailContact, Escalated, PhoneContact, Priority, Ticket, TicketEvent, User,
};
use accounts_server::{
    AddTicketEventRequest, ApiError, Authenticator, Context, CreateTicketRequest, CreateUserRequest, Credential,
    GetUserRequest, ListTicketsRequest, Secret, TicketsApi, UsersApi,
};
use apigen_runtime::chrono::{DateTime, Utc};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// The service: users and tickets in memory, passwords kept (and never answered).
#[derive(Default, Clone)]
struct Store {
    users: Arc<Mutex<Vec<User>>>,
    tickets: Arc<Mutex<Vec<Ticket>>>,
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

fn created_at() -> Option<DateTime<Utc>> {
    Some("2026-01-02T03:04:05Z".parse().unwrap())
}

impl UsersApi for Store {
    async fn create_user(&self, _: Context<()>, request: CreateUserRequest) -> Result<User, ApiError> {
        let mut users = self.users.lock().unwrap();
        let user = User { id: Some(format!("user_{}", users.len() + 1)), created_at: created_at(), ..request.body };
        users.push(user.clone());
        // Answered whole, password included: the router leaves the write-only field out.
        Ok(user)
    }

    async fn get_user(&self, _: Context<()>, request: GetUserRequest) -> Result<User, ApiError> {
        let users = self.users.lock().unwrap();
        let found = users.iter().find(|u| u.id.as_deref() == Some(&request.user_id)).cloned();
        found.ok_or_else(|| ApiError::not_found("no such user"))
    }
}

impl TicketsApi for Store {
    async fn create_ticket(&self, _: Context<()>, request: CreateTicketRequest) -> Result<Ticket, ApiError> {
        let mut tickets = self.tickets.lock().unwrap();
        let id = format!("ticket_{}", tickets.len() + 1);
        let ticket = Ticket { id: Some(id), created_at: created_at(), events: Some(Vec::new()), ..request.body };
        tickets.push(ticket.clone());
        Ok(ticket)
    }

    async fn list_tickets(&self, _: Context<()>, request: ListTicketsRequest) -> Result<Vec<Ticket>, ApiError> {
        let tickets = self.tickets.lock().unwrap();
        Ok(tickets.iter().filter(|t| t.priority == request.priority).cloned().collect())
    }

    async fn add_ticket_event(&self, _: Context<()>, request: AddTicketEventRequest) -> Result<TicketEvent, ApiError> {
        let mut tickets = self.tickets.lock().unwrap();
        let ticket = tickets.iter_mut().find(|t| t.id.as_deref() == Some(&request.ticket_id));
        let ticket = ticket.ok_or_else(|| ApiError::not_found("no such ticket"))?;
        ticket.events.get_or_insert_with(Vec::new).push(request.body.clone());
        Ok(request.body)
    }
}

async fn start() -> (String, Store) {
    let store = Store::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let router = accounts_server::router(store.clone());
    tokio::spawn(apigen_runtime::listener::serve(listener, router, Default::default()));
    (format!("http://{address}"), store)
}

fn client(base: &str) -> Client {
    Client::builder(base).bearer("tok").retry(RetryPolicy::none()).build().unwrap()
}

/// Sends `body` (or nothing) with `method` to `path`; the status and the body as JSON.
async fn raw(base: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let http = accounts_client::http_client_builder().build().unwrap();
    let method = apigen_runtime::client::reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let mut request = http.request(method, format!("{base}{path}")).bearer_auth("tok");
    if let Some(body) = body {
        request = request.header("content-type", "application/json").body(body.to_string());
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, serde_json::from_slice(&response.bytes().await.unwrap()).unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_write_only_password_is_taken_and_never_answered() {
    let (base, store) = start().await;
    let client = client(&base);
    let labels = BTreeMap::from([("team".to_owned(), "billing".to_owned())]);
    let phone = PhoneContact { phone: "+44 20 7946 0000".into(), extension: Some("12".into()) };
    let user = client
        .users()
        .create("ada@example.com")
        .password("correct-horse")
        .labels(labels.clone())
        .contact(phone.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(user.id.as_deref(), Some("user_1"));
    assert_eq!(user.created_at, created_at());
    assert_eq!(user.password, None, "answered without the password");
    assert_eq!(user.labels, Some(labels));
    assert_eq!(user.contact, Some(Contact::from(phone)), "told apart from an email contact by its fields");
    assert_eq!(store.users.lock().unwrap()[0].password.as_deref(), Some("correct-horse"), "the service got it");

    let (status, body) = raw(&base, "GET", "/users/user_1", None).await;
    assert_eq!(status, 200);
    assert_eq!(
        body,
        json!({
            "id": "user_1", "createdAt": "2026-01-02T03:04:05Z", "labels": {"team": "billing"},
            "email": "ada@example.com", "contact": {"phone": "+44 20 7946 0000", "extension": "12"}
        })
    );
}

#[tokio::test]
async fn read_only_fields_are_refused_in_requests_and_write_only_ones_required() {
    let (base, _) = start().await;
    let given = json!({"id": "mine", "createdAt": "2020-01-01T00:00:00Z", "email": "ada@example.com"});
    let (status, body) = raw(&base, "POST", "/users", Some(given)).await;
    assert_eq!(status, 400);
    assert_eq!(
        body,
        json!({"error": {"code": 400, "message": "the request is invalid", "violations": [
            {"path": "/id", "message": "is read-only: the service answers it and never accepts it"},
            {"path": "/createdAt", "message": "is read-only: the service answers it and never accepts it"},
            {"path": "/password", "message": "is required"}
        ]}})
    );
}

#[tokio::test]
async fn each_value_of_a_map_is_checked_against_its_constraints_and_named_by_its_key() {
    // `labels: map<string>` with `item: { max_length: 20, pattern }`: OpenAPI's
    // `additionalProperties` holding a constrained string, as AWS's tag maps are.
    let (base, _) = start().await;
    let labels = json!({"team": "billing", "Cost Centre": "Finance", "owner": "a".repeat(21), "a/b~c": "ok"});
    let given = json!({"email": "ada@example.com", "password": "correct-horse", "labels": labels});
    let (status, body) = raw(&base, "POST", "/users", Some(given)).await;
    assert_eq!(status, 400);
    assert_eq!(
        body,
        json!({"error": {"code": 400, "message": "the request is invalid", "violations": [
            {"path": "/labels/Cost Centre", "message": "must match the pattern ^[a-z0-9-]+$"},
            {"path": "/labels/owner", "message": "must be at most 20 characters long (found 21)"}
        ]}})
    );
    let fine =
        json!({"email": "ada@example.com", "password": "correct-horse", "labels": {"a/b~c": "ok", "team": "billing"}});
    assert_eq!(raw(&base, "POST", "/users", Some(fine)).await.0, 201);
    let openapi: Value =
        serde_json::from_str(&std::fs::read_to_string("fixtures/generated/composition/openapi.json").unwrap()).unwrap();
    let labels = &openapi["components"]["schemas"]["User"]["properties"]["labels"]["additionalProperties"];
    assert_eq!(labels, &json!({"type": "string", "maxLength": 20, "pattern": "^[a-z0-9-]+$"}));
}

#[tokio::test]
async fn a_maps_entries_are_counted_and_named_in_the_refusal() {
    // `scores: map<integer>` with `min_items: 1, max_items: 3`: OpenAPI's `minProperties` and
    // `maxProperties` on a map (honeycode's `RowDataInput`, AWS's tag maps).
    let (base, _) = start().await;
    let user = |scores: Value| json!({"email": "ada@example.com", "password": "correct-horse", "scores": scores});
    let refusal = |message: &str| {
        json!({"error": {"code": 400, "message": "the request is invalid", "violations": [
            {"path": "/scores", "message": message}
        ]}})
    };
    let (status, body) = raw(&base, "POST", "/users", Some(user(json!({})))).await;
    assert_eq!((status, body), (400, refusal("must have at least 1 entries (found 0)")));
    let four = json!({"a": 1, "b": 2, "c": 3, "d": 4});
    let (status, body) = raw(&base, "POST", "/users", Some(user(four))).await;
    assert_eq!((status, body), (400, refusal("must have at most 3 entries (found 4)")));
    assert_eq!(raw(&base, "POST", "/users", Some(user(json!({"a": 1, "b": 2, "c": 3})))).await.0, 201);
    let openapi: Value =
        serde_json::from_str(&std::fs::read_to_string("fixtures/generated/composition/openapi.json").unwrap()).unwrap();
    let scores = &openapi["components"]["schemas"]["User"]["properties"]["scores"];
    assert_eq!((&scores["minProperties"], &scores["maxProperties"]), (&json!(1), &json!(3)));
    // The samples hold an entry: the client's and the mock's bodies satisfy `minProperties`.
    let example = &openapi["paths"]["/users"]["post"]["requestBody"]["content"]["application/json"]["example"];
    assert_eq!(example["scores"], json!({"key": 1}));
}

#[tokio::test]
async fn a_repeated_item_of_a_unique_list_is_refused_by_its_index() {
    // `topics: list<string>` with `unique_items: true` (OpenAPI's `uniqueItems`, SendGrid's
    // categories): each repeat is named at its index, with the item it repeats.
    let (base, _) = start().await;
    let user = |topics: Value| json!({"email": "ada@example.com", "password": "correct-horse", "topics": topics});
    let (status, body) = raw(&base, "POST", "/users", Some(user(json!(["a", "b", "a", "c", "b"])))).await;
    assert_eq!(status, 400);
    assert_eq!(
        body,
        json!({"error": {"code": 400, "message": "the request is invalid", "violations": [
            {"path": "/topics/2", "message": "repeats item 0: the items must be unique"},
            {"path": "/topics/4", "message": "repeats item 1: the items must be unique"}
        ]}})
    );
    assert_eq!(raw(&base, "POST", "/users", Some(user(json!(["a", "b", "A"])))).await.0, 201);
    let openapi: Value =
        serde_json::from_str(&std::fs::read_to_string("fixtures/generated/composition/openapi.json").unwrap()).unwrap();
    assert_eq!(openapi["components"]["schemas"]["User"]["properties"]["topics"]["uniqueItems"], json!(true));
}

#[tokio::test]
async fn a_string_format_is_checked_and_the_samples_have_it() {
    let (base, _) = start().await;
    let given = json!({"email": "ada at example.com", "password": "correct-horse"});
    let (status, body) = raw(&base, "POST", "/users", Some(given)).await;
    assert_eq!(status, 400);
    assert_eq!(
        body,
        json!({"error": {"code": 400, "message": "the request is invalid", "violations": [
            {"path": "/email", "message": "must be a valid email"}
        ]}})
    );
    // The sample invented for the field has its format; openapi.json says it.
    let spec = std::path::Path::new("fixtures/valid/composition");
    let (api, _) = apigen::load(spec).unwrap();
    assert_eq!(apigen::model::sample::of_type(&api, "User")["email"], json!("user@example.com"));
    let openapi: Value =
        serde_json::from_str(&std::fs::read_to_string("fixtures/generated/composition/openapi.json").unwrap()).unwrap();
    assert_eq!(openapi["components"]["schemas"]["User"]["properties"]["email"]["format"], json!("email"));
}

#[tokio::test]
async fn the_client_never_sends_read_only_fields() {
    let (base, _) = start().await;
    let client = client(&base);
    // A user read back and sent again as a body: its id and creation time stay home.
    let echoed = User {
        id: Some("user_9".into()),
        created_at: created_at(),
        labels: None,
        scores: None,
        topics: None,
        email: "bo@example.com".into(),
        password: Some("battery-staple".into()),
        contact: Some(EmailContact { address: "bo@example.com".into() }.into()),
    };
    let user = client.users().create("ignored@example.com").body(echoed).send().await.unwrap();
    assert_eq!((user.id.as_deref(), user.email.as_str()), (Some("user_1"), "bo@example.com"));
    assert_eq!(user.contact, Some(Contact::from(EmailContact { address: "bo@example.com".into() })));
}

#[tokio::test]
async fn an_integer_enumeration_travels_as_an_integer() {
    let (base, _) = start().await;
    let client = client(&base);
    let urgent = client.tickets().create("Printer on fire").priority(Priority::N1).send().await.unwrap();
    assert_eq!((urgent.priority.clone(), urgent.priority.value()), (Priority::N1, Some(1)));
    let normal = client.tickets().create("Coffee machine").send().await.unwrap();
    assert_eq!(normal.priority, Priority::N3, "the default, 3");

    let (status, body) = raw(&base, "GET", "/tickets?priority=1", None).await;
    assert_eq!(status, 200);
    assert_eq!(body[0]["priority"], json!(1), "a JSON integer");
    let listed = client.tickets().list(Priority::from(1)).send().await.unwrap();
    assert_eq!(listed.iter().map(|t| t.title.as_str()).collect::<Vec<_>>(), ["Printer on fire"]);

    let (status, body) = raw(&base, "GET", "/tickets?priority=7", None).await;
    assert_eq!(status, 400);
    assert_eq!(
        body["error"]["violations"],
        json!([{"path": "query.priority", "message": "\"7\" is not one of: 1, 2, 3, 4"}])
    );
    let (status, body) = raw(&base, "POST", "/tickets", Some(json!({"title": "A", "priority": "1"}))).await;
    assert_eq!(status, 400);
    assert_eq!(
        body["error"]["violations"],
        json!([{"path": "/priority", "message": "expected an integer, found the string \"1\""}])
    );
}

#[tokio::test]
async fn enumeration_values_whose_names_collide_travel_as_written_under_their_own_names() {
    let (base, _) = start().await;
    let client = client(&base);
    let legacy = client.tickets().create("Old form").channel(Channel::EMailLegacy).send().await.unwrap();
    assert_eq!(legacy.channel, Some(Channel::EMailLegacy));
    let (status, body) = raw(&base, "POST", "/tickets", Some(json!({"title": "A", "channel": "e-mail"}))).await;
    assert_eq!((status, &body["channel"]), (201, &json!("e-mail")));
    let (status, body) = raw(&base, "GET", "/tickets?priority=3", None).await;
    assert_eq!(status, 200);
    assert_eq!(body[0]["channel"], json!("e_mail"), "the renamed value's wire form");
    // A value named like the catch-all is listed; the catch-all takes the next free name.
    assert_eq!(serde_json::from_value::<Channel>(json!("unknown")).unwrap(), Channel::Unknown);
    assert_eq!(serde_json::from_value::<Channel>(json!("fax")).unwrap(), Channel::UnknownValue("fax".into()));
    let (status, body) = raw(&base, "POST", "/tickets", Some(json!({"title": "A", "channel": "E-Mail"}))).await;
    assert_eq!(status, 400);
    assert_eq!(
        body["error"]["violations"],
        json!([{"path": "/channel", "message": "\"E-Mail\" is not one of: e-mail, e_mail, unknown"}])
    );
}

#[tokio::test]
async fn events_are_told_apart_by_kind() {
    let (base, _) = start().await;
    let client = client(&base);
    let ticket = client.tickets().create("Printer on fire").send().await.unwrap();
    let id = ticket.id.unwrap();
    let escalated = Escalated { from: Priority::N3, to: Priority::N1 };
    let answered = client.tickets().add_event(&id, escalated.clone().into()).send().await.unwrap();
    assert_eq!(answered, TicketEvent::from(escalated));
    client.tickets().add_event(&id, Commented { text: "On it.".into() }.into()).send().await.unwrap();

    let (status, body) = raw(&base, "GET", "/tickets?priority=3", None).await;
    assert_eq!(status, 200);
    assert_eq!(
        body[0]["events"],
        json!([{"kind": "escalated", "from": 3, "to": 1}, {"kind": "commented", "text": "On it."}])
    );
    let (status, body) = raw(&base, "POST", &format!("/tickets/{id}/events"), Some(json!({"kind": "closed"}))).await;
    assert_eq!(status, 400, "{body}");
    let error = client.tickets().add_event("ticket_404", Commented { text: "x".into() }.into()).send().await;
    assert!(matches!(error, Err(Error::Api { status: 404, .. })), "{error:?}");
}

#[test]
fn openapi_json_declares_each_composition() {
    let text = std::fs::read_to_string("fixtures/generated/composition/openapi.json").unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let schemas = &doc["components"]["schemas"];
    let user = &schemas["User"];
    assert_eq!(
        user["allOf"],
        json!([{"$ref": "#/components/schemas/Resource"}, {"$ref": "#/components/schemas/Labeled"}])
    );
    assert_eq!(user["properties"]["id"]["readOnly"], json!(true));
    assert_eq!(user["properties"]["password"]["writeOnly"], json!(true));
    // Required in the one direction each travels, as OpenAPI reads `required` beside them.
    assert_eq!(user["required"], json!(["id", "createdAt", "email", "password"]));
    assert_eq!(user["additionalProperties"], json!(false));
    assert!(schemas["Resource"].get("additionalProperties").is_none(), "an included type is open");
    assert_eq!(schemas["Priority"]["type"], "integer");
    assert_eq!(schemas["Priority"]["enum"], json!([1, 2, 3, 4]));
    assert_eq!(schemas["Ticket"]["properties"]["priority"]["default"], json!(3));
    assert_eq!(schemas["TicketEvent"]["discriminator"]["propertyName"], "kind");
    assert!(schemas["Contact"]["anyOf"].is_array(), "told apart by shape");
}
