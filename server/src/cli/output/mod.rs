//! Rendering a check report for people and machines: `human` (rustc-style snippets), `concise`
//! (one line per diagnostic), `json` (the stable contract of docs/cli.md), `sarif` (SARIF 2.1.0)
//! and `github` (workflow commands).
//!
//! Everything here works on [`Report`], where byte ranges have already become 1-based lines and
//! columns (Unicode scalar values) and paths are relative to the current folder. Must not depend
//! on the disk or on how the report was produced.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use serde::Serialize;

use crate::base::{ColumnHint, Diagnostic, Encoding, FileSet, LineIndex, Severity, TextRange};
use crate::workspace::FileKind;

pub mod concise;
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

#[derive(Clone, Debug, PartialEq, Eq)]
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
    #[serde(skip)]
    pub related: Vec<ShownRelated>,
    /// The source lines the diagnostic covers, when the file has text (human output).
    #[serde(skip)]
    pub excerpt: Option<Excerpt>,
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

/// Everything a format needs to print.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub files_checked: BTreeMap<FileKind, usize>,
    pub diagnostics: Vec<ShownDiagnostic>,
    /// Set when `--fix` ran.
    pub fix: Option<FixSummary>,
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

    /// How many diagnostics carry at least one fix.
    pub fn fixable(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| !d.fixes.is_empty())
            .count()
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
pub struct Shower<'a> {
    files: &'a FileSet,
    cwd: &'a Path,
    /// Only the human format shows source lines; the others skip copying them.
    excerpts: bool,
    /// Line indexes built on first use, one per file, with the last position converted in it.
    indexes: std::cell::RefCell<BTreeMap<std::path::PathBuf, (LineIndex, Option<ColumnHint>)>>,
}

impl<'a> Shower<'a> {
    pub fn new(files: &'a FileSet, cwd: &'a Path) -> Self {
        Self {
            files,
            cwd,
            excerpts: true,
            indexes: Default::default(),
        }
    }

    /// Whether shown diagnostics carry source excerpts (default: yes).
    pub fn with_excerpts(mut self, excerpts: bool) -> Self {
        self.excerpts = excerpts;
        self
    }

    pub fn show(&self, d: &Diagnostic) -> ShownDiagnostic {
        ShownDiagnostic {
            path: self.path(&d.path),
            range: self.span(&d.path, d.range),
            severity: d.severity,
            code: d.code,
            message: d.message.clone(),
            consequence: d.consequence.clone(),
            fixes: d
                .fixes
                .iter()
                .map(|fix| ShownFix {
                    title: fix.title.clone(),
                    edits: fix
                        .edits
                        .iter()
                        .map(|e| ShownEdit {
                            path: self.path(&e.path),
                            range: self.span(&e.path, e.range),
                            new_text: e.new_text.clone(),
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
                    message: r.message.clone(),
                })
                .collect(),
            excerpt: self.excerpt(&d.path, &[d.range]),
        }
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
    Some(Excerpt {
        text: out,
        first_line: first_line + 1,
        ranges,
    })
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
    let fixable = report.fixable();
    if fixable > 0 && report.fix.is_none() {
        out.push_str(&format!(
            "{} can be fixed with `agentws check --fix`.\n",
            plural(fixable, "problem", "problems")
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
            },
        ];
        let shower = Shower::new(&files, &cwd);
        let mut files_checked = BTreeMap::new();
        files_checked.insert(FileKind::Skill, 1);
        files_checked.insert(FileKind::ToolsJson, 1);
        Report {
            files_checked,
            diagnostics: diagnostics.iter().map(|d| shower.show(d)).collect(),
            fix: None,
        }
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
             1 problem can be fixed with `agentws check --fix`.\n"
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
             Found 1 error, 1 warning, 1 info.\n"
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
            };
            let shown = Shower::new(&files, Path::new("/p")).show(&d);
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
