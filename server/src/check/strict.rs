//! The strict profile (`ST…`): the Agent Skills open specification (design-notes §5), checked on
//! every skill the runtime loads, for skills shared with other agent runtimes.
//!
//! Reads parsed `SkillDoc`s and their file text from the snapshot, and asks the snapshot's file
//! set whether the files SKILL.md refers to exist; never re-parses YAML, never touches the disk.

use std::path::Path;

use crate::base::unicode::normalization_note;
use crate::base::{Diagnostic, FileEdit, FileSet, Fix, TextRange};
use crate::rules::strict as rules;
use crate::syntax::java;
use crate::syntax::yaml::{Entry, Value};
use crate::workspace::keys;
use crate::workspace::skill::SkillDoc;

pub const NAME_MAX: usize = 64;
pub const DESCRIPTION_MAX: usize = 1024;
pub const COMPATIBILITY_MAX: usize = 500;
pub const RECOMMENDED_MAX_LINES: usize = 500;

/// The strict rules of one skill (nothing for a skill the runtime drops). Besides the skill's own
/// text they read only whether a referenced path exists in `files`.
pub fn check_source(skill: &SkillDoc, text: &str, files: &FileSet) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if skill.outcome.is_err() {
        return out;
    }
    let folder = skill.path.parent().unwrap_or(Path::new(""));
    let has = |rel: &str| {
        let path = folder.join(rel);
        files.contains_file(&path) || files.contains_dir(&path)
    };
    check_skill(skill, text, &has, &mut out);
    out
}

