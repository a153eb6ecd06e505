//! CF006 `config-system-prompt-file-unreadable`: `[agent] system_prompt_file` names a file that
//! gives no text (missing, unreadable, not UTF-8, too large, not a regular file).

use std::path::Path;

use super::{span_of, why_no_text, Item, Loader};
use crate::base::{FileContent, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "CF006",
    name: "config-system-prompt-file-unreadable",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "`agent.system_prompt_file` cannot be read.",
    consequence: "agentws previews and checks with an empty system prompt.",
    explanation:
        "The path is relative to agentws.toml's folder. The file must exist and be UTF-8 text.",
    examples: &[Example {
        base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
        triggering: &[
            ("agentws.toml", r#"[agent]
name = "release"
system_prompt_file = "prompts/system.md"
"#),
        ],
        fixed: &[
            ("agentws.toml", r#"[agent]
name = "release"
system_prompt_file = "prompts/system.md"
"#),
            ("prompts/system.md", "You help with releases.\n"),
        ],
        at: "agentws.toml:3:22",
    }],
}

impl Loader<'_> {
    /// The text of the system prompt file at `path` (named by `item`), or an empty prompt and
    /// this rule's diagnostic.
    pub(super) fn system_prompt_file(&mut self, path: &Path, item: &Item) -> String {
        match FileContent::read(path) {
            FileContent::Text(text) => text.to_string(),
            other => {
                let why = why_no_text(&other);
                self.push(
                    &RULE,
                    span_of(item),
                    format!("system prompt file `{}` {why}", path.display()),
                );
                String::new()
            }
        }
    }
}
