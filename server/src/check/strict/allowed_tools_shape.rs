//! ST006 `strict-allowed-tools-shape`: `allowed-tools` is not one string.

use super::LoadedSkill;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::Value;

declare_rule! {
    code: "ST006",
    name: "strict-allowed-tools-shape",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: `allowed-tools` must be one space-separated string."#,
    consequence: r#"Other runtimes may misread the tool list."#,
    explanation: r#"Write `allowed-tools: Read Grep Bash` on one line.

**Differences from the reference validators** (`tests/e2e/peer_suites.rs`): agnix checks the tool names against Claude Code's tools and rejects a plain `Bash` (`agnix:invalid/skills/deploy-prod`). Tool names depend on the runtime that reads the skill, and the AgentScope harness does not enforce `allowed-tools` at all (SK025), so agentws checks only the shape of the value."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
allowed-tools:
  - Read
  - Bash
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
        at: ".agentscope/workspace/skills/pdf/SKILL.md:5:3",
    }],
}

pub(super) fn check(loaded: &LoadedSkill, out: &mut Vec<Diagnostic>) {
    let skill = loaded.skill;
    for entry in skill.metadata.iter().filter(|e| e.key == "allowed-tools") {
        if !matches!(entry.value.value, Value::Str(_)) {
            out.push(RULE.at(
                &skill.path,
                entry.value.range,
                format!(
                    "`allowed-tools` is {}; the specification wants one space-separated string",
                    entry.value.value.type_phrase()
                ),
            ));
        }
    }
}
