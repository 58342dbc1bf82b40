//! How a parameter may travel, checked in one place: its style as the spec writes it
//! (`style`, `explode`, `media_type`), while the parameter is lowered, at those keys'
//! locations (`lower_style`); then that style against its type, once every type is lowered
//! (`check_param_types`: what a path, a query, a header or a cookie can carry, and how a
//! query object travels). What passes here is what `lower/shapes.rs` settles into each
//! parameter's [`ParamWire`], which the emitters read.

use super::*;

impl Lowerer<'_> {
    /// How a parameter travels (`style`, `explode`): a query list as repeated keys (`form`,
    /// the default), or as one value delimited by commas (`form`, `explode: false`), spaces
    /// (`spaceDelimited`) or pipes (`pipeDelimited`); a path or header parameter is `simple`,
    /// a cookie `form`. What OpenAPI defines elsewhere (objects, `deepObject`, `label`,
    /// `matrix`) is refused with what the format holds.
    pub(super) fn lower_style(
        &mut self,
        raw: &RawField,
        location: ParamIn,
        ty: &TypeRef,
        element: &str,
        origin: &Origin,
    ) -> ParamStyle {
        if let Some(media) = &raw.media_type {
            return self.lower_json_param(raw, location, &media.0, element, origin);
        }
        if raw.style.is_none() && raw.explode.is_none() {
            return ParamStyle::Default;
        }
        let list = matches!(ty, TypeRef::List(_));
        // An object or a map (told from an enumeration once types are lowered: see
        // `check_object_param`).
        let composite = matches!(ty, TypeRef::Named(_) | TypeRef::Map(_));
        let style = raw.style.as_deref();
        let (explode_default, held) = match (location, style) {
            (ParamIn::Query, None | Some("form")) => (true, true),
            (ParamIn::Query, Some("spaceDelimited" | "pipeDelimited")) => (false, list),
            (ParamIn::Query, Some("deepObject")) => (true, list || composite),
            (ParamIn::Path | ParamIn::Header, None | Some("simple")) => (false, true),
            // A scalar after a dot or after its name (`.5`, `;id=5`): explode changes nothing.
            (ParamIn::Path, Some("label" | "matrix")) => (false, !list),
            (ParamIn::Cookie, None | Some("form")) => (true, true),
            _ => (false, false),
        };
        let at = self.at(&origin.key(if raw.style.is_some() { "style" } else { "explode" }));
        let found = style.unwrap_or("the default style");
        if !held {
            let allowed = match location {
                ParamIn::Query => {
                    "`form` (a list as repeated keys, or with `explode: false` one comma-separated value; an object's fields as parameters), `spaceDelimited`, `pipeDelimited` or `deepObject` (lists and objects: `name[]=a`, `name[field]=a`)"
                }
                ParamIn::Path => "`simple`, or for a scalar `label` (`.5`) or `matrix` (`;id=5`)",
                ParamIn::Header => "`simple`",
                ParamIn::Cookie => "`form`",
            };
            self.diags
                .error(at, format!("{element} cannot travel as `{found}` in the {}", location.as_str()))
                .hint(format!("a {} parameter's style is {allowed}", location.as_str()));
            return ParamStyle::Default;
        }
        let explode = raw.explode.unwrap_or(explode_default);
        match (location, style) {
            (ParamIn::Query, Some("spaceDelimited")) | (ParamIn::Query, Some("pipeDelimited")) if explode => {
                self.diags
                    .error(at, format!("{element} is `{found}` and exploded, which is repeated keys"))
                    .hint("drop `explode: true`, or write `style: form` for repeated keys");
                ParamStyle::Default
            }
            (ParamIn::Query, Some("deepObject")) if !explode => {
                self.diags
                    .error(at, format!("{element} is `deepObject` and not exploded, which OpenAPI leaves undefined"))
                    .hint("drop `explode: false`");
                ParamStyle::Default
            }
            (ParamIn::Query, Some("deepObject")) => ParamStyle::Brackets,
            (ParamIn::Path, Some("label")) => ParamStyle::Label,
            (ParamIn::Path, Some("matrix")) => ParamStyle::Matrix,
            (ParamIn::Query, Some("spaceDelimited")) => ParamStyle::Space,
            (ParamIn::Query, Some("pipeDelimited")) => ParamStyle::Pipe,
            (ParamIn::Query, _) if (list || composite) && !explode => ParamStyle::Comma,
            // A `simple` list is comma-separated exploded or not; a cookie holds what it holds.
            _ => ParamStyle::Default,
        }
    }

    /// A parameter written in a media type (OpenAPI's `content`): one JSON media type, in the
    /// query or a header, with no `style` (its value is one JSON text).
    fn lower_json_param(
        &mut self,
        raw: &RawField,
        location: ParamIn,
        media: &[String],
        element: &str,
        origin: &Origin,
    ) -> ParamStyle {
        let at = self.at(&origin.key("media_type"));
        let json = matches!(media, [one] if crate::model::Encoding::of(one) == crate::model::Encoding::Json);
        if !json {
            self.diags.error(at, format!("{element} is written as `{}`", media.join("`, `"))).hint(
                "a parameter's media type is one JSON media type (`application/json`): its value travels as JSON text",
            );
        } else if !matches!(location, ParamIn::Query | ParamIn::Header) {
            self.diags
                .error(at, format!("{element} is written as JSON in the {}", location.as_str()))
                .hint("a parameter written as JSON travels in the query or a header");
        } else if raw.style.is_some() || raw.explode.is_some() {
            let at = self.at(&origin.key(if raw.style.is_some() { "style" } else { "explode" }));
            self.diags
                .error(at, format!("{element} is written as JSON and has a style"))
                .hint("drop `style` and `explode`: a JSON value travels as one text");
        }
        ParamStyle::Json
    }

    /// The types of every operation's parameters against where and how they travel.
    pub(super) fn check_param_types(&mut self, operations: &[Operation]) {
        let mut checked: BTreeSet<(String, String)> = BTreeSet::new();
        for op in operations {
            for param in &op.params {
                if !checked.insert((op.name.clone(), param.wire.clone())) {
                    continue;
                }
                let scalar = |ty: &TypeRef, types: &BTreeMap<String, TypeDef>| match ty {
                    TypeRef::Named(n) => matches!(types[n].kind, TypeKind::Enum(_)),
                    TypeRef::Json | TypeRef::List(_) | TypeRef::Map(_) | TypeRef::Bytes | TypeRef::File => false,
                    _ => true,
                };
                if param.style == ParamStyle::Json {
                    if self.holds_bytes(&param.ty) {
                        self.diags
                            .error(
                                op.origin.clone(),
                                format!(
                                    "parameter `{}` of `{}` is written as JSON but holds files or raw bytes",
                                    param.wire, op.name
                                ),
                            )
                            .hint("keep files in a multipart body");
                    }
                    continue;
                }
                if param.location == ParamIn::Query && self.object_like(&param.ty) {
                    self.check_object_param(op, param);
                    continue;
                }
                let fits = match (&param.ty, param.location) {
                    // A path list is one segment of comma-separated items (`/users/1,2`: `simple`).
                    (TypeRef::List(inner), ParamIn::Query | ParamIn::Header | ParamIn::Path) => {
                        scalar(inner, &self.types)
                    }
                    // A path segment holds one scalar of a union's (`integer` or `string`).
                    (ty, ParamIn::Path) if self.union_of(ty, |v| self.form_scalar(v)) => true,
                    (ty, _) => scalar(ty, &self.types),
                };
                if fits && param.style == ParamStyle::Brackets && !matches!(param.ty, TypeRef::List(_)) {
                    self.diags
                        .error(op.origin.clone(), format!("parameter `{}` of `{}` is `deepObject`, but its type `{}` is neither a list nor an object", param.wire, op.name, param.ty))
                        .hint("drop `style: deepObject`: a scalar travels as `name=value`");
                }
                if !fits {
                    self.diags
                        .error(op.origin.clone(), format!("parameter `{}` of `{}` has type `{}`, which cannot travel in a {}", param.wire, op.name, param.ty, param.location.as_str()))
                        .hint("parameters are scalars or enumerations; a query or header parameter may also be a list of those (repeated keys, comma-separated values), a query parameter an object, a map or a union (`style: deepObject`, or `style: form` for an object of scalars), and a path parameter a list of scalars (comma-separated) or a union of scalars");
                }
            }
        }
    }

    /// Whether `ty` is an object or a map: what a query parameter may be beyond scalars and
    /// lists.
    fn object_like(&self, ty: &TypeRef) -> bool {
        match ty {
            TypeRef::Map(_) => true,
            TypeRef::Named(n) => {
                matches!(self.types.get(n).map(|t| &t.kind), Some(TypeKind::Object(_) | TypeKind::Union(_)))
            }
            _ => false,
        }
    }

    /// Whether `ty` is a union whose every variant passes `fits`.
    fn union_of(&self, ty: &TypeRef, fits: impl Fn(&TypeRef) -> bool) -> bool {
        match ty {
            TypeRef::Named(n) => match self.types.get(n).map(|t| &t.kind) {
                Some(TypeKind::Union(union)) => union.variants.iter().all(|v| fits(&v.ty)),
                _ => false,
            },
            _ => false,
        }
    }

    /// An object query parameter travels in one of two ways. In brackets (`style:
    /// deepObject`: `filter[status]=open`), it is an object or a map holding anything but
    /// files and raw bytes, at any depth (as a form of nested values). Exploded (`style:
    /// form`, the default: `status=open&limit=2`), it is an object of scalars and lists of
    /// scalars, whose field names no other query parameter of the operation takes (a request
    /// could not tell them apart). A map exploded, or an object as one comma-separated value
    /// (`explode: false`), is refused.
    fn check_object_param(&mut self, op: &Operation, param: &Param) {
        let element = format!("query parameter `{}` of `{}`", param.wire, op.name);
        let problem = match (param.style, &param.ty) {
            (ParamStyle::Brackets, ty) if self.holds_bytes(ty) => {
                Some(("holds files or raw bytes, which a query cannot carry".to_owned(), "keep files in a multipart body".to_owned()))
            }
            (ParamStyle::Brackets, _) => None,
            // A union travels under its name: `created=5`, or in brackets when it is `deepObject`.
            (ParamStyle::Default, ty) if self.union_of(ty, |_| true) => {
                let scalar = |t: &TypeRef| match t {
                    TypeRef::List(inner) => self.form_scalar(inner),
                    other => self.form_scalar(other),
                };
                (!self.union_of(ty, scalar)).then(|| {
                    (
                        "is a union exploded into the query (`style: form`) whose variants are not all scalars or lists of scalars".to_owned(),
                        "send it in brackets: `style: deepObject` (`name=5` or `name[field]=value`)".to_owned(),
                    )
                })
            }
            (ParamStyle::Default, TypeRef::Named(name)) => self.exploded_object_problem(op, param, name),
            (ParamStyle::Default, _) => Some((
                "is a map exploded into the query (`style: form`), whose keys could be any parameter's".to_owned(),
                "send it in brackets: `style: deepObject` (`name[key]=value`)".to_owned(),
            )),
            (_, _) => Some((
                "is an object sent as one delimited value, which apigen does not write".to_owned(),
                "an object parameter is `style: deepObject` (`name[field]=value`) or `style: form`, exploded (each field a parameter)".to_owned(),
            )),
        };
        if let Some((problem, hint)) = problem {
            self.diags.error(op.origin.clone(), format!("{element} {problem}")).hint(hint);
        }
    }

    /// Why the object `name` cannot be exploded into the query of `op` (each field a query
    /// parameter of its own), with a hint; `None` when it can.
    fn exploded_object_problem(&self, op: &Operation, param: &Param, name: &str) -> Option<(String, String)> {
        let TypeKind::Object(object) = &self.types[name].kind else { return None };
        let flat = |ty: &TypeRef| match ty {
            TypeRef::List(inner) => self.form_scalar(inner),
            other => self.form_scalar(other),
        };
        let deep_hint = || "send it in brackets: `style: deepObject` (`name[field]=value`)".to_owned();
        if object.additional.is_some() {
            return Some(("is exploded into the query (`style: form`) but keeps keys beyond its fields, which could be any parameter's".to_owned(), deep_hint()));
        }
        if let Some(field) = object.fields.iter().find(|f| !flat(&f.ty)) {
            return Some((
                format!(
                    "is exploded into the query (`style: form`), but its field `{}` is `{}`: each field is a parameter, a scalar or a list of scalars",
                    field.wire, field.ty
                ),
                deep_hint(),
            ));
        }
        let taken = |wire: &str| {
            let other = op
                .params_in(ParamIn::Query)
                .filter(|p| !std::ptr::eq(*p, param))
                .find(|p| p.wire == wire || self.exploded_fields(p).iter().any(|f| f == wire));
            other.map(|p| p.wire.clone()).or_else(|| {
                op.select.iter().find(|s| s.location == SelectIn::Query && s.name == wire).map(|s| s.name.clone())
            })
        };
        object.fields.iter().find_map(|f| taken(&f.wire).map(|other| (f, other))).map(|(field, other)| {
            (
                format!("is exploded into the query (`style: form`), and its field `{}` is also query parameter `{other}` (or its field)", field.wire),
                deep_hint(),
            )
        })
    }

    /// The query names an exploded object parameter takes (its fields); none for others.
    fn exploded_fields(&self, param: &Param) -> Vec<String> {
        match (&param.ty, param.style) {
            (TypeRef::Named(n), ParamStyle::Default) => match self.types.get(n).map(|t| &t.kind) {
                Some(TypeKind::Object(o)) => o.fields.iter().map(|f| f.wire.clone()).collect(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    /// Whether `ty` is written in a form as one value: a scalar or an enumeration.
    fn form_scalar(&self, ty: &TypeRef) -> bool {
        crate::model::form_scalar(&self.types, ty)
    }
}
