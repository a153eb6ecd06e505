//! Rendering a check report for people and machines: `human` (rustc-style snippets), `concise`
//! (one line per diagnostic), `json` (the stable contract of docs/cli.md), `sarif` (SARIF 2.1.0)
//! and `github` (workflow commands).
//!
//! Everything here works on [`Report`], where byte ranges have already become 1-based lines and
//! columns (Unicode scalar values) and paths are relative to the current folder. Must not depend
//! on the disk or on how the report was produced.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use serde::Serialize;

use crate::base::redact::{redact_text, text_secrets, MASK};
use crate::base::{ColumnHint, Diagnostic, Encoding, FileSet, LineIndex, Severity, TextRange};
use crate::workspace::FileKind;

pub mod concise;
pub mod fingerprint;
pub mod github;
pub mod human;
pub mod json;
pub mod sarif;

/// Output format of `agentws check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Concise,
    Json,
    Sarif,
    Github,
}

/// A 1-based line and column; the column counts Unicode scalar values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

/// A range of positions; `end` is the position just after the last character.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Span {
    pub start: Position,
    pub end: Position,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShownEdit {
    pub path: String,
    pub range: Span,
    pub new_text: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShownFix {
    pub title: String,
    pub edits: Vec<ShownEdit>,
    /// The source lines around the edits when they all sit in one file with text (human output).
    #[serde(skip)]
    pub excerpt: Option<Excerpt>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShownRelated {
    pub path: String,
    pub range: Span,
    pub message: String,
}

/// One diagnostic ready for output. The serialized fields are exactly the JSON contract.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShownDiagnostic {
    pub path: String,
    pub range: Span,
    pub severity: Severity,
    pub code: &'static str,
    pub message: String,
    pub consequence: String,
    pub fixes: Vec<ShownFix>,
    /// Other places that explain it (the subagents that keep a removed tool, the keys a YAML
    /// error loses).
    pub related: Vec<ShownRelated>,
    /// What identifies the finding while the file around it changes ([`fingerprint`]).
    pub fingerprint: String,
    /// With a baseline: `new` (not in it). Baselined findings are not among the diagnostics.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_state: Option<&'static str>,
    /// The source lines the diagnostic covers, when the file has text (human output).
    #[serde(skip)]
    pub excerpt: Option<Excerpt>,
    /// The file's absolute path, and its store entry's name when it was read from a store (for
    /// the baseline, which names files relative to itself).
    #[serde(skip)]
    pub absolute: std::path::PathBuf,
    #[serde(skip)]
    pub origin: Option<String>,
}

/// One finding a baseline file records (`agentws check --write-baseline`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, serde::Deserialize)]
pub struct BaselineEntry {
    /// Relative to the baseline file's folder, or a store entry's name.
    pub path: String,
    pub rule: String,
    pub fingerprint: String,
    /// For the reader of the file; not matched.
    pub message: String,
}

/// What a baseline did to a report (`agentws check --baseline`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct BaselineOutcome {
    /// The baseline file as shown (relative to the current folder).
    pub file: String,
    /// Findings the baseline holds (not reported, not counted).
    pub unchanged: Vec<ShownDiagnostic>,
    /// Entries of the baseline that no finding matches any more.
    pub absent: Vec<BaselineEntry>,
}

/// A diagnostic the project suppressed, and how (SARIF `suppressions`; JSON `suppressed`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShownSuppressed {
    #[serde(flatten)]
    pub diagnostic: ShownDiagnostic,
    pub suppression: ShownSuppression,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShownSuppression {
    pub kind: crate::check::settle::SuppressionKind,
    pub justification: String,
}

/// A few whole source lines, their breaks normalized to `\n`, with the ranges to annotate inside
/// them. Keeps the snippet renderer away from whole (possibly huge) files and from lone `\r`
/// breaks it does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Excerpt {
    pub text: String,
    /// 1-based number of the excerpt's first line.
    pub first_line: usize,
    /// Byte ranges inside `text`, one per annotated range (diagnostic range or fix edits).
    pub ranges: Vec<Range<usize>>,
}

/// Excerpts longer than this are not shown: the location alone is printed.
const MAX_EXCERPT_BYTES: usize = 8 * 1024;
/// A diagnostic spanning more lines shows only its first ones.
const MAX_EXCERPT_LINES: usize = 12;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
}

/// What `--fix` did, for the human summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FixSummary {
    pub fixes_applied: usize,
    pub files_written: usize,
    /// One line per fix or file left alone, already phrased.
    pub not_applied: Vec<String>,
    /// What another process wrote to a file while it was fixed and that was kept aside.
    pub notes: Vec<String>,
}

