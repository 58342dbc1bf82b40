//! Paginated lists read as one stream of [`Items`]: the [`Pager`] follows the pages in the
//! operation's [`PageStyle`] (a cursor, `has_more`, offsets, page numbers, the `Link` header),
//! guards their number, refuses a repeated cursor or a link leading outside the API, and each
//! page's items are decoded leniently. The pager sends nothing: it says which call reads the
//! next page and reads the answer the client's core got for it (`Core::stream` drives it).

use super::call::Call;
use super::error::Error;
use super::redact::Redactor;
use super::transfer::{Answer, decode_error, parse_body, snippet};
use crate::json::FromJson;
use crate::page::{PageStyle, Paging};
use crate::validate::Violation;
use futures_util::stream::Stream;

/// The items of a paginated list, across pages: `Unpin`, so `while let Some(item) =
/// items.next().await` works as is (with `futures_util::StreamExt`).
pub type Items<T> = std::pin::Pin<Box<dyn Stream<Item = Result<T, Error>> + Send + 'static>>;

/// Follows the pages of a stream, in any [`PageStyle`]: which page to ask for next, the page
/// guard, a repeated cursor, a `Link` leading outside the API.
pub(super) struct Pager {
    call: Call,
    paging: &'static Paging,
    /// The API's base URL, which a `Link` must stay under.
    base: reqwest::Url,
    /// The client's page guard.
    max_pages: usize,
    /// Takes the client's secrets out of the errors of the stream.
    redactor: Redactor,
    /// The next page to read; `None` when done.
    next: Option<Next>,
    /// The cursor parameter's value of the page just read (offsets and page numbers count
    /// from it).
    position: Option<String>,
    /// An error to yield once the items read so far are out.
    failure: Option<Error>,
    /// Every cursor or link followed, to refuse a repeated one.
    seen: Vec<String>,
    pages: usize,
}

/// Where the next page is.
enum Next {
    /// The call as given.
    First,
    /// The call with the cursor parameter set to this value.
    Position(String),
    /// This path and query, relative to the API's base URL (from a `Link` header).
    Link(String),
}

impl Pager {
    /// The pager of the pages `call` starts (its cursor parameter, if given, the first
    /// position), `paging` as the operation pages.
    pub(super) fn new(
        call: Call,
        paging: &'static Paging,
        base: reqwest::Url,
        max_pages: usize,
        redactor: Redactor,
    ) -> Self {
        let first = call.query.iter().find(|(key, _)| key == paging.cursor).map(|(_, value)| value.clone());
        Pager {
            call,
            paging,
            base,
            max_pages,
            redactor,
            next: Some(Next::First),
            position: first,
            failure: None,
            seen: Vec::new(),
            pages: 0,
        }
    }

    /// The call reading the next page, an error, or `None` when every page was read.
    pub(super) fn next_call(&mut self) -> Option<Result<Call, Error>> {
        if let Some(error) = self.failure.take() {
            return Some(Err(error));
        }
        let next = self.next.take()?;
        if self.pages >= self.max_pages {
            let message = format!("stopped after {} pages (the client's page guard)", self.pages);
            return Some(Err(Error::Pagination(message)));
        }
        self.pages += 1;
        let mut call = self.call.clone();
        match next {
            Next::First => {}
            Next::Position(value) => {
                call.query.retain(|(key, _)| key != self.paging.cursor);
                call.query.push((self.paging.cursor.into(), value.clone()));
                self.position = Some(value);
            }
            Next::Link(relative) => {
                call.path = relative;
                call.query.clear();
            }
        }
        Some(Ok(call))
    }

