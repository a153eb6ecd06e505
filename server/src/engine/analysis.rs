//! The input manager: [`Analysis`] owns the database and one project's inputs, and
//! [`Analysis::apply_change`] is the one way to change them ([`Change`]: the configuration, the
//! options, every file, one file or one folder). It keeps the inputs in step with the file set
//! without walking it for each change (the layout's spare copy, the buckets cut again around a
//! source created or deleted, settled and unsettled buckets, each disk file's first buffer as a
//! new input).
//!
//! Must not depend on `outside.rs` or `batch.rs`, which build on it.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use salsa::{Durability, Setter};

use super::by_file::WorkspaceDiagnostics;
use super::change::{Applied, Change, Digest, Digests, Edit, Origin};
use super::compose::workspace_diagnostics_on_every_core;
use super::handle::Handle;
use super::inputs::{
    enclosing_skill_folder, has_text_input, in_frame, layout_content, skill_folder_name,
    text_input_at, Database, Kinds, ProjectInput, SkillFolders, SourceBucket, SourceFile,
};
use super::neighbours::{NeighbourMap, SkillsByRel};
use super::partition::{
    bucket_ends_after, name_group_of, BUCKET_SIZE, MAX_BUCKET_SIZE, NAME_GROUPS,
};
use super::project::namespaces;
use super::skills::{name_groups, SkillsByName};
use super::sources::{digest_read, digestible, parsed, Kept};
use super::subagents::referenced_paths;
use super::tools::{catalog, tools_docs};
use crate::base::{Diagnostic, Env, FileContent, FileEntry, FileSet};
use crate::check::CheckOptions;
use crate::config::Config;
use crate::workspace::catalog::ToolCatalog;
use crate::workspace::layout::{FileKind, Location};
use crate::workspace::snapshot::{self, Parsed};
use crate::workspace::Workspace;

/// The most `MEDIUM` buckets kept ([`Analysis::unsettled_buckets`]): few enough that verifying
/// them after a created file stays well under a millisecond, enough that creating and deleting
/// files in a few places does not settle and replace a bucket each time.
pub const MAX_UNSETTLED_BUCKETS: usize = 4;

/// One project's inputs in a database, kept in step with its file set: the bridge from "these
/// files changed" to the queries' inputs. Owns the database, so a project is a value.
pub struct Analysis {
    db: Database,
    project: ProjectInput,
    /// The options the front-end asked for; the project's input holds what the rules run under
    /// (`CheckOptions::running`), and `check::settle` reads these.
    requested: CheckOptions,
    /// The source input of every skill and subagent spec (shared with handles; copied when an
    /// input is added or removed while a handle holds it).
    sources: Arc<BTreeMap<PathBuf, SourceFile>>,
    /// The input of every tools.json.
    tools_files: BTreeMap<PathBuf, SourceFile>,
    /// The layout and kinds before the last ones set, with the one file's or folder's change
    /// that made the last from them (`Analysis::set_file`, `Analysis::set_folder`), or copies of
    /// the last ones a discovery set: the next change applies both to them rather than to
    /// copies, because copying eleven thousand paths per created skill, and freeing the old
    /// ones, was a fifth of its time.
    spare: Option<LayoutCopy>,
    /// Whether a whole discovery copies its layout and kinds as the spare: not for one check,
    /// whose files are all set once (`Analysis::without_spare_copies`).
    copies_spare: bool,
    /// The buckets of `HIGH` durability: those a whole discovery ([`Analysis::set_files`])
    /// made, and those settled again. They are never written (a write reports a change at the
    /// durability the field had, so that every memo of the project is verified again, edge by
    /// edge): one whose sources change is replaced by a bucket of `MEDIUM` durability, which
    /// later changes write.
    settled_buckets: foldhash::HashSet<SourceBucket>,
    /// The `MEDIUM` buckets, the one changed last at the end: every file created or deleted
    /// verifies their memos edge by edge, so at most [`MAX_UNSETTLED_BUCKETS`] are kept, and the
    /// others are settled again (replaced by `HIGH` copies) when the list of buckets changes
    /// anyway. Without that, a created skill's time grew with every bucket a session had touched.
    unsettled_buckets: Vec<SourceBucket>,
    /// The sources a bucket ends after (`bucket_ends_after`), decided when each is added:
    /// hashing every source's path again for each created file was a fifth of its time.
    bucket_ends: foldhash::HashSet<SourceFile>,
    /// Every skill source by its path relative to its tree, for [`ProjectInput::neighbours`].
    skills_by_rel: SkillsByRel<SourceFile>,
    /// The text inputs made for an editor's buffer (`LOW`): a disk file's input is replaced by
    /// one of these at its first buffer ([`Analysis::put_buffer_input`]), not written.
    buffer_inputs: foldhash::HashSet<SourceFile>,
}

/// How [`Analysis::set_file`] or [`Analysis::set_folder`] took one change.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Taken {
    /// A skill's or subagent spec's text replaced another: its input was written.
    SourceText,
    /// A tools.json's text replaced another.
    ToolsText,
    /// The layout was set.
    Layout,
    /// Nothing changed (a folder the layout held already, or did not hold).
    Nothing,
}

/// See [`Analysis::spare`].
struct LayoutCopy {
    layout: Arc<FileSet>,
    kinds: Arc<Kinds>,
    /// `None` for the copies a whole discovery makes ([`Analysis::set_files`]).
    last: Option<LayoutEdit>,
}

/// One file's or folder's change of the layout.
enum LayoutEdit {
    Put(PathBuf, FileEntry),
    Remove(PathBuf),
    /// A folder created (true) or deleted, with what it held.
    Folder(PathBuf, bool),
}

