//! SK023 `skill-yaml11-surprise`: a plain value YAML 1.1 types as something other than the text written
//! (`yes`, `1.0`, `2024-01-01`); the fix quotes it.

use super::Parser;
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::Surprise;

declare_rule! {
    code: "SK023",
    name: "skill-yaml11-surprise",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"A plain YAML value is typed by YAML 1.1 rules into something other than the text written."#,
    consequence: r#"The prompt shows the value as the runtime prints its type, not as written (e.g. `1.10` → `1.1`, `yes` → `true`, a date → `Mon Jan 01 00:00:00 UTC 2024`)."#,
    explanation: r#"SnakeYAML reads `yes/no/on/off` as booleans, `1.0` as a double, `2024-01-01` as a Date and `1:30` as 90, and the runtime renders the typed value with Java's `String.valueOf`. Quote the value to keep it as written."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
version: 1.10
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
version: "1.10"
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:4:10",
    }],
}

impl Parser<'_> {
    pub(super) fn yaml11_surprise(&mut self, surprise: &Surprise) {
        // `name`/`description` get their own errors (they must be strings).
        if matches!(surprise.key_path.as_str(), "name" | "description") {
            return;
        }
        let text = self.text;
        let rendered = surprise.value.java_string().unwrap_or_default();
        let source = match surprise.tag {
            Some(t) => format!("{} {}", &text[t.start..t.end], surprise.source),
            None => surprise.source.clone(),
        };
        let written = if surprise.key_path.is_empty() {
            format!("`{source}`")
        } else {
            format!("`{}: {source}`", surprise.key_path)
        };
        let mut diag = RULE.at(
            &self.path,
            surprise.range,
            format!(
                "{written} is read by YAML 1.1 as {}; the runtime renders it as `{rendered}`",
                surprise.value.type_phrase()
            ),
        );
        if let Some(fix) = self.string_fix(surprise.range, surprise.tag) {
            diag = diag.with_fix(fix);
        }
        self.out.push(diag);
    }
}
