//! A change of an analysis's inputs ([`Change`]), built by a front-end and given to
//! `Analysis::apply_change`, the one way to change them; and what applying it did ([`Applied`]).
//!
//! Plain data; must not depend on any other file of the engine.

use std::path::PathBuf;
use std::sync::Arc;

use salsa::Durability;

use crate::base::{Diagnostic, FileEntry, FileSet, TextRange};
use crate::check::cross::ToolMention;
use crate::check::CheckOptions;
use crate::config::Config;
use crate::workspace::snapshot::Parsed;

/// What the per-file queries take from a source's text (`sources::digest`, by the functions they
/// run), held instead of the text by a source read for one `agentws check`: the text is dropped
/// as soon as it is read. The report reads a file's text again only where it shows a finding,
/// and compares it with `hash` first.
#[derive(Clone, Debug, PartialEq)]
pub struct Digest {
    /// What is left of its parse, which the snapshot reads: its prompt facts
    /// (`sources::prompt_facts`) where the prompt is rendered, its facts otherwise
    /// (`sources::digest`).
    pub parsed: Option<Parsed>,
    /// `sources::facts`.
    pub facts: Option<Parsed>,
    /// `sources::source_diagnostics`.
    pub diagnostics: Arc<Vec<Diagnostic>>,
    /// `sources::tool_mentions`.
    pub tool_mentions: Arc<Vec<ToolMention>>,
    /// `sources::allowed_tools_key`.
    pub allowed_tools: Option<TextRange>,
    /// Whether the text holds an `agentws:` comment, which the report settles even without a
    /// finding.
    pub comment: bool,
    /// The text's hash (`sources::text_hash`).
    pub hash: u64,
}

/// The digests of the sources read for one check, by path ([`Change::set_digested_files`]).
pub type Digests = foldhash::HashMap<PathBuf, Arc<Digest>>;

/// How an input was written: from disk, or from an editor buffer (changes often).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Disk,
    Buffer,
}

impl Origin {
    pub(super) fn durability(self) -> Durability {
        match self {
            Origin::Disk => Durability::HIGH,
            Origin::Buffer => Durability::LOW,
        }
    }
}

/// What changed in a project since its analysis last heard of it, applied at once by
/// `Analysis::apply_change`: in this order, the options, the configuration, every file (a
/// discovery), then each file and folder in the order they were set.
#[derive(Clone, Debug, Default)]
pub struct Change {
    pub(super) options: Option<CheckOptions>,
    pub(super) config: Option<(Arc<Config>, Arc<Vec<Diagnostic>>)>,
    pub(super) files: Option<Arc<FileSet>>,
    /// The digests of sources `files` holds without their text (`layout_content`).
    pub(super) digests: Digests,
    pub(super) edits: Vec<Edit>,
}

/// One file's or folder's change, in a [`Change`].
#[derive(Clone, Debug)]
pub(super) enum Edit {
    /// A file appearing, changing or going (`None`); a source held by its digest (its entry then
    /// holds its content's kind only, `layout_content`).
    File(PathBuf, Option<FileEntry>, Origin, Option<Arc<Digest>>),
    /// A folder created (true) or deleted.
    Folder(PathBuf, bool),
}

impl Change {
    pub fn new() -> Change {
        Change::default()
    }

    /// The options the diagnostics are asked for (the profile, whether suppressions need a
    /// reason); the rules run under `options.running(config)`.
    pub fn set_options(&mut self, options: CheckOptions) {
        self.options = Some(options);
    }

    /// A new configuration (`agentws.toml` changed) with its diagnostics. Parses do not read it,
    /// so they are kept; the files are placed under it when every file is set (by this change or
    /// a later one).
    pub fn set_config(&mut self, config: Arc<Config>, diagnostics: Arc<Vec<Diagnostic>>) {
        self.config = Some((config, diagnostics));
    }

    /// Every file of the project (after a discovery), replacing the ones held: inputs of
    /// unchanged files are kept.
    pub fn set_files(&mut self, files: Arc<FileSet>) {
        self.files = Some(files);
    }

    /// [`Change::set_files`] where the sources in `digests` are held by their digest: `files`
    /// holds their content's kind only (`layout_content`).
    pub fn set_digested_files(&mut self, files: Arc<FileSet>, digests: Digests) {
        self.files = Some(files);
        self.digests = digests;
    }

    /// One file appearing, changing or going (`entry` is `None`), whatever its kind.
    pub fn set_file(&mut self, path: PathBuf, entry: Option<FileEntry>, origin: Origin) {
        self.edits.push(Edit::File(path, entry, origin, None));
    }

    /// [`Change::set_file`] of a source read from disk and held by its digest (`digestible`):
    /// `entry` holds its content's kind only (`layout_content`).
    pub fn set_digested_file(&mut self, path: PathBuf, entry: FileEntry, digest: Arc<Digest>) {
        self.edits
            .push(Edit::File(path, Some(entry), Origin::Disk, Some(digest)));
    }

    /// A folder created (`exists`) or deleted. Its files are set one by one with
    /// [`Change::set_file`]: after the folder when it is created, before it when it is deleted.
    pub fn set_folder(&mut self, dir: PathBuf, exists: bool) {
        self.edits.push(Edit::Folder(dir, exists));
    }
}

/// What `Analysis::apply_change` did to the inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The layout was set: a file or folder appeared or went, a file's content changed kind, a
    /// file other than a skill, subagent spec or tools.json changed, or every file was set.
    pub layout: bool,
    /// The change held files only, and each was a skill's or subagent spec's new text (its
    /// input written, nothing else): a snapshot is brought up to date by asking again for those
    /// sources alone (`Analysis::snapshot_patched`).
    pub source_texts_only: bool,
}
