//! What XBoard needs to play a variant it does not know: a `setup` line (piece-to-char table,
//! board size, parent variant, start position) and a `piece` line with the XBetza moves of every
//! piece its slot does not already move right.

use crate::betza::Betza;
use crate::protocol::piece_to_char::{PieceToChar, slot};
use crate::variant::{PieceDef, Variant};

/// Variant names XBoard 4.9 knows itself; for these it ignores `setup` and uses its own board and
/// start, but still takes `piece` lines. (`fairy` is not among them: it is XBoard's name for a
/// game the engine defines, and XBoard reads its `setup`.)
const XBOARD_VARIANTS: &[&str] = &[
    "normal",
    "wildcastle",
    "nocastle",
    "fischerandom",
    "bughouse",
    "crazyhouse",
    "losers",
    "suicide",
    "giveaway",
    "twokings",
    "kriegspiel",
    "atomic",
    "3check",
    "shatranj",
    "shogi",
    "chu",
    "courier",
    "gothic",
    "capablanca",
    "knightmate",
    "cylinder",
    "falcon",
    "caparandom",
    "berolina",
    "janus",
    "super",
    "great",
    "twilight",
    "makruk",
    "seirawan",
    "grand",
    "spartan",
    "xiangqi",
    "asean",
    "elven",
];

fn same_betza(b: &Betza, text: &str) -> bool {
    crate::betza::parse(text).is_ok_and(|n| n.to_string() == b.to_string())
}

/// The `setup` and `piece` lines XBoard needs to play an engine-defined variant (the first engine's
/// lines define the board, the start position and every piece's moves). A variant XBoard knows by
/// name gets `piece` lines only, for its pieces that do not move as XBoard's orthodox ones.
pub fn setup_lines(v: &Variant) -> Vec<String> {
    if XBOARD_VARIANTS.contains(&v.xboard_name.as_str()) {
        return known_variant_piece_lines(v);
    }
    let shatranj_like = matches!(
        v.xboard_parent.as_str(),
        "shatranj" | "courier" | "makruk" | "asean"
    );
    // Under `chu` XBoard's slots move as Chu Shogi's pieces: every piece gets its line.
    let shogi_like = v.xboard_parent == "chu";
    let table = PieceToChar::of(v);
    // Holdings: one slot per kind that can be in hand (any but a royal piece).
    let holdings = if v.hand.hands {
        v.pieces.iter().filter(|p| !p.royal).count()
    } else {
        0
    };
    let mut lines = vec![format!(
        "setup ({}) {}x{}+{holdings}_{} {}",
        table.table,
        v.files,
        v.ranks,
        v.xboard_parent,
        v.start.fen()
    )];
    for (i, p) in v.pieces.iter().enumerate() {
        let is_king = Some(i) == table.king;
        // Pieces XBoard already moves right in their slot need no definition (as Fairy-Max does).
        let native = match table.slot_of[i] {
            _ if shogi_like => None,
            Some(slot::PAWN) => Some(if shatranj_like {
                "mfWcfF"
            } else {
                "fmWfceFifmnD"
            }),
            Some(slot::KNIGHT) => Some("N"),
            Some(slot::BISHOP) => Some("B"),
            Some(slot::ROOK) => Some("R"),
            Some(slot::QUEEN) => Some("Q"),
            None if is_king && shatranj_like => Some("K"),
            _ => None,
        };
        if native.is_some_and(|n| same_betza(&p.betza, n))
            || (table.slot_of[i].is_none() && !is_king)
        {
            continue;
        }
        lines.push(piece_line(&crate::piece::id::show(p.letter), p));
    }
    for p in &table.promoted {
        let id = format!("+{}", crate::piece::id::show(v.pieces[p.from].letter));
        lines.push(piece_line(&id, &v.pieces[p.like]));
    }
    lines
}

