//! Runs every rule's examples (`rules::Rule::examples`): each project is written to a temporary
//! folder, loaded by the same loader as `agentws check` and checked; the triggering project must
//! report the rule where the example says (`at`) and the fixed one must not. Also keeps the tables of rules without examples
//! honest. Here rather than in `rules`, which depends on `base` alone: running a rule needs the
//! whole check, which is the engine's.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::load_digested;
use crate::base::{Diagnostic, Env};
use crate::check::CheckOptions;
use crate::rules::{
    Base, Example, Profile, Rule, BASE, NOT_SHOWN_BY_A_WORKSPACE, NOT_YET_EXAMPLED,
};

/// The diagnostics `agentws check` would report for `files` under `profile`: the analysis's
/// report with the walk's problems, as `cli::check` gathers them.
fn diagnostics_of(files: &[(&str, &str)], profile: Profile) -> Vec<Diagnostic> {
    // Under /tmp whatever TMPDIR says: the prompt prints the project's path, so the token
    // figures the snapshot holds (WS017) depend on the length of the folder's name.
    let parent = if cfg!(unix) {
        std::path::PathBuf::from("/tmp")
    } else {
        std::env::temp_dir()
    };
    let dir = tempfile::tempdir_in(parent).unwrap();
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
    }
    let absolute = crate::config::discover::absolute(dir.path());
    let project = crate::config::discover::find_project(&absolute);
    let options = CheckOptions::new(profile);
    let (mut loaded, analysis) = load_digested(project, Arc::new(Env::new()), options);
    let mut diagnostics = analysis
        .report(&mut loaded.workspace, &loaded.walk_problems)
        .diagnostics;
    // The temporary folder's name changes with every run: the snapshot shows it as `<project>`.
    let root = dir.path().to_string_lossy().into_owned();
    for d in &mut diagnostics {
        d.message = d.message.replace(&root, "<project>");
        d.consequence = d.consequence.replace(&root, "<project>");
        if let Ok(relative) = d.path.strip_prefix(dir.path()) {
            d.path = relative.to_path_buf();
        }
    }
    diagnostics
}

/// Where `d` starts as `path:line:col` (one-based, columns in characters, as `agentws check`
/// prints), its path relative to the project whose `files` it was found in.
fn position(d: &Diagnostic, files: &[(&str, &str)]) -> String {
    let path = d.path.to_string_lossy().replace('\\', "/");
    let text = files
        .iter()
        .find(|(p, _)| *p == path)
        .map_or("", |(_, t)| *t);
    let at = crate::base::LineIndex::new(text).position(
        text,
        d.range.start,
        crate::base::Encoding::Utf32,
    );
    format!("{path}:{}:{}", at.line + 1, at.col + 1)
}

fn describe(diagnostics: &[Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| format!("{} {}: {}", d.code, d.path.display(), d.message))
        .collect()
}

/// Problems with one example of `rule`, empty when it behaves as documented; and what the rule
/// says in the triggering project, for the snapshot of every rule's words.
fn check_example(rule: &Rule, index: usize, example: &Example) -> (Vec<String>, Vec<String>) {
    let mut problems = written_over_the_base(rule, index, example);
    let triggering = example.triggering_project();
    let found = diagnostics_of(&triggering, rule.profile);
    let by_outcome = crate::rules::SEVERITY_BY_OUTCOME
        .iter()
        .any(|(code, _)| *code == rule.code);
    for d in found.iter().filter(|d| d.code == rule.code) {
        if d.severity != rule.severity && !by_outcome {
            problems.push(format!(
                "{} example {index}: reported as {}, not as the rule's {}, and the rule is not in \
                 SEVERITY_BY_OUTCOME (so `explain` would head it with the wrong severity)",
                rule.code,
                d.severity.as_str(),
                rule.severity.as_str()
            ));
        }
    }
    let said: Vec<String> = found
        .iter()
        .filter(|d| d.code == rule.code)
        .map(|d| {
            format!(
                "{} example {index} ({}): {}\n  note: {}",
                rule.code,
                d.severity.as_str(),
                d.message,
                d.consequence
            )
        })
        .collect();
    let positions: Vec<String> = found
        .iter()
        .filter(|d| d.code == rule.code)
        .map(|d| position(d, &triggering))
        .collect();
    if positions.is_empty() {
        problems.push(format!(
            "{} example {index}: the triggering project does not report it; it reports {:?}",
            rule.code,
            describe(&found)
        ));
    } else if !positions.iter().any(|at| at == example.at) {
        problems.push(format!(
            "{} example {index}: expected at {}, reported at {}",
            rule.code,
            example.at,
            positions.join(", ")
        ));
    }
    let found = diagnostics_of(&example.fixed_project(), rule.profile);
    let still: Vec<Diagnostic> = found.into_iter().filter(|d| d.code == rule.code).collect();
    if !still.is_empty() {
        problems.push(format!(
            "{} example {index}: the fixed project still reports it: {:?}",
            rule.code,
            describe(&still)
        ));
    }
    (problems, said)
}

