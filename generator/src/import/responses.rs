//! An operation's responses: the main success (its body, a page of a list, the other
//! statuses answered alike) and the failure cases.

use super::built::ErrorsTold;
use super::gaps;
use super::media::{json_media, json_media_named, media_example, offers_other_media, status_of, text_media};
use super::refs;
use super::schema::{At, list_or_map_sample};
use super::typed::Expr;
use super::{Importer, is_default_error_body, map};
use serde_json::{Map, Value, json};

impl Importer<'_> {
    /// The success response and the failure cases.
    pub(super) fn responses(
        &mut self,
        op: &Map<String, Value>,
        cx: &ResponseContext<'_>,
        op_gaps: &mut Vec<String>,
    ) -> (Map<String, Value>, Vec<Value>) {
        let (mut successes, errors, default) = self.sort_responses(op, cx.pointer, op_gaps);
        if successes.is_empty()
            && let Some((resolved, response_pointer)) = default
        {
            let body = self.response_body(&resolved, &response_pointer);
            if matches!(body, Some(Some(_))) {
                op_gaps.push(self.built.gaps.note(gaps::DEFAULT_SUCCESS, &response_pointer));
                successes.push(Success { status: 200, body, resolved, pointer: response_pointer });
            }
        }
        let Some(main) = successes.first().cloned() else {
            op_gaps.push(self.built.gaps.note(gaps::NO_SUCCESS, cx.pointer));
            return (map(vec![("status", json!(200)), ("empty", json!(true))]), errors);
        };
        let mut response = map(vec![("status", json!(main.status))]);
        let mut also = Vec::new();
        let mut seen = vec![main.status];
        for other in &successes[1..] {
            let same = match (&main.body, &other.body) {
                (None, None) => other.status == 204 || main.status != 204,
                (Some(a), Some(b)) => a == b && other.status != 204,
                _ => false,
            };
            // A raw body (not JSON) is the main response's alone.
            let raw = matches!(main.body, Some(None)) && raw_response(&main.resolved).is_some();
            let fresh = !seen.contains(&other.status);
            if same && !raw && fresh {
                seen.push(other.status);
                also.push(json!(other.status));
            } else if fresh && other.body.is_none() && main.body.is_some() && !raw {
                // A bodiless status beside a body (`200` the resource, `204` nothing): a
                // response of its own, so the answer is the operation's enumeration.
                seen.push(other.status);
                also.push(Value::Object(bodiless_success(other)));
            } else {
                op_gaps.push(self.built.gaps.note(gaps::OTHER_SUCCESS, &other.pointer));
            }
        }
        if !also.is_empty() {
            response.insert("also".into(), json!(also));
        }
        if let Some(description) =
            main.resolved.get("description").and_then(Value::as_str).map(str::trim).filter(|d| !d.is_empty())
        {
            response.insert("description".into(), json!(description));
        }
        let main_pointer = main.pointer.clone();
        self.success_keys(&mut response, main, cx, op_gaps);
        // Only a JSON body of one kind may be `null` (the answer an `Option`).
        let varied = response.get("also").and_then(Value::as_array).is_some_and(|a| a.iter().any(Value::is_object));
        let media: Vec<&str> = match response.get("media_type") {
            Some(Value::String(one)) => vec![one.as_str()],
            Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let not_json = media.iter().any(|m| crate::model::Encoding::of(m) != crate::model::Encoding::Json);
        if varied || not_json || response.contains_key("items") {
            response.shift_remove("nullable");
        }
        if response.contains_key("items") {
            // A page answers one body: a bodiless status of its own (`204` for no items)
            // cannot go with it, and is left out as another success.
            if let Some(Value::Array(also)) = response.get_mut("also") {
                let before = also.len();
                also.retain(|a| !a.is_object());
                if also.len() < before {
                    op_gaps.push(self.built.gaps.note(gaps::OTHER_SUCCESS, &main_pointer));
                }
                if also.is_empty() {
                    response.shift_remove("also");
                }
            }
        }
        (response, errors)
    }

    /// An operation's responses sorted: the successes (2xx), the failure cases (4xx, 5xx) and
    /// the `default` response; a redirect or an unknown key is a gap.
    fn sort_responses(
        &mut self,
        op: &Map<String, Value>,
        pointer: &str,
        op_gaps: &mut Vec<String>,
    ) -> (Vec<Success>, Vec<Value>, Option<(Value, String)>) {
        let doc = self.doc.value;
        let responses_pointer = refs::child(pointer, "responses");
        let mut successes = Vec::new();
        let mut errors = Vec::new();
        let mut default: Option<(Value, String)> = None;
        for (code, response) in op.get("responses").and_then(Value::as_object).into_iter().flatten() {
            let response_pointer = refs::child(&responses_pointer, code);
            let implied =
                response.get("$ref").and_then(Value::as_str).is_some_and(|r| r.starts_with("#/components/responses/"));
            let Ok((resolved, _)) = refs::follow(doc, response, &response_pointer) else {
                op_gaps.push(self.built.gaps.note(gaps::BROKEN_REF, &response_pointer));
                continue;
            };
            if resolved.get("links").and_then(Value::as_object).is_some_and(|l| !l.is_empty()) {
                op_gaps.push(self.built.gaps.note(gaps::LINKS, &response_pointer));
            }
            match status_of(code) {
                Some(s @ 200..=299) => {
                    if resolved.get("headers").and_then(Value::as_object).is_some_and(|h| !h.is_empty()) {
                        op_gaps.push(self.built.gaps.note(gaps::RESPONSE_HEADERS, &response_pointer));
                    }
                    let body = self.response_body(resolved, &response_pointer);
                    successes.push(Success { status: s, body, resolved: resolved.clone(), pointer: response_pointer });
                }
                Some(s @ 400..=599) => {
                    let other = self.other_error_body(resolved, s, &response_pointer);
                    if s < 500 && other.is_none() {
                        self.note_error_elsewhere(resolved, &response_pointer, op_gaps);
                    }
                    let case = self.failure_case(s, resolved, implied, &response_pointer, other.is_some(), op_gaps);
                    errors.extend(case.map(|mut case| {
                        if let (Some(name), Some(case)) = (other, case.as_object_mut()) {
                            case.insert("type".into(), json!(name));
                        }
                        case
                    }));
                }
                Some(_) => op_gaps.push(self.built.gaps.note(gaps::REDIRECTS, &response_pointer)),
                None if code == "default" => {
                    self.note_error_elsewhere(resolved, &response_pointer, op_gaps);
                    default = Some((resolved.clone(), response_pointer));
                }
                None => op_gaps.push(self.built.gaps.note(gaps::BAD_VALUE, &response_pointer)),
            }
        }
        (successes, errors, default)
    }

    /// The failure case of a 4xx or 5xx response (`None` for one the generated server answers
    /// itself); the first error body that is not the format's own is a gap when the
    /// document's error responses share none ([`super::errors`]) and it is not `told` (one
    /// of `api.errors.bodies`).
    fn failure_case(
        &mut self,
        status: u16,
        resolved: &Value,
        implied: bool,
        response_pointer: &str,
        told: bool,
        op_gaps: &mut Vec<String>,
    ) -> Option<Value> {
        let doc = self.doc.value;
        let body = self.response_body(resolved, response_pointer);
        let default_error = body.as_ref().and_then(Option::as_ref).is_some_and(|s| is_default_error_body(doc, s));
        if matches!(body, Some(Some(_)))
            && !default_error
            && !told
            && self.built.errors == ErrorsTold::NotShared
            && !self.built.error_noted
        {
            self.built.error_noted = true;
            op_gaps.push(self.built.gaps.note(gaps::ERROR_BODY, response_pointer));
        }
        if implied && default_error && matches!(status, 400 | 401) {
            return None; // The generated server answers these itself.
        }
        let when = resolved.get("description").and_then(Value::as_str).map(str::trim).unwrap_or_default();
        let when = if when.is_empty() { format!("status {status}") } else { when.to_owned() };
        Some(json!({ "status": status, "when": when }))
    }

    /// The body keys of the main success response: none for a 204, `empty` without a body,
    /// `type` and `media_type` for a raw one, else those of its JSON body (a page of a list
    /// when its convention is told).
    fn success_keys(
        &mut self,
        response: &mut Map<String, Value>,
        main: Success,
        cx: &ResponseContext<'_>,
        op_gaps: &mut Vec<String>,
    ) {
        let Success { status, body, resolved, pointer } = main;
        match body {
            None if status == 204 => {}
            None => {
                response.insert("empty".into(), json!(true));
            }
            Some(None) if status != 204 && raw_response(&resolved).is_some() => {
                let (ty, media_types) = raw_response(&resolved).unwrap_or_default();
                if media_types.iter().any(|m| m.ends_with("xml")) {
                    op_gaps.push(self.built.gaps.note(gaps::XML_RESPONSE, &pointer));
                }
                response.insert("type".into(), json!(ty));
                response.insert(
                    "media_type".into(),
                    if media_types.len() == 1 { json!(media_types[0]) } else { json!(media_types) },
                );
            }
            Some(None) => {
                op_gaps.push(self.built.gaps.note(gaps::NON_JSON_RESPONSE, &pointer));
                if status != 204 {
                    // 204 never has a body: nothing to say.
                    response.insert("empty".into(), json!(true));
                }
            }
            Some(Some(_)) if status == 204 => {}
            Some(Some(schema)) => {
                let page = match cx.page_params {
                    Some(params) if !cx.paginated => {
                        self.recognise_page(&schema, &resolved, params, cx.op_type, &pointer, op_gaps)
                    }
                    _ => None,
                };
                match page {
                    Some(keys) => response.extend(keys),
                    None => self.success_body(response, &schema, cx.op_type, cx.paginated, &pointer),
                }
                // Kept aside until types are settled: a body that ends up `json` is sampled
                // with the document's example (`Importer::settle_pending_examples`).
                let content = resolved.get("content").and_then(Value::as_object);
                let entry = content.and_then(json_media).and_then(|(media, _)| content?.get(media));
                if response.contains_key("type")
                    && let Some(example) = entry.and_then(|entry| media_example(self.doc.value, entry))
                {
                    response
                        .insert(super::settle::PENDING_EXAMPLE.into(), super::settle::pending_example(example, None));
                }
                if let Some(media) = json_media_named(&resolved) {
                    response.insert("media_type".into(), json!(media));
                }
                if offers_other_media(&resolved) {
                    op_gaps.push(self.built.gaps.note(gaps::RESPONSE_ALTERNATIVES, &refs::child(&pointer, "content")));
                }
            }
        }
    }

    /// The body keys of a success response: `items` for a page of the export's list
    /// convention, `fields` for an inline object, else `type`.
    fn success_body(
        &mut self,
        response: &mut Map<String, Value>,
        schema: &Value,
        op_type: &str,
        paginated: bool,
        pointer: &str,
    ) {
        if paginated && let Some((items, envelope)) = page_items(self.doc.value, schema) {
            let envelope = envelope.and_then(|key| self.component_type(&key));
            let at = At::new(refs::child(pointer, "items"), format!("{op_type}Item"));
            let typed = self.schema(items, &at);
            let expr = self.complete(typed, pointer);
            response.insert("items".into(), json!(expr.to_string()));
            if let Some(envelope) = envelope {
                response.insert("envelope".into(), json!(envelope));
            }
            return;
        }
        let at = At::new(refs::child(pointer, "content"), format!("{op_type}Response"));
        let typed = self.schema(schema, &at);
        // A body that may be `null` (stream-io's every response): the answer is an `Option`.
        let root = refs::follow(self.doc.value, schema, pointer).map(|(s, _)| s).ok();
        let null_type = |s: &Value| s.get("type").and_then(Value::as_array).is_some_and(|t| t.contains(&json!("null")));
        if typed.nullable || root.is_some_and(|s| s.get("nullable") == Some(&Value::Bool(true)) || null_type(s)) {
            response.insert("nullable".into(), json!(true));
        }
        if typed.expr == Expr::Object && typed.fields.is_some() && typed.additional.is_none() {
            if let (Some(name), Some(derived)) = (&typed.inline_name, &typed.derived_name)
                && name != derived
            {
                response.insert("type_name".into(), json!(name));
            }
            response.insert("fields".into(), Value::Object(typed.fields.unwrap_or_default()));
            return;
        }
        // A list's or a map's sample (one item fitting the item constraints the format cannot
        // keep, or the document's example) is what the mock answers.
        let sample = typed.sample.clone().filter(|sample| list_or_map_sample(self, &typed, sample));
        let expr = self.complete(typed, pointer);
        response.insert("type".into(), json!(expr.to_string()));
        if let Some(sample) = sample {
            response.insert("sample".into(), sample);
        }
    }

    /// A response's body: `None` without content, `Some(None)` when not JSON (a `*/*` whose
    /// schema is binary, `format: binary`, is raw bytes, not JSON), else its schema.
    fn response_body(&mut self, response: &Value, _pointer: &str) -> Option<Option<Value>> {
        let content = response.get("content").and_then(Value::as_object)?;
        if content.is_empty() {
            return None;
        }
        let binary = |schema: &Value| {
            let schema = refs::lookup_value(self.doc.value, schema).unwrap_or(schema);
            schema.get("format") == Some(&json!("binary"))
        };
        Some(json_media(content).filter(|(media, schema)| *media != "*/*" || !binary(schema)).map(|(_, s)| s.clone()))
    }
}