/// The runtime a checked project is modelled under, and where that comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShownRuntime {
    /// The project folder, as shown.
    pub project: String,
    /// `2.0.2`, `main+#3645`.
    pub release: String,
    /// `from pom.xml (io.agentscope:agentscope-harness 2.0.2)`, paths as shown.
    pub source: String,
    /// Why the version written is not modelled exactly, when it is not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Whether the project has an agentws.toml. Without one nothing names the agent (whose name
    /// is the runtime's default session id), so a preview needs `--session`, which the summary
    /// says; with one, CF007 says when `[agent] name` is missing.
    #[serde(skip)]
    pub has_config: bool,
}

impl ShownRuntime {
    /// The runtime of `config`, paths relative to `cwd`.
    pub fn of(config: &crate::config::Config, cwd: &Path) -> Self {
        use crate::config::HarnessSource;
        let shown = |p: &Path| crate::cli::project::display_relative(p, cwd);
        let source = match &config.harness_from.source {
            HarnessSource::BuildFile { path, coordinate } if coordinate.is_empty() => {
                format!("{} names the runtime without a version agentws can read (CF014); the newest release modelled", shown(path))
            }
            HarnessSource::BuildFile { path, coordinate } => {
                format!("from {} ({coordinate})", shown(path))
            }
            other => other.describe(),
        };
        Self {
            project: shown(&config.project),
            release: config.harness.label(),
            source,
            note: config.harness_from.note.clone(),
            has_config: config.file.is_some(),
        }
    }

    /// `AgentScope Harness 2.0.2, from pom.xml (…)`, the note after it.
    pub fn line(&self) -> String {
        let note = self
            .note
            .as_ref()
            .map_or(String::new(), |n| format!("; {n}"));
        format!("AgentScope Harness {}, {}{note}", self.release, self.source)
    }
}

/// Everything a format needs to print.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The runtime each checked project is modelled under, in the order they were checked.
    pub runtimes: Vec<ShownRuntime>,
    pub files_checked: BTreeMap<FileKind, usize>,
    /// What is reported: neither suppressed nor in the baseline. The summary and the exit code
    /// count these alone.
    pub diagnostics: Vec<ShownDiagnostic>,
    /// What per-path settings and suppression comments kept aside.
    pub suppressed: Vec<ShownSuppressed>,
    /// Set when `--baseline` was given.
    pub baseline: Option<BaselineOutcome>,
    /// Set when `--fix` ran.
    pub fix: Option<FixSummary>,
    /// How the summary writes the commands it suggests.
    pub rerun: Rerun,
}

/// The commands the summary suggests, as the user can type them: the program (`agentws`, or its
/// path when PATH does not find it, as after `cargo run`) and the arguments that chose what was
/// checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rerun {
    /// Empty for `agentws`.
    pub program: String,
    /// Shell words repeated after `check --fix`: the profile, the release, the paths.
    pub args: Vec<String>,
}

impl Rerun {
    /// `PROGRAM SUBCOMMAND…`, the program as the user can run it.
    pub fn command(&self, subcommand: &str) -> String {
        let program = if self.program.is_empty() {
            "agentws"
        } else {
            &self.program
        };
        format!("{program} {subcommand}")
    }
}

impl Report {
    pub fn summary(&self) -> Summary {
        let mut summary = Summary::default();
        for d in &self.diagnostics {
            match d.severity {
                Severity::Error => summary.errors += 1,
                Severity::Warning => summary.warnings += 1,
                Severity::Info => summary.infos += 1,
            }
        }
        summary
    }

    pub fn total_files(&self) -> usize {
        self.files_checked.values().sum()
    }

    /// Numbers equal fingerprints by their order in the report (reported ones first, then the
    /// suppressed ones, each counted apart), once every target's diagnostics are in.
    pub fn number_fingerprints(&mut self) {
        if self.diagnostics.iter().all(|d| d.fingerprint.is_empty())
            && self
                .suppressed
                .iter()
                .all(|s| s.diagnostic.fingerprint.is_empty())
        {
            return;
        }
        fingerprint::number(self.diagnostics.iter_mut().map(|d| &mut d.fingerprint));
        fingerprint::number(
            self.suppressed
                .iter_mut()
                .map(|s| &mut s.diagnostic.fingerprint),
        );
    }
}

/// Options that only the human formats use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
}

/// Renders `report` in `format` (the whole stdout text); SARIF links each rule to its page under
/// `docs_url` (`rules::docs`).
pub fn render(report: &Report, format: Format, style: Style, docs_url: &str) -> String {
    match format {
        Format::Human => human::render(report, style),
        Format::Concise => concise::render(report),
        Format::Json => json::render(report),
        Format::Sarif => sarif::render(report, docs_url),
        Format::Github => github::render(report),
    }
}

