//! The run registry: each run's binding lives under its own id, created by `begin`, used by
//! `normalize`, released by `end`. There is no "current run": a request that names no run, an
//! unknown run or an ended one is refused (the shared "current sandbox" slot of the runtime let
//! concurrent sessions read and release each other's binding, harness-spec §8).
//!
//! The registry is a value owned by whoever serves runs (the language server, a test); nothing
//! here is global. Depends on `base` (severities), `config` (including `discover`, to load a
//! run's project), `context` and `paths::normalize`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use serde::{Deserialize, Serialize};

use super::normalize::{DiskAccess, Normalized, Op, Run, RunOptions};
use super::refusal::{Refusal, RefusalCode};
use crate::base::{Diagnostic, Severity};
use crate::config::discover::{absolute, find_project, FoundProject};
use crate::config::{Config, PathMode};
use crate::context::{session_context, ContextOverrides};

/// `agentws/runBegin` parameters; every field is optional and overrides the project's
/// `agentws.toml` when present. An unknown field is an error, not ignored: a misspelt `userID`
/// would otherwise bind the run to the wrong namespace.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct RunParams {
    /// The project folder (or any path inside it). The registry does not read it: the caller
    /// finds the project's `Config` with `config::discover::find_project` and passes it in.
    pub project: Option<String>,
    pub user_id: Option<String>,
    pub session_id: Option<String>,
    /// `user | session | agent | global`.
    pub scope: Option<String>,
    /// `local | sandbox`.
    pub filesystem: Option<String>,
    pub sandbox_root: Option<String>,
    /// `rooted | sandboxed | unrestricted`.
    pub path_mode: Option<String>,
    /// Host folders; relative ones are taken relative to the folder of `agentws.toml` (else the
    /// project folder). Replaces the configured list when present.
    pub additional_roots: Option<Vec<String>>,
}

/// `agentws/runBegin` result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunInfo {
    pub run_id: String,
    /// E exactly as the prompt advertises it.
    pub root: String,
}

/// `agentws/normalizePath` parameters (`op` defaults to `read`). Unknown fields are errors: a
/// misspelt `operation: "write"` would otherwise be judged as a read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NormalizeParams {
    pub run_id: String,
    pub path: String,
    #[serde(default)]
    pub op: Op,
}

/// `agentws/runEnd` parameters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RunEndParams {
    pub run_id: String,
}

/// Turns parameters and a project configuration into a bound run (no registry involved).
pub fn bind(config: &Config, params: &RunParams, disk: DiskAccess) -> Result<Run, Refusal> {
    let overrides = ContextOverrides {
        user_id: params.user_id.as_deref(),
        session_id: params.session_id.as_deref(),
        scope: params.scope.as_deref(),
        filesystem: params.filesystem.as_deref(),
        sandbox_root: params.sandbox_root.as_deref(),
        harness: None,
    };
    let ctx = session_context(config, &overrides)
        .map_err(|err| Refusal::new(RefusalCode::InvalidParams, err.message))?;
    let mut options = RunOptions::from_config(config);
    options.disk = disk;
    if let Some(mode) = &params.path_mode {
        options.path_mode = parse_param(
            "pathMode",
            mode,
            PathMode::parse,
            "rooted, sandboxed, unrestricted",
        )?;
    }
    if let Some(roots) = &params.additional_roots {
        let dir = config_dir(config);
        options.additional_roots = roots
            .iter()
            .map(|r| {
                if r.trim().is_empty() || r.contains('\0') {
                    Err(Refusal::new(
                        RefusalCode::InvalidParams,
                        format!(
                            "additional root `{}` is empty or holds a NUL",
                            r.escape_debug()
                        ),
                    ))
                } else {
                    Ok(dir.join(r))
                }
            })
            .collect::<Result<_, _>>()?;
    }
    Run::new(config, &ctx, options)
}

/// Loads the project configuration a run binds to: `project` is a folder (or any path inside the
/// project) or a `file://` URI of one. Refused (`invalid-config`) when it does not exist or its
/// `agentws.toml` has errors, because no run should bind to a configuration the runtime would
/// refuse (e.g. both sandbox roots set and different). Warnings stay in the returned diagnostics.
pub fn load_project(project: &str) -> Result<FoundProject, Refusal> {
    let path = if project.len() >= 5 && project[..5].eq_ignore_ascii_case("file:") {
        let clean = super::input::clean(project)?;
        if clean.shape != super::input::Shape::Posix {
            return Err(Refusal::new(
                RefusalCode::InvalidParams,
                format!(
                    "project `{}` is not an absolute POSIX path",
                    project.escape_debug()
                ),
            ));
        }
        PathBuf::from(clean.text)
    } else {
        absolute(Path::new(project))
    };
    if !path.exists() {
        return Err(Refusal::new(
            RefusalCode::InvalidConfig,
            format!("project folder `{}` does not exist", path.display()),
        ));
    }
    let found = find_project(&path);
    refuse_config_errors(&found.diagnostics)?;
    Ok(found)
}

