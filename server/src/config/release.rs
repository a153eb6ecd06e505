//! Which AgentScope Harness release agentws models: the releases it knows, the behaviour changes
//! between them (one table, [`CHANGES`], each change with the commit or pull request it comes from
//! and how sure agentws is of it), and how a version a project writes (`2.0.2`, `2.0.4-SNAPSHOT`,
//! the old names `2026-08`/`2026-09`) maps to one of them. Everything in the core that differs
//! between releases asks [`Harness::has`] for a [`Change`]; docs/runtime-sources.md is generated
//! from [`CHANGES`]. Depends on nothing else in the crate.

use serde::Serialize;

/// A release (or state of the runtime's main branch) agentws models, oldest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Release {
    /// Tag `v2.0.2` (a5d6213), the newest tag of the repository snapshot agentws reads.
    #[serde(rename = "2.0.2")]
    V2_0_2,
    /// Commit c2d43f8 of main (2026-08-22), `2.0.3-SNAPSHOT`, 68 commits after v2.0.2.
    #[serde(rename = "2.0.3-SNAPSHOT")]
    V2_0_3Snapshot,
    /// The 2.0.3 release: 2.0.3-SNAPSHOT with #2667 (artifact delivery).
    #[serde(rename = "2.0.3")]
    V2_0_3,
    /// Main after 2.0.3: with #3020 (the per-session workspace in the prompt).
    #[serde(rename = "main")]
    Main,
}

/// Every release, oldest first.
pub const RELEASES: &[Release] = &[
    Release::V2_0_2,
    Release::V2_0_3Snapshot,
    Release::V2_0_3,
    Release::Main,
];

impl Release {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::V2_0_2 => "2.0.2",
            Self::V2_0_3Snapshot => "2.0.3-SNAPSHOT",
            Self::V2_0_3 => "2.0.3",
            Self::Main => "main",
        }
    }

    /// The release a project runs when nothing says which: the newest release modelled.
    pub const NEWEST: Release = Release::V2_0_3;

    /// The source agentws read it at.
    pub fn commit(self) -> &'static str {
        match self {
            Self::V2_0_2 => "tag `v2.0.2` (a5d6213)",
            Self::V2_0_3Snapshot => "c2d43f8 (2026-08-22)",
            Self::V2_0_3 => "c2d43f8 with #2667 (the tag is not in the snapshot agentws reads)",
            Self::Main => "2.0.3 with #3020",
        }
    }
}

/// A behaviour that changed between releases, or a proposal a project can opt into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// `HarnessPlatformTools`: tools.json's `allow` keeps the platform tools it does not list.
    PlatformToolsKept,
    /// `web_fetch` and `web_search` are registered.
    WebTools,
    /// #2667: the sandbox paragraph no longer offers upload/download tools; with an artifact
    /// delivery target, a File Isolation Notice and the `deliver_artifact` tool.
    ArtifactDelivery,
    /// #3020: the prompt advertises the per-session workspace (local overlay).
    SessionWorkspace,
    /// #3645 (a proposal): the prompt's sandbox root is the active sandbox's root, not
    /// `/workspace`.
    ActiveSandboxRoot,
}

/// How sure agentws is of what a change does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Confidence {
    /// Read from, and replayed with, the source at a tag or commit.
    Exact,
    /// Read from, and replayed with, a pull request's head commit (the merged code may differ).
    PullRequestHead,
    /// Reconstructed from a pull request's description and review excerpts.
    PullRequestText,
    /// A proposal nobody has shown merged: modelled as agentws reads it, on request only.
    Proposal,
}

impl Confidence {
    pub fn describe(self) -> &'static str {
        match self {
            Self::Exact => "exact: read from and replayed with the source at the commit",
            Self::PullRequestHead => {
                "from the pull request's head commit, replayed; the merged code may differ"
            }
            Self::PullRequestText => {
                "reconstructed from the pull request's text and review excerpts"
            }
            Self::Proposal => {
                "a proposal not known to be merged; modelled only when a project opts in"
            }
        }
    }
}

