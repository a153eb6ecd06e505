//! `tools.json`, read the way `ToolsConfigLoader` does (harness-spec §4): `${NAME}` substitution on
//! the raw text, strict JSON (Jackson defaults), the schema of §4.3, and whether the runtime uses
//! the file or ignores it whole. Diagnostics found while parsing are kept with the document.
//!
//! OWNER: the tools.json work (see docs/architecture.md).

use std::path::PathBuf;

use crate::base::{Diagnostic, TextRange};
use crate::workspace::subagent::Spanned;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    Stdio,
    Sse,
    Http,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct McpServer {
    pub name: Spanned<String>,
    /// `None` when missing or unsupported (the runtime then skips the server).
    pub transport: Option<Transport>,
    /// `enableTools` (empty = all of the server's tools).
    pub enable_tools: Vec<Spanned<String>>,
    /// True when the runtime registers the server (shape is valid).
    pub registered: bool,
    /// Range of the server's whole value.
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolsOutcome {
    /// The runtime uses the file.
    Used,
    /// Missing, blank, invalid JSON, or a type mismatch: the runtime falls back to the default toolkit.
    Ignored { reason: String },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolsDoc {
    pub path: PathBuf,
    pub allow: Vec<Spanned<String>>,
    pub deny: Vec<Spanned<String>>,
    pub servers: Vec<McpServer>,
    pub outcome: ToolsOutcome,
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses tools.json. Placeholder until the parser lands.
pub fn parse(
    path: PathBuf,
    content: &crate::base::FileContent,
    _env: &crate::base::Env,
) -> ToolsDoc {
    let outcome = match content.text() {
        Some(t) if !crate::syntax::java::is_blank(t) => ToolsOutcome::Used,
        _ => ToolsOutcome::Ignored {
            reason: "blank".into(),
        },
    };
    ToolsDoc {
        path,
        allow: Vec::new(),
        deny: Vec::new(),
        servers: Vec::new(),
        outcome,
        diagnostics: Vec::new(),
    }
}
