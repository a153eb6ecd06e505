//! SK013 `skill-yaml-fallback`: the frontmatter is not valid YAML for SnakeYAML, and the runtime falls back to
//! its line parser.

use super::skill_key_lost_in_fallback::why_lost;
use super::Parser;
use crate::base::{Related, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::{self, ColonInValue, Fallback, YamlError, YamlErrorKind};

declare_rule! {
    code: "SK013",
    name: "skill-yaml-fallback",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"The frontmatter is not valid YAML (a `: ` inside an unquoted value, a duplicate key, a tab, nesting or alias limits)."#,
    consequence: r#"The runtime reads only the unindented `key: value` lines, each as text: nested maps, lists and block scalars are lost."#,
    explanation: r#"The runtime reads the frontmatter with SnakeYAML (`MarkdownSkillParser`, YAML 1.1). After any YAML exception it falls back to a line parser: each unindented `key: value` line becomes a string entry and everything else is dropped (nested maps, lists, block scalars). The message lists which keys survive and which are lost.

The most common cause is a `: ` inside an unquoted value (`description: Merge: split and merge PDF files.`), which YAML reads as the start of another key. agentws reports that as one diagnostic on the value, with the lost keys as related locations (no SK014 for each), and a fix that quotes the value (`agentws check --fix`, or the editor's quick fix). The fix picks double quotes, or single quotes when the value holds `"` or `\` and no `'`, so that the value reads back exactly as written; it is offered only when quoting makes the whole frontmatter valid YAML, and never for a value with ` #` in it (which may be meant as a comment). agentscope-java pull request #1443 proposes that the runtime repair such values itself when loading."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Merge: split and merge PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: "Merge: split and merge PDF files."
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:3:14",
    }],
}

impl Parser<'_> {
    /// The YAML error an unquoted `: ` in `values` causes, which quoting them repairs: one
    /// diagnostic with that fix, naming what the fallback line parser keeps and loses (the lost
    /// keys as related locations, instead of an SK014 each).
    pub(super) fn colon_in_values(&mut self, values: &[ColonInValue], fallback: &Fallback) {
        let kept: Vec<String> = fallback
            .entries
            .iter()
            .map(|e| format!("`{}`", e.key))
            .collect();
        let kept = if kept.is_empty() {
            "keeps nothing".to_string()
        } else {
            format!("keeps {} as text", kept.join(", "))
        };
        let lost: Vec<String> = fallback
            .lost
            .iter()
            .map(|l| format!("`{}`", l.key))
            .collect();
        let lost = if lost.is_empty() {
            String::new()
        } else {
            format!(" and loses {}", lost.join(", "))
        };
        let message = format!(
            "{}; the runtime then reads only its unindented `key: value` lines: it {kept}{lost} (agentscope-java #1443 proposes repairing such values when loading)",
            yaml::colon_in_values_phrase(values)
        );
        let mut diagnostic = RULE
            .at(&self.path, values[0].range, message)
            .with_fix(yaml::quoting_fix(&self.path, values));
        for lost in &fallback.lost {
            diagnostic = diagnostic.with_related(Related {
                path: self.path.clone(),
                range: lost.range,
                message: format!("`{}` is lost: {}", lost.key, why_lost(&lost.reason)),
            });
        }
        self.out.push(diagnostic);
    }

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
                format!("nesting deeper than the runtime's YAML reader allows ({limit} levels)")
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
