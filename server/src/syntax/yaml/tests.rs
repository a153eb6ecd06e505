//! The spanned tree against the runtime's typing: ranges, YAML 1.1 and Jackson scalars, budgets
//! against hostile documents, the fallback line parser, and the colon-in-value repair.

use super::*;

fn doc(text: &str, typing: Typing) -> YamlDoc {
    parse(text, TextRange::new(0, text.len()), typing).unwrap()
}

fn value(text: &str, typing: Typing) -> Value {
    let d = doc(&format!("k: {text}"), typing);
    d.root.unwrap().get("k").unwrap().value.value.clone()
}

fn java(text: &str) -> String {
    value(text, Typing::Yaml11).java_string().unwrap()
}

#[test]
fn ranges_are_whole_file_offsets() {
    let text = "---\nname: 技能\ndescription: \"🌐 web\"\n---\n";
    let d = parse(text, TextRange::new(4, 40), Typing::Yaml11).unwrap();
    let root = d.root.unwrap();
    let name = root.get("name").unwrap();
    assert_eq!(name.key_range, TextRange::new(4, 8));
    assert_eq!(name.value.range, TextRange::new(10, 16));
    assert_eq!(&text[10..16], "技能");
    let desc = root.get("description").unwrap();
    assert_eq!(desc.value.value, Value::Str("🌐 web".into()));
    assert_eq!(
        &text[desc.value.range.start..desc.value.range.end],
        "\"🌐 web\""
    );
    assert_eq!(root.range, TextRange::new(4, 40));
}

#[test]
fn yaml11_typing() {
    for (src, expected) in [
        ("yes", "true"),
        ("No", "false"),
        ("OFF", "false"),
        ("on", "true"),
        ("1.0", "1.0"),
        ("1.10", "1.1"),
        ("1e10", "1.0E10"),
        ("0.0001", "1.0E-4"),
        ("12345678.5", "1.23456785E7"),
        (".inf", "Infinity"),
        ("-.inf", "-Infinity"),
        (".nan", "NaN"),
        ("1:30", "90"),
        ("-1:30", "-90"),
        ("1:30.5", "90.5"),
        ("0x1F", "31"),
        ("010", "8"),
        ("0b101", "5"),
        ("1_000", "1000"),
        (
            "123456789012345678901234567890",
            "123456789012345678901234567890",
        ),
        ("2024-01-01", "Mon Jan 01 00:00:00 UTC 2024"),
        (
            "2001-12-14t21:59:43.10-05:00",
            "Sat Dec 15 02:59:43 UTC 2001",
        ),
        ("2024-1-1 10:00:00", "Mon Jan 01 10:00:00 UTC 2024"),
        ("~", "null"),
        ("0o17", "0o17"),
        ("08", "08"),
        ("1.0.0", "1.0.0"),
        ("y", "y"),
        ("tRuE", "tRuE"),
    ] {
        assert_eq!(java(src), expected, "{src}");
    }
    assert_eq!(value("\"yes\"", Typing::Yaml11), Value::Str("yes".into()));
    assert_eq!(value("!!str 123", Typing::Yaml11), Value::Str("123".into()));
    assert_eq!(value("", Typing::Yaml11), Value::Null);
}

#[test]
fn jackson_typing() {
    assert_eq!(value("yes", Typing::Jackson), Value::Str("yes".into()));
    assert_eq!(value("True", Typing::Jackson), Value::Bool(true));
    assert_eq!(
        value("2024-01-01", Typing::Jackson),
        Value::Str("2024-01-01".into())
    );
    assert_eq!(value("1:30", Typing::Jackson), Value::Str("1:30".into()));
    assert_eq!(value("15", Typing::Jackson), Value::Int("15".into()));
    assert_eq!(value("0x10", Typing::Jackson), Value::Int("16".into()));
    assert_eq!(
        value("0.85", Typing::Jackson).java_string().unwrap(),
        "0.85"
    );
    assert_eq!(value("~", Typing::Jackson), Value::Null);
    // Aliases are not resolved: the anchor's name comes back as a string.
    let d = doc("a: &x [1, 2]\nb: *x\n", Typing::Jackson);
    assert_eq!(
        d.root.unwrap().get("b").unwrap().value.value,
        Value::Str("x".into())
    );
    // Duplicate keys: last value, first position.
    let d = doc("a: 1\nb: 2\na: 3\n", Typing::Jackson);
    let root = d.root.unwrap();
    let Value::Map(entries) = &root.value else {
        panic!()
    };
    assert_eq!(entries[0].key, "a");
    assert_eq!(entries[0].value.value, Value::Int("3".into()));
}