/// Problems with how an example is written over [`BASE`]: `without` names only base files, and a
/// file that replaces a base file differs from it (else the base already says it).
fn written_over_the_base(rule: &Rule, index: usize, example: &Example) -> Vec<String> {
    let Base::Shared { without } = example.base else {
        return Vec::new();
    };
    let mut problems = Vec::new();
    for path in without
        .iter()
        .filter(|p| !BASE.iter().any(|(q, _)| q == *p))
    {
        problems.push(format!(
            "{} example {index}: `without` names {path}, which is no file of the base",
            rule.code
        ));
    }
    for (path, _) in example
        .triggering
        .iter()
        .chain(example.fixed)
        .filter(|file| BASE.contains(file))
    {
        problems.push(format!(
            "{} example {index}: {path} is the base's own file; leave it out",
            rule.code
        ));
    }
    problems
}

/// Words of the runtime's insides that a message or note must not use: a user reads what happens
/// in their terms (which folder is read, which file wins, what the model sees). `explain` and the
/// docs keep the class names, where a reader who wants them looks.
const NOT_IN_MESSAGES: &[&str] = &[
    "Layer 3",
    "Layer 4",
    "namespaced repository",
    "JVM",
    "Java `String`",
    "SnakeYAML",
    "Jackson",
    "NullPointerException",
    "IllegalArgumentException",
];

/// Every rule's examples behave as documented, and what each rule says in them is the snapshot
/// `snapshots/every_rule_s_words.txt` (reviewed when a message changes), in the
/// user's words.
#[test]
fn every_example_triggers_its_rule_and_its_fix_does_not() {
    let mut problems = Vec::new();
    let mut said = Vec::new();
    for rule in crate::check::catalog::all() {
        for (i, example) in rule.examples.iter().enumerate() {
            let (p, s) = check_example(rule, i, example);
            problems.extend(p);
            said.extend(s);
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let jargon: Vec<&String> = said
        .iter()
        .filter(|line| NOT_IN_MESSAGES.iter().any(|word| line.contains(word)))
        .collect();
    assert!(jargon.is_empty(), "{jargon:#?}");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/engine/batch/snapshots/every_rule_s_words.txt");
    crate::base::expect::assert_file(&path, &(said.join("\n") + "\n"));
}

/// The base reports nothing: what an example written over it reports is the example's.
#[test]
fn the_base_project_reports_nothing() {
    for profile in [Profile::Harness, Profile::Strict] {
        assert_eq!(
            describe(&diagnostics_of(BASE, profile)),
            Vec::<String>::new()
        );
    }
}

/// The checks of `at` and of the base's use fail on an example that breaks them.
#[test]
fn a_wrong_position_or_a_base_file_repeated_is_a_problem() {
    let rule = crate::check::catalog::all()
        .find(|r| r.code == "SK001")
        .unwrap();
    let example = &rule.examples[0];
    assert_eq!(check_example(rule, 0, example).0, Vec::<String>::new());
    let moved = Example {
        at: ".agentscope/workspace/skills/pdf/SKILL.md:2:1",
        ..*example
    };
    assert_eq!(
        check_example(rule, 0, &moved).0,
        ["SK001 example 0: expected at .agentscope/workspace/skills/pdf/SKILL.md:2:1, reported at \
          .agentscope/workspace/skills/pdf/SKILL.md:1:1"]
    );
    let repeated = Example {
        base: Base::Shared {
            without: &["AGENTS.md"],
        },
        fixed: Box::leak(Box::new([BASE[2]])),
        ..*example
    };
    assert_eq!(
        written_over_the_base(rule, 0, &repeated),
        [
            "SK001 example 0: `without` names AGENTS.md, which is no file of the base",
            "SK001 example 0: .agentscope/workspace/skills/pdf/SKILL.md is the base's own file; \
             leave it out"
        ]
    );
}

#[test]
fn every_rule_has_examples_or_is_listed_without() {
    let not_shown: BTreeSet<&str> = NOT_SHOWN_BY_A_WORKSPACE.iter().map(|(c, _)| *c).collect();
    let not_yet: BTreeSet<&str> = NOT_YET_EXAMPLED.iter().copied().collect();
    assert_eq!(
        not_shown.len(),
        NOT_SHOWN_BY_A_WORKSPACE.len(),
        "duplicates"
    );
    assert_eq!(not_yet.len(), NOT_YET_EXAMPLED.len(), "duplicates");
    let codes: BTreeSet<&str> = crate::check::catalog::all().map(|r| r.code).collect();
    for code in not_shown.iter().chain(&not_yet) {
        assert!(
            codes.contains(code),
            "{code} is listed but not in the catalog"
        );
        assert!(
            !(not_shown.contains(code) && not_yet.contains(code)),
            "{code} listed twice"
        );
    }
    let mut wrong = Vec::new();
    for rule in crate::check::catalog::all() {
        let listed = not_shown.contains(rule.code) || not_yet.contains(rule.code);
        if rule.examples.is_empty() != listed {
            wrong.push(rule.code);
        }
    }
    assert!(
        wrong.is_empty(),
        "each rule needs examples, or (without examples) a place in NOT_SHOWN_BY_A_WORKSPACE or \
         NOT_YET_EXAMPLED: {wrong:?}"
    );
}

/// Reports how many rules still wait for examples; the number is work left, not a pass mark.
#[test]
fn rules_not_yet_exampled_are_counted() {
    println!(
        "{} rules have no examples yet: {}",
        NOT_YET_EXAMPLED.len(),
        NOT_YET_EXAMPLED.join(" ")
    );
}
