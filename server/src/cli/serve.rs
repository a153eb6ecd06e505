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
        .with_writer(|| LogLine(Vec::new()))
        .with_ansi(false)
        .try_init();
    let jvm = crate::lsp::JvmFacts {
        date: super::preview::machine_date,
        os: super::preview::machine_os,
        tmp_dir: super::preview::machine_tmp_dir,
    };
    crate::lsp::run(super::project::process_env(), jvm)
}

/// One log event, written to stderr whole and redacted when it is dropped: a log line quoting a
/// store URL or a driver's message keeps the password out of the editor's log.
struct LogLine(Vec<u8>);

impl std::io::Write for LogLine {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for LogLine {
    fn drop(&mut self) {
        use std::io::Write;
        let text = String::from_utf8_lossy(&self.0);
        let _ = std::io::stderr().write_all(crate::base::redact::redact_text(&text).as_bytes());
    }
}
