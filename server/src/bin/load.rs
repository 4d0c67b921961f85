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

use app::matches::{
    commands::Command,
    events::Xyz,
    settings::{ColourAssignment, MatchSettings},
};
use clap::{Parser, ValueEnum};
use serde_json::Value;
use testclient::{
    futures_util::StreamExt, reqwest, started_room, tokio_tungstenite::tungstenite::Message, Answer, Client,
    ServerProcess,
};
use tokio::sync::{watch, Semaphore};

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
    /// More running instances of the same deployment (base URLs, comma-separated; issue 15
    /// §3): game g's Black plays through instance g, its White through instance g + 1, and
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

// -------------------------------------------------------------------------------------------
// The server under test
// -------------------------------------------------------------------------------------------

enum Target {
    /// Stopped when dropped.
    Spawned {
        server: ServerProcess,
        _dir: Option<tempfile::TempDir>,
    },
    InProcess {
        _stop: tokio::sync::oneshot::Sender<()>,
        _dir: Option<tempfile::TempDir>,
    },
    External,
}

impl Target {
    fn pid(&self) -> Option<u32> {
        match self {
            Target::Spawned { server, .. } => Some(server.pid()),
            _ => None,
        }
    }
}

fn data_dir(args: &Args) -> (PathBuf, Option<tempfile::TempDir>) {
    match &args.data_dir {
        Some(d) => (d.clone(), None),
        None => {
            // Mind where this is: on a tmpfs, fsync costs nothing and the figures mean little.
            let t = tempfile::Builder::new().prefix("sb-load-").tempdir().expect("temp dir");
            eprintln!("data directory {}", t.path().display());
            (t.path().to_path_buf(), Some(t))
        }
    }
}

async fn start_target(args: &Args) -> (String, Target) {
    match args.server.as_str() {
        "spawn" => {
            let (dir, tmp) = data_dir(args);
            let bin = args
                .server_bin
                .clone()
                .unwrap_or_else(|| std::env::current_exe().expect("own path").with_file_name("space-baduk"));
            let server = ServerProcess::start(&bin, &dir).await;
            (server.base.clone(), Target::Spawned { server, _dir: tmp })
        }
        "in-process" => {
            let (dir, tmp) = data_dir(args);
            let config = server::Config {
                bind: "127.0.0.1".parse().unwrap(),
                port: 0,
                data_dir: dir.clone(),
                database_url: args.database_url.clone(),
                log: "warn".into(),
                log_format: server::config::LogFormat::Text,
                site_root: dir.join("site"),
                secure_cookies: false,
                public_url: None,
                instance_id: None,
                advertise_url: None,
                no_browser_bundle: true,
                spectator_pace_ms: 250,
                spectator_writes_per_s: 10_000,
            };
            let srv = server::Server::prepare(&config).await.expect("server starts");
            let base = format!("http://{}", srv.addr);
            let (stop, rx) = tokio::sync::oneshot::channel::<()>();
            tokio::spawn(async move {
                let _ = srv
                    .run(async {
                        let _ = rx.await;
                    })
                    .await;
            });
            (base, Target::InProcess { _stop: stop, _dir: tmp })
        }
        url => (url.trim_end_matches('/').to_string(), Target::External),
    }
}

/// User + system CPU seconds of a process so far (Linux /proc).
fn cpu_seconds(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / clock_ticks())
}

/// Busy CPU seconds of the whole machine so far (Linux /proc/stat: all but idle and iowait).
fn machine_busy_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let cpu: Vec<f64> = stat.lines().next()?.split_whitespace().skip(1).filter_map(|v| v.parse().ok()).collect();
    let total: f64 = cpu.iter().take(8).sum();
    let idle = cpu.get(3)? + cpu.get(4)?;
    Some((total - idle) / clock_ticks())
}

/// Resident memory of a process (Linux /proc).
fn rss_mib(pid: &str) -> Option<u64> {
    rss_kib(pid).map(|k| k / 1024)
}

