//! TJ025 `tools-allow-removes-builtins`: an `allow` list that leaves file or memory built-ins
//! out, which removes them.

use std::collections::BTreeMap;

use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::catalog::{BuiltinGroup, Removal, ToolCatalog};
use crate::workspace::tools::ToolsDoc;

declare_rule! {
    code: "TJ025",
    name: "tools-allow-removes-builtins",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A non-empty `allow` leaves out built-in tools the agent's features rely on.",
    consequence: "Every registered tool not in `allow` is removed, except the platform tools from runtime 2.0.3-SNAPSHOT on.",
    explanation: "`allow` is an allow-list over ALL registered tools, built-ins included. Leaving out \
the file tools or the memory tools removes them although the prompt still describes the workspace and \
memory. From runtime 2.0.3-SNAPSHOT on, the platform tools (`agent_spawn`, `agent_send`, \
`agent_list`, `task_output`, `task_cancel`, `task_list`, `wait_async_results`, the plan-mode tools) \
stay whatever `allow` says; at 2.0.2 `allow` removes them as well, while the `## Subagents` section \
and the plan banner still name them (TJ030). List them, or use `deny` for the few tools you want gone.",
    examples: &[
        Example {
            base: Base::None,
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "allow": ["read_file", "list_files"]
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute", "write_file", "edit_file"]
}
"#),
            ],
            at: ".agentscope/workspace/tools.json:2:3",
        },
    ],
}

pub(super) fn check(doc: &ToolsDoc, catalog: &ToolCatalog, out: &mut Vec<Diagnostic>) {
    if doc.allow.is_empty() {
        return;
    }
    let anchor = doc.allow_key.unwrap_or(TextRange::empty(0));
    // Leaving `load_skill_through_path` out of `allow` is not reported: it has no effect, and
    // nothing needs fixing (the scaffold templates do it).
    let mut dropped: BTreeMap<&'static str, Vec<&str>> = BTreeMap::new();
    for (name, group) in catalog.builtins() {
        // The subagent, async and plan tools are platform tools that `allow` keeps from
        // 2.0.3-SNAPSHOT on; under 2.0.2 it removes them too.
        let relied_on = matches!(
            group,
            BuiltinGroup::File
                | BuiltinGroup::Memory
                | BuiltinGroup::Subagent
                | BuiltinGroup::Async
                | BuiltinGroup::Plan
        );
        if relied_on && catalog.lookup(name).removal == Some(Removal::NotAllowed) {
            dropped.entry(group.label()).or_default().push(name);
        }
    }
    if dropped.is_empty() {
        return;
    }
    let what: Vec<String> = dropped
        .iter()
        .map(|(label, names)| {
            let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            format!("{label} {}", names.join(", "))
        })
        .collect();
    let message = format!(
        "`allow` removes built-in {} (list them in `allow`, or use `deny` for what should go)",
        what.join("; ")
    );
    // The first of what the key causes (TJ029 and TJ030 add theirs to it).
    out.push(RULE.at(&doc.path, anchor, &message).with_part(message));
}
