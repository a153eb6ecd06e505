//! The strict profile (`ST…`): the Agent Skills open specification (design-notes §5), checked on
//! every skill the runtime loads, for skills shared with other agent runtimes. Off by default
//! (`--profile strict`).
//!
//! One file per rule: each declares its rule (code, severity, summary, consequence, explanation
//! and examples) beside its detection over a [`LoadedSkill`]; [`RULES`] lists them, for the
//! catalog (`check::catalog`), and `CHECKS` their detections, for [`check_source`]. The rules read a parsed `SkillDoc`, its
//! text and whether the files SKILL.md refers to exist; never re-parse YAML, never touch the disk.

mod references;

use std::path::Path;

use crate::base::{Diagnostic, FileSet};
use crate::rules::declare_family;
use crate::workspace::skill::SkillDoc;
pub(crate) use references::is_illustrative;
use references::Reference;
pub use unknown_key::{said_once as unknown_keys_said_once, unknown_keys, UnknownKey};

/// A skill the runtime loads, as the strict rules read it.
pub struct LoadedSkill<'a> {
    skill: &'a SkillDoc,
    text: &'a str,
    /// Whether a path relative to the skill's folder (`/` separated, `.` and `..` resolved) is a
    /// file or folder of it.
    has: &'a dyn Fn(&str) -> bool,
    /// The files the body refers to, found once for the three rules that read them.
    references: Vec<Reference>,
}

declare_family! {
    checks: CHECKS: fn(&LoadedSkill, &mut Vec<Diagnostic>) = check;
    mod name_format;          // ST001
    mod name_directory;       // ST002
    mod description_length;   // ST003
    mod compatibility_length; // ST004
    mod metadata_shape;       // ST005
    mod allowed_tools_shape;  // ST006
    mod unknown_key;          // ST007
    mod body_lines;           // ST008
    mod reference_depth;      // ST009
    mod allowed_tools_commas; // ST010
    mod reference_outside;    // ST011
    mod reference_missing;    // ST012
}

/// The strict rules of one skill (nothing for a skill the runtime drops). Besides the skill's own
/// text they read only whether a referenced path exists in `files`.
pub fn check_source(skill: &SkillDoc, text: &str, files: &FileSet) -> Vec<Diagnostic> {
    if skill.outcome.is_err() {
        return Vec::new();
    }
    let folder = skill.path.parent().unwrap_or(Path::new(""));
    let has = |rel: &str| {
        let path = folder.join(rel);
        files.contains_file(&path) || files.contains_dir(&path)
    };
    check_skill(skill, text, &has)
}

/// The strict rules of a loaded skill; `has` answers for its folder's files.
fn check_skill(skill: &SkillDoc, text: &str, has: &dyn Fn(&str) -> bool) -> Vec<Diagnostic> {
    let references = match skill.split {
        Some(split) => references::references(text, split.body.start, has),
        None => Vec::new(),
    };
    let loaded = LoadedSkill {
        skill,
        text,
        has,
        references,
    };
    let mut out = Vec::new();
    for check in CHECKS {
        check(&loaded, &mut out);
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
        let mut found = check_skill(&skill, text, &has);
        // In text order, as the engine publishes them.
        found.sort_by_key(|d| (d.range.start, d.code));
        found
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
                // ST007 (`version:`) is said once per workspace, not here
                // (`unknown_key::said_once`; e2e `rules::a_key_outside_the_specification_…`).
                ("ST009", 123, 140),
            ]
        );
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

    /// Paths that illustrate (after `for example`, `e.g.`, `such as`, `like`, in a line labelled
    /// `Examples:`, after `a`/`an`) and folder lists in prose (no file name) are not references; the
    /// same paths written plainly are (an article earlier in the line changes nothing), and a link
    /// is always one.
    #[test]
    fn examples_and_folder_lists_in_prose_are_not_references() {
        let text = "---\nname: pdf\ndescription: d\n---\nKeep one file per domain, for example references/finance.md.\nName them e.g. `references/sales.md`, such as: references/hr.md; unlike references/ops.md.\nCreate scripts/references/examples as needed.\nSee [finance](references/finance.md) and scripts/run.py.\n- **Examples**: `references/mnda.md` for NDAs, `references/policies.md` for policies\n2. A `scripts/rotate_pdf.py` script would help; an `assets/hello/` template too\nRead a file: see references/guide.md.\n";
        let found = check_with("pdf", text, &[]);
        assert_eq!(
            shown(text, &found),
            vec![
                (
                    "ST012",
                    "references/ops.md",
                    "`references/ops.md` (a path in the text) is not in the skill's folder"
                        .to_string()
                ),
                (
                    "ST012",
                    "references/finance.md",
                    "`references/finance.md` (a link) is not in the skill's folder".to_string()
                ),
                (
                    "ST012",
                    "scripts/run.py",
                    "`scripts/run.py` (a path in the text) is not in the skill's folder"
                        .to_string()
                ),
                (
                    "ST012",
                    "references/guide.md",
                    "`references/guide.md` (a path in the text) is not in the skill's folder"
                        .to_string()
                ),
            ]
        );
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
