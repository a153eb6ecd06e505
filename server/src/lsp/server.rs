//! The dispatch: the `LanguageServer` implementation and the custom methods, each handed to the
//! feature file that answers it (`features`). Nothing else lives here: what a request reads is
//! `backend`'s, what it answers is its feature's.
//!
//! Depends on `features`, `backend`, `protocol`, `errors`, `runs`, `settings`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tower_lsp_server::jsonrpc::{Method, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{LanguageServer, LspService, LspServiceBuilder};

use super::backend::{lock, Backend, Frames, JvmFacts, ViewParts};
use super::errors::guarded;
use super::features::{code_actions, completion, hover, navigation, rename, symbols};
use super::protocol::{
    CheckStore, CustomRequest, FileStatus, NormalizePath, PreviewPrompt, RunBegin, RunEnd,
    StoreDocument, StoreUsers,
};
use super::runs::Runs;
use crate::base::{Encoding, Env};

/// The service the transport serves: the backend with every custom method registered.
pub fn service(
    env: Env,
    jvm: JvmFacts,
    shutdown_requested: Arc<AtomicBool>,
    runs: Arc<Runs>,
    frames: Frames,
) -> (LspService<Backend>, tower_lsp_server::ClientSocket) {
    let builder = LspService::build(move |client| {
        Backend::new(client, env, jvm, shutdown_requested, runs, frames)
    });
    let builder = register::<PreviewPrompt, _>(builder, Backend::preview_prompt);
    let builder = register::<StoreUsers, _>(builder, Backend::store_users);
    let builder = register::<CheckStore, _>(builder, Backend::check_store);
    let builder = register::<StoreDocument, _>(builder, Backend::store_document);
    let builder = register::<RunBegin, _>(builder, Backend::run_begin);
    let builder = register::<NormalizePath, _>(builder, Backend::normalize_path);
    let builder = register::<RunEnd, _>(builder, Backend::run_end);
    let builder = register::<FileStatus, _>(builder, Backend::file_status);
    builder.finish()
}

/// Registers `handler` for `M`: its method name, and a handler that takes `M`'s parameters (a
/// clear invalid-params error when they do not read) and answers `M`'s result.
fn register<M, F>(builder: LspServiceBuilder<Backend>, handler: F) -> LspServiceBuilder<Backend>
where
    M: CustomRequest,
    F: for<'a> Method<&'a Backend, (M::Params,), Result<M::Result>> + Clone + Send + Sync + 'static,
{
    builder.custom_method(M::METHOD, handler)
}

/// What the server offers, for the position encoding negotiated.
fn initialize_result(encoding: Encoding) -> InitializeResult {
    let position_encoding = Some(match encoding {
        Encoding::Utf8 => PositionEncodingKind::UTF8,
        _ => PositionEncodingKind::UTF16,
    });
    InitializeResult {
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
            diagnostic_provider: Some(DiagnosticServerCapabilities::Options(DiagnosticOptions {
                identifier: Some("agentws".to_string()),
                inter_file_dependencies: true,
                workspace_diagnostics: true,
                work_done_progress_options: Default::default(),
            })),
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
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        Ok(initialize_result(self.negotiate(&params)))
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
        self.open_document(params).await
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        self.change_document(params).await
    }

    async fn did_save(&self, _: DidSaveTextDocumentParams) {
        // The stored files are checked against the project as saved.
        self.check_stores_soon();
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        self.close_document(params).await
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        self.change_configuration(params).await
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        self.change_workspace_folders(params).await
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        self.change_watched_files(params).await
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        self.pull_diagnostics(params)
    }

    async fn workspace_diagnostic(
        &self,
        _params: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        self.workspace_diagnostics()
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = &params.text_document.uri;
        self.answer(uri, ViewParts::Diagnostics, "codeAction", |view, path| {
            Ok(code_actions::code_actions(view, path, params.range))
        })
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let pos = params.text_document_position;
        let uri = &pos.text_document.uri;
        let answer = self.answer(uri, ViewParts::Files, "completion", |view, path| {
            Ok(completion::completion(view, path, pos.position))
        });
        Ok(answer?.flatten())
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let pos = params.text_document_position_params;
        let uri = &pos.text_document.uri;
        let answer = self.answer(uri, ViewParts::Files, "hover", |view, path| {
            Ok(hover::hover(view, path, pos.position))
        });
        Ok(answer?.flatten())
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let pos = params.text_document_position_params;
        let uri = &pos.text_document.uri;
        let answer = self.answer(uri, ViewParts::Names, "definition", |view, path| {
            Ok(navigation::definition(view, path, pos.position).map(GotoDefinitionResponse::Array))
        });
        Ok(answer?.flatten())
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let pos = params.text_document_position;
        let uri = &pos.text_document.uri;
        let answer = self.answer(uri, ViewParts::Files, "references", |view, path| {
            Ok(navigation::references(view, path, pos.position))
        });
        Ok(answer?.flatten())
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let uri = &params.text_document.uri;
        self.answer(uri, ViewParts::Files, "documentSymbol", |view, path| {
            Ok(DocumentSymbolResponse::Nested(symbols::document_symbols(
                view, path,
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
                    Ok(symbols::workspace_symbols(&view, &params.query))
                })?);
            }
        }
        Ok(Some(WorkspaceSymbolResponse::Nested(out)))
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        let uri = &params.text_document.uri;
        let answer = self.answer(uri, ViewParts::Files, "prepareRename", |view, path| {
            Ok(rename::prepare_rename(view, path, params.position))
        });
        Ok(answer?.flatten())
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let pos = params.text_document_position;
        let uri = &pos.text_document.uri;
        let answer = self.answer(uri, ViewParts::Files, "rename", |view, path| {
            rename::rename(view, path, pos.position, &params.new_name)
        });
        Ok(answer?.flatten())
    }
}
