//! What a project decided about its findings, applied to one file's diagnostics: the levels of
//! `[rules]` and `[rules.per-path]` (`config::rules`), the strict rules those levels turn on, and
//! the suppression comments in the file (`comments`). `check`, `watch`, the language server and
//! the preview's notes all go through [`settle_file`] (and [`keeps_note`]), so they never
//! disagree about what is reported.
//!
//! Precedence: the profile, then `[rules]`, then `[rules.per-path]`, then a comment in the file.
//! A level `"off"` in `[rules]` means the rule is not run for the project: its diagnostics are
//! gone. An `"off"` of `[rules.per-path]` and a comment suppress: the diagnostic is kept aside
//! with why ([`Suppressed`], SARIF's `suppressions`), not shown. A baseline comes after all of
//! this, in the command line's `check` alone.
//!
//! The rules about the suppression comments themselves (`IG…`) are `check::suppression`'s.
//! Depends on `base`, `syntax`, `config`, `rules`, `workspace` (which file kind a path is), the
//! catalog (which codes exist) and `suppression`.

pub mod actions;
pub mod comments;

use std::path::Path;

use self::comments::{Comment, Directive, Reach, Syntax};
use super::{catalog, suppression, CheckOptions};
use crate::base::diagnostic::merge_parts;
use crate::base::{Diagnostic, TextRange};
use crate::config::rules::{Level, LevelSource};
use crate::config::Config;
use crate::rules::Profile;
use crate::syntax::frontmatter;
use crate::workspace::layout::{self, FileKind};

/// How a suppressed diagnostic was suppressed (SARIF 2.1.0 `suppression.kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SuppressionKind {
    /// A comment in the file.
    InSource,
    /// `[rules.per-path]` of agentws.toml.
    External,
}

/// A diagnostic the project chose not to see, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suppressed {
    pub diagnostic: Diagnostic,
    pub kind: SuppressionKind,
    /// The comment's reason (after `--`), or the setting that turned the rule off here.
    pub justification: String,
}

/// One file's diagnostics once the project's decisions are applied.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settled {
    /// What is reported, at the levels the project gives, with the suppression comments' own
    /// problems (`IG…`); in check order.
    pub reported: Vec<Diagnostic>,
    pub suppressed: Vec<Suppressed>,
}

/// The path `[rules.per-path]` globs are matched against: relative to the workspace folder, or to
/// the project folder for a file outside it (agentws.toml, the project folder's AGENTS.md), with
/// `/` separators.
pub fn settings_path(config: &Config, path: &Path) -> String {
    let rel = path
        .strip_prefix(&config.workspace)
        .or_else(|_| path.strip_prefix(&config.project))
        .unwrap_or(path);
    rel.to_string_lossy().replace('\\', "/")
}

/// Whether the strict rule `code` runs without a setting for it.
fn runs_by_default(options: CheckOptions, code: &str) -> bool {
    !(code.starts_with("ST") && options.profile == Profile::Harness)
}

/// Whether `code` is reported at all for the file at `rel` (no `"off"`, and a strict rule only
/// under the strict profile or when a level turns it on).
pub fn is_on(config: &Config, options: CheckOptions, code: &str, rel: &str) -> bool {
    match config.rules.level(code, rel) {
        Some((level, _)) => level != Level::Off,
        None => runs_by_default(options, code),
    }
}

/// Whether `text` may hold a suppression comment: a file without one has none to settle.
pub fn has_comment(text: &str) -> bool {
    text.contains("agentws:")
}

/// The suppression comments of the file at `path` (none when its kind has no comment syntax the
/// runtime leaves alone, or no `agentws:` at all).
pub fn comments_of(config: &Config, path: &Path, text: &str) -> Vec<Comment> {
    if !has_comment(text) {
        return Vec::new();
    }
    let kind = match layout::locate(config, path) {
        Some(location) => layout::classify(&location, &config.agent.additional_context_files),
        None => None,
    };
    let kind = if config.file.as_deref() == Some(path) {
        Some(FileKind::Config)
    } else {
        kind
    };
    let whole = TextRange::new(0, text.len());
    match kind {
        Some(FileKind::Config) => comments::find(text, whole, Syntax::Toml),
        Some(FileKind::Skill) => match frontmatter::split_skill(text) {
            Some(split) => {
                let mut found = comments::find(text, split.yaml_raw, Syntax::Yaml);
                found.extend(comments::find(text, split.body, Syntax::Html));
                found
            }
            None => unsplit(text),
        },
        Some(FileKind::Subagent) => match frontmatter::split_subagent(text) {
            Ok(split) => {
                let mut found = comments::find(
                    text,
                    TextRange::new(split.opening.end, split.closing.start),
                    Syntax::Yaml,
                );
                found.extend(comments::find(
                    text,
                    TextRange::new(split.closing.end, text.len()),
                    Syntax::Html,
                ));
                found
            }
            Err(_) => unsplit(text),
        },
        Some(
            FileKind::AgentsMd
            | FileKind::MemoryMd
            | FileKind::Knowledge
            | FileKind::KnowledgeIndex
            | FileKind::AdditionalContext
            | FileKind::SystemPrompt,
        ) => comments::find(text, whole, Syntax::Html),
        Some(FileKind::ToolsJson | FileKind::SkillResource) | None => Vec::new(),
    }
}

