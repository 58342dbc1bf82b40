//! Operations: paths and methods, routes and selectors, tags, and what an operation is built
//! from: its parameters ([`super::params`]), request body ([`super::bodies`]), responses
//! ([`super::responses`]) and security ([`super::security`]). An operation the format cannot
//! route or call is left out with a gap of its own; a part of one it cannot hold is left out
//! with a gap of its kind.

use super::gaps;
use super::params::ParamsRead;
use super::refs;
use super::responses::ResponseContext;
use super::{Importer, LeftOut, OperationOut, add_gaps, names};
use crate::model::names::{Case, sanitize};
use crate::model::{PathTemplate, SelectIn, Selector, routes_conflict};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

impl Importer<'_> {
    /// The document's tags, in order, named for the spec.
    pub(super) fn declare_tags(&mut self) {
        let doc = self.doc.value;
        for tag in doc.get("tags").and_then(Value::as_array).into_iter().flatten() {
            let Some(text) = tag.get("name").and_then(Value::as_str) else { continue };
            let description = tag.get("description").and_then(Value::as_str).map(|d| d.trim().to_owned());
            self.tag(text, description.filter(|d| !d.is_empty()));
        }
    }

    /// The spec tag of a document tag, declared when first met.
    fn tag(&mut self, text: &str, description: Option<String>) -> String {
        if let Some(name) = self.built.tag_names.get(text) {
            return name.clone();
        }
        let mut wanted = names::tag_name(text);
        if matches!(wanted.as_str(), "api" | "schemas") || wanted.starts_with("schemas-") {
            wanted.push_str("-ops");
        }
        let module_free = |taken: &names::Taken, name: &str| taken.is_free(&crate::model::names::module_name(name));
        let name = self.built.tag_taken.first_free(&wanted, "-", module_free);
        self.built.tag_taken.reserve(&sanitize(&crate::model::names::module_name(&name), Case::Snake));
        let title = text.trim();
        let title = if title.is_empty() { name.clone() } else { title.to_owned() };
        self.built.tags.insert(name.clone(), (title, description));
        self.built.tag_names.insert(text.to_owned(), name.clone());
        name
    }

    /// Gaps of the document as a whole: servers, webhooks.
    pub(super) fn note_document_gaps(&mut self) {
        let doc = self.doc;
        for pointer in &doc.unusable_servers {
            self.built.gaps.note(gaps::SERVERS, pointer);
        }
        if doc.webhooks {
            self.built.gaps.note(gaps::WEBHOOKS, "#/webhooks");
        }
    }

    /// Every operation of every path, in document order.
    pub(super) fn paths(&mut self) {
        let doc = self.doc.value;
        let Some(paths) = doc.get("paths").and_then(Value::as_object) else { return };
        let mut routes = Routes::default();
        let mut op_names = names::Taken::new(Case::Pascal);
        op_names.reserve("Client");
        for (path, item) in paths {
            let pointer = refs::child("#/paths", path);
            let Ok((item, _)) = refs::follow(doc, item, &pointer) else {
                self.built.gaps.note(gaps::BROKEN_REF, &pointer);
                continue;
            };
            let Some(item) = item.as_object() else { continue };
            for (method, op) in item {
                if !METHODS.contains(&method.as_str()) {
                    continue;
                }
                self.built.total += 1;
                let op_pointer = refs::child(&pointer, method);
                let name = self.operation_name(op, method, path, &mut op_names);
                self.walk.start_root();
                let mut read = ParamsRead::default();
                match self.operation(&name, method, path, item, op, &op_pointer, &mut routes, &mut read) {
                    Ok(out) => {
                        self.built.params.0 += read.counts.0;
                        self.built.params.1 += read.counts.1;
                        self.built.operations.push(out);
                    }
                    Err(left) => {
                        let what = format!("operation `{} {path}` ({name})", method.to_uppercase());
                        self.built.gaps.left_out(
                            left.kind,
                            &crate::import::names::tag_name(&name),
                            &op_pointer,
                            &what,
                            &left.why,
                        );
                    }
                }
            }
        }
    }

    /// The operation's name: its id made camelCase, or its method and path; unique.
    fn operation_name(&mut self, op: &Value, method: &str, path: &str, taken: &mut names::Taken) -> String {
        let wanted = match op.get("operationId").and_then(Value::as_str) {
            Some(id) if !id.trim().is_empty() => names::operation_name(id),
            _ => names::operation_name_from_route(method, path),
        };
        // The client names a builder per operation (`<Name>Builder`), and the server trait a
        // method: both come from this name.
        let name = taken
            .first_free(&wanted, "", |taken, name| taken.is_free(name) && taken.is_free(&format!("{name}Builder")));
        taken.claim(&name);
        taken.reserve(&sanitize(&format!("{name}Builder"), Case::Pascal));
        name
    }

    #[allow(clippy::too_many_arguments)]
    fn operation(
        &mut self,
        name: &str,
        method: &str,
        path: &str,
        item: &Map<String, Value>,
        op: &Value,
        pointer: &str,
        routes: &mut Routes,
        read: &mut ParamsRead,
    ) -> Result<OperationOut, LeftOut> {
        if !matches!(method, "get" | "put" | "post" | "delete" | "patch" | "head" | "options") {
            return Err(LeftOut::new(
                gaps::METHOD,
                format!("the method {} has no word in the format", method.to_uppercase()),
            ));
        }
        let Some(op) = op.as_object() else {
            return Err(LeftOut::new(gaps::BAD_VALUE, "the operation is not a mapping"));
        };
        let op_type = sanitize(name, Case::Pascal);
        let (path, select) = self.selectors(path, item, op, pointer)?;
        let (path, renames) = self.route(path, &select, method, routes, pointer)?;
        let mut node = Map::new();
        node.insert("method".into(), json!(method.to_uppercase()));
        node.insert("path".into(), json!(path.raw));
        if !select.is_empty() {
            node.insert("select".into(), select_node(&select));
        }
        let (summary, description) = summary_and_description(op, method, &path.raw);
        node.insert("summary".into(), json!(summary));
        if let Some(description) = description {
            node.insert("description".into(), json!(description));
        }
        let mut op_gaps: Vec<String> = Vec::new();
        let params = self.parameters(item, op, (&path, &select), &renames, &op_type, (pointer, &mut op_gaps), read);
        if !params.is_empty() {
            node.insert("params".into(), Value::Array(params.clone()));
        }
        if let Some(body) = self.request_body(op, method, &op_type, pointer, &mut op_gaps)? {
            node.insert("body".into(), Value::Object(body));
        }
        let cx = ResponseContext {
            op_type: &op_type,
            paginated: self.doc.pagination.is_some() && has_pagination_params(&params, self.doc.pagination.as_ref()),
            // A GET's list whose pages its names tell (when the document does not say its own).
            page_params: (method == "get" && self.doc.tell_pages).then_some(params.as_slice()),
            pointer,
        };
        let (response, errors) = self.responses(op, &cx, &mut op_gaps);
        if response.contains_key("items") {
            self.drop_convention_params(&mut node, &params, &response);
        }
        let mut response = response;
        if method == "head" {
            head_response(&mut response);
        }
        node.insert("response".into(), Value::Object(response));
        if !errors.is_empty() {
            node.insert("errors".into(), Value::Array(errors));
        }
        if op.get("deprecated") == Some(&Value::Bool(true)) {
            node.insert("deprecated".into(), json!({}));
        }
        if !lists_refusal(op) {
            self.built.gaps.note(gaps::UNLISTED_REFUSALS, &refs::child(pointer, "responses"));
        }
        if let Some(auth) = self.operation_auth(op, pointer, &mut op_gaps) {
            node.insert("auth".into(), auth);
        }
        self.last_gaps(op, pointer, &mut op_gaps);
        let mut unique = Vec::new();
        for gap in op_gaps {
            if !unique.contains(&gap) {
                unique.push(gap);
            }
        }
        add_gaps(&mut node, &unique);
        // The group: the operation's first tag, else one named from its path.
        let tag_text = op.get("tags").and_then(Value::as_array).and_then(|t| t.first()).and_then(Value::as_str);
        let tag = self.tag(tag_text.unwrap_or_else(|| untagged_group(&path.raw)), None);
        routes.add(&path, &select, method);
        Ok(OperationOut { name: name.to_owned(), tag, node })
    }

    /// The gaps of an operation's callbacks and servers, and those an apigen export carries
    /// (`x-gap`).
    fn last_gaps(&mut self, op: &Map<String, Value>, pointer: &str, op_gaps: &mut Vec<String>) {
        for (key, kind) in [("callbacks", gaps::CALLBACKS), ("servers", gaps::SERVERS)] {
            if op.get(key).is_some_and(|v| {
                v.as_object().is_some_and(|m| !m.is_empty()) || v.as_array().is_some_and(|a| !a.is_empty())
            }) {
                op_gaps.push(self.built.gaps.note(kind, pointer));
            }
        }
        for id in op.get("x-gap").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
            if self.built.gaps.carries(id) {
                op_gaps.push(id.to_owned());
            }
        }
    }

    /// A paginated operation's parameters without those of its list convention, which adds
    /// them (the convention's `params`, shared by name).
    fn drop_convention_params(&self, node: &mut Map<String, Value>, params: &[Value], response: &Map<String, Value>) {
        let convention: Vec<Value> = response
            .get("pagination")
            .and_then(|p| p.get("params"))
            .or_else(|| self.doc.pagination.as_ref().and_then(|p| p.get("params")))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        // A shared parameter by its name; an inline one (now shared) by its wire name.
        let wire = |p: &Value| match p {
            Value::Object(node) if node.get("in") == Some(&json!("query")) => node.get("name").cloned(),
            Value::Object(_) => None,
            other => Some(other.clone()),
        };
        let kept: Vec<Value> =
            params.iter().filter(|p| wire(p).is_none_or(|w| !convention.contains(&w))).cloned().collect();
        if kept.is_empty() {
            node.shift_remove("params");
        } else {
            node.insert("params".into(), Value::Array(kept));
        }
    }

    /// The path as the format routes it: parameter names made valid and agreeing with other
    /// operations on the same route (a path parameter's name never travels); the renames.
    fn route(
        &mut self,
        raw: &str,
        select: &[Selector],
        method: &str,
        routes: &Routes,
        pointer: &str,
    ) -> Result<(PathTemplate, BTreeMap<String, String>), LeftOut> {
        if raw.contains('?') {
            return Err(LeftOut::new(
                gaps::PATH,
                format!("the path `{raw}` holds a query (`?`): a path cannot say which query values select it"),
            ));
        }
        if spans_segments(raw) {
            return Err(LeftOut::new(
                gaps::PATH,
                format!("the path `{raw}` holds optional segments in parentheses: one operation is one route"),
            ));
        }
        let mut renames = BTreeMap::new();
        let mut segments = Vec::new();
        for segment in raw.split('/').skip(1) {
            segments.push(rename_params(segment, &mut renames));
        }
        let mut path = format!("/{}", segments.join("/"));
        // The same route named otherwise elsewhere: take that naming.
        let shape = shape_of(&path);
        if let Some(existing) = routes.names.get(&shape) {
            let ours: Vec<String> = params_of(&path);
            for (theirs, mine) in existing.iter().zip(&ours) {
                if theirs != mine {
                    for value in renames.values_mut() {
                        if value == mine {
                            value.clone_from(theirs);
                        }
                    }
                }
            }
            let mut i = 0;
            path = path
                .split('/')
                .map(|s| {
                    if let (Some(_), Some(theirs)) = (whole_param(s), existing.get(i)) {
                        let renamed = format!("{{{theirs}}}");
                        i += 1;
                        renamed
                    } else {
                        s.to_owned()
                    }
                })
                .collect::<Vec<_>>()
                .join("/");
        }
        if renames.iter().any(|(from, to)| from != to) {
            self.built.gaps.note(gaps::PATH_PARAM_RENAMED, pointer);
        }
        let template = PathTemplate::parse(&path).map_err(|why| LeftOut::new(gaps::PATH, why))?;
        let params: Vec<&str> = template.params().collect();
        if params.iter().collect::<BTreeSet<_>>().len() != params.len() {
            return Err(LeftOut::new(gaps::PATH, format!("the path `{raw}` names a parameter twice")));
        }
        let taken = routes.methods.get(&(template.route(), method.to_owned())).into_iter().flatten();
        if taken.into_iter().any(|(other, theirs)| routes_conflict((&template, select), (other, theirs))) {
            return Err(LeftOut::new(
                gaps::ROUTE,
                format!("another {} operation answers the requests of `{raw}`", method.to_uppercase()),
            ));
        }
        Ok((template, renames))
    }

    /// The path without its fragment, and the operation's selectors: an apigen export's
    /// `x-select` as written, else the fragment's `Name=Value` pairs (AWS's
    /// `/#X-Amz-Target=DynamoDB_20120810.GetItem`, `/#Action=DescribeInstances`), each naming a
    /// header or query parameter the operation declares (which the selector then replaces).
    fn selectors<'p>(
        &mut self,
        raw: &'p str,
        item: &Map<String, Value>,
        op: &Map<String, Value>,
        pointer: &str,
    ) -> Result<(&'p str, Vec<Selector>), LeftOut> {
        let (path, fragment) = raw.split_once('#').map_or((raw, None), |(path, f)| (path, Some(f)));
        if let Some(exported) = op.get("x-select") {
            return read_x_select(exported).map(|select| (path, select)).ok_or_else(|| {
                LeftOut::new(gaps::PATH, "`x-select` is not a mapping of `header` and `query` to names and values")
            });
        }
        let Some(fragment) = fragment else { return Ok((path, Vec::new())) };
        let declared = self.declared_params(item, op, pointer);
        // AWS's REST documents name a query parameter the operation requires (`#tagKeys`): a
        // hint beside the path, not a selector; the route is the path (an operation whose
        // route another took is left out by `route`).
        let names_declared = fragment
            .split('&')
            .all(|name| declared.iter().any(|p| p.name == name && matches!(p.location.as_str(), "query" | "header")));
        if !fragment.contains('=') && names_declared {
            return Ok((path, Vec::new()));
        }
        if !fragment.contains('=') {
            return Err(LeftOut::new(
                gaps::PATH,
                format!(
                    "the path `{raw}` ends in the fragment `#{fragment}`, which names no header or query value to select the operation by (a fragment never travels)"
                ),
            ));
        }
        let mut select = Vec::new();
        for pair in fragment.split('&') {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let location = declared.iter().find(|p| p.name == name).map(|p| p.location.as_str());
            let location = match location {
                Some("header") => SelectIn::Header,
                Some("query") => SelectIn::Query,
                _ => {
                    return Err(LeftOut::new(
                        gaps::PATH,
                        format!(
                            "the fragment of `{raw}` selects by `{name}`, which the operation declares as no header or query parameter"
                        ),
                    ));
                }
            };
            if value.is_empty() || !value.bytes().all(|b| b.is_ascii_graphic()) {
                return Err(LeftOut::new(
                    gaps::PATH,
                    format!("the fragment of `{raw}` gives `{name}` no constant value"),
                ));
            }
            select.push(Selector { location, name: name.to_owned(), value: value.to_owned() });
        }
        // AWS's query protocol also requires `Version`, a parameter of one value: a constant
        // the client always sends, so a selector too, in the location of the fragment's.
        for param in &declared {
            let location = select.iter().map(|s| s.location).find(|l| l.as_str() == param.location);
            if let (Some(location), Some(value)) = (location, &param.constant)
                && !select.iter().any(|s| s.location == location && s.name == param.name)
            {
                select.push(Selector { location, name: param.name.clone(), value: value.clone() });
            }
        }
        select.sort_by_key(|s| s.location);
        Ok((path, select))
    }

    /// The path's and the operation's parameters: name, location, and the value of a
    /// required one of one value.
    fn declared_params(&mut self, item: &Map<String, Value>, op: &Map<String, Value>, pointer: &str) -> Vec<Declared> {
        let doc = self.doc.value;
        let mut declared = Vec::new();
        for list in [item.get("parameters"), op.get("parameters")] {
            for param in list.and_then(Value::as_array).into_iter().flatten() {
                let Ok((resolved, _)) = refs::follow(doc, param, pointer) else { continue };
                let text = |key: &str| resolved.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
                let schema = resolved.get("schema").and_then(|s| refs::follow(doc, s, pointer).ok()).map(|(s, _)| s);
                let values = schema.and_then(|s| s.get("enum")).and_then(Value::as_array);
                let constant = match values.map(Vec::as_slice) {
                    Some([Value::String(value)]) if resolved.get("required") == Some(&Value::Bool(true)) => {
                        Some(value.clone()).filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_graphic()))
                    }
                    _ => None,
                };
                declared.push(Declared { name: text("name"), location: text("in"), constant });
            }
        }
        declared
    }
}

