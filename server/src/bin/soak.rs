//! Soak run of the maximum board (003's front matter lists the 25×25×25 box and long matches
//! as never verified): two scripted participants play one complete 25³ game through the
//! participant API — every move acknowledged, undos by consent along the way, two passes,
//! scoring by consent to the numbered statement — while spectators watch its stream. Before
//! that it stores finished rooms (1,000 by default) so that the restart below boots beside
//! them.
//!
//! Reported: the move round trip over the first and the last thousand moves, the server's
//! resident memory as the game grows, the room's replay time (the first view after a
//! restart, which loads the finished room from its log), the boot time, the record
//! download's size and time, and what the spectators received. A benchmark, not a test:
//! it asserts nothing about time.
//!
//! ```sh
//! cargo build --release -p server --features load --bins
//! target/release/soak                 # 25³, 1,000 finished rooms, 20 spectators
//! target/release/soak --size 9 --finished-rooms 10 --json   # a quick look
//! target/release/soak --keep /tmp/soak-25 --finished-rooms 0   # keep the game to look at:
//! make build && node end2end/soak-frame.mjs /tmp/soak-25 1     # (`--bins` built space-baduk
//!                                                              # without the site's names)
//! ```
//!
//! The game: Black fills the planes z = 1…⌊n/2⌋, White the planes above the middle one, each
//! in reading order, both skipping the points with x, y, z ≡ 2 (mod 4) (eyes); the middle
//! plane stays empty, and so does each point Black took back. Every chain keeps liberties,
//! so no move captures or is suicide.

use std::{
    path::PathBuf,
    sync::{
        atomic::{AtomicI64, AtomicU64, Ordering::Relaxed},
        Arc,
    },
    time::{Duration, Instant},
};

use clap::Parser;
use serde_json::{json, Value};
use testclient::{
    futures_util::StreamExt, started_room, tokio_tungstenite::tungstenite::Message, Client, ServerProcess,
};
use wire::{commands::Command, events::Xyz, settings::MatchSettings};

#[derive(Debug, Parser)]
#[command(about = "Space Baduk soak run: one complete game on the largest box, with spectators")]
struct Args {
    /// Lines along each axis (the box is size³; 003 §1.1 allows up to 25).
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(i64).range(5..=25))]
    size: i64,
    /// Black asks to undo its move after every this many of its moves (0: never); White
    /// accepts and Black plays the same point again.
    #[arg(long, default_value_t = 500)]
    undo_every: u32,
    /// Spectators watching the game's stream throughout.
    #[arg(long, default_value_t = 20)]
    spectators: usize,
    /// Finished rooms stored before the game (the restart boots beside them).
    #[arg(long, default_value_t = 1000)]
    finished_rooms: usize,
    /// The server binary (default: `space-baduk` next to this one).
    #[arg(long)]
    server_bin: Option<PathBuf>,
    /// Print one JSON line as well.
    #[arg(long)]
    json: bool,
    /// Keep the data in this folder (new or empty) instead of a temporary one, for looking at
    /// the finished game afterwards: `node end2end/soak-frame.mjs DIR ROOM` draws its final
    /// position in a browser. The room's number is printed (and in the JSON line).
    #[arg(long)]
    keep: Option<PathBuf>,
}

/// Black's and White's points, in playing order.
fn walks(n: i64) -> (Vec<Xyz>, Vec<Xyz>) {
    let middle = n / 2 + 1;
    let eye = |x: i64, y: i64, z: i64| x % 4 == 2 && y % 4 == 2 && z % 4 == 2;
    let mut black = Vec::new();
    let mut white = Vec::new();
    for z in 1..=n {
        for y in 1..=n {
            for x in 1..=n {
                if z == middle || eye(x, y, z) {
                    continue;
                }
                if z < middle { &mut black } else { &mut white }.push(Xyz { x, y, z });
            }
        }
    }
    (black, white)
}

