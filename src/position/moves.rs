//! A move, with what it takes and whether it resets the move-count clock, so that search, rules and
//! front ends ask the move instead of the board.

use crate::geometry::{cell_of_index, square_index};
use crate::piece::{Kind, Piece};

/// How a move changes the board beyond lifting a piece from `from` and putting it on `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[repr(u8)]
pub enum MoveKind {
    #[default]
    Normal,
    /// Takes the piece on `extra` by moving to the en-passant square.
    EnPassant,
    /// The royal piece moves to `to`; the partner on `extra` goes next to it on the inner side.
    Castle,
    /// A lame leap that leaves en-passant rights on `extra`.
    SetsEp,
    /// A piece from the mover's hand enters on `to` (`from == to`); the kind is [`Move::dropped`].
    Drop,
    /// The side passes (`pass yes`): written as its royal piece's move to its own square.
    Pass,
    /// Takes the piece on `extra` on its way to `to` (a locust capture; the Lion's double move),
    /// and whatever stands on `to`. `to` may be `from` (igui: capture without moving). A move
    /// may take a second piece on its way (the Lion Dog's), on [`Move::locusts`]' second square.
    Locust,
}

/// The most pieces a move takes on its way (a locust capture each): the Lion Dog's two. Paths that
/// would take more are refused by `legs::compile`.
pub const MAX_LOCUSTS: usize = 2;

/// A move: from and to cells, an extra square (see [`MoveKind`]), a second square taken on the way,
/// the promotion, the piece it takes, its kind and flags, in ten bytes: move lists are the
/// generator's hot memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move {
    pub from: u16,
    pub to: u16,
    /// The extra square as a board index (`geometry::square_index`); 0 when unused.
    extra: u8,
    /// Promotion kind + 1, or for a drop the dropped kind + 1; 0: none.
    promo: u8,
    /// The `MoveKind` in the low three bits, then `INITIAL`, `PAWN`, `GATE`, `GATE_PARTNER` and
    /// `PROMOTED_DROP`.
    bits: u8,
    captured: Piece,
    /// A locust move's second square taken on its way, as a board index (with kind bits
    /// `LOCUST2`); 0 when unused.
    extra2: u8,
}

const KIND: u8 = 7;
/// The kind bits of a locust move that takes two pieces on its way (read as `MoveKind::Locust`).
const LOCUST2: u8 = 7;
/// The move comes from an initial-only path (the piece had never moved).
const INITIAL: u8 = 8;
/// The mover is a promoting kind (a pawn): the move resets the move-count clock.
const PAWN: u8 = 16;
/// A piece from the mover's hand enters the square the move leaves (`gating`); its kind is in
/// `promo`, as no gating move promotes.
const GATE: u8 = 32;
/// With `GATE` on a castling move: the piece enters the partner's square instead of the royal's.
const GATE_PARTNER: u8 = 64;
/// A drop puts the piece down as its promoted form (`drop-promoted`, `+P@c3`).
const PROMOTED_DROP: u8 = 128;

impl Move {
    #[inline(always)]
    pub const fn new(from: u16, to: u16, kind: MoveKind) -> Move {
        Move {
            from,
            to,
            extra: 0,
            promo: 0,
            bits: kind as u8,
            captured: Piece::EMPTY,
            extra2: 0,
        }
    }

    /// A drop of `kind` from the mover's hand onto `to`. Its `from` is `to`, so that tables indexed
    /// by from and to squares (history, the hash move) hold drops too.
    #[inline(always)]
    pub const fn drop(kind: Kind, to: u16) -> Move {
        Move {
            from: to,
            to,
            extra: 0,
            promo: kind.0 + 1,
            bits: MoveKind::Drop as u8,
            captured: Piece::EMPTY,
            extra2: 0,
        }
    }

    /// Sets the extra cell (a board cell: castling partner, e.p. victim, e.p. square; 0: none).
    #[inline(always)]
    pub const fn with_extra(mut self, extra: u16) -> Move {
        self.extra = if extra == 0 { 0 } else { square_index(extra) };
        self
    }

    /// A locust move that takes pieces on `first` and then `second` (path order) on its way.
    #[inline(always)]
    pub const fn locust(from: u16, to: u16, first: u16, second: Option<u16>) -> Move {
        let mut m = Move::new(from, to, MoveKind::Locust).with_extra(first);
        if let Some(s) = second {
            m.bits = (m.bits & !KIND) | LOCUST2;
            m.extra2 = square_index(s);
        }
        m
    }

    /// The extra cell (meaningful for castling and the two e.p. kinds).
    #[inline(always)]
    pub const fn extra(self) -> u16 {
        cell_of_index(self.extra)
    }

    #[inline(always)]
    pub const fn with_capture(mut self, captured: Piece) -> Move {
        self.captured = captured;
        self
    }

    #[inline(always)]
    pub const fn with_promotion(mut self, kind: Option<Kind>) -> Move {
        self.promo = match kind {
            Some(k) => k.0 + 1,
            None => 0,
        };
        self
    }