fn rss_kib(pid: &str) -> Option<u64> {
    status_kib(pid, "VmRSS:")
}

/// The most a process has held resident since it started (Linux's high-water mark).
fn peak_rss_mib(pid: &str) -> Option<u64> {
    status_kib(pid, "VmHWM:").map(|k| k / 1024)
}

fn status_kib(pid: &str, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn clock_ticks() -> f64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100.0)
}

// -------------------------------------------------------------------------------------------
// Scripted games
// -------------------------------------------------------------------------------------------

/// The point of move `n` (1-based, odd = Black): Black fills rows y = 1, 5, 9, 13, 17 and
/// White rows 3, 7, 11, 15, 19, plane after plane; the even rows stay empty, so every chain
/// keeps a liberty and no move captures, is suicide or repeats. `None` past the walk's end.
fn point_of(board: Board, n: u32) -> Option<(i64, i64, i64)> {
    let k = i64::from(n) - 1;
    let i = k / 2;
    let first_row = if k % 2 == 0 { 1 } else { 3 };
    let planes = if board == Board::Space { 19 } else { 1 };
    let per_plane = 5 * 19;
    let z = 1 + i / per_plane;
    if z > planes {
        return None;
    }
    let r = i % per_plane;
    Some((1 + r % 19, first_row + 4 * (r / 19), z))
}

