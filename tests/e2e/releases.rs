//! The system prompt of each runtime release, byte for byte: `tests/fixtures/releases/<release>/
//! <case>/expected/prompt.txt` were produced by the runtime's own classes at that release's
//! commit (each case's CASE.md names it and the context), and `agentws preview --harness
//! <release>` must print the same. `{FIXTURE}` stands for the project folder, which the copy
//! places at a path of the same length as the one the goldens were made at (the path counts
//! towards the memory budget).

use std::path::Path;

use assert_cmd::Command;

use super::preview::fixed_length_copy;

/// The date and machine facts the goldens were made with.
const MACHINE: &[&str] = &[
    "--date",
    "2026-12-07",
    "--os",
    "Linux 6.8.0-45-generic",
    "--tmp-dir",
    "/tmp",
];

/// (case, context flags) of every release's cases.
const CASES: &[(&str, &[&str])] = &[
    ("allow-subagents", &["--user", "alice", "--session", "s1"]),
    (
        "allow-plan",
        &["--user", "alice", "--session", "s1", "--plan", "active"],
    ),
    ("block-scalar", &["--user", "alice", "--session", "s1"]),
    ("sandbox", &["--user", "alice"]),
    ("sandbox-artifact", &["--user", "alice"]),
];

const RELEASES: &[&str] = &["2.0.2", "2.0.3-SNAPSHOT", "2.0.3", "main"];

