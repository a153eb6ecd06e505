//! One `SKILL.md`, parsed the way the runtime parses it (`MarkdownSkillParser` +
//! `SkillUtil.createFrom`, harness-spec §2.3): the frontmatter split, YAML 1.1 typing, the fallback
//! line parser after a YAML error, and whether the runtime loads or drops the skill. Diagnostics
//! found while parsing one file (the per-file rows of §9.2) are kept with the document.
//!
//! Depends on `syntax` and the rule catalog only; which layer loads the file, in which context,
//! and what wins is `resolution`'s (reported by `check::loading`).

use std::fmt;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::base::suggest::did_you_mean;
use crate::base::{Diagnostic, FileContent, FileEdit, Fix, TextRange};
use crate::rules::skill as rules;
use crate::rules::Rule;
use crate::syntax::frontmatter::{self, OpeningTrap, SkillSplit};
use crate::syntax::java;
use crate::syntax::yaml::{self, Entry, LostKey, LostReason, Node, Typing, Value, YamlErrorKind};
use crate::workspace::keys;
use crate::workspace::layout::{Location, Tree};

/// SnakeYAML's code-point limit as the skill parser sets it.
pub const FRONTMATTER_CODE_POINT_LIMIT: usize = 16_384;
/// skill_manage's limits, used as lints for hand-written skills.
pub const NAME_MAX_CHARS: usize = 64;
pub const DESCRIPTION_MAX_CHARS: usize = 1_024;
pub const BODY_MAX_CHARS: usize = 100_000;

/// A range of a file's text that shares the file's buffer instead of copying it (a workspace of
/// 10 000 skills would otherwise hold every body twice: about 100 MB more at peak). Derefs to
/// `str` and compares with strings, so it reads like the `String` it replaces.
#[derive(Clone)]
pub struct TextSlice {
    text: Arc<str>,
    range: TextRange,
}

impl TextSlice {
    /// `range` must lie on character boundaries of `text`.
    pub fn new(text: Arc<str>, range: TextRange) -> Self {
        debug_assert!(text.is_char_boundary(range.start) && text.is_char_boundary(range.end));
        Self { text, range }
    }

    pub fn as_str(&self) -> &str {
        &self.text[self.range.start..self.range.end]
    }

    /// Where the slice sits in the file.
    pub fn range(&self) -> TextRange {
        self.range
    }
}

impl Default for TextSlice {
    fn default() -> Self {
        Self {
            text: Arc::from(""),
            range: TextRange::empty(0),
        }
    }
}

impl Deref for TextSlice {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Debug for TextSlice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for TextSlice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq for TextSlice {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<str> for TextSlice {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for TextSlice {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for TextSlice {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

/// Why the runtime drops a skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SkillDrop {
    /// File could not be read as text.
    Unreadable,
    NoFrontmatter,
    /// `name` or `description` missing, blank or not a YAML string.
    MissingNameOrDescription,
    EmptyBody,
    FrontmatterTooLong,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SkillDoc {
    pub path: PathBuf,
    pub location: Location,
    /// Folder directly containing the SKILL.md (its name is the "directory name").
    pub dir_name: String,
    /// Metadata as the runtime holds it, in YAML order (after the fallback parser if it ran).
    pub metadata: Vec<Entry>,
    /// `name` when it is a non-blank string.
    pub name: Option<String>,
    /// Range of the `name` value (for navigation and rename), when present.
    pub name_range: Option<TextRange>,
    pub description: Option<String>,
    /// Range of the frontmatter's opening `---` line (where "missing key" diagnostics point).
    pub opening_range: TextRange,
    /// `frontmatter::closing_line` of the text (`None` when the file has no text): the lines
    /// the preview names as the skill's source.
    pub frontmatter_closing_line: Option<usize>,
    /// Body as the runtime passes it on (content after the frontmatter). Shares the file's text
    /// instead of copying it; derefs to `str`.
    pub body: TextSlice,
    /// `Ok` when the runtime loads the skill.
    pub outcome: Result<(), SkillDrop>,
    pub diagnostics: Vec<Diagnostic>,
    /// The runtime's frontmatter split, when it finds one.
    pub split: Option<SkillSplit>,
    /// Range of the `description` value, when present.
    pub description_range: Option<TextRange>,
    /// True when the YAML failed and the metadata comes from the runtime's fallback line parser.
    pub fallback: bool,
    /// Top-level keys written in the frontmatter that the fallback parser lost.
    pub lost_keys: Vec<LostKey>,
    /// Keys at any depth that YAML 1.1 types as something other than a string (`1:`, `yes:`):
    /// the runtime drops their entries, so `metadata` never holds them.
    pub dropped_keys: Vec<yaml::DroppedKey>,
}

impl SkillDoc {
    /// The metadata entry for `key`.
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        self.metadata.iter().find(|e| e.key == key)
    }

    /// Folders between `skills/` and `SKILL.md` (`["pdf"]` for `skills/pdf/SKILL.md`).
    pub fn skill_dirs(&self) -> Vec<&str> {
        skill_dirs(&self.location.rel)
    }