#[test]
fn non_string_keys_are_dropped_and_duplicates_fail() {
    let d = doc("1: a\nyes: b\nname: c\n", Typing::Yaml11);
    assert_eq!(d.dropped_keys.len(), 2);
    assert_eq!(d.dropped_keys[1].value, Value::Bool(true));
    assert_eq!(d.dropped_keys[1].range, TextRange::new(5, 8));
    let err = parse("a: 1\na: 2\n", TextRange::new(0, 10), Typing::Yaml11).unwrap_err();
    assert_eq!(
        err.kind,
        YamlErrorKind::DuplicateKey {
            key: "a".into(),
            first: TextRange::new(0, 1)
        }
    );
    assert_eq!(err.range, TextRange::new(5, 6));
}

#[test]
fn surprises_carry_rendered_values() {
    let d = doc(
            "version: 1.0\nrelease: 1.10\nbig: 1.5e+3\nwhen: 2024-01-01\nok: hello\nflag: true\nlist: [yes]\n",
            Typing::Yaml11,
        );
    let found: Vec<(&str, &str)> = d
        .surprises
        .iter()
        .map(|s| (s.key_path.as_str(), s.source.as_str()))
        .collect();
    assert_eq!(
        found,
        // `1.0` is a double that Java prints as `1.0`: what was written, so no surprise.
        vec![
            ("release", "1.10"),
            ("big", "1.5e+3"),
            ("when", "2024-01-01"),
            ("", "yes")
        ]
    );
}

#[test]
fn block_scalars_and_nested_maps() {
    let d = doc(
        "a: |\n  line1\n  line2\nb: >\n  a\n  b\nmetadata: {\"clawdbot\":{\"emoji\":\"🌐\"}}\n",
        Typing::Yaml11,
    );
    let root = d.root.unwrap();
    assert_eq!(
        root.get("a").unwrap().value.value,
        Value::Str("line1\nline2\n".into())
    );
    assert_eq!(
        root.get("b").unwrap().value.value,
        Value::Str("a b\n".into())
    );
    let meta = &root.get("metadata").unwrap().value;
    let inner = &meta.get("clawdbot").unwrap().value;
    assert_eq!(
        inner.get("emoji").unwrap().value.value,
        Value::Str("🌐".into())
    );
}

#[test]
fn runtime_limits() {
    // 11 nested levels of nodes pass SnakeYAML's limit of 10, 12 do not.
    let ok = format!("{}x{}", "[".repeat(10), "]".repeat(10));
    assert!(parse(&ok, TextRange::new(0, ok.len()), Typing::Yaml11).is_ok());
    let deep = format!("{}x{}", "[".repeat(11), "]".repeat(11));
    let err = parse(&deep, TextRange::new(0, deep.len()), Typing::Yaml11).unwrap_err();
    assert_eq!(err.kind, YamlErrorKind::TooDeep { limit: 10 });
    let mut aliases = String::from("a: &a [1]\nb: [");
    aliases.push_str(&["*a"; 11].join(", "));
    aliases.push_str("]\n");
    let err = parse(&aliases, TextRange::new(0, aliases.len()), Typing::Yaml11).unwrap_err();
    assert_eq!(err.kind, YamlErrorKind::TooManyAliases { limit: 10 });
    let err = parse("a: !custom x", TextRange::new(0, 12), Typing::Yaml11).unwrap_err();
    assert!(matches!(err.kind, YamlErrorKind::UnsupportedTag(_)));
}

