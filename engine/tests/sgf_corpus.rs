//! Replays every professional game of Debian's `goban-original-games`
//! package through the engine, and cross-checks a sample against GNU Go.
//!
//! Both packages are installed by the project's setup; a missing one fails
//! these tests (it is never skipped silently).

use std::path::{Path, PathBuf};

mod common;

use engine::sgf::{import_sgf, SgfError};
use engine::{classic_vertex, Color, Rules};

const GOBAN_DIR: &str = "/usr/share/goban";
const GNUGO: &str = "/usr/games/gnugo";

/// Upper bound for records that fail with a recording error (a move onto an
/// occupied point and the like); currently a handful out of ~600.
const MAX_RECORDING_ERRORS: usize = 10;

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(GOBAN_DIR);
    assert!(
        dir.is_dir(),
        "{GOBAN_DIR} is missing: install the Debian package goban-original-games \
         (apt-get install goban-original-games; the project's setup installs it)"
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read goban directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("sgf" | "mgt")))
        .collect();
    files.sort();
    assert!(files.len() >= 400, "expected hundreds of games in {GOBAN_DIR}, found {}", files.len());
    files
}

fn read(p: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(p).expect("read SGF")).into_owned()
}

#[test]
fn every_professional_game_replays_or_names_its_recording_error() {
    let files = corpus();
    let mut replayed = 0usize;
    let mut moves = 0usize;
    let mut failures: Vec<(String, SgfError)> = Vec::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        match import_sgf(&read(f), Rules::classic(), None) {
            Ok(imp) => {
                replayed += 1;
                moves += imp.moves_replayed;
                assert_eq!(imp.game.board().hash(), imp.game.board().recompute_hash(), "{name}");
            }
            Err(e) => failures.push((name, e)),
        }
    }
    eprintln!("replayed {replayed} of {} games ({moves} moves); {} recording errors:", files.len(), failures.len());
    for (name, e) in &failures {
        eprintln!("  {name}: {e}");
        // Only rule violations at a named move are acceptable recording errors.
        assert!(
            matches!(e, SgfError::IllegalMove { .. } | SgfError::OffBoard { .. }),
            "{name}: unexpected error kind {e:?}"
        );
        assert!(e.move_number().is_some(), "{name}: error without a move number: {e}");
    }
    assert!(failures.len() <= MAX_RECORDING_ERRORS, "{} records failed (limit {MAX_RECORDING_ERRORS})", failures.len());
    assert!(moves > 100_000, "suspiciously few moves replayed: {moves}");
}

/// Runs GNU Go on a script and returns its responses.
fn gnugo(script: &str) -> Vec<String> {
    assert!(
        Path::new(GNUGO).exists(),
        "{GNUGO} is missing: install the Debian package gnugo (the project's setup installs it)"
    );
    let out = common::run_with_stdin(GNUGO, &["--mode", "gtp", "--quiet"], script);
    String::from_utf8_lossy(&out.stdout).split_terminator("\n\n").map(|s| s.trim().to_string()).collect()
}

fn words(s: &str) -> Vec<String> {
    let body = s.trim_start_matches(['=', ' ']);
    let mut v: Vec<String> = body.split_whitespace().map(|w| w.to_ascii_uppercase()).collect();
    v.sort();
    v
}

/// The final position and capture counts agree with GNU Go's replay of the
/// same files (an independent implementation of the rules).
#[test]
fn final_positions_match_gnu_go() {
    let files = corpus();
    // A fixed, spread-out sample keeps this fast.
    let sample: Vec<&PathBuf> = files.iter().step_by(files.len() / 12).take(12).collect();
    let mut script = String::new();
    // (file, black stones, white stones, black captures, white captures)
    type Summary = (String, Vec<String>, Vec<String>, u32, u32);
    let mut ours: Vec<Summary> = Vec::new();
    for f in &sample {
        let Ok(imp) = import_sgf(&read(f), Rules::classic(), None) else {
            continue;
        };
        let g = &imp.game;
        let geom = g.geometry();
        let list = |c: Color| -> Vec<String> {
            let mut v: Vec<String> =
                geom.points().filter(|&p| g.stone_at(p) == Some(c)).filter_map(|p| classic_vertex(geom, p)).collect();
            v.sort();
            v
        };
        ours.push((
            f.display().to_string(),
            list(Color::Black),
            list(Color::White),
            g.captures(Color::Black),
            g.captures(Color::White),
        ));
        script.push_str(&format!(
            "loadsgf {}\nlist_stones black\nlist_stones white\ncaptures black\ncaptures white\n",
            f.display()
        ));
    }
    assert!(ours.len() >= 10, "sample too small: {}", ours.len());
    script.push_str("quit\n");
    let r = gnugo(&script);
    assert_eq!(r.len(), ours.len() * 5 + 1, "unexpected GNU Go output: {r:?}");
    for (i, (name, black, white, cb, cw)) in ours.iter().enumerate() {
        let k = i * 5;
        assert!(r[k].starts_with('='), "GNU Go could not load {name}: {}", r[k]);
        assert_eq!(&words(&r[k + 1]), black, "black stones differ for {name}");
        assert_eq!(&words(&r[k + 2]), white, "white stones differ for {name}");
        assert_eq!(words(&r[k + 3]), vec![cb.to_string()], "black captures differ for {name}");
        assert_eq!(words(&r[k + 4]), vec![cw.to_string()], "white captures differ for {name}");
    }
}
