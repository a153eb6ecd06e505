//! SA012 `subagent-mode`: a top-level `mode` other than `primary`, `subagent` or `all`; the
//! runtime uses `all`.

use super::{java_to_string, Parser};
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::Entry;

declare_rule! {
    code: "SA012",
    name: "subagent-mode",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"Top-level `mode` is not `primary`, `subagent` or `all`."#,
    consequence: r#"The declaration loads with mode `all`, the default."#,
    explanation: r#"Use `primary`, `subagent` or `all`."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
mode: background
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
mode: subagent
---
You research a question and answer with sources.
"#,
        )],
        at: ".agentscope/workspace/subagents/researcher.md:3:7",
    }],
}

impl Parser<'_> {
    pub(super) fn unknown_mode(&mut self, mode: &Entry) {
        self.push(
            &RULE,
            mode.value.range,
            format!(
                "`mode: {}` is not `primary`, `subagent` or `all`; the runtime logs a WARN and uses `all`",
                java_to_string(&mode.value.value)
            ),
        );
    }
}
