//! TJ001 `tools-json-invalid`: text Jackson's strict JSON parser rejects (comments, trailing
//! commas, single quotes, a syntax error); the runtime ignores the whole file. Fixes where the
//! text is the author's own: a trailing comma removed, single quotes made double.

use super::{Parser, WHOLE_FILE};
use crate::base::{Diagnostic, Fix, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::json::{Problem, ProblemKind};

declare_rule! {
    code: "TJ001",
    name: "tools-json-invalid",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "tools.json is not strict JSON (comments, trailing commas, single quotes, unquoted names, NaN, hex, …).",
    consequence: WHOLE_FILE,
    explanation: "The runtime reads tools.json with a default Jackson `ObjectMapper`: strict JSON, no \
comments, no trailing commas, no single quotes, no unquoted names, no `NaN`/`Infinity`/hex/`+1`/`.5`/`01`, \
no raw control characters in strings, no escapes beyond `\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX`, and at most \
1000 levels of nesting. One such construct anywhere makes the whole file fail to parse, and the agent \
silently runs with the default toolkit.\n\nTo document entries, use comment *keys*, which Jackson ignores:\n\n\
```json\n{\n  \"// description\": \"read-only agent\",\n  \"deny\": [\"execute\"]\n}\n```\n\nA trailing comma \
carries a fix that removes it; a single-quoted string without `\"` or `\\` inside, one that switches to \
double quotes.",
    examples: &[
        Example {
            base: Base::None,
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"],
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
            ],
            at: ".agentscope/workspace/tools.json:2:22",
        },
    ],
}

impl Parser<'_> {
    /// `problem`, at `range` in the original text.
    pub(super) fn invalid_json(&self, problem: &Problem, range: TextRange) -> Diagnostic {
        let diagnostic = RULE.at(&self.path, range, problem.message());
        let verbatim = self.sub.is_verbatim(problem.range);
        let fix = |title: &str, new_text: String| Fix::replace(title, &self.path, range, new_text);
        match &problem.kind {
            ProblemKind::TrailingComma if verbatim => {
                diagnostic.with_fix(fix("Remove the trailing comma", String::new()))
            }
            ProblemKind::SingleQuotedString if verbatim => {
                let raw = &self.sub.text[problem.range.start..problem.range.end];
                let inner = raw
                    .strip_prefix('\'')
                    .and_then(|r| r.strip_suffix('\''))
                    .filter(|inner| !inner.contains(['"', '\\']));
                match inner {
                    Some(inner) => {
                        diagnostic.with_fix(fix("Use double quotes", format!("\"{inner}\"")))
                    }
                    None => diagnostic,
                }
            }
            _ => diagnostic,
        }
    }
}
