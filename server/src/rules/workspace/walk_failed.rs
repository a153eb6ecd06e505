//! WS006 `walk-failed`: a folder could not be walked. `workspace::discover` meets the problem
//! while walking and says where and why; this is what the report makes of it.

use std::path::Path;

use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "WS006",
    name: "walk-failed",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A folder could not be walked (symbolic link loop, permission denied).",
    consequence:
        "The runtime's scan may fail or loop the same way; files below it were not checked.",
    explanation: "Remove the symbolic link loop or fix the folder's permissions.",
    examples: &[],
}

/// The walk could not go into `path` (or past it) for `reason`.
pub fn at(path: &Path, reason: &str) -> Diagnostic {
    RULE.at(
        path,
        TextRange::empty(0),
        format!("could not walk: {reason}"),
    )
}