#[test]
fn hostile_documents_are_errors() {
    // Billion laughs with scalar aliases only (the runtime's collection-alias limit does not
    // count those), so our node budget is what stops it.
    let mut laughs = String::from("a: &a [\"lol\"]\n");
    let mut prev = "a".to_string();
    for i in 0..10 {
        let name = format!("l{i}");
        laughs.push_str(&format!(
            "{name}: &{name} [{}]\n",
            vec![format!("*{prev}"); 10].join(",")
        ));
        prev = name;
    }
    let err = parse(&laughs, TextRange::new(0, laughs.len()), Typing::Yaml11).unwrap_err();
    assert_eq!(err.kind, YamlErrorKind::TooManyAliases { limit: 10 });
    // Within the runtime's 10 aliases a document can still grow 32-fold: our node budget
    // stops it.
    let mut grow = format!("l0: &l0 [{}]\n", ["x"; 5000].join(","));
    for i in 1..=5 {
        grow.push_str(&format!("l{i}: &l{i} [*l{}, *l{}]\n", i - 1, i - 1));
    }
    let err = parse(&grow, TextRange::new(0, grow.len()), Typing::Yaml11).unwrap_err();
    assert_eq!(err.kind, YamlErrorKind::OverBudget);
    assert!(parse(&laughs, TextRange::new(0, laughs.len()), Typing::Jackson).is_ok());
    let deep = format!("{}x{}", "[".repeat(10_000), "]".repeat(10_000));
    for typing in [Typing::Yaml11, Typing::Jackson] {
        assert!(parse(&deep, TextRange::new(0, deep.len()), typing).is_err());
    }
    let deep_block: String = (0..10_000)
        .map(|i| format!("{}k:\n", " ".repeat(i)))
        .collect();
    assert!(parse(
        &deep_block,
        TextRange::new(0, deep_block.len()),
        Typing::Jackson
    )
    .is_err());
    let huge = "a: b\n".repeat(MAX_YAML_BYTES / 5 + 1);
    let err = parse(&huge, TextRange::new(0, huge.len()), Typing::Jackson).unwrap_err();
    assert_eq!(err.kind, YamlErrorKind::OverBudget);
    let many = format!("[{}]", vec!["1"; MAX_NODES + 1].join(","));
    let err = parse(&many, TextRange::new(0, many.len()), Typing::Jackson).unwrap_err();
    assert_eq!(err.kind, YamlErrorKind::OverBudget);
}

#[test]
fn syntax_errors_have_positions() {
    let text = "name: a\n\tdescription: b\n";
    let err = parse(text, TextRange::new(0, text.len()), Typing::Yaml11).unwrap_err();
    assert_eq!(err.kind, YamlErrorKind::Syntax);
    assert!(err.range.start <= text.len());
}

#[test]
fn fallback_parser_matches_the_runtime() {
    let text = "name: \"my skill\"\ndescription: |\n  long\nmetadata:\n  a: b\n- item\n  indented: x\nlicense: 'MIT'\nname: second\n\"quoted\": v\nempty:\r\nx : y\n";
    let f = fallback(text, TextRange::new(0, text.len()));
    let kept: Vec<(&str, &str)> = f
        .entries
        .iter()
        .map(|e| (e.key.as_str(), e.value.value.as_str().unwrap()))
        .collect();
    assert_eq!(
        kept,
        vec![("name", "second"), ("license", "MIT"), ("x", "y")]
    );
    let lost: Vec<(&str, LostReason)> = f.lost.iter().map(|l| (l.key.as_str(), l.reason)).collect();
    assert_eq!(
        lost,
        vec![
            ("description", LostReason::BlockScalar),
            ("metadata", LostReason::EmptyValue),
            ("\"quoted\"", LostReason::NotAKeyLine),
            ("empty", LostReason::EmptyValue),
        ]
    );
    let license = &f.entries[1];
    assert_eq!(
        &text[license.value.range.start..license.value.range.end],
        "'MIT'"
    );
    assert_eq!(license.key_range, TextRange::new(77, 84));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
    #[test]
    fn parse_never_panics_and_ranges_stay_inside(
        text in "([a-z]{1,3}|:|-|\\[|\\]|\\{|\\}|,|&a|\\*a|!!str|\"|'|\\||>|#| |\n|\t|\r|1|0x1|1:30|yes|~|é|😀){0,60}"
    ) {
        for typing in [Typing::Yaml11, Typing::Jackson] {
            let range = TextRange::new(0, text.len());
            if let Ok(doc) = parse(&text, range, typing) {
                let mut stack: Vec<&Node> = doc.root.iter().collect();
                while let Some(node) = stack.pop() {
                    proptest::prop_assert!(node.range.start <= node.range.end && node.range.end <= text.len());
                    match &node.value {
                        Value::List(items) => stack.extend(items.iter()),
                        Value::Map(entries) => {
                            for e in entries {
                                proptest::prop_assert!(e.key_range.end <= text.len());
                                stack.push(&e.value);
                            }
                        }
                        _ => {}
                    }
                }
            } else if let Err(err) = parse(&text, range, typing) {
                proptest::prop_assert!(err.range.end <= text.len());
            }
            let f = fallback(&text, range);
            for e in &f.entries {
                proptest::prop_assert!(e.value.range.end <= text.len());
            }
        }
    }
}

