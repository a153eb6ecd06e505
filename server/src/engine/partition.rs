//! How the engine splits a project so that an edit re-runs few queries: skills by name into
//! [`NAME_GROUPS`] groups (a skill's loading outcome reads the skills of its name), and sources
//! by path into buckets of about [`BUCKET_SIZE`] (where a bucket ends depends on the path alone).
//! Both by a fixed hash, since the split is part of what the database memoises.
//!
//! Plain functions; must not depend on any other file of the engine.

use std::path::Path;

use crate::workspace::skill::SkillDoc;

/// How many groups, by name, the skills' loading outcomes are computed in
/// (`name_group_loading`).
pub const NAME_GROUPS: u32 = 64;

/// The group of a skill's facts: by its name, since its loading outcome reads the skills of its
/// name. A skill without a name loads under none; it goes by its folder's name, the one a
/// subagent's `skills:` entry finds it by (so `SkillsByName` holds every skill a name refers to
/// in that name's group).
pub(super) fn name_group(skill: &SkillDoc) -> u32 {
    name_group_of(referred_name(skill))
}

/// The name a skill is grouped and referred to by: its `name`, or its folder's when it has none.
pub(super) fn referred_name(skill: &SkillDoc) -> &str {
    skill.name.as_deref().unwrap_or(&skill.dir_name)
}

pub(super) fn name_group_of(name: &str) -> u32 {
    group_of_hash(name_hash(name))
}

pub(super) fn name_hash(name: &str) -> u64 {
    use std::hash::BuildHasher;
    GROUP_HASH.hash_one(name)
}

pub(super) fn group_of_hash(hash: u64) -> u32 {
    (hash % u64::from(NAME_GROUPS)) as u32
}

/// A fixed seed: the grouping is part of what the database memoises, not a per-process map.
const GROUP_HASH: foldhash::fast::FixedState = foldhash::fast::FixedState::with_seed(0);

/// How many sources a `SourceBucket` holds on average: a bucket ends after a source whose path
/// hashes to one value in this many ([`bucket_ends_after`]), or at [`MAX_BUCKET_SIZE`].
pub const BUCKET_SIZE: usize = 128;

/// The most sources a bucket holds, whatever the hashes of their paths.
pub const MAX_BUCKET_SIZE: usize = 4 * BUCKET_SIZE;

/// Whether a bucket ends after the source at `path`. Decided by the path alone (content-defined
/// chunking), so that a source created or deleted changes its own bucket, and merges or splits
/// two at most, instead of shifting every later bucket by one, which ran every bucket's queries
/// again after each created or deleted file.
pub(super) fn bucket_ends_after(path: &Path) -> bool {
    use std::hash::BuildHasher;
    GROUP_HASH.hash_one(path).is_multiple_of(BUCKET_SIZE as u64)
}
