//! Lowering of operations: method, path, tag, parameters, body, responses, auth.

use super::*;

impl Lowerer<'_> {
    pub(super) fn lower_operations(&mut self, tags: &[Tag], pagination: &Pagination) -> Vec<Operation> {
        let tags: BTreeSet<&str> = tags.iter().map(|t| t.name.as_str()).collect();
        let tags = &tags;
        let mut operations = Vec::new();
        let mut seen: BTreeMap<String, Location> = BTreeMap::new();
        let mut scope = Scope::new();
        let spec = self.spec;
        for entry in &spec.operations {
            let at = self.at(&entry.origin);
            if let Some(first) = seen.get(&entry.name) {
                self.diags
                    .error(at, format!("operation `{}` is declared twice; first at {first}", entry.name))
                    .hint("operation names are shared by every file; rename one");
                continue;
            }
            seen.insert(entry.name.clone(), at.clone());
            let rust_type = sanitize(&entry.name, Case::Pascal);
            if !scope.claim(&rust_type, &format!("operation `{}`", entry.name), &at, self.diags) {
                continue;
            }
            if let Some(op) = self.lower_operation(entry, rust_type, tags, pagination) {
                operations.push(op);
            }
        }
        operations
    }

    pub(super) fn lower_operation(
        &mut self,
        entry: &Entry<RawOperation>,
        rust_type: String,
        tags: &BTreeSet<&str>,
        pagination: &Pagination,
    ) -> Option<Operation> {
        let raw = &entry.value;
        let origin = &entry.origin;
        let name = &entry.name;
        let element = format!("operation `{name}`");
        self.use_gaps(&raw.gaps, &element, origin);
        self.use_gaps(&raw.response.gaps, &element, &origin.key("response"));

        let method = self.lower_method(&raw.method, origin);
        let path = match PathTemplate::parse(&raw.path) {
            Ok(path) => Some(path),
            Err(message) => {
                let at = self.at(&origin.key("path"));
                self.diags.error(at, message);
                None
            }
        };
        let tag = self.lower_operation_tag(raw, tags, &element, origin);
        let head = method == Some(Method::Head);
        let response = self.lower_response(name, &rust_type, &raw.response, head, &origin.key("response"));
        let names = OperationNames::of(&rust_type);
        if let Some(response) = &response {
            self.claim_answer_names(name, response, &names, origin);
        }
        let paged = matches!(response.as_ref().map(|r| &r.body), Some(ResponseBody::Page { .. }));
        let pagination = self.operation_pagination(raw, paged, pagination, origin);
        let params =
            self.lower_operation_params(name, &rust_type, raw, path.as_ref(), response.as_ref(), &pagination, origin);
        let body =
            raw.body.as_ref().and_then(|body| self.lower_body(name, &rust_type, body, method, &origin.key("body")));
        if let (Some(params), Some(_)) = (&params, &body) {
            self.check_content_type_param(name, params, origin);
        }
        if body.as_ref().is_some_and(|b| !b.alternatives.is_empty()) {
            let at = self.at(&origin.key("body").key("alternatives"));
            let what = format!("the content enumeration of operation `{name}`");
            self.type_scope.claim(&names.content, &what, &at, self.diags);
        }
        let errors = self.lower_errors(name, &raw.errors, origin);
        let auth = super::auth::resolve(
            raw.auth.as_ref(),
            &self.auth_schemes,
            || self.spec.locate(&origin.key("auth")),
            self.diags,
        );
        let select = self.lower_select(raw.select.as_ref(), &params, origin);
        let (method, path, tag, response, params, auth, select) =
            (method?, path?, tag?, response?, params?, auth?, select?);
        let mut gaps = raw.gaps.clone();
        gaps.extend(raw.response.gaps.iter().cloned());
        Some(Operation {
            name: name.clone(),
            rust: super::names::method_name(name),
            rust_type,
            names,
            // Settled once every operation and type is known.
            client: ClientShape::default(),
            server: ServerShape::default(),
            tag,
            method,
            path,
            select,
            summary: raw.summary.clone(),
            description: raw.description.clone(),
            source: raw.source.clone(),
            params,
            body,
            response,
            pagination: paged.then_some(pagination),
            errors,
            deprecated: raw
                .deprecated
                .as_ref()
                .map(|d| Deprecated { replacement: d.replacement.clone(), note: d.note.clone() }),
            auth,
            gaps,
            origin: self.at(origin),
        })
    }

    /// The operation's method, one apigen supports.
    fn lower_method(&mut self, method: &str, origin: &Origin) -> Option<Method> {
        match method {
            "GET" => Some(Method::Get),
            "POST" => Some(Method::Post),
            "PUT" => Some(Method::Put),
            "PATCH" => Some(Method::Patch),
            "DELETE" => Some(Method::Delete),
            "HEAD" => Some(Method::Head),
            "OPTIONS" => Some(Method::Options),
            other => {
                let at = self.at(&origin.key("method"));
                self.diags
                    .error(at, format!("`{other}` is not a method apigen supports"))
                    .hint("use GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS, in capitals");
                None
            }
        }
    }

    /// The operation's tag: its own `tag`, else its file's; one of `tags`.
    fn lower_operation_tag(
        &mut self,
        raw: &RawOperation,
        tags: &BTreeSet<&str>,
        element: &str,
        origin: &Origin,
    ) -> Option<String> {
        let file_tag = self.spec.files[origin.file].tag.clone();
        match raw.tag.clone().or(file_tag) {
            Some(tag) if tags.contains(tag.as_str()) => Some(tag),
            Some(tag) if self.spec.was_dropped("tags", &tag) => None,
            Some(tag) => {
                let at = self.at(&origin.key("tag"));
                let known: Vec<&str> = tags.iter().copied().collect();
                self.diags.error(at, format!("{element} names the tag `{tag}`, which is not declared")).hint(
                    suggest(&tag, known.iter().copied())
                        .unwrap_or_else(|| "declare it under `tags:` in api.yaml".into()),
                );
                None
            }
            None => {
                let at = self.at(origin);
                self.diags
                    .error(at, format!("{element} has no tag"))
                    .hint("set `tag:` on the operation or at the top of its file");
                None
            }
        }
    }

    /// Claims the names the types crate holds for an operation's answer: its answer
    /// enumeration and its response headers struct, when it has them.
    fn claim_answer_names(&mut self, name: &str, response: &Response, names: &OperationNames, origin: &Origin) {
        let at = self.at(&origin.key("response"));
        let generated = [
            (response.is_varied(), &names.answer, "answer enumeration"),
            (!response.headers.is_empty(), &names.headers, "response headers"),
        ];
        for (_, rust, what) in generated.iter().filter(|(needed, _, _)| *needed) {
            self.type_scope.claim(rust, &format!("the {what} of operation `{name}`"), &at, self.diags);
        }
    }

    /// The list convention a page follows: the API's, unless the operation declares its own
    /// (only a paginated response may).
    fn operation_pagination(
        &mut self,
        raw: &RawOperation,
        paged: bool,
        pagination: &Pagination,
        origin: &Origin,
    ) -> Pagination {
        let own = raw.response.pagination.as_deref();
        if let (Some(_), false) = (own, paged) {
            let at = self.at(&origin.key("response").key("pagination"));
            self.diags.error(at, "`pagination` belongs to a paginated response (`items`)");
        }
        match own {
            Some(own) => self.lower_pagination_convention(own, &origin.key("response").key("pagination")),
            None => pagination.clone(),
        }
    }

    /// `select`: header selectors name HTTP tokens the generated code does not set itself, and
    /// no selector repeats a parameter of its location; values are visible ASCII (a header
    /// value and a query value alike travel as written).
    fn lower_select(
        &mut self,
        raw: Option<&RawSelect>,
        params: &Option<Vec<Param>>,
        origin: &Origin,
    ) -> Option<Vec<Selector>> {
        let Some(raw) = raw else { return Some(Vec::new()) };
        let mut ok = true;
        let mut select = Vec::new();
        let lists = [(SelectIn::Header, &raw.header, ParamIn::Header), (SelectIn::Query, &raw.query, ParamIn::Query)];
        for (location, entries, param_in) in lists {
            for (name, value) in entries {
                let at = self.at(&origin.key("select").key(location.as_str()).key(name));
                let selector = Selector { location, name: name.clone(), value: value.clone() };
                let problem = if location == SelectIn::Header && !params::is_token(name) {
                    Some(format!("the selector header `{name}` is not an HTTP token"))
                } else if location == SelectIn::Header && params::is_reserved_header(name) {
                    Some(format!("the selector header `{name}` is a header the generated code sets itself"))
                } else if name.is_empty() {
                    Some("a selector needs a name".to_owned())
                } else if value.is_empty() || !value.bytes().all(|b| b.is_ascii_graphic()) {
                    Some(format!("the value of selector `{name}` is empty or holds other than visible ASCII"))
                } else if params.iter().flatten().any(|p| {
                    p.location == param_in
                        && (p.wire == *name || (location == SelectIn::Header && p.wire.eq_ignore_ascii_case(name)))
                }) {
                    Some(format!("the selector `{name}` is also a {} parameter", location.as_str()))
                } else {
                    None
                };
                match problem {
                    Some(message) => {
                        self.diags.error(at, message).hint(
                            "a selector is a constant header or query value, other than the operation's parameters",
                        );
                        ok = false;
                    }
                    None => select.push(selector),
                }
            }
        }
        ok.then_some(select)
    }

    /// A `Content-Type` header parameter is an operation's only when it has no body: with one,
    /// the body's media type is the header.
    fn check_content_type_param(&mut self, op: &str, params: &[Param], origin: &Origin) {
        let declared =
            params.iter().any(|p| p.location == ParamIn::Header && p.wire.eq_ignore_ascii_case("content-type"));
        if declared {
            let at = self.at(&origin.key("params"));
            self.diags
                .error(at, format!("operation `{op}` declares a `Content-Type` header parameter beside its body"))
                .hint("the body's `media_type` sets `Content-Type`; remove the parameter");
        }
    }

    /// The operation's parameters: those it declares (shared or inline) and those its
    /// pagination adds, each name once per location, path parameters in path order (each in
    /// the path), then query, header and cookie parameters in declared order.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn lower_operation_params(
        &mut self,
        op: &str,
        op_type: &str,
        raw: &RawOperation,
        path: Option<&PathTemplate>,
        response: Option<&Response>,
        pagination: &Pagination,
        origin: &Origin,
    ) -> Option<Vec<Param>> {
        let paged = matches!(response.map(|r| &r.body), Some(ResponseBody::Page { .. }));
        let (mut declared, mut ok) = self.declared_params(op, op_type, raw, paged, pagination, origin);
        if paged {
            for name in &pagination.params {
                if let Some(param) = self.shared_params.get(name) {
                    declared.push((param.clone(), origin.key("response")));
                }
            }
        }
        ok &= self.check_declared_once(op, &declared);
        let path = path?;
        ok &= self.check_path_params(op, path, &declared, origin);
        // Path parameters in path order, then query parameters in declared order.
        let mut params: Vec<Param> = Vec::new();
        for name in path.params() {
            if let Some((param, _)) = declared.iter().find(|(p, _)| p.location == ParamIn::Path && p.wire == name)
                && !params.iter().any(|p| p.wire == param.wire)
            {
                params.push(param.clone());
            }
        }
        for location in [ParamIn::Query, ParamIn::Header, ParamIn::Cookie] {
            params.extend(declared.iter().filter(|(p, _)| p.location == location).map(|(p, _)| p.clone()));
        }
        ok.then_some(params)
    }

    /// The parameters the operation lists, each with its origin, and whether every one was
    /// found and lowered.
    fn declared_params(
        &mut self,
        op: &str,
        op_type: &str,
        raw: &RawOperation,
        paged: bool,
        pagination: &Pagination,
        origin: &Origin,
    ) -> (Vec<(Param, Origin)>, bool) {
        let mut declared: Vec<(Param, Origin)> = Vec::new();
        let mut ok = true;
        for (i, entry) in raw.params.iter().enumerate() {
            let param_origin = origin.key("params").index(i);
            let param = match entry {
                RawParam::Shared(name) => self.shared_param_of(name, paged, pagination, &param_origin),
                RawParam::Inline(field) => {
                    let Some(wire) = field.name.clone() else {
                        let at = self.at(&param_origin);
                        self.diags.error(at, "an inline parameter needs a `name`");
                        ok = false;
                        continue;
                    };
                    let derived = format!("{op_type}{}", sanitize(&wire, Case::Pascal));
                    self.lower_param(&wire, Some(op), field, &derived, &param_origin)
                }
            };
            match param {
                Some(param) => declared.push((param, param_origin)),
                None => ok = false,
            }
        }
        (declared, ok)
    }

    /// The shared parameter `name`, listed by an operation (not one its pagination adds).
    fn shared_param_of(
        &mut self,
        name: &str,
        paged: bool,
        pagination: &Pagination,
        param_origin: &Origin,
    ) -> Option<Param> {
        if pagination.params.iter().any(|p| p == name) && paged {
            let at = self.at(param_origin);
            self.diags
                .error(at, format!("`{name}` is added to every paginated operation by `pagination.params`"))
                .hint("remove it from this list");
            return None;
        }
        match self.shared_params.get(name) {
            Some(param) => Some(param.clone()),
            None if self.spec.was_dropped("parameters", name) => None,
            None => {
                let at = self.at(param_origin);
                let known = self.shared_params.keys().map(String::as_str);
                let hint = suggest(name, known)
                    .unwrap_or_else(|| "declare it under `parameters:` in api.yaml, or define it inline".into());
                self.diags.error(at, format!("`{name}` is not a shared parameter")).hint(hint);
                None
            }
        }
    }

    /// Each name once per location (headers without case), and each Rust name once. A query
    /// parameter may share a path parameter's name (OpenAPI tells parameters by name and
    /// place: SendGrid's PATCH `/contactdb/lists/{list_id}?list_id=`), with a Rust name of
    /// its own (`rust_name`).
    fn check_declared_once(&mut self, op: &str, declared: &[(Param, Origin)]) -> bool {
        let mut ok = true;
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        let mut scope = Scope::reserving(&["body"], "the request body");
        for (i, (param, param_origin)) in declared.iter().enumerate() {
            let at = self.at(param_origin);
            let key = match param.location {
                ParamIn::Header => format!("header {}", param.wire.to_ascii_lowercase()),
                location => format!("{} {}", location.as_str(), param.wire),
            };
            if let Some(first) = seen.get(&key) {
                let message = format!("parameter `{}` of `{op}` is declared twice (items {first} and {i})", param.wire);
                self.diags.error(at, message).hint("declare each parameter once");
                ok = false;
                continue;
            }
            seen.insert(key, i);
            ok &= scope.claim(&param.rust, &format!("parameter `{}`", param.wire), &at, self.diags);
        }
        ok
    }

    /// Each name in the path once, declared as a path parameter; each path parameter in the
    /// path.
    fn check_path_params(
        &mut self,
        op: &str,
        path: &PathTemplate,
        declared: &[(Param, Origin)],
        origin: &Origin,
    ) -> bool {
        let mut ok = true;
        let mut in_path: BTreeSet<&str> = BTreeSet::new();
        for name in path.params() {
            if !in_path.insert(name) {
                let at = self.at(&origin.key("path"));
                self.diags.error(at, format!("the path `{}` holds `{{{name}}}` twice", path.raw));
                ok = false;
            }
        }
        for name in &in_path {
            let declared_here = declared.iter().any(|(p, _)| p.location == ParamIn::Path && p.wire == *name);
            if !declared_here {
                let at = self.at(&origin.key("path"));
                self.diags.error(at, format!("path parameter `{name}` of `{op}` is not declared")).hint(format!(
                    "add `{name}` (shared) or `{{ name: {name}, in: path, description: ... }}` to `params`"
                ));
                ok = false;
            }
        }
        for (param, param_origin) in declared {
            if param.location == ParamIn::Path && !in_path.contains(param.wire.as_str()) {
                let at = self.at(param_origin);
                self.diags
                    .error(at, format!("path parameter `{}` is missing from the path `{}`", param.wire, path.raw))
                    .hint("add it to the path, or make it a query parameter");
                ok = false;
            }
        }
        ok
    }

    /// The failure cases: 4xx or 5xx codes or `default`, each with the type of its body when
    /// it is not the API's; one type per status.
    fn lower_errors(&mut self, op: &str, raw: &[RawError], origin: &Origin) -> Vec<ErrorCase> {
        let mut cases: Vec<ErrorCase> = Vec::new();
        for (i, error) in raw.iter().enumerate() {
            let at = origin.key("errors").index(i);
            let status = match error.status {
                RawStatus::Code(code) if (400..=599).contains(&code) => ErrorStatus::Code(code),
                RawStatus::Code(code) => {
                    let at = self.at(&at.key("status"));
                    self.diags.error(at, format!("failure status {code} is not a 4xx or 5xx code"));
                    continue;
                }
                RawStatus::Default => ErrorStatus::Default,
            };
            let ty = match &error.ty {
                Some(text) => match self.complete_ref(text, &self.at(&at.key("type"))) {
                    Some(ty) => Some(ty),
                    None => continue,
                },
                None => None,
            };
            let earlier = cases.iter().find(|c| c.status == status && c.ty.is_some() && ty.is_some() && c.ty != ty);
            if let Some(earlier) = earlier {
                let at = self.at(&at.key("type"));
                let first = earlier.ty.as_ref().map(ToString::to_string).unwrap_or_default();
                self.diags
                    .error(at, format!("failure status {status} of `{op}` has two body types, `{first}` and this one"))
                    .hint("one status answers one error type; describe both cases with the same type");
                continue;
            }
            cases.push(ErrorCase { status, when: error.when.clone(), ty });
        }
        cases
    }

    pub(super) fn lower_body(
        &mut self,
        op: &str,
        op_type: &str,
        raw: &RawField,
        method: Option<Method>,
        origin: &Origin,
    ) -> Option<Body> {
        self.reject_misplaced(raw, Role::Body, origin);
        if let Some(method @ (Method::Get | Method::Head)) = method {
            let at = self.at(origin);
            self.diags
                .error(at, format!("a {} operation cannot have a body", method.as_str()))
                .hint("move the values to query parameters");
            return None;
        }
        let constraints_set = raw.min_length.is_some()
            || raw.max_length.is_some()
            || raw.pattern.is_some()
            || raw.minimum.is_some()
            || raw.maximum.is_some()
            || raw.min_items.is_some()
            || raw.max_items.is_some()
            || raw.exact_items.is_some();
        if constraints_set {
            let at = self.at(origin);
            self.diags.error(at, "constraints belong to the fields of the body type, not to the body");
        }
        let ty = self.lower_value_type(raw, &format!("{op_type}Body"), &format!("the body of `{op}`"), origin)?;
        self.use_gaps(&raw.gaps, &format!("the body of `{op}`"), origin);
        let media_types = self.lower_media_types(raw.media_type.as_ref(), Some(&ty), false, origin);
        let brackets = self.lower_body_style(raw, &ty, &media_types, op, origin);
        // Only a body of any JSON, a list or a map takes one (checked by `reject_misplaced`).
        let sample = raw.sample.clone().filter(|_| raw.ty.as_deref().is_some_and(super::types::body_takes_sample));
        self.check_own_sample(sample.as_ref(), &ty, origin);
        let mut body = Body {
            brackets,
            optional: raw.optional,
            untyped: raw.untyped,
            nullable: raw.nullable,
            media_types,
            description: raw.description.clone(),
            sample,
            ty,
            alternatives: Vec::new(),
            variant: String::new(),
        };
        if let Some(alternatives) = raw.alternatives.as_ref().filter(|a| !a.is_empty()) {
            // The handler's value is the variant that came; `null` would be none of them.
            if raw.nullable {
                self.diags
                    .error(self.at(&origin.key("nullable")), "a body with `alternatives` may not be `nullable`")
                    .hint("`nullable: true` says the JSON body may be `null`, which no variant of the content enumeration holds: drop it");
            }
            self.lower_alternatives(op, op_type, &mut body, alternatives, &origin.key("alternatives"));
        }
        Some(body)
    }

    /// A body's `alternatives`: each another media type's body with a type of its own (an
    /// inline object named `<Operation><Variant>Body`), each variant named after its first
    /// media type; no media type is taken twice (the server could not tell which came).
    fn lower_alternatives(&mut self, op: &str, op_type: &str, body: &mut Body, raws: &[RawField], origin: &Origin) {
        let mut taken = BTreeSet::new();
        body.variant = crate::model::shape::variant_name(&mut taken, &body.media_types[0]);
        let mut seen: Vec<String> = body.media_types.iter().map(|m| essence_of(m).to_ascii_lowercase()).collect();
        for (index, raw) in raws.iter().enumerate() {
            let at = origin.index(index);
            self.reject_misplaced(raw, Role::Body, &at);
            let misplaced = [
                ("optional", raw.optional, "the whole body is optional or not: say it on the body"),
                ("untyped", raw.untyped, "`untyped` says how a JSON body reads; say it on the body"),
                ("alternatives", raw.alternatives.is_some(), "alternatives are listed once, on the body"),
            ];
            for (key, present, why) in misplaced {
                if present {
                    let at = self.at(&at.key(key));
                    self.diags.error(at, format!("`{key}` is not allowed on an alternative of a body")).hint(why);
                }
            }
            let Some(first) = raw.media_type.as_ref().and_then(|m| m.0.first()) else {
                let at = self.at(&at);
                self.diags
                    .error(at, format!("an alternative of the body of `{op}` names no media type"))
                    .hint("say which media type it travels in: `media_type: application/xml`");
                continue;
            };
            let variant = crate::model::shape::variant_name(&mut taken, first);
            let element = format!("the `{first}` alternative of the body of `{op}`");
            let Some(ty) = self.lower_value_type(raw, &format!("{op_type}{variant}Body"), &element, &at) else {
                continue;
            };
            self.use_gaps(&raw.gaps, &element, &at);
            let media_types = self.lower_media_types(raw.media_type.as_ref(), Some(&ty), false, &at);
            for media in &media_types {
                let essence = essence_of(media).to_ascii_lowercase();
                if seen.contains(&essence) {
                    let at = self.at(&at.key("media_type"));
                    self.diags
                        .error(at, format!("the body of `{op}` takes `{media}` twice"))
                        .hint("the server tells the alternatives apart by `Content-Type`: list each media type once");
                }
                seen.push(essence);
            }
            let brackets = self.lower_body_style(raw, &ty, &media_types, op, &at);
            let sample = raw.sample.clone().filter(|_| raw.ty.as_deref().is_some_and(super::types::body_takes_sample));
            self.check_own_sample(sample.as_ref(), &ty, &at);
            body.alternatives.push(Body {
                brackets,
                optional: body.optional,
                untyped: false,
                media_types,
                description: raw.description.clone(),
                sample,
                ty,
                alternatives: Vec::new(),
                variant,
                nullable: false,
            });
        }
    }

    /// Checks, once every type is known, the `sample` a body or response of `ty` gives itself.
    fn check_own_sample(&mut self, sample: Option<&serde_json::Value>, ty: &TypeRef, origin: &Origin) {
        if let Some(value) = sample {
            let at = self.at(&origin.key("sample"));
            let check = super::ValueCheck {
                value: value.clone(),
                ty: ty.clone(),
                constraints: Constraints::default(),
                what: "sample",
                at,
            };
            self.value_checks.push(check);
        }
    }

    /// A form body's `style`: `deepObject` sends every list of the form in brackets with
    /// indexes (`expand[0]=a`, as Stripe's `encoding` says of each property), `form` (the
    /// default) a top-level list of scalars as repeated keys.
    fn lower_body_style(
        &mut self,
        raw: &RawField,
        ty: &TypeRef,
        media_types: &[String],
        op: &str,
        origin: &Origin,
    ) -> bool {
        let Some(style) = raw.style.as_deref() else { return false };
        let form = media_types.iter().any(|m| matches!(body_encoding(ty, m), Encoding::Form | Encoding::Multipart));
        let at = self.at(&origin.key("style"));
        match style {
            "form" | "deepObject" if !form => {
                self.diags
                    .error(at, format!("the body of `{op}` has a `style`, which only a form body has"))
                    .hint("give it a form media type, or drop `style`");
                false
            }
            "form" => false,
            "deepObject" => true,
            other => {
                self.diags
                    .error(at, format!("the body of `{op}` cannot travel as `{other}`"))
                    .hint("a form body's style is `form` (the default) or `deepObject` (every list in brackets)");
                false
            }
        }
    }

    pub(super) fn lower_response(
        &mut self,
        op: &str,
        op_type: &str,
        raw: &RawResponse,
        head: bool,
        origin: &Origin,
    ) -> Option<Response> {
        let at = self.at(origin);
        if head && (raw.ty.is_some() || raw.fields.is_some() || raw.items.is_some()) {
            self.diags
                .error(at, "a HEAD operation answers no body")
                .hint("HEAD answers the status and headers of a GET: remove the body");
            return None;
        }
        let body = self.lower_response_body(op, &format!("{op_type}Response"), raw, head, origin)?;
        let (also, others) = self.lower_also(op, op_type, raw, &body, origin);
        if !others.is_empty() && matches!(body, ResponseBody::Page { .. }) {
            self.diags
                .error(at, "a paginated response answers one body")
                .hint("statuses with bodies of their own go with a response that is not a page");
            return None;
        }
        let headers = self.lower_response_headers(op, raw, origin);
        let body_ty = match &body {
            ResponseBody::Value(ty) => Some(ty.clone()),
            ResponseBody::Page { .. } => Some(TypeRef::Json),
            ResponseBody::Empty => None,
        };
        // A HEAD answer has no body, but says the media type its GET would send.
        let described = body_ty.clone().or_else(|| (head && raw.media_type.is_some()).then_some(TypeRef::Bytes));
        let media_types = self.lower_media_types(raw.media_type.as_ref(), described.as_ref(), true, origin);
        let json_value = matches!(&body, ResponseBody::Value(ty) if ty != &TypeRef::Bytes)
            && media_types
                .iter()
                .all(|m| crate::model::body_encoding(body_ty.as_ref().unwrap_or(&TypeRef::Json), m) == Encoding::Json);
        if raw.nullable && (!json_value || !others.is_empty()) {
            self.diags
                .error(self.at(&origin.key("nullable")), "only a JSON body of one kind may be `nullable`")
                .hint("`nullable: true` says the JSON body may be `null`: drop it from a page, text, bytes or a response with statuses of their own");
        }
        // Any JSON, a list or a map has no fields to hold a sample: the response takes one.
        let unnamed = matches!(body, ResponseBody::Value(TypeRef::Json | TypeRef::List(_) | TypeRef::Map(_)));
        if raw.sample.is_some() && !unnamed {
            self.diags
                .error(self.at(&origin.key("sample")), "`sample` is not allowed on this response")
                .hint("a response of type `json`, a list or a map takes a `sample`; others are sampled from their type's fields");
        }
        if let ResponseBody::Value(ty) = &body {
            self.check_own_sample(raw.sample.as_ref().filter(|_| unnamed), ty, origin);
        }
        Some(Response {
            sample: raw.sample.clone().filter(|_| unnamed),
            status: raw.status,
            also,
            description: raw.description.clone(),
            body,
            media_types,
            nullable: raw.nullable && json_value && others.is_empty(),
            others,
            headers,
            min_items: self.page_min_items(raw, origin),
        })
    }

    /// The body of one success status: its status checked (2xx, 204 without body, a body
    /// otherwise unless `empty`), an inline object named `inline_name`.
    fn lower_response_body(
        &mut self,
        op: &str,
        inline_name: &str,
        raw: &RawResponse,
        head: bool,
        origin: &Origin,
    ) -> Option<ResponseBody> {
        let at = self.at(origin);
        if !(200..=299).contains(&raw.status) {
            let at = self.at(&origin.key("status"));
            self.diags
                .error(at, format!("success status {} is not a 2xx code", raw.status))
                .hint("failures go under `errors:`");
            return None;
        }
        let shapes = [raw.ty.is_some(), raw.fields.is_some(), raw.items.is_some(), raw.empty];
        if shapes.iter().filter(|s| **s).count() > 1 {
            self.diags
                .error(at, "a response has one of `type`, `fields`, `items` and `empty`")
                .hint("keep the one that describes the body");
            return None;
        }
        if raw.envelope.is_some() && raw.items.is_none() {
            let at = self.at(&origin.key("envelope"));
            self.diags.error(at, "`envelope` needs `items`").hint("an envelope wraps a page of `items`");
        }
        if raw.type_name.is_some() && raw.fields.is_none() {
            let at = self.at(&origin.key("type_name"));
            self.diags.error(at, "`type_name` names inline `fields`, and there are none");
        }
        let body = if let Some(item) = &raw.items {
            let item = self.complete_ref(item, &self.at(&origin.key("items")))?;
            let envelope = match &raw.envelope {
                Some(name) => match self.complete_ref(name, &self.at(&origin.key("envelope")))? {
                    TypeRef::Named(name) => Some(name),
                    other => {
                        let at = self.at(&origin.key("envelope"));
                        self.diags.error(at, format!("an envelope is a named object type, not `{other}`"));
                        return None;
                    }
                },
                None => None,
            };
            ResponseBody::Page { item, envelope }
        } else if let Some(text) = &raw.ty {
            ResponseBody::Value(self.complete_ref(text, &self.at(&origin.key("type")))?)
        } else if let Some(fields) = &raw.fields {
            let name = raw.type_name.clone().unwrap_or_else(|| inline_name.to_owned());
            let object = self.lower_object(&name, Some(fields), None, origin);
            self.add_inline_type(
                &name,
                TypeKind::Object(object),
                raw.description.clone(),
                &format!("the response of `{op}`"),
                origin,
            )?;
            ResponseBody::Value(TypeRef::Named(name))
        } else {
            ResponseBody::Empty
        };
        match (&body, raw.status) {
            (ResponseBody::Empty, status) if status != 204 && !raw.empty && !head => {
                self.diags
                    .error(at, format!("status {status} needs a body (`type`, `fields` or `items`)"))
                    .hint("a response without body answers 204, or says `empty: true`");
                return None;
            }
            (ResponseBody::Value(_) | ResponseBody::Page { .. }, 204) => {
                self.diags.error(at, "status 204 has no body").hint("remove the body, or answer 200");
                return None;
            }
            _ => {}
        }
        Some(body)
    }

    /// The other success statuses a handler may choose: 2xx, each once. A status alone
    /// answers the default's body (so 204 goes only with a bodiless default); a response of
    /// its own declares its body, and makes the operation's answer an enumeration.
    fn lower_also(
        &mut self,
        op: &str,
        op_type: &str,
        raw: &RawResponse,
        body: &ResponseBody,
        origin: &Origin,
    ) -> (Vec<u16>, Vec<Alternative>) {
        let mut also = Vec::new();
        let mut others = Vec::new();
        let mut seen = vec![raw.status];
        for (i, entry) in raw.also.iter().enumerate() {
            let entry_origin = origin.key("also").index(i);
            let at = self.at(&entry_origin);
            let status = match entry {
                RawAlso::Status(status) => *status,
                RawAlso::Response(response) => response.status,
            };
            if !(200..=299).contains(&status) {
                self.diags
                    .error(at, format!("success status {status} is not a 2xx code"))
                    .hint("failures go under `errors:`");
                continue;
            }
            if seen.contains(&status) {
                self.diags.error(at, format!("status {status} is declared twice")).hint("list each status once");
                continue;
            }
            seen.push(status);
            match entry {
                RawAlso::Status(204) if !matches!(body, ResponseBody::Empty) => {
                    self.diags.error(at, "status 204 has no body, and this response has one").hint(
                        "a status alone answers the same body as `status`; write `{ status: 204 }` for one without",
                    );
                }
                RawAlso::Status(status) => also.push(*status),
                RawAlso::Response(response) => {
                    let nested = [
                        (!response.also.is_empty(), "also"),
                        (!response.headers.is_empty(), "headers"),
                        (response.items.is_some(), "items"),
                    ];
                    if let Some((_, key)) = nested.iter().find(|(set, _)| *set) {
                        let at = self.at(&entry_origin.key(*key));
                        self.diags
                            .error(at, format!("`{key}` belongs to the operation's response, not to one of `also`"))
                            .hint("headers are shared by every status; pages and further statuses go on `response`");
                        continue;
                    }
                    let inline = format!("{op_type}{}Response", status_name(status));
                    if let Some(body) = self.lower_response_body(op, &inline, response, false, &entry_origin) {
                        let ty = match &body {
                            ResponseBody::Value(ty) => Some(ty.clone()),
                            _ => None,
                        };
                        let media_types =
                            self.lower_media_types(response.media_type.as_ref(), ty.as_ref(), true, &entry_origin);
                        others.push(Alternative {
                            status,
                            description: response.description.clone(),
                            body,
                            media_types,
                        });
                    }
                }
            }
        }
        (also, others)
    }

    /// The response headers: typed like parameters (scalars and enumerations), one Rust name
    /// each, names compared without case.
    /// `response.min_items`: a page's fewest items, kept only on a page without a named
    /// envelope (an envelope's list field holds its own `min_items`).
    fn page_min_items(&mut self, raw: &RawResponse, origin: &Origin) -> Option<u64> {
        let min_items = raw.min_items?;
        if raw.items.is_none() || raw.envelope.is_some() {
            let at = self.at(&origin.key("min_items"));
            self.diags
                .error(at, "`min_items` is for a page of `items` without an `envelope`")
                .hint("an envelope's list field takes its own `min_items`");
            return None;
        }
        Some(min_items)
    }

    fn lower_response_headers(&mut self, op: &str, raw: &RawResponse, origin: &Origin) -> Vec<ResponseHeader> {
        let mut headers: Vec<ResponseHeader> = Vec::new();
        let mut scope = Scope::new();
        for (wire, field) in &raw.headers {
            let header_origin = origin.key("headers").key(wire);
            let at = self.at(&header_origin);
            let element = format!("response header `{wire}` of `{op}`");
            if headers.iter().any(|h| h.wire.eq_ignore_ascii_case(wire)) {
                self.diags
                    .error(at, format!("{element} is declared twice"))
                    .hint("header names are compared without case");
                continue;
            }
            if !wire.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)) || wire.is_empty() {
                self.diags.error(at, format!("{element} cannot be a header name")).hint("use an HTTP token");
                continue;
            }
            let derived = format!("{}Header", sanitize(wire, Case::Pascal));
            let Some(ty) = self.lower_value_type(field, &derived, &element, &header_origin) else { continue };
            let rust = self.rust_name_of(wire, field, &header_origin);
            if !scope.claim(&rust, &element, &at, self.diags) {
                continue;
            }
            self.use_gaps(&field.gaps, &element, &header_origin);
            headers.push(ResponseHeader {
                wire: wire.clone(),
                rust,
                ty,
                required: !field.optional,
                description: field.description.clone(),
                sample: field.sample.clone(),
            });
        }
        headers
    }
}