    /// Marks a drop that puts the piece down as its promoted form.
    #[inline(always)]
    pub const fn as_promoted(mut self) -> Move {
        self.bits |= PROMOTED_DROP;
        self
    }

    /// Whether a drop puts the piece down as its promoted form (`+P@c3`).
    #[inline(always)]
    pub const fn is_promoted_drop(self) -> bool {
        self.bits & PROMOTED_DROP != 0
    }

    /// Marks a move of an initial-only path.
    #[inline(always)]
    pub const fn initial_path(mut self, initial: bool) -> Move {
        if initial {
            self.bits |= INITIAL;
        }
        self
    }

    /// The move with a piece of `kind` from the hand entering the square it leaves (`gating`),
    /// for castling the royal piece's square or, with `on_partner`, the partner's.
    #[inline(always)]
    pub const fn with_gate(mut self, kind: Kind, on_partner: bool) -> Move {
        self.promo = kind.0 + 1;
        self.bits |= GATE;
        if on_partner {
            self.bits |= GATE_PARTNER;
        }
        self
    }

    /// The same move without its gated piece.
    #[inline(always)]
    pub const fn without_gate(mut self) -> Move {
        if self.bits & GATE != 0 {
            self.promo = 0;
            self.bits &= !(GATE | GATE_PARTNER);
        }
        self
    }

    /// The kind a gating move brings in from the hand.
    #[inline(always)]
    pub fn gated(self) -> Option<Kind> {
        if self.bits & GATE != 0 {
            self.promo.checked_sub(1).map(Kind)
        } else {
            None
        }
    }

    /// Whether a piece from the hand enters with the move (`gating`).
    #[inline(always)]
    pub const fn is_gating(self) -> bool {
        self.bits & GATE != 0
    }

    /// Where a gating move's piece enters: the square the mover leaves, or a castling partner's.
    #[inline(always)]
    pub fn gate_square(self) -> Option<u16> {
        if self.bits & GATE == 0 {
            None
        } else if self.bits & GATE_PARTNER != 0 {
            Some(self.extra())
        } else {
            Some(self.from)
        }
    }

    /// Whether a gating castling move puts its piece on the partner's square.
    #[inline(always)]
    pub const fn gates_partner(self) -> bool {
        self.bits & GATE_PARTNER != 0
    }

