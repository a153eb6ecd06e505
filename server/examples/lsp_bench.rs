//! Whole-process benchmark of `agentws serve` (not a test): generates a workspace of N skills and
//! M subagents, drives the release binary over stdio like an editor, and prints timings.
//!
//! ```text
//! cargo build --release --bin agentws && cargo run --release --example lsp_bench -- [SKILLS] [SUBAGENTS]
//! ```
//!
//! Measured from the client side (the time includes the pipe round trip, so it is an upper bound
//! of the server-side time): initial indexing (`initialized` → `$/progress` end, which the server
//! sends after every file's diagnostics were published), `didChange` to a SKILL.md → its
//! `publishDiagnostics` (debounce 0), a tools.json change that changes the diagnostics of every
//! subagent → the tools.json publication (published after all subagents), `agentws/previewPrompt`
//! round trips, and the server's resident memory (VmRSS, VmHWM).
//!
//! ```text
//! cargo run --release --example lsp_bench -- edits WORKSPACE [EDITS] [SOAK]
//! ```
//!
//! drives every kind of single-file edit an author makes on an existing project (generate the
//! large one with `genws`, see docs/benchmarks.md): a skill's body, description and name, a skill
//! flipping between loaded and dropped, a skill created and deleted on disk, a subagent's
//! `tools:` / `skills:`, a tools.json deny list, an `agentws.toml` change; for each, `didChange`
//! (or the watched-file notification) → the `publishDiagnostics` of that file, then an
//! `agentws/previewPrompt` after some of the edits (every fifth text edit, so that consecutive
//! previews see both texts an edit kind alternates; every creation and deletion; every tools.json
//! edit); hover, completion and definition sent right behind an
//! edit (so a request that waits for the analysis shows it; with `LSP_BENCH_NO_EDIT` set, sent
//! with no edit in front); each opened file's `didOpen` → its `publishDiagnostics` (the first
//! time its text is an editor's); and the server's memory before and after SOAK more body
//! edits. The
//! previews are those of a panel opened before the edits: the first answer is whole, each later
//! one the edits of the one before (`previousResultId`), applied by this client, so a preview's
//! time ends when the client holds the whole of it; with `LSP_BENCH_WHOLE_PREVIEW` set, every
//! answer is asked whole, as by a client that takes no edits. With `LSP_BENCH_NO_PREVIEW` set,
//! no preview is asked (to profile the edits alone). `LSP_BENCH_SERVER` names the server binary
//! to run instead of this checkout's `target/release/agentws` (to compare two builds in one run).
//!
//! ```text
//! cargo run --release --example lsp_bench -- normalize [REQUESTS]
//! ```
//!
//! measures `agentws/normalizePath` over JSON-RPC instead: 10 runs (10 users) begun with
//! `agentws/runBegin`, each a closed-loop client with one request in flight (10 concurrent
//! requests in all), typical relative and absolute paths; prints throughput and latency
//! percentiles (client side, pipe round trip included).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use agentws::base::json_delta::{self, Edit};
use serde_json::{json, Value};

struct Server {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<(Instant, Value)>,
    next_id: i64,
}

