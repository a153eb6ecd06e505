//! The language server's state: one `Project` per workspace folder (plus detached projects for
//! files opened outside every folder), each with its configuration, its files (disk + open
//! buffers) and the latest immutable snapshot and diagnostics.
//!
//! All mutation happens here, under the one lock the backend holds; readers get `Arc`s of
//! snapshots. Synchronous: no tokio, no LSP types (paths and byte offsets only), so it can be
//! tested and benchmarked without a client.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::base::{Diagnostic, Env, FileContent, FileSet};
use crate::check::{check_workspace, CheckOptions};
use crate::config::discover::find_project;
use crate::config::{Config, CONFIG_FILE_NAME};
use crate::workspace::discover::discover;
use crate::workspace::{layout, Workspace};

/// An open editor buffer.
#[derive(Clone, Debug)]
pub struct OpenDoc {
    pub version: i32,
    pub text: Arc<str>,
}

/// Diagnostics of one snapshot, per file.
pub type DiagnosticsByFile = BTreeMap<PathBuf, Vec<Diagnostic>>;

/// One project: a workspace folder (or the project of a file opened outside every folder).
pub struct Project {
    /// The workspace folder as the client named it.
    pub root: PathBuf,
    /// True for a project created for a file opened outside every workspace folder.
    pub detached: bool,
    pub config: Arc<Config>,
    config_diagnostics: Vec<Diagnostic>,
    /// Disk content, with open buffers laid over it.
    files: FileSet,
    /// Disk content of files currently overridden by an open buffer (restored on close).
    shadowed: HashMap<PathBuf, Option<FileContent>>,
    /// Walk problems of the last discovery.
    walk_problems: Vec<Diagnostic>,
    loaded: bool,
    dirty: bool,
    /// Bumped on every rebuild; used as `resultId` and to drop stale results.
    pub generation: u64,
    snapshot: Option<Arc<Workspace>>,
    diagnostics: Arc<DiagnosticsByFile>,
}

impl Project {
    /// A project for `root`, configuration found as `agentws check` finds it; files are read on
    /// first use.
    pub fn new(root: PathBuf, detached: bool) -> Project {
        let found = find_project(&root);
        Project {
            root,
            detached,
            config: Arc::new(found.config),
            config_diagnostics: found.diagnostics,
            files: FileSet::new(),
            shadowed: HashMap::new(),
            walk_problems: Vec::new(),
            loaded: false,
            dirty: true,
            generation: 0,
            snapshot: None,
            diagnostics: Arc::new(BTreeMap::new()),
        }
    }

    /// True when `path` belongs to this project (its workspace, its project folder, or its
    /// `agentws.toml`).
    pub fn contains(&self, path: &Path) -> bool {
        self.config.file.as_deref() == Some(path)
            || path.starts_with(&self.config.workspace)
            || path.starts_with(&self.config.project)
            || path.starts_with(&self.root)
    }

    /// How specific this project is for `path` (longest matching folder wins).
    pub fn specificity(&self, path: &Path) -> usize {
        [&self.config.workspace, &self.config.project, &self.root]
            .iter()
            .filter(|dir| path.starts_with(dir))
            .map(|dir| dir.components().count())
            .max()
            .unwrap_or(0)
    }

    /// The `agentws.toml` that configures this project, or where it would be created.
    pub fn config_file(&self) -> PathBuf {
        self.config
            .file
            .clone()
            .unwrap_or_else(|| self.root.join(CONFIG_FILE_NAME))
    }

    fn ensure_loaded(&mut self, open: &HashMap<PathBuf, OpenDoc>) {
        if self.loaded {
            return;
        }
        let discovered = discover(&self.config);
        self.files = discovered.files;
        self.walk_problems = discovered.problems;
        self.shadowed.clear();
        self.loaded = true;
        self.dirty = true;
        for (path, doc) in open {
            if self.contains(path) {
                self.overlay(path, doc);
            }
        }
    }

