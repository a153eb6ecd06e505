//! The file set: every file the analysis may look at, keyed by absolute path, with its text (or
//! why there is none) and the editor version when it comes from an unsaved buffer.
//!
//! The core never touches the disk itself: the CLI fills a file set from disk, the language server
//! from disk plus open buffers. Reading is bounded (`MAX_TEXT_BYTES`) so a huge or binary file
//! becomes a diagnostic instead of an allocation.

use std::collections::BTreeMap;
use std::io::Read;
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Files larger than this are not read; a diagnostic says so. The runtime itself has no limit, but
/// no hand-written workspace file comes near this.
pub const MAX_TEXT_BYTES: u64 = 16 * 1024 * 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileContent {
    /// Valid UTF-8 text.
    Text(Arc<str>),
    /// Known to exist, contents not needed (e.g. a knowledge file that is only listed).
    NotLoaded,
    /// Not valid UTF-8; `valid_up_to` is the byte offset of the first bad sequence. `binary` is set
    /// when the bytes look like a binary file (a NUL byte in the first 8 KiB).
    NotUtf8 { valid_up_to: usize, binary: bool },
    /// Larger than [`MAX_TEXT_BYTES`].
    TooLarge { size: u64 },
    /// The OS refused to read it.
    Unreadable { error: String },
}

impl FileContent {
    pub fn text(&self) -> Option<&str> {
        match self {
            FileContent::Text(text) => Some(text),
            _ => None,
        }
    }

    /// Reads one file from disk within the size limit.
    pub fn read(path: &Path) -> FileContent {
        match std::fs::File::open(path) {
            Ok(file) => {
                let size = file.metadata().map(|m| m.len()).unwrap_or(0);
                Self::read_open(file, size)
            }
            Err(err) => FileContent::Unreadable {
                error: err.to_string(),
            },
        }
    }

