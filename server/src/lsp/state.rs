//! The language server's state: one `Project` per workspace folder (plus detached projects for
//! files opened outside every folder), each with its configuration, its files (disk + open
//! buffers) and their analysis (`engine::Analysis`, the query database).
//!
//! All mutation happens here, under the one lock the backend holds; readers get `Arc`s of
//! snapshots. An edit sets an input of the database; a refresh asks the database for every
//! file's diagnostics, which re-runs only the queries that read a changed fact, and reports the
//! files whose diagnostics or version changed. A refresh can run without the lock
//! (`RefreshJob`, on a handle of the database): an edit made meanwhile cancels it, and a result
//! computed from older inputs is never merged. Synchronous: no tokio, no LSP types (paths and
//! byte offsets only), so it can be tested and benchmarked without a client.
//!
//! A skill or subagent spec not open in the editor is held by its digest, as `agentws check`
//! holds it (`engine::batch::discover_digested`, `Analysis::digest_read`): no closed source's
//! text stays in memory. What shows a position, an edit or a comment in one reads it again
//! through [`SourceTexts`], which compares it with the digest's hash.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::base::{Diagnostic, Env, FileContent, FileSet};
use crate::check::CheckOptions;
use crate::config::discover::find_project;
use crate::config::{Config, CONFIG_FILE_NAME};
use crate::engine::batch::discover_digested;
use crate::engine::Kept;
use crate::engine::{
    text_hash, Analysis, Change, Digest, Handle, Origin, Outside, SharedReads, SkillsByName,
    WorkspaceDiagnostics,
};
use crate::workspace::catalog::ToolCatalog;
use crate::workspace::discover::{discover_folder, is_below_scanned, same_walk};
use crate::workspace::{layout, Workspace};

/// An open editor buffer.
#[derive(Clone, Debug)]
pub struct OpenDoc {
    pub version: i32,
    pub text: Arc<str>,
}

/// Diagnostics of one snapshot, per file.
pub use crate::engine::DiagnosticsByFile;

/// One project: a workspace folder (or the project of a file opened outside every folder).
pub struct Project {
    /// The workspace folder as the client named it.
    pub root: PathBuf,
    /// True for a project created for a file opened outside every workspace folder.
    pub detached: bool,
    pub config: Arc<Config>,
    config_diagnostics: Vec<Diagnostic>,
    /// Disk content, with open buffers laid over it; a closed source the analysis holds by its
    /// digest has its content's kind only (an empty text), its text is read again where it is
    /// shown ([`SourceTexts`]).
    files: Arc<FileSet>,
    /// The closed sources held by their digest (`engine::Digest`), with what is kept of it here.
    digested: Arc<HashMap<PathBuf, Digested>>,
    /// Disk content of files currently overridden by an open buffer (restored on close; a source
    /// is read again instead, to be held by its digest).
    shadowed: HashMap<PathBuf, Option<FileContent>>,
    /// Walk problems of the last discovery.
    walk_problems: Vec<Diagnostic>,
    /// What the subagents' `workspace.path`s added to `files` from outside the scanned trees
    /// (see [`Project::follow_references`]).
    outside: Outside,
    /// The query database over `files`; `None` until the files are read.
    analysis: Option<Analysis>,
    /// The profile the diagnostics are computed for (the client's `profile` setting).
    options: CheckOptions,
    /// The file set changed in a way the database cannot take one source at a time.
    structure_changed: bool,
    /// The database's layout was set one file or folder at a time (`Change::set_file`,
    /// `Change::set_folder`) since the last sync: the project needs a refresh.
    layout_changed: bool,
    /// Files whose content or version changed since the last refresh.
    edited: BTreeSet<PathBuf>,
    /// Counts the calls that change files, settings or the analysis itself (every database input
    /// is set after one of them): a refresh computed off the project is merged only if none came
    /// in between (a change that sets no input yet, such as a new file, is one too).
    changes: u64,
    /// Files whose diagnostics or version changed since the publisher last asked
    /// (`take_changed`); any refresh may add to it, only the publisher empties it.
    unpublished: BTreeSet<PathBuf>,
    /// Bumped on every refresh that changed something; used as `resultId` and to drop stale
    /// results.
    pub generation: u64,
    /// The rule settings and options the stored diagnostics were settled under
    /// (`check::settle`): when they change, every file is settled again.
    settled_under: Option<(crate::config::rules::RuleSettings, CheckOptions)>,
    /// The full snapshot for requests, built on first use after a change.
    snapshot: Option<Arc<Workspace>>,
    /// The last snapshot while only sources' texts changed since (those listed), so that the
    /// next one asks for those only. It holds no file set: `put` would copy the set otherwise.
    outdated: Option<(Workspace, BTreeSet<PathBuf>)>,
    /// The merged diagnostics of the last refresh, and the query results they were merged from
    /// (compared by identity: a memoised result that did not change is the same `Arc`).
    diagnostics: Arc<DiagnosticsByFile>,
    merged_from: Merged,
    /// A large buffer was closed since the last refresh: once that refresh has let go of its
    /// text, the freed pages are handed back to the system.
    large_buffer_closed: bool,
}

