//! `[rules]` of agentws.toml: the level a project gives a rule, for the whole workspace or for
//! files matching a glob, and whether a suppression comment needs a reason. Only the settings and
//! the question "which level does this project give this code for this file, and why"; applying
//! them to diagnostics, and suppression comments, are `check::settle`'s. Depends on `base` and on
//! `globset` alone (which codes exist is the catalog's to say, above this layer).

use globset::GlobMatcher;
use serde::Serialize;

use crate::base::{Severity, TextRange};

/// A level a setting gives a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Error,
    Warning,
    Info,
    Off,
}

impl Level {
    pub const NAMES: &'static [&'static str] = &["error", "warning", "info", "off"];

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "error" => Some(Self::Error),
            "warning" => Some(Self::Warning),
            "info" => Some(Self::Info),
            "off" => Some(Self::Off),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Error => "error",
            Self::Warning => "warning",
            Self::Info => "info",
            Self::Off => "off",
        }
    }

    /// The severity a diagnostic takes at this level; `None` when it is not reported.
    pub fn severity(self) -> Option<Severity> {
        match self {
            Self::Error => Some(Severity::Error),
            Self::Warning => Some(Severity::Warning),
            Self::Info => Some(Severity::Info),
            Self::Off => None,
        }
    }
}

/// `CODE = "level"`: a rule code (`SK025`) or the prefix of codes (`XR`, `SK02`), its level, and
/// where the key stands in agentws.toml.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LevelSetting {
    pub selector: String,
    pub level: Level,
    #[serde(skip)]
    pub key: TextRange,
}

impl LevelSetting {
    fn selects(&self, code: &str) -> bool {
        code.starts_with(self.selector.as_str())
    }
}

/// A glob of `[rules.per-path]`, compiled once.
#[derive(Clone, Debug)]
pub struct PathGlob {
    pub text: String,
    matcher: GlobMatcher,
}

impl PathGlob {
    /// The glob of `text` (globset syntax: `*` stays within a folder, `**` crosses folders).
    pub fn new(text: &str) -> Result<Self, String> {
        let glob = globset::GlobBuilder::new(text)
            .literal_separator(true)
            .build()
            .map_err(|e| e.kind().to_string())?;
        Ok(Self {
            text: text.to_string(),
            matcher: glob.compile_matcher(),
        })
    }

    pub fn is_match(&self, rel: &str) -> bool {
        self.matcher.is_match(rel)
    }

    /// How specific the glob is: its characters that are not wildcards. A longer literal part
    /// names fewer files (`skills/legacy-*/**` over `skills/**`).
    fn specificity(&self) -> usize {
        self.text
            .chars()
            .filter(|c| !matches!(c, '*' | '?' | '[' | ']' | '{' | '}' | ','))
            .count()
    }
}

impl PartialEq for PathGlob {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for PathGlob {}

impl Serialize for PathGlob {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}

/// One entry of `[rules.per-path]`: a glob and the levels it gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PathSettings {
    pub glob: PathGlob,
    pub levels: Vec<LevelSetting>,
    #[serde(skip)]
    pub key: TextRange,
}

/// `[rules]` of one project.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RuleSettings {
    /// `[rules]`' own `CODE = "level"` keys, in file order.
    pub levels: Vec<LevelSetting>,
    /// `[rules.per-path]`, in file order.
    pub per_path: Vec<PathSettings>,
    /// `require-reason = true`: a suppression comment without `-- reason` suppresses nothing.
    pub require_reason: bool,
}

/// Where a level comes from, to say so (`explain`, SARIF's external suppressions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelSource<'a> {
    /// `[rules] SELECTOR = "level"`.
    Rules { selector: &'a str },
    /// `[rules.per-path] "GLOB" = { SELECTOR = "level" }`.
    PerPath { glob: &'a str, selector: &'a str },
}

impl std::fmt::Display for LevelSource<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Rules { selector } => write!(f, "agentws.toml [rules] {selector}"),
            Self::PerPath { glob, selector } => {
                write!(f, "agentws.toml [rules.per-path] \"{glob}\" {selector}")
            }
        }
    }
}

impl RuleSettings {
    pub fn is_empty(&self) -> bool {
        self.levels.is_empty() && self.per_path.is_empty()
    }

