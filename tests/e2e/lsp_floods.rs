//! `agentws serve` under floods and giant messages, end to end over the real binary and its
//! stdio protocol (the client of `lsp.rs`): thousands of edits interleaved with previews,
//! cancelled requests, path-normalizer calls and malformed frames; one `didChange` carrying a
//! very large number of changes; frames and documents over the limits. Every request must be
//! answered (or refused with an error) and the server must keep serving. Nothing asserts on
//! time: the client's patience only guards against hangs.

use serde_json::{json, Value};

use super::lsp::client::{self, Client, Options};
use super::lsp::{copy_fixture, open, uri, ws};

/// The malformed frames of the hardening probe, each followed by a well-formed notification
/// body it announces or not.
fn malformed_frames() -> Vec<Vec<u8>> {
    let note = json!({"jsonrpc": "2.0", "method": "$/noSuchNotification"}).to_string();
    let n = note.len();
    [
        format!("Content-Length: abc\r\n\r\n{note}"),
        // A body without any header (dropped without an answer: it cannot be told apart from
        // the tail of a frame).
        note.clone(),
        format!("garbage without a colon\r\nContent-Length: {n}\r\n\r\n{note}"),
        format!(
            "X-Pad: {}\r\nContent-Length: {n}\r\n\r\n{note}",
            "a".repeat(9000)
        ),
        format!("Content-Length: {n}\r\nContent-Length: 3\r\n\r\n{note}"),
    ]
    .into_iter()
    .map(String::into_bytes)
    .collect()
}

/// 5 000 edits of one skill in a workspace whose preview is over a mebibyte of JSON, with a
/// preview every 200 edits, hover and symbols (the symbols cancelled) every 100, a
/// `normalizePath` every 5 (answered on the reading thread, so its answer races the previews'
/// on the way to stdout) and ten malformed frames: every request gets exactly one answer, the
/// last version's diagnostics are published, and the server ends cleanly. Before the stdout
/// writer kept a partly read frame across its `select!`, a reply written during a large answer
/// cut that answer and the server exited.
#[test]
fn a_flood_of_edits_previews_cancellations_and_bad_frames_is_served_to_the_end() {
    let (_tmp, root) = copy_fixture("lsp-basic");
    let root = root.canonicalize().unwrap();
    let description = "Reads and summarises long documents for the team. ".repeat(18);
    for i in 0..1200 {
        let dir = ws(&root).join(format!("skills/s{i:04}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: s{i:04}\ndescription: {description}\n---\nBody {i}.\n"),
        )
        .unwrap();
    }
    let (mut client, _) = Client::start(&[&root], Options::default());
    let pdf = ws(&root).join("skills/pdf/SKILL.md");
    let text = std::fs::read_to_string(&pdf).unwrap();
    open(&mut client, &pdf, &text, 1);

    let bad = malformed_frames();
    let mut ids = Vec::new();
    let mut previews = Vec::new();
    let mut bad_sent = 0;
    const EDITS: i64 = 5000;
    for version in 2..=EDITS + 1 {
        client.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri(&pdf), "version": version},
                "contentChanges": [{"range": {"start": {"line": 2, "character": 13}, "end": {"line": 2, "character": 13}}, "text": "x"}],
            }),
        );
        if version % 200 == 0 {
            let id = client.send_request("agentws/previewPrompt", json!({"uri": uri(&root)}));
            ids.push(id);
            previews.push(id);
        }
        if version % 100 == 50 {
            let position = json!({"textDocument": {"uri": uri(&pdf)}, "position": {"line": 1, "character": 2}});
            ids.push(client.send_request("textDocument/hover", position));
            let symbols = client.send_request(
                "textDocument/documentSymbol",
                json!({"textDocument": {"uri": uri(&pdf)}}),
            );
            ids.push(symbols);
            client.notify("$/cancelRequest", json!({"id": symbols}));
        }
        if version % 5 == 0 {
            ids.push(client.send_request(
                "agentws/normalizePath",
                json!({"runId": "no-such-run", "path": "notes/a.md"}),
            ));
        }
        if version % 500 == 0 && bad_sent < 10 {
            client.send_raw(&bad[bad_sent % bad.len()]);
            bad_sent += 1;
        }
    }
    assert_eq!(bad_sent, 10);
    let (answers, guard_replies) = client.answers(&ids);
    assert_eq!(answers.len(), ids.len());
    for id in &previews {
        let answer = &answers[id];
        assert!(
            answer["result"]["text"].as_str().unwrap().len() > 1024 * 1024,
            "preview {id}: {}",
            answer.to_string().chars().take(300).collect::<String>()
        );
    }
    for answer in answers.values() {
        assert!(
            answer.get("result").is_some() || answer["error"]["code"].is_i64(),
            "{answer}"
        );
    }
    // The last version's diagnostics are published (perhaps already, while answers came in).
    let is_last = |m: &Value| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri(&pdf)
            && m["params"]["version"] == EDITS + 1
    };
    if !client.log.iter().any(is_last) {
        client.wait_for(is_last);
    }
    // The header-less body is dropped without an answer (docs/protocol.md): eight of the ten.
    let shutdown = client.send_request("shutdown", Value::Null);
    let (_, more) = client.answers(&[shutdown]);
    assert_eq!(
        guard_replies.len() + more.len(),
        8,
        "{guard_replies:?} {more:?}"
    );
    client.notify("exit", Value::Null);
    assert_eq!(client.exit_code(), 0);
}