/// A closed buffer at least this large has its memory handed back after the next refresh.
const LARGE_BUFFER_BYTES: usize = 1024 * 1024;

#[derive(Default)]
struct Merged {
    sources: HashMap<PathBuf, Arc<Vec<Diagnostic>>>,
    workspace: Option<WorkspaceDiagnostics>,
    shared: Option<SharedReads>,
}

/// A refresh taken from a project ([`Project::begin_refresh`]) and run without it, so that
/// neither requests nor edits wait for the cross-file rules: an edit that sets an input meanwhile
/// cancels the run, which then returns `None`; a finished run is merged by
/// [`Project::finish_refresh`] only if nothing changed since it was taken.
pub struct RefreshJob {
    changes: u64,
    handle: Handle,
    edited: BTreeSet<PathBuf>,
    known_shared: Option<SharedReads>,
    /// The files were read again since the last refresh (a load, a discovery): every name
    /// group runs again, on every core. A file or folder created or deleted runs one or two,
    /// and asking them all in parallel only spread their verification over the threads.
    reread: bool,
}

/// What a [`RefreshJob`] computed, with no handle on the database left.
pub struct RefreshResult {
    changes: u64,
    edited: BTreeSet<PathBuf>,
    workspace: WorkspaceDiagnostics,
    shared: SharedReads,
    everything: bool,
    asked: Vec<(PathBuf, Arc<Vec<Diagnostic>>)>,
}

impl RefreshJob {
    pub fn run(self) -> Option<RefreshResult> {
        let RefreshJob {
            changes,
            handle,
            edited,
            known_shared,
            reread,
        } = self;
        handle.compute(move |analysis| {
            let workspace = if reread {
                let found = analysis.workspace_diagnostics_on_every_core();
                analysis.prepare_skill_suggestions();
                found
            } else {
                analysis.workspace_diagnostics()
            };
            // A source's diagnostics read the source and the shared reads only: while those
            // are equal, only the edited sources are asked again (a source created or deleted is
            // an edited path too: every file enters and leaves through `put`, or through a
            // reload, which starts over). Otherwise every source is, and a memoised result that
            // did not change is the same `Arc` (one pointer comparison when merged).
            let shared = analysis.shared_reads();
            let everything = known_shared.as_ref() != Some(&shared);
            let asked: Vec<(PathBuf, Arc<Vec<Diagnostic>>)> = if everything {
                analysis
                    .sources()
                    .map(|(path, file)| (path.clone(), analysis.source_diagnostics(file)))
                    .collect()
            } else {
                edited
                    .iter()
                    .filter_map(|path| {
                        let file = analysis.source(path)?;
                        Some((path.clone(), analysis.source_diagnostics(file)))
                    })
                    .collect()
            };
            RefreshResult {
                changes,
                edited,
                workspace,
                shared,
                everything,
                asked,
            }
        })
    }
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
            files: Arc::new(FileSet::new()),
            digested: Arc::default(),
            shadowed: HashMap::new(),
            walk_problems: Vec::new(),
            outside: Outside::default(),
            analysis: None,
            options: CheckOptions::default(),
            structure_changed: true,
            layout_changed: false,
            edited: BTreeSet::new(),
            changes: 0,
            unpublished: BTreeSet::new(),
            generation: 0,
            settled_under: None,
            snapshot: None,
            outdated: None,
            diagnostics: Arc::new(BTreeMap::new()),
            merged_from: Merged::default(),
            large_buffer_closed: false,
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

    /// True when it loaded the project (its first use, or after a reload).
    fn ensure_loaded(&mut self, env: &Arc<Env>, open: &HashMap<PathBuf, OpenDoc>) -> bool {
        if self.analysis.is_some() {
            return false;
        }
        // Each closed source digested as the walk reads it, its text dropped, as `agentws check`
        // reads a project (`engine::batch::load_digested`).
        let config = self.options.configure(self.config.clone());
        // The prompt facts kept: the previews render the prompt.
        let (discovered, mut digests) =
            discover_digested(&config, env, self.options, Kept::PromptFacts);
        self.files = Arc::new(discovered.files);
        self.digested = Arc::new(
            (digests.iter())
                .map(|(path, digest)| (path.clone(), Digested::of(digest)))
                .collect(),
        );
        self.walk_problems = discovered.problems;
        self.outside = Outside::default();
        self.shadowed.clear();
        for (path, doc) in open {
            if self.contains(path) {
                digests.remove(path);
                self.overlay(path, doc);
            }
        }
        let mut analysis = Analysis::new(
            self.config.clone(),
            Arc::new(self.config_diagnostics.clone()),
            env.clone(),
            self.options,
            &FileSet::new(),
        );
        let mut change = Change::new();
        change.set_digested_files(self.files.clone(), digests);
        analysis.apply_change(change);
        self.analysis = Some(analysis);
        self.structure_changed = false;
        // Every file this project held before may have changed.
        self.edited.extend(self.diagnostics.keys().cloned());
        self.edited
            .extend(self.walk_problems.iter().map(|d| d.path.clone()));
        self.diagnostics = Arc::new(BTreeMap::new());
        self.merged_from = Merged::default();
        self.snapshot = None;
        self.outdated = None;
        true
    }

