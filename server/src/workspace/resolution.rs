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

use crate::base::{FileContent, Severity, TextRange};
use crate::config::FilesystemMode;
use crate::context::{self, EffectiveRoot};
use crate::syntax::java;
use crate::workspace::skill::SkillDoc;
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::{Location, Tree, Workspace};

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

/// A loaded entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Loaded {
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
    Loaded(Loaded),
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
    pub fn rule_code(&self, ws: &Workspace, path: &Path, kind: Kind) -> Option<&'static str> {
        match self {
            Outcome::Loaded(_) => None,
            Outcome::NotScanned(reason) => Some(reason.rule_code(kind)),
            Outcome::Dropped { rule, .. } => *rule,
            // The built-in `general-purpose` wins over a file of its name: SA006.
            Outcome::Shadowed { by: None, .. } => match kind {
                Kind::Subagent => Some("SA006"),
                Kind::Skill => None,
            },
            Outcome::Shadowed { .. } if kind == Kind::Subagent => Some("XR007"),
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
pub enum Who {
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
pub fn check_contexts(ws: &Workspace) -> Vec<(Who, EffectiveRoot)> {
    check_contexts_of(&ws.config, &ws.namespaces)
}

/// [`check_contexts`] of a configuration and the per-user folders its workspace holds.
pub fn check_contexts_of(
    config: &crate::config::Config,
    namespaces: &[String],
) -> Vec<(Who, EffectiveRoot)> {
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
            .map(|root| (Who::EveryCall, root))
            .into_iter()
            .collect(),
        Scope::User | Scope::Session => make(REPRESENTATIVE_NAMESPACE)
            .map(|root| (Who::AnyUser, root))
            .into_iter()
            .chain(
                namespaces
                    .iter()
                    .filter_map(|ns| make(ns).map(|root| (Who::Folder(ns.clone()), root))),
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
}

impl<T> Default for Overlay<'_, T> {
    fn default() -> Self {
        Self {
            replaced: HashMap::new(),
            appended: Merge::default(),
        }
    }
}

impl<'k, T> Overlay<'k, T> {
    fn put<K: Borrow<str> + Hash + Eq>(&mut self, base: &Merge<K, T>, key: &'k str, entry: T) {
        if self.appended.index.contains_key(key) {
            self.appended.put(key, entry);
        } else if let Some(i) = base.position(key) {
            self.replaced.insert(i, entry);
        } else {
            self.appended.put(key, entry);
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
        if project_glob_on(ws, filesystem) {
            let namespaced: Arc<str> = WORKSPACE_NAMESPACED_SOURCE.into();
            let project = tree_docs(&layout.skills_by_tree, &Tree::Project, &ws.skills);
            let glob = project_skill_glob(ws, &project);
            for (at, (_, doc)) in glob.into_iter().enumerate() {
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
            subagents,
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
        for (_, doc) in glob {
            if let (true, Some(name)) = (skill_loadable(doc), &doc.name) {
                overlay.put(
                    self.skill_base(),
                    name,
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

// ---------------------------------------------------------------------------------------------
// Resolution

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

impl<'r> Resolution<'r> {
    fn ws(&self) -> &'r Workspace {
        self.resolver.ws
    }

    /// The loaded skills in merge order: what the prompt renders.
    pub fn skills(&self) -> Vec<&MergedSkill> {
        self.skills.iter(self.resolver.skill_base()).collect()
    }

    /// The loaded skill of this name, with its position.
    pub fn skill_named(&self, name: &str) -> Option<(usize, &MergedSkill)> {
        self.skills.get(self.resolver.skill_base(), name)
    }

    /// True when this context's prompt has the code-execution section: it follows the skills
    /// block when at least one rendered skill has a `<files-root>` (harness-spec §2.5, A.11).
    pub fn renders_code_execution(&self) -> bool {
        self.renders_code_execution_if(self.loads_a_skill())
    }

    /// [`Self::renders_code_execution`], given whether the context loads any skill (known
    /// elsewhere when this resolution was built over only some of the skills).
    pub fn renders_code_execution_if(&self, loads_a_skill: bool) -> bool {
        self.files_root_base.is_some() && loads_a_skill
    }

    /// True when the merge holds at least one skill.
    pub fn loads_a_skill(&self) -> bool {
        self.skills
            .iter(self.resolver.skill_base())
            .next()
            .is_some()
    }

    /// What every `<files-root>` of this context starts with; `None` when the skills have none.
    pub fn files_root_base(&self) -> Option<&str> {
        self.files_root_base.as_deref()
    }

    /// `<files-root>` of a loaded skill (harness-spec §2.5): raw path, spaces not escaped.
    pub fn files_root(&self, skill: &MergedSkill) -> Option<String> {
        let base = self.files_root_base.as_ref()?;
        // `concat` allocates the whole string once; `format!` grows it piece by piece, and a
        // check asks this of every loaded skill in every context of its name group.
        Some(if skill.workspace_native {
            [base, "/skills/", skill.name()].concat()
        } else {
            [base, "/.skills-cache/", &skill.source, "/", skill.name()].concat()
        })
    }

    /// The other Layer 3 files a loaded skill's name ties with (the JVM's directory order picks).
    pub fn directory_order_ties(&self, skill: &MergedSkill) -> Vec<PathBuf> {
        // Asked of every skill the preview lists; most workspaces have no tie, and hashing ten
        // thousand names to learn so was a twentieth of a preview.
        if skill.layer != Layer::SkillsFolderScan || self.resolver.base.shared_ties.is_empty() {
            return Vec::new();
        }
        // The same SKILL.md reached through a symbolic link is no tie: whichever copy wins, the
        // text is the same (XR016, not XR012).
        let files = &self.ws().files;
        match self.resolver.base.shared_ties.get(skill.name()) {
            Some(paths) => paths
                .iter()
                .filter(|p| **p != skill.doc.path && !files.same_real_file(p, &skill.doc.path))
                .cloned()
                .collect(),
            None => Vec::new(),
        }
    }

    /// The subagent entries of one reasoning step, in list order (visible or not).
    pub fn subagents(&self) -> Vec<&ListedSubagent> {
        let base = &self.resolver.base.subagents;
        base.entries
            .iter()
            .enumerate()
            .map(|(i, e)| self.subagents.replaced.get(&i).unwrap_or(e))
            .chain(self.subagents.appended.iter())
            .collect()
    }

    /// Which layers of this context scan a skill file, or why none does.
    fn skill_scan(&self, doc: &SkillDoc) -> Result<(), NotScanned> {
        let ws = self.ws();
        let features = &ws.config.features;
        let Some(rel) = below(&doc.location.rel, "skills") else {
            return Err(NotScanned::HiddenFolder);
        };
        let hidden = is_hidden_below_skills(rel);
        let upper = self.skill_upper.as_ref();
        match &doc.location.tree {
            Tree::Shared => {
                let direct = has_one_slash(rel);
                // The project half of the glob re-reads a project file as `<ws>/<rel>` when that
                // exists: a shared file the upper half does not see can still load that way.
                // Asked last: a lookup per file and context.
                let via_project = || {
                    self.resolver.filesystem == FilesystemMode::Local
                        && features.default_workspace_skills
                        && !hidden
                        && ws
                            .skill(&ws.path_in(&Tree::Project, &doc.location.rel))
                            .is_some_and(|d| d.location.tree == Tree::Project)
                };
                if direct || (upper == Some(&Tree::Shared) && !hidden) || via_project() {
                    Ok(())
                } else if hidden {
                    Err(NotScanned::HiddenFolder)
                } else {
                    Err(NotScanned::NestedInSharedFolder {
                        upper: upper.cloned(),
                    })
                }
            }
            Tree::Project => {
                if self.resolver.filesystem != FilesystemMode::Local {
                    Err(NotScanned::FilesystemMode {
                        mode: self.resolver.filesystem,
                    })
                } else if !features.default_workspace_skills {
                    Err(NotScanned::WorkspaceRepositoryOff)
                } else if hidden {
                    Err(NotScanned::HiddenFolder)
                } else {
                    let twin = ws.path_in(&Tree::Shared, &doc.location.rel);
                    if ws.skill(&twin).is_some() {
                        Err(NotScanned::ReadThroughWorkspace { instead: twin })
                    } else {
                        Ok(())
                    }
                }
            }
            Tree::Namespace(ns) => match upper {
                None => Err(NotScanned::WorkspaceRepositoryOff),
                Some(Tree::Namespace(own)) if own == ns => {
                    if hidden {
                        Err(NotScanned::HiddenFolder)
                    } else {
                        Ok(())
                    }
                }
                Some(Tree::Namespace(_)) => Err(NotScanned::OtherNamespace {
                    namespace: ns.clone(),
                }),
                _ => Err(self.no_namespace_reason(true)),
            },
        }
    }

    /// Why a per-user folder is not read when the upper tree is the shared one.
    fn no_namespace_reason(&self, skills: bool) -> NotScanned {
        if self.resolver.filesystem != FilesystemMode::Local {
            NotScanned::FilesystemMode {
                mode: self.resolver.filesystem,
            }
        } else if !self.namespaced {
            NotScanned::EmptyNamespace
        } else if skills {
            NotScanned::FrozenMerge
        } else {
            NotScanned::EmptyNamespace
        }
    }

    /// What happens to a skill file in this context.
    pub fn skill_outcome(&self, doc: &SkillDoc) -> Outcome {
        if let Err(reason) = self.skill_scan(doc) {
            return Outcome::NotScanned(reason);
        }
        let name = match (&doc.name, skill_loadable(doc)) {
            (Some(name), true) => name,
            _ => return dropped(self.ws(), &doc.path, &doc.diagnostics),
        };
        let Some((position, winner)) = self.skill_named(name) else {
            // Scanned and loadable always puts the name; kept total for safety.
            return Outcome::Shadowed {
                by: None,
                by_directory_order: false,
            };
        };
        let ties = self.directory_order_ties(winner);
        if winner.doc.path == doc.path {
            Outcome::Loaded(Loaded {
                id: [winner.name(), "_", &winner.source].concat(),
                layer: winner.layer,
                position,
                files_root: self.files_root(winner),
                directory_order_ties: ties,
                listed: true,
            })
        } else {
            Outcome::Shadowed {
                by_directory_order: ties.contains(&doc.path),
                by: Some(winner.doc.path.clone()),
            }
        }
    }

    /// The skill files the merge does not hold, in path order: every one whose `skill_outcome` is
    /// not `Loaded`. Found by identity (the merge holds the workspace's `Arc`s), so no loaded
    /// skill's name or path is read: for ten thousand of them that reading showed in a preview.
    pub fn skills_not_merged(&self) -> impl Iterator<Item = &'r Arc<SkillDoc>> + '_ {
        let merged: HashSet<*const SkillDoc> = self
            .skills
            .iter(self.resolver.skill_base())
            .map(|s| Arc::as_ptr(&s.doc))
            .collect();
        self.ws()
            .skills
            .iter()
            .filter(move |d| !merged.contains(&Arc::as_ptr(d)))
    }

    /// Every skill file with its outcome, in path order.
    pub fn skill_outcomes(&self) -> impl Iterator<Item = (&'r Arc<SkillDoc>, Outcome)> + '_ {
        self.ws().skills.iter().map(|d| (d, self.skill_outcome(d)))
    }

    fn subagent_scan(&self, doc: &SubagentDoc) -> Result<(), NotScanned> {
        let ws = self.ws();
        if !ws.config.features.subagents {
            return Err(NotScanned::SubagentsOff);
        }
        let upper = &self.subagent_upper;
        match &doc.location.tree {
            Tree::Shared => {
                let direct = has_one_slash(&doc.location.rel);
                // Asked last: a lookup per file and context.
                let via_project = || {
                    self.resolver.filesystem == FilesystemMode::Local
                        && ws
                            .subagent(&ws.path_in(&Tree::Project, &doc.location.rel))
                            .is_some_and(|d| d.location.tree == Tree::Project)
                };
                if direct || *upper == Tree::Shared || via_project() {
                    Ok(())
                } else {
                    Err(NotScanned::NestedInSharedFolder {
                        upper: Some(upper.clone()),
                    })
                }
            }
            Tree::Project => {
                if self.resolver.filesystem != FilesystemMode::Local {
                    Err(NotScanned::FilesystemMode {
                        mode: self.resolver.filesystem,
                    })
                } else if let Some(twin) = shared_twin(ws, doc) {
                    Err(NotScanned::ReadThroughWorkspace {
                        instead: twin.path.clone(),
                    })
                } else {
                    Ok(())
                }
            }
            Tree::Namespace(ns) => match upper {
                Tree::Namespace(own) if own == ns => Ok(()),
                Tree::Namespace(_) => Err(NotScanned::OtherNamespace {
                    namespace: ns.clone(),
                }),
                _ => Err(self.no_namespace_reason(false)),
            },
        }
    }

    /// What happens to a subagent file in this context (one lookup in [`Self::subagent_outcomes`]).
    pub fn subagent_outcome(&self, doc: &SubagentDoc) -> Outcome {
        self.subagent_outcomes_of(|d| d.path == doc.path)
            .into_iter()
            .next()
            .map(|(_, o)| o)
            // A document of another snapshot: none of this workspace's folders holds it.
            .unwrap_or(Outcome::NotScanned(NotScanned::OtherNamespace {
                namespace: String::new(),
            }))
    }

    /// Every subagent file with its outcome, in path order.
    pub fn subagent_outcomes(&self) -> Vec<(&'r Arc<SubagentDoc>, Outcome)> {
        self.subagent_outcomes_of(|_| true)
    }

    /// The subagent files `wanted` keeps, with their outcomes, in path order. A caller that
    /// needs a few files of many contexts (a per-user folder's own specs) pays for those only.
    pub fn subagent_outcomes_of(
        &self,
        wanted: impl Fn(&SubagentDoc) -> bool,
    ) -> Vec<(&'r Arc<SubagentDoc>, Outcome)> {
        if !self.ws().config.features.subagents {
            return self
                .ws()
                .subagents
                .iter()
                .filter(|d| wanted(d))
                .map(|d| (d, Outcome::NotScanned(NotScanned::SubagentsOff)))
                .collect();
        }
        // One pass over the list instead of a search per file.
        let list = self.subagents();
        // Keyed by the document's address: every entry shares the snapshot's `Arc`, and hashing a
        // pointer costs far less than hashing a path, once per file and context.
        let mut position: HashMap<*const SubagentDoc, (usize, &ListedSubagent)> = HashMap::new();
        let mut first_of: HashMap<&str, Option<&Path>> = HashMap::new();
        for (i, entry) in list.iter().enumerate() {
            if let Some(doc) = entry.doc.as_ref().filter(|d| wanted(d)) {
                position.entry(Arc::as_ptr(doc)).or_insert((i, entry));
            }
            first_of
                .entry(entry.id.as_str())
                .or_insert(entry.doc.as_ref().map(|d| d.path.as_path()));
        }
        self.ws()
            .subagents
            .iter()
            .filter(|d| wanted(d))
            .map(|doc| {
                let outcome = match self.subagent_scan(doc) {
                    Err(reason) => Outcome::NotScanned(reason),
                    Ok(()) if !subagent_loadable(doc) => {
                        dropped(self.ws(), &doc.path, &doc.diagnostics)
                    }
                    Ok(()) => match position.get(&Arc::as_ptr(doc)) {
                        Some((i, entry)) => Outcome::Loaded(Loaded {
                            id: doc.id.clone(),
                            layer: entry.layer.unwrap_or(Layer::WorkspaceGlob),
                            position: *i,
                            files_root: None,
                            directory_order_ties: Vec::new(),
                            listed: entry.is_visible(),
                        }),
                        None => Outcome::Shadowed {
                            by: first_of
                                .get(doc.id.as_str())
                                .copied()
                                .flatten()
                                .map(Path::to_path_buf),
                            by_directory_order: false,
                        },
                    },
                };
                (doc, outcome)
            })
            .collect()
    }
}

/// Skill or subagent: the two kinds of file a resolution answers for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Skill,
    Subagent,
}

impl NotScanned {
    /// The rule that reports this outcome (codes of the catalog).
    pub fn rule_code(&self, kind: Kind) -> &'static str {
        match (self, kind) {
            (NotScanned::NestedInSharedFolder { .. }, Kind::Skill) => "SK017",
            (NotScanned::NestedInSharedFolder { .. }, Kind::Subagent) => "SA007",
            (NotScanned::HiddenFolder, _) => "SK018",
            (NotScanned::ReadThroughWorkspace { .. }, Kind::Skill) => "XR005",
            (NotScanned::ReadThroughWorkspace { .. }, Kind::Subagent) => "XR007",
            (_, Kind::Skill) => "SK026",
            (_, Kind::Subagent) => "SA022",
        }
    }

    /// Why nothing reads the file. `ns_label` stands in for the context's namespace in paths
    /// (`<user>` when the context represents every user).
    pub fn describe(&self, ws: &Workspace, kind: Kind, ns_label: Option<&str>) -> String {
        let folder = match kind {
            Kind::Skill => "skills",
            Kind::Subagent => "subagents",
        };
        let ws_dir = context::display_path(&ws.config.workspace);
        let reads = |tree: &Tree| match tree {
            Tree::Namespace(ns) => format!("`{ws_dir}/{}/{folder}`", ns_label.unwrap_or(ns)),
            _ => format!("`{ws_dir}/{folder}`"),
        };
        match self {
            NotScanned::NestedInSharedFolder { upper } => {
                let direct = match kind {
                    Kind::Skill => "the runtime's scan of the shared `skills/` folder reads only `skills/*/SKILL.md`",
                    Kind::Subagent => "the local scan reads only `subagents/*.md`",
                };
                let glob = match upper {
                    Some(tree) => format!("the deeper search reads only {}", reads(tree)),
                    None => "the reader of per-user and project skills is off (`features.default_workspace_skills = false`)".to_string(),
                };
                format!("nested below the shared `{folder}/` folder: {direct}, and {glob}")
            }
            NotScanned::HiddenFolder => {
                "below a `skills/` folder starting with `_` or `.`: the runtime skips such folders when it reads per-user and project skills".to_string()
            }
            NotScanned::OtherNamespace { namespace } => {
                format!("in the per-user folder `{namespace}`, which only its own calls read")
            }
            NotScanned::EmptyNamespace => format!(
                "in a per-user folder, and the call has no user or session folder: the runtime reads only `{ws_dir}/{folder}`"
            ),
            NotScanned::FrozenMerge => format!(
                "in a per-user folder, and the skill list is built once, before any user's call \
                 (`features.dynamic_skills = false`): the runtime reads only `{ws_dir}/{folder}`"
            ),
            NotScanned::FilesystemMode { mode } => format!(
                "the {} filesystem reads `{folder}/` from the shared workspace only (per-user and project folders are not part of it)",
                mode.as_str()
            ),
            NotScanned::WorkspaceRepositoryOff => {
                "the reader of per-user and project skills is off \
                 (`features.default_workspace_skills = false`)"
                    .to_string()
            }
            NotScanned::ReadThroughWorkspace { instead } => format!(
                "the overlay re-reads this relative path through the workspace and gets `{}` instead",
                instead.display()
            ),
            NotScanned::SubagentsOff => "subagents are off (`features.subagents = false`)".to_string(),
        }
    }
}

/// The rule that says why a scanned file is dropped: its first error, else the file-content rule.
fn dropped(ws: &Workspace, path: &Path, diagnostics: &[crate::base::Diagnostic]) -> Outcome {
    if let Some(d) = diagnostics.iter().find(|d| d.severity == Severity::Error) {
        return Outcome::Dropped {
            rule: Some(d.code),
            range: d.range,
        };
    }
    let rule = match ws.files.get(path).map(|e| &e.content) {
        Some(FileContent::TooLarge { .. }) => Some("WS005"),
        Some(FileContent::Unreadable { .. }) => Some("WS007"),
        Some(FileContent::NotUtf8 { .. }) => Some("WS004"),
        Some(FileContent::NotRegular { .. }) => Some("WS014"),
        _ => None,
    };
    Outcome::Dropped {
        rule,
        range: TextRange::empty(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, Scope};
    use crate::context::{effective_root, SessionContext};

    const W: &str = "/p/.agentscope/workspace";

    fn snapshot(files: &[(&str, &str)], edit: impl FnOnce(&mut Config)) -> Workspace {
        let mut config = Config::defaults_for(Path::new("/p"));
        config.agent.name = Some("assistant".into());
        edit(&mut config);
        Workspace::from_texts(config, files.iter().copied())
    }

    fn root_for(ws: &Workspace, user: Option<&str>, scope: Scope) -> EffectiveRoot {
        let mut ctx = SessionContext::from_config(&ws.config);
        ctx.user_id = user.map(str::to_string);
        ctx.scope = scope;
        effective_root(&ws.config, &ctx).unwrap()
    }

    fn skill(n: &str) -> String {
        format!("---\nname: {n}\ndescription: d {n}\n---\nbody\n")
    }

    #[test]
    fn nested_shared_skill_is_not_scanned_in_user_scope_and_loaded_in_agent_scope() {
        let text = skill("deep");
        let ws = snapshot(
            &[(&format!("{W}/skills/group/deep/SKILL.md"), &text)],
            |_| {},
        );
        let doc = &ws.skills[0];
        let user = root_for(&ws, Some("alice"), Scope::User);
        assert_eq!(
            resolve(&ws, &user).skill_outcome(doc),
            Outcome::NotScanned(NotScanned::NestedInSharedFolder {
                upper: Some(Tree::Namespace("alice".into()))
            })
        );
        let agent = root_for(&ws, None, Scope::Agent);
        let Outcome::Loaded(loaded) = resolve(&ws, &agent).skill_outcome(doc) else {
            panic!("not loaded");
        };
        assert_eq!(loaded.id, "deep_workspace-namespaced");
        assert_eq!(
            loaded.files_root.as_deref(),
            Some(format!("{W}/skills/deep").as_str())
        );
    }

    #[test]
    fn layer3_name_ties_are_decided_by_directory_order() {
        let x = skill("x");
        let ws = snapshot(
            &[
                (&format!("{W}/skills/a/SKILL.md"), &x),
                (&format!("{W}/skills/b/SKILL.md"), &x),
            ],
            |_| {},
        );
        let user = root_for(&ws, Some("alice"), Scope::User);
        let res = resolve(&ws, &user);
        let a = res.skill_outcome(&ws.skills[0]);
        let b = res.skill_outcome(&ws.skills[1]);
        assert_eq!(
            a,
            Outcome::Shadowed {
                by: Some(PathBuf::from(format!("{W}/skills/b/SKILL.md"))),
                by_directory_order: true
            }
        );
        let Outcome::Loaded(b) = b else { panic!() };
        assert_eq!(
            b.directory_order_ties,
            vec![PathBuf::from(format!("{W}/skills/a/SKILL.md"))]
        );
        // With the agent scope Layer 4 re-reads both, sorted: the winner is decided.
        let agent = root_for(&ws, None, Scope::Agent);
        let res = resolve(&ws, &agent);
        assert_eq!(
            res.skill_outcome(&ws.skills[0]),
            Outcome::Shadowed {
                by: Some(PathBuf::from(format!("{W}/skills/b/SKILL.md"))),
                by_directory_order: false
            }
        );
    }

    #[test]
    fn the_skills_not_merged_are_those_not_loaded_in_every_context() {
        let (a, x) = (skill("a"), skill("x"));
        let ws = snapshot(
            &[
                (&format!("{W}/skills/a/SKILL.md"), a.as_str()),
                (&format!("{W}/skills/t1/SKILL.md"), &x),
                (&format!("{W}/skills/t2/SKILL.md"), &x),
                (&format!("{W}/skills/bad/SKILL.md"), "no frontmatter\n"),
                (&format!("{W}/skills/group/deep/SKILL.md"), &skill("deep")),
                (&format!("{W}/alice/skills/a/SKILL.md"), &a),
                (&format!("{W}/bob/skills/c/SKILL.md"), &skill("c")),
            ],
            |_| {},
        );
        let contexts = [
            (Some("alice"), Scope::User),
            (Some("bob"), Scope::User),
            (None, Scope::Agent),
        ];
        for (user, scope) in contexts {
            let res = resolve(&ws, &root_for(&ws, user, scope));
            let not_merged: Vec<&Path> =
                res.skills_not_merged().map(|d| d.path.as_path()).collect();
            let not_loaded: Vec<&Path> = res
                .skill_outcomes()
                .filter(|(_, o)| !matches!(o, Outcome::Loaded(_)))
                .map(|(d, _)| d.path.as_path())
                .collect();
            assert_eq!(not_merged, not_loaded, "{user:?} {scope:?}");
            assert!(!not_merged.is_empty() && not_merged.len() < ws.skills.len());
        }
    }

    #[test]
    fn a_kept_base_resolves_as_a_fresh_one_through_edits_creations_and_moves() {
        let files = |extra: &[(&str, &str)]| {
            let mut files = vec![
                (format!("{W}/skills/b/SKILL.md"), skill("b")),
                (format!("{W}/skills/a/SKILL.md"), skill("a")),
                (format!("{W}/alice/skills/a/SKILL.md"), skill("a")),
                (
                    format!("{W}/subagents/r.md"),
                    "---\nname: r\ndescription: d\n---\nx\n".into(),
                ),
            ];
            files.extend(
                extra
                    .iter()
                    .map(|(p, t)| (format!("{W}/{p}"), t.to_string())),
            );
            snapshot(
                &files
                    .iter()
                    .map(|(p, t)| (p.as_str(), t.as_str()))
                    .collect::<Vec<_>>(),
                |_| {},
            )
        };
        let steps = [
            files(&[]),
            // A text edit that renames a skill: the same files, the base followed.
            files(&[("skills/c/SKILL.md", "---\nname: b\ndescription: d\n---\n")]),
            files(&[("skills/c/SKILL.md", "---\nname: zz\ndescription: d\n---\n")]),
            // The same number of files in other places: the base built again.
            files(&[("skills/0/SKILL.md", "---\nname: zz\ndescription: d\n---\n")]),
            files(&[(
                "alice/skills/0/SKILL.md",
                "---\nname: b\ndescription: d\n---\n",
            )]),
            files(&[]),
        ];
        let summary = |res: &Resolution| {
            let skills: Vec<(String, PathBuf)> = res
                .skills()
                .iter()
                .map(|s| (s.name().to_string(), s.doc.path.clone()))
                .collect();
            let outcomes: Vec<Outcome> = res.skill_outcomes().map(|(_, o)| o).collect();
            let subagents = res
                .subagent_outcomes()
                .into_iter()
                .map(|(_, o)| o)
                .collect::<Vec<_>>();
            (skills, outcomes, subagents)
        };
        let mut kept = KeptBase::default();
        for (step, ws) in steps.iter().enumerate() {
            for user in [Some("alice"), Some("bob")] {
                let root = root_for(ws, user, Scope::User);
                let fresh = summary(&resolve(ws, &root));
                let with_kept = summary(&resolve_kept(ws, &root, &mut kept));
                assert_eq!(with_kept, fresh, "step {step}, {user:?}");
            }
        }
        // Step 1 holds a Layer 3 tie (`c` renamed `b`), so the order a kept base gives is what
        // decides the winner there.
        let root = root_for(&steps[1], Some("bob"), Scope::User);
        let names: Vec<String> = summary(&resolve(&steps[1], &root))
            .0
            .into_iter()
            .map(|s| s.0)
            .collect();
        assert_eq!(names, ["a", "b"]);
    }

    #[test]
    fn per_user_overlays_share_the_base_merge() {
        let (a, b) = (skill("a"), skill("b"));
        let ws = snapshot(
            &[
                (&format!("{W}/skills/a/SKILL.md"), &a),
                (&format!("{W}/skills/b/SKILL.md"), &b),
                (&format!("{W}/alice/skills/a/SKILL.md"), &a),
                (&format!("{W}/bob/skills/c/SKILL.md"), &skill("c")),
            ],
            |_| {},
        );
        let resolver = Arc::new(Resolver::new(&ws, FilesystemMode::Local));
        let alice = resolver.resolve(&root_for(&ws, Some("alice"), Scope::User));
        let names: Vec<(&str, &str)> = alice
            .skills()
            .iter()
            .map(|s| (s.name(), &*s.source))
            .collect();
        assert_eq!(
            names,
            vec![
                ("a", "workspace-namespaced"),
                ("b", "filesystem-workspace_skills")
            ]
        );
        let bob = resolver.resolve(&root_for(&ws, Some("bob"), Scope::User));
        assert_eq!(bob.skills().len(), 3);
        let alice_doc = ws
            .skills
            .iter()
            .find(|d| d.path.starts_with(format!("{W}/alice")))
            .unwrap();
        assert_eq!(
            bob.skill_outcome(alice_doc),
            Outcome::NotScanned(NotScanned::OtherNamespace {
                namespace: "alice".into()
            })
        );
        let agent = resolve(&ws, &root_for(&ws, None, Scope::Agent));
        assert_eq!(
            agent.skill_outcome(alice_doc),
            Outcome::NotScanned(NotScanned::EmptyNamespace)
        );
    }

    /// A per-user folder read from a store holds none of the files here, yet its overlay globs
    /// the template's below it (the remote union): it must not be taken for an upper tree that
    /// globs nothing, whose contexts share the empty overlay. A folder that is not stored does
    /// glob nothing, and its context lists what the shared context lists.
    #[test]
    fn a_stored_folder_without_files_of_its_own_still_globs_the_template() {
        let mut ws = snapshot(
            &[
                (&format!("{W}/skills/a/SKILL.md"), &skill("a")),
                (&format!("{W}/subagents/s.md"), "---\ndescription: s\n---\n"),
                (&format!("{W}/bob/skills/b/SKILL.md"), &skill("b")),
            ],
            |c| c.filesystem.mode = FilesystemMode::Remote,
        );
        let mut files = (*ws.files).clone();
        files.mark_stored(PathBuf::from(format!("{W}/alice")));
        ws.files = Arc::new(files);
        let resolver = Arc::new(Resolver::new(&ws, FilesystemMode::Remote));
        let listed = |user: Option<&str>| {
            let res = resolver.resolve(&root_for(&ws, user, Scope::User));
            let skills: Vec<(String, String, Layer)> = res
                .skills()
                .iter()
                .map(|s| (s.name().to_string(), s.source.to_string(), s.layer))
                .collect();
            let subagents: Vec<(String, Option<Layer>)> = res
                .subagents()
                .iter()
                .map(|e| (e.id.clone(), e.layer))
                .collect();
            (skills, subagents)
        };
        let (alice_skills, alice_subagents) = listed(Some("alice"));
        assert_eq!(
            alice_skills,
            vec![(
                "a".to_string(),
                WORKSPACE_NAMESPACED_SOURCE.to_string(),
                Layer::WorkspaceGlob
            )]
        );
        assert_eq!(
            alice_subagents,
            vec![
                ("general-purpose".to_string(), None),
                ("s".to_string(), Some(Layer::WorkspaceGlob))
            ]
        );
        assert_eq!(listed(Some("carol")), listed(None));
    }

    #[test]
    fn subagent_outcomes_in_both_modes() {
        let ws = |dynamic: bool| {
            snapshot(
                &[
                    (
                        &format!("{W}/subagents/general-purpose.md"),
                        "---\ndescription: mine\n---\n",
                    ),
                    (&format!("{W}/subagents/z.md"), "---\ndescription: z\n---\n"),
                    (
                        &format!("{W}/subagents/deep/y.md"),
                        "---\ndescription: y\n---\n",
                    ),
                    (
                        &format!("{W}/alice/subagents/deep/z.md"),
                        "---\ndescription: alice z\n---\n",
                    ),
                ],
                |c| c.features.dynamic_subagents = dynamic,
            )
        };
        let dynamic = ws(true);
        let root = root_for(&dynamic, Some("alice"), Scope::User);
        let res = resolve(&dynamic, &root);
        let ids: Vec<&str> = res.subagents().iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, vec!["general-purpose", "z"]);
        let outcomes = res.subagent_outcomes();
        let kinds: Vec<(&str, &str)> = outcomes
            .iter()
            .map(|(d, o)| {
                (
                    d.location.rel.as_str(),
                    match o {
                        Outcome::Loaded(_) => "loaded",
                        Outcome::Shadowed { .. } => "shadowed",
                        Outcome::NotScanned(_) => "not-scanned",
                        Outcome::Dropped { .. } => "dropped",
                    },
                )
            })
            .collect();
        assert_eq!(
            kinds,
            vec![
                ("subagents/deep/z.md", "loaded"),
                ("subagents/deep/y.md", "not-scanned"),
                ("subagents/general-purpose.md", "loaded"),
                ("subagents/z.md", "shadowed"),
            ]
        );
        let fixed = ws(false);
        let root = root_for(&fixed, Some("alice"), Scope::User);
        let res = resolve(&fixed, &root);
        let ids: Vec<&str> = res.subagents().iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, vec!["general-purpose", "general-purpose", "z"]);
        let alice_z = fixed
            .subagents
            .iter()
            .find(|d| d.path.starts_with(format!("{W}/alice")))
            .unwrap();
        assert_eq!(
            res.subagent_outcome(alice_z),
            Outcome::Shadowed {
                by: Some(PathBuf::from(format!("{W}/subagents/z.md"))),
                by_directory_order: false
            }
        );
    }

    /// Everything a resolution answers, with whether each merged document is the workspace's
    /// own `Arc` (what the preview's memo and `skills_not_merged` compare by identity).
    fn everything(ws: &Workspace, res: &Resolution) -> String {
        let mut out = String::new();
        for s in res.skills() {
            let own = ws
                .skill(&s.doc.path)
                .is_some_and(|d| Arc::ptr_eq(d, &s.doc));
            let ties = res.directory_order_ties(s);
            out += &format!(
                "skill {} {:?} {} {:?} {} own={own} ties={ties:?}\n",
                s.name(),
                s.doc.path,
                s.source,
                s.layer,
                s.workspace_native
            );
        }
        for (d, o) in res.skill_outcomes() {
            out += &format!("skill outcome {:?} {o:?}\n", d.path);
        }
        for d in res.skills_not_merged() {
            out += &format!("not merged {:?}\n", d.path);
        }
        for s in res.subagents() {
            let own = s
                .doc
                .as_ref()
                .is_none_or(|s| ws.subagent(&s.path).is_some_and(|d| Arc::ptr_eq(d, s)));
            out += &format!(
                "subagent {} {:?} {:?} own={own}\n",
                s.id,
                s.doc.as_ref().map(|d| &d.path),
                s.layer
            );
        }
        for (d, o) in res.subagent_outcomes() {
            out += &format!("subagent outcome {:?} {o:?}\n", d.path);
        }
        out
    }

    /// The files the kept-base property test edits: shared Layer 3 skills (names drawn from a
    /// few, so they tie and untie), a nested one, a project skill with a shared twin and one
    /// without, users' skills, shared and user subagents.
    const EDITED: &[&str] = &[
        "{W}/skills/s0/SKILL.md",
        "{W}/skills/s1/SKILL.md",
        "{W}/skills/s2/SKILL.md",
        "{W}/skills/s3/SKILL.md",
        "{W}/skills/g/deep/SKILL.md",
        "/p/skills/s1/SKILL.md",
        "/p/skills/p/SKILL.md",
        "{W}/alice/skills/s0/SKILL.md",
        "{W}/bob/skills/q/SKILL.md",
        "{W}/subagents/r0.md",
        "{W}/subagents/r1.md",
        "{W}/alice/subagents/r0.md",
    ];

    /// The text of edited file `slot` for `choice`: a skill or subagent of one of a few names,
    /// with one of two bodies, or a file the runtime drops; `None`: the file is absent.
    fn edited_text(slot: usize, choice: usize) -> Option<String> {
        let names = ["a", "b", "c", "d"];
        match choice {
            0 => None,
            1 => Some("no frontmatter\n".into()),
            c if EDITED[slot].contains("/subagents/") => Some(format!(
                "---\nname: {}\ndescription: d\n---\nbody {}\n",
                ["r", "s"][c % 2],
                c % 3
            )),
            c => Some(format!(
                "---\nname: {}\ndescription: d\n---\nbody {}\n",
                names[c % 4],
                c % 3
            )),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// After every edit, a resolution on the kept base (followed or built again) answers
        /// exactly what a fresh one does, in every context, with the workspace's own documents.
        #[test]
        fn a_kept_base_resolves_as_a_fresh_one_through_any_edits(
            start in proptest::collection::vec(1usize..9, EDITED.len()),
            edits in proptest::collection::vec((0..EDITED.len(), 0usize..9), 1..16),
            dynamic_subagents: bool,
            project_glob: bool,
        ) {
            let mut config = Config::defaults_for(Path::new("/p"));
            config.agent.name = Some("assistant".into());
            config.features.dynamic_subagents = dynamic_subagents;
            config.features.default_workspace_skills = project_glob;
            let config = Arc::new(config);
            let env = Arc::new(crate::base::Env::new());
            let path = |slot: usize| PathBuf::from(EDITED[slot].replace("{W}", W));
            let mut files = crate::base::FileSet::new();
            files.insert_dir(config.workspace.clone());
            for (slot, &choice) in start.iter().enumerate() {
                if let Some(text) = edited_text(slot, choice) {
                    files.insert_text(path(slot), &text);
                }
            }
            let mut ws = Workspace::build(config.clone(), Vec::new(), Arc::new(files.clone()), env.clone(), None);
            let mut kept = KeptBase::default();
            for (step, &(slot, choice)) in [(0, start[0])].iter().chain(&edits).enumerate() {
                match edited_text(slot, choice) {
                    Some(text) => files.insert_text(path(slot), &text),
                    None => {
                        files.remove(&path(slot));
                    }
                }
                ws = Workspace::build(config.clone(), Vec::new(), Arc::new(files.clone()), env.clone(), Some(&ws));
                for (user, scope) in [(Some("alice"), Scope::User), (Some("bob"), Scope::User), (None, Scope::Agent)] {
                    let root = root_for(&ws, user, scope);
                    let fresh = everything(&ws, &resolve(&ws, &root));
                    let with_kept = everything(&ws, &resolve_kept(&ws, &root, &mut kept));
                    proptest::prop_assert_eq!(with_kept, fresh, "step {}, {:?} {:?}", step, user, scope);
                }
            }
        }
    }

    #[test]
    fn a_kept_base_follows_a_rename_and_is_built_again_for_a_tie() {
        let config = {
            let mut config = Config::defaults_for(Path::new("/p"));
            config.agent.name = Some("assistant".into());
            Arc::new(config)
        };
        let env = Arc::new(crate::base::Env::new());
        let mut files = crate::base::FileSet::new();
        files.insert_dir(config.workspace.clone());
        for n in ["a", "b", "c"] {
            files.insert_text(format!("{W}/skills/{n}/SKILL.md").into(), &skill(n));
        }
        let build = |files: &crate::base::FileSet, previous: Option<&Workspace>| {
            Workspace::build(
                config.clone(),
                Vec::new(),
                Arc::new(files.clone()),
                env.clone(),
                previous,
            )
        };
        let mut kept = KeptBase::default();
        let ws = build(&files, None);
        let root = root_for(&ws, None, Scope::Agent);
        let base_of = |kept: &KeptBase| Arc::as_ptr(&kept.kept.as_ref().unwrap().base);
        let names = |res: &Resolution| {
            res.skills()
                .iter()
                .map(|s| s.name().to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&resolve_kept(&ws, &root, &mut kept)), ["a", "b", "c"]);
        let first = base_of(&kept);

        // `b` renamed `z` keeps its place; `z` dropped takes it out.
        files.insert_text(format!("{W}/skills/b/SKILL.md").into(), &skill("z"));
        let ws = build(&files, Some(&ws));
        assert_eq!(names(&resolve_kept(&ws, &root, &mut kept)), ["a", "z", "c"]);
        assert_eq!(base_of(&kept), first, "a rename is followed");
        files.insert_text(
            format!("{W}/skills/b/SKILL.md").into(),
            "---\nname: yes\n---\n",
        );
        let ws = build(&files, Some(&ws));
        assert_eq!(names(&resolve_kept(&ws, &root, &mut kept)), ["a", "c"]);
        assert_eq!(base_of(&kept), first, "a file dropped is followed");

        // Skills created and deleted one at a time, before, between and after the others in
        // Layer 3's order: each followed, every name where a fresh merge puts it.
        let mut ws = ws;
        let steps: [(&str, bool, &[&str]); 6] = [
            ("0-early", true, &["0-early", "a", "c"]),
            ("b2", true, &["0-early", "a", "b2", "c"]),
            ("0-early", false, &["a", "b2", "c"]),
            ("b3", true, &["a", "b2", "b3", "c"]),
            ("b2", false, &["a", "b3", "c"]),
            ("b3", false, &["a", "c"]),
        ];
        for (folder, created, expected) in steps {
            let path = PathBuf::from(format!("{W}/skills/{folder}/SKILL.md"));
            if created {
                files.insert_text(path, &skill(folder));
            } else {
                files.remove(&path);
            }
            ws = build(&files, Some(&ws));
            assert_eq!(names(&resolve_kept(&ws, &root, &mut kept)), expected);
            assert_eq!(base_of(&kept), first, "{folder} followed");
            assert_eq!(names(&resolve(&ws, &root)), expected);
        }

        // Named `c`, it ties with `skills/c`: directory order decides, the base is built again.
        files.insert_text(format!("{W}/skills/b/SKILL.md").into(), &skill("c"));
        let ws = build(&files, Some(&ws));
        let res = resolve_kept(&ws, &root, &mut kept);
        assert_eq!(names(&res), ["a", "c"]);
        assert_eq!(
            res.skills()[1].doc.path,
            PathBuf::from(format!("{W}/skills/c/SKILL.md"))
        );
        drop(res);
        assert_ne!(base_of(&kept), first, "a tie builds the base again");
    }
}
