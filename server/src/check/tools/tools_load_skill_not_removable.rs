//! TJ023 `tools-load-skill-not-removable`: `load_skill_through_path` denied, which the runtime
//! adds again on every prompt pass.

use std::path::Path;

use super::ListEntry;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::catalog::LOAD_SKILL_TOOL;

declare_rule! {
    code: "TJ023",
    name: "tools-load-skill-not-removable",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "`load_skill_through_path` is denied.",
    consequence: "The model keeps `load_skill_through_path`.",
    explanation: "The skills tool is not a platform tool, but it is registered again whenever the skills \
block is rendered, so tools.json cannot remove it. To hide skills, configure the skill layers instead.",
    examples: &[
        Example {
            base: Base::None,
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["load_skill_through_path"]
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
        if entry.list == "deny" && entry.info.is_registered() && entry.name == LOAD_SKILL_TOOL {
            out.push(RULE.at(
                path,
                entry.range,
                "denying `load_skill_through_path` has no effect: it is re-added on every prompt pass",
            ));
        }
    }
}
