//! XR015 `subagent-tool-removed-builtin`: a subagent's `tools:` names a harness built-in that
//! tools.json removes: whether the child has it depends on whether it reads that tools.json.

use super::{names_list, ListedTool, Span};
use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::catalog::ToolOrigin;
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::Workspace;

declare_rule! {
    code: "XR015",
    name: "subagent-tool-removed-builtin",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A subagent's `tools:` names a harness built-in that tools.json removes.",
    consequence: "An isolated subagent registers the built-ins again and keeps the tool whatever tools.json says; a shared one reads the same tools.json and does not get it whatever `tools:` says.",
    explanation: "tools.json applies to the main agent's toolkit. An isolated child is a new agent that \
registers `read_file`, `execute`, the memory tools and the other built-ins itself, so a tool denied for \
the main agent is still there in the child. A shared child uses the main workspace and its tools.json, \
so the tool is gone there too and naming it in `tools:` brings nothing back. Either way `tools:` does \
not decide it: remove the tool in the builder (`disableShellTool()`, …) to take it from every agent.",
    examples: &[
        Example {
            base: Base::Shared {
                without: &["agentws.toml", ".agentscope/workspace/skills/pdf/SKILL.md"],
            },
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
tools: [execute]
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
---
You research a question and answer with sources.
"#),
            ],
            at: ".agentscope/workspace/subagents/researcher.md:3:9",
        },
    ],
}

pub(super) fn check(
    workspace: &Workspace,
    (subagent, line): (&SubagentDoc, TextRange),
    listed: &[ListedTool],
) -> Option<Diagnostic> {
    let removed: Vec<&ListedTool> = listed
        .iter()
        .filter(|entry| matches!(entry.info.origin, ToolOrigin::BuiltIn(_)) && entry.removed())
        .collect();
    if removed.is_empty() {
        return None;
    }
    let names: Vec<&str> = removed.iter().map(|entry| entry.name).collect();
    let listed = names_list(&names);
    let it = if names.len() == 1 { "it" } else { "them" };
    let message = if crate::check::tools::child_skips_tools_json(workspace, subagent) {
        format!(
            "tools.json removes {listed} from the main agent only: this subagent is isolated (the default when its spec does not set `workspace.mode: shared`): it registers the harness built-ins again and still has {it}, whatever `tools:` says"
        )
    } else {
        format!(
            "tools.json removes {listed}, and this subagent reads the same tools.json: it does not get {it}, whatever `tools:` says"
        )
    };
    Some(RULE.at(
        &subagent.path,
        Span::of(removed.iter().map(|entry| entry.range)).or(line),
        message,
    ))
}
