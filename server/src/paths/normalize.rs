//! One run's path binding and the normalizer itself: which paths a run may name, under which key
//! the harness filesystem receives them and which physical file that is (docs/paths.md).
//!
//! The run's root comes from `context::effective_root` and nowhere else. A `Run` is immutable
//! once built, so any number of threads may normalize against it. The only disk access is the
//! symlink walk (`DiskAccess::ResolveSymlinks`, local filesystems only), which touches existing
//! path components and nothing else. Depends on `config`, `context`, `paths::input` and `paths::refusal`;
//! never on a front-end.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::input::{self, Shape};
use super::refusal::{Refusal, RefusalCode};
use crate::config::{Config, FilesystemMode, PathMode};
use crate::context::{effective_root, fold_case, SessionContext};

/// What the file tool is about to do with the path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    #[default]
    Read,
    Write,
}

impl Op {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "read" => Some(Self::Read),
            "write" => Some(Self::Write),
            _ => None,
        }
    }
}

/// An accepted path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Normalized {
    /// What the harness filesystem receives: relative to the run's root (`.` for the root), `/` +
    /// the path relative to the base workspace for a shared asset, or an absolute path outside
    /// the workspace.
    pub key: String,
    /// The physical path: a host path on a local filesystem, a container path in sandbox mode.
    pub path: String,
    /// `file://` URI of `path` when it is a host path; `None` for container paths.
    pub uri: Option<String>,
}

/// Whether the normalizer may look at the disk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DiskAccess {
    /// Walk the existing components of every accepted host path and refuse links that escape.
    #[default]
    ResolveSymlinks,
    /// Purely lexical: for benchmarks and for checking paths of a machine other than this one.
    Lexical,
}

/// The parts of a run context that are not in `SessionContext`.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    pub path_mode: PathMode,
    /// Absolute host folders outside the workspace the run may reach (with the project folder).
    pub additional_roots: Vec<PathBuf>,
    pub disk: DiskAccess,
}

impl RunOptions {
    /// The options `config` holds.
    pub fn from_config(config: &Config) -> Self {
        Self {
            path_mode: config.filesystem.path_mode,
            additional_roots: config.filesystem.additional_roots.clone(),
            disk: DiskAccess::default(),
        }
    }
}

/// Roots as clean `/`-separated strings (no trailing `/` except for `/` itself).
#[derive(Clone, Debug)]
struct Roots {
    /// E: where relative keys resolve.
    effective: String,
    /// B: the base workspace (host mode only; empty in sandbox mode).
    base: String,
    /// The project folder first, then the additional roots.
    outside: Vec<String>,
}

/// One run's binding: immutable, shareable between threads.
#[derive(Clone, Debug)]
pub struct Run {
    filesystem: FilesystemMode,
    path_mode: PathMode,
    namespace: Option<String>,
    advertised_root: String,
    lexical: Roots,
    /// The same roots with symlinks resolved, when the run resolves symlinks.
    real: Option<Roots>,
    /// True when some root's real spelling differs from its lexical one.
    roots_are_links: bool,
    /// Additional context files, relative to the base workspace (read without namespace).
    shared_files: Vec<String>,
    /// The project's `agentws.toml` (the loaded one and `P/agentws.toml`), case-folded: no run
    /// may write the configuration that binds its runs. Lexical spellings, then real ones.
    config_files: Vec<String>,
    real_config_files: Vec<String>,
}

