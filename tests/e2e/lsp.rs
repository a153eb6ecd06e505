//! `agentws serve` end to end: the real binary spoken to over stdio by a small in-house JSON-RPC
//! client (`client` below), covering every method, push and pull diagnostics, both position
//! encodings, watched files, configuration reload and bad input. The Neovim test drives a real
//! editor against the same binary.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::support::{copy_tree, fixture};
use client::{Client, Options};

/// The client side of the wire, shared with `lsp_bench`.
#[path = "../../server/examples/shared/lsp_wire.rs"]
mod wire;

pub mod client {
    //! A minimal LSP client: frames, request/response matching, automatic answers to the
    //! server's requests (progress tokens, registrations, configuration), and a log of every
    //! notification received. Timeouts only guard against hangs; nothing asserts on time.

    use std::io::Write;
    use std::process::{Child, ChildStdin, Command, Stdio};
    use std::sync::mpsc::{Receiver, RecvTimeoutError};
    use std::time::{Duration, Instant};

    use serde_json::{json, Value};

    pub const PATIENCE: Duration = Duration::from_secs(60);

    pub struct Options {
        pub utf8: bool,
        pub pull: bool,
        pub progress: bool,
        pub watch: bool,
        pub configuration: Option<Value>,
        pub init_options: Value,
        /// A file that takes the server's log (stderr, at level `debug`); none by default.
        pub log: Option<std::path::PathBuf>,
        /// Variables set in the server's environment.
        pub env: Vec<(&'static str, &'static str)>,
    }

    impl Default for Options {
        fn default() -> Self {
            Options {
                utf8: false,
                pull: false,
                progress: false,
                watch: true,
                configuration: None,
                init_options: json!({"debounceMs": 0}),
                log: None,
                env: Vec::new(),
            }
        }
    }

    pub struct Client {
        pub child: Child,
        stdin: Option<ChildStdin>,
        incoming: Receiver<(Instant, Value)>,
        next_id: i64,
        /// Every message from the server that was not a response to us, in arrival order.
        pub log: Vec<Value>,
        /// Responses that arrived while another message was waited for, in arrival order.
        pub unclaimed: Vec<Value>,
        configuration: Option<Value>,
    }

    use super::wire;
    pub use wire::frame;

    impl Client {
        /// Spawns the server with `env` added to the environment (and no rule-links base from
        /// the test's own); its log at level `debug` goes to `log` when given.
        pub fn spawn(env: &[(&str, &str)], log: Option<&std::path::Path>) -> Client {
            let mut command = Command::new(env!("CARGO_BIN_EXE_agentws"));
            command
                .arg("serve")
                .env_remove("AGENTWS_RULES_URL")
                .envs(env.iter().copied())
                .stdin(Stdio::piped())
                .stdout(Stdio::piped());
            match log {
                Some(path) => command
                    .env("AGENTWS_LOG", "debug")
                    .stderr(std::fs::File::create(path).expect("log file")),
                None => command.stderr(Stdio::null()),
            };
            let mut child = command.spawn().expect("spawn agentws serve");
            let incoming = wire::read_frames(child.stdout.take().unwrap());
            Client {
                stdin: child.stdin.take(),
                child,
                incoming,
                next_id: 0,
                log: Vec::new(),
                unclaimed: Vec::new(),
                configuration: None,
            }
        }

        /// Spawns and initializes with `root` as the only workspace folder.
        pub fn start(roots: &[&std::path::Path], options: Options) -> (Client, Value) {
            let mut client = Client::spawn(&options.env, options.log.as_deref());
            client.configuration = options.configuration.clone();
            let folders: Vec<Value> = roots
                .iter()
                .map(|r| json!({"uri": super::uri(r), "name": r.file_name().unwrap().to_string_lossy()}))
                .collect();
            let mut capabilities = json!({
                "general": {"positionEncodings": if options.utf8 { json!(["utf-8", "utf-16"]) } else { json!(["utf-16"]) }},
                "window": {"workDoneProgress": options.progress},
                "workspace": {
                    "didChangeWatchedFiles": {"dynamicRegistration": options.watch},
                    "configuration": options.configuration.is_some(),
                    "diagnostics": {"refreshSupport": options.pull},
                    "workspaceEdit": {"documentChanges": true, "resourceOperations": ["rename"]},
                },
                "textDocument": {"publishDiagnostics": {"versionSupport": true}},
            });
            if options.pull {
                capabilities["textDocument"]["diagnostic"] = json!({"dynamicRegistration": false});
            }
            let result = client.request(
                "initialize",
                json!({
                    "processId": null,
                    "rootUri": null,
                    "capabilities": capabilities,
                    "workspaceFolders": folders,
                    "initializationOptions": options.init_options,
                }),
            );
            client.notify("initialized", json!({}));
            (client, result)
        }

        pub fn send_raw(&mut self, bytes: &[u8]) {
            let stdin = self.stdin.as_mut().expect("stdin open");
            stdin.write_all(bytes).unwrap();
            stdin.flush().unwrap();
        }

        pub fn notify(&mut self, method: &str, params: Value) {
            let body = json!({"jsonrpc": "2.0", "method": method, "params": params}).to_string();
            self.send_raw(&frame(&body));
        }

        /// Sends a request without waiting for its answer; returns its id.
        pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
            self.next_id += 1;
            let id = self.next_id;
            let body =
                json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
            self.send_raw(&frame(&body));
            id
        }

        /// Sends a request and returns the whole response object (`result` or `error`).
        pub fn call(&mut self, method: &str, params: Value) -> Value {
            self.next_id += 1;
            let id = self.next_id;
            let body =
                json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
            self.send_raw(&frame(&body));
            self.wait_for(|m| m.get("id") == Some(&json!(id)) && m.get("method").is_none())
        }

        /// The `result` of a request; panics on an error answer.
        pub fn request(&mut self, method: &str, params: Value) -> Value {
            let response = self.call(method, params);
            assert!(
                response.get("error").is_none(),
                "{method} failed: {response}"
            );
            response["result"].clone()
        }

        fn answer(&mut self, message: &Value) {
            let method = message["method"].as_str().unwrap_or("");
            let result = match method {
                "workspace/configuration" => {
                    let items = message["params"]["items"]
                        .as_array()
                        .map(Vec::len)
                        .unwrap_or(0);
                    let value = self.configuration.clone().unwrap_or(Value::Null);
                    Value::Array(vec![value; items])
                }
                _ => Value::Null,
            };
            let body = json!({"jsonrpc": "2.0", "id": message["id"], "result": result}).to_string();
            self.send_raw(&frame(&body));
        }

        /// Waits for a message matching `pred` (answering server requests meanwhile); returns it.
        pub fn wait_for(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
            let deadline = Instant::now() + PATIENCE;
            loop {
                let left = deadline.saturating_duration_since(Instant::now());
                let message = match self.incoming.recv_timeout(left) {
                    Ok((_, m)) => m,
                    Err(RecvTimeoutError::Timeout) => {
                        panic!("no matching message; log: {:#?}", self.log)
                    }
                    Err(RecvTimeoutError::Disconnected) => {
                        panic!("server closed stdout; log: {:#?}", self.log)
                    }
                };
                let is_server_request =
                    message.get("method").is_some() && message.get("id").is_some();
                if is_server_request {
                    self.answer(&message);
                }
                if pred(&message) {
                    if message.get("method").is_some() {
                        self.log.push(message.clone());
                    }
                    return message;
                }
                if message.get("method").is_some() {
                    self.log.push(message);
                } else {
                    self.unclaimed.push(message);
                }
            }
        }

        /// Waits until every request of `ids` is answered (with a result or an error); returns
        /// the answers by id and the guard's replies (`id: null`) that arrived meanwhile.
        pub fn answers(
            &mut self,
            ids: &[i64],
        ) -> (std::collections::HashMap<i64, Value>, Vec<Value>) {
            let mut answers = std::collections::HashMap::new();
            let mut unidentified = Vec::new();
            while ids.iter().any(|id| !answers.contains_key(id)) {
                let answer = self.wait_for(|m| m.get("method").is_none());
                match answer["id"].as_i64() {
                    Some(id) => {
                        assert!(
                            answers.insert(id, answer.clone()).is_none(),
                            "answered twice: {answer}"
                        );
                    }
                    None => unidentified.push(answer),
                }
            }
            (answers, unidentified)
        }

        /// Waits for the next `publishDiagnostics` for `uri`; returns its params.
        pub fn wait_diagnostics(&mut self, uri: &str) -> Value {
            let uri = uri.to_string();
            self.wait_for(move |m| {
                m["method"] == "textDocument/publishDiagnostics"
                    && m["params"]["uri"] == uri.as_str()
            })["params"]
                .clone()
        }

        pub fn close_stdin(&mut self) {
            self.stdin.take();
        }

        /// Sends shutdown and exit (stdin stays open) and returns the exit code.
        pub fn shutdown(mut self) -> i32 {
            self.request("shutdown", Value::Null);
            self.notify("exit", Value::Null);
            self.exit_code()
        }

        /// Waits for the process to end (bounded, against hangs); its exit code.
        pub fn exit_code(&mut self) -> i32 {
            let deadline = Instant::now() + PATIENCE;
            loop {
                if let Some(status) = self.child.try_wait().unwrap() {
                    return status.code().unwrap_or(-1);
                }
                assert!(Instant::now() < deadline, "server did not exit");
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }

    impl Drop for Client {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

pub fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// The markdown of the hover at a position (empty when there is none).
fn hover_text(client: &mut Client, path: &Path, line: u32, character: u32) -> String {
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(path)}, "position": {"line": line, "character": character}}),
    );
    hover["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Decodes `%XX` escapes of a file URI's path (the server encodes spaces and other characters).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap()
}

/// A private copy of a fixture (tests that write files must not touch the repository).
pub fn copy_fixture(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join(name);
    copy_tree(&fixture(name), &target);
    (dir, target)
}

pub fn ws(root: &Path) -> PathBuf {
    root.join(".agentscope/workspace")
}

pub fn open(client: &mut Client, path: &Path, text: &str, version: i64) {
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri(path), "languageId": "markdown", "version": version, "text": text}}),
    );
}

