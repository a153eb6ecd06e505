//! Java behaviour the runtime relies on, so our outcomes match it exactly, each in one place:
//! `String` semantics (below), `Double.toString` and `Double.parseDouble`, `Duration.parse`, and
//! the two date texts the runtime prints (`LocalDate` as `EEEE MMM d, yyyy`, `java.util.Date`'s
//! `toString`). Depends on nothing but `serde` (a `Date` serializes as `YYYY-MM-DD`).
//!
//! `Character.isWhitespace` (used by `strip`, `isBlank`, `stripTrailing`) differs from Rust's
//! `char::is_whitespace`: it excludes the no-break spaces U+00A0, U+2007 and U+202F and includes the
//! separators U+001C..U+001F. `trim` removes every char `<= U+0020`. Lengths in budgets are UTF-16
//! code units.

use serde::{Serialize, Serializer};

/// `Character.isWhitespace(ch)`.
pub fn is_whitespace(ch: char) -> bool {
    match ch {
        '\u{00A0}' | '\u{2007}' | '\u{202F}' => false,
        '\u{0009}'..='\u{000D}' | '\u{001C}'..='\u{001F}' => true,
        _ => ch.is_whitespace() && !matches!(ch, '\u{0085}'),
    }
}

/// `String.strip()`.
pub fn strip(s: &str) -> &str {
    s.trim_matches(is_whitespace)
}

/// `String.stripTrailing()`.
pub fn strip_trailing(s: &str) -> &str {
    s.trim_end_matches(is_whitespace)
}

/// `String.stripLeading()`.
pub fn strip_leading(s: &str) -> &str {
    s.trim_start_matches(is_whitespace)
}

/// `String.isBlank()`.
pub fn is_blank(s: &str) -> bool {
    s.chars().all(is_whitespace)
}

/// `String.trim()`: removes every char `<= U+0020` at both ends.
pub fn trim(s: &str) -> &str {
    &s[trim_bounds(s)]
}

/// Where `String.trim()`'s result lies in `s`, as byte offsets (an empty range at the end when
/// nothing is left).
pub fn trim_bounds(s: &str) -> std::ops::Range<usize> {
    let start = s.len() - s.trim_start_matches(|c: char| c <= '\u{20}').len();
    let end = s.trim_end_matches(|c: char| c <= '\u{20}').len();
    if start >= end {
        start..start
    } else {
        start..end
    }
}

/// `String.length()`: UTF-16 code units.
pub fn utf16_len(s: &str) -> usize {
    // One unit per character and two for those past U+FFFF: counted on the bytes (every byte
    // but a continuation byte starts a character; a four-byte one starts with 0b11110), which
    // the compiler vectorises; a preview of 10 000 skills counts megabytes.
    // Chunks small enough to count in `u16` lanes.
    s.as_bytes()
        .chunks(u16::MAX as usize / 2)
        .map(|chunk| {
            let units: u16 = chunk
                .iter()
                .map(|&b| u16::from((b as i8) >= -0x40) + u16::from(b >= 0xF0))
                .sum();
            usize::from(units)
        })
        .sum()
}

/// `String.compareTo`: UTF-16 code unit order (how the runtime sorts names and paths).
pub fn compare_to(a: &str, b: &str) -> std::cmp::Ordering {
    // UTF-8 byte order is code point order, which UTF-16 order departs from only past U+D7FF;
    // ASCII strings (nearly every name and path) need no re-encoding.
    if a.is_ascii() && b.is_ascii() {
        return a.as_bytes().cmp(b.as_bytes());
    }
    a.encode_utf16().cmp(b.encode_utf16())
}

