//! The concise format: `path:line:column: severity[CODE] message` per diagnostic, then the
//! summary of what was checked and found.

use super::{summary_lines, Report};

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        let d = d.for_terminal(true);
        out.push_str(&format!(
            "{}:{}:{}: {}[{}] {}\n",
            d.path,
            d.range.start.line,
            d.range.start.column,
            d.severity.as_str(),
            d.code,
            d.message
        ));
    }
    out.push_str(&summary_lines(report));
    out
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;

    #[test]
    fn one_line_per_diagnostic_then_the_summary() {
        assert_eq!(
            super::render(&sample()),
            "ws/skills/pdf/SKILL.md:2:7: error[SK999] `name: yes` is the boolean true\n\
             ws/skills/pdf/SKILL.md:3:19: info[SK998] a word after an emoji\n\
             ws/tools.json:1:1: warning[WS004] tools.json is a binary file\n\
             Checked 2 files: 1 skill, 1 tools.json.\n\
             Found 1 error, 1 warning, 1 info.\n\
             Suppressed 1 finding (1 by comments in the files).\n\
             1 problem can be fixed with `agentws check --fix`.\n"
        );
    }
}
