//! The workspace context of WorkspaceContextMiddleware (harness-spec §5.2–5.6):
//! W = S + "\n\n" + G + "\n" + P + "\n" + L, the session context, the guidance, the `## Workspace`
//! paragraph of the filesystem mode and the loaded context, with the memory budget that cuts
//! MEMORY.md.
//!
//! Writes through `builder::PromptBuilder`; knows nothing of skills or subagents.

use super::builder::{read_sources, PromptBuilder};
use crate::base::pathutil::normalize_lexically;
use crate::config::release::Change;
use crate::config::{Config, Features, FilesystemMode, PathMode};
use crate::context::{self, EffectiveRoot};
use crate::prompt::texts::{self, format_java};
use crate::prompt::{
    estimate_tokens, BudgetReport, LineRange, MemoryCut, PreviewContext, SourceRef,
};
use crate::syntax::java;
use crate::workspace::layers::{self, ContextRead, ReadTransform};
use crate::workspace::Workspace;

/// The stand-in for the random `sandbox-` + 8 hex id of `SandboxBackedFilesystem`.
pub const SANDBOX_ID_STAND_IN: &str = "sandbox-00000000";
/// The sandbox root HEAD prints whatever the backend's root.
const HEAD_SANDBOX_ROOT: &str = "/workspace";

/// `xml(tag, content)` of WorkspaceContextMiddleware (harness-spec §5.6).
pub(super) fn xml(tag: &str, content: &str) -> String {
    let content = java::strip(content);
    if content.is_empty() {
        return format!("  <{tag}></{tag}>\n");
    }
    let mut s = format!("  <{tag}>\n");
    let lines = java::lines(content);
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            s.push('\n');
        }
        s.push_str("  ");
        s.push_str(line);
    }
    s.push_str(&format!("\n  </{tag}>\n"));
    s
}

/// W = S + "\n\n" + G + "\n" + P + "\n" + L (harness-spec §5.2); returns the memory budget.
pub(super) fn workspace_section(
    ws: &Workspace,
    ctx: &PreviewContext,
    root: &EffectiveRoot,
    advertised: &str,
    out: &mut PromptBuilder,
) -> BudgetReport {
    let config = &ws.config;
    let memory_on = config.features.memory_tools || config.features.memory_hooks;
    let session = session_context(ws, ctx, root, advertised, out);
    let guidance = guidance(&config.features);
    let paragraph = workspace_paragraph(ws, ctx, root, advertised, out);
    // L: every piece is read before the budget is computed, MEMORY.md last: it gets what is left.
    let loaded = read_loaded_context(ws, ctx, root, out);
    let mut budget = budget_before_memory(config, &session, &loaded);
    let memory = memory_on.then(|| read_memory(ws, root, &mut budget, out));

    out.section("session-context", "session context", Vec::new(), &session);
    out.raw("\n\n");
    out.section("guidance", "guidance", Vec::new(), &guidance);
    out.raw("\n");
    let paragraph_sources = vec![SourceRef {
        path: context::display_path(&config.workspace).into(),
        lines: None,
    }];
    out.section("workspace", "## Workspace", paragraph_sources, &paragraph);
    out.raw("\n");
    let notice = if memory_on {
        texts::FILES_NOTICE_WITH_MEMORY
    } else {
        texts::FILES_NOTICE_WITHOUT_MEMORY
    };
    out.section("files-notice", "files notice", Vec::new(), notice);
    write_loaded_context(config, &loaded, memory.as_ref(), &budget, out);
    budget
}

