//! `agentws check`: load each path's workspace, check it, print the diagnostics.
//!
//! OWNER: the CLI work (see docs/architecture.md). Placeholder output: concise lines.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use super::project::{display_relative, load, process_env};
use super::{EXIT_OK, EXIT_PROBLEMS};
use crate::base::{Encoding, LineIndex, Severity};
use crate::check::{check_workspace, CheckOptions};

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Projects, workspaces or single files (default: the current folder).
    pub paths: Vec<PathBuf>,
}

pub fn run(args: CheckArgs) -> u8 {
    let cwd = std::env::current_dir().unwrap_or_default();
    let env = Arc::new(process_env());
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths
    };
    let mut errors = 0;
    for path in paths {
        let loaded = load(&path, env.clone());
        let report = check_workspace(&loaded.workspace, CheckOptions::default());
        for d in loaded.walk_problems.iter().chain(&report.diagnostics) {
            let (line, col) = match loaded.workspace.files.text(&d.path) {
                Some(text) => {
                    let pos = LineIndex::new(text).position(text, d.range.start, Encoding::Utf32);
                    (pos.line + 1, pos.col + 1)
                }
                None => (1, 1),
            };
            if d.severity == Severity::Error {
                errors += 1;
            }
            println!(
                "{}:{}:{}: {} {} {}",
                display_relative(&d.path, &cwd),
                line,
                col,
                d.severity.as_str(),
                d.code,
                d.message
            );
        }
    }
    if errors > 0 {
        EXIT_PROBLEMS
    } else {
        EXIT_OK
    }
}
