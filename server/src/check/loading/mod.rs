//! Loading outcomes reported (harness-spec §2.1–2.2, §2.5, §3.1, §6): which skill and subagent
//! files no call loads, which load only in some contexts, which lose to another file of the same
//! name (and whether directory order decides), and which advertise a `<files-root>` that is not
//! their folder.
//!
//! Nothing here decides an outcome: every fact comes from `workspace::resolution`, evaluated for
//! the contexts of `resolution::check_contexts`, the same resolution `agentws preview` renders
//! from. A diagnostic's severity is the worst outcome over the contexts that read the file's tree,
//! and its message names those contexts.
//!
//! The rules about two files of one name (XR005–XR007, XR012, XR016), a `<files-root>` that is
//! not the skill's folder (SK016, SK027), `general-purpose.md` (SA006) and the skill and subagent
//! files no context scans (SK017, SK018, SK026, SA007, SA022) are one file each here, declaration
//! beside detection ([`RULES`]). The resolution names the folders no context scans by rule
//! (`NotScanned::rule_code`), and `not_loaded` reports them all in one form.
//!
//! Pure over the snapshot; depends on `workspace` and the rule catalog.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::base::{Diagnostic, Related, Severity, TextRange};
use crate::config::{Config, Scope};
use crate::context;
use crate::context::EffectiveRoot;
use crate::rules::{declare_family, Rule};
use crate::workspace::layout::Location;
use crate::workspace::resolution::{
    check_contexts, Callers, EntryKind, Layer, NotScanned, Outcome, Resolution, Resolver,
};
use crate::workspace::skill::SkillDoc;
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::{Tree, Workspace};

declare_family! {
    mod skill_name_directory_mismatch;   // SK016
    mod skill_nested;                    // SK017
    mod skill_hidden_dir;                // SK018
    mod skill_folder_not_read;           // SK026
    mod skill_files_root_not_its_folder; // SK027
    mod subagent_general_purpose;        // SA006
    mod subagent_nested;                 // SA007
    mod subagent_folder_not_read;        // SA022
    mod duplicate_skill_name;            // XR005
    mod skill_overridden_per_user;       // XR006
    mod duplicate_subagent_id;           // XR007
    mod skill_name_tie_directory_order;  // XR012
    mod skill_linked_twice;              // XR016
}

/// The resolutions of every check context, in [`check_contexts`] order.
pub struct Contexts<'a> {
    pub list: Vec<(Callers, Resolution<'a>)>,
    /// The indexes in `list` of the contexts of per-user folders, by folder name (then in list
    /// order): looked up without a copy of each name, which a check made a hundred of per name
    /// group.
    folders: Vec<usize>,
    /// The indexes of the contexts standing for callers without a per-user folder.
    shared: Vec<usize>,
    /// Per context of `list`, whether it loads any skill: from the resolutions, unless the
    /// caller resolved a workspace holding only some of the skills and knows it from the rest
    /// (the engine's `code_execution_detail`).
    pub loads_a_skill: Vec<bool>,
}

impl<'a> Contexts<'a> {
    pub fn new(ws: &'a Workspace) -> Self {
        Self::of_roots(ws, &check_contexts(ws))
    }

    /// [`Contexts::new`] with the check contexts given (`check_contexts` of `ws`, computed once
    /// by a caller that resolves many workspaces of one configuration and layout).
    pub fn of_roots(ws: &'a Workspace, roots: &[(Callers, EffectiveRoot)]) -> Self {
        let resolver = Arc::new(Resolver::new(ws, ws.config.filesystem.mode));
        let list = roots
            .iter()
            .map(|(who, root)| (who.clone(), resolver.resolve(root)))
            .collect::<Vec<_>>();
        let (mut folders, shared): (Vec<usize>, Vec<usize>) =
            (0..list.len()).partition(|&index| matches!(list[index].0, Callers::Folder(_)));
        folders.sort_by(|&a, &b| folder_of(&list[a].0).cmp(folder_of(&list[b].0)));
        let loads_a_skill = list.iter().map(|(_, r)| r.loads_a_skill()).collect();
        Self {
            list,
            folders,
            shared,
            loads_a_skill,
        }
    }

