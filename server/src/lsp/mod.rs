//! The language server front-end (`agentws serve`): LSP over stdio on tower-lsp-server, with our
//! own framing guard in front of the library's transport.
//!
//! - `framing`: reads and checks `Content-Length` frames (bad frames answered, never fatal).
//! - `transport`: stdin → guard → service → stdout, bounded end to end.
//! - `state`: projects (one per workspace folder), files = disk + open buffers, snapshots.
//! - `server`: the `LanguageServer` implementation, diagnostics (push and pull).
//! - `features`: completion, hover, navigation, symbols, code actions, rename.
//! - `methods`: the `agentws/…` custom methods (documented in docs/protocol.md).
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
    let direct: framing::DirectAnswer =
        Arc::new(move |method: &str, params: &serde_json::Value| {
            direct_runs.direct(method, params)
        });
    runtime.block_on(async move {
        let (service, socket) =
            LspService::build(move |client| Backend::new(client, env, machine, flag, runs))
                .custom_method("agentws/previewPrompt", Backend::preview_prompt)
                .custom_method("agentws/runBegin", Backend::run_begin)
                .custom_method("agentws/normalizePath", Backend::normalize_path)
                .custom_method("agentws/runEnd", Backend::run_end)
                .custom_method("agentws/fileStatus", Backend::file_status)
                .finish();
        transport::serve_stdio(service, socket, direct).await;
    });
    // The stdin thread may still be blocked in a read: do not wait for it.
    runtime.shutdown_background();
    if shutdown_requested.load(Ordering::SeqCst) {
        0
    } else {
        1
    }
}
