//! WS002 `agents-md-missing`: no AGENTS.md in the workspace nor in the project folder.

use super::Anchor;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::{Tree, Workspace};

declare_rule! {
    code: "WS002",
    name: "agents-md-missing",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "The workspace has no AGENTS.md (neither shared nor in the project folder).",
    consequence:
        "The runtime logs a WARN and injects an empty `<agents_context>`: the agent has no persona.",
    explanation:
        "AGENTS.md is the only file the documentation calls needed. Without it the prompt's \
`<agents_context></agents_context>` is empty. Create `AGENTS.md` in the workspace.",
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/MEMORY.md",
            r#"- The release branch is `main`.
"#,
        )],
        fixed: &[
            (
                ".agentscope/workspace/MEMORY.md",
                r#"- The release branch is `main`.
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
        ],
        at: ".agentscope/workspace:1:1",
    }],
}

pub(super) fn check(workspace: &Workspace, anchor: &Anchor) -> Option<Diagnostic> {
    let has_agents = [Tree::Shared, Tree::Project].iter().any(|tree| {
        workspace
            .files
            .contains_file(&workspace.path_in(tree, "AGENTS.md"))
    });
    if has_agents {
        return None;
    }
    Some(RULE.at(
        &anchor.0,
        anchor.1,
        format!(
            "no AGENTS.md in `{}` or the project folder",
            workspace.config.workspace.display()
        ),
    ))
}
