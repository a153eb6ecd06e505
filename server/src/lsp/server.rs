//! The `LanguageServer` implementation: negotiation at `initialize`, document sync, watched files,
//! configuration, the diagnostics worker (push mode) and pull diagnostics, and dispatch of editor
//! features (`features`) and custom methods (`methods`).
//!
//! State is mutated only under `Shared::state`; the lock is never held across an `.await`. Every
//! call into the core runs inside `catch_unwind`, so a panic answers one request with an error and
//! the server keeps serving.

use std::collections::{HashMap, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::Notify;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use super::convert::{self, path_to_uri, uri_to_path, TextPositions};
use super::features;
use super::framing::MAX_BODY_BYTES as MAX_DOCUMENT_BYTES;
use super::state::{DiagnosticsByFile, OpenDoc, State};
use crate::base::{Diagnostic, Encoding, Env};
use crate::check::CheckOptions;
use crate::engine::SkillsByName;
use crate::rules::Profile;
use crate::workspace::catalog::ToolCatalog;
use crate::workspace::Workspace;

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
fn profile_setting(value: &Value) -> Option<Profile> {
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

/// What was last published for a file (push mode).
#[derive(Clone, Debug, PartialEq)]
struct Published {
    diagnostics: Vec<Diagnostic>,
    version: Option<i32>,
}

pub struct Shared {
    pub state: Mutex<State>,
    pub settings: Mutex<Settings>,
    published: Mutex<HashMap<PathBuf, Published>>,
    /// The project scopes when published files were last checked for an owner: scanning every
    /// published file for one after each edit was a twentieth of a created skill's time.
    published_scopes: Mutex<Vec<super::state::ProjectScope>>,
    wake: Notify,
    /// Set by `shutdown`; decides the exit code.
    pub shutdown_requested: Arc<AtomicBool>,
    worker_started: AtomicBool,
    pub runs: Arc<super::methods::Runs>,
    pub previews: super::methods::PreviewAnswers,
    pub store_reads: super::methods::StoreReads,
    pub stores: super::stored::StoreChecks,
}

#[derive(Clone)]
pub struct Backend {
    pub(crate) client: Client,
    pub(crate) shared: Arc<Shared>,
    pub(crate) machine: super::methods::Machine,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic is caught before it can unwind through a held guard; recover anyway.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Runs `f`, turning a panic into an internal error.
pub fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            tracing::error!("panic in {what}: {message}");
            Err(Error {
                code: ErrorCode::InternalError,
                message: format!("internal error in {what}: {message}").into(),
                data: None,
            })
        }
    }
}

pub fn invalid_params(message: impl Into<String>) -> Error {
    Error {
        code: ErrorCode::InvalidParams,
        message: message.into().into(),
        data: None,
    }
}

/// What a request reads: the diagnostics too, or only the files and their parses.
#[derive(Clone, Copy)]
enum Needs {
    Diagnostics,
    Files,
    /// The files and the skills by name group.
    Names,
}

/// A snapshot with everything a read-only handler needs.
pub struct View {
    pub workspace: Arc<Workspace>,
    /// The workspace's tool catalog, as the engine memoises it.
    pub catalog: Arc<ToolCatalog>,
    /// The skills by name group, as the engine memoises them, for the requests that look a skill
    /// name up ([`Backend::names_view_of_uri`]); `None` in other views, which do not wait for it.
    pub skills_by_name: Option<SkillsByName>,
    pub diagnostics: Arc<DiagnosticsByFile>,
    pub encoding: Encoding,
    pub rules_doc_url: String,
    pub project_root: PathBuf,
    pub detached: bool,
    pub config_file: PathBuf,
    pub generation: u64,
}

impl View {
    /// The diagnostics of `path` (under the profile the client set).
    pub fn diagnostics_of(&self, path: &Path) -> Vec<Diagnostic> {
        self.diagnostics.get(path).cloned().unwrap_or_default()
    }
}

