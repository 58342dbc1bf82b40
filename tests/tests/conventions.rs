//! An API's own conventions on the wire, through the generated server and client of a spec
//! that is not this repository's (`tests/fixtures/valid/forge`, shaped after GitHub, Slack
//! and RFC 9457): pages linked by the `Link` header and by a cursor nested in the body, an
//! error body of the API's own shape and per-status error types, header and cookie
//! parameters, every way of presenting credentials, typed response headers, statuses with
//! bodies of their own, HEAD, OPTIONS and a DELETE body.

use forge_client::{Client, ClientBuilder, Error, RetryPolicy};
use forge_server::types::{
    CreateRepoAnswer, Event, EventPage, GetRepoHeaders, GetSettingsResponse, HeadRepoHeaders, NotFound, Repo,
    ResponseMetadata,
};
use forge_server::{
    ApiError, Authenticator, Context, CreateRepoRequest, Credential, DeleteRepoRequest, EventsApi, GetRepoRequest,
    GetSettingsRequest, HeadRepoRequest, HealthRequest, ListEventArchiveRequest, ListEventLogRequest,
    ListEventsRequest, ListReposRequest, ReposApi, Secret,
};
use futures_util::StreamExt;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

/// The service: 7 repositories and 7 events, and a record of every request's principal.
#[derive(Default)]
struct Forge {
    principals: Mutex<Vec<String>>,
}

impl Authenticator for Forge {
    type Principal = String;

    async fn authenticate(&self, credential: Credential<'_>) -> Result<String, ApiError> {
        let known = match credential.secret {
            Secret::Bearer(token) => token == "tok",
            Secret::ApiKey(key) => key == "key" || (credential.scheme == "signature" && key == SIGNATURE),
            Secret::Basic { user, password } => (user, password) == ("ada", "pw"),
            // The `http` scheme's whole `Authorization` value, auth-scheme included.
            Secret::Http(value) => value == r#"Signature keyId="k1",signature="POST /user/repos""#,
        };
        if !known {
            return Err(ApiError::unauthorized("unknown credentials"));
        }
        let principal = credential.scheme.to_owned();
        self.principals.lock().unwrap().push(principal.clone());
        Ok(principal)
    }
}

/// The `signature` scheme's credential: a whole `Authorization` value of the API's own making.
const SIGNATURE: &str = "Sig forge:c2lnbmVk";

fn repo(id: i64, name: &str) -> Repo {
    Repo { id, name: name.into(), full_name: format!("octo/{name}"), private: false, default_branch: None }
}

impl ReposApi for Forge {
    async fn list_repos(&self, context: Context<String>, request: ListReposRequest) -> Result<Vec<Repo>, ApiError> {
        let (page, size) = (request.page.unwrap_or(1), request.per_page);
        let all: Vec<Repo> = (1..=7).map(|id| repo(id, &format!("r{id}"))).collect();
        let start = ((page - 1) * size) as usize;
        if start + (size as usize) < all.len() {
            context.set_next_page((page + 1).to_string());
        }
        let mut items: Vec<Repo> = all.into_iter().skip(start).take(size as usize).collect();
        // The header parameter and the principal, where a test can see them.
        if let Some(first) = items.first_mut() {
            first.default_branch =
                Some(format!("{}/{}", request.x_forge_api_version.unwrap_or_default(), context.principal));
        }
        Ok(items)
    }

    async fn get_repo(&self, context: Context<String>, request: GetRepoRequest) -> Result<Repo, ApiError> {
        match request.repo.as_str() {
            "missing" => {
                let body = NotFound {
                    message: "Not Found".into(),
                    documentation_url: Some("https://docs.forge.example/404".into()),
                };
                Err(ApiError::with_body(404.try_into().unwrap(), &body))
            }
            // A body that is not the declared type: the client keeps it raw.
            "odd" => Err(ApiError::with_body(404.try_into().unwrap(), &json!({"message": 5}))),
            // A success without its required `ETag`: a bug the router answers 500.
            "untagged" => Ok(repo(1, "untagged")),
            name => {
                context
                    .set_headers(&GetRepoHeaders { e_tag: Some("\"v1\"".into()), x_rate_limit_remaining: Some(59) })?;
                let mut found = repo(1, name);
                found.default_branch = request.if_none_match;
                Ok(found)
            }
        }
    }