impl LayoutEdit {
    /// The change to a file set: the layout, or the frame.
    fn apply(&self, files: &mut FileSet) {
        match self {
            LayoutEdit::Put(path, entry) => {
                files.insert(path.clone(), entry.content.clone(), entry.version)
            }
            LayoutEdit::Remove(path) => {
                files.remove(path);
            }
            LayoutEdit::Folder(dir, true) => files.insert_dir(dir.clone()),
            LayoutEdit::Folder(dir, false) => files.remove_dirs_from(dir),
        }
    }

    /// The change to the layout's kinds: a file's place, from its path (a folder has none).
    fn apply_to_kinds(&self, config: &Config, kinds: &mut Kinds) {
        match self {
            LayoutEdit::Put(path, _) => {
                if let Some(placed) = snapshot::placed(config, path) {
                    kinds.insert(path.clone(), placed);
                }
            }
            LayoutEdit::Remove(path) => {
                kinds.remove(path);
            }
            LayoutEdit::Folder(..) => {}
        }
    }
}

impl Analysis {
    /// A database for `files` under `config`: a new project to which a [`Change`] setting every
    /// file is applied.
    pub fn new(
        config: Arc<Config>,
        config_diagnostics: Arc<Vec<Diagnostic>>,
        env: Arc<Env>,
        options: CheckOptions,
        files: &FileSet,
    ) -> Analysis {
        let db = Database::default();
        // `MEDIUM` from the start: a write reports a change at the durability the input had.
        let skill_folders = (0..NAME_GROUPS)
            .map(|_| {
                SkillFolders::builder(Arc::new(Default::default()))
                    .durability(Durability::MEDIUM)
                    .new(&db)
            })
            .collect();
        let config = options.configure(config);
        let running = options.running(&config);
        let project = ProjectInput::builder(
            config,
            config_diagnostics,
            env,
            running,
            Arc::new(FileSet::new()),
            Arc::new(Kinds::new()),
            Arc::new(FileSet::new()),
            Arc::new(skill_folders),
            Arc::new(NeighbourMap::default()),
            Arc::new(Vec::new()),
            Arc::new(Vec::new()),
        )
        .durability(Durability::HIGH)
        .new(&db);
        let mut analysis = Analysis {
            db,
            project,
            requested: options,
            sources: Arc::new(BTreeMap::new()),
            tools_files: BTreeMap::new(),
            spare: None,
            copies_spare: true,
            settled_buckets: Default::default(),
            unsettled_buckets: Vec::new(),
            bucket_ends: Default::default(),
            buffer_inputs: Default::default(),
            skills_by_rel: Default::default(),
        };
        let mut change = Change::new();
        change.set_files(Arc::new(files.clone()));
        analysis.apply_change(change);
        analysis
    }

    /// Frees the spare copy of the layout ([`Analysis::spare`]), which only a next created or
    /// deleted file would use: for one check, once its files are all set, so that it holds one
    /// layout, not two.
    pub fn drop_spare_layout(&mut self) {
        self.spare = None;
    }

    /// From now on a whole discovery makes no spare copy of the layout: for one check, which
    /// sets its files once (a file it adds after them copies the layout then).
    pub fn without_spare_copies(&mut self) {
        self.copies_spare = false;
        self.spare = None;
    }

    /// Applies `change` to the inputs: the one way to change them, in the order [`Change`] says.
    /// Queries running on a handle are cancelled, and this waits until every handle is dropped
    /// (see [`Handle`]).
    pub fn apply_change(&mut self, change: Change) -> Applied {
        let Change {
            options,
            config,
            files,
            digests,
            edits,
        } = change;
        let mut applied = Applied {
            layout: false,
            source_texts_only: options.is_none() && config.is_none() && files.is_none(),
        };
        if let Some(options) = options {
            self.set_options(options);
        }
        if let Some((config, diagnostics)) = config {
            self.set_config(config, diagnostics);
        }
        if let Some(files) = files {
            self.set_files(Arc::unwrap_or_clone(files), digests);
            applied.layout = true;
        }
        for edit in edits {
            let taken = match edit {
                Edit::File(path, entry, origin, digest) => {
                    self.set_file(&path, entry.as_ref(), origin, digest)
                }
                Edit::Folder(dir, exists) => match self.set_folder(&dir, exists) {
                    true => Taken::Layout,
                    false => Taken::Nothing,
                },
            };
            applied.layout |= taken == Taken::Layout;
            applied.source_texts_only &= taken == Taken::SourceText;
        }
        applied
    }

