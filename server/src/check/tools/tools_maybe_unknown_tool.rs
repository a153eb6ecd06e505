//! TJ021 `tools-maybe-unknown-tool`: an `allow` or `deny` entry naming no known tool while an MCP
//! server without `enableTools` may provide it.

use std::path::Path;

use super::{quoted_list, ListEntry};
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::catalog::ToolOrigin;

declare_rule! {
    code: "TJ021",
    name: "tools-maybe-unknown-tool",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "`allow` or `deny` names a tool agentws cannot place, but an MCP server without `enableTools` may provide it.",
    consequence: "If no registered tool has that name, the runtime ignores it (with a warning).",
    explanation: "Without `enableTools`, a server registers every tool it offers, and only the running \
server knows their names. List the tools in `enableTools` to make them checkable.",
    examples: &[
        Example {
            base: Base::None,
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["create_issue"],
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
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["create_issue"],
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "github-mcp-server",
      "args": ["stdio"],
      "enableTools": ["create_issue", "search_issues"]
    }
  }
}
"#),
            ],
            at: ".agentscope/workspace/tools.json:2:12",
        },
    ],
}

pub(super) fn check(path: &Path, entries: &[ListEntry], out: &mut Vec<Diagnostic>) {
    for entry in entries {
        if let ToolOrigin::MaybeMcp { servers } = &entry.info.origin {
            out.push(RULE.at(
                path,
                entry.range,
                format!(
                    "`{}` in `{}` is not a known tool; it may come from {} (no `enableTools`)",
                    entry.name,
                    entry.list,
                    quoted_list(servers.as_slice())
                ),
            ));
        }
    }
}
