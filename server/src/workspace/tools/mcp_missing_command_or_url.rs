//! TJ013 `mcp-missing-command-or-url`: a `stdio` server without `command`, or a remote one
//! without `url`; the runtime skips it.

use super::{transport_label, Parser, Transport};
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::json::Member;

declare_rule! {
    code: "TJ013",
    name: "mcp-missing-command-or-url",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "A stdio server has no `command`, or an sse/http server has no `url`.",
    consequence: "Registering the server fails: the server is skipped, the others continue.",
    explanation: "`stdio` servers are started with `command` (+ `args`, `env`); `sse` and `http` \
servers are reached at `url` (+ `headers`, `queryParams`). A blank value counts as missing.",
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "args": ["stdio"]
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
        at: ".agentscope/workspace/tools.json:3:5",
    }],
}

impl Parser<'_> {
    /// Server `entry` of `transport` lacks the `required` key.
    pub(super) fn missing_command_or_url(
        &mut self,
        entry: &Member,
        transport: Transport,
        required: &str,
    ) {
        self.push(
            &RULE,
            entry.key_range,
            format!(
                "MCP server `{}` uses transport {} but has no `{required}`",
                entry.key,
                transport_label(transport)
            ),
        );
    }
}
