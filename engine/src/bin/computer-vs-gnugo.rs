//! `computer-vs-gnugo`: the strength benchmark of the basic computer
//! (a benchmark, not a test). Plays the computer in-process against GNU Go
//! over GTP on 9×9, area scoring, komi 7 to White, positional superko (GNU Go
//! `--chinese-rules --positional-superko`), colours swapped every game. Each
//! game ends by two consecutive passes, a resignation, or the move cap; GNU
//! Go's `final_score` decides (003 §12.4: strength is judged by repeated
//! games with colours swapped under identical settings).
//!
//! ```text
//! computer-vs-gnugo [--games N] [--level L] [--move-ms MS] [--seed S]
//!                   [--model FILE.json] [--gnugo PATH] [--gnugo-level N] [--max-moves N]
//! ```
//!
//! Prints one line per game, a summary, and one JSON line.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use engine::computer::model::ModelFile;
use engine::computer::{choose_move, Level, SearchLimits, Weights, DEFAULT_WEIGHTS};
use engine::{classic_vertex, parse_classic_vertex, Color, Game, Geometry, KoRule, Komi, Move, Rules, ScoringMethod};

struct Options {
    games: u32,
    level: Level,
    move_ms: u64,
    seed: u64,
    weights: Weights,
    model: Option<String>,
    gnugo: String,
    gnugo_level: u32,
    max_moves: u32,
    verbose: bool,
}

fn usage(msg: &str) -> ExitCode {
    if !msg.is_empty() {
        eprintln!("computer-vs-gnugo: {msg}");
    }
    eprintln!(
        "usage: computer-vs-gnugo [--games N] [--level 1|2] [--move-ms MS] [--seed S] [--model FILE.json]\n                         \
         [--gnugo PATH] [--gnugo-level N] [--max-moves N] [--verbose]"
    );
    ExitCode::from(2)
}

fn parse_args() -> Result<Options, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut o = Options {
        games: 20,
        level: Level::STRONGEST,
        move_ms: 1000,
        seed: 1,
        weights: DEFAULT_WEIGHTS,
        model: None,
        gnugo: "/usr/games/gnugo".into(),
        gnugo_level: 1,
        max_moves: 400,
        verbose: false,
    };
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        if flag == "--verbose" {
            o.verbose = true;
            i += 1;
            continue;
        }
        let val = args.get(i + 1).ok_or_else(|| format!("{flag} needs a value"))?;
        let num = |what: &str| val.parse::<u64>().map_err(|_| format!("{flag}: {what} expected, got '{val}'"));
        match flag {
            "--games" => o.games = num("a number of games")?.clamp(1, 10_000) as u32,
            "--level" => {
                let n = num("a level")?;
                o.level = u8::try_from(n)
                    .ok()
                    .and_then(Level::from_number)
                    .ok_or_else(|| format!("--level: 1 or 2 expected, got '{val}'"))?;
            }
            "--move-ms" => o.move_ms = num("milliseconds")?.max(1),
            "--seed" => o.seed = num("a seed")?,
            "--gnugo" => o.gnugo = val.clone(),
            "--gnugo-level" => o.gnugo_level = num("a GNU Go level")?.min(10) as u32,
            "--max-moves" => o.max_moves = num("a move count")?.max(2) as u32,
            "--model" => {
                let text = std::fs::read_to_string(val).map_err(|e| format!("--model {val}: {e}"))?;
                let m = ModelFile::from_json(&text).map_err(|e| format!("--model {val}: {e}"))?;
                o.weights = m.weights;
                o.model = Some(val.clone());
            }
            _ => return Err(format!("unknown option '{flag}'")),
        }
        i += 2;
    }
    Ok(o)
}

