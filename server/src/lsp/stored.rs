//! The files a project's remote store holds, in the editor (docs/editors.md): when the project
//! configures `[store] url`, the server reads the stored files of every user (or session) as
//! `agentws check --all-users` does, off the request path, and reports their diagnostics on
//! read-only documents named `agentws-store:///` + the label every output gives a stored file
//! without its `store:` (`<namespace>:<key>`, percent-encoded as a URI path). `agentws/storeDocument` answers a
//! document's text, `agentws/checkStore` reads the store again and says what it found.
//!
//! A read starts when the project has been indexed, after a save, after a change of
//! configuration, and on request; a newer read of a project cancels the one in flight. A store
//! that cannot be read is said once per distinct failure (`window/showMessage`); the last
//! diagnostics stay until a read succeeds. Depends on `store` for the reading and `engine` for
//! the report, as `agentws check --store` does; the LSP types only through `convert`.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{self as lsp, MessageType, Uri};

use super::convert::{self, TextPositions};
use super::server::{guarded, invalid_params, Backend, Settings};
use crate::base::{percent, Diagnostic, FileSet};
use crate::check::CheckOptions;
use crate::engine::Analysis;
use crate::store::io::Cancel;
use crate::store::{Owners, StoreError};
use crate::workspace::Workspace;

/// The URI scheme of a stored file's document.
pub const STORE_SCHEME: &str = "agentws-store";

/// The document URI of a stored file whose printed location is `origin` (`store:…`): an empty
/// authority (`:///`), because Vim-family editors treat a name without `//` as a relative file
/// path.
pub fn store_uri(origin: &str) -> Option<Uri> {
    let rest = origin.strip_prefix("store:")?;
    format!("{STORE_SCHEME}:///{}", percent::encode_path(rest))
        .parse()
        .ok()
}

/// The printed location (`store:…`) a store document URI stands for. The empty authority may
/// come back dropped (`agentws-store:/…` is how VS Code spells the same URI).
pub fn origin_of(uri: &Uri) -> Option<String> {
    let rest = uri.as_str().strip_prefix(STORE_SCHEME)?.strip_prefix(':')?;
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let rest = rest.strip_prefix('/').unwrap_or(rest);
    Some(format!("store:{}", percent::decode_lossy(rest)))
}

/// What one read of a project's store found: every stored file with its diagnostics, and the
/// file set they were read into (their texts).
pub struct StoreCheck {
    /// The store URL, password masked.
    pub shown: String,
    /// The users (or sessions) read.
    pub owners: usize,
    /// How owners without index entries were found or left out.
    pub notes: Vec<String>,
    files: Arc<FileSet>,
    /// Printed location → (path in the file set, its diagnostics, settled as `check` settles).
    docs: BTreeMap<String, (PathBuf, Vec<Diagnostic>)>,
}

impl StoreCheck {
    fn text(&self, origin: &str) -> Option<&str> {
        let (path, _) = self.docs.get(origin)?;
        self.files.text(path)
    }

    fn diagnostic_count(&self) -> usize {
        self.docs.values().map(|(_, list)| list.len()).sum()
    }

    /// The LSP diagnostics of the stored file `origin`; related locations in other stored files
    /// point at their documents.
    fn lsp_diagnostics(&self, origin: &str, settings: &Settings) -> Vec<lsp::Diagnostic> {
        let Some((path, list)) = self.docs.get(origin) else {
            return Vec::new();
        };
        let positions = self
            .files
            .text(path)
            .map(|t| TextPositions::new(t, settings.encoding));
        list.iter()
            .map(|d| {
                let mut shown = convert::diagnostic(d, positions.as_ref(), &settings.rules_doc_url);
                let stored = |p: &Path| self.files.origin(p).and_then(store_uri);
                for (info, related) in shown
                    .related_information
                    .iter_mut()
                    .flatten()
                    .zip(&d.related)
                {
                    if let Some(uri) = stored(&related.path) {
                        info.location.uri = uri;
                    }
                }
                shown
            })
            .collect()
    }
}

