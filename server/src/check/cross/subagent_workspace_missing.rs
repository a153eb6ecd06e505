//! XR009 `subagent-workspace-missing`: a subagent's `workspace.path` folder does not exist, or
//! has no AGENTS.md.

use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::Workspace;

declare_rule! {
    code: "XR009",
    name: "subagent-workspace-missing",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A subagent's `workspace.path` folder, or its AGENTS.md, does not exist.",
    consequence: "The subagent's system prompt base is empty (silently): it runs with only the generic subagent section.",
    explanation: "With `workspace.path` set, the prompt base is `<path>/AGENTS.md` and the inline body \
is ignored. Create the file or remove `workspace.path`.",
    examples: &[
        Example {
            base: Base::Shared {
                without: &["agentws.toml", ".agentscope/workspace/skills/pdf/SKILL.md"],
            },
            triggering: &[
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
workspace:
  path: researcher-home
---
"#),
            ],
            fixed: &[
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
workspace:
  path: researcher-home
---
"#),
                (".agentscope/workspace/researcher-home/AGENTS.md", "You research a question and answer with sources.\n"),
            ],
            at: ".agentscope/workspace/subagents/researcher.md:4:9",
        },
    ],
}

pub(super) fn check(workspace: &Workspace, subagent: &SubagentDoc) -> Option<Diagnostic> {
    let spec = subagent.workspace_path.as_ref()?;
    let dir = workspace.subagent_workspace_dir(subagent)?;
    let files = &workspace.files;
    let message = if !files.contains_dir(&dir) {
        format!("`workspace.path` folder `{}` does not exist", dir.display())
    } else if !files.contains_file(&dir.join("AGENTS.md")) {
        format!(
            "`workspace.path` folder `{}` has no AGENTS.md",
            dir.display()
        )
    } else {
        return None;
    };
    Some(RULE.at(&subagent.path, spec.range, message))
}
