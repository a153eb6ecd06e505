//! In-process throughput of the path normalizer on one core (docs/benchmarks.md, "Path normalizer").
//!
//! `lexical`: typical inputs of a namespaced local run without disk access (DiskAccess::Lexical).
//! `symlinks`: the same inputs with the symlink walk, on a real workspace in a temporary folder
//! where the paths exist (the worst case: one lstat per component), and where they do not.
//! `registry`: the lexical mix through `RunRegistry::normalize` (lock + lookup per call).
//!
//! Every case is measured twice: `…` in wall-clock time (criterion's default) and `…/cpu` in the
//! benchmark thread's own CPU time (Linux `CLOCK_THREAD_CPUTIME_ID`), which stays meaningful
//! on a machine shared with other work, where wall time also counts the time the thread waited.

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use agentws::config::Config;
use agentws::context::SessionContext;
use agentws::paths::{DiskAccess, Op, Run, RunOptions, RunParams, RunRegistry};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn project_config(project: &Path) -> Config {
    let mut config = Config::defaults_for(project);
    config.agent.name = Some("assistant".into());
    config
}

fn run(config: &Config, disk: DiskAccess) -> Run {
    let mut ctx = SessionContext::from_config(config);
    ctx.user_id = Some("alice".into());
    let options = RunOptions {
        disk,
        ..RunOptions::from_config(config)
    };
    Run::new(config, &ctx, options).unwrap()
}

/// What a model typically hands a file tool: relative names, absolute paths under the advertised
/// root, a file URI, a shared asset, and one refusal.
fn typical_inputs(base: &str) -> Vec<String> {
    vec![
        "notes.md".to_string(),
        "notes/2026/11/today.md".to_string(),
        format!("{base}/alice/notes/2026/11/today.md"),
        format!("{base}/alice/src/main.rs"),
        "./drafts//report.md".to_string(),
        format!("file://{base}/alice/notes/todo%20list.md"),
        format!("{base}/skills/pdf/SKILL.md"),
        format!("{base}/bob/secret.txt"),
    ]
}

/// CPU time the current thread has used, in nanoseconds (`None` off Linux).
/// `clock_gettime(CLOCK_THREAD_CPUTIME_ID)` is exact; `/proc/thread-self/schedstat` is only
/// updated at scheduler ticks and reads zero for short samples.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn thread_cpu_ns() -> Option<u64> {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec with the C layout of 64-bit Linux; libc is
    // linked by std on this target.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn thread_cpu_ns() -> Option<u64> {
    None
}

/// Registers `name` (wall clock) and `name/cpu` (thread CPU time) for one pass over the inputs.
fn both(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    mut pass: impl FnMut(),
) {
    group.bench_function(name, |b| b.iter(&mut pass));
    if thread_cpu_ns().is_some() {
        group.bench_function(format!("{name}/cpu"), |b| {
            b.iter_custom(|iters| {
                let start = thread_cpu_ns().unwrap_or(0);
                for _ in 0..iters {
                    pass();
                }
                Duration::from_nanos(thread_cpu_ns().unwrap_or(0).saturating_sub(start))
            })
        });
    }
}

fn bench(c: &mut Criterion) {
    let project = Path::new("/srv/app");
    let config = project_config(project);
    let base = config.workspace.to_str().unwrap().to_string();
    let inputs = typical_inputs(&base);

    let mut group = c.benchmark_group("normalize");
    group.throughput(Throughput::Elements(inputs.len() as u64));
    let lexical = run(&config, DiskAccess::Lexical);
    both(&mut group, "lexical", || {
        for input in &inputs {
            let _ = black_box(lexical.normalize(black_box(input), Op::Read));
        }
    });

    let registry = RunRegistry::with_disk_access(DiskAccess::Lexical);
    let info = registry
        .begin(
            &config,
            &RunParams {
                user_id: Some("alice".into()),
                ..RunParams::default()
            },
        )
        .unwrap();
    both(&mut group, "registry-lexical", || {
        for input in &inputs {
            let _ = black_box(registry.normalize(&info.run_id, black_box(input), Op::Read));
        }
    });

    // A real workspace where every typical path exists.
    let dir = tempfile::tempdir().unwrap();
    let real_project = std::fs::canonicalize(dir.path()).unwrap();
    let real_config = project_config(&real_project);
    let real_base = real_config.workspace.to_str().unwrap().to_string();
    let real_inputs = typical_inputs(&real_base);
    for folder in [
        "alice/notes/2026/11",
        "alice/src",
        "alice/drafts",
        "skills/pdf",
        "bob",
    ] {
        std::fs::create_dir_all(real_config.workspace.join(folder)).unwrap();
    }
    for file in [
        "alice/notes.md",
        "alice/notes/2026/11/today.md",
        "alice/src/main.rs",
        "alice/drafts/report.md",
        "alice/notes/todo list.md",
        "skills/pdf/SKILL.md",
    ] {
        std::fs::write(real_config.workspace.join(file), "x").unwrap();
    }
    let existing = run(&real_config, DiskAccess::ResolveSymlinks);
    both(&mut group, "symlinks-existing", || {
        for input in &real_inputs {
            let _ = black_box(existing.normalize(black_box(input), Op::Read));
        }
    });
    let missing = run(&config, DiskAccess::ResolveSymlinks);
    both(&mut group, "symlinks-missing-base", || {
        for input in &inputs {
            let _ = black_box(missing.normalize(black_box(input), Op::Read));
        }
    });
    group.finish();

    // The same without the refusal (messages are built with `format!`, the slow part of a
    // refusal), to show what accepted paths cost alone.
    let accepted = &inputs[..inputs.len() - 1];
    let mut group = c.benchmark_group("normalize-accepted");
    group.throughput(Throughput::Elements(accepted.len() as u64));
    both(&mut group, "lexical", || {
        for input in accepted {
            let _ = black_box(lexical.normalize(black_box(input), Op::Read));
        }
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
