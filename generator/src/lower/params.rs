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
}
