//! The immutable workspace snapshot: the configuration, the file set, and every workspace file
//! parsed as the runtime parses it.
//!
//! Building is parallel (one parse per file) and incremental: given the previous snapshot, a
//! document whose text is the same `Arc` (and whose location and kind are the same) is reused
//! instead of parsed again, so an editor change to one file re-parses one file.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::base::{Diagnostic, Env, FileContent, FileSet};
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

/// A parsed workspace file. Equal when the documents are [`crate::base::same`]: memoised facts
/// are most often the same allocation.
#[derive(Clone, Debug)]
pub enum Parsed {
    Skill(Arc<SkillDoc>),
    Subagent(Arc<SubagentDoc>),
    Tools(Arc<ToolsDoc>),
}

impl PartialEq for Parsed {
    fn eq(&self, other: &Parsed) -> bool {
        use crate::base::same;
        match (self, other) {
            (Parsed::Skill(a), Parsed::Skill(b)) => same(a, b),
            (Parsed::Subagent(a), Parsed::Subagent(b)) => same(a, b),
            (Parsed::Tools(a), Parsed::Tools(b)) => same(a, b),
            _ => false,
        }
    }
}

impl Parsed {
    /// The path of the parsed file.
    pub fn path(&self) -> &Path {
        match self {
            Parsed::Skill(doc) => &doc.path,
            Parsed::Subagent(doc) => &doc.path,
            Parsed::Tools(doc) => &doc.path,
        }
    }
}

/// The folders holding a skill resource somewhere below them, from the kinds map alone: a skill
/// whose folder is one has files besides its SKILL.md (`has_files`). One pass over the
/// resources instead of a walk of every skill's folder.
pub fn resource_folders(kinds: &BTreeMap<PathBuf, (Location, FileKind)>) -> ResourceFolders<&Path> {
    let mut folders: foldhash::HashSet<&Path> = Default::default();
    let resources = kinds
        .iter()
        .filter(|(_, (_, kind))| *kind == FileKind::SkillResource);
    for (path, _) in resources {
        // A folder already there came with every folder above it: resources share their
        // skill's folders, and hashing each of them again for every resource (a path hashes
        // component by component) was most of the time this took.
        for folder in path.ancestors().skip(1) {
            if !folders.insert(folder) {
                break;
            }
        }
    }
    ResourceFolders(folders)
}

/// See [`resource_folders`]: the folders borrowed from the kinds map, or owned
/// ([`ResourceFolders::to_owned_paths`]) by a caller that keeps them past it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourceFolders<P: std::hash::Hash + Eq>(foldhash::HashSet<P>);

impl<P: std::borrow::Borrow<Path> + std::hash::Hash + Eq> ResourceFolders<P> {
    /// True when no skill has files besides its SKILL.md (nothing need be looked up).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// True when the folder of the SKILL.md at `skill` holds a resource.
    pub fn has_files(&self, skill: &Path) -> bool {
        skill.parent().is_some_and(|dir| self.0.contains(dir))
    }
}

impl ResourceFolders<&Path> {
    /// The same folders, owned.
    pub fn to_owned_paths(&self) -> ResourceFolders<PathBuf> {
        ResourceFolders(self.0.iter().map(|folder| folder.to_path_buf()).collect())
    }
}

