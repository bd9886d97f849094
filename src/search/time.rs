//! Time budget: a soft limit (do not start another iteration after it) and a hard limit (abort the
//! search), from the clock of the side to move, always keeping a safety margin.

use super::Limits;
use crate::position::Side;
use std::time::Duration;

/// Kept in reserve: 30 ms plus 5% of what remains, so the engine never loses on time.
fn margin(remaining: Duration) -> Duration {
    Duration::from_millis(30) + remaining / 20
}

/// (soft, hard) limits for the side to move; None = no such limit. The soft limit comes from a
/// clock only: a fixed move time is a hard limit alone.
pub fn budget(limits: &Limits, side: Side) -> (Option<Duration>, Option<Duration>) {
    if limits.infinite {
        return (None, None);
    }
    let mut soft: Option<Duration> = None;
    let mut hard: Option<Duration> = None;
    if let Some(mt) = limits.movetime {
        // A fixed move time is spent fully, minus a small margin for answering: no soft limit
        // (which would stop before an iteration that might not end), only the hard one.
        let t = mt.saturating_sub(Duration::from_millis(10).min(mt / 10));
        hard = Some(t);
    }
    let (clock, inc) = if side == Side::White {
        (limits.wtime, limits.winc)
    } else {
        (limits.btime, limits.binc)
    };
    if let Some(remaining) = clock {
        let inc = inc.unwrap_or_default();
        let usable = remaining.saturating_sub(margin(remaining));
        // Long games in big variants: assume many moves still to come unless told.
        let mtg = limits.movestogo.unwrap_or(35).clamp(1, 60);
        let ideal = (usable / mtg + inc * 3 / 4).min(usable);
        let max = if mtg == 1 {
            usable
        } else {
            (ideal * 4).min(usable * 2 / 5).max(ideal)
        };
        soft = Some(soft.map_or(ideal, |s| s.min(ideal)));
        hard = Some(hard.map_or(max, |h| h.min(max)));
    }
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budget_keeps_margin() {
        let limits = Limits {
            wtime: Some(Duration::from_millis(1000)),
            ..Limits::default()
        };
        let (soft, hard) = budget(&limits, Side::White);
        let (soft, hard) = (soft.unwrap(), hard.unwrap());
        assert!(soft <= hard);
        assert!(hard <= Duration::from_millis(1000 - 80));
        let limits = Limits {
            btime: Some(Duration::from_millis(10)),
            ..Limits::default()
        };
        assert_eq!(budget(&limits, Side::Black).1, Some(Duration::ZERO));
        assert_eq!(
            budget(
                &Limits {
                    infinite: true,
                    ..limits
                },
                Side::Black
            ),
            (None, None)
        );
    }
}