    /// Replaces every file (after a discovery): the layout, and a source input per skill and
    /// subagent spec, reusing the inputs of unchanged ones. One walk over the layout in path
    /// order, each source's text moved out of it: no lookup by path (none at all on a first call),
    /// since on 10 000 files the path comparisons of the lookups showed in `agentws check`. A
    /// source in `digests` is held by its digest, its text having been dropped already.
    fn set_files(&mut self, mut layout: FileSet, mut digests: Digests) {
        let config = self.project.config(&self.db).clone();
        let mut sources = Vec::new();
        let mut not_in_frame: Vec<PathBuf> = Vec::new();
        let mut tools_files = BTreeMap::new();
        // The known sources in path order, walked beside the files (in the same order): one
        // comparison of paths per file instead of a search of the map for each.
        let previous = self.sources.clone();
        let mut known_sources = previous.iter().peekable();
        let placed = snapshot::placed_in_order(&config, &layout);
        for ((path, layout_entry), placed) in layout.iter_mut().zip(&placed) {
            let text_input = placed.as_ref().filter(|(_, kind)| has_text_input(*kind));
            let Some((location, kind)) = text_input.cloned() else {
                continue;
            };
            let kept = layout_content(&layout_entry.content);
            if !in_frame(path, Some(kind), &kept) {
                not_in_frame.push(path.clone());
            }
            let entry = FileEntry {
                content: std::mem::replace(&mut layout_entry.content, kept),
                // The layout holds no version either: nothing of a source's changes it.
                version: layout_entry.version.take(),
            };
            let known = match kind {
                FileKind::ToolsJson => self.tools_files.get(path),
                _ => {
                    while known_sources.next_if(|(known, _)| *known < path).is_some() {}
                    known_sources
                        .next_if(|(known, _)| *known == path)
                        .map(|(_, input)| input)
                }
            };
            let digest = match digests.is_empty() {
                true => None,
                false => digests.remove(path),
            };
            let input = match known {
                Some(input)
                    if *input.location(&self.db) == location
                        && input.kind(&self.db) == kind
                        && *input.digest(&self.db) == digest =>
                {
                    if *input.entry(&self.db) != entry {
                        self.buffer_inputs.remove(input);
                        input
                            .set_entry(&mut self.db)
                            .with_durability(Origin::Disk.durability())
                            .to(entry);
                    }
                    *input
                }
                _ => SourceFile::builder(path.clone(), entry, location, kind, self.project, digest)
                    .durability(Origin::Disk.durability())
                    .new(&self.db),
            };
            match kind {
                FileKind::ToolsJson => {
                    tools_files.insert(path.clone(), input);
                }
                _ => sources.push((path.clone(), input)),
            }
        }
        // In path order already: collecting builds the map in one pass.
        self.bucket_ends = sources
            .iter()
            .filter(|(path, _)| bucket_ends_after(path))
            .map(|(_, input)| *input)
            .collect();
        let db = &self.db;
        self.skills_by_rel = SkillsByRel::of(
            sources
                .iter()
                .filter(|(_, input)| input.kind(db) == FileKind::Skill)
                .map(|(_, input)| (input.location(db).rel.as_str(), *input)),
        );
        self.set_neighbours();
        self.sources = Arc::new(sources.into_iter().collect());
        let list: Vec<SourceFile> = tools_files.values().copied().collect();
        if **self.project.tools_files(&self.db) != list {
            self.project
                .set_tools_files(&mut self.db)
                .with_durability(Durability::MEDIUM)
                .to(Arc::new(list));
        }
        self.tools_files = tools_files;
        let db = &self.db;
        let (sources, tools_files) = (&self.sources, &self.tools_files);
        self.buffer_inputs.retain(|input| {
            let path = input.path(db);
            sources.get(path) == Some(input) || tools_files.get(path) == Some(input)
        });
        let (kinds, frame) = rayon::join(
            || snapshot::kinds_of_placed(&layout, placed),
            || frame_of(&config, &layout, &not_in_frame),
        );
        self.set_frame_parts(frame);
        // Copied now, while the whole discovery takes long anyway, rather than by the first
        // created or deleted file, whose time it would be most of.
        let spare = self.copies_spare.then(|| LayoutCopy {
            layout: Arc::new(layout.clone()),
            kinds: Arc::new(kinds.clone()),
            last: None,
        });
        self.set_layout(layout, kinds);
        self.set_buckets(None);
        self.spare = spare;
    }

    /// Sets the frame and the skills' own folders by name group that [`frame_of`] found.
    fn set_frame_parts(&mut self, (frame, by_group): (FileSet, Vec<Vec<PathBuf>>)) {
        for (group, folders) in by_group.into_iter().enumerate() {
            // In path order already: collecting builds the set in one pass.
            self.set_skill_folders(group, folders.into_iter().collect());
        }
        if **self.project.frame(&self.db) != frame {
            self.set_frame(frame);
        }
    }

    /// One file appearing, changing or going (`entry` is `None`), whatever its kind: what
    /// [`Analysis::set_files`] makes of the file set with this one change, without walking the
    /// other files (a created skill walked and compared all 10 000 of them). Returns how it was
    /// taken: the layout is set for anything but one source's or tools.json's text replacing
    /// another.
    fn set_file(
        &mut self,
        path: &Path,
        entry: Option<&FileEntry>,
        origin: Origin,
        digest: Option<Arc<Digest>>,
    ) -> Taken {
        // One source's or tools.json's text replacing another: its input is written.
        if let Some(entry) = entry {
            for (known, taken) in [
                (self.sources.get(path).copied(), Taken::SourceText),
                (self.tools_files.get(path).copied(), Taken::ToolsText),
            ] {
                if let Some(input) = known {
                    if self.set_text_entry(path, input, entry, origin, &digest) {
                        return taken;
                    }
                }
            }
        }
        let config = self.project.config(&self.db).clone();
        let input = text_input_at(&config, path);
        let placed = entry.map(|entry| match &input {
            Some(_) => FileEntry {
                content: layout_content(&entry.content),
                version: None,
            },
            None => entry.clone(),
        });
        let edit = match &placed {
            Some(placed) => LayoutEdit::Put(path.to_path_buf(), placed.clone()),
            None => LayoutEdit::Remove(path.to_path_buf()),
        };
        let (layout, kinds) = self.layout_with(&edit);
        if entry.is_some() {
            self.skill_folder_created(path);
        }
        let mut source_added_or_removed = false;
        self.set_frame_entry(path, input.as_ref().map(|(_, kind)| *kind), placed);
        if let Some((location, kind)) = input {
            match entry {
                Some(entry) => {
                    let known = self.text_inputs(kind).get(path).copied();
                    match known {
                        // Its content's kind changed (a text that became too large, say).
                        Some(file) => self.write_text_input(file, entry, origin, digest),
                        None => {
                            let file =
                                self.new_text_input(path, entry, &location, kind, origin, digest);
                            source_added_or_removed = kind != FileKind::ToolsJson;
                            if self.hold_text_input(path, file, &location, kind) {
                                self.set_neighbours();
                            }
                        }
                    }
                }
                None => {
                    if let Some(file) = self.text_inputs(kind).remove(path) {
                        source_added_or_removed = kind != FileKind::ToolsJson;
                        if self.release_text_input(file, &location, kind) {
                            self.set_neighbours();
                        }
                    }
                }
            }
            if kind == FileKind::ToolsJson {
                self.set_tools_list();
            }
        }
        self.set_layout_by(layout, kinds, edit);
        if source_added_or_removed {
            self.set_buckets(Some(path));
        }
        Taken::Layout
    }

