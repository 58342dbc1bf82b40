//! Lowering of named and inline types: objects, enumerations, unions, fields.

use super::*;

impl Lowerer<'_> {
    /// Records every named type before any is lowered, so references may point anywhere.
    pub(super) fn declare_types(&mut self) {
        // Types that failed to decode were reported by the loader; knowing their names keeps
        // references to them from being reported again as unknown.
        for name in self.spec.dropped.get("types").into_iter().flatten() {
            self.declared.insert(name.clone(), Location::default());
        }
        let spec = self.spec;
        for entry in &spec.types {
            let at = self.at(&entry.origin);
            if let Some(first) = self.declared.get(&entry.name) {
                self.diags
                    .error(at, format!("type `{}` is declared twice; first at {first}", entry.name))
                    .hint("type names are shared by every file; rename or merge one");
                continue;
            }
            let valid = entry.name.starts_with(|c: char| c.is_ascii_uppercase())
                && entry.name.chars().all(|c| c.is_ascii_alphanumeric());
            if !valid {
                self.diags
                    .error(at.clone(), format!("type name `{}` is not PascalCase", entry.name))
                    .hint("type names start with an upper-case letter and hold only letters and digits");
            }
            self.declared.insert(entry.name.clone(), at.clone());
            let rust = sanitize(&entry.name, Case::Pascal);
            self.type_scope.claim(&rust, &format!("type `{}`", entry.name), &at, self.diags);
        }
    }

    pub(super) fn lower_named_type(&mut self, entry: &Entry<RawType>) {
        let raw = &entry.value;
        let origin = &entry.origin;
        let at = self.at(origin);
        if raw.includes.is_some() && raw.fields.is_none() && raw.additional_properties.is_none() {
            let at = self.at(&origin.key("includes"));
            self.diags
                .error(at, format!("type `{}` includes other types but declares no `fields`", entry.name))
                .hint("an object that only includes others says `fields: {}`");
            return;
        }
        if raw.includes.is_some() && (raw.enum_values.is_some() || raw.union.is_some()) {
            let at = self.at(&origin.key("includes"));
            self.diags.error(at, "`includes` belongs to object types").hint("remove it");
        }
        let kinds = [
            raw.fields.is_some() || raw.additional_properties.is_some(),
            raw.enum_values.is_some(),
            raw.union.is_some(),
        ];
        if raw.unknown_fields.is_some() && !kinds[0] {
            let at = self.at(&origin.key("unknown_fields"));
            self.diags.error(at, "`unknown_fields` belongs to object types").hint("remove it");
        }
        let kind = match kinds.iter().filter(|k| **k).count() {
            0 => {
                self.diags
                    .error(at, format!("type `{}` declares none of `fields`, `enum` and `union`", entry.name))
                    .hint("an object has `fields`, an enumeration `enum`, a union `union`");
                return;
            }
            1 if kinds[0] => {
                if raw.open.is_some() {
                    let at = self.at(&origin.key("open"));
                    self.diags.error(at, "`open` belongs to enumerations").hint("remove it");
                }
                let fields = raw.fields.as_ref();
                let additional = raw.additional_properties.as_deref();
                let mut object = self.lower_object(&entry.name, fields, additional, origin);
                object.ignores_unknown = raw.unknown_fields.map_or(self.ignore_unknown, ignores);
                if let Some(included) = raw.includes.clone() {
                    self.includes.push((entry.name.clone(), included, origin.clone()));
                }
                TypeKind::Object(object)
            }
            1 if kinds[1] => {
                let values = raw.enum_values.as_deref().unwrap_or_default();
                let Some(values) = self.lower_enum(&entry.name, values, raw.open, origin) else {
                    return;
                };
                TypeKind::Enum(values)
            }
            1 => {
                if raw.open.is_some() {
                    let at = self.at(&origin.key("open"));
                    self.diags
                        .error(at, "`open` of a union goes inside `union:`")
                        .hint("write `union: { ..., open: true }`");
                }
                let union = raw.union.as_ref().expect("checked above");
                TypeKind::Union(self.lower_union(&entry.name, union, &origin.key("union")))
            }
            _ => {
                self.diags
                    .error(at, format!("type `{}` declares more than one of `fields`, `enum` and `union`", entry.name))
                    .hint("split it into separate types");
                return;
            }
        };
        self.use_gaps(&raw.gaps, &format!("type `{}`", entry.name), origin);
        if raw.description.is_none() {
            let at = self.at(origin);
            self.diags.warning(
                crate::diag::Lint::MissingDescription,
                at,
                format!("type `{}` has no description", entry.name),
            );
        }
        let def = TypeDef {
            name: entry.name.clone(),
            rust: sanitize(&entry.name, Case::Pascal),
            description: raw.description.clone(),
            source: raw.source.clone(),
            kind,
            gaps: raw.gaps.clone(),
            origin: self.at(origin),
            inline_of: None,
            usage: Usage::default(),
            depth: 0,
        };
        self.types.insert(entry.name.clone(), def);
    }

    /// Puts the fields of each included type first in the object including it (after that
    /// type's own includes), in the order listed; an include that is not an object type, a
    /// cycle, or a field name given twice is a located error.
    pub(super) fn resolve_includes(&mut self) {
        let pending = std::mem::take(&mut self.includes);
        let wanted: BTreeMap<String, (Vec<String>, Origin)> =
            pending.into_iter().map(|(name, included, origin)| (name, (included, origin))).collect();
        let mut done: BTreeSet<String> = BTreeSet::new();
        for name in wanted.keys() {
            let mut visiting = Vec::new();
            self.resolve_one(name, &wanted, &mut done, &mut visiting);
        }
    }

    fn resolve_one(
        &mut self,
        name: &str,
        wanted: &BTreeMap<String, (Vec<String>, Origin)>,
        done: &mut BTreeSet<String>,
        visiting: &mut Vec<String>,
    ) {
        let Some((included, origin)) = wanted.get(name) else { return };
        if done.contains(name) {
            return;
        }
        let listed = origin.key("includes");
        visiting.push(name.to_owned());
        let mut fields: Vec<Field> = Vec::new();
        let mut from: BTreeMap<String, String> = BTreeMap::new();
        let mut names = Vec::new();
        for (i, base) in included.iter().enumerate() {
            let at = self.at(&listed.index(i));
            if visiting.iter().any(|v| v == base) {
                self.diags
                    .error(at, format!("type `{name}` includes itself through `{base}`"))
                    .hint("an object cannot contain its own fields; remove one of the includes");
                continue;
            }
            self.resolve_one(base, wanted, done, visiting);
            let base_fields = match self.types.get(base).map(|def| &def.kind) {
                Some(TypeKind::Object(object)) => object.fields.clone(),
                Some(_) => {
                    self.diags
                        .error(at, format!("type `{name}` includes `{base}`, which is not an object type"))
                        .hint("only the fields of an object type can be included");
                    continue;
                }
                None => {
                    if !self.declared.contains_key(base) {
                        self.diags
                            .error(at, format!("type `{name}` includes unknown type `{base}`"))
                            .hint("name an object type declared under `types:` in any file");
                    }
                    continue;
                }
            };
            names.push(base.clone());
            for field in base_fields {
                if let Some(first) = from.get(&field.wire) {
                    self.diags
                        .error(
                            at.clone(),
                            format!("`{first}` and `{base}`, both included by `{name}`, have a field `{}`", field.wire),
                        )
                        .hint("a field comes from one place: remove it from one of the included types");
                    continue;
                }
                from.insert(field.wire.clone(), base.clone());
                fields.push(field);
            }
        }
        visiting.pop();
        done.insert(name.to_owned());
        let Some(TypeDef { kind: TypeKind::Object(object), .. }) = self.types.get(name) else { return };
        let own = object.fields.clone();
        for field in &own {
            if let Some(base) = from.get(&field.wire) {
                let at = self.at(&origin.key("fields").key(&field.wire));
                self.diags
                    .error(
                        at,
                        format!("field `{name}.{}` is also a field of `{base}`, which `{name}` includes", field.wire),
                    )
                    .hint("remove it here, or stop including the other type");
            }
        }
        let own: Vec<Field> = own.into_iter().filter(|f| !from.contains_key(&f.wire)).collect();
        fields.extend(own);
        let mut scope = Scope::new();
        for field in &fields {
            let at = self.at(&listed);
            scope.claim(&field.rust, &format!("field `{}`", field.wire), &at, self.diags);
        }
        if let Some(TypeDef { kind: TypeKind::Object(object), .. }) = self.types.get_mut(name) {
            object.fields = fields;
            object.includes = names;
        }
    }

    pub(super) fn lower_object(
        &mut self,
        type_name: &str,
        fields: Option<&indexmap::IndexMap<String, RawField>>,
        additional: Option<&str>,
        origin: &Origin,
    ) -> Object {
        let mut scope = Scope::new();
        let mut lowered = Vec::new();
        for (wire, raw) in fields.into_iter().flatten() {
            let field_origin = origin.key("fields").key(wire);
            let at = self.at(&field_origin);
            let rust = self.rust_name_of(wire, raw, &field_origin);
            scope.claim(&rust, &format!("field `{wire}`"), &at, self.diags);
            if let Some(field) = self.lower_field(type_name, wire, rust, raw, &field_origin) {
                lowered.push(field);
            }
        }
        let additional = additional.and_then(|expr| {
            let at = self.at(&origin.key("additional_properties"));
            scope.claim("extra", "the map of additional properties", &at, self.diags);
            self.complete_ref(expr, &at)
        });
        Object { fields: lowered, additional, includes: Vec::new(), ignores_unknown: self.ignore_unknown }
    }

    /// The Rust name of a field, parameter or response header: its `rust_name` when the spec
    /// sets one (the wire names of an API someone else owns cannot be renamed: `statementId`
    /// beside `statementID`), else the wire name in snake case.
    pub(super) fn rust_name_of(&mut self, wire: &str, raw: &RawField, origin: &Origin) -> String {
        let Some(name) = &raw.rust_name else { return sanitize(wire, Case::Snake) };
        let fitted = sanitize(name, Case::Snake);
        if fitted != *name {
            let at = self.at(&origin.key("rust_name"));
            self.diags
                .error(at, format!("`rust_name: {name}` is not a snake_case Rust name"))
                .hint(format!("write `{fitted}`"));
        }
        fitted
    }

    pub(super) fn lower_field(
        &mut self,
        parent: &str,
        wire: &str,
        rust: String,
        raw: &RawField,
        origin: &Origin,
    ) -> Option<Field> {
        self.reject_misplaced(raw, Role::Field, origin);
        let element = format!("field `{parent}.{wire}`");
        self.use_gaps(&raw.gaps, &element, origin);
        if let Some(constant) = &raw.constant {
            return Some(self.lower_const_field(wire, rust, constant, raw, origin));
        }
        let derived = format!("{parent}{}", sanitize(wire, Case::Pascal));
        let ty = self.lower_value_type(raw, &derived, &format!("{parent}.{wire}"), origin)?;
        let constraints = self.lower_constraints(raw, &ty, origin);
        if raw.description.is_none() {
            let at = self.at(origin);
            self.diags.warning(crate::diag::Lint::MissingDescription, at, format!("{element} has no description"));
        }
        if raw.default.is_some() && !raw.optional {
            let at = self.at(&origin.key("default"));
            self.diags
                .error(at, format!("{element} is required but has a default"))
                .hint("a default applies when the field is absent: add `optional: true` or drop the default");
        }
        self.queue_values(raw, &ty, &constraints, origin);
        // A multipart part's media types (checked against the bodies in `check_media`).
        let media_types = match &raw.media_type {
            Some(_) => self.lower_media_types(raw.media_type.as_ref(), Some(&ty), false, origin),
            None => Vec::new(),
        };
        if raw.untyped {
            self.lower_untyped_field(raw, &ty, &element, origin);
        }
        let access = match (raw.read_only, raw.write_only) {
            (false, false) => Access::ReadWrite,
            (true, false) => Access::ReadOnly,
            (false, true) => Access::WriteOnly,
            (true, true) => {
                let at = self.at(&origin.key("write_only"));
                self.diags
                    .error(at, format!("{element} is both read-only and write-only"))
                    .hint("read-only: answered, never sent; write-only: sent, never answered; keep one");
                Access::ReadWrite
            }
        };
        Some(Field {
            wire: wire.to_owned(),
            rust,
            ty,
            optional: raw.optional,
            nullable: raw.nullable,
            untyped: raw.untyped && !raw.nullable && raw.default.is_none(),
            default: raw.default.clone(),
            sample: raw.sample.clone(),
            constant: None,
            constraints,
            sensitive: raw.sensitive,
            description: raw.description.clone(),
            gaps: raw.gaps.clone(),
            boxed: false,
            access,
            media_types,
        })
    }

    /// `untyped: true` on a field: its type is checked to be an object once every type is
    /// lowered; `nullable` and `default` say otherwise what `null` and absence read as.
    fn lower_untyped_field(&mut self, raw: &RawField, ty: &TypeRef, element: &str, origin: &Origin) {
        let at = self.at(&origin.key("untyped"));
        for (key, present) in [("nullable", raw.nullable), ("default", raw.default.is_some())] {
            if present {
                self.diags
                    .error(at.clone(), format!("{element} is `untyped` and has `{key}`"))
                    .hint("an untyped field reads `null` (any value that is not an object) as left out: drop one");
            }
        }
        self.untyped_fields.push((ty.clone(), at));
    }

    pub(super) fn lower_const_field(
        &mut self,
        wire: &str,
        rust: String,
        constant: &str,
        raw: &RawField,
        origin: &Origin,
    ) -> Field {
        let at = self.at(&origin.key("const"));
        let clashes = [
            ("type", raw.ty.as_deref().is_some_and(|t| t != "string")),
            ("optional", raw.optional),
            ("nullable", raw.nullable),
            ("untyped", raw.untyped),
            ("default", raw.default.is_some()),
            ("fields", raw.fields.is_some()),
            ("enum", raw.enum_values.is_some()),
            ("read_only", raw.read_only),
            ("write_only", raw.write_only),
        ];
        for (key, present) in clashes {
            if present {
                self.diags
                    .error(at.clone(), format!("a constant field cannot also set `{key}`"))
                    .hint("a `const` field is a required string that always holds that value");
            }
        }
        if constant.is_empty() {
            self.diags.error(at, "a constant cannot be empty");
        }
        Field {
            wire: wire.to_owned(),
            rust,
            ty: TypeRef::String,
            optional: false,
            nullable: false,
            untyped: false,
            default: None,
            sample: Some(Value::String(constant.to_owned())),
            constant: Some(constant.to_owned()),
            constraints: Constraints::default(),
            sensitive: false,
            description: raw.description.clone(),
            gaps: raw.gaps.clone(),
            boxed: false,
            access: Access::ReadWrite,
            media_types: Vec::new(),
        }
    }

    /// Reports keys that make no sense for what the raw field is being read as.
    pub(super) fn reject_misplaced(&mut self, raw: &RawField, role: Role, origin: &Origin) {
        let checks: [(&str, bool, &str); 15] = [
            ("read_only", raw.read_only && role != Role::Field, "only object fields are read-only"),
            ("write_only", raw.write_only && role != Role::Field, "only object fields are write-only"),
            ("name", raw.name.is_some() && role != Role::Param, "`name` names inline parameters"),
            ("in", raw.location.is_some() && role != Role::Param, "`in` belongs to parameters"),
            ("required", raw.required.is_some() && role != Role::Param, "fields are required unless `optional: true`"),
            ("optional", raw.optional && role == Role::Param, "parameters are optional unless `required: true`"),
            (
                "style",
                raw.style.is_some() && role == Role::Field,
                "`style` says how a parameter or a form body travels",
            ),
            ("explode", raw.explode.is_some() && role != Role::Param, "`explode` says how a parameter travels"),
            (
                "allow_empty",
                raw.allow_empty && role != Role::Param,
                "`allow_empty` lets a query parameter be sent empty",
            ),
            ("nullable", raw.nullable && role == Role::Param, "only object fields and JSON request bodies may be null"),
            (
                "untyped",
                raw.untyped && role == Role::Param,
                "`untyped` says a JSON body or an object's field reads a value that is not an object as left out",
            ),
            ("const", raw.constant.is_some() && role != Role::Field, "only object fields hold constants"),
            ("sensitive", raw.sensitive && role == Role::Body, "mark the sensitive field of the body type instead"),
            ("rust_name", raw.rust_name.is_some() && role == Role::Body, "a request body is the builder's `body`"),
            (
                "media_type",
                raw.media_type.is_some() && role == Role::Field && raw.constant.is_some(),
                "a media type describes a request body, a multipart part, or a parameter written as JSON",
            ),
        ];
        for (key, misplaced, why) in checks {
            if misplaced {
                let at = self.at(&origin.key(key));
                let place = match role {
                    Role::Field => "an object field",
                    Role::Param => "a parameter",
                    Role::Body => "a request body",
                };
                self.diags.error(at, format!("`{key}` is not allowed on {place}")).hint(why);
            }
        }
        if role == Role::Body {
            // A body of any JSON (`json`), a list or a map has no fields to hold a sample: it
            // takes one itself.
            let unnamed = raw.ty.as_deref().is_some_and(body_takes_sample);
            let value_keys = [("default", raw.default.is_some()), ("sample", raw.sample.is_some() && !unnamed)];
            for (key, present) in value_keys {
                if present {
                    let at = self.at(&origin.key(key));
                    self.diags
                        .error(at, format!("`{key}` is not allowed on a request body"))
                        .hint("put it on the fields of the body type (a body of type `json`, `string`, a list or a map takes a `sample`)");
                }
            }
        }
    }

    /// Resolves the type of a field, parameter or body, lifting an inline object or
    /// enumeration to a named type (`type_name` or `derived`).
    pub(super) fn lower_value_type(
        &mut self,
        raw: &RawField,
        derived: &str,
        inline_of: &str,
        origin: &Origin,
    ) -> Option<TypeRef> {
        let at = self.at(origin);
        let inline_object = raw.fields.is_some() || raw.additional_properties.is_some();
        let inline_enum = raw.enum_values.is_some();
        if raw.open.is_some() && !inline_enum {
            let at = self.at(&origin.key("open"));
            self.diags.error(at, "`open` belongs to inline enumerations (next to `enum`)");
        }
        if raw.unknown_fields.is_some() && !inline_object {
            let at = self.at(&origin.key("unknown_fields"));
            self.diags
                .error(at, "`unknown_fields` belongs to inline objects (next to `fields`)")
                .hint("remove it, or say it on the type named");
        }
        if raw.type_name.is_some() && !inline_object && !inline_enum {
            let at = self.at(&origin.key("type_name"));
            self.diags.error(at, "`type_name` names an inline object or enumeration, and there is none here");
        }
        if inline_object && inline_enum {
            self.diags.error(at, "an element cannot declare both `fields` and `enum`");
            return None;
        }
        let parsed = match raw.ty.as_deref() {
            None if inline_object => Parsed::Inline { placeholder: Placeholder::Object, wrappers: Vec::new() },
            None if inline_enum => Parsed::Inline { placeholder: Placeholder::Enum, wrappers: Vec::new() },
            None => {
                self.diags.error(at, "no `type`").hint(format!("a type is one of: {}", typeref::FORMS));
                return None;
            }
            Some(text) => match typeref::parse(text) {
                Ok(parsed) => parsed,
                Err(message) => {
                    let at = self.at(&origin.key("type"));
                    self.diags.error(at, message).hint(format!("a type is one of: {}", typeref::FORMS));
                    return None;
                }
            },
        };
        match parsed {
            Parsed::Ref(ty) => {
                if inline_object || inline_enum {
                    let key = if inline_object { "fields" } else { "enum" };
                    let at = self.at(&origin.key("type"));
                    self.diags
                        .error(at, format!("`type: {ty}` and an inline `{key}` contradict each other"))
                        .hint(format!("write `type: object` (or `list<object>`) with `fields`, `type: enum` with `enum`, or drop `{key}`"));
                    return None;
                }
                self.refs.push((ty.clone(), self.at(&origin.key("type"))));
                Some(ty)
            }
            Parsed::Inline { placeholder, wrappers } => {
                let declared = match placeholder {
                    Placeholder::Object => inline_object,
                    Placeholder::Enum => inline_enum,
                };
                if !declared {
                    let (word, key) = match placeholder {
                        Placeholder::Object => ("object", "fields"),
                        Placeholder::Enum => ("enum", "enum"),
                    };
                    let at = self.at(&origin.key("type"));
                    self.diags
                        .error(at, format!("`{word}` in the type needs `{key}` next to it"))
                        .hint(format!("declare the inline shape's `{key}`, or name a type"));
                    return None;
                }
                let suffix = wrappers.iter().fold(String::new(), |acc, w| match w {
                    typeref::Wrapper::List => acc + "Item",
                    typeref::Wrapper::Map => acc + "Value",
                });
                let name = raw.type_name.clone().unwrap_or_else(|| format!("{derived}{suffix}"));
                let kind = match placeholder {
                    Placeholder::Object => {
                        let additional = raw.additional_properties.as_deref();
                        let mut object = self.lower_object(&name, raw.fields.as_ref(), additional, origin);
                        object.ignores_unknown = raw.unknown_fields.map_or(self.ignore_unknown, ignores);
                        TypeKind::Object(object)
                    }
                    Placeholder::Enum => {
                        let values = raw.enum_values.as_deref().unwrap_or_default();
                        TypeKind::Enum(self.lower_enum(&name, values, raw.open, origin)?)
                    }
                };
                self.add_inline_type(&name, kind, raw.description.clone(), inline_of, origin)?;
                Some(Parsed::complete(&wrappers, TypeRef::Named(name)))
            }
        }
    }

    pub(super) fn add_inline_type(
        &mut self,
        name: &str,
        kind: TypeKind,
        description: Option<String>,
        inline_of: &str,
        origin: &Origin,
    ) -> Option<()> {
        let at = self.at(origin);
        let rust = sanitize(name, Case::Pascal);
        let element = format!("the inline type of `{inline_of}`");
        if let Some(first) = self.declared.get(name) {
            self.diags
                .error(at, format!("{element} is named `{name}`, already the name of the type at {first}"))
                .hint("set `type_name` on the inline shape to a free name");
            return None;
        }
        if !self.type_scope.claim(&rust, &element, &at, self.diags) {
            return None;
        }
        self.declared.insert(name.to_owned(), at.clone());
        self.types.insert(
            name.to_owned(),
            TypeDef {
                name: name.to_owned(),
                rust,
                description,
                source: None,
                kind,
                gaps: Vec::new(),
                origin: at,
                inline_of: Some(inline_of.to_owned()),
                usage: Usage::default(),
                depth: 0,
            },
        );
        Some(())
    }

    /// Parses a type expression that must be complete (no inline placeholder).
    pub(super) fn complete_ref(&mut self, text: &str, at: &Location) -> Option<TypeRef> {
        match typeref::parse(text) {
            Ok(Parsed::Ref(ty)) => {
                self.refs.push((ty.clone(), at.clone()));
                Some(ty)
            }
            Ok(Parsed::Inline { .. }) => {
                self.diags
                    .error(at.clone(), format!("`{text}` needs an inline shape, which cannot be declared here"))
                    .hint("name a type declared under `types:`");
                None
            }
            Err(message) => {
                self.diags.error(at.clone(), message).hint(format!("a type is one of: {}", typeref::FORMS));
                None
            }
        }
    }

    pub(super) fn lower_enum(
        &mut self,
        name: &str,
        values: &[RawEnumValue],
        open: Option<bool>,
        origin: &Origin,
    ) -> Option<Enum> {
        let at = self.at(origin);
        let Some(open) = open else {
            self.diags
                .error(at, format!("enumeration `{name}` does not say whether it is `open`"))
                .hint("`open: true` when values beyond those listed may appear (record the gap), `open: false` when every value is listed");
            return None;
        };
        if values.is_empty() {
            self.diags.error(at, format!("enumeration `{name}` lists no value"));
            return None;
        }
        let integer = values[0].integer;
        if let Some(i) = values.iter().position(|v| v.integer != integer) {
            let at = self.at(&origin.key("enum").index(i));
            let (first, this) = if integer { ("integers", "a string") } else { ("strings", "an integer") };
            self.diags
                .error(at, format!("enumeration `{name}` lists {first}, and `{}` is {this}", values[i].value))
                .hint(
                    "an enumeration's values are all strings or all integers; quote a string that looks like a number",
                );
            return None;
        }
        let mut scope = Scope::new();
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        let mut lowered = Vec::new();
        for (i, value) in values.iter().enumerate() {
            let value_at = self.at(&origin.key("enum").index(i));
            if let Some(first) = seen.get(value.value.as_str()) {
                self.diags
                    .error(
                        value_at,
                        format!("enumeration `{name}` lists `{}` twice (items {first} and {i})", value.value),
                    )
                    .hint("remove the repeated value");
                continue;
            }
            seen.insert(&value.value, i);
            let rust = match (&value.rust_name, value.value.strip_prefix('-')) {
                (Some(name), _) => self.enum_rust_name(name, &value_at),
                // `N2` for 2 (as any name starting with a digit), `Minus2` for -2.
                (None, Some(magnitude)) if integer => format!("Minus{magnitude}"),
                (None, _) => sanitize(&value.value, Case::Pascal),
            };
            scope.claim(&rust, &format!("value `{}`", value.value), &value_at, self.diags);
            lowered.push(EnumValue {
                wire: value.value.clone(),
                rust,
                renamed: value.rust_name.is_some(),
                description: value.description.clone(),
            });
        }
        Some(Enum { values: lowered, open, fallback: fallback_name(&scope), integer })
    }

    /// An enumeration value's own `rust_name`: a variant name as written (a capital letter,
    /// then letters, digits and `_`), since it exists to tell apart names the wire values share.
    fn enum_rust_name(&mut self, name: &str, at: &Location) -> String {
        if !crate::model::names::is_variant_name(name) {
            self.diags.error(at.clone(), format!("`rust_name: {name}` is not a Rust variant name")).hint(format!(
                "write a capital letter, then letters, digits and `_`: `{}`",
                sanitize(name, Case::Pascal)
            ));
        }
        name.to_owned()
    }

    pub(super) fn lower_union(&mut self, name: &str, raw: &RawUnion, origin: &Origin) -> Union {
        if raw.variants.is_empty() {
            let at = self.at(origin);
            self.diags.error(at, format!("union `{name}` lists no variant"));
        }
        if raw.tag.as_deref() == Some("") {
            let at = self.at(&origin.key("tag"));
            self.diags.error(at, "the tag of a union cannot be empty");
        }
        let mut variants = Vec::new();
        for (i, text) in raw.variants.iter().enumerate() {
            let at = self.at(&origin.key("variants").index(i));
            let Some(ty) = self.complete_ref(text, &at) else {
                continue;
            };
            self.variant_at.insert((name.to_owned(), variants.len()), at);
            // Variant names are settled in `check_unions`, when tag values are known.
            variants.push(Variant { ty, tag_value: None, rust: String::new() });
        }
        Union { tag: raw.tag.clone(), variants, open: raw.open, fallback: String::new() }
    }

    pub(super) fn lower_constraints(&mut self, raw: &RawField, ty: &TypeRef, origin: &Origin) -> Constraints {
        let c = Constraints {
            min_length: raw.min_length,
            max_length: raw.max_length,
            pattern: raw.pattern.clone(),
            format: raw.format.as_deref().and_then(Format::parse),
            minimum: raw.minimum.clone(),
            maximum: raw.maximum.clone(),
            min_items: raw.min_items,
            max_items: raw.max_items,
            exact_items: raw.exact_items,
            unique_items: raw.unique_items,
            item: raw.item.as_ref().and_then(|item| self.lower_item_constraints(item, ty, origin)),
        };
        let is_list = matches!(ty, TypeRef::List(_));
        // A map counts its entries as a list its items (OpenAPI's `minProperties`).
        let counted = is_list || matches!(ty, TypeRef::Map(_));
        // Lengths and patterns check text: a date-time is checked as a date-time instead.
        let stringy = matches!(ty, TypeRef::String | TypeRef::Url) || self.is_string_enum(ty);
        let applies = [
            ("min_length", c.min_length.is_some(), stringy, "strings"),
            ("max_length", c.max_length.is_some(), stringy, "strings"),
            ("pattern", c.pattern.is_some(), stringy, "strings"),
            ("format", c.format.is_some(), stringy, "strings"),
            ("minimum", c.minimum.is_some(), ty.is_numeric(), "numbers"),
            ("maximum", c.maximum.is_some(), ty.is_numeric(), "numbers"),
            ("min_items", c.min_items.is_some(), counted, "lists and maps"),
            ("max_items", c.max_items.is_some(), counted, "lists and maps"),
            ("exact_items", c.exact_items.is_some(), is_list, "lists"),
            ("unique_items", c.unique_items, is_list, "lists"),
        ];
        // A named type lowered later (an inline enumeration of a later file) is checked then.
        let later = match ty {
            TypeRef::Named(name) if !stringy && !self.types.contains_key(name) => Some(name),
            _ => None,
        };
        for (key, set, fits, what) in applies {
            if set && !fits {
                let at = self.at(&origin.key(key));
                if let (Some(name), "strings") = (later, what) {
                    self.text_checks.push((name.clone(), key, at));
                    continue;
                }
                self.misplaced_constraint(at, key, what, ty);
            }
        }
        let mut order = |lo: Option<f64>, hi: Option<f64>, lo_key: &str, hi_key: &str| {
            if let (Some(lo), Some(hi)) = (lo, hi)
                && lo > hi
            {
                let at = self.at(&origin.key(hi_key));
                self.diags
                    .error(at, format!("`{lo_key}` ({lo}) is above `{hi_key}` ({hi})"))
                    .hint("no value could satisfy both; fix whichever is wrong");
            }
        };
        let as_f64 = |n: &Option<u64>| n.map(|n| n as f64);
        order(as_f64(&c.min_length), as_f64(&c.max_length), "min_length", "max_length");
        order(
            c.minimum.as_ref().and_then(Number::as_f64),
            c.maximum.as_ref().and_then(Number::as_f64),
            "minimum",
            "maximum",
        );
        order(as_f64(&c.min_items), as_f64(&c.max_items), "min_items", "max_items");
        if c.exact_items.is_some() && (c.min_items.is_some() || c.max_items.is_some()) {
            let at = self.at(&origin.key("exact_items"));
            self.diags.error(at, "`exact_items` cannot be combined with `min_items` or `max_items`");
        }
        if *ty == TypeRef::Integer {
            for (key, bound) in [("minimum", &c.minimum), ("maximum", &c.maximum)] {
                if bound.as_ref().is_some_and(|n| !n.is_i64()) {
                    let at = self.at(&origin.key(key));
                    self.diags.error(at, format!("`{key}` of an integer must be a whole number"));
                }
            }
        }
        if let Some(format) = raw.format.as_deref().filter(|f| Format::parse(f).is_none()) {
            let at = self.at(&origin.key("format"));
            let known: Vec<&str> = Format::ALL.iter().map(|f| f.as_str()).collect();
            self.diags
                .error(at, format!("`format: {format}` is not a format apigen checks"))
                .hint(format!("use one of {}; a date-time is `type: date-time`, a URL `type: url`", known.join(", ")));
        }
        if let Some(pattern) = &c.pattern
            && let Err(error) = crate::model::pattern::Engine::compile(pattern)
        {
            let at = self.at(&origin.key("pattern"));
            let first_line = error.lines().last().unwrap_or_default().trim().to_owned();
            self.diags.error(at, format!("the pattern `{pattern}` does not compile: {first_line}")).hint(
                "patterns use the syntax of the regex crate, plus look-around and backreferences (matched by a backtracking engine)",
            );
        }
        c
    }

    /// The constraints on each item of a list or each value of a map (`item:`), checked as a
    /// field's against the item type; `None` (with an error) on anything but a list or map of
    /// texts or numbers.
    fn lower_item_constraints(
        &mut self,
        item: &crate::load::raw::RawItemConstraints,
        ty: &TypeRef,
        origin: &Origin,
    ) -> Option<Box<Constraints>> {
        let origin = origin.key("item");
        let (TypeRef::List(inner) | TypeRef::Map(inner)) = ty else {
            let at = self.at(&origin);
            self.misplaced_constraint(at, "item", "lists and maps", ty);
            return None;
        };
        // Read as a field of the item's type would be, so every check of a field applies.
        let as_field = RawField {
            min_length: item.min_length,
            max_length: item.max_length,
            pattern: item.pattern.clone(),
            format: item.format.clone(),
            minimum: item.minimum.clone(),
            maximum: item.maximum.clone(),
            ..RawField::default()
        };
        Some(Box::new(self.lower_constraints(&as_field, inner, &origin)))
    }

    /// The text constraints deferred by [`Self::lower_constraints`], now that every type is
    /// lowered (a name lowered nowhere is reported by the reference check).
    pub(super) fn check_text_constraints(&mut self) {
        for (name, key, at) in std::mem::take(&mut self.text_checks) {
            let known = self.types.contains_key(&name);
            let ty = TypeRef::Named(name);
            if known && !self.is_string_enum(&ty) {
                self.misplaced_constraint(at, key, "strings", &ty);
            }
        }
    }

    fn misplaced_constraint(&mut self, at: Location, key: &str, what: &str, ty: &TypeRef) {
        self.diags
            .error(at, format!("`{key}` applies to {what}, and this is `{ty}`"))
            .hint("remove it, or move it to the type it constrains");
    }

    /// True when `ty` names an enumeration (declared or lifted so far).
    pub(super) fn is_string_enum(&self, ty: &TypeRef) -> bool {
        match ty {
            TypeRef::Named(name) => {
                self.raw_enums.contains(name.as_str())
                    || matches!(self.types.get(name).map(|t| &t.kind), Some(TypeKind::Enum(_)))
            }
            _ => false,
        }
    }

    /// A value the constraints make large cannot be invented for the generated tests and
    /// docs without making them large too: above these bounds the spec gives the sample.
    pub(super) fn check_sample_size(&mut self, constraints: &Constraints, origin: &Origin) {
        let items = constraints.exact_items.or(constraints.min_items).unwrap_or(0);
        // The samples repeat one invented item; unique items are told apart only by a sample.
        if constraints.unique_items && items > 1 {
            let key = if constraints.exact_items.is_some() { "exact_items" } else { "min_items" };
            let at = self.at(&origin.key(key));
            self.diags
                .error(at, format!("a list of at least {items} unique items needs a `sample`"))
                .hint("apigen invents one item and repeats it, which `unique_items` refuses; give the list's sample");
        }
        if items > sample::MAX_ITEMS {
            let key = if constraints.exact_items.is_some() { "exact_items" } else { "min_items" };
            let at = self.at(&origin.key(key));
            self.diags.error(at, format!("a list of at least {items} items needs a `sample`")).hint(format!(
                "apigen invents samples of at most {} items for the generated tests and docs; give one",
                sample::MAX_ITEMS
            ));
        }
        if let Some(length) = constraints.min_length.filter(|&length| length > sample::MAX_LENGTH) {
            let at = self.at(&origin.key("min_length"));
            self.diags.error(at, format!("a string of at least {length} characters needs a `sample`")).hint(format!(
                "apigen invents samples of at most {} characters for the generated tests and docs; give one",
                sample::MAX_LENGTH
            ));
        }
    }

    pub(super) fn queue_values(&mut self, raw: &RawField, ty: &TypeRef, constraints: &Constraints, origin: &Origin) {
        let compiles =
            constraints.pattern.as_deref().is_some_and(|p| crate::model::pattern::Engine::compile(p).is_ok());
        if compiles && raw.sample.is_none() && *ty == TypeRef::String && sample::fit_pattern(constraints).is_none() {
            let at = self.at(&origin.key("pattern"));
            self.diags.error(at, "a value with this `pattern` needs a `sample`").hint(
                "samples feed the generated tests and docs; apigen invents one for the common patterns (classes, repetitions, groups), not for this one (backreferences, word boundaries, a look-around the shortest walk does not meet, or a length its pattern cannot reach)",
            );
        }
        if raw.sample.is_none() {
            self.check_sample_size(constraints, origin);
        }
        if raw.default.as_ref().is_some_and(Value::is_null) {
            let at = self.at(&origin.key("default"));
            self.diags.error(at, "`default` is null").hint(
                "a default is the value of an absent field: drop `default: ~` (an optional field without one stays absent)",
            );
        }
        for (what, value) in [("default", &raw.default), ("sample", &raw.sample)] {
            if let Some(value) = value.as_ref().filter(|v| !(what == "default" && v.is_null())) {
                self.value_checks.push(ValueCheck {
                    value: value.clone(),
                    ty: ty.clone(),
                    constraints: constraints.clone(),
                    what,
                    at: self.at(&origin.key(what)),
                });
            }
        }
    }

    pub(super) fn use_gaps(&mut self, ids: &[String], element: &str, origin: &Origin) {
        for (i, id) in ids.iter().enumerate() {
            let at = self.at(&origin.key("gaps").index(i));
            self.gap_uses.push(GapUse { id: id.clone(), element: element.to_owned(), at });
        }
    }
}

/// True when a request body of type `ty` takes a `sample` of its own: any JSON, a list or a
/// map, which have no fields to hold samples, and text (a raw body's sample is its text, an
/// OAuth token request's `grant_type=refresh_token&...`).
pub(super) fn body_takes_sample(ty: &str) -> bool {
    ty == "json" || ty == "string" || ty.starts_with("list<") || ty.starts_with("map<")
}

/// True when `unknown_fields` says to drop a request's undeclared fields.
fn ignores(unknown: crate::load::raw::RawUnknownFields) -> bool {
    unknown == crate::load::raw::RawUnknownFields::Ignore
}