const METHODS: &[&str] = &["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// A HEAD operation's response: a GET's status and headers, never a body; its `Content-Type`
/// is the body's it leaves out.
fn head_response(response: &mut Map<String, Value>) {
    let bodied = ["type", "fields", "items"].iter().any(|key| response.contains_key(*key));
    let bytes = response.get("type") == Some(&json!("bytes"));
    let media_type = match response.get("media_type") {
        Some(Value::Array(listed)) => listed.first().cloned(),
        Some(media) => Some(media.clone()),
        None if bytes => Some(json!("application/octet-stream")),
        None => bodied.then(|| json!("application/json")),
    };
    for key in ["type", "type_name", "fields", "additional_properties", "unknown_fields", "empty", "media_type", "also"]
    {
        response.shift_remove(key);
    }
    if let Some(media_type) = media_type.filter(|_| bodied) {
        response.insert("media_type".into(), media_type);
    }
}

/// A parameter an operation declares, as the selectors read it.
struct Declared {
    name: String,
    location: String,
    /// The value of a required parameter of one value.
    constant: Option<String>,
}

/// `x-select` of an apigen export: `{header: {name: value}, query: {name: value}}`.
fn read_x_select(value: &Value) -> Option<Vec<Selector>> {
    let mut select = Vec::new();
    for (key, pairs) in value.as_object()? {
        let location = match key.as_str() {
            "header" => SelectIn::Header,
            "query" => SelectIn::Query,
            _ => return None,
        };
        for (name, value) in pairs.as_object()? {
            select.push(Selector { location, name: name.clone(), value: value.as_str()?.to_owned() });
        }
    }
    select.sort_by_key(|s| s.location);
    Some(select)
}

/// The spec's `select:` of the selectors.
fn select_node(select: &[Selector]) -> Value {
    let mut node = Map::new();
    for selector in select {
        let entry = node.entry(selector.location.as_str()).or_insert_with(|| json!({}));
        entry[selector.name.as_str()] = json!(selector.value);
    }
    Value::Object(node)
}

/// True when parentheses hold a `/` (gitlab's optional `(/ref/{ref})` segments).
fn spans_segments(path: &str) -> bool {
    let mut depth = 0usize;
    for c in path.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            '/' if depth > 0 => return true,
            _ => {}
        }
    }
    false
}