    /// `agentws.toml` changed on disk: the new configuration over the files already held (kept
    /// current by the watchers) when it reads the same files, so that no file is read or parsed
    /// again; otherwise a full [`Project::reload`].
    pub fn reconfigure(&mut self) {
        let found = find_project(&self.root);
        if !same_walk(&self.config, &found.config) {
            return self.reload();
        }
        let Some(analysis) = &mut self.analysis else {
            return self.reload();
        };
        self.config = Arc::new(found.config);
        self.config_diagnostics = found.diagnostics;
        let mut change = Change::new();
        change.set_config(
            self.config.clone(),
            Arc::new(self.config_diagnostics.clone()),
        );
        analysis.apply_change(change);
        self.mark_dirty();
        // The files are placed under the new configuration: every source is asked again.
        self.merged_from.shared = None;
        self.snapshot = None;
        if let Some(file) = self.config.file.clone() {
            self.disk_changed(&file);
        }
    }

    /// Reloads the configuration and every file from disk (after `agentws.toml` changed in a way
    /// that moves what is read, or a folder was created, deleted or renamed).
    pub fn reload(&mut self) {
        let found = find_project(&self.root);
        self.config = Arc::new(found.config);
        self.config_diagnostics = found.diagnostics;
        self.changes += 1;
        self.analysis = None;
        self.snapshot = None;
        self.outdated = None;
    }

    /// Puts `content` at `path` in the file set and tells the database; a request still holding
    /// the old snapshot keeps its own copy.
    fn put(
        &mut self,
        path: &Path,
        content: Option<FileContent>,
        version: Option<i32>,
        origin: Origin,
    ) {
        self.put_held(path, content, version, origin, None);
    }

    /// [`Project::put`], of a source held by `digest` (then `content` is its kind only) when given.
    fn put_held(
        &mut self,
        path: &Path,
        content: Option<FileContent>,
        version: Option<i32>,
        origin: Origin,
        digest: Option<Arc<Digest>>,
    ) {
        self.outdate_snapshot();
        self.changes += 1;
        self.edited.insert(path.to_path_buf());
        match &digest {
            Some(digest) => {
                let held = Digested::of(digest);
                Arc::make_mut(&mut self.digested).insert(path.to_path_buf(), held);
            }
            None if self.digested.contains_key(path) => {
                Arc::make_mut(&mut self.digested).remove(path);
            }
            None => {}
        }
        let files = Arc::make_mut(&mut self.files);
        match content {
            Some(content) => files.insert(path.to_path_buf(), content, version),
            None => {
                files.remove(path);
            }
        }
        // One file's change, whatever it is (a source's or tools.json's text, a file appearing or
        // going), patches the request snapshot (`outdated`): only that file's document can have
        // changed, the rest is the analysis's as it is (`Analysis::snapshot_patched`), so a
        // preview after the change does not gather every document of the project again.
        let patchable = match &mut self.analysis {
            Some(analysis) => {
                let mut change = Change::new();
                let entry = self.files.get(path).cloned();
                match (digest, entry) {
                    (Some(digest), Some(entry)) => {
                        change.set_digested_file(path.to_path_buf(), entry, digest)
                    }
                    (_, entry) => change.set_file(path.to_path_buf(), entry, origin),
                }
                let applied = analysis.apply_change(change);
                self.layout_changed |= applied.layout;
                true
            }
            None => false,
        };
        match &mut self.outdated {
            Some((_, changed)) if patchable => {
                changed.insert(path.to_path_buf());
            }
            _ => self.outdated = None,
        }
    }

    /// Keeps the request snapshot as the one to patch (`outdated`), without its file set: so
    /// that changing the file set does not copy its eleven thousand entries while the snapshot
    /// holds them (unless a request still holds that snapshot).
    fn outdate_snapshot(&mut self) {
        if let Some(snapshot) = self.snapshot.take() {
            let mut workspace =
                Arc::try_unwrap(snapshot).unwrap_or_else(|shared| (*shared).clone());
            workspace.files = Arc::new(FileSet::new());
            self.outdated = Some((workspace, BTreeSet::new()));
        }
    }

    fn overlay(&mut self, path: &Path, doc: &OpenDoc) {
        if !self.shadowed.contains_key(path) {
            let disk = self.files.get(path).map(|e| e.content.clone());
            self.shadowed.insert(path.to_path_buf(), disk);
        }
        let content = FileContent::from_buffer(doc.text.clone());
        self.put(path, Some(content), Some(doc.version), Origin::Buffer);
    }

