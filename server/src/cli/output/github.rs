//! The GitHub Actions format: one workflow command per diagnostic
//! (`::error file=…,line=…,col=…,endLine=…,endColumn=…,title=CODE::message`), which GitHub turns
//! into annotations on the pull request. `info` becomes `notice`. The message is followed by the
//! runtime consequence on a second line.

use super::Report;
use crate::base::Severity;

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        let d = d.for_terminal(false);
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        out.push_str(&format!(
            "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
            escape_property(&d.path),
            d.range.start.line,
            d.range.start.column,
            d.range.end.line,
            d.range.end.column,
            escape_property(d.code),
            escape_data(&format!("{}\n{}", d.message, d.consequence)),
        ));
    }
    out
}

/// Escaping of a workflow command's message (the runner's `escapeData`).
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escaping of a workflow command's property values (the runner's `escapeProperty`).
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;

    #[test]
    fn workflow_commands() {
        assert_eq!(
            super::render(&sample()),
            "::error file=ws/skills/pdf/SKILL.md,line=2,col=7,endLine=2,endColumn=10,title=SK999::`name: yes` is the boolean true%0AThe runtime skips this skill.\n\
             ::notice file=ws/skills/pdf/SKILL.md,line=3,col=19,endLine=3,endColumn=23,title=SK998::a word after an emoji%0ANothing changes.\n\
             ::warning file=ws/tools.json,line=1,col=1,endLine=1,endColumn=1,title=WS004::tools.json is a binary file%0AThe runtime ignores tools.json, with a WARN\n"
        );
    }

    #[test]
    fn properties_and_data_are_escaped() {
        assert_eq!(super::escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
        assert_eq!(super::escape_data("a:b,c"), "a:b,c");
    }
}
