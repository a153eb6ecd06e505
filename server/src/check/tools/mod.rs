//! tools.json rules that depend on the configuration or the tool catalog (`TJ020`–`TJ030`,
//! `TJ033`):
//! allow/deny naming unknown tools, a tool both allowed and denied, `load_skill_through_path`
//! denied or left out of `allow`, platform tools denied, an `allow` that drops needed built-ins,
//! tools.json ignored in sandbox mode or with the feature off, a project tools.json shadowed by
//! the workspace one, removals that isolated subagents do not see (they register the built-ins
//! again), prompt sections that still name removed tools, and an `allow` that removes every tool
//! of an MCP server. The per-file rules are found while
//! parsing (`workspace::tools`). Beside them, two rules of other families about the tools a run
//! gets: `CF015` (the shell tool without isolation) and `SK025` (skills set `allowed-tools`, which
//! the harness does not enforce; said once per workspace, the engine decides where).
//!
//! One file per rule, declaration beside detection ([`RULES`]); the list rules (TJ020–TJ025) read
//! each `allow` and `deny` entry with what the catalog says of it (`ListEntry`).
//!
//! Pure over the snapshot; asks `workspace::catalog` about every name.

use std::sync::Arc;

use crate::base::{Diagnostic, TextRange};
use crate::check::loading;
use crate::config::FilesystemMode;
use crate::rules::declare_family;
use crate::workspace::catalog::{Removal, ToolCatalog, ToolInfo};
use crate::workspace::skill::SkillDoc;
use crate::workspace::subagent::{AgentMode, SubagentDoc, WorkspaceMode};
use crate::workspace::tools::ToolsDoc;
use crate::workspace::{Tree, Workspace};

// The others of the family are found while parsing, beside the parser (`workspace::tools`);
// SK025 reads the same `allowed-tools` question of every skill.
declare_family! {
    mod tools_unknown_tool;                   // TJ020
    mod tools_maybe_unknown_tool;             // TJ021
    mod tools_allowed_and_denied;             // TJ022
    mod tools_load_skill_not_removable;       // TJ023
    mod tools_platform_tool_denied;           // TJ024
    mod tools_allow_removes_builtins;         // TJ025
    mod tools_ignored_in_sandbox;             // TJ026
    mod tools_config_disabled;                // TJ027
    mod tools_project_shadowed;               // TJ028
    mod tools_removal_not_inherited;          // TJ029
    mod tools_prompt_promises_removed;        // TJ030
    mod tools_allow_removes_mcp_server;       // TJ033
    pub mod skill_allowed_tools_not_enforced; // SK025
    mod config_shell_not_isolated;            // CF015
}

pub fn check(workspace: &Workspace) -> Vec<Diagnostic> {
    let code_execution = || code_execution_contexts(workspace, &loading::Contexts::new(workspace));
    check_in(
        workspace,
        &ToolCatalog::for_workspace(workspace),
        &code_execution,
    )
}

/// [`check`] with the one fact its rules read of the skills' resolution given: where the
/// code-execution section is rendered ([`code_execution_contexts`], asked only when tools.json
/// removes one of that section's tools). The engine computes it apart, over the skills with
/// files, so that a tools.json edit resolves no session context.
pub fn check_in(
    workspace: &Workspace,
    catalog: &ToolCatalog,
    code_execution: &dyn Fn() -> Option<String>,
) -> Vec<Diagnostic> {
    let mut out = check_apart_from_promises(workspace, catalog);
    out.extend(prompt_promises(workspace, catalog, code_execution));
    out
}

/// [`check_in`] but TJ030, which reads the skills' resolution: the engine runs the two apart,
/// so that a change of the code-execution detail (a rename of one of the skills it names) does
/// not run the others again (TJ029 walks every subagent).
pub fn check_apart_from_promises(workspace: &Workspace, catalog: &ToolCatalog) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = config_shell_not_isolated::check(workspace, catalog)
        .into_iter()
        .collect();
    let Some(effective) = workspace.effective_tools() else {
        return out;
    };
    for doc in &workspace.tools {
        out.extend(tools_config_disabled::check(workspace, doc));
        out.extend(tools_ignored_in_sandbox::check(workspace, doc));
        out.extend(tools_project_shadowed::check(workspace, doc));
    }
    if catalog.tools_json_applies() {
        out.extend(check_lists(effective, catalog));
        out.extend(tools_allow_removes_mcp_server::check(effective, catalog));
        out.extend(tools_removal_not_inherited::check(
            workspace, effective, catalog,
        ));
    }
    out
}

