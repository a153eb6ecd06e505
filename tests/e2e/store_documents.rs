//! The files of a project's remote store in the editor (docs/protocol.md, "Stored files"): the
//! real server reads a store seeded as the runtime writes it and reports, on `agentws-store:`
//! documents, exactly what `agentws check --all-users` prints for the stored files; it serves their
//! text, follows a store that changes, clears what a project without a store no longer has, and
//! says once that a store cannot be read.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value};

use super::lsp::client::{Client, Options};
use super::lsp::uri;
use super::stores::{self, Row};

/// Per store document URI, its diagnostics as `(code, [start line, start character, end line,
/// end character], message)`, 0-based as LSP counts (the texts are ASCII, so characters are
/// columns).
type Findings = BTreeMap<String, Vec<(String, [u64; 4], String)>>;

/// The document URI of a stored file's printed location: `store:` becomes the scheme and the
/// rest is percent-encoded as a URI path (every `:` of it is `%3A`).
fn document_uri(location: &str) -> String {
    let rest = location.strip_prefix("store:").unwrap();
    let mut out = String::from("agentws-store:///");
    for byte in rest.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// What `agentws check --all-users --format json` reports for the stored files of `project`.
fn check_all_users(project: &Path) -> Findings {
    let out = assert_cmd::Command::cargo_bin("agentws")
        .unwrap()
        .args(["check", project.to_str().unwrap(), "--all-users"])
        .args(["--format", "json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut findings = Findings::new();
    for d in report["diagnostics"].as_array().unwrap() {
        let path = d["path"].as_str().unwrap();
        if !path.starts_with("store:") {
            continue;
        }
        let at = |end: &str, field: &str| d["range"][end][field].as_u64().unwrap() - 1;
        let consequence = d["consequence"].as_str().unwrap();
        let message = match consequence {
            "" => d["message"].as_str().unwrap().to_string(),
            _ => format!("{}\nRuntime: {consequence}", d["message"].as_str().unwrap()),
        };
        findings.entry(document_uri(path)).or_default().push((
            d["code"].as_str().unwrap().to_string(),
            [
                at("start", "line"),
                at("start", "column"),
                at("end", "line"),
                at("end", "column"),
            ],
            message,
        ));
    }
    findings
}

/// The last diagnostics published for `document`, waiting for them when none came yet.
fn published(client: &mut Client, document: &str) -> Value {
    let publishes = |m: &&Value| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == document
    };
    match client.log.iter().rev().find(publishes) {
        Some(m) => m["params"].clone(),
        None => client.wait_diagnostics(document),
    }
}

fn lsp_findings(diagnostics: &Value) -> Vec<(String, [u64; 4], String)> {
    diagnostics
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let r = &d["range"];
            let n = |v: &Value| v.as_u64().unwrap();
            (
                d["code"].as_str().unwrap().to_string(),
                [
                    n(&r["start"]["line"]),
                    n(&r["start"]["character"]),
                    n(&r["end"]["line"]),
                    n(&r["end"]["character"]),
                ],
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// A template project whose `[store]` is the SQLite file `store.db` beside it, seeded with the
/// clean rows (alice's files, bob's broken skill) and carol's rows that each break a store rule.
fn seeded_project(dir: &Path) -> std::path::PathBuf {
    let project = stores::template_with(dir, "[store]\nurl = \"sqlite://store.db\"\n");
    let mut rows = stores::clean_rows();
    rows.extend(stores::problem_rows().into_iter().map(|(row, _)| row));
    stores::seed_sqlite(&project.join("store.db"), stores::Layout::Jdbc, &rows);
    project
}

#[test]
fn stored_files_get_what_check_all_users_prints_and_follow_the_store() {
    let tmp = tempfile::tempdir().unwrap();
    let project = seeded_project(&tmp.path().canonicalize().unwrap());
    let expected = check_all_users(&project);
    // The broken skill of bob and every store rule of carol's rows are among them.
    let broken = "agentws-store:///agents/bot/users/bob/skills%3A/broken/SKILL.md";
    assert!(expected.contains_key(broken), "{expected:#?}");
    let codes: Vec<&str> = expected
        .values()
        .flatten()
        .map(|(code, _, _)| code.as_str())
        .collect();
    for (_, code) in stores::problem_rows() {
        assert!(codes.contains(&code), "{code} not in {codes:?}");
    }

    let (mut client, _) = Client::start(&[&project], Options::default());
    let summary = client.request("agentws/checkStore", json!({"uri": uri(&project)}));
    let count: usize = expected.values().map(Vec::len).sum();
    assert_eq!(summary[0]["store"], "sqlite://store.db", "{summary}");
    assert_eq!(summary[0]["owners"], 3, "{summary}");
    assert_eq!(summary[0]["diagnostics"], count, "{summary}");
    for (document, findings) in &expected {
        let published = published(&mut client, document);
        assert_eq!(
            &lsp_findings(&published["diagnostics"]),
            findings,
            "{document}"
        );
    }

    // The document's text is the stored file's.
    let document = client.request("agentws/storeDocument", json!({"uri": broken}));
    assert_eq!(
        document,
        json!({"origin": "store:agents/bot/users/bob/skills:/broken/SKILL.md", "text": stores::BROKEN_SKILL})
    );
    // VS Code writes the same URI back without the empty authority.
    let written_back = broken.replace(":///", ":/");
    let again = client.request("agentws/storeDocument", json!({"uri": written_back}));
    assert_eq!(again, document);
    let absent = client.call(
        "agentws/storeDocument",
        json!({"uri": "agentws-store:///agents/bot/users/bob/skills%3A/nothing/SKILL.md"}),
    );
    assert_eq!(absent["error"]["data"]["code"], "not-in-store", "{absent}");
    let not_stored = client.call(
        "agentws/storeDocument",
        json!({"uri": uri(&project.join("agentws.toml"))}),
    );
    assert_eq!(not_stored["error"]["code"], -32602, "{not_stored}");

    // A file added to the store is checked after the next save.
    let added = Row {
        owner: "alice",
        segment: "skills",
        key: "/late/SKILL.md",
        value: stores::file_value(stores::BROKEN_SKILL),
    };
    stores::seed_sqlite(&project.join("store.db"), stores::Layout::Jdbc, &[added]);
    let before = std::fs::read(project.join("store.db")).unwrap();
    let late = "agentws-store:///agents/bot/users/alice/skills%3A/late/SKILL.md";
    let skill = project.join(".agentscope/workspace/skills/hello/SKILL.md");
    client.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri(&skill)}}),
    );
    let published = client.wait_diagnostics(late);
    let expected = check_all_users(&project);
    assert_eq!(lsp_findings(&published["diagnostics"]), expected[late]);

    // Without a `[store]`, the stored files' diagnostics are cleared.
    let config = project.join("agentws.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        text.replace("[store]\nurl = \"sqlite://store.db\"\n", ""),
    )
    .unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&config), "type": 2}]}),
    );
    for document in expected.keys() {
        let cleared = client.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == document.as_str()
                && m["params"]["diagnostics"] == json!([])
        });
        assert_eq!(cleared["params"]["diagnostics"], json!([]));
    }
    assert_eq!(
        client.request("agentws/checkStore", json!({"uri": uri(&project)})),
        json!([])
    );
    // Read only.
    assert_eq!(std::fs::read(project.join("store.db")).unwrap(), before);
    assert_eq!(client.shutdown(), 0);
}

