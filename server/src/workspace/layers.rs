//! Per-context views of a workspace snapshot, as the runtime computes them for one call
//! (harness-spec §1.3, §5.6, §6.3): the three-level file read with its quirks and the knowledge
//! listing. Which skill and subagent files load is `resolution`'s (re-exported here).
//!
//! Everything here is a pure function of (snapshot, effective root): the namespace comes from
//! `context::effective_root`, never from a second computation. Where the runtime's result depends
//! on the OS directory order, these views sort (Java `String` order) and the renderer says so.
//! Depends on `base`, `config`, `context` and the workspace documents; never on `prompt`.

use std::path::{Path, PathBuf};

use crate::base::pathutil::{slash_string, strip_dir};
use crate::base::FileContent;
use crate::config::{FilesystemMode, PathMode};
use crate::context::EffectiveRoot;
use crate::syntax::java;
use crate::workspace::Workspace;

/// What the local filesystem returns for an existing blank file (harness-spec §1.3).
pub const EMPTY_FILE_REMINDER: &str = "System reminder: File exists but has empty contents";

/// Extensions the local filesystem returns base64-encoded (harness-spec §1.3, case-insensitive).
pub const BINARY_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "webp", "heic", "heif", "bmp", "ico", "svg", "mp4", "mpeg", "mov",
    "avi", "flv", "mpg", "webm", "wmv", "3gpp", "wav", "mp3", "aiff", "aac", "ogg", "flac", "pdf",
    "ppt", "pptx", "doc", "docx", "xls", "xlsx", "zip", "tar", "gz", "bz2", "7z", "rar", "class",
    "jar", "war", "ear", "so", "dll", "dylib", "exe",
];

/// Folders (and files) the sandbox projects from the host workspace at start (harness-spec §1.3).
const SANDBOX_PROJECTION: &[&str] = &[
    "AGENTS.md",
    "skills",
    "subagents",
    "knowledge",
    ".skills-cache",
];
/// Remote-store routes whose lower layer is the workspace template (harness-spec §1.3).
const REMOTE_ROUTES: &[&str] = &[
    "AGENTS.md",
    "MEMORY.md",
    "tools.json",
    "memory",
    "skills",
    "subagents",
    "knowledge",
    "plans",
];

/// Which of the three levels of `readWithOverride` produced the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadLevel {
    /// Level 1: the agent filesystem's own layer (`<ws>/<ns>/…` locally, the container in sandbox
    /// mode, the store template in remote mode).
    Filesystem,
    /// Level 2: the overlay's lower layer, `<project>/…`.
    Project,
    /// Level 3: the direct disk read of `<ws>/…`.
    Disk,
}

/// How the text relates to the file's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadTransform {
    Verbatim,
    /// The file was blank; the filesystem answered [`EMPTY_FILE_REMINDER`].
    EmptyReminder,
    /// A binary extension: the local filesystem returns the bytes base64-encoded.
    Base64,
    /// The preview could not hold the file's text (too large, not UTF-8, not loaded): `text` is a
    /// bracketed stand-in and `problem` says why.
    StandIn,
}

/// The result of one per-context read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContextRead {
    /// The text the runtime gets ("" when the file exists nowhere).
    pub text: String,
    /// The file the text came from.
    pub source: Option<PathBuf>,
    pub level: Option<ReadLevel>,
    pub transform: ReadTransform,
    /// Something the preview could not reproduce exactly, for the notes.
    pub problem: Option<String>,
}

impl ContextRead {
    fn absent() -> Self {
        Self {
            text: String::new(),
            source: None,
            level: None,
            transform: ReadTransform::Verbatim,
            problem: None,
        }
    }
}

/// How a filesystem layer answers for an existing blank file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BlankRule {
    /// Local filesystem: Java-blank ⇒ the reminder; binary extensions ⇒ base64.
    Local,
    /// Sandbox (`sed` in the container): only a zero-byte file gets the reminder.
    ZeroByteOnly,
    /// A remote store entry: its text as stored, blank or not (no reminder, no base64); empty
    /// content or an unreadable entry sends the read straight to the disk level.
    Store,
}

