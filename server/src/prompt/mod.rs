//! The system prompt the runtime sends for one session context, byte for byte, with where each
//! part came from and what it costs (harness-spec §5).
//!
//! - `texts`: the literal texts of Appendix A.
//! - `render`: the assembly of §5.1–5.8, §2.5 and §3.4 into a [`Preview`].
//!
//! Pure over a `workspace::Workspace` snapshot and a [`PreviewContext`]; never touches the disk,
//! the clock or the environment (the front-ends pass date, OS and temp folder in). Depends on
//! `base`, `syntax`, `config`, `context` and `workspace`; never on `check`, `paths` or front-ends.

pub mod delta;
pub mod render;
pub mod texts;

use serde::Serialize;

use crate::config::Config;
use crate::context::SessionContext;

/// The date the prompt prints (`syntax::java::Date`, the JVM's `EEEE MMM d, yyyy`).
pub use crate::syntax::java::Date;
pub use render::{measure, render, render_reusing, RenderMemo, SizeMemo};

/// Plan-mode state of the session (harness-spec §5.8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PlanState {
    /// No plan active and none recorded: nothing is appended.
    #[default]
    Off,
    /// PLAN mode is active: the banner (A.16).
    Active,
    /// Back in BUILD mode with a recorded plan: the build hint (A.18).
    Recorded,
}

impl PlanState {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "off" => Some(Self::Off),
            "active" => Some(Self::Active),
            "recorded" => Some(Self::Recorded),
            _ => None,
        }
    }
}

/// Everything the renderer needs besides the snapshot: the session, and what the runtime takes
/// from its JVM (date, OS, temp folder) and from the agent state (plan mode).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PreviewContext {
    pub session: SessionContext,
    /// Today in the JVM zone.
    pub date: Date,
    /// `os.name + " " + os.version`.
    pub os: String,
    /// `java.io.tmpdir`, printed as is.
    pub tmp_dir: String,
    pub plan: PlanState,
    /// The plan file of the state (default `plans/PLAN.md`).
    pub plan_file: String,
    /// `allowShellInPlanMode(true)`: the A.17 hint naming `execute`.
    pub shell_in_plan_mode: bool,
}

/// Default plan file: `<planDir>/PLAN.md` with the default plan folder.
pub const DEFAULT_PLAN_FILE: &str = "plans/PLAN.md";

impl PreviewContext {
    /// A context for `config` with the given machine facts and no ids.
    pub fn new(config: &Config, date: Date, os: &str, tmp_dir: &str) -> Self {
        Self {
            session: SessionContext::from_config(config),
            date,
            os: os.to_string(),
            tmp_dir: tmp_dir.to_string(),
            plan: PlanState::Off,
            plan_file: DEFAULT_PLAN_FILE.to_string(),
            shell_in_plan_mode: false,
        }
    }
}

/// A byte range `[start, end)` in the prompt text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ByteRange {
    pub start: usize,
    pub end: usize,
}

/// A 1-based inclusive line range in a source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LineRange {
    pub start: usize,
    pub end: usize,
}

/// A file a section came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceRef {
    /// Absolute path. Shared: the skills block's 10 000 sources are cloned from the render memo
    /// each render.
    pub path: std::sync::Arc<str>,
    /// Lines used; `None` when only the file's path or existence mattered.
    pub lines: Option<LineRange>,
}

/// One piece of the prompt, in text order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Section {
    /// Stable kind: `system-prompt`, `session-context`, `guidance`, `workspace`, `files-notice`,
    /// `agents-context`, `memory-context`, `domain-knowledge-context`, `additional-context`,
    /// `plan`, `skills`, `code-execution`, `task-list`, `subagents`.
    pub kind: &'static str,
    /// Human label (e.g. the XML tag name of an additional context file).
    pub label: String,
    pub range: ByteRange,
    pub sources: Vec<SourceRef>,
    /// Approximate tokens: UTF-16 length / 4, the runtime's own estimate.
    pub estimated_tokens: usize,
}

