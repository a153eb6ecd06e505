//! One answer, for a workspace snapshot and one session context, to "what happens to every skill
//! and subagent file" (harness-spec §2.1–2.2, §2.5, §3.1, §6.3, §11.5): loaded (as which id, from
//! which layer, at which position, with which `<files-root>`), shadowed (by which file, and whether
//! the JVM's directory listing decides the winner), not scanned in this context (why), or dropped
//! (which rule).
//!
//! Invariant: no other code decides a loading outcome. The prompt renders the loaded entries, the
//! check reports from the outcomes, the language server's hover reads the winners.
//!
//! The layers that do not depend on the namespace (Layer 3 and the project half of Layer 4; the
//! local-folder subagent scan and the project half of the filesystem scan) are merged once per
//! [`Resolver`]; each context only puts its own upper tree on top, so checking a workspace with
//! many per-user folders costs one full merge plus one small one per folder. A caller that
//! resolves after every edit keeps those merges ([`KeptBase`]) and follows them to the next
//! snapshot.
//!
//! Depends on `base`, `config`, `context` and the workspace documents; never on `check`,
//! `prompt` or `lsp`.

use foldhash::{HashMap, HashMapExt, HashSet};
use std::borrow::Borrow;
use std::hash::Hash;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::Serialize;

use crate::base::TextRange;
use crate::config::FilesystemMode;
use crate::context::{self, EffectiveRoot};
use crate::syntax::java;
use crate::workspace::skill::SkillDoc;
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::{Location, Tree, Workspace};

mod answers;

/// Skill-id source of the Layer 4 repository.
pub const WORKSPACE_NAMESPACED_SOURCE: &str = "workspace-namespaced";
/// The built-in subagent's id.
pub const GENERAL_PURPOSE: &str = "general-purpose";

/// Which repository or scan put an entry into the merge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layer {
    /// Skills, Layer 3: `FileSystemSkillRepository(<ws>/skills)`, direct children, listed in the
    /// JVM's directory order (the preview sorts them in Java `String` order).
    SkillsFolderScan,
    /// Subagents: the local scan of `<ws>/subagents/*.md` (non-recursive, sorted).
    SubagentsFolderScan,
    /// The lower (project folder) half of the filesystem glob: `<project>/skills/**`,
    /// `<project>/subagents/**`.
    ProjectGlob,
    /// The upper half of the filesystem glob: `<ws>/<ns>/…/**`, or `<ws>/…/**` with an empty
    /// namespace, a frozen skill merge, or the sandbox and remote filesystems.
    WorkspaceGlob,
}

/// Why a file exists but no layer of this context reads it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum NotScanned {
    /// Nested below `<ws>/skills/<dir>/` (or `<ws>/subagents/`): the direct scan reads one level,
    /// and the filesystem glob of this context reads `upper` (`None`: the glob is switched off).
    NestedInSharedFolder { upper: Option<Tree> },
    /// The first folder below `skills/` starts with `_` or `.`: the glob skips it.
    HiddenFolder,
    /// The per-user folder of another namespace.
    OtherNamespace { namespace: String },
    /// A per-user folder, and this call's namespace is empty (agent or global scope).
    EmptyNamespace,
    /// A per-user folder, and the skill merge is frozen at build with an empty namespace
    /// (`features.dynamic_skills = false`).
    FrozenMerge,
    /// This filesystem mode does not read the folder (per-user and project folders in sandbox and
    /// remote mode).
    FilesystemMode { mode: FilesystemMode },
    /// `features.default_workspace_skills = false`: no Layer 4 at all.
    WorkspaceRepositoryOff,
    /// The overlay re-reads a project file through its upper layer, which finds `<ws>/<rel>`
    /// (harness-spec §2.2 quirk, Corrections 3): that file is read instead of this one.
    ReadThroughWorkspace { instead: PathBuf },
    /// `features.subagents = false`: no subagent subsystem.
    SubagentsOff,
}

/// The outcome of every skill and subagent file for one context.
pub struct Resolution<'r> {
    resolver: Arc<Resolver<'r>>,
    /// Whether the context's namespace is not empty.
    namespaced: bool,
    /// The tree Layer 4's upper half globs (`None`: Layer 4 is off).
    pub skill_upper: Option<Tree>,
    /// The tree the subagent filesystem scan's upper half globs.
    pub subagent_upper: Tree,
    skills: Arc<Overlay<'r, MergedSkill>>,
    subagents: Arc<SubagentOverlay>,
    files_root_base: Option<Arc<str>>,
}

/// Skill or subagent: the two kinds of file a resolution answers for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    Skill,
    Subagent,
}

/// A loaded entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadedEntry {
    /// `name_source` for skills (the skill-id), the agent id for subagents.
    pub id: String,
    pub layer: Layer,
    /// 0-based place in the merged list (skills) or the agent list (subagents, the built-in at 0).
    pub position: usize,
    /// The `<files-root>` the prompt advertises (skills; raw path, spaces not escaped).
    pub files_root: Option<String>,
    /// Other files of the same name that win instead when the JVM lists the folder differently
    /// (Layer 3 only; the preview picks the last in Java `String` order).
    pub directory_order_ties: Vec<PathBuf>,
    /// Subagents: listed in the agent list (not `hidden`, not `mode: primary`). Skills: true.
    pub listed: bool,
}

/// What happens to one file in one context.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum Outcome {
    Loaded(LoadedEntry),
    /// Scanned and valid, but another file of the same name or id wins. `by` is `None` for the
    /// built-in `general-purpose` subagent.
    Shadowed {
        by: Option<PathBuf>,
        by_directory_order: bool,
    },
    NotScanned(NotScanned),
    /// Scanned, and the runtime rejects it: `rule` is the diagnostic code saying why, `None` when
    /// `agentws check` says nothing of it (a README without frontmatter beside the subagent
    /// specs: documentation, which the runtime drops silently).
    Dropped {
        rule: Option<&'static str>,
        range: TextRange,
    },
}

impl Outcome {
    pub fn is_loaded(&self) -> bool {
        matches!(self, Outcome::Loaded(_))
    }

    /// The rule `agentws check` reports this outcome of the file at `path` under: at the file
    /// itself, or, for a shared skill a per-user one overrides (XR006), at the winner with this
    /// file as related location. `None` for a loaded file and for a drop check says nothing of.
    /// The one choice the preview's notes and `check::loading` both make.
    pub fn rule_code(&self, ws: &Workspace, path: &Path, kind: EntryKind) -> Option<&'static str> {
        match self {
            Outcome::Loaded(_) => None,
            Outcome::NotScanned(reason) => Some(reason.rule_code(kind)),
            Outcome::Dropped { rule, .. } => *rule,
            // The built-in `general-purpose` wins over a file of its name: SA006.
            Outcome::Shadowed { by: None, .. } => match kind {
                EntryKind::Subagent => Some("SA006"),
                EntryKind::Skill => None,
            },
            Outcome::Shadowed { .. } if kind == EntryKind::Subagent => Some("XR007"),
            Outcome::Shadowed {
                by: Some(by),
                by_directory_order,
            } => {
                let per_user = |p: &Path| {
                    ws.skill(p)
                        .is_some_and(|d| matches!(d.location.tree, Tree::Namespace(_)))
                };
                Some(if ws.files.same_real_file(path, by) {
                    "XR016"
                } else if *by_directory_order {
                    "XR012"
                } else if per_user(by) && !per_user(path) {
                    "XR006"
                } else {
                    "XR005"
                })
            }
        }
    }
}

