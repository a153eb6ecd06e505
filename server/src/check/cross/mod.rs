//! Cross-file rules (`XR…`, harness-spec §9.5): references between workspace files that the
//! runtime never checks — subagent `skills:` against the skills that exist, subagent
//! `workspace.path` targets, subagent `tools:` against the tool catalog, and prompt text that
//! mentions tools tools.json removes or another agent's tool names — and the subagent `model:` against agentws.toml's
//! `[agent] models` and the shipped model providers (`SA025`). A model id repeated across
//! subagent files is one finding (`one_warning_per_value`), and so is each unknown tool name
//! (`one_warning_per_name`). The rules
//! about two files of one name (XR005–XR007, XR012, XR016) are loading outcomes, found in
//! `check::loading`.
//!
//! One file per rule, declaration beside detection ([`RULES`]). The list rules read each
//! `skills:` entry with what the contexts that load the subagent find for it (`ListedSkill`), and
//! each `tools:` entry with what the catalog says of it (`ListedTool`).
//!
//! Pure over the snapshot. The per-file mention check (`removed_tool_mentions`) is separate, and
//! split into the text's mentions and their comparison with the catalog, so that the engine keeps
//! the first per file and a tools.json edit runs only the second.

use std::path::Path;

use crate::base::suggest::{SuggestEach, Suggestions};
use crate::base::{Diagnostic, Related, Severity, TextRange};
use crate::check::loading;
use crate::rules::declare_family;
use crate::workspace::catalog::{ToolCatalog, ToolInfo};
use crate::workspace::resolution::{Callers, NotScanned, Outcome};
use crate::workspace::skill::SkillDoc;
use crate::workspace::snapshot::WorkspaceFile;
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::{Tree, Workspace};

declare_family! {
    mod subagent_tool_unknown;           // XR001
    mod subagent_tool_removed;           // XR002
    mod subagent_tool_builtin;           // XR003
    mod subagent_skill_unknown;          // XR004
    mod subagent_workspace_in_subagents; // XR008
    mod subagent_workspace_missing;      // XR009
    mod removed_tool_mentioned;          // XR010
    mod subagent_skill_other_user;       // XR011
    mod subagent_tool_removed_builtin;   // XR015
    mod foreign_tool_mentioned;          // XR017
    mod subagent_model_unresolvable;     // SA025, found with the tool lists
}

pub use removed_tool_mentioned::{mentions_tools, removed_among, tool_mentions, ToolMention};

/// The rules over the backticked tool names (`` `name` `` or `` `name(...)` ``) of one AGENTS.md
/// or SKILL.md text ([`mentioned_among`]).
pub fn removed_tool_mentions(catalog: &ToolCatalog, file: WorkspaceFile) -> Vec<Diagnostic> {
    if !mentions_tools(file.kind) {
        return Vec::new();
    }
    let Some(text) = file.entry.content.text() else {
        return Vec::new();
    };
    mentioned_among(catalog, file.path, &tool_mentions(text))
}

/// Every rule over the tool names a file's text mentions: removed ones (`XR010`) and other
/// agents' (`XR017`).
pub fn mentioned_among(
    catalog: &ToolCatalog,
    path: &Path,
    mentions: &[ToolMention],
) -> Vec<Diagnostic> {
    let mut out = removed_among(catalog, path, mentions);
    out.extend(foreign_tool_mentioned::foreign_among(
        catalog, path, mentions,
    ));
    out
}

/// Every cross-file diagnostic of the workspace.
pub fn check(workspace: &Workspace) -> Vec<Diagnostic> {
    let catalog = ToolCatalog::for_workspace(workspace);
    let mut out = check_references(workspace, &catalog);
    for file in workspace.workspace_files() {
        out.extend(removed_tool_mentions(&catalog, file));
    }
    out
}

/// The references between files: subagents' `tools:`, `skills:` and `workspace.path`, and
/// duplicate names and ids (everything but the per-file tool mentions).
pub fn check_references(workspace: &Workspace, catalog: &ToolCatalog) -> Vec<Diagnostic> {
    let contexts = loading::Contexts::new(workspace);
    let known_skills = |names: &[&str]| {
        Suggestions::of_pieces(&super::skill_name_index(workspace)).best_each(names)
    };
    let mut out = check_skill_references(workspace, &contexts, &known_skills);
    out.extend(check_tool_references(workspace, catalog));
    out.extend(loading::check_skills(workspace, &contexts, &|_| true));
    out.extend(loading::check_subagents(workspace, &contexts));
    out
}