/// S: the session context (A.1), Java-stripped; notes what the workspace directory line shows in
/// sandbox mode.
fn session_context(
    ws: &Workspace,
    ctx: &PreviewContext,
    root: &EffectiveRoot,
    advertised: &str,
    out: &mut PromptBuilder,
) -> String {
    let config = &ws.config;
    let mut dynamic = format!("AgentStateStore ID: {}", root.ids.session_id);
    if !java::is_blank(&config.agent.environment_memory) {
        dynamic.push('\n');
        dynamic.push_str(&config.agent.environment_memory);
    }
    let date = ctx.date.java_text();
    let session = format_java(
        texts::SESSION_CONTEXT_TEMPLATE,
        &[
            config.agent.display_name(),
            &date,
            &ctx.os,
            advertised,
            &ctx.tmp_dir,
            &dynamic,
        ],
    );
    let session = java::strip(&session).to_string();
    if ctx.session.filesystem == FilesystemMode::Sandbox {
        let harness = ctx.session.harness.label();
        if ctx.session.harness.has(Change::ActiveSandboxRoot) {
            out.note(
                "workspace-directory",
                format!(
                    "runtime {harness}: with the #3645 proposal \"The workspace directory is:\" \
                     shows the sandbox root, the fix issue #3192 asks for; every release shows the \
                     host workspace"
                ),
            );
        } else {
            out.note(
                "workspace-directory",
                format!(
                    "runtime {harness} prints the host workspace after \"The workspace directory \
                     is:\" even in sandbox mode, where the file tools see the sandbox (issue #3192)"
                ),
            );
        }
    }
    session
}

/// G: the guidance, its memory paragraphs chosen by which of the memory tools and hooks are on.
fn guidance(features: &Features) -> String {
    let mut guidance = format!("{}\n\n", java::strip(texts::DOMAIN_KNOWLEDGE_GUIDANCE));
    if features.memory_tools {
        guidance.push_str(java::strip(texts::MEMORY_RECALL_GUIDANCE));
        guidance.push_str("\n\n");
    }
    let mut persistence = String::new();
    let mut line = |s: &str| {
        persistence.push_str(java::strip(s));
        persistence.push('\n');
    };
    if features.memory_tools {
        line(texts::MEMORY_PERSISTENCE_HEADER);
        line(texts::MEMORY_SAVE_TOOL_GUIDANCE);
        if features.memory_hooks {
            line(texts::MEMORY_AUTO_EXTRACT_GUIDANCE);
        }
    } else if features.memory_hooks {
        line(texts::MEMORY_PERSISTENCE_HEADER_HOOKS_ONLY);
        line(texts::MEMORY_WRITE_FILE_GUARD);
        line(texts::MEMORY_AUTO_EXTRACT_GUIDANCE);
    }
    if !persistence.is_empty() {
        guidance.push_str(java::strip(&persistence));
        guidance.push_str("\n\n");
    }
    format!("{}\n", java::strip_trailing(&guidance))
}

/// The pieces of L read before the budget: AGENTS.md, the knowledge index and list, the
/// additional context files.
struct LoadedContext {
    agents: ContextRead,
    /// AGENTS.md, Java-stripped.
    agents_text: String,
    knowledge_index: ContextRead,
    /// The knowledge files listed, relative to the workspace.
    knowledge_list: Vec<String>,
    /// The `<domain_knowledge_context>` content: the index, then the list.
    knowledge: String,
    additional: Vec<AdditionalFile>,
}

/// Reads AGENTS.md, the knowledge index and files and the additional context files, noting what
/// is missing or read in an order the preview cannot know.
fn read_loaded_context(
    ws: &Workspace,
    ctx: &PreviewContext,
    root: &EffectiveRoot,
    out: &mut PromptBuilder,
) -> LoadedContext {
    let config = &ws.config;
    let agents = layers::read_with_override(ws, root, "AGENTS.md");
    note_read(out, &agents);
    if agents.source.is_none() {
        out.note_about(
            "not-rendered",
            Some("WS002"),
            None,
            format!(
                "no AGENTS.md for this call: neither `{}`, `{}` nor `{}` exists; `<agents_context>` is empty",
                context::display_path(&layers::join_rel(&layers::namespace_dir(root), "AGENTS.md")),
                context::display_path(&config.project.join("AGENTS.md")),
                context::display_path(&config.workspace.join("AGENTS.md")),
            ),
        );
    }
    let agents_text = java::strip(&agents.text).to_string();

    let knowledge_index = layers::read_with_override(ws, root, "knowledge/KNOWLEDGE.md");
    note_read(out, &knowledge_index);
    let knowledge_list = layers::knowledge_files(ws, root);
    let knowledge = knowledge_content(ws, ctx, &knowledge_index, &knowledge_list, out);
    let additional = additional_files(ws, root, out);
    LoadedContext {
        agents,
        agents_text,
        knowledge_index,
        knowledge_list,
        knowledge,
        additional,
    }
}