    /// The current layout and kinds with `edit` applied: each built from the spare one when
    /// nothing else holds it, else from a copy of the current one.
    fn layout_with(&mut self, edit: &LayoutEdit) -> (FileSet, Kinds) {
        let config = self.project.config(&self.db).clone();
        let (mut layout, mut kinds) = (None, None);
        if let Some(LayoutCopy {
            layout: spare_layout,
            kinds: spare_kinds,
            last,
        }) = self.spare.take()
        {
            layout = Arc::try_unwrap(spare_layout).ok().map(|mut layout| {
                last.iter().for_each(|last| last.apply(&mut layout));
                layout
            });
            kinds = Arc::try_unwrap(spare_kinds).ok().map(|mut kinds| {
                last.iter()
                    .for_each(|last| last.apply_to_kinds(&config, &mut kinds));
                kinds
            });
        }
        let mut layout = layout.unwrap_or_else(|| (**self.project.layout(&self.db)).clone());
        let mut kinds = kinds.unwrap_or_else(|| (**self.project.kinds(&self.db)).clone());
        edit.apply(&mut layout);
        edit.apply_to_kinds(&config, &mut kinds);
        (layout, kinds)
    }

    /// Sets the layout and kinds that `edit` made, keeping the ones they replace as the spare.
    fn set_layout_by(&mut self, layout: FileSet, kinds: Kinds, edit: LayoutEdit) {
        let (layout, kinds) = self.set_layout(layout, kinds);
        self.spare = Some(LayoutCopy {
            layout,
            kinds,
            last: Some(edit),
        });
    }

    /// A folder created (`exists`) or deleted, whose files are set one by one with
    /// [`Analysis::set_file`] (before it is deleted, after it is created): the folders of the
    /// layout and of the frame. Returns true when they changed.
    fn set_folder(&mut self, dir: &Path, exists: bool) -> bool {
        if self.project.layout(&self.db).contains_dir(dir) == exists {
            return false;
        }
        let config = self.project.config(&self.db).clone();
        let edit = LayoutEdit::Folder(dir.to_path_buf(), exists);
        if exists {
            self.skill_folder_created(dir);
        } else {
            self.skill_folders_deleted(&config, dir);
        }
        let frame = self.project.frame(&self.db);
        let changed_frame = if exists {
            // A skill's own folder stays out of the frame ([`ProjectInput::frame`]) until
            // something else is put in it; the folder holding it is in.
            let in_frame = match skill_folder_name(&config, dir) {
                Some(_) => dir.parent().expect("a skill folder has a parent"),
                None => dir,
            };
            (!frame.contains_dir(in_frame)).then(|| {
                let mut frame = (**frame).clone();
                frame.insert_dir(in_frame.to_path_buf());
                frame
            })
        } else {
            // The skill folder it was in may hold nothing else now.
            let emptied = |frame: &FileSet| {
                dir.parent()
                    .and_then(|parent| enclosing_skill_folder(&config, parent))
                    .filter(|folder| frame.contains_dir(folder) && !frame.holds_anything(folder))
                    .map(Path::to_path_buf)
            };
            // A skill's own folder is not in the frame: its deletion (the frame's files below
            // it are gone already) leaves the frame as it is, found without copying the frame
            // and comparing the copy (most of such a deletion's time).
            let untouched = !frame.contains_dir(dir)
                && frame.dirs_under(dir).next().is_none()
                && !frame.has_links_from(dir)
                && emptied(frame).is_none();
            (!untouched)
                .then(|| {
                    let mut frame = (**frame).clone();
                    edit.apply(&mut frame);
                    if let Some(folder) = emptied(&frame) {
                        frame.remove_dir(&folder);
                    }
                    frame
                })
                .filter(|frame| frame != &**self.project.frame(&self.db))
        };
        if let Some(frame) = changed_frame {
            self.set_frame(frame);
        }
        let (layout, kinds) = self.layout_with(&edit);
        self.set_layout_by(layout, kinds, edit);
        true
    }

    /// Records the skill folder `path` is or lies in, which the layout now holds.
    fn skill_folder_created(&mut self, path: &Path) {
        let config = self.project.config(&self.db).clone();
        let Some(folder) = enclosing_skill_folder(&config, path) else {
            return;
        };
        let name = skill_folder_name(&config, folder).expect("a skill folder");
        let group = name_group_of(name) as usize;
        let folders = self.project.skill_folders(&self.db)[group].folders(&self.db);
        if !folders.contains(folder) {
            let mut folders = (**folders).clone();
            folders.insert(folder.to_path_buf());
            self.set_skill_folders(group, folders);
        }
    }

    /// Forgets the skill folders at or below `dir`, a folder deleted.
    fn skill_folders_deleted(&mut self, config: &Config, dir: &Path) {
        let groups: Vec<usize> = match skill_folder_name(config, dir) {
            Some(name) => vec![name_group_of(name) as usize],
            // Below a skill's folder there is none; above one (`skills/` itself, a user's
            // folder) there may be any.
            None if enclosing_skill_folder(config, dir).is_some() => Vec::new(),
            None => (0..NAME_GROUPS as usize).collect(),
        };
        for group in groups {
            let folders = self.project.skill_folders(&self.db)[group].folders(&self.db);
            if folders.iter().any(|folder| folder.starts_with(dir)) {
                let mut folders = (**folders).clone();
                folders.retain(|folder| !folder.starts_with(dir));
                self.set_skill_folders(group, folders);
            }
        }
    }