/// The per-user folders of the workspace in `files`, in name order.
pub fn namespaces(config: &Config, files: &FileSet) -> Vec<String> {
    files
        .child_dirs(&config.workspace)
        .filter_map(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .filter(|n| layout::is_namespace_name(n))
        .collect()
}

/// Orders tools.json documents so the one the runtime reads comes first: the shared one, when
/// both the shared and the project's exist.
pub fn effective_first(config: &Config, tools: &mut [Arc<ToolsDoc>]) {
    tools.sort_by_key(|t| !t.path.starts_with(&config.workspace));
}

/// Kind and location of every workspace file of `files` under `config`, in path order. On the
/// calling thread: a query asks it ([`placed_in_order`] says why not on every core).
pub fn file_kinds(config: &Config, files: &FileSet) -> BTreeMap<PathBuf, (Location, FileKind)> {
    let placed = files.iter().map(|(path, _)| placed(config, path)).collect();
    kinds_of_placed(files, placed)
}

/// The kinds map of `files`, each placed as `placed` (in the file set's order) says.
pub fn kinds_of_placed(
    files: &FileSet,
    placed: Vec<Option<(Location, FileKind)>>,
) -> BTreeMap<PathBuf, (Location, FileKind)> {
    let paths = files.iter().map(|(path, _)| path);
    // The file set iterates in key order, so collecting builds the map in one sorted pass.
    let placed = paths
        .zip(placed)
        .filter_map(|(path, at)| Some((path.clone(), at?)));
    placed.collect()
}

/// [`placed`] of each file of `files`, in the file set's order: found on every core, since a
/// whole discovery asks it of every file. Never inside a query: a thread waiting for rayon's
/// other workers runs their queued jobs, and one of those may be another database's query,
/// which salsa refuses to start on a thread in the middle of one ("Cannot change database
/// mid-query").
pub fn placed_in_order(config: &Config, files: &FileSet) -> Vec<Option<(Location, FileKind)>> {
    use rayon::prelude::*;
    let paths: Vec<&PathBuf> = files.iter().map(|(path, _)| path).collect();
    paths.par_iter().map(|path| placed(config, path)).collect()
}

/// Location and kind of the file at `path` under `config`, if the runtime reads it: what
/// [`file_kinds`] holds for it, from the path alone.
pub fn placed(config: &Config, path: &Path) -> Option<(Location, FileKind)> {
    let location = layout::locate(config, path)?;
    let kind = layout::classify(&location, &config.agent.additional_context_files)?;
    Some((location, kind))
}

/// Parses a skill, subagent spec or (shared or project) tools.json as the runtime does; `None` for
/// a file of any other kind, which nothing parses.
pub fn parse_file(
    path: &Path,
    location: &Location,
    kind: FileKind,
    content: &FileContent,
    env: &Env,
) -> Option<Parsed> {
    Some(match kind {
        FileKind::Skill => Parsed::Skill(Arc::new(skill::parse(
            path.to_path_buf(),
            location.clone(),
            content,
        ))),
        FileKind::Subagent => Parsed::Subagent(Arc::new(subagent::parse(
            path.to_path_buf(),
            location.clone(),
            content,
        ))),
        FileKind::ToolsJson if matches!(location.tree, Tree::Shared | Tree::Project) => {
            Parsed::Tools(Arc::new(tools::parse(path.to_path_buf(), content, env)))
        }
        _ => return None,
    })
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
        let kinds = file_kinds(&config, &files);

        // A parse reads the file's path, location, kind, content and (tools.json) the
        // environment, never the rest of the configuration: a document is reused when all of
        // those match, so a configuration change that moves no file (remote mode for a store's
        // files, another agent name) parses nothing again.
        let reuse = previous.filter(|p| *p.env == *env);
        // Previous documents with the file they were parsed from, keyed by path (a hash map:
        // one lookup per file, no path comparisons in a tree).
        let previous_docs: HashMap<&Path, (Parsed, WorkspaceFile)> = reuse
            .map(|p| {
                let parsed_from: HashMap<&Path, WorkspaceFile> = p
                    .workspace_files()
                    .into_iter()
                    .map(|f| (f.path.as_path(), f))
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
                    if let Some(file) = parsed_from.get(path) {
                        map.insert(path, (doc, *file));
                    }
                }
                map
            })
            .unwrap_or_default();

        let jobs: Vec<WorkspaceFile> = workspace_files(&kinds, &files);
        let parsed: Vec<Parsed> = jobs
            .par_iter()
            .filter_map(|f| {
                if let Some((old, from)) = previous_docs.get(f.path.as_path()) {
                    let same_place = from.location == f.location && from.kind == f.kind;
                    if same_place && same_content(&from.entry.content, &f.entry.content) {
                        return Some(old.clone());
                    }
                }
                parse_file(f.path, f.location, f.kind, &f.entry.content, &env)
            })
            .collect();

        let namespaces = namespaces(&config, &files);
        Workspace::from_parts(
            config,
            Arc::new(config_diagnostics),
            files,
            env,
            parsed,
            Arc::new(kinds),
            namespaces,
        )
    }

    /// A snapshot of already parsed documents (in path order) over `files`, whose per-user
    /// folders are `namespaces` ([`namespaces`]; a caller that builds many snapshots of one file
    /// set lists them once).
    pub fn from_parts(
        config: Arc<Config>,
        config_diagnostics: Arc<Vec<Diagnostic>>,
        files: Arc<FileSet>,
        env: Arc<Env>,
        parsed: impl IntoIterator<Item = Parsed>,
        kinds: Arc<BTreeMap<PathBuf, (Location, FileKind)>>,
        namespaces: Vec<String>,
    ) -> Workspace {
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
        effective_first(&config, &mut tools);

        Workspace {
            config,
            config_diagnostics,
            files,
            env,
            skills,
            subagents,
            tools,
            namespaces,
            kinds,
        }
    }

    /// This snapshot's skill and subagent documents, in path order, with those at the given
    /// paths replaced (`None`: the path holds none now; a path without one before gets it).
    pub fn into_sources_replaced(
        mut self,
        replaced: impl IntoIterator<Item = (PathBuf, Option<Parsed>)>,
    ) -> impl Iterator<Item = Parsed> {
        fn put<T>(docs: &mut Vec<Arc<T>>, path: &Path, doc: Option<Arc<T>>, key: fn(&T) -> &Path) {
            match (docs.binary_search_by(|d| key(d).cmp(path)), doc) {
                (Ok(i), Some(doc)) => docs[i] = doc,
                (Ok(i), None) => {
                    docs.remove(i);
                }
                (Err(i), Some(doc)) => docs.insert(i, doc),
                (Err(_), None) => {}
            }
        }
        for (path, doc) in replaced {
            let (skill, subagent) = match doc {
                Some(Parsed::Skill(d)) => (Some(d), None),
                Some(Parsed::Subagent(d)) => (None, Some(d)),
                _ => (None, None),
            };
            put(&mut self.skills, &path, skill, |d| &d.path);
            put(&mut self.subagents, &path, subagent, |d| &d.path);
        }
        let skills = self.skills.into_iter().map(Parsed::Skill);
        skills.chain(self.subagents.into_iter().map(Parsed::Subagent))
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
    /// matters (see [`referenced_paths`]).
    pub fn referenced_paths(&self) -> Vec<PathBuf> {
        referenced_paths(&self.config, self.subagents.iter().map(Arc::as_ref))
    }

    /// A subagent's `workspace.path` resolved (see [`subagent_workspace_dir`]).
    pub fn subagent_workspace_dir(&self, subagent: &SubagentDoc) -> Option<PathBuf> {
        subagent_workspace_dir(&self.config, subagent)
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

    /// The parsed skill or subagent spec at `path`.
    pub fn source(&self, path: &Path) -> Option<Parsed> {
        match self.kind_of(path)? {
            FileKind::Skill => self.skill(path).cloned().map(Parsed::Skill),
            FileKind::Subagent => self.subagent(path).cloned().map(Parsed::Subagent),
            _ => None,
        }
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

/// Folders and files outside the scanned trees that `subagents` refer to and whose existence
/// matters: each one's `workspace.path` and its `AGENTS.md`, sorted. Front-ends add them to the
/// file set (see `discover::add_referenced`) and rebuild.
pub fn referenced_paths<'a>(
    config: &Config,
    subagents: impl IntoIterator<Item = &'a SubagentDoc>,
) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for subagent in subagents {
        if let Some(dir) = subagent_workspace_dir(config, subagent) {
            out.push(dir.join("AGENTS.md"));
            out.push(dir);
        }
    }
    out.sort();
    out.dedup();
    out
}

/// A subagent's `workspace.path` resolved like `mainWorkspace.resolve(p).normalize()`.
pub fn subagent_workspace_dir(config: &Config, subagent: &SubagentDoc) -> Option<PathBuf> {
    let raw = crate::syntax::java::trim(&subagent.workspace_path.as_ref()?.value).to_string();
    if raw.is_empty() {
        return None;
    }
    let path = Path::new(&raw);
    Some(if path.is_absolute() {
        path.to_path_buf()
    } else {
        crate::base::pathutil::normalize_lexically(&config.workspace.join(path))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs(ws: &Workspace) -> Vec<Parsed> {
        let skills = ws.skills.iter().cloned().map(Parsed::Skill);
        let subagents = ws.subagents.iter().cloned().map(Parsed::Subagent);
        let tools = ws.tools.iter().cloned().map(Parsed::Tools);
        skills.chain(subagents).chain(tools).collect()
    }

    fn same_arc(a: &Parsed, b: &Parsed) -> bool {
        match (a, b) {
            (Parsed::Skill(a), Parsed::Skill(b)) => Arc::ptr_eq(a, b),
            (Parsed::Subagent(a), Parsed::Subagent(b)) => Arc::ptr_eq(a, b),
            (Parsed::Tools(a), Parsed::Tools(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// A rebuild under another configuration keeps the document of every file whose place
    /// (location, kind) and content are the same (remote mode and another agent name move no
    /// file), and parses again a file the new configuration places elsewhere.
    #[test]
    fn a_rebuild_keeps_the_documents_of_files_in_the_same_place() {
        let config = Config::defaults_for(Path::new("/p"));
        let ws = config.workspace.clone();
        let skill = "---\nname: a\ndescription: d\n---\nBody\n";
        let mut files = FileSet::new();
        files.insert_dir(ws.clone());
        files.insert_text(ws.join("skills/a/SKILL.md"), skill);
        files.insert_text(ws.join("alice/skills/a/SKILL.md"), skill);
        files.insert_text(
            ws.join("subagents/s.md"),
            "---\ndescription: d\n---\nBody\n",
        );
        files.insert_text(ws.join("tools.json"), "{\"deny\": []}");
        let files = Arc::new(files);
        let env = Arc::new(Env::new());
        let first = Workspace::build(
            Arc::new(config.clone()),
            Vec::new(),
            files.clone(),
            env.clone(),
            None,
        );
        assert_eq!(
            (first.skills.len(), first.subagents.len(), first.tools.len()),
            (2, 1, 1)
        );

        let mut remote = config.clone();
        remote.filesystem.mode = crate::config::FilesystemMode::Remote;
        remote.agent.name = Some("bot".to_string());
        let rebuilt = Workspace::build(
            Arc::new(remote),
            Vec::new(),
            files.clone(),
            env.clone(),
            Some(&first),
        );
        let (before, after) = (docs(&first), docs(&rebuilt));
        assert_eq!(before.len(), after.len());
        assert!(before.iter().zip(&after).all(|(a, b)| same_arc(a, b)));

        // The per-user folder becomes the workspace: its skill is in the shared tree now.
        let moved = Config {
            workspace: ws.join("alice"),
            ..config
        };
        let moved = Arc::new(moved);
        let rebuilt = Workspace::build(
            moved.clone(),
            Vec::new(),
            files.clone(),
            env.clone(),
            Some(&first),
        );
        let fresh = Workspace::build(moved, Vec::new(), files, env, None);
        assert_eq!(rebuilt.skills, fresh.skills);
        let skill = &rebuilt.skills[0];
        assert_eq!(skill.path, ws.join("alice/skills/a/SKILL.md"));
        assert_eq!(skill.location.tree, Tree::Shared);
        assert!(!Arc::ptr_eq(skill, &first.skills[0]));
    }
}