/// Where a loaded skill sits in a context's list, as a key that reads no other name's files.
/// The list is the base merge, each name where the first loadable file of the merge's sequence
/// put it (Layer 3's files in their order, then the project glob's: the `stage`, then the file's
/// path below `skills/` in Java `String` order), then the names the context's upper tree adds,
/// where the first file of its glob put them (stage 2). So a resolution over the skills of some
/// names (with their neighbours) orders those names as the whole workspace's does, and keys
/// taken from resolutions of different name groups compare as their positions in one list do
/// (`Resolution::skills_in_order`; a test holds the keys against the positions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillOrder<'s> {
    stage: u8,
    rel: std::borrow::Cow<'s, str>,
}

impl SkillOrder<'_> {
    /// The key, owning its path: kept past the resolution it came from.
    pub fn into_owned(self) -> SkillOrder<'static> {
        SkillOrder {
            stage: self.stage,
            rel: self.rel.into_owned().into(),
        }
    }
}

impl Ord for SkillOrder<'_> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.stage
            .cmp(&other.stage)
            .then_with(|| java::compare_to(&self.rel, &other.rel))
    }
}

impl PartialOrd for SkillOrder<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// One skill after the per-call merge.
#[derive(Clone, Debug)]
pub struct MergedSkill {
    pub doc: Arc<SkillDoc>,
    /// Repository source (the skill-id suffix), shared by the skills of one repository.
    pub source: Arc<str>,
    /// Served by a `WorkspaceSkillRepository` (files-root under `skills/`), else staged into
    /// `.skills-cache`.
    pub workspace_native: bool,
    pub layer: Layer,
}

/// One entry of the subagent list.
#[derive(Clone, Debug)]
pub struct ListedSubagent {
    pub id: String,
    /// `None` for the built-in `general-purpose`.
    pub doc: Option<Arc<SubagentDoc>>,
    /// `None` for the built-in.
    pub layer: Option<Layer>,
}

impl ListedSubagent {
    /// Listed in the prompt (`hidden != true`, `mode != primary`; the built-in always is).
    pub fn is_visible(&self) -> bool {
        self.doc.as_ref().is_none_or(|d| d.is_visible())
    }
}

/// Skill-id source of Layer 3: `filesystem-<workspaceDirName>_skills`.
pub fn workspace_dir_source(ws: &Workspace) -> String {
    let dir_name = ws
        .config
        .workspace
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("filesystem-{dir_name}_skills")
}

/// True when Layer 4 skips a skill at `rel` below `skills/` (its first segment starts with `_`
/// or `.`: `_drafts`, `.archive`, …).
pub fn is_hidden_below_skills(rel: &str) -> bool {
    rel.starts_with('_') || rel.starts_with('.')
}

/// Whom a context of [`check_contexts`] stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Callers {
    /// Every call: the scope (agent, global) gives every call the empty namespace.
    EveryCall,
    /// Any user (or session) without a per-user folder: a namespace no folder has.
    AnyUser,
    /// The calls whose namespace is this existing per-user (or per-session) folder.
    Folder(String),
}

/// A namespace no folder can have (`_…` names are never namespace folders).
pub const REPRESENTATIVE_NAMESPACE: &str = "_agentws-any-user";

/// The contexts `agentws check` evaluates (harness-spec §6.1): the configured scope and filesystem
/// mode, for a representative caller (a namespace no folder has) and for each per-user or
/// per-session folder of the workspace; under the agent and global scopes the one empty
/// namespace. Contexts the context rules refuse (a folder name that is not a valid id) are
/// skipped.
pub fn check_contexts(ws: &Workspace) -> Vec<(Callers, EffectiveRoot)> {
    check_contexts_of(&ws.config, &ws.namespaces)
}

/// [`check_contexts`] of a configuration and the per-user folders its workspace holds.
pub fn check_contexts_of(
    config: &crate::config::Config,
    namespaces: &[String],
) -> Vec<(Callers, EffectiveRoot)> {
    use crate::config::Scope;
    let make = |id: &str| {
        let mut ctx = context::SessionContext::from_config(config);
        ctx.session_id = Some(id.to_string());
        if config.scope == Scope::User {
            ctx.user_id = Some(id.to_string());
        }
        context::effective_root(config, &ctx)
            .or_else(|_| {
                ctx.sandbox_root = crate::config::DEFAULT_SANDBOX_ROOT.to_string();
                context::effective_root(config, &ctx)
            })
            .ok()
    };
    match config.scope {
        Scope::Agent | Scope::Global => make(REPRESENTATIVE_NAMESPACE)
            .map(|root| (Callers::EveryCall, root))
            .into_iter()
            .collect(),
        Scope::User | Scope::Session => make(REPRESENTATIVE_NAMESPACE)
            .map(|root| (Callers::AnyUser, root))
            .into_iter()
            .chain(
                namespaces
                    .iter()
                    .filter_map(|ns| make(ns).map(|root| (Callers::Folder(ns.clone()), root))),
            )
            .collect(),
    }
}

/// The resolution of `root`'s context (one merge; use a [`Resolver`] for several contexts).
pub fn resolve<'a>(ws: &'a Workspace, root: &EffectiveRoot) -> Resolution<'a> {
    Arc::new(Resolver::new(ws, root.filesystem)).resolve(root)
}

/// [`resolve`] on the base `kept` holds, followed to `ws` ([`KeptBase`]).
pub fn resolve_kept<'a>(
    ws: &'a Workspace,
    root: &EffectiveRoot,
    kept: &mut KeptBase,
) -> Resolution<'a> {
    kept.resolver(ws, root.filesystem).resolve(root)
}

// ---------------------------------------------------------------------------------------------
// Merges

/// "Later wins, keeping the first position" over an insertion-ordered map. A context's overlay
/// keys it by the resolved workspace's names, borrowed (`&str`: a merge of ten thousand skills
/// copied each one); the kept [`Base`] owns its keys.
struct Merge<K, T> {
    entries: Vec<T>,
    index: HashMap<K, usize>,
}

impl<K, T> Default for Merge<K, T> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
            index: HashMap::new(),
        }
    }
}

impl<K: Borrow<str> + Hash + Eq, T> Merge<K, T> {
    fn reserve(&mut self, additional: usize) {
        self.entries.reserve(additional);
        self.index.reserve(additional);
    }