fn codes(diagnostics: &Value) -> Vec<String> {
    diagnostics
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

fn symbol_names(symbols: &Value) -> Vec<String> {
    let mut names: Vec<String> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn initialize_negotiates_utf8_and_indexing_progress_ends_after_diagnostics() {
    let root = fixture("lsp-basic");
    let (mut client, init) = Client::start(
        &[&root],
        Options {
            utf8: true,
            progress: true,
            ..Options::default()
        },
    );
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-8");
    assert_eq!(init["capabilities"]["textDocumentSync"]["change"], 2);
    assert_eq!(init["serverInfo"]["name"], "agentws");
    let end =
        client.wait_for(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end");
    assert_eq!(end["params"]["token"], "agentws/indexing");
    // The loop's diagnostic was published before the end of indexing.
    let loop_uri = uri(&ws(&root).join("skills/loop"));
    let published = client
        .log
        .iter()
        .position(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == loop_uri.as_str()
        })
        .expect("diagnostics published during indexing");
    let ended = client.log.iter().position(|m| m == &end).unwrap();
    assert!(published < ended);
    let begin = client
        .log
        .iter()
        .position(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "begin")
        .unwrap();
    assert!(begin < published);
    let diag = &client.log[published]["params"]["diagnostics"][0];
    assert_eq!(diag["code"], "WS006");
    assert_eq!(diag["source"], "agentws");
    assert_eq!(
        diag["codeDescription"]["href"],
        format!("{}#ws006", agentws::rules::docs::DEFAULT_DOCS_URL)
    );
    assert!(diag["message"].as_str().unwrap().contains("\nRuntime: "));
    // File watchers were registered dynamically.
    let registration = client
        .log
        .iter()
        .find(|m| m["method"] == "client/registerCapability")
        .expect("watchers registered");
    let reg = &registration["params"]["registrations"][0];
    assert_eq!(reg["method"], "workspace/didChangeWatchedFiles");
    let globs: Vec<&str> = reg["registerOptions"]["watchers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["globPattern"].as_str().unwrap())
        .collect();
    assert!(globs.contains(&"**/agentws.toml") && globs.contains(&"**/SKILL.md"));
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn utf16_incremental_edits_with_cjk_emoji_and_crlf() {
    let (_tmp, root) = copy_fixture("lsp-basic");
    let (mut client, init) = Client::start(&[&root], Options::default());
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
    let path = ws(&root).join("skills/pdf/SKILL.md");
    let text = "---\r\nname: pdf\r\ndescription: 読む😀\r\n---\r\n# 見出し😀\r\n";
    open(&mut client, &path, text, 1);
    // Insert "X" right after the emoji of the heading: line 4, UTF-16 column 2 + 3 + 2 = 7.
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri(&path), "version": 2},
            "contentChanges": [{"range": {"start": {"line": 4, "character": 7}, "end": {"line": 4, "character": 7}}, "text": "X\r\n## 二"}],
        }),
    );
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&path)}}),
    );
    let headings: Vec<(String, Value)> = symbols
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == 15)
        .map(|s| (s["name"].as_str().unwrap().to_string(), s["range"].clone()))
        .collect();
    assert_eq!(
        headings,
        vec![
            (
                "見出し😀X".to_string(),
                json!({"start": {"line": 4, "character": 0}, "end": {"line": 4, "character": 8}})
            ),
            (
                "二".to_string(),
                json!({"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 4}})
            ),
        ]
    );
    let keys: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == 7)
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(keys, vec!["name", "description"]);
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn utf8_positions_count_bytes() {
    let (_tmp, root) = copy_fixture("lsp-basic");
    let (mut client, _) = Client::start(
        &[&root],
        Options {
            utf8: true,
            ..Options::default()
        },
    );
    let path = ws(&root).join("skills/pdf/SKILL.md");
    open(&mut client, &path, "---\nname: pdf\n---\n# 見😀\n", 1);
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri(&path), "version": 2},
            // byte column 2 + 3 + 4 = 9 is right after the emoji
            "contentChanges": [{"range": {"start": {"line": 3, "character": 9}, "end": {"line": 3, "character": 9}}, "text": "Z"}],
        }),
    );
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&path)}}),
    );
    let heading = symbols
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["kind"] == 15)
        .unwrap()
        .clone();
    assert_eq!(heading["name"], "見😀Z");
    assert_eq!(heading["range"]["end"], json!({"line": 3, "character": 10}));
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn pull_diagnostics_match_push_and_refresh_after_config_change() {
    let (_tmp, root) = copy_fixture("lsp-basic");
    let (mut client, init) = Client::start(
        &[&root],
        Options {
            pull: true,
            ..Options::default()
        },
    );
    assert_eq!(
        init["capabilities"]["diagnosticProvider"]["workspaceDiagnostics"],
        true
    );
    let loop_path = ws(&root).join("skills/loop");
    let report = client.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri(&loop_path)}}),
    );
    assert_eq!(report["kind"], "full");
    assert_eq!(codes(&report["items"]), vec!["WS006"]);
    let all = client.request("workspace/diagnostic", json!({"previousResultIds": []}));
    let items = all["items"].as_array().unwrap();
    let with_problems: Vec<&str> = items
        .iter()
        .filter(|i| !i["items"].as_array().unwrap().is_empty())
        .map(|i| i["uri"].as_str().unwrap())
        .collect();
    let broken = uri(&ws(&root).join("skills/broken/SKILL.md"));
    assert_eq!(
        with_problems,
        vec![broken.as_str(), uri(&loop_path).as_str()]
    );
    assert!(items
        .iter()
        .any(|i| i["uri"] == uri(&ws(&root).join("skills/pdf/SKILL.md")).as_str()));
    // No push in pull mode.
    assert!(!client
        .log
        .iter()
        .any(|m| m["method"] == "textDocument/publishDiagnostics"));

    // agentws.toml changes: configuration reloads and the client is asked to pull again.
    std::fs::write(root.join("agentws.toml"), "workspace = \"elsewhere\"\n").unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&root.join("agentws.toml")), "type": 2}]}),
    );
    client.wait_for(|m| m["method"] == "workspace/diagnostic/refresh");
    let status = client.request("agentws/fileStatus", json!({"uri": uri(&loop_path)}));
    assert_eq!(
        status["project"]["workspace"],
        root.join("elsewhere").to_string_lossy().as_ref()
    );
    let report = client.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri(&loop_path)}}),
    );
    assert_eq!(codes(&report["items"]), Vec::<String>::new());
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn watched_file_creates_deletes_and_folder_renames_update_the_index() {
    let (_tmp, root) = copy_fixture("lsp-basic");
    let (mut client, _) = Client::start(&[&root], Options::default());
    let skills = ws(&root).join("skills");
    // The publisher may fall behind fast edits and never show a state that is already gone, so
    // the loop's diagnostic is seen before it is deleted (its clearing is asserted below).
    let loop_uri = uri(&skills.join("loop"));
    let looped = client.wait_diagnostics(loop_uri.as_str());
    assert_eq!(looped["diagnostics"].as_array().map(Vec::len), Some(1));
    let names = |client: &mut Client| {
        let symbols = client.request("workspace/symbol", json!({"query": ""}));
        symbol_names(&symbols)
    };
    assert_eq!(names(&mut client), vec!["broken", "pdf", "reviewer"]);

    std::fs::create_dir_all(skills.join("docx")).unwrap();
    std::fs::write(
        skills.join("docx/SKILL.md"),
        "---\nname: docx\ndescription: d\n---\nbody\n",
    )
    .unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&skills.join("docx/SKILL.md")), "type": 1}]}),
    );
    assert_eq!(
        names(&mut client),
        vec!["broken", "docx", "pdf", "reviewer"]
    );

    std::fs::rename(skills.join("docx"), skills.join("word")).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&skills.join("docx")), "type": 3}, {"uri": uri(&skills.join("word")), "type": 1}]}),
    );
    let symbols = client.request("workspace/symbol", json!({"query": "docx"}));
    assert_eq!(
        symbols[0]["location"]["uri"],
        uri(&skills.join("word/SKILL.md")).as_str()
    );

    // Deleting the loop clears its published diagnostics.
    std::fs::remove_file(skills.join("loop")).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&skills.join("loop")), "type": 3}]}),
    );
    let cleared = client.wait_for(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == loop_uri.as_str()
            && m["params"]["diagnostics"] == json!([])
    });
    assert_eq!(cleared["params"]["diagnostics"], json!([]));
    std::fs::remove_dir_all(skills.join("word")).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&skills.join("word")), "type": 3}]}),
    );
    assert_eq!(names(&mut client), vec!["broken", "pdf", "reviewer"]);
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn push_diagnostics_are_versioned_and_cleared_on_close_outside_the_workspace() {
    let (tmp, root) = copy_fixture("lsp-basic");
    let (mut client, _) = Client::start(
        &[&root],
        Options {
            configuration: Some(json!({"debounceMs": 0})),
            ..Options::default()
        },
    );
    // An open buffer is published with its version.
    let pdf = ws(&root).join("skills/pdf/SKILL.md");
    open(
        &mut client,
        &pdf,
        "---\nname: pdf\ndescription: x\n---\nbody\n",
        7,
    );
    let published = client.wait_diagnostics(&uri(&pdf));
    assert_eq!(published["version"], 7);

    // A project outside every workspace folder: published while open, cleared on close.
    let outside = tmp.path().join("other");
    let skills = outside.join(".agentscope/workspace/skills");
    std::fs::create_dir_all(&skills).unwrap();
    std::os::unix::fs::symlink(".", skills.join("loop")).unwrap();
    let file = skills.join("a/SKILL.md");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "x").unwrap();
    open(&mut client, &file, "x", 1);
    let loop_uri = uri(&skills.join("loop"));
    let first = client.wait_diagnostics(&loop_uri);
    assert_eq!(codes(&first["diagnostics"]), vec!["WS006"]);
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri(&file)}}),
    );
    let cleared = client.wait_diagnostics(&loop_uri);
    assert_eq!(cleared["diagnostics"], json!([]));
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn malformed_frames_unknown_methods_and_positions_past_the_end() {
    let root = fixture("lsp-basic");
    let (mut client, _) = Client::start(&[&root], Options::default());
    client.send_raw(&client::frame("{this is not json"));
    let parse_error = client.wait_for(|m| m.get("error").is_some() && m["id"].is_null());
    assert_eq!(parse_error["error"]["code"], -32700);
    client.send_raw(&client::frame(
        r#"{"jsonrpc":"1.0","id":41,"method":"initialize"}"#,
    ));
    let invalid = client.wait_for(|m| m["id"] == 41);
    assert_eq!(invalid["error"]["code"], -32600);
    client.send_raw(&client::frame("42"));
    let not_an_object = client.wait_for(|m| m.get("error").is_some() && m["id"].is_null());
    assert_eq!(not_an_object["error"]["code"], -32600);
    client.send_raw(b"Content-Length: nope\r\n\r\n");
    let bad_header = client.wait_for(|m| m.get("error").is_some() && m["id"].is_null());
    assert_eq!(bad_header["error"]["code"], -32700);

    let unknown = client.call("agentws/noSuchMethod", json!({}));
    assert_eq!(unknown["error"]["code"], -32601);

    let pdf = ws(&root).join("skills/pdf/SKILL.md");
    open(&mut client, &pdf, "---\nname: pdf\n---\n", 1);
    let far =
        json!({"textDocument": {"uri": uri(&pdf)}, "position": {"line": 9999, "character": 9999}});
    assert_eq!(
        client.request("textDocument/hover", far.clone()),
        Value::Null
    );
    assert_eq!(
        client.request("textDocument/completion", far.clone()),
        Value::Null
    );
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri(&pdf), "version": 2},
            "contentChanges": [{"range": {"start": {"line": 500, "character": 3}, "end": {"line": 900, "character": 0}}, "text": "# end\n"}],
        }),
    );
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&pdf)}}),
    );
    assert!(symbol_names(&symbols).contains(&"end".to_string()));
    // Still serving after all of it.
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn every_malformed_header_is_answered_once_and_the_next_request_gets_its_answer() {
    let root = fixture("lsp-basic");
    let pdf = ws(&root).join("skills/pdf/SKILL.md");
    let (mut client, _) = Client::start(&[&root], Options::default());
    let body = json!({"jsonrpc": "2.0", "method": "$/noSuchNotification"}).to_string();
    let n = body.len();
    let forms: Vec<String> = vec![
        format!("Content-Length: abc\r\n\r\n{body}"),
        format!("X-Other: 1\r\n\r\n{body}"),
        format!("Content-Length: {n}\r\nthis line has no colon\r\n\r\n{body}"),
        format!(
            "Content-Length: {n}\r\nX-Pad: {}\r\n\r\n{body}",
            "a".repeat(9000)
        ),
        format!("Content-Length: {n}\r\nContent-Length: {n}\r\n\r\n{body}"),
        format!("Content-Length: {n}\r\nContent-Length: 7\r\n\r\n{body}"),
    ];
    // Sends `bytes` then a fileStatus request; waits for its answer and for the parse errors
    // (id null) to add up to `errors_by_then`. A guard reply and a later request's answer may
    // reach the client in either order, so errors are counted over the whole exchange.
    let parse_errors = std::cell::Cell::new(0);
    let exchange = |client: &mut Client, bytes: &[u8], id: i64, errors_by_then: usize| {
        let mut raw = bytes.to_vec();
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "agentws/fileStatus", "params": {"uri": uri(&pdf)}});
        raw.extend(client::frame(&call.to_string()));
        client.send_raw(&raw);
        let answer = std::cell::RefCell::new(Value::Null);
        client.wait_for(|m| {
            if m["id"].is_null() && m.get("error").is_some() {
                assert_eq!(m["error"]["code"], -32700, "{m}");
                parse_errors.set(parse_errors.get() + 1);
            }
            if m["id"] == id {
                *answer.borrow_mut() = m.clone();
            }
            !answer.borrow().is_null() && parse_errors.get() >= errors_by_then
        });
        answer.into_inner()
    };
    for (i, form) in forms.iter().enumerate() {
        let answer = exchange(&mut client, form.as_bytes(), 100 + i as i64, i + 1);
        assert_eq!(
            answer["result"]["kind"], "skill",
            "after form {i}: {answer}"
        );
    }
    // All of them in one write, then a request. The header-less form goes first: right after a
    // body of unknown length it would read as the rest of that body (docs/protocol.md).
    let mut all = forms.clone();
    all.swap(0, 1);
    let answer = exchange(&mut client, all.concat().as_bytes(), 200, 2 * forms.len());
    assert_eq!(answer["result"]["kind"], "skill");
    // Every guard reply sent before this answer has arrived by now: one error per bad frame.
    let answer = exchange(&mut client, b"", 201, 2 * forms.len());
    assert_eq!(parse_errors.get(), 2 * forms.len());
    let status = &answer["result"];
    assert_eq!(status["kind"], "skill");
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn dollar_requests_and_wrong_versions_are_refused_with_their_id() {
    let root = fixture("lsp-basic");
    let (mut client, _) = Client::start(&[&root], Options::default());
    let dollar = client.call("$/customThing", json!({}));
    assert_eq!(dollar["error"]["code"], -32601);
    assert_eq!(
        dollar["error"]["message"],
        "method `$/customThing` not found: `$/` methods are notifications"
    );
    let cancel = client.call("$/cancelRequest", json!({"id": 1}));
    assert_eq!(cancel["error"]["code"], -32601);
    for (id, body) in [
        (71, r#"{"id":71,"method":"shutdown"}"#),
        (72, r#"{"jsonrpc":"2.1","id":72,"method":"shutdown"}"#),
        (
            73,
            r#"{"jsonrpc":2,"id":73,"method":"agentws/normalizePath","params":{}}"#,
        ),
    ] {
        client.send_raw(&client::frame(body));
        let answer = client.wait_for(|m| m["id"] == id);
        assert_eq!(answer["error"]["code"], -32600, "{body}: {answer}");
    }
    // A `$/` notification is still ignored quietly, and the server still serves.
    client.notify("$/setTrace", json!({"value": "off"}));
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn a_panicking_request_is_answered_and_the_server_keeps_serving() {
    let root = fixture("lsp-basic");
    let (mut client, _) = Client::start(
        &[&root],
        Options {
            init_options: json!({"debounceMs": 0, "testPanic": true}),
            ..Options::default()
        },
    );
    let answer = client.call(
        "agentws/fileStatus",
        json!({"uri": uri(&root.join("__panic__"))}),
    );
    assert_eq!(answer["error"]["code"], -32603);
    assert!(answer["error"]["message"]
        .as_str()
        .unwrap()
        .contains("test panic"));
    let status = client.request(
        "agentws/fileStatus",
        json!({"uri": uri(&ws(&root).join("skills/pdf/SKILL.md"))}),
    );
    assert_eq!(status["kind"], "skill");
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn exit_ends_the_process_while_stdin_stays_open() {
    let root = fixture("lsp-basic");
    let (client, _) = Client::start(&[&root], Options::default());
    assert_eq!(client.shutdown(), 0);
    // exit without shutdown: code 1
    let (mut client, _) = Client::start(&[&root], Options::default());
    client.notify("exit", Value::Null);
    assert_eq!(client.exit_code(), 1);
    // End of input without exit: the server ends too.
    let (mut client, _) = Client::start(&[&root], Options::default());
    client.close_stdin();
    assert_eq!(client.exit_code(), 1);
}

#[test]
fn shutdown_and_exit_do_not_wait_for_pending_requests() {
    // 5 000 skills: indexing and each of 40 previews take a while, longer still in a debug build.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("p");
    let skills = ws(&root).join("skills");
    std::fs::create_dir_all(&skills).unwrap();
    std::fs::write(ws(&root).join("AGENTS.md"), "You are helpful.\n").unwrap();
    for i in 0..5_000 {
        let folder = skills.join(format!("s{i:05}"));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(
            folder.join("SKILL.md"),
            format!("---\nname: s{i:05}\ndescription: skill number {i}\n---\nBody {i}.\n"),
        )
        .unwrap();
    }
    let agents = ws(&root).join("AGENTS.md");
    let preview = json!({"uri": uri(&agents), "context": {"userId": "u", "sessionId": "s"}});
    for shutdown_first in [true, false] {
        let (mut client, _) = Client::start(&[&root], Options::default());
        for _ in 0..40 {
            client.send_request("agentws/previewPrompt", preview.clone());
        }
        let expected = if shutdown_first {
            // Answered at once, not after the 40 previews queued before it.
            assert_eq!(client.request("shutdown", Value::Null), Value::Null);
            let after = client.call("agentws/previewPrompt", preview.clone());
            assert_eq!(after["error"]["code"], -32600, "{after}");
            0
        } else {
            1
        };
        client.notify("exit", Value::Null);
        // Bounded by the client's patience (a hang guard, not a speed target).
        assert_eq!(client.exit_code(), expected);
    }
}

#[test]
fn a_workspace_of_named_pipes_is_served_and_exits() {
    let dir = tempfile::tempdir().unwrap();
    let ws = super::hangs::fifo_project(dir.path());
    let root = dir.path().join("p");
    let (mut client, _) = Client::start(&[&root], Options::default());
    // In path order, as they are published.
    for (file, message) in [
        (
            "AGENTS.md",
            "`AGENTS.md` is a named pipe (FIFO), not a regular file",
        ),
        (
            "skills/fifo/SKILL.md",
            "`SKILL.md` is a named pipe (FIFO), not a regular file",
        ),
        (
            "subagents/piped.md",
            "`piped.md` is a named pipe (FIFO), not a regular file",
        ),
        (
            "tools.json",
            "`tools.json` is a named pipe (FIFO), not a regular file",
        ),
    ] {
        let published = client.wait_diagnostics(&uri(&ws.join(file)));
        assert_eq!(codes(&published["diagnostics"]), ["WS014"], "{published}");
        assert_eq!(
            published["diagnostics"][0]["message"],
            format!(
                "{message}\nRuntime: {}",
                agentws::rules::workspace::not_a_regular_file::RULE.consequence
            )
        );
    }
    let published = client.wait_diagnostics(&uri(&root.join("agentws.toml")));
    assert_eq!(codes(&published["diagnostics"]), ["WS014"], "{published}");
    // A pipe created later, announced as a watched-file change, is not opened either.
    let late = ws.join("MEMORY.md");
    super::hangs::mkfifo(&late);
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&late), "type": 1}]}),
    );
    let published = client.wait_diagnostics(&uri(&late));
    assert_eq!(codes(&published["diagnostics"]), ["WS014"], "{published}");
    let status = client.request(
        "agentws/fileStatus",
        json!({"uri": uri(&ws.join("AGENTS.md"))}),
    );
    assert_eq!(status["kind"], "agents-md", "{status}");
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn a_50_mb_document_is_accepted() {
    let (_tmp, root) = copy_fixture("lsp-basic");
    let (mut client, _) = Client::start(&[&root], Options::default());
    let path = ws(&root).join("AGENTS.md");
    let mut text = String::from("# Big\n");
    while text.len() < 50 * 1024 * 1024 {
        text.push_str("lorem ipsum dolor sit amet 名前 😀\n");
    }
    open(&mut client, &path, &text, 1);
    let status = client.request("agentws/fileStatus", json!({"uri": uri(&path)}));
    assert_eq!(status["kind"], "agents-md");
    assert_eq!(status["version"], 1);
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn an_open_buffer_over_the_size_cap_gets_the_on_disk_diagnostic_and_nothing_else() {
    let (_tmp, root) = copy_fixture("lsp-basic");
    let root = root.canonicalize().unwrap();
    let skill = ws(&root).join("skills/pdf/SKILL.md");
    // Analysed, this text would have problems of its own (a name that is not the folder's, an
    // unknown key); over the cap it must only get WS005.
    let mut text = String::from("---\nname: Not The Folder\nunknown-key: 1\n---\n");
    while text.len() <= 16 * 1024 * 1024 {
        text.push_str("filler line for the size cap 名前\n");
    }
    let (mut client, _) = Client::start(&[&root], Options::default());
    open(&mut client, &skill, &text, 1);
    let published = client.wait_for(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri(&skill)
            && m["params"]["version"] == 1
    });
    let diagnostics = &published["params"]["diagnostics"];
    assert_eq!(codes(diagnostics), ["WS005"], "{diagnostics}");
    let message = format!(
        "`SKILL.md` is {} bytes; agentws checks files up to 16 MiB",
        text.len()
    );
    let (server_message, _) = diagnostics[0]["message"]
        .as_str()
        .unwrap()
        .split_once("\nRuntime: ")
        .unwrap();
    assert_eq!(server_message, message);
    let origin = json!({"line": 0, "character": 0});
    assert_eq!(
        diagnostics[0]["range"],
        json!({"start": origin, "end": origin})
    );

    // The same text on disk: `agentws check` reports the same, and only that, for the file.
    std::fs::write(&skill, &text).unwrap();
    let on_disk: Vec<Reported> = check_json(&root)
        .into_iter()
        .filter(|r| r.path == skill)
        .collect();
    assert_eq!(on_disk.len(), 1);
    assert_eq!(on_disk[0].code, "WS005");
    assert_eq!(on_disk[0].message, message);
    assert_eq!((on_disk[0].start, on_disk[0].end), ((1, 1), (1, 1)));

    // Back under the cap, the buffer is analysed again.
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri(&skill), "version": 2},
            "contentChanges": [{"text": "---\nname: Not The Folder\ndescription: d\n---\n"}],
        }),
    );
    let published = client.wait_for(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri(&skill)
            && m["params"]["version"] == 2
    });
    let codes = codes(&published["params"]["diagnostics"]);
    assert!(
        !codes.is_empty() && !codes.contains(&"WS005".to_string()),
        "{codes:?}"
    );
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn custom_methods_answer_as_documented() {
    let root = fixture("lsp-basic").canonicalize().unwrap();
    let (mut client, _) = Client::start(&[&root], Options::default());
    let pdf = ws(&root).join("skills/pdf/SKILL.md");
    let status = client.request("agentws/fileStatus", json!({"uri": uri(&pdf)}));
    assert_eq!(
        status,
        json!({
            "uri": uri(&pdf),
            "path": pdf,
            "inWorkspace": true,
            "project": {"folder": root, "detached": false, "projectDir": root, "workspace": ws(&root)},
            "layer": "shared",
            "namespace": null,
            "relativePath": "skills/pdf/SKILL.md",
            "kind": "skill",
            "open": false,
            "version": null,
            "config": {
                "file": root.join("agentws.toml"),
                "reason": format!("`{}` is the nearest agentws.toml above `{}`", root.join("agentws.toml").display(), root.display()),
                "harness": "2.0.3",
                "harnessFrom": "the newest release modelled; no build file or agentws.toml names one",
                "harnessNote": null,
                "scope": "user",
                "filesystem": "local",
            },
            "diagnostics": 0,
        })
    );
    let bad = client.call(
        "agentws/previewPrompt",
        json!({"context": {"scope": "planet"}}),
    );
    assert_eq!(bad["error"]["code"], -32602);
    let refused = client.call(
        "agentws/previewPrompt",
        json!({"context": {"userId": "../x"}}),
    );
    assert_eq!(refused["error"]["code"], -32002);
    assert_eq!(refused["error"]["data"]["code"], "invalid-id");
    // previewPrompt = `agentws preview --format json` for the same context.
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_agentws"))
        .args([
            "preview",
            "--format",
            "json",
            "--user",
            "alice",
            "--date",
            "2026-05-04",
            "--os",
            "Linux 6.1",
            "--tmp-dir",
            "/tmp",
            "--plan",
            "active",
        ])
        .arg(&root)
        .output()
        .unwrap();
    assert!(
        cli.status.success(),
        "{}",
        String::from_utf8_lossy(&cli.stderr)
    );
    let expected: Value = serde_json::from_slice(&cli.stdout).unwrap();
    let context = json!({"userId": "alice", "date": "2026-05-04", "os": "Linux 6.1", "tmpDir": "/tmp", "plan": "active"});
    let preview = client.request(
        "agentws/previewPrompt",
        json!({"uri": uri(&pdf), "context": context}),
    );
    assert_eq!(preview, expected);
    // 2.0.3, the default, advertises the base workspace; main (#3020) Alice's.
    assert_eq!(
        preview["context"]["advertisedWorkspace"],
        ws(&root).display().to_string()
    );
    let main = client.request(
        "agentws/previewPrompt",
        json!({"uri": uri(&pdf), "context": {"userId": "alice", "date": "2026-05-04", "os": "Linux 6.1", "tmpDir": "/tmp", "harness": "main"}}),
    );
    assert_eq!(
        main["context"]["advertisedWorkspace"],
        format!("{}/alice", ws(&root).display())
    );
    assert_eq!(main["context"]["harness"], "main");
    assert_eq!(
        main["context"]["harnessFrom"],
        "set for this call (`--harness`, or the preview's context)"
    );
    // The default project is the first workspace folder.
    let default = client.request("agentws/previewPrompt", json!({"context": context}));
    assert_eq!(default, expected);

    // Runs are bound per id: A.begin, B.begin, A.normalize, A.end, B.normalize.
    let a = client.request("agentws/runBegin", json!({"userId": "alice"}));
    let b = client.request("agentws/runBegin", json!({"userId": "bob"}));
    assert_eq!(a["root"], format!("{}/alice", ws(&root).display()));
    assert_eq!(b["root"], format!("{}/bob", ws(&root).display()));
    let in_a = client.request(
        "agentws/normalizePath",
        json!({"runId": a["runId"], "path": "notes.md", "op": "write"}),
    );
    assert_eq!(in_a["key"], "notes.md");
    assert_eq!(
        in_a["path"],
        format!("{}/alice/notes.md", ws(&root).display())
    );
    assert_eq!(
        client.request("agentws/runEnd", json!({"runId": a["runId"]})),
        Value::Null
    );
    let in_b = client.request(
        "agentws/normalizePath",
        json!({"runId": b["runId"], "path": format!("{}/bob/x.md", ws(&root).display())}),
    );
    assert_eq!(in_b["key"], "x.md");
    let cross = client.call(
        "agentws/normalizePath",
        json!({"runId": b["runId"], "path": format!("{}/alice/x.md", ws(&root).display())}),
    );
    assert_eq!(cross["error"]["code"], -32002);
    assert_eq!(cross["error"]["data"]["code"], "cross-namespace");
    let ended = client.call(
        "agentws/normalizePath",
        json!({"runId": a["runId"], "path": "x"}),
    );
    assert_eq!(ended["error"]["data"]["code"], "unknown-run");
    let again = client.call("agentws/runEnd", json!({"runId": a["runId"]}));
    assert_eq!(again["error"]["data"]["code"], "unknown-run");
    let traversal = client.call(
        "agentws/normalizePath",
        json!({"runId": b["runId"], "path": "../x"}),
    );
    assert_eq!(traversal["error"]["data"]["code"], "traversal");
    assert_eq!(client.shutdown(), 0);
}