impl Backend {
    pub fn new(
        client: Client,
        env: Env,
        machine: super::methods::Machine,
        shutdown_requested: Arc<AtomicBool>,
        runs: Arc<super::methods::Runs>,
    ) -> Backend {
        // The rule links' base: `AGENTWS_RULES_URL` of the server's environment, else the
        // default; a client's `rulesDocUrl` replaces it at `initialize`.
        let (rules_doc_url, warning) = crate::rules::docs::docs_url(&env);
        if let Some(warning) = warning {
            tracing::warn!("{warning}");
        }
        Backend {
            client,
            machine,
            shared: Arc::new(Shared {
                state: Mutex::new(State::new(env)),
                settings: Mutex::new(Settings {
                    rules_doc_url,
                    ..Settings::default()
                }),
                published: Mutex::new(HashMap::new()),
                published_scopes: Mutex::new(Vec::new()),
                wake: Notify::new(),
                shutdown_requested,
                worker_started: AtomicBool::new(false),
                runs,
                previews: Default::default(),
                store_reads: Default::default(),
                stores: Default::default(),
            }),
        }
    }

    pub fn settings(&self) -> Settings {
        lock(&self.shared.settings).clone()
    }

    /// The current view of the project `path` belongs to, its diagnostics brought up to date;
    /// `None` for a path outside every project.
    pub fn view_of(&self, path: Option<&Path>) -> Result<Option<View>> {
        self.view(path, Needs::Diagnostics)
    }

    /// The current files and their parses, for requests that read no diagnostics (hover,
    /// completion, navigation, symbols, rename, the preview): they never wait for cross-file
    /// rules to run again. The view's diagnostics are the last computed ones.
    pub fn files_view_of(&self, path: Option<&Path>) -> Result<Option<View>> {
        self.view(path, Needs::Files)
    }

    fn view(&self, path: Option<&Path>, needs: Needs) -> Result<Option<View>> {
        let settings = self.settings();
        guarded("refresh", || {
            let mut state = lock(&self.shared.state);
            let index = match path {
                Some(path) => state.project_of(path),
                None => state.projects.iter().position(|p| !p.detached),
            };
            let Some(index) = index else {
                return Ok(None);
            };
            let env = state.env.clone();
            let open = std::mem::take(&mut state.open);
            let project = &mut state.projects[index];
            let diagnostics = match needs {
                Needs::Diagnostics => project.refresh(&env, &open),
                Needs::Files | Needs::Names => {
                    project.sync(&env, &open);
                    project.last_diagnostics()
                }
            };
            let workspace = project.snapshot();
            let view = View {
                workspace,
                catalog: project.catalog(),
                skills_by_name: matches!(needs, Needs::Names).then(|| project.skills_by_name()),
                diagnostics,
                encoding: settings.encoding,
                rules_doc_url: settings.rules_doc_url.clone(),
                project_root: project.root.clone(),
                detached: project.detached,
                config_file: project.config_file(),
                generation: project.generation,
            };
            state.open = open;
            Ok(Some(view))
        })
    }

    /// [`Backend::files_view_of_uri`] with the skills by name group.
    pub fn names_view_of_uri(&self, uri: &Uri) -> Result<Option<(PathBuf, View)>> {
        let Some(path) = uri_to_path(uri) else {
            return Ok(None);
        };
        Ok(self.view(Some(&path), Needs::Names)?.map(|v| (path, v)))
    }

    pub fn view_of_uri(&self, uri: &Uri) -> Result<Option<(PathBuf, View)>> {
        let Some(path) = uri_to_path(uri) else {
            return Ok(None);
        };
        Ok(self.view_of(Some(&path))?.map(|v| (path, v)))
    }

