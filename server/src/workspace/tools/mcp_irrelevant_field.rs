//! TJ014 `mcp-irrelevant-field`: a server key that does not apply to its transport (`command`
//! on a remote server, `url` on a `stdio` one); ignored.

use super::{transport_label, Parser, Transport};
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::json::Member;

declare_rule! {
    code: "TJ014",
    name: "mcp-irrelevant-field",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "An MCP server sets a field its transport does not use (`headers` on stdio, `command` on http, …).",
    consequence: "The server is registered without it.",
    explanation: "`command`, `args` and `env` only apply to `stdio`; `url`, `headers` and `queryParams` \
only to `sse` and `http`. A field for the other transport usually means the transport is wrong.",
    examples: &[
        Example {
            base: Base::None,
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "github-mcp-server",
      "args": ["stdio"],
      "headers": {"Authorization": "Bearer token"}
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
            at: ".agentscope/workspace/tools.json:7:7",
        },
    ],
}

impl Parser<'_> {
    pub(super) fn irrelevant_field(&mut self, field: &Member, transport: Transport) {
        self.push(
            &RULE,
            field.key_range,
            format!(
                "`{}` does not apply to transport {} and is ignored",
                field.key,
                transport_label(transport)
            ),
        );
    }
}
