//! The assembly of the system message for the first reasoning step (harness-spec §5.1–5.8, skills
//! block §2.5, subagents section §3.4), recording each piece's byte range, sources and token
//! estimate, the memory budget and every place the preview cannot be exact.
//!
//! Joins are written where the runtime writes them, and named after it: `join_if_needed` is the
//! `"\n"` the middlewares add only when the prompt is non-empty and does not end with `\n`.
//!
//! The workspace context (the session context, guidance, `## Workspace` paragraph and loaded
//! context with the memory budget) is written by `workspace_context`.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::texts::{self, format_java};
use super::*;
use crate::context::{self, ContextError};
use crate::syntax::java;
use crate::syntax::yaml::{Entry, Node, Value};
use crate::workspace::catalog::{ToolCatalog, PROMPT_TOOL_SECTIONS};
use crate::workspace::resolution::{self, EntryKind, MergedSkill, Outcome, Resolution};
use crate::workspace::skill::SkillDoc;
use crate::workspace::Workspace;

mod builder;
mod workspace_context;

use builder::{source, PromptBuilder};
use workspace_context::workspace_section;
pub use workspace_context::SANDBOX_ID_STAND_IN;

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
    // Kept until the skill changes, one per skill of the workspace: without the spare room
    // that growing it while writing left.
    xml.shrink_to_fit();
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
    let preview = render_with(ws, ctx, &mut memo, None);
    if let Some(memo) = memo {
        memo.settle(ws);
    }
    preview
}

/// The size of the prompt [`render`] writes for `ctx`, and of its skill catalog with its
/// `shown` costliest entries, counted from each entry's length in `memo` without writing the
/// entries into a text: a large prompt is mostly its catalog, and the prompt-size rule weighs
/// the prompt of every kind of caller. Equal to what the full render gives (a property test
/// holds them together).
pub fn measure(
    ws: &Workspace,
    ctx: &PreviewContext,
    memo: &mut SizeMemo,
    shown: usize,
) -> Result<PromptSize, ContextError> {
    let mut tally = Tally {
        memo,
        shown,
        skills: 0,
        costliest: Vec::with_capacity(shown + 1),
    };
    let preview = render_with(ws, ctx, &mut None, Some(&mut tally))?;
    let catalog = preview
        .sections
        .iter()
        .find(|s| s.kind == "skills")
        .map(|section| CatalogSize {
            estimated_tokens: section.estimated_tokens,
            skills: tally.skills,
            costliest: tally
                .costliest
                .into_iter()
                .map(|(tokens, name)| (name, tokens))
                .collect(),
        });
    Ok(PromptSize {
        estimated_tokens: preview.estimated_tokens,
        catalog,
    })
}

/// What one [`measure`] takes from the measures before it: each skill's `<skill>` entry length
/// and the merges. Owned by a caller that measures the prompts of many callers of one workspace
/// (the prompt-size rule); holds the parses it measured.
#[derive(Default)]
pub struct SizeMemo {
    /// By position in the longest list measured yet, the first one mostly: the other callers'
    /// lists are the same with a few entries replaced or added, so most entries are found by
    /// one comparison of pointers, without hashing.
    in_order: Vec<EntrySize>,
    /// The entries not at their position in `in_order`, by the address of their parse (which
    /// the entry holds, so no other parse can take that address while it lives).
    by_doc: HashMap<usize, EntrySize>,
    /// The `files_root_base` of the last measure, held once so that an entry's is compared by
    /// pointer.
    files_root_base: Option<Arc<str>>,
    base: resolution::KeptBase,
}

/// The length of one skill's `<skill>` entry, with what besides its parse it was written from.
struct EntrySize {
    doc: Arc<SkillDoc>,
    source: Arc<str>,
    workspace_native: bool,
    files_root_base: Option<Arc<str>>,
    utf16: usize,
}

impl EntrySize {
    fn of(resolution: &Resolution, skill: &MergedSkill, base: &Option<Arc<str>>) -> Self {
        let mut xml = String::new();
        write_skill_entry(&mut xml, resolution, skill);
        Self {
            doc: skill.doc.clone(),
            source: skill.source.clone(),
            workspace_native: skill.workspace_native,
            files_root_base: base.clone(),
            utf16: java::utf16_len(&xml),
        }
    }

    /// Whether this is `skill`'s entry as the measure under way writes it.
    fn is_of(&self, skill: &MergedSkill, base: &Option<Arc<str>>) -> bool {
        Arc::ptr_eq(&self.doc, &skill.doc)
            && self.source == skill.source
            && self.workspace_native == skill.workspace_native
            && match (&self.files_root_base, base) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

impl SizeMemo {
    /// The memo's copy of `base`, kept from the last measure when it is the same.
    fn files_root_base(&mut self, base: Option<&str>) -> Option<Arc<str>> {
        let base = base?;
        match &self.files_root_base {
            Some(held) if **held == *base => {}
            _ => self.files_root_base = Some(Arc::from(base)),
        }
        self.files_root_base.clone()
    }

    /// The UTF-16 length of the entry of `skill`, the `position`-th of the skills block,
    /// written with `base` (from [`SizeMemo::files_root_base`]) unless the memo holds it.
    fn entry_utf16(
        &mut self,
        position: usize,
        resolution: &Resolution,
        skill: &MergedSkill,
        base: &Option<Arc<str>>,
    ) -> usize {
        if let Some(entry) = self.in_order.get(position) {
            if entry.is_of(skill, base) {
                return entry.utf16;
            }
        }
        let key = Arc::as_ptr(&skill.doc) as usize;
        if let Some(entry) = self.by_doc.get(&key) {
            if entry.is_of(skill, base) {
                return entry.utf16;
            }
        }
        let entry = EntrySize::of(resolution, skill, base);
        let utf16 = entry.utf16;
        if position == self.in_order.len() {
            self.in_order.push(entry);
        } else {
            self.by_doc.insert(key, entry);
        }
        utf16
    }
}

/// What [`measure`] keeps of the skills block instead of its entries' text.
struct Tally<'m> {
    memo: &'m mut SizeMemo,
    /// How many of the costliest entries to keep.
    shown: usize,
    skills: usize,
    /// The costliest entries so far, most first, ties by name: (tokens, name).
    costliest: Vec<(usize, String)>,
}

impl Tally<'_> {
    /// Counts the entries of `skills`, the skills block of `resolution`: their UTF-16 length.
    fn count_all(&mut self, resolution: &Resolution, skills: &[&MergedSkill]) -> usize {
        let base = self.memo.files_root_base(resolution.files_root_base());
        let mut entries = 0;
        for (position, skill) in skills.iter().copied().enumerate() {
            let utf16 = self.memo.entry_utf16(position, resolution, skill, &base);
            entries += utf16;
            self.count(skill, utf16);
        }
        entries
    }