/// `WorkspaceManager.readWithOverride(rc, rel)` for the context `root` (harness-spec §1.3).
/// `rel` must already be workspace-relative and normalized (no leading `/`).
pub fn read_with_override(ws: &Workspace, root: &EffectiveRoot, rel: &str) -> ContextRead {
    let config = &ws.config;
    let mut problems = Vec::new();
    for (path, level, rule) in filesystem_layers(ws, root, rel) {
        let Some(entry) = ws.files.get(&path) else {
            continue;
        };
        let rule = if ws.files.origin(&path).is_some() {
            BlankRule::Store
        } else {
            rule
        };
        if rule == BlankRule::Store && entry.content.text().is_none_or(str::is_empty) {
            // `readWithOverride`: a failed or empty store read goes to the raw disk file.
            if let Some(problem) = entry.content.text().is_none().then(|| {
                format!(
                    "the store entry `{}` cannot be read",
                    ws.files.origin(&path).unwrap_or("")
                )
            }) {
                problems.push(problem);
            }
            break;
        }
        match layer_text(&path, &entry.content, rule) {
            Ok((text, transform, problem)) if !text.is_empty() => {
                return ContextRead {
                    text,
                    source: Some(path),
                    level: Some(level),
                    transform,
                    problem,
                };
            }
            Ok(_) => {}
            Err(problem) => problems.push(problem),
        }
    }
    let disk = join_rel(&config.workspace, rel);
    let mut read = match ws.files.get(&disk) {
        None => ContextRead::absent(),
        Some(entry) => match &entry.content {
            FileContent::Text(text) => ContextRead {
                text: text.to_string(),
                source: Some(disk),
                level: Some(ReadLevel::Disk),
                transform: ReadTransform::Verbatim,
                problem: None,
            },
            other => {
                let (text, problem) = stand_in(&disk, other);
                ContextRead {
                    text,
                    source: Some(disk),
                    level: Some(ReadLevel::Disk),
                    transform: ReadTransform::StandIn,
                    problem: Some(problem),
                }
            }
        },
    };
    if read.problem.is_none() && !problems.is_empty() {
        read.problem = Some(problems.join("; "));
    }
    read
}

/// Levels 1 and 2 for this filesystem mode, in order.
fn filesystem_layers(
    ws: &Workspace,
    root: &EffectiveRoot,
    rel: &str,
) -> Vec<(PathBuf, ReadLevel, BlankRule)> {
    let config = &ws.config;
    let first = rel.split('/').next().unwrap_or("");
    match root.filesystem {
        FilesystemMode::Local => vec![
            (
                join_rel(&namespace_dir(root), rel),
                ReadLevel::Filesystem,
                BlankRule::Local,
            ),
            (
                join_rel(&config.project, rel),
                ReadLevel::Project,
                BlankRule::Local,
            ),
        ],
        FilesystemMode::Sandbox if SANDBOX_PROJECTION.contains(&first) => vec![(
            join_rel(&config.workspace, rel),
            ReadLevel::Filesystem,
            BlankRule::ZeroByteOnly,
        )],
        FilesystemMode::Sandbox => Vec::new(),
        // The store layer is unknowable (assumed empty, noted by the renderer); its lower layer is
        // the template; everything else goes to a namespaced local filesystem.
        FilesystemMode::Remote if REMOTE_ROUTES.contains(&first) => {
            // With the store read (docs/stores.md), its entries lie at `<ws>/<ns>/…` above the
            // template, as the overlay's upper layer.
            let stored = root
                .namespace
                .as_ref()
                .map(|ns| config.workspace.join(ns))
                .filter(|dir| ws.files.is_stored(dir));
            stored
                .map(|dir| (join_rel(&dir, rel), ReadLevel::Filesystem, BlankRule::Store))
                .into_iter()
                .chain([(
                    join_rel(&config.workspace, rel),
                    ReadLevel::Filesystem,
                    BlankRule::Local,
                )])
                .collect()
        }
        FilesystemMode::Remote => vec![(
            join_rel(&namespace_dir(root), rel),
            ReadLevel::Filesystem,
            BlankRule::Local,
        )],
    }
}