/// TJ030, the last of [`check_in`]'s rules: prompt sections that still name removed tools.
pub fn prompt_promises(
    workspace: &Workspace,
    catalog: &ToolCatalog,
    code_execution: &dyn Fn() -> Option<String>,
) -> Vec<Diagnostic> {
    match workspace.effective_tools() {
        Some(effective) if catalog.tools_json_applies() => {
            tools_prompt_promises_removed::check(workspace, effective, catalog, code_execution)
        }
        _ => Vec::new(),
    }
}

/// Why the runtime never reads `doc`, or `None` when it may: the feature is off, the
/// filesystem is a sandbox (TJ027, TJ026), or the workspace's own tools.json shadows this one in
/// the project folder (TJ028). Messages about such a file must not claim it has an effect.
pub fn never_read(workspace: &Workspace, doc: &ToolsDoc) -> Option<&'static str> {
    if !workspace.config.features.tools_config {
        return Some("`features.tools_config` is off");
    }
    if workspace.config.filesystem.mode == FilesystemMode::Sandbox {
        return Some("the filesystem mode is `sandbox`");
    }
    shadowed_by(workspace, doc).map(|_| "the workspace has its own tools.json")
}

/// The workspace's own tools.json when `doc` is the project folder's, which it shadows (TJ028).
pub(super) fn shadowed_by<'w>(workspace: &'w Workspace, doc: &ToolsDoc) -> Option<&'w ToolsDoc> {
    let tree_of = |t: &ToolsDoc| workspace.location_of(&t.path).map(|l| l.tree.clone());
    if tree_of(doc) != Some(Tree::Project) {
        return None;
    }
    workspace
        .tools
        .iter()
        .find(|t| tree_of(t) == Some(Tree::Shared))
        .map(|t| &**t)
}

/// The MCP server of a tools.json the runtime never reads that lists `name` in its
/// `enableTools`, with why the file is not read: what a message about an unknown tool says
/// instead of blaming that file.
pub fn declared_in_unread<'w>(
    workspace: &'w Workspace,
    name: &str,
) -> Option<(&'w str, &'static str)> {
    workspace.tools.iter().find_map(|doc| {
        let why = never_read(workspace, doc)?;
        doc.servers
            .iter()
            .find(|s| s.enable_tools.iter().any(|t| t.value == name))
            .map(|s| (s.name.value.as_str(), why))
    })
}

/// True when the runtime builds `subagent` as an agent of its own that registers the harness
/// built-ins again without the main agent's tools.json: an isolated child reads the tools.json of
/// its own workspace, falling back to the project folder's, never `<ws>/tools.json`.
pub fn child_skips_tools_json(workspace: &Workspace, subagent: &SubagentDoc) -> bool {
    skips_tools_json(subagent, tools_json_in_project_folder(workspace))
}

/// Whether the tools.json the runtime reads is the project folder's, which an isolated child
/// falls back to as well.
pub(super) fn tools_json_in_project_folder(workspace: &Workspace) -> bool {
    workspace.effective_tools().is_some_and(|t| {
        workspace
            .location_of(&t.path)
            .is_some_and(|l| l.tree == Tree::Project)
    })
}

/// [`child_skips_tools_json`] with where the tools.json is read from looked up once, for a
/// caller that asks about every subagent.
fn skips_tools_json(subagent: &SubagentDoc, read_from_project: bool) -> bool {
    subagent.workspace_mode == WorkspaceMode::Isolated && !read_from_project
}

