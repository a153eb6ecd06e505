//! A finding's fingerprint: what stays the same about it while the file around it changes, for
//! the baseline (`agentws check --baseline`) and SARIF's `partialFingerprints` (code scanning
//! tracks an alert across commits by it). It reads the rule, the file's place in the project, the
//! flagged line's text without its indentation and the flagged text itself; never a line number,
//! so lines added or removed elsewhere, or frontmatter keys reordered, leave it as it was. Equal
//! fingerprints in one report are told apart by their order (`:1`, `:2`, …), as code scanning's
//! own line hashes are. Pure; depends on `base` alone.

use crate::base::TextRange;

/// The key of agentws's fingerprint in SARIF `partialFingerprints`.
pub const SARIF_KEY: &str = "agentws/v1";

/// At most this much of the flagged text takes part (a whole-file range would otherwise make
/// every edit a new finding).
const FLAGGED_BYTES: usize = 256;

/// The fingerprint of a finding of `code` in the file at `place` (path relative to the project,
/// or a store entry's name), flagged on the line `line` at `flagged`; without its occurrence
/// number ([`number`] adds it).
pub fn of(code: &str, place: &str, line: &str, flagged: &str) -> String {
    let mut end = flagged.len().min(FLAGGED_BYTES);
    while !flagged.is_char_boundary(end) {
        end -= 1;
    }
    let mut hash = Fnv::default();
    for part in [code, place, line.trim(), &flagged[..end]] {
        hash.write(part.as_bytes());
        hash.write(&[0]);
    }
    format!("{:016x}", hash.0)
}

/// The part of the flagged `line` of `text` that takes part: the whole line when it is short, else
/// [`FLAGGED_BYTES`] on each side of `flagged`, so that a file of one long line with thousands of
/// findings costs each of them a few hundred bytes, not the line.
pub fn around(text: &str, line: TextRange, flagged: TextRange) -> &str {
    let start = flagged.start.saturating_sub(FLAGGED_BYTES).max(line.start);
    let end = (flagged.end + FLAGGED_BYTES).min(line.end).max(start);
    let start = crate::base::text::floor_char_boundary(text, start);
    let end = crate::base::text::floor_char_boundary(text, end);
    &text[start..end]
}

/// `fingerprints` with each one's occurrence number appended, counted in their order.
pub fn number<'a>(fingerprints: impl Iterator<Item = &'a mut String>) {
    let mut seen: std::collections::HashMap<String, usize> = Default::default();
    for fingerprint in fingerprints {
        let n = seen.entry(fingerprint.clone()).or_insert(0);
        *n += 1;
        fingerprint.push_str(&format!(":{n}"));
    }
}

/// 64-bit FNV-1a: small, and the same on every machine and in every version of agentws (a
/// fingerprint written into a baseline must be found again by the next release).
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_indentation_and_the_line_number_do_not_count() {
        let a = of(
            "SK023",
            "skills/a/SKILL.md",
            "  created: 2024-01-01",
            "2024-01-01",
        );
        let b = of(
            "SK023",
            "skills/a/SKILL.md",
            "created: 2024-01-01 ",
            "2024-01-01",
        );
        assert_eq!(a, b);
        assert_ne!(
            a,
            of(
                "SK023",
                "skills/b/SKILL.md",
                "created: 2024-01-01",
                "2024-01-01"
            )
        );
        assert_ne!(
            a,
            of(
                "SK024",
                "skills/a/SKILL.md",
                "created: 2024-01-01",
                "2024-01-01"
            )
        );
        // A known value: the hash never changes between versions.
        assert_eq!(of("", "", "", ""), "4d25767f9dce13f5");
        let mut prints = vec![a.clone(), b, "x".to_string()];
        number(prints.iter_mut());
        assert_eq!(
            prints,
            vec![format!("{a}:1"), format!("{a}:2"), "x:1".to_string()]
        );
    }
}
