//! [`VariantSpec`] → [`Variant`]: checks what the values mean, alone and together, and collects every
//! problem with the place it was written.

use super::diag::{Diagnostic, Span, Spanned};
use super::model::*;
use super::shuffle::Shuffle;
use super::spec::*;
use crate::betza;
use crate::legs::{self, Path};
use crate::piece::id;
use crate::setup::Setup;
use crate::side::Side;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// `drop-castling`: White's square (file, rank from 0) and the partner kinds.
type DropCastling = ((u8, u8), Vec<char>);

/// The largest board either way: square indices must fit a `u8` (16x16 = 256).
pub const MAX_BOARD: u32 = 16;
/// The most material `eval` may give a piece: the square tables hold `i16` centipawns.
pub const MAX_EVAL_MATERIAL: i32 = 20_000;
/// The largest scale of an `eval` term, in percent.
pub const MAX_EVAL_PERCENT: i32 = 1_000;

/// Validates a spec whose inheritance is already resolved (see `parse_variant`).
pub fn validate(spec: &VariantSpec) -> Result<Variant, Vec<Diagnostic>> {
    let mut v = Checker {
        spec,
        diags: Vec::new(),
    };
    let variant = v.run();
    match variant {
        Some(variant) if v.diags.is_empty() => Ok(variant),
        _ => Err(v.diags),
    }
}

struct Checker<'a> {
    spec: &'a VariantSpec,
    diags: Vec<Diagnostic>,
}