    /// Reloads the configuration and every file from disk (after `agentws.toml` changed, or a
    /// folder was created, deleted or renamed).
    pub fn reload(&mut self, open: &HashMap<PathBuf, OpenDoc>) {
        let found = find_project(&self.root);
        self.config = Arc::new(found.config);
        self.config_diagnostics = found.diagnostics;
        self.loaded = false;
        self.snapshot = None;
        self.ensure_loaded(open);
    }

    fn overlay(&mut self, path: &Path, doc: &OpenDoc) {
        if !self.shadowed.contains_key(path) {
            let disk = self.files.get(path).map(|e| e.content.clone());
            self.shadowed.insert(path.to_path_buf(), disk);
        }
        self.files.insert(
            path.to_path_buf(),
            FileContent::Text(doc.text.clone()),
            Some(doc.version),
        );
        self.dirty = true;
    }

    /// An open buffer's text replaces the file.
    pub fn set_open(&mut self, path: &Path, doc: &OpenDoc) {
        if self.loaded {
            self.overlay(path, doc);
        }
    }

    /// A buffer was closed: the file goes back to its disk content.
    pub fn set_closed(&mut self, path: &Path) {
        if let Some(disk) = self.shadowed.remove(path) {
            match disk {
                Some(content) => self.files.insert(path.to_path_buf(), content, None),
                None => {
                    // The file did not exist on disk when it was opened; look again.
                    self.read_from_disk(path);
                }
            }
            self.dirty = true;
        }
    }

    /// A file changed on disk (not open in the editor).
    pub fn disk_changed(&mut self, path: &Path) {
        if !self.loaded {
            return;
        }
        if self.shadowed.contains_key(path) {
            // Open in the editor: the buffer wins; remember the new disk content for close.
            let content = read_if_file(path);
            self.shadowed.insert(path.to_path_buf(), content);
            return;
        }
        self.read_from_disk(path);
        self.dirty = true;
    }

    fn read_from_disk(&mut self, path: &Path) {
        match read_if_file(path) {
            Some(content) => {
                let content = if self.needs_text(path) {
                    content
                } else {
                    FileContent::NotLoaded
                };
                self.files.insert(path.to_path_buf(), content, None)
            }
            None => {
                self.files.remove(path);
            }
        }
    }

    fn needs_text(&self, path: &Path) -> bool {
        use layout::FileKind::{Knowledge, SkillResource};
        let Some(location) = layout::locate(&self.config, path) else {
            return true;
        };
        !matches!(
            layout::classify(&location, &self.config.agent.additional_context_files),
            Some(Knowledge | SkillResource)
        )
    }

    /// Whether `path` is a file this project reads (known in the snapshot or by layout).
    pub fn is_workspace_file(&self, path: &Path) -> bool {
        if self.config.file.as_deref() == Some(path) {
            return true;
        }
        layout::locate(&self.config, path)
            .and_then(|l| layout::classify(&l, &self.config.agent.additional_context_files))
            .is_some()
    }

    /// True when the project holds `path` as a file (disk or buffer).
    pub fn knows_file(&self, path: &Path) -> bool {
        self.files.contains_file(path)
    }

    pub fn is_dirty(&self) -> bool {
        self.dirty || !self.loaded || self.snapshot.is_none()
    }

    /// Marks the project for a rebuild (e.g. after a change in a file it does not hold).
    pub fn mark_dirty(&mut self) {
        self.dirty = true;
    }

