//! Every shipped variant answers to its canonical name, its aliases, its XBoard name and the name
//! Fairy-Stockfish gives it (its UCI_Variant value), and no name belongs to two variants. With
//! Fairy-Stockfish installed, its own list of variant names is checked against the table below.

mod common;

use acedrex::variant::{builtin, builtin_names, load};
use common::{need_peer_script, peer_script};
use std::collections::BTreeMap;
use std::process::Command;

/// Fairy-Stockfish's names for the shipped variants (empty: it does not play that variant).
const FAIRY_STOCKFISH: &[(&str, &[&str])] = &[
    ("grant-acedrex", &[]),
    ("grant-acedrex-cazaux", &[]),
    ("grant-acedrex-murray", &[]),
    ("grant-acedrex-dice", &[]),
    ("chess", &["chess", "normal"]),
    ("capablanca", &["capablanca"]),
    ("shatranj", &["shatranj"]),
    ("courier", &["courier"]),
    ("makruk", &["makruk"]),
    ("nocastle", &["nocastle"]),
    ("amazon", &["amazon"]),
    ("hoppelpoppel", &["hoppelpoppel"]),
    ("newzealand", &["newzealand"]),
    ("knightmate", &["knightmate"]),
    ("almost", &["almost"]),
    ("chigorin", &["chigorin"]),
    ("gardner", &["gardner"]),
    ("losalamos", &["losalamos"]),
    ("gothic", &["gothic"]),
    ("embassy", &["embassy"]),
    ("centaur", &["centaur"]),
    ("modern", &["modern"]),
    ("chancellor", &["chancellor"]),
    ("3check", &["3check"]),
    ("5check", &["5check"]),
    ("kingofthehill", &["kingofthehill"]),
    ("racingkings", &["racingkings"]),
    ("extinction", &["extinction"]),
    ("kinglet", &["kinglet"]),
    ("threekings", &["threekings"]),
    ("cylinder", &[]),
    ("berolina", &[]),
    ("super", &[]),
    ("great", &[]),
    ("light-brigade", &[]),
    ("team-mate", &[]),
    ("bifurcator", &[]),
    ("ciccolini", &[]),
    ("mexican", &[]),
    ("roman", &[]),
    ("fairy-fide-rookies", &[]),
    ("fairy-rookies-fide", &[]),
    ("falcon", &[]),
    ("fmax-courier", &[]),
    ("fmax-los-alamos", &[]),
    ("fmax-asean", &[]),
    ("fmax-cambodian", &[]),
    ("fmax-ai-wok", &[]),
    ("fmax-shatranj", &[]),
    ("fairy-fide-clobberers", &[]),
    ("fairy-clobberers-fide", &[]),
    ("fairy-fide-nutters", &[]),
    ("fairy-nutters-fide", &[]),
    ("fairy-clobberers-nutters", &[]),
    ("fairy-nutters-clobberers", &[]),
    ("fairy-clobberers-rookies", &[]),
    ("fairy-rookies-clobberers", &[]),
    ("fairy-nutters-rookies", &[]),
    ("fairy-rookies-nutters", &[]),
    ("janus", &["janus"]),
    ("fmax-janus", &[]),
    ("spartan", &[]),
    ("almost-wildebeest", &[]),
    ("crazyhouse", &["crazyhouse"]),
    ("loop", &["loop"]),
    ("chessgi", &["chessgi"]),
    ("capahouse", &["capahouse"]),
    ("pocketknight", &["pocketknight"]),
    ("bughouse", &["bughouse"]),
    ("xiangqi", &["xiangqi"]),
    ("minixiangqi", &["minixiangqi"]),
    ("manchu", &["manchu"]),
    ("antichess", &["antichess"]),
    ("giveaway", &["giveaway"]),
    ("suicide", &["suicide"]),
    ("losers", &["losers"]),
    ("horde", &["horde"]),
    ("shogi", &["shogi"]),
    ("minishogi", &["minishogi", "mini"]),
    ("judkins", &["judkins"]),
    ("gorogoro", &["gorogoro"]),
    ("euroshogi", &["euroshogi"]),
    ("dobutsu", &["dobutsu"]),
    ("kyotoshogi", &["kyotoshogi"]),
    ("micro", &["micro"]),
    ("supply", &["supply"]),
    ("placement", &["placement"]),
    ("fischerandom", &["fischerandom"]),
    ("caparandom", &["caparandom"]),
    ("janggi", &["janggi"]),
    ("janggitraditional", &["janggitraditional"]),
    ("janggimodern", &["janggimodern"]),
    ("janggicasual", &["janggicasual"]),
    ("seirawan", &["seirawan"]),
    ("shouse", &["shouse"]),
    ("koedem", &["koedem"]),
    ("sittuyin", &["sittuyin"]),
    ("lion", &[]),
    ("chu", &[]),
    ("wa-shogi", &[]),
    ("dai", &[]),
    ("macadamia-shogi", &[]),
    ("cashew-shogi", &[]),
    ("werewolf", &[]),
    ("asean", &["asean"]),
    ("ai-wok", &["ai-wok"]),
    ("makpong", &["makpong"]),
    ("cambodian", &["cambodian"]),
    ("karouk", &["karouk"]),
    ("breakthrough", &["breakthrough"]),
    ("clobber", &["clobber"]),
    ("clobber10", &["clobber10"]),
    ("jesonmor", &["jesonmor"]),
    ("codrus", &["codrus"]),
    ("shatar", &["shatar"]),
    ("shako", &["shako"]),
    ("grand", &["grand"]),
    ("fairy", &["fairy"]),
];

