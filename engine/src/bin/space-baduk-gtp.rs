//! `space-baduk-gtp`: GTP version 2 on stdin/stdout (see engine/README.md "GTP"),
//! with `--computer` the basic computer plays `genmove` (003 §11.4),
//! or `--bench-playouts XxYxZ N [--seed S]` for the playout benchmark.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use engine::computer::model::ModelFile;
use engine::computer::{Level, SearchLimits, DEFAULT_WEIGHTS};
use engine::gtp::{ComputerPlayer, GtpEngine};
use engine::playout::{parse_board_spec, run_playouts};
use engine::Board;

const USAGE: &str = "usage: space-baduk-gtp [--seed S]                       GTP on stdin/stdout, random genmove
       space-baduk-gtp --computer [--model FILE.json] [--level 1|2] [--move-ms MS] [--seed S]
                                                      GTP, genmove plays the basic computer
                                                      (default: built-in weights, level 2, 1000 ms)
       space-baduk-gtp --bench-playouts XxYxZ N [--seed S]   playout benchmark";

fn usage() -> ExitCode {
    eprintln!("{USAGE}");
    ExitCode::from(2)
}

/// A bad option value: the reason, then the usage; exit code 2.
fn bad(msg: String) -> ExitCode {
    eprintln!("space-baduk-gtp: {msg}");
    usage()
}

/// `--computer` settings.
struct ComputerArgs {
    model: Option<String>,
    level: Level,
    move_ms: u64,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut seed: u64 = 0x5BAD_57A2;
    let mut bench: Option<(String, String)> = None;
    let mut computer = false;
    let mut computer_flag: Option<&str> = None;
    let mut ca = ComputerArgs { model: None, level: Level::STRONGEST, move_ms: 1000 };
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let value = args.get(i + 1);
        match flag {
            "--seed" => {
                let Some(s) = value.and_then(|s| s.parse().ok()) else {
                    return bad(format!(
                        "--seed needs a non-negative integer, got {:?}",
                        value.map_or("nothing", |v| v)
                    ));
                };
                seed = s;
                i += 2;
            }
            "--computer" => {
                computer = true;
                i += 1;
            }
            "--model" => {
                let Some(v) = value else {
                    return bad("--model needs a file name".into());
                };
                ca.model = Some(v.clone());
                i += 2;
            }
            "--level" => {
                let Some(l) = value.and_then(|v| v.parse::<u8>().ok()).and_then(Level::from_number) else {
                    return bad(format!("--level must be 1 or 2, got {:?}", value.map_or("nothing", |v| v)));
                };
                ca.level = l;
                i += 2;
            }
            "--move-ms" => {
                let Some(ms) = value.and_then(|v| v.parse::<u64>().ok()).filter(|&ms| ms > 0) else {
                    return bad(format!(
                        "--move-ms needs a positive number of milliseconds, got {:?}",
                        value.map_or("nothing", |v| v)
                    ));
                };
                ca.move_ms = ms;
                i += 2;
            }
            "--bench-playouts" => {
                let (Some(b), Some(n)) = (args.get(i + 1), args.get(i + 2)) else {
                    return usage();
                };
                bench = Some((b.clone(), n.clone()));
                i += 3;
            }
            "-h" | "--help" => {
                usage();
                return ExitCode::SUCCESS;
            }
            _ => return bad(format!("unknown option {flag:?}")),
        }
        if matches!(flag, "--model" | "--level" | "--move-ms") {
            computer_flag = Some(flag);
        }
    }
    if let (false, Some(flag)) = (computer, computer_flag) {
        return bad(format!("{flag} needs --computer"));
    }
    let player = if computer {
        let weights = match &ca.model {
            None => DEFAULT_WEIGHTS,
            Some(path) => {
                let text = match std::fs::read_to_string(path) {
                    Ok(t) => t,
                    Err(e) => return bad(format!("--model {path}: {e}")),
                };
                match ModelFile::from_json(&text) {
                    Ok(m) => m.weights,
                    Err(e) => return bad(format!("--model {path}: {e}")),
                }
            }
        };
        let ms = ca.move_ms;
        // The engine has no clock: each genmove gets a deadline from this one.
        let stop = Box::new(move || {
            let deadline = Instant::now() + Duration::from_millis(ms);
            Box::new(move || Instant::now() >= deadline) as Box<dyn FnMut() -> bool>
        });
        Some(ComputerPlayer { weights, level: ca.level, seed, limits: SearchLimits::TIMED, stop })
    } else {
        None
    };
    match bench {
        Some((board, n)) => bench_playouts(&board, &n, seed),
        None => gtp_loop(seed, player),
    }
}

