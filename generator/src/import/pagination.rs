//! Pagination told from names. OpenAPI has no word for how a list pages, so for a document
//! that does not say it (`x-pagination`, apigen's own export, does) the import reads the names
//! the document uses, by the rules below, and writes the convention it found in the spec
//! (`response.pagination`, or `api.yaml`'s `pagination` when most lists share one), where a
//! person can correct it. A list whose convention cannot be told stays a plain response, with a
//! gap naming why.
//!
//! Only a GET whose success body is a list, or an object holding lists, is looked at, and only
//! when it shows a sign of paging: a `Link` response header, a query parameter taking a
//! position ([`POSITION_PARAMS`]), or a `has_more` or next-page field in the body. Names are
//! compared without case and without anything but letters and digits (`next_page_token`,
//! `nextPageToken` and `$skip` are `nextpagetoken`, `nextpagetoken` and `skip`). The first rule
//! that applies decides:
//!
//! 1. the items: the body itself when it is a list, else its only list property, else its only
//!    list of objects (several: gap `pagination-items`);
//! 2. `link`: the success response declares a `Link` header; the cursor is the parameter its
//!    example's `rel="next"` URL sets, else the first position parameter the operation takes;
//! 3. `has-more`: a boolean `has_more` at the top of the body and a `starting_after` (or
//!    `after`) parameter; the cursor is the `id` of the last item (which must have one);
//! 4. `cursor`: a string or integer next-cursor field ([`TOKEN_FIELDS`]) at the top of the
//!    body or one object below (Slack's `/response_metadata/next_cursor`), taken by the
//!    parameter of the same name, or of that name without `next` (`next_cursor` by `cursor`,
//!    `nextPageToken` by `pageToken`), or else by a `cursor` parameter; a next field holding a
//!    URL ([`URL_FIELDS`], or `format: uri`) cannot be passed as a parameter (gap
//!    `pagination-next-url`, unless a later rule applies);
//! 5. `offset`: an integer `offset` (or `skip`) parameter;
//! 6. `page`: an integer `page` (or `page_number`) parameter, without a `Link` header.
//!
//! The cursor parameter becomes a shared parameter (a convention's `params` are shared by
//! name); one whose name another operation shares with another type or constraints is a gap
//! (`pagination-cursor-param`). The page size (`limit`, `per_page`) stays the operation's own.

use super::gaps::{self, Kind};
use super::refs;
use super::schema::At;
use super::typed::Expr;
use super::{Importer, OperationOut, PendingCursor, add_gaps, walk};
use crate::model::names::{Case, sanitize};
use indexmap::IndexMap;
use serde_json::{Map, Value, json};

/// Query parameters that take a page's position (a sign of paging), in the order the `link`
/// style picks its cursor from when the header's example names none the operation takes.
pub const POSITION_PARAMS: &[&str] = &[
    "page",
    "pagenumber",
    "cursor",
    "pagetoken",
    "startingafter",
    "after",
    "nexttoken",
    "continuationtoken",
    "skiptoken",
    "marker",
    "offset",
    "skip",
];

/// The parameters taking the id of a page's last item (`has-more`).
const AFTER_PARAMS: &[&str] = &["startingafter", "after"];

/// The parameters of the `offset` style.
const OFFSET_PARAMS: &[&str] = &["offset", "skip"];

/// The parameters of the `page` style.
const PAGE_PARAMS: &[&str] = &["page", "pagenumber"];

/// Fields holding the next page's cursor, in the order one is preferred to another.
pub const TOKEN_FIELDS: &[&str] =
    &["nextcursor", "nextpagetoken", "nexttoken", "continuationtoken", "nextmarker", "nextpage", "cursor", "next"];

/// Fields holding the next page's URL.
pub const URL_FIELDS: &[&str] =
    &["nextlink", "odatanextlink", "nextpagelink", "nextpageurl", "nextpageuri", "nexturl", "nexthref"];

