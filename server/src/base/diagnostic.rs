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
    /// How this diagnostic reads as one part of another one's message at the same place: one
    /// mistake with several consequences (the `allow` key that removes tools which the prompt
    /// still names and isolated subagents still have) is reported once. [`merge_parts`] merges
    /// the diagnostics that have one, after the project's decisions took out those it turned off.
    #[serde(skip)]
    pub part: Option<Box<str>>,
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

    /// The diagnostic with how it reads as a part of another at the same place ([`merge_parts`]).
    pub fn with_part(mut self, text: impl Into<String>) -> Self {
        self.part = Some(text.into().into_boxed_str());
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

/// `diagnostics`, sorted by [`Diagnostic::sort_key`], with every one that has a `part` merged into
/// the first one that has a `part` at the same place (file and range; the lowest code, since the
/// sort puts codes in order): that one keeps its code and message, adds each part's text, its
/// fixes and related locations, each consequence not already said, and the most severe
/// severity. A diagnostic without a `part` is never merged, nor merged into.
pub fn merge_parts(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::with_capacity(diagnostics.len());
    for diagnostic in diagnostics {
        let head = diagnostic.part.as_ref().and_then(|_| {
            out.iter_mut()
                .rev()
                .take_while(|d| d.path == diagnostic.path && d.range == diagnostic.range)
                .filter(|d| d.part.is_some())
                .last()
        });
        let Some(head) = head else {
            out.push(diagnostic);
            continue;
        };
        let Diagnostic {
            severity,
            consequence,
            fixes,
            related,
            part,
            ..
        } = diagnostic;
        head.message.push_str("; ");
        head.message.push_str(part.as_deref().unwrap_or_default());
        if !head.consequence.contains(consequence.as_str()) {
            head.consequence.push(' ');
            head.consequence.push_str(&consequence);
        }
        head.severity = head.severity.min(severity);
        for fix in fixes {
            if !head.fixes.contains(&fix) {
                head.fixes.push(fix);
            }
        }
        for r in related {
            if !head.related.contains(&r) {
                head.related.push(r);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(code: &'static str, start: usize, message: &str, part: Option<&str>) -> Diagnostic {
        let d = Diagnostic {
            path: PathBuf::from("/w/tools.json"),
            range: TextRange::new(start, start + 7),
            severity: Severity::Warning,
            code,
            message: message.to_string(),
            consequence: format!("{code} consequence."),
            fixes: Vec::new(),
            related: Vec::new(),
            omitted: None,
            part: None,
        };
        match part {
            Some(p) => d.with_part(p),
            None => d,
        }
    }

    #[test]
    fn parts_at_one_place_are_one_diagnostic() {
        let related = Related {
            path: PathBuf::from("/w/subagents/a.md"),
            range: TextRange::new(0, 3),
            message: "isolated".into(),
        };
        let merged = merge_parts(vec![
            at("TJ025", 4, "allow removes x", Some("-")),
            at(
                "TJ029",
                4,
                "allow removes x for the main agent",
                Some("a still has it"),
            )
            .with_related(related.clone())
            .with_severity(Severity::Error),
            at(
                "TJ030",
                4,
                "tools.json removes x, but",
                Some("the prompt names x"),
            )
            .with_consequence("TJ025 consequence."),
            // Another place, and a diagnostic without a part at the same place.
            at(
                "TJ030",
                20,
                "tools.json removes y, but",
                Some("the prompt names y"),
            ),
            at("TJ022", 20, "y is allowed and denied", None),
        ]);
        let summary: Vec<(&str, usize, &str, &str, Severity)> = merged
            .iter()
            .map(|d| {
                (
                    d.code,
                    d.range.start,
                    d.message.as_str(),
                    d.consequence.as_str(),
                    d.severity,
                )
            })
            .collect();
        assert_eq!(
            summary,
            vec![
                (
                    "TJ025",
                    4,
                    "allow removes x; a still has it; the prompt names x",
                    "TJ025 consequence. TJ029 consequence.",
                    Severity::Error
                ),
                (
                    "TJ030",
                    20,
                    "tools.json removes y, but",
                    "TJ030 consequence.",
                    Severity::Warning
                ),
                (
                    "TJ022",
                    20,
                    "y is allowed and denied",
                    "TJ022 consequence.",
                    Severity::Warning
                ),
            ]
        );
        assert_eq!(merged[0].related, vec![related]);
    }
}
