//! An operation's request body: JSON (also taken as a form when the same schema is), a form,
//! a multipart form with files, text or raw bytes.

use super::gaps;
use super::media::{is_json_media, json_media, media_example, text_media};
use super::refs;
use super::schema::{At, list_or_map_sample};
use super::typed::{Expr, Typed};
use super::{Importer, LeftOut, map};
use serde_json::{Map, Value, json};

impl Importer<'_> {
    /// The JSON request body; `Err` when a required body is not JSON (the operation cannot be
    /// called), `None` when there is none the format can hold.
    pub(super) fn request_body(
        &mut self,
        op: &Map<String, Value>,
        method: &str,
        op_type: &str,
        pointer: &str,
        op_gaps: &mut Vec<String>,
    ) -> Result<Option<Map<String, Value>>, LeftOut> {
        let doc = self.doc.value;
        let Some(body) = op.get("requestBody") else { return Ok(None) };
        let body_pointer = refs::child(pointer, "requestBody");
        let Ok((body, _)) = refs::follow(doc, body, &body_pointer) else {
            op_gaps.push(self.built.gaps.note(gaps::BROKEN_REF, &body_pointer));
            return Ok(None);
        };
        let required = body.get("required") == Some(&Value::Bool(true));
        // A DELETE may carry a body (Circuit's `DELETE .../moderators` lists whom); a GET or
        // HEAD may not, in the format as in HTTP's semantics.
        if matches!(method, "get" | "head") {
            op_gaps.push(self.built.gaps.note(gaps::BODY_ON_GET, &body_pointer));
            return Ok(None);
        }
        let content = body.get("content").and_then(Value::as_object);
        let description = body.get("description").and_then(Value::as_str).map(str::trim).filter(|d| !d.is_empty());
        if content.and_then(json_media).is_none()
            && let Some((mut node, all_kept)) =
                content.and_then(|c| self.other_body(c, op_type, &body_pointer, op_gaps))
        {
            if !all_kept && let Some(content) = content {
                let kept = listed_media(&node);
                let alternatives = self.alternatives(content, &kept, op_type, &body_pointer, op_gaps);
                if !alternatives.is_empty() {
                    node.insert("alternatives".into(), Value::Array(alternatives));
                }
            }
            if let Some(description) = description {
                node.insert("description".into(), json!(description));
            }
            if !required {
                node.insert("optional".into(), json!(true));
            }
            return Ok(Some(node));
        }
        let Some((media, schema)) = content.and_then(json_media) else {
            let types: Vec<&str> = content.into_iter().flatten().map(|(k, _)| k.as_str()).collect();
            if required {
                return Err(LeftOut::new(
                    gaps::NON_JSON_BODY,
                    format!("its required request body is {}", types.join(", ")),
                ));
            }
            op_gaps.push(self.built.gaps.note(gaps::NON_JSON_BODY, &body_pointer));
            return Ok(None);
        };
        let at = At::new(
            refs::child(&refs::child(&refs::child(&body_pointer, "content"), media), "schema"),
            format!("{op_type}Body"),
        );
        let mut typed = self.schema(schema, &at);
        // Kept as the body's `nullable` (set below): `null` reads as the body left out.
        let nullable = std::mem::take(&mut typed.nullable);
        self.strip_to_body(&mut typed, &at);
        if let Some(description) =
            body.get("description").and_then(Value::as_str).map(str::trim).filter(|d| !d.is_empty())
        {
            typed.description = Some(description.to_owned());
        }
        let mut extra = if required { vec![] } else { vec![("optional", json!(true))] };
        // An object's schema without `type: object` fits any value that is not an object (JSON
        // Schema's reading, which a judge sends: Discourse's bodies, Azure's resources); what
        // apigen's own openapi.json says with `x-untyped`.
        let object = matches!(typed.expr, Expr::Object | Expr::Named(_));
        if object && (super::schema::admits_non_objects(doc, schema, 0) || body.get("x-untyped") == Some(&json!(true)))
        {
            extra.push(("untyped", json!(true)));
        } else if nullable {
            // OpenAPI 3.0's `nullable: true`, 3.1's `type: [object, "null"]` (GitHub's 16
            // bodies): `untyped` already reads `null` as left out, so only where it is not.
            extra.push(("nullable", json!(true)));
        }
        // Kept aside until every type is settled: a body whose type ends up `json` (a shape the
        // format cannot type) is sampled with it (`Importer::settle_pending_examples`).
        let example = content.and_then(|c| c.get(media)).and_then(|entry| media_example(doc, entry));
        if let Some(example) = example.or_else(|| schema.get("example").cloned()) {
            extra.push((super::settle::PENDING_EXAMPLE, super::settle::pending_example(example, None)));
        }
        self.json_body_media(content, (media, schema), (op_type, &body_pointer), &mut extra, op_gaps);
        Ok(Some(typed.node(extra)))
    }

    /// What a body's schema keeps as a body: no constraints, default, constant or secrecy of
    /// its own (the format puts those on fields), a sample only where it fits a list or a map.
    fn strip_to_body(&mut self, typed: &mut Typed, at: &At) {
        // A list body's item bounds (opto22's `items.maximum` of an `int32` table, SendGrid's
        // `ipv4` items) go unchecked, which the gap says rather than losing them silently.
        if typed.constraints.iter().any(|(key, _)| *key == "item") {
            typed.gap(self.built.gaps.note(gaps::ITEM_CONSTRAINTS, &at.pointer));
        }
        typed.constraints.clear();
        typed.default = None;
        // A list's or a map's sample stays when it fits (one item fitting the item constraints
        // the format cannot keep, or the document's example); an object is sampled from its
        // fields.
        typed.sample = typed.sample.take().filter(|sample| list_or_map_sample(self, typed, sample));
        typed.sensitive = false;
        if typed.constant.is_some() {
            typed.constant = None;
            typed.expr = Expr::Scalar("string");
        }
    }

    /// The media types a JSON request body is taken in (`extra`'s `media_type`, and `style`
    /// when a form sends lists in brackets): the JSON one, and the forms of the same schema
    /// the format reads; the others are a gap.
    fn json_body_media(
        &mut self,
        content: Option<&Map<String, Value>>,
        (media, schema): (&str, &Value),
        (op_type, body_pointer): (&str, &str),
        extra: &mut Vec<(&'static str, Value)>,
        op_gaps: &mut Vec<String>,
    ) {
        // The same schema also taken as a form, without files (the JSON value has none):
        // urlencoded, nested values in brackets; multipart, a nested value as one JSON part
        // (OpenAPI's `encoding` default). Every such media type, in the document's order.
        let shape = self.form_shape(schema).filter(|(files, _)| files.is_empty());
        let forms: Vec<(&String, &Value)> = content
            .into_iter()
            .flatten()
            .filter(|(m, entry)| {
                let fits = shape.is_some()
                    && matches!(essence(m).as_str(), "application/x-www-form-urlencoded" | "multipart/form-data");
                fits && entry.get("schema") == Some(schema)
            })
            .collect();
        // The router takes every JSON media type where it takes one (`text/json`, `+json`).
        let kept = |m: &String| is_json_media(m) || forms.iter().any(|(f, _)| *f == m);
        if !forms.is_empty() {
            let listed: Vec<Value> = content
                .into_iter()
                .flatten()
                .map(|(m, _)| m)
                .filter(|m| essence(m) == essence(media) || forms.iter().any(|(f, _)| f == m))
                .map(|m| json!(essence(m)))
                .collect();
            extra.push(("media_type", Value::Array(listed)));
            if forms.iter().any(|(_, entry)| brackets_lists(self.doc.value, entry, schema)) {
                extra.push(("style", json!("deepObject")));
            }
            let urlencoded = |m: &String| essence(m) == "application/x-www-form-urlencoded";
            if forms.iter().any(|(m, entry)| urlencoded(m) && objects_exploded(self.doc.value, entry, schema)) {
                op_gaps.push(self.built.gaps.note(gaps::FORM_OBJECTS, &refs::child(body_pointer, "content")));
            }
        }
        if let Some(content) = content.filter(|c| c.keys().any(|m| !kept(m))) {
            let kept_media: Vec<String> = content.keys().filter(|m| kept(m)).map(|m| essence(m)).collect();
            let alternatives = self.alternatives(content, &kept_media, op_type, body_pointer, op_gaps);
            if !alternatives.is_empty() {
                // A body of several variants holds no `null` (lowering refuses `nullable` there):
                // the JSON variant refuses it, as before `nullable` bodies were kept.
                extra.retain(|(key, _)| *key != "nullable");
                extra.push(("alternatives", Value::Array(alternatives)));
            }
        }
    }

    /// The media types of `content` a body leaves out (`kept`: its own, as essences), each as
    /// an alternative typed as its format can (issue 48: a body is never dropped): a form of
    /// an object of properties typed (its inline object `<Operation><Variant>Body`); text, XML
    /// and a urlencoded form the format cannot type as one `string` alternative of every such
    /// media type; any other concrete media type (a multipart form the format cannot type
    /// among them) as one `bytes` alternative of all of them. Only a media range (`image/*`)
    /// cannot be sent as itself: gap `request-media-alternatives`, answered 415.
    fn alternatives(
        &mut self,
        content: &Map<String, Value>,
        kept: &[String],
        op_type: &str,
        body_pointer: &str,
        op_gaps: &mut Vec<String>,
    ) -> Vec<Value> {
        let mut alternatives: Vec<Map<String, Value>> = Vec::new();
        let (mut text, mut bytes): (Option<usize>, Option<usize>) = (None, None);
        let mut taken: Vec<String> = kept.to_vec();
        let mut ranges = false;
        for (media, entry) in content {
            let media_essence = essence(media);
            if taken.contains(&media_essence) || is_json_media(media) && kept.iter().any(|k| is_json_media(k)) {
                continue;
            }
            taken.push(media_essence.clone());
            let schema = entry.get("schema").cloned().unwrap_or(json!({}));
            let form = matches!(media_essence.as_str(), URLENCODED | "multipart/form-data");
            let name = format!("{op_type}{}Body", crate::model::shape::media_variant(&media_essence));
            if form && let Some(node) = self.form_body((media, entry), &schema, &name, body_pointer) {
                alternatives.push(node);
                continue;
            }
            let group = if text_media(&media_essence) || media_essence == URLENCODED {
                (&mut text, "string")
            } else if raw_media(&media_essence) || form {
                (&mut bytes, "bytes")
            } else {
                ranges = true;
                continue;
            };
            // Passed raw, a schema saying more than text or bytes (an object as CSV, an array
            // as a multipart form) goes unchecked: recorded, never silent.
            if schema_unchecked(self.doc.value, &schema) {
                let pointer = refs::child(&refs::child(body_pointer, "content"), media);
                op_gaps.push(self.built.gaps.note(gaps::RAW_REQUEST, &pointer));
            }
            match *group.0 {
                Some(at) => push_media(&mut alternatives[at], &media_essence),
                None => {
                    *group.0 = Some(alternatives.len());
                    let mut node = map(vec![("type", json!(group.1)), ("media_type", json!(media_essence))]);
                    if group.1 == "string"
                        && let Some(sample) = media_example(self.doc.value, entry).filter(Value::is_string)
                    {
                        node.insert("sample".into(), sample);
                    }
                    alternatives.push(node);
                }
            }
        }
        if ranges {
            op_gaps.push(self.built.gaps.note(gaps::REQUEST_ALTERNATIVES, &refs::child(body_pointer, "content")));
        }
        alternatives.into_iter().map(Value::Object).collect()
    }

    /// A request body that is not JSON, as the format holds it: a form (an object, nested
    /// values in brackets), a multipart form (an object, plus files: `format: binary`; a nested
    /// value one JSON part), else raw: text (`string`) for text, XML and a urlencoded form
    /// the format cannot type, raw bytes for any other concrete media type. The first media
    /// type of the content decides; `None` when it is a multipart form the format cannot type
    /// or a media range. A body passed raw whose schema the format could not check (XML, an
    /// untyped form) notes gap `raw-request-bodies`.
    fn other_body(
        &mut self,
        content: &Map<String, Value>,
        op_type: &str,
        pointer: &str,
        op_gaps: &mut Vec<String>,
    ) -> Option<(Map<String, Value>, bool)> {
        let (media, entry) = content.iter().next()?;
        let only_first = content.len() == 1;
        let media_essence = essence(media);
        let schema = entry.get("schema").cloned().unwrap_or(json!({}));
        let form = matches!(media_essence.as_str(), URLENCODED | "multipart/form-data");
        if form && let Some(node) = self.form_body((media, entry), &schema, &format!("{op_type}Body"), pointer) {
            return Some((node, only_first));
        }
        if form && media_essence != URLENCODED {
            return None;
        }
        if form || text_media(&media_essence) {
            // Every textual media type listed is kept (`application/xml` beside `text/xml`); a
            // form the format cannot type is kept as the text it is.
            let listed =
                distinct(content.keys().map(|m| essence(m)).filter(|m| text_media(m) || (form && m == URLENCODED)));
            let all_kept = listed.len() == content.len();
            if schema_unchecked(self.doc.value, &schema) {
                op_gaps.push(
                    self.built.gaps.note(gaps::RAW_REQUEST, &refs::child(&refs::child(pointer, "content"), media)),
                );
            }
            let mut keys = vec![("type", json!("string")), ("media_type", one_or_list(listed))];
            // The document's example text is the body's sample (what sample calls send).
            if let Some(text) = media_example(self.doc.value, entry).filter(Value::is_string) {
                keys.push(("sample", text));
            }
            return Some((map(keys), all_kept));
        }
        // Raw bytes travel in any concrete media type: every one the document lists for the
        // body is kept (an upload in `application/octet-stream`, `image/png` or `image/jpeg`).
        if !raw_media(&media_essence) {
            return None;
        }
        let listed = distinct(content.keys().map(|m| essence(m)).filter(|m| raw_media(m)));
        let all_kept = content.keys().all(|m| raw_media(&essence(m)));
        Some((map(vec![("type", json!("bytes")), ("media_type", one_or_list(listed))]), all_kept))
    }

    /// A form body the format types: an object whose every property can travel in the form
    /// (files in a multipart one); `None` otherwise.
    fn form_body(
        &mut self,
        (media, entry): (&String, &Value),
        schema: &Value,
        type_name: &str,
        pointer: &str,
    ) -> Option<Map<String, Value>> {
        let media_essence = essence(media);
        let multipart = media_essence == "multipart/form-data";
        let fields = self.form_fields(schema, multipart)?;
        let at =
            At::new(refs::child(&refs::child(&refs::child(pointer, "content"), media), "schema"), type_name.to_owned());
        let mut inline = json!({"type": "object", "properties": schema_properties(self.doc.value, schema)?, "required": schema_required(self.doc.value, schema)});
        // A form closed to undeclared fields stays closed (`unknown_fields: refuse`); one
        // keeping them typed (`additionalProperties: {schema}`) keeps them in `extra`, each
        // checked against the schema, rather than ignoring them.
        match refs::lookup_value(self.doc.value, schema).and_then(|s| s.get("additionalProperties")) {
            Some(closed @ Value::Bool(false)) => inline["additionalProperties"] = closed.clone(),
            Some(typed @ Value::Object(_)) => inline["additionalProperties"] = typed.clone(),
            _ => {}
        }
        let mut typed = self.schema(&inline, &at);
        typed.description = None;
        let mut keys = vec![("media_type", json!(media_essence))];
        if brackets_lists(self.doc.value, entry, schema) || multipart && objects_deep(self.doc.value, entry, schema) {
            keys.push(("style", json!("deepObject")));
        }
        if !multipart && objects_exploded(self.doc.value, entry, schema) {
            let pointer = refs::child(&refs::child(pointer, "content"), media);
            typed.gap(self.built.gaps.note(gaps::FORM_OBJECTS, &pointer));
        }
        let mut node = typed.node(keys);
        self.part_media_types(&mut node, entry, multipart, &refs::child(&refs::child(pointer, "content"), media));
        // Files: `format: binary` strings of a multipart form.
        if let Some(Value::Object(out)) = node.get_mut("fields") {
            for (name, file) in fields {
                if let Some(Value::Object(field)) = out.get_mut(&name) {
                    // A list of files keeps how many it holds (`minItems`): its sample sends
                    // that many, a part each.
                    let counts =
                        |k: &str| file == FormField::Files && matches!(k, "min_items" | "max_items" | "exact_items");
                    field.retain(|k, _| matches!(k.as_str(), "optional" | "description" | "media_type") || counts(k));
                    field.insert("type".into(), json!(if file == FormField::Files { "list<file>" } else { "file" }));
                }
            }
        }
        Some(node)
    }

    /// A multipart form's declared part types (`encoding.<field>.contentType`, a
    /// comma-separated list of media types or ranges) as each field's `media_type`; what the
    /// format does not keep (a part's `headers`, a urlencoded field's `contentType`) is gap
    /// `part-encoding`, never lost silently.
    fn part_media_types(&mut self, node: &mut Map<String, Value>, entry: &Value, multipart: bool, pointer: &str) {
        let Some(encoding) = entry.get("encoding").and_then(Value::as_object) else { return };
        let mut lost = false;
        for (name, how) in encoding {
            lost |= how.get("headers").and_then(Value::as_object).is_some_and(|h| !h.is_empty());
            let Some(listed) = how.get("contentType").and_then(Value::as_str) else { continue };
            if !multipart {
                lost = true;
                continue;
            }
            let types = distinct(listed.split(',').map(essence).filter(|m| media_syntax(m)));
            let field = node.get_mut("fields").and_then(|f| f.get_mut(name)).and_then(Value::as_object_mut);
            if let Some(field) = field.filter(|_| !types.is_empty()) {
                field.insert("media_type".into(), one_or_list(types));
            }
        }
        if lost {
            let gap = self.built.gaps.note(gaps::PART_ENCODING, &refs::child(pointer, "encoding"));
            if let Some(Value::Array(listed)) = node.get_mut("gaps") {
                listed.push(json!(gap));
            } else {
                node.insert("gaps".into(), json!([gap]));
            }
        }
    }

    /// The fields of a form body that are files, when the schema is an object whose every
    /// property can travel in a form (a urlencoded form: anything but a file; a multipart
    /// one: anything); `None` otherwise.
    fn form_fields(&self, schema: &Value, multipart: bool) -> Option<Vec<(String, FormField)>> {
        let (files, _) = self.form_shape(schema)?;
        // A multipart form holds files and any value (a nested one as a JSON part); a
        // urlencoded form no file, nested values in brackets (`items[0][price]=x`).
        (multipart || files.is_empty()).then_some(files)
    }

    /// The fields of an object schema that are files, and whether any other field is not a
    /// scalar or a list of scalars; `None` when the schema is not an object.
    fn form_shape(&self, schema: &Value) -> Option<(Vec<(String, FormField)>, bool)> {
        let properties = schema_properties(self.doc.value, schema)?;
        let mut files = Vec::new();
        let mut nested = false;
        for (name, property) in properties.as_object()? {
            let property = refs::lookup_value(self.doc.value, property)?;
            let binary =
                |s: &Value| s.get("type") == Some(&json!("string")) && s.get("format") == Some(&json!("binary"));
            let scalar = |s: &Value| {
                let s = refs::lookup_value(self.doc.value, s).unwrap_or(s);
                matches!(s.get("type").and_then(Value::as_str), Some("string" | "integer" | "number" | "boolean"))
                    && s.get("format") != Some(&json!("binary"))
            };
            let items = property.get("items").and_then(|i| refs::lookup_value(self.doc.value, i));
            if binary(property) {
                files.push((name.clone(), FormField::File));
            } else if property.get("type") == Some(&json!("array")) && items.is_some_and(binary) {
                files.push((name.clone(), FormField::Files));
            } else if !(scalar(property) || property.get("type") == Some(&json!("array")) && items.is_some_and(scalar))
            {
                nested = true;
            }
        }
        // A required name no property declares is a field of any value (`undeclared-required`),
        // which a form of scalars cannot hold.
        let resolved = refs::lookup_value(self.doc.value, schema).unwrap_or(schema);
        let required = resolved.get("required").and_then(Value::as_array).into_iter().flatten();
        if required.filter_map(Value::as_str).any(|name| properties.get(name).is_none()) {
            nested = true;
        }
        Some((files, nested))
    }
}

