//! The AgentScope Harness version a project's build file pins: Maven (`pom.xml`: a dependency,
//! a `<properties>` placeholder, the parent chain's `dependencyManagement` and an imported
//! `agentscope-bom`), Gradle (`build.gradle`, `build.gradle.kts`: string and map notations,
//! `platform(…)` BOMs, variables from the script and `gradle.properties`) and Gradle version
//! catalogs (`gradle/libs.versions.toml`). Which files exist and their texts come from the caller
//! (`discover`, the disk edge); this module only reads texts, and never fails on one: a file it
//! cannot read, or a version it cannot resolve, is a [`Pin::Unresolved`] saying why.
//! Depends on `base` and `release`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::release::{map_version, Mapped};
use crate::base::TextRange;

/// The Maven group of the runtime's artifacts.
const GROUP: &str = "io.agentscope";
/// Artifacts whose version is the harness's: the harness itself, the all-in-one `agentscope`,
/// and the BOM that manages both.
const ARTIFACTS: &[&str] = &["agentscope-harness", "agentscope", "agentscope-bom"];

/// What a build file says of the runtime's version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pin {
    /// A version, with the release it maps to.
    Version {
        /// The file that holds the version (a parent pom, gradle.properties, a catalog).
        file: PathBuf,
        /// Where the version is written in it.
        range: TextRange,
        /// `io.agentscope:agentscope-harness 2.0.2`.
        coordinate: String,
        mapped: Mapped,
    },
    /// The runtime is named, but its version cannot be told.
    Unresolved {
        file: PathBuf,
        range: TextRange,
        /// Why, as the end of a sentence about the file.
        why: String,
    },
}

/// Reads another file of the build (a parent pom, `gradle.properties`, a catalog): its text, if
/// it exists and is readable.
pub type Reader<'a> = &'a dyn Fn(&Path) -> Option<String>;

/// The pin of the Maven project whose `pom.xml` is `path` with `text`; `None` when neither it
/// nor its parents name the runtime.
pub fn maven(path: &Path, text: &str, read: Reader) -> Option<Pin> {
    let mut chain: Vec<(PathBuf, String)> = vec![(path.to_path_buf(), text.to_string())];
    // The parents, nearest first (`relativePath`, default `../pom.xml`), as far as they exist.
    while chain.len() < 8 {
        let (file, text) = chain.last().expect("not empty");
        let Ok(doc) = roxmltree::Document::parse(text) else {
            break;
        };
        let Some(parent) = child(doc.root_element(), "parent") else {
            break;
        };
        let relative = child_text(parent, "relativePath").unwrap_or("../pom.xml");
        let dir = file.parent().unwrap_or(Path::new("/"));
        let mut next = crate::base::pathutil::normalize_lexically(&dir.join(relative.trim()));
        if next.is_dir() || relative.trim().is_empty() {
            next = next.join("pom.xml");
        }
        match read(&next) {
            Some(text) => chain.push((next, text)),
            None => break,
        }
    }
    let docs: Vec<(&PathBuf, Result<roxmltree::Document, roxmltree::Error>)> = chain
        .iter()
        .map(|(file, text)| (file, roxmltree::Document::parse(text)))
        .collect();
    if let (file, Err(err)) = &docs[0] {
        return Some(Pin::Unresolved {
            file: (*file).clone(),
            range: TextRange::empty(0),
            why: format!("is not well-formed XML ({err})"),
        });
    }
    let properties = maven_properties(&docs);
    // A dependency with its version, in the project or a parent; then a managed version.
    for section in [
        &["dependencies"][..],
        &["dependencyManagement", "dependencies"],
    ] {
        for (file, doc) in &docs {
            let Ok(doc) = doc else { continue };
            for dependency in dependencies(doc.root_element(), section) {
                let Some(artifact) = runtime_artifact(dependency) else {
                    continue;
                };
                let Some(version) = child(dependency, "version") else {
                    continue;
                };
                return Some(resolve_maven(file, version, artifact, &properties));
            }
        }
    }
    // Named without a version anywhere (the version comes from elsewhere, a BOM of another
    // group): said, since it is the runtime.
    for (file, doc) in &docs {
        let Ok(doc) = doc else { continue };
        for dependency in dependencies(doc.root_element(), &["dependencies"]) {
            if runtime_artifact(dependency).is_some() {
                return Some(Pin::Unresolved {
                    file: (*file).clone(),
                    range: range_of(dependency),
                    why: "depends on the runtime without a version agentws can find in it or its parents".into(),
                });
            }
        }
    }
    None
}

