//! Real games through the SGF reader and the rules:
//!
//! * always: the GNU Go self-play games committed in `tests/data/games/`
//!   (why these: `tests/data/README.md`) replay to the final position and
//!   capture counts GNU Go reported, and survive the fuzz round trip;
//! * when installed (`make test` installs both): every professional game of
//!   Debian's `goban-original-games` replays, a sample and the committed
//!   games are compared with GNU Go live. Missing packages are reported as a
//!   skip on the test output, never silently.

use std::io::Write;
use std::path::{Path, PathBuf};

mod common;

use engine::sgf::{import_sgf, SgfError};
use engine::{classic_vertex, Color, Game, Rules};

const GOBAN_DIR: &str = "/usr/share/goban";
const GNUGO: &str = "/usr/games/gnugo";
const GAMES_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/games");

/// Upper bound for records that fail with a recording error (a move onto an
/// occupied point and the like); currently a handful out of ~600.
const MAX_RECORDING_ERRORS: usize = 10;

/// Prints past the test harness's output capture, so that a skip is visible.
fn skip(test: &str, why: &str) {
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
}

fn have_goban(test: &str) -> bool {
    // Installed means records are there (an empty directory counts as missing).
    let ok = std::fs::read_dir(GOBAN_DIR).is_ok_and(|mut d| d.any(|e| e.is_ok_and(|e| is_record(&e.path()))));
    if !ok {
        skip(test, &format!("{GOBAN_DIR} is missing (apt-get install goban-original-games; `make test` installs it)"));
    }
    ok
}

fn have_gnugo(test: &str) -> bool {
    // Installed and runs (a present but broken binary counts as missing).
    let ok = common::try_run_with_stdin(GNUGO, &["--version"], "").is_ok_and(|o| o.status.success());
    if !ok {
        skip(test, &format!("{GNUGO} is missing (apt-get install gnugo; `make test` installs it)"));
    }
    ok
}

fn is_record(p: &Path) -> bool {
    matches!(p.extension().and_then(|e| e.to_str()), Some("sgf" | "mgt"))
}

fn corpus() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(GOBAN_DIR)
        .expect("read goban directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| is_record(p))
        .collect();
    files.sort();
    assert!(files.len() >= 400, "expected hundreds of games in {GOBAN_DIR}, found {}", files.len());
    files
}

fn read(p: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(p).expect("read SGF")).into_owned()
}

/// The stones of `c`, as sorted vertices (`D4`).
fn stones(g: &Game, c: Color) -> Vec<String> {
    let geom = g.geometry();
    let mut v: Vec<String> =
        geom.points().filter(|&p| g.stone_at(p) == Some(c)).filter_map(|p| classic_vertex(geom, p)).collect();
    v.sort();
    v
}

/// One line of `final-positions.txt`: what GNU Go answered after the game.
struct Final {
    file: String,
    captures: [u32; 2],
    black: Vec<String>,
    white: Vec<String>,
}

fn finals() -> Vec<Final> {
    let text = std::fs::read_to_string(Path::new(GAMES_DIR).join("final-positions.txt")).expect("final-positions.txt");
    let list = |f: &str, key: &str| -> Vec<String> {
        let mut v: Vec<String> =
            f.strip_prefix(key).expect(key).split(',').filter(|s| !s.is_empty()).map(str::to_string).collect();
        v.sort();
        v
    };
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            assert_eq!(f.len(), 5, "bad line {l:?}");
            Final {
                file: f[0].to_string(),
                captures: [f[1].parse().expect("captures"), f[2].parse().expect("captures")],
                black: list(f[3], "black="),
                white: list(f[4], "white="),
            }
        })
        .collect()
}

#[test]
fn committed_gnu_go_games_replay_to_gnu_gos_final_positions() {
    let finals = finals();
    let sgf_files = std::fs::read_dir(GAMES_DIR)
        .expect("games")
        .filter(|e| e.as_ref().is_ok_and(|e| e.path().extension().is_some_and(|x| x == "sgf")));
    assert_eq!(sgf_files.count(), finals.len(), "every committed game has its final position, and only those");
    assert!(finals.len() >= 10, "only {} games", finals.len());
    let mut moves = 0;
    for f in &finals {
        let text = read(&Path::new(GAMES_DIR).join(&f.file));
        let imp = import_sgf(&text, Rules::classic(), None).unwrap_or_else(|e| panic!("{}: {e}", f.file));
        let g = &imp.game;
        moves += imp.moves_replayed;
        assert_eq!(stones(g, Color::Black), f.black, "{}: black stones", f.file);
        assert_eq!(stones(g, Color::White), f.white, "{}: white stones", f.file);
        assert_eq!([g.captures(Color::Black), g.captures(Color::White)], f.captures, "{}: captures", f.file);
        // Real games through the fuzz round trip (text and game compared, engine::fuzz_entry).
        engine::fuzz_entry::sgf(text.as_bytes());
    }
    assert!(moves > 1500, "only {moves} moves replayed");
}

/// `final-positions.txt` is GNU Go's own answer for the committed files.
#[test]
fn committed_gnu_go_games_agree_with_gnu_go_live() {
    if !have_gnugo("committed_gnu_go_games_agree_with_gnu_go_live") {
        return;
    }
    let finals = finals();
    let mut script = String::new();
    for f in &finals {
        let path = Path::new(GAMES_DIR).join(&f.file);
        script.push_str(&format!(
            "loadsgf {}\nlist_stones black\nlist_stones white\ncaptures black\ncaptures white\n",
            path.display()
        ));
    }
    script.push_str("quit\n");
    let r = gnugo(&script);
    assert_eq!(r.len(), finals.len() * 5 + 1, "unexpected GNU Go output: {r:?}");
    for (i, f) in finals.iter().enumerate() {
        let k = i * 5;
        assert!(r[k].starts_with('='), "GNU Go could not load {}: {}", f.file, r[k]);
        assert_eq!(words(&r[k + 1]), f.black, "{}", f.file);
        assert_eq!(words(&r[k + 2]), f.white, "{}", f.file);
        assert_eq!(words(&r[k + 3]), vec![f.captures[0].to_string()], "{}", f.file);
        assert_eq!(words(&r[k + 4]), vec![f.captures[1].to_string()], "{}", f.file);
    }
}

#[test]
fn every_professional_game_replays_or_names_its_recording_error() {
    if !have_goban("every_professional_game_replays_or_names_its_recording_error") {
        return;
    }
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
    if !have_goban("final_positions_match_gnu_go") || !have_gnugo("final_positions_match_gnu_go") {
        return;
    }
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
        ours.push((
            f.display().to_string(),
            stones(g, Color::Black),
            stones(g, Color::White),
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
