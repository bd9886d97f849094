//! Perft suites kept as data files under tests/perft/, each citing its source in its header.
//! The default run stops each case at the deepest count under NODE_LIMIT (set ACEDREX_PERFT_LIMIT
//! to go deeper); the deep counts stay in the files.

mod common;

use acedrex::movegen::perft::perft;
use acedrex::position::Position;
use common::{flip_fen, game};

struct Case {
    name: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn read_suite(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut name = String::from("unnamed");
    for line in text.lines() {
        if let Some(id) = line.strip_prefix("# id ") {
            name = id
                .split_whitespace()
                .next()
                .unwrap_or("unnamed")
                .to_string();
            continue;
        }
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().expect("fen").trim().to_string();
        let counts = parts
            .filter_map(|p| {
                let p = p.trim();
                let (d, n) = p.strip_prefix('D')?.split_once(' ')?;
                Some((d.parse().ok()?, n.trim().parse().ok()?))
            })
            .collect();
        cases.push(Case {
            name: name.clone(),
            fen,
            counts,
        });
    }
    cases
}

fn node_limit() -> u64 {
    std::env::var("ACEDREX_PERFT_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_500_000)
}

fn run_suite(variant: &str, text: &str) {
    let game = game(variant);
    let limit = node_limit();
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in read_suite(text) {
        let mut pos =
            Position::from_fen(&game, &case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        for &(depth, want) in &case.counts {
            if want > limit && depth > 1 {
                break;
            }
            let got = perft(&mut pos, depth);
            checked += 1;
            if got != want {
                failures.push(format!(
                    "{} depth {depth}: got {got}, want {want} ({})",
                    case.name, case.fen
                ));
                break;
            }
        }
    }
    assert!(checked > 0, "no perft case ran for {variant}");
    assert!(failures.is_empty(), "{variant}:\n{}", failures.join("\n"));
}

#[test]
fn chess_programming_wiki_positions() {
    run_suite("chess", include_str!("perft/chess-cpw.epd"));
}

#[test]
fn chess_random_positions_match_fairy_stockfish() {
    run_suite("chess", include_str!("perft/chess.epd"));
}

#[test]
fn shatranj_matches_fairy_stockfish() {
    run_suite("shatranj", include_str!("perft/shatranj.epd"));
}

#[test]
fn courier_matches_fairy_stockfish() {
    run_suite("courier", include_str!("perft/courier.epd"));
}

#[test]
fn capablanca_matches_fairy_stockfish() {
    run_suite("capablanca", include_str!("perft/capablanca.epd"));
}

#[test]
fn makruk_matches_fairy_stockfish() {
    run_suite("makruk", include_str!("perft/makruk.epd"));
}

#[test]
fn nocastle_matches_fairy_stockfish() {
    run_suite("nocastle", include_str!("perft/nocastle.epd"));
}

#[test]
fn amazon_matches_fairy_stockfish() {
    run_suite("amazon", include_str!("perft/amazon.epd"));
}

#[test]
fn hoppelpoppel_matches_fairy_stockfish() {
    run_suite("hoppelpoppel", include_str!("perft/hoppelpoppel.epd"));
}

#[test]
fn newzealand_matches_fairy_stockfish() {
    run_suite("newzealand", include_str!("perft/newzealand.epd"));
}

#[test]
fn knightmate_matches_fairy_stockfish() {
    run_suite("knightmate", include_str!("perft/knightmate.epd"));
}

#[test]
fn almost_matches_fairy_stockfish() {
    run_suite("almost", include_str!("perft/almost.epd"));
}

#[test]
fn chigorin_matches_fairy_stockfish() {
    run_suite("chigorin", include_str!("perft/chigorin.epd"));
}

#[test]
fn gardner_matches_fairy_stockfish() {
    run_suite("gardner", include_str!("perft/gardner.epd"));
}

#[test]
fn losalamos_matches_fairy_stockfish() {
    run_suite("losalamos", include_str!("perft/losalamos.epd"));
}

#[test]
fn gothic_matches_fairy_stockfish() {
    run_suite("gothic", include_str!("perft/gothic.epd"));
}

#[test]
fn embassy_matches_fairy_stockfish() {
    run_suite("embassy", include_str!("perft/embassy.epd"));
}

#[test]
fn janus_matches_fairy_stockfish() {
    run_suite("janus", include_str!("perft/janus.epd"));
}

#[test]
fn centaur_matches_fairy_stockfish() {
    run_suite("centaur", include_str!("perft/centaur.epd"));
}

#[test]
fn modern_matches_fairy_stockfish() {
    run_suite("modern", include_str!("perft/modern.epd"));
}

#[test]
fn chancellor_matches_fairy_stockfish() {
    run_suite("chancellor", include_str!("perft/chancellor.epd"));
}

#[test]
fn three_check_matches_fairy_stockfish() {
    run_suite("3check", include_str!("perft/3check.epd"));
}

#[test]
fn five_check_matches_fairy_stockfish() {
    run_suite("5check", include_str!("perft/5check.epd"));
}

#[test]
fn king_of_the_hill_matches_fairy_stockfish() {
    run_suite("kingofthehill", include_str!("perft/kingofthehill.epd"));
}

#[test]
fn racing_kings_matches_fairy_stockfish() {
    run_suite("racingkings", include_str!("perft/racingkings.epd"));
}

#[test]
fn extinction_matches_fairy_stockfish() {
    run_suite("extinction", include_str!("perft/extinction.epd"));
}

#[test]
fn kinglet_matches_fairy_stockfish() {
    run_suite("kinglet", include_str!("perft/kinglet.epd"));
}

#[test]
fn three_kings_matches_fairy_stockfish() {
    run_suite("threekings", include_str!("perft/threekings.epd"));
}

#[test]
fn crazyhouse_matches_fairy_stockfish() {
    run_suite("crazyhouse", include_str!("perft/crazyhouse.epd"));
}

#[test]
fn loop_chess_matches_fairy_stockfish() {
    run_suite("loop", include_str!("perft/loop.epd"));
}

#[test]
fn chessgi_matches_fairy_stockfish() {
    run_suite("chessgi", include_str!("perft/chessgi.epd"));
}

#[test]
fn capahouse_matches_fairy_stockfish() {
    run_suite("capahouse", include_str!("perft/capahouse.epd"));
}

#[test]
fn pocketknight_matches_fairy_stockfish() {
    run_suite("pocketknight", include_str!("perft/pocketknight.epd"));
}

#[test]
fn bughouse_matches_fairy_stockfish() {
    run_suite("bughouse", include_str!("perft/bughouse.epd"));
}

#[test]
fn xiangqi_matches_fairy_stockfish() {
    run_suite("xiangqi", include_str!("perft/xiangqi.epd"));
}

#[test]
fn minixiangqi_matches_fairy_stockfish() {
    run_suite("minixiangqi", include_str!("perft/minixiangqi.epd"));
}

#[test]
fn manchu_matches_fairy_stockfish() {
    run_suite("manchu", include_str!("perft/manchu.epd"));
}

#[test]
fn antichess_matches_fairy_stockfish() {
    run_suite("antichess", include_str!("perft/antichess.epd"));
}

#[test]
fn giveaway_matches_fairy_stockfish() {
    run_suite("giveaway", include_str!("perft/giveaway.epd"));
}

#[test]
fn suicide_matches_fairy_stockfish() {
    run_suite("suicide", include_str!("perft/suicide.epd"));
}

#[test]
fn losers_matches_fairy_stockfish() {
    run_suite("losers", include_str!("perft/losers.epd"));
}

#[test]
fn horde_matches_fairy_stockfish() {
    run_suite("horde", include_str!("perft/horde.epd"));
}

#[test]
fn shogi_matches_fairy_stockfish() {
    run_suite("shogi", include_str!("perft/shogi.epd"));
}

#[test]
fn minishogi_matches_fairy_stockfish() {
    run_suite("minishogi", include_str!("perft/minishogi.epd"));
}

#[test]
fn mini_is_minishogi_and_matches_fairy_stockfish() {
    run_suite("mini", include_str!("perft/mini.epd"));
}

#[test]
fn kyoto_shogi_matches_fairy_stockfish() {
    run_suite("kyotoshogi", include_str!("perft/kyotoshogi.epd"));
}

#[test]
fn micro_shogi_matches_fairy_stockfish() {
    run_suite("micro", include_str!("perft/micro.epd"));
}

#[test]
fn placement_chess_matches_fairy_stockfish() {
    run_suite("placement", include_str!("perft/placement.epd"));
}

#[test]
fn supply_chess_matches_fairy_stockfish() {
    run_suite("supply", include_str!("perft/supply.epd"));
}

#[test]
fn judkins_shogi_matches_fairy_stockfish() {
    run_suite("judkins", include_str!("perft/judkins.epd"));
}

#[test]
fn gorogoro_shogi_matches_fairy_stockfish() {
    run_suite("gorogoro", include_str!("perft/gorogoro.epd"));
}

#[test]
fn euroshogi_matches_fairy_stockfish() {
    run_suite("euroshogi", include_str!("perft/euroshogi.epd"));
}

#[test]
fn dobutsu_shogi_matches_fairy_stockfish() {
    run_suite("dobutsu", include_str!("perft/dobutsu.epd"));
}

#[test]
fn fischerandom_matches_fairy_stockfish() {
    run_suite("fischerandom", include_str!("perft/fischerandom.epd"));
}

#[test]
fn caparandom_matches_fairy_stockfish() {
    run_suite("caparandom", include_str!("perft/caparandom.epd"));
}

#[test]
fn janggi_matches_fairy_stockfish() {
    run_suite("janggi", include_str!("perft/janggi.epd"));
}

#[test]
fn janggitraditional_matches_fairy_stockfish() {
    run_suite(
        "janggitraditional",
        include_str!("perft/janggitraditional.epd"),
    );
}

#[test]
fn janggimodern_matches_fairy_stockfish() {
    run_suite("janggimodern", include_str!("perft/janggimodern.epd"));
}

#[test]
fn janggicasual_matches_fairy_stockfish() {
    run_suite("janggicasual", include_str!("perft/janggicasual.epd"));
}

#[test]
fn asean_matches_fairy_stockfish() {
    run_suite("asean", include_str!("perft/asean.epd"));
}

#[test]
fn ai_wok_matches_fairy_stockfish() {
    run_suite("ai-wok", include_str!("perft/ai-wok.epd"));
}

#[test]
fn makpong_matches_fairy_stockfish() {
    run_suite("makpong", include_str!("perft/makpong.epd"));
}

#[test]
fn cambodian_matches_fairy_stockfish() {
    run_suite("cambodian", include_str!("perft/cambodian.epd"));
}

#[test]
fn karouk_matches_fairy_stockfish() {
    run_suite("karouk", include_str!("perft/karouk.epd"));
}

#[test]
fn breakthrough_matches_fairy_stockfish() {
    run_suite("breakthrough", include_str!("perft/breakthrough.epd"));
}

#[test]
fn clobber_matches_fairy_stockfish() {
    run_suite("clobber", include_str!("perft/clobber.epd"));
}

#[test]
fn clobber10_matches_fairy_stockfish() {
    run_suite("clobber10", include_str!("perft/clobber10.epd"));
}

#[test]
fn jesonmor_matches_fairy_stockfish() {
    run_suite("jesonmor", include_str!("perft/jesonmor.epd"));
}

#[test]
fn codrus_matches_fairy_stockfish() {
    run_suite("codrus", include_str!("perft/codrus.epd"));
}

#[test]
fn shatar_matches_fairy_stockfish() {
    run_suite("shatar", include_str!("perft/shatar.epd"));
}

#[test]
fn seirawan_matches_fairy_stockfish() {
    run_suite("seirawan", include_str!("perft/seirawan.epd"));
}

#[test]
fn sittuyin_matches_fairy_stockfish() {
    run_suite("sittuyin", include_str!("perft/sittuyin.epd"));
}

#[test]
fn koedem_matches_fairy_stockfish() {
    run_suite("koedem", include_str!("perft/koedem.epd"));
}

#[test]
fn shouse_matches_fairy_stockfish() {
    run_suite("shouse", include_str!("perft/shouse.epd"));
}

#[test]
fn shako_matches_fairy_stockfish() {
    run_suite("shako", include_str!("perft/shako.epd"));
}

#[test]
fn grand_matches_fairy_stockfish() {
    run_suite("grand", include_str!("perft/grand.epd"));
}

#[test]
fn fairy_matches_fairy_stockfish() {
    run_suite("fairy", include_str!("perft/fairy.epd"));
}

/// A position and its colour-flipped mirror have equal perft (no reference needed, so it also covers
/// 12×12 boards that no other engine counts).
#[test]
fn colour_flipped_positions_have_equal_perft() {
    for (variant, text) in [
        ("chess", include_str!("perft/chess.epd")),
        ("courier", include_str!("perft/courier.epd")),
        ("makruk", include_str!("perft/makruk.epd")),
        ("knightmate", include_str!("perft/knightmate.epd")),
        ("embassy", include_str!("perft/embassy.epd")),
        ("janus", include_str!("perft/janus.epd")),
        ("modern", include_str!("perft/modern.epd")),
        ("gardner", include_str!("perft/gardner.epd")),
        ("xiangqi", include_str!("perft/xiangqi.epd")),
        ("janggi", include_str!("perft/janggi.epd")),
    ] {
        let game = game(variant);
        for case in read_suite(text).iter().take(6) {
            let mut a = Position::from_fen(&game, &case.fen).expect("fen");
            let mut b = Position::from_fen(&game, &flip_fen(&case.fen)).expect("flipped fen");
            assert_eq!(
                perft(&mut a, 3),
                perft(&mut b, 3),
                "{variant} {}",
                case.name
            );
        }
    }
}
