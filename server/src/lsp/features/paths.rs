//! The path normalizer's methods: `agentws/runBegin` binds a run to a project whose
//! configuration loads without errors (exactly as `agentws normalize` requires), then
//! `agentws/normalizePath` and `agentws/runEnd` use it (both also answered on the reading thread,
//! `runs::Runs::direct`).
//!
//! Depends on no other feature file.

use std::path::PathBuf;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::Uri;

use crate::lsp::backend::{project_path, Backend};
use crate::lsp::errors::{guarded, invalid_params, refusal};
use crate::lsp::protocol::{
    CustomRequest, NormalizeParams, NormalizePath, Normalized, RunBegin, RunEnd, RunEndParams,
    RunInfo, RunParams,
};
use crate::paths::{load_project, refuse_config_errors, Refusal, RefusalCode};

impl Backend {
    pub async fn run_begin(&self, params: RunParams) -> Result<RunInfo> {
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
        guarded(RunBegin::METHOD, || {
            self.shared.runs.begin(&config, &params)
        })
    }

    pub async fn normalize_path(&self, params: NormalizeParams) -> Result<Normalized> {
        guarded(NormalizePath::METHOD, || {
            self.shared.runs.normalize(&params)
        })
    }

    pub async fn run_end(&self, params: RunEndParams) -> Result<()> {
        guarded(RunEnd::METHOD, || self.shared.runs.end(&params))
    }
}