/// The memory budget of harness-spec §5.7 as the runtime computed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BudgetReport {
    pub max_context_tokens: u32,
    /// tokens(session context) + tokens(AGENTS.md) + tokens(knowledge) + tokens(additional files).
    pub used_tokens: usize,
    /// `max - used` (may be negative).
    pub available_tokens: i64,
    /// tokens(MEMORY.md after stripping).
    pub memory_tokens: usize,
    /// `included`, `truncated`, `over-budget-included` (available ≤ 0: HEAD injects it whole),
    /// `omitted` (memory tools and hooks off) or `not-rendered` (workspace context off).
    pub memory: &'static str,
    pub truncated: bool,
    /// Where MEMORY.md was cut, when it was.
    pub cut: Option<MemoryCut>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MemoryCut {
    /// The file that was cut.
    pub path: Option<String>,
    /// Offset in the stripped text, in UTF-16 units (what Java cuts by) and in bytes.
    pub utf16_offset: usize,
    pub byte_offset: usize,
    /// 1-based line (in the stripped text) of the cut.
    pub line: usize,
}

/// A place where the preview cannot be exact, or where the runtime would do something surprising.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Note {
    /// Stable code: `directory-order`, `locale`, `sandbox-id`, `stand-in`, `remote-store`,
    /// `not-rendered`, …
    pub code: &'static str,
    pub message: String,
    /// The rule `agentws check` reports the same fact under, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
    /// The file the note is about (absolute path), when it is about one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

/// The resolved context the prompt was rendered for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RenderedContext {
    pub user_id: Option<String>,
    pub session_id: String,
    pub namespace: Option<String>,
    pub scope: crate::config::Scope,
    pub filesystem: crate::config::FilesystemMode,
    /// The runtime the prompt is rendered for: `2.0.3`, `main+#3645`.
    pub harness: String,
    /// Where that runtime comes from (`from pom.xml (io.agentscope:agentscope-harness 2.0.2)`),
    /// with the note of a version that is not modelled exactly.
    pub harness_from: String,
    /// What "The workspace directory is:" prints.
    pub advertised_workspace: String,
}

/// The rendered prompt (also the answer of the LSP method `agentws/previewPrompt`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Preview {
    /// The system message of the first reasoning step.
    pub text: String,
    pub sections: Vec<Section>,
    /// Approximate tokens of the whole text (UTF-16 length / 4).
    pub estimated_tokens: usize,
    pub budget: BudgetReport,
    pub context: RenderedContext,
    pub notes: Vec<Note>,
}

/// What [`measure`] counts of one prompt: what the prompt-size rule weighs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromptSize {
    /// [`Preview::estimated_tokens`] of the same render.
    pub estimated_tokens: usize,
    /// The skills section, when the prompt has one.
    pub catalog: Option<CatalogSize>,
}

/// The skill catalog (the `skills` section) of one prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogSize {
    /// The section's [`Section::estimated_tokens`].
    pub estimated_tokens: usize,
    /// How many `<skill>` entries it lists.
    pub skills: usize,
    /// The costliest entries, most first, ties by name: (skill name, tokens of its `<skill>`
    /// entry).
    pub costliest: Vec<(String, usize)>,
}

/// The runtime's token estimate: UTF-16 length / 4 (harness-spec §5.7).
pub fn estimate_tokens(s: &str) -> usize {
    tokens_of_utf16_len(crate::syntax::java::utf16_len(s))
}

/// [`estimate_tokens`] of a text whose UTF-16 length is already known.
pub fn tokens_of_utf16_len(utf16_len: usize) -> usize {
    utf16_len / 4
}

impl Preview {
    /// Sources that are store entries named by their origin (`store:` + namespace + key;
    /// docs/stores.md) instead of the per-user path they were read into.
    pub fn relabel_sources(&mut self, files: &crate::base::FileSet) {
        if !files.has_origins() {
            return;
        }
        for section in &mut self.sections {
            for source in &mut section.sources {
                if let Some(origin) = files.origin(std::path::Path::new(&*source.path)) {
                    source.path = origin.into();
                }
            }
        }
    }
}