/// Writes `text` to stdout. A closed pipe (`agentws check | head`) is not an error worth a panic:
/// the reader has what it wanted.
pub fn print_stdout(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
}

/// Converts diagnostics of one file set to their shown form: positions from the texts in
/// `files`, paths relative to `cwd`.
pub struct Presenter<'a> {
    files: &'a FileSet,
    cwd: &'a Path,
    /// The project the files belong to, when shown diagnostics carry fingerprints: they name
    /// files relative to it. Only JSON, SARIF and a baseline read fingerprints.
    config: Option<&'a crate::config::Config>,
    /// Only the human format shows source lines; the others skip copying them.
    excerpts: bool,
    /// Line indexes built on first use, one per file, with the last position converted in it.
    indexes: std::cell::RefCell<BTreeMap<std::path::PathBuf, (LineIndex, Option<ColumnHint>)>>,
}

impl<'a> Presenter<'a> {
    pub fn new(files: &'a FileSet, cwd: &'a Path) -> Self {
        Self {
            files,
            cwd,
            config: None,
            excerpts: true,
            indexes: Default::default(),
        }
    }

    /// Shown diagnostics carry fingerprints, naming files relative to the project of `config`
    /// rather than to the current folder.
    pub fn with_fingerprints(mut self, config: &'a crate::config::Config) -> Self {
        self.config = Some(config);
        self
    }

    /// Whether shown diagnostics carry source excerpts (default: yes).
    pub fn with_excerpts(mut self, excerpts: bool) -> Self {
        self.excerpts = excerpts;
        self
    }

    /// `d` in its shown form. Every text in it is redacted ([`redact_text`]): a source line or a
    /// message may hold a store URL with its password (agentws.toml's `[store] url`).
    pub fn show(&self, d: &Diagnostic) -> ShownDiagnostic {
        ShownDiagnostic {
            path: self.path(&d.path),
            range: self.span(&d.path, d.range),
            severity: d.severity,
            code: d.code,
            message: redact_text(&d.message).into_owned(),
            consequence: redact_text(&d.consequence).into_owned(),
            fixes: d
                .fixes
                .iter()
                .map(|fix| ShownFix {
                    title: redact_text(&fix.title).into_owned(),
                    edits: fix
                        .edits
                        .iter()
                        .map(|e| ShownEdit {
                            path: self.path(&e.path),
                            range: self.span(&e.path, e.range),
                            new_text: redact_text(&e.new_text).into_owned(),
                        })
                        .collect(),
                    excerpt: match fix.edits.first() {
                        Some(first) if fix.edits.iter().all(|e| e.path == first.path) => self
                            .excerpt(
                                &first.path,
                                &fix.edits.iter().map(|e| e.range).collect::<Vec<_>>(),
                            ),
                        _ => None,
                    },
                })
                .collect(),
            related: d
                .related
                .iter()
                .map(|r| ShownRelated {
                    path: self.path(&r.path),
                    range: self.span(&r.path, r.range),
                    message: redact_text(&r.message).into_owned(),
                })
                .collect(),
            fingerprint: self.fingerprint(d),
            baseline_state: None,
            excerpt: self.excerpt(&d.path, &[d.range]),
            absolute: d.path.clone(),
            origin: self.files.origin(&d.path).map(str::to_string),
        }
    }

    /// A suppressed diagnostic in its shown form.
    pub fn show_suppressed(&self, s: &crate::check::settle::Suppressed) -> ShownSuppressed {
        ShownSuppressed {
            diagnostic: self.show(&s.diagnostic),
            suppression: ShownSuppression {
                kind: s.kind,
                justification: redact_text(&s.justification).into_owned(),
            },
        }
    }

    /// `d`'s [`fingerprint`], without its occurrence number; empty unless asked for.
    fn fingerprint(&self, d: &Diagnostic) -> String {
        let Some(config) = self.config else {
            return String::new();
        };
        let place = match self.files.origin(&d.path) {
            Some(origin) => origin.to_string(),
            None => crate::check::settle::settings_path(config, &d.path),
        };
        self.with_index(&d.path, d.range.end.max(d.range.start), |text, index, _| {
            let start = d.range.start.min(text.len());
            let end = d.range.end.clamp(start, text.len());
            let line = index
                .line_range(text, index.line_of(start))
                .unwrap_or(TextRange::empty(start));
            let line = fingerprint::around(text, line, TextRange::new(start, end));
            let flagged = text.get(start..end).unwrap_or("");
            fingerprint::of(d.code, &place, line, flagged)
        })
        .unwrap_or_else(|| fingerprint::of(d.code, &place, "", ""))
    }

    fn path(&self, path: &Path) -> String {
        if let Some(origin) = self.files.origin(path) {
            return origin.to_string();
        }
        crate::cli::project::display_relative(path, self.cwd)
    }