    /// `files_view_of` for the project of `uri`.
    pub fn files_view_of_uri(&self, uri: &Uri) -> Result<Option<(PathBuf, View)>> {
        let Some(path) = uri_to_path(uri) else {
            return Ok(None);
        };
        Ok(self.files_view_of(Some(&path))?.map(|v| (path, v)))
    }

    /// LSP diagnostics of one file in `view`.
    pub fn file_diagnostics(
        view: &View,
        path: &Path,
    ) -> Vec<tower_lsp_server::ls_types::Diagnostic> {
        let list = view.diagnostics_of(path);
        let text = view.workspace.files.text(path);
        let positions = text.map(|t| TextPositions::new(t, view.encoding));
        list.iter()
            .map(|d| convert::diagnostic(d, positions.as_ref(), &view.rules_doc_url))
            .collect()
    }

    fn wake(&self) {
        self.shared.wake.notify_one();
    }

    fn start_worker(&self) {
        if self.shared.worker_started.swap(true, Ordering::SeqCst) {
            return;
        }
        let client = self.client.clone();
        let shared = self.shared.clone();
        tokio::spawn(async move {
            loop {
                shared.wake.notified().await;
                let debounce = lock(&shared.settings).debounce;
                if !debounce.is_zero() {
                    tokio::time::sleep(debounce).await;
                }
                publish_changes(&client, &shared).await;
            }
        });
    }

