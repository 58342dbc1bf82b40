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
