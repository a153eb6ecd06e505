//! CF005 `config-system-prompt-conflict`: `[agent]` sets both `system_prompt` and
//! `system_prompt_file`; the file wins.

use super::Loader;
use crate::base::{Related, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "CF005",
    name: "config-system-prompt-conflict",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "Both `agent.system_prompt` and `agent.system_prompt_file` are set.",
    consequence: "agentws uses `system_prompt_file`; `system_prompt` is ignored.",
    explanation: "The builder has one `sysPrompt`. Keep one of the two keys.",
    examples: &[Example {
        base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
        triggering: &[
            ("agentws.toml", r#"[agent]
name = "release"
system_prompt = "You help with releases."
system_prompt_file = "prompts/system.md"
"#),
            ("prompts/system.md", "You help with releases.\n"),
        ],
        fixed: &[
            ("agentws.toml", r#"[agent]
name = "release"
system_prompt_file = "prompts/system.md"
"#),
            ("prompts/system.md", "You help with releases.\n"),
        ],
        at: "agentws.toml:3:1",
    }],
}

impl Loader<'_> {
    /// Said at the inline prompt's key (`inline`), pointing at the file's (`file_key`).
    pub(super) fn system_prompt_conflict(&mut self, inline: TextRange, file_key: TextRange) {
        let diagnostic = RULE
            .at(
                self.file,
                inline,
                "both `system_prompt` and `system_prompt_file` are set; `system_prompt_file` is used",
            )
            .with_related(Related {
                path: self.file.to_path_buf(),
                range: file_key,
                message: "the system prompt file used instead".into(),
            });
        self.diagnostics.push(diagnostic);
    }
}
