//! The `acedrex` command line: thin wrappers over the library.

use acedrex::diagram::{DiagramOptions, Subject};
use acedrex::explore::{Probe, destinations, list_line};
use acedrex::game::Game;
use acedrex::movegen::perft;
use acedrex::play::{PlayOptions, Seat, selfplay::SelfplayOptions};
use acedrex::position::Position;
use acedrex::protocol::Protocol;
use clap::{Parser, Subcommand};
use std::io::{BufRead, BufReader, IsTerminal, Read};
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
    Check {
        /// Variant files to check.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
    },
    /// Show what one Betza string does from one square of an otherwise empty board.
    Piece {
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
    },
    /// Count legal move paths to a depth (Fairy-Stockfish's perft).
    Perft {
        depth: u32,
        #[command(flatten)]
        at: PositionArgs,
        /// One line per root move: `move: count`.
        #[arg(long)]
        divide: bool,
    },
    /// List the legal moves (sorted); a second line gives the result when the game is over.
    Moves {
        #[command(flatten)]
        at: PositionArgs,
    },
    /// Print a position: the board, its FEN, and whether the side to move is in check.
    Show {
        #[command(flatten)]
        at: PositionArgs,
    },
    /// Play against the engine in the terminal.
    Play {
        /// A shipped variant's name or alias, or the path of a variant file.
        #[arg(long, default_value = "grant-acedrex")]
        variant: String,
        /// Start from this FEN.
        #[arg(long)]
        fen: Option<String>,
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
    },
    /// The engine against itself; PGN to -o (or stdout), a summary at the end.
    Selfplay {
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
        output: Option<std::path::PathBuf>,
        /// Seed of the random opening plies.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// SVG diagram of a piece's moves or of a position.
    Diagram {
        /// A shipped variant's name or alias, or the path of a variant file.
        #[arg(long, default_value = "grant-acedrex")]
        variant: String,
        /// A piece of the variant, by letter.
        #[arg(long)]
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
        output: Option<std::path::PathBuf>,
    },
    /// Speak CECP (XBoard/WinBoard) on stdin/stdout.
    Xboard {
        /// Extra variant files or directories.
        #[arg(long = "variant-file")]
        variant_files: Vec<std::path::PathBuf>,
    },
    /// Speak UCI (with UCI_Variant) on stdin/stdout.
    Uci {
        /// Extra variant files or directories.
        #[arg(long = "variant-file")]
        variant_files: Vec<std::path::PathBuf>,
        /// Variant to start in (default chess, as UCI GUIs expect).
        #[arg(long)]
        variant: Option<String>,
    },
    /// Write a Fairy-Max fmax.ini for variants (warnings on stderr where Fairy-Max differs).
    Fmax {
        /// Variants to include (names, aliases or files); repeatable.
        #[arg(long)]
        variant: Vec<String>,
        /// Include every shipped variant Fairy-Max can express.
        #[arg(long)]
        all: bool,
        /// Output file (default: standard output).
        #[arg(short = 'o', long)]
        output: Option<std::path::PathBuf>,
    },
    /// Turn the Game: blocks of an fmax.ini into acedrex variant files.
    FmaxImport {
        /// The fmax.ini to read.
        file: std::path::PathBuf,
        /// Directory for the variant files (default: current directory).
        #[arg(short = 'o', long, default_value = ".")]
        output: std::path::PathBuf,
    },
    /// Fixed-depth search of fixed positions (deterministic); the last line is `N nodes M nps`.
    Bench {
        /// Only this variant's positions (default: every shipped variant).
        variant: Option<String>,
        /// Search depth.
        depth: Option<u32>,
    },
    /// Search one position: info lines, then `bestmove MOVE`.
    Go {
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
    },
    /// Write a balanced opening suite: random plies from the start, kept when the engine's shallow
    /// search scores them within a bound, de-duplicated; deterministic from the seed.
    Openings(OpeningsArgs),
    /// SPRT of a working build against a base build over UCI: game pairs from a suite, pentanomial
    /// Elo and LLR, one game at a time; results appended to a file and resumed from it.
    Sprt(SprtArgs),
    /// For each piece of a variant: its Betza, its compiled table and a movement diagram.
    Pieces {
        /// A shipped variant's name or alias, or the path of a variant file.
        #[arg(long, default_value = "grant-acedrex")]
        variant: String,
    },
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
    /// Output file (default: standard output).
    #[arg(short = 'o', long)]
    output: Option<std::path::PathBuf>,
}

