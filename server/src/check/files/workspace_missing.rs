//! WS001 `workspace-missing`: the configured workspace folder does not exist.

use super::Anchor;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::Workspace;

declare_rule! {
    code: "WS001",
    name: "workspace-missing",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "The configured workspace folder does not exist.",
    consequence: "The runtime logs a WARN and builds the agent anyway, with no workspace files.",
    explanation: "`WorkspaceManager.validate()` only logs \"Workspace directory does not exist\". Every \
workspace file (AGENTS.md, skills, subagents, tools.json) is then simply absent. Check `workspace` in \
agentws.toml, or create `.agentscope/workspace/`.",
    examples: &[
        Example {
            base: Base::Shared {
                without: &[".agentscope/workspace/AGENTS.md", ".agentscope/workspace/skills/pdf/SKILL.md"],
            },
            triggering: &[
                ("agentws.toml", r#"workspace = "agent-files"
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"workspace = "agent-files"
"#),
                ("agent-files/AGENTS.md", "You are a release assistant. Answer in short sentences.\n"),
            ],
            at: "agentws.toml:1:1",
        },
    ],
}

pub(super) fn check(workspace: &Workspace, anchor: &Anchor) -> Option<Diagnostic> {
    let folder = &workspace.config.workspace;
    if workspace.files.contains_dir(folder) {
        return None;
    }
    Some(RULE.at(
        &anchor.0,
        anchor.1,
        format!("workspace folder `{}` does not exist", folder.display()),
    ))
}
