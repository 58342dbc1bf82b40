//! The `tracing` feature of the generated server and client: one span per request the server
//! answers (operation, group, method, route, status, latency, violations), one per call and one
//! per attempt of the client, nested under tower-http's `TraceLayer` request spans, recorded by
//! a `tracing-subscriber` layer; nothing secret in them.

use apigen_runtime::server::axum::http::StatusCode;
use petstore_client::{Client, RetryPolicy};
use petstore_server::types::{Pet, PetKind, PutPetBody};
use petstore_server::{ApiError, Authenticator, Context, GetPetRequest, PutPetRequest, PutPetStatus, RouterBuilder};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing_subscriber::layer::{Context as LayerContext, Layer, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

/// One span as recorded: its name, its parent's name, and every field with a value.
#[derive(Debug, Clone, PartialEq)]
struct Recorded {
    name: &'static str,
    parent: Option<&'static str>,
    fields: BTreeMap<String, String>,
}

/// Records every span, in the order opened, with the values recorded later.
#[derive(Clone, Default)]
struct Spans(Arc<Mutex<Vec<(Id, Recorded)>>>);

struct Values<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Values<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl<S: tracing::Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Spans {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: LayerContext<'_, S>) {
        let mut fields = BTreeMap::new();
        attrs.record(&mut Values(&mut fields));
        let parent = ctx.span(id).and_then(|span| span.parent()).map(|parent| parent.name());
        self.0.lock().unwrap().push((id.clone(), Recorded { name: attrs.metadata().name(), parent, fields }));
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _: LayerContext<'_, S>) {
        let mut spans = self.0.lock().unwrap();
        if let Some((_, recorded)) = spans.iter_mut().rev().find(|(known, _)| known == id) {
            values.record(&mut Values(&mut recorded.fields));
        }
    }
}

impl Spans {
    /// The spans named `name`, latency dropped (it varies) once checked to be there.
    fn named(&self, name: &str) -> Vec<Recorded> {
        let spans = self.0.lock().unwrap();
        spans
            .iter()
            .filter(|(_, span)| span.name == name)
            .map(|(_, span)| {
                let mut span = span.clone();
                let latency = span.fields.remove("latency_ms").expect("a latency is recorded");
                assert!(latency.parse::<f64>().is_ok_and(|ms| ms >= 0.0), "{latency}");
                span
            })
            .collect()
    }
}

/// Answers `getPet` with 503 the first time, then the pet; `putPet` as given.
#[derive(Default)]
struct Flaky {
    calls: AtomicUsize,
}

impl Authenticator for Flaky {
    type Principal = String;
    async fn authenticate(&self, credential: petstore_server::Credential<'_>) -> Result<String, ApiError> {
        match credential.token() {
            Some("s3cret-token") => Ok("staff".into()),
            _ => Err(ApiError::unauthorized("unknown token")),
        }
    }
}

fn pet(id: String, name: String) -> Pet {
    Pet { id, name, kind: PetKind::Dog, tags: None, born: None, owner: None }
}

async fn get_pet(service: Arc<Flaky>, _: Context<String>, request: GetPetRequest) -> Result<Pet, ApiError> {
    if service.calls.fetch_add(1, Ordering::SeqCst) == 0 {
        return Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "warming up"));
    }
    Ok(pet(request.pet_id, "Rex".into()))
}

async fn put_pet(_: Arc<Flaky>, _: Context<String, PutPetStatus>, request: PutPetRequest) -> Result<Pet, ApiError> {
    Ok(pet(request.pet_id, request.body.name))
}

fn field(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

#[tokio::test]
async fn requests_calls_and_attempts_each_have_a_span_under_tower_http_request_spans() {
    let spans = Spans::default();
    let subscriber = tracing_subscriber::registry().with(spans.clone());
    let _guard = tracing::subscriber::set_default(subscriber);

    let router = RouterBuilder::new(Flaky::default())
        .get_pet(get_pet)
        .put_pet(put_pet)
        .build_partial()
        .layer(tower_http::trace::TraceLayer::new_for_http());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(apigen_runtime::listener::serve(listener, router, Default::default()));
    let retry = RetryPolicy { max_retries: 2, initial_backoff: Duration::from_millis(1), ..RetryPolicy::default() };
    let client = Client::builder(&base).bearer("s3cret-token").retry(retry).build().unwrap();

    // A retried call: two attempts, the first answered 503.
    let got = client.pets().get("p-1").send().await.unwrap();
    assert_eq!(got.name, "Rex");
    // A request the router refuses before the handler: the name is empty, one violation.
    let body = PutPetBody { name: String::new(), kind: PetKind::Cat };
    let refused = client.pets().put("p-2", body).send().await.unwrap_err();
    assert_eq!(refused.status(), Some(400));

    let operation = |name: &str, method: &str, route: &str, status: &str| {
        let pairs = [("operation", name), ("group", "pets"), ("method", method), ("route", route), ("status", status)];
        Recorded { name: "operation", parent: Some("request"), fields: field(&pairs) }
    };
    let mut refusal = operation("putPet", "PUT", "/v2/pets/{petId}", "400");
    refusal.fields.insert("violations".into(), "1".into());
    assert_eq!(
        spans.named("operation"),
        [
            operation("getPet", "GET", "/v2/pets/{petId}", "503"),
            operation("getPet", "GET", "/v2/pets/{petId}", "200"),
            refusal
        ]
    );
    let call = |operation: &str, method: &str, status: &str, attempts: &str, error: Option<&str>| {
        let mut fields =
            field(&[("operation", operation), ("method", method), ("status", status), ("attempts", attempts)]);
        if let Some(error) = error {
            fields.insert("error".into(), error.into());
        }
        Recorded { name: "call", parent: None, fields }
    };
    assert_eq!(
        spans.named("call"),
        [call("getPet", "GET", "200", "2", None), call("putPet", "PUT", "400", "1", Some("status"))]
    );
    let attempts = spans.named("attempt");
    assert_eq!(attempts.len(), 3, "{attempts:#?}");
    assert_eq!(attempts[0].parent, Some("call"));
    assert_eq!((attempts[0].fields["attempt"].as_str(), attempts[0].fields["status"].as_str()), ("1", "503"));
    assert!(attempts[0].fields.contains_key("retry_in_ms"), "{attempts:#?}");
    assert_eq!(attempts[1].fields, field(&[("attempt", "2"), ("status", "200")]));
    assert_eq!(attempts[2].fields, field(&[("attempt", "1"), ("status", "400")]));

    // Nothing secret in any span: no token, no URL, no header.
    let recorded =
        format!("{:?}", spans.0.lock().unwrap().iter().filter(|(_, s)| s.name != "request").collect::<Vec<_>>());
    for secret in ["s3cret-token", "Bearer", "http://", "127.0.0.1"] {
        assert!(!recorded.contains(secret), "{secret} in {recorded}");
    }
}
