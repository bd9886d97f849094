#[test]
fn scratch() {
    for s in ["KimAimD","t[FR]","t[NB]","HC","Z","B","R","mfWcfF","mfWcfFifmnD","KisO2","KisO3","fmWfceFifmnD","(4,1)","H","FfW","F","A","K","W","N","Q","BN","RN","fmWfcF","X","mQ3","t[FZ","KiO2"] {
        match acedrex::betza::parse(s) {
            Ok(b) => println!("{s}: ok compile={:?}", acedrex::tables::legs::compile(&b).map(|p| p.len())),
            Err(e) => println!("{s}: {e:?}"),
        }
    }
}