/// `^[a-z0-9]+(-[a-z0-9]+)*$`, 1–64 characters.
pub fn spec_name_ok(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= NAME_MAX
        && name.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// Checks one loaded skill. `has` answers whether a path relative to the skill's folder (`/`
/// separated, `.` and `..` resolved) is a file or folder in it.
pub fn check_skill(
    skill: &SkillDoc,
    text: &str,
    has: &dyn Fn(&str) -> bool,
    out: &mut Vec<Diagnostic>,
) {
    let path = &skill.path;
    if let (Some(name), Some(range)) = (&skill.name, skill.name_range) {
        if !spec_name_ok(name) {
            out.push(rules::ST001.at(
                path,
                range,
                format!("`{name}` is not 1–{NAME_MAX} lowercase letters, digits and single hyphens (no leading, trailing or double hyphen)"),
            ));
        }
        if *name != skill.dir_name {
            out.push(rules::ST002.at(
                path,
                range,
                format!(
                    "the name `{name}` differs from the folder name `{}`{}",
                    skill.dir_name,
                    normalization_note(name, &skill.dir_name).unwrap_or_default()
                ),
            ));
        }
    }
    if let (Some(description), Some(range)) = (&skill.description, skill.description_range) {
        let len = description.chars().count();
        if len > DESCRIPTION_MAX {
            out.push(rules::ST003.at(
                path,
                range,
                format!("the description is {len} characters long; the specification allows 1–{DESCRIPTION_MAX}"),
            ));
        }
    }
    for entry in &skill.metadata {
        match entry.key.as_str() {
            "compatibility" => {
                let ok = entry
                    .value
                    .value
                    .as_str()
                    .is_some_and(|s| (1..=COMPATIBILITY_MAX).contains(&s.chars().count()));
                if !ok {
                    out.push(rules::ST004.at(
                        path,
                        entry.value.range,
                        format!("`compatibility` must be a string of 1–{COMPATIBILITY_MAX} characters"),
                    ));
                }
            }
            "metadata" => match &entry.value.value {
                Value::Map(items) => {
                    // Keys YAML 1.1 types as non-strings never reach `items`: the runtime drops
                    // them (SK024); the specification wants string keys.
                    let range = entry.value.range;
                    for dropped in skill.dropped_keys.iter().filter(|d| {
                        range.start <= d.range.start
                            && d.range.end <= range.end
                            && !items.iter().any(|item| {
                                item.value.range.start <= d.range.start
                                    && d.range.end <= item.value.range.end
                            })
                    }) {
                        out.push(rules::ST005.at(
                            path,
                            dropped.range,
                            format!(
                                "the `metadata` key `{}` is {}; the specification wants string keys (quote it)",
                                dropped.source,
                                dropped.value.type_phrase()
                            ),
                        ));
                    }
                    for item in items {
                        if !matches!(item.value.value, Value::Str(_)) {
                            out.push(rules::ST005.at(
                                path,
                                item.value.range,
                                format!(
                                    "`metadata.{}` is {}; the specification wants string values",
                                    item.key,
                                    item.value.value.type_phrase()
                                ),
                            ));
                        }
                    }
                }
                other => out.push(rules::ST005.at(
                    path,
                    entry.value.range,
                    format!("`metadata` is {}; the specification wants a map of strings", other.type_phrase()),
                )),
            },
            "allowed-tools" if matches!(&entry.value.value, Value::Str(t) if t.contains(',')) => {
                out.push(allowed_tools_commas(path, text, entry));
            }
            "allowed-tools" if !matches!(entry.value.value, Value::Str(_)) => {
                out.push(rules::ST006.at(
                    path,
                    entry.value.range,
                    format!(
                        "`allowed-tools` is {}; the specification wants one space-separated string",
                        entry.value.value.type_phrase()
                    ),
                ));
            }
            key if !keys::skill(key).is_some_and(|k| k.strict) => out.push(rules::ST007.at(
                path,
                entry.key_range,
                match crate::base::suggest::did_you_mean(
                    key,
                    &keys::SKILL
                        .iter()
                        .filter(|k| k.strict)
                        .map(|k| k.name)
                        .collect::<Vec<_>>(),
                ) {
                    Some(best) => format!(
                        "`{key}` is not a key of the Agent Skills specification; did you mean `{best}`? (else move it under `metadata`)"
                    ),
                    None => format!(
                        "`{key}` is not a key of the Agent Skills specification; move it under `metadata`"
                    ),
                },
            )),
            _ => {}
        }
    }
    let lines = java::lines(text);
    if lines.len() > RECOMMENDED_MAX_LINES {
        let offset: usize = lines[..RECOMMENDED_MAX_LINES]
            .iter()
            .map(|l| l.len())
            .sum::<usize>();
        // Re-find the exact start of line 501 (line breaks may be 1 or 2 bytes).
        let start = nth_line_start(text, RECOMMENDED_MAX_LINES).unwrap_or(offset);
        out.push(rules::ST008.at(
            path,
            TextRange::empty(start),
            format!("SKILL.md has {} lines; the specification recommends fewer than {RECOMMENDED_MAX_LINES}", lines.len()),
        ));
    }
    if let Some(split) = skill.split {
        for reference in references(text, split.body.start, has) {
            let Reference {
                target,
                range,
                written,
            } = &reference;
            let Some(segments) = inside_folder(target) else {
                out.push(rules::ST011.at(
                    path,
                    *range,
                    format!("`{target}` points outside the skill's folder"),
                ));
                continue;
            };
            if segments.len() > 2 {
                out.push(rules::ST009.at(
                    path,
                    *range,
                    format!("`{target}` is more than one folder deep below the skill"),
                ));
            }
            if !segments.is_empty() && !has(&segments.join("/")) {
                out.push(rules::ST012.at(
                    path,
                    *range,
                    format!(
                        "`{target}` ({}) is not in the skill's folder",
                        written.describe()
                    ),
                ));
            }
        }
    }
}

/// ST010: `allowed-tools: Read, Grep`; the fix writes the tools separated by spaces when the value
/// is written plain.
fn allowed_tools_commas(path: &std::path::Path, text: &str, entry: &Entry) -> Diagnostic {
    let value = entry.value.value.as_str().unwrap_or_default();
    let spaced = value
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let range = entry.value.range;
    let diagnostic = rules::ST010.at(
        path,
        range,
        format!("`allowed-tools` separates tools with commas; the specification splits on spaces (write `{spaced}`)"),
    );
    if text.get(range.start..range.end) == Some(value) {
        diagnostic.with_fix(Fix {
            title: "Separate the tools with spaces".into(),
            edits: vec![FileEdit {
                path: path.to_path_buf(),
                range,
                new_text: spaced,
            }],
        })
    } else {
        diagnostic
    }
}

/// The path segments of `target` below the skill folder once `.` and `..` are resolved, or
/// `None` when it leaves the folder.
fn inside_folder(target: &str) -> Option<Vec<&str>> {
    let mut segments = Vec::new();
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                segments.pop()?;
            }
            _ => segments.push(part),
        }
    }
    Some(segments)
}