/// Where a clean absolute path falls, borrowed from the path.
enum Verdict<'a> {
    /// Under E; the path relative to E (empty for E).
    Effective(&'a str),
    /// A shared asset under B; the path relative to B.
    Shared(&'a str),
    /// Under the outside root at this index, or (None) anywhere in unrestricted mode.
    Absolute(Option<usize>),
}

impl Run {
    /// Binds a run: its root from `context::effective_root`, its other roots from `options`.
    pub fn new(
        config: &Config,
        ctx: &SessionContext,
        options: RunOptions,
    ) -> Result<Self, Refusal> {
        let root = effective_root(config, ctx)?;
        let shared_files = config
            .agent
            .additional_context_files
            .iter()
            .filter_map(|f| input::clean(f).ok())
            .filter(|c| c.shape == Shape::Relative && !c.text.is_empty())
            .map(|c| c.text)
            .collect();
        let (lexical, real) = match root.filesystem {
            FilesystemMode::Local => {
                let host_root = root.host_root.as_deref().unwrap_or(&root.base);
                let mut outside = vec![host_root_string("project folder", &config.project)?];
                for extra in &options.additional_roots {
                    outside.push(host_root_string("additional root", extra)?);
                }
                let lexical = Roots {
                    effective: host_root_string("workspace", host_root)?,
                    base: host_root_string("workspace", &root.base)?,
                    outside,
                };
                let real = match options.disk {
                    DiskAccess::Lexical => None,
                    DiskAccess::ResolveSymlinks => Some(real_roots(&lexical, &root.namespace)),
                };
                (lexical, real)
            }
            FilesystemMode::Sandbox => {
                let lexical = Roots {
                    effective: clean_root(&root.root),
                    base: String::new(),
                    outside: Vec::new(),
                };
                (lexical, None)
            }
            FilesystemMode::Remote => return Err(Refusal::new(
                RefusalCode::UnsupportedFilesystem,
                "the remote filesystem keeps files in a store, not under host or container paths; \
                     the normalizer serves local and sandbox runs",
            )),
        };
        let roots_are_links = real
            .as_ref()
            .is_some_and(|real| real.base != lexical.base || real.outside != lexical.outside);
        let (config_files, real_config_files) = match root.filesystem {
            FilesystemMode::Local => {
                let mut lexical_files = Vec::new();
                let mut real_files = Vec::new();
                let own = config.project.join(CONFIG_FILE_NAME);
                for file in config.file.iter().chain(std::iter::once(&own)) {
                    let Ok(text) = host_root_string("configuration file", file) else {
                        continue;
                    };
                    if real.is_some() {
                        real_files.push(fold_case(&real_or_lexical(&text)));
                    }
                    lexical_files.push(fold_case(&text));
                }
                (lexical_files, real_files)
            }
            // Container paths never name a host file.
            _ => (Vec::new(), Vec::new()),
        };
        Ok(Self {
            config_files,
            real_config_files,
            roots_are_links,
            filesystem: root.filesystem,
            path_mode: options.path_mode,
            namespace: root.namespace,
            advertised_root: root.root,
            lexical,
            real,
            shared_files,
        })
    }

    /// E exactly as the prompt advertises it.
    pub fn root(&self) -> &str {
        &self.advertised_root
    }

    /// The namespace segment of this run, if any.
    pub fn namespace(&self) -> Option<&str> {
        self.namespace.as_deref()
    }

    pub fn filesystem(&self) -> FilesystemMode {
        self.filesystem
    }

    /// Normalizes one file-tool path for `op` (the whole contract of docs/paths.md).
    pub fn normalize(&self, raw: &str, op: Op) -> Result<Normalized, Refusal> {
        let clean = input::clean(raw)?;
        let roots = &self.lexical;
        let verdict = match clean.shape {
            Shape::Relative => Verdict::Effective(&clean.text),
            Shape::Posix | Shape::Windows => self.judge(roots, &clean.text, op, raw)?,
        };
        let host = self.filesystem == FilesystemMode::Local;
        let (key, path) = match &verdict {
            &Verdict::Effective(rel) => {
                let key = if rel.is_empty() { "." } else { rel };
                let path = if clean.shape == Shape::Relative {
                    join(&roots.effective, rel)
                } else {
                    // A clean absolute path under E is already E/rel.
                    clean.text.clone()
                };
                (key.to_string(), path)
            }
            &Verdict::Shared(rel) => {
                let mut key = String::with_capacity(rel.len() + 1);
                key.push('/');
                key.push_str(rel);
                (key, clean.text.clone())
            }
            Verdict::Absolute(_) => (clean.text.clone(), clean.text.clone()),
        };
        if op == Op::Write {
            self.guard_config(&self.config_files, &path, raw)?;
        }
        if let Some(real) = &self.real {
            self.check_links(real, &clean.text, &verdict, op, raw)?;
        }
        let uri = host.then(|| file_uri(&path));
        Ok(Normalized { key, path, uri })
    }

    /// Where a clean absolute path falls for this run, or why it is refused.
    fn judge<'a>(
        &self,
        roots: &Roots,
        path: &'a str,
        op: Op,
        raw: &str,
    ) -> Result<Verdict<'a>, Refusal> {
        if let Some(rel) = under(path, &roots.effective) {
            return Ok(Verdict::Effective(rel));
        }
        if self.filesystem == FilesystemMode::Sandbox {
            return Err(Refusal::new(
                RefusalCode::OutsideRoots,
                format!(
                    "`{}` is not under the sandbox root `{}`; in sandbox mode the file tools see only container paths under it",
                    esc(raw),
                    roots.effective
                ),
            ));
        }
        if let (Some(ns), Some(rel)) = (&self.namespace, under(path, &roots.base)) {
            if self.is_shared_asset(rel) {
                return match op {
                    Op::Read => Ok(Verdict::Shared(rel)),
                    Op::Write => Err(Refusal::new(
                        RefusalCode::SharedReadOnly,
                        format!(
                            "`{}` is the shared workspace asset `{rel}`, which every namespace reads; \
                             a run may read it but not write it (write `{rel}` relative to write this run's own copy)",
                            esc(raw)
                        ),
                    )),
                };
            }
            let whose = match rel.split('/').next() {
                Some(first) if !first.is_empty() => {
                    format!("the folder `{first}` of the base workspace")
                }
                _ => "the base workspace itself".to_string(),
            };
            return Err(Refusal::new(
                RefusalCode::CrossNamespace,
                format!(
                    "`{}` is {whose}, outside this run's root `{}` (namespace `{ns}`); \
                     a namespaced run reaches only its own folder and reads the shared assets",
                    esc(raw),
                    roots.effective
                ),
            ));
        }
        if self.namespace.is_some()
            && !roots.base.is_empty()
            && under_ignoring_case(path, &roots.base)
        {
            return Err(Refusal::new(
                RefusalCode::CrossNamespace,
                format!(
                    "`{}` names the base workspace `{}` with other letter case; on a case-insensitive \
                     volume (macOS, Windows) that is the workspace folder itself, where a namespaced \
                     run reaches only its own folder `{}` as spelled",
                    esc(raw),
                    roots.base,
                    roots.effective
                ),
            ));
        }
        if let Some(index) = roots.outside.iter().position(|r| under(path, r).is_some()) {
            return match self.path_mode {
                PathMode::Sandboxed => Err(Refusal::new(
                    RefusalCode::OutsideRoots,
                    format!(
                        "`{}` is under `{}`, which the sandboxed path mode does not reach; only `{}` is",
                        esc(raw),
                        roots.outside[index],
                        roots.effective
                    ),
                )),
                _ => Ok(Verdict::Absolute(Some(index))),
            };
        }
        if self.path_mode == PathMode::Unrestricted {
            return Ok(Verdict::Absolute(None));
        }
        Err(Refusal::new(
            RefusalCode::OutsideRoots,
            format!(
                "`{}` is outside this run's root `{}`{}",
                esc(raw),
                roots.effective,
                match self.path_mode {
                    PathMode::Sandboxed => String::new(),
                    _ => format!(
                        ", the project folder and the additional roots ({})",
                        roots.outside.join(", ")
                    ),
                }
            ),
        ))
    }

    /// A write that names the project's own `agentws.toml` (compared without letter case, as a
    /// case-insensitive volume would) is refused in every mode and scope.
    fn guard_config(&self, files: &[String], path: &str, raw: &str) -> Result<(), Refusal> {
        let name = path.rsplit('/').next().unwrap_or(path);
        if files.is_empty() || fold_case(name) != CONFIG_FILE_NAME {
            return Ok(());
        }
        let folded = fold_case(path);
        if files.contains(&folded) {
            return Err(Refusal::new(
                RefusalCode::SharedReadOnly,
                format!(
                    "`{}` is the project's configuration `{path}`, which binds every run of the \
                     project (roots, path mode, sandbox root); a run may read it but not write it",
                    esc(raw)
                ),
            ));
        }
        Ok(())
    }

    fn is_shared_asset(&self, rel: &str) -> bool {
        let first = rel.split('/').next().unwrap_or("");
        match first {
            "AGENTS.md" | "MEMORY.md" | "tools.json" => rel == first,
            "knowledge" | "skills" | "subagents" | ".skills-cache" => true,
            _ => self.shared_files.iter().any(|f| f == rel),
        }
    }

    /// The symlink rule: walk the existing part of the accepted path; when a link was followed,
    /// the real path must pass `judge` against the real roots.
    fn check_links(
        &self,
        real_roots: &Roots,
        clean: &str,
        verdict: &Verdict<'_>,
        op: Op,
        raw: &str,
    ) -> Result<(), Refusal> {
        let (start, ns, rel): (&str, Option<&str>, &str) = match *verdict {
            Verdict::Effective(rel) => (&real_roots.base, self.namespace.as_deref(), rel),
            Verdict::Shared(rel) => (&real_roots.base, None, rel),
            Verdict::Absolute(Some(index)) => {
                let rel = under(clean, &self.lexical.outside[index]).unwrap_or("");
                (&real_roots.outside[index], None, rel)
            }
            Verdict::Absolute(None) => {
                if !clean.starts_with('/') {
                    return Ok(()); // A Windows path names nothing on this host.
                }
                ("/", None, &clean[1..])
            }
        };
        let components = ns
            .into_iter()
            .chain(rel.split('/').filter(|s| !s.is_empty()));
        let walk = resolve_links(Path::new(start), components);
        if op == Op::Write {
            if let Ok(Walk { links: extra, .. }) = &walk {
                if *extra > 1 {
                    return Err(Refusal::new(
                        RefusalCode::HardLink,
                        format!(
                            "`{}` is a file with {extra} hard links; its other names may lie in \
                             another namespace's folder or be shared assets, which no path check \
                             can see, so a run may read it but not write it",
                            esc(raw)
                        ),
                    ));
                }
            }
        }
        let real = match walk.map(|w| w.real) {
            // No link on the way and every root is spelled as it really is: the lexical verdict
            // is the real one.
            Ok(None) if !self.roots_are_links => return Ok(()),
            // A root reached through a link (a workspace under `/tmp` on macOS, a linked
            // checkout): the real spelling may fall under another root, so judge it too.
            Ok(None) => {
                let mut real = PathBuf::from(start);
                real.extend(
                    ns.into_iter()
                        .chain(rel.split('/').filter(|s| !s.is_empty())),
                );
                real
            }
            Ok(Some(real)) => real,
            Err(why) => {
                return Err(Refusal::new(
                    RefusalCode::SymlinkEscape,
                    format!("`{}` {why}", esc(raw)),
                ))
            }
        };
        let Some(real_str) = real.to_str() else {
            return Err(Refusal::new(
                RefusalCode::SymlinkEscape,
                format!(
                    "`{}` resolves through a symbolic link to a path that is not UTF-8",
                    esc(raw)
                ),
            ));
        };
        let real_text = clean_root(real_str);
        let judged = self
            .judge(real_roots, &real_text, op, &real_text)
            .and_then(|_| match op {
                Op::Write => self.guard_config(&self.real_config_files, &real_text, &real_text),
                Op::Read => Ok(()),
            });
        match judged {
            Ok(_) => Ok(()),
            Err(refusal) => Err(Refusal::new(
                RefusalCode::SymlinkEscape,
                format!(
                    "`{}` resolves through a symbolic link to `{real_text}`, which this run may not {}: {} ({})",
                    esc(raw),
                    match op {
                        Op::Read => "read",
                        Op::Write => "write",
                    },
                    refusal.code,
                    refusal.message
                ),
            )),
        }
    }
}

