//! Lowering of parameters, shared and inline.

use super::*;

impl Lowerer<'_> {
    pub(super) fn lower_shared_params(&mut self) {
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
    pub(super) fn lower_param(
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
            Some("header") => ParamIn::Header,
            Some("cookie") => ParamIn::Cookie,
            other => {
                let at = self.at(&origin.key("in"));
                let found = other.map_or("nothing".to_owned(), |o| format!("`{o}`"));
                self.diags
                    .error(at, format!("{element} is in {found}"))
                    .hint("set `in:` to `path`, `query`, `header` or `cookie`");
                return None;
            }
        };
        if matches!(location, ParamIn::Header | ParamIn::Cookie) && !is_token(wire) {
            let at = self.at(origin);
            self.diags
                .error(at, format!("{element} cannot be a {} name", location.as_str()))
                .hint("header and cookie names are HTTP tokens: letters, digits and `!#$%&'*+-.^_`|~`");
            return None;
        }
        // `Content-Type` is the body's, but an operation without one may ask for it (Walmart's
        // GETs require `Content-Type: application/json`): checked with the body, in
        // `check_content_type_param`.
        if location == ParamIn::Header && is_reserved_header(wire) && !wire.eq_ignore_ascii_case("content-type") {
            let at = self.at(origin);
            self.diags
                .error(at, format!("{element} is a header the generated code sets itself"))
                .hint("`Authorization` comes from `auth`, `Content-Type` and `Accept` from the body and response, `Cookie` from cookie parameters");
            return None;
        }
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
            (ParamIn::Query | ParamIn::Header | ParamIn::Cookie, required) => required.unwrap_or(false),
        };
        if raw.default.is_some() && required {
            let at = self.at(&origin.key("default"));
            self.diags
                .error(at, format!("{element} is required but has a default"))
                .hint("a default applies when the parameter is absent: drop `required: true` or the default");
        }
        if raw.description.is_none() {
            let at = self.at(origin);
            self.diags.warning(crate::diag::Lint::MissingDescription, at, format!("{element} has no description"));
        }
        if raw.allow_empty && location != ParamIn::Query {
            let at = self.at(&origin.key("allow_empty"));
            self.diags
                .error(at, format!("{element} is in the {}, where a value cannot be sent empty", location.as_str()))
                .hint("`allow_empty` is for query parameters (`limit=`); remove it");
        }
        self.queue_values(raw, &ty, &constraints, origin);
        let style = self.lower_style(raw, location, &ty, &element, origin);
        Some(Param {
            wire: wire.to_owned(),
            rust: self.rust_name_of(wire, raw, origin),
            location,
            ty,
            required,
            default: raw.default.clone(),
            sample: raw.sample.clone(),
            constraints,
            description: raw.description.clone(),
            gaps: raw.gaps.clone(),
            sensitive: raw.sensitive,
            style,
            // Settled with the operation's shapes, once every type is known.
            wire_form: ParamWire::default(),
            allow_empty: raw.allow_empty,
        })
    }

    /// How a parameter travels (`style`, `explode`): a query list as repeated keys (`form`,
    /// the default), or as one value delimited by commas (`form`, `explode: false`), spaces
    /// (`spaceDelimited`) or pipes (`pipeDelimited`); a path or header parameter is `simple`,
    /// a cookie `form`. What OpenAPI defines elsewhere (objects, `deepObject`, `label`,
    /// `matrix`) is refused with what the format holds.
    fn lower_style(
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
}

impl Lowerer<'_> {
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
}

/// An HTTP token (RFC 9110 `tchar`s): what a header or cookie name may hold.
pub(super) fn is_token(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// Headers the generated server and client set or read themselves, which a parameter may not
/// name (OpenAPI ignores such parameters; apigen says so).
pub(super) fn is_reserved_header(name: &str) -> bool {
    ["authorization", "content-type", "accept", "content-length", "cookie", "host", "transfer-encoding"]
        .contains(&name.to_ascii_lowercase().as_str())
}