    /// Puts `entry` under `key`, hashing the key once; the entry it replaced, if any.
    fn put(&mut self, key: K, entry: T) -> Option<T> {
        use std::collections::hash_map::Entry;
        match self.index.entry(key) {
            Entry::Occupied(at) => Some(std::mem::replace(&mut self.entries[*at.get()], entry)),
            Entry::Vacant(at) => {
                at.insert(self.entries.len());
                self.entries.push(entry);
                None
            }
        }
    }

    fn position(&self, key: &str) -> Option<usize> {
        self.index.get(key).copied()
    }
}

/// A context's upper tree put on top of the shared base merge.
struct Overlay<'k, T> {
    replaced: HashMap<usize, T>,
    appended: Merge<&'k str, T>,
    /// Per appended entry, the path below `skills/` of the file that put its name first
    /// (`SkillOrder`).
    appended_first: Vec<&'k str>,
}

impl<T> Default for Overlay<'_, T> {
    fn default() -> Self {
        Self {
            replaced: HashMap::new(),
            appended: Merge::default(),
            appended_first: Vec::new(),
        }
    }
}

impl<'k, T> Overlay<'k, T> {
    /// Puts `entry` under `key`, from the file at `rel` below `skills/`.
    fn put<K: Borrow<str> + Hash + Eq>(
        &mut self,
        base: &Merge<K, T>,
        key: &'k str,
        rel: &'k str,
        entry: T,
    ) {
        if self.appended.index.contains_key(key) {
            self.appended.put(key, entry);
        } else if let Some(i) = base.position(key) {
            self.replaced.insert(i, entry);
        } else {
            self.appended.put(key, entry);
            self.appended_first.push(rel);
        }
    }

    fn get<'s, K: Borrow<str> + Hash + Eq>(
        &'s self,
        base: &'s Merge<K, T>,
        key: &str,
    ) -> Option<(usize, &'s T)> {
        if let Some(i) = self.appended.position(key) {
            return Some((base.entries.len() + i, &self.appended.entries[i]));
        }
        let i = base.position(key)?;
        Some((i, self.replaced.get(&i).unwrap_or(&base.entries[i])))
    }

    fn iter<'s, K>(&'s self, base: &'s Merge<K, T>) -> impl Iterator<Item = &'s T> + 's {
        base.entries
            .iter()
            .enumerate()
            .map(|(i, e)| self.replaced.get(&i).unwrap_or(e))
            .chain(self.appended.entries.iter())
    }
}

/// Subagent list: dynamic mode merges like skills; static mode keeps every build-time entry and
/// appends only names not yet present.
struct SubagentList {
    /// Entries in list order (the built-in first).
    entries: Vec<ListedSubagent>,
    /// First entry of each id.
    index: HashMap<String, usize>,
}

// ---------------------------------------------------------------------------------------------
// Resolver

/// The merges that do not depend on the namespace, for one workspace's files and one filesystem
/// mode: Layer 3 with the project half of Layer 4, and the lower half of the subagent list. It
/// owns what it holds (the documents' `Arc`s, the names), so that a [`KeptBase`] can keep it from
/// one snapshot to the next.
struct Base {
    filesystem: FilesystemMode,
    layout: FileLayout,
    /// The skill-id source of Layer 3 (`filesystem-<dir>_skills`).
    layer3_source: Arc<str>,
    skills: BaseMerge,
    /// The loadable Layer 3 files of each name two or more of them have (directory order
    /// decides), in path order.
    shared_ties: HashMap<Box<str>, Vec<PathBuf>>,
    /// The project half of Layer 4's files, in its order, by their paths below `skills/`: the
    /// second part of the merge's sequence (`SkillOrder`).
    project_glob: Vec<Box<str>>,
    subagents: SubagentList,
}

/// The base skill merge, with what taking one file's name out of it or putting one in needs.
/// The merge puts a sequence of files (Layer 3's, then the project glob's); an entry sits where
/// its name was first put.
#[derive(Default)]
struct BaseMerge {
    merge: Merge<Box<str>, MergedSkill>,
    /// Per entry, the position in the sequence of the file that put its name first: ascending.
    first: Vec<usize>,
    /// Per entry, how many files of the sequence put its name.
    puts: Vec<u32>,
}

impl BaseMerge {
    fn reserve(&mut self, additional: usize) {
        self.merge.reserve(additional);
        self.first.reserve(additional);
        self.puts.reserve(additional);
    }

    /// Puts the entry of the `at`-th file of the sequence; the entry it replaced, if any.
    fn put(&mut self, name: &str, at: usize, entry: MergedSkill) -> Option<MergedSkill> {
        let replaced = self.merge.put(name.into(), entry);
        match replaced {
            Some(_) => self.puts[self.merge.index[name]] += 1,
            None => {
                self.first.push(at);
                self.puts.push(1);
            }
        }
        replaced
    }

    /// Takes out the entry at `index`, which one file put.
    fn take_out(&mut self, name: &str, index: usize) {
        self.merge.index.remove(name);
        self.merge.entries.remove(index);
        self.first.remove(index);
        self.puts.remove(index);
        for i in self.merge.index.values_mut() {
            if *i > index {
                *i -= 1;
            }
        }
    }

    /// Puts the entry of a name no file puts yet, from the `at`-th file of the sequence.
    fn put_new(&mut self, name: &str, at: usize, entry: MergedSkill) {
        let index = self.first.partition_point(|&f| f < at);
        for i in self.merge.index.values_mut() {
            if *i >= index {
                *i += 1;
            }
        }
        self.merge.index.insert(name.into(), index);
        self.merge.entries.insert(index, entry);
        self.first.insert(index, at);
        self.puts.insert(index, 1);
    }
}

impl Base {
    fn of(ws: &Workspace, filesystem: FilesystemMode, layout: FileLayout) -> Self {
        let config = &ws.config;
        let layer3_source: Arc<str> = workspace_dir_source(ws).into();
        // Layer 3, then the project half of Layer 4.
        let mut skills = BaseMerge::default();
        let mut shared_ties: HashMap<Box<str>, Vec<PathBuf>> = HashMap::new();
        if ws.files.contains_dir(&config.workspace.join("skills")) {
            skills.reserve(layout.layer3.len());
            for (at, doc) in layout.layer3.iter().map(|&i| &ws.skills[i]).enumerate() {
                if let (true, Some(name)) = (skill_loadable(doc), &doc.name) {
                    // Only Layer 3 has put names so far: one already there is a tie.
                    let put = skill(doc, &layer3_source, Layer::SkillsFolderScan);
                    if let Some(tied) = skills.put(name, at, put) {
                        shared_ties
                            .entry(name.as_str().into())
                            .or_insert_with(|| vec![tied.doc.path.clone()])
                            .push(doc.path.clone());
                    }
                }
            }
        }
        let mut project_glob = Vec::new();
        if project_glob_on(ws, filesystem) {
            let namespaced: Arc<str> = WORKSPACE_NAMESPACED_SOURCE.into();
            let project = tree_docs(&layout.skills_by_tree, &Tree::Project, &ws.skills);
            let glob = project_skill_glob(ws, &project);
            for (at, (rel, doc)) in glob.into_iter().enumerate() {
                project_glob.push(rel.into());
                if let (true, Some(name)) = (skill_loadable(doc), &doc.name) {
                    let put = skill(doc, &namespaced, Layer::ProjectGlob);
                    skills.put(name, layout.layer3.len() + at, put);
                }
            }
        }
        let subagents = base_subagents(ws, filesystem, &layout);
        Self {
            filesystem,
            layout,
            layer3_source,
            skills,
            shared_ties,
            project_glob,
            subagents,
        }
    }

