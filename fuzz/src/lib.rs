//! Shared checks of the fuzz targets (one binary per parser in `src/bin/`): each target feeds one
//! input to one parser and asserts what must hold for every input, beyond "no panic".
//!
//! Depends on the agentws library only; never linked into agentws itself.

use agentws::base::TextRange;

/// Panics unless `range` lies within `text` on character boundaries.
pub fn assert_range(text: &str, range: TextRange, what: &str) {
    assert!(
        range.start <= range.end && range.end <= text.len(),
        "{what} {range:?} outside 0..{}",
        text.len()
    );
    assert!(
        text.is_char_boundary(range.start) && text.is_char_boundary(range.end),
        "{what} {range:?} not on character boundaries"
    );
}