#[derive(clap::Args)]
struct SprtArgs {
    /// The working build's binary.
    #[arg(long)]
    new: std::path::PathBuf,
    /// The base build's binary.
    #[arg(long)]
    base: std::path::PathBuf,
    /// A shipped variant's name or alias, or the path of a variant file.
    #[arg(long, default_value = "grant-acedrex")]
    variant: String,
    /// Opening suite (default: openings/VARIANT.fen).
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Results file: finished pairs are appended, and read back when the run starts again.
    #[arg(long)]
    results: std::path::PathBuf,
    /// Time control BASE+INC in seconds.
    #[arg(long, default_value = "2+0.02", conflicts_with = "nodes")]
    tc: String,
    /// Fixed nodes per move instead of a clock.
    #[arg(long)]
    nodes: Option<u64>,
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
}

impl PositionArgs {
    fn position(&self) -> Result<Position, String> {
        let game: Arc<Game> = Game::new(acedrex::variant::load(&self.variant)?);
        let mut pos = match &self.fen {
            Some(f) => Position::from_fen(&game, f).map_err(|e| e.to_string())?,
            None => Position::start(&game),
        };
        for (i, text) in self.moves.split_whitespace().enumerate() {
            let m = pos
                .parse_move(text)
                .map_err(|e| format!("move {} of --moves: {e}", i + 1))?;
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

fn run(command: Command) -> Result<ExitCode, String> {
    match command {
        Command::Check { files } => {
            let (report, ok) = acedrex::variant::check_files(&files);
            print!("{report}");
            Ok(if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::Piece {
            betza,
            board,
            at,
            friends,
            enemies,
            black,
            moved,
            list,
        } => {
            let (files, ranks) = parse_board(&board)?;
            let probe = Probe {
                files,
                ranks,
                at,
                friends,
                enemies,
                black,
                moved,
            };
            let dests = destinations(&betza, &probe)?;
            if list {
                println!("{}", list_line(&dests));
            } else {
                println!("{}", acedrex::explore::render(&betza, &probe, &dests)?);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Perft { depth, at, divide } => {
            let mut pos = at.position()?;
            let total = if divide {
                let mut rows: Vec<(String, u64)> = perft::divide(&mut pos, depth)
                    .into_iter()
                    .map(|(m, n)| (pos.move_text(m), n))
                    .collect();
                rows.sort();
                for (m, n) in &rows {
                    println!("{m}: {n}");
                }
                rows.iter().map(|(_, n)| n).sum()
            } else {
                perft::perft(&mut pos, depth)
            };
            println!("Nodes searched: {total}");
            Ok(ExitCode::SUCCESS)
        }
        Command::Play {
            variant,
            fen,
            dice,
            white: _,
            black,
            level,
            time,
            seed,
        } => {
            let seat = if black { Seat::Black } else { Seat::White };
            let movetime = Some(std::time::Duration::from_secs_f64(time));
            acedrex::play::play(PlayOptions {
                variant,
                fen,
                dice,
                seat,
                level,
                movetime,
                seed,
                ..PlayOptions::default()
            })
            .map_err(|e| format!("{e:#}"))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Selfplay {
            games,
            variant,
            dice,
            depth,
            movetime,
            output,
            seed,
        } => {
            let movetime = movetime.map(std::time::Duration::from_millis);
            let opts = SelfplayOptions {
                games,
                variant,
                dice,
                depth,
                movetime,
                output,
                seed,
                ..SelfplayOptions::default()
            };
            acedrex::play::selfplay::selfplay(&opts).map_err(|e| format!("{e:#}"))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Diagram {
            variant,
            piece,
            betza,
            fen,
            moves,
            at,
            board,
            output,
        } => {
            let subject = match (piece, betza, fen, moves) {
                (Some(l), ..) => Subject::Piece(l),
                (_, Some(b), ..) => Subject::Betza(b),
                (_, _, Some(f), _) => Subject::Fen(f),
                (_, _, _, Some(m)) => Subject::Moves(m),
                _ => Subject::Start,
            };
            let board = board.map(|b| parse_board(&b)).transpose()?;
            let svg = acedrex::diagram::diagram(&DiagramOptions {
                variant,
                subject,
                at,
                board,
            })?;
            match output {
                Some(p) => std::fs::write(&p, svg).map_err(|e| format!("{}: {e}", p.display()))?,
                None => print!("{svg}"),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Xboard { variant_files } => {
            let cfg = acedrex::protocol::Config {
                variant_files,
                variant: None,
            };
            acedrex::protocol::run(
                Protocol::Xboard,
                BufReader::new(std::io::stdin()),
                std::io::stdout(),
                &cfg,
            )
            .map_err(|e| e.to_string())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Uci {
            variant_files,
            variant,
        } => {
            let cfg = acedrex::protocol::Config {
                variant_files,
                variant,
            };
            acedrex::protocol::run(
                Protocol::Uci,
                BufReader::new(std::io::stdin()),
                std::io::stdout(),
                &cfg,
            )
            .map_err(|e| e.to_string())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Fmax {
            variant,
            all,
            output,
        } => {
            let mut names = variant;
            if all {
                names.extend(
                    acedrex::variant::builtin_names()
                        .into_iter()
                        .map(String::from)
                        .filter(|n| !n.ends_with("-murray") && !n.ends_with("-dice")),
                );
            }
            if names.is_empty() {
                names.push("grant-acedrex".into());
            }
            let variants = names
                .iter()
                .map(|n| acedrex::variant::load(n))
                .collect::<Result<Vec<_>, _>>()?;
            let (text, warnings) = acedrex::fmax::export(&variants).map_err(|e| e.to_string())?;
            for w in warnings {
                eprintln!("warning: {w}");
            }
            match output {
                Some(p) => std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?,
                None => print!("{text}"),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::FmaxImport { file, output } => {
            let text =
                std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let (files, skipped) = acedrex::fmax::import(&text);
            std::fs::create_dir_all(&output).map_err(|e| format!("{}: {e}", output.display()))?;
            for (name, body) in &files {
                let path = output.join(name);
                std::fs::write(&path, body).map_err(|e| format!("{}: {e}", path.display()))?;
                println!("wrote {}", path.display());
            }
            for s in skipped {
                eprintln!("not translated: {s}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench { variant, depth } => {
            println!("{}", acedrex::search::bench(variant.as_deref(), depth)?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Go {
            at,
            depth,
            movetime,
            nodes,
        } => {
            let limits = acedrex::search::Limits {
                depth,
                nodes,
                movetime: movetime.map(std::time::Duration::from_millis),
                ..Default::default()
            };
            println!(
                "{}",
                acedrex::search::go_command(&at.variant, at.fen.as_deref(), &at.moves, &limits)?
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Openings(args) => openings(args),
        Command::Sprt(args) => sprt(args),
        Command::Show { at } => {
            let pos = at.position()?;
            print!("{}", acedrex::explore::position_text(&pos));
            println!("fen {}", pos.fen());
            if pos.in_check() {
                println!("the side to move is in check");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Pieces { variant } => {
            let v = acedrex::variant::load(&variant)?;
            print!("{}", acedrex::explore::pieces_text(&v)?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Moves { at } => {
            let mut pos = at.position()?;
            let moves = pos.legal_moves();
            let mut texts: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
            texts.sort();
            println!("{}", texts.join(" "));
            if let Some(end) = pos.game_end_with(moves.len()) {
                println!("result {end}");
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `acedrex openings`: generates a suite; progress on stderr.
fn openings(a: OpeningsArgs) -> Result<ExitCode, String> {
    use acedrex::lab::openings::{OpeningOptions, generate};
    let opts = OpeningOptions {
        variant: a.variant,
        count: a.count,
        plies: a.plies,
        bound: a.bound,
        depth: a.depth,
        nodes: a.nodes,
        seed: a.seed,
    };
    let tty = std::io::stderr().is_terminal();
    let suite = generate(&opts, &mut |kept, tried| {
        if tty {
            eprint!(
                "\r\x1b[2Kopenings {kept}/{} kept, {tried} tried",
                opts.count
            );
        }
    })
    .map_err(|e| e.to_string())?;
    if tty {
        eprintln!();
    }
    let text = suite.text(&opts);
    match a.output {
        Some(p) => std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?,
        None => print!("{text}"),
    }
    eprintln!(
        "{} openings from {} candidates",
        suite.fens.len(),
        suite.tried
    );
    Ok(ExitCode::SUCCESS)
}

/// `acedrex sprt`: runs or resumes an SPRT and prints the summary.
fn sprt(a: SprtArgs) -> Result<ExitCode, String> {
    use acedrex::lab::{stats::Sprt, tester};
    let control = match a.nodes {
        Some(n) => tester::Control::Nodes(n),
        None => tester::Control::parse_tc(&a.tc).map_err(|e| e.to_string())?,
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
    let rec = tester::run(&opts).map_err(|e| e.to_string())?;
    println!("{}", rec.report(&opts.sprt));
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let Some(command) = cli.command else {
        if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
            return match acedrex::play::play(PlayOptions::default()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("acedrex: {e:#}");
                    ExitCode::FAILURE
                }
            };
        }
        // Engines are started by GUIs without arguments: the first line says which protocol.
        let mut stdin = BufReader::new(std::io::stdin());
        let mut first = String::new();
        if stdin.read_line(&mut first).is_ok()
            && let Some(p) = acedrex::protocol::detect(&first)
        {
            let input = BufReader::new(std::io::Cursor::new(first).chain(stdin));
            return match acedrex::protocol::run(p, input, std::io::stdout(), &Default::default()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("acedrex: {e}");
                    ExitCode::FAILURE
                }
            };
        }
        eprintln!(
            "acedrex: no command given and no `xboard`/`uci` on standard input; see `acedrex --help`"
        );
        return ExitCode::FAILURE;
    };
    match run(command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("acedrex: {e}");
            ExitCode::FAILURE
        }
    }
}
