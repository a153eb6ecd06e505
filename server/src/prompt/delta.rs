//! The edits from one preview to the next (`agentws/previewPrompt` with `previousResultId`),
//! found on the typed previews: only what differs is turned into JSON, not the sources of ten
//! thousand skills nor the megabytes of text. Applied with `base::json_delta::apply` to the
//! previous preview's JSON, they give the new one's. Depends on `base` only, besides the
//! preview's types.

use crate::base::json_delta::{diff_lists, diff_serialized, string_splice, Edit, Step};

use super::{Preview, Section};

impl Preview {
    /// The edits that turn this preview's JSON into `new`'s.
    pub fn edits_to(&self, new: &Preview) -> Vec<Edit> {
        let mut edits = Vec::new();
        let path = &mut Vec::new();
        under(path, "text", |path| {
            edits.extend(string_splice(path, &self.text, &new.text))
        });
        under(path, "sections", |path| {
            diff_lists(
                path,
                &self.sections,
                &new.sections,
                &mut edits,
                section_edits,
            )
        });
        under(path, "estimatedTokens", |path| {
            diff_serialized(
                path,
                &self.estimated_tokens,
                &new.estimated_tokens,
                &mut edits,
            )
        });
        under(path, "budget", |path| {
            diff_serialized(path, &self.budget, &new.budget, &mut edits)
        });
        under(path, "context", |path| {
            diff_serialized(path, &self.context, &new.context, &mut edits)
        });
        under(path, "notes", |path| {
            diff_lists(path, &self.notes, &new.notes, &mut edits, diff_serialized)
        });
        edits
    }
}

/// Runs `f` with `key` (a field as the JSON names it) added to `path`.
fn under(path: &mut Vec<Step>, key: &str, f: impl FnOnce(&mut Vec<Step>)) {
    path.push(Step::Key(key.to_string()));
    f(path);
    path.pop();
}

/// A section whose range moved keeps its sources: they are compared as a list.
fn section_edits(path: &mut Vec<Step>, a: &Section, b: &Section, edits: &mut Vec<Edit>) {
    under(path, "kind", |path| {
        diff_serialized(path, &a.kind, &b.kind, edits)
    });
    under(path, "label", |path| {
        diff_serialized(path, &a.label, &b.label, edits)
    });
    under(path, "range", |path| {
        diff_serialized(path, &a.range, &b.range, edits)
    });
    under(path, "sources", |path| {
        diff_lists(path, &a.sources, &b.sources, edits, diff_serialized)
    });
    under(path, "estimatedTokens", |path| {
        diff_serialized(path, &a.estimated_tokens, &b.estimated_tokens, edits)
    });
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use serde_json::Value;

    use super::*;
    use crate::base::json_delta;
    use crate::config::Config;
    use crate::prompt::{render, Date, PreviewContext};
    use crate::workspace::Workspace;

    fn preview(files: &[(&str, &str)]) -> Preview {
        let mut config = Config::defaults_for(Path::new("/p"));
        config.agent.name = Some("assistant".into());
        let ws = config.workspace.clone();
        let ws =
            Workspace::from_texts(config, files.iter().map(|(rel, text)| (ws.join(rel), text)));
        let ctx = PreviewContext::new(
            &ws.config,
            Date::parse("2026-08-22").unwrap(),
            "Linux",
            "/tmp",
        );
        render(&ws, &ctx).unwrap()
    }

    fn keys(value: &Value) -> Vec<&str> {
        value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect()
    }

    const PDF: &str = "---\nname: pdf\ndescription: Read PDF files.\n---\nBody.\n";

    /// `edits_to` names each field it compares: a field added to the preview must be added
    /// there, or a client would keep its old value.
    #[test]
    fn every_field_of_the_preview_is_compared() {
        let json = serde_json::to_value(preview(&[("skills/pdf/SKILL.md", PDF)])).unwrap();
        assert_eq!(
            keys(&json),
            [
                "text",
                "sections",
                "estimatedTokens",
                "budget",
                "context",
                "notes"
            ]
        );
        for section in json["sections"].as_array().unwrap() {
            assert_eq!(
                keys(section),
                ["kind", "label", "range", "sources", "estimatedTokens"]
            );
        }
    }

    #[test]
    fn the_edits_turn_one_preview_into_the_next() {
        let docx = "---\nname: docx\ndescription: Write Word files.\n---\nBody.\n";
        let steps: [&[(&str, &str)]; 5] = [
            &[("skills/pdf/SKILL.md", PDF)],
            &[
                ("skills/pdf/SKILL.md", PDF),
                ("skills/docx/SKILL.md", docx),
                ("AGENTS.md", "Be brief.\n"),
            ],
            &[
                ("skills/docx/SKILL.md", docx),
                ("AGENTS.md", "Be brief, précis.\n"),
                ("MEMORY.md", "- a fact\n"),
            ],
            &[("skills/docx/SKILL.md", &docx.replace("Write", "Écrire"))],
            &[],
        ];
        let previews: Vec<Preview> = steps.iter().map(|files| preview(files)).collect();
        for (old, new) in previews.iter().zip(&previews[1..]) {
            let mut json = serde_json::to_value(old).unwrap();
            let edits = old.edits_to(new);
            json_delta::apply(&mut json, &edits).unwrap();
            assert_eq!(json, serde_json::to_value(new).unwrap(), "{edits:?}");
        }
        assert!(previews[1].edits_to(&previews[1]).is_empty());
    }
}
