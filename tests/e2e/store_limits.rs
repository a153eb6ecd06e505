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

// --- The language server -------------------------------------------------------------------

use super::lsp::client::{Client, Options};
use super::lsp::uri;
use serde_json::{json, Value};

const CONTEXT: &str =
    r#"{"userId": "alice", "date": "2026-12-01", "os": "Linux 6.1", "tmpDir": "/tmp"}"#;

/// previewPrompt and storeUsers through the real server read the store at `url`, seeded with the
/// clean rows: alice's prompt, and the ids alice and bob.
fn assert_served(url: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let project = stores::template_with(
        &tmp.path().canonicalize().unwrap(),
        &format!("[store]\nurl = \"{url}\"\n"),
    );
    let (mut client, _) = Client::start(&[&project], Options::default());
    let context: Value = serde_json::from_str(CONTEXT).unwrap();
    let alice = client.request(
        "agentws/previewPrompt",
        json!({"uri": uri(&project), "context": context}),
    );
    let text = alice["text"].as_str().unwrap();
    assert!(text.contains("Answer in French."), "{alice:#}");
    assert!(text.contains("trains"), "{alice:#}");
    let users = client.request("agentws/storeUsers", json!({"uri": uri(&project)}));
    assert_eq!(users["ids"], json!(["alice", "bob"]), "{users}");
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn postgres_stores_are_read_through_the_language_server() {
    let Some(server) = servers::postgres() else {
        return;
    };
    let url = stores::postgres_url(server.port, servers::POSTGRES_PASSWORD);
    let mut client = servers::retry(|| servers::Pg::connect(&url));
    stores::seed_postgres(&mut client, &stores::clean_rows());
    assert_served(&url);
}

#[test]
fn mariadb_stores_are_read_through_the_language_server() {
    let Some(server) = servers::mariadb() else {
        return;
    };
    let url = stores::mysql_url(server.port, servers::MARIADB_PASSWORD);
    let mut conn = servers::retry(|| servers::My::connect(&url));
    stores::seed_mysql(&mut conn, &stores::clean_rows());
    assert_served(&url);
}

#[test]
fn redis_stores_are_read_through_the_language_server() {
    let Some(server) = servers::redis() else {
        return;
    };
    let mut conn = stores::redis_conn(server.port);
    stores::seed_redis(&mut conn, &stores::clean_rows());
    assert_served(&stores::redis_url(server.port, servers::REDIS_PASSWORD));
}

#[test]
fn sqlite_stores_are_read_through_the_language_server() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("store.db");
    stores::seed_sqlite(&db, stores::Layout::Jdbc, &stores::clean_rows());
    assert_served(&format!("sqlite://{}", db.display()));
}

/// The check of a project's stored files, started when the project is indexed, waits on a store
/// that never answers without holding up the editor: requests are answered, the server exits when
/// asked. With a short `connect_timeout` the read ends at its deadline, and the editor is told.
#[test]
fn a_stalled_store_check_leaves_the_editor_its_time() {
    let silent = StallingProxy::start(0, Stall::Silent);
    for (timeout, waits) in [(120, false), (2, true)] {
        let tmp = tempfile::tempdir().unwrap();
        let project = stores::template_with(
            &tmp.path().canonicalize().unwrap(),
            &format!(
                "[store]\nurl = \"redis://:hunter2@127.0.0.1:{}/0\"\nconnect_timeout = {timeout}\n",
                silent.port
            ),
        );
        let skill = project.join(".agentscope/workspace/skills/hello/SKILL.md");
        let (mut client, _) = Client::start(
            &[&project],
            Options {
                progress: true,
                ..Options::default()
            },
        );
        client.wait_for(|m| {
            m["method"] == "$/progress"
                && m["params"]["value"]["kind"] == "begin"
                && m["params"]["value"]["title"] == "agentws: checking the store's files"
        });
        let at =
            json!({"textDocument": {"uri": uri(&skill)}, "position": {"line": 1, "character": 1}});
        let start = Instant::now();
        let hover = client.request("textDocument/hover", at);
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );
        assert!(
            hover["contents"]["value"]
                .as_str()
                .is_some_and(|v| !v.is_empty()),
            "{hover}"
        );
        if waits {
            let said = client.wait_for(|m| m["method"] == "window/showMessage");
            let words = said["params"]["message"].as_str().unwrap();
            assert!(words.contains("timed out after 2 s"), "{words}");
            assert!(!words.contains("hunter2"), "{words}");
        }
        assert_eq!(client.shutdown(), 0);
    }
}