/// `invalid-config` when the configuration's load `diagnostics` hold an error (warnings pass):
/// the one test `load_project` and the language server's `runBegin` both apply.
pub fn refuse_config_errors(diagnostics: &[Diagnostic]) -> Result<(), Refusal> {
    let errors: Vec<String> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{} ({}): {}", d.path.display(), d.code, d.message))
        .collect();
    if errors.is_empty() {
        return Ok(());
    }
    Err(Refusal::new(
        RefusalCode::InvalidConfig,
        format!(
            "the project configuration has errors; no run can be bound to it: {}",
            errors.join("; ")
        ),
    ))
}

/// The folder relative additional roots are taken from: `agentws.toml`'s, else the project's.
pub fn config_dir(config: &Config) -> PathBuf {
    config
        .file
        .as_deref()
        .and_then(Path::parent)
        .unwrap_or(&config.project)
        .to_path_buf()
}

fn parse_param<T>(
    name: &str,
    value: &str,
    parse: fn(&str) -> Option<T>,
    allowed: &str,
) -> Result<T, Refusal> {
    parse(value).ok_or_else(|| {
        Refusal::new(
            RefusalCode::InvalidParams,
            format!("{name} `{}` is not one of {allowed}", value.escape_debug()),
        )
    })
}

/// Default bound on active runs: a client that begins runs and never ends them gets
/// `too-many-runs` instead of growing the server's memory without bound.
pub const DEFAULT_MAX_ACTIVE_RUNS: usize = 65_536;

/// Live runs by id. Cheap to share behind an `Arc`; every method takes `&self`.
#[derive(Debug)]
pub struct RunRegistry {
    runs: RwLock<HashMap<String, Arc<Run>>>,
    next_id: AtomicU64,
    disk: DiskAccess,
    max_active: usize,
}

impl Default for RunRegistry {
    fn default() -> Self {
        Self {
            runs: RwLock::default(),
            next_id: AtomicU64::new(0),
            disk: DiskAccess::default(),
            max_active: DEFAULT_MAX_ACTIVE_RUNS,
        }
    }
}

impl RunRegistry {
    /// A registry whose runs resolve symlinks on local filesystems.
    pub fn new() -> Self {
        Self::default()
    }

    /// A registry whose runs use `disk` (`Lexical` for benchmarks).
    pub fn with_disk_access(disk: DiskAccess) -> Self {
        Self {
            disk,
            ..Self::default()
        }
    }

    /// The same registry with another bound on active runs.
    pub fn with_max_active_runs(self, max_active: usize) -> Self {
        Self { max_active, ..self }
    }

    /// Binds a run for `params` over `config` (the project's configuration) and registers it.
    pub fn begin(&self, config: &Config, params: &RunParams) -> Result<RunInfo, Refusal> {
        let run = bind(config, params, self.disk)?;
        let root = run.root().to_string();
        let mut runs = self.write();
        if runs.len() >= self.max_active {
            return Err(Refusal::new(
                RefusalCode::TooManyRuns,
                format!(
                    "{} runs are active, the most this server keeps; end finished runs with agentws/runEnd",
                    runs.len()
                ),
            ));
        }
        let number = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let run_id = format!("run-{number}");
        runs.insert(run_id.clone(), Arc::new(run));
        Ok(RunInfo { run_id, root })
    }

    /// Normalizes `path` for the run `run_id`; `unknown-run` when it does not exist (any more).
    pub fn normalize(&self, run_id: &str, path: &str, op: Op) -> Result<Normalized, Refusal> {
        self.run(run_id)?.normalize(path, op)
    }

    /// The binding of `run_id`, shared; the lock is released before the caller uses it.
    pub fn run(&self, run_id: &str) -> Result<Arc<Run>, Refusal> {
        let runs = self
            .runs
            .read()
            .unwrap_or_else(|poison| poison.into_inner());
        runs.get(run_id).cloned().ok_or_else(|| {
            Refusal::new(
                RefusalCode::UnknownRun,
                format!(
                    "no run `{}` is active (never begun, or already ended); begin a run with agentws/runBegin",
                    run_id.escape_debug()
                ),
            )
        })
    }

    /// Ends `run_id` only; `false` when no such run was active.
    pub fn end(&self, run_id: &str) -> bool {
        self.write().remove(run_id).is_some()
    }