    /// An open buffer's text replaces the file.
    pub fn set_open(&mut self, path: &Path, doc: &OpenDoc) {
        if self.analysis.is_some() {
            self.overlay(path, doc);
        }
    }

    /// A buffer was closed: the file goes back to its disk content.
    pub fn set_closed(&mut self, path: &Path) {
        if let Some(disk) = self.shadowed.remove(path) {
            let source = (self.analysis.as_ref()).is_some_and(|a| a.source(path).is_some());
            match disk {
                // A source is read again, to be held by its digest.
                Some(content) if !source => self.put(path, Some(content), None, Origin::Disk),
                // Or the file did not exist on disk when it was opened; look again.
                _ => self.read_from_disk(path),
            }
        }
    }

    /// A file changed on disk (not open in the editor).
    pub fn disk_changed(&mut self, path: &Path) {
        if self.analysis.is_none() {
            return;
        }
        if self.shadowed.contains_key(path) {
            // Open in the editor: the buffer wins; remember the new disk content for close.
            let content = read_if_file(path);
            self.shadowed.insert(path.to_path_buf(), content);
            return;
        }
        self.read_from_disk(path);
    }

    /// A watcher's event at `path` (a file or a folder created, changed or deleted on disk),
    /// taken without reading the project again when it can be; false when it must be read
    /// again ([`Project::reload`]).
    pub fn watched_change(&mut self, path: &Path) -> bool {
        if path.is_file() || self.knows_file(path) {
            // One file's change, whatever the event says (a folder's walk may have read it
            // already): the database takes it alone (`Project::put`).
            self.disk_changed(path);
            return true;
        }
        if path.is_dir() {
            return self.knows_dir(path) || self.folder_created(path);
        }
        self.knows_dir(path) && self.folder_deleted(path)
    }

    /// A folder created on disk below a folder the project walks (`skills/`, `subagents/`,
    /// `knowledge/`): its files are put one by one, as a discovery reads them. False when the
    /// project must be read again instead: a folder elsewhere (a per-user folder, a tree's
    /// `skills/` itself), a walk problem, a symbolic link, or more files than one at a time is
    /// worth.
    pub fn folder_created(&mut self, dir: &Path) -> bool {
        if self.analysis.is_none() {
            // Read whole on first use: nothing to add.
            return true;
        }
        if !self.folder_taken_alone(dir) {
            return false;
        }
        let found = discover_folder(&self.config, dir, FILES_ONE_BY_ONE);
        if !found.problems.is_empty() || found.linked || found.files.len() > FILES_ONE_BY_ONE {
            return false;
        }
        self.set_folder(dir, true);
        for (path, content) in found.files {
            if let Some(shadowed) = self.shadowed.get_mut(&path) {
                // Open in the editor: the buffer wins; the disk content is kept for close.
                *shadowed = Some(content);
                continue;
            }
            // Read as a discovery reads it (`discover_folder`): no text where none is needed.
            self.put_read(&path, Some(content));
        }
        // Folders below it that hold no file.
        for below in found.dirs {
            self.set_folder(&below, true);
        }
        true
    }

    /// A folder deleted on disk below a folder the project walks: its files go one by one, then
    /// its folders. False when the project must be read again instead (see
    /// [`Project::folder_created`]).
    pub fn folder_deleted(&mut self, dir: &Path) -> bool {
        if self.analysis.is_none() {
            return true;
        }
        if !self.files.contains_dir(dir) || !self.folder_taken_alone(dir) {
            return false;
        }
        let gone: Vec<PathBuf> = self
            .files
            .files_under(dir)
            .map(|(p, _)| p.clone())
            .collect();
        if gone.len() > FILES_ONE_BY_ONE {
            return false;
        }
        for path in gone {
            if let Some(shadowed) = self.shadowed.get_mut(&path) {
                *shadowed = None;
                continue;
            }
            self.put(&path, None, None, Origin::Disk);
        }
        self.set_folder(dir, false);
        true
    }

    /// Whether a folder created or deleted at `dir` can be taken without reading the project
    /// again: it lies below a walked folder that exists, and no subagent names a path in it
    /// (those files are followed apart, `follow_references`).
    fn folder_taken_alone(&self, dir: &Path) -> bool {
        let below_scanned = layout::locate(&self.config, dir)
            .is_some_and(|location| is_below_scanned(&location.rel));
        let parent_known = dir.parent().is_some_and(|p| self.files.contains_dir(p));
        let added = self.outside.added();
        let referenced = (added.files.iter())
            .chain(&added.dirs)
            .any(|p| p.starts_with(dir));
        below_scanned && parent_known && !referenced
    }

