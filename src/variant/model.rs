//! The validated variant: what the rest of acedrex reads. Only `variant::validate` builds it.

use crate::betza::Betza;
use crate::legs::Path;
use crate::setup::Setup;

/// A checked variant definition.
#[derive(Debug, Clone)]
pub struct Variant {
    /// Canonical name, e.g. `grant-acedrex`.
    pub name: String,
    /// Other names it answers to, e.g. `grande-acedrex`.
    pub aliases: Vec<String>,
    /// The name XBoard and Fairy-Max use (`grande-acedrex`); defaults to `name`.
    pub xboard_name: String,
    /// XBoard parent variant sent in `setup` (`shatranj` for Grant Acedrex, `fairy` by default).
    pub xboard_parent: String,
    /// One-line description.
    pub description: String,
    pub files: u8,
    pub ranks: u8,
    /// Regions, the pieces they confine or whose moves they change, and the facing-royals rule.
    pub regions: RegionRules,
    /// Piece types, in file order. A piece's index here is its type number everywhere else.
    pub pieces: Vec<PieceDef>,
    /// The start position, checked against the board and the pieces.
    pub start: Setup,
    pub promotion: Promotion,
    pub castling: CastlingRules,
    /// Whether a royal piece's initial moves (such as Grant Acedrex's king leap) are forbidden when in
    /// check or over an attacked square.
    pub royal_initial_moves_safe: bool,
    pub end: EndRules,
    pub dice: Option<Dice>,
    pub hand: HandRules,
    /// `start-shuffle`: the back-rank arrangements a game may start from instead of `start`.
    pub shuffle: Option<super::shuffle::Shuffle>,
    /// Where pieces with a promoted form (`promotes`) promote; `None` when none has one.
    pub piece_promotion: Option<PiecePromotion>,
    /// No move or drop may leave a piece where it could never move again (shogi's pawn, lance
    /// and knight on the last ranks): such a move must promote instead.
    pub immobile_forbidden: bool,
    /// `rights-by-file`: the kinds whose unmoved pieces on the back rank the rights field names by
    /// file letter (Fairy-Stockfish's `DEde`), read and written so.
    pub rights_by_file: Vec<char>,
    /// Evaluation parameters (`eval`); the default derives everything from the rules.
    pub eval: EvalWeights,
    /// `promotion-move`: pawns that promote by a move of their own (sittuyin's).
    pub promotion_move: Option<PromotionMove>,
}

/// `promotion-move LETTERS to L [on REGION] [last-anywhere] [limit N] [no-attack]`: instead of
/// moving, a piece of these kinds may become an `to`, staying on its square or making one of the
/// new kind's moves to an empty square (sittuyin's pawn becoming a general).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromotionMove {
    pub kinds: Vec<char>,
    pub to: char,
    /// Index in `regions.regions`: only from its side's copy of this region.
    pub region: Option<usize>,
    /// Anywhere all the same while it is its side's only piece of these kinds.
    pub last_anywhere: bool,
    /// Only while its side has fewer than this many of `to` on the board (0: no limit).
    pub limit: u16,
    /// Such a move may neither give check nor leave the new piece attacking an enemy piece.
    pub no_attack: bool,
}

/// The generic terms `eval TERM=PERCENT` scales, in the order [`EvalWeights::terms`] keeps them.
pub const EVAL_TERMS: &[&str] = &[
    "psq",
    "mobility",
    "king",
    "promotion",
    "threat",
    "unsafe",
    "passed",
    "attack",
    "shelter",
    "structure",
    "space",
    "pair",
];

/// `eval`: evaluation parameters fitted to games (`acedrex tune`), or written by hand. The default
/// (no `eval` line) is the evaluation derived from the rules alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalWeights {
    /// (piece letter, middlegame, endgame) material in centipawns, replacing the piece's `value`
    /// (or the value estimated from its mobility); never a royal piece.
    pub material: Vec<(char, i32, i32)>,
    /// Percent of each term of [`EVAL_TERMS`], 100 as derived: `psq` the square term derived from
    /// mobility per square, `mobility` the mobility weights, `king` the royal piece's square
    /// table, the danger near it and its pawn shield, `promotion` the value of pawn advancement,
    /// `threat` the bonus for enemy pieces attacked by lesser ones, `unsafe` what a destination
    /// an enemy pawn attacks counts for mobility (100: as any other, 0: nothing), `passed` the
    /// bonus of a pawn no enemy pawn stands ahead of on its file or the next ones, `attack` the
    /// bonus for an attack on the enemy royal piece's neighbourhood and for checks it cannot answer
    /// by a capture, `shelter` the own pawns in front of the royal piece and the enemy pawns
    /// storming it, `structure` the penalties of isolated and doubled pawns, `space` the safe
    /// central cells on the own side behind the own pawns while many pieces remain, `pair` the
    /// bonus for pieces of one colour-bound type on both colours (the bishop pair).
    pub terms: [i32; EVAL_TERMS.len()],
}

