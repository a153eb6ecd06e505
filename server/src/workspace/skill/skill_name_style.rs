//! SK019 `skill-name-style`: a name skill_manage would refuse (`^[a-z0-9][a-z0-9._-]*$`, 64 characters).

use super::{Parser, SkillDoc};
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SK019",
    name: "skill-name-style",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: r#"The skill name does not follow `^[a-z0-9][a-z0-9._-]*$` with at most 64 characters."#,
    consequence: r#"Accepted for hand-written skills; the runtime's skill_manage tool would reject it."#,
    explanation: r#"Use lowercase letters, digits, `.`, `_` and `-`."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/skills/PDF_Tools/SKILL.md",
            r#"---
name: PDF_Tools
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
        at: ".agentscope/workspace/skills/PDF_Tools/SKILL.md:2:7",
    }],
}

pub const NAME_MAX_CHARS: usize = 64;

impl Parser<'_> {
    pub(super) fn name_style(&mut self, doc: &SkillDoc) {
        let (Some(name), Some(range)) = (&doc.name, doc.name_range) else {
            return;
        };
        // A name with spaces is SK022's alone, which says what the spaces do.
        if name.contains(' ') || name_style_ok(name) {
            return;
        }
        self.out.push(RULE.at(
            &self.path,
            range,
            format!(
                "`{name}` does not match `^[a-z0-9][a-z0-9._-]*$` (at most {NAME_MAX_CHARS} characters); accepted, but skill_manage would refuse it"
            ),
        ));
    }
}

/// skill_manage's name rule.
pub fn name_style_ok(name: &str) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && name.chars().count() <= NAME_MAX_CHARS
        && (bytes[0].is_ascii_lowercase() || bytes[0].is_ascii_digit())
        && bytes.iter().all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'-')
        })
}
