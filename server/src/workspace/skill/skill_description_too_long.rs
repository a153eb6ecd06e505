//! SK020 `skill-description-too-long`: a description over skill_manage's 1 024 characters.

use super::{Parser, SkillDoc};
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::java;

declare_rule! {
    code: "SK020",
    name: "skill-description-too-long",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: r#"The description is longer than 1 024 characters."#,
    consequence: r#"Accepted; the whole description is rendered into every prompt (skill_manage would reject it)."#,
    explanation: r#"Keep descriptions short: they are sent on every call."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:3:14",
    }],
}

pub const DESCRIPTION_MAX_CHARS: usize = 1_024;

impl Parser<'_> {
    /// Counted in UTF-16 units, as skill_manage's Java `length()` counts.
    pub(super) fn description_too_long(&mut self, doc: &SkillDoc) {
        let (Some(description), Some(range)) = (&doc.description, doc.description_range) else {
            return;
        };
        let len = java::utf16_len(description);
        if len > DESCRIPTION_MAX_CHARS {
            self.out.push(RULE.at(
                &self.path,
                range,
                format!("the description is {len} characters long (skill_manage allows {DESCRIPTION_MAX_CHARS}); all of it is rendered into every prompt"),
            ));
        }
    }
}
