//! WS010 `additional-context-binary`: an additional context file has a binary extension.

use super::AdditionalFile;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::layers::BINARY_EXTENSIONS;

declare_rule! {
    code: "WS010",
    name: "additional-context-binary",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "An additional context file has a binary extension (.png, .pdf, …).",
    consequence:
        "The local filesystem returns it base64-encoded, and that text is injected into the prompt.",
    explanation: "Binary files are not useful prompt context. Convert the content to Markdown.",
    examples: &[Example {
        base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
        triggering: &[
            ("agentws.toml", r#"[agent]
name = "release"
additional_context_files = ["calendar.pdf"]
"#),
            (".agentscope/workspace/calendar.pdf", "%PDF-1.4\n"),
        ],
        fixed: &[
            ("agentws.toml", r#"[agent]
name = "release"
additional_context_files = ["calendar.md"]
"#),
            (".agentscope/workspace/calendar.md", "Deploys are frozen on Fridays.\n"),
        ],
        at: "agentws.toml:3:29",
    }],
}

pub(super) fn check(file: &AdditionalFile) -> Option<Diagnostic> {
    if !file.stays_inside() {
        return None;
    }
    let extension = file
        .rel
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase());
    extension
        .is_some_and(|e| BINARY_EXTENSIONS.contains(&e.as_str()))
        .then(|| {
            RULE.at(
                &file.at.0,
                file.at.1,
                format!(
                    "additional context file `{}` has a binary extension",
                    file.configured
                ),
            )
        })
}