    /// A folder appearing or going in the file set and the database.
    fn set_folder(&mut self, dir: &Path, exists: bool) {
        self.outdate_snapshot();
        let files = Arc::make_mut(&mut self.files);
        match exists {
            true => files.insert_dir(dir.to_path_buf()),
            false => files.remove_dirs_from(dir),
        }
        let changed = match &mut self.analysis {
            Some(analysis) => {
                let mut change = Change::new();
                change.set_folder(dir.to_path_buf(), exists);
                analysis.apply_change(change).layout
            }
            None => false,
        };
        if changed {
            self.changes += 1;
            self.layout_changed = true;
            self.snapshot = None;
            self.outdated = None;
        }
    }

    fn read_from_disk(&mut self, path: &Path) {
        let content = read_if_file(path).map(|content| {
            if self.needs_text(path) {
                content
            } else {
                FileContent::NotLoaded
            }
        });
        self.put_read(path, content);
    }

    /// Puts what was read from disk at `path`: a source the analysis may hold by its digest is
    /// digested and its text dropped, as the indexing's walk does (`Analysis::digest_read`).
    fn put_read(&mut self, path: &Path, content: Option<FileContent>) {
        let read = match (&self.analysis, content) {
            (Some(analysis), Some(content)) => {
                analysis.digest_read(path, content, Kept::PromptFacts)
            }
            (_, content) => return self.put(path, content, None, Origin::Disk),
        };
        match read {
            Ok((kept, digest)) => self.put_held(path, Some(kept), None, Origin::Disk, Some(digest)),
            Err(content) => self.put(path, Some(content), None, Origin::Disk),
        }
    }

