//! WS005 `file-too-large`: a workspace file is larger than agentws reads.

use std::path::Path;

use super::file_name;
use crate::base::{Diagnostic, FileContent, Severity, TextRange};
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "WS005",
    name: "file-too-large",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A workspace file is larger than agentws reads (16 MiB).",
    consequence: "The runtime reads it whole and injects or parses all of it; agentws did not check its content.",
    explanation: "No hand-written workspace file should come near this size; the runtime would put all of \
it into the prompt or parse it on every call. Split it or move it out of the workspace.",
    examples: &[],
}

/// The read of `path` stopped at the size cap.
pub fn check(path: &Path, content: &FileContent) -> Option<Diagnostic> {
    let FileContent::TooLarge { size } = content else {
        return None;
    };
    Some(RULE.at(
        path,
        TextRange::empty(0),
        format!(
            "`{}` is {size} bytes; agentws checks files up to 16 MiB",
            file_name(path)
        ),
    ))
}