    /// Like [`FileContent::read`], but `None` when there is no file at `path` (missing, or a
    /// folder): one open instead of a stat and an open.
    pub fn read_existing(path: &Path) -> Option<FileContent> {
        match std::fs::File::open(path) {
            Ok(file) => {
                let meta = file.metadata().ok();
                if meta.as_ref().is_some_and(|m| m.is_dir()) {
                    return None;
                }
                Some(Self::read_open(file, meta.map_or(0, |m| m.len())))
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
            Err(err) => Some(FileContent::Unreadable {
                error: err.to_string(),
            }),
        }
    }

    fn read_open(file: std::fs::File, size: u64) -> FileContent {
        if size > MAX_TEXT_BYTES {
            return FileContent::TooLarge { size };
        }
        let mut bytes = Vec::with_capacity(size as usize);
        // `take` keeps a file that grows while we read it inside the limit too.
        if let Err(err) = file.take(MAX_TEXT_BYTES + 1).read_to_end(&mut bytes) {
            return FileContent::Unreadable {
                error: err.to_string(),
            };
        }
        if bytes.len() as u64 > MAX_TEXT_BYTES {
            return FileContent::TooLarge {
                size: bytes.len() as u64,
            };
        }
        FileContent::from_bytes(bytes)
    }

    /// An editor buffer's text, held to the same limit as a file read from disk: a buffer over
    /// [`MAX_TEXT_BYTES`] gets the same diagnostic as the file would, and is not analysed.
    pub fn from_buffer(text: Arc<str>) -> FileContent {
        if text.len() as u64 > MAX_TEXT_BYTES {
            FileContent::TooLarge {
                size: text.len() as u64,
            }
        } else {
            FileContent::Text(text)
        }
    }

    pub fn from_bytes(bytes: Vec<u8>) -> FileContent {
        match String::from_utf8(bytes) {
            Ok(text) => FileContent::Text(Arc::from(text)),
            Err(err) => {
                let bytes = err.as_bytes();
                let binary = bytes[..bytes.len().min(8192)].contains(&0);
                FileContent::NotUtf8 {
                    valid_up_to: err.utf8_error().valid_up_to(),
                    binary,
                }
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileEntry {
    pub content: FileContent,
    /// Editor version of an open buffer; `None` for a file read from disk.
    pub version: Option<i32>,
}

/// Absolute path → file. Paths are compared component-wise (`BTreeMap<PathBuf, _>` order), so the
/// files below a folder form one contiguous range.
#[derive(Clone, Debug, Default)]
pub struct FileSet {
    entries: BTreeMap<PathBuf, FileEntry>,
    /// Folders known to exist (some runtime decisions depend on a folder existing, even empty).
    dirs: BTreeMap<PathBuf, ()>,
}

impl FileSet {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn insert(&mut self, path: PathBuf, content: FileContent, version: Option<i32>) {
        let mut parent = path.parent();
        while let Some(dir) = parent {
            if self.dirs.contains_key(dir) {
                break;
            }
            self.dirs.insert(dir.to_path_buf(), ());
            parent = dir.parent();
        }
        self.entries.insert(path, FileEntry { content, version });
    }

    pub fn insert_text(&mut self, path: PathBuf, text: &str) {
        self.insert(path, FileContent::Text(Arc::from(text)), None);
    }

    /// Records that a folder exists (and so do its ancestors).
    pub fn insert_dir(&mut self, dir: PathBuf) {
        let mut current = Some(dir.as_path());
        while let Some(d) = current {
            if self.dirs.contains_key(d) {
                break;
            }
            self.dirs.insert(d.to_path_buf(), ());
            current = d.parent();
        }
    }

    pub fn remove(&mut self, path: &Path) -> Option<FileEntry> {
        self.entries.remove(path)
    }

    pub fn get(&self, path: &Path) -> Option<&FileEntry> {
        self.entries.get(path)
    }

    pub fn text(&self, path: &Path) -> Option<&str> {
        self.entries.get(path).and_then(|e| e.content.text())
    }

    pub fn contains_file(&self, path: &Path) -> bool {
        self.entries.contains_key(path)
    }

    pub fn contains_dir(&self, path: &Path) -> bool {
        self.dirs.contains_key(path)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&PathBuf, &FileEntry)> {
        self.entries.iter()
    }

    /// Every file at any depth below `dir`, in path order.
    pub fn files_under<'a>(
        &'a self,
        dir: &'a Path,
    ) -> impl Iterator<Item = (&'a PathBuf, &'a FileEntry)> + 'a {
        self.entries
            .range::<Path, _>((Bound::Excluded(dir), Bound::Unbounded))
            .take_while(move |(p, _)| p.starts_with(dir))
    }

    /// Folders at any depth below `dir`, in path order.
    pub fn dirs_under<'a>(&'a self, dir: &'a Path) -> impl Iterator<Item = &'a PathBuf> + 'a {
        self.dirs
            .range::<Path, _>((Bound::Excluded(dir), Bound::Unbounded))
            .map(|(p, _)| p)
            .take_while(move |p| p.starts_with(dir))
    }

    /// Direct children of `dir` that are folders, in name order.
    pub fn child_dirs<'a>(&'a self, dir: &'a Path) -> impl Iterator<Item = &'a PathBuf> + 'a {
        self.dirs_under(dir)
            .filter(move |p| p.parent() == Some(dir))
    }

    /// Direct children of `dir` that are files, in name order.
    pub fn child_files<'a>(
        &'a self,
        dir: &'a Path,
    ) -> impl Iterator<Item = (&'a PathBuf, &'a FileEntry)> + 'a {
        self.files_under(dir)
            .filter(move |(p, _)| p.parent() == Some(dir))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_below_a_folder() {
        let mut set = FileSet::new();
        set.insert_text(PathBuf::from("/w/skills/a/SKILL.md"), "x");
        set.insert_text(PathBuf::from("/w/skills/b/SKILL.md"), "y");
        set.insert_text(PathBuf::from("/w/skills-other/SKILL.md"), "z");
        set.insert_text(PathBuf::from("/w/tools.json"), "{}");
        let under: Vec<_> = set
            .files_under(Path::new("/w/skills"))
            .map(|(p, _)| p.clone())
            .collect();
        assert_eq!(
            under,
            vec![
                PathBuf::from("/w/skills/a/SKILL.md"),
                PathBuf::from("/w/skills/b/SKILL.md")
            ]
        );
        let dirs: Vec<_> = set.child_dirs(Path::new("/w")).cloned().collect();
        assert_eq!(
            dirs,
            vec![PathBuf::from("/w/skills"), PathBuf::from("/w/skills-other")]
        );
    }

    #[test]
    fn invalid_utf8_is_reported_with_its_offset() {
        let content = FileContent::from_bytes(b"ok\xff".to_vec());
        assert_eq!(
            content,
            FileContent::NotUtf8 {
                valid_up_to: 2,
                binary: false
            }
        );
    }
}