/// Whether `message` answers request `id`.
fn answers(message: &Value, id: i64) -> bool {
    message.get("id") == Some(&json!(id)) && message.get("method").is_none()
}

/// A preview waiting on a store that never answers leaves every editor request its usual time;
/// cancelling it answers RequestCancelled at once, and a newer preview of the same project and
/// context supersedes it (ServerCancelled). Work-done progress runs meanwhile.
#[test]
fn a_stalled_store_never_blocks_the_editor() {
    let silent = StallingProxy::start(0, Stall::Silent);
    let tmp = tempfile::tempdir().unwrap();
    let project = stores::template_with(
        &tmp.path().canonicalize().unwrap(),
        &format!(
            "[store]\nurl = \"redis://:hunter2@127.0.0.1:{}/0\"\nconnect_timeout = 120\n",
            silent.port
        ),
    );
    let skill = project.join(".agentscope/workspace/skills/hello/SKILL.md");
    let text = std::fs::read_to_string(&skill).unwrap();
    let (mut client, _) = Client::start(
        &[&project],
        Options {
            progress: true,
            ..Options::default()
        },
    );
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri(&skill), "languageId": "markdown", "version": 1, "text": text}}),
    );
    client.wait_diagnostics(&uri(&skill));
    let context: Value = serde_json::from_str(CONTEXT).unwrap();
    let preview = json!({"uri": uri(&project), "context": context});
    let first = client.send_request("agentws/previewPrompt", preview.clone());
    // Its progress begins while it waits.
    // (The store check the project's indexing started has its own progress, titled for it.)
    let begin = client.wait_for(|m| {
        m["method"] == "$/progress"
            && m["params"]["value"]["kind"] == "begin"
            && m["params"]["value"]["title"] == "agentws: agentws/previewPrompt"
    });
    let token = begin["params"]["token"].clone();

    let doc = json!({"textDocument": {"uri": uri(&skill)}});
    let at = |line: u32, character: u32| json!({"textDocument": {"uri": uri(&skill)}, "position": {"line": line, "character": character}});
    for (method, params) in [
        ("textDocument/hover", at(1, 1)),
        ("textDocument/documentSymbol", doc.clone()),
        ("textDocument/completion", at(3, 0)),
        ("textDocument/hover", at(2, 2)),
    ] {
        let start = Instant::now();
        let answer = client.call(method, params);
        assert!(answer.get("error").is_none(), "{method}: {answer}");
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{method} took {:?}",
            start.elapsed()
        );
    }
    let hover = client.call("textDocument/hover", at(1, 1));
    assert!(
        hover["result"]["contents"]["value"]
            .as_str()
            .is_some_and(|v| !v.is_empty()),
        "{hover}"
    );
    // Diagnostics follow an edit meanwhile.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&skill), "version": 2}, "contentChanges": [{"text": "---\nname: hello\n"}]}),
    );
    let start = Instant::now();
    let published = client.wait_for(|m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == 2
    });
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(!published["params"]["diagnostics"]
        .as_array()
        .unwrap()
        .is_empty());
    assert!(
        !client.unclaimed.iter().any(|m| answers(m, first)),
        "the preview was answered: {:?}",
        client.unclaimed
    );

    // A newer request for the same project and context supersedes it.
    let second = client.send_request("agentws/previewPrompt", preview.clone());
    let superseded = client.wait_for(|m| answers(m, first));
    assert_eq!(superseded["error"]["code"], -32802, "{superseded}");
    // A cancelled one answers at once.
    let start = Instant::now();
    client.notify("$/cancelRequest", json!({"id": second}));
    let cancelled = client.wait_for(|m| answers(m, second));
    assert_eq!(cancelled["error"]["code"], -32800, "{cancelled}");
    assert!(start.elapsed() < Duration::from_secs(5));
    // Its progress has ended (while the cancellation was waited for, or now).
    let ended = |m: &Value| {
        m["method"] == "$/progress"
            && m["params"]["value"]["kind"] == "end"
            && m["params"]["token"] == token
    };
    if !client.log.iter().any(ended) {
        client.wait_for(ended);
    }
    // The server goes on serving, and storeUsers is cancellable in the same way. Two store reads
    // of different things wait at once; a third is refused at once, leaving the editor's
    // requests their turn.
    let users = client.send_request("agentws/storeUsers", json!({"uri": uri(&project)}));
    let bob = client.send_request(
        "agentws/previewPrompt",
        json!({"uri": uri(&project), "context": {"userId": "bob"}}),
    );
    let carol = client.call(
        "agentws/previewPrompt",
        json!({"uri": uri(&project), "context": {"userId": "carol"}}),
    );
    assert_eq!(carol["error"]["data"]["code"], "store-busy", "{carol}");
    client.call("textDocument/documentSymbol", doc);
    client.notify("$/cancelRequest", json!({"id": bob}));
    let cancelled = client.wait_for(|m| answers(m, bob));
    assert_eq!(cancelled["error"]["code"], -32800, "{cancelled}");
    client.notify("$/cancelRequest", json!({"id": users}));
    let cancelled = client.wait_for(|m| answers(m, users));
    assert_eq!(cancelled["error"]["code"], -32800, "{cancelled}");
    assert_eq!(client.shutdown(), 0);
}

