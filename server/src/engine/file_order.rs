//! Holds the engine's file order: each file imports only from the files listed before it in the
//! module comment of `mod.rs` (so no two files import each other), through a path to the file
//! (`super::skills::…`, `crate::engine::skills::…`) or through a name `mod.rs` re-exports from it.
//! Reads the source files; the tests of a file (its own folder) are not held to the order.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The files the module comment lists (`//! - \`name.rs\`: …`), in its order.
fn listed_files(mod_rs: &str) -> Vec<String> {
    mod_rs
        .lines()
        .filter_map(|line| line.strip_prefix("//! - `")?.split_once(".rs`"))
        .map(|(name, _)| name.to_string())
        .collect()
}

/// The names `mod.rs` re-exports (`pub use file::{A, B};`), with the file each comes from.
fn reexported(mod_rs: &str) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for line in mod_rs.lines() {
        let Some(rest) = line.strip_prefix("pub use ") else {
            continue;
        };
        let Some((file, list)) = rest.trim_end_matches(';').split_once("::") else {
            continue;
        };
        for name in list.trim_matches(|c| c == '{' || c == '}').split(',') {
            names.insert(name.trim().to_string(), file.to_string());
        }
    }
    names
}

/// The engine's files `text` imports from: the identifiers after `super::` and
/// `crate::engine::` (each one of a braced list), outside comments, that name a file or a name
/// re-exported from one.
fn imported_files(
    text: &str,
    files: &[String],
    names: &BTreeMap<String, String>,
) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let paths = ["super::", "crate::engine::"].into_iter();
        let starts =
            paths.flat_map(|path| code.match_indices(path).map(move |(at, _)| at + path.len()));
        for at in starts {
            let rest = &code[at..];
            let idents: Vec<&str> = match rest.strip_prefix('{') {
                Some(list) => list.split('}').next().unwrap_or("").split(',').collect(),
                None => vec![rest],
            };
            for ident in idents {
                let ident: String = ident
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if files.contains(&ident) {
                    found.insert(ident);
                } else if let Some(file) = names.get(&ident) {
                    found.insert(file.clone());
                }
            }
        }
    }
    found
}

#[test]
fn each_file_imports_only_the_files_listed_before_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine");
    let mod_rs = std::fs::read_to_string(dir.join("mod.rs")).unwrap();
    let order = listed_files(&mod_rs);
    let names = reexported(&mod_rs);
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|name| name != "mod" && name != "file_order")
        .collect();
    on_disk.sort();
    let mut listed = order.clone();
    listed.sort();
    assert_eq!(
        listed, on_disk,
        "mod.rs lists every file of the engine, once"
    );
    for (at, file) in order.iter().enumerate() {
        let text = std::fs::read_to_string(dir.join(format!("{file}.rs"))).unwrap();
        for imported in imported_files(&text, &order, &names) {
            let from = order.iter().position(|f| *f == imported).unwrap();
            assert!(
                from < at || imported == *file,
                "{file}.rs imports from {imported}.rs, listed after it in mod.rs"
            );
        }
    }
}

#[test]
fn an_import_is_found_by_path_by_braced_list_and_by_reexported_name() {
    let files: Vec<String> = ["inputs", "skills", "analysis"].map(String::from).to_vec();
    let names = BTreeMap::from([("Analysis".to_string(), "analysis".to_string())]);
    let text = "use super::skills::{a, b};\nuse super::{inputs, Analysis};\n// super::nothing\n";
    let found = imported_files(text, &files, &names);
    assert_eq!(
        found,
        BTreeSet::from(["analysis", "inputs", "skills"].map(String::from))
    );
    let text = "fn f() { crate::engine::skills::x(); } // super::analysis";
    assert_eq!(
        imported_files(text, &files, &names),
        BTreeSet::from(["skills".to_string()])
    );
}
