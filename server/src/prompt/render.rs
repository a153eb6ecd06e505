//! The assembly of the system message for the first reasoning step (harness-spec §5.1–5.8, skills
//! block §2.5, subagents section §3.4), recording each piece's byte range, sources and token
//! estimate, the memory budget and every place the preview cannot be exact.
//!
//! Joins are written where the runtime writes them, and named after it: `join_if_needed` is the
//! `"\n"` the middlewares add only when the prompt is non-empty and does not end with `\n`.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use super::texts::{self, format_java};
use super::*;
use crate::base::pathutil::normalize_lexically;
use crate::config::release::Change;
use crate::config::{Config, Features, FilesystemMode, PathMode};
use crate::context::{self, ContextError, EffectiveRoot};
use crate::syntax::java;
use crate::syntax::yaml::{Entry, Node, Value};
use crate::workspace::catalog::{ToolCatalog, PROMPT_TOOL_SECTIONS};
use crate::workspace::layers::{self, ContextRead, ReadTransform};
use crate::workspace::resolution::{self, Kind, MergedSkill, Outcome, Resolution};
use crate::workspace::skill::SkillDoc;
use crate::workspace::Workspace;

/// The stand-in for the random `sandbox-` + 8 hex id of `SandboxBackedFilesystem`.
pub const SANDBOX_ID_STAND_IN: &str = "sandbox-00000000";
/// The sandbox root HEAD prints whatever the backend's root.
const HEAD_SANDBOX_ROOT: &str = "/workspace";

/// Renders the system prompt of the first reasoning step for `ctx`.
pub fn render(ws: &Workspace, ctx: &PreviewContext) -> Result<Preview, ContextError> {
    render_reusing(ws, ctx, None)
}

/// What one render takes from the renders before it: each skill's `<skill>` entry and source,
/// by parse (a skill whose file did not change keeps its parse's `Arc`). Owned by a caller that
/// renders again and again (the language server); holds the skills of the last workspace
/// rendered.
#[derive(Default)]
pub struct RenderMemo {
    /// The entries of the last render first, in its order, then those of the workspace's other
    /// skills: the next render, which mostly lists the same skills in the same order, reads them
    /// in sequence (found by hash, ten thousand scattered reads were a tenth of a render).
    entries: Vec<SkillEntry>,
    /// Each entry's index in `entries`, by the address of its parse (which the entry's `Arc`
    /// holds, so no other parse can take that address while the entry lives).
    at: HashMap<usize, usize>,
    /// The indices the render under way took, in its order; `entries` follows it afterwards.
    taken: Vec<usize>,
    /// The render under way took an entry at another index than its position.
    out_of_sequence: bool,
    /// Entries the render under way replaced with another skill's, by the address of their
    /// parse: taken back should their skill come later in the render, dropped after it.
    displaced: HashMap<usize, SkillEntry>,
    /// The `files_root_base`s the entries were written with, each held once, so that an entry's
    /// is compared by pointer: compared as strings, each its own allocation, the ten thousand
    /// comparisons of a render were a tenth of it.
    bases: Vec<Arc<str>>,
    base: resolution::KeptBase,
}

/// A skill's entry of the skills block, with what besides its parse it was written from.
struct SkillEntry {
    doc: Arc<SkillDoc>,
    source: Arc<str>,
    workspace_native: bool,
    files_root_base: Option<Arc<str>>,
    xml: String,
    /// The UTF-16 length of `xml`, for the token estimate.
    xml_utf16: usize,
    holds_date: bool,
    source_ref: SourceRef,
}

impl RenderMemo {
    /// The memo's copy of `base` (one per distinct base), for [`RenderMemo::skill_entry`].
    fn base(&mut self, base: Option<&str>) -> Option<Arc<str>> {
        let base = base?;
        if let Some(held) = self.bases.iter().find(|held| ***held == *base) {
            return Some(held.clone());
        }
        let held: Arc<str> = Arc::from(base);
        self.bases.push(held.clone());
        Some(held)
    }

