//! The module dependency rule of docs/architecture.md, checked against the source: the "may depend
//! on" column of its module table is parsed, must name every module of `src/` and form a DAG, and
//! every `crate::<module>` path a module's files use (test code included) must be in its row.
//!
//! `files`: below the modules, the files: no two import each other, none is over its size.
//!
//! Test-only. It reads files, never the crate's items, so it depends on no other module.

mod files;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module → the modules it may import, in the order of the table's rows.
#[derive(Debug, Default, PartialEq, Eq)]
struct Table {
    rows: Vec<(String, BTreeSet<String>)>,
}

impl Table {
    fn allowed(&self, module: &str) -> Option<&BTreeSet<String>> {
        self.rows.iter().find(|(m, _)| m == module).map(|(_, d)| d)
    }

    fn modules(&self) -> BTreeSet<&str> {
        self.rows.iter().map(|(m, _)| m.as_str()).collect()
    }
}

const HEADER: [&str; 2] = ["module", "may depend on"];

/// The table whose first two header cells are `module | may depend on`. A row is
/// ``| `name` | `a`, `b` | …``; `—` (or nothing in backticks) means no dependency.
fn parse_table(markdown: &str) -> Result<Table, String> {
    let mut lines = markdown.lines().map(str::trim);
    let cells = |line: &str| -> Vec<String> {
        line.trim_matches('|')
            .splitn(3, '|')
            .map(|c| c.trim().to_string())
            .collect()
    };
    lines
        .by_ref()
        .find(|l| l.starts_with('|') && cells(l).iter().map(String::as_str).take(2).eq(HEADER))
        .ok_or_else(|| "no table with the header `| module | may depend on |`".to_string())?;
    lines.next(); // the `|---|` separator
    let mut table = Table::default();
    for line in lines.take_while(|l| l.starts_with('|')) {
        let cells = cells(line);
        let name = backticked(&cells[0]);
        let deps = cells.get(1).map(|c| backticked(c)).unwrap_or_default();
        let [name] = name.as_slice() else {
            return Err(format!("row `{line}`: the module cell must be one `name`"));
        };
        if table.allowed(name).is_some() {
            return Err(format!("module `{name}` has two rows"));
        }
        if deps.contains(name) {
            return Err(format!("module `{name}` lists itself"));
        }
        table.rows.push((name.clone(), deps.into_iter().collect()));
    }
    let known = table.modules();
    for (module, deps) in &table.rows {
        if let Some(unknown) = deps.iter().find(|d| !known.contains(d.as_str())) {
            return Err(format!(
                "module `{module}` may depend on `{unknown}`, which has no row"
            ));
        }
    }
    Ok(table)
}

/// The texts between backticks in `cell`.
fn backticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// One cycle of the table's dependencies (`a → b → a`), if any.
fn cycle(table: &Table) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit<'t>(
        table: &'t Table,
        module: &'t str,
        marks: &mut BTreeMap<&'t str, Mark>,
        path: &mut Vec<&'t str>,
    ) -> Option<Vec<String>> {
        match marks.get(module) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let from = path.iter().position(|m| *m == module).unwrap_or(0);
                let mut cycle: Vec<String> = path[from..].iter().map(|m| m.to_string()).collect();
                cycle.push(module.to_string());
                return Some(cycle);
            }
            None => {}
        }
        marks.insert(module, Mark::Open);
        path.push(module);
        for dep in table.allowed(module).into_iter().flatten() {
            if let Some(found) = visit(table, dep, marks, path) {
                return Some(found);
            }
        }
        path.pop();
        marks.insert(module, Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    table
        .rows
        .iter()
        .find_map(|(m, _)| visit(table, m, &mut marks, &mut Vec::new()))
}