/// User and system CPU time the process `pid` has used so far (from `/proc/<pid>/stat`).
fn cpu_of(pid: u32) -> std::time::Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command name (in parentheses, which may hold spaces).
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    // SAFETY: sysconf only reads a system constant.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as u64;
    std::time::Duration::from_millis(ticks * 1000 / per_second)
}

/// Keystrokes in the body of a subagent spec of tens of thousands of unknown keys (the YAML
/// node budget allows about 50 000): each edit reads the spec again, and its diagnostics are
/// published capped (1 000 and one WS015). The server had a quadratic reading of the keys, and
/// published every diagnostic each time (docs/benchmarks.md). The server's CPU for 10
/// keystrokes on 48 000 keys over that on 6 000 keys is at most 8 for work linear in the spec
/// (less with the fixed costs of an edit) and 64 for a quadratic reading, less its fixed costs.
#[test]
fn keystrokes_in_a_subagent_of_48000_unknown_keys_cost_what_its_size_does() {
    let keystrokes = |keys: usize| {
        let (_tmp, root) = copy_fixture("lsp-basic");
        let root = root.canonicalize().unwrap();
        let spec = ws(&root).join("subagents/big.md");
        let lines: String = (0..keys).map(|i| format!("k{i}: v\n")).collect();
        let text = format!("---\ndescription: d\n{lines}---\nBody\n");
        let (mut client, _) = Client::start(&[&root], Options::default());
        open(&mut client, &spec, &text, 1);
        client.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri(&spec)
                && m["params"]["version"] == 1
        });
        let pid = client.child.id();
        let before = cpu_of(pid);
        let body_line = keys + 3;
        let mut last = Value::Null;
        for version in 2..12 {
            client.notify(
                "textDocument/didChange",
                json!({
                    "textDocument": {"uri": uri(&spec), "version": version},
                    "contentChanges": [{"range": {"start": {"line": body_line, "character": 0}, "end": {"line": body_line, "character": 0}}, "text": "x"}],
                }),
            );
            last = client.wait_for(|m| {
                m["method"] == "textDocument/publishDiagnostics"
                    && m["params"]["uri"] == uri(&spec)
                    && m["params"]["version"] == version
            });
        }
        let cpu = cpu_of(pid) - before;
        assert_eq!(client.shutdown(), 0);
        (cpu, last)
    };
    let (small, _) = keystrokes(6_000);
    let (large, published) = keystrokes(48_000);
    let diagnostics = published["params"]["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1001);
    assert!(diagnostics[..1000].iter().all(|d| d["code"] == "SA016"));
    assert_eq!(diagnostics[1000]["code"], "WS015");
    assert_eq!(
        diagnostics[1000]["message"]
            .as_str()
            .unwrap()
            .lines()
            .next(),
        Some(
            "47000 more problems in this file not listed (47000 infos): agentws lists the first \
             1000 of a file"
        )
    );
    let ratio = large.as_secs_f64() / small.as_secs_f64().max(0.01);
    assert!(
        ratio < 10.0,
        "10 keystrokes took {large:?} of CPU with 48 000 keys, {small:?} with 6 000: {ratio:.1} \
         times as much"
    );
}

