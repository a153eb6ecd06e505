//! One `SKILL.md`, parsed the way the runtime parses it (`MarkdownSkillParser` +
//! `SkillUtil.createFrom`, harness-spec §2.3): the frontmatter split, YAML 1.1 typing, the fallback
//! line parser after a YAML error, and whether the runtime loads or drops the skill. Diagnostics
//! found while parsing are kept with the document.
//!
//! OWNER: the skills/subagents parsing work (see docs/architecture.md).

use std::path::PathBuf;

use crate::base::{Diagnostic, TextRange};
use crate::syntax::yaml::Entry;
use crate::workspace::layout::Location;

/// Why the runtime drops a skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SkillDrop {
    /// File could not be read as text.
    Unreadable,
    NoFrontmatter,
    /// `name` or `description` missing, blank or not a YAML string.
    MissingNameOrDescription,
    EmptyBody,
    FrontmatterTooLong,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SkillDoc {
    pub path: PathBuf,
    pub location: Location,
    /// Folder directly containing the SKILL.md (its name is the "directory name").
    pub dir_name: String,
    /// Metadata as the runtime holds it, in YAML order (after the fallback parser if it ran).
    pub metadata: Vec<Entry>,
    /// `name` when it is a non-blank string.
    pub name: Option<String>,
    /// Range of the `name` value (for navigation and rename), when present.
    pub name_range: Option<TextRange>,
    pub description: Option<String>,
    /// Range of the frontmatter's opening `---` line (where "missing key" diagnostics point).
    pub opening_range: TextRange,
    /// Body as the runtime passes it on (content after the frontmatter).
    pub body: String,
    /// `Ok` when the runtime loads the skill.
    pub outcome: Result<(), SkillDrop>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses one SKILL.md. Placeholder until the parser lands: takes `name`/`description` lines only.
pub fn parse(path: PathBuf, location: Location, content: &crate::base::FileContent) -> SkillDoc {
    let dir_name = path
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = content.text().unwrap_or("");
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key).map(|v| v.trim().to_string()))
    };
    let name = field("name:");
    SkillDoc {
        path,
        location,
        dir_name,
        metadata: Vec::new(),
        name_range: None,
        description: field("description:"),
        opening_range: TextRange::new(0, 3),
        body: String::new(),
        outcome: if name.is_some() {
            Ok(())
        } else {
            Err(SkillDrop::NoFrontmatter)
        },
        name,
        diagnostics: Vec::new(),
    }
}
