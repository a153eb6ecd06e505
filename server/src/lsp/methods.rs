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
use crate::prompt::{Date, PlanState, PreviewContext};
use crate::workspace::{Tree, Workspace};

/// Every custom method the server answers, in the order `docs/protocol.md` lists them.
pub const CUSTOM_METHODS: &[&str] = &[
    "agentws/previewPrompt",
    "agentws/storeUsers",
    "agentws/runBegin",
    "agentws/normalizePath",
    "agentws/runEnd",
    "agentws/fileStatus",
];

/// JSON-RPC error code for a refused context or path (`data.code` says which refusal).
pub const REFUSED: i64 = -32002;

fn refused(code: &str, message: String) -> Error {
    Error {
        code: ErrorCode::ServerError(REFUSED),
        message: message.into(),
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
/// The read blocks this request's worker for at most the store's connect and read timeouts.
fn preview_from_store(
    workspace: &Workspace,
    session: SessionContext,
    context: &ContextParams,
    machine: &Machine,
) -> Result<Value> {
    let owners = crate::store::call_owners(&workspace.config, &session)
        .map_err(|err| refused(err.code, err.message))?;
    let cwd = std::env::current_dir().unwrap_or_default();
    let read = crate::store::read_into(workspace, None, &owners, &cwd)
        .map_err(|err| refused("store-unreadable", err.0))?;
    render_preview(&read.workspace, session, context, machine)
}

/// The prompt renderer: the JSON of `agentws preview --format json`.
fn render_preview(
    workspace: &Workspace,
    session: SessionContext,
    context: &ContextParams,
    machine: &Machine,
) -> Result<Value> {
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
    let mut preview =
        crate::prompt::render(workspace, &ctx).map_err(|err| refused(err.code, err.message))?;
    // Sources of files read from a store are named by store entry, as `agentws preview` does.
    preview.relabel_sources(&workspace.files);
    serde_json::to_value(&preview).map_err(|err| invalid_params(err.to_string()))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StoreUsersParams {
    pub uri: Option<Uri>,
    /// `user | session | agent | global`; default: the project's scope.
    pub scope: Option<String>,
}

/// The ids the configured store holds (`agentws store users`), so an editor can offer them.
fn store_users(workspace: &Workspace, scope: Option<&str>) -> Result<Value> {
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
    if config.store.url.is_none() {
        return Ok(json!({"store": null, "scope": config.scope.as_str(), "ids": [], "notes": []}));
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    let (shown, owners) =
        crate::store::users(&config, &workspace.files, None, &workspace.env, &cwd)
            .map_err(|err| refused("store-unreadable", err.0))?;
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
    pub async fn preview_prompt(&self, params: PreviewPromptParams) -> Result<Value> {
        let path = project_path(params.uri.as_ref())?;
        let view = view_for(self, path.as_ref())?;
        guarded("agentws/previewPrompt", || {
            let session = params.context.session(&view.workspace.config)?;
            if let Err(err) = crate::context::effective_root(&view.workspace.config, &session) {
                return Err(refused(err.code, err.message));
            }
            if session.filesystem == crate::config::FilesystemMode::Remote
                && view.workspace.config.store.url.is_some()
            {
                return preview_from_store(
                    &view.workspace,
                    session,
                    &params.context,
                    &self.machine,
                );
            }
            render_preview(&view.workspace, session, &params.context, &self.machine)
        })
    }

    pub async fn store_users(&self, params: StoreUsersParams) -> Result<Value> {
        let path = project_path(params.uri.as_ref())?;
        let view = view_for(self, path.as_ref())?;
        guarded("agentws/storeUsers", || {
            store_users(&view.workspace, params.scope.as_deref())
        })
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
            "harness": config.harness.as_str(),
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
