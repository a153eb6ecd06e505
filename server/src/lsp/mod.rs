//! The language server front-end (`agentws serve`): LSP over stdio on tower-lsp-server, with our
//! own framing guard in front of the library's transport.
//!
//! - `framing`: reads and checks `Content-Length` frames (bad frames answered, never fatal).
//! - `transport`: stdin → guard → service → stdout, bounded end to end.
//! - `state`: projects (one per workspace folder), files = disk + open buffers, snapshots.
//! - `server`: the `LanguageServer` implementation, diagnostics (push and pull).
//! - `features`: completion, hover, navigation, symbols, code actions, rename.
//! - `methods`: the `agentws/…` custom methods (documented in docs/protocol.md).
//! - `stored`: the files of a project's remote store, checked and shown as read-only documents.
//! - `convert`: URIs, positions and diagnostics at the protocol edge.
//!
//! Depends on the core; the core never depends on this module.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tower_lsp_server::LspService;

pub mod convert;
pub mod features;
pub mod framing;
pub mod methods;
pub mod server;
pub mod state;
pub mod stored;
pub mod transport;

use server::Backend;

/// Runs the language server on stdio until `exit` (or the end of input). Returns the process exit
/// code: 0 when `shutdown` came first, 1 otherwise (as the LSP specification asks).
pub fn run(env: crate::base::Env, machine: methods::Machine) -> u8 {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(err) => {
            tracing::error!("cannot start the async runtime: {err}");
            return 2;
        }
    };
    let shutdown_requested = Arc::new(AtomicBool::new(false));
    let flag = shutdown_requested.clone();
    // The runs are shared by the service (runBegin) and the reading thread, which answers
    // normalizePath and runEnd directly (framing::DirectAnswer).
    let runs = Arc::new(methods::Runs::default());
    let direct_runs = runs.clone();
    let shutdown_seen = shutdown_requested.clone();
    // `shutdown` is answered on the reading thread too: queued behind pending requests in the
    // service it would wait for all of them (a long rebuild, a large preview), and the client
    // sends `exit` only after its answer.
    let direct: framing::DirectAnswer =
        Arc::new(move |method: &str, params: &serde_json::Value| {
            if method == "shutdown" {
                shutdown_seen.store(true, Ordering::SeqCst);
                return Some(Ok(serde_json::Value::Null));
            }
            if shutdown_seen.load(Ordering::SeqCst) {
                return Some(Err(tower_lsp_server::jsonrpc::Error {
                    code: tower_lsp_server::jsonrpc::ErrorCode::InvalidRequest,
                    message: "the server is shutting down: only `exit` is accepted".into(),
                    data: None,
                }));
            }
            direct_runs.direct(method, params)
        });
    let exit_flag = shutdown_requested.clone();
    // Ends the process if the orderly stop after `exit` (or the end of input) does not finish in
    // time: a handler busy in synchronous work would otherwise keep it alive until it is done.
    let hard_exit: transport::HardExit =
        Box::new(move || std::process::exit(exit_code(exit_flag.load(Ordering::SeqCst)).into()));
    runtime.block_on(async move {
        let (service, socket) =
            LspService::build(move |client| Backend::new(client, env, machine, flag, runs))
                .custom_method("agentws/previewPrompt", Backend::preview_prompt)
                .custom_method("agentws/storeUsers", Backend::store_users)
                .custom_method("agentws/checkStore", Backend::check_store)
                .custom_method("agentws/storeDocument", Backend::store_document)
                .custom_method("agentws/runBegin", Backend::run_begin)
                .custom_method("agentws/normalizePath", Backend::normalize_path)
                .custom_method("agentws/runEnd", Backend::run_end)
                .custom_method("agentws/fileStatus", Backend::file_status)
                .finish();
        transport::serve_stdio(service, socket, direct, hard_exit).await;
    });
    // The stdin thread may still be blocked in a read, blocking tasks may still be running:
    // wait for none of them.
    runtime.shutdown_background();
    exit_code(shutdown_requested.load(Ordering::SeqCst))
}

/// 0 when `shutdown` came before the end, 1 otherwise (as the LSP specification asks).
fn exit_code(shutdown_requested: bool) -> u8 {
    if shutdown_requested {
        0
    } else {
        1
    }
}
