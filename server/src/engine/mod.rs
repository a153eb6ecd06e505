//! The analysis engine: the project as a query database (salsa), so that an edit re-runs only
//! what read a changed fact.
//!
//! Inputs are the project (configuration, environment, profile, and its *layout*: every file it
//! holds, with the texts of skills, subagent specs and tools.json files left out) and one
//! [`SourceFile`] per skill, subagent spec and tools.json. Derived, memoised, with early cut-off:
//!
//! ```text
//! SourceFile ─► parsed ─► facts                      (per file)
//!     │           └─► source_diagnostics             (per file: its parse and content rules)
//!     └─► tool_mentions ─► bucket_tool_mentions ─► bucket_removed_mentions ─► removed_mentions ─┐
//! frame ─► frame_kinds, namespaces ─► check_roots  (the session contexts, once)                 │
//! tools.json ─► parsed ─► tools_docs ─► catalog                                                 │
//! layout ─► layout_diagnostics ─────────────────────────────────────────────────────────────────┤
//! layout, tools_docs ─► configured_diagnostics ─────────────────────────────────────────────────┤
//! facts ─► bucket_name_groups ─► name_groups ─► name_group_facts (× 64)                         │
//!            └─► name_group_loading (× 64: its skills + neighbours) ────────────────────────────┤
//!                  └─► contexts_loading_a_skill ─┐                                              │
//! skills_with_files, name_group_facts ───────────┴─► code_execution_detail ─┐                   │
//! facts, tools_docs, catalog ─► tools_json_rules ───────────────────────────┴─► tool_references ┤
//!                         └─► chunk_tool_lists (× 16 subagents) ──────────────┘                 │
//! facts ─► bucket_subagent_facts ─► bucket_listed_names ─► names_listed(_in_group × 64)         │
//!            │   name_group_facts, names_listed_in_group ─► group_listed_facts (× 64)           │
//!            └─► chunk_subagent_facts (× 16) ─► chunk_listed_names ─► chunk_listed_facts        │
//!                  └─► chunk_skill_references ─► bucket_skill_references ─► skill_references ───┤
//! facts ─► subagent_loading_facts ─► bucket_subagent_loading_facts ─► subagent_loading ─────────┤
//!                                       skill_family_diagnostics, subagent_family_diagnostics ◄─┘
//! parsed ─► sets_allowed_tools ─► allowed_tools_setters ─► allowed_tools_note ────┐         │
//!                                                workspace_diagnostics ◄──────────┴─────────┘
//! ```
//!
//! The rules are `check`'s (`source_diagnostics`; `file_diagnostics`, `skill_references`,
//! `tool_references`, `skill_loading` and `loading::check_subagents`, which together are
//! `check::workspace_diagnostics`); they are composed
//! here, once: the server asks these queries after each edit, and `agentws check` asks them once
//! over the whole project (`batch`: `Analysis::diagnostics`, `load`), so the two give one
//! answer. A source's facts are its parsed document without what only that file's own rules
//! read (its body, its diagnostics other than the one that drops it): a body edit leaves the
//! facts equal, so no cross-file rule runs again. The cross-file rules see the sources only
//! through those facts — the workspaces they get hold no source text at all, so a rule that
//! reads one would see an empty file and the agreement tests would fail, rather than go stale
//! quietly.
//!
//! Each family of whole-workspace rules gets a workspace holding only what it reads, so that an
//! edit re-runs the families that read a changed fact, and only over the files concerned:
//!
//! - the file rules (`check::file_diagnostics`) read no skill or subagent at all; the layout's
//!   (`layout_diagnostics`) read no tools.json either, so a tools.json edit runs only the rules
//!   that read it (`configured_diagnostics`);
//! - a skill's loading outcome reads only the skills of its name and its neighbours by path
//!   (`check::loading::neighbour_rels`): the skills are split into [`NAME_GROUPS`] groups by
//!   name, and renaming a skill re-runs its old and its new group;
//! - the rules over what subagents' `skills:` name read the subagents and the skills of the
//!   names they list, with their neighbours (`chunk_listed_facts`): they run per chunk of
//!   sixteen subagents (`chunk_skill_references`), so that a subagent's edit resolves the
//!   contexts over the few skills its chunk names;
//! - the tools.json rules and what subagents' `tools:` and `model:` name (`tool_references`) read
//!   the subagents, tools.json and the catalog, and of the skills only where the code-execution
//!   section is rendered (`code_execution_detail`: the skills whose folders hold files, and
//!   whether each context loads any skill), so that a tools.json edit resolves no context; what
//!   the lists name is found per chunk of subagents (`chunk_tool_lists`) and merged, so that a
//!   subagent's edit looks at its own chunk again;
//! - the subagents' loading outcomes read the subagents without their `tools:`, `skills:` and
//!   `model:` (`subagent_loading_facts`) and no skill, so that editing those lists re-runs only
//!   the two families above.
//!
//! `engine::batch::loading_agreement` checks on generated workspaces that the families add up to
//! the whole-workspace composition.
//!
//! Durability: open buffers are `LOW`, the project's structure (layout, frame, the tools.json
//! list) `MEDIUM`, disk contents and the configuration `HIGH`. The list of buckets is `LOW` like
//! a buffer: every query over the buckets reads an editor's buffer once any file is open, and
//! salsa does not backdate a value whose durability dropped, so with a `MEDIUM` list the first
//! file opened ran every reader of those queries again (all name groups' loading). After an
//! edit of an open buffer, every query that read only disk files and the structure is verified
//! in constant time; after a file created or deleted, every query that read only files (a source's parse, its
//! facts, its own diagnostics: tens of thousands on 10 000 skills) is, and so is every query of a
//! bucket no change has touched: the buckets of a whole discovery are `HIGH` and replaced, not
//! written, when they change (`Analysis::settled_buckets`), and a few changed ones at most stay
//! `MEDIUM` (`Analysis::unsettled_buckets`). For the same reason a disk file's first buffer is a
//! new input, not a write of the disk's (`Analysis::put_buffer_input`).
//! The whole-project queries read the sources through [`SourceBucket`]s of about [`BUCKET_SIZE`],
//! so that verifying them after one source's edit walks its bucket's sources and the other
//! buckets, not every source of the project; where a bucket ends depends on the paths alone, so
//! that a file created or deleted changes one or two buckets.
//!
//! Must not depend on `lsp` or `cli`; holds no global state (a `Database` is a value).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use salsa::{Durability, Setter};

use crate::base::suggest::{SuggestionIndex, SuggestionPieces};
use crate::base::{same, Diagnostic, Env, FileContent, FileEntry, FileSet, SharedList};
use crate::check::cross::ToolMention;
use crate::check::{self, CheckOptions};
use crate::config::Config;
use crate::context::EffectiveRoot;
use crate::rules::Profile;
use crate::workspace::catalog::ToolCatalog;
use crate::workspace::layout::{FileKind, Location};
use crate::workspace::resolution::{check_contexts_of, Who};
use crate::workspace::skill::{SkillDoc, TextSlice};
use crate::workspace::snapshot::{self, Parsed, WorkspaceFile};
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::tools::ToolsDoc;
use crate::workspace::Workspace;

pub mod batch;
mod by_file;
mod neighbours;
mod outside;

pub use by_file::{changed_keys, DiagnosticsByFile, WorkspaceDiagnostics};
use neighbours::{NeighbourMap, SkillsByRel};
pub use outside::Outside;

/// Kind and location of every workspace file, in path order.
pub type Kinds = BTreeMap<PathBuf, (Location, FileKind)>;

#[salsa::db]
#[derive(Clone, Default)]
pub struct Database {
    storage: salsa::Storage<Self>,
}

#[salsa::db]
impl salsa::Database for Database {}

/// The project: what every file's analysis may read besides the file itself.
#[salsa::input]
pub struct ProjectInput {
    #[returns(ref)]
    pub config: Arc<Config>,
    #[returns(ref)]
    pub config_diagnostics: Arc<Vec<Diagnostic>>,
    #[returns(ref)]
    pub env: Arc<Env>,
    #[returns(copy)]
    pub options: CheckOptions,
    /// Every file and folder of the project; skills and subagent specs are in it with their
    /// content's kind only (`layout_content`), their texts are in their `SourceFile`.
    #[returns(ref)]
    pub layout: Arc<FileSet>,
    /// Kind and location of every file of the layout the runtime reads (`snapshot::file_kinds`),
    /// changed with the layout by the same edits: a created skill places no other file again.
    #[returns(ref)]
    pub kinds: Arc<Kinds>,
    /// The layout without the skills' and subagent specs' text entries (an entry whose content
    /// is not a text stays), and without the skills' own folders (`<tree>/skills/<name>`) that
    /// hold nothing else: what the rules over skills and subagents read of the other files,
    /// each of them holding its own skills' and subagents' facts. So a SKILL.md created in or
    /// deleted from a folder, or with its folder, leaves it as it was.
    #[returns(ref)]
    pub frame: Arc<FileSet>,
    /// Every skill's own folder the layout holds, by the name group of its name
    /// ([`NAME_GROUPS`] inputs): the rules that ask about such a folder by name (SK016's host
    /// folder, XR009's `workspace.path`) find it here ([`frame_with_skill_folders`], one folder
    /// at a time: [`skill_folder_held`]), so that a folder created or deleted changes one
    /// group's input, not the frame, and re-runs only what asked about that folder.
    #[returns(ref)]
    pub skill_folders: Arc<Vec<SkillFolders>>,
    /// The skill sources at the paths (relative to their tree, every tree together) where a
    /// skill finds a neighbour (`check::loading::neighbour_rels`): a path two or more skills
    /// share, and the SKILL.md enclosing a nested one ([`SkillsByRel`], kept by the analysis).
    /// Most paths hold one skill and enclose none, so a skill created or deleted there leaves
    /// this as it was and runs no group's neighbours again.
    #[returns(ref)]
    pub neighbours: Arc<NeighbourMap>,
    /// The skills and subagent specs, in path order, in consecutive buckets.
    #[returns(ref)]
    pub buckets: Arc<Vec<SourceBucket>>,
    /// The tools.json files, in path order: their texts are inputs of their own (the layout holds
    /// their content's kind only), so that editing one leaves the layout and every file's
    /// placement as they were.
    #[returns(ref)]
    pub tools_files: Arc<Vec<SourceFile>>,
}

/// The skills' own folders of one name group ([`ProjectInput::skill_folders`]).
#[salsa::input]
pub struct SkillFolders {
    #[returns(ref)]
    pub folders: Arc<std::collections::BTreeSet<PathBuf>>,
}

/// The name of the skill folder `dir` is (`<tree>/skills/<name>`), if it is one.
fn skill_folder_name<'a>(config: &Config, dir: &'a Path) -> Option<&'a str> {
    // Most folders are passed over without being located.
    if dir.parent()?.file_name()? != "skills" {
        return None;
    }
    let (_, rel) = crate::workspace::layout::tree_root(config, dir)?;
    let mut parts = rel.components();
    let top = parts.next()?;
    let name = parts.next()?;
    (top.as_os_str() == "skills" && parts.next().is_none()).then_some(())?;
    name.as_os_str().to_str()
}

/// The skill folder `path` is or lies in, if any.
fn enclosing_skill_folder<'a>(config: &Config, path: &'a Path) -> Option<&'a Path> {
    path.ancestors()
        .find(|dir| skill_folder_name(config, dir).is_some())
}

/// The frame with those of `folders` that are skills' own folders the layout holds put back
/// ([`ProjectInput::skill_folders`]): for a rule family that asks about these folders by name.
/// The frame itself, not a copy, when it holds each already or none is a skill's folder.
fn frame_with_skill_folders(
    db: &dyn salsa::Database,
    project: ProjectInput,
    folders: impl IntoIterator<Item = PathBuf>,
) -> Arc<FileSet> {
    let config = project.config(db);
    let frame = project.frame(db);
    let missing: Vec<PathBuf> = folders
        .into_iter()
        .filter(|folder| !frame.contains_dir(folder))
        // Only skills' folders are asked about: each folder asked is a key the database keeps.
        .filter(|folder| skill_folder_name(config, folder).is_some())
        .filter(|folder| skill_folder_held(db, project, folder.clone()))
        .collect();
    if missing.is_empty() {
        return frame.clone();
    }
    let mut frame = (**frame).clone();
    for folder in missing {
        frame.insert_dir(folder);
    }
    Arc::new(frame)
}

/// Whether the layout holds `folder`, a skill's own folder: asked through a query of its own
/// so that a rule family reading it depends on this one folder, not on its name group's whole
/// input, which every folder created or deleted under a name of that group changes.
#[salsa::tracked(returns(copy))]
fn skill_folder_held(db: &dyn salsa::Database, project: ProjectInput, folder: PathBuf) -> bool {
    let config = project.config(db);
    skill_folder_name(config, &folder).is_some_and(|name| {
        project.skill_folders(db)[name_group_of(name) as usize]
            .folders(db)
            .contains(&folder)
    })
}

/// How many sources a [`SourceBucket`] holds on average: a bucket ends after a source whose path
/// hashes to one value in this many ([`bucket_ends_after`]), or at [`MAX_BUCKET_SIZE`].
pub const BUCKET_SIZE: usize = 128;

/// The most sources a bucket holds, whatever the hashes of their paths.
pub const MAX_BUCKET_SIZE: usize = 4 * BUCKET_SIZE;

/// The most `MEDIUM` buckets kept ([`Analysis::unsettled_buckets`]): few enough that verifying
/// them after a created file stays well under a millisecond, enough that creating and deleting
/// files in a few places does not settle and replace a bucket each time.
pub const MAX_UNSETTLED_BUCKETS: usize = 4;

/// Whether a bucket ends after the source at `path`. Decided by the path alone (content-defined
/// chunking), so that a source created or deleted changes its own bucket, and merges or splits
/// two at most, instead of shifting every later bucket by one, which ran every bucket's queries
/// again after each created or deleted file.
fn bucket_ends_after(path: &Path) -> bool {
    use std::hash::BuildHasher;
    GROUP_HASH.hash_one(path).is_multiple_of(BUCKET_SIZE as u64)
}

/// Consecutive sources (in path order) read together by the whole-project queries.
#[salsa::input]
pub struct SourceBucket {
    #[returns(ref)]
    pub sources: Arc<Vec<SourceFile>>,
}

/// A skill, a subagent spec or a tools.json: a file whose text is an input of its own.
#[salsa::input]
pub struct SourceFile {
    #[returns(ref)]
    pub path: PathBuf,
    #[returns(ref)]
    pub entry: FileEntry,
    #[returns(ref)]
    pub location: Location,
    #[returns(copy)]
    pub kind: FileKind,
    #[returns(copy)]
    pub project: ProjectInput,
}

/// Files whose text is an input of its own ([`SourceFile`]): the sources (`check::is_source`),
/// which also have diagnostics of their own, and tools.json.
fn has_text_input(kind: FileKind) -> bool {
    check::is_source(kind) || kind == FileKind::ToolsJson
}

/// Where `path` sits and its kind, when its text is an input of its own ([`has_text_input`]).
fn text_input_at(config: &Config, path: &Path) -> Option<(Location, FileKind)> {
    snapshot::placed(config, path).filter(|(_, kind)| has_text_input(*kind))
}

/// Whether the frame ([`ProjectInput::frame`]) holds the file at `path`, of `kind`, whose layout
/// content is `content`: every file but a skill's or subagent spec's text. An AGENTS.md stays
/// whatever it is: a `workspace.path` rule (`XR009`) asks whether a folder holds one, and one in
/// a `subagents/` folder is also read as a spec.
fn in_frame(path: &Path, kind: Option<FileKind>, content: &FileContent) -> bool {
    !(matches!(kind, Some(FileKind::Skill | FileKind::Subagent))
        && matches!(content, FileContent::Text(_))
        && path.file_name().is_none_or(|name| name != "AGENTS.md"))
}

/// What the layout holds for a source's content: its kind, never its text (a text is an empty
/// one), so that editing a source leaves the layout, and everything built on it, unchanged.
pub fn layout_content(content: &FileContent) -> FileContent {
    match content {
        FileContent::Text(_) => FileContent::Text(Arc::from("")),
        other => other.clone(),
    }
}

/// The file as the runtime parses it.
#[salsa::tracked(returns(clone))]
pub fn parsed(db: &dyn salsa::Database, file: SourceFile) -> Option<Parsed> {
    let project = file.project(db);
    snapshot::parse_file(
        file.path(db),
        file.location(db),
        file.kind(db),
        &file.entry(db).content,
        project.env(db),
    )
}

