//! CF014 `build-file-version-unread`: the build file next to or above the project depends on the
//! runtime, but agentws cannot tell the version (a property defined nowhere it looks, a version
//! range, a file it cannot parse). Reported at the version in the build file; the newest release
//! is modelled meanwhile. Found by `config::discover`, which reads the build files.

use std::path::Path;

use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "CF014",
    name: "build-file-version-unread",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "The build file depends on the AgentScope runtime with a version agentws cannot read.",
    consequence: "agentws models the newest release it knows, which may not be the one the agent runs: findings and the preview can differ from the runtime's.",
    explanation: "agentws reads the version of `io.agentscope:agentscope-harness` (or of the \
all-in-one `io.agentscope:agentscope`, or of the `io.agentscope:agentscope-bom` that manages them) \
from the build file next to or above the project: Maven `pom.xml` with its `<properties>` and the \
parent chain's `dependencyManagement`; Gradle `build.gradle` or `build.gradle.kts` with variables \
from the script and `gradle.properties`; the version catalog `gradle/libs.versions.toml`. A \
version it cannot resolve (a property defined in a profile or on the command line, a range, a \
parent pom that is not on disk) is reported here. Write the version where agentws can read it, or \
set `harness = \"2.0.2\"` in agentws.toml, which wins over the build file.",
    examples: &[Example {
        base: Base::None,
        triggering: &[
            (
                "pom.xml",
                "<project>\n  <dependencies>\n    <dependency>\n      <groupId>io.agentscope</groupId>\n      <artifactId>agentscope-harness</artifactId>\n      <version>${agentscope.version}</version>\n    </dependency>\n  </dependencies>\n</project>\n",
            ),
            (".agentscope/workspace/AGENTS.md", "You are a release assistant.\n"),
        ],
        fixed: &[
            (
                "pom.xml",
                "<project>\n  <properties>\n    <agentscope.version>2.0.2</agentscope.version>\n  </properties>\n  <dependencies>\n    <dependency>\n      <groupId>io.agentscope</groupId>\n      <artifactId>agentscope-harness</artifactId>\n      <version>${agentscope.version}</version>\n    </dependency>\n  </dependencies>\n</project>\n",
            ),
            (".agentscope/workspace/AGENTS.md", "You are a release assistant.\n"),
        ],
        at: "pom.xml:6:7",
    }],
}

/// The build file at `path` names the runtime but its version is unknown, for `why`.
pub fn diagnostic(path: &Path, range: TextRange, why: &str, modelled: &str) -> Diagnostic {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    RULE.at(
        path,
        range,
        format!("{name} {why}; agentws models {modelled}, the newest release it knows"),
    )
}