impl Default for EvalWeights {
    fn default() -> Self {
        EvalWeights {
            material: Vec::new(),
            terms: [100; EVAL_TERMS.len()],
        }
    }
}

impl EvalWeights {
    /// The percent of a term by name; None for a name not in [`EVAL_TERMS`].
    pub fn term(&self, name: &str) -> Option<i32> {
        EVAL_TERMS
            .iter()
            .position(|&t| t == name)
            .map(|i| self.terms[i])
    }

    /// The middlegame and endgame material given for a piece letter.
    pub fn material_of(&self, letter: char) -> Option<(i32, i32)> {
        self.material
            .iter()
            .find(|m| m.0 == letter)
            .map(|&(_, mg, eg)| (mg, eg))
    }

    /// The `eval` line that gives these weights (terms at 100 left out); None when every weight
    /// is the default.
    pub fn line(&self) -> Option<String> {
        let mut tokens: Vec<String> = self
            .material
            .iter()
            .map(|(l, mg, eg)| format!("{l}={mg}/{eg}"))
            .collect();
        for (name, &p) in EVAL_TERMS.iter().zip(&self.terms) {
            if p != 100 {
                tokens.push(format!("{name}={p}"));
            }
        }
        (!tokens.is_empty()).then(|| format!("eval {}", tokens.join(" ")))
    }
}

/// `piece-promotion`: a piece with a promoted form may promote on a move that starts or ends in
/// the zone; once promoted it does not promote again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PiecePromotion {
    /// Depth of the zone in ranks, from the far edge.
    pub zone: u8,
    /// Promotion is compulsory whenever it is possible.
    pub forced: bool,
    /// Only a capture promotes (micro shogi).
    pub on_capture: bool,
    /// A promoted piece turns back into what it was under the same rule, written `-` (Kyoto and
    /// micro shogi: with `forced`, pieces flip on every move that may).
    pub flip: bool,
    /// A move that does not capture promotes only as it enters the zone, from outside it; a
    /// capture as before, when it starts or ends there (Chu Shogi, as HaChu plays it).
    pub on_entry: bool,
}

/// Pieces in hand and how they enter the board.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HandRules {
    /// The game has hands: the start position has holdings (`[...]`), or captures go to hand.
    /// Whoever has a piece in hand may drop it on an empty square instead of moving.
    pub hands: bool,
    /// A captured piece changes side into the capturer's hand (else it leaves the game).
    pub captures_to_hand: bool,
    /// A captured promoted piece enters the hand as the pawn it was (crazyhouse); else as what it
    /// is (loop). Promoted pieces are marked `~` in FEN where this matters.
    pub demote: bool,
    /// Kinds that may be dropped only on some ranks: (letters, first, last), ranks from 1
    /// counted from the dropping side's own edge.
    pub drop_ranks: Vec<(Vec<char>, u8, u8)>,
    /// Kinds that may not be dropped on a file holding an own piece of the kind (shogi's nifu).
    pub one_per_file: Vec<char>,
    /// Kinds whose drop may not checkmate (shogi's pawn).
    pub no_mate: Vec<char>,
    /// A piece with a promoted form may also be dropped as that form (`+P@c3`, Kyoto shogi).
    pub drop_promoted: bool,
    /// No drop may give check (`drop-checks forbidden`, supply chess).
    pub drop_checks_forbidden: bool,
    /// `gating`: kinds in hand that may enter on the square a never-moved piece of the side's
    /// first rank leaves (Seirawan); for castling, the royal's or the partner's square.
    pub gate: Vec<char>,
    /// `gating ... pins-hold`: a pinned piece may not leave its pin's line by gating, though the
    /// gated piece would block the pin.
    pub gate_pins_hold: bool,
    /// Pieces in hand may be dropped (false with `gating` without `drops`: they enter only by
    /// gating).
    pub drops: bool,
    /// While a side holds pieces it must drop one if it can (`must-drop yes`, placement chess).
    pub must_drop: bool,
    /// `must-drop LETTERS`: the rule holds only while the side holds a piece of these kinds (then
    /// any drop will do; empty: every kind).
    pub must_drop_kinds: Vec<char>,
    /// Kinds whose pieces are dropped on both square colours (`drop-opposite-colours`).
    pub opposite_colours: Vec<char>,
    /// `drop-castling`: White's square (file, rank from 0) where a dropped castling piece stands
    /// unmoved, and the kinds that stand unmoved when dropped in that rank's corners.
    pub drop_castling: Option<((u8, u8), Vec<char>)>,
}