fn rss_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kib: f64 = status.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn pct(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// p50 and p99 of a window of round trips (ms).
fn summary(window: &[f64]) -> (f64, f64) {
    let mut v = window.to_vec();
    v.sort_by(f64::total_cmp);
    (pct(&v, 0.5), pct(&v, 0.99))
}

/// Sends a command that must be accepted; its round trip in ms.
async fn must(who: &Client, room: i64, command: &Command) -> f64 {
    let t = Instant::now();
    match who.try_cmd(room, command).await {
        Ok((200, _)) => t.elapsed().as_secs_f64() * 1000.0,
        other => panic!("{command:?} refused: {other:?}"),
    }
}

/// A spectator: counts the stream's messages and remembers the last event number.
async fn watch(base: String, room: i64, msgs: Arc<AtomicU64>, last_seq: Arc<AtomicI64>) {
    let mut ws = testclient::spectate(&base, room, 0).await.expect("the stream opens");
    while let Some(Ok(msg)) = ws.next().await {
        if let Message::Text(t) = msg {
            if let Ok(v) = serde_json::from_str::<Value>(&t) {
                for v in testclient::unbatch(v) {
                    msgs.fetch_add(1, Relaxed);
                    if let Some(seq) = v["event"]["seq"].as_i64() {
                        last_seq.fetch_max(seq, Relaxed);
                    }
                }
            }
        }
    }
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    rt.block_on(run(args))
}

async fn run(args: Args) -> std::process::ExitCode {
    let bin = args
        .server_bin
        .clone()
        .unwrap_or_else(|| std::env::current_exe().expect("own path").with_file_name("space-baduk"));
    // The temporary folder (when not kept) lives until the end of the run.
    let (dir, _temporary) = match &args.keep {
        Some(keep) => {
            std::fs::create_dir_all(keep).expect("the --keep folder can be made");
            if std::fs::read_dir(keep).map(|mut d| d.next().is_some()).unwrap_or(true) {
                eprintln!("--keep {}: the folder must be new or empty", keep.display());
                return std::process::ExitCode::from(2);
            }
            (keep.clone(), None)
        }
        None => {
            let t = tempfile::tempdir().expect("a temporary data folder");
            (t.path().to_path_buf(), Some(t))
        }
    };
    let server = ServerProcess::start(&bin, &dir).await;
    let base = server.base.clone();
    let black = Client::sign_up(&base, "soak_black").await;
    let white = Client::sign_up(&base, "soak_white").await;

    // Finished rooms beside the game: small boxes, resigned at once.
    let t = Instant::now();
    let mut small = MatchSettings::space_default();
    small.board = serde_json::from_value(
        json!({"x": {"start": 1, "end": 3}, "y": {"start": 1, "end": 3}, "z": {"start": 1, "end": 3}}),
    )
    .expect("a box");
    small.colours = wire::settings::ColourAssignment::HostBlack;
    for i in 0..args.finished_rooms {
        let room = started_room(&black, &white, &format!("finished {i}"), &small).await.expect("room set up");
        must(&black, room, &Command::Resign).await;
    }
    let finished_s = t.elapsed().as_secs_f64();

    // The game.
    let n = args.size;
    let mut settings = MatchSettings::space_default();
    settings.board = serde_json::from_value(
        json!({"x": {"start": 1, "end": n}, "y": {"start": 1, "end": n}, "z": {"start": 1, "end": n}}),
    )
    .expect("a box");
    settings.colours = wire::settings::ColourAssignment::HostBlack;
    settings.time = wire::settings::TimeControl::SpaceHours { black: 5, white: 5 };
    // Two consents make the result final (no administrator in this run to confirm it).
    settings.review = wire::referee::ReviewPolicy::WhenDisputed;
    let room = started_room(&black, &white, "soak", &settings).await.expect("room set up");
    let msgs = Arc::new(AtomicU64::new(0));
    let seen: Vec<Arc<AtomicI64>> = (0..args.spectators).map(|_| Arc::new(AtomicI64::new(0))).collect();
    let watchers: Vec<_> =
        seen.iter().map(|s| tokio::spawn(watch(base.clone(), room, msgs.clone(), s.clone()))).collect();

    let (black_walk, white_walk) = walks(n);
    let mut rtt = Vec::with_capacity(2 * white_walk.len());
    let mut ack_rtt = Vec::with_capacity(2 * white_walk.len());
    let mut rss = Vec::new();
    let mut undos = 0u32;
    let mut number = 0u32;
    let game_started = Instant::now();
    // Black's next point: after an undo the same point may not be played at once (003 §5,
    // `undo_repetition`), so Black goes on with the next one and the undone point stays
    // empty (one more eye).
    let mut black_next = black_walk.iter().copied();
    let mut pairs = 0u32;
    'game: for &white_at in &white_walk {
        let Some(black_at) = black_next.next() else { break };
        pairs += 1;
        number += 1;
        rtt.push(must(&black, room, &Command::Move { at: black_at }).await);
        ack_rtt.push(must(&white, room, &Command::Acknowledge { move_number: number }).await);
        if args.undo_every > 0 && pairs.is_multiple_of(args.undo_every) {
            must(&black, room, &Command::RequestUndo).await;
            must(&white, room, &Command::AnswerUndo { accept: true }).await;
            undos += 1;
            let Some(instead) = black_next.next() else { break 'game };
            rtt.push(must(&black, room, &Command::Move { at: instead }).await);
            ack_rtt.push(must(&white, room, &Command::Acknowledge { move_number: number }).await);
        }
        number += 1;
        rtt.push(must(&white, room, &Command::Move { at: white_at }).await);
        ack_rtt.push(must(&black, room, &Command::Acknowledge { move_number: number }).await);
        if number % 1000 < 2 {
            rss.push((number, rss_mib(server.pid()).unwrap_or(f64::NAN)));
        }
    }
    // Two passes, then the count by consent to the numbered statement (003 §2.7, §4.5).
    number += 1;
    must(&black, room, &Command::Pass).await;
    must(&white, room, &Command::Acknowledge { move_number: number }).await;
    must(&white, room, &Command::Pass).await;
    let mut view = black.view(room).await;
    if view["phase"] != "scoring" {
        must(&black, room, &Command::Acknowledge { move_number: number + 1 }).await;
        must(&black, room, &Command::RequestScoring).await;
        must(&white, room, &Command::RequestScoring).await;
        view = black.view(room).await;
    }
    let statement = view["scoring"]["statement"].as_u64().unwrap_or_else(|| panic!("no statement: {view}"));
    must(&black, room, &Command::Consent { statement }).await;
    must(&white, room, &Command::Consent { statement }).await;
    let game_s = game_started.elapsed().as_secs_f64();
    let view = black.view(room).await;
    let version = view["version"].as_i64().unwrap_or(0);
    let result = view["result"].clone();
    rss.push((number, rss_mib(server.pid()).unwrap_or(f64::NAN)));
    // Spectators: every one should have the last event.
    for _ in 0..200 {
        if seen.iter().all(|s| s.load(Relaxed) >= version) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let complete = seen.iter().filter(|s| s.load(Relaxed) >= version).count();
    for w in watchers {
        w.abort();
    }

    // The record.
    let t = Instant::now();
    let (status, record) = black.get(&format!("/api/v1/rooms/{room}/record")).await;
    let record_ms = t.elapsed().as_secs_f64() * 1000.0;
    assert_eq!(status, 200, "record: {record}");

    // Restart beside the finished rooms: boot time, then the first view (the room replayed).
    drop(server);
    let t = Instant::now();
    let server = ServerProcess::start(&bin, &dir).await;
    let boot_ms = t.elapsed().as_secs_f64() * 1000.0;
    let black = black.at(&server.base);
    let t = Instant::now();
    let again = black.view(room).await;
    let replay_ms = t.elapsed().as_secs_f64() * 1000.0;
    assert_eq!(again["version"], view["version"], "the room comes back as it was");
    let rss_after_restart = rss_mib(server.pid()).unwrap_or(f64::NAN);

    let window = 1000.min(rtt.len() / 2);
    let (first_p50, first_p99) = summary(&rtt[..window]);
    let (last_p50, last_p99) = summary(&rtt[rtt.len() - window..]);
    let (ack_p50, ack_p99) = summary(&ack_rtt);
    println!("soak: {n}×{n}×{n}, {number} moves and passes ({undos} taken back by consent), {} events", version);
    println!("  finished rooms stored first: {} in {finished_s:.1} s", args.finished_rooms);
    println!("  game: {game_s:.1} s; result {result}");
    println!("  move round trip, first {window}: p50 {first_p50:.2} ms, p99 {first_p99:.2} ms");
    println!("  move round trip, last {window}:  p50 {last_p50:.2} ms, p99 {last_p99:.2} ms");
    println!("  acknowledgement round trip, all: p50 {ack_p50:.2} ms, p99 {ack_p99:.2} ms");
    println!(
        "  server RSS (MiB) by move: {}",
        rss.iter().map(|(m, r)| format!("{m}:{r:.0}")).collect::<Vec<_>>().join(" ")
    );
    println!("  spectators: {complete}/{} got the last event; {} messages", args.spectators, msgs.load(Relaxed));
    println!("  record: {} KiB in {record_ms:.1} ms", record.len() / 1024);
    println!("  restart: healthy after {boot_ms:.0} ms; the room's first view (replayed) {replay_ms:.0} ms; RSS {rss_after_restart:.0} MiB");
    if let Some(keep) = &args.keep {
        println!("  kept: room {room} in {}", keep.display());
    }
    if args.json {
        let line = json!({
            "size": n, "moves": number, "undos": undos, "events": version,
            "finished_rooms": args.finished_rooms, "game_s": game_s,
            "first_p50_ms": first_p50, "first_p99_ms": first_p99, "last_p50_ms": last_p50, "last_p99_ms": last_p99,
            "ack_p50_ms": ack_p50, "ack_p99_ms": ack_p99,
            "rss_mib": rss, "spectators": args.spectators, "spectators_complete": complete,
            "spectator_msgs": msgs.load(Relaxed), "record_bytes": record.len(), "record_ms": record_ms,
            "boot_ms": boot_ms, "replay_ms": replay_ms, "rss_after_restart_mib": rss_after_restart,
            "room": room,
        });
        println!("{line}");
    }
    if complete == args.spectators {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}
