//! What a schema becomes in the spec: a type expression, maybe an inline shape next to it, and
//! the keys of the element holding it (description, constraints, default, sample, gaps).

use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::fmt;

/// A type expression; `Object` and `Enum` are inline shapes declared next to it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Expr {
    /// `string`, `integer`, `number`, `boolean`, `date-time`, `url`, `json`.
    Scalar(&'static str),
    /// A named type.
    Named(String),
    /// `list<T>`.
    List(Box<Expr>),
    /// `map<T>`.
    Map(Box<Expr>),
    /// An inline object (`fields` next to it).
    Object,
    /// An inline enumeration (`enum` next to it).
    Enum,
    /// Any JSON.
    #[default]
    Json,
}

impl Expr {
    /// The innermost type, inside lists and maps.
    pub fn core(&self) -> &Expr {
        match self {
            Expr::List(inner) | Expr::Map(inner) => inner.core(),
            other => other,
        }
    }

    /// True for a type named by the spec.
    pub fn is_named(&self) -> bool {
        matches!(self, Expr::Named(_))
    }

    /// Lists and maps around the innermost type.
    pub fn nesting(&self) -> usize {
        match self {
            Expr::List(inner) | Expr::Map(inner) => 1 + inner.nesting(),
            _ => 0,
        }
    }

    /// True when an inline shape is at the core.
    pub fn is_inline(&self) -> bool {
        match self {
            Expr::Object | Expr::Enum => true,
            Expr::List(inner) | Expr::Map(inner) => inner.is_inline(),
            _ => false,
        }
    }

    /// The same wrappers around another core.
    pub fn with_core(&self, core: Expr) -> Expr {
        match self {
            Expr::List(inner) => Expr::List(Box::new(inner.with_core(core))),
            Expr::Map(inner) => Expr::Map(Box::new(inner.with_core(core))),
            _ => core,
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Scalar(name) => f.write_str(name),
            Expr::Named(name) => f.write_str(name),
            Expr::List(inner) => write!(f, "list<{inner}>"),
            Expr::Map(inner) => write!(f, "map<{inner}>"),
            Expr::Object => f.write_str("object"),
            Expr::Enum => f.write_str("enum"),
            Expr::Json => f.write_str("json"),
        }
    }
}

/// A schema as the spec holds it at one place.
#[derive(Debug, Clone, Default)]
pub struct Typed {
    /// The type expression.
    pub expr: Expr,
    /// May be null.
    pub nullable: bool,
    /// The name of the inline shape at the core of `expr` (an object or enumeration).
    pub inline_name: Option<String>,
    /// The name lowering derives for that shape; `type_name` is written when they differ.
    pub derived_name: Option<String>,
    /// Inline object: its fields, each an element mapping.
    pub fields: Option<Map<String, Value>>,
    /// Inline object: the type of additional properties.
    pub additional: Option<String>,
    /// Object: closed to undeclared fields (`additionalProperties: false`), where the
    /// import's `api.unknown_fields: ignore` leaves the others open, as OpenAPI does.
    pub refuses_unknown: bool,
    /// Inline enumeration: values.
    pub enum_values: Option<Vec<Value>>,
    /// Inline enumeration: the Rust names of the values whose own is taken, by value.
    pub enum_renamed: BTreeMap<String, String>,
    /// Inline enumeration: open.
    pub open: Option<bool>,
    /// Constraints, in the format's keys.
    pub constraints: Vec<(&'static str, Value)>,
    /// Default value.
    pub default: Option<Value>,
    /// Sample value.
    pub sample: Option<Value>,
    /// A structured example kept aside until types are settled: the sample of a value whose
    /// named type ends up `json` (`settle::PENDING_EXAMPLE`).
    pub pending_example: Option<Value>,
    /// A string constant.
    pub constant: Option<String>,
    /// What it means.
    pub description: Option<String>,
    /// Carries a secret.
    pub sensitive: bool,
    /// Only in responses.
    pub read_only: bool,
    /// Only in requests.
    pub write_only: bool,
    /// Gap ids.
    pub gaps: Vec<String>,
}

impl Typed {
    /// The constraints as the model says them (for the samples lowering would invent).
    pub fn model_constraints(&self) -> crate::model::Constraints {
        let find = |key: &str| self.constraints.iter().find(|(k, _)| *k == key).map(|(_, v)| v);
        let count = |key: &str| find(key).and_then(Value::as_u64);
        let number = |key: &str| find(key).and_then(|v| v.as_number().cloned());
        crate::model::Constraints {
            min_length: count("min_length"),
            max_length: count("max_length"),
            pattern: find("pattern").and_then(Value::as_str).map(str::to_owned),
            format: find("format").and_then(Value::as_str).and_then(crate::model::Format::parse),
            minimum: number("minimum"),
            maximum: number("maximum"),
            min_items: count("min_items"),
            max_items: count("max_items"),
            exact_items: count("exact_items"),
            unique_items: find("unique_items") == Some(&Value::Bool(true)),
            item: None,
        }
    }

