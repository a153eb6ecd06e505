//! TJ012 `mcp-transport-unsupported`: a `transport` the runtime does not accept; it skips the
//! server. `streamable_http` and `streamable http` get a fix to `streamable-http`.

use super::{Parser, TRANSPORT_NAMES};
use crate::base::suggest::{did_you_mean, hint};
use crate::base::{Fix, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::json::Member;

declare_rule! {
    code: "TJ012",
    name: "mcp-transport-unsupported",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "An MCP server's `transport` is not one the runtime supports.",
    consequence: "The runtime logs that the transport is unsupported and skips the server; the others are registered.",
    explanation: "The transport is lower-cased and matched against `stdio`, `sse`, `http`, \
`streamable-http`, `streamablehttp`. `streamable_http` (underscore) is not accepted; the fix renames \
it to `streamable-http`.",
    examples: &[
        Example {
            base: Base::None,
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "mcpServers": {
    "github": {
      "transport": "streamable_http",
      "url": "https://api.githubcopilot.com/mcp/"
    }
  }
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "mcpServers": {
    "github": {
      "transport": "streamable-http",
      "url": "https://api.githubcopilot.com/mcp/"
    }
  }
}
"#),
            ],
            at: ".agentscope/workspace/tools.json:4:20",
        },
    ],
}

impl Parser<'_> {
    /// Server `entry`'s `transport` `field`, valued `value`.
    pub(super) fn transport_unsupported(&mut self, entry: &Member, field: &Member, value: &str) {
        let range = self.range(field.value.range);
        let mut diagnostic = RULE.at(
            &self.path,
            range,
            format!(
                "MCP server `{}` has unsupported transport '{value}'{} (the runtime accepts {})",
                entry.key,
                hint(did_you_mean(value, &TRANSPORT_NAMES[..4])),
                TRANSPORT_NAMES
                    .iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
        let lower = value.to_lowercase();
        if matches!(lower.as_str(), "streamable_http" | "streamable http")
            && self.sub.is_verbatim(field.value.range)
        {
            diagnostic = diagnostic.with_fix(Fix::replace(
                "Rename to `streamable-http`",
                &self.path,
                range,
                "\"streamable-http\"",
            ));
        }
        self.diagnostics.push(diagnostic);
    }
}
