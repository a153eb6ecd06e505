//! The workspace family's rules (`WS…`, harness-spec §9.1) that a file's read alone decides: what
//! the bytes at a path are (not UTF-8, too large, unreadable, not a regular file) and the walk
//! that could not go into a folder. One file per rule, its declaration beside its detection; they
//! live here, below every layer that reads files (`config::load` for agentws.toml,
//! `workspace::discover` for the walk, `check` for every workspace file). The family's other
//! rules read the workspace and live in `check::files`; the catalog puts the two lists in code order.
//! `too_many_problems` (WS015) is the per-file cap on diagnostics every producer and front-end
//! applies.

use std::path::Path;

use super::declare_family;
use crate::base::{Diagnostic, FileContent};

declare_family! {
    pub mod file_not_utf8;      // WS004
    pub mod file_too_large;     // WS005
    pub mod walk_failed;        // WS006
    pub mod file_unreadable;    // WS007
    pub mod not_a_regular_file; // WS014
    pub mod too_many_problems;  // WS015
}

/// What the read of one file says about it, when it is not text agentws could check: at most one
/// of WS004, WS005, WS007 and WS014, since a read has one outcome. It needs nothing but the file,
/// so a skill's or subagent's content verdict never depends on another file (only an injected
/// file's blankness, `check::files`, reads the workspace).
pub fn content_problem(path: &Path, content: &FileContent) -> Option<Diagnostic> {
    file_not_utf8::check(path, content)
        .or_else(|| file_too_large::check(path, content))
        .or_else(|| file_unreadable::check(path, content))
        .or_else(|| not_a_regular_file::check(path, content))
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
