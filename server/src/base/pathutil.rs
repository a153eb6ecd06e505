//! Lexical path helpers, without touching the disk (symlinks are not resolved): Java
//! `Path.normalize()` semantics (`.` removed, `name/..` folded), and the standard library's
//! component-wise answers taken from the bytes where a path is written plainly, as every path the
//! walk builds is (the component-wise ones are asked of each file several times per check).

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

/// `path.strip_prefix(dir).ok()`, the same answer. A plainly written folder (see [`is_plain`])
/// has one component per `/`-separated segment, so a path whose text is the folder's, a
/// separator and a plainly written rest is below it, by that rest; any other pair (a path not
/// below it, or written otherwise) takes the component-wise way.
pub fn strip_dir<'a>(path: &'a Path, dir: &Path) -> Option<&'a Path> {
    let plainly_below = || {
        let (path_text, dir_text) = (path.to_str()?, dir.to_str()?);
        if !(cfg!(unix) && is_plain(dir_text.as_bytes())) {
            return None;
        }
        let rest = path_text.strip_prefix(dir_text)?;
        let rest = match rest.strip_prefix('/') {
            _ if rest.is_empty() || dir_text == "/" => rest,
            Some(below) => below,
            None => return None,
        };
        let plain_rest = rest.is_empty() || (!rest.starts_with('/') && is_plain(rest.as_bytes()));
        plain_rest.then(|| Path::new(rest))
    };
    plainly_below().or_else(|| path.strip_prefix(dir).ok())
}

/// `rel`'s components joined by `/` (each lossily as UTF-8): a file's place below its tree, as the
/// layout names it. A plainly written relative UTF-8 path is that text already (an absolute
/// one's root is a component of its own, joined as `//…`).
pub fn slash_string(rel: &Path) -> String {
    match rel.to_str() {
        Some(text) if cfg!(unix) && !text.starts_with('/') && is_plain(text.as_bytes()) => {
            text.to_owned()
        }
        _ => {
            let mut out = String::with_capacity(rel.as_os_str().len());
            for (index, component) in rel.components().enumerate() {
                if index > 0 {
                    out.push('/');
                }
                out.push_str(&component.as_os_str().to_string_lossy());
            }
            out
        }
    }
}

/// [`is_plain`] of a path's text, where paths are `/`-separated: two paths written plainly are
/// the same path exactly when their texts are equal.
pub fn is_plain_path(path: &Path) -> bool {
    cfg!(unix) && is_plain(path.as_os_str().as_encoded_bytes())
}

/// A path written plainly: not empty, no empty segment but the root's (no `//`, no trailing `/`),
/// no `.` segment. Its components are its segments, one for one.
fn is_plain(bytes: &[u8]) -> bool {
    let segments = match bytes {
        [] => return false,
        [b'/'] => return true,
        [b'/', rest @ ..] => rest,
        _ => bytes,
    };
    segments
        .split(|&b| b == b'/')
        .all(|segment| !segment.is_empty() && segment != b".")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Paths of a few segments, written plainly or not (`//`, `.`, `..`, a trailing `/`).
    fn any_path() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let segment = prop_oneof![
            Just("a".to_string()),
            Just("ab".to_string()),
            Just("b".to_string()),
            Just(".".to_string()),
            Just("..".to_string()),
            Just(String::new()),
            Just("é".to_string()),
        ];
        (any::<bool>(), prop::collection::vec(segment, 0..5)).prop_map(|(absolute, segments)| {
            let joined = segments.join("/");
            if absolute {
                format!("/{joined}")
            } else {
                joined
            }
        })
    }

    proptest::proptest! {
        #[test]
        fn strip_dir_answers_as_strip_prefix(path in any_path(), dir in any_path()) {
            let (path, dir) = (Path::new(&path), Path::new(&dir));
            // As text: `Path`'s own equality would take `a//b` for `a/b`.
            proptest::prop_assert_eq!(
                strip_dir(path, dir).map(Path::as_os_str),
                path.strip_prefix(dir).ok().map(Path::as_os_str)
            );
        }

        #[test]
        fn slash_string_joins_the_components(path in any_path()) {
            let path = Path::new(&path);
            let joined = path
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            proptest::prop_assert_eq!(slash_string(path), joined);
        }
    }

    #[test]
    fn a_path_below_a_folder_is_stripped_from_its_text() {
        let path = Path::new("/p/.agentscope/workspace/skills/x/SKILL.md");
        assert_eq!(
            strip_dir(path, Path::new("/p/.agentscope/workspace")),
            Some(Path::new("skills/x/SKILL.md"))
        );
        assert_eq!(strip_dir(path, Path::new("/p/.agentscope/work")), None);
        assert_eq!(
            strip_dir(path, Path::new("/")),
            Some(Path::new("p/.agentscope/workspace/skills/x/SKILL.md"))
        );
        assert_eq!(strip_dir(path, path), Some(Path::new("")));
    }

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
