//! SK013 `skill-yaml-fallback`: the frontmatter is not valid YAML for SnakeYAML, and the runtime falls back to
//! its line parser.

use super::Parser;
use crate::base::{Severity, TextRange};
use crate::rules::{Example, Profile, Rule};
use crate::syntax::yaml::{Fallback, YamlError, YamlErrorKind};

pub static RULE: Rule = Rule {
    code: "SK013",
    name: "skill-yaml-fallback",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"The frontmatter is not valid YAML for SnakeYAML (syntax error, duplicate key, tab, limits)."#,
    consequence: r#"The runtime falls back to its line parser: only top-level `key: value` lines survive, all as strings."#,
    explanation: r#"After any YAML exception the runtime reads each unindented `key: value` line as a string and drops everything else: nested maps, lists, block scalars. The message lists what survives and what is lost."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Merge: split and merge PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: "Merge: split and merge PDF files."
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
    }],
};

impl Parser<'_> {
    /// The YAML error, with the keys the fallback line parser keeps and loses.
    pub(super) fn yaml_fallback(&mut self, err: &YamlError, fallback: &Fallback) {
        let text = self.text;
        let kept: Vec<String> = fallback
            .entries
            .iter()
            .map(|e| format!("`{}`", e.key))
            .collect();
        let lost: Vec<String> = fallback
            .lost
            .iter()
            .map(|l| format!("`{}`", l.key))
            .collect();
        let what = match &err.kind {
            YamlErrorKind::DuplicateKey { key, .. } => format!("duplicate key `{key}`"),
            YamlErrorKind::TooDeep { limit } => {
                format!("nesting deeper than SnakeYAML's limit of {limit}")
            }
            YamlErrorKind::TooManyAliases { limit } => {
                format!("more than {limit} aliases to lists or maps")
            }
            YamlErrorKind::OverBudget => format!("{} (agentws limit)", err.message),
            _ => err.message.clone(),
        };
        let mut message = format!(
            "YAML error: {what}; the runtime falls back to its line parser and keeps {}",
            if kept.is_empty() {
                "nothing".to_string()
            } else {
                kept.join(", ")
            }
        );
        if !lost.is_empty() {
            message.push_str(&format!(" (lost: {})", lost.join(", ")));
        }
        let range = if err.range.is_empty() {
            let end = text[err.range.start..]
                .chars()
                .next()
                .map_or(err.range.start, |c| err.range.start + c.len_utf8());
            TextRange::new(err.range.start, end)
        } else {
            err.range
        };
        self.out.push(RULE.at(&self.path, range, message));
    }
}