/// Whether a form's `encoding` sends a list property in brackets (`style: deepObject`, as
/// Stripe's document says of `expand`): then the body's every list has indexes.
fn brackets_lists(doc: &Value, entry: &Value, schema: &Value) -> bool {
    let Some(properties) = schema_properties(doc, schema).and_then(|p| p.as_object().cloned()) else { return false };
    let Some(encoding) = entry.get("encoding").and_then(Value::as_object) else { return false };
    encoding.iter().any(|(name, how)| {
        let list = properties
            .get(name)
            .and_then(|p| refs::lookup_value(doc, p))
            .is_some_and(|p| p.get("type") == Some(&json!("array")));
        list && how.get("style") == Some(&json!("deepObject"))
    })
}

/// Whether a multipart form's `encoding` sends an object property in brackets (`style:
/// deepObject`, `link[create]=true`, a part each) rather than as OpenAPI's default, one JSON
/// part: then the whole form travels in brackets.
fn objects_deep(doc: &Value, entry: &Value, schema: &Value) -> bool {
    let Some(properties) = schema_properties(doc, schema).and_then(|p| p.as_object().cloned()) else { return false };
    let Some(encoding) = entry.get("encoding").and_then(Value::as_object) else { return false };
    encoding.iter().any(|(name, how)| {
        let object = properties
            .get(name)
            .and_then(|p| refs::lookup_value(doc, p))
            .is_some_and(|p| p.get("type") == Some(&json!("object")) || p.get("properties").is_some());
        object && how.get("style") == Some(&json!("deepObject"))
    })
}