    async fn head_repo(&self, context: Context<String>, _: HeadRepoRequest) -> Result<(), ApiError> {
        context.set_headers(&HeadRepoHeaders { e_tag: Some("\"v1\"".into()) })
    }

    async fn create_repo(&self, _: Context<String>, request: CreateRepoRequest) -> Result<CreateRepoAnswer, ApiError> {
        Ok(match request.body.template {
            Some(_) => CreateRepoAnswer::Accepted,
            None => CreateRepoAnswer::Created(repo(8, &request.body.name)),
        })
    }

    async fn delete_repo(&self, _: Context<String>, request: DeleteRepoRequest) -> Result<(), ApiError> {
        if request.body.confirm == format!("{}/{}", request.owner, request.repo) {
            Ok(())
        } else {
            Err(ApiError::bad_request("the confirmation does not name the repository"))
        }
    }

    async fn get_settings(
        &self,
        _: Context<String>,
        request: GetSettingsRequest,
    ) -> Result<GetSettingsResponse, ApiError> {
        Ok(GetSettingsResponse { theme: request.theme.unwrap_or_else(|| "light".into()) })
    }

    async fn health(&self, _: Context<forge_server::Anonymous>, _: HealthRequest) -> Result<(), ApiError> {
        Ok(())
    }
}

impl EventsApi for Forge {
    async fn list_events(&self, _: Context<String>, request: ListEventsRequest) -> Result<EventPage, ApiError> {
        let start: usize = request.cursor.as_deref().map_or(0, |c| c.trim_start_matches("ev").parse().unwrap());
        let size = request.limit.unwrap_or(3) as usize;
        let events: Vec<Event> =
            (start..7).take(size).map(|i| Event { id: format!("ev_{i}"), kind: "push".into() }).collect();
        // Slack answers an empty cursor on the last page.
        let next = if start + size < 7 { format!("ev{}", start + size) } else { String::new() };
        Ok(EventPage { events, response_metadata: Some(ResponseMetadata { next_cursor: Some(next) }) })
    }
    async fn list_event_archive(
        &self,
        _: Context<String>,
        request: ListEventArchiveRequest,
    ) -> Result<Vec<Event>, ApiError> {
        // Pages of three of seven events, numbered from 1.
        let start = (request.page.unwrap_or(1).max(1) as usize - 1) * 3;
        Ok((start..7).take(3).map(|i| Event { id: format!("ev_{i}"), kind: "push".into() }).collect())
    }
    async fn list_event_log(&self, _: Context<String>, request: ListEventLogRequest) -> Result<Vec<Event>, ApiError> {
        let start = request.offset.unwrap_or(0).max(0) as usize;
        Ok((start..7).take(3).map(|i| Event { id: format!("ev_{i}"), kind: "push".into() }).collect())
    }
}

async fn start() -> (String, Arc<Forge>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let forge = Arc::new(Forge::default());
    let service = Shared(Arc::clone(&forge));
    tokio::spawn(apigen_runtime::listener::serve(listener, forge_server::router(service), Default::default()));
    (format!("http://{address}"), forge)
}

/// The service behind an `Arc`, so a test can read what it recorded.
struct Shared(Arc<Forge>);

impl Authenticator for Shared {
    type Principal = String;
    async fn authenticate(&self, credential: Credential<'_>) -> Result<String, ApiError> {
        self.0.authenticate(credential).await
    }
}

