//! Remote-store rules (`RS…`): entries of a `BaseStore` that the runtime's remote filesystem cannot
//! read back, reads differently from what they look like, or never lists (docs/stores.md). One
//! file per rule; those a stored key or value alone decides detect it there (`check`), the others
//! are found by the store's readers (`store`), which see the rows, the listings and the pages.
//! See the module docs of `rules` for the code scheme.

use super::declare_family;

declare_family! {
    pub mod store_key_not_absolute; // RS001
    pub mod store_key_unreachable;  // RS002
    pub mod store_root_stray_key;   // RS003
    pub mod store_value_not_json;   // RS004
    pub mod store_value_no_content; // RS005
    pub mod store_value_encoding;   // RS006
    pub mod store_id_separator;     // RS008
    pub mod store_child_namespace;  // RS009
    pub mod store_index_stale;      // RS010
    pub mod store_listing_cut;      // RS011
    pub mod store_id_collation;     // RS012
    pub mod store_user_tools_json;  // RS013
    pub mod store_empty_content;    // RS015
    pub mod store_id_not_a_folder;  // RS016
    pub mod store_entry_unreadable; // RS017
}
