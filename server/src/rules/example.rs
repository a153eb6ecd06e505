//! A rule's examples: a triggering project and its fix, written whole or as changes to one shared
//! base project ([`BASE`]), and where the triggering one reports the rule. What an example is and
//! how its two projects are put together; running them is `engine::batch::rule_examples`,
//! printing them `cli::explain`. Depends on nothing: plain data.

/// A project's files: (path relative to the project root, text). `agentws.toml` is one of them
/// when the example needs a configuration.
pub type ExampleFiles = &'static [(&'static str, &'static str)];

/// The project most examples start from: a configuration, the workspace's AGENTS.md and one
/// skill, each of which no rule reports. An example written over it ([`Base::Shared`]) gives only
/// the files it adds or replaces.
pub static BASE: ExampleFiles = &[
    ("agentws.toml", "[agent]\nname = \"release\"\n"),
    (
        ".agentscope/workspace/AGENTS.md",
        "You are a release assistant. Answer in short sentences.\n",
    ),
    (
        ".agentscope/workspace/skills/pdf/SKILL.md",
        "---\nname: pdf\ndescription: Read, merge and split PDF files.\n---\n\n# PDF\n\nRun \
         `pdftotext -layout in.pdf out.txt` to read a PDF.\n",
    ),
];

/// What an example's two projects are written over.
#[derive(Clone, Copy, Debug)]
pub enum Base {
    /// Nothing: `triggering` and `fixed` are whole projects.
    None,
    /// [`BASE`] without the files `without` names: each side's files replace the base file of
    /// the same path or are added after the base's.
    Shared { without: &'static [&'static str] },
}

impl Base {
    /// The whole project `files` make over this base: the base's files that are kept, in the
    /// base's order, each replaced by the file of `files` with its path; then the other files of
    /// `files`, in their order.
    pub fn project(&self, files: ExampleFiles) -> Vec<(&'static str, &'static str)> {
        let Base::Shared { without } = self else {
            return files.to_vec();
        };
        let kept: Vec<(&'static str, &'static str)> = BASE
            .iter()
            .filter(|(path, _)| !without.contains(path))
            .copied()
            .collect();
        let mut project: Vec<(&'static str, &'static str)> = kept
            .iter()
            .map(|(path, text)| {
                files
                    .iter()
                    .find(|(p, _)| p == path)
                    .copied()
                    .unwrap_or((path, text))
            })
            .collect();
        project.extend(
            files
                .iter()
                .filter(|(path, _)| !kept.iter().any(|(p, _)| p == path))
                .copied(),
        );
        project
    }
}

/// A rule shown on a tiny project: `triggering` reports the rule, `fixed` is the same project
/// with the fix the explanation recommends and does not report it. Strict rules are checked with
/// the strict profile, the others with the harness profile.
#[derive(Debug)]
pub struct Example {
    /// What `triggering` and `fixed` are written over.
    pub base: Base,
    pub triggering: ExampleFiles,
    pub fixed: ExampleFiles,
    /// Where the triggering project reports the rule, as `agentws check` prints it:
    /// `path:line:column` (one-based, the column in characters, the path relative to the
    /// project). When it reports the rule more than once, one of them is there.
    pub at: &'static str,
}

impl Example {
    /// The whole triggering project.
    pub fn triggering_project(&self) -> Vec<(&'static str, &'static str)> {
        self.base.project(self.triggering)
    }

    /// The whole fixed project.
    pub fn fixed_project(&self) -> Vec<(&'static str, &'static str)> {
        self.base.project(self.fixed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SKILL: &str = ".agentscope/workspace/skills/pdf/SKILL.md";

    #[test]
    fn a_whole_project_is_its_files() {
        let files: ExampleFiles = &[("b.md", "b"), ("a.md", "a")];
        assert_eq!(Base::None.project(files), files.to_vec());
    }

    /// Kept base files stay in the base's order, replaced in place; added files come after, and
    /// a file the base goes without comes back as an added one.
    #[test]
    fn a_change_replaces_in_place_and_adds_after_the_base() {
        let base = Base::Shared {
            without: &["agentws.toml"],
        };
        let files: ExampleFiles = &[
            ("notes.md", "n"),
            (SKILL, "changed"),
            ("agentws.toml", "[agent]\n"),
        ];
        assert_eq!(
            base.project(files),
            vec![
                BASE[1],
                (SKILL, "changed"),
                ("notes.md", "n"),
                ("agentws.toml", "[agent]\n"),
            ]
        );
        assert_eq!(Base::Shared { without: &[] }.project(&[]), BASE.to_vec());
    }
}
