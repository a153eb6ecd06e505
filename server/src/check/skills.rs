//! Whole-workspace skill rules: facts that hold for every skill that has some key, said once per
//! workspace instead of once per skill (`SK025`: `allowed-tools` is not enforced). A large
//! workspace's report stays readable.
//!
//! Pure over the snapshot's parsed skills.

use crate::base::Diagnostic;
use crate::rules::skill::SK025;
use crate::workspace::Workspace;

pub fn check(workspace: &Workspace) -> Vec<Diagnostic> {
    let mut setting = workspace
        .skills
        .iter()
        .filter(|s| s.outcome.is_ok())
        .filter_map(|s| s.entry("allowed-tools").map(|e| (s, e.key_range)));
    let Some((first, range)) = setting.next() else {
        return Vec::new();
    };
    let count = 1 + setting.count();
    let others = match count {
        1 => "this is the only skill that sets it".to_string(),
        n => format!("{n} skills set it; said once, here"),
    };
    vec![SK025.at(
        &first.path,
        range,
        format!(
            "`allowed-tools` is rendered into the prompt, but the harness does not restrict any tool with it ({others})"
        ),
    )]
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