// --- SQLite and local files ----------------------------------------------------------------

/// A query that never ends (a recursive view) is interrupted at the deadline.
#[test]
fn a_sqlite_query_that_never_ends_is_interrupted_at_the_deadline() {
    let tmp = tempfile::tempdir().unwrap();
    let project = project(tmp.path());
    let db = tmp.path().join("loop.db");
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch(
            "CREATE VIEW agentscope_store AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) \
             SELECT 'agents' || char(31) || 'bot' || char(31) || 'users' || char(31) || 'alice' || char(31) \
             || 'root' || char(31) AS namespace_path, '/x' || n AS item_key, '{}' AS value_json, \
             1 AS version, 1 AS updated_at FROM r WHERE n < 0",
        )
        .unwrap();
    let url = format!("sqlite://{}", db.display());
    let words = format!(
        "timed out after 2 s while reading the SQLite database `{}` (store.connect_timeout)",
        db.display()
    );
    assert_given_up(&project, &url, "no password", &words);
}

/// A client certificate or key that is a device or a FIFO is refused before it is opened, as a
/// workspace file would be: no endless read, no read that waits for a writer.
#[test]
fn client_certificate_files_must_be_regular_files() {
    let tmp = tempfile::tempdir().unwrap();
    let project = project(tmp.path());
    let p = project.to_str().unwrap();
    let fifo = tmp.path().join("key.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let pem = tmp.path().join("ok.pem");
    std::fs::write(&pem, "").unwrap();
    let fifo_text = fifo.display().to_string();
    let pem_text = pem.display().to_string();
    for (base, cert, key, said) in [
        (
            "rediss://:pw@127.0.0.1:1/0?",
            "/dev/zero",
            pem_text.as_str(),
            "cannot read the client certificate `/dev/zero`: it is a character device, not a regular file",
        ),
        (
            "postgres://u:pw@127.0.0.1:1/db?sslmode=require&",
            pem_text.as_str(),
            fifo_text.as_str(),
            "it is a named pipe (FIFO), not a regular file",
        ),
        (
            "mysql://u:pw@127.0.0.1:1/db?ssl-mode=REQUIRED&",
            "/dev/zero",
            pem_text.as_str(),
            "cannot read the client certificate `/dev/zero`: it is a character device, not a regular file",
        ),
        (
            "mysql://u:pw@127.0.0.1:1/db?",
            pem_text.as_str(),
            fifo_text.as_str(),
            "it is a named pipe (FIFO), not a regular file",
        ),
    ] {
        let url = format!("{base}sslcert={cert}&sslkey={key}");
        let out = run(&["check", p, "--store", &url, "--all-users"]);
        assert_eq!(out.code, Some(2), "{url}: {}", out.stderr);
        assert!(out.stderr.contains(said), "{url}: {}", out.stderr);
        assert!(out.took < Duration::from_secs(10), "{url}: {:?}", out.took);
    }
    // The root certificate of a MySQL URL too.
    let url = format!("mysql://u:pw@127.0.0.1:1/db?ssl-mode=REQUIRED&root_cert_path={fifo_text}");
    let out = run(&["check", p, "--store", &url, "--all-users"]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains("cannot read the root certificate"),
        "{}",
        out.stderr
    );
}

/// `--verbose` adds the client library's report; without it the message says what happened in
/// words only.
#[test]
fn verbose_adds_the_client_librarys_report() {
    let tmp = tempfile::tempdir().unwrap();
    let project = project(tmp.path());
    let p = project.to_str().unwrap();
    let port = servers::free_port();
    let url = format!("postgres://u:hunter2@127.0.0.1:{port}/db");
    let plain = run(&["store", "users", &url, "--project", p]);
    assert_eq!(plain.code, Some(2));
    assert_eq!(
        plain.stderr,
        format!(
            "error: cannot connect to the PostgreSQL store (postgres://u:***@127.0.0.1:{port}/db): \
             the PostgreSQL server at 127.0.0.1:{port} refused the connection (is the server running, on that port?)\n"
        )
    );
    let verbose = run(&["store", "users", &url, "--project", p, "--verbose"]);
    assert_eq!(verbose.code, Some(2));
    let (first, detail) = verbose.stderr.split_once('\n').unwrap();
    assert_eq!(format!("{first}\n"), plain.stderr);
    assert!(
        detail.starts_with("  detail: error connecting to server"),
        "{detail}"
    );
    assert!(detail.contains("Connection refused"), "{detail}");
    assert!(!verbose.stderr.contains("hunter2"));
}

// --- Hostile entries ------------------------------------------------------------------------

/// `check --all-users --format json` of `url`: exit code, RS017 messages, files read.
fn check_all(project: &Path, url: &str) -> (Option<i32>, Vec<String>, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_agentws"))
        .args([
            "check",
            project.to_str().unwrap(),
            "--store",
            url,
            "--all-users",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)));
    let rs017 = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "RS017")
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect();
    (out.status.code(), rs017, report)
}