/// A client that pulls gets the stored files' diagnostics in every workspace pull.
#[test]
fn a_pulling_client_gets_the_stored_files_in_the_workspace_pull() {
    let tmp = tempfile::tempdir().unwrap();
    let project = seeded_project(&tmp.path().canonicalize().unwrap());
    let expected = check_all_users(&project);
    let (mut client, _) = Client::start(
        &[&project],
        Options {
            pull: true,
            ..Options::default()
        },
    );
    client.request("agentws/checkStore", json!({}));
    let pulled = client.request(
        "workspace/diagnostic",
        json!({"identifier": "agentws", "previousResultIds": []}),
    );
    let mut stored = Findings::new();
    for item in pulled["items"].as_array().unwrap() {
        let document = item["uri"].as_str().unwrap();
        if document.starts_with("agentws-store:") && item["items"] != json!([]) {
            stored.insert(document.to_string(), lsp_findings(&item["items"]));
        }
    }
    assert_eq!(stored, expected);
    assert_eq!(client.shutdown(), 0);
}

/// A store that cannot be read is said once, password masked; the request that asks for a read
/// is refused with the same words.
#[test]
fn an_unreadable_store_is_said_once_without_its_password() {
    let tmp = tempfile::tempdir().unwrap();
    let project = stores::template_with(
        &tmp.path().canonicalize().unwrap(),
        "[store]\nurl = \"sqlite://nope.db?password=hunter2\"\n",
    );
    let (mut client, _) = Client::start(&[&project], Options::default());
    for _ in 0..2 {
        let refused = client.call("agentws/checkStore", json!({"uri": uri(&project)}));
        assert_eq!(
            refused["error"]["data"]["code"], "store-unreadable",
            "{refused}"
        );
        let message = refused["error"]["message"].as_str().unwrap();
        assert!(message.contains("no database file"), "{message}");
        assert!(!message.contains("hunter2"), "{message}");
    }
    let said = match client
        .log
        .iter()
        .find(|m| m["method"] == "window/showMessage")
    {
        Some(said) => said.clone(),
        None => client.wait_for(|m| m["method"] == "window/showMessage"),
    };
    let words = said["params"]["message"].as_str().unwrap();
    assert_eq!(said["params"]["type"], 2, "{said}");
    assert!(
        words.starts_with("agentws could not check the files of the store configured in "),
        "{words}"
    );
    assert!(words.contains("no database file"), "{words}");
    assert!(!words.contains("hunter2"), "{words}");
    // A third failing read, then a request answered after it: still said once.
    let _ = client.call("agentws/checkStore", json!({}));
    let _ = client.request("workspace/symbol", json!({"query": "hello"}));
    let times = client
        .log
        .iter()
        .filter(|m| m["method"] == "window/showMessage")
        .count();
    assert_eq!(times, 1, "{:#?}", client.log);
    assert_eq!(client.shutdown(), 0);
}
