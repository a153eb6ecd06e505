//! Cross-file rules (`XR…`, harness-spec §9.5): references between workspace files that the
//! runtime never checks — subagent `skills:` against the skills that exist, subagent
//! `workspace.path` targets, subagent `tools:` against the tool catalog, and prompt text that
//! mentions tools tools.json removes — and the subagent `model:` against agentws.toml's
//! `[agent] models` and the shipped model providers (`SA025`). A model id or a set of unknown
//! tool names repeated across subagent files is one finding (`one_warning_per_value`).
//!
//! Pure over the snapshot. The per-file mention check (`removed_tool_mentions`) is separate, and
//! split into the text's mentions and their comparison with the catalog, so that the engine keeps
//! the first per file and a tools.json edit runs only the second.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::base::suggest::{hint, SuggestionPieces, Suggestions};
use crate::base::{Diagnostic, Related, Severity, TextRange};
use crate::check::loading;
use crate::rules::cross::*;
use crate::rules::subagent::SA025;
use crate::workspace::catalog::{Removal, ToolCatalog, ToolOrigin};
use crate::workspace::models::{self, ModelLookup};
use crate::workspace::resolution::{Kind, Outcome, Who};
use crate::workspace::snapshot::WorkspaceFile;
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::{FileKind, Tree, Workspace};

/// Every cross-file diagnostic of the workspace.
pub fn check(workspace: &Workspace) -> Vec<Diagnostic> {
    let catalog = ToolCatalog::for_workspace(workspace);
    let mut out = check_references(workspace, &catalog);
    for file in workspace.workspace_files() {
        out.extend(removed_tool_mentions(&catalog, file));
    }
    out
}

/// The references between files: subagents' `tools:`, `skills:` and `workspace.path`, and
/// duplicate names and ids (everything but the per-file tool mentions).
pub fn check_references(workspace: &Workspace, catalog: &ToolCatalog) -> Vec<Diagnostic> {
    let contexts = loading::Contexts::new(workspace);
    let known_skills = || Arc::new(super::skill_name_index(workspace));
    let mut out = check_skill_references(workspace, &contexts, &known_skills);
    out.extend(check_tool_references(workspace, catalog));
    out.extend(loading::check_skills(workspace, &contexts, &|_| true));
    out.extend(loading::check_subagents(workspace, &contexts));
    out
}

/// What each subagent's `skills:` and `workspace.path` name, over contexts already resolved
/// (the driver resolves them once for every rule that needs them). Reads no tool catalog.
pub fn check_skill_references(
    workspace: &Workspace,
    contexts: &loading::Contexts,
    known_skills: &dyn Fn() -> Arc<SuggestionPieces>,
) -> Vec<Diagnostic> {
    workspace
        .subagents
        .iter()
        .flat_map(|s| check_subagent(workspace, contexts, known_skills, s))
        .collect()
}

/// What the subagents' `tools:` and `model:` name, against the catalog and the model lists.
/// Reads no skill and no session context.
pub fn check_tool_references(workspace: &Workspace, catalog: &ToolCatalog) -> Vec<Diagnostic> {
    let found = tool_list_findings(workspace, catalog);
    merge_tool_list_findings([&found])
}

/// What [`check_tool_references`] finds in each subagent of a workspace alone, before the
/// findings several files share are merged ([`merge_tool_list_findings`]): the engine keeps it
/// per chunk of subagents, so that a subagent's edit looks at its chunk again and merges.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolListFindings {
    /// The diagnostics no other file changes.
    diagnostics: Vec<Diagnostic>,
    /// Unknown tool lists (`XR001`) and unresolvable models (`SA025`), one warning per value.
    tools: Vec<Repeatable>,
    models: Vec<Repeatable>,
    /// The subagents whose `tools:` name harness built-ins (`XR003`, said at the first).
    builtins: Vec<BuiltinsNamed>,
}

#[derive(Clone, Debug, PartialEq)]
struct BuiltinsNamed {
    path: PathBuf,
    range: TextRange,
    names: Vec<String>,
}

/// The per-subagent findings of [`check_tool_references`], over the subagents of `workspace`
/// that load.
pub fn tool_list_findings(workspace: &Workspace, catalog: &ToolCatalog) -> ToolListFindings {
    let mut found = ToolListFindings::default();
    for subagent in workspace.subagents.iter().filter(|s| s.outcome.is_ok()) {
        let (unknown, other) = check_subagent_tools(workspace, catalog, subagent);
        found.tools.extend(unknown);
        found.diagnostics.extend(other);
        found.models.extend(check_model(workspace, subagent));
        found.builtins.extend(builtins_named(catalog, subagent));
    }
    found
}