    /// The order key of base entry `index`: where in the merge's sequence its name was first
    /// put (`ws` is the workspace the base was built or followed to).
    fn order_of<'s>(&'s self, ws: &'s Workspace, index: usize) -> SkillOrder<'s> {
        let at = self.skills.first[index];
        match self.layout.layer3.get(at) {
            Some(&k) => SkillOrder {
                stage: 0,
                rel: layer3_rel(&ws.skills[k]).unwrap_or_default().into(),
            },
            None => SkillOrder {
                stage: 1,
                rel: self
                    .project_glob
                    .get(at - self.layout.layer3.len())
                    .map_or("", |rel| rel)
                    .into(),
            },
        }
    }

    /// Follows the skill at position `i` of `ws` from `held` (the document the base was built
    /// or last followed with, at the same location) to the one `ws` holds now. False when the
    /// change is not one this can follow: the base must be built again.
    fn follow_skill(&mut self, ws: &Workspace, i: usize, held: &Arc<SkillDoc>) -> bool {
        let now = &ws.skills[i];
        let (was, is) = (loadable_name(held), loadable_name(now));
        if was == is {
            // Same name, same loadability: the entry that holds the file, if any, holds it now.
            if let Some(at) = is.and_then(|name| self.skills.merge.position(name)) {
                let entry = &mut self.skills.merge.entries[at];
                if Arc::ptr_eq(&entry.doc, held) {
                    entry.doc = now.clone();
                }
            }
            return true;
        }
        // A name that came or went. The project glob puts a file under its own path or its
        // shared twin's, so neither is followed here.
        if self.project_glob_reads(ws, now) {
            return false;
        }
        let Some(at) = self.layout.layer3.iter().position(|&j| j == i) else {
            // Not in Layer 3 either: the base does not hold it.
            return true;
        };
        if !ws.files.contains_dir(&ws.config.workspace.join("skills")) {
            return false;
        }
        if let Some(name) = was {
            // Only a name this one file put is taken out; a tie's winner would change.
            match self.skills.merge.position(name) {
                Some(index) if self.skills.puts[index] == 1 => self.skills.take_out(name, index),
                _ => return false,
            }
        }
        if let Some(name) = is {
            if self.skills.merge.position(name).is_some() {
                return false;
            }
            let put = skill(now, &self.layer3_source, Layer::SkillsFolderScan);
            self.skills.put_new(name, at, put);
        }
        true
    }

    /// Whether the project half of Layer 4 reads `doc`'s place: a project file, or a shared one
    /// whose project twin it puts instead.
    fn project_glob_reads(&self, ws: &Workspace, doc: &SkillDoc) -> bool {
        project_glob_on(ws, self.filesystem)
            && (doc.location.tree == Tree::Project
                || ws
                    .skill(&ws.path_in(&Tree::Project, &doc.location.rel))
                    .is_some())
    }

    /// Follows the base to the skill file at position `k` of `ws`, just created: the layout's
    /// positions, and its name put in when Layer 3 globs it. False when the base cannot follow
    /// it (the name is in the merge already: a tie or an override; the project glob reads it).
    fn follow_inserted_skill(&mut self, ws: &Workspace, k: usize) -> bool {
        let doc = &ws.skills[k];
        let name = loadable_name(doc);
        if self.project_glob_reads(ws, doc)
            || name.is_some_and(|name| self.skills.merge.position(name).is_some())
        {
            return false;
        }
        let Some(at) = self.layout.skill_inserted(ws, k) else {
            return true;
        };
        // Every file from its place on in the merge's sequence moved up one.
        shift_for_inserted(&mut self.skills.first, at);
        if let (Some(name), true) = (name, has_skills_dir(ws)) {
            let put = skill(doc, &self.layer3_source, Layer::SkillsFolderScan);
            self.skills.put_new(name, at, put);
        }
        true
    }

    /// Follows the base to `held`, the skill file at position `k` of the kept list, just
    /// deleted: its name taken out when it put it alone, and the layout's positions. False when
    /// the base cannot follow it (a tie's winner would change; the project glob read it).
    fn follow_removed_skill(&mut self, ws: &Workspace, k: usize, held: &Arc<SkillDoc>) -> bool {
        if self.project_glob_reads(ws, held) {
            return false;
        }
        let in_layer3 = layer3_rel(held).is_some();
        if let (Some(name), true) = (loadable_name(held), in_layer3 && has_skills_dir(ws)) {
            match self.skills.merge.position(name) {
                Some(index)
                    if self.skills.puts[index] == 1
                        && Arc::ptr_eq(&self.skills.merge.entries[index].doc, held) =>
                {
                    self.skills.take_out(name, index);
                }
                _ => return false,
            }
        }
        if let Some(at) = self.layout.skill_removed(k) {
            // Every file after its place in the merge's sequence moved down one (its own entry
            // was taken out above).
            shift_for_removed(&mut self.skills.first, at);
        }
        true
    }

    /// Follows the subagents at `changed` positions of `ws` from `held`: their entries hold the
    /// new documents, or the list is built again when an id or a loadability changed.
    fn follow_subagents(&mut self, ws: &Workspace, changed: &[usize], held: &[Arc<SubagentDoc>]) {
        let same_entries = changed.iter().all(|&i| {
            let (was, now) = (&held[i], &ws.subagents[i]);
            subagent_loadable(was) == subagent_loadable(now) && was.id == now.id
        });
        if !same_entries {
            self.subagents = base_subagents(ws, self.filesystem, &self.layout);
            return;
        }
        for &i in changed {
            // Static mode can list one id twice: every entry of the file is followed.
            for entry in &mut self.subagents.entries {
                if entry.doc.as_ref().is_some_and(|d| Arc::ptr_eq(d, &held[i])) {
                    entry.doc = Some(ws.subagents[i].clone());
                }
            }
        }
    }
}

/// The name a skill file puts into a merge, when it is loadable.
fn loadable_name(doc: &SkillDoc) -> Option<&str> {
    doc.name.as_deref().filter(|_| skill_loadable(doc))
}

/// Whether the base puts the project half of Layer 4.
fn project_glob_on(ws: &Workspace, filesystem: FilesystemMode) -> bool {
    ws.config.features.default_workspace_skills && filesystem == FilesystemMode::Local
}