impl Server {
    fn spawn(binary: &Path) -> Server {
        let mut child = Command::new(binary)
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn agentws serve");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = 0;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length: ") {
                        length = v.parse().unwrap();
                    }
                }
                let mut body = vec![0; length];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let value: Value = serde_json::from_slice(&body).unwrap();
                if tx.send((Instant::now(), value)).is_err() {
                    return;
                }
            }
        });
        Server {
            stdin: child.stdin.take().unwrap(),
            child,
            incoming: rx,
            next_id: 0,
        }
    }

    fn send(&mut self, value: Value) {
        let body = value.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{}", body.len(), body).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait(|m| m["id"] == id && m.get("method").is_none()).1
    }

    /// Waits for a message matching `pred`, answering server requests; returns when it arrived.
    fn wait(&mut self, pred: impl Fn(&Value) -> bool) -> (Instant, Value) {
        loop {
            let (at, message) = self
                .incoming
                .recv_timeout(Duration::from_secs(600))
                .expect("server answered");
            if message.get("method").is_some() && message.get("id").is_some() {
                let result = if message["method"] == "workspace/configuration" {
                    json!([{"debounceMs": 0}])
                } else {
                    Value::Null
                };
                self.send(json!({"jsonrpc": "2.0", "id": message["id"], "result": result}));
            }
            if pred(&message) {
                return (at, message);
            }
        }
    }

    fn memory(&self) -> (String, String) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .map(|l| l[name.len()..].trim().to_string())
                .unwrap_or_default()
        };
        (field("VmRSS:"), field("VmHWM:"))
    }
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn skill_text(i: usize, extra: &str) -> String {
    format!(
        "---\nname: skill-{i}\ndescription: Skill number {i}, for generated benchmark tasks {extra}\n---\n# Skill {i}\n\nSteps for task {i}.\n"
    )
}

fn tools_json(with_tool: bool) -> String {
    let tools = if with_tool {
        r#"["bench_search", "bench_fetch"]"#
    } else {
        r#"["bench_fetch"]"#
    };
    format!(
        "{{\n  \"mcpServers\": {{\n    \"bench\": {{\"transport\": \"stdio\", \"command\": \"bench-mcp\", \"enableTools\": {tools}}}\n  }}\n}}\n"
    )
}

fn generate(root: &Path, skills: usize, subagents: usize) {
    let ws = root.join(".agentscope/workspace");
    std::fs::create_dir_all(ws.join("subagents")).unwrap();
    std::fs::write(root.join("agentws.toml"), "[agent]\nname = \"bench\"\n").unwrap();
    std::fs::write(
        ws.join("AGENTS.md"),
        "# Bench agent\n\nHelps with benchmarks.\n",
    )
    .unwrap();
    std::fs::write(ws.join("tools.json"), tools_json(true)).unwrap();
    for i in 0..skills {
        let dir = ws.join(format!("skills/skill-{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("SKILL.md"), skill_text(i, "")).unwrap();
    }
    for i in 0..subagents {
        std::fs::write(
            ws.join(format!("subagents/agent-{i}.md")),
            format!(
                "---\ndescription: Subagent {i}\ntools: [bench_search, read_file]\nskills:\n  - skill-{}\n---\nYou are subagent {i}.\n",
                i % skills.max(1)
            ),
        )
        .unwrap();
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// `agentws/normalizePath` throughput and latency with 10 concurrent runs.
fn bench_normalize(binary: &Path, requests: usize) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("project");
    std::fs::create_dir_all(root.join(".agentscope/workspace/knowledge")).unwrap();
    std::fs::write(root.join("agentws.toml"), "[agent]\nname = \"assistant\"\n").unwrap();
    let mut server = Server::spawn(binary);
    server.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {},
               "workspaceFolders": [{"uri": uri(&root), "name": "project"}]}),
    );
    server.notify("initialized", json!({}));
    const RUNS: usize = 10;
    let mut runs = Vec::new();
    for user in 0..RUNS {
        let answer = server.request(
            "agentws/runBegin",
            json!({"project": root.to_string_lossy(), "userId": format!("user-{user}")}),
        );
        let result = &answer["result"];
        runs.push((
            result["runId"].as_str().expect("runId").to_string(),
            result["root"].as_str().expect("root").to_string(),
        ));
    }
    let inputs = |run: &(String, String), i: usize| -> String {
        match i % 4 {
            0 => format!("notes/day-{}.md", i % 97),
            1 => format!("{}/reports/q{}/summary.md", run.1, i % 5),
            2 => "knowledge/KNOWLEDGE.md".to_string(),
            _ => format!("./drafts//plan-{}.md", i % 13),
        }
    };
    // Closed loop: run k has one request in flight; its answer sends its next request.
    let mut sent_at = [Instant::now(); RUNS];
    let mut latencies = Vec::with_capacity(requests);
    let mut issued = 0;
    let started = Instant::now();
    for (k, run) in runs.iter().enumerate() {
        let id = 1_000_000 + k as i64;
        sent_at[k] = Instant::now();
        server.send(
            json!({"jsonrpc": "2.0", "id": id, "method": "agentws/normalizePath",
                           "params": {"runId": run.0, "path": inputs(run, issued), "op": "read"}}),
        );
        issued += 1;
    }
    while latencies.len() < requests {
        let (at, message) = server
            .incoming
            .recv_timeout(Duration::from_secs(60))
            .expect("answer");
        let Some(id) = message["id"].as_i64().filter(|id| *id >= 1_000_000) else {
            continue;
        };
        assert!(message.get("result").is_some(), "{message}");
        let k = (id - 1_000_000) as usize % RUNS;
        latencies.push(at - sent_at[k]);
        if issued < requests {
            let next = 1_000_000 + (issued / RUNS * RUNS + k) as i64;
            sent_at[k] = Instant::now();
            server.send(json!({"jsonrpc": "2.0", "id": next, "method": "agentws/normalizePath",
                               "params": {"runId": runs[k].0, "path": inputs(&runs[k], issued), "op": "read"}}));
            issued += 1;
        }
    }
    let total = started.elapsed();
    latencies.sort();
    println!(
        "agentws/normalizePath, {RUNS} concurrent runs, {requests} requests: {:.0} requests/s, latency p50 {}, p99 {}, max {}",
        requests as f64 / total.as_secs_f64(),
        ms(percentile(&latencies, 0.5)),
        ms(percentile(&latencies, 0.99)),
        ms(*latencies.last().unwrap())
    );
    server.request("shutdown", Value::Null);
    server.notify("exit", Value::Null);
    let _ = server.child.wait();
}

