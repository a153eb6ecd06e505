//! Helpers shared by the end-to-end tests.

use std::path::{Path, PathBuf};

/// Absolute path of `tests/fixtures/<name>`.
#[allow(dead_code)]
pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(name)
}

/// `cmd` (the agentws binary) with the binary's folder first on PATH, as for a user who installed
/// agentws: the commands an output suggests then start with `agentws`, not the binary's path.
#[allow(dead_code)]
pub fn installed(cmd: &mut assert_cmd::Command) -> &mut assert_cmd::Command {
    cmd.env("PATH", path_with_agentws())
}

/// PATH with the agentws binary's folder first ([`installed`]).
#[allow(dead_code)]
pub fn path_with_agentws() -> std::ffi::OsString {
    let bin = assert_cmd::cargo::cargo_bin("agentws");
    let mut dirs = vec![bin.parent().unwrap().to_path_buf()];
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    std::env::join_paths(dirs).unwrap()
}

/// Compares `actual` with the committed plain-text file `tests/e2e/snapshots/<name>`
/// (`UPDATE_EXPECT=1` writes it instead: `expect`).
#[allow(dead_code)]
pub fn assert_snapshot_file(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/e2e/snapshots")
        .join(name);
    super::expect::assert_file(&path, actual);
}

/// Copies a folder tree: files, folders, and symbolic links as links.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            let link = std::fs::read_link(entry.path()).unwrap();
            std::os::unix::fs::symlink(link, target).unwrap();
        } else if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
