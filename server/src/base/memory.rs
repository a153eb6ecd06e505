//! How the process's allocator is set up for a long-running server.
//!
//! glibc's malloc gives each thread that contends for the heap an arena of its own (up to eight
//! per core) and keeps what is freed in it. The server parses on rayon's threads and answers on
//! tokio's, so a workspace re-read (an `agentws.toml` edit) left the freed copies resident: a large
//! workspace's server more than doubled its memory after one such edit and stayed there. Two
//! arenas, and the free pages handed back after each full re-check (`return_free_memory`), keep it
//! near its first size; one arena did as well for memory but made the parallel first indexing
//! much slower.
//!
//! Must be called before the first thread is spawned. Reads no environment itself (the caller
//! says whether `MALLOC_ARENA_MAX` is set). Depends on nothing of ours.

/// Limits malloc to two arenas (glibc only; elsewhere a no-op), unless `arena_max_set`: an
/// operator's `MALLOC_ARENA_MAX` is left to rule (and measures the difference).
pub fn limit_malloc_arenas(arena_max_set: bool) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if !arena_max_set {
        // SAFETY: mallopt only sets a tunable of the allocator; called before any thread exists.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 2);
        }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = arena_max_set;
}

/// Hands the pages malloc holds free back to the system (glibc's `malloc_trim`, which also
/// releases free pages inside every arena; elsewhere a no-op). Called after work that freed a
/// workspace's worth of memory at once.
pub fn return_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases memory malloc holds free; safe from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}
