//! The `acedrex` command line: thin wrappers over the library.

use acedrex::diagram::{DiagramOptions, Subject};
use acedrex::explore::{Probe, destinations, list_line};
use acedrex::game::Game;
use acedrex::movegen::perft;
use acedrex::play::{PlayOptions, Seat, selfplay::SelfplayOptions};
use acedrex::position::Position;
use acedrex::protocol::Protocol;
use clap::{Parser, Subcommand};
use std::io::{BufRead, BufReader, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// acedrex: a chess-variant engine where every variant is one data file.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Validate variant files; prints every diagnostic, exit status 1 if any file is wrong.
    Check(CheckArgs),
    /// List the shipped variants: name, board, the other names it answers to, description.
    Variants,
    /// Show what one Betza string does from one square of an otherwise empty board.
    Piece(PieceArgs),
    /// Count legal move paths to a depth (Fairy-Stockfish's perft).
    Perft(PerftArgs),
    /// List the legal moves (sorted); a second line gives the result when the game is over.
    Moves(MovesArgs),
    /// Print a position: the board, its FEN, and whether the side to move is in check.
    Show(ShowArgs),
    /// Print a position's static evaluation term by term: each side's middlegame and endgame
    /// values, the phase that blends them, and the total.
    Eval(ShowArgs),
    /// Play against the engine in the terminal.
    Play(PlayArgs),
    /// The engine against itself; PGN to -o (or stdout), a summary at the end.
    Selfplay(SelfplayArgs),
    /// SVG diagram of a piece's moves or of a position.
    Diagram(DiagramArgs),
    /// Speak CECP (XBoard/WinBoard) on stdin/stdout.
    Xboard(XboardArgs),
    /// Speak UCI (with UCI_Variant) on stdin/stdout.
    Uci(UciArgs),
    /// Speak USI (the shogi GUIs' UCI: SFEN positions, moves such as 7g7f and P*5e) on stdin/stdout.
    Usi(UciArgs),
    /// Write a Fairy-Max fmax.ini for variants (warnings on stderr where Fairy-Max differs).
    Fmax(FmaxArgs),
    /// Turn the Game: blocks of an fmax.ini into acedrex variant files.
    FmaxImport(FmaxImportArgs),
    /// Fixed-depth search of fixed positions (deterministic); the last line is `N nodes M nps`.
    Bench(BenchArgs),
    /// Search one position: info lines, then `bestmove MOVE`.
    Go(GoArgs),
    /// Write a balanced opening suite: random plies from the start, kept when the engine's shallow
    /// search scores them within a bound, de-duplicated; deterministic from the seed.
    Openings(OpeningsArgs),
    /// SPRT of a working build against a base build over UCI: game pairs from a suite, pentanomial
    /// Elo and LLR, one game at a time; results appended to a file and resumed from it.
    Sprt(SprtArgs),
    /// Fit the evaluation's parameters to self-play games (Texel's method): plays games at fixed
    /// nodes into a data file (resumable), fits, prints the `eval` line, and plays the tuned
    /// against the untuned evaluation.
    Tune(TuneArgs),
    /// For each piece of a variant: its Betza, its compiled table and a movement diagram.
    Pieces(PiecesArgs),
}

