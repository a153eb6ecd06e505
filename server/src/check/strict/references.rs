//! The files of its folder that a SKILL.md's body refers to, as the reference rules (ST009, ST011,
//! ST012) read them: Markdown links and images, and relative paths written as text or code.
//!
//! Reads the text alone (and whether a folder exists, through the caller's question).

use crate::base::TextRange;

/// The folders the specification names for a skill's files (`scripts/`, `references/`,
/// `assets/`): a path written as plain text or code counts as a reference when it starts with one
/// of them or with a folder the skill has (after any `./`), like the specification's own example
/// `scripts/extract.py`. `./src` or `../x` in a command is about the user's project, not the
/// skill, so a dot prefix alone does not make a reference.
const SPEC_FOLDERS: &[&str] = &["scripts", "references", "assets"];

/// How a reference is written in the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Written {
    Link,
    Text,
    Code,
}

impl Written {
    pub(super) fn describe(self) -> &'static str {
        match self {
            Written::Link => "a link",
            Written::Text => "a path in the text",
            Written::Code => "a path in code",
        }
    }
}

/// A file of the skill that the body of SKILL.md refers to.
#[derive(Debug)]
pub(super) struct Reference {
    /// As written, without `#fragment` or `?query`, percent-escapes decoded for links.
    pub(super) target: String,
    pub(super) range: TextRange,
    pub(super) written: Written,
}

/// References in `text[from..]`, in text order: Markdown link and image targets (no scheme, not
/// anchor-only, not absolute), and relative paths written as text, inline code or in code blocks
/// (each path once, and not when a link already names it). `has_folder` tells whether a first
/// path segment is a folder of the skill. Markdown is parsed (pulldown-cmark): link syntax inside
/// code is not a link.
pub(super) fn references(
    text: &str,
    from: usize,
    has_folder: &dyn Fn(&str) -> bool,
) -> Vec<Reference> {
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
            let trimmed = without_skill_dir(trimmed);
            let lead = token.len() - trimmed.len();
            let trimmed = trimmed
                .trim_end_matches(['.', ',', ';', ':', '!', '?', ')', ']', '}', '>', '"', '\'']);
            let start = from + span.start + token_start + lead;
            if !is_path_reference(trimmed, has_folder)
                || (written == Written::Text && !names_a_file(trimmed))
                || names_an_example(&text[..start])
                || !seen.insert(trimmed.to_string())
            {
                continue;
            }
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
            let start =
                from + span.start + at + 2 + (target.len() - without_skill_dir(target).len());
            TextRange::new(start, from + span.start + at + 2 + target.len())
        }
        None => TextRange::new(from + span.start, from + span.end),
    };
    let target = without_skill_dir(target);
    let clean = target.split(['#', '?']).next().unwrap_or(target);
    Some(Reference {
        target: percent_decoded(clean),
        range,
        written: Written::Link,
    })
}

/// `target` without a leading `${CLAUDE_SKILL_DIR}/`: Claude Code's name for the skill folder
/// (the specification's runtimes expand it; AgentScope does not, SK031), so what follows is the
/// path below the skill the author means.
fn without_skill_dir(target: &str) -> &str {
    target
        .strip_prefix(crate::workspace::skill::CLAUDE_SKILL_DIR)
        .and_then(|rest| rest.strip_prefix('/'))
        .unwrap_or(target)
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

/// Words that introduce an example rather than a file of the skill, as they end the text before
/// a path on its line: `for example references/finance.md`, `e.g. `scripts/run.py``.
const EXAMPLE_MARKERS: &[&str] = &[
    "e.g.",
    "e.g",
    "eg.",
    "for example",
    "for instance",
    "such as",
    "like",
    "example",
    "examples",
];

/// True when the text before a path, on the path's line, ends with a word that introduces an
/// example (`EXAMPLE_MARKERS`, as a whole word, ignoring the punctuation and markup between).
pub(crate) fn is_illustrative(before: &str) -> bool {
    let line = before.rsplit(['\n', '\r']).next().unwrap_or(before);
    let lead = line
        .trim_end_matches(|c: char| c.is_whitespace() || "`'\"(*_:,-".contains(c))
        .to_lowercase();
    EXAMPLE_MARKERS.iter().any(|marker| {
        lead.strip_suffix(marker).is_some_and(|rest| {
            !rest
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '.')
        })
    })
}

/// True when the text before a path, on its line, shows the path as an example rather than a file
/// of the skill: after an example marker (`is_illustrative`); anywhere in a line labelled as
/// examples (`**Examples**: `references/mnda.md` for …, `references/policies.md` for …`); or after
/// an indefinite article (`2. A `scripts/rotate_pdf.py` script would help`), since a file the text
/// sends the model to is `the` file, or named bare.
fn names_an_example(before: &str) -> bool {
    let line = before.rsplit(['\n', '\r']).next().unwrap_or(before);
    is_illustrative(line) || in_examples_line(line) || after_an_article(line)
}

/// True when the line opens, after list and emphasis markup, with an example label and a colon.
fn in_examples_line(line: &str) -> bool {
    let words = line
        .trim_start_matches(|c: char| {
            c.is_whitespace() || c.is_ascii_digit() || "-*+.>_#".contains(c)
        })
        .to_lowercase();
    ["examples", "example", "e.g.", "for example"]
        .iter()
        .any(|label| {
            words
                .strip_prefix(label)
                .is_some_and(|rest| rest.trim_start_matches(['*', '_', ' ']).starts_with(':'))
        })
}

/// True when the last word before the path (markup and quotes aside) is `a` or `an`.
fn after_an_article(line: &str) -> bool {
    let lead = line.trim_end_matches(|c: char| c.is_whitespace() || "`'\"*_".contains(c));
    let word = lead
        .rsplit(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("");
    word.eq_ignore_ascii_case("a") || word.eq_ignore_ascii_case("an")
}

/// True when the last segment of a path reads as a file name (a stem and an extension):
/// in prose, `scripts/references/examples` lists folders, it names no file.
fn names_a_file(path: &str) -> bool {
    path.rsplit('/')
        .next()
        .and_then(|name| name.rsplit_once('.'))
        .is_some_and(|(stem, ext)| !stem.is_empty() && !ext.is_empty())
}

/// `%20` and other percent-escapes of a link target decoded, when they form UTF-8; the target as
/// written otherwise.
fn percent_decoded(target: &str) -> String {
    if !target.contains('%') {
        return target.to_string();
    }
    String::from_utf8(crate::base::percent::decode_lenient(target))
        .unwrap_or_else(|_| target.to_string())
}

/// The path segments of `target` below the skill folder once `.` and `..` are resolved, or
/// `None` when it leaves the folder.
pub(super) fn inside_folder(target: &str) -> Option<Vec<&str>> {
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
