//! XR003 `subagent-tool-builtin`: `tools:` lists naming harness built-ins, which every child
//! has anyway. The fact holds for every such list, so it is said once per workspace, at the
//! first list in path order.

use std::path::PathBuf;

use super::{names_list, tools_line, ListedTool};
use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::catalog::ToolOrigin;
use crate::workspace::subagent::SubagentDoc;

declare_rule! {
    code: "XR003",
    name: "subagent-tool-builtin",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "Subagents' `tools:` lists name harness built-in tools (said once per workspace).",
    consequence: "Built-ins are re-registered by every child: listing them restricts nothing, and leaving them out removes nothing.",
    explanation: "`tools:` only filters user-registered tools inherited from the parent builder. \
`read_file`, `memory_search`, `execute` and the other harness tools are always present in the child. \
The fact holds for every list that names a built-in, so it is reported once, at the first one.",
    examples: &[
        Example {
            base: Base::Shared {
                without: &["agentws.toml", ".agentscope/workspace/skills/pdf/SKILL.md"],
            },
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "github-mcp-server",
      "args": ["stdio"],
      "enableTools": ["search_issues", "create_issue"]
    }
  }
}
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
tools: [search_issues, read_file]
---
You research a question and answer with sources.
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "github-mcp-server",
      "args": ["stdio"],
      "enableTools": ["search_issues", "create_issue"]
    }
  }
}
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
tools: [search_issues]
---
You research a question and answer with sources.
"#),
            ],
            at: ".agentscope/workspace/subagents/researcher.md:3:8",
        },
    ],
}

/// A subagent's `tools:` naming built-ins, kept per chunk of subagents until the lists are
/// merged ([`said_once`]).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct BuiltinsNamed {
    path: PathBuf,
    range: TextRange,
    names: Vec<String>,
}

/// The harness built-ins `listed` names that tools.json leaves in place.
pub(super) fn named(subagent: &SubagentDoc, listed: &[ListedTool]) -> Option<BuiltinsNamed> {
    let names: Vec<String> = listed
        .iter()
        .filter(|entry| {
            matches!(entry.info.origin, ToolOrigin::BuiltIn(_)) && entry.info.removal.is_none()
        })
        .map(|entry| entry.name.to_string())
        .collect();
    (!names.is_empty()).then(|| BuiltinsNamed {
        path: subagent.path.clone(),
        range: tools_line(subagent).unwrap_or(subagent.opening_range),
        names,
    })
}

/// The one diagnostic for every list of `naming`, at the first in path order.
pub(super) fn said_once(naming: &[&BuiltinsNamed]) -> Option<Diagnostic> {
    let first = naming.iter().min_by(|a, b| a.path.cmp(&b.path))?;
    let builtins: Vec<&str> = first.names.iter().map(String::as_str).collect();
    let also = match naming.len() - 1 {
        0 => String::new(),
        1 => "; 1 other subagent's `tools:` names built-ins too".to_string(),
        n => format!("; {n} other subagents' `tools:` name built-ins too"),
    };
    Some(RULE.at(
        &first.path,
        first.range,
        format!(
            "{} {} harness built-in{}: `tools:` only chooses among the parent's own tools, and every child has the built-ins anyway{also}",
            names_list(&builtins),
            if builtins.len() == 1 { "is a" } else { "are" },
            if builtins.len() == 1 { "" } else { "s" },
        ),
    ))
}
