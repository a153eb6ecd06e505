//! The documentation cites only what a reader can open: no reference to documents outside the
//! repository (the runtime's behaviour is cited by its source files, docs/runtime-sources.md),
//! and every relative link of docs/ and README.md names a file of the repository.

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

/// README.md and every Markdown page of docs/, with their text.
fn pages() -> Vec<(PathBuf, String)> {
    let root = root();
    let mut paths = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            paths.push(path);
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
        for target in relative_links(&text) {
            if !dir.join(target).exists() {
                broken.push(format!("{}: {target}", path.display()));
            }
        }
    }
    assert!(broken.is_empty(), "links to nothing: {broken:#?}");
}