fn nth_line_start(text: &str, n: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut line = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' || b == b'\r' {
            if b == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
            line += 1;
            if line == n {
                return Some(i + 1);
            }
        }
        i += 1;
    }
    None
}

/// The folders the specification names for a skill's files (`scripts/`, `references/`,
/// `assets/`): a path written as plain text or code counts as a reference when it starts with one
/// of them or with a folder the skill has (after any `./`), like the specification's own example
/// `scripts/extract.py`. `./src` or `../x` in a command is about the user's project, not the
/// skill, so a dot prefix alone does not make a reference.
const SPEC_FOLDERS: &[&str] = &["scripts", "references", "assets"];

/// How a reference is written in the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Written {
    Link,
    Text,
    Code,
}

impl Written {
    fn describe(self) -> &'static str {
        match self {
            Written::Link => "a link",
            Written::Text => "a path in the text",
            Written::Code => "a path in code",
        }
    }
}

/// A file of the skill that the body of SKILL.md refers to.
#[derive(Debug)]
struct Reference {
    /// As written, without `#fragment` or `?query`, percent-escapes decoded for links.
    target: String,
    range: TextRange,
    written: Written,
}

/// References in `text[from..]`, in text order: Markdown link and image targets (no scheme, not
/// anchor-only, not absolute), and relative paths written as text, inline code or in code blocks
/// (each path once, and not when a link already names it). `has_folder` tells whether a first
/// path segment is a folder of the skill. Markdown is parsed (pulldown-cmark): link syntax inside
/// code is not a link.
fn references(text: &str, from: usize, has_folder: &dyn Fn(&str) -> bool) -> Vec<Reference> {
    use pulldown_cmark::{Event, Parser, Tag, TagEnd};
    let body = &text[from..];
    let mut out: Vec<Reference> = Vec::new();
    let mut in_code_block = false;
    // Plain-text runs: pulldown-cmark splits text at characters that might have been markup.
    let mut run: Option<(std::ops::Range<usize>, Written)> = None;
    let mut runs = Vec::new();
    for (event, span) in Parser::new(body).into_offset_iter() {
        let written = match &event {
            Event::Text(_) if in_code_block => Written::Code,
            Event::Text(_) => Written::Text,
            Event::Code(_) => Written::Code,
            _ => {
                match &event {
                    Event::Start(Tag::CodeBlock(_)) => in_code_block = true,
                    Event::End(TagEnd::CodeBlock) => in_code_block = false,
                    _ => {}
                }
                if let Some(done) = run.take() {
                    runs.push(done);
                }
                if let Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) =
                    &event
                {
                    if let Some(reference) = link_reference(body, from, span, dest_url) {
                        out.push(reference);
                    }
                }
                continue;
            }
        };
        match &mut run {
            Some((r, w)) if *w == written && written == Written::Text && r.end == span.start => {
                r.end = span.end
            }
            _ => {
                if let Some(done) = run.replace((span, written)) {
                    runs.push(done);
                }
            }
        }
    }
    runs.extend(run);
    let mut seen: std::collections::HashSet<String> =
        out.iter().map(|r| r.target.clone()).collect();
    for (span, written) in runs {
        let source = &body[span.clone()];
        for token in source.split(|c: char| c.is_whitespace() || c == '`') {
            // `token` is a slice of `source`: its offset is the distance between the pointers.
            let token_start = token.as_ptr() as usize - source.as_ptr() as usize;
            let trimmed = token.trim_start_matches(['(', '[', '{', '<', '"', '\'']);
            let lead = token.len() - trimmed.len();
            let trimmed = trimmed
                .trim_end_matches(['.', ',', ';', ':', '!', '?', ')', ']', '}', '>', '"', '\'']);
            if !is_path_reference(trimmed, has_folder) || !seen.insert(trimmed.to_string()) {
                continue;
            }
            let start = from + span.start + token_start + lead;
            out.push(Reference {
                target: trimmed.to_string(),
                range: TextRange::new(start, start + trimmed.len()),
                written,
            });
        }
    }
    out.sort_by_key(|r| r.range.start);
    out
}

