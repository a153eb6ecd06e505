//! The file set: every file the analysis may look at, keyed by absolute path, with its text (or
//! why there is none) and the editor version when it comes from an unsaved buffer.
//!
//! The core never touches the disk itself: the CLI fills a file set from disk, the language server
//! from disk plus open buffers. Reading is bounded (`MAX_TEXT_BYTES`) so a huge or binary file
//! becomes a diagnostic instead of an allocation, and only regular files are opened, so a named
//! pipe, socket or device where a workspace file is expected becomes a diagnostic instead of a
//! read that blocks forever.

use std::collections::BTreeMap;
use std::io::Read;
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::base::pathutil::is_plain_path;

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
    /// Not a regular file (a named pipe, socket or device): never opened for reading, since a
    /// read could block forever or never end. `kind` says what it is ("a named pipe (FIFO)").
    NotRegular { kind: &'static str },
}

impl FileContent {
    pub fn text(&self) -> Option<&str> {
        match self {
            FileContent::Text(text) => Some(text),
            _ => None,
        }
    }

    /// Reads one file from disk within the size limit. Only regular files are opened (see
    /// [`open_regular`]); a missing path or a folder is `Unreadable`.
    pub fn read(path: &Path) -> FileContent {
        Self::read_opened(open_regular(path))
    }

    /// [`FileContent::read`] of a path a folder listing has just reported as a regular file:
    /// opened without looking at its type first, since the listing did (the handle's type is
    /// still checked, so a path replaced since by a pipe or a folder is not read). A walk reads
    /// tens of thousands of files, and the look before opening was a system call for each.
    pub fn read_listed_regular(path: &Path) -> FileContent {
        Self::read_opened(open_checked(path))
    }

    /// The content of what was found at a path: read when it is a regular file, else why not.
    fn read_opened(opened: Opened) -> FileContent {
        match opened {
            Opened::File(file, size) => Self::read_open(file, size),
            Opened::NotRegular(kind) => FileContent::NotRegular { kind },
            Opened::Missing(err) | Opened::Failed(err) => FileContent::Unreadable {
                error: err.to_string(),
            },
            Opened::Dir => FileContent::Unreadable {
                error: "is a directory".into(),
            },
        }
    }