/// `String.lines()`: splits on `\n`, `\r\n` and `\r`; a final empty line is dropped.
pub fn lines(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            b'\r' => {
                out.push(&s[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Numbers.

/// Java `Double.toString(d)` (shortest repr digits, JDK 19+).
pub fn double_to_string(d: f64) -> String {
    if d.is_nan() {
        return "NaN".into();
    }
    if d.is_infinite() {
        return if d > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if d == 0.0 {
        return if d.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    let sci = format!("{:e}", d.abs());
    let (mantissa, exp) = sci.split_once('e').expect("{:e} has an exponent");
    let exp: i32 = exp.parse().expect("integer exponent");
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let sign = if d < 0.0 { "-" } else { "" };
    let abs = d.abs();
    if (1e-3..1e7).contains(&abs) {
        let point = exp + 1; // digits before the decimal point
        let (int_part, frac_part) = if point <= 0 {
            (
                "0".to_string(),
                format!("{}{}", "0".repeat((-point) as usize), digits),
            )
        } else if point as usize >= digits.len() {
            (
                format!("{}{}", digits, "0".repeat(point as usize - digits.len())),
                "0".to_string(),
            )
        } else {
            (
                digits[..point as usize].to_string(),
                digits[point as usize..].to_string(),
            )
        };
        format!("{sign}{int_part}.{frac_part}")
    } else {
        let frac = if digits.len() > 1 { &digits[1..] } else { "0" };
        format!("{sign}{}.{frac}E{exp}", &digits[..1])
    }
}

/// `Double.parseDouble(s)`: trimmed like `String.trim`, an optional `d`/`f` suffix, `NaN` and
/// `Infinity`; decimal texts only (no hexadecimal floating point).
pub fn parse_double(s: &str) -> Option<f64> {
    let t = trim(s);
    let t = t.strip_suffix(['d', 'D', 'f', 'F']).unwrap_or(t);
    match t {
        "NaN" => Some(f64::NAN),
        "Infinity" | "+Infinity" => Some(f64::INFINITY),
        "-Infinity" => Some(f64::NEG_INFINITY),
        _ if t.bytes().any(|b| b.is_ascii_digit())
            && t.bytes()
                .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b)) =>
        {
            t.parse().ok()
        }
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Durations.

/// `java.time.Duration.parse`: `[-+]?P(nD)?(T(nH)?(nM)?(n[.,]f{0,9}S)?)?`, case-insensitive, at
/// least one part, `T` followed by at least one part, every part signed, overflow is an error.
/// Returns the total in seconds (fraction dropped).
pub fn parse_duration_seconds(text: &str) -> Option<i64> {
    let upper = text.to_ascii_uppercase();
    let mut s = upper.as_str();
    let negate = if let Some(rest) = s.strip_prefix('-') {
        s = rest;
        true
    } else {
        s = s.strip_prefix('+').unwrap_or(s);
        false
    };
    s = s.strip_prefix('P')?;
    let mut total: i128 = 0;
    let mut any = false;
    let (date, time) = match s.find('T') {
        Some(t) => (&s[..t], Some(&s[t + 1..])),
        None => (s, None),
    };
    if !date.is_empty() {
        let days = date.strip_suffix('D')?;
        total += signed_number(days)? as i128 * 86_400;
        any = true;
    }
    if let Some(mut time) = time {
        let mut time_any = false;
        for (unit, factor) in [('H', 3600i128), ('M', 60)] {
            if let Some(pos) = time.find(unit) {
                total += signed_number(&time[..pos])? as i128 * factor;
                time = &time[pos + 1..];
                time_any = true;
            }
        }
        if !time.is_empty() {
            let secs = time.strip_suffix('S')?;
            let (whole, fraction) = match secs.find(['.', ',']) {
                Some(p) => (&secs[..p], Some(&secs[p + 1..])),
                None => (secs, None),
            };
            total += signed_number(whole)? as i128;
            if let Some(fraction) = fraction {
                if fraction.len() > 9 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
            }
            time_any = true;
        }
        if !time_any {
            return None;
        }
        any = true;
    }
    if !any || total > i64::MAX as i128 || total < i64::MIN as i128 {
        return None;
    }
    Some(if negate {
        -(total as i64)
    } else {
        total as i64
    })
}

/// `[-+]?[0-9]+` as a Java `long`.
fn signed_number(text: &str) -> Option<i64> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.strip_prefix('+').unwrap_or(text).parse().ok()
}

// ---------------------------------------------------------------------------------------------
// Dates (proleptic Gregorian, civil-date arithmetic only).

/// A proleptic Gregorian calendar date.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Date {
    pub year: i32,
    pub month: u32,
    pub day: u32,
}

const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

impl Date {
    /// Parses `YYYY-MM-DD` (a real calendar date).
    pub fn parse(s: &str) -> Option<Date> {
        let mut parts = s.split('-');
        let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || y.len() != 4 || m.len() != 2 || d.len() != 2 {
            return None;
        }
        let date = Date {
            year: y.parse().ok()?,
            month: m.parse().ok()?,
            day: d.parse().ok()?,
        };
        let valid = (1..=12).contains(&date.month)
            && date.day >= 1
            && date.day <= days_in_month(date.year, date.month)
            && date.year >= 1;
        valid.then_some(date)
    }

    /// The date `days` days after 1970-01-01.
    pub fn from_days_since_epoch(days: i64) -> Date {
        let (year, month, day) = civil_from_days(days);
        Date {
            year: year as i32,
            month,
            day,
        }
    }

    /// Days since 1970-01-01.
    pub fn days_since_epoch(self) -> i64 {
        days_from_civil(
            i64::from(self.year),
            i64::from(self.month),
            i64::from(self.day),
        )
    }

    /// 0 = Sunday.
    pub fn weekday(self) -> usize {
        weekday_of_day(self.days_since_epoch())
    }

    /// `LocalDate.format` with `EEEE MMM d, yyyy` in English, as the runtime prints today's date.
    pub fn java_text(self) -> String {
        format!(
            "{} {} {}, {:04}",
            DAYS[self.weekday()],
            MONTHS[(self.month - 1) as usize],
            self.day,
            self.year
        )
    }

    /// `YYYY-MM-DD`.
    pub fn iso(self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl Serialize for Date {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.iso())
    }
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        _ => 28,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm); months
/// outside 1..=12 roll over like Java's lenient `Calendar`.
pub fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y0 = year + (month - 1).div_euclid(12);
    let m = (month - 1).rem_euclid(12) + 1;
    let y = if m <= 2 { y0 - 1 } else { y0 };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468 + (day - 1)
}

/// 0 = Sunday; 1970-01-01 was a Thursday.
fn weekday_of_day(days: i64) -> usize {
    (days + 4).rem_euclid(7) as usize
}

/// `java.util.Date.toString()` in a UTC JVM for `seconds` since the epoch:
/// `Mon Jan 01 00:00:00 UTC 2024` (how SnakeYAML's timestamps are rendered into the prompt).
pub fn util_date_utc(seconds: i64) -> String {
    let days = seconds.div_euclid(86_400);
    let rem = seconds.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{} {} {:02} {:02}:{:02}:{:02} UTC {}",
        &DAYS[weekday_of_day(days)][..3],
        MONTHS[(month - 1) as usize],
        day,
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        year
    )
}

/// Year, month, day of `days` since 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `String.compareTo` order: byte order for ASCII, UTF-16 code units past it, where a
    /// supplementary character (a surrogate pair) sorts before U+E000..U+FFFF.
    #[test]
    fn compare_to_is_utf16_order() {
        use std::cmp::Ordering::{Equal, Greater, Less};
        assert_eq!(compare_to("skills/a", "skills/b"), Less);
        assert_eq!(compare_to("Zeta", "alpha"), Less);
        assert_eq!(compare_to("ab", "a"), Greater);
        assert_eq!(compare_to("same", "same"), Equal);
        assert_eq!(compare_to("a\u{1F600}", "a\u{FF61}"), Less);
        assert_eq!("a\u{1F600}".cmp("a\u{FF61}"), Greater);
        assert_eq!(compare_to("z", "\u{e9}"), Less);
    }

    #[test]
    fn java_doubles() {
        for (d, s) in [
            (1.0, "1.0"),
            (100.0, "100.0"),
            (1e7, "1.0E7"),
            (9999999.0, "9999999.0"),
            (0.001, "0.001"),
            (0.00012, "1.2E-4"),
            (-2.5e-10, "-2.5E-10"),
            (123.456, "123.456"),
        ] {
            assert_eq!(double_to_string(d), s);
        }
    }

    #[test]
    fn parse_double_like_java() {
        assert_eq!(parse_double(" 0.5 "), Some(0.5));
        assert_eq!(parse_double("1e3d"), Some(1000.0));
        assert_eq!(parse_double("-Infinity"), Some(f64::NEG_INFINITY));
        assert!(parse_double("NaN").unwrap().is_nan());
        assert_eq!(parse_double("1."), Some(1.0));
        assert_eq!(parse_double(".5"), Some(0.5));
        for bad in ["", ".", "e5", "abc", "1,5", "0x1p3"] {
            assert_eq!(parse_double(bad), None, "{bad}");
        }
    }

    #[test]
    fn util_dates_in_utc() {
        assert_eq!(util_date_utc(0), "Thu Jan 01 00:00:00 UTC 1970");
        let days = days_from_civil(2024, 1, 1);
        assert_eq!(
            util_date_utc(days * 86_400 + 3_661),
            "Mon Jan 01 01:01:01 UTC 2024"
        );
        assert_eq!(util_date_utc(-1), "Wed Dec 31 23:59:59 UTC 1969");
        // Lenient months roll over into the next year.
        assert_eq!(days_from_civil(2023, 13, 1), days);
    }

    #[test]
    fn durations_like_java_time() {
        assert_eq!(parse_duration_seconds("PT30S"), Some(30));
        assert_eq!(parse_duration_seconds("pt1m30s"), Some(90));
        assert_eq!(parse_duration_seconds("P1D"), Some(86_400));
        assert_eq!(parse_duration_seconds("P1DT1H"), Some(90_000));
        assert_eq!(parse_duration_seconds("PT1.5S"), Some(1));
        assert_eq!(parse_duration_seconds("PT1,5S"), Some(1));
        assert_eq!(parse_duration_seconds("-PT-6H+3M"), Some(21_420));
        for bad in [
            "30s",
            "PT",
            "P",
            "P1Y",
            "PT1.1234567890S",
            "P1DT",
            "PTS",
            "PT1H1H",
            "P99999999999999999D",
            "1",
            "",
        ] {
            assert_eq!(parse_duration_seconds(bad), None, "{bad}");
        }
    }

    #[test]
    fn formats_like_the_jvm_in_english() {
        assert_eq!(
            Date::parse("2026-08-22").unwrap().java_text(),
            "Saturday Aug 22, 2026"
        );
        assert_eq!(
            Date::parse("2026-09-23").unwrap().java_text(),
            "Wednesday Sep 23, 2026"
        );
        assert_eq!(
            Date::parse("2024-02-29").unwrap().java_text(),
            "Thursday Feb 29, 2024"
        );
    }

    #[test]
    fn rejects_non_dates() {
        for bad in [
            "2026-02-30",
            "2026-13-01",
            "26-01-01",
            "2026-1-01",
            "x",
            "2026-01-01-01",
        ] {
            assert_eq!(Date::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn epoch_days() {
        assert_eq!(Date::from_days_since_epoch(0).iso(), "1970-01-01");
        assert_eq!(Date::from_days_since_epoch(20_687).iso(), "2026-08-22");
    }

    #[test]
    fn no_break_spaces_are_not_java_whitespace() {
        assert_eq!(strip("\u{00A0}x \t"), "\u{00A0}x");
        assert!(!is_blank("\u{202F}"));
        assert!(is_blank(" \t\r\n\u{1F}"));
        assert_eq!(trim("\u{1}x\u{20}"), "x");
        assert_eq!(trim_bounds(" \tab \n"), 2..4);
        assert_eq!(trim_bounds(" \n"), 2..2);
    }

    #[test]
    fn lines_like_java() {
        assert_eq!(lines("a\r\nb\rc\n"), vec!["a", "b", "c"]);
        assert_eq!(lines("a\n\n"), vec!["a", ""]);
        assert_eq!(lines(""), Vec::<&str>::new());
    }

    #[test]
    fn utf16_lengths() {
        assert_eq!(utf16_len("a😀"), 3);
        for s in [
            "",
            "ascii",
            "é",
            "€uro",
            "\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}",
        ] {
            assert_eq!(utf16_len(s), s.encode_utf16().count(), "{s:?}");
        }
    }
}
