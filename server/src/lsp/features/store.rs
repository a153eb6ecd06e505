//! The store's methods and documents: `agentws/storeUsers` (the ids a store holds),
//! `agentws/checkStore` and `agentws/storeDocument` (the stored files, checked as
//! `agentws check --all-users` checks them, on read-only `agentws-store:` documents; `stored`
//! keeps what was read). Every read runs off the request path; a newer read of a project cancels
//! the one in flight, and a store that cannot be read is said once per distinct failure.
//!
//! Depends on no other feature file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::MessageType;

use crate::base::Diagnostic;
use crate::config::Config;
use crate::context::{session_context, ContextOverrides};
use crate::lsp::backend::{lock, project_path, view_for, Backend};
use crate::lsp::convert;
use crate::lsp::errors::{guarded, invalid_params, refused, store_unreadable};
use crate::lsp::protocol::{
    CheckStore, CheckStoreParams, CustomRequest, StoreCheckSummary, StoreDocumentParams,
    StoreDocumentResult, StoreUsers, StoreUsersParams, StoreUsersResult,
};
use crate::lsp::stored::{check_store, origin_of, store_uri, Finished, StoreCheck, STORE_SCHEME};
use crate::store::io::Cancel;
use crate::workspace::Workspace;

impl Backend {
    pub async fn store_users(&self, params: StoreUsersParams) -> Result<StoreUsersResult> {
        let path = project_path(params.uri.as_ref())?;
        let view = view_for(self, path.as_ref())?;
        let config = guarded(StoreUsers::METHOD, || {
            store_users_config(&view.workspace, params.scope.as_deref())
        })?;
        if config.store.url.is_none() {
            return Ok(StoreUsersResult {
                store: None,
                scope: config.scope.as_str(),
                ids: Vec::new(),
                notes: Vec::new(),
            });
        }
        let key = format!(
            "storeUsers\0{}\0{}",
            view.project_root.display(),
            config.scope.as_str()
        );
        let workspace = view.workspace.clone();
        self.off_the_request_path(
            StoreUsers::METHOD,
            key,
            params.work_done_token.clone(),
            move |cancel| store_users(&workspace, &config, cancel),
        )
        .await
    }

    /// Starts a read of the store of every project that configures one (and clears the store
    /// documents of a project that no longer does), without waiting for it.
    pub fn check_stores_soon(&self) {
        for root in self.store_projects(None) {
            let backend = self.clone();
            tokio::spawn(async move {
                let _ = backend.read_project_store(root).await;
            });
        }
    }

    /// The roots of the projects (of the project of `path` when given): whether one has a store
    /// is known once its configuration is read, by [`Backend::read_project_store`].
    fn store_projects(&self, path: Option<&Path>) -> Vec<PathBuf> {
        let state = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        let wanted = path.and_then(|p| state.project_of(p));
        state
            .projects
            .iter()
            .enumerate()
            .filter(|(i, _)| wanted.is_none_or(|w| w == *i))
            .map(|(_, p)| p.root.clone())
            .collect()
    }

    /// Reads the store of the project at `root` and publishes what changed; a read superseded by
    /// a newer one answers what that one found. `None`: the project has no store (its store
    /// documents, if any, were cleared).
    async fn read_project_store(
        &self,
        root: PathBuf,
    ) -> std::result::Result<Option<Arc<StoreCheck>>, String> {
        let Some(view) = self
            .files_view_of(Some(&root))
            .map_err(|e| e.message.to_string())?
        else {
            return Ok(None);
        };
        let options = self
            .shared
            .state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .options();
        if view.workspace.config.store.url.is_none() {
            let cleared = self.shared.stores.forget(&root);
            let changes = cleared.into_keys().map(|o| (o, Vec::new())).collect();
            self.publish_store_changes(None, changes).await;
            return Ok(None);
        }
        let (id, cancel) = self.shared.stores.begin(&root);
        let progress = self.store_progress(
            None,
            "checking the store's files",
            format!("agentws/storeCheck/{id}"),
        );
        let (workspace, texts) = (view.workspace.clone(), view.texts);
        let reading = cancel.clone();
        let outcome = tokio::task::spawn_blocking(move || {
            let outcome = guarded(CheckStore::METHOD, || {
                // Checked afresh with the project's files: the digested sources' texts too.
                let mut workspace = (*workspace).clone();
                workspace.files = texts.files_with_texts();
                Ok(check_store(&workspace, options, &reading))
            });
            (outcome, texts)
        })
        .await
        .map(|(outcome, texts)| {
            // Those changed since they were digested were checked as they are now; the project
            // takes them as watched changes.
            if lock(&self.shared.state).take_stale(&texts) {
                self.wake();
            }
            outcome
        });
        drop(progress);
        let outcome: std::result::Result<Arc<StoreCheck>, String> = match outcome {
            Ok(Ok(read)) => read.map(Arc::new).map_err(|err| {
                if let Some(detail) = &err.detail {
                    tracing::debug!("store read failed: {detail}");
                }
                err.message
            }),
            Ok(Err(err)) => Err(err.message.to_string()),
            Err(err) => Err(format!("internal error: {err}")),
        };
        // Only the newest read of a project reports; an older one answers with its outcome.
        let (changes, failure, done) = match self.shared.stores.finish(&root, id, &outcome) {
            Ok(reported) => reported,
            Err(mut newer) => {
                let finished = newer
                    .wait_for(|f| f.as_ref().is_some_and(|f| f.id > id))
                    .await
                    .ok()
                    .and_then(|f| f.clone());
                return match finished {
                    Some(finished) => finished.outcome.map(Some),
                    None => Ok(None),
                };
            }
        };
        if let Some(message) = failure {
            tracing::warn!("store of {}: {message}", root.display());
            self.client
                .show_message(
                    MessageType::WARNING,
                    format!(
                        "agentws could not check the files of the store configured in {}: \
                         {message} (the problems shown for stored files are from the last read \
                         that succeeded, if any)",
                        view.config_file.display()
                    ),
                )
                .await;
        }
        if let Ok(check) = &outcome {
            self.publish_store_changes(Some(check), changes).await;
        }
        done.send_replace(Some(Finished {
            id,
            outcome: outcome.clone(),
        }));
        outcome.map(Some)
    }

