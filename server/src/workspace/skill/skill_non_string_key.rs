//! SK024 `skill-non-string-key`: a key YAML 1.1 types as other than a string (`1:`, `yes:`), whose entry the
//! runtime drops.

use super::Parser;
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::DroppedKey;

declare_rule! {
    code: "SK024",
    name: "skill-non-string-key",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"A frontmatter key is not a string (`1:`, `yes:`, `on:` under YAML 1.1)."#,
    consequence: r#"The key and its value are missing from the rendered metadata."#,
    explanation: r#"Quote the key."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
on: upload
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
"on": upload
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:4:1",
    }],
}

impl Parser<'_> {
    pub(super) fn non_string_keys(&mut self, dropped: &[DroppedKey]) {
        for dropped in dropped {
            let shown = dropped.value.java_string().unwrap_or_default();
            self.out.push(RULE.at(
                &self.path,
                dropped.range,
                format!(
                    "YAML 1.1 reads the key `{}` as {} ({shown}), not a string; the runtime drops this entry",
                    dropped.source,
                    dropped.value.type_phrase()
                ),
            ));
        }
    }
}