/// What the responses of an operation are read with, besides its OpenAPI object.
pub(super) struct ResponseContext<'a> {
    /// The operation's type name (`ListReposResponse` and the like are named from it).
    pub(super) op_type: &'a str,
    /// Whether the list convention of an apigen export applies (`x-pagination`).
    pub(super) paginated: bool,
    /// A GET's parameters, when its pagination is told from names ([`super::pagination`]).
    pub(super) page_params: Option<&'a [Value]>,
    /// The operation's JSON pointer in the document.
    pub(super) pointer: &'a str,
}

/// A success response: its status, its body ([`Importer::response_body`]), the response
/// object (references followed) and its pointer.
#[derive(Clone)]
struct Success {
    status: u16,
    body: Option<Option<Value>>,
    resolved: Value,
    pointer: String,
}

/// `also`'s entry for a success status without a body beside the main one's body: `{ status:
/// 204 }` (or `{ status: 202, empty: true }`), with its description.
fn bodiless_success(success: &Success) -> Map<String, Value> {
    let mut entry = map(vec![("status", json!(success.status))]);
    if success.status != 204 {
        entry.insert("empty".into(), json!(true));
    }
    let description = success.resolved.get("description").and_then(Value::as_str).map(str::trim);
    if let Some(description) = description.filter(|d| !d.is_empty()) {
        entry.insert("description".into(), json!(description));
    }
    entry
}

