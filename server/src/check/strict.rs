//! The strict profile (`ST…`): the Agent Skills open specification (design-notes §5), checked on
//! every skill the runtime loads, for skills shared with other agent runtimes.
//!
//! Reads parsed `SkillDoc`s and their file text from the snapshot; never re-parses YAML.

use crate::base::{Diagnostic, FileEdit, Fix, TextRange};
use crate::rules::strict as rules;
use crate::syntax::java;
use crate::syntax::yaml::{Entry, Value};
use crate::workspace::keys;
use crate::workspace::skill::SkillDoc;
use crate::workspace::Workspace;

pub const NAME_MAX: usize = 64;
pub const DESCRIPTION_MAX: usize = 1024;
pub const COMPATIBILITY_MAX: usize = 500;
pub const RECOMMENDED_MAX_LINES: usize = 500;

pub fn check(workspace: &Workspace) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for skill in workspace.skills.iter().filter(|s| s.outcome.is_ok()) {
        let text = workspace.files.text(&skill.path).unwrap_or("");
        check_skill(skill, text, &mut out);
    }
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

pub fn check_skill(skill: &SkillDoc, text: &str, out: &mut Vec<Diagnostic>) {
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
                    "the name `{name}` differs from the folder name `{}`",
                    skill.dir_name
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
                    for item in items {
                        if !matches!(item.value.value, Value::Str(_)) {
                            out.push(rules::ST005.at(
                                path,
                                item.value.range,
                                format!(
                                    "`metadata.{}` is a {}; the specification wants string values",
                                    item.key,
                                    item.value.value.type_name()
                                ),
                            ));
                        }
                    }
                }
                other => out.push(rules::ST005.at(
                    path,
                    entry.value.range,
                    format!("`metadata` is a {}; the specification wants a map of strings", other.type_name()),
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
                        "`allowed-tools` is a {}; the specification wants one space-separated string",
                        entry.value.value.type_name()
                    ),
                ));
            }
            key if !keys::skill(key).is_some_and(|k| k.strict) => out.push(rules::ST007.at(
                path,
                entry.key_range,
                format!("`{key}` is not a key of the Agent Skills specification; move it under `metadata`"),
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
        for (target, range) in relative_links(text, split.body.start) {
            match folder_depth(&target) {
                None => out.push(rules::ST011.at(
                    path,
                    range,
                    format!("`{target}` points outside the skill's folder"),
                )),
                Some(depth) if depth > 2 => out.push(rules::ST009.at(
                    path,
                    range,
                    format!("`{target}` is more than one folder deep below the skill"),
                )),
                Some(_) => {}
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

/// How many path segments `target` has below the skill folder after resolving `.` and `..`, or
/// `None` when it leaves the folder.
fn folder_depth(target: &str) -> Option<usize> {
    let mut depth: usize = 0;
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => depth = depth.checked_sub(1)?,
            _ => depth += 1,
        }
    }
    Some(depth)
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

/// Targets of Markdown links and images in `text[from..]` that point at files of the skill (no
/// scheme, not anchor-only, not absolute), with the range of the target where it is written
/// inline. Markdown is parsed (pulldown-cmark), so links inside code spans and code blocks are
/// not references.
fn relative_links(text: &str, from: usize) -> Vec<(String, TextRange)> {
    use pulldown_cmark::{Event, Parser, Tag};
    let body = &text[from..];
    let mut out = Vec::new();
    for (event, span) in Parser::new(body).into_offset_iter() {
        let target = match event {
            Event::Start(Tag::Link { dest_url, .. })
            | Event::Start(Tag::Image { dest_url, .. }) => dest_url,
            _ => continue,
        };
        let target = target.as_ref();
        if target.is_empty()
            || target.starts_with(['#', '/'])
            || target.contains("://")
            || target.starts_with("mailto:")
        {
            continue;
        }
        // The target as written inline (`](target`), else the whole link.
        let source = &body[span.clone()];
        let range = match source.rfind(&format!("]({target}")) {
            Some(at) => {
                let start = from + span.start + at + 2;
                TextRange::new(start, start + target.len())
            }
            None => TextRange::new(from + span.start, from + span.end),
        };
        let clean = target.split(['#', '?']).next().unwrap_or(target);
        out.push((clean.to_string(), range));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::FileContent;
    use crate::workspace::layout::{Location, Tree};
    use std::path::PathBuf;
    use std::sync::Arc;

    fn run(dir: &str, text: &str) -> Vec<(&'static str, usize, usize)> {
        let rel = format!("skills/{dir}/SKILL.md");
        let skill = crate::workspace::skill::parse(
            PathBuf::from(format!("/w/{rel}")),
            Location {
                tree: Tree::Shared,
                rel,
            },
            &FileContent::Text(Arc::from(text)),
        );
        let mut out = Vec::new();
        check_skill(&skill, text, &mut out);
        out.iter()
            .map(|d| (d.code, d.range.start, d.range.end))
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
        let found = run("pdf", text);
        let shown: Vec<(&str, &str)> = found
            .iter()
            .map(|(code, start, end)| (*code, &text[*start..*end]))
            .collect();
        // Links in a code span or a code block are not references.
        assert_eq!(
            shown,
            vec![
                ("ST010", "Read, Grep"),
                ("ST011", "../sibling/x.md"),
                ("ST009", "references/a/b.md"),
            ]
        );
        let rel = "skills/pdf/SKILL.md".to_string();
        let skill = crate::workspace::skill::parse(
            PathBuf::from("/w/skills/pdf/SKILL.md"),
            Location {
                tree: Tree::Shared,
                rel,
            },
            &FileContent::Text(Arc::from(text)),
        );
        let mut out = Vec::new();
        check_skill(&skill, text, &mut out);
        let messages: Vec<&str> = out.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            vec![
                "`allowed-tools` separates tools with commas; the specification splits on spaces (write `Read Grep`)",
                "`../sibling/x.md` points outside the skill's folder",
                "`references/a/b.md` is more than one folder deep below the skill",
            ]
        );
        assert_eq!(out[0].fixes[0].edits[0].new_text, "Read Grep");
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

/// The parse fixtures under `tests/fixtures/parse-*`, loaded from disk and checked like the CLI
/// does, restricted to the codes this area owns.
#[cfg(test)]
mod fixture_tests {
    use std::path::PathBuf;
    use std::sync::Arc;

    use crate::check::{check_workspace, CheckOptions};
    use crate::rules::Profile;

    fn findings(name: &str, profile: Profile) -> Vec<(String, &'static str, String)> {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures")
            .join(name);
        let loaded = crate::cli::project::load(&root, Arc::new(Default::default()));
        let report = check_workspace(&loaded.workspace, CheckOptions { profile });
        let root = crate::config::discover::absolute(&root);
        report
            .diagnostics
            .iter()
            .filter(|d| ["SK", "SA", "ST"].iter().any(|p| d.code.starts_with(p)))
            .map(|d| {
                let rel = d.path.strip_prefix(&root).unwrap_or(&d.path);
                let rel = rel.to_string_lossy().replace(".agentscope/workspace/", "");
                (rel, d.code, d.severity.as_str().to_string())
            })
            .collect()
    }

    #[test]
    fn valid_fixture_is_clean_even_when_strict() {
        // Only the reminder that `allowed-tools` is not enforced by the harness.
        assert_eq!(
            findings("parse-valid", Profile::Strict),
            vec![(
                "skills/pdf/SKILL.md".to_string(),
                "SK025",
                "info".to_string()
            )]
        );
    }

    #[test]
    fn broken_fixture_reports_every_trap() {
        let got = findings("parse-broken", Profile::Harness);
        let shown: Vec<String> = got.iter().map(|(p, c, s)| format!("{p} {c} {s}")).collect();
        // The outcomes are those of the default `user` scope: `_drafts/SKILL.md` sits directly in
        // the shared `skills/` folder, so Layer 3 loads it for every call (no SK018); `dashes`
        // keeps `name` and `description` and loads (SK006 is a warning); `mismatch` is served by
        // Layer 3 and staged under its name (no SK016); `nested/deep` is loaded for no call.
        let expected = [
            "skills/_drafts/SKILL.md SK019 info",
            "skills/bom/SKILL.md SK002 error",
            "skills/dashes/SKILL.md SK006 warning",
            "skills/empty-body/SKILL.md SK011 error",
            "skills/fallback/SKILL.md SK009 error",
            "skills/fallback/SKILL.md SK014 warning",
            "skills/fallback/SKILL.md SK013 warning",
            "skills/leading-blank/SKILL.md SK003 error",
            "skills/long-opener/SKILL.md SK004 error",
            "skills/mismatch/SKILL.md SK023 warning",
            "skills/nested/deep/SKILL.md SK017 error",
            "skills/yes-name/SKILL.md SK008 error",
            "subagents/bad-values.md SA012 warning",
            "subagents/bad-values.md SA015 warning",
            "subagents/bad-values.md SA013 warning",
            "subagents/bad-values.md SA011 warning",
            "subagents/bom.md SA018 error",
            "subagents/general-purpose.md SA006 warning",
            "subagents/no-description.md SA004 error",
        ];
        assert_eq!(shown, expected);
    }
}
