//! End-to-end tests of inputs that used to hang the real binary or take time or memory
//! super-linear in their size: named pipes where workspace files are expected, a mebibyte of
//! dashes in a SKILL.md, 128 000 diagnostics in one agentws.toml, a mebibyte of invalid TOML
//! lines, a subagent spec of 48 000 unknown keys, a 4 MB tool name, thousands of MCP tools
//! against thousands of allow entries. Each runs the binary under a hang guard (killed and failed
//! after `GUARD`, far above any normal run) and asserts the output. None asserts on wall time;
//! where the defect was quadratic, a test compares the CPU time of two input sizes (the ratio a
//! linear reading gives is far below the one the quadratic one gave), and where it was memory, the
//! peak resident size is bounded far above what the input needs and far below what it took.

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// Kill-and-fail bound of every run: a guard against hangs, not a speed target.
pub const GUARD: Duration = Duration::from_secs(120);

/// Runs `agentws ARGS` in `dir` with stdin closed; kills it and fails the test after `GUARD`.
pub fn run_guarded(dir: &Path, args: &[&str]) -> Output {
    run_measured(dir, args).output
}

/// A run of the binary with what it used.
pub struct Measured {
    pub output: Output,
    /// Peak resident memory of the process, in KiB.
    pub peak_kb: u64,
    /// User and system CPU time of the process.
    pub cpu: Duration,
}

