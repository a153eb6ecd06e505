//! Real database servers for the store tests, started from the Debian packages' binaries on a free
//! port in a temporary folder and stopped (by their own process id) when dropped. Without the
//! binary a test skips with a printed reason, except under `CI=true`, where it fails.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The binary at the first of `candidates` that exists, or the skip/fail decision.
pub fn binary(candidates: &[&str], package: &str) -> Option<PathBuf> {
    let found = candidates
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
        .or_else(|| {
            candidates
                .iter()
                .filter(|c| !c.contains('/'))
                .find_map(|c| which(c))
        });
    if found.is_none() {
        let reason = format!(
            "{} not found (Debian package `{package}`)",
            candidates.join(" or ")
        );
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("{reason}: .ci/run installs it");
        }
        eprintln!("skipped: {reason}");
    }
    found
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| Path::new(d).join(name))
        .find(|p| p.is_file())
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Waits until `port` accepts connections (or panics after `limit`).
pub fn wait_for_port(port: u16, child: &mut Child, limit: Duration) {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("server exited early: {status}");
        }
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("server did not listen on {port} within {limit:?}");
}

/// A running server; stopped when dropped.
pub struct Server {
    pub port: u16,
    child: Child,
    _dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub const REDIS_PASSWORD: &str = "s3cret-redis";

/// `redis-server` with a password, no persistence, DEBUG allowed (for DIGEST).
pub fn redis() -> Option<Server> {
    let bin = binary(&["redis-server", "/usr/bin/redis-server"], "redis-server")?;
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut child = Command::new(bin)
        .args([
            "--port",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
        ])
        .args(["--appendonly", "no", "--enable-debug-command", "yes"])
        .args(["--requirepass", REDIS_PASSWORD])
        .arg("--dir")
        .arg(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_port(port, &mut child, Duration::from_secs(20));
    Some(Server {
        port,
        child,
        _dir: dir,
    })
}
