//! The lenient JSON reader that reports what strict JSON rejects (tools.json).

use agentws::syntax::json::{parse, Node, Value};
use agentws_fuzz::assert_range;

fn check(text: &str, node: &Node, depth: usize) {
    assert_range(text, node.range, "node");
    assert!(
        depth <= agentws::syntax::json::MAX_ANALYSED_DEPTH + 1,
        "tree deeper than analysed"
    );
    match &node.value {
        Value::Array(elements) => elements.iter().for_each(|n| check(text, n, depth + 1)),
        Value::Object(members) => {
            for member in members {
                assert_range(text, member.key_range, "key");
                check(text, &member.value, depth + 1);
            }
        }
        _ => {}
    }
}

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let Ok(text) = std::str::from_utf8(data) else {
            return;
        };
        let parsed = parse(text);
        if let Some(root) = &parsed.root {
            check(text, root, 0);
        }
        assert!(parsed.problems.len() <= agentws::syntax::json::MAX_PROBLEMS + 1);
        for problem in &parsed.problems {
            assert_range(text, problem.range, "problem");
            let _ = problem.message();
        }
        assert!(
            parsed
                .problems
                .windows(2)
                .all(|w| w[0].range.start <= w[1].range.start),
            "problems not sorted"
        );
    });
}
