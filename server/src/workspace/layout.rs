//! Where a workspace file lives and what it is.
//!
//! The runtime reads from three trees (harness-spec §1.3, §6.3): the shared workspace `<ws>/…`, the
//! project folder `<project>/…` (the overlay's lower layer) and per-namespace override folders
//! `<ws>/<ns>/…`. A `Location` names the tree and the path inside it, so layer precedence can be
//! decided without string games on absolute paths.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::base::pathutil::{slash_string, strip_dir};
use crate::config::Config;
use crate::context::RESERVED_TOP_LEVEL_NAMES;

/// First-level folders of the workspace that belong to the runtime, never to a namespace.
pub const RUNTIME_TOP_LEVEL_DIRS: &[&str] =
    &["large_tool_results", "rules", "memory", "plans", "agents"];

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "kind", content = "name", rename_all = "lowercase")]
pub enum Tree {
    /// `<ws>/…`
    Shared,
    /// `<project>/…` (overlay lower layer, never namespaced).
    Project,
    /// `<ws>/<ns>/…`
    Namespace(String),
}

impl Tree {
    /// Human label for messages: `shared workspace`, `project folder`, `user folder `alice``.
    pub fn label(&self) -> String {
        match self {
            Tree::Shared => "the shared workspace".to_string(),
            Tree::Project => "the project folder".to_string(),
            Tree::Namespace(ns) => format!("the per-user folder `{ns}`"),
        }
    }

    /// Absolute folder of this tree under `config`.
    pub fn dir(&self, config: &Config) -> PathBuf {
        match self {
            Tree::Shared => config.workspace.clone(),
            Tree::Project => config.project.clone(),
            Tree::Namespace(ns) => config.workspace.join(ns),
        }
    }
}

/// A file's place in the layout: its tree and its `/`-separated path inside the tree.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Location {
    pub tree: Tree,
    pub rel: String,
}

/// What kind of workspace file a path is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileKind {
    Config,
    AgentsMd,
    MemoryMd,
    Skill,
    Subagent,
    ToolsJson,
    KnowledgeIndex,
    Knowledge,
    AdditionalContext,
    SystemPrompt,
    /// Inside a skill folder (references/, scripts/, …).
    SkillResource,
}

impl FileKind {
    /// Plural label used in "checked N …" summaries.
    pub fn label(self) -> &'static str {
        match self {
            FileKind::Config => "agentws.toml",
            FileKind::AgentsMd => "AGENTS.md",
            FileKind::MemoryMd => "MEMORY.md",
            FileKind::Skill => "skills",
            FileKind::Subagent => "subagents",
            FileKind::ToolsJson => "tools.json",
            FileKind::KnowledgeIndex => "KNOWLEDGE.md",
            FileKind::Knowledge => "knowledge files",
            FileKind::AdditionalContext => "additional context files",
            FileKind::SystemPrompt => "system prompt files",
            FileKind::SkillResource => "skill resources",
        }
    }
}

/// Splits an absolute path into its tree and tree-relative path, preferring the most specific
/// tree (a namespace folder over the shared workspace, the workspace over the project when the
/// workspace sits inside the project).
pub fn locate(config: &Config, path: &Path) -> Option<Location> {
    let (root, rel) = tree_root(config, path)?;
    let tree = match root {
        TreeRoot::Shared => Tree::Shared,
        TreeRoot::Namespace(ns) => Tree::Namespace(ns.into_owned()),
        TreeRoot::Project => Tree::Project,
    };
    Some(Location {
        tree,
        rel: slash_string(rel),
    })
}

/// The tree a path is in, borrowed from the path ([`locate`]'s answer, which owns it).
pub enum TreeRoot<'a> {
    Shared,
    Namespace(std::borrow::Cow<'a, str>),
    Project,
}

/// [`locate`] without allocating (for callers that ask of every folder): the tree and the
/// path relative to its root.
pub fn tree_root<'a>(config: &Config, path: &'a Path) -> Option<(TreeRoot<'a>, &'a Path)> {
    if let Some(rel) = strip_dir(path, &config.workspace) {
        let mut parts = rel.components();
        let first = parts.next()?.as_os_str().to_string_lossy();
        let rest = parts.as_path();
        if !rest.as_os_str().is_empty() && is_namespace_name(&first) {
            return Some((TreeRoot::Namespace(first), rest));
        }
        return Some((TreeRoot::Shared, rel));
    }
    let rel = strip_dir(path, &config.project)?;
    Some((TreeRoot::Project, rel))
}