    fn set_skill_folders(&mut self, group: usize, folders: std::collections::BTreeSet<PathBuf>) {
        let input = self.project.skill_folders(&self.db)[group];
        if **input.folders(&self.db) != folders {
            input
                .set_folders(&mut self.db)
                .with_durability(Durability::MEDIUM)
                .to(Arc::new(folders));
        }
    }

    /// The frame's part of [`Analysis::set_file`]: set only when the file is one of the frame's,
    /// or a skill's or subagent's text in a folder the frame does not hold yet (for a skill's own
    /// folder, the folder holding it: [`ProjectInput::frame`]).
    fn set_frame_entry(&mut self, path: &Path, kind: Option<FileKind>, placed: Option<FileEntry>) {
        let config = self.project.config(&self.db).clone();
        let frame = self.project.frame(&self.db);
        let placed = placed.filter(|placed| in_frame(path, kind, &placed.content));
        let same_entry = frame.get(path) == placed.as_ref();
        let own_folder = path.parent();
        let skill_folder = own_folder.filter(|folder| skill_folder_name(&config, folder).is_some());
        let folder = match skill_folder {
            Some(skill_folder) => skill_folder.parent(),
            None => own_folder,
        };
        let folder_known = folder.is_none_or(|folder| frame.contains_dir(folder));
        if same_entry && folder_known {
            return;
        }
        let mut frame = (**frame).clone();
        match placed {
            Some(placed) => frame.insert(path.to_path_buf(), placed.content, placed.version),
            None => {
                frame.remove(path);
                if let Some(folder) = folder {
                    frame.insert_dir(folder.to_path_buf());
                }
                // A skill's folder whose one other file this was holds nothing else now.
                if let Some(skill_folder) = skill_folder {
                    if frame.contains_dir(skill_folder) && !frame.holds_anything(skill_folder) {
                        frame.remove_dir(skill_folder);
                    }
                }
            }
        }
        self.set_frame(frame);
    }

    /// Sets the neighbours the skills-by-path index holds, when they differ from the input's.
    fn set_neighbours(&mut self) {
        let neighbours = self.skills_by_rel.neighbours();
        if self.project.neighbours(&self.db) != neighbours {
            self.project
                .set_neighbours(&mut self.db)
                .with_durability(Durability::MEDIUM)
                .to(neighbours.clone());
        }
    }

    fn set_frame(&mut self, frame: FileSet) {
        self.project
            .set_frame(&mut self.db)
            .with_durability(Durability::MEDIUM)
            .to(Arc::new(frame));
    }

    /// Sets the layout and its kinds; returns the ones they replaced. The caller that recorded
    /// its change keeps those as the spare; no other change leaves one.
    fn set_layout(&mut self, layout: FileSet, kinds: Kinds) -> (Arc<FileSet>, Arc<Kinds>) {
        self.spare = None;
        let previous_layout = self
            .project
            .set_layout(&mut self.db)
            .with_durability(Durability::MEDIUM)
            .to(Arc::new(layout));
        let previous_kinds = self
            .project
            .set_kinds(&mut self.db)
            .with_durability(Durability::MEDIUM)
            .to(Arc::new(kinds));
        (previous_layout, previous_kinds)
    }

    /// Puts the sources in buckets (all of them, or those around the one source created or
    /// deleted at `around`: [`Analysis::cut_buckets`]), reusing the bucket inputs in place and
    /// setting only those whose sources changed; a settled bucket whose sources changed is
    /// replaced by one of `MEDIUM` durability ([`Analysis::settled_buckets`]). New buckets are
    /// `HIGH` after a whole discovery (`around` is `None`), else `MEDIUM`.
    fn set_buckets(&mut self, around: Option<&Path>) {
        let new_buckets = match around {
            None => Durability::HIGH,
            Some(_) => Durability::MEDIUM,
        };
        let listed = self.project.buckets(&self.db).clone();
        let (from, chunks, to) = self.cut_buckets(&listed, around);
        // An old bucket is kept for the chunk that ends with the same source: a source created or
        // deleted inside a bucket, or at its start, leaves that bucket's last source as it was.
        let window = &listed[from..to];
        let old: HashMap<SourceFile, SourceBucket> = window
            .iter()
            .filter_map(|bucket| Some((*bucket.sources(&self.db).last()?, *bucket)))
            .collect();
        let mut cut = Vec::with_capacity(chunks.len());
        let mut settled: Vec<SourceBucket> = Vec::new();
        let mut changed: Vec<SourceBucket> = Vec::new();
        for chunk in chunks {
            let last = *chunk.last().expect("not empty");
            let bucket = match old.get(&last) {
                Some(bucket) if **bucket.sources(&self.db) == chunk => {
                    if self.settled_buckets.contains(bucket) {
                        settled.push(*bucket);
                    }
                    *bucket
                }
                Some(bucket) if !self.settled_buckets.contains(bucket) => {
                    bucket
                        .set_sources(&mut self.db)
                        .with_durability(Durability::MEDIUM)
                        .to(Arc::new(chunk));
                    changed.push(*bucket);
                    *bucket
                }
                Some(_) => {
                    let bucket = SourceBucket::builder(Arc::new(chunk))
                        .durability(Durability::MEDIUM)
                        .new(&self.db);
                    changed.push(bucket);
                    bucket
                }
                None => {
                    let bucket = SourceBucket::builder(Arc::new(chunk))
                        .durability(new_buckets)
                        .new(&self.db);
                    if new_buckets == Durability::HIGH {
                        settled.push(bucket);
                    } else {
                        changed.push(bucket);
                    }
                    bucket
                }
            };
            cut.push(bucket);
        }
        for bucket in window {
            self.settled_buckets.remove(bucket);
        }
        self.settled_buckets.extend(settled);
        let list_changes = *window != cut;
        let mut buckets = listed[..from].to_vec();
        buckets.extend(cut);
        buckets.extend_from_slice(&listed[to..]);
        // The unsettled buckets still listed, the ones changed now last.
        let still_listed: foldhash::HashSet<SourceBucket> = buckets.iter().copied().collect();
        let mut unsettled = std::mem::take(&mut self.unsettled_buckets);
        unsettled.retain(|bucket| still_listed.contains(bucket) && !changed.contains(bucket));
        unsettled.extend(changed.iter().copied());
        if list_changes && unsettled.len() > MAX_UNSETTLED_BUCKETS {
            let resettled: Vec<SourceBucket> = unsettled
                .drain(..unsettled.len() - MAX_UNSETTLED_BUCKETS)
                .collect();
            for bucket in buckets.iter_mut().filter(|b| resettled.contains(b)) {
                *bucket = SourceBucket::builder(bucket.sources(&self.db).clone())
                    .durability(Durability::HIGH)
                    .new(&self.db);
                self.settled_buckets.insert(*bucket);
            }
        }
        self.unsettled_buckets = unsettled;
        if list_changes {
            // `LOW`, as a buffer is (see the module's comment on durability).
            self.project
                .set_buckets(&mut self.db)
                .with_durability(Durability::LOW)
                .to(Arc::new(buckets));
        }
    }

