//! The rules below the module table, over the crate's files: no two files import each other (no
//! file cycle, however long), no file holds more than `MAX_FILE_LINES` lines of production code,
//! and no production function is longer than `MAX_FUNCTION_LINES`.
//!
//! A file depends on another when it names an item of it: a `crate::`, `super::` or `self::` path,
//! or a path through a child module it declares, resolved to the deepest file it reaches and, where
//! that file only re-exports the item (`pub use`), to the file that defines it. Re-exports are a
//! module's facade, not a dependency of their own. Test code is left out: the files a
//! `#[cfg(test)] mod` declares, files named `tests.rs`, `tests_*.rs` or `*_tests.rs`, and every
//! `#[cfg(test)]` item of a file.
//!
//! The core (every module but the front-ends `cli` and `lsp`) never prints, never reads the process
//! environment (front-ends pass it as `base::Env`), and touches the disk only in the files
//! `DISK_FILES` names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::{code_only, src};

/// Production lines a file may hold (its tests live in a file of their own or after them).
const MAX_FILE_LINES: usize = 1_500;
/// Lines from a production function's `fn` to its closing brace.
const MAX_FUNCTION_LINES: usize = 120;

/// One file of the crate: its module path (`["engine", "compose"]`) and its production code, with
/// comments and literals blanked.
struct File {
    shown: String,
    module: Vec<String>,
    code: String,
    source: String,
    /// Lines of production code (the file's lines but its test items').
    lines: usize,
}

fn is_test_file(path: &Path) -> bool {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    stem == "tests" || stem.starts_with("tests_") || stem.ends_with("_tests")
}

/// `text` with every `#[cfg(test)]` item (a test module, a test helper) replaced by empty lines,
/// so that line numbers stay those of the file; and how many lines are left.
fn production_part(text: &str) -> (String, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let mut keep = vec![true; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() != "#[cfg(test)]" {
            i += 1;
            continue;
        }
        let indent = &lines[i][..lines[i].len() - lines[i].trim_start().len()];
        let mut end = i + 1;
        while end < lines.len() && lines[end].trim_start().starts_with("#[") {
            end += 1;
        }
        if end < lines.len() && !lines[end].trim_end().ends_with(';') {
            let closing = format!("{indent}}}");
            end += lines[end..]
                .iter()
                .position(|l| *l == closing)
                .unwrap_or(lines.len() - end - 1);
        }
        let last = end.min(lines.len() - 1);
        keep[i..=last].iter_mut().for_each(|k| *k = false);
        i = end + 1;
    }
    let kept = keep.iter().filter(|k| **k).count();
    let part = lines
        .iter()
        .zip(&keep)
        .map(|(line, keep)| if *keep { *line } else { "" })
        .collect::<Vec<_>>()
        .join("\n");
    (part, kept)
}

/// The files a `#[cfg(test)] mod name;` (with or without `#[path = "…"]`) declares.
fn declared_test_files(path: &Path, text: &str) -> Vec<PathBuf> {
    let dir = match path.file_name().and_then(|n| n.to_str()) {
        Some("mod.rs" | "lib.rs") => path.parent().unwrap().to_path_buf(),
        _ => path.with_extension(""),
    };
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if *line != "#[cfg(test)]" {
            continue;
        }
        let mut explicit = None;
        let mut j = i + 1;
        while let Some(attr) = lines.get(j).filter(|l| l.starts_with("#[")) {
            if let Some(rest) = attr.strip_prefix("#[path = \"") {
                explicit = rest
                    .split('"')
                    .next()
                    .map(|p| path.parent().unwrap().join(p));
            }
            j += 1;
        }
        let Some(item) = lines.get(j) else { continue };
        let item = item.strip_prefix("pub ").unwrap_or(item);
        let Some(name) = item.strip_prefix("mod ").and_then(|n| n.strip_suffix(';')) else {
            continue;
        };
        found.push(explicit.unwrap_or_else(|| dir.join(format!("{name}.rs"))));
        found.push(dir.join(name).join("mod.rs"));
    }
    found
}

fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib") {
        parts.push(stem.to_string());
    }
    parts
}

