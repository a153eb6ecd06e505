//! Remote-store rules (`RS…`): entries of a `BaseStore` that the runtime's remote filesystem cannot
//! read back, reads differently from what they look like, or never lists (docs/stores.md). One
//! file per rule; those a stored key or value alone decides detect it there (`check`), the others
//! are found by the store's readers (`store`), which see the rows, the listings and the pages.
//! See the module docs of `rules` for the code scheme.

use super::Rule;

pub mod store_child_namespace;
pub mod store_empty_content;
pub mod store_entry_unreadable;
pub mod store_id_collation;
pub mod store_id_not_a_folder;
pub mod store_id_separator;
pub mod store_index_stale;
pub mod store_key_not_absolute;
pub mod store_key_unreachable;
pub mod store_listing_cut;
pub mod store_root_stray_key;
pub mod store_user_tools_json;
pub mod store_value_encoding;
pub mod store_value_no_content;
pub mod store_value_not_json;

pub static RULES: &[&Rule] = &[
    &store_key_not_absolute::RULE, // RS001
    &store_key_unreachable::RULE,  // RS002
    &store_root_stray_key::RULE,   // RS003
    &store_value_not_json::RULE,   // RS004
    &store_value_no_content::RULE, // RS005
    &store_value_encoding::RULE,   // RS006
    &store_id_separator::RULE,     // RS008
    &store_child_namespace::RULE,  // RS009
    &store_index_stale::RULE,      // RS010
    &store_listing_cut::RULE,      // RS011
    &store_id_collation::RULE,     // RS012
    &store_user_tools_json::RULE,  // RS013
    &store_empty_content::RULE,    // RS015
    &store_id_not_a_folder::RULE,  // RS016
    &store_entry_unreadable::RULE, // RS017
];