/// Applies the repair [`colon_in_values`] proposes for the whole text `yaml`.
fn repaired(yaml: &str, typing: Typing) -> Option<String> {
    let found = colon_in_values(yaml, TextRange::new(0, yaml.len()), typing)?;
    let mut out = yaml.to_string();
    for c in found.iter().rev() {
        out.replace_range(c.range.start..c.range.end, &c.quoted);
    }
    Some(out)
}

fn string_at(yaml: &str, key: &str) -> String {
    let doc = parse(yaml, TextRange::new(0, yaml.len()), Typing::Yaml11).unwrap();
    let mut node = doc.root.as_ref().unwrap();
    for part in key.split('.') {
        node = &node.get(part).unwrap().value;
    }
    node.value.as_str().unwrap().to_string()
}

#[test]
fn quoting_chooses_the_quotes_that_need_no_escape() {
    assert_eq!(quoted("a: b"), "\"a: b\"");
    assert_eq!(quoted("it's: fine"), "\"it's: fine\"");
    assert_eq!(quoted("say \"hi\": now"), "'say \"hi\": now'");
    assert_eq!(quoted(r"C:\temp: dir"), r"'C:\temp: dir'");
    assert_eq!(quoted("it's \"x\": y"), "\"it's \\\"x\\\": y\"");
    // Every one reads back as the text it quotes.
    for text in [
        "a: b",
        "it's: fine",
        "say \"hi\": now",
        r"C:\temp: dir",
        "it's \"x\": \\y",
        "tab\there: 字 😀",
    ] {
        let yaml = format!("k: {}", quoted(text));
        assert_eq!(string_at(&yaml, "k"), text, "{yaml}");
    }
}

#[test]
fn an_unquoted_colon_in_a_value_is_repaired_by_quoting() {
    let yaml = "name: weather\ndescription: Look up the forecast: temperature, rain and wind\nmetadata:\n  author: me\n";
    assert!(parse(yaml, TextRange::new(0, yaml.len()), Typing::Yaml11).is_err());
    let found = colon_in_values(yaml, TextRange::new(0, yaml.len()), Typing::Yaml11).unwrap();
    assert_eq!(
        found,
        vec![ColonInValue {
            key: "description".into(),
            range: TextRange::new(27, 75),
            quoted: "\"Look up the forecast: temperature, rain and wind\"".into(),
        }]
    );
    let fixed = repaired(yaml, Typing::Yaml11).unwrap();
    assert_eq!(
        string_at(&fixed, "description"),
        "Look up the forecast: temperature, rain and wind"
    );
    assert_eq!(string_at(&fixed, "metadata.author"), "me");
    // Nested and list values, quotes inside, a trailing colon, CRLF, trailing blanks.
    let yaml = "a: x: \"y\"\r\nb:\r\n  c: it's: z  \r\n  d:\r\n    - e: f:\r\n";
    let fixed = repaired(yaml, Typing::Yaml11).unwrap();
    assert_eq!(
        fixed,
        "a: 'x: \"y\"'\r\nb:\r\n  c: \"it's: z\"  \r\n  d:\r\n    - e: \"f:\"\r\n"
    );
    assert_eq!(string_at(&fixed, "a"), "x: \"y\"");
    assert_eq!(string_at(&fixed, "b.c"), "it's: z");
    // Jackson reads the repair too.
    assert!(repaired("description: a: b\n", Typing::Jackson).is_some());
}