/// `runBegin` binds only what the CLI would bind: unknown fields, missing projects, projects
/// whose agentws.toml has errors (in a workspace folder, unsaved or outside every folder) and ids
/// that would take a shared file are refused, each with its documented code.
#[test]
fn run_begin_refuses_what_it_cannot_bind() {
    let (_dir, root) = copy_fixture("lsp-basic");
    let outside = tempfile::tempdir().unwrap();
    let broken = outside.path().join("broken");
    std::fs::create_dir_all(&broken).unwrap();
    let conflicting = "[agent]\nname = \"x\"\n[filesystem]\nsandbox_root = \"/home/user\"\nworkspace_spec_root = \"/workspace\"\n";
    std::fs::write(broken.join("agentws.toml"), conflicting).unwrap();
    let (mut client, _) = Client::start(&[&root], Options::default());

    // A misspelt field is an error naming it, never a run bound to the agent's namespace.
    let misspelt = client.call("agentws/runBegin", json!({"userID": "alice"}));
    assert_eq!(misspelt["error"]["code"], -32602, "{misspelt}");
    let message = misspelt["error"]["message"].as_str().unwrap();
    assert!(message.contains("unknown field `userID`"), "{message}");
    let nested = client.call(
        "agentws/runBegin",
        json!({"userId": "alice", "sandbox_root": "/workspace"}),
    );
    assert_eq!(nested["error"]["code"], -32602, "{nested}");
    assert!(nested["error"]["message"]
        .as_str()
        .unwrap()
        .contains("unknown field `sandbox_root`"));

    let refusal = |client: &mut Client, params: Value| -> (String, String) {
        let answer = client.call("agentws/runBegin", params);
        assert_eq!(answer["error"]["code"], -32002, "{answer}");
        (
            answer["error"]["data"]["code"]
                .as_str()
                .unwrap()
                .to_string(),
            answer["error"]["message"].as_str().unwrap().to_string(),
        )
    };
    // A project that does not exist, by path and by URI.
    let missing = root.join("no-such-project");
    for project in [
        missing.display().to_string(),
        uri(&missing),
        outside.path().join("gone").display().to_string(),
    ] {
        let (code, message) = refusal(&mut client, json!({"project": project, "userId": "alice"}));
        assert_eq!(code, "invalid-config", "{project}");
        assert!(message.contains("does not exist"), "{message}");
    }
    // A project outside every folder whose agentws.toml has errors.
    let (code, message) = refusal(
        &mut client,
        json!({"project": broken.display().to_string(), "userId": "alice"}),
    );
    assert_eq!(code, "invalid-config");
    assert!(message.contains("(CF009)"), "{message}");
    // The workspace folder itself, once its agentws.toml has errors; fixed again, it binds.
    let config = root.join("agentws.toml");
    let good = std::fs::read_to_string(&config).unwrap();
    assert!(client.request("agentws/runBegin", json!({"userId": "alice"}))["runId"].is_string());
    let config_uri = uri(&config);
    let change = json!({"changes": [{"uri": config_uri, "type": 2}]});
    std::fs::write(
        &config,
        format!("{good}\n[filesystem]\nsandbox_root = \"/.\"\n"),
    )
    .unwrap();
    client.notify("workspace/didChangeWatchedFiles", change.clone());
    client.wait_for(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == config_uri.as_str()
            && codes(&m["params"]["diagnostics"]) == ["CF008"]
    });
    let (code, message) = refusal(&mut client, json!({"userId": "alice"}));
    assert_eq!(code, "invalid-config");
    assert!(message.contains("(CF008)"), "{message}");
    std::fs::write(&config, &good).unwrap();
    client.notify("workspace/didChangeWatchedFiles", change);
    client.wait_for(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == config_uri.as_str()
            && codes(&m["params"]["diagnostics"]).is_empty()
    });
    assert!(client.request("agentws/runBegin", json!({"userId": "alice"}))["runId"].is_string());

    // Ids that would take a shared file, invisible ids and `/` spelled `/.` as a sandbox root.
    for (params, expected) in [
        (json!({"userId": "NOTES.md"}), "invalid-id"),
        (
            json!({"sessionId": "notes.MD", "scope": "session"}),
            "invalid-id",
        ),
        (json!({"userId": "ali\u{200B}ce"}), "invalid-id"),
        (json!({"userId": "x".repeat(256)}), "invalid-id"),
        (
            json!({"filesystem": "sandbox", "sandboxRoot": "/."}),
            "invalid-sandbox-root",
        ),
        (
            json!({"filesystem": "sandbox", "sandboxRoot": "//"}),
            "invalid-sandbox-root",
        ),
    ] {
        let (code, message) = refusal(&mut client, params.clone());
        assert_eq!(code, expected, "{params}: {message}");
    }
    let sandbox = client.request(
        "agentws/runBegin",
        json!({"filesystem": "sandbox", "sandboxRoot": "/workspace/./"}),
    );
    assert_eq!(sandbox["root"], "/workspace");

    // A misspelt `op` must not turn a write into a read; a misspelt `runId` is no run.
    let run = client.request("agentws/runBegin", json!({"userId": "alice"}));
    let shared = format!("{}/NOTES.md", ws(&root).display());
    let misspelt = client.call(
        "agentws/normalizePath",
        json!({"runId": run["runId"], "path": shared, "operation": "write"}),
    );
    assert_eq!(misspelt["error"]["code"], -32602, "{misspelt}");
    assert!(misspelt["error"]["message"]
        .as_str()
        .unwrap()
        .contains("unknown field `operation`"));
    let write = client.call(
        "agentws/normalizePath",
        json!({"runId": run["runId"], "path": shared, "op": "write"}),
    );
    assert_eq!(
        write["error"]["data"]["code"], "shared-read-only",
        "{write}"
    );
    let end = client.call(
        "agentws/runEnd",
        json!({"runId": run["runId"], "force": true}),
    );
    assert_eq!(end["error"]["code"], -32602, "{end}");
    assert_eq!(
        client.request("agentws/runEnd", json!({"runId": run["runId"]})),
        Value::Null
    );
    assert_eq!(client.shutdown(), 0);
}