/// What other files' rules may read of a source: its parsed document without its body, and
/// without its diagnostics except the error that drops it (the loading resolution names that
/// rule); of a skill's frontmatter, its name and whether it has a description, no other key or
/// value. Equal facts stop an edit here: a body or description edit of a loaded skill, or any
/// edit of its other keys, re-runs no cross-file rule.
#[salsa::tracked(returns(clone))]
pub fn facts(db: &dyn salsa::Database, file: SourceFile) -> Option<Parsed> {
    Some(match parsed(db, file)? {
        // Field by field rather than `..clone()`: the keys and values left out are most of a
        // skill's size, and copying them only to drop them showed in `agentws check`.
        Parsed::Skill(doc) => Parsed::Skill(Arc::new(SkillDoc {
            path: doc.path.clone(),
            location: doc.location.clone(),
            dir_name: doc.dir_name.clone(),
            name: doc.name.clone(),
            name_range: doc.name_range,
            opening_range: doc.opening_range,
            // The preview's (which reads the full snapshot): a key line added to the
            // frontmatter moves it, and must not make the facts differ.
            frontmatter_closing_line: None,
            outcome: doc.outcome.clone(),
            fallback: doc.fallback,
            body: TextSlice::default(),
            split: None,
            // Its presence is part of the outcome already; its text and position are the
            // file's own rules' and the preview's (which reads the full snapshot).
            description: doc.description.as_ref().map(|_| String::new()),
            description_range: None,
            // Keys and values are the file's own rules' and the preview's; `SK025`, the one
            // whole-workspace rule that reads a key, asks `sets_allowed_tools` instead.
            metadata: Vec::new(),
            lost_keys: Vec::new(),
            dropped_keys: Vec::new(),
            diagnostics: dropping_error(&doc.diagnostics, doc.outcome.is_err()),
        })),
        Parsed::Subagent(doc) => Parsed::Subagent(Arc::new(SubagentDoc {
            body: None,
            body_range: None,
            split: None,
            // The preview's, as a skill's.
            frontmatter_closing_line: None,
            diagnostics: dropping_error(&doc.diagnostics, doc.outcome.is_err()),
            ..(*doc).clone()
        })),
        tools @ Parsed::Tools(_) => tools,
    })
}

fn dropping_error(diagnostics: &[Diagnostic], dropped: bool) -> Vec<Diagnostic> {
    use crate::base::Severity;
    if !dropped {
        return Vec::new();
    }
    diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
        .cloned()
        .into_iter()
        .collect()
}

