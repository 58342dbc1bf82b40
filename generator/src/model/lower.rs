//! Lowering: raw spec → validated [`Api`], with every semantic check.
//!
//! One pass declares names (so references may point forward and across files), one lowers
//! each entry, and the final passes check what needs the whole picture: references,
//! union tags and distinctness, list envelopes, defaults and samples against their types,
//! gap references. Every problem is recorded with its location and lowering goes on, so one
//! run lists them all. The result is `None` when any error was found.

use super::names::{self, Case, Scope, sanitize};
use super::typeref::{self, Parsed, Placeholder};
use super::*;
use crate::diag::{Diagnostics, Location};
use crate::spec::raw::*;
use crate::spec::{Entry, Origin, Spec};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Runtime names a generated enum or union may use for the variant that keeps what the spec
/// does not list, in order of preference.
const FALLBACK_NAMES: &[&str] = &["Unknown", "UnknownValue", "Unrecognized"];

/// Lowers a loaded spec. Returns `None` when an error was recorded.
pub fn lower(spec: &Spec, diags: &mut Diagnostics) -> Option<Api> {
    let mut lowerer = Lowerer::new(spec, diags);
    let api = lowerer.run();
    if lowerer.diags.has_errors() { None } else { api }
}

/// A reference to a gap from an element.
struct GapUse {
    id: String,
    element: String,
    at: Location,
}

/// A value (default or sample) to check once every type is known.
struct ValueCheck {
    value: Value,
    ty: TypeRef,
    constraints: Constraints,
    what: &'static str,
    at: Location,
}

struct Lowerer<'a> {
    spec: &'a Spec,
    diags: &'a mut Diagnostics,
    types: BTreeMap<String, TypeDef>,
    type_scope: Scope,
    /// Where each spec type name was declared, for duplicate reports.
    declared: BTreeMap<String, Location>,
    refs: Vec<(TypeRef, Location)>,
    gap_uses: Vec<GapUse>,
    value_checks: Vec<ValueCheck>,
    shared_params: BTreeMap<String, Param>,
    /// Where each union variant is listed, by union name and index.
    variant_at: BTreeMap<(String, usize), Location>,
    /// Names of the types the spec declares as enumerations (known before they are lowered).
    raw_enums: BTreeSet<&'a str>,
    /// The schemes of `api.auth` (set by `lower_api`).
    auth_schemes: Vec<AuthScheme>,
}

/// What a [`RawField`] is being read as.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Field,
    Param,
    Body,
}

impl<'a> Lowerer<'a> {
    fn new(spec: &'a Spec, diags: &'a mut Diagnostics) -> Self {
        Lowerer {
            spec,
            diags,
            types: BTreeMap::new(),
            type_scope: Scope::new(),
            declared: BTreeMap::new(),
            refs: Vec::new(),
            gap_uses: Vec::new(),
            value_checks: Vec::new(),
            shared_params: BTreeMap::new(),
            variant_at: BTreeMap::new(),
            raw_enums: spec.types.iter().filter(|t| t.value.enum_values.is_some()).map(|t| t.name.as_str()).collect(),
            auth_schemes: Vec::new(),
        }
    }

    fn at(&self, origin: &Origin) -> Location {
        self.spec.locate(origin)
    }

    fn run(&mut self) -> Option<Api> {
        let head = self.lower_api();
        let gaps = self.lower_gaps();
        let tags = self.lower_tags();
        let pagination = self.lower_pagination();
        self.declare_types();
        self.lower_shared_params();
        let spec = self.spec;
        for entry in &spec.types {
            let at = self.at(&entry.origin);
            if self.declared.get(&entry.name) == Some(&at) {
                self.lower_named_type(entry);
            }
        }
        self.check_file_modules();
        let mut operations = self.lower_operations(&tags, &pagination);
        settle_client_names(&mut operations);
        super::routes::check_routes(&operations, self.diags);
        if !self.check_refs() {
            return None; // The passes below need every reference to resolve to a lowered type.
        }
        if !self.check_finite() {
            return None; // Samples and boxing would recurse forever on a type with no value.
        }
        self.check_unions();
        self.check_envelopes(&operations);
        self.check_param_types(&operations);
        self.check_pagination_params(&pagination);
        self.mark_usage(&operations);
        self.mark_boxes();
        self.check_values();
        let gaps = self.resolve_gaps(gaps);
        let (name, title, version, description, source) = head?;
        Some(Api {
            name,
            title,
            version,
            description,
            source,
            tags,
            types: std::mem::take(&mut self.types),
            operations,
            gaps,
            pagination,
            auth_schemes: std::mem::take(&mut self.auth_schemes),
            spec_hash: self.spec.hash.clone(),
        })
    }

    // ---- api, gaps, tags, pagination ------------------------------------------------------

    #[allow(clippy::type_complexity)]
    fn lower_api(&mut self) -> Option<(String, String, String, Option<String>, Option<String>)> {
        let first = match self.spec.api.as_slice() {
            [] if self.spec.was_dropped("api", "api") => return None,
            [] => {
                let file = self.spec.files.first().map(|f| f.display.clone()).unwrap_or_default();
                self.diags
                    .error(Location::file(file), "no file declares `api:`")
                    .hint("add `api: { name, title, version }` to api.yaml");
                return None;
            }
            [first, rest @ ..] => {
                for extra in rest {
                    let at = self.at(&extra.origin);
                    let first_at = self.at(&first.origin);
                    self.diags
                        .error(at, format!("`api` is declared again; it was declared at {first_at}"))
                        .hint("keep one `api:` section, in api.yaml");
                }
                first
            }
        };
        let api = &first.value;
        if !super::valid_crate_prefix(&api.name) {
            let at = self.at(&first.origin.key("name"));
            self.diags
                .error(at, format!("`{}` cannot prefix a crate name", api.name))
                .hint("use lower-case letters, digits and dashes, starting with a letter (`docs-api`)");
        }
        let spec = self.spec;
        let auth_origin = first.origin.key("auth");
        let at = |keys: &[&str]| spec.locate(&keys.iter().fold(auth_origin.clone(), |o, k| o.key(*k)));
        self.auth_schemes = super::auth::lower_schemes(api.auth.as_ref(), at, self.diags);
        Some((api.name.clone(), api.title.clone(), api.version.clone(), api.description.clone(), api.source.clone()))
    }

