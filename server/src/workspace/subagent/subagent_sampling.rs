//! SA014 `subagent-sampling`: a `temperature` or `top_p` that is not numeric, which the runtime
//! ignores (the parent's value is inherited), or out of range, which it passes to the model.

use super::{java_to_string, Parser};
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::Entry;

declare_rule! {
    code: "SA014",
    name: "subagent-sampling",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"`temperature` or `top_p` is not numeric, or out of range."#,
    consequence: r#"A non-numeric value is ignored (WARN, the parent's value is inherited); an out-of-range one is passed to the model."#,
    explanation: r#"`temperature` is usually 0–2 and `top_p` 0–1."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
temperature: 7
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
temperature: 0.7
---
You research a question and answer with sources.
"#,
        )],
        at: ".agentscope/workspace/subagents/researcher.md:3:14",
    }],
}

impl Parser<'_> {
    /// `key`'s `entry` (`temperature` or `top_p`), which is neither null nor a number.
    pub(super) fn sampling_not_numeric(&mut self, key: &str, entry: &Entry) {
        self.push(
            &RULE,
            entry.value.range,
            format!(
                "`{key}: {}` is not numeric; the runtime logs a WARN and inherits the parent's value",
                java_to_string(&entry.value.value)
            ),
        );
    }

    /// `key`'s `entry`, read as `value`, which is usually between 0 and `max`.
    pub(super) fn sampling_out_of_range(&mut self, key: &str, entry: &Entry, value: f64, max: f64) {
        if (0.0..=max).contains(&value) {
            return;
        }
        self.push(
            &RULE,
            entry.value.range,
            format!(
                "`{key}: {}` is outside 0–{max}; the runtime passes it to the model unchecked",
                java_to_string(&entry.value.value)
            ),
        );
    }
}