    /// The texts of the files as they are now, for what shows a position or an edit in them
    /// ([`SourceTexts`]).
    pub fn texts(&self) -> SourceTexts {
        SourceTexts {
            files: self.files.clone(),
            digested: self.digested.clone(),
            stale: Mutex::default(),
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

    /// True when the project holds `path` as a folder.
    pub fn knows_dir(&self, path: &Path) -> bool {
        self.files.contains_dir(path)
    }

    /// True when the project holds `path` as a file (disk or buffer).
    pub fn knows_file(&self, path: &Path) -> bool {
        self.files.contains_file(path)
    }

    pub fn is_dirty(&self) -> bool {
        self.analysis.is_none()
            || self.structure_changed
            || self.layout_changed
            || !self.edited.is_empty()
    }

    /// The profile the diagnostics are computed for; the files whose diagnostics it changes are
    /// reported by the next refresh like any other change.
    pub fn set_options(&mut self, options: CheckOptions) {
        self.changes += 1;
        let profile = |options: CheckOptions| options.running(&self.config).profile;
        let digestible_changes = profile(options) != profile(self.options);
        self.options = options;
        if self.analysis.is_some() && digestible_changes {
            // Which sources are held by their digest depends on the profile (a strict skill's
            // rules read its text): the files are read again.
            return self.reload();
        }
        if let Some(analysis) = &mut self.analysis {
            let mut change = Change::new();
            change.set_options(options);
            analysis.apply_change(change);
        }
    }

    /// Marks the project for a re-read of its structure (e.g. after a change in a file it does
    /// not hold).
    pub fn mark_dirty(&mut self) {
        self.changes += 1;
        self.structure_changed = true;
        self.outdated = None;
    }

    /// Brings the database's inputs up to date with the files, without computing any
    /// diagnostics; true when the files were read again, whole (the last computed diagnostics
    /// are [`Project::last_diagnostics`]).
    pub fn sync(&mut self, env: &Arc<Env>, open: &HashMap<PathBuf, OpenDoc>) -> bool {
        let loaded = self.ensure_loaded(env, open);
        self.layout_changed = false;
        let structure_changed = self.structure_changed;
        if self.structure_changed {
            let analysis = self.analysis.as_mut().expect("loaded above");
            let Some(digests) = analysis.digests_in_place() else {
                // A digested source is placed or digested otherwise now: read them again.
                self.reload();
                return self.sync(env, open);
            };
            let mut change = Change::new();
            change.set_digested_files(self.files.clone(), digests);
            analysis.apply_change(change);
            self.structure_changed = false;
        }
        let followed = self.follow_references();
        loaded || structure_changed || followed
    }

    /// Puts the folders and AGENTS.md files that the subagents' `workspace.path`s name outside the
    /// scanned trees into the file set, by the call `agentws check` makes
    /// (`Analysis::follow_outside`), and takes out those no subagent names any more. The disk is
    /// read again whenever the list of names changes (a `workspace.path` edited, a subagent added
    /// or removed), not on other edits. True when it changed the file set.
    fn follow_references(&mut self) -> bool {
        let analysis = self.analysis.as_mut().expect("loaded by sync");
        let Some(changed) = analysis.follow_outside(&mut self.files, &mut self.outside) else {
            return false;
        };
        self.edited.extend(changed);
        self.changes += 1;
        self.snapshot = None;
        self.outdated = None;
        true
    }

    /// The diagnostics of every file, brought up to date (the three steps below in one, for a
    /// caller that holds the project throughout).
    pub fn refresh(
        &mut self,
        env: &Arc<Env>,
        open: &HashMap<PathBuf, OpenDoc>,
    ) -> Arc<DiagnosticsByFile> {
        let job = self.begin_refresh(env, open);
        let result = job
            .run()
            .expect("nothing sets an input while the project is borrowed");
        self.finish_refresh(result)
            .expect("the inputs are those the job was taken from")
    }

    /// The work of a refresh, to run without holding the project (see [`RefreshJob`]).
    pub fn begin_refresh(
        &mut self,
        env: &Arc<Env>,
        open: &HashMap<PathBuf, OpenDoc>,
    ) -> RefreshJob {
        let reread = self.sync(env, open);
        let analysis = self.analysis.as_ref().expect("loaded by sync");
        RefreshJob {
            changes: self.changes,
            handle: analysis.handle(),
            edited: self.edited.clone(),
            known_shared: self.merged_from.shared.clone(),
            reread,
        }
    }

    /// Merges a job's results, when the inputs are still those it was computed from (else
    /// `None`: an edit came in between and the next refresh computes from it).
    pub fn finish_refresh(&mut self, result: RefreshResult) -> Option<Arc<DiagnosticsByFile>> {
        let analysis = self.analysis.as_ref()?;
        if self.changes != result.changes {
            return None;
        }
        let freed_buffer = self.large_buffer_closed;
        let RefreshResult {
            edited,
            workspace: fresh_workspace,
            shared,
            everything,
            asked,
            ..
        } = result;
        self.edited.clear();
        let mut changed = edited.clone();
        let old_workspace = self.merged_from.workspace.replace(fresh_workspace.clone());
        match old_workspace {
            Some(old) => changed.extend(fresh_workspace.changed_since(&old)),
            None => changed.extend(fresh_workspace.paths().map(Path::to_path_buf)),
        }
        self.merged_from.shared = Some(shared);
        let known = &mut self.merged_from.sources;
        // Sources that are gone (deleted, or a file of another kind now): only an edited path
        // can be one, unless everything was asked again.
        let gone: Vec<PathBuf> = if everything {
            // Every current source was asked: the known ones not among them are gone (a set
            // rather than a search of the analysis's path-ordered map per known source).
            let current: HashSet<&Path> = asked.iter().map(|(p, _)| p.as_path()).collect();
            known
                .keys()
                .filter(|p| !current.contains(p.as_path()))
                .cloned()
                .collect()
        } else {
            edited
                .iter()
                .filter(|p| known.contains_key(*p) && analysis.source(p).is_none())
                .cloned()
                .collect()
        };
        for path in gone {
            known.remove(&path);
            changed.insert(path);
        }
        for (path, fresh) in asked {
            match known.get_mut(&path) {
                Some(old) if Arc::ptr_eq(old, &fresh) => {}
                // Asked again after a shared read changed (a tools.json edit asks every source),
                // most lists come back equal in a new allocation: not a change to publish.
                Some(old) if **old == *fresh => *old = fresh,
                Some(old) => {
                    *old = fresh;
                    changed.insert(path);
                }
                None => {
                    known.insert(path.clone(), fresh);
                    changed.insert(path);
                }
            }
        }
        let config = analysis.config().clone();
        let options = analysis.requested_options();
        let settings = (config.rules.clone(), options);
        let resettle = self.settled_under.as_ref() != Some(&settings);
        if resettle {
            // Another level or suppression rule applies to every file alike.
            changed.extend(self.diagnostics.keys().cloned());
            changed.extend(self.merged_from.sources.keys().cloned());
            changed.extend(fresh_workspace.paths().map(Path::to_path_buf));
            changed.extend(self.walk_problems.iter().map(|d| d.path.clone()));
            self.settled_under = Some(settings);
        }
        if everything || resettle {
            // A file whose only diagnostic would be an unused suppression comment has no
            // diagnostic to mark it changed.
            changed.extend(
                self.files
                    .iter()
                    .filter(|(_, e)| e.content.text().is_some_and(|t| t.contains("agentws:")))
                    .map(|(p, _)| p.clone()),
            );
            let digested = self.digested.iter();
            changed.extend(digested.filter(|(_, d)| d.comment).map(|(p, _)| p.clone()));
        }
        if !changed.is_empty() {
            self.store_settled(&changed, &fresh_workspace, &config, options);
            self.generation += 1;
            self.unpublished.extend(changed);
        }
        if std::mem::take(&mut self.large_buffer_closed) {
            // The snapshot of the closed buffer's last version goes too (the next request builds
            // one from the files as they are), so that its text is freed with the rest.
            self.outdated = None;
            self.snapshot = None;
        }
        if everything || freed_buffer {
            // Every source was asked again (a first indexing, a re-read, a profile or tool
            // catalog change), or a large buffer was closed: the old results, or its text and
            // what was read of it, have just been freed.
            crate::base::memory::return_free_memory();
        }
        Some(self.diagnostics.clone())
    }

    /// Stores the diagnostics of the `changed` files, merged from the walk's problems, their own
    /// and `workspace`'s, settled (`check::settle`) under `config` and `options`. A digested
    /// source whose text changed on disk since (no watcher's event yet) has its findings dropped
    /// and is taken as a watched change: the next refresh has them for its new text.
    fn store_settled(
        &mut self,
        changed: &BTreeSet<PathBuf>,
        workspace: &WorkspaceDiagnostics,
        config: &Config,
        options: CheckOptions,
    ) {
        let texts = self.texts();
        let by_file = Arc::make_mut(&mut self.diagnostics);
        for path in changed {
            let mut list: Vec<Diagnostic> = self
                .walk_problems
                .iter()
                .filter(|d| d.path == *path)
                .cloned()
                .collect();
            if let Some(own) = self.merged_from.sources.get(path) {
                list.extend(own.iter().cloned());
            }
            list.extend(workspace.of(path).cloned());
            list.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
            list.dedup();
            // Only its suppression comments are read: a digested source without any is not read
            // again.
            let text = match self.digested.get(path) {
                Some(digested) if !digested.comment => None,
                _ => texts.text(path),
            };
            let text = text.as_deref();
            let settled = crate::check::settle::settle_file(config, options, path, text, list);
            store_diagnostics(by_file, path.clone(), settled.reported);
        }
        for path in &texts.take_stale() {
            Arc::make_mut(&mut self.diagnostics).remove(path);
            self.disk_changed(path);
        }
    }

    /// The files whose diagnostics or version changed since the last call (the ones to publish
    /// again; a file published before and unchanged since needs nothing).
    pub fn take_changed(&mut self) -> Vec<PathBuf> {
        std::mem::take(&mut self.unpublished).into_iter().collect()
    }

    /// The files as they are now (disk with the open buffers over it).
    pub fn files(&self) -> &Arc<FileSet> {
        &self.files
    }

    /// The full snapshot of the current files, for requests (built once per change, from the
    /// database's parses; call after `refresh`).
    pub fn snapshot(&mut self) -> Arc<Workspace> {
        if let Some(snapshot) = &self.snapshot {
            return snapshot.clone();
        }
        let analysis = self.analysis.as_ref().expect("loaded");
        let snapshot = Arc::new(match self.outdated.take() {
            Some((previous, changed)) => {
                analysis.snapshot_patched(previous, self.files.clone(), &changed)
            }
            None => analysis.snapshot(self.files.clone()),
        });
        self.snapshot = Some(snapshot.clone());
        snapshot
    }

    /// The tool catalog of the current files (call after `sync`).
    pub fn catalog(&self) -> Arc<ToolCatalog> {
        self.analysis.as_ref().expect("loaded").catalog()
    }

    /// The skills by name group of the current files (call after `sync`).
    pub fn skills_by_name(&self) -> SkillsByName {
        self.analysis.as_ref().expect("loaded").skills_by_name()
    }

    /// The diagnostics of the last refresh, without computing any.
    pub fn last_diagnostics(&self) -> Arc<DiagnosticsByFile> {
        self.diagnostics.clone()
    }
}

/// What a project keeps of a closed source's digest: enough to tell whether the file read again
/// is the one digested, and whether its suppression comments must be read.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Digested {
    hash: u64,
    comment: bool,
}

impl Digested {
    fn of(digest: &Digest) -> Digested {
        Digested {
            hash: digest.hash,
            comment: digest.comment,
        }
    }
}

/// The one way to a file's text for what shows a position, an edit or a comment in it (published
/// diagnostics, code actions, locations, renames): the text held (an open buffer, a file that is
/// not a digested source), or, for a closed source held by its digest, the file read again and
/// compared with the digest's hash. A file whose text is not the one digested is recorded as
/// stale ([`SourceTexts::take_stale`]): the caller takes it as a
/// watched change and answers again (`State::take_stale`), so that no finding is shown at
/// positions of another text.
pub struct SourceTexts {
    files: Arc<FileSet>,
    digested: Arc<HashMap<PathBuf, Digested>>,
    stale: Mutex<BTreeSet<PathBuf>>,
}

impl SourceTexts {
    /// The text of the file at `path`, if it is a text (see [`SourceTexts`]).
    pub fn text(&self, path: &Path) -> Option<Arc<str>> {
        let Some(digested) = self.digested.get(path) else {
            return match &self.files.get(path)?.content {
                FileContent::Text(text) => Some(text.clone()),
                _ => None,
            };
        };
        let text = match crate::workspace::discover::read_again(path) {
            FileContent::Text(text) => Some(text),
            _ => None,
        };
        if text.as_deref().map(text_hash) != Some(digested.hash) {
            let mut stale = self.stale.lock().unwrap_or_else(|p| p.into_inner());
            stale.insert(path.to_path_buf());
        }
        text
    }

