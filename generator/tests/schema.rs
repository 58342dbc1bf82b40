//! The spec format's JSON Schema (`apigen schema`): in step with the raw structures the loader
//! reads, passed by every valid spec, failed by every spec with an unknown key or a value of
//! the wrong type.

use apigen::load::raw::*;
use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn schema() -> Value {
    serde_json::from_str(apigen::load::SCHEMA).expect("the schema is JSON")
}

fn validator() -> Validator {
    Validator { root: schema() }
}

/// A validator of the JSON Schema keywords the spec format's schema uses (`type`, `enum`,
/// `const`, `minimum`, `maximum`, `pattern`, `properties`, `additionalProperties`, `required`,
/// `propertyNames`, `minProperties`, `maxProperties`, `dependentRequired`, `items`, `oneOf`,
/// `$ref` into `$defs`), each failure reported at the instance's JSON pointer, as a JSON Schema
/// validator reports it (an unknown key at its object, a failed `oneOf` at its value): small
/// enough to read, and the test no longer builds a general validator's dependency tree.
struct Validator {
    root: Value,
}

impl Validator {
    /// The instance paths of every failure (one per keyword that fails).
    fn iter_errors(&self, instance: &Value) -> Vec<String> {
        let mut found = Vec::new();
        self.check(&self.root, instance, "", &mut found);
        found
    }

    fn check(&self, schema: &Value, value: &Value, at: &str, found: &mut Vec<String>) {
        let Some(schema) = schema.as_object() else { return };
        if let Some(target) = schema.get("$ref").and_then(Value::as_str) {
            let target = self.root.pointer(target.trim_start_matches('#')).expect("a reference into the schema");
            self.check(target, value, at, found);
        }
        if let Some(ty) = schema.get("type")
            && !has_type(ty, value)
        {
            found.push(at.to_owned());
            return;
        }
        let mut fail = |failed: bool| {
            if failed {
                found.push(at.to_owned());
            }
        };
        if let Some(Value::Array(listed)) = schema.get("enum") {
            fail(!listed.contains(value));
        }
        if let Some(constant) = schema.get("const") {
            fail(constant != value);
        }
        if let (Some(bound), Some(number)) = (schema.get("minimum").and_then(Value::as_f64), value.as_f64()) {
            fail(number < bound);
        }
        if let (Some(bound), Some(number)) = (schema.get("maximum").and_then(Value::as_f64), value.as_f64()) {
            fail(number > bound);
        }
        if let (Some(pattern), Some(text)) = (schema.get("pattern").and_then(Value::as_str), value.as_str()) {
            fail(!regex_lite::Regex::new(pattern).expect("a valid pattern").is_match(text));
        }
        if let Some(Value::Array(variants)) = schema.get("oneOf") {
            let fitting = variants.iter().filter(|variant| self.fits(variant, value)).count();
            fail(fitting != 1);
        }
        if let (Some(items), Value::Array(values)) = (schema.get("items"), value) {
            for (index, item) in values.iter().enumerate() {
                self.check(items, item, &format!("{at}/{index}"), found);
            }
        }
        if let Value::Object(map) = value {
            self.check_object(schema, map, at, found);
        }
    }

    fn check_object(
        &self,
        schema: &serde_json::Map<String, Value>,
        map: &serde_json::Map<String, Value>,
        at: &str,
        found: &mut Vec<String>,
    ) {
        let properties = schema.get("properties").and_then(Value::as_object);
        let mut unknown = false;
        for (key, item) in map {
            let below = format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
            match (properties.and_then(|p| p.get(key)), schema.get("additionalProperties")) {
                (Some(property), _) => self.check(property, item, &below, found),
                (None, Some(Value::Bool(false))) => unknown = true,
                (None, Some(additional)) => self.check(additional, item, &below, found),
                (None, None) => {}
            }
            if let Some(names) = schema.get("propertyNames")
                && !self.fits(names, &Value::String(key.clone()))
            {
                found.push(at.to_owned());
            }
        }
        let required = schema.get("required").and_then(Value::as_array).into_iter().flatten();
        let missing = required.filter_map(Value::as_str).any(|name| !map.contains_key(name));
        let count = map.len() as u64;
        let too_few = schema.get("minProperties").and_then(Value::as_u64).is_some_and(|min| count < min);
        let too_many = schema.get("maxProperties").and_then(Value::as_u64).is_some_and(|max| count > max);
        let dependent = schema.get("dependentRequired").and_then(Value::as_object).into_iter().flatten();
        let unmet = dependent.filter(|(key, _)| map.contains_key(*key)).any(|(_, needs)| {
            needs.as_array().into_iter().flatten().filter_map(Value::as_str).any(|name| !map.contains_key(name))
        });
        for failed in [unknown, missing, too_few, too_many, unmet] {
            if failed {
                found.push(at.to_owned());
            }
        }
    }