#[derive(clap::Args)]
struct CheckArgs {
    /// Variant files to check.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

#[derive(clap::Args)]
struct PieceArgs {
    /// The piece in Betza/XBetza notation, e.g. 't[FR]'.
    betza: String,
    /// Board size, FILESxRANKS.
    #[arg(long, default_value = "12x12")]
    board: String,
    /// The piece's square.
    #[arg(long, default_value = "f6")]
    at: String,
    /// Squares holding friendly pieces, comma separated.
    #[arg(long, value_delimiter = ',')]
    friends: Vec<String>,
    /// Squares holding enemy pieces, comma separated.
    #[arg(long, value_delimiter = ',')]
    enemies: Vec<String>,
    /// The piece is Black (moves towards rank 1).
    #[arg(long)]
    black: bool,
    /// The piece has moved already (no initial moves).
    #[arg(long)]
    moved: bool,
    /// Print one line: the destinations sorted by file then rank, captures with a trailing x.
    #[arg(long)]
    list: bool,
}

#[derive(clap::Args)]
struct PerftArgs {
    depth: u32,
    #[command(flatten)]
    at: PositionArgs,
    /// One line per root move: `move: count`.
    #[arg(long)]
    divide: bool,
}

#[derive(clap::Args)]
struct MovesArgs {
    #[command(flatten)]
    at: PositionArgs,
}

#[derive(clap::Args)]
struct ShowArgs {
    #[command(flatten)]
    at: PositionArgs,
}

#[derive(clap::Args)]
struct PlayArgs {
    /// A shipped variant's name or alias, or the path of a variant file.
    #[arg(long, default_value = "grant-acedrex")]
    variant: String,
    /// Start from this FEN.
    #[arg(long)]
    fen: Option<String>,
    /// Start from arrangement N of a shuffle variant's back rank (fischerandom: Scharnagl's number).
    #[arg(long, conflicts_with = "fen")]
    shuffle: Option<u64>,
    /// Roll the variant's die each turn: only the rolled piece type may move.
    #[arg(long)]
    dice: bool,
    /// Play White (the default).
    #[arg(long, conflicts_with = "black")]
    white: bool,
    /// Play Black.
    #[arg(long)]
    black: bool,
    /// Engine search depth in plies.
    #[arg(long, default_value_t = 8)]
    level: u32,
    /// Engine seconds per move (cap).
    #[arg(long, default_value_t = 5.0)]
    time: f64,
    /// Seed for the dice.
    #[arg(long)]
    seed: Option<u64>,
}

#[derive(clap::Args)]
struct SelfplayArgs {
    /// Number of games.
    games: u32,
    /// A shipped variant's name or alias, or the path of a variant file.
    #[arg(long, default_value = "grant-acedrex")]
    variant: String,
    /// Play with the variant's die.
    #[arg(long)]
    dice: bool,
    /// Search depth per move.
    #[arg(long, conflicts_with = "movetime")]
    depth: Option<u32>,
    /// Milliseconds per move.
    #[arg(long)]
    movetime: Option<u64>,
    /// Where to write the games (PGN).
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
    /// Seed of the random opening plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(clap::Args)]
struct DiagramArgs {
    /// A shipped variant's name or alias, or the path of a variant file.
    #[arg(long, default_value = "grant-acedrex")]
    variant: String,
    /// A piece of the variant, by id (`N`, `A'`, `+D`).
    #[arg(long, value_parser = piece_id)]
    piece: Option<char>,
    /// A Betza string.
    #[arg(long)]
    betza: Option<String>,
    /// A position.
    #[arg(long)]
    fen: Option<String>,
    /// Moves from the start position.
    #[arg(long)]
    moves: Option<String>,
    /// The piece's square (piece diagrams).
    #[arg(long)]
    at: Option<String>,
    /// Board size for a Betza string, FILESxRANKS.
    #[arg(long)]
    board: Option<String>,
    /// Output file (default: standard output).
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
}

#[derive(clap::Args)]
struct XboardArgs {
    /// Extra variant files or directories.
    #[arg(long = "variant-file")]
    variant_files: Vec<PathBuf>,
    /// Transposition table size in MB at start-up (1 to 65536; default 16); the GUI's own setting replaces it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=acedrex::protocol::args::MAX_HASH_MB as i64))]
    hash: Option<u32>,
}

#[derive(clap::Args)]
struct UciArgs {
    /// Extra variant files or directories.
    #[arg(long = "variant-file")]
    variant_files: Vec<PathBuf>,
    /// Variant to start in (default chess, as UCI GUIs expect).
    #[arg(long)]
    variant: Option<String>,
    /// Transposition table size in MB at start-up (1 to 65536; default 16); the GUI's own setting replaces it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=acedrex::protocol::args::MAX_HASH_MB as i64))]
    hash: Option<u32>,
}

#[derive(clap::Args)]
struct FmaxArgs {
    /// Variants to include (names, aliases or files); repeatable.
    #[arg(long)]
    variant: Vec<String>,
    /// Include every shipped variant Fairy-Max can express.
    #[arg(long)]
    all: bool,
    /// Output file (default: standard output).
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
}

#[derive(clap::Args)]
struct FmaxImportArgs {
    /// The fmax.ini to read.
    file: PathBuf,
    /// Directory for the variant files (default: current directory).
    #[arg(short = 'o', long, default_value = ".")]
    output: PathBuf,
}

#[derive(clap::Args)]
struct BenchArgs {
    /// Only this variant's positions (default: every shipped variant).
    variant: Option<String>,
    /// Search depth.
    depth: Option<u32>,
}

#[derive(clap::Args)]
struct GoArgs {
    #[command(flatten)]
    at: PositionArgs,
    /// Search to this depth.
    #[arg(long)]
    depth: Option<u32>,
    /// Search this many milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
}

#[derive(clap::Args)]
struct PiecesArgs {
    /// A shipped variant's name or alias, or the path of a variant file.
    #[arg(long, default_value = "grant-acedrex")]
    variant: String,
}

#[derive(clap::Args)]
struct OpeningsArgs {
    /// A shipped variant's name or alias, or the path of a variant file.
    #[arg(long)]
    variant: String,
    /// Openings wanted.
    #[arg(long, default_value_t = 500)]
    count: usize,
    /// Random legal plies from the start position.
    #[arg(long, default_value_t = 8)]
    plies: u32,
    /// Keep positions scored within this many centipawns of equality.
    #[arg(long, default_value_t = 60)]
    bound: i32,
    /// Depth of the filtering search.
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// Node cap of the filtering search.
    #[arg(long, default_value_t = 100_000)]
    nodes: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write each opening as its moves from the start (as XBoard writes them) instead of its FEN,
    /// for a peer that cannot take a position by `setboard`; the same options give the same
    /// openings line by line.
    #[arg(long)]
    moves: bool,
    /// Output file (default: standard output).
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
}

#[derive(clap::Args)]
struct SprtArgs {
    /// The working build's binary.
    #[arg(long)]
    new: PathBuf,
    /// The base build's binary.
    #[arg(long)]
    base: PathBuf,
    /// A shipped variant's name or alias, or the path of a variant file.
    #[arg(long, default_value = "grant-acedrex")]
    variant: String,
    /// Opening suite (default: openings/VARIANT.fen).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Results file: finished pairs are appended, and read back when the run starts again.
    #[arg(long)]
    results: PathBuf,
    /// Time control BASE+INC in seconds.
    #[arg(long, default_value = "2+0.02", conflicts_with = "nodes")]
    tc: String,
    /// Fixed nodes per move instead of a clock.
    #[arg(long)]
    nodes: Option<u64>,
    /// The new engine's own nodes per move (node odds): a gauntlet against a fixed opponent,
    /// such as Fairy-Stockfish given as `--new` at a node count that scores near 50 %.
    #[arg(long, requires = "nodes")]
    new_nodes: Option<u64>,
    /// A variant file the new engine loads (UCI `VariantPath`) in place of the variant's own:
    /// an `eval` line tested against the shipped one with the same binary, no rebuild. Its
    /// `variant` name must be the variant's.
    #[arg(long)]
    new_file: Option<PathBuf>,
    /// The same for the base engine (acedrex as the base of a gauntlet).
    #[arg(long)]
    base_file: Option<PathBuf>,
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    elo0: f64,
    #[arg(long, default_value_t = 5.0, allow_negative_numbers = true)]
    elo1: f64,
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Stop after this many games even without a verdict.
    #[arg(long)]
    max_games: Option<u64>,
    /// Hash per engine in MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Milliseconds a move may overrun the clock before it loses on time.
    #[arg(long, default_value_t = 100)]
    time_margin: u64,
    /// Play every game out (no resign or draw adjudication from the engines' scores).
    #[arg(long)]
    no_adjudication: bool,
}

#[derive(clap::Args)]
struct TuneArgs {
    /// A shipped variant's name or alias, or the path of a variant file.
    #[arg(long)]
    variant: String,
    /// Opening suite (default: openings/VARIANT.fen).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Data file: positions of finished games are appended, and read back when the run starts
    /// again (default: tune-VARIANT.txt).
    #[arg(long)]
    data: Option<PathBuf>,
    /// Games the data file should hold before the fit.
    #[arg(long, default_value_t = 200)]
    games: u64,
    /// Nodes per move in the games and in the match.
    #[arg(long, default_value_t = 2000)]
    nodes: u64,
    /// At most this many positions enter the fit.
    #[arg(long, default_value_t = 60_000)]
    positions: usize,
    /// Fit passes at most.
    #[arg(long, default_value_t = 40)]
    passes: usize,
    /// Games of the tuned against the untuned evaluation at the end (0: no match).
    #[arg(long, default_value_t = 100)]
    match_games: u64,
    /// Play the data games with this UCI engine (Fairy-Stockfish, say) instead of acedrex: the
    /// fit learns from a stronger engine's games. The match still plays acedrex.
    #[arg(long)]
    engine: Option<PathBuf>,
    /// Fit to this UCI engine's judgement instead of the game results: each position's label is
    /// the engine's score at `--label-depth` (White's expected score, `1 / (1 + 10^(-cp/400))`).
    #[arg(long)]
    label_engine: Option<PathBuf>,
    /// The depth of `--label-engine`'s search on each position.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    label_depth: u32,
    /// Write a copy of the variant file with the fitted `eval` line here.
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
}

/// Where a command starts: a variant, an optional FEN and moves played from it.
#[derive(clap::Args)]
struct PositionArgs {
    /// A shipped variant's name or alias, or the path of a variant file.
    #[arg(long, default_value = "grant-acedrex")]
    variant: String,
    /// Start from this FEN instead of the variant's start position.
    #[arg(long)]
    fen: Option<String>,
    /// Moves to play first, space separated, in coordinate notation.
    #[arg(long, default_value = "")]
    moves: String,
    /// Start from arrangement N of a shuffle variant's back rank (fischerandom: Scharnagl's
    /// number, 518 the orthodox start).
    #[arg(long, conflicts_with = "fen")]
    shuffle: Option<u64>,
}

impl PositionArgs {
    fn position(&self) -> anyhow::Result<Position> {
        let game: Arc<Game> = Game::new(acedrex::variant::load(&self.variant)?);
        let mut pos = match (&self.fen, self.shuffle) {
            (Some(f), _) => Position::from_fen(&game, f)?,
            (None, Some(n)) => Position::from_setup(&game, &game.variant.start_arrangement(n)?)?,
            (None, None) => Position::start(&game),
        };
        for (i, text) in self.moves.split_whitespace().enumerate() {
            let m = pos
                .parse_move(text)
                .map_err(|e| anyhow::anyhow!("move {} of --moves: {e}", i + 1))?;
            pos.make(m);
        }
        Ok(pos)
    }
}

fn parse_board(text: &str) -> Result<(u8, u8), String> {
    let bad = || format!("board `{text}`: expected FILESxRANKS such as 12x12, each 1..16");
    let (f, r) = text.split_once('x').ok_or_else(bad)?;
    let (f, r): (u8, u8) = (f.parse().map_err(|_| bad())?, r.parse().map_err(|_| bad())?);
    if !(1..=16).contains(&f) || !(1..=16).contains(&r) {
        return Err(bad());
    }
    Ok((f, r))
}

/// `writeln!` to standard output, handing a write error (a closed pipe) back to the caller.
macro_rules! outln {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout(), $($arg)*)
    };
}

