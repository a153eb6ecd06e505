//! End-to-end tests of `agentws watch`: the real binary on a temporary copy of a fixture, real
//! file changes, the exact lines it prints. Waits are hang guards only, never timing assertions.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use super::check::copy_tree;
use super::support::fixture;

/// How long a line may take before the test gives up (a slow, loaded machine; not a measurement).
const HANG_GUARD: Duration = Duration::from_secs(120);

/// A running `agentws watch`, killed when dropped (also when an assertion fails).
struct Watch {
    child: Child,
    lines: Receiver<String>,
}

impl Watch {
    fn start(dir: &Path, args: &[&str]) -> Watch {
        let mut child = Command::new(env!("CARGO_BIN_EXE_agentws"))
            .env("PATH", crate::support::path_with_agentws())
            .arg("watch")
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn agentws watch");
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Watch { child, lines }
    }

    /// The lines up to and including the first one starting with `last`.
    fn read_through(&self, last: &str) -> Vec<String> {
        let deadline = Instant::now() + HANG_GUARD;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(last);
                    out.push(line);
                    if done {
                        return out;
                    }
                }
                Err(err) => panic!("no line starting with {last:?} ({err}); got {out:#?}"),
            }
        }
    }
}

/// Replaces `path`'s text in one step (written beside the project, then renamed over it), so the
/// watcher never sees a half-written file, however slow the machine.
fn replace(staging: &Path, path: &Path, text: &str) {
    let staged = staging.join("staged");
    std::fs::write(&staged, text).unwrap();
    std::fs::rename(&staged, path).unwrap();
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn prints_the_report_then_only_new_and_resolved_diagnostics() {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("p");
    copy_tree(&fixture("cli-basic"), &project);
    let skills = project.join(".agentscope/workspace/skills");
    // A folder git ignores is not watched: the count below leaves it out.
    std::fs::write(skills.join(".gitignore"), "drafts/\n").unwrap();
    std::fs::create_dir_all(skills.join("drafts/wip")).unwrap();
    std::fs::write(skills.join("drafts/wip/SKILL.md"), "---\nname: yes\n---\n").unwrap();

    let watch = Watch::start(&project, &[]);
    assert_eq!(
        watch.read_through("Watching"),
        [
            ".agentscope/workspace/MEMORY.md:1:1: warning[WS003] `MEMORY.md` in the shared workspace is blank",
            "agentws.toml:3:29: warning[WS011] additional context file `SOUL.md` exists in no workspace folder",
            "agentws.toml:3:40: warning[CF012] additional context file `笔记/灵魂 😀.md` lies in `笔记/`, the namespace folder of the user or session id `笔记`: its file tools write `灵魂 😀.md` there, the file every other user's prompt reads",
            "agentws.toml:3:40: warning[WS011] additional context file `笔记/灵魂 😀.md` exists in no workspace folder",
            "Checked 6 files: 1 agentws.toml, 1 AGENTS.md, 1 MEMORY.md, 1 skill, 1 subagent, 1 tools.json.",
            "Found 0 errors, 4 warnings, 0 infos.",
            // The project, .agentscope, the workspace, skills, skills/pdf, subagents.
            "Watching 6 folders for changes. Press Ctrl-C to stop.",
        ]
    );

    let skill = skills.join("pdf/SKILL.md");
    let good = std::fs::read_to_string(&skill).unwrap();
    replace(tmp.path(), &skill, &good.replace("name: pdf", "name: yes"));
    assert_eq!(
        watch.read_through("Re-checked"),
        [
            "new: .agentscope/workspace/skills/pdf/SKILL.md:2:7: error[SK008] `name: yes` is a YAML boolean (true), not a string; the runtime skips the skill",
            "Re-checked (1 file changed): 1 new, 0 resolved; now 1 error, 4 warnings, 0 infos.",
        ]
    );

    replace(tmp.path(), &skill, &good);
    assert_eq!(
        watch.read_through("Re-checked"),
        [
            "resolved: .agentscope/workspace/skills/pdf/SKILL.md:2:7: error[SK008] `name: yes` is a YAML boolean (true), not a string; the runtime skips the skill",
            "Re-checked (1 file changed): 0 new, 1 resolved; now 0 errors, 4 warnings, 0 infos.",
        ]
    );

    // A skill folder created while watching is watched from then on. It is made outside and moved
    // in whole, so that one change is seen, not a folder without its SKILL.md first.
    let staged = tmp.path().join("new");
    std::fs::create_dir(&staged).unwrap();
    std::fs::write(
        staged.join("SKILL.md"),
        "---\nname: new\ndescription: d\n---\n",
    )
    .unwrap();
    let new = skills.join("new");
    std::fs::rename(&staged, &new).unwrap();
    let lines = watch.read_through("Re-checked");
    assert_eq!(
        lines.last().unwrap(),
        "Re-checked (1 file changed): 1 new, 0 resolved; now 1 error, 4 warnings, 0 infos."
    );
    replace(
        tmp.path(),
        &new.join("SKILL.md"),
        "---\nname: new\ndescription: d\n---\nBody\n",
    );
    assert_eq!(
        watch.read_through("Re-checked"),
        [
            "resolved: .agentscope/workspace/skills/new/SKILL.md:4:1: error[SK011] nothing follows the frontmatter; the runtime skips a skill without content",
            "Re-checked (1 file changed): 0 new, 1 resolved; now 0 errors, 4 warnings, 0 infos.",
        ]
    );
}

#[test]
fn a_missing_path_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_agentws"))
        .args(["watch", "no/such/folder"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read `no/such/folder`"));
}
