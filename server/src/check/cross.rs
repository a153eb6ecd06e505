//! Cross-file rules (`XR…`, harness-spec §9.5): references between workspace files that the
//! runtime never checks — subagent `skills:` against the skills that exist, subagent
//! `workspace.path` targets, subagent `tools:` against the tool catalog, and prompt text that
//! mentions tools tools.json removes.
//!
//! Pure over the snapshot. The per-file mention check (`removed_tool_mentions`) is separate so the
//! driver can run it in parallel and the language server per edited file.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::base::{Diagnostic, Related, TextRange};
use crate::config::{FilesystemMode, Scope};
use crate::context::{effective_root, SessionContext};
use crate::rules::cross::*;
use crate::workspace::catalog::{Removal, ToolCatalog, ToolOrigin};
use crate::workspace::layers;
use crate::workspace::skill::SkillDoc;
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
    let index = SkillNames::new(workspace);
    let mut out: Vec<Diagnostic> = workspace
        .subagents
        .iter()
        .flat_map(|s| check_subagent(workspace, &index, catalog, s))
        .collect();
    out.extend(duplicates(workspace));
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

/// Names of loaded skills: those every call can see, and those only some namespaces see.
struct SkillNames<'a> {
    everywhere: BTreeSet<&'a str>,
    per_namespace: BTreeMap<&'a str, BTreeSet<&'a str>>,
}

impl<'a> SkillNames<'a> {
    fn new(workspace: &'a Workspace) -> Self {
        let mut everywhere = BTreeSet::new();
        let mut per_namespace: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for skill in &workspace.skills {
            let (Ok(()), Some(name)) = (&skill.outcome, skill.name.as_deref()) else {
                continue;
            };
            match &skill.location.tree {
                Tree::Shared | Tree::Project => {
                    everywhere.insert(name);
                }
                Tree::Namespace(ns) => {
                    per_namespace.entry(name).or_default().insert(ns.as_str());
                }
            }
        }
        Self {
            everywhere,
            per_namespace,
        }
    }
}