/// A file that meant to have a frontmatter the runtime does not find (never closed): YAML
/// comments after the opening line, HTML comments anywhere.
fn unsplit(text: &str) -> Vec<Comment> {
    let mut found = Vec::new();
    if text.starts_with("---") {
        let start = text.find('\n').map_or(text.len(), |i| i + 1);
        found.extend(comments::find(
            text,
            TextRange::new(start, text.len()),
            Syntax::Yaml,
        ));
    }
    found.extend(comments::find(
        text,
        TextRange::new(0, text.len()),
        Syntax::Html,
    ));
    found.sort_by_key(|c| c.range.start);
    found.dedup_by_key(|c| c.range.start);
    found
}

/// What one code of one comment did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Use {
    suppressed: bool,
    /// It would have suppressed a diagnostic but gives no reason where one is required.
    blocked: bool,
}

/// `diagnostics` of the file at `path` (whose text is `text`, when it has one) with the project's
/// decisions applied: levels, per-path settings, suppression comments, and the comments' own
/// problems; then the consequences of one mistake that are still reported merged into one
/// diagnostic (`base::diagnostic::merge_parts`).
pub fn settle_file(
    config: &Config,
    options: CheckOptions,
    path: &Path,
    text: Option<&str>,
    diagnostics: Vec<Diagnostic>,
) -> Settled {
    let comments = text.map_or_else(Vec::new, |t| comments_of(config, path, t));
    if comments.is_empty() && config.rules.is_empty() {
        return Settled {
            reported: merge_parts(diagnostics),
            suppressed: Vec::new(),
        };
    }
    let rel = settings_path(config, path);
    let require_reason = options.require_reason || config.rules.require_reason;
    let line_starts = text.map(line_starts).unwrap_or_default();
    let line_of = |offset: usize| {
        line_starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    };
    let mut uses: Vec<Vec<Use>> = comments
        .iter()
        .map(|c| match &c.directive {
            Directive::Ignore { codes, .. } => vec![Use::default(); codes.len()],
            Directive::Unknown { .. } => Vec::new(),
        })
        .collect();
    let mut settled = Settled::default();
    for mut diagnostic in diagnostics {
        match config.rules.level(diagnostic.code, &rel) {
            Some((Level::Off, LevelSource::Rules { .. })) => continue,
            Some((Level::Off, source @ LevelSource::PerPath { .. })) => {
                settled.suppressed.push(Suppressed {
                    diagnostic,
                    kind: SuppressionKind::External,
                    justification: source.to_string(),
                });
                continue;
            }
            Some((level, _)) => {
                if let Some(severity) = level.severity() {
                    diagnostic.severity = severity;
                }
            }
            None if !runs_by_default(options, diagnostic.code) => continue,
            None => {}
        }
        let line = line_of(diagnostic.range.start);
        match suppression_for(&comments, &mut uses, diagnostic.code, line, require_reason) {
            Some(reason) => settled.suppressed.push(Suppressed {
                diagnostic,
                kind: SuppressionKind::InSource,
                justification: reason,
            }),
            None => settled.reported.push(diagnostic),
        }
    }
    let text = text.unwrap_or_default();
    for (comment, uses) in comments.iter().zip(&uses) {
        let found = comment_problems(config, options, path, text, &rel, comment, uses);
        for mut diagnostic in found {
            match config.rules.level(diagnostic.code, &rel) {
                Some((Level::Off, _)) => continue,
                Some((level, _)) => {
                    diagnostic.severity = level.severity().unwrap_or(diagnostic.severity)
                }
                None => {}
            }
            settled.reported.push(diagnostic);
        }
    }
    settled
        .reported
        .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    settled.reported = merge_parts(std::mem::take(&mut settled.reported));
    settled
}

/// The reason of the first comment that suppresses `code` on `line` (`None`: none does, or the
/// only one that would lacks a required reason, which is noted in `uses`).
fn suppression_for(
    comments: &[Comment],
    uses: &mut [Vec<Use>],
    code: &str,
    line: usize,
    require_reason: bool,
) -> Option<String> {
    for (comment, uses) in comments.iter().zip(uses.iter_mut()) {
        let Directive::Ignore {
            reach,
            codes,
            reason,
        } = &comment.directive
        else {
            continue;
        };
        if !matches!(reach, Reach::File) && *reach != Reach::Line(line) {
            continue;
        }
        let Some(index) = codes.iter().position(|c| c.code == code) else {
            continue;
        };
        if require_reason && reason.is_empty() {
            uses[index].blocked = true;
            continue;
        }
        uses[index].suppressed = true;
        return Some(reason.clone());
    }
    None
}

