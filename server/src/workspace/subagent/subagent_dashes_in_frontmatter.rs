//! SA020 `subagent-dashes-in-frontmatter`: a `---` inside a line of the frontmatter, which the
//! runtime takes as its close; an error when the spec is then dropped, a warning when it loads.

use super::Parser;
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::frontmatter;

declare_rule! {
    code: "SA020",
    name: "subagent-dashes-in-frontmatter",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"A `---` inside the frontmatter (not on a line of its own) closes it early."#,
    consequence: r#"The subagent loads without the keys after that line, and its prompt starts with the rest of the frontmatter."#,
    explanation: r#"Rephrase the value so it holds no `---`. Severity follows the outcome: an error when the early close makes the runtime drop the declaration, a warning when what is left still loads."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches---and cites.
steps: 15
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches and cites.
steps: 15
---
You research a question and answer with sources.
"#,
        )],
        at: ".agentscope/workspace/subagents/researcher.md:2:24",
    }],
}

impl Parser<'_> {
    /// The `closing` `---` the runtime's split found.
    pub(super) fn dashes_in_frontmatter(&mut self, closing: TextRange) {
        if let Some(range) = frontmatter::unexpected_closing(self.text, closing) {
            self.push(
                &RULE,
                range,
                "this `---` closes the frontmatter: the runtime ends the YAML at the first `---` after the opener and the rest becomes the body",
            );
        }
    }

    /// Once the outcome is known: what is left after the early `---` still loads, so a warning,
    /// not a drop.
    pub(super) fn dashes_severity_follows_outcome(&mut self) {
        if self.doc.outcome.is_err() {
            return;
        }
        self.diagnostics.change_kept(|d| {
            if d.code == RULE.code {
                d.severity = Severity::Warning;
                d.message.push_str("; what is left still loads");
            }
        });
    }
}
