//! Calendar arithmetic for server times (milliseconds since 1970, UTC: the same on the
//! server and in the browser, so a page renders the date the server would).

/// Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The first millisecond (UTC) of a `YYYY-MM-DD` date, as a date input gives it; `None` for
/// anything else. Howard Hinnant's days-from-civil, the inverse of `civil`.
pub fn day_start_ms(date: &str) -> Option<i64> {
    let mut parts = date.trim().splitn(3, '-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let d: i64 = parts.next()?.parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some((era * 146_097 + doe - 719_468) * 86_400_000)
}

/// A server time as (`YYYY-MM-DD`, `HH:MM`), UTC.
pub fn date_time(ms: i64) -> (String, String) {
    let s = ms.div_euclid(1000);
    let (y, m, d) = civil(s.div_euclid(86_400));
    let t = s.rem_euclid(86_400);
    (format!("{y:04}-{m:02}-{d:02}"), format!("{:02}:{:02}", t / 3600, t / 60 % 60))
}

#[cfg(test)]
mod tests {
    #[test]
    fn server_times_read_as_utc_dates() {
        let pair = |d: &str, t: &str| (d.to_string(), t.to_string());
        assert_eq!(super::date_time(0), pair("1970-01-01", "00:00"));
        assert_eq!(super::date_time(1_709_210_096_000), pair("2024-02-29", "12:34"));
    }

    #[test]
    fn a_date_starts_at_its_first_utc_millisecond_and_reads_back() {
        assert_eq!(super::day_start_ms("1970-01-01"), Some(0));
        assert_eq!(super::day_start_ms("2024-02-29"), Some(1_709_164_800_000));
        for ms in [0, 951_782_400_000, 1_709_210_096_000, 4_102_444_800_000] {
            let (date, _) = super::date_time(ms);
            let start = super::day_start_ms(&date).unwrap();
            assert!(start <= ms && ms < start + 86_400_000, "{date}: {start} for {ms}");
        }
        for bad in ["", "2024-13-01", "2024-02", "yesterday", "2024-02-00"] {
            assert_eq!(super::day_start_ms(bad), None, "{bad:?}");
        }
    }
}
