//! WS012 `memory-over-budget`: whether MEMORY.md fits in what `maxContextTokens` leaves after
//! the session context, AGENTS.md, knowledge and additional files (harness-spec §5.7).
//!
//! The budget depends on the whole rendered context, so the prompt renderer computes it; a cheap
//! upper bound first rules out the common case (a short MEMORY.md) without rendering anything.

use crate::base::{Diagnostic, Severity, TextRange};
use crate::prompt::Date;
use crate::prompt::{estimate_tokens, render, PreviewContext};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::{FileKind, Tree, Workspace};

declare_rule! {
    code: "WS012",
    name: "memory-over-budget",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "MEMORY.md does not fit in the remaining memory budget.",
    consequence: "The runtime cuts MEMORY.md and appends a truncation notice; when no budget is left at all, it injects MEMORY.md whole.",
    explanation: "`maxContextTokens` (default 8000) minus the session context, AGENTS.md, knowledge and \
additional files is what MEMORY.md may use, counted as UTF-16 length / 4. Consolidate MEMORY.md.",
    examples: &[
        Example {
            base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
            triggering: &[
                ("agentws.toml", r#"[agent]
name = "release"
max_context_tokens = 200
"#),
                (".agentscope/workspace/MEMORY.md", r#"- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"[agent]
name = "release"
max_context_tokens = 200
"#),
                (".agentscope/workspace/MEMORY.md", "- Releases: `main`, tags `vX.Y.Z`.\n"),
            ],
            at: ".agentscope/workspace/MEMORY.md:1:1",
        },
    ],
}

/// Generous upper bound of the session context's tokens without the environment memory (its
/// template, ids, paths, date and OS are well under this).
const SESSION_CONTEXT_BOUND: usize = 1_000;

/// An upper bound of what any one call's session context, AGENTS.md, knowledge block and
/// additional files cost (harness-spec §5.7): a call reads one AGENTS.md and one KNOWLEDGE.md (the
/// largest of the candidates bounds it), each additional file once (with its tag and two spaces of
/// indentation per line), and lists at most every knowledge file.
fn others_upper_bound(workspace: &Workspace) -> usize {
    let mut agents = 0;
    let mut knowledge_index = 0;
    let mut additional: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut listing = 0;
    for (path, (location, kind)) in workspace.kinds.iter() {
        // Only the few injected files need their text (one lookup each); knowledge files are
        // only listed.
        let text = || workspace.files.text(path);
        match kind {
            FileKind::AgentsMd => agents = agents.max(text().map_or(0, estimate_tokens)),
            FileKind::KnowledgeIndex => {
                knowledge_index = knowledge_index.max(text().map_or(0, estimate_tokens));
                listing += location.rel.len() / 4 + 2;
            }
            FileKind::Knowledge => listing += location.rel.len() / 4 + 2,
            FileKind::AdditionalContext => {
                let text = text();
                let lines = text.map_or(0, |t| t.lines().count());
                let rendered =
                    text.map_or(0, estimate_tokens) + lines / 2 + location.rel.len() / 2 + 8;
                let slot = additional.entry(location.rel.as_str()).or_default();
                *slot = (*slot).max(rendered);
            }
            _ => {}
        }
    }
    SESSION_CONTEXT_BOUND
        + estimate_tokens(&workspace.config.agent.environment_memory)
        + agents
        + knowledge_index
        + listing
        + additional.values().sum::<usize>()
}

pub fn check(workspace: &Workspace) -> Vec<Diagnostic> {
    let config = &workspace.config;
    if !config.features.workspace_context
        || !(config.features.memory_tools || config.features.memory_hooks)
    {
        return Vec::new();
    }
    let others_bound = others_upper_bound(workspace);
    let max = config.agent.max_context_tokens as usize;

    let mut out = Vec::new();
    for (path, (location, kind)) in workspace.kinds.iter() {
        if *kind != FileKind::MemoryMd {
            continue;
        }
        let Some(text) = workspace.files.text(path) else {
            continue;
        };
        if estimate_tokens(text) + others_bound <= max {
            continue;
        }
        let mut ctx = PreviewContext::new(
            config,
            Date::parse("2026-01-01").expect("valid date"),
            "Linux",
            "/tmp",
        );
        let who = match &location.tree {
            Tree::Namespace(ns) => {
                ctx.session.user_id = Some(ns.clone());
                ctx.session.session_id = Some(ns.clone());
                format!("user `{ns}`")
            }
            Tree::Shared | Tree::Project => {
                ctx.session.session_id = Some("_agentws-no-folder".to_string());
                "callers without a per-user MEMORY.md".to_string()
            }
        };
        let Ok(preview) = render(workspace, &ctx) else {
            continue;
        };
        let budget = &preview.budget;
        let read_this_file = budget.cut.as_ref().and_then(|c| c.path.as_deref())
            == Some(path.to_string_lossy().as_ref())
            || budget.cut.is_none();
        if !read_this_file {
            continue;
        }
        let message = match budget.memory {
            "truncated" => format!(
                "MEMORY.md ({} tokens) is cut to the {} tokens left of `max_context_tokens` = {} for {who}",
                budget.memory_tokens, budget.available_tokens, budget.max_context_tokens
            ),
            "over-budget-included" => format!(
                "MEMORY.md ({} tokens) gets no budget for {who}: the other injected files already use {} of {} tokens, so the runtime injects it whole",
                budget.memory_tokens, budget.used_tokens, budget.max_context_tokens
            ),
            _ => continue,
        };
        out.push(RULE.at(path, TextRange::new(0, text.len().min(1)), message));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::Config;
    use crate::workspace::Workspace;

    #[test]
    fn a_memory_larger_than_the_budget_is_reported_for_whom_it_is_cut() {
        let mut config = Config::defaults_for(Path::new("/p"));
        config.agent.name = Some("assistant".into());
        config.agent.max_context_tokens = 1000;
        let big = "- remembered fact\n".repeat(400); // 7 200 chars = 1 800 tokens
        let ws = Workspace::from_texts(
            config,
            [
                (
                    "/p/.agentscope/workspace/AGENTS.md",
                    "# Assistant\n".to_string(),
                ),
                ("/p/.agentscope/workspace/MEMORY.md", big),
                (
                    "/p/.agentscope/workspace/alice/MEMORY.md",
                    "- short\n".to_string(),
                ),
            ],
        );
        let found: Vec<(String, String)> = super::check(&ws)
            .into_iter()
            .map(|d| (d.path.to_string_lossy().into_owned(), d.message))
            .collect();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "/p/.agentscope/workspace/MEMORY.md");
        // 7 199 UTF-16 units after stripping = 1 799 tokens; the session context and AGENTS.md
        // take 80 of the 1 000.
        assert_eq!(
            found[0].1,
            "MEMORY.md (1799 tokens) is cut to the 924 tokens left of `max_context_tokens` = 1000 \
             for callers without a per-user MEMORY.md"
        );
    }
}