    /// Whether the prompt of context `index` of `list` has the code-execution section
    /// (`Resolution::renders_code_execution_if`).
    pub fn renders_code_execution(&self, index: usize) -> bool {
        // A context missing from `loads_a_skill` loads none (no skill at all gives no entry).
        let loads = self.loads_a_skill.get(index).copied().unwrap_or(false);
        self.list[index].1.renders_code_execution_if(loads)
    }

    /// The contexts that read files of `tree`: a per-user folder's own calls when the
    /// configuration gives it any, else the context standing for every other caller (the one
    /// context whose outcome a shared or project file can have: per-user folders only add
    /// overrides, reported at the per-user copy).
    pub fn for_tree(&self, tree: &Tree) -> Vec<&(Callers, Resolution<'a>)> {
        // Asked once per skill: the answer is looked up, not filtered out of every context.
        let own = match tree {
            Tree::Namespace(ns) => Some(self.of_folder(ns)).filter(|own| !own.is_empty()),
            _ => None,
        };
        own.unwrap_or(&self.shared)
            .iter()
            .map(|&index| &self.list[index])
            .collect()
    }

    /// True when `who`'s context is one of [`Contexts::for_tree`]'s for `tree`.
    pub fn reads(&self, who: &Callers, tree: &Tree) -> bool {
        match (tree, who) {
            (Tree::Namespace(ns), Callers::Folder(own)) => ns == own,
            (Tree::Namespace(ns), _) => self.of_folder(ns).is_empty(),
            (_, Callers::Folder(_)) => false,
            _ => true,
        }
    }

    /// The indexes of the contexts of per-user folder `ns`, in list order.
    fn of_folder(&self, ns: &str) -> &[usize] {
        let name = |&index: &usize| folder_of(&self.list[index].0);
        let start = self.folders.partition_point(|index| name(index) < ns);
        let len = self.folders[start..].partition_point(|index| name(index) == ns);
        &self.folders[start..start + len]
    }

    /// The context standing for callers without a per-user folder.
    pub fn base(&self) -> Option<&Resolution<'a>> {
        self.list
            .iter()
            .find(|(who, _)| !matches!(who, Callers::Folder(_)))
            .map(|(_, r)| r)
    }
}

/// The per-user folder of a context, empty for the others.
fn folder_of(who: &Callers) -> &str {
    match who {
        Callers::Folder(own) => own,
        _ => "",
    }
}

/// "every call (scope `agent`)", "any user (scope `user`)", "user `alice`".
pub fn who_label(ws: &Workspace, who: &Callers) -> String {
    let scope = ws.config.scope;
    match who {
        Callers::EveryCall => format!("every call (scope `{}`)", scope.as_str()),
        Callers::AnyUser => match scope {
            Scope::Session => "any session (scope `session`)".to_string(),
            _ => "any user (scope `user`)".to_string(),
        },
        Callers::Folder(ns) => match scope {
            Scope::Session => format!("session `{ns}`"),
            _ => format!("user `{ns}`"),
        },
    }
}

/// How a context's namespace appears in paths of messages (`<user>` for the representative).
fn ns_label(ws: &Workspace, who: &Callers) -> Option<&'static str> {
    match (who, ws.config.scope) {
        (Callers::AnyUser, Scope::Session) => Some("<session>"),
        (Callers::AnyUser, _) => Some("<user>"),
        _ => None,
    }
}

fn list(items: &[String]) -> String {
    items.join(", ")
}

/// Every loading-outcome diagnostic of the workspace.
pub fn check(ws: &Workspace) -> Vec<Diagnostic> {
    let contexts = Contexts::new(ws);
    let mut out = check_skills(ws, &contexts, &|_| true);
    out.extend(check_subagents(ws, &contexts));
    out
}

