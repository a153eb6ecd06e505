//! ST008 `strict-body-lines`: SKILL.md has more lines than the specification recommends.

use super::LoadedSkill;
use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Profile};
use crate::syntax::java;

/// The specification recommends fewer lines than this.
const RECOMMENDED_MAX_LINES: usize = 500;

declare_rule! {
    code: "ST008",
    name: "strict-body-lines",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict (recommended): SKILL.md should stay under 500 lines."#,
    consequence: r#"Long skills cost context on every load."#,
    explanation: r#"Move detail into references/.

**Differences from the reference validators** (`tests/e2e/peer_suites.rs`): agnix also rejects a skill folder over 8 MB (`agnix:test_as_015_directory_size_exceeds`), an upload limit of one vendor's platform, not a rule of the specification. The AgentScope runtime reads skills from disk without a size limit, so agentws counts only the lines of SKILL.md."#,
    examples: &[],
}

pub(super) fn check(loaded: &LoadedSkill, out: &mut Vec<Diagnostic>) {
    let text = loaded.text;
    let lines = java::lines(text);
    if lines.len() <= RECOMMENDED_MAX_LINES {
        return;
    }
    let offset: usize = lines[..RECOMMENDED_MAX_LINES]
        .iter()
        .map(|l| l.len())
        .sum::<usize>();
    // Re-find the exact start of line 501 (line breaks may be 1 or 2 bytes).
    let start = nth_line_start(text, RECOMMENDED_MAX_LINES).unwrap_or(offset);
    out.push(RULE.at(
        &loaded.skill.path,
        TextRange::empty(start),
        format!(
            "SKILL.md has {} lines; the specification recommends fewer than {RECOMMENDED_MAX_LINES}",
            lines.len()
        ),
    ));
}

fn nth_line_start(text: &str, n: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut line = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' || b == b'\r' {
            if b == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
            line += 1;
            if line == n {
                return Some(i + 1);
            }
        }
        i += 1;
    }
    None
}