/// The `<domain_knowledge_context>` content: the index, a blank line, then `Knowledge files:` and
/// the list; notes that the runtime lists them in directory order.
fn knowledge_content(
    ws: &Workspace,
    ctx: &PreviewContext,
    index: &ContextRead,
    list: &[String],
    out: &mut PromptBuilder,
) -> String {
    let mut knowledge = String::new();
    let index_text = java::strip(&index.text);
    if !index_text.is_empty() {
        knowledge.push_str(index_text);
        knowledge.push('\n');
    }
    if !list.is_empty() {
        if !knowledge.is_empty() {
            knowledge.push('\n');
        }
        knowledge.push_str("Knowledge files:\n");
        knowledge.push_str(
            &list
                .iter()
                .map(|rel| format!("- {rel}"))
                .collect::<Vec<_>>()
                .join("\n"),
        );
        knowledge.push('\n');
        let host_walk = ws
            .files
            .files_under(&ws.config.workspace.join("knowledge"))
            .take(2)
            .count();
        if host_walk > 1 || ctx.session.filesystem == FilesystemMode::Sandbox {
            out.note(
                "directory-order",
                "knowledge files found by the runtime's host-disk walk (and the sandbox's `find`) come in \
                 OS directory order; the preview sorts them"
                    .to_string(),
            );
        }
    }
    knowledge
}

/// The budget with everything but MEMORY.md counted.
fn budget_before_memory(config: &Config, session: &str, loaded: &LoadedContext) -> BudgetReport {
    let additional_block: String = loaded
        .additional
        .iter()
        .map(|a| a.rendered.as_str())
        .collect();
    let used_tokens = estimate_tokens(session)
        + estimate_tokens(&loaded.agents_text)
        + estimate_tokens(&loaded.knowledge)
        + estimate_tokens(&additional_block);
    BudgetReport {
        max_context_tokens: config.agent.max_context_tokens,
        used_tokens,
        available_tokens: i64::from(config.agent.max_context_tokens) - used_tokens as i64,
        memory_tokens: 0,
        memory: "omitted",
        truncated: false,
        cut: None,
    }
}

/// MEMORY.md as read, and the text rendered of it (cut, with the notice, when over the budget).
struct MemoryContext {
    read: ContextRead,
    text: String,
}

/// Reads MEMORY.md and fits it to what the budget leaves, recording in `budget` how it went.
fn read_memory(
    ws: &Workspace,
    root: &EffectiveRoot,
    budget: &mut BudgetReport,
    out: &mut PromptBuilder,
) -> MemoryContext {
    let read = layers::read_with_override(ws, root, "MEMORY.md");
    note_read(out, &read);
    let stripped = java::strip(&read.text).to_string();
    budget.memory_tokens = estimate_tokens(&stripped);
    budget.memory = "included";
    let text = if budget.available_tokens > 0
        && budget.memory_tokens as i64 > budget.available_tokens
    {
        cut_memory(&ws.config, &read, stripped, budget, out)
    } else {
        if budget.available_tokens <= 0 && budget.memory_tokens > 0 {
            budget.memory = "over-budget-included";
            out.note(
                "memory-over-budget",
                format!(
                    "the other loaded context already uses {} of {} tokens; the runtime then injects \
                     MEMORY.md whole (no truncation at this version)",
                    budget.used_tokens, budget.max_context_tokens
                ),
            );
        }
        stripped
    };
    MemoryContext { read, text }
}

