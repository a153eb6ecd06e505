//! YAML 1.1 scalar resolution (SnakeYAML `Resolver`), without regex: each matcher mirrors one
//! pattern of the resolver; then the constructors of each type as SnakeYAML and Jackson run them,
//! timestamps (`ConstructYamlTimestamp`) rendered like `java.util.Date.toString()` in UTC.
//!
//! Knows only the scalar's text: styles, tags and the tree are the parser's (`super`).

use super::value::Value;
use crate::syntax::java;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Resolved {
    Str,
    Null,
    Bool,
    Int,
    Float,
    Timestamp,
}

/// SnakeYAML's implicit resolvers, tried in registration order (BOOL, INT, FLOAT, MERGE, NULL,
/// TIMESTAMP) for the scalar's first character.
pub(super) fn resolve_yaml11(s: &str) -> Resolved {
    if s.is_empty() {
        return Resolved::Null;
    }
    let first = s.as_bytes()[0];
    if b"yYnNtTfFoO".contains(&first) && is_yaml11_bool(s) {
        return Resolved::Bool;
    }
    if b"-+0123456789".contains(&first) && is_yaml11_int(s) {
        return Resolved::Int;
    }
    if b"-+0123456789.".contains(&first) && is_yaml11_float(s) {
        return Resolved::Float;
    }
    if matches!(s, "~" | "null" | "Null" | "NULL") {
        return Resolved::Null;
    }
    if first.is_ascii_digit() && parse_timestamp(s).is_some() {
        return Resolved::Timestamp;
    }
    Resolved::Str
}

fn is_yaml11_bool(s: &str) -> bool {
    matches!(
        s,
        "yes"
            | "Yes"
            | "YES"
            | "no"
            | "No"
            | "NO"
            | "true"
            | "True"
            | "TRUE"
            | "false"
            | "False"
            | "FALSE"
            | "on"
            | "On"
            | "ON"
            | "off"
            | "Off"
            | "OFF"
    )
}

fn strip_sign(s: &str) -> (bool, &str) {
    match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    }
}

/// `_*[digits]+[digits_]*`: only digits and `_`, at least one digit.
fn digits_with_underscores(s: &str, digit: impl Fn(u8) -> bool) -> bool {
    s.bytes().all(|b| b == b'_' || digit(b)) && s.bytes().any(digit)
}

/// `(:[0-5]?[0-9])+` after a first part.
fn sexagesimal_tail(parts: &[&str]) -> bool {
    !parts.is_empty()
        && parts.iter().all(|p| {
            let b = p.as_bytes();
            match b.len() {
                1 => b[0].is_ascii_digit(),
                2 => (b'0'..=b'5').contains(&b[0]) && b[1].is_ascii_digit(),
                _ => false,
            }
        })
}

/// `[1-9][0-9_]*` (or `[0-9][0-9_]*` when `zero_ok`).
fn decimal_head(s: &str, zero_ok: bool) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && (if zero_ok {
            b[0].is_ascii_digit()
        } else {
            (b'1'..=b'9').contains(&b[0])
        })
        && b[1..].iter().all(|c| c.is_ascii_digit() || *c == b'_')
}

fn is_yaml11_int(s: &str) -> bool {
    let (_, r) = strip_sign(s);
    if let Some(bin) = r.strip_prefix("0b") {
        return digits_with_underscores(bin, |b| b == b'0' || b == b'1');
    }
    if let Some(hex) = r.strip_prefix("0x") {
        return digits_with_underscores(hex, |b| b.is_ascii_hexdigit());
    }
    if r == "0" {
        return true;
    }
    if let Some(oct) = r.strip_prefix('0') {
        return digits_with_underscores(oct, |b| (b'0'..=b'7').contains(&b));
    }
    if decimal_head(r, false) {
        return true;
    }
    let parts: Vec<&str> = r.split(':').collect();
    parts.len() > 1 && decimal_head(parts[0], false) && sexagesimal_tail(&parts[1..])
}

/// `[eE][-+]?[0-9]+`
fn is_exponent(s: &str) -> bool {
    let Some(rest) = s.strip_prefix(['e', 'E']) else {
        return false;
    };
    let rest = rest.strip_prefix(['-', '+']).unwrap_or(rest);
    !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit())
}

fn split_exponent(s: &str) -> (&str, Option<&str>) {
    match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i..])),
        None => (s, None),
    }
}

