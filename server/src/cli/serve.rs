//! `agentws serve`: the language server on stdio (all behaviour in `crate::lsp`). Logs go to
//! stderr through `tracing`; stdout carries only the protocol.

use clap::Args;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Accepted for editors that pass it; stdio is the only transport.
    #[arg(long)]
    pub stdio: bool,
}

pub fn run(_args: ServeArgs) -> u8 {
    crate::base::memory::limit_malloc_arenas(std::env::var_os("MALLOC_ARENA_MAX").is_some());
    let filter = tracing_subscriber::EnvFilter::try_from_env("AGENTWS_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
    let machine = crate::lsp::methods::Machine {
        date: super::preview::machine_date,
        os: super::preview::machine_os,
        tmp_dir: super::preview::machine_tmp_dir,
    };
    crate::lsp::run(super::project::process_env(), machine)
}