/// MEMORY.md cut at the tokens left (four UTF-16 units a token), with the truncation notice.
fn cut_memory(
    config: &Config,
    read: &ContextRead,
    stripped: String,
    budget: &mut BudgetReport,
    out: &mut PromptBuilder,
) -> String {
    let limit = budget.available_tokens as usize * 4;
    let byte = utf16_floor(&stripped, limit);
    let kept = &stripped[..byte];
    budget.truncated = true;
    budget.memory = "truncated";
    budget.cut = Some(MemoryCut {
        path: read.source.as_deref().map(context::display_path),
        utf16_offset: java::utf16_len(kept),
        byte_offset: byte,
        line: java::lines(kept).len().max(1),
    });
    if java::utf16_len(kept) != limit {
        out.note(
            "surrogate-cut",
            "Java cuts MEMORY.md inside a surrogate pair here; the preview cuts before the whole \
             character"
                .to_string(),
        );
    }
    out.note(
        "memory-truncated",
        format!(
            "MEMORY.md ({} tokens) exceeds the {} tokens left of max_context_tokens = {}; cut after \
             {} UTF-16 units (line {})",
            budget.memory_tokens,
            budget.available_tokens,
            budget.max_context_tokens,
            java::utf16_len(kept),
            java::lines(kept).len().max(1)
        ),
    );
    let notice = if config.features.memory_tools {
        texts::MEMORY_TRUNCATED_WITH_TOOLS
    } else {
        texts::MEMORY_TRUNCATED
    };
    format!("{kept}{notice}")
}

/// L: `<loaded_context>` with its sections, MEMORY.md's source ending at the line of the cut.
fn write_loaded_context(
    config: &Config,
    loaded: &LoadedContext,
    memory: Option<&MemoryContext>,
    budget: &BudgetReport,
    out: &mut PromptBuilder,
) {
    out.raw("\n<loaded_context>\n");
    out.section(
        "agents-context",
        "agents_context",
        read_sources(&loaded.agents),
        &xml("agents_context", &loaded.agents_text),
    );
    if let Some(memory) = memory {
        let read = &memory.read;
        let mut sources = read_sources(read);
        if let (Some(cut), Some(first)) = (&budget.cut, sources.first_mut()) {
            if read.transform == ReadTransform::Verbatim {
                // Line of the cut in the file: leading lines removed by the strip come first.
                let lead = java::lines(
                    &read.text[..read.text.len() - java::strip_leading(&read.text).len()],
                )
                .len();
                first.lines = Some(LineRange {
                    start: 1,
                    end: lead + cut.line,
                });
            }
        }
        out.section(
            "memory-context",
            "memory_context",
            sources,
            &xml("memory_context", &memory.text),
        );
    }
    let mut knowledge_sources = read_sources(&loaded.knowledge_index);
    knowledge_sources.extend(loaded.knowledge_list.iter().map(|rel| SourceRef {
        path: context::display_path(&layers::join_rel(&config.workspace, rel)).into(),
        lines: None,
    }));
    out.section(
        "domain-knowledge-context",
        "domain_knowledge_context",
        knowledge_sources,
        &xml("domain_knowledge_context", &loaded.knowledge),
    );
    for file in &loaded.additional {
        out.section(
            "additional-context",
            &file.tag,
            read_sources(&file.read),
            &file.rendered,
        );
    }
    out.raw("</loaded_context>\n");
}

fn note_read(out: &mut PromptBuilder, read: &ContextRead) {
    if let Some(problem) = &read.problem {
        out.note("stand-in", problem.clone());
    }
}

/// The largest byte offset at a char boundary whose UTF-16 length is ≤ `limit`.
fn utf16_floor(s: &str, limit: usize) -> usize {
    let mut units = 0;
    for (i, c) in s.char_indices() {
        if units + c.len_utf16() > limit {
            return i;
        }
        units += c.len_utf16();
    }
    s.len()
}

