//! SA013 `subagent-steps`: a `steps` or `maxIters` that is not a number, which the runtime
//! ignores, or that is zero or negative, which it accepts as is.

use super::{java_to_string, Parser};
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::Entry;

declare_rule! {
    code: "SA013",
    name: "subagent-steps",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"`steps` (or `maxIters`) is not a number, or is zero or negative."#,
    consequence: r#"A non-number is ignored (default 10); zero or negative is accepted as is."#,
    explanation: r#"Use a positive integer such as `steps: 15`."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
steps: many
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
steps: 15
---
You research a question and answer with sources.
"#,
        )],
        at: ".agentscope/workspace/subagents/researcher.md:3:8",
    }],
}

impl Parser<'_> {
    /// `key`'s `entry` (`steps` or `maxIters`), whose value is not a number.
    pub(super) fn steps_not_a_number(&mut self, key: &str, entry: &Entry) {
        self.push(
            &RULE,
            entry.value.range,
            format!(
                "`{key}` is {}, not a number; the runtime ignores it{}",
                entry.value.value.type_phrase(),
                if key == "steps" {
                    " and uses `maxIters` if that is a number, else the default of 10 steps"
                } else {
                    " (the default is 10 steps)"
                }
            ),
        );
    }

    /// `key`'s `entry`, the one whose number the runtime takes, truncated to `steps`.
    pub(super) fn steps_not_positive(&mut self, key: &str, entry: &Entry, steps: f64) {
        if steps > 0.0 {
            return;
        }
        self.push(
            &RULE,
            entry.value.range,
            format!(
                "`{key}: {}` is not positive; the runtime accepts it as is",
                java_to_string(&entry.value.value)
            ),
        );
    }
}