    /// The entry of `skill`, the `position`-th of the skills block, written with `base` (from
    /// [`RenderMemo::base`]) unless the memo holds it.
    fn skill_entry(
        &mut self,
        position: usize,
        resolution: &Resolution,
        skill: &MergedSkill,
        base: &Option<Arc<str>>,
    ) -> &SkillEntry {
        let key = Arc::as_ptr(&skill.doc) as usize;
        let index = if self
            .entries
            .get(position)
            .is_some_and(|e| Arc::ptr_eq(&e.doc, &skill.doc))
        {
            position
        } else if let Some(&index) = self.at.get(&key) {
            index
        } else if let Some(entry) = self.displaced.remove(&key) {
            self.entries.push(entry);
            self.at.insert(key, self.entries.len() - 1);
            self.entries.len() - 1
        } else if !self.out_of_sequence && position < self.entries.len() {
            // A skill whose parse is new (its file edited, or a skill that came back) where the
            // last render had another: written in its place, so the entries stay in sequence.
            // The other is set aside, not forgotten: when a skill came, it is the next one, and
            // writing it again would write every entry after it again.
            let old = std::mem::replace(
                &mut self.entries[position],
                written(resolution, skill, base),
            );
            let old_key = Arc::as_ptr(&old.doc) as usize;
            self.at.remove(&old_key);
            self.displaced.insert(old_key, old);
            self.at.insert(key, position);
            position
        } else {
            self.entries.push(written(resolution, skill, base));
            self.at.insert(key, self.entries.len() - 1);
            self.entries.len() - 1
        };
        self.out_of_sequence |= index != position;
        let held = &mut self.entries[index];
        let current = held.source == skill.source
            && held.workspace_native == skill.workspace_native
            && match (&held.files_root_base, base) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            };
        if !current {
            *held = written(resolution, skill, base);
        }
        self.taken.push(index);
        &self.entries[index]
    }

    /// After a render: the entries in the order it took them, then those of `ws`'s other skills
    /// (the skills `ws` no longer holds are forgotten).
    fn settle(&mut self, ws: &Workspace) {
        let taken = std::mem::take(&mut self.taken);
        let out_of_sequence = std::mem::take(&mut self.out_of_sequence);
        self.displaced.clear();
        if out_of_sequence || taken.len() != self.entries.len() {
            let current: HashSet<usize> =
                ws.skills.iter().map(|d| Arc::as_ptr(d) as usize).collect();
            let mut held: Vec<Option<SkillEntry>> = self.entries.drain(..).map(Some).collect();
            let mut entries: Vec<SkillEntry> =
                taken.iter().filter_map(|&j| held[j].take()).collect();
            entries.extend(
                held.into_iter()
                    .flatten()
                    .filter(|e| current.contains(&(Arc::as_ptr(&e.doc) as usize))),
            );
            self.at = entries
                .iter()
                .enumerate()
                .map(|(i, e)| (Arc::as_ptr(&e.doc) as usize, i))
                .collect();
            self.entries = entries;
        }
        // A base no entry holds any more: only the memo's own reference is left.
        self.bases.retain(|base| Arc::strong_count(base) > 1);
    }
}

/// The memo entry of `skill`, written with `base`.
fn written(resolution: &Resolution, skill: &MergedSkill, base: &Option<Arc<str>>) -> SkillEntry {
    let mut xml = String::new();
    let holds_date = write_skill_entry(&mut xml, resolution, skill);
    SkillEntry {
        doc: skill.doc.clone(),
        source: skill.source.clone(),
        workspace_native: skill.workspace_native,
        files_root_base: base.clone(),
        xml_utf16: java::utf16_len(&xml),
        xml,
        holds_date,
        source_ref: skill_source(skill),
    }
}

/// [`render`], taking each skill's metadata from `memo` when it holds it, and leaving there
/// what the next render can take.
pub fn render_reusing(
    ws: &Workspace,
    ctx: &PreviewContext,
    memo: Option<&mut RenderMemo>,
) -> Result<Preview, ContextError> {
    let mut memo = memo;
    let preview = render_with(ws, ctx, &mut memo);
    if let Some(memo) = memo {
        memo.settle(ws);
    }
    preview
}

