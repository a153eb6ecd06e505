//! The strict profile (`ST…`): the Agent Skills open specification (design-notes §5), for skills
//! shared with other agent runtimes.
//!
//! OWNER: the skills/subagents parsing work (see docs/architecture.md).

use crate::base::Diagnostic;
use crate::workspace::Workspace;

pub fn check(_workspace: &Workspace) -> Vec<Diagnostic> {
    Vec::new()
}
