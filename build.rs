//! Embeds every `variants/*.txt` as a built-in: adding a variant is adding its file. The list is
//! written to `$OUT_DIR/builtins.rs`, Grant Acedrex first, then chess, then by name.

use std::fmt::Write;
use std::path::Path;

fn main() {
    // The manifest directory of this build, read when the script runs: `env!` would fix the one
    // the script was compiled in, so a target directory copied from another checkout would embed
    // that checkout's variants.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join("variants");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("variants/ exists")
        .filter_map(|e| {
            let path = e.ok()?.path();
            (path.extension()? == "txt").then(|| path.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    let rank = |n: &str| match n {
        n if n.starts_with("grant-acedrex") => 0,
        "chess" => 1,
        _ => 2,
    };
    names.sort_by(|a, b| rank(a).cmp(&rank(b)).then(a.cmp(b)));
    let mut out = String::from("&[\n");
    for n in &names {
        let path = dir.join(format!("{n}.txt"));
        println!("cargo:rerun-if-changed={}", path.display());
        writeln!(
            out,
            "    ({n:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    out.push_str("]\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("builtins.rs");
    std::fs::write(dest, out).expect("write builtins.rs");
}