/// The lower half of the subagent list, from the files where `layout` puts them.
fn base_subagents(ws: &Workspace, filesystem: FilesystemMode, layout: &FileLayout) -> SubagentList {
    let in_tree = |tree| tree_docs(&layout.subagents_by_tree, tree, &ws.subagents);
    subagent_base(
        ws,
        filesystem,
        &in_tree(&Tree::Shared),
        &in_tree(&Tree::Project),
    )
}

/// The base merges of one workspace and filesystem mode, and the per-tree upper merges, built on
/// demand and shared between contexts.
pub struct Resolver<'a> {
    ws: &'a Workspace,
    filesystem: FilesystemMode,
    /// Each tree's skill and subagent files, in path order: every merge globs one or two trees,
    /// and filtering every file of the workspace per per-user overlay showed with many users.
    skills_by_tree: HashMap<Tree, Vec<&'a Arc<SkillDoc>>>,
    subagents_by_tree: HashMap<Tree, Vec<&'a Arc<SubagentDoc>>>,
    base: Arc<Base>,
    /// The overlays of the upper trees that glob anything (`globs_nothing`), made on demand;
    /// every other context shares the empty ones.
    skill_overlays: Mutex<HashMap<Tree, Arc<Overlay<'a, MergedSkill>>>>,
    subagent_overlays: Mutex<HashMap<Tree, Arc<SubagentOverlay>>>,
    no_skill_overlay: Arc<Overlay<'a, MergedSkill>>,
    no_subagent_overlay: Arc<SubagentOverlay>,
    /// `<files-root>`'s start on a local filesystem with the shell tool: the same for every
    /// context, so made once (a check resolves a hundred contexts per name group).
    local_files_root: Option<Arc<str>>,
}

/// Subagent entries the upper tree adds or replaces.
#[derive(Default)]
struct SubagentOverlay {
    /// Dynamic mode: positions replaced in the base list.
    replaced: HashMap<usize, ListedSubagent>,
    appended: Vec<ListedSubagent>,
    appended_index: HashMap<String, usize>,
}

fn skill_loadable(doc: &SkillDoc) -> bool {
    doc.outcome.is_ok() && doc.name.is_some()
}

fn subagent_loadable(doc: &SubagentDoc) -> bool {
    doc.outcome.is_ok() && !doc.id.is_empty()
}

/// `skills/<rel>` of a document, when it is below `skills/`.
fn below<'d>(rel: &'d str, folder: &str) -> Option<&'d str> {
    rel.strip_prefix(folder)?.strip_prefix('/')
}

/// Where a workspace's skill and subagent files sit, as positions in its lists: what a
/// [`Resolver`] reads of each file's location.
struct FileLayout {
    skills_by_tree: HashMap<Tree, Vec<usize>>,
    subagents_by_tree: HashMap<Tree, Vec<usize>>,
    /// The shared files Layer 3 globs (`skills/<folder>/SKILL.md`), in Java `String` order of
    /// `<folder>/SKILL.md`.
    layer3: Vec<usize>,
}

/// `<folder>/SKILL.md` of a shared file Layer 3 globs (`skills/<folder>/SKILL.md`), by which
/// it sorts in Layer 3's order.
fn layer3_rel(doc: &SkillDoc) -> Option<&str> {
    let rel = below(&doc.location.rel, "skills")?;
    (doc.location.tree == Tree::Shared && has_one_slash(rel)).then_some(rel)
}

/// The overlay of `upper` in a resolver's `cache`, made on the first ask: each tree's once per
/// resolver, and the tree copied only into a new entry (a check resolves a hundred contexts per
/// name group).
fn cached_overlay<K: Hash + Eq + Clone, T>(
    cache: &Mutex<HashMap<K, Arc<T>>>,
    upper: &K,
    make: impl FnOnce(&K) -> T,
) -> Arc<T> {
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(overlay) = cache.get(upper) {
        return overlay.clone();
    }
    let overlay = Arc::new(make(upper));
    cache.insert(upper.clone(), overlay.clone());
    overlay
}

/// Positions into a list of files after one file was put at `k`: those from `k` on move up one.
fn shift_for_inserted(positions: &mut [usize], k: usize) {
    positions
        .iter_mut()
        .filter(|j| **j >= k)
        .for_each(|j| *j += 1);
}

/// Positions into a list of files after the file at `k` was taken out (no position is `k`):
/// those after it move down one.
fn shift_for_removed(positions: &mut [usize], k: usize) {
    positions
        .iter_mut()
        .filter(|j| **j > k)
        .for_each(|j| *j -= 1);
}

impl FileLayout {
    fn of(ws: &Workspace) -> Self {
        let skills_by_tree = by_tree(&ws.skills, |d| &d.location.tree);
        let mut layer3: Vec<(&str, usize)> = docs_in(&skills_by_tree, &Tree::Shared)
            .iter()
            .filter_map(|&i| layer3_rel(&ws.skills[i]).map(|rel| (rel, i)))
            .collect();
        layer3.sort_by(|a, b| java::compare_to(a.0, b.0));
        let layer3 = layer3.into_iter().map(|(_, i)| i).collect();
        Self {
            skills_by_tree,
            subagents_by_tree: by_tree(&ws.subagents, |d| &d.location.tree),
            layer3,
        }
    }

    /// Follows the layout to a skill file put at position `k` of `ws`'s skills (every later one
    /// moves up one); returns its place in Layer 3's order, if Layer 3 globs it.
    fn skill_inserted(&mut self, ws: &Workspace, k: usize) -> Option<usize> {
        let doc = &ws.skills[k];
        for positions in self.skills_by_tree.values_mut() {
            shift_for_inserted(positions, k);
        }
        let tree = self
            .skills_by_tree
            .entry(doc.location.tree.clone())
            .or_default();
        tree.insert(tree.partition_point(|&j| j < k), k);
        shift_for_inserted(&mut self.layer3, k);
        let rel = layer3_rel(doc)?;
        let before = |&j: &usize| {
            let other = layer3_rel(&ws.skills[j]).expect("Layer 3 holds its files");
            java::compare_to(other, rel).is_lt()
        };
        let at = self.layer3.partition_point(before);
        self.layer3.insert(at, k);
        Some(at)
    }

    /// Follows the layout to the skill file at position `k` taken out (every later one moves
    /// down one); returns the place in Layer 3's order it had, if Layer 3 globbed it.
    fn skill_removed(&mut self, k: usize) -> Option<usize> {
        for positions in self.skills_by_tree.values_mut() {
            positions.retain(|&j| j != k);
            shift_for_removed(positions, k);
        }
        let at = self.layer3.iter().position(|&j| j == k);
        if let Some(at) = at {
            self.layer3.remove(at);
        }
        shift_for_removed(&mut self.layer3, k);
        at
    }
}

