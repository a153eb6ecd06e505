//! SK002 `skill-bom`: a UTF-8 byte order mark before the opening `---`; the fix deletes it.

use super::Parser;
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SK002",
    name: "skill-bom",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The SKILL.md starts with a UTF-8 byte order mark before `---`."#,
    consequence: r#"The skill is missing from the prompt's skill list: the agent never sees or loads it."#,
    explanation: r#"Java keeps U+FEFF as the first character of the text, so the `^---` match fails. Save the file as UTF-8 without BOM; the fix deletes the three BOM bytes."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            "\u{feff}---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
",
        )],
        fixed: &[],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:1:1",
    }],
}

impl Parser<'_> {
    pub(super) fn bom(&mut self, range: TextRange) {
        let fix = self.delete_fix(range, "Delete the byte order mark");
        self.out.push(
            RULE.at(&self.path, range, "the file starts with a UTF-8 byte order mark before `---`; the runtime sees no frontmatter and skips the skill")
                .with_fix(fix),
        );
    }
}