/// A segment with every `{name}` renamed to a valid parameter name (`{+path}` to `{path}`),
/// the renames recorded.
fn rename_params(segment: &str, renames: &mut BTreeMap<String, String>) -> String {
    let mut out = String::new();
    let mut rest = segment;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|c| open + c) else { break };
        let name = &rest[open + 1..close];
        if name.contains('{') {
            break;
        }
        let valid = names::path_param_name(name.trim_start_matches('+'));
        renames.insert(name.to_owned(), valid.clone());
        out.push_str(&rest[..open]);
        out.push_str(&format!("{{{valid}}}"));
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Routes taken so far: parameter names of each route shape, and the paths and selectors of
/// each route and method.
#[derive(Default)]
struct Routes {
    names: BTreeMap<String, Vec<String>>,
    methods: BTreeMap<(String, String), Vec<Taken>>,
}

/// An operation's path and selectors, as the conflict check compares them.
type Taken = (PathTemplate, Vec<Selector>);

impl Routes {
    fn add(&mut self, path: &PathTemplate, select: &[Selector], method: &str) {
        let shape = shape_of(&path.raw);
        self.names.entry(shape).or_insert_with(|| params_of(&path.raw));
        let taken = self.methods.entry((path.route(), method.to_owned())).or_default();
        taken.push((path.clone(), select.to_vec()));
    }
}