/// Whether a urlencoded form's object property travels as OpenAPI's default writes it:
/// `style: form`, exploded, its fields as keys of their own (`amount=1&currency=EUR`). The
/// format reads nested objects in brackets (`instructed_amount[amount]=1`), as an `encoding`
/// of `style: deepObject` says (Stripe's).
fn objects_exploded(doc: &Value, entry: &Value, schema: &Value) -> bool {
    let Some(properties) = schema_properties(doc, schema).and_then(|p| p.as_object().cloned()) else { return false };
    let encoding = entry.get("encoding").and_then(Value::as_object);
    properties.iter().any(|(name, property)| {
        let object = refs::lookup_value(doc, property)
            .is_some_and(|p| p.get("type") == Some(&json!("object")) || p.get("properties").is_some());
        let deep = encoding.and_then(|e| e.get(name)).and_then(|how| how.get("style")) == Some(&json!("deepObject"));
        object && !deep
    })
}

/// The urlencoded form's media type.
const URLENCODED: &str = "application/x-www-form-urlencoded";

/// A media type without its parameters, in lower case.
fn essence(media: &str) -> String {
    media.split(';').next().unwrap_or_default().trim().to_ascii_lowercase()
}

/// Whether a body of the media type (an essence) may travel as raw bytes: a concrete media
/// type that is not a form nor XML.
fn raw_media(media: &str) -> bool {
    media.contains('/')
        && !media.contains('*')
        && !media.ends_with("xml")
        && !matches!(media, URLENCODED | "multipart/form-data")
}

