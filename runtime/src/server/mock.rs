//! [`MockService`]: a service answering every operation through one function, for mock servers
//! and tests; a list it answers from a table of samples ends on the page after the sample's.

use super::{Anonymous, ApiError, Authenticator, Context};
use crate::auth::{Credential, Secret};
use crate::json::{FromJson, Mode};
use crate::page::{PageStyle, Paging};
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
    /// Whether a principal was granted a scope ([`MockService::with_grants`]); `None`: every
    /// scope to every principal.
    grants: Option<Arc<MockGrants>>,
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
    /// How the operation pages, for a paginated list: the body is its first page, pointing
    /// to a next one, and a request for any following page answers the last page.
    pub paging: Option<MockPaging>,
}

/// How a list answered by a [`MockAnswer`] pages, and what its document lets a page be.
///
/// The page after the sample's is the last: the sample again, pointing nowhere (the next
/// cursor removed, `has_more` false, no `Link`), so `.stream()` over the mock reads two pages
/// and the sample's items twice. The `offset` and `page` styles end only at an empty page,
/// which the mock answers when the list may be empty; a list whose document says it holds at
/// least one item (`min_items`) has no page the document allows that ends it, so the mock
/// answers the sample again (a stream over it stops at the client's page guard).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MockPaging {
    /// The list's convention, as the client's `.stream()` follows it.
    pub paging: Paging,
    /// The fewest items a page holds (the list's `min_items`; 0 when the document sets none).
    pub min_items: u64,
}

type MockHandler = dyn Fn(MockCall) -> Result<serde_json::Value, ApiError> + Send + Sync;
type MockAuth = dyn Fn(&str) -> Result<String, ApiError> + Send + Sync;
type MockGrants = dyn Fn(&str, &str) -> bool + Send + Sync;

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
        MockService {
            handler: Arc::new(handler),
            auth: Arc::new(|token: &str| Ok(token.to_owned())),
            grants: None,
            answers,
        }
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

    /// Grants a principal (what the closure of [`MockService::with_auth`] returned: by
    /// default the token) a scope only when `grants(principal, scope)` is true; by default a
    /// mock grants every scope, so an operation requiring scopes answers any accepted token.
    /// With it, a token lacking a scope is refused with 403 and RFC 6750's
    /// `insufficient_scope` challenge, as a real service would.
    pub fn with_grants(mut self, grants: impl Fn(&str, &str) -> bool + Send + Sync + 'static) -> Self {
        self.grants = Some(Arc::new(grants));
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
        let answer = answer_to(&self.answers, operation);
        if let Some(answer) = answer {
            for (name, value) in answer.headers {
                let header = axum::http::HeaderName::from_bytes(name.as_bytes());
                let (Ok(header), Ok(value)) = (header, axum::http::HeaderValue::from_str(value)) else {
                    return Err(ApiError::internal(format!("the mock's header `{name}` cannot hold {value:?}")));
                };
                context.insert_response_header(header, value);
            }
        }
        let paging = answer.and_then(|answer| answer.paging);
        let following = paging.is_some_and(|list| asks_following_page(&request, &list.paging));
        let body = (self.handler)(MockCall { operation, principal: context.principal.mock_principal(), request })?;
        Ok(match paging {
            Some(paging) if following => last_page(body, &paging),
            Some(MockPaging { paging: Paging { style: PageStyle::Link, .. }, .. }) => {
                // The `Link` style's next page is the header the router writes from this.
                context.set_next_page(LINKED_PAGE);
                body
            }
            _ => body,
        })
    }
}

/// The cursor of the page after the first, which the mock links to in the `Link` style (the
/// other styles hand out what the sample's body says, or the client counts).
const LINKED_PAGE: &str = "2";

