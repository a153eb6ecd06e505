//! The immutable workspace snapshot: the configuration, the file set, and every workspace file
//! parsed as the runtime parses it.
//!
//! Building is parallel (one parse per file) and incremental: given the previous snapshot, a
//! document whose text is the same `Arc` is reused instead of parsed again, so an editor change
//! to one file re-parses one file.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::base::{Diagnostic, Env, FileContent, FileEntry, FileSet};
use crate::config::Config;
use crate::workspace::layout::{self, FileKind, Location, Tree};
use crate::workspace::skill::{self, SkillDoc};
use crate::workspace::subagent::{self, SubagentDoc};
use crate::workspace::tools::{self, ToolsDoc};

#[derive(Clone, Debug)]
pub struct Workspace {
    pub config: Arc<Config>,
    /// Problems found while loading `agentws.toml`.
    pub config_diagnostics: Arc<Vec<Diagnostic>>,
    pub files: Arc<FileSet>,
    pub env: Arc<Env>,
    /// Every SKILL.md in any tree, in path order.
    pub skills: Vec<Arc<SkillDoc>>,
    /// Every subagent spec in any tree, in path order.
    pub subagents: Vec<Arc<SubagentDoc>>,
    /// tools.json of the shared workspace and of the project folder, when present.
    pub tools: Vec<Arc<ToolsDoc>>,
    /// Per-namespace override folders found under the workspace, in name order.
    pub namespaces: Vec<String>,
    /// Kind and location of every workspace file in the file set.
    /// Shared between snapshots that differ only in file contents.
    pub kinds: Arc<BTreeMap<PathBuf, (Location, FileKind)>>,
}

/// One workspace file as the checks see it.
#[derive(Clone, Copy, Debug)]
pub struct WorkspaceFile<'a> {
    pub path: &'a PathBuf,
    pub location: &'a Location,
    pub kind: FileKind,
    pub entry: &'a crate::base::FileEntry,
}

enum Parsed {
    Skill(Arc<SkillDoc>),
    Subagent(Arc<SubagentDoc>),
    Tools(Arc<ToolsDoc>),
}

