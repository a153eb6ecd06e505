//! `agentws schema FILE`: the JSON Schema of `agentws.toml` or `tools.json`, generated from the
//! same key tables the loaders and the language server use, so plain JSON/TOML tooling (and the
//! VS Code extension, which ships the output) validates the files the way agentws does.

use clap::{Args, ValueEnum};

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SchemaFile {
    #[value(name = "agentws.toml")]
    AgentwsToml,
    #[value(name = "tools.json")]
    ToolsJson,
}

#[derive(Args, Debug)]
pub struct SchemaArgs {
    /// Which file's schema to print.
    pub file: SchemaFile,
}

/// The schema text (pretty JSON with a final newline), as committed under editors/vscode/schemas/.
pub fn schema_text(file: SchemaFile) -> String {
    let value = match file {
        SchemaFile::AgentwsToml => crate::config::schema::json_schema(),
        SchemaFile::ToolsJson => crate::workspace::tools_schema::json_schema(),
    };
    let mut text = serde_json::to_string_pretty(&value).expect("a JSON value serializes");
    text.push('\n');
    text
}

/// docs/configuration.md: every key of agentws.toml with its type, default, the Java builder call
/// it stands for and an example, from the one key table (`config::schema::KEYS`).
pub fn configuration_markdown() -> String {
    use crate::config::schema::{KeySpec, KEYS, TABLES};
    let mut out = String::from(
        "# Configuration: `agentws.toml`\n\n\
<!-- Generated from the key table (server/src/config/schema.rs) by \
`agentws::cli::schema::configuration_markdown`.\n     \
Do not edit: run `UPDATE_EXPECT=1 cargo test -p agentws --lib configuration_doc` to regenerate. -->\n\n\
`agentws.toml` says what the Java `HarnessAgent` builder of your agent holds, so that agentws checks \
and previews the workspace the way that agent sees it. agentws finds it by walking up from the \
checked path (the nearest one wins). Every key is optional and defaults to what the runtime does \
without the builder call. Relative paths are relative to the folder of `agentws.toml`, except \
`agent.additional_context_files`, which are relative to the workspace (as in the runtime). \
An unknown key, a wrong type or an invalid value is reported (rules `CF…`, see [rules.md](rules.md)) \
and replaced by the default, so one typo never hides the rest. \
`agentws schema agentws.toml` prints the same table as a JSON Schema.\n\n\
| key | type | default | Java builder |\n|---|---|---|---|\n",
    );
    let full_name = |k: &KeySpec| match k.table {
        Some(table) => format!("{table}.{}", k.name),
        None => k.name.to_string(),
    };
    let anchor = |k: &KeySpec| full_name(k).replace(['.', '_'], "-");
    let default = |k: &KeySpec| {
        k.default
            .map_or("not set".to_string(), |d| format!("`{d}`"))
    };
    for k in KEYS {
        out.push_str(&format!(
            "| [`{}`](#{}) | {} | {} | {} |\n",
            full_name(k),
            anchor(k),
            type_text(k.ty),
            default(k),
            k.java.replace('|', "\\|")
        ));
    }
    let sections = std::iter::once((None, "Keys outside any table."))
        .chain(TABLES.iter().map(|(t, doc)| (Some(*t), *doc)));
    for (table, doc) in sections {
        match table {
            Some(table) => out.push_str(&format!("\n## `[{table}]`\n\n{doc}\n")),
            None => out.push_str(&format!("\n## Top level\n\n{doc}\n")),
        }
        for k in KEYS.iter().filter(|k| k.table == table) {
            let header = table.map_or(String::new(), |t| format!("[{t}]\n"));
            out.push_str(&format!(
                "\n<a id=\"{}\"></a>\n\n### `{}`\n\n{}\n\n\
                 - **Type:** {}\n- **Default:** {}\n- **Java:** {}\n\n\
                 ```toml\n{header}{} = {}\n```\n",
                anchor(k),
                full_name(k),
                k.doc,
                type_text(k.ty),
                default(k),
                k.java,
                k.name,
                k.example
            ));
        }
    }
    out
}

/// The markers around the generated part of docs/runtime-sources.md.
const RELEASES_BEGIN: &str = "<!-- releases: generated from config::release::CHANGES by `agentws::cli::schema::releases_markdown`; do not edit. -->\n";
const RELEASES_END: &str = "<!-- end of the generated part -->\n";

