//! The frontmatter splitters (skill regex and subagent `indexOf`) and the traps around them.

use agentws::syntax::frontmatter::{opening_trap, split_skill, split_subagent};
use agentws_fuzz::assert_range;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let Ok(text) = std::str::from_utf8(data) else {
            return;
        };
        if let Some(split) = split_skill(text) {
            for (what, range) in [
                ("opening", split.opening),
                ("yaml_raw", split.yaml_raw),
                ("yaml", split.yaml),
                ("closing", split.closing),
                ("body", split.body),
            ] {
                assert_range(text, range, what);
            }
            assert!(split.opening.end <= split.yaml_raw.start);
            assert!(
                split.yaml_raw.start <= split.yaml.start && split.yaml.end <= split.yaml_raw.end
            );
            assert!(split.yaml_raw.end <= split.closing.start);
            assert_eq!(&text[split.closing.start..split.closing.end], "---");
            assert!(split.closing.end <= split.body.start);
        }
        if let Ok(split) = split_subagent(text) {
            for (what, range) in [
                ("opening", split.opening),
                ("yaml", split.yaml),
                ("closing", split.closing),
                ("body", split.body),
            ] {
                assert_range(text, range, what);
            }
            assert_eq!(&text[split.closing.start..split.closing.end], "---");
        }
        let _ = opening_trap(text);
    });
}