fn check_subagent(
    workspace: &Workspace,
    skills: &SkillNames,
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
    let own_namespace = match &subagent.location.tree {
        Tree::Namespace(ns) => Some(ns.as_str()),
        _ => None,
    };
    for entry in &subagent.skills {
        let name = entry.value.as_str();
        if skills.everywhere.contains(name) {
            continue;
        }
        match skills.per_namespace.get(name) {
            Some(users) if own_namespace.is_some_and(|ns| users.contains(ns)) => {}
            Some(users) => {
                let list = users
                    .iter()
                    .map(|u| format!("`{u}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                out.push(XR011.at(
                    &subagent.path,
                    entry.range,
                    format!("skill `{name}` exists only in the per-user folder(s) {list}"),
                ));
            }
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

/// A namespace that no folder can have (`_…` names are never namespace folders), standing for
/// every caller without a per-user folder.
const NO_FOLDER_NAMESPACE: &str = "_agentws-no-folder";

/// Duplicate skill names and subagent ids: which file loses, to which, for whom.
///
/// One full merge for the callers without a per-user folder (every caller under the agent and
/// global scopes); then, per namespace folder, only that folder's own files, which sit on top of
/// that merge. This keeps the cost at one merge however many users there are.
fn duplicates(workspace: &Workspace) -> Vec<Diagnostic> {
    let config = &workspace.config;
    let base_context = SessionContext {
        session_id: Some(NO_FOLDER_NAMESPACE.to_string()),
        ..SessionContext::from_config(config)
    };
    let Ok(root) = effective_root(config, &base_context) else {
        return Vec::new();
    };
    let per_user = matches!(config.scope, Scope::User | Scope::Session)
        && config.filesystem.mode == FilesystemMode::Local;
    let everyone = if per_user && !workspace.namespaces.is_empty() {
        "every caller without a per-user copy"
    } else {
        "every caller"
    };
    let mode = if config.features.dynamic_subagents {
        "dynamic"
    } else {
        "static"
    };
    let mut out = Vec::new();

    let mut shadowed = Vec::new();
    let base_skills = layers::merged_skills_tracking(workspace, &root, &mut shadowed);
    for s in shadowed {
        out.push(skill_shadowed(&s.loser, &s.winner, everyone));
    }
    let mut base_subagents = Vec::new();
    if config.features.subagents {
        let mut shadowed = Vec::new();
        base_subagents = layers::merged_subagents_tracking(workspace, &root, &mut shadowed);
        for s in shadowed {
            out.push(subagent_shadowed(&s.loser, &s.winner, everyone, mode));
        }
    }
    if !per_user {
        return out;
    }

    if config.features.dynamic_skills && config.features.default_workspace_skills {
        let mut groups: BTreeMap<(&str, &str), Vec<&Arc<SkillDoc>>> = BTreeMap::new();
        for skill in &workspace.skills {
            if let (Tree::Namespace(ns), Ok(()), Some(name)) =
                (&skill.location.tree, &skill.outcome, skill.name.as_deref())
            {
                if !layers::skill_rel_is_hidden(&skill.location.rel) {
                    groups.entry((ns, name)).or_default().push(skill);
                }
            }
        }
        for ((ns, name), mut docs) in groups {
            docs.sort_by(|a, b| layers::java_cmp(&a.location.rel, &b.location.rel));
            let winner = docs[docs.len() - 1];
            let whom = format!("`{ns}`");
            for loser in &docs[..docs.len() - 1] {
                out.push(skill_shadowed(loser, winner, &whom));
            }
            if let Some(base) = base_skills.iter().find(|m| m.name == name) {
                out.push(skill_overridden(winner, &base.doc, &whom));
            }
        }
    }

    if config.features.subagents {
        let mut groups: BTreeMap<(&str, &str), Vec<&Arc<SubagentDoc>>> = BTreeMap::new();
        for subagent in &workspace.subagents {
            if let (Tree::Namespace(ns), Ok(())) = (&subagent.location.tree, &subagent.outcome) {
                if !subagent.id.is_empty() {
                    groups.entry((ns, &subagent.id)).or_default().push(subagent);
                }
            }
        }
        for ((ns, id), mut docs) in groups {
            docs.sort_by(|a, b| layers::java_cmp(&a.location.rel, &b.location.rel));
            let whom = format!("`{ns}`");
            let base = base_subagents
                .iter()
                .find(|e| e.id == id)
                .and_then(|e| e.doc.clone());
            let dynamic = config.features.dynamic_subagents;
            // Dynamic mode: the last scanned wins; static mode: the first one present wins.
            let winner = match (&base, dynamic) {
                (Some(base), false) => base.clone(),
                _ if dynamic => docs[docs.len() - 1].clone(),
                _ => docs[0].clone(),
            };
            let candidates = base.iter().filter(|_| dynamic).chain(docs.iter().copied());
            for loser in candidates {
                if loser.path != winner.path {
                    out.push(subagent_shadowed(loser, &winner, &whom, mode));
                }
            }
        }
    }
    out
}

fn skill_shadowed(loser: &SkillDoc, winner: &SkillDoc, whom: &str) -> Diagnostic {
    let name = loser.name.clone().unwrap_or_default();
    XR005
        .at(
            &loser.path,
            loser.name_range.unwrap_or(loser.opening_range),
            format!(
                "skill `{name}` is also defined in {} (`{}`), which wins for {whom}",
                winner.location.tree.label(),
                winner.location.rel,
            ),
        )
        .with_related(Related {
            path: winner.path.clone(),
            range: winner.name_range.unwrap_or(winner.opening_range),
            message: format!("this `{name}` wins"),
        })
}

/// A per-user override is reported where it is written: at the per-user copy.
fn skill_overridden(winner: &SkillDoc, overridden: &SkillDoc, whom: &str) -> Diagnostic {
    let name = winner.name.clone().unwrap_or_default();
    XR006
        .at(
            &winner.path,
            winner.name_range.unwrap_or(winner.opening_range),
            format!(
                "skill `{name}` overrides the one in {} (`{}`) for {whom}",
                overridden.location.tree.label(),
                overridden.location.rel,
            ),
        )
        .with_related(Related {
            path: overridden.path.clone(),
            range: overridden.name_range.unwrap_or(overridden.opening_range),
            message: format!("the overridden `{name}`"),
        })
}

fn subagent_shadowed(
    loser: &SubagentDoc,
    winner: &SubagentDoc,
    whom: &str,
    mode: &str,
) -> Diagnostic {
    XR007
        .at(
            &loser.path,
            loser.opening_range,
            format!(
                "agent id `{}` is also given by {} (`{}`), which wins for {whom} ({mode} mode)",
                loser.id,
                winner.location.tree.label(),
                winner.location.rel,
            ),
        )
        .with_related(Related {
            path: winner.path.clone(),
            range: winner.opening_range,
            message: format!("this `{}` wins", winner.id),
        })
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
        let found: Vec<(String, &str, String)> = super::duplicates(&ws)
            .into_iter()
            .map(|d| (d.path.to_string_lossy().into_owned(), d.code, d.message))
            .collect();
        // Callers without a folder get the project copy (Layer 4 lower beats Layer 3); alice's
        // own copy sits on top of that, and her nested `r.md` replaces the shared one.
        assert_eq!(
            found,
            vec![
                (
                    "/p/.agentscope/workspace/skills/a/SKILL.md".to_string(),
                    "XR005",
                    "skill `x` is also defined in the project folder (`skills/p/SKILL.md`), which wins for every caller without a per-user copy".to_string()
                ),
                (
                    "/p/.agentscope/workspace/alice/skills/x/SKILL.md".to_string(),
                    "XR006",
                    "skill `x` overrides the one in the project folder (`skills/p/SKILL.md`) for `alice`".to_string()
                ),
                (
                    "/p/.agentscope/workspace/subagents/r.md".to_string(),
                    "XR007",
                    "agent id `r` is also given by the per-user folder `alice` (`subagents/deep/r.md`), which wins for `alice` (dynamic mode)".to_string()
                ),
            ]
        );
    }
}
