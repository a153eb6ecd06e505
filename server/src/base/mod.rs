//! Foundation types shared by every layer: text ranges and positions, the file set the analysis
//! reads from, and diagnostics. Depends on nothing else in the crate.

pub mod diagnostic;
#[cfg(test)]
pub mod expect;
pub mod files;
pub mod json_delta;
pub mod memory;
pub mod pathutil;
pub mod percent;
pub mod redact;
pub mod suggest;
pub mod text;
pub mod unicode;

use std::sync::Arc;

pub use diagnostic::{apply_edits, Diagnostic, FileEdit, Fix, Related, Severity};
pub use files::{FileContent, FileEntry, FileSet};
pub use text::{ColumnHint, Encoding, LineCol, LineIndex, TextRange};

/// Whether two shared values are equal, the pointers compared first: a memoised value that did
/// not change is most often the very same allocation, and comparing it field by field is what
/// would make the analysis's early cut-off cost.
pub fn same<T: PartialEq + ?Sized>(a: &Arc<T>, b: &Arc<T>) -> bool {
    Arc::ptr_eq(a, b) || a == b
}

/// A list of shared values, equal when each entry is [`same`].
#[derive(Clone, Debug)]
pub struct SharedList<T>(pub Vec<Arc<T>>);

impl<T> Default for SharedList<T> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<T: PartialEq> PartialEq for SharedList<T> {
    fn eq(&self, other: &Self) -> bool {
        self.0.len() == other.0.len() && self.0.iter().zip(&other.0).all(|(a, b)| same(a, b))
    }
}

impl<T> std::ops::Deref for SharedList<T> {
    type Target = [Arc<T>];

    fn deref(&self) -> &[Arc<T>] {
        &self.0
    }
}

impl<T> FromIterator<Arc<T>> for SharedList<T> {
    fn from_iter<I: IntoIterator<Item = Arc<T>>>(iter: I) -> Self {
        Self(iter.into_iter().collect())
    }
}

/// Process environment variables as an explicit value (tools.json `${NAME}` substitution reads it;
/// the core never calls `std::env` itself).
pub type Env = std::collections::BTreeMap<String, String>;
