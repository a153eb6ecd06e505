//! WS003 `blank-injected-file`: a file the prompt injects (AGENTS.md, MEMORY.md, KNOWLEDGE.md, an
//! additional context file) is blank. What it costs depends on who reads the copy, so the
//! diagnostic is written from what the contexts that read it make of it.

use crate::base::{Diagnostic, FileContent, Severity, TextRange};
use crate::check::loading::who_label;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::java;
use crate::workspace::layers::{blank_read, BlankRead};
use crate::workspace::resolution::{check_contexts, Callers};
use crate::workspace::snapshot::WorkspaceFile;
use crate::workspace::{FileKind, Tree, Workspace};

declare_rule! {
    code: "WS003",
    name: "blank-injected-file",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "An injected file (AGENTS.md, MEMORY.md, an additional context file) exists but is blank.",
    consequence: "The runtime injects the literal text `System reminder: File exists but has empty contents` in its place.",
    explanation: "The local filesystem answers a read of a blank file with a reminder string, which is \
not empty, so it is injected verbatim into the prompt. Fill the file or delete it.",
    examples: &[
        Example {
            base: Base::Shared {
                without: &["agentws.toml", ".agentscope/workspace/skills/pdf/SKILL.md"],
            },
            triggering: &[
                (".agentscope/workspace/MEMORY.md", "\n"),
            ],
            fixed: &[],
            at: ".agentscope/workspace/MEMORY.md:1:1",
        },
    ],
}

/// WS003 of `file`, written from the layer table the preview reads with: the filesystem's
/// reminder, the sandbox's white space, or nothing at all when only the direct disk read reaches
/// this copy (and no diagnostic when no checked context reads it).
pub(super) fn check(workspace: &Workspace, file: WorkspaceFile) -> Option<Diagnostic> {
    let FileContent::Text(text) = &file.entry.content else {
        return None;
    };
    if !is_injected(file.kind) || !java::is_blank(text) {
        return None;
    }
    let location = file.location;
    let contexts = check_contexts(workspace);
    let reading = match &location.tree {
        Tree::Namespace(ns) => contexts
            .iter()
            .find(|(who, _)| matches!(who, Callers::Folder(folder) if folder == ns)),
        Tree::Shared | Tree::Project => contexts.first(),
    };
    let (who, root) = reading?;
    let read = blank_read(workspace, root, &location.rel, file.path, text.is_empty());
    let for_whom = who_label(workspace, who);
    let message = format!("`{}` in {} is blank", location.rel, location.tree.label());
    let diagnostic = RULE.at(file.path, TextRange::new(0, text.len()), message);
    match read {
        BlankRead::NotRead => None,
        BlankRead::Reminder => Some(diagnostic),
        BlankRead::WhiteSpace => Some(diagnostic.with_consequence(format!(
            "For {for_whom} the sandbox's read returns the white space itself (only a zero-byte file \
             gets the `System reminder: File exists but has empty contents` text): the prompt holds \
             blank text in its place."
        ))),
        BlankRead::Empty => Some(diagnostic.with_consequence(format!(
            "For {for_whom} only the runtime's direct disk read reaches this copy, which reads a blank \
             file as empty: nothing is injected in its place."
        ))),
    }
}

/// A file the prompt's loaded context injects whole.
pub(super) fn is_injected(kind: FileKind) -> bool {
    matches!(
        kind,
        FileKind::AgentsMd
            | FileKind::MemoryMd
            | FileKind::KnowledgeIndex
            | FileKind::AdditionalContext
    )
}
