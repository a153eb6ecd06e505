//! What the client negotiates at `initialize` (position encoding, pull or push diagnostics,
//! what it supports, `initializationOptions`) and configures since (`workspace/configuration`,
//! `didChangeConfiguration`: the debounce and the profile); the file watchers it registers.
//!
//! Depends on `diagnostics` (a changed profile asks for diagnostics again).

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;
use tower_lsp_server::ls_types::*;

use crate::base::Encoding;
use crate::check::CheckOptions;
use crate::lsp::backend::{lock, Backend};
use crate::lsp::convert::uri_to_path;
use crate::lsp::settings::profile_setting;

impl Backend {
    /// Takes what the client negotiates at `initialize` and opens its workspace folders; the
    /// position encoding agreed on.
    pub fn negotiate(&self, params: &InitializeParams) -> Encoding {
        let caps = &params.capabilities;
        let offers_utf8 = caps
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_ref())
            .is_some_and(|list| list.contains(&PositionEncodingKind::UTF8));
        let encoding = if offers_utf8 {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        };
        let workspace = caps.workspace.as_ref();
        let options = params.initialization_options.clone().unwrap_or(Value::Null);
        {
            let mut settings = lock(&self.shared.settings);
            settings.encoding = encoding;
            settings.pull = caps
                .text_document
                .as_ref()
                .and_then(|t| t.diagnostic.as_ref())
                .is_some();
            settings.refresh_support = workspace
                .and_then(|w| w.diagnostics.as_ref())
                .and_then(|d| d.refresh_support)
                .unwrap_or(false);
            settings.dynamic_watch = workspace
                .and_then(|w| w.did_change_watched_files.as_ref())
                .and_then(|d| d.dynamic_registration)
                .unwrap_or(false);
            settings.configuration_support =
                workspace.and_then(|w| w.configuration).unwrap_or(false);
            settings.progress_support = caps
                .window
                .as_ref()
                .and_then(|w| w.work_done_progress)
                .unwrap_or(false);
            if let Some(ms) = options.get("debounceMs").and_then(Value::as_u64) {
                settings.debounce = Duration::from_millis(ms.min(10_000));
            }
            settings.test_panic = options
                .get("testPanic")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            if let Some(url) = options.get("rulesDocUrl").and_then(Value::as_str) {
                match crate::rules::docs::checked_docs_url(url) {
                    Ok(url) => settings.rules_doc_url = url,
                    Err(why) => tracing::warn!(
                        "initializationOptions.rulesDocUrl: {why}; the rule links use {}",
                        settings.rules_doc_url
                    ),
                }
            }
        }
        {
            let mut state = lock(&self.shared.state);
            if let Some(profile) = profile_setting(&options) {
                state.set_options(CheckOptions::new(profile));
            }
            for folder in folder_paths(params) {
                state.add_folder(folder);
            }
        }
        encoding
    }

    /// Re-reads `agentws.debounceMs` through `workspace/configuration`.
    pub async fn fetch_configuration(&self) {
        if !self.settings().configuration_support {
            return;
        }
        let items = vec![ConfigurationItem {
            scope_uri: None,
            section: Some("agentws".to_string()),
        }];
        if let Ok(values) = self.client.configuration(items).await {
            if let Some(value) = values.first() {
                self.apply_settings(value).await;
            }
        }
    }

    /// Applies the `agentws` configuration section; a changed profile re-checks every project
    /// (and asks a pulling client to pull again).
    async fn apply_settings(&self, value: &Value) {
        if let Some(ms) = value.get("debounceMs").and_then(Value::as_u64) {
            lock(&self.shared.settings).debounce = Duration::from_millis(ms.min(10_000));
        }
        let Some(profile) = profile_setting(value) else {
            return;
        };
        // The profile is held by the state alone (it reaches every project's analysis).
        let changed = {
            let mut state = lock(&self.shared.state);
            let options = CheckOptions::new(profile);
            let changed = state.options() != options;
            state.set_options(options);
            changed
        };
        if changed {
            self.refresh_after_config_change().await;
        }
    }

    pub async fn register_watchers(&self) {
        if !self.settings().dynamic_watch {
            return;
        }
        let globs = [
            "**/agentws.toml",
            "**/SKILL.md",
            "**/*.md",
            "**/tools.json",
            "**/knowledge/**",
            "**/skills/**",
            "**/subagents/**",
        ];
        let watchers: Vec<FileSystemWatcher> = globs
            .iter()
            .chain(crate::config::discover::BUILD_FILE_GLOBS)
            .map(|g| FileSystemWatcher {
                glob_pattern: GlobPattern::String(g.to_string()),
                kind: None,
            })
            .collect();
        let options = DidChangeWatchedFilesRegistrationOptions { watchers };
        let registration = Registration {
            id: "agentws-watched-files".to_string(),
            method: "workspace/didChangeWatchedFiles".to_string(),
            register_options: serde_json::to_value(options).ok(),
        };
        if let Err(err) = self.client.register_capability(vec![registration]).await {
            tracing::warn!("client refused file watcher registration: {err}");
        }
    }

    pub async fn change_configuration(&self, params: DidChangeConfigurationParams) {
        if self.settings().configuration_support {
            self.fetch_configuration().await;
        } else if let Some(section) = params.settings.get("agentws") {
            self.apply_settings(section).await;
        }
    }
}

fn folder_paths(params: &InitializeParams) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(folders) = &params.workspace_folders {
        out.extend(folders.iter().filter_map(|f| uri_to_path(&f.uri)));
    }
    #[allow(deprecated)]
    if out.is_empty() {
        if let Some(uri) = &params.root_uri {
            out.extend(uri_to_path(uri));
        }
    }
    out
}
