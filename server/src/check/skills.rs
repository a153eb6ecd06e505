//! Whole-workspace skill rules: facts that hold for every skill that has some key, said once per
//! workspace instead of once per skill (`SK025`: `allowed-tools` is not enforced). A large
//! workspace's report stays readable.
//!
//! Pure over the snapshot's parsed skills.

use std::path::Path;

use crate::base::{Diagnostic, TextRange};
use crate::rules::skill::SK025;
use crate::workspace::skill::SkillDoc;
use crate::workspace::Workspace;

pub fn check(workspace: &Workspace) -> Vec<Diagnostic> {
    let mut setting = workspace
        .skills
        .iter()
        .filter_map(|s| Some((s, allowed_tools_key(s)?)));
    let Some((first, range)) = setting.next() else {
        return Vec::new();
    };
    vec![allowed_tools_note(&first.path, range, 1 + setting.count())]
}

/// The range of the `allowed-tools` key of a skill the runtime loads, when it sets one (the
/// skills `SK025` counts).
pub fn allowed_tools_key(skill: &SkillDoc) -> Option<TextRange> {
    skill
        .outcome
        .is_ok()
        .then(|| skill.entry("allowed-tools").map(|e| e.key_range))
        .flatten()
}

/// `SK025` at the first skill (in path order) that sets `allowed-tools`, `count` skills in all.
/// Its own function so that the analysis engine can decide who is first from facts that hold
/// no position, and take the position from that one file.
pub fn allowed_tools_note(first: &Path, key_range: TextRange, count: usize) -> Diagnostic {
    let others = match count {
        1 => "this is the only skill that sets it".to_string(),
        n => format!("{n} skills set it; said once, here"),
    };
    SK025.at(
        first,
        key_range,
        format!(
            "`allowed-tools` is rendered into the prompt, but the harness does not restrict any tool with it ({others})"
        ),
    )
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::Config;
    use crate::workspace::Workspace;

    fn skill(name: &str, extra: &str) -> String {
        format!("---\nname: {name}\ndescription: d\n{extra}---\nBody\n")
    }

    #[test]
    fn allowed_tools_is_said_once_per_workspace() {
        let ws = Workspace::from_texts(
            Config::defaults_for(Path::new("/p")),
            [
                (
                    "/p/.agentscope/workspace/skills/b/SKILL.md",
                    skill("b", "allowed-tools: Read\n"),
                ),
                (
                    "/p/.agentscope/workspace/skills/a/SKILL.md",
                    skill("a", "license: MIT\nallowed-tools: Read Grep\n"),
                ),
                ("/p/.agentscope/workspace/skills/c/SKILL.md", skill("c", "")),
                // Dropped skills do not count.
                (
                    "/p/.agentscope/workspace/skills/d/SKILL.md",
                    "---\nallowed-tools: Read\n---\nBody\n".to_string(),
                ),
            ],
        );
        let found = super::check(&ws);
        assert_eq!(found.len(), 1);
        let d = &found[0];
        assert_eq!(d.code, "SK025");
        assert!(d.path.ends_with("skills/a/SKILL.md"));
        let text = ws.files.text(&d.path).unwrap();
        assert_eq!(&text[d.range.start..d.range.end], "allowed-tools");
        assert_eq!(
            d.message,
            "`allowed-tools` is rendered into the prompt, but the harness does not restrict any tool with it (2 skills set it; said once, here)"
        );
        let none = Workspace::from_texts(
            Config::defaults_for(Path::new("/p")),
            [("/p/.agentscope/workspace/skills/c/SKILL.md", skill("c", ""))],
        );
        assert_eq!(super::check(&none), vec![]);
    }
}
