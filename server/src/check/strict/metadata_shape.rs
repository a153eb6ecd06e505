//! ST005 `strict-metadata-shape`: `metadata` is not a map of string keys to string values.

use super::LoadedSkill;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::Value;

declare_rule! {
    code: "ST005",
    name: "strict-metadata-shape",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: `metadata` must be a map of string keys to string values."#,
    consequence: r#"Other runtimes may reject or misread the metadata."#,
    explanation: r#"Quote every metadata value and key, and keep the map flat: `version: "1.0"`, not `version: 1.0`; `"2024": launch`, not `2024: launch`. A key YAML 1.1 reads as a number, boolean or null is dropped by the runtime with its entry (SK024); the specification wants string keys too.

**Differences from the reference validators** (`tests/e2e/peer_suites.rs`): skills-ref turns every metadata key and value into a string (`version: 1.0` becomes `"1.0"`) and accepts `skills-ref:test_read_with_metadata`. agentws warns: the specification defines `metadata` as "a map from string keys to string values" and quotes its own example (`version: "1.0"`), and the AgentScope runtime keeps the YAML 1.1 type, so `1.10` is rendered as `1.1`."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
metadata:
  version: 1.0
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
metadata:
  version: "1.0"
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:5:12",
    }],
}

pub(super) fn check(loaded: &LoadedSkill, out: &mut Vec<Diagnostic>) {
    let skill = loaded.skill;
    let path = &skill.path;
    for entry in skill.metadata.iter().filter(|e| e.key == "metadata") {
        let Value::Map(items) = &entry.value.value else {
            out.push(RULE.at(
                path,
                entry.value.range,
                format!(
                    "`metadata` is {}; the specification wants a map of strings",
                    entry.value.value.type_phrase()
                ),
            ));
            continue;
        };
        // Keys YAML 1.1 types as non-strings never reach `items`: the runtime drops them
        // (SK024); the specification wants string keys.
        let range = entry.value.range;
        for dropped in skill.dropped_keys.iter().filter(|d| {
            range.start <= d.range.start
                && d.range.end <= range.end
                && !items.iter().any(|item| {
                    item.value.range.start <= d.range.start && d.range.end <= item.value.range.end
                })
        }) {
            out.push(RULE.at(
                path,
                dropped.range,
                format!(
                    "the `metadata` key `{}` is {}; the specification wants string keys (quote it)",
                    dropped.source,
                    dropped.value.type_phrase()
                ),
            ));
        }
        for item in items {
            if !matches!(item.value.value, Value::Str(_)) {
                out.push(RULE.at(
                    path,
                    item.value.range,
                    format!(
                        "`metadata.{}` is {}; the specification wants string values",
                        item.key,
                        item.value.value.type_phrase()
                    ),
                ));
            }
        }
    }
}
