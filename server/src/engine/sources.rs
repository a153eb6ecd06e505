//! The queries of one source, from its text alone: its parse, the facts other files' rules read
//! of it, its own diagnostics, and the small answers the whole-project queries gather from it
//! (the tools it mentions, whether it sets `allowed-tools`, its keys outside the specification).
//!
//! Reads the source's input and the project's options; must not depend on the query families
//! (`project.rs` and the files after it in `mod.rs`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::by_file::sort;
use super::change::Digest;
use super::inputs::{in_frame, layout_content, text_input_at, SourceFile};
use crate::base::{Diagnostic, Env, FileContent, FileEntry, TextRange};
use crate::check;
use crate::check::cross::ToolMention;
use crate::config::Config;
use crate::rules::Profile;
use crate::workspace::layout::{FileKind, Location};
use crate::workspace::skill::{SkillDoc, TextSlice};
use crate::workspace::snapshot::{self, Parsed, WorkspaceFile};
use crate::workspace::subagent::SubagentDoc;

/// The file as the runtime parses it; of a digested source ([`digest`]), what is left of its
/// parse: its prompt facts or its facts, without its body.
#[salsa::tracked(returns(clone))]
pub fn parsed(db: &dyn salsa::Database, file: SourceFile) -> Option<Parsed> {
    if let Some(digest) = file.digest(db) {
        return digest.parsed.clone();
    }
    let project = file.project(db);
    snapshot::parse_file(
        file.path(db),
        file.location(db),
        file.kind(db),
        &file.entry(db).content,
        project.env(db),
    )
}

/// Whether [`digest`] may take what the per-file queries read of a source's text, so that the
/// text is dropped: a skill's or subagent spec's text, but not one the frame holds (an
/// `AGENTS.md` is read as a context file too), nor a skill's in the strict profile, whose rules
/// read its text and the other files (`strict_diagnostics`).
pub fn digestible(path: &Path, kind: FileKind, content: &FileContent, profile: Profile) -> bool {
    content.text().is_some()
        && !in_frame(path, Some(kind), content)
        && !(kind == FileKind::Skill && profile == Profile::Strict)
}

/// What a [`Digest`] keeps as what is left of a source's parse (`Digest::parsed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// Its facts, which every query but the prompt's reads: one check whose configuration names
    /// no context window renders no prompt, and holds no second, larger copy of each parse.
    Facts,
    /// Its prompt facts, which the rendered prompt reads (the preview, WS017).
    PromptFacts,
}

impl Kept {
    /// What one `agentws check` under `config` keeps: the prompt facts only if `WS017` renders
    /// the prompt.
    pub fn for_check(config: &Config) -> Kept {
        match check::prompt_window_named(config) {
            true => Kept::PromptFacts,
            false => Kept::Facts,
        }
    }
}

/// What the per-file queries answer for a source (`digestible`) with `entry` at `path`, computed
/// by the functions they run, once, so that its text can be dropped; of its parse, what `kept`
/// says.
pub fn digest(
    path: &PathBuf,
    location: &Location,
    kind: FileKind,
    entry: &FileEntry,
    env: &Env,
    kept: Kept,
) -> Digest {
    let text = entry.content.text().unwrap_or("");
    let doc = snapshot::parse_file(path, location, kind, &entry.content, env);
    let view = WorkspaceFile {
        path,
        location,
        kind,
        entry,
    };
    let facts = doc.as_ref().map(facts_of);
    let parsed = match &doc {
        Some(doc) if kept == Kept::PromptFacts => Some(prompt_facts_of(doc)),
        _ => facts.clone(),
    };
    Digest {
        facts,
        diagnostics: Arc::new(match &doc {
            Some(doc) => own_diagnostics(doc, view, Vec::new()),
            None => Vec::new(),
        }),
        parsed,
        tool_mentions: Arc::new(mentions_of(kind, Some(text))),
        allowed_tools: doc.as_ref().and_then(allowed_tools_key_in),
        comment: check::settle::has_comment(text),
        hash: text_hash(text),
    }
}

/// A file read from disk (`content` at `path`) as the analysis holds it: a source `digestible`
/// under `profile` becomes its layout content (its text dropped) and its [`digest`] (keeping
/// what `kept` says); any other file is given back as read (`Err`). What `agentws check`'s walk
/// and the language server's reads of closed files both do with what they read.
pub fn digest_read(
    config: &Config,
    profile: Profile,
    env: &Env,
    path: &Path,
    content: FileContent,
    kept: Kept,
) -> Result<(FileContent, Digest), FileContent> {
    let Some((location, kind)) = text_input_at(config, path) else {
        return Err(content);
    };
    if !digestible(path, kind, &content, profile) {
        return Err(content);
    }
    let entry = FileEntry {
        content,
        version: None,
    };
    let digest = digest(&path.to_path_buf(), &location, kind, &entry, env, kept);
    Ok((layout_content(&entry.content), digest))
}

/// The hash of a source's text its [`Digest`] holds: the report reads the text again where it
/// shows a finding, and a text whose hash differs changed during the check.
pub fn text_hash(text: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::quality::FixedState::with_seed(0).hash_one(text)
}