/// `source` with comments, string literals and character literals replaced by spaces (line breaks
/// kept), so that a `crate::` inside them is not taken for a path.
pub(super) fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let start = i;
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == 'r' && matches!(next, Some('"' | '#')) && raw_string_prefix(&chars[..i]) {
            let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
            if chars.get(i + 1 + hashes) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            i += 2 + hashes;
            while i < chars.len() {
                let closing = chars[i + 1..].iter().take(hashes).filter(|c| **c == '#');
                if chars[i] == '"' && closing.count() == hashes {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal; `'a` without a closing quote two characters on is a lifetime.
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else {
            out.push(c);
            i += 1;
            continue;
        }
        let end = i.min(chars.len());
        out.extend(chars[start..end].iter().map(|c| blank(*c)));
        i = end;
    }
    out
}

/// Whether an `r` after `before` starts a raw string (`r"`, `br"`) rather than ending a name.
fn raw_string_prefix(before: &[char]) -> bool {
    let ident = |c: &char| c.is_alphanumeric() || *c == '_';
    match before {
        [.., p] if !ident(p) => true,
        [] => true,
        [.., p, 'b'] => !ident(p),
        ['b'] => true,
        _ => false,
    }
}

/// The modules `source` names as `crate::<module>` (a `use crate::{a, b::c}` group names each of its
/// items), with the 1-based line of each.
fn imports(source: &str) -> Vec<(usize, String)> {
    let code = code_only(source);
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let word = |s: &str| s.chars().take_while(|c| ident(*c)).collect::<String>();
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        if code[..at].chars().next_back().is_some_and(ident) {
            continue; // `my_crate::`
        }
        let line = code[..at].matches('\n').count() + 1;
        let rest = code[at + "crate::".len()..].trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item_start = true;
            for c in group.char_indices() {
                match c.1 {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    ch if item_start && ident(ch) => {
                        let name = word(&group[c.0..]);
                        if name != "self" {
                            let line = line + group[..c.0].matches('\n').count();
                            found.push((line, name));
                        }
                        item_start = false;
                    }
                    _ => {}
                }
            }
        } else {
            let name = word(rest);
            if !name.is_empty() {
                found.push((line, name));
            }
        }
    }
    found
}

pub(super) fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The crate's modules: every folder of `src/` and every `src/<name>.rs` other than the crate
/// roots and this file.
fn module_names() -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for entry in std::fs::read_dir(src()).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let rust_module = path.extension().is_some_and(|e| e == "rs")
            && !["lib", "main"].contains(&stem.as_str());
        if stem != "architecture" && (path.is_dir() || rust_module) {
            names.insert(stem);
        }
    }
    names
}

/// The `.rs` files of `module`: `src/<module>.rs` and everything under `src/<module>/`.
fn module_files(module: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    let single = src().join(format!("{module}.rs"));
    if single.is_file() {
        files.push(single);
    }
    walk(&src().join(module), &mut files);
    files.sort();
    files
}

/// Every import the table does not allow, as `file:line: ...` (paths relative to the repository).
fn violations(table: &Table, modules: &BTreeSet<String>) -> Vec<String> {
    let server = Path::new(env!("CARGO_MANIFEST_DIR"));
    let repo = server.parent().unwrap_or(server);
    let mut found = Vec::new();
    for module in modules {
        let Some(allowed) = table.allowed(module) else {
            continue;
        };
        for file in module_files(module) {
            let source = std::fs::read_to_string(&file).unwrap();
            let shown = file
                .strip_prefix(repo)
                .unwrap_or(&file)
                .display()
                .to_string();
            for (line, import) in imports(&source) {
                if import != *module && !allowed.contains(&import) {
                    let list: Vec<&str> = allowed.iter().map(String::as_str).collect();
                    found.push(format!(
                        "{shown}:{line}: `crate::{import}` is not in the row of `{module}` (may depend on: {})",
                        if list.is_empty() { "nothing".to_string() } else { list.join(", ") }
                    ));
                }
            }
        }
    }
    found
}

