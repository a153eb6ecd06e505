//! `agentws/previewPrompt`: the prompt renderer (the preview `agentws preview --format json`
//! prints), over the project's files or, for a remote filesystem, the files the configured store
//! holds for the call (read off the request path). Answers whole, or as edits of the answer the
//! client holds (`previews`).
//!
//! Depends on no other feature file.

use tower_lsp_server::jsonrpc::Result;

use crate::config::Config;
use crate::context::{session_context, ContextOverrides, SessionContext};
use crate::lsp::backend::{project_path, view_for, Backend, JvmFacts};
use crate::lsp::errors::{guarded, invalid_params, refused, store_unreadable};
use crate::lsp::protocol::{
    ContextParams, CustomRequest, PreviewPrompt, PreviewPromptParams, PreviewPromptResult,
    WholePreview,
};
use crate::prompt::{Date, PlanState, Preview, PreviewContext, RenderMemo};
use crate::store::io::Cancel;
use crate::workspace::Workspace;

impl Backend {
    pub async fn preview_prompt(&self, params: PreviewPromptParams) -> Result<PreviewPromptResult> {
        let path = project_path(params.uri.as_ref())?;
        let view = view_for(self, path.as_ref())?;
        let session = guarded(PreviewPrompt::METHOD, || {
            let session = session_of(&params.context, &view.workspace.config)?;
            if let Err(err) = crate::context::effective_root(&view.workspace.config, &session) {
                return Err(refused(err.code, err.message));
            }
            Ok(session)
        })?;
        let context = serde_json::to_string(&params.context).unwrap_or_default();
        let from_store = session.filesystem == crate::config::FilesystemMode::Remote
            && view.workspace.config.store.url.is_some();
        let fresh = if from_store {
            let (workspace, jvm) = (view.workspace.clone(), self.jvm);
            let ctx = params.context.clone();
            let key = format!("previewPrompt\0{}\0{context}", view.project_root.display());
            self.off_the_request_path(
                PreviewPrompt::METHOD,
                key,
                params.work_done_token.clone(),
                move |cancel| preview_from_store(&workspace, session, &ctx, &jvm, cancel),
            )
            .await?
        } else {
            guarded(PreviewPrompt::METHOD, || {
                self.shared.previews.render_reusing(|memo| {
                    render_preview(
                        &view.workspace,
                        session,
                        &params.context,
                        &self.jvm,
                        Some(memo),
                    )
                })
            })?
        };
        guarded(PreviewPrompt::METHOD, || {
            Ok(match &params.previous_result_id {
                // The preview moves into the answer: its text is megabytes for a large workspace.
                None => PreviewPromptResult::Whole(Box::new(WholePreview {
                    preview: fresh,
                    result_id: None,
                })),
                Some(previous) => self.shared.previews.answer(
                    (view.project_root.clone(), context),
                    previous.as_deref(),
                    fresh,
                ),
            })
        })
    }
}

/// The session context under `config` with the overrides of `context`.
fn session_of(context: &ContextParams, config: &Config) -> Result<SessionContext> {
    let overrides = ContextOverrides {
        user_id: context.user_id.as_deref(),
        session_id: context.session_id.as_deref(),
        scope: context.scope.as_deref(),
        filesystem: context.filesystem.as_deref(),
        sandbox_root: context.sandbox_root.as_deref(),
        harness: context.harness.as_deref(),
    };
    session_context(config, &overrides).map_err(|err| invalid_params(err.message))
}

/// `render_preview` over the files the configured `[store]` holds for this call
/// (docs/stores.md); a store that cannot be read is a refusal naming why (no password in it).
/// Blocks: run through [`Backend::off_the_request_path`].
fn preview_from_store(
    workspace: &Workspace,
    session: SessionContext,
    context: &ContextParams,
    jvm: &JvmFacts,
    cancel: &Cancel,
) -> Result<Preview> {
    let owners = crate::store::call_owners(&workspace.config, &session)
        .map_err(|err| refused(err.code, err.message))?;
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut read = crate::store::read_into(workspace, None, &owners, &cwd, cancel)
        .map_err(store_unreadable)?;
    // The store's files are read again for each call: nothing to reuse.
    let workspace = read.parsed_snapshot(workspace);
    render_preview(&workspace, session, context, jvm, None)
}

/// The prompt renderer: the preview `agentws preview --format json` prints.
fn render_preview(
    workspace: &Workspace,
    session: SessionContext,
    context: &ContextParams,
    jvm: &JvmFacts,
    memo: Option<&mut RenderMemo>,
) -> Result<Preview> {
    let date = match &context.date {
        Some(text) => Date::parse(text).ok_or_else(|| {
            invalid_params(format!(
                "date `{text}` is not a calendar date in the form YYYY-MM-DD"
            ))
        })?,
        None => (jvm.date)(),
    };
    let os = context.os.clone().unwrap_or_else(jvm.os);
    let tmp_dir = context.tmp_dir.clone().unwrap_or_else(jvm.tmp_dir);
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
