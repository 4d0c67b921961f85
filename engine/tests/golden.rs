//! Golden vectors (`tests/data/golden/*.txt`, format in `tests/data/README.md`):
//! seeded random games on flat boards and 3D boxes, with the stones, the
//! captures and the number of legal points after every move. The engine must
//! reproduce every line. The flat boards under the immediate rule are also
//! compared with GNU Go when it is installed.

mod common;
mod golden_format;

use engine::{classic_vertex, parse_classic_vertex, Color, Geometry, KoRule};
use golden_format::{board_string_of, check, parse_move, read};
use std::io::Write;
use std::path::{Path, PathBuf};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden");
const GNUGO: &str = "/usr/games/gnugo";

fn files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(DIR)
        .unwrap_or_else(|e| panic!("{DIR}: {e}"))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    v.sort();
    v
}

fn text(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn golden_vectors_replay_exactly() {
    let files = files();
    assert!(files.len() >= 10, "expected the 10 golden files in {DIR}, found {}", files.len());
    let mut failures = Vec::new();
    let mut moves = 0;
    let mut boxes = 0;
    for f in &files {
        let t = text(f);
        match check(&t) {
            Ok(h) => {
                // The header is written in its one canonical form.
                let header: String =
                    t.lines().filter(|l| !l.starts_with('#')).take(4).map(|l| format!("{l}\n")).collect();
                assert_eq!(header, h.write(), "{}", f.display());
                moves += h.moves;
                boxes += usize::from(h.spec.z.len() > 1);
            }
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden file(s) disagree with the engine:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(moves > 1500 && boxes >= 3, "suspiciously little data: {moves} moves, {boxes} 3D boxes");
}

/// The driving check notices a changed field (here each field of one line in turn).
#[test]
fn a_changed_line_is_reported() {
    let path = Path::new(DIR).join("flat-9x9-seed1.txt");
    let original = text(&path);
    let line = original.lines().find(|l| l.starts_with("40 ")).expect("move 40").to_string();
    let fields: Vec<&str> = line.split(' ').collect();
    for k in 3..fields.len() {
        let mut f = fields.clone();
        // A number gets a digit more; the board has its first black stone turned white.
        let changed = if k == 6 { f[6].replacen('X', "O", 1) } else { format!("{}7", f[k]) };
        f[k] = &changed;
        let bad = original.replace(&line, &f.join(" "));
        assert!(bad != original, "field {k} unchanged");
        let e = check(&bad).expect_err("a changed field must be reported");
        assert!(e.contains("the engine gives"), "field {k}: {e}");
    }
    // A missing move is reported too (the header counts the moves).
    let short: String = original.lines().filter(|l| !l.starts_with("98 ")).map(|l| format!("{l}\n")).collect();
    assert!(check(&short).unwrap_err().contains("header says 98"));
}

/// Whether GNU Go is installed and runs (`gnugo --version`).
fn gnugo_works() -> bool {
    common::try_run_with_stdin(GNUGO, &["--version"], "").is_ok_and(|o| o.status.success())
}

/// Prints past the test harness's output capture, so a skip is visible.
fn notice(msg: &str) {
    let _ = writeln!(std::io::stderr(), "{msg}");
}

/// GNU Go (an independent implementation: simple ko, no suicide — the same
/// as the immediate rule of 003 §2.3 on a flat board) replays each flat
/// file and answers, after every move, the stones, the captures and
/// `is_legal` for the side to move on every point.
#[test]
fn flat_golden_vectors_agree_with_gnu_go() {
    if !gnugo_works() {
        notice(&format!(
            "SKIPPED flat_golden_vectors_agree_with_gnu_go: {GNUGO} is missing \
             (apt-get install gnugo; `make test` installs it)"
        ));
        return;
    }
    let mut checked = 0;
    for f in files() {
        let (h, body) = read(&text(&f)).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let geom = Geometry::from_spec(h.spec).expect("valid box");
        let (w, ht, d) = geom.dims();
        if h.ko != KoRule::Immediate || d != 1 || w != ht || w > 19 {
            continue;
        }
        let name = f.display().to_string();
        let vertices: Vec<String> = geom.points().map(|p| classic_vertex(&geom, p).expect("flat board")).collect();
        let mut script = format!("boardsize {w}\nclear_board\n");
        for (_, line) in &body {
            let (_, color, at) = parse_move(line).expect("checked file");
            let v = match at {
                None => "pass".to_string(),
                Some(c) => vertices[geom.point_at(c).expect("on the board").index()].clone(),
            };
            let to_move = if color == Color::Black { "white" } else { "black" };
            script.push_str(&format!(
                "play {} {v}\ncaptures black\ncaptures white\nlist_stones black\nlist_stones white\n",
                color.letter()
            ));
            for v in &vertices {
                script.push_str(&format!("is_legal {to_move} {v}\n"));
            }
        }
        script.push_str("quit\n");
        let out = common::run_with_stdin(GNUGO, &["--mode", "gtp", "--quiet", "--chinese-rules"], &script);
        let text = String::from_utf8_lossy(&out.stdout);
        let mut answers = text.split_terminator("\n\n").map(|s| {
            let s = s.trim();
            assert!(s.starts_with('='), "{name}: GNU Go answered {s:?}");
            s.trim_start_matches('=').trim().to_string()
        });
        answers.nth(1).expect("boardsize and clear_board answered");
        let mut previous_pass = false;
        for (i, line) in &body {
            let mut next = || answers.next().unwrap_or_else(|| panic!("{name}: GNU Go stopped answering at line {i}"));
            let _play = next();
            let (cb, cw) = (next(), next());
            let mut cells = vec![None; geom.len()];
            for (c, list) in [(Color::Black, next()), (Color::White, next())] {
                for v in list.split_whitespace() {
                    let p = parse_classic_vertex(&geom, v).unwrap_or_else(|e| panic!("{name}: GNU Go vertex {v}: {e}"));
                    cells[p.index()] = Some(c);
                }
            }
            let legal = (0..vertices.len()).filter(|_| next() == "1").count();
            // After two consecutive passes the engine is in its scoring phase
            // (no legal points); GNU Go has no such phase.
            let f: Vec<&str> = line.split(' ').collect();
            let ended = f[2] == "pass" && previous_pass;
            previous_pass = f[2] == "pass";
            let gnu = format!(
                "{} {} {} {} {} {} {}",
                f[0],
                f[1],
                f[2],
                cb,
                cw,
                if ended { "0".to_string() } else { legal.to_string() },
                board_string_of(&geom, |p| cells[p.index()])
            );
            assert_eq!(&gnu, line, "{name} line {i}: GNU Go differs from the file");
        }
        checked += body.len();
    }
    assert!(checked > 900, "only {checked} flat moves compared");
}