#[test]
fn no_repair_when_quoting_is_not_certain() {
    for yaml in [
        // Valid YAML, nothing to repair.
        "a: b\nc: d:e\n",
        // Another error remains.
        "a: x: y\nb: [\n",
        "a: x: y\na: z\n",
        // A comment, or a value that runs on over the next line.
        "a: issue #1: fix\n",
        "a: x: y\n  and more\n",
        // Already quoted, or a flow collection.
        "a: \"x\": y\n",
        "a: [x]: y\n",
    ] {
        assert_eq!(repaired(yaml, Typing::Yaml11), None, "{yaml:?}");
    }
    // A line inside a block scalar is text, never a key: left alone, so the other value's
    // repair is not certain either (quoting both would change the block's text).
    let yaml = "a: |\n  note: see: x\nb: c: d\n";
    assert_eq!(repaired(yaml, Typing::Yaml11), None);
    let yaml = "a: |\n  note: see: x\n";
    assert_eq!(repaired(yaml, Typing::Yaml11), None);
}

/// Frontmatter texts at the edges of the plain block style the line scan reads (`simple`): keys,
/// separators, values and line ends that it reads, mostly, and many that it must leave to the
/// parser (`generated_texts_are_read_by_both`).
fn near_plain_style() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let key = prop::sample::select(vec![
        "name",
        "description",
        "a",
        "b-c",
        "x.y",
        "_k",
        "1",
        "yes",
        "name",
        "é1",
    ]);
    let value = prop::sample::select(vec![
        "plain",
        "two words",
        "\"dq\"",
        "'sq'",
        "\"\"",
        "''",
        "a#b",
        "http://x",
        "yes",
        "~",
        "null",
        "1.0",
        "1:30",
        "é ü",
        "\u{a0}x",
        "a  b",
        "x,y",
        "\"é\"",
        "...",
        "0x1F",
        "😀",
    ]);
    // A line: its key, its value or none (`key:`, a mapping below), how many levels it closes.
    let line = (key, prop::option::weighted(0.8, value), 0..3usize);
    let odd = prop::sample::select(vec![
        " ",
        "   ",
        "\t",
        "-k",
        "k k",
        "",
        "<<",
        "?",
        "a#",
        "\"k\"",
        ":  ",
        " : ",
        ":\t",
        "::",
        "\"a\\\"b\"",
        "'it''s'",
        "x: y",
        "a #c",
        "#c",
        "-5",
        "[a, b]",
        "{a: 1}",
        "&a v",
        "*a",
        "!t v",
        "|",
        ">",
        "v ",
        "v:",
        "---",
        "'un",
        "\"un",
        "%x",
        "@x",
        "`x",
        "a\u{2028}b",
        "\u{feff}x",
        "\"a\" b",
        "'a' b",
        "a\u{7f}b",
        "?x",
        "x\u{85}y",
        "a\u{0}b",
        "\r",
        "\n",
        "\n\n",
        "# c\n",
        "---\n",
        "- a\n",
        "  ",
    ]);
    // Now and then one odd piece, put at a byte of the text.
    let mutation = prop::option::weighted(0.4, (odd, any::<prop::sample::Index>()));
    let step = prop::sample::select(vec![2usize, 2, 4, 1, 3]);
    (
        prop::collection::vec(line, 0..8),
        step,
        mutation,
        any::<bool>(),
    )
        .prop_map(|(lines, step, mutation, last_break)| {
            let mut text = String::new();
            let (mut level, mut opened) = (0usize, false);
            for (key, value, closes) in lines {
                level = if opened {
                    level + 1
                } else {
                    level.saturating_sub(closes)
                };
                text.push_str(&" ".repeat(level * step));
                text.push_str(key);
                match value {
                    Some(value) => text.push_str(&format!(": {value}\n")),
                    None => text.push_str(":\n"),
                }
                opened = value.is_none();
            }
            if !last_break {
                text.pop();
            }
            if let Some((piece, index)) = mutation {
                let mut at = index.index(text.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                text.insert_str(at, piece);
            }
            text
        })
}

