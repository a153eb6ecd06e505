//! TJ011 `mcp-transport-missing`: an MCP server without `transport`; the runtime skips it. A
//! server with Claude Code's `type` instead is told so, with a fix renaming the key.

use super::{Parser, Transport};
use crate::base::{Fix, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::json::Member;

declare_rule! {
    code: "TJ011",
    name: "mcp-transport-missing",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "An MCP server has no `transport`.",
    consequence: "Registering the server fails (\"Failed to register MCP server\"): the server is skipped, the others continue.",
    explanation: "Every server needs `\"transport\"`: `stdio`, `sse`, `http`, `streamable-http` or \
`streamablehttp` (case-insensitive, so `streamableHttp` works).

Claude Code's `.mcp.json` names the same thing `type` (`\"type\": \"http\"`), and leaves it out for a \
server started by a command. The runtime's `McpServerConfig` has no `type` field: Jackson ignores it, \
the transport is missing and the server is skipped. When a server has `type` and no `transport`, the \
message says so, and when the value is one the runtime accepts, the fix renames the key.",
    examples: &[
        Example {
            base: Base::None,
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "mcpServers": {
    "github": {
      "command": "github-mcp-server",
      "args": ["stdio"]
    }
  }
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "github-mcp-server",
      "args": ["stdio"]
    }
  }
}
"#),
            ],
            at: ".agentscope/workspace/tools.json:3:5",
        },
    ],
}

impl Parser<'_> {
    /// At the server's name (`entry`); `type_field`, Claude Code's `type` written instead.
    pub(super) fn transport_missing(&mut self, entry: &Member, type_field: Option<&Member>) {
        let Some(field) = type_field else {
            self.push(
                &RULE,
                entry.key_range,
                format!("MCP server `{}` has no `transport`", entry.key),
            );
            return;
        };
        let mut diagnostic = RULE.at(
            &self.path,
            self.range(entry.key_range),
            format!(
                "MCP server `{}` has no `transport`: it has `type`, Claude Code's key, and the runtime reads `transport`",
                entry.key
            ),
        );
        let valid = field.value.as_str().and_then(Transport::parse).is_some();
        if valid && self.sub.is_verbatim(field.key_range) {
            diagnostic = diagnostic.with_fix(Fix::replace(
                "Rename `type` to `transport`",
                &self.path,
                self.range(field.key_range),
                "\"transport\"",
            ));
        }
        self.diagnostics.push(diagnostic);
    }
}