/// What each subagent's `skills:` and `workspace.path` name, over contexts already resolved
/// (the driver resolves them once for every rule that needs them). Reads no tool catalog.
pub fn check_skill_references(
    workspace: &Workspace,
    contexts: &loading::Contexts,
    known_skills: &SuggestEach,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for subagent in workspace.subagents.iter().filter(|s| s.outcome.is_ok()) {
        if let Some(line) = list_range(subagent, "skills") {
            let listed = listed_skills(workspace, contexts, subagent);
            subagent_skill_other_user::check(subagent, &listed, line, &mut out);
            subagent_skill_unknown::check(
                workspace,
                subagent,
                &listed,
                line,
                known_skills,
                &mut out,
            );
        }
        out.extend(subagent_workspace_in_subagents::check(workspace, subagent));
        out.extend(subagent_workspace_missing::check(workspace, subagent));
    }
    out
}

/// One name of a subagent's `skills:`, with what the contexts that load the subagent find for it
/// (the child sees the skills of its parent's call): what XR004 and XR011 read.
struct ListedSkill<'s> {
    name: &'s str,
    range: TextRange,
    found: SkillFound<'s>,
}

enum SkillFound<'s> {
    /// A context that loads the subagent loads a skill of that name.
    Loaded,
    /// Only the contexts of other callers load one: their labels (`` `alice` ``).
    ForOthersOnly(Vec<String>),
    /// A file has the name, but no context that loads the subagent loads it, for `reason`.
    NotLoaded {
        doc: &'s SkillDoc,
        reason: NotScanned,
        who: Callers,
    },
    /// No skill file has the name.
    Nowhere,
}

fn listed_skills<'s>(
    workspace: &'s Workspace,
    contexts: &loading::Contexts,
    subagent: &'s SubagentDoc,
) -> Vec<ListedSkill<'s>> {
    let own = contexts.for_tree(&subagent.location.tree);
    let found = |name: &str| {
        if own.iter().any(|(_, r)| r.skill_named(name).is_some()) {
            return SkillFound::Loaded;
        }
        let others: Vec<String> = contexts
            .list
            .iter()
            .filter(|(_, r)| r.skill_named(name).is_some())
            .map(|(who, _)| match who {
                Callers::Folder(ns) => format!("`{ns}`"),
                other => loading::who_label(workspace, other),
            })
            .collect();
        if !others.is_empty() {
            return SkillFound::ForOthersOnly(others);
        }
        let not_loaded = workspace
            .skills
            .iter()
            .filter(|d| d.name.as_deref() == Some(name))
            .find_map(|doc| {
                own.iter().find_map(|(who, r)| match r.skill_outcome(doc) {
                    Outcome::NotScanned(reason) => Some(SkillFound::NotLoaded {
                        doc,
                        reason,
                        who: who.clone(),
                    }),
                    _ => None,
                })
            });
        not_loaded.unwrap_or(SkillFound::Nowhere)
    };
    subagent
        .skills
        .iter()
        .map(|entry| ListedSkill {
            name: entry.value.as_str(),
            range: entry.range,
            found: found(entry.value.as_str()),
        })
        .collect()
}

/// What the subagents' `tools:` and `model:` name, against the catalog and the model lists.
/// Reads no skill and no session context.
pub fn check_tool_references(workspace: &Workspace, catalog: &ToolCatalog) -> Vec<Diagnostic> {
    let found = tool_list_findings(workspace, catalog);
    merge_tool_list_findings([&found])
}

/// What [`check_tool_references`] finds in each subagent of a workspace alone, before the
/// findings several files share are merged ([`merge_tool_list_findings`]): the engine keeps it
/// per chunk of subagents, so that a subagent's edit looks at its chunk again and merges.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolListFindings {
    /// The diagnostics no other file changes.
    diagnostics: Vec<Diagnostic>,
    /// Unknown tool names (`XR001`, one per name and file) and unresolvable models (`SA025`),
    /// said once per workspace.
    tools: Vec<Repeatable>,
    models: Vec<Repeatable>,
    /// The subagents whose `tools:` name harness built-ins (`XR003`, said at the first).
    builtins: Vec<subagent_tool_builtin::BuiltinsNamed>,
}