/// A link or image target as a reference, with the range of the target where it is written
/// inline (`](target`), else of the whole link.
fn link_reference(
    body: &str,
    from: usize,
    span: std::ops::Range<usize>,
    target: &str,
) -> Option<Reference> {
    if target.is_empty()
        || target.starts_with(['#', '/'])
        || target.contains("://")
        || target.starts_with("mailto:")
    {
        return None;
    }
    let source = &body[span.clone()];
    let range = match source.rfind(&format!("]({target}")) {
        Some(at) => {
            let start = from + span.start + at + 2;
            TextRange::new(start, start + target.len())
        }
        None => TextRange::new(from + span.start, from + span.end),
    };
    let clean = target.split(['#', '?']).next().unwrap_or(target);
    Some(Reference {
        target: percent_decoded(clean),
        range,
        written: Written::Link,
    })
}

/// True when a token of text or code reads as a relative path to a file of the skill: at least
/// two segments, the first (after any `./`) a folder the specification names or one the skill has;
/// nothing that makes it a URL, an absolute or home path, a glob, a placeholder or an option.
fn is_path_reference(token: &str, has_folder: &dyn Fn(&str) -> bool) -> bool {
    if token.contains("://")
        || token.starts_with(['/', '~', '-'])
        || token.contains([
            '*', '?', '{', '}', '<', '>', '$', '|', '=', '\\', '[', ']', '(', ')',
        ])
    {
        return false;
    }
    let mut segments = token.split('/').skip_while(|s| *s == ".");
    let Some(first) = segments.next() else {
        return false;
    };
    if !segments.any(|s| !s.is_empty() && s != "." && s != "..") {
        return false;
    }
    SPEC_FOLDERS.contains(&first) || has_folder(first)
}