/// The diagnostics of findings taken from disjoint sets of subagents, together: a value
/// repeated across files is one warning at the first file in path order, an info at the others
/// (`one_warning_per_value`), and `XR003` is said once.
pub fn merge_tool_list_findings<'a>(
    parts: impl IntoIterator<Item = &'a ToolListFindings>,
) -> Vec<Diagnostic> {
    let (mut tools, mut models, mut builtins) = (Vec::new(), Vec::new(), Vec::new());
    let mut out = Vec::new();
    for part in parts {
        out.extend(part.diagnostics.iter().cloned());
        tools.extend(part.tools.iter().cloned());
        models.extend(part.models.iter().cloned());
        builtins.extend(part.builtins.iter());
    }
    // Findings about values copied from another agent runtime, which a collection repeats in
    // every file: one warning per distinct value, an info pointing at it everywhere else.
    let by_path = |r: &Repeatable| r.diagnostic.path.clone();
    tools.sort_by_cached_key(by_path);
    models.sort_by_cached_key(by_path);
    out.extend(one_warning_per_value(
        tools,
        (
            "names the same unknown tools",
            "name the same unknown tools",
        ),
    ));
    out.extend(one_warning_per_value(
        models,
        ("names the same model", "name the same model"),
    ));
    out.extend(builtins_named_once(&builtins));
    out
}

/// The harness built-ins a subagent's `tools:` names, which every child has anyway.
fn builtins_named(catalog: &ToolCatalog, subagent: &SubagentDoc) -> Option<BuiltinsNamed> {
    let names: Vec<String> = subagent
        .tools
        .iter()
        .map(|t| t.value.as_str())
        .filter(|name| {
            let info = catalog.lookup(name);
            matches!(info.origin, ToolOrigin::BuiltIn(_)) && info.removal.is_none()
        })
        .map(str::to_string)
        .collect();
    (!names.is_empty()).then(|| BuiltinsNamed {
        path: subagent.path.clone(),
        range: tools_line(subagent).unwrap_or(subagent.opening_range),
        names,
    })
}

/// XR003, once per workspace: `tools:` lists naming harness built-ins. The fact holds for every
/// such list, so it is said at the first one in path order only.
fn builtins_named_once(naming: &[&BuiltinsNamed]) -> Vec<Diagnostic> {
    let Some(first) = naming.iter().min_by(|a, b| a.path.cmp(&b.path)) else {
        return Vec::new();
    };
    let builtins: Vec<&str> = first.names.iter().map(String::as_str).collect();
    let also = match naming.len() - 1 {
        0 => String::new(),
        1 => "; 1 other subagent's `tools:` names built-ins too".to_string(),
        n => format!("; {n} other subagents' `tools:` name built-ins too"),
    };
    vec![XR003.at(
        &first.path,
        first.range,
        format!(
            "{} {} harness built-in{}: `tools:` only chooses among the parent's own tools, and every child has the built-ins anyway{also}",
            names_list(&builtins),
            if builtins.len() == 1 { "is a" } else { "are" },
            if builtins.len() == 1 { "" } else { "s" },
        ),
    )]
}

/// The span of the names one list diagnostic concerns: from the first to the last (a single
/// name's own range when there is one).
#[derive(Clone, Copy)]
struct Span(Option<TextRange>);

impl Span {
    const NONE: Span = Span(None);

    fn add(&mut self, range: TextRange) {
        self.0 = Some(match self.0 {
            None => range,
            Some(r) => TextRange::new(r.start.min(range.start), r.end.max(range.end)),
        });
    }

    fn or(self, fallback: TextRange) -> TextRange {
        self.0.unwrap_or(fallback)
    }
}

/// The range of a subagent's `tools:` value (the line the per-list diagnostics point at).
fn tools_line(subagent: &SubagentDoc) -> Option<TextRange> {
    list_range(subagent, "tools")
}

fn list_range(subagent: &SubagentDoc, key: &str) -> Option<TextRange> {
    subagent
        .metadata
        .iter()
        .find(|e| e.key == key)
        .map(|e| e.value.range)
}

