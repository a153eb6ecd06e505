//! The analysis engine: the project as a query database (salsa), so that an edit re-runs only
//! what read a changed fact.
//!
//! Inputs are the project (configuration, environment, profile, and its *layout*: every file it
//! holds, with the texts of skills, subagent specs and tools.json files left out) and one
//! `SourceFile` per skill, subagent spec and tools.json. Derived, memoised, with early cut-off:
//!
//! ```text
//! SourceFile ─► parsed ─► facts                      (per file)
//!     │           └─► source_diagnostics             (per file: its parse and content rules)
//!     └─► tool_mentions ─► bucket_tool_mentions ─► bucket_removed_mentions ─► removed_mentions ─┐
//! frame ─► frame_kinds, namespaces ─► check_roots  (the session contexts, once)                 │
//! tools.json ─► parsed ─► tools_docs ─► catalog                                                 │
//! layout ─► layout_diagnostics ─────────────────────────────────────────────────────────────────┤
//! layout, tools_docs ─► configured_diagnostics ─────────────────────────────────────────────────┤
//! facts ─► bucket_name_groups ─► name_groups ─► name_group_facts (× 64)                         │
//!            └─► name_group_loading (× 64: its skills + neighbours) ────────────────────────────┤
//!                  └─► contexts_loading_a_skill ─┐                                              │
//! name_group_facts ─► group_code_execution (× 64)┴─► code_execution_detail ─┐                   │
//! facts, tools_docs, catalog ─► tools.json rules ───────────────────────────┴─► tool_references ┤
//!                         └─► chunk_tool_lists (× 16 subagents) ──────────────┘                 │
//! facts ─► bucket_subagent_facts ─► bucket_listed_names ─► names_listed(_in_group × 64)         │
//!            │   name_group_facts, names_listed_in_group ─► group_listed_facts (× 64)           │
//!            └─► chunk_subagent_facts (× 16) ─► chunk_listed_names ─► chunk_listed_facts        │
//!                  └─► chunk_skill_references ─► bucket_skill_references ─► skill_references ───┤
//! facts ─► subagent_loading_facts ─► bucket_subagent_loading_facts ─► subagent_loading ─────────┤
//!                                       skill_family_diagnostics, subagent_family_diagnostics ◄─┘
//! parsed ─► sets_allowed_tools ─► allowed_tools_setters ─► allowed_tools_note ────┐         │
//!                                                workspace_diagnostics ◄──────────┴─────────┘
//! ```
//!
//! A source read from disk holds no text, in `agentws check` (`batch::load_digested`) and in the
//! language server for every file not open in the editor (`batch::discover_digested` when a
//! project is read, `Analysis::digest_read` for a file read again, `Change::set_digested_file`):
//! its input's `digest` holds what the per-file queries above answer (`sources::digest`, by the
//! functions they run), and `parsed` of it is its prompt facts where something renders the
//! prompt (the server's previews; `check` when the configuration names a context window), its
//! facts otherwise (`sources::Kept`). The report, or the server where it shows a position, reads
//! again only the files it shows, and compares them with the digest's hash: a file changed
//! since is reported so (`check`) or taken as a watched change (the server).
//!
//! The rules are `check`'s (`source_diagnostics`; `file_diagnostics`, `skill_references`,
//! `tool_references`, `skill_loading` and `loading::check_subagents`, which together are
//! `check::workspace_diagnostics`); they are composed
//! here, once: the server asks these queries after each edit, and `agentws check` asks them once
//! over the whole project (`batch`: `Analysis::diagnostics`, `load`), so the two give one
//! answer. A source's facts are its parsed document without what only that file's own rules
//! read (its body, its diagnostics other than the one that drops it): a body edit leaves the
//! facts equal, so no cross-file rule runs again. The cross-file rules see the sources only
//! through those facts — the workspaces they get hold no source text at all, so a rule that
//! reads one would see an empty file and the agreement tests would fail, rather than go stale
//! quietly.
//!
//! Each family of whole-workspace rules gets a workspace holding only what it reads, so that an
//! edit re-runs the families that read a changed fact, and only over the files concerned:
//!
//! - the file rules (`check::file_diagnostics`) read no skill or subagent at all; the layout's
//!   (`layout_diagnostics`) read no tools.json either, so a tools.json edit runs only the rules
//!   that read it (`configured_diagnostics`);
//! - a skill's loading outcome reads only the skills of its name and its neighbours by path
//!   (`check::loading::neighbour_rels`): the skills are split into `NAME_GROUPS` groups by
//!   name, and renaming a skill re-runs its old and its new group;
//! - the rules over what subagents' `skills:` name read the subagents and the skills of the
//!   names they list, with their neighbours (`chunk_listed_facts`): they run per chunk of
//!   sixteen subagents (`chunk_skill_references`), so that a subagent's edit resolves the
//!   contexts over the few skills its chunk names; the name they suggest for an entry no skill
//!   has is merged from each bucket's answer for that entry (`skill_suggestions`, read a span
//!   of sixteen buckets at a time, so that verifying a chunk's suggestions walks a span per
//!   piece, not every bucket), so that a rename searches its own bucket again and runs no chunk
//!   whose suggestions stay the same;
//! - the tools.json rules and what subagents' `tools:` and `model:` name (`tool_references`) read
//!   the subagents, tools.json and the catalog, and of the skills only where the code-execution
//!   section is rendered (`code_execution_detail`: the skills whose folders hold files, per
//!   name group, and whether each context loads any skill), so that a tools.json edit resolves
//!   no context and a rename resolves them over its old and its new group's skills only; what
//!   the lists name is found per chunk of subagents (`chunk_tool_lists`) and merged, so that a
//!   subagent's edit looks at its own chunk again;
//! - the subagents' loading outcomes read the subagents without their `tools:`, `skills:` and
//!   `model:` (`subagent_loading_facts`) and no skill, so that editing those lists re-runs only
//!   the two families above.
//!
//! `engine::batch::loading_agreement` checks on generated workspaces that the families add up to
//! the whole-workspace composition.
//!
//! Durability: open buffers are `LOW`, the project's structure (layout, frame, the tools.json
//! list) `MEDIUM`, disk contents and the configuration `HIGH`. The list of buckets is `LOW` like
//! a buffer: every query over the buckets reads an editor's buffer once any file is open, and
//! salsa does not backdate a value whose durability dropped, so with a `MEDIUM` list the first
//! file opened ran every reader of those queries again (all name groups' loading). After an
//! edit of an open buffer, every query that read only disk files and the structure is verified
//! in constant time; after a file created or deleted, every query that read only files (a source's parse, its
//! facts, its own diagnostics: tens of thousands on 10 000 skills) is, and so is every query of a
//! bucket no change has touched: the buckets of a whole discovery are `HIGH` and replaced, not
//! written, when they change (`Analysis::settled_buckets`), and a few changed ones at most stay
//! `MEDIUM` (`Analysis::unsettled_buckets`). For the same reason a disk file's first buffer is a
//! new input, not a write of the disk's (`Analysis::put_buffer_input`).
//! The whole-project queries read the sources through `SourceBucket`s of about `BUCKET_SIZE`,
//! so that verifying them after one source's edit walks its bucket's sources and the other
//! buckets, not every source of the project; where a bucket ends depends on the paths alone, so
//! that a file created or deleted changes one or two buckets.
//!
//! Inputs change only through [`Analysis::apply_change`], given a [`Change`] (rust-analyzer's
//! `AnalysisHost::apply_change`): the command line and the language server build one and apply
//! it; how the analysis turns it into writes of the inputs is private to `analysis.rs`.
//!
//! Files, from the bottom up: each imports only from files listed before it (no file cycle):
//!
//! - `partition.rs`: the fixed hashes that split skills into name groups and sources into buckets;
//! - `neighbours.rs`: the skill sources by relative path, and where a skill finds neighbours;
//! - `by_file.rs`: diagnostics by file, in check order, and how two states of them differ;
//! - `change.rs`: a change of the inputs ([`Change`], [`Origin`]) and what applying it did;
//! - `inputs.rs`: the database and its inputs (project, buckets, sources);
//! - `sources.rs`: one source's queries (parse, facts, own diagnostics);
//! - `project.rs`: the project-wide views the families read (buckets, contexts, workspaces);
//! - `layout_rules.rs`: the family over the layout alone;
//! - `skills.rs`: the families over the skills (name groups, loading, names, keys);
//! - `subagents.rs`: the families over the subagents (listed names, loading, outside paths);
//! - `tools.rs`: the families over tools.json and the catalog;
//! - `compose.rs`: every family's diagnostics by file ([`WorkspaceDiagnostics`]);
//! - `handle.rs`: a read-only [`Handle`] on one state of the inputs;
//! - `analysis.rs`: the input manager [`Analysis`] and [`Analysis::apply_change`];
//! - `outside.rs`: the files outside the walk that subagents name;
//! - `batch.rs`: `agentws check` through the same queries (`load`, `load_digested`, the report).
//!
//! Must not depend on `lsp` or `cli`; holds no global state (a `Database` is a value).

mod analysis;
pub mod batch;
mod by_file;
mod change;
mod compose;
mod handle;
mod inputs;
mod layout_rules;
mod neighbours;
mod outside;
mod partition;
mod project;
mod skills;
mod sources;
mod subagents;
mod tools;

pub use analysis::Analysis;
pub use by_file::{changed_keys, DiagnosticsByFile, WorkspaceDiagnostics};
pub use change::{Applied, Change, Digest, Origin};
pub use handle::{Handle, SharedReads};
pub use outside::Outside;
pub use skills::SkillsByName;
pub use sources::{text_hash, Kept};

#[cfg(test)]
mod file_order;
