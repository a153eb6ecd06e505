//! TJ030 `tools-prompt-promises-removed`: prompt sections that still tell the model to use tools
//! tools.json removes.

use super::{backticked, removal_anchor};
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::catalog::{ToolCatalog, PROMPT_TOOL_SECTIONS};
use crate::workspace::tools::ToolsDoc;
use crate::workspace::Workspace;

declare_rule! {
    code: "TJ030",
    name: "tools-prompt-promises-removed",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "The system prompt tells the model to use a tool that tools.json removes.",
    consequence: "The prompt sections are chosen by the builder's features, not by tools.json: the model is told to call a tool it does not have, and its calls fail.",
    explanation: "Three prompt sections name tools: `## Code Execution` (shown when skills get a \
`<files-root>`, which the local shell filesystem gives every skill) tells the model to run skill \
scripts with the shell tool `execute`; `## Memory Recall` tells it to run `memory_search` and \
`memory_get`; `## Memory Persistence` tells it to use `memory_save`. Removing those tools in tools.json \
leaves the text in place. `agentws preview` notes every rendered section whose tools are removed \
(note `removed-tool`), and the check reports exactly those: the memory sections follow the builder's \
features; the Code Execution section follows the skills a call loads, so the check decides it per \
session context it evaluates (the configured scope for any user, and each per-user folder), from the \
same loading resolution the preview renders. When only some of those contexts load a skill (e.g. the \
skills are all in one per-user folder) the message names the contexts that get the section and those \
that do not. It also names the loaded skills whose folders hold files besides SKILL.md, the scripts \
the section is about. Switch the feature off \
in the builder instead (`disableShellTool()`, `disableMemoryTools()`), which also drops the section, or \
keep the tool.",
    examples: &[
        Example {
            base: Base::None,
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["memory_search", "memory_get"]
}
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"[agent]
name = "coder"

[features]
memory_tools = false
"#),
            ],
            at: ".agentscope/workspace/tools.json:2:3",
        },
    ],
}

/// The prompt sections that tell the model to use tools tools.json removes.
///
/// The memory sections follow the builder's features alone. The code-execution section follows
/// the skills a context renders, so it is decided per checked context from the loading
/// resolution, the function the preview renders from: reported when the preview of some checked
/// context shows it, naming those contexts when not all of them do.
pub(super) fn check(
    workspace: &Workspace,
    doc: &ToolsDoc,
    catalog: &ToolCatalog,
    code_execution: &dyn Fn() -> Option<String>,
) -> Vec<Diagnostic> {
    let config = &workspace.config;
    let mut out = Vec::new();
    for section in PROMPT_TOOL_SECTIONS {
        let removed = catalog.removed_from(section);
        let Some(first) = removed.first() else {
            continue;
        };
        let detail = if section.heading == "## Code Execution" {
            match code_execution() {
                Some(detail) => detail,
                None => continue,
            }
        } else if section.rendered(config, false) {
            String::new()
        } else {
            continue;
        };
        let promise = format!(
            "the prompt's `{}` section still tells the model {} {}{detail}",
            section.heading,
            section.asks,
            backticked(section.tools),
        );
        out.push(
            RULE.at(
                &doc.path,
                removal_anchor(doc, catalog, first),
                format!("tools.json removes {}, but {promise}", backticked(&removed)),
            )
            .with_part(promise),
        );
    }
    out
}
