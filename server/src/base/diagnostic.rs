//! The diagnostic type every rule produces and every front-end renders.
//!
//! A diagnostic names a rule code from the `rules` catalog, a file and a byte range, says what is wrong
//! (`message`) and what the runtime will do about it (`consequence`), and may carry certain fixes as
//! text edits. Front-ends convert byte ranges to positions; nothing here knows about output formats.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::text::TextRange;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The runtime drops the file or the entry.
    Error,
    /// The runtime falls back to a default or ignores part of it.
    Warning,
    /// Accepted, but surprising.
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One text replacement in one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileEdit {
    pub path: PathBuf,
    pub range: TextRange,
    pub new_text: String,
}

/// `text` with `edits` (sorted, non-overlapping, valid for `text`) applied: what a fix does to
/// one file, shared by `check::fix` (writing) and the tests of every rule's fix.
pub fn apply_edits(text: &str, edits: &[FileEdit]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in edits {
        out.push_str(&text[at..e.range.start]);
        out.push_str(&e.new_text);
        at = e.range.end;
    }
    out.push_str(&text[at..]);
    out
}

/// A certain fix: applying all its edits resolves the diagnostic without changing meaning beyond
/// what the title says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<FileEdit>,
}

impl Fix {
    /// The fix of one edit: `range` of `path` replaced by `new_text`.
    pub fn replace(
        title: impl Into<String>,
        path: &Path,
        range: TextRange,
        new_text: impl Into<String>,
    ) -> Fix {
        Fix {
            title: title.into(),
            edits: vec![FileEdit {
                path: path.to_path_buf(),
                range,
                new_text: new_text.into(),
            }],
        }
    }
}

/// Another location that explains a diagnostic (e.g. the duplicate that wins).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Related {
    pub path: PathBuf,
    pub range: TextRange,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Absolute path of the file the diagnostic is about.
    pub path: PathBuf,
    /// Byte range in that file's text (empty range at 0 for whole-file problems of unreadable files).
    pub range: TextRange,
    pub severity: Severity,
    /// Stable rule code, e.g. `SK001`.
    pub code: &'static str,
    pub message: String,
    /// What the AgentScope runtime does about it, in one line.
    pub consequence: String,
    pub fixes: Vec<Fix>,
    pub related: Vec<Related>,
    /// Set only on the summary of a file's diagnostics past the per-file cap (rule WS015,
    /// `rules::workspace::too_many_problems`): how many it stands for.
    #[serde(skip)]
    pub omitted: Option<Box<Omitted>>,
}

/// Diagnostics not listed, by severity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Omitted {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
}

impl Omitted {
    pub fn count(&mut self, severity: Severity) {
        match severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Info => self.infos += 1,
        }
    }

    pub fn add(&mut self, other: &Omitted) {
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.infos += other.infos;
    }

    pub fn total(&self) -> usize {
        self.errors + self.warnings + self.infos
    }

    /// The most severe of the omitted ones (`Info` when there are none).
    pub fn worst(&self) -> Severity {
        if self.errors > 0 {
            Severity::Error
        } else if self.warnings > 0 {
            Severity::Warning
        } else {
            Severity::Info
        }
    }
}

impl Diagnostic {
    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fixes.push(fix);
        self
    }

    pub fn with_related(mut self, related: Related) -> Self {
        self.related.push(related);
        self
    }

    /// The same diagnostic at another severity (rules whose severity follows the outcome).
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    pub fn with_consequence(mut self, consequence: impl Into<String>) -> Self {
        self.consequence = consequence.into();
        self
    }

    /// Sort key used everywhere diagnostics are listed: by file, then position, then code.
    pub fn sort_key(&self) -> (&PathBuf, usize, usize, &'static str) {
        (&self.path, self.range.start, self.range.end, self.code)
    }
}
