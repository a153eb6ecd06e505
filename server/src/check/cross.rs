//! Cross-file rules (`XR…`, harness-spec §9.5): subagent `tools:` against the effective tool
//! catalog, subagent `skills:` against visible skills, duplicate skill names and subagent ids
//! across trees (and which one wins), tools.json allow/deny against registered tools.

use crate::base::Diagnostic;
use crate::workspace::Workspace;

pub fn check(_workspace: &Workspace) -> Vec<Diagnostic> {
    Vec::new()
}