/// One row of [`CHANGES`].
#[derive(Debug)]
pub struct ChangeInfo {
    pub change: Change,
    /// The first release that has it; `None`: only by opting in (`pending`).
    pub since: Option<Release>,
    /// The number a project names to opt in (`pending = ["3645"]`), for the opt-in ones.
    pub pull_request: Option<&'static str>,
    /// The commit or pull request it comes from.
    pub source: &'static str,
    pub confidence: Confidence,
    /// What changes, for docs/runtime-sources.md.
    pub summary: &'static str,
}

/// Every behaviour change agentws models, in the order of the releases that bring them.
pub static CHANGES: &[ChangeInfo] = &[
    ChangeInfo {
        change: Change::PlatformToolsKept,
        since: Some(Release::V2_0_3Snapshot),
        pull_request: None,
        source: "commit c2d43f8 (`tools/ToolFilter.java` 80-95, new `tools/HarnessPlatformTools.java`); v2.0.2's `ToolFilter.java:77` keeps a tool only when `allow` is unset or lists it",
        confidence: Confidence::Exact,
        summary: "A non-empty tools.json `allow` keeps the platform tools it does not list (`agent_spawn`, `agent_send`, `agent_list`, `task_output`, `task_cancel`, `task_list`, `wait_async_results`, the plan-mode and skill-management tools, `team` and its aliases); `deny` still removes them. Before, `allow` removed them like any other tool, while the `## Subagents` section and the plan banner still named them.",
    },
    ChangeInfo {
        change: Change::WebTools,
        since: Some(Release::V2_0_3Snapshot),
        pull_request: None,
        source: "commit c2d43f8 (`HarnessAgent.java` 2584-2585 registers `WebTools.WebFetchTool` and `WebSearchTool`)",
        confidence: Confidence::Exact,
        summary: "`web_fetch` and `web_search` are registered (not platform tools: `allow` removes them). Before, they do not exist: naming them in tools.json draws the runtime's unknown-tool warning.",
    },
    ChangeInfo {
        change: Change::ArtifactDelivery,
        since: Some(Release::V2_0_3),
        pull_request: Some("2667"),
        source: "pull request #2667 (head 8b3bd29): `WorkspaceContextMiddleware.java` 363-416, `HarnessAgent.java` 1964, 2425, 2605-2609, `tool/ArtifactDeliveryTool.java`",
        confidence: Confidence::PullRequestHead,
        summary: "The sandbox paragraph reads \"The host filesystem is not accessible and there is no mechanism for moving files across the boundary.\" instead of offering upload/download tools. With `artifactDeliveryTarget(…)` (agentws.toml `[agent] artifact_delivery = true`) it points to a `**File Isolation Notice**` block that follows the paragraph, and the `deliver_artifact` tool is registered in every filesystem mode; it is not a platform tool, so `allow` removes it where tools.json is read (never in sandbox mode).",
    },
    ChangeInfo {
        change: Change::SessionWorkspace,
        since: Some(Release::Main),
        pull_request: Some("3020"),
        source: "pull request #3020 (not in the repository snapshot: its description and the review hunk of `WorkspaceContextMiddleware.java:222`)",
        confidence: Confidence::PullRequestText,
        summary: "On the local overlay, \"The workspace directory is:\" and the `Workspace` line print the per-session workspace (`<workspace>/<namespace>`) instead of the base workspace; path-policy roots keep the base workspace. Sandbox and remote modes are unchanged.",
    },
    ChangeInfo {
        change: Change::ActiveSandboxRoot,
        since: None,
        pull_request: Some("3645"),
        source: "proposal #3645 (no text in the snapshot; the open #2746 and #3192 ask the same)",
        confidence: Confidence::Proposal,
        summary: "In sandbox mode the prompt prints the active sandbox's root (`sandbox_root`, e.g. `/home/user` on E2B) after \"The workspace directory is:\" and in `Sandbox root:`, where every release prints the host workspace and `/workspace`.",
    },
];