/// The loading outcomes of the skill files `reported` keeps.
///
/// A skill's diagnostics read, besides the skill itself, only the skills of its name (the merges
/// are keyed by name), the skill files at its relative path in the other trees (the project
/// half's re-read and the remote overlay replace by path) and the SKILL.md of the shared folder
/// that encloses it ([`neighbour_rels`]). So a workspace that holds just those gives a
/// skill the diagnostics the whole workspace gives it: the engine asks this per group of names.
pub fn check_skills(
    ws: &Workspace,
    contexts: &Contexts,
    reported: &dyn Fn(&SkillDoc) -> bool,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some(base) = contexts.base() else {
        return out;
    };
    for doc in ws.skills.iter().filter(|doc| reported(doc)) {
        let relevant = contexts.for_tree(&doc.location.tree);
        let outcomes: Vec<(&Callers, &Resolution, Outcome)> = relevant
            .iter()
            .map(|(who, r)| (who, r, r.skill_outcome(doc)))
            .collect();
        let range = doc.name_range.unwrap_or(doc.opening_range);
        let file = (doc.path.as_path(), &doc.location);
        not_loaded(ws, file, range, EntryKind::Skill, &outcomes, &mut out);
        for (who, resolution, outcome) in &outcomes {
            match outcome {
                Outcome::Loaded(loaded) => {
                    let Some((_, skill)) =
                        doc.name.as_deref().and_then(|n| resolution.skill_named(n))
                    else {
                        continue;
                    };
                    let ties = distinct_files(ws, doc, &loaded.directory_order_ties);
                    if !ties.is_empty() {
                        out.push(skill_name_tie_directory_order::tie(ws, doc, &ties, who));
                    }
                    if let Tree::Namespace(ns) = &doc.location.tree {
                        if matches!(who, Callers::Folder(_)) {
                            if let Some((_, shared)) = base.skill_named(skill.name()) {
                                out.push(skill_overridden_per_user::overridden(
                                    doc,
                                    &shared.doc,
                                    &format!("`{ns}`"),
                                ));
                            }
                        }
                    }
                }
                Outcome::Shadowed { by: Some(by), .. } => {
                    let Some(winner) = ws.skill(by) else { continue };
                    // The rule the preview's note names too (`Outcome::rule_code`).
                    match outcome.rule_code(ws, &doc.path, EntryKind::Skill) {
                        Some("XR016") => {
                            out.push(skill_linked_twice::linked_twice(doc, winner));
                        }
                        Some("XR012") => {
                            let mut others = vec![by.clone()];
                            if let Some((_, skill)) = winner
                                .name
                                .as_deref()
                                .and_then(|n| resolution.skill_named(n))
                            {
                                others.extend(
                                    resolution
                                        .directory_order_ties(skill)
                                        .into_iter()
                                        .filter(|p| *p != doc.path),
                                );
                            }
                            out.push(skill_name_tie_directory_order::tie(
                                ws,
                                doc,
                                &distinct_files(ws, doc, &others),
                                who,
                            ));
                        }
                        Some("XR005") => {
                            out.push(duplicate_skill_name::shadowed(doc, winner, &whom(ws, who)));
                        }
                        // XR006 is reported at the per-user file that wins, for its user.
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        out.extend(skill_name_directory_mismatch::check(ws, doc, &outcomes));
        out.extend(skill_files_root_not_its_folder::check(ws, doc, &outcomes));
    }
    out
}

/// The loading outcomes of every subagent file.
pub fn check_subagents(ws: &Workspace, contexts: &Contexts) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some(base) = contexts.base() else {
        return out;
    };
    // One pass over each context's agent list, for the files that context reads (a per-user
    // context: its own folder's specs, not the shared thousand again), keyed by the document's
    // address as in `Resolution::subagent_outcomes`.
    let subagent_outcomes: Vec<foldhash::HashMap<*const SubagentDoc, Outcome>> = contexts
        .list
        .iter()
        .map(|(who, r)| {
            r.subagent_outcomes_of(|d| contexts.reads(who, &d.location.tree))
                .into_iter()
                .map(|(d, o)| (Arc::as_ptr(d), o))
                .collect()
        })
        .collect();
    for doc in &ws.subagents {
        let outcomes: Vec<(&Callers, &Resolution, Outcome)> = contexts
            .list
            .iter()
            .zip(&subagent_outcomes)
            .filter(|((who, _), _)| contexts.reads(who, &doc.location.tree))
            .filter_map(|((who, r), all)| all.get(&Arc::as_ptr(doc)).map(|o| (who, r, o.clone())))
            .collect();
        not_loaded(
            ws,
            (&doc.path, &doc.location),
            TextRange::empty(0),
            EntryKind::Subagent,
            &outcomes,
            &mut out,
        );
        out.extend(subagent_general_purpose::check(ws, doc, &outcomes));
        for (who, _, outcome) in &outcomes {
            match outcome {
                Outcome::Shadowed { by: Some(by), .. } => {
                    if let Some(winner) = ws.subagent(by) {
                        out.push(duplicate_subagent_id::shadowed(
                            doc,
                            winner,
                            &whom(ws, who),
                            ws,
                        ));
                    }
                }
                // A per-user spec that replaces another caller's entry: reported at the file
                // that loses, for that user (dynamic mode: the later one wins).
                Outcome::Loaded(_) if matches!(who, Callers::Folder(_)) => {
                    let replaced = base
                        .subagents()
                        .into_iter()
                        .filter(|e| e.id == doc.id)
                        .filter_map(|e| e.doc.clone())
                        .filter(|d| d.path != doc.path);
                    for loser in replaced {
                        out.push(duplicate_subagent_id::shadowed(
                            &loser,
                            doc,
                            &whom(ws, who),
                            ws,
                        ));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// "every caller", "every caller without a per-user copy", "`alice`".
fn whom(ws: &Workspace, who: &Callers) -> String {
    match who {
        Callers::Folder(ns) => format!("`{ns}`"),
        Callers::AnyUser if !ws.namespaces.is_empty() => {
            "every caller without a per-user copy".to_string()
        }
        _ => "every caller".to_string(),
    }
}

/// Files some contexts scan but do not load because no layer reads them there (the drops are
/// the parse rules' and the shadowing the duplicate rules').
fn not_loaded(
    ws: &Workspace,
    file: (&Path, &Location),
    range: TextRange,
    kind: EntryKind,
    outcomes: Outcomes,
    out: &mut Vec<Diagnostic>,
) {
    let path = file.0;
    // One diagnostic per reason, naming the contexts it applies to.
    let mut reasons: BTreeMap<&'static str, (String, Vec<String>)> = BTreeMap::new();
    for (who, _, outcome) in outcomes {
        let Outcome::NotScanned(reason) = outcome else {
            continue;
        };
        if matches!(reason, NotScanned::OtherNamespace { .. }) {
            continue;
        }
        let entry = reasons
            .entry(reason.rule_code(kind))
            .or_insert_with(|| (reason.describe(ws, kind, ns_label(ws, who)), Vec::new()));
        entry.1.push(match who {
            Callers::EveryCall => format!("any call (scope `{}`)", ws.config.scope.as_str()),
            other => who_label(ws, other),
        });
    }
    // Labels only for a file with a reason: the common case, asked once per file, builds none.
    let loaded: Vec<String> = if reasons.is_empty() {
        Vec::new()
    } else {
        outcomes
            .iter()
            .filter(|(_, _, o)| o.is_loaded())
            .map(|(who, _, _)| who_label(ws, who))
            .collect()
    };
    for (code, (why, whom)) in reasons {
        let Some(rule) = rule_for(code) else { continue };
        let (severity, message) = if loaded.is_empty() {
            let enclosing = (code == skill_nested::RULE.code)
                .then(|| skill_nested::enclosing_skill(ws, path))
                .flatten();
            let severity = if code == skill_hidden_dir::RULE.code || enclosing.is_some() {
                // SK018: the runtime's own `_drafts`/`.archive` folders, usually meant not to
                // load. Inside another skill's folder the file is still read, as that skill's.
                Severity::Warning
            } else {
                Severity::Error
            };
            let mut message = format!("not loaded for {}: {why}", list(&whom));
            if let Some(dir) = enclosing {
                message.push_str(&format!(
                    "; it stays readable as a file of the skill in `{dir}`, whose whole folder the runtime advertises, but it is not a skill of its own"
                ));
            }
            (severity, message)
        } else {
            (
                Severity::Warning,
                format!(
                    "loaded only for {}; not for {}: {why}",
                    list(&loaded),
                    list(&whom)
                ),
            )
        };
        let consequence = if loaded.is_empty() {
            "No call in these contexts loads the file.".to_string()
        } else {
            format!("Only {} load it.", list(&loaded))
        };
        out.push(
            rule.at(path, range, message)
                .with_severity(severity)
                .with_consequence(consequence),
        );
    }
    // Nested files the recursive glob does load (scope agent or global): still worth a word.
    nested_but_loaded(ws, file, range, kind, outcomes, out);
}

/// The relative paths, in any tree, of the skill files whose facts the loading outcome of a
/// skill at `rel` reads besides the skills of its name ([`check_skills`]): `rel` itself (a
/// project file is re-read as the shared one of its path, and the remote overlay replaces the
/// template's file of a path), and the SKILL.md of the shared folder it is nested in
/// (`enclosing_skill`). A superset does no harm: the files of other names change nothing for
/// this one.
pub fn neighbour_rels(rel: &str) -> impl Iterator<Item = Cow<'_, str>> {
    // Only a file below `skills/<dir>/<sub>/` has an enclosing SKILL.md other than itself; the
    // common `skills/<dir>/SKILL.md` allocates nothing.
    let nested = rel.split('/').nth(3).is_some();
    let enclosing = nested
        .then(|| skill_nested::enclosing_rel(rel).map(|(_, own)| own))
        .flatten()
        .filter(|own| own != rel);
    std::iter::once(Cow::Borrowed(rel)).chain(enclosing.map(Cow::Owned))
}

/// The shared folder a skill named `name` is served from by the namespaced repository (SK016).
pub fn host_folder(config: &Config, name: &str) -> PathBuf {
    config.workspace.join("skills").join(name)
}

/// A nested shared file that every context loads (through the recursive glob only).
fn nested_but_loaded(
    ws: &Workspace,
    (path, location): (&Path, &Location),
    range: TextRange,
    kind: EntryKind,
    outcomes: Outcomes,
    out: &mut Vec<Diagnostic>,
) {
    let depth = location.rel.matches('/').count();
    let nested = location.tree == Tree::Shared
        && match kind {
            EntryKind::Skill => depth > 2,
            EntryKind::Subagent => depth > 1,
        };
    if !nested || outcomes.is_empty() || !outcomes.iter().all(|(_, _, o)| o.is_loaded()) {
        return;
    }
    let whom: Vec<String> = outcomes.iter().map(|(w, _, _)| who_label(ws, w)).collect();
    let (rule, severity, what) = match kind {
        EntryKind::Skill => (
            &skill_nested::RULE,
            Severity::Warning,
            "the folder the prompt gives for its files (`<files-root>`, `skills/<name>`) is not its folder, and with scope `user` or `session` no call would load it",
        ),
        EntryKind::Subagent => (
            &subagent_nested::RULE,
            Severity::Info,
            "with scope `user` or `session` no call would load it",
        ),
    };
    out.push(
        rule.at(
            path,
            range,
            format!(
                "nested: loaded for {} only through the deeper search of `{}` (the scan of the shared folder does not see it); {what}",
                list(&whom),
                context::display_path(&ws.config.workspace.join(match kind {
                    EntryKind::Skill => "skills",
                    EntryKind::Subagent => "subagents",
                }))
            ),
        )
        .with_severity(severity)
        .with_consequence("Loaded only because the call's namespace is empty."),
    );
}

fn rule_for(code: &str) -> Option<&'static Rule> {
    [
        &skill_nested::RULE,
        &skill_hidden_dir::RULE,
        &skill_folder_not_read::RULE,
        &subagent_nested::RULE,
        &subagent_folder_not_read::RULE,
        &duplicate_skill_name::RULE,
        &duplicate_subagent_id::RULE,
    ]
    .into_iter()
    .find(|r| r.code == code)
}

/// The contexts a skill is loaded for, with what each found of it: what every rule over one
/// file's loading outcomes reads.
type Outcomes<'o, 'w> = &'o [(&'o Callers, &'o Resolution<'w>, Outcome)];

/// The `<files-root>` the prompt advertises for a skill named `name` where the namespaced
/// repository serves it (Layer 3 stages the folder under the name, so that path holds the
/// skill): the contexts it does so for, the path, and what is there. SK016 and SK027 report it
/// when that is not the skill's folder.
struct AdvertisedRoot {
    whom: Vec<String>,
    advertised: String,
    what: &'static str,
}

fn advertised_root(ws: &Workspace, name: &str, outcomes: Outcomes) -> Option<AdvertisedRoot> {
    let mut whom = Vec::new();
    let mut advertised = None;
    for (who, _, outcome) in outcomes {
        if let Outcome::Loaded(loaded) = outcome {
            if loaded.layer != Layer::SkillsFolderScan {
                if let Some(root) = &loaded.files_root {
                    whom.push(who_label(ws, who));
                    advertised.get_or_insert_with(|| root.clone());
                }
            }
        }
    }
    // The folder is looked up only for a skill the repository serves.
    let advertised = advertised?;
    let what = if ws.files.contains_dir(&host_folder(&ws.config, name)) {
        "the folder of another skill"
    } else {
        "a folder that does not exist"
    };
    Some(AdvertisedRoot {
        whom,
        advertised,
        what,
    })
}

/// `others` without the files that are `doc` itself reached through a symbolic link.
fn distinct_files(
    ws: &Workspace,
    doc: &SkillDoc,
    others: &[std::path::PathBuf],
) -> Vec<std::path::PathBuf> {
    others
        .iter()
        .filter(|p| !ws.files.same_real_file(&doc.path, p))
        .cloned()
        .collect()
}

/// A diagnostic of `rule` at `at`'s name, pointing to `other`'s name as related information.
fn skill_pair(
    rule: &'static Rule,
    at: &SkillDoc,
    other: &SkillDoc,
    message: String,
    related: String,
) -> Diagnostic {
    rule.at(&at.path, at.name_range.unwrap_or(at.opening_range), message)
        .with_related(Related {
            path: other.path.clone(),
            range: other.name_range.unwrap_or(other.opening_range),
            message: related,
        })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::Config;
    use crate::workspace::Workspace;

    fn general_purpose_messages(dynamic: bool) -> Vec<(String, String)> {
        let mut config = Config::defaults_for(Path::new("/p"));
        config.agent.name = Some("desk".into());
        config.features.dynamic_subagents = dynamic;
        let spec = "---\ndescription: mine\n---\n";
        let ws = Workspace::from_texts(
            config,
            [
                (
                    "/p/.agentscope/workspace/subagents/general-purpose.md",
                    spec,
                ),
                (
                    "/p/.agentscope/workspace/alice/subagents/general-purpose.md",
                    spec,
                ),
            ],
        );
        let mut found: Vec<(String, String)> = super::check(&ws)
            .into_iter()
            .filter(|d| d.code == "SA006")
            .map(|d| (d.path.to_string_lossy().into_owned(), d.message))
            .collect();
        found.sort();
        found
    }

    /// A name and folder that differ only in Unicode normalization print alike: the message
    /// lists their code points.
    #[test]
    fn files_root_mismatch_in_normalization_only_shows_code_points() {
        let config = Config::defaults_for(Path::new("/p"));
        let ws = Workspace::from_texts(
            config,
            [(
                "/p/.agentscope/workspace/alice/skills/caf\u{e9}/SKILL.md",
                "---\nname: cafe\u{301}\ndescription: d\n---\nBody\n",
            )],
        );
        let messages: Vec<String> = super::check(&ws)
            .into_iter()
            .filter(|d| d.code == "SK016")
            .map(|d| d.message)
            .collect();
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(
            messages[0].starts_with("the skill is named `cafe\u{301}` but its folder is `caf\u{e9}`; they differ only in Unicode normalization: `cafe\u{301}` is U+0063 U+0061 U+0066 U+0065 U+0301 (NFD), `caf\u{e9}` is U+0063 U+0061 U+0066 U+00E9 (NFC); for "),
            "{}",
            messages[0]
        );
    }

    #[test]
    fn general_purpose_md_says_what_the_subagent_mode_does_with_it() {
        assert_eq!(
            general_purpose_messages(true),
            vec![
                (
                    "/p/.agentscope/workspace/alice/subagents/general-purpose.md".to_string(),
                    "`general-purpose.md` replaces the built-in general-purpose subagent for user `alice` (dynamic mode)".to_string()
                ),
                (
                    "/p/.agentscope/workspace/subagents/general-purpose.md".to_string(),
                    "`general-purpose.md` replaces the built-in general-purpose subagent for any user (scope `user`) (dynamic mode)".to_string()
                ),
            ]
        );
        assert_eq!(
            general_purpose_messages(false),
            vec![
                (
                    "/p/.agentscope/workspace/alice/subagents/general-purpose.md".to_string(),
                    "`general-purpose.md` is ignored for user `alice`: static mode keeps the built-in general-purpose subagent".to_string()
                ),
                (
                    "/p/.agentscope/workspace/subagents/general-purpose.md".to_string(),
                    "`general-purpose.md` is listed as a second `general-purpose` entry after the built-in for any user (scope `user`) (static mode)".to_string()
                ),
            ]
        );
    }
}