/// True when a first-level folder name of the workspace can be a namespace folder.
pub fn is_namespace_name(name: &str) -> bool {
    !name.starts_with('.')
        && !name.starts_with('_')
        && !RESERVED_TOP_LEVEL_NAMES.contains(&name)
        && !RUNTIME_TOP_LEVEL_DIRS.contains(&name)
}

/// The kind of file at `location`, if the runtime reads it (`additional` = configured additional
/// context files, as configured).
pub fn classify(location: &Location, additional: &[String]) -> Option<FileKind> {
    let rel = location.rel.as_str();
    let parts: Vec<&str> = rel.split('/').collect();
    let kind = match parts.as_slice() {
        ["AGENTS.md"] => FileKind::AgentsMd,
        ["MEMORY.md"] => FileKind::MemoryMd,
        ["tools.json"] => FileKind::ToolsJson,
        ["knowledge", "KNOWLEDGE.md"] => FileKind::KnowledgeIndex,
        ["knowledge", ..] => FileKind::Knowledge,
        ["skills", .., "SKILL.md"] if parts.len() >= 3 => FileKind::Skill,
        ["skills", _, ..] if parts.len() >= 3 => FileKind::SkillResource,
        ["subagents", .., last] if last.ends_with(".md") && parts.len() >= 2 => FileKind::Subagent,
        _ if additional
            .iter()
            .any(|a| crate::workspace::layout::normalize_relative(a) == rel) =>
        {
            FileKind::AdditionalContext
        }
        _ => return None,
    };
    Some(kind)
}

/// `WorkspaceManager.normalizeRelativePath`: `\` → `/`, leading whitespace and all leading `/`
/// removed.
pub fn normalize_relative(path: &str) -> String {
    let replaced = path.replace('\\', "/");
    crate::syntax::java::strip_leading(&replaced)
        .trim_start_matches('/')
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_trees() {
        let config = Config::defaults_for(Path::new("/p"));
        let loc = locate(
            &config,
            Path::new("/p/.agentscope/workspace/alice/skills/x/SKILL.md"),
        )
        .unwrap();
        assert_eq!(loc.tree, Tree::Namespace("alice".into()));
        assert_eq!(loc.rel, "skills/x/SKILL.md");
        assert_eq!(classify(&loc, &[]), Some(FileKind::Skill));
        let loc = locate(
            &config,
            Path::new("/p/.agentscope/workspace/skills/x/SKILL.md"),
        )
        .unwrap();
        assert_eq!(loc.tree, Tree::Shared);
        let loc = locate(&config, Path::new("/p/subagents/a.md")).unwrap();
        assert_eq!(loc.tree, Tree::Project);
        assert_eq!(classify(&loc, &[]), Some(FileKind::Subagent));
    }

    #[test]
    fn classifies_by_the_first_and_last_segments_and_the_depth() {
        use FileKind::*;
        let cases: &[(&str, Option<FileKind>)] = &[
            ("AGENTS.md", Some(AgentsMd)),
            ("MEMORY.md", Some(MemoryMd)),
            ("tools.json", Some(ToolsJson)),
            ("x/AGENTS.md", None),
            ("knowledge", Some(Knowledge)),
            ("knowledge/KNOWLEDGE.md", Some(KnowledgeIndex)),
            ("knowledge/a/KNOWLEDGE.md", Some(Knowledge)),
            ("knowledge/notes.txt", Some(Knowledge)),
            ("skills/SKILL.md", None),
            ("skills/x/SKILL.md", Some(Skill)),
            ("skills/x/y/SKILL.md", Some(Skill)),
            ("skills/x/references/a.md", Some(SkillResource)),
            ("skills/x/notes.txt", Some(SkillResource)),
            ("subagents", None),
            ("subagents/a.md", Some(Subagent)),
            ("subagents/deep/a.md", Some(Subagent)),
            ("subagents/a.txt", None),
            ("extra/CONTEXT.md", Some(AdditionalContext)),
            ("", None),
        ];
        for (rel, kind) in cases {
            let location = Location {
                tree: Tree::Shared,
                rel: rel.to_string(),
            };
            let additional = ["/extra/CONTEXT.md".to_string()];
            assert_eq!(classify(&location, &additional), *kind, "{rel}");
        }
    }
}