/// Whether an essence is a media type (`type/subtype`) or a range (`type/*`, `*/*`) the
/// format takes.
fn media_syntax(media: &str) -> bool {
    let token =
        |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'+-.^_`|~".contains(&b));
    match media.split_once('/') {
        Some(("*", "*")) => true,
        Some((kind, "*")) => token(kind),
        Some((kind, sub)) => token(kind) && token(sub),
        None => false,
    }
}

/// The media types once each, in the document's order.
fn distinct(media: impl Iterator<Item = String>) -> Vec<String> {
    let mut listed: Vec<String> = Vec::new();
    for m in media {
        if !listed.contains(&m) {
            listed.push(m);
        }
    }
    listed
}

/// The media types a body node lists (`media_type`, one or a list), as essences.
fn listed_media(node: &Map<String, Value>) -> Vec<String> {
    match node.get("media_type") {
        Some(Value::String(one)) => vec![essence(one)],
        Some(Value::Array(listed)) => listed.iter().filter_map(Value::as_str).map(essence).collect(),
        _ => Vec::new(),
    }
}

/// Adds a media type to an alternative's `media_type` (one becomes a list).
fn push_media(node: &mut Map<String, Value>, media: &str) {
    let listed = match node.remove("media_type") {
        Some(Value::String(one)) => vec![json!(one), json!(media)],
        Some(Value::Array(mut listed)) => {
            listed.push(json!(media));
            listed
        }
        _ => vec![json!(media)],
    };
    node.insert("media_type".into(), Value::Array(listed));
}

