//! The custom JSON-RPC methods (`agentws/…`, camelCase parameters), documented in
//! `docs/protocol.md`; a test keeps [`CUSTOM_METHODS`] and the document in step.
//!
//! The prompt renderer and the path normalizer are separate pieces of the core; each is reached
//! through one small adapter here (`render_preview`, `Runs`), which only maps parameters and
//! errors. Refusals become JSON-RPC errors with `data.code` = the refusal code.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::Uri;

use super::convert::{path_to_uri, uri_to_path};
use super::server::{guarded, invalid_params, Backend, View};
use crate::config::Config;
use crate::context::{session_context, ContextOverrides, SessionContext};
use crate::paths::{
    load_project, refuse_config_errors, NormalizeParams, Refusal, RefusalCode, RunEndParams,
    RunParams, RunRegistry,
};
use crate::prompt::{Date, PlanState, Preview, PreviewContext, RenderMemo};
use crate::store::io::Cancel;
use crate::workspace::{Tree, Workspace};

/// Every custom method the server answers, in the order `docs/protocol.md` lists them.
pub const CUSTOM_METHODS: &[&str] = &[
    "agentws/previewPrompt",
    "agentws/storeUsers",
    "agentws/checkStore",
    "agentws/storeDocument",
    "agentws/runBegin",
    "agentws/normalizePath",
    "agentws/runEnd",
    "agentws/fileStatus",
];

/// JSON-RPC error code for a refused context or path (`data.code` says which refusal).
pub const REFUSED: i64 = -32002;

pub(super) fn refused(code: &str, message: String) -> Error {
    Error {
        code: ErrorCode::ServerError(REFUSED),
        message: crate::base::redact::redact_text(&message)
            .into_owned()
            .into(),
        data: Some(json!({"code": code})),
    }
}

/// The session context fields of `agentws/previewPrompt` (the CLI flags of `agentws preview`).
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContextParams {
    pub user_id: Option<String>,
    pub session_id: Option<String>,
    pub scope: Option<String>,
    pub filesystem: Option<String>,
    pub sandbox_root: Option<String>,
    pub harness: Option<String>,
    pub date: Option<String>,
    pub os: Option<String>,
    pub tmp_dir: Option<String>,
    pub plan: Option<String>,
}

impl ContextParams {
    /// The session context under `config` with these overrides.
    pub fn session(&self, config: &Config) -> Result<SessionContext> {
        let overrides = ContextOverrides {
            user_id: self.user_id.as_deref(),
            session_id: self.session_id.as_deref(),
            scope: self.scope.as_deref(),
            filesystem: self.filesystem.as_deref(),
            sandbox_root: self.sandbox_root.as_deref(),
            harness: self.harness.as_deref(),
        };
        session_context(config, &overrides).map_err(|err| invalid_params(err.message))
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PreviewPromptParams {
    pub uri: Option<Uri>,
    #[serde(default)]
    pub context: ContextParams,
    /// Present (`null` or the `resultId` of the answer the client holds for this project and
    /// context): the client takes answers as edits of the previous one.
    #[serde(default, deserialize_with = "present")]
    pub previous_result_id: Option<Option<String>>,
    /// Client-initiated progress: `$/progress` for this token while a store is read.
    pub work_done_token: Option<tower_lsp_server::ls_types::ProgressToken>,
}

/// `Some(None)` for a field given as `null`, which serde's `Option` would not tell from absent.
fn present<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> std::result::Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(deserializer).map(Some)
}

/// What the server keeps between previews: the skills' metadata as the last render wrote it
/// (`prompt::RenderMemo`), and the last previews answered to clients that take edits
/// (`previousResultId` sent), one per project and context, so that the next answer can be what
/// changed since. Owned by the server instance; holds at most [`PreviewAnswers::KEPT`] answers.
#[derive(Default)]
pub struct PreviewAnswers {
    kept: std::sync::Mutex<std::collections::VecDeque<KeptPreview>>,
    next_id: std::sync::atomic::AtomicU64,
    memo: std::sync::Mutex<RenderMemo>,
}

struct KeptPreview {
    key: (PathBuf, String),
    result_id: String,
    preview: Preview,
}

impl PreviewAnswers {
    /// Enough for a few preview panels open side by side; each holds a whole rendered prompt,
    /// which for a large workspace is megabytes.
    const KEPT: usize = 4;