/// The changes a project can opt into before a release has them (`pending`), by number.
pub fn opt_in(number: &str) -> Option<Change> {
    CHANGES
        .iter()
        .find(|c| c.pull_request == Some(number))
        .map(|c| c.change)
}

fn info(change: Change) -> &'static ChangeInfo {
    CHANGES
        .iter()
        .find(|c| c.change == change)
        .expect("every change has a row")
}

/// The runtime a project's checks and previews model: a release, and the proposals it opts into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Harness {
    pub release: Release,
    /// Opted-in changes, as bits of [`Harness::bit`].
    #[serde(skip)]
    pending: u8,
}

impl Default for Harness {
    fn default() -> Self {
        Self::of(Release::NEWEST)
    }
}

impl Harness {
    pub fn of(release: Release) -> Self {
        Self {
            release,
            pending: 0,
        }
    }

    fn bit(change: Change) -> u8 {
        1 << CHANGES
            .iter()
            .position(|c| c.change == change)
            .expect("every change has a row")
    }

    /// The same release with `change` opted into as well.
    pub fn with(mut self, change: Change) -> Self {
        self.pending |= Self::bit(change);
        self
    }

    /// Whether this runtime behaves as `change` says: its release has it, or the project opted in.
    pub fn has(self, change: Change) -> bool {
        let by_release = info(change)
            .since
            .is_some_and(|since| self.release >= since);
        by_release || self.pending & Self::bit(change) != 0
    }

    /// The opted-in changes that the release does not have anyway.
    pub fn pending(self) -> Vec<Change> {
        CHANGES
            .iter()
            .filter(|c| self.pending & Self::bit(c.change) != 0)
            .filter(|c| c.since.is_none_or(|since| self.release < since))
            .map(|c| c.change)
            .collect()
    }

    /// `2.0.3`, `main+#3645`.
    pub fn label(self) -> String {
        let mut out = self.release.as_str().to_string();
        for change in self.pending() {
            if let Some(number) = info(change).pull_request {
                out.push_str(&format!("+#{number}"));
            }
        }
        out
    }
}

/// How a version a project writes maps to a modelled release.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mapped {
    pub harness: Harness,
    /// Why the version is not modelled exactly, when it is not: said next to the profile.
    pub note: Option<String>,
}

/// What [`map_version`] accepts, as a regular expression that reads the same in ECMA-262 (the
/// JSON schema of agentws.toml, for editors) and in Rust; a test holds the two together.
pub const VERSION_PATTERN: &str =
    r"^\s*(main|2026-0[89]|0*[0-9]{1,2}(\.0*[0-9]{1,19}){0,3}(-(.*[^0-9\s]|.*[^0-9].*\S))?)\s*$";