/// The releases part of docs/runtime-sources.md: each release agentws models and every behaviour
/// change between them, from the one table `config::release::CHANGES`.
pub fn releases_markdown() -> String {
    use crate::config::release::{Harness, CHANGES, RELEASES};
    let mut out = String::from(RELEASES_BEGIN);
    out.push_str(
        "\n## Releases\n\n\
agentws models the releases below; a project's build file or agentws.toml chooses one \
([configuration.md](configuration.md#harness)), and every surface names the one in force (the \
first line of `check`, `runtimes` in its JSON and SARIF, the preview's `note[runtime]` and \
`context.harness`, the language server's `agentws/fileStatus`). A version agentws does not model \
is modelled as the nearest older release it does, with a note.\n\n\
| release | commit | has |\n|---|---|---|\n",
    );
    for release in RELEASES {
        let commit = release.commit();
        let has: Vec<String> = CHANGES
            .iter()
            .filter(|c| Harness::of(*release).has(c.change))
            .map(|c| {
                format!(
                    "`{}`",
                    serde_json::to_value(c.change)
                        .unwrap()
                        .as_str()
                        .unwrap_or("")
                )
            })
            .collect();
        let has = if has.is_empty() {
            "—".to_string()
        } else {
            has.join(", ")
        };
        out.push_str(&format!("| `{}` | {commit} | {has} |\n", release.as_str()));
    }
    out.push_str(
        "\n`2026-08` and `2026-09`, the names agentws used before it knew releases, stand for \
`2.0.3-SNAPSHOT` and for `2.0.3-SNAPSHOT` with #3020 and #3645.\n\n## Behaviour changes\n",
    );
    for change in CHANGES {
        let id = serde_json::to_value(change.change).unwrap();
        let since = match (change.since, change.pull_request) {
            (Some(release), _) => format!("from `{}` on", release.as_str()),
            (None, Some(number)) => {
                format!("no release; a project opts in with `pending = [\"{number}\"]`")
            }
            (None, None) => "no release".to_string(),
        };
        out.push_str(&format!(
            "\n### `{}`\n\n{}\n\n- **When:** {since}\n- **Source:** {}\n- **Confidence:** {}\n",
            id.as_str().unwrap_or(""),
            change.summary,
            change.source,
            change.confidence.describe()
        ));
    }
    out.push_str(
        "\nThe goldens of `tests/fixtures/releases/<release>/` were produced by the runtime's own \
classes at each commit: a driver of agentws's compiled with javac against that source tree and \
Debian's Jackson and SnakeYAML jars builds the agent with `HarnessAgent.builder()` and prints the \
system message of the first reasoning step; each case's CASE.md names the commit and the context. \
The driver is not part of this repository, which commits no code that builds the runtime's \
sources. `tests/e2e/releases.rs` checks that `agentws preview --harness <release>` prints the \
same bytes.\n\n",
    );
    out.push_str(RELEASES_END);
    out
}

