//! Turning command-line paths into loaded workspace snapshots (`workspace::discover::load`: find
//! each path's project, read its files from disk, build the snapshot), with the process
//! environment and the store read at this edge. Shared by every subcommand that reads a workspace.

use std::path::{Path, PathBuf};

use crate::base::Env;
pub use crate::workspace::discover::{load, LoadedProject};

/// The process environment, captured once at the edge.
pub fn process_env() -> Env {
    std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .collect()
}

/// Which store to read into a loaded workspace, and whose files.
pub struct StoreRequest {
    /// `--store URL` (else `[store] url`).
    pub url: Option<String>,
    pub owners: crate::store::Owners,
}

/// What reading the store added.
pub struct StoreRead {
    /// The store URL with its password masked.
    pub shown: String,
    pub owners: usize,
    pub files: usize,
    /// How owners without index entries were found or left out.
    pub notes: Vec<String>,
}

/// Reads the store's files into a copy of `loaded`'s file set (docs/stores.md), in remote
/// filesystem mode; the caller builds the snapshot from it (`store::Read::parsed_snapshot`, or the
/// analysis that built `loaded`). The error is the message for exit 2, without secrets.
pub fn read_store(
    loaded: &LoadedProject,
    request: &StoreRequest,
) -> Result<crate::store::Read, crate::store::StoreError> {
    let cwd = std::env::current_dir().unwrap_or_default();
    crate::store::read_into(
        &loaded.workspace,
        request.url.as_deref(),
        &request.owners,
        &cwd,
        &crate::store::io::Cancel::never(),
    )
}

/// Puts the snapshot built from a store's `read` into `loaded`, the store-level problems with
/// the walk problems, and says what was read.
pub fn took_store(
    loaded: &mut LoadedProject,
    workspace: crate::workspace::Workspace,
    read: crate::store::Read,
) -> StoreRead {
    loaded.workspace = workspace;
    loaded.walk_problems.extend(read.loaded.diagnostics);
    StoreRead {
        shown: read.shown,
        owners: read.loaded.owners.len(),
        files: read.loaded.files,
        notes: read.loaded.notes,
    }
}

/// `path` relative to the current folder with `/` separators (as printed in reports): below the
/// current folder without a prefix, elsewhere with `../` steps up to the common ancestor (an
/// absolute path only when the two share nothing but the root).
pub fn display_relative(path: &Path, cwd: &Path) -> String {
    let shown: PathBuf = match path.strip_prefix(cwd) {
        Ok(below) => below.to_path_buf(),
        Err(_) => {
            let common = path
                .components()
                .zip(cwd.components())
                .take_while(|(a, b)| a == b)
                .count();
            let shared_root_only = common <= 1 && path.has_root();
            if shared_root_only || !path.is_absolute() {
                path.to_path_buf()
            } else {
                let ups = cwd.components().count() - common;
                let mut rel: PathBuf = std::iter::repeat_n("..", ups).collect();
                rel.extend(path.components().skip(common));
                rel
            }
        }
    };
    let s = shown.to_string_lossy().replace('\\', "/");
    if s.is_empty() {
        ".".to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_paths_are_relative_to_the_current_folder() {
        let cwd = Path::new("/home/u/p/ws");
        assert_eq!(
            display_relative(Path::new("/home/u/p/ws/a.md"), cwd),
            "a.md"
        );
        assert_eq!(
            display_relative(Path::new("/home/u/p/x.toml"), cwd),
            "../x.toml"
        );
        assert_eq!(
            display_relative(Path::new("/home/v/y.md"), cwd),
            "../../../v/y.md"
        );
        assert_eq!(display_relative(Path::new("/etc/z"), cwd), "/etc/z");
        assert_eq!(display_relative(cwd, cwd), ".");
    }
}