fn child<'a, 'i>(node: roxmltree::Node<'a, 'i>, name: &str) -> Option<roxmltree::Node<'a, 'i>> {
    node.children().find(|c| c.has_tag_name(name))
}

fn child_text<'a>(node: roxmltree::Node<'a, '_>, name: &str) -> Option<&'a str> {
    child(node, name).and_then(|c| c.text()).map(str::trim)
}

fn range_of(node: roxmltree::Node) -> TextRange {
    let range = node.range();
    TextRange::new(range.start, range.end)
}

/// The `<dependency>` elements under the path `section` of `project`.
fn dependencies<'a, 'i>(
    project: roxmltree::Node<'a, 'i>,
    section: &[&str],
) -> Vec<roxmltree::Node<'a, 'i>> {
    let mut node = Some(project);
    for name in section {
        node = node.and_then(|n| child(n, name));
    }
    node.map(|n| {
        n.children()
            .filter(|c| c.has_tag_name("dependency"))
            .collect()
    })
    .unwrap_or_default()
}

/// `groupId:artifactId` of a dependency on the runtime.
fn runtime_artifact(dependency: roxmltree::Node) -> Option<String> {
    let group = child_text(dependency, "groupId")?;
    let artifact = child_text(dependency, "artifactId")?;
    (group == GROUP && ARTIFACTS.contains(&artifact)).then(|| format!("{group}:{artifact}"))
}

/// The properties of the chain, nearest first winning, with `project.version`,
/// `project.parent.version` and `revision` as Maven defines them; each with where it is written.
fn maven_properties(
    docs: &[(&PathBuf, Result<roxmltree::Document, roxmltree::Error>)],
) -> BTreeMap<String, (String, PathBuf, TextRange)> {
    let mut properties = BTreeMap::new();
    for (file, doc) in docs.iter().rev() {
        let Ok(doc) = doc else { continue };
        let project = doc.root_element();
        if let Some(props) = child(project, "properties") {
            for p in props.children().filter(|c| c.is_element()) {
                if let Some(text) = p.text() {
                    let range = p.first_child().map(range_of).unwrap_or_else(|| range_of(p));
                    properties.insert(
                        p.tag_name().name().to_string(),
                        (text.trim().to_string(), (*file).clone(), range),
                    );
                }
            }
        }
    }
    if let Some((file, Ok(doc))) = docs.first() {
        let project = doc.root_element();
        let parent_version = child(project, "parent").and_then(|p| child(p, "version"));
        if let Some(version) = child(project, "version").or(parent_version) {
            if let Some(text) = version.text() {
                properties.insert(
                    "project.version".into(),
                    (text.trim().into(), (*file).clone(), range_of(version)),
                );
            }
        }
        if let Some(version) = parent_version.and_then(|v| Some((v, v.text()?))) {
            properties.insert(
                "project.parent.version".into(),
                (
                    version.1.trim().into(),
                    (*file).clone(),
                    range_of(version.0),
                ),
            );
        }
    }
    properties
}

/// The version element `version` of a dependency on `artifact`, its `${…}` placeholders
/// resolved.
fn resolve_maven(
    file: &Path,
    version: roxmltree::Node,
    artifact: String,
    properties: &BTreeMap<String, (String, PathBuf, TextRange)>,
) -> Pin {
    let written = version.text().unwrap_or("").trim().to_string();
    let mut at = (file.to_path_buf(), range_of(version));
    let mut value = written.clone();
    for _ in 0..8 {
        let Some(name) = value
            .strip_prefix("${")
            .and_then(|rest| rest.strip_suffix('}'))
        else {
            break;
        };
        match properties.get(name) {
            Some((next, file, range)) => {
                at = (file.clone(), *range);
                value = next.clone();
            }
            None => {
                return Pin::Unresolved {
                    file: at.0,
                    range: at.1,
                    why: format!(
                        "gives {artifact} the version `{written}`, and no property `{name}` is defined in it or its parents"
                    ),
                }
            }
        }
    }
    pin(at.0, at.1, &artifact, &written, &value)
}