/// An id the runtime's own search cannot list is reported (RS017), and every other user is
/// checked.
#[test]
fn a_100000_byte_sqlite_id_is_reported_and_the_others_are_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let project = project(tmp.path());
    let db = tmp.path().join("store.db");
    let long: &'static str = Box::leak("x".repeat(100_000).into_boxed_str());
    let mut rows = stores::clean_rows();
    rows.push(stores::Row {
        owner: long,
        segment: "root",
        key: "/AGENTS.md",
        value: stores::file_value("# Long\n"),
    });
    stores::seed_sqlite(&db, stores::Layout::Jdbc, &rows);
    let (code, rs017, report) = check_all(&project, &format!("sqlite://{}", db.display()));
    assert_eq!(code, Some(1), "{report}");
    assert_eq!(
        rs017,
        ["the entries of this id cannot be read: SQLite refuses the runtime's prefix search for them (LIKE or GLOB pattern too complex)"]
    );
    // bob's broken skill is still found.
    assert!(report.to_string().contains("broken/SKILL.md"), "{report}");
}

/// A Redis index or item of the wrong type is reported where it is (RS017); the rest is read.
#[test]
fn redis_keys_of_the_wrong_type_are_reported_and_the_rest_is_checked() {
    let Some(server) = servers::redis() else {
        return;
    };
    let mut conn = stores::redis_conn(server.port);
    stores::seed_redis(&mut conn, &stores::clean_rows());
    let prefix = "agentscope:store:";
    // bob's memory index is a string; carol's skill item is a list.
    redis::cmd("SET")
        .arg(format!("{prefix}idx:agents\0bot\0users\0bob\0memory"))
        .arg("oops")
        .query::<()>(&mut conn)
        .unwrap();
    redis::cmd("ZADD")
        .arg(format!("{prefix}idx:agents\0bot\0users\0carol\0skills"))
        .arg(0)
        .arg("/w/SKILL.md")
        .query::<()>(&mut conn)
        .unwrap();
    redis::cmd("RPUSH")
        .arg(format!(
            "{prefix}item:agents\0bot\0users\0carol\0skills\0/w/SKILL.md"
        ))
        .arg("oops")
        .query::<()>(&mut conn)
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let project = project(tmp.path());
    let url = stores::redis_url(server.port, servers::REDIS_PASSWORD);
    let (code, mut rs017, report) = check_all(&project, &url);
    assert_eq!(code, Some(1), "{report}");
    rs017.sort();
    assert_eq!(
        rs017,
        [
            "item `/w/SKILL.md` is not a hash (a key of the wrong type: WRONGTYPE): the runtime's read of it fails; not read",
            "the index of namespace `agents/bot/users/bob/memory` is not a sorted set (a key of the wrong type: WRONGTYPE): the runtime's listing of it fails; not read",
        ]
    );
    assert!(report.to_string().contains("broken/SKILL.md"), "{report}");
    // alice's preview is unaffected.
    let out = Command::new(env!("CARGO_BIN_EXE_agentws"))
        .args([
            "preview",
            project.to_str().unwrap(),
            "--store",
            &url,
            "--user",
            "alice",
        ])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("Answer in French."),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A `mysql://` URL reads the server at its host and port, never the one behind the Unix socket
/// that server reports: here server A's socket path leads to server B, as it can on a machine
/// with two servers, and the ids listed are A's.
#[test]
fn a_mysql_url_never_follows_the_socket_the_server_reports() {
    let (Some(a), Some(b)) = (servers::mariadb(), servers::mariadb()) else {
        return;
    };
    let url = |port| stores::mysql_url(port, servers::MARIADB_PASSWORD);
    let mut seed = servers::retry(|| servers::My::connect(&url(a.port)));
    stores::seed_mysql(&mut seed, &stores::clean_rows());
    let mut other = servers::retry(|| servers::My::connect(&url(b.port)));
    let rows: Vec<stores::Row> = stores::clean_rows()
        .into_iter()
        .map(|r| stores::Row {
            owner: "mallory",
            ..r
        })
        .collect();
    stores::seed_mysql(&mut other, &rows);
    // A's socket (which A reports as @@socket) now leads to B.
    let socket = a.dir().join("sock");
    std::fs::remove_file(&socket).unwrap();
    std::os::unix::fs::symlink(b.dir().join("sock"), &socket).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let project = project(tmp.path());
    let out = Command::new(env!("CARGO_BIN_EXE_agentws"))
        .args([
            "store",
            "users",
            &url(a.port),
            "--project",
            project.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "alice\nbob\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
