//! TJ004 `tools-json-blank`: a blank tools.json; the runtime parses its empty-file reminder
//! instead, which is not JSON.

use std::path::Path;

use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::layers::EMPTY_FILE_REMINDER;

declare_rule! {
    code: "TJ004",
    name: "tools-json-blank",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "tools.json exists but is blank.",
    consequence: "The local filesystem returns \"System reminder: File exists but has empty contents\" for it; that text is not JSON, so the runtime logs a warning and uses the default toolkit.",
    explanation: "A blank tools.json behaves like no tools.json, but the runtime logs a parse failure at \
every build. Delete the file, or write `{}`.",
    examples: &[
        Example {
            base: Base::None,
            triggering: &[
                (".agentscope/workspace/tools.json", r#"
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{}
"#),
            ],
            at: ".agentscope/workspace/tools.json:1:1",
        },
    ],
}

pub(super) fn diagnostic(path: &Path) -> Diagnostic {
    RULE.at(
        path,
        TextRange::empty(0),
        format!(
            "tools.json is blank; the runtime parses \"{EMPTY_FILE_REMINDER}\" instead and fails"
        ),
    )
}