/// One `didChange` carrying `changes` incremental changes of a skill's heading (each an `x`
/// inserted after the previous one, in UTF-16 positions, before a CJK text): the server's CPU
/// for the message and the heading's symbol then.
fn one_message_of_changes(changes: usize) -> (std::time::Duration, String) {
    let (_tmp, root) = copy_fixture("lsp-basic");
    let root = root.canonicalize().unwrap();
    let pdf = ws(&root).join("skills/pdf/SKILL.md");
    let text = std::fs::read_to_string(&pdf).unwrap();
    assert_eq!(text.lines().nth(4), Some("# PDF 处理"));
    let (mut client, _) = Client::start(&[&root], Options::default());
    open(&mut client, &pdf, &text, 1);
    let published = |version: i64| {
        let uri = uri(&pdf);
        move |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri.as_str()
                && m["params"]["version"] == version
        }
    };
    client.wait_for(published(1));
    let events: Vec<Value> = (0..changes)
        .map(|i| {
            let at = json!({"line": 4, "character": 2 + i});
            json!({"range": {"start": at, "end": at}, "text": "x"})
        })
        .collect();
    let pid = client.child.id();
    let before = cpu_of(pid);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&pdf), "version": 2}, "contentChanges": events}),
    );
    client.wait_for(published(2));
    let cpu = cpu_of(pid) - before;
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&pdf)}}),
    );
    let heading = symbols
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["name"].as_str())
        .find(|name| name.starts_with('x'))
        .unwrap_or_else(|| panic!("{symbols}"))
        .to_string();
    assert_eq!(client.shutdown(), 0);
    (cpu, heading)
}

/// One `didChange` of 100 000 changes is applied whole and in order, in time linear in the
/// changes: the server rebuilt a line index of the document and shifted its text for every
/// change (docs/benchmarks.md). The server's CPU for 100 000 changes over
/// that for 12 500 is about 8 when linear (less with the fixed costs) and 64 when quadratic.
#[test]
fn one_did_change_of_100000_changes_is_applied_in_linear_time() {
    let (small, small_heading) = one_message_of_changes(12_500);
    let (large, heading) = one_message_of_changes(100_000);
    let expected = |n: usize| format!("{}PDF 处理", "x".repeat(n));
    assert!(small_heading == expected(12_500), "{}", small_heading.len());
    assert!(heading == expected(100_000), "{}", heading.len());
    let ratio = large.as_secs_f64() / small.as_secs_f64().max(0.01);
    assert!(
        ratio < 20.0,
        "100 000 changes took {large:?} of CPU, 12 500 {small:?}: {ratio:.1} times as much"
    );
}

/// A 70 MB frame (a document over the 64 MiB limit) is refused at once, without being read
/// into memory: an error for the frame, a message the editor shows, and the next request is
/// answered. A 48 MB frame of `\u0000` escapes (an 8 MB document of NUL characters) is under the
/// limit: it is read, and the document is served.
#[test]
fn a_frame_over_the_limit_is_refused_visibly_and_the_server_goes_on() {
    let (_tmp, root) = copy_fixture("lsp-basic");
    let root = root.canonicalize().unwrap();
    let agents = ws(&root).join("AGENTS.md");
    let (mut client, _) = Client::start(&[&root], Options::default());
    let did_open = |text: &str| {
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri(&agents), "languageId": "markdown", "version": 1, "text": text}}}).to_string()
    };
    let giant = did_open(&"a".repeat(70_000_000));
    client.send_raw(&client::frame(&giant));
    let refused = client.wait_for(|m| m["id"].is_null() && m.get("error").is_some());
    assert_eq!(refused["error"]["code"], -32600);
    assert_eq!(
        refused["error"]["message"],
        format!(
            "message of {} bytes is larger than the limit of 67108864 bytes; skipped",
            giant.len()
        )
    );
    let shown = client.wait_for(|m| m["method"] == "window/showMessage");
    assert_eq!(shown["params"]["type"], 1);
    assert_eq!(
        shown["params"]["message"],
        format!(
            "agentws refused a message of {} bytes (the limit is 64 MiB): a document it carried \
             is not analysed, and a request in it gets no answer",
            giant.len()
        )
    );
    let status = client.request("agentws/fileStatus", json!({"uri": uri(&agents)}));
    assert_eq!(status["kind"], "agents-md");
    assert!(status["version"].is_null(), "{status}");

    let nul = did_open(&"\u{0}".repeat(8_000_000));
    assert!(nul.len() > 48_000_000);
    client.send_raw(&client::frame(&nul));
    let status = client.request("agentws/fileStatus", json!({"uri": uri(&agents)}));
    assert_eq!(status["version"], 1, "{status}");
    assert_eq!(client.shutdown(), 0);
}