    /// The current snapshot and its diagnostics, rebuilding when something changed.
    pub fn refresh(
        &mut self,
        env: &Arc<Env>,
        open: &HashMap<PathBuf, OpenDoc>,
    ) -> (Arc<Workspace>, Arc<DiagnosticsByFile>) {
        self.ensure_loaded(open);
        if self.dirty || self.snapshot.is_none() {
            let snapshot = Arc::new(Workspace::build(
                self.config.clone(),
                self.config_diagnostics.clone(),
                Arc::new(self.files.clone()),
                env.clone(),
                self.snapshot.as_deref(),
            ));
            let report = check_workspace(&snapshot, CheckOptions::default());
            let mut by_file: DiagnosticsByFile = BTreeMap::new();
            for d in self.walk_problems.iter().chain(&report.diagnostics) {
                by_file.entry(d.path.clone()).or_default().push(d.clone());
            }
            self.snapshot = Some(snapshot);
            self.diagnostics = Arc::new(by_file);
            self.generation += 1;
            self.dirty = false;
        }
        (
            self.snapshot.clone().expect("built above"),
            self.diagnostics.clone(),
        )
    }

    /// The last built snapshot, without rebuilding.
    pub fn last_diagnostics(&self) -> Arc<DiagnosticsByFile> {
        self.diagnostics.clone()
    }
}

fn read_if_file(path: &Path) -> Option<FileContent> {
    let meta = std::fs::metadata(path).ok()?;
    meta.is_file().then(|| FileContent::read(path))
}

/// Every project and open buffer of the server.
pub struct State {
    pub projects: Vec<Project>,
    pub open: HashMap<PathBuf, OpenDoc>,
    pub env: Arc<Env>,
}

impl State {
    pub fn new(env: Env) -> State {
        State {
            projects: Vec::new(),
            open: HashMap::new(),
            env: Arc::new(env),
        }
    }

    pub fn add_folder(&mut self, root: PathBuf) {
        if self.projects.iter().any(|p| p.root == root && !p.detached) {
            return;
        }
        self.projects.push(Project::new(root, false));
    }

    pub fn remove_folder(&mut self, root: &Path) {
        self.projects.retain(|p| p.detached || p.root != root);
    }

    /// Index of the project `path` belongs to, most specific first; workspace folders before
    /// detached projects.
    pub fn project_of(&self, path: &Path) -> Option<usize> {
        self.projects
            .iter()
            .enumerate()
            .filter(|(_, p)| p.contains(path))
            .max_by_key(|(_, p)| (!p.detached, p.specificity(path)))
            .map(|(i, _)| i)
    }

    /// Opens a buffer; a file outside every project gets a detached project of its own.
    pub fn open(&mut self, path: PathBuf, doc: OpenDoc) {
        self.open.insert(path.clone(), doc.clone());
        if self.project_of(&path).is_none() {
            let dir = path.parent().unwrap_or(Path::new("/")).to_path_buf();
            let mut project = Project::new(dir, true);
            let found_root = project.config.project.clone();
            project.root = found_root;
            self.projects.push(project);
        }
        for project in &mut self.projects {
            if project.contains(&path) {
                project.set_open(&path, &doc);
            }
        }
    }

    /// Applies a new buffer text; `false` when `version` is older than what we have (dropped).
    pub fn change(&mut self, path: &Path, version: i32, text: Arc<str>) -> bool {
        let doc = OpenDoc { version, text };
        match self.open.get(path) {
            Some(old) if old.version > version => return false,
            _ => {}
        }
        self.open.insert(path.to_path_buf(), doc.clone());
        for project in &mut self.projects {
            if project.contains(path) {
                project.set_open(path, &doc);
            }
        }
        true
    }

    /// Closes a buffer. Returns the detached projects that no longer hold an open buffer (removed;
    /// their diagnostics must be cleared).
    pub fn close(&mut self, path: &Path) -> Vec<Project> {
        self.open.remove(path);
        for project in &mut self.projects {
            if project.contains(path) {
                project.set_closed(path);
            }
        }
        let open = &self.open;
        let (gone, kept): (Vec<Project>, Vec<Project>) = std::mem::take(&mut self.projects)
            .into_iter()
            .partition(|p| p.detached && !open.keys().any(|o| p.contains(o)));
        self.projects = kept;
        gone
    }
}
