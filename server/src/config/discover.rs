//! Finding the project configuration for a path: walk up to the nearest `agentws.toml`, else
//! recognise a folder that contains `.agentscope/workspace` or is itself a workspace, else use the
//! defaults for the folder; then, unless agentws.toml names the runtime release, read it from the
//! build file next to or above the project (`buildfile`). The disk edge of `config`.

use std::path::{Path, PathBuf};

use super::buildfile::{self, Pin};
use super::load::build_file_version_unread;
use super::{load, Config, HarnessFrom, HarnessSource, CONFIG_FILE_NAME, DEFAULT_WORKSPACE_DIR};
use crate::base::Diagnostic;

/// A project found for a path, with the problems of its `agentws.toml`.
#[derive(Clone, Debug)]
pub struct FoundProject {
    pub config: Config,
    pub diagnostics: Vec<Diagnostic>,
    /// False when neither an agentws.toml nor a workspace folder was found at or above the
    /// path: the configuration is the defaults for the folder itself.
    pub found: bool,
}

/// Finds the project for `path` (a project folder, a workspace folder or any file inside them),
/// with the runtime release its build file pins when agentws.toml does not say. `path` must be
/// absolute.
pub fn find_project(path: &Path) -> FoundProject {
    let mut project = find_configured(path);
    if project.config.harness_from.source == HarnessSource::Default {
        read_build_file(&mut project);
    }
    project
}

/// The build files that can pin the runtime, in the order they are looked for in a folder.
const BUILD_FILES: &[&str] = &["pom.xml", "build.gradle.kts", "build.gradle"];

/// Whether a change to `path` can change the runtime release found for the project folder
/// `project`: a build file (or `gradle.properties`, a version catalog) at or above it.
pub fn is_build_file_of(path: &Path, project: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let dir = path.parent().unwrap_or(path);
    match name {
        "libs.versions.toml" => dir.parent().is_some_and(|above| project.starts_with(above)),
        "gradle.properties" => project.starts_with(dir),
        _ => BUILD_FILES.contains(&name) && project.starts_with(dir),
    }
}

/// Watch patterns for the files [`is_build_file_of`] answers for.
pub const BUILD_FILE_GLOBS: &[&str] = &[
    "**/pom.xml",
    "**/build.gradle",
    "**/build.gradle.kts",
    "**/gradle.properties",
    "**/libs.versions.toml",
];

/// The release the build file next to or above the project pins, put into its configuration;
/// a build file naming the runtime with a version agentws cannot read is reported (CF014).
fn read_build_file(project: &mut FoundProject) {
    let read = |path: &Path| {
        crate::base::FileContent::read(path)
            .text()
            .map(str::to_string)
    };
    let start = project.config.project.clone();
    for dir in start.ancestors() {
        let Some((file, text)) = BUILD_FILES
            .iter()
            .map(|name| dir.join(name))
            .find_map(|file| Some((file.clone(), read(&file)?)))
            .or_else(|| {
                let catalog = dir.join("gradle/libs.versions.toml");
                Some((catalog.clone(), read(&catalog)?))
            })
        else {
            continue;
        };
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let pin = match name {
            "pom.xml" => buildfile::maven(&file, &text, &read),
            "libs.versions.toml" => buildfile::version_catalog(&file, &text),
            _ => {
                // Gradle: gradle.properties of this folder and above, the catalog of the
                // nearest folder that has one.
                let properties: Vec<(PathBuf, String)> = dir
                    .ancestors()
                    .map(|d| d.join("gradle.properties"))
                    .filter_map(|p| Some((p.clone(), read(&p)?)))
                    .collect();
                let catalog = dir
                    .ancestors()
                    .map(|d| d.join("gradle/libs.versions.toml"))
                    .find_map(|p| Some((p.clone(), read(&p)?)));
                buildfile::gradle(
                    &file,
                    &text,
                    &properties,
                    catalog.as_ref().map(|(p, t)| (p.as_path(), t.as_str())),
                )
            }
        };
        match pin {
            Some(Pin::Version {
                file,
                coordinate,
                mapped,
                ..
            }) => {
                project.config.harness = mapped.harness;
                project.config.harness_from = HarnessFrom {
                    source: HarnessSource::BuildFile {
                        path: file,
                        coordinate,
                    },
                    note: mapped.note,
                };
            }
            Some(Pin::Unresolved { file, range, why }) => {
                project
                    .diagnostics
                    .push(build_file_version_unread::diagnostic(
                        &file,
                        range,
                        &why,
                        project.config.harness.release.as_str(),
                    ));
                project.config.harness_from.source = HarnessSource::BuildFile {
                    path: file,
                    coordinate: String::new(),
                };
            }
            // A build file that does not name the runtime: the next one up may (a module's
            // build inherits from its parent's).
            None => continue,
        }
        return;
    }
}

fn find_configured(path: &Path) -> FoundProject {
    let start = if path.is_dir() {
        path.to_path_buf()
    } else {
        path.parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| path.to_path_buf())
    };
    for dir in start.ancestors() {
        let candidate = dir.join(CONFIG_FILE_NAME);
        // Anything but a folder counts (a pipe too: reading reports it instead of skipping it).
        if std::fs::metadata(&candidate).is_ok_and(|m| !m.is_dir()) {
            let text = crate::base::FileContent::read(&candidate);
            let (config, diagnostics) = load::load(&candidate, &text);
            return FoundProject {
                config,
                diagnostics,
                found: true,
            };
        }
    }
    for dir in start.ancestors() {
        if dir.join(DEFAULT_WORKSPACE_DIR).is_dir() {
            return defaults(Config::defaults_for(dir));
        }
        if looks_like_workspace(dir) {
            return defaults(Config::defaults_for_workspace(dir));
        }
    }
    FoundProject {
        found: false,
        ..defaults(Config::defaults_for(&start))
    }
}

fn defaults(config: Config) -> FoundProject {
    FoundProject {
        config,
        diagnostics: Vec::new(),
        found: true,
    }
}

/// A folder that holds workspace content directly.
pub fn looks_like_workspace(dir: &Path) -> bool {
    dir.join("AGENTS.md").is_file()
        || dir.join("skills").is_dir()
        || dir.join("subagents").is_dir()
        || dir.join("tools.json").is_file()
}

/// Makes `path` absolute against the current folder without resolving symlinks.
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}