/// A path with every parameter written `{}`.
fn shape_of(path: &str) -> String {
    path.split('/').map(|s| if whole_param(s).is_some() { "{}" } else { s }).collect::<Vec<_>>().join("/")
}

fn params_of(path: &str) -> Vec<String> {
    path.split('/').filter_map(whole_param).map(str::to_owned).collect()
}

/// The name of a segment that is one whole parameter (`{id}`, not `{a},{b}`).
fn whole_param(segment: &str) -> Option<&str> {
    segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')).filter(|name| !name.contains(['{', '}']))
}

/// One line of summary (the document's, its description's first line, or the route) and the
/// description, kept whole.
fn summary_and_description(op: &Map<String, Value>, method: &str, path: &str) -> (String, Option<String>) {
    let text = |key: &str| op.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
    let description = text("description").map(str::to_owned);
    let summary = match text("summary") {
        Some(summary) if !summary.contains('\n') => summary.to_owned(),
        Some(summary) => {
            let first = summary.lines().next().unwrap_or_default().trim().to_owned();
            let rest = summary.to_owned();
            return (first, Some(description.map_or(rest.clone(), |d| format!("{rest}\n\n{d}"))));
        }
        None => match &description {
            Some(d) => {
                let first = d.lines().next().unwrap_or_default().trim();
                let sentence = first.split_inclusive(". ").next().unwrap_or(first).trim();
                let mut line: String = sentence.chars().take(120).collect();
                if line.len() < sentence.len() {
                    line.push_str("...");
                }
                line
            }
            None => format!("{} {path}", method.to_uppercase()),
        },
    };
    (summary, description)
}

