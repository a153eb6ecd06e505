//! Cross-file rules (`XR…`, harness-spec §9.5): references between workspace files that the
//! runtime never checks — subagent `skills:` against the skills that exist, subagent
//! `workspace.path` targets, and (with the tool catalog) subagent `tools:` and tool mentions.
//!
//! Pure over the snapshot. Per-file entry point `check_file` so an editor change re-checks only the
//! files that depend on it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::base::Diagnostic;
use crate::rules::cross::*;
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::{Tree, Workspace};

/// Every cross-file diagnostic of the workspace.
pub fn check(workspace: &Workspace) -> Vec<Diagnostic> {
    let index = SkillNames::new(workspace);
    workspace
        .subagents
        .iter()
        .flat_map(|s| check_subagent(workspace, &index, s))
        .collect()
}

/// Cross-file diagnostics whose primary location is `path`.
pub fn check_file(workspace: &Workspace, path: &Path) -> Vec<Diagnostic> {
    let index = SkillNames::new(workspace);
    workspace
        .subagents
        .iter()
        .filter(|s| s.path == path)
        .flat_map(|s| check_subagent(workspace, &index, s))
        .collect()
}

/// Names of loaded skills: those every call can see, and those only some namespaces see.
struct SkillNames<'a> {
    everywhere: BTreeSet<&'a str>,
    per_namespace: BTreeMap<&'a str, BTreeSet<&'a str>>,
}

impl<'a> SkillNames<'a> {
    fn new(workspace: &'a Workspace) -> Self {
        let mut everywhere = BTreeSet::new();
        let mut per_namespace: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for skill in &workspace.skills {
            let (Ok(()), Some(name)) = (&skill.outcome, skill.name.as_deref()) else {
                continue;
            };
            match &skill.location.tree {
                Tree::Shared | Tree::Project => {
                    everywhere.insert(name);
                }
                Tree::Namespace(ns) => {
                    per_namespace.entry(name).or_default().insert(ns.as_str());
                }
            }
        }
        Self {
            everywhere,
            per_namespace,
        }
    }
}

fn check_subagent(
    workspace: &Workspace,
    skills: &SkillNames,
    subagent: &SubagentDoc,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if subagent.outcome.is_err() {
        return out;
    }
    let own_namespace = match &subagent.location.tree {
        Tree::Namespace(ns) => Some(ns.as_str()),
        _ => None,
    };
    for entry in &subagent.skills {
        let name = entry.value.as_str();
        if skills.everywhere.contains(name) {
            continue;
        }
        match skills.per_namespace.get(name) {
            Some(users) if own_namespace.is_some_and(|ns| users.contains(ns)) => {}
            Some(users) => {
                let list = users
                    .iter()
                    .map(|u| format!("`{u}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                out.push(XR011.at(
                    &subagent.path,
                    entry.range,
                    format!("skill `{name}` exists only in the per-user folder(s) {list}"),
                ));
            }
            None => out.push(XR004.at(
                &subagent.path,
                entry.range,
                format!("no skill is named `{name}`"),
            )),
        }
    }

    if let (Some(spec), Some(dir)) = (
        &subagent.workspace_path,
        workspace.subagent_workspace_dir(subagent),
    ) {
        let config = &workspace.config;
        let inside_subagents = [Tree::Shared, Tree::Project]
            .iter()
            .map(|t| workspace.path_in(t, "subagents"))
            .chain(
                workspace
                    .namespaces
                    .iter()
                    .map(|ns| config.workspace.join(ns).join("subagents")),
            )
            .any(|folder| dir.starts_with(folder));
        if inside_subagents {
            out.push(XR008.at(
                &subagent.path,
                spec.range,
                format!(
                    "`workspace.path` `{}` is inside a `subagents/` folder",
                    spec.value
                ),
            ));
        }
        let files = &workspace.files;
        if !files.contains_dir(&dir) {
            out.push(XR009.at(
                &subagent.path,
                spec.range,
                format!("`workspace.path` folder `{}` does not exist", dir.display()),
            ));
        } else if !files.contains_file(&dir.join("AGENTS.md")) {
            out.push(XR009.at(
                &subagent.path,
                spec.range,
                format!(
                    "`workspace.path` folder `{}` has no AGENTS.md",
                    dir.display()
                ),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use crate::base::TextRange;
    use crate::config::Config;
    use crate::workspace::subagent::Spanned;
    use crate::workspace::Workspace;

    #[test]
    fn skills_named_by_subagents_must_exist() {
        let config = Config::defaults_for(Path::new("/p"));
        let mut ws = Workspace::from_texts(
            config,
            [
                (
                    "/p/.agentscope/workspace/skills/a/SKILL.md",
                    "---\nname: shared-skill\ndescription: d\n---\nbody\n",
                ),
                (
                    "/p/.agentscope/workspace/alice/skills/b/SKILL.md",
                    "---\nname: alice-skill\ndescription: d\n---\nbody\n",
                ),
                (
                    "/p/.agentscope/workspace/subagents/r.md",
                    "---\ndescription: d\n---\n",
                ),
            ],
        );
        let mut doc = (*ws.subagents[0]).clone();
        doc.skills = ["shared-skill", "alice-skill", "nope"]
            .iter()
            .enumerate()
            .map(|(i, s)| Spanned {
                value: s.to_string(),
                range: TextRange::new(i * 10, i * 10 + 5),
            })
            .collect();
        doc.workspace_path = Some(Spanned {
            value: "subagents/r-home".into(),
            range: TextRange::new(40, 56),
        });
        ws.subagents[0] = std::sync::Arc::new(doc);
        let found: Vec<_> = super::check(&ws)
            .into_iter()
            .map(|d| (d.code, d.range.start, d.message))
            .collect();
        assert_eq!(
            found,
            vec![
                (
                    "XR011",
                    10,
                    "skill `alice-skill` exists only in the per-user folder(s) `alice`".to_string()
                ),
                ("XR004", 20, "no skill is named `nope`".to_string()),
                (
                    "XR008",
                    40,
                    "`workspace.path` `subagents/r-home` is inside a `subagents/` folder"
                        .to_string()
                ),
                (
                    "XR009",
                    40,
                    format!(
                        "`workspace.path` folder `{}` does not exist",
                        PathBuf::from("/p/.agentscope/workspace/subagents/r-home").display()
                    )
                ),
            ]
        );
    }
}