#[test]
fn editor_features_on_the_fixture() {
    let root = fixture("lsp-basic");
    let (mut client, _) = Client::start(&[&root], Options::default());
    let reviewer = ws(&root).join("subagents/reviewer.md");
    let pdf = ws(&root).join("skills/pdf/SKILL.md");
    let broken = ws(&root).join("skills/broken/SKILL.md");
    let reviewer_text = std::fs::read_to_string(&reviewer).unwrap();
    open(&mut client, &reviewer, &reviewer_text, 1);

    // Completion of keys, enum values and skill names.
    let at = |line: u32, character: u32| json!({"textDocument": {"uri": uri(&reviewer)}, "position": {"line": line, "character": character}});
    let labels = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    let keys = client.request("textDocument/completion", at(1, 0));
    assert!(
        labels(&keys).contains(&"skills".to_string())
            && labels(&keys).contains(&"mode".to_string())
    );
    let modes = client.request("textDocument/completion", at(2, 6));
    assert_eq!(labels(&modes), vec!["primary", "subagent", "all"]);
    let skills = client.request("textDocument/completion", at(4, 4));
    assert_eq!(labels(&skills), vec!["broken", "pdf"]);

    // Definition and references between `skills:` entries and the SKILL.md.
    let definition = client.request("textDocument/definition", at(4, 5));
    assert_eq!(
        definition,
        json!([{"uri": uri(&pdf), "range": {"start": {"line": 1, "character": 6}, "end": {"line": 1, "character": 9}}}])
    );
    let references = client.request(
        "textDocument/references",
        json!({"textDocument": {"uri": uri(&pdf)}, "position": {"line": 1, "character": 7}, "context": {"includeDeclaration": false}}),
    );
    assert_eq!(
        references,
        json!([{"uri": uri(&reviewer), "range": {"start": {"line": 4, "character": 4}, "end": {"line": 4, "character": 7}}}])
    );
    let skill_hover = client.request("textDocument/hover", at(4, 5));
    assert_eq!(
        skill_hover["contents"]["value"],
        format!(
            "Skill `pdf`: `{}` from the shared workspace wins for the default context (namespace `helper`).",
            pdf.display()
        )
    );
    let hover = client.request("textDocument/hover", at(2, 1));
    assert!(hover["contents"]["value"]
        .as_str()
        .unwrap()
        .starts_with("**mode**"));

    // Rename the skill: frontmatter, the subagent's entry and the folder, one edit.
    let edit = client.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri(&pdf)}, "position": {"line": 1, "character": 7}, "newName": "pdf-tools"}),
    );
    let changes = edit["documentChanges"].as_array().unwrap();
    assert_eq!(changes.len(), 3);
    assert_eq!(changes[0]["textDocument"]["uri"], uri(&pdf).as_str());
    assert_eq!(changes[0]["edits"][0]["newText"], "pdf-tools");
    assert_eq!(changes[1]["textDocument"]["uri"], uri(&reviewer).as_str());
    assert_eq!(changes[1]["textDocument"]["version"], 1);
    assert_eq!(
        changes[1]["edits"][0]["range"]["start"],
        json!({"line": 4, "character": 4})
    );
    assert_eq!(changes[2]["kind"], "rename");
    assert_eq!(
        changes[2]["newUri"],
        uri(&ws(&root).join("skills/pdf-tools")).as_str()
    );

    // Names the runtime could not load, or that would move the folder, are refused.
    for bad in [
        "..",
        ".",
        "a\u{0}b",
        "",
        "  ",
        "a/b",
        "../../escape",
        "..\\x",
        "a\nb",
        "_drafts",
        ".archive",
        " pdf",
        "c:x",
    ]
    .into_iter()
    .map(String::from)
    .chain(["x".repeat(256)])
    {
        let answer = client.call(
            "textDocument/rename",
            json!({"textDocument": {"uri": uri(&pdf)}, "position": {"line": 1, "character": 7}, "newName": bad}),
        );
        assert_eq!(answer["error"]["code"], -32602, "{bad:?}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("is not a usable skill name: "),
            "{bad:?}: {message}"
        );
    }
    let answer = client.call(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri(&pdf)}, "position": {"line": 1, "character": 7}, "newName": ".."}),
    );
    assert_eq!(
        answer["error"]["message"],
        "`..` is not a usable skill name: `.` and `..` name the folder itself or its parent, not a new folder"
    );

    // Code action on a SKILL.md without frontmatter.
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&broken)}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "context": {"diagnostics": []}}),
    );
    let action = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"] == "Create missing SKILL.md frontmatter")
        .unwrap();
    assert_eq!(
        action["edit"]["changes"][uri(&broken)][0]["newText"],
        "---\nname: broken\ndescription: TODO describe when to use this skill\n---\n"
    );

    let symbols = client.request("workspace/symbol", json!({"query": "rev"}));
    assert_eq!(symbol_names(&symbols), vec!["reviewer"]);

    // agentws.toml: an additional context file → the file it names.
    let config_definition = client.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": uri(&root.join("agentws.toml"))}, "position": {"line": 2, "character": 31}}),
    );
    assert_eq!(
        config_definition,
        json!([{"uri": uri(&ws(&root).join("NOTES.md")), "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}}])
    );
    assert_eq!(client.shutdown(), 0);
}

/// One diagnostic as `agentws check --format json` reports it: 1-based lines, columns in
/// Unicode scalar values.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Reported {
    path: PathBuf,
    start: (u64, u64),
    end: (u64, u64),
    severity: String,
    code: String,
    message: String,
    consequence: String,
}

fn check_json(root: &Path) -> Vec<Reported> {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_agentws"))
        .args(["check", "--format", "json"])
        .arg(root)
        .current_dir("/")
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("check --format json on {}: {e}", root.display()));
    let position = |p: &Value| (p["line"].as_u64().unwrap(), p["column"].as_u64().unwrap());
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let path = d["path"].as_str().unwrap();
            Reported {
                path: Path::new("/").join(path),
                start: position(&d["range"]["start"]),
                end: position(&d["range"]["end"]),
                severity: d["severity"].as_str().unwrap().to_string(),
                code: d["code"].as_str().unwrap().to_string(),
                message: d["message"].as_str().unwrap().to_string(),
                consequence: d["consequence"].as_str().unwrap().to_string(),
            }
        })
        .collect()
}

/// An LSP UTF-16 position in `text` as the CLI's 1-based (line, scalar column).
fn scalar_position(text: &str, position: &Value) -> (u64, u64) {
    let line = position["line"].as_u64().unwrap() as usize;
    let character = position["character"].as_u64().unwrap() as usize;
    let line_text = text
        .split_inclusive('\n')
        .flat_map(|l| l.split_inclusive('\r'))
        .nth(line)
        .unwrap_or("");
    let mut units = 0;
    let mut scalars = 0;
    for ch in line_text.chars() {
        if units >= character {
            break;
        }
        units += ch.len_utf16();
        scalars += 1;
    }
    (line as u64 + 1, scalars + 1)
}

/// `agentws check` and the language server report the same diagnostics for the same files.
#[test]
fn the_server_reports_what_check_reports() {
    let fixtures = fixture("");
    let mut names: Vec<String> = std::fs::read_dir(&fixtures)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(!names.is_empty());
    for name in names {
        let root = fixtures.join(&name).canonicalize().unwrap();
        let mut from_check = check_json(&root);
        let (mut client, _) = Client::start(
            &[&root],
            Options {
                pull: true,
                ..Options::default()
            },
        );
        let report = client.request("workspace/diagnostic", json!({"previousResultIds": []}));
        let mut from_server: Vec<Reported> = Vec::new();
        for item in report["items"].as_array().unwrap() {
            let path = PathBuf::from(percent_decode(
                item["uri"].as_str().unwrap().trim_start_matches("file://"),
            ));
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            for d in item["items"].as_array().unwrap() {
                let (message, consequence) = d["message"]
                    .as_str()
                    .unwrap()
                    .split_once("\nRuntime: ")
                    .unwrap();
                let severity = match d["severity"].as_u64().unwrap() {
                    1 => "error",
                    2 => "warning",
                    _ => "info",
                };
                from_server.push(Reported {
                    path: path.clone(),
                    start: scalar_position(&text, &d["range"]["start"]),
                    end: scalar_position(&text, &d["range"]["end"]),
                    severity: severity.to_string(),
                    code: d["code"].as_str().unwrap().to_string(),
                    message: message.to_string(),
                    consequence: consequence.to_string(),
                });
            }
        }
        from_check.sort();
        from_server.sort();
        assert_eq!(from_server, from_check, "fixture {name}");
        assert_eq!(client.shutdown(), 0);
    }
}

/// A real editor: headless Neovim attaches the server to a SKILL.md of the fixture and receives
/// the diagnostics `agentws check` reports (for that file and for the fixture's symbolic-link
/// loop). Skipped when Neovim is missing, except under `CI=true`, where that is a failure.
#[test]
fn neovim_receives_the_diagnostics() {
    let has_nvim = std::process::Command::new("nvim")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_nvim {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "Neovim (`nvim`) is required under CI=true; .ci/run installs the Debian package `neovim`"
        );
        eprintln!("skipping: nvim not installed");
        return;
    }
    let root = fixture("lsp-basic").canonicalize().unwrap();
    let file = ws(&root).join("skills/broken/SKILL.md");
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("received.txt");
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/e2e/nvim/lsp_diagnostics.lua");
    let status = std::process::Command::new("nvim")
        .args(["--headless", "--clean", "-n", "-u", "NONE", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("FIXTURE", &root)
        .env("FILE", &file)
        .env("OUT", &out)
        .env("AGENTWS", env!("CARGO_BIN_EXE_agentws"))
        .env("HOME", out_dir.path())
        .stdin(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let received = std::fs::read_to_string(&out).unwrap();

    // What `agentws check` says about the same two files, as `<file>|<line>|<col>|<code>`
    // (the columns of these diagnostics are ASCII, so UTF-16 and scalar counts agree).
    let loop_path = ws(&root).join("skills/loop");
    let reported = check_json(&root);
    let mut expected: Vec<String> = Vec::new();
    let mut buffer: Vec<String> = Vec::new();
    for wanted in [&loop_path, &file] {
        for d in reported.iter().filter(|d| &d.path == wanted) {
            let (l, c) = (d.start.0 - 1, d.start.1 - 1);
            expected.push(format!("{}|{l}|{c}|{}", wanted.display(), d.code));
            if wanted == &file {
                buffer.push(format!("buffer|{l}|{c}|{}", d.code));
            }
        }
    }
    expected.extend(buffer);
    assert!(
        expected.iter().any(|l| l.ends_with("|WS006"))
            && expected.iter().any(|l| l.ends_with("|SK001")),
        "check reports the fixture's loop and the skill without frontmatter: {expected:?}"
    );
    let received: Vec<String> = received.lines().map(str::to_string).collect();
    assert_eq!(received, expected);
}

/// Cross-file: editing tools.json re-checks the subagents that name tools; tool hover, completion
/// and the "add tool to allow" quick fix.
#[test]
fn tools_json_edits_recheck_subagents_and_offer_add_to_allow() {
    let root = fixture("lsp-tools");
    let (mut client, _) = Client::start(&[&root], Options::default());
    let researcher = ws(&root).join("subagents/researcher.md");
    let tools = ws(&root).join("tools.json");
    let first = client.wait_diagnostics(&uri(&researcher));
    assert_eq!(codes(&first["diagnostics"]), vec!["XR002"]);
    assert_eq!(
        first["diagnostics"][0]["range"],
        json!({"start": {"line": 3, "character": 4}, "end": {"line": 3, "character": 15}})
    );

    assert_eq!(
        hover_text(&mut client, &researcher, 3, 6),
        "`lookup_docs`: MCP tool of `search`; removed: not in tools.json `allow`"
    );
    // Keys of tools.json servers and of agentws.toml are documented from their schema tables.
    assert_eq!(
        hover_text(&mut client, &tools, 3, 70),
        "**enableTools**\n\nAllow-list of the server's tools; empty or absent: all of them."
    );
    let config = root.join("agentws.toml");
    assert_eq!(
        hover_text(&mut client, &config, 0, 3),
        "**agent**\n\nWhat the builder sets on the agent: name, prompt, context files, memory budget."
    );
    assert!(hover_text(&mut client, &config, 1, 1).starts_with("**name**\n\nBuilder `name`."));
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&config)}}),
    );
    let outline: Vec<(String, u64, Vec<String>)> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let children = s["children"]
                .as_array()
                .map(|c| {
                    c.iter()
                        .map(|c| c["name"].as_str().unwrap().to_string())
                        .collect()
                })
                .unwrap_or_default();
            (
                s["name"].as_str().unwrap().to_string(),
                s["kind"].as_u64().unwrap(),
                children,
            )
        })
        .collect();
    // SymbolKind 3 = Namespace.
    assert_eq!(
        outline,
        vec![("agent".to_string(), 3, vec!["name".to_string()])]
    );
    let definition = client.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": uri(&researcher)}, "position": {"line": 3, "character": 6}}),
    );
    assert_eq!(
        definition,
        json!([{"uri": uri(&tools), "range": {"start": {"line": 3, "character": 4}, "end": {"line": 3, "character": 12}}}])
    );
    let completion = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri(&researcher)}, "position": {"line": 3, "character": 4}}),
    );
    let labels: Vec<&str> = completion
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"lookup_docs") && labels.contains(&"read_file"));

    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&researcher)}, "range": {"start": {"line": 3, "character": 5}, "end": {"line": 3, "character": 5}}, "context": {"diagnostics": []}}),
    );
    let add = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"] == "Add `lookup_docs` to tools.json `allow`")
        .expect("add-to-allow action");
    assert_eq!(
        add["edit"]["changes"][uri(&tools)],
        json!([{"range": {"start": {"line": 1, "character": 23}, "end": {"line": 1, "character": 23}}, "newText": ", \"lookup_docs\""}])
    );

    // Apply the edit in the editor: the subagent's diagnostics are re-published, now clean.
    let text = std::fs::read_to_string(&tools).unwrap();
    open(&mut client, &tools, &text, 1);
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri(&tools), "version": 2},
            "contentChanges": [{"range": {"start": {"line": 1, "character": 23}, "end": {"line": 1, "character": 23}}, "text": ", \"lookup_docs\""}],
        }),
    );
    let rechecked = client.wait_diagnostics(&uri(&researcher));
    assert_eq!(rechecked["diagnostics"], json!([]));
    assert_eq!(client.shutdown(), 0);
}

