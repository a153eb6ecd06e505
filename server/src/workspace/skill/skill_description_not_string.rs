//! SK010 `skill-description-not-string`: `description` is not a YAML string (found with SK008 by
//! `Parser::check_required`).

use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SK010",
    name: "skill-description-not-string",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"`description` is not a YAML string."#,
    consequence: r#"The runtime requires a string and skips the skill."#,
    explanation: r#"Quote the value so YAML 1.1 does not turn it into a boolean, number or date."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: 2024-06-30
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: "2024-06-30"
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:3:14",
    }],
}