/// The runtime a version names: a release agentws models (`2.0.2`, `2.0.3-SNAPSHOT`, `2.0.3`,
/// `main`), an old name (`2026-08` = 2.0.3-SNAPSHOT, `2026-09` = 2.0.3-SNAPSHOT with #3020 and
/// #3645), or any Maven
/// version (`2.0.1`, `2.0.4`, `2.1.0-SNAPSHOT`), which maps to the nearest older release modelled
/// (a snapshot after the newest release: main), with a note. `None`: not a version at all.
pub fn map_version(text: &str) -> Option<Mapped> {
    let text = text.trim();
    let exact = |release| {
        Some(Mapped {
            harness: Harness::of(release),
            note: None,
        })
    };
    match text {
        "2.0.2" => return exact(Release::V2_0_2),
        "2.0.3-SNAPSHOT" => return exact(Release::V2_0_3Snapshot),
        "2.0.3" => return exact(Release::V2_0_3),
        "main" => return exact(Release::Main),
        "2026-08" => return exact(Release::V2_0_3Snapshot),
        // What agentws modelled under this name before it knew releases: c2d43f8 with #3020
        // and #3645 (not #2667, which main has).
        "2026-09" => {
            return Some(Mapped {
                harness: Harness::of(Release::V2_0_3Snapshot)
                    .with(Change::SessionWorkspace)
                    .with(Change::ActiveSandboxRoot),
                note: None,
            })
        }
        _ => {}
    }
    // A qualifier (`-SNAPSHOT`, `-rc1`, `-M2`) marks a build before the release it names; one of
    // digits alone (`2026-10`) is a date, not a version of this runtime.
    let (numbers, pre_release) = match text.split_once('-') {
        Some((_, qualifier)) if qualifier.bytes().all(|b| b.is_ascii_digit()) => return None,
        Some((numbers, _)) => (numbers, true),
        None => (text, false),
    };
    let parts: Vec<u64> = numbers
        .split('.')
        .map(|p| p.parse().ok())
        .collect::<Option<Vec<_>>>()?;
    // The runtime's versions are 1.x and 2.x: a first number of a hundred or more is no version
    // of it (a year, a build number).
    if parts.is_empty() || parts.len() > 4 || parts[0] >= 100 {
        return None;
    }
    let part = |i: usize| parts.get(i).copied().unwrap_or(0);
    let key = (part(0), part(1), part(2), part(3));
    const OLDEST: &str = "older than every release agentws models; the oldest, 2.0.2, is modelled";
    let (release, why) = match (pre_release, key) {
        (true, k) if k <= (2, 0, 2, 0) => (Release::V2_0_2, OLDEST),
        (true, k) if k <= (2, 0, 3, 0) => (
            Release::V2_0_3Snapshot,
            "a build before 2.0.3: modelled as 2.0.3-SNAPSHOT (commit c2d43f8)",
        ),
        (true, _) => (Release::Main, "a build after 2.0.3: modelled as main"),
        (false, k) if k < (2, 0, 2, 0) => (Release::V2_0_2, OLDEST),
        (false, k) if k < (2, 0, 3, 0) => (
            Release::V2_0_2,
            "not modelled; the nearest older release modelled, 2.0.2, is",
        ),
        (false, _) => (
            Release::V2_0_3,
            "newer than every release agentws models; the newest, 2.0.3, is modelled",
        ),
    };
    Some(Mapped {
        harness: Harness::of(release),
        note: Some(format!("version {text} is {why}")),
    })
}

/// Where the profile in force comes from, to say so on every surface.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(tag = "from", rename_all = "kebab-case")]
pub enum HarnessSource {
    /// Nothing said: the newest release modelled.
    #[default]
    Default,
    /// `harness` in agentws.toml.
    Config,
    /// A build file's dependency on the runtime.
    BuildFile {
        /// The build file (absolute).
        path: std::path::PathBuf,
        /// What it names: `io.agentscope:agentscope-harness 2.0.2`.
        coordinate: String,
    },
    /// A command-line flag or a request's context.
    Override,
}