/// `media_type:` as the spec writes it: one media type alone, several as a list.
fn one_or_list(listed: Vec<String>) -> Value {
    match listed.as_slice() {
        [one] => json!(one),
        _ => json!(listed),
    }
}

/// Whether a text body's schema says more than "a string" (an object, XML's elements, a
/// pattern), which passing the text raw leaves unchecked.
fn schema_unchecked(doc: &Value, schema: &Value) -> bool {
    let schema = refs::lookup_value(doc, schema).unwrap_or(schema);
    match schema.as_object() {
        None => false,
        Some(keys) => keys.iter().any(|(key, value)| match key.as_str() {
            "type" => value != &json!("string"),
            "format" | "description" | "title" | "example" | "examples" | "default" | "nullable" | "xml" => false,
            _ => true,
        }),
    }
}

/// A field of a form body that is a file, or a list of files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FormField {
    File,
    Files,
}

/// The properties of an object schema (its reference followed).
fn schema_properties(doc: &Value, schema: &Value) -> Option<Value> {
    let schema = refs::lookup_value(doc, schema)?;
    if schema.get("allOf").is_some() || schema.get("oneOf").is_some() || schema.get("anyOf").is_some() {
        return None;
    }
    schema.get("properties").cloned().filter(Value::is_object)
}

/// The required list of an object schema (its reference followed).
fn schema_required(doc: &Value, schema: &Value) -> Value {
    refs::lookup_value(doc, schema).and_then(|s| s.get("required").cloned()).unwrap_or(json!([]))
}