/// Reads every owner's stored files into `workspace` (a snapshot of the project, open buffers
/// included) and checks the result: the diagnostics of the stored files are those
/// `agentws check --all-users` prints for them.
pub fn check_store(
    workspace: &Workspace,
    options: CheckOptions,
    cancel: &Cancel,
) -> std::result::Result<StoreCheck, StoreError> {
    let mut analysis = Analysis::new(
        workspace.config.clone(),
        workspace.config_diagnostics.clone(),
        workspace.env.clone(),
        options,
        &FileSet::new(),
    );
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut read = crate::store::read_into(workspace, None, &Owners::All, &cwd, cancel)?;
    let grown = analysis.grow(
        read.config.clone(),
        Arc::new(std::mem::take(&mut read.files)),
    );
    let report = analysis.report(&grown, &read.loaded.diagnostics);
    let files = grown.files.clone();
    let mut docs: BTreeMap<String, (PathBuf, Vec<Diagnostic>)> = files
        .origins()
        .map(|(path, origin)| (origin.to_string(), (path.to_path_buf(), Vec::new())))
        .collect();
    let mut by_path: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
    for d in report.diagnostics {
        if files.origin(&d.path).is_some() {
            by_path.entry(d.path.clone()).or_default().push(d);
        }
    }
    for (path, list) in by_path {
        let capped = crate::rules::workspace::too_many_problems::cap_per_file(list);
        if let Some((_, slot)) = files.origin(&path).and_then(|o| docs.get_mut(o)) {
            *slot = capped;
        }
    }
    Ok(StoreCheck {
        shown: read.shown,
        owners: read.loaded.owners.len(),
        notes: read.loaded.notes,
        files,
        docs,
    })
}

/// The store documents whose diagnostics differ between what was `published` and `check`
/// (a document `check` no longer reports has an empty list).
fn changed_documents(
    published: &BTreeMap<String, Vec<Diagnostic>>,
    check: &StoreCheck,
) -> Vec<(String, Vec<Diagnostic>)> {
    let mut out = Vec::new();
    for (origin, (_, list)) in &check.docs {
        let before = published.get(origin);
        if before.map_or(!list.is_empty(), |b| b != list) {
            out.push((origin.clone(), list.clone()));
        }
    }
    for (origin, before) in published {
        if !before.is_empty() && !check.docs.contains_key(origin) {
            out.push((origin.clone(), Vec::new()));
        }
    }
    out
}

/// The store reads of every project, owned by the server instance.
#[derive(Default)]
pub struct StoreChecks {
    projects: Mutex<HashMap<PathBuf, ProjectStore>>,
    next_id: AtomicU64,
}

struct ProjectStore {
    /// The read in flight, and how to cancel it.
    running: Option<(u64, Cancel)>,
    /// The outcome of the last read that reported, once its diagnostics are published: what a
    /// request whose read was superseded answers.
    done: tokio::sync::watch::Sender<Option<Finished>>,
    last: Option<Arc<StoreCheck>>,
    /// The last failure said to the user, so that it is said once.
    failure: Option<String>,
    /// Every store document given diagnostics since the server started, with what it was given
    /// last: a document no longer reported is given an empty list once (pull clients keep a
    /// document's diagnostics until a report names it again).
    published: BTreeMap<String, Vec<Diagnostic>>,
}

impl Default for ProjectStore {
    fn default() -> Self {
        ProjectStore {
            running: None,
            done: tokio::sync::watch::channel(None).0,
            last: None,
            failure: None,
            published: BTreeMap::new(),
        }
    }
}

impl ProjectStore {
    /// Takes the outcome of the newest read: the store documents whose diagnostics changed, the
    /// failure to say (only when it differs from the last one said), and where to announce that
    /// the read is over.
    fn record(&mut self, outcome: &std::result::Result<Arc<StoreCheck>, String>) -> Recorded {
        let done = self.done.clone();
        match outcome {
            Ok(check) => {
                self.failure = None;
                let changes = changed_documents(&self.published, check);
                for (origin, list) in &changes {
                    self.published.insert(origin.clone(), list.clone());
                }
                self.last = Some(check.clone());
                (changes, None, done)
            }
            Err(message) => {
                let new = self.failure.as_deref() != Some(message.as_str());
                self.failure = Some(message.clone());
                (Vec::new(), new.then(|| message.clone()), done)
            }
        }
    }
}

type Recorded = (
    Vec<(String, Vec<Diagnostic>)>,
    Option<String>,
    tokio::sync::watch::Sender<Option<Finished>>,
);

/// A read that reported: its number and what it found (or why it failed).
#[derive(Clone)]
struct Finished {
    id: u64,
    outcome: std::result::Result<Arc<StoreCheck>, String>,
}

