//! Helpers shared by the end-to-end tests.

use std::path::PathBuf;

/// Absolute path of `tests/fixtures/<name>`.
#[allow(dead_code)]
pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(name)
}
