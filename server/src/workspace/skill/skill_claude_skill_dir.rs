//! SK031 `skill-claude-skill-dir`: the body writes Claude Code's `${CLAUDE_SKILL_DIR}`, which
//! AgentScope never expands: the skill's text reaches the model as written
//! (`SkillToolFactory` and `load_skill_through_path` return the body unchanged).

use super::{Parser, SkillDoc};
use crate::base::{Related, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SK031",
    name: "skill-claude-skill-dir",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"The body uses Claude Code's `${CLAUDE_SKILL_DIR}`, which AgentScope does not expand."#,
    consequence: r#"The model reads `${CLAUDE_SKILL_DIR}` as written: a path or command built on it names no file, and the model has to guess where the skill's files are."#,
    explanation: r#"Claude Code replaces `${CLAUDE_SKILL_DIR}` in a skill with the skill's folder before the model reads it. AgentScope replaces nothing: `load_skill_through_path` returns SKILL.md as written, so `python ${CLAUDE_SKILL_DIR}/scripts/fill.py` reaches the model with the variable in it.

Write paths relative to the skill folder (`scripts/fill.py`, `references/forms.md`): `load_skill_through_path` reads them with the skill's id, and with a shell tool the prompt's skill list gives the folder itself as `<files-root>`.

Reported once per SKILL.md, at the first use; the others are listed."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Fill a form with `python ${CLAUDE_SKILL_DIR}/scripts/fill.py form.pdf`.
"#),
        ],
        fixed: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Fill a form with `scripts/fill.py` in this skill's folder (its `<files-root>`).
"#),
        ],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:8:26",
    }],
}

/// The variable as Claude Code writes it.
pub(crate) const CLAUDE_SKILL_DIR: &str = "${CLAUDE_SKILL_DIR}";

impl Parser<'_> {
    pub(super) fn claude_skill_dir(&mut self, doc: &SkillDoc) {
        let start = doc.body.range().start;
        let mut uses = doc
            .body
            .match_indices(CLAUDE_SKILL_DIR)
            .map(|(at, _)| TextRange::new(start + at, start + at + CLAUDE_SKILL_DIR.len()));
        let Some(first) = uses.next() else {
            return;
        };
        let others: Vec<TextRange> = uses.collect();
        let times = match others.len() {
            0 => String::new(),
            n => format!(" ({} uses in this file)", n + 1),
        };
        let mut diagnostic = RULE.at(
            &self.path,
            first,
            format!("`{CLAUDE_SKILL_DIR}` is Claude Code's variable: AgentScope does not expand it, so the model reads it as written{times}; write the path relative to the skill folder"),
        );
        for range in others {
            diagnostic = diagnostic.with_related(Related {
                path: self.path.clone(),
                range,
                message: format!("`{CLAUDE_SKILL_DIR}` here too"),
            });
        }
        self.out.push(diagnostic);
    }
}