    /// Loaded by the direct scan of the host `<ws>/skills` folder (Layer 3): shared tree, one level.
    pub fn seen_by_direct_scan(&self) -> bool {
        self.location.tree == Tree::Shared && self.skill_dirs().len() == 1
    }

    /// Loaded by the workspace repository's recursive glob (Layer 4): first folder not `_`/`.`.
    pub fn seen_by_workspace_glob(&self) -> bool {
        self.skill_dirs()
            .first()
            .is_some_and(|d| !d.starts_with('_') && !d.starts_with('.'))
    }
}

fn skill_dirs(rel: &str) -> Vec<&str> {
    let parts: Vec<&str> = rel.split('/').collect();
    if parts.len() >= 3 && parts[0] == "skills" {
        parts[1..parts.len() - 1].to_vec()
    } else {
        Vec::new()
    }
}

/// Parses one SKILL.md. Unreadable, non-UTF-8 or oversized content gives a dropped document
/// without diagnostics (the `WS` rules report those).
pub fn parse(path: PathBuf, location: Location, content: &FileContent) -> SkillDoc {
    let dir_name = path
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut doc = SkillDoc {
        path,
        location,
        dir_name,
        metadata: Vec::new(),
        name: None,
        name_range: None,
        description: None,
        opening_range: TextRange::new(0, 0),
        frontmatter_closing_line: None,
        body: TextSlice::default(),
        outcome: Err(SkillDrop::Unreadable),
        diagnostics: Vec::new(),
        split: None,
        description_range: None,
        fallback: false,
        lost_keys: Vec::new(),
        dropped_keys: Vec::new(),
    };
    let FileContent::Text(shared) = content else {
        return doc;
    };
    let text: &str = shared;
    doc.opening_range = TextRange::new(0, text.len().min(3));
    doc.frontmatter_closing_line = Some(frontmatter::closing_line(text));
    doc.outcome = Ok(());
    let mut out = Vec::new();
    parse_text(&mut doc, shared, text, &mut out);
    early_close_severity(&doc, &mut out);
    out.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    doc.diagnostics = out;
    doc
}

fn parse_text(doc: &mut SkillDoc, shared: &Arc<str>, text: &str, out: &mut Vec<Diagnostic>) {
    let path = doc.path.clone();
    let Some(split) = frontmatter::split_skill(text) else {
        doc.outcome = Err(SkillDrop::NoFrontmatter);
        out.push(no_frontmatter(&path, text));
        return;
    };
    doc.split = Some(split);
    doc.opening_range = TextRange::new(0, 3);
    doc.body = TextSlice::new(shared.clone(), split.body);

    if let Some(range) = frontmatter::unexpected_closing(text, split.closing) {
        let intended = frontmatter::intended_closing(text, split.closing.end);
        let mut message = "this `---` closes the frontmatter: the runtime ends the YAML at the first `---` anywhere after the opening line".to_string();
        if let Some(intended) = intended {
            let lost = keys_in(&text[split.closing.end..intended.start]);
            if !lost.is_empty() {
                message.push_str(&format!(
                    "; the keys after it ({}) are lost",
                    lost.join(", ")
                ));
            }
            message.push_str(
                "; everything after it, including the intended closing `---` line, becomes the body",
            );
        }
        out.push(rules::SK006.at(&path, range, message));
    }

    let yaml_text = &text[split.yaml.start..split.yaml.end];
    let code_points = yaml_text.chars().count();
    if code_points > FRONTMATTER_CODE_POINT_LIMIT {
        doc.outcome = Err(SkillDrop::FrontmatterTooLong);
        out.push(rules::SK012.at(
            &path,
            doc.opening_range,
            format!(
                "the frontmatter is {code_points} code points long; the runtime's YAML parser stops at {FRONTMATTER_CODE_POINT_LIMIT}, so the runtime sees no metadata and skips the skill"
            ),
        ));
        return;
    }

    if !yaml_text.is_empty() {
        read_metadata(doc, text, split, out);
    }
    check_required(doc, text, out);

    if doc.body.is_empty() {
        out.push(rules::SK011.at(
            &path,
            split.closing,
            "nothing follows the frontmatter; the runtime skips a skill without content",
        ));
        if doc.outcome.is_ok() {
            doc.outcome = Err(SkillDrop::EmptyBody);
        }
    }
    lints(doc, split, out);
}

/// Top-level `key:` names at the start of lines of `text`, quoted for messages.
fn keys_in(text: &str) -> Vec<String> {
    java::lines(text)
        .into_iter()
        .skip(1) // the rest of the line the early `---` cut
        .filter_map(|line| {
            let len = line
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
                .count();
            (len > 0 && line[len..].trim_start().starts_with(':'))
                .then(|| format!("`{}`", &line[..len]))
        })
        .collect()
}

fn no_frontmatter(path: &Path, text: &str) -> Diagnostic {
    let first_line = TextRange::new(0, text.find(['\n', '\r']).unwrap_or(text.len()));
    match frontmatter::opening_trap(text) {
        Some(OpeningTrap::Bom { range }) => rules::SK002
            .at(path, range, "the file starts with a UTF-8 byte order mark before `---`; the runtime sees no frontmatter and skips the skill")
            .with_fix(delete_fix(path, range, "Delete the byte order mark")),
        Some(OpeningTrap::LeadingWhitespace { range }) => rules::SK003
            .at(path, range, "blank lines or spaces before the opening `---`; the runtime sees no frontmatter and skips the skill")
            .with_fix(delete_fix(path, range, "Remove what comes before `---`")),
        Some(OpeningTrap::LongOpener { range }) => rules::SK004
            .at(path, range, format!("the frontmatter opens with `{}`; only `---` opens it, so the runtime sees no frontmatter and skips the skill", "-".repeat(range.len())))
            .with_fix(Fix {
                title: "Use `---`".into(),
                edits: vec![FileEdit { path: path.to_path_buf(), range, new_text: "---".into() }],
            }),
        Some(OpeningTrap::OpenerNotAlone { range }) => rules::SK001.at(
            path,
            range,
            "`---` must be followed by a line break; the runtime sees no frontmatter and skips the skill",
        ),
        None if text.starts_with("---") => rules::SK005.at(
            path,
            first_line,
            "the frontmatter is never closed with `---`; the runtime sees no frontmatter and skips the skill",
        ),
        None => rules::SK001.at(
            path,
            TextRange::empty(0),
            "the file does not start with a `---` frontmatter block; the runtime finds no name and skips the skill",
        ),
    }
}

fn delete_fix(path: &Path, range: TextRange, title: &str) -> Fix {
    Fix {
        title: title.into(),
        edits: vec![FileEdit {
            path: path.to_path_buf(),
            range,
            new_text: String::new(),
        }],
    }
}

fn read_metadata(doc: &mut SkillDoc, text: &str, split: SkillSplit, out: &mut Vec<Diagnostic>) {
    let path = doc.path.clone();
    match yaml::parse(text, split.yaml, Typing::Yaml11) {
        Ok(parsed) => {
            match parsed.root {
                None => {}
                Some(Node {
                    value: Value::Map(entries),
                    ..
                }) => doc.metadata = entries,
                Some(other) => out.push(rules::SK015.at(
                    &path,
                    other.range,
                    format!(
                        "the frontmatter is {}, not a map of keys; the runtime uses empty metadata and skips the skill",
                        other.value.type_phrase()
                    ),
                )),
            }
            for dropped in &parsed.dropped_keys {
                let shown = dropped.value.java_string().unwrap_or_default();
                out.push(rules::SK024.at(
                    &path,
                    dropped.range,
                    format!(
                        "YAML 1.1 reads the key `{}` as {} ({shown}), not a string; the runtime drops this entry",
                        dropped.source,
                        dropped.value.type_phrase()
                    ),
                ));
            }
            doc.dropped_keys = parsed.dropped_keys;
            for surprise in parsed.surprises {
                // `name`/`description` get their own errors (they must be strings).
                if matches!(surprise.key_path.as_str(), "name" | "description") {
                    continue;
                }
                let rendered = surprise.value.java_string().unwrap_or_default();
                let source = match surprise.tag {
                    Some(t) => format!("{} {}", &text[t.start..t.end], surprise.source),
                    None => surprise.source.clone(),
                };
                let written = if surprise.key_path.is_empty() {
                    format!("`{source}`")
                } else {
                    format!("`{}: {source}`", surprise.key_path)
                };
                let mut diag = rules::SK023.at(
                    &path,
                    surprise.range,
                    format!(
                        "{written} is read by YAML 1.1 as {}; the runtime renders it as `{rendered}`",
                        surprise.value.type_phrase()
                    ),
                );
                if let Some(fix) = string_fix(&path, text, surprise.range, surprise.tag) {
                    diag = diag.with_fix(fix);
                }
                out.push(diag);
            }
        }
        Err(err) => {
            doc.fallback = true;
            let fallback = yaml::fallback(text, split.yaml);
            let kept: Vec<String> = fallback
                .entries
                .iter()
                .map(|e| format!("`{}`", e.key))
                .collect();
            let lost: Vec<String> = fallback
                .lost
                .iter()
                .map(|l| format!("`{}`", l.key))
                .collect();
            let what = match &err.kind {
                YamlErrorKind::DuplicateKey { key, .. } => format!("duplicate key `{key}`"),
                YamlErrorKind::TooDeep { limit } => {
                    format!("nesting deeper than SnakeYAML's limit of {limit}")
                }
                YamlErrorKind::TooManyAliases { limit } => {
                    format!("more than {limit} aliases to lists or maps")
                }
                YamlErrorKind::OverBudget => format!("{} (agentws limit)", err.message),
                _ => err.message.clone(),
            };
            let mut message = format!(
                "YAML error: {what}; the runtime falls back to its line parser and keeps {}",
                if kept.is_empty() {
                    "nothing".to_string()
                } else {
                    kept.join(", ")
                }
            );
            if !lost.is_empty() {
                message.push_str(&format!(" (lost: {})", lost.join(", ")));
            }
            let range = if err.range.is_empty() {
                let end = text[err.range.start..]
                    .chars()
                    .next()
                    .map_or(err.range.start, |c| err.range.start + c.len_utf8());
                TextRange::new(err.range.start, end)
            } else {
                err.range
            };
            out.push(rules::SK013.at(&path, range, message));
            for lost in &fallback.lost {
                let why = match lost.reason {
                    LostReason::BlockScalar => "block scalars (`|`, `>`) are skipped",
                    LostReason::EmptyValue => {
                        "a key with nothing after the colon (a nested map or list) is skipped"
                    }
                    LostReason::NotAKeyLine => {
                        "the line does not look like `key: value` to the fallback parser"
                    }
                };
                out.push(rules::SK014.at(
                    &path,
                    lost.range,
                    format!("`{}` is lost after the YAML error: {why}", lost.key),
                ));
            }
            doc.metadata = fallback.entries;
            doc.lost_keys = fallback.lost;
        }
    }
}

fn check_required(doc: &mut SkillDoc, text: &str, out: &mut Vec<Diagnostic>) {
    let path = doc.path.clone();
    let mut ok = true;
    for spec in keys::SKILL.iter().filter(|k| k.required) {
        let key = spec.name;
        let Some((missing, not_string)) = required_key_rules(key) else {
            continue;
        };
        let entry = doc.entry(key).cloned();
        let value = match entry {
            None => {
                ok = false;
                let diag = match doc.lost_keys.iter().find(|l| l.key == key) {
                    Some(lost) => missing.at(
                        &path,
                        lost.range,
                        format!(
                            "`{key}` is lost: the YAML has an error and the runtime's fallback line parser skips this {}; the runtime skips the skill",
                            match lost.reason {
                                LostReason::BlockScalar => "block scalar",
                                LostReason::EmptyValue => "nested or empty value",
                                LostReason::NotAKeyLine => "line",
                            }
                        ),
                    ),
                    None => {
                        // A misspelt key is kept as metadata without a word: name it here.
                        let unknown: Vec<&str> = doc
                            .metadata
                            .iter()
                            .map(|e| e.key.as_str())
                            .filter(|k| keys::skill(k).is_none())
                            .collect();
                        match did_you_mean(key, &unknown).and_then(|near| doc.entry(near)) {
                            Some(near) => missing.at(
                                &path,
                                near.key_range,
                                format!(
                                    "the frontmatter has no `{key}`, but has `{}`: did you mean `{key}`? The runtime skips the skill",
                                    near.key
                                ),
                            ),
                            None => missing.at(
                                &path,
                                doc.opening_range,
                                format!("the frontmatter has no `{key}`; the runtime skips the skill"),
                            ),
                        }
                    }
                };
                out.push(diag);
                continue;
            }
            Some(entry) => entry.value,
        };
        match &value.value {
            Value::Str(s) if !java::is_blank(s) => {
                if key == "name" {
                    doc.name = Some(s.clone());
                    doc.name_range = Some(value.range);
                } else {
                    doc.description = Some(s.clone());
                    doc.description_range = Some(value.range);
                }
            }
            Value::Str(_) | Value::Null => {
                ok = false;
                out.push(missing.at(
                    &path,
                    value.range,
                    format!("`{key}` is blank; the runtime skips the skill"),
                ));
            }
            other => {
                ok = false;
                let source = &written_with_tag(text, value.range, value.tag);
                let rendered = other
                    .java_string()
                    .map(|s| format!(" ({s})"))
                    .unwrap_or_default();
                let mut diag = not_string.at(
                    &path,
                    value.range,
                    format!(
                        "`{key}: {source}` is a YAML {}{rendered}, not a string; the runtime skips the skill",
                        other.type_name()
                    ),
                );
                if other.java_string().is_some() {
                    if let Some(fix) = string_fix(&path, text, value.range, value.tag) {
                        diag = diag.with_fix(fix);
                    }
                }
                out.push(diag);
            }
        }
    }
    if !ok {
        doc.outcome = Err(SkillDrop::MissingNameOrDescription);
    }
}

/// The rules reporting a required key (`keys::SKILL`) that is missing or blank, and one that is
/// not a string.
fn required_key_rules(key: &str) -> Option<(&'static Rule, &'static Rule)> {
    match key {
        "name" => Some((&rules::SK007, &rules::SK008)),
        "description" => Some((&rules::SK009, &rules::SK010)),
        _ => None,
    }
}

/// The scalar at `range` as written, with its tag when the tag is on the same line.
fn written_with_tag(text: &str, range: TextRange, tag: Option<TextRange>) -> String {
    match tag {
        Some(t) if t.end <= range.start && !text[t.end..range.start].contains(['\n', '\r']) => {
            text[t.start..range.end].to_string()
        }
        _ => text[range.start..range.end].to_string(),
    }
}

fn is_plain_scalar(source: &str) -> bool {
    !source.is_empty()
        && !source.starts_with(['"', '\'', '[', '{', '|', '>', '!', '&', '*'])
        && !source.contains(['\n', '\r'])
}

/// The fix that makes the scalar at `range` (with its explicit `tag`, if any) a string: quote a
/// plain scalar, and drop a tag, which would type even a quoted value (`!!bool "yes"` is true).
/// `None` when neither applies (a scalar already quoted and untagged, a block scalar).
fn string_fix(path: &Path, text: &str, range: TextRange, tag: Option<TextRange>) -> Option<Fix> {
    let source = &text[range.start..range.end];
    let quote = is_plain_scalar(source);
    let tag = tag.filter(|t| t.end <= range.start && text.is_char_boundary(t.end));
    let mut fix = match (quote, tag) {
        (true, _) => quote_fix(path, range, source),
        (false, Some(_)) => Fix {
            title: String::new(),
            edits: Vec::new(),
        },
        (false, None) => return None,
    };
    if let Some(tag) = tag {
        // The tag and the blanks after it on its line: `name: !!bool yes` becomes `name: "yes"`.
        let blanks = text[tag.end..range.start]
            .bytes()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        let written = &text[tag.start..tag.end];
        fix.title = if quote {
            format!("Remove `{written}` and quote `{source}` so it stays a string")
        } else {
            format!("Remove `{written}` so `{source}` stays a string")
        };
        fix.edits.insert(
            0,
            FileEdit {
                path: path.to_path_buf(),
                range: TextRange::new(tag.start, tag.end + blanks),
                new_text: String::new(),
            },
        );
    }
    Some(fix)
}

/// Quotes a plain scalar so YAML reads it as a string.
pub fn quote_fix(path: &Path, range: TextRange, source: &str) -> Fix {
    let escaped = source.replace('\\', "\\\\").replace('"', "\\\"");
    Fix {
        title: format!("Quote `{source}` so it stays a string"),
        edits: vec![FileEdit {
            path: path.to_path_buf(),
            range,
            new_text: format!("\"{escaped}\""),
        }],
    }
}

fn lints(doc: &SkillDoc, split: SkillSplit, out: &mut Vec<Diagnostic>) {
    let path = &doc.path;
    if let (Some(name), Some(range)) = (&doc.name, doc.name_range) {
        if name.contains(' ') {
            out.push(rules::SK022.at(
                path,
                range,
                format!("the name `{name}` contains spaces; `<files-root>` escapes them as `\\ `"),
            ));
        } else if !name_style_ok(name) {
            out.push(rules::SK019.at(
                path,
                range,
                format!(
                    "`{name}` does not match `^[a-z0-9][a-z0-9._-]*$` (at most {NAME_MAX_CHARS} characters); accepted, but skill_manage would refuse it"
                ),
            ));
        }
    }
    if let (Some(description), Some(range)) = (&doc.description, doc.description_range) {
        let len = java::utf16_len(description);
        if len > DESCRIPTION_MAX_CHARS {
            out.push(rules::SK020.at(
                path,
                range,
                format!("the description is {len} characters long (skill_manage allows {DESCRIPTION_MAX_CHARS}); all of it is rendered into every prompt"),
            ));
        }
    }
    let body_len = java::utf16_len(&doc.body);
    if body_len > BODY_MAX_CHARS {
        out.push(rules::SK021.at(
            path,
            TextRange::empty(split.body.start),
            format!(
                "the body is {body_len} characters long (skill_manage allows {BODY_MAX_CHARS})"
            ),
        ));
    }
    // `allowed-tools` (SK025) holds for every skill that sets it: `check::skills` says it once.
}

/// skill_manage's name rule.
pub fn name_style_ok(name: &str) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && name.chars().count() <= NAME_MAX_CHARS
        && (bytes[0].is_ascii_lowercase() || bytes[0].is_ascii_digit())
        && bytes.iter().all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'-')
        })
}

