//! TODO(owner): see docs/architecture.md.