fn crate_files() -> Vec<File> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = src();
    let mut paths = Vec::new();
    walk(&root, &mut paths);
    paths.sort();
    let texts: Vec<(PathBuf, String)> = paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            (path, text)
        })
        .collect();
    let tests: BTreeSet<PathBuf> = texts
        .iter()
        .flat_map(|(path, text)| declared_test_files(path, text))
        .collect();
    texts
        .into_iter()
        .filter(|(p, _)| !is_test_file(p) && !tests.contains(p))
        .filter(|(p, _)| !p.starts_with(root.join("architecture")) && p != &root.join("main.rs"))
        .map(|(path, text)| {
            let relative = path.strip_prefix(&root).unwrap();
            let (source, lines) = production_part(&text);
            File {
                shown: format!("server/src/{}", relative.display()),
                module: module_of(relative),
                code: code_only(&source),
                source,
                lines,
            }
        })
        .collect()
}

/// Every path `code` names from `prefix` on (`crate::a::{b, c::d}` gives `[a, b]` and
/// `[a, c, d]`), as its segments.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut found = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        if code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| ident(c) || c == ':')
        {
            continue;
        }
        expand(&code[at + prefix.len()..], Vec::new(), &mut found);
    }
    found
}

/// The paths of `rest` (what follows `…::`) with `base` before each.
fn expand(rest: &str, base: Vec<String>, out: &mut Vec<Vec<String>>) {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let rest = rest.trim_start();
    if let Some(group) = rest.strip_prefix('{') {
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    expand(&group[start..i], base.clone(), out);
                    return;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&group[start..i], base.clone(), out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        return;
    }
    let word: String = rest.chars().take_while(|c| ident(*c)).collect();
    if word.is_empty() {
        if !base.is_empty() {
            out.push(base);
        }
        return;
    }
    let mut path = base;
    let after = rest[word.len()..].trim_start();
    if word != "self" {
        path.push(word);
    }
    match after.strip_prefix("::") {
        Some(more) => expand(more, path, out),
        None => out.push(path),
    }
}

/// The crate's files by module path.
struct Tree<'f> {
    by_module: BTreeMap<Vec<String>, &'f File>,
}

impl<'f> Tree<'f> {
    /// The file that defines what `path` (absolute segments) names: the deepest file the path
    /// reaches, and where that file only imports the item (`use`, `pub use`, a glob), the file it
    /// imports it from, at most `hops` imports deep.
    fn resolve(&self, path: &[String], hops: usize) -> Option<&'f File> {
        let (len, file) = (1..=path.len())
            .rev()
            .find_map(|n| self.by_module.get(&path[..n]).map(|f| (n, *f)))
            .or_else(|| self.by_module.get(&Vec::new()).map(|f| (0, *f)))?;
        let Some(item) = path.get(len) else {
            return Some(file);
        };
        if hops == 0 || defines(file, item) {
            return Some(file);
        }
        let uses = uses(file);
        if let Some(import) = uses.iter().find(|u| !u.glob && u.name() == Some(item)) {
            let target = absolute(&file.module, &import.path, file)?;
            return self.resolve(&target, hops - 1).or(Some(file));
        }
        for glob in uses.iter().filter(|u| u.glob) {
            let Some(base) = absolute(&file.module, &glob.path, file) else {
                continue;
            };
            let target = [base, vec![item.clone()]].concat();
            if let Some(found) = self.resolve(&target, hops - 1) {
                if defines(found, item) {
                    return Some(found);
                }
            }
        }
        Some(file)
    }
}

/// Whether `file` defines an item called `name` (not only imports it).
fn defines(file: &File, name: &str) -> bool {
    const ITEMS: [&str; 10] = [
        "fn ",
        "struct ",
        "enum ",
        "const ",
        "static ",
        "type ",
        "trait ",
        "mod ",
        "union ",
        "macro_rules! ",
    ];
    file.code.lines().any(|line| {
        let line = line.trim_start();
        let line = line
            .strip_prefix("pub(crate) ")
            .or_else(|| line.strip_prefix("pub(super) "))
            .or_else(|| line.strip_prefix("pub "))
            .unwrap_or(line);
        ITEMS.iter().any(|item| {
            line.strip_prefix(item).is_some_and(|rest| {
                rest.strip_prefix(name).is_some_and(|after| {
                    !after.starts_with(|c: char| c.is_alphanumeric() || c == '_')
                })
            })
        })
    })
}