/// A name as the rules compare it: lower case, letters and digits only.
fn normal(name: &str) -> String {
    name.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect()
}

/// A query parameter of the operation as the spec declares it.
struct Param {
    wire: String,
    normal: String,
    /// Its type expression (`integer`, `string`, a name).
    ty: String,
}

/// The convention told for one list.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Rule {
    style: &'static str,
    /// The parameter taking the next page's position.
    cursor: String,
    /// The body's property holding the items; `None` when the body is the list.
    items: Option<String>,
    /// `cursor`: the pointer of the next cursor.
    next: Option<String>,
    /// `has-more`: the pointer of the boolean.
    has_more: Option<String>,
}

/// What the names of a list say.
enum Told {
    /// Not a list, or no sign of paging: a plain response.
    Plain,
    /// A list that pages in a way that cannot be told.
    Gap(Kind),
    /// A convention.
    Page(Rule),
}

/// A field of the body that may say where the next page is.
struct NextField {
    pointer: String,
    normal: String,
    url: bool,
}

impl Importer<'_> {
    /// The page keys of a GET's success response (`items`, `envelope`, `pagination`) when its
    /// names tell how it pages; `None` (with a gap when it pages in a way that cannot be told)
    /// for a plain response. `params` are the operation's parameters as the spec has them: the
    /// cursor becomes a shared parameter.
    pub(super) fn recognise_page(
        &mut self,
        schema: &Value,
        response: &Value,
        params: &[Value],
        op_type: &str,
        pointer: &str,
        op_gaps: &mut Vec<String>,
    ) -> Option<Map<String, Value>> {
        let query = self.query_params(params);
        let rule = match self.tell(schema, response, &query) {
            Told::Plain => return None,
            Told::Gap(kind) => {
                op_gaps.push(self.built.gaps.note(kind, pointer));
                return None;
            }
            Told::Page(rule) => rule,
        };
        let Some(cursor) = self.shareable_cursor(&rule.cursor, params) else {
            op_gaps.push(self.built.gaps.note(gaps::PAGE_CURSOR_PARAM, pointer));
            return None;
        };
        let at = At::new(refs::child(pointer, "content"), format!("{op_type}Response"));
        let typed = self.schema(schema, &at);
        let expr = self.complete(typed, pointer);
        let Some((items, envelope)) = self.page_parts(&expr, &rule) else {
            // The imported types do not hold what the names said: a plain response.
            op_gaps.push(self.built.gaps.note(gaps::PAGE_ITEMS, pointer));
            return Some(Map::from_iter([("type".to_owned(), json!(expr.to_string()))]));
        };
        // The operation is the next one kept: nothing after its responses leaves it out.
        let op = self.built.operations.len();
        self.built.pending_cursors.push(PendingCursor {
            op,
            wire: rule.cursor.clone(),
            node: cursor,
            pointer: pointer.to_owned(),
        });
        let mut out = Map::new();
        out.insert("items".into(), json!(items));
        match envelope {
            Some(envelope) => {
                out.insert("envelope".into(), json!(envelope));
            }
            None => {
                if let Some(min_items) = self.list_min_items(schema) {
                    out.insert("min_items".into(), json!(min_items));
                }
            }
        }
        out.insert("pagination".into(), Value::Object(convention(&rule)));
        Some(out)
    }

    /// Shares the cursor parameter of every list told: a name shared already (a component
    /// parameter) keeps its definition; else the definition most lists give (description
    /// aside; the first met of a tie) is shared. A list whose cursor is defined otherwise
    /// becomes a plain response again, its parameter its own (gap `pagination-cursor-param`).
    pub(super) fn settle_cursors(&mut self) {
        let pending = std::mem::take(&mut self.built.pending_cursors);
        // Per cursor name, each definition (as text, description aside): how many give it.
        let mut definitions: IndexMap<&str, Definitions> = IndexMap::new();
        for cursor in &pending {
            if let Some(node) = &cursor.node {
                let key = Value::Object(without_description(node)).to_string();
                definitions.entry(cursor.wire.as_str()).or_default().entry(key).or_insert((0, node)).0 += 1;
            }
        }
        for (wire, defs) in definitions {
            if self.built.shared.contains_key(wire) {
                continue;
            }
            let mut best: Option<(usize, &Map<String, Value>)> = None;
            for (count, node) in defs.values() {
                if best.is_none_or(|(most, _)| *count > most) {
                    best = Some((*count, node));
                }
            }
            if let Some((_, node)) = best {
                self.built.shared.insert(wire.to_owned(), ((*node).clone(), String::new()));
            }
        }
        for cursor in pending {
            let fits = match &cursor.node {
                None => true,
                Some(node) => self
                    .built
                    .shared
                    .get(&cursor.wire)
                    .is_some_and(|(shared, _)| without_description(shared) == without_description(node)),
            };
            let kind = if fits { gaps::PAGINATION } else { gaps::PAGE_CURSOR_PARAM };
            let id = self.built.gaps.note(kind, &cursor.pointer);
            let Some(op) = self.built.operations.get_mut(cursor.op) else { continue };
            if fits {
                if let Some(Value::Object(pagination)) =
                    op.node.get_mut("response").and_then(|r| r.get_mut("pagination"))
                {
                    pagination.insert("gaps".into(), json!([id]));
                }
            } else {
                plain_again(op, &cursor);
                add_gaps(&mut op.node, &[id]);
            }
        }
    }

    /// The query parameters of an operation's spec parameters (shared ones looked up).
    fn query_params(&self, params: &[Value]) -> Vec<Param> {
        let mut out = Vec::new();
        for param in params {
            let (wire, node) = match param {
                Value::String(name) => match self.built.shared.get(name) {
                    Some((node, _)) => (name.clone(), node),
                    None => continue,
                },
                Value::Object(node) => match node.get("name").and_then(Value::as_str) {
                    Some(name) => (name.to_owned(), node),
                    None => continue,
                },
                _ => continue,
            };
            if node.get("in").and_then(Value::as_str) != Some("query") {
                continue;
            }
            let ty = node.get("type").and_then(Value::as_str).unwrap_or("string").to_owned();
            out.push(Param { normal: normal(&wire), wire, ty });
        }
        out
    }

    /// What the names of a list's body, response and parameters say about its pages.
    fn tell(&self, schema: &Value, response: &Value, params: &[Param]) -> Told {
        let doc = self.doc.value;
        let Some(body) = refs::lookup_value(doc, schema) else { return Told::Plain };
        let props = properties(doc, body);
        let is_list = props.is_empty() && schema_type(body) == Some("array");
        let lists: Vec<&(String, &Value)> = props.iter().filter(|(_, p)| schema_type(p) == Some("array")).collect();
        if !is_list && lists.is_empty() {
            return Told::Plain;
        }
        let link = link_header(doc, response);
        let has_more = props
            .iter()
            .find(|(name, p)| normal(name) == "hasmore" && schema_type(p) == Some("boolean"))
            .map(|(name, _)| refs::child("", name));
        let next_fields = next_fields(doc, &props);
        let position = |names: &[&str]| names.iter().find_map(|n| params.iter().find(|p| p.normal == *n));
        let signs =
            link.is_some() || has_more.is_some() || !next_fields.is_empty() || position(POSITION_PARAMS).is_some();
        if !signs {
            return Told::Plain;
        }
        // 1. The items.
        let items = match items_field(doc, is_list, &lists) {
            Ok(items) => items,
            Err(kind) => return Told::Gap(kind),
        };
        let rule = |style, cursor: &Param| Rule {
            style,
            cursor: cursor.wire.clone(),
            items: items.clone(),
            next: None,
            has_more: None,
        };
        // 2. The `Link` header.
        if let Some(example) = link {
            let named = example
                .and_then(|e| next_link_params(&e))
                .and_then(|names| names.iter().find_map(|n| params.iter().find(|p| p.wire == *n)));
            return match named.or_else(|| position(POSITION_PARAMS)) {
                Some(cursor) => Told::Page(rule("link", cursor)),
                None => Told::Gap(gaps::PAGE_CURSOR_PARAM),
            };
        }
        // 3. `has_more` and the last item's id.
        if let (Some(has_more), Some(after), Some(field)) = (&has_more, position(AFTER_PARAMS), &items) {
            let item = props.iter().find(|(n, _)| n == field).and_then(|(_, p)| list_item(doc, p));
            if !item.is_some_and(|item| has_scalar_id(doc, item)) {
                return Told::Gap(gaps::PAGE_ITEM_ID);
            }
            return Told::Page(Rule { has_more: Some(has_more.clone()), ..rule("has-more", after) });
        }
        // 4. A next cursor in the body.
        let mut gap = None;
        if items.is_some() {
            match next_cursor(&next_fields, params) {
                Ok((next, cursor)) => return Told::Page(Rule { next: Some(next), ..rule("cursor", cursor) }),
                Err(kind) => gap = kind,
            }
        }
        // 5. An offset; 6. a page number.
        let numeric = |p: &&Param| matches!(p.ty.as_str(), "integer" | "number");
        for (style, names) in [("offset", OFFSET_PARAMS), ("page", PAGE_PARAMS)] {
            let found = names.iter().find_map(|n| params.iter().filter(numeric).find(|p| p.normal == *n));
            if let Some(cursor) = found {
                return Told::Page(rule(style, cursor));
            }
        }
        Told::Gap(gap.unwrap_or(gaps::PAGE_UNTOLD))
    }

    /// Whether the cursor parameter can be shared (an optional query scalar): `Some(None)` when
    /// it is shared already, `Some(Some(node))` for an inline one, to share once every list is
    /// known ([`Self::settle_cursors`]); `None` when it cannot be.
    fn shareable_cursor(&self, wire: &str, params: &[Value]) -> Option<Option<Map<String, Value>>> {
        let entry = params.iter().find(|p| match p {
            Value::String(name) => name == wire,
            Value::Object(node) => node.get("name").and_then(Value::as_str) == Some(wire),
            _ => false,
        })?;
        let (node, shared) = match entry {
            Value::String(name) => (self.built.shared.get(name)?.0.clone(), true),
            Value::Object(inline) => {
                let mut node = inline.clone();
                node.shift_remove("name");
                (node, false)
            }
            _ => return None,
        };
        let scalar = matches!(node.get("type").and_then(Value::as_str), Some("integer" | "number" | "string"));
        let required = node.get("required") == Some(&Value::Bool(true));
        if !scalar || required || node.contains_key("enum") || node.contains_key("type_name") {
            return None;
        }
        Some((!shared).then_some(node))
    }

    /// The `minItems` of a page body that is the list itself, which a page keeps (the mock
    /// answers no empty page of such a list); one above the samples' most items is left out.
    fn list_min_items(&self, schema: &Value) -> Option<u64> {
        let list = refs::lookup_value(self.doc.value, schema)?;
        let min_items = list.get("minItems").and_then(Value::as_u64)?;
        (1..=crate::model::sample::MAX_ITEMS).contains(&min_items).then_some(min_items)
    }

    /// The items type and the envelope of an imported page body, when the imported types hold
    /// what the rule's names said (as lint checks an envelope).
    fn page_parts(&self, expr: &Expr, rule: &Rule) -> Option<(String, Option<String>)> {
        let Some(field) = &rule.items else {
            return match expr {
                Expr::List(inner) if !inner.is_inline() => Some((inner.to_string(), None)),
                _ => None,
            };
        };
        let Expr::Named(envelope) = expr else { return None };
        let list = self.field_at(envelope, &refs::child("", field))?;
        let inner = walk::field_type(&list).strip_prefix("list<")?.strip_suffix('>')?;
        let item = match inner {
            "object" | "enum" => match list.get("type_name").and_then(Value::as_str) {
                Some(name) => name.to_owned(),
                None => format!("{envelope}{}Item", sanitize(field, Case::Pascal)),
            },
            other if other.contains("object") || other.contains("enum") => return None,
            other => other.to_owned(),
        };
        let scalar = |pointer: &str, wanted: &[&str]| {
            self.field_at(envelope, pointer).is_some_and(|f| wanted.contains(&walk::field_type(&f)))
        };
        if let Some(next) = &rule.next
            && !scalar(next, &["string", "integer"])
        {
            return None;
        }
        if let Some(has_more) = &rule.has_more {
            let item_fields = match inner {
                "object" => list.get("fields").and_then(Value::as_object).cloned(),
                name => self.named_fields(name),
            };
            let id = item_fields.as_ref().and_then(|f| f.get("id")).and_then(Value::as_object);
            if !scalar(has_more, &["boolean"])
                || !id.is_some_and(|id| matches!(walk::field_type(id), "string" | "integer"))
            {
                return None;
            }
        }
        Some((item, Some(envelope.clone())))
    }
}