/// The server under test: `LSP_BENCH_SERVER` when set (to compare two builds in one run), else
/// this checkout's release build.
fn server_binary() -> PathBuf {
    std::env::var_os("LSP_BENCH_SERVER").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/agentws"),
        PathBuf::from,
    )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("edits") {
        let binary = server_binary();
        let root = PathBuf::from(args.get(2).expect("edits WORKSPACE [EDITS] [SOAK]"));
        let edits = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(200);
        let soak = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(2_000);
        bench_edits(&binary, &std::fs::canonicalize(root).unwrap(), edits, soak);
        return;
    }
    if args.get(1).map(String::as_str) == Some("normalize") {
        let binary = server_binary();
        let requests = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(200_000);
        bench_normalize(&binary, requests);
        return;
    }
    let skills: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let subagents: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1_000);
    let binary = server_binary();
    assert!(
        binary.is_file(),
        "build the server first: cargo build --release --bin agentws"
    );
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("bench");
    generate(&root, skills, subagents);
    let ws = root.join(".agentscope/workspace");
    println!("workspace: {skills} skills, {subagents} subagents (each naming an MCP tool)");

    let mut server = Server::spawn(&binary);
    let indexing = initialize(&mut server, &root);
    println!(
        "initial indexing + full diagnostics published: {}",
        ms(indexing)
    );

    // didChange → publishDiagnostics of that file.
    let skill = ws.join("skills/skill-42/SKILL.md");
    let skill_uri = uri(&skill);
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": skill_uri, "languageId": "markdown", "version": 0, "text": skill_text(42, "")}}),
    );
    server.wait(|m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == skill_uri.as_str()
    });
    let mut samples = Vec::new();
    for version in 1..=200 {
        let sent = Instant::now();
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": skill_uri, "version": version}, "contentChanges": [{"text": skill_text(42, &"x".repeat(version as usize % 7))}]}),
        );
        let (at, _) = server.wait(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == skill_uri.as_str()
                && m["params"]["version"] == version
        });
        samples.push(at - sent);
    }
    samples.sort();
    println!(
        "didChange → publishDiagnostics (200 edits, debounce 0): p50 {}, p99 {}, max {}",
        ms(percentile(&samples, 0.5)),
        ms(percentile(&samples, 0.99)),
        ms(*samples.last().unwrap())
    );

    // tools.json change that changes every subagent's diagnostics.
    let tools = ws.join("tools.json");
    let tools_uri = uri(&tools);
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": tools_uri, "languageId": "json", "version": 0, "text": tools_json(true)}}),
    );
    server.wait(|m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == tools_uri.as_str()
    });
    let mut recheck = Vec::new();
    for version in 1..=6 {
        let sent = Instant::now();
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": tools_uri, "version": version}, "contentChanges": [{"text": tools_json(version % 2 == 0)}]}),
        );
        // Subagents are published before tools.json (path order): count them on the way.
        let subagent_publications = std::cell::Cell::new(0);
        let (at, _) = server.wait(|m| {
            let uri = m["params"]["uri"].as_str().unwrap_or("");
            if m["method"] == "textDocument/publishDiagnostics" && uri.contains("/subagents/") {
                subagent_publications.set(subagent_publications.get() + 1);
            }
            m["method"] == "textDocument/publishDiagnostics"
                && uri == tools_uri.as_str()
                && m["params"]["version"] == version
        });
        assert_eq!(
            subagent_publications.get(),
            subagents,
            "every subagent's diagnostics changed and were published"
        );
        recheck.push(at - sent);
    }
    recheck.sort();
    println!(
        "tools.json change re-checking {subagents} subagents (6 changes): p50 {}, max {}",
        ms(percentile(&recheck, 0.5)),
        ms(*recheck.last().unwrap())
    );

    let mut previews = Vec::new();
    for _ in 0..20 {
        let sent = Instant::now();
        let answer = server.request(
            "agentws/previewPrompt",
            json!({"context": {"userId": "alice", "date": "2026-05-04", "os": "Linux", "tmpDir": "/tmp"}}),
        );
        previews.push(sent.elapsed());
        assert!(answer.get("result").is_some(), "{answer}");
    }
    previews.sort();
    println!(
        "agentws/previewPrompt ({skills} skills in the prompt, 20 calls): p50 {}, max {}",
        ms(percentile(&previews, 0.5)),
        ms(*previews.last().unwrap())
    );

    let (rss, peak) = server.memory();
    println!("server memory: VmRSS {rss}, peak VmHWM {peak}");
    server.request("shutdown", Value::Null);
    server.notify("exit", Value::Null);
    let _ = server.child.wait();
}

