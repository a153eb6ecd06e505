//! SK007 `skill-missing-name`: `name` is missing or blank (found with SK009 by `Parser::check_required`).

use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SK007",
    name: "skill-missing-name",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"`name` is missing or blank."#,
    consequence: r#"The runtime rejects the skill ("must have a YAML Front Matter including `name` and `description`") and skips it."#,
    explanation: r#"Every skill needs a non-blank `name` string in its frontmatter."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
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
