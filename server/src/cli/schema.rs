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

pub fn run(args: SchemaArgs) -> u8 {
    print!("{}", schema_text(args.file));
    super::EXIT_OK
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schemas the VS Code extension ships are the generated ones; regenerate with
    /// `UPDATE_DOCS=1 cargo test -p agentws --lib shipped_schemas`.
    #[test]
    fn shipped_schemas_are_generated() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../editors/vscode/schemas");
        for (file, name) in [
            (SchemaFile::AgentwsToml, "agentws.schema.json"),
            (SchemaFile::ToolsJson, "tools.schema.json"),
        ] {
            let path = dir.join(name);
            let expected = schema_text(file);
            if std::env::var_os("UPDATE_DOCS").is_some() {
                std::fs::write(&path, &expected).unwrap();
            }
            let shipped = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                shipped == expected,
                "{} is not the output of `agentws schema`; regenerate with \
                 UPDATE_DOCS=1 cargo test -p agentws --lib shipped_schemas",
                path.display()
            );
        }
    }
}