/// The `## Workspace` paragraph for the filesystem mode (harness-spec §5.5).
fn workspace_paragraph(
    ws: &Workspace,
    ctx: &PreviewContext,
    root: &EffectiveRoot,
    advertised: &str,
    out: &mut PromptBuilder,
) -> String {
    let tail = "AGENTS.md defines persona and local conventions — honor them when consistent with safety and policy.\n";
    match ctx.session.filesystem {
        FilesystemMode::Local => local_paragraph(&ws.config, advertised, tail),
        FilesystemMode::Sandbox => sandbox_paragraph(&ws.config, ctx, root, tail, out),
        FilesystemMode::Remote => remote_paragraph(ws, root, tail, out),
    }
}

/// Local mode: the project and workspace, the additional roots that are neither, the path policy
/// and where writes go.
fn local_paragraph(config: &Config, advertised: &str, tail: &str) -> String {
    let project = context::display_path(&config.project);
    let mut s = format!(
        "## Workspace\nProject (the user's source tree you're assisting with): {project}\n\
         Workspace (your home base — memory, sessions, skills, runtime data): {advertised}\n"
    );
    let project_norm = normalize_lexically(&config.project);
    let workspace_norm = normalize_lexically(&config.workspace);
    let extra: Vec<String> = config
        .filesystem
        .additional_roots
        .iter()
        .map(|r| normalize_lexically(r))
        .filter(|r| *r != project_norm && *r != workspace_norm)
        .map(|r| context::display_path(&r))
        .collect();
    if !extra.is_empty() {
        s.push_str(&format!("Additional roots: {}\n", extra.join(", ")));
    }
    let (mode, security) = match config.filesystem.path_mode {
        PathMode::Rooted => (
            "ROOTED (absolute paths accepted only inside the roots above)",
            " with a security error",
        ),
        PathMode::Sandboxed => (
            "SANDBOXED (all paths anchored to the workspace; `..` blocked)",
            "",
        ),
        PathMode::Unrestricted => ("UNRESTRICTED (absolute paths pass through unchanged)", ""),
    };
    s.push_str(&format!(
        "Path access policy: {mode}. File tools reject absolute paths outside the roots above{security}.\n"
    ));
    if config.filesystem.project_writable {
        s.push_str(
            "File tools write project files (code, configs, etc.) to the project directory. \
             Workspace metadata paths (memory, sessions, skills, agents, knowledge) are written to \
             the workspace.\n",
        );
    } else {
        s.push_str(
            "Relative paths resolve under the workspace and read-fall-back to the project \
             (overlay copy-on-write).\n",
        );
    }
    s.push_str("Shell commands run with `pwd` set to the project directory.\n");
    s.push_str(tail);
    s
}

/// Sandbox mode: the sandbox root the release prints (HEAD prints `/workspace` whatever the
/// backend's), the stand-in container id, and the isolation text of the release and
/// artifact-delivery setting.
fn sandbox_paragraph(
    config: &Config,
    ctx: &PreviewContext,
    root: &EffectiveRoot,
    tail: &str,
    out: &mut PromptBuilder,
) -> String {
    let harness = ctx.session.harness;
    let sandbox_root = if harness.has(Change::ActiveSandboxRoot) {
        root.root.as_str()
    } else {
        if root.root != HEAD_SANDBOX_ROOT {
            out.note(
                "sandbox-root",
                format!(
                    "runtime {} prints `Sandbox root: /workspace` whatever the backend's root \
                     (`{}` here); file tools then disagree with the container (issue #3161; \
                     the #3645 proposal, `pending = [\"3645\"]`, prints the active root)",
                    harness.label(),
                    root.root
                ),
            );
        }
        HEAD_SANDBOX_ROOT
    };
    out.note(
        "sandbox-id",
        format!(
            "the runtime prints a random filesystem id (`sandbox-` + 8 hex digits, new per agent \
             build); the preview prints the stand-in `{SANDBOX_ID_STAND_IN}`"
        ),
    );
    let isolation = if !harness.has(Change::ArtifactDelivery) {
        texts::SANDBOX_ISOLATION_BEFORE_2667
    } else if config.agent.artifact_delivery {
        texts::SANDBOX_ISOLATION_DELIVERING
    } else {
        texts::SANDBOX_ISOLATION_CLOSED
    };
    let notice = if harness.has(Change::ArtifactDelivery) && config.agent.artifact_delivery {
        texts::FILE_ISOLATION_NOTICE
    } else {
        ""
    };
    format!(
        "## Workspace\nSandbox root: {sandbox_root} (container id: {SANDBOX_ID_STAND_IN})\n\
         {isolation}\n{tail}{notice}"
    )
}