    fn fits(&self, schema: &Value, value: &Value) -> bool {
        let mut found = Vec::new();
        self.check(schema, value, "", &mut found);
        found.is_empty()
    }
}

/// Whether `value` has the JSON type (or one of the types) `ty` names.
fn has_type(ty: &Value, value: &Value) -> bool {
    match ty {
        Value::Array(types) => types.iter().any(|ty| has_type(ty, value)),
        Value::String(ty) => match ty.as_str() {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "boolean" => value.is_boolean(),
            "null" => value.is_null(),
            "number" => value.is_number(),
            "integer" => value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|n| n.fract() == 0.0),
            other => panic!("a type the validator does not know: {other}"),
        },
        _ => panic!("`type` is a name or a list of names"),
    }
}

/// A deserializer that records the fields a derived `Deserialize` of a struct asks for.
struct Fields<'a>(&'a mut Vec<&'static str>);

impl<'de> Deserializer<'de> for Fields<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not a struct"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.extend(fields);
        Err(de::Error::custom("fields recorded"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

/// The keys the loader accepts for `T`, sorted.
fn keys_of<T: DeserializeOwned>() -> Vec<String> {
    let mut fields = Vec::new();
    let _ = T::deserialize(Fields(&mut fields));
    assert!(!fields.is_empty(), "{} is not a struct", std::any::type_name::<T>());
    let mut keys: Vec<String> = fields.into_iter().map(str::to_owned).collect();
    keys.sort();
    keys
}

/// The properties the schema declares for the object at `pointer`, sorted.
fn properties(schema: &Value, pointer: &str) -> Vec<String> {
    let object = schema.pointer(pointer).unwrap_or_else(|| panic!("the schema has no {pointer}"));
    assert_eq!(object["additionalProperties"], Value::Bool(false), "{pointer} must refuse unknown keys");
    let mut keys: Vec<String> = object["properties"].as_object().unwrap().keys().cloned().collect();
    keys.sort();
    keys
}

#[test]
fn every_key_the_loader_accepts_is_in_the_schema_and_no_other() {
    let schema = schema();
    let pairs: Vec<(&str, Vec<String>)> = vec![
        ("", keys_of::<RawFile>()),
        ("/$defs/api", keys_of::<RawApi>()),
        ("/$defs/server", keys_of::<RawServer>()),
        ("/$defs/server_variable", keys_of::<RawServerVariable>()),
        ("/$defs/errors", keys_of::<RawErrors>()),
        ("/$defs/error_body", keys_of::<RawErrorBody>()),
        ("/$defs/violation_keys", keys_of::<RawViolationKeys>()),
        ("/$defs/auth_scheme", keys_of::<RawAuthScheme>()),
        ("/$defs/oauth_flow", keys_of::<RawFlow>()),
        ("/$defs/tag", keys_of::<RawTag>()),
        ("/$defs/pagination", keys_of::<RawPagination>()),
        ("/$defs/gap", keys_of::<RawGap>()),
        ("/$defs/type", keys_of::<RawType>()),
        ("/$defs/union", keys_of::<RawUnion>()),
        ("/$defs/item_constraints", keys_of::<RawItemConstraints>()),
        ("/$defs/field", keys_of::<RawField>()),
        ("/$defs/operation", keys_of::<RawOperation>()),
        ("/$defs/response", keys_of::<RawResponse>()),
        ("/$defs/error", keys_of::<RawError>()),
        ("/$defs/deprecated", keys_of::<RawDeprecated>()),
    ];
    for (pointer, keys) in pairs {
        assert_eq!(properties(&schema, pointer), keys, "the schema at `{pointer}` and raw.rs disagree");
    }
    // Every object of the schema that refuses unknown keys is one of those checked above.
    let defs = schema["$defs"].as_object().unwrap();
    let closed: Vec<&str> = defs
        .iter()
        .filter(|(_, def)| def["additionalProperties"] == Value::Bool(false))
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(closed.len(), 19, "a closed object of the schema is not checked against raw.rs: {closed:?}");
}

/// A spec file as the loader reads it, as JSON (integer mapping keys as their decimal text).
fn instance(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    let yaml: serde_yaml::Value = serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    to_json(yaml)
}

fn to_json(yaml: serde_yaml::Value) -> Value {
    use serde_yaml::Value as Y;
    match yaml {
        Y::Mapping(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    let key = match k {
                        Y::String(s) => s,
                        other => serde_yaml::to_string(&other).unwrap().trim_end().to_owned(),
                    };
                    (key, to_json(v))
                })
                .collect(),
        ),
        Y::Sequence(items) => Value::Array(items.into_iter().map(to_json).collect()),
        Y::Tagged(tagged) => to_json(tagged.value),
        other => serde_json::to_value(other).unwrap(),
    }
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `.yaml` files of a spec directory, sorted.
fn spec_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_valid_spec_passes_the_schema() {
    let validator = validator();
    let mut dirs = vec![repository().join("spec")];
    let valid = repository().join("tests/fixtures/valid");
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(&valid).unwrap().map(|e| e.unwrap().path()).collect();
    fixtures.sort();
    dirs.extend(fixtures);
    let mut checked = 0;
    for dir in dirs {
        for file in spec_files(&dir) {
            let errors: Vec<String> =
                validator.iter_errors(&instance(&file)).into_iter().map(|at| format!("{at}: refused")).collect();
            assert!(errors.is_empty(), "{}:\n{}", file.display(), errors.join("\n"));
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked} files checked");
}

#[test]
fn every_spec_with_an_unknown_key_or_a_wrong_type_fails_the_schema() {
    let validator = validator();
    // The broken fixtures whose errors are keys or value types (the others' are semantic:
    // references, names, routes, constraints, which `apigen lint` checks), each with the file
    // and the place the schema refuses.
    let broken = repository().join("tests/fixtures/broken");
    for (fixture, file, places) in [
        (
            "unknown-keys",
            "things.yaml",
            vec![
                "/operations/getThing",
                "/operations/listThings",
                "/types/Thing/fields/size",
                "/types/Thing/fields/title",
            ],
        ),
        ("wrong-value-type", "things.yaml", vec!["/types/Thing/fields/title/max_length"]),
        ("auth", "api.yaml", vec!["/api/auth/badKey", "/api/auth/badKey/in", "/api/auth/oauth/type"]),
        ("unknown-fields", "things.yaml", vec!["/types/Lid/unknown_fields"]),
    ] {
        let path = broken.join(fixture).join(file);
        let mut refused: Vec<String> = validator.iter_errors(&instance(&path));
        refused.sort();
        refused.dedup();
        assert_eq!(refused, places, "{}", path.display());
    }
    // A typo of a key, a number where a name goes, a string where a boolean goes.
    for (text, place) in [
        ("types: { T: { fields: { a: { type: string, max_lenght: 3 } } } }", "/types/T/fields/a"),
        (
            "operations: { o: { method: GET, path: /a, summary: s, response: { status: \"ok\" } } }",
            "/operations/o/response/status",
        ),
        ("types: { T: { fields: { a: { type: string, optional: \"yes\" } } } }", "/types/T/fields/a/optional"),
    ] {
        let value = to_json(serde_yaml::from_str(text).unwrap());
        let refused: Vec<String> = validator.iter_errors(&value);
        assert_eq!(refused, [place], "{text}");
    }
}