/// What other files' rules may read of a source: its parsed document without its body, and
/// without its diagnostics except the error that drops it (the loading resolution names that
/// rule); of a skill's frontmatter, its name and whether it has a description, no other key or
/// value. Equal facts stop an edit here: a body or description edit of a loaded skill, or any
/// edit of its other keys, re-runs no cross-file rule.
#[salsa::tracked(returns(clone))]
pub fn facts(db: &dyn salsa::Database, file: SourceFile) -> Option<Parsed> {
    match file.digest(db) {
        Some(digest) => digest.facts.clone(),
        None => parsed(db, file).as_ref().map(facts_of),
    }
}

/// [`facts`] of a parse.
fn facts_of(doc: &Parsed) -> Parsed {
    match doc {
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
            ..(**doc).clone()
        })),
        tools @ Parsed::Tools(_) => tools.clone(),
    }
}

/// What the rendered prompt reads of a source: its parse without its body and its diagnostics,
/// which no prompt shows (the model reads a skill's body when it uses the skill; a subagent's
/// prompt is built over its own workspace), but the error that drops it, whose rule the
/// preview's note names (`Outcome::rule_code`). Equal across an edit of the body, so the rule that
/// renders every caller's prompt (`prompt_size_diagnostics`) does not run again while a body is
/// typed.
#[salsa::tracked(returns(clone))]
pub fn prompt_facts(db: &dyn salsa::Database, file: SourceFile) -> Option<Parsed> {
    match file.digest(db) {
        // What is left of a digested source's parse is this already whenever the prompt is
        // rendered (`digest`'s `prompt`).
        Some(digest) => digest.parsed.clone(),
        None => parsed(db, file).as_ref().map(prompt_facts_of),
    }
}

/// [`prompt_facts`] of a parse.
fn prompt_facts_of(doc: &Parsed) -> Parsed {
    match doc {
        Parsed::Skill(doc) => Parsed::Skill(Arc::new(SkillDoc {
            body: TextSlice::default(),
            split: None,
            diagnostics: dropping_error(&doc.diagnostics, doc.outcome.is_err()),
            ..(**doc).clone()
        })),
        Parsed::Subagent(doc) => Parsed::Subagent(Arc::new(SubagentDoc {
            body: None,
            body_range: None,
            split: None,
            diagnostics: dropping_error(&doc.diagnostics, doc.outcome.is_err()),
            ..(**doc).clone()
        })),
        tools @ Parsed::Tools(_) => tools.clone(),
    }
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

/// A source's own diagnostics (`check::source_diagnostics`, and the strict rules in the strict
/// profile), in check order.
#[salsa::tracked(returns(clone))]
pub fn source_diagnostics(db: &dyn salsa::Database, file: SourceFile) -> Arc<Vec<Diagnostic>> {
    if let Some(digest) = file.digest(db) {
        return digest.diagnostics.clone();
    }
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
    let strict = match (&doc, project.options(db).profile) {
        (Parsed::Skill(skill), Profile::Strict) => strict_diagnostics(db, file, skill),
        _ => Vec::new(),
    };
    Arc::new(own_diagnostics(&doc, view, strict))
}

/// [`source_diagnostics`] of a parse, with its strict rules' (`strict`), in check order.
fn own_diagnostics(doc: &Parsed, view: WorkspaceFile, strict: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut out = check::source_diagnostics(doc, view);
    out.extend(strict);
    sort(&mut out);
    out
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

/// The backticked names of a skill's text that may be tools' (`check::cross::tool_mentions`):
/// text alone, so a tools.json edit compares the memoised lists with the new catalog.
#[salsa::tracked(returns(clone))]
pub fn tool_mentions(db: &dyn salsa::Database, file: SourceFile) -> Arc<Vec<ToolMention>> {
    if let Some(digest) = file.digest(db) {
        return digest.tool_mentions.clone();
    }
    Arc::new(mentions_of(file.kind(db), file.entry(db).content.text()))
}

/// [`tool_mentions`] of a text.
fn mentions_of(kind: FileKind, text: Option<&str>) -> Vec<ToolMention> {
    match text {
        Some(text) if check::cross::mentions_tools(kind) => check::cross::tool_mentions(text),
        _ => Vec::new(),
    }
}

/// Whether a source is a loaded skill that sets `allowed-tools` (no position: its key moving
/// re-runs nothing that reads this).
#[salsa::tracked(returns(copy))]
pub fn sets_allowed_tools(db: &dyn salsa::Database, file: SourceFile) -> bool {
    allowed_tools_key(db, file).is_some()
}

/// Where a loaded skill sets `allowed-tools`: the key's range, where `SK025` is placed.
pub fn allowed_tools_key(db: &dyn salsa::Database, file: SourceFile) -> Option<TextRange> {
    match file.digest(db) {
        Some(digest) => digest.allowed_tools,
        None => allowed_tools_key_in(&parsed(db, file)?),
    }
}

/// [`allowed_tools_key`] of a parse.
fn allowed_tools_key_in(doc: &Parsed) -> Option<TextRange> {
    match doc {
        Parsed::Skill(skill) => {
            check::tools::skill_allowed_tools_not_enforced::allowed_tools_key(skill)
        }
        _ => None,
    }
}

/// A skill's keys the Agent Skills specification does not have (`ST007`), in the strict profile
/// only; a position moving re-runs `strict_key_diagnostics`, which places them.
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