impl Importer<'_> {
    /// When more than half of the paginated operations share one convention, it becomes
    /// `api.yaml`'s `pagination` and leaves their responses (the first met of the most shared
    /// wins a tie, which cannot be more than half).
    pub(super) fn hoist_pagination(&mut self) {
        if !self.doc.tell_pages {
            return;
        }
        // Each convention (as text): the first operation giving it, and how many do.
        let mut counts: IndexMap<String, (usize, usize)> = IndexMap::new();
        let mut total = 0;
        for (i, op) in self.built.operations.iter().enumerate() {
            if let Some(pagination) = op.node.get("response").and_then(|r| r.get("pagination")) {
                total += 1;
                counts.entry(pagination.to_string()).or_insert((i, 0)).1 += 1;
            }
        }
        let mut best: Option<(usize, usize)> = None;
        for &(first, count) in counts.values() {
            if best.is_none_or(|(_, most)| count > most) {
                best = Some((first, count));
            }
        }
        let Some((first, most)) = best else { return };
        if most * 2 <= total {
            return;
        }
        let winner = self.built.operations[first].node.get("response").and_then(|r| r.get("pagination")).cloned();
        let Some(Value::Object(winner)) = winner else { return };
        for op in &mut self.built.operations {
            if let Some(Value::Object(response)) = op.node.get_mut("response")
                && response.get("pagination").and_then(Value::as_object) == Some(&winner)
            {
                response.shift_remove("pagination");
            }
        }
        self.built.told_pagination = Some(winner);
    }
}

