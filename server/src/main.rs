//! The `agentws` binary: all behaviour lives in the library's `cli` module.

fn main() -> std::process::ExitCode {
    agentws::cli::main()
}
