//! TJ033 `tools-allow-removes-mcp-server`: a non-empty `allow` that names no tool of a registered
//! MCP server, which removes all of that server's tools (agentscope-java issue #2405: a common
//! surprise). With `enableTools` the server's tools are known and counted; without, their names
//! and number are known only when the server runs, and the message says so. A server without
//! `enableTools` is not reported when `allow` names tools agentws cannot place (they may be its).

use crate::base::{Diagnostic, Related, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::catalog::{ToolCatalog, ToolOrigin};
use crate::workspace::tools::ToolsDoc;

declare_rule! {
    code: "TJ033",
    name: "tools-allow-removes-mcp-server",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A non-empty `allow` names no tool of an MCP server tools.json registers.",
    consequence: "Every tool of that server is removed after registration: the server is started and connected, and the model never sees any of its tools.",
    explanation: "`ToolFilter` applies `allow` to every registered tool, MCP tools included: a tool \
not named in a non-empty `allow` (and not a platform tool) is removed. A server added to `mcpServers` \
next to an `allow` written for the built-ins (`[\"read_file\", \"grep_files\"]`) is registered, \
started, and then loses all its tools (agentscope-java issue #2405).

With `enableTools`, the server's tools are the ones it lists, and the message counts them. Without \
it, the server registers whatever it offers when it runs: agentws does not start servers, so it \
cannot say how many tools go, and says so; when `allow` names tools agentws cannot place, they may \
be that server's, and nothing is reported.

Add the server's tools to `allow` (list them in `enableTools` to know their names), or use `deny` \
for the few tools you want gone instead of `allow`.",
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "allow": ["read_file", "grep_files", "list_files"],
  "mcpServers": {
    "tracker": {
      "transport": "stdio",
      "command": "tracker-mcp",
      "enableTools": ["get_issue", "list_issues"]
    }
  }
}
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "allow": ["read_file", "grep_files", "list_files", "get_issue", "list_issues"],
  "mcpServers": {
    "tracker": {
      "transport": "stdio",
      "command": "tracker-mcp",
      "enableTools": ["get_issue", "list_issues"]
    }
  }
}
"#,
        )],
        at: ".agentscope/workspace/tools.json:4:5",
    }],
}

pub(super) fn check(doc: &ToolsDoc, catalog: &ToolCatalog) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if doc.allow.is_empty() {
        return out;
    }
    // `allow` names that no built-in or listed MCP tool explains: possibly tools of a server
    // without `enableTools`.
    let unplaced: Vec<&str> = doc
        .allow
        .iter()
        .map(|a| a.value.as_str())
        .filter(|name| {
            matches!(
                catalog.lookup(name).origin,
                ToolOrigin::MaybeMcp { .. } | ToolOrigin::Unknown
            )
        })
        .collect();
    let allow_key = doc.allow_key.unwrap_or(TextRange::empty(0));
    for server in catalog.mcp_servers() {
        let Some(at) = doc.servers.iter().find(|s| s.name.value == server.server) else {
            continue;
        };
        let name = &server.server;
        let message = match &server.tools {
            Some(tools) => {
                if tools.iter().any(|t| catalog.allows_by_name(t)) || tools.is_empty() {
                    continue;
                }
                let n = tools.len();
                let listed = super::some_labels(
                    &tools.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>(),
                    5,
                );
                let all = if n == 1 {
                    "its one tool goes".to_string()
                } else {
                    format!("all {n} go")
                };
                format!(
                    "`allow` names none of the {n} tool{} MCP server `{name}` registers ({listed}): a non-empty `allow` removes every tool it does not name, so {all}",
                    if n == 1 { "" } else { "s" }
                )
            }
            None => {
                if !unplaced.is_empty() {
                    continue;
                }
                format!(
                    "`allow` names no tool of MCP server `{name}`: a non-empty `allow` removes every tool it does not name, so every tool the server registers goes; how many, agentws cannot tell (the server lists its tools only when it runs; `enableTools` would name them)"
                )
            }
        };
        out.push(
            RULE.at(&doc.path, at.name.range, message)
                .with_related(Related {
                    path: doc.path.clone(),
                    range: allow_key,
                    message: "the `allow` that removes them".to_string(),
                }),
        );
    }
    out
}
