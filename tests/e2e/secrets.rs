//! No output of any command shows a store password: the real binary, every subcommand and output
//! format, the language server's answers, notifications and log, over projects whose
//! agentws.toml puts the password next to a diagnostic (a duplicate `url`, a `url` that is not a
//! string, a syntax error after it), writes it percent-encoded, or takes it from a variable, and a
//! real Redis server requiring it. The password holds every character that ends a part of a URL;
//! each output is searched for it raw, percent-encoded (either case) and for its last characters,
//! which any partial leak shows.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::lsp::client::{Client, Options};
use super::servers;

const PASSWORD: &str = "p#/?@%:Zq9w0rd";
/// The password's tail: an output that cut the password at one of its special characters still
/// shows it.
const TAIL: &str = "Zq9w0rd";
const VARIABLE: &str = "AGENTWS_TEST_STORE_PASSWORD";

fn encoded(text: &str, lower: bool) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else if lower {
                format!("%{b:02x}")
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// Fails naming `what` when `output` holds the password in any of its forms.
fn assert_no_password(what: &str, output: &[u8]) {
    let text = String::from_utf8_lossy(output);
    for form in [
        PASSWORD.to_string(),
        encoded(PASSWORD, false),
        encoded(PASSWORD, true),
        TAIL.to_string(),
    ] {
        assert!(
            !text.contains(&form),
            "{what} shows the password as `{form}`:\n{text}"
        );
    }
}

/// A port nothing listens on.
fn closed_port() -> u16 {
    servers::free_port()
}

/// A project with `toml` as its agentws.toml and a small workspace.
fn project(dir: &Path, toml: &str) -> PathBuf {
    let root = dir.to_path_buf();
    let ws = root.join(".agentscope/workspace");
    std::fs::create_dir_all(ws.join("skills/notes")).unwrap();
    std::fs::write(ws.join("AGENTS.md"), "Be brief.\n").unwrap();
    std::fs::write(
        ws.join("skills/notes/SKILL.md"),
        "---\nname: notes\ndescription: Keep notes\n---\nWrite them down.\n",
    )
    .unwrap();
    std::fs::write(root.join("agentws.toml"), toml).unwrap();
    root
}

/// Runs the binary with the password in the environment (for `${VAR}` URLs); both streams.
fn run(project: &Path, args: &[&str]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_agentws"))
        .current_dir(project)
        .env(VARIABLE, PASSWORD)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let mut both = out.stdout;
    both.extend(out.stderr);
    both
}

/// Every command and format over `project`, each output checked.
fn every_command(project: &Path, label: &str) {
    for format in ["human", "concise", "json", "sarif", "github"] {
        let args = ["check", "--format", format, "."];
        assert_no_password(
            &format!("{label}: check --format {format}"),
            &run(project, &args),
        );
        let args = ["check", "--format", format, "--all-users", "."];
        assert_no_password(
            &format!("{label}: check --all-users --format {format}"),
            &run(project, &args),
        );
    }
    for args in [
        &["preview", "--user", "alice", "."][..],
        &["preview", "--user", "alice", "--format", "json", "."],
        &["preview", "--user", "alice", "--filesystem", "remote", "."],
        &[
            "preview",
            "--user",
            "alice",
            "--filesystem",
            "remote",
            "--format",
            "json",
            ".",
        ],
        &["store", "users"],
        &["store", "users", "--format", "json"],
        &["normalize", ".", "notes.md"],
    ] {
        assert_no_password(&format!("{label}: {}", args.join(" ")), &run(project, args));
    }
    assert_no_password(&format!("{label}: watch"), &watch_output(project));
    language_server(project, label);
}

/// `agentws watch` until it has printed its first report (then stopped).
fn watch_output(project: &Path) -> Vec<u8> {
    let log = project.join("watch.log");
    let mut child = Command::new(env!("CARGO_BIN_EXE_agentws"))
        .current_dir(project)
        .env(VARIABLE, PASSWORD)
        .args(["watch", "."])
        .stdout(std::fs::File::create(&log).unwrap())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut text = Vec::new();
    while Instant::now() < deadline {
        text = std::fs::read(&log).unwrap_or_default();
        if String::from_utf8_lossy(&text).contains("Found ") {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    std::fs::remove_file(&log).unwrap();
    text
}

/// The language server on `project`: the diagnostics of agentws.toml, a hover on its `url` line,
/// the preview and the store's users in remote mode, and the server's own log.
fn language_server(project: &Path, label: &str) {
    let log = tempfile::NamedTempFile::new().unwrap();
    std::env::set_var(VARIABLE, PASSWORD);
    let (mut client, _) = Client::start(
        &[project],
        Options {
            log: Some(log.path().to_path_buf()),
            ..Options::default()
        },
    );
    let toml_path = project.join("agentws.toml");
    let toml_uri = format!("file://{}", toml_path.display());
    let text = std::fs::read_to_string(&toml_path).unwrap();
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": toml_uri, "languageId": "toml", "version": 1, "text": text}}),
    );
    let diagnostics = client.wait_diagnostics(&toml_uri);
    let url_line = text.lines().position(|l| l.contains("url")).unwrap_or(0);
    let mut answers: Vec<Value> = vec![diagnostics];
    answers.push(client.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": toml_uri}, "position": {"line": url_line, "character": 8}}),
    ));
    for filesystem in ["local", "remote"] {
        answers.push(client.call(
            "agentws/previewPrompt",
            json!({"context": {"userId": "alice", "filesystem": filesystem, "date": "2026-12-01", "os": "Linux 6.1", "tmpDir": "/tmp"}}),
        ));
    }
    answers.push(client.call("agentws/storeUsers", json!({})));
    answers.extend(client.log.iter().cloned());
    for answer in &answers {
        assert_no_password(
            &format!("{label}: the language server's message"),
            answer.to_string().as_bytes(),
        );
    }
    client.shutdown();
    assert_no_password(
        &format!("{label}: the language server's log"),
        &std::fs::read(log.path()).unwrap(),
    );
}

#[test]
fn a_duplicate_url_key_shows_no_password() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("redis://user:{PASSWORD}@127.0.0.1:{}/0", closed_port());
    let root = project(
        dir.path(),
        &format!("[agent]\nname = \"bot\"\n\n[store]\nurl = \"{url}\"\nurl = \"{url}\"\n"),
    );
    let human = run(&root, &["check", "."]);
    assert!(
        String::from_utf8_lossy(&human).contains("6 | url = \"redis://user:***@127.0.0.1:"),
        "{}",
        String::from_utf8_lossy(&human)
    );
    every_command(&root, "duplicate url");
}