fn gtp_loop(seed: u64, computer: Option<ComputerPlayer>) -> ExitCode {
    let loader = Box::new(|path: &str| {
        std::fs::read(path).map(|b| String::from_utf8_lossy(&b).into_owned()).map_err(|e| e.to_string())
    });
    let mut engine = GtpEngine::new(seed).with_loader(loader);
    if let Some(c) = computer {
        engine = engine.with_computer(c);
    }
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(_) => break,
        }
        let line = String::from_utf8_lossy(&buf);
        if let Some(resp) = engine.handle_line(&line) {
            if stdout.write_all(resp.as_bytes()).and_then(|_| stdout.flush()).is_err() {
                break;
            }
        }
        if engine.should_quit() {
            break;
        }
    }
    ExitCode::SUCCESS
}

fn bench_playouts(board: &str, n: &str, seed: u64) -> ExitCode {
    let geom = match parse_board_spec(board) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let Ok(n) = n.parse::<u64>() else {
        eprintln!("playout count must be a non-negative integer, got '{n}'");
        return ExitCode::from(2);
    };
    let (w, h, d) = geom.dims();
    let mut board = Board::new(Arc::new(geom));
    let start = cpu::thread_cpu_seconds();
    let stats = run_playouts(&mut board, n, seed);
    let end = cpu::thread_cpu_seconds();
    let (secs, clock) = match (start, end) {
        (Some(a), Some(b)) => (b - a, "thread"),
        _ => (0.0, "unavailable"),
    };
    let rate = |x: u64| if secs > 0.0 { x as f64 / secs } else { 0.0 };
    if clock != "thread" {
        eprintln!("warning: thread CPU time is not available on this platform");
    }
    println!(
        "{{\"board\":\"{w}x{h}x{d}\",\"playouts\":{},\"moves\":{},\"cpu_seconds\":{:.6},\"playouts_per_cpu_s\":{:.1},\"moves_per_cpu_s\":{:.1}}}",
        stats.playouts,
        stats.moves,
        secs,
        rate(stats.playouts),
        rate(stats.moves)
    );
    ExitCode::SUCCESS
}

/// Thread CPU time without extra crates.
mod cpu {
    #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
    mod ffi {
        #[repr(C)]
        pub struct Timespec {
            pub tv_sec: i64,
            pub tv_nsec: i64,
        }
        /// Linux `CLOCK_THREAD_CPUTIME_ID`.
        pub const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
        extern "C" {
            // Provided by the C library that std already links.
            pub fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
        }
    }

    /// CPU time consumed by the calling thread, in seconds.
    pub fn thread_cpu_seconds() -> Option<f64> {
        #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
        {
            let mut ts = ffi::Timespec { tv_sec: 0, tv_nsec: 0 };
            // SAFETY: `ts` is a valid, writable timespec of the platform layout
            // (two 64-bit fields on 64-bit Linux); the call only writes into it.
            let rc = unsafe { ffi::clock_gettime(ffi::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
            if rc == 0 {
                return Some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9);
            }
        }
        // Fallback: nanoseconds on CPU from the scheduler statistics.
        let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
        Some(ns * 1e-9)
    }
}