/// Remote mode: the template root; notes whether the files of this call came from a store.
fn remote_paragraph(
    ws: &Workspace,
    root: &EffectiveRoot,
    tail: &str,
    out: &mut PromptBuilder,
) -> String {
    let config = &ws.config;
    let stored = root
        .namespace
        .as_ref()
        .is_some_and(|ns| ws.files.is_stored(&config.workspace.join(ns)))
        || ws.files.has_origins();
    if stored {
        out.note(
            "remote-store-read",
            "remote mode: files the store holds for this call are rendered from the store, \
             the rest from the workspace template"
                .to_string(),
        );
    } else {
        out.note(
            "remote-store",
            "remote mode: the shared store's content cannot be known before a session; the preview \
             renders as if it were empty, so reads fall back to the workspace template"
                .to_string(),
        );
    }
    format!(
        "## Workspace\nDistributed workspace template root: {}\n\
         Runtime data (MEMORY.md, sessions, tasks, skills) lives in a shared remote store, not on the \
         local host. Reads of project-authored template files fall back to the workspace template \
         root above.\n{tail}",
        context::display_path(&config.workspace)
    )
}

struct AdditionalFile {
    tag: String,
    read: ContextRead,
    rendered: String,
}

/// The configured additional context files that render (non-blank), in builder order.
fn additional_files(
    ws: &Workspace,
    root: &EffectiveRoot,
    out: &mut PromptBuilder,
) -> Vec<AdditionalFile> {
    let config = &ws.config;
    let mut files = Vec::new();
    for configured in &config.agent.additional_context_files {
        let tag = configured.replace(['/', '.'], "_").to_lowercase();
        if !tag.is_ascii() {
            out.note(
                "locale",
                format!(
                    "tag `{tag}` is lower-cased with Java's default-locale `toLowerCase`; the preview \
                     uses the locale-independent mapping"
                ),
            );
        }
        let rel = crate::workspace::layout::normalize_relative(configured);
        let segments: Vec<&str> = rel.split('/').collect();
        let mut depth: i64 = 0;
        let mut escapes = false;
        for s in &segments {
            match *s {
                ".." => depth -= 1,
                "" | "." => {}
                _ => depth += 1,
            }
            escapes |= depth < 0;
        }
        if escapes {
            out.note(
                "additional-context-escapes",
                format!("additional context file `{configured}` resolves outside the workspace; the runtime silently omits it"),
            );
            continue;
        }
        if segments.contains(&"..") {
            out.note(
                "additional-context-fails",
                format!(
                    "additional context file `{configured}` has a `..` segment: the runtime refuses to read it \
                     and every call fails; the preview omits the file"
                ),
            );
            continue;
        }
        if rel.is_empty() {
            out.note(
                "additional-context-blank",
                format!("additional context file `{configured}` names the workspace itself; nothing is injected"),
            );
            continue;
        }
        let read = layers::read_with_override(ws, root, &rel);
        note_read(out, &read);
        if java::is_blank(&read.text) {
            out.note(
                "additional-context-blank",
                format!("additional context file `{configured}` is missing or blank; the runtime injects nothing for it"),
            );
            continue;
        }
        let rendered = xml(&tag, &read.text);
        files.push(AdditionalFile {
            tag,
            read,
            rendered,
        });
    }
    files
}
