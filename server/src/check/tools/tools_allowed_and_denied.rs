//! TJ022 `tools-allowed-and-denied`: a registered tool in both `allow` and `deny`.

use std::collections::BTreeMap;
use std::path::Path;

use super::ListEntry;
use crate::base::{Diagnostic, Related, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "TJ022",
    name: "tools-allowed-and-denied",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A tool is in both `allow` and `deny`.",
    consequence: "deny always wins: the tool is removed.",
    explanation: "Remove it from one of the two lists.",
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "allow": ["read_file", "list_files", "execute"],
  "deny": ["execute"]
}
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "allow": ["read_file", "list_files"],
  "deny": ["execute"]
}
"#,
        )],
        at: ".agentscope/workspace/tools.json:2:40",
    }],
}

pub(super) fn check(path: &Path, entries: &[ListEntry], out: &mut Vec<Diagnostic>) {
    // Each name's first `deny` entry.
    let denied: BTreeMap<&str, TextRange> = entries
        .iter()
        .rev()
        .filter(|entry| entry.list == "deny")
        .map(|entry| (entry.name, entry.range))
        .collect();
    let allowed = entries
        .iter()
        .filter(|entry| entry.list == "allow" && entry.info.is_registered());
    for entry in allowed {
        if let Some(deny) = denied.get(entry.name) {
            out.push(
                RULE.at(
                    path,
                    entry.range,
                    format!("`{}` is both allowed and denied; deny wins", entry.name),
                )
                .with_related(Related {
                    path: path.to_path_buf(),
                    range: *deny,
                    message: "denied here".into(),
                }),
            );
        }
    }
}