/// The definitions of one cursor parameter: each (as text, description aside) with how many
/// lists give it, and the first.
type Definitions<'a> = IndexMap<String, (usize, &'a Map<String, Value>)>;

/// A parameter's definition but for its description.
fn without_description(node: &Map<String, Value>) -> Map<String, Value> {
    let mut node = node.clone();
    node.shift_remove("description");
    node
}

/// An operation told as a list made a plain response again: its body the envelope, or the
/// list; its cursor parameter its own again, after its other parameters.
fn plain_again(op: &mut OperationOut, cursor: &PendingCursor) {
    if let Some(Value::Object(response)) = op.node.get_mut("response") {
        let items = response.shift_remove("items");
        let envelope = response.shift_remove("envelope");
        response.shift_remove("pagination");
        response.shift_remove("min_items");
        let ty = match (envelope, items) {
            (Some(envelope), _) => envelope,
            (None, Some(Value::String(items))) => json!(format!("list<{items}>")),
            (None, _) => json!("json"),
        };
        response.insert("type".into(), ty);
    }
    let Some(node) = &cursor.node else { return };
    let mut param = Map::from_iter([("name".to_owned(), json!(cursor.wire))]);
    param.extend(node.clone());
    match op.node.get_mut("params") {
        Some(Value::Array(params)) => params.push(Value::Object(param)),
        _ => {
            // `params` goes where the operation would have had it: before the body or response.
            let mut out = Map::new();
            for (key, value) in std::mem::take(&mut op.node) {
                if matches!(key.as_str(), "body" | "response") && !out.contains_key("params") {
                    out.insert("params".into(), json!([param.clone()]));
                }
                out.insert(key, value);
            }
            op.node = out;
        }
    }
}