/// `%20` and other percent-escapes of a link target decoded, when they form UTF-8; the target as
/// written otherwise.
fn percent_decoded(target: &str) -> String {
    if !target.contains('%') {
        return target.to_string();
    }
    let bytes = target.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| target.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::FileContent;
    use crate::workspace::layout::{Location, Tree};
    use std::path::PathBuf;
    use std::sync::Arc;

    /// Diagnostics of the skill `skills/<dir>/SKILL.md` whose folder holds `files` (paths
    /// relative to the folder; their parent folders exist too).
    fn check_with(dir: &str, text: &str, files: &[&str]) -> Vec<Diagnostic> {
        let rel = format!("skills/{dir}/SKILL.md");
        let skill = crate::workspace::skill::parse(
            PathBuf::from(format!("/w/{rel}")),
            Location {
                tree: Tree::Shared,
                rel,
            },
            &FileContent::Text(Arc::from(text)),
        );
        let has = |rel: &str| {
            files
                .iter()
                .any(|f| *f == rel || f.starts_with(&format!("{rel}/")))
        };
        let mut out = Vec::new();
        check_skill(&skill, text, &has, &mut out);
        out
    }

    fn run(dir: &str, text: &str) -> Vec<(&'static str, usize, usize)> {
        check_with(dir, text, &["references/guide.md", "references/a/b.md"])
            .iter()
            .map(|d| (d.code, d.range.start, d.range.end))
            .collect()
    }

    /// `(code, the text at the range, message)`.
    fn shown<'a>(text: &'a str, found: &[Diagnostic]) -> Vec<(&'static str, &'a str, String)> {
        found
            .iter()
            .map(|d| (d.code, &text[d.range.start..d.range.end], d.message.clone()))
            .collect()
    }

    #[test]
    fn clean_skill_passes() {
        let text = "---\nname: pdf-tools\ndescription: d\nlicense: MIT\nmetadata:\n  author: me\nallowed-tools: Read Grep\n---\nSee [guide](references/guide.md) and [web](https://x.y/a/b/c).\n";
        assert_eq!(run("pdf-tools", text), vec![]);
    }

    #[test]
    fn every_rule() {
        let text = "---\nname: PDF--x\ndescription: d\ncompatibility: \"\"\nmetadata:\n  version: 1.0\nallowed-tools: [Read]\nversion: x\n---\nSee [deep](references/a/b.md).\n";
        assert_eq!(
            run("pdf", text),
            vec![
                ("ST001", 10, 16),
                ("ST002", 10, 16),
                ("ST004", 47, 49),
                ("ST005", 71, 74),
                ("ST006", 90, 96),
                ("ST007", 97, 104),
                ("ST009", 123, 140),
            ]
        );
        assert!(spec_name_ok("a1-b2"));
        assert!(!spec_name_ok("-a") && !spec_name_ok("a-") && !spec_name_ok(&"a".repeat(65)));
    }

    #[test]
    fn links_are_read_as_markdown() {
        let text = "---\nname: pdf\ndescription: d\nallowed-tools: Read, Grep\n---\nSee `[a](x/y/z.md)` and\n\n```\n[b](p/q/r.md)\n```\n\n[out](../sibling/x.md), [deep](references/a/b.md), ![img](assets/i.png)\n";
        let found = check_with("pdf", text, &["references/a/b.md", "assets/i.png"]);
        // Links in a code span or a code block are not references.
        assert_eq!(
            shown(text, &found),
            vec![
                ("ST010", "Read, Grep", "`allowed-tools` separates tools with commas; the specification splits on spaces (write `Read Grep`)".to_string()),
                ("ST011", "../sibling/x.md", "`../sibling/x.md` points outside the skill's folder".to_string()),
                ("ST009", "references/a/b.md", "`references/a/b.md` is more than one folder deep below the skill".to_string()),
            ]
        );
        assert_eq!(found[0].fixes[0].edits[0].new_text, "Read Grep");
    }

    /// The specification's own example: a plain path on its own line is a reference, and so are
    /// paths in backticks and in code blocks; each is checked for depth and existence.
    #[test]
    fn plain_and_backtick_paths_are_references() {
        let text = "---\nname: pdf\ndescription: d\n---\nSee [the reference guide](references/REFERENCE.md) for details.\n\nRun the extraction script:\nscripts/extract.py\n\nThen `scripts/fill_form.py` (or `references/forms/deep/x.md`).\n\n```bash\npython scripts/missing.py --out assets/template.docx\n```\n\nOnce more: scripts/extract.py, references/REFERENCE.md and data/rows.csv.\n";
        let files = [
            "references/REFERENCE.md",
            "scripts/extract.py",
            "assets/template.docx",
            "data/rows.csv",
            "references/forms/deep/x.md",
        ];
        let found = check_with("pdf", text, &files);
        assert_eq!(
            shown(text, &found),
            vec![
                (
                    "ST012",
                    "scripts/fill_form.py",
                    "`scripts/fill_form.py` (a path in code) is not in the skill's folder"
                        .to_string()
                ),
                (
                    "ST009",
                    "references/forms/deep/x.md",
                    "`references/forms/deep/x.md` is more than one folder deep below the skill"
                        .to_string()
                ),
                (
                    "ST012",
                    "scripts/missing.py",
                    "`scripts/missing.py` (a path in code) is not in the skill's folder"
                        .to_string()
                ),
            ]
        );
        // Without the files, every mention is reported once, where it is first written; the
        // folder `data/` is not one the specification names, so `data/rows.csv` is a path only
        // when the skill has that folder.
        let found = check_with("pdf", text, &[]);
        let missing: Vec<&str> = found
            .iter()
            .filter(|d| d.code == "ST012")
            .map(|d| &text[d.range.start..d.range.end])
            .collect();
        assert_eq!(
            missing,
            vec![
                "references/REFERENCE.md",
                "scripts/extract.py",
                "scripts/fill_form.py",
                "references/forms/deep/x.md",
                "scripts/missing.py",
                "assets/template.docx",
            ]
        );
        let at = found
            .iter()
            .find(|d| &text[d.range.start..d.range.end] == "scripts/extract.py")
            .unwrap();
        assert_eq!(at.range.start, text.find("scripts/extract.py").unwrap());
        assert!(
            found[0].message.contains("(a link)"),
            "{}",
            found[0].message
        );
        assert!(
            found[1].message.contains("(a path in the text)"),
            "{}",
            found[1].message
        );
    }

    #[test]
    fn things_that_are_not_paths_are_left_alone() {
        let text = "---\nname: pdf\ndescription: d\n---\nscripts/*.py, references/{topic}.md, https://x.y/scripts/a.py, /scripts/abs.py, ~/scripts/x.py,\nscripts/ alone, --scripts/x, scripts\\win.py, notes/x.md, [web](https://a.b/references/x/y/z.md), [top](#scripts), [mail](mailto:a@b.c)\n";
        assert_eq!(shown(text, &check_with("pdf", text, &[])), vec![]);
    }

    #[test]
    fn link_targets_are_percent_decoded_and_folders_count() {
        let text = "---\nname: pdf\ndescription: d\n---\n[g](references/my%20guide.md#part) [dir](references/) [x](./scripts/../scripts/run.sh)\n";
        let found = check_with("pdf", text, &["references/my guide.md", "scripts/run.sh"]);
        assert_eq!(shown(text, &found), vec![]);
    }

    #[test]
    fn metadata_keys_must_be_strings() {
        let text = "---\nname: pdf\ndescription: d\nmetadata:\n  1: one\n  yes: two\n  ok: three\n  nested:\n    2: x\n---\nBody\n";
        let found = check_with("pdf", text, &[]);
        assert_eq!(
            shown(text, &found),
            vec![
                ("ST005", "1", "the `metadata` key `1` is an integer; the specification wants string keys (quote it)".to_string()),
                ("ST005", "yes", "the `metadata` key `yes` is a boolean; the specification wants string keys (quote it)".to_string()),
                ("ST005", "2: x", "`metadata.nested` is a map; the specification wants string values".to_string()),
            ]
        );
        let text =
            "---\nname: pdf\ndescription: d\nmetadata:\n  \"1\": one\n  'yes': two\n---\nBody\n";
        assert_eq!(shown(text, &check_with("pdf", text, &[])), vec![]);
    }

    /// Messages name types with the right article ("an integer", never "a integer").
    #[test]
    fn type_names_take_the_right_article() {
        let text = "---\nname: pdf\ndescription: d\nmetadata:\n  a: 1\n  b: ~\n  c: 2024-01-01\nallowed-tools: 7\n---\nBody\n";
        let messages: Vec<String> = check_with("pdf", text, &[])
            .into_iter()
            .map(|d| d.message)
            .collect();
        assert_eq!(
            messages,
            vec![
                "`metadata.a` is an integer; the specification wants string values",
                "`metadata.b` is null; the specification wants string values",
                "`metadata.c` is a date; the specification wants string values",
                "`allowed-tools` is an integer; the specification wants one space-separated string",
            ]
        );
    }

    #[test]
    fn names_differing_in_normalization_show_code_points() {
        let text = "---\nname: cafe\u{301}\ndescription: d\n---\nBody\n";
        let found = check_with("caf\u{e9}", text, &[]);
        let st002: Vec<&str> = found
            .iter()
            .filter(|d| d.code == "ST002")
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            st002,
            vec!["the name `cafe\u{301}` differs from the folder name `caf\u{e9}`; they differ only in Unicode normalization: `cafe\u{301}` is U+0063 U+0061 U+0066 U+0065 U+0301 (NFD), `caf\u{e9}` is U+0063 U+0061 U+0066 U+00E9 (NFC)"]
        );
    }

    #[test]
    fn long_file() {
        let body = "line\r\n".repeat(600);
        let text = format!("---\nname: pdf\ndescription: d\n---\n{body}");
        let found = run("pdf", &text);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "ST008");
        // Line 501 starts after 4 frontmatter lines and 496 body lines.
        assert_eq!(found[0].1, 33 + 496 * 6);
    }
}