impl Lowerer<'_> {
    /// The media types of a body of type `ty` (`None` without one): as the spec lists them,
    /// each a `type/subtype` given once (a response's concrete, since it names what is sent),
    /// or JSON by default (`application/octet-stream` for `bytes`). Whether each suits the type
    /// is checked once types are lowered.
    pub(super) fn lower_media_types(
        &mut self,
        raw: Option<&RawMediaTypes>,
        ty: Option<&TypeRef>,
        response: bool,
        origin: &Origin,
    ) -> Vec<String> {
        let Some(RawMediaTypes(listed)) = raw else {
            return match ty {
                None => Vec::new(),
                Some(TypeRef::Bytes) => vec!["application/octet-stream".into()],
                Some(_) => vec!["application/json".into()],
            };
        };
        let at = self.at(&origin.key("media_type"));
        if ty.is_none() {
            self.diags.error(at, "a media type describes a body, and there is none").hint("remove `media_type`");
            return Vec::new();
        }
        let mut media_types: Vec<String> = Vec::new();
        for media in listed {
            let essence = essence_of(media);
            let token = |t: &str| {
                !t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
            };
            let valid = essence.split_once('/').is_some_and(|(kind, sub)| token(kind) && token(sub));
            if !valid {
                self.diags
                    .error(at.clone(), format!("`{media}` is not a media type"))
                    .hint("write `type/subtype`, as `application/pdf`");
            } else if essence.contains('*') && !range_syntax(essence) {
                self.diags
                    .error(at.clone(), format!("`{media}` is not a media range"))
                    .hint("write `type/*` or `*/*`, as `image/*`");
            } else if response && essence.contains('*') && ty != Some(&TypeRef::Bytes) {
                // Raw bytes may answer a range: the handler names the concrete type within it
                // (`Download::content_type`); JSON and text are written by the router, which
                // must know what it writes.
                self.diags
                    .error(at.clone(), format!("`{media}` is a range; a response names the media type it sends"))
                    .hint("list the concrete media types (`image/png`, `image/jpeg`), or answer `type: bytes`, whose handler names the concrete type within the range");
            } else if media_types.iter().any(|m| essence_of(m).eq_ignore_ascii_case(essence)) {
                // One entry per media type: the client's enumeration names each by its essence.
                self.diags.error(at.clone(), format!("`{essence}` is listed twice"));
            } else {
                media_types.push(media.clone());
            }
        }
        if listed.is_empty() {
            self.diags.error(at, "`media_type` lists none").hint("list one, or remove it for JSON");
        }
        media_types
    }
}

/// The name a status gives its variant and inline types: its reason phrase (`Accepted`), or
/// `Status` and the number.
pub(crate) fn status_name(code: u16) -> String {
    crate::model::status_variant(code)
}

/// Whether an essence holding `*` is a media range: `*/*` or `type/*`.
fn range_syntax(essence: &str) -> bool {
    essence == "*/*" || essence.strip_suffix("/*").is_some_and(|major| !major.contains('*'))
}

/// A media type without its parameters (`text/plain; charset=utf-8` gives `text/plain`).
fn essence_of(media: &str) -> &str {
    media.split(';').next().unwrap_or_default().trim()
}
