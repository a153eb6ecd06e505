//! WS004 `file-not-utf8`: a workspace file is not valid UTF-8 text, or is binary.

use std::path::Path;

use super::file_name;
use crate::base::{Diagnostic, FileContent, Severity, TextRange};
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "WS004",
    name: "file-not-utf8",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "A workspace file is not valid UTF-8 text (or is a binary file with a workspace file's name).",
    consequence: "The runtime cannot read it as UTF-8 text; the file is skipped or its content garbled.",
    explanation: "All workspace files are read as UTF-8. Re-save the file as UTF-8, or remove the binary \
file that carries a workspace file's name.",
    examples: &[],
}

/// The read of `path` found bytes that are not UTF-8.
pub fn check(path: &Path, content: &FileContent) -> Option<Diagnostic> {
    let FileContent::NotUtf8 {
        valid_up_to,
        binary,
    } = content
    else {
        return None;
    };
    let message = if *binary {
        format!("`{}` is a binary file, not text", file_name(path))
    } else {
        format!(
            "`{}` is not valid UTF-8 (first invalid byte at offset {valid_up_to})",
            file_name(path)
        )
    };
    Some(RULE.at(path, TextRange::empty(0), message))
}