    /// The sources cut into chunks again where the buckets `listed[from..to]` were: all of them
    /// when `around` is `None`; else from the bucket that holds (or would hold) the source at
    /// `around` up to the first chunk after it that ends where an old bucket ended, since from
    /// there on the cut is the old one (a bucket's end depends only on the sources from the
    /// previous end). Cutting all 10 000 sources again was a quarter of a created skill's time.
    fn cut_buckets(
        &self,
        listed: &[SourceBucket],
        around: Option<&Path>,
    ) -> (usize, Vec<Vec<SourceFile>>, usize) {
        let db = &self.db;
        let last_path = |bucket: &SourceBucket| -> Option<&Path> {
            Some(bucket.sources(db).last()?.path(db).as_path())
        };
        let from = around.map_or(0, |around| {
            listed.partition_point(|bucket| last_path(bucket).is_some_and(|last| last < around))
        });
        let start = match from
            .checked_sub(1)
            .and_then(|before| last_path(&listed[before]))
        {
            Some(end) => std::ops::Bound::Excluded(end),
            None => std::ops::Bound::Unbounded,
        };
        let mut chunks: Vec<Vec<SourceFile>> = Vec::new();
        let mut chunk: Vec<SourceFile> = Vec::with_capacity(BUCKET_SIZE);
        let mut next_old = from;
        for (path, input) in self
            .sources
            .range::<Path, _>((start, std::ops::Bound::Unbounded))
        {
            chunk.push(*input);
            if !self.bucket_ends.contains(input) && chunk.len() < MAX_BUCKET_SIZE {
                continue;
            }
            chunks.push(std::mem::replace(
                &mut chunk,
                Vec::with_capacity(BUCKET_SIZE),
            ));
            let Some(around) = around else { continue };
            while listed
                .get(next_old)
                .and_then(last_path)
                .is_some_and(|last| last < path.as_path())
            {
                next_old += 1;
            }
            let old_end = listed.get(next_old).and_then(|b| b.sources(db).last());
            if old_end == Some(input) && path.as_path() >= around {
                return (from, chunks, next_old + 1);
            }
        }
        if !chunk.is_empty() {
            chunks.push(chunk);
        }
        (from, chunks, listed.len())
    }

    /// One file's new content for its known text input `input`. Returns false when the change is
    /// not one text replacing another (its content's kind changed, say): [`Analysis::set_file`]
    /// then sets the layout.
    fn set_text_entry(
        &mut self,
        path: &Path,
        input: SourceFile,
        entry: &FileEntry,
        origin: Origin,
        digest: &Option<Arc<Digest>>,
    ) -> bool {
        let before = layout_content(&input.entry(&self.db).content);
        if before != layout_content(&entry.content) {
            return false;
        }
        if input.entry(&self.db) == entry && same_digest(input.digest(&self.db), digest) {
            return true;
        }
        match origin {
            Origin::Buffer if !self.buffer_inputs.contains(&input) => {
                self.put_buffer_input(path, input, entry);
            }
            _ => self.write_text_input(input, entry, origin, digest.clone()),
        }
        true
    }

    /// Writes a text input's entry and digest with `origin`'s durability, and remembers which
    /// inputs are now a buffer's.
    fn write_text_input(
        &mut self,
        input: SourceFile,
        entry: &FileEntry,
        origin: Origin,
        digest: Option<Arc<Digest>>,
    ) {
        match origin {
            Origin::Buffer => self.buffer_inputs.insert(input),
            Origin::Disk => self.buffer_inputs.remove(&input),
        };
        if !same_digest(input.digest(&self.db), &digest) {
            input
                .set_digest(&mut self.db)
                .with_durability(origin.durability())
                .to(digest);
        }
        if input.entry(&self.db) != entry {
            input
                .set_entry(&mut self.db)
                .with_durability(origin.durability())
                .to(entry.clone());
        }
    }

    /// The first buffer of a disk file: a new input of `LOW` durability in place of `input`,
    /// rather than a write of it. A write reports its change at the durability the input had,
    /// `HIGH` for a disk file, so that every `HIGH` memo of the project (each file's parse,
    /// facts and mentions) was verified again, edge by edge, on the first `didOpen` of each
    /// file. A new input changes the lists that hold it instead
    /// (its bucket, or the tools.json list: `MEDIUM`), as a created file does.
    fn put_buffer_input(&mut self, path: &Path, input: SourceFile, entry: &FileEntry) {
        let (location, kind) = (input.location(&self.db).clone(), input.kind(&self.db));
        let file = self.new_text_input(path, entry, &location, kind, Origin::Buffer, None);
        // The new input takes the old one's place in its map, so it is released, not removed.
        let moved = self.release_text_input(input, &location, kind)
            | self.hold_text_input(path, file, &location, kind);
        if moved {
            self.set_neighbours();
        }
        match kind {
            FileKind::ToolsJson => self.set_tools_list(),
            _ => self.set_buckets(Some(path)),
        }
    }

