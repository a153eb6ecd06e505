//! The tree a YAML text becomes: values as the runtime ends up holding them after typing, each
//! with the range it was written at. Depends on `base` only.

use crate::base::TextRange;

/// A value as the runtime ends up holding it after YAML typing.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// An integer; kept as its decimal text so big integers print like Java's `BigInteger`.
    Int(String),
    /// A floating-point number, with the text Java's `Double.toString` prints for it.
    Float {
        value: f64,
        java: String,
    },
    Str(String),
    /// A YAML 1.1 timestamp, with the text `java.util.Date.toString()` prints for it in UTC.
    Date {
        source: String,
        java: String,
    },
    List(Vec<Node>),
    /// Entries in document order; keys are strings (non-string keys are dropped by the runtime).
    Map(Vec<Entry>),
}

impl Value {
    /// `String.valueOf(v)` for a scalar; `None` for lists and maps.
    pub fn java_string(&self) -> Option<String> {
        match self {
            Value::Null => Some("null".to_string()),
            Value::Bool(b) => Some(b.to_string()),
            Value::Int(text) => Some(text.clone()),
            Value::Float { java, .. } => Some(java.clone()),
            Value::Str(s) => Some(s.clone()),
            Value::Date { java, .. } => Some(java.clone()),
            Value::List(_) | Value::Map(_) => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Name of the runtime type, for messages (`string`, `boolean`, `integer`, …).
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "integer",
            Value::Float { .. } => "floating-point number",
            Value::Str(_) => "string",
            Value::Date { .. } => "date",
            Value::List(_) => "list",
            Value::Map(_) => "map",
        }
    }

    /// The type name with its article (`a string`, `an integer`, `null`), for "is {}" in
    /// messages: the one place that chooses between "a" and "an".
    pub fn type_phrase(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float { .. } => "a floating-point number",
            Value::Str(_) => "a string",
            Value::Date { .. } => "a date",
            Value::List(_) => "a list",
            Value::Map(_) => "a map",
        }
    }
}

/// A value with the byte range of its source text (in the whole file, not the frontmatter).
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub range: TextRange,
    /// The explicit tag written before a scalar (`!!bool` in `!!bool yes`), outside `range`;
    /// `None` for collections and aliases.
    pub tag: Option<TextRange>,
}

/// One map entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: String,
    pub key_range: TextRange,
    pub value: Node,
}