/// One path a `use` item brings in.
struct Use {
    /// As written, `self` dropped (`["super", "texts"]`, `["crate", "base", "Diagnostic"]`).
    path: Vec<String>,
    /// `pub use`, `pub(crate) use`, `pub(super) use`.
    public: bool,
    /// `use path::*`.
    glob: bool,
    /// `use path as alias`.
    alias: Option<String>,
}

impl Use {
    /// The name the item takes in the importing file.
    fn name(&self) -> Option<&String> {
        self.alias.as_ref().or(self.path.last())
    }
}

/// Every path the `use` items of a file bring in.
fn uses(file: &File) -> Vec<Use> {
    let mut out = Vec::new();
    for statement in file.code.split(';') {
        let statement = statement.trim();
        let (public, rest) = if let Some(rest) = statement.strip_prefix("pub use ") {
            (true, rest)
        } else if let Some(after) = statement.strip_prefix("pub(") {
            match after.split_once(") use ") {
                Some((_, rest)) => (true, rest),
                None => continue,
            }
        } else if let Some(rest) = statement.strip_prefix("use ") {
            (false, rest)
        } else {
            continue;
        };
        let mut paths = Vec::new();
        expand(rest, Vec::new(), &mut paths);
        for mut path in paths {
            let glob = path.last().is_some_and(|s| s == "*");
            if glob {
                path.pop();
            }
            let alias = match path.as_slice() {
                [.., name, as_, alias] if as_ == "as" && !name.is_empty() => Some(alias.clone()),
                _ => None,
            };
            if alias.is_some() {
                path.truncate(path.len() - 2);
            }
            out.push(Use {
                path,
                public,
                glob,
                alias,
            });
        }
    }
    out
}

/// The child modules a file declares (`mod x;`, `pub mod x;`).
fn children(file: &File) -> BTreeSet<String> {
    file.code
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let rest = line.strip_prefix("pub ").unwrap_or(line);
            let rest = rest
                .strip_prefix("pub(crate) ")
                .or_else(|| rest.strip_prefix("pub(super) "))
                .unwrap_or(rest);
            let name = rest.strip_prefix("mod ")?.strip_suffix(';')?;
            Some(name.trim().to_string())
        })
        .collect()
}

/// `path` as written in `file` (whose module is `module`) made absolute: `crate::` is the root,
/// each `super::` one module up, a child module's name below `module`.
fn absolute(module: &[String], path: &[String], file: &File) -> Option<Vec<String>> {
    let first = path.first()?;
    if first == "crate" {
        return Some(path[1..].to_vec());
    }
    if first == "super" {
        let ups = path.iter().take_while(|s| *s == "super").count();
        let base = module.get(..module.len().checked_sub(ups)?)?;
        return Some([base, &path[ups..]].concat());
    }
    if children(file).contains(first) {
        return Some([module, path].concat());
    }
    None
}

/// `code` without its `use` items: where a name imported is used.
fn without_uses(code: &str) -> String {
    code.split_inclusive(';')
        .filter(|statement| {
            let s = statement.trim_start();
            let s = s
                .strip_prefix("pub(crate) ")
                .or_else(|| s.strip_prefix("pub(super) "))
                .or_else(|| s.strip_prefix("pub "))
                .unwrap_or(s);
            !s.starts_with("use ") && !s.starts_with("mod ")
        })
        .collect()
}

fn contains_word(code: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(word).any(|(at, _)| {
        !code[..at].chars().next_back().is_some_and(ident)
            && !code[at + word.len()..].chars().next().is_some_and(ident)
    })
}

/// The files each file depends on, by index: the files that define what it names, through the
/// paths its code writes and the items it imports and uses. A `pub use` whose name the file does
/// not use itself is its module's facade, no dependency of its own.
fn dependencies<'f>(files: &'f [File], tree: &Tree<'f>) -> Vec<BTreeSet<usize>> {
    let index: BTreeMap<*const File, usize> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f as *const File, i))
        .collect();
    files
        .iter()
        .map(|file| {
            let body = without_uses(&file.code);
            let mut written: Vec<Vec<String>> = Vec::new();
            for prefix in ["crate::", "super::"] {
                let head = prefix.trim_end_matches("::").to_string();
                written.extend(
                    paths_after(&body, prefix)
                        .into_iter()
                        .map(|p| [vec![head.clone()], p].concat()),
                );
            }
            for import in uses(file) {
                let used = import.glob || import.name().is_some_and(|n| contains_word(&body, n));
                if !import.public || used {
                    written.push(import.path);
                }
            }
            let mut deps = BTreeSet::new();
            for path in written {
                let Some(absolute) = absolute(&file.module, &path, file) else {
                    continue;
                };
                if let Some(target) = tree.resolve(&absolute, 8) {
                    let target = index[&(target as *const File)];
                    if files[target].module != file.module {
                        deps.insert(target);
                    }
                }
            }
            deps
        })
        .collect()
}