/// Percentiles of one kind of measurement, printed as one line.
fn report(what: &str, samples: &mut [Duration]) {
    report_with(what, samples, "");
}

/// [`report`], followed by the server's resident memory at the end of the measurement (which
/// edit kind makes it grow).
fn report_memory(what: &str, samples: &mut [Duration], server: &Server) {
    let (rss, _) = server.memory();
    report_with(what, samples, &format!(", then VmRSS {rss}"));
}

fn report_with(what: &str, samples: &mut [Duration], tail: &str) {
    if samples.is_empty() {
        return;
    }
    // The samples in the order they were taken show whether a high percentile is one
    // first-time cost or a steady one.
    if std::env::var_os("LSP_BENCH_SAMPLES").is_some() {
        let listed: Vec<String> = samples.iter().map(|d| ms(*d)).collect();
        println!("{what}, in order: {}", listed.join(", "));
    }
    samples.sort();
    println!(
        "{what} ({} samples): p50 {}, p99 {}, max {}{tail}",
        samples.len(),
        ms(percentile(samples, 0.5)),
        ms(percentile(samples, 0.99)),
        ms(*samples.last().unwrap())
    );
}

fn first_entry(dir: &Path, pred: impl Fn(&Path) -> bool) -> PathBuf {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| pred(p))
        .collect();
    entries.sort();
    entries.into_iter().next().expect("an entry")
}

