//! The spec files of an import: `api.yaml` (the API, its auth schemes, tags, shared
//! parameters, list convention and gaps), one file per tag holding its operations, and
//! `schemas.yaml` holding the named types (split into parts when it would pass the loader's
//! file size limit).

use super::{Imported, Importer, Summary, names, yaml};
use serde_json::{Map, Value, json};

/// A spec file stays well under the loader's 16 MiB.
const MAX_FILE_BYTES: usize = 4 * 1024 * 1024;

impl Importer<'_> {
    pub(super) fn files(mut self, document: &str) -> Imported {
        let api = self.api_file(document);
        let crate_name = api["api"]["name"].as_str().unwrap_or_default().to_owned();
        let mut files = vec![("api.yaml".to_owned(), yaml::file(&api))];
        // Operations by tag, in one pass (a document may have as many tags as operations).
        let mut by_tag: indexmap::IndexMap<&str, Vec<(String, Value)>> =
            self.built.tags.keys().map(|tag| (tag.as_str(), Vec::new())).collect();
        for op in &self.built.operations {
            if let Some(ops) = by_tag.get_mut(op.tag.as_str()) {
                ops.push((op.name.clone(), Value::Object(op.node.clone())));
            }
        }
        for (tag, ops) in by_tag.into_iter().filter(|(_, ops)| !ops.is_empty()) {
            let header = Map::from_iter([("tag".to_owned(), json!(tag))]);
            files.extend(parts(tag, header, "operations", ops));
        }
        let types: Vec<(String, Value)> =
            self.built.types.iter().map(|(name, ty)| (name.clone(), Value::Object(ty.node.clone()))).collect();
        let type_count = types.len();
        if !types.is_empty() {
            files.extend(parts("schemas", Map::new(), "types", types));
        }
        let gaps = self.built.gaps.entries(document).len();
        let summary = Summary {
            operations: self.built.total,
            kept: self.built.operations.len(),
            params: self.built.params.0,
            params_left_out: self.built.params.1,
            types: type_count,
            gaps,
            kinds: self.built.gaps.kind_counts().into_iter().map(|(k, n)| (k.to_owned(), n)).collect(),
            left_out: self.built.gaps.left_out_counts().iter().map(|(k, n)| ((*k).to_owned(), *n)).collect(),
        };
        self.built.operations.clear();
        Imported { files, summary, shared_shapes: self.built.shared_shapes, crate_name }
    }

    /// The document's `x-` extensions, kept for the export: the root's as `x-<name>`, `info`'s
    /// as `info.x-<name>`; those apigen's own export writes (and this import reads) left out.
    fn extensions(&self) -> Map<String, Value> {
        const OWN: [&str; 4] = ["x-api-name", "x-generated-by", "x-gaps", "x-pagination"];
        let mut kept = Map::new();
        for (prefix, place) in [("", Some(self.doc.value)), ("info.", self.doc.value.get("info"))] {
            let Some(object) = place.and_then(Value::as_object) else { continue };
            for (key, value) in object.iter().filter(|(key, _)| key.starts_with("x-") && key.len() > 2) {
                if !OWN.contains(&key.as_str()) {
                    kept.insert(format!("{prefix}{key}"), value.clone());
                }
            }
        }
        kept
    }

    fn api_file(&self, document: &str) -> Map<String, Value> {
        let mut file = Map::new();
        file.insert("api".into(), Value::Object(self.api_section(document)));
        if !self.built.tags.is_empty() {
            let tags: Map<String, Value> = self
                .built
                .tags
                .iter()
                .map(|(name, (title, description))| {
                    let mut tag = Map::from_iter([("title".to_owned(), json!(title))]);
                    if let Some(d) = description {
                        tag.insert("description".into(), json!(d));
                    }
                    (name.clone(), Value::Object(tag))
                })
                .collect();
            file.insert("tags".into(), Value::Object(tags));
        }
        if !self.built.shared.is_empty() {
            let params: Map<String, Value> =
                self.built.shared.iter().map(|(name, (node, _))| (name.clone(), Value::Object(node.clone()))).collect();
            file.insert("parameters".into(), Value::Object(params));
        }
        if let Some(pagination) = self.pagination_section() {
            file.insert("pagination".into(), Value::Object(pagination));
        }
        let gaps: Map<String, Value> = self
            .built
            .gaps
            .entries(document)
            .into_iter()
            .map(|(id, source, gap, decision)| (id, json!({ "source": source, "gap": gap, "decision": decision })))
            .collect();
        if !gaps.is_empty() {
            file.insert("gaps".into(), Value::Object(gaps));
        }
        file
    }

    /// `api.yaml`'s `api`: the name, title, version, description and source, the schemes, the
    /// servers, the error body and the extensions.
    fn api_section(&self, document: &str) -> Map<String, Value> {
        let info = self.doc.value.get("info");
        let text = |key: &str| info.and_then(|i| i.get(key)).and_then(Value::as_str).map(str::trim).unwrap_or_default();
        // The title and version are in every generated file's header: kept to the format's
        // limits (the whole title stays in the description).
        let full_title = if text("title").is_empty() { "API" } else { text("title") };
        let title = &clip(full_title, crate::lower::MAX_TITLE);
        let version = match info.and_then(|i| i.get("version")) {
            Some(Value::String(v)) if !v.trim().is_empty() => clip(v.trim(), crate::lower::MAX_VERSION),
            Some(v @ Value::Number(_)) => v.to_string(),
            _ => "1".to_owned(),
        };
        // The name asked for (`--name`), else the one apigen's own export records, else from
        // the document's file name (or its title when the file name is generic).
        let name = self.pass.crate_name.clone().unwrap_or_else(|| {
            info.and_then(|i| i.get("x-api-name"))
                .and_then(Value::as_str)
                .filter(|n| crate::model::valid_crate_prefix(n))
                .map_or_else(|| names::crate_prefix(document, title), str::to_owned)
        });
        let mut api = Map::new();
        api.insert("name".into(), json!(name));
        api.insert("title".into(), json!(title));
        api.insert("version".into(), json!(version));
        let description = match (text("description"), title == full_title) {
            (description, true) => description.to_owned(),
            ("", false) => full_title.to_owned(),
            (description, false) => format!("{full_title}\n\n{description}"),
        };
        if !description.is_empty() {
            api.insert("description".into(), json!(description));
        }
        api.insert("source".into(), json!(document));
        // The license: OpenAPI 3.1's SPDX `identifier`, else its `name`.
        let license = info.and_then(|i| i.get("license"));
        let license = ["identifier", "name"].iter().find_map(|key| license?.get(key)?.as_str().map(str::trim));
        if let Some(license) = license.filter(|l| !l.is_empty()) {
            api.insert("license".into(), json!(license));
        }
        let schemes: Map<String, Value> = self
            .doc
            .auth
            .schemes
            .values()
            .map(|(name, scheme)| (name.clone(), Value::Object(scheme.clone())))
            .collect();
        if !schemes.is_empty() {
            api.insert("auth".into(), Value::Object(schemes));
        }
        if !self.doc.servers.is_empty() {
            api.insert("servers".into(), Value::Array(self.doc.servers.clone()));
        }
        let mut errors = match &self.built.errors {
            super::built::ErrorsTold::Mapped(errors) => errors.clone(),
            // The built-in body, answered in the document's error media type
            // (`application/problem+json`), so refusals carry the type the document lists.
            super::built::ErrorsTold::Unmapped(media) if media != "application/json" => {
                super::map(vec![("media_type", json!(media))])
            }
            _ => Map::new(),
        };
        let bodies: Map<String, Value> = self
            .built
            .error_bodies
            .values()
            .flatten()
            .map(|(name, node)| {
                let places = node.iter().filter(|(key, _)| *key != "type").map(|(k, v)| (k.clone(), v.clone()));
                (name.clone(), Value::Object(places.collect()))
            })
            .collect();
        if !bodies.is_empty() {
            errors.insert("bodies".into(), Value::Object(bodies));
        }
        if !errors.is_empty() {
            api.insert("errors".into(), Value::Object(errors));
        }
        if self.built.open_objects {
            // OpenAPI's objects take fields they do not declare unless `additionalProperties:
            // false` says otherwise (those say `unknown_fields: refuse`).
            api.insert("unknown_fields".into(), json!("ignore"));
        }
        let extensions = self.extensions();
        if !extensions.is_empty() {
            api.insert("extensions".into(), Value::Object(extensions));
        }
        api
    }

    /// The list convention of an apigen export, when its parameters are shared here.
    fn pagination_section(&self) -> Option<Map<String, Value>> {
        if let Some(told) = &self.built.told_pagination {
            return Some(told.clone());
        }
        let pagination = self.doc.pagination.as_ref()?;
        let params = pagination.get("params")?.as_array()?;
        if !params.iter().all(|p| p.as_str().is_some_and(|p| self.built.shared.contains_key(p))) {
            return None;
        }
        let mut out = Map::new();
        out.insert("params".into(), Value::Array(params.clone()));
        out.insert("cursor".into(), pagination.get("cursor")?.clone());
        let gaps: Vec<Value> = pagination
            .get("gaps")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|g| g.as_str().is_some_and(|g| self.built.gaps.carries(g)))
            .cloned()
            .collect();
        if !gaps.is_empty() {
            out.insert("gaps".into(), Value::Array(gaps));
        }
        if let Some(description) = pagination.get("description") {
            out.insert("description".into(), description.clone());
        }
        Some(out)
    }
}

