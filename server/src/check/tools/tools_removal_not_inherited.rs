//! TJ029 `tools-removal-not-inherited`: built-ins tools.json removes for the main agent that
//! isolated subagents register again.

use super::{backticked, registers_builtins_again, some_labels, tools_json_in_project_folder};
use crate::base::{Diagnostic, Related, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::catalog::{Removal, ToolCatalog};
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::tools::ToolsDoc;
use crate::workspace::{Tree, Workspace};

declare_rule! {
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
still runs commands. A subagent is isolated unless its spec sets `workspace.mode: shared`, so most \
are without anyone having chosen it. The message names those subagents; the ones from a per-user folder are marked \
`(per-user folder `<ns>`)`, since only that user's calls spawn them. To remove the tool everywhere, switch the \
feature off in the builder (`disableShellTool()`, `disableMemoryTools()`, …), give each isolated \
subagent a workspace with its own tools.json, or make the subagents shared.\n\nagentws does not read \
an isolated subagent's own tools.json (`<workspace.path>/tools.json`, or \
`<ws>/agents/<id>/workspace/tools.json`): its folder is known only once the spec is parsed, and \
`agents/` is a runtime-owned folder agentws never walks. So the message assumes that folder has \
none; if you gave the child one that removes the tool, this diagnostic does not apply to it.\n\n\
What one list causes is said once, at its key: the tools `deny` names together, and with them the \
prompt sections that still name them (TJ030); at `allow`, after the built-ins it removes (TJ025). \
Each subagent that keeps the tools is a related location.",
    examples: &[
        Example {
            base: Base::None,
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
            at: ".agentscope/workspace/tools.json:2:3",
        },
    ],
}

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
    let mut keepers: Vec<(Option<&str>, &str, &SubagentDoc)> = workspace
        .subagents
        .iter()
        .filter(|s| registers_builtins_again(s, read_from_project))
        .map(|s| match &s.location.tree {
            Tree::Namespace(ns) => (Some(ns.as_str()), s.id.as_str(), &**s),
            _ => (None, s.id.as_str(), &**s),
        })
        .collect();
    keepers.sort_unstable_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    keepers.dedup_by(|a, b| (a.0, a.1) == (b.0, b.1));
    if keepers.is_empty() {
        return Vec::new();
    }
    let labels: Vec<String> = keepers
        .iter()
        .map(|(ns, id, _)| match ns {
            Some(ns) => format!("`{id}` (per-user folder `{ns}`)"),
            None => format!("`{id}`"),
        })
        .collect();
    let listed = some_labels(&labels, 5);
    // Most subagents are isolated because nothing says otherwise: say it is the default.
    let who = match keepers.len() {
        1 => format!(
            "the subagent {listed} is isolated (the default when its spec does not set `workspace.mode: shared`): it registers the harness built-ins again and still has"
        ),
        _ => format!(
            "the subagents {listed} are isolated (the default when a spec does not set `workspace.mode: shared`): they register the harness built-ins again and still have"
        ),
    };
    let related: Vec<Related> = keepers
        .iter()
        .map(|(_, id, subagent)| Related {
            path: subagent.path.clone(),
            // The file, not a place in it: the engine runs this rule again only when a
            // subagent's path changes, not on every edit of its text (`BuiltinRegistrars`).
            range: TextRange::empty(0),
            message: format!("`{id}` works in a workspace of its own and keeps the built-in tools"),
        })
        .collect();
    let with_related = |mut diagnostic: Diagnostic| {
        diagnostic.related.extend(related.iter().cloned());
        diagnostic
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
    let mut out = Vec::new();
    if !denied.is_empty() {
        let names: Vec<&str> = denied.iter().map(|(name, _)| *name).collect();
        let (are, them) = match names.len() {
            1 => ("is", format!("`{}`", names[0])),
            _ => ("are", "them".to_string()),
        };
        let what = format!(
            "{} {are} denied for the main agent only",
            backticked(&names)
        );
        out.push(with_related(
            RULE.at(
                &doc.path,
                doc.deny_key.unwrap_or(TextRange::empty(0)),
                format!("{what}: {who} {them}"),
            )
            .with_part(format!("{what}: {who} {them}")),
        ));
    }
    if !left_out.is_empty() {
        let them = if left_out.len() == 1 { "it" } else { "them" };
        out.push(with_related(
            RULE.at(
                &doc.path,
                doc.allow_key.unwrap_or(TextRange::empty(0)),
                format!(
                    "`allow` removes {} for the main agent only: {who} {them}",
                    backticked(&left_out)
                ),
            )
            // After TJ025's list, or the prompt's sections, which name the tools.
            .with_part(format!(
                "that holds for the main agent only: {who} every built-in tool `allow` leaves out"
            )),
        ));
    }
    out
}
