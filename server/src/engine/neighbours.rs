//! The skill sources by their path relative to their tree, kept by the analysis as skills are
//! created and deleted, and the part of them a skill's loading outcome reads besides the skills
//! of its name (`check::loading::neighbour_rels`): the paths two or more skills share, and the
//! SKILL.md enclosing a nested one. That part is an input of the database, set only when it
//! changes; derived from the buckets by a query, it walked every skill after each created or
//! deleted one (a third of its time at 10 000 skills), while the analysis knows the one path
//! that changed. Reads no query and no text.
//!
//! Generic over what names a skill source (its input, or a number in the tests): must not
//! depend on any other file of the engine.

use std::path::Path;
use std::sync::Arc;

use crate::check;

/// Skill sources, in path order, by their path relative to their tree: the paths where a skill
/// finds a neighbour ([`SkillsByRel::neighbours`]).
pub type NeighbourMap<F> = foldhash::HashMap<String, Vec<F>>;

/// Every skill source (`F`: its input, or what a test names it by) by its path relative to its
/// tree.
pub struct SkillsByRel<F> {
    /// Each list in path order.
    files: foldhash::HashMap<String, Vec<F>>,
    /// How many skill sources lie below the SKILL.md at a relative path, nested in its folder.
    nested: foldhash::HashMap<String, usize>,
    neighbours: Arc<NeighbourMap<F>>,
}

impl<F> Default for SkillsByRel<F> {
    fn default() -> Self {
        SkillsByRel {
            files: Default::default(),
            nested: Default::default(),
            neighbours: Default::default(),
        }
    }
}

/// The SKILL.md a skill at `rel` is nested below, when it is nested.
fn enclosing(rel: &str) -> Option<String> {
    check::loading::neighbour_rels(rel)
        .nth(1)
        .map(|enclosing| enclosing.into_owned())
}