    /// Re-reads `agentws.debounceMs` through `workspace/configuration`.
    async fn fetch_configuration(&self) {
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

    async fn register_watchers(&self) {
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

    /// Initial indexing of every workspace folder, reported with `$/progress`; its end means the
    /// diagnostics of every file are ready (published, in push mode).
    async fn index(&self) {
        let settings = self.settings();
        let token = NumberOrString::String("agentws/indexing".to_string());
        let progress = if settings.progress_support
            && self
                .client
                .create_work_done_progress(token.clone())
                .await
                .is_ok()
        {
            Some(
                self.client
                    .progress(token, "agentws: indexing")
                    .with_message("reading workspace files")
                    .begin()
                    .await,
            )
        } else {
            None
        };
        let shared = self.shared.clone();
        let counts = tokio::task::spawn_blocking(move || {
            let mut state = lock(&shared.state);
            let env = state.env.clone();
            let open = std::mem::take(&mut state.open);
            let mut files = 0;
            let mut problems = 0;
            for project in &mut state.projects {
                let result = catch_unwind(AssertUnwindSafe(|| project.refresh(&env, &open)));
                if let Ok(diags) = result {
                    files += project.snapshot().kinds.len();
                    problems += diags.values().map(Vec::len).sum::<usize>();
                }
            }
            state.open = open;
            (files, problems)
        })
        .await
        .unwrap_or((0, 0));
        if !settings.pull {
            publish_changes(&self.client, &self.shared).await;
        }
        self.check_stores_soon();
        if let Some(progress) = progress {
            progress
                .finish_with_message(format!(
                    "{} workspace files, {} diagnostics",
                    counts.0, counts.1
                ))
                .await;
        }
    }

    async fn refresh_after_config_change(&self) {
        self.check_stores_soon();
        let settings = self.settings();
        if settings.pull {
            if settings.refresh_support {
                let _ = self.client.workspace_diagnostic_refresh().await;
            }
        } else {
            self.wake();
        }
    }
}

/// Recomputes dirty projects and publishes what changed since the last publish (push mode).
async fn publish_changes(client: &Client, shared: &Arc<Shared>) {
    let settings = lock(&shared.settings).clone();
    if settings.pull {
        return;
    }
    let shared_for_build = shared.clone();
    let to_publish =
        tokio::task::spawn_blocking(move || collect_publications(&shared_for_build, &settings))
            .await
            .unwrap_or_default();
    for (path, uri, diagnostics, version) in to_publish {
        // Drop results computed for a version the editor has already replaced.
        let current = lock(&shared.state).open.get(&path).map(|d| d.version);
        if version.is_some() && current != version {
            lock(&shared.published).remove(&path);
            shared.wake.notify_one();
            continue;
        }
        client.publish_diagnostics(uri, diagnostics, version).await;
    }
}

type Publication = (
    PathBuf,
    Uri,
    Vec<tower_lsp_server::ls_types::Diagnostic>,
    Option<i32>,
);

fn collect_publications(shared: &Shared, settings: &Settings) -> Vec<Publication> {
    let mut out = Vec::new();
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let count = lock(&shared.state).projects.len();
    for index in 0..count {
        let Some((mut state, diagnostics)) = refresh_unlocked(shared, index) else {
            continue;
        };
        let mut published = lock(&shared.published);
        let files = state.projects[index].files().clone();
        let owned = |path: &Path, state: &State| state.project_of(path) == Some(index);
        let mut candidates = state.projects[index].take_changed();
        candidates.sort();
        candidates.dedup();
        for path in candidates {
            if seen.contains(&path) || !owned(&path, &state) {
                continue;
            }
            seen.insert(path.clone());
            let list = diagnostics.get(&path).cloned().unwrap_or_default();
            let version = files.get(&path).and_then(|e| e.version);
            let record = Published {
                diagnostics: list,
                version,
            };
            let previous = published.get(&path);
            if previous == Some(&record)
                || (previous.is_none() && record.diagnostics.is_empty() && version.is_none())
            {
                continue;
            }
            let Some(uri) = path_to_uri(&path) else {
                continue;
            };
            let text = files.text(&path);
            let positions = text.map(|t| TextPositions::new(t, settings.encoding));
            let lsp_list = record
                .diagnostics
                .iter()
                .map(|d| convert::diagnostic(d, positions.as_ref(), &settings.rules_doc_url))
                .collect();
            out.push((path.clone(), uri, lsp_list, version));
            if record.diagnostics.is_empty() && version.is_none() {
                published.remove(&path);
            } else {
                published.insert(path, record);
            }
        }
    }
    // Files of projects that are gone (folder removed, detached project closed): only a change
    // of the projects' scopes makes any.
    let state = lock(&shared.state);
    let scopes = state.project_scopes();
    let mut checked = lock(&shared.published_scopes);
    if *checked == scopes {
        return out;
    }
    *checked = scopes;
    let mut published = lock(&shared.published);
    let orphans: Vec<PathBuf> = published
        .keys()
        .filter(|p| !seen.contains(*p) && state.project_of(p).is_none())
        .cloned()
        .collect();
    for path in orphans {
        published.remove(&path);
        if let Some(uri) = path_to_uri(&path) {
            out.push((path, uri, Vec::new(), None));
        }
    }
    out
}

/// Refreshes project `index` with the state lock released while the rules run (requests and
/// edits go on meanwhile; an edit cancels the run, and it is taken again from the new inputs).
/// Returns the locked state with the project's diagnostics merged, or `None` when the project
/// is gone or its analysis panicked.
fn refresh_unlocked(
    shared: &Shared,
    index: usize,
) -> Option<(MutexGuard<'_, State>, Arc<DiagnosticsByFile>)> {
    loop {
        let job = {
            let mut state = lock(&shared.state);
            let env = state.env.clone();
            let open = std::mem::take(&mut state.open);
            let job = state.projects.get_mut(index).map(|project| {
                catch_unwind(AssertUnwindSafe(|| project.begin_refresh(&env, &open)))
            });
            state.open = open;
            job?.ok()?
        };
        // No lock is held here: an edit that waits for this run to stop must not wait for us.
        let result = match catch_unwind(AssertUnwindSafe(|| job.run())) {
            Ok(Some(result)) => result,
            Ok(None) => continue,
            Err(_) => return None,
        };
        let mut state = lock(&shared.state);
        let merged = state.projects.get_mut(index)?.finish_refresh(result);
        if let Some(diagnostics) = merged {
            return Some((state, diagnostics));
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

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
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
            for folder in folder_paths(&params) {
                state.add_folder(folder);
            }
        }
        let position_encoding = Some(match encoding {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            _ => PositionEncodingKind::UTF16,
        });
        Ok(InitializeResult {
            capabilities: ServerCapabilities {
                position_encoding,
                text_document_sync: Some(TextDocumentSyncCapability::Options(
                    TextDocumentSyncOptions {
                        open_close: Some(true),
                        change: Some(TextDocumentSyncKind::INCREMENTAL),
                        save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                        ..Default::default()
                    },
                )),
                diagnostic_provider: Some(DiagnosticServerCapabilities::Options(
                    DiagnosticOptions {
                        identifier: Some("agentws".to_string()),
                        inter_file_dependencies: true,
                        workspace_diagnostics: true,
                        work_done_progress_options: Default::default(),
                    },
                )),
                completion_provider: Some(CompletionOptions {
                    trigger_characters: Some(vec![":".into(), " ".into(), "\"".into(), "-".into()]),
                    ..Default::default()
                }),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                definition_provider: Some(OneOf::Left(true)),
                references_provider: Some(OneOf::Left(true)),
                document_symbol_provider: Some(OneOf::Left(true)),
                workspace_symbol_provider: Some(OneOf::Left(true)),
                code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
                rename_provider: Some(OneOf::Right(RenameOptions {
                    prepare_provider: Some(true),
                    work_done_progress_options: Default::default(),
                })),
                workspace: Some(WorkspaceServerCapabilities {
                    workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                        supported: Some(true),
                        change_notifications: Some(OneOf::Left(true)),
                    }),
                    file_operations: None,
                }),
                ..Default::default()
            },
            server_info: Some(ServerInfo {
                name: "agentws".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        self.start_worker();
        self.fetch_configuration().await;
        self.register_watchers().await;
        self.index().await;
    }

    async fn shutdown(&self) -> Result<()> {
        self.shared.shutdown_requested.store(true, Ordering::SeqCst);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let Some(path) = uri_to_path(&params.text_document.uri) else {
            return;
        };
        let doc = OpenDoc {
            version: params.text_document.version,
            text: Arc::from(params.text_document.text),
        };
        let _ = guarded("didOpen", || {
            lock(&self.shared.state).open(path, doc);
            Ok(())
        });
        self.wake();
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let Some(path) = uri_to_path(&params.text_document.uri) else {
            return;
        };
        let version = params.text_document.version;
        let encoding = self.settings().encoding;
        let applied = guarded("didChange", || {
            let mut state = lock(&self.shared.state);
            let Some(current) = state.open.get(&path) else {
                return Ok(Ok(false));
            };
            let text = convert::apply_changes(&current.text, params.content_changes, encoding);
            if text.len() > MAX_DOCUMENT_BYTES {
                // Changes may grow a document past what one message may carry: no longer
                // followed (as if closed), rather than held whatever its size.
                state.close(&path);
                return Ok(Err(text.len()));
            }
            Ok(Ok(state.change(&path, version, Arc::from(text))))
        });
        match applied {
            Ok(Ok(true)) => self.wake(),
            Ok(Err(size)) => {
                self.wake();
                let message = format!(
                    "agentws stopped following `{}`: the document is {size} bytes, over the limit \
                     of {} MiB; its file on disk is analysed instead (close and reopen it once it \
                     is smaller)",
                    path.display(),
                    MAX_DOCUMENT_BYTES >> 20
                );
                self.client.show_message(MessageType::ERROR, message).await;
            }
            _ => {}
        }
    }

    async fn did_save(&self, _: DidSaveTextDocumentParams) {
        // The stored files are checked against the project as saved.
        self.check_stores_soon();
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let Some(path) = uri_to_path(&params.text_document.uri) else {
            return;
        };
        let gone = guarded("didClose", || {
            let mut state = lock(&self.shared.state);
            let removed = state.close(&path);
            let outside = match state.project_of(&path) {
                Some(i) => !state.projects[i].is_workspace_file(&path),
                None => true,
            };
            Ok((removed.len(), outside))
        });
        let settings = self.settings();
        if let Ok((_, outside)) = gone {
            if outside && !settings.pull {
                let was_published = lock(&self.shared.published).remove(&path).is_some();
                if was_published {
                    self.client
                        .publish_diagnostics(params.text_document.uri, Vec::new(), None)
                        .await;
                }
            }
        }
        self.wake();
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        if self.settings().configuration_support {
            self.fetch_configuration().await;
        } else if let Some(section) = params.settings.get("agentws") {
            self.apply_settings(section).await;
        }
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        {
            let mut state = lock(&self.shared.state);
            for removed in &params.event.removed {
                if let Some(path) = uri_to_path(&removed.uri) {
                    state.remove_folder(&path);
                }
            }
            for added in &params.event.added {
                if let Some(path) = uri_to_path(&added.uri) {
                    state.add_folder(path);
                }
            }
        }
        self.refresh_after_config_change().await;
        self.wake();
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        let config_changed = guarded("didChangeWatchedFiles", || {
            let mut state = lock(&self.shared.state);
            let open = std::mem::take(&mut state.open);
            let mut reload: HashSet<usize> = HashSet::new();
            let mut reconfigure: HashSet<usize> = HashSet::new();
            let mut config_changed = false;
            for event in &params.changes {
                let Some(path) = uri_to_path(&event.uri) else {
                    continue;
                };
                let is_config = path
                    .file_name()
                    .is_some_and(|n| n == crate::config::CONFIG_FILE_NAME);
                for (index, project) in state.projects.iter_mut().enumerate() {
                    // A build file pins the runtime release unless agentws.toml names one.
                    let pins_release =
                        crate::config::discover::is_build_file_of(&path, &project.config.project);
                    if is_config || pins_release {
                        let governs = pins_release
                            || project.config.file.as_deref() == Some(&path)
                            || project.root.starts_with(path.parent().unwrap_or(&path));
                        if governs {
                            reconfigure.insert(index);
                            config_changed = true;
                        }
                        continue;
                    }
                    if !project.contains(&path) {
                        continue;
                    }
                    if !project.watched_change(&path) {
                        // Anything else (a folder elsewhere, a large one): read the tree again.
                        reload.insert(index);
                        project.mark_dirty();
                    }
                }
            }
            for index in &reload {
                state.projects[*index].reload();
            }
            for index in reconfigure.difference(&reload) {
                state.projects[*index].reconfigure();
            }
            state.open = open;
            Ok(config_changed)
        })
        .unwrap_or(false);
        if config_changed {
            self.refresh_after_config_change().await;
        } else {
            let settings = self.settings();
            if settings.pull && settings.refresh_support {
                // Cross-file results of files not open may have changed.
                let _ = self.client.workspace_diagnostic_refresh().await;
            }
        }
        self.wake();
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        let items = match self.view_of_uri(&params.text_document.uri)? {
            Some((path, view)) => Backend::file_diagnostics(&view, &path),
            None => Vec::new(),
        };
        Ok(DocumentDiagnosticReportResult::Report(
            DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
                related_documents: None,
                full_document_diagnostic_report: FullDocumentDiagnosticReport {
                    result_id: None,
                    items,
                },
            }),
        ))
    }

    async fn workspace_diagnostic(
        &self,
        _params: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        let roots: Vec<Option<PathBuf>> = {
            let state = lock(&self.shared.state);
            state
                .projects
                .iter()
                .map(|p| Some(p.root.clone()))
                .collect()
        };
        let mut items = Vec::new();
        let mut seen = HashSet::new();
        for root in roots {
            let Some(view) = self.view_of(root.as_deref())? else {
                continue;
            };
            let mut paths: Vec<&PathBuf> = view.workspace.kinds.keys().collect();
            paths.extend(view.diagnostics.keys());
            paths.sort();
            paths.dedup();
            for path in paths {
                if !seen.insert(path.clone()) {
                    continue;
                }
                let Some(uri) = path_to_uri(path) else {
                    continue;
                };
                let version = view.workspace.files.get(path).and_then(|e| e.version);
                items.push(WorkspaceDocumentDiagnosticReport::Full(
                    WorkspaceFullDocumentDiagnosticReport {
                        uri,
                        version: version.map(i64::from),
                        full_document_diagnostic_report: FullDocumentDiagnosticReport {
                            result_id: None,
                            items: Backend::file_diagnostics(&view, path),
                        },
                    },
                ));
            }
        }
        let settings = self.settings();
        for (uri, stored) in self.shared.stores.reports(&settings) {
            items.push(WorkspaceDocumentDiagnosticReport::Full(
                WorkspaceFullDocumentDiagnosticReport {
                    uri,
                    version: None,
                    full_document_diagnostic_report: FullDocumentDiagnosticReport {
                        result_id: None,
                        items: stored,
                    },
                },
            ));
        }
        Ok(WorkspaceDiagnosticReportResult::Report(
            WorkspaceDiagnosticReport { items },
        ))
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let Some((path, view)) = self.view_of_uri(&params.text_document.uri)? else {
            return Ok(None);
        };
        guarded("codeAction", || {
            Ok(Some(features::code_actions(&view, &path, params.range)))
        })
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let pos = params.text_document_position;
        let Some((path, view)) = self.files_view_of_uri(&pos.text_document.uri)? else {
            return Ok(None);
        };
        guarded("completion", || {
            Ok(features::completion(&view, &path, pos.position))
        })
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let pos = params.text_document_position_params;
        let Some((path, view)) = self.files_view_of_uri(&pos.text_document.uri)? else {
            return Ok(None);
        };
        guarded("hover", || Ok(features::hover(&view, &path, pos.position)))
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let pos = params.text_document_position_params;
        let Some((path, view)) = self.names_view_of_uri(&pos.text_document.uri)? else {
            return Ok(None);
        };
        guarded("definition", || {
            Ok(features::definition(&view, &path, pos.position).map(GotoDefinitionResponse::Array))
        })
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let pos = params.text_document_position;
        let Some((path, view)) = self.files_view_of_uri(&pos.text_document.uri)? else {
            return Ok(None);
        };
        guarded("references", || {
            Ok(features::references(&view, &path, pos.position))
        })
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let Some((path, view)) = self.files_view_of_uri(&params.text_document.uri)? else {
            return Ok(None);
        };
        guarded("documentSymbol", || {
            Ok(Some(DocumentSymbolResponse::Nested(
                features::document_symbols(&view, &path),
            )))
        })
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>> {
        let roots: Vec<PathBuf> = lock(&self.shared.state)
            .projects
            .iter()
            .map(|p| p.root.clone())
            .collect();
        let mut out = Vec::new();
        for root in roots {
            if let Some(view) = self.files_view_of(Some(&root))? {
                out.extend(guarded("workspace/symbol", || {
                    Ok(features::workspace_symbols(&view, &params.query))
                })?);
            }
        }
        Ok(Some(WorkspaceSymbolResponse::Nested(out)))
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        let Some((path, view)) = self.files_view_of_uri(&params.text_document.uri)? else {
            return Ok(None);
        };
        guarded("prepareRename", || {
            Ok(features::prepare_rename(&view, &path, params.position))
        })
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let pos = params.text_document_position;
        let Some((path, view)) = self.files_view_of_uri(&pos.text_document.uri)? else {
            return Ok(None);
        };
        guarded("rename", || {
            features::rename(&view, &path, pos.position, &params.new_name)
        })
    }
}
