//! Lowering of what is global: `api`, gaps, tags, pagination.

use super::*;

/// The longest `api.title`, `api.version` and `api.name` (a crate name's limit on crates.io).
pub const MAX_TITLE: usize = 200;
/// The longest `api.version`.
pub const MAX_VERSION: usize = 64;
const MAX_NAME: usize = 64;

impl Lowerer<'_> {
    #[allow(clippy::type_complexity)]
    pub(super) fn lower_api(
        &mut self,
    ) -> Option<(String, String, String, Option<String>, Option<String>, BTreeMap<String, serde_json::Value>)> {
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
        self.ignore_unknown = api.unknown_fields == Some(crate::load::raw::RawUnknownFields::Ignore);
        if !super::valid_crate_prefix(&api.name) {
            let at = self.at(&first.origin.key("name"));
            self.diags
                .error(at, format!("`{}` cannot prefix a crate name", api.name))
                .hint("use lower-case letters, digits and dashes, starting with a letter (`docs-api`)");
        }
        // The title, version and name are in the header of every generated file: a long one
        // would be written a hundred times over.
        for (key, text, limit) in
            [("title", &api.title, MAX_TITLE), ("version", &api.version, MAX_VERSION), ("name", &api.name, MAX_NAME)]
        {
            let length = text.chars().count();
            if length > limit {
                let at = self.at(&first.origin.key(key));
                self.diags
                    .error(at, format!("`api.{key}` is {length} characters long; at most {limit} are allowed"))
                    .hint("it is repeated in the header of every generated file: put the rest in `description`");
            }
        }
        let spec = self.spec;
        let auth_origin = first.origin.key("auth");
        let at = |keys: &[&str]| spec.locate(&keys.iter().fold(auth_origin.clone(), |o, k| o.key(*k)));
        self.auth_schemes = super::auth::lower_schemes(api.auth.as_ref(), at, self.diags);
        let servers_origin = first.origin.key("servers");
        self.servers = super::servers::lower_servers(&api.servers, &servers_origin, |o| spec.locate(o), self.diags);
        if let Some(errors) = &api.errors {
            let origin = first.origin.key("errors");
            self.errors = (self.lower_error_convention(errors, &origin), Some(origin));
        }
        let extensions = self.lower_extensions(&api.extensions, &first.origin.key("extensions"));
        Some((
            api.name.clone(),
            api.title.clone(),
            api.version.clone(),
            api.description.clone(),
            api.source.clone(),
            extensions,
        ))
    }

    /// `api.extensions`: `x-<name>` or `info.x-<name>` keys, none of those apigen's export
    /// writes itself.
    fn lower_extensions(
        &mut self,
        raw: &indexmap::IndexMap<String, serde_json::Value>,
        origin: &crate::load::Origin,
    ) -> BTreeMap<String, serde_json::Value> {
        const WRITTEN: [&str; 4] = ["info.x-api-name", "info.x-generated-by", "x-gaps", "x-pagination"];
        let mut kept = BTreeMap::new();
        for (key, value) in raw {
            let name = key.strip_prefix("info.").unwrap_or(key);
            if !name.starts_with("x-") || name.len() == 2 {
                let at = self.at(&origin.key(key.as_str()));
                self.diags
                    .error(at, format!("extension `{key}` is not an OpenAPI extension"))
                    .hint("name it `x-<name>` (the document's root) or `info.x-<name>` (its `info`)");
            } else if WRITTEN.contains(&key.as_str()) {
                let at = self.at(&origin.key(key.as_str()));
                self.diags
                    .error(at, format!("extension `{key}` is written by apigen's export itself"))
                    .hint("remove it: the export writes it from the spec");
            } else {
                kept.insert(key.clone(), value.clone());
            }
        }
        kept
    }

    pub(super) fn lower_gaps(&mut self) -> BTreeMap<String, (Gap, Location)> {
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

    pub(super) fn lower_tags(&mut self) -> Vec<Tag> {
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
            if rust.len() > names::MAX_MODULE_NAME {
                self.diags
                    .error(
                        at.clone(),
                        format!(
                            "tag `{}` is {} characters long as a module name; at most {} are allowed",
                            entry.name,
                            rust.len(),
                            names::MAX_MODULE_NAME
                        ),
                    )
                    .hint("the tag names a module, a file and a cargo feature: shorten it (its `title` may be long)");
            }
            scope.claim(&rust, &format!("tag `{}`", entry.name), &at, self.diags);
            tags.push(Tag {
                name: entry.name.clone(),
                title: entry.value.title.clone(),
                description: entry.value.description.clone(),
                source: entry.value.source.clone(),
                rust,
                rust_type: sanitize(&entry.name, Case::Pascal),
                names: TagNames::of(&entry.name),
                origin: at,
                operations: Vec::new(),
            });
        }
        tags
    }

    /// Each file declaring types becomes a module of the types crate, named by its stem: two
    /// stems that give one module name (`a/x.yaml` and `b/x.yaml`) would overwrite each other.
    pub(super) fn check_file_modules(&mut self) {
        let mut modules: BTreeMap<String, String> = BTreeMap::new();
        // Operations' inline bodies, answers and headers go in the module of their file too.
        let declaring: BTreeSet<usize> = self
            .spec
            .types
            .iter()
            .map(|entry| entry.origin.file)
            .chain(self.spec.operations.iter().map(|entry| entry.origin.file))
            .collect();
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

    pub(super) fn lower_pagination(&mut self) -> Pagination {
        let Some((first, rest)) = self.spec.pagination.split_first() else {
            return Pagination::default();
        };
        for extra in rest {
            let at = self.at(&extra.origin);
            self.diags.error(at, "`pagination` is declared again").hint("keep one, in api.yaml");
        }
        self.lower_pagination_convention(&first.value, &first.origin)
    }

    /// A list convention (`api.yaml`'s `pagination`, or an operation's own): its style and
    /// the pointers it needs, checked as far as they can be before types are lowered.
    pub(super) fn lower_pagination_convention(&mut self, raw: &RawPagination, origin: &Origin) -> Pagination {
        if !raw.params.contains(&raw.cursor) {
            let at = self.at(&origin.key("cursor"));
            self.diags
                .error(at, format!("the cursor `{}` is not one of `params`", raw.cursor))
                .hint("the cursor is the parameter that takes the next page's position, listed in `params`");
        }
        let mut pointer = |key: &str, value: &Option<String>, default: &str, empty_ok: bool| {
            let value = value.clone().unwrap_or_else(|| default.to_owned());
            if !(value.starts_with('/') || value.is_empty() && empty_ok) {
                let at = self.at(&origin.key(key));
                self.diags.error(at, format!("`{value}` is not a JSON pointer into the page's body")).hint(
                    "write the path from the root, `/items` or `/data/items` (`\"\"` for a body that is the list)",
                );
            }
            value
        };
        let items = pointer("items", &raw.items, "/items", true);
        let style = match raw.style.as_deref().unwrap_or("cursor") {
            "cursor" => PageStyle::Cursor { next: pointer("next", &raw.next, "/next/page", false) },
            "has-more" => PageStyle::HasMore {
                has_more: pointer("has_more", &raw.has_more, "/has_more", false),
                item_id: pointer("item_id", &raw.item_id, "/id", false),
            },
            "offset" => PageStyle::Offset,
            "page" => PageStyle::Page,
            "link" => PageStyle::Link,
            other => {
                let at = self.at(&origin.key("style"));
                self.diags
                    .error(at, format!("`{other}` is not a pagination style"))
                    .hint("use `cursor`, `has-more`, `offset`, `page` or `link`");
                PageStyle::Cursor { next: "/next/page".into() }
            }
        };
        let misplaced = [
            ("next", raw.next.is_some() && !matches!(style, PageStyle::Cursor { .. })),
            ("has_more", raw.has_more.is_some() && !matches!(style, PageStyle::HasMore { .. })),
            ("item_id", raw.item_id.is_some() && !matches!(style, PageStyle::HasMore { .. })),
        ];
        for (key, _) in misplaced.iter().filter(|(_, set)| *set) {
            let at = self.at(&origin.key(*key));
            self.diags.error(at, format!("`{key}` does not apply to the `{}` style", style.as_str()));
        }
        if items.is_empty() && matches!(style, PageStyle::Cursor { .. } | PageStyle::HasMore { .. }) {
            let at = self.at(&origin.key("items"));
            self.diags
                .error(at, format!("a `{}` page is an object holding the items, not the list itself", style.as_str()))
                .hint("point `items` at the list in the body");
        }
        for (i, id) in raw.gaps.iter().enumerate() {
            let at = self.at(&origin.key("gaps").index(i));
            self.gap_uses.push(GapUse { id: id.clone(), element: "the list convention".into(), at });
        }
        Pagination {
            params: raw.params.clone(),
            cursor: raw.cursor.clone(),
            gaps: raw.gaps.clone(),
            description: raw.description.clone(),
            style,
            items,
        }
    }

    /// `api.errors` as far as it can be checked before types are lowered: the type is a
    /// reference, the pointers are JSON pointers, the media type is JSON; and each of its
    /// `bodies` so.
    fn lower_error_convention(&mut self, raw: &RawErrors, origin: &Origin) -> ErrorConvention {
        let places = raw.places();
        let Some(ty) = &raw.ty else {
            // The built-in envelope, in the media type given (an API answering its errors as
            // `application/problem+json` in a body apigen cannot point into).
            let media_type = self.error_media_type(&places, origin);
            let given = [
                ("status", raw.status.is_some()),
                ("message", raw.message.is_some()),
                ("code", raw.code.is_some()),
                ("violations", raw.violations.is_some()),
                ("violation", raw.violation.is_some()),
                ("fill", raw.fill.is_some()),
            ];
            for (key, _) in given.into_iter().filter(|(_, given)| *given) {
                let at = self.at(&origin.key(key));
                self.diags
                    .error(at, format!("`{key}` points into an error body `type` names, and there is none"))
                    .hint("name the error body's type, or remove the key to keep the built-in body");
            }
            let bodies = self.lower_error_bodies(raw, origin);
            return ErrorConvention { media_type, bodies, ..ErrorConvention::default() };
        };
        let mut convention = self.lower_error_places(ty, &places, origin, &origin.key("type"));
        convention.bodies = self.lower_error_bodies(raw, origin);
        convention
    }

    /// `api.errors.bodies`, each entry lowered as `api.errors` is.
    fn lower_error_bodies(&mut self, raw: &RawErrors, origin: &Origin) -> BTreeMap<String, ErrorConvention> {
        let mut bodies = BTreeMap::new();
        for (name, places) in raw.bodies.iter().flatten() {
            let at = origin.key("bodies").key(name);
            let convention = self.lower_error_places(name, places, &at, &at);
            if let Some(ty) = convention.ty.clone() {
                bodies.insert(ty, convention);
            }
        }
        bodies
    }

    /// The media type of an error body, which must be JSON.
    fn error_media_type(&mut self, places: &RawErrorBody, origin: &Origin) -> String {
        let media_type = places.media_type.clone().unwrap_or_else(|| "application/json".into());
        if !is_json_media_type(&media_type) {
            let at = self.at(&origin.key("media_type"));
            self.diags
                .error(at, format!("`{media_type}` is not a JSON media type"))
                .hint("error bodies are JSON: `application/json`, or `application/<something>+json`");
        }
        media_type
    }

    /// The convention of the error body of type `ty` (located at `type_at`) with these places.
    fn lower_error_places(
        &mut self,
        ty: &str,
        places: &RawErrorBody,
        origin: &Origin,
        type_at: &Origin,
    ) -> ErrorConvention {
        let media_type = self.error_media_type(places, origin);
        let ty = match self.complete_ref(ty, &self.at(type_at)) {
            Some(TypeRef::Named(name)) => Some(name),
            Some(other) => {
                let at = self.at(type_at);
                self.diags
                    .error(at, format!("the error body is a named object type, not `{other}`"))
                    .hint("declare an object type for it under `types:`");
                None
            }
            None => None,
        };
        // `""` (the whole body) only as the message: the body has no place for one.
        let mut pointer = |key: &str, value: &Option<String>, whole: bool| {
            let value = value.clone()?;
            let fits = value.starts_with('/') || (whole && value.is_empty());
            if !fits {
                let at = self.at(&origin.key(key));
                self.diags
                    .error(at, format!("`{value}` is not a JSON pointer into the error body"))
                    .hint("write the path from the root, `/message` or `/error/message`");
                return None;
            }
            Some(value)
        };
        let status = pointer("status", &places.status, false);
        // No message: the body has no place for one.
        let message = pointer("message", &places.message, true).unwrap_or_default();
        let code = pointer("code", &places.code, false);
        let violations = pointer("violations", &places.violations, false);
        // Values are the fields' samples, settled once types are lowered.
        let fill = places
            .fill
            .iter()
            .flatten()
            .filter_map(|p| pointer("fill", &Some(p.clone()), false))
            .map(|p| (p, Value::Null));
        let fill = fill.collect();
        let keys = places.violation.as_ref();
        ErrorConvention {
            ty,
            media_type,
            status,
            message,
            code,
            violations,
            violation_path: keys.and_then(|k| k.path.clone()).unwrap_or_else(|| "path".into()),
            violation_message: keys.and_then(|k| k.message.clone()).unwrap_or_else(|| "message".into()),
            fill,
            bodies: BTreeMap::new(),
        }
    }
}

/// `application/json`, `application/<x>+json` or `text/json` (what every JSON-reading tool
/// takes as JSON).
pub(super) fn is_json_media_type(media_type: &str) -> bool {
    let essence = media_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence == "application/json"
        || essence == "text/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}
