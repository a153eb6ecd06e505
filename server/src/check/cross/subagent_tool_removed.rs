//! XR002 `subagent-tool-removed`: a subagent's `tools:` names an MCP tool that tools.json
//! removes, which the child therefore cannot inherit.

use super::{ListedTool, Span};
use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::catalog::{Removal, ToolOrigin};
use crate::workspace::subagent::SubagentDoc;

declare_rule! {
    code: "XR002",
    name: "subagent-tool-removed",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary:
        "A subagent's `tools:` names a tool that tools.json removes (deny, or left out of allow).",
    consequence: "Naming it in `tools:` has no effect: the child runs without it.",
    explanation:
        "tools.json `allow`/`deny` is applied once at build to the main agent's toolkit; the \
child only inherits what survived. Allow the tool in tools.json or drop it from `tools:`.",
    examples: &[Example {
        base: Base::Shared {
            without: &["agentws.toml", ".agentscope/workspace/skills/pdf/SKILL.md"],
        },
        triggering: &[
            (".agentscope/workspace/tools.json", r#"{
  "deny": ["create_issue"],
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
tools: [search_issues, create_issue]
---
You research a question and answer with sources.
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
        at: ".agentscope/workspace/subagents/researcher.md:3:24",
    }],
}

pub(super) fn check(
    (subagent, line): (&SubagentDoc, TextRange),
    listed: &[ListedTool],
) -> Option<Diagnostic> {
    let removed: Vec<&ListedTool> = listed
        .iter()
        .filter(|entry| {
            matches!(
                entry.info.origin,
                ToolOrigin::Mcp { .. } | ToolOrigin::MaybeMcp { .. }
            ) && entry.info.removal.is_some()
        })
        .collect();
    if removed.is_empty() {
        return None;
    }
    let names: Vec<String> = removed
        .iter()
        .map(|entry| {
            let how = match entry.info.removal {
                Some(Removal::Denied(_)) => "denied",
                _ => "not in `allow`",
            };
            format!("`{}` ({how})", entry.name)
        })
        .collect();
    Some(RULE.at(
        &subagent.path,
        Span::of(removed.iter().map(|entry| entry.range)).or(line),
        format!(
            "tools.json removes {} from the parent's toolkit, so the child cannot inherit {}",
            names.join(", "),
            if names.len() == 1 { "it" } else { "them" }
        ),
    ))
}
