//! The parsed, unchecked variant file: every value as written, with its place. The parser guarantees
//! the shape of each statement (the right tokens, keywords from their lists, integers that fit); whether
//! the values make sense together (board sizes, FEN, letters, Betza) is `validate`'s job.

use super::diag::{Source, Span, Spanned};
use super::model::{BareKing, DiceNoMove, Outcome, RoyalLoss};
use std::collections::BTreeSet;
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct VariantSpec {
    pub source: Arc<Source>,
    pub name: Option<Spanned<String>>,
    /// Set until inheritance is resolved; a resolved (merged) spec has `None`.
    pub inherit: Option<Spanned<String>>,
    pub aliases: Vec<Spanned<String>>,
    pub xboard: Option<XboardSpec>,
    pub description: Option<Spanned<String>>,
    pub board: Option<BoardSpec>,
    /// `region` lines in file order (after merging: the parent's, replaced by name, then new ones).
    pub regions: Vec<RegionSpec>,
    /// `facing-royals`: `Some(false)` is `forbidden`.
    pub facing_royals: Option<Spanned<bool>>,
    /// In file order (after merging: parent order, replacements in place, additions at the end).
    pub pieces: Vec<PieceSpec>,
    pub start: Option<FenSpec>,
    pub promotion: Option<PromotionSpec>,
    /// `promotion-optional yes|no`.
    pub promotion_optional: Option<Spanned<bool>>,
    /// `promotion-limit LETTER=N...`.
    pub promotion_limit: Option<Vec<(Spanned<char>, u32)>>,
    pub castling_through_check: Option<Spanned<bool>>,
    pub royal_initial_moves_safe: Option<Spanned<bool>>,
    /// The outcome, and whether the piece count decides instead (`fewer-pieces-wins`).
    pub stalemate: Option<Spanned<(Outcome, bool)>>,
    pub checkmate: Option<Spanned<Outcome>>,
    pub bare_king: Option<Spanned<BareKing>>,
    /// `Some(None)` is `off` (and `forbidden`).
    pub repetition: Option<Spanned<Option<u32>>>,
    /// `repetition forbidden`: no move may repeat an earlier position (set with `repetition`).
    pub repetition_forbidden: bool,
    pub move_count: Option<Spanned<Option<u32>>>,
    pub dice: Option<DiceSpec>,
    pub royal_loss: Option<Spanned<RoyalLoss>>,
    pub extinction: Option<ExtinctionSpec>,
    pub goal: Option<GoalSpec>,
    pub checks_to_win: Option<Spanned<Option<u32>>>,
    pub giving_check: Option<Spanned<bool>>,
    /// `captures to-hand|removed`.
    pub captures_to_hand: Option<Spanned<bool>>,
    /// `promoted-captures demote|keep`.
    pub demote: Option<Spanned<bool>>,
    pub drop_ranks: Option<Vec<DropRanksSpec>>,
    pub must_capture: Option<Spanned<bool>>,
    pub extinction_result: Option<Spanned<Outcome>>,
    pub initial_ranks: Option<InitialRanksSpec>,
    /// `piece-promotion zone N [optional|forced] [on-capture] [flip] [on-entry]`.
    pub piece_promotion: Option<PiecePromotionSpec>,
    /// `drop-promoted yes|no`.
    pub drop_promoted: Option<Spanned<bool>>,
    /// `drop-checks allowed|forbidden`: `Some(false)` is `forbidden`.
    pub drop_checks: Option<Spanned<bool>>,
    /// `must-drop yes|no|LETTERS`.
    pub must_drop: Option<Spanned<bool>>,
    /// `must-drop LETTERS`: the kinds the rule is about (none: every kind).
    pub must_drop_kinds: Option<Spanned<String>>,
    /// `drop-opposite-colours LETTERS`.
    pub drop_opposite_colours: Option<Spanned<String>>,
    /// `drop-castling SQUARE LETTERS`.
    pub drop_castling: Option<DropCastlingSpec>,
    /// `immobile allowed|forbidden`: `Some(true)` is `forbidden`.
    pub immobile_forbidden: Option<Spanned<bool>>,
    /// `drop-one-per-file LETTERS`.
    pub drop_one_per_file: Option<Spanned<String>>,
    /// `drop-no-mate LETTERS`.
    pub drop_no_mate: Option<Spanned<String>>,
    /// `lion-trade LETTERS [over LETTERS]`.
    pub lion_trade: Option<LionTradeSpec>,
    /// `checkmate-series LETTERS [not-by LETTERS]`.
    pub checkmate_series: Option<CheckmateSeriesSpec>,
    /// `contagion LETTERS [not-by LETTERS]`.
    pub contagion: Option<ContagionSpec>,
    /// `rights-by-file LETTERS`.
    pub rights_by_file: Option<Spanned<String>>,
    /// `promotion-move LETTERS to L [on REGION] [last-anywhere] [limit N] [no-attack]`.
    pub promotion_move: Option<PromotionMoveSpec>,
    /// `royal-in-check moves|takes-checker`: `Some(true)` is `takes-checker`.
    pub royal_takes_checker: Option<Spanned<bool>>,
    /// `gating LETTERS [drops]`.
    pub gating: Option<GatingSpec>,
    /// `castling-partner corner|any`: `true` for `any`.
    pub castling_any: Option<Spanned<bool>>,
    /// `castling-rook LETTER`.
    pub castling_rook: Option<Spanned<String>>,
    /// `castling-files FIRST LAST`: the two file words as written.
    pub castling_files: Option<[Spanned<String>; 2]>,
    pub start_shuffle: Option<ShuffleSpec>,
    /// `pass yes|no`.
    pub pass: Option<Spanned<bool>>,
    /// `bikjang yes|no`.
    pub bikjang: Option<Spanned<bool>>,
    pub counting: Option<CountingSpec>,
    /// `honour-count ...`; `off` is `Some` with no conditions and no board's honour.
    pub honour: Option<HonourSpec>,
    /// `eval TOKEN...`: tuned evaluation parameters.
    pub eval: Option<EvalSpec>,
    /// Keys that were written but could not be parsed. Validation stays quiet about them (no "missing
    /// board" after a malformed `board` line), since the parser has already reported them.
    pub broken_keys: BTreeSet<&'static str>,
    /// Letters of `piece` lines that could not be parsed; treated as declared so that the FEN and
    /// promotion checks do not pile up follow-on errors.
    pub broken_pieces: BTreeSet<char>,
}

