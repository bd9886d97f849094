//! `acedrex play`: a game against the engine in the terminal, and `acedrex selfplay`.
//!
//! The loop reads commands from any `BufRead` and writes to any `Write`, so tests drive it with
//! strings; [`play`] binds it to the terminal.

pub mod board;
pub mod engine;
pub mod selfplay;

use crate::game::Game;
use crate::geometry::{file_of, parse_square, rank_of, square_name};
use crate::pgn::{self, PgnGame, Ply};
use crate::position::{Move, Position, Side};
use crate::rules::{GameEnd, Winner};
use crate::search::Engine;
use engine::Turn;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::io::{BufRead, IsTerminal, Write};
use std::sync::Arc;
use std::time::Duration;

/// Who sits at the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Seat {
    /// The human plays White against the engine.
    #[default]
    White,
    /// The human plays Black.
    Black,
    /// Two humans share the keyboard; the engine only gives hints.
    Both,
}

/// Colour output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorMode {
    /// Colour when the output is a terminal, `TERM` is not `dumb` and `NO_COLOR` is unset or empty.
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorMode {
    /// Whether to colour, for an output that is (or is not) a terminal.
    pub fn enabled(self, is_terminal: bool) -> bool {
        match self {
            ColorMode::Always => true,
            ColorMode::Never => false,
            ColorMode::Auto => {
                is_terminal
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::env::var("TERM").map_or(true, |t| t != "dumb")
            }
        }
    }
}

/// `acedrex play [--variant V] [--dice] [--white|--black] [--level N]`.
#[derive(Debug, Clone)]
pub struct PlayOptions {
    /// A built-in variant's name or alias, or a variant file.
    pub variant: String,
    /// Start from this position instead of the variant's start.
    pub fen: Option<String>,
    /// Play with the variant's die (a default die when its file has none).
    pub dice: bool,
    pub seat: Seat,
    /// Engine search depth in plies.
    pub level: u32,
    /// Engine time per move (a cap together with `level`).
    pub movetime: Option<Duration>,
    pub color: ColorMode,
    /// Seed of the die (None: from the clock).
    pub seed: Option<u64>,
    /// Transposition table size.
    pub hash_mb: usize,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            variant: "grant-acedrex".into(),
            fen: None,
            dice: false,
            seat: Seat::White,
            // Depth 8 takes tens of milliseconds a move on 12x12; the time cap bounds the odd slow one.
            level: 8,
            movetime: Some(Duration::from_secs(5)),
            color: ColorMode::Auto,
            seed: None,
            hash_mb: 64,
        }
    }
}

/// Why a game in the terminal or a selfplay run stopped.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    #[error(transparent)]
    Load(#[from] crate::variant::LoadError),
    #[error(transparent)]
    Fen(#[from] crate::position::FenError),
    /// Reading the player's input or writing the board failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[error("cannot create {path}: {error}")]
    Create { path: String, error: std::io::Error },
    #[error("the die selects no piece that can move")]
    NoRollableMove,
    #[error("the engine found no move in a position that is not over")]
    NoEngineMove,
}

/// Results of the play loop.
pub type Result<T> = std::result::Result<T, PlayError>;

/// Plays in the terminal: stdin in, stdout out.
pub fn play(opts: PlayOptions) -> Result<()> {
    let stdout = std::io::stdout();
    let color = opts.color.enabled(stdout.is_terminal());
    let stdin = std::io::stdin();
    run(&opts, color, &mut stdin.lock(), &mut stdout.lock())
}

/// The game loop on any input and output; ends on `quit` or end of input.
pub fn run(
    opts: &PlayOptions,
    color: bool,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    let mut s = Session::new(opts, color)?;
    s.banner(out)?;
    s.advance(out)?;
    s.show(out)?;
    let mut line = String::new();
    loop {
        s.prompt(out)?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            break;
        }
        if !s.command(line.trim(), out)? {
            break;
        }
    }
    out.flush()?;
    Ok(())
}