/// The per-subagent findings of [`check_tool_references`], over the subagents of `workspace`
/// that load.
pub fn tool_list_findings(workspace: &Workspace, catalog: &ToolCatalog) -> ToolListFindings {
    let mut found = ToolListFindings::default();
    for subagent in workspace.subagents.iter().filter(|s| s.outcome.is_ok()) {
        let listed = listed_tools(catalog, subagent);
        if let Some(line) = tools_line(subagent).filter(|_| !listed.is_empty()) {
            let at = (&**subagent, line);
            found.tools.extend(subagent_tool_unknown::check(
                workspace, catalog, subagent, &listed,
            ));
            found
                .diagnostics
                .extend(subagent_tool_removed::check(at, &listed));
            found
                .diagnostics
                .extend(subagent_tool_removed_builtin::check(workspace, at, &listed));
        }
        found
            .models
            .extend(subagent_model_unresolvable::check(workspace, subagent));
        found
            .builtins
            .extend(subagent_tool_builtin::named(subagent, &listed));
    }
    found
}

/// The diagnostics of findings taken from disjoint sets of subagents, together: a value
/// repeated across files is one warning at the first file in path order, an info at the others
/// (`one_warning_per_value`), an unknown tool name one warning (`one_warning_per_name`), and
/// `XR003` is said once.
pub fn merge_tool_list_findings<'a>(
    parts: impl IntoIterator<Item = &'a ToolListFindings>,
) -> Vec<Diagnostic> {
    let (mut tools, mut models, mut builtins) = (Vec::new(), Vec::new(), Vec::new());
    let mut out = Vec::new();
    for part in parts {
        out.extend(part.diagnostics.iter().cloned());
        tools.extend(part.tools.iter().cloned());
        models.extend(part.models.iter().cloned());
        builtins.extend(part.builtins.iter());
    }
    // Findings about values copied from another agent runtime, which a collection repeats in
    // every file: one warning per distinct value, an info pointing at it everywhere else.
    let by_path = |r: &Repeatable| r.diagnostic.path.clone();
    tools.sort_by_cached_key(by_path);
    models.sort_by_cached_key(by_path);
    out.extend(one_warning_per_name(tools));
    out.extend(one_warning_per_value(
        models,
        ("names the same model", "name the same model"),
    ));
    out.extend(subagent_tool_builtin::said_once(&builtins));
    out
}

/// One entry of a subagent's `tools:`, with what the catalog says of its name: what the tool
/// list rules (XR001–XR003, XR015) read.
struct ListedTool<'s> {
    name: &'s str,
    range: TextRange,
    info: ToolInfo,
}

impl ListedTool<'_> {
    /// tools.json removes the tool, and the runtime does not add it back.
    fn removed(&self) -> bool {
        self.info.removal.is_some() && !self.info.readded
    }
}

fn listed_tools<'s>(catalog: &ToolCatalog, subagent: &'s SubagentDoc) -> Vec<ListedTool<'s>> {
    subagent
        .tools
        .iter()
        .map(|entry| ListedTool {
            name: entry.value.as_str(),
            range: entry.range,
            info: catalog.lookup(&entry.value),
        })
        .collect()
}

/// The span of the names one list diagnostic concerns: from the first to the last (a single
/// name's own range when there is one).
#[derive(Clone, Copy)]
struct Span(Option<TextRange>);

impl Span {
    /// The span of the entries at `ranges`.
    fn of(ranges: impl IntoIterator<Item = TextRange>) -> Span {
        Span(
            ranges
                .into_iter()
                .reduce(|a, b| TextRange::new(a.start.min(b.start), a.end.max(b.end))),
        )
    }

    fn or(self, fallback: TextRange) -> TextRange {
        self.0.unwrap_or(fallback)
    }
}

/// The range of a subagent's `tools:` value (the line the per-list diagnostics point at).
fn tools_line(subagent: &SubagentDoc) -> Option<TextRange> {
    list_range(subagent, "tools")
}

fn list_range(subagent: &SubagentDoc, key: &str) -> Option<TextRange> {
    subagent
        .metadata
        .iter()
        .find(|e| e.key == key)
        .map(|e| e.value.range)
}