/// Resident memory of the process `pid`, in KiB.
fn rss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
        .unwrap()
}

/// Three 20 MB documents opened, edited and closed: the memory their texts took is handed back
/// to the system once they are closed (glibc kept the freed pages, and the project the last
/// snapshot). What stays does not grow with the number of documents (docs/benchmarks.md).
#[test]
fn memory_taken_by_large_documents_is_given_back_when_they_close() {
    let (_tmp, root) = copy_fixture("lsp-basic");
    let root = root.canonicalize().unwrap();
    let (mut client, _) = Client::start(&[&root], Options::default());
    let pid = client.child.id();
    let files =
        ["AGENTS.md", "skills/pdf/SKILL.md", "subagents/reviewer.md"].map(|f| ws(&root).join(f));
    // Indexing is over once a request on the project is answered.
    client.request("agentws/fileStatus", json!({"uri": uri(&files[0])}));
    let start = rss_kb(pid);
    let text = "lorem ipsum dolor sit amet, consectetur adipiscing\n".repeat(400_000);
    for file in &files {
        open(&mut client, file, &text, 1);
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(file), "version": 2}, "contentChanges": [{"range": {"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 0}}, "text": "x"}]}),
        );
    }
    let status = client.request("agentws/fileStatus", json!({"uri": uri(&files[2])}));
    assert_eq!(status["version"], 2);
    let opened = rss_kb(pid);
    for file in &files {
        client.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": uri(file)}}),
        );
    }
    // The close is taken and the diagnostics published again (a refresh) before this answer.
    let status = client.request("agentws/fileStatus", json!({"uri": uri(&files[2])}));
    assert!(status["version"].is_null(), "{status}");
    let mut closed = rss_kb(pid);
    for _ in 0..50 {
        if opened - closed > (opened - start) / 2 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        closed = rss_kb(pid);
    }
    assert!(
        opened - closed > (opened - start) / 2,
        "resident memory {start} kB before opening, {opened} kB with the documents open, \
         {closed} kB after they closed"
    );
    assert_eq!(client.shutdown(), 0);
}

/// A document grown past the 64 MiB limit by its changes (each message under the limit) is no
/// longer followed: the editor is told, the file on disk is analysed instead, and the server
/// goes on.
#[test]
fn a_document_grown_past_the_limit_is_no_longer_followed_and_the_user_is_told() {
    let (_tmp, root) = copy_fixture("lsp-basic");
    let root = root.canonicalize().unwrap();
    let agents = ws(&root).join("AGENTS.md");
    let (mut client, _) = Client::start(&[&root], Options::default());
    open(&mut client, &agents, &"a".repeat(40 << 20), 1);
    let status = client.request("agentws/fileStatus", json!({"uri": uri(&agents)}));
    assert_eq!(status["version"], 1);
    let at = json!({"line": 0, "character": 0});
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&agents), "version": 2}, "contentChanges": [{"range": {"start": at, "end": at}, "text": "b".repeat(30 << 20)}]}),
    );
    let shown = client.wait_for(|m| m["method"] == "window/showMessage");
    assert_eq!(shown["params"]["type"], 1);
    assert_eq!(
        shown["params"]["message"],
        format!(
            "agentws stopped following `{}`: the document is {} bytes, over the limit of 64 MiB; \
             its file on disk is analysed instead (close and reopen it once it is smaller)",
            agents.display(),
            70 << 20
        )
    );
    let status = client.request("agentws/fileStatus", json!({"uri": uri(&agents)}));
    assert!(status["version"].is_null(), "{status}");
    assert_eq!(status["kind"], "agents-md");
    // Later changes of the document are ignored; the server answers on.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&agents), "version": 3}, "contentChanges": [{"text": "small"}]}),
    );
    let status = client.request("agentws/fileStatus", json!({"uri": uri(&agents)}));
    assert!(status["version"].is_null(), "{status}");
    assert_eq!(client.shutdown(), 0);
}