/// The pin of a version `value` (written as `written`) of `artifact`, at `range` of `file`.
fn pin(file: PathBuf, range: TextRange, artifact: &str, written: &str, value: &str) -> Pin {
    match map_version(value) {
        Some(mapped) => Pin::Version {
            file,
            range,
            coordinate: format!("{artifact} {value}"),
            mapped,
        },
        None => Pin::Unresolved {
            file,
            range,
            why: if written == value {
                format!("gives {artifact} the version `{written}`, which is not a version agentws can read (a range or a placeholder)")
            } else {
                format!("gives {artifact} the version `{written}` = `{value}`, which is not a version agentws can read")
            },
        },
    }
}

/// The pin of the Gradle build script at `path` with `text`; `properties` is the text of the
/// `gradle.properties` files that apply (nearest first) with their paths, and `catalog` the
/// version catalog, read when the script names the runtime through it.
pub fn gradle(
    path: &Path,
    text: &str,
    properties: &[(PathBuf, String)],
    catalog: Option<(&Path, &str)>,
) -> Option<Pin> {
    // `"io.agentscope:agentscope-harness:VERSION"` (also inside `platform(…)`).
    for artifact in ARTIFACTS {
        let coordinate = format!("{GROUP}:{artifact}:");
        let mut from = 0;
        while let Some(i) = text[from..].find(&coordinate) {
            let start = from + i;
            from = start + coordinate.len();
            let before = text[..start].chars().next_back();
            let Some(quote) = before.filter(|c| *c == '"' || *c == '\'') else {
                continue;
            };
            // A `${…}` expression may hold quotes of its own (`${property("v")}`).
            let value_start = match text[from..].starts_with("${") {
                true => match text[from..].find('}') {
                    Some(close) => from + close,
                    None => continue,
                },
                false => from,
            };
            let Some(end) = text[value_start..].find(quote).map(|e| value_start + e) else {
                continue;
            };
            let written = &text[from..end];
            let range = TextRange::new(from, end);
            return Some(gradle_version(
                path,
                text,
                range,
                &format!("{GROUP}:{artifact}"),
                written,
                properties,
            ));
        }
    }
    // Map notation: `group: 'io.agentscope', name: 'agentscope-harness', version: '2.0.2'`.
    for line_start in std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)) {
        let line_end = text[line_start..]
            .find('\n')
            .map_or(text.len(), |e| line_start + e);
        let line = &text[line_start..line_end];
        if !line.contains(GROUP) {
            continue;
        }
        let value = |key: &str| {
            named_value(line, key)
                .map(|(v, r)| (v, TextRange::new(line_start + r.start, line_start + r.end)))
        };
        let (Some((group, _)), Some((name, _))) = (value("group"), value("name")) else {
            continue;
        };
        if group != GROUP || !ARTIFACTS.contains(&name) {
            continue;
        }
        let artifact = format!("{GROUP}:{name}");
        return Some(match value("version") {
            Some((written, range)) => {
                gradle_version(path, text, range, &artifact, written, properties)
            }
            None => Pin::Unresolved {
                file: path.to_path_buf(),
                range: TextRange::new(line_start, line_end),
                why: format!("depends on {artifact} without a version"),
            },
        });
    }
    // Through a version catalog: `libs.agentscope.harness` and the like.
    if text.contains("libs.") {
        if let Some((catalog_path, catalog_text)) = catalog {
            return version_catalog(catalog_path, catalog_text);
        }
    }
    None
}

/// `key: 'value'`, `key = "value"` on one line: the value and its range in the line.
fn named_value<'l>(line: &'l str, key: &str) -> Option<(&'l str, std::ops::Range<usize>)> {
    let mut from = 0;
    while let Some(i) = line[from..].find(key) {
        let at = from + i;
        from = at + key.len();
        let boundary = line[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric() && c != '_');
        let rest = line[from..].trim_start();
        let Some(rest) = rest.strip_prefix(':').or_else(|| rest.strip_prefix('=')) else {
            continue;
        };
        if !boundary {
            continue;
        }
        let rest = rest.trim_start();
        let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
        let start = line.len() - rest.len() + 1;
        let end = start + line[start..].find(quote)?;
        return Some((&line[start..end], start..end));
    }
    None
}