fn settings(board: Board) -> MatchSettings {
    let mut s = match board {
        Board::Space => MatchSettings::space_default(),
        Board::Classic => MatchSettings::classic_default(19),
    };
    s.colours = ColourAssignment::HostBlack;
    s
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

fn error_kind(what: &str, r: &Result<Answer, reqwest::Error>) -> String {
    match r {
        Ok((status, body)) => format!("{what} {status} {}", body["error"].as_str().unwrap_or("?")),
        Err(e) => format!("{what} transport: {}", testclient::error_kind(e)),
    }
}

/// A new room for the pair, both seated, confirmed and ready. Returns its id.
async fn new_room(black: &Client, white: &Client, board: Board, name: &str) -> Result<i64, String> {
    started_room(black, white, name, &settings(board)).await
}

struct Position {
    next: u32,
    /// (acknowledging colour is Black?, move number)
    pending_ack: Option<(bool, u32)>,
}

/// Reads the room's view and continues from what the server holds (after an error).
async fn resync(black: &Client, white: &Client, room: i64) -> Option<Position> {
    let view: Value =
        black.http.get(format!("{}/api/v1/rooms/{room}", black.base)).send().await.ok()?.json().await.ok()?;
    match view["phase"].as_str()? {
        "playing" => {}
        "waiting_ready" => {
            let _ = black.try_cmd(room, &Command::Ready).await;
            let _ = white.try_cmd(room, &Command::Ready).await;
            return None; // look again next time
        }
        _ => return None,
    }
    let next = view["move_number"].as_u64()? as u32 + 1;
    let pending_ack = match &view["awaiting_ack"] {
        Value::Null => None,
        v => Some((v[0] == "black", v[1].as_u64()? as u32)),
    };
    Some(Position { next, pending_ack })
}

/// One game: move, acknowledge, move, acknowledge … until told to stop. When the scripted
/// walk is used up, Black resigns and the pair starts a new room (its spectators follow).
async fn play(
    idx: usize,
    black: Client,
    white: Client,
    mut room: i64,
    board: Board,
    slot: watch::Sender<i64>,
    stats: Arc<Stats>,
) {
    let mut at = Position { next: 1, pending_ack: None };
    let mut move_rtt = Vec::new();
    let mut ack_rtt = Vec::new();
    let mut generation = 0;
    while !stats.stop.load(Relaxed) {
        if let Some((black_acks, n)) = at.pending_ack {
            let who = if black_acks { &black } else { &white };
            let t = Instant::now();
            let r = who.try_cmd(room, &Command::Acknowledge { move_number: n }).await;
            let us = t.elapsed().as_micros().min(u32::MAX as u128) as u32;
            if stats.stop.load(Relaxed) {
                break;
            }
            match r {
                Ok((200, _)) => {
                    at.pending_ack = None;
                    if stats.measuring.load(Relaxed) {
                        stats.acks.fetch_add(1, Relaxed);
                        ack_rtt.push(us);
                    }
                }
                other => {
                    stats.error(error_kind("acknowledge", &other));
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    if let Some(p) = resync(&black, &white, room).await {
                        at = p;
                    }
                }
            }
            continue;
        }
        let n = at.next;
        let Some((x, y, z)) = point_of(board, n) else {
            // Walk used up: end this game and start another for the same pair.
            let _ = black.try_cmd(room, &Command::Resign).await;
            generation += 1;
            match new_room(&black, &white, board, &format!("load {idx}.{generation}")).await {
                Ok(r) => {
                    room = r;
                    slot.send_replace(r);
                    stats.rooms_rotated.fetch_add(1, Relaxed);
                    at = Position { next: 1, pending_ack: None };
                }
                Err(e) => {
                    stats.error(format!("new room: {e}"));
                    return;
                }
            }
            continue;
        };
        let (mover, black_moves) = if n % 2 == 1 { (&black, true) } else { (&white, false) };
        let t = Instant::now();
        let r = mover.try_cmd(room, &Command::Move { at: Xyz { x, y, z } }).await;
        let us = t.elapsed().as_micros().min(u32::MAX as u128) as u32;
        if stats.stop.load(Relaxed) {
            break;
        }
        match r {
            Ok((200, _)) => {
                at = Position { next: n + 1, pending_ack: Some((!black_moves, n)) };
                if stats.measuring.load(Relaxed) {
                    stats.moves.fetch_add(1, Relaxed);
                    move_rtt.push(us);
                }
            }
            other => {
                stats.error(error_kind("move", &other));
                tokio::time::sleep(Duration::from_millis(10)).await;
                if let Some(p) = resync(&black, &white, room).await {
                    at = p;
                }
            }
        }
    }
    stats.move_rtt_us.lock().unwrap().extend(move_rtt);
    stats.ack_rtt_us.lock().unwrap().extend(ack_rtt);
}

// -------------------------------------------------------------------------------------------
// Spectators
// -------------------------------------------------------------------------------------------

/// How an event message starts (the stored event's `seq` first); several in a batch.
const EVENT_OPEN: &str = r#"{"type":"event","event":{"seq":"#;
/// How a packed message starts (its first event's `seq`, then `n`, the number of events).
const PACKED_OPEN: &str = r#"{"type":"packed","seq":"#;

/// The number after `key` in `text`.
fn number_after(text: &str, key: &str) -> Option<i64> {
    let i = text.find(key)? + key.len();
    let digits = &text[i..];
    let end = digits.find(|c: char| !c.is_ascii_digit()).unwrap_or(digits.len());
    digits[..end].parse().ok()
}

/// The `seq` of the last event in a message (one, a batch's or a packed one's), read without
/// a full parse.
fn seq_of(text: &str) -> Option<i64> {
    if text.starts_with(PACKED_OPEN) {
        return Some(number_after(text, PACKED_OPEN)? + number_after(text, r#","n":"#)? - 1);
    }
    number_after(&text[text.rfind(EVENT_OPEN)?..], EVENT_OPEN)
}

/// The events a WebSocket text holds: a batch's or a packed message's, or itself.
fn text_messages(text: &str) -> u64 {
    if text.starts_with(PACKED_OPEN) {
        number_after(text, r#","n":"#).map_or(0, |n| n as u64)
    } else if text.starts_with(r#"{"type":"batch""#) {
        text.matches(EVENT_OPEN).count() as u64
    } else {
        1
    }
}

async fn spectate(base: String, mut slot: watch::Receiver<i64>, stats: Arc<Stats>, gate: Arc<Semaphore>) {
    let mut room = *slot.borrow_and_update();
    let mut after = 0i64;
    loop {
        let connected = {
            let _permit = gate.acquire().await.expect("gate open");
            testclient::spectate(&base, room, after).await
        };
        let mut ws = match connected {
            Ok(ws) => ws,
            Err(e) => {
                stats.error(format!("ws connect: {}", ws_error_kind(&e)));
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        stats.spectators_connected.fetch_add(1, Relaxed);
        stats.spectator_connects.fetch_add(1, Relaxed);
        loop {
            tokio::select! {
                msg = ws.next() => match msg {
                    Some(Ok(Message::Text(t))) => {
                        stats.spectator_msgs.fetch_add(text_messages(&t), Relaxed);
                        stats.spectator_frames.fetch_add(1, Relaxed);
                        stats.spectator_bytes.fetch_add(t.len() as u64, Relaxed);
                        if let Some(seq) = seq_of(&t) {
                            after = seq;
                        }
                        if t.starts_with("{\"type\":\"lagged\"") {
                            stats.error("ws lagged (server dropped a slow viewer)");
                            break;
                        }
                    }
                    Some(Ok(Message::Close(_))) | None => {
                        if !stats.stop.load(Relaxed) {
                            stats.error("ws closed by server");
                        }
                        break;
                    }
                    Some(Ok(_)) => {}
                    Some(Err(e)) => {
                        if !stats.stop.load(Relaxed) {
                            stats.error(format!("ws read: {}", ws_error_kind(&e)));
                        }
                        break;
                    }
                },
                changed = slot.changed() => {
                    if changed.is_err() {
                        stats.spectators_connected.fetch_sub(1, Relaxed);
                        return;
                    }
                    room = *slot.borrow_and_update();
                    after = 0;
                    break;
                }
            }
        }
        stats.spectators_connected.fetch_sub(1, Relaxed);
        if stats.stop.load(Relaxed) {
            return;
        }
    }
}

fn ws_error_kind(e: &testclient::tokio_tungstenite::tungstenite::Error) -> String {
    use testclient::tokio_tungstenite::tungstenite::Error as E;
    match e {
        E::Io(io) => format!("io {:?}", io.kind()),
        E::Http(r) => format!("http {}", r.status()),
        E::ConnectionClosed | E::AlreadyClosed => "closed".into(),
        E::Protocol(_) => "protocol".into(),
        other => format!("{other}").chars().take(40).collect(),
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

// -------------------------------------------------------------------------------------------
// Probe: what one durable commit costs on this disk
// -------------------------------------------------------------------------------------------

fn summary(mut v: Vec<u32>) -> String {
    v.sort_unstable();
    let mean = v.iter().map(|x| f64::from(*x)).sum::<f64>() / v.len().max(1) as f64 / 1000.0;
    format!("mean {mean:.3} ms  p50 {:.3}  p99 {:.3}  max {:.3}", pct(&v, 50.0), pct(&v, 99.0), pct(&v, 100.0))
}

async fn probe(dir: &Path) {
    use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
    use std::io::Write;
    std::fs::create_dir_all(dir).unwrap();
    println!("== probe in {} ==", dir.display());

    // 1. The raw cost of making 100 bytes durable: write + fdatasync.
    let path = dir.join("probe.bin");
    let mut f = std::fs::OpenOptions::new().create(true).append(true).open(&path).unwrap();
    let mut lat = Vec::new();
    let t = Instant::now();
    for _ in 0..500 {
        let s = Instant::now();
        f.write_all(&[7u8; 100]).unwrap();
        f.sync_data().unwrap();
        lat.push(s.elapsed().as_micros() as u32);
    }
    println!("append+fdatasync           {:>8.0}/s  {}", 500.0 / t.elapsed().as_secs_f64(), summary(lat));
    drop(f);
    // Overwriting blocks already allocated (as SQLite's WAL does once it has grown): no
    // file-size metadata to journal.
    use std::io::{Seek, SeekFrom};
    let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    let mut lat = Vec::new();
    let t = Instant::now();
    for i in 0..500u64 {
        let s = Instant::now();
        f.seek(SeekFrom::Start((i % 400) * 100)).unwrap();
        f.write_all(&[9u8; 100]).unwrap();
        f.sync_data().unwrap();
        lat.push(s.elapsed().as_micros() as u32);
    }
    println!("overwrite+fdatasync        {:>8.0}/s  {}", 500.0 / t.elapsed().as_secs_f64(), summary(lat));
    drop(f);
    let _ = std::fs::remove_file(&path);

    // 2. SQLite as the server opens it (WAL, synchronous=FULL), one event per transaction.
    for (label, sync) in [("FULL", SqliteSynchronous::Full), ("NORMAL", SqliteSynchronous::Normal)] {
        let db = dir.join(format!("probe-{label}.sqlite3"));
        let opts = SqliteConnectOptions::new()
            .filename(&db)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(sync)
            .busy_timeout(Duration::from_secs(5));
        let pool = SqlitePoolOptions::new().max_connections(8).connect_with(opts).await.unwrap();
        sqlx::query("CREATE TABLE IF NOT EXISTS ev (room INTEGER, seq INTEGER, body TEXT, PRIMARY KEY (room, seq))")
            .execute(&pool)
            .await
            .unwrap();
        let body = r#"{"type":"move_played","colour":"black","at":{"x":3,"y":3,"z":1},"move_number":1,"captured":[]}"#;
        let n = 1000;
        let mut lat = Vec::new();
        let t = Instant::now();
        for i in 0..n {
            let s = Instant::now();
            let mut tx = pool.begin().await.unwrap();
            sqlx::query("INSERT INTO ev VALUES (?, ?, ?)").bind(0).bind(i).bind(body).execute(&mut *tx).await.unwrap();
            tx.commit().await.unwrap();
            lat.push(s.elapsed().as_micros() as u32);
        }
        println!(
            "sqlite {label:<6} 1 writer    {:>8.0} commits/s  {}",
            f64::from(n) / t.elapsed().as_secs_f64(),
            summary(lat)
        );

        // Eight rooms committing at once: SQLite has one writer; commits queue, each its own fsync.
        let t = Instant::now();
        let mut tasks = Vec::new();
        for room in 1..=8i64 {
            let pool = pool.clone();
            tasks.push(tokio::spawn(async move {
                let mut lat = Vec::new();
                for i in 0..250 {
                    let s = Instant::now();
                    let mut tx = pool.begin().await.unwrap();
                    sqlx::query("INSERT INTO ev VALUES (?, ?, ?)")
                        .bind(room)
                        .bind(i)
                        .bind(body)
                        .execute(&mut *tx)
                        .await
                        .unwrap();
                    tx.commit().await.unwrap();
                    lat.push(s.elapsed().as_micros() as u32);
                }
                lat
            }));
        }
        let mut lat = Vec::new();
        for t in tasks {
            lat.extend(t.await.unwrap());
        }
        println!(
            "sqlite {label:<6} 8 writers   {:>8.0} commits/s  {}",
            2000.0 / t.elapsed().as_secs_f64(),
            summary(lat)
        );

        // Group commit: events of many rooms in one transaction (one fsync for the batch).
        for size in [10i64, 25, 100] {
            let t = Instant::now();
            let batches = 4000 / size;
            for b in 0..batches {
                let mut tx = pool.begin().await.unwrap();
                for j in 0..size {
                    sqlx::query("INSERT INTO ev VALUES (?, ?, ?)")
                        .bind(1000 * size + j)
                        .bind(b)
                        .bind(body)
                        .execute(&mut *tx)
                        .await
                        .unwrap();
                }
                tx.commit().await.unwrap();
            }
            let secs = t.elapsed().as_secs_f64();
            println!(
                "sqlite {label:<6} batches of {size:<3} {:>8.0} events/s  ({:.2} ms a batch)",
                (batches * size) as f64 / secs,
                secs * 1000.0 / batches as f64
            );
        }
        pool.close().await;
        for ext in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
        }
    }
}