struct Gtp {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Gtp {
    fn spawn(path: &str, level: u32) -> Result<Gtp, String> {
        let mut child = Command::new(path)
            .args(["--mode", "gtp", "--level", &level.to_string(), "--chinese-rules", "--positional-superko"])
            .args(["--komi", "7"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {path}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        Ok(Gtp { child, stdin, stdout })
    }

    /// Send one command; the response text without `= `, or the error.
    fn cmd(&mut self, c: &str) -> Result<String, String> {
        writeln!(self.stdin, "{c}").and_then(|_| self.stdin.flush()).map_err(|e| format!("gnugo: {e}"))?;
        let mut out = String::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).map_err(|e| format!("gnugo: {e}"))?;
            if n == 0 {
                return Err(format!("gnugo closed its output after '{c}'"));
            }
            if line.trim().is_empty() {
                if out.is_empty() {
                    continue;
                }
                break;
            }
            out.push_str(&line);
        }
        let out = out.trim().to_string();
        if let Some(rest) = out.strip_prefix('=') {
            Ok(rest.trim().to_string())
        } else {
            Err(format!("gnugo refused '{c}': {out}"))
        }
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

/// The benchmark's rules: area scoring, komi 7 to White, positional superko.
fn rules() -> Rules {
    Rules {
        ko: KoRule::PositionalSuperko,
        scoring: ScoringMethod::Area,
        capture_bonus: false,
        komi: Komi::from_half_points(14).unwrap_or(Komi::ZERO),
        komi_to: Color::White,
        handicap: 0,
    }
}

struct GameOutcome {
    computer_won: bool,
    result: String,
    moves: u32,
    computer_moves: u32,
    computer_secs: f64,
    playouts: u64,
}

fn play_game(o: &Options, gnugo: &mut Gtp, index: u32, computer: Color) -> Result<GameOutcome, String> {
    let geom = Geometry::flat(9, 9).map_err(|e| e.to_string())?;
    let mut game = Game::new(geom.clone(), rules()).map_err(|e| e.to_string())?;
    gnugo.cmd("boardsize 9")?;
    gnugo.cmd("clear_board")?;
    gnugo.cmd("komi 7")?;
    let (mut cm, mut csecs, mut playouts) = (0u32, 0.0f64, 0u64);
    let letter = |c: Color| if c == Color::Black { "B" } else { "W" };
    let mut resigned: Option<Color> = None;
    while game.phase() == engine::Phase::Playing && game.move_number() < o.max_moves {
        let c = game.to_move();
        if c == computer {
            let seed =
                o.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (u64::from(index) << 32) ^ u64::from(game.move_number());
            let start = Instant::now();
            let deadline = start + Duration::from_millis(o.move_ms);
            let ch = choose_move(&game, c, &o.weights, o.level, seed, SearchLimits::TIMED, &mut || {
                Instant::now() >= deadline
            });
            csecs += start.elapsed().as_secs_f64();
            cm += 1;
            playouts += u64::from(ch.playouts);
            game.play(c, ch.mv).map_err(|e| format!("the computer's move was refused: {e}"))?;
            if o.verbose {
                eprintln!(
                    "{:>3} {} {:?} win {:.3} playouts {} score {:?} pass {:?}",
                    game.move_number(),
                    letter(c),
                    ch.mv,
                    ch.win_rate.unwrap_or(-1.0),
                    ch.playouts,
                    ch.score,
                    ch.pass_reason
                );
            }
            let v = match ch.mv {
                Move::Pass => "pass".to_string(),
                Move::Place(p) => classic_vertex(&geom, p).ok_or("no vertex")?,
            };
            gnugo.cmd(&format!("play {} {v}", letter(c)))?;
        } else {
            let v = gnugo.cmd(&format!("genmove {}", letter(c)))?;
            let mv = match v.to_ascii_lowercase().as_str() {
                "pass" => Move::Pass,
                "resign" => {
                    resigned = Some(c);
                    break;
                }
                _ => Move::Place(parse_classic_vertex(&geom, &v).map_err(|e| format!("gnugo vertex {v}: {e}"))?),
            };
            game.play(c, mv).map_err(|e| format!("gnugo's move {v} was refused by the engine: {e}"))?;
        }
    }
    let result = match resigned {
        Some(c) => format!("{}+R", letter(c.opponent())),
        None => gnugo.cmd("final_score")?,
    };
    if o.verbose {
        eprintln!("{}\n{result}", game.board().to_ascii());
    }
    let winner = match result.chars().next() {
        Some('B') => Some(Color::Black),
        Some('W') => Some(Color::White),
        _ => None,
    };
    Ok(GameOutcome {
        computer_won: winner == Some(computer),
        result,
        moves: game.move_number(),
        computer_moves: cm,
        computer_secs: csecs,
        playouts,
    })
}

fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => return usage(&e),
    };
    let mut gnugo = match Gtp::spawn(&o.gnugo, o.gnugo_level) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("computer-vs-gnugo: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (mut wins, mut wins_b, mut wins_w, mut games_b, mut games_w) = (0u32, 0u32, 0u32, 0u32, 0u32);
    let (mut moves, mut secs, mut playouts) = (0u32, 0.0f64, 0u64);
    for i in 0..o.games {
        let computer = if i % 2 == 0 { Color::Black } else { Color::White };
        let g = match play_game(&o, &mut gnugo, i, computer) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("computer-vs-gnugo: game {}: {e}", i + 1);
                return ExitCode::FAILURE;
            }
        };
        if computer == Color::Black {
            games_b += 1;
        } else {
            games_w += 1;
        }
        if g.computer_won {
            wins += 1;
            if computer == Color::Black {
                wins_b += 1;
            } else {
                wins_w += 1;
            }
        }
        moves += g.computer_moves;
        secs += g.computer_secs;
        playouts += g.playouts;
        println!(
            "game {:>2}: computer {:<5} {:<8} {} ({} moves, {:.2} s/move)",
            i + 1,
            computer.english(),
            g.result,
            if g.computer_won { "win " } else { "loss" },
            g.moves,
            g.computer_secs / f64::from(g.computer_moves.max(1))
        );
    }
    let rate = f64::from(wins) / f64::from(o.games);
    let mean = secs / f64::from(moves.max(1));
    let pps = if secs > 0.0 { playouts as f64 / secs } else { 0.0 };
    println!(
        "level {} vs GNU Go level {}: {wins}/{} wins ({:.0}%), as Black {wins_b}/{games_b}, as White {wins_w}/{games_w}; \
         mean move time {:.3} s (limit {} ms), {:.0} playouts/s",
        o.level.number(),
        o.gnugo_level,
        o.games,
        100.0 * rate,
        mean,
        o.move_ms,
        pps
    );
    println!(
        "{{\"level\":{},\"gnugo_level\":{},\"games\":{},\"wins\":{wins},\"win_rate\":{rate:.3},\"wins_black\":{wins_b},\"games_black\":{games_b},\"wins_white\":{wins_w},\"games_white\":{games_w},\"mean_move_s\":{mean:.4},\"move_ms\":{},\"playouts_per_s\":{pps:.0},\"seed\":{},\"model\":{}}}",
        o.level.number(),
        o.gnugo_level,
        o.games,
        o.move_ms,
        o.seed,
        o.model.as_deref().map_or("null".to_string(), |m| format!("{m:?}"))
    );
    ExitCode::SUCCESS
}