    /// Runs `f` with an index of `path` covering at least `offset` (most diagnostics sit near the
    /// top of a file, so only that part is indexed; the index grows when a later one needs more).
    fn with_index<T>(
        &self,
        path: &Path,
        offset: usize,
        f: impl FnOnce(&str, &LineIndex, &mut Option<ColumnHint>) -> T,
    ) -> Option<T> {
        let text = self.files.text(path)?;
        let mut indexes = self.indexes.borrow_mut();
        let (index, hint) = indexes
            .entry(path.to_path_buf())
            .or_insert_with(|| (LineIndex::new_prefix(text, offset), None));
        if offset >= index.covered_len() && index.covered_len() < text.len() {
            index.extend_prefix(text, offset);
        }
        Some(f(text, index, hint))
    }

    fn span(&self, path: &Path, range: TextRange) -> Span {
        self.with_index(path, range.end.max(range.start), |text, index, hint| {
            // Diagnostics come in position order: counting columns from the last one keeps
            // many diagnostics on one long line linear.
            let mut pos = |offset| {
                let p = index.position_near(text, offset, Encoding::Utf32, hint);
                Position {
                    line: p.line + 1,
                    column: p.col + 1,
                }
            };
            Span {
                start: pos(range.start),
                end: pos(range.end.max(range.start)),
            }
        })
        .unwrap_or_else(whole_file_span)
    }

    fn excerpt(&self, path: &Path, ranges: &[TextRange]) -> Option<Excerpt> {
        if !self.excerpts {
            return None;
        }
        let furthest = ranges.iter().map(|r| r.end.max(r.start)).max().unwrap_or(0);
        self.with_index(path, furthest, |text, index, _| {
            excerpt(text, index, ranges)
        })
        .flatten()
    }
}

fn whole_file_span() -> Span {
    let start = Position { line: 1, column: 1 };
    Span { start, end: start }
}

/// The lines covering `ranges` (at most [`MAX_EXCERPT_LINES`]), joined with `\n`, with the
/// ranges mapped into the excerpt (clamped to it).
fn excerpt(text: &str, index: &LineIndex, ranges: &[TextRange]) -> Option<Excerpt> {
    let first = ranges.iter().map(|r| r.start).min()?.min(text.len());
    let last = ranges
        .iter()
        .map(|r| r.end.max(r.start))
        .max()?
        .min(text.len());
    let first_line = index.line_of(first);
    let last_line = index.line_of(last).min(first_line + MAX_EXCERPT_LINES - 1);
    // A range ending right at the start of a line does not show that line.
    let last_line = if last_line > first_line && index.line_start(last_line) == Some(last) {
        last_line - 1
    } else {
        last_line
    };
    let mut out = String::new();
    // (source start, excerpt start, length) of each line copied.
    let mut lines = Vec::new();
    for line in first_line..=last_line {
        let range = index.line_range(text, line)?;
        if line > first_line {
            out.push('\n');
        }
        // Checked before copying: copying a long line only to drop it would cost its length
        // once per diagnostic on it.
        if out.len() + range.len() > MAX_EXCERPT_BYTES {
            return None;
        }
        lines.push((range.start, out.len(), range.len()));
        out.push_str(&text[range.start..range.end]);
    }
    let map = |offset: usize| -> usize {
        for &(src, dst, len) in lines.iter().rev() {
            if offset >= src {
                return dst + (offset - src).min(len);
            }
        }
        0
    };
    let ranges = ranges
        .iter()
        .map(|r| {
            let start = map(crate::base::text::floor_char_boundary(text, r.start));
            let end = map(crate::base::text::floor_char_boundary(
                text,
                r.end.max(r.start),
            ));
            start..end.max(start)
        })
        .collect();
    let mut excerpt = Excerpt {
        text: out,
        first_line: first_line + 1,
        ranges,
    };
    let secrets = text_secrets(&excerpt.text);
    excerpt.replace(secrets.into_iter().map(|r| (r, MASK.to_string())));
    Some(excerpt)
}

impl Excerpt {
    /// The excerpt with each byte range of `replacements` (in order, not overlapping) replaced,
    /// and the annotated ranges moved with the text: an offset after a replacement shifts by its
    /// change in length, one inside it goes to the replacement's start or end.
    pub fn replace(&mut self, replacements: impl IntoIterator<Item = (Range<usize>, String)>) {
        let mut out = String::with_capacity(self.text.len());
        // (replaced range, its replacement's range) for moving offsets.
        let mut moved: Vec<(Range<usize>, Range<usize>)> = Vec::new();
        let mut at = 0;
        for (range, with) in replacements {
            out.push_str(&self.text[at..range.start]);
            let shown_start = out.len();
            out.push_str(&with);
            moved.push((range.clone(), shown_start..out.len()));
            at = range.end;
        }
        if moved.is_empty() {
            return;
        }
        out.push_str(&self.text[at..]);
        let shift = |offset: usize, is_end: bool| -> usize {
            let mut delta = 0isize;
            for (source, shown) in &moved {
                if offset >= source.end {
                    delta = shown.end as isize - source.end as isize;
                } else if offset > source.start {
                    return if is_end { shown.end } else { shown.start };
                } else {
                    break;
                }
            }
            offset.saturating_add_signed(delta)
        };
        for range in &mut self.ranges {
            let start = shift(range.start, false);
            let end = shift(range.end, true);
            *range = start..end.max(start);
        }
        self.text = out;
    }
}

