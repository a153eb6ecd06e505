//! SA010 `subagent-workspace-mode`: a `workspace.mode` other than `isolated` or `shared`; the
//! runtime uses `isolated`.

use super::{java_to_string, Parser};
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::Entry;

declare_rule! {
    code: "SA010",
    name: "subagent-workspace-mode",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"`workspace.mode` is not `isolated` or `shared`."#,
    consequence: r#"The subagent works in its own isolated workspace, the default."#,
    explanation: r#"Use `isolated` or `shared`."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
workspace:
  mode: private
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
workspace:
  mode: isolated
---
You research a question and answer with sources.
"#,
        )],
        at: ".agentscope/workspace/subagents/researcher.md:4:9",
    }],
}

impl Parser<'_> {
    /// `mode` is the `workspace` map's entry.
    pub(super) fn unknown_workspace_mode(&mut self, mode: &Entry) {
        self.push(
            &RULE,
            mode.value.range,
            format!(
                "`workspace.mode: {}` is neither `isolated` nor `shared`; the runtime logs a WARN and uses `isolated`",
                java_to_string(&mode.value.value)
            ),
        );
    }
}