/// Sends the watched-file `changes` and waits for the publication of `uri`, `cleared` (empty) or
/// not: the time between the two.
fn watched_change(server: &mut Server, changes: Value, uri: &str, cleared: bool) -> Duration {
    let sent = Instant::now();
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": changes }),
    );
    let (at, _) = server.wait(|m| {
        is_publication_of(m, uri)
            && m["params"]["diagnostics"]
                .as_array()
                .is_some_and(|d| d.is_empty() == cleared)
    });
    at - sent
}

fn is_publication_of(m: &Value, uri: &str) -> bool {
    m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
}

/// Every edit kind on the project at `root` (see the module comment).
fn bench_edits(binary: &Path, root: &Path, edits: usize, soak: usize) {
    let ws = root.join(".agentscope/workspace");
    let skill_dir = first_entry(&ws.join("skills"), |p| p.join("SKILL.md").is_file());
    let skill = skill_dir.join("SKILL.md");
    let skill_name = skill_dir
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let other_skill = {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(ws.join("skills"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        dirs.sort();
        dirs[1].file_name().unwrap().to_string_lossy().into_owned()
    };
    let subagent = first_entry(&ws.join("subagents"), |p| {
        p.extension().is_some_and(|e| e == "md")
    });
    let tools = ws.join("tools.json");
    let config = root.join("agentws.toml");
    let skill_original = std::fs::read_to_string(&skill).unwrap();
    let tools_original = std::fs::read_to_string(&tools).unwrap();
    let config_original = std::fs::read_to_string(&config).unwrap();
    let files = walk_count(&ws);
    println!("workspace: {} ({files} files)", root.display());

    let mut server = Server::spawn(binary);
    let indexing = initialize(&mut server, root);
    println!(
        "initial indexing + every file's diagnostics published: {}",
        ms(indexing)
    );
    let (rss, _) = server.memory();
    println!("server memory after indexing: VmRSS {rss}");

    let mut version = 0;
    let mut preview_after_edit = Vec::new();
    let mut held_preview = HeldPreview::default();
    // The preview panel opens before the edits: its first answer is whole.
    let mut first_preview: Vec<Duration> = preview_alice(&mut server, &mut held_preview)
        .into_iter()
        .collect();
    let wants = sections_wanted();
    open_doc(&mut server, &skill, &skill_original, "markdown");
    let name_line = format!("name: {skill_name}");
    let skill_kinds: [(&str, EditText); 4] = [
        (
            "SKILL.md body edit",
            Box::new(|i| format!("{skill_original}\nA note, revision {i}.\n")),
        ),
        (
            "SKILL.md description edit",
            Box::new(|i| {
                skill_original.replacen(
                    "description: ",
                    &format!("description: {} ", "Revised".repeat(1 + i % 3)),
                    1,
                )
            }),
        ),
        (
            "SKILL.md name change",
            Box::new(|i| {
                if i.is_multiple_of(2) {
                    skill_original.replacen(&name_line, &format!("{name_line}-renamed"), 1)
                } else {
                    skill_original.clone()
                }
            }),
        ),
        (
            "SKILL.md valid ⇄ dropped (`name: yes`)",
            Box::new(|i| {
                if i.is_multiple_of(2) {
                    skill_original.replacen(&name_line, "name: yes", 1)
                } else {
                    skill_original.clone()
                }
            }),
        ),
    ];
    for (what, text) in skill_kinds.iter().filter(|_| wants("skill")) {
        let mut samples = Vec::new();
        for i in 0..edits {
            samples.push(change(&mut server, &mut version, &skill, &text(i)));
            // Every fifth edit: consecutive previews see the two texts an edit kind alternates.
            if i % 5 == 0 {
                preview_after_edit.extend(preview_alice(&mut server, &mut held_preview));
            }
        }
        change(&mut server, &mut version, &skill, &skill_original);
        report_memory(
            &format!("didChange → publishDiagnostics, {what}"),
            &mut samples,
            &server,
        );
    }

    // A skill created and deleted on disk (watched-file notifications); the new skill has no
    // description, so it has a diagnostic to publish, and its deletion clears it.
    let created = ws.join("skills/bench-created/SKILL.md");
    let created_uri = uri(&created);
    let mut create_delete = Vec::new();
    for _ in 0..(edits / 10).max(5) * usize::from(wants("create")) {
        std::fs::create_dir_all(created.parent().unwrap()).unwrap();
        std::fs::write(&created, "---\nname: bench-created\n---\nNo description.\n").unwrap();
        let changes = json!([{"uri": created_uri, "type": 1}]);
        create_delete.push(watched_change(&mut server, changes, &created_uri, false));
        preview_after_edit.extend(preview_alice(&mut server, &mut held_preview));
        std::fs::remove_file(&created).unwrap();
        let changes = json!([{"uri": created_uri, "type": 3}]);
        create_delete.push(watched_change(&mut server, changes, &created_uri, true));
        preview_after_edit.extend(preview_alice(&mut server, &mut held_preview));
    }
    let _ = std::fs::remove_dir(created.parent().unwrap());
    report_memory(
        "didChangeWatchedFiles → publishDiagnostics, skill created / deleted",
        &mut create_delete,
        &server,
    );

    // The same in a folder created and deleted with it each time, as an editor's watcher
    // reports it: the folder's event and the file's.
    let mut in_new_folder = Vec::new();
    for i in 0..(edits / 10).max(5) * usize::from(wants("create")) {
        let created = ws.join(format!("skills/bench-folder-{i}/SKILL.md"));
        let created_uri = uri(&created);
        let folder_uri = uri(created.parent().unwrap());
        std::fs::create_dir_all(created.parent().unwrap()).unwrap();
        std::fs::write(&created, "---\nname: bench-created\n---\nNo description.\n").unwrap();
        let changes = json!([{"uri": folder_uri, "type": 1}, {"uri": created_uri, "type": 1}]);
        in_new_folder.push(watched_change(&mut server, changes, &created_uri, false));
        std::fs::remove_file(&created).unwrap();
        std::fs::remove_dir(created.parent().unwrap()).unwrap();
        let changes = json!([{"uri": created_uri, "type": 3}, {"uri": folder_uri, "type": 3}]);
        in_new_folder.push(watched_change(&mut server, changes, &created_uri, true));
    }
    report_memory(
        "didChangeWatchedFiles → publishDiagnostics, skill created in a new folder / deleted",
        &mut in_new_folder,
        &server,
    );

    // A subagent's `skills:` and `tools:` lines.
    let subagent_text = |i: usize| {
        let (skills, tools) = if i.is_multiple_of(2) {
            (
                format!("[{skill_name}, {other_skill}]"),
                "[read_file, grep_files]",
            )
        } else {
            (
                format!("[{skill_name}, no-such-skill]"),
                "[read_file, no_such_tool]",
            )
        };
        format!(
            "---\ndescription: Benchmark helper.\ntools: {tools}\nskills: {skills}\n---\nYou help with benchmarks.\n"
        )
    };
    open_doc(&mut server, &subagent, &subagent_text(0), "markdown");
    let mut samples = Vec::new();
    for i in (1..=edits).filter(|_| wants("subagent")) {
        samples.push(change(
            &mut server,
            &mut version,
            &subagent,
            &subagent_text(i),
        ));
        if i % 5 == 0 {
            preview_after_edit.extend(preview_alice(&mut server, &mut held_preview));
        }
    }
    report_memory(
        "didChange → publishDiagnostics, subagent `tools:` / `skills:` edit",
        &mut samples,
        &server,
    );

    // Requests sent right behind an edit: hover on the skill's `name:` key, completion in the
    // subagent's `skills:` list, definition of its first skill.
    let (mut hovers, mut completions, mut definitions) = (Vec::new(), Vec::new(), Vec::new());
    let skill_uri = uri(&skill);
    let subagent_uri = uri(&subagent);
    // `LSP_BENCH_NO_EDIT` set: the requests alone, to tell their own cost from the wait behind
    // an edit's analysis.
    let edit_first = std::env::var_os("LSP_BENCH_NO_EDIT").is_none();
    for i in (0..edits).filter(|_| wants("requests")) {
        if edit_first {
            version += 1;
            server.notify(
                "textDocument/didChange",
                json!({"textDocument": {"uri": skill_uri, "version": version},
                       "contentChanges": [{"text": format!("{skill_original}\nBehind {i}.\n")}]}),
            );
        }
        let sent = Instant::now();
        server.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": skill_uri}, "position": {"line": 1, "character": 2}}),
        );
        hovers.push(sent.elapsed());
        let sent = Instant::now();
        server.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": subagent_uri}, "position": {"line": 3, "character": 9}}),
        );
        completions.push(sent.elapsed());
        let sent = Instant::now();
        server.request(
            "textDocument/definition",
            json!({"textDocument": {"uri": subagent_uri}, "position": {"line": 3, "character": 10}}),
        );
        definitions.push(sent.elapsed());
    }
    let when = if edit_first {
        "right behind a didChange"
    } else {
        "with no edit in front"
    };
    report(&format!("hover {when}"), &mut hovers);
    report(&format!("completion {when}"), &mut completions);
    report_memory(&format!("definition {when}"), &mut definitions, &server);

    // tools.json deny list.
    open_doc(&mut server, &tools, &tools_original, "json");
    let mut samples = Vec::new();
    for i in (0..(edits / 4).max(10)).filter(|_| wants("tools")) {
        let text = if i.is_multiple_of(2) {
            tools_original.replacen("\"deny\": [", "\"deny\": [\"read_file\", ", 1)
        } else {
            tools_original.clone()
        };
        samples.push(change(&mut server, &mut version, &tools, &text));
        preview_after_edit.extend(preview_alice(&mut server, &mut held_preview));
    }
    report_memory(
        "didChange → publishDiagnostics, tools.json deny list edit",
        &mut samples,
        &server,
    );

    // agentws.toml changed on disk: an unknown key appears and goes.
    let config_uri = uri(&config);
    let mut samples = Vec::new();
    for i in (0..5usize).filter(|_| wants("config")) {
        let text = if i.is_multiple_of(2) {
            format!("{config_original}\n[bench]\nunknown = 1\n")
        } else {
            config_original.clone()
        };
        std::fs::write(&config, &text).unwrap();
        let sent = Instant::now();
        server.notify(
            "workspace/didChangeWatchedFiles",
            json!({"changes": [{"uri": config_uri, "type": 2}]}),
        );
        let want_problems = i.is_multiple_of(2);
        let (at, _) = server.wait(|m| {
            is_publication_of(m, &config_uri)
                && m["params"]["diagnostics"]
                    .as_array()
                    .is_some_and(|d| d.is_empty() != want_problems)
        });
        samples.push(at - sent);
    }
    std::fs::write(&config, &config_original).unwrap();
    report_memory(
        "didChangeWatchedFiles → publishDiagnostics, agentws.toml change",
        &mut samples,
        &server,
    );
    report_memory(
        "agentws/previewPrompt, first (whole) answer",
        &mut first_preview,
        &server,
    );
    report_memory(
        "agentws/previewPrompt after an edit",
        &mut preview_after_edit,
        &server,
    );

    let (before, _) = server.memory();
    for i in (0..soak).filter(|_| wants("soak")) {
        change(
            &mut server,
            &mut version,
            &skill,
            &format!("{skill_original}\nSoak {i}.\n"),
        );
    }
    let (after, peak) = server.memory();
    println!("server memory: VmRSS {before} before and {after} after {soak} more edits, peak VmHWM {peak}");
    server.request("shutdown", Value::Null);
    server.notify("exit", Value::Null);
    let _ = server.child.wait();
}