/// `text` as a terminal may print it: control characters other than the line break and the tab,
/// and the characters that reorder bidirectional text, written as their escapes (`\u{1b}`), so a
/// file name, a stored key or a line of a file cannot move the cursor, recolour the terminal or
/// make what is read differ from what is there. `line` also escapes the line break, for formats
/// of one line per entry.
pub fn terminal_text(text: &str, line: bool) -> Cow<'_, str> {
    let unsafe_char =
        |c: char| (c.is_control() && c != '\t' && (line || c != '\n')) || is_bidi_control(c);
    if !text.contains(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The explicit directional formatting characters (Unicode TR 9): embeddings, overrides,
/// isolates and marks.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

impl ShownDiagnostic {
    /// The diagnostic as a terminal may print it: every text through [`terminal_text`] (`line`:
    /// line breaks escaped too), the excerpts with their ranges moved. Borrowed when nothing in it
    /// needs escaping, which is nearly always.
    pub fn for_terminal(&self, line: bool) -> Cow<'_, ShownDiagnostic> {
        let plain = |t: &str| matches!(terminal_text(t, line), Cow::Borrowed(_));
        let excerpt_plain = |e: &Option<Excerpt>| {
            e.as_ref()
                .is_none_or(|e| matches!(e.for_terminal(), Cow::Borrowed(_)))
        };
        let all_plain = plain(&self.path)
            && plain(&self.message)
            && plain(&self.consequence)
            && excerpt_plain(&self.excerpt)
            && self
                .related
                .iter()
                .all(|r| plain(&r.path) && plain(&r.message))
            && self.fixes.iter().all(|f| {
                plain(&f.title)
                    && excerpt_plain(&f.excerpt)
                    && f.edits.iter().all(|e| plain(&e.path) && plain(&e.new_text))
            });
        if all_plain {
            return Cow::Borrowed(self);
        }
        let owned = |t: &str| terminal_text(t, line).into_owned();
        let excerpt = |e: &Option<Excerpt>| e.as_ref().map(|e| e.for_terminal().into_owned());
        Cow::Owned(ShownDiagnostic {
            path: owned(&self.path),
            message: owned(&self.message),
            consequence: owned(&self.consequence),
            excerpt: excerpt(&self.excerpt),
            related: self
                .related
                .iter()
                .map(|r| ShownRelated {
                    path: owned(&r.path),
                    range: r.range,
                    message: owned(&r.message),
                })
                .collect(),
            fixes: self
                .fixes
                .iter()
                .map(|f| ShownFix {
                    title: owned(&f.title),
                    edits: f
                        .edits
                        .iter()
                        .map(|e| ShownEdit {
                            path: owned(&e.path),
                            range: e.range,
                            new_text: owned(&e.new_text),
                        })
                        .collect(),
                    excerpt: excerpt(&f.excerpt),
                })
                .collect(),
            ..self.clone()
        })
    }
}

impl Excerpt {
    /// The excerpt as a terminal may print it ([`terminal_text`]), its ranges moved with it.
    pub fn for_terminal(&self) -> Cow<'_, Excerpt> {
        if matches!(terminal_text(&self.text, false), Cow::Borrowed(_)) {
            return Cow::Borrowed(self);
        }
        let mut shown = self.clone();
        let replacements: Vec<(Range<usize>, String)> = self
            .text
            .char_indices()
            .filter_map(|(i, c)| {
                let escaped = terminal_text(&self.text[i..i + c.len_utf8()], false);
                matches!(escaped, Cow::Owned(_))
                    .then(|| (i..i + c.len_utf8(), escaped.into_owned()))
            })
            .collect();
        shown.replace(replacements);
        Cow::Owned(shown)
    }
}

