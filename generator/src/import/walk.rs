//! Reading back the types an import built, as lowering will read them: the fields of an object
//! (its own, then those of the types it includes), the field a JSON pointer names through
//! object fields. The conventions told from names ([`super::pagination`], [`super::errors`])
//! are checked here against what was built, so what the import writes passes lint.

use super::Importer;
use serde_json::{Map, Value};

/// How many `includes` deep the fields of a type are looked for.
const MAX_INCLUDES: usize = 8;

impl Importer<'_> {
    /// The fields of a named object type, with those of the types it includes; `None` when the
    /// name is not an object type of this import. A name may be an inline shape another field
    /// declares (a shape met twice names its first copy).
    pub(super) fn named_fields(&self, name: &str) -> Option<Map<String, Value>> {
        self.named_fields_at(name, 0)
    }

    fn named_fields_at(&self, name: &str, depth: usize) -> Option<Map<String, Value>> {
        let node = match self.built.types.get(name) {
            Some(ty) => ty.node.clone(),
            None => {
                let (shape, _) = self.built.inline_shapes.iter().find(|(_, n)| n.as_str() == name)?;
                serde_json::from_str::<Map<String, Value>>(shape).ok()?
            }
        };
        let mut fields = node.get("fields")?.as_object()?.clone();
        if depth < MAX_INCLUDES {
            for include in node.get("includes").and_then(Value::as_array).into_iter().flatten() {
                let Some(include) = include.as_str() else { continue };
                for (key, field) in self.named_fields_at(include, depth + 1).unwrap_or_default() {
                    fields.entry(key).or_insert(field);
                }
            }
        }
        Some(fields)
    }

    /// The fields of the object a field holds: its inline fields, or those of the type it names.
    pub(super) fn object_fields(&self, field: &Map<String, Value>) -> Option<Map<String, Value>> {
        match field.get("type").and_then(Value::as_str) {
            None | Some("object") => field.get("fields")?.as_object().cloned(),
            Some(name) => self.named_fields(name),
        }
    }

    /// The field a JSON pointer (`/error/message`) names inside a value of the object type
    /// `root`, through object fields.
    pub(super) fn field_at(&self, root: &str, pointer: &str) -> Option<Map<String, Value>> {
        let mut fields = self.named_fields(root)?;
        let mut keys = pointer.split('/').skip(1).peekable();
        while let Some(key) = keys.next() {
            let key = key.replace("~1", "/").replace("~0", "~");
            let field = fields.get(&key)?.as_object()?.clone();
            if keys.peek().is_none() {
                return Some(field);
            }
            fields = self.object_fields(&field)?;
        }
        None
    }
}

/// The type expression of a field: its `type`, `object` for inline fields, `enum` for an
/// inline enumeration.
pub(super) fn field_type(field: &Map<String, Value>) -> &str {
    match field.get("type").and_then(Value::as_str) {
        Some(ty) => ty,
        None if field.contains_key("fields") || field.contains_key("additional_properties") => "object",
        None if field.contains_key("enum") => "enum",
        None => "",
    }
}

/// True when a field must be present (`optional` is not set).
pub(super) fn is_required(field: &Map<String, Value>) -> bool {
    field.get("optional") != Some(&Value::Bool(true))
}
