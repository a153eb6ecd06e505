//! The answers of one resolved context: the loaded skills and subagents in order, each file's
//! outcome, the `<files-root>` advertised, and why a file was not scanned (in words and as the
//! rule that reports it).
//!
//! Reads the merges the parent module's `Resolver` built; decides nothing they did not.

use foldhash::{HashMap, HashMapExt, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{
    below, has_one_slash, is_hidden_below_skills, shared_twin, skill_loadable, subagent_loadable,
    EntryKind, Layer, ListedSubagent, LoadedEntry, MergedSkill, NotScanned, Outcome, Resolution,
    SkillOrder,
};
use crate::base::{FileContent, Severity, TextRange};
use crate::config::FilesystemMode;
use crate::context;
use crate::workspace::skill::SkillDoc;
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::{Tree, Workspace};

impl<'r> Resolution<'r> {
    fn ws(&self) -> &'r Workspace {
        self.resolver.ws
    }

    /// The loaded skills in merge order: what the prompt renders.
    pub fn skills(&self) -> Vec<&MergedSkill> {
        self.skills.iter(self.resolver.skill_base()).collect()
    }

    /// [`Self::skills`], each with its order key ([`SkillOrder`]): ascending.
    pub fn skills_in_order(
        &self,
    ) -> impl Iterator<Item = (SkillOrder<'_>, &MergedSkill)> + use<'_, 'r> {
        let (ws, base) = (self.ws(), &*self.resolver.base);
        let merge = self.resolver.skill_base();
        let in_base = merge.entries.iter().enumerate().map(move |(i, entry)| {
            let entry = self.skills.replaced.get(&i).unwrap_or(entry);
            (base.order_of(ws, i), entry)
        });
        let appended = self.skills.appended.entries.iter();
        let appended = appended
            .zip(&self.skills.appended_first)
            .map(|(entry, rel)| {
                let order = SkillOrder {
                    stage: 2,
                    rel: (*rel).into(),
                };
                (order, entry)
            });
        in_base.chain(appended)
    }

    /// Whether `other` (of the same resolver) loads the very skills this one does, in the same
    /// order: both put the same upper tree's overlay, or none, on the shared base merge.
    pub fn same_skills_as(&self, other: &Resolution<'r>) -> bool {
        Arc::ptr_eq(&self.skills, &other.skills) && Arc::ptr_eq(&self.resolver, &other.resolver)
    }

    /// The loaded skill of this name, with its position.
    pub fn skill_named(&self, name: &str) -> Option<(usize, &MergedSkill)> {
        self.skills.get(self.resolver.skill_base(), name)
    }

    /// True when this context's prompt has the code-execution section: it follows the skills
    /// block when at least one rendered skill has a `<files-root>` (harness-spec §2.5, A.11).
    pub fn renders_code_execution(&self) -> bool {
        self.renders_code_execution_if(self.loads_a_skill())
    }

    /// [`Self::renders_code_execution`], given whether the context loads any skill (known
    /// elsewhere when this resolution was built over only some of the skills).
    pub fn renders_code_execution_if(&self, loads_a_skill: bool) -> bool {
        self.files_root_base.is_some() && loads_a_skill
    }

    /// True when the merge holds at least one skill.
    pub fn loads_a_skill(&self) -> bool {
        self.skills
            .iter(self.resolver.skill_base())
            .next()
            .is_some()
    }

    /// What every `<files-root>` of this context starts with; `None` when the skills have none.
    pub fn files_root_base(&self) -> Option<&str> {
        self.files_root_base.as_deref()
    }

    /// `<files-root>` of a loaded skill (harness-spec §2.5): raw path, spaces not escaped.
    pub fn files_root(&self, skill: &MergedSkill) -> Option<String> {
        let base = self.files_root_base.as_ref()?;
        // `concat` allocates the whole string once; `format!` grows it piece by piece, and a
        // check asks this of every loaded skill in every context of its name group.
        Some(if skill.workspace_native {
            [base, "/skills/", skill.name()].concat()
        } else {
            [base, "/.skills-cache/", &skill.source, "/", skill.name()].concat()
        })
    }

    /// The other Layer 3 files a loaded skill's name ties with (the JVM's directory order picks).
    pub fn directory_order_ties(&self, skill: &MergedSkill) -> Vec<PathBuf> {
        // Asked of every skill the preview lists; most workspaces have no tie, and hashing ten
        // thousand names to learn so was a twentieth of a preview.
        if skill.layer != Layer::SkillsFolderScan || self.resolver.base.shared_ties.is_empty() {
            return Vec::new();
        }
        // The same SKILL.md reached through a symbolic link is no tie: whichever copy wins, the
        // text is the same (XR016, not XR012).
        let files = &self.ws().files;
        match self.resolver.base.shared_ties.get(skill.name()) {
            Some(paths) => paths
                .iter()
                .filter(|p| **p != skill.doc.path && !files.same_real_file(p, &skill.doc.path))
                .cloned()
                .collect(),
            None => Vec::new(),
        }
    }

    /// The subagent entries of one reasoning step, in list order (visible or not).
    pub fn subagents(&self) -> Vec<&ListedSubagent> {
        let base = &self.resolver.base.subagents;
        base.entries
            .iter()
            .enumerate()
            .map(|(i, e)| self.subagents.replaced.get(&i).unwrap_or(e))
            .chain(self.subagents.appended.iter())
            .collect()
    }

    /// Which layers of this context scan a skill file, or why none does.
    fn skill_scan(&self, doc: &SkillDoc) -> Result<(), NotScanned> {
        let ws = self.ws();
        let features = &ws.config.features;
        let Some(rel) = below(&doc.location.rel, "skills") else {
            return Err(NotScanned::HiddenFolder);
        };
        let hidden = is_hidden_below_skills(rel);
        let upper = self.skill_upper.as_ref();
        match &doc.location.tree {
            Tree::Shared => {
                let direct = has_one_slash(rel);
                // The project half of the glob re-reads a project file as `<ws>/<rel>` when that
                // exists: a shared file the upper half does not see can still load that way.
                // Asked last: a lookup per file and context.
                let via_project = || {
                    self.resolver.filesystem == FilesystemMode::Local
                        && features.default_workspace_skills
                        && !hidden
                        && ws
                            .skill(&ws.path_in(&Tree::Project, &doc.location.rel))
                            .is_some_and(|d| d.location.tree == Tree::Project)
                };
                if direct || (upper == Some(&Tree::Shared) && !hidden) || via_project() {
                    Ok(())
                } else if hidden {
                    Err(NotScanned::HiddenFolder)
                } else {
                    Err(NotScanned::NestedInSharedFolder {
                        upper: upper.cloned(),
                    })
                }
            }
            Tree::Project => {
                if self.resolver.filesystem != FilesystemMode::Local {
                    Err(NotScanned::FilesystemMode {
                        mode: self.resolver.filesystem,
                    })
                } else if !features.default_workspace_skills {
                    Err(NotScanned::WorkspaceRepositoryOff)
                } else if hidden {
                    Err(NotScanned::HiddenFolder)
                } else {
                    let twin = ws.path_in(&Tree::Shared, &doc.location.rel);
                    if ws.skill(&twin).is_some() {
                        Err(NotScanned::ReadThroughWorkspace { instead: twin })
                    } else {
                        Ok(())
                    }
                }
            }
            Tree::Namespace(ns) => match upper {
                None => Err(NotScanned::WorkspaceRepositoryOff),
                Some(Tree::Namespace(own)) if own == ns => {
                    if hidden {
                        Err(NotScanned::HiddenFolder)
                    } else {
                        Ok(())
                    }
                }
                Some(Tree::Namespace(_)) => Err(NotScanned::OtherNamespace {
                    namespace: ns.clone(),
                }),
                _ => Err(self.no_namespace_reason(true)),
            },
        }
    }

    /// Why a per-user folder is not read when the upper tree is the shared one.
    fn no_namespace_reason(&self, skills: bool) -> NotScanned {
        if self.resolver.filesystem != FilesystemMode::Local {
            NotScanned::FilesystemMode {
                mode: self.resolver.filesystem,
            }
        } else if !self.namespaced {
            NotScanned::EmptyNamespace
        } else if skills {
            NotScanned::FrozenMerge
        } else {
            NotScanned::EmptyNamespace
        }
    }

    /// What happens to a skill file in this context.
    pub fn skill_outcome(&self, doc: &SkillDoc) -> Outcome {
        if let Err(reason) = self.skill_scan(doc) {
            return Outcome::NotScanned(reason);
        }
        let name = match (&doc.name, skill_loadable(doc)) {
            (Some(name), true) => name,
            _ => return dropped(self.ws(), &doc.path, &doc.diagnostics),
        };
        let Some((position, winner)) = self.skill_named(name) else {
            // Scanned and loadable always puts the name; kept total for safety.
            return Outcome::Shadowed {
                by: None,
                by_directory_order: false,
            };
        };
        let ties = self.directory_order_ties(winner);
        if winner.doc.path == doc.path {
            Outcome::Loaded(LoadedEntry {
                id: [winner.name(), "_", &winner.source].concat(),
                layer: winner.layer,
                position,
                files_root: self.files_root(winner),
                directory_order_ties: ties,
                listed: true,
            })
        } else {
            Outcome::Shadowed {
                by_directory_order: ties.contains(&doc.path),
                by: Some(winner.doc.path.clone()),
            }
        }
    }

    /// The skill files the merge does not hold, in path order: every one whose `skill_outcome` is
    /// not `LoadedEntry`. Found by identity (the merge holds the workspace's `Arc`s), so no loaded
    /// skill's name or path is read: for ten thousand of them that reading showed in a preview.
    pub fn skills_not_merged(&self) -> impl Iterator<Item = &'r Arc<SkillDoc>> + '_ {
        let merged: HashSet<*const SkillDoc> = self
            .skills
            .iter(self.resolver.skill_base())
            .map(|s| Arc::as_ptr(&s.doc))
            .collect();
        self.ws()
            .skills
            .iter()
            .filter(move |d| !merged.contains(&Arc::as_ptr(d)))
    }

    /// Every skill file with its outcome, in path order.
    pub fn skill_outcomes(&self) -> impl Iterator<Item = (&'r Arc<SkillDoc>, Outcome)> + '_ {
        self.ws().skills.iter().map(|d| (d, self.skill_outcome(d)))
    }

    fn subagent_scan(&self, doc: &SubagentDoc) -> Result<(), NotScanned> {
        let ws = self.ws();
        if !ws.config.features.subagents {
            return Err(NotScanned::SubagentsOff);
        }
        let upper = &self.subagent_upper;
        match &doc.location.tree {
            Tree::Shared => {
                let direct = has_one_slash(&doc.location.rel);
                // Asked last: a lookup per file and context.
                let via_project = || {
                    self.resolver.filesystem == FilesystemMode::Local
                        && ws
                            .subagent(&ws.path_in(&Tree::Project, &doc.location.rel))
                            .is_some_and(|d| d.location.tree == Tree::Project)
                };
                if direct || *upper == Tree::Shared || via_project() {
                    Ok(())
                } else {
                    Err(NotScanned::NestedInSharedFolder {
                        upper: Some(upper.clone()),
                    })
                }
            }
            Tree::Project => {
                if self.resolver.filesystem != FilesystemMode::Local {
                    Err(NotScanned::FilesystemMode {
                        mode: self.resolver.filesystem,
                    })
                } else if let Some(twin) = shared_twin(ws, doc) {
                    Err(NotScanned::ReadThroughWorkspace {
                        instead: twin.path.clone(),
                    })
                } else {
                    Ok(())
                }
            }
            Tree::Namespace(ns) => match upper {
                Tree::Namespace(own) if own == ns => Ok(()),
                Tree::Namespace(_) => Err(NotScanned::OtherNamespace {
                    namespace: ns.clone(),
                }),
                _ => Err(self.no_namespace_reason(false)),
            },
        }
    }

    /// What happens to a subagent file in this context (one lookup in [`Self::subagent_outcomes`]).
    pub fn subagent_outcome(&self, doc: &SubagentDoc) -> Outcome {
        self.subagent_outcomes_of(|d| d.path == doc.path)
            .into_iter()
            .next()
            .map(|(_, o)| o)
            // A document of another snapshot: none of this workspace's folders holds it.
            .unwrap_or(Outcome::NotScanned(NotScanned::OtherNamespace {
                namespace: String::new(),
            }))
    }

    /// Every subagent file with its outcome, in path order.
    pub fn subagent_outcomes(&self) -> Vec<(&'r Arc<SubagentDoc>, Outcome)> {
        self.subagent_outcomes_of(|_| true)
    }

    /// The subagent files `wanted` keeps, with their outcomes, in path order. A caller that
    /// needs a few files of many contexts (a per-user folder's own specs) pays for those only.
    pub fn subagent_outcomes_of(
        &self,
        wanted: impl Fn(&SubagentDoc) -> bool,
    ) -> Vec<(&'r Arc<SubagentDoc>, Outcome)> {
        if !self.ws().config.features.subagents {
            return self
                .ws()
                .subagents
                .iter()
                .filter(|d| wanted(d))
                .map(|d| (d, Outcome::NotScanned(NotScanned::SubagentsOff)))
                .collect();
        }
        // One pass over the list instead of a search per file.
        let list = self.subagents();
        // Keyed by the document's address: every entry shares the snapshot's `Arc`, and hashing a
        // pointer costs far less than hashing a path, once per file and context.
        let mut position: HashMap<*const SubagentDoc, (usize, &ListedSubagent)> = HashMap::new();
        let mut first_of: HashMap<&str, Option<&Path>> = HashMap::new();
        for (i, entry) in list.iter().enumerate() {
            if let Some(doc) = entry.doc.as_ref().filter(|d| wanted(d)) {
                position.entry(Arc::as_ptr(doc)).or_insert((i, entry));
            }
            first_of
                .entry(entry.id.as_str())
                .or_insert(entry.doc.as_ref().map(|d| d.path.as_path()));
        }
        self.ws()
            .subagents
            .iter()
            .filter(|d| wanted(d))
            .map(|doc| {
                let outcome = match self.subagent_scan(doc) {
                    Err(reason) => Outcome::NotScanned(reason),
                    Ok(()) if !subagent_loadable(doc) => {
                        dropped(self.ws(), &doc.path, &doc.diagnostics)
                    }
                    Ok(()) => match position.get(&Arc::as_ptr(doc)) {
                        Some((i, entry)) => Outcome::Loaded(LoadedEntry {
                            id: doc.id.clone(),
                            layer: entry.layer.unwrap_or(Layer::WorkspaceGlob),
                            position: *i,
                            files_root: None,
                            directory_order_ties: Vec::new(),
                            listed: entry.is_visible(),
                        }),
                        None => Outcome::Shadowed {
                            by: first_of
                                .get(doc.id.as_str())
                                .copied()
                                .flatten()
                                .map(Path::to_path_buf),
                            by_directory_order: false,
                        },
                    },
                };
                (doc, outcome)
            })
            .collect()
    }
}

impl NotScanned {
    /// The rule that reports this outcome (codes of the catalog).
    pub fn rule_code(&self, kind: EntryKind) -> &'static str {
        match (self, kind) {
            (NotScanned::NestedInSharedFolder { .. }, EntryKind::Skill) => "SK017",
            (NotScanned::NestedInSharedFolder { .. }, EntryKind::Subagent) => "SA007",
            (NotScanned::HiddenFolder, _) => "SK018",
            (NotScanned::ReadThroughWorkspace { .. }, EntryKind::Skill) => "XR005",
            (NotScanned::ReadThroughWorkspace { .. }, EntryKind::Subagent) => "XR007",
            (_, EntryKind::Skill) => "SK026",
            (_, EntryKind::Subagent) => "SA022",
        }
    }

    /// Why nothing reads the file. `ns_label` stands in for the context's namespace in paths
    /// (`<user>` when the context represents every user).
    pub fn describe(&self, ws: &Workspace, kind: EntryKind, ns_label: Option<&str>) -> String {
        let folder = match kind {
            EntryKind::Skill => "skills",
            EntryKind::Subagent => "subagents",
        };
        let ws_dir = context::display_path(&ws.config.workspace);
        let reads = |tree: &Tree| match tree {
            Tree::Namespace(ns) => format!("`{ws_dir}/{}/{folder}`", ns_label.unwrap_or(ns)),
            _ => format!("`{ws_dir}/{folder}`"),
        };
        match self {
            NotScanned::NestedInSharedFolder { upper } => {
                let direct = match kind {
                    EntryKind::Skill => "the runtime's scan of the shared `skills/` folder reads only `skills/*/SKILL.md`",
                    EntryKind::Subagent => "the local scan reads only `subagents/*.md`",
                };
                let glob = match upper {
                    Some(tree) => format!("the deeper search reads only {}", reads(tree)),
                    None => "the reader of per-user and project skills is off (`features.default_workspace_skills = false`)".to_string(),
                };
                format!("nested below the shared `{folder}/` folder: {direct}, and {glob}")
            }
            NotScanned::HiddenFolder => {
                "below a `skills/` folder starting with `_` or `.`: the runtime skips such folders when it reads per-user and project skills".to_string()
            }
            NotScanned::OtherNamespace { namespace } => {
                format!("in the per-user folder `{namespace}`, which only its own calls read")
            }
            NotScanned::EmptyNamespace => format!(
                "in a per-user folder, and the call has no user or session folder: the runtime reads only `{ws_dir}/{folder}`"
            ),
            NotScanned::FrozenMerge => format!(
                "in a per-user folder, and the skill list is built once, before any user's call \
                 (`features.dynamic_skills = false`): the runtime reads only `{ws_dir}/{folder}`"
            ),
            NotScanned::FilesystemMode { mode } => format!(
                "the {} filesystem reads `{folder}/` from the shared workspace only (per-user and project folders are not part of it)",
                mode.as_str()
            ),
            NotScanned::WorkspaceRepositoryOff => {
                "the reader of per-user and project skills is off \
                 (`features.default_workspace_skills = false`)"
                    .to_string()
            }
            NotScanned::ReadThroughWorkspace { instead } => format!(
                "the overlay re-reads this relative path through the workspace and gets `{}` instead",
                instead.display()
            ),
            NotScanned::SubagentsOff => "subagents are off (`features.subagents = false`)".to_string(),
        }
    }
}

/// The rule that says why a scanned file is dropped: its first error, else the file-content rule.
fn dropped(ws: &Workspace, path: &Path, diagnostics: &[crate::base::Diagnostic]) -> Outcome {
    if let Some(d) = diagnostics.iter().find(|d| d.severity == Severity::Error) {
        return Outcome::Dropped {
            rule: Some(d.code),
            range: d.range,
        };
    }
    let rule = match ws.files.get(path).map(|e| &e.content) {
        Some(FileContent::TooLarge { .. }) => Some("WS005"),
        Some(FileContent::Unreadable { .. }) => Some("WS007"),
        Some(FileContent::NotUtf8 { .. }) => Some("WS004"),
        Some(FileContent::NotRegular { .. }) => Some("WS014"),
        _ => None,
    };
    Outcome::Dropped {
        rule,
        range: TextRange::empty(0),
    }
}
