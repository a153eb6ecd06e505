//! XR001 `subagent-tool-unknown`: a subagent's `tools:` names tools the agent does not register
//! (one diagnostic per list, repeated lists said once: `one_warning_per_value`).

use super::{ListedTool, Repeatable, Span};
use crate::base::suggest::Suggestions;
use crate::base::{Severity, TextRange};
use crate::rules::{Example, Profile, Rule};
use crate::workspace::catalog::{ToolCatalog, ToolOrigin};
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::Workspace;

pub static RULE: Rule = Rule {
    code: "XR001",
    name: "subagent-tool-unknown",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A subagent's `tools:` names tools the agent does not register (one diagnostic per list).",
    consequence: "These names keep nothing: a non-empty `tools:` keeps only the inherited tools it names, so a list of only such names leaves the child none of the parent's own tools.",
    explanation:
        "`tools:` chooses, by exact and case-sensitive name, which of the parent's own \
(user-registered) tools the child inherits: every inherited tool the list does not name is removed. \
A name that is not registered (a typo, a feature switched off, a tool of a skipped MCP server) keeps \
nothing; a list made only of such names leaves the child none of the parent's own tools. The harness \
built-ins are not affected either way (see XR003). One diagnostic covers the whole list and names every \
unknown entry.

Collections written for other agent runtimes repeat the same list (Claude Code's `Read, Grep, Glob`) in \
every file. The same set of unknown names (in any order) is one finding: the first file in path order \
gets the warning, whose message says how many other files name the same unknown tools, and each of \
those gets an info at its own `tools:` line saying `same as in <first file>`, with the first file as \
related location. The key is the whole set, not each name: a list with one more unknown name is a new \
finding, since it is the list that decides what the child keeps. A list no other file repeats is a \
plain warning.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
tools: Read, Grep, Glob
---
You research a question and answer with sources.
"#),
            ],
            fixed: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#),
            ],
        },
    ],
};

/// The names of `listed` the runtime does not register, as one finding for the list at `line`.
///
/// A non-empty `tools:` keeps only the inherited (user-registered) tools it names; harness
/// built-ins are registered again by the child and are not filtered (XR003).
pub(super) fn check(
    workspace: &Workspace,
    catalog: &ToolCatalog,
    (subagent, line): (&SubagentDoc, TextRange),
    listed: &[ListedTool],
) -> Option<Repeatable> {
    let mut unknown: Vec<String> = Vec::new();
    let mut unknown_at = Vec::new();
    let mut keeps_some = false;
    for entry in listed {
        let name = entry.name;
        let why = match &entry.info.origin {
            ToolOrigin::BuiltIn(_) => continue,
            ToolOrigin::Mcp { .. } | ToolOrigin::MaybeMcp { .. } => {
                keeps_some |= entry.info.removal.is_none();
                continue;
            }
            ToolOrigin::Unknown if catalog.allows_by_name(name) => {
                keeps_some = true;
                continue;
            }
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
        unknown.push(why);
        unknown_at.push(entry.range);
    }
    if unknown.is_empty() {
        return None;
    }
    let consequence = if keeps_some {
        "These names keep nothing: the child inherits only the parent's own tools the list names that exist."
    } else {
        "A non-empty `tools:` keeps only the inherited tools it names, and none of these exists: the child inherits none of the parent's own tools (it keeps the harness built-ins)."
    };
    let mut key = unknown.clone();
    key.sort();
    key.dedup();
    let diagnostic = RULE
        .at(
            &subagent.path,
            Span::of(unknown_at).or(line),
            format!(
                "`tools:` names {} that the agent does not register (a tool registered in Java code is invisible to agentws)",
                plural(&unknown, "a tool", "tools")
            ),
        )
        .with_consequence(consequence);
    Some(Repeatable::new(key.join("\n"), subagent, diagnostic))
}

/// `names` joined, after "a tool" or "tools" as fits their number.
fn plural(names: &[String], one: &str, many: &str) -> String {
    match names.len() {
        1 => format!("{one} {}", names[0]),
        _ => format!("{many} {}", names.join(", ")),
    }
}
