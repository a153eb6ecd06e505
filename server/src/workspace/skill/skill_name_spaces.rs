//! SK022 `skill-name-spaces`: a name with spaces, which `<files-root>` escapes.

use super::{Parser, SkillDoc};
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SK022",
    name: "skill-name-spaces",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: r#"The skill name contains spaces."#,
    consequence: r#"Accepted; the folder path the prompt gives for the skill's files (`<files-root>`) writes each space as `\ `, and tools must quote the path."#,
    explanation: r#"Use `-` instead of spaces."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/skills/pdf tools/SKILL.md",
            r#"---
name: pdf tools
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/skills/pdf-tools/SKILL.md",
            r#"---
name: pdf-tools
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
        at: ".agentscope/workspace/skills/pdf tools/SKILL.md:2:7",
    }],
}

impl Parser<'_> {
    pub(super) fn name_spaces(&mut self, doc: &SkillDoc) {
        let (Some(name), Some(range)) = (&doc.name, doc.name_range) else {
            return;
        };
        if name.contains(' ') {
            self.out.push(RULE.at(
                &self.path,
                range,
                format!("the name `{name}` contains spaces; the folder path the prompt gives for the skill's files (`<files-root>`) writes each as `\\ `"),
            ));
        }
    }
}
