//! Writes the self-play games of `engine/tests/data/games/` (why these games:
//! `engine/tests/data/README.md`): GNU Go plays both sides over GTP until two
//! consecutive passes; the moves become an FF[4] SGF file, and GNU Go's own
//! final stones and capture counts go to `final-positions.txt`.
//!
//! ```text
//! cargo run -p engine --example gnugo_games -- engine/tests/data/games
//! ```
//! Needs `/usr/games/gnugo` (Debian package `gnugo`).

use engine::{parse_classic_vertex, Geometry};
use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};

const GNUGO: &str = "/usr/games/gnugo";
const LEVEL: u32 = 1;

/// Board size, handicap stones, komi, seed.
const GAMES: &[(usize, u32, &str, u64)] = &[
    (9, 0, "7", 1),
    (9, 0, "7", 2),
    (9, 0, "7", 3),
    (9, 0, "7", 4),
    (9, 0, "5.5", 5),
    (9, 2, "0.5", 6),
    (13, 0, "7", 7),
    (13, 0, "7", 8),
    (13, 0, "6.5", 9),
    (13, 3, "0.5", 10),
    (19, 0, "7", 11),
    (19, 0, "7", 12),
    (19, 0, "6.5", 13),
    (19, 4, "0.5", 14),
];

struct Gtp {
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Gtp {
    fn ask(&mut self, cmd: &str) -> String {
        writeln!(self.input, "{cmd}").expect("write to GNU Go");
        self.input.flush().expect("flush");
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            let n = self.output.read_line(&mut line).expect("read from GNU Go");
            assert!(n > 0, "GNU Go closed its output after {cmd:?}");
            if line == "\n" {
                break;
            }
            answer.push_str(&line);
        }
        let a = answer.trim();
        assert!(a.starts_with('='), "GNU Go refused {cmd:?}: {a}");
        a.trim_start_matches('=').trim().to_string()
    }
}

/// `D4` → SGF `dp` on a 19×19 board (SGF counts rows from the top).
fn sgf_point(geom: &Geometry, vertex: &str) -> String {
    let p = parse_classic_vertex(geom, vertex).unwrap_or_else(|e| panic!("GNU Go vertex {vertex}: {e}"));
    let (x, y, _) = geom.offsets_of(p).expect("on the board");
    format!("{}{}", (b'a' + x as u8) as char, (b'a' + y as u8) as char)
}

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "engine/tests/data/games".into());
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{dir}: {e}"));
    let mut finals = String::from(
        "# GNU Go's final position of each game (its GTP answers after the last move):\n\
         # file, `captures black`, `captures white`, black=`list_stones black`, white=`list_stones white`.\n",
    );
    for (k, &(size, handicap, komi, seed)) in GAMES.iter().enumerate() {
        let args = [
            "--mode",
            "gtp",
            "--level",
            &LEVEL.to_string(),
            "--chinese-rules",
            "--capture-all-dead",
            "--never-resign",
            "--seed",
            &seed.to_string(),
        ]
        .map(str::to_string);
        let mut child = Command::new(GNUGO)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{GNUGO}: {e}"));
        let mut gtp = Gtp {
            input: child.stdin.take().expect("piped"),
            output: BufReader::new(child.stdout.take().expect("piped")),
        };
        let version = gtp.ask("version");
        gtp.ask(&format!("boardsize {size}"));
        gtp.ask("clear_board");
        gtp.ask(&format!("komi {komi}"));
        let geom = Geometry::flat(size as i64, size as i64).expect("odd size");
        let mut root = format!(
            "(;GM[1]FF[4]CA[UTF-8]SZ[{size}]KM[{komi}]RU[Chinese]\
             PB[GNU Go {version} level {LEVEL}]PW[GNU Go {version} level {LEVEL}]\
             GC[GNU Go self-play: gnugo {}]",
            args.join(" ")
        );
        let mut to_move = "black";
        if handicap >= 2 {
            let stones = gtp.ask(&format!("fixed_handicap {handicap}"));
            root.push_str(&format!("HA[{handicap}]AB"));
            for v in stones.split_whitespace() {
                root.push_str(&format!("[{}]", sgf_point(&geom, v)));
            }
            root.push_str("PL[W]");
            to_move = "white";
        }
        let mut moves = String::new();
        let (mut count, mut passes) = (0, 0);
        while passes < 2 && count < 3 * size * size {
            let v = gtp.ask(&format!("genmove {to_move}"));
            let letter = if to_move == "black" { "B" } else { "W" };
            if v.eq_ignore_ascii_case("pass") {
                passes += 1;
                moves.push_str(&format!(";{letter}[]"));
            } else {
                passes = 0;
                moves.push_str(&format!(";{letter}[{}]", sgf_point(&geom, &v)));
            }
            count += 1;
            if count % 10 == 0 {
                moves.push('\n');
            }
            to_move = if to_move == "black" { "white" } else { "black" };
        }
        let result = gtp.ask("final_score");
        let (cb, cw) = (gtp.ask("captures black"), gtp.ask("captures white"));
        let stones = |s: String| s.split_whitespace().collect::<Vec<_>>().join(",");
        let (black, white) = (stones(gtp.ask("list_stones black")), stones(gtp.ask("list_stones white")));
        gtp.ask("quit");
        let _ = child.wait();
        let name = format!(
            "gnugo-{:02}-{size}x{size}{}.sgf",
            k + 1,
            if handicap > 0 { format!("-ha{handicap}") } else { String::new() }
        );
        let text = format!("{root}RE[{result}]\n{moves})\n");
        std::fs::write(format!("{dir}/{name}"), &text).unwrap_or_else(|e| panic!("{name}: {e}"));
        finals.push_str(&format!("{name} {cb} {cw} black={black} white={white}\n"));
        println!("{name}: {count} moves, {result}");
    }
    std::fs::write(format!("{dir}/final-positions.txt"), finals).expect("write final-positions.txt");
}
