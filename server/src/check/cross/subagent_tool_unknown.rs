//! XR001 `subagent-tool-unknown`: a subagent's `tools:` names tools the agent does not register
//! (one diagnostic per unknown name in the workspace, at its first file, the others as related
//! locations: `one_warning_per_name`).

use super::{ListedTool, Repeatable};
use crate::base::suggest::Suggestions;
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::catalog::{ToolCatalog, ToolOrigin};
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::Workspace;

declare_rule! {
    code: "XR001",
    name: "subagent-tool-unknown",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A subagent's `tools:` names a tool the agent does not register (one diagnostic per name in the workspace).",
    consequence: "The name keeps nothing: a non-empty `tools:` keeps only the inherited tools it names, so a list of only such names leaves the child none of the parent's own tools.",
    explanation:
        "`tools:` chooses, by exact and case-sensitive name, which of the parent's own \
(user-registered) tools the child inherits: every inherited tool the list does not name is removed. \
A name that is not registered (a typo, a feature switched off, a tool of a skipped MCP server) keeps \
nothing; a list made only of such names leaves the child none of the parent's own tools. The harness \
built-ins are not affected either way (see XR003).

Collections written for other agent runtimes repeat the same names (Claude Code's `Read, Grep, Glob`) in \
every file, in lists that differ by a name or two. Each unknown name is one finding per workspace: the \
first file in path order that names it gets the warning, at that entry, whose message says how many other \
subagent files name it too; each of those entries is a related location of the warning (the language \
server's related information, SARIF's `relatedLocations`, a `note:` line of the human output). The other \
files get no diagnostic of their own for that name.",
    examples: &[
        Example {
            base: Base::Shared {
                without: &["agentws.toml", ".agentscope/workspace/skills/pdf/SKILL.md"],
            },
            triggering: &[
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
tools: Read, Grep, Glob
---
You research a question and answer with sources.
"#),
            ],
            fixed: &[
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#),
            ],
            at: ".agentscope/workspace/subagents/researcher.md:3:8",
        },
    ],
}

/// The names of `listed` the runtime does not register, one finding per name (a name the list
/// repeats once); the workspace says each name once (`one_warning_per_name`).
///
/// A non-empty `tools:` keeps only the inherited (user-registered) tools it names; harness
/// built-ins are registered again by the child and are not filtered (XR003).
pub(super) fn check(
    workspace: &Workspace,
    catalog: &ToolCatalog,
    subagent: &SubagentDoc,
    listed: &[ListedTool],
) -> Vec<Repeatable> {
    let mut found: Vec<Repeatable> = Vec::new();
    for entry in listed {
        let name = entry.name;
        let why = match &entry.info.origin {
            ToolOrigin::BuiltIn(_) => continue,
            ToolOrigin::Mcp { .. } | ToolOrigin::MaybeMcp { .. } => continue,
            ToolOrigin::Unknown if catalog.allows_by_name(name) => continue,
            ToolOrigin::BuiltInDisabled(group) => format!("`{name}` ({})", group.requirement()),
            ToolOrigin::OptIn { needs } => format!("`{name}` (only registered with {needs})"),
            ToolOrigin::McpNotRegistered { servers } => format!(
                "`{name}` (from {}, which the runtime skips)",
                servers
                    .iter()
                    .map(|s| format!("MCP server `{s}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            ToolOrigin::Unknown => match crate::check::tools::declared_in_unread(workspace, name) {
                Some((server, why)) => format!(
                    "`{name}` (MCP server `{server}` lists it in a tools.json the runtime never reads: {why})"
                ),
                None => match Suggestions::of(catalog.name_index()).best(name) {
                    Some(best) => format!("`{name}` (did you mean `{best}`?)"),
                    None => format!("`{name}`"),
                },
            },
        };
        // A name the list repeats is one finding of the file.
        if found.iter().any(|r| r.key == name) {
            continue;
        }
        let diagnostic = RULE.at(
            &subagent.path,
            entry.range,
            format!(
                "`tools:` names {why}, which the agent does not register (a tool registered in Java code is invisible to agentws)"
            ),
        );
        found.push(Repeatable::new(name.to_string(), subagent, diagnostic));
    }
    found
}
