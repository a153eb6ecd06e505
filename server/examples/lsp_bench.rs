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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("normalize") {
        let binary = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/agentws");
        let requests = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(200_000);
        bench_normalize(&binary, requests);
        return;
    }
    let skills: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let subagents: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1_000);
    let binary = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/agentws");
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
    server.request(
        "initialize",
        json!({
            "processId": null,
            "rootUri": null,
            "capabilities": {"window": {"workDoneProgress": true}, "workspace": {"configuration": true}},
            "workspaceFolders": [{"uri": uri(&root), "name": "bench"}],
            "initializationOptions": {"debounceMs": 0},
        }),
    );
    let started = Instant::now();
    server.notify("initialized", json!({}));
    let (ended, _) =
        server.wait(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end");
    println!(
        "initial indexing + full diagnostics published: {}",
        ms(ended - started)
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