    /// Marks a move by a promoting kind.
    #[inline(always)]
    pub const fn by_pawn(mut self, pawn: bool) -> Move {
        if pawn {
            self.bits |= PAWN;
        }
        self
    }

    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.bits & KIND {
            0 => MoveKind::Normal,
            1 => MoveKind::EnPassant,
            2 => MoveKind::Castle,
            3 => MoveKind::SetsEp,
            4 => MoveKind::Drop,
            5 => MoveKind::Pass,
            _ => MoveKind::Locust, // 6, and 7 (`LOCUST2`)
        }
    }

    #[inline(always)]
    pub fn promotion(self) -> Option<Kind> {
        if self.is_drop() || self.bits & GATE != 0 {
            return None;
        }
        self.promo.checked_sub(1).map(Kind)
    }

    /// Whether the move drops a piece from the hand.
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.bits & KIND == MoveKind::Drop as u8
    }

    /// The kind a drop puts on the board.
    #[inline(always)]
    pub fn dropped(self) -> Option<Kind> {
        if self.is_drop() {
            self.promo.checked_sub(1).map(Kind)
        } else {
            None
        }
    }

    /// The promotion, the dropped or the gated kind: with the squares, what tells a move from its
    /// siblings (a drop's `from` is its `to`, which no promotion has; no gating move promotes).
    #[inline(always)]
    pub fn tag(self) -> Option<Kind> {
        self.promo.checked_sub(1).map(Kind)
    }

    /// The piece the move takes (`Piece::EMPTY` when none): on `to`, or on `extra` en passant.
    /// A locust move's victim on the way is not here: the board holds it until the move is made
    /// ([`Move::locust_at`]).
    #[inline(always)]
    pub const fn captured(self) -> Piece {
        self.captured
    }

    /// Where the taken piece stood.
    #[inline(always)]
    pub const fn captured_at(self) -> u16 {
        match self.kind() {
            MoveKind::EnPassant => self.extra(),
            _ => self.to,
        }
    }

    /// Where a locust move takes its (first) piece on its way.
    #[inline(always)]
    pub const fn locust_at(self) -> Option<u16> {
        match self.kind() {
            MoveKind::Locust => Some(self.extra()),
            _ => None,
        }
    }

    /// Where a locust move takes its second piece on its way, if it takes two.
    #[inline(always)]
    pub const fn locust2_at(self) -> Option<u16> {
        if self.bits & KIND == LOCUST2 {
            Some(cell_of_index(self.extra2))
        } else {
            None
        }
    }

    /// The squares a locust move takes pieces on, on its way, in path order (none for other
    /// moves).
    #[inline]
    pub fn locusts(self) -> impl Iterator<Item = u16> {
        [self.locust_at(), self.locust2_at()].into_iter().flatten()
    }

    /// Whether the move takes a piece (a locust move always does).
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        !self.captured.is_empty() || self.bits & KIND >= MoveKind::Locust as u8
    }

    /// A capture or a promotion: what quiescence searches.
    #[inline(always)]
    pub const fn is_tactical(self) -> bool {
        self.is_capture() || (self.promo != 0 && !self.is_drop() && self.bits & GATE == 0)
    }

    /// A pass made by stepping out and back (a Lion's `mabK`): back on its square, nothing taken,
    /// nothing promoted.
    #[inline]
    pub fn is_pass_in_place(self) -> bool {
        self.from == self.to
            && self.kind() == MoveKind::Normal
            && !self.is_capture()
            && self.promotion().is_none()
    }

    /// Whether the move came from an initial-only path.
    #[inline(always)]
    pub const fn is_initial(self) -> bool {
        self.bits & INITIAL != 0
    }

    /// Whether the move resets the move-count clock (a capture or a pawn move).
    #[inline(always)]
    pub const fn is_zeroing(self) -> bool {
        self.is_capture() || self.bits & PAWN != 0
    }

    /// Same destination, promotion, kind and path flag: two paths that made the same move.
    #[inline]
    pub fn same_target(self, other: Move) -> bool {
        const SAME: u8 = KIND | INITIAL | GATE | GATE_PARTNER | PROMOTED_DROP;
        (self.to, self.promo, self.bits & SAME) == (other.to, other.promo, other.bits & SAME)
            && (self.kind() != MoveKind::Locust
                || (self.extra, self.extra2) == (other.extra, other.extra2))
    }

    /// The same action on the board — squares, promotion, kind, path — whatever piece makes it
    /// and whatever it takes: how a killer from a sibling node is recognised.
    #[inline]
    pub fn same_action(self, other: Move) -> bool {
        (self.from, self.extra, self.extra2) == (other.from, other.extra, other.extra2)
            && self.same_target(other)
    }

    /// Same from, to and [`Move::tag`]: how a hash move is matched.
    #[inline(always)]
    pub fn same_squares(self, from: u16, to: u16, tag: Option<Kind>) -> bool {
        self.from == from && self.to == to && self.tag() == tag
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::side::Side;

    #[test]
    fn moves_stay_ten_bytes() {
        assert_eq!(std::mem::size_of::<Move>(), 10);
    }

    #[test]
    fn a_locust_move_names_one_or_two_squares_on_its_way() {
        use crate::geometry::cell;
        let (a, b, c, d) = (cell(4, 4), cell(4, 5), cell(4, 6), cell(4, 7));
        let one = Move::locust(a, d, b, None);
        assert_eq!(one.locusts().collect::<Vec<_>>(), vec![b]);
        assert_eq!((one.kind(), one.locust2_at()), (MoveKind::Locust, None));
        let two = Move::locust(a, d, b, Some(c));
        assert_eq!(two.locusts().collect::<Vec<_>>(), vec![b, c]);
        assert_eq!(two.kind(), MoveKind::Locust);
        assert!(two.is_capture() && two.is_tactical());
        assert!(!two.same_target(one) && !two.same_action(one));
        // A second square on a1 (index 0) is still a square.
        let corner = Move::locust(a, d, b, Some(cell(0, 0)));
        assert_eq!(corner.locust2_at(), Some(cell(0, 0)));
        assert!(Move::new(a, d, MoveKind::Normal).locusts().next().is_none());
    }

    #[test]
    fn a_move_answers_what_it_takes() {
        use crate::geometry::cell;
        let victim = Piece::new(Side::Black, Kind(3));
        let m = Move::new(cell(4, 4), cell(5, 5), MoveKind::EnPassant)
            .with_extra(cell(5, 4))
            .with_capture(victim)
            .by_pawn(true);
        assert!(m.is_capture() && m.is_zeroing() && m.is_tactical() && !m.is_initial());
        assert_eq!((m.captured(), m.captured_at()), (victim, cell(5, 4)));
        let q = Move::new(cell(4, 6), cell(4, 7), MoveKind::Normal).with_promotion(Some(Kind(5)));
        assert!(!q.is_capture() && !q.is_zeroing() && q.is_tactical());
        assert_eq!(q.promotion(), Some(Kind(5)));
        assert_eq!(q.captured_at(), cell(4, 7));
        let d = Move::drop(Kind(5), cell(4, 3));
        assert!(d.is_drop() && !d.is_capture() && !d.is_tactical());
        assert_eq!(
            (d.dropped(), d.promotion(), d.tag()),
            (Some(Kind(5)), None, Some(Kind(5)))
        );
        assert_eq!((d.from, d.captured_at()), (cell(4, 3), cell(4, 3)));
        assert_ne!(d.kind(), q.kind());
    }
}