/// `initial-ranks`: the `i` moves of these kinds are theirs on a band of ranks, counted from the
/// side's own edge, whatever the piece did before (Fairy-Stockfish's rank-based double step).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitialRanks {
    pub kinds: Vec<char>,
    /// First and last rank of the band, from 0 (the side's first rank).
    pub first: u8,
    pub last: u8,
}

/// One piece type.
#[derive(Debug, Clone)]
pub struct PieceDef {
    /// Upper-case letter; White writes it upper case, Black lower case.
    pub letter: char,
    pub name: String,
    /// The Betza string as written in the file.
    pub betza_text: String,
    pub betza: Betza,
    /// The moves compiled to leg trees (White's view), once, by validation.
    pub paths: Vec<Path>,
    /// Losing every royal piece, or leaving one attacked, is what check and mate are about.
    pub royal: bool,
    /// Value in centipawns when the file gives one.
    pub value: Option<i32>,
    /// The kind it becomes when it promotes (`piece-promotion`); FEN writes that kind `+` and
    /// this letter.
    pub promotes: Option<char>,
}

/// Board regions and what they do (`region`, the piece flags `confine` and `in`, `facing-royals`).
#[derive(Debug, Clone, Default)]
pub struct RegionRules {
    pub regions: Vec<Region>,
    /// (piece letter, index in `regions`): the piece's moves end only inside its side's region.
    pub confine: Vec<(char, usize)>,
    /// Pieces that move by other Betza while they stand inside their side's region.
    pub moves: Vec<RegionMoves>,
    /// Two royal pieces may not face each other on a file with nothing between them (xiangqi's
    /// flying general): for the check test each attacks the other along it, as a rook would.
    pub facing_royals_forbidden: bool,
    /// Pieces with extra moves along a region (`along REGION BETZA`: janggi's palace diagonals).
    pub along: Vec<RegionMoves>,
    /// (piece letter, letters): its moves never pass over pieces of these kinds (janggi's cannon).
    pub no_jump_over: Vec<(char, Vec<char>)>,
    /// (piece letter, letters): it never captures pieces of these kinds.
    pub no_capture: Vec<(char, Vec<char>)>,
}

/// A named set of squares, given from White's side: Black's is its mirror across the middle rank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    pub name: String,
    /// White's squares as (file, rank) from 0.
    pub squares: Vec<(u8, u8)>,
}

impl Region {
    /// Whether (file, rank) lies in `side`'s copy of the region on a board of `ranks` ranks.
    pub fn contains(&self, side: crate::side::Side, sq: (u8, u8), ranks: u8) -> bool {
        let sq = match side {
            crate::side::Side::White => sq,
            crate::side::Side::Black => (sq.0, ranks - 1 - sq.1),
        };
        self.squares.contains(&sq)
    }
}