fn render_with(
    ws: &Workspace,
    ctx: &PreviewContext,
    memo: &mut Option<&mut RenderMemo>,
) -> Result<Preview, ContextError> {
    let config = &ws.config;
    let root = context::effective_root(config, &ctx.session)?;
    let advertised = context::advertised_workspace(config, &ctx.session)?;
    let mut out = Out::default();
    out.note(
        "locale",
        format!(
            "the date is printed in English (`{}`); a runtime whose machine is set to another language \
             prints the day and month names in that language",
            ctx.date.java_text()
        ),
    );

    let system_prompt = java::trim(&config.agent.system_prompt);
    if !system_prompt.is_empty() {
        let sources = config
            .agent
            .system_prompt_file
            .iter()
            .map(|p| source(p, Some(system_prompt)))
            .collect();
        out.section("system-prompt", "sysPrompt", sources, system_prompt);
    }

    let mut budget = BudgetReport {
        max_context_tokens: config.agent.max_context_tokens,
        used_tokens: 0,
        available_tokens: i64::from(config.agent.max_context_tokens),
        memory_tokens: 0,
        memory: "not-rendered",
        truncated: false,
        cut: None,
    };
    if config.features.workspace_context {
        out.join_if_needed();
        budget = workspace_section(ws, ctx, &root, &advertised, &mut out);
    }

    plan_banner(ws, ctx, &mut out);
    let resolution = match memo {
        Some(memo) => resolution::resolve_kept(ws, &root, &mut memo.base),
        None => resolution::resolve(ws, &root),
    };
    skills_block(ws, &resolution, memo, &mut out);
    if config.features.task_list {
        out.section(
            "task-list",
            "task list",
            Vec::new(),
            texts::TASK_LIST_GROUNDING,
        );
    }
    if config.features.subagents {
        subagents_section(&resolution, &mut out);
    }
    left_out_notes(ws, &resolution, &mut out);

    removed_tool_notes(ws, ctx, &mut out);

    let estimated_tokens = tokens_of_utf16_len(out.utf16_len());
    Ok(Preview {
        estimated_tokens,
        text: out.text,
        sections: out.sections,
        budget,
        context: RenderedContext {
            user_id: root.ids.user_id.clone(),
            session_id: root.ids.session_id.clone(),
            namespace: root.namespace.clone(),
            scope: ctx.session.scope,
            filesystem: ctx.session.filesystem,
            harness: ctx.session.harness.label(),
            harness_from: if ctx.session.harness == config.harness {
                let from = &config.harness_from;
                match &from.note {
                    Some(note) => format!("{}; {note}", from.source.describe()),
                    None => from.source.describe(),
                }
            } else {
                crate::config::HarnessSource::Override.describe()
            },
            advertised_workspace: advertised,
        },
        notes: out.notes,
    })
}

/// The text being built, its sections and notes.
#[derive(Default)]
struct Out {
    text: String,
    sections: Vec<Section>,
    notes: Vec<Note>,
    /// A range of `text` whose UTF-16 length is known, with that length: the skills block,
    /// counted by its entries (megabytes not counted twice a render).
    counted: Option<(ByteRange, usize)>,
}

impl Out {
    fn raw(&mut self, s: &str) {
        self.text.push_str(s);
    }

