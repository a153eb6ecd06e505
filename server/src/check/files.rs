//! Whole-workspace and per-file content rules (`WS…`): missing workspace or AGENTS.md, files that
//! are not UTF-8, too large or unreadable, blank injected files, additional context files, the
//! memory budget, project-folder fallbacks.

use crate::base::Diagnostic;
use crate::workspace::Workspace;

pub fn check(_workspace: &Workspace) -> Vec<Diagnostic> {
    Vec::new()
}
