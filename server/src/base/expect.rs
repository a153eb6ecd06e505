//! Expected-output files for the tests: a committed file holds what the code must produce (a
//! generated page, a shipped schema, a snapshot of an output, a prompt golden), and a test fails
//! with a line diff when the output differs. One switch rewrites them all from the output:
//! `UPDATE_EXPECT=1` in the environment (review the diff before committing). Plain files, so a
//! reviewer reads exactly what a user sees.
//!
//! Test code only: the library's unit tests use it as `base::expect`, the end-to-end tests
//! include this same file. Depends on nothing of ours.

use std::path::Path;

/// The environment variable that makes the tests write their expected files.
pub const UPDATE: &str = "UPDATE_EXPECT";

/// Whether this run writes the expected files instead of comparing with them.
pub fn updating() -> bool {
    std::env::var_os(UPDATE).is_some()
}

/// A unified line diff of `expected` and `actual`, or `None` when they are equal.
pub fn diff(expected: &str, actual: &str) -> Option<String> {
    (expected != actual).then(|| {
        similar::TextDiff::from_lines(expected, actual)
            .unified_diff()
            .header("expected", "actual")
            .to_string()
    })
}

/// Compares `actual` with the file at `path`; with [`UPDATE`] set, writes `actual` there instead.
pub fn assert_file(path: &Path, actual: &str) {
    if updating() {
        std::fs::create_dir_all(path.parent().expect("a file path")).unwrap();
        std::fs::write(path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run the test with {UPDATE}=1 to write it",
            path.display()
        )
    });
    if let Some(diff) = diff(&expected, actual) {
        panic!(
            "{} differs from the output ({UPDATE}=1 rewrites it):\n{diff}",
            path.display()
        );
    }
}
