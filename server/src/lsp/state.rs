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

use crate::base::{Diagnostic, Env, FileContent, FileEntry, FileSet};
use crate::check::cross::check_references_in;
use crate::check::files::check_workspace_level;
use crate::check::loading::Contexts;
use crate::check::skills::check as skills_check;
use crate::check::tools::check_in as tools_check_in;
use crate::check::{check_workspace, file_local_diagnostics, CheckOptions};
use crate::config::discover::find_project;
use crate::config::{Config, CONFIG_FILE_NAME};
use crate::workspace::catalog::ToolCatalog;
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

/// Which files' diagnostics a refresh may have changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Touched {
    /// Any file's.
    All,
    /// Only these files'.
    Only(Vec<PathBuf>),
}

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
    /// What changed since the last rebuild.
    pending: Pending,
}

/// Changes since the last rebuild, as far as the incremental path cares.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Pending {
    Nothing,
    /// Only new texts of this one file.
    TextOf(PathBuf),
    /// Anything else: rebuild and re-check everything.
    Structural,
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
            pending: Pending::Structural,
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
        self.note_change(None);
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
        let was_text = matches!(
            self.files.get(path).map(|e| &e.content),
            Some(FileContent::Text(_))
        );
        if !self.shadowed.contains_key(path) {
            let disk = self.files.get(path).map(|e| e.content.clone());
            self.shadowed.insert(path.to_path_buf(), disk);
        }
        let content = FileContent::from_buffer(doc.text.clone());
        // The incremental path only handles one text replacing another.
        let text_to_text = was_text && matches!(content, FileContent::Text(_));
        self.files
            .insert(path.to_path_buf(), content, Some(doc.version));
        self.note_change(text_to_text.then_some(path));
    }

    /// Records a change since the last rebuild: `Some(path)` for a new text of a file that already
    /// had one (the incremental path can handle a run of those to one file), `None` for anything
    /// else (files appearing or going, disk changes, configuration).
    fn note_change(&mut self, text_of: Option<&Path>) {
        self.pending = match (text_of, &self.pending) {
            (Some(path), Pending::Nothing) if !self.dirty => Pending::TextOf(path.to_path_buf()),
            (Some(path), Pending::TextOf(same)) if same == path => Pending::TextOf(same.clone()),
            _ => Pending::Structural,
        };
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
            self.note_change(None);
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
        self.note_change(None);
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
        self.note_change(None);
    }

    /// The current snapshot and its diagnostics, rebuilding when something changed.
    pub fn refresh(
        &mut self,
        env: &Arc<Env>,
        open: &HashMap<PathBuf, OpenDoc>,
    ) -> (Arc<Workspace>, Arc<DiagnosticsByFile>, Touched) {
        self.ensure_loaded(open);
        let touched = match self.refresh_one_skill() {
            Some(path) => Some(vec![path]),
            None => self.refresh_references(),
        };
        if let Some(touched) = touched {
            return (
                self.snapshot
                    .clone()
                    .expect("the incremental path needs a snapshot"),
                self.diagnostics.clone(),
                Touched::Only(touched),
            );
        }
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
            self.pending = Pending::Nothing;
        }
        (
            self.snapshot.clone().expect("built above"),
            self.diagnostics.clone(),
            Touched::All,
        )
    }

    /// The incremental path for the common edit: new texts of one SKILL.md whose name, load
    /// outcome and name position stay the same. Only that skill is parsed again and only its own
    /// diagnostics are recomputed; every other file's diagnostics cannot change (the cross-file
    /// rules see a skill only through those facts). Returns the one touched file, or `None` when
    /// the full rebuild is needed.
    fn refresh_one_skill(&mut self) -> Option<PathBuf> {
        let Pending::TextOf(path) = &self.pending else {
            return None;
        };
        let path = path.clone();
        let entry = self.files.get(&path)?.clone();
        let previous = self.snapshot.take()?;
        if !self.dirty || previous.kind_of(&path) != Some(layout::FileKind::Skill) {
            self.snapshot = Some(previous);
            return None;
        }
        // `allowed-tools` is reported once per workspace, at the first skill that sets it.
        let facts = |ws: &Workspace| {
            ws.skill(&path).map(|d| {
                (
                    d.name.clone(),
                    d.outcome.is_ok(),
                    d.name_range,
                    d.opening_range,
                    d.entry("allowed-tools").is_some(),
                )
            })
        };
        let catalog = ToolCatalog::for_workspace(&previous);
        let stale = file_local_diagnostics(&previous, &path, &catalog);
        let old_facts = facts(&previous);
        let (next, reparsed) = with_one_file_changed(previous, &path, entry);
        let same_facts = reparsed && facts(&next) == old_facts;
        self.snapshot = Some(Arc::new(next));
        if !same_facts {
            // The full rebuild follows; the updated snapshot lets it reuse every document.
            return None;
        }
        let next = self.snapshot.as_deref().expect("just set");
        let mut list: Vec<Diagnostic> = self
            .diagnostics
            .get(&path)
            .map(|l| l.iter().filter(|d| !stale.contains(d)).cloned().collect())
            .unwrap_or_default();
        list.extend(file_local_diagnostics(next, &path, &catalog));
        // The once-per-workspace `allowed-tools` info may sit in this file, at a moved key.
        list.retain(|d| d.code != crate::rules::skill::SK025.code);
        list.extend(skills_check(next).into_iter().filter(|d| d.path == path));
        store_diagnostics(Arc::make_mut(&mut self.diagnostics), path.clone(), list);
        self.mark_refreshed();
        Some(path)
    }

    /// The incremental path for new texts of one tools.json or one subagent spec (a subagent's
    /// load outcome and frontmatter position unchanged; for tools.json, the same registered tools
    /// removed, so no prompt text's mention changes). Those files are parsed again and the
    /// diagnostics of every file the change can reach — the tools.json files and all subagent
    /// specs — are recomputed from the same passes a full check runs. Returns the touched files,
    /// or `None` when the full rebuild is needed.
    fn refresh_references(&mut self) -> Option<Vec<PathBuf>> {
        use layout::FileKind::{Subagent, ToolsJson};
        let Pending::TextOf(path) = &self.pending else {
            return None;
        };
        let path = path.clone();
        let kind = self.snapshot.as_ref()?.kind_of(&path);
        if !self.dirty || !matches!(kind, Some(Subagent | ToolsJson)) {
            return None;
        }
        let entry = self.files.get(&path)?.clone();
        let previous = self.snapshot.take()?;
        // What other files' diagnostics see of this change: the subagent's load outcome and
        // frontmatter position, and which registered tools tools.json removes.
        let facts = |ws: &Workspace| {
            let subagent = ws
                .subagent(&path)
                .map(|d| (d.outcome.is_ok(), d.opening_range));
            let catalog = ToolCatalog::for_workspace(ws);
            let effective = catalog.effective_names();
            let removed: Vec<String> = catalog
                .registered_names()
                .into_iter()
                .filter(|n| !effective.contains(n))
                .map(str::to_string)
                .collect();
            (subagent, removed)
        };
        let old = facts(&previous);
        let (next, reparsed) = with_one_file_changed(previous, &path, entry);
        let same = reparsed && facts(&next) == old;
        self.snapshot = Some(Arc::new(next));
        if !same {
            return None;
        }
        let next = self.snapshot.as_deref().expect("just set");
        let catalog = ToolCatalog::for_workspace(next);
        let mut touched: Vec<PathBuf> = next.tools.iter().map(|t| t.path.clone()).collect();
        touched.extend(next.subagents.iter().map(|s| s.path.clone()));
        touched.sort();
        touched.dedup();
        let mut fresh: BTreeMap<PathBuf, Vec<Diagnostic>> =
            touched.iter().map(|p| (p.clone(), Vec::new())).collect();
        let contexts = Contexts::new(next);
        let whole = tools_check_in(next, Some(&contexts))
            .into_iter()
            .chain(check_references_in(next, &catalog, &contexts))
            .chain(check_workspace_level(next))
            .chain(self.walk_problems.iter().cloned());
        for d in whole {
            if let Some(list) = fresh.get_mut(&d.path) {
                list.push(d);
            }
        }
        let by_file = Arc::make_mut(&mut self.diagnostics);
        for (file, mut list) in fresh {
            list.extend(file_local_diagnostics(next, &file, &catalog));
            store_diagnostics(by_file, file, list);
        }
        self.mark_refreshed();
        Some(touched)
    }

    fn mark_refreshed(&mut self) {
        self.generation += 1;
        self.dirty = false;
        self.pending = Pending::Nothing;
    }

    /// The last built snapshot, without rebuilding.
    pub fn last_diagnostics(&self) -> Arc<DiagnosticsByFile> {
        self.diagnostics.clone()
    }
}