/// `in REGION BETZA`: the moves of a piece standing in the region.
#[derive(Debug, Clone)]
pub struct RegionMoves {
    pub letter: char,
    /// Index in `RegionRules::regions`.
    pub region: usize,
    pub betza_text: String,
    pub betza: Betza,
    pub paths: Vec<Path>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Promotion {
    /// Letters of the piece types that promote (pawns). They also reset the move-count draw.
    pub pawns: Vec<char>,
    /// Depth of the promotion zone in ranks, counted from the far edge (1 = last rank only).
    pub zone: u8,
    pub to: PromotionTarget,
    /// `promotion-optional yes`: a pawn moving in the zone may also stay a pawn (with `immobile
    /// forbidden`, not where it could never move again: grand chess's last rank).
    pub optional: bool,
    /// `promotion-limit`: (letter, N): a pawn may promote to this kind only while its side has
    /// fewer than N of it on the board (grand chess: only to a kind it has lost).
    pub limit: Vec<(char, u16)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromotionTarget {
    /// The player chooses one of these letters.
    Choice(Vec<char>),
    /// One letter per file (a, b, ...): the piece the pawn becomes on that file, no choice.
    ByFile(Vec<char>),
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CastlingRules {
    /// Whether the king may castle out of, through or into check (chess: no).
    pub through_check: bool,
    /// `castling-partner any`: the partner may stand on any file of the back rank, and the king and
    /// partner end where castling puts them from the start position (Chess960).
    pub any_file: bool,
    /// `castling-rook`: the partner is the outermost piece of this kind on the castling royal's
    /// rank, on either side (shako's rooks inside the elephants); else the pieces in the corners.
    pub rook: Option<char>,
    /// `castling-files`: the files (from 0) a castling royal piece lands on towards the a-file
    /// and towards the last file, for both colours alike; its `O` distance is then not used.
    pub files: Option<[u8; 2]>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BareKing {
    /// No bare-king rule.
    Off,
    /// A side left with only royal pieces loses at once.
    Immediate,
    /// A side left with only royal pieces (or none) wins at once; both bare: the side to move
    /// (losers).
    BaredWins,
    /// As `Immediate`, but if the bared side bares the opponent with its very next move, a draw.
    /// Against more than one piece besides the royal ones, it has lost at once.
    BareBack,
    /// A side left with only royal pieces draws at once (shatar's robado).
    Draw,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndRules {
    /// The result for the side that is stalemated (no legal move, not in check).
    pub stalemated: Outcome,
    /// Stalemate is decided by the piece count instead: fewer pieces wins, equal draws (suicide).
    pub stalemate_by_count: bool,
    /// The result for the side that is checkmated (losers: a win).
    pub checkmated: Outcome,
    pub bare_king: BareKing,
    /// Draw at this many occurrences of a position (None: off).
    pub repetition: Option<u8>,
    /// No move may repeat an earlier position (`repetition forbidden`, HaChu's Chu Shogi).
    pub repetition_forbidden: bool,
    /// Draw after this many plies without a capture or pawn move (None: off).
    pub move_count: Option<u16>,
    /// How royal pieces are lost when a side has several.
    pub royal_loss: RoyalLoss,
    /// A side loses when a kind listed here falls to `at_most` pieces.
    pub extinction: Option<Extinction>,
    /// A side wins when a piece of a goal kind stands on a goal square.
    pub goal: Option<Goal>,
    /// A side wins when it has given check this many times (None: off).
    pub checks_to_win: Option<u8>,
    /// Whether a move may give check (racing kings: no).
    pub giving_check: bool,
    /// A side that can capture must capture (the anti-chess family, losers). Kept with the end
    /// rules since it comes with them: it is what makes losing everything a goal.
    pub must_capture: bool,
    /// Kinds whose initial (`i`) moves depend on the rank they stand on, not on having moved
    /// (horde's pawns on the first rank).
    pub initial_ranks: Option<InitialRanks>,
    /// A side not in check may pass (`pass yes`).
    pub pass: bool,
    /// While the royal pieces face each other on an open file, every move but the pass must break
    /// the facing, and a pass then ends the game (janggi's bikjang).
    pub bikjang: bool,
    /// Points that decide the games ended by bikjang, two passes or the move count (else drawn).
    pub counting: Option<Counting>,
    /// Chu Shogi's Lion-trading rules (`lion-trade`).
    pub lion_trade: Option<LionTrade>,
    /// The series of checks that makes a checkmate count (`checkmate-series`).
    pub checkmate_series: Option<CheckmateSeries>,
    /// Kinds that turn the piece taking them into their kind (`contagion`).
    pub contagion: Option<Contagion>,
    /// The makruk family's counting (`honour-count`): a draw when the count reaches its limit.
    pub honour: Option<HonourCount>,
    /// A royal piece in check may move only to take the one piece giving check (makpong).
    pub royal_takes_checker: bool,
}

/// `lion-trade`: a piece of `kinds` may not take one of `kinds` standing on its destination from a
/// square not next to it when the destination is then attacked, unless it also took on its way a
/// piece not of `over`; and after a piece not of `kinds` takes one of them, the reply may not be
/// another such capture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LionTrade {
    pub kinds: Vec<char>,
    pub over: Vec<char>,
}

/// `contagion`: a piece that takes a piece of one of `kinds` on the square it moves to becomes a
/// piece of that kind of its own side, unless it is of that kind already or of a kind in `not_by`
/// (HaChu's werewolf, which a king takes and stays a king).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contagion {
    pub kinds: Vec<char>,
    pub not_by: Vec<char>,
}

/// `checkmate-series`: a checkmate given by pieces of `not_by` alone loses for the side that gave
/// it; any other counts only when a check by a piece of `kinds` stands in the unbroken series of
/// checks the mating side gave up to it (the mate included), and is a draw otherwise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckmateSeries {
    pub kinds: Vec<char>,
    pub not_by: Vec<char>,
}

/// `honour-count`: the counting of the makruk family, as Fairy-Stockfish 11.1 keeps it. After every
/// move the side to move is the counting side and its opponent the stronger one. No count runs
/// while the stronger side has a single piece left, nor (with `no_pawns`) while a pawn (a
/// `promotion` kind) stands on the board. A counting side with more than one piece counts the
/// board's honour (`board` moves, none when `None`); one with a single piece (its king) counts
/// the pieces' honour: the moves of the first condition the stronger side meets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HonourCount {
    /// The board's honour in moves.
    pub board: Option<u16>,
    /// No count while a pawn stands on the board.
    pub no_pawns: bool,
    /// The pieces' honour count starts at the number of pieces on the board, not at zero.
    pub from_pieces: bool,
    /// (pieces, moves): the stronger side has at least these (a letter repeated for two), in
    /// order; the empty list holds always.
    pub pieces: Vec<(Vec<(char, u16)>, u16)>,
}

/// `counting`: White wins when its points exceed Black's plus `bonus`, else Black wins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counting {
    pub points: Vec<(char, i32)>,
    pub bonus: i32,
}