/// Whether a list's request asks for a page after the first: it passes the paging parameter,
/// other than the first page's offset (0) or number (1).
fn asks_following_page(request: &serde_json::Value, paging: &Paging) -> bool {
    let position = match request.get(paging.cursor) {
        None | Some(serde_json::Value::Null) => return false,
        Some(serde_json::Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
    };
    match paging.style {
        PageStyle::Offset => position != "0",
        PageStyle::Page => position != "1",
        PageStyle::Cursor { .. } | PageStyle::HasMore { .. } | PageStyle::Link => true,
    }
}

/// The last page of a list, made from its first: the same items, nothing pointing further
/// (the next cursor removed, `has_more` false, no `Link` set); the offset and page styles,
/// which end at an empty page, have their items emptied when the list may be empty.
fn last_page(mut page: serde_json::Value, list: &MockPaging) -> serde_json::Value {
    match list.paging.style {
        PageStyle::Cursor { next } => remove_pointed(&mut page, next),
        PageStyle::HasMore { has_more, .. } => {
            if let Some(more) = page.pointer_mut(has_more) {
                *more = serde_json::Value::Bool(false);
            }
        }
        PageStyle::Offset | PageStyle::Page if list.min_items == 0 => {
            if let Some(items) = page.pointer_mut(list.paging.items) {
                *items = serde_json::Value::Array(Vec::new());
            }
        }
        PageStyle::Offset | PageStyle::Page | PageStyle::Link => {}
    }
    page
}

/// Removes the value at a JSON pointer, and each object above it that is left empty (the
/// envelope's `next: { page }` goes whole, as a last page has no `next`).
fn remove_pointed(value: &mut serde_json::Value, pointer: &str) {
    let Some((parent, key)) = pointer.rsplit_once('/') else { return };
    let key = key.replace("~1", "/").replace("~0", "~");
    let Some(serde_json::Value::Object(fields)) = value.pointer_mut(parent) else { return };
    fields.remove(&key);
    if fields.is_empty() && !parent.is_empty() {
        remove_pointed(value, parent);
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

    /// Every scope, unless [`MockService::with_grants`] says otherwise: a mock answers what
    /// its closure accepts, whatever scopes an operation requires.
    fn grants(&self, principal: &String, scope: &str) -> bool {
        self.grants.as_ref().is_none_or(|grants| grants(principal, scope))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const HAS_MORE: Paging = Paging {
        cursor: "starting_after",
        items: "/data",
        style: PageStyle::HasMore { has_more: "/has_more", item_id: "/id" },
    };

    #[test]
    fn a_following_page_is_asked_by_any_position_past_the_first() {
        let offset = Paging { cursor: "offset", items: "/items", style: PageStyle::Offset };
        let page = Paging { cursor: "page", items: "", style: PageStyle::Page };
        assert!(!asks_following_page(&json!({"offset": 0}), &offset));
        assert!(asks_following_page(&json!({"offset": 1}), &offset));
        assert!(!asks_following_page(&json!({"page": 1}), &page));
        assert!(asks_following_page(&json!({"page": "2"}), &page));
        assert!(!asks_following_page(&json!({"starting_after": null}), &HAS_MORE));
        assert!(asks_following_page(&json!({"starting_after": "ch_1"}), &HAS_MORE));
    }

    /// A list that may be empty, paged as `paging`.
    fn list(paging: Paging) -> MockPaging {
        MockPaging { paging, min_items: 0 }
    }

    #[test]
    fn the_last_page_keeps_the_items_and_points_nowhere() {
        let first = json!({"data": [{"id": "ch_1"}], "has_more": true, "object": "list"});
        let last = json!({"data": [{"id": "ch_1"}], "has_more": false, "object": "list"});
        assert_eq!(last_page(first, &list(HAS_MORE)), last);
        let cursor = Paging { cursor: "c", items: "/items", style: PageStyle::Cursor { next: "/meta/next" } };
        let first = json!({"items": [1], "meta": {"next": "n", "total": 1}});
        assert_eq!(last_page(first, &list(cursor)), json!({"items": [1], "meta": {"total": 1}}));
        let first = json!({"next": {"page": "page_2"}, "count": 1, "items": [1]});
        assert_eq!(last_page(first, &list(Paging::standard("page"))), json!({"count": 1, "items": [1]}));
        let link = Paging { cursor: "page", items: "", style: PageStyle::Link };
        assert_eq!(last_page(json!([1, 2]), &list(link)), json!([1, 2]));
    }

    #[test]
    fn a_numbered_list_ends_empty_only_where_its_document_lets_a_page_be_empty() {
        let page = Paging { cursor: "page", items: "", style: PageStyle::Page };
        assert_eq!(last_page(json!([1, 2]), &list(page)), json!([]));
        let offset = Paging { cursor: "offset", items: "/rows", style: PageStyle::Offset };
        assert_eq!(last_page(json!({"rows": [1], "total": 1}), &list(offset)), json!({"rows": [], "total": 1}));
        // `min_items: 1`: no empty page is allowed, so the page is the sample again.
        let at_least_one = MockPaging { paging: page, min_items: 1 };
        assert_eq!(last_page(json!([1, 2]), &at_least_one), json!([1, 2]));
    }
}
