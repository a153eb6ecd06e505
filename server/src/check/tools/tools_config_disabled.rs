//! TJ027 `tools-config-disabled`: tools.json with `features.tools_config` off.

use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::tools::ToolsDoc;
use crate::workspace::Workspace;

declare_rule! {
    code: "TJ027",
    name: "tools-config-disabled",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "tools.json is present but `features.tools_config` is off.",
    consequence: "Its MCP servers are not registered and its `allow` and `deny` change nothing: the agent has the default toolkit.",
    explanation: "`features.tools_config = false` stands for the builder's `disableToolsConfig()`. Turn the feature on or delete the file.",
    examples: &[
        Example {
            base: Base::Shared {
                without: &[".agentscope/workspace/AGENTS.md", ".agentscope/workspace/skills/pdf/SKILL.md"],
            },
            triggering: &[
                ("agentws.toml", r#"[agent]
name = "coder"

[features]
tools_config = false
"#),
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["web_fetch"]
}
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"[agent]
name = "coder"

[features]
tools_config = false
"#),
            ],
            at: ".agentscope/workspace/tools.json:1:1",
        },
    ],
}

pub(super) fn check(workspace: &Workspace, doc: &ToolsDoc) -> Option<Diagnostic> {
    (!workspace.config.features.tools_config).then(|| {
        RULE.at(
            &doc.path,
            TextRange::empty(0),
            "`features.tools_config` is off: the runtime never reads this tools.json",
        )
    })
}
