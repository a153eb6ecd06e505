//! The date the runtime prints: `LocalDate.now()` formatted with `EEEE MMM d, yyyy` in an English
//! JVM locale (`Saturday Aug 22, 2026`). Civil-date arithmetic only; depends on nothing.

use serde::{Serialize, Serializer};

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

    /// The date `days` days after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    pub fn from_days_since_epoch(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as i32;
        Date { year, month, day }
    }

    /// 0 = Sunday (Sakamoto's method).
    pub fn weekday(self) -> usize {
        const T: [i32; 12] = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4];
        let y = if self.month < 3 {
            self.year - 1
        } else {
            self.year
        };
        let w = (y + y / 4 - y / 100 + y / 400 + T[(self.month - 1) as usize] + self.day as i32)
            .rem_euclid(7);
        w as usize
    }

    /// `EEEE MMM d, yyyy` in English.
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
