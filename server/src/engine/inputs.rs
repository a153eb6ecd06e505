//! The database and its inputs: the project ([`ProjectInput`]: configuration, environment,
//! options, layout, frame, skill folders, neighbours, buckets, tools.json list), the buckets of
//! sources ([`SourceBucket`]) and one [`SourceFile`] per skill, subagent spec and tools.json;
//! with what decides which file is an input of its own and what the layout and the frame hold of
//! it. Only the analysis (`analysis.rs`) sets them.
//!
//! Must not depend on the queries (`sources.rs` and the files after it in `mod.rs`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::change::Digest;
use super::neighbours::NeighbourMap;
use crate::base::{Diagnostic, Env, FileContent, FileEntry, FileSet};
use crate::check::{self, CheckOptions};
use crate::config::Config;
use crate::workspace::layout::{FileKind, Location};
use crate::workspace::snapshot;

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
    /// (`NAME_GROUPS` inputs): the rules that ask about such a folder by name (SK016's host
    /// folder, XR009's `workspace.path`) find it here (`frame_with_skill_folders`, one folder
    /// at a time: `skill_folder_held`), so that a folder created or deleted changes one
    /// group's input, not the frame, and re-runs only what asked about that folder.
    #[returns(ref)]
    pub skill_folders: Arc<Vec<SkillFolders>>,
    /// The skill sources at the paths (relative to their tree, every tree together) where a
    /// skill finds a neighbour (`check::loading::neighbour_rels`): a path two or more skills
    /// share, and the SKILL.md enclosing a nested one (`SkillsByRel`, kept by the analysis).
    /// Most paths hold one skill and enclose none, so a skill created or deleted there leaves
    /// this as it was and runs no group's neighbours again.
    #[returns(ref)]
    pub neighbours: Arc<NeighbourMap<SourceFile>>,
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
    /// What the per-file queries take from its text, when the text itself is not held (`entry`
    /// then holds its content's kind only): a source read for one `agentws check`.
    #[returns(ref)]
    pub digest: Option<Arc<Digest>>,
}

/// The name of the skill folder `dir` is (`<tree>/skills/<name>`), if it is one.
pub(super) fn skill_folder_name<'a>(config: &Config, dir: &'a Path) -> Option<&'a str> {
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
pub(super) fn enclosing_skill_folder<'a>(config: &Config, path: &'a Path) -> Option<&'a Path> {
    path.ancestors()
        .find(|dir| skill_folder_name(config, dir).is_some())
}

/// Files whose text is an input of its own ([`SourceFile`]): the sources (`check::is_source`),
/// which also have diagnostics of their own, and tools.json.
pub(super) fn has_text_input(kind: FileKind) -> bool {
    check::is_source(kind) || kind == FileKind::ToolsJson
}

/// Where `path` sits and its kind, when its text is an input of its own ([`has_text_input`]).
pub(super) fn text_input_at(config: &Config, path: &Path) -> Option<(Location, FileKind)> {
    snapshot::placed(config, path).filter(|(_, kind)| has_text_input(*kind))
}

/// Whether the frame ([`ProjectInput::frame`]) holds the file at `path`, of `kind`, whose layout
/// content is `content`: every file but a skill's or subagent spec's text. An AGENTS.md stays
/// whatever it is: a `workspace.path` rule (`XR009`) asks whether a folder holds one, and one in
/// a `subagents/` folder is also read as a spec.
pub(super) fn in_frame(path: &Path, kind: Option<FileKind>, content: &FileContent) -> bool {
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
