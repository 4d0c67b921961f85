//! Load benchmark for the participant API: N concurrent scripted games (two signed-in HTTP
//! clients each: move, acknowledge, move, acknowledge …) while M spectator WebSockets read
//! the rooms' event streams. Reports durable (200-answered) moves per second, move and
//! acknowledgement round trips, spectator messages per second and errors by kind.
//!
//! The HTTP/WebSocket clients are optional dependencies behind the `load` feature, so the
//! server build does not carry them:
//!
//! ```text
//! CARGO_TARGET_DIR=… cargo build --release -p server --features load --bins
//! target/release/load --games 50 --spectators 1000 --seconds 20
//! target/release/load --probe            # fsync and SQLite commit cost on this disk
//! ```
//!
//! By default the release `space-baduk` binary next to this one is started as a child
//! process on a fresh data directory (the server and this generator are separate processes,
//! each within its own open-file limit; both share this machine's cores, and the report
//! says how much CPU each used). `--server in-process` runs the server inside this process;
//! `--server http://HOST:PORT` uses a server that is already running.

// Linking the server in pulls in the Leptos view types, as `main.rs` does.
#![recursion_limit = "512"]

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering::Relaxed},
        Arc, Mutex,
    },
    time::{Duration, Instant},
};

use clap::{Parser, ValueEnum};
use serde_json::Value;
use testclient::{
    futures_util::StreamExt, reqwest, started_room, tokio_tungstenite::tungstenite::Message, Answer, Client,
    ServerProcess,
};
use tokio::sync::{watch, Semaphore};
use wire::{
    commands::Command,
    events::Xyz,
    settings::{ColourAssignment, MatchSettings},
};

mod games;
mod probe;
mod spectators;
mod target;