    /// Counts `skill`'s entry, of `utf16` UTF-16 units.
    fn count(&mut self, skill: &MergedSkill, utf16: usize) {
        self.skills += 1;
        let tokens = tokens_of_utf16_len(utf16);
        // Most entries are cheaper than every one kept: they are left before their name is read.
        if self.costliest.len() == self.shown
            && self.costliest.last().is_none_or(|(kept, _)| *kept > tokens)
        {
            return;
        }
        // Named as the finding names it: by the skill's name, by its printed path when the path
        // does not print as itself (not UTF-8).
        let name: std::borrow::Cow<str> = match skill.doc.path.to_str() {
            Some(_) => skill.name().into(),
            None => context::display_path(&skill.doc.path).into(),
        };
        let at = self
            .costliest
            .partition_point(|(t, n)| *t > tokens || (*t == tokens && n.as_str() < &*name));
        if at < self.shown {
            self.costliest.insert(at, (tokens, name.into_owned()));
            self.costliest.truncate(self.shown);
        }
    }
}

fn render_with(
    ws: &Workspace,
    ctx: &PreviewContext,
    memo: &mut Option<&mut RenderMemo>,
    tally: Option<&mut Tally>,
) -> Result<Preview, ContextError> {
    let mut tally = tally;
    let config = &ws.config;
    let root = context::effective_root(config, &ctx.session)?;
    let advertised = context::advertised_workspace(config, &ctx.session)?;
    let mut out = PromptBuilder::default();
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
    let resolution = match (&mut *memo, &mut tally) {
        (Some(memo), _) => resolution::resolve_kept(ws, &root, &mut memo.base),
        (None, Some(tally)) => resolution::resolve_kept(ws, &root, &mut tally.memo.base),
        (None, None) => resolution::resolve(ws, &root),
    };
    let measuring = tally.is_some();
    skills_block(ws, &resolution, memo, tally, &mut out);
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
    // Notes only: a measure leaves them out.
    if !measuring {
        left_out_notes(ws, &resolution, &mut out);
        removed_tool_notes(ws, ctx, &mut out);
    }

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

/// The plan banner or build hint (harness-spec §5.8), appended raw.
fn plan_banner(ws: &Workspace, ctx: &PreviewContext, out: &mut PromptBuilder) {
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
fn removed_tool_notes(ws: &Workspace, ctx: &PreviewContext, out: &mut PromptBuilder) {
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
    tally: Option<&mut Tally>,
    out: &mut PromptBuilder,
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
    let measuring = tally.is_some();
    // Notes only: a measure leaves them out.
    let tied = if measuring { &[][..] } else { &skills[..] };
    for skill in tied {
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
    let entries_written = if measuring { 0 } else { skills.len() * 700 };
    out.text.reserve(
        texts::SKILLS_HEADER.len() + entries_written + texts::CODE_EXECUTION_SECTION.len() + 8192,
    );
    let s = &mut out.text;
    s.push_str(texts::SKILLS_HEADER);
    let label = "## Available Skills";
    let footer = "</available_skills>";
    if let Some(tally) = tally {
        // The entries are counted, not written.
        let entries = tally.count_all(resolution, &skills);
        s.push_str(footer);
        out.section_leaving_out(start, "skills", label, entries);
    } else {
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
        s.push_str(footer);
        if holds_date {
            out.note(
                "time-zone",
                "dates in skill metadata are shown in UTC; the runtime prints them in its machine's \
                 time zone"
                    .to_string(),
            );
        }
        let counted = entries_utf16.map(|entries| {
            java::utf16_len(texts::SKILLS_HEADER) + entries + java::utf16_len(footer)
        });
        out.section_since(start, "skills", label, sources, counted);
    }
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
fn left_out_notes(ws: &Workspace, resolution: &Resolution, out: &mut PromptBuilder) {
    // A loaded skill gets no note: most of them are, and telling their outcome costs.
    let skills = resolution.skills_not_merged().map(|d| {
        (
            d.path.as_path(),
            resolution.skill_outcome(d),
            EntryKind::Skill,
        )
    });
    let subagents = resolution.subagent_outcomes();
    let subagents = subagents
        .into_iter()
        .map(|(d, o)| (d.path.as_path(), o, EntryKind::Subagent));
    for (path, outcome, kind) in skills.chain(subagents) {
        let what = match kind {
            EntryKind::Skill => "skill",
            EntryKind::Subagent => "subagent",
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
fn subagents_section(resolution: &Resolution, out: &mut PromptBuilder) {
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
mod tests;