/// docs/workspace-files.md: the keys a SKILL.md, a subagent spec and tools.json take, with type,
/// default and what the runtime does with each, from the tables the parsers, the language server
/// and the strict profile use (`workspace::keys`, `workspace::tools_schema`).
pub fn workspace_files_markdown() -> String {
    use crate::workspace::keys::{self, KeySpec};
    use crate::workspace::tools_schema::{self, ToolsKey};
    let cell = |text: &str| text.replace('|', "\\|").replace('\n', " ");
    let default = |d: Option<&str>| d.unwrap_or("—").to_string();
    let name = |k: &KeySpec| match k.alias_of {
        Some(of) => format!("`{}` (read when `{of}` is absent)", k.name),
        None => format!("`{}`", k.name),
    };
    let frontmatter_table = |rows: &[KeySpec], strict: bool| {
        let mut out = String::from("| key | type | required | default | what the runtime does |");
        out.push_str(if strict { " strict profile |\n" } else { "\n" });
        out.push_str(if strict {
            "|---|---|---|---|---|---|\n"
        } else {
            "|---|---|---|---|---|\n"
        });
        for k in rows {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} |",
                name(k),
                cell(&k.ty.describe()),
                if k.required { "yes" } else { "no" },
                default(k.default),
                cell(k.runtime)
            ));
            if strict {
                out.push_str(if k.strict {
                    " accepted |"
                } else {
                    " reported (ST007) |"
                });
            }
            out.push('\n');
        }
        out
    };
    let details = |rows: &[KeySpec], prefix: &str| {
        let mut out = String::new();
        for k in rows {
            out.push_str(&format!("\n### `{prefix}{}`\n\n{}\n", k.name, k.hover));
        }
        out
    };
    let tools_table = |rows: &[&ToolsKey]| {
        let mut out =
            String::from("| key | type | default | what the runtime does |\n|---|---|---|---|\n");
        for k in rows {
            out.push_str(&format!(
                "| `{}` | {} | {} | {} |\n",
                k.name,
                k.shape.describe(),
                default(k.default),
                cell(k.doc)
            ));
        }
        out
    };
    let top: Vec<&ToolsKey> = tools_schema::TOP_LEVEL
        .iter()
        .chain([&tools_schema::MCP_SERVERS])
        .collect();
    let server: Vec<&ToolsKey> = tools_schema::SERVER.iter().collect();
    format!(
        "# Workspace files: `SKILL.md`, subagent specs, `tools.json`\n\n\
<!-- Generated from the key tables (server/src/workspace/keys.rs, server/src/workspace/tools_schema.rs) by \
`agentws::cli::schema::workspace_files_markdown`.\n     \
Do not edit: run `UPDATE_EXPECT=1 cargo test -p agentws --lib workspace_files_doc` to regenerate. -->\n\n\
Which keys each workspace file takes and what the AgentScope Harness runtime does with them. The same \
tables drive the parsers, the editor's completion and hover, and the strict profile. What the runtime \
does when a file is malformed is in [rules.md](rules.md); where each file is read from is in \
[architecture.md](architecture.md) and [preview.md](preview.md).\n\n\
## `SKILL.md` frontmatter\n\n\
`skills/<name>/SKILL.md` starts with a YAML block between `---` lines, read with YAML 1.1 typing \
(`yes`, `1.0` and `2024-01-01` are not strings). Every key, listed here or not, is kept as metadata in \
YAML order and rendered into the prompt; only `name` and `description` change what the runtime does. \
The strict profile (`agentws check --profile strict`, or the editor setting `profile`) follows the \
Agent Skills open specification and reports any other key.\n\n{}{}\n\
## Subagent spec frontmatter (`subagents/<id>.md`)\n\n\
The agent id is the file name without `.md`; a `name:` key is ignored. The frontmatter is read with \
Jackson YAML; values are read as text and trimmed unless the type says otherwise. Keys not listed \
here are ignored by the runtime (reported as SA016). The body is the subagent's system prompt unless \
`workspace.path` is set. The strict profile does not check subagent specs.\n\n{}{}\n\
### Keys under `workspace:`\n\n{}{}\n\
## `tools.json`\n\n\
Read once when the agent is built, after `${{NAME}}` is replaced from the process environment: strict \
JSON (no comments, no trailing commas); unknown keys are ignored. A type mismatch anywhere makes the runtime ignore the whole file. See \
[tools-json.md](tools-json.md) for how `allow` and `deny` combine.\n\n{}\n\
### Keys of one server under `mcpServers`\n\n{}",
        frontmatter_table(keys::SKILL, true),
        details(keys::SKILL, ""),
        frontmatter_table(keys::SUBAGENT, false),
        details(keys::SUBAGENT, ""),
        frontmatter_table(keys::SUBAGENT_WORKSPACE, false),
        details(keys::SUBAGENT_WORKSPACE, "workspace."),
        tools_table(&top),
        tools_table(&server),
    )
}

fn type_text(ty: crate::config::schema::KeyType) -> String {
    use crate::config::schema::KeyType;
    match ty {
        KeyType::String => "string".to_string(),
        KeyType::Path => "path".to_string(),
        KeyType::Bool => "boolean".to_string(),
        KeyType::Integer => "integer ≥ 1".to_string(),
        KeyType::StringList => "list of strings".to_string(),
        KeyType::PathList => "list of paths".to_string(),
        KeyType::Choice(choices) => {
            let shown: Vec<String> = choices.iter().map(|c| format!("`\"{c}\"`")).collect();
            format!("one of {}", shown.join(", "))
        }
        KeyType::LevelsByGlob => "table: glob → `{ CODE = \"level\" }`".to_string(),
        KeyType::Harness => "release or version, or table".to_string(),
    }
}