/// The sections `LSP_BENCH_SECTIONS` names (comma-separated: skill, create, subagent, requests,
/// tools, config, soak), all when unset: to profile one kind of edit alone. `LSP_BENCH_SAMPLES`
/// set also prints each measure's samples in the order they were taken.
fn sections_wanted() -> impl Fn(&str) -> bool {
    let listed: Option<Vec<String>> = std::env::var("LSP_BENCH_SECTIONS")
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect());
    move |section| {
        listed
            .as_ref()
            .is_none_or(|l| l.iter().any(|s| s == section))
    }
}

/// The text of the i-th edit of one kind.
type EditText<'a> = Box<dyn Fn(usize) -> String + 'a>;

/// Initializes the server on the folder `root` (debounce 0, progress reported) and returns the
/// time from `initialized` to the end of indexing, when every file's diagnostics are published.
fn initialize(server: &mut Server, root: &Path) -> Duration {
    server.request(
        "initialize",
        json!({
            "processId": null,
            "rootUri": null,
            "capabilities": {"window": {"workDoneProgress": true}, "workspace": {"configuration": true}},
            "workspaceFolders": [{"uri": uri(root), "name": "bench"}],
            "initializationOptions": {"debounceMs": 0},
        }),
    );
    let started = Instant::now();
    server.notify("initialized", json!({}));
    let (ended, _) =
        server.wait(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end");
    ended - started
}

/// didOpen of `path` with `text` → its publication, reported: the first buffer of a file the
/// server read from disk, whose text becomes an editor's.
fn open_doc(server: &mut Server, path: &Path, text: &str, language: &str) {
    let u = uri(path);
    let sent = Instant::now();
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": u, "languageId": language, "version": 0, "text": text}}),
    );
    // Versioned: a publication of the file read from disk, still queued, is not this one.
    let (at, _) = server.wait(|m| is_publication_of(m, &u) && m["params"]["version"] == 0);
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let what = format!("didOpen → publishDiagnostics, {name} (first buffer of a disk file)");
    report(&what, &mut [at - sent]);
}