/// The strongly connected groups of more than one file (Tarjan).
fn cycles(deps: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    struct State<'d> {
        deps: &'d [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        next: usize,
        found: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in s.deps[v].iter() {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut group = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                group.push(w);
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.found.push(group);
            }
        }
    }
    let n = deps.len();
    let mut s = State {
        deps,
        index: vec![None; n],
        low: vec![0; n],
        stack: Vec::new(),
        on_stack: vec![false; n],
        next: 0,
        found: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.found
}

/// Each production function over `max` lines, as `file:line: fn name (N lines)`: from a line that
/// opens a `fn` to the first line after it that is a `}` at the same indentation (the layout
/// `cargo fmt` gives).
fn long_functions(file: &File, max: usize) -> Vec<String> {
    let lines: Vec<&str> = file.source.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        let signature = trimmed
            .trim_start_matches("pub ")
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub(super) ")
            .trim_start_matches("const ")
            .trim_start_matches("async ")
            .trim_start_matches("unsafe ");
        let Some(rest) = signature.strip_prefix("fn ") else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // A declaration without a body (in a trait) ends its signature with `;`.
        let signature_end = lines[i..]
            .iter()
            .map(|l| l.trim_end())
            .find(|l| l.ends_with('{') || l.ends_with(';'));
        if signature_end.is_none_or(|l| l.ends_with(';')) {
            continue;
        }
        let closing = format!("{indent}}}");
        let Some(end) = lines[i..].iter().position(|l| *l == closing) else {
            continue;
        };
        if end + 1 > max {
            found.push(format!(
                "{}:{}: fn {name} ({} lines)",
                file.shown,
                i + 1,
                end + 1
            ));
        }
    }
    found
}

/// The core's files that touch the disk, and why; a folder (`store/`) names every file in it.
const DISK_FILES: &[(&str, &str)] = &[
    (
        "base/files.rs",
        "reads one file within the size limit, regular files only",
    ),
    (
        "config/discover.rs",
        "finds agentws.toml and the build file that pins the release",
    ),
    (
        "config/load/config_system_prompt_file_unreadable.rs",
        "reads `system_prompt_file`",
    ),
    ("workspace/discover.rs", "walks the workspace trees"),
    (
        "paths/normalize.rs",
        "follows symbolic links, one `lstat` per component, unless lexical",
    ),
    ("check/fix.rs", "reads the file a fix edits"),
    (
        "check/rewrite.rs",
        "writes a fixed file, atomically, only on an explicit `--fix`",
    ),
    (
        "store/",
        "reads a remote store (SQLite files, servers), read only",
    ),
];

/// What touches the disk, reads the process environment, or prints.
const DISK: &[&str] = &[
    "std::fs",
    "fs::",
    "FileContent::read(",
    "File::open",
    "OpenOptions",
    "symlink_metadata",
    "read_dir",
    "canonicalize",
    "read_link",
];
const ENVIRONMENT: &[&str] = &["std::env::", "env::var"];
const PRINTING: &[&str] = &["println!", "eprintln!", "print!(", "eprint!(", "dbg!("];

/// Each use of `words` in the core's production code outside `allowed`, as `file:line: word`.
fn core_uses(files: &[File], words: &[&str], allowed: &[(&str, &str)]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files {
        let relative = file.shown.trim_start_matches("server/src/");
        let front_end = ["cli", "lsp"].contains(&file.module.first().map_or("", String::as_str));
        if front_end || allowed.iter().any(|(path, _)| relative.starts_with(path)) {
            continue;
        }
        for (n, line) in file.code.lines().enumerate() {
            if let Some(word) = words.iter().find(|w| line.contains(*w)) {
                found.push(format!("{}:{}: {word}", file.shown, n + 1));
            }
        }
    }
    found
}