impl Checker<'_> {
    fn err(&mut self, span: &Span, message: impl Into<String>) {
        self.diags.push(span.error(message));
    }

    /// "`key` is missing", unless the key was written but broken (already reported).
    fn missing(&mut self, key: &str, message: &str) {
        if !self.spec.broken_keys.contains(key) {
            let at = self.spec.anchor();
            self.err(&at, message);
        }
    }

    fn run(&mut self) -> Option<Variant> {
        let spec = self.spec;
        if let Some(inherit) = &spec.inherit {
            self.err(
                &inherit.span,
                "internal: `inherit` must be resolved before validation: expected a merged spec",
            );
        }
        if spec.name.is_none() {
            self.missing(
                "variant",
                "no `variant` line: expected `variant NAME` naming this variant",
            );
        }
        let board = self.board();
        let pieces = self.pieces(board);
        let declared: BTreeSet<char> = spec
            .pieces
            .iter()
            .filter(|p| p.body.is_some())
            .map(|p| p.letter.value)
            .chain(spec.broken_pieces.iter().copied())
            .collect();
        let royals = self.royals();
        let start = self.start(board, &declared, &royals);
        let promotion = self.promotion(board, &declared);
        let repetition = self.count_or_off(
            &spec.repetition,
            3,
            2,
            u8::MAX.into(),
            "repetition",
            "occurrences",
        );
        let move_count = self.count_or_off(
            &spec.move_count,
            100,
            1,
            u16::MAX.into(),
            "move-count",
            "plies",
        );
        let dice = self.dice(&declared);
        let extinction = self.extinction(&declared);
        let goal = self.goal(board, &declared);
        let checks_to_win = self.checks_to_win(&royals);
        let hand = self.hand(board, &declared, start.as_ref());
        let regions = self.region_rules(board, &royals, &declared);
        let initial_ranks = self.initial_ranks(board, &declared);
        let piece_promotion = self.piece_promotion(board, &declared);
        let shuffle = self.shuffle(&declared, start.as_ref());
        let counting = self.pass_rules(&royals, &declared);
        let lion_trade = self.lion_trade(&declared);
        let checkmate_series = self.checkmate_series(&declared);
        let contagion = self.contagion(&declared);
        let honour = self.honour(&declared);
        let castling_rook = match &spec.castling_rook {
            Some(l) if l.value.chars().count() != 1 => {
                self.err(
                    &l.span,
                    format!(
                        "`{}` names {} pieces: expected one piece letter, e.g. `castling-rook R`",
                        l.value,
                        l.value.chars().count()
                    ),
                );
                None
            }
            Some(l) => self
                .letters(l, &declared, "castling-rook piece")
                .map(|v| v.first().copied()),
            None => Some(None),
        };
        let castling_files = self.castling_files(board, pieces.as_deref());
        let promotion_move = self.promotion_move(&declared);
        let rights_by_file = match &spec.rights_by_file {
            Some(l) => self.letters(l, &declared, "rights-by-file pieces"),
            None => Some(Vec::new()),
        };
        if let Some(r) = &spec.royal_takes_checker
            && r.value
            && royals.is_empty()
        {
            self.err(
                &r.span,
                "`royal-in-check takes-checker` without a royal piece: expected a piece type flagged `royal`",
            );
        }
        let eval = self.eval(&declared, &royals);

        let name = spec.name.as_ref()?.value.clone();
        let (files, ranks) = board?;
        let xboard = spec.xboard.as_ref();
        let mut variant = Variant {
            xboard_name: xboard.map_or_else(|| name.clone(), |x| x.name.value.clone()),
            xboard_parent: xboard
                .and_then(|x| x.parent.as_ref())
                .map_or_else(|| "fairy".to_string(), |p| p.value.clone()),
            name,
            aliases: spec.aliases.iter().map(|a| a.value.clone()).collect(),
            description: spec
                .description
                .as_ref()
                .map(|d| d.value.clone())
                .unwrap_or_default(),
            files,
            ranks,
            pieces: pieces?,
            start: start?,
            promotion: promotion?,
            castling: CastlingRules {
                through_check: spec
                    .castling_through_check
                    .as_ref()
                    .is_some_and(|c| c.value),
                any_file: spec.castling_any.as_ref().is_some_and(|c| c.value),
                rook: castling_rook?,
                files: castling_files?,
            },
            royal_initial_moves_safe: spec
                .royal_initial_moves_safe
                .as_ref()
                .is_some_and(|c| c.value),
            end: EndRules {
                stalemated: spec.stalemate.as_ref().map_or(Outcome::Draw, |s| s.value.0),
                stalemate_by_count: spec.stalemate.as_ref().is_some_and(|s| s.value.1),
                checkmated: spec.checkmate.as_ref().map_or(Outcome::Loss, |s| s.value),
                bare_king: spec.bare_king.as_ref().map_or(BareKing::Off, |s| s.value),
                repetition: repetition?.map(|n| n as u8),
                repetition_forbidden: spec.repetition_forbidden,
                move_count: move_count?.map(|n| n as u16),
                royal_loss: spec.royal_loss.as_ref().map_or(RoyalLoss::Any, |r| r.value),
                extinction: extinction?,
                goal: goal?,
                checks_to_win: checks_to_win?,
                giving_check: spec.giving_check.as_ref().is_none_or(|g| g.value),
                must_capture: spec.must_capture.as_ref().is_some_and(|m| m.value),
                initial_ranks: initial_ranks?,
                pass: spec.pass.as_ref().is_some_and(|p| p.value),
                bikjang: spec.bikjang.as_ref().is_some_and(|b| b.value),
                counting: counting?,
                lion_trade: lion_trade?,
                checkmate_series: checkmate_series?,
                contagion: contagion?,
                honour: honour?,
                royal_takes_checker: spec.royal_takes_checker.as_ref().is_some_and(|r| r.value),
            },
            dice: dice?,
            hand: hand?,
            shuffle: shuffle?,
            regions: regions?,
            piece_promotion: piece_promotion?,
            immobile_forbidden: spec.immobile_forbidden.as_ref().is_some_and(|i| i.value),
            rights_by_file: rights_by_file?,
            eval: eval?,
            promotion_move: promotion_move?,
        };
        // XBoard promotes shogi-style (`+`, the promoted forms given as `^X`) under `chu`; the
        // games with hands keep `fairy`.
        if xboard.is_none_or(|x| x.parent.is_none())
            && variant.piece_promotion.is_some()
            && !variant.hand.hands
        {
            variant.xboard_parent = "chu".to_string();
        }
        Some(variant)
    }

    /// `promotes` and `piece-promotion` need each other; a promoted form is a declared piece other
    /// than the promoting one, and a chess-style promoting pawn has no promoted form as well.
    fn piece_promotion(
        &mut self,
        board: Option<(u8, u8)>,
        declared: &BTreeSet<char>,
    ) -> Option<Option<PiecePromotion>> {
        let spec = self.spec;
        let before = self.diags.len();
        let pawns = spec.promotion.as_ref().map(|p| p.pawns.value.clone());
        let mut any = None;
        for p in &spec.pieces {
            // `+L` names L's promoted form: L must promote to it.
            if let Some(base) = id::base(p.letter.value)
                && p.body.is_some()
            {
                let promotes = spec
                    .pieces
                    .iter()
                    .find(|q| q.letter.value == base)
                    .and_then(|q| q.body.as_ref())
                    .and_then(|b| b.promotes.as_ref())
                    .map(|l| l.value);
                if promotes != Some(p.letter.value) {
                    self.err(&p.letter.span, format!("piece +{base} is the promoted form of {base}, but no piece {base} promotes to it: expected `piece {base} ... promotes +{base}`"));
                }
            }
            let Some(to) = p.body.as_ref().and_then(|b| b.promotes.as_ref()) else {
                continue;
            };
            any.get_or_insert(to.span.clone());
            let letter = id::show(p.letter.value);
            if to.value == p.letter.value {
                self.err(
                    &to.span,
                    format!("piece {letter} promotes to itself: expected another piece's letter"),
                );
            } else if !declared.contains(&to.value) {
                let list: String = declared
                    .iter()
                    .map(|&c| format!(" {}", id::show(c)))
                    .collect();
                self.err(&to.span, format!("piece {letter} promotes to `{}`, which is not a declared piece: expected one of{list}", id::show(to.value)));
            }
            if pawns.as_ref().is_some_and(|l| l.contains(p.letter.value)) {
                self.err(&to.span, format!("piece {letter} is a promoting pawn of `promotion` and has a promoted form too: expected one of the two"));
            }
        }
        match (&spec.piece_promotion, any) {
            (None, None) => Some(None),
            (None, Some(at)) => {
                self.err(&at, "`promotes` without a `piece-promotion` line: expected `piece-promotion zone N` saying where pieces promote");
                None
            }
            (Some(pp), None) => {
                self.err(&pp.zone.span, "`piece-promotion` but no piece has a promoted form: expected `promotes LETTER` on some piece line");
                None
            }
            (Some(pp), Some(_)) => {
                let ranks = board.map_or(MAX_BOARD, |(_, r)| u32::from(r));
                if !(1..=ranks).contains(&pp.zone.value) {
                    self.err(&pp.zone.span, format!("a promotion zone of {} ranks: expected 1 to {ranks}, counted from the far edge", pp.zone.value));
                }
                (self.diags.len() == before).then_some(Some(PiecePromotion {
                    zone: pp.zone.value as u8,
                    forced: pp.forced,
                    on_capture: pp.on_capture,
                    flip: pp.flip,
                    on_entry: pp.on_entry,
                }))
            }
        }
    }

    /// Hands exist when the start position has holdings or captures go to hand; the other hand
    /// keys need them.
    fn hand(
        &mut self,
        board: Option<(u8, u8)>,
        declared: &BTreeSet<char>,
        start: Option<&Setup>,
    ) -> Option<HandRules> {
        let spec = self.spec;
        let captures_to_hand = spec.captures_to_hand.as_ref().is_some_and(|c| c.value);
        let hands = captures_to_hand || start.is_some_and(|s| s.hands.is_some());
        let before = self.diags.len();
        if let Some(d) = &spec.demote
            && !captures_to_hand
        {
            self.err(
                &d.span,
                "`promoted-captures` without `captures to-hand`: expected `captures to-hand` for captured pieces to reach a hand",
            );
        }
        let mut drop_ranks = Vec::new();
        for d in spec.drop_ranks.iter().flatten() {
            if !hands {
                self.err(
                    &d.letters.span,
                    "`drop-ranks` in a game without hands: expected `captures to-hand` or holdings (`[...]`) in the start position",
                );
            }
            let letters = self.letters(&d.letters, declared, "drop-ranks pieces");
            let ranks = board.map_or(MAX_BOARD, |(_, r)| u32::from(r));
            for r in [&d.first, &d.last] {
                if !(1..=ranks).contains(&r.value) {
                    self.err(
                        &r.span,
                        format!(
                            "rank {}: expected 1 to {ranks}, counted from the dropping side",
                            r.value
                        ),
                    );
                }
            }
            if d.first.value > d.last.value {
                self.err(
                    &d.range,
                    format!(
                        "the rank range {}-{} is empty: expected the nearer rank first, e.g. `2-7`",
                        d.first.value, d.last.value
                    ),
                );
            }
            drop_ranks.extend(letters.map(|l| (l, d.first.value as u8, d.last.value as u8)));
        }
        if let Some(s) = start
            && !captures_to_hand
            && let Some(p) = s.squares().map(|(_, p)| p).find(|p| p.promoted)
        {
            let at = spec
                .start
                .as_ref()
                .map(|f| f.fields[0].span.sub(p.at + 1, 1));
            if let Some(at) = at {
                self.err(
                    &at,
                    "`~` (a promoted piece that goes back to hand demoted) in a game whose captures do not go to hand: expected `captures to-hand`",
                );
            }
        }
        let mut drop_letters = |l: &Option<Spanned<String>>, key: &str| -> Vec<char> {
            let Some(l) = l else { return Vec::new() };
            if !hands {
                self.err(&l.span, format!("`{key}` in a game without hands: expected `captures to-hand` or holdings (`[...]`) in the start position"));
            }
            self.letters(l, declared, &format!("{key} pieces"))
                .unwrap_or_default()
        };
        let one_per_file = drop_letters(&spec.drop_one_per_file, "drop-one-per-file");
        let no_mate = drop_letters(&spec.drop_no_mate, "drop-no-mate");
        let gate = spec
            .gating
            .as_ref()
            .map(|g| drop_letters(&Some(g.kinds.clone()), "gating"))
            .unwrap_or_default();
        let opposite_colours = drop_letters(&spec.drop_opposite_colours, "drop-opposite-colours");
        let must_drop_kinds = drop_letters(&spec.must_drop_kinds, "must-drop");
        let drop_castling = self.drop_castling(board, declared, hands);
        let mut needs_hands = |key: &Option<Spanned<bool>>, name: &str| {
            if let Some(k) = key
                && !hands
            {
                self.err(&k.span, format!("`{name}` in a game without hands: expected `captures to-hand` or holdings (`[...]`) in the start position"));
            }
        };
        needs_hands(&spec.drop_promoted, "drop-promoted");
        needs_hands(&spec.drop_checks, "drop-checks");
        needs_hands(&spec.must_drop, "must-drop");
        let drop_promoted = spec.drop_promoted.as_ref().is_some_and(|d| d.value);
        if let Some(d) = &spec.drop_promoted
            && d.value
            && !spec
                .pieces
                .iter()
                .any(|p| p.body.as_ref().is_some_and(|b| b.promotes.is_some()))
        {
            self.err(&d.span, "`drop-promoted yes` but no piece has a promoted form: expected `promotes LETTER` on some piece line");
        }
        let drops = spec.gating.as_ref().is_none_or(|g| g.drops);
        let gate_pins_hold = spec.gating.as_ref().is_some_and(|g| g.pins_hold);
        (self.diags.len() == before).then(|| HandRules {
            hands,
            captures_to_hand,
            demote: captures_to_hand && spec.demote.as_ref().is_none_or(|d| d.value),
            drop_ranks,
            one_per_file,
            no_mate,
            drop_promoted,
            drop_checks_forbidden: spec.drop_checks.as_ref().is_some_and(|d| !d.value),
            gate,
            gate_pins_hold,
            drops,
            must_drop: spec.must_drop.as_ref().is_some_and(|d| d.value),
            must_drop_kinds,
            opposite_colours,
            drop_castling: drop_castling.flatten(),
        })
    }

    /// `castling-files FIRST LAST`: two file letters on the board, the a-side one first, in a
    /// game where some piece castles, without `castling-partner any` (which places the royal piece
    /// by its `O` distance). `None` when it is wrong (reported), `Some(None)` when absent.
    fn castling_files(
        &mut self,
        board: Option<(u8, u8)>,
        pieces: Option<&[PieceDef]>,
    ) -> Option<Option<[u8; 2]>> {
        let Some(words) = self.spec.castling_files.clone() else {
            return Some(None);
        };
        let before = self.diags.len();
        let mut files = [0u8; 2];
        for (i, w) in words.iter().enumerate() {
            let mut chars = w.value.chars();
            match (chars.next(), chars.next()) {
                (Some(c @ 'a'..='z'), None) => {
                    let f = c as u8 - b'a';
                    if let Some((n, _)) = board
                        && f >= n
                    {
                        self.err(
                            &w.span,
                            format!(
                                "file `{c}` is off a board of {n} files: expected a file from `a` to `{}`",
                                (b'a' + n - 1) as char
                            ),
                        );
                    }
                    files[i] = f;
                }
                _ => self.err(
                    &w.span,
                    format!(
                        "`{}` is not a file: expected one file letter, e.g. `castling-files b i`",
                        w.value
                    ),
                ),
            }
        }
        if self.diags.len() == before && files[0] >= files[1] {
            self.err(
                &words[1].span,
                format!(
                    "file `{}` is not beyond `{}`: expected the a-side file first, e.g. `castling-files b i`",
                    words[1].value, words[0].value
                ),
            );
        }
        if let Some(pieces) = pieces
            && !pieces
                .iter()
                .any(|p| p.paths.iter().any(|x| matches!(x, Path::Castle { .. })))
        {
            self.err(
                &words[0].span,
                "`castling-files` but no piece castles: expected a piece with the castling atom `O` (`KisO2`)",
            );
        }
        if let Some(any) = &self.spec.castling_any
            && any.value
        {
            self.err(
                &words[0].span,
                "`castling-files` with `castling-partner any`: expected one of the two (Chess960 places the royal piece by its `O` distance)",
            );
        }
        (self.diags.len() == before).then_some(Some(files))
    }

    /// `drop-castling SQUARE LETTERS`: a square on the board, kinds declared, in a game with
    /// hands. `None` when it is wrong (reported), `Some(None)` when absent.
    fn drop_castling(
        &mut self,
        board: Option<(u8, u8)>,
        declared: &BTreeSet<char>,
        hands: bool,
    ) -> Option<Option<DropCastling>> {
        let Some(d) = self.spec.drop_castling.clone() else {
            return Some(None);
        };
        let before = self.diags.len();
        if !hands {
            self.err(&d.square.span, "`drop-castling` in a game without hands: expected `captures to-hand` or holdings (`[...]`) in the start position");
        }
        let square = crate::setup::parse_square_name(&d.square.value);
        match (square, board) {
            (None, _) => self.err(
                &d.square.span,
                format!(
                    "`{}` is not a square: expected one such as `e1`",
                    d.square.value
                ),
            ),
            (Some((f, r)), Some((files, ranks))) if f >= files || r >= ranks => self.err(
                &d.square.span,
                format!(
                    "`{}` is off the {files}x{ranks} board: expected a square on it",
                    d.square.value
                ),
            ),
            _ => {}
        }
        let letters = self.letters(&d.letters, declared, "drop-castling partners");
        (self.diags.len() == before).then(|| square.zip(letters))
    }

    fn board(&mut self) -> Option<(u8, u8)> {
        let Some(b) = &self.spec.board else {
            self.missing(
                "board",
                "no `board` line: expected `board FILESxRANKS`, e.g. `board 8x8`",
            );
            return None;
        };
        let mut dim = |d: &Spanned<u32>, what: &str| {
            if (1..=MAX_BOARD).contains(&d.value) {
                Some(d.value as u8)
            } else {
                self.err(
                    &d.span,
                    format!(
                        "a board with {} {what}: expected 1 to {MAX_BOARD} {what}",
                        d.value
                    ),
                );
                None
            }
        };
        let files = dim(&b.files, "files");
        let ranks = dim(&b.ranks, "ranks");
        files.zip(ranks)
    }

    fn pieces(&mut self, board: Option<(u8, u8)>) -> Option<Vec<PieceDef>> {
        let spec = self.spec;
        if spec.pieces.is_empty() && spec.broken_pieces.is_empty() {
            self.missing(
                "piece",
                "no pieces: expected at least one `piece LETTER NAME BETZA` line",
            );
            return None;
        }
        let mut defs = Vec::new();
        let mut names: HashMap<&str, char> = HashMap::new();
        for p in &spec.pieces {
            let letter = p.letter.value;
            let shown = id::show(letter);
            let Some(body) = &p.body else {
                self.err(
                    &p.letter.span,
                    format!("`piece {shown} -` removes an inherited piece, but this variant inherits nothing: expected `inherit PARENT` or a full piece definition"),
                );
                continue;
            };
            if let Some(other) = names.insert(&body.name.value, letter) {
                self.err(
                    &body.name.span,
                    format!("piece name `{}` is already used by piece {}: expected a distinct name per piece", body.name.value, id::show(other)),
                );
            }
            let text = &body.betza.value;
            match betza::parse(text) {
                Ok(b) => match legs::compile(&b) {
                    Ok(paths) => {
                        // Longer steps could never land; they would also leave the mailbox.
                        let longest = legs::longest_step(&paths);
                        if let Some((files, ranks)) = board
                            && longest >= files.max(ranks)
                        {
                            self.err(
                                &body.betza.span,
                                format!(
                                    "piece {shown} ({}): `{text}` has a {longest}-square step, which cannot stay on a {files}x{ranks} board: expected steps shorter than the board's longer side",
                                    body.name.value,
                                ),
                            );
                            continue;
                        }
                        defs.push(PieceDef {
                            letter,
                            name: body.name.value.clone(),
                            betza_text: text.clone(),
                            betza: b,
                            paths,
                            royal: body.royal.is_some(),
                            value: body.value.as_ref().map(|v| v.value),
                            promotes: body.promotes.as_ref().map(|l| l.value),
                        })
                    }
                    Err(u) => self.err(
                        &body.betza.span,
                        format!(
                            "piece {shown} ({}): the move generator cannot execute `{text}`: {u}",
                            body.name.value
                        ),
                    ),
                },
                Err(e) => {
                    // The Betza offset is in bytes; columns are in characters.
                    let at = text
                        .get(..e.offset)
                        .map_or(text.chars().count(), |s| s.chars().count());
                    self.err(
                        &body.betza.span.sub(at, 1),
                        format!(
                            "bad Betza for piece {shown} ({}): {}",
                            body.name.value, e.message
                        ),
                    );
                }
            }
        }
        (defs.len() == spec.pieces.len()).then_some(defs)
    }

    /// The royal piece letters. None is an error unless an `extinction` rule says how a side loses.
    fn royals(&mut self) -> Vec<char> {
        let spec = self.spec;
        let royals: Vec<char> = spec
            .pieces
            .iter()
            .filter(|p| p.body.as_ref().is_some_and(|b| b.royal.is_some()))
            .map(|p| p.letter.value)
            .collect();
        let ends_otherwise = spec.extinction.is_some() || spec.broken_keys.contains("extinction");
        if royals.is_empty()
            && !ends_otherwise
            && !spec.pieces.is_empty()
            && spec.broken_pieces.is_empty()
        {
            let at = spec.anchor();
            self.err(&at, "no royal piece: expected a piece type flagged `royal` (e.g. `piece K king K royal`), or an `extinction` rule");
        }
        royals
    }

    fn start(
        &mut self,
        board: Option<(u8, u8)>,
        declared: &BTreeSet<char>,
        royals: &[char],
    ) -> Option<Setup> {
        let Some(fen) = &self.spec.start else {
            self.missing("start", "no `start` line: expected `start FEN`, e.g. `start rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`");
            return None;
        };
        let before = self.diags.len();
        // Fields joined by single spaces: a character offset in the text maps back to a field.
        let text: Vec<&str> = fen.fields.iter().map(|f| f.value.as_str()).collect();
        let text = text.join(" ");
        let span_of = |at: usize, len: usize| -> Span {
            let mut start = 0;
            for f in &fen.fields {
                let n = f.value.chars().count();
                if at < start + n + 1 {
                    return f.span.sub(at - start, len.min(n.max(1)));
                }
                start += n + 1;
            }
            fen.key.clone()
        };
        let (setup, problems) = Setup::read(&text);
        for p in problems {
            let span = span_of(p.at, p.len);
            self.err(&span, p.message);
        }
        let setup = setup?;
        if let Some((files, ranks)) = board {
            let declared: Vec<char> = declared.iter().copied().collect();
            let promotable: Vec<char> = self
                .spec
                .pieces
                .iter()
                .filter(|p| p.body.as_ref().is_some_and(|b| b.promotes.is_some()))
                .map(|p| p.letter.value)
                .collect();
            for p in setup.check(files, ranks, &declared, &promotable, "start position") {
                let span = span_of(p.at, p.len);
                self.err(&span, p.message);
            }
        }
        // Each side needs a royal piece, on the board or in hand (placement drops its king), unless
        // an extinction rule decides the game instead (a side without one, as in horde, loses only
        // by extinction).
        if !royals.is_empty() && self.spec.extinction.is_none() {
            let names: Vec<String> = royals.iter().map(|c| c.to_string()).collect();
            for side in Side::BOTH {
                let n = setup
                    .squares()
                    .filter(|(_, p)| p.side == side && royals.contains(&p.letter))
                    .count();
                let held = setup
                    .hands
                    .iter()
                    .flatten()
                    .any(|p| p.side == side && royals.contains(&p.letter));
                if n == 0 && !held {
                    self.err(
                        &fen.fields[0].span,
                        format!("{} has no royal piece ({}) in the start position: expected at least one per side, on the board or in hand", side.name(), names.join(" ")),
                    );
                }
            }
        }
        if setup.checks.is_some() && self.spec.checks_to_win.is_none() {
            self.err(
                &fen.fields[4].span,
                "a checks field in the start position without `checks-to-win`: expected 6 fields",
            );
        }
        if setup.fullmove == 0 {
            self.err(
                &fen.fields[5].span,
                "fullmove number `0`: expected a number from 1, e.g. `1`",
            );
        }
        (self.diags.len() == before).then_some(setup)
    }

    /// Checks that every character of `letters` is a declared piece letter; returns them.
    fn letters(
        &mut self,
        letters: &Spanned<String>,
        declared: &BTreeSet<char>,
        what: &str,
    ) -> Option<Vec<char>> {
        let text = &letters.value;
        let list: String = declared
            .iter()
            .map(|&c| format!(" {}", id::show(c)))
            .collect();
        let ids = match id::split(text) {
            Ok(ids) => ids,
            Err(at) => {
                let at = text[..at].chars().count();
                self.err(&letters.span.sub(at, 1), format!("`+` at the end of the {what}: expected `+` and a letter (`+D`), or upper-case letters from{list}"));
                return None;
            }
        };
        let mut ok = true;
        for &(i, c) in &ids {
            if !id::is_id(c) || !declared.contains(&c) {
                let at = text[..i].chars().count();
                let len = if id::base(c).is_some() { 2 } else { 1 };
                self.err(&letters.span.sub(at, len), format!("`{}` in the {what} is not a declared piece letter: expected upper-case letters from{list}", id::show(c)));
                ok = false;
            }
        }
        ok.then(|| ids.into_iter().map(|(_, c)| c).collect())
    }

    /// `lion-trade LETTERS [over LETTERS]`: declared pieces.
    /// `eval`: material for declared, non-royal pieces, each piece and term once, in range.
    fn eval(&mut self, declared: &BTreeSet<char>, royals: &[char]) -> Option<EvalWeights> {
        let Some(e) = &self.spec.eval else {
            return Some(EvalWeights::default());
        };
        let before = self.diags.len();
        let mut w = EvalWeights::default();
        for (l, mg, eg) in &e.material {
            let letter = l.value;
            if !declared.contains(&letter) {
                let list: String = declared
                    .iter()
                    .map(|&c| format!(" {}", id::show(c)))
                    .collect();
                self.err(
                    &l.span,
                    format!("`{letter}` in `eval` is not a declared piece letter: expected upper-case letters from{list}"),
                );
            } else if royals.contains(&letter) {
                self.err(
                    &l.span,
                    format!("`{letter}` in `eval` is a royal piece, which has no material: expected a piece that can be traded"),
                );
            } else if w.material_of(letter).is_some() {
                self.err(
                    &l.span,
                    format!("`{letter}` is given twice in `eval`: expected each piece letter once"),
                );
            } else if ![mg, eg]
                .iter()
                .all(|v| (1..=MAX_EVAL_MATERIAL).contains(*v))
            {
                self.err(
                    &l.span,
                    format!("material {mg}/{eg} for `{letter}`: expected 1 to {MAX_EVAL_MATERIAL} centipawns each"),
                );
            } else {
                w.material.push((letter, *mg, *eg));
            }
        }
        let mut seen = [false; EVAL_TERMS.len()];
        for (name, percent) in &e.terms {
            let i = EVAL_TERMS
                .iter()
                .position(|&t| t == name.value)
                .expect("the parser keeps known terms only");
            if seen[i] {
                self.err(
                    &name.span,
                    format!(
                        "`{}` is given twice in `eval`: expected each term once",
                        name.value
                    ),
                );
            } else if !(0..=MAX_EVAL_PERCENT).contains(percent) {
                self.err(
                    &name.span,
                    format!(
                        "`{}={percent}`: expected a percentage from 0 to {MAX_EVAL_PERCENT}",
                        name.value
                    ),
                );
            }
            seen[i] = true;
            w.terms[i] = *percent;
        }
        (self.diags.len() == before).then_some(w)
    }

    /// `honour-count`: declared letters, counts of moves from 1 to 16383 (twice that in plies fits
    /// the FEN's counters). `off` (or no line) is no counting.
    fn honour(&mut self, declared: &BTreeSet<char>) -> Option<Option<HonourCount>> {
        let Some(h) = self.spec.honour.clone().filter(|h| !h.off) else {
            return Some(None);
        };
        let before = self.diags.len();
        const MAX_MOVES: u32 = 16383;
        let moves = |this: &mut Self, n: u32, at: &Span| -> u16 {
            if !(1..=MAX_MOVES).contains(&n) {
                this.err(
                    at,
                    format!("a count of {n} moves: expected 1 to {MAX_MOVES}"),
                );
            }
            n.min(MAX_MOVES) as u16
        };
        let board = h.board.as_ref().map(|b| moves(self, b.value, &b.span));
        let mut pieces = Vec::new();
        for (l, n) in &h.pieces {
            let n = moves(self, *n, &l.span);
            let mut need: Vec<(char, u16)> = Vec::new();
            if l.value != "*"
                && let Some(letters) = self.letters(l, declared, "pieces' honour")
            {
                for c in letters {
                    match need.iter_mut().find(|(k, _)| *k == c) {
                        Some((_, k)) => *k += 1,
                        None => need.push((c, 1)),
                    }
                }
            }
            pieces.push((need, n));
        }
        (self.diags.len() == before).then_some(Some(HonourCount {
            board,
            no_pawns: h.no_pawns,
            from_pieces: h.from_pieces,
            pieces,
        }))
    }

    fn lion_trade(
        &mut self,
        declared: &BTreeSet<char>,
    ) -> Option<Option<crate::variant::model::LionTrade>> {
        let Some(l) = &self.spec.lion_trade else {
            return Some(None);
        };
        let l = l.clone();
        let (kinds, over) =
            self.letters_and_more(&l.kinds, l.over.as_ref(), declared, "lion-trade", "over")?;
        Some(Some(crate::variant::model::LionTrade { kinds, over }))
    }

    /// A key's kinds and its optional second list (`KEY LETTERS [WORD LETTERS]`), each checked
    /// against the declared letters; both are checked before either error is returned.
    fn letters_and_more(
        &mut self,
        first: &Spanned<String>,
        second: Option<&Spanned<String>>,
        declared: &BTreeSet<char>,
        key: &str,
        word: &str,
    ) -> Option<(Vec<char>, Vec<char>)> {
        let first = self.letters(first, declared, &format!("{key} pieces"));
        let second = match second {
            Some(o) => self.letters(o, declared, &format!("{key} `{word}` pieces")),
            None => Some(Vec::new()),
        };
        Some((first?, second?))
    }

    fn contagion(
        &mut self,
        declared: &BTreeSet<char>,
    ) -> Option<Option<crate::variant::model::Contagion>> {
        let Some(c) = &self.spec.contagion else {
            return Some(None);
        };
        let c = c.clone();
        let (kinds, not_by) =
            self.letters_and_more(&c.kinds, c.not_by.as_ref(), declared, "contagion", "not-by")?;
        Some(Some(crate::variant::model::Contagion { kinds, not_by }))
    }

    fn checkmate_series(
        &mut self,
        declared: &BTreeSet<char>,
    ) -> Option<Option<crate::variant::model::CheckmateSeries>> {
        let Some(c) = &self.spec.checkmate_series else {
            return Some(None);
        };
        let c = c.clone();
        let (kinds, not_by) = self.letters_and_more(
            &c.kinds,
            c.not_by.as_ref(),
            declared,
            "checkmate-series",
            "not-by",
        )?;
        Some(Some(crate::variant::model::CheckmateSeries {
            kinds,
            not_by,
        }))
    }

    fn promotion(
        &mut self,
        board: Option<(u8, u8)>,
        declared: &BTreeSet<char>,
    ) -> Option<Promotion> {
        let Some(p) = &self.spec.promotion else {
            for (key, at) in [
                (
                    "promotion-optional",
                    self.spec
                        .promotion_optional
                        .as_ref()
                        .map(|o| o.span.clone()),
                ),
                (
                    "promotion-limit",
                    self.spec
                        .promotion_limit
                        .as_ref()
                        .and_then(|l| l.first())
                        .map(|l| l.0.span.clone()),
                ),
            ] {
                if let Some(at) = at {
                    self.err(&at, format!("`{key}` without a `promotion` line: expected `promotion PAWNS ...` saying which pieces promote"));
                }
            }
            return Some(Promotion {
                pawns: Vec::new(),
                zone: 1,
                to: PromotionTarget::Choice(Vec::new()),
                optional: false,
                limit: Vec::new(),
            });
        };
        let pawns = self.letters(&p.pawns, declared, "promoting pieces");
        let max_zone = board.map_or(MAX_BOARD, |(_, r)| u32::from(r));
        let zone = match &p.zone {
            None => Some(1),
            Some(z) if (1..=max_zone).contains(&z.value) => Some(z.value as u8),
            Some(z) => {
                self.err(&z.span, format!("promotion zone of {} ranks: expected 1 to {max_zone} ranks, counted from the far edge", z.value));
                None
            }
        };
        let to = match &p.target {
            PromotionTargetSpec::Choice(l) => self
                .letters(l, declared, "promotion choice")
                .map(PromotionTarget::Choice),
            PromotionTargetSpec::ByFile(l) => {
                let letters = self.letters(l, declared, "by-file promotion table");
                let n = l.value.chars().count();
                match board {
                    Some((files, _)) if n != usize::from(files) => {
                        self.err(
                            &l.span,
                            format!("the by-file promotion table has {n} letters: expected {files}, one per file from a to {}", file_char(files - 1)),
                        );
                        None
                    }
                    _ => letters.map(PromotionTarget::ByFile),
                }
            }
        };
        let mut limit = Vec::new();
        let mut limit_ok = true;
        for (l, n) in self.spec.promotion_limit.clone().unwrap_or_default() {
            let choices: Vec<char> = match &p.target {
                PromotionTargetSpec::Choice(c) | PromotionTargetSpec::ByFile(c) => {
                    c.value.chars().collect()
                }
            };
            if !choices.contains(&l.value) {
                self.err(&l.span, format!("`{}` in the promotion limit is not a promotion choice: expected letters from `{}`", l.value, choices.iter().collect::<String>()));
                limit_ok = false;
            } else if limit.iter().any(|&(c, _)| c == l.value) {
                self.err(
                    &l.span,
                    format!("`{}` is limited twice: expected each letter once", l.value),
                );
                limit_ok = false;
            } else if n > u32::from(u16::MAX) {
                self.err(
                    &l.span,
                    format!("a promotion limit of {n}: expected 0 to {}", u16::MAX),
                );
                limit_ok = false;
            } else {
                limit.push((l.value, n as u16));
            }
        }
        Some(Promotion {
            pawns: pawns?,
            zone: zone?,
            to: to?,
            optional: self
                .spec
                .promotion_optional
                .as_ref()
                .is_some_and(|o| o.value),
            limit: limit_ok.then_some(limit)?,
        })
    }

    /// `Some(None)` is `off`; the outer `None` means an error was reported.
    fn count_or_off(
        &mut self,
        value: &Option<Spanned<Option<u32>>>,
        default: u32,
        min: u32,
        max: u32,
        key: &str,
        unit: &str,
    ) -> Option<Option<u32>> {
        match value {
            None => Some(Some(default)),
            Some(Spanned { value: None, .. }) => Some(None),
            Some(Spanned {
                value: Some(n),
                span,
            }) => {
                if (min..=max).contains(n) {
                    Some(Some(*n))
                } else {
                    self.err(
                        span,
                        format!("`{key} {n}`: expected {min} to {max} {unit}, or `off`"),
                    );
                    None
                }
            }
        }
    }

    fn dice(&mut self, declared: &BTreeSet<char>) -> Option<Option<Dice>> {
        let Some(d) = &self.spec.dice else {
            return Some(None);
        };
        let before = self.diags.len();
        let mut seen: BTreeMap<u32, u32> = BTreeMap::new(); // face → column
        for (face, letter) in &d.faces {
            if !(1..=u32::from(u8::MAX)).contains(&face.value) {
                self.err(
                    &face.span,
                    format!(
                        "die face {}: expected a face number from 1 to {}",
                        face.value,
                        u8::MAX
                    ),
                );
            } else if let Some(col) = seen.insert(face.value, face.span.col) {
                self.err(&face.span, format!("die face {} is given twice (first at column {col}): expected each face once", face.value));
            }
            if !declared.contains(&letter.value) {
                let list: String = declared
                    .iter()
                    .map(|&c| format!(" {}", id::show(c)))
                    .collect();
                self.err(
                    &letter.span,
                    format!(
                        "`{}` on die face {} is not a declared piece letter: expected one of{list}",
                        letter.value, face.value
                    ),
                );
            }
        }
        if self.diags.len() == before {
            // A die has faces 1..=N; a gap would be a face that selects nothing.
            let n = seen.len() as u32;
            if seen.keys().copied().ne(1..=n) {
                let faces: Vec<String> = seen.keys().map(u32::to_string).collect();
                self.err(
                    &d.key,
                    format!(
                        "dice faces {}: expected the faces 1 to {n} without gaps",
                        faces.join(", ")
                    ),
                );
            }
        }
        if self.diags.len() != before {
            return None;
        }
        let faces = d
            .faces
            .iter()
            .map(|(f, l)| (f.value as u8, l.value))
            .collect();
        let no_move = d.no_move.as_ref().map_or(DiceNoMove::Reroll, |n| n.value);
        Some(Some(Dice { faces, no_move }))
    }

    /// `promotion-move`: declared kinds, one declared target, a declared region, a limit in range.
    fn promotion_move(
        &mut self,
        declared: &BTreeSet<char>,
    ) -> Option<Option<crate::variant::model::PromotionMove>> {
        let Some(p) = &self.spec.promotion_move else {
            return Some(None);
        };
        let before = self.diags.len();
        let kinds = self.letters(&p.kinds, declared, "promotion-move kinds");
        let to = self.letters(&p.to, declared, "promotion-move target");
        if to.as_ref().is_some_and(|t| t.len() != 1) {
            self.err(
                &p.to.span,
                "more than one target kind: expected one piece letter after `to`",
            );
        }
        let region = match &p.region {
            None => None,
            Some(r) => {
                let at = self
                    .spec
                    .regions
                    .iter()
                    .position(|g| g.name.value == r.value);
                if at.is_none() {
                    self.err(
                        &r.span,
                        format!(
                            "no region `{}`: expected a name declared by a `region` line",
                            r.value
                        ),
                    );
                }
                at
            }
        };
        let limit = match &p.limit {
            None => 0,
            Some(n) if (1..=255).contains(&n.value) => n.value as u16,
            Some(n) => {
                self.err(&n.span, format!("`limit {}`: expected 1 to 255", n.value));
                0
            }
        };
        if self.diags.len() != before {
            return None;
        }
        Some(Some(crate::variant::model::PromotionMove {
            kinds: kinds?,
            to: to?[0],
            region,
            last_anywhere: p.last_anywhere,
            limit,
            no_attack: p.no_attack,
        }))
    }

    fn extinction(&mut self, declared: &BTreeSet<char>) -> Option<Option<Extinction>> {
        let Some(e) = &self.spec.extinction else {
            return Some(None);
        };
        // `all`: the whole army, whatever its kinds (the anti-chess family, horde).
        let all = e.letters.value == "all";
        let kinds = if all {
            Some(Vec::new())
        } else {
            self.letters(&e.letters, declared, "extinction rule")
        };
        let at_most = match &e.at_most {
            None => Some(0),
            Some(n) if n.value <= u32::from(u16::MAX) => Some(n.value as u16),
            Some(n) => {
                self.err(
                    &n.span,
                    format!("`at-most {}`: expected 0 to {}", n.value, u16::MAX),
                );
                None
            }
        };
        let opponent_at_least = match &e.opponent_at_least {
            None => Some(0),
            Some(n) if n.value <= u32::from(u16::MAX) => Some(n.value as u16),
            Some(n) => {
                self.err(
                    &n.span,
                    format!(
                        "`opponent-at-least {}`: expected 0 to {}",
                        n.value,
                        u16::MAX
                    ),
                );
                None
            }
        };
        Some(Some(Extinction {
            kinds: kinds?,
            at_most: at_most?,
            opponent_at_least: opponent_at_least?,
            all,
            extinct: self
                .spec
                .extinction_result
                .as_ref()
                .map_or(Outcome::Loss, |r| r.value),
        }))
    }

    /// `extinction-result` says what an `extinction` rule means: alone it means nothing.
    fn extinction_result(&mut self) {
        if let Some(r) = &self.spec.extinction_result
            && self.spec.extinction.is_none()
            && !self.spec.broken_keys.contains("extinction")
        {
            self.err(
                &r.span,
                "`extinction-result` without an `extinction` rule: expected `extinction LETTERS|all` too",
            );
        }
    }

    /// `start-shuffle`: the kinds are declared, stand on White's back rank of `start` with Black's
    /// mirror on the same files, each constraint names shuffled kinds, and some arrangement exists.
    fn shuffle(
        &mut self,
        declared: &BTreeSet<char>,
        start: Option<&Setup>,
    ) -> Option<Option<Shuffle>> {
        let Some(spec) = &self.spec.start_shuffle else {
            return Some(None);
        };
        let what = "start-shuffle";
        let kinds = self.letters(&spec.letters, declared, what);
        let colours: Vec<Option<Vec<char>>> = spec
            .colours
            .iter()
            .map(|g| self.letters(g, declared, "opposite-colours group"))
            .collect();
        let between = spec.between.as_ref().map(|(inner, outer)| {
            let one = |v: &mut Self, t: &Spanned<String>| -> Option<char> {
                let l = v.letters(t, declared, "between rule")?;
                match l[..] {
                    [c] => Some(c),
                    _ => {
                        v.err(
                            &t.span,
                            format!("`{}` in `between`: expected one piece letter", t.value),
                        );
                        None
                    }
                }
            };
            (one(self, inner), one(self, outer))
        });
        let (kinds, start) = (kinds?, start?);
        let colours: Vec<Vec<char>> = colours.into_iter().collect::<Option<_>>()?;
        let between = match between {
            None => None,
            Some((Some(a), Some(b))) => Some((a, b)),
            Some(_) => return None,
        };
        let mut ok = true;
        let named: Vec<char> = colours
            .iter()
            .flatten()
            .copied()
            .chain(between.iter().flat_map(|&(a, b)| [a, b]))
            .collect();
        for (i, c) in named.iter().enumerate() {
            if !kinds.contains(c) || named[..i].contains(c) {
                self.err(
                    &spec.letters.span,
                    format!("`{c}` in a `start-shuffle` rule: expected each rule to name shuffled kinds (`{}`), each kind in one rule at most", spec.letters.value),
                );
                ok = false;
            }
        }
        let top = start.rows.len().saturating_sub(1) as u8;
        let (mut files, mut pieces) = (Vec::new(), Vec::new());
        for f in 0..start.rows.first().map_or(0, |r| r.squares.len()) as u8 {
            let Some(p) = start.get((f, 0)).filter(|p| kinds.contains(&p.letter)) else {
                continue;
            };
            let mirror = start.get((f, top));
            if p.side != Side::White
                || mirror.is_none_or(|m| m.side != Side::Black || m.letter != p.letter)
            {
                self.err(&spec.letters.span, format!("the start's back ranks differ on the {} file: expected Black's back rank to mirror White's shuffled pieces", (b'a' + f) as char));
                ok = false;
            }
            files.push(f);
            pieces.push(p.letter);
        }
        for &k in &kinds {
            if !pieces.contains(&k) {
                self.err(&spec.letters.span, format!("`{k}` is shuffled but stands nowhere on White's back rank of the start: expected shuffled kinds from the first rank"));
                ok = false;
            }
        }
        for g in &colours {
            if pieces.iter().filter(|c| g.contains(c)).count() % 2 == 1 {
                self.err(&spec.letters.span, format!("the `opposite-colours {}` group has an odd number of pieces: expected as many on light as on dark squares", g.iter().collect::<String>()));
                ok = false;
            }
        }
        if !ok {
            return None;
        }
        let shuffle = Shuffle {
            kinds,
            colours,
            between,
            files,
            pieces,
        };
        if shuffle.count() == 0 {
            self.err(
                &spec.letters.span,
                "no arrangement of the back rank keeps these rules: expected at least one",
            );
            return None;
        }
        Some(Some(shuffle))
    }

    fn initial_ranks(
        &mut self,
        board: Option<(u8, u8)>,
        declared: &BTreeSet<char>,
    ) -> Option<Option<InitialRanks>> {
        self.extinction_result();
        let Some(i) = &self.spec.initial_ranks else {
            return Some(None);
        };
        let kinds = self.letters(&i.letters, declared, "initial-ranks rule");
        let ranks = board.map_or(MAX_BOARD, |(_, r)| u32::from(r));
        let mut ok = true;
        for r in [&i.first, &i.last] {
            if !(1..=ranks).contains(&r.value) {
                self.err(
                    &r.span,
                    format!(
                        "rank {} is not on the board: expected 1 to {ranks}",
                        r.value
                    ),
                );
                ok = false;
            }
        }
        if ok && i.first.value > i.last.value {
            self.err(
                &i.last.span,
                format!(
                    "the band {}-{} runs backwards: expected the lower rank first",
                    i.first.value, i.last.value
                ),
            );
            ok = false;
        }
        let kinds = kinds?;
        ok.then(|| {
            Some(InitialRanks {
                kinds,
                first: (i.first.value - 1) as u8,
                last: (i.last.value - 1) as u8,
            })
        })
    }

    fn goal(&mut self, board: Option<(u8, u8)>, declared: &BTreeSet<char>) -> Option<Option<Goal>> {
        let Some(g) = &self.spec.goal else {
            return Some(None);
        };
        let kinds = self.letters(&g.letters, declared, "goal rule");
        let mut squares = Vec::new();
        let before = self.diags.len();
        for r in &g.regions {
            let text = r.value.as_str();
            let (a, b) = text.split_once('-').unwrap_or((text, text));
            let corner = |s: &str| crate::setup::parse_square_name(s);
            let (Some(a), Some(b)) = (corner(a), corner(b)) else {
                self.err(
                    &r.span,
                    format!("`{text}` is not a goal region: expected a square such as `d4` or a rectangle such as `a8-h8`"),
                );
                continue;
            };
            if let Some((files, ranks)) = board
                && [a, b].iter().any(|&(f, r)| f >= files || r >= ranks)
            {
                self.err(
                    &r.span,
                    format!("goal region `{text}` leaves the {files}x{ranks} board: expected squares on the board"),
                );
                continue;
            }
            for f in a.0.min(b.0)..=a.0.max(b.0) {
                for rk in a.1.min(b.1)..=a.1.max(b.1) {
                    if !squares.contains(&(f, rk)) {
                        squares.push((f, rk));
                    }
                }
            }
        }
        if self.diags.len() != before {
            return None;
        }
        Some(Some(Goal {
            kinds: kinds?,
            squares,
            reply: g.reply,
            mirrored: g.mirrored,
        }))
    }

    /// Checks are only given to royal pieces: counting them needs one.
    fn checks_to_win(&mut self, royals: &[char]) -> Option<Option<u8>> {
        let Some(c) = &self.spec.checks_to_win else {
            return Some(None);
        };
        let Some(n) = c.value else {
            return Some(None);
        };
        if !(1..=u32::from(u8::MAX)).contains(&n) {
            self.err(
                &c.span,
                format!(
                    "`checks-to-win {n}`: expected 1 to {} checks, or `off`",
                    u8::MAX
                ),
            );
            return None;
        }
        if royals.is_empty() {
            self.err(
                &c.span,
                "`checks-to-win` without a royal piece: expected a piece type flagged `royal` to give check to",
            );
            return None;
        }
        Some(Some(n as u8))
    }
}

