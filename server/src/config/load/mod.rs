//! Parsing `agentws.toml` text into a [`Config`](super::Config), with a diagnostic per unknown key,
//! wrong type or invalid value (rules `CF…`), keeping the defaults for everything else.
//!
//! Every key is optional. Relative paths (`workspace`, `project`, `filesystem.additional_roots`,
//! `agent.system_prompt_file`) are resolved against the folder of agentws.toml. A value that is
//! wrong is reported and replaced by the runtime's default, so one typo never hides the rest.
//! Reading `system_prompt_file` is the only disk access (configuration loading is an edge).
//!
//! One file per rule, declaration beside detection ([`RULES`]): each adds to the [`Loader`] the
//! methods that report it (`unknown`, `wrong_type`, `non_blank`, …), which the reading below
//! calls. Depends on `base` and `rules`.

use std::ops::Range;
use std::path::{Path, PathBuf};

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::schema;
use super::*;
use crate::base::{Diagnostic, FileContent, TextRange};
use crate::rules::workspace::too_many_problems::Capped;
use crate::rules::{declare_family, Rule};

// The agentws.toml rules (`CF…`) the loader reports (CF012, about a configured file's place,
// is `check::files`').
declare_family! {
    mod config_syntax;                        // CF001
    mod config_unknown_key;                   // CF002
    mod config_wrong_type;                    // CF003
    mod config_invalid_value;                 // CF004
    mod config_system_prompt_conflict;        // CF005
    mod config_system_prompt_file_unreadable; // CF006
    mod config_agent_name_missing;            // CF007
    mod config_sandbox_root_invalid;          // CF008
    mod config_sandbox_roots_conflict;        // CF009
    mod config_max_context_tokens;            // CF010
    mod config_blank_value;                   // CF011
    pub mod build_file_version_unread;        // CF014
}

type Table<'i> = DeTable<'i>;
type Item<'i> = Spanned<DeValue<'i>>;

/// Loads the configuration in `file` (absolute path) whose content is `content`.
pub fn load(file: &Path, content: &FileContent) -> (Config, Vec<Diagnostic>) {
    let dir = file.parent().unwrap_or(Path::new("/"));
    let mut config = Config::defaults_for(dir);
    config.file = Some(file.to_path_buf());
    let mut loader = Loader {
        file,
        dir,
        diagnostics: Capped::default(),
    };
    let text = match content {
        FileContent::Text(text) => text,
        FileContent::NotRegular { .. } => {
            let diagnostic = crate::rules::workspace::not_a_regular_file::RULE
                .at(
                    file,
                    TextRange::empty(0),
                    format!("agentws.toml {}", why_no_text(content)),
                )
                .with_consequence(
                    "agentws did not open it and checks the workspace with the runtime's defaults.",
                );
            loader.diagnostics.push(diagnostic);
            return (config, loader.finish());
        }
        other => {
            loader.no_text(other);
            return (config, loader.finish());
        }
    };
    if loader.syntax_pass(text) {
        return (config, loader.finish());
    }
    // Syntax clean: what is left to find is in the values (escapes, numbers, dates, keys defined
    // twice).
    let (table, errors) = DeTable::parse_recoverable(text);
    if !errors.is_empty() {
        loader.syntax_errors(errors, text.len());
        return (config, loader.finish());
    }
    loader.read(table.get_ref(), &mut config);
    (config, loader.finish())
}

/// Why a configuration file read gave no text, as the end of a sentence about the file.
fn why_no_text(content: &FileContent) -> String {
    match content {
        FileContent::NotUtf8 { .. } => "is not UTF-8 text".into(),
        FileContent::TooLarge { size } => format!("is too large ({size} bytes)"),
        FileContent::Unreadable { error } => format!("cannot be read: {error}"),
        FileContent::NotRegular { kind } => {
            format!("is {kind}, not a regular file; agentws did not open it")
        }
        FileContent::Text(_) | FileContent::NotLoaded => "was not loaded".into(),
    }
}

fn clamp(span: Range<usize>, len: usize) -> TextRange {
    let start = span.start.min(len);
    TextRange::new(start, span.end.clamp(start, len))
}

fn span_of<T>(spanned: &Spanned<T>) -> TextRange {
    let span = spanned.span();
    TextRange::new(span.start, span.end)
}

