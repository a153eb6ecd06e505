//! SK009 `skill-missing-description`: `description` is missing or blank (found with SK007 by
//! `Parser::check_required`).

use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SK009",
    name: "skill-missing-description",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"`description` is missing or blank."#,
    consequence: r#"The runtime rejects the skill and skips it."#,
    explanation: r#"Every skill needs a non-blank `description` string; it is what the model reads to decide when to use the skill."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:1:1",
    }],
}
