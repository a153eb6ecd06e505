//! End-to-end tests: the real binary on `examples/demo/`, the project the README's first command
//! checks. Each planted mistake (listed in examples/demo/README.md) must be reported at its exact
//! place, and nothing else may be reported except the justified infos.

use std::path::PathBuf;

use assert_cmd::Command;
use serde_json::Value;

/// One planted mistake: workspace-relative path, rule code, 1-based line and column.
struct Planted {
    path: &'static str,
    code: &'static str,
    line: u64,
    column: u64,
}

const fn planted(path: &'static str, code: &'static str, line: u64, column: u64) -> Planted {
    Planted {
        path,
        code,
        line,
        column,
    }
}

/// The planted mistakes in skills.
const PLANTED_SKILLS: &[Planted] = &[
    // 1: `---` inside the description closes the frontmatter early.
    planted("skills/booking-summary/SKILL.md", "SK006", 3, 43),
    // 2: `NO` is the boolean false under YAML 1.1.
    planted("skills/visa-requirements/SKILL.md", "SK023", 9, 29),
];

/// Mistake 3 (folder `pdf-invoices`, name `invoice-pdf`) shows in the demo's `user` scope only
/// through mistake 7: Layer 3 serves the shared skill and stages it under its name, so its
/// `<files-root>` holds it. Under scope `agent` the namespaced repository serves it and the
/// files-root is a folder that does not exist.
const PLANTED_AGENT_SCOPE: Planted = planted("skills/pdf-invoices/SKILL.md", "SK016", 2, 7);

/// The planted mistakes in tools.json, subagents and across files.
const PLANTED_ACROSS: &[Planted] = &[
    // 4: `streamable_http` is not a transport: the `crm` server is skipped.
    planted("tools.json", "TJ012", 31, 20),
    // 5: denying `load_skill_through_path` has no effect.
    planted("tools.json", "TJ023", 20, 50),
    // 6: `workspace.mode: sandbox` falls back to isolated.
    planted("subagents/fare-auditor.md", "SA010", 6, 9),
    // 7: `skills:` names the folder `pdf-invoices`, not the skill `invoice-pdf`.
    planted("subagents/itinerary-writer.md", "XR004", 7, 27),
    // 8: Alice's `flight-search` replaces the shared one for her.
    planted("alice/skills/flight-search/SKILL.md", "XR006", 2, 7),
];

/// What the demo's tools.json really does, reported at its exact place: the `deny` of the shell
/// and the file-writing tools, and the `allow` that leaves out `web_search`, stop at the main
/// agent, while the isolated `fare-auditor` (mistake 6) registers the built-ins again; and the
/// Code Execution section still tells the model to run the skills' scripts with the denied shell.
/// What one list causes is one diagnostic at its key (the Code Execution section's TJ030 is a
/// part of the `deny` key's TJ029).
const CONSEQUENCES: &[Planted] = &[
    planted("tools.json", "TJ029", 3, 3),
    planted("tools.json", "TJ029", 20, 3),
];

/// Codes that may appear besides the planted ones, with the reason.
const ALSO_EXPECTED: &[(&str, &str)] = &[
    (
        "SK025",
        "every skill has `allowed-tools`, which the harness renders but never enforces (said once)",
    ),
    (
        "TJ020",
        "consequence of mistake 4: `allow` names the tools of the skipped `crm` server",
    ),
    (
        "SK027",
        "consequence of mistake 8: Alice's copy is advertised at the shared skill's `<files-root>`",
    ),
    (
        "CF015",
        "the desk isolates users with the local shell on: the shell reaches every user's folder",
    ),
];

fn demo_report() -> Value {
    let demo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/demo");
    report_of(&demo)
}

fn report_of(demo: &std::path::Path) -> Value {
    let output = Command::cargo_bin("agentws")
        .unwrap()
        .args(["check", "--format", "json"])
        .arg(demo)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        output.status.code(),
        Some(1),
        "the demo has errors; report:\n{stdout}"
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("invalid JSON ({e}):\n{stdout}"))
}

fn find<'a>(report: &'a Value, planted: &Planted) -> Option<&'a Value> {
    let suffix = format!(".agentscope/workspace/{}", planted.path);
    report["diagnostics"].as_array()?.iter().find(|d| {
        d["code"] == planted.code
            && d["path"].as_str().is_some_and(|p| p.ends_with(&suffix))
            && d["range"]["start"]["line"] == planted.line
            && d["range"]["start"]["column"] == planted.column
    })
}