/// A [`Base`] kept from one snapshot to the next by a caller that resolves again and again (the
/// language server's preview). Most edits change one file's text and leave every file where it
/// was: the kept base then only takes that file's new document, or its name out and its new one
/// in. A skill file created or deleted alone (all else the same documents) is followed too: its
/// name put in or taken out, the positions after it moved. The base is built again when files
/// moved or several came or went, the configuration changed, a name ties with another, or the
/// project glob reads the file.
#[derive(Default)]
pub struct KeptBase {
    kept: Option<Kept>,
}

/// A base and what it was built from: the documents are held so that comparing them by identity
/// is sound.
struct Kept {
    config: Arc<crate::config::Config>,
    skills_dir: bool,
    skills: Vec<Arc<SkillDoc>>,
    subagents: Vec<Arc<SubagentDoc>>,
    base: Arc<Base>,
}

impl KeptBase {
    /// A resolver for `ws` on the kept base, followed to `ws` or built again.
    pub fn resolver<'a>(
        &mut self,
        ws: &'a Workspace,
        filesystem: FilesystemMode,
    ) -> Arc<Resolver<'a>> {
        let followed = self
            .kept
            .as_mut()
            .is_some_and(|kept| kept.follow(ws, filesystem));
        if !followed {
            self.kept = Some(Kept {
                config: ws.config.clone(),
                skills_dir: has_skills_dir(ws),
                skills: ws.skills.clone(),
                subagents: ws.subagents.clone(),
                base: Arc::new(Base::of(ws, filesystem, FileLayout::of(ws))),
            });
        }
        let base = self.kept.as_ref().expect("kept above").base.clone();
        Arc::new(Resolver::on(ws, base))
    }
}

impl Kept {
    /// Follows the base to `ws`; false when it must be built again (it may then be half followed).
    fn follow(&mut self, ws: &Workspace, filesystem: FilesystemMode) -> bool {
        let same_frame = self.base.filesystem == filesystem
            && (Arc::ptr_eq(&self.config, &ws.config) || *self.config == *ws.config)
            && self.skills_dir == has_skills_dir(ws)
            && self.subagents.len() == ws.subagents.len();
        if !same_frame {
            return false;
        }
        if self.skills.len() != ws.skills.len() && !self.follow_one_skill_file(ws) {
            return false;
        }
        // Compared by identity first: a document that did not change is the same `Arc`, and
        // reading ten thousand of them is what keeping the base saves.
        let skills = changed_at(&self.skills, &ws.skills, |d| &d.location);
        let subagents = changed_at(&self.subagents, &ws.subagents, |d| &d.location);
        let (Some(skills), Some(subagents)) = (skills, subagents) else {
            return false;
        };
        if skills.is_empty() && subagents.is_empty() {
            return true;
        }
        let Some(base) = Arc::get_mut(&mut self.base) else {
            return false;
        };
        for &i in &skills {
            if !base.follow_skill(ws, i, &self.skills[i]) {
                return false;
            }
            self.skills[i] = ws.skills[i].clone();
        }
        if !subagents.is_empty() {
            base.follow_subagents(ws, &subagents, &self.subagents);
            for &i in &subagents {
                self.subagents[i] = ws.subagents[i].clone();
            }
        }
        true
    }

    /// Follows the base to one skill file created or deleted, every other document the same
    /// `Arc` in the same order; false when that is not the change or the base cannot follow it.
    fn follow_one_skill_file(&mut self, ws: &Workspace) -> bool {
        let Some(change) = one_more_or_fewer(&self.skills, &ws.skills) else {
            return false;
        };
        let Some(base) = Arc::get_mut(&mut self.base) else {
            return false;
        };
        match change {
            OneMoreOrFewer::Inserted(k) => {
                if !base.follow_inserted_skill(ws, k) {
                    return false;
                }
                self.skills.insert(k, ws.skills[k].clone());
            }
            OneMoreOrFewer::Removed(k) => {
                if !base.follow_removed_skill(ws, k, &self.skills[k]) {
                    return false;
                }
                self.skills.remove(k);
            }
        }
        true
    }
}

/// How one list of documents differs from another by one document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OneMoreOrFewer {
    /// The new list holds one more, at this position.
    Inserted(usize),
    /// The new list lacks the one the old held at this position.
    Removed(usize),
}

/// Where `now` holds one document more or one fewer than `held`, every other the same `Arc` in
/// the same order; `None` for any other difference.
fn one_more_or_fewer<D>(held: &[Arc<D>], now: &[Arc<D>]) -> Option<OneMoreOrFewer> {
    let (short, long, change): (_, _, fn(usize) -> OneMoreOrFewer) = if now.len() == held.len() + 1
    {
        (held, now, OneMoreOrFewer::Inserted)
    } else if held.len() == now.len() + 1 {
        (now, held, OneMoreOrFewer::Removed)
    } else {
        return None;
    };
    let k = short
        .iter()
        .zip(long)
        .position(|(a, b)| !Arc::ptr_eq(a, b))
        .unwrap_or(short.len());
    let rest_same = short[k..]
        .iter()
        .zip(&long[k + 1..])
        .all(|(a, b)| Arc::ptr_eq(a, b));
    rest_same.then(|| change(k))
}

fn has_skills_dir(ws: &Workspace) -> bool {
    ws.files.contains_dir(&ws.config.workspace.join("skills"))
}

/// The positions at which `now` holds another document than `held`, each at the same location;
/// `None` when some location differs (files came, went or moved).
fn changed_at<D>(
    held: &[Arc<D>],
    now: &[Arc<D>],
    location: fn(&D) -> &Location,
) -> Option<Vec<usize>> {
    let mut changed = Vec::new();
    for (i, (a, b)) in held.iter().zip(now).enumerate() {
        if !Arc::ptr_eq(a, b) {
            if location(a) != location(b) {
                return None;
            }
            changed.push(i);
        }
    }
    Some(changed)
}

impl<'a> Resolver<'a> {
    pub fn new(ws: &'a Workspace, filesystem: FilesystemMode) -> Self {
        Self::on(ws, Arc::new(Base::of(ws, filesystem, FileLayout::of(ws))))
    }

    /// A resolver of `ws` on `base`, built from (or followed to) `ws`.
    fn on(ws: &'a Workspace, base: Arc<Base>) -> Self {
        let local_files_root = (base.filesystem == FilesystemMode::Local
            && ws.config.features.shell_tool)
            .then(|| context::display_path(&ws.config.workspace).into());
        Self {
            ws,
            filesystem: base.filesystem,
            skills_by_tree: at_positions(&base.layout.skills_by_tree, &ws.skills),
            subagents_by_tree: at_positions(&base.layout.subagents_by_tree, &ws.subagents),
            base,
            skill_overlays: Mutex::new(HashMap::new()),
            subagent_overlays: Mutex::new(HashMap::new()),
            no_skill_overlay: Arc::default(),
            no_subagent_overlay: Arc::default(),
            local_files_root,
        }
    }

    fn skill_base(&self) -> &Merge<Box<str>, MergedSkill> {
        &self.base.skills.merge
    }

