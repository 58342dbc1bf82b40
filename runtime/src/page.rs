//! The list envelope of paginated operations: `{ next?: { page }, count?, items }`.

use crate::json::{Decoder, Fields, FromJson, Source};
use crate::validate::{Validate, Validator};
use serde::Serialize;

/// One page of a paginated list.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    /// Where the next page starts; absent on the last page.
    pub next: Option<PageNext>,
    /// The count the service reports with the page, when it reports one.
    pub count: Option<i64>,
    /// The items of this page.
    pub items: Vec<T>,
}

/// The cursor of the next page.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PageNext {
    /// The value to pass as the `page` query parameter to read the next page.
    pub page: String,
}

/// A page of a list, standard or with fields of its own: what a pagination stream needs.
pub trait Paginated {
    /// The item type.
    type Item;
    /// The cursor of the next page, `None` on the last page.
    fn next_page(&self) -> Option<&str>;
    /// The items of this page.
    fn into_items(self) -> Vec<Self::Item>;
}

impl<T> Paginated for Page<T> {
    type Item = T;
    fn next_page(&self) -> Option<&str> {
        self.next.as_ref().map(|next| next.page.as_str())
    }
    fn into_items(self) -> Vec<T> {
        self.items
    }
}

impl<T> Page<T> {
    /// A page holding `items`, with `next` when more follow, and no count.
    pub fn new(items: Vec<T>, next: Option<String>) -> Self {
        Page { next: next.map(|page| PageNext { page }), count: None, items }
    }

    /// The page with `count` reported (the number of items of the whole list, say).
    #[must_use]
    pub fn with_count(mut self, count: i64) -> Self {
        self.count = Some(count);
        self
    }
}

impl FromJson for PageNext {
    fn from_json(value: Source<'_>, d: &mut Decoder) -> Option<Self> {
        let mut o = d.object(value)?;
        let next = PageNext { page: o.required("page") };
        o.finish()?;
        Some(next)
    }
}

impl<T: FromJson> FromJson for Page<T> {
    fn from_json(value: Source<'_>, d: &mut Decoder) -> Option<Self> {
        let mut o = d.object(value)?;
        let page = Page { next: o.optional("next"), count: o.optional("count"), items: o.required("items") };
        o.finish()?;
        Some(page)
    }
}

impl Serialize for PageNext {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut fields = Fields::begin(serializer)?;
        fields.put("page", &self.page);
        fields.end()
    }
}

impl<T: Serialize> Serialize for Page<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut fields = Fields::begin(serializer)?;
        fields.optional("next", &self.next);
        fields.optional("count", &self.count);
        fields.put("items", &self.items);
        fields.end()
    }
}

impl<'de, T: FromJson> serde::Deserialize<'de> for Page<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::json::deserialize(deserializer)
    }
}

impl<T: Validate> Validate for Page<T> {
    fn validate_into(&self, v: &mut Validator) {
        v.field("items", &self.items);
    }
}

/// How a paginated operation pages (generated per operation from the spec's `pagination`):
/// which request parameter carries the position of the next page, where the items are in a
/// page's body, and how the next position is found.
#[doc(hidden)] // Generated code names it through `codegen`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    /// The query parameter taking the next cursor, offset or page number.
    pub cursor: &'static str,
    /// JSON pointer of the items in a page's body; empty when the body is the list itself.
    pub items: &'static str,
    /// How the next position is found.
    pub style: PageStyle,
}

/// How the position of the next page is found.
#[doc(hidden)] // Generated code names it through `codegen`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageStyle {
    /// A cursor in the body, at this JSON pointer (`/next/page`, `/nextPageToken`,
    /// `/response_metadata/next_cursor`); absent, null or empty on the last page.
    Cursor {
        /// Where the cursor is.
        next: &'static str,
    },
    /// A boolean in the body says whether more follow; the next cursor is a field of the last
    /// item (Stripe's `has_more` with `starting_after`).
    HasMore {
        /// Where the boolean is.
        has_more: &'static str,
        /// Where the cursor is inside an item (`/id`).
        item_id: &'static str,
    },
    /// The parameter is an offset: the next one is this one plus the items read; an empty
    /// page is the last.
    Offset,
    /// The parameter is a page number (1 for the first page): the next is one more; an empty
    /// page is the last.
    Page,
    /// The `Link` response header's `rel="next"` URL (RFC 8288); absent on the last page.
    Link,
}

impl Paging {
    /// The built-in envelope `{ next?: { page }, count?, items }` paged by `cursor`.
    pub const fn standard(cursor: &'static str) -> Self {
        Paging { cursor, items: "/items", style: PageStyle::Cursor { next: "/next/page" } }
    }
}