    /// Renders with the memo of the renders before, taken out for the time of the render so that
    /// previews of other contexts do not wait for it (one of them starts from an empty memo).
    fn render_reusing(
        &self,
        render: impl FnOnce(&mut RenderMemo) -> Result<Preview>,
    ) -> Result<Preview> {
        let lock = || self.memo.lock().unwrap_or_else(|e| e.into_inner());
        let mut memo = std::mem::take(&mut *lock());
        let preview = render(&mut memo);
        *lock() = memo;
        preview
    }

    /// The answer for the client: `fresh` whole with its `resultId`, or, when `previous` names
    /// the answer kept for `key`, `{resultId, previousResultId, edits}` (`Preview::edits_to`).
    fn answer(
        &self,
        key: (PathBuf, String),
        previous: Option<&str>,
        fresh: Preview,
    ) -> Result<Value> {
        use std::sync::atomic::Ordering;
        let result_id = format!("p{}", self.next_id.fetch_add(1, Ordering::Relaxed) + 1);
        let kept = || self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let old = {
            let mut kept = kept();
            let at = kept.iter().position(|k| k.key == key);
            at.and_then(|i| kept.remove(i))
        };
        let answer = match old {
            Some(old) if previous == Some(old.result_id.as_str()) => json!({
                "resultId": result_id,
                "previousResultId": old.result_id,
                "edits": old.preview.edits_to(&fresh),
            }),
            _ => {
                let mut whole =
                    serde_json::to_value(&fresh).map_err(|err| invalid_params(err.to_string()))?;
                whole["resultId"] = Value::String(result_id.clone());
                whole
            }
        };
        let mut kept = kept();
        kept.push_front(KeptPreview {
            key,
            result_id,
            preview: fresh,
        });
        kept.truncate(Self::KEPT);
        Ok(answer)
    }
}

/// What the runtime takes from its JVM, read at the edge when a preview is asked for.
#[derive(Clone, Copy)]
pub struct Machine {
    pub date: fn() -> Date,
    pub os: fn() -> String,
    pub tmp_dir: fn() -> String,
}

/// `render_preview` over the files the configured `[store]` holds for this call
/// (docs/stores.md); a store that cannot be read is a refusal naming why (no password in it).
/// Blocks: run through [`Backend::off_the_request_path`].
fn preview_from_store(
    workspace: &Workspace,
    session: SessionContext,
    context: &ContextParams,
    machine: &Machine,
    cancel: &Cancel,
) -> Result<Preview> {
    let owners = crate::store::call_owners(&workspace.config, &session)
        .map_err(|err| refused(err.code, err.message))?;
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut read = crate::store::read_into(workspace, None, &owners, &cwd, cancel)
        .map_err(store_unreadable)?;
    // The store's files are read again for each call: nothing to reuse.
    let workspace = read.parsed_snapshot(workspace);
    render_preview(&workspace, session, context, machine, None)
}

/// The prompt renderer: the preview `agentws preview --format json` prints.
fn render_preview(
    workspace: &Workspace,
    session: SessionContext,
    context: &ContextParams,
    machine: &Machine,
    memo: Option<&mut RenderMemo>,
) -> Result<Preview> {
    let date = match &context.date {
        Some(text) => Date::parse(text).ok_or_else(|| {
            invalid_params(format!(
                "date `{text}` is not a calendar date in the form YYYY-MM-DD"
            ))
        })?,
        None => (machine.date)(),
    };
    let os = context.os.clone().unwrap_or_else(machine.os);
    let tmp_dir = context.tmp_dir.clone().unwrap_or_else(machine.tmp_dir);
    let mut ctx = PreviewContext::new(&workspace.config, date, &os, &tmp_dir);
    ctx.session = session;
    if let Some(plan) = &context.plan {
        ctx.plan = PlanState::parse(plan).ok_or_else(|| {
            invalid_params(format!(
                "unknown plan state `{plan}` (active, recorded, off)"
            ))
        })?;
    }
    let mut preview = crate::prompt::render_reusing(workspace, &ctx, memo)
        .map_err(|err| refused(err.code, err.message))?;
    // Sources of files read from a store are named by store entry, as `agentws preview` does.
    preview.relabel_sources(&workspace.files);
    crate::check::settle::settle_notes(&mut preview, workspace);
    Ok(preview)
}

/// The whole answer, the preview's text moved into it rather than copied: megabytes for a large
/// workspace.
fn whole_answer(mut preview: Preview) -> Result<Value> {
    let text = std::mem::take(&mut preview.text);
    let mut answer =
        serde_json::to_value(&preview).map_err(|err| invalid_params(err.to_string()))?;
    answer["text"] = Value::String(text);
    Ok(answer)
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StoreUsersParams {
    pub uri: Option<Uri>,
    /// `user | session | agent | global`; default: the project's scope.
    pub scope: Option<String>,
    /// Client-initiated progress: `$/progress` for this token while the store is read.
    pub work_done_token: Option<tower_lsp_server::ls_types::ProgressToken>,
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
fn store_users(workspace: &Workspace, config: &Config, cancel: &Cancel) -> Result<Value> {
    let cwd = std::env::current_dir().unwrap_or_default();
    let (shown, owners) =
        crate::store::users(config, &workspace.files, None, &workspace.env, &cwd, cancel)
            .map_err(store_unreadable)?;
    // Under the agent and global scopes one namespace serves every call: no ids to offer.
    let ids: Vec<String> = owners.ids.into_iter().filter(|id| !id.is_empty()).collect();
    Ok(json!({"store": shown, "scope": config.scope.as_str(), "ids": ids, "notes": owners.notes}))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FileStatusParams {
    pub uri: Uri,
}

/// The server's runs, each bound to its own id (never a shared "current run"): the normalizer's
/// registry, owned by this server instance.
#[derive(Default)]
pub struct Runs {
    registry: RunRegistry,
}

/// A store that cannot be read: a refusal with the message in words; the client library's own
/// report goes to the log.
fn store_unreadable(err: crate::store::StoreError) -> Error {
    if let Some(detail) = &err.detail {
        tracing::debug!("store read failed: {detail}");
    }
    refused("store-unreadable", err.message)
}

/// JSON-RPC error code of a request the server cancelled (LSP `ServerCancelled`).
pub const SERVER_CANCELLED: i64 = -32802;

/// Store reads in flight, one per project, method and context: a newer request for the same
/// thing cancels the older one, which answers `ServerCancelled`. At most [`StoreReads::MAX`] run
/// at once: each holds one of the few requests the protocol library serves concurrently, and
/// the others must stay free for the editor's requests. Owned by the server instance.
#[derive(Default)]
pub struct StoreReads {
    running: std::sync::Mutex<std::collections::HashMap<String, Running>>,
    next_id: std::sync::atomic::AtomicU64,
}

struct Running {
    id: u64,
    cancel: Cancel,
    superseded: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// One store read of [`StoreReads`]: cancels the read when dropped (the request's future is
/// dropped when the client cancels it) and leaves the table.
struct ReadGuard<'a> {
    reads: &'a StoreReads,
    key: String,
    id: u64,
    cancel: Cancel,
}

impl Drop for ReadGuard<'_> {
    fn drop(&mut self) {
        self.cancel.cancel();
        let mut running = self.reads.lock();
        if running.get(&self.key).is_some_and(|r| r.id == self.id) {
            running.remove(&self.key);
        }
    }
}

impl StoreReads {
    /// Store reads of different things at once (a preview panel and its user picker).
    const MAX: usize = 2;

    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, Running>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers a read of `key`, superseding the one in flight for it.
    fn start(
        &self,
        key: String,
    ) -> Result<(ReadGuard<'_>, std::sync::Arc<std::sync::atomic::AtomicBool>)> {
        use std::sync::atomic::Ordering;
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let cancel = Cancel::never();
        let superseded = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut running = self.lock();
        if !running.contains_key(&key) && running.len() >= Self::MAX {
            return Err(refused(
                "store-busy",
                format!(
                    "{} store reads are already waiting on the store: try again when one has \
                     answered (or cancel one)",
                    running.len()
                ),
            ));
        }
        let old = running.insert(
            key.clone(),
            Running {
                id,
                cancel: cancel.clone(),
                superseded: superseded.clone(),
            },
        );
        drop(running);
        if let Some(old) = old {
            old.superseded.store(true, Ordering::SeqCst);
            old.cancel.cancel();
        }
        let guard = ReadGuard {
            reads: self,
            key,
            id,
            cancel,
        };
        Ok((guard, superseded))
    }
}

fn refusal(err: Refusal) -> Error {
    refused(err.code.as_str(), err.message)
}

impl Runs {
    /// Answers `agentws/normalizePath` and `agentws/runEnd` (`None` for any other method). Run on
    /// the reading thread, in arrival order, so a normalize sent after a `runEnd` of the same run
    /// is refused as the order of the messages says.
    pub fn direct(&self, method: &str, params: &Value) -> Option<Result<Value>> {
        let answer = match method {
            "agentws/normalizePath" => super::server::guarded(method, || {
                serde_json::from_value::<NormalizeParams>(params.clone())
                    .map_err(|err| invalid_params(err.to_string()))
                    .and_then(|p| self.normalize(&p))
            }),
            "agentws/runEnd" => super::server::guarded(method, || {
                serde_json::from_value::<RunEndParams>(params.clone())
                    .map_err(|err| invalid_params(err.to_string()))
                    .and_then(|p| self.end(&p))
            }),
            _ => return None,
        };
        Some(answer)
    }

    fn begin(&self, config: &Config, params: &RunParams) -> Result<Value> {
        let info = self.registry.begin(config, params).map_err(refusal)?;
        serde_json::to_value(info).map_err(|err| invalid_params(err.to_string()))
    }

    pub(crate) fn normalize(&self, params: &NormalizeParams) -> Result<Value> {
        let normalized = self
            .registry
            .normalize(&params.run_id, &params.path, params.op)
            .map_err(refusal)?;
        serde_json::to_value(normalized).map_err(|err| invalid_params(err.to_string()))
    }

    pub(crate) fn end(&self, params: &RunEndParams) -> Result<Value> {
        if self.registry.end(&params.run_id) {
            Ok(Value::Null)
        } else {
            Err(refusal(Refusal::new(
                RefusalCode::UnknownRun,
                format!("no run `{}` is active", params.run_id.escape_debug()),
            )))
        }
    }
}

fn project_path(uri: Option<&Uri>) -> Result<Option<PathBuf>> {
    match uri {
        None => Ok(None),
        Some(uri) => uri_to_path(uri)
            .map(Some)
            .ok_or_else(|| invalid_params(format!("`{}` is not a file URI", uri.as_str()))),
    }
}

fn view_for(backend: &Backend, path: Option<&PathBuf>) -> Result<View> {
    backend
        .files_view_of(path.map(|p| p.as_path()))?
        .ok_or_else(|| {
            invalid_params(match path {
                Some(p) => format!("`{}` is not inside a workspace folder", p.display()),
                None => "the server has no workspace folder".to_string(),
            })
        })
}

impl Backend {
    /// Runs `read` (a store read: it blocks, for at most the store's deadlines) on the blocking
    /// pool, so the server goes on answering other requests meanwhile. The read is cancelled
    /// when this request is (`$/cancelRequest` drops this future) and when a newer request for
    /// the same `key` arrives (this one then answers `ServerCancelled`). While it runs, the
    /// client sees work-done progress: on `token` when the request carried one, else on a token
    /// the server creates when the client supports it.
    async fn off_the_request_path<T: Send + 'static>(
        &self,
        what: &'static str,
        key: String,
        token: Option<tower_lsp_server::ls_types::ProgressToken>,
        read: impl FnOnce(&Cancel) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let (guard, superseded) = self.shared.store_reads.start(key)?;
        let cancel = guard.cancel.clone();
        let _progress = self.store_progress(token, what, format!("agentws/store/{}", guard.id));
        let outcome = tokio::task::spawn_blocking(move || guarded(what, || read(&cancel)))
            .await
            .unwrap_or_else(|err| {
                Err(Error {
                    code: ErrorCode::InternalError,
                    message: format!("internal error in {what}: {err}").into(),
                    data: None,
                })
            });
        drop(guard);
        if superseded.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(Error {
                code: ErrorCode::ServerError(SERVER_CANCELLED),
                message: "superseded by a newer request for the same project and context".into(),
                data: None,
            });
        }
        outcome
    }

    /// Work-done progress titled `what` for a store read, ended when the returned sender is
    /// dropped: on `token`, else on a token named `name` the server creates.
    pub(super) fn store_progress(
        &self,
        token: Option<tower_lsp_server::ls_types::ProgressToken>,
        what: &'static str,
        name: String,
    ) -> tokio::sync::oneshot::Sender<()> {
        let (done, ended) = tokio::sync::oneshot::channel::<()>();
        let supported = self.settings().progress_support;
        let client = self.client.clone();
        tokio::spawn(async move {
            let token = match token {
                Some(token) => token,
                None if supported => {
                    let token = tower_lsp_server::ls_types::ProgressToken::String(name);
                    if client
                        .create_work_done_progress(token.clone())
                        .await
                        .is_err()
                    {
                        return;
                    }
                    token
                }
                None => return,
            };
            let progress = client
                .progress(token, format!("agentws: {what}"))
                .with_message("reading the store")
                .begin()
                .await;
            let _ = ended.await;
            progress.finish().await;
        });
        done
    }

    pub async fn preview_prompt(&self, params: PreviewPromptParams) -> Result<Value> {
        let path = project_path(params.uri.as_ref())?;
        let view = view_for(self, path.as_ref())?;
        let session = guarded("agentws/previewPrompt", || {
            let session = params.context.session(&view.workspace.config)?;
            if let Err(err) = crate::context::effective_root(&view.workspace.config, &session) {
                return Err(refused(err.code, err.message));
            }
            Ok(session)
        })?;
        let context = serde_json::to_string(&params.context).unwrap_or_default();
        let from_store = session.filesystem == crate::config::FilesystemMode::Remote
            && view.workspace.config.store.url.is_some();
        let fresh = if from_store {
            let (workspace, machine) = (view.workspace.clone(), self.machine);
            let ctx = params.context.clone();
            let key = format!("previewPrompt\0{}\0{context}", view.project_root.display());
            self.off_the_request_path(
                "agentws/previewPrompt",
                key,
                params.work_done_token.clone(),
                move |cancel| preview_from_store(&workspace, session, &ctx, &machine, cancel),
            )
            .await?
        } else {
            guarded("agentws/previewPrompt", || {
                self.shared.previews.render_reusing(|memo| {
                    render_preview(
                        &view.workspace,
                        session,
                        &params.context,
                        &self.machine,
                        Some(memo),
                    )
                })
            })?
        };
        guarded("agentws/previewPrompt", || {
            match &params.previous_result_id {
                None => whole_answer(fresh),
                Some(previous) => self.shared.previews.answer(
                    (view.project_root.clone(), context),
                    previous.as_deref(),
                    fresh,
                ),
            }
        })
    }

    pub async fn store_users(&self, params: StoreUsersParams) -> Result<Value> {
        let path = project_path(params.uri.as_ref())?;
        let view = view_for(self, path.as_ref())?;
        let config = guarded("agentws/storeUsers", || {
            store_users_config(&view.workspace, params.scope.as_deref())
        })?;
        if config.store.url.is_none() {
            return Ok(
                json!({"store": null, "scope": config.scope.as_str(), "ids": [], "notes": []}),
            );
        }
        let key = format!(
            "storeUsers\0{}\0{}",
            view.project_root.display(),
            config.scope.as_str()
        );
        let workspace = view.workspace.clone();
        self.off_the_request_path(
            "agentws/storeUsers",
            key,
            params.work_done_token.clone(),
            move |cancel| store_users(&workspace, &config, cancel),
        )
        .await
    }

    pub async fn run_begin(&self, params: RunParams) -> Result<Value> {
        // `project` is a file URI or a plain path; the project is found as for any file.
        let path = match params.project.as_deref() {
            Some(p) if p.starts_with("file:") => {
                let uri = p
                    .parse::<Uri>()
                    .map_err(|_| invalid_params(format!("`{p}` is not a file URI")))?;
                project_path(Some(&uri))?
            }
            Some(p) => Some(PathBuf::from(p)),
            None => None,
        };
        // A run binds only to a project that exists and whose configuration loads without
        // errors, exactly as `agentws normalize` requires (`paths::load_project`).
        if let Some(p) = &path {
            let absolute = crate::config::discover::absolute(p);
            if !absolute.exists() {
                return Err(refusal(Refusal::new(
                    RefusalCode::InvalidConfig,
                    format!("project folder `{}` does not exist", absolute.display()),
                )));
            }
        }
        let config = match self.view_of(path.as_deref())? {
            // Inside a workspace folder: the configuration the server holds (unsaved edits of
            // agentws.toml included), refused on the same errors.
            Some(view) => {
                refuse_config_errors(&view.workspace.config_diagnostics).map_err(refusal)?;
                view.workspace.config.clone()
            }
            // A project outside every workspace folder: its configuration as the CLI loads it.
            None => match &path {
                Some(p) => {
                    let project = load_project(&p.to_string_lossy()).map_err(refusal)?;
                    std::sync::Arc::new(project.config)
                }
                None => return Err(invalid_params("the server has no workspace folder")),
            },
        };
        guarded("agentws/runBegin", || {
            self.shared.runs.begin(&config, &params)
        })
    }

    pub async fn normalize_path(&self, params: NormalizeParams) -> Result<Value> {
        guarded("agentws/normalizePath", || {
            self.shared.runs.normalize(&params)
        })
    }

    pub async fn run_end(&self, params: RunEndParams) -> Result<Value> {
        guarded("agentws/runEnd", || self.shared.runs.end(&params))
    }

    pub async fn file_status(&self, params: FileStatusParams) -> Result<Value> {
        let test_panic = self.settings().test_panic;
        let path = uri_to_path(&params.uri).ok_or_else(|| {
            invalid_params(format!("`{}` is not a file URI", params.uri.as_str()))
        })?;
        let view = self.view_of(Some(&path))?;
        guarded("agentws/fileStatus", || {
            if test_panic && path.file_name().is_some_and(|n| n == "__panic__") {
                panic!("test panic requested for {}", path.display());
            }
            let open = self
                .shared
                .state
                .lock()
                .map(|s| s.open.get(&path).map(|d| d.version))
                .unwrap_or(None);
            Ok(file_status(&path, view.as_ref(), open))
        })
    }
}

/// Which project, layer and kind `path` belongs to and which configuration applies, and why.
pub fn file_status(
    path: &std::path::Path,
    view: Option<&View>,
    open_version: Option<i32>,
) -> Value {
    let uri = path_to_uri(path).map(|u| u.as_str().to_string());
    let Some(view) = view else {
        return json!({
            "uri": uri,
            "path": path,
            "inWorkspace": false,
            "project": null,
            "open": open_version.is_some(),
            "version": open_version,
            "reason": "outside every workspace folder and not opened",
        });
    };
    let config = &view.workspace.config;
    let location = crate::workspace::layout::locate(config, path);
    let kind = view.workspace.kind_of(path).or_else(|| {
        (config.file.as_deref() == Some(path)).then_some(crate::workspace::FileKind::Config)
    });
    let (layer, namespace) = match location.as_ref().map(|l| &l.tree) {
        Some(Tree::Shared) => (Some("shared"), None),
        Some(Tree::Project) => (Some("project"), None),
        Some(Tree::Namespace(ns)) => (Some("namespace"), Some(ns.clone())),
        None => (None, None),
    };
    let reason = match &config.file {
        Some(file) => format!(
            "`{}` is the nearest agentws.toml above `{}`",
            file.display(),
            view.project_root.display()
        ),
        None => format!(
            "no agentws.toml above `{}`: runtime defaults for the project folder `{}`",
            view.project_root.display(),
            config.project.display()
        ),
    };
    json!({
        "uri": uri,
        "path": path,
        "inWorkspace": kind.is_some(),
        "project": {
            "folder": view.project_root,
            "detached": view.detached,
            "projectDir": config.project,
            "workspace": config.workspace,
        },
        "layer": layer,
        "namespace": namespace,
        "relativePath": location.map(|l| l.rel),
        "kind": kind,
        "open": open_version.is_some(),
        "version": open_version,
        "config": {
            "file": config.file,
            "reason": reason,
            "harness": config.harness.label(),
            "harnessFrom": config.harness_from.source.describe(),
            "harnessNote": config.harness_from.note,
            "scope": config.scope.as_str(),
            "filesystem": config.filesystem.mode.as_str(),
        },
        "diagnostics": view.diagnostics_of(path).len(),
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    /// docs/protocol.md documents exactly the custom methods the server registers.
    #[test]
    fn protocol_document_lists_every_custom_method() {
        let doc = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/protocol.md"),
        )
        .expect("docs/protocol.md");
        let documented: BTreeSet<&str> = doc
            .lines()
            .filter_map(|l| l.strip_prefix("### `"))
            .filter_map(|l| l.split('`').next())
            .filter(|m| m.starts_with("agentws/"))
            .collect();
        let served: BTreeSet<&str> = super::CUSTOM_METHODS.iter().copied().collect();
        assert_eq!(documented, served);
    }
}
