//! The human format: one rustc-style report per diagnostic (code, message, source snippet, the
//! runtime consequence as a note, certain fixes as help with the patched text), then the summary
//! of what was checked and found. Colour only when the caller asks for it.

use annotate_snippets::{AnnotationKind, Element, Group, Level, Origin, Patch, Renderer, Snippet};

use super::{next_steps, summary_lines, terminal_text, Report, ShownDiagnostic, Style};
use crate::base::Severity;

pub fn render(report: &Report, style: Style) -> String {
    let renderer = if style.color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    // What the findings are true for, first: the runtime each project is modelled under.
    let many = report.runtimes.len() > 1;
    for runtime in &report.runtimes {
        let line = terminal_text(&runtime.line(), true).into_owned();
        if many {
            out.push_str(&format!("{}: {line}\n", runtime.project));
        } else {
            out.push_str(&format!("{line}\n"));
        }
    }
    if !report.runtimes.is_empty() {
        out.push('\n');
    }
    for d in &report.diagnostics {
        out.push_str(&renderer.render(&groups(&d.for_terminal(false))));
        out.push_str("\n\n");
    }
    out.push_str(&summary_lines(report));
    out.push_str(&next_steps(report));
    out
}

fn groups(d: &ShownDiagnostic) -> Vec<Group<'_>> {
    let level = match d.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    };
    let mut elements: Vec<Element<'_>> = Vec::new();
    match &d.excerpt {
        Some(ex) => elements.push(
            Snippet::source(ex.text.as_str())
                .line_start(ex.first_line)
                .path(d.path.as_str())
                .annotation(AnnotationKind::Primary.span(ex.ranges[0].clone()))
                .into(),
        ),
        None => elements.push(
            Origin::path(d.path.as_str())
                .line(d.range.start.line as usize)
                .char_column(d.range.start.column as usize)
                .into(),
        ),
    }
    elements.push(Level::NOTE.message(d.consequence.as_str()).into());
    for r in &d.related {
        elements.push(
            Level::NOTE
                .message(format!(
                    "{}:{}:{}: {}",
                    r.path, r.range.start.line, r.range.start.column, r.message
                ))
                .into(),
        );
    }
    let mut groups = vec![level
        .primary_title(d.message.as_str())
        .id(d.code)
        .elements(elements)];
    for fix in &d.fixes {
        let title = Level::HELP.secondary_title(fix.title.as_str());
        let group =
            match &fix.excerpt {
                Some(ex) => title.element(
                    Snippet::source(ex.text.as_str())
                        .line_start(ex.first_line)
                        .path(fix.edits[0].path.as_str())
                        .patches(ex.ranges.iter().zip(&fix.edits).map(|(range, edit)| {
                            Patch::new(range.clone(), edit.new_text.as_str())
                        })),
                ),
                None => Group::with_title(title),
            };
        groups.push(group);
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;
    use super::*;

    #[test]
    fn plain_human_output() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src/cli/output/snapshots/plain_human_output.txt");
        crate::base::expect::assert_file(&path, &render(&sample(), Style { color: false }));
    }

    #[test]
    fn colour_only_when_asked() {
        assert!(!render(&sample(), Style { color: false }).contains('\x1b'));
        assert!(render(&sample(), Style { color: true }).contains('\x1b'));
    }
}