fn type_name(value: &DeValue) -> &'static str {
    match value {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date-time",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

struct Loader<'a> {
    file: &'a Path,
    dir: &'a Path,
    /// Capped per file (`rules::workspace::too_many_problems`): a file of repeated mistakes
    /// holds no more than the cap.
    diagnostics: Capped,
}

/// The key table's entry for a dotted name (`harness`, `filesystem.mode`).
fn key_spec(name: &str) -> Option<&'static schema::KeySpec> {
    match name.split_once('.') {
        Some((table, key)) => schema::find(Some(table), key),
        None => schema::find(None, name),
    }
}

/// What replaces a value the loader refuses, as the clause that ends its message: the key's
/// default from the key table, named (a newcomer should not have to look it up).
fn fallback(name: &str) -> String {
    if name.ends_with(" entries") {
        return "; the entry is ignored".into();
    }
    if name.starts_with("rules.") && name != "rules.require-reason" {
        return "; the setting is ignored".into();
    }
    if name == "harness" {
        return "; the release the build file names is used, else the newest agentws models".into();
    }
    if schema::TABLES.iter().any(|(table, _)| *table == name) {
        return "; every key of it keeps its default".into();
    }
    let Some(spec) = key_spec(name) else {
        return "; the default is used".into();
    };
    match (spec.default, spec.doc.split_once("default: ")) {
        (Some(default), _) => format!("; the default {default} is used"),
        (None, Some((_, rest))) => format!(
            "; the default ({}) is used",
            rest.split('.').next().unwrap_or(rest)
        ),
        (None, None) => "; it stays unset".into(),
    }
}

