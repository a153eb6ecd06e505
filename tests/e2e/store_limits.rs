//! Stores that stall, fail or hold hostile entries (docs/stores.md, "Time limits"): every wait on
//! a server ends at `connect_timeout` with exit 2 and a message naming the step, whether the
//! server stays silent, stalls in the middle of the login or drips its answer, on every backend;
//! SQLite queries end at the same deadline; the language server keeps answering while a store
//! read waits, and cancels it.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::servers::{self, Stall, StallingProxy};
use super::stores;

/// The `connect_timeout` of these tests.
const TIMEOUT: Duration = Duration::from_secs(2);
/// Past the timeout, a command must have ended within this (process start-up and loading the
/// project on a loaded machine). The behaviour before deadlines were enforced ends far later:
/// never (PostgreSQL), after 30 s (MariaDB), after three timeouts (Redis).
const MARGIN: Duration = Duration::from_millis(2500);
/// A command still running after this is killed (the test then fails instead of hanging).
const KILL_AFTER: Duration = Duration::from_secs(40);

struct Run {
    code: Option<i32>,
    stderr: String,
    took: Duration,
}

/// Runs `agentws args`, killed after [`KILL_AFTER`].
fn run(args: &[&str]) -> Run {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_agentws"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if start.elapsed() > KILL_AFTER {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = start.elapsed();
    Run {
        code,
        stderr: reader.join().unwrap(),
        took,
    }
}

fn project(dir: &Path) -> std::path::PathBuf {
    stores::template_with(
        dir,
        &format!("[store]\nconnect_timeout = {}\n", TIMEOUT.as_secs()),
    )
}

/// `check --all-users` and `store users` against `url` end with exit 2 after the timeout and
/// well before the old behaviour, saying `words`.
fn assert_given_up(project: &Path, url: &str, password: &str, words: &str) {
    let p = project.to_str().unwrap();
    for args in [
        vec!["check", p, "--store", url, "--all-users"],
        vec!["store", "users", url, "--project", p],
    ] {
        let out = run(&args);
        assert_eq!(
            out.code,
            Some(2),
            "{args:?} took {:?}: {}",
            out.took,
            out.stderr
        );
        assert!(
            out.took >= TIMEOUT && out.took < TIMEOUT + MARGIN,
            "{args:?} took {:?}: {}",
            out.took,
            out.stderr
        );
        assert!(out.stderr.contains(words), "{args:?}: {}", out.stderr);
        assert!(!out.stderr.contains(password), "{}", out.stderr);
    }
}

/// The three ways a server can stall, in front of the server on `port`; `mid_login` is a byte
/// count inside the backend's login exchange.
fn stalls(port: u16, mid_login: usize) -> [(Stall, StallingProxy); 3] {
    [Stall::Silent, Stall::After(mid_login), Stall::Drip]
        .map(|s| (s, StallingProxy::start(port, s)))
}

#[test]
fn a_stalled_postgres_server_is_given_up_at_the_deadline() {
    let Some(server) = servers::postgres() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let project = project(tmp.path());
    // 30 bytes: past the server's first authentication request, inside its SASL challenge.
    for (stall, proxy) in stalls(server.port, 30) {
        let url = stores::postgres_url(proxy.port, servers::POSTGRES_PASSWORD);
        let words = format!(
            "timed out after 2 s while logging in to the PostgreSQL server at 127.0.0.1:{} (store.connect_timeout)",
            proxy.port
        );
        eprintln!("{stall:?}");
        assert_given_up(&project, &url, servers::POSTGRES_PASSWORD, &words);
    }
}

#[test]
fn a_stalled_mariadb_server_is_given_up_at_the_deadline() {
    let Some(server) = servers::mariadb() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let project = project(tmp.path());
    // 40 bytes: inside the server's greeting.
    for (stall, proxy) in stalls(server.port, 40) {
        let url = stores::mysql_url(proxy.port, servers::MARIADB_PASSWORD);
        let words = format!(
            "timed out after 2 s while connecting and logging in to the MySQL server at 127.0.0.1:{} (store.connect_timeout)",
            proxy.port
        );
        eprintln!("{stall:?}");
        assert_given_up(&project, &url, servers::MARIADB_PASSWORD, &words);
    }
}

#[test]
fn a_stalled_redis_server_is_given_up_at_the_deadline() {
    let Some(server) = servers::redis() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let project = project(tmp.path());
    // 3 bytes: inside the answer to the first command of the login.
    for (stall, proxy) in stalls(server.port, 3) {
        let url = stores::redis_url(proxy.port, servers::REDIS_PASSWORD);
        let words = format!(
            "timed out after 2 s while connecting and logging in to the Redis server at 127.0.0.1:{} (store.connect_timeout)",
            proxy.port
        );
        eprintln!("{stall:?}");
        assert_given_up(&project, &url, servers::REDIS_PASSWORD, &words);
    }
}
