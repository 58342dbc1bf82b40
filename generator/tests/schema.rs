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

fn validator() -> jsonschema::Validator {
    jsonschema::validator_for(&schema()).expect("the schema is a valid JSON Schema")
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
        ("/$defs/violation_keys", keys_of::<RawViolationKeys>()),
        ("/$defs/auth_scheme", keys_of::<RawAuthScheme>()),
        ("/$defs/tag", keys_of::<RawTag>()),
        ("/$defs/pagination", keys_of::<RawPagination>()),
        ("/$defs/gap", keys_of::<RawGap>()),
        ("/$defs/type", keys_of::<RawType>()),
        ("/$defs/union", keys_of::<RawUnion>()),
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
    assert_eq!(closed.len(), 16, "a closed object of the schema is not checked against raw.rs: {closed:?}");
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
                validator.iter_errors(&instance(&file)).map(|e| format!("{}: {e}", e.instance_path())).collect();
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
            vec!["/operations/getThing", "/types/Thing/fields/size", "/types/Thing/fields/title"],
        ),
        ("wrong-value-type", "things.yaml", vec!["/types/Thing/fields/title/max_length"]),
        ("auth", "api.yaml", vec!["/api/auth/badKey", "/api/auth/badKey/in", "/api/auth/oauth/type"]),
        ("unknown-fields", "things.yaml", vec!["/types/Lid/unknown_fields"]),
    ] {
        let path = broken.join(fixture).join(file);
        let mut refused: Vec<String> =
            validator.iter_errors(&instance(&path)).map(|e| e.instance_path().to_string()).collect();
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
        let refused: Vec<String> = validator.iter_errors(&value).map(|e| e.instance_path().to_string()).collect();
        assert_eq!(refused, [place], "{text}");
    }
}