/// The name of agentws's own configuration file.
const CONFIG_FILE_NAME: &str = "agentws.toml";

/// Longest chain of links followed before a path counts as a loop (Linux `MAXSYMLINKS`).
const MAX_LINK_HOPS: usize = 40;

/// What the walk of one path found.
struct Walk {
    /// `None` when no link was met (the lexical path is the real one), else the real path.
    real: Option<PathBuf>,
    /// Hard links of the file the path ends at (its `st_nlink`), 0 when it names no existing
    /// regular file.
    links: u64,
}

/// Walks `components` from the real folder `start` with one `lstat` per existing component.
fn resolve_links<'a>(
    start: &Path,
    components: impl Iterator<Item = &'a str>,
) -> Result<Walk, String> {
    let mut current = start.to_path_buf();
    let mut components = components.peekable();
    while let Some(component) = components.next() {
        current.push(component);
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let rest: Vec<std::ffi::OsString> = components.map(Into::into).collect();
                let (real, links) = resolve_slow(current, rest)?;
                return Ok(Walk {
                    real: Some(real),
                    links,
                });
            }
            Ok(meta) if meta.is_dir() => {}
            // The file the path names: the walk's last `lstat` says how many names it has.
            Ok(meta) if meta.is_file() && components.peek().is_none() => {
                return Ok(Walk {
                    real: None,
                    links: hard_links(&meta),
                });
            }
            // A file with more components after it, a missing component, or one we may not
            // look into: nothing below can be a link the harness would follow.
            _ => break,
        }
    }
    Ok(Walk {
        real: None,
        links: 0,
    })
}