#[test]
fn every_module_imports_only_what_its_row_in_docs_architecture_md_lists() {
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/architecture.md");
    let table = parse_table(&std::fs::read_to_string(doc).unwrap()).unwrap();
    assert_eq!(cycle(&table), None, "the dependency table has a cycle");
    let modules = module_names();
    let rows: BTreeSet<String> = table.modules().into_iter().map(str::to_string).collect();
    assert_eq!(
        modules.difference(&rows).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "modules of src/ without a row in docs/architecture.md"
    );
    assert_eq!(
        rows.difference(&modules).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "rows of docs/architecture.md naming no module of src/"
    );
    let found = violations(&table, &modules);
    assert!(
        found.is_empty(),
        "imports against docs/architecture.md:\n{}",
        found.join("\n")
    );
}

#[test]
fn imports_are_found_in_paths_and_use_groups_but_not_in_comments_or_strings() {
    let source = r##"//! Uses `crate::lsp` only in this comment.
use crate::base::{Diagnostic, TextRange};
use crate::{config, workspace::{layout, Workspace}, self};
use crate::{
    rules::Rule,
    syntax,
};
pub(crate) fn f<'a>(x: &'a str) -> char {
    /* crate::cli /* nested */ crate::cli */
    let _ = "crate::engine \" crate::engine";
    let _ = r#"crate::prompt "quoted" crate::prompt"#;
    let _ = my_crate::store::x;
    let _ = '"';
    let _ = crate::paths::normalize(x);
    '\''
}
macro_rules! m { () => { $crate::context::X } }
"##;
    assert_eq!(
        imports(source),
        [
            (2, "base"),
            (3, "config"),
            (3, "workspace"),
            (5, "rules"),
            (6, "syntax"),
            (14, "paths"),
            (17, "context"),
        ]
        .map(|(l, m)| (l, m.to_string()))
    );
}

#[test]
fn the_table_is_read_from_its_module_and_dependency_columns() {
    let doc = "# Title\n\n| module | may depend on | what it is for |\n|---|---|---|\n\
               | `base` | — | text | and more |\n| `syntax` | `base` | parsing |\n\
               | `check` | `base`, `syntax` | the `rules` |\n\nAfter.\n| `x` | `y` | z |\n";
    let table = parse_table(doc).unwrap();
    let set = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(
        table.rows,
        vec![
            ("base".to_string(), set(&[])),
            ("syntax".to_string(), set(&["base"])),
            ("check".to_string(), set(&["base", "syntax"])),
        ]
    );
    assert_eq!(cycle(&table), None);
}

#[test]
fn a_table_with_a_cycle_or_an_unknown_module_is_refused() {
    let head = "| module | may depend on | what |\n|---|---|---|\n";
    let table = parse_table(&format!(
        "{head}| `base` | — | |\n| `a` | `base`, `c` | |\n| `b` | `a` | |\n| `c` | `b` | |\n"
    ))
    .unwrap();
    assert_eq!(
        cycle(&table),
        Some(["a", "c", "b", "a"].map(str::to_string).to_vec())
    );
    assert_eq!(
        parse_table(&format!("{head}| `a` | `z` | |\n")),
        Err("module `a` may depend on `z`, which has no row".to_string())
    );
    assert_eq!(
        parse_table(&format!("{head}| `a` | `a` | |\n")),
        Err("module `a` lists itself".to_string())
    );
    assert_eq!(
        parse_table("| module | what |\n"),
        Err("no table with the header `| module | may depend on |`".to_string())
    );
}

#[test]
fn an_import_outside_the_row_is_reported_with_its_file_and_line() {
    // The real source checked against a table in which `config` may depend on `base` alone.
    let table = Table {
        rows: vec![
            ("base".to_string(), BTreeSet::new()),
            ("config".to_string(), ["base".to_string()].into()),
        ],
    };
    let found = violations(&table, &["config".to_string()].into());
    assert!(
        found
            .iter()
            .any(|v| v.starts_with("server/src/config/mod.rs:")
                && v.ends_with(
                    ": `crate::syntax` is not in the row of `config` (may depend on: base)"
                )),
        "{found:#?}"
    );
}