impl<F: Copy + PartialEq> SkillsByRel<F> {
    /// The index of `skills`, each given with its path relative to its tree, in path order.
    pub fn of<'a>(skills: impl IntoIterator<Item = (&'a str, F)>) -> Self {
        let mut index = SkillsByRel::default();
        for (rel, file) in skills {
            index.files.entry(rel.to_string()).or_default().push(file);
            if let Some(enclosing) = enclosing(rel) {
                *index.nested.entry(enclosing).or_default() += 1;
            }
        }
        let neighbours = index
            .files
            .keys()
            .filter_map(|rel| Some((rel.clone(), index.neighbours_at(rel)?)))
            .collect();
        index.neighbours = Arc::new(neighbours);
        index
    }

    /// The paths where a skill finds a neighbour: those two or more skills share, and the
    /// SKILL.md files that enclose a nested one. Most paths hold one skill and enclose none, so
    /// a skill created or deleted there leaves this as it was.
    pub fn neighbours(&self) -> &Arc<NeighbourMap<F>> {
        &self.neighbours
    }

    /// Adds the skill source `file`, at `rel` relative to its tree, among those at the same
    /// relative path in the order of their paths (`path_of`; seldom asked: most skills are the
    /// only one at theirs). True when the neighbours changed.
    pub fn insert<'p>(&mut self, rel: &str, file: F, path_of: impl Fn(F) -> &'p Path) -> bool {
        let at = self.files.entry(rel.to_string()).or_default();
        let path = path_of(file);
        let index = at.partition_point(|known| path_of(*known) < path);
        at.insert(index, file);
        let enclosing = enclosing(rel);
        if let Some(enclosing) = &enclosing {
            *self.nested.entry(enclosing.clone()).or_default() += 1;
        }
        self.refresh(rel) | enclosing.is_some_and(|enclosing| self.refresh(&enclosing))
    }

    /// Removes the skill source `file`, at `rel` relative to its tree. True when the neighbours
    /// changed.
    pub fn remove(&mut self, rel: &str, file: F) -> bool {
        let Some(at) = self.files.get_mut(rel) else {
            return false;
        };
        let Some(index) = at.iter().position(|known| *known == file) else {
            return false;
        };
        at.remove(index);
        if at.is_empty() {
            self.files.remove(rel);
        }
        let enclosing = enclosing(rel);
        if let Some(enclosing) = &enclosing {
            if let Some(count) = self.nested.get_mut(enclosing) {
                *count -= 1;
                if *count == 0 {
                    self.nested.remove(enclosing);
                }
            }
        }
        self.refresh(rel) | enclosing.is_some_and(|enclosing| self.refresh(&enclosing))
    }

    /// The sources at `rel`, when a skill finds a neighbour there.
    fn neighbours_at(&self, rel: &str) -> Option<Vec<F>> {
        let at = self.files.get(rel)?;
        let shared = at.len() > 1;
        let encloses = self.nested.contains_key(rel);
        (shared || encloses).then(|| at.clone())
    }

    /// Brings the neighbours at `rel` up to date; true when they changed.
    fn refresh(&mut self, rel: &str) -> bool {
        let now = self.neighbours_at(rel);
        if self.neighbours.get(rel) == now.as_ref() {
            return false;
        }
        let neighbours = Arc::make_mut(&mut self.neighbours);
        match now {
            Some(files) => neighbours.insert(rel.to_string(), files),
            None => neighbours.remove(rel),
        };
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::path::PathBuf;

    const TREES: [&str; 3] = ["/w/ws", "/w/ws/u1", "/w/project"];
    const RELS: [&str; 5] = [
        "skills/x/SKILL.md",
        "skills/x/y/SKILL.md",
        "skills/x/y/z/SKILL.md",
        "skills/w/SKILL.md",
        "other/SKILL.md",
    ];

    /// The file at `RELS[rel]` in `TREES[tree]`, named by a number, and its relative path.
    fn file(tree: usize, rel: usize) -> (&'static str, u32) {
        (RELS[rel], (tree * RELS.len() + rel) as u32)
    }

    /// The path of every file, by its number.
    fn paths() -> Vec<PathBuf> {
        let all = TREES
            .iter()
            .flat_map(|tree| RELS.iter().map(move |rel| (tree, rel)));
        all.map(|(tree, rel)| PathBuf::from(format!("{tree}/{rel}")))
            .collect()
    }

    fn sorted(map: &NeighbourMap<u32>) -> Vec<(String, Vec<u32>)> {
        let mut entries: Vec<_> = map.iter().map(|(r, f)| (r.clone(), f.clone())).collect();
        entries.sort();
        entries
    }

    #[test]
    fn shared_paths_and_enclosing_skills_are_neighbours_lone_ones_are_not() {
        let paths = paths();
        let path_of = |id: u32| paths[id as usize].as_path();
        let mut index = SkillsByRel::default();
        let (rel, id) = file(0, 0);
        // One skill at its own path: nothing a neighbour is found at.
        assert!(!index.insert(rel, id, path_of));
        assert!(index.neighbours().is_empty());
        // The same relative path in a user's tree and in the project folder: each is the others'
        // neighbour, listed in path order whatever the order they came in.
        let (_, user) = file(1, 0);
        let (_, project) = file(2, 0);
        assert!(index.insert(rel, user, path_of));
        assert!(index.insert(rel, project, path_of));
        let shared = vec![(rel.to_string(), vec![project, id, user])];
        assert_eq!(sorted(index.neighbours()), shared);
        // A skill nested in the shared `x`: its enclosing SKILL.md is listed (already), and its
        // own path, which it alone holds, is not.
        let (nested_rel, nested) = file(0, 2);
        assert!(!index.insert(nested_rel, nested, path_of));
        assert_eq!(sorted(index.neighbours()), shared);
        // Two of the three `x` go: the one left encloses the nested skill, so it stays.
        assert!(index.remove(rel, user));
        assert!(index.remove(rel, project));
        assert_eq!(
            sorted(index.neighbours()),
            vec![(rel.to_string(), vec![id])]
        );
        assert!(index.remove(nested_rel, nested));
        assert!(index.neighbours().is_empty());
        // Removing what is not there changes nothing.
        assert!(!index.remove(nested_rel, nested));
        assert!(!index.remove("skills/none/SKILL.md", id));
    }

    proptest! {
        /// After each skill added or removed, the neighbours are those of an index made in one
        /// go of the skills there are, and the change reported is whether they changed.
        #[test]
        fn each_change_leaves_what_the_whole_index_gives(
            steps in proptest::collection::vec((0..TREES.len(), 0..RELS.len()), 1..40)
        ) {
            let paths = paths();
            let path_of = |id: u32| paths[id as usize].as_path();
            let mut index = SkillsByRel::default();
            // By path: the order `of` takes them in.
            let mut present = std::collections::BTreeMap::new();
            for (tree, rel) in steps {
                let before = sorted(index.neighbours());
                let (rel, id) = file(tree, rel);
                let changed = if present.remove(path_of(id)).is_some() {
                    index.remove(rel, id)
                } else {
                    present.insert(path_of(id), (rel, id));
                    index.insert(rel, id, path_of)
                };
                let whole = SkillsByRel::of(present.values().copied());
                prop_assert_eq!(sorted(index.neighbours()), sorted(whole.neighbours()));
                prop_assert_eq!(changed, before != sorted(index.neighbours()));
            }
        }
    }
}
