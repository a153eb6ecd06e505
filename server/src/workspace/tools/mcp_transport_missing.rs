//! TJ011 `mcp-transport-missing`: an MCP server without `transport`; the runtime skips it.

use super::Parser;
use crate::base::Severity;
use crate::rules::{Example, Profile, Rule};
use crate::syntax::json::Member;

pub static RULE: Rule = Rule {
    code: "TJ011",
    name: "mcp-transport-missing",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "An MCP server has no `transport`.",
    consequence: "Registering the server fails (\"Failed to register MCP server\"): the server is skipped, the others continue.",
    explanation: "Every server needs `\"transport\"`: `stdio`, `sse`, `http`, `streamable-http` or \
`streamablehttp` (case-insensitive, so `streamableHttp` works).",
    examples: &[
        Example {
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
        },
    ],
};

impl Parser<'_> {
    /// At the server's name (`entry`).
    pub(super) fn transport_missing(&mut self, entry: &Member) {
        self.push(
            &RULE,
            entry.key_range,
            format!("MCP server `{}` has no `transport`", entry.key),
        );
    }
}
