//! The server instance's shared state and the helpers every handler uses: the `Backend` the
//! protocol library calls, the state behind its locks, and the read-only `View` of a project a
//! request is answered from; store reads run off the request path with work-done progress.
//!
//! State is mutated only under `Shared::state`; the lock is never held across an `.await`. Every
//! call into the core runs inside `errors::guarded`, so a panic answers one request with an error
//! and the server keeps serving.
//!
//! Below every handler (`features`, `server`); depends on `state`, `settings`, `errors`, `convert`,
//! the shared state types (`runs`, `previews`, `store_reads`, `stored`) and `framing`'s frame.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{ProgressToken, Uri};
use tower_lsp_server::Client;

use super::convert::uri_to_path;
use super::errors::{guarded, invalid_params, server_cancelled};
use super::framing::frame;
use super::previews::PreviewAnswers;
use super::runs::Runs;
use super::settings::Settings;
use super::state::{DiagnosticsByFile, ProjectScope, SourceTexts, State};
use super::store_reads::StoreReads;
use super::stored::StoreChecks;
use crate::base::{Diagnostic, Encoding, Env};
use crate::engine::SkillsByName;
use crate::prompt::Date;
use crate::store::io::Cancel;
use crate::workspace::catalog::ToolCatalog;
use crate::workspace::Workspace;

/// What the runtime takes from its JVM, read at the edge when a preview is asked for.
#[derive(Clone, Copy)]
pub struct JvmFacts {
    pub date: fn() -> Date,
    pub os: fn() -> String,
    pub tmp_dir: fn() -> String,
}

/// What was last published for a file (push mode).
#[derive(Clone, Debug, PartialEq)]
pub struct Published {
    pub diagnostics: Vec<Diagnostic>,
    pub version: Option<i32>,
}

/// Where the notifications the server serializes itself go: whole frames, merged onto stdout
/// with the service's own (`transport::frames_channel`), in the order sent.
pub type Frames = tokio::sync::mpsc::Sender<Vec<u8>>;

pub struct Shared {
    pub state: Mutex<State>,
    pub settings: Mutex<Settings>,
    pub published: Mutex<HashMap<PathBuf, Published>>,
    /// The project scopes when published files were last checked for an owner: scanning every
    /// published file for one after each edit was a twentieth of a created skill's time.
    pub published_scopes: Mutex<Vec<ProjectScope>>,
    pub wake: Notify,
    /// Set by `shutdown`; decides the exit code.
    pub shutdown_requested: Arc<AtomicBool>,
    pub worker_started: AtomicBool,
    pub runs: Arc<Runs>,
    pub previews: PreviewAnswers,
    pub store_reads: StoreReads,
    pub stores: StoreChecks,
    /// Where the notifications the server serializes itself go ([`notification_frame`]).
    pub frames: Frames,
}

/// The frame of the notification `N` with `params`, as the protocol library would write it
/// (the same members in the same order), serialized straight from `params`: the library turns
/// every message into a `serde_json::Value` first, which for a publication with many related
/// entries cost more than computing it.
pub fn notification_frame<N: tower_lsp_server::ls_types::notification::Notification>(
    params: &N::Params,
) -> Option<Vec<u8>> {
    #[derive(serde::Serialize)]
    struct Message<'a, P> {
        jsonrpc: &'static str,
        method: &'static str,
        params: &'a P,
    }
    let message = Message {
        jsonrpc: "2.0",
        method: N::METHOD,
        params,
    };
    // Serializing the protocol's own types into memory fails only for a map with non-string
    // keys, which none of them has (the library drops such a message too).
    serde_json::to_vec(&message).ok().map(|body| frame(&body))
}

/// Sends a frame from [`notification_frame`] (waiting while stdout is behind, like the library's
/// own messages; dropped once the transport is gone).
pub async fn send_frame(shared: &Shared, frame: Vec<u8>) {
    let _ = shared.frames.send(frame).await;
}

#[derive(Clone)]
pub struct Backend {
    pub(crate) client: Client,
    pub(crate) shared: Arc<Shared>,
    pub(crate) jvm: JvmFacts,
}

pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic is caught before it can unwind through a held guard; recover anyway.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// How many times a request is answered at most when files it read keep changing on disk
/// ([`Backend::answer_at`]): a file changing under every answer gets the last one.
const ANSWER_TRIES: usize = 3;