impl VariantSpec {
    pub fn empty(source: Arc<Source>) -> VariantSpec {
        VariantSpec {
            source,
            name: None,
            inherit: None,
            aliases: Vec::new(),
            xboard: None,
            description: None,
            board: None,
            regions: Vec::new(),
            facing_royals: None,
            pieces: Vec::new(),
            start: None,
            promotion: None,
            promotion_optional: None,
            promotion_limit: None,
            castling_through_check: None,
            royal_initial_moves_safe: None,
            stalemate: None,
            checkmate: None,
            bare_king: None,
            repetition: None,
            repetition_forbidden: false,
            move_count: None,
            dice: None,
            royal_loss: None,
            extinction: None,
            goal: None,
            checks_to_win: None,
            giving_check: None,
            captures_to_hand: None,
            demote: None,
            drop_ranks: None,
            must_capture: None,
            extinction_result: None,
            initial_ranks: None,
            piece_promotion: None,
            drop_promoted: None,
            drop_checks: None,
            must_drop: None,
            must_drop_kinds: None,
            drop_opposite_colours: None,
            drop_castling: None,
            immobile_forbidden: None,
            drop_one_per_file: None,
            drop_no_mate: None,
            lion_trade: None,
            checkmate_series: None,
            contagion: None,
            rights_by_file: None,
            promotion_move: None,
            royal_takes_checker: None,
            gating: None,
            castling_any: None,
            castling_rook: None,
            castling_files: None,
            start_shuffle: None,
            pass: None,
            bikjang: None,
            counting: None,
            honour: None,
            eval: None,
            broken_keys: BTreeSet::new(),
            broken_pieces: BTreeSet::new(),
        }
    }

    /// Where to point a diagnostic about something missing: the `variant` line, else line 1.
    pub fn anchor(&self) -> Span {
        match &self.name {
            Some(n) => Span {
                src: n.span.src.clone(),
                line: n.span.line,
                col: 1,
                len: 7,
            },
            None => Span {
                src: self.source.clone(),
                line: 1,
                col: 1,
                len: 1,
            },
        }
    }
}

