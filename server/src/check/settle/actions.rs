//! The edits that suppress one diagnostic, for the editor's quick fixes: a comment for its line, a
//! comment for its file, or its file added to `[rules.per-path]` of agentws.toml. Each comment is
//! written in the file's own syntax (`comments`) and checked by reading the edited text back with
//! the same reader that applies suppressions, so an edit is offered only where it works (never a
//! `#` that a YAML block scalar would keep as text, never a comment inside fenced code).

use std::path::Path;

use super::comments::{Directive, Reach};
use super::{comments_of, settings_path};
use crate::base::{apply_edits, Diagnostic, FileEdit, FileSet, Fix, TextRange};
use crate::config::Config;

/// The fixes that suppress `d`, best first; the texts of its file and of agentws.toml are those
/// of `files` (the editor's buffers).
pub fn ignore_fixes(config: &Config, files: &FileSet, d: &Diagnostic) -> Vec<Fix> {
    let mut out = Vec::new();
    let path = d.path.as_path();
    let Some(text) = files.text(path) else {
        return per_path_fix(config, files, d).into_iter().collect();
    };
    let line_start = text[..d.range.start.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let line_end = text[line_start..]
        .find('\n')
        .map_or(text.len(), |i| line_start + i);
    let line_end = if text[..line_end].ends_with('\r') {
        line_end - 1
    } else {
        line_end
    };
    let line = text[..line_start].matches('\n').count();
    let syntax = comment_syntax(config, path, text, line_start);
    if let Some(syntax) = syntax {
        let indent: String = text[line_start..line_end]
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        let candidates = [
            // At the end of the flagged line.
            FileEdit {
                path: path.to_path_buf(),
                range: TextRange::empty(line_end),
                new_text: format!(" {}", syntax.comment(&format!("ignore {}", d.code))),
            },
            // Alone on a line above it.
            FileEdit {
                path: path.to_path_buf(),
                range: TextRange::empty(line_start),
                new_text: format!(
                    "{indent}{}\n",
                    syntax.comment(&format!("ignore {}", d.code))
                ),
            },
        ];
        if let Some(edit) = candidates.into_iter().find(|edit| {
            suppresses(
                config,
                path,
                text,
                edit,
                d.code,
                Reach::Line(line + usize::from(edit.range.start == line_start)),
            )
        }) {
            out.push(Fix {
                title: format!("Ignore {} on this line", d.code),
                edits: vec![edit],
            });
        }
        let file_edit = FileEdit {
            path: path.to_path_buf(),
            range: TextRange::empty(syntax.file_comment_offset(text)),
            new_text: format!("{}\n", syntax.comment(&format!("ignore-file {}", d.code))),
        };
        if suppresses(config, path, text, &file_edit, d.code, Reach::File) {
            out.push(Fix {
                title: format!("Ignore {} in this file", d.code),
                edits: vec![file_edit],
            });
        }
    }
    out.extend(per_path_fix(config, files, d));
    out
}

/// Whether `text` with `edit` applied holds a comment of reach `reach` naming `code`.
fn suppresses(
    config: &Config,
    path: &Path,
    text: &str,
    edit: &FileEdit,
    code: &str,
    reach: Reach,
) -> bool {
    let edited = apply_edits(text, std::slice::from_ref(edit));
    comments_of(config, path, &edited)
        .iter()
        .any(|c| match &c.directive {
            Directive::Ignore {
                reach: r, codes, ..
            } => *r == reach && codes.iter().any(|n| n.code == code),
            Directive::Unknown { .. } => false,
        })
}

/// The comment syntax at `offset` of the file at `path`.
#[derive(Clone, Copy)]
enum Written {
    /// `# …` (YAML frontmatter, agentws.toml); the file comment goes after `after`.
    Hash { after: usize },
    /// `<!-- … -->`; the file comment goes at the top.
    Html,
}

impl Written {
    fn comment(self, directive: &str) -> String {
        match self {
            Written::Hash { .. } => format!("# agentws: {directive}"),
            Written::Html => format!("<!-- agentws: {directive} -->"),
        }
    }

    fn file_comment_offset(self, text: &str) -> usize {
        match self {
            Written::Hash { after } => after.min(text.len()),
            Written::Html => 0,
        }
    }
}

fn comment_syntax(config: &Config, path: &Path, text: &str, offset: usize) -> Option<Written> {
    use crate::workspace::layout::{self, FileKind};
    if config.file.as_deref() == Some(path) {
        return Some(Written::Hash { after: 0 });
    }
    let kind = layout::classify(
        &layout::locate(config, path)?,
        &config.agent.additional_context_files,
    )?;
    // The line after the opening `---`, and where the frontmatter ends.
    let opened = text.find('\n').map_or(text.len(), |i| i + 1);
    let frontmatter_end = match kind {
        FileKind::Skill => crate::syntax::frontmatter::split_skill(text).map(|s| s.closing.start),
        FileKind::Subagent => crate::syntax::frontmatter::split_subagent(text)
            .ok()
            .map(|s| s.closing.start),
        FileKind::AgentsMd
        | FileKind::MemoryMd
        | FileKind::Knowledge
        | FileKind::KnowledgeIndex
        | FileKind::AdditionalContext
        | FileKind::SystemPrompt => return Some(Written::Html),
        FileKind::Config | FileKind::ToolsJson | FileKind::SkillResource => return None,
    };
    match frontmatter_end {
        Some(end) if offset < end => Some(Written::Hash { after: opened }),
        Some(_) => Some(Written::Html),
        None => Some(Written::Hash { after: opened }),
    }
}

/// The file of `d` added to `[rules.per-path]` with `d`'s rule off, when agentws.toml exists and
/// has no entry of that very path yet.
fn per_path_fix(config: &Config, files: &FileSet, d: &Diagnostic) -> Option<Fix> {
    let file = config.file.as_ref()?;
    let toml = files.text(file)?;
    let rel = settings_path(config, &d.path);
    if config.rules.per_path.iter().any(|p| p.glob.text == rel) {
        return None;
    }
    let entry = format!(
        "{} = {{ {} = \"off\" }}\n",
        serde_json::to_string(&rel).ok()?,
        d.code
    );
    let (at, new_text) = match table_end(toml, "rules.per-path") {
        Some(end) => (end, entry),
        None => {
            let gap = if toml.is_empty() || toml.ends_with("\n\n") {
                ""
            } else if toml.ends_with('\n') {
                "\n"
            } else {
                "\n\n"
            };
            (toml.len(), format!("{gap}[rules.per-path]\n{entry}"))
        }
    };
    Some(Fix {
        title: format!("Turn {} off for this file in agentws.toml", d.code),
        edits: vec![FileEdit {
            path: file.clone(),
            range: TextRange::empty(at),
            new_text,
        }],
    })
}

/// The offset just after the last non-blank line of the TOML table `[name]`, if it is there.
fn table_end(toml: &str, name: &str) -> Option<usize> {
    let header = format!("[{name}]");
    let mut in_table = false;
    let mut end = None;
    let mut at = 0;
    for line in toml.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            in_table = trimmed == header;
            if in_table {
                end = Some(at + line.len());
            }
        } else if in_table && !trimmed.is_empty() {
            end = Some(at + line.len());
        }
        at += line.len();
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    const SKILL: &str = "/p/.agentscope/workspace/skills/a/SKILL.md";

    fn diagnostic_at(text: &str, needle: &str, code: &'static str) -> Diagnostic {
        let start = text.find(needle).unwrap();
        Diagnostic {
            path: SKILL.into(),
            range: TextRange::new(start, start + needle.len()),
            severity: crate::base::Severity::Warning,
            code,
            message: String::new(),
            consequence: String::new(),
            fixes: Vec::new(),
            related: Vec::new(),
            omitted: None,
            part: None,
        }
    }

    /// The fixes of the diagnostic of `code` at `needle`, each applied to its own file.
    fn fixed(
        config: &Config,
        files: &FileSet,
        needle: &str,
        code: &'static str,
    ) -> Vec<(String, String)> {
        let text = files.text(Path::new(SKILL)).unwrap();
        ignore_fixes(config, files, &diagnostic_at(text, needle, code))
            .into_iter()
            .map(|fix| {
                let edit = &fix.edits[0];
                (
                    fix.title.clone(),
                    apply_edits(files.text(&edit.path).unwrap(), &fix.edits),
                )
            })
            .collect()
    }

    #[test]
    fn a_frontmatter_line_gets_a_yaml_comment_a_body_line_an_html_one() {
        let mut config = Config::defaults_for(Path::new("/p"));
        config.file = Some("/p/agentws.toml".into());
        let text = "---\nname: a\ncreated: 2024-01-01\ndescription: |\n  text\n---\nBody line\n";
        let mut files = FileSet::new();
        files.insert_text(SKILL.into(), text);
        files.insert_text("/p/agentws.toml".into(), "[agent]\nname = \"x\"\n");
        let fixes = fixed(&config, &files, "2024-01-01", "SK023");
        assert_eq!(
            fixes,
            vec![
                (
                    "Ignore SK023 on this line".to_string(),
                    "---\nname: a\ncreated: 2024-01-01 # agentws: ignore SK023\ndescription: |\n  text\n---\nBody line\n".to_string()
                ),
                (
                    "Ignore SK023 in this file".to_string(),
                    "---\n# agentws: ignore-file SK023\nname: a\ncreated: 2024-01-01\ndescription: |\n  text\n---\nBody line\n".to_string()
                ),
                (
                    "Turn SK023 off for this file in agentws.toml".to_string(),
                    "[agent]\nname = \"x\"\n\n[rules.per-path]\n\"skills/a/SKILL.md\" = { SK023 = \"off\" }\n".to_string()
                ),
            ]
        );
        // Inside a block scalar a `#` is text, on the line or above it: no comment for the line.
        let titles: Vec<String> = fixed(&config, &files, "text", "SK014")
            .into_iter()
            .map(|f| f.0)
            .collect();
        assert_eq!(
            titles,
            [
                "Ignore SK014 in this file",
                "Turn SK014 off for this file in agentws.toml"
            ]
        );
        assert_eq!(
            fixed(&config, &files, "Body line", "XR010")[0].1,
            "---\nname: a\ncreated: 2024-01-01\ndescription: |\n  text\n---\nBody line <!-- agentws: ignore XR010 -->\n"
        );
        // An existing [rules.per-path] table takes the entry at its end.
        files.insert_text(
            "/p/agentws.toml".into(),
            "[rules.per-path]\n\"x/**\" = { SK001 = \"off\" }\n\n[agent]\nname = \"x\"\n",
        );
        assert_eq!(
            fixed(&config, &files, "2024-01-01", "SK023")[2].1,
            "[rules.per-path]\n\"x/**\" = { SK001 = \"off\" }\n\"skills/a/SKILL.md\" = { SK023 = \"off\" }\n\n[agent]\nname = \"x\"\n"
        );
    }
}
