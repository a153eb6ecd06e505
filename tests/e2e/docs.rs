//! The documentation cites only what a reader can open: no reference to documents outside the
//! repository (the runtime's behaviour is cited by its source files, docs/runtime-sources.md),
//! and every relative link of README.md, docs/ and the examples' and editors' READMEs names a
//! file of the repository.

use std::path::{Path, PathBuf};

use crate::support::fixture;

/// Names of documents that exist only outside the repository.
const OUTSIDE: &[&str] = &[
    "harness-spec",
    "design-notes",
    "design notes",
    "remote-stores.md",
    "/work/shared",
    "shared/reference",
];

fn root() -> PathBuf {
    fixture("../..").canonicalize().unwrap()
}

/// Markdown files below `dir` (recursively), skipping dependency folders.
fn markdown_below(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "node_modules") {
                markdown_below(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// README.md, every Markdown page of docs/ and the READMEs of the examples and editor
/// integrations, with their text.
fn pages() -> Vec<(PathBuf, String)> {
    let root = root();
    let mut paths = vec![root.join("README.md")];
    markdown_below(&root.join("docs"), &mut paths);
    for parent in ["examples", "editors"] {
        for entry in std::fs::read_dir(root.join(parent)).unwrap() {
            let readme = entry.unwrap().path().join("README.md");
            if readme.is_file() {
                paths.push(readme);
            }
        }
    }
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

#[test]
fn docs_cite_no_document_outside_the_repository() {
    let mut found = Vec::new();
    for (path, text) in pages() {
        for (n, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            for name in OUTSIDE {
                if lower.contains(name) {
                    found.push(format!("{}:{}: {name}", path.display(), n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "references a reader cannot open: {found:#?}"
    );
}

/// The text outside fenced code blocks and inline code spans (code shows a link, it is not one).
fn outside_code(text: &str) -> String {
    let mut out = String::new();
    // The opening fence's length while inside a fenced block: a run of at least that many
    // backticks alone on a line closes it (CommonMark), so a ```` fence can hold ``` lines.
    let mut fence: Option<usize> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let ticks = trimmed.len() - trimmed.trim_start_matches('`').len();
        match fence {
            Some(open) => {
                if ticks >= open && trimmed[ticks..].trim().is_empty() {
                    fence = None;
                }
            }
            None if ticks >= 3 => fence = Some(ticks),
            None => out.extend(line.split('`').step_by(2).chain(["\n"])),
        }
    }
    out
}

#[test]
fn links_in_code_are_not_links() {
    let text = "[a](one.md) `[b](two.md)`\n````markdown\n```\n[c](three.md)\n```\n[d](four.md)\n````\n[e](five.md)\n";
    assert_eq!(relative_links(&outside_code(text)), ["one.md", "five.md"]);
}

/// The targets of `](target)` links that are not URLs or anchors of the same page.
fn relative_links(text: &str) -> Vec<&str> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .map(|target| target.split('#').next().unwrap_or(target))
        .filter(|target| !target.is_empty() && !target.contains("://") && !target.contains(' '))
        .collect()
}

#[test]
fn relative_links_name_files_of_the_repository() {
    let mut broken = Vec::new();
    for (path, text) in pages() {
        let dir = path.parent().unwrap_or(Path::new("."));
        let prose = outside_code(&text);
        for target in relative_links(&prose) {
            if !dir.join(target).exists() {
                broken.push(format!("{}: {target}", path.display()));
            }
        }
    }
    assert!(broken.is_empty(), "links to nothing: {broken:#?}");
}
