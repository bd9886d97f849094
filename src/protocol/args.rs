//! Numeric arguments from a GUI, parsed with bounds. A number beyond its range is clamped (and the
//! front end says so); text that is no number, or a number below what makes sense, is refused.
//! Either way the session goes on.

use std::time::Duration;

/// Largest transposition table a GUI may ask for (MB).
pub const MAX_HASH_MB: usize = 65536;
/// The transposition table's size when neither a flag nor the GUI has set one.
pub const DEFAULT_HASH_MB: usize = 16;
/// Most search threads a GUI may ask for.
pub const MAX_THREADS: usize = 256;
/// Deepest search a GUI may ask for (plies); the search has no use for more.
pub const MAX_DEPTH: u32 = 96;
/// Longest clock or thinking time a GUI may give: 100 days, beyond any real game, and far from
/// any overflow of the time arithmetic.
pub const MAX_TIME: Duration = Duration::from_secs(100 * 24 * 3600);
/// Most moves to the next time control.
pub const MAX_MOVES_TO_GO: u32 = 10_000;

/// What a bounded argument came to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Arg<T> {
    /// In range.
    Ok(T),
    /// Beyond the range: the nearest bound, to be used with a message.
    Clamped(T),
    /// Not a number, or below the range: refused.
    Bad,
}

impl<T: Copy> Arg<T> {
    pub fn is_clamped(self) -> bool {
        matches!(self, Arg::Clamped(_))
    }

    /// The value to use, clamped or not.
    pub fn value(self) -> Option<T> {
        match self {
            Arg::Ok(v) | Arg::Clamped(v) => Some(v),
            Arg::Bad => None,
        }
    }
}

/// A whole number in `min..=max`; more digits than any integer type holds count as beyond `max`.
pub fn integer(text: &str, min: i128, max: i128) -> Arg<i128> {
    let t = text.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Arg::Bad;
    }
    let n = t.parse::<i128>().unwrap_or(if t.starts_with('-') {
        i128::MIN
    } else {
        i128::MAX
    });
    if n < min {
        Arg::Bad
    } else if n > max {
        Arg::Clamped(max)
    } else {
        Arg::Ok(n)
    }
}

/// A count (hash MB, threads, depth, ...) in `min..=max`.
pub fn count<T: TryFrom<i128> + TryInto<i128> + Copy>(text: &str, min: T, max: T) -> Arg<T> {
    let conv = |n: i128| T::try_from(n).ok();
    let wide = |n: T| n.try_into().unwrap_or(i128::MAX);
    match integer(text, wide(min), wide(max)) {
        Arg::Ok(n) => conv(n).map_or(Arg::Bad, Arg::Ok),
        Arg::Clamped(n) => conv(n).map_or(Arg::Bad, Arg::Clamped),
        Arg::Bad => Arg::Bad,
    }
}

/// A time in `unit`s (milliseconds for UCI, centiseconds for XBoard's `time`): a negative time
/// (a clock that ran past zero) is zero; beyond [`MAX_TIME`] is clamped.
pub fn clock(text: &str, unit: Duration) -> Arg<Duration> {
    let unit = unit.as_nanos().max(1);
    let max = MAX_TIME.as_nanos() / unit;
    match integer(text, i128::MIN, max as i128) {
        Arg::Bad => Arg::Bad,
        // At most MAX_TIME in nanoseconds, which fits a u64.
        Arg::Ok(n) => Arg::Ok(Duration::from_nanos((n.max(0) as u128 * unit) as u64)),
        Arg::Clamped(_) => Arg::Clamped(MAX_TIME),
    }
}

/// Seconds, possibly with a fraction (`st 0.5`, the increment of `level`): more than zero when
/// `positive`, at least zero otherwise; beyond [`MAX_TIME`] (or infinite) is clamped.
pub fn seconds(text: &str, positive: bool) -> Arg<Duration> {
    let Ok(s) = text.trim().parse::<f64>() else {
        return Arg::Bad;
    };
    if s.is_nan() || s < 0.0 || (positive && s == 0.0) {
        Arg::Bad
    } else if s > MAX_TIME.as_secs_f64() {
        Arg::Clamped(MAX_TIME)
    } else {
        Arg::Ok(Duration::from_secs_f64(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_bounded() {
        assert_eq!(integer("12", 1, 100), Arg::Ok(12));
        assert_eq!(integer("+12", 1, 100), Arg::Ok(12));
        assert_eq!(integer("0", 1, 100), Arg::Bad);
        assert_eq!(integer("-3", 1, 100), Arg::Bad);
        assert_eq!(integer("101", 1, 100), Arg::Clamped(100));
        assert_eq!(
            integer("99999999999999999999999999999999999999999999", 1, 100),
            Arg::Clamped(100)
        );
        assert_eq!(
            integer("-99999999999999999999999999999999999999999", 1, 100),
            Arg::Bad
        );
        for bad in ["", "-", "1.5", "x", "12x", "1 2", "٣"] {
            assert_eq!(integer(bad, 1, 100), Arg::Bad, "{bad}");
        }
        assert_eq!(
            count::<usize>("99999999999", 1, MAX_HASH_MB),
            Arg::Clamped(MAX_HASH_MB)
        );
        assert_eq!(count::<u32>("7", 1, MAX_DEPTH), Arg::Ok(7));
    }

    #[test]
    fn clocks_are_bounded() {
        let ms = Duration::from_millis(1);
        assert_eq!(clock("1500", ms), Arg::Ok(Duration::from_millis(1500)));
        assert_eq!(clock("-20", ms), Arg::Ok(Duration::ZERO));
        assert_eq!(clock("99999999999999999999999", ms), Arg::Clamped(MAX_TIME));
        assert_eq!(
            clock("5000000000", ms),
            Arg::Ok(Duration::from_millis(5_000_000_000))
        );
        assert_eq!(clock("x", ms), Arg::Bad);
        assert_eq!(seconds("0.5", true), Arg::Ok(Duration::from_millis(500)));
        assert_eq!(seconds("0", true), Arg::Bad);
        assert_eq!(seconds("0", false), Arg::Ok(Duration::ZERO));
        assert_eq!(seconds("inf", true), Arg::Clamped(MAX_TIME));
        assert_eq!(seconds("1e300", true), Arg::Clamped(MAX_TIME));
        assert_eq!(seconds("NaN", true), Arg::Bad);
        assert_eq!(seconds("-1", true), Arg::Bad);
    }
}
