//! ST011 `strict-reference-outside`: a file the body refers to is outside the skill's folder.

use super::references::inside_folder;
use super::LoadedSkill;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "ST011",
    name: "strict-reference-outside",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict (recommended): a file reference in SKILL.md points outside the skill's folder."#,
    consequence: r#"A skill is shared as its folder: the linked file does not travel with it."#,
    explanation: r#"Copy the file into the skill (for example under `references/`) and link it there. References are read as for ST009."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.

Follow [the style guide](../../STYLE.md).
"#),
            (".agentscope/workspace/STYLE.md", "# Style\n"),
        ],
        fixed: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.

Follow [the style guide](references/STYLE.md).
"#),
            (".agentscope/workspace/skills/pdf/references/STYLE.md", "# Style\n"),
        ],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:10:26",
    }],
}

pub(super) fn check(loaded: &LoadedSkill, out: &mut Vec<Diagnostic>) {
    for reference in &loaded.references {
        if inside_folder(&reference.target).is_none() {
            out.push(RULE.at(
                &loaded.skill.path,
                reference.range,
                format!("`{}` points outside the skill's folder", reference.target),
            ));
        }
    }
}