/// Thousands of rapid edits: results for replaced versions are dropped, the last version's
/// diagnostics arrive, and the server still answers.
#[test]
fn thousands_of_rapid_edits_end_with_the_last_version() {
    let (_tmp, root) = copy_fixture("lsp-basic");
    let (mut client, _) = Client::start(&[&root], Options::default());
    let broken = ws(&root).join("skills/broken/SKILL.md");
    open(&mut client, &broken, "# Broken\n", 0);
    let mut batch = Vec::new();
    for version in 1..=3000 {
        let text = if version == 3000 {
            "---\nname: broken\ndescription: fixed at last\n---\nbody\n".to_string()
        } else {
            format!("# Broken {version}\n")
        };
        let body = json!({
            "jsonrpc": "2.0",
            "method": "textDocument/didChange",
            "params": {"textDocument": {"uri": uri(&broken), "version": version}, "contentChanges": [{"text": text}]},
        })
        .to_string();
        batch.extend(client::frame(&body));
    }
    client.send_raw(&batch);
    let last = client.wait_for(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri(&broken).as_str()
            && m["params"]["version"] == 3000
    });
    assert_eq!(last["params"]["diagnostics"], json!([]));
    // Publications never went backwards in version.
    let versions: Vec<i64> = client
        .log
        .iter()
        .filter(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri(&broken).as_str()
        })
        .filter_map(|m| m["params"]["version"].as_i64())
        .collect();
    assert!(versions.windows(2).all(|w| w[0] < w[1]), "{versions:?}");
    let status = client.request("agentws/fileStatus", json!({"uri": uri(&broken)}));
    assert_eq!(status["version"], 3000);
    assert_eq!(client.shutdown(), 0);
}

/// Multi-root: each workspace folder is its own project with its own agentws.toml.
#[test]
fn each_workspace_folder_has_its_own_configuration() {
    let basic = fixture("lsp-basic").canonicalize().unwrap();
    let tools = fixture("lsp-tools").canonicalize().unwrap();
    let (mut client, _) = Client::start(
        &[&basic, &tools],
        Options {
            pull: true,
            ..Options::default()
        },
    );
    for (root, file) in [
        (&basic, "skills/pdf/SKILL.md"),
        (&tools, "subagents/researcher.md"),
    ] {
        let status = client.request(
            "agentws/fileStatus",
            json!({"uri": uri(&ws(root).join(file))}),
        );
        assert_eq!(
            status["config"]["file"],
            root.join("agentws.toml").to_string_lossy().as_ref()
        );
        assert_eq!(status["project"]["folder"], root.to_string_lossy().as_ref());
    }
    let symbols = client.request("workspace/symbol", json!({"query": ""}));
    assert_eq!(
        symbol_names(&symbols),
        vec!["broken", "pdf", "researcher", "reviewer", "search"]
    );
    let report = client.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri(&ws(&tools).join("subagents/researcher.md"))}}),
    );
    assert_eq!(codes(&report["items"]), vec!["XR002"]);
    // Default project of previewPrompt: the first folder.
    let preview = client.request(
        "agentws/previewPrompt",
        json!({"context": {"date": "2026-05-04"}}),
    );
    assert!(preview["text"]
        .as_str()
        .unwrap()
        .contains("This is the helper."));
    let other = client.request(
        "agentws/previewPrompt",
        json!({"uri": uri(&tools), "context": {"date": "2026-05-04"}}),
    );
    assert!(other["text"]
        .as_str()
        .unwrap()
        .contains("This is the toolsy."));
    assert_eq!(client.shutdown(), 0);
}

/// A client that writes requests and never reads the answers: every hop from stdin to stdout is
/// bounded, so the server stops reading instead of queueing answers, and its memory stays flat.
#[test]
fn a_client_that_never_reads_does_not_grow_the_server() {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};

    let mut child = Command::new(env!("CARGO_BIN_EXE_agentws"))
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    // 200 000 requests whose error answers (each naming a 1 000-character run id) add up to
    // over 200 MB if the server queued them.
    let run_id = "r".repeat(1000);
    let writer = std::thread::spawn(move || {
        let mut sent = 0u32;
        for id in 0..200_000u32 {
            let body = format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"agentws/normalizePath","params":{{"runId":"{run_id}","path":"notes/{id}.md"}}}}"#
            );
            let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
            if stdin.write_all(frame.as_bytes()).is_err() {
                break;
            }
            sent += 1;
        }
        (stdin, sent)
    });
    let status = format!("/proc/{}/status", child.id());
    let peak_kb = |status: &str| -> u64 {
        std::fs::read_to_string(status)
            .unwrap_or_default()
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
            .unwrap_or(0)
    };
    // Let the writer fill every buffer; the server must then be stalled, not accumulating.
    let mut peak = 0;
    for _ in 0..30 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        peak = peak.max(peak_kb(&status));
    }
    assert!(
        !writer.is_finished(),
        "the server read everything without anyone reading its answers"
    );
    assert!(
        peak > 0 && peak < 48 * 1024,
        "server peak resident memory {peak} kB"
    );

    // Reading again releases the pipeline: every request is answered.
    let reader = std::thread::spawn(move || {
        let mut input = std::io::BufReader::new(stdout);
        let mut refused = 0u32;
        while refused < 200_000 {
            let mut length = 0;
            loop {
                let mut line = String::new();
                if std::io::BufRead::read_line(&mut input, &mut line).unwrap() == 0 {
                    return refused;
                }
                match line.trim_end().strip_prefix("Content-Length: ") {
                    Some(n) => length = n.parse().unwrap(),
                    None if line.trim_end().is_empty() => break,
                    None => {}
                }
            }
            let mut body = vec![0; length];
            input.read_exact(&mut body).unwrap();
            if String::from_utf8_lossy(&body).contains("\"unknown-run\"") {
                refused += 1;
            }
        }
        refused
    });
    let (mut stdin, sent) = writer.join().unwrap();
    assert_eq!(sent, 200_000);
    assert_eq!(reader.join().unwrap(), 200_000);
    let exit = r#"{"jsonrpc":"2.0","method":"exit"}"#;
    stdin
        .write_all(format!("Content-Length: {}\r\n\r\n{exit}", exit.len()).as_bytes())
        .unwrap();
    drop(stdin);
    let _ = child.wait();
}

/// The quick fix of an explicitly tagged value removes the tag too: quoting alone would leave
/// `!!bool "yes"`, still a boolean (the same fix `check --fix` applies).
#[test]
fn the_quick_fix_of_a_tagged_value_removes_the_tag() {
    let (_dir, root) = copy_fixture("fix-tagged");
    let root = root.canonicalize().unwrap();
    let skill = ws(&root).join("skills/yes/SKILL.md");
    let (mut client, _) = Client::start(&[&root], Options::default());
    let published = client.wait_diagnostics(&uri(&skill));
    assert_eq!(published["diagnostics"][0]["code"], "SK008");
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&skill)}, "range": {"start": {"line": 1, "character": 14}, "end": {"line": 1, "character": 14}}, "context": {"diagnostics": []}}),
    );
    let actions = actions.as_array().unwrap();
    let titles: Vec<&str> = actions
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "Remove `!!bool` and quote `yes` so it stays a string",
            "Ignore SK008 on this line",
            // The fixture has no agentws.toml to add a per-path setting to.
            "Ignore SK008 in this file",
        ],
        "{actions:#?}"
    );
    assert_eq!(
        actions[0]["edit"]["changes"][uri(&skill)],
        json!([
            {"range": {"start": {"line": 1, "character": 6}, "end": {"line": 1, "character": 13}}, "newText": ""},
            {"range": {"start": {"line": 1, "character": 13}, "end": {"line": 1, "character": 16}}, "newText": "\"yes\""}
        ])
    );
    assert_eq!(client.shutdown(), 0);
}

/// Completion and hover of frontmatter keys come from the key table the parsers use: every key,
/// its insert text on an empty line, the values its type allows, and the spellings the runtime
/// also reads (`topP`), which the subagent parser accepts and hover explains.
#[test]
fn frontmatter_keys_come_from_the_parser_table() {
    let (_dir, root) = copy_fixture("lsp-basic");
    let (mut client, _) = Client::start(&[&root], Options::default());
    let reviewer = ws(&root).join("subagents/reviewer.md");
    let text =
        "---\ndescription: Reviews\ntopP: 0.5\nexpose_to_user: \nworkspace:\n  \n\n---\nBody\n";
    open(&mut client, &reviewer, text, 1);
    let at = |path: &Path, line: u32, character: u32| json!({"textDocument": {"uri": uri(path)}, "position": {"line": line, "character": character}});
    let pairs = |v: &Value| -> Vec<(String, String)> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|i| {
                (
                    i["label"].as_str().unwrap().to_string(),
                    i["insertText"].as_str().unwrap_or("-").to_string(),
                )
            })
            .collect()
    };
    let keys = client.request("textDocument/completion", at(&reviewer, 6, 0));
    let expected: Vec<(String, String)> = [
        ("description", "description: "),
        ("workspace", "workspace:\n  mode: "),
        ("model", "model: "),
        ("steps", "steps: "),
        ("maxIters", "maxIters: "),
        ("temperature", "temperature: "),
        ("top_p", "top_p: "),
        ("variant", "variant: "),
        ("mode", "mode: "),
        ("hidden", "hidden: "),
        ("expose_to_user", "expose_to_user: "),
        ("tools", "tools:\n  - "),
        ("skills", "skills:\n  - "),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(pairs(&keys), expected);
    // Under `workspace:`, the keys of that map.
    let nested = client.request("textDocument/completion", at(&reviewer, 5, 2));
    assert_eq!(
        pairs(&nested),
        vec![
            ("mode".to_string(), "mode: ".to_string()),
            ("path".to_string(), "path: ".to_string())
        ]
    );
    // A boolean's values.
    let booleans = client.request("textDocument/completion", at(&reviewer, 3, 16));
    let labels: Vec<String> = pairs(&booleans).into_iter().map(|(l, _)| l).collect();
    assert_eq!(labels, vec!["true", "false"]);
    // Text after the cursor: the bare key, no insert text.
    let retyped = client.request("textDocument/completion", at(&reviewer, 2, 2));
    assert_eq!(
        pairs(&retyped)[0],
        ("description".to_string(), "-".to_string())
    );
    assert_eq!(
        hover_text(&mut client, &reviewer, 2, 1),
        "**topP**\n\nSpelling of `top_p` the runtime reads when `top_p` is absent. Number or numeric string; unparsable: warning, inherited."
    );

    let pdf = ws(&root).join("skills/pdf/SKILL.md");
    let skill_text = "---\nname: pdf\ndescription: d\n\n---\nBody\n";
    open(&mut client, &pdf, skill_text, 1);
    let skill_keys = client.request("textDocument/completion", at(&pdf, 3, 0));
    let expected: Vec<(String, String)> = [
        ("name", "name: "),
        ("description", "description: "),
        ("license", "license: "),
        ("compatibility", "compatibility: "),
        ("metadata", "metadata:\n  "),
        ("allowed-tools", "allowed-tools: "),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(pairs(&skill_keys), expected);
    assert_eq!(client.shutdown(), 0);
}

/// References and rename find a skill in every form of `skills:` the runtime reads (a comma
/// string, a quoted comma string, a flow list, a block list with quoted items), at the exact range
/// of the name, from the parse; a name that only contains the skill's name is left alone.
#[test]
fn references_and_rename_cover_every_skills_form() {
    let (_dir, root) = copy_fixture("lsp-basic");
    let subagents = ws(&root).join("subagents");
    let files = [
        ("comma.md", "---\ndescription: d\nskills: pdf, docs\n---\n"),
        (
            "quoted.md",
            "---\ndescription: d\nskills: \"docs,pdf\"\n---\n",
        ),
        (
            "flow.md",
            "---\ndescription: d\nskills: [docs, 'pdf']\n---\n",
        ),
        (
            "block.md",
            "---\ndescription: d\nskills:\n  - \"pdf\"\n  - pdf-tools\n  - broken\n---\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(subagents.join(name), text).unwrap();
    }
    // The fixture's own `reviewer.md` lists `- pdf` on line 4.
    let (mut client, _) = Client::start(&[&root], Options::default());
    let pdf = ws(&root).join("skills/pdf/SKILL.md");
    let on_name = json!({"textDocument": {"uri": uri(&pdf)}, "position": {"line": 1, "character": 7}, "context": {"includeDeclaration": false}});
    let references = client.request("textDocument/references", on_name.clone());
    let mut found: Vec<(String, u64, u64, u64)> = references
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let file = l["uri"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string();
            let r = &l["range"];
            (
                file,
                r["start"]["line"].as_u64().unwrap(),
                r["start"]["character"].as_u64().unwrap(),
                r["end"]["character"].as_u64().unwrap(),
            )
        })
        .collect();
    found.sort();
    let expected = vec![
        ("block.md".to_string(), 3, 5, 8),
        ("comma.md".to_string(), 2, 8, 11),
        ("flow.md".to_string(), 2, 16, 19),
        ("quoted.md".to_string(), 2, 14, 17),
        ("reviewer.md".to_string(), 4, 4, 7),
    ];
    assert_eq!(found, expected);

    // From a `skills:` entry of the comma form: the same references.
    let comma = subagents.join("comma.md");
    let from_entry = client.request(
        "textDocument/references",
        json!({"textDocument": {"uri": uri(&comma)}, "position": {"line": 2, "character": 9}, "context": {"includeDeclaration": false}}),
    );
    assert_eq!(from_entry.as_array().unwrap().len(), 5);
    // Definition from the flow list's quoted item.
    let definition = client.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": uri(&subagents.join("flow.md"))}, "position": {"line": 2, "character": 16}}),
    );
    assert_eq!(
        definition,
        json!([{"uri": uri(&pdf), "range": {"start": {"line": 1, "character": 6}, "end": {"line": 1, "character": 9}}}])
    );
    // A skill with no frontmatter goes by its folder's name (the start of its file).
    let definition = client.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": uri(&subagents.join("block.md"))}, "position": {"line": 5, "character": 6}}),
    );
    assert_eq!(
        definition,
        json!([{"uri": uri(&ws(&root).join("skills/broken/SKILL.md")), "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}}])
    );

    // Rename: each entry's exact range gets the new name; the files read as intended after it.
    let edit = client.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri(&pdf)}, "position": {"line": 1, "character": 7}, "newName": "acrobat"}),
    );
    let mut renamed: Vec<(String, String)> = Vec::new();
    for change in edit["documentChanges"].as_array().unwrap() {
        let Some(doc) = change.get("textDocument") else {
            continue;
        };
        let path = PathBuf::from(percent_decode(
            doc["uri"].as_str().unwrap().trim_start_matches("file://"),
        ));
        let mut text = std::fs::read_to_string(&path).unwrap();
        let mut edits: Vec<&Value> = change["edits"].as_array().unwrap().iter().collect();
        // Single-line edits, applied from the end (UTF-16 columns equal bytes on these lines).
        edits.sort_by_key(|e| {
            std::cmp::Reverse((
                e["range"]["start"]["line"].as_u64().unwrap(),
                e["range"]["start"]["character"].as_u64().unwrap(),
            ))
        });
        for e in edits {
            let line = e["range"]["start"]["line"].as_u64().unwrap() as usize;
            let start = e["range"]["start"]["character"].as_u64().unwrap() as usize;
            let end = e["range"]["end"]["character"].as_u64().unwrap() as usize;
            let line_start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
            text.replace_range(
                line_start + start..line_start + end,
                e["newText"].as_str().unwrap(),
            );
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        renamed.push((name, text));
    }
    renamed.sort();
    assert_eq!(
        renamed,
        vec![
            (
                "SKILL.md".to_string(),
                std::fs::read_to_string(&pdf)
                    .unwrap()
                    .replacen("name: pdf", "name: acrobat", 1)
            ),
            (
                "block.md".to_string(),
                "---\ndescription: d\nskills:\n  - \"acrobat\"\n  - pdf-tools\n  - broken\n---\n"
                    .to_string()
            ),
            (
                "comma.md".to_string(),
                "---\ndescription: d\nskills: acrobat, docs\n---\n".to_string()
            ),
            (
                "flow.md".to_string(),
                "---\ndescription: d\nskills: [docs, 'acrobat']\n---\n".to_string()
            ),
            (
                "quoted.md".to_string(),
                "---\ndescription: d\nskills: \"docs,acrobat\"\n---\n".to_string()
            ),
            (
                "reviewer.md".to_string(),
                std::fs::read_to_string(subagents.join("reviewer.md"))
                    .unwrap()
                    .replacen("- pdf", "- acrobat", 1)
            ),
        ]
    );

    // A quoted string with an escape that names the skill next to a longer name: the parse cannot
    // place `pdf` inside it, so the rename is refused rather than replacing the whole string.
    let escaped = subagents.join("escaped.md");
    std::fs::write(
        &escaped,
        "---\ndescription: d\nskills: \"pdf-x\\t, pdf\"\n---\n",
    )
    .unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&escaped), "type": 1}]}),
    );
    let refused = client.call(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri(&pdf)}, "position": {"line": 1, "character": 7}, "newName": "acrobat"}),
    );
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(
        refused["error"]["message"],
        format!(
            "`{}` lists `pdf` inside a quoted string with escapes; rename that entry by hand",
            escaped.display()
        )
    );
    assert_eq!(client.shutdown(), 0);
}