fn is_yaml11_float(s: &str) -> bool {
    if matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let (_, r) = strip_sign(s);
    if matches!(r, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    let frac_ok = |f: &str| f.bytes().all(|b| b.is_ascii_digit() || b == b'_');
    // [0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*
    if r.contains(':') {
        let Some((whole, frac)) = r.rsplit_once('.') else {
            return false;
        };
        let parts: Vec<&str> = whole.split(':').collect();
        return parts.len() > 1
            && decimal_head(parts[0], true)
            && sexagesimal_tail(&parts[1..])
            && frac_ok(frac);
    }
    let (mantissa, exp) = split_exponent(r);
    if let Some(exp) = exp {
        if !is_exponent(exp) {
            return false;
        }
    }
    match mantissa.split_once('.') {
        // [0-9][0-9_]*\.[0-9_]*(exp)?  |  \.[0-9_]+(exp)?
        Some(("", frac)) => !frac.is_empty() && frac_ok(frac),
        Some((whole, frac)) => decimal_head(whole, true) && frac_ok(frac),
        // [0-9][0-9_]*[eE][-+]?[0-9]+
        None => exp.is_some() && decimal_head(mantissa, true),
    }
}

pub(super) fn yaml11_bool(s: &str) -> Option<Value> {
    match s.to_ascii_lowercase().as_str() {
        "yes" | "true" | "on" => Some(Value::Bool(true)),
        "no" | "false" | "off" => Some(Value::Bool(false)),
        _ => None,
    }
}

/// `ConstructYamlInt`: `_` removed, then base by prefix, base 60 with `:`.
pub(super) fn yaml11_int(s: &str) -> Option<Value> {
    let cleaned: String = s.chars().filter(|c| *c != '_').collect();
    let (negative, r) = strip_sign(&cleaned);
    let magnitude = if r == "0" {
        vec![0]
    } else if let Some(bin) = r.strip_prefix("0b") {
        big_from_digits(bin, 2)?
    } else if let Some(hex) = r.strip_prefix("0x") {
        big_from_digits(hex, 16)?
    } else if let Some(oct) = r.strip_prefix('0') {
        big_from_digits(oct, 8)?
    } else if r.contains(':') {
        let mut acc = vec![0u32];
        for part in r.split(':') {
            let v: u32 = part.parse().ok()?;
            big_mul_add(&mut acc, 60, 0);
            big_mul_add(&mut acc, 1, v);
        }
        acc
    } else {
        big_from_digits(r, 10)?
    };
    Some(Value::Int(big_to_string(&magnitude, negative)))
}

pub(super) fn jackson_int(s: &str) -> Option<Value> {
    if s.contains(':') {
        return None;
    }
    yaml11_int(s)
}

pub(super) fn jackson_bool(s: &str) -> Option<Value> {
    match s.to_ascii_lowercase().as_str() {
        "true" => Some(Value::Bool(true)),
        "false" => Some(Value::Bool(false)),
        _ => None,
    }
}

pub(super) fn jackson_float(s: &str) -> Option<Value> {
    let cleaned: String = s.chars().filter(|c| *c != '_').collect();
    if cleaned.contains(':') || cleaned.to_ascii_lowercase().contains("inf") {
        return None;
    }
    let value: f64 = cleaned.parse().ok()?;
    value.is_finite().then(|| Value::Float {
        value,
        java: java::double_to_string(value),
    })
}

/// `ConstructYamlFloat`.
pub(super) fn yaml11_float(s: &str) -> Option<Value> {
    let cleaned: String = s.chars().filter(|c| *c != '_').collect();
    let (negative, r) = strip_sign(&cleaned);
    let sign = if negative { -1.0 } else { 1.0 };
    let lower = r.to_ascii_lowercase();
    let value = if lower == ".inf" {
        sign * f64::INFINITY
    } else if lower == ".nan" {
        f64::NAN
    } else if r.contains(':') {
        let mut val = 0.0;
        let mut bes = 1.0;
        for part in r.split(':').rev() {
            val += java::parse_double(part)? * bes;
            bes *= 60.0;
        }
        sign * val
    } else {
        sign * java::parse_double(r)?
    };
    Some(Value::Float {
        value,
        java: java::double_to_string(value),
    })
}

fn big_from_digits(s: &str, base: u32) -> Option<Vec<u32>> {
    if s.is_empty() {
        return None;
    }
    let mut acc = vec![0u32];
    for c in s.chars() {
        let d = c.to_digit(base)?;
        big_mul_add(&mut acc, base, d);
    }
    Some(acc)
}

/// Little-endian base-10^9 limbs: `acc = acc * mul + add`.
fn big_mul_add(acc: &mut Vec<u32>, mul: u32, add: u32) {
    const LIMB: u64 = 1_000_000_000;
    let mut carry = add as u64;
    for limb in acc.iter_mut() {
        let v = *limb as u64 * mul as u64 + carry;
        *limb = (v % LIMB) as u32;
        carry = v / LIMB;
    }
    while carry > 0 {
        acc.push((carry % LIMB) as u32);
        carry /= LIMB;
    }
}

fn big_to_string(limbs: &[u32], negative: bool) -> String {
    let mut out = String::new();
    let mut iter = limbs.iter().rev().skip_while(|l| **l == 0).peekable();
    if iter.peek().is_none() {
        return "0".to_string();
    }
    if negative {
        out.push('-');
    }
    let mut first = true;
    for limb in iter {
        if first {
            out.push_str(&limb.to_string());
            first = false;
        } else {
            out.push_str(&format!("{limb:09}"));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Timestamps (`ConstructYamlTimestamp`), rendered like `java.util.Date.toString()` in UTC.

struct Timestamp {
    year: i64,
    month: i64,
    day: i64,
    hour: i64,
    minute: i64,
    second: i64,
    /// Offset east of UTC in minutes.
    offset: i64,
}

fn take_digits(s: &str, min: usize, max: usize) -> Option<(i64, &str)> {
    let n = s
        .bytes()
        .take(max)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if n < min {
        return None;
    }
    Some((s[..n].parse().ok()?, &s[n..]))
}

fn parse_timestamp(s: &str) -> Option<Timestamp> {
    let (year, r) = take_digits(s, 4, 4)?;
    let r = r.strip_prefix('-')?;
    let (month, r) = take_digits(r, 1, 2)?;
    let r = r.strip_prefix('-')?;
    let (day, r) = take_digits(r, 1, 2)?;
    let mut ts = Timestamp {
        year,
        month,
        day,
        hour: 0,
        minute: 0,
        second: 0,
        offset: 0,
    };
    if r.is_empty() {
        // The date-only branch of the resolver wants exactly two digits each.
        return (s.len() == 10).then_some(ts);
    }
    let r = if let Some(rest) = r.strip_prefix(['T', 't']) {
        rest
    } else {
        let rest = r.trim_start_matches([' ', '\t']);
        if rest.len() == r.len() {
            return None;
        }
        rest
    };
    let (hour, r) = take_digits(r, 1, 2)?;
    let r = r.strip_prefix(':')?;
    let (minute, r) = take_digits(r, 2, 2)?;
    let r = r.strip_prefix(':')?;
    let (second, mut r) = take_digits(r, 2, 2)?;
    if let Some(rest) = r.strip_prefix('.') {
        r = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    let r = r.trim_start_matches([' ', '\t']);
    if r == "Z" {
        // UTC, the default.
    } else if let Some(rest) = r.strip_prefix(['+', '-']) {
        let negative = r.starts_with('-');
        let (hh, rest) = take_digits(rest, 1, 2)?;
        let mm = if let Some(rest) = rest.strip_prefix(':') {
            let (mm, rest) = take_digits(rest, 2, 2)?;
            if !rest.is_empty() {
                return None;
            }
            mm
        } else if rest.is_empty() {
            0
        } else {
            return None;
        };
        ts.offset = if negative {
            -(hh * 60 + mm)
        } else {
            hh * 60 + mm
        };
    } else if !r.is_empty() {
        return None;
    }
    ts.hour = hour;
    ts.minute = minute;
    ts.second = second;
    Some(ts)
}

pub(super) fn yaml11_timestamp(s: &str) -> Option<Value> {
    let ts = parse_timestamp(s)?;
    let seconds = java::days_from_civil(ts.year, ts.month, ts.day) * 86_400
        + ts.hour * 3600
        + ts.minute * 60
        + ts.second
        - ts.offset * 60;
    let java = java::util_date_utc(seconds);
    Some(Value::Date {
        source: s.to_string(),
        java,
    })
}
