//! SK003 `skill-leading-whitespace`: blank lines or spaces before the opening `---`; the fix deletes them.

use super::Parser;
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SK003",
    name: "skill-leading-whitespace",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"Blank lines or spaces come before the opening `---`."#,
    consequence: r#"The skill is missing from the prompt's skill list: the agent never sees or loads it."#,
    explanation: r#"The frontmatter must start at offset 0. The fix removes what comes before the opening `---`."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"
---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:1:1",
    }],
}

impl Parser<'_> {
    pub(super) fn leading_whitespace(&mut self, range: TextRange) {
        let fix = self.delete_fix(range, "Remove what comes before `---`");
        self.out.push(
            RULE.at(&self.path, range, "blank lines or spaces before the opening `---`; the runtime sees no frontmatter and skips the skill")
                .with_fix(fix),
        );
    }
}