    fn lower_gaps(&mut self) -> BTreeMap<String, (Gap, Location)> {
        let mut gaps: BTreeMap<String, (Gap, Location)> = BTreeMap::new();
        let spec = self.spec;
        for entry in &spec.gaps {
            let at = self.at(&entry.origin);
            if let Some((_, first)) = gaps.get(&entry.name) {
                self.diags
                    .error(at, format!("gap `{}` is declared twice; first at {first}", entry.name))
                    .hint("gap ids are shared by every file; rename one");
                continue;
            }
            for (key, text) in
                [("source", &entry.value.source), ("gap", &entry.value.gap), ("decision", &entry.value.decision)]
            {
                if text.trim().is_empty() {
                    let at = self.at(&entry.origin.key(key));
                    self.diags.error(at, format!("gap `{}` has an empty `{key}`", entry.name));
                }
            }
            let gap = Gap {
                id: entry.name.clone(),
                source: entry.value.source.clone(),
                gap: entry.value.gap.clone(),
                decision: entry.value.decision.clone(),
                used_by: Vec::new(),
            };
            gaps.insert(entry.name.clone(), (gap, at));
        }
        gaps
    }

    fn lower_tags(&mut self) -> Vec<Tag> {
        let mut tags: Vec<Tag> = Vec::new();
        let mut scope = Scope::new();
        let mut seen: BTreeMap<String, Location> = BTreeMap::new();
        let spec = self.spec;
        for entry in &spec.tags {
            let at = self.at(&entry.origin);
            if let Some(first) = seen.get(&entry.name) {
                self.diags.error(at, format!("tag `{}` is declared twice; first at {first}", entry.name));
                continue;
            }
            seen.insert(entry.name.clone(), at.clone());
            let rust = names::module_name(&entry.name);
            scope.claim(&rust, &format!("tag `{}`", entry.name), &at, self.diags);
            tags.push(Tag {
                name: entry.name.clone(),
                title: entry.value.title.clone(),
                description: entry.value.description.clone(),
                source: entry.value.source.clone(),
                rust,
                rust_type: sanitize(&entry.name, Case::Pascal),
            });
        }
        tags
    }

    /// Each file declaring types becomes a module of the types crate, named by its stem: two
    /// stems that give one module name (`a/x.yaml` and `b/x.yaml`) would overwrite each other.
    fn check_file_modules(&mut self) {
        let mut modules: BTreeMap<String, String> = BTreeMap::new();
        let declaring: BTreeSet<usize> = self.spec.types.iter().map(|entry| entry.origin.file).collect();
        for file in declaring {
            let display = &self.spec.files[file].display;
            let module = names::file_module(display);
            match modules.get(&module) {
                Some(first) => {
                    let message =
                        format!("the types of this file would go in module `{module}`, which holds those of {first}");
                    self.diags
                        .error(Location::file(display), message)
                        .hint("rename one of the files: a spec file's name names the module of its types");
                }
                None => {
                    modules.insert(module, display.clone());
                }
            }
        }
    }

    fn lower_pagination(&mut self) -> Pagination {
        let Some((first, rest)) = self.spec.pagination.split_first() else {
            return Pagination::default();
        };
        for extra in rest {
            let at = self.at(&extra.origin);
            self.diags.error(at, "`pagination` is declared again").hint("keep one, in api.yaml");
        }
        for (i, id) in first.value.gaps.iter().enumerate() {
            let at = self.at(&first.origin.key("gaps").index(i));
            self.gap_uses.push(GapUse { id: id.clone(), element: "the list convention".into(), at });
        }
        if !first.value.params.contains(&first.value.cursor) {
            let at = self.at(&first.origin.key("cursor"));
            self.diags
                .error(at, format!("the cursor `{}` is not one of `params`", first.value.cursor))
                .hint("the cursor is the parameter that takes `next.page`, listed in `params`");
        }
        Pagination {
            params: first.value.params.clone(),
            cursor: first.value.cursor.clone(),
            gaps: first.value.gaps.clone(),
            description: first.value.description.clone(),
        }
    }

    // ---- types ----------------------------------------------------------------------------

    /// Records every named type before any is lowered, so references may point anywhere.
    fn declare_types(&mut self) {
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

    fn lower_named_type(&mut self, entry: &Entry<RawType>) {
        let raw = &entry.value;
        let origin = &entry.origin;
        let at = self.at(origin);
        let kinds = [
            raw.fields.is_some() || raw.additional_properties.is_some(),
            raw.enum_values.is_some(),
            raw.union.is_some(),
        ];
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
                let object = self.lower_object(&entry.name, fields, raw.additional_properties.as_deref(), origin);
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
            self.diags.warning(at, format!("type `{}` has no description", entry.name));
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

    fn lower_object(
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
            let rust = sanitize(wire, Case::Snake);
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
        Object { fields: lowered, additional }
    }

    fn lower_field(
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
            self.diags.warning(at, format!("{element} has no description"));
        }
        if raw.default.is_some() && !raw.optional {
            let at = self.at(&origin.key("default"));
            self.diags
                .error(at, format!("{element} is required but has a default"))
                .hint("a default applies when the field is absent: add `optional: true` or drop the default");
        }
        self.queue_values(raw, &ty, &constraints, origin);
        Some(Field {
            wire: wire.to_owned(),
            rust,
            ty,
            optional: raw.optional,
            nullable: raw.nullable,
            default: raw.default.clone(),
            sample: raw.sample.clone(),
            constant: None,
            constraints,
            sensitive: raw.sensitive,
            description: raw.description.clone(),
            gaps: raw.gaps.clone(),
            boxed: false,
        })
    }

    fn lower_const_field(
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
            ("default", raw.default.is_some()),
            ("fields", raw.fields.is_some()),
            ("enum", raw.enum_values.is_some()),
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
            default: None,
            sample: Some(Value::String(constant.to_owned())),
            constant: Some(constant.to_owned()),
            constraints: Constraints::default(),
            sensitive: false,
            description: raw.description.clone(),
            gaps: raw.gaps.clone(),
            boxed: false,
        }
    }

