//! WS007 `file-unreadable`: a workspace file exists but cannot be read.

use std::path::Path;

use super::file_name;
use crate::base::{Diagnostic, FileContent, Severity, TextRange};
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "WS007",
    name: "file-unreadable",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "A workspace file exists but cannot be read.",
    consequence:
        "The runtime's read fails: the file is skipped (skills, subagents) or treated as missing.",
    explanation: "Fix the file's permissions.",
    examples: &[],
}

/// The read of `path` failed.
pub fn check(path: &Path, content: &FileContent) -> Option<Diagnostic> {
    let FileContent::Unreadable { error } = content else {
        return None;
    };
    Some(RULE.at(
        path,
        TextRange::empty(0),
        format!("`{}` cannot be read: {error}", file_name(path)),
    ))
}
