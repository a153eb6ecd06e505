//! `agentws explain CODE`: a rule's documentation from the catalog (by code or name, any case),
//! `--list` for all rules, and the generator of `docs/rules.md` (`rules_markdown`), which a test
//! keeps in sync with the catalog. Reads only the `rules` catalog.

use clap::Args;

use super::say;
use super::{EXIT_OK, EXIT_USAGE};
use crate::base::suggest;
use crate::check::catalog;
use crate::rules::{self, Profile, Rule};

#[derive(Args, Debug)]
#[command(arg_required_else_help = true)]
pub struct ExplainArgs {
    /// Rule code (e.g. SK001) or name (e.g. skill-no-frontmatter), any case.
    #[arg(conflicts_with = "list")]
    pub code: Option<String>,
    /// List every rule: code, severity, profile, name and summary.
    #[arg(long)]
    pub list: bool,
    /// The project whose agentws.toml `[rules]` settings to show for the rule (default: the
    /// project of the current folder, when there is one).
    #[arg(long, value_name = "PATH")]
    pub project: Option<std::path::PathBuf>,
}

pub fn run(args: ExplainArgs) -> u8 {
    if args.list {
        super::output::print_stdout(&list());
        return EXIT_OK;
    }
    let Some(query) = args.code else {
        say!("error: give a rule code or name, or --list");
        return EXIT_USAGE;
    };
    match find(&query) {
        Some(rule) => {
            let path = args
                .project
                .unwrap_or_else(|| std::path::PathBuf::from("."));
            let project =
                crate::config::discover::find_project(&crate::config::discover::absolute(&path));
            let docs_url = super::rules_docs_url(&super::project::process_env());
            let mut text = explain(rule, &docs_url);
            if project.found {
                text.push_str(&project_levels(rule, &project.config));
            }
            super::output::print_stdout(&text);
            EXIT_OK
        }
        None => {
            say!("{}", unknown(&query));
            EXIT_USAGE
        }
    }
}

/// The rule with this code or name, ignoring case.
pub fn find(query: &str) -> Option<&'static Rule> {
    let query = query.trim();
    catalog::all()
        .find(|r| r.code.eq_ignore_ascii_case(query) || r.name.eq_ignore_ascii_case(query))
}

/// The text `agentws explain CODE` prints: its head names the file that declares the rule, with
/// its link; it ends with the rule's page under `docs_url`.
pub fn explain(rule: &Rule, docs_url: &str) -> String {
    let source = rule.source_file();
    format!(
        "{} {}\nseverity: {}, profile: {}\nsource: {} ({})\n\n{}\n\nRuntime: {}\n\n{}\n\n{}See {}\n",
        rule.code,
        rule.name,
        rule.severity_text(),
        rule.profile.name(),
        source,
        rules::docs::source_url(&source),
        rule.summary,
        rule.consequence,
        rule.explanation.trim_end(),
        examples_markdown(rule),
        rules::docs::rule_url(docs_url, rule.code)
    )
}

/// What the project's `[rules]` settings do to `rule`, after the rule's own text: nothing when
/// they do not name it.
pub fn project_levels(rule: &Rule, config: &crate::config::Config) -> String {
    let rules = &config.rules;
    let selects = |selector: &str| rule.code.starts_with(selector);
    let mut lines = Vec::new();
    if let Some(setting) = rules
        .levels
        .iter()
        .filter(|s| selects(&s.selector))
        .max_by_key(|s| s.selector.len())
    {
        lines.push(format!(
            "- `{}` everywhere (`[rules] {} = \"{}\"`)",
            setting.level.as_str(),
            setting.selector,
            setting.level.as_str()
        ));
    } else if rule.profile == Profile::Strict && rules.turns_on("ST") {
        lines.push("- off unless a setting below turns it on (a strict rule)".to_string());
    }
    for entry in &rules.per_path {
        if let Some(setting) = entry
            .levels
            .iter()
            .filter(|s| selects(&s.selector))
            .max_by_key(|s| s.selector.len())
        {
            lines.push(format!(
                "- `{}` for files matching `{}` (`[rules.per-path]`, `{}`)",
                setting.level.as_str(),
                entry.glob.text,
                setting.selector
            ));
        }
    }
    if lines.is_empty() {
        return String::new();
    }
    let file = config
        .file
        .as_ref()
        .map_or("agentws.toml".to_string(), |f| f.display().to_string());
    format!(
        "\nIn this project ({file}), the settings change its level:\n{}\n\
         (The most specific glob comes first, then the later one; a suppression comment in a file \
         comes after these.)\n",
        lines.join("\n")
    )
}