    /// Holds `file` as the text input at `path`: in its map, among the sources that end a bucket
    /// when its path does, and by relative path when it is a skill's. True when the neighbours
    /// changed (the caller sets them).
    fn hold_text_input(
        &mut self,
        path: &Path,
        file: SourceFile,
        location: &Location,
        kind: FileKind,
    ) -> bool {
        self.text_inputs(kind).insert(path.to_path_buf(), file);
        if kind != FileKind::ToolsJson && bucket_ends_after(path) {
            self.bucket_ends.insert(file);
        }
        let db = &self.db;
        kind == FileKind::Skill
            && self
                .skills_by_rel
                .insert(&location.rel, file, |file| file.path(db))
    }

    /// Lets go of a text input its map no longer holds (removed, or replaced there): what
    /// [`Analysis::hold_text_input`] recorded besides the map. True when the neighbours changed.
    fn release_text_input(
        &mut self,
        file: SourceFile,
        location: &Location,
        kind: FileKind,
    ) -> bool {
        self.buffer_inputs.remove(&file);
        self.bucket_ends.remove(&file);
        kind == FileKind::Skill && self.skills_by_rel.remove(&location.rel, file)
    }

    /// A new text input for `path`, of `origin`'s durability (a buffer's is remembered as such),
    /// held by `digest` when given.
    fn new_text_input(
        &mut self,
        path: &Path,
        entry: &FileEntry,
        location: &Location,
        kind: FileKind,
        origin: Origin,
        digest: Option<Arc<Digest>>,
    ) -> SourceFile {
        let file = SourceFile::builder(
            path.to_path_buf(),
            entry.clone(),
            location.clone(),
            kind,
            self.project,
            digest,
        )
        .durability(origin.durability())
        .new(&self.db);
        if origin == Origin::Buffer {
            self.buffer_inputs.insert(file);
        }
        file
    }

    /// The map of text inputs a file of `kind` is kept in.
    fn text_inputs(&mut self, kind: FileKind) -> &mut BTreeMap<PathBuf, SourceFile> {
        match kind {
            FileKind::ToolsJson => &mut self.tools_files,
            _ => Arc::make_mut(&mut self.sources),
        }
    }

    /// Sets the tools.json list from the inputs held.
    fn set_tools_list(&mut self) {
        let list: Vec<SourceFile> = self.tools_files.values().copied().collect();
        self.project
            .set_tools_files(&mut self.db)
            .with_durability(Durability::MEDIUM)
            .to(Arc::new(list));
    }

    /// A new configuration (`agentws.toml` changed). Parses do not read it, so they are kept; the
    /// files are placed under it when every file is set again ([`Analysis::set_files`]).
    fn set_config(&mut self, config: Arc<Config>, config_diagnostics: Arc<Vec<Diagnostic>>) {
        let config = self.requested.configure(config);
        let running = self.requested.running(&config);
        self.project
            .set_config(&mut self.db)
            .with_durability(Durability::HIGH)
            .to(config);
        self.project
            .set_config_diagnostics(&mut self.db)
            .with_durability(Durability::HIGH)
            .to(config_diagnostics);
        self.set_running(running);
    }

    /// The options the diagnostics are asked for (the profile, whether suppressions need a
    /// reason); the rules run under `options.running(config)`.
    fn set_options(&mut self, options: CheckOptions) {
        self.requested = options;
        let running = options.running(self.project.config(&self.db));
        self.set_running(running);
    }

    fn set_running(&mut self, running: CheckOptions) {
        if self.project.options(&self.db) != running {
            self.project
                .set_options(&mut self.db)
                .with_durability(Durability::HIGH)
                .to(running);
        }
    }

    /// The options the front-end asked for ([`Change::set_options`]).
    pub fn requested_options(&self) -> CheckOptions {
        self.requested
    }

    /// The database, for the engine's own batch queries (`batch.rs`), which ask it without a
    /// handle.
    pub(super) fn db(&self) -> &Database {
        &self.db
    }

    /// The project's input in [`Analysis::db`].
    pub(super) fn project(&self) -> ProjectInput {
        self.project
    }

    /// Every skill and subagent spec's input, in path order.
    pub(super) fn sources(&self) -> Vec<SourceFile> {
        self.sources.values().copied().collect()
    }

    /// The project's configuration, as the analysis has it.
    pub fn config(&self) -> &Arc<Config> {
        self.project.config(&self.db)
    }

    /// A handle on the inputs as they are now (see [`Handle`]).
    pub fn handle(&self) -> Handle {
        Handle {
            db: self.db.clone(),
            project: self.project,
            sources: self.sources.clone(),
        }
    }

    /// The source input at `path`, if it is a skill or subagent spec.
    pub fn source(&self, path: &Path) -> Option<SourceFile> {
        self.sources.get(path).copied()
    }

    /// The digest the source at `path` is held by, if its text is not held.
    pub fn digest(&self, path: &Path) -> Option<Arc<Digest>> {
        self.sources.get(path)?.digest(&self.db).clone()
    }

    /// `content`, read from disk at `path`, as this analysis holds it (`sources::digest_read`
    /// under its configuration, running profile and environment, keeping what `kept` says): a
    /// source it may take by its digest becomes its layout content and digest; any other file
    /// comes back as read (`Err`).
    pub fn digest_read(
        &self,
        path: &Path,
        content: FileContent,
        kept: Kept,
    ) -> Result<(FileContent, Arc<Digest>), FileContent> {
        let (db, project) = (&self.db, self.project);
        let profile = project.options(db).profile;
        digest_read(
            project.config(db),
            profile,
            project.env(db),
            path,
            content,
            kept,
        )
        .map(|(kept, digest)| (kept, Arc::new(digest)))
    }

