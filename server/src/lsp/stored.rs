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

use tower_lsp_server::ls_types::{self as lsp, Uri};

use super::convert::{self, TextPositions};
use super::settings::Settings;
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
    pub fn text(&self, origin: &str) -> Option<&str> {
        let (path, _) = self.docs.get(origin)?;
        self.files.text(path)
    }

    /// How many stored files were read.
    pub fn file_count(&self) -> usize {
        self.docs.len()
    }

    pub fn diagnostic_count(&self) -> usize {
        self.docs.values().map(|(_, list)| list.len()).sum()
    }

    /// The LSP diagnostics of the stored file `origin`; related locations in other stored files
    /// point at their documents.
    pub fn lsp_diagnostics(&self, origin: &str, settings: &Settings) -> Vec<lsp::Diagnostic> {
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
    let mut grown = analysis.grow(
        read.config.clone(),
        Arc::new(std::mem::take(&mut read.files)),
    );
    let report = analysis.report(&mut grown, &read.loaded.diagnostics);
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

pub type Recorded = (
    Vec<(String, Vec<Diagnostic>)>,
    Option<String>,
    tokio::sync::watch::Sender<Option<Finished>>,
);

/// A read that reported: its number and what it found (or why it failed).
#[derive(Clone)]
pub struct Finished {
    pub id: u64,
    pub outcome: std::result::Result<Arc<StoreCheck>, String>,
}

impl StoreChecks {
    fn lock(&self) -> MutexGuard<'_, HashMap<PathBuf, ProjectStore>> {
        self.projects.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The last read that holds `origin`.
    pub fn find(&self, origin: &str) -> Option<Arc<StoreCheck>> {
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

    /// Forgets the project at `root` (it no longer configures a store): the store documents it
    /// gave diagnostics to, with what they were given.
    pub fn forget(&self, root: &Path) -> BTreeMap<String, Vec<Diagnostic>> {
        self.lock()
            .remove(root)
            .map(|p| p.published)
            .unwrap_or_default()
    }

    /// Registers a new read of the project at `root`, cancelling the one in flight: its number
    /// and how to cancel it.
    pub fn begin(&self, root: &Path) -> (u64, Cancel) {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let cancel = Cancel::never();
        let mut projects = self.lock();
        let project = projects.entry(root.to_path_buf()).or_default();
        if let Some((_, older)) = project.running.replace((id, cancel.clone())) {
            older.cancel();
        }
        (id, cancel)
    }

    /// Takes the outcome of read `id` of the project at `root` when it is the newest
    /// ([`ProjectStore::record`]); otherwise where the newest one announces what it found.
    pub fn finish(
        &self,
        root: &Path,
        id: u64,
        outcome: &std::result::Result<Arc<StoreCheck>, String>,
    ) -> std::result::Result<Recorded, tokio::sync::watch::Receiver<Option<Finished>>> {
        let mut projects = self.lock();
        let project = projects.entry(root.to_path_buf()).or_default();
        if project.running.as_ref().map(|(i, _)| *i) != Some(id) {
            Err(project.done.subscribe())
        } else {
            project.running = None;
            Ok(project.record(outcome))
        }
    }
}