/// `previous` with one file's new content, that file parsed again (false when it is not a parsed
/// kind). Since the last rebuild only this file changed, the snapshot's file set equals the
/// project's but for this entry: it is updated in place (copied only while a request still holds
/// the old snapshot) instead of copying every file.
fn with_one_file_changed(
    previous: Arc<Workspace>,
    path: &Path,
    entry: FileEntry,
) -> (Workspace, bool) {
    let mut next = Arc::try_unwrap(previous).unwrap_or_else(|shared| (*shared).clone());
    Arc::make_mut(&mut next.files).insert(path.to_path_buf(), entry.content, entry.version);
    let reparsed = next.reparse_file(path);
    (next, reparsed)
}

/// Stores one file's diagnostics in check order (an empty list removes the file).
fn store_diagnostics(by_file: &mut DiagnosticsByFile, path: PathBuf, mut list: Vec<Diagnostic>) {
    list.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    list.dedup();
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The incremental path must leave exactly the diagnostics a full rebuild computes.
    #[test]
    fn incremental_skill_edits_match_a_full_rebuild() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/realistic");
        let env = Arc::new(Env::new());
        let skill = std::fs::canonicalize(&root)
            .unwrap()
            .join(".agentscope/workspace/skills/release-notes/SKILL.md");
        let original = std::fs::read_to_string(&skill).unwrap();
        let root = std::fs::canonicalize(&root).unwrap();
        let mut project = Project::new(root.clone(), false);
        let mut open = HashMap::new();
        project.refresh(&env, &open);

        let body_edit = format!("{original}\nMention `execute` here, and a stray `yes`.\n");
        let value_edit = original.replacen("description:", "description: Edited —", 1);
        let renamed = original.replacen("name: release-notes", "name: release-notes-2", 1);
        let broken = original.replacen("---", "----", 1);
        let edits = [
            body_edit.as_str(),
            value_edit.as_str(),
            renamed.as_str(),
            broken.as_str(),
            original.as_str(),
        ];
        let mut incremental = 0;
        for (version, text) in edits.iter().enumerate() {
            let doc = OpenDoc {
                version: version as i32 + 1,
                text: Arc::from(*text),
            };
            open.insert(skill.clone(), doc.clone());
            project.set_open(&skill, &doc);
            let (_, diagnostics, touched) = project.refresh(&env, &open);
            if touched != Touched::All {
                incremental += 1;
            }
            let mut fresh = Project::new(root.clone(), false);
            let (_, expected, _) = fresh.refresh(&env, &open);
            assert_eq!(*diagnostics, *expected, "after edit {version}");
        }
        // The body and value edits keep the skill's facts; the rename and the broken opener do
        // not, and neither does the edit after the broken one (its outcome changes back).
        assert_eq!(incremental, 2);
    }

    /// The skill that carries the once-per-workspace `allowed-tools` info (the first that sets
    /// it): an edit that moves its `allowed-tools` line stays incremental and moves the info.
    #[test]
    fn incremental_edit_of_the_skill_carrying_the_allowed_tools_info() {
        let root = std::fs::canonicalize(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/realistic"),
        )
        .unwrap();
        let skill = root.join(".agentscope/workspace/skills/architecture-decision-record/SKILL.md");
        let original = std::fs::read_to_string(&skill).unwrap();
        let env = Arc::new(Env::new());
        let mut project = Project::new(root.clone(), false);
        let mut open = HashMap::new();
        let (_, before, _) = project.refresh(&env, &open);
        let at = |diagnostics: &DiagnosticsByFile| {
            diagnostics[&skill]
                .iter()
                .find(|d| d.code == "SK025")
                .map(|d| d.range.start)
        };
        let first = at(&before).expect("the info is at this skill");
        let moved = original.replacen("license:", "license-note: x\nlicense:", 1);
        let doc = OpenDoc {
            version: 1,
            text: Arc::from(moved.as_str()),
        };
        open.insert(skill.clone(), doc.clone());
        project.set_open(&skill, &doc);
        let (_, diagnostics, touched) = project.refresh(&env, &open);
        assert_eq!(touched, Touched::Only(vec![skill.clone()]));
        assert_eq!(at(&diagnostics), Some(first + "license-note: x\n".len()));
        let mut fresh = Project::new(root, false);
        let (_, expected, _) = fresh.refresh(&env, &open);
        assert_eq!(*diagnostics, *expected);
    }

    /// Edits of tools.json and of a subagent: the reference path must match a full rebuild too.
    #[test]
    fn incremental_tools_and_subagent_edits_match_a_full_rebuild() {
        let root = std::fs::canonicalize(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/realistic"),
        )
        .unwrap();
        let env = Arc::new(Env::new());
        let ws = root.join(".agentscope/workspace");
        let tools = ws.join("tools.json");
        let tools_text = std::fs::read_to_string(&tools).unwrap();
        let subagent = std::fs::read_dir(ws.join("subagents"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == "md"))
            .unwrap();
        let subagent_text = std::fs::read_to_string(&subagent).unwrap();
        let mut project = Project::new(root.clone(), false);
        let mut open = HashMap::new();
        project.refresh(&env, &open);

        let edits: Vec<(&PathBuf, String)> = vec![
            // Allow one more name nobody registers: the same tools are removed.
            (
                &tools,
                tools_text.replacen("\"allow\": [", "\"allow\": [\"not_a_tool\", ", 1),
            ),
            (&tools, tools_text.clone()),
            // A subagent naming a tool that does not exist and a skill that does not exist.
            (
                &subagent,
                subagent_text.replacen(
                    "description:",
                    "tools: [nope_tool]\nskills: [nope-skill]\ndescription:",
                    1,
                ),
            ),
            (&subagent, subagent_text.clone()),
            // Deny read_file: the removed tools change, so the full path runs.
            (
                &tools,
                tools_text.replacen("\"deny\": [", "\"deny\": [\"read_file\", ", 1),
            ),
        ];
        let mut incremental = 0;
        for (version, (path, text)) in edits.into_iter().enumerate() {
            let doc = OpenDoc {
                version: version as i32 + 1,
                text: Arc::from(text.as_str()),
            };
            open.insert(path.clone(), doc.clone());
            project.set_open(path, &doc);
            let (_, diagnostics, touched) = project.refresh(&env, &open);
            if touched != Touched::All {
                incremental += 1;
            }
            let mut fresh = Project::new(root.clone(), false);
            let (_, expected, _) = fresh.refresh(&env, &open);
            assert_eq!(*diagnostics, *expected, "after edit {version}");
        }
        // Every edit but the deny of `read_file` (which changes the removed tools) is incremental.
        assert_eq!(incremental, 4, "{incremental} incremental refreshes");
    }
}
