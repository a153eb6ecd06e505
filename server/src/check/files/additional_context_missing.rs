//! WS011 `additional-context-missing`: an additional context file exists in no workspace folder.

use super::AdditionalFile;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::Tree;

declare_rule! {
    code: "WS011",
    name: "additional-context-missing",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A configured additional context file exists in no tree.",
    consequence: "The runtime reads empty content and omits the tag from the prompt.",
    explanation: "Create the file in the workspace, or remove it from `additional_context_files`.",
    examples: &[Example {
        base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
        triggering: &[
            ("agentws.toml", r#"[agent]
name = "release"
additional_context_files = ["NOTES.md"]
"#),
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
    if !file.stays_inside() {
        return None;
    }
    let workspace = file.workspace;
    let mut trees = vec![Tree::Shared, Tree::Project];
    trees.extend(workspace.namespaces.iter().cloned().map(Tree::Namespace));
    let exists = trees.iter().any(|tree| {
        workspace
            .files
            .contains_file(&workspace.path_in(tree, &file.rel))
    });
    (!exists).then(|| {
        RULE.at(
            &file.at.0,
            file.at.1,
            format!(
                "additional context file `{}` exists in no workspace folder",
                file.configured
            ),
        )
    })
}
