//! Cross-file rules (`XR…`, harness-spec §9.5): references between workspace files that the
//! runtime never checks — subagent `skills:` against the skills that exist, subagent
//! `workspace.path` targets, subagent `tools:` against the tool catalog, and prompt text that
//! mentions tools tools.json removes.
//!
//! Pure over the snapshot. The per-file mention check (`removed_tool_mentions`) is separate so the
//! driver can run it in parallel and the language server per edited file.

use crate::base::{Diagnostic, TextRange};
use crate::check::loading;
use crate::rules::cross::*;
use crate::workspace::catalog::{Removal, ToolCatalog, ToolOrigin};
use crate::workspace::resolution::{Kind, Outcome, Who};
use crate::workspace::snapshot::WorkspaceFile;
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::{FileKind, Tree, Workspace};

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
    let mut out: Vec<Diagnostic> = workspace
        .subagents
        .iter()
        .flat_map(|s| check_subagent(workspace, &contexts, catalog, s))
        .collect();
    out.extend(loading::check_with(workspace, &contexts));
    out
}

/// Backticked tool names (`` `name` `` or `` `name(...)` ``) in AGENTS.md and SKILL.md text that
/// name a registered tool tools.json removes.
pub fn removed_tool_mentions(catalog: &ToolCatalog, file: WorkspaceFile) -> Vec<Diagnostic> {
    if !matches!(file.kind, FileKind::AgentsMd | FileKind::Skill) {
        return Vec::new();
    }
    let path = file.path.as_path();
    let Some(text) = file.entry.content.text() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut rest = text;
    let mut offset = 0;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else { break };
        let inner = &after[..close];
        let name = inner.split('(').next().unwrap_or_default();
        let start = offset + open + 1;
        if !name.is_empty()
            && name.len() <= 64
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            let info = catalog.lookup(name);
            if info.is_registered() && info.removal.is_some() && !info.readded {
                let how = match info.removal {
                    Some(Removal::Denied(_)) => "denies",
                    _ => "leaves out of `allow`",
                };
                out.push(XR010.at(
                    path,
                    TextRange::new(start, start + name.len()),
                    format!("mentions `{name}`, which tools.json {how}"),
                ));
            }
        }
        let consumed = open + 1 + close + 1;
        offset += consumed;
        rest = &rest[consumed..];
    }
    out
}

fn check_subagent(
    workspace: &Workspace,
    contexts: &loading::Contexts,
    catalog: &ToolCatalog,
    subagent: &SubagentDoc,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if subagent.outcome.is_err() {
        return out;
    }
    for entry in &subagent.tools {
        out.extend(check_subagent_tool(
            catalog,
            subagent,
            &entry.value,
            entry.range,
        ));
    }
    // The child sees the skills of its parent's call: the contexts that load this spec.
    let own = contexts.for_tree(&subagent.location.tree);
    for entry in &subagent.skills {
        let name = entry.value.as_str();
        if own.iter().any(|(_, r)| r.skill_named(name).is_some()) {
            continue;
        }
        let elsewhere: Vec<String> = contexts
            .list
            .iter()
            .filter(|(_, r)| r.skill_named(name).is_some())
            .map(|(who, _)| match who {
                Who::Folder(ns) => format!("`{ns}`"),
                other => loading::who_label(workspace, other),
            })
            .collect();
        if !elsewhere.is_empty() {
            out.push(XR011.at(
                &subagent.path,
                entry.range,
                format!(
                    "skill `{name}` exists only in the per-user folder(s) {}",
                    elsewhere.join(", ")
                ),
            ));
            continue;
        }
        // A file of that name that no context loads: say why rather than "no skill".
        let unloaded = workspace
            .skills
            .iter()
            .filter(|d| d.name.as_deref() == Some(name))
            .find_map(|d| {
                own.iter().find_map(|(who, r)| match r.skill_outcome(d) {
                    Outcome::NotScanned(reason) => Some((d, reason, who)),
                    _ => None,
                })
            });
        match unloaded {
            Some((doc, reason, who)) => out.push(XR004.at(
                &subagent.path,
                entry.range,
                format!(
                    "no loaded skill is named `{name}`: `{}` is, but it is not loaded ({})",
                    doc.location.rel,
                    reason.describe(
                        workspace,
                        Kind::Skill,
                        match who {
                            Who::AnyUser => Some("<user>"),
                            _ => None,
                        }
                    )
                ),
            )),
            None => out.push(XR004.at(
                &subagent.path,
                entry.range,
                format!("no skill is named `{name}`"),
            )),
        }
    }

    if let (Some(spec), Some(dir)) = (
        &subagent.workspace_path,
        workspace.subagent_workspace_dir(subagent),
    ) {
        let config = &workspace.config;
        let inside_subagents = [Tree::Shared, Tree::Project]
            .iter()
            .map(|t| workspace.path_in(t, "subagents"))
            .chain(
                workspace
                    .namespaces
                    .iter()
                    .map(|ns| config.workspace.join(ns).join("subagents")),
            )
            .any(|folder| dir.starts_with(folder));
        if inside_subagents {
            out.push(XR008.at(
                &subagent.path,
                spec.range,
                format!(
                    "`workspace.path` `{}` is inside a `subagents/` folder",
                    spec.value
                ),
            ));
        }
        let files = &workspace.files;
        if !files.contains_dir(&dir) {
            out.push(XR009.at(
                &subagent.path,
                spec.range,
                format!("`workspace.path` folder `{}` does not exist", dir.display()),
            ));
        } else if !files.contains_file(&dir.join("AGENTS.md")) {
            out.push(XR009.at(
                &subagent.path,
                spec.range,
                format!(
                    "`workspace.path` folder `{}` has no AGENTS.md",
                    dir.display()
                ),
            ));
        }
    }
    out
}

