//! The checks that need the whole model: references, finiteness, unions, envelopes, values, gaps.

use super::*;

impl Lowerer<'_> {
    /// Reports references to undeclared types. True when every reference reaches a type that
    /// was lowered (a declared type may have failed to lower, with its own error).
    pub(super) fn check_refs(&mut self) -> bool {
        let refs = std::mem::take(&mut self.refs);
        let mut resolved = true;
        for (ty, at) in refs {
            let Some(name) = ty.named() else { continue };
            if self.types.contains_key(name) {
                continue;
            }
            resolved = false;
            if !self.declared.contains_key(name) {
                let hint = suggest(name, self.declared.keys().map(String::as_str))
                    .unwrap_or_else(|| "declare it under `types:` in any spec file".into());
                self.diags.error(at, format!("unknown type `{name}`")).hint(hint);
            }
        }
        resolved
    }

    /// Settles variant names and tag values; checks that tagged variants carry their tag and
    /// that untagged variants can be told apart.
    pub(super) fn check_unions(&mut self) {
        let names: Vec<String> =
            self.types.iter().filter(|(_, t)| matches!(t.kind, TypeKind::Union(_))).map(|(n, _)| n.clone()).collect();
        for name in names {
            let def = &self.types[&name];
            let TypeKind::Union(union) = &def.kind else {
                continue;
            };
            let (at, mut union) = (def.origin.clone(), union.clone());
            let mut scope = Scope::new();
            let mut tags_seen: BTreeMap<String, String> = BTreeMap::new();
            for (i, variant) in union.variants.iter_mut().enumerate() {
                let label = variant.ty.to_string();
                let at = self.variant_at.get(&(name.clone(), i)).cloned().unwrap_or_else(|| at.clone());
                match &union.tag {
                    Some(tag) => {
                        let Some(value) = self.tag_value(&variant.ty, tag, &name, &at) else {
                            continue;
                        };
                        if let Some(first) = tags_seen.get(&value) {
                            self.diags
                                .error(at, format!("variants `{first}` and `{label}` of union `{name}` share the tag value `{value}`"))
                                .hint("each variant needs its own tag value");
                            continue;
                        }
                        tags_seen.insert(value.clone(), label.clone());
                        variant.rust = sanitize(&value, Case::Pascal);
                        variant.tag_value = Some(value);
                    }
                    None => variant.rust = untagged_variant_name(&name, &variant.ty, &self.types),
                }
                scope.claim(&variant.rust, &format!("variant `{label}`"), &at, self.diags);
            }
            if union.tag.is_none() {
                self.check_distinct(&name, &union, &at);
            }
            union.fallback = fallback_name(&scope);
            if let Some(TypeKind::Union(slot)) = self.types.get_mut(&name).map(|t| &mut t.kind) {
                *slot = union;
            }
        }
    }

    /// The constant of the tag field of a tagged variant, or a diagnostic saying why not.
    pub(super) fn tag_value(&mut self, ty: &TypeRef, tag: &str, union: &str, at: &Location) -> Option<String> {
        let object = match ty {
            TypeRef::Named(n) => match &self.types[n].kind {
                TypeKind::Object(object) => object,
                _ => {
                    self.diags
                        .error(at.clone(), format!("variant `{n}` of tagged union `{union}` is not an object type"));
                    return None;
                }
            },
            other => {
                self.diags
                    .error(at.clone(), format!("variant `{other}` of tagged union `{union}` is not an object type"))
                    .hint("a tagged union's variants are object types carrying the tag field");
                return None;
            }
        };
        match object.field(tag).map(|f| &f.constant) {
            Some(Some(value)) => Some(value.clone()),
            _ => {
                self.diags
                    .error(
                        at.clone(),
                        format!("variant `{ty}` of union `{union}` lacks its tag: it has no constant field `{tag}`"),
                    )
                    .hint(format!("add `{tag}: {{ const: <value> }}` to the fields of `{ty}`"));
                None
            }
        }
    }

    /// Untagged variants must be told apart by their JSON kind or, for objects, by their
    /// fields: decoding tries each variant in order and rejects unknown fields while choosing.
    pub(super) fn check_distinct(&mut self, union: &str, def: &Union, at: &Location) {
        let shapes: Vec<(String, Shape)> = def.variants.iter().map(|v| (v.ty.to_string(), self.shape(&v.ty))).collect();
        for (i, (a_name, a)) in shapes.iter().enumerate() {
            for (b_name, b) in &shapes[i + 1..] {
                if let Some(why) = overlap(a, b) {
                    self.diags
                        .error(at.clone(), format!("variants `{a_name}` and `{b_name}` of untagged union `{union}` are not provably distinct: {why}"))
                        .hint("add a tag field, or make a required field tell them apart");
                }
            }
        }
    }

    pub(super) fn shape(&self, ty: &TypeRef) -> Shape {
        match ty {
            TypeRef::String | TypeRef::DateTime | TypeRef::Url => Shape::String(None),
            TypeRef::Integer => Shape::Integer,
            TypeRef::Number => Shape::Number,
            TypeRef::Boolean => Shape::Boolean,
            TypeRef::Json | TypeRef::Bytes | TypeRef::File => Shape::Any,
            TypeRef::List(_) => Shape::Array,
            TypeRef::Map(_) => Shape::Object { required: BTreeSet::new(), known: None },
            TypeRef::Named(name) => match &self.types[name].kind {
                TypeKind::Enum(e) if !e.open => Shape::String(Some(e.values.iter().map(|v| v.wire.clone()).collect())),
                TypeKind::Enum(_) => Shape::String(None),
                TypeKind::Union(_) => Shape::Any,
                TypeKind::Object(o) => Shape::Object {
                    required: o.required_fields().map(|f| f.wire.clone()).collect(),
                    known: o.additional.is_none().then(|| o.fields.iter().map(|f| f.wire.clone()).collect()),
                },
            },
        }
    }

    /// A page's body holds what its list convention reads: the built-in envelope (`Page`), a
    /// bare list (a body that is the list, for styles that need nothing else from it), or a
    /// named envelope holding the items, the next cursor or the `has_more` boolean where the
    /// convention's pointers say. An envelope of the standard convention also needs the
    /// standard `next.page` (it gets `Paginated`).
    pub(super) fn check_envelopes(&mut self, operations: &[Operation]) {
        for op in operations {
            let (ResponseBody::Page { item, envelope }, Some(pagination)) = (&op.response.body, &op.pagination) else {
                continue;
            };
            let problem = match envelope {
                None if pagination.is_standard() || pagination.items.is_empty() => None,
                None => Some(format!(
                    "an envelope (`envelope:`): the `{}` convention reads `{}` of the body",
                    pagination.style.as_str(),
                    pagination.items
                )),
                Some(envelope) => self.envelope_problem(envelope, item, pagination),
            };
            if let Some(needs) = problem {
                let what = envelope.as_ref().map_or("page".to_owned(), |e| format!("envelope `{e}`"));
                self.diags
                    .error(op.origin.clone(), format!("the {what} of `{}` needs {needs}", op.name))
                    .hint("the list convention (`pagination`) says where a page holds its items and the next page");
            }
        }
    }

    /// What an envelope lacks for its list convention, if anything.
    fn envelope_problem(&self, envelope: &str, item: &TypeRef, pagination: &Pagination) -> Option<String> {
        let root = TypeRef::Named(envelope.to_owned());
        if !matches!(self.types[envelope].kind, TypeKind::Object(_)) {
            return Some("to be an object".to_owned());
        }
        let list = TypeRef::List(Box::new(item.clone()));
        if pagination.items.is_empty() || self.field_at(&root, &pagination.items) != Some(list) {
            return Some(format!("`{}` holding `list<{item}>`", pagination.items));
        }
        let scalar = |ty: Option<TypeRef>| matches!(ty, Some(TypeRef::String | TypeRef::Integer));
        match &pagination.style {
            PageStyle::Cursor { next } if !scalar(self.field_at(&root, next)) => {
                return Some(format!("`{next}` holding the next cursor (a string or an integer)"));
            }
            PageStyle::HasMore { has_more, item_id } => {
                if self.field_at(&root, has_more) != Some(TypeRef::Boolean) {
                    return Some(format!("`{has_more}` holding a boolean"));
                }
                if !scalar(self.field_at(item, item_id)) {
                    return Some(format!("each item to hold the next cursor at `{item_id}` (a string or an integer)"));
                }
            }
            _ => {}
        }
        if pagination.is_standard() {
            let TypeKind::Object(object) = &self.types[envelope].kind else { return None };
            let next_is_optional = object.field("next").is_some_and(|next| next.optional);
            let items_required = object.field("items").is_some_and(|items| !items.optional);
            if !next_is_optional || !items_required {
                return Some(
                    "an optional field `next` holding a required string `page`, and a required `items`".into(),
                );
            }
        }
        None
    }

    /// `api.errors` against its type: an object whose fields hold what each pointer names (the
    /// status an integer, the message a string, the violations a list of objects with the
    /// two keys as strings), and whose required fields the router can fill: each is named by
    /// a pointer or holds one, so every body the router writes is a valid value of the type.
    pub(super) fn check_error_convention(&mut self) {
        let (convention, Some(origin)) = (self.errors.0.clone(), self.errors.1.clone()) else { return };
        if convention.ty.is_some() {
            self.errors.0.fill = self.check_error_places(&convention, &origin, &origin.key("type"));
        }
        for (name, body) in &convention.bodies {
            let at = origin.key("bodies").key(name);
            let fill = self.check_error_places(body, &at, &at);
            if let Some(lowered) = self.errors.0.bodies.get_mut(name) {
                lowered.fill = fill;
            }
        }
    }

    /// One error body's places against its type (located at `type_at`); its `fill` with the
    /// value of each field.
    fn check_error_places(
        &mut self,
        convention: &ErrorConvention,
        origin: &Origin,
        type_at: &Origin,
    ) -> Vec<(String, Value)> {
        let Some(name) = convention.ty.clone() else { return Vec::new() };
        let name = &name;
        let at = |lowerer: &Self, key: &str| lowerer.at(&origin.key(key));
        if !matches!(self.types.get(name).map(|t| &t.kind), Some(TypeKind::Object(_))) {
            let at = self.at(type_at);
            self.diags
                .error(at, format!("the error body `{name}` is not an object type"))
                .hint("declare it with `fields:`");
            return Vec::new();
        }
        let root = TypeRef::Named(name.clone());
        // An empty message pointer: the body has no place for one.
        let mut pointers: Vec<(&str, String, &str)> = Some(convention.message.clone())
            .filter(|m| !m.is_empty())
            .map(|p| ("message", p, "a string"))
            .into_iter()
            .collect();
        pointers.extend(convention.status.clone().map(|p| ("status", p, "an integer")));
        pointers.extend(convention.code.clone().map(|p| ("code", p, "a string")));
        pointers.extend(convention.violations.clone().map(|p| ("violations", p, "a list of violation objects")));
        for (key, pointer, wanted) in &pointers {
            let found = self.field_at(&root, pointer);
            let fits = match (key, &found) {
                (_, None) => false,
                (&"message" | &"code", Some(ty)) => *ty == TypeRef::String,
                (&"status", Some(ty)) => *ty == TypeRef::Integer,
                (_, Some(TypeRef::List(item))) => {
                    let keys = [&convention.violation_path, &convention.violation_message];
                    keys.iter().all(|k| self.field_at(item, &format!("/{k}")) == Some(TypeRef::String))
                }
                _ => false,
            };
            if !fits {
                let at = at(self, key);
                let found = found.map_or("no field".to_owned(), |ty| format!("`{ty}`"));
                self.diags
                    .error(at, format!("`{pointer}` of `{name}` should hold {wanted}; it holds {found}"))
                    .hint("point at a field of the error type, through its object fields (`/error/message`)");
            }
        }
        let mut filled: Vec<String> = pointers.iter().map(|(_, p, _)| p.clone()).collect();
        let mut fill = Vec::new();
        for (pointer, _) in &convention.fill {
            match self.field_named(&root, pointer).map(|field| (self.fill_value(&field), field)) {
                Some((Some(value), _)) => {
                    fill.push((pointer.clone(), value));
                    filled.push(pointer.clone());
                }
                found => {
                    let at = at(self, "fill");
                    let found = found.map_or("no field".to_owned(), |(_, field)| format!("`{}`", field.ty));
                    self.diags
                        .error(at, format!("`{pointer}` of `{name}` should be a scalar field the router fills with its sample; it holds {found}"))
                        .hint("point at a string, number, boolean or enumeration field of the error type, or an object (a map) whose required fields are such");
                }
            }
        }
        for missing in self.unfilled_required(&root, "", &filled) {
            let at = self.at(type_at);
            self.diags
                .error(at, format!("the router cannot fill the required field `{missing}` of the error body `{name}`"))
                .hint(
                    "make it optional, point `status`, `message`, `code` or `violations` at it, or list it in `fill`",
                );
        }
        fill
    }

    /// The field a JSON pointer names inside a value of `ty`, through named object types.
    fn field_named(&self, ty: &TypeRef, pointer: &str) -> Option<Field> {
        let (parent, key) = pointer.rsplit_once('/')?;
        let TypeRef::Named(name) = self.field_at(ty, parent)? else { return None };
        let TypeKind::Object(object) = &self.types.get(&name)?.kind else { return None };
        object.field(&key.replace("~1", "/").replace("~0", "~")).cloned()
    }

    /// The value the router writes into a `fill` field: its sample, else its default, else
    /// its enumeration's first value, else a scalar made to fit its constraints, else for an
    /// object the object of its required fields each filled so (`{}` when it has none, as
    /// GraphQL's `extensions`) and for a map `{}`; `None` for anything else.
    fn fill_value(&self, field: &Field) -> Option<Value> {
        self.fill_value_at(field, 0)
    }

    fn fill_value_at(&self, field: &Field, depth: usize) -> Option<Value> {
        let made = match &field.ty {
            TypeRef::Named(name) => match &self.types.get(name)?.kind {
                TypeKind::Enum(e) => {
                    let first = &e.values.first()?.wire;
                    Some(if e.integer { Value::from(first.parse::<i64>().ok()?) } else { Value::from(first.as_str()) })
                }
                TypeKind::Object(object) if depth < 8 => {
                    let filled: Option<serde_json::Map<String, Value>> = object
                        .required_fields()
                        .map(|inner| Some((inner.wire.clone(), self.fill_value_at(inner, depth + 1)?)))
                        .collect();
                    Some(Value::Object(filled?))
                }
                _ => return None,
            },
            TypeRef::Map(_) => Some(Value::Object(serde_json::Map::new())),
            TypeRef::String
            | TypeRef::Integer
            | TypeRef::Number
            | TypeRef::Boolean
            | TypeRef::Url
            | TypeRef::DateTime => crate::model::sample::of_scalar(&field.ty, &field.constraints, &field.wire),
            _ => return None,
        };
        // The spec's own value first: a field with a pattern apigen cannot walk has a sample.
        field.sample.clone().or_else(|| field.default.clone()).or(made)
    }

    /// The type of the field a JSON pointer names inside a value of `ty`, through named object
    /// types; `None` when it names none.
    fn field_at(&self, ty: &TypeRef, pointer: &str) -> Option<TypeRef> {
        let mut current = ty.clone();
        for key in pointer.split('/').skip(1) {
            let key = key.replace("~1", "/").replace("~0", "~");
            let TypeRef::Named(name) = &current else { return None };
            let TypeKind::Object(object) = &self.types.get(name)?.kind else { return None };
            current = object.field(&key)?.ty.clone();
        }
        Some(current)
    }

    /// The required fields (as JSON pointers) of a value of `ty` at `prefix` that no pointer of
    /// `filled` names or passes through.
    fn unfilled_required(&self, ty: &TypeRef, prefix: &str, filled: &[String]) -> Vec<String> {
        let TypeRef::Named(name) = ty else { return Vec::new() };
        let Some(TypeKind::Object(object)) = self.types.get(name).map(|t| &t.kind) else { return Vec::new() };
        let mut missing = Vec::new();
        for field in object.required_fields() {
            let pointer = format!("{prefix}/{}", field.wire.replace('~', "~0").replace('/', "~1"));
            if filled.contains(&pointer) {
                continue;
            }
            if filled.iter().any(|p| p.starts_with(&format!("{pointer}/"))) {
                missing.extend(self.unfilled_required(&field.ty, &pointer, filled));
            } else {
                missing.push(pointer);
            }
        }
        missing
    }

    /// Whether a value of `ty` holds a file or raw bytes, at any depth.
    pub(super) fn holds_bytes(&self, ty: &TypeRef) -> bool {
        let direct = |t: &TypeRef| contains(t, &TypeRef::File) || contains(t, &TypeRef::Bytes);
        direct(ty)
            || self.reachable(std::slice::from_ref(ty)).iter().any(|n| match self.types.get(n).map(|t| &t.kind) {
                Some(TypeKind::Object(o)) => {
                    o.fields.iter().any(|f| direct(&f.ty)) || o.additional.as_ref().is_some_and(direct)
                }
                Some(TypeKind::Union(u)) => u.variants.iter().any(|v| direct(&v.ty)),
                _ => false,
            })
    }

    /// Response headers are scalars, enumerations or lists of those (comma-separated).
    pub(super) fn check_header_types(&mut self, operations: &[Operation]) {
        for op in operations {
            for header in &op.response.headers {
                let scalar = |ty: &TypeRef| match ty {
                    TypeRef::Named(n) => matches!(self.types[n].kind, TypeKind::Enum(_)),
                    TypeRef::Json | TypeRef::List(_) | TypeRef::Map(_) | TypeRef::Bytes | TypeRef::File => false,
                    _ => true,
                };
                let fits = match &header.ty {
                    TypeRef::List(inner) => scalar(inner),
                    ty => scalar(ty),
                };
                if !fits {
                    self.diags
                        .error(
                            op.origin.clone(),
                            format!(
                                "response header `{}` of `{}` has type `{}`, which cannot travel in a header",
                                header.wire, op.name, header.ty
                            ),
                        )
                        .hint("headers are scalars or enumerations, or lists of those (comma-separated values)");
                }
            }
        }
    }

    /// `untyped: true` says how a JSON value that is not an object reads, so it needs a body
    /// of an object type taken as JSON.
    pub(super) fn check_untyped_bodies(&mut self, operations: &[Operation]) {
        for op in operations {
            let Some(body) = op.body.as_ref().filter(|b| b.untyped) else { continue };
            let object = matches!(&body.ty, TypeRef::Named(name)
                if matches!(self.types.get(name).map(|t| &t.kind), Some(TypeKind::Object(_))));
            if !object || !body.encodings().contains(&Encoding::Json) {
                self.diags
                    .error(
                        op.origin.clone(),
                        format!("`untyped` on the body of `{}`, which is not an object taken as JSON", op.name),
                    )
                    .hint("only a JSON body of an object type reads a value that is not an object as left out");
            }
        }
        for op in operations {
            let Some(body) = op.body.as_ref().filter(|b| b.nullable) else { continue };
            if !body.encodings().contains(&Encoding::Json) {
                self.diags
                    .error(
                        op.origin.clone(),
                        format!("`nullable` on the body of `{}`, which is not taken as JSON", op.name),
                    )
                    .hint("only a JSON body may be `null`: a form, text or bytes has no `null`");
            }
        }
    }

    /// `untyped: true` on a field says how a value that is not an object reads, so it needs a
    /// field of an object type.
    pub(super) fn check_untyped_fields(&mut self) {
        for (ty, at) in std::mem::take(&mut self.untyped_fields) {
            let object = matches!(&ty, TypeRef::Named(name)
                if matches!(self.types.get(name).map(|t| &t.kind), Some(TypeKind::Object(_))));
            if !object {
                self.diags
                    .error(at, format!("`untyped` on a field of type `{ty}`, which is not an object"))
                    .hint("only a field of an object type reads a value that is not an object as left out");
            }
        }
    }

    /// The parameters of a list convention are shared optional query parameters; `at`
    /// locates the convention.
    /// Bodies that are not JSON: each media type suits the body's type (a form's object, a
    /// multipart object that may hold files, text a `string`, raw bytes `bytes`);
    /// `bytes` is only ever a whole body, and `file` only a field of a multipart body's object.
    pub(super) fn check_media(&mut self, operations: &[Operation]) {
        let mut multipart_objects: BTreeSet<String> = BTreeSet::new();
        let mut elsewhere: Vec<TypeRef> = Vec::new();
        for op in operations {
            for body in op.body.iter().flat_map(crate::model::Body::variants) {
                for media in &body.media_types {
                    if let Some(problem) = self.media_problem(&body.ty, media, false) {
                        self.diags.error(op.origin.clone(), format!("the body of `{}` {problem}", op.name));
                    }
                }
                match &body.ty {
                    TypeRef::Named(name) if body.encodings().iter().all(|e| *e == Encoding::Multipart) => {
                        multipart_objects.insert(name.clone());
                    }
                    other => elsewhere.push(other.clone()),
                }
            }
            elsewhere.extend(op.params.iter().map(|p| p.ty.clone()));
            for (status, response) in op.response.bodies() {
                let ResponseBody::Value(ty) = response else { continue };
                let media_types = if status == op.response.status {
                    op.response.media_types.clone()
                } else {
                    op.response
                        .others
                        .iter()
                        .find(|o| o.status == status)
                        .map(|o| o.media_types.clone())
                        .unwrap_or_default()
                };
                let raw = *ty == TypeRef::Bytes || media_types.iter().any(|m| body_encoding(ty, m) != Encoding::Json);
                if status != op.response.status && raw {
                    self.diags
                        .error(
                            op.origin.clone(),
                            format!("the response {status} of `{}` is raw bytes or text, which only the main response can be", op.name),
                        )
                        .hint("answer the other statuses with JSON, or give the raw body an operation of its own");
                }
                for media in &media_types {
                    if let Some(problem) = self.media_problem(ty, media, true) {
                        self.diags
                            .error(op.origin.clone(), format!("the response {status} of `{}` {problem}", op.name));
                    }
                }
                if *ty != TypeRef::Bytes {
                    elsewhere.push(ty.clone());
                }
            }
            if let ResponseBody::Page { item, .. } = &op.response.body {
                elsewhere.push(item.clone());
            }
        }
        // `bytes` in a field, and `file` outside a multipart body's object, cannot travel.
        for def in self.types.values() {
            let TypeKind::Object(object) = &def.kind else { continue };
            for field in &object.fields {
                let file = matches!(&field.ty, TypeRef::File)
                    || matches!(&field.ty, TypeRef::List(inner) if **inner == TypeRef::File);
                if contains(&field.ty, &TypeRef::Bytes) {
                    self.diags
                        .error(
                            def.origin.clone(),
                            format!(
                                "field `{}` of `{}` is `bytes`, which is only ever a whole body",
                                field.wire, def.name
                            ),
                        )
                        .hint("a file in a form is `file`, in a multipart body");
                } else if !field.media_types.is_empty() && !multipart_objects.contains(&def.name) {
                    self.diags
                        .error(
                            def.origin.clone(),
                            format!(
                                "field `{}` of `{}` names the media type of a part, and `{}` is no multipart body",
                                field.wire, def.name, def.name
                            ),
                        )
                        .hint("remove its `media_type`, or send the object as `multipart/form-data` only");
                } else if contains(&field.ty, &TypeRef::File) && !(file && multipart_objects.contains(&def.name)) {
                    self.diags
                        .error(
                            def.origin.clone(),
                            format!("field `{}` of `{}` is a file outside a multipart body", field.wire, def.name),
                        )
                        .hint("`file` (or `list<file>`) is a field of the object a `multipart/form-data` body sends");
                }
            }
        }
        for name in self.reachable(&elsewhere).intersection(&multipart_objects) {
            let def = &self.types[name];
            self.diags
                .error(def.origin.clone(), format!("`{name}` is a multipart body and is also used elsewhere"))
                .hint("give the multipart body its own type");
        }
    }

    /// Why a body of type `ty` cannot travel as `media`, if it cannot.
    fn media_problem(&self, ty: &TypeRef, media: &str, response: bool) -> Option<String> {
        let object_fields = |ty: &TypeRef| match ty {
            TypeRef::Named(n) => match &self.types[n].kind {
                TypeKind::Object(o) => Some(&o.fields),
                _ => None,
            },
            _ => None,
        };
        match body_encoding(ty, media) {
            Encoding::Json if matches!(ty, TypeRef::File) || contains(ty, &TypeRef::File) => {
                Some(format!("holds files, which `{media}` cannot carry (use `multipart/form-data`)"))
            }
            Encoding::Json => None,
            Encoding::Form | Encoding::Multipart if response => {
                Some(format!("cannot be answered as `{media}`: forms travel in requests"))
            }
            Encoding::Form | Encoding::Multipart => {
                // A form holds any value at any depth: a urlencoded one nests in brackets
                // (`items[0][price]=x`), a multipart one sends a nested value as one JSON
                // part; a file outside a multipart body is refused with the other fields.
                object_fields(ty)
                    .is_none()
                    .then(|| format!("is sent as `{media}`, so its type is an object, not `{ty}`"))
            }
            Encoding::Text if *ty != TypeRef::String => {
                Some(format!("is text (`{media}`), so its type is `string`, not `{ty}`"))
            }
            Encoding::Text => None,
            Encoding::Binary if *ty != TypeRef::Bytes => {
                Some(format!("is raw `{media}`, so its type is `bytes`, not `{ty}`"))
            }
            Encoding::Binary => None,
        }
    }

    pub(super) fn check_pagination_params(&mut self, pagination: &Pagination, at: &Location) {
        for name in &pagination.params {
            match self.shared_params.get(name) {
                Some(p) if p.location == ParamIn::Query && !p.required => {}
                Some(_) => {
                    self.diags.error(
                        at.clone(),
                        format!("pagination parameter `{name}` must be an optional query parameter"),
                    );
                }
                None => {
                    self.diags
                        .error(at.clone(), format!("pagination parameter `{name}` is not a shared parameter"))
                        .hint("declare it under `parameters:`");
                }
            }
        }
    }

    /// Marks each type with the directions it travels, from request bodies and parameters
    /// (input) and responses (output). A type no operation reaches counts as output: it
    /// describes a resource.
    pub(super) fn mark_usage(&mut self, operations: &[Operation]) {
        let mut input = Vec::new();
        let mut output = Vec::new();
        for op in operations {
            input.extend(op.body.iter().flat_map(|b| b.variants().map(|v| v.ty.clone())));
            input.extend(op.params.iter().map(|p| p.ty.clone()));
            for (_, body) in op.response.bodies() {
                match body {
                    ResponseBody::Empty => {}
                    ResponseBody::Value(ty) => output.push(ty.clone()),
                    ResponseBody::Page { item, envelope } => {
                        output.push(item.clone());
                        output.extend(envelope.iter().map(|e| TypeRef::Named(e.clone())));
                    }
                }
            }
            output.extend(op.response.headers.iter().map(|h| h.ty.clone()));
            // Error bodies are answered (servers write them, clients read them).
            output.extend(op.errors.iter().filter_map(|e| e.ty.clone()));
        }
        output.extend(self.errors.0.ty.iter().map(|t| TypeRef::Named(t.clone())));
        output.extend(self.errors.0.bodies.keys().map(|t| TypeRef::Named(t.clone())));
        for name in self.reachable(&input) {
            if let Some(t) = self.types.get_mut(&name) {
                t.usage.input = true;
            }
        }
        for name in self.reachable(&output) {
            if let Some(t) = self.types.get_mut(&name) {
                t.usage.output = true;
            }
        }
        for t in self.types.values_mut() {
            if !t.usage.input && !t.usage.output {
                t.usage.output = true;
            }
        }
    }

    pub(super) fn reachable(&self, roots: &[TypeRef]) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut pending: Vec<String> = roots.iter().filter_map(|r| r.named().map(str::to_owned)).collect();
        while let Some(name) = pending.pop() {
            if !seen.insert(name.clone()) {
                continue;
            }
            pending.extend(self.children(&name).into_iter().filter_map(|r| r.named().map(str::to_owned)));
        }
        seen
    }

    /// The type references a type holds directly.
    pub(super) fn children(&self, name: &str) -> Vec<TypeRef> {
        match &self.types[name].kind {
            TypeKind::Object(o) => o.fields.iter().map(|f| f.ty.clone()).chain(o.additional.clone()).collect(),
            TypeKind::Union(u) => u.variants.iter().map(|v| v.ty.clone()).collect(),
            TypeKind::Enum(_) => Vec::new(),
        }
    }

    /// Reports every type with no finite value and records the depth of the others.
    pub(super) fn check_finite(&mut self) -> bool {
        let depths = super::finite::depths(&self.types);
        let mut finite = true;
        for (name, depth) in &depths {
            let def = &self.types[name];
            if depth.is_none() {
                finite = false;
                let why = super::finite::why_infinite(def, &depths);
                self.diags
                    .error(def.origin.clone(), format!("type `{name}` has no finite value: {why}"))
                    .hint("make one field of the cycle optional or nullable (or a list), or give a union a variant that ends it");
            }
        }
        for (name, depth) in depths {
            if let (Some(def), Some(depth)) = (self.types.get_mut(&name), depth) {
                def.depth = depth;
            }
        }
        finite
    }

    /// Boxes every field whose type contains the field's own type without a list or map in
    /// between (a Rust type cannot contain itself by value): the field's type leads back to
    /// its owner by value exactly when both are in one component of the by-value graph.
    pub(super) fn mark_boxes(&mut self) {
        let by_value: BTreeMap<String, Vec<String>> = self
            .types
            .keys()
            .map(|name| {
                let direct = self.children(name).into_iter().filter_map(|child| match child {
                    TypeRef::Named(target) => Some(target),
                    _ => None,
                });
                (name.clone(), direct.collect())
            })
            .collect();
        let component = super::graph::components(&by_value);
        for (name, def) in &mut self.types {
            let TypeKind::Object(object) = &mut def.kind else { continue };
            for field in &mut object.fields {
                if let TypeRef::Named(target) = &field.ty
                    && component.get(target) == component.get(name)
                {
                    field.boxed = true;
                }
            }
        }
    }

    pub(super) fn check_values(&mut self) {
        let checks = std::mem::take(&mut self.value_checks);
        for check in checks {
            let checker = ValueChecker { types: &self.types };
            let scalar = match &check.ty {
                TypeRef::Named(name) => matches!(self.types[name].kind, TypeKind::Enum(_)),
                TypeRef::Json | TypeRef::List(_) | TypeRef::Map(_) => false,
                _ => true,
            };
            if check.what == "default" && !scalar {
                self.diags
                    .error(check.at, format!("a default of type `{}` cannot be written as a literal", check.ty))
                    .hint("defaults are for strings, numbers, booleans and enumeration values");
                continue;
            }
            if let Err(problem) = checker.check(&check.value, &check.ty, &check.constraints, "") {
                self.diags
                    .error(check.at, format!("the {} {} does not fit: {problem}", check.what, check.value))
                    .hint(format!("a {} must be a valid value of its type and constraints", check.what));
            }
        }
    }

    pub(super) fn resolve_gaps(&mut self, gaps: BTreeMap<String, (Gap, Location)>) -> BTreeMap<String, Gap> {
        let mut gaps: BTreeMap<String, Gap> = gaps.into_iter().map(|(id, (gap, _))| (id, gap)).collect();
        let uses = std::mem::take(&mut self.gap_uses);
        for used in uses {
            match gaps.get_mut(&used.id) {
                Some(gap) => {
                    if !gap.used_by.contains(&used.element) {
                        gap.used_by.push(used.element);
                    }
                }
                None if self.spec.was_dropped("gaps", &used.id) => {}
                None => {
                    let hint = suggest(&used.id, gaps.keys().map(String::as_str))
                        .unwrap_or_else(|| "declare it under `gaps:` with its source, gap and decision".into());
                    self.diags
                        .error(used.at, format!("{} refers to the unknown gap `{}`", used.element, used.id))
                        .hint(hint);
                }
            }
        }
        for gap in gaps.values_mut() {
            gap.used_by.sort();
        }
        gaps
    }
}

