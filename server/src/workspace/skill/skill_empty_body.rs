//! SK011 `skill-empty-body`: nothing follows the frontmatter; the runtime skips the skill.

use super::Parser;
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::frontmatter::SkillSplit;

declare_rule! {
    code: "SK011",
    name: "skill-empty-body",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The SKILL.md has nothing after the frontmatter."#,
    consequence: r#"The runtime rejects the skill ("must have content except for the YAML Front Matter") and skips it."#,
    explanation: r#"Write the skill's instructions below the closing `---`."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
---
"#),
        ],
        fixed: &[],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:4:1",
    }],
}

impl Parser<'_> {
    /// Reported at the closing `---`, after which nothing follows.
    pub(super) fn empty_body(&mut self, split: SkillSplit) {
        self.out.push(RULE.at(
            &self.path,
            split.closing,
            "nothing follows the frontmatter; the runtime skips a skill without content",
        ));
    }
}