use games::*;
use probe::*;
use spectators::*;
use target::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Board {
    /// 19×19×19 Space box: 3,610 scripted moves per game before a new room is needed.
    Space,
    /// Classic 19×19: 190 scripted moves per game, then the game resigns and a new room starts.
    Classic,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Spectate {
    Active,
    Idle,
}

#[derive(Debug, Parser)]
#[command(name = "load", about = "Space Baduk load benchmark: concurrent games and spectator sockets")]
struct Args {
    /// Concurrent games (two scripted players each).
    #[arg(long, default_value_t = 50)]
    games: usize,
    /// Spectator WebSockets kept open, spread evenly over the games' rooms.
    #[arg(long, default_value_t = 1000)]
    spectators: usize,
    /// Measured seconds (after the warm-up).
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// Seconds of play before measuring starts.
    #[arg(long, default_value_t = 2)]
    warmup: u64,
    #[arg(long, value_enum, default_value_t = Board::Space)]
    board: Board,
    /// What the spectators watch: the games being played (every event fans out to them), or
    /// one idle room (connected sockets that receive nothing: the cost of holding them).
    #[arg(long, value_enum, default_value_t = Spectate::Active)]
    spectate: Spectate,
    /// `spawn` (the space-baduk binary beside this one, as a child process), `in-process`,
    /// or the base URL of a running server (e.g. http://127.0.0.1:3000).
    #[arg(long, default_value = "spawn")]
    server: String,
    /// More running instances of the same deployment (base URLs, comma-separated): game g's
    /// Black plays through instance g, its White through instance g + 1, and
    /// spectators are spread over all of them, so half the commands are forwarded.
    #[arg(long, value_delimiter = ',')]
    also: Vec<String>,
    /// The server binary for `--server spawn` (default: `space-baduk` next to this binary).
    #[arg(long)]
    server_bin: Option<PathBuf>,
    /// Data directory for a spawned or in-process server (default: a new temporary one).
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// PostgreSQL for the in-process server instead of SQLite (`postgres://…`; a spawned
    /// server reads `DATABASE_URL` itself).
    #[arg(long)]
    database_url: Option<String>,
    /// Spectator handshakes in flight at once while connecting.
    #[arg(long, default_value_t = 256)]
    connect_concurrency: usize,
    /// Worker threads of this generator's runtime.
    #[arg(long, default_value_t = 2)]
    client_threads: usize,
    /// Only measure fsync and SQLite commit cost in the data directory, then exit.
    #[arg(long)]
    probe: bool,
    /// Also print the result as one JSON line (last line of the output), for comparing runs.
    #[arg(long)]
    json: bool,
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(args.client_threads.max(1))
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(run(args))
}

#[derive(Default)]
struct Stats {
    measuring: AtomicBool,
    stop: AtomicBool,
    moves: AtomicU64,
    acks: AtomicU64,
    rooms_rotated: AtomicU64,
    move_rtt_us: Mutex<Vec<u32>>,
    ack_rtt_us: Mutex<Vec<u32>>,
    errors: Mutex<BTreeMap<String, u64>>,
    /// Messages the spectators read (a batch's each counted), and the WebSocket messages
    /// that carried them.
    spectator_msgs: AtomicU64,
    spectator_frames: AtomicU64,
    spectator_bytes: AtomicU64,
    spectators_connected: AtomicI64,
    spectator_connects: AtomicU64,
}

impl Stats {
    fn error(&self, kind: impl Into<String>) {
        *self.errors.lock().unwrap().entry(kind.into()).or_default() += 1;
    }
}

// -------------------------------------------------------------------------------------------
// Report
// -------------------------------------------------------------------------------------------

fn pct(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((p / 100.0) * (sorted.len() as f64 - 1.0)).round() as usize;
    f64::from(sorted[i.min(sorted.len() - 1)]) / 1000.0
}

async fn run(args: Args) -> std::process::ExitCode {
    if args.probe {
        let (dir, _tmp) = data_dir(&args);
        probe(&dir).await;
        return std::process::ExitCode::SUCCESS;
    }
    let (base, target) = start_target(&args).await;
    testclient::wait_healthy(&base).await;
    // Every instance named, before any player is made there (else: a failed sign-up deep in
    // a setup task instead of the instance's address).
    for also in &args.also {
        testclient::wait_healthy(also.trim_end_matches('/')).await;
    }
    let server_pid = target.pid().map(|p| p.to_string());
    let server_rss = || server_pid.as_deref().and_then(rss_kib);
    let rss_idle = server_rss();
    eprintln!(
        "server {base} ({}), {} games on {:?}, {} spectators, {} s measured after {} s warm-up",
        match &target {
            Target::Spawned { .. } => "child process",
            Target::InProcess { .. } => "in this process",
            Target::External => "external",
        },
        args.games,
        args.board,
        args.spectators,
        args.seconds,
        args.warmup
    );

    // Players: sign-ups hash passwords (Argon2), so a few at a time.
    let t = Instant::now();
    let run_id = std::process::id();
    let gate = Arc::new(Semaphore::new(4));
    let bases: Vec<String> =
        std::iter::once(base.clone()).chain(args.also.iter().map(|b| b.trim_end_matches('/').to_string())).collect();
    let mut setups = Vec::new();
    for g in 0..args.games {
        let (gate, board) = (gate.clone(), args.board);
        let (black_base, white_base) = (bases[g % bases.len()].clone(), bases[(g + 1) % bases.len()].clone());
        setups.push(tokio::spawn(async move {
            let _p = gate.acquire().await.unwrap();
            let black = Client::sign_up(&black_base, &format!("b{run_id}-{g}")).await;
            let white = Client::sign_up(&white_base, &format!("w{run_id}-{g}")).await;
            let room = new_room(&black, &white, board, &format!("load {g}")).await.expect("room set up");
            (black, white, room)
        }));
    }
    let mut pairs = Vec::new();
    for s in setups {
        pairs.push(s.await.expect("setup task"));
    }
    eprintln!("{} games set up in {:.1} s", args.games, t.elapsed().as_secs_f64());
    let rss_rooms = server_rss();

    let stats = Arc::new(Stats::default());
    let slots: Vec<watch::Sender<i64>> = pairs.iter().map(|(_, _, room)| watch::channel(*room).0).collect();

    // Spectators, spread over the rooms, connected before play starts.
    let t = Instant::now();
    let connect_gate = Arc::new(Semaphore::new(args.connect_concurrency.max(1)));
    // An idle room: seated and ready, never played in.
    let idle = if args.spectate == Spectate::Idle {
        let black = Client::sign_up(&base, &format!("ib{run_id}")).await;
        let white = Client::sign_up(&base, &format!("iw{run_id}")).await;
        let room = new_room(&black, &white, args.board, "idle").await.expect("idle room");
        Some(watch::channel(room).0)
    } else {
        None
    };
    for s in 0..args.spectators {
        let rx = match &idle {
            Some(idle) => idle.subscribe(),
            None => slots[s % slots.len()].subscribe(),
        };
        tokio::spawn(spectate(bases[s % bases.len()].clone(), rx, stats.clone(), connect_gate.clone()));
    }
    let wanted = args.spectators as i64;
    let connect_deadline = Instant::now() + Duration::from_secs(180);
    while stats.spectators_connected.load(Relaxed) < wanted && Instant::now() < connect_deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!(
        "{} of {} spectators connected in {:.1} s",
        stats.spectators_connected.load(Relaxed),
        args.spectators,
        t.elapsed().as_secs_f64()
    );

    let rss_sockets = server_rss();
    // Play.
    let mut games = Vec::new();
    for (i, ((black, white, room), slot)) in pairs.into_iter().zip(slots).enumerate() {
        games.push(tokio::spawn(play(i, black, white, room, args.board, slot, stats.clone())));
    }
    tokio::time::sleep(Duration::from_secs(args.warmup)).await;
    let own_pid = std::process::id().to_string();
    let cpu0 = (server_pid.as_deref().and_then(cpu_seconds), cpu_seconds(&own_pid));
    let machine0 = machine_busy_seconds();
    let msgs0 = stats.spectator_msgs.load(Relaxed);
    let frames0 = stats.spectator_frames.load(Relaxed);
    let bytes0 = stats.spectator_bytes.load(Relaxed);
    let connected0 = stats.spectators_connected.load(Relaxed);
    let t0 = Instant::now();
    stats.measuring.store(true, Relaxed);
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    stats.stop.store(true, Relaxed);
    let elapsed = t0.elapsed().as_secs_f64();
    let msgs1 = stats.spectator_msgs.load(Relaxed);
    let frames1 = stats.spectator_frames.load(Relaxed);
    let bytes1 = stats.spectator_bytes.load(Relaxed);
    let connected1 = stats.spectators_connected.load(Relaxed);
    let cpu1 = (server_pid.as_deref().and_then(cpu_seconds), cpu_seconds(&own_pid));
    let rss = (server_pid.as_deref().and_then(rss_mib), rss_mib(&own_pid));
    let server_peak = server_pid.as_deref().and_then(peak_rss_mib);
    let machine1 = machine_busy_seconds();
    for g in games {
        let _ = g.await;
    }

    let moves = stats.moves.load(Relaxed);
    let acks = stats.acks.load(Relaxed);
    let mut mv = std::mem::take(&mut *stats.move_rtt_us.lock().unwrap());
    let mut ak = std::mem::take(&mut *stats.ack_rtt_us.lock().unwrap());
    mv.sort_unstable();
    ak.sort_unstable();
    println!(
        "== load: {} games ({:?}), {} spectators watching {}, {:.1} s measured ==",
        args.games,
        args.board,
        args.spectators,
        if args.spectate == Spectate::Idle { "1 idle room" } else { "the played rooms" },
        elapsed
    );
    println!("durable moves/s            {:>10.0}   ({moves} moves with a 200 reply)", moves as f64 / elapsed);
    println!("durable acknowledgements/s {:>10.0}   (each one a commit too)", acks as f64 / elapsed);
    println!("durable commands/s         {:>10.0}", (moves + acks) as f64 / elapsed);
    println!(
        "move round trip ms         p50 {:.2}  p99 {:.2}  max {:.2}",
        pct(&mv, 50.0),
        pct(&mv, 99.0),
        mv.last().map_or(f64::NAN, |m| f64::from(*m) / 1000.0)
    );
    println!(
        "ack round trip ms          p50 {:.2}  p99 {:.2}  max {:.2}",
        pct(&ak, 50.0),
        pct(&ak, 99.0),
        ak.last().map_or(f64::NAN, |m| f64::from(*m) / 1000.0)
    );
    println!(
        "spectators connected       {connected0} at start, {connected1} at end ({} connects in all)",
        stats.spectator_connects.load(Relaxed)
    );
    println!(
        "spectator messages/s       {:>10.0}   (in {:.0} WebSocket messages/s, {:.0} KiB/s of text)",
        (msgs1 - msgs0) as f64 / elapsed,
        (frames1 - frames0) as f64 / elapsed,
        (bytes1 - bytes0) as f64 / 1024.0 / elapsed
    );
    println!("rooms started anew         {}", stats.rooms_rotated.load(Relaxed));
    let cpu = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => format!("{:.2} cores", (b - a) / elapsed),
        _ => "n/a".into(),
    };
    println!(
        "CPU during the window      server {}  generator {}  (of {} cores)",
        cpu(cpu0.0, cpu1.0),
        cpu(cpu0.1, cpu1.1),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    // Other processes on the machine take cores from both: say so, or the figures mislead.
    if let (Some(a), Some(b), Some(s0), Some(s1), Some(g0), Some(g1)) =
        (machine0, machine1, cpu0.0, cpu1.0, cpu0.1, cpu1.1)
    {
        let others = ((b - a) - (s1 - s0) - (g1 - g0)) / elapsed;
        println!("CPU of other processes     {others:.2} cores (machine busy {:.2} cores)", (b - a) / elapsed);
    } else if let (Some(a), Some(b)) = (machine0, machine1) {
        println!("CPU of the whole machine   {:.2} cores busy", (b - a) / elapsed);
    }
    let mib = |m: Option<u64>| m.map_or("n/a".to_string(), |m| format!("{m} MiB"));
    println!("resident memory            server {} (peak {})  generator {}", mib(rss.0), mib(server_peak), mib(rss.1));
    // What a room (two sign-ups, a started game) and a connected socket add to the server.
    let per = |after: Option<u64>, before: Option<u64>, n: usize| match (after, before) {
        (Some(a), Some(b)) if n > 0 => Some(a.saturating_sub(b) as f64 / n as f64),
        _ => None,
    };
    let per_room = per(rss_rooms, rss_idle, args.games);
    let per_socket = per(rss_sockets, rss_rooms, args.spectators);
    let kib = |k: Option<f64>| k.map_or("n/a".to_string(), |k| format!("{k:.1} KiB"));
    println!("server memory added        per room set up {}  per spectator socket {}", kib(per_room), kib(per_socket));
    let errors = stats.errors.lock().unwrap();
    if errors.is_empty() {
        println!("errors                     none");
    } else {
        println!("errors by kind:");
        for (k, n) in errors.iter() {
            println!("  {n:>8}  {k}");
        }
    }
    let error_count: u64 = errors.values().sum();
    drop(errors);
    if args.json {
        let cores = match (cpu0.0, cpu1.0) {
            (Some(a), Some(b)) => Some((b - a) / elapsed),
            _ => None,
        };
        let ms = |v: f64| (v * 100.0).round() / 100.0;
        let line = serde_json::json!({
            "games": args.games,
            "spectators": args.spectators,
            "seconds": ms(elapsed),
            "moves_per_s": ms(moves as f64 / elapsed),
            "acks_per_s": ms(acks as f64 / elapsed),
            "p50_ms": ms(pct(&mv, 50.0)),
            "p99_ms": ms(pct(&mv, 99.0)),
            "max_ms": mv.last().map(|m| ms(f64::from(*m) / 1000.0)),
            "spectator_msgs_per_s": ms((msgs1 - msgs0) as f64 / elapsed),
            "spectator_frames_per_s": ms((frames1 - frames0) as f64 / elapsed),
            "spectator_kib_per_s": ms((bytes1 - bytes0) as f64 / 1024.0 / elapsed),
            "errors": error_count,
            "server_cpu_cores": cores.map(ms),
            "server_rss_mib": rss.0,
            "server_peak_rss_mib": server_peak,
            "server_kib_per_room": per_room.map(ms),
            "server_kib_per_socket": per_socket.map(ms),
        });
        println!("{line}");
    }
    drop(idle);
    drop(target);
    std::process::ExitCode::SUCCESS
}
