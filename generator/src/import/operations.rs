//! Operations: paths and methods, parameters (shared ones stay shared), request bodies,
//! responses, security and tags. An operation the format cannot route or call is left out
//! with a gap of its own; a part of one it cannot hold is left out with a gap of its kind.

use super::errors::ErrorsTold;
use super::gaps::{self, Kind};
use super::refs;
use super::schema::{At, free_rust_name};
use super::typed::Expr;
use super::{Importer, OperationOut, add_gaps, is_default_error_body, names};
use crate::model::names::{Case, sanitize};
use crate::model::{PathTemplate, SelectIn, Selector, routes_conflict};
use indexmap::IndexMap;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// The auth schemes the format can hold (bearer tokens), by document name, and what each
/// other scheme is.
#[derive(Debug, Default)]
pub struct Auth {
    /// The schemes the format holds (bearer, basic, API keys): document name -> spec name,
    /// with the scheme as `api.auth` declares it.
    pub schemes: IndexMap<String, (String, Map<String, Value>)>,
    /// Other schemes: document name -> the gap kind of why not.
    pub other: BTreeMap<String, Kind>,
    /// Schemes that say what another does: document name -> the spec name of that one.
    pub aliases: BTreeMap<String, String>,
}

const METHODS: &[&str] = &["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// What the responses of an operation are read with, besides its OpenAPI object.
struct ResponseContext<'a> {
    /// The operation's type name (`ListReposResponse` and the like are named from it).
    op_type: &'a str,
    /// Whether the list convention of an apigen export applies (`x-pagination`).
    paginated: bool,
    /// A GET's parameters, when its pagination is told from names ([`super::pagination`]).
    page_params: Option<&'a [Value]>,
    /// The operation's JSON pointer in the document.
    pointer: &'a str,
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

/// Why an operation is left out.
struct LeftOut {
    kind: Kind,
    why: String,
}

impl LeftOut {
    fn new(kind: Kind, why: impl Into<String>) -> Self {
        LeftOut { kind, why: why.into() }
    }
}

impl Importer<'_> {
    /// The document's tags, in order, named for the spec.
    pub(super) fn declare_tags(&mut self) {
        let doc = self.doc;
        for tag in doc.get("tags").and_then(Value::as_array).into_iter().flatten() {
            let Some(text) = tag.get("name").and_then(Value::as_str) else { continue };
            let description = tag.get("description").and_then(Value::as_str).map(|d| d.trim().to_owned());
            self.tag(text, description.filter(|d| !d.is_empty()));
        }
    }

    /// The spec tag of a document tag, declared when first met.
    fn tag(&mut self, text: &str, description: Option<String>) -> String {
        if let Some(name) = self.tag_names.get(text) {
            return name.clone();
        }
        let mut wanted = names::tag_name(text);
        if matches!(wanted.as_str(), "api" | "schemas") || wanted.starts_with("schemas-") {
            wanted.push_str("-ops");
        }
        let module_free = |taken: &names::Taken, name: &str| taken.is_free(&crate::model::names::module_name(name));
        let name = self.tag_taken.first_free(&wanted, "-", module_free);
        self.tag_taken.reserve(&sanitize(&crate::model::names::module_name(&name), Case::Snake));
        let title = text.trim();
        let title = if title.is_empty() { name.clone() } else { title.to_owned() };
        self.tags.insert(name.clone(), (title, description));
        self.tag_names.insert(text.to_owned(), name.clone());
        name
    }

    /// The security schemes: bearer, OAuth 2 and OpenID Connect (which send bearer tokens)
    /// are kept; API keys and basic authentication are noted for the operations needing them.
    pub(super) fn security_schemes(&mut self) -> Auth {
        let mut auth = Auth::default();
        let doc = self.doc;
        let Some(schemes) = doc.pointer("/components/securitySchemes").and_then(Value::as_object) else {
            return auth;
        };
        for (key, scheme) in schemes {
            let pointer = refs::child("#/components/securitySchemes", key);
            let Ok((scheme, _)) = refs::follow(doc, scheme, &pointer) else { continue };
            let ty = scheme.get("type").and_then(Value::as_str).unwrap_or_default();
            let http = scheme.get("scheme").and_then(Value::as_str).unwrap_or_default().to_ascii_lowercase();
            let text = |k: &str| scheme.get(k).and_then(Value::as_str).map(str::trim).filter(|t| !t.is_empty());
            let mut node = Map::new();
            match (ty, http.as_str()) {
                ("http", "bearer") => {
                    node.insert("type".into(), json!("bearer"));
                }
                ("http", "basic") => {
                    node.insert("type".into(), json!("basic"));
                }
                ("oauth2" | "openIdConnect", _) => {
                    // The client presents the token it obtained as a bearer token.
                    self.gaps.note(gaps::OAUTH, &pointer);
                    node.insert("type".into(), json!("bearer"));
                }
                // A "key" in the `Authorization` header is a bearer token (Kubernetes).
                ("apiKey", _)
                    if text("in") == Some("header")
                        && text("name").is_some_and(|n| n.eq_ignore_ascii_case("authorization")) =>
                {
                    node.insert("type".into(), json!("bearer"));
                }
                ("apiKey", _) => {
                    let location = text("in").filter(|l| matches!(*l, "header" | "query" | "cookie"));
                    let name =
                        text("name").filter(|n| is_token(n) && !(location == Some("header") && is_reserved_header(n)));
                    let (Some(location), Some(name)) = (location, name) else {
                        auth.other.insert(key.clone(), gaps::API_KEY);
                        continue;
                    };
                    node.insert("type".into(), json!("api-key"));
                    node.insert("in".into(), json!(location));
                    node.insert("name".into(), json!(name));
                }
                _ => {
                    auth.other.insert(key.clone(), gaps::BASIC);
                    continue;
                }
            }
            if let Some(description) = text("description") {
                node.insert("description".into(), json!(description));
            }
            let name = if key == "none" { "none-scheme".to_owned() } else { key.clone() };
            // Two schemes the same in Rust (`bearerAuth`, `BearerAuth`): the same scheme when
            // they say the same, else the second under another name.
            let rust = |n: &str| sanitize(n, Case::Snake);
            let same = auth.schemes.values().find(|(other, _)| rust(other) == rust(&name)).cloned();
            let name = match same {
                Some((other, other_node)) if other_node == node => other,
                Some(_) => (2..)
                    .map(|i| format!("{name}{i}"))
                    .find(|n| auth.schemes.values().all(|(o, _)| rust(o) != rust(n)))
                    .unwrap_or(name),
                None => name,
            };
            if auth.schemes.values().any(|(other, _)| *other == name) {
                auth.aliases.insert(key.clone(), name);
                continue;
            }
            auth.schemes.insert(key.clone(), (name, node));
        }
        auth
    }

    /// Gaps of the document as a whole: servers, webhooks.
    pub(super) fn note_document_gaps(&mut self) {
        let doc = self.doc;
        let servers = doc.get("servers").and_then(Value::as_array);
        for (i, server) in servers.into_iter().flatten().enumerate() {
            let pointer = format!("#/servers/{i}");
            match server_node(server) {
                Some(node) => self.servers.push(Value::Object(node)),
                None if server.get("url").and_then(Value::as_str) == Some("/") => {}
                None => {
                    self.gaps.note(gaps::SERVERS, &pointer);
                }
            }
        }
        if doc.get("webhooks").and_then(Value::as_object).is_some_and(|w| !w.is_empty()) {
            self.gaps.note(gaps::WEBHOOKS, "#/webhooks");
        }
    }

    /// Every operation of every path, in document order.
    pub(super) fn paths(&mut self) {
        let doc = self.doc;
        let Some(paths) = doc.get("paths").and_then(Value::as_object) else { return };
        let mut routes = Routes::default();
        let mut op_names = names::Taken::new(Case::Pascal);
        op_names.reserve("Client");
        for (path, item) in paths {
            let pointer = refs::child("#/paths", path);
            let Ok((item, _)) = refs::follow(doc, item, &pointer) else {
                self.gaps.note(gaps::BROKEN_REF, &pointer);
                continue;
            };
            let Some(item) = item.as_object() else { continue };
            for (method, op) in item {
                if !METHODS.contains(&method.as_str()) {
                    continue;
                }
                self.total += 1;
                let op_pointer = refs::child(&pointer, method);
                let name = self.operation_name(op, method, path, &mut op_names);
                self.budget = super::SCHEMA_BUDGET;
                self.op_params = (0, 0);
                match self.operation(&name, method, path, item, op, &op_pointer, &mut routes) {
                    Ok(out) => {
                        self.params.0 += self.op_params.0;
                        self.params.1 += self.op_params.1;
                        self.operations.push(out);
                    }
                    Err(left) => {
                        let what = format!("operation `{} {path}` ({name})", method.to_uppercase());
                        self.gaps.left_out(
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
        self.declared_authorization = false;
        let params = self.parameters(item, op, (&path, &select), &renames, &op_type, pointer, &mut op_gaps);
        if !params.is_empty() {
            node.insert("params".into(), Value::Array(params.clone()));
        }
        if let Some(body) = self.request_body(op, method, &op_type, pointer, &mut op_gaps)? {
            node.insert("body".into(), Value::Object(body));
        }
        let cx = ResponseContext {
            op_type: &op_type,
            paginated: self.pagination.is_some() && has_pagination_params(&params, self.pagination.as_ref()),
            // A GET's list whose pages its names tell (when the document does not say its own).
            page_params: (method == "get" && self.tell_pages).then_some(params.as_slice()),
            pointer,
        };
        let (response, errors) = self.responses(op, &cx, &mut op_gaps);
        if response.contains_key("items") {
            self.drop_convention_params(&mut node, &params, &response);
        }
        let mut response = response;
        if method == "head" {
            // HEAD answers a GET's status and headers, never a body; its `Content-Type` is
            // the body's it leaves out.
            let bodied = ["type", "fields", "items"].iter().any(|key| response.contains_key(*key));
            let bytes = response.get("type") == Some(&json!("bytes"));
            let media_type = match response.get("media_type") {
                Some(Value::Array(listed)) => listed.first().cloned(),
                Some(media) => Some(media.clone()),
                None if bytes => Some(json!("application/octet-stream")),
                None => bodied.then(|| json!("application/json")),
            };
            for key in [
                "type",
                "type_name",
                "fields",
                "additional_properties",
                "unknown_fields",
                "empty",
                "media_type",
                "also",
            ] {
                response.shift_remove(key);
            }
            if let Some(media_type) = media_type.filter(|_| bodied) {
                response.insert("media_type".into(), media_type);
            }
        }
        node.insert("response".into(), Value::Object(response));
        if !errors.is_empty() {
            node.insert("errors".into(), Value::Array(errors));
        }
        if op.get("deprecated") == Some(&Value::Bool(true)) {
            node.insert("deprecated".into(), json!({}));
        }
        if !lists_refusal(op) {
            self.gaps.note(gaps::UNLISTED_REFUSALS, &refs::child(pointer, "responses"));
        }
        match self.operation_auth(op, pointer, &mut op_gaps) {
            Some(auth) if auth == json!("none") && self.declared_authorization => {
                node.insert("auth".into(), json!(self.authorization_scheme()));
            }
            Some(auth) => {
                node.insert("auth".into(), auth);
            }
            None => {}
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
                op_gaps.push(self.gaps.note(kind, pointer));
            }
        }
        for id in op.get("x-gap").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
            if self.gaps.carries(id) {
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
            .or_else(|| self.pagination.as_ref().and_then(|p| p.get("params")))
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
            self.gaps.note(gaps::PATH_PARAM_RENAMED, pointer);
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
        let doc = self.doc;
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

impl Importer<'_> {
    /// Path-level and operation-level parameters (the operation's win), renamed path
    /// parameters, undeclared ones declared; headers, cookies and objects left out (gaps).
    #[allow(clippy::too_many_arguments)]
    fn parameters(
        &mut self,
        item: &Map<String, Value>,
        op: &Map<String, Value>,
        (path, select): (&PathTemplate, &[Selector]),
        renames: &BTreeMap<String, String>,
        op_type: &str,
        pointer: &str,
        op_gaps: &mut Vec<String>,
    ) -> Vec<Value> {
        let doc = self.doc;
        let mut merged: IndexMap<(String, String), (Value, String)> = IndexMap::new();
        let item_pointer = pointer.rsplit_once('/').map_or(pointer, |(item, _)| item).to_owned();
        let lists = [(item.get("parameters"), item_pointer), (op.get("parameters"), pointer.to_owned())];
        for (list, at) in lists {
            for (i, param) in list.and_then(Value::as_array).into_iter().flatten().enumerate() {
                let param_pointer = refs::child(&refs::child(&at, "parameters"), &i.to_string());
                let Ok((resolved, _)) = refs::follow(doc, param, &param_pointer) else {
                    op_gaps.push(self.gaps.note(gaps::BROKEN_REF, &param_pointer));
                    continue;
                };
                let name = resolved.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
                let location = resolved.get("in").and_then(Value::as_str).unwrap_or_default().to_owned();
                merged.insert((name, location), (param.clone(), param_pointer));
            }
        }
        let mut out = Vec::new();
        self.exploded.clear();
        let mut taken = names::Taken::new(Case::Snake);
        taken.reserve("body");
        let mut wires: BTreeSet<String> = BTreeSet::new();
        let in_path: Vec<&str> = path.params().collect();
        let mut declared_path: BTreeSet<String> = BTreeSet::new();
        let mut query = Vec::new();
        let mut path_out: BTreeMap<String, Value> = BTreeMap::new();
        // Path parameters left out for their type, with a text one item of the list they hold.
        let mut dropped_path: BTreeMap<String, String> = BTreeMap::new();
        // Path parameters first: a path cannot do without them, so another parameter whose
        // Rust name collides with one is the one left out.
        let mut merged: Vec<_> = merged.into_iter().collect();
        merged.sort_by_key(|((_, location), _)| location != "path");
        for ((name, location), (param, param_pointer)) in merged {
            let selects = |s: &Selector| {
                s.location.as_str() == location
                    && (s.name == name || (location == "header" && s.name.eq_ignore_ascii_case(&name)))
            };
            if select.iter().any(selects) {
                continue; // The selector's constant replaces the parameter.
            }
            // Counted read, then left out by every `continue` below but the two that say
            // otherwise (`dropped` is undone there).
            self.op_params.0 += 1;
            self.op_params.1 += 1;
            match location.as_str() {
                "header" if name.eq_ignore_ascii_case("authorization") && is_required(doc, &param) => {
                    self.declared_authorization = true;
                    op_gaps.push(self.gaps.note(gaps::AUTHORIZATION_PARAM, &param_pointer));
                    self.op_params.1 -= 1; // Kept: it is the operation's credential.
                    continue;
                }
                // A `Content-Type` an operation without a body asks for is its own parameter.
                "header" if name.eq_ignore_ascii_case("content-type") && op.get("requestBody").is_none() => {}
                "header" if !is_token(&name) || is_reserved_header(&name) => {
                    op_gaps.push(self.gaps.note(gaps::HEADER_PARAM, &param_pointer));
                    continue;
                }
                "cookie" if !is_token(&name) => {
                    op_gaps.push(self.gaps.note(gaps::COOKIE_PARAM, &param_pointer));
                    continue;
                }
                "path" | "query" | "header" | "cookie" => {}
                _ => {
                    op_gaps.push(self.gaps.note(gaps::BAD_VALUE, &param_pointer));
                    continue;
                }
            }
            let wire =
                if location == "path" { renames.get(&name).cloned().unwrap_or(name.clone()) } else { name.clone() };
            if location == "path" && !in_path.contains(&wire.as_str()) {
                // Declared for a path that does not hold it: not a parameter of the operation.
                self.op_params.0 -= 1;
                self.op_params.1 -= 1;
                continue;
            }
            // Parameters are told by place and name (header names without case).
            let key = if location == "header" { wire.to_ascii_lowercase() } else { wire.clone() };
            let key = format!("{location} {key}");
            if wires.contains(&key) {
                op_gaps.push(self.gaps.note(gaps::PARAM_COLLISION, &param_pointer));
                continue;
            }
            // A Rust name another parameter took (`statementId` beside the path's
            // `statementID`): the parameter keeps its wire name and takes `<name>_2`.
            let resolved = refs::follow(doc, &param, &param_pointer).ok().map(|(resolved, _)| resolved);
            let wanted = resolved.and_then(|r| r.get("x-rust-name")).and_then(Value::as_str);
            let rust = free_rust_name(&mut taken, &wire, wanted);
            let at = (&param_pointer[..], &mut *op_gaps);
            let Some(entry) = self.parameter(&param, (&wire, &rust), &location, op_type, at) else {
                if location == "path"
                    && let Some(sample) = resolved.and_then(|r| r.get("schema")).and_then(list_item_text)
                {
                    dropped_path.insert(wire.clone(), sample);
                }
                continue;
            };
            self.op_params.1 -= 1;
            wires.insert(key);
            taken.claim(&rust);
            if location == "path" {
                declared_path.insert(wire.clone());
                path_out.insert(wire, entry);
            } else {
                query.push(entry);
            }
        }
        self.drop_colliding_exploded(&mut query, &wires, select, pointer, op_gaps);
        for name in &in_path {
            if !declared_path.contains(*name) {
                op_gaps.push(self.gaps.note(gaps::UNDECLARED_PATH_PARAM, pointer));
                let wire = (*name).to_owned();
                if !taken.is_free(&wire) {
                    // Cannot happen for a valid path: its parameters are distinct.
                    continue;
                }
                taken.claim(&wire);
                // A list of scalars (`1,2,3`) the format cannot type: text, its sample one item,
                // which the document's list takes.
                let entry = match dropped_path.get(&wire) {
                    Some(sample) => json!({ "name": wire, "in": "path", "sample": sample }),
                    None => json!({ "name": wire, "in": "path" }),
                };
                path_out.insert(wire.clone(), entry);
            }
        }
        for name in in_path {
            if let Some(entry) = path_out.remove(name) {
                out.push(entry);
            }
        }
        out.extend(query);
        out
    }

    /// The schema of a parameter declared with `content`, and whether it travels as JSON
    /// text: one JSON media type, a value that is not a scalar, in the query or a header. A
    /// scalar is a plain parameter (gap `content-scalar-params`); `None` for anything else.
    fn content_schema(
        &mut self,
        content: &Value,
        location: &str,
        pointer: &str,
        op_gaps: &mut Vec<String>,
    ) -> Option<(Value, bool)> {
        let content = content.as_object().filter(|c| c.len() == 1)?;
        let (media, entry) = content.iter().next()?;
        let schema = entry.get("schema")?.clone();
        if holds_binary(self.doc, &schema, 0) {
            return None; // Bytes travel in no parameter.
        }
        if crate::model::Encoding::of(media) != crate::model::Encoding::Json {
            // A scalar as text (`text/plain`, or a range: telnyx's `*/*` uuid in the path) is
            // the value itself, checked as its schema says.
            return scalar_schema(self.doc, &schema, pointer).then_some((schema, false));
        }
        if scalar_schema(self.doc, &schema, pointer) {
            op_gaps.push(self.gaps.note(gaps::CONTENT_SCALAR, pointer));
            return Some((schema, false));
        }
        matches!(location, "query" | "header").then_some((schema, true))
    }

    /// The mapping of a parameter written as JSON (`media_type: application/json`): any type.
    fn json_parameter_node(
        &mut self,
        param: &Value,
        mut typed: super::typed::Typed,
        location: &str,
        json_keys: Vec<(&str, Value)>,
        pointer: &str,
    ) -> Map<String, Value> {
        let required = param.get("required") == Some(&Value::Bool(true));
        if let Some(description) =
            param.get("description").and_then(Value::as_str).map(str::trim).filter(|d| !d.is_empty())
        {
            typed.description = Some(description.to_owned());
        }
        let mut typed = self.named_param_type(typed, true, pointer);
        let at = At::new(refs::child(pointer, "content"), "");
        self.settle_values(&mut typed, !required, &at);
        let mut node: Map<String, Value> = Map::new();
        node.insert("in".into(), json!(location));
        if required {
            node.insert("required".into(), json!(true));
        }
        for (key, value) in json_keys {
            node.insert(key.to_owned(), value);
        }
        node.extend(typed.node(Vec::new()));
        node
    }

    /// A parameter's type as a named one (an inline object, union or enumeration becomes a type
    /// of its own), keeping what the parameter says of it: its description, sample and gaps,
    /// and with `constraints` those of a type not made inline (a JSON list's `max_items`).
    fn named_param_type(
        &mut self,
        typed: super::typed::Typed,
        constraints: bool,
        pointer: &str,
    ) -> super::typed::Typed {
        let expr = self.complete(typed.clone(), pointer);
        let keep = constraints && !typed.expr.is_inline();
        super::typed::Typed {
            expr,
            description: typed.description,
            sample: typed.sample,
            gaps: typed.gaps,
            constraints: if keep { typed.constraints } else { Default::default() },
            ..Default::default()
        }
    }

    /// Leaves out (with a gap) each exploded object parameter one of whose fields another
    /// query parameter, selector or exploded object also names: a request could not tell
    /// them apart, and lint refuses them.
    fn drop_colliding_exploded(
        &mut self,
        query: &mut Vec<Value>,
        wires: &BTreeSet<String>,
        select: &[Selector],
        pointer: &str,
        op_gaps: &mut Vec<String>,
    ) {
        let exploded = std::mem::take(&mut self.exploded);
        for (wire, fields) in &exploded {
            let elsewhere = |name: &String| {
                (name != wire && wires.contains(&format!("query {name}")))
                    || select.iter().any(|s| s.location.as_str() == "query" && &s.name == name)
                    || exploded.iter().any(|(other, theirs)| other != wire && (other == name || theirs.contains(name)))
            };
            if fields.iter().any(elsewhere) {
                let before = query.len();
                query.retain(|entry| {
                    entry.as_str() != Some(wire.as_str()) && entry.get("name").and_then(Value::as_str) != Some(wire)
                });
                if query.len() < before {
                    op_gaps.push(self.gaps.note(gaps::OBJECT_PARAM, pointer));
                    self.op_params.1 += 1;
                }
            }
        }
    }

    /// How an object query parameter travels, when it can: `Some(true)` in brackets (`style:
    /// deepObject`, an object or a map of anything but binary values), `Some(false)` exploded
    /// (`style: form`, the default: an object of scalars and lists of scalars, each field a
    /// query parameter). `None` for anything else (not an object, `explode: false`, a
    /// composition, an exploded object of nested values or with additional properties).
    fn object_param_style(&self, param: &Value, schema: &Value, pointer: &str) -> Option<bool> {
        let doc = self.doc;
        let (schema, _) = refs::follow(doc, schema, pointer).ok()?;
        let is_object = |s: &Value| {
            s.get("type").and_then(Value::as_str) == Some("object")
                || (s.get("type").is_none()
                    && (s.get("properties").is_some() || s.get("additionalProperties").is_some()))
        };
        if !is_object(schema) || ["oneOf", "anyOf", "not"].iter().any(|k| schema.get(k).is_some()) {
            return None;
        }
        let style = param.get("style").and_then(Value::as_str).unwrap_or("form");
        let explode = param.get("explode").and_then(Value::as_bool).unwrap_or(true);
        match (style, explode) {
            ("deepObject", true) => (!holds_binary(doc, schema, 0)).then_some(true),
            ("form", true) => {
                let properties = schema.get("properties").and_then(Value::as_object).filter(|p| !p.is_empty())?;
                let closed = matches!(schema.get("additionalProperties"), None | Some(Value::Bool(false)));
                let flat =
                    properties.values().all(|p| scalar_schema(doc, p, pointer) || list_of_scalars(doc, p, pointer));
                let plain = schema.get("allOf").is_none();
                (closed && flat && plain).then_some(false)
            }
            _ => None,
        }
    }

    /// How a parameter of a union type (`oneOf`, `anyOf`) travels, when it can: `Some(true)`
    /// in the query in brackets (`style: deepObject`: `created=5` or `created[gt]=1`),
    /// `Some(false)` under its name (the query's `form`, exploded, when every variant is a
    /// scalar or a list of scalars; a path segment, when every variant is a scalar). `None`
    /// when the import did not make it a union type, or it cannot travel.
    fn union_param_style(
        &self,
        param: &Value,
        schema: &Value,
        expr: &Expr,
        location: &str,
        pointer: &str,
    ) -> Option<bool> {
        let doc = self.doc;
        let (resolved, _) = refs::follow(doc, schema, pointer).ok()?;
        let variants = ["oneOf", "anyOf"].iter().find_map(|k| resolved.get(k)).and_then(Value::as_array)?;
        if !matches!(expr, Expr::Named(_)) || variants.is_empty() {
            return None;
        }
        // Variants of distinct JSON kinds only: a union the import later finds overlapping is
        // typed `json`, which no parameter can be.
        let kinds: Vec<&str> = variants
            .iter()
            .map(|v| {
                match refs::follow(doc, v, pointer).ok().and_then(|(v, _)| v.get("type")).and_then(Value::as_str) {
                    Some("integer" | "number") => "number",
                    Some(kind) => kind,
                    None => "?",
                }
            })
            .collect();
        let distinct: BTreeSet<&str> = kinds.iter().copied().collect();
        if distinct.len() < kinds.len() || distinct.contains("?") {
            return None;
        }
        let scalar = |s: &Value| scalar_schema(doc, s, pointer);
        let style =
            param.get("style").and_then(Value::as_str).unwrap_or(if location == "path" { "simple" } else { "form" });
        let explode = param.get("explode").and_then(Value::as_bool).unwrap_or(style == "form" || style == "deepObject");
        match (location, style, explode) {
            ("path", "simple", _) => variants.iter().all(scalar).then_some(false),
            ("query", "form", true) => {
                variants.iter().all(|v| scalar(v) || list_of_scalars(doc, v, pointer)).then_some(false)
            }
            ("query", "deepObject", true) => (!holds_binary(doc, resolved, 0)).then_some(true),
            _ => None,
        }
    }

    /// One parameter: a shared one by name (declared once under `parameters:`), or inline.
    fn parameter(
        &mut self,
        param: &Value,
        (wire, rust): (&str, &str),
        location: &str,
        op_type: &str,
        (pointer, op_gaps): (&str, &mut Vec<String>),
    ) -> Option<Value> {
        let doc = self.doc;
        let component = param
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/components/parameters/"))
            .map(str::to_owned);
        let Ok((resolved, _)) = refs::follow(doc, param, pointer) else { return None };
        let derived = match &component {
            Some(_) => sanitize(wire, Case::Pascal),
            None => format!("{op_type}{}", sanitize(wire, Case::Pascal)),
        };
        let mut node = self.parameter_node(resolved, location, &derived, pointer, op_gaps)?;
        if sanitize(wire, Case::Snake) != rust {
            node.insert("rust_name".into(), json!(rust));
        }
        if let Some(component) = component {
            let original = resolved.get("name").and_then(Value::as_str).unwrap_or_default();
            let shareable = original == wire && !wire.is_empty();
            // A parameter with a Rust name of its own here is inline (its component may be
            // shared elsewhere under the wire name's).
            let shareable = shareable && !node.contains_key("rust_name");
            match self.shared.get(wire) {
                Some((existing, from)) if shareable && (existing == &node || from == &component) => {
                    return Some(json!(wire));
                }
                None if shareable => {
                    self.shared.insert(wire.to_owned(), (node, component));
                    return Some(json!(wire));
                }
                _ => {}
            }
        }
        let mut inline = Map::new();
        inline.insert("name".into(), json!(wire));
        inline.append(&mut node);
        Some(Value::Object(inline))
    }

    /// The mapping of a parameter (without its name): `in`, `required`, its type and value
    /// keys. `None` (with a gap) when its type cannot travel in a path or query.
    fn parameter_node(
        &mut self,
        param: &Value,
        location: &str,
        derived: &str,
        pointer: &str,
        op_gaps: &mut Vec<String>,
    ) -> Option<Map<String, Value>> {
        let mut json_keys = Vec::new();
        let schema = match (param.get("schema"), param.get("content")) {
            (Some(schema), _) => schema.clone(),
            (None, Some(content)) => {
                let Some((schema, as_json)) = self.content_schema(content, location, pointer, op_gaps) else {
                    op_gaps.push(self.gaps.note(gaps::OBJECT_PARAM, pointer));
                    return None;
                };
                if as_json {
                    json_keys.push(("media_type", json!("application/json")));
                }
                schema
            }
            (None, None) => json!({"type": "string"}),
        };
        let schema = boolean_enum_as_text(self.doc, schema, pointer);
        let at = At::new(refs::child(pointer, "schema"), derived);
        let mut typed = self.schema(&schema, &at);
        if !json_keys.is_empty() {
            return Some(self.json_parameter_node(param, typed, location, json_keys, pointer));
        }
        let object_style = match location {
            "query" => self
                .object_param_style(param, &schema, pointer)
                .or_else(|| self.union_param_style(param, &schema, &typed.expr, location, pointer)),
            "path" => self.union_param_style(param, &schema, &typed.expr, location, pointer),
            _ => None,
        };
        let mut object_keys = Vec::new();
        if let Some(deep) = object_style {
            // An object, a map or a union, named (the format holds no inline object parameter).
            let resolved = refs::follow(self.doc, &schema, pointer).map(|(s, _)| s.clone()).unwrap_or_default();
            let is_union = ["oneOf", "anyOf"].iter().any(|k| resolved.get(k).is_some());
            let properties = resolved.get("properties").and_then(Value::as_object);
            let exploded_fields: Vec<String> = properties.map(|p| p.keys().cloned().collect()).unwrap_or_default();
            if typed.expr == Expr::Json {
                typed.expr = Expr::Map(Box::new(Expr::Json)); // A free-form object: any keys.
            }
            typed = self.named_param_type(typed, false, pointer);
            if deep {
                object_keys.push(("style", json!("deepObject")));
            } else if !is_union {
                // An exploded object's fields are query names of their own (a union travels
                // under its name, or as the path segment).
                let wire = param.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
                self.exploded.push((wire, exploded_fields));
            }
        } else {
            if typed.expr == Expr::Json {
                typed.expr = Expr::Scalar("string"); // A value without a type travels as text.
            }
            if !self.travels(&typed.expr, matches!(location, "query" | "header" | "path")) {
                op_gaps.push(self.gaps.note(gaps::OBJECT_PARAM, pointer));
                return None;
            }
        }
        let required = location == "path" || param.get("required") == Some(&Value::Bool(true));
        if let Some(description) =
            param.get("description").and_then(Value::as_str).map(str::trim).filter(|d| !d.is_empty())
        {
            typed.description = Some(description.to_owned());
        }
        if let Some(example) = param.get("example") {
            typed.sample = Some(example.clone());
        }
        let list = matches!(typed.expr, Expr::List(_));
        let style = param.get("style").and_then(Value::as_str).unwrap_or("form");
        let explode = param.get("explode").and_then(Value::as_bool).unwrap_or(style == "form");
        // Query lists travel as repeated keys (`form`, exploded) or one delimited value (the
        // spec's `style`/`explode`), header lists as one comma-separated value (`simple`,
        // OpenAPI's default for headers).
        let mut style_keys = object_keys;
        let as_format = object_style.is_some()
            || match location {
                "header" => style == "simple" || param.get("style").is_none(),
                // A scalar after a dot or its name in the path (`.5`, `;id=5`).
                "path" if matches!(style, "label" | "matrix") && !list => {
                    style_keys.push(("style", json!(style)));
                    true
                }
                // A path list is comma-separated (`simple`, OpenAPI's default in a path).
                "path" => style == "simple" || param.get("style").is_none(),
                _ => match (style, explode) {
                    ("form", true) => true,
                    ("form", false) | ("spaceDelimited" | "pipeDelimited", false) | ("deepObject", true) if list => {
                        style_keys.push(("style", json!(style)));
                        if style == "form" {
                            style_keys.push(("explode", json!(false)));
                        }
                        // `deepObject` is exploded by default: `explode: true` says nothing more.
                        true
                    }
                    _ => false,
                },
            };
        if list && !as_format {
            typed.gap(self.gaps.note(gaps::PARAM_STYLE, pointer));
        }
        typed.nullable = false;
        typed.read_only = false;
        typed.write_only = false;
        if typed.constant.is_some() {
            let constant = typed.constant.take().unwrap_or_default();
            typed.expr = Expr::Enum;
            typed.enum_values = Some(vec![json!(constant)]);
            typed.open = Some(false);
            typed.inline_name = Some(self.claim_type(derived));
            typed.derived_name = Some(derived.to_owned());
        }
        self.settle_values(&mut typed, !required, &at);
        for id in param.get("x-gap").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
            if self.gaps.carries(id) {
                typed.gap(id.to_owned());
            }
        }
        typed.sensitive |= param.get("x-sensitive") == Some(&Value::Bool(true));
        let mut extra = vec![("in", json!(location))];
        if required && location != "path" {
            extra.push(("required", json!(true)));
        }
        if location == "query" && param.get("allowEmptyValue") == Some(&Value::Bool(true)) {
            extra.push(("allow_empty", json!(true)));
        }
        extra.append(&mut style_keys);
        let typed_node = typed.node(Vec::new());
        // `in` and `required` first, as a person writes a parameter.
        let mut node: Map<String, Value> = extra.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        for (key, value) in typed_node {
            if !(location == "path" && key == "type" && value == json!("string")) {
                node.insert(key, value); // Path parameters are strings unless said otherwise.
            }
        }
        Some(node)
    }

    /// True when a value of `expr` can travel as a parameter: a scalar or enumeration, or
    /// (`lists`: in the query, a header or a path) a list of those.
    fn travels(&self, expr: &Expr, lists: bool) -> bool {
        let scalar = |e: &Expr| match e {
            Expr::Scalar(s) => *s != "json",
            Expr::Enum => true,
            Expr::Named(name) => {
                self.types.get(name).is_some_and(|t| t.node.contains_key("enum"))
                    || self.components.iter().any(|(key, n)| {
                        n.as_deref() == Some(name)
                            && self.doc["components"]["schemas"][key].get("enum").is_some()
                            && self.doc["components"]["schemas"][key].get("oneOf").is_none()
                    })
            }
            _ => false,
        };
        match expr {
            Expr::List(inner) if lists => scalar(inner),
            other => scalar(other),
        }
    }

    /// The JSON request body; `Err` when a required body is not JSON (the operation cannot be
    /// called), `None` when there is none the format can hold.
    fn request_body(
        &mut self,
        op: &Map<String, Value>,
        method: &str,
        op_type: &str,
        pointer: &str,
        op_gaps: &mut Vec<String>,
    ) -> Result<Option<Map<String, Value>>, LeftOut> {
        let doc = self.doc;
        let Some(body) = op.get("requestBody") else { return Ok(None) };
        let body_pointer = refs::child(pointer, "requestBody");
        let Ok((body, _)) = refs::follow(doc, body, &body_pointer) else {
            op_gaps.push(self.gaps.note(gaps::BROKEN_REF, &body_pointer));
            return Ok(None);
        };
        let required = body.get("required") == Some(&Value::Bool(true));
        // A DELETE may carry a body (Circuit's `DELETE .../moderators` lists whom); a GET or
        // HEAD may not, in the format as in HTTP's semantics.
        if matches!(method, "get" | "head") {
            op_gaps.push(self.gaps.note(gaps::BODY_ON_GET, &body_pointer));
            return Ok(None);
        }
        let content = body.get("content").and_then(Value::as_object);
        let description = body.get("description").and_then(Value::as_str).map(str::trim).filter(|d| !d.is_empty());
        if content.and_then(json_media).is_none()
            && let Some((mut node, all_kept)) = content.and_then(|c| self.other_body(c, op_type, &body_pointer))
        {
            if !all_kept {
                op_gaps.push(self.gaps.note(gaps::REQUEST_ALTERNATIVES, &refs::child(&body_pointer, "content")));
            }
            if let Some(description) = description {
                node.insert("description".into(), json!(description));
            }
            if !required {
                node.insert("optional".into(), json!(true));
            }
            return Ok(Some(node));
        }
        let Some((media, schema)) = content.and_then(json_media) else {
            let types: Vec<&str> = content.into_iter().flatten().map(|(k, _)| k.as_str()).collect();
            if required {
                return Err(LeftOut::new(
                    gaps::NON_JSON_BODY,
                    format!("its required request body is {}", types.join(", ")),
                ));
            }
            op_gaps.push(self.gaps.note(gaps::NON_JSON_BODY, &body_pointer));
            return Ok(None);
        };
        let at = At::new(
            refs::child(&refs::child(&refs::child(&body_pointer, "content"), media), "schema"),
            format!("{op_type}Body"),
        );
        let mut typed = self.schema(schema, &at);
        if typed.nullable {
            typed.nullable = false;
        }
        typed.constraints.clear();
        typed.default = None;
        // A list's or a map's sample stays when it fits (one item fitting the item constraints
        // the format cannot keep, or the document's example); an object is sampled from its
        // fields.
        typed.sample = typed.sample.take().filter(|sample| list_or_map_sample(self, &typed, sample));
        typed.sensitive = false;
        if typed.constant.is_some() {
            typed.constant = None;
            typed.expr = Expr::Scalar("string");
        }
        if let Some(description) =
            body.get("description").and_then(Value::as_str).map(str::trim).filter(|d| !d.is_empty())
        {
            typed.description = Some(description.to_owned());
        }
        let mut extra = if required { vec![] } else { vec![("optional", json!(true))] };
        // Kept aside until every type is settled: a body whose type ends up `json` (a shape the
        // format cannot type) is sampled with it (`Importer::settle_pending_examples`).
        let example = content.and_then(|c| c.get(media)).and_then(|entry| media_example(doc, entry));
        if let Some(example) = example.or_else(|| schema.get("example").cloned()) {
            extra.push((super::settle::PENDING_EXAMPLE, super::settle::pending_example(example, None)));
        }
        // The same schema also taken as a form, without files (the JSON value has none):
        // urlencoded, nested values in brackets; multipart, of scalars only (OpenAPI sends a
        // nested value as a JSON part, which the format does not read). Every such media
        // type, in the document's order.
        let essence = |m: &str| m.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
        let shape = self.form_shape(schema).filter(|(files, _)| files.is_empty());
        let forms: Vec<(&String, &Value)> = content
            .into_iter()
            .flatten()
            .filter(|(m, entry)| {
                let fits = match (essence(m).as_str(), &shape) {
                    ("application/x-www-form-urlencoded", Some(_)) => true,
                    ("multipart/form-data", Some((_, nested))) => !nested,
                    _ => false,
                };
                fits && entry.get("schema") == Some(schema)
            })
            .collect();
        // The router takes every JSON media type where it takes one (`text/json`, `+json`).
        let kept = |m: &String| is_json_media(m) || forms.iter().any(|(f, _)| *f == m);
        if !forms.is_empty() {
            let listed: Vec<Value> = content
                .into_iter()
                .flatten()
                .map(|(m, _)| m)
                .filter(|m| essence(m) == essence(media) || forms.iter().any(|(f, _)| f == m))
                .map(|m| json!(essence(m)))
                .collect();
            extra.push(("media_type", Value::Array(listed)));
            if forms.iter().any(|(_, entry)| brackets_lists(self.doc, entry, schema)) {
                extra.push(("style", json!("deepObject")));
            }
            let urlencoded = |m: &String| essence(m) == "application/x-www-form-urlencoded";
            if forms.iter().any(|(m, entry)| urlencoded(m) && objects_exploded(self.doc, entry, schema)) {
                op_gaps.push(self.gaps.note(gaps::FORM_OBJECTS, &refs::child(&body_pointer, "content")));
            }
        }
        if content.into_iter().flatten().any(|(m, _)| !kept(m)) {
            op_gaps.push(self.gaps.note(gaps::REQUEST_ALTERNATIVES, &refs::child(&body_pointer, "content")));
        }
        Ok(Some(typed.node(extra)))
    }

    /// The success response and the failure cases.
    fn responses(
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
                op_gaps.push(self.gaps.note(gaps::DEFAULT_SUCCESS, &response_pointer));
                successes.push(Success { status: 200, body, resolved, pointer: response_pointer });
            }
        }
        let Some(main) = successes.first().cloned() else {
            op_gaps.push(self.gaps.note(gaps::NO_SUCCESS, cx.pointer));
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
                op_gaps.push(self.gaps.note(gaps::OTHER_SUCCESS, &other.pointer));
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
                    op_gaps.push(self.gaps.note(gaps::OTHER_SUCCESS, &main_pointer));
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
        let doc = self.doc;
        let responses_pointer = refs::child(pointer, "responses");
        let mut successes = Vec::new();
        let mut errors = Vec::new();
        let mut default: Option<(Value, String)> = None;
        for (code, response) in op.get("responses").and_then(Value::as_object).into_iter().flatten() {
            let response_pointer = refs::child(&responses_pointer, code);
            let implied =
                response.get("$ref").and_then(Value::as_str).is_some_and(|r| r.starts_with("#/components/responses/"));
            let Ok((resolved, _)) = refs::follow(doc, response, &response_pointer) else {
                op_gaps.push(self.gaps.note(gaps::BROKEN_REF, &response_pointer));
                continue;
            };
            if resolved.get("links").and_then(Value::as_object).is_some_and(|l| !l.is_empty()) {
                op_gaps.push(self.gaps.note(gaps::LINKS, &response_pointer));
            }
            match status_of(code) {
                Some(s @ 200..=299) => {
                    if resolved.get("headers").and_then(Value::as_object).is_some_and(|h| !h.is_empty()) {
                        op_gaps.push(self.gaps.note(gaps::RESPONSE_HEADERS, &response_pointer));
                    }
                    let body = self.response_body(resolved, &response_pointer);
                    successes.push(Success { status: s, body, resolved: resolved.clone(), pointer: response_pointer });
                }
                Some(s @ 400..=599) => {
                    if s < 500 {
                        self.note_error_elsewhere(resolved, &response_pointer, op_gaps);
                    }
                    errors.extend(self.failure_case(s, resolved, implied, &response_pointer, op_gaps));
                }
                Some(_) => op_gaps.push(self.gaps.note(gaps::REDIRECTS, &response_pointer)),
                None if code == "default" => {
                    self.note_error_elsewhere(resolved, &response_pointer, op_gaps);
                    default = Some((resolved.clone(), response_pointer));
                }
                None => op_gaps.push(self.gaps.note(gaps::BAD_VALUE, &response_pointer)),
            }
        }
        (successes, errors, default)
    }

    /// The failure case of a 4xx or 5xx response (`None` for one the generated server answers
    /// itself); the first error body that is not the format's own is a gap when the
    /// document's error responses share none ([`super::errors`]).
    fn failure_case(
        &mut self,
        status: u16,
        resolved: &Value,
        implied: bool,
        response_pointer: &str,
        op_gaps: &mut Vec<String>,
    ) -> Option<Value> {
        let doc = self.doc;
        let body = self.response_body(resolved, response_pointer);
        let default_error = body.as_ref().and_then(Option::as_ref).is_some_and(|s| is_default_error_body(doc, s));
        if matches!(body, Some(Some(_))) && !default_error && self.errors == ErrorsTold::NotShared && !self.error_noted
        {
            self.error_noted = true;
            op_gaps.push(self.gaps.note(gaps::ERROR_BODY, response_pointer));
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
                    op_gaps.push(self.gaps.note(gaps::XML_RESPONSE, &pointer));
                }
                response.insert("type".into(), json!(ty));
                response.insert(
                    "media_type".into(),
                    if media_types.len() == 1 { json!(media_types[0]) } else { json!(media_types) },
                );
            }
            Some(None) => {
                op_gaps.push(self.gaps.note(gaps::NON_JSON_RESPONSE, &pointer));
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
                    && let Some(example) = entry.and_then(|entry| media_example(self.doc, entry))
                {
                    response
                        .insert(super::settle::PENDING_EXAMPLE.into(), super::settle::pending_example(example, None));
                }
                if let Some(media) = json_media_named(&resolved) {
                    response.insert("media_type".into(), json!(media));
                }
                if offers_other_media(&resolved) {
                    op_gaps.push(self.gaps.note(gaps::RESPONSE_ALTERNATIVES, &refs::child(&pointer, "content")));
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
        if paginated && let Some((items, envelope)) = page_items(self.doc, schema) {
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
        let root = refs::follow(self.doc, schema, pointer).map(|(s, _)| s).ok();
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

    /// A response's body: `None` without content, `Some(None)` when not JSON, else its schema.
    /// A request body that is not JSON, as the format holds it: a form (an object, nested
    /// values in brackets), a multipart form (an object of scalars and lists of those, plus
    /// files: `format: binary`), text (`string`) or raw bytes. The first media type of the content that fits decides; `None`
    /// when none does.
    fn other_body(
        &mut self,
        content: &Map<String, Value>,
        op_type: &str,
        pointer: &str,
    ) -> Option<(Map<String, Value>, bool)> {
        let essence = |m: &str| m.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
        let (media, entry) = content.iter().next()?;
        // Raw bytes travel in any concrete media type: every one the document lists for the
        // body is kept (an upload in `application/octet-stream`, `image/png` or `image/jpeg`).
        let raw = |m: &str| {
            m.contains('/')
                && !m.contains('*')
                && !m.ends_with("xml")
                && !matches!(m, "application/x-www-form-urlencoded" | "multipart/form-data")
        };
        let only_first = content.len() == 1;
        let media_essence = essence(media);
        let schema = entry.get("schema").cloned().unwrap_or(json!({}));
        match media_essence.as_str() {
            "application/x-www-form-urlencoded" | "multipart/form-data" => {
                let multipart = media_essence == "multipart/form-data";
                let fields = self.form_fields(&schema, multipart)?;
                let at = At::new(
                    refs::child(&refs::child(&refs::child(pointer, "content"), media), "schema"),
                    format!("{op_type}Body"),
                );
                let mut inline = json!({"type": "object", "properties": schema_properties(self.doc, &schema)?, "required": schema_required(self.doc, &schema)});
                // A form closed to undeclared fields stays closed (`unknown_fields: refuse`).
                if refs::lookup_value(self.doc, &schema).and_then(|s| s.get("additionalProperties"))
                    == Some(&json!(false))
                {
                    inline["additionalProperties"] = json!(false);
                }
                let mut typed = self.schema(&inline, &at);
                typed.description = None;
                let mut keys = vec![("media_type", json!(media_essence))];
                if brackets_lists(self.doc, entry, &schema) {
                    keys.push(("style", json!("deepObject")));
                }
                if !multipart && objects_exploded(self.doc, entry, &schema) {
                    let pointer = refs::child(&refs::child(pointer, "content"), media);
                    typed.gap(self.gaps.note(gaps::FORM_OBJECTS, &pointer));
                }
                let mut node = typed.node(keys);
                // Files: `format: binary` strings of a multipart form.
                if let Some(Value::Object(out)) = node.get_mut("fields") {
                    for (name, file) in fields {
                        if let Some(Value::Object(field)) = out.get_mut(&name) {
                            field.retain(|k, _| matches!(k.as_str(), "optional" | "description"));
                            field.insert(
                                "type".into(),
                                json!(if file == FormField::Files { "list<file>" } else { "file" }),
                            );
                        }
                    }
                }
                Some((node, only_first))
            }
            "text/plain" | "text/csv" | "text/html" | "text/markdown" => {
                Some((map(vec![("type", json!("string")), ("media_type", json!(media_essence))]), only_first))
            }
            other if raw(other) => {
                let mut listed: Vec<String> = Vec::new();
                for m in content.keys().map(|m| essence(m)).filter(|m| raw(m)) {
                    if !listed.contains(&m) {
                        listed.push(m);
                    }
                }
                let all_kept = content.keys().all(|m| raw(&essence(m)));
                let media_type = match listed.as_slice() {
                    [one] => json!(one),
                    _ => json!(listed),
                };
                Some((map(vec![("type", json!("bytes")), ("media_type", media_type)]), all_kept))
            }
            _ => None,
        }
    }

    /// The fields of a form body that are files, when the schema is an object whose every
    /// property can travel in a form (a urlencoded form: anything but a file; a multipart
    /// one: anything without files, or scalars, lists of those and files); `None` otherwise.
    fn form_fields(&self, schema: &Value, multipart: bool) -> Option<Vec<(String, FormField)>> {
        let (files, nested) = self.form_shape(schema)?;
        // Files travel in a multipart form of scalars only; a form without files holds any
        // value, nested ones in brackets (`items[0][price]=x`).
        let fits = if multipart { files.is_empty() || !nested } else { files.is_empty() };
        fits.then_some(files)
    }

    /// The fields of an object schema that are files, and whether any other field is not a
    /// scalar or a list of scalars; `None` when the schema is not an object.
    fn form_shape(&self, schema: &Value) -> Option<(Vec<(String, FormField)>, bool)> {
        let properties = schema_properties(self.doc, schema)?;
        let mut files = Vec::new();
        let mut nested = false;
        for (name, property) in properties.as_object()? {
            let property = refs::lookup_value(self.doc, property)?;
            let binary =
                |s: &Value| s.get("type") == Some(&json!("string")) && s.get("format") == Some(&json!("binary"));
            let scalar = |s: &Value| {
                let s = refs::lookup_value(self.doc, s).unwrap_or(s);
                matches!(s.get("type").and_then(Value::as_str), Some("string" | "integer" | "number" | "boolean"))
                    && s.get("format") != Some(&json!("binary"))
            };
            let items = property.get("items").and_then(|i| refs::lookup_value(self.doc, i));
            if binary(property) {
                files.push((name.clone(), FormField::File));
            } else if property.get("type") == Some(&json!("array")) && items.is_some_and(binary) {
                files.push((name.clone(), FormField::Files));
            } else if !(scalar(property) || property.get("type") == Some(&json!("array")) && items.is_some_and(scalar))
            {
                nested = true;
            }
        }
        // A required name no property declares is a field of any value (`undeclared-required`),
        // which a form of scalars cannot hold.
        let resolved = refs::lookup_value(self.doc, schema).unwrap_or(schema);
        let required = resolved.get("required").and_then(Value::as_array).into_iter().flatten();
        if required.filter_map(Value::as_str).any(|name| properties.get(name).is_none()) {
            nested = true;
        }
        Some((files, nested))
    }

    fn response_body(&mut self, response: &Value, _pointer: &str) -> Option<Option<Value>> {
        let content = response.get("content").and_then(Value::as_object)?;
        if content.is_empty() {
            return None;
        }
        Some(json_media(content).map(|(_, schema)| schema.clone()))
    }

    /// The scheme an operation declaring an `Authorization` header parameter needs: the
    /// document's first bearer scheme, else a bearer scheme `authorization` declared here.
    fn authorization_scheme(&mut self) -> String {
        let bearer = |node: &Map<String, Value>| node.get("type") == Some(&json!("bearer"));
        if let Some((name, _)) = self.auth.schemes.values().find(|(_, node)| bearer(node)) {
            return name.clone();
        }
        let taken: BTreeSet<String> = self.auth.schemes.values().map(|(name, _)| name.clone()).collect();
        let name = (1..).map(|i| if i == 1 { "authorization".to_owned() } else { format!("authorization{i}") });
        let name = name.into_iter().find(|n| !taken.contains(n)).unwrap_or_default();
        let mut node = Map::new();
        node.insert("type".into(), json!("bearer"));
        node.insert("description".into(), json!("The `Authorization` header the document declares as a parameter."));
        // Keyed apart from the document's schemes: no security requirement names it.
        self.auth.schemes.insert(format!("\u{0}{name}"), (name.clone(), node));
        name
    }

    /// The auth of an operation, when it differs from the default the spec gets: a scheme's
    /// name, a list of alternatives, or `none`. An alternative needing several schemes at
    /// once keeps its first, and one allowing no credential is dropped (gap `optional-auth`).
    fn operation_auth(&mut self, op: &Map<String, Value>, pointer: &str, op_gaps: &mut Vec<String>) -> Option<Value> {
        let doc = self.doc;
        let requirement = op.get("security").or_else(|| doc.get("security"));
        let alternatives: Vec<Vec<String>> = requirement
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .map(|alt| alt.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default())
                    .collect()
            })
            .unwrap_or_default();
        let default_scheme = self.auth.schemes.values().next().map(|(n, _)| n.clone());
        // Without `api.auth` the format's default is a bearer scheme: a public operation says so.
        if alternatives.is_empty() {
            return Some(json!("none"));
        }
        // Each requirement object is an alternative; its schemes are carried together.
        let mut kept: Vec<Vec<String>> = Vec::new();
        let mut partial = false;
        let spec_name = |auth: &Auth, key: &str| {
            auth.schemes.get(key).map(|(name, _)| name.clone()).or_else(|| auth.aliases.get(key).cloned())
        };
        for alternative in &alternatives {
            let mut known: Vec<String> = Vec::new();
            for name in alternative.iter().filter_map(|s| spec_name(&self.auth, s)) {
                if !known.contains(&name) {
                    known.push(name);
                }
            }
            partial |= alternative.is_empty();
            for unknown in alternative.iter().filter(|s| spec_name(&self.auth, s).is_none()) {
                let kind = self.auth.other.get(unknown).copied().unwrap_or(gaps::OPTIONAL_AUTH);
                op_gaps.push(self.gaps.note(kind, pointer));
            }
            if !known.is_empty() && !kept.contains(&known) {
                kept.push(known);
            }
        }
        if partial {
            op_gaps.push(self.gaps.note(gaps::OPTIONAL_AUTH, pointer));
        }
        match kept.as_slice() {
            [] => Some(json!("none")),
            [one] if one.len() == 1 && Some(&one[0]) == default_scheme.as_ref() => None,
            [one] if one.len() == 1 => Some(json!(one[0])),
            _ => Some(Value::Array(
                kept.into_iter().map(|set| if set.len() == 1 { json!(set[0]) } else { json!(set) }).collect(),
            )),
        }
    }
}

/// An HTTP token (RFC 9110 `tchar`s): what a header or cookie name may hold.
fn is_token(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
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

/// True when an operation's responses list a status the router's refusal of an invalid
/// request may answer: 400, `4XX` or `default`.
fn lists_refusal(op: &Map<String, Value>) -> bool {
    let responses = op.get("responses").and_then(Value::as_object);
    responses.is_some_and(|r| r.keys().any(|k| matches!(k.to_ascii_uppercase().as_str(), "400" | "4XX" | "DEFAULT")))
}

/// The JSON media type a response is answered in when it is not `application/json`
/// (`application/vnd.amadeus+json`, `application/problem+json`, `text/json`): kept, so the
/// client asks for it and the server answers in it.
fn json_media_named(response: &Value) -> Option<String> {
    let content = response.get("content").and_then(Value::as_object)?;
    let (media, _) = json_media(content)?;
    let essence = media.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    let json = essence == "text/json" || (essence.starts_with("application/") && essence.ends_with("+json"));
    json.then_some(essence)
}

/// True when a JSON response also offers media types that are not JSON (`application/xml`,
/// `text/plain`, `application/zip`), or is JSON only by a media range (`*/*`).
fn offers_other_media(response: &Value) -> bool {
    let Some(content) = response.get("content").and_then(Value::as_object) else { return false };
    content.keys().any(|media| !is_json_media(media))
}

/// True for `application/json`, `text/json` and the `+json` and `/json` media types.
fn is_json_media(media: &str) -> bool {
    let essence = media.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence == "application/json" || essence.ends_with("+json") || essence == "text/json" || essence.ends_with("/json")
}

/// True when a parameter (followed through its reference) says `required: true`.
fn is_required(doc: &Value, param: &Value) -> bool {
    refs::follow(doc, param, "#").is_ok_and(|(param, _)| param.get("required") == Some(&Value::Bool(true)))
}

/// Headers the generated code sets itself (OpenAPI ignores parameters naming them).
fn is_reserved_header(name: &str) -> bool {
    ["authorization", "content-type", "accept", "content-length", "cookie", "host", "transfer-encoding"]
        .contains(&name.to_ascii_lowercase().as_str())
}

/// A success response that is not JSON as the format answers it: text (`string`) when every
/// media type is text, else raw `bytes` (XML among them), with the media types listed
/// (distinct, concrete).
fn raw_response(response: &Value) -> Option<(&'static str, Vec<String>)> {
    let content = response.get("content")?.as_object()?;
    let mut media_types: Vec<String> = Vec::new();
    for media in content.keys() {
        let essence = media.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
        let (kind, _) = essence.split_once('/')?;
        // XML is passed as it is (the format has no XML type; gap `xml-responses`).
        if kind.is_empty() || essence.contains('*') || essence.ends_with("json") {
            return None;
        }
        if !media_types.contains(&essence) {
            media_types.push(essence);
        }
    }
    let text = media_types.iter().all(|m| m.starts_with("text/"));
    (!media_types.is_empty()).then_some((if text { "string" } else { "bytes" }, media_types))
}

/// Whether a form's `encoding` sends a list property in brackets (`style: deepObject`, as
/// Stripe's document says of `expand`): then the body's every list has indexes.
fn brackets_lists(doc: &Value, entry: &Value, schema: &Value) -> bool {
    let Some(properties) = schema_properties(doc, schema).and_then(|p| p.as_object().cloned()) else { return false };
    let Some(encoding) = entry.get("encoding").and_then(Value::as_object) else { return false };
    encoding.iter().any(|(name, how)| {
        let list = properties
            .get(name)
            .and_then(|p| refs::lookup_value(doc, p))
            .is_some_and(|p| p.get("type") == Some(&json!("array")));
        list && how.get("style") == Some(&json!("deepObject"))
    })
}

/// Whether a urlencoded form's object property travels as OpenAPI's default writes it:
/// `style: form`, exploded, its fields as keys of their own (`amount=1&currency=EUR`). The
/// format reads nested objects in brackets (`instructed_amount[amount]=1`), as an `encoding`
/// of `style: deepObject` says (Stripe's).
fn objects_exploded(doc: &Value, entry: &Value, schema: &Value) -> bool {
    let Some(properties) = schema_properties(doc, schema).and_then(|p| p.as_object().cloned()) else { return false };
    let encoding = entry.get("encoding").and_then(Value::as_object);
    properties.iter().any(|(name, property)| {
        let object = refs::lookup_value(doc, property)
            .is_some_and(|p| p.get("type") == Some(&json!("object")) || p.get("properties").is_some());
        let deep = encoding.and_then(|e| e.get(name)).and_then(|how| how.get("style")) == Some(&json!("deepObject"));
        object && !deep
    })
}

/// A field of a form body that is a file, or a list of files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FormField {
    File,
    Files,
}

/// The properties of an object schema (its reference followed).
fn schema_properties(doc: &Value, schema: &Value) -> Option<Value> {
    let schema = refs::lookup_value(doc, schema)?;
    if schema.get("allOf").is_some() || schema.get("oneOf").is_some() || schema.get("anyOf").is_some() {
        return None;
    }
    schema.get("properties").cloned().filter(Value::is_object)
}

/// The required list of an object schema (its reference followed).
fn schema_required(doc: &Value, schema: &Value) -> Value {
    refs::lookup_value(doc, schema).and_then(|s| s.get("required").cloned()).unwrap_or(json!([]))
}

/// A server as `api.servers` holds it: its URL, description and variables (each with a
/// default); `None` for `/` (the document's own location) or a URL without a scheme.
fn server_node(server: &Value) -> Option<Map<String, Value>> {
    let url = server.get("url")?.as_str()?.trim();
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return None;
    }
    let mut node = Map::new();
    node.insert("url".into(), json!(url));
    if let Some(description) =
        server.get("description").and_then(Value::as_str).map(str::trim).filter(|d| !d.is_empty())
    {
        node.insert("description".into(), json!(description));
    }
    let mut variables = Map::new();
    for (name, variable) in server.get("variables").and_then(Value::as_object).into_iter().flatten() {
        let default = variable.get("default").and_then(Value::as_str)?;
        let mut out = Map::new();
        out.insert("default".into(), json!(default));
        if let Some(description) = variable.get("description").and_then(Value::as_str).map(str::trim) {
            out.insert("description".into(), json!(description));
        }
        variables.insert(name.clone(), Value::Object(out));
    }
    if !variables.is_empty() {
        node.insert("variables".into(), Value::Object(variables));
    }
    Some(node)
}

/// The status of a response key: `201` is 201, `4XX` is 400; `default` and others are `None`.
pub(super) fn status_of(code: &str) -> Option<u16> {
    if let Ok(status) = code.parse::<u16>() {
        return (100..=599).contains(&status).then_some(status);
    }
    let bytes = code.as_bytes();
    if bytes.len() == 3 && bytes[0].is_ascii_digit() && code[1..].eq_ignore_ascii_case("xx") {
        return Some(u16::from(bytes[0] - b'0') * 100);
    }
    None
}

/// The JSON media type of a content map and its schema (`{}` when it gives none).
pub(super) fn json_media(content: &Map<String, Value>) -> Option<(&str, &Value)> {
    static ANY: Value = Value::Bool(true);
    let found = content
        .iter()
        .find(|(media, _)| is_json_media(media))
        .or_else(|| content.iter().find(|(m, _)| m.as_str() == "*/*"))?;
    Some((found.0.as_str(), found.1.get("schema").unwrap_or(&ANY)))
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

fn map(pairs: Vec<(&str, Value)>) -> Map<String, Value> {
    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
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

/// True when `sample` may stand as the sample of a list or map body or answer `typed`: it
/// is one, and it fits the type (a document's example may not: xero's list sample is a
/// string holding JSON).
fn list_or_map_sample(importer: &Importer<'_>, typed: &super::typed::Typed, sample: &Value) -> bool {
    matches!(typed.expr, Expr::List(_) | Expr::Map(_)) && importer.fits(sample, typed)
}

/// The example a media type gives: its `example`, else the value of its first `examples` entry
/// (a reference followed; an `externalValue` is not fetched).
fn media_example(doc: &Value, entry: &Value) -> Option<Value> {
    if let Some(example) = entry.get("example") {
        return Some(example.clone());
    }
    let (_, first) = entry.get("examples")?.as_object()?.iter().next()?;
    refs::lookup_value(doc, first)?.get("value").cloned()
}

/// A parameter's enumeration of booleans (discourse's `enum: [true]`) as the enumeration of
/// their texts (`"true"`), which a parameter carries exactly (the format's enumerations hold
/// strings or integers, and a boolean typed alone would accept `false`); any other schema as
/// it is.
fn boolean_enum_as_text(doc: &Value, schema: Value, pointer: &str) -> Value {
    let Ok((resolved, _)) = refs::follow(doc, &schema, pointer) else { return schema };
    let values = resolved.get("enum").and_then(Value::as_array);
    let booleans = values.filter(|v| !v.is_empty() && v.iter().all(Value::is_boolean));
    match (resolved.get("type").and_then(Value::as_str), booleans) {
        (Some("boolean") | None, Some(values)) => {
            let texts: Vec<Value> = values.iter().map(|v| json!(v.to_string())).collect();
            let mut text = json!({"type": "string", "enum": texts});
            if let Some(description) = resolved.get("description") {
                text["description"] = description.clone();
            }
            text
        }
        _ => schema,
    }
}

/// Whether `schema` (a reference followed) is one scalar a parameter carries as text: a string
/// (not binary), a number, a boolean or an enumeration.
fn scalar_schema(doc: &Value, schema: &Value, pointer: &str) -> bool {
    let Ok((schema, _)) = refs::follow(doc, schema, pointer) else { return false };
    schema.get("enum").is_some()
        || matches!(schema.get("type").and_then(Value::as_str), Some("string" | "integer" | "number" | "boolean"))
            && schema.get("format").and_then(Value::as_str) != Some("binary")
}

/// Whether `schema` (a reference followed) is a list of scalars ([`scalar_schema`]).
fn list_of_scalars(doc: &Value, schema: &Value, pointer: &str) -> bool {
    let Ok((schema, _)) = refs::follow(doc, schema, pointer) else { return false };
    schema.get("type").and_then(Value::as_str) == Some("array")
        && schema.get("items").is_some_and(|items| scalar_schema(doc, items, pointer))
}

/// Whether `schema` holds a binary string (`format: binary`) within a few levels: such an
/// object cannot travel in a query.
fn holds_binary(doc: &Value, schema: &Value, depth: usize) -> bool {
    if depth > 8 {
        return false;
    }
    let Ok((schema, _)) = refs::follow(doc, schema, "") else { return false };
    if schema.get("format").and_then(Value::as_str) == Some("binary") {
        return true;
    }
    let children = schema.get("properties").and_then(Value::as_object).into_iter().flat_map(|p| p.values());
    let more = ["items", "additionalProperties"].into_iter().filter_map(|k| schema.get(k));
    let parts =
        ["allOf", "oneOf", "anyOf"].into_iter().filter_map(|k| schema.get(k)).filter_map(Value::as_array).flatten();
    children.chain(more).chain(parts).any(|child| holds_binary(doc, child, depth + 1))
}

/// The text of one item of a list-of-scalars schema (a path parameter `1,2,3` the format
/// cannot type), fitting the item's constraints; `None` for other schemas.
fn list_item_text(schema: &Value) -> Option<String> {
    use crate::model::{Constraints, TypeRef, sample};
    if schema.get("type")? != "array" {
        return None;
    }
    let items = schema.get("items")?;
    let number = |key: &str| items.get(key).and_then(Value::as_number).cloned();
    let constraints = Constraints { minimum: number("minimum"), maximum: number("maximum"), ..Constraints::default() };
    let ty = match items.get("type")?.as_str()? {
        "integer" => TypeRef::Integer,
        "number" => TypeRef::Number,
        "boolean" => TypeRef::Boolean,
        _ => return None,
    };
    sample::of_scalar(&ty, &constraints, "item").map(|value| value.to_string())
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
