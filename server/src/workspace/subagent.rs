//! One subagent spec `subagents/<id>.md`, parsed the way `AgentSpecLoader.parse` does it
//! (harness-spec §3.2): the frontmatter split, Jackson YAML typing, every key's accepted values and
//! fallbacks, and whether the declaration is loaded or dropped. Diagnostics found while parsing
//! are kept with the document.
//!
//! OWNER: the skills/subagents parsing work (see docs/architecture.md).

use std::path::PathBuf;

use crate::base::{Diagnostic, TextRange};
use crate::workspace::layout::Location;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkspaceMode {
    Isolated,
    Shared,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentMode {
    Primary,
    Subagent,
    All,
}

/// A string with the byte range it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    pub value: T,
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SubagentDrop {
    Unreadable,
    /// Blank, or not starting with `---` (silently).
    NoFrontmatter,
    NotClosed,
    InvalidYaml,
    /// Frontmatter is an empty map (silently).
    EmptyFrontmatter,
    MissingDescription,
    /// The file name gives an empty agent id.
    EmptyId,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SubagentDoc {
    pub path: PathBuf,
    pub location: Location,
    /// Agent id = file name without `.md`.
    pub id: String,
    pub description: Option<String>,
    pub workspace_mode: WorkspaceMode,
    /// `workspace.path` as written.
    pub workspace_path: Option<Spanned<String>>,
    /// Inline system prompt (trimmed body), `None` when blank or discarded.
    pub body: Option<String>,
    pub model: Option<Spanned<String>>,
    pub steps: u32,
    pub mode: AgentMode,
    pub hidden: bool,
    pub tools: Vec<Spanned<String>>,
    pub skills: Vec<Spanned<String>>,
    pub opening_range: TextRange,
    /// `Ok` when the runtime loads the declaration.
    pub outcome: Result<(), SubagentDrop>,
    pub diagnostics: Vec<Diagnostic>,
}

impl SubagentDoc {
    /// Listed in the prompt's agent list (`hidden != true` and `mode != primary`).
    pub fn is_visible(&self) -> bool {
        self.outcome.is_ok() && !self.hidden && self.mode != AgentMode::Primary
    }
}

/// Parses one subagent spec. Placeholder until the parser lands.
pub fn parse(path: PathBuf, location: Location, content: &crate::base::FileContent) -> SubagentDoc {
    let id = path
        .file_name()
        .map(|n| n.to_string_lossy().trim_end_matches(".md").to_string())
        .unwrap_or_default();
    let text = content.text().unwrap_or("");
    let description = text
        .lines()
        .find_map(|l| l.strip_prefix("description:").map(|v| v.trim().to_string()));
    SubagentDoc {
        path,
        location,
        id,
        outcome: if description.is_some() {
            Ok(())
        } else {
            Err(SubagentDrop::MissingDescription)
        },
        description,
        workspace_mode: WorkspaceMode::Isolated,
        workspace_path: None,
        body: None,
        model: None,
        steps: 10,
        mode: AgentMode::All,
        hidden: false,
        tools: Vec::new(),
        skills: Vec::new(),
        opening_range: TextRange::new(0, 3),
        diagnostics: Vec::new(),
    }
}
