//! SA017 `subagent-deprecated-max-iters`: `maxIters`, the deprecated alias of `steps`, which the
//! runtime reads only when `steps` is not a number.

use super::{number, Parser};
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::Entry;

declare_rule! {
    code: "SA017",
    name: "subagent-deprecated-max-iters",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: r#"`maxIters` is used."#,
    consequence: r#"Deprecated alias; used only when `steps` is not a number."#,
    explanation: r#"Write `steps:` instead."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
maxIters: 15
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
        at: ".agentscope/workspace/subagents/researcher.md:3:1",
    }],
}

impl Parser<'_> {
    /// The frontmatter's `max_iters` and `steps` entries, each `None` when not written.
    pub(super) fn deprecated_max_iters(
        &mut self,
        max_iters: Option<&Entry>,
        steps: Option<&Entry>,
    ) {
        let Some(max_iters) = max_iters else {
            return;
        };
        self.push(
            &RULE,
            max_iters.key_range,
            if steps.is_some_and(|s| number(&s.value.value).is_some()) {
                "`maxIters` is deprecated and ignored here because `steps` is a number"
            } else {
                "`maxIters` is a deprecated alias of `steps`; write `steps:` instead"
            },
        );
    }
}