/// An early `---` is an error only when the runtime then drops the skill; when `name` and
/// `description` survive it loads the skill with what is left (the preview renders that).
fn early_close_severity(doc: &SkillDoc, out: &mut [Diagnostic]) {
    if doc.outcome.is_err() {
        return;
    }
    for d in out.iter_mut().filter(|d| d.code == rules::SK006.code) {
        d.severity = crate::base::Severity::Warning;
        let description = doc.description.as_deref().unwrap_or_default();
        d.message.push_str(&format!(
            "; `name` and `description` survive, so the runtime loads the skill with the description `{description}`"
        ));
        d.consequence = "The skill loads with the cut value and without any key after it; its body starts with the rest of the frontmatter."
            .to_string();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_at(rel: &str, text: &str) -> SkillDoc {
        let path = PathBuf::from(format!("/w/{rel}"));
        parse(
            path,
            Location {
                tree: Tree::Shared,
                rel: rel.to_string(),
            },
            &FileContent::Text(Arc::from(text)),
        )
    }

    fn skill(text: &str) -> SkillDoc {
        parse_at("skills/pdf/SKILL.md", text)
    }

    fn codes(doc: &SkillDoc) -> Vec<(&'static str, usize, usize)> {
        doc.diagnostics
            .iter()
            .map(|d| (d.code, d.range.start, d.range.end))
            .collect()
    }

    #[test]
    fn every_required_key_of_the_table_has_its_rules() {
        for spec in keys::SKILL.iter().filter(|k| k.required) {
            assert!(required_key_rules(spec.name).is_some(), "{}", spec.name);
        }
    }

    #[test]
    fn valid_skill_loads() {
        let doc = skill("---\nname: pdf\ndescription: Work with PDFs.\nlicense: MIT\n---\n# PDF\n");
        assert_eq!(doc.outcome, Ok(()));
        assert_eq!(doc.name.as_deref(), Some("pdf"));
        assert_eq!(doc.name_range, Some(TextRange::new(10, 13)));
        assert_eq!(doc.body, "# PDF\n");
        assert!(doc.diagnostics.is_empty(), "{:?}", doc.diagnostics);
        assert_eq!(doc.metadata.len(), 3);
    }

    #[test]
    fn crlf_cr_and_cjk() {
        for text in [
            "---\r\nname: pdf\r\ndescription: 处理 PDF 😀\r\n---\r\nBody",
            "---\rname: pdf\rdescription: 处理 PDF 😀\r---\rBody",
        ] {
            let doc = skill(text);
            assert_eq!(doc.outcome, Ok(()), "{text:?}");
            assert_eq!(doc.description.as_deref(), Some("处理 PDF 😀"));
            let r = doc.description_range.unwrap();
            assert_eq!(&text[r.start..r.end], "处理 PDF 😀");
        }
    }

    #[test]
    fn boolean_name_is_dropped_with_a_quote_fix() {
        let text = "---\nname: yes\ndescription: d\n---\nBody";
        let doc = skill(text);
        assert_eq!(doc.outcome, Err(SkillDrop::MissingNameOrDescription));
        let d = &doc.diagnostics[0];
        assert_eq!((d.code, d.range), ("SK008", TextRange::new(10, 13)));
        assert_eq!(
            d.message,
            "`name: yes` is a YAML boolean (true), not a string; the runtime skips the skill"
        );
        assert_eq!(d.fixes[0].edits[0].new_text, "\"yes\"");
        let doc = skill("---\nname: 123\ndescription: d\n---\nBody");
        assert_eq!(doc.diagnostics[0].code, "SK008");
        assert!(doc.diagnostics[0].message.contains("integer"));
        let doc = skill("---\nname: [a, b]\ndescription: d\n---\nBody");
        assert_eq!(codes(&doc), vec![("SK008", 10, 16)]);
        assert!(doc.diagnostics[0].fixes.is_empty());
    }

    /// Applies the first fix of the diagnostic with `code` to `text`.
    fn fixed(text: &str, code: &str) -> (String, String) {
        let doc = skill(text);
        let d = doc.diagnostics.iter().find(|d| d.code == code).unwrap();
        let fix = &d.fixes[0];
        let mut edits = fix.edits.clone();
        edits.sort_by_key(|e| e.range.start);
        (fix.title.clone(), crate::base::apply_edits(text, &edits))
    }

    #[test]
    fn the_fix_of_a_tagged_scalar_drops_the_tag() {
        // Quoting alone would leave `!!bool "yes"`, still the boolean true.
        let (title, text) = fixed("---\nname: !!bool yes\ndescription: d\n---\nBody", "SK008");
        assert_eq!(
            title,
            "Remove `!!bool` and quote `yes` so it stays a string"
        );
        assert_eq!(text, "---\nname: \"yes\"\ndescription: d\n---\nBody");
        assert_eq!(skill(&text).outcome, Ok(()));
        // A quoted value needs only the tag removed; an anchor stays.
        let (title, text) = fixed(
            "---\nname: &n !!int \"12\"\ndescription: d\n---\nBody",
            "SK008",
        );
        assert_eq!(title, "Remove `!!int` so `\"12\"` stays a string");
        assert_eq!(text, "---\nname: &n \"12\"\ndescription: d\n---\nBody");
        assert_eq!(skill(&text).outcome, Ok(()));
        // A tag on the line before its value, and a YAML 1.1 surprise with a tag.
        let (_, text) = fixed(
            "---\nname: !!bool\n  on\ndescription: d\n---\nBody",
            "SK008",
        );
        assert_eq!(text, "---\nname: \n  \"on\"\ndescription: d\n---\nBody");
        let (_, text) = fixed(
            "---\nname: pdf\ndescription: d\nv: !!float 1.10\n---\nBody",
            "SK023",
        );
        assert_eq!(
            text,
            "---\nname: pdf\ndescription: d\nv: \"1.10\"\n---\nBody"
        );
        assert_eq!(codes(&skill(&text)), []);
    }

    #[test]
    fn missing_keys_point_at_the_opening_line() {
        let doc = skill("---\ndescription: d\n---\nBody");
        assert_eq!(codes(&doc), vec![("SK007", 0, 3)]);
        let doc = skill("---\nname: pdf\ndescription: \"  \"\n---\nBody");
        assert_eq!(codes(&doc), vec![("SK009", 27, 31)]);
        // MarkdownSkillParserTest: `---\n---\n# Content` has empty metadata.
        let doc = skill("---\n---\n# Content");
        assert_eq!(doc.body, "# Content");
        assert_eq!(codes(&doc), vec![("SK007", 0, 3), ("SK009", 0, 3)]);
    }

    #[test]
    fn empty_body() {
        let doc = skill("---\nname: pdf\ndescription: d\n---");
        assert_eq!(doc.outcome, Err(SkillDrop::EmptyBody));
        assert_eq!(codes(&doc), vec![("SK011", 29, 32)]);
        // A body of spaces without a line break is accepted.
        assert_eq!(
            skill("---\nname: pdf\ndescription: d\n---   ").outcome,
            Ok(())
        );
    }

    #[test]
    fn opening_traps_with_fixes() {
        let doc = skill("\u{FEFF}---\nname: pdf\ndescription: d\n---\nBody");
        assert_eq!(doc.outcome, Err(SkillDrop::NoFrontmatter));
        assert_eq!(codes(&doc), vec![("SK002", 0, 3)]);
        assert_eq!(doc.diagnostics[0].fixes[0].edits[0].new_text, "");
        let doc = skill("\n\n---\nname: pdf\ndescription: d\n---\nBody");
        assert_eq!(codes(&doc), vec![("SK003", 0, 2)]);
        let doc = skill("----\nname: pdf\ndescription: d\n---\nBody");
        assert_eq!(codes(&doc), vec![("SK004", 0, 4)]);
        assert_eq!(doc.diagnostics[0].fixes[0].edits[0].new_text, "---");
        let doc = skill("---\nname: pdf\n");
        assert_eq!(codes(&doc), vec![("SK005", 0, 3)]);
        let doc = skill("# Title\n---\nname: a\n---\nx");
        assert_eq!(codes(&doc), vec![("SK001", 0, 0)]);
    }

    #[test]
    fn dashes_inside_a_value() {
        let text = "---\nname: pdf\ndescription: a---b\n---\nBody";
        let doc = skill(text);
        assert_eq!(doc.description.as_deref(), Some("a"));
        assert_eq!(doc.diagnostics[0].code, "SK006");
        assert_eq!(doc.diagnostics[0].range, TextRange::new(28, 31));
        let more =
            skill("---\nname: pdf\ndescription: a---b\nlicense: MIT\nmetadata:\n  k: v\n---\nBody");
        assert_eq!(
            more.diagnostics[0].message,
            "this `---` closes the frontmatter: the runtime ends the YAML at the first `---` anywhere after the opening line; the keys after it (`license`, `metadata`) are lost; everything after it, including the intended closing `---` line, becomes the body; `name` and `description` survive, so the runtime loads the skill with the description `a`"
        );
        assert_eq!(doc.body, "b\n---\nBody");
        // Severity follows the outcome: loaded → warning; dropped (no description left) → error.
        assert_eq!(doc.diagnostics[0].severity, crate::base::Severity::Warning);
        let dropped = skill("---\nname: pdf---x\ndescription: d\n---\nBody");
        assert_eq!(dropped.outcome, Err(SkillDrop::MissingNameOrDescription));
        let early = dropped
            .diagnostics
            .iter()
            .find(|d| d.code == "SK006")
            .unwrap();
        assert_eq!(early.severity, crate::base::Severity::Error);
    }

    #[test]
    fn yaml_error_falls_back() {
        let text = "---\nname: pdf\ndescription: |\n  multi\n  line\nname: pdf\n---\nBody";
        let doc = skill(text);
        assert!(doc.fallback);
        assert_eq!(doc.outcome, Err(SkillDrop::MissingNameOrDescription));
        assert_eq!(
            codes(&doc),
            vec![("SK009", 14, 25), ("SK014", 14, 25), ("SK013", 44, 48)]
        );
        assert!(doc.diagnostics[0]
            .message
            .starts_with("`description` is lost: the YAML has an error"));
        assert_eq!(
            doc.diagnostics[2].message,
            "YAML error: duplicate key `name`; the runtime falls back to its line parser and keeps `name` (lost: `description`)"
        );
        // A tab-indented key is a YAML error; the single-line keys survive.
        let doc = skill("---\nname: pdf\ndescription: d\nmetadata:\n\tx: 1\n---\nBody");
        assert_eq!(doc.outcome, Ok(()));
        assert!(doc.fallback);
        assert_eq!(
            doc.metadata
                .iter()
                .map(|e| e.key.as_str())
                .collect::<Vec<_>>(),
            vec!["name", "description"]
        );
    }

    #[test]
    fn frontmatter_limit() {
        let fits = format!(
            "---\nname: pdf\ndescription: {}\n---\nBody",
            "x".repeat(16_360)
        );
        assert_eq!(skill(&fits).outcome, Ok(()));
        let long = format!(
            "---\nname: pdf\ndescription: {}\n---\nBody",
            "字".repeat(16_400)
        );
        let doc = skill(&long);
        assert_eq!(doc.outcome, Err(SkillDrop::FrontmatterTooLong));
        assert_eq!(codes(&doc), vec![("SK012", 0, 3)]);
    }

    #[test]
    fn markdown_skill_parser_cases() {
        let doc = skill("---  \n\nname: test\n\ndescription: d\n\n---  \n\nContent");
        assert_eq!(doc.body, "Content");
        let doc = skill("---\n# comment\nname: pdf # trailing\ndescription: d\n---\nx");
        assert_eq!(doc.name.as_deref(), Some("pdf"));
        let doc = skill("---\nname: pdf\ndescription: >\n  a\n  b\n---\nx");
        assert_eq!(doc.description.as_deref(), Some("a b\n"));
        let doc = skill("---\nname:\n  - a\ndescription: d\n---\nx");
        assert_eq!(doc.outcome, Err(SkillDrop::MissingNameOrDescription));
    }

    #[test]
    fn surprises_and_lints() {
        let text =
            "---\nname: PDF Tools\ndescription: d\nversion: 1.10\nallowed-tools: Read\n---\nBody";
        let doc = skill(text);
        assert_eq!(doc.outcome, Ok(()));
        let found = codes(&doc);
        assert_eq!(found, vec![("SK022", 10, 19), ("SK023", 44, 48)]);
        let surprise = doc.diagnostics.iter().find(|d| d.code == "SK023").unwrap();
        assert_eq!(surprise.message, "`version: 1.10` is read by YAML 1.1 as a floating-point number; the runtime renders it as `1.1`");
        // A float Java prints as written is no surprise.
        let doc = skill("---\nname: pdf\ndescription: d\nversion: 2.0\nratio: 0.5\n---\nBody");
        assert_eq!(codes(&doc), vec![]);
        let doc = skill("---\nname: pdf\ndescription: d\ndate: 2024-01-01\n---\nBody");
        assert!(doc.diagnostics[0]
            .message
            .ends_with("`Mon Jan 01 00:00:00 UTC 2024`"));
    }

    #[test]
    fn skill_manage_limits_are_infos() {
        // 1 025 UTF-16 units: 512 emoji are 1 024 units, plus one letter.
        let description = format!("{}a", "😀".repeat(512));
        let text = format!(
            "---\nname: pdf\ndescription: {description}\n---\n{}",
            "x".repeat(100_001)
        );
        let doc = skill(&text);
        assert_eq!(doc.outcome, Ok(()));
        let start = 27;
        assert_eq!(
            codes(&doc),
            vec![
                ("SK020", start, start + description.len()),
                (
                    "SK021",
                    start + description.len() + 5,
                    start + description.len() + 5
                )
            ]
        );
        let doc = skill("---\nname: Pdf_Tool\ndescription: d\n---\nx");
        assert_eq!(
            doc.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(),
            vec!["SK019"]
        );
    }

    #[test]
    fn locations() {
        let body = "---\nname: x\ndescription: d\n---\nBody";
        // Where a file sits decides which layer reads it in which context: `check::loading`
        // reports that from the resolution, not the parse.
        let doc = parse_at("skills/a/x/SKILL.md", body);
        assert!(doc.diagnostics.is_empty());
        assert!(!doc.seen_by_direct_scan() && doc.seen_by_workspace_glob());
        let doc = parse_at("skills/_x/SKILL.md", body);
        assert!(doc.seen_by_direct_scan() && !doc.seen_by_workspace_glob());
        assert!(doc.diagnostics.is_empty());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        #[test]
        fn skill_and_subagent_parses_never_panic(
            text in "(---|----|\u{FEFF}|name: |description: |yes|a---b|\n|\r\n|\r| |\t|x|字|😀|- |: |\\[|\\]|\"){0,40}"
        ) {
            let doc = skill(&text);
            let sub = crate::workspace::subagent::parse(
                PathBuf::from("/w/subagents/a.md"),
                Location { tree: Tree::Shared, rel: "subagents/a.md".into() },
                &FileContent::Text(Arc::from(text.as_str())),
            );
            for d in doc.diagnostics.iter().chain(&sub.diagnostics) {
                proptest::prop_assert!(d.range.start <= d.range.end && d.range.end <= text.len());
                proptest::prop_assert!(text.is_char_boundary(d.range.start) && text.is_char_boundary(d.range.end));
                for fix in &d.fixes {
                    for edit in &fix.edits {
                        proptest::prop_assert!(edit.range.end <= text.len());
                    }
                }
            }
        }
    }

    #[test]
    fn unreadable_content_has_no_diagnostics() {
        let doc = parse(
            PathBuf::from("/w/skills/a/SKILL.md"),
            Location {
                tree: Tree::Shared,
                rel: "skills/a/SKILL.md".into(),
            },
            &FileContent::NotUtf8 {
                valid_up_to: 0,
                binary: true,
            },
        );
        assert_eq!(doc.outcome, Err(SkillDrop::Unreadable));
        assert!(doc.diagnostics.is_empty());
    }
}