#[cfg(unix)]
fn hard_links(meta: &fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(meta)
}

#[cfg(not(unix))]
fn hard_links(_meta: &fs::Metadata) -> u64 {
    1
}

/// Resolves `link` (a symlink) followed by `rest`, like `realpath` but tolerating a missing tail;
/// also returns the hard links of the regular file it ends at (0 for anything else).
fn resolve_slow(link: PathBuf, rest: Vec<std::ffi::OsString>) -> Result<(PathBuf, u64), String> {
    use std::ffi::OsString;
    let mut stack: Vec<OsString> = rest.into_iter().rev().collect();
    let mut current = link;
    let mut hops = 0usize;
    let mut missing = false;
    // `current` is a link still to expand on entry.
    let mut pending_link = true;
    let mut links = 0u64;
    loop {
        if pending_link {
            links = 0;
            hops += 1;
            if hops > MAX_LINK_HOPS {
                return Err("goes through more than 40 symbolic links (a link loop)".to_string());
            }
            let target = fs::read_link(&current)
                .map_err(|e| format!("goes through a symbolic link that cannot be read ({e})"))?;
            current.pop();
            if target.is_absolute() {
                current = PathBuf::from("/");
            }
            for part in target
                .components()
                .rev()
                .filter(|c| !matches!(c, std::path::Component::RootDir))
            {
                stack.push(part.as_os_str().to_os_string());
            }
            pending_link = false;
        }
        let Some(part) = stack.pop() else {
            return Ok((current, links));
        };
        if part == "." || part.is_empty() {
            continue;
        }
        links = 0;
        if part == ".." {
            if missing {
                return Err(
                    "goes through a symbolic link whose target climbs out of a missing folder"
                        .to_string(),
                );
            }
            current.pop();
            continue;
        }
        current.push(&part);
        if missing {
            continue;
        }
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => pending_link = true,
            Ok(meta) if meta.is_file() => links = hard_links(&meta),
            Ok(_) => {}
            Err(err) if err.kind() == io::ErrorKind::NotFound => missing = true,
            Err(_) => missing = true,
        }
    }
}

