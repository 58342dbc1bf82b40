//! YAML read under a budget: aliases (`*name`) make a small text expand into a large value (a
//! 6 KB "billion laughs" document into gigabytes), so the value is built node by node and the
//! build stops, with a located error, once it holds more nodes or more bytes of scalars than
//! the text's size allows. An honest document, anchors and all, stays far below the budget;
//! the memory a text can cost is then proportional to its size.

use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use serde_yaml::Value;
use serde_yaml::value::{Tag, TaggedValue};
use std::cell::Cell;
use std::fmt;

/// Nodes allowed beyond one per byte of text (a document of many tiny scalars).
const NODES_BASE: u64 = 16 * 1024;

/// Bytes of scalars allowed beyond twice the text's size.
const BYTES_BASE: u64 = 256 * 1024;

/// What a text may expand to: at most one node per byte of text, and twice its size in
/// scalars (both plus a small base), whatever its aliases say.
struct Budget {
    nodes: Cell<u64>,
    bytes: Cell<u64>,
    /// The limits, for the message.
    limits: (u64, u64),
}

impl Budget {
    fn for_text(len: usize) -> Self {
        let len = len as u64;
        let limits = (len + NODES_BASE, 2 * len + BYTES_BASE);
        Budget { nodes: Cell::new(limits.0), bytes: Cell::new(limits.1), limits }
    }

    /// Spends one node holding `bytes` of scalar text.
    fn spend<E: de::Error>(&self, bytes: usize) -> Result<(), E> {
        let nodes = self.nodes.get().checked_sub(1);
        let bytes = self.bytes.get().checked_sub(bytes as u64);
        match (nodes, bytes) {
            (Some(nodes), Some(bytes)) => {
                self.nodes.set(nodes);
                self.bytes.set(bytes);
                Ok(())
            }
            _ => Err(E::custom(format!(
                "{EXPANDS} (more than {} values or {} bytes of text for a file of this size)",
                self.limits.0, self.limits.1
            ))),
        }
    }
}

/// The start of the error message of a text expanding past its budget.
pub const EXPANDS: &str = "the YAML expands past its budget through aliases (`*name`)";

/// Parses one YAML document into a value, refusing one that expands past the budget of its
/// text's size (the error then holds [`EXPANDS`]).
pub fn from_str(text: &str) -> Result<Value, serde_yaml::Error> {
    let budget = Budget::for_text(text.len());
    Build(&budget).deserialize(serde_yaml::Deserializer::from_str(text))
}

/// Builds a value, spending the budget node by node.
#[derive(Clone, Copy)]
struct Build<'b>(&'b Budget);

impl<'de> DeserializeSeed<'de> for Build<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Build<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value, E> {
        self.0.spend(0)?;
        Ok(Value::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Value, E> {
        self.0.spend(8)?;
        Ok(Value::Number(n.into()))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Value, E> {
        self.0.spend(8)?;
        Ok(Value::Number(n.into()))
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Value, E> {
        self.0.spend(8)?;
        Ok(Value::Number(n.into()))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
        self.0.spend(s.len())?;
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Value, E> {
        self.0.spend(s.len())?;
        Ok(Value::String(s))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        self.0.spend(0)?;
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        self.visit_unit()
    }

    fn visit_some<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_newtype_struct<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.0.spend(0)?;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        Ok(Value::Sequence(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.0.spend(0)?;
        let mut mapping = serde_yaml::Mapping::new();
        while let Some(key) = map.next_key_seed(self)? {
            let value = map.next_value_seed(self)?;
            mapping.insert(key, value);
        }
        Ok(Value::Mapping(mapping))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        // A tagged node (`!tag value`): the tag is the variant's name.
        self.0.spend(0)?;
        let (tag, variant): (String, _) = data.variant()?;
        let value = variant.newtype_variant_seed(self)?;
        Ok(Value::Tagged(Box::new(TaggedValue { tag: Tag::new(tag), value })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_come_out_as_serde_yaml_gives_them() {
        let text =
            "a: [1, -2, 3.5, true, null, ~, text]\nb: !tagged { c: d }\n? [x]\n: y\nanchor: &a { e: f }\nalias: *a\n";
        assert_eq!(from_str(text).unwrap(), serde_yaml::from_str::<Value>(text).unwrap());
        assert_eq!(from_str("").unwrap(), Value::Null);
        assert!(from_str("a: 1\n---\nb: 2\n").is_err(), "one document");
    }

    #[test]
    fn a_billion_laughs_stops_at_the_budget_with_its_place() {
        let mut text = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for level in 1..10 {
            let aliases = vec![format!("*a{}", level - 1); 10].join(", ");
            text.push_str(&format!("a{level}: &a{level} [{aliases}]\n"));
        }
        let error = from_str(&text).unwrap_err();
        assert!(error.to_string().contains(EXPANDS), "{error}");
        assert!(error.location().is_some(), "located: {error}");
    }

    #[test]
    fn a_padded_anchor_repeated_stops_at_the_budget() {
        let padding = "x".repeat(4096);
        let text = format!("p: &p {padding}\nlist: [{}]\n", vec!["*p"; 200].join(", "));
        let error = from_str(&text).unwrap_err();
        assert!(error.to_string().contains(EXPANDS), "{error}");
    }
}
