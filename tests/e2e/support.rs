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

/// Compares `actual` with the committed plain-text file `tests/e2e/snapshots/<name>`, failing
/// with a line diff on a mismatch; `UPDATE_SNAPSHOTS=1` writes `actual` there instead. Plain
/// files (not a snapshot library's format) so a reviewer reads exactly what a user sees.
#[allow(dead_code)]
pub fn assert_snapshot_file(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/e2e/snapshots")
        .join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run with UPDATE_SNAPSHOTS=1 to write it",
            path.display()
        )
    });
    if expected != actual {
        let diff = similar::TextDiff::from_lines(expected.as_str(), actual)
            .unified_diff()
            .header("expected", "actual")
            .to_string();
        panic!(
            "{} differs from the output (UPDATE_SNAPSHOTS=1 rewrites it):\n{diff}",
            path.display()
        );
    }
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