fn names_list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A finding about a value that a collection copied from another agent runtime tends to repeat
/// in every file (a model id, a list of tool names): findings with the same `key` (under one
/// rule) are the same finding.
#[derive(Clone, Debug, PartialEq)]
struct Repeatable {
    key: String,
    /// Where the file is, for the others' messages.
    place: String,
    diagnostic: Diagnostic,
}

impl Repeatable {
    fn new(key: String, subagent: &SubagentDoc, diagnostic: Diagnostic) -> Self {
        Self {
            key,
            place: place(subagent),
            diagnostic,
        }
    }
}

/// One warning per distinct value: the first file in path order (`found` is in path order) keeps
/// the diagnostic, its message saying how many other files share it (`share`: the verb phrase
/// for one file and for several); every other file gets
/// the same text as an info at its own position, pointing at the first. Severity then depends on
/// the whole workspace only (check and the language server agree), and a value used once reads
/// exactly as before.
fn one_warning_per_value(found: Vec<Repeatable>, share: (&str, &str)) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for group in by_key(found) {
        let mut group = group.into_iter();
        let Some(first) = group.next() else { continue };
        let others: Vec<Repeatable> = group.collect();
        let mut lead = first.diagnostic;
        match others.len() {
            0 => {}
            1 => lead.message += &format!("; 1 other subagent file {} (info there)", share.0),
            n => lead.message += &format!("; {n} other subagent files {} (info there)", share.1),
        }
        for other in others {
            let d = other.diagnostic;
            out.push(
                Diagnostic {
                    message: format!("same as in {}: {}", first.place, d.message),
                    ..d
                }
                .with_severity(Severity::Info)
                .with_related(Related {
                    path: lead.path.clone(),
                    range: lead.range,
                    message: "reported here as a warning, for every file that shares it".into(),
                }),
            );
        }
        out.push(lead);
    }
    out
}

/// The findings grouped by key, groups in the order of their first finding.
fn by_key(found: Vec<Repeatable>) -> Vec<Vec<Repeatable>> {
    let mut groups: Vec<Vec<Repeatable>> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = Default::default();
    for r in found {
        match index.get(&r.key) {
            Some(&i) => groups[i].push(r),
            None => {
                index.insert(r.key.clone(), groups.len());
                groups.push(vec![r]);
            }
        }
    }
    groups
}

/// One warning per unknown name of the subagents' `tools:` (`found` in path order, one finding
/// per name and file): at the first file's entry, its message saying how many other files name
/// it, each of their entries a related location. Those files get no diagnostic of their own for
/// the name: a collection that copies Claude Code's names into every file hears of each once.
fn one_warning_per_name(found: Vec<Repeatable>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for group in by_key(found) {
        let mut group = group.into_iter();
        let Some(first) = group.next() else { continue };
        let others: Vec<Repeatable> = group.collect();
        let mut lead = first.diagnostic;
        match others.len() {
            0 => {}
            1 => lead.message += "; 1 other subagent file names it too",
            n => lead.message += &format!("; {n} other subagent files name it too"),
        }
        for other in others {
            lead = lead.with_related(Related {
                path: other.diagnostic.path,
                range: other.diagnostic.range,
                message: format!("`{}` named here too", first.key),
            });
        }
        out.push(lead);
    }
    out
}

