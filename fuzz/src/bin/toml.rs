//! `agentws.toml` loading: TOML parse, schema, every diagnostic's range inside the text.

use std::path::Path;
use std::sync::Arc;

use agentws::base::FileContent;
use agentws::config::load::load;
use agentws_fuzz::assert_range;

fn main() {
    // A folder that does not exist: a relative `system_prompt_file` reads nothing.
    let file = Path::new("/nonexistent-agentws-fuzz/agentws.toml");
    afl::fuzz!(|data: &[u8]| {
        let Ok(text) = std::str::from_utf8(data) else {
            return;
        };
        let (_config, diagnostics) = load(file, &FileContent::Text(Arc::from(text)));
        for diagnostic in &diagnostics {
            if diagnostic.path == file {
                assert_range(text, diagnostic.range, diagnostic.code);
            }
        }
    });
}
