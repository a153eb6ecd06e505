//! The language server front-end (`agentws serve`): LSP over stdio on tower-lsp-server, with our
//! own framing guard in front of the library's transport.
//!
//! Its files, in order: a file imports only files listed before it (no cycle).
//!
//! 1. Leaves, importing no other file of `lsp`:
//!    - `framing`: reads and checks `Content-Length` frames (bad frames answered, never fatal).
//!    - `convert`: URIs, positions and diagnostics at the protocol edge.
//!    - `protocol`: the `agentws/…` custom methods, each declared once as a type with its
//!      parameters and its answer (documented in docs/protocol.md).
//!    - `settings`: what the client negotiated and configured.
//!    - `state`: projects (one per workspace folder), files = disk + open buffers, snapshots.
//!    - `errors`: the panic guard, invalid parameters, refusals.
//! 2. The state the server instance owns, besides `state`: `runs` (the path normalizer's runs;
//!    `protocol`, `errors`), `previews` (the answers kept for edits; `protocol`), `store_reads`
//!    (store reads of requests; `errors`), `stored` (what the stores hold, checked; `convert`,
//!    `settings`).
//! 3. `backend`: the `Backend`, its shared state and the `View` a request reads (all of the above).
//! 4. `features`: one file per feature (its own order is in its module comment).
//! 5. `server`: the dispatch (`LanguageServer` and the custom methods, to `features`).
//! 6. `transport`: stdin → guard → service → stdout, bounded end to end (`framing`; any service).
//!
//! Depends on the core; the core never depends on this module.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub mod backend;
pub mod convert;
pub mod errors;
pub mod features;
pub mod framing;
pub mod previews;
pub mod protocol;
pub mod runs;
pub mod server;
pub mod settings;
pub mod state;
pub mod store_reads;
pub mod stored;
pub mod transport;

pub use backend::JvmFacts;

/// Runs the language server on stdio until `exit` (or the end of input). Returns the process exit
/// code: 0 when `shutdown` came first, 1 otherwise (as the LSP specification asks).
pub fn run(env: crate::base::Env, jvm: JvmFacts) -> u8 {
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
    let runs = Arc::new(runs::Runs::default());
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
        let frames = transport::frames_channel();
        let (service, socket) = server::service(env, jvm, flag, runs, frames.0.clone());
        transport::serve_stdio(service, socket, frames, direct, hard_exit).await;
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