impl StoreChecks {
    fn lock(&self) -> MutexGuard<'_, HashMap<PathBuf, ProjectStore>> {
        self.projects.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The last read that holds `origin`.
    fn find(&self, origin: &str) -> Option<Arc<StoreCheck>> {
        self.lock()
            .values()
            .filter_map(|p| p.last.clone())
            .find(|check| check.docs.contains_key(origin))
    }

    /// Every store document with its current LSP diagnostics (empty for one no longer
    /// reported), for a workspace pull.
    pub fn reports(&self, settings: &Settings) -> Vec<(Uri, Vec<lsp::Diagnostic>)> {
        let projects = self.lock();
        let mut out = Vec::new();
        for project in projects.values() {
            for origin in project.published.keys() {
                let Some(uri) = store_uri(origin) else {
                    continue;
                };
                let list = match &project.last {
                    Some(check) => check.lsp_diagnostics(origin, settings),
                    None => Vec::new(),
                };
                out.push((uri, list));
            }
        }
        out
    }
}

/// Parameters of `agentws/checkStore`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CheckStoreParams {
    /// A file of the project (default: every project with a store).
    pub uri: Option<Uri>,
}

/// The answer of `agentws/checkStore`, per project read.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoreCheckSummary {
    pub project: String,
    pub store: String,
    pub owners: usize,
    pub files: usize,
    pub diagnostics: usize,
    pub notes: Vec<String>,
}

/// Parameters of `agentws/storeDocument`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StoreDocumentParams {
    pub uri: Uri,
}

/// The answer of `agentws/storeDocument`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoreDocument {
    /// The stored file's printed location (`store:<namespace>:<key>`).
    pub origin: String,
    pub text: String,
}

impl Backend {
    /// Starts a read of the store of every project that configures one (and clears the store
    /// documents of a project that no longer does), without waiting for it.
    pub(super) fn check_stores_soon(&self) {
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
            let cleared = {
                let mut projects = self.shared.stores.lock();
                projects
                    .remove(&root)
                    .map(|p| p.published)
                    .unwrap_or_default()
            };
            let changes = cleared.into_keys().map(|o| (o, Vec::new())).collect();
            self.publish_store_changes(None, changes).await;
            return Ok(None);
        }
        let id = self.shared.stores.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let cancel = Cancel::never();
        {
            let mut projects = self.shared.stores.lock();
            let project = projects.entry(root.clone()).or_default();
            if let Some((_, older)) = project.running.replace((id, cancel.clone())) {
                older.cancel();
            }
        }
        let progress = self.store_progress(
            None,
            "checking the store's files",
            format!("agentws/storeCheck/{id}"),
        );
        let workspace = view.workspace.clone();
        let reading = cancel.clone();
        let outcome = tokio::task::spawn_blocking(move || {
            guarded("agentws/checkStore", || {
                Ok(check_store(&workspace, options, &reading))
            })
        })
        .await;
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
        let reported = {
            let mut projects = self.shared.stores.lock();
            let project = projects.entry(root.clone()).or_default();
            if project.running.as_ref().map(|(i, _)| *i) != Some(id) {
                Err(project.done.subscribe())
            } else {
                project.running = None;
                Ok(project.record(&outcome))
            }
        };
        let (changes, failure, done) = match reported {
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
    pub async fn check_store(&self, params: CheckStoreParams) -> Result<Value> {
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
                    files: check.docs.len(),
                    diagnostics: check.diagnostic_count(),
                    notes: check.notes.clone(),
                }),
                Ok(None) => {}
                Err(message) => {
                    return Err(super::methods::refused("store-unreadable", message));
                }
            }
        }
        serde_json::to_value(summaries).map_err(|err| invalid_params(err.to_string()))
    }

    /// `agentws/storeDocument`: the text of a stored file, from the last read of the store that
    /// holds it (the stores are read again when no read holds it yet).
    pub async fn store_document(&self, params: StoreDocumentParams) -> Result<Value> {
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
                    return Err(super::methods::refused("store-unreadable", message));
                }
            }
            found = self.shared.stores.find(&origin);
        }
        let text = found
            .as_deref()
            .and_then(|check| check.text(&origin))
            .ok_or_else(|| {
                super::methods::refused(
                    "not-in-store",
                    format!("the store holds no file `{origin}` (or it is not text)"),
                )
            })?;
        let answer = StoreDocument {
            origin: origin.clone(),
            text: text.to_string(),
        };
        serde_json::to_value(answer).map_err(|err| invalid_params(err.to_string()))
    }
}
