//! TJ026 `tools-ignored-in-sandbox`: tools.json in a sandbox-mode workspace, read before any
//! sandbox exists.

use crate::base::{Diagnostic, Severity, TextRange};
use crate::config::FilesystemMode;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::tools::ToolsDoc;
use crate::workspace::Workspace;

declare_rule! {
    code: "TJ026",
    name: "tools-ignored-in-sandbox",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "tools.json is present but the filesystem mode is `sandbox`.",
    consequence: "Its MCP servers are not registered and its `allow` and `deny` change nothing: the agent has the default toolkit.",
    explanation: "In sandbox mode tools.json is effectively ignored (`ToolsConfigLoader.java` gets no file and builds without it). Configure \
tools in Java (`toolsConfig(...)`) instead.",
    examples: &[
        Example {
            base: Base::Shared {
                without: &[".agentscope/workspace/AGENTS.md", ".agentscope/workspace/skills/pdf/SKILL.md"],
            },
            triggering: &[
                ("agentws.toml", r#"[agent]
name = "coder"

[filesystem]
mode = "sandbox"
sandbox_root = "/home/user"
"#),
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["web_fetch"]
}
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"[agent]
name = "coder"

[filesystem]
mode = "sandbox"
sandbox_root = "/home/user"
"#),
            ],
            at: ".agentscope/workspace/tools.json:1:1",
        },
    ],
}

/// Reported only with the feature on: with it off, TJ027 already says the file is never read.
pub(super) fn check(workspace: &Workspace, doc: &ToolsDoc) -> Option<Diagnostic> {
    let config = &workspace.config;
    (config.features.tools_config && config.filesystem.mode == FilesystemMode::Sandbox).then(|| {
        RULE.at(
            &doc.path,
            TextRange::empty(0),
            "the filesystem mode is `sandbox`: tools.json is read before any sandbox exists, so the runtime builds without it",
        )
    })
}