    /// The `"\n"` added before a piece when the prompt is non-empty and does not end with `\n`.
    fn join_if_needed(&mut self) {
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
        }
    }

    fn section(&mut self, kind: &'static str, label: &str, sources: Vec<SourceRef>, s: &str) {
        let start = self.text.len();
        self.text.push_str(s);
        self.section_since(start, kind, label, sources, None);
    }

    /// The text written from `start` on as a section. `counted` is its UTF-16 length when the
    /// caller knows it (the skills block, from its entries): the whole text is then counted
    /// around it.
    fn section_since(
        &mut self,
        start: usize,
        kind: &'static str,
        label: &str,
        sources: Vec<SourceRef>,
        counted: Option<usize>,
    ) {
        let range = ByteRange {
            start,
            end: self.text.len(),
        };
        let utf16 = match counted {
            Some(utf16) => {
                debug_assert!(self.counted.is_none(), "one counted section");
                debug_assert_eq!(utf16, java::utf16_len(&self.text[start..]));
                self.counted = Some((range, utf16));
                utf16
            }
            None => java::utf16_len(&self.text[start..]),
        };
        self.sections.push(Section {
            kind,
            label: label.to_string(),
            range,
            sources,
            estimated_tokens: tokens_of_utf16_len(utf16),
        });
    }

    /// The UTF-16 length of the whole text.
    fn utf16_len(&self) -> usize {
        match self.counted {
            Some((range, utf16)) => {
                java::utf16_len(&self.text[..range.start])
                    + utf16
                    + java::utf16_len(&self.text[range.end..])
            }
            None => java::utf16_len(&self.text),
        }
    }

    fn note(&mut self, code: &'static str, message: String) {
        self.note_about(code, None, None, message);
    }

    /// A note about one file, naming the rule that reports it in `agentws check`.
    fn note_about(
        &mut self,
        code: &'static str,
        rule: Option<&'static str>,
        path: Option<&Path>,
        message: String,
    ) {
        let message = crate::base::redact::redact_text(&message).into_owned();
        if !self
            .notes
            .iter()
            .any(|n| n.code == code && n.message == message)
        {
            self.notes.push(Note {
                code,
                message,
                rule,
                path: path.map(context::display_path),
            });
        }
    }
}

fn source(path: &Path, text: Option<&str>) -> SourceRef {
    SourceRef {
        path: context::display_path(path).into(),
        lines: text.map(|t| LineRange {
            start: 1,
            end: java::lines(t).len().max(1),
        }),
    }
}

/// The sources of a per-context read: the file, with its lines when the text is the file's own.
fn read_sources(read: &ContextRead) -> Vec<SourceRef> {
    read.source
        .iter()
        .map(|p| {
            let text = (read.transform == ReadTransform::Verbatim).then_some(read.text.as_str());
            source(p, text)
        })
        .collect()
}