#[test]
fn a_url_that_is_not_a_string_shows_no_password() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("postgres://app:{PASSWORD}@127.0.0.1:{}/ws", closed_port());
    let root = project(
        dir.path(),
        &format!("[agent]\nname = \"bot\"\n\n[store]\nurl = [\"{url}\"]\n"),
    );
    every_command(&root, "url not a string");
}

#[test]
fn a_syntax_error_after_the_url_shows_no_password() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("mysql://root:{PASSWORD}@127.0.0.1:{}/ws", closed_port());
    let root = project(
        dir.path(),
        &format!("[agent]\nname = \"bot\"\n\n[store]\nurl = \"{url}\" layout = [\n"),
    );
    every_command(&root, "syntax error");
    // The same line written without quotes: the error points into the URL itself.
    let root = project(
        dir.path(),
        &format!("[agent]\nname = \"bot\"\n\n[store]\nurl = {url}\n"),
    );
    every_command(&root, "unquoted url");
}

#[test]
fn an_encoded_password_of_an_unreachable_store_shows_in_no_error() {
    let dir = tempfile::tempdir().unwrap();
    let encoded_url = format!(
        "postgres://app:{}@127.0.0.1:{}/ws",
        encoded(PASSWORD, false),
        closed_port()
    );
    let root = project(
        dir.path(),
        &format!(
            "[agent]\nname = \"bot\"\n\n[store]\nurl = \"{encoded_url}\"\nconnect_timeout = 2\n"
        ),
    );
    every_command(&root, "encoded password");
}

/// A real Redis server requiring the password, which the URL takes from a variable: the
/// expanded URL must reach the server intact (so its special characters are encoded) and no
/// output may show it.
#[test]
fn a_password_from_a_variable_reaches_a_real_server_and_no_output() {
    let Some(server) = servers::redis_with_password(PASSWORD) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let root = project(
        dir.path(),
        &format!(
            "[agent]\nname = \"bot\"\n\n[store]\nurl = \"redis://:${{{VARIABLE}}}@127.0.0.1:{}/0\"\n",
            server.port
        ),
    );
    let users = run(&root, &["store", "users", "--format", "json"]);
    assert!(
        String::from_utf8_lossy(&users).starts_with("[]"),
        "the store was not read: {}",
        String::from_utf8_lossy(&users)
    );
    let read = run(&root, &["check", "--all-users", "."]);
    assert!(
        String::from_utf8_lossy(&read).contains("read 0 files from store redis://:***@127.0.0.1:"),
        "{}",
        String::from_utf8_lossy(&read)
    );
    every_command(&root, "variable");
    // The same URL to a port nothing listens on: the connection error names no password either.
    let root = project(
        dir.path(),
        &format!(
            "[agent]\nname = \"bot\"\n\n[store]\nurl = \"redis://:${{{VARIABLE}}}@127.0.0.1:{}/0\"\nconnect_timeout = 2\n",
            closed_port()
        ),
    );
    every_command(&root, "variable, store down");
}