fn assert_reported(report: &Value, expected: &[Planted]) {
    let missing: Vec<String> = expected
        .iter()
        .filter(|p| find(report, p).is_none())
        .map(|p| format!("{} {}:{}:{}", p.code, p.path, p.line, p.column))
        .collect();
    assert!(
        missing.is_empty(),
        "planted mistakes not reported:\n{}\nreport:\n{report:#}",
        missing.join("\n")
    );
}

fn assert_nothing_else(report: &Value) {
    let known = |code: &str| {
        PLANTED_SKILLS
            .iter()
            .chain(PLANTED_ACROSS)
            .chain(CONSEQUENCES)
            .any(|p| p.code == code)
            || ALSO_EXPECTED.iter().any(|(c, _)| *c == code)
    };
    let extra: Vec<String> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| !known(d["code"].as_str().unwrap_or_default()))
        .map(|d| format!("{} {} {}", d["code"], d["path"], d["message"]))
        .collect();
    assert!(
        extra.is_empty(),
        "unplanted diagnostics on the demo:\n{}",
        extra.join("\n")
    );
}

#[test]
fn demo_reports_the_planted_skill_mistakes_and_nothing_unplanned() {
    let report = demo_report();
    assert_reported(&report, PLANTED_SKILLS);
    // The skill survives the early `---` with a cut description: loaded, so a warning.
    assert_eq!(
        find(&report, &PLANTED_SKILLS[0]).unwrap()["severity"],
        "warning"
    );
    assert!(find(&report, &PLANTED_AGENT_SCOPE).is_none());
    assert_nothing_else(&report);
}

#[test]
fn demo_under_the_agent_scope_reports_the_name_folder_mismatch() {
    let demo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/demo");
    let copy = tempfile::tempdir().unwrap();
    crate::check::copy_tree(&demo, copy.path());
    let toml = copy.path().join("agentws.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("scope = \"user\"", "scope = \"agent\"")).unwrap();
    let report = report_of(copy.path());
    let found = find(&report, &PLANTED_AGENT_SCOPE).expect("SK016 under scope agent");
    assert_eq!(found["severity"], "warning");
    assert_eq!(
        found["message"],
        format!(
            "the skill is named `invoice-pdf` but its folder is `pdf-invoices`; for every call (scope `agent`) the \
             prompt tells the model its files are in `{}` (its `<files-root>`, built from the name), a folder that \
             does not exist",
            copy.path().join(".agentscope/workspace/skills/invoice-pdf").display()
        )
    );
}

#[test]
fn demo_reports_every_planted_mistake() {
    let report = demo_report();
    assert_reported(&report, PLANTED_SKILLS);
    assert_reported(&report, PLANTED_ACROSS);
    assert_nothing_else(&report);
}

#[test]
fn demo_reports_what_its_tools_json_does_not_reach() {
    let report = demo_report();
    assert_reported(&report, CONSEQUENCES);
    let messages: Vec<&str> = CONSEQUENCES
        .iter()
        .map(|p| find(&report, p).unwrap()["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        messages,
        [
            "`allow` removes `web_search` for the main agent only: the subagent `fare-auditor` is isolated (the default when its spec does not set `workspace.mode: shared`): it registers the harness built-ins again and still has it",
            "`execute`, `write_file`, `edit_file` are denied for the main agent only: the subagent `fare-auditor` is isolated (the default when its spec does not set `workspace.mode: shared`): it registers the harness built-ins again and still has them; the prompt's `## Code Execution` section still tells the model to run skill scripts with the shell tool `execute` (5 skills have files: `booking-summary`, `flight-search`, `invoice-pdf` and 2 more)",
        ]
    );
    // The subagent that keeps them is a related location of both.
    for planted in CONSEQUENCES {
        let related = &find(&report, planted).unwrap()["related"];
        assert_eq!(related.as_array().unwrap().len(), 1, "{related}");
        assert!(related[0]["path"]
            .as_str()
            .unwrap()
            .ends_with("subagents/fare-auditor.md"));
    }
    // `allowed-tools` is said once for the five skills, not once per skill.
    let sk025 = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "SK025")
        .count();
    assert_eq!(sk025, 1);
}

/// The README says what its first command prints and why it exits 1: the summary line it quotes
/// must be the one the demo check prints.
#[test]
fn the_readme_quotes_the_demo_summary() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let report = demo_report();
    let s = &report["summary"];
    let count = |key: &str, one: &str, many: &str| {
        agentws::cli::output::plural(s[key].as_u64().unwrap() as usize, one, many)
    };
    let line = format!(
        "Found {}, {}, {}.",
        count("errors", "error", "errors"),
        count("warnings", "warning", "warnings"),
        count("infos", "info", "infos")
    );
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(
        readme.contains(&format!("`{line}`")),
        "README.md should quote the demo's summary `{line}`"
    );
}
