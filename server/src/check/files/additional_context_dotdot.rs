//! WS009 `additional-context-dotdot`: an additional context file has a `..` segment (and stays
//! inside the workspace: one that leaves it is WS008's).

use super::AdditionalFile;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "WS009",
    name: "additional-context-dotdot",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary:
        "An additional context file path contains a `..` segment (even one that stays inside).",
    consequence:
        "The runtime refuses the path while building the prompt: every call fails.",
    explanation:
        "The runtime throws `IllegalArgumentException` on such a path. The project layer is always SANDBOXED and rejects `..` segments, so `a/../b.md` fails \
the call in every path mode. Write the normalized path (`b.md`).",
    examples: &[Example {
        base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
        triggering: &[
            ("agentws.toml", r#"[agent]
name = "release"
additional_context_files = ["notes/../NOTES.md"]
"#),
            (".agentscope/workspace/NOTES.md", "Deploys are frozen on Fridays.\n"),
        ],
        fixed: &[
            ("agentws.toml", r#"[agent]
name = "release"
additional_context_files = ["NOTES.md"]
"#),
            (".agentscope/workspace/NOTES.md", "Deploys are frozen on Fridays.\n"),
        ],
        at: "agentws.toml:3:29",
    }],
}

pub(super) fn check(file: &AdditionalFile) -> Option<Diagnostic> {
    (!file.escapes() && file.climbs()).then(|| {
        RULE.at(
            &file.at.0,
            file.at.1,
            format!(
                "additional context file `{}` contains a `..` segment",
                file.configured
            ),
        )
    })
}