fn real_roots(lexical: &Roots, namespace: &Option<String>) -> Roots {
    let base = real_or_lexical(&lexical.base);
    // E's real form is real(B)/ns, never real(E): a namespace folder that is itself a link
    // must be caught by the walk, not baked into the root.
    let effective = match namespace {
        Some(ns) => join(&base, ns),
        None => base.clone(),
    };
    Roots {
        effective,
        base,
        outside: lexical.outside.iter().map(|r| real_or_lexical(r)).collect(),
    }
}

fn real_or_lexical(root: &str) -> String {
    fs::canonicalize(root)
        .ok()
        .and_then(|p| p.to_str().map(clean_root))
        .unwrap_or_else(|| root.to_string())
}

/// An absolute host folder as a clean root string (lexical `.`/`..` handling, like
/// `Path.toAbsolutePath().normalize()`).
fn host_root_string(what: &str, path: &Path) -> Result<String, Refusal> {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match absolute.to_str() {
        Some(s) => Ok(clean_root(s)),
        None => Err(Refusal::new(
            RefusalCode::InvalidParams,
            format!("the {what} `{}` is not UTF-8", absolute.display()),
        )),
    }
}

/// `/a//b/./c/../d/` → `/a/b/d`; `/` stays `/`.
fn clean_root(root: &str) -> String {
    let mut out = String::with_capacity(root.len());
    for segment in root.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                let cut = out.rfind('/').unwrap_or(0);
                out.truncate(cut);
            }
            _ => {
                out.push('/');
                out.push_str(segment);
            }
        }
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