/// What one context's `readWithOverride` makes of a blank file (harness-spec §1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlankRead {
    /// Read by the filesystem layer, which answers [`EMPTY_FILE_REMINDER`].
    Reminder,
    /// Read by the sandbox's `sed`, which returns the white space itself (only a zero-byte file
    /// gets the reminder there).
    WhiteSpace,
    /// Only the direct disk read reaches it: blank reads as "" and nothing is injected.
    Empty,
    /// This context never reads this file.
    NotRead,
}

/// How the context `root` reads the blank file `path` (workspace-relative `rel`), when it is
/// the copy that context reaches: the same layer table [`read_with_override`] walks, so the
/// check and the preview cannot disagree about it.
pub fn blank_read(
    ws: &Workspace,
    root: &EffectiveRoot,
    rel: &str,
    path: &Path,
    zero_bytes: bool,
) -> BlankRead {
    let layer = filesystem_layers(ws, root, rel)
        .into_iter()
        .find(|(layer_path, _, _)| layer_path == path);
    match layer {
        Some((_, _, BlankRule::ZeroByteOnly)) if !zero_bytes => BlankRead::WhiteSpace,
        Some((_, _, BlankRule::Store)) if zero_bytes => BlankRead::Empty,
        Some((_, _, BlankRule::Store)) => BlankRead::WhiteSpace,
        Some(_) => BlankRead::Reminder,
        None if join_rel(&ws.config.workspace, rel) == path => BlankRead::Empty,
        None => BlankRead::NotRead,
    }
}

/// `<ws>/<ns>` (or `<ws>` with an empty namespace): the local upper layer of this context.
pub fn namespace_dir(root: &EffectiveRoot) -> PathBuf {
    match &root.namespace {
        Some(ns) => root.base.join(ns),
        None => root.base.clone(),
    }
}

type LayerText = (String, ReadTransform, Option<String>);

fn layer_text(path: &Path, content: &FileContent, rule: BlankRule) -> Result<LayerText, String> {
    match content {
        FileContent::Text(text) => {
            if rule == BlankRule::Local && is_binary_name(path) {
                return Ok((base64(text.as_bytes()), ReadTransform::Base64, None));
            }
            let blank = match rule {
                BlankRule::Local => crate::syntax::java::is_blank(text),
                BlankRule::ZeroByteOnly => text.is_empty(),
                BlankRule::Store => false,
            };
            if blank {
                Ok((
                    EMPTY_FILE_REMINDER.to_string(),
                    ReadTransform::EmptyReminder,
                    None,
                ))
            } else {
                Ok((text.to_string(), ReadTransform::Verbatim, None))
            }
        }
        FileContent::Unreadable { error } => Err(format!(
            "`{}` could not be read ({error}); rendered as if the runtime's read failed too",
            path.display()
        )),
        FileContent::NotRegular { kind } => Err(format!(
            "`{}` is {kind}, not a regular file: agentws did not open it (the runtime's read would \
             wait for a writer or fail); rendered as if the read failed",
            path.display()
        )),
        other => {
            let (text, problem) = stand_in(path, other);
            Ok((text, ReadTransform::StandIn, Some(problem)))
        }
    }
}

/// A bracketed stand-in for text the preview does not hold, and the note explaining it.
fn stand_in(path: &Path, content: &FileContent) -> (String, String) {
    let name = path.display();
    match content {
        FileContent::TooLarge { size } => (
            format!("[agentws: {size} bytes not shown — over the preview's read limit]"),
            format!(
                "`{name}` is {size} bytes, over the preview's {} MiB read limit: the runtime injects it whole; \
                 the preview shows a one-line stand-in",
                crate::base::files::MAX_TEXT_BYTES / (1024 * 1024)
            ),
        ),
        FileContent::NotUtf8 { valid_up_to, .. } => (
            "[agentws: file is not UTF-8 — not shown]".to_string(),
            format!(
                "`{name}` is not valid UTF-8 (first bad byte at {valid_up_to}): the runtime decodes it with \
                 replacement characters; the preview shows a one-line stand-in"
            ),
        ),
        FileContent::NotRegular { kind } => (
            "[agentws: not a regular file — not opened]".to_string(),
            format!(
                "`{name}` is {kind}, not a regular file: agentws did not open it (the runtime's read \
                 would wait for a writer or fail); the preview shows a one-line stand-in"
            ),
        ),
        _ => (
            "[agentws: file content not loaded]".to_string(),
            format!("`{name}` was listed but its content was not loaded; the preview shows a stand-in"),
        ),
    }
}