/// What JSON an untagged variant accepts while a union chooses.
pub(super) enum Shape {
    String(Option<BTreeSet<String>>),
    /// Integers: a `number` listed after an `integer` still takes fractions.
    Integer,
    Number,
    Boolean,
    Array,
    /// Objects: fields that must be present; fields that may be (`None`: any).
    Object {
        required: BTreeSet<String>,
        known: Option<BTreeSet<String>>,
    },
    Any,
}

/// Why two shapes may accept the same JSON, or `None` when they cannot.
pub(super) fn overlap(a: &Shape, b: &Shape) -> Option<String> {
    match (a, b) {
        (Shape::Any, _) | (_, Shape::Any) => Some("one of them accepts any JSON".into()),
        (Shape::String(Some(x)), Shape::String(Some(y))) => {
            x.intersection(y).next().map(|v| format!("both accept the string `{v}`"))
        }
        (Shape::String(_), Shape::String(_)) => Some("both accept strings".into()),
        (Shape::Number, Shape::Number) | (Shape::Integer, Shape::Integer) => Some("both accept numbers".into()),
        // Tried in order: integers go to the first, fractions to the second.
        (Shape::Integer, Shape::Number) => None,
        (Shape::Number, Shape::Integer) => Some("every integer is a number: list `integer` first".into()),
        (Shape::Boolean, Shape::Boolean) => Some("both accept booleans".into()),
        (Shape::Array, Shape::Array) => Some("both accept arrays".into()),
        (Shape::Object { required: ra, known: ka }, Shape::Object { required: rb, known: kb }) => {
            let fits = |required: &BTreeSet<String>, known: &Option<BTreeSet<String>>| {
                known.as_ref().is_none_or(|k| required.is_subset(k))
            };
            if fits(ra, kb) && fits(rb, ka) {
                let keys: Vec<&str> = ra.union(rb).map(String::as_str).collect();
                Some(format!("both accept an object with the keys {{{}}}", keys.join(", ")))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Whether `ty` is `wanted` or holds it (in a list or map).
fn contains(ty: &TypeRef, wanted: &TypeRef) -> bool {
    match ty {
        TypeRef::List(inner) | TypeRef::Map(inner) => contains(inner, wanted),
        other => other == wanted,
    }
}