/// A rule's examples as Markdown: each whole triggering project (an example written over the base
/// project shows the base's files too), file by file in fenced blocks, then its fixed variant; or
/// why the rule has none. Ends with a blank line unless empty.
pub fn examples_markdown(rule: &Rule) -> String {
    let mut out = String::new();
    if let Some((_, why)) = rules::NOT_SHOWN_BY_A_WORKSPACE
        .iter()
        .find(|(code, _)| *code == rule.code)
    {
        out.push_str(&format!("No example: this rule {why}.\n\n"));
    }
    let many = rule.examples.len() > 1;
    for (i, example) in rule.examples.iter().enumerate() {
        let number = if many {
            format!(" {}", i + 1)
        } else {
            String::new()
        };
        out.push_str(&format!("**Example{number}**, reported:\n\n"));
        out.push_str(&files_markdown(&example.triggering_project()));
        out.push_str(&format!("**Fixed{number}**, not reported:\n\n"));
        out.push_str(&files_markdown(&example.fixed_project()));
    }
    out
}

/// Each file as its path and a fenced block, long enough that the text cannot close it early.
fn files_markdown(files: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (path, text) in files {
        let mut fence = String::from("```");
        while text.contains(fence.as_str()) {
            fence.push('`');
        }
        let language = match path.rsplit('.').next() {
            Some("md") => "markdown",
            Some("json") => "json",
            Some("toml") => "toml",
            Some("py") => "python",
            _ => "text",
        };
        let newline = if text.ends_with('\n') || text.is_empty() {
            ""
        } else {
            "\n"
        };
        out.push_str(&format!(
            "`{path}`:\n\n{fence}{language}\n{text}{newline}{fence}\n\n"
        ));
    }
    if files.is_empty() {
        out.push_str("(no files)\n\n");
    }
    out
}

/// The text `agentws explain --list` prints: one rule per line.
pub fn list() -> String {
    let mut out = String::new();
    for rule in catalog::all() {
        out.push_str(&format!(
            "{}  {:<7}  {:<7}  {}: {}\n",
            rule.code,
            rule.severity.as_str(),
            rule.profile.name(),
            rule.name,
            rule.summary
        ));
    }
    out
}

/// The error for an unknown code, with the closest codes and names.
pub fn unknown(query: &str) -> String {
    let suggestions = suggestions(query);
    let mut out = format!("error: no rule with code or name `{query}`");
    if !suggestions.is_empty() {
        let names: Vec<String> = suggestions
            .iter()
            .map(|r| format!("{} ({})", r.code, r.name))
            .collect();
        out.push_str(&format!("\n  did you mean: {}?", names.join(", ")));
    }
    out.push_str("\n  `agentws explain --list` lists every rule");
    out
}