    /// Like [`FileContent::read`], but `None` when there is no file at `path` (missing, or a
    /// folder).
    pub fn read_existing(path: &Path) -> Option<FileContent> {
        match open_regular(path) {
            Opened::File(file, size) => Some(Self::read_open(file, size)),
            Opened::NotRegular(kind) => Some(FileContent::NotRegular { kind }),
            Opened::Missing(_) | Opened::Dir => None,
            Opened::Failed(err) => Some(FileContent::Unreadable {
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

/// What [`open_regular`] found at a path.
enum Opened {
    /// A regular file, open for reading, and its size.
    File(std::fs::File, u64),
    /// Something that is neither a regular file nor a folder; not opened.
    NotRegular(&'static str),
    Dir,
    Missing(std::io::Error),
    Failed(std::io::Error),
}

/// Opens `path` for reading only if it is a regular file (after following symbolic links).
///
/// The type is checked before opening, because opening a named pipe for reading blocks until a
/// writer appears. The open itself is non-blocking on Unix (`O_NONBLOCK`, which changes nothing
/// for a regular file), and the opened handle is checked again, so a path swapped for a pipe
/// between the two steps cannot block either.
fn open_regular(path: &Path) -> Opened {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Opened::Missing(err),
        Err(err) => return Opened::Failed(err),
    };
    if meta.is_dir() {
        return Opened::Dir;
    }
    if !meta.is_file() {
        return Opened::NotRegular(kind_of(&meta.file_type()));
    }
    open_checked(path)
}

/// Opens `path` for reading, non-blocking on Unix, and says what the opened handle is: the
/// second step of [`open_regular`], on its own for a path known to be a regular file.
fn open_checked(path: &Path) -> Opened {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = match options.open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Opened::Missing(err),
        Err(err) => return Opened::Failed(err),
    };
    match file.metadata() {
        Ok(meta) if meta.is_file() => Opened::File(file, meta.len()),
        Ok(meta) if meta.is_dir() => Opened::Dir,
        Ok(meta) => Opened::NotRegular(kind_of(&meta.file_type())),
        Err(err) => Opened::Failed(err),
    }
}

/// A reader-facing name for a file type that is not a regular file or a folder.
fn kind_of(file_type: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
    }
    let _ = file_type;
    "not a regular file"
}

/// A key whose byte order is `Path`'s order for paths without `.` components, repeated or
/// trailing separators (as a walk gives them): the path's bytes with each separator made the
/// lowest byte. On other paths it is only close to that order, which is enough where the path
/// order is established afterwards anyway (`FileSet::from_lists`).
fn clean_path_key(path: &Path) -> Vec<u8> {
    let bytes = path.as_os_str().as_encoded_bytes();
    // A NUL cannot be in a path, so it sorts a separator before every byte a name can hold.
    bytes
        .iter()
        .map(|&b| if b == b'/' { 0 } else { b })
        .collect()
}

/// `files` in path order, of two entries for one path the later only (as `FileSet::insert`
/// keeps it).
fn files_in_order(mut files: Vec<(PathBuf, FileContent)>) -> Vec<(PathBuf, FileContent)> {
    if files.iter().all(|(path, _)| is_plain_path(path)) {
        // Keys compared as plain bytes: comparing the paths themselves parsed their components.
        files.sort_by_cached_key(|(path, _)| clean_path_key(path));
    } else {
        // Two texts of one path (`a/./b`, `a/b`) are not neighbours in the keys' order.
        files.sort_by(|a, b| a.0.cmp(&b.0));
    }
    // The sort is stable, so the later of two entries is the last of each run.
    files.dedup_by(|later, earlier| {
        let same = later.0 == earlier.0;
        if same {
            std::mem::swap(later, earlier);
        }
        same
    });
    files
}

/// `dirs` and every folder above each of them, once each, in path order.
fn dirs_in_order(mut dirs: Vec<PathBuf>) -> Vec<PathBuf> {
    dirs.sort_by_cached_key(|dir| clean_path_key(dir));
    // Folders written plainly (as a walk writes them) are compared and hashed by their texts,
    // which is what hashing each folder component by component took most of this time for.
    let mut above = if dirs.iter().all(|dir| is_plain_path(dir)) {
        dirs.dedup_by(|a, b| a.as_os_str() == b.as_os_str());
        ancestors_not_in(&dirs, |dir| dir.as_os_str().as_encoded_bytes())
    } else {
        dirs.dedup();
        ancestors_not_in(&dirs, |dir| dir)
    };
    if !above.is_empty() {
        above.sort_by_cached_key(|dir| clean_path_key(dir));
        above.dedup();
        dirs.extend(above);
        dirs.sort_by_cached_key(|dir| clean_path_key(dir));
    }
    dirs
}

/// The folders above each of `dirs` that `dirs` does not hold, each the same folder as another
/// exactly when their `key`s are equal.
fn ancestors_not_in<'a, K: std::hash::Hash + Eq>(
    dirs: &'a [PathBuf],
    key: impl Fn(&'a Path) -> K,
) -> Vec<PathBuf> {
    let known: foldhash::HashSet<K> = dirs.iter().map(|dir| key(dir)).collect();
    let above = dirs.iter().flat_map(|dir| {
        dir.ancestors()
            .skip(1)
            .take_while(|d| !known.contains(&key(d)))
    });
    above.map(Path::to_path_buf).collect()
}

/// `dirs` with the folders of `files` that `dirs` does not name (by their texts: a folder named
/// otherwise too is found the same by the ordering after).
fn with_file_folders(mut dirs: Vec<PathBuf>, files: &[(PathBuf, FileContent)]) -> Vec<PathBuf> {
    fn text(dir: &Path) -> &[u8] {
        dir.as_os_str().as_encoded_bytes()
    }
    let named: foldhash::HashSet<&[u8]> = dirs.iter().map(|dir| text(dir)).collect();
    let folders = files.iter().filter_map(|(path, _)| path.parent());
    let unnamed: Vec<PathBuf> = folders
        .filter(|dir| !named.contains(text(dir)))
        .map(Path::to_path_buf)
        .collect();
    dirs.extend(unnamed);
    dirs
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileEntry {
    pub content: FileContent,
    /// Editor version of an open buffer; `None` for a file read from disk.
    pub version: Option<i32>,
}

/// Absolute path → file. Paths are compared component-wise (`BTreeMap<PathBuf, _>` order), so the
/// files below a folder form one contiguous range.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileSet {
    entries: BTreeMap<PathBuf, FileEntry>,
    /// Folders known to exist (some runtime decisions depend on a folder existing, even empty).
    dirs: BTreeMap<PathBuf, ()>,
    /// Symbolic links met on the way to the files (link path → the real path it resolves to), so
    /// two paths to one file can be recognised without touching the disk again.
    links: BTreeMap<PathBuf, PathBuf>,
    /// Files that come from a remote store, not the disk: path → what to print as their location
    /// (`store:` + namespace + key, the store URL redacted). Every output names them by it.
    origins: BTreeMap<PathBuf, Arc<str>>,
    /// Folders whose routed files (AGENTS.md, skills/, …) are the store's, not the disk's: the
    /// runtime's remote overlay reads the store there, and the disk under them was replaced.
    stored_dirs: std::collections::BTreeSet<PathBuf>,
    /// Store files the runtime reads by their exact path but never lists (a Redis item hash
    /// without its index member): they are used where a path names them, absent from listings.
    unlisted: std::collections::BTreeSet<PathBuf>,
}

impl FileSet {
    pub fn new() -> Self {
        Self::default()
    }

    /// A file set of `files` read from disk (a path given twice keeps its last content) and of
    /// the folders `dirs`, with every folder above each of them: what inserting them one by one
    /// gives. Each list is put in order once and its map built from it; inserting path by path
    /// looked up each path and its folder in the maps, comparing paths component by component,
    /// which is most of the time a walk of tens of thousands of files spends after reading them.
    /// The two maps are built side by side (rayon), since neither reads the other.
    pub fn from_lists(files: Vec<(PathBuf, FileContent)>, dirs: Vec<PathBuf>) -> FileSet {
        let dirs = with_file_folders(dirs, &files);
        // Collecting a list in path order (`from_iter` checks that order, one comparison per
        // path) builds each tree in one pass.
        let (entries, dirs) = rayon::join(
            || {
                let files = files_in_order(files).into_iter();
                let entry = |content| FileEntry {
                    content,
                    version: None,
                };
                files
                    .map(|(path, content)| (path, entry(content)))
                    .collect()
            },
            || {
                dirs_in_order(dirs)
                    .into_iter()
                    .map(|dir| (dir, ()))
                    .collect()
            },
        );
        FileSet {
            entries,
            dirs,
            ..FileSet::default()
        }
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

    /// Records that `link` is a symbolic link (or lies below one) resolving to `real`.
    pub fn insert_link(&mut self, link: PathBuf, real: PathBuf) {
        self.links.insert(link, real);
    }

    /// `path` with its deepest recorded link replaced by the real path it resolves to; `path`
    /// itself when no recorded link is on its way.
    pub fn real_path(&self, path: &Path) -> PathBuf {
        for ancestor in path.ancestors() {
            if let Some(real) = self.links.get(ancestor) {
                let rest = path.strip_prefix(ancestor).unwrap_or(Path::new(""));
                return if rest.as_os_str().is_empty() {
                    real.clone()
                } else {
                    real.join(rest)
                };
            }
        }
        path.to_path_buf()
    }

    /// True when two different paths reach the same file through symbolic links.
    pub fn same_real_file(&self, a: &Path, b: &Path) -> bool {
        a != b && self.real_path(a) == self.real_path(b)
    }

    /// Records that `path` comes from a store entry, printed as `origin`.
    pub fn set_origin(&mut self, path: PathBuf, origin: Arc<str>) {
        self.origins.insert(path, origin);
    }

    /// Where a file really lives, when that is not the disk path.
    pub fn origin(&self, path: &Path) -> Option<&str> {
        self.origins.get(path).map(|o| &**o)
    }

    /// The files that come from a store, with their origin, in path order.
    pub fn origins(&self) -> impl Iterator<Item = (&Path, &str)> {
        self.origins.iter().map(|(p, o)| (p.as_path(), &**o))
    }

    pub fn has_origins(&self) -> bool {
        !self.origins.is_empty()
    }

    /// Records that the routed files below `dir` are a store's.
    pub fn mark_stored(&mut self, dir: PathBuf) {
        self.stored_dirs.insert(dir);
    }

    pub fn is_stored(&self, dir: &Path) -> bool {
        self.stored_dirs.contains(dir)
    }

    /// Records that a listing of its folder does not return `path` (see `unlisted`).
    pub fn mark_unlisted(&mut self, path: PathBuf) {
        self.unlisted.insert(path);
    }

    /// Whether a listing of its folder returns `path` (every file but the store's unlisted ones).
    pub fn is_listed(&self, path: &Path) -> bool {
        !self.unlisted.contains(path)
    }

    /// Removes every file at or below `path`; returns how many.
    pub fn remove_under(&mut self, path: &Path) -> usize {
        let doomed: Vec<PathBuf> = self
            .entries
            .range(path.to_path_buf()..)
            .take_while(|(p, _)| p.starts_with(path))
            .map(|(p, _)| p.clone())
            .collect();
        for p in &doomed {
            self.entries.remove(p);
            self.origins.remove(p);
            self.unlisted.remove(p);
        }
        doomed.len()
    }

    /// Forgets that the folder `dir` exists (its ancestors and the files under it stay).
    pub fn remove_dir(&mut self, dir: &Path) {
        self.dirs.remove(dir);
    }

    /// This set without the files at `paths` (given in path order), as [`FileSet::remove`] leaves
    /// it for each, its folders kept: one walk
    /// beside the entries, building the map in one pass instead of removing each path.
    pub fn without(&self, paths: &[PathBuf]) -> FileSet {
        let mut left_out = paths.iter().peekable();
        let entries = self
            .entries
            .iter()
            .filter(|(path, _)| {
                while left_out.next_if(|p| p < path).is_some() {}
                left_out.next_if(|p| p == path).is_none()
            })
            .map(|(path, entry)| (path.clone(), entry.clone()))
            .collect();
        // As `remove` does for each path.
        let mut unlisted = self.unlisted.clone();
        for path in paths {
            unlisted.remove(path);
        }
        FileSet {
            entries,
            dirs: self.dirs.clone(),
            links: self.links.clone(),
            origins: self.origins.clone(),
            stored_dirs: self.stored_dirs.clone(),
            unlisted,
        }
    }

    /// Whether a link met lies at or below `dir` (what [`FileSet::remove_dirs_from`] forgets).
    pub fn has_links_from(&self, dir: &Path) -> bool {
        self.links.keys().any(|path| path.starts_with(dir))
    }

    /// Forgets the folder `dir`, every folder below it and the links met there (a folder
    /// deleted; its files are removed one by one, with [`FileSet::remove`]).
    pub fn remove_dirs_from(&mut self, dir: &Path) {
        // The folders below `dir` follow it in path order: only they are visited (a skill's
        // folder deleted visited all ten thousand others).
        let doomed: Vec<PathBuf> = self
            .dirs
            .range(dir.to_path_buf()..)
            .take_while(|(path, _)| path.starts_with(dir))
            .map(|(path, _)| path.clone())
            .collect();
        for path in doomed {
            self.dirs.remove(&path);
        }
        self.links.retain(|path, _| !path.starts_with(dir));
    }

    pub fn remove(&mut self, path: &Path) -> Option<FileEntry> {
        self.unlisted.remove(path);
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

    /// Every file in path order, to change in place: one walk, where a lookup per path would
    /// compare paths component by component (which adds up over 10 000 files).
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&PathBuf, &mut FileEntry)> {
        self.entries.iter_mut()
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

    /// Every folder, in path order.
    pub fn dirs(&self) -> impl Iterator<Item = &PathBuf> {
        self.dirs.keys()
    }

    /// Keeps the folders for which `keep`, given each folder in path order, says so.
    pub fn retain_dirs(&mut self, mut keep: impl FnMut(&Path) -> bool) {
        self.dirs.retain(|dir, _| keep(dir));
    }

    /// Whether any file or folder lies below `dir`.
    pub fn holds_anything(&self, dir: &Path) -> bool {
        self.files_under(dir).next().is_some() || self.dirs_under(dir).next().is_some()
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
        // Each child's subtree is jumped over, not walked: a workspace folder has a few dozen
        // children and ten thousand folders below them, and every snapshot lists its children.
        let mut from: Option<PathBuf> = None;
        std::iter::from_fn(move || loop {
            let lower = match &from {
                None => Bound::Excluded(dir),
                Some(after) => Bound::Included(after.as_path()),
            };
            let (found, _) = self
                .dirs
                .range::<Path, _>((lower, Bound::Unbounded))
                .next()?;
            let rel = found.strip_prefix(dir).ok()?;
            let child = dir.join(rel.components().next()?);
            from = Some(subtree_end(&child));
            if *found == child {
                return Some(found);
            }
        })
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

/// The least path after every path below `dir` (in `Path` order, which compares component by
/// component): `dir` with a NUL appended to its last component, which no real name holds.
fn subtree_end(dir: &Path) -> PathBuf {
    let mut end = dir.as_os_str().to_os_string();
    end.push("\0");
    PathBuf::from(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file set of each of `dirs`, then each of `files`, inserted in turn.
    fn inserted_one_by_one(files: Vec<(PathBuf, FileContent)>, dirs: Vec<PathBuf>) -> FileSet {
        let mut set = FileSet::new();
        for dir in dirs {
            set.insert_dir(dir);
        }
        for (path, content) in files {
            set.insert(path, content, None);
        }
        set
    }

    /// Absolute paths of a few segments, mostly written plainly, now and then not (`//`, `.`).
    fn any_absolute_path() -> impl proptest::strategy::Strategy<Value = PathBuf> {
        use proptest::prelude::*;
        let segment = prop::sample::select(vec!["a", "b", "ab", "a-b", "a.b", "é", ".", ""]);
        let plain = prop::sample::select(vec!["a", "b", "ab", "a-b", "a.b", "é"]);
        let segment = prop_oneof![9 => plain, 1 => segment];
        prop::collection::vec(segment, 1..5)
            .prop_map(|segments| PathBuf::from(format!("/{}", segments.join("/"))))
    }

    proptest::proptest! {
        /// Whatever the paths (plain or not, repeated), the lists give the set that inserting
        /// each folder and file in turn gives.
        #[test]
        fn from_lists_is_inserting_one_by_one(
            files in proptest::collection::vec(any_absolute_path(), 0..12),
            dirs in proptest::collection::vec(any_absolute_path(), 0..6),
        ) {
            let files: Vec<(PathBuf, FileContent)> = files
                .into_iter()
                .enumerate()
                .map(|(at, path)| (path, FileContent::Text(Arc::from(at.to_string()))))
                .collect();
            let built = FileSet::from_lists(files.clone(), dirs.clone());
            proptest::prop_assert_eq!(built, inserted_one_by_one(files, dirs));
        }
    }

    /// Built from lists, a file set is the one inserting each path gives: folders above every
    /// file and folder, the later of two contents for one path, path order where bytes and
    /// components disagree (`a-b`, `a.b` and `a0` sort after `a/x` by component, before it by
    /// byte), and paths a walk never gives (`b//c`, `./`) placed by `Path`'s own order.
    #[test]
    fn a_file_set_built_from_lists_is_the_one_built_path_by_path() {
        let text = |t: &str| FileContent::Text(Arc::from(t));
        let files: Vec<(PathBuf, FileContent)> = [
            ("/w/a-b/f", text("1")),
            ("/w/a/x/f", text("2")),
            ("/w/a0/f", FileContent::NotLoaded),
            ("/w/a.b/f", text("3")),
            ("/w/a/x/f", text("4")),
            ("/w/b//c/f", text("5")),
            ("/w/./d/f", text("6")),
            ("/w/a/x/g", text("7")),
        ]
        .into_iter()
        .map(|(path, content)| (PathBuf::from(path), content))
        .collect();
        let dirs: Vec<PathBuf> = ["/w/e/empty", "/w/a", "/w/a/x/y", "/w/a/x"]
            .map(PathBuf::from)
            .to_vec();
        let built = FileSet::from_lists(files.clone(), dirs.clone());
        assert_eq!(built, inserted_one_by_one(files, dirs));
        assert_eq!(built.text(Path::new("/w/a/x/f")), Some("4"));
        assert!(built.contains_dir(Path::new("/")));
    }

    /// A folder deleted takes the folders below it, not those whose names only start alike.
    #[test]
    fn removing_a_folder_removes_its_subtree_only() {
        let mut files = FileSet::new();
        for dir in [
            "/w/skills/pdf/a/b",
            "/w/skills/pdf-tools",
            "/w/skills/pdf.d",
            "/w/skills/q",
        ] {
            files.insert_dir(PathBuf::from(dir));
        }
        files.remove_dirs_from(Path::new("/w/skills/pdf"));
        let left: Vec<&Path> = files.dirs.keys().map(|p| p.as_path()).collect();
        assert_eq!(
            left,
            [
                "/",
                "/w",
                "/w/skills",
                "/w/skills/pdf-tools",
                "/w/skills/pdf.d",
                "/w/skills/q"
            ]
            .map(Path::new)
        );
    }

    /// Children in name order, each once, with the folders between them and below them skipped
    /// (names that sort between a folder and its subtree: `a.b` and `a0` between `a` and `a/x`).
    #[test]
    fn child_dirs_lists_direct_children_only() {
        let mut set = FileSet::new();
        for file in [
            "/w/a/x/f",
            "/w/a.b/f",
            "/w/a0/f",
            "/w/b/c/d/f",
            "/w/c/f",
            "/v/f",
            "/wz/f",
        ] {
            set.insert_text(PathBuf::from(file), "x");
        }
        let children: Vec<&Path> = set
            .child_dirs(Path::new("/w"))
            .map(PathBuf::as_path)
            .collect();
        assert_eq!(
            children,
            ["/w/a", "/w/a.b", "/w/a0", "/w/b", "/w/c"].map(Path::new)
        );
        assert_eq!(set.child_dirs(Path::new("/w/b")).count(), 1);
        assert_eq!(set.child_dirs(Path::new("/none")).count(), 0);
    }

    #[test]
    fn paths_through_recorded_links_are_the_same_file() {
        let mut set = FileSet::new();
        set.insert_text(PathBuf::from("/w/skills/a/SKILL.md"), "x");
        set.insert_text(PathBuf::from("/w/skills/b/SKILL.md"), "x");
        set.insert_text(PathBuf::from("/w/skills/c/SKILL.md"), "x");
        // `/w` itself is reached through a link (`/w` → `/real/w`), and `skills/b` → `skills/a`.
        set.insert_link(PathBuf::from("/w"), PathBuf::from("/real/w"));
        set.insert_link(
            PathBuf::from("/w/skills/b"),
            PathBuf::from("/real/w/skills/a"),
        );
        let a = Path::new("/w/skills/a/SKILL.md");
        let b = Path::new("/w/skills/b/SKILL.md");
        let c = Path::new("/w/skills/c/SKILL.md");
        assert_eq!(set.real_path(b), PathBuf::from("/real/w/skills/a/SKILL.md"));
        assert!(set.same_real_file(a, b));
        assert!(!set.same_real_file(a, c));
        assert!(!set.same_real_file(a, a));
    }

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

    #[cfg(unix)]
    #[test]
    fn pipes_and_devices_are_not_opened() {
        let dir = tempfile::tempdir().unwrap();
        let pipe = dir.path().join("AGENTS.md");
        let made = std::process::Command::new("mkfifo").arg(&pipe).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        // Opening this pipe for reading would block: nobody writes to it.
        let fifo = FileContent::NotRegular {
            kind: "a named pipe (FIFO)",
        };
        assert_eq!(FileContent::read(&pipe), fifo);
        assert_eq!(FileContent::read_existing(&pipe), Some(fifo.clone()));
        let link = dir.path().join("link.md");
        std::os::unix::fs::symlink(&pipe, &link).unwrap();
        assert_eq!(FileContent::read(&link), fifo);
        // A path a listing said was a regular file, replaced by a pipe or a folder since: the
        // opened handle is looked at, and the pipe's open does not wait for a writer.
        assert_eq!(FileContent::read_listed_regular(&pipe), fifo);
        assert_eq!(
            FileContent::read_listed_regular(dir.path()),
            FileContent::Unreadable {
                error: "is a directory".into()
            }
        );
        let file = dir.path().join("SKILL.md");
        std::fs::write(&file, "text").unwrap();
        assert_eq!(FileContent::read_listed_regular(&file).text(), Some("text"));
        assert_eq!(
            FileContent::read(Path::new("/dev/null")),
            FileContent::NotRegular {
                kind: "a character device"
            }
        );
        assert_eq!(FileContent::read_existing(dir.path()), None);
        assert_eq!(
            FileContent::read_existing(&dir.path().join("missing")),
            None
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
