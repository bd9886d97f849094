//! Time budget: a soft limit (do not start another iteration after it) and a hard limit (abort the
//! search), from the clock of the side to move, always keeping a safety margin.

use super::Limits;
use crate::position::Side;
use std::time::Duration;

/// Kept in reserve: 30 ms plus 5% of what remains, so the engine never loses on time.
fn margin(remaining: Duration) -> Duration {
    Duration::from_millis(30) + remaining / 20
}

/// Moves assumed still to come when the clock does not say. Up to 40 men (the chess family,
/// shogi) 35; a game with more men to trade lasts longer: Chu Shogi's 92 plan for over 100
/// moves, so its early moves do not spend the clock that a 150-move game needs later.
pub fn moves_to_go(men: usize) -> u32 {
    (35 + men.saturating_sub(40) as u32 * 3 / 2).min(120)
}

/// (soft, hard) limits for the side to move, with `men` pieces on the board; None =
/// no such limit. The soft limit comes from a clock only: a fixed move time is a hard limit alone.
pub fn budget(limits: &Limits, side: Side, men: usize) -> (Option<Duration>, Option<Duration>) {
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
        let mtg = limits
            .movestogo
            .unwrap_or_else(|| moves_to_go(men))
            .clamp(1, 120);
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

/// The part of the soft limit after which no new iteration starts. Early iterations say little:
/// half. Later, a best move that took most of the root's nodes and has held for several
/// iterations stops sooner; one that took few, or just changed, may start one up to 1.1 of it
/// (the hard limit still bounds the move).
pub fn soft_share(best_fraction: f64, stable_iterations: usize, iteration: u32) -> f64 {
    if iteration < 6 {
        return 0.5;
    }
    const STABILITY: [f64; 4] = [1.25, 1.1, 1.0, 0.95];
    let effort = ((1.5 - best_fraction) * 1.35).clamp(0.6, 1.8);
    0.5 * effort * STABILITY[stable_iterations.min(3)]
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
        let (soft, hard) = budget(&limits, Side::White, 32);
        let (soft, hard) = (soft.unwrap(), hard.unwrap());
        assert!(soft <= hard);
        assert!(hard <= Duration::from_millis(1000 - 80));
        let limits = Limits {
            btime: Some(Duration::from_millis(10)),
            ..Limits::default()
        };
        assert_eq!(budget(&limits, Side::Black, 32).1, Some(Duration::ZERO));
        assert_eq!(
            budget(
                &Limits {
                    infinite: true,
                    ..limits
                },
                Side::Black,
                32
            ),
            (None, None)
        );
    }

    #[test]
    fn settled_best_moves_stop_sooner() {
        assert_eq!(soft_share(0.1, 0, 3), 0.5);
        let settled = soft_share(0.95, 3, 10);
        let unsettled = soft_share(0.2, 0, 10);
        assert!(settled < 0.5 && unsettled > 0.5, "{settled} {unsettled}");
        assert!(soft_share(0.0, 0, 10) <= 0.5 * 1.8 * 1.25 + 1e-9);
    }

    #[test]
    fn more_men_spread_the_clock_over_more_moves() {
        // Chess keeps its horizon; a 12x12 shogi start (92 men) plans for 113 moves, so its
        // first moves get about a third of chess's share of the clock.
        assert_eq!(moves_to_go(32), 35);
        assert_eq!(moves_to_go(40), 35);
        assert_eq!(moves_to_go(92), 113);
        assert_eq!(moves_to_go(400), 120);
        let limits = Limits {
            wtime: Some(Duration::from_secs(10)),
            ..Limits::default()
        };
        let chess = budget(&limits, Side::White, 32).0.unwrap();
        let chu = budget(&limits, Side::White, 92).0.unwrap();
        assert!(
            chu * 3 <= chess + Duration::from_millis(30),
            "{chu:?} {chess:?}"
        );
    }
}