/// Whether the main agent spawns `subagent` (valid, not `mode: primary`) and it registers the
/// harness built-ins again ([`skips_tools_json`]): the one thing the tools.json rules read of a
/// subagent (TJ029). With `read_from_project` false, every subagent that may: the engine gives
/// those rules only these, so that editing any other subagent does not run them again.
pub fn registers_builtins_again(subagent: &SubagentDoc, read_from_project: bool) -> bool {
    subagent.outcome.is_ok()
        && subagent.mode != AgentMode::Primary
        && skips_tools_json(subagent, read_from_project)
}

/// Where tools.json removes `name`: the key of the list that does (`deny`, else `allow`). What
/// one list causes is reported at its key, as one diagnostic (`Diagnostic::part`).
pub(super) fn removal_anchor(doc: &ToolsDoc, catalog: &ToolCatalog, name: &str) -> TextRange {
    let key = match catalog.lookup(name).removal {
        Some(Removal::Denied(_)) => doc.deny_key,
        _ => doc.allow_key,
    };
    key.unwrap_or(TextRange::empty(0))
}

pub(super) fn backticked(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// At most `shown` of `labels`, then how many more.
pub(crate) fn some_labels(labels: &[String], shown: usize) -> String {
    let listed = labels[..labels.len().min(shown)].join(", ");
    and_more(listed, labels.len().saturating_sub(shown))
}

/// `listed`, then how many `more` there are, if any.
fn and_more(listed: String, more: usize) -> String {
    match more {
        0 => listed,
        more => format!("{listed} and {more} more"),
    }
}

/// Where the code-execution section is rendered, over the checked contexts: `None` when in none;
/// else the message's detail, naming the loaded skills that hold files besides SKILL.md (the
/// scripts the section is about) and, when only some contexts render it, which. Reads of the
/// skills only those whose folders hold files (and what decides whether they load), and whether
/// each context loads any skill (`Contexts::loads_a_skill`).
pub fn code_execution_contexts(
    workspace: &Workspace,
    contexts: &loading::Contexts,
) -> Option<String> {
    let resource_folders = crate::workspace::snapshot::resource_folders(&workspace.kinds);
    // Hashing every skill's folder showed on a workspace with no resources at all.
    if resource_folders.is_empty() {
        return code_execution_contexts_given(workspace, contexts, &|_| false);
    }
    code_execution_contexts_given(workspace, contexts, &|skill| {
        resource_folders.has_files(skill)
    })
}

/// [`code_execution_contexts`], told which skills' folders hold files besides SKILL.md (by the
/// SKILL.md's path).
fn code_execution_contexts_given(
    workspace: &Workspace,
    contexts: &loading::Contexts,
    has_files: &dyn Fn(&std::path::Path) -> bool,
) -> Option<String> {
    // Skill files whose folder holds more than SKILL.md, looked at once each: the contexts list
    // the same files again and again (a hundred per-user contexts over ten thousand skills).
    // Each is given the number of its name, so that the walk of every context below looks a
    // pointer up and reads a flag, rather than hashing a name per skill per context (that walk
    // is as long as the contexts times the skills, and SipHash of the names was most of it).
    let mut names: Vec<&str> = Vec::new();
    let mut numbers: foldhash::HashMap<&str, usize> = Default::default();
    let docs_with_files: foldhash::HashMap<*const SkillDoc, usize> = workspace
        .skills
        .iter()
        .filter(|doc| has_files(&doc.path))
        .map(|doc| {
            // A merged skill's name is its document's (`MergedSkill::name`).
            let name = doc.name.as_deref().unwrap_or_default();
            let number = *numbers.entry(name).or_insert_with(|| {
                names.push(name);
                names.len() - 1
            });
            (Arc::as_ptr(doc), number)
        })
        .collect();
    // In the order first met (the message names the first few), and as a set by name number.
    let mut with_files: Vec<&str> = Vec::new();
    let mut seen: Vec<bool> = vec![false; names.len()];
    for (index, (_, resolution)) in contexts.list.iter().enumerate() {
        if docs_with_files.is_empty() || !contexts.renders_code_execution(index) {
            continue;
        }
        for skill in resolution.skills() {
            // A skill seen twice (a linked folder, or in several contexts) is one skill.
            if let Some(&number) = docs_with_files.get(&Arc::as_ptr(&skill.doc)) {
                if !std::mem::replace(&mut seen[number], true) {
                    with_files.push(names[number]);
                }
            }
        }
    }
    let first = &with_files[..with_files.len().min(SKILLS_WITH_FILES_SHOWN)];
    code_execution_message(workspace, contexts, with_files.len(), first)
}

/// How many loaded skills with files the code-execution message names; the others it counts.
pub const SKILLS_WITH_FILES_SHOWN: usize = 3;

/// The detail of the code-execution message ([`code_execution_contexts`]), given how many
/// distinct names of skills with files the contexts that render the section load, and the first
/// [`SKILLS_WITH_FILES_SHOWN`] of them in the order first met (contexts in order, each one's
/// skills in order): `None` when no context renders the section. The engine gathers those
/// names per name group.
pub fn code_execution_message(
    workspace: &Workspace,
    contexts: &loading::Contexts,
    with_files: usize,
    first: &[&str],
) -> Option<String> {
    let mut shown: Vec<String> = Vec::new();
    let mut not_shown: Vec<String> = Vec::new();
    for (index, (who, _)) in contexts.list.iter().enumerate() {
        let label = loading::who_label(workspace, who);
        if contexts.renders_code_execution(index) {
            shown.push(label);
        } else {
            not_shown.push(label);
        }
    }
    if shown.is_empty() {
        return None;
    }
    let named = || and_more(backticked(first), with_files.saturating_sub(first.len()));
    let files = match with_files {
        0 => " (no loaded skill has files besides SKILL.md, but the section comes with any skill the prompt gives a folder for its files, `<files-root>`)".to_string(),
        1 => format!(" (1 skill has files: {})", named()),
        n => format!(" ({n} skills have files: {})", named()),
    };
    let which = if not_shown.is_empty() {
        String::new()
    } else {
        format!(
            "; the section is rendered only for {}, not for {}",
            shown.join(", "),
            not_shown.join(", ")
        )
    };
    Some(files + &which)
}

/// allow/deny against the catalog, for the tools.json the runtime reads.
pub fn check_lists(doc: &ToolsDoc, catalog: &ToolCatalog) -> Vec<Diagnostic> {
    let entries: Vec<ListEntry> = [("allow", &doc.allow), ("deny", &doc.deny)]
        .into_iter()
        .flat_map(|(list, entries)| {
            entries.iter().map(move |entry| ListEntry {
                list,
                name: entry.value.as_str(),
                range: entry.range,
                info: catalog.lookup(&entry.value),
            })
        })
        .collect();
    let path = &doc.path;
    let mut out = Vec::new();
    tools_unknown_tool::check(path, &entries, catalog, &mut out);
    tools_maybe_unknown_tool::check(path, &entries, &mut out);
    tools_allowed_and_denied::check(path, &entries, &mut out);
    tools_load_skill_not_removable::check(path, &entries, &mut out);
    tools_platform_tool_denied::check(path, &entries, &mut out);
    tools_allow_removes_builtins::check(doc, catalog, &mut out);
    out
}

/// One entry of tools.json's `allow` or `deny`, with what the catalog says of its name: what the
/// list rules (TJ020–TJ024) read.
struct ListEntry<'a> {
    /// `allow` or `deny`.
    list: &'static str,
    name: &'a str,
    range: TextRange,
    /// The rules about allowing and denying a tool apply only when the runtime registers it
    /// (`ToolInfo::is_registered`); TJ020 and TJ021 say why the others are not.
    info: ToolInfo,
}