/// One section's entries written as `stem.yaml`, or `stem.yaml`, `stem-2.yaml`, ... when
/// one file would pass [`MAX_FILE_BYTES`]; `header` starts each file.
fn parts(
    stem: &str,
    header: Map<String, Value>,
    section: &str,
    entries: Vec<(String, Value)>,
) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut current: Vec<(String, Value)> = Vec::new();
    let mut size = 0;
    let flush = |current: &mut Vec<(String, Value)>, files: &mut Vec<(String, String)>| {
        if current.is_empty() {
            return;
        }
        let mut file = header.clone();
        file.insert(section.to_owned(), Value::Object(current.drain(..).collect()));
        let name = if files.is_empty() { format!("{stem}.yaml") } else { format!("{stem}-{}.yaml", files.len() + 1) };
        files.push((name, yaml::file(&file)));
    };
    for (name, value) in entries {
        let one = yaml::file(&Map::from_iter([(name.clone(), value.clone())])).len();
        if size + one > MAX_FILE_BYTES && !current.is_empty() {
            flush(&mut current, &mut files);
            size = 0;
        }
        size += one;
        current.push((name, value));
    }
    flush(&mut current, &mut files);
    files
}

/// `text` cut to at most `max` characters, ending with `…` when cut.
fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut clipped: String = text.chars().take(max - 1).collect();
    clipped.push('…');
    clipped
}