impl HarnessSource {
    /// How the source reads after the profile: `from pom.xml (io.agentscope:agentscope-harness
    /// 2.0.2)`.
    pub fn describe(&self) -> String {
        match self {
            Self::Default => {
                "the newest release modelled; no build file or agentws.toml names one".to_string()
            }
            Self::Config => "from agentws.toml `harness`".to_string(),
            Self::BuildFile { path, coordinate } => {
                format!("from {} ({coordinate})", path.display())
            }
            Self::Override => {
                "set for this call (`--harness`, or the preview's context)".to_string()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_schema_pattern_accepts_what_map_version_maps() {
        let pattern = regex::Regex::new(super::VERSION_PATTERN).unwrap();
        let agree = |text: &str| {
            assert_eq!(
                pattern.is_match(text),
                super::map_version(text).is_some(),
                "{text:?}"
            )
        };
        for text in [
            "2.0.2",
            " 2.0.3 ",
            "2.0.3-SNAPSHOT",
            "main",
            "2026-08",
            "2026-09",
            "2026-10",
            "2.0",
            "2",
            "1.0-rc-1",
            "2.0.4-M2",
            "2.0-",
            "2.0-12",
            "99.1",
            "100.1",
            "2..3",
            "v2.0.2",
            "1.2.3.4",
            "1.2.3.4.5",
            "007.1",
            "",
            "mainline",
            "1- ",
            "4- 74",
            "2.0-a b",
        ] {
            agree(text);
        }
        proptest::proptest!(|(text in "[ 0-9.a-zA-Z-]{0,14}")| agree(&text));
        // Shaped like versions, where the two could part.
        proptest::proptest!(|(text in "[ ]{0,2}0{0,2}[0-9]{1,3}(\\.[0-9]{1,3}){0,4}(-[ 0-9a-zA-Z.-]{0,4})?[ ]{0,2}")| agree(&text));
    }

    use super::*;

    /// The VS Code setting `agentws.preview.harness` offers every release modelled, and the
    /// editors' documentation names them: an editor user picks from what exists now.
    #[test]
    fn the_editor_settings_offer_every_release() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let package: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(root.join("editors/vscode/package.json")).unwrap(),
        )
        .unwrap();
        let offered: Vec<&str> = package["contributes"]["configuration"]["properties"]
            ["agentws.preview.harness"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let mut expected = vec![""];
        expected.extend(RELEASES.iter().map(|r| r.as_str()));
        assert_eq!(offered, expected);
        let docs = std::fs::read_to_string(root.join("docs/editors.md")).unwrap();
        let row = docs
            .lines()
            .find(|l| l.starts_with("| `agentws.preview.harness`"))
            .unwrap();
        for release in RELEASES {
            assert!(row.contains(&format!("`{}`", release.as_str())), "{row}");
        }
    }

    #[test]
    fn changes_follow_the_release_and_the_opt_ins() {
        let v202 = Harness::of(Release::V2_0_2);
        assert!(!v202.has(Change::PlatformToolsKept) && !v202.has(Change::WebTools));
        let snapshot = Harness::of(Release::V2_0_3Snapshot);
        assert!(snapshot.has(Change::PlatformToolsKept) && !snapshot.has(Change::ArtifactDelivery));
        let main = Harness::of(Release::Main);
        assert!(main.has(Change::ArtifactDelivery) && main.has(Change::SessionWorkspace));
        assert!(!main.has(Change::ActiveSandboxRoot));
        let opted = main.with(Change::ActiveSandboxRoot);
        assert!(opted.has(Change::ActiveSandboxRoot));
        assert_eq!(opted.label(), "main+#3645");
        assert_eq!(Harness::default().label(), "2.0.3");
        assert_eq!(opt_in("3645"), Some(Change::ActiveSandboxRoot));
        assert_eq!(opt_in("1"), None);
    }

    #[test]
    fn versions_map_to_the_nearest_older_release() {
        let release = |v: &str| map_version(v).map(|m| (m.harness.label(), m.note.is_some()));
        assert_eq!(release("2.0.2"), Some(("2.0.2".into(), false)));
        assert_eq!(release("2026-08"), Some(("2.0.3-SNAPSHOT".into(), false)));
        assert_eq!(
            release("2026-09"),
            Some(("2.0.3-SNAPSHOT+#3020+#3645".into(), false))
        );
        assert_eq!(release("2.0.1"), Some(("2.0.2".into(), true)));
        assert_eq!(release("1.0.9"), Some(("2.0.2".into(), true)));
        assert_eq!(release("2.0.3-rc1"), Some(("2.0.3-SNAPSHOT".into(), true)));
        assert_eq!(release("2.0.2.1"), Some(("2.0.2".into(), true)));
        assert_eq!(release("2.0.4"), Some(("2.0.3".into(), true)));
        assert_eq!(release("2.1.0-SNAPSHOT"), Some(("main".into(), true)));
        assert_eq!(release("2.0.2-SNAPSHOT"), Some(("2.0.2".into(), true)));
        assert_eq!(release("${agentscope.version}"), None);
        assert_eq!(release("[2.0,3.0)"), None);
        assert_eq!(release("latest"), None);
        assert_eq!(release("2026-10"), None);
        assert_eq!(release("2025"), None);
    }
}