/// Servers named in one message at most: a message per allow/deny entry that listed thousands of
/// servers would make the report quadratic in the size of tools.json.
const LISTED_SERVERS: usize = 8;

pub(super) fn quoted_list(names: &[String]) -> String {
    let mut quoted: Vec<String> = names
        .iter()
        .take(LISTED_SERVERS)
        .map(|n| format!("`{n}`"))
        .collect();
    if names.len() > LISTED_SERVERS {
        quoted.push(format!("{} more", names.len() - LISTED_SERVERS));
    }
    match names.len() {
        1 => format!("MCP server {}", quoted[0]),
        _ => format!("MCP servers {}", quoted.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use std::path::{Path, PathBuf};

    const SHARED: &str = "/p/.agentscope/workspace/tools.json";

    fn workspace(config: Config, files: &[(&str, &str)]) -> Workspace {
        Workspace::from_texts(config, files.iter().copied())
    }

    fn found<'t>(text: &'t str, diagnostics: &[Diagnostic]) -> Vec<(&'static str, &'t str)> {
        let mut out: Vec<_> = diagnostics
            .iter()
            .map(|d| (d.code, &text[d.range.start..d.range.end]))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn scaffold_style_gets_warnings_only() {
        let text = r#"{
  "// description": "Default tool policy",
  "allow": ["read_file", "grep_files", "glob_files", "list_files"],
  "deny": ["execute", "write_file", "edit_file"]
}"#;
        let ws = workspace(Config::defaults_for(Path::new("/p")), &[(SHARED, text)]);
        let diagnostics = check(&ws);
        assert_eq!(
            found(text, &diagnostics),
            vec![
                ("TJ025", "\"allow\""),
                ("TJ030", "\"allow\""),
                ("TJ030", "\"allow\"")
            ]
        );
        let promises: Vec<&str> = diagnostics
            .iter()
            .filter(|d| d.code == "TJ030")
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            promises,
            vec![
                "tools.json removes `memory_search`, `memory_get`, but the prompt's `## Memory Recall` section still tells the model to search and read memory with `memory_search`, `memory_get`",
                "tools.json removes `memory_save`, but the prompt's `## Memory Persistence` section still tells the model to save memories with `memory_save`",
            ]
        );
        let removed = diagnostics.iter().find(|d| d.code == "TJ025").unwrap();
        assert!(removed.message.contains("memory tools `memory_search`"));
        // write_file/edit_file are denied on purpose: not reported as dropped by allow.
        assert!(!removed.message.contains("file tools"));
        assert!(diagnostics
            .iter()
            .all(|d| d.severity != crate::base::Severity::Error));
    }

    #[test]
    fn lists_against_the_catalog() {
        let text = r#"{
  "allow": ["read_file", "reed_file", "execute", "memory_search", "memory_get", "memory_save", "session_search", "session_list", "session_history", "write_file", "edit_file", "grep_files", "glob_files", "list_files", "skill_manage", "mystery"],
  "deny": ["load_skill_through_path", "agent_spawn", "execute", "plan_enter"],
  "mcpServers": {"open": {"transport": "sse", "url": "http://x"}}
}"#;
        let mut config = Config::defaults_for(Path::new("/p"));
        config.features.plan_mode = false;
        let ws = workspace(config, &[(SHARED, text)]);
        let diagnostics = check(&ws);
        assert_eq!(
            found(text, &diagnostics),
            vec![
                ("TJ020", "\"plan_enter\""),
                ("TJ020", "\"skill_manage\""),
                ("TJ021", "\"mystery\""),
                ("TJ021", "\"reed_file\""),
                ("TJ022", "\"execute\""),
                ("TJ023", "\"load_skill_through_path\""),
                ("TJ024", "\"agent_spawn\""),
                // Denied, it leaves the `## Subagents` section naming a tool the model lacks: at
                // the `deny` key, where what the list causes is said once.
                ("TJ030", "\"deny\""),
            ]
        );
        // Without an open MCP server the unknown names are warnings with a suggestion.
        let closed = text.replace(r#""open": {"transport": "sse", "url": "http://x"}"#, "");
        let ws = workspace(Config::defaults_for(Path::new("/p")), &[(SHARED, &closed)]);
        let diagnostics = check(&ws);
        let reed = diagnostics
            .iter()
            .find(|d| d.message.contains("reed_file"))
            .unwrap();
        assert_eq!(reed.code, "TJ020");
        assert!(reed.message.contains("did you mean `read_file`"));
    }

    #[test]
    fn file_level_conditions() {
        let text = r#"{"deny": ["nothing_known"]}"#;
        let mut config = Config::defaults_for(Path::new("/p"));
        config.filesystem.mode = FilesystemMode::Sandbox;
        let ws = workspace(config.clone(), &[(SHARED, text)]);
        assert_eq!(found(text, &check(&ws)), vec![("TJ026", "")]);
        config.filesystem.mode = FilesystemMode::Local;
        config.features.tools_config = false;
        let ws = workspace(config, &[(SHARED, text)]);
        assert_eq!(found(text, &check(&ws)), vec![("TJ027", "")]);

        let ws = workspace(
            Config::defaults_for(Path::new("/p")),
            &[(SHARED, "{}"), ("/p/tools.json", r#"{"deny": ["x"]}"#)],
        );
        let diagnostics = check(&ws);
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].code, "TJ028");
        assert_eq!(diagnostics[0].path, PathBuf::from("/p/tools.json"));
    }

    #[test]
    fn isolated_subagents_keep_removed_builtins_and_the_prompt_still_promises_them() {
        let text = r#"{"deny": ["execute", "write_file"]}"#;
        let spec = |extra: &str| format!("---\ndescription: d\n{extra}---\n");
        let files = [
            (SHARED, text.to_string()),
            ("/p/.agentscope/workspace/subagents/a.md", spec("")),
            (
                "/p/.agentscope/workspace/subagents/b.md",
                spec("workspace:\n  mode: shared\n"),
            ),
            (
                "/p/.agentscope/workspace/subagents/c.md",
                spec("mode: primary\n"),
            ),
            (
                "/p/.agentscope/workspace/subagents/d.md",
                spec("hidden: true\n"),
            ),
            // Spawned in alice's calls only: said to be per-user.
            ("/p/.agentscope/workspace/alice/subagents/e.md", spec("")),
            (
                "/p/.agentscope/workspace/skills/x/SKILL.md",
                "---\nname: x\ndescription: d\n---\nRun scripts/run.py\n".to_string(),
            ),
            (
                "/p/.agentscope/workspace/skills/x/scripts/run.py",
                "print(1)\n".to_string(),
            ),
        ];
        let ws = workspace(
            Config::defaults_for(Path::new("/p")),
            &files.each_ref().map(|(p, t)| (*p, t.as_str())),
        );
        let diagnostics = check(&ws);
        let found: Vec<(&str, &str, &str)> = diagnostics
            .iter()
            .map(|d| {
                (
                    d.code,
                    &text[d.range.start..d.range.end],
                    d.message.as_str(),
                )
            })
            .collect();
        assert_eq!(
            found,
            vec![
                ("TJ029", "\"deny\"", "`execute`, `write_file` are denied for the main agent only: the subagents `a`, `d`, `e` (per-user folder `alice`) are isolated (the default when a spec does not set `workspace.mode: shared`): they register the harness built-ins again and still have them"),
                ("TJ030", "\"deny\"", "tools.json removes `execute`, but the prompt's `## Code Execution` section still tells the model to run skill scripts with the shell tool `execute` (1 skill has files: `x`)"),
            ]
        );
        // Each subagent that keeps them is a related location (the file). Both diagnostics at
        // the `deny` key are parts of one.
        let related: Vec<(String, TextRange, &str)> = diagnostics[0]
            .related
            .iter()
            .map(|r| (r.path.display().to_string(), r.range, r.message.as_str()))
            .collect();
        assert_eq!(
            related,
            vec![
                (
                    "/p/.agentscope/workspace/subagents/a.md".into(),
                    TextRange::empty(0),
                    "`a` works in a workspace of its own and keeps the built-in tools"
                ),
                (
                    "/p/.agentscope/workspace/subagents/d.md".into(),
                    TextRange::empty(0),
                    "`d` works in a workspace of its own and keeps the built-in tools"
                ),
                (
                    "/p/.agentscope/workspace/alice/subagents/e.md".into(),
                    TextRange::empty(0),
                    "`e` works in a workspace of its own and keeps the built-in tools"
                ),
            ]
        );
        let merged = crate::base::diagnostic::merge_parts(diagnostics.clone());
        assert_eq!(merged.len(), 1);
        assert_eq!(
            merged[0].message,
            "`execute`, `write_file` are denied for the main agent only: the subagents `a`, `d`, `e` (per-user folder `alice`) are isolated (the default when a spec does not set `workspace.mode: shared`): they register the harness built-ins again and still have them; the prompt's `## Code Execution` section still tells the model to run skill scripts with the shell tool `execute` (1 skill has files: `x`)"
        );

        // Subagents off, or tools.json in the project folder (which an isolated child reads
        // too): nothing to say about subagents.
        let mut config = Config::defaults_for(Path::new("/p"));
        config.features.subagents = false;
        let ws = workspace(config, &files.each_ref().map(|(p, t)| (*p, t.as_str())));
        assert!(check(&ws).iter().all(|d| d.code != "TJ029"));
        let mut moved = files.clone();
        moved[0].0 = "/p/tools.json";
        let ws = workspace(
            Config::defaults_for(Path::new("/p")),
            &moved.each_ref().map(|(p, t)| (*p, t.as_str())),
        );
        assert!(check(&ws).iter().all(|d| d.code != "TJ029"));

        // Left out of `allow`: one diagnostic at the key, naming the tools.
        let allow = r#"{"allow": ["read_file", "grep_files", "glob_files", "list_files", "write_file", "edit_file", "execute", "web_fetch", "memory_search", "memory_get", "memory_save", "session_search", "session_list"]}"#;
        let mut with_allow = files.clone();
        with_allow[0].1 = allow.to_string();
        let ws = workspace(
            Config::defaults_for(Path::new("/p")),
            &with_allow.each_ref().map(|(p, t)| (*p, t.as_str())),
        );
        let found = check(&ws);
        let left_out: Vec<&str> = found
            .iter()
            .filter(|d| d.code == "TJ029")
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            left_out,
            vec!["`allow` removes `web_search`, `session_history` for the main agent only: the subagents `a`, `d`, `e` (per-user folder `alice`) are isolated (the default when a spec does not set `workspace.mode: shared`): they register the harness built-ins again and still have them"]
        );
    }

    /// The code-execution section follows the skills each context renders: a skill only in
    /// alice's folder brings it to alice's prompt only, and the message says so; a skill without
    /// other files brings it too (the preview shows the section whenever a skill is loaded).
    #[test]
    fn code_execution_is_decided_per_context_as_the_preview_renders() {
        let tools = r#"{"deny": ["execute"]}"#;
        let skill = "---\nname: notes\ndescription: d\n---\nBody\n";
        let messages = |files: &[(&str, &str)]| -> Vec<String> {
            let ws = workspace(Config::defaults_for(Path::new("/p")), files);
            check(&ws)
                .into_iter()
                .filter(|d| d.code == "TJ030")
                .map(|d| d.message)
                .collect()
        };
        assert_eq!(
            messages(&[
                (SHARED, tools),
                ("/p/.agentscope/workspace/alice/skills/notes/SKILL.md", skill),
                ("/p/.agentscope/workspace/alice/skills/notes/run.sh", "echo\n"),
            ]),
            vec!["tools.json removes `execute`, but the prompt's `## Code Execution` section still tells the model to run skill scripts with the shell tool `execute` (1 skill has files: `notes`); the section is rendered only for user `alice`, not for any user (scope `user`)"]
        );
        assert_eq!(
            messages(&[
                (SHARED, tools),
                ("/p/.agentscope/workspace/skills/notes/SKILL.md", skill),
            ]),
            vec!["tools.json removes `execute`, but the prompt's `## Code Execution` section still tells the model to run skill scripts with the shell tool `execute` (no loaded skill has files besides SKILL.md, but the section comes with any skill the prompt gives a folder for its files, `<files-root>`)"]
        );
        // A skill no context loads (nested below `skills/<dir>/`, scope `user`) brings nothing.
        assert_eq!(
            messages(&[
                (SHARED, tools),
                ("/p/.agentscope/workspace/skills/a/notes/SKILL.md", skill),
            ]),
            Vec::<String>::new()
        );
    }

    #[test]
    fn valid_lists_have_no_diagnostics() {
        let text = r#"{"deny": ["execute"], "mcpServers": {"gh": {"transport": "stdio", "command": "gh", "enableTools": ["search"]}}, "allow": []}"#;
        let ws = workspace(Config::defaults_for(Path::new("/p")), &[(SHARED, text)]);
        assert_eq!(check(&ws), vec![]);
    }
}