/// A Gradle version as written (`2.0.2`, `$agentscopeVersion`, `${agentscopeVersion}`,
/// `${property("agentscopeVersion")}`), its variable read from the script or `gradle.properties`.
fn gradle_version(
    path: &Path,
    text: &str,
    range: TextRange,
    artifact: &str,
    written: &str,
    properties: &[(PathBuf, String)],
) -> Pin {
    let variable = written
        .strip_prefix("${")
        .and_then(|r| r.strip_suffix('}'))
        .map(|inner| {
            inner
                .trim()
                .trim_start_matches("property(")
                .trim_start_matches("project.property(")
                .trim_end_matches(')')
                .trim_matches(['"', '\''])
        })
        .or_else(|| written.strip_prefix('$'))
        .map(|v| {
            v.trim_start_matches("rootProject.")
                .trim_start_matches("project.")
                .trim_start_matches("ext.")
        });
    let Some(variable) = variable else {
        return pin(path.to_path_buf(), range, artifact, written, written);
    };
    // `name = "2.0.2"`, `name = '2.0.2'`, `set("name", "2.0.2")` in the script.
    let declared = gradle_assignment(text, variable);
    if let Some((value, at)) = declared {
        return pin(path.to_path_buf(), at, artifact, written, value);
    }
    for (file, props) in properties {
        if let Some((value, at)) = properties_value(props, variable) {
            return pin(file.clone(), at, artifact, written, value);
        }
    }
    Pin::Unresolved {
        file: path.to_path_buf(),
        range,
        why: format!(
            "gives {artifact} the version `{written}`, and agentws finds no value for `{variable}` in the script or gradle.properties"
        ),
    }
}

/// The value assigned to `name` in a Gradle script (`val name = "2.0.2"`, `ext { name = '2.0.2' }`,
/// `ext.name = …`, `extra["name"] = …`, `set("name", …)`), and where.
fn gradle_assignment<'t>(text: &'t str, name: &str) -> Option<(&'t str, TextRange)> {
    let is_name_char = |c: char| c.is_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(i) = text[from..].find(name) {
        let at = from + i;
        from = at + name.len();
        let bounded = text[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !is_name_char(c))
            && text[from..].chars().next().is_none_or(|c| !is_name_char(c));
        if !bounded {
            continue;
        }
        let rest = text[from..]
            .trim_start_matches(['"', '\'', ']', ')'])
            .trim_start();
        let Some(rest) = rest
            .strip_prefix('=')
            .or_else(|| rest.strip_prefix(','))
            .map(str::trim_start)
        else {
            continue;
        };
        let Some(quote) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            continue;
        };
        let start = text.len() - rest.len() + 1;
        let line_end = text[start..].find('\n').map_or(text.len(), |e| start + e);
        let Some(end) = text[start..line_end].find(quote).map(|e| start + e) else {
            continue;
        };
        return Some((&text[start..end], TextRange::new(start, end)));
    }
    None
}

/// `name=value` (or `name: value`) in a `.properties` text, and where.
fn properties_value<'t>(text: &'t str, name: &str) -> Option<(&'t str, TextRange)> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let trimmed = line.trim_start();
        let lead = line.len() - trimmed.len();
        let Some(rest) = trimmed.strip_prefix(name) else {
            continue;
        };
        let rest_trimmed = rest.trim_start();
        let Some(value) = rest_trimmed
            .strip_prefix('=')
            .or_else(|| rest_trimmed.strip_prefix(':'))
        else {
            continue;
        };
        let value_trimmed = value.trim();
        let offset = start
            + lead
            + name.len()
            + (rest.len() - rest_trimmed.len())
            + 1
            + (value.len() - value.trim_start().len());
        return Some((
            value_trimmed,
            TextRange::new(offset, offset + value_trimmed.len()),
        ));
    }
    None
}