pub fn run(args: SchemaArgs) -> u8 {
    print!("{}", schema_text(args.file));
    super::EXIT_OK
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/configuration.md must be what the key table generates (`base::expect`).
    #[test]
    fn configuration_doc_is_generated_from_the_key_table() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/configuration.md");
        crate::base::expect::assert_file(&path, &configuration_markdown());
    }

    /// The releases part of docs/runtime-sources.md must be what `config::release::CHANGES`
    /// generates (`base::expect`: the switch rewrites that part).
    #[test]
    fn runtime_sources_doc_is_generated_from_the_release_table() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/runtime-sources.md");
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let start = text.find(RELEASES_BEGIN).expect("the releases part begins");
        let end = text.find(RELEASES_END).expect("the releases part ends") + RELEASES_END.len();
        let expected = releases_markdown();
        if crate::base::expect::updating() {
            let updated = format!("{}{expected}{}", &text[..start], &text[end..]);
            std::fs::write(&path, updated).unwrap();
            return;
        }
        assert!(
            text[start..end] == expected,
            "docs/runtime-sources.md is out of date with config::release::CHANGES; regenerate it \
             with\n    UPDATE_EXPECT=1 cargo test -p agentws --lib runtime_sources_doc"
        );
    }

    /// docs/workspace-files.md must be what the key tables generate (`base::expect`).
    #[test]
    fn workspace_files_doc_is_generated_from_the_key_tables() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/workspace-files.md");
        let expected = workspace_files_markdown();
        crate::base::expect::assert_file(&path, &expected);
        // Every key of every table is documented.
        for key in crate::workspace::keys::SKILL
            .iter()
            .chain(crate::workspace::keys::SUBAGENT)
        {
            assert!(
                expected.contains(&format!("| `{}`", key.name)),
                "{}",
                key.name
            );
        }
        for key in crate::workspace::tools_schema::SERVER {
            assert!(
                expected.contains(&format!("| `{}` |", key.name)),
                "{}",
                key.name
            );
        }
    }

    /// Every key's documented example is accepted by the loader as it stands: no diagnostic.
    #[test]
    fn every_documented_example_loads_without_a_diagnostic() {
        use crate::base::FileContent;
        use crate::config::schema::KEYS;
        // A project folder holding the example's system prompt file.
        let project = tempfile::tempdir().unwrap();
        std::fs::create_dir(project.path().join("prompts")).unwrap();
        std::fs::write(project.path().join("prompts/system.md"), "You are Atlas.\n").unwrap();
        let file = project.path().join("agentws.toml");
        for k in KEYS {
            assert!(!k.java.is_empty() && !k.example.is_empty(), "{}", k.name);
            // With the agent's name set, whose absence is a warning of its own.
            let line = format!("{} = {}\n", k.name, k.example);
            let text = match k.table {
                None => format!("{line}[agent]\nname = \"a\"\n"),
                Some("agent") if k.name == "name" => format!("[agent]\n{line}"),
                Some("agent") => format!("[agent]\nname = \"a\"\n{line}"),
                Some(table) => format!("[agent]\nname = \"a\"\n[{table}]\n{line}"),
            };
            let (_, diagnostics) = crate::config::load::load(
                &file,
                &FileContent::Text(std::sync::Arc::from(text.as_str())),
            );
            // A scope that isolates, beside the default shell tool, is CF015 by design: the
            // example value itself is valid.
            let codes: Vec<_> = diagnostics
                .iter()
                .map(|d| d.code)
                .filter(|code| !(k.name == "scope" && *code == "CF015"))
                .collect();
            assert!(codes.is_empty(), "{text}: {codes:?}");
        }
    }

    /// The schemas the VS Code extension ships are the generated ones (`base::expect`).
    #[test]
    fn shipped_schemas_are_generated() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../editors/vscode/schemas");
        for (file, name) in [
            (SchemaFile::AgentwsToml, "agentws.schema.json"),
            (SchemaFile::ToolsJson, "tools.schema.json"),
        ] {
            crate::base::expect::assert_file(&dir.join(name), &schema_text(file));
        }
    }
}