#[derive(Clone, Debug)]
pub struct XboardSpec {
    pub name: Spanned<String>,
    pub parent: Option<Spanned<String>>,
}

#[derive(Clone, Debug)]
pub struct BoardSpec {
    pub files: Spanned<u32>,
    pub ranks: Spanned<u32>,
}

#[derive(Clone, Debug)]
pub struct PieceSpec {
    /// Always an upper-case ASCII letter (the parser checks).
    pub letter: Spanned<char>,
    /// `None` for `piece X -` (remove an inherited piece).
    pub body: Option<PieceBody>,
}

#[derive(Clone, Debug)]
pub struct PieceBody {
    pub name: Spanned<String>,
    pub betza: Spanned<String>,
    /// The place of the `royal` flag when given.
    pub royal: Option<Span>,
    pub value: Option<Spanned<i32>>,
    /// `confine REGION`: the piece's moves end only inside the region.
    pub confine: Option<Spanned<String>>,
    /// `in REGION BETZA`: standing inside the region, the piece moves by this Betza instead.
    pub region_moves: Option<(Spanned<String>, Spanned<String>)>,
    /// `promotes L`: the kind this one becomes when it promotes (written `+` and its own letter).
    pub promotes: Option<Spanned<char>>,
    /// `along REGION BETZA`: extra moves that start, pass and end on the region's cells.
    pub along: Option<(Spanned<String>, Spanned<String>)>,
    /// `no-jump-over LETTERS`: its moves never pass over pieces of these kinds.
    pub no_jump_over: Option<Spanned<String>>,
    /// `no-capture LETTERS`: it never captures pieces of these kinds.
    pub no_capture: Option<Spanned<String>>,
}

/// `region NAME SQUARES...`: White's squares; Black's are their mirror across the middle rank.
#[derive(Clone, Debug)]
pub struct RegionSpec {
    pub name: Spanned<String>,
    /// Squares and rectangles as written: `d1`, `d1-f3`.
    pub squares: Vec<Spanned<String>>,
}

/// The `start` FEN, split into its space-separated fields.
#[derive(Clone, Debug)]
pub struct FenSpec {
    pub fields: Vec<Spanned<String>>,
    /// The key, for errors about the FEN as a whole.
    pub key: Span,
}

#[derive(Clone, Debug)]
pub struct PromotionSpec {
    /// Letters of the promoting piece types, as one token (`P`, `PS`).
    pub pawns: Spanned<String>,
    pub zone: Option<Spanned<u32>>,
    pub target: PromotionTargetSpec,
}

#[derive(Clone, Debug)]
pub enum PromotionTargetSpec {
    Choice(Spanned<String>),
    ByFile(Spanned<String>),
}

#[derive(Clone, Debug)]
pub struct DiceSpec {
    /// (face, letter) as written in `8=K`.
    pub faces: Vec<(Spanned<u32>, Spanned<char>)>,
    pub no_move: Option<Spanned<DiceNoMove>>,
    pub key: Span,
}

#[derive(Clone, Debug)]
pub struct ExtinctionSpec {
    pub letters: Spanned<String>,
    pub at_most: Option<Spanned<u32>>,
    pub opponent_at_least: Option<Spanned<u32>>,
}

/// `start-shuffle LETTERS [opposite-colours LETTERS]... [between INNER OUTER]`.
#[derive(Clone, Debug)]
pub struct ShuffleSpec {
    pub letters: Spanned<String>,
    pub colours: Vec<Spanned<String>>,
    pub between: Option<(Spanned<String>, Spanned<String>)>,
}

/// `drop-castling SQUARE LETTERS`: where a dropped castling piece stands unmoved, and the kinds
/// that stand unmoved when dropped in that rank's corners.
#[derive(Clone, Debug)]
pub struct DropCastlingSpec {
    pub square: Spanned<String>,
    pub letters: Spanned<String>,
}

#[derive(Clone, Debug)]
pub struct DropRanksSpec {
    pub letters: Spanned<String>,
    pub first: Spanned<u32>,
    pub last: Spanned<u32>,
    /// The `FIRST-LAST` token.
    pub range: Span,
}