impl ReposApi for Shared {
    async fn list_repos(&self, c: Context<String>, r: ListReposRequest) -> Result<Vec<Repo>, ApiError> {
        self.0.list_repos(c, r).await
    }
    async fn get_repo(&self, c: Context<String>, r: GetRepoRequest) -> Result<Repo, ApiError> {
        self.0.get_repo(c, r).await
    }
    async fn head_repo(&self, c: Context<String>, r: HeadRepoRequest) -> Result<(), ApiError> {
        self.0.head_repo(c, r).await
    }
    async fn create_repo(&self, c: Context<String>, r: CreateRepoRequest) -> Result<CreateRepoAnswer, ApiError> {
        self.0.create_repo(c, r).await
    }
    async fn delete_repo(&self, c: Context<String>, r: DeleteRepoRequest) -> Result<(), ApiError> {
        self.0.delete_repo(c, r).await
    }
    async fn get_settings(&self, c: Context<String>, r: GetSettingsRequest) -> Result<GetSettingsResponse, ApiError> {
        self.0.get_settings(c, r).await
    }
    async fn health(&self, c: Context<forge_server::Anonymous>, r: HealthRequest) -> Result<(), ApiError> {
        self.0.health(c, r).await
    }
}

impl EventsApi for Shared {
    async fn list_events(&self, c: Context<String>, r: ListEventsRequest) -> Result<EventPage, ApiError> {
        self.0.list_events(c, r).await
    }
    async fn list_event_archive(&self, c: Context<String>, r: ListEventArchiveRequest) -> Result<Vec<Event>, ApiError> {
        self.0.list_event_archive(c, r).await
    }
    async fn list_event_log(&self, c: Context<String>, r: ListEventLogRequest) -> Result<Vec<Event>, ApiError> {
        self.0.list_event_log(c, r).await
    }
}

/// A client with a bearer token (the API's first scheme).
fn client(base: &str) -> Client {
    Client::builder(base).bearer("tok").retry(RetryPolicy::none()).build().unwrap()
}

/// A client holding only the credentials `set` gives it.
fn client_with(base: &str, set: impl FnOnce(ClientBuilder) -> ClientBuilder) -> Client {
    let builder = ClientBuilder::new(base, forge_client::USER_AGENT, forge_client::SCHEMES, &forge_client::ERRORS);
    set(builder).retry(RetryPolicy::none()).build().unwrap()
}

fn http() -> apigen_runtime::client::reqwest::Client {
    forge_client::http_client_builder().build().unwrap()
}

#[tokio::test]
async fn a_stream_follows_the_link_header_across_pages() {
    let (base, _) = start().await;
    let first = http().get(format!("{base}/user/repos?per_page=3")).bearer_auth("tok").send().await.unwrap();
    assert_eq!(first.headers()["link"], "</user/repos?per_page=3&page=2>; rel=\"next\"");
    let repos: Vec<Repo> = client(&base).repos().list().per_page(3).stream().map(|r| r.unwrap()).collect().await;
    let names: Vec<&str> = repos.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["r1", "r2", "r3", "r4", "r5", "r6", "r7"], "3 pages of 3, 3 and 1");
    let last = http().get(format!("{base}/user/repos?per_page=3&page=3")).bearer_auth("tok").send().await.unwrap();
    assert!(last.headers().get("link").is_none(), "no next link on the last page");
}

#[tokio::test]
async fn a_stream_follows_a_cursor_nested_in_the_body_with_a_key_in_the_query() {
    let (base, forge) = start().await;
    let client = client_with(&base, |b| b.token("queryKey", "key"));
    let events: Vec<Event> =
        client.events().list("octo", "hello").limit(3).stream().map(|e| e.unwrap()).collect().await;
    let ids: Vec<&str> = events.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["ev_0", "ev_1", "ev_2", "ev_3", "ev_4", "ev_5", "ev_6"]);
    assert_eq!(*forge.principals.lock().unwrap(), ["queryKey", "queryKey", "queryKey"], "3 pages, each with the key");
    // The key in the query is a credential, never an unknown parameter.
    let raw = http().get(format!("{base}/repos/octo/hello/events?access_token=key")).send().await.unwrap();
    assert_eq!(raw.status(), 200);
}

