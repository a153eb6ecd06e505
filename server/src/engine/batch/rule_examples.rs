//! Runs every rule's examples (`rules::Rule::examples`): each project is written to a temporary
//! folder, loaded by the same loader as `agentws check` and checked; the triggering project must
//! report the rule and the fixed one must not. Also keeps the tables of rules without examples
//! honest. Here rather than in `rules`, which depends on `base` alone: running a rule needs the
//! whole check, which is the engine's.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::load_path as load;
use crate::base::{Diagnostic, Env};
use crate::check::CheckOptions;
use crate::rules::{
    Example, ExampleFiles, Profile, Rule, NOT_SHOWN_BY_A_WORKSPACE, NOT_YET_EXAMPLED,
};

/// The diagnostics `agentws check` would report for `files` under `profile`: the analysis's
/// report with the walk's problems, as `cli::check` gathers them.
fn diagnostics_of(files: ExampleFiles, profile: Profile) -> Vec<Diagnostic> {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
    }
    let (loaded, analysis) = load(dir.path(), Arc::new(Env::new()), CheckOptions::new(profile));
    analysis
        .report(&loaded.workspace, &loaded.walk_problems)
        .diagnostics
}

fn describe(diagnostics: &[Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| format!("{} {}: {}", d.code, d.path.display(), d.message))
        .collect()
}

/// Problems with one example of `rule`, empty when it behaves as documented.
fn check_example(rule: &Rule, index: usize, example: &Example) -> Vec<String> {
    let mut problems = Vec::new();
    let found = diagnostics_of(example.triggering, rule.profile);
    if !found.iter().any(|d| d.code == rule.code) {
        problems.push(format!(
            "{} example {index}: the triggering project does not report it; it reports {:?}",
            rule.code,
            describe(&found)
        ));
    }
    let found = diagnostics_of(example.fixed, rule.profile);
    let still: Vec<Diagnostic> = found.into_iter().filter(|d| d.code == rule.code).collect();
    if !still.is_empty() {
        problems.push(format!(
            "{} example {index}: the fixed project still reports it: {:?}",
            rule.code,
            describe(&still)
        ));
    }
    problems
}

#[test]
fn every_example_triggers_its_rule_and_its_fix_does_not() {
    let problems: Vec<String> = crate::check::catalog::all()
        .flat_map(|rule| {
            rule.examples
                .iter()
                .enumerate()
                .flat_map(move |(i, example)| check_example(rule, i, example))
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
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
