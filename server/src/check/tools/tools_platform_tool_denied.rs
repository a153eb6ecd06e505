//! TJ024 `tools-platform-tool-denied`: a platform tool in `deny`, which removes it.

use std::path::Path;

use super::ListEntry;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::catalog::LOAD_SKILL_TOOL;

declare_rule! {
    code: "TJ024",
    name: "tools-platform-tool-denied",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "`deny` removes a platform tool.",
    consequence: "Removed: deny applies to platform tools too (only `allow` spares them).",
    explanation: "Platform tools (`task_output`, `agent_spawn`, `wait_async_results`, `plan_enter`, …) \
survive a restrictive `allow`, but `deny` removes them. Make sure the agent can do without it (denying \
`agent_spawn` while subagents are on leaves the subagent section pointing at a missing tool).",
    examples: &[
        Example {
            base: Base::None,
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["task_output"]
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{}
"#),
            ],
            at: ".agentscope/workspace/tools.json:2:12",
        },
    ],
}

pub(super) fn check(path: &Path, entries: &[ListEntry], out: &mut Vec<Diagnostic>) {
    for entry in entries {
        let denied_platform =
            entry.list == "deny" && entry.info.is_registered() && entry.info.platform;
        // `load_skill_through_path` is TJ023's: denying it removes nothing.
        if denied_platform && entry.name != LOAD_SKILL_TOOL {
            out.push(RULE.at(
                path,
                entry.range,
                format!("`{}` is a platform tool; deny removes it", entry.name),
            ));
        }
    }
}
