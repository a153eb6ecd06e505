//! The spanned YAML tree (both typings) and the runtime's fallback line parser, over the whole
//! input as a frontmatter block inside a file that has one byte before and after it; the tree
//! is the same whether plain frontmatter is read by the line scan or by the parser.

use agentws::base::TextRange;
use agentws::syntax::yaml::{fallback, parse, parse_by_parser, Node, Typing, Value};
use agentws_fuzz::assert_range;

fn check(text: &str, node: &Node, budget: &mut usize) {
    assert_range(text, node.range, "node");
    *budget = budget.checked_sub(1).expect("more nodes than the budget");
    match &node.value {
        Value::List(items) => items.iter().for_each(|n| check(text, n, budget)),
        Value::Map(entries) => {
            for entry in entries {
                assert_range(text, entry.key_range, "key");
                check(text, &entry.value, budget);
            }
        }
        _ => {}
    }
}

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let Ok(inner) = std::str::from_utf8(data) else {
            return;
        };
        // Offsets must come out relative to the whole file, not the block.
        let text = format!("\n{inner}\n");
        let range = TextRange::new(1, 1 + inner.len());
        for typing in [Typing::Yaml11, Typing::Jackson] {
            let parsed = parse(&text, range, typing);
            assert_eq!(parsed, parse_by_parser(&text, range, typing), "scan and parser differ");
            match parsed {
                Ok(doc) => {
                    let mut budget = agentws::syntax::yaml::MAX_NODES + 1;
                    if let Some(root) = &doc.root {
                        check(&text, root, &mut budget);
                    }
                    for key in &doc.dropped_keys {
                        assert_range(&text, key.range, "dropped key");
                    }
                    for surprise in &doc.surprises {
                        assert_range(&text, surprise.range, "surprise");
                    }
                }
                Err(error) => assert_range(&text, error.range, "error"),
            }
        }
        let lines = fallback(&text, range);
        for entry in &lines.entries {
            assert_range(&text, entry.key_range, "fallback key");
        }
        for lost in &lines.lost {
            assert_range(&text, lost.range, "lost key");
        }
    });
}