/// The `profile` setting the editor clients send is honoured: as `initializationOptions.profile`
/// (VS Code, Neovim, Helix), through `workspace/didChangeConfiguration` (switching back and forth
/// re-publishes) and through `workspace/configuration` in pull mode. The strict diagnostics are
/// those of `check --profile strict`.
#[test]
fn the_profile_setting_turns_on_the_strict_rules() {
    let (_dir, root) = copy_fixture("lsp-basic");
    let skill = ws(&root).join("skills/strictly/SKILL.md");
    std::fs::create_dir_all(skill.parent().unwrap()).unwrap();
    let text = "---\nname: strictly\ndescription: d\nauthor: me\n---\nBody\n";
    std::fs::write(&skill, text).unwrap();
    let skill_uri = uri(&skill);
    let strict_codes = vec!["ST007".to_string()];
    let expected_check = {
        let out = assert_cmd::Command::cargo_bin("agentws")
            .unwrap()
            .args(["check", "--profile", "strict", "--format", "json"])
            .arg(&root)
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["path"].as_str().unwrap().ends_with("strictly/SKILL.md"))
            .map(|d| d["code"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(expected_check, strict_codes);

    // initializationOptions.
    let (mut client, _) = Client::start(
        &[&root],
        Options {
            init_options: json!({"debounceMs": 0, "profile": "strict"}),
            ..Options::default()
        },
    );
    let published = client.wait_diagnostics(&skill_uri);
    assert_eq!(codes(&published["diagnostics"]), strict_codes);
    let message = published["diagnostics"][0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("`author` is not a key of the Agent Skills specification"),
        "{message}"
    );
    assert_eq!(client.shutdown(), 0);

    // workspace/didChangeConfiguration, without workspace/configuration support.
    let (mut client, _) = Client::start(&[&root], Options::default());
    open(&mut client, &skill, text, 1);
    let published = client.wait_diagnostics(&skill_uri);
    assert_eq!(codes(&published["diagnostics"]), Vec::<String>::new());
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"agentws": {"profile": "strict"}}}),
    );
    let published = client.wait_diagnostics(&skill_uri);
    assert_eq!(codes(&published["diagnostics"]), strict_codes);
    assert_eq!(published["version"], 1);
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"agentws": {"profile": "harness"}}}),
    );
    let published = client.wait_diagnostics(&skill_uri);
    assert_eq!(codes(&published["diagnostics"]), Vec::<String>::new());
    assert_eq!(client.shutdown(), 0);

    // Pull mode, the profile read through workspace/configuration.
    let (mut client, _) = Client::start(
        &[&root],
        Options {
            pull: true,
            configuration: Some(json!({"profile": "strict"})),
            ..Options::default()
        },
    );
    // The profile read after `initialized` changes what a pull returns: the client is told so.
    client.wait_for(|m| m["method"] == "workspace/diagnostic/refresh");
    let report = client.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": skill_uri}}),
    );
    assert_eq!(codes(&report["items"]), strict_codes);
    let status = client.request("agentws/fileStatus", json!({"uri": skill_uri}));
    assert_eq!(status["diagnostics"], 1);
    assert_eq!(client.shutdown(), 0);
}

/// One function turns `agentws preview` flags, `agentws normalize` flags, `agentws/previewPrompt`
/// context and `agentws/runBegin` parameters into a session context: an unknown scope, filesystem
/// or harness is refused with the same sentence by every front-end.
#[test]
fn every_front_end_refuses_an_unknown_context_value_in_the_same_words() {
    let root = fixture("lsp-basic");
    let cases = [
        (
            "scope",
            "scope",
            "tenant",
            "scope `tenant` is not one of user, session, agent, global",
        ),
        (
            "filesystem",
            "filesystem",
            "nfs",
            "filesystem `nfs` is not one of local, sandbox, remote",
        ),
        (
            "harness",
            "harness",
            "2025-01",
            "harness `2025-01` is not one of 2.0.2, 2.0.3-SNAPSHOT, 2.0.3, main or a version",
        ),
    ];
    let (mut client, _) = Client::start(&[&root], Options::default());
    for (flag, field, value, sentence) in cases {
        let preview = assert_cmd::Command::cargo_bin("agentws")
            .unwrap()
            .args(["preview", &format!("--{flag}"), value])
            .arg(&root)
            .output()
            .unwrap();
        assert_eq!(preview.status.code(), Some(2));
        assert_eq!(
            String::from_utf8_lossy(&preview.stderr),
            format!("error: {sentence}\n")
        );

        let answer = client.call(
            "agentws/previewPrompt",
            json!({"uri": uri(&root), "context": {field: value}}),
        );
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
        assert_eq!(answer["error"]["message"], sentence);

        // Runs take no harness (the normalizer has one behaviour).
        if field == "harness" {
            continue;
        }
        let normalize = assert_cmd::Command::cargo_bin("agentws")
            .unwrap()
            .args(["normalize", &format!("--{flag}"), value])
            .arg(&root)
            .arg("notes.md")
            .output()
            .unwrap();
        assert_eq!(normalize.status.code(), Some(2));
        assert_eq!(
            String::from_utf8_lossy(&normalize.stderr),
            format!("error: the run context is refused (invalid-params: {sentence})\n")
        );
        let answer = client.call(
            "agentws/runBegin",
            json!({"project": root.display().to_string(), field: value}),
        );
        assert_eq!(answer["error"]["code"], -32002, "{answer}");
        assert_eq!(answer["error"]["data"]["code"], "invalid-params");
        assert_eq!(answer["error"]["message"], sentence);
    }
    assert_eq!(client.shutdown(), 0);
}

/// Tool names of a subagent's `tools:` are found in the comma form too (hover at the name's
/// exact range), with the same text as in the list form.
#[test]
fn tool_hover_reads_every_tools_form() {
    let (_dir, root) = copy_fixture("lsp-basic");
    let comma = ws(&root).join("subagents/comma.md");
    let list = ws(&root).join("subagents/list.md");
    std::fs::write(
        &comma,
        "---\ndescription: d\ntools: read_file, write_file\n---\n",
    )
    .unwrap();
    std::fs::write(&list, "---\ndescription: d\ntools:\n  - write_file\n---\n").unwrap();
    let (mut client, _) = Client::start(&[&root], Options::default());
    let hover = |client: &mut Client, path: &Path, line: u32, character: u32| {
        client.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri(path)}, "position": {"line": line, "character": character}}),
        )
    };
    let from_comma = hover(&mut client, &comma, 2, 20);
    assert_eq!(
        from_comma["range"],
        json!({"start": {"line": 2, "character": 18}, "end": {"line": 2, "character": 28}})
    );
    let from_list = hover(&mut client, &list, 3, 6);
    assert!(!from_comma["contents"]["value"].as_str().unwrap().is_empty());
    assert_eq!(from_comma["contents"], from_list["contents"]);
    assert_eq!(client.shutdown(), 0);
}

/// A value repeated across subagent files (SA025, XR001) is a warning at the first file and an
/// info elsewhere: editing the first file away from the value moves the warning to the next one.
#[test]
fn editing_the_first_of_a_repeated_value_moves_the_warning() {
    let (_dir, root) = copy_fixture("rules-foreign-subagents");
    let (mut client, _) = Client::start(&[&root], Options::default());
    let first = ws(&root).join("subagents/a-reviewer.md");
    let second = ws(&root).join("subagents/b-writer.md");
    let sa025 = |params: &Value| -> (u64, String) {
        let d = params["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == "SA025")
            .unwrap();
        (
            d["severity"].as_u64().unwrap(),
            d["message"].as_str().unwrap().to_string(),
        )
    };
    let (severity, message) = sa025(&client.wait_diagnostics(&uri(&second)));
    assert_eq!(severity, 3);
    assert!(
        message.starts_with("same as in `subagents/a-reviewer.md`: "),
        "{message}"
    );

    let text = std::fs::read_to_string(&first).unwrap();
    open(&mut client, &first, &text, 1);
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri(&first), "version": 2},
            "contentChanges": [{"text": text.replace("model: sonnet", "model: openai:gpt-4o")}]
        }),
    );
    let (severity, message) = sa025(&client.wait_diagnostics(&uri(&second)));
    assert_eq!(severity, 2);
    assert!(
        message.ends_with("`sonnet`, and agentws.toml's `[agent] models` does not list it: at spawn the runtime silently runs this subagent on the parent's model (no log line says so); Anthropic models are written `anthropic:<model name>`; 1 other subagent file names the same model (info there)\nRuntime: At spawn the runtime runs the subagent on the parent's model, without a log line."),
        "{message}"
    );
    assert_eq!(client.shutdown(), 0);
}