/// didChange of `path` to `text` → its publication with that version.
fn change(server: &mut Server, version: &mut i32, path: &Path, text: &str) -> Duration {
    *version += 1;
    let v = *version;
    let u = uri(path);
    let sent = Instant::now();
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": u, "version": v}, "contentChanges": [{"text": text}]}),
    );
    let (at, _) = server.wait(|m| is_publication_of(m, &u) && m["params"]["version"] == v);
    at - sent
}

/// The preview of the user `alice` as the bench client holds it: each answer is the edits of the
/// one before (`previousResultId`), applied here, so the time is until the client has the whole
/// preview. With `LSP_BENCH_WHOLE_PREVIEW` set, every answer is asked whole, as by a client that
/// takes no edits.
#[derive(Default)]
struct HeldPreview {
    result_id: Option<String>,
    answer: Value,
}

/// The round trip of a preview for `alice`; `None` with `LSP_BENCH_NO_PREVIEW` set (to profile
/// the edits alone, the previews being the larger part of the time).
fn preview_alice(server: &mut Server, held: &mut HeldPreview) -> Option<Duration> {
    if std::env::var_os("LSP_BENCH_NO_PREVIEW").is_some() {
        return None;
    }
    let whole = std::env::var_os("LSP_BENCH_WHOLE_PREVIEW").is_some();
    let mut params = json!({"context": {"userId": "alice", "date": "2026-05-04", "os": "Linux", "tmpDir": "/tmp"}});
    if !whole {
        params["previousResultId"] = json!(held.result_id);
    }
    let sent = Instant::now();
    let mut answer = server.request("agentws/previewPrompt", params);
    let Some(result) = answer.get_mut("result").map(Value::take) else {
        panic!("{answer}");
    };
    held.result_id = result["resultId"].as_str().map(str::to_string);
    match result.get("edits") {
        Some(edits) => {
            let edits: Vec<Edit> = serde_json::from_value(edits.clone()).unwrap();
            json_delta::apply(&mut held.answer, &edits).unwrap();
        }
        None => held.answer = result,
    }
    Some(sent.elapsed())
}

fn walk_count(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| {
                    let path = e.unwrap().path();
                    if path.is_dir() {
                        walk_count(&path)
                    } else {
                        1
                    }
                })
                .sum()
        })
        .unwrap_or(0)
}
