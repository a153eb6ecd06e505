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

/// Runs `scripts/corpus-page` with `args` under the test's Python (`AGENTWS_PYTHON`, which
/// `.ci/run` sets, else `python3`; the script needs 3.11 for `tomllib`).
fn corpus_page(args: &[&std::ffi::OsStr]) -> std::process::Output {
    let python = std::env::var_os("AGENTWS_PYTHON").unwrap_or_else(|| "python3".into());
    std::process::Command::new(python)
        .arg(root().join("scripts/corpus-page"))
        .args(args)
        .output()
        .expect("python3 runs scripts/corpus-page")
}

/// docs/corpus.md is what `scripts/corpus-page page` makes of the committed runs, corpora and
/// verdicts (docs/corpus/), byte for byte: no corpus is needed, and the page cannot drift from
/// the runs it reports. `UPDATE_EXPECT=1` rewrites it (as `scripts/corpus-page page` does).
#[test]
fn corpus_page_is_generated_from_the_committed_runs() {
    let out = corpus_page(&["page".as_ref(), "--stdout".as_ref()]);
    assert!(
        out.status.success(),
        "scripts/corpus-page page failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = String::from_utf8(out.stdout).unwrap();
    crate::expect::assert_file(&root().join("docs/corpus.md"), &expected);
}

/// A copy of docs/corpus/ (corpora.toml, verdicts.toml, runs/) in a temporary folder.
fn corpus_data_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let from = root().join("docs/corpus");
    std::fs::create_dir(dir.path().join("runs")).unwrap();
    for name in ["corpora.toml", "verdicts.toml"] {
        std::fs::copy(from.join(name), dir.path().join(name)).unwrap();
    }
    for entry in std::fs::read_dir(from.join("runs")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(
            &path,
            dir.path().join("runs").join(path.file_name().unwrap()),
        )
        .unwrap();
    }
    dir
}

/// A code a run reports with no verdict stops the generator, naming the corpus and the code;
/// with `--allow-unjudged` it reaches the page marked "not judged". A verdict no run uses stops
/// it too.
#[test]
fn corpus_page_refuses_an_unjudged_finding_and_a_stale_verdict() {
    let data = corpus_data_copy();
    let dir = data.path().as_os_str();
    let page = |extra: &[&str]| {
        let mut args: Vec<&std::ffi::OsStr> =
            vec!["page".as_ref(), "--stdout".as_ref(), "--data".as_ref(), dir];
        args.extend(extra.iter().map(|a| std::ffi::OsStr::new(*a)));
        corpus_page(&args)
    };
    // The copy generates the committed page.
    let out = page(&[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // A new finding on one corpus, with no verdict.
    let run = data.path().join("runs/openai-skills.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&run).unwrap()).unwrap();
    json["check"]["harness"]["codes"]["ZZ999"] = serde_json::json!({ "warning": 2 });
    std::fs::write(&run, serde_json::to_string(&json).unwrap()).unwrap();
    let out = page(&[]);
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "no verdict for ZZ999 on openai-skills (add [openai-skills.ZZ999] to \
         docs/corpus/verdicts.toml)\n"
    );
    let out = page(&["--allow-unjudged"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("| ZZ999 | warning | 2 | – | **not judged** | (no verdict yet) |"),
        "{text}"
    );

    // Judged, it goes through; a judgement of a finding no run reports stops it.
    let verdicts = data.path().join("verdicts.toml");
    let mut toml = std::fs::read_to_string(&verdicts).unwrap();
    toml.push_str("\n[openai-skills.ZZ999]\nverdict = \"right\"\nwhy = \"Test.\"\n");
    toml.push_str("\n[openai-skills.ZZ998]\nverdict = \"right\"\nwhy = \"Gone.\"\n");
    std::fs::write(&verdicts, toml).unwrap();
    let out = page(&[]);
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "verdict [openai-skills.ZZ998] is used by no run: remove or re-key it\n"
    );
}

/// A verdict that names which findings are false pins the counts it was judged at: when a run
/// reports another count of that code, the generator stops until someone reads them again.
#[test]
fn corpus_page_refuses_a_verdict_judged_at_other_counts() {
    let data = corpus_data_copy();
    let run = data.path().join("runs/davila7-skills.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&run).unwrap()).unwrap();
    json["check"]["harness"]["codes"]["XR017"] = serde_json::json!({ "warning": 6 });
    std::fs::write(&run, serde_json::to_string(&json).unwrap()).unwrap();
    let out = corpus_page(&[
        "page".as_ref(),
        "--stdout".as_ref(),
        "--data".as_ref(),
        data.path().as_os_str(),
    ]);
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "XR017 on davila7-skills was judged at counts = [5, 5], the run has [6, 5]: read the \
         findings again, then update [davila7-skills.XR017]\n"
    );
}
