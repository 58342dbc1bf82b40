//! [`MockService`]: a service answering every operation through one function, for mock servers
//! and tests.

use super::{Anonymous, ApiError, Authenticator, Context};
use crate::auth::{Credential, Secret};
use crate::json::{FromJson, Mode};
use serde::Serialize;
use std::future::Future;
use std::sync::Arc;

/// A service answering every operation through one function: for mock servers and tests.
///
/// Generated servers implement every group of operations for it (feature `mock`). Each call
/// hands the function the operation's name, the caller's token and the parsed request as JSON
/// (parameters and `body` by their wire names); the JSON it returns is decoded into the
/// operation's response type.
#[derive(Clone)]
pub struct MockService {
    handler: Arc<MockHandler>,
    auth: Arc<MockAuth>,
    /// The answers of [`MockService::answering`], whose headers are set on every call: tables
    /// of answers, one per group of operations in a generated server.
    answers: Arc<[&'static [MockAnswer]]>,
}

/// What a [`MockService::answering`] answers to one operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MockAnswer {
    /// The operation's name in the spec.
    pub operation: &'static str,
    /// The response body as JSON text (`null` for an operation answering none).
    pub body: &'static str,
    /// Response headers set on the answer, by name.
    pub headers: &'static [(&'static str, &'static str)],
}

type MockHandler = dyn Fn(MockCall) -> Result<serde_json::Value, ApiError> + Send + Sync;
type MockAuth = dyn Fn(&str) -> Result<String, ApiError> + Send + Sync;

/// One call received by a [`MockService`].
#[derive(Debug, Clone, PartialEq)]
pub struct MockCall {
    /// The operation's name in the spec.
    pub operation: &'static str,
    /// The principal the authenticator returned (the token, by default); `None` on public
    /// operations.
    pub principal: Option<String>,
    /// The parsed request: parameters and `body`, by wire name.
    pub request: serde_json::Value,
}

impl MockService {
    /// A service answering every call with `handler`, accepting every token.
    pub fn new(handler: impl Fn(MockCall) -> Result<serde_json::Value, ApiError> + Send + Sync + 'static) -> Self {
        let answers = Arc::from(Vec::new());
        MockService { handler: Arc::new(handler), auth: Arc::new(|token: &str| Ok(token.to_owned())), answers }
    }

    /// A service answering each operation with the body and headers given for it, by the
    /// operation's name in the spec (an operation not listed answers 501): a stand-in
    /// answering what the API promises, for client tests and OpenAPI conformance runs.
    pub fn answering(answers: &'static [MockAnswer]) -> Self {
        MockService::answering_groups(&[answers])
    }

    /// [`MockService::answering`] from several tables of answers: the generated server's
    /// `mock::samples()` gives the spec's sample responses this way, one table per group of
    /// operations, each compiled only with its group's feature.
    pub fn answering_groups(groups: &[&'static [MockAnswer]]) -> Self {
        let answers: Arc<[&'static [MockAnswer]]> = Arc::from(groups);
        let tables = Arc::clone(&answers);
        let mut service = MockService::new(move |call| {
            let Some(answer) = answer_to(&tables, call.operation) else {
                return Err(ApiError::not_implemented(call.operation));
            };
            serde_json::from_str(answer.body).map_err(|error| {
                ApiError::internal(format!("the answer given for `{}` is not JSON: {error}", call.operation))
            })
        });
        service.answers = answers;
        service
    }

    /// Checks tokens with `auth`, which returns the principal or refuses.
    pub fn with_auth(mut self, auth: impl Fn(&str) -> Result<String, ApiError> + Send + Sync + 'static) -> Self {
        self.auth = Arc::new(auth);
        self
    }

    /// Calls the handler and decodes its answer as `T` (generated code).
    pub fn call<T: FromJson>(
        &self,
        operation: &'static str,
        context: &Context<impl MockPrincipal, impl Sized>,
        request: &impl Serialize,
    ) -> std::future::Ready<Result<T, ApiError>> {
        std::future::ready(self.invoke(operation, context, request).and_then(|value| {
            crate::json::decode(value, Mode::Lenient).map_err(|violations| {
                ApiError::internal(format!("the mock's answer to `{operation}` does not decode: {violations}"))
            })
        }))
    }

    /// Calls the handler for an operation answering raw bytes (generated code): a string the
    /// handler answers is sent as its bytes, any other JSON as its text.
    pub fn call_download(
        &self,
        operation: &'static str,
        context: &Context<impl MockPrincipal, impl Sized>,
        request: &impl Serialize,
    ) -> std::future::Ready<Result<super::Download, ApiError>> {
        std::future::ready(self.invoke(operation, context, request).map(|value| match value {
            serde_json::Value::String(text) => super::Download::bytes(text),
            other => super::Download::bytes(other.to_string()),
        }))
    }

    /// Calls the handler for an operation without response body (generated code).
    pub fn call_empty(
        &self,
        operation: &'static str,
        context: &Context<impl MockPrincipal, impl Sized>,
        request: &impl Serialize,
    ) -> std::future::Ready<Result<(), ApiError>> {
        std::future::ready(self.invoke(operation, context, request).map(|_| ()))
    }

    fn invoke(
        &self,
        operation: &'static str,
        context: &Context<impl MockPrincipal, impl Sized>,
        request: &impl Serialize,
    ) -> Result<serde_json::Value, ApiError> {
        let request = serde_json::to_value(request).map_err(|e| ApiError::internal(e.to_string()))?;
        if let Some(answer) = answer_to(&self.answers, operation) {
            for (name, value) in answer.headers {
                let header = axum::http::HeaderName::from_bytes(name.as_bytes());
                let (Ok(header), Ok(value)) = (header, axum::http::HeaderValue::from_str(value)) else {
                    return Err(ApiError::internal(format!("the mock's header `{name}` cannot hold {value:?}")));
                };
                context.insert_response_header(header, value);
            }
        }
        (self.handler)(MockCall { operation, principal: context.principal.mock_principal(), request })
    }
}

/// The answer the tables give `operation`.
fn answer_to(tables: &[&'static [MockAnswer]], operation: &str) -> Option<&'static MockAnswer> {
    tables.iter().flat_map(|table| table.iter()).find(|answer| answer.operation == operation)
}

/// The principals a [`MockService`] sees: its own (`String`) and [`Anonymous`].
pub trait MockPrincipal {
    /// The principal as a [`MockCall`] reports it.
    fn mock_principal(&self) -> Option<String>;
}

impl MockPrincipal for String {
    fn mock_principal(&self) -> Option<String> {
        Some(self.clone())
    }
}

impl MockPrincipal for Anonymous {
    fn mock_principal(&self) -> Option<String> {
        None
    }
}

impl Authenticator for MockService {
    type Principal = String;

    /// Hands the closure of [`MockService::with_auth`] the bearer token or API key,
    /// `user:password` for basic credentials, or the whole `Authorization` value of an `http`
    /// scheme.
    fn authenticate(&self, credential: Credential<'_>) -> impl Future<Output = Result<String, ApiError>> + Send {
        let text = match credential.secret {
            Secret::Basic { user, password } => format!("{user}:{password}"),
            Secret::Bearer(token) | Secret::ApiKey(token) | Secret::Http(token) => token.to_owned(),
        };
        std::future::ready((self.auth)(&text))
    }
}
