//! `agentws/fileStatus`: which project, layer and kind a file belongs to, which configuration
//! applies to it, and why.
//!
//! Depends on no other feature file.

use std::path::Path;

use tower_lsp_server::jsonrpc::Result;

use crate::lsp::backend::{Backend, View};
use crate::lsp::convert::{path_to_uri, uri_to_path};
use crate::lsp::errors::{guarded, invalid_params};
use crate::lsp::protocol::{
    ConfigStatus, CustomRequest, FileInProject, FileOutside, FileStatus, FileStatusParams,
    FileStatusResult, ProjectStatus,
};
use crate::workspace::{FileKind, Tree};

impl Backend {
    pub async fn file_status(&self, params: FileStatusParams) -> Result<FileStatusResult> {
        let test_panic = self.settings().test_panic;
        let path = uri_to_path(&params.uri).ok_or_else(|| {
            invalid_params(format!("`{}` is not a file URI", params.uri.as_str()))
        })?;
        let view = self.view_of(Some(&path))?;
        guarded(FileStatus::METHOD, || {
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
fn file_status(path: &Path, view: Option<&View>, open_version: Option<i32>) -> FileStatusResult {
    let uri = path_to_uri(path).map(|u| u.as_str().to_string());
    let Some(view) = view else {
        return FileStatusResult::Outside(FileOutside {
            uri,
            path: path.to_path_buf(),
            in_workspace: false,
            project: None,
            open: open_version.is_some(),
            version: open_version,
            reason: "outside every workspace folder and not opened",
        });
    };
    let config = &view.workspace.config;
    let location = crate::workspace::layout::locate(config, path);
    let kind = view
        .workspace
        .kind_of(path)
        .or_else(|| (config.file.as_deref() == Some(path)).then_some(FileKind::Config));
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
    FileStatusResult::InProject(Box::new(FileInProject {
        uri,
        path: path.to_path_buf(),
        in_workspace: kind.is_some(),
        project: ProjectStatus {
            folder: view.project_root.clone(),
            detached: view.detached,
            project_dir: config.project.clone(),
            workspace: config.workspace.clone(),
        },
        layer,
        namespace,
        relative_path: location.map(|l| l.rel),
        kind,
        open: open_version.is_some(),
        version: open_version,
        config: ConfigStatus {
            file: config.file.clone(),
            reason,
            harness: config.harness.label(),
            harness_from: config.harness_from.source.describe(),
            harness_note: config.harness_from.note.clone(),
            scope: config.scope.as_str(),
            filesystem: config.filesystem.mode.as_str(),
        },
        diagnostics: view.diagnostics_of(path).len(),
    }))
}