/// With a `[store]` configured, previewPrompt renders the call's files from the store
/// (docs/stores.md), sources named by store entry.
#[test]
fn preview_prompt_reads_the_configured_store() {
    use super::stores;
    let tmp = tempfile::tempdir().unwrap();
    let project = stores::template_with(
        &tmp.path().canonicalize().unwrap(),
        "[store]\nurl = \"sqlite://store.db\"\n",
    );
    stores::seed_sqlite(
        &project.join("store.db"),
        stores::Layout::Jdbc,
        &stores::clean_rows(),
    );
    let before = std::fs::read(project.join("store.db")).unwrap();
    let (mut client, _) = Client::start(&[&project], Options::default());
    let alice = client.request(
        "agentws/previewPrompt",
        json!({"context": {"userId": "alice", "date": "2026-12-01", "os": "Linux 6.1", "tmpDir": "/tmp"}}),
    );
    assert!(
        alice["text"]
            .as_str()
            .unwrap()
            .contains("Answer in French."),
        "{alice:#}"
    );
    let sources: Vec<&str> = alice["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["sources"].as_array().unwrap())
        .filter_map(|s| s["path"].as_str())
        .collect();
    assert!(
        sources.contains(&"store:agents/bot/users/alice/skills:/trains/SKILL.md"),
        "{sources:?}"
    );
    let bob = client.request(
        "agentws/previewPrompt",
        json!({"context": {"userId": "bob", "date": "2026-12-01", "os": "Linux 6.1", "tmpDir": "/tmp"}}),
    );
    assert!(bob["text"].as_str().unwrap().contains("Be kind."));
    assert_eq!(std::fs::read(project.join("store.db")).unwrap(), before);
}

#[test]
fn a_long_completion_list_is_narrowed_to_the_typed_word_and_marked_incomplete() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("p");
    let skills = ws(&root).join("skills");
    for i in 0..450 {
        let name = if i < 300 {
            format!("report-{i:03}")
        } else {
            format!("pdf-{i:03}")
        };
        let folder = skills.join(&name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(
            folder.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: d\n---\nBody.\n"),
        )
        .unwrap();
    }
    let subagent = ws(&root).join("subagents/helper.md");
    std::fs::create_dir_all(subagent.parent().unwrap()).unwrap();
    let text = "---\ndescription: Helps.\nskills: [pdf-30, Report-29\n---\nBody.\n";
    std::fs::write(&subagent, text).unwrap();
    let (mut client, _) = Client::start(&[&root], Options::default());
    open(&mut client, &subagent, text, 1);
    let at = |character: u32| json!({"textDocument": {"uri": uri(&subagent)}, "position": {"line": 2, "character": character}});
    let labels = |v: &Value| -> Vec<String> {
        v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };

    // `pdf-30|`: the ten names holding it, the list marked incomplete (450 names in all).
    let pdf = client.request("textDocument/completion", at(15));
    assert_eq!(pdf["isIncomplete"], true, "{pdf}");
    let expected: Vec<String> = (300..310).map(|i| format!("pdf-{i:03}")).collect();
    assert_eq!(labels(&pdf), expected);
    // `Report-29|`, any letter case: those starting with it.
    let report = client.request("textDocument/completion", at(26));
    let expected: Vec<String> = (290..300).map(|i| format!("report-{i:03}")).collect();
    assert_eq!(labels(&report), expected);
    // `[|`: nothing typed yet, the first 200 of 450.
    let all = client.request("textDocument/completion", at(9));
    assert_eq!(all["isIncomplete"], true);
    assert_eq!(labels(&all).len(), 200);
    assert_eq!(client.shutdown(), 0);
}

/// `agentws/storeUsers` answers the ids the configured store holds (the code behind `agentws
/// store users`), per project and scope; an unreadable store is refused without its password.
#[test]
fn store_users_lists_the_ids_of_the_configured_store() {
    use super::stores;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let project = stores::template_with(
        &root.join("a"),
        "[store]\nurl = \"sqlite://store.db?password=hunter2\"\n",
    );
    stores::seed_sqlite(
        &project.join("store.db"),
        stores::Layout::Jdbc,
        &stores::clean_rows(),
    );
    let before = std::fs::read(project.join("store.db")).unwrap();
    let missing = stores::template_with(
        &root.join("b"),
        "[store]\nurl = \"sqlite://nope.db?password=hunter2\"\n",
    );
    let plain = stores::template_with(&root.join("c"), "");
    let (mut client, _) = Client::start(&[&project, &missing, &plain], Options::default());

    let users = client.request("agentws/storeUsers", json!({"uri": uri(&project)}));
    assert_eq!(
        users,
        json!({"store": "sqlite://store.db?password=***", "scope": "user", "ids": ["alice", "bob"], "notes": []})
    );
    // The same ids as the command line prints.
    let out = assert_cmd::Command::cargo_bin("agentws")
        .unwrap()
        .args(["store", "users", "--project", project.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "alice\nbob\n");
    // The store holds no sessions; under scope `agent` there is one namespace and no ids.
    for (scope, ids) in [("session", json!([])), ("agent", json!([]))] {
        let answer = client.request(
            "agentws/storeUsers",
            json!({"uri": uri(&project), "scope": scope}),
        );
        assert_eq!(answer["scope"], scope);
        assert_eq!(answer["ids"], ids, "{scope}");
    }
    let bad = client.call(
        "agentws/storeUsers",
        json!({"uri": uri(&project), "scope": "tenant"}),
    );
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    assert_eq!(
        bad["error"]["message"],
        "scope `tenant` is not one of user, session, agent, global"
    );

    let refused = client.call("agentws/storeUsers", json!({"uri": uri(&missing)}));
    assert_eq!(refused["error"]["code"], -32002, "{refused}");
    assert_eq!(refused["error"]["data"]["code"], "store-unreadable");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("no database file"), "{message}");
    assert!(!message.contains("hunter2"), "{message}");

    // No store configured: nothing to offer, nothing read.
    let none = client.request("agentws/storeUsers", json!({"uri": uri(&plain)}));
    assert_eq!(
        none,
        json!({"store": null, "scope": "user", "ids": [], "notes": []})
    );
    assert_eq!(std::fs::read(project.join("store.db")).unwrap(), before);
    assert_eq!(client.shutdown(), 0);
}

/// A subagent's `workspace.path` may name a folder outside the trees the project scans. The server
/// reads that folder and its AGENTS.md as `agentws check` does, so neither reports the folder
/// missing when it exists; and it reads them again when the key is edited in the editor.
#[test]
fn a_subagent_workspace_outside_the_scanned_trees_is_read_as_check_reads_it() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().canonicalize().unwrap();
    let root = base.join("project");
    let workspace = ws(&root);
    std::fs::create_dir_all(workspace.join("subagents")).unwrap();
    std::fs::write(workspace.join("AGENTS.md"), "# Main\n").unwrap();
    let outside = base.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("AGENTS.md"), "# Helper\n").unwrap();
    let bare = base.join("bare");
    std::fs::create_dir_all(&bare).unwrap();
    let spec = |dir: &Path| {
        format!(
            "---\ndescription: Helps.\nworkspace:\n  path: {}\n---\nYou help.\n",
            dir.display()
        )
    };
    let helper = workspace.join("subagents/helper.md");
    std::fs::write(&helper, spec(&outside)).unwrap();
    let xr009 = |check: &[Reported]| -> Vec<String> {
        check
            .iter()
            .filter(|d| d.code == "XR009")
            .map(|d| d.message.clone())
            .collect()
    };
    assert_eq!(xr009(&check_json(&root)), Vec::<String>::new());

    let (mut client, _) = Client::start(&[&root], Options::default());
    let helper_uri = uri(&helper);
    // The first publication of the spec already counts the folder outside.
    let first = client.wait_diagnostics(&helper_uri);
    assert!(
        !codes(&first["diagnostics"]).contains(&"XR009".to_string()),
        "{first}"
    );

    let message_of = |m: &Value| -> Vec<String> {
        m["params"]["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| d["code"] == "XR009")
            .map(|d| {
                d["message"]
                    .as_str()
                    .unwrap()
                    .split('\n')
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    let wait_xr009 = |client: &mut Client, expected: Vec<String>| {
        let uri = helper_uri.clone();
        client.wait_for(move |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri.as_str()
                && message_of(m) == expected
        });
    };
    open(&mut client, &helper, &spec(&outside), 1);
    let mut version = 1;
    let mut edit = |client: &mut Client, text: String| {
        version += 1;
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(&helper), "version": version}, "contentChanges": [{"text": text}]}),
        );
    };
    edit(&mut client, spec(&bare));
    wait_xr009(
        &mut client,
        vec![format!(
            "`workspace.path` folder `{}` has no AGENTS.md",
            bare.display()
        )],
    );
    let missing = base.join("missing");
    edit(&mut client, spec(&missing));
    wait_xr009(
        &mut client,
        vec![format!(
            "`workspace.path` folder `{}` does not exist",
            missing.display()
        )],
    );
    edit(&mut client, spec(&outside));
    wait_xr009(&mut client, vec![]);

    // The same answers as `check` over the same texts.
    for dir in [&bare, &outside] {
        edit(&mut client, spec(dir));
        std::fs::write(&helper, spec(dir)).unwrap();
        let expected = xr009(&check_json(&root));
        wait_xr009(&mut client, expected);
    }
    assert_eq!(client.shutdown(), 0);
}

/// A client that sends `previousResultId` gets each preview as the edits of the one before:
/// applied to what it holds, they give the whole answer a client taking no edits gets.
#[test]
fn a_preview_client_taking_edits_holds_the_whole_preview() {
    use agentws::base::json_delta::{self, Edit};
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("p");
    let skills = ws(&root).join("skills");
    std::fs::write(
        {
            std::fs::create_dir_all(&skills).unwrap();
            ws(&root).join("AGENTS.md")
        },
        "You are helpful.\n",
    )
    .unwrap();
    let skill_text = |description: &str, body: &str| {
        format!("---\nname: pdf\ndescription: {description}\n---\n{body}\n")
    };
    for name in ["docx", "pdf", "xlsx"] {
        std::fs::create_dir_all(skills.join(name)).unwrap();
        std::fs::write(
            skills.join(name).join("SKILL.md"),
            skill_text(&format!("Work with {name} files."), "Body.").replace("pdf", name),
        )
        .unwrap();
    }
    let pdf = skills.join("pdf/SKILL.md");
    let (mut client, _) = Client::start(&[&root], Options::default());
    let context = json!({"userId": "alice", "sessionId": "s1", "date": "2026-05-04", "os": "Linux", "tmpDir": "/tmp"});
    let whole =
        |client: &mut Client| client.request("agentws/previewPrompt", json!({"context": context}));
    let taking_edits = |client: &mut Client, previous: &Value| {
        client.request(
            "agentws/previewPrompt",
            json!({"context": context, "previousResultId": previous}),
        )
    };

    // The first answer is whole, with an id; without its id it is the answer of a client that
    // takes no edits (which gets no id).
    let mut held = taking_edits(&mut client, &Value::Null);
    let first_id = held.as_object_mut().unwrap().remove("resultId").unwrap();
    assert!(first_id.is_string(), "{first_id}");
    let before = whole(&mut client);
    assert_eq!(held, before);
    assert!(before.get("resultId").is_none());

    // A description edit: one splice of the text, at the old description.
    open(
        &mut client,
        &pdf,
        &skill_text("Work with pdf files.", "Body."),
        1,
    );
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&pdf), "version": 2},
               "contentChanges": [{"text": skill_text("Lire les PDF – vite.", "Body.")}]}),
    );
    let answer = taking_edits(&mut client, &first_id);
    assert_eq!(answer["previousResultId"], first_id);
    assert!(answer.get("text").is_none(), "{answer}");
    let edits: Vec<Edit> = serde_json::from_value(answer["edits"].clone()).unwrap();
    let old_text = before["text"].as_str().unwrap();
    let at = old_text.find("Work with pdf files.").unwrap();
    let text_edits: Vec<&Edit> = edits
        .iter()
        .filter(|e| matches!(e, Edit::Splice { path, .. } if path == &[json_delta::Step::Key("text".into())]))
        .collect();
    // The two descriptions share their closing `.` and nothing at their start.
    assert_eq!(
        text_edits,
        [&Edit::Splice {
            path: vec![json_delta::Step::Key("text".into())],
            start: at,
            delete_count: "Work with pdf files".len(),
            insert: json!("Lire les PDF – vite"),
        }]
    );
    json_delta::apply(&mut held, &edits).unwrap();
    let after = whole(&mut client);
    assert_eq!(held, after);
    assert_ne!(after, before);

    // A body edit leaves the prompt as it was: no edits.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&pdf), "version": 3},
               "contentChanges": [{"text": skill_text("Lire les PDF – vite.", "Another body.")}]}),
    );
    let unchanged = taking_edits(&mut client, &answer["resultId"]);
    assert_eq!(unchanged["edits"], json!([]));

    // An id that is not the last answer for this context gets the whole answer again.
    let stale = taking_edits(&mut client, &first_id);
    assert_eq!(stale["text"], after["text"]);
    assert!(stale.get("edits").is_none());
    let other_user = client.request(
        "agentws/previewPrompt",
        json!({"context": {"userId": "bob", "sessionId": "s1"}, "previousResultId": stale["resultId"]}),
    );
    assert!(other_user.get("edits").is_none());
    assert!(other_user["text"].is_string());
    assert_eq!(client.shutdown(), 0);
}

/// Applies a `WorkspaceEdit` of `documentChanges` to the disk: each document's edits (UTF-16
/// columns; a line's edits applied from its end), then the resource renames.
fn apply_to_disk(edit: &Value) {
    let mut renames = Vec::new();
    for change in edit["documentChanges"].as_array().unwrap() {
        if change["kind"] == "rename" {
            let path = |key: &str| {
                PathBuf::from(percent_decode(
                    change[key].as_str().unwrap().trim_start_matches("file://"),
                ))
            };
            renames.push((path("oldUri"), path("newUri")));
            continue;
        }
        let path = PathBuf::from(percent_decode(
            change["textDocument"]["uri"]
                .as_str()
                .unwrap()
                .trim_start_matches("file://"),
        ));
        let mut text = std::fs::read_to_string(&path).unwrap();
        let mut edits: Vec<&Value> = change["edits"].as_array().unwrap().iter().collect();
        let at = |p: &Value| {
            (
                p["line"].as_u64().unwrap(),
                p["character"].as_u64().unwrap(),
            )
        };
        edits.sort_by_key(|e| std::cmp::Reverse(at(&e["range"]["start"])));
        let offset = |text: &str, (line, column): (u64, u64)| -> usize {
            let start: usize = text
                .split_inclusive('\n')
                .take(line as usize)
                .map(str::len)
                .sum();
            let mut units = 0;
            for (i, ch) in text[start..].char_indices() {
                if units >= column as usize || ch == '\n' {
                    return start + i;
                }
                units += ch.len_utf16();
            }
            text.len()
        };
        for e in edits {
            let start = offset(&text, at(&e["range"]["start"]));
            let end = offset(&text, at(&e["range"]["end"]));
            text.replace_range(start..end, e["newText"].as_str().unwrap());
        }
        std::fs::write(&path, text).unwrap();
    }
    for (from, to) in renames {
        std::fs::rename(from, to).unwrap();
    }
}

