//! XR008 `subagent-workspace-in-subagents`: a subagent's `workspace.path` folder lies inside a
//! `subagents/` folder, whose files the scans read as subagent specs.

use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::{Tree, Workspace};

declare_rule! {
    code: "XR008",
    name: "subagent-workspace-in-subagents",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A subagent's `workspace.path` points inside `subagents/`.",
    consequence:
        "Its AGENTS.md is read as a subagent named `AGENTS` and dropped for lacking frontmatter.",
    explanation:
        "Keep subagent workspaces outside the `subagents/` folder, e.g. under `agents/<id>/`.",
    examples: &[Example {
        base: Base::Shared {
            without: &["agentws.toml", ".agentscope/workspace/skills/pdf/SKILL.md"],
        },
        triggering: &[
            (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
workspace:
  path: subagents/researcher-home
---
"#),
            (".agentscope/workspace/subagents/researcher-home/AGENTS.md", "You research a question and answer with sources.\n"),
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
    }],
}

pub(super) fn check(workspace: &Workspace, subagent: &SubagentDoc) -> Option<Diagnostic> {
    let spec = subagent.workspace_path.as_ref()?;
    let dir = workspace.subagent_workspace_dir(subagent)?;
    let config = &workspace.config;
    let inside_subagents = [Tree::Shared, Tree::Project]
        .iter()
        .map(|t| workspace.path_in(t, "subagents"))
        .chain(
            workspace
                .namespaces
                .iter()
                .map(|ns| config.workspace.join(ns).join("subagents")),
        )
        .any(|folder| dir.starts_with(folder));
    inside_subagents.then(|| {
        RULE.at(
            &subagent.path,
            spec.range,
            format!(
                "`workspace.path` `{}` is inside a `subagents/` folder",
                spec.value
            ),
        )
    })
}