/// The problems of one comment: a directive that is not one, a code that names no rule, a code
/// whose reason is missing where one is required, a code that suppressed nothing.
fn comment_problems(
    config: &Config,
    options: CheckOptions,
    path: &Path,
    text: &str,
    rel: &str,
    comment: &Comment,
    uses: &[Use],
) -> Vec<Diagnostic> {
    let Directive::Ignore { codes, .. } = &comment.directive else {
        let Directive::Unknown { word } = &comment.directive else {
            return Vec::new();
        };
        return vec![suppression::unknown_code::directive(path, text, *word)];
    };
    let mut out = Vec::new();
    let mut unused = Vec::new();
    for (named, used) in codes.iter().zip(uses) {
        if !catalog::is_rule_code(&named.code) {
            let near = catalog::nearest_code(&named.code);
            out.push(suppression::unknown_code::code(path, named, near));
        } else if used.blocked && !used.suppressed {
            out.push(suppression::without_reason::diagnostic(path, named));
        } else if !used.suppressed && is_on(config, options, &named.code, rel) {
            unused.push(named);
        }
    }
    let all_unused = unused.len() == codes.len();
    out.extend(
        unused
            .into_iter()
            .map(|named| suppression::unused::diagnostic(path, comment, named, all_unused)),
    );
    out
}

/// The byte offset where each line starts.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// `preview`'s notes without those the project turned off or suppressed ([`keeps_note`]): what
/// `agentws preview` and `agentws/previewPrompt` show, so that a note never speaks of a finding
/// `check` does not report.
///
/// With no `[rules]` in the configuration and no `agentws:` comment in any file, every note is
/// kept as it is. Whether any file holds one is asked only of a note the rules would drop: the
/// scan reads every text of the project (most of a preview's time on a large one), and the
/// language server renders the preview after every edit.
pub fn settle_notes(preview: &mut crate::prompt::Preview, workspace: &crate::workspace::Workspace) {
    let config = &workspace.config;
    let options = CheckOptions::default();
    let mut any_comment: Option<bool> = None;
    let mut any_comment = || {
        *any_comment.get_or_insert_with(|| {
            workspace
                .files
                .iter()
                .any(|(_, e)| e.content.text().is_some_and(has_comment))
        })
    };
    preview.notes.retain(|note| {
        let kept = match (note.rule, &note.path) {
            (Some(rule), Some(path)) => {
                let path = Path::new(path);
                keeps_note(config, options, rule, path, workspace.files.text(path))
            }
            (Some(rule), None) => is_on(config, options, rule, ""),
            (None, _) => true,
        };
        kept || (config.rules.is_empty() && !any_comment())
    });
}

/// Whether a preview note naming `rule` about the file at `path` is kept: the rule is on for that
/// file, and no comment in it suppresses the rule (a note has no line: a comment anywhere in the
/// file that names the rule counts).
pub fn keeps_note(
    config: &Config,
    options: CheckOptions,
    rule: &str,
    path: &Path,
    text: Option<&str>,
) -> bool {
    let rel = settings_path(config, path);
    if !is_on(config, options, rule, &rel) {
        return false;
    }
    let require_reason = options.require_reason || config.rules.require_reason;
    let comments = text.map_or_else(Vec::new, |t| comments_of(config, path, t));
    !comments.iter().any(|c| match &c.directive {
        Directive::Ignore { codes, reason, .. } => {
            codes.iter().any(|n| n.code == rule) && !(require_reason && reason.is_empty())
        }
        Directive::Unknown { .. } => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::{self, Date, Note, PreviewContext};
    use crate::workspace::Workspace;

    /// Without `[rules]`, every note stays unless some file holds an `agentws:` comment; then a
    /// note of a rule that is off goes. Whether any file holds one is asked only of that note.
    #[test]
    fn notes_stay_unless_rules_or_a_comment_somewhere_settle_them() {
        let skill = "/p/.agentscope/workspace/skills/x/SKILL.md";
        let kept = |agents: &str| -> Vec<&'static str> {
            let mut config = Config::defaults_for(Path::new("/p"));
            config.agent.name = Some("assistant".into());
            let ws = Workspace::from_texts(
                config,
                [
                    (skill, "---\nname: x\ndescription: d\n---\nBody\n"),
                    ("/p/.agentscope/workspace/AGENTS.md", agents),
                ],
            );
            let ctx = PreviewContext::new(
                &ws.config,
                Date::parse("2026-08-22").unwrap(),
                "Linux 6",
                "/tmp",
            );
            let mut preview = prompt::render(&ws, &ctx).expect("renders");
            preview.notes = ["SK001", "ST007"]
                .into_iter()
                .map(|rule| Note {
                    code: "test",
                    message: String::new(),
                    rule: Some(rule),
                    path: Some(skill.to_string()),
                })
                .collect();
            settle_notes(&mut preview, &ws);
            preview.notes.iter().filter_map(|n| n.rule).collect()
        };
        assert_eq!(kept("Be brief.\n"), vec!["SK001", "ST007"]);
        // A strict rule is off under the harness profile: with a comment anywhere, it goes.
        assert_eq!(
            kept("<!-- agentws: ignore XR001 -- elsewhere -->\n"),
            vec!["SK001"]
        );
    }
}