/// The convention as `response.pagination` says it: every key written, so a person reads what
/// was told (its gap is added once the cursor is shared).
fn convention(rule: &Rule) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("style".into(), json!(rule.style));
    out.insert("params".into(), json!([rule.cursor]));
    out.insert("cursor".into(), json!(rule.cursor));
    let items = rule.items.as_deref().map_or(String::new(), |field| refs::child("", field));
    out.insert("items".into(), json!(items));
    if let Some(next) = &rule.next {
        out.insert("next".into(), json!(next));
    }
    if let Some(has_more) = &rule.has_more {
        out.insert("has_more".into(), json!(has_more));
        out.insert("item_id".into(), json!("/id"));
    }
    out
}

/// The body's property holding a page's items (rule 1): `None` when the body is the list,
/// else its only list property, else its only list of objects (several: a gap).
fn items_field(doc: &Value, is_list: bool, lists: &[&(String, &Value)]) -> Result<Option<String>, Kind> {
    if is_list {
        return Ok(None);
    }
    if let [(name, _)] = lists {
        return Ok(Some(name.clone()));
    }
    let of_objects: Vec<&&(String, &Value)> = lists.iter().filter(|(_, p)| items_are_objects(doc, p)).collect();
    match of_objects.as_slice() {
        [one] => Ok(Some(one.0.clone())),
        _ => Err(gaps::PAGE_ITEMS),
    }
}