/// `xml(tag, content)` of WorkspaceContextMiddleware (harness-spec §5.6).
fn xml(tag: &str, content: &str) -> String {
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
fn workspace_section(
    ws: &Workspace,
    ctx: &PreviewContext,
    root: &EffectiveRoot,
    advertised: &str,
    out: &mut Out,
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
    out: &mut Out,
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
    out: &mut Out,
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
    out: &mut Out,
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
    out: &mut Out,
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
    out: &mut Out,
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
    out: &mut Out,
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

fn note_read(out: &mut Out, read: &ContextRead) {
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
    out: &mut Out,
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
    out: &mut Out,
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
fn remote_paragraph(ws: &Workspace, root: &EffectiveRoot, tail: &str, out: &mut Out) -> String {
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
fn additional_files(ws: &Workspace, root: &EffectiveRoot, out: &mut Out) -> Vec<AdditionalFile> {
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

/// The plan banner or build hint (harness-spec §5.8), appended raw.
fn plan_banner(ws: &Workspace, ctx: &PreviewContext, out: &mut Out) {
    if ctx.plan == PlanState::Off {
        return;
    }
    if !ws.config.features.plan_mode {
        out.note(
            "plan-mode",
            "a plan state was given although agentws.toml does not enable plan mode; rendered as if \
             enablePlanMode() were set"
                .to_string(),
        );
    }
    let mut s = String::new();
    match ctx.plan {
        PlanState::Active => {
            s.push_str(&format_java(texts::PLAN_BANNER_TEMPLATE, &[&ctx.plan_file]));
            if ctx.shell_in_plan_mode {
                s.push_str(&format_java(texts::PLAN_EXTRA_TOOLS_HINT, &["execute"]));
            }
        }
        PlanState::Recorded => {
            s.push_str(&format_java(texts::BUILD_MODE_PLAN_HINT, &[&ctx.plan_file]));
        }
        PlanState::Off => {}
    }
    out.section("plan", "plan mode", Vec::new(), &s);
}

/// `escapeXml` of SkillPromptBuilder, appended to `out` (no allocation when nothing needs
/// escaping).
fn push_escaped(out: &mut String, s: &str) {
    if !s.contains(['&', '<', '>', '"', '\'']) {
        out.push_str(s);
        return;
    }
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
}

fn is_xml_name(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// `appendXmlNode`: one metadata entry at `depth` (indent unit two spaces).
fn append_xml_node(s: &mut String, key: &str, value: &Value, depth: usize) {
    if matches!(value, Value::Null) {
        return;
    }
    // Written in place, without a string per tag: a preview of ten thousand skills renders this
    // for every metadata node.
    let indent = |s: &mut String| (0..depth).for_each(|_| s.push_str("  "));
    let named = is_xml_name(key);
    let open = |s: &mut String| {
        if named {
            s.push('<');
            s.push_str(key);
            s.push('>');
        } else {
            s.push_str("<entry key=\"");
            push_escaped(s, key);
            s.push_str("\">");
        }
    };
    let close = |s: &mut String| {
        if named {
            s.push_str("</");
            s.push_str(key);
            s.push('>');
        } else {
            s.push_str("</entry>");
        }
    };
    // A map or list: its tags on lines of their own, its children between them.
    let block = |s: &mut String, children: &mut dyn FnMut(&mut String)| {
        indent(s);
        open(s);
        s.push('\n');
        children(s);
        indent(s);
        close(s);
        s.push('\n');
    };
    match value {
        Value::Map(entries) => block(s, &mut |s| {
            for Entry { key, value, .. } in entries {
                append_xml_node(s, key, &value.value, depth + 1);
            }
        }),
        Value::List(items) => block(s, &mut |s| {
            for Node { value, .. } in items {
                append_xml_node(s, "item", value, depth + 1);
            }
        }),
        scalar => {
            let text = scalar.java_string().unwrap_or_default();
            indent(s);
            open(s);
            push_escaped(s, &text);
            close(s);
            s.push('\n');
        }
    }
}

/// Notes for rendered sections that tell the model to use tools tools.json removes (the check
/// reports the same as TJ030).
fn removed_tool_notes(ws: &Workspace, ctx: &PreviewContext, out: &mut Out) {
    // Under the runtime the call is previewed for, which may not be the project's.
    let catalog = if ctx.session.harness == ws.config.harness {
        ToolCatalog::for_workspace(ws)
    } else {
        let mut config = (*ws.config).clone();
        config.harness = ctx.session.harness;
        ToolCatalog::new(
            &config,
            !ws.skills.is_empty(),
            ws.effective_tools().map(|t| t.as_ref()),
        )
    };
    if !catalog.tools_json_applies() {
        return;
    }
    let code_execution = out.sections.iter().any(|s| s.kind == "code-execution");
    let subagents = out.sections.iter().any(|s| s.kind == "subagents");
    let plan_active = out.text.contains("PLAN MODE is active");
    for section in PROMPT_TOOL_SECTIONS {
        // The preview knows which of them it rendered; the check asks the configuration.
        let rendered = match section.heading {
            "## Subagents" => subagents,
            "PLAN MODE" => plan_active,
            _ => section.rendered(&ws.config, code_execution),
        };
        if !rendered {
            continue;
        }
        let removed = catalog.removed_from(section);
        if removed.is_empty() {
            continue;
        }
        let names = |names: &[&str]| {
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.note(
            "removed-tool",
            format!(
                "the `{}` section tells the model {} {}, but tools.json removes {}: the model does not have {}",
                section.heading,
                section.asks,
                names(section.tools),
                names(&removed),
                if removed.len() == 1 { "it" } else { "them" }
            ),
        );
    }
}

/// The skills block (harness-spec §2.5) and, when any skill has a files-root, A.11.
fn skills_block(
    ws: &Workspace,
    resolution: &Resolution,
    memo: &mut Option<&mut RenderMemo>,
    out: &mut Out,
) {
    let skills = resolution.skills();
    if skills.is_empty() {
        return;
    }
    // Layer 3 fixes the position of every name it lists, even when Layer 4 replaces the entry.
    let layer3_candidates = ws
        .skills
        .iter()
        .filter(|d| d.location.tree == crate::workspace::Tree::Shared)
        .filter(|d| {
            d.location.rel.starts_with("skills/") && d.location.rel.matches('/').count() == 2
        })
        .take(2)
        .count();
    if layer3_candidates > 1 {
        out.note(
            "directory-order",
            "the runtime lists the skills of the shared `skills/` folder in the order the file system lists \
             the folders, which can differ between machines; the preview sorts them by path"
                .to_string(),
        );
    }
    for skill in &skills {
        let ties = resolution.directory_order_ties(skill);
        if !ties.is_empty() {
            let others = ties
                .iter()
                .map(|p| format!("`{}`", context::display_path(p)))
                .collect::<Vec<_>>()
                .join(", ");
            out.note_about(
                "directory-order",
                Some("XR012"),
                Some(&skill.doc.path),
                format!(
                    "skill `{}` is also defined by {others} in the shared `skills/` folder: which one \
                     wins depends on the order the file system lists the folders in; the preview shows \
                     `{}`, the last by path",
                    skill.name(),
                    context::display_path(&skill.doc.path)
                ),
            );
        }
    }
    out.join_if_needed();
    // Written in place: for ten thousand skills the block is megabytes.
    let start = out.text.len();
    out.text.reserve(
        texts::SKILLS_HEADER.len()
            + skills.len() * 700
            + texts::CODE_EXECUTION_SECTION.len()
            + 8192,
    );
    let s = &mut out.text;
    s.push_str(texts::SKILLS_HEADER);
    let mut sources = Vec::with_capacity(skills.len());
    let mut holds_date = false;
    // Known when every entry comes from the memo, which counted it once.
    let mut entries_utf16 = memo.is_some().then_some(0);
    let base = memo
        .as_mut()
        .and_then(|memo| memo.base(resolution.files_root_base()));
    for (position, skill) in skills.iter().copied().enumerate() {
        holds_date |= match memo {
            Some(memo) => {
                let entry = memo.skill_entry(position, resolution, skill, &base);
                s.push_str(&entry.xml);
                entries_utf16 = entries_utf16.map(|n| n + entry.xml_utf16);
                sources.push(entry.source_ref.clone());
                entry.holds_date
            }
            None => {
                sources.push(skill_source(skill));
                write_skill_entry(s, resolution, skill)
            }
        };
    }
    let footer = "</available_skills>";
    s.push_str(footer);
    if holds_date {
        out.note(
            "time-zone",
            "dates in skill metadata are shown in UTC; the runtime prints them in its machine's \
             time zone"
                .to_string(),
        );
    }
    let counted = entries_utf16
        .map(|entries| java::utf16_len(texts::SKILLS_HEADER) + entries + java::utf16_len(footer));
    out.section_since(start, "skills", "## Available Skills", sources, counted);
    if resolution.renders_code_execution() {
        out.section(
            "code-execution",
            "## Code Execution",
            Vec::new(),
            texts::CODE_EXECUTION_SECTION,
        );
    }
}

/// A `not-rendered` note for every skill and subagent file this call's layers could read but the
/// prompt leaves out, with the rule `agentws check` reports it under. Files of other per-user
/// folders are not this call's and get none.
fn left_out_notes(ws: &Workspace, resolution: &Resolution, out: &mut Out) {
    // A loaded skill gets no note: most of them are, and telling their outcome costs.
    let skills = resolution
        .skills_not_merged()
        .map(|d| (d.path.as_path(), resolution.skill_outcome(d), Kind::Skill));
    let subagents = resolution.subagent_outcomes();
    let subagents = subagents
        .into_iter()
        .map(|(d, o)| (d.path.as_path(), o, Kind::Subagent));
    for (path, outcome, kind) in skills.chain(subagents) {
        let what = match kind {
            Kind::Skill => "skill",
            Kind::Subagent => "subagent",
        };
        // The rule is the one `agentws check` reports this outcome under (`Outcome::rule_code`).
        let rule = outcome.rule_code(ws, path, kind);
        let why = match &outcome {
            Outcome::Loaded(loaded) if !loaded.listed => {
                "loaded but not listed (`hidden: true` or `mode: primary`)".to_string()
            }
            Outcome::Loaded(_) => continue,
            Outcome::NotScanned(resolution::NotScanned::OtherNamespace { .. }) => continue,
            Outcome::NotScanned(reason) => reason.describe(ws, kind, None),
            Outcome::Dropped { .. } => "the runtime rejects the file".to_string(),
            Outcome::Shadowed {
                by,
                by_directory_order,
            } => {
                let by = by
                    .as_ref()
                    .map(|p| format!("`{}`", context::display_path(p)))
                    .unwrap_or_else(|| "the built-in `general-purpose`".to_string());
                let how = if *by_directory_order {
                    " (the order the file system lists the folders in decides; the preview picks the last by path)"
                } else {
                    ""
                };
                format!("{by} has the same name and wins{how}")
            }
        };
        let tag = rule.map(|r| format!(" [{r}]")).unwrap_or_default();
        out.note_about(
            "not-rendered",
            rule,
            Some(path),
            format!(
                "{what} `{}` is not rendered for this call{tag}: {why}",
                context::display_path(path)
            ),
        );
    }
}

/// True when a YAML value is or contains a timestamp (printed in the JVM's time zone).
fn holds_date(value: &Value) -> bool {
    match value {
        Value::Date { .. } => true,
        Value::List(items) => items.iter().any(|n| holds_date(&n.value)),
        Value::Map(entries) => entries.iter().any(|e| holds_date(&e.value.value)),
        _ => false,
    }
}

/// One `<skill>` entry of the skills block: the metadata entries in YAML order (a loaded skill
/// always has `name` and `description` among them), its id and files-root; true when the
/// metadata holds a date.
fn write_skill_entry(s: &mut String, resolution: &Resolution, skill: &MergedSkill) -> bool {
    s.push_str("<skill>\n");
    for entry in &skill.doc.metadata {
        append_xml_node(s, &entry.key, &entry.value.value, 1);
    }
    s.push_str("  <skill-id>");
    push_escaped(s, skill.name());
    s.push('_');
    push_escaped(s, &skill.source);
    s.push_str("</skill-id>\n");
    if let Some(path) = resolution.files_root(skill) {
        s.push_str("  <files-root>");
        push_escaped(s, &path.replace(' ', "\\ "));
        s.push_str("</files-root>\n");
    }
    s.push_str("</skill>\n\n");
    skill
        .doc
        .metadata
        .iter()
        .any(|e| holds_date(&e.value.value))
}

/// The closing line was found at parse time: looking every skill's text up here took a third of
/// the render on 10 000 skills.
fn skill_source(skill: &MergedSkill) -> SourceRef {
    SourceRef {
        path: context::display_path(&skill.doc.path).into(),
        lines: skill.doc.frontmatter_closing_line.map(frontmatter_lines),
    }
}

/// Lines 1..=closing delimiter of a frontmatter (`frontmatter::closing_line`).
fn frontmatter_lines(closing_line: usize) -> LineRange {
    LineRange {
        start: 1,
        end: closing_line,
    }
}

/// The subagents section (A.12) the middleware appends at each reasoning step after `"\n"`.
fn subagents_section(resolution: &Resolution, out: &mut Out) {
    let entries = resolution.subagents();
    let mut lines = Vec::new();
    let mut sources = Vec::new();
    for entry in entries.iter().filter(|e| e.is_visible()) {
        let description = match &entry.doc {
            None => texts::GENERAL_PURPOSE_DESCRIPTION.to_string(),
            Some(doc) => {
                sources.push(SourceRef {
                    path: context::display_path(&doc.path).into(),
                    lines: doc.frontmatter_closing_line.map(frontmatter_lines),
                });
                doc.description.clone().unwrap_or_default()
            }
        };
        if description.contains('\n') || description.contains('\r') {
            out.note_about(
                "multi-line-description",
                Some("SA027"),
                entry.doc.as_ref().map(|doc| doc.path.as_path()),
                format!(
                    "subagent `{}` has a multi-line description; the runtime prints it raw and it breaks the \
                     agent list",
                    entry.id
                ),
            );
        }
        lines.push(format!("- `{}`: {description}", entry.id));
    }
    let section = format_java(
        texts::SUBAGENTS_SECTION_TEMPLATE,
        &["agent_spawn", "agent_send", "agent_list", &lines.join("\n")],
    );
    if !out.text.is_empty() {
        out.raw("\n");
    }
    out.section("subagents", "## Subagents", sources, &section);
}

#[cfg(test)]
#[path = "render_tests.rs"]
mod tests;