const HELP: &str = "\
Moves in coordinate notation: g1g3, c11c12u (promotion letter optional when forced); SAN works too (Ug3).
Commands:
  moves SQUARE     legal moves of the piece on SQUARE
  legend           the pieces: letters, names, Betza notation
  hint             the engine's suggestion for you
  undo             take back your last move (and the engine's reply)
  new              start a new game
  flip             turn the board around
  board            draw the board again
  fen              the position in FEN
  save FILE.pgn    save the game as PGN (XBoard reads it)
  level N          engine search depth N plies
  time SECONDS     engine time per move
  help             this text
  quit             leave";

struct Session {
    game: Arc<Game>,
    start: Position,
    pos: Position,
    plies: Vec<Ply>,
    seat: Seat,
    style: board::Style,
    engine: Engine,
    level: Option<u32>,
    movetime: Option<Duration>,
    rng: ChaCha8Rng,
    dice: bool,
    /// The current roll of the side to move, with the faces rolled before it that had no move.
    roll: Option<(u8, Vec<u8>)>,
    over: Option<GameEnd>,
    /// The board changed since it was last drawn.
    dirty: bool,
}

fn side_name(side: Side) -> &'static str {
    side.name()
}

impl Session {
    fn new(opts: &PlayOptions, color: bool) -> Result<Session> {
        let mut variant = crate::variant::load(&opts.variant)?;
        if opts.dice {
            variant = engine::with_dice(variant);
        }
        let game = Game::new(variant);
        let start = match &opts.fen {
            Some(fen) => Position::from_fen(&game, fen)?,
            None => Position::start(&game),
        };
        let seed = opts.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        });
        Ok(Session {
            pos: start.clone(),
            start,
            plies: Vec::new(),
            seat: opts.seat,
            style: board::Style {
                color,
                flipped: opts.seat == Seat::Black,
            },
            engine: Engine::new(opts.hash_mb, 1),
            level: Some(opts.level.max(1)),
            movetime: opts.movetime,
            rng: ChaCha8Rng::seed_from_u64(seed),
            dice: opts.dice,
            roll: None,
            over: None,
            dirty: true,
            game,
        })
    }

    fn human(&self, side: Side) -> bool {
        match self.seat {
            Seat::White => side == Side::White,
            Seat::Black => side == Side::Black,
            Seat::Both => true,
        }
    }

    fn player_name(&self, side: Side) -> String {
        match (self.seat, self.human(side)) {
            (Seat::Both, _) => format!("{} player", side_name(side)),
            (_, true) => "You".into(),
            (_, false) => "acedrex".into(),
        }
    }

    fn banner(&self, out: &mut dyn Write) -> Result<()> {
        let v = &self.game.variant;
        let who = match self.seat {
            Seat::White => "You play White against acedrex.".to_string(),
            Seat::Black => "You play Black against acedrex.".to_string(),
            Seat::Both => "Two players, one keyboard.".to_string(),
        };
        writeln!(
            out,
            "acedrex play: {} ({}x{}){}. {who}",
            v.name,
            v.files,
            v.ranks,
            if self.dice { ", with dice" } else { "" }
        )?;
        if !v.description.is_empty() {
            writeln!(out, "{}", v.description)?;
        }
        writeln!(
            out,
            "Type a move such as {}, or `help`.",
            self.example_move()
        )?;
        Ok(())
    }

    /// A legal first move to show in the banner, a pawn's if there is one.
    fn example_move(&self) -> String {
        let mut pos = self.start.clone();
        let pawns = &self.game.variant.promotion.pawns;
        let mut moves: Vec<(bool, String)> = pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                (
                    !pawns.contains(&self.game.letter(pos.mover(m).kind())),
                    pos.move_text(m),
                )
            })
            .collect();
        moves.sort();
        moves
            .first()
            .map_or_else(|| "e2e4".into(), |(_, t)| t.clone())
    }

    fn limits(&self) -> crate::search::Limits {
        engine::limits(self.level, self.movetime)
    }

    /// Plays forced and engine plies until the human is to move or the game ends.
    fn advance(&mut self, out: &mut dyn Write) -> Result<()> {
        loop {
            if self.over.is_some() {
                return Ok(());
            }
            if let Some(end) = self.pos.game_end() {
                self.over = Some(end);
                self.show(out)?;
                writeln!(out, "Game over: {}.", describe_end(end))?;
                writeln!(
                    out,
                    "Type `new` to play again, `undo` to take back, `save FILE.pgn` or `quit`."
                )?;
                return Ok(());
            }
            let side = self.pos.side_to_move();
            if self.dice && self.roll.is_none() {
                match engine::dice_turn(&mut self.pos, &mut self.rng) {
                    Some(Turn::Move { face, rerolls, .. }) => self.roll = Some((face, rerolls)),
                    Some(Turn::Pass { face }) => {
                        writeln!(
                            out,
                            "{} rolls {face} ({}): no such move, the turn passes.",
                            side_name(side),
                            engine::face_name(&self.pos, face)
                        )?;
                        self.pos.make_null();
                        self.plies.push(Ply {
                            mv: None,
                            roll: Some(face),
                            comment: None,
                        });
                        self.dirty = true;
                        continue;
                    }
                    None => return Err(PlayError::NoRollableMove),
                }
            }
            if self.human(side) {
                return Ok(());
            }
            self.roll_line(out)?;
            writeln!(out, "acedrex is thinking...")?;
            out.flush()?;
            let roll = self.roll.as_ref().map(|r| r.0);
            let limits = self.limits();
            let Some(m) = engine::choose(&mut self.engine, &self.pos, roll, &limits) else {
                return Err(PlayError::NoEngineMove);
            };
            let san = pgn::san(&mut self.pos, m);
            writeln!(out, "acedrex plays {san} ({}).", self.pos.move_text(m))?;
            self.play_move(m);
        }
    }

    fn play_move(&mut self, m: Move) {
        let roll = self.roll.take().map(|(f, _)| f);
        self.pos.make(m);
        self.plies.push(Ply {
            mv: Some(m),
            roll,
            comment: None,
        });
        self.dirty = true;
    }

    fn roll_line(&self, out: &mut dyn Write) -> Result<()> {
        if let Some((face, rerolls)) = &self.roll {
            let side = side_name(self.pos.side_to_move());
            for r in rerolls {
                writeln!(
                    out,
                    "{side} rolls {r} ({}): no such move, rolling again.",
                    engine::face_name(&self.pos, *r)
                )?;
            }
            writeln!(
                out,
                "{side} rolls {face}: the {} must move.",
                engine::face_name(&self.pos, *face)
            )?;
        }
        Ok(())
    }

    /// Board and status, if anything changed.
    fn show(&mut self, out: &mut dyn Write) -> Result<()> {
        if !self.dirty {
            return Ok(());
        }
        self.dirty = false;
        writeln!(out)?;
        write!(out, "{}", board::render(&self.pos, self.style))?;
        let side = self.pos.side_to_move();
        let mut status = format!("Move {}, {} to move", self.pos.fullmove(), side_name(side));
        if let Some(p) = self.plies.last() {
            let text = match p.mv {
                Some(m) => self.move_text_before(m),
                None => "pass".into(),
            };
            status += &format!("; last move {text}");
        }
        if self.over.is_none() && self.pos.in_check() {
            status += "; CHECK";
        }
        writeln!(out, "{status}.")?;
        if self.over.is_none() && self.human(side) {
            self.roll_line(out)?;
        }
        Ok(())
    }

    /// A played move as SAN and coordinates, computed in the position before it.
    fn move_text_before(&mut self, m: Move) -> String {
        self.pos.unmake();
        let text = format!("{} ({})", pgn::san(&mut self.pos, m), self.pos.move_text(m));
        self.pos.make(m);
        text
    }

    fn prompt(&mut self, out: &mut dyn Write) -> Result<()> {
        if self.over.is_some() {
            write!(out, "Game over> ")?;
        } else {
            let side = self.pos.side_to_move();
            match self.seat {
                Seat::Both => write!(out, "{} to move> ", side_name(side))?,
                _ => write!(out, "Your move ({})> ", side_name(side))?,
            }
        }
        out.flush()?;
        Ok(())
    }

    /// Handles one input line; false to quit.
    fn command(&mut self, line: &str, out: &mut dyn Write) -> Result<bool> {
        let mut words = line.split_whitespace();
        let Some(word) = words.next() else {
            return Ok(true);
        };
        let arg = words.next();
        match word.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => {
                writeln!(out, "Bye.")?;
                return Ok(false);
            }
            "help" | "?" => writeln!(out, "{HELP}")?,
            "legend" => self.legend(out)?,
            "board" => {
                self.dirty = true;
                self.show(out)?;
            }
            "flip" => {
                self.style.flipped = !self.style.flipped;
                self.dirty = true;
                self.show(out)?;
            }
            "fen" => writeln!(out, "{}", self.pos.fen())?,
            "moves" => self.moves_of(arg, out)?,
            "hint" => self.hint(out)?,
            "undo" => self.undo(out)?,
            "new" => {
                self.pos = self.start.clone();
                self.plies.clear();
                self.roll = None;
                self.over = None;
                self.engine.clear();
                self.dirty = true;
                writeln!(out, "New game.")?;
                self.advance(out)?;
                self.show(out)?;
            }
            // The file name is the rest of the line, spaces and all.
            "save" => self.save(
                Some(line[word.len()..].trim()).filter(|p| !p.is_empty()),
                out,
            )?,
            "level" => match arg
                .and_then(|a| a.parse::<u32>().ok())
                .filter(|&n| (1..=64).contains(&n))
            {
                Some(n) => {
                    self.level = Some(n);
                    writeln!(
                        out,
                        "Engine level {n}: searches {n} plies{}.",
                        self.time_note()
                    )?;
                }
                None => writeln!(
                    out,
                    "Usage: level N, with N from 1 to 64 (search depth in plies)."
                )?,
            },
            "time" => match arg
                .and_then(|a| a.parse::<f64>().ok())
                .filter(|&s| s > 0.0 && s <= 3600.0)
            {
                Some(secs) => {
                    self.movetime = Some(Duration::from_secs_f64(secs));
                    self.level = None;
                    writeln!(out, "Engine time: {secs} seconds per move.")?;
                }
                None => writeln!(
                    out,
                    "Usage: time SECONDS, e.g. time 5 (engine time per move)."
                )?,
            },
            _ => self.human_move(line, out)?,
        }
        Ok(true)
    }

    fn time_note(&self) -> String {
        self.movetime.map_or(String::new(), |t| {
            format!(", at most {} s a move", t.as_secs_f64())
        })
    }

    fn legend(&self, out: &mut dyn Write) -> Result<()> {
        let v = &self.game.variant;
        let face = |l: char| {
            v.dice
                .as_ref()
                .and_then(|d| d.faces.iter().find(|&&(_, x)| x == l))
                .map(|&(f, _)| f)
        };
        writeln!(out, "White upper case, Black lower case.")?;
        for p in &v.pieces {
            let value = p.value.map_or(String::new(), |x| format!("  value {x}"));
            let die = match face(p.letter) {
                Some(f) if self.dice => format!("  die {f}"),
                _ => String::new(),
            };
            writeln!(
                out,
                "  {}  {:<12} {:<12}{value}{die}",
                p.letter, p.name, p.betza_text
            )?;
        }
        Ok(())
    }

    fn moves_of(&mut self, arg: Option<&str>, out: &mut dyn Write) -> Result<()> {
        let (files, ranks) = (self.game.variant.files, self.game.variant.ranks);
        let Some((sq, _)) =
            arg.and_then(|a| parse_square(a, files, ranks).filter(|&(_, n)| n == a.len()))
        else {
            writeln!(out, "Usage: moves SQUARE, e.g. moves g1.")?;
            return Ok(());
        };
        let code = self.pos.at(sq);
        let name = square_name(sq);
        if !code.is_piece() {
            writeln!(out, "{name} is empty.")?;
            return Ok(());
        }
        let piece = &self.game.variant.pieces[code.kind().index()].name;
        let side = self.pos.side_to_move();
        if code.side() != side {
            writeln!(
                out,
                "The {piece} on {name} is {}'s; it is {} to move.",
                side_name(code.side()),
                side_name(side)
            )?;
            return Ok(());
        }
        let mut moves: Vec<Move> = self
            .pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.from == sq)
            .collect();
        moves.sort_by_key(|m| (file_of(m.to), rank_of(m.to), m.promotion()));
        if moves.is_empty() {
            writeln!(out, "The {piece} on {name} has no legal move.")?;
            return Ok(());
        }
        let texts: Vec<String> = moves.iter().map(|&m| self.pos.move_text(m)).collect();
        writeln!(out, "The {piece} on {name}: {}", texts.join(" "))?;
        if let Some((face, _)) = self.roll
            && self.pos.dice_moves(face).iter().all(|m| m.from != sq)
        {
            writeln!(
                out,
                "(but the die rolled {face}: the {} must move)",
                engine::face_name(&self.pos, face)
            )?;
        }
        Ok(())
    }

    fn hint(&mut self, out: &mut dyn Write) -> Result<()> {
        if self.over.is_some() {
            writeln!(out, "The game is over.")?;
            return Ok(());
        }
        let roll = self.roll.as_ref().map(|r| r.0);
        let limits = self.limits();
        match engine::choose(&mut self.engine, &self.pos, roll, &limits) {
            Some(m) => writeln!(
                out,
                "Hint: {} ({}).",
                self.pos.move_text(m),
                pgn::san(&mut self.pos, m)
            )?,
            None => writeln!(out, "No move to suggest.")?,
        }
        Ok(())
    }

    /// Which side made ply `i`.
    fn mover(&self, i: usize) -> Side {
        Side::from_index(self.start.side_to_move().index() ^ (i % 2))
    }

    fn undo(&mut self, out: &mut dyn Write) -> Result<()> {
        let human_ply =
            (0..self.plies.len()).any(|i| self.human(self.mover(i)) && self.plies[i].mv.is_some());
        if !human_ply {
            writeln!(out, "Nothing to undo.")?;
            return Ok(());
        }
        // Back to the last real move of a human, with the roll that allowed it.
        while let Some(p) = self.plies.pop() {
            match p.mv {
                Some(_) => self.pos.unmake(),
                None => self.pos.unmake_null(),
            }
            let i = self.plies.len();
            if p.mv.is_some() && self.human(self.mover(i)) {
                self.roll = p.roll.map(|f| (f, Vec::new()));
                break;
            }
        }
        self.over = None;
        self.dirty = true;
        writeln!(out, "Taken back.")?;
        self.show(out)?;
        Ok(())
    }

    fn save(&mut self, arg: Option<&str>, out: &mut dyn Write) -> Result<()> {
        let Some(path) = arg else {
            writeln!(out, "Usage: save FILE.pgn")?;
            return Ok(());
        };
        let mut g = PgnGame::new(self.start.clone());
        g.set_tag("Event", "acedrex play");
        g.set_tag("Site", "acedrex");
        g.set_tag("Date", pgn::today());
        g.set_tag("White", self.player_name(Side::White));
        g.set_tag("Black", self.player_name(Side::Black));
        g.plies = self.plies.clone();
        g.set_end(self.over);
        match std::fs::write(path, g.to_pgn()) {
            Ok(()) => writeln!(out, "Saved {} plies to {path}.", self.plies.len())?,
            Err(e) => writeln!(out, "cannot write {path}: {e}")?,
        }
        Ok(())
    }

    fn human_move(&mut self, text: &str, out: &mut dyn Write) -> Result<()> {
        if let Some(end) = self.over {
            writeln!(
                out,
                "The game is over ({}). Type `new`, `undo`, `save FILE.pgn` or `quit`.",
                describe_end(end)
            )?;
            return Ok(());
        }
        let m = match pgn::parse_san(&mut self.pos, text) {
            Ok(m) => m,
            Err(_) => {
                // The coordinate parser's message is the clearer one for coordinate-shaped input.
                let msg = match self.pos.parse_move(text) {
                    Err(e) => e.to_string(),
                    Ok(_) => format!("`{text}` is not legal here"),
                };
                let hint = if text.contains(char::is_whitespace)
                    || !text.chars().any(|c| c.is_ascii_digit())
                {
                    "Type `help` for the commands."
                } else {
                    "Type `moves SQUARE` to see a piece's moves."
                };
                writeln!(out, "Illegal move: {msg}. {hint}")?;
                return Ok(());
            }
        };
        if let Some((face, _)) = &self.roll {
            let face = *face;
            if !self.pos.dice_moves(face).contains(&m) {
                let piece = &self.game.variant.pieces[self.pos.mover(m).kind().index()].name;
                writeln!(
                    out,
                    "The die rolled {face}: the {} must move, and {text} moves the {piece}.",
                    engine::face_name(&self.pos, face)
                )?;
                return Ok(());
            }
        }
        let who = if self.seat == Seat::Both {
            side_name(self.pos.side_to_move())
        } else {
            "You"
        };
        writeln!(
            out,
            "{who} play{} {}.",
            if self.seat == Seat::Both { "s" } else { "" },
            pgn::san(&mut self.pos, m)
        )?;
        self.play_move(m);
        self.advance(out)?;
        self.show(out)?;
        Ok(())
    }
}

/// `1-0, White wins by checkmate`.
pub fn describe_end(end: GameEnd) -> String {
    match end.winner {
        Winner::White => format!("{}, White wins ({})", end.score(), end.reason),
        Winner::Black => format!("{}, Black wins ({})", end.score(), end.reason),
        Winner::Draw => format!("{}, draw ({})", end.score(), end.reason),
    }
}