    fn skills_in(&self, tree: &Tree) -> &[&'a Arc<SkillDoc>] {
        docs_in(&self.skills_by_tree, tree)
    }

    fn subagents_in(&self, tree: &Tree) -> &[&'a Arc<SubagentDoc>] {
        docs_in(&self.subagents_by_tree, tree)
    }

    /// The upper tree Layer 4 globs for `root` (`None`: Layer 4 is off).
    fn skill_upper(&self, root: &EffectiveRoot) -> Option<Tree> {
        let features = &self.ws.config.features;
        if !features.default_workspace_skills {
            return None;
        }
        Some(match (self.filesystem, &root.namespace) {
            // `disableDynamicSkills()` freezes the merge at build with an empty namespace.
            (FilesystemMode::Local, Some(ns)) if features.dynamic_skills => {
                Tree::Namespace(ns.clone())
            }
            (FilesystemMode::Remote, Some(ns)) if features.dynamic_skills && self.stored(ns) => {
                Tree::Namespace(ns.clone())
            }
            _ => Tree::Shared,
        })
    }

    /// The upper tree the subagent filesystem scan globs for `root`.
    fn subagent_upper(&self, root: &EffectiveRoot) -> Tree {
        match (self.filesystem, &root.namespace) {
            (FilesystemMode::Local, Some(ns)) => Tree::Namespace(ns.clone()),
            (FilesystemMode::Remote, Some(ns)) if self.stored(ns) => Tree::Namespace(ns.clone()),
            _ => Tree::Shared,
        }
    }

    /// Whether the routed files of namespace `ns` were read from a remote store (docs/stores.md):
    /// the remote overlay then globs the store's entries over the template's.
    fn stored(&self, ns: &str) -> bool {
        self.ws.files.is_stored(&self.ws.config.workspace.join(ns))
    }

    /// The remote overlay's glob: the upper tree's entries, then the template's (`<ws>/…`) whose
    /// path the upper tree does not hold (`OverlayFilesystem.glob`: upper replaces lower by path).
    fn remote_union(&self, upper: &Tree) -> bool {
        self.filesystem == FilesystemMode::Remote && matches!(upper, Tree::Namespace(_))
    }

    /// The resolution of one context (its filesystem mode must be the resolver's).
    pub fn resolve(self: &Arc<Self>, root: &EffectiveRoot) -> Resolution<'a> {
        debug_assert_eq!(root.filesystem, self.filesystem);
        let skill_upper = self.skill_upper(root);
        let skills = match &skill_upper {
            Some(upper) if !self.globs_nothing(upper, self.skills_in(upper)) => {
                cached_overlay(&self.skill_overlays, upper, |upper| {
                    self.skill_overlay(upper)
                })
            }
            _ => self.no_skill_overlay.clone(),
        };
        let subagent_upper = self.subagent_upper(root);
        let subagents = if self.globs_nothing(&subagent_upper, self.subagents_in(&subagent_upper)) {
            self.no_subagent_overlay.clone()
        } else {
            cached_overlay(&self.subagent_overlays, &subagent_upper, |upper| {
                self.subagent_overlay(upper)
            })
        };
        let files_root_base = match root.filesystem {
            FilesystemMode::Local => self.local_files_root.clone(),
            FilesystemMode::Sandbox => Some(root.root.as_str().into()),
            _ => None,
        };
        Resolution {
            resolver: self.clone(),
            namespaced: root.namespace.is_some(),
            skill_upper,
            subagent_upper,
            skills,
            subagents,
            files_root_base,
        }
    }

    /// Whether the overlay of `upper`, whose files are `docs`, holds nothing: none in the tree
    /// and no other tree read. A check resolves a hundred contexts per name group, and most
    /// per-user folders hold none of a group's files: those contexts share one empty overlay
    /// instead of each copying its tree into a cache entry of its own.
    fn globs_nothing<T>(&self, upper: &Tree, docs: &[T]) -> bool {
        docs.is_empty() && !self.remote_union(upper)
    }

    fn skill_overlay(&self, upper: &Tree) -> Overlay<'a, MergedSkill> {
        let mut overlay = Overlay::default();
        let mut glob: Vec<(&str, &Arc<SkillDoc>)> = self
            .skills_in(upper)
            .iter()
            .copied()
            .filter_map(|d| below(&d.location.rel, "skills").map(|rel| (rel, d)))
            .filter(|(rel, _)| !is_hidden_below_skills(rel))
            .collect();
        if self.remote_union(upper) {
            let upper_rels: HashSet<&str> = glob.iter().map(|(r, _)| *r).collect();
            let lower: Vec<(&str, &Arc<SkillDoc>)> = self
                .skills_in(&Tree::Shared)
                .iter()
                .copied()
                .filter_map(|d| below(&d.location.rel, "skills").map(|rel| (rel, d)))
                .filter(|(rel, _)| !is_hidden_below_skills(rel) && !upper_rels.contains(rel))
                .collect();
            glob.extend(lower);
        }
        glob.sort_by(|a, b| java::compare_to(a.0, b.0));
        let namespaced: Arc<str> = WORKSPACE_NAMESPACED_SOURCE.into();
        for (rel, doc) in glob {
            if let (true, Some(name)) = (skill_loadable(doc), &doc.name) {
                overlay.put(
                    self.skill_base(),
                    name,
                    rel,
                    skill(doc, &namespaced, Layer::WorkspaceGlob),
                );
            }
        }
        overlay
    }

    fn subagent_overlay(&self, upper: &Tree) -> SubagentOverlay {
        let mut overlay = SubagentOverlay::default();
        if !self.ws.config.features.subagents {
            return overlay;
        }
        let base = &self.base.subagents;
        let dynamic = self.ws.config.features.dynamic_subagents;
        let mut glob = subagent_glob(self.subagents_in(upper));
        if self.remote_union(upper) {
            let rels: HashSet<&str> = glob.iter().map(|d| d.location.rel.as_str()).collect();
            let mut lower: Vec<&Arc<SubagentDoc>> = subagent_glob(self.subagents_in(&Tree::Shared))
                .into_iter()
                .filter(|d| !rels.contains(d.location.rel.as_str()))
                .collect();
            lower.extend(glob);
            lower.sort_by(|a, b| java::compare_to(&a.location.rel, &b.location.rel));
            glob = lower;
        }
        for doc in glob {
            if !subagent_loadable(doc) {
                continue;
            }
            let entry = ListedSubagent {
                id: doc.id.clone(),
                doc: Some(doc.clone()),
                layer: Some(Layer::WorkspaceGlob),
            };
            if let Some(&i) = overlay.appended_index.get(&doc.id) {
                if dynamic {
                    overlay.appended[i] = entry;
                }
            } else if let Some(&i) = base.index.get(&doc.id) {
                if dynamic {
                    overlay.replaced.insert(i, entry);
                }
            } else {
                overlay
                    .appended_index
                    .insert(doc.id.clone(), overlay.appended.len());
                overlay.appended.push(entry);
            }
        }
        overlay
    }
}