#[tokio::test]
async fn a_key_in_the_authorization_header_travels_whole_both_ways() {
    let (base, forge) = start().await;
    // The client sends the value as given: no `Bearer ` of its own in front.
    let client = client_with(&base, |b| b.token("signature", SIGNATURE));
    let events: Vec<Event> = client.events().list("octo", "hello").stream().map(|e| e.unwrap()).collect().await;
    assert_eq!(events.len(), 7);
    assert!(forge.principals.lock().unwrap().iter().all(|p| p == "signature"), "{:?}", forge.principals);
    // The server hands the whole header value to the service, which decides.
    let raw = http().get(format!("{base}/repos/octo/hello/events")).header("Authorization", SIGNATURE).send().await;
    assert_eq!(raw.unwrap().status(), 200);
    let bearer =
        http().get(format!("{base}/repos/octo/hello/events")).header("Authorization", "Bearer key").send().await;
    let bearer = bearer.unwrap();
    assert_eq!(bearer.status(), 401, "`Bearer key` is not the key `key`: the value is never taken apart");
    assert_eq!(bearer.text().await.unwrap(), r#"{"type":"about:blank","status":401,"detail":"unknown credentials"}"#);
}

#[tokio::test]
async fn a_validation_failure_answers_400_in_the_apis_own_error_shape() {
    let (base, _) = start().await;
    let answer = http()
        .post(format!("{base}/user/repos"))
        .bearer_auth("tok")
        .header("content-type", "application/json")
        .body(r#"{"name": "no spaces!", "private": true, "extra": 1}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 400);
    assert_eq!(answer.headers()["content-type"], "application/problem+json");
    assert_eq!(
        answer.text().await.unwrap(),
        r#"{"type":"about:blank","status":400,"detail":"the request is invalid","invalid_params":[{"name":"/extra","reason":"is not a field of this object"}]}"#
    );
    // The client reads the same places back.
    let error = client(&base).repos().create("no spaces!").send().await.unwrap_err();
    let Error::Api { status, code, message, violations, .. } = &error else { panic!("{error:?}") };
    assert_eq!((*status, *code, message.as_str()), (400, 400, "the request is invalid"));
    assert_eq!(violations[0].path, "/name");
    assert!(error.body_as::<forge_client::types::Problem>().is_some(), "the API's error type, decoded");
}

#[tokio::test]
async fn a_pattern_with_a_look_ahead_is_enforced() {
    // `^(?!\.\.?$)[A-Za-z0-9_.-]+$`: regex-lite cannot read it; the backtracking engine does.
    let (base, _) = start().await;
    let post = |body: &'static str| {
        http()
            .post(format!("{base}/user/repos"))
            .bearer_auth("tok")
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    let refused = post(r#"{"name": ".."}"#).await.unwrap();
    assert_eq!(refused.status(), 400);
    assert_eq!(
        refused.text().await.unwrap(),
        r#"{"type":"about:blank","status":400,"detail":"the request is invalid","invalid_params":[{"name":"/name","reason":"must match the pattern ^(?!\\.\\.?$)[A-Za-z0-9_.-]+$"}]}"#
    );
    assert_eq!(post(r#"{"name": "..."}"#).await.unwrap().status(), 201, "three dots are a name");
    assert_eq!(post(r#"{"name": ".hidden"}"#).await.unwrap().status(), 201);
}

#[tokio::test]
async fn each_item_of_a_list_is_checked_against_its_constraints() {
    let (base, _) = start().await;
    let answer = http()
        .post(format!("{base}/user/repos"))
        .bearer_auth("tok")
        .header("content-type", "application/json")
        .body(format!(r#"{{"name": "x", "topics": ["rust", "Not Rust", "{}"]}}"#, "a".repeat(51)))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 400);
    assert_eq!(
        answer.text().await.unwrap(),
        r#"{"type":"about:blank","status":400,"detail":"the request is invalid","invalid_params":[{"name":"/topics/1","reason":"must match the pattern ^[a-z0-9][a-z0-9-]*$"},{"name":"/topics/2","reason":"must be at most 50 characters long (found 51)"}]}"#
    );
    let fine = client(&base).repos().create("x").topics(vec!["rust".to_owned(), "api-tools".to_owned()]).send().await;
    assert!(fine.is_ok(), "{fine:?}");
}

#[tokio::test]
async fn undeclared_fields_are_ignored_unless_the_type_refuses_them() {
    // `api.unknown_fields: ignore`: the DELETE body's `reason` is dropped unread.
    let (base, _) = start().await;
    let delete = http()
        .delete(format!("{base}/repos/octo/hello"))
        .basic_auth("ada", Some("pw"))
        .header("content-type", "application/json")
        .body(r#"{"confirm": "octo/hello", "reason": "cleanup"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(delete.status(), 204, "{:?}", delete.text().await);
    // ... while its declared field is still checked.
    let wrong = http()
        .delete(format!("{base}/repos/octo/hello"))
        .basic_auth("ada", Some("pw"))
        .header("content-type", "application/json")
        .body(r#"{"confirm": 1, "reason": "cleanup"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(
        wrong.text().await.unwrap(),
        r#"{"type":"about:blank","status":400,"detail":"the request is invalid","invalid_params":[{"name":"/confirm","reason":"expected a string, found the number 1"}]}"#
    );
    // openapi.json says which objects are closed.
    let openapi: Value =
        serde_json::from_str(&std::fs::read_to_string("fixtures/generated/forge/openapi.json").unwrap()).unwrap();
    let schemas = &openapi["components"]["schemas"];
    assert_eq!(schemas["CreateRepoBody"]["additionalProperties"], json!(false));
    assert_eq!(schemas["DeleteRepoBody"].get("additionalProperties"), None);
}

#[tokio::test]
async fn the_client_decodes_a_declared_error_type_and_keeps_a_body_that_does_not_fit_raw() {
    let (base, _) = start().await;
    let repos = client(&base);
    let error = repos.repos().get("octo", "missing").send().await.unwrap_err();
    let found = error.body_as::<NotFound>().expect("the 404's declared type");
    assert_eq!(found.message, "Not Found");
    assert!(error.body_as::<forge_client::types::Problem>().is_none(), "404 declares NotFound, not Problem");

    let error = repos.repos().get("octo", "odd").send().await.unwrap_err();
    assert!(error.body_as::<NotFound>().is_none(), "`message: 5` is not a NotFound");
    let Error::Api { status, body, message, .. } = &error else { panic!("{error:?}") };
    assert_eq!((*status, body.as_str()), (404, r#"{"message":5}"#));
    assert_eq!(message, r#"{"message":5}"#, "no message where the shape says: the raw text");
}

#[tokio::test]
async fn each_scheme_presents_its_credentials_where_the_spec_says() {
    let (base, forge) = start().await;
    // `listRepos` accepts a bearer token or the header key; the first one held is sent.
    let by_key = client_with(&base, |b| b.token("apiKey", "key"));
    let page = by_key.repos().list().x_forge_api_version("2022-11-28").send().await.unwrap();
    assert_eq!(page[0].default_branch.as_deref(), Some("2022-11-28/apiKey"), "header parameter and scheme");
    let by_token = client(&base).repos().list().send().await.unwrap();
    assert_eq!(by_token[0].default_branch.as_deref(), Some("/token"));
    // `createRepo` accepts a token or basic credentials.
    let basic = client_with(&base, |b| b.basic("basic", "ada", "pw"));
    assert!(matches!(basic.repos().create("mine").send().await.unwrap(), CreateRepoAnswer::Created(_)));
    // The session cookie and a cookie parameter travel in one `Cookie` header.
    let browser = client_with(&base, |b| b.token("session", "key"));
    let settings = browser.repos().get_settings().theme("dark; bold").send().await.unwrap();
    assert_eq!(settings.theme, "dark; bold", "a cookie value holding `;` survives the trip");
    assert_eq!(*forge.principals.lock().unwrap(), ["apiKey", "token", "basic", "session"]);

    // Without credentials: 401 in the API's shape, naming what to send, with the challenges.
    let refused = http().get(format!("{base}/user/repos")).send().await.unwrap();
    assert_eq!(refused.status(), 401);
    assert_eq!(refused.headers()["www-authenticate"], "Bearer");
    assert_eq!(
        refused.text().await.unwrap(),
        r#"{"type":"about:blank","status":401,"detail":"missing credentials: send `Authorization: Bearer <token>` or the header `X-Forge-Key`"}"#
    );
    // A client without the credentials an operation needs fails before sending.
    let error = client_with(&base, |b| b.token("apiKey", "key")).repos().delete("octo", "x", "octo/x").send().await;
    let message = error.unwrap_err().to_string();
    assert_eq!(message, "`deleteRepo` needs the credentials of `basic`; give them to the client builder");
}

#[tokio::test]
async fn an_http_scheme_is_left_to_the_signer_and_its_authorization_value_reaches_the_authenticator() {
    let (base, forge) = start().await;
    // `createRepo` accepts a token, basic credentials, or an HTTP signature (`signed`).
    let sign = |request: &mut apigen_runtime::client::Signing<'_>| {
        let value = format!(r#"Signature keyId="k1",signature="{} {}""#, request.method(), request.url().path());
        request.set_header("authorization", &value)
    };
    let signed = client_with(&base, |b| b.signer(sign));
    assert!(matches!(signed.repos().create("mine").send().await.unwrap(), CreateRepoAnswer::Created(_)));
    assert_eq!(*forge.principals.lock().unwrap(), ["signed"]);
    // Without a signer, the client says what the scheme needs before sending.
    let message = client_with(&base, |b| b).repos().create("mine").send().await.unwrap_err().to_string();
    assert_eq!(
        message,
        "`createRepo` needs the credentials of `token` or `basic` or `signed`; give them to the client builder \
         (an `http` scheme's by its `.signer(..)`)"
    );
    // A token for it is refused when the client is built.
    let built = ClientBuilder::new(&base, forge_client::USER_AGENT, forge_client::SCHEMES, &forge_client::ERRORS)
        .token("signed", "t")
        .build();
    assert_eq!(
        built.unwrap_err().to_string(),
        "`signed` is an `http` scheme (`Authorization: Signature ..`) the client leaves to its signer: \
         set `.signer(..)` on the builder instead of credentials"
    );
    // The server challenges with the auth-scheme; a wrong signature is refused by the
    // authenticator.
    let refused = http()
        .post(format!("{base}/user/repos"))
        .header("content-type", "application/json")
        .body(r#"{"name":"x"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);
    assert_eq!(refused.headers()["www-authenticate"], "Bearer, Basic realm=\"api\", Signature");
    let wrong = http()
        .post(format!("{base}/user/repos"))
        .header("authorization", r#"signature keyId="k1",signature="forged""#)
        .header("content-type", "application/json")
        .body(r#"{"name":"x"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 401);
    assert_eq!(*forge.principals.lock().unwrap(), ["signed"], "neither reached a handler");
}

#[tokio::test]
async fn schemes_required_together_are_all_sent_and_all_checked() {
    let (base, forge) = start().await;
    // `getSettings` takes the session cookie, or the header key and the query key together.
    let app = client_with(&base, |b| b.token("apiKey", "key").token("queryKey", "key"));
    let settings = app.repos().get_settings().send().await.unwrap();
    assert_eq!(settings.theme, "light");
    assert_eq!(*forge.principals.lock().unwrap(), ["apiKey", "queryKey"], "both authenticated, in the spec's order");
    // Holding one of the two is not enough: the client says so before sending.
    let half = client_with(&base, |b| b.token("apiKey", "key"));
    let message = half.repos().get_settings().send().await.unwrap_err().to_string();
    assert_eq!(
        message,
        "`getSettings` needs the credentials of `session` or `apiKey` and `queryKey`; give them to the client builder"
    );
    // The router refuses a request carrying one of the two.
    let refused = http().get(format!("{base}/user/settings")).header("X-Forge-Key", "key").send().await.unwrap();
    assert_eq!(refused.status(), 401);
    assert_eq!(
        refused.text().await.unwrap(),
        r#"{"type":"about:blank","status":401,"detail":"missing credentials: send the cookie `forge_session` or the header `X-Forge-Key` and the query parameter `access_token`"}"#
    );
    // A wrong key of the two is refused by the authenticator.
    let wrong = http().get(format!("{base}/user/settings?access_token=nope")).header("X-Forge-Key", "key").send().await;
    assert_eq!(wrong.unwrap().status(), 401);
    // openapi.json says both in one requirement object.
    let openapi: Value =
        serde_json::from_str(&std::fs::read_to_string("fixtures/generated/forge/openapi.json").unwrap()).unwrap();
    assert_eq!(
        openapi["paths"]["/user/settings"]["get"]["security"],
        json!([{"session": []}, {"apiKey": [], "queryKey": []}])
    );
}

#[tokio::test]
async fn typed_headers_statuses_with_their_own_bodies_head_options_and_a_delete_body() {
    let (base, _) = start().await;
    let client = client(&base);
    let answer = client.repos().get("octo", "hello").if_none_match("\"v0\"").send_with_response().await.unwrap();
    assert_eq!(answer.body.default_branch.as_deref(), Some("\"v0\""), "the header parameter arrived");
    let headers: GetRepoHeaders = answer.headers_as();
    assert_eq!(headers, GetRepoHeaders { e_tag: Some("\"v1\"".into()), x_rate_limit_remaining: Some(59) });

    let untagged = http().get(format!("{base}/repos/octo/untagged")).bearer_auth("tok").send().await.unwrap();
    assert_eq!(untagged.status(), 500);
    let body: Value = serde_json::from_str(&untagged.text().await.unwrap()).unwrap();
    assert_eq!(body["detail"], "the handler of `getRepo` did not set the response header `ETag`");

    let head = client.repos().head("octo", "hello").send_with_response().await.unwrap();
    assert_eq!((head.status, head.headers_as::<HeadRepoHeaders>().e_tag.as_deref()), (200, Some("\"v1\"")));
    assert_eq!(head.headers["content-type"], "application/json", "the media type of the body HEAD leaves out");

    let created = client.repos().create("fresh").send_with_response().await.unwrap();
    assert_eq!((created.status, created.body.status()), (201, 201));
    let queued = client.repos().create("copy").template("octo/hello").send().await.unwrap();
    assert_eq!(queued, CreateRepoAnswer::Accepted);

    let basic = client_with(&base, |b| b.basic("basic", "ada", "pw"));
    basic.repos().delete("octo", "hello", "octo/hello").send().await.unwrap();
    let wrong = basic.repos().delete("octo", "hello", "octo/other").send().await.unwrap_err();
    assert_eq!(wrong.status(), Some(400));

    let health = http()
        .request(apigen_runtime::client::reqwest::Method::OPTIONS, format!("{base}/health"))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), 204, "public, no credentials");
}

#[test]
fn the_default_base_url_is_the_first_server_with_its_variables_at_their_defaults() {
    // api.yaml: `url: "https://{host}"`, `host: { default: api.forge.example }`.
    assert_eq!(forge_client::DEFAULT_BASE_URL, "https://api.forge.example");
    let client = Client::new(forge_client::DEFAULT_BASE_URL, "tok").unwrap();
    drop(client);
}