/// Kind and location of every file of the frame ([`ProjectInput::frame`]).
#[salsa::tracked(returns(clone))]
pub fn frame_kinds(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Kinds> {
    Arc::new(snapshot::file_kinds(project.config(db), project.frame(db)))
}

/// Where a source sits: its input's path, location and kind, read together.
#[derive(Clone, PartialEq, Eq)]
pub struct Place {
    pub file: SourceFile,
    pub path: PathBuf,
    pub location: Location,
    pub kind: FileKind,
}

/// The places of a bucket's sources, in path order: what the whole-project maps of places
/// ([`skills_with_files`], [`any_skill`]) read, one memo per bucket. Reading three input
/// fields of every source made those maps, asked again after each file created or deleted,
/// record and later verify thirty thousand dependencies.
#[salsa::tracked(returns(clone))]
pub fn bucket_places(db: &dyn salsa::Database, bucket: SourceBucket) -> Arc<Vec<Place>> {
    Arc::new(
        bucket
            .sources(db)
            .iter()
            .map(|file| Place {
                file: *file,
                path: file.path(db).clone(),
                location: file.location(db).clone(),
                kind: file.kind(db),
            })
            .collect(),
    )
}

/// A per-bucket query's results over the project's buckets, in order: how the whole-project
/// queries read the sources.
fn each_bucket<T>(
    db: &dyn salsa::Database,
    project: ProjectInput,
    query: impl Fn(&dyn salsa::Database, SourceBucket) -> T,
) -> Vec<T> {
    project
        .buckets(db)
        .iter()
        .map(|bucket| query(db, *bucket))
        .collect()
}

/// A per-bucket list query's lists over the project's buckets, one after another.
fn concat_each_bucket<T: Clone, L: std::ops::Deref<Target = [T]>>(
    db: &dyn salsa::Database,
    project: ProjectInput,
    query: impl Fn(&dyn salsa::Database, SourceBucket) -> Arc<L>,
) -> Vec<T> {
    let lists = each_bucket(db, project, query);
    lists.iter().flat_map(|list| list.iter().cloned()).collect()
}

/// Whether any skill exists (whatever its content).
#[salsa::tracked(returns(copy))]
pub fn any_skill(db: &dyn salsa::Database, project: ProjectInput) -> bool {
    project.buckets(db).iter().any(|bucket| {
        bucket_places(db, *bucket)
            .iter()
            .any(|place| place.kind == FileKind::Skill)
    })
}

/// The tools.json files, the one the runtime reads first.
#[salsa::tracked(returns(clone))]
pub fn tools_docs(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Arc<ToolsDoc>>> {
    let mut docs: Vec<Arc<ToolsDoc>> = project
        .tools_files(db)
        .iter()
        .filter_map(|file| match parsed(db, *file)? {
            Parsed::Tools(doc) => Some(doc),
            _ => None,
        })
        .collect();
    snapshot::effective_first(project.config(db), &mut docs);
    Arc::new(docs)
}

/// The registered tools and what tools.json does to them. Reads no skill or subagent, so editing
/// one never re-verifies a file that mentions a tool.
#[salsa::tracked(returns(clone))]
pub fn catalog(db: &dyn salsa::Database, project: ProjectInput) -> Arc<ToolCatalog> {
    let config = project.config(db);
    let docs = tools_docs(db, project);
    Arc::new(ToolCatalog::new(
        config,
        any_skill(db, project),
        docs.first().map(Arc::as_ref),
    ))
}

/// A source's own diagnostics (`check::source_diagnostics`, and the strict rules in the strict
/// profile), in check order.
#[salsa::tracked(returns(clone))]
pub fn source_diagnostics(db: &dyn salsa::Database, file: SourceFile) -> Arc<Vec<Diagnostic>> {
    let Some(doc) = parsed(db, file) else {
        return Arc::new(Vec::new());
    };
    let project = file.project(db);
    let view = WorkspaceFile {
        path: file.path(db),
        location: file.location(db),
        kind: file.kind(db),
        entry: file.entry(db),
    };
    let mut out = check::source_diagnostics(&doc, view);
    if let (Parsed::Skill(skill), Profile::Strict) = (&doc, project.options(db).profile) {
        out.extend(strict_diagnostics(db, file, skill));
    }
    sort(&mut out);
    Arc::new(out)
}

/// The backticked names of a skill's text that may be tools' (`check::cross::tool_mentions`):
/// text alone, so a tools.json edit compares the memoised lists with the new catalog.
#[salsa::tracked(returns(clone))]
pub fn tool_mentions(db: &dyn salsa::Database, file: SourceFile) -> Arc<Vec<ToolMention>> {
    let text = file.entry(db).content.text();
    Arc::new(match text {
        Some(text) if check::cross::mentions_tools(file.kind(db)) => {
            check::cross::tool_mentions(text)
        }
        _ => Vec::new(),
    })
}

/// The sources of a bucket that mention any name a tool may have, with those mentions: read
/// once per bucket by [`bucket_removed_mentions`], so that a tools.json edit fetches a list per
/// bucket rather than a memo per source (fetching eleven thousand memos was four fifths of its
/// comparing the mentions with the new catalog).
#[salsa::tracked(returns(clone))]
pub fn bucket_tool_mentions(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
) -> Arc<Vec<(SourceFile, Arc<Vec<ToolMention>>)>> {
    Arc::new(
        bucket
            .sources(db)
            .iter()
            .map(|file| (*file, tool_mentions(db, *file)))
            .filter(|(_, mentions)| !mentions.is_empty())
            .collect(),
    )
}

/// The removed and foreign tools a bucket's skills mention (`XR010`, `XR017`): per bucket, so that a skill's edit runs
/// its bucket's again, and a tools.json edit compares every skill's memoised mentions and re-runs
/// no source's own rules.
#[salsa::tracked(returns(clone))]
pub fn bucket_removed_mentions(
    db: &dyn salsa::Database,
    project: ProjectInput,
    bucket: SourceBucket,
) -> Arc<Vec<Diagnostic>> {
    let catalog = catalog(db, project);
    let mut out = Vec::new();
    for (file, mentions) in bucket_tool_mentions(db, bucket).iter() {
        out.extend(check::cross::mentioned_among(
            &catalog,
            file.path(db),
            mentions,
        ));
    }
    Arc::new(out)
}

/// The strict rules of a skill: its text, and which files exist (the layout; only the strict
/// profile makes a skill's diagnostics depend on other files appearing).
fn strict_diagnostics(
    db: &dyn salsa::Database,
    file: SourceFile,
    skill: &SkillDoc,
) -> Vec<Diagnostic> {
    let text = file.entry(db).content.text().unwrap_or("");
    check::strict::check_source(skill, text, file.project(db).layout(db))
}

/// The facts of a bucket's sources, in path order.
#[salsa::tracked(returns(clone))]
pub fn bucket_facts(db: &dyn salsa::Database, bucket: SourceBucket) -> Arc<Vec<Parsed>> {
    Arc::new(
        bucket
            .sources(db)
            .iter()
            .filter_map(|file| facts(db, *file))
            .collect(),
    )
}

/// Every source as its facts, over the layout: the workspace `check::workspace_diagnostics` reads
/// at once, which the rule families' smaller workspaces must add up to (the agreement tests).
#[salsa::tracked(returns(clone), no_eq)]
pub fn facts_workspace(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Workspace> {
    let tools = tools_docs(db, project);
    let buckets: Vec<Arc<Vec<Parsed>>> = each_bucket(db, project, bucket_facts);
    let docs = buckets
        .iter()
        .flat_map(|facts| facts.iter().cloned())
        .chain(tools.iter().cloned().map(Parsed::Tools));
    Arc::new(layout_workspace_of(
        db,
        project,
        project.config_diagnostics(db).clone(),
        docs,
        project.kinds(db).clone(),
    ))
}

/// `check::content_diagnostics`: over the frame, which holds every file they judge, so that a
/// skill created or deleted in a folder the frame holds runs them not again.
#[salsa::tracked(returns(clone))]
pub fn content_diagnostics(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<Vec<Diagnostic>> {
    Arc::new(check::content_diagnostics(&workspace_of(
        db,
        project,
        std::iter::empty(),
    )))
}

/// `check::files::misspelt_files` of the frame: none is a source, so the frame holds them all.
#[salsa::tracked(returns(clone))]
pub fn misspelt_files(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<PathBuf>> {
    Arc::new(check::files::misspelt_files(project.frame(db)))
}

/// The rest of `check::layout_diagnostics` (its layout-wide rules): over a workspace of the
/// layout alone, with no skill, subagent or tools.json in it, so that only a change of the
/// layout or the configuration runs them again, and then only lookups and the misspelt files.
#[salsa::tracked(returns(clone))]
pub fn layout_diagnostics(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Diagnostic>> {
    // These rules look up the kinds of files that are neither skills nor subagent specs only
    // (the frame's), so that a created skill does not run them for a new map of every file.
    let workspace = layout_workspace_of(
        db,
        project,
        Arc::new(Vec::new()),
        std::iter::empty(),
        frame_kinds(db, project),
    );
    Arc::new(check::files::check_workspace_level(
        &workspace,
        &misspelt_files(db, project),
    ))
}

/// `check::configured_diagnostics`: over a workspace of the frame and the tools.json files.
#[salsa::tracked(returns(clone))]
pub fn configured_diagnostics(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<Vec<Diagnostic>> {
    let tools = tools_docs(db, project);
    // These read no skill or subagent spec, nor their folders: over the frame, a skill created
    // or deleted does not run them again (over the layout, the budget's lookups of every
    // AGENTS.md and MEMORY.md were a third of a created skill's time at 10 000 skills).
    let mut workspace = workspace_of(db, project, tools.iter().cloned().map(Parsed::Tools));
    workspace.config_diagnostics = project.config_diagnostics(db).clone();
    let catalog = catalog(db, project);
    Arc::new(check::configured_diagnostics(&workspace, &catalog))
}

/// The facts of a bucket's subagent specs, in path order: what the reference rules read of the
/// sources besides the skills they name (a skill edit leaves this equal).
#[salsa::tracked(returns(clone))]
pub fn bucket_subagent_facts(db: &dyn salsa::Database, bucket: SourceBucket) -> Arc<Vec<Parsed>> {
    Arc::new(
        bucket
            .sources(db)
            .iter()
            .filter(|file| file.kind(db) == FileKind::Subagent)
            .filter_map(|file| facts(db, *file))
            .collect(),
    )
}

/// How many subagents, in path order within a bucket, the rules over `skills:` entries run over
/// at once ([`chunk_skill_references`]): few enough that a subagent's edit resolves the contexts
/// over a few dozen skills, enough that a cold check does not resolve them a thousand times.
const SUBAGENT_CHUNK: usize = 16;

/// The chunks of a bucket's subagents, by number.
fn subagent_chunks(db: &dyn salsa::Database, bucket: SourceBucket) -> std::ops::Range<u32> {
    let count = bucket_subagent_facts(db, bucket)
        .len()
        .div_ceil(SUBAGENT_CHUNK);
    0..count as u32
}

/// Chunk `chunk` of a bucket's subagent facts ([`SUBAGENT_CHUNK`] of them, in path order).
/// Compared when it runs again, so that an edit of a subagent in another chunk stops here.
#[salsa::tracked(returns(clone))]
pub fn chunk_subagent_facts(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
    chunk: u32,
) -> Arc<Vec<Parsed>> {
    let all = bucket_subagent_facts(db, bucket);
    let mut chunks = all.chunks(SUBAGENT_CHUNK);
    Arc::new(
        chunks
            .nth(chunk as usize)
            .map(<[Parsed]>::to_vec)
            .unwrap_or_default(),
    )
}

/// `check::skill_references` of a chunk of subagents, over a workspace of those subagents and
/// the skills of the names they list ([`chunk_listed_facts`]). A subagent's edit runs its
/// chunk's again, over the few skills that chunk names; a skill's edit runs again only the
/// chunks that list its name (old or new), and renaming a skill nobody lists runs none.
#[salsa::tracked(returns(clone))]
pub fn chunk_skill_references(
    db: &dyn salsa::Database,
    project: ProjectInput,
    bucket: SourceBucket,
    chunk: u32,
) -> Arc<Vec<Diagnostic>> {
    let subagents = chunk_subagent_facts(db, bucket, chunk);
    let listed = chunk_listed_facts(db, project, bucket, chunk);
    let mut skills: Vec<&Parsed> = listed.0.iter().flat_map(|name| name.facts.iter()).collect();
    // A neighbour of two names, once.
    skills.sort_by(|a, b| a.path().cmp(b.path()));
    skills.dedup_by(|a, b| a.path() == b.path());
    let docs = skills.into_iter().cloned().chain(subagents.iter().cloned());
    // XR009 asks whether each `workspace.path` folder exists.
    let config = project.config(db);
    let folders = subagents.iter().filter_map(|subagent| match subagent {
        Parsed::Subagent(doc) => snapshot::subagent_workspace_dir(config, doc),
        _ => None,
    });
    let frame = frame_with_skill_folders(db, project, folders.collect::<Vec<_>>());
    let workspace = workspace_over(db, project, frame, docs);
    let known_skills = || skill_name_index(db, project);
    let contexts = check::loading::Contexts::of_roots(&workspace, &check_roots(db, project));
    let mut found = check::skill_references(&workspace, &contexts, &known_skills);
    sort(&mut found);
    Arc::new(found)
}

/// A bucket's [`chunk_skill_references`], chunk by chunk.
#[salsa::tracked(returns(clone))]
pub fn bucket_skill_references(
    db: &dyn salsa::Database,
    project: ProjectInput,
    bucket: SourceBucket,
) -> Arc<Vec<Diagnostic>> {
    let per_chunk: Vec<Arc<Vec<Diagnostic>>> = subagent_chunks(db, bucket)
        .map(|chunk| chunk_skill_references(db, project, bucket, chunk))
        .collect();
    Arc::new(
        per_chunk
            .iter()
            .flat_map(|found| found.iter().cloned())
            .collect(),
    )
}

/// What a chunk of subagents' `skills:` entries read: for each name they list, in [`ListedKey`]
/// order, the skills of that name with their neighbours (shared with [`group_listed_facts`]).
/// Compared when it runs again (by pointer first), so that an edit of a skill only another chunk
/// lists, or a name another chunk starts listing, stops here; kept unsorted by path, so that
/// running again costs a pointer per name.
#[salsa::tracked(returns(clone))]
pub fn chunk_listed_facts(
    db: &dyn salsa::Database,
    project: ProjectInput,
    bucket: SourceBucket,
    chunk: u32,
) -> Arc<ListedNames> {
    let mut read = Vec::new();
    for (group, names) in chunk_listed_names(db, bucket, chunk).iter() {
        let listed = group_listed_facts(db, project, *group);
        // Both sorted by key: one walk along the two, rather than a search per name.
        let mut entries = listed.0.iter().peekable();
        for key in names {
            while entries.next_if(|entry| entry.key < *key).is_some() {}
            if let Some(entry) = entries.next_if(|entry| entry.key == *key) {
                read.push(entry.clone());
            }
        }
    }
    Arc::new(SharedList(read))
}

/// The names a chunk of subagents lists, by name group, each group's sorted: what
/// [`chunk_listed_facts`] looks up, apart so that it runs again only when the chunk's subagents
/// change, while the listed facts run again whenever a group they read changes.
#[salsa::tracked(returns(clone))]
fn chunk_listed_names(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
    chunk: u32,
) -> Arc<Vec<(u32, Vec<ListedKey>)>> {
    let subagents = chunk_subagent_facts(db, bucket, chunk);
    let mut keys: Vec<(u32, ListedKey)> = listed_names(&subagents)
        .map(|name| {
            let key = ListedKey::new(name);
            (key.group(), key)
        })
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let mut by_group: Vec<(u32, Vec<ListedKey>)> = Vec::new();
    for (group, key) in keys {
        match by_group.last_mut() {
            Some((last, keys)) if *last == group => keys.push(key),
            _ => by_group.push((group, vec![key])),
        }
    }
    Arc::new(by_group)
}

/// The names the `skills:` entries of `subagents` list (repeats kept).
fn listed_names(subagents: &[Parsed]) -> impl Iterator<Item = &str> {
    subagents
        .iter()
        .flat_map(|doc| match doc {
            Parsed::Subagent(subagent) => subagent.skills.as_slice(),
            _ => &[],
        })
        .map(|entry| entry.value.as_str())
}

/// A skill name some subagent lists, with its hash, by which the listed names are sorted: merging
/// and walking them compares integers first, not strings behind pointers, which an edit right
/// after a preview finds out of the caches. Its name group is the hash's ([`name_group_of`]).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ListedKey {
    hash: u64,
    pub name: Arc<str>,
}

impl ListedKey {
    fn new(name: &str) -> Self {
        Self {
            hash: name_hash(name),
            name: Arc::from(name),
        }
    }

    fn group(&self) -> u32 {
        group_of_hash(self.hash)
    }
}

/// A name some subagent lists, with what an entry of it reads: the skills of that name in every
/// tree and their neighbours (`check::loading::neighbour_rels`), in path order.
#[derive(Clone, Debug, PartialEq)]
pub struct ListedName {
    pub key: ListedKey,
    pub facts: Vec<Parsed>,
}

/// Listed names in [`ListedKey`] order, each shared between the group's query and the chunks
/// that list it.
pub type ListedNames = SharedList<ListedName>;

/// The names of group `group` that some subagent lists and some skill has, in [`ListedKey`]
/// order, each with what it reads. One query per group rather than per name, so that verifying
/// after an edit walks sixty-four of these rather than thousands of names; editing a skill no
/// subagent lists leaves it equal, and so does listing a name no skill has (the chunk that lists it reads
/// nothing for it: typing a name into `skills:` runs no other chunk again until it names a skill).
#[salsa::tracked(returns(clone))]
pub fn group_listed_facts(
    db: &dyn salsa::Database,
    project: ProjectInput,
    group: u32,
) -> Arc<ListedNames> {
    let names = names_listed_in_group(db, project, group);
    if names.is_empty() {
        return Arc::new(ListedNames::default());
    }
    let members = name_group_facts(db, project, group);
    let listed = names.iter().filter_map(|key| {
        let named: Vec<&(SourceFile, Arc<SkillDoc>)> = members
            .iter()
            .filter(|(_, skill)| skill.name.as_deref() == Some(&*key.name))
            .collect();
        (!named.is_empty()).then(|| {
            Arc::new(ListedName {
                key: key.clone(),
                facts: with_neighbours(db, project, named),
            })
        })
    });
    Arc::new(listed.collect())
}

/// The skill names the subagents list, by name group, each group's in [`ListedKey`] order.
/// Merged from each bucket's list, so that a subagent's edit collects the names of its bucket
/// again, not of every subagent; each group's list is shared with [`names_listed_in_group`],
/// which a subagent's edit runs again for every group. The names are the buckets' own, shared:
/// buckets cut anew copy and compare pointers, not thousands of strings, and the merge sorts by
/// the keys' hashes, hashing nothing again.
#[salsa::tracked(returns(clone))]
pub fn names_listed(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<Vec<Arc<Vec<ListedKey>>>> {
    let per_bucket: Vec<Arc<Vec<ListedKey>>> = each_bucket(db, project, bucket_listed_names);
    let mut by_group: Vec<Vec<&ListedKey>> = vec![Vec::new(); NAME_GROUPS as usize];
    for key in per_bucket.iter().flat_map(|keys| keys.iter()) {
        by_group[key.group() as usize].push(key);
    }
    Arc::new(
        by_group
            .into_iter()
            .map(|mut names| {
                names.sort_unstable();
                names.dedup();
                Arc::new(names.into_iter().cloned().collect())
            })
            .collect(),
    )
}

/// Group `group`'s slot of [`names_listed`]: a subagent's edit re-runs the listed facts of the
/// groups whose names it changed, not of all sixty-four.
#[salsa::tracked(returns(clone))]
pub fn names_listed_in_group(
    db: &dyn salsa::Database,
    project: ProjectInput,
    group: u32,
) -> Arc<Vec<ListedKey>> {
    names_listed(db, project)[group as usize].clone()
}

/// Every bucket's [`bucket_skill_references`].
#[salsa::tracked(returns(clone))]
pub fn skill_references(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Diagnostic>> {
    Arc::new(concat_each_bucket(db, project, |db, bucket| {
        bucket_skill_references(db, project, bucket)
    }))
}

/// `check::tool_references` over the subagents and the tools.json files, with no skill: of the
/// skills they read only [`code_execution_detail`]. A tools.json edit runs these and nothing
/// that resolves a session context; a subagent's edit runs its chunk's [`chunk_tool_lists`] and
/// the tools.json rules, and merges.
#[salsa::tracked(returns(clone))]
pub fn tool_references(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Diagnostic>> {
    let mut found = tools_json_rules(db, project).to_vec();
    let chunks: Vec<Arc<check::cross::ToolListFindings>> = project
        .buckets(db)
        .iter()
        .flat_map(|bucket| {
            subagent_chunks(db, *bucket).map(|chunk| chunk_tool_lists(db, project, *bucket, chunk))
        })
        .collect();
    found.extend(check::cross::merge_tool_list_findings(
        chunks.iter().map(|chunk| &**chunk),
    ));
    Arc::new(found)
}

/// The tools.json rules (`check::tools::check_in`): of the subagents they read only which
/// register the harness built-ins again ([`subagents_registering_builtins`]).
#[salsa::tracked(returns(clone))]
pub fn tools_json_rules(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Diagnostic>> {
    let tools = tools_docs(db, project);
    let subagents = subagents_registering_builtins(db, project);
    let docs = subagents
        .0
        .iter()
        .cloned()
        .map(Parsed::Subagent)
        .chain(tools.iter().cloned().map(Parsed::Tools));
    let workspace = workspace_of(db, project, docs);
    let catalog = catalog(db, project);
    let code_execution = || code_execution_detail(db, project);
    Arc::new(check::tools::check_in(
        &workspace,
        &catalog,
        &code_execution,
    ))
}

/// The subagents that may register the harness built-ins again
/// (`check::tools::registers_builtins_again`), in path order: all that the tools.json rules read
/// of the subagents.
#[salsa::tracked(returns(clone))]
fn subagents_registering_builtins(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<BuiltinRegistrars> {
    let subagents = every_subagent_facts(db, project);
    Arc::new(BuiltinRegistrars(
        subagents
            .iter()
            .filter_map(|doc| match doc {
                Parsed::Subagent(subagent) => Some(subagent),
                _ => None,
            })
            .filter(|subagent| check::tools::registers_builtins_again(subagent, false))
            .cloned()
            .collect(),
    ))
}

/// [`subagents_registering_builtins`], equal when it lists the same files: of a subagent the
/// filter keeps, the tools.json rules read only its id and where it is (TJ029 names it, per-user
/// folder included), which its path gives (the id is the file name; a configuration that places
/// it elsewhere runs the rules again, since they read it). So an edit of a subagent's lists,
/// description or body does not run those rules again.
#[derive(Clone, Default)]
pub struct BuiltinRegistrars(Vec<Arc<SubagentDoc>>);

impl PartialEq for BuiltinRegistrars {
    fn eq(&self, other: &Self) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .zip(&other.0)
                // Most entries are the very facts memoised before.
                .all(|(a, b)| Arc::ptr_eq(a, b) || a.path == b.path)
    }
}

/// What the `tools:` and `model:` of chunk `chunk` of a bucket's subagents name
/// (`check::cross::tool_list_findings`), over a workspace of those subagents and tools.json.
#[salsa::tracked(returns(clone))]
pub fn chunk_tool_lists(
    db: &dyn salsa::Database,
    project: ProjectInput,
    bucket: SourceBucket,
    chunk: u32,
) -> Arc<check::cross::ToolListFindings> {
    let subagents = chunk_subagent_facts(db, bucket, chunk);
    let tools = tools_docs(db, project);
    let docs = subagents
        .iter()
        .cloned()
        .chain(tools.iter().cloned().map(Parsed::Tools));
    let workspace = workspace_of(db, project, docs);
    let catalog = catalog(db, project);
    Arc::new(check::cross::tool_list_findings(&workspace, &catalog))
}

/// Where the code-execution section is rendered (`check::tools::code_execution_contexts`), over
/// the skills of the names of skills whose folders hold files, with their neighbours, and
/// whether each context loads any skill (`contexts_loading_a_skill`). Asked only when tools.json
/// removes one of that section's tools.
#[salsa::tracked(returns(clone))]
pub fn code_execution_detail(db: &dyn salsa::Database, project: ProjectInput) -> Option<String> {
    let with_files: Vec<Option<Parsed>> = skills_with_files(db, project)
        .iter()
        .map(|file| facts(db, *file))
        .collect();
    let mut names: Vec<&str> = with_files
        .iter()
        .filter_map(|doc| match doc {
            Some(Parsed::Skill(skill)) => skill.name.as_deref(),
            _ => None,
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    let mut groups: Vec<u32> = names.iter().map(|name| name_group_of(name)).collect();
    groups.sort_unstable();
    groups.dedup();
    let facts: Vec<Arc<GroupFacts>> = groups
        .iter()
        .map(|group| name_group_facts(db, project, *group))
        .collect();
    let mut named: Vec<&(SourceFile, Arc<SkillDoc>)> = facts
        .iter()
        .flat_map(|group| group.iter())
        .filter(|(_, doc)| {
            doc.name
                .as_deref()
                .is_some_and(|name| names.binary_search(&name).is_ok())
        })
        .collect();
    named.sort_by(|a, b| a.1.path.cmp(&b.1.path));
    let docs = with_neighbours(db, project, named);
    let workspace = workspace_of(db, project, docs);
    let mut contexts = check::loading::Contexts::of_roots(&workspace, &check_roots(db, project));
    contexts.loads_a_skill = contexts_loading_a_skill(db, project).to_vec();
    check::tools::code_execution_contexts(&workspace, &contexts)
}

/// A subagent's facts as the subagents' loading outcomes read them
/// (`check::loading::check_subagents`: where it is, its id, whether it loads and is listed):
/// without its `tools:`, `skills:`, `model:` and the other keys only the reference rules and the
/// file's own rules read, so that editing them leaves every subagent's loading memoised.
#[salsa::tracked(returns(clone))]
pub fn subagent_loading_facts(
    db: &dyn salsa::Database,
    file: SourceFile,
) -> Option<Arc<SubagentDoc>> {
    let Parsed::Subagent(doc) = facts(db, file)? else {
        return None;
    };
    // Field by field, as in `facts`: a field added to the document is left out until a loading
    // rule needs it, rather than making every edit of it re-run them.
    Some(Arc::new(SubagentDoc {
        path: doc.path.clone(),
        location: doc.location.clone(),
        id: doc.id.clone(),
        description: doc.description.as_ref().map(|_| String::new()),
        workspace_mode: doc.workspace_mode,
        workspace_path: doc.workspace_path.clone(),
        body: None,
        model: None,
        steps: doc.steps,
        mode: doc.mode,
        hidden: doc.hidden,
        tools: Vec::new(),
        skills: Vec::new(),
        opening_range: doc.opening_range,
        frontmatter_closing_line: None,
        outcome: doc.outcome.clone(),
        diagnostics: doc.diagnostics.clone(),
        split: None,
        metadata: Vec::new(),
        description_range: None,
        temperature: None,
        top_p: None,
        variant: None,
        expose_to_user: None,
        body_range: None,
    }))
}

/// A bucket's [`subagent_loading_facts`], in path order.
#[salsa::tracked(returns(clone))]
pub fn bucket_subagent_loading_facts(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
) -> Arc<SharedList<SubagentDoc>> {
    let subagents = bucket
        .sources(db)
        .iter()
        .filter(|file| file.kind(db) == FileKind::Subagent);
    Arc::new(
        subagents
            .filter_map(|file| subagent_loading_facts(db, *file))
            .collect(),
    )
}

/// The subagents' loading outcomes (`check::loading::check_subagents`), over a workspace of the
/// subagents' [`subagent_loading_facts`] and no skill: the subagents' merge reads no skill, and
/// no subagent's lists.
#[salsa::tracked(returns(clone))]
pub fn subagent_loading(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Diagnostic>> {
    let facts = every_subagent_loading_facts(db, project);
    let docs = facts.iter().cloned().map(Parsed::Subagent);
    let workspace = workspace_of(db, project, docs);
    let contexts = check::loading::Contexts::of_roots(&workspace, &check_roots(db, project));
    let mut found = check::loading::check_subagents(&workspace, &contexts);
    sort(&mut found);
    Arc::new(found)
}

/// Every subagent's [`subagent_loading_facts`], in path order. Merged apart from
/// [`subagent_loading`] and compared, so that buckets cut anew (one replaced, split or merged
/// by a created file) run the subagents' loading again only when a subagent changed.
#[salsa::tracked(returns(clone))]
pub fn every_subagent_loading_facts(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<SharedList<SubagentDoc>> {
    Arc::new(SharedList(concat_each_bucket(
        db,
        project,
        bucket_subagent_loading_facts,
    )))
}

/// Every subagent's facts ([`bucket_subagent_facts`]), in path order, merged and compared like
/// [`every_subagent_loading_facts`].
#[salsa::tracked(returns(clone))]
pub fn every_subagent_facts(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Parsed>> {
    Arc::new(concat_each_bucket(db, project, bucket_subagent_facts))
}

/// The skill names a bucket's subagents list, in [`ListedKey`] order, each once.
#[salsa::tracked(returns(clone))]
pub fn bucket_listed_names(db: &dyn salsa::Database, bucket: SourceBucket) -> Arc<Vec<ListedKey>> {
    let subagents = bucket_subagent_facts(db, bucket);
    let mut keys: Vec<ListedKey> = listed_names(&subagents).map(ListedKey::new).collect();
    keys.sort_unstable();
    keys.dedup();
    Arc::new(keys)
}

/// The names of a bucket's skills, in path order: what [`skill_name_index`] reads, so that an
/// edit that keeps every name (a body, a description, a subagent) leaves it as it was.
#[salsa::tracked(returns(clone))]
pub fn bucket_skill_names(db: &dyn salsa::Database, bucket: SourceBucket) -> Arc<Vec<String>> {
    let skills = bucket
        .sources(db)
        .iter()
        .filter(|file| file.kind(db) == FileKind::Skill);
    let names = skills.filter_map(|file| match facts(db, *file)? {
        Parsed::Skill(skill) => skill.name.clone(),
        _ => None,
    });
    Arc::new(names.collect())
}

/// A bucket's skill names prepared for suggestions: one piece of [`skill_name_index`], built
/// again only when a name of its bucket changed.
#[salsa::tracked(returns(clone))]
pub fn bucket_name_index(db: &dyn salsa::Database, bucket: SourceBucket) -> Arc<SuggestionIndex> {
    let names = bucket_skill_names(db, bucket);
    Arc::new(SuggestionIndex::new(names.iter().map(String::as_str)))
}

/// Every skill's name, in path order, prepared for suggestions (`check::skill_name_index`), as
/// one piece per bucket: asked only to suggest a name for a `skills:` entry no skill has, once
/// for every chunk that asks. A changed name builds its bucket's piece again, not an index of
/// every name; the server asks for it after reading the project, so the first such
/// entry does not build every piece either.
#[salsa::tracked(returns(clone))]
pub fn skill_name_index(db: &dyn salsa::Database, project: ProjectInput) -> Arc<SuggestionPieces> {
    Arc::new(each_bucket(db, project, bucket_name_index))
}

/// The skills whose folder holds a file besides SKILL.md (from the layout alone).
#[salsa::tracked(returns(clone))]
pub fn skills_with_files(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<SourceFile>> {
    // A skill's resources are in the frame, its SKILL.md's text is not.
    let kinds = frame_kinds(db, project);
    let folders = snapshot::resource_folders(&kinds);
    if folders.is_empty() {
        return Arc::new(Vec::new());
    }
    let places = each_bucket(db, project, bucket_places);
    let found = places.iter().flat_map(|places| places.iter());
    let found =
        found.filter(|place| place.kind == FileKind::Skill && folders.has_files(&place.path));
    Arc::new(found.map(|place| place.file).collect())
}

/// The per-user folders of the workspace, in name order (`Workspace::namespaces`).
#[salsa::tracked(returns(clone))]
pub fn namespaces(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<String>> {
    let config = project.config(db);
    Arc::new(snapshot::namespaces(config, project.frame(db)))
}

/// The session contexts the check evaluates (`resolution::check_contexts`), computed once for
/// the many workspaces the rule families build: they read only the configuration and the
/// per-user folders, so creating a skill computes them again but changes nothing downstream.
#[salsa::tracked(returns(clone))]
pub fn check_roots(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<Vec<(Who, EffectiveRoot)>> {
    Arc::new(check_contexts_of(
        project.config(db),
        &namespaces(db, project),
    ))
}

/// A workspace over the project's frame holding `docs` (what one rule family over skills and
/// subagents reads): its rules see the other files, and of the skills and subagent specs those
/// the family holds.
fn workspace_of(
    db: &dyn salsa::Database,
    project: ProjectInput,
    docs: impl IntoIterator<Item = Parsed>,
) -> Workspace {
    workspace_over(db, project, project.frame(db).clone(), docs)
}

/// [`workspace_of`] over `frame` (the frame with folders put back).
fn workspace_over(
    db: &dyn salsa::Database,
    project: ProjectInput,
    frame: Arc<FileSet>,
    docs: impl IntoIterator<Item = Parsed>,
) -> Workspace {
    Workspace::from_parts(
        project.config(db).clone(),
        Arc::new(Vec::new()),
        frame,
        project.env(db).clone(),
        docs,
        frame_kinds(db, project),
        namespaces(db, project).to_vec(),
    )
}

/// A workspace over the whole layout holding `docs`, with `kinds`: for the rules over every file.
fn layout_workspace_of(
    db: &dyn salsa::Database,
    project: ProjectInput,
    config_diagnostics: Arc<Vec<Diagnostic>>,
    docs: impl IntoIterator<Item = Parsed>,
    kinds: Arc<Kinds>,
) -> Workspace {
    Workspace::from_parts(
        project.config(db).clone(),
        config_diagnostics,
        project.layout(db).clone(),
        project.env(db).clone(),
        docs,
        kinds,
        namespaces(db, project).to_vec(),
    )
}

/// How many groups, by name, the skills' loading outcomes are computed in
/// ([`name_group_loading`]).
pub const NAME_GROUPS: u32 = 64;

/// The group of a skill's facts: by its name, since its loading outcome reads the skills of its
/// name. A skill without a name loads under none; it goes by its folder's name, the one a
/// subagent's `skills:` entry finds it by (so [`SkillsByName`] holds every skill a name refers to
/// in that name's group).
fn name_group(skill: &SkillDoc) -> u32 {
    name_group_of(referred_name(skill))
}

/// The name a skill is grouped and referred to by: its `name`, or its folder's when it has none.
fn referred_name(skill: &SkillDoc) -> &str {
    skill.name.as_deref().unwrap_or(&skill.dir_name)
}

fn name_group_of(name: &str) -> u32 {
    group_of_hash(name_hash(name))
}

fn name_hash(name: &str) -> u64 {
    use std::hash::BuildHasher;
    GROUP_HASH.hash_one(name)
}

fn group_of_hash(hash: u64) -> u32 {
    (hash % u64::from(NAME_GROUPS)) as u32
}

/// A fixed seed: the grouping is part of what the database memoises, not a per-process map.
const GROUP_HASH: foldhash::fast::FixedState = foldhash::fast::FixedState::with_seed(0);

/// Skills with their facts, in path order. Equal when each entry is the same file with equal
/// facts, the pointer compared first: almost every entry is the very value `facts` memoised.
#[derive(Clone, Default)]
pub struct SkillFacts(pub Vec<(SourceFile, Arc<SkillDoc>)>);

impl PartialEq for SkillFacts {
    fn eq(&self, other: &Self) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .zip(&other.0)
                .all(|((f, a), (g, b))| f == g && same(a, b))
    }
}

impl Eq for SkillFacts {}

/// One name group's skills, in path order: the group's piece of each bucket that has any. The
/// pieces are shared with the buckets' queries, so gathering a group after an edit copies a
/// pointer per bucket rather than an entry per skill; an unchanged piece compares by pointer.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct GroupFacts(Vec<Arc<SkillFacts>>);

impl GroupFacts {
    pub fn iter(&self) -> impl Iterator<Item = &(SourceFile, Arc<SkillDoc>)> {
        self.0.iter().flat_map(|piece| piece.0.iter())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A bucket's skills by name group: entry `g` holds the bucket's skills of group `g`.
#[salsa::tracked(returns(clone))]
pub fn bucket_name_groups(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
) -> Arc<Vec<Arc<SkillFacts>>> {
    let mut groups = vec![SkillFacts::default(); NAME_GROUPS as usize];
    for file in bucket.sources(db).iter() {
        if let Some(Parsed::Skill(skill)) = facts(db, *file) {
            groups[name_group(&skill) as usize].0.push((*file, skill));
        }
    }
    Arc::new(groups.into_iter().map(Arc::new).collect())
}

/// Every name group's skills. The one query that reads every bucket: a group's queries read
/// their group from here, so that after an edit they verify one edge each, not a bucket per
/// group or a fact per skill.
#[salsa::tracked(returns(clone))]
pub fn name_groups(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Arc<GroupFacts>>> {
    let buckets: Vec<Arc<Vec<Arc<SkillFacts>>>> = each_bucket(db, project, bucket_name_groups);
    Arc::new(
        (0..NAME_GROUPS as usize)
            .map(|group| {
                let pieces = buckets.iter().map(|bucket| &bucket[group]);
                let held = pieces.filter(|piece| !piece.0.is_empty()).cloned();
                Arc::new(GroupFacts(held.collect()))
            })
            .collect(),
    )
}

/// The skills by name group, for requests that look a name up (definition): far fewer skills to
/// compare than the whole workspace's.
#[derive(Clone)]
pub struct SkillsByName(Arc<Vec<Arc<GroupFacts>>>);

impl SkillsByName {
    /// The paths of the skills referred to by `name`, in path order: those whose `name` it is,
    /// or whose folder's when they have none.
    pub fn named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Path> {
        self.0[name_group_of(name) as usize]
            .iter()
            .filter(move |(_, skill)| referred_name(skill) == name)
            .map(|(_, skill)| skill.path.as_path())
    }
}

/// The skills of name group `group`, in path order, with their facts.
#[salsa::tracked(returns(clone))]
pub fn name_group_facts(
    db: &dyn salsa::Database,
    project: ProjectInput,
    group: u32,
) -> Arc<GroupFacts> {
    name_groups(db, project)[group as usize].clone()
}

/// Skill sources by their path relative to their tree, in path order.
pub type SkillsAtRel = Vec<(String, Vec<SourceFile>)>;

/// The skill sources at the relative paths where the members of name group `group` find their
/// neighbours (`check::loading::neighbour_rels`), by path, in path order. Compared when it runs
/// again: a skill created or deleted at a path another file shares changes the map of those
/// paths ([`ProjectInput::neighbours`]), and the groups whose members it is no neighbour of stop
/// here.
#[salsa::tracked(returns(clone))]
pub fn group_neighbours(
    db: &dyn salsa::Database,
    project: ProjectInput,
    group: u32,
) -> Arc<SkillsAtRel> {
    let by_rel = project.neighbours(db);
    let members = name_group_facts(db, project, group);
    let mut found: SkillsAtRel = Vec::new();
    // Members often share a path (every user's `skills/x/SKILL.md` in a store): its files are
    // recorded once, not once per member, which held users x users entries.
    let mut recorded: foldhash::HashSet<String> = Default::default();
    for (member, doc) in members.iter() {
        for rel in check::loading::neighbour_rels(&doc.location.rel) {
            if recorded.contains(rel.as_ref()) {
                continue;
            }
            // Most skills are the only file at their own path: nothing to record.
            match by_rel.get(rel.as_ref()) {
                Some(files) if files.iter().any(|file| file != member) => {
                    recorded.insert(rel.to_string());
                    found.push((rel.into_owned(), files.clone()));
                }
                _ => {}
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    Arc::new(found)
}

/// The facts of `skills` (given in path order, each a member of its name group) and of their
/// neighbours ([`group_neighbours`]), in path order. The neighbours' facts are asked of their
/// own queries; the skills' are given. The few neighbours not among the skills are sorted apart
/// and merged in, rather than every entry sorted again.
fn with_neighbours(
    db: &dyn salsa::Database,
    project: ProjectInput,
    skills: Vec<&(SourceFile, Arc<SkillDoc>)>,
) -> Vec<Parsed> {
    let mut by_group: Vec<(u32, Arc<SkillsAtRel>)> = Vec::new();
    let given: foldhash::HashSet<SourceFile> = skills.iter().map(|(file, _)| *file).collect();
    let mut found: foldhash::HashSet<SourceFile> = Default::default();
    let mut neighbours: Vec<Parsed> = Vec::new();
    // Skills of one group often share their relative path (a store's users each hold
    // `skills/x/SKILL.md`): each (group, path) is looked up once, or every member would walk the
    // neighbours of all the others, a cost that grew with the square of the users.
    let mut seen_rels: foldhash::HashSet<(u32, &str)> = Default::default();
    for (_, doc) in &skills {
        let group = name_group(doc);
        if !seen_rels.insert((group, doc.location.rel.as_str())) {
            continue;
        }
        let at = match by_group.iter().position(|(g, _)| *g == group) {
            Some(at) => at,
            None => {
                by_group.push((group, group_neighbours(db, project, group)));
                by_group.len() - 1
            }
        };
        let by_rel = &by_group[at].1;
        for rel in check::loading::neighbour_rels(&doc.location.rel) {
            let Ok(index) = by_rel.binary_search_by(|(r, _)| r.as_str().cmp(rel.as_ref())) else {
                continue;
            };
            for neighbour in &by_rel[index].1 {
                if !given.contains(neighbour) && found.insert(*neighbour) {
                    neighbours.extend(facts(db, *neighbour));
                }
            }
        }
    }
    neighbours.sort_by(|a, b| a.path().cmp(b.path()));
    let mut neighbours = neighbours.into_iter().peekable();
    let mut read = Vec::with_capacity(skills.len() + neighbours.len());
    for (_, doc) in skills {
        while let Some(before) = neighbours.next_if(|n| n.path() < doc.path.as_path()) {
            read.push(before);
        }
        read.push(Parsed::Skill(doc.clone()));
    }
    read.extend(neighbours);
    read
}

/// The loading outcomes of the skills of name group `group` (`check::skill_loading`), over a
/// workspace of the group's skills and their neighbours: renaming a skill re-runs its old and its
/// new group, not the resolution of every skill in every context.
#[salsa::tracked(returns(clone))]
pub fn name_group_loading(
    db: &dyn salsa::Database,
    project: ProjectInput,
    group: u32,
) -> Arc<check::SkillLoading> {
    let members = name_group_facts(db, project, group);
    if members.is_empty() {
        return Arc::new(check::SkillLoading::default());
    }
    let docs = with_neighbours(db, project, members.iter().collect());
    // SK016 asks whether the folder a member's name gives, when not its own, exists.
    let config = project.config(db);
    let hosts = members.iter().filter_map(|(_, doc)| {
        let host = check::loading::host_folder(config, doc.name.as_deref()?);
        (doc.path.parent() != Some(host.as_path())).then_some(host)
    });
    let frame = frame_with_skill_folders(db, project, hosts.collect::<Vec<_>>());
    let workspace = workspace_over(db, project, frame, docs);
    let contexts = check::loading::Contexts::of_roots(&workspace, &check_roots(db, project));
    // The members are the group's skills; their neighbours, read but not reported, are of
    // other groups (a neighbour of this group would be a member).
    let mut found = check::skill_loading(&workspace, &contexts, &|doc| name_group(doc) == group);
    sort(&mut found.diagnostics);
    Arc::new(found)
}

/// Per check context, whether it loads any skill: the one fact of every skill's loading that
/// the code-execution section reads (`code_execution_detail`), and one that seldom changes (a
/// rename leaves it as it was).
#[salsa::tracked(returns(clone))]
pub fn contexts_loading_a_skill(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<bool>> {
    let mut loads: Vec<bool> = Vec::new();
    for group in 0..NAME_GROUPS {
        let found = name_group_loading(db, project, group);
        if loads.len() < found.loads_a_skill.len() {
            loads.resize(found.loads_a_skill.len(), false);
        }
        for (any, this) in loads.iter_mut().zip(&found.loads_a_skill) {
            *any |= this;
        }
    }
    Arc::new(loads)
}

/// Whether a source is a loaded skill that sets `allowed-tools` (no position: its key moving
/// re-runs nothing that reads this).
#[salsa::tracked(returns(copy))]
pub fn sets_allowed_tools(db: &dyn salsa::Database, file: SourceFile) -> bool {
    match parsed(db, file) {
        Some(Parsed::Skill(skill)) => {
            check::skill_allowed_tools_not_enforced::allowed_tools_key(&skill).is_some()
        }
        _ => false,
    }
}

/// The first skill of a bucket that sets `allowed-tools`, and how many of the bucket do.
#[salsa::tracked(returns(clone))]
pub fn bucket_allowed_tools_setters(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
) -> Option<(SourceFile, usize)> {
    let mut setting = bucket
        .sources(db)
        .iter()
        .filter(|file| sets_allowed_tools(db, **file));
    let first = *setting.next()?;
    Some((first, 1 + setting.count()))
}

/// The first skill in path order that sets `allowed-tools`, and how many do.
#[salsa::tracked(returns(clone))]
pub fn allowed_tools_setters(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Option<(SourceFile, usize)> {
    let mut found: Option<(SourceFile, usize)> = None;
    for bucket in project.buckets(db).iter() {
        if let Some((first, count)) = bucket_allowed_tools_setters(db, *bucket) {
            found = Some(match found {
                Some((earlier, total)) => (earlier, total + count),
                None => (first, count),
            });
        }
    }
    found
}

/// `SK025`: decided from `allowed_tools_setters`, placed by the first setter's parse alone.
#[salsa::tracked(returns(clone))]
pub fn allowed_tools_note(db: &dyn salsa::Database, project: ProjectInput) -> Option<Diagnostic> {
    let (first, count) = allowed_tools_setters(db, project)?;
    let Some(Parsed::Skill(skill)) = parsed(db, first) else {
        return None;
    };
    let range = check::skill_allowed_tools_not_enforced::allowed_tools_key(&skill)?;
    Some(check::skill_allowed_tools_not_enforced::allowed_tools_note(
        first.path(db),
        range,
        count,
    ))
}

/// A skill's keys the Agent Skills specification does not have (`ST007`), in the strict profile
/// only; a position moving re-runs [`strict_key_diagnostics`], which places them.
#[salsa::tracked(returns(clone))]
pub fn strict_unknown_keys(
    db: &dyn salsa::Database,
    file: SourceFile,
) -> Arc<Vec<check::strict::UnknownKey>> {
    if file.project(db).options(db).profile != Profile::Strict {
        return Arc::new(Vec::new());
    }
    Arc::new(match parsed(db, file) {
        Some(Parsed::Skill(skill)) => check::strict::unknown_keys(&skill),
        _ => Vec::new(),
    })
}

/// The skills of a bucket with keys outside the specification, with those keys.
#[salsa::tracked(returns(clone))]
pub fn bucket_strict_unknown_keys(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
) -> Arc<Vec<(SourceFile, Arc<Vec<check::strict::UnknownKey>>)>> {
    Arc::new(
        bucket
            .sources(db)
            .iter()
            .map(|file| (*file, strict_unknown_keys(db, *file)))
            .filter(|(_, keys)| !keys.is_empty())
            .collect(),
    )
}

/// `ST007`, one warning per key in the workspace (`check::strict::unknown_keys_said_once`), by
/// file: the buckets are in path order, so the first skill that sets a key carries it.
#[salsa::tracked(returns(clone))]
pub fn strict_key_diagnostics(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<DiagnosticsByFile> {
    let buckets = each_bucket(db, project, bucket_strict_unknown_keys);
    let found = buckets
        .iter()
        .flat_map(|bucket| bucket.iter())
        .map(|(file, keys)| (file.path(db).as_path(), keys.as_slice()));
    let said = check::strict::unknown_keys_said_once(found);
    Arc::new(by_file_in_check_order(std::iter::once(said.as_slice())))
}

/// The paths outside the scanned trees that a bucket's subagents name (`workspace.path` and its
/// AGENTS.md; `snapshot::referenced_paths`). Read from the facts: a body edit re-runs nothing.
#[salsa::tracked(returns(clone))]
pub fn bucket_referenced_paths(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
) -> Arc<Vec<PathBuf>> {
    let sources = bucket.sources(db);
    let Some(first) = sources.first() else {
        return Arc::new(Vec::new());
    };
    let config = first.project(db).config(db);
    let facts: Vec<Parsed> = sources
        .iter()
        .filter(|file| file.kind(db) == FileKind::Subagent)
        .filter_map(|file| facts(db, *file))
        .collect();
    let subagents = facts.iter().filter_map(|doc| match doc {
        Parsed::Subagent(subagent) => Some(subagent.as_ref()),
        _ => None,
    });
    Arc::new(snapshot::referenced_paths(config, subagents))
}

/// Every path outside the scanned trees that the project's subagents name, sorted: what a
/// front-end adds to the file set (`discover::add_referenced`), as `agentws check` does.
#[salsa::tracked(returns(clone))]
pub fn referenced_paths(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<PathBuf>> {
    let mut all: Vec<PathBuf> = Vec::new();
    for bucket in project.buckets(db).iter() {
        all.extend(bucket_referenced_paths(db, *bucket).iter().cloned());
    }
    all.sort();
    all.dedup();
    Arc::new(all)
}

/// Every bucket's [`bucket_removed_mentions`]. Merged apart from [`skill_family_diagnostics`]
/// and compared, so that buckets cut anew merge the family's map again only when a mention
/// changed.
#[salsa::tracked(returns(clone))]
pub fn removed_mentions(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Diagnostic>> {
    Arc::new(concat_each_bucket(db, project, |db, bucket| {
        bucket_removed_mentions(db, project, bucket)
    }))
}

/// `check::prompt_size_diagnostics`: the whole prompt, so over every source fully parsed; it asks
/// for them only when the configuration names a context window, and reads nothing else otherwise.
#[salsa::tracked(returns(clone))]
pub fn prompt_size_diagnostics(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<Vec<Diagnostic>> {
    let agent = &project.config(db).agent;
    if agent.model.is_none() && agent.context_window.is_none() {
        return Arc::new(Vec::new());
    }
    Arc::new(check::prompt_size_diagnostics(&parsed_workspace(
        db, project,
    )))
}

/// Every source fully parsed, over the layout: the workspace the preview renders, for the one rule
/// that weighs the rendered prompt.
#[salsa::tracked(returns(clone), no_eq)]
pub fn parsed_workspace(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Workspace> {
    let tools = tools_docs(db, project);
    let sources: Vec<Parsed> = project
        .buckets(db)
        .iter()
        .flat_map(|bucket| bucket.sources(db).iter())
        .filter_map(|file| parsed(db, *file))
        .collect();
    let docs = sources
        .into_iter()
        .chain(tools.iter().cloned().map(Parsed::Tools));
    Arc::new(layout_workspace_of(
        db,
        project,
        project.config_diagnostics(db).clone(),
        docs,
        project.kinds(db).clone(),
    ))
}

/// The rule families over the layout and the skills, by file, each list in check order:
/// [`layout_diagnostics`], [`configured_diagnostics`], the removed tools the skills mention
/// ([`removed_mentions`]), [`prompt_size_diagnostics`] and the skills' loading outcomes per name group
/// ([`name_group_loading`]). Kept apart from [`subagent_family_diagnostics`], so that an edit of
/// one side merges only its own map again.
#[salsa::tracked(returns(clone))]
pub fn skill_family_diagnostics(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<DiagnosticsByFile> {
    let layout = [
        content_diagnostics(db, project),
        layout_diagnostics(db, project),
        configured_diagnostics(db, project),
    ];
    let mentions = removed_mentions(db, project);
    let prompt_size = prompt_size_diagnostics(db, project);
    let loading: Vec<_> = (0..NAME_GROUPS)
        .map(|group| name_group_loading(db, project, group))
        .collect();
    let lists = layout
        .iter()
        .chain([&mentions, &prompt_size])
        .map(|list| list.as_slice());
    let lists = lists.chain(loading.iter().map(|group| group.diagnostics.as_slice()));
    Arc::new(by_file_in_check_order(lists))
}

/// The rule families over what the subagents name and how they load, by file, each list in
/// check order: [`skill_references`], [`tool_references`] and [`subagent_loading`].
#[salsa::tracked(returns(clone))]
pub fn subagent_family_diagnostics(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<DiagnosticsByFile> {
    let found = [
        skill_references(db, project),
        tool_references(db, project),
        subagent_loading(db, project),
    ];
    Arc::new(by_file_in_check_order(
        found.iter().map(|list| list.as_slice()),
    ))
}

fn by_file_in_check_order<'a>(found: impl Iterator<Item = &'a [Diagnostic]>) -> DiagnosticsByFile {
    let mut by_file: DiagnosticsByFile = BTreeMap::new();
    for d in found.flatten() {
        by_file.entry(d.path.clone()).or_default().push(d.clone());
    }
    for list in by_file.values_mut() {
        sort(list);
    }
    by_file
}

/// The rule families' diagnostics with [`allowed_tools_note`] beside them: every diagnostic that
/// is not a source's own. The note is kept apart, so that a description edit, which moves it,
/// neither merges the families again nor copies their maps.
#[salsa::tracked(returns(clone))]
pub fn workspace_diagnostics(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> WorkspaceDiagnostics {
    WorkspaceDiagnostics {
        families: [
            skill_family_diagnostics(db, project),
            subagent_family_diagnostics(db, project),
            strict_key_diagnostics(db, project),
        ],
        note: allowed_tools_note(db, project),
    }
}

pub(crate) fn sort(list: &mut Vec<Diagnostic>) {
    list.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    list.dedup();
}

/// What every source's diagnostics read besides the source itself (`source_diagnostics`: the
/// profile, and in the strict profile the layout; not the tool catalog). While it stays equal,
/// only the sources whose own input was set can have new diagnostics, so a caller need not ask
/// about the others.
#[derive(Clone)]
pub struct SharedReads {
    options: CheckOptions,
    layout: Option<Arc<FileSet>>,
}

impl PartialEq for SharedReads {
    fn eq(&self, other: &Self) -> bool {
        let same_layout = match (&self.layout, &other.layout) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        self.options == other.options && same_layout
    }
}

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
    spare: Option<Spare>,
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
    /// The sources a bucket ends after ([`bucket_ends_after`]), decided when each is added:
    /// hashing every source's path again for each created file was a fifth of its time.
    bucket_ends: foldhash::HashSet<SourceFile>,
    /// Every skill source by its path relative to its tree, for [`ProjectInput::neighbours`].
    skills_by_rel: SkillsByRel,
    /// The text inputs made for an editor's buffer (`LOW`): a disk file's input is replaced by
    /// one of these at its first buffer ([`Analysis::put_buffer_input`]), not written.
    buffer_inputs: foldhash::HashSet<SourceFile>,
}

/// See [`Analysis::spare`].
struct Spare {
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

/// The analysis at one state of its inputs, to compute from without the owner's lock (rust-
/// analyzer's snapshots); the owner tells whether its inputs changed since it took one. Setting
/// an input of the analysis cancels the queries running on a handle (they unwind with
/// `salsa::Cancelled`; see [`Handle::compute`]) and waits until every handle is dropped, so a
/// handle must never be held while waiting for the owner's lock.
pub struct Handle {
    db: Database,
    project: ProjectInput,
    sources: Arc<BTreeMap<PathBuf, SourceFile>>,
}

impl Handle {
    /// Runs `f` on this handle and drops it; `None` when an input was set meanwhile (the work
    /// was stale, and is left for the next refresh).
    pub fn compute<T>(self, f: impl FnOnce(&Handle) -> T) -> Option<T> {
        salsa::Cancelled::catch(std::panic::AssertUnwindSafe(move || f(&self))).ok()
    }

    pub fn workspace_diagnostics(&self) -> WorkspaceDiagnostics {
        workspace_diagnostics(&self.db, self.project)
    }

    /// [`Handle::workspace_diagnostics`] with the name groups asked on every core first: for a
    /// change of the layout, which runs all of them again (an edit of one source runs two at
    /// most, and spreading their verification over threads only adds to it).
    pub fn workspace_diagnostics_on_every_core(&self) -> WorkspaceDiagnostics {
        workspace_diagnostics_on_every_core(&self.db, self.project)
    }

    /// Builds the skill names' suggestion pieces ([`skill_name_index`]) now, so that the first
    /// `skills:` entry no skill has does not build all of them while the user types.
    pub fn prepare_skill_suggestions(&self) {
        skill_name_index(&self.db, self.project);
    }

    pub fn source_diagnostics(&self, file: SourceFile) -> Arc<Vec<Diagnostic>> {
        source_diagnostics(&self.db, file)
    }

    /// See [`SharedReads`].
    pub fn shared_reads(&self) -> SharedReads {
        shared_reads(&self.db, self.project)
    }

    /// The source input at `path`, if it is a skill or subagent spec.
    pub fn source(&self, path: &Path) -> Option<SourceFile> {
        self.sources.get(path).copied()
    }

    pub fn sources(&self) -> impl Iterator<Item = (&PathBuf, SourceFile)> {
        self.sources.iter().map(|(path, input)| (path, *input))
    }
}

fn shared_reads(db: &Database, project: ProjectInput) -> SharedReads {
    let options = project.options(db);
    SharedReads {
        options,
        layout: (options.profile == Profile::Strict).then(|| project.layout(db).clone()),
    }
}

/// [`workspace_diagnostics`], with the name groups and the buckets' skill references asked first
/// on every core (each thread on its own clone of the database, as rust-analyzer primes its
/// caches): they are independent, and a change of the layout or the configuration runs all of
/// them again. A cancellation raised in a worker reaches the caller as the same panic.
fn workspace_diagnostics_on_every_core(
    db: &Database,
    project: ProjectInput,
) -> WorkspaceDiagnostics {
    use rayon::prelude::*;
    (0..NAME_GROUPS)
        .into_par_iter()
        .for_each_with(db.clone(), |db, group| {
            name_group_loading(db, project, group);
        });
    project
        .buckets(db)
        .par_iter()
        .for_each_with(db.clone(), |db, bucket| {
            bucket_skill_references(db, project, *bucket);
        });
    workspace_diagnostics(db, project)
}

/// How an input was written: from disk, or from an editor buffer (changes often).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Disk,
    Buffer,
}

impl Origin {
    fn durability(self) -> Durability {
        match self {
            Origin::Disk => Durability::HIGH,
            Origin::Buffer => Durability::LOW,
        }
    }
}

impl Analysis {
    /// A database for `files` under `config`.
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
            settled_buckets: Default::default(),
            unsettled_buckets: Vec::new(),
            bucket_ends: Default::default(),
            buffer_inputs: Default::default(),
            skills_by_rel: Default::default(),
        };
        analysis.set_files(files);
        analysis
    }

    /// Replaces every file (after a discovery): the layout, and a source input per skill and
    /// subagent spec, reusing the inputs of unchanged ones. One walk over the layout in path
    /// order, each source's text moved out of it: no lookup by path (none at all on a first call),
    /// since on 10 000 files the path comparisons of the lookups showed in `agentws check`.
    pub fn set_files(&mut self, files: &FileSet) {
        let config = self.project.config(&self.db).clone();
        let mut layout = files.clone();
        let mut sources = Vec::new();
        let mut not_in_frame: Vec<PathBuf> = Vec::new();
        let mut tools_files = BTreeMap::new();
        // The known sources in path order, walked beside the files (in the same order): one
        // comparison of paths per file instead of a search of the map for each.
        let previous = self.sources.clone();
        let mut known_sources = previous.iter().peekable();
        for (path, layout_entry) in layout.iter_mut() {
            let Some((location, kind)) = text_input_at(&config, path) else {
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
            let input = match known {
                Some(input)
                    if *input.location(&self.db) == location && input.kind(&self.db) == kind =>
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
                _ => SourceFile::builder(path.clone(), entry, location, kind, self.project)
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
        let mut frame = layout.without(&not_in_frame);
        // One walk over the folders and the frame's files in path order, since what lies below
        // a folder follows it: a lookup per folder compared paths a hundred thousand times.
        let mut by_group = vec![Vec::new(); NAME_GROUPS as usize];
        let mut keep = Vec::new();
        {
            let dirs: Vec<&PathBuf> = frame.dirs().collect();
            let mut files = frame.iter().map(|(path, _)| path).peekable();
            for (at, dir) in dirs.iter().enumerate() {
                let Some(name) = skill_folder_name(&config, dir) else {
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
        for (group, folders) in by_group.into_iter().enumerate() {
            // In path order already: collecting builds the set in one pass.
            self.set_skill_folders(group, folders.into_iter().collect());
        }
        if **self.project.frame(&self.db) != frame {
            self.set_frame(frame);
        }
        let kinds = snapshot::file_kinds(&config, &layout);
        // Copied now, while the whole discovery takes hundreds of milliseconds anyway, rather
        // than by the first created or deleted file (five of its milliseconds at 10 000 skills).
        let spare = Spare {
            layout: Arc::new(layout.clone()),
            kinds: Arc::new(kinds.clone()),
            last: None,
        };
        self.set_layout(layout, kinds);
        self.set_buckets(None);
        self.spare = Some(spare);
    }

    /// One file appearing, changing or going (`entry` is `None`), whatever its kind: what
    /// [`Analysis::set_files`] makes of the file set with this one change, without walking the
    /// other files (a created skill walked and compared all 10 000 of them). Returns true when
    /// the layout was set (anything but one source's or tools.json's text replacing another).
    pub fn set_file(&mut self, path: &Path, entry: Option<&FileEntry>, origin: Origin) -> bool {
        if let Some(entry) = entry {
            if self.set_source_entry(path, entry, origin)
                || self.set_tools_entry(path, entry, origin)
            {
                return false;
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
                        Some(file) => self.write_text_input(file, entry, origin),
                        None => {
                            let file = self.new_text_input(path, entry, &location, kind, origin);
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
        true
    }

    /// The current layout and kinds with `edit` applied: each built from the spare one when
    /// nothing else holds it, else from a copy of the current one.
    fn layout_with(&mut self, edit: &LayoutEdit) -> (FileSet, Kinds) {
        let config = self.project.config(&self.db).clone();
        let (mut layout, mut kinds) = (None, None);
        if let Some(Spare {
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
        self.spare = Some(Spare {
            layout,
            kinds,
            last: Some(edit),
        });
    }

    /// A folder created (`exists`) or deleted, whose files are set one by one with
    /// [`Analysis::set_file`] (before it is deleted, after it is created): the folders of the
    /// layout and of the frame. Returns true when they changed.
    pub fn set_folder(&mut self, dir: &Path, exists: bool) -> bool {
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
            let mut frame = (**frame).clone();
            edit.apply(&mut frame);
            // The skill folder it was in may hold nothing else now.
            let emptied = dir
                .parent()
                .and_then(|parent| enclosing_skill_folder(&config, parent))
                .filter(|folder| frame.contains_dir(folder) && !frame.holds_anything(folder));
            if let Some(folder) = emptied {
                frame.remove_dir(folder);
            }
            (frame != **self.project.frame(&self.db)).then_some(frame)
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

    /// One file's new content. Returns false when the change is not one source's text replacing
    /// another (a file appearing or going, any other kind): the caller then calls `set_files`.
    pub fn set_source_entry(&mut self, path: &Path, entry: &FileEntry, origin: Origin) -> bool {
        let Some(input) = self.sources.get(path).copied() else {
            return false;
        };
        self.set_text_entry(path, input, entry, origin)
    }

    /// [`Analysis::set_source_entry`] for a tools.json.
    pub fn set_tools_entry(&mut self, path: &Path, entry: &FileEntry, origin: Origin) -> bool {
        let Some(input) = self.tools_files.get(path).copied() else {
            return false;
        };
        self.set_text_entry(path, input, entry, origin)
    }

    fn set_text_entry(
        &mut self,
        path: &Path,
        input: SourceFile,
        entry: &FileEntry,
        origin: Origin,
    ) -> bool {
        let before = layout_content(&input.entry(&self.db).content);
        if before != layout_content(&entry.content) {
            return false;
        }
        if input.entry(&self.db) == entry {
            return true;
        }
        match origin {
            Origin::Buffer if !self.buffer_inputs.contains(&input) => {
                self.put_buffer_input(path, input, entry);
            }
            _ => self.write_text_input(input, entry, origin),
        }
        true
    }

    /// Writes a text input's entry with `origin`'s durability, and remembers which inputs are
    /// now a buffer's.
    fn write_text_input(&mut self, input: SourceFile, entry: &FileEntry, origin: Origin) {
        match origin {
            Origin::Buffer => self.buffer_inputs.insert(input),
            Origin::Disk => self.buffer_inputs.remove(&input),
        };
        input
            .set_entry(&mut self.db)
            .with_durability(origin.durability())
            .to(entry.clone());
    }

    /// The first buffer of a disk file: a new input of `LOW` durability in place of `input`,
    /// rather than a write of it. A write reports its change at the durability the input had,
    /// `HIGH` for a disk file, so that every `HIGH` memo of the project (each file's parse,
    /// facts and mentions) was verified again, edge by edge, on the first `didOpen` of each
    /// file. A new input changes the lists that hold it instead
    /// (its bucket, or the tools.json list: `MEDIUM`), as a created file does.
    fn put_buffer_input(&mut self, path: &Path, input: SourceFile, entry: &FileEntry) {
        let (location, kind) = (input.location(&self.db).clone(), input.kind(&self.db));
        let file = self.new_text_input(path, entry, &location, kind, Origin::Buffer);
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

    /// A new text input for `path`, of `origin`'s durability (a buffer's is remembered as such).
    fn new_text_input(
        &mut self,
        path: &Path,
        entry: &FileEntry,
        location: &Location,
        kind: FileKind,
        origin: Origin,
    ) -> SourceFile {
        let file = SourceFile::builder(
            path.to_path_buf(),
            entry.clone(),
            location.clone(),
            kind,
            self.project,
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
    /// caller then calls `set_files`, which places the files under it.
    pub fn set_config(&mut self, config: Arc<Config>, config_diagnostics: Arc<Vec<Diagnostic>>) {
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
    pub fn set_options(&mut self, options: CheckOptions) {
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

    /// The options the front-end asked for (see [`Analysis::set_options`]).
    pub fn requested_options(&self) -> CheckOptions {
        self.requested
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
    /// `previous` was one source's text (`set_source_entry`).
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
        previous.with_sources(files, replaced)
    }

    /// The full snapshot over `files` (which must be the file set this analysis was given): the
    /// parsed documents of the database, nothing parsed again.
    pub fn snapshot(&self, files: Arc<FileSet>) -> Workspace {
        let project = self.project;
        let db = &self.db;
        let tools = tools_docs(db, project);
        let docs = self
            .sources
            .values()
            .filter_map(|file| parsed(db, *file))
            .chain(tools.iter().cloned().map(Parsed::Tools));
        Workspace::from_parts(
            project.config(db).clone(),
            project.config_diagnostics(db).clone(),
            files,
            project.env(db).clone(),
            docs,
            project.kinds(db).clone(),
            namespaces(db, project).to_vec(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SKILL: &str = "/p/.agentscope/workspace/skills/a/SKILL.md";

    fn skill(description: &str) -> String {
        format!("---\nname: a\ndescription: {description}\nallowed-tools: read_file\n---\nBody\n")
    }

    fn analysis(text: &str) -> (Analysis, FileSet) {
        let mut files = FileSet::new();
        files.insert_dir(PathBuf::from("/p/.agentscope/workspace"));
        files.insert_text(PathBuf::from(SKILL), text);
        (analysis_of(&files), files)
    }

    /// The analysis of `files` in the project `/p` with the default configuration.
    fn analysis_of(files: &FileSet) -> Analysis {
        Analysis::new(
            Arc::new(Config::defaults_for(Path::new("/p"))),
            Arc::new(Vec::new()),
            Arc::new(Env::new()),
            CheckOptions::default(),
            files,
        )
    }

    fn edit(analysis: &mut Analysis, text: &str) {
        let entry = FileEntry {
            content: FileContent::Text(Arc::from(text)),
            version: Some(text.len() as i32),
        };
        assert!(analysis.set_source_entry(Path::new(SKILL), &entry, Origin::Buffer));
    }

    /// Every diagnostic of the analysis, in check order.
    fn all_diagnostics(analysis: &Analysis) -> Vec<Diagnostic> {
        let handle = analysis.handle();
        let mut out: Vec<Diagnostic> = handle.workspace_diagnostics().iter().cloned().collect();
        for (_, file) in handle.sources() {
            out.extend(handle.source_diagnostics(file).iter().cloned());
        }
        sort(&mut out);
        out
    }

    /// What `agentws check` finds in the same files.
    fn checked(files: &FileSet) -> Vec<Diagnostic> {
        let workspace = Workspace::build(
            Arc::new(Config::defaults_for(Path::new("/p"))),
            Vec::new(),
            Arc::new(files.clone()),
            Arc::new(Env::new()),
            None,
        );
        batch::check_workspace(&workspace, CheckOptions::default()).diagnostics
    }

    /// Several buckets of sources: the whole-project queries see all of them, in path order,
    /// also after an edit inside one bucket and after a deletion that shifts every bucket.
    #[test]
    fn sources_in_many_buckets_give_what_check_gives() {
        let dir = "/p/.agentscope/workspace/skills";
        let mut files = FileSet::new();
        files.insert_dir(PathBuf::from("/p/.agentscope/workspace"));
        let count = BUCKET_SIZE * 2 + 7;
        for i in 0..count {
            // Two skills named alike in different buckets, and an `allowed-tools` setter late.
            let name = if i == count - 1 {
                "s1".to_string()
            } else {
                format!("s{i}")
            };
            let extra = if i > BUCKET_SIZE {
                "allowed-tools: read_file\n"
            } else {
                ""
            };
            files.insert_text(
                PathBuf::from(format!("{dir}/s{i:03}/SKILL.md")),
                &format!("---\nname: {name}\ndescription: d\n{extra}---\nBody\n"),
            );
        }
        let mut analysis = analysis_of(&files);
        let expected = checked(&files);
        assert!(expected.iter().any(|d| d.code == "SK025"), "{expected:?}");
        assert!(analysis.project.buckets(&analysis.db).len() > 2);
        assert_eq!(all_diagnostics(&analysis), expected);

        let edited = PathBuf::from(format!("{dir}/s150/SKILL.md"));
        files.insert_text(edited.clone(), "---\nname: s2\ndescription: d\n---\nBody\n");
        let entry = files.get(&edited).unwrap().clone();
        assert!(analysis.set_source_entry(&edited, &entry, Origin::Buffer));
        assert_eq!(all_diagnostics(&analysis), checked(&files));

        files.remove(Path::new(&format!("{dir}/s000/SKILL.md")));
        analysis.set_files(&files);
        assert_eq!(all_diagnostics(&analysis), checked(&files));
    }

    /// The skills folder of 2 000 skills `s0000` to `s1999`, and their files.
    fn two_thousand_skills() -> (&'static str, FileSet) {
        let dir = "/p/.agentscope/workspace/skills";
        let mut files = FileSet::new();
        files.insert_dir(PathBuf::from("/p/.agentscope/workspace"));
        for i in 0..2000 {
            files.insert_text(
                PathBuf::from(format!("{dir}/s{i:04}/SKILL.md")),
                &format!("---\nname: s{i}\ndescription: d\n---\nBody\n"),
            );
        }
        (dir, files)
    }

    /// A skill created in the middle of the project changes one or two buckets; the others keep
    /// their inputs and their sources, so their queries are not run again.
    #[test]
    fn a_created_source_changes_one_or_two_buckets() {
        let (dir, mut files) = two_thousand_skills();
        let mut analysis = analysis_of(&files);
        let buckets = |analysis: &Analysis| -> Vec<(SourceBucket, Vec<SourceFile>)> {
            let db = &analysis.db;
            let list = analysis.project.buckets(db);
            list.iter().map(|b| (*b, b.sources(db).to_vec())).collect()
        };
        let before = buckets(&analysis);
        assert!(before.len() > 8, "{}", before.len());
        files.insert_text(
            PathBuf::from(format!("{dir}/s1000a/SKILL.md")),
            "---\nname: new\ndescription: d\n---\nBody\n",
        );
        analysis.set_files(&files);
        let after = buckets(&analysis);
        let changed = after.iter().filter(|b| !before.contains(b)).count();
        assert!(
            (1..=2).contains(&changed),
            "{changed} of {} buckets",
            after.len()
        );
        assert_eq!(all_diagnostics(&analysis), checked(&files));
    }

    /// Files created and deleted across every bucket, one at a time: at most
    /// `MAX_UNSETTLED_BUCKETS` buckets are `MEDIUM` at any time (each created file verifies
    /// those edge by edge), every other bucket is a settled one, and the diagnostics stay those
    /// of a whole check.
    #[test]
    fn buckets_changed_long_ago_are_settled_again() {
        let (_, mut files) = two_thousand_skills();
        let mut analysis = analysis_of(&files);
        let lasts: Vec<PathBuf> = {
            let db = &analysis.db;
            let buckets = analysis.project.buckets(db).iter();
            buckets
                .filter_map(|b| Some(b.sources(db).last()?.path(db).clone()))
                .collect()
        };
        assert!(lasts.len() > 2 * MAX_UNSETTLED_BUCKETS, "{}", lasts.len());
        for last in &lasts {
            // Right after the bucket's last skill: the start of the next bucket.
            let folder = last.parent().unwrap().to_str().unwrap();
            let created = PathBuf::from(format!("{folder}a/SKILL.md"));
            files.insert_text(created.clone(), "---\nname: new\ndescription: d\n---\n");
            assert!(analysis.set_file(&created, files.get(&created), Origin::Disk));
            let db = &analysis.db;
            let listed = analysis.project.buckets(db);
            let unsettled: Vec<_> = listed
                .iter()
                .filter(|b| !analysis.settled_buckets.contains(b))
                .collect();
            assert!(
                unsettled.len() <= MAX_UNSETTLED_BUCKETS,
                "{} unsettled",
                unsettled.len()
            );
            let known = |b: &&SourceBucket| analysis.unsettled_buckets.contains(b);
            assert!(unsettled.iter().all(known));
        }
        assert_eq!(all_diagnostics(&analysis), checked(&files));
        for last in &lasts {
            let folder = last.parent().unwrap().to_str().unwrap();
            let created = PathBuf::from(format!("{folder}a/SKILL.md"));
            files.remove(&created);
            assert!(analysis.set_file(&created, None, Origin::Disk));
        }
        assert_eq!(all_diagnostics(&analysis), checked(&files));
    }

    /// Skills whose paths end no bucket, for a run longer than `MAX_BUCKET_SIZE`, and a few that
    /// do: the two ways a bucket ends.
    fn bucket_cutting_skills() -> Vec<PathBuf> {
        let dir = "/p/.agentscope/workspace/skills";
        let path = |i: usize| PathBuf::from(format!("{dir}/s{i:05}/SKILL.md"));
        let mut run: Vec<PathBuf> = (0..)
            .map(path)
            .filter(|p| !bucket_ends_after(p))
            .take(MAX_BUCKET_SIZE + 200)
            .collect();
        // After the run in path order, among a few that do not end one.
        let path = |i: usize| PathBuf::from(format!("{dir}/t{i:05}/SKILL.md"));
        run.extend((0..).map(path).filter(|p| bucket_ends_after(p)).take(3));
        run.extend((0..).map(path).filter(|p| !bucket_ends_after(p)).take(3));
        run.sort();
        run
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(24))]
        /// After each source created or deleted alone, the buckets hold the sources a cut of them
        /// all gives (the cut only around the change meets the old one again where it should),
        /// every listed bucket is settled or among the few unsettled ones, and no other is.
        #[test]
        fn buckets_cut_around_a_change_are_those_of_a_whole_cut(
            present in proptest::collection::vec(proptest::bool::weighted(0.9), MAX_BUCKET_SIZE + 206),
            steps in proptest::collection::vec(0..MAX_BUCKET_SIZE + 206, 1..24),
        ) {
            let paths = bucket_cutting_skills();
            let text = "---\nname: s\ndescription: d\n---\n";
            let mut files = FileSet::new();
            files.insert_dir(PathBuf::from("/p/.agentscope/workspace"));
            for (path, _) in paths.iter().zip(&present).filter(|(_, here)| **here) {
                files.insert_text(path.clone(), text);
            }
            let mut analysis = analysis_of(&files);
            for step in steps {
                let path = &paths[step];
                if files.get(path).is_some() {
                    files.remove(path);
                } else {
                    files.insert_text(path.clone(), text);
                }
                analysis.set_file(path, files.get(path), Origin::Disk);
                let db = &analysis.db;
                let listed = analysis.project.buckets(db);
                let paths_of = |sources: &[SourceFile]| -> Vec<PathBuf> {
                    sources.iter().map(|file| file.path(db).clone()).collect()
                };
                let held: Vec<_> = listed.iter().map(|b| paths_of(b.sources(db))).collect();
                let whole = analysis.cut_buckets(&[], None).1;
                let whole: Vec<_> = whole.iter().map(|chunk| paths_of(chunk)).collect();
                proptest::prop_assert_eq!(held, whole);
                for bucket in listed.iter() {
                    let settled = analysis.settled_buckets.contains(bucket);
                    let unsettled = analysis.unsettled_buckets.contains(bucket);
                    proptest::prop_assert!(settled != unsettled);
                }
                proptest::prop_assert!(analysis.settled_buckets.iter().all(|b| listed.contains(b)));
                proptest::prop_assert!(analysis.unsettled_buckets.len() <= MAX_UNSETTLED_BUCKETS);
            }
        }
    }

    /// How many of a query's memoised results were computed again: they are new allocations.
    fn ran_again<T>(before: &[Arc<T>], after: &[Arc<T>]) -> usize {
        before
            .iter()
            .zip(after)
            .filter(|(a, b)| !Arc::ptr_eq(a, b))
            .count()
    }

    /// Each name group's loading, group by group.
    fn group_loading(analysis: &Analysis) -> Vec<Arc<check::SkillLoading>> {
        (0..NAME_GROUPS)
            .map(|group| name_group_loading(&analysis.db, analysis.project, group))
            .collect()
    }

    /// Opening a file makes its text an editor's (`LOW` instead of `HIGH`): only its own name
    /// group's loading runs again (its member is a new input: [`Analysis::put_buffer_input`]),
    /// as no aggregate over the buckets loses durability.
    #[test]
    fn the_first_buffer_of_a_disk_file_runs_only_its_group_again() {
        let ws = "/p/.agentscope/workspace";
        let mut files = FileSet::new();
        for i in 0..300 {
            files.insert_text(
                PathBuf::from(format!("{ws}/skills/s{i:03}/SKILL.md")),
                &format!("---\nname: s{i}\ndescription: d\n---\nBody\n"),
            );
        }
        let mut analysis = analysis_of(&files);
        let before = group_loading(&analysis);
        let opened = PathBuf::from(format!("{ws}/skills/s007/SKILL.md"));
        // The disk's text, now with the editor's version.
        let entry = FileEntry {
            version: Some(0),
            ..files.get(&opened).unwrap().clone()
        };
        assert!(analysis.set_source_entry(&opened, &entry, Origin::Buffer));
        assert_eq!(ran_again(&before, &group_loading(&analysis)), 1);
        assert_eq!(all_diagnostics(&analysis), checked(&files));
    }

    /// The tools.json rules read, of the subagents, only the ids and places of those that
    /// register the built-ins again (TJ029): editing a subagent with a shared workspace, or the
    /// lists and text of an isolated one, leaves them as they were; making an isolated one
    /// primary, or a subagent isolated, runs them again. After each step the diagnostics are a fresh
    /// check's, and TJ029 names the subagents it should.
    #[test]
    fn tools_json_rules_read_only_the_subagents_registering_builtins() {
        let ws = "/p/.agentscope/workspace";
        let mut files = FileSet::new();
        files.insert_text(
            PathBuf::from(format!("{ws}/tools.json")),
            r#"{"deny": ["execute"]}"#,
        );
        let spec = |description: &str, extra: &str| {
            format!("---\ndescription: {description}\n{extra}---\nHelps.\n")
        };
        let shared = PathBuf::from(format!("{ws}/subagents/shared.md"));
        let isolated = PathBuf::from(format!("{ws}/subagents/isolated.md"));
        let shared_mode = "workspace:\n  mode: shared\n";
        files.insert_text(shared.clone(), &spec("a", shared_mode));
        files.insert_text(isolated.clone(), &spec("b", ""));
        let mut analysis = analysis_of(&files);
        let mut step = |analysis: &mut Analysis, path: &Path, text: &str| {
            let before = tools_json_rules(&analysis.db, analysis.project);
            files.insert_text(path.to_path_buf(), text);
            analysis.set_file(path, files.get(path), Origin::Disk);
            let diagnostics = all_diagnostics(analysis);
            assert_eq!(diagnostics, checked(&files));
            let after = tools_json_rules(&analysis.db, analysis.project);
            let tj029: Vec<String> = diagnostics
                .into_iter()
                .filter(|d| d.code == "TJ029")
                .map(|d| d.message)
                .collect();
            (!Arc::ptr_eq(&before, &after), tj029)
        };
        let (ran, tj029) = step(&mut analysis, &shared, &spec("a again", shared_mode));
        assert!(!ran, "a shared-workspace subagent's edit");
        assert_eq!(tj029.len(), 1);
        assert!(
            tj029[0].contains("subagent `isolated` is isolated"),
            "{tj029:?}"
        );
        let (ran, _) = step(
            &mut analysis,
            &isolated,
            &spec("b again", "tools: [grep_files]\n"),
        );
        assert!(!ran, "an isolated subagent's description and tools edited");
        let (ran, tj029) = step(&mut analysis, &isolated, &spec("b", "mode: primary\n"));
        assert!(ran, "an isolated subagent made primary");
        assert_eq!(tj029, Vec::<String>::new());
        let (ran, tj029) = step(&mut analysis, &shared, &spec("a", ""));
        assert!(ran, "a subagent made isolated");
        assert!(
            tj029[0].contains("subagent `shared` is isolated"),
            "{tj029:?}"
        );
        // One isolated subagent for another in one change: as many, not the same.
        let before = tools_json_rules(&analysis.db, analysis.project);
        let other = PathBuf::from(format!("{ws}/subagents/other.md"));
        files.remove(&shared);
        files.insert_text(other.clone(), &spec("c", ""));
        analysis.set_file(&shared, None, Origin::Disk);
        analysis.set_file(&other, files.get(&other), Origin::Disk);
        let diagnostics = all_diagnostics(&analysis);
        assert_eq!(diagnostics, checked(&files));
        let after = tools_json_rules(&analysis.db, analysis.project);
        assert!(!Arc::ptr_eq(&before, &after));
        assert!(
            after
                .iter()
                .any(|d| d.code == "TJ029" && d.message.contains("subagent `other` is isolated")),
            "{after:?}"
        );
    }

    /// The first buffer of a disk file gets an input of its own (a write would report its change
    /// at the `HIGH` durability of the disk's input, so that every file's memos were verified
    /// again); later buffers, and the disk's text once the buffer is closed, write that input.
    /// After each step the buckets hold the sources a fresh analysis puts in them, and the
    /// diagnostics are a fresh check's.
    #[test]
    fn the_first_buffer_of_a_disk_file_is_an_input_of_its_own() {
        let ws = "/p/.agentscope/workspace";
        let mut files = FileSet::new();
        let skill = |i: usize| PathBuf::from(format!("{ws}/skills/s{i:03}/SKILL.md"));
        for i in 0..300 {
            files.insert_text(
                skill(i),
                &format!("---\nname: s{i}\ndescription: d\n---\nB\n"),
            );
        }
        let subagent = PathBuf::from(format!("{ws}/subagents/helper.md"));
        let spec = "---\nname: helper\ndescription: d\nskills: [s1]\n---\nHelps.\n";
        files.insert_text(subagent.clone(), spec);
        let tools = PathBuf::from(format!("{ws}/tools.json"));
        files.insert_text(tools.clone(), "{\"deny\": []}");
        let mut analysis = analysis_of(&files);
        let input_of = |analysis: &Analysis, path: &Path| {
            (analysis.sources.get(path))
                .or(analysis.tools_files.get(path))
                .copied()
                .unwrap()
        };
        let buckets = |analysis: &Analysis| -> Vec<Vec<PathBuf>> {
            let db = &analysis.db;
            let listed = analysis.project.buckets(db);
            let sources = listed.iter().map(|bucket| bucket.sources(db));
            let paths = sources.map(|list| list.iter().map(|file| file.path(db).clone()));
            paths.map(Iterator::collect).collect()
        };
        // A source that ends its bucket: its input is what the bucket's end is known by.
        let ending = (0..300).map(skill).find(|path| bucket_ends_after(path));
        let edited = [
            (ending.unwrap(), "---\nname: s\ndescription: e\n---\nB\n"),
            (
                subagent,
                "---\nname: helper\ndescription: d\nskills: [s2]\n---\nH\n",
            ),
            (tools, "{\"deny\": [\"read_file\"]}"),
        ];
        for (path, text) in edited {
            let disk = files.get(&path).unwrap().clone();
            let mut step = |analysis: &mut Analysis, entry: &FileEntry, origin: Origin| {
                files.insert(path.clone(), entry.content.clone(), entry.version);
                analysis.set_file(&path, Some(entry), origin);
                assert_eq!(buckets(analysis), buckets(&analysis_of(&files)));
                assert_eq!(all_diagnostics(analysis), checked(&files));
                input_of(analysis, &path)
            };
            let on_disk = input_of(&analysis, &path);
            let opened = FileEntry {
                version: Some(0),
                ..disk.clone()
            };
            let first = step(&mut analysis, &opened, Origin::Buffer);
            assert!(first != on_disk, "{path:?}");
            let typed = FileEntry {
                content: FileContent::Text(Arc::from(text)),
                version: Some(1),
            };
            assert!(step(&mut analysis, &typed, Origin::Buffer) == first);
            assert!(step(&mut analysis, &disk, Origin::Disk) == first);
        }
    }

    /// A file appearing, changing or going, set alone (`Analysis::set_file`), gives the inputs
    /// and the diagnostics a whole file set (`Analysis::set_files`) gives; a SKILL.md created
    /// in, or deleted from, a folder that exists leaves the frame as it was and runs the loading
    /// of its own name group again, and of no other.
    #[test]
    fn one_file_set_alone_gives_what_the_whole_file_set_gives() {
        let ws = "/p/.agentscope/workspace";
        let mut files = FileSet::new();
        files.insert_text(PathBuf::from(format!("{ws}/AGENTS.md")), "Persona\n");
        for i in 0..300 {
            files.insert_text(
                PathBuf::from(format!("{ws}/skills/s{i:03}/SKILL.md")),
                &format!("---\nname: s{i}\ndescription: d\n---\nBody\n"),
            );
        }
        files.insert_text(
            PathBuf::from(format!("{ws}/subagents/a.md")),
            "---\nname: a\ndescription: d\nskills: [s1, later]\nworkspace:\n  path: subagents/home\n---\nBody\n",
        );
        // Read as a spec, and as the AGENTS.md of `a`'s `workspace.path` (XR009 asks for it).
        files.insert_text(
            PathBuf::from(format!("{ws}/subagents/home/AGENTS.md")),
            "Home\n",
        );
        files.insert_dir(PathBuf::from(format!("{ws}/skills/later")));
        let mut analysis = analysis_of(&files);
        let same_as_whole = |analysis: &Analysis, files: &FileSet| {
            let whole = analysis_of(files);
            let (db, fresh) = (&analysis.db, &whole.db);
            assert_eq!(**analysis.project.layout(db), **whole.project.layout(fresh));
            assert_eq!(**analysis.project.frame(db), **whole.project.frame(fresh));
            let skill_folders = |a: &Analysis| -> Vec<Arc<std::collections::BTreeSet<PathBuf>>> {
                let groups = a.project.skill_folders(&a.db).iter();
                groups.map(|group| group.folders(&a.db).clone()).collect()
            };
            assert_eq!(skill_folders(analysis), skill_folders(&whole));
            // The neighbours kept file by file, by path (the inputs differ between analyses).
            let neighbours = |a: &Analysis| -> BTreeMap<String, Vec<PathBuf>> {
                let path = |file: &SourceFile| file.path(&a.db).clone();
                let map = a.project.neighbours(&a.db).iter();
                map.map(|(rel, files)| (rel.clone(), files.iter().map(path).collect()))
                    .collect()
            };
            assert_eq!(neighbours(analysis), neighbours(&whole));
            assert_eq!(analysis.project.kinds(db), whole.project.kinds(fresh));
            let paths = |a: &Analysis| -> Vec<PathBuf> {
                let listed = a.project.tools_files(&a.db).iter();
                let tools = listed.map(|file| file.path(&a.db).clone());
                a.sources.keys().cloned().chain(tools).collect()
            };
            assert_eq!(paths(analysis), paths(&whole));
            assert_eq!(all_diagnostics(analysis), checked(files));
        };
        let before = group_loading(&analysis);
        let frame = analysis.project.frame(&analysis.db).clone();

        let created = PathBuf::from(format!("{ws}/skills/later/SKILL.md"));
        files.insert_text(created.clone(), "---\nname: later\n---\nNo description.\n");
        assert!(analysis.set_file(&created, files.get(&created), Origin::Disk));
        assert!(Arc::ptr_eq(&frame, analysis.project.frame(&analysis.db)));
        let after = group_loading(&analysis);
        assert_eq!(ran_again(&before, &after), 1);
        same_as_whole(&analysis, &files);

        files.remove(&created);
        assert!(analysis.set_file(&created, None, Origin::Disk));
        assert!(Arc::ptr_eq(&frame, analysis.project.frame(&analysis.db)));
        assert_eq!(ran_again(&after, &group_loading(&analysis)), 1);
        same_as_whole(&analysis, &files);

        // A user's override of a skill, and a skill nested in another, each created and deleted:
        // the paths they share or enclose become neighbours, and stop being so.
        let nested = PathBuf::from(format!("{ws}/skills/s002/extra/SKILL.md"));
        let overriding = PathBuf::from(format!("{ws}/alice/skills/s001/SKILL.md"));
        for path in [&nested, &overriding, &nested, &overriding] {
            if files.get(path).is_some() {
                files.remove(path);
                assert!(analysis.set_file(path, None, Origin::Disk));
            } else {
                files.insert_text(path.clone(), "---\nname: s1\ndescription: d\n---\n");
                assert!(analysis.set_file(path, files.get(path), Origin::Disk));
            }
            // One path each: `skills/s002/SKILL.md`, `skills/s001/SKILL.md`.
            let present = [&nested, &overriding];
            let present = present.iter().filter(|p| files.get(p).is_some()).count();
            assert_eq!(analysis.project.neighbours(&analysis.db).len(), present);
            same_as_whole(&analysis, &files);
        }

        // A skill in a folder of its own, its text too large to read, then readable again.
        let fresh = PathBuf::from(format!("{ws}/skills/fresh/SKILL.md"));
        files.insert(fresh.clone(), FileContent::TooLarge { size: 1 << 30 }, None);
        assert!(analysis.set_file(&fresh, files.get(&fresh), Origin::Disk));
        same_as_whole(&analysis, &files);
        files.insert_text(fresh.clone(), "---\nname: fresh\ndescription: d\n---\n");
        assert!(analysis.set_file(&fresh, files.get(&fresh), Origin::Disk));
        same_as_whole(&analysis, &files);

        // A skill created with its folder, as a watcher reports it (the folder, then the file),
        // and deleted with it: the frame stays as it was, one group's loading runs again.
        let frame = analysis.project.frame(&analysis.db).clone();
        let before = group_loading(&analysis);
        let folder = PathBuf::from(format!("{ws}/skills/new-one"));
        let created = folder.join("SKILL.md");
        files.insert_text(
            created.clone(),
            "---\nname: new-one\n---\nNo description.\n",
        );
        assert!(analysis.set_folder(&folder, true));
        assert!(analysis.set_file(&created, files.get(&created), Origin::Disk));
        assert!(Arc::ptr_eq(&frame, analysis.project.frame(&analysis.db)));
        assert_eq!(ran_again(&before, &group_loading(&analysis)), 1);
        same_as_whole(&analysis, &files);
        // A skill whose name is not its folder's asks whether the folder its name gives exists
        // (SK016): a folder of another name of that name group runs no group's loading again,
        // the folder its name gives runs the group's.
        let misnamed = PathBuf::from(format!("{ws}/skills/misnamed/SKILL.md"));
        files.insert_text(misnamed.clone(), "---\nname: wanted\ndescription: d\n---\n");
        assert!(analysis.set_file(&misnamed, files.get(&misnamed), Origin::Disk));
        same_as_whole(&analysis, &files);
        let group = name_group_of("wanted");
        let sibling = (0..)
            .map(|i| format!("sibling-{i}"))
            .find(|name| name_group_of(name) == group)
            .expect("some name falls in the group");
        for name in [sibling.as_str(), "wanted"] {
            let folder = PathBuf::from(format!("{ws}/skills/{name}"));
            let before = group_loading(&analysis);
            files.insert_dir(folder.clone());
            assert!(analysis.set_folder(&folder, true));
            same_as_whole(&analysis, &files);
            let runs = ran_again(&before, &group_loading(&analysis));
            assert_eq!(runs, usize::from(name == "wanted"), "{name}");
            files.remove_dirs_from(&folder);
            assert!(analysis.set_folder(&folder, false));
            same_as_whole(&analysis, &files);
        }
        files.remove(&misnamed);
        assert!(analysis.set_file(&misnamed, None, Origin::Disk));
        same_as_whole(&analysis, &files);
        // Something else in it puts the folder in the frame; taking it away takes it out.
        let script = folder.join("scripts/run.py");
        files.insert(script.clone(), FileContent::NotLoaded, None);
        assert!(analysis.set_folder(&folder.join("scripts"), true));
        assert!(analysis.set_file(&script, files.get(&script), Origin::Disk));
        same_as_whole(&analysis, &files);
        files.remove(&script);
        assert!(analysis.set_file(&script, None, Origin::Disk));
        same_as_whole(&analysis, &files);
        files.remove_dirs_from(&folder.join("scripts"));
        assert!(analysis.set_folder(&folder.join("scripts"), false));
        same_as_whole(&analysis, &files);
        let notes = folder.join("notes.txt");
        files.insert(notes.clone(), FileContent::NotLoaded, None);
        assert!(analysis.set_file(&notes, files.get(&notes), Origin::Disk));
        same_as_whole(&analysis, &files);
        files.remove(&notes);
        assert!(analysis.set_file(&notes, None, Origin::Disk));
        same_as_whole(&analysis, &files);
        files.remove(&created);
        files.remove_dirs_from(&folder);
        assert!(analysis.set_file(&created, None, Origin::Disk));
        assert!(analysis.set_folder(&folder, false));
        same_as_whole(&analysis, &files);
        // The whole skills folder deleted, then made again.
        let skills = PathBuf::from(format!("{ws}/skills"));
        let under: Vec<PathBuf> = files.files_under(&skills).map(|(p, _)| p.clone()).collect();
        for path in &under {
            files.remove(path);
            analysis.set_file(path, None, Origin::Disk);
        }
        files.remove_dirs_from(&skills);
        assert!(analysis.set_folder(&skills, false));
        same_as_whole(&analysis, &files);
        let first = skills.join("first/SKILL.md");
        files.insert_text(
            first.clone(),
            "---\nname: first\ndescription: d\n---\nBody\n",
        );
        assert!(analysis.set_file(&first, files.get(&first), Origin::Disk));
        same_as_whole(&analysis, &files);

        // Files of other kinds: the persona edited, a knowledge file and a tools.json created,
        // the tools.json edited (its own input) and deleted.
        let agents = PathBuf::from(format!("{ws}/AGENTS.md"));
        files.insert_text(agents.clone(), "Another persona\n");
        assert!(analysis.set_file(&agents, files.get(&agents), Origin::Buffer));
        same_as_whole(&analysis, &files);
        let knowledge = PathBuf::from(format!("{ws}/knowledge/notes.md"));
        files.insert(knowledge.clone(), FileContent::NotLoaded, None);
        assert!(analysis.set_file(&knowledge, files.get(&knowledge), Origin::Disk));
        same_as_whole(&analysis, &files);
        let tools = PathBuf::from(format!("{ws}/tools.json"));
        files.insert_text(tools.clone(), r#"{"deny": ["grep_files"]}"#);
        assert!(analysis.set_file(&tools, files.get(&tools), Origin::Disk));
        same_as_whole(&analysis, &files);
        files.insert_text(tools.clone(), r#"{"deny": ["read_file"],}"#);
        assert!(!analysis.set_file(&tools, files.get(&tools), Origin::Buffer));
        same_as_whole(&analysis, &files);
        files.remove(&tools);
        assert!(analysis.set_file(&tools, None, Origin::Disk));
        same_as_whole(&analysis, &files);
    }

    /// The rules over what `skills:` and `tools:` entries name run per chunk of subagents:
    /// editing one subagent's lists runs its chunk's again and no other, renaming a skill that no
    /// subagent lists runs none, and renaming a listed one runs the chunks that list it; each time
    /// the diagnostics equal a fresh check, the findings merged across chunks (one warning per
    /// repeated unknown tool list, `XR003` once) included.
    #[test]
    fn subagent_rules_run_again_only_for_the_chunks_that_read_a_change() {
        let ws = "/p/.agentscope/workspace";
        let mut files = FileSet::new();
        files.insert_dir(PathBuf::from(ws));
        let skill = |i: usize| format!("---\nname: s{i}\ndescription: d\n---\nBody\n");
        let spec = |listed: &str, tools: &str| {
            format!("---\ndescription: d\nskills: [{listed}]\ntools: [{tools}]\n---\nHelp.\n")
        };
        let tools_of = |i: usize| ["no_such_tool", "read_file", "grep_files"][i % 3];
        for i in 0..600 {
            files.insert_text(
                PathBuf::from(format!("{ws}/skills/s{i:04}/SKILL.md")),
                &skill(i),
            );
        }
        for i in 0..600 {
            let listed = format!("s{}, s{}", i % 7, 100 + i % 5);
            files.insert_text(
                PathBuf::from(format!("{ws}/subagents/a{i:04}.md")),
                &spec(&listed, tools_of(i)),
            );
        }
        let mut analysis = analysis_of(&files);
        let mut set = |analysis: &mut Analysis, path: String, text: String| {
            let path = PathBuf::from(path);
            files.insert_text(path.clone(), &text);
            let entry = files.get(&path).unwrap().clone();
            assert!(analysis.set_source_entry(&path, &entry, Origin::Buffer));
            assert_eq!(all_diagnostics(analysis), checked(&files));
        };
        /// Each chunk's memoised results, chunk by chunk.
        struct Chunks {
            references: Vec<Arc<Vec<Diagnostic>>>,
            tool_lists: Vec<Arc<check::cross::ToolListFindings>>,
        }
        let results = |analysis: &Analysis| -> Chunks {
            let (db, project) = (&analysis.db, analysis.project);
            let buckets = project.buckets(db).clone();
            let chunks = |bucket: SourceBucket| {
                subagent_chunks(db, bucket).map(move |chunk| (bucket, chunk))
            };
            let all: Vec<_> = buckets.iter().flat_map(|bucket| chunks(*bucket)).collect();
            Chunks {
                references: all
                    .iter()
                    .map(|(bucket, chunk)| chunk_skill_references(db, project, *bucket, *chunk))
                    .collect(),
                tool_lists: all
                    .iter()
                    .map(|(bucket, chunk)| chunk_tool_lists(db, project, *bucket, *chunk))
                    .collect(),
            }
        };
        let subagent = format!("{ws}/subagents/a0300.md");
        // The first edit of a buffer lowers its durability, which salsa does not backdate over
        // (the same text would set nothing).
        set(
            &mut analysis,
            subagent.clone(),
            spec("s6,  s100", tools_of(300)),
        );
        set(
            &mut analysis,
            format!("{ws}/skills/s0500/SKILL.md"),
            skill(500).replace("Body", "B"),
        );
        set(
            &mut analysis,
            format!("{ws}/skills/s0003/SKILL.md"),
            skill(3).replace("Body", "B"),
        );
        let before = results(&analysis);
        assert!(
            before.references.len() > 30,
            "{} chunks",
            before.references.len()
        );

        set(
            &mut analysis,
            format!("{ws}/skills/s0500/SKILL.md"),
            skill(500).replace("s500", "t500"),
        );
        assert_eq!(
            ran_again(&before.references, &results(&analysis).references),
            0
        );

        // A name no subagent listed before (from here on, that chunk also reads every name, to
        // suggest one).
        set(
            &mut analysis,
            subagent.clone(),
            spec("s6, no-such-skill", tools_of(300)),
        );
        let after = results(&analysis);
        assert_eq!(ran_again(&before.references, &after.references), 1);
        assert!(ran_again(&before.tool_lists, &after.tool_lists) <= 1);
        assert!(after
            .references
            .iter()
            .any(|found| found.iter().any(|d| d.code == "XR004")));

        // Its `tools:` list now names the first subagent's unknown tool and another.
        let before = results(&analysis);
        set(
            &mut analysis,
            subagent,
            spec("s6, no-such-skill", "no_such_tool, other_tool"),
        );
        let after = results(&analysis);
        assert_eq!(ran_again(&before.tool_lists, &after.tool_lists), 1);
        assert!(ran_again(&before.references, &after.references) <= 1);

        let before = results(&analysis);
        set(
            &mut analysis,
            format!("{ws}/skills/s0003/SKILL.md"),
            skill(3).replace("s3", "t3"),
        );
        let listing = ran_again(&before.references, &results(&analysis).references);
        assert!(
            (1..before.references.len()).contains(&listing),
            "{listing} of {}",
            before.references.len()
        );
    }

    /// The neighbours a skill's loading reads (its path in another tree, the SKILL.md enclosing
    /// it) created and deleted one file at a time: each step's diagnostics are a fresh check's,
    /// and the enclosing SKILL.md changes the nested skill's outcome while it exists. A skill at
    /// a path of its own runs again the neighbours of its own group only.
    #[test]
    fn neighbours_created_and_deleted_give_what_check_gives() {
        let ws = "/p/.agentscope/workspace";
        let mut files = FileSet::new();
        files.insert_dir(PathBuf::from(ws));
        let skill = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nBody\n");
        let nested = PathBuf::from(format!("{ws}/skills/a/sub/SKILL.md"));
        files.insert_text(nested.clone(), &skill("sub"));
        files.insert_text(
            PathBuf::from(format!("{ws}/skills/b/SKILL.md")),
            &skill("b"),
        );
        files.insert_dir(PathBuf::from(format!("{ws}/alice/skills/b")));
        let mut analysis = analysis_of(&files);
        let neighbours = |analysis: &Analysis| -> Vec<Arc<SkillsAtRel>> {
            (0..NAME_GROUPS)
                .map(|group| group_neighbours(&analysis.db, analysis.project, group))
                .collect()
        };
        let of_nested = |analysis: &Analysis| -> Vec<Diagnostic> {
            let all = all_diagnostics(analysis);
            all.into_iter().filter(|d| d.path == nested).collect()
        };
        let mut step = |analysis: &mut Analysis, path: &str, text: Option<String>| {
            let path = PathBuf::from(format!("{ws}/{path}"));
            match &text {
                Some(text) => files.insert_text(path.clone(), text),
                None => {
                    files.remove(&path);
                }
            }
            assert!(analysis.set_file(&path, files.get(&path), Origin::Disk));
            assert_eq!(all_diagnostics(analysis), checked(&files));
        };
        let alone = of_nested(&analysis);

        let before = neighbours(&analysis);
        step(&mut analysis, "skills/c/SKILL.md", Some(skill("c")));
        let after = neighbours(&analysis);
        // Only the new skill's own group, whose members changed.
        assert_eq!(ran_again(&before, &after), 1);

        step(&mut analysis, "skills/a/SKILL.md", Some(skill("a")));
        assert_ne!(of_nested(&analysis), alone, "the enclosing skill is read");
        step(&mut analysis, "alice/skills/b/SKILL.md", Some(skill("b")));
        step(&mut analysis, "skills/a/SKILL.md", None);
        assert_eq!(of_nested(&analysis), alone);
        step(&mut analysis, "alice/skills/b/SKILL.md", None);
        step(&mut analysis, "skills/c/SKILL.md", None);
    }

    /// A `skills:` entry naming no skill: the listed facts leave it out, so changing it to
    /// another such name changes no group's listed facts; once a skill takes the name, the
    /// chunk that lists it reads that skill, and each step's diagnostics are a fresh check's.
    #[test]
    fn a_name_no_skill_has_is_left_out_until_a_skill_takes_it() {
        let ws = "/p/.agentscope/workspace";
        let mut files = FileSet::new();
        files.insert_dir(PathBuf::from(ws));
        let skill = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nBody\n");
        let helper = |listed: &str| {
            format!("---\nname: helper\ndescription: d\nskills: [pdf, {listed}]\n---\nHelps.\n")
        };
        let subagent = PathBuf::from(format!("{ws}/subagents/helper.md"));
        files.insert_text(
            PathBuf::from(format!("{ws}/skills/pdf/SKILL.md")),
            &skill("pdf"),
        );
        files.insert_text(subagent.clone(), &helper("ghost"));
        let mut analysis = analysis_of(&files);
        assert_eq!(all_diagnostics(&analysis), checked(&files));
        let mut step = |analysis: &mut Analysis, path: &Path, text: &str| {
            files.insert_text(path.to_path_buf(), text);
            analysis.set_file(path, files.get(path), Origin::Disk);
            assert_eq!(all_diagnostics(analysis), checked(&files));
        };
        let listed = |analysis: &Analysis, name: &str| -> Vec<String> {
            let group = name_group_of(name);
            group_listed_facts(&analysis.db, analysis.project, group)
                .0
                .iter()
                .map(|listed| listed.key.name.to_string())
                .collect()
        };
        let naming = |analysis: &Analysis, name: &str| {
            all_diagnostics(analysis)
                .into_iter()
                .filter(|d| d.path == subagent && d.message.contains(&format!("`{name}`")))
                .count()
        };
        assert!(naming(&analysis, "ghost") > 0, "the entry names no skill");
        assert!(!listed(&analysis, "ghost").contains(&"ghost".to_string()));

        step(&mut analysis, &subagent, &helper("phantom"));
        assert!(naming(&analysis, "phantom") > 0);
        assert!(!listed(&analysis, "phantom").contains(&"phantom".to_string()));

        let taken = PathBuf::from(format!("{ws}/skills/phantom/SKILL.md"));
        step(&mut analysis, &taken, &skill("phantom"));
        assert_eq!(naming(&analysis, "phantom"), 0, "a skill has the name now");
        assert!(listed(&analysis, "phantom").contains(&"phantom".to_string()));

        step(&mut analysis, &taken, &skill("other"));
        assert!(naming(&analysis, "phantom") > 0, "the name is free again");
        assert!(!listed(&analysis, "phantom").contains(&"phantom".to_string()));
    }

    /// A tools.json edit sets that file's own input: the layout and every file's placement stay
    /// as they were, and the diagnostics follow the new lists as `check` finds them.
    #[test]
    fn a_tools_json_edit_sets_its_own_input_and_gives_what_check_gives() {
        let tools = PathBuf::from("/p/.agentscope/workspace/tools.json");
        let (mut analysis, mut files) = analysis(&skill("Reads with `read_file`."));
        files.insert_text(tools.clone(), "{\"deny\": []}");
        analysis.set_files(&files);
        assert_eq!(all_diagnostics(&analysis), checked(&files));
        let kinds_before = analysis.project.kinds(&analysis.db).clone();
        let skill_file = analysis.source(Path::new(SKILL)).unwrap();
        let own_before = source_diagnostics(&analysis.db, skill_file);
        let layout_before = layout_diagnostics(&analysis.db, analysis.project);
        let skill_references_before = skill_references(&analysis.db, analysis.project);

        files.insert_text(tools.clone(), "{\"deny\": [\"read_file\"]}");
        let entry = files.get(&tools).unwrap().clone();
        assert!(!analysis.set_source_entry(&tools, &entry, Origin::Buffer));
        assert!(analysis.set_tools_entry(&tools, &entry, Origin::Buffer));
        assert!(Arc::ptr_eq(
            &kinds_before,
            &analysis.project.kinds(&analysis.db).clone()
        ));
        let found = all_diagnostics(&analysis);
        assert!(found.iter().any(|d| d.code == "XR010"), "{found:?}");
        assert_eq!(found, checked(&files));
        // The skill's own rules and the layout's did not run again: neither reads the catalog.
        let own_after = source_diagnostics(&analysis.db, skill_file);
        assert!(Arc::ptr_eq(&own_before, &own_after));
        let layout_after = layout_diagnostics(&analysis.db, analysis.project);
        assert!(Arc::ptr_eq(&layout_before, &layout_after));
        // Nor did the rules over what subagents' `skills:` name: they resolve the contexts.
        let skill_references_after = skill_references(&analysis.db, analysis.project);
        assert!(Arc::ptr_eq(
            &skill_references_before,
            &skill_references_after
        ));
    }

    /// A subagent's `tools:`, `skills:` and `model:` are read by the reference rules alone: an
    /// edit of them runs those again and leaves the subagents' loading outcomes as they were,
    /// while a subagent dropped by another edit changes them; both equal a fresh check.
    #[test]
    fn a_subagent_lists_edit_leaves_the_subagents_loading_memoised() {
        let spec = PathBuf::from("/p/.agentscope/workspace/subagents/helper.md");
        let text = |lists: &str| format!("---\ndescription: Helps.\n{lists}---\nYou help.\n");
        let (mut analysis, mut files) = analysis(&skill("d"));
        files.insert_text(spec.clone(), &text("tools: [read_file]\nskills: [a]\n"));
        analysis.set_files(&files);
        let set = |analysis: &mut Analysis, files: &mut FileSet, body: &str| {
            files.insert_text(spec.clone(), body);
            let entry = files.get(&spec).unwrap().clone();
            assert!(analysis.set_source_entry(&spec, &entry, Origin::Buffer));
        };
        // The first edit of a buffer lowers its durability, which salsa does not backdate over
        // (the same text would set nothing).
        set(
            &mut analysis,
            &mut files,
            &text("tools: [read_file]\nskills: [ a ]\n"),
        );
        let (db, project) = (&analysis.db, analysis.project);
        let (loading, references) = (subagent_loading(db, project), skill_references(db, project));

        let lists = "tools: [no_such_tool]\nskills: [b]\nmodel: gpt-x\n";
        set(&mut analysis, &mut files, &text(lists));
        let (db, project) = (&analysis.db, analysis.project);
        assert!(Arc::ptr_eq(&loading, &subagent_loading(db, project)));
        assert!(!Arc::ptr_eq(&references, &skill_references(db, project)));
        let found = all_diagnostics(&analysis);
        assert!(found.iter().any(|d| d.code == "XR004"), "{found:?}");
        assert_eq!(found, checked(&files));

        set(
            &mut analysis,
            &mut files,
            "---\ntools: [read_file]\n---\nNo description.\n",
        );
        let (db, project) = (&analysis.db, analysis.project);
        assert!(!Arc::ptr_eq(&loading, &subagent_loading(db, project)));
        assert_eq!(all_diagnostics(&analysis), checked(&files));
    }

    /// A new configuration keeps every parse (they do not read it) and re-runs what reads it.
    #[test]
    fn a_configuration_change_keeps_the_parses() {
        let (mut analysis, files) = analysis(&skill("d"));
        let file = analysis.source(Path::new(SKILL)).unwrap();
        let Some(Parsed::Skill(before)) = parsed(&analysis.db, file) else {
            panic!("a skill");
        };
        let old = analysis.project.config(&analysis.db).clone();
        let mut config = (*old).clone();
        config.agent.name = Some("renamed".to_string());
        analysis.set_config(Arc::new(config), Arc::new(Vec::new()));
        analysis.set_files(&files);
        let Some(Parsed::Skill(after)) = parsed(&analysis.db, file) else {
            panic!("a skill");
        };
        assert!(Arc::ptr_eq(&before, &after));
        let name = analysis.project.config(&analysis.db).agent.name.clone();
        assert_eq!(name.as_deref(), Some("renamed"));
    }

    /// The whole-workspace families' memoised results, to tell by pointer which ran again: the
    /// layout's and the configured files' rules, the skill and tool reference rules, and the
    /// loading of every name group.
    type FamilyResults = (
        [Arc<Vec<Diagnostic>>; 2],
        [Arc<Vec<Diagnostic>>; 2],
        Vec<Arc<check::SkillLoading>>,
    );

    fn family_results(analysis: &Analysis) -> FamilyResults {
        let (db, project) = (&analysis.db, analysis.project);
        (
            [
                layout_diagnostics(db, project),
                configured_diagnostics(db, project),
            ],
            [skill_references(db, project), tool_references(db, project)],
            (0..NAME_GROUPS)
                .map(|group| name_group_loading(db, project, group))
                .collect(),
        )
    }

    /// Whether each memoised result is the very value it was (its query did not run again).
    fn same<T>(before: &[Arc<T>], after: &[Arc<T>]) -> bool {
        before.iter().zip(after).all(|(a, b)| Arc::ptr_eq(a, b))
    }

    /// A key line added to the frontmatter moves its closing delimiter, which only the preview
    /// reads: the facts stay equal, and no whole-workspace rule runs again.
    #[test]
    fn a_key_line_added_to_the_frontmatter_runs_no_cross_file_rule() {
        let (mut analysis, _) = analysis(&skill("d"));
        edit(&mut analysis, &skill("d"));
        let before = family_results(&analysis);
        edit(&mut analysis, &skill("d\nlicense: MIT"));
        let after = family_results(&analysis);
        assert!(same(&before.0, &after.0));
        assert!(same(&before.1, &after.1));
        assert!(same(&before.2, &after.2));
    }

    /// A description edit moves the `allowed-tools` key: the note moves with it, and no
    /// whole-workspace rule runs again (their memoised results are the same values). A name
    /// edit runs the loading of the old and the new name's groups again, and nothing else.
    #[test]
    fn a_description_edit_moves_the_allowed_tools_note_without_the_cross_file_rules() {
        let (mut analysis, _) = analysis(&skill("short"));
        // The first edit of a buffer lowers its durability, which salsa does not backdate over.
        edit(&mut analysis, &skill("short"));
        let before = family_results(&analysis);
        let note = |analysis: &Analysis| {
            let all = analysis.workspace_diagnostics().to_map();
            let list = &all[Path::new(SKILL)];
            let sk025: Vec<_> = list.iter().filter(|d| d.code == "SK025").collect();
            assert_eq!(sk025.len(), 1, "{list:?}");
            sk025[0].range
        };
        let at = note(&analysis);
        assert_eq!(&skill("short")[at.start..at.end], "allowed-tools", "{at:?}");

        let longer = skill("a much longer description");
        edit(&mut analysis, &longer);
        let after = family_results(&analysis);
        assert!(same(&before.0, &after.0));
        assert!(same(&before.1, &after.1));
        assert!(same(&before.2, &after.2));
        let moved = note(&analysis);
        assert_eq!(
            moved.start,
            at.start + "a much longer description".len() - 5
        );
        assert_eq!(&longer[moved.start..moved.end], "allowed-tools");

        // A name edit is a fact: the groups of `a` and `b` run again, the other groups and
        // families do not.
        edit(&mut analysis, &longer.replace("name: a", "name: b"));
        let renamed = family_results(&analysis);
        assert!(same(&after.0, &renamed.0));
        assert!(same(&after.1, &renamed.1));
        let ran_again: Vec<u32> = (0..NAME_GROUPS)
            .filter(|g| !Arc::ptr_eq(&after.2[*g as usize], &renamed.2[*g as usize]))
            .collect();
        let mut expected = vec![name_group_of("a"), name_group_of("b")];
        expected.sort();
        expected.dedup();
        assert_eq!(ran_again, expected);
    }
}