/// XBoard keeps its own board and pieces for a variant it knows, but takes a `piece` line for any
/// of them, as Fairy-Max redefines Berolina's pawn, Cylinder's wrapping pieces and Great
/// Shatranj's fairy pieces. Every piece gets one but an orthodox piece moving as in chess (the
/// pawn as in the variant's family, the royal piece as a king; castling is XBoard's own). A piece
/// with region rules is left to XBoard (a line cannot carry xiangqi's palace), and so are all of
/// `chu` and `shogi`, whose pieces promote by XBoard's rules, which a line would lose.
fn known_variant_piece_lines(v: &Variant) -> Vec<String> {
    if matches!(v.xboard_name.as_str(), "chu" | "shogi") {
        return Vec::new();
    }
    let pawn = if matches!(
        v.xboard_name.as_str(),
        "shatranj" | "courier" | "makruk" | "asean"
    ) {
        "mfWcfF"
    } else {
        "fmWfceFifmnD"
    };
    let r = &v.regions;
    let region_ruled = |l: char| {
        r.confine.iter().any(|c| c.0 == l)
            || r.moves.iter().chain(&r.along).any(|m| m.letter == l)
            || r.no_jump_over.iter().chain(&r.no_capture).any(|c| c.0 == l)
    };
    v.pieces
        .iter()
        .filter(|p| !region_ruled(p.letter))
        .filter(|p| {
            let native = match p.letter {
                _ if p.royal => "K",
                'P' => pawn,
                'N' => "N",
                'B' => "B",
                'R' => "R",
                'Q' => "Q",
                _ => return true,
            };
            let mut moves = p.betza.clone();
            if p.royal {
                moves.moves.retain(|m| !is_castling(m));
            }
            !same_betza(&moves, native)
        })
        .map(|p| piece_line(&crate::piece::id::show(p.letter), p))
        .collect()
}

fn is_castling(m: &crate::betza::Move) -> bool {
    matches!(m, crate::betza::Move::Chain(c) if c.atom == crate::betza::Atom::Castle)
}

/// The `piece` line giving XBoard the piece `id` with the moves of `moves`, or a comment saying
/// why XBoard's Betza cannot hold them.
fn piece_line(id: &str, moves: &PieceDef) -> String {
    match crate::betza::to_xboard(&moves.betza) {
        Ok(text) => format!("piece {id}& {text}"),
        Err(e) => format!("# piece {id} ({}) has no XBoard Betza: {e}", moves.name),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_promotion_to_a_kind_of_its_own_is_defined_as_xboards_promoted_form() {
        let v = crate::variant::builtin("wa-shogi").unwrap();
        let lines = super::setup_lines(&v);
        assert!(lines[0].contains(" 11x11+0_chu "), "{}", lines[0]);
        // The running rabbit becomes the treacherous fox: XBoard's `+R` moves like it.
        assert!(lines.contains(&"piece +R& FvWAvD".to_string()), "{lines:?}");
        assert!(lines.contains(&"piece +F& BvRsW".to_string()), "{lines:?}");
    }

    #[test]
    fn a_variant_xboard_knows_gets_lines_for_its_pieces_that_move_otherwise() {
        let lines = |name: &str| super::setup_lines(&crate::variant::builtin(name).unwrap());
        assert_eq!(lines("chess"), Vec::<String>::new());
        assert_eq!(lines("berolina"), ["piece P& fmFfceWifmnA"]);
        // The wrapping pieces, the king's castling kept.
        assert!(lines("cylinder").contains(&"piece K& oKisO2".to_string()));
        assert!(lines("cylinder").contains(&"piece N& oN".to_string()));
        // The palace and the river are XBoard's: the general, advisor, elephant and soldier have
        // region rules a line cannot carry; the horse and the cannon get theirs.
        assert_eq!(lines("xiangqi"), ["piece N& nN", "piece C& mRcpR"]);
        // Great Shatranj's pieces are not XBoard's own.
        assert!(lines("great").contains(&"piece G& KAD".to_string()));
        // XBoard's `fairy` is the engine's own game: it reads the `setup`.
        assert!(
            lines("fairy")[0].starts_with("setup ("),
            "{:?}",
            lines("fairy")
        );
    }
}