    /// The files with every digested source's text read again, for what checks them all afresh
    /// (a store's files, checked with the project's: `stored::check_store`).
    pub fn files_with_texts(&self) -> Arc<FileSet> {
        if self.digested.is_empty() {
            return self.files.clone();
        }
        let mut files = (*self.files).clone();
        for path in self.digested.keys() {
            if let Some(text) = self.text(path) {
                files.insert(path.clone(), FileContent::Text(text), None);
            }
        }
        Arc::new(files)
    }

    /// Whether [`SourceTexts::text`] found the file at `path` changed since it was digested.
    pub fn is_stale(&self, path: &Path) -> bool {
        let stale = self.stale.lock().unwrap_or_else(|p| p.into_inner());
        stale.contains(path)
    }

    /// The files found changed since they were digested, forgotten here.
    pub fn take_stale(&self) -> BTreeSet<PathBuf> {
        std::mem::take(&mut *self.stale.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

/// Stores one file's diagnostics in check order, capped as `agentws check` caps them (an empty
/// list removes the file).
fn store_diagnostics(by_file: &mut DiagnosticsByFile, path: PathBuf, mut list: Vec<Diagnostic>) {
    list.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    list.dedup();
    let list = crate::rules::workspace::too_many_problems::cap_per_file(list);
    if list.is_empty() {
        by_file.remove(&path);
    } else {
        by_file.insert(path, list);
    }
}

/// The content of the file at `path`; `None` when nothing or a folder is there. A named pipe,
/// socket or device is not opened (`FileContent::NotRegular`, reported like in the CLI).
fn read_if_file(path: &Path) -> Option<FileContent> {
    FileContent::read_existing(path)
}

/// The most files a folder created or deleted may hold for its files to be taken one by one; a
/// larger one (a tree copied in) reads the project again, in one walk.
const FILES_ONE_BY_ONE: usize = 64;

/// The folders and configuration file by which a project owns paths ([`Project::contains`],
/// [`Project::specificity`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ProjectScope {
    config_file: Option<PathBuf>,
    folders: [PathBuf; 3],
    detached: bool,
}

/// Every project and open buffer of the server.
pub struct State {
    pub projects: Vec<Project>,
    pub open: HashMap<PathBuf, OpenDoc>,
    pub env: Arc<Env>,
    /// The profile every project's diagnostics are computed for.
    options: CheckOptions,
}

impl State {
    pub fn new(env: Env) -> State {
        State {
            projects: Vec::new(),
            open: HashMap::new(),
            env: Arc::new(env),
            options: CheckOptions::default(),
        }
    }

    /// The profile every project is checked under.
    pub fn options(&self) -> CheckOptions {
        self.options
    }

    /// The profile for every project, present and future.
    pub fn set_options(&mut self, options: CheckOptions) {
        self.options = options;
        for project in &mut self.projects {
            project.set_options(options);
        }
    }

    pub fn add_folder(&mut self, root: PathBuf) {
        if self.projects.iter().any(|p| p.root == root && !p.detached) {
            return;
        }
        let mut project = Project::new(root, false);
        project.set_options(self.options);
        self.projects.push(project);
    }

    pub fn remove_folder(&mut self, root: &Path) {
        self.projects.retain(|p| p.detached || p.root != root);
    }

    /// What decides which project owns a path ([`State::project_of`]): while it stays equal, no
    /// path changes owner.
    pub fn project_scopes(&self) -> Vec<ProjectScope> {
        let scope = |p: &Project| ProjectScope {
            config_file: p.config.file.clone(),
            folders: [
                p.config.workspace.clone(),
                p.config.project.clone(),
                p.root.clone(),
            ],
            detached: p.detached,
        };
        self.projects.iter().map(scope).collect()
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
            project.set_options(self.options);
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

    /// Takes the files found changed on disk since they were digested ([`SourceTexts::take_stale`])
    /// as watched changes: each is read again and digested, and its diagnostics are computed
    /// again by the next refresh. True when there were any, so that what was answered from their
    /// texts is answered again.
    pub fn take_stale(&mut self, texts: &SourceTexts) -> bool {
        let stale = texts.take_stale();
        for path in &stale {
            for project in self.projects.iter_mut().filter(|p| p.contains(path)) {
                project.disk_changed(path);
            }
        }
        !stale.is_empty()
    }

    /// Closes a buffer. Returns the detached projects that no longer hold an open buffer (removed;
    /// their diagnostics must be cleared).
    pub fn close(&mut self, path: &Path) -> Vec<Project> {
        let closed = self.open.remove(path);
        let large = closed.is_some_and(|doc| doc.text.len() >= LARGE_BUFFER_BYTES);
        for project in &mut self.projects {
            if project.contains(path) {
                project.set_closed(path);
                project.large_buffer_closed |= large;
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

#[cfg(test)]
#[path = "state_tests.rs"]
mod tests;