/// `write!` to standard output, handing a write error back to the caller.
macro_rules! out {
    ($($arg:tt)*) => {
        write!(std::io::stdout(), $($arg)*)
    };
}

fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Check(args) => check(args),
        Command::Variants => variants(),
        Command::Piece(args) => piece(args),
        Command::Perft(args) => perft(args),
        Command::Moves(args) => moves(args),
        Command::Show(args) => show(args),
        Command::Eval(args) => eval(args),
        Command::Play(args) => play(args),
        Command::Selfplay(args) => selfplay(args),
        Command::Diagram(args) => diagram(args),
        Command::Xboard(args) => xboard(args),
        Command::Uci(args) => uci(args),
        Command::Usi(args) => usi(args),
        Command::Fmax(args) => fmax(args),
        Command::FmaxImport(args) => fmax_import(args),
        Command::Bench(args) => bench(args),
        Command::Go(args) => go(args),
        Command::Openings(args) => openings(args),
        Command::Sprt(args) => sprt(args),
        Command::Tune(args) => tune(args),
        Command::Pieces(args) => pieces(args),
    }
}

/// `acedrex check`: every diagnostic of every file; failure if any file is wrong.
fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let (report, ok) = acedrex::variant::check_files(&args.files);
    out!("{report}")?;
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `acedrex variants`: one line per shipped variant.
fn variants() -> anyhow::Result<ExitCode> {
    for name in acedrex::variant::builtin_names() {
        let v = acedrex::variant::load(name)?;
        let mut others: Vec<&str> = v.aliases.iter().map(String::as_str).collect();
        if v.xboard_name != v.name && !others.contains(&v.xboard_name.as_str()) {
            others.push(&v.xboard_name);
        }
        let others = if others.is_empty() {
            String::new()
        } else {
            format!(" ({})", others.join(", "))
        };
        outln!(
            "{:<22} {:>5}  {}{others}",
            v.name,
            format!("{}x{}", v.files, v.ranks),
            v.description
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `acedrex piece`: what one Betza string does on an otherwise empty board.
fn piece(args: PieceArgs) -> anyhow::Result<ExitCode> {
    let (files, ranks) = parse_board(&args.board).map_err(anyhow::Error::msg)?;
    let probe = Probe {
        files,
        ranks,
        at: args.at,
        friends: args.friends,
        enemies: args.enemies,
        black: args.black,
        moved: args.moved,
    };
    let dests = destinations(&args.betza, &probe)?;
    if args.list {
        outln!("{}", list_line(&dests))?;
    } else {
        let text = acedrex::explore::render(&args.betza, &probe, &dests)?;
        outln!("{text}")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `acedrex perft`: the node count, or one line per root move with `--divide`.
fn perft(args: PerftArgs) -> anyhow::Result<ExitCode> {
    let mut pos = args.at.position()?;
    let total = if args.divide {
        let mut rows: Vec<(String, u64)> = perft::divide(&mut pos, args.depth)
            .into_iter()
            .map(|(m, n)| (pos.move_text(m), n))
            .collect();
        rows.sort();
        for (m, n) in &rows {
            outln!("{m}: {n}")?;
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        perft::perft(&mut pos, args.depth)
    };
    outln!("Nodes searched: {total}")?;
    Ok(ExitCode::SUCCESS)
}

/// `acedrex moves`: the sorted legal moves, then the result when the game is over.
fn moves(args: MovesArgs) -> anyhow::Result<ExitCode> {
    let mut pos = args.at.position()?;
    let moves = pos.legal_moves();
    let mut texts: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
    texts.sort();
    outln!("{}", texts.join(" "))?;
    if let Some(end) = pos.game_end_with(moves.len()) {
        outln!("result {end}")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `acedrex show`: the board, its FEN and whether the side to move is in check.
fn show(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let pos = args.at.position()?;
    out!("{}", acedrex::explore::position_text(&pos))?;
    outln!("fen {}", pos.fen())?;
    if pos.in_check() {
        outln!("the side to move is in check")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `acedrex eval`: the static evaluation term by term.
fn eval(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let pos = args.at.position()?;
    let tables = acedrex::eval::EvalTables::new(pos.game());
    outln!("{}", tables.trace(&pos))?;
    Ok(ExitCode::SUCCESS)
}

/// `acedrex play`: a game against the engine in the terminal.
fn play(args: PlayArgs) -> anyhow::Result<ExitCode> {
    let fen = match args.shuffle {
        Some(n) => Some(
            acedrex::variant::load(&args.variant)?
                .start_arrangement(n)?
                .fen(),
        ),
        None => args.fen,
    };
    acedrex::play::play(PlayOptions {
        variant: args.variant,
        fen,
        dice: args.dice,
        seat: if args.black { Seat::Black } else { Seat::White },
        level: args.level,
        movetime: Some(std::time::Duration::from_secs_f64(args.time)),
        seed: args.seed,
        ..PlayOptions::default()
    })?;
    Ok(ExitCode::SUCCESS)
}

/// `acedrex selfplay`: the engine against itself.
fn selfplay(args: SelfplayArgs) -> anyhow::Result<ExitCode> {
    acedrex::play::selfplay::selfplay(&SelfplayOptions {
        games: args.games,
        variant: args.variant,
        dice: args.dice,
        depth: args.depth,
        movetime: args.movetime.map(std::time::Duration::from_millis),
        output: args.output,
        seed: args.seed,
        ..SelfplayOptions::default()
    })?;
    Ok(ExitCode::SUCCESS)
}

/// A piece id on the command line: `N`, `A'`, `+D`.
fn piece_id(text: &str) -> Result<char, String> {
    match acedrex::piece::id::read_all(text) {
        Some((id, false)) => Ok(id),
        _ => Err(format!(
            "`{text}` is not a piece id: expected an upper-case letter, `'` or `!` after it allowed (`A'`), or `+` before it (`+D`)"
        )),
    }
}

/// `acedrex diagram`: an SVG to a file or standard output.
fn diagram(args: DiagramArgs) -> anyhow::Result<ExitCode> {
    let subject = match (args.piece, args.betza, args.fen, args.moves) {
        (Some(l), ..) => Subject::Piece(l),
        (_, Some(b), ..) => Subject::Betza(b),
        (_, _, Some(f), _) => Subject::Fen(f),
        (_, _, _, Some(m)) => Subject::Moves(m),
        _ => Subject::Start,
    };
    let board = args
        .board
        .map(|b| parse_board(&b))
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let svg = acedrex::diagram::diagram(&DiagramOptions {
        variant: args.variant,
        subject,
        at: args.at,
        board,
    })?;
    write_output(args.output.as_deref(), &svg)?;
    Ok(ExitCode::SUCCESS)
}

/// `acedrex xboard`: a CECP session on standard input and output.
fn xboard(args: XboardArgs) -> anyhow::Result<ExitCode> {
    let cfg = acedrex::protocol::Config {
        variant_files: args.variant_files,
        variant: None,
        hash_mb: args.hash.map(|mb| mb as usize),
    };
    session(Protocol::Xboard, BufReader::new(std::io::stdin()), &cfg)
}

/// `acedrex uci`: a UCI session on standard input and output.
fn uci(args: UciArgs) -> anyhow::Result<ExitCode> {
    let cfg = acedrex::protocol::Config {
        variant_files: args.variant_files,
        variant: args.variant,
        hash_mb: args.hash.map(|mb| mb as usize),
    };
    session(Protocol::Uci, BufReader::new(std::io::stdin()), &cfg)
}

/// `acedrex usi`: a USI session (shogi GUIs) on standard input and output.
fn usi(args: UciArgs) -> anyhow::Result<ExitCode> {
    let cfg = acedrex::protocol::Config {
        variant_files: args.variant_files,
        variant: args.variant,
        hash_mb: args.hash.map(|mb| mb as usize),
    };
    session(Protocol::Usi, BufReader::new(std::io::stdin()), &cfg)
}

/// A protocol session answering on standard output.
fn session<R: BufRead + Send + 'static>(
    protocol: Protocol,
    input: R,
    cfg: &acedrex::protocol::Config,
) -> anyhow::Result<ExitCode> {
    acedrex::protocol::run(protocol, input, std::io::stdout(), cfg)?;
    Ok(ExitCode::SUCCESS)
}

/// `acedrex fmax`: an fmax.ini for the named variants (or all Fairy-Max can express).
fn fmax(args: FmaxArgs) -> anyhow::Result<ExitCode> {
    let mut variants = args
        .variant
        .iter()
        .map(|n| acedrex::variant::load(n))
        .collect::<Result<Vec<_>, _>>()?;
    if args.all {
        // Every built-in Fairy-Max can play: dice variants would lose their dice, and a variant
        // the export refuses is named and left out.
        for name in acedrex::variant::builtin_names() {
            let v = acedrex::variant::load(name)?;
            if v.dice.is_some() {
                continue;
            }
            match acedrex::fmax::export(std::slice::from_ref(&v)) {
                Ok(_) => variants.push(v),
                Err(e) => eprintln!("left out: {e}"),
            }
        }
    }
    if variants.is_empty() {
        variants.push(acedrex::variant::load("grant-acedrex")?);
    }
    let (text, warnings) = acedrex::fmax::export(&variants)?;
    for w in warnings {
        eprintln!("warning: {w}");
    }
    write_output(args.output.as_deref(), &text)?;
    Ok(ExitCode::SUCCESS)
}

/// `acedrex fmax-import`: one variant file per translated `Game:` block.
fn fmax_import(args: FmaxImportArgs) -> anyhow::Result<ExitCode> {
    let (file, output) = (&args.file, &args.output);
    let text = std::fs::read_to_string(file).map_err(|e| file_error(file, e))?;
    let (files, skipped) = acedrex::fmax::import(&text);
    std::fs::create_dir_all(output).map_err(|e| file_error(output, e))?;
    for (name, body) in &files {
        let path = output.join(name);
        std::fs::write(&path, body).map_err(|e| file_error(&path, e))?;
        outln!("wrote {}", path.display())?;
    }
    for s in skipped {
        eprintln!("not translated: {s}");
    }
    Ok(ExitCode::SUCCESS)
}

/// `acedrex bench`: fixed-depth searches of fixed positions.
fn bench(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let text = acedrex::cli::bench(args.variant.as_deref(), args.depth)?;
    outln!("{text}")?;
    Ok(ExitCode::SUCCESS)
}

/// `acedrex go`: one search, its info lines and the best move.
fn go(args: GoArgs) -> anyhow::Result<ExitCode> {
    let limits = acedrex::search::Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(std::time::Duration::from_millis),
        ..Default::default()
    };
    let at = &args.at;
    let text = acedrex::cli::go_command(&at.variant, at.fen.as_deref(), &at.moves, &limits)?;
    outln!("{text}")?;
    Ok(ExitCode::SUCCESS)
}

/// `acedrex pieces`: each piece's Betza, compiled table and movement diagram.
fn pieces(args: PiecesArgs) -> anyhow::Result<ExitCode> {
    let v = acedrex::variant::load(&args.variant)?;
    let text = acedrex::explore::pieces_text(&v)?;
    out!("{text}")?;
    Ok(ExitCode::SUCCESS)
}

/// `acedrex openings`: generates a suite; progress on stderr.
fn openings(a: OpeningsArgs) -> anyhow::Result<ExitCode> {
    use acedrex::lab::openings::{OpeningOptions, generate};
    let opts = OpeningOptions {
        variant: a.variant,
        count: a.count,
        plies: a.plies,
        bound: a.bound,
        depth: a.depth,
        nodes: a.nodes,
        seed: a.seed,
        moves: a.moves,
    };
    let tty = std::io::stderr().is_terminal();
    let suite = generate(&opts, &mut |kept, tried| {
        if tty {
            eprint!(
                "\r\x1b[2Kopenings {kept}/{} kept, {tried} tried",
                opts.count
            );
        }
    })?;
    if tty {
        eprintln!();
    }
    let text = suite.text(&opts);
    write_output(a.output.as_deref(), &text)?;
    eprintln!(
        "{} openings from {} candidates",
        suite.fens.len(),
        suite.tried
    );
    Ok(ExitCode::SUCCESS)
}

/// `acedrex sprt`: runs or resumes an SPRT and prints the summary.
fn sprt(a: SprtArgs) -> anyhow::Result<ExitCode> {
    use acedrex::lab::{stats::Sprt, tester};
    let control = match a.nodes {
        Some(n) => tester::Control::Nodes(n),
        None => tester::Control::parse_tc(&a.tc)?,
    };
    let openings = a.openings.unwrap_or_else(|| {
        let name = acedrex::variant::load(&a.variant).map_or(a.variant.clone(), |v| v.name);
        std::path::PathBuf::from(format!("openings/{name}.fen"))
    });
    let opts = tester::SprtOptions {
        new: a.new,
        base: a.base,
        variant: a.variant,
        openings,
        results: a.results,
        control,
        new_nodes: a.new_nodes,
        files: [a.new_file, a.base_file],
        sprt: Sprt {
            elo0: a.elo0,
            elo1: a.elo1,
            alpha: a.alpha,
            beta: a.beta,
        },
        max_pairs: a.max_games.map(|g| g.div_ceil(2)),
        hash_mb: a.hash,
        time_margin: std::time::Duration::from_millis(a.time_margin),
        adjudication: (!a.no_adjudication).then(tester::Adjudication::default),
        progress: None,
    };
    let rec = tester::run(&opts)?;
    outln!("{}", rec.report(&opts.sprt))?;
    Ok(ExitCode::SUCCESS)
}

/// `acedrex tune`: plays, fits, matches; the report and the `eval` line on stdout.
fn tune(a: TuneArgs) -> anyhow::Result<ExitCode> {
    use acedrex::lab::tune;
    let name = acedrex::variant::load(&a.variant).map_or(a.variant.clone(), |v| v.name);
    let opts = tune::TuneOptions {
        openings: a
            .openings
            .unwrap_or_else(|| PathBuf::from(format!("openings/{name}.fen"))),
        data: a
            .data
            .unwrap_or_else(|| PathBuf::from(format!("tune-{name}.txt"))),
        variant: a.variant,
        games: a.games,
        nodes: a.nodes,
        positions: a.positions,
        passes: a.passes,
        match_games: a.match_games,
        engine: a.engine,
        label: a.label_engine.map(|path| (path, a.label_depth)),
        progress: None,
    };
    let r = tune::run(&opts)?;
    let f = &r.fit;
    outln!(
        "{} games, {} positions fitted, {} held out; K {:.3}",
        r.games,
        r.positions,
        r.held_out,
        f.k
    )?;
    let held = if r.held_out > 0 {
        format!("held out {:.6} -> {:.6}", r.held_before, r.held_after)
    } else {
        "nothing held out: every tenth game is".into()
    };
    outln!(
        "error {:.6} -> {:.6} ({held}) after {} passes",
        f.before,
        f.after,
        f.passes
    )?;
    let line = r
        .line
        .clone()
        .unwrap_or_else(|| "# no eval line: the derived evaluation fits best".into());
    outln!("{line}")?;
    if let Some(m) = &r.matched {
        outln!("{m}")?;
    }
    if let Some(path) = &a.output {
        let text = acedrex::variant::source_text(&opts.variant)?;
        let labels = opts.label.as_ref().map_or(String::new(), |(path, depth)| {
            format!(", labelled by {} at depth {depth}", path.display())
        });
        // The nodes the data's games were played at, not this run's `--nodes`: a run on data
        // that is already complete plays no game.
        let nodes = match (r.nodes.first(), r.nodes.last()) {
            (Some(lo), Some(hi)) if lo == hi => format!(" at {lo} nodes per move"),
            (Some(lo), Some(hi)) => format!(" at {lo} to {hi} nodes per move"),
            _ => String::new(),
        };
        let note = format!(
            "fitted by `acedrex tune` to {} positions of {} games{nodes}{labels} (error {:.6} -> {:.6})",
            r.positions, r.games, f.before, f.after
        );
        let out = tune::with_eval_line(&text, r.line.as_deref().unwrap_or("#"), &note);
        std::fs::write(path, out).map_err(|e| file_error(path, e))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes a command's text to the file given, or to standard output.
fn write_output(output: Option<&Path>, text: &str) -> anyhow::Result<()> {
    match output {
        Some(p) => std::fs::write(p, text).map_err(|e| file_error(p, e))?,
        None => out!("{text}")?,
    }
    Ok(())
}

/// A file's I/O error, named by its path (kept apart from standard output's errors).
fn file_error(path: &Path, e: std::io::Error) -> anyhow::Error {
    anyhow::anyhow!("{}: {e}", path.display())
}

/// Reading stopped at the other end of a pipe (`acedrex ... | head`): nothing more to say.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    let io = e
        .downcast_ref::<std::io::Error>()
        .or(match e.downcast_ref() {
            Some(acedrex::play::PlayError::Io(io)) => Some(io),
            _ => None,
        });
    io.is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}

/// No subcommand: a terminal game when a person is at the terminal, else the protocol that the
/// first input line names (engines are started by GUIs without arguments).
fn no_command() -> anyhow::Result<ExitCode> {
    if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        acedrex::play::play(PlayOptions::default())?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut stdin = BufReader::new(std::io::stdin());
    let mut first = String::new();
    if stdin.read_line(&mut first).is_ok()
        && let Some(p) = acedrex::protocol::detect(&first)
    {
        let input = BufReader::new(std::io::Cursor::new(first).chain(stdin));
        return session(p, input, &Default::default());
    }
    anyhow::bail!("no command given and no `xboard`/`uci` on standard input; see `acedrex --help`")
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Some(command) => run(command),
        None => no_command(),
    };
    match result {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // Library errors carry their whole message (no source chain to print).
            eprintln!("acedrex: {e}");
            ExitCode::FAILURE
        }
    }
}