    /// An item of this list or value of this map, as far as its type goes (its constraints,
    /// the list's own, are not the item's).
    pub fn item(&self) -> Typed {
        let expr = match &self.expr {
            Expr::List(inner) | Expr::Map(inner) => inner.as_ref().clone(),
            other => other.clone(),
        };
        Typed {
            expr,
            enum_values: self.enum_values.clone(),
            enum_renamed: self.enum_renamed.clone(),
            open: self.open,
            ..Typed::default()
        }
    }

    /// A type with nothing else.
    pub fn of(expr: Expr) -> Self {
        Typed { expr, ..Typed::default() }
    }

    /// Adds a gap id once.
    pub fn gap(&mut self, id: String) {
        if !self.gaps.contains(&id) {
            self.gaps.push(id);
        }
    }

    /// The value keys of the element, in the order a person writes them; the shape keys
    /// (enum, fields) last, as they are the longest. `extra` keys go before the description.
    /// An enumeration value as the spec lists it: the long form when it takes a Rust name of
    /// its own.
    fn enum_value(&self, value: &Value) -> Value {
        match value.as_str().and_then(|v| self.enum_renamed.get(v)) {
            Some(rust) => json!({"value": value, "rust_name": rust}),
            None => value.clone(),
        }
    }

    pub fn node(&self, extra: Vec<(&str, Value)>) -> Map<String, Value> {
        let mut node = Map::new();
        if self.constant.is_none() {
            match &self.expr {
                Expr::Object if self.fields.is_some() || self.additional.is_some() => {}
                Expr::Enum if self.enum_values.is_some() => {}
                expr => {
                    node.insert("type".into(), Value::String(expr.to_string()));
                }
            }
            if let (Some(name), Some(derived)) = (&self.inline_name, &self.derived_name)
                && name != derived
            {
                node.insert("type_name".into(), Value::String(name.clone()));
            }
        }
        for (key, value) in extra {
            node.insert(key.to_owned(), value);
        }
        if self.nullable {
            node.insert("nullable".into(), Value::Bool(true));
        }
        if let Some(default) = &self.default {
            node.insert("default".into(), default.clone());
        }
        for (key, value) in &self.constraints {
            node.insert((*key).to_owned(), value.clone());
        }
        if let Some(sample) = &self.sample {
            node.insert("sample".into(), sample.clone());
        }
        if let Some(example) = &self.pending_example {
            node.insert(super::settle::PENDING_EXAMPLE.into(), example.clone());
        }
        if let Some(constant) = &self.constant {
            node.insert("const".into(), Value::String(constant.clone()));
        }
        if self.sensitive {
            node.insert("sensitive".into(), Value::Bool(true));
        }
        if let Some(description) = &self.description {
            node.insert("description".into(), Value::String(description.clone()));
        }
        if self.constant.is_none() {
            if let Some(values) = &self.enum_values {
                node.insert("open".into(), Value::Bool(self.open.unwrap_or(false)));
                node.insert("enum".into(), Value::Array(values.iter().map(|v| self.enum_value(v)).collect()));
            }
            if let Some(additional) = &self.additional {
                node.insert("additional_properties".into(), Value::String(additional.clone()));
            }
            if self.refuses_unknown && self.fields.is_some() {
                node.insert("unknown_fields".into(), Value::String("refuse".into()));
            }
            if let Some(fields) = &self.fields {
                node.insert("fields".into(), Value::Object(fields.clone()));
            }
        }
        if !self.gaps.is_empty() {
            node.insert("gaps".into(), Value::Array(self.gaps.iter().cloned().map(Value::String).collect()));
        }
        node
    }
}
