//! TJ020 `tools-unknown-tool`: an `allow` or `deny` entry naming a tool the runtime does not
//! register with this configuration (unknown, a disabled built-in group, an opt-in tool, a
//! skipped MCP server's).

use std::path::Path;

use super::{quoted_list, ListEntry};
use crate::base::suggest::{hint, Suggestions};
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::catalog::{ToolCatalog, ToolOrigin};

declare_rule! {
    code: "TJ020",
    name: "tools-unknown-tool",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "`allow` or `deny` names a tool that is not registered with this configuration.",
    consequence: "The runtime logs \"tools.json '…' references unknown tool\" and ignores the name.",
    explanation: "allow/deny apply to registered tool names only (exact, case-sensitive): built-ins for \
the configured features, platform tools, MCP tools and tools registered in Java code. A misspelt or \
switched-off tool is ignored. agentws knows the built-ins, the platform tools and the MCP tools listed in \
`enableTools`; a tool registered in Java code cannot be seen from the workspace.",
    examples: &[
        Example {
            base: Base::None,
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["exec"]
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
            ],
            at: ".agentscope/workspace/tools.json:2:12",
        },
    ],
}

pub(super) fn check(
    path: &Path,
    entries: &[ListEntry],
    catalog: &ToolCatalog,
    out: &mut Vec<Diagnostic>,
) {
    // Built on the first unknown name, then shared by all of them.
    let mut suggestions: Option<Suggestions> = None;
    for entry in entries {
        let (name, list) = (entry.name, entry.list);
        let message = match &entry.info.origin {
            ToolOrigin::BuiltIn(_) | ToolOrigin::Mcp { .. } | ToolOrigin::MaybeMcp { .. } => {
                continue
            }
            ToolOrigin::BuiltInDisabled(group) => format!(
                "`{name}` in `{list}` is not registered: the {} {}",
                group.label(),
                group.requirement()
            ),
            ToolOrigin::McpNotRegistered { servers } => format!(
                "`{name}` in `{list}` comes from {}, which the runtime skips (see the server's diagnostics)",
                quoted_list(servers)
            ),
            ToolOrigin::OptIn { needs } => format!(
                "`{name}` in `{list}` is not registered with this configuration (it needs {needs})"
            ),
            ToolOrigin::Unknown => {
                let suggestions =
                    suggestions.get_or_insert_with(|| Suggestions::of(catalog.name_index()));
                let hint = hint(suggestions.best(name));
                format!(
                    "`{name}` in `{list}` is not a built-in, platform or MCP tool agentws knows{hint}"
                )
            }
        };
        out.push(RULE.at(path, entry.range, message));
    }
}