/// A success response that is not JSON as the format answers it: text (`string`) when every
/// media type is concrete text or XML, else raw `bytes`, with the media types listed
/// (distinct). A media range (`image/*`, `*/*`; OpenAPI's lone `*` is `*/*`) answers raw
/// bytes whose handler names the concrete type within it, never nothing.
fn raw_response(response: &Value) -> Option<(&'static str, Vec<String>)> {
    let content = response.get("content")?.as_object()?;
    let mut media_types: Vec<String> = Vec::new();
    for media in content.keys() {
        let mut essence = media.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
        if essence == "*" {
            essence = "*/*".into();
        }
        let (kind, sub) = essence.split_once('/')?;
        let range = essence == "*/*" || (sub == "*" && kind != "*");
        // XML is passed as it is (the format has no XML type; gap `xml-responses`).
        if kind.is_empty() || (essence.contains('*') && !range) || essence.ends_with("json") {
            return None;
        }
        if !media_types.contains(&essence) {
            media_types.push(essence);
        }
    }
    let text = media_types.iter().all(|m| text_media(m) && !m.contains('*'));
    (!media_types.is_empty()).then_some((if text { "string" } else { "bytes" }, media_types))
}

/// A page of an apigen export's list convention (`{next, count, items}`): the item schema,
/// and the component key of a named envelope adding fields.
fn page_items<'a>(doc: &'a Value, schema: &'a Value) -> Option<(&'a Value, Option<String>)> {
    let envelope = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/components/schemas/"))
        .map(|k| k.replace("~1", "/").replace("~0", "~"));
    let (schema, _) = refs::follow(doc, schema, "#").ok()?;
    let props = schema.get("properties")?.as_object()?;
    let next = props.get("next")?;
    // `next` may be nullable: `anyOf: [{$ref}, {type: null}]`.
    let next = next.get("anyOf").and_then(Value::as_array).and_then(|a| a.first()).unwrap_or(next);
    refs::follow(doc, next, "#").ok()?.0.get("properties")?.get("page")?;
    let items = props.get("items")?;
    if items.get("type") != Some(&json!("array")) || (envelope.is_none() && props.len() != 3) {
        return None;
    }
    Some((items.get("items")?, envelope))
}
