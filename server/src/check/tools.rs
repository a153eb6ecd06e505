//! tools.json rules that depend on the configuration or the tool catalog (`TJ…`): allow/deny
//! naming unknown tools, a tool both allowed and denied, `load_skill_through_path` denied, platform
//! tools denied, tools.json ignored in sandbox mode.
//!
//! OWNER: the tools.json/config work (see docs/architecture.md).

use crate::base::Diagnostic;
use crate::workspace::Workspace;

pub fn check(_workspace: &Workspace) -> Vec<Diagnostic> {
    Vec::new()
}