impl Default for EndRules {
    /// The defaults of a file that gives no end rule.
    fn default() -> EndRules {
        EndRules {
            stalemated: Outcome::Draw,
            stalemate_by_count: false,
            checkmated: Outcome::Loss,
            bare_king: BareKing::Off,
            repetition: Some(3),
            repetition_forbidden: false,
            move_count: Some(100),
            royal_loss: RoyalLoss::Any,
            extinction: None,
            goal: None,
            checks_to_win: None,
            giving_check: true,
            must_capture: false,
            initial_ranks: None,
            pass: false,
            bikjang: false,
            counting: None,
            lion_trade: None,
            checkmate_series: None,
            contagion: None,
            honour: None,
            royal_takes_checker: false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoyalLoss {
    /// No move may leave any royal piece attacked; mate of any royal piece ends the game.
    Any,
    /// Only a side's last royal piece is protected by the check rule; it loses with that one.
    Last,
    /// As `Last`, but no move may leave two or more of a side's royal pieces attacked at once
    /// (Fairy-Max's "duple check" rule for royal types above 7: spartan's two kings).
    Duple,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extinction {
    /// Piece letters; a side loses when it has `at_most` or fewer of any one of them.
    pub kinds: Vec<char>,
    pub at_most: u16,
    /// `opponent-at-least M`: and only while the opponent has at least `M` of that kind (koedem:
    /// a side without kings loses once the opponent holds both).
    pub opponent_at_least: u16,
    /// `all`: the count is of the side's whole army, whatever the kinds (then `kinds` is empty).
    pub all: bool,
    /// The result for the extinct side: `Loss`, or `Win` in the anti-chess family.
    pub extinct: Outcome,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Goal {
    /// Piece letters that win by reaching a goal square.
    pub kinds: Vec<char>,
    /// Goal squares as (file, rank) from 0: the same for both sides, or White's when `mirrored`.
    pub squares: Vec<(u8, u8)>,
    /// The opponent gets one reply to reach a goal square too (then, with White to move, a draw).
    pub reply: bool,
    /// Black's goal squares are White's mirrored across the middle rank (dobutsu's far rank).
    pub mirrored: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dice {
    /// (face, piece letter): the rolled face selects the piece type that must move.
    pub faces: Vec<(u8, char)>,
    pub no_move: DiceNoMove,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiceNoMove {
    Reroll,
    Pass,
}

impl Variant {
    /// The letters of the kinds that have a promoted form.
    pub fn promotable(&self) -> Vec<char> {
        self.pieces
            .iter()
            .filter(|p| p.promotes.is_some())
            .map(|p| p.letter)
            .collect()
    }

    pub fn piece_index(&self, letter: char) -> Option<usize> {
        let up = letter.to_ascii_uppercase();
        self.pieces.iter().position(|p| p.letter == up)
    }
}
