//! Foundation types shared by every layer: text ranges and positions, the file set the analysis
//! reads from, and diagnostics. Depends on nothing else in the crate.

pub mod diagnostic;
pub mod files;
pub mod json_delta;
pub mod memory;
pub mod pathutil;
pub mod redact;
pub mod suggest;
pub mod text;
pub mod unicode;

pub use diagnostic::{apply_edits, Diagnostic, FileEdit, Fix, Related, Severity};
pub use files::{FileContent, FileEntry, FileSet};
pub use text::{ColumnHint, Encoding, LineCol, LineIndex, TextRange};

/// Process environment variables as an explicit value (tools.json `${NAME}` substitution reads it;
/// the core never calls `std::env` itself).
pub type Env = std::collections::BTreeMap<String, String>;