impl Workspace {
    /// Builds a snapshot, re-using documents of `previous` whose file content did not change.
    pub fn build(
        config: Arc<Config>,
        config_diagnostics: Vec<Diagnostic>,
        files: Arc<FileSet>,
        env: Arc<Env>,
        previous: Option<&Workspace>,
    ) -> Workspace {
        let additional = &config.agent.additional_context_files;
        // The file set iterates in key order, so collecting builds the map in one sorted pass.
        let kinds: BTreeMap<PathBuf, (Location, FileKind)> = files
            .iter()
            .filter_map(|(path, _)| {
                let location = layout::locate(&config, path)?;
                let kind = layout::classify(&location, additional)?;
                Some((path.clone(), (location, kind)))
            })
            .collect();

        // Parses depend on the configuration and (tools.json) the environment: reuse only when both match.
        let reuse = previous.filter(|p| *p.config == *config && *p.env == *env);
        // Previous documents with the content they were parsed from, keyed by path (a hash map:
        // one lookup per file, no path comparisons in a tree).
        let previous_docs: HashMap<&Path, (Parsed, &FileContent)> = reuse
            .map(|p| {
                let contents: HashMap<&Path, &FileContent> = p
                    .workspace_files()
                    .into_iter()
                    .map(|f| (f.path.as_path(), &f.entry.content))
                    .collect();
                let mut map = HashMap::with_capacity(p.skills.len() + p.subagents.len() + 2);
                let docs = p
                    .skills
                    .iter()
                    .map(|d| (d.path.as_path(), Parsed::Skill(d.clone())))
                    .chain(
                        p.subagents
                            .iter()
                            .map(|d| (d.path.as_path(), Parsed::Subagent(d.clone()))),
                    )
                    .chain(
                        p.tools
                            .iter()
                            .map(|d| (d.path.as_path(), Parsed::Tools(d.clone()))),
                    );
                for (path, doc) in docs {
                    if let Some(content) = contents.get(path) {
                        map.insert(path, (doc, *content));
                    }
                }
                map
            })
            .unwrap_or_default();

        let jobs: Vec<(&PathBuf, &Location, FileKind, &FileEntry)> =
            workspace_files(&kinds, &files)
                .into_iter()
                .filter(|f| match f.kind {
                    FileKind::Skill | FileKind::Subagent => true,
                    FileKind::ToolsJson => matches!(f.location.tree, Tree::Shared | Tree::Project),
                    _ => false,
                })
                .map(|f| (f.path, f.location, f.kind, f.entry))
                .collect();

        let parsed: Vec<Parsed> = jobs
            .par_iter()
            .map(|(path, location, kind, entry)| {
                if let Some((old, old_content)) = previous_docs.get(path.as_path()) {
                    if same_content(old_content, &entry.content) {
                        return match old {
                            Parsed::Skill(d) => Parsed::Skill(d.clone()),
                            Parsed::Subagent(d) => Parsed::Subagent(d.clone()),
                            Parsed::Tools(d) => Parsed::Tools(d.clone()),
                        };
                    }
                }
                match kind {
                    FileKind::Skill => Parsed::Skill(Arc::new(skill::parse(
                        (*path).clone(),
                        (*location).clone(),
                        &entry.content,
                    ))),
                    FileKind::Subagent => Parsed::Subagent(Arc::new(subagent::parse(
                        (*path).clone(),
                        (*location).clone(),
                        &entry.content,
                    ))),
                    _ => Parsed::Tools(Arc::new(tools::parse(
                        (*path).clone(),
                        &entry.content,
                        &env,
                    ))),
                }
            })
            .collect();

        let mut skills = Vec::new();
        let mut subagents = Vec::new();
        let mut tools = Vec::new();
        for p in parsed {
            match p {
                Parsed::Skill(d) => skills.push(d),
                Parsed::Subagent(d) => subagents.push(d),
                Parsed::Tools(d) => tools.push(d),
            }
        }
        // The shared tools.json first: it is the one the runtime reads when both exist.
        tools.sort_by_key(|t| !t.path.starts_with(&config.workspace));

        let namespaces = files
            .child_dirs(&config.workspace)
            .filter_map(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
            .filter(|n| layout::is_namespace_name(n))
            .collect();

        Workspace {
            config,
            config_diagnostics: Arc::new(config_diagnostics),
            files,
            env,
            skills,
            subagents,
            tools,
            namespaces,
            kinds: Arc::new(kinds),
        }
    }

    /// Parses the skill, subagent or tools.json at `path` again from the file set, in place;
    /// false when `path` is not such a file of this snapshot.
    pub fn reparse_file(&mut self, path: &Path) -> bool {
        let (Some((location, kind)), Some(entry)) = (self.kinds.get(path), self.files.get(path))
        else {
            return false;
        };
        match kind {
            FileKind::Skill => match self.skills.binary_search_by(|d| d.path.as_path().cmp(path)) {
                Ok(i) => {
                    self.skills[i] = Arc::new(skill::parse(
                        path.to_path_buf(),
                        location.clone(),
                        &entry.content,
                    ))
                }
                Err(_) => return false,
            },
            FileKind::Subagent => {
                match self
                    .subagents
                    .binary_search_by(|d| d.path.as_path().cmp(path))
                {
                    Ok(i) => {
                        self.subagents[i] = Arc::new(subagent::parse(
                            path.to_path_buf(),
                            location.clone(),
                            &entry.content,
                        ))
                    }
                    Err(_) => return false,
                }
            }
            FileKind::ToolsJson => match self.tools.iter().position(|d| d.path == path) {
                Some(i) => {
                    self.tools[i] =
                        Arc::new(tools::parse(path.to_path_buf(), &entry.content, &self.env))
                }
                None => return false,
            },
            _ => return false,
        }
        true
    }

    /// A snapshot of in-memory files (absolute paths → text), with no environment variables: for
    /// tests and for callers that already hold the texts.
    pub fn from_texts<P: Into<PathBuf>, T: AsRef<str>>(
        config: Config,
        texts: impl IntoIterator<Item = (P, T)>,
    ) -> Workspace {
        let mut files = FileSet::new();
        files.insert_dir(config.workspace.clone());
        for (path, text) in texts {
            files.insert_text(path.into(), text.as_ref());
        }
        Workspace::build(
            Arc::new(config),
            Vec::new(),
            Arc::new(files),
            Arc::new(Env::new()),
            None,
        )
    }

    /// Folders and files outside the scanned trees that the workspace refers to and whose existence
    /// matters: each subagent's `workspace.path` and its `AGENTS.md`. Front-ends add them to the
    /// file set (see `discover::add_referenced`) and rebuild.
    pub fn referenced_paths(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for subagent in &self.subagents {
            if let Some(dir) = self.subagent_workspace_dir(subagent) {
                out.push(dir.join("AGENTS.md"));
                out.push(dir);
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// A subagent's `workspace.path` resolved like `mainWorkspace.resolve(p).normalize()`.
    pub fn subagent_workspace_dir(&self, subagent: &SubagentDoc) -> Option<PathBuf> {
        let raw = crate::syntax::java::trim(&subagent.workspace_path.as_ref()?.value).to_string();
        if raw.is_empty() {
            return None;
        }
        let path = Path::new(&raw);
        Some(if path.is_absolute() {
            path.to_path_buf()
        } else {
            crate::base::pathutil::normalize_lexically(&self.config.workspace.join(path))
        })
    }

    /// Every workspace file with its location, kind and entry, in path order. One walk over the
    /// two sorted maps instead of a lookup per file.
    pub fn workspace_files(&self) -> Vec<WorkspaceFile<'_>> {
        workspace_files(&self.kinds, &self.files)
    }

    /// The parsed SKILL.md at `path`.
    pub fn skill(&self, path: &Path) -> Option<&Arc<SkillDoc>> {
        let i = self
            .skills
            .binary_search_by(|d| d.path.as_path().cmp(path))
            .ok()?;
        self.skills.get(i)
    }

    /// The parsed subagent spec at `path`.
    pub fn subagent(&self, path: &Path) -> Option<&Arc<SubagentDoc>> {
        let i = self
            .subagents
            .binary_search_by(|d| d.path.as_path().cmp(path))
            .ok()?;
        self.subagents.get(i)
    }

    /// The kind of a file of this workspace, if the runtime reads it.
    pub fn kind_of(&self, path: &Path) -> Option<FileKind> {
        self.kinds.get(path).map(|(_, kind)| *kind)
    }

    pub fn location_of(&self, path: &Path) -> Option<&Location> {
        self.kinds.get(path).map(|(location, _)| location)
    }

    /// The tools.json the runtime reads (shared before project), if any exists.
    pub fn effective_tools(&self) -> Option<&Arc<ToolsDoc>> {
        self.tools.first()
    }

    /// Absolute path of `rel` in `tree`.
    pub fn path_in(&self, tree: &Tree, rel: &str) -> PathBuf {
        let mut path = tree.dir(&self.config);
        for part in rel.split('/').filter(|p| !p.is_empty()) {
            path.push(part);
        }
        path
    }
}

/// Joins the kinds map with the file set (both sorted by path) in one walk.
fn workspace_files<'a>(
    kinds: &'a BTreeMap<PathBuf, (Location, FileKind)>,
    files: &'a FileSet,
) -> Vec<WorkspaceFile<'a>> {
    let mut out = Vec::with_capacity(kinds.len());
    let mut entries = files.iter().peekable();
    for (path, (location, kind)) in kinds {
        while entries.peek().is_some_and(|(p, _)| *p < path) {
            entries.next();
        }
        if let Some((p, entry)) = entries.peek() {
            if *p == path {
                out.push(WorkspaceFile {
                    path,
                    location,
                    kind: *kind,
                    entry,
                });
            }
        }
    }
    out
}

fn same_content(previous: &FileContent, now: &FileContent) -> bool {
    match (previous, now) {
        (FileContent::Text(a), FileContent::Text(b)) => Arc::ptr_eq(a, b) || a == b,
        (a, b) => a == b,
    }
}