    /// The level the settings give `code` for the file at `rel` (its path relative to the
    /// workspace folder, `/`-separated; see `check::settle::settings_path`), and where it comes
    /// from; `None` when they say nothing of it. `[rules.per-path]` comes before `[rules]`; among
    /// the globs matching `rel`, the most specific first, then the later one; within a table, the
    /// longest selector (`SK025` before `SK`).
    pub fn level(&self, code: &str, rel: &str) -> Option<(Level, LevelSource<'_>)> {
        let mut matching: Vec<(usize, &PathSettings)> = self
            .per_path
            .iter()
            .enumerate()
            .filter(|(_, p)| p.glob.is_match(rel))
            .collect();
        matching.sort_by_key(|(index, p)| std::cmp::Reverse((p.glob.specificity(), *index)));
        for (_, path) in matching {
            if let Some(setting) = longest(&path.levels, code) {
                return Some((
                    setting.level,
                    LevelSource::PerPath {
                        glob: &path.glob.text,
                        selector: &setting.selector,
                    },
                ));
            }
        }
        longest(&self.levels, code).map(|setting| {
            (
                setting.level,
                LevelSource::Rules {
                    selector: &setting.selector,
                },
            )
        })
    }

    /// Whether some setting turns on a code starting with `prefix` (`ST`: a strict rule asked for
    /// under the harness profile, which the check must then run).
    pub fn turns_on(&self, prefix: &str) -> bool {
        self.levels
            .iter()
            .chain(self.per_path.iter().flat_map(|p| &p.levels))
            .any(|s| s.level != Level::Off && s.selector.starts_with(prefix))
    }

    /// Every selector with the key it stands at, for the check that each names a rule.
    pub fn selectors(&self) -> impl Iterator<Item = &LevelSetting> {
        self.levels
            .iter()
            .chain(self.per_path.iter().flat_map(|p| &p.levels))
    }
}

/// The setting of `settings` whose selector is the longest that selects `code` (the later one on
/// a tie, as TOML keeps one key once anyway).
fn longest<'s>(settings: &'s [LevelSetting], code: &str) -> Option<&'s LevelSetting> {
    settings
        .iter()
        .filter(|s| s.selects(code))
        .max_by_key(|s| s.selector.len())
}

/// Whether `key` has the form of a rule selector: two capital letters, then up to three digits.
pub fn is_selector(key: &str) -> bool {
    let bytes = key.as_bytes();
    bytes.len() >= 2
        && bytes.len() <= 5
        && bytes[..2].iter().all(u8::is_ascii_uppercase)
        && bytes[2..].iter().all(u8::is_ascii_digit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setting(selector: &str, level: Level) -> LevelSetting {
        LevelSetting {
            selector: selector.into(),
            level,
            key: TextRange::empty(0),
        }
    }

    fn per_path(glob: &str, levels: Vec<LevelSetting>) -> PathSettings {
        PathSettings {
            glob: PathGlob::new(glob).unwrap(),
            levels,
            key: TextRange::empty(0),
        }
    }

    #[test]
    fn the_most_specific_glob_then_the_longest_selector_decides() {
        let settings = RuleSettings {
            levels: vec![setting("XR", Level::Warning), setting("SK025", Level::Off)],
            per_path: vec![
                per_path("skills/**", vec![setting("SK", Level::Info)]),
                per_path("skills/legacy-*/**", vec![setting("SK016", Level::Off)]),
                per_path("skills/**", vec![setting("SK016", Level::Error)]),
            ],
            require_reason: false,
        };
        let level = |code, rel| settings.level(code, rel).map(|(l, _)| l);
        assert_eq!(level("SK016", "skills/legacy-a/SKILL.md"), Some(Level::Off));
        // Two globs of the same specificity: the later one.
        assert_eq!(level("SK016", "skills/new/SKILL.md"), Some(Level::Error));
        assert_eq!(level("SK001", "skills/new/SKILL.md"), Some(Level::Info));
        // Outside every glob, `[rules]` decides; `*` does not cross folders.
        assert_eq!(level("SK025", "subagents/a.md"), Some(Level::Off));
        assert_eq!(level("XR004", "subagents/a.md"), Some(Level::Warning));
        assert_eq!(level("TJ020", "tools.json"), None);
        assert!(!PathGlob::new("skills/*")
            .unwrap()
            .is_match("skills/a/SKILL.md"));
        assert_eq!(
            settings
                .level("SK016", "skills/legacy-a/SKILL.md")
                .unwrap()
                .1
                .to_string(),
            "agentws.toml [rules.per-path] \"skills/legacy-*/**\" SK016"
        );
    }

    #[test]
    fn selectors_and_strict_rules_turned_on() {
        assert!(is_selector("SK025") && is_selector("XR") && is_selector("SK0"));
        assert!(!is_selector("sk025") && !is_selector("S") && !is_selector("SK0255"));
        let settings = RuleSettings {
            levels: vec![setting("ST009", Level::Warning), setting("ST", Level::Off)],
            ..Default::default()
        };
        assert!(settings.turns_on("ST"));
        assert!(!RuleSettings {
            levels: vec![setting("ST", Level::Off)],
            ..Default::default()
        }
        .turns_on("ST"));
        assert!(PathGlob::new("skills/[").is_err());
    }
}
