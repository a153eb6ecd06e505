//! Finding the project configuration for a path: walk up to the nearest `agentws.toml`, else
//! recognise a folder that contains `.agentscope/workspace` or is itself a workspace, else use the
//! defaults for the folder.

use std::path::{Path, PathBuf};

use super::{load, Config, CONFIG_FILE_NAME, DEFAULT_WORKSPACE_DIR};
use crate::base::Diagnostic;

/// A project found for a path, with the problems of its `agentws.toml`.
#[derive(Clone, Debug)]
pub struct Project {
    pub config: Config,
    pub diagnostics: Vec<Diagnostic>,
    /// False when neither an agentws.toml nor a workspace folder was found at or above the
    /// path: the configuration is the defaults for the folder itself.
    pub found: bool,
}

/// Finds the project for `path` (a project folder, a workspace folder or any file inside them).
/// `path` must be absolute.
pub fn find_project(path: &Path) -> Project {
    let start = if path.is_dir() {
        path.to_path_buf()
    } else {
        path.parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| path.to_path_buf())
    };
    for dir in start.ancestors() {
        let candidate = dir.join(CONFIG_FILE_NAME);
        // Anything but a folder counts (a pipe too: reading reports it instead of skipping it).
        if std::fs::metadata(&candidate).is_ok_and(|m| !m.is_dir()) {
            let text = crate::base::FileContent::read(&candidate);
            let (config, diagnostics) = load::load(&candidate, &text);
            return Project {
                config,
                diagnostics,
                found: true,
            };
        }
    }
    for dir in start.ancestors() {
        if dir.join(DEFAULT_WORKSPACE_DIR).is_dir() {
            return defaults(Config::defaults_for(dir));
        }
        if looks_like_workspace(dir) {
            return defaults(Config::defaults_for_workspace(dir));
        }
    }
    Project {
        found: false,
        ..defaults(Config::defaults_for(&start))
    }
}

fn defaults(config: Config) -> Project {
    Project {
        config,
        diagnostics: Vec::new(),
        found: true,
    }
}

/// A folder that holds workspace content directly.
pub fn looks_like_workspace(dir: &Path) -> bool {
    dir.join("AGENTS.md").is_file()
        || dir.join("skills").is_dir()
        || dir.join("subagents").is_dir()
        || dir.join("tools.json").is_file()
}

/// Makes `path` absolute against the current folder without resolving symlinks.
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}