/// The next-cursor field of a body and the parameter taking it (rule 4), in the order of
/// [`TOKEN_FIELDS`]: the parameter of the field's name, or of that name without `next`, or
/// `cursor`. Else the gap it leaves, if any: a cursor no parameter takes, or a next URL.
fn next_cursor<'p>(fields: &[NextField], params: &'p [Param]) -> Result<(String, &'p Param), Option<Kind>> {
    let mut gap = None;
    for want in TOKEN_FIELDS {
        for field in fields.iter().filter(|f| !f.url && f.normal == *want) {
            let bare = field.normal.strip_prefix("next").unwrap_or_default();
            let taker = params
                .iter()
                .find(|p| p.normal == field.normal)
                .or_else(|| params.iter().find(|p| !bare.is_empty() && p.normal == bare))
                .or_else(|| params.iter().find(|p| p.normal == "cursor"));
            match taker {
                Some(cursor) => return Ok((field.pointer.clone(), cursor)),
                None => gap = gap.or(Some(gaps::PAGE_CURSOR_PARAM)),
            }
        }
    }
    if gap.is_none() && fields.iter().any(|f| f.url) {
        gap = Some(gaps::PAGE_URL);
    }
    Err(gap)
}

/// The `type` of a schema (the first besides `null` of a list of types).
fn schema_type(schema: &Value) -> Option<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => Some(t.as_str()),
        Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        None if schema.get("items").is_some() => Some("array"),
        None if schema.get("properties").is_some() => Some("object"),
        _ => None,
    }
}