/// "1 error", "2 warnings".
pub fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The summary lines shared by the human and concise formats.
pub fn summary_lines(report: &Report) -> String {
    let mut out = String::new();
    let total = report.total_files();
    let kinds: Vec<String> = report
        .files_checked
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(kind, n)| format!("{n} {}", kind_label(*kind, *n)))
        .collect();
    if kinds.is_empty() {
        out.push_str("Checked 0 files.\n");
    } else {
        out.push_str(&format!(
            "Checked {}: {}.\n",
            plural(total, "file", "files"),
            kinds.join(", ")
        ));
    }
    if let Some(fix) = &report.fix {
        out.push_str(&format!(
            "Applied {} in {}.\n",
            plural(fix.fixes_applied, "fix", "fixes"),
            plural(fix.files_written, "file", "files")
        ));
        for line in &fix.not_applied {
            out.push_str(&format!("Not fixed: {line}\n"));
        }
        for line in &fix.notes {
            out.push_str(&format!("Note: {line}\n"));
        }
    }
    let s = report.summary();
    out.push_str(&format!(
        "Found {}, {}, {}.\n",
        plural(s.errors, "error", "errors"),
        plural(s.warnings, "warning", "warnings"),
        plural(s.infos, "info", "infos")
    ));
    if !report.suppressed.is_empty() {
        let in_source = report
            .suppressed
            .iter()
            .filter(|s| s.suppression.kind == crate::check::settle::SuppressionKind::InSource)
            .count();
        let external = report.suppressed.len() - in_source;
        let mut by = Vec::new();
        if in_source > 0 {
            by.push(format!("{in_source} by comments in the files"));
        }
        if external > 0 {
            by.push(format!("{external} by [rules.per-path] of agentws.toml"));
        }
        out.push_str(&format!(
            "Suppressed {} ({}).\n",
            plural(report.suppressed.len(), "finding", "findings"),
            by.join(", ")
        ));
    }
    if let Some(baseline) = &report.baseline {
        out.push_str(&format!(
            "{} in the baseline `{}`",
            plural(baseline.unchanged.len(), "finding is", "findings are"),
            baseline.file
        ));
        if baseline.absent.is_empty() {
            out.push_str(".\n");
        } else {
            out.push_str(&format!(
                "; {} of it no longer {} (`{}` drops {}).\n",
                plural(baseline.absent.len(), "entry", "entries"),
                if baseline.absent.len() == 1 {
                    "matches"
                } else {
                    "match"
                },
                report
                    .rerun
                    .command(&format!("check --write-baseline {}", baseline.file)),
                if baseline.absent.len() == 1 {
                    "it"
                } else {
                    "them"
                }
            ));
        }
    }
    // What to run next, as the user can run it.
    let rerun = &report.rerun;
    let (stored, on_disk): (Vec<&ShownDiagnostic>, Vec<&ShownDiagnostic>) = report
        .diagnostics
        .iter()
        .filter(|d| !d.fixes.is_empty())
        .partition(|d| d.origin.is_some());
    if !on_disk.is_empty() && report.fix.is_none() {
        let mut fix = vec!["check --fix".to_string()];
        fix.extend(rerun.args.iter().cloned());
        out.push_str(&format!(
            "{} can be fixed with `{}`.\n",
            plural(on_disk.len(), "problem", "problems"),
            rerun.command(&fix.join(" "))
        ));
    }
    if !stored.is_empty() {
        out.push_str(&format!(
            "{} in stored files {} a fix (shown as help) that agentws does not write: it only reads \
             the store, so make the change where those files are written.\n",
            plural(stored.len(), "problem", "problems"),
            if stored.len() == 1 { "has" } else { "have" }
        ));
    }
    out
}

/// The human format's last lines: where to read about a finding, and what a preview of a project
/// without agentws.toml needs. The concise format, read by tools as much as by people, stops
/// at the summary.
pub fn next_steps(report: &Report) -> String {
    let mut out = String::new();
    let rerun = &report.rerun;
    if let Some(first) = report
        .diagnostics
        .iter()
        .min_by_key(|d| (d.severity, d.origin.is_some()))
    {
        out.push_str(&format!(
            "Run `{}` (or any other code) for what a finding means and how to fix it.\n",
            rerun.command(&format!("explain {}", first.code))
        ));
    }
    if let Some(runtime) = report.runtimes.iter().find(|r| !r.has_config) {
        out.push_str(&format!(
            "No agentws.toml, so agentws does not know the agent's name, which is the session id \
             of a call that gives none: preview with `{}` (or write agentws.toml with \
             `[agent] name`).\n",
            rerun.command(&format!(
                "preview {} --session ID",
                crate::cli::shell_word(&runtime.project)
            ))
        ));
    }
    out
}