    /// Gives the store documents in `changes` their diagnostics (from `check`, the read they
    /// come from): published to a push client, announced to a pull client that can be asked to
    /// pull again.
    async fn publish_store_changes(
        &self,
        check: Option<&StoreCheck>,
        changes: Vec<(String, Vec<Diagnostic>)>,
    ) {
        if changes.is_empty() {
            return;
        }
        let settings = self.settings();
        if settings.pull {
            if settings.refresh_support {
                let _ = self.client.workspace_diagnostic_refresh().await;
            }
            return;
        }
        for (origin, _) in changes {
            let Some(uri) = store_uri(&origin) else {
                continue;
            };
            let list = check
                .map(|check| check.lsp_diagnostics(&origin, &settings))
                .unwrap_or_default();
            self.client.publish_diagnostics(uri, list, None).await;
        }
    }

    /// `agentws/checkStore`: reads the store of the project of `uri` (every project with a store
    /// when absent) now, and says what was read.
    pub async fn check_store(&self, params: CheckStoreParams) -> Result<Vec<StoreCheckSummary>> {
        let path =
            match &params.uri {
                Some(uri) => Some(convert::uri_to_path(uri).ok_or_else(|| {
                    invalid_params(format!("`{}` is not a file URI", uri.as_str()))
                })?),
                None => None,
            };
        let mut summaries = Vec::new();
        for root in self.store_projects(path.as_deref()) {
            match self.read_project_store(root.clone()).await {
                Ok(Some(check)) => summaries.push(StoreCheckSummary {
                    project: root.display().to_string(),
                    store: check.shown.clone(),
                    owners: check.owners,
                    files: check.file_count(),
                    diagnostics: check.diagnostic_count(),
                    notes: check.notes.clone(),
                }),
                Ok(None) => {}
                Err(message) => {
                    return Err(refused("store-unreadable", message));
                }
            }
        }
        Ok(summaries)
    }

    /// `agentws/storeDocument`: the text of a stored file, from the last read of the store that
    /// holds it (the stores are read again when no read holds it yet).
    pub async fn store_document(&self, params: StoreDocumentParams) -> Result<StoreDocumentResult> {
        let origin = origin_of(&params.uri).ok_or_else(|| {
            invalid_params(format!(
                "`{}` is not an {STORE_SCHEME}: URI",
                params.uri.as_str()
            ))
        })?;
        let mut found = self.shared.stores.find(&origin);
        if found.is_none() {
            for root in self.store_projects(None) {
                if let Err(message) = self.read_project_store(root).await {
                    return Err(refused("store-unreadable", message));
                }
            }
            found = self.shared.stores.find(&origin);
        }
        let text = found
            .as_deref()
            .and_then(|check| check.text(&origin))
            .ok_or_else(|| {
                refused(
                    "not-in-store",
                    format!("the store holds no file `{origin}` (or it is not text)"),
                )
            })?;
        Ok(StoreDocumentResult {
            origin: origin.clone(),
            text: text.to_string(),
        })
    }
}

/// The configuration `agentws/storeUsers` reads the store with: the project's, under `scope`.
fn store_users_config(workspace: &Workspace, scope: Option<&str>) -> Result<Config> {
    let mut config = (*workspace.config).clone();
    if scope.is_some() {
        let overrides = ContextOverrides {
            scope,
            ..ContextOverrides::default()
        };
        config.scope = session_context(&config, &overrides)
            .map_err(|err| invalid_params(err.message))?
            .scope;
    }
    Ok(config)
}

/// The ids the configured store holds (`agentws store users`), so an editor can offer them.
/// Blocks: run through [`Backend::off_the_request_path`].
fn store_users(
    workspace: &Workspace,
    config: &Config,
    cancel: &Cancel,
) -> Result<StoreUsersResult> {
    let cwd = std::env::current_dir().unwrap_or_default();
    let (shown, owners) =
        crate::store::users(config, &workspace.files, None, &workspace.env, &cwd, cancel)
            .map_err(store_unreadable)?;
    // Under the agent and global scopes one namespace serves every call: no ids to offer.
    let ids: Vec<String> = owners.ids.into_iter().filter(|id| !id.is_empty()).collect();
    Ok(StoreUsersResult {
        store: Some(shown),
        scope: config.scope.as_str(),
        ids,
        notes: owners.notes,
    })
}
