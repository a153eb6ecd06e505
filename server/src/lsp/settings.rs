//! What was negotiated with the client at `initialize` and configured by it since.
//!
//! Depends on no other file of `lsp`.

use std::time::Duration;

use serde_json::Value;

use crate::base::Encoding;
use crate::rules::Profile;

/// What was negotiated with the client and configured by it.
#[derive(Clone, Debug)]
pub struct Settings {
    pub encoding: Encoding,
    /// The client pulls diagnostics (`textDocument/diagnostic`); otherwise we publish.
    pub pull: bool,
    pub refresh_support: bool,
    pub dynamic_watch: bool,
    pub configuration_support: bool,
    pub progress_support: bool,
    pub debounce: Duration,
    /// Testing hook: `agentws/fileStatus` on a file named `__panic__` panics.
    pub test_panic: bool,
    pub rules_doc_url: String,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            encoding: Encoding::Utf16,
            pull: false,
            refresh_support: false,
            dynamic_watch: false,
            configuration_support: false,
            progress_support: false,
            debounce: Duration::from_millis(DEFAULT_DEBOUNCE_MS),
            test_panic: false,
            rules_doc_url: crate::rules::docs::DEFAULT_DOCS_URL.to_string(),
        }
    }
}

/// The profile named by a client setting (`"harness"` or `"strict"`, as `agentws check
/// --profile` takes); `None` for anything else.
pub fn profile_setting(value: &Value) -> Option<Profile> {
    match value.get("profile")?.as_str()? {
        "harness" => Some(Profile::Harness),
        "strict" => Some(Profile::Strict),
        other => {
            tracing::warn!("unknown profile `{other}` (expected `harness` or `strict`); ignored");
            None
        }
    }
}

/// Default edit debounce before diagnostics are recomputed in push mode.
pub const DEFAULT_DEBOUNCE_MS: u64 = 50;
