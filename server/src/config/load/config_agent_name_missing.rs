//! CF007 `config-agent-name-missing`: no `[agent] name`, so the runtime gives the agent no
//! default session id.

use super::Loader;
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "CF007",
    name: "config-agent-name-missing",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "`[agent] name` is not set.",
    consequence: "An agent built without a name has no default session id: every call that gives none fails.",
    explanation: "The runtime uses the agent's name as the session id of a call that gives none; \
without a name such a call fails (a `NullPointerException` in the runtime). Set `name` in `[agent]` to the name the Java builder gets (`HarnessAgent.builder().name(...)`). \
It is also the default `agentId` used in runtime paths (`agents/<agentId>/…`).",
    examples: &[
        Example {
            base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
            triggering: &[
                ("agentws.toml", r#"[agent]
max_context_tokens = 8000
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"[agent]
name = "release"
max_context_tokens = 8000
"#),
            ],
            at: "agentws.toml:1:2",
        },
    ],
}

impl Loader<'_> {
    /// Said at the `[agent]` header when there is one (`header`), else at the file's start.
    pub(super) fn agent_name_missing(&mut self, header: Option<TextRange>) {
        self.push(
            &RULE,
            header.unwrap_or(TextRange::empty(0)),
            "no `[agent] name`: the runtime gives an unnamed agent no default session id",
        );
    }
}