fn names_list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Backticked tool names (`` `name` `` or `` `name(...)` ``) in AGENTS.md and SKILL.md text that
/// name a registered tool tools.json removes.
pub fn removed_tool_mentions(catalog: &ToolCatalog, file: WorkspaceFile) -> Vec<Diagnostic> {
    if !mentions_tools(file.kind) {
        return Vec::new();
    }
    let Some(text) = file.entry.content.text() else {
        return Vec::new();
    };
    removed_among(catalog, file.path, &tool_mentions(text))
}

/// The kinds of file whose text `XR010` reads.
pub fn mentions_tools(kind: FileKind) -> bool {
    matches!(kind, FileKind::AgentsMd | FileKind::Skill)
}

/// A backticked name that may be a tool's: where it starts, and the name.
pub type ToolMention = (usize, String);

/// The backticked names of `text` that may be tools' names (ASCII letters, digits and `_`, at
/// most 64 bytes), in text order. They read the text alone, so the engine keeps them per file and
/// a tools.json edit only compares them with the new catalog.
pub fn tool_mentions(text: &str) -> Vec<ToolMention> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut offset = 0;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else { break };
        let inner = &after[..close];
        let name = inner.split('(').next().unwrap_or_default();
        if !name.is_empty()
            && name.len() <= 64
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            out.push((offset + open + 1, name.to_string()));
        }
        let consumed = open + 1 + close + 1;
        offset += consumed;
        rest = &rest[consumed..];
    }
    out
}

/// `XR010` for the `mentions` of the file at `path` that name a registered tool tools.json
/// removes.
pub fn removed_among(
    catalog: &ToolCatalog,
    path: &Path,
    mentions: &[ToolMention],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (start, name) in mentions {
        let info = catalog.lookup(name);
        if info.is_registered() && info.removal.is_some() && !info.readded {
            let how = match info.removal {
                Some(Removal::Denied(_)) => "denies",
                _ => "leaves out of `allow`",
            };
            out.push(XR010.at(
                path,
                TextRange::new(*start, start + name.len()),
                format!("mentions `{name}`, which tools.json {how}"),
            ));
        }
    }
    out
}

