//! ST010 `strict-allowed-tools-commas`: `allowed-tools` separates the tools with commas; the fix
//! separates them with spaces.

use super::LoadedSkill;
use crate::base::{Diagnostic, Fix, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::Value;

declare_rule! {
    code: "ST010",
    name: "strict-allowed-tools-commas",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: `allowed-tools` separates tools with commas."#,
    consequence: r#"The specification splits on spaces: `Read, Grep` is read as the tools `Read,` and `Grep`."#,
    explanation: r#"Write `allowed-tools: Read Grep`; the fix removes the commas."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
allowed-tools: Read, Bash
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
allowed-tools: Read Bash
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:4:16",
    }],
}

pub(super) fn check(loaded: &LoadedSkill, out: &mut Vec<Diagnostic>) {
    let skill = loaded.skill;
    for entry in skill.metadata.iter().filter(|e| e.key == "allowed-tools") {
        let Value::Str(value) = &entry.value.value else {
            continue;
        };
        if !value.contains(',') {
            continue;
        }
        let spaced = value
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let range = entry.value.range;
        let diagnostic = RULE.at(
            &skill.path,
            range,
            format!("`allowed-tools` separates tools with commas; the specification splits on spaces (write `{spaced}`)"),
        );
        // The fix rewrites the value only where it is written plain, as parsed.
        out.push(
            if loaded.text.get(range.start..range.end) == Some(value.as_str()) {
                diagnostic.with_fix(Fix::replace(
                    "Separate the tools with spaces",
                    &skill.path,
                    range,
                    spaced,
                ))
            } else {
                diagnostic
            },
        );
    }
}
