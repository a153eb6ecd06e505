//! Per-context views of a workspace snapshot, as the runtime computes them for one call
//! (harness-spec §1.3, §2.1–2.2, §3.1, §6.3): the three-level file read with its quirks, the merged
//! skill list ("first position, later wins") and the subagent list.
//!
//! OWNER: the prompt preview work (see docs/architecture.md).