/// Every name a shipped variant answers to, with what kind of name it is.
fn names_of(canonical: &str) -> Vec<(String, &'static str)> {
    let v = builtin(canonical).unwrap_or_else(|| panic!("no built-in {canonical}"));
    let mut names = vec![(v.name.clone(), "canonical name")];
    names.extend(v.aliases.iter().map(|a| (a.clone(), "alias")));
    names.push((v.xboard_name.clone(), "XBoard name"));
    let fsf = FAIRY_STOCKFISH
        .iter()
        .find(|(n, _)| *n == canonical)
        .unwrap_or_else(|| panic!("{canonical} is missing from the Fairy-Stockfish table"));
    names.extend(
        fsf.1
            .iter()
            .map(|n| (n.to_string(), "Fairy-Stockfish name")),
    );
    names
}

#[test]
fn the_table_lists_every_shipped_variant() {
    let mut table: Vec<&str> = FAIRY_STOCKFISH.iter().map(|(n, _)| *n).collect();
    let mut shipped = builtin_names();
    table.sort();
    shipped.sort();
    assert_eq!(table, shipped);
}

#[test]
fn every_shipped_variant_loads_by_each_of_its_names() {
    for canonical in builtin_names() {
        for (name, kind) in names_of(canonical) {
            let v = load(&name).unwrap_or_else(|e| panic!("{canonical}: {kind} {name}: {e}"));
            assert_eq!(v.name, canonical, "{kind} {name}");
        }
    }
}

#[test]
fn no_name_belongs_to_two_variants() {
    let mut owner: BTreeMap<String, &str> = BTreeMap::new();
    for canonical in builtin_names() {
        for (name, kind) in names_of(canonical) {
            if let Some(other) = owner.insert(name.clone(), canonical) {
                assert_eq!(
                    other, canonical,
                    "{kind} {name} of {canonical} also names {other}"
                );
            }
        }
    }
}

#[test]
fn the_cli_takes_the_xboard_name() {
    let moves = |variant: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_acedrex"))
            .args(["moves", "--variant", variant])
            .output()
            .expect("run acedrex");
        assert!(
            out.status.success(),
            "acedrex moves --variant {variant}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    assert_eq!(moves("normal"), moves("chess"));
    assert_eq!(moves("grande-acedrex"), moves("grant-acedrex"));
}

#[test]
fn fairy_stockfish_knows_the_names_and_means_the_same_variants() {
    const FSF: &str = "/usr/games/fairy-stockfish";
    let test = "fairy_stockfish_knows_the_names_and_means_the_same_variants";
    if !need_peer_script(test, FSF, "apt-get install -y fairy-stockfish") {
        return;
    }
    let script = format!(
        "import sys; sys.path.insert(0, {:?}); from fairy_stockfish import Fsf; \
         f = Fsf({FSF:?}); print(' '.join(f.variants())); f.close()",
        peer_script("").display().to_string()
    );
    let out = Command::new("python3")
        .args(["-c", &script])
        .output()
        .expect("run python3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs = String::from_utf8_lossy(&out.stdout).to_string();
    let theirs: Vec<&str> = theirs.split_whitespace().collect();
    assert!(theirs.contains(&"chess"), "UCI_Variant list: {theirs:?}");
    for (canonical, names) in FAIRY_STOCKFISH {
        for n in *names {
            assert!(
                theirs.contains(n),
                "Fairy-Stockfish has no variant {n} ({canonical})"
            );
        }
    }
    // A Fairy-Stockfish name that acedrex resolves must mean that variant in the table too.
    for n in &theirs {
        if let Some(v) = builtin(n) {
            let (_, names) = FAIRY_STOCKFISH
                .iter()
                .find(|(c, _)| *c == v.name)
                .expect("in the table");
            assert!(
                names.contains(n),
                "acedrex reads Fairy-Stockfish's {n} as {}, which the table does not say",
                v.name
            );
        }
    }
}