/// [`run_guarded`], with the child's own resource use (`wait4`: this child's alone, not the
/// other tests' running meanwhile).
// The child is reaped by `wait4`, which clippy does not see as a wait.
#[allow(clippy::zombie_processes)]
pub fn run_measured(dir: &Path, args: &[&str]) -> Measured {
    let mut child = Command::new(env!("CARGO_BIN_EXE_agentws"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn agentws");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let deadline = Instant::now() + GUARD;
    let pid = child.id() as libc::pid_t;
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is valid; wait4 only writes into the two locals.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let waited = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if waited == pid {
            break (std::process::ExitStatus::from_raw(status), usage);
        }
        assert!(waited == 0, "wait4: {}", std::io::Error::last_os_error());
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`agentws {}` did not end within {GUARD:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    Measured {
        output: Output {
            status,
            stdout: stdout.join().unwrap(),
            stderr: stderr.join().unwrap(),
        },
        peak_kb: usage.ru_maxrss as u64,
        cpu: time(usage.ru_utime) + time(usage.ru_stime),
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// `p/` with an AGENTS.md and one good skill; returns the workspace folder.
fn project(root: &Path) -> PathBuf {
    let ws = root.join("p/.agentscope/workspace");
    std::fs::create_dir_all(ws.join("skills/good")).unwrap();
    std::fs::write(ws.join("AGENTS.md"), "You are a helpful assistant.\n").unwrap();
    std::fs::write(
        ws.join("skills/good/SKILL.md"),
        "---\nname: good\ndescription: A skill that is fine.\n---\nBody.\n",
    )
    .unwrap();
    ws
}

pub fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// A workspace whose agentws.toml, AGENTS.md, tools.json, one SKILL.md and one subagent spec are
/// named pipes nobody writes to: opening any of them for reading would block forever.
pub fn fifo_project(root: &Path) -> PathBuf {
    let ws = project(root);
    std::fs::remove_file(ws.join("AGENTS.md")).unwrap();
    for path in [
        root.join("p/agentws.toml"),
        ws.join("AGENTS.md"),
        ws.join("tools.json"),
        ws.join("skills/fifo/SKILL.md"),
        ws.join("subagents/piped.md"),
    ] {
        mkfifo(&path);
    }
    ws
}

#[test]
fn named_pipes_are_reported_not_opened_by_check() {
    let dir = tempfile::tempdir().unwrap();
    fifo_project(dir.path());
    let out = run_guarded(dir.path(), &["check", "--format", "concise", "p"]);
    assert_eq!(
        text(&out.stdout),
        "p/.agentscope/workspace/AGENTS.md:1:1: error[WS014] `AGENTS.md` is a named pipe (FIFO), not a regular file\n\
         p/.agentscope/workspace/skills/fifo/SKILL.md:1:1: error[WS014] `SKILL.md` is a named pipe (FIFO), not a regular file\n\
         p/.agentscope/workspace/subagents/piped.md:1:1: error[WS014] `piped.md` is a named pipe (FIFO), not a regular file\n\
         p/.agentscope/workspace/tools.json:1:1: error[WS014] `tools.json` is a named pipe (FIFO), not a regular file\n\
         p/agentws.toml:1:1: error[WS014] agentws.toml is a named pipe (FIFO), not a regular file; agentws did not open it\n\
         Checked 6 files: 1 agentws.toml, 1 AGENTS.md, 2 skills, 1 subagent, 1 tools.json.\n\
         Found 5 errors, 0 warnings, 0 infos.\n",
        "stderr: {}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(1));

    let out = run_guarded(dir.path(), &["check", "--format", "json", "p"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = &report["diagnostics"][0];
    assert_eq!(first["code"], "WS014");
    assert_eq!(
        first["consequence"],
        "agentws did not open it. The runtime opens it like a file: a named pipe makes the read \
         wait until some process writes to it (the agent build or the call hangs), a socket cannot \
         be opened (the read fails), a device gives whatever the device produces."
    );
}

#[test]
fn named_pipes_are_not_opened_by_preview() {
    let dir = tempfile::tempdir().unwrap();
    let ws = fifo_project(dir.path());
    let args = [
        "preview",
        "p",
        "--user",
        "alice",
        "--session",
        "s1",
        "--date",
        "2026-01-01",
        "--os",
        "Linux 6",
        "--format",
        "json",
    ];
    let out = run_guarded(dir.path(), &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let preview: Value = serde_json::from_slice(&out.stdout).unwrap();
    let prompt = preview["text"].as_str().unwrap();
    assert!(
        prompt.contains(
            "  <agents_context>\n  [agentws: not a regular file — not opened]\n  </agents_context>\n"
        ),
        "{prompt}"
    );
    // The good skill is listed; the piped one is not (the runtime cannot parse it either).
    assert!(prompt.contains("<name>good</name>"), "{prompt}");
    assert!(!prompt.contains("<name>fifo</name>"), "{prompt}");
    let notes: Vec<&str> = preview["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["code"] == "stand-in")
        .map(|n| n["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        notes,
        [format!(
            "`{}` is a named pipe (FIFO), not a regular file: agentws did not open it (the \
             runtime's read would wait for a writer or fail); the preview shows a one-line stand-in",
            ws.join("AGENTS.md").display()
        )]
    );
}

#[test]
fn a_mebibyte_of_dashes_in_a_skill() {
    let dir = tempfile::tempdir().unwrap();
    let ws = project(dir.path());
    std::fs::create_dir_all(ws.join("skills/dashes")).unwrap();
    let dashes = "-".repeat(1 << 20);
    std::fs::write(
        ws.join("skills/dashes/SKILL.md"),
        format!("---\nname: dashes\ndescription: d\n{dashes}\n"),
    )
    .unwrap();
    let out = run_guarded(dir.path(), &["check", "--format", "concise", "p"]);
    assert_eq!(
        text(&out.stdout),
        // `name` and `description` come before the dashes, so the skill still loads: a warning.
        "p/.agentscope/workspace/skills/dashes/SKILL.md:4:1: warning[SK006] this `---` closes the \
         frontmatter: the runtime ends the YAML at the first `---` anywhere after the opening \
         line; `name` and `description` survive, so the runtime loads the skill with the \
         description `d`\n\
         p/.agentscope/workspace/skills/dashes/SKILL.md:4:4: info[SK021] the body is 1048574 \
         characters long (skill_manage allows 100000)\n\
         Checked 3 files: 1 AGENTS.md, 2 skills.\n\
         Found 0 errors, 1 warning, 1 info.\n",
        "stderr: {}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn an_agentws_toml_of_128000_unknown_keys() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let keys: String = (0..128_000).map(|i| format!("key{i:06} = 1\n")).collect();
    std::fs::write(dir.path().join("p/agentws.toml"), keys).unwrap();
    let out = run_guarded(dir.path(), &["check", "--format", "concise", "p"]);
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    // The first 1 000 diagnostics of the file (in position order: CF007 at 1:1 first), then one
    // that counts the rest.
    assert_eq!(lines.len(), 1000 + 1 + 2, "stderr: {}", text(&out.stderr));
    assert_eq!(
        lines[..3],
        [
            "p/agentws.toml:1:1: warning[CF007] no `[agent] name`: the runtime gives an unnamed agent no default session id",
            "p/agentws.toml:1:1: warning[CF002] unknown key `key000000` in agentws.toml is ignored",
            "p/agentws.toml:2:1: warning[CF002] unknown key `key000001` in agentws.toml is ignored",
        ]
    );
    assert_eq!(
        lines[lines.len() - 4..],
        [
            "p/agentws.toml:999:1: warning[CF002] unknown key `key000998` in agentws.toml is ignored",
            "p/agentws.toml:1000:1: warning[WS015] 127001 more problems in this file not listed \
             (127001 warnings): agentws lists the first 1000 of a file",
            "Checked 3 files: 1 agentws.toml, 1 AGENTS.md, 1 skill.",
            "Found 0 errors, 1001 warnings, 0 infos.",
        ]
    );
    assert_eq!(out.status.code(), Some(0));
}

/// The probe's agentws.toml: a mebibyte of `  k:` lines, one TOML error on each (200 000 in all).
/// Every output format lists the first 1 000 and one WS015 that counts the rest; the process
/// holds no value per error past the first 1 000 (it held the TOML parser's error for each line
/// before, then several diagnostics per line: docs/benchmarks.md has the figures).
#[test]
fn a_file_of_invalid_lines_lists_its_first_1000_problems_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let toml = "  k:\n".repeat(200_000);
    std::fs::write(dir.path().join("p/agentws.toml"), &toml).unwrap();
    let summary_message = "199000 more problems in this file not listed (199000 errors): agentws \
                           lists the first 1000 of a file";

    let run = run_measured(dir.path(), &["check", "--format", "json", "p"]);
    assert_eq!(run.output.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&run.output.stdout).unwrap();
    let diagnostics = report["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1001);
    assert!(diagnostics[..1000].iter().all(|d| d["code"] == "CF001"));
    assert_eq!(
        diagnostics[999]["message"],
        "invalid TOML: key with no value, expected `=`"
    );
    assert_eq!(
        diagnostics[999]["range"]["start"],
        json!({"line": 1000, "column": 5})
    );
    let summary = &diagnostics[1000];
    assert_eq!(summary["code"], "WS015");
    assert_eq!(summary["severity"], "error");
    assert_eq!(summary["message"], summary_message);
    assert_eq!(
        summary["range"]["start"],
        json!({"line": 1001, "column": 5})
    );
    assert_eq!(report["summary"]["errors"], 1001);
    // Above what reading a mebibyte of TOML takes (the parser's tokens) and below what an error
    // value per line took.
    assert!(
        run.peak_kb < 64 * 1024,
        "peak resident memory {} kB for a 1 MB agentws.toml",
        run.peak_kb
    );

    let listed = |format: &str| {
        let out = run_guarded(dir.path(), &["check", "--format", format, "p"]);
        assert_eq!(out.status.code(), Some(1), "{format}");
        text(&out.stdout)
    };
    let concise = listed("concise");
    assert_eq!(concise.matches("error[CF001]").count(), 1000);
    assert!(concise.contains(&format!(
        "p/agentws.toml:1001:5: error[WS015] {summary_message}\n"
    )));
    assert!(concise.ends_with("Found 1001 errors, 0 warnings, 0 infos.\n"));
    let human = listed("human");
    assert_eq!(human.matches("error[CF001]").count(), 1000);
    assert_eq!(human.matches("error[WS015]").count(), 1);
    let github = listed("github");
    assert_eq!(github.matches("title=CF001").count(), 1000);
    assert_eq!(github.matches("title=WS015").count(), 1);
    let sarif: Value = serde_json::from_str(&listed("sarif")).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1001);
    assert_eq!(results[1000]["ruleId"], "WS015");
}

/// A subagent spec of 48 000 unknown keys (the YAML node budget allows about 50 000): each key
/// used to be compared with every earlier one, a quadratic read (docs/benchmarks.md). The CPU
/// time of 48 000 keys over that of 6 000 is
/// about 8 for a linear read (less with the process's fixed costs) and 64 for a quadratic one.
#[test]
fn a_subagent_of_48000_unknown_keys_is_read_in_linear_time() {
    let spec = |keys: usize| -> String {
        let lines: String = (0..keys).map(|i| format!("k{i}: v\n")).collect();
        format!("---\ndescription: d\n{lines}---\nBody\n")
    };
    let run = |keys: usize| {
        let dir = tempfile::tempdir().unwrap();
        let ws = project(dir.path());
        std::fs::create_dir_all(ws.join("subagents")).unwrap();
        std::fs::write(ws.join("subagents/big.md"), spec(keys)).unwrap();
        let run = run_measured(dir.path(), &["check", "--format", "concise", "p"]);
        assert_eq!(
            run.output.status.code(),
            Some(0),
            "{}",
            text(&run.output.stderr)
        );
        (text(&run.output.stdout), run.cpu)
    };
    let (small_out, small) = run(6_000);
    let (out, large) = run(48_000);
    assert!(small_out.ends_with("Found 0 errors, 0 warnings, 1001 infos.\n"));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1003);
    assert_eq!(
        lines[0],
        "p/.agentscope/workspace/subagents/big.md:3:1: info[SA016] `k0` is not read by the runtime \
         and is ignored"
    );
    assert_eq!(
        lines[1000],
        "p/.agentscope/workspace/subagents/big.md:1003:1: info[WS015] 47000 more problems in this \
         file not listed (47000 infos): agentws lists the first 1000 of a file"
    );
    let ratio = large.as_secs_f64() / small.as_secs_f64().max(0.001);
    assert!(
        ratio < 20.0,
        "48 000 keys took {large:?} of CPU, 6 000 keys {small:?}: {ratio:.1} times as much"
    );
}

#[test]
fn a_4_mb_tool_name_gets_no_suggestion() {
    let dir = tempfile::tempdir().unwrap();
    let ws = project(dir.path());
    let long = "t".repeat(4 * 1024 * 1024);
    std::fs::write(
        ws.join("tools.json"),
        serde_json::json!({"allow": [long, "read_fil"]}).to_string(),
    )
    .unwrap();
    let out = run_guarded(dir.path(), &["check", "--format", "json", "p"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let unknown: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "TJ020")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        unknown,
        [
            format!("`{long}` in `allow` is not a built-in, platform or MCP tool agentws knows"),
            "`read_fil` in `allow` is not a built-in, platform or MCP tool agentws knows; did you \
             mean `read_file`?"
                .to_string(),
        ]
    );
}

#[test]
fn twenty_thousand_mcp_tools_against_twenty_thousand_unknown_names() {
    let dir = tempfile::tempdir().unwrap();
    let ws = project(dir.path());
    let tools: Vec<String> = (0..20_000).map(|i| format!("mcp_tool_{i:05}")).collect();
    let allow: Vec<String> = (0..20_000)
        .map(|i| format!("mcp_tool_{i:05}x"))
        .chain(["mcp_tool_00007".to_string()])
        .collect();
    std::fs::write(
        ws.join("tools.json"),
        serde_json::json!({
            "mcpServers": {"big": {"transport": "stdio", "command": "big-server", "enableTools": tools}},
            "allow": allow,
        })
        .to_string(),
    )
    .unwrap();
    let out = run_guarded(dir.path(), &["check", "--format", "json", "p"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let unknown: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "TJ020")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    // The first 1 000 diagnostics of tools.json are listed (one other comes first: what `allow`
    // causes, one diagnostic at its key), one WS015 counts the rest.
    assert_eq!(unknown.len(), 999);
    // The first names get their suggestion; once the search budget is spent the rest get none.
    assert_eq!(
        unknown[0],
        "`mcp_tool_00000x` in `allow` is not a built-in, platform or MCP tool agentws knows; did \
         you mean `mcp_tool_00000`?"
    );
    assert_eq!(
        unknown[998],
        "`mcp_tool_00998x` in `allow` is not a built-in, platform or MCP tool agentws knows"
    );
    let summary: Vec<&Value> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "WS015")
        .collect();
    assert_eq!(
        summary[0]["message"],
        "19001 more problems in this file not listed (19001 warnings): agentws lists the first \
         1000 of a file"
    );
}

#[test]
fn sixty_four_thousand_diagnostics_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let ws = project(dir.path());
    // Minified: the whole tools.json is one 1.1 MB line.
    let allow: Vec<String> = (0..64_000).map(|i| format!("unknown_{i:06}")).collect();
    std::fs::write(
        ws.join("tools.json"),
        serde_json::json!({ "allow": allow }).to_string(),
    )
    .unwrap();
    for format in ["concise", "human"] {
        let out = run_guarded(dir.path(), &["check", "--format", format, "p"]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let unknown: Vec<&str> = stdout.lines().filter(|l| l.contains("[TJ020]")).collect();
        // 64 000 TJ020, and one TJ025 for the built-ins `allow` leaves out, which says too that
        // the memory sections still name the memory tools it removes and the code-execution
        // section the skill `good` brings names `execute` (TJ030, its parts): that one at the
        // start of the object and 999 TJ020 are listed, one WS015 counts the other 63 001.
        assert_eq!(unknown.len(), 999, "{format}");
        if format == "concise" {
            assert_eq!(
                unknown[0],
                "p/.agentscope/workspace/tools.json:1:11: warning[TJ020] `unknown_000000` in \
                 `allow` is not a built-in, platform or MCP tool agentws knows"
            );
            // Each entry is 17 characters (`"unknown_000998", `): the last listed starts at
            // 10 + 998 × 17 + 1, the first not listed 17 further.
            assert_eq!(
                unknown[998],
                "p/.agentscope/workspace/tools.json:1:16977: warning[TJ020] `unknown_000998` in \
                 `allow` is not a built-in, platform or MCP tool agentws knows"
            );
            assert!(stdout.contains(
                "p/.agentscope/workspace/tools.json:1:16994: warning[WS015] 63001 more problems in \
                 this file not listed (63001 warnings): agentws lists the first 1000 of a file\n"
            ));
        }
        assert!(
            stdout.contains("Found 0 errors, 1001 warnings, 0 infos.\n"),
            "{format}: {}",
            &stdout[stdout.len().saturating_sub(300)..]
        );
    }
}

/// A `knowledge` folder that is a symbolic link to `/`, and a link to `/usr` among the subagent
/// specs: the walk used to follow them through the whole disk.
/// Neither is followed, each is reported (WS006), and check and preview end at once. The
/// runtime's walks (`Files.walk`, `Files.walkFileTree`, no `FOLLOW_LINKS`) do not go through a
/// link to a folder either, so it lists no knowledge file there.
#[test]
fn links_to_folders_outside_the_project_are_reported_not_walked() {
    let dir = tempfile::tempdir().unwrap();
    let ws = project(dir.path());
    std::os::unix::fs::symlink("/", ws.join("knowledge")).unwrap();
    std::fs::create_dir_all(ws.join("subagents")).unwrap();
    std::os::unix::fs::symlink("/usr", ws.join("subagents/usr")).unwrap();
    let out = run_guarded(dir.path(), &["check", "--format", "concise", "p"]);
    assert_eq!(
        text(&out.stdout),
        "p/.agentscope/workspace/knowledge:1:1: warning[WS006] could not walk: `knowledge` is a \
         symbolic link to `/`, a folder outside the project; agentws does not follow it (the \
         runtime's walks do not follow links to folders)\n\
         p/.agentscope/workspace/subagents/usr:1:1: warning[WS006] could not walk: `usr` is a \
         symbolic link to `/usr`, a folder outside the project; agentws does not follow it (the \
         runtime's walks do not follow links to folders)\n\
         Checked 2 files: 1 AGENTS.md, 1 skill.\n\
         Found 0 errors, 2 warnings, 0 infos.\n",
        "stderr: {}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0));
    let args = [
        "preview",
        "p",
        "--user",
        "alice",
        "--session",
        "s1",
        "--format",
        "json",
    ];
    let out = run_guarded(dir.path(), &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let preview: Value = serde_json::from_slice(&out.stdout).unwrap();
    let prompt = preview["text"].as_str().unwrap();
    assert!(prompt.contains("<name>good</name>"), "{prompt}");
    assert!(!prompt.contains("Knowledge files:"), "{prompt}");
}