/// True when the operation takes every parameter of the export's list convention.
fn has_pagination_params(params: &[Value], pagination: Option<&Map<String, Value>>) -> bool {
    let Some(wanted) = pagination.and_then(|p| p.get("params")).and_then(Value::as_array) else { return false };
    wanted.iter().all(|w| params.iter().any(|p| p.as_str() == w.as_str()))
}

/// True when an operation's responses list a status the router's refusal of an invalid
/// request may answer: 400, `4XX` or `default`.
fn lists_refusal(op: &Map<String, Value>) -> bool {
    let responses = op.get("responses").and_then(Value::as_object);
    responses.is_some_and(|r| r.keys().any(|k| matches!(k.to_ascii_uppercase().as_str(), "400" | "4XX" | "DEFAULT")))
}

/// The group of an operation the document does not tag: the first literal segment of its path
/// that is not a version (`/v1/customers/{id}` is in `customers`, as `/api/v2/users` is in
/// `users`), so an untagged API still gets a group, and a cargo feature, per resource; the
/// first literal segment when all are versions, `default` when there is none.
fn untagged_group(path: &str) -> &str {
    let literal: Vec<&str> = path.split('/').filter(|s| !s.is_empty() && !s.contains('{')).collect();
    let version = |segment: &&str| {
        let lower = segment.to_ascii_lowercase();
        let numbered = lower.strip_prefix('v').is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
        lower == "api" || numbered || segment.starts_with(|c: char| c.is_ascii_digit())
    };
    literal.iter().find(|s| !version(s)).or(literal.first()).copied().unwrap_or("default")
}

#[cfg(test)]
mod tests {
    #[test]
    fn untagged_operations_are_grouped_by_their_first_segment_past_versions() {
        let cases = [
            ("/v1/customers/{customer}/sources", "customers"),
            ("/api/v2/users", "users"),
            ("/2010-04-01/Accounts/{sid}/Calls.json", "Accounts"),
            ("/v1beta1/namespaces", "namespaces"),
            ("/value/items", "value"),
            ("/v1", "v1"),
            ("/{id}", "default"),
            ("/", "default"),
        ];
        for (path, group) in cases {
            assert_eq!(super::untagged_group(path), group, "{path}");
        }
    }
}