impl Checker<'_> {
    /// `region` lines, the pieces' `confine` and `in` flags, and `facing-royals`.
    fn region_rules(
        &mut self,
        board: Option<(u8, u8)>,
        royals: &[char],
        declared: &BTreeSet<char>,
    ) -> Option<RegionRules> {
        let spec = self.spec;
        let before = self.diags.len();
        let mut regions = Vec::new();
        for r in &spec.regions {
            let mut squares = Vec::new();
            for sq in &r.squares {
                let text = sq.value.as_str();
                let (a, b) = text.split_once('-').unwrap_or((text, text));
                let corner = |s: &str| crate::setup::parse_square_name(s);
                let (Some(a), Some(b)) = (corner(a), corner(b)) else {
                    self.err(
                        &sq.span,
                        format!("`{text}` is not a region square: expected a square such as `d1` or a rectangle such as `d1-f3`"),
                    );
                    continue;
                };
                if let Some((files, ranks)) = board
                    && [a, b].iter().any(|&(f, r)| f >= files || r >= ranks)
                {
                    self.err(
                        &sq.span,
                        format!("region square `{text}` leaves the {files}x{ranks} board: expected squares on the board"),
                    );
                    continue;
                }
                for f in a.0.min(b.0)..=a.0.max(b.0) {
                    for rk in a.1.min(b.1)..=a.1.max(b.1) {
                        if !squares.contains(&(f, rk)) {
                            squares.push((f, rk));
                        }
                    }
                }
            }
            regions.push(Region {
                name: r.name.value.clone(),
                squares,
            });
        }
        let mut rules = RegionRules {
            facing_royals_forbidden: spec.facing_royals.as_ref().is_some_and(|f| !f.value),
            ..RegionRules::default()
        };
        if let Some(f) = &spec.facing_royals
            && !f.value
            && royals.is_empty()
        {
            self.err(
                &f.span,
                "`facing-royals forbidden` without a royal piece: expected a piece type flagged `royal`",
            );
        }
        let find = |name: &Spanned<String>| regions.iter().position(|r| r.name == name.value);
        for p in &spec.pieces {
            let Some(body) = &p.body else { continue };
            let letter = p.letter.value;
            let region_of = |this: &mut Self, name: &Spanned<String>| {
                let found = find(name);
                if found.is_none() {
                    let known: Vec<&str> = regions.iter().map(|r| r.name.as_str()).collect();
                    this.err(
                        &name.span,
                        format!(
                            "piece {letter} ({}): no region `{}`: expected one declared by a `region` line{}",
                            body.name.value,
                            name.value,
                            if known.is_empty() {
                                String::new()
                            } else {
                                format!(" ({})", known.join(", "))
                            }
                        ),
                    );
                }
                found
            };
            if let Some(c) = &body.confine
                && let Some(i) = region_of(self, c)
            {
                rules.confine.push((letter, i));
            }
            if let Some((r, b)) = &body.along {
                if body.region_moves.is_some() {
                    self.err(
                        &r.span,
                        format!("piece {letter} ({}): `along` with `in`: expected one of the two region move flags on a piece", body.name.value),
                    );
                }
                let region = region_of(self, r);
                let compiled = self.region_betza(letter, &body.name.value, b, board);
                if let (Some(region), Some((betza, paths))) = (region, compiled) {
                    rules.along.push(RegionMoves {
                        letter,
                        region,
                        betza_text: b.value.clone(),
                        betza,
                        paths,
                    });
                }
            }
            if let Some(l) = &body.no_jump_over
                && let Some(l) = self.letters(l, declared, "no-jump-over pieces")
            {
                rules.no_jump_over.push((letter, l));
            }
            if let Some(l) = &body.no_capture
                && let Some(l) = self.letters(l, declared, "no-capture pieces")
            {
                rules.no_capture.push((letter, l));
            }
            if let Some((r, b)) = &body.region_moves {
                let region = region_of(self, r);
                let compiled = self.region_betza(letter, &body.name.value, b, board);
                if let (Some(region), Some((betza, paths))) = (region, compiled) {
                    rules.moves.push(RegionMoves {
                        letter,
                        region,
                        betza_text: b.value.clone(),
                        betza,
                        paths,
                    });
                }
            }
        }
        rules.regions = regions;
        (self.diags.len() == before).then_some(rules)
    }

    /// `pass` needs a royal piece (a pass is written as its move to its own square); `bikjang`
    /// needs royal pieces to face; `counting` letters are declared pieces. Returns the counting.
    fn pass_rules(
        &mut self,
        royals: &[char],
        declared: &BTreeSet<char>,
    ) -> Option<Option<Counting>> {
        let spec = self.spec;
        let before = self.diags.len();
        for (rule, key) in [(&spec.pass, "pass"), (&spec.bikjang, "bikjang")] {
            if let Some(r) = rule
                && r.value
                && royals.is_empty()
            {
                self.err(
                    &r.span,
                    format!(
                        "`{key} yes` without a royal piece: expected a piece type flagged `royal`"
                    ),
                );
            }
        }
        // `counting off` (no points) lets an inheriting file drop its parent's counting.
        let counting = spec.counting.as_ref().filter(|c| !c.points.is_empty()).map(|c| {
            let mut points: Vec<(char, i32)> = Vec::new();
            for (l, n) in &c.points {
                if !declared.contains(&l.value) {
                    let list: String = declared.iter().map(|&c| format!(" {}", id::show(c))).collect();
                    self.err(
                        &l.span,
                        format!("`{}` in the counting is not a declared piece letter: expected upper-case letters from{list}", l.value),
                    );
                } else if points.iter().any(|&(p, _)| p == l.value) {
                    self.err(
                        &l.span,
                        format!("`{}` is counted twice: expected each piece letter once", l.value),
                    );
                } else {
                    points.push((l.value, *n));
                }
            }
            Counting {
                points,
                bonus: c.bonus,
            }
        });
        (self.diags.len() == before).then_some(counting)
    }

    /// The Betza of an `in REGION BETZA` flag, parsed and compiled as a piece's own.
    fn region_betza(
        &mut self,
        letter: char,
        name: &str,
        b: &Spanned<String>,
        board: Option<(u8, u8)>,
    ) -> Option<(betza::Betza, Vec<legs::Path>)> {
        let text = &b.value;
        match betza::parse(text) {
            Ok(parsed) => match legs::compile(&parsed) {
                Ok(paths) => {
                    let longest = legs::longest_step(&paths);
                    if let Some((files, ranks)) = board
                        && longest >= files.max(ranks)
                    {
                        self.err(
                            &b.span,
                            format!("piece {letter} ({name}): `{text}` has a {longest}-square step, which cannot stay on a {files}x{ranks} board: expected steps shorter than the board's longer side"),
                        );
                        return None;
                    }
                    Some((parsed, paths))
                }
                Err(u) => {
                    self.err(
                        &b.span,
                        format!("piece {letter} ({name}): the move generator cannot execute `{text}`: {u}"),
                    );
                    None
                }
            },
            Err(e) => {
                let at = text
                    .get(..e.offset)
                    .map_or(text.chars().count(), |s| s.chars().count());
                self.err(
                    &b.span.sub(at, 1),
                    format!(
                        "bad Betza for piece {letter} ({name}) in its region: {}",
                        e.message
                    ),
                );
                None
            }
        }
    }
}

fn file_char(i: u8) -> char {
    char::from(b'a' + i)
}