/// Up to three rules whose code or name is closest to `query` (edit distance, ignoring case),
/// only those close enough to be a plausible typo.
pub fn suggestions(query: &str) -> Vec<&'static Rule> {
    let query = query.trim().to_ascii_lowercase();
    if query.len() > suggest::MAX_NAME_BYTES {
        return Vec::new();
    }
    let limit = (query.chars().count() / 3).max(2);
    let mut scored: Vec<(usize, &'static Rule)> = catalog::all()
        .filter_map(|rule| {
            let code = suggest::edit_distance(&query, &rule.code.to_ascii_lowercase(), limit);
            let name = suggest::edit_distance(&query, rule.name, limit);
            let best = code.min(name);
            (best <= limit).then_some((best, rule))
        })
        .collect();
    scored.sort_by_key(|(score, rule)| (*score, rule.code));
    scored.into_iter().take(3).map(|(_, r)| r).collect()
}

/// The whole of `docs/rules.md`, generated from the catalog.
pub fn rules_markdown() -> String {
    let mut out = String::from(
        "# Rules\n\n\
<!-- Generated from the rule catalog (server/src/check/catalog.rs) by `agentws::cli::explain::rules_markdown`.\n\
     Do not edit: run `UPDATE_EXPECT=1 cargo test -p agentws --lib rules_doc` to regenerate. -->\n\n\
Every diagnostic agentws reports names one of these rules. Severity follows what the AgentScope \
runtime does: **error** when it drops the file or entry, **warning** when it falls back to a default \
or ignores part of it, **info** when it accepts something surprising. The `harness` profile is always \
on; `--profile strict` adds the `strict` rules. `agentws explain CODE` prints the same text.\n\n\
The skill rules are checked against the test suites of the two validators of the Agent Skills \
specification, rebuilt case by case as workspaces in `tests/e2e/peer_suites.rs`: skills-ref \
(agentskills/agentskills at commit 69ef37e9424c0a7ea9dd2293b559e43ec8176379) and agnix \
(avifenesh/agnix at commit 5b26668de05951379e10476ba0cf85821fdd1ff9). Where agentws's verdict \
differs from theirs, the rule concerned says so under **Differences from the reference \
validators**, naming each case.\n\n\
| code | name | severity | profile | summary |\n|---|---|---|---|---|\n",
    );
    for rule in catalog::all() {
        out.push_str(&format!(
            "| [{}](#{}) | `{}` | {} | {} | {} |\n",
            rule.code,
            rule.code.to_ascii_lowercase(),
            rule.name,
            rule.severity.as_str(),
            rule.profile.name(),
            rule.summary.replace('|', "\\|")
        ));
    }
    for rule in catalog::all() {
        let source = rule.source_file();
        out.push_str(&format!(
            "\n<a id=\"{}\"></a>\n\n## {} `{}`\n\n**Severity:** {} · **Profile:** {} · **Source:** [{}]({})\n\n{}\n\n**Runtime:** {}\n\n{}\n{}",
            rule.code.to_ascii_lowercase(),
            rule.code,
            rule.name,
            rule.severity_text(),
            rule.profile.name(),
            source,
            rules::docs::source_url(&source),
            rule.summary,
            rule.consequence,
            rule.explanation.trim_end(),
            examples_markdown(rule)
                .strip_suffix('\n')
                .map(|s| format!("\n{s}"))
                .unwrap_or_default()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    /// A rule whose severity follows the outcome is headed with what decides it, so the demo's
    /// `warning[SK006]` does not contradict `explain SK006`; every listed code is a rule, and its
    /// own severity is one the text names.
    #[test]
    fn explain_heads_a_rule_with_its_severity_per_outcome() {
        let sk006 = find("SK006").unwrap();
        assert!(explain(sk006, "https://x").starts_with(
            "SK006 skill-dashes-in-frontmatter\nseverity: error when the runtime drops the skill (no \
             `name`, `description` or body left); warning when it loads the skill with the cut \
             value, profile: harness\n"
        ));
        let ws003 = find("WS003").unwrap();
        assert_eq!(ws003.severity_text(), "warning");
        for (code, text) in crate::rules::SEVERITY_BY_OUTCOME {
            let rule = find(code).unwrap_or_else(|| panic!("{code} is not a rule"));
            assert!(text.contains(rule.severity.as_str()), "{code}: {text}");
        }
    }

    use super::*;

    #[test]
    fn finds_by_code_or_name_in_any_case() {
        let rule = catalog::all().next().expect("the catalog has rules");
        assert_eq!(find(&rule.code.to_lowercase()).unwrap().code, rule.code);
        assert_eq!(find(&rule.name.to_uppercase()).unwrap().code, rule.code);
        assert!(find("ZZ999").is_none());
    }

    #[test]
    fn unknown_codes_suggest_the_closest_rules() {
        // A one-letter typo of an existing name comes back first.
        let rule = catalog::all().next().unwrap();
        let typo = format!("{}x", rule.name);
        assert_eq!(suggestions(&typo)[0].code, rule.code);
        assert!(suggestions("completely-unrelated-words-here").is_empty());
        assert!(unknown(&typo).contains(&format!("did you mean: {} ({})", rule.code, rule.name)));
    }

    #[test]
    fn explain_prints_every_part_of_the_rule() {
        let rule = find("WS003").unwrap();
        let text = explain(rule, "https://example.com/docs/rules.md");
        assert!(text.starts_with(&format!(
            "WS003 blank-injected-file\nseverity: warning, profile: harness\n\
             source: server/src/check/files/blank_injected_file.rs \
             ({}/blob/main/server/src/check/files/blank_injected_file.rs)\n\n",
            env!("CARGO_PKG_REPOSITORY")
        )));
        assert!(text.contains(rule.summary));
        assert!(text.contains(&format!("Runtime: {}", rule.consequence)));
        assert!(text.contains(rule.explanation));
        // The example: each file of the triggering project in a fenced block, then the fixed one.
        let triggering =
            "**Example**, reported:\n\n`.agentscope/workspace/AGENTS.md`:\n\n```markdown\n";
        let blank = "`.agentscope/workspace/MEMORY.md`:\n\n```markdown\n\n```\n\n**Fixed**, not reported:\n\n";
        let (at_example, at_blank) = (text.find(triggering).unwrap(), text.find(blank).unwrap());
        assert!(text.find(rule.explanation).unwrap() < at_example && at_example < at_blank);
        assert!(text.ends_with("```\n\nSee https://example.com/docs/rules.md#ws003\n"));
    }

    #[test]
    fn a_rule_no_project_can_show_says_why() {
        let text = explain(find("WS005").unwrap(), rules::docs::DEFAULT_DOCS_URL);
        assert!(text.contains("\n\nNo example: this rule needs a file over 16 MiB.\n\nSee "));
        assert!(!text.contains("**Example**"));
    }

    /// docs/cli.md mentions every long option of every subcommand of the binary.
    #[test]
    fn cli_doc_mentions_every_option() {
        use clap::CommandFactory;
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/cli.md");
        let doc = std::fs::read_to_string(path).unwrap();
        let cli = crate::cli::Cli::command();
        let mut missing = Vec::new();
        for sub in cli.get_subcommands() {
            if !doc.contains(&format!("agentws {}", sub.get_name())) {
                missing.push(sub.get_name().to_string());
            }
            for arg in sub.get_arguments() {
                if let Some(long) = arg.get_long() {
                    if !["help", "version"].contains(&long) && !doc.contains(&format!("--{long}")) {
                        missing.push(format!("{} --{long}", sub.get_name()));
                    }
                }
            }
        }
        assert!(
            missing.is_empty(),
            "document these in docs/cli.md: {missing:?}"
        );
    }

    /// docs/rules.md must be what the catalog generates (`base::expect`).
    #[test]
    fn rules_doc_is_generated_from_the_catalog() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rules.md");
        let actual = rules_markdown();
        crate::base::expect::assert_file(&path, &actual);
        for rule in catalog::all() {
            assert!(actual.contains(&format!(
                "<a id=\"{}\"></a>",
                rule.code.to_ascii_lowercase()
            )));
        }
    }
}