/// A subagent file's place for messages about another file: `` `subagents/x.md` `` in the
/// shared workspace, with its tree named otherwise.
fn place(subagent: &SubagentDoc) -> String {
    match subagent.location.tree {
        Tree::Shared => format!("`{}`", subagent.location.rel),
        ref tree => format!("`{}` in {}", subagent.location.rel, tree.label()),
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use crate::config::Config;
    use crate::workspace::Workspace;

    const SUBAGENT: &str = "---\ndescription: d\nskills: [shared-skill, alice-skill, nope, gone]\nworkspace:\n  path: subagents/r-home\n---\n";

    #[test]
    fn skills_named_by_subagents_must_exist() {
        let config = Config::defaults_for(Path::new("/p"));
        let ws = Workspace::from_texts(
            config,
            [
                (
                    "/p/.agentscope/workspace/skills/a/SKILL.md",
                    "---\nname: shared-skill\ndescription: d\n---\nbody\n",
                ),
                (
                    "/p/.agentscope/workspace/alice/skills/b/SKILL.md",
                    "---\nname: alice-skill\ndescription: d\n---\nbody\n",
                ),
                ("/p/.agentscope/workspace/subagents/r.md", SUBAGENT),
            ],
        );
        // The subagent's own diagnostics (alice's skill in folder `b` also gets SK016 there).
        let found: Vec<_> = super::check(&ws)
            .into_iter()
            .filter(|d| d.path.ends_with("subagents/r.md"))
            .map(|d| (d.code, &SUBAGENT[d.range.start..d.range.end], d.message))
            .collect();
        // One diagnostic per `skills:` line and finding, naming every skill it concerns, from
        // the first of them to the last.
        assert_eq!(
            found,
            vec![
                (
                    "XR011",
                    "alice-skill",
                    "the skill `alice-skill` (`alice`) exists only in per-user folders".to_string()
                ),
                (
                    "XR004",
                    "nope, gone",
                    "no skills are named `nope`, `gone`".to_string()
                ),
                (
                    "XR008",
                    "subagents/r-home",
                    "`workspace.path` `subagents/r-home` is inside a `subagents/` folder"
                        .to_string()
                ),
                (
                    "XR009",
                    "subagents/r-home",
                    format!(
                        "`workspace.path` folder `{}` does not exist",
                        PathBuf::from("/p/.agentscope/workspace/subagents/r-home").display()
                    )
                ),
            ]
        );
    }

    #[test]
    fn unresolvable_models_unless_listed_in_agentws_toml() {
        let spec = |model: &str| format!("---\ndescription: d\nmodel: {model}\n---\n");
        let mut config = Config::defaults_for(Path::new("/p"));
        let files = [
            ("/p/.agentscope/workspace/subagents/a.md", spec("sonnet")),
            ("/p/.agentscope/workspace/subagents/b.md", spec("qwen3-max")),
            (
                "/p/.agentscope/workspace/subagents/c.md",
                spec("openai:gpt-4o-mini"),
            ),
            (
                "/p/.agentscope/workspace/subagents/d.md",
                spec("corp-large"),
            ),
            // Claude Code's `inherit`: the parent's model, which is what the runtime gives.
            ("/p/.agentscope/workspace/subagents/e.md", spec("inherit")),
        ];
        let ws = Workspace::from_texts(config.clone(), files.clone());
        let found: Vec<_> = super::check(&ws)
            .into_iter()
            .map(|d| {
                (
                    d.code,
                    d.path.file_name().unwrap().to_string_lossy().into_owned(),
                    d.range.start,
                    d.message,
                )
            })
            .collect();
        assert_eq!(
            found,
            vec![
                (
                    "SA025",
                    "a.md".to_string(),
                    26,
                    "no model provider shipped with AgentScope supports `sonnet`, and agentws.toml's `[agent] models` does not list it: at spawn the runtime silently runs this subagent on the parent's model (no log line says so); Anthropic models are written `anthropic:<model name>`".to_string()
                ),
                (
                    "SA025",
                    "d.md".to_string(),
                    26,
                    "no model provider shipped with AgentScope supports `corp-large`, and agentws.toml's `[agent] models` does not list it: at spawn the runtime silently runs this subagent on the parent's model (no log line says so)".to_string()
                ),
            ]
        );
        // The first file in path order carries the warning, whichever tree it is in; the
        // others name it with its tree.
        let ws = Workspace::from_texts(
            Config::defaults_for(Path::new("/p")),
            [
                ("/p/.agentscope/workspace/subagents/b.md", spec("sonnet")),
                (
                    "/p/.agentscope/workspace/alice/subagents/a.md",
                    spec("sonnet"),
                ),
            ],
        );
        let found: Vec<_> = super::check(&ws)
            .into_iter()
            .map(|d| {
                (
                    d.severity,
                    d.path.to_string_lossy().into_owned(),
                    d.message.split(": at spawn").next().unwrap().to_string(),
                    d.related.iter().map(|r| r.path.clone()).collect::<Vec<_>>(),
                )
            })
            .collect();
        assert_eq!(
            found,
            vec![
                (
                    crate::base::Severity::Info,
                    "/p/.agentscope/workspace/subagents/b.md".to_string(),
                    "same as in `subagents/a.md` in the per-user folder `alice`: no model provider shipped with AgentScope supports `sonnet`, and agentws.toml's `[agent] models` does not list it".to_string(),
                    vec![PathBuf::from("/p/.agentscope/workspace/alice/subagents/a.md")],
                ),
                (
                    crate::base::Severity::Warning,
                    "/p/.agentscope/workspace/alice/subagents/a.md".to_string(),
                    "no model provider shipped with AgentScope supports `sonnet`, and agentws.toml's `[agent] models` does not list it".to_string(),
                    vec![],
                ),
            ]
        );
        config.agent.models = vec!["sonnet".into(), "corp-*".into()];
        let ws = Workspace::from_texts(config, files);
        assert_eq!(super::check(&ws), vec![]);
    }
}

#[cfg(test)]
mod tool_tests {
    use std::path::Path;

    use crate::config::Config;
    use crate::workspace::Workspace;

    const TOOLS: &str = r#"{
  "allow": ["read_file", "get_issue"],
  "deny": ["execute"],
  "mcpServers": {
    "tracker": {"transport": "stdio", "command": "tracker-mcp", "enableTools": ["get_issue", "close_issue"]}
  }
}"#;
    const TRIAGE: &str = "---\ndescription: triage\ntools: [read_file, get_issue, close_issue, nope, plan_write, execute]\n---\n";
    const WRITER: &str =
        "---\ndescription: writes\nworkspace:\n  mode: shared\ntools: [execute, web_fetch]\n---\n";
    const LOST: &str = "---\ndescription: lost\ntools: nope, nada\n---\n";
    const AGENTS: &str = "Use `get_issue`, then `close_issue(id)` when done.\n";

    #[test]
    fn the_tool_lists_against_the_catalog() {
        let ws = Workspace::from_texts(
            Config::defaults_for(Path::new("/p")),
            [
                ("/p/.agentscope/workspace/tools.json", TOOLS),
                ("/p/.agentscope/workspace/subagents/triage.md", TRIAGE),
                ("/p/.agentscope/workspace/subagents/writer.md", WRITER),
                ("/p/.agentscope/workspace/subagents/lost.md", LOST),
                ("/p/.agentscope/workspace/AGENTS.md", AGENTS),
            ],
        );
        let found: Vec<(&str, String, String, String)> = super::check(&ws)
            .into_iter()
            .map(|d| {
                let text = ws.files.text(&d.path).unwrap();
                (
                    d.code,
                    text[d.range.start..d.range.end].to_string(),
                    d.message,
                    d.consequence,
                )
            })
            .collect();
        let line = "[read_file, get_issue, close_issue, nope, plan_write, execute]".to_string();
        assert_eq!(
            found,
            vec![
                (
                    "XR002",
                    "close_issue".to_string(),
                    "tools.json removes `close_issue` (not in `allow`) from the parent's toolkit, so the child cannot inherit it".to_string(),
                    super::subagent_tool_removed::RULE.consequence.to_string(),
                ),
                (
                    "XR015",
                    "execute".to_string(),
                    "tools.json removes `execute` from the main agent only: this subagent is isolated (the default when its spec does not set `workspace.mode: shared`): it registers the harness built-ins again and still has it, whatever `tools:` says".to_string(),
                    super::subagent_tool_removed_builtin::RULE.consequence.to_string(),
                ),
                (
                    "XR015",
                    "execute, web_fetch".to_string(),
                    "tools.json removes `execute`, `web_fetch`, and this subagent reads the same tools.json: it does not get them, whatever `tools:` says".to_string(),
                    super::subagent_tool_removed_builtin::RULE.consequence.to_string(),
                ),
                // One warning per unknown name, at the first file in path order naming it
                // (`lost.md`), the other files' entries its related locations.
                (
                    "XR001",
                    "nope".to_string(),
                    "`tools:` names `nope`, which the agent does not register (a tool registered in Java code is invisible to agentws); 1 other subagent file names it too".to_string(),
                    super::subagent_tool_unknown::RULE.consequence.to_string(),
                ),
                (
                    "XR001",
                    "nada".to_string(),
                    "`tools:` names `nada`, which the agent does not register (a tool registered in Java code is invisible to agentws)".to_string(),
                    super::subagent_tool_unknown::RULE.consequence.to_string(),
                ),
                (
                    "XR001",
                    "plan_write".to_string(),
                    "`tools:` names `plan_write` (needs `features.plan_mode = true`), which the agent does not register (a tool registered in Java code is invisible to agentws)".to_string(),
                    super::subagent_tool_unknown::RULE.consequence.to_string(),
                ),
                // Said once for the workspace, at the first list naming built-ins.
                (
                    "XR003",
                    line,
                    "`read_file` is a harness built-in: `tools:` only chooses among the parent's own tools, and every child has the built-ins anyway".to_string(),
                    super::subagent_tool_builtin::RULE.consequence.to_string(),
                ),
                (
                    "XR010",
                    "close_issue".to_string(),
                    "mentions `close_issue`, which tools.json leaves out of `allow`".to_string(),
                    super::removed_tool_mentioned::RULE.consequence.to_string(),
                ),
            ]
        );
    }
}