/// The pin of a Gradle version catalog (`gradle/libs.versions.toml`).
pub fn version_catalog(path: &Path, text: &str) -> Option<Pin> {
    let unresolved = |why: String| {
        Some(Pin::Unresolved {
            file: path.to_path_buf(),
            range: TextRange::empty(0),
            why,
        })
    };
    let doc: toml::Table = match text.parse() {
        Ok(doc) => doc,
        Err(err) => return unresolved(format!("is not valid TOML ({})", err.message())),
    };
    let versions = doc.get("versions").and_then(|v| v.as_table());
    let libraries = doc.get("libraries").and_then(|v| v.as_table())?;
    for artifact in ARTIFACTS {
        let module = format!("{GROUP}:{artifact}");
        for entry in libraries.values() {
            let (entry_module, version) = match entry {
                toml::Value::String(s) => match s.rsplit_once(':') {
                    Some((m, v)) if m == module => {
                        (m.to_string(), Some(toml::Value::String(v.into())))
                    }
                    _ => continue,
                },
                toml::Value::Table(t) => {
                    let m = match (t.get("module"), t.get("group"), t.get("name")) {
                        (Some(m), _, _) => m.as_str().unwrap_or_default().to_string(),
                        (None, Some(g), Some(n)) => format!(
                            "{}:{}",
                            g.as_str().unwrap_or_default(),
                            n.as_str().unwrap_or_default()
                        ),
                        _ => continue,
                    };
                    (m, t.get("version").cloned())
                }
                _ => continue,
            };
            if entry_module != module {
                continue;
            }
            let written = match version {
                Some(toml::Value::String(v)) => v,
                Some(toml::Value::Table(t)) => {
                    match t.get("ref").and_then(|r| r.as_str()) {
                        Some(name) => match versions.and_then(|v| v.get(name)) {
                            Some(toml::Value::String(v)) => v.clone(),
                            Some(toml::Value::Table(rich)) => rich_version(rich).unwrap_or_default(),
                            _ => {
                                return unresolved(format!(
                                    "gives {module} the version reference `{name}`, which [versions] does not define"
                                ))
                            }
                        },
                        None => rich_version(&t).unwrap_or_default(),
                    }
                }
                _ => return unresolved(format!("names {module} without a version")),
            };
            let range = text
                .find(&format!("\"{written}\""))
                .map_or(TextRange::empty(0), |i| {
                    TextRange::new(i + 1, i + 1 + written.len())
                });
            return Some(pin(path.to_path_buf(), range, &module, &written, &written));
        }
    }
    None
}