#[test]
fn the_core_touches_the_disk_only_where_named_and_never_prints_or_reads_the_environment() {
    let files = crate_files();
    let mut found = core_uses(&files, DISK, DISK_FILES);
    found.extend(core_uses(&files, ENVIRONMENT, &[]));
    found.extend(core_uses(&files, PRINTING, &[]));
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn no_two_files_import_each_other() {
    let files = crate_files();
    let tree = Tree {
        by_module: files.iter().map(|f| (f.module.clone(), f)).collect(),
    };
    let deps = dependencies(&files, &tree);
    let found: Vec<String> = cycles(&deps)
        .into_iter()
        .map(|group| {
            let names: Vec<&str> = group.iter().map(|&i| files[i].shown.as_str()).collect();
            names.join(" ⇄ ")
        })
        .collect();
    assert!(
        found.is_empty(),
        "files that import each other:\n{}",
        found.join("\n")
    );
}

#[test]
fn no_file_and_no_function_is_over_its_size() {
    let files = crate_files();
    let mut found: Vec<String> = files
        .iter()
        .filter(|f| f.lines > MAX_FILE_LINES)
        .map(|f| {
            format!(
                "{}: {} lines of production code (at most {MAX_FILE_LINES})",
                f.shown, f.lines
            )
        })
        .collect();
    for file in &files {
        found.extend(long_functions(file, MAX_FUNCTION_LINES));
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn paths_are_expanded_resolved_and_cycles_found() {
    let mut out = Vec::new();
    expand("a::{b, c::{d, self}}::e", Vec::new(), &mut out);
    expand("x::{y::Z, w}", Vec::new(), &mut out);
    assert_eq!(
        out,
        vec![
            vec!["a", "b"],
            vec!["a", "c", "d"],
            vec!["a", "c"],
            vec!["x", "y", "Z"],
            vec!["x", "w"],
        ]
    );
    let file = |module: &[&str], source: &str| File {
        shown: module.join("/"),
        module: module.iter().map(|s| s.to_string()).collect(),
        code: code_only(source),
        source: source.to_string(),
        lines: source.lines().count(),
    };
    let files = [
        file(&["m"], "mod a;\nmod b;\npub use a::Thing;\n"),
        file(
            &["m", "a"],
            "pub struct Thing;\nfn f() { super::b::g(); }\n",
        ),
        file(
            &["m", "b"],
            "pub fn g() {}\nuse crate::m::Thing; // through the facade\n",
        ),
        file(
            &["n"],
            "// crate::m::b::g in a comment\nfn h() { crate::m::a::Thing; }\n",
        ),
    ];
    let tree = Tree {
        by_module: files.iter().map(|f| (f.module.clone(), f)).collect(),
    };
    let deps = dependencies(&files, &tree);
    // The facade's re-export is no dependency of `m`; `m::Thing` resolves to `m/a`.
    assert_eq!(deps[0], BTreeSet::new());
    assert_eq!(deps[1], BTreeSet::from([2]));
    assert_eq!(deps[2], BTreeSet::from([1]));
    assert_eq!(deps[3], BTreeSet::from([1]));
    assert_eq!(cycles(&deps), vec![vec![1, 2]]);
    let long = file(
        &["l"],
        &format!(
            "fn short() {{\n}}\n\nfn long() {{\n{}}}\n",
            "    x();\n".repeat(4)
        ),
    );
    assert_eq!(long_functions(&long, 5), vec!["l:4: fn long (6 lines)"]);
    // Test items become empty lines (positions kept) and are not counted.
    let text = "fn a() {}\n#[cfg(test)]\nfn helper() {\n    x();\n}\n#[cfg(test)]\n#[path = \"t.rs\"]\nmod tests;\nfn b() {}";
    assert_eq!(
        production_part(text),
        ("fn a() {}\n\n\n\n\n\n\n\nfn b() {}".to_string(), 2)
    );
    assert_eq!(
        declared_test_files(Path::new("/s/m/mod.rs"), text),
        vec![
            PathBuf::from("/s/m/t.rs"),
            PathBuf::from("/s/m/tests/mod.rs")
        ]
    );
}