#[cfg(test)]
mod duplicate_tests {
    use std::path::Path;

    use crate::config::Config;
    use crate::workspace::Workspace;

    fn skill(name: &str) -> String {
        format!("---\nname: {name}\ndescription: d\n---\nBody\n")
    }

    #[test]
    fn duplicates_say_who_wins_for_whom() {
        let mut config = Config::defaults_for(Path::new("/p"));
        config.agent.name = Some("assistant".into());
        let ws = Workspace::from_texts(
            config,
            [
                ("/p/.agentscope/workspace/skills/a/SKILL.md", skill("x")),
                ("/p/skills/p/SKILL.md", skill("x")),
                (
                    "/p/.agentscope/workspace/alice/skills/x/SKILL.md",
                    skill("x"),
                ),
                (
                    "/p/.agentscope/workspace/subagents/r.md",
                    "---\ndescription: d\n---\n".to_string(),
                ),
                (
                    "/p/.agentscope/workspace/alice/subagents/deep/r.md",
                    "---\ndescription: d\n---\n".to_string(),
                ),
            ],
        );
        let mut found: Vec<(String, &str, String)> = super::check_references(
            &ws,
            &crate::workspace::catalog::ToolCatalog::for_workspace(&ws),
        )
        .into_iter()
        .map(|d| (d.path.to_string_lossy().into_owned(), d.code, d.message))
        .collect();
        found.sort();
        // Callers without a folder get the project copy (Layer 4 lower beats Layer 3); alice's
        // own copy sits on top of that, and her nested `r.md` replaces the shared one.
        assert_eq!(
            found,
            vec![
                // Alice's copy is served by the namespaced repository, which advertises
                // `<ws>/skills/x` whatever the namespace.
                (
                    "/p/.agentscope/workspace/alice/skills/x/SKILL.md".to_string(),
                    "SK027",
                    "for user `alice` the runtime reads this skill from the per-user folder `alice`, but the prompt tells the model its files are in `/p/.agentscope/workspace/skills/x` (its `<files-root>`, built from the name without the per-user or project folder), a folder that does not exist".to_string()
                ),
                (
                    "/p/.agentscope/workspace/alice/skills/x/SKILL.md".to_string(),
                    "XR006",
                    "skill `x` overrides the one in the project folder (`skills/p/SKILL.md`) for `alice`".to_string()
                ),
                (
                    "/p/.agentscope/workspace/skills/a/SKILL.md".to_string(),
                    "XR005",
                    "skill `x` is also defined in the project folder (`skills/p/SKILL.md`), which wins for every caller without a per-user copy".to_string()
                ),
                (
                    "/p/.agentscope/workspace/subagents/r.md".to_string(),
                    "XR007",
                    "agent id `r` is also given by the per-user folder `alice` (`subagents/deep/r.md`), which wins for `alice` (dynamic mode)".to_string()
                ),
                // The project copy is served by the namespaced repository (Layer 4 lower), whose
                // files-root is built from the name.
                (
                    "/p/skills/p/SKILL.md".to_string(),
                    "SK016",
                    "the skill is named `x` but its folder is `p`; for any user (scope `user`) the prompt tells the model its files are in `/p/.agentscope/workspace/skills/x` (its `<files-root>`, built from the name), a folder that does not exist".to_string()
                ),
            ]
        );
    }
}