/// The properties of an object schema and of its `allOf` parts, references followed, each
/// property's schema resolved; in the document's order, the first of a name kept.
fn properties<'a>(doc: &'a Value, schema: &'a Value) -> Vec<(String, &'a Value)> {
    let mut out: Vec<(String, &Value)> = Vec::new();
    let mut stack = vec![(schema, 0usize)];
    while let Some((schema, depth)) = stack.pop() {
        let Some(schema) = refs::lookup_value(doc, schema) else { continue };
        for (name, property) in schema.get("properties").and_then(Value::as_object).into_iter().flatten() {
            if let Some(property) = refs::lookup_value(doc, property)
                && !out.iter().any(|(n, _)| n == name)
            {
                out.push((name.clone(), property));
            }
        }
        if depth < 8 {
            let parts = schema.get("allOf").and_then(Value::as_array).into_iter().flatten().rev();
            stack.extend(parts.map(|part| (part, depth + 1)));
        }
    }
    out
}

/// The item schema of a list schema, resolved.
fn list_item<'a>(doc: &'a Value, list: &'a Value) -> Option<&'a Value> {
    refs::lookup_value(doc, list.get("items")?)
}

/// True when a list's items are objects.
fn items_are_objects(doc: &Value, list: &Value) -> bool {
    list_item(doc, list).is_some_and(|item| schema_type(item) == Some("object") || !properties(doc, item).is_empty())
}

/// True when an item has a string or integer `id`.
fn has_scalar_id(doc: &Value, item: &Value) -> bool {
    properties(doc, item).iter().any(|(name, p)| name == "id" && matches!(schema_type(p), Some("string" | "integer")))
}

/// The body's fields saying where the next page is: at the top, then one object below, each
/// a string or integer named in [`TOKEN_FIELDS`] or [`URL_FIELDS`].
fn next_fields(doc: &Value, props: &[(String, &Value)]) -> Vec<NextField> {
    let mut out = Vec::new();
    let mut below = Vec::new();
    for (name, property) in props {
        let found = next_field(name, property, "");
        match found {
            Some(field) => out.push(field),
            None if schema_type(property) == Some("object") => below.push((name, *property)),
            None => {}
        }
    }
    for (parent, property) in below {
        let prefix = refs::child("", parent);
        for (name, inner) in properties(doc, property) {
            out.extend(next_field(&name, inner, &prefix));
        }
    }
    out
}

/// A field naming the next page, when its name and type say so.
fn next_field(name: &str, property: &Value, prefix: &str) -> Option<NextField> {
    let normal = normal(name);
    let scalar = matches!(schema_type(property), Some("string" | "integer"));
    let url_format = matches!(property.get("format").and_then(Value::as_str), Some("uri" | "url"));
    let token = TOKEN_FIELDS.contains(&normal.as_str());
    let url = URL_FIELDS.contains(&normal.as_str());
    if !scalar || !(token || url) {
        return None;
    }
    Some(NextField { pointer: refs::child(prefix, name), normal, url: url || url_format })
}

/// The `Link` header of a response: `Some(example)` when it declares one (the example, when it
/// gives one), `None` when it does not.
fn link_header(doc: &Value, response: &Value) -> Option<Option<String>> {
    let headers = response.get("headers")?.as_object()?;
    let (_, header) = headers.iter().find(|(name, _)| name.eq_ignore_ascii_case("link"))?;
    let header = refs::lookup_value(doc, header)?;
    let example = header
        .get("example")
        .or_else(|| header.get("schema").and_then(|s| refs::lookup_value(doc, s)).and_then(|s| s.get("example")))
        .and_then(Value::as_str)
        .map(str::to_owned);
    Some(example)
}

/// The query parameters the `rel="next"` URL of a `Link` header sets.
fn next_link_params(example: &str) -> Option<Vec<String>> {
    for link in example.split(',') {
        let (target, rest) = link.trim().strip_prefix('<')?.split_once('>')?;
        let next = rest.split(';').any(|p| {
            let p = p.trim().replace(' ', "");
            p == "rel=\"next\"" || p == "rel=next"
        });
        if next {
            let query = target.split_once('?').map(|(_, q)| q).unwrap_or_default();
            let query = query.split('#').next().unwrap_or_default();
            return Some(query.split('&').filter_map(|kv| kv.split('=').next()).map(str::to_owned).collect());
        }
    }
    None
}