#[derive(Debug, Clone)]
pub struct GoalSpec {
    pub letters: Spanned<String>,
    /// Squares and rectangles as written: `d4`, `a8-h8`.
    pub regions: Vec<Spanned<String>>,
    pub reply: bool,
    pub mirrored: bool,
}

#[derive(Clone, Debug)]
pub struct InitialRanksSpec {
    pub letters: Spanned<String>,
    /// Ranks from 1, as written: `1-2` or `2`.
    pub first: Spanned<u32>,
    pub last: Spanned<u32>,
}

/// `piece-promotion zone N [optional|forced] [on-capture] [flip] [on-entry]`: where pieces with a
/// `promotes` kind promote, whether only by capturing, and whether promoted pieces turn back.
#[derive(Clone, Debug)]
pub struct PiecePromotionSpec {
    pub zone: Spanned<u32>,
    pub forced: bool,
    pub on_capture: bool,
    pub flip: bool,
    /// A move that does not capture promotes only as it enters the zone (Chu Shogi).
    pub on_entry: bool,
}

/// `promotion-move LETTERS to L [on REGION] [last-anywhere] [limit N] [no-attack]`.
#[derive(Clone, Debug)]
pub struct PromotionMoveSpec {
    pub kinds: Spanned<String>,
    pub to: Spanned<String>,
    pub region: Option<Spanned<String>>,
    pub last_anywhere: bool,
    pub limit: Option<Spanned<u32>>,
    pub no_attack: bool,
}

/// `gating LETTERS [drops] [pins-hold]`: pieces in hand that enter where a never-moved first-rank piece leaves.
#[derive(Clone, Debug)]
pub struct GatingSpec {
    /// The kinds in hand that may enter by gating.
    pub kinds: Spanned<String>,
    /// `drops`: pieces in hand may also be dropped.
    pub drops: bool,
    /// `pins-hold`: a pinned piece may not leave the line of its pin by gating, though the piece
    /// gated in would block it (Fairy-Stockfish's reading).
    pub pins_hold: bool,
}

/// `lion-trade LETTERS [over LETTERS]`: the kinds the trading rules protect, and the kinds whose
/// capture on the way does not allow a trade from afar.
#[derive(Clone, Debug)]
pub struct LionTradeSpec {
    pub kinds: Spanned<String>,
    pub over: Option<Spanned<String>>,
}

/// `checkmate-series LETTERS [not-by LETTERS]`: the kinds whose check makes a series of checks
/// mate, and the kinds that may not mate alone.
#[derive(Clone, Debug)]
pub struct CheckmateSeriesSpec {
    pub kinds: Spanned<String>,
    pub not_by: Option<Spanned<String>>,
}

/// `contagion LETTERS [not-by LETTERS]`: the kinds that turn their capturer into their kind, and
/// the kinds that stay what they are.
#[derive(Clone, Debug)]
pub struct ContagionSpec {
    pub kinds: Spanned<String>,
    pub not_by: Option<Spanned<String>>,
}

/// `honour-count [board N] [no-pawns] [from-pieces] PIECES=N...|off`.
#[derive(Debug, Clone)]
pub struct HonourSpec {
    pub board: Option<Spanned<u32>>,
    pub no_pawns: bool,
    pub from_pieces: bool,
    /// (letters, or `*`, with their span; moves).
    pub pieces: Vec<(Spanned<String>, u32)>,
    pub off: bool,
}

/// `counting LETTER=N... [bonus N]`: the points of each kind, and Black's bonus; `off`: no points.
#[derive(Clone, Debug)]
pub struct CountingSpec {
    /// (letter, points) as written, each with its token's place.
    pub points: Vec<(Spanned<char>, i32)>,
    pub bonus: i32,
}

/// `eval TOKEN...`: evaluation parameters, each token `L=MG/EG` (a piece's middlegame and endgame
/// material in centipawns) or `TERM=PERCENT` (a generic term scaled, 100 as derived).
#[derive(Clone, Debug)]
pub struct EvalSpec {
    /// (letter, middlegame, endgame) as written, the letter's place in its token.
    pub material: Vec<(Spanned<char>, i32, i32)>,
    /// (term, percent), the term's place in its token.
    pub terms: Vec<(Spanned<String>, i32)>,
}