    /// Reports keys that make no sense for what the raw field is being read as.
    fn reject_misplaced(&mut self, raw: &RawField, role: Role, origin: &Origin) {
        let checks: [(&str, bool, &str); 7] = [
            ("name", raw.name.is_some() && role != Role::Param, "`name` names inline parameters"),
            ("in", raw.location.is_some() && role != Role::Param, "`in` belongs to parameters"),
            ("required", raw.required.is_some() && role != Role::Param, "fields are required unless `optional: true`"),
            ("optional", raw.optional && role == Role::Param, "parameters are optional unless `required: true`"),
            ("nullable", raw.nullable && role != Role::Field, "only object fields may be null"),
            ("const", raw.constant.is_some() && role != Role::Field, "only object fields hold constants"),
            ("sensitive", raw.sensitive && role == Role::Body, "mark the sensitive field of the body type instead"),
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
            let value_keys = [("default", raw.default.is_some()), ("sample", raw.sample.is_some())];
            for (key, present) in value_keys {
                if present {
                    let at = self.at(&origin.key(key));
                    self.diags
                        .error(at, format!("`{key}` is not allowed on a request body"))
                        .hint("put it on the fields of the body type");
                }
            }
        }
    }

    /// Resolves the type of a field, parameter or body, lifting an inline object or
    /// enumeration to a named type (`type_name` or `derived`).
    fn lower_value_type(&mut self, raw: &RawField, derived: &str, inline_of: &str, origin: &Origin) -> Option<TypeRef> {
        let at = self.at(origin);
        let inline_object = raw.fields.is_some() || raw.additional_properties.is_some();
        let inline_enum = raw.enum_values.is_some();
        if raw.open.is_some() && !inline_enum {
            let at = self.at(&origin.key("open"));
            self.diags.error(at, "`open` belongs to inline enumerations (next to `enum`)");
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
                    Placeholder::Object => TypeKind::Object(self.lower_object(
                        &name,
                        raw.fields.as_ref(),
                        raw.additional_properties.as_deref(),
                        origin,
                    )),
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

    fn add_inline_type(
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
    fn complete_ref(&mut self, text: &str, at: &Location) -> Option<TypeRef> {
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

    fn lower_enum(&mut self, name: &str, values: &[RawEnumValue], open: Option<bool>, origin: &Origin) -> Option<Enum> {
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
            let rust = sanitize(&value.value, Case::Pascal);
            scope.claim(&rust, &format!("value `{}`", value.value), &value_at, self.diags);
            lowered.push(EnumValue { wire: value.value.clone(), rust, description: value.description.clone() });
        }
        Some(Enum { values: lowered, open, fallback: fallback_name(&scope) })
    }

    fn lower_union(&mut self, name: &str, raw: &RawUnion, origin: &Origin) -> Union {
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

    fn lower_constraints(&mut self, raw: &RawField, ty: &TypeRef, origin: &Origin) -> Constraints {
        let c = Constraints {
            min_length: raw.min_length,
            max_length: raw.max_length,
            pattern: raw.pattern.clone(),
            minimum: raw.minimum.clone(),
            maximum: raw.maximum.clone(),
            min_items: raw.min_items,
            max_items: raw.max_items,
            exact_items: raw.exact_items,
        };
        let is_list = matches!(ty, TypeRef::List(_));
        let stringy = ty.is_stringy() || self.is_string_enum(ty);
        let applies = [
            ("min_length", c.min_length.is_some(), stringy, "strings"),
            ("max_length", c.max_length.is_some(), stringy, "strings"),
            ("pattern", c.pattern.is_some(), stringy, "strings"),
            ("minimum", c.minimum.is_some(), ty.is_numeric(), "numbers"),
            ("maximum", c.maximum.is_some(), ty.is_numeric(), "numbers"),
            ("min_items", c.min_items.is_some(), is_list, "lists"),
            ("max_items", c.max_items.is_some(), is_list, "lists"),
            ("exact_items", c.exact_items.is_some(), is_list, "lists"),
        ];
        for (key, set, fits, what) in applies {
            if set && !fits {
                let at = self.at(&origin.key(key));
                self.diags
                    .error(at, format!("`{key}` applies to {what}, and this is `{ty}`"))
                    .hint("remove it, or move it to the type it constrains");
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
        if let Some(pattern) = &c.pattern
            && let Err(error) = regex_lite::Regex::new(pattern)
        {
            let at = self.at(&origin.key("pattern"));
            let first_line = error.to_string().lines().last().unwrap_or_default().trim().to_owned();
            self.diags
                .error(at, format!("the pattern `{pattern}` does not compile: {first_line}"))
                .hint("patterns use the syntax of the regex crate (no look-around, no backreferences)");
        }
        c
    }

    /// True when `ty` names an enumeration (declared or lifted so far).
    fn is_string_enum(&self, ty: &TypeRef) -> bool {
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
    fn check_sample_size(&mut self, constraints: &Constraints, origin: &Origin) {
        let items = constraints.exact_items.or(constraints.min_items).unwrap_or(0);
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

    fn queue_values(&mut self, raw: &RawField, ty: &TypeRef, constraints: &Constraints, origin: &Origin) {
        let compiles = constraints.pattern.as_deref().is_some_and(|p| regex_lite::Regex::new(p).is_ok());
        if compiles && raw.sample.is_none() {
            let at = self.at(&origin.key("pattern"));
            self.diags.error(at, "a value with a `pattern` needs a `sample`").hint(
                "samples feed the generated tests and docs, and no generator can invent a string matching any pattern",
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

    fn use_gaps(&mut self, ids: &[String], element: &str, origin: &Origin) {
        for (i, id) in ids.iter().enumerate() {
            let at = self.at(&origin.key("gaps").index(i));
            self.gap_uses.push(GapUse { id: id.clone(), element: element.to_owned(), at });
        }
    }

    // ---- parameters -----------------------------------------------------------------------

    fn lower_shared_params(&mut self) {
        let spec = self.spec;
        for entry in &spec.parameters {
            if entry.value.name.is_some() {
                let at = self.at(&entry.origin.key("name"));
                self.diags.error(at, "a shared parameter is named by its key; remove `name`");
            }
            let derived = sanitize(&entry.name, Case::Pascal);
            if let Some(param) = self.lower_param(&entry.name, None, &entry.value, &derived, &entry.origin) {
                self.shared_params.insert(entry.name.clone(), param);
            }
        }
    }

    /// Lowers a parameter; `op` names the operation of an inline one (shared ones have none).
    fn lower_param(
        &mut self,
        wire: &str,
        op: Option<&str>,
        raw: &RawField,
        derived: &str,
        origin: &Origin,
    ) -> Option<Param> {
        self.reject_misplaced(raw, Role::Param, origin);
        let element = match op {
            Some(op) => format!("parameter `{wire}` of `{op}`"),
            None => format!("parameter `{wire}`"),
        };
        self.use_gaps(&raw.gaps, &element, origin);
        let location = match raw.location.as_deref() {
            Some("path") => ParamIn::Path,
            Some("query") => ParamIn::Query,
            other => {
                let at = self.at(&origin.key("in"));
                let found = other.map_or("nothing".to_owned(), |o| format!("`{o}`"));
                self.diags.error(at, format!("{element} is in {found}")).hint("set `in: path` or `in: query`");
                return None;
            }
        };
        let ty = if raw.ty.is_none() && location == ParamIn::Path && raw.enum_values.is_none() {
            TypeRef::String // Path parameters are strings unless the spec says otherwise.
        } else {
            self.lower_value_type(raw, derived, &element, origin)?
        };
        let constraints = self.lower_constraints(raw, &ty, origin);
        let required = match (location, raw.required) {
            (ParamIn::Path, Some(false)) => {
                let at = self.at(&origin.key("required"));
                self.diags.error(at, format!("path {element} cannot be optional"));
                true
            }
            (ParamIn::Path, _) => true,
            (ParamIn::Query, required) => required.unwrap_or(false),
        };
        if raw.default.is_some() && required {
            let at = self.at(&origin.key("default"));
            self.diags
                .error(at, format!("{element} is required but has a default"))
                .hint("a default applies when the parameter is absent: drop `required: true` or the default");
        }
        if raw.description.is_none() {
            let at = self.at(origin);
            self.diags.warning(at, format!("{element} has no description"));
        }
        self.queue_values(raw, &ty, &constraints, origin);
        Some(Param {
            wire: wire.to_owned(),
            rust: sanitize(wire, Case::Snake),
            location,
            ty,
            required,
            default: raw.default.clone(),
            sample: raw.sample.clone(),
            constraints,
            description: raw.description.clone(),
            gaps: raw.gaps.clone(),
            sensitive: raw.sensitive,
        })
    }

    // ---- operations -----------------------------------------------------------------------

    fn lower_operations(&mut self, tags: &[Tag], pagination: &Pagination) -> Vec<Operation> {
        let mut operations = Vec::new();
        let mut seen: BTreeMap<String, Location> = BTreeMap::new();
        let mut scope = Scope::new();
        // Each operation also names a client builder (`<Name>Builder`); the client crate's
        // own builder takes one of those names.
        let mut builders = Scope::reserving(&["ClientBuilder"], "the client's own builder");
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
            let builder = format!("{rust_type}Builder");
            if !builders.claim(&builder, &format!("the client builder of operation `{}`", entry.name), &at, self.diags)
            {
                continue;
            }
            if let Some(op) = self.lower_operation(entry, rust_type, tags, pagination) {
                operations.push(op);
            }
        }
        operations
    }

    fn lower_operation(
        &mut self,
        entry: &Entry<RawOperation>,
        rust_type: String,
        tags: &[Tag],
        pagination: &Pagination,
    ) -> Option<Operation> {
        let raw = &entry.value;
        let origin = &entry.origin;
        let name = &entry.name;
        let element = format!("operation `{name}`");
        self.use_gaps(&raw.gaps, &element, origin);
        self.use_gaps(&raw.response.gaps, &element, &origin.key("response"));

        let method = match raw.method.as_str() {
            "GET" => Some(Method::Get),
            "POST" => Some(Method::Post),
            "PUT" => Some(Method::Put),
            "PATCH" => Some(Method::Patch),
            "DELETE" => Some(Method::Delete),
            other => {
                let at = self.at(&origin.key("method"));
                self.diags
                    .error(at, format!("`{other}` is not a method apigen supports"))
                    .hint("use GET, POST, PUT, PATCH or DELETE, in capitals");
                None
            }
        };
        let path = match PathTemplate::parse(&raw.path) {
            Ok(path) => Some(path),
            Err(message) => {
                let at = self.at(&origin.key("path"));
                self.diags.error(at, message);
                None
            }
        };
        let file_tag = self.spec.files[origin.file].tag.clone();
        let tag = match raw.tag.clone().or(file_tag) {
            Some(tag) if tags.iter().any(|t| t.name == tag) => Some(tag),
            Some(tag) if self.spec.was_dropped("tags", &tag) => None,
            Some(tag) => {
                let at = self.at(&origin.key("tag"));
                let known: Vec<&str> = tags.iter().map(|t| t.name.as_str()).collect();
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
        };
        let response = self.lower_response(name, &rust_type, &raw.response, &origin.key("response"));
        let params =
            self.lower_operation_params(name, &rust_type, raw, path.as_ref(), response.as_ref(), pagination, origin);
        let body =
            raw.body.as_ref().and_then(|body| self.lower_body(name, &rust_type, body, method, &origin.key("body")));
        for (i, error) in raw.errors.iter().enumerate() {
            if !(400..=599).contains(&error.status) {
                let at = self.at(&origin.key("errors").index(i).key("status"));
                self.diags.error(at, format!("failure status {} is not a 4xx or 5xx code", error.status));
            }
        }
        let auth = super::auth::resolve(
            raw.auth.as_deref(),
            &self.auth_schemes,
            || self.spec.locate(&origin.key("auth")),
            self.diags,
        );
        let (method, path, tag, response, params, auth) = (method?, path?, tag?, response?, params?, auth?);
        let mut gaps = raw.gaps.clone();
        gaps.extend(raw.response.gaps.iter().cloned());
        Some(Operation {
            name: name.clone(),
            rust: super::names::method_name(name),
            client: String::new(), // Settled per tag once every operation is known.
            rust_type,
            tag,
            method,
            path,
            summary: raw.summary.clone(),
            description: raw.description.clone(),
            source: raw.source.clone(),
            params,
            body: body.map(|(ty, optional)| Body {
                ty,
                optional,
                description: raw.body.as_ref().and_then(|b| b.description.clone()),
            }),
            response,
            errors: raw.errors.iter().map(|e| ErrorCase { status: e.status, when: e.when.clone() }).collect(),
            deprecated: raw
                .deprecated
                .as_ref()
                .map(|d| Deprecated { replacement: d.replacement.clone(), note: d.note.clone() }),
            auth,
            gaps,
            origin: self.at(origin),
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn lower_operation_params(
        &mut self,
        op: &str,
        op_type: &str,
        raw: &RawOperation,
        path: Option<&PathTemplate>,
        response: Option<&Response>,
        pagination: &Pagination,
        origin: &Origin,
    ) -> Option<Vec<Param>> {
        let mut declared: Vec<(Param, Origin)> = Vec::new();
        let mut ok = true;
        for (i, entry) in raw.params.iter().enumerate() {
            let param_origin = origin.key("params").index(i);
            match entry {
                RawParam::Shared(name) => {
                    if pagination.params.contains(name)
                        && matches!(response.map(|r| &r.body), Some(ResponseBody::Page { .. }))
                    {
                        let at = self.at(&param_origin);
                        self.diags
                            .error(at, format!("`{name}` is added to every paginated operation by `pagination.params`"))
                            .hint("remove it from this list");
                        ok = false;
                        continue;
                    }
                    match self.shared_params.get(name) {
                        Some(param) => declared.push((param.clone(), param_origin)),
                        None if self.spec.was_dropped("parameters", name) => ok = false,
                        None => {
                            let at = self.at(&param_origin);
                            let known = self.shared_params.keys().map(String::as_str);
                            let hint = suggest(name, known).unwrap_or_else(|| {
                                "declare it under `parameters:` in api.yaml, or define it inline".into()
                            });
                            self.diags.error(at, format!("`{name}` is not a shared parameter")).hint(hint);
                            ok = false;
                        }
                    }
                }
                RawParam::Inline(field) => {
                    let Some(wire) = field.name.clone() else {
                        let at = self.at(&param_origin);
                        self.diags.error(at, "an inline parameter needs a `name`");
                        ok = false;
                        continue;
                    };
                    let derived = format!("{op_type}{}", sanitize(&wire, Case::Pascal));
                    match self.lower_param(&wire, Some(op), field, &derived, &param_origin) {
                        Some(param) => declared.push((param, param_origin)),
                        None => ok = false,
                    }
                }
            }
        }
        if matches!(response.map(|r| &r.body), Some(ResponseBody::Page { .. })) {
            for name in &pagination.params {
                if let Some(param) = self.shared_params.get(name) {
                    declared.push((param.clone(), origin.key("response")));
                }
            }
        }
        // Each name once; query names distinct from path names.
        let mut seen: BTreeMap<String, (ParamIn, usize)> = BTreeMap::new();
        let mut scope = Scope::reserving(&["body"], "the request body");
        for (i, (param, param_origin)) in declared.iter().enumerate() {
            let at = self.at(param_origin);
            if let Some((first_in, first)) = seen.get(&param.wire) {
                let message = match (first_in, param.location) {
                    (ParamIn::Path, ParamIn::Query) | (ParamIn::Query, ParamIn::Path) => {
                        format!("query parameter `{}` repeats a path parameter of `{op}`", param.wire)
                    }
                    _ => format!("parameter `{}` of `{op}` is declared twice (items {first} and {i})", param.wire),
                };
                self.diags.error(at, message).hint("declare each parameter once");
                ok = false;
                continue;
            }
            seen.insert(param.wire.clone(), (param.location, i));
            ok &= scope.claim(&param.rust, &format!("parameter `{}`", param.wire), &at, self.diags);
        }
        if let Some(path) = path {
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
            for (param, param_origin) in &declared {
                if param.location == ParamIn::Path && !in_path.contains(param.wire.as_str()) {
                    let at = self.at(param_origin);
                    self.diags
                        .error(at, format!("path parameter `{}` is missing from the path `{}`", param.wire, path.raw))
                        .hint("add it to the path, or make it a query parameter");
                    ok = false;
                }
            }
            // Path parameters in path order, then query parameters in declared order.
            let mut params: Vec<Param> = Vec::new();
            for name in path.params() {
                if let Some((param, _)) = declared.iter().find(|(p, _)| p.location == ParamIn::Path && p.wire == name)
                    && !params.iter().any(|p| p.wire == param.wire)
                {
                    params.push(param.clone());
                }
            }
            params.extend(declared.iter().filter(|(p, _)| p.location == ParamIn::Query).map(|(p, _)| p.clone()));
            return ok.then_some(params);
        }
        None
    }

    fn lower_body(
        &mut self,
        op: &str,
        op_type: &str,
        raw: &RawField,
        method: Option<Method>,
        origin: &Origin,
    ) -> Option<(TypeRef, bool)> {
        self.reject_misplaced(raw, Role::Body, origin);
        if let Some(method @ (Method::Get | Method::Delete)) = method {
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
        Some((ty, raw.optional))
    }

    fn lower_response(&mut self, op: &str, op_type: &str, raw: &RawResponse, origin: &Origin) -> Option<Response> {
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
            let name = raw.type_name.clone().unwrap_or_else(|| format!("{op_type}Response"));
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
            (ResponseBody::Empty, status) if status != 204 && !raw.empty => {
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
        let also = self.lower_also_statuses(raw, &body, origin);
        Some(Response { status: raw.status, also, description: raw.description.clone(), body })
    }

    /// The other success statuses a handler may choose: 2xx, each once, and bodiless as the
    /// default is (one body type serves them all, so 204 goes only with a bodiless default).
    fn lower_also_statuses(&mut self, raw: &RawResponse, body: &ResponseBody, origin: &Origin) -> Vec<u16> {
        let mut also = Vec::new();
        for (i, &status) in raw.also.iter().enumerate() {
            let at = self.at(&origin.key("also").index(i));
            if !(200..=299).contains(&status) {
                self.diags
                    .error(at, format!("success status {status} is not a 2xx code"))
                    .hint("failures go under `errors:`");
            } else if status == raw.status || also.contains(&status) {
                self.diags.error(at, format!("status {status} is declared twice")).hint("list each status once");
            } else if status == 204 && !matches!(body, ResponseBody::Empty) {
                self.diags
                    .error(at, "status 204 has no body, and this response has one")
                    .hint("every status of `also` answers the same body as `status`");
            } else {
                also.push(status);
            }
        }
        also
    }

    // ---- whole-picture checks -------------------------------------------------------------

    /// Reports references to undeclared types. True when every reference reaches a type that
    /// was lowered (a declared type may have failed to lower, with its own error).
    fn check_refs(&mut self) -> bool {
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
    fn check_unions(&mut self) {
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
    fn tag_value(&mut self, ty: &TypeRef, tag: &str, union: &str, at: &Location) -> Option<String> {
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
    fn check_distinct(&mut self, union: &str, def: &Union, at: &Location) {
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

    fn shape(&self, ty: &TypeRef) -> Shape {
        match ty {
            TypeRef::String | TypeRef::DateTime | TypeRef::Url => Shape::String(None),
            TypeRef::Integer => Shape::Integer,
            TypeRef::Number => Shape::Number,
            TypeRef::Boolean => Shape::Boolean,
            TypeRef::Json => Shape::Any,
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

    fn check_envelopes(&mut self, operations: &[Operation]) {
        for op in operations {
            let ResponseBody::Page { item, envelope: Some(envelope) } = &op.response.body else {
                continue;
            };
            let def = &self.types[envelope];
            let problem = match &def.kind {
                TypeKind::Object(object) => match object.field("items") {
                    Some(f) if f.ty == TypeRef::List(Box::new(item.clone())) && !f.optional => {
                        let page_of = |next: &Field| match &next.ty {
                            TypeRef::Named(n) => match &self.types[n].kind {
                                TypeKind::Object(o) => o.field("page").map(|p| p.ty == TypeRef::String && !p.optional),
                                _ => None,
                            },
                            _ => None,
                        };
                        match object.field("next") {
                            Some(next) if next.optional && page_of(next) == Some(true) => None,
                            _ => Some("an optional field `next` holding a required string `page`".to_owned()),
                        }
                    }
                    _ => Some(format!("a required field `items` of type `list<{item}>`")),
                },
                _ => Some("to be an object".to_owned()),
            };
            if let Some(needs) = problem {
                self.diags
                    .error(op.origin.clone(), format!("the envelope `{envelope}` of `{}` needs {needs}", op.name))
                    .hint(
                        "an envelope has the fields of the standard list (`next`, `count`, `items`) and adds its own",
                    );
            }
        }
    }

    fn check_param_types(&mut self, operations: &[Operation]) {
        let mut checked: BTreeSet<(String, String)> = BTreeSet::new();
        for op in operations {
            for param in &op.params {
                if !checked.insert((op.name.clone(), param.wire.clone())) {
                    continue;
                }
                let scalar = |ty: &TypeRef, types: &BTreeMap<String, TypeDef>| match ty {
                    TypeRef::Named(n) => matches!(types[n].kind, TypeKind::Enum(_)),
                    TypeRef::Json | TypeRef::List(_) | TypeRef::Map(_) => false,
                    _ => true,
                };
                let fits = match (&param.ty, param.location) {
                    (TypeRef::List(inner), ParamIn::Query) => scalar(inner, &self.types),
                    (ty, _) => scalar(ty, &self.types),
                };
                if !fits {
                    self.diags
                        .error(op.origin.clone(), format!("parameter `{}` of `{}` has type `{}`, which cannot travel in a {}", param.wire, op.name, param.ty, if param.location == ParamIn::Path { "path" } else { "query string" }))
                        .hint("parameters are scalars or enumerations; a query parameter may also be a list of those (repeated keys)");
                }
            }
        }
    }

    fn check_pagination_params(&mut self, pagination: &Pagination) {
        for name in &pagination.params {
            match self.shared_params.get(name) {
                Some(p) if p.location == ParamIn::Query && !p.required => {}
                Some(_) => {
                    let at = Location::file(
                        self.spec
                            .pagination
                            .first()
                            .map(|p| self.spec.files[p.origin.file].display.clone())
                            .unwrap_or_default(),
                    );
                    self.diags.error(at, format!("pagination parameter `{name}` must be an optional query parameter"));
                }
                None => {
                    let first = &self.spec.pagination[0];
                    let at = self.at(&first.origin.key("params"));
                    self.diags
                        .error(at, format!("pagination parameter `{name}` is not a shared parameter"))
                        .hint("declare it under `parameters:`");
                }
            }
        }
    }

    /// Marks each type with the directions it travels, from request bodies and parameters
    /// (input) and responses (output). A type no operation reaches counts as output: it
    /// describes a resource.
    fn mark_usage(&mut self, operations: &[Operation]) {
        let mut input = Vec::new();
        let mut output = Vec::new();
        for op in operations {
            if let Some(body) = &op.body {
                input.push(body.ty.clone());
            }
            input.extend(op.params.iter().map(|p| p.ty.clone()));
            match &op.response.body {
                ResponseBody::Empty => {}
                ResponseBody::Value(ty) => output.push(ty.clone()),
                ResponseBody::Page { item, envelope } => {
                    output.push(item.clone());
                    output.extend(envelope.iter().map(|e| TypeRef::Named(e.clone())));
                }
            }
        }
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

    fn reachable(&self, roots: &[TypeRef]) -> BTreeSet<String> {
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
    fn children(&self, name: &str) -> Vec<TypeRef> {
        match &self.types[name].kind {
            TypeKind::Object(o) => o.fields.iter().map(|f| f.ty.clone()).chain(o.additional.clone()).collect(),
            TypeKind::Union(u) => u.variants.iter().map(|v| v.ty.clone()).collect(),
            TypeKind::Enum(_) => Vec::new(),
        }
    }

    /// Reports every type with no finite value and records the depth of the others.
    fn check_finite(&mut self) -> bool {
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
    fn mark_boxes(&mut self) {
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

    fn check_values(&mut self) {
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

    fn resolve_gaps(&mut self, gaps: BTreeMap<String, (Gap, Location)>) -> BTreeMap<String, Gap> {
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

/// Client method names: short (`get`) where no other operation of the tag ends up with the
/// same name, the full method name otherwise.
fn settle_client_names(operations: &mut [Operation]) {
    let candidates: Vec<String> = operations
        .iter()
        .map(|op| super::names::short_method_name(&op.name, &op.tag).unwrap_or_else(|| op.rust.clone()))
        .collect();
    for i in 0..operations.len() {
        let clash = (0..operations.len()).any(|j| {
            j != i
                && operations[j].tag == operations[i].tag
                && (candidates[j] == candidates[i] || operations[j].rust == candidates[i])
        });
        operations[i].client = if clash { operations[i].rust.clone() } else { candidates[i].clone() };
    }
}

/// The Rust name of an untagged variant: the type's name without the union's name in front
/// (`CommentBodyMarkdown` in `CommentBody` gives `Markdown`), or the JSON kind.
fn untagged_variant_name(union: &str, ty: &TypeRef, types: &BTreeMap<String, TypeDef>) -> String {
    match ty {
        TypeRef::Named(name) => {
            let rust = &types[name].rust;
            match rust.strip_prefix(union) {
                Some(rest) if rest.starts_with(|c: char| c.is_ascii_uppercase()) => rest.to_owned(),
                _ => rust.clone(),
            }
        }
        TypeRef::List(_) => "List".into(),
        TypeRef::Map(_) => "Map".into(),
        other => sanitize(&other.to_string(), Case::Pascal),
    }
}

/// What JSON an untagged variant accepts while a union chooses.
enum Shape {
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
fn overlap(a: &Shape, b: &Shape) -> Option<String> {
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

/// Checks a JSON value (a default or a sample) against a type and constraints.
struct ValueChecker<'a> {
    types: &'a BTreeMap<String, TypeDef>,
}

impl ValueChecker<'_> {
    fn check(&self, value: &Value, ty: &TypeRef, c: &Constraints, at: &str) -> Result<(), String> {
        let here = if at.is_empty() { String::new() } else { format!(" at {at}") };
        let wrong = |expected: &str| Err(format!("expected {expected}{here}, found {value}"));
        match (ty, value) {
            (TypeRef::Json, _) => Ok(()),
            (TypeRef::String | TypeRef::Url, Value::String(s)) => check_string(s, c, &here),
            (TypeRef::DateTime, Value::String(s)) => {
                if is_rfc3339(s) {
                    Ok(())
                } else {
                    Err(format!("`{s}` is not an RFC 3339 date-time{here}"))
                }
            }
            (TypeRef::Integer, Value::Number(n)) if n.is_i64() => check_range(n, c, &here),
            (TypeRef::Number, Value::Number(n)) => check_range(n, c, &here),
            (TypeRef::Boolean, Value::Bool(_)) => Ok(()),
            (TypeRef::List(inner), Value::Array(items)) => {
                check_items(items.len(), c, &here)?;
                for (i, item) in items.iter().enumerate() {
                    self.check(item, inner, &Constraints::default(), &format!("{at}/{i}"))?;
                }
                Ok(())
            }
            (TypeRef::Map(inner), Value::Object(map)) => {
                for (key, item) in map {
                    self.check(item, inner, &Constraints::default(), &format!("{at}/{key}"))?;
                }
                Ok(())
            }
            (TypeRef::Named(name), _) => self.check_named(value, name, c, at, &here),
            (TypeRef::String | TypeRef::Url | TypeRef::DateTime, _) => wrong("a string"),
            (TypeRef::Integer, _) => wrong("an integer"),
            (TypeRef::Number, _) => wrong("a number"),
            (TypeRef::Boolean, _) => wrong("a boolean"),
            (TypeRef::List(_), _) => wrong("a list"),
            (TypeRef::Map(_), _) => wrong("an object"),
        }
    }

    fn check_named(&self, value: &Value, name: &str, c: &Constraints, at: &str, here: &str) -> Result<(), String> {
        match (&self.types[name].kind, value) {
            (TypeKind::Enum(e), Value::String(s)) => {
                if !e.open && !e.values.iter().any(|v| &v.wire == s) {
                    return Err(format!("`{s}` is not a value of `{name}`{here}"));
                }
                check_string(s, c, here)
            }
            (TypeKind::Object(o), Value::Object(map)) => {
                for field in &o.fields {
                    match map.get(&field.wire) {
                        None if !field.optional => {
                            return Err(format!("the field `{}` is missing{here}", field.wire));
                        }
                        None => {}
                        Some(Value::Null) if field.nullable => {}
                        Some(v) => {
                            if let Some(constant) = &field.constant
                                && v.as_str() != Some(constant)
                            {
                                return Err(format!("`{}` must be `{constant}`{here}", field.wire));
                            }
                            self.check(v, &field.ty, &field.constraints, &format!("{at}/{}", field.wire))?;
                        }
                    }
                }
                for (key, v) in map {
                    if o.field(key).is_none() {
                        match &o.additional {
                            Some(ty) => self.check(v, ty, &Constraints::default(), &format!("{at}/{key}"))?,
                            None => return Err(format!("`{name}` has no field `{key}`{here}")),
                        }
                    }
                }
                Ok(())
            }
            (TypeKind::Union(u), _) => {
                let mut reasons = Vec::new();
                for variant in &u.variants {
                    match self.check(value, &variant.ty, &Constraints::default(), at) {
                        Ok(()) => return Ok(()),
                        Err(reason) => reasons.push(format!("{}: {reason}", variant.ty)),
                    }
                }
                if u.open && value.is_object() {
                    return Ok(());
                }
                Err(format!("no variant of `{name}` fits{here} ({})", reasons.join("; ")))
            }
            (TypeKind::Enum(_), _) => Err(format!("expected a string{here}, found {value}")),
            (TypeKind::Object(_), _) => Err(format!("expected an object{here}, found {value}")),
        }
    }
}

fn check_string(s: &str, c: &Constraints, here: &str) -> Result<(), String> {
    let len = s.chars().count() as u64;
    if let Some(min) = c.min_length
        && len < min
    {
        return Err(format!("`{s}` is shorter than {min} characters{here}"));
    }
    if let Some(max) = c.max_length
        && len > max
    {
        return Err(format!("`{s}` is longer than {max} characters{here}"));
    }
    if let Some(pattern) = &c.pattern
        && let Ok(re) = regex_lite::Regex::new(pattern)
        && !re.is_match(s)
    {
        return Err(format!("`{s}` does not match `{pattern}`{here}"));
    }
    Ok(())
}

fn check_range(n: &Number, c: &Constraints, here: &str) -> Result<(), String> {
    let v = n.as_f64().unwrap_or(f64::NAN);
    if c.minimum.as_ref().and_then(Number::as_f64).is_some_and(|min| v < min) {
        return Err(format!("{n} is below the minimum{here}"));
    }
    if c.maximum.as_ref().and_then(Number::as_f64).is_some_and(|max| v > max) {
        return Err(format!("{n} is above the maximum{here}"));
    }
    Ok(())
}

fn check_items(len: usize, c: &Constraints, here: &str) -> Result<(), String> {
    let len = len as u64;
    let fits = c.min_items.is_none_or(|m| len >= m)
        && c.max_items.is_none_or(|m| len <= m)
        && c.exact_items.is_none_or(|m| len == m);
    if fits { Ok(()) } else { Err(format!("{len} items do not fit the item count{here}")) }
}

/// `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`, the form RFC 3339 gives.
pub fn is_rfc3339(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |range: std::ops::Range<usize>| b.get(range.clone()).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    let fixed = b.len() >= 20
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && matches!(b[10], b'T' | b't')
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19);
    if !fixed {
        return false;
    }
    let mut rest = &s[19..];
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    match rest.as_bytes() {
        [b'Z' | b'z'] => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] => [h1, h2, m1, m2].iter().all(|d| d.is_ascii_digit()),
        _ => false,
    }
}

/// "did you mean" for a misspelled name: the closest known name within a small distance.
fn suggest<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Option<String> {
    let limit = (name.len() / 3).max(2);
    known
        .map(|k| (edit_distance(&name.to_lowercase(), &k.to_lowercase()), k))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, k)| format!("did you mean `{k}`?"))
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let current = row[j + 1];
            row[j + 1] = (previous + usize::from(ca != *cb)).min(row[j] + 1).min(current + 1);
            previous = current;
        }
    }
    row[b.len()]
}

/// The first of [`FALLBACK_NAMES`] that no listed variant took.
fn fallback_name(scope: &Scope) -> String {
    FALLBACK_NAMES.iter().find(|n| !scope.contains(n)).copied().unwrap_or("UnknownVariant").to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_forms() {
        for ok in ["2024-01-01T00:00:00Z", "2024-01-01T00:00:00.123Z", "2024-01-01T00:00:00+02:00"] {
            assert!(is_rfc3339(ok), "{ok}");
        }
        for bad in ["2024-01-01", "2024-01-01 00:00:00Z", "2024-01-01T00:00:00", "2024-01-01T00:00:00.Z", "x"] {
            assert!(!is_rfc3339(bad), "{bad}");
        }
    }

    #[test]
    fn suggestions_find_near_misses_only() {
        let known = ["Collection", "Space", "Organization"];
        assert_eq!(suggest("Colection", known.iter().copied()), Some("did you mean `Collection`?".into()));
        assert_eq!(suggest("Widget", known.iter().copied()), None);
    }
}
