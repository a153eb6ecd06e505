//! TJ016 `mcp-server-skipped`: an MCP server the runtime skips before reading it: a blank name,
//! or a `null` configuration.

use super::Parser;
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::json::Member;

declare_rule! {
    code: "TJ016",
    name: "mcp-server-skipped",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "An MCP server has a blank name or a `null` configuration.",
    consequence: "The runtime logs a warning and skips the server.",
    explanation: "Each entry of `mcpServers` needs a non-blank name and an object value.",
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "mcpServers": {
    "github": null
  }
}
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "mcpServers": {}
}
"#,
        )],
        at: ".agentscope/workspace/tools.json:3:15",
    }],
}

impl Parser<'_> {
    pub(super) fn blank_server_name(&mut self, entry: &Member) {
        self.push(
            &RULE,
            entry.key_range,
            "MCP server with a blank name is skipped",
        );
    }

    pub(super) fn null_server(&mut self, entry: &Member) {
        self.push(
            &RULE,
            entry.value.range,
            format!(
                "MCP server `{}` has a null configuration and is skipped",
                entry.key
            ),
        );
    }
}
