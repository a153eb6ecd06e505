//! Measured benchmark of the prompt preview: render time from a built snapshot for a
//! typical 20-skill workspace and a generated 10 000-skill workspace, and the cold start of
//! `agentws preview` on the 10 000-skill workspace written to disk.
//!
//! Run: `cargo build --release -p agentws && cargo run --release -p agentws --example preview_bench`
//! (`-- --no-cli` skips the cold-start part.) Results go to docs/benchmarks.md ("Prompt preview"). Not a test: nothing here asserts a time.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use agentws::base::{Env, FileSet};
use agentws::config::Config;
use agentws::prompt::{render, Date, PreviewContext};
use agentws::workspace::Workspace;

fn skill_text(i: usize) -> String {
    format!(
        "---\nname: skill-{i:05}\ndescription: Skill number {i}, used for generated benchmark work.\nlicense: MIT\n---\n# Skill {i}\n\nDo the thing.\n"
    )
}

/// An in-memory workspace with `skills` shared skills, a tenth of them overridden for `alice`.
fn snapshot(project: &Path, skills: usize) -> Workspace {
    let mut config = Config::defaults_for(project);
    config.agent.name = Some("assistant".into());
    config.agent.system_prompt = "You are a helpful assistant.".into();
    let ws = config.workspace.clone();
    let mut files = FileSet::new();
    files.insert_text(ws.join("AGENTS.md"), "# Assistant\nBe concise.\n");
    files.insert_text(ws.join("MEMORY.md"), &"- a remembered fact\n".repeat(200));
    files.insert_text(ws.join("knowledge/KNOWLEDGE.md"), "Index.\n");
    for i in 0..50 {
        files.insert_text(ws.join(format!("knowledge/doc-{i}.md")), "x");
    }
    for i in 0..skills {
        files.insert_text(
            ws.join(format!("skills/skill-{i:05}/SKILL.md")),
            &skill_text(i),
        );
        if i % 10 == 0 {
            files.insert_text(
                ws.join(format!("alice/skills/skill-{i:05}/SKILL.md")),
                &skill_text(i),
            );
        }
    }
    for i in 0..5 {
        files.insert_text(
            ws.join(format!("subagents/agent-{i}.md")),
            "---\ndescription: A helper.\n---\nHelp.\n",
        );
    }
    Workspace::build(
        Arc::new(config),
        Vec::new(),
        Arc::new(files),
        Arc::new(Env::default()),
        None,
    )
}

fn context(ws: &Workspace) -> PreviewContext {
    let mut ctx = PreviewContext::new(
        &ws.config,
        Date::parse("2026-08-22").unwrap(),
        "Linux 6.8.0-45-generic",
        "/tmp",
    );
    ctx.session.user_id = Some("alice".into());
    ctx
}

/// CPU time (user + system) this process has used, from `/proc/self/stat` (Linux, 100 Hz ticks).
fn process_cpu() -> Option<Duration> {
    cpu_fields(11)
}

/// CPU time (user + system) of waited-for child processes.
fn children_cpu() -> Option<Duration> {
    cpu_fields(13)
}

fn cpu_fields(first: usize) -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after_name = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after_name.split(' ').collect();
    let ticks: u64 =
        fields.get(first)?.parse::<u64>().ok()? + fields.get(first + 1)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// Median and minimum of `runs` timings of `f`.
fn measure(runs: usize, mut f: impl FnMut()) -> (Duration, Duration) {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    (times[runs / 2], times[0])
}

fn write_to_disk(dir: &Path, skills: usize) {
    std::fs::write(dir.join("agentws.toml"), "[agent]\nname = \"assistant\"\n").unwrap();
    let ws = dir.join(".agentscope/workspace");
    std::fs::create_dir_all(ws.join("knowledge")).unwrap();
    std::fs::write(ws.join("AGENTS.md"), "# Assistant\n").unwrap();
    for i in 0..skills {
        let d = ws.join(format!("skills/skill-{i:05}"));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("SKILL.md"), skill_text(i)).unwrap();
    }
}

fn main() {
    for skills in [20, 10_000] {
        let ws = snapshot(Path::new("/srv/app"), skills);
        let ctx = context(&ws);
        let runs = if skills > 1000 { 30 } else { 2000 };
        let mut bytes = 0;
        let cpu_before = process_cpu();
        let (median, min) = measure(runs, || {
            bytes = render(&ws, &ctx).unwrap().text.len();
        });
        let cpu = match (cpu_before, process_cpu()) {
            (Some(a), Some(b)) => format!("{:?}", (b - a) / runs as u32),
            _ => "n/a".to_string(),
        };
        println!(
            "render, {skills} skills (from a built snapshot): wall median {median:?}, min {min:?}; CPU {cpu} per render over {runs} runs; prompt {bytes} bytes"
        );
    }

    if std::env::args().any(|a| a == "--no-cli") {
        return;
    }
    let binary: PathBuf = std::env::current_exe()
        .unwrap()
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .join("agentws");
    if !binary.exists() {
        println!("cold start: build the binary first (`cargo build --release -p agentws`)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("agentws-preview-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    write_to_disk(&dir, 10_000);
    let run = || {
        let out = Command::new(&binary)
            .args([
                "preview",
                "--user",
                "alice",
                "--date",
                "2026-08-22",
                "--format",
                "text",
            ])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(out.status.success());
        out.stdout.len()
    };
    run(); // warm the page cache: "cold" is the process start, not the disk
    let mut bytes = 0;
    let before = children_cpu();
    let (median, min) = measure(10, || bytes = run());
    let cpu = match (before, children_cpu()) {
        (Some(a), Some(b)) => format!("{:?}", (b - a) / 10),
        _ => "n/a".to_string(),
    };
    println!(
        "CLI `agentws preview` (process start, disk walk, parse, render), 10000 skills on disk: wall median {median:?}, min {min:?}; CPU {cpu} per run (all threads) over 10 runs; stdout {bytes} bytes"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