/// The generated texts exercise both ways: many are read by the scan, many by the parser alone.
#[test]
fn generated_texts_are_read_by_both() {
    use proptest::strategy::{Strategy, ValueTree};
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let texts: Vec<String> = (0..2000)
        .map(|_| near_plain_style().new_tree(&mut runner).unwrap().current())
        .collect();
    let scanned = texts.iter().filter(|t| simple::events(t).is_some()).count();
    let nested = texts
        .iter()
        .filter(|t| simple::events(t).is_some() && t.contains("\n  "))
        .count();
    assert!(
        (400..1600).contains(&scanned),
        "{scanned} of 2000 read by the scan"
    );
    assert!(nested >= 50, "{nested} nested mappings read by the scan");
}

/// An event with the byte range of its span.
type SpannedEvent<'t> = (Event<'t>, Option<usize>, Option<usize>);

fn with_byte_ranges<'t>(
    events: impl IntoIterator<Item = (Event<'t>, Span)>,
) -> Vec<SpannedEvent<'t>> {
    let spanned = events
        .into_iter()
        .map(|(event, span)| (event, span.start.byte_offset(), span.end.byte_offset()));
    spanned.collect()
}

/// The parser's events for `text`, each with its byte range; `None` for a text it refuses.
fn parser_events(text: &str) -> Option<Vec<SpannedEvent<'_>>> {
    let mut options = Options::default();
    options.emit_comments = false;
    let parser = Parser::new_from_str_with_options(text, options);
    let events: Result<Vec<_>, _> = parser.collect();
    Some(with_byte_ranges(events.ok()?))
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]

    /// Where the line scan reads a text, its events are the parser's, with the same byte ranges.
    #[test]
    fn simple_events_are_the_parsers(text in near_plain_style()) {
        if let Some(events) = simple::events(&text) {
            let scanned = with_byte_ranges(events);
            proptest::prop_assert_eq!(Some(scanned), parser_events(&text), "{:?}", text);
        }
    }

    /// A parse is the parser's alone, tree and errors, under both typings.
    #[test]
    fn a_parse_is_the_parsers_alone(text in near_plain_style()) {
        for typing in [Typing::Yaml11, Typing::Jackson] {
            let range = TextRange::new(0, text.len());
            proptest::prop_assert_eq!(
                parse(&text, range, typing),
                parse_by_parser(&text, range, typing),
                "{:?}", text
            );
        }
    }
}

/// The line scan reads the frontmatter most skills have (two levels, quoted and plain values)
/// and leaves the rest to the parser.
#[test]
fn the_line_scan_reads_common_frontmatter_only() {
    let common = "name: pdf-tools\ndescription: Fill PDF forms. Use when a form is given.\n\
                  license: Apache-2.0\nmetadata:\n  author: team\n  version: \"1.2.0\"\n\
                  allowed-tools: 'Read, Bash(git:*)'\n";
    let events = simple::events(common).expect("read by the scan");
    assert_eq!(Some(with_byte_ranges(events)), parser_events(common));
    for other in [
        "tools:\n  - read\n",
        "skills: [a, b]\n",
        "description: >\n  folded\n",
        "name: a # comment\n",
        "name: a\n\ndescription: b\n",
        "name: a\r\n",
        "empty:\nname: a\n",
        "name: a\n  continued\n",
    ] {
        assert!(simple::events(other).is_none(), "{other:?}");
    }
}