/// A rich version (`{ strictly = "2.0.2" }`, `require`, `prefer`).
fn rich_version(table: &toml::Table) -> Option<String> {
    ["strictly", "require", "prefer"]
        .iter()
        .find_map(|k| table.get(*k).and_then(|v| v.as_str()).map(str::to_string))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::release::Release;

    fn release(pin: Option<Pin>) -> (Release, String) {
        match pin {
            Some(Pin::Version {
                mapped, coordinate, ..
            }) => (mapped.harness.release, coordinate),
            other => panic!("{other:?}"),
        }
    }

    fn why(pin: Option<Pin>) -> String {
        match pin {
            Some(Pin::Unresolved { why, .. }) => why,
            other => panic!("{other:?}"),
        }
    }

    const DEP: &str =
        "<dependency><groupId>io.agentscope</groupId><artifactId>agentscope-harness</artifactId>";

    fn pom(body: &str) -> String {
        format!("<?xml version=\"1.0\"?>\n<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n{body}\n</project>\n")
    }

    #[test]
    fn maven_dependency_property_parent_and_bom() {
        let no_parents: Reader = &|_| None;
        let direct = pom(&format!(
            "<dependencies>{DEP}<version>2.0.2</version></dependency></dependencies>"
        ));
        assert_eq!(
            release(maven(Path::new("/p/pom.xml"), &direct, no_parents)),
            (
                Release::V2_0_2,
                "io.agentscope:agentscope-harness 2.0.2".into()
            )
        );
        let property = pom(&format!(
            "<properties><agentscope.version>2.0.3</agentscope.version></properties>\
             <dependencies>{DEP}<version>${{agentscope.version}}</version></dependency></dependencies>"
        ));
        let Some(Pin::Version { range, .. }) =
            maven(Path::new("/p/pom.xml"), &property, no_parents)
        else {
            panic!()
        };
        assert_eq!(&property[range.start..range.end], "2.0.3");
        // The child has no version; the parent manages it through the BOM and a property.
        let child = pom(&format!(
            "<parent><groupId>x</groupId><artifactId>p</artifactId><version>1</version></parent>\
             <dependencies>{DEP}</dependency></dependencies>"
        ));
        let parent = pom(
            "<properties><as.version>2.0.3-SNAPSHOT</as.version></properties>\
             <dependencyManagement><dependencies><dependency><groupId>io.agentscope</groupId>\
             <artifactId>agentscope-bom</artifactId><version>${as.version}</version><type>pom</type>\
             <scope>import</scope></dependency></dependencies></dependencyManagement>",
        );
        let reader: Reader = &|p: &Path| (p == Path::new("/p/pom.xml")).then(|| parent.clone());
        assert_eq!(
            release(maven(Path::new("/p/app/pom.xml"), &child, reader)),
            (
                Release::V2_0_3Snapshot,
                "io.agentscope:agentscope-bom 2.0.3-SNAPSHOT".into()
            )
        );
        assert_eq!(
            why(maven(Path::new("/p/app/pom.xml"), &child, no_parents)),
            "depends on the runtime without a version agentws can find in it or its parents"
        );
        let undefined = pom(&format!(
            "<dependencies>{DEP}<version>${{nope}}</version></dependency></dependencies>"
        ));
        assert_eq!(
            why(maven(Path::new("/p/pom.xml"), &undefined, no_parents)),
            "gives io.agentscope:agentscope-harness the version `${nope}`, and no property `nope` is defined in it or its parents"
        );
        assert!(why(maven(
            Path::new("/p/pom.xml"),
            "<project><oops>",
            no_parents
        ))
        .starts_with("is not well-formed XML"));
        assert_eq!(maven(Path::new("/p/pom.xml"), &pom(""), no_parents), None);
    }

    #[test]
    fn gradle_notations_variables_and_catalogs() {
        let kts =
            "dependencies {\n    implementation(\"io.agentscope:agentscope-harness:2.0.2\")\n}\n";
        assert_eq!(
            release(gradle(Path::new("/p/build.gradle.kts"), kts, &[], None)).0,
            Release::V2_0_2
        );
        let groovy = "ext { agentscopeVersion = '2.0.3' }\ndependencies {\n    implementation \"io.agentscope:agentscope-harness:$agentscopeVersion\"\n}\n";
        assert_eq!(
            release(gradle(Path::new("/p/build.gradle"), groovy, &[], None)).0,
            Release::V2_0_3
        );
        let map = "dependencies {\n    implementation group: 'io.agentscope', name: 'agentscope-harness', version: '2.0.4'\n}\n";
        let Some(Pin::Version { mapped, .. }) =
            gradle(Path::new("/p/build.gradle"), map, &[], None)
        else {
            panic!()
        };
        assert_eq!(mapped.harness.release, Release::V2_0_3);
        assert!(mapped.note.is_some());
        let props_script = "dependencies { implementation(platform(\"io.agentscope:agentscope-bom:${property(\"asVersion\")}\")) }\n";
        let props = vec![(
            PathBuf::from("/p/gradle.properties"),
            "org.gradle.jvmargs=-Xmx1g\nasVersion = 2.0.3-SNAPSHOT\n".to_string(),
        )];
        let Some(Pin::Version {
            file,
            range,
            mapped,
            ..
        }) = gradle(Path::new("/p/build.gradle.kts"), props_script, &props, None)
        else {
            panic!()
        };
        assert_eq!(file, PathBuf::from("/p/gradle.properties"));
        assert_eq!(&props[0].1[range.start..range.end], "2.0.3-SNAPSHOT");
        assert_eq!(mapped.harness.release, Release::V2_0_3Snapshot);
        assert!(why(gradle(
            Path::new("/p/build.gradle"),
            "implementation \"io.agentscope:agentscope-harness:$missing\"\n",
            &[],
            None
        ))
        .contains("no value for `missing`"));
        let catalog = "[versions]\nagentscope = \"2.0.2\"\n\n[libraries]\nharness = { module = \"io.agentscope:agentscope-harness\", version.ref = \"agentscope\" }\n";
        let script = "dependencies { implementation(libs.harness) }\n";
        assert_eq!(
            release(gradle(
                Path::new("/p/build.gradle.kts"),
                script,
                &[],
                Some((Path::new("/p/gradle/libs.versions.toml"), catalog))
            ))
            .0,
            Release::V2_0_2
        );
        let strict = "[libraries]\nharness = { group = \"io.agentscope\", name = \"agentscope-harness\", version = { strictly = \"2.0.3\" } }\n";
        assert_eq!(
            release(version_catalog(Path::new("/c.toml"), strict)).0,
            Release::V2_0_3
        );
        assert_eq!(
            gradle(
                Path::new("/p/build.gradle"),
                "plugins { id 'java' }\n",
                &[],
                None
            ),
            None
        );
    }
}
