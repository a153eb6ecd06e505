//! XR017 `foreign-tool-mentioned`: AGENTS.md or SKILL.md text that names, in backticks, a tool of
//! another agent: a Claude Code tool (`Grep`, `Glob`, `Bash`, …) or a Claude Code MCP tool name
//! (`mcp__<server>__<tool>`). AgentScope registers its own tools (`grep_files`, `execute`, …) and
//! MCP tools under the tool's own name (`McpTool`), so neither name exists. Reads the mentions of
//! `removed_tool_mentioned` and the catalog.

use std::path::Path;

use super::removed_tool_mentioned::ToolMention;
use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::catalog::ToolCatalog;

declare_rule! {
    code: "XR017",
    name: "foreign-tool-mentioned",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "AGENTS.md or a skill tells the model to use a tool by another agent's name (`Grep`, `mcp__server__tool`).",
    consequence: "No tool has that name here: the model guesses which tool was meant, or its call fails.",
    explanation: "Skills written for Claude Code name its tools: `Grep`, `Glob`, `Read`, `Bash`, \
`WebFetch`, … and MCP tools as `mcp__<server>__<tool>`. AgentScope's tools have other names \
(`grep_files`, `glob_files`, `read_file`, `execute`, `web_fetch`), and an MCP tool is registered \
under its own name (`create_issue`, not `mcp__github__create_issue`). The prompt text is not \
checked against the toolkit, so the model reads a name it cannot call.

Name the tool this agent has. Only names in backticks are read (`Grep`, `mcp__github__create_issue`), \
and only where the line tells the model to use them (`use`, `call` or `invoke` before the name, or \
`with`/`via` right before it): a table of each agent's tools, an example (`e.g. `mcp__x__y``) or a \
sentence about Claude Code's `Bash` tells the model nothing to call, and the word grep in a sentence \
is not a tool name.",
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/skills/logs/SKILL.md",
            r#"---
name: logs
description: Find errors in the service logs.
---

Search the logs with `Grep` for `ERROR`, then open the file with `Read`.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/skills/logs/SKILL.md",
            r#"---
name: logs
description: Find errors in the service logs.
---

Search the logs with `grep_files` for `ERROR`, then open the file with `read_file`.
"#,
        )],
        at: ".agentscope/workspace/skills/logs/SKILL.md:6:23",
    }],
}

/// Claude Code's tools and the AgentScope tool that does the same, when there is one.
const CLAUDE_TOOLS: &[(&str, Option<&str>)] = &[
    ("Bash", Some("execute")),
    ("Edit", Some("edit_file")),
    ("Glob", Some("glob_files")),
    ("Grep", Some("grep_files")),
    ("LS", Some("list_files")),
    ("MultiEdit", Some("edit_file")),
    ("NotebookEdit", None),
    ("Read", Some("read_file")),
    ("Task", Some("agent_spawn")),
    ("TodoWrite", None),
    ("WebFetch", Some("web_fetch")),
    ("WebSearch", Some("web_search")),
    ("Write", Some("write_file")),
];

/// `XR017` for the `mentions` of the file at `path`: each foreign name once, where it is first
/// written; a name the catalog registers (a tool of that very name) is not foreign.
pub fn foreign_among(
    catalog: &ToolCatalog,
    path: &Path,
    mentions: &[ToolMention],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for ToolMention {
        start,
        name,
        instructs,
    } in mentions
    {
        if !instructs {
            continue;
        }
        let Some(message) = foreign(catalog, name) else {
            continue;
        };
        if catalog.lookup(name).is_registered() || !seen.insert(name.as_str()) {
            continue;
        }
        out.push(RULE.at(path, TextRange::new(*start, start + name.len()), message));
    }
    out
}

/// What is wrong with `name`, when it is another agent's tool name.
fn foreign(catalog: &ToolCatalog, name: &str) -> Option<String> {
    if let Some(rest) = name.strip_prefix("mcp__") {
        let (server, tool) = rest
            .split_once("__")
            .filter(|(s, t)| !s.is_empty() && !t.is_empty())?;
        let declared = catalog.mcp_servers().iter().any(|m| m.server == server);
        let server_note = if declared {
            format!("tools.json's server `{server}` registers it as `{tool}`")
        } else {
            format!("tools.json declares no MCP server `{server}` either")
        };
        return Some(format!(
            "`{name}` is Claude Code's name for MCP tool `{tool}` of server `{server}`: AgentScope registers MCP tools under their own names, so no tool is called `{name}` ({server_note})"
        ));
    }
    let (_, ours) = CLAUDE_TOOLS.iter().find(|(claude, _)| *claude == name)?;
    Some(match ours {
        Some(ours) => format!(
            "`{name}` is a Claude Code tool; this agent has no tool of that name (the same job is `{ours}`)"
        ),
        None => format!("`{name}` is a Claude Code tool; this agent has no tool of that name"),
    })
}