    /// The digests the sources are held by, for setting every file again
    /// ([`Change::set_digested_files`]): `None` when one of them would not be digested as it is
    /// under the configuration and profile now (placed elsewhere, of another kind, or a skill in
    /// the strict profile), so that the files must be read again.
    pub fn digests_in_place(&self) -> Option<Digests> {
        let (db, project) = (&self.db, self.project);
        let (config, profile) = (project.config(db), project.options(db).profile);
        let mut digests = Digests::default();
        for (path, file) in self.sources.iter() {
            let Some(digest) = file.digest(db) else {
                continue;
            };
            let (location, kind) = text_input_at(config, path)?;
            let same = *file.location(db) == location && file.kind(db) == kind;
            (same && digestible(path, kind, &file.entry(db).content, profile)).then_some(())?;
            digests.insert(path.clone(), digest.clone());
        }
        Some(digests)
    }

    pub fn workspace_diagnostics(&self) -> WorkspaceDiagnostics {
        workspace_diagnostics_on_every_core(&self.db, self.project)
    }

    /// See [`referenced_paths`].
    pub fn referenced_paths(&self) -> Arc<Vec<PathBuf>> {
        referenced_paths(&self.db, self.project)
    }

    /// The registered tools and what tools.json does to them (memoised: requests share it).
    pub fn catalog(&self) -> Arc<ToolCatalog> {
        catalog(&self.db, self.project)
    }

    /// The skills by name group (memoised; an edit that changes no skill's name or outcome
    /// leaves it as it was).
    pub fn skills_by_name(&self) -> SkillsByName {
        SkillsByName(name_groups(&self.db, self.project))
    }

    /// `previous`, a snapshot of this analysis, brought to `files` by asking again only for the
    /// sources at `changed`: what [`Analysis::snapshot`] builds, when every change since
    /// `previous` was one file's (`set_file`: a source's text, a file created or deleted; no
    /// folder, configuration or whole discovery), so that no other source's document can have
    /// changed. What the layout decides (the kinds, the per-user folders) and the tools.json
    /// documents are taken as they are now; the skill and subagent documents, ten thousand on a
    /// large project, only at `changed`.
    pub fn snapshot_patched(
        &self,
        previous: Workspace,
        files: Arc<FileSet>,
        changed: &std::collections::BTreeSet<PathBuf>,
    ) -> Workspace {
        let replaced = changed.iter().map(|path| {
            let doc = self.source(path).and_then(|file| parsed(&self.db, file));
            (path.clone(), doc)
        });
        self.snapshot_of(files, previous.into_sources_replaced(replaced))
    }

    /// The full snapshot over `files` (which must be the file set this analysis was given): the
    /// parsed documents of the database, nothing parsed again.
    pub fn snapshot(&self, files: Arc<FileSet>) -> Workspace {
        let sources = self.sources.values();
        self.snapshot_of(files, sources.filter_map(|file| parsed(&self.db, *file)))
    }

    /// The snapshot over `files` of these skill and subagent documents, with what the database
    /// holds now for the rest: the configuration, the environment, tools.json, the layout.
    fn snapshot_of(&self, files: Arc<FileSet>, sources: impl Iterator<Item = Parsed>) -> Workspace {
        let (db, project) = (&self.db, self.project);
        let tools = tools_docs(db, project);
        Workspace::from_parts(
            project.config(db).clone(),
            project.config_diagnostics(db).clone(),
            files,
            project.env(db).clone(),
            sources.chain(tools.iter().cloned().map(Parsed::Tools)),
            project.kinds(db).clone(),
            namespaces(db, project).to_vec(),
        )
    }
}

/// The frame of a whole discovery's `layout` ([`ProjectInput::frame`]: without the texts at
/// `not_in_frame` and the skills' own folders that hold nothing else), and the skills' own
/// folders by name group ([`ProjectInput::skill_folders`]).
fn frame_of(
    config: &Config,
    layout: &FileSet,
    not_in_frame: &[PathBuf],
) -> (FileSet, Vec<Vec<PathBuf>>) {
    let mut frame = layout.without(not_in_frame);
    // One walk over the folders and the frame's files in path order, since what lies below
    // a folder follows it: a lookup per folder compared paths a hundred thousand times.
    let mut by_group = vec![Vec::new(); NAME_GROUPS as usize];
    let mut keep = Vec::new();
    {
        let dirs: Vec<&PathBuf> = frame.dirs().collect();
        let mut files = frame.iter().map(|(path, _)| path).peekable();
        for (at, dir) in dirs.iter().enumerate() {
            let Some(name) = skill_folder_name(config, dir) else {
                keep.push(true);
                continue;
            };
            by_group[name_group_of(name) as usize].push((*dir).clone());
            let holds_folder = dirs.get(at + 1).is_some_and(|next| next.starts_with(dir));
            while files.next_if(|file| file < dir).is_some() {}
            let holds_file = files.peek().is_some_and(|file| file.starts_with(dir));
            keep.push(holds_folder || holds_file);
        }
    }
    let mut keep = keep.into_iter();
    frame.retain_dirs(|_| keep.next().unwrap_or(true));
    (frame, by_group)
}

#[cfg(test)]
mod tests;

/// Whether a source's digest is `digest`: the same value, most often the same `Arc`.
fn same_digest(held: &Option<Arc<Digest>>, digest: &Option<Arc<Digest>>) -> bool {
    match (held, digest) {
        (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a == b,
        (None, None) => true,
        _ => false,
    }
}