#[test]
fn every_release_prints_what_its_own_classes_print() {
    let mut failures = Vec::new();
    let mut compared = 0;
    for release in RELEASES {
        for (case, flags) in CASES {
            let name = format!("releases/{release}/{case}");
            if !super::support::fixture(&name).is_dir() {
                continue;
            }
            compared += 1;
            let (_tmp, dir) = fixed_length_copy(&name);
            let output = Command::cargo_bin("agentws")
                .unwrap()
                .arg("preview")
                .arg(&dir)
                .args(MACHINE)
                .args(["--harness", release])
                .args(*flags)
                .output()
                .unwrap();
            assert_eq!(output.status.code(), Some(0), "{name}");
            let expected = std::fs::read_to_string(dir.join("expected/prompt.txt"))
                .unwrap()
                .replace("{FIXTURE}", &dir.to_string_lossy());
            let actual = String::from_utf8(output.stdout).unwrap();
            if actual != expected {
                let diff = similar::TextDiff::from_lines(&expected, &actual)
                    .unified_diff()
                    .header("the runtime's classes", "agentws")
                    .to_string();
                failures.push(format!("{name}:\n{diff}"));
            }
        }
    }
    assert_eq!(compared, 18, "every release has its cases");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What differs between the releases, said in the tool notes: under 2.0.2 a non-empty `allow`
/// removes the subagent tools that the `## Subagents` section still names; from 2.0.3-SNAPSHOT
/// on they are platform tools that `allow` keeps.
#[test]
fn the_subagents_section_names_tools_allow_removed_only_at_2_0_2() {
    let (_tmp, dir) = fixed_length_copy("releases/2.0.2/allow-subagents");
    let notes = |release: &str| {
        let output = Command::cargo_bin("agentws")
            .unwrap()
            .arg("preview")
            .arg(&dir)
            .args(MACHINE)
            .args(["--harness", release, "--user", "alice", "--format", "json"])
            .output()
            .unwrap();
        let preview: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        preview["notes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n["code"] == "removed-tool")
            .map(|n| n["message"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let at_202 = notes("2.0.2");
    assert!(
        at_202.contains(
            &"the `## Subagents` section tells the model to delegate to subagents with `agent_spawn`, \
              `agent_send`, `agent_list`, but tools.json removes `agent_spawn`, `agent_send`, \
              `agent_list`: the model does not have them"
                .to_string()
        ),
        "{at_202:#?}"
    );
    assert!(!notes("2.0.3").iter().any(|n| n.contains("## Subagents")));
    let check = |release: &str| {
        let out = Command::cargo_bin("agentws")
            .unwrap()
            .args(["check", "--format", "concise", "--harness", release])
            .arg(&dir)
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(check("2.0.2").contains("`## Subagents` section still tells the model"));
    assert!(!check("2.0.3").contains("`## Subagents` section"));
    assert!(check("2.0.2").contains("tools.json:2:3: warning[TJ025]"));
    assert!(!Path::new(&dir).join("pom.xml").exists());
}

/// A project at `<tmp>/app` whose build files are `files` (paths relative to `<tmp>`), checked:
/// the runtime it is modelled under, as the JSON report names it, and the codes reported.
fn modelled(files: &[(&str, &str)], extra: &[&str]) -> (serde_json::Value, Vec<String>) {
    let tmp = tempfile::tempdir().unwrap();
    let app = tmp.path().join("app");
    std::fs::create_dir_all(app.join(".agentscope/workspace")).unwrap();
    std::fs::write(app.join(".agentscope/workspace/AGENTS.md"), "You help.\n").unwrap();
    for (rel, text) in files {
        let path = tmp.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let out = Command::cargo_bin("agentws")
        .unwrap()
        .current_dir(&app)
        .args(["check", "--format", "json"])
        .args(extra)
        .arg(".")
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let codes = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect();
    (report["runtimes"][0].clone(), codes)
}

const HARNESS_DEP: &str =
    "<dependency><groupId>io.agentscope</groupId><artifactId>agentscope-harness</artifactId>";

fn pom(body: &str) -> String {
    format!("<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n<modelVersion>4.0.0</modelVersion>\n{body}\n</project>\n")
}

/// (what, build files (path, text), the release modelled, its source as shown).
type BuildCase = (
    &'static str,
    Vec<(&'static str, String)>,
    &'static str,
    &'static str,
);

#[test]
fn the_release_comes_from_each_build_file_shape() {
    let cases: Vec<BuildCase> = vec![
        (
            "Maven dependency",
            vec![("app/pom.xml", pom(&format!("<dependencies>{HARNESS_DEP}<version>2.0.2</version></dependency></dependencies>")))],
            "2.0.2",
            "from pom.xml (io.agentscope:agentscope-harness 2.0.2)",
        ),
        (
            "Maven property",
            vec![("app/pom.xml", pom(&format!("<properties><agentscope.version>2.0.3-SNAPSHOT</agentscope.version></properties><dependencies>{HARNESS_DEP}<version>${{agentscope.version}}</version></dependency></dependencies>")))],
            "2.0.3-SNAPSHOT",
            "from pom.xml (io.agentscope:agentscope-harness 2.0.3-SNAPSHOT)",
        ),
        (
            "Maven parent with a BOM",
            vec![
                ("app/pom.xml", pom(&format!("<parent><groupId>com.example</groupId><artifactId>parent</artifactId><version>1</version></parent><dependencies>{HARNESS_DEP}</dependency></dependencies>"))),
                ("pom.xml", pom("<properties><as.version>2.0.2</as.version></properties><dependencyManagement><dependencies><dependency><groupId>io.agentscope</groupId><artifactId>agentscope-bom</artifactId><version>${as.version}</version><type>pom</type><scope>import</scope></dependency></dependencies></dependencyManagement>")),
            ],
            "2.0.2",
            "from ../pom.xml (io.agentscope:agentscope-bom 2.0.2)",
        ),
        (
            "Gradle Groovy with a variable",
            vec![("app/build.gradle", "ext { agentscopeVersion = '2.0.2' }\ndependencies {\n    implementation \"io.agentscope:agentscope-harness:$agentscopeVersion\"\n}\n".into())],
            "2.0.2",
            "from build.gradle (io.agentscope:agentscope-harness 2.0.2)",
        ),
        (
            "Gradle Kotlin with gradle.properties",
            vec![
                ("app/build.gradle.kts", "dependencies {\n    implementation(\"io.agentscope:agentscope-harness:${property(\"agentscopeVersion\")}\")\n}\n".into()),
                ("gradle.properties", "agentscopeVersion=2.0.3\n".into()),
            ],
            "2.0.3",
            "from ../gradle.properties (io.agentscope:agentscope-harness 2.0.3)",
        ),
        (
            "Gradle version catalog",
            vec![
                ("app/build.gradle.kts", "dependencies { implementation(libs.agentscope.harness) }\n".into()),
                ("gradle/libs.versions.toml", "[versions]\nagentscope = \"2.0.2\"\n\n[libraries]\nagentscope-harness = { module = \"io.agentscope:agentscope-harness\", version.ref = \"agentscope\" }\n".into()),
            ],
            "2.0.2",
            "from ../gradle/libs.versions.toml (io.agentscope:agentscope-harness 2.0.2)",
        ),
        (
            "a version agentws does not model",
            vec![("app/pom.xml", pom(&format!("<dependencies>{HARNESS_DEP}<version>2.0.5</version></dependency></dependencies>")))],
            "2.0.3",
            "from pom.xml (io.agentscope:agentscope-harness 2.0.5)",
        ),
    ];
    for (what, files, release, source) in cases {
        let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
        let (runtime, codes) = modelled(&files, &[]);
        assert_eq!(runtime["release"], release, "{what}: {runtime}");
        assert_eq!(runtime["source"], source, "{what}: {runtime}");
        assert!(!codes.contains(&"CF014".to_string()), "{what}: {codes:?}");
        if what == "a version agentws does not model" {
            assert_eq!(
                runtime["note"],
                "version 2.0.5 is newer than every release agentws models; the newest, 2.0.3, is modelled"
            );
        }
    }
}

#[test]
fn agentws_toml_and_the_flag_win_and_an_unreadable_build_file_is_a_warning() {
    let pinned = pom(&format!(
        "<dependencies>{HARNESS_DEP}<version>2.0.2</version></dependency></dependencies>"
    ));
    let toml = "harness = \"main\"\n[agent]\nname = \"a\"\n";
    let (runtime, _) = modelled(&[("app/pom.xml", &pinned), ("app/agentws.toml", toml)], &[]);
    assert_eq!(runtime["release"], "main");
    assert_eq!(runtime["source"], "from agentws.toml `harness`");
    let (runtime, _) = modelled(
        &[("app/pom.xml", &pinned)],
        &["--harness", "2.0.3-SNAPSHOT"],
    );
    assert_eq!(runtime["release"], "2.0.3-SNAPSHOT");
    let opted = "[harness]\nrelease = \"2.0.3\"\npending = [\"3645\"]\n";
    let (runtime, _) = modelled(&[("app/agentws.toml", opted)], &[]);
    assert_eq!(runtime["release"], "2.0.3+#3645");
    let broken = "<project><dependencies><dependency>";
    let (runtime, codes) = modelled(&[("app/pom.xml", broken)], &[]);
    assert_eq!(runtime["release"], "2.0.3");
    assert_eq!(codes, vec!["CF014"]);
    let ranged = pom(&format!(
        "<dependencies>{HARNESS_DEP}<version>[2.0,3.0)</version></dependency></dependencies>"
    ));
    let (_, codes) = modelled(&[("app/pom.xml", &ranged)], &[]);
    assert_eq!(codes, vec!["CF014"]);
    // A pom that does not name the runtime is no answer: the default, and no warning.
    let other = pom("<dependencies><dependency><groupId>org.x</groupId><artifactId>y</artifactId><version>1</version></dependency></dependencies>");
    let (runtime, codes) = modelled(&[("app/pom.xml", &other)], &[]);
    assert_eq!(runtime["release"], "2.0.3");
    assert!(codes.is_empty(), "{codes:?}");
}
