//! A spanned YAML tree for frontmatter, typed the way the runtime types it.
//!
//! Skills are read by SnakeYAML (YAML 1.1 typing: `yes`/`no`/`on`/`off` are booleans, `1:30` is
//! 90, `2024-01-01` a Date) and subagents by Jackson (YAML 1.2-ish). Parsing goes through
//! `serde-saphyr` with budgets (depth, aliases, nodes), so hostile documents become errors instead
//! of crashes. Every node keeps the byte range of its key and value in the original file.
//!
//! OWNER: the skills/subagents parsing work (see docs/architecture.md).

use crate::base::TextRange;

/// How scalars are typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Typing {
    /// SnakeYAML `SafeConstructor` (skills).
    Yaml11,
    /// Jackson YAML (subagents).
    Jackson,
}

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
}

/// A value with the byte range of its source text (in the whole file, not the frontmatter).
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub range: TextRange,
}

/// One map entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: String,
    pub key_range: TextRange,
    pub value: Node,
}