impl Loader<'_> {
    fn finish(self) -> Vec<Diagnostic> {
        self.diagnostics.finish(self.file)
    }

    fn push(&mut self, rule: &'static Rule, range: TextRange, message: impl Into<String>) {
        self.diagnostics.push(rule.at(self.file, range, message));
    }

    fn resolve(&self, path: &str) -> PathBuf {
        let joined = self.dir.join(path);
        std::path::absolute(&joined).unwrap_or(joined)
    }

    fn string(&mut self, name: &str, item: &Item) -> Option<String> {
        match item.get_ref() {
            DeValue::String(s) => Some(s.to_string()),
            _ => {
                self.wrong_type(name, item, "a string");
                None
            }
        }
    }

    fn boolean(&mut self, name: &str, item: &Item) -> Option<bool> {
        match item.get_ref() {
            DeValue::Boolean(b) => Some(*b),
            _ => {
                self.wrong_type(name, item, "a boolean (true or false)");
                None
            }
        }
    }

    fn strings(&mut self, name: &str, item: &Item) -> Option<Vec<(String, TextRange)>> {
        let DeValue::Array(items) = item.get_ref() else {
            self.wrong_type(name, item, "an array of strings");
            return None;
        };
        let mut out = Vec::new();
        for element in items {
            match element.get_ref() {
                DeValue::String(s) => out.push((s.to_string(), span_of(element))),
                _ => self.wrong_type(&format!("{name} entries"), element, "strings"),
            }
        }
        Some(out)
    }

    /// A value of one of the key table's choices for `name` (`table.key`).
    fn choice<T>(&mut self, name: &str, item: &Item, parse: fn(&str) -> Option<T>) -> Option<T> {
        let value = self.string(name, item)?;
        let parsed = parse(&value);
        if parsed.is_none() {
            self.not_a_choice(name, item, &value);
        }
        parsed
    }

    fn table<'t, 'i>(&mut self, name: &str, item: &'t Item<'i>) -> Option<&'t Table<'i>> {
        match item.get_ref() {
            DeValue::Table(table) => Some(table),
            _ => {
                self.wrong_type(name, item, "a table");
                None
            }
        }
    }

    fn read(&mut self, root: &Table, config: &mut Config) {
        // `project` first: the default workspace hangs below it.
        if let Some(item) = root.get("project") {
            if let Some(project) = self.non_blank("project", item) {
                config.project = self.resolve(&project);
            }
        }
        config.workspace = config.project.join(DEFAULT_WORKSPACE_DIR);
        let mut agent_header = None;
        for (key, item) in root.iter() {
            match key.get_ref().as_ref() {
                "project" => {}
                "workspace" => {
                    if let Some(workspace) = self.non_blank("workspace", item) {
                        config.workspace = self.resolve(&workspace);
                    }
                }
                "harness" => self.read_harness(item, config),
                "agent" => {
                    agent_header = Some(span_of(key));
                    if let Some(table) = self.table("agent", item) {
                        self.read_agent(table, config);
                    }
                }
                "isolation" => {
                    if let Some(table) = self.table("isolation", item) {
                        for (key, item) in table.iter() {
                            match key.get_ref().as_ref() {
                                "scope" => {
                                    if let Some(scope) =
                                        self.choice("isolation.scope", item, Scope::parse)
                                    {
                                        config.scope = scope;
                                        config.scope_at = Some(span_of(item));
                                    }
                                }
                                _ => self.unknown(
                                    key,
                                    &schema::key_names(Some("isolation")),
                                    "[isolation]",
                                ),
                            }
                        }
                    }
                }
                "filesystem" => {
                    if let Some(table) = self.table("filesystem", item) {
                        self.read_filesystem(table, config);
                    }
                }
                "features" => {
                    if let Some(table) = self.table("features", item) {
                        self.read_features(table, config);
                    }
                }
                "store" => {
                    if let Some(table) = self.table("store", item) {
                        self.read_store(table, config);
                    }
                }
                "rules" => {
                    if let Some(table) = self.table("rules", item) {
                        self.read_rules(table, config);
                    }
                }
                _ => self.unknown(key, &schema::key_names(None), "agentws.toml"),
            }
        }
        if config.agent.name.is_none() {
            self.agent_name_missing(agent_header);
        }
    }

    fn read_agent(&mut self, table: &Table, config: &mut Config) {
        let agent = &mut config.agent;
        let mut inline_prompt: Option<TextRange> = None;
        let mut prompt_file: Option<(TextRange, TextRange)> = None;
        for (key, item) in table.iter() {
            match key.get_ref().as_ref() {
                "name" => agent.name = self.string("agent.name", item).or(agent.name.take()),
                "id" => agent.id = self.non_blank("agent.id", item).or(agent.id.take()),
                "system_prompt" => {
                    if let Some(prompt) = self.string("agent.system_prompt", item) {
                        inline_prompt = Some(span_of(key));
                        if prompt_file.is_none() {
                            agent.system_prompt = prompt;
                        }
                    }
                }
                "system_prompt_file" => {
                    if let Some(rel) = self.non_blank("agent.system_prompt_file", item) {
                        let path = self.resolve(&rel);
                        prompt_file = Some((span_of(key), span_of(item)));
                        agent.system_prompt = self.system_prompt_file(&path, item);
                        agent.system_prompt_file = Some(path);
                    }
                }
                "additional_context_files" => {
                    if let Some(files) = self.strings("agent.additional_context_files", item) {
                        agent.additional_context_files =
                            files.into_iter().map(|(f, _)| f).collect();
                    }
                }
                "max_context_tokens" => {
                    if let Some(tokens) = self.max_context_tokens(item) {
                        agent.max_context_tokens = tokens;
                    }
                }
                "environment_memory" => {
                    if let Some(memory) = self.string("agent.environment_memory", item) {
                        agent.environment_memory = memory;
                    }
                }
                "models" => {
                    if let Some(models) = self.strings("agent.models", item) {
                        agent.models = models.into_iter().map(|(m, _)| m).collect();
                    }
                }
                "model" => {
                    if let Some(model) = self.non_blank("agent.model", item) {
                        agent.model = Some((model.trim().to_string(), span_of(item)));
                    }
                }
                "context_window" => {
                    if let Some(tokens) = self.context_window(item) {
                        agent.context_window = Some((tokens, span_of(item)));
                    }
                }
                "artifact_delivery" => {
                    if let Some(on) = self.boolean("agent.artifact_delivery", item) {
                        agent.artifact_delivery = on;
                    }
                }
                _ => self.unknown(key, &schema::key_names(Some("agent")), "[agent]"),
            }
        }
        if let (Some(inline), Some((file_key, _))) = (inline_prompt, prompt_file) {
            self.system_prompt_conflict(inline, file_key);
        }
    }

    fn read_filesystem(&mut self, table: &Table, config: &mut Config) {
        let mut sandbox_root: Option<(String, TextRange)> = None;
        let mut spec_root: Option<(String, TextRange)> = None;
        for (key, item) in table.iter() {
            let fs = &mut config.filesystem;
            match key.get_ref().as_ref() {
                "mode" => {
                    if let Some(mode) = self.choice("filesystem.mode", item, FilesystemMode::parse)
                    {
                        fs.mode = mode;
                    }
                }
                "path_mode" => {
                    if let Some(mode) = self.choice("filesystem.path_mode", item, PathMode::parse) {
                        fs.path_mode = mode;
                    }
                }
                "additional_roots" => {
                    if let Some(roots) = self.strings("filesystem.additional_roots", item) {
                        config.filesystem.additional_roots =
                            roots.iter().map(|(r, _)| self.resolve(r)).collect();
                    }
                }
                "project_writable" => {
                    if let Some(b) = self.boolean("filesystem.project_writable", item) {
                        fs.project_writable = b;
                    }
                }
                name @ ("sandbox_root" | "workspace_spec_root") => {
                    let label = format!("filesystem.{name}");
                    if let Some(root) = self.string(&label, item) {
                        if let Some(root) = self.sandbox_root(&label, item, &root) {
                            let slot = if name == "sandbox_root" {
                                &mut sandbox_root
                            } else {
                                &mut spec_root
                            };
                            *slot = Some((root, span_of(item)));
                        }
                    }
                }
                _ => self.unknown(key, &schema::key_names(Some("filesystem")), "[filesystem]"),
            }
        }
        self.sandbox_roots_conflict(sandbox_root.as_ref(), spec_root.as_ref());
        config.filesystem.sandbox_root = sandbox_root.map(|(r, _)| r);
        config.filesystem.workspace_spec_root = spec_root.map(|(r, _)| r);
    }

    fn read_store(&mut self, table: &Table, config: &mut Config) {
        let store = &mut config.store;
        for (key, item) in table.iter() {
            let name = key.get_ref().as_ref();
            let label = format!("store.{name}");
            match name {
                "url" => store.url = self.non_blank(&label, item),
                "prefix" => store.prefix = self.string(&label, item),
                "table" => store.table = self.non_blank(&label, item),
                "schema" => store.schema = self.non_blank(&label, item),
                "anonymous_user" => {
                    if let Some(user) = self.non_blank(&label, item) {
                        store.anonymous_user = user;
                    }
                }
                "layout" => {
                    if let Some(layout) =
                        self.choice(&label, item, crate::config::StoreLayout::parse)
                    {
                        store.layout = layout;
                    }
                }
                "connect_timeout" => match item.get_ref() {
                    DeValue::Integer(i) => match u32::from_str_radix(i.as_str(), i.radix()) {
                        Ok(n) if (1..=600).contains(&n) => store.connect_timeout = n,
                        _ => self.invalid_value(&label, item, "a number of seconds from 1 to 600"),
                    },
                    _ => self.wrong_type(&label, item, "an integer"),
                },
                _ => self.unknown(key, &schema::key_names(Some("store")), "[store]"),
            }
        }
    }

    /// `harness = "2.0.2"`, or `[harness]` with `release` and `pending` (proposals opted into).
    fn read_harness(&mut self, item: &Item, config: &mut Config) {
        let mut release_item = None;
        let mut pending = Vec::new();
        match item.get_ref() {
            DeValue::Table(table) => {
                for (key, item) in table.iter() {
                    match key.get_ref().as_ref() {
                        "release" => release_item = Some(item),
                        "pending" => {
                            if let Some(numbers) = self.strings("harness.pending", item) {
                                pending = numbers;
                            }
                        }
                        _ => self.unknown(key, &["release", "pending"], "[harness]"),
                    }
                }
            }
            _ => release_item = Some(item),
        }
        let mut harness = config.harness;
        let mut note = None;
        if let Some(item) = release_item {
            let Some(text) = self.string("harness", item) else {
                return;
            };
            match release::map_version(&text) {
                Some(mapped) => {
                    harness = mapped.harness;
                    note = mapped.note;
                }
                None => {
                    self.invalid_value(
                        "harness",
                        item,
                        &format!(
                            "a release agentws models ({}) or a version such as `2.0.2`, not `{}`",
                            release::RELEASES
                                .iter()
                                .map(|r| format!("`{}`", r.as_str()))
                                .collect::<Vec<_>>()
                                .join(", "),
                            text.escape_debug()
                        ),
                    );
                    return;
                }
            }
        }
        for (number, range) in pending {
            match release::opt_in(number.trim_start_matches('#')) {
                Some(change) => harness = harness.with(change),
                None => self.invalid_at(
                    "harness.pending entries",
                    range,
                    &format!(
                        "a proposal agentws models ({}), not `{}`",
                        release::CHANGES
                            .iter()
                            .filter(|c| c.since.is_none())
                            .filter_map(|c| c.pull_request)
                            .map(|n| format!("`{n}`"))
                            .collect::<Vec<_>>()
                            .join(", "),
                        number.escape_debug()
                    ),
                ),
            }
        }
        config.harness = harness;
        config.harness_from = HarnessFrom {
            source: HarnessSource::Config,
            note,
        };
    }

    /// `[rules]`: `CODE = "level"` keys, `per-path` and `require-reason`. Whether each code names
    /// a rule is the check's to say (CF013, `check::files`), which knows every rule.
    fn read_rules(&mut self, table: &Table, config: &mut Config) {
        let rules = &mut config.rules;
        for (key, item) in table.iter() {
            let name = key.get_ref().as_ref();
            match name {
                "per-path" => {
                    let Some(globs) = self.table("rules.per-path", item) else {
                        continue;
                    };
                    for (glob, levels) in globs.iter() {
                        let label = "rules.per-path";
                        let Some(levels) = self.table(&format!("{label} entries"), levels) else {
                            continue;
                        };
                        match rules::PathGlob::new(glob.get_ref()) {
                            Ok(compiled) => {
                                let levels = self.levels(levels, label);
                                rules.per_path.push(rules::PathSettings {
                                    glob: compiled,
                                    levels,
                                    key: span_of(glob),
                                });
                            }
                            Err(why) => self.invalid_at(
                                label,
                                span_of(glob),
                                &format!("a glob, and `{}` is not one: {why}", glob.get_ref()),
                            ),
                        }
                    }
                }
                "require-reason" => {
                    if let Some(b) = self.boolean("rules.require-reason", item) {
                        rules.require_reason = b;
                    }
                }
                _ if rules::is_selector(name) => {
                    if let Some(level) = self.level(&format!("rules.{name}"), item) {
                        rules.levels.push(rules::LevelSetting {
                            selector: name.to_string(),
                            level,
                            key: span_of(key),
                        });
                    }
                }
                _ => {
                    let upper = name.to_ascii_uppercase();
                    let mut known = schema::key_names(Some("rules"));
                    if rules::is_selector(&upper) {
                        known.push(upper.as_str());
                    }
                    self.unknown(key, &known, "[rules]");
                }
            }
        }
    }

    /// The `CODE = "level"` keys of a table of `[rules.per-path]`.
    fn levels(&mut self, table: &Table, label: &str) -> Vec<rules::LevelSetting> {
        let mut out = Vec::new();
        for (key, item) in table.iter() {
            let name = key.get_ref().as_ref();
            if !rules::is_selector(name) {
                let upper = name.to_ascii_uppercase();
                let known: Vec<&str> = if rules::is_selector(&upper) {
                    vec![upper.as_str()]
                } else {
                    Vec::new()
                };
                self.unknown(
                    key,
                    &known,
                    &format!("a table of [{label}] (keys are rule codes)"),
                );
                continue;
            }
            if let Some(level) = self.level(&format!("{label} {name}"), item) {
                out.push(rules::LevelSetting {
                    selector: name.to_string(),
                    level,
                    key: span_of(key),
                });
            }
        }
        out
    }

    /// A level: `"error"`, `"warning"`, `"info"` or `"off"`.
    fn level(&mut self, name: &str, item: &Item) -> Option<rules::Level> {
        let DeValue::String(value) = item.get_ref() else {
            self.wrong_type(
                name,
                item,
                "a level (\"error\", \"warning\", \"info\" or \"off\")",
            );
            return None;
        };
        let level = rules::Level::parse(value);
        if level.is_none() {
            let near = match crate::base::suggest::did_you_mean(value, rules::Level::NAMES) {
                Some(best) => format!(" (did you mean \"{best}\"?)"),
                None => String::new(),
            };
            self.invalid_value(
                name,
                item,
                &format!("\"error\", \"warning\", \"info\" or \"off\", not \"{value}\"{near}"),
            );
        }
        level
    }

    fn read_features(&mut self, table: &Table, config: &mut Config) {
        let f = &mut config.features;
        for (key, item) in table.iter() {
            let name = key.get_ref().as_ref();
            let slot = match name {
                "workspace_context" => &mut f.workspace_context,
                "memory_tools" => &mut f.memory_tools,
                "memory_hooks" => &mut f.memory_hooks,
                "shell_tool" => &mut f.shell_tool,
                "subagents" => &mut f.subagents,
                "dynamic_subagents" => &mut f.dynamic_subagents,
                "dynamic_skills" => &mut f.dynamic_skills,
                "default_workspace_skills" => &mut f.default_workspace_skills,
                "tools_config" => &mut f.tools_config,
                "plan_mode" => &mut f.plan_mode,
                "task_list" => &mut f.task_list,
                _ => {
                    self.unknown(key, &schema::key_names(Some("features")), "[features]");
                    continue;
                }
            };
            match item.get_ref() {
                DeValue::Boolean(b) => *slot = *b,
                _ => self.wrong_type(
                    &format!("features.{name}"),
                    item,
                    "a boolean (true or false)",
                ),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn load_text(text: &str) -> (Config, Vec<Diagnostic>) {
        load(
            Path::new("/p/agentws.toml"),
            &FileContent::Text(Arc::from(text)),
        )
    }

    fn found<'t>(text: &'t str, diagnostics: &[Diagnostic]) -> Vec<(&'static str, &'t str)> {
        diagnostics
            .iter()
            .map(|d| (d.code, &text[d.range.start..d.range.end]))
            .collect()
    }

    const EXAMPLE: &str = r#"workspace = ".agentscope/workspace"
project = "."
harness = "2026-09"

[agent]
name = "assistant"
id = "assistant"
system_prompt = "You are a helpful assistant."
additional_context_files = ["SOUL.md"]
max_context_tokens = 8000
environment_memory = ""

[isolation]
scope = "user"

[filesystem]
mode = "local"
path_mode = "rooted"
additional_roots = []
project_writable = false
sandbox_root = "/workspace"
workspace_spec_root = "/workspace"

[features]
workspace_context = true
memory_tools = true
memory_hooks = true
shell_tool = true
subagents = true
dynamic_subagents = true
dynamic_skills = true
default_workspace_skills = true
tools_config = true
plan_mode = false
task_list = false
"#;

    #[test]
    fn the_issue_example_loads_without_diagnostics() {
        let (config, diagnostics) = load_text(EXAMPLE);
        // Every key is valid (that `scope = "user"` with the local shell does not isolate the
        // shell is said over the workspace: CF015, `check::tools`).
        let codes: Vec<&str> = diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, Vec::<&str>::new());
        assert_eq!(config.project, PathBuf::from("/p"));
        assert_eq!(config.workspace, PathBuf::from("/p/.agentscope/workspace"));
        assert_eq!(config.agent.name.as_deref(), Some("assistant"));
        assert_eq!(config.agent.system_prompt, "You are a helpful assistant.");
        assert_eq!(config.agent.additional_context_files, vec!["SOUL.md"]);
        assert_eq!(
            config.filesystem.sandbox_root.as_deref(),
            Some("/workspace")
        );
        assert_eq!(config.features, Features::default());
    }

    #[test]
    fn defaults_and_relative_paths() {
        let (config, diagnostics) = load_text(
            "project = \"..\"\n[agent]\nname = \"a\"\n[filesystem]\nadditional_roots = [\"data\", \"/abs\"]\n",
        );
        assert_eq!(diagnostics, vec![]);
        assert_eq!(config.project, PathBuf::from("/p/.."));
        assert_eq!(
            config.workspace,
            PathBuf::from("/p/../.agentscope/workspace")
        );
        assert_eq!(
            config.filesystem.additional_roots,
            vec![PathBuf::from("/p/data"), PathBuf::from("/abs")]
        );
        let (config, _) = load_text("workspace = \"ws\"\n[agent]\nname = \"a\"\n");
        assert_eq!(config.workspace, PathBuf::from("/p/ws"));
        assert_eq!(config.agent.models, Vec::<String>::new());
    }

    #[test]
    fn models_the_application_registers() {
        let text = "[agent]\nname = \"a\"\nmodels = [\"sonnet\", \"corp-*\"]\n";
        let (config, diagnostics) = load_text(text);
        assert_eq!(diagnostics, vec![]);
        assert_eq!(config.agent.models, vec!["sonnet", "corp-*"]);
        let text = "[agent]\nname = \"a\"\nmodels = \"sonnet\"\n";
        let (config, diagnostics) = load_text(text);
        assert_eq!(found(text, &diagnostics), vec![("CF003", "\"sonnet\"")]);
        assert_eq!(config.agent.models, Vec::<String>::new());
    }

    #[test]
    fn unknown_keys_wrong_types_and_invalid_values() {
        let text = "harness = \"2026-10\"\nworkspce = \"x\"\n[agent]\nname = \"a\"\nmax_context_tokens = \"8000\"\n[isolation]\nscope = \"tenant\"\n[filesystem]\nmode = \"Local\"\n[features]\nshell_tools = false\nplan_mode = \"yes\"\n[extra]\n";
        let (config, diagnostics) = load_text(text);
        let mut got = found(text, &diagnostics);
        got.sort();
        assert_eq!(
            got,
            vec![
                ("CF002", "extra"),
                ("CF002", "shell_tools"),
                ("CF002", "workspce"),
                ("CF003", "\"8000\""),
                ("CF003", "\"yes\""),
                ("CF004", "\"2026-10\""),
                ("CF004", "\"Local\""),
                ("CF004", "\"tenant\""),
            ]
        );
        let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert!(messages
            .iter()
            .any(|m| m.contains("did you mean `workspace`")));
        assert!(messages
            .iter()
            .any(|m| m.contains("did you mean `shell_tool`")));
        // `2026-10` is no release: the default stays.
        assert_eq!(config.harness, Harness::default());
        assert_eq!(config.agent.max_context_tokens, DEFAULT_MAX_CONTEXT_TOKENS);
        assert!(!config.features.plan_mode);
    }

    /// Every refused value names what is used instead.
    #[test]
    fn refused_values_name_the_default() {
        let text = "agent = \"x\"\n[isolation]\nscope = 3\n[filesystem]\nadditional_roots = [\"a\", 1]\nmode = \"cloud\"\n[store]\nconnect_timeout = 0\n[features]\nmemory_tools = \"no\"\n";
        let (_, diagnostics) = load_text(text);
        let mut messages: Vec<&str> = diagnostics
            .iter()
            .filter(|d| d.code != "CF007")
            .map(|d| d.message.as_str())
            .collect();
        messages.sort();
        assert_eq!(
            messages,
            vec![
                "`agent` must be a table, not a string; every key of it keeps its default",
                "`features.memory_tools` must be a boolean (true or false), not a string; the default true is used",
                "`filesystem.additional_roots entries` must be strings, not an integer; the entry is ignored",
                "`filesystem.mode` must be one of \"local\", \"sandbox\", \"remote\", not \"cloud\"; the default \"local\" is used",
                "`isolation.scope` must be a string, not an integer; the default \"user\" is used",
                "`store.connect_timeout` must be a number of seconds from 1 to 600; the default 5 is used",
            ]
        );
        let (_, diagnostics) = load_text(
            "[agent]\nname = \"a\"\n[isolation]\nscope = \"sesion\"\n[filesystem]\nmode = \"Local\"\n",
        );
        let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            vec![
                "`filesystem.mode` must be one of \"local\", \"sandbox\", \"remote\", not \"Local\" (did you mean \"local\"?); the default \"local\" is used",
                "`isolation.scope` must be one of \"user\", \"session\", \"agent\", \"global\", not \"sesion\" (did you mean \"session\"?); the default \"user\" is used",
            ]
        );
        let (_, diagnostics) =
            load_text("[agent]\nname = \"a\"\nid = \" \"\n[store]\ntable = \"\"\n");
        let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            vec![
                "`agent.id` is blank; the default (the name) is used",
                "`store.table` is blank; the default (`agentscope_store`, or `store` for the `sqlite-base` layout) is used",
            ]
        );
        let (_, diagnostics) =
            load_text("[agent]\nname = \"a\"\nmax_context_tokens = 4294967296\n");
        assert_eq!(
            diagnostics[0].message,
            "`agent.max_context_tokens` does not fit a Java int (at most 2147483647); the default 8000 is used"
        );
    }

    #[test]
    fn syntax_errors_keep_defaults() {
        let text = "[agent\nname = \"a\"\n";
        let (config, diagnostics) = load_text(text);
        assert_eq!(diagnostics[0].code, "CF001");
        assert_eq!(diagnostics[0].range.start, 6);
        assert_eq!(config.agent.name, None);
    }

    #[test]
    fn agent_rules() {
        let (_, diagnostics) = load_text("[agent]\nid = \"x\"\n");
        assert_eq!(
            found("[agent]\nid = \"x\"\n", &diagnostics),
            vec![("CF007", "agent")]
        );
        let (_, diagnostics) = load_text("");
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(
            (diagnostics[0].code, diagnostics[0].range),
            ("CF007", TextRange::empty(0))
        );

        let text = "[agent]\nname = \"a\"\nmax_context_tokens = -5\n";
        let (config, diagnostics) = load_text(text);
        assert_eq!(found(text, &diagnostics), vec![("CF010", "-5")]);
        assert_eq!(config.agent.max_context_tokens, 0);

        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("agentws.toml");
        std::fs::write(dir.path().join("system.md"), "Be brief.\n").unwrap();
        let text =
            "[agent]\nname = \"a\"\nsystem_prompt = \"x\"\nsystem_prompt_file = \"system.md\"\n";
        let (config, diagnostics) = load(&file, &FileContent::Text(Arc::from(text)));
        assert_eq!(found(text, &diagnostics), vec![("CF005", "system_prompt")]);
        assert_eq!(config.agent.system_prompt, "Be brief.\n");
        assert_eq!(
            config.agent.system_prompt_file,
            Some(dir.path().join("system.md"))
        );

        let text = "[agent]\nname = \"a\"\nsystem_prompt_file = \"missing.md\"\n";
        let (_, diagnostics) = load(&file, &FileContent::Text(Arc::from(text)));
        assert_eq!(found(text, &diagnostics), vec![("CF006", "\"missing.md\"")]);
    }

    #[test]
    fn sandbox_roots() {
        let text = "[agent]\nname = \"a\"\n[filesystem]\nsandbox_root = \"/home/user/\"\nworkspace_spec_root = \"/workspace\"\n";
        let (config, diagnostics) = load_text(text);
        assert_eq!(found(text, &diagnostics), vec![("CF009", "\"/workspace\"")]);
        assert_eq!(
            config.filesystem.sandbox_root.as_deref(),
            Some("/home/user")
        );
        assert_eq!(config.filesystem.effective_sandbox_root(), "/home/user");

        let text = "[agent]\nname = \"a\"\n[filesystem]\nsandbox_root = \"/\"\nworkspace_spec_root = \"work\"\n";
        let (config, diagnostics) = load_text(text);
        assert_eq!(
            found(text, &diagnostics),
            vec![("CF008", "\"/\""), ("CF008", "\"work\"")]
        );
        assert_eq!(config.filesystem.effective_sandbox_root(), "/workspace");

        // `/` spelled another way is `/` (the rule applies to the normalized root).
        for root in ["/.", "//", "/./.", "///"] {
            let text = format!("[agent]\nname = \"a\"\n[filesystem]\nsandbox_root = \"{root}\"\n");
            let (config, diagnostics) = load_text(&text);
            let quoted = format!("\"{root}\"");
            assert_eq!(
                found(&text, &diagnostics),
                vec![("CF008", quoted.as_str())],
                "{root}"
            );
            assert_eq!(config.filesystem.effective_sandbox_root(), "/workspace");
        }
        let text = "[agent]\nname = \"a\"\n[filesystem]\nsandbox_root = \"//home/./user/\"\n";
        let (config, diagnostics) = load_text(text);
        assert!(diagnostics.is_empty());
        assert_eq!(config.filesystem.effective_sandbox_root(), "/home/user");
    }
}
