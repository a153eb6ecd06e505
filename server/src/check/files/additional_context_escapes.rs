//! WS008 `additional-context-escapes`: an additional context file resolves outside the workspace.

use super::AdditionalFile;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "WS008",
    name: "additional-context-escapes",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "An additional context file path escapes the workspace.",
    consequence: "The runtime silently reads nothing: the tag is omitted from the prompt.",
    explanation:
        "`additionalContextFile` paths are resolved under the workspace; one whose normalized \
path leaves it yields empty content. Move the file into the workspace.",
    examples: &[Example {
        base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
        triggering: &[
            ("agentws.toml", r#"[agent]
name = "release"
additional_context_files = ["../STYLE.md"]
"#),
            (".agentscope/STYLE.md", "Write dates as YYYY-MM-DD.\n"),
        ],
        fixed: &[
            ("agentws.toml", r#"[agent]
name = "release"
additional_context_files = ["STYLE.md"]
"#),
            (".agentscope/workspace/STYLE.md", "Write dates as YYYY-MM-DD.\n"),
        ],
        at: "agentws.toml:3:29",
    }],
}

pub(super) fn check(file: &AdditionalFile) -> Option<Diagnostic> {
    file.escapes().then(|| {
        RULE.at(
            &file.at.0,
            file.at.1,
            format!(
                "additional context file `{}` resolves outside the workspace",
                file.configured
            ),
        )
    })
}