fn check_subagent_tool(
    catalog: &ToolCatalog,
    subagent: &SubagentDoc,
    name: &str,
    range: TextRange,
) -> Option<Diagnostic> {
    let info = catalog.lookup(name);
    let path = &subagent.path;
    match &info.origin {
        ToolOrigin::BuiltIn(group) => {
            return Some(XR003.at(
                path,
                range,
                format!(
                    "`{name}` is a harness built-in ({}): every child has it",
                    group.label()
                ),
            ))
        }
        ToolOrigin::MaybeMcp { .. } => {}
        ToolOrigin::Mcp { .. } => {}
        ToolOrigin::Unknown if catalog.allows_by_name(name) => {}
        origin => {
            let why = match origin {
                ToolOrigin::BuiltInDisabled(group) => {
                    format!("`{name}` is a built-in that is not registered here ({})", group.requirement())
                }
                ToolOrigin::OptIn { needs } => format!("`{name}` is only registered {needs}"),
                ToolOrigin::McpNotRegistered { servers } => format!(
                    "`{name}` comes from MCP server(s) {} that the runtime skips",
                    servers.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
                ),
                _ => format!(
                    "no built-in, MCP server `enableTools` or tools.json `allow` entry names `{name}` \
                     (a tool registered in Java code is invisible to agentws)"
                ),
            };
            return Some(XR001.at(path, range, why));
        }
    }
    if info.removal.is_some() && !info.readded {
        let how = match info.removal {
            Some(Removal::Denied(_)) => "denies it",
            _ => "leaves it out of `allow`",
        };
        return Some(XR002.at(
            path,
            range,
            format!("tools.json {how}: `{name}` is not in the parent's toolkit"),
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use crate::base::TextRange;
    use crate::config::Config;
    use crate::workspace::subagent::Spanned;
    use crate::workspace::Workspace;

    #[test]
    fn skills_named_by_subagents_must_exist() {
        let config = Config::defaults_for(Path::new("/p"));
        let mut ws = Workspace::from_texts(
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
                (
                    "/p/.agentscope/workspace/subagents/r.md",
                    "---\ndescription: d\n---\n",
                ),
            ],
        );
        let mut doc = (*ws.subagents[0]).clone();
        doc.skills = ["shared-skill", "alice-skill", "nope"]
            .iter()
            .enumerate()
            .map(|(i, s)| Spanned {
                value: s.to_string(),
                range: TextRange::new(i * 10, i * 10 + 5),
            })
            .collect();
        doc.workspace_path = Some(Spanned {
            value: "subagents/r-home".into(),
            range: TextRange::new(40, 56),
        });
        ws.subagents[0] = std::sync::Arc::new(doc);
        let found: Vec<_> = super::check(&ws)
            .into_iter()
            .map(|d| (d.code, d.range.start, d.message))
            .collect();
        assert_eq!(
            found,
            vec![
                (
                    "XR011",
                    10,
                    "skill `alice-skill` exists only in the per-user folder(s) `alice`".to_string()
                ),
                ("XR004", 20, "no skill is named `nope`".to_string()),
                (
                    "XR008",
                    40,
                    "`workspace.path` `subagents/r-home` is inside a `subagents/` folder"
                        .to_string()
                ),
                (
                    "XR009",
                    40,
                    format!(
                        "`workspace.path` folder `{}` does not exist",
                        PathBuf::from("/p/.agentscope/workspace/subagents/r-home").display()
                    )
                ),
                // Alice's skill is served by the namespaced repository, whose files-root is
                // built from the name.
                (
                    "SK016",
                    10,
                    "the skill is named `alice-skill` but its folder is `b`; for user `alice` the namespaced repository serves it and the prompt advertises `<files-root>` `/p/.agentscope/workspace/skills/alice-skill`, a folder that does not exist".to_string()
                ),
            ]
        );
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
    const SUBAGENT: &str =
        "---\ndescription: triage\ntools: [read_file, get_issue, close_issue, nope, plan_write]\n---\n";
    const AGENTS: &str = "Use `get_issue`, then `close_issue(id)` when done.\n";

    #[test]
    fn subagent_tools_and_mentions_against_the_catalog() {
        let ws = Workspace::from_texts(
            Config::defaults_for(Path::new("/p")),
            [
                ("/p/.agentscope/workspace/tools.json", TOOLS),
                ("/p/.agentscope/workspace/subagents/triage.md", SUBAGENT),
                ("/p/.agentscope/workspace/AGENTS.md", AGENTS),
            ],
        );
        let found: Vec<(&str, String)> = super::check(&ws)
            .into_iter()
            .map(|d| {
                let text = ws.files.text(&d.path).unwrap();
                (d.code, text[d.range.start..d.range.end].to_string())
            })
            .collect();
        assert_eq!(
            found,
            vec![
                ("XR003", "read_file".to_string()),
                ("XR002", "close_issue".to_string()),
                ("XR001", "nope".to_string()),
                ("XR001", "plan_write".to_string()),
                ("XR010", "close_issue".to_string()),
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
                    "for user `alice` the namespaced repository serves this skill from the per-user folder `alice`, but the prompt advertises `<files-root>` `/p/.agentscope/workspace/skills/x` (built from the name, without the folder), a folder that does not exist".to_string()
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
                    "the skill is named `x` but its folder is `p`; for any user (scope `user`) the namespaced repository serves it and the prompt advertises `<files-root>` `/p/.agentscope/workspace/skills/x`, a folder that does not exist".to_string()
                ),
            ]
        );
    }
}