/// A file URI with every byte but unreserved ones and `/` percent-encoded (names with `#`, `%`,
/// spaces and quotes).
fn encoded_uri(path: &Path) -> String {
    let mut out = String::from("file://");
    for b in path.to_str().unwrap().bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Names YAML would retype or misparse if written as they are: every one is renamed through the
/// server in a SKILL.md's `name:` and in every `skills:` form of the subagents (a block list
/// entry plain and single-quoted, a flow list, a comma string plain and double-quoted); the
/// edited files are then read back by `agentws check` (no error, no warning: the skill loads
/// under its new name and every subagent parses and finds it) and by the server (the renamed
/// skill's references are the five entries). A name with a comma cannot be one entry of a comma
/// string: that rename is refused. (Names with `:` are refused for every skill: a folder cannot
/// take them on Windows.)
#[test]
fn rename_writes_every_name_so_that_yaml_reads_it_back() {
    let names = [
        "yes",
        "no",
        "on",
        "off",
        "y",
        "n",
        "Y",
        "true",
        "False",
        "NULL",
        "null",
        "~",
        "123",
        "-1",
        "+1",
        "0x1F",
        "0o17",
        "017",
        "1e3",
        "1_000",
        "-.inf",
        "2024-01-01",
        "2001-12-14",
        "a #b",
        "'quoted",
        "\"dq",
        "a\"b",
        "it's",
        "[x",
        "]x",
        "{x",
        "}x",
        "*alias",
        "&anchor",
        "!tag",
        "%pct",
        "@at",
        "`tick",
        "|pipe",
        ">gt",
        "? q",
        "- x",
        "#hash",
        "=",
        "<<",
        "a,b",
    ];
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    let mut roots = Vec::new();
    for i in 0..names.len() {
        let root = dir.join(format!("p{i:02}"));
        let ws = ws(&root);
        for skill in ["pdf", "docs"] {
            std::fs::create_dir_all(ws.join(format!("skills/{skill}"))).unwrap();
            std::fs::write(
                ws.join(format!("skills/{skill}/SKILL.md")),
                format!("---\nname: {skill}\ndescription: Reads {skill} files.\n---\nBody.\n"),
            )
            .unwrap();
        }
        std::fs::create_dir_all(ws.join("subagents")).unwrap();
        for (file, skills) in [
            ("block.md", "skills:\n  - pdf\n  - docs"),
            ("single.md", "skills:\n  - 'pdf'"),
            ("flow.md", "skills: [docs, pdf]"),
            ("comma.md", "skills: pdf, docs"),
            ("quoted.md", "skills: \"docs,pdf\""),
        ] {
            std::fs::write(
                ws.join("subagents").join(file),
                format!("---\ndescription: Helps with {file}.\n{skills}\n---\nBody.\n"),
            )
            .unwrap();
        }
        std::fs::write(ws.join("AGENTS.md"), "You are helpful.\n").unwrap();
        roots.push(root);
    }
    let clean = |root: &Path| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_agentws"))
            .args(["check", "--format", "json"])
            .arg(root)
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        (report["summary"]["errors"] == 0 && report["summary"]["warnings"] == 0)
            .then_some(())
            .ok_or(report)
    };
    assert_eq!(clean(&roots[0]), Ok(()));

    let root_refs: Vec<&Path> = roots.iter().map(PathBuf::as_path).collect();
    let (mut client, _) = Client::start(&root_refs, Options::default());
    for (name, root) in names.iter().zip(&roots) {
        let pdf = ws(root).join("skills/pdf/SKILL.md");
        let answer = client.call(
            "textDocument/rename",
            json!({"textDocument": {"uri": uri(&pdf)}, "position": {"line": 1, "character": 7}, "newName": name}),
        );
        if name.contains(',') {
            assert_eq!(answer["error"]["code"], -32602, "{name}: {answer}");
            let message = answer["error"]["message"].as_str().unwrap();
            assert!(
                message.starts_with(&format!("`{name}` cannot be written in the `skills:` of `")),
                "{message}"
            );
            continue;
        }
        assert!(answer.get("error").is_none(), "{name}: {answer}");
        apply_to_disk(&answer["result"]);
        if let Err(report) = clean(root) {
            panic!("after renaming `pdf` to `{name}`: {report:#}");
        }
        // The server reads the edited files again and finds the renamed skill's five entries.
        let renamed = ws(root).join(format!("skills/{name}/SKILL.md"));
        let mut changes = vec![
            json!({"uri": encoded_uri(&ws(root).join("skills/pdf")), "type": 3}),
            json!({"uri": encoded_uri(&ws(root).join(format!("skills/{name}"))), "type": 1}),
        ];
        for file in ["block.md", "single.md", "flow.md", "comma.md", "quoted.md"] {
            changes.push(
                json!({"uri": encoded_uri(&ws(root).join("subagents").join(file)), "type": 2}),
            );
        }
        client.notify(
            "workspace/didChangeWatchedFiles",
            json!({"changes": changes}),
        );
        let references = client.request(
            "textDocument/references",
            json!({"textDocument": {"uri": encoded_uri(&renamed)}, "position": {"line": 1, "character": 7}, "context": {"includeDeclaration": false}}),
        );
        assert_eq!(
            references.as_array().map(Vec::len),
            Some(5),
            "{name}: {references}"
        );
    }
    assert_eq!(client.shutdown(), 0);
}

/// The rule links (`codeDescription.href`) are absolute URLs: the repository's docs/rules.md by
/// default, a mirror named by `AGENTWS_RULES_URL` in the server's environment, and the client's
/// `initializationOptions.rulesDocUrl` over both; a value that is not an absolute URL is refused
/// and the base before it kept.
#[test]
fn rule_links_follow_the_configured_base() {
    let root = fixture("lsp-basic");
    let loop_uri = uri(&ws(&root).join("skills/loop"));
    let href = |env: Vec<(&'static str, &'static str)>, init_options: Value| {
        let (mut client, _) = Client::start(
            &[&root],
            Options {
                env,
                init_options,
                ..Options::default()
            },
        );
        let published = client.wait_diagnostics(&loop_uri);
        published["diagnostics"][0]["codeDescription"]["href"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let mirror = "https://git.example.com/agentws/-/blob/main/docs/rules.md";
    let default = format!("{}#ws006", agentws::rules::docs::DEFAULT_DOCS_URL);
    assert!(default.starts_with("https://"), "{default}");
    assert_eq!(href(vec![], json!({})), default);
    assert_eq!(
        href(vec![("AGENTWS_RULES_URL", mirror)], json!({})),
        format!("{mirror}#ws006")
    );
    assert_eq!(
        href(
            vec![("AGENTWS_RULES_URL", mirror)],
            json!({"rulesDocUrl": "file:///opt/agentws/rules.md"})
        ),
        "file:///opt/agentws/rules.md#ws006"
    );
    assert_eq!(
        href(
            vec![("AGENTWS_RULES_URL", mirror)],
            json!({"rulesDocUrl": "docs/rules.md"})
        ),
        format!("{mirror}#ws006")
    );
    assert_eq!(
        href(vec![("AGENTWS_RULES_URL", "rules.md")], json!({})),
        default
    );
}

/// An unquoted `: ` in a skill's description: one diagnostic, the lost nested key as its related
/// information, and the quick fix that quotes the value; applied as the editor would, the
/// diagnostic goes.
#[test]
fn a_colon_in_a_value_gets_one_diagnostic_and_a_quoting_quick_fix() {
    let (_tmp, root) = copy_fixture("lsp-basic");
    let (mut client, _) = Client::start(&[&root], Options::default());
    let skill = ws(&root).join("skills/weather/SKILL.md");
    let text = "---\nname: weather\ndescription: Look up the forecast: temperature, rain and wind\nmetadata:\n  author: me\n---\n# Weather\n";
    open(&mut client, &skill, text, 1);
    let published = client.wait_diagnostics(&uri(&skill));
    let diagnostics = &published["diagnostics"];
    assert_eq!(codes(diagnostics), vec!["SK013"], "{diagnostics:#}");
    assert_eq!(
        diagnostics[0]["range"],
        json!({"start": {"line": 2, "character": 13}, "end": {"line": 2, "character": 61}})
    );
    assert_eq!(
        diagnostics[0]["relatedInformation"],
        json!([{
            "location": {"uri": uri(&skill), "range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 8}}},
            "message": "`metadata` is lost: a key with nothing after the colon (a nested map or list) is skipped"
        }])
    );
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri(&skill)},
            "range": {"start": {"line": 2, "character": 20}, "end": {"line": 2, "character": 20}},
            "context": {"diagnostics": []}
        }),
    );
    let quote = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"] == "Quote the value of `description`")
        .unwrap_or_else(|| panic!("{actions:#}"));
    assert_eq!(quote["kind"], "quickfix");
    assert_eq!(
        quote["edit"]["changes"][uri(&skill)],
        json!([{
            "range": {"start": {"line": 2, "character": 13}, "end": {"line": 2, "character": 61}},
            "newText": "\"Look up the forecast: temperature, rain and wind\""
        }])
    );
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri(&skill), "version": 2},
            "contentChanges": [{"range": {"start": {"line": 2, "character": 13}, "end": {"line": 2, "character": 61}}, "text": "\"Look up the forecast: temperature, rain and wind\""}],
        }),
    );
    let rechecked = client.wait_for(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri(&skill).as_str()
            && m["params"]["version"] == 2
    });
    assert_eq!(rechecked["params"]["diagnostics"], json!([]));
    assert_eq!(client.shutdown(), 0);
}

/// The range of the one diagnostic of `code` in a publication or a pulled report.
fn range_of(diagnostics: &Value, code: &str) -> Value {
    let found: Vec<&Value> = diagnostics
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == code)
        .collect();
    assert_eq!(found.len(), 1, "{diagnostics}");
    found[0]["range"].clone()
}

/// The server holds a closed subagent spec by its digest, not its text (issue 41): its finding is
/// still published at the position of its text, read again from disk (here UTF-16 columns after
/// CJK and an emoji, which bytes would place elsewhere).
#[test]
fn a_diagnostic_in_a_closed_file_is_published_at_its_position() {
    let (_dir, root) = copy_fixture("lsp-basic");
    let lister = ws(&root).join("subagents/lister.md");
    let text = "---\ndescription: 读取 😀 d\nskills: [\"读取\", nope]\n---\nBody\n";
    std::fs::write(&lister, text).unwrap();
    let (mut client, _) = Client::start(&[&root], Options::default());
    let published = client.wait_diagnostics(&uri(&lister));
    assert_eq!(
        range_of(&published["diagnostics"], "XR004"),
        json!({"start": {"line": 2, "character": 9}, "end": {"line": 2, "character": 19}})
    );
    assert_eq!(client.shutdown(), 0);
}

/// A closed file changed on disk with no watcher's event (a client that does not watch, a
/// change the watcher missed): a request that reads its text finds that it is not the text the
/// server digested, takes it as a watched change, and answers from the new file; the file's
/// diagnostics are published again at their new positions.
#[test]
fn a_closed_file_changed_without_an_event_is_answered_as_it_is_now() {
    let (_dir, root) = copy_fixture("lsp-basic");
    let lister = ws(&root).join("subagents/lister.md");
    let text = "---\ndescription: d\nskills: [pdf, nope]\n---\nBody\n";
    std::fs::write(&lister, text).unwrap();
    let pdf = ws(&root).join("skills/pdf/SKILL.md");
    let reviewer = ws(&root).join("subagents/reviewer.md");
    let (mut client, _) = Client::start(&[&root], Options::default());
    let published = client.wait_diagnostics(&uri(&lister));
    assert_eq!(
        range_of(&published["diagnostics"], "XR004"),
        json!({"start": {"line": 2, "character": 14}, "end": {"line": 2, "character": 18}})
    );
    let reviewer_text = std::fs::read_to_string(&reviewer).unwrap();
    open(&mut client, &reviewer, &reviewer_text, 1);
    // `- pdf` on line 4 of the reviewer: the definition is pdf's `name:` value.
    let on_pdf =
        json!({"textDocument": {"uri": uri(&reviewer)}, "position": {"line": 4, "character": 5}});
    let definition = client.request("textDocument/definition", on_pdf.clone());
    let at_line = |line: u64| json!([{"uri": uri(&pdf), "range": {"start": {"line": line, "character": 6}, "end": {"line": line, "character": 9}}}]);
    assert_eq!(definition, at_line(1));

    // Two lines put before `name:`, and one before `skills:`, with no event sent.
    let pdf_text = std::fs::read_to_string(&pdf).unwrap();
    let moved = pdf_text.replacen("---\n", "---\n# a comment\n# another\n", 1);
    std::fs::write(&pdf, moved).unwrap();
    let moved = text.replacen("skills:", "# moved\nskills:", 1);
    std::fs::write(&lister, &moved).unwrap();
    let definition = client.request("textDocument/definition", on_pdf);
    assert_eq!(definition, at_line(3));
    // A code action on the lister reads its text: its finding is published again, moved.
    let range = json!({"start": {"line": 3, "character": 14}, "end": {"line": 3, "character": 18}});
    client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&lister)}, "range": range, "context": {"diagnostics": []}}),
    );
    // Published while the code action was answered again, or after.
    let lister_uri = uri(&lister);
    let moved = move |m: &Value| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == lister_uri.as_str()
            && m["params"]["diagnostics"].as_array().is_some_and(|list| {
                list.iter()
                    .any(|d| d["code"] == "XR004" && d["range"] == range)
            })
    };
    if !client.log.iter().any(&moved) {
        client.wait_for(moved);
    }
    assert_eq!(client.shutdown(), 0);
}

/// A finding about many files (TJ029: tools.json denies a tool that 25 isolated subagents keep)
/// is published with the first 20 of its related locations, those `agentws check` lists first,
/// and a last line of its message that counts them all; `check` lists every one.
#[test]
fn a_finding_about_many_files_lists_twenty_related_locations_and_counts_the_rest() {
    let (_dir, root) = copy_fixture("lsp-basic");
    let subagents = ws(&root).join("subagents");
    std::fs::create_dir_all(&subagents).unwrap();
    for i in 0..25 {
        let spec = format!("---\ndescription: Keeper {i}.\n---\nYou keep things.\n");
        std::fs::write(subagents.join(format!("keeper-{i:02}.md")), spec).unwrap();
    }
    let tools = ws(&root).join("tools.json");
    std::fs::write(&tools, "{\n  \"deny\": [\"execute\"]\n}\n").unwrap();
    // Run from the project, whose paths the report then gives relative to it (from elsewhere
    // it gives them relative to the working folder, `../..` and all).
    let out = assert_cmd::Command::cargo_bin("agentws")
        .unwrap()
        .current_dir(&root)
        .args(["check", "--format", "json", "."])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let checked = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "TJ029")
        .expect("TJ029 in the check")
        .clone();
    let related = checked["related"].as_array().unwrap();
    assert!(related.len() >= 25, "{checked:#}");
    let (mut client, _) = Client::start(&[&root], Options::default());
    let published = client.wait_diagnostics(&uri(&tools));
    let diagnostics = published["diagnostics"].as_array().unwrap();
    let served = diagnostics
        .iter()
        .find(|d| d["code"] == "TJ029")
        .expect("TJ029 published");
    assert_eq!(
        served["message"],
        format!(
            "{}\nRuntime: {}\n{} related locations, 20 listed (`agentws check` lists them all)",
            checked["message"].as_str().unwrap(),
            checked["consequence"].as_str().unwrap(),
            related.len()
        )
    );
    let served_related: Vec<(String, String)> = served["relatedInformation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let uri = r["location"]["uri"].as_str().unwrap().to_string();
            (uri, r["message"].as_str().unwrap().to_string())
        })
        .collect();
    let first_checked: Vec<(String, String)> = related[..20]
        .iter()
        .map(|r| {
            let path = root.join(r["path"].as_str().unwrap());
            (uri(&path), r["message"].as_str().unwrap().to_string())
        })
        .collect();
    assert_eq!(served_related, first_checked);
    assert_eq!(client.shutdown(), 0);
}