/// `FileKind::label` is plural; a count of one reads better singular for the folders.
fn kind_label(kind: FileKind, n: usize) -> &'static str {
    match (kind, n) {
        (FileKind::Skill, 1) => "skill",
        (FileKind::Subagent, 1) => "subagent",
        (FileKind::Knowledge, 1) => "knowledge file",
        (FileKind::AdditionalContext, 1) => "additional context file",
        (FileKind::SystemPrompt, 1) => "system prompt file",
        (FileKind::SkillResource, 1) => "skill resource",
        _ => kind.label(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::base::{FileEdit, Fix, Related};

    /// A small file set and diagnostics on it, shared by the format tests.
    pub fn sample() -> Report {
        let cwd = PathBuf::from("/p");
        let skill = PathBuf::from("/p/ws/skills/pdf/SKILL.md");
        let tools = PathBuf::from("/p/ws/tools.json");
        let mut files = FileSet::new();
        let skill_text = "---\nname: yes\ndescription: 処理 😀 PDFs\n---\nBody\n";
        files.insert_text(skill.clone(), skill_text);
        files.insert(
            tools.clone(),
            crate::base::FileContent::NotUtf8 {
                valid_up_to: 0,
                binary: true,
            },
            None,
        );
        let yes = skill_text.find("yes").unwrap();
        let pdfs = skill_text.find("PDFs").unwrap();
        let diagnostics = [
            Diagnostic {
                path: skill.clone(),
                range: TextRange::new(yes, yes + 3),
                severity: Severity::Error,
                code: "SK999",
                message: "`name: yes` is the boolean true".into(),
                consequence: "The runtime skips this skill.".into(),
                fixes: vec![Fix {
                    title: "quote the name".into(),
                    edits: vec![FileEdit {
                        path: skill.clone(),
                        range: TextRange::new(yes, yes + 3),
                        new_text: "\"yes\"".into(),
                    }],
                }],
                related: vec![],
                omitted: None,
                part: None,
            },
            Diagnostic {
                path: skill.clone(),
                range: TextRange::new(pdfs, pdfs + 4),
                severity: Severity::Info,
                code: "SK998",
                message: "a word after an emoji".into(),
                consequence: "Nothing changes.".into(),
                fixes: vec![],
                related: vec![Related {
                    path: skill.clone(),
                    range: TextRange::new(0, 3),
                    message: "the frontmatter starts here".into(),
                }],
                omitted: None,
                part: None,
            },
            Diagnostic {
                path: tools.clone(),
                range: TextRange::empty(0),
                severity: Severity::Warning,
                code: "WS004",
                message: "tools.json is a binary file".into(),
                consequence: "The runtime ignores tools.json, with a WARN".into(),
                fixes: vec![],
                related: vec![],
                omitted: None,
                part: None,
            },
        ];
        let config = crate::config::Config::defaults_for(Path::new("/p"));
        let presenter = Presenter::new(&files, &cwd).with_fingerprints(&config);
        let mut files_checked = BTreeMap::new();
        files_checked.insert(FileKind::Skill, 1);
        files_checked.insert(FileKind::ToolsJson, 1);
        let suppressed = crate::check::settle::Suppressed {
            diagnostic: diagnostics[1].clone(),
            kind: crate::check::settle::SuppressionKind::InSource,
            justification: "the emoji is meant".into(),
        };
        let mut report = Report {
            runtimes: vec![ShownRuntime {
                project: ".".into(),
                release: "2.0.2".into(),
                source: "from pom.xml (io.agentscope:agentscope-harness 2.0.2)".into(),
                note: None,
                has_config: true,
            }],
            files_checked,
            diagnostics: diagnostics.iter().map(|d| presenter.show(d)).collect(),
            suppressed: vec![presenter.show_suppressed(&suppressed)],
            ..Report::default()
        };
        report.number_fingerprints();
        report
    }

    #[test]
    fn positions_are_one_based_unicode_scalar_columns() {
        let report = sample();
        let d = &report.diagnostics[1];
        assert_eq!(d.path, "ws/skills/pdf/SKILL.md");
        // `description: 処理 😀 PDFs`: 13 + 2 + 1 + 1 + 1 scalar values before `PDFs`.
        assert_eq!(
            d.range,
            Span {
                start: Position {
                    line: 3,
                    column: 19
                },
                end: Position {
                    line: 3,
                    column: 23
                }
            }
        );
        assert_eq!(report.diagnostics[2].range, whole_file_span());
        assert_eq!(report.diagnostics[2].excerpt, None);
    }

    #[test]
    fn excerpts_normalize_line_breaks_and_map_ranges() {
        let text = "a\r\nbb\rccc\ndd";
        let index = LineIndex::new(text);
        let ex = excerpt(text, &index, &[TextRange::new(4, 7)]).unwrap();
        // Lines 2..=3: "bb" and "ccc"; the range covers "b\rc" in the source.
        assert_eq!(ex.text, "bb\nccc");
        assert_eq!(ex.first_line, 2);
        assert_eq!(ex.ranges, vec![1..4]);
    }

    #[test]
    fn summary_counts_files_by_kind_and_severities() {
        let text = summary_lines(&sample());
        assert_eq!(
            text,
            "Checked 2 files: 1 skill, 1 tools.json.\n\
             Found 1 error, 1 warning, 1 info.\n\
             Suppressed 1 finding (1 by comments in the files).\n\
             1 problem can be fixed with `agentws check --fix`.\n"
        );
    }

    #[test]
    fn the_human_format_ends_with_the_next_steps() {
        let mut report = sample();
        assert_eq!(
            next_steps(&report),
            "Run `agentws explain SK999` (or any other code) for what a finding means and how to \
             fix it.\n"
        );
        report.rerun.program = "target/debug/agentws".into();
        report.runtimes[0].has_config = false;
        report.runtimes[0].project = "my ws".into();
        assert_eq!(
            next_steps(&report),
            "Run `target/debug/agentws explain SK999` (or any other code) for what a finding means \
             and how to fix it.\n\
             No agentws.toml, so agentws does not know the agent's name, which is the session id of \
             a call that gives none: preview with `target/debug/agentws preview 'my ws' --session \
             ID` (or write agentws.toml with `[agent] name`).\n"
        );
        report.diagnostics.clear();
        report.runtimes.clear();
        assert_eq!(next_steps(&report), "");
    }

    #[test]
    fn the_baseline_summary_says_what_it_held_and_what_no_longer_matches() {
        let mut report = sample();
        report.suppressed.clear();
        // Run as `cargo run` leaves it: not through PATH.
        report.rerun = Rerun {
            program: "target/debug/agentws".into(),
            args: vec!["ws".into()],
        };
        let unchanged = report.diagnostics.split_off(1);
        report.baseline = Some(BaselineOutcome {
            file: "base.json".into(),
            unchanged,
            absent: vec![BaselineEntry {
                path: "a.md".into(),
                rule: "SK001".into(),
                fingerprint: "x:1".into(),
                message: "gone".into(),
            }],
        });
        assert_eq!(
            summary_lines(&report),
            "Checked 2 files: 1 skill, 1 tools.json.\n\
             Found 1 error, 0 warnings, 0 infos.\n\
             2 findings are in the baseline `base.json`; 1 entry of it no longer matches \
             (`target/debug/agentws check --write-baseline base.json` drops it).\n\
             1 problem can be fixed with `target/debug/agentws check --fix ws`.\n"
        );
    }

    #[test]
    fn the_fix_summary_lists_what_was_not_fixed_and_what_was_kept_aside() {
        let mut report = sample();
        report.fix = Some(FixSummary {
            fixes_applied: 1,
            files_written: 1,
            not_applied: vec!["a.md: SK008 Quote `yes` (the file is read-only)".into()],
            notes: vec!["b.md: written by another process during the fix: kept".into()],
        });
        assert_eq!(
            summary_lines(&report),
            "Checked 2 files: 1 skill, 1 tools.json.\n\
             Applied 1 fix in 1 file.\n\
             Not fixed: a.md: SK008 Quote `yes` (the file is read-only)\n\
             Note: b.md: written by another process during the fix: kept\n\
             Found 1 error, 1 warning, 1 info.\n\
             Suppressed 1 finding (1 by comments in the files).\n"
        );
    }

    proptest::proptest! {
        /// Any text, any range (even past the end or inside a character), any fix: every format
        /// renders without panicking, and positions stay 1-based and ordered.
        #[test]
        fn every_format_renders_any_text_and_range(
            text in "(\\PC|[\t\r\n\u{0}\u{200b}]){0,200}",
            a in 0usize..260,
            b in 0usize..260,
            new_text in "\\PC{0,5}",
        ) {
            let path = PathBuf::from("/p/f.md");
            let mut files = FileSet::new();
            files.insert_text(path.clone(), &text);
            let range = TextRange::new(a.min(b), a.max(b));
            let d = Diagnostic {
                path: path.clone(),
                range,
                severity: Severity::Warning,
                code: "XX001",
                message: "m".into(),
                consequence: "c".into(),
                fixes: vec![Fix {
                    title: "t".into(),
                    edits: vec![FileEdit { path: path.clone(), range, new_text }],
                }],
                related: vec![],
                omitted: None,
                part: None,
            };
            let shown = Presenter::new(&files, Path::new("/p")).show(&d);
            proptest::prop_assert!(shown.range.start.line >= 1 && shown.range.start.column >= 1);
            proptest::prop_assert!(shown.range.start <= shown.range.end);
            let report = Report {
                diagnostics: vec![shown],
                ..Default::default()
            };
            for format in [Format::Human, Format::Concise, Format::Json, Format::Sarif, Format::Github] {
                render(&report, format, Style { color: true }, crate::rules::docs::DEFAULT_DOCS_URL);
            }
        }
    }
}