fn check_subagent(
    workspace: &Workspace,
    contexts: &loading::Contexts,
    known_skills: &dyn Fn() -> Arc<SuggestionPieces>,
    subagent: &SubagentDoc,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if subagent.outcome.is_err() {
        return out;
    }
    // The child sees the skills of its parent's call: the contexts that load this spec.
    let own = contexts.for_tree(&subagent.location.tree);
    let mut unknown: Vec<&str> = Vec::new();
    let mut other_users: Vec<String> = Vec::new();
    let (mut unknown_at, mut other_at) = (Span::NONE, Span::NONE);
    for entry in &subagent.skills {
        let name = entry.value.as_str();
        if own.iter().any(|(_, r)| r.skill_named(name).is_some()) {
            continue;
        }
        let elsewhere: Vec<String> = contexts
            .list
            .iter()
            .filter(|(_, r)| r.skill_named(name).is_some())
            .map(|(who, _)| match who {
                Who::Folder(ns) => format!("`{ns}`"),
                other => loading::who_label(workspace, other),
            })
            .collect();
        if !elsewhere.is_empty() {
            other_users.push(format!("`{name}` ({})", elsewhere.join(", ")));
            other_at.add(entry.range);
            continue;
        }
        // A file of that name that no context loads: say why rather than "no skill".
        let unloaded = workspace
            .skills
            .iter()
            .filter(|d| d.name.as_deref() == Some(name))
            .find_map(|d| {
                own.iter().find_map(|(who, r)| match r.skill_outcome(d) {
                    Outcome::NotScanned(reason) => Some((d, reason, who)),
                    _ => None,
                })
            });
        match unloaded {
            Some((doc, reason, who)) => out.push(XR004.at(
                &subagent.path,
                entry.range,
                format!(
                    "no loaded skill is named `{name}`: `{}` is, but it is not loaded ({})",
                    doc.location.rel,
                    reason.describe(
                        workspace,
                        Kind::Skill,
                        match who {
                            Who::AnyUser => Some("<user>"),
                            _ => None,
                        }
                    )
                ),
            )),
            None => {
                unknown.push(name);
                unknown_at.add(entry.range);
            }
        }
    }
    if let Some(line) = list_range(subagent, "skills") {
        if !other_users.is_empty() {
            let (verb, noun) = if other_users.len() == 1 {
                ("exists", "skill")
            } else {
                ("exist", "skills")
            };
            out.push(XR011.at(
                &subagent.path,
                other_at.or(line),
                format!(
                    "the {noun} {} {verb} only in per-user folders",
                    other_users.join(", ")
                ),
            ));
        }
        if !unknown.is_empty() {
            let index = known_skills();
            let known = Suggestions::of_pieces(&index);
            let message = match unknown.as_slice() {
                [name] => format!("no skill is named `{name}`{}", hint(known.best(name))),
                _ => format!(
                    "no skills are named {}",
                    unknown
                        .iter()
                        .map(|name| match known.best(name) {
                            Some(best) => format!("`{name}` (did you mean `{best}`?)"),
                            None => format!("`{name}`"),
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            out.push(XR004.at(&subagent.path, unknown_at.or(line), message));
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

/// The `tools:` list of one subagent against the catalog: one diagnostic per finding, each
/// listing every name it concerns, from the first of them to the last.
///
/// A non-empty `tools:` keeps only the inherited (user-registered) tools it names; harness
/// built-ins are registered again by the child and are not filtered (XR003, said once per
/// workspace by `builtins_named_once`).
fn check_subagent_tools(
    workspace: &Workspace,
    catalog: &ToolCatalog,
    subagent: &SubagentDoc,
) -> (Option<Repeatable>, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let Some(line) = tools_line(subagent) else {
        return (None, out);
    };
    if subagent.tools.is_empty() {
        return (None, out);
    }
    let path = &subagent.path;
    let mut unknown: Vec<String> = Vec::new();
    let mut removed: Vec<String> = Vec::new();
    let mut removed_builtins: Vec<&str> = Vec::new();
    let (mut unknown_at, mut removed_at, mut builtins_at) = (Span::NONE, Span::NONE, Span::NONE);
    let mut keeps_some = false;
    for entry in &subagent.tools {
        let name = entry.value.as_str();
        let info = catalog.lookup(name);
        let how = match info.removal {
            Some(Removal::Denied(_)) => "denied",
            _ => "not in `allow`",
        };
        let mut unknown_because = |why: String| {
            unknown.push(why);
            unknown_at.add(entry.range);
        };
        match &info.origin {
            ToolOrigin::BuiltIn(_) if info.removal.is_some() && !info.readded => {
                removed_builtins.push(name);
                builtins_at.add(entry.range);
            }
            ToolOrigin::BuiltIn(_) => {}
            ToolOrigin::Mcp { .. } | ToolOrigin::MaybeMcp { .. } => {
                if info.removal.is_some() {
                    removed.push(format!("`{name}` ({how})"));
                    removed_at.add(entry.range);
                } else {
                    keeps_some = true;
                }
            }
            ToolOrigin::Unknown if catalog.allows_by_name(name) => keeps_some = true,
            ToolOrigin::BuiltInDisabled(group) => {
                unknown_because(format!("`{name}` ({})", group.requirement()))
            }
            ToolOrigin::OptIn { needs } => {
                unknown_because(format!("`{name}` (only registered with {needs})"))
            }
            ToolOrigin::McpNotRegistered { servers } => unknown_because(format!(
                "`{name}` (from {}, which the runtime skips)",
                servers
                    .iter()
                    .map(|s| format!("MCP server `{s}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            ToolOrigin::Unknown => unknown_because(
                match crate::check::tools::declared_in_unread(workspace, name) {
                    Some((server, why)) => format!(
                        "`{name}` (MCP server `{server}` lists it in a tools.json the runtime never reads: {why})"
                    ),
                    None => match Suggestions::of(catalog.name_index()).best(name) {
                        Some(best) => format!("`{name}` (did you mean `{best}`?)"),
                        None => format!("`{name}`"),
                    },
                },
            ),
        }
    }
    let mut repeatable = None;
    if !unknown.is_empty() {
        let consequence = if keeps_some {
            "These names keep nothing: the child inherits only the parent's own tools the list names that exist."
        } else {
            "A non-empty `tools:` keeps only the inherited tools it names, and none of these exists: the child inherits none of the parent's own tools (it keeps the harness built-ins)."
        };
        let mut key = unknown.clone();
        key.sort();
        key.dedup();
        repeatable = Some(Repeatable {
            key: key.join("\n"),
            place: place(subagent),
            diagnostic: XR001
                .at(
                    path,
                    unknown_at.or(line),
                    format!(
                        "`tools:` names {} that the agent does not register (a tool registered in Java code is invisible to agentws)",
                        plural(&unknown, "a tool", "tools")
                    ),
                )
                .with_consequence(consequence),
        });
    }
    if !removed.is_empty() {
        out.push(XR002.at(
            path,
            removed_at.or(line),
            format!(
                "tools.json removes {} from the parent's toolkit, so the child cannot inherit {}",
                removed.join(", "),
                if removed.len() == 1 { "it" } else { "them" }
            ),
        ));
    }
    if !removed_builtins.is_empty() {
        let listed = names_list(&removed_builtins);
        let it = if removed_builtins.len() == 1 {
            "it"
        } else {
            "them"
        };
        let message = if crate::check::tools::child_skips_tools_json(workspace, subagent) {
            format!(
                "tools.json removes {listed} from the main agent only: this isolated subagent registers the harness built-ins again and still has {it}, whatever `tools:` says"
            )
        } else {
            format!(
                "tools.json removes {listed}, and this subagent reads the same tools.json: it does not get {it}, whatever `tools:` says"
            )
        };
        out.push(XR015.at(path, builtins_at.or(line), message));
    }
    (repeatable, out)
}

/// SA025: a `model:` the runtime cannot resolve (harness-spec §3.2: the child gets the parent's).
fn check_model(workspace: &Workspace, subagent: &SubagentDoc) -> Option<Repeatable> {
    let model = subagent.model.as_ref()?;
    if model.value.is_empty() {
        return None;
    }
    let registered = &workspace.config.agent.models;
    if models::resolve(&model.value, registered) != ModelLookup::Unresolvable {
        return None;
    }
    let hint = models::hint(&model.value)
        .map(|h| format!("; {h}"))
        .unwrap_or_default();
    Some(Repeatable {
        key: model.value.clone(),
        place: place(subagent),
        diagnostic: SA025.at(
            &subagent.path,
            model.range,
            format!(
                "no model provider shipped with AgentScope supports `{}`, and agentws.toml's `[agent] models` does not list it: at spawn the runtime logs a warning and this subagent runs on the parent's model{hint}",
                model.value
            ),
        ),
    })
}

/// A finding about a value that a collection copied from another agent runtime tends to repeat
/// in every file (a model id, a list of tool names): findings with the same `key` (under one
/// rule) are the same finding.
#[derive(Clone, Debug, PartialEq)]
struct Repeatable {
    key: String,
    /// Where the file is, for the others' messages.
    place: String,
    diagnostic: Diagnostic,
}

/// One warning per distinct value: the first file in path order (`found` is in path order) keeps
/// the diagnostic, its message saying how many other files share it (`share`: the verb phrase
/// for one file and for several); every other file gets
/// the same text as an info at its own position, pointing at the first. Severity then depends on
/// the whole workspace only (check and the language server agree), and a value used once reads
/// exactly as before.
fn one_warning_per_value(found: Vec<Repeatable>, share: (&str, &str)) -> Vec<Diagnostic> {
    let mut groups: Vec<Vec<Repeatable>> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = Default::default();
    for r in found {
        match index.get(&r.key) {
            Some(&i) => groups[i].push(r),
            None => {
                index.insert(r.key.clone(), groups.len());
                groups.push(vec![r]);
            }
        }
    }
    let mut out = Vec::new();
    for group in groups {
        let mut group = group.into_iter();
        let Some(first) = group.next() else { continue };
        let others: Vec<Repeatable> = group.collect();
        let mut lead = first.diagnostic;
        match others.len() {
            0 => {}
            1 => lead.message += &format!("; 1 other subagent file {} (info there)", share.0),
            n => lead.message += &format!("; {n} other subagent files {} (info there)", share.1),
        }
        for other in others {
            let d = other.diagnostic;
            out.push(
                Diagnostic {
                    message: format!("same as in {}: {}", first.place, d.message),
                    ..d
                }
                .with_severity(Severity::Info)
                .with_related(Related {
                    path: lead.path.clone(),
                    range: lead.range,
                    message: "reported here as a warning, for every file that shares it".into(),
                }),
            );
        }
        out.push(lead);
    }
    out
}

/// A subagent file's place for messages about another file: `` `subagents/x.md` `` in the
/// shared workspace, with its tree named otherwise.
fn place(subagent: &SubagentDoc) -> String {
    match subagent.location.tree {
        Tree::Shared => format!("`{}`", subagent.location.rel),
        ref tree => format!("`{}` in {}", subagent.location.rel, tree.label()),
    }
}

/// `names` joined, after "a tool" or "tools" as fits their number.
fn plural(names: &[String], one: &str, many: &str) -> String {
    match names.len() {
        1 => format!("{one} {}", names[0]),
        _ => format!("{many} {}", names.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use crate::config::Config;
    use crate::workspace::Workspace;

    const SUBAGENT: &str = "---\ndescription: d\nskills: [shared-skill, alice-skill, nope, gone]\nworkspace:\n  path: subagents/r-home\n---\n";

    #[test]
    fn skills_named_by_subagents_must_exist() {
        let config = Config::defaults_for(Path::new("/p"));
        let ws = Workspace::from_texts(
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
                ("/p/.agentscope/workspace/subagents/r.md", SUBAGENT),
            ],
        );
        // The subagent's own diagnostics (alice's skill in folder `b` also gets SK016 there).
        let found: Vec<_> = super::check(&ws)
            .into_iter()
            .filter(|d| d.path.ends_with("subagents/r.md"))
            .map(|d| (d.code, &SUBAGENT[d.range.start..d.range.end], d.message))
            .collect();
        // One diagnostic per `skills:` line and finding, naming every skill it concerns, from
        // the first of them to the last.
        assert_eq!(
            found,
            vec![
                (
                    "XR011",
                    "alice-skill",
                    "the skill `alice-skill` (`alice`) exists only in per-user folders".to_string()
                ),
                (
                    "XR004",
                    "nope, gone",
                    "no skills are named `nope`, `gone`".to_string()
                ),
                (
                    "XR008",
                    "subagents/r-home",
                    "`workspace.path` `subagents/r-home` is inside a `subagents/` folder"
                        .to_string()
                ),
                (
                    "XR009",
                    "subagents/r-home",
                    format!(
                        "`workspace.path` folder `{}` does not exist",
                        PathBuf::from("/p/.agentscope/workspace/subagents/r-home").display()
                    )
                ),
            ]
        );
    }

    #[test]
    fn unresolvable_models_unless_listed_in_agentws_toml() {
        let spec = |model: &str| format!("---\ndescription: d\nmodel: {model}\n---\n");
        let mut config = Config::defaults_for(Path::new("/p"));
        let files = [
            ("/p/.agentscope/workspace/subagents/a.md", spec("sonnet")),
            ("/p/.agentscope/workspace/subagents/b.md", spec("qwen3-max")),
            (
                "/p/.agentscope/workspace/subagents/c.md",
                spec("openai:gpt-4o-mini"),
            ),
            (
                "/p/.agentscope/workspace/subagents/d.md",
                spec("corp-large"),
            ),
        ];
        let ws = Workspace::from_texts(config.clone(), files.clone());
        let found: Vec<_> = super::check(&ws)
            .into_iter()
            .map(|d| {
                (
                    d.code,
                    d.path.file_name().unwrap().to_string_lossy().into_owned(),
                    d.range.start,
                    d.message,
                )
            })
            .collect();
        assert_eq!(
            found,
            vec![
                (
                    "SA025",
                    "a.md".to_string(),
                    26,
                    "no model provider shipped with AgentScope supports `sonnet`, and agentws.toml's `[agent] models` does not list it: at spawn the runtime logs a warning and this subagent runs on the parent's model; Anthropic models are written `anthropic:<model name>`".to_string()
                ),
                (
                    "SA025",
                    "d.md".to_string(),
                    26,
                    "no model provider shipped with AgentScope supports `corp-large`, and agentws.toml's `[agent] models` does not list it: at spawn the runtime logs a warning and this subagent runs on the parent's model".to_string()
                ),
            ]
        );
        // The first file in path order carries the warning, whichever tree it is in; the
        // others name it with its tree.
        let ws = Workspace::from_texts(
            Config::defaults_for(Path::new("/p")),
            [
                ("/p/.agentscope/workspace/subagents/b.md", spec("sonnet")),
                (
                    "/p/.agentscope/workspace/alice/subagents/a.md",
                    spec("sonnet"),
                ),
            ],
        );
        let found: Vec<_> = super::check(&ws)
            .into_iter()
            .map(|d| {
                (
                    d.severity,
                    d.path.to_string_lossy().into_owned(),
                    d.message.split(": at spawn").next().unwrap().to_string(),
                    d.related.iter().map(|r| r.path.clone()).collect::<Vec<_>>(),
                )
            })
            .collect();
        assert_eq!(
            found,
            vec![
                (
                    crate::base::Severity::Info,
                    "/p/.agentscope/workspace/subagents/b.md".to_string(),
                    "same as in `subagents/a.md` in the per-user folder `alice`: no model provider shipped with AgentScope supports `sonnet`, and agentws.toml's `[agent] models` does not list it".to_string(),
                    vec![PathBuf::from("/p/.agentscope/workspace/alice/subagents/a.md")],
                ),
                (
                    crate::base::Severity::Warning,
                    "/p/.agentscope/workspace/alice/subagents/a.md".to_string(),
                    "no model provider shipped with AgentScope supports `sonnet`, and agentws.toml's `[agent] models` does not list it".to_string(),
                    vec![],
                ),
            ]
        );
        config.agent.models = vec!["sonnet".into(), "corp-*".into()];
        let ws = Workspace::from_texts(config, files);
        assert_eq!(super::check(&ws), vec![]);
    }
}

#[cfg(test)]
mod tool_tests {
    use std::path::Path;

    use crate::config::Config;
    use crate::workspace::Workspace;

    const TOOLS: &str = r#"{
  "allow": ["read_file", "get_issue"],
  "deny": ["execute"],
  "mcpServers": {
    "tracker": {"transport": "stdio", "command": "tracker-mcp", "enableTools": ["get_issue", "close_issue"]}
  }
}"#;
    const TRIAGE: &str = "---\ndescription: triage\ntools: [read_file, get_issue, close_issue, nope, plan_write, execute]\n---\n";
    const WRITER: &str =
        "---\ndescription: writes\nworkspace:\n  mode: shared\ntools: [execute, web_fetch]\n---\n";
    const LOST: &str = "---\ndescription: lost\ntools: nope, nada\n---\n";
    const AGENTS: &str = "Use `get_issue`, then `close_issue(id)` when done.\n";

    #[test]
    fn one_diagnostic_per_tools_line_against_the_catalog() {
        let ws = Workspace::from_texts(
            Config::defaults_for(Path::new("/p")),
            [
                ("/p/.agentscope/workspace/tools.json", TOOLS),
                ("/p/.agentscope/workspace/subagents/triage.md", TRIAGE),
                ("/p/.agentscope/workspace/subagents/writer.md", WRITER),
                ("/p/.agentscope/workspace/subagents/lost.md", LOST),
                ("/p/.agentscope/workspace/AGENTS.md", AGENTS),
            ],
        );
        let found: Vec<(&str, String, String, String)> = super::check(&ws)
            .into_iter()
            .map(|d| {
                let text = ws.files.text(&d.path).unwrap();
                (
                    d.code,
                    text[d.range.start..d.range.end].to_string(),
                    d.message,
                    d.consequence,
                )
            })
            .collect();
        let line = "[read_file, get_issue, close_issue, nope, plan_write, execute]".to_string();
        assert_eq!(
            found,
            vec![
                (
                    "XR002",
                    "close_issue".to_string(),
                    "tools.json removes `close_issue` (not in `allow`) from the parent's toolkit, so the child cannot inherit it".to_string(),
                    crate::rules::cross::XR002.consequence.to_string(),
                ),
                (
                    "XR015",
                    "execute".to_string(),
                    "tools.json removes `execute` from the main agent only: this isolated subagent registers the harness built-ins again and still has it, whatever `tools:` says".to_string(),
                    crate::rules::cross::XR015.consequence.to_string(),
                ),
                (
                    "XR015",
                    "execute, web_fetch".to_string(),
                    "tools.json removes `execute`, `web_fetch`, and this subagent reads the same tools.json: it does not get them, whatever `tools:` says".to_string(),
                    crate::rules::cross::XR015.consequence.to_string(),
                ),
                (
                    "XR001",
                    "nope, nada".to_string(),
                    "`tools:` names tools `nope`, `nada` that the agent does not register (a tool registered in Java code is invisible to agentws)".to_string(),
                    "A non-empty `tools:` keeps only the inherited tools it names, and none of these exists: the child inherits none of the parent's own tools (it keeps the harness built-ins).".to_string(),
                ),
                (
                    "XR001",
                    "nope, plan_write".to_string(),
                    "`tools:` names tools `nope`, `plan_write` (needs `features.plan_mode = true`) that the agent does not register (a tool registered in Java code is invisible to agentws)".to_string(),
                    "These names keep nothing: the child inherits only the parent's own tools the list names that exist.".to_string(),
                ),
                // Said once for the workspace, at the first list naming built-ins.
                (
                    "XR003",
                    line,
                    "`read_file` is a harness built-in: `tools:` only chooses among the parent's own tools, and every child has the built-ins anyway".to_string(),
                    crate::rules::cross::XR003.consequence.to_string(),
                ),
                (
                    "XR010",
                    "close_issue".to_string(),
                    "mentions `close_issue`, which tools.json leaves out of `allow`".to_string(),
                    crate::rules::cross::XR010.consequence.to_string(),
                ),
            ]
        );
    }
}

#[cfg(test)]
mod duplicate_tests {
    use std::path::Path;

    use crate::config::Config;
    use crate::workspace::Workspace;

    fn skill(name: &str) -> String {
        format!("---\nname: {name}\ndescription: d\n---\nBody\n")
    }

    #[test]
    fn duplicates_say_who_wins_for_whom() {
        let mut config = Config::defaults_for(Path::new("/p"));
        config.agent.name = Some("assistant".into());
        let ws = Workspace::from_texts(
            config,
            [
                ("/p/.agentscope/workspace/skills/a/SKILL.md", skill("x")),
                ("/p/skills/p/SKILL.md", skill("x")),
                (
                    "/p/.agentscope/workspace/alice/skills/x/SKILL.md",
                    skill("x"),
                ),
                (
                    "/p/.agentscope/workspace/subagents/r.md",
                    "---\ndescription: d\n---\n".to_string(),
                ),
                (
                    "/p/.agentscope/workspace/alice/subagents/deep/r.md",
                    "---\ndescription: d\n---\n".to_string(),
                ),
            ],
        );
        let mut found: Vec<(String, &str, String)> = super::check_references(
            &ws,
            &crate::workspace::catalog::ToolCatalog::for_workspace(&ws),
        )
        .into_iter()
        .map(|d| (d.path.to_string_lossy().into_owned(), d.code, d.message))
        .collect();
        found.sort();
        // Callers without a folder get the project copy (Layer 4 lower beats Layer 3); alice's
        // own copy sits on top of that, and her nested `r.md` replaces the shared one.
        assert_eq!(
            found,
            vec![
                // Alice's copy is served by the namespaced repository, which advertises
                // `<ws>/skills/x` whatever the namespace.
                (
                    "/p/.agentscope/workspace/alice/skills/x/SKILL.md".to_string(),
                    "SK027",
                    "for user `alice` the namespaced repository serves this skill from the per-user folder `alice`, but the prompt advertises `<files-root>` `/p/.agentscope/workspace/skills/x` (built from the name, without the folder), a folder that does not exist".to_string()
                ),
                (
                    "/p/.agentscope/workspace/alice/skills/x/SKILL.md".to_string(),
                    "XR006",
                    "skill `x` overrides the one in the project folder (`skills/p/SKILL.md`) for `alice`".to_string()
                ),
                (
                    "/p/.agentscope/workspace/skills/a/SKILL.md".to_string(),
                    "XR005",
                    "skill `x` is also defined in the project folder (`skills/p/SKILL.md`), which wins for every caller without a per-user copy".to_string()
                ),
                (
                    "/p/.agentscope/workspace/subagents/r.md".to_string(),
                    "XR007",
                    "agent id `r` is also given by the per-user folder `alice` (`subagents/deep/r.md`), which wins for `alice` (dynamic mode)".to_string()
                ),
                // The project copy is served by the namespaced repository (Layer 4 lower), whose
                // files-root is built from the name.
                (
                    "/p/skills/p/SKILL.md".to_string(),
                    "SK016",
                    "the skill is named `x` but its folder is `p`; for any user (scope `user`) the namespaced repository serves it and the prompt advertises `<files-root>` `/p/.agentscope/workspace/skills/x`, a folder that does not exist".to_string()
                ),
            ]
        );
    }
}
