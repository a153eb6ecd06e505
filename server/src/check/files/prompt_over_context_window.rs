//! WS017 `prompt-over-context-window`: the system prompt, rendered as the runtime renders it for
//! each kind of caller, is larger than the main agent's context window (`[agent] model` or
//! `[agent] context_window`; windows from `workspace::models`).
//!
//! The prompt goes with every call, so its size is what each call pays before any conversation;
//! the skill catalog is usually most of it, and the finding says which skills cost most. Only a
//! project that names its model or window is checked: agentws cannot see the model the
//! application builds.

use std::collections::BTreeSet;
use std::path::Path;

use crate::base::{Diagnostic, Severity, TextRange};
use crate::config::{Config, Scope};
use crate::prompt::{measure, Date, PreviewContext, PromptSize, SizeMemo};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::{models, Tree, Workspace};

declare_rule! {
    code: "WS017",
    name: "prompt-over-context-window",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "The system prompt is larger than the main agent's context window.",
    consequence: "Every call carries the whole system prompt: a prompt larger than the model's context window leaves no room for the conversation, and the provider refuses the call.",
    explanation: "agentws renders the prompt for callers without a per-user folder and for each \
per-user folder, and counts tokens as the runtime estimates them (UTF-16 length / 4; a model's \
tokenizer differs). The window is `[agent] context_window` if set, else the one the runtime's \
`ModelContextWindows` gives `[agent] model`. The skill catalog is usually most of the prompt: \
shorten the longest descriptions and metadata, move skills only some users need into their \
per-user folders, or give the agent a model with a larger window. A subagent's prompt is not \
weighed: the runtime builds it over the subagent's own workspace.",
    examples: &[Example {
        base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
        triggering: &[
            ("agentws.toml", r#"[agent]
name = "release"
model = "openai:gpt-4o"
context_window = 2860
"#),
            (".agentscope/workspace/skills/changelog/SKILL.md", r#"---
name: changelog
description: Writes the changelog of a release from the merged pull requests. Groups them by area (server, editors, docs, build), names every breaking change first with its migration step, links each entry to its pull request, credits first-time contributors, leaves out dependency bumps unless they change behaviour, and keeps the wording of the previous releases so that readers can compare them line by line. Use it for every release and every release candidate, and again when a pull request is reverted after the changelog was written.
---
Read the merged pull requests since the last tag.
"#),
            (".agentscope/workspace/skills/release-notes/SKILL.md", r#"---
name: release-notes
description: Writes the release notes users read, from the changelog of the release. Leads with what changed for them, not for the maintainers; explains each new setting with an example; says which editors and which operating systems each change reaches; keeps internal refactorings, test changes and build changes out; ends with the upgrade steps and the known problems of the release, each with its workaround and the issue that tracks it. Use it after the changelog is written and reviewed.
---
Start from the reviewed changelog.
"#),
        ],
        fixed: &[
            ("agentws.toml", r#"[agent]
name = "release"
model = "openai:gpt-4o"
context_window = 2860
"#),
            (".agentscope/workspace/skills/changelog/SKILL.md", r#"---
name: changelog
description: Writes a release's changelog from its merged pull requests.
---
Read the merged pull requests since the last tag. Group them by area, breaking changes first.
"#),
            (".agentscope/workspace/skills/release-notes/SKILL.md", r#"---
name: release-notes
description: Writes a release's notes for users from its changelog.
---
Start from the reviewed changelog. Lead with what changed for users; end with the upgrade steps.
"#),
        ],
        at: "agentws.toml:4:18",
    }],
}

/// How many of the costliest skills the finding names.
const COSTLIEST_SHOWN: usize = 3;
/// How many other callers over the window the finding names.
const OTHERS_SHOWN: usize = 5;

/// The context window the project gives the main agent's model, what sets it, and where
/// agentws.toml writes that.
struct Window<'a> {
    tokens: usize,
    /// What sets it, as the message says it (`of `openai:gpt-4o``).
    set_by: String,
    file: &'a Path,
    at: TextRange,
}

fn window(config: &Config) -> Option<Window<'_>> {
    let agent = &config.agent;
    let file = config.file.as_deref()?;
    if let Some((tokens, at)) = agent.context_window {
        return Some(Window {
            tokens: tokens as usize,
            set_by: "that `context_window` gives the model".to_string(),
            file,
            at,
        });
    }
    let (model, at) = agent.model.as_ref()?;
    let tokens = models::context_window(model)?;
    Some(Window {
        tokens: tokens as usize,
        set_by: format!("of `{model}`"),
        file,
        at: *at,
    })
}

/// Whether the project names a context window agentws knows: only then is the prompt rendered.
pub fn names_a_window(config: &Config) -> bool {
    window(config).is_some()
}

/// One kind of caller whose prompt differs: those without a per-user folder, or one folder's.
fn callers(workspace: &Workspace) -> Vec<Option<String>> {
    let folders: BTreeSet<&str> = workspace
        .kinds
        .values()
        .filter_map(|(location, _)| match &location.tree {
            Tree::Namespace(ns) => Some(ns.as_str()),
            Tree::Shared | Tree::Project => None,
        })
        .collect();
    std::iter::once(None)
        .chain(folders.into_iter().map(|ns| Some(ns.to_string())))
        .collect()
}

/// The context the rule renders `folder`'s callers' prompt for.
fn context_for(config: &Config, folder: Option<&str>) -> PreviewContext {
    let date = Date::parse("2026-01-01").expect("valid date");
    let mut ctx = PreviewContext::new(config, date, "Linux", "/tmp");
    match folder {
        // The id the scope takes its namespace from; the other id keeps its default, as
        // `agentws preview --user` leaves the session.
        Some(ns) if config.scope == Scope::Session => ctx.session.session_id = Some(ns.into()),
        Some(ns) => ctx.session.user_id = Some(ns.into()),
        None => ctx.session.session_id = Some("_agentws-no-folder".into()),
    }
    ctx
}

fn caller_name(scope: Scope, folder: Option<&str>) -> String {
    match (scope, folder) {
        (_, None) => "callers without a per-user folder".to_string(),
        (Scope::Session, Some(ns)) => format!("session `{ns}`"),
        (_, Some(ns)) => format!("user `{ns}`"),
    }
}

pub fn check(workspace: &Workspace) -> Vec<Diagnostic> {
    let Some(window) = window(&workspace.config) else {
        return Vec::new();
    };
    let mut memo = SizeMemo::default();
    // Each prompt is measured, not written: a project's prompt can be megabytes per caller, and
    // only its size and its catalog's costliest entries are said. The others over the window are
    // named after the largest, in caller order.
    let mut largest: Option<(Option<String>, PromptSize)> = None;
    let mut over: Vec<Option<String>> = Vec::new();
    for folder in callers(workspace) {
        let ctx = context_for(&workspace.config, folder.as_deref());
        let Ok(size) = measure(workspace, &ctx, &mut memo, COSTLIEST_SHOWN) else {
            continue;
        };
        if size.estimated_tokens <= window.tokens {
            continue;
        }
        over.push(folder.clone());
        let larger = largest
            .as_ref()
            .is_none_or(|(_, kept)| size.estimated_tokens > kept.estimated_tokens);
        if larger {
            largest = Some((folder, size));
        }
    }
    let Some((folder, size)) = &largest else {
        return Vec::new();
    };
    let mut message = format!(
        "The system prompt for {} is about {} tokens, more than the {}-token context window {}",
        caller_name(workspace.config.scope, folder.as_deref()),
        size.estimated_tokens,
        window.tokens,
        window.set_by
    );
    if let Some(cost) = &size.catalog {
        let tokens = cost.estimated_tokens;
        message.push_str(&match cost.skills {
            1 => format!("; the skill catalog is {tokens} of them (1 skill)"),
            skills => {
                let named = cost
                    .costliest
                    .iter()
                    .map(|(name, tokens)| format!("`{name}` ({tokens})"))
                    .collect::<Vec<_>>()
                    .join(", ");
                format!("; the skill catalog is {tokens} of them ({skills} skills), the costliest {named}")
            }
        });
    }
    let others: Vec<String> = over
        .iter()
        .filter(|other| *other != folder)
        .map(|other| caller_name(workspace.config.scope, other.as_deref()))
        .collect();
    if !others.is_empty() {
        let shown = others
            .iter()
            .take(OTHERS_SHOWN)
            .cloned()
            .collect::<Vec<_>>();
        let more = others.len() - shown.len();
        message.push_str(&format!("; also over it: {}", shown.join(", ")));
        if more > 0 {
            message.push_str(&format!(" and {more} more"));
        }
    }
    vec![RULE.at(window.file, window.at, message)]
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::path::Path;

    use crate::base::TextRange;
    use crate::config::{Config, FilesystemMode, Scope};
    use crate::prompt::{
        estimate_tokens, measure, render, CatalogSize, Preview, PromptSize, SizeMemo,
    };
    use crate::workspace::Workspace;

    const WS: &str = "/p/.agentscope/workspace";

    fn skill(name: &str, words: usize) -> (String, String) {
        let description = "Checks one more thing before a release. ".repeat(words);
        (
            format!("{WS}/skills/{name}/SKILL.md"),
            format!("---\nname: {name}\ndescription: {description}\n---\nBody.\n"),
        )
    }

    fn project(model: Option<&str>, files: Vec<(String, String)>) -> Workspace {
        let mut config = Config::defaults_for(Path::new("/p"));
        config.file = Some("/p/agentws.toml".into());
        config.agent.name = Some("release".into());
        config.agent.model = model.map(|m| (m.to_string(), TextRange::new(30, 53)));
        let mut files = files;
        files.push((
            format!("{WS}/AGENTS.md"),
            "You help with releases.\n".into(),
        ));
        Workspace::from_texts(config, files)
    }

    /// 40 shared skills of about 200 tokens, a costlier one, and a per-user folder with one
    /// more skill: over the 8192 tokens of `kimi:moonshot-v1-8k` for everyone, said once, of
    /// the largest prompt.
    fn crowded() -> Vec<(String, String)> {
        let mut files: Vec<_> = (0..40)
            .map(|i| skill(&format!("check-{i:02}"), 20))
            .collect();
        files.push(skill("audit", 60));
        files.push(skill("alice-only", 30));
        let (path, text) = files.pop().unwrap();
        files.push((path.replace("/skills/", "/alice/skills/"), text));
        files.push((format!("{WS}/bob/AGENTS.md"), "Bob's releases.\n".into()));
        files
    }

    #[test]
    fn the_largest_prompt_is_said_once_with_its_costliest_skills_and_the_other_callers() {
        let found = super::check(&project(Some("kimi:moonshot-v1-8k"), crowded()));
        let [d] = found.as_slice() else {
            panic!("{found:?}")
        };
        assert_eq!(d.path, Path::new("/p/agentws.toml"));
        assert_eq!(d.range, TextRange::new(30, 53));
        assert_eq!(
            d.message,
            "The system prompt for user `alice` is about 13926 tokens, more than the 8192-token \
             context window of `kimi:moonshot-v1-8k`; the skill catalog is 11610 of them \
             (42 skills), the costliest `audit` (656), `alice-only` (349), `check-00` (258); also \
             over it: callers without a per-user folder, user `bob`"
        );
    }

    /// What the full render says of a prompt, read from its text as the rule once read it: the
    /// measure must say the same.
    fn rendered_size(ws: &Workspace, preview: &Preview) -> PromptSize {
        let catalog = preview.sections.iter().find(|s| s.kind == "skills").map(|section| {
            let text = &preview.text[section.range.start..section.range.end];
            let names: HashMap<&Path, &str> = ws
                .skills
                .iter()
                .filter_map(|doc| Some((doc.path.as_path(), doc.name.as_deref()?)))
                .collect();
            let list = text
                .split_once("<available_skills>\n\n")
                .map_or("", |(_, list)| list);
            let entries = list
                .split_inclusive("</skill>\n\n")
                .filter(|entry| entry.starts_with("<skill>"));
            let mut costs: Vec<(String, usize)> = entries
                .zip(&section.sources)
                .map(|(entry, source)| {
                    let name = names
                        .get(Path::new(&*source.path))
                        .map_or_else(|| source.path.to_string(), |name| name.to_string());
                    (name, estimate_tokens(entry))
                })
                .collect();
            assert_eq!(costs.len(), section.sources.len());
            let skills = costs.len();
            costs.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            costs.truncate(super::COSTLIEST_SHOWN);
            CatalogSize {
                estimated_tokens: section.estimated_tokens,
                skills,
                costliest: costs,
            }
        });
        PromptSize {
            estimated_tokens: preview.estimated_tokens,
            catalog,
        }
    }

    /// The files the property test draws: shared skills whose names tie and shadow, a nested
    /// one, a hidden one, project skills (one with a shared twin), per-user skills that replace
    /// and add, per-user and shared context files, and a subagent.
    const DRAWN: &[&str] = &[
        "{W}/skills/s0/SKILL.md",
        "{W}/skills/s1/SKILL.md",
        "{W}/skills/s2/SKILL.md",
        "{W}/skills/s3/SKILL.md",
        "{W}/skills/g/deep/SKILL.md",
        "{W}/skills/_drafts/x/SKILL.md",
        "/p/skills/s1/SKILL.md",
        "/p/skills/p/SKILL.md",
        "{W}/alice/skills/s0/SKILL.md",
        "{W}/alice/skills/n/SKILL.md",
        "{W}/bob/skills/q/SKILL.md",
        "{W}/carol/AGENTS.md",
        "{W}/AGENTS.md",
        "{W}/subagents/r0.md",
    ];

    /// The text of drawn file `slot` for `choice`; `None`: the file is absent.
    fn drawn_text(slot: usize, choice: usize) -> Option<String> {
        let path = DRAWN[slot];
        if choice == 0 {
            return None;
        }
        if path.ends_with("AGENTS.md") {
            return Some(format!("Be brief about {}.\n", "releases ".repeat(choice)));
        }
        if path.contains("/subagents/") {
            return Some(format!("---\nname: r\ndescription: reviews {choice}\n---\nbody\n"));
        }
        let name = ["a", "b", "c", "d", "e", "yes"][choice % 6];
        // Descriptions that escape, count two UTF-16 units per character, or are long; metadata
        // with a date, nested values and a key that is no XML name.
        let description = [
            "Checks a <release> & its \"notes\"".to_string(),
            "Résumé 😀 of the day".to_string(),
            "Writes the changelog. ".repeat(choice * 3),
            "d".to_string(),
        ][choice % 4]
            .clone();
        let metadata = [
            "",
            "created: 2024-03-01\n",
            "metadata:\n  owner: ops\n  tags: [a, b]\n",
            "my key: value\n",
            "when: 2024-03-01T10:00:00Z\n",
        ][choice % 5];
        match choice % 7 {
            // Dropped: no frontmatter.
            6 => Some("no frontmatter\n".to_string()),
            _ => Some(format!(
                "---\nname: {name}\ndescription: {description}\n{metadata}---\nbody {choice}\n"
            )),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// For every caller the rule weighs, the measure equals the full render: the prompt's
        /// tokens, the catalog's tokens and count, and its costliest entries.
        #[test]
        fn the_measure_equals_the_full_render_for_every_caller(
            choices in proptest::collection::vec(0usize..40, DRAWN.len()),
            session_scope: bool,
            sandbox: bool,
            project_glob: bool,
            code_execution_root in proptest::sample::select(vec!["/workspace", "/work space"]),
        ) {
            let mut config = Config::defaults_for(Path::new("/p"));
            config.agent.name = Some("assistant".into());
            config.scope = if session_scope { Scope::Session } else { Scope::User };
            config.features.default_workspace_skills = project_glob;
            if sandbox {
                config.filesystem.mode = FilesystemMode::Sandbox;
                config.filesystem.sandbox_root = Some(code_execution_root.to_string());
            }
            let files = choices.iter().enumerate().filter_map(|(slot, &choice)| {
                let text = drawn_text(slot, choice)?;
                Some((DRAWN[slot].replace("{W}", WS), text))
            });
            let ws = Workspace::from_texts(config, files.collect::<Vec<_>>());
            let mut memo = SizeMemo::default();
            for folder in super::callers(&ws) {
                let ctx = super::context_for(&ws.config, folder.as_deref());
                let rendered = render(&ws, &ctx).map(|preview| rendered_size(&ws, &preview));
                let measured = measure(&ws, &ctx, &mut memo, super::COSTLIEST_SHOWN);
                proptest::prop_assert_eq!(measured.ok(), rendered.ok(), "{:?}", folder);
            }
        }
    }

    #[test]
    fn nothing_without_a_known_window_or_under_it() {
        // No model named; a model whose window the runtime does not know; a window that holds it.
        assert!(super::check(&project(None, crowded())).is_empty());
        assert!(super::check(&project(Some("ollama:llama3"), crowded())).is_empty());
        assert!(super::check(&project(Some("openai:gpt-4o"), crowded())).is_empty());
    }
}
