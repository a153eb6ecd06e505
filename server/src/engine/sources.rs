//! The queries of one source, from its text alone: its parse, the facts other files' rules read
//! of it, its own diagnostics, and the small answers the whole-project queries gather from it
//! (the tools it mentions, whether it sets `allowed-tools`, its keys outside the specification).
//!
//! Reads the source's input and the project's options; must not depend on the query families
//! (`project.rs` and the files after it in `mod.rs`).

use std::sync::Arc;

use super::by_file::sort;
use super::inputs::SourceFile;
use crate::base::Diagnostic;
use crate::check;
use crate::check::cross::ToolMention;
use crate::rules::Profile;
use crate::workspace::skill::{SkillDoc, TextSlice};
use crate::workspace::snapshot::{self, Parsed, WorkspaceFile};
use crate::workspace::subagent::SubagentDoc;

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

/// What the rendered prompt reads of a source: its parse without its body and its diagnostics,
/// which no prompt shows (the model reads a skill's body when it uses the skill; a subagent's
/// prompt is built over its own workspace). Equal across an edit of the body, so the rule that
/// renders every caller's prompt (`prompt_size_diagnostics`) does not run again while a body is
/// typed.
#[salsa::tracked(returns(clone))]
pub fn prompt_facts(db: &dyn salsa::Database, file: SourceFile) -> Option<Parsed> {
    Some(match parsed(db, file)? {
        Parsed::Skill(doc) => Parsed::Skill(Arc::new(SkillDoc {
            body: TextSlice::default(),
            split: None,
            diagnostics: Vec::new(),
            ..(*doc).clone()
        })),
        Parsed::Subagent(doc) => Parsed::Subagent(Arc::new(SubagentDoc {
            body: None,
            body_range: None,
            split: None,
            diagnostics: Vec::new(),
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
    let text = file.entry(db).content.text();
    Arc::new(match text {
        Some(text) if check::cross::mentions_tools(file.kind(db)) => {
            check::cross::tool_mentions(text)
        }
        _ => Vec::new(),
    })
}

/// Whether a source is a loaded skill that sets `allowed-tools` (no position: its key moving
/// re-runs nothing that reads this).
#[salsa::tracked(returns(copy))]
pub fn sets_allowed_tools(db: &dyn salsa::Database, file: SourceFile) -> bool {
    match parsed(db, file) {
        Some(Parsed::Skill(skill)) => {
            check::tools::skill_allowed_tools_not_enforced::allowed_tools_key(&skill).is_some()
        }
        _ => false,
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