/// `path` relative to `root` when `path` is `root` or below it, compared by components.
fn under<'a>(path: &'a str, root: &str) -> Option<&'a str> {
    if root.is_empty() {
        return None;
    }
    if root == "/" {
        return path.strip_prefix('/');
    }
    let rest = path.strip_prefix(root)?;
    if rest.is_empty() {
        Some("")
    } else {
        rest.strip_prefix('/')
    }
}

/// `under` compared as a case-insensitive volume compares names; without allocating when both
/// sides are ASCII (the common case).
fn under_ignoring_case(path: &str, root: &str) -> bool {
    if path.is_ascii() && root.is_ascii() {
        return path.len() >= root.len()
            && path.as_bytes()[..root.len()].eq_ignore_ascii_case(root.as_bytes())
            && (root == "/" || path.len() == root.len() || path.as_bytes()[root.len()] == b'/');
    }
    under(&fold_case(path), &fold_case(root)).is_some()
}

fn join(root: &str, rel: &str) -> String {
    if rel.is_empty() {
        return root.to_string();
    }
    let mut out = String::with_capacity(root.len() + 1 + rel.len());
    out.push_str(root);
    if !root.ends_with('/') {
        out.push('/');
    }
    out.push_str(rel);
    out
}

/// `file://` URI of a clean absolute path (`C:/x` ⇒ `file:///C:/x`).
pub fn file_uri(path: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    fn keep(b: u8) -> bool {
        b.is_ascii_alphanumeric() || b"-._~/:@!$&'()*+,;=".contains(&b)
    }
    let mut out = String::with_capacity(path.len() + 8);
    out.push_str("file://");
    if !path.starts_with('/') {
        out.push('/');
    }
    let bytes = path.as_bytes();
    let mut kept_from = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if !keep(b) {
            // A non-empty run of kept bytes is ASCII and starts right after an encoded byte, so
            // both its ends are char boundaries.
            if kept_from < i {
                out.push_str(&path[kept_from..i]);
            }
            out.push('%');
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 15) as usize] as char);
            kept_from = i + 1;
        }
    }
    if kept_from < bytes.len() {
        out.push_str(&path[kept_from..]);
    }
    out
}

fn esc(raw: &str) -> String {
    let shown = if raw.len() > 200 {
        let mut end = 200;
        while !raw.is_char_boundary(end) {
            end -= 1;
        }
        &raw[..end]
    } else {
        raw
    };
    shown.escape_debug().to_string()
}
