//! TJ015 `mcp-enable-tools-empty`: `enableTools: []`, which registers every tool of the server,
//! not none.

use super::Parser;
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::json::{Member, Node};

declare_rule! {
    code: "TJ015",
    name: "mcp-enable-tools-empty",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "An MCP server has `enableTools: []`.",
    consequence: "An empty list means no restriction: every tool of the server is registered.",
    explanation:
        "`enableTools` restricts which of the server's tools are registered, but an empty \
list is the same as leaving it out. To register none of them, remove the server.",
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "github-mcp-server",
      "args": ["stdio"],
      "enableTools": []
    }
  }
}
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "github-mcp-server",
      "args": ["stdio"]
    }
  }
}
"#,
        )],
        at: ".agentscope/workspace/tools.json:7:22",
    }],
}

impl Parser<'_> {
    /// Server `server`'s `enableTools` `field`, when it is an empty array.
    pub(super) fn enable_tools_empty(&mut self, server: &str, field: &Member) {
        if field.value.elements().is_some_and(<[Node]>::is_empty) {
            self.push(
                &RULE,
                field.value.range,
                format!("`enableTools: []` registers every tool of `{server}`"),
            );
        }
    }
}