impl MergedSkill {
    /// The name the merge is keyed by (a merged skill always has one).
    pub fn name(&self) -> &str {
        self.doc.name.as_deref().unwrap_or_default()
    }
}

fn skill(doc: &Arc<SkillDoc>, source: &Arc<str>, layer: Layer) -> MergedSkill {
    MergedSkill {
        doc: doc.clone(),
        source: source.clone(),
        workspace_native: layer != Layer::SkillsFolderScan,
        layer,
    }
}

/// The project half of Layer 4, in glob order, each project file replaced by the shared file of
/// the same relative path when that exists (the overlay's re-read quirk).
fn project_skill_glob<'w>(
    ws: &'w Workspace,
    project: &[&'w Arc<SkillDoc>],
) -> Vec<(&'w str, &'w Arc<SkillDoc>)> {
    // A lookup per project file, not a map of every shared file: project skills are few next to
    // the shared ones, and hashing every shared path showed on a 10 000-skill workspace.
    let mut glob: Vec<(&str, &Arc<SkillDoc>)> = project
        .iter()
        .copied()
        .filter_map(|d| below(&d.location.rel, "skills").map(|rel| (rel, d)))
        .filter(|(rel, _)| !is_hidden_below_skills(rel))
        .map(|(rel, d)| {
            let shared = ws.skill(&ws.path_in(&Tree::Shared, &d.location.rel));
            (rel, shared.unwrap_or(d))
        })
        .collect();
    glob.sort_by(|a, b| java::compare_to(a.0, b.0));
    glob
}

/// The positions of each tree's documents, in their order. The documents are in path order,
/// where a tree's files mostly come in one run: a tree is hashed once per run, not once per file.
fn by_tree<D>(docs: &[Arc<D>], tree: impl Fn(&D) -> &Tree) -> HashMap<Tree, Vec<usize>> {
    let mut out: HashMap<Tree, Vec<usize>> = HashMap::new();
    let mut run: Option<(&Tree, Vec<usize>)> = None;
    for (i, doc) in docs.iter().enumerate() {
        let key = tree(doc);
        match &mut run {
            Some((current, list)) if *current == key => list.push(i),
            _ => {
                if let Some((done, list)) = run.replace((key, vec![i])) {
                    out.entry(done.clone()).or_default().extend(list);
                }
            }
        }
    }
    if let Some((done, list)) = run {
        out.entry(done.clone()).or_default().extend(list);
    }
    out
}

/// A [`by_tree`] index of positions as the documents at them.
fn at_positions<'w, D>(
    index: &HashMap<Tree, Vec<usize>>,
    docs: &'w [Arc<D>],
) -> HashMap<Tree, Vec<&'w Arc<D>>> {
    index
        .iter()
        .map(|(tree, at)| (tree.clone(), at.iter().map(|&i| &docs[i]).collect()))
        .collect()
}

/// The documents of one tree of a [`by_tree`] index.
fn tree_docs<'w, D>(
    index: &HashMap<Tree, Vec<usize>>,
    tree: &Tree,
    docs: &'w [Arc<D>],
) -> Vec<&'w Arc<D>> {
    docs_in(index, tree).iter().map(|&i| &docs[i]).collect()
}

/// One tree's entries in a [`by_tree`] index.
fn docs_in<'m, T>(index: &'m HashMap<Tree, Vec<T>>, tree: &Tree) -> &'m [T] {
    index.get(tree).map_or(&[], Vec::as_slice)
}

/// `a/b` but not `a` or `a/b/c`: a file directly in a folder's subfolder.
fn has_one_slash(rel: &str) -> bool {
    rel.split_once('/')
        .is_some_and(|(_, rest)| !rest.contains('/'))
}

/// The `.md` files below `subagents/` of one tree's specs, in path order (a file named `.md` is
/// skipped).
fn subagent_glob<'w>(tree: &[&'w Arc<SubagentDoc>]) -> Vec<&'w Arc<SubagentDoc>> {
    let mut glob: Vec<(&str, &Arc<SubagentDoc>)> = tree
        .iter()
        .copied()
        .filter_map(|d| below(&d.location.rel, "subagents").map(|rel| (rel, d)))
        .filter(|(_, d)| d.path.file_name().is_some_and(|n| n != ".md"))
        .collect();
    glob.sort_by(|a, b| java::compare_to(a.0, b.0));
    glob.into_iter().map(|(_, d)| d).collect()
}

/// The shared file a project subagent is re-read as, when it exists.
fn shared_twin<'w>(ws: &'w Workspace, doc: &SubagentDoc) -> Option<&'w Arc<SubagentDoc>> {
    ws.subagent(&ws.path_in(&Tree::Shared, &doc.location.rel))
}

/// The built-in, the local-folder scan and the project half of the filesystem scan.
fn subagent_base(
    ws: &Workspace,
    filesystem: FilesystemMode,
    shared: &[&Arc<SubagentDoc>],
    project: &[&Arc<SubagentDoc>],
) -> SubagentList {
    let config = &ws.config;
    let mut list = SubagentList {
        entries: vec![ListedSubagent {
            id: GENERAL_PURPOSE.to_string(),
            doc: None,
            layer: None,
        }],
        index: HashMap::from_iter([(GENERAL_PURPOSE.to_string(), 0)]),
    };
    if !config.features.subagents {
        return list;
    }
    let local_scan: Vec<&Arc<SubagentDoc>> = subagent_glob(shared)
        .into_iter()
        .filter(|d| has_one_slash(&d.location.rel))
        .collect();
    let lower: Vec<&Arc<SubagentDoc>> = if filesystem == FilesystemMode::Local {
        subagent_glob(project)
            .into_iter()
            .map(|d| shared_twin(ws, d).unwrap_or(d))
            .collect()
    } else {
        Vec::new()
    };
    let dynamic = config.features.dynamic_subagents;
    let put = |doc: &Arc<SubagentDoc>, layer: Layer, list: &mut SubagentList| {
        if !subagent_loadable(doc) {
            return;
        }
        let entry = ListedSubagent {
            id: doc.id.clone(),
            doc: Some(doc.clone()),
            layer: Some(layer),
        };
        match list.index.get(&doc.id) {
            Some(&i) if dynamic => list.entries[i] = entry,
            // Static mode: build-time entries are all kept (a duplicate is listed twice); the
            // per-call scan only appends names not yet present.
            Some(_) if layer == Layer::SubagentsFolderScan => list.entries.push(entry),
            Some(_) => {}
            None => {
                list.index.insert(doc.id.clone(), list.entries.len());
                list.entries.push(entry);
            }
        }
    };
    for doc in local_scan {
        put(doc, Layer::SubagentsFolderScan, &mut list);
    }
    for doc in lower {
        put(doc, Layer::ProjectGlob, &mut list);
    }
    list
}

#[cfg(test)]
mod tests;