fn is_binary_name(path: &Path) -> bool {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .is_some_and(|e| BINARY_EXTENSIONS.contains(&e.as_str()))
}

/// Standard base64 with padding (`java.util.Base64.getEncoder()`).
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `dir` joined with a `/`-separated relative path.
pub fn join_rel(dir: &Path, rel: &str) -> PathBuf {
    let mut path = dir.to_path_buf();
    for part in rel.split('/').filter(|p| !p.is_empty()) {
        path.push(part);
    }
    path
}

/// `/`-separated path of `path` below `dir`.
fn rel_below(path: &Path, dir: &Path) -> Option<String> {
    strip_dir(path, dir).map(slash_string)
}

// Skills and subagents: which file loads in a context is `resolution`'s answer alone.
pub use crate::workspace::resolution::{
    is_hidden_below_skills, workspace_dir_source, ListedSubagent, MergedSkill, GENERAL_PURPOSE,
    WORKSPACE_NAMESPACED_SOURCE,
};

// ---------------------------------------------------------------------------------------------
// Knowledge listing (harness-spec §5.6)

/// The `Knowledge files:` list for this context: the filesystem glob (project files, then the
/// upper layer's), then the host walk of `<ws>/knowledge/**`, de-duplicated, each part sorted.
pub fn knowledge_files(ws: &Workspace, root: &EffectiveRoot) -> Vec<String> {
    let config = &ws.config;
    let mut out: Vec<String> = Vec::new();
    let push = |rel: String, out: &mut Vec<String>| {
        if !out.contains(&rel) {
            out.push(rel);
        }
    };
    let listed = |dir: &Path| -> Vec<String> {
        let mut rels: Vec<String> = ws
            .files
            .files_under(&dir.join("knowledge"))
            // A store entry read only by its path (KNOWLEDGE.md in an unindexed Redis hash) is
            // injected, yet the runtime's glob never returns it.
            .filter(|(p, _)| ws.files.is_listed(p))
            .filter_map(|(p, _)| rel_below(p, dir))
            .collect();
        rels.sort_by(|a, b| java::compare_to(a, b));
        rels
    };
    match root.filesystem {
        FilesystemMode::Local => {
            for rel in listed(&config.project) {
                push(rel, &mut out);
            }
            // SANDBOXED listings keep the namespace prefix (Corrections 1).
            let prefix = match (&root.namespace, config.filesystem.path_mode) {
                (Some(ns), PathMode::Sandboxed) => format!("{ns}/"),
                _ => String::new(),
            };
            for rel in listed(&namespace_dir(root)) {
                push(format!("{prefix}{rel}"), &mut out);
            }
        }
        FilesystemMode::Sandbox | FilesystemMode::Remote => {
            for rel in listed(&config.workspace) {
                push(rel, &mut out);
            }
            // The store's knowledge entries, merged with the template's by path (the overlay).
            if let Some(dir) = root
                .namespace
                .as_ref()
                .map(|ns| config.workspace.join(ns))
                .filter(|dir| root.filesystem == FilesystemMode::Remote && ws.files.is_stored(dir))
            {
                for rel in listed(&dir) {
                    push(rel, &mut out);
                }
                out.sort_by(|a, b| java::compare_to(a, b));
            }
        }
    }
    for rel in listed(&config.workspace) {
        push(rel, &mut out);
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::config::{Config, Scope};
    use crate::context::{effective_root, SessionContext};

    /// A workspace of `files` under the default configuration of `/p`, changed by `edit`
    /// (shared with the resolution's tests).
    pub(crate) fn snapshot(files: &[(&str, &str)], edit: impl FnOnce(&mut Config)) -> Workspace {
        let mut config = Config::defaults_for(Path::new("/p"));
        config.agent.name = Some("assistant".into());
        edit(&mut config);
        Workspace::from_texts(config, files.iter().copied())
    }

    /// The effective root of `user`'s session under `scope`.
    pub(crate) fn root_for(ws: &Workspace, user: Option<&str>, scope: Scope) -> EffectiveRoot {
        let mut ctx = SessionContext::from_config(&ws.config);
        ctx.user_id = user.map(str::to_string);
        ctx.scope = scope;
        effective_root(&ws.config, &ctx).unwrap()
    }

    const W: &str = "/p/.agentscope/workspace";

    #[test]
    fn three_levels_with_the_blank_reminder() {
        let ws = snapshot(
            &[
                ("/p/.agentscope/workspace/alice/AGENTS.md", " \n"),
                ("/p/.agentscope/workspace/AGENTS.md", "shared"),
                ("/p/AGENTS.md", "project"),
                ("/p/.agentscope/workspace/MEMORY.md", "  "),
            ],
            |_| {},
        );
        let alice = root_for(&ws, Some("alice"), Scope::User);
        let read = read_with_override(&ws, &alice, "AGENTS.md");
        assert_eq!(read.text, EMPTY_FILE_REMINDER);
        assert_eq!(read.level, Some(ReadLevel::Filesystem));
        let bob = root_for(&ws, Some("bob"), Scope::User);
        let read = read_with_override(&ws, &bob, "AGENTS.md");
        assert_eq!(
            (read.text.as_str(), read.level),
            ("project", Some(ReadLevel::Project))
        );
        // Level 3 hands a blank file over as it is.
        let read = read_with_override(&ws, &bob, "MEMORY.md");
        assert_eq!(
            (read.text.as_str(), read.level),
            ("  ", Some(ReadLevel::Disk))
        );
        // With an empty namespace level 1 is the shared file: blank ⇒ reminder.
        let global = root_for(&ws, None, Scope::Global);
        assert_eq!(
            read_with_override(&ws, &global, "MEMORY.md").text,
            EMPTY_FILE_REMINDER
        );
    }

    #[test]
    fn binary_extensions_are_base64() {
        let ws = snapshot(&[("/p/.agentscope/workspace/logo.svg", "<svg/>")], |_| {});
        let root = root_for(&ws, None, Scope::Agent);
        let read = read_with_override(&ws, &root, "logo.svg");
        assert_eq!(read.text, "PHN2Zy8+");
        assert_eq!(read.transform, ReadTransform::Base64);
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(base64(b"a"), "YQ==");
    }

    #[test]
    fn project_skill_is_re_read_from_the_workspace_when_it_exists() {
        let ws = snapshot(
            &[
                (
                    "/p/skills/x/SKILL.md",
                    "---\nname: x\ndescription: project\n---\nb\n",
                ),
                (
                    &format!("{W}/skills/x/SKILL.md"),
                    "---\nname: x\ndescription: shared\n---\nb\n",
                ),
            ],
            |_| {},
        );
        let root = root_for(&ws, Some("alice"), Scope::User);
        let res = crate::workspace::resolution::resolve(&ws, &root);
        let merged = res.skills();
        assert_eq!(merged.len(), 1);
        assert_eq!(&*merged[0].source, "workspace-namespaced");
        assert_eq!(merged[0].doc.description.as_deref(), Some("shared"));
    }

    #[test]
    fn knowledge_lists_project_then_namespace_then_host_walk() {
        let ws = snapshot(
            &[
                ("/p/knowledge/p.md", "x"),
                (&format!("{W}/alice/knowledge/routes.md"), "x"),
                (&format!("{W}/knowledge/KNOWLEDGE.md"), "x"),
                (&format!("{W}/knowledge/a/b.md"), "x"),
            ],
            |_| {},
        );
        let root = root_for(&ws, Some("alice"), Scope::User);
        assert_eq!(
            knowledge_files(&ws, &root),
            vec![
                "knowledge/p.md",
                "knowledge/routes.md",
                "knowledge/KNOWLEDGE.md",
                "knowledge/a/b.md"
            ]
        );
        let sandboxed = snapshot(&[(&format!("{W}/alice/knowledge/routes.md"), "x")], |c| {
            c.filesystem.path_mode = PathMode::Sandboxed
        });
        let root = root_for(&sandboxed, Some("alice"), Scope::User);
        assert_eq!(
            knowledge_files(&sandboxed, &root),
            vec!["alice/knowledge/routes.md"]
        );
    }
}
