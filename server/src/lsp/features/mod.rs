//! What the server answers, one file per feature. The editor features (`completion`, `hover`,
//! `navigation`, `symbols`, `code_actions`, `rename`) are read-only: each takes a
//! `backend::View` and returns LSP values; nothing there mutates state or awaits. The others are
//! `impl Backend` blocks: `sync` (documents, watched files, folders), `configuration`,
//! `diagnostics` (published or pulled, the initial indexing), and the custom methods of
//! `protocol` (`preview`, `store`, `paths`, `file_status`).
//!
//! Order (a file imports only files listed before it): `keys`, `names`, then the editor features;
//! `store`, `preview`, `paths`, `file_status`; `diagnostics` (uses `store`); `configuration` and
//! `sync` (use `diagnostics`). Every file may import the files of `lsp` below `features`
//! (`backend` and what it uses), never `server`.

pub mod keys;
pub mod names;

pub mod code_actions;
pub mod completion;
pub mod hover;
pub mod navigation;
pub mod rename;
pub mod symbols;

pub mod file_status;
pub mod paths;
pub mod preview;
pub mod store;

pub mod diagnostics;

pub mod configuration;
pub mod sync;