/// What a request reads: the diagnostics too, or only the files and their parses.
#[derive(Clone, Copy)]
pub enum ViewParts {
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
    /// name up (`ViewParts::Names`); `None` in other views, which do not wait for it.
    pub skills_by_name: Option<SkillsByName>,
    pub diagnostics: Arc<DiagnosticsByFile>,
    /// The files' texts, for positions and edits (the one way to them: a closed source's is read
    /// again, see [`SourceTexts`]).
    pub texts: SourceTexts,
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
        jvm: JvmFacts,
        shutdown_requested: Arc<AtomicBool>,
        runs: Arc<Runs>,
        frames: Frames,
    ) -> Backend {
        // The rule links' base: `AGENTWS_RULES_URL` of the server's environment, else the
        // default; a client's `rulesDocUrl` replaces it at `initialize`.
        let (rules_doc_url, warning) = crate::rules::docs::docs_url(&env);
        if let Some(warning) = warning {
            tracing::warn!("{warning}");
        }
        Backend {
            client,
            jvm,
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
                frames,
            }),
        }
    }

    pub fn settings(&self) -> Settings {
        lock(&self.shared.settings).clone()
    }

    /// The current view of the project `path` belongs to, its diagnostics brought up to date;
    /// `None` for a path outside every project.
    pub fn view_of(&self, path: Option<&Path>) -> Result<Option<View>> {
        self.view(path, ViewParts::Diagnostics)
    }

    /// The current files and their parses, for requests that read no diagnostics (hover,
    /// completion, navigation, symbols, rename, the preview): they never wait for cross-file
    /// rules to run again. The view's diagnostics are the last computed ones.
    pub fn files_view_of(&self, path: Option<&Path>) -> Result<Option<View>> {
        self.view(path, ViewParts::Files)
    }

    fn view(&self, path: Option<&Path>, parts: ViewParts) -> Result<Option<View>> {
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
            let diagnostics = match parts {
                ViewParts::Diagnostics => project.refresh(&env, &open),
                ViewParts::Files | ViewParts::Names => {
                    project.sync(&env, &open);
                    project.last_diagnostics()
                }
            };
            let workspace = project.snapshot();
            let view = View {
                texts: project.texts(),
                workspace,
                catalog: project.catalog(),
                skills_by_name: matches!(parts, ViewParts::Names).then(|| project.skills_by_name()),
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

    /// `answer`'s result on a view (`parts`) of the project of `uri`, with its path; `None` for a
    /// path outside every project. See [`Backend::answer_at`].
    pub fn answer<T>(
        &self,
        uri: &Uri,
        parts: ViewParts,
        what: &str,
        answer: impl Fn(&View, &Path) -> Result<T>,
    ) -> Result<Option<T>> {
        let Some(path) = uri_to_path(uri) else {
            return Ok(None);
        };
        self.answer_at(Some(&path), parts, what, |view| answer(view, &path))
    }

    /// `answer`'s result on a view (`parts`) of the project of `path`, under `errors::guarded`;
    /// answered again, from a new view, when a file whose text it read changed on disk since it
    /// was digested (that file taken as a watched change first: `State::take_stale`), at most
    /// [`ANSWER_TRIES`] times in all.
    pub fn answer_at<T>(
        &self,
        path: Option<&Path>,
        parts: ViewParts,
        what: &str,
        answer: impl Fn(&View) -> Result<T>,
    ) -> Result<Option<T>> {
        let mut tries = 0;
        loop {
            let Some(view) = self.view(path, parts)? else {
                return Ok(None);
            };
            let answered = guarded(what, || answer(&view));
            tries += 1;
            if tries == ANSWER_TRIES || !lock(&self.shared.state).take_stale(&view.texts) {
                return answered.map(Some);
            }
            self.wake();
        }
    }

    /// Wakes the diagnostics worker (push mode).
    pub fn wake(&self) {
        self.shared.wake.notify_one();
    }

    /// Runs `read` (a store read: it blocks, for at most the store's deadlines) on the blocking
    /// pool, so the server goes on answering other requests meanwhile. The read is cancelled
    /// when this request is (`$/cancelRequest` drops this future) and when a newer request for
    /// the same `key` arrives (this one then answers `ServerCancelled`). While it runs, the
    /// client sees work-done progress: on `token` when the request carried one, else on a token
    /// the server creates when the client supports it.
    pub async fn off_the_request_path<T: Send + 'static>(
        &self,
        what: &'static str,
        key: String,
        token: Option<ProgressToken>,
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
            return Err(server_cancelled());
        }
        outcome
    }

    /// Work-done progress titled `what` for a store read, ended when the returned sender is
    /// dropped: on `token`, else on a token named `name` the server creates.
    pub fn store_progress(
        &self,
        token: Option<ProgressToken>,
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
                    let token = ProgressToken::String(name);
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
}

pub fn project_path(uri: Option<&Uri>) -> Result<Option<PathBuf>> {
    match uri {
        None => Ok(None),
        Some(uri) => uri_to_path(uri)
            .map(Some)
            .ok_or_else(|| invalid_params(format!("`{}` is not a file URI", uri.as_str()))),
    }
}

pub fn view_for(backend: &Backend, path: Option<&PathBuf>) -> Result<View> {
    backend
        .files_view_of(path.map(|p| p.as_path()))?
        .ok_or_else(|| {
            invalid_params(match path {
                Some(p) => format!("`{}` is not inside a workspace folder", p.display()),
                None => "the server has no workspace folder".to_string(),
            })
        })
}