    /// Number of active runs.
    pub fn len(&self) -> usize {
        self.runs
            .read()
            .unwrap_or_else(|poison| poison.into_inner())
            .len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, Arc<Run>>> {
        // A panic elsewhere while holding the lock leaves the map itself consistent (inserts and
        // removes are single calls), so a poisoned lock is still usable.
        self.runs
            .write()
            .unwrap_or_else(|poison| poison.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Barrier;

    use super::*;

    fn config() -> Config {
        let mut config = Config::defaults_for(Path::new("/srv/project"));
        config.workspace = PathBuf::from("/srv/ws");
        config.agent.name = Some("assistant".into());
        config
    }

    fn params(user: Option<&str>, session: Option<&str>, scope: &str) -> RunParams {
        RunParams {
            user_id: user.map(Into::into),
            session_id: session.map(Into::into),
            scope: Some(scope.into()),
            ..RunParams::default()
        }
    }

    #[test]
    fn interleaved_runs_keep_their_own_roots() {
        let registry = RunRegistry::with_disk_access(DiskAccess::Lexical);
        let config = config();
        let a = registry
            .begin(&config, &params(Some("alice"), None, "user"))
            .unwrap();
        let b = registry
            .begin(&config, &params(Some("bob"), None, "user"))
            .unwrap();
        assert_ne!(a.run_id, b.run_id);
        assert_eq!(a.root, "/srv/ws/alice");
        assert_eq!(b.root, "/srv/ws/bob");

        let got = registry
            .normalize(&a.run_id, "notes.md", Op::Write)
            .unwrap();
        assert_eq!(got.path, "/srv/ws/alice/notes.md");
        assert!(registry.end(&a.run_id));

        let got = registry
            .normalize(&b.run_id, "notes.md", Op::Write)
            .unwrap();
        assert_eq!(got.path, "/srv/ws/bob/notes.md");
        let got = registry
            .normalize(&b.run_id, "/srv/ws/bob/x", Op::Read)
            .unwrap();
        assert_eq!(
            (got.key.as_str(), got.path.as_str()),
            ("x", "/srv/ws/bob/x")
        );
        assert_eq!(
            registry
                .normalize(&b.run_id, "/srv/ws/alice/notes.md", Op::Read)
                .unwrap_err()
                .code,
            RefusalCode::CrossNamespace
        );

        let ended = registry
            .normalize(&a.run_id, "notes.md", Op::Read)
            .unwrap_err();
        assert_eq!(ended.code, RefusalCode::UnknownRun);
        assert_eq!(
            registry
                .normalize("", "notes.md", Op::Read)
                .unwrap_err()
                .code,
            RefusalCode::UnknownRun
        );
        assert!(!registry.end(&a.run_id));
        assert!(!registry.end("run-999"));
        assert_eq!(registry.len(), 1);
        assert!(registry.end(&b.run_id));
        assert!(registry.is_empty());
    }

    #[test]
    fn protocol_shapes_are_camel_case() {
        let p: NormalizeParams =
            serde_json::from_str(r#"{"runId":"run-1","path":"a.md","op":"write"}"#).unwrap();
        assert_eq!(
            (p.run_id.as_str(), p.path.as_str(), p.op),
            ("run-1", "a.md", Op::Write)
        );
        let p: NormalizeParams =
            serde_json::from_str(r#"{"runId":"run-1","path":"a.md"}"#).unwrap();
        assert_eq!(p.op, Op::Read);
        let e: RunEndParams = serde_json::from_str(r#"{"runId":"run-7"}"#).unwrap();
        assert_eq!(e.run_id, "run-7");
        let info = RunInfo {
            run_id: "run-1".into(),
            root: "/srv/ws/alice".into(),
        };
        assert_eq!(
            serde_json::to_string(&info).unwrap(),
            r#"{"runId":"run-1","root":"/srv/ws/alice"}"#
        );
        let registry = RunRegistry::with_disk_access(DiskAccess::Lexical);
        let info = registry
            .begin(&config(), &params(Some("alice"), None, "user"))
            .unwrap();
        let n = registry
            .normalize(&info.run_id, "a b.md", Op::Read)
            .unwrap();
        assert_eq!(
            serde_json::to_string(&n).unwrap(),
            r#"{"key":"a b.md","path":"/srv/ws/alice/a b.md","uri":"file:///srv/ws/alice/a%20b.md"}"#
        );
        let r = registry.normalize("run-0", "a", Op::Read).unwrap_err();
        assert_eq!(
            serde_json::to_value(&r).unwrap()["code"],
            serde_json::json!("unknown-run")
        );
    }

    #[test]
    fn projects_load_from_paths_and_uris_and_refuse_errors() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::write(root.join("agentws.toml"), "[agent]\nname = \"assistant\"\n").unwrap();
        let text = root.to_str().unwrap();
        let by_path = load_project(text).unwrap();
        assert_eq!(by_path.config.project, root);
        let uri = crate::paths::file_uri(text);
        assert_eq!(load_project(&uri).unwrap().config.project, root);
        assert_eq!(
            load_project(&format!("{text}/missing")).unwrap_err().code,
            RefusalCode::InvalidConfig
        );
        assert_eq!(
            load_project("file://host/x").unwrap_err().code,
            RefusalCode::Invalid
        );
        std::fs::write(
            root.join("agentws.toml"),
            "[filesystem]\nmode = \"sandbox\"\nsandbox_root = \"/home/user\"\nworkspace_spec_root = \"/workspace\"\n",
        )
        .unwrap();
        let err = load_project(text).unwrap_err();
        assert_eq!(err.code, RefusalCode::InvalidConfig);
        assert!(err.message.contains("(CF009)"), "{}", err.message);
    }

    #[test]
    fn active_runs_are_bounded() {
        let registry = RunRegistry::with_disk_access(DiskAccess::Lexical).with_max_active_runs(2);
        let config = config();
        let a = registry
            .begin(&config, &params(Some("a"), None, "user"))
            .unwrap();
        registry
            .begin(&config, &params(Some("b"), None, "user"))
            .unwrap();
        let err = registry
            .begin(&config, &params(Some("c"), None, "user"))
            .unwrap_err();
        assert_eq!(err.code, RefusalCode::TooManyRuns);
        assert!(registry.end(&a.run_id));
        let c = registry
            .begin(&config, &params(Some("c"), None, "user"))
            .unwrap();
        assert_eq!(c.run_id, "run-3");
    }

    #[test]
    fn a_refused_run_is_not_registered() {
        let registry = RunRegistry::new();
        let err = registry
            .begin(&config(), &params(Some("../bob"), None, "user"))
            .unwrap_err();
        assert_eq!(err.code, RefusalCode::InvalidId);
        assert!(registry.is_empty());
    }

    /// 1 000 runs across 100 sessions, all active at once, 100 paths each, normalized from
    /// 20 threads in interleaved order: no answer may land under another session's root.
    #[test]
    fn concurrent_runs_never_see_each_other() {
        const SESSIONS: usize = 100;
        const RUNS: usize = 1000;
        const THREADS: usize = 20;
        const PATHS: usize = 100;
        let registry = RunRegistry::with_disk_access(DiskAccess::Lexical);
        let config = config();
        let barrier = Barrier::new(THREADS);
        let results: Vec<(usize, usize, usize)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..THREADS)
                .map(|t| {
                    let (registry, config, barrier) = (&registry, &config, &barrier);
                    scope.spawn(move || {
                        let mine: Vec<(usize, RunInfo)> = (t..RUNS)
                            .step_by(THREADS)
                            .map(|run| {
                                let session = format!("s{:03}", run % SESSIONS);
                                let info = registry
                                    .begin(config, &params(None, Some(&session), "session"))
                                    .unwrap();
                                (run, info)
                            })
                            .collect();
                        barrier.wait();
                        assert_eq!(registry.len(), RUNS);
                        let (mut accepted, mut refused, mut wrong) = (0, 0, 0);
                        for i in 0..PATHS {
                            for (run, info) in &mine {
                                let own = format!("s{:03}", run % SESSIONS);
                                let other = format!("s{:03}", (run + 1 + i) % SESSIONS);
                                let input = match i % 5 {
                                    0 => format!("notes/{i}.md"),
                                    1 => format!("/srv/ws/{own}/notes/{i}.md"),
                                    2 => format!("/srv/ws/{other}/notes/{i}.md"),
                                    3 => format!("file:///srv/ws/{own}/{i}.md"),
                                    _ => format!("{other}/{i}.md"),
                                };
                                match registry.normalize(&info.run_id, &input, Op::Write) {
                                    Ok(n) => {
                                        accepted += 1;
                                        let root = format!("/srv/ws/{own}/");
                                        if !n.path.starts_with(&root)
                                            || info.root != root[..root.len() - 1]
                                        {
                                            wrong += 1;
                                        }
                                        if i % 5 == 2 {
                                            wrong += 1;
                                        }
                                    }
                                    Err(r) => {
                                        refused += 1;
                                        if i % 5 != 2 || r.code != RefusalCode::CrossNamespace {
                                            wrong += 1;
                                        }
                                    }
                                }
                            }
                        }
                        barrier.wait();
                        for (_, info) in &mine {
                            assert!(registry.end(&info.run_id));
                        }
                        (accepted, refused, wrong)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let accepted: usize = results.iter().map(|r| r.0).sum();
        let refused: usize = results.iter().map(|r| r.1).sum();
        let wrong: usize = results.iter().map(|r| r.2).sum();
        assert_eq!(wrong, 0);
        assert_eq!(accepted, RUNS * PATHS * 4 / 5);
        assert_eq!(refused, RUNS * PATHS / 5);
        assert!(registry.is_empty());
    }
}
