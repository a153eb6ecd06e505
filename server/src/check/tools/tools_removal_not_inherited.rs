//! TJ029 `tools-removal-not-inherited`: built-ins tools.json removes for the main agent that
//! isolated subagents register again.

use super::{backticked, registers_builtins_again, some_labels, tools_json_in_project_folder};
use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{Example, Profile, Rule};
use crate::workspace::catalog::{Removal, ToolCatalog};
use crate::workspace::tools::ToolsDoc;
use crate::workspace::{Tree, Workspace};

pub static RULE: Rule = Rule {
    code: "TJ029",
    name: "tools-removal-not-inherited",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "tools.json removes a harness built-in tool, but isolated subagents still get it.",
    consequence: "allow/deny apply to the main agent only: an isolated subagent is a new agent that registers the harness built-ins again and does not read this tools.json, so it keeps the tool.",
    explanation: "tools.json is read once, by the main agent, and its allow/deny prune the main agent's \
toolkit. A declared subagent with `workspace.mode: isolated` (the default) is built as a new agent \
on its own workspace (`agents/<id>/workspace`, or `workspace.path`): it registers `read_file`, \
`write_file`, `edit_file`, `execute`, the web and memory tools again, and reads the tools.json of its \
own workspace (or of the project folder), not this one. A shared subagent and `general-purpose` use \
the main workspace, read the same tools.json and lose the tool too.\n\nSo `\"deny\": [\"execute\"]` \
does not keep the shell away from the agent as a whole: every isolated subagent the model can spawn \
still runs commands. The message names those subagents; the ones from a per-user folder are marked \
`(per-user folder `<ns>`)`, since only that user's calls spawn them. To remove the tool everywhere, switch the \
feature off in the builder (`disableShellTool()`, `disableMemoryTools()`, …), give each isolated \
subagent a workspace with its own tools.json, or make the subagents shared.\n\nagentws does not read \
an isolated subagent's own tools.json (`<workspace.path>/tools.json`, or \
`<ws>/agents/<id>/workspace/tools.json`): its folder is known only once the spec is parsed, and \
`agents/` is a runtime-owned folder agentws never walks. So the message assumes that folder has \
none; if you gave the child one that removes the tool, this diagnostic does not apply to it.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
workspace:
  mode: shared
---
You research a question and answer with sources.
"#),
            ],
        },
    ],
};

/// The built-ins tools.json removes that isolated subagents register again.
pub(super) fn check(
    workspace: &Workspace,
    doc: &ToolsDoc,
    catalog: &ToolCatalog,
) -> Vec<Diagnostic> {
    if !workspace.config.features.subagents {
        return Vec::new();
    }
    // Shared and project-folder specs first, then the per-user ones, said to be per-user: those
    // are spawned only in their user's calls.
    let read_from_project = tools_json_in_project_folder(workspace);
    let mut keepers: Vec<(Option<&str>, &str)> = workspace
        .subagents
        .iter()
        .filter(|s| registers_builtins_again(s, read_from_project))
        .map(|s| match &s.location.tree {
            Tree::Namespace(ns) => (Some(ns.as_str()), s.id.as_str()),
            _ => (None, s.id.as_str()),
        })
        .collect();
    keepers.sort_unstable();
    keepers.dedup();
    if keepers.is_empty() {
        return Vec::new();
    }
    let labels: Vec<String> = keepers
        .iter()
        .map(|(ns, id)| match ns {
            Some(ns) => format!("`{id}` (per-user folder `{ns}`)"),
            None => format!("`{id}`"),
        })
        .collect();
    let listed = some_labels(&labels, 5);
    let who = match keepers.len() {
        1 => format!(
            "the isolated subagent {listed} registers the harness built-ins again and still has"
        ),
        _ => format!(
            "the isolated subagents {listed} register the harness built-ins again and still have"
        ),
    };
    let mut denied = Vec::new();
    let mut left_out = Vec::new();
    for (name, group) in catalog.builtins() {
        if !group.registered_again_by_child() {
            continue;
        }
        match catalog.lookup(name).removal {
            Some(Removal::Denied(range)) => denied.push((name, range)),
            Some(Removal::NotAllowed) => left_out.push(name),
            None => {}
        }
    }
    denied.sort_by_key(|(_, range)| range.start);
    let mut out: Vec<Diagnostic> = denied
        .into_iter()
        .map(|(name, range)| {
            RULE.at(
                &doc.path,
                range,
                format!("`{name}` is denied for the main agent only: {who} `{name}`"),
            )
        })
        .collect();
    if !left_out.is_empty() {
        let them = if left_out.len() == 1 { "it" } else { "them" };
        out.push(RULE.at(
            &doc.path,
            doc.allow_key.unwrap_or(TextRange::empty(0)),
            format!(
                "`allow` removes {} for the main agent only: {who} {them}",
                backticked(&left_out)
            ),
        ));
    }
    out
}
