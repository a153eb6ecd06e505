//! SA016 `subagent-unknown-key`: a frontmatter key the runtime does not read; the message
//! suggests the closest key it reads.

use super::Parser;
use crate::base::suggest::{did_you_mean, hint};
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::Entry;
use crate::workspace::keys;

declare_rule! {
    code: "SA016",
    name: "subagent-unknown-key",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: r#"The frontmatter has a key the runtime does not read."#,
    consequence: r#"It changes nothing about the subagent."#,
    explanation: r#"Remote/url subagents (`url`, `headers`, …) are programmatic only; remove the key or check its spelling."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
url: https://agents.example.com/researcher
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#,
        )],
        at: ".agentscope/workspace/subagents/researcher.md:3:1",
    }],
}

impl Parser<'_> {
    /// A frontmatter `entry` other than `name:`, which has its own rule.
    pub(super) fn unknown_key(&mut self, entry: &Entry) {
        if keys::subagent(&entry.key).is_some() {
            return;
        }
        if !self.diagnostics.would_keep(entry.key_range, RULE.code) {
            // Past the per-file cap: counted, without searching for a suggestion.
            return self.diagnostics.count(RULE.severity, entry.key_range);
        }
        self.push(
            &RULE,
            entry.key_range,
            format!(
                "`{}` is not read by the runtime and is ignored{}",
                entry.key,
                hint(did_you_mean(
                    &entry.key,
                    &keys::SUBAGENT.iter().map(|k| k.name).collect::<Vec<_>>()
                ))
            ),
        );
    }
}
