//! Lexical path helpers with Java `Path.normalize()` semantics: `.` removed, `name/..` folded,
//! without touching the disk (symlinks are not resolved).

use std::path::{Component, Path, PathBuf};

/// `Path.normalize()`: removes `.` segments and folds `name/..`; a `..` at the root is dropped,
/// a leading `..` of a relative path is kept.
pub fn normalize_lexically(path: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir) | Some(Component::Prefix(_)) => {}
                _ => out.push(component),
            },
            other => out.push(other),
        }
    }
    out.iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_like_java() {
        assert_eq!(
            normalize_lexically(Path::new("/a/./b/../c")),
            PathBuf::from("/a/c")
        );
        assert_eq!(normalize_lexically(Path::new("/../x")), PathBuf::from("/x"));
        assert_eq!(
            normalize_lexically(Path::new("../x/./y")),
            PathBuf::from("../x/y")
        );
    }
}