    /// The items of a page (a JSON array) with the page's body as received, and where the
    /// next one is.
    pub(super) fn read(&mut self, answer: Answer) -> Result<(serde_json::Value, Vec<u8>), Error> {
        let redactor = &self.redactor;
        let mut body = parse_body(&answer.body, redactor)?;
        let items = if self.paging.items.is_empty() {
            body.take()
        } else {
            body.pointer_mut(self.paging.items).map(serde_json::Value::take).unwrap_or_default()
        };
        let Some(list) = items.as_array() else {
            return Err(redactor.error(Error::Decode {
                path: self.paging.items.to_owned(),
                message: "the items of the page are not a list".into(),
                snippet: snippet(&items.to_string(), redactor),
            }));
        };
        let count = list.len();
        let next = match self.paging.style {
            PageStyle::Cursor { next } => body.pointer(next).and_then(text_of).map(Next::Position),
            PageStyle::HasMore { has_more, item_id } => {
                let more = body.pointer(has_more).and_then(serde_json::Value::as_bool) == Some(true);
                let last = list.last().and_then(|item| item.pointer(item_id)).and_then(text_of);
                last.filter(|_| more).map(Next::Position)
            }
            PageStyle::Offset => {
                let at = self.position.as_deref().and_then(|p| p.parse::<u64>().ok()).unwrap_or(0);
                (count > 0).then(|| Next::Position((at + count as u64).to_string()))
            }
            PageStyle::Page => {
                let at = self.position.as_deref().and_then(|p| p.parse::<u64>().ok()).unwrap_or(1);
                (count > 0).then(|| Next::Position((at + 1).to_string()))
            }
            PageStyle::Link => match next_link(&answer.headers).map(|link| self.within_api(&link)) {
                Some(Ok(relative)) => Some(Next::Link(relative)),
                Some(Err(error)) => {
                    self.failure = Some(error);
                    None
                }
                None => None,
            },
        };
        self.follow(next);
        Ok((items, answer.body.into_bytes()))
    }

    /// A link's target as a path and query relative to the API's base URL; a link to another
    /// host or outside the base path is refused (the client would send its credentials there).
    /// The error quotes the link without the client's secrets or the API's query keys.
    fn within_api(&self, link: &str) -> Result<String, Error> {
        let redactor = &self.redactor;
        let url = self.base.join(link).map_err(|e| {
            Error::Pagination(format!("the next page's link {:?} does not parse: {e}", redactor.url_text(link)))
        })?;
        match url.as_str().strip_prefix(self.base.as_str()) {
            Some(relative) => Ok(relative.to_owned()),
            None => Err(Error::Pagination(format!(
                "the next page's link leads outside the API: {}",
                redactor.url_text(url.as_str())
            ))),
        }
    }

    /// Records where the next page is; one seen before ends the stream with an error after
    /// this page's items.
    fn follow(&mut self, next: Option<Next>) {
        let key = match &next {
            Some(Next::Position(value) | Next::Link(value)) => value.clone(),
            _ => return,
        };
        if self.seen.contains(&key) {
            let shown = match &next {
                Some(Next::Link(_)) => self.redactor.url_text(&key),
                _ => self.redactor.text(&key),
            };
            self.failure = Some(Error::Pagination(format!("the service repeated the page cursor {shown:?}")));
        } else {
            self.seen.push(key);
            self.next = next;
        }
    }
}

/// A cursor as text: a non-empty string or a number.
fn text_of(value: &serde_json::Value) -> Option<String> {
    match value {
        serde_json::Value::String(text) if !text.is_empty() => Some(text.clone()),
        serde_json::Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// The target of the `Link` header's `rel="next"` link (RFC 8288), if any.
fn next_link(headers: &reqwest::header::HeaderMap) -> Option<String> {
    for value in headers.get_all(reqwest::header::LINK) {
        let Ok(text) = value.to_str() else { continue };
        let mut rest = text;
        while let Some(start) = rest.find('<') {
            let after = &rest[start + 1..];
            let end = after.find('>')?;
            let target = &after[..end];
            let params_end = after[end..].find('<').map_or(after.len(), |i| end + i);
            let params = &after[end + 1..params_end];
            let is_next = params.split(';').any(|param| {
                let Some((key, value)) = param.split_once('=') else { return false };
                key.trim().eq_ignore_ascii_case("rel")
                    && value.trim().trim_matches('"').split_whitespace().any(|rel| rel.eq_ignore_ascii_case("next"))
            });
            if is_next {
                return Some(target.to_owned());
            }
            rest = &after[params_end..];
        }
    }
    None
}

impl Pager {
    /// A page's items decoded leniently; a failure is located in the page's body (`page`),
    /// the items being at the paging's pointer in it. (The only generic part of a stream:
    /// following the pages is compiled once, not once per paginated operation.)
    pub(super) fn decode_items<I: FromJson>(&self, items: serde_json::Value, page: &[u8]) -> Result<Vec<I>, Error> {
        let at = self.paging.items;
        crate::json::decode(items, crate::json::Mode::Lenient).map_err(|violations| {
            let located =
                violations.0.into_iter().map(|v| Violation::new(format!("{at}{}", v.path), v.message)).collect();
            decode_error(page, crate::validate::Violations(located), &self.redactor)
        })
    }
}
