//! How the process's allocator is set up for a long-running server.
//!
//! glibc's malloc gives each thread that contends for the heap an arena of its own and never
//! hands memory freed in one arena to another. The server parses on rayon's threads and answers
//! on tokio's, so a workspace re-read (an `agentws.toml` edit) left the freed copies in arenas no
//! later allocation used: on the 10 000-skill workspace the resident memory doubled after one
//! such edit and stayed there (docs/benchmarks.md). One arena keeps it at the live heap; the
//! thread caches in front of it keep the contention low on the machines the server runs on.
//!
//! Must be called before the first thread is spawned. Reads no environment itself (the caller
//! says whether `MALLOC_ARENA_MAX` is set). Depends on nothing of ours.

/// Restricts malloc to one arena (glibc only; elsewhere a no-op), unless `arena_max_set`: an
/// operator's `MALLOC_ARENA_MAX` is left to rule (and measures the difference).
pub fn use_one_malloc_arena(arena_max_set: bool) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if !arena_max_set {
        // SAFETY: mallopt only sets a tunable of the allocator; called before any thread exists.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 1);
        }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = arena_max_set;
}
