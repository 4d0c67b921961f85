//! The chaos run: three server instances on one PostgreSQL database, games played through
//! all of them at random (each action sent to any live instance: a follower forwards it to
//! the room's owner) while spectators watch, and faults in the middle:
//!
//! * [`Fault::Kill`]: SIGKILL of the instance owning the most rooms. Its leases lapse and the
//!   others take its rooms over (held as after a server failure, both players ready again);
//!   it is started again under its name once they have.
//! * [`Fault::RestartDatabase`]: PostgreSQL itself restarted under the instances.
//! * [`Fault::Partition`]: the third instance, in a network namespace of its own, cut off from
//!   everything (database, peers, clients) for a while, then joined again. The others take
//!   its rooms over; when it comes back, its leases are gone and fencing keeps it from writing.
//!
//! Players send each request with a timeout and, on an unanswered one, avoid that instance for
//! a while; spectators reconnect elsewhere after an error or a silence, resuming after the last
//! event they saw. Afterwards the database is checked:
//!
//! * every move whose 200 reply arrived is in its room's log, with its number and point
//!   (acknowledged actions lost: must be 0);
//! * each room's log numbers its events 1, 2, 3… without a gap or a repeat;
//! * along each log the lease epochs never fall (an event under an older lease after one
//!   under a newer one would be two owners writing at once: double-owned rooms, must be 0);
//! * every spectator saw each room's events in order, without a gap, across its reconnections.
//!
//! The suite's reduced run (`tests/suite/chaos.rs`) and the benchmark (`src/bin/chaos.rs`)
//! both drive this.

use std::{
    collections::{BTreeMap, HashMap},
    path::PathBuf,
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        Arc, Mutex,
    },
    time::{Duration, Instant},
};

use futures_util::StreamExt;
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;
use wire::{
    commands::Command,
    events::Xyz,
    settings::{ColourAssignment, MatchSettings},
};

use crate::{
    netns::{Netns, Place},
    Client, ServerProcess,
};

/// The flat board the games are played on.
pub const SIZE: i64 = 19;
/// Moves a game can play with [`point_of`] (rows 1, 3, 5 … of the board, never a capture).
pub const MAX_MOVES: u32 = (SIZE * 10) as u32;
/// A request unanswered after this is given up (and its instance avoided for a while).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(3);
/// How long a player avoids an instance that did not answer.
const AVOID: Duration = Duration::from_secs(5);
/// A spectator silent for this long reconnects elsewhere.
const SILENCE: Duration = Duration::from_secs(6);
/// A game with no progress for this long has failed (longer than a lease and a renewal).
const STALL: Duration = Duration::from_secs(90);

/// Move `n`'s point: two colours on alternate rows, never touching the other's stones.
pub fn point_of(n: u32) -> (i64, i64) {
    let k = i64::from(n - 1);
    let i = k / 2;
    let first_row = if k % 2 == 0 { 1 } else { 3 };
    (1 + i % SIZE, first_row + 4 * (i / SIZE))
}

/// Move `n`'s command.
pub fn move_to(n: u32) -> Command {
    let (x, y) = point_of(n);
    Command::Move { at: Xyz { x, y, z: 1 } }
}

/// Black plays the odd moves.
pub fn colour_of(n: u32) -> &'static str {
    if n % 2 == 1 {
        "black"
    } else {
        "white"
    }
}

/// A fault, and after how many acknowledged moves (in all) it comes.
#[derive(Debug, Clone)]
pub enum Fault {
    Kill {
        after: usize,
    },
    /// `command`: a shell command that restarts the database server and returns once it is up.
    RestartDatabase {
        after: usize,
        command: String,
    },
    /// The namespaced instance cut off for `seconds`.
    Partition {
        after: usize,
        seconds: u64,
    },
}

impl Fault {
    fn after(&self) -> usize {
        match self {
            Fault::Kill { after } | Fault::RestartDatabase { after, .. } | Fault::Partition { after, .. } => *after,
        }
    }
}

/// What to run.
pub struct Plan {
    pub server_bin: PathBuf,
    /// The run's database: a new, empty one (the instances migrate it).
    pub database_url: String,
    /// Where the instances keep their data folders.
    pub data_root: PathBuf,
    pub games: usize,
    /// Moves each game plays (at most [`MAX_MOVES`]).
    pub moves: u32,
    pub spectators: usize,
    /// In the order they come.
    pub faults: Vec<Fault>,
}

/// How one fault went.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FaultReport {
    pub fault: String,
    pub at_moves: usize,
    /// The rooms it took away from their owner (all rooms for a database restart).
    pub rooms: usize,
    /// From the fault until each of those rooms had a move acknowledged again (the slowest).
    pub recovered_s: f64,
}

/// The run's figures and checks.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    pub games: usize,
    pub spectators: usize,
    pub seconds: f64,
    pub moves_acked: usize,
    pub moves_per_s: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub answered_500: usize,
    /// The first few 500 answers (their `correlation_id` names the fault in the server's log).
    pub answers_500: Vec<String>,
    pub unanswered: usize,
    pub spectator_msgs: usize,
    pub spectator_reconnects: usize,
    pub faults: Vec<FaultReport>,
    /// Must be 0.
    pub acked_lost: usize,
    /// Must be 0.
    pub log_gaps: usize,
    /// Must be 0.
    pub double_owned_rooms: usize,
    /// Must be 0.
    pub spectator_gaps: usize,
    /// What was wrong, one line each (empty when all checks passed).
    pub failures: Vec<String>,
}

#[derive(Default)]
struct Tally {
    acked: AtomicUsize,
    faults_500: AtomicUsize,
    answers_500: Mutex<Vec<String>>,
    unanswered: AtomicUsize,
    spectator_msgs: AtomicUsize,
    reconnects: AtomicUsize,
    /// Round trips of accepted moves.
    round_trips: Mutex<Vec<Duration>>,
    /// When each room last had a move acknowledged.
    last_ack: Mutex<HashMap<i64, Instant>>,
}

type Shared<T> = Arc<Mutex<T>>;
/// The live instances' base URLs.
type Instances = Shared<Vec<String>>;
/// A move whose 200 reply arrived: its number and point.
type Acked = (u32, i64, i64);
/// A game's driver: its acknowledged moves, or why it failed.
type Driver = tokio::task::JoinHandle<Result<Vec<Acked>, String>>;

fn pick(instances: &Instances, k: usize, avoid: &HashMap<String, Instant>) -> String {
    let bases = instances.lock().unwrap();
    let now = Instant::now();
    let usable: Vec<&String> = bases.iter().filter(|b| avoid.get(*b).is_none_or(|t| *t < now)).collect();
    match usable.len() {
        0 => bases[k % bases.len()].clone(),
        n => usable[k % n].clone(),
    }
}

async fn timed<T>(f: impl std::future::Future<Output = Result<T, reqwest::Error>>) -> Option<T> {
    tokio::time::timeout(REQUEST_TIMEOUT, f).await.ok()?.ok()
}

/// Plays `room` to `moves` moves through random live instances; returns the moves whose 200
/// reply arrived (number, x, y).
async fn play(
    players: [Client; 2],
    room: i64,
    moves: u32,
    instances: Instances,
    tally: Arc<Tally>,
) -> Result<Vec<Acked>, String> {
    let mut got = Vec::new();
    let mut k = room as usize;
    let mut avoid: HashMap<String, Instant> = HashMap::new();
    let mut progress = Instant::now();
    loop {
        if progress.elapsed() > STALL {
            return Err(format!("room {room} stalled after {} moves", got.len()));
        }
        k = k.wrapping_mul(31).wrapping_add(7);
        let base = pick(&instances, k, &avoid);
        let at = |p: &Client| p.at(&base);
        let viewed = timed(async {
            let r = at(&players[0]).http.get(format!("{base}/api/v1/rooms/{room}")).send().await?;
            Ok((r.status().as_u16(), r.json::<Value>().await.unwrap_or(Value::Null)))
        })
        .await;
        let v = match viewed {
            Some((200, v)) => v,
            Some(_) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
            None => {
                tally.unanswered.fetch_add(1, Ordering::Relaxed);
                avoid.insert(base, Instant::now() + AVOID);
                continue;
            }
        };
        let played = v["move_number"].as_u64().unwrap_or(0) as u32;
        if played >= moves && v["awaiting_ack"].is_null() {
            return Ok(got);
        }
        let (who, command, n) = match (v["phase"].as_str(), &v["awaiting_ack"]) {
            (Some("waiting_ready"), _) => {
                for p in &players {
                    let _ = timed(at(p).try_cmd(room, &Command::Ready)).await;
                }
                continue;
            }
            (Some("playing"), Value::Array(a)) => {
                let (colour, n) = (a[0].as_str().unwrap_or(""), a[1].as_u64().unwrap_or(0) as u32);
                (usize::from(colour != "black"), Command::Acknowledge { move_number: n }, None)
            }
            (Some("playing"), _) => {
                let n = played + 1;
                (usize::from(colour_of(n) != "black"), move_to(n), Some(n))
            }
            (phase, _) => return Err(format!("room {room} in {phase:?}: {v}")),
        };
        let sent = Instant::now();
        match (timed(at(&players[who]).try_cmd(room, &command)).await, n) {
            (Some((200, _)), Some(n)) => {
                tally.round_trips.lock().unwrap().push(sent.elapsed());
                let (x, y) = point_of(n);
                got.push((n, x, y));
                tally.acked.fetch_add(1, Ordering::Relaxed);
                tally.last_ack.lock().unwrap().insert(room, Instant::now());
                progress = Instant::now();
            }
            (Some((200, _)), None) => progress = Instant::now(),
            // An owner that cannot be reached yet, a view a step behind, or the database
            // restarting: ask again.
            (Some((503 | 409, _)), _) => tokio::time::sleep(Duration::from_millis(100)).await,
            (Some((500, body)), _) => {
                tally.faults_500.fetch_add(1, Ordering::Relaxed);
                {
                    let mut seen = tally.answers_500.lock().unwrap();
                    if seen.len() < 5 {
                        seen.push(format!("room {room}, {base}: {body}"));
                    }
                }
                tokio::time::sleep(Duration::from_millis(100)).await
            }
            (Some((status, body)), _) => return Err(format!("room {room}: {command:?} → {status} {body}")),
            (None, _) => {
                tally.unanswered.fetch_add(1, Ordering::Relaxed);
                avoid.insert(base, Instant::now() + AVOID);
            }
        }
    }
}

/// Watches `room` from random instances until `done`; returns the event numbers seen out of
/// order or missing (after the first snapshot each event must be the next).
async fn spectate(room: i64, mut k: usize, instances: Instances, tally: Arc<Tally>, done: Arc<AtomicBool>) -> usize {
    let mut last: Option<i64> = None;
    let mut gaps = 0;
    while !done.load(Ordering::Relaxed) {
        k = k.wrapping_mul(17).wrapping_add(3);
        let base = pick(&instances, k, &HashMap::new());
        let after = last.unwrap_or(0);
        let Ok(Ok(mut ws)) = tokio::time::timeout(REQUEST_TIMEOUT, crate::spectate(&base, room, after)).await else {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        'read: loop {
            if done.load(Ordering::Relaxed) {
                return gaps;
            }
            let Ok(Some(Ok(msg))) = tokio::time::timeout(SILENCE, ws.next()).await else { break };
            let Message::Text(t) = msg else { continue };
            let Ok(v) = serde_json::from_str::<Value>(&t) else { continue };
            for v in crate::unbatch(v) {
                tally.spectator_msgs.fetch_add(1, Ordering::Relaxed);
                match v["type"].as_str() {
                    Some("snapshot") => {
                        let version = v["room"]["version"].as_i64().unwrap_or(0);
                        // A resumed stream starts where it was (or sends what came between).
                        if last.is_none() || version > last.unwrap_or(0) {
                            last = Some(version);
                        }
                    }
                    Some("event") => {
                        let seq = v["event"]["seq"].as_i64().unwrap_or(0);
                        match last {
                            Some(l) if seq == l + 1 => last = Some(seq),
                            Some(l) if seq <= l => {} // already seen (the snapshot held it)
                            _ => {
                                gaps += 1;
                                last = Some(seq);
                            }
                        }
                    }
                    Some("lagged") => break 'read,
                    _ => {}
                }
            }
        }
        tally.reconnects.fetch_add(1, Ordering::Relaxed);
    }
    gaps
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

/// `url` with its host replaced by `host` (the database as the namespaced instance reaches it).
pub fn url_via(url: &str, host: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("postgres", url));
    let (auth, after) = match rest.split_once('@') {
        Some((a, r)) => (format!("{a}@"), r),
        None => (String::new(), rest),
    };
    let port_and_path = after.find([':', '/']).map_or("", |i| &after[i..]);
    format!("{scheme}://{auth}{host}{port_and_path}")
}

/// Runs `plan`. A partition needs root (a network namespace); without one the run stops
/// with the reason.
pub async fn run(plan: Plan) -> Result<Report, String> {
    let partitioned = plan.faults.iter().any(|f| matches!(f, Fault::Partition { .. }));
    let netns = if partitioned { Some(Netns::new((std::process::id() % 250) as u8)?) } else { None };
    let dirs: Vec<PathBuf> = (0..3).map(|i| plan.data_root.join(format!("i{i}"))).collect();
    for d in &dirs {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let mut servers: Vec<Option<ServerProcess>> = Vec::new();
    let place = |i: usize| match &netns {
        Some(n) if i == 2 => Place::Inside(n),
        Some(n) => Place::Beside(n),
        None => Place::Loopback,
    };
    for (i, dir) in dirs.iter().enumerate() {
        let url = match (&netns, i) {
            (Some(n), 2) => url_via(&plan.database_url, &n.outside.to_string()),
            _ => plan.database_url.clone(),
        };
        servers.push(Some(ServerProcess::start_in(&plan.server_bin, dir, &format!("i{i}"), Some(url), place(i)).await));
    }
    let instances: Instances = Arc::new(Mutex::new(servers.iter().flatten().map(|s| s.base.clone()).collect()));
    let db = sqlx::PgPool::connect(&plan.database_url).await.map_err(|e| format!("database: {e}"))?;

    let mut settings = MatchSettings::classic_default(SIZE as u16);
    settings.colours = ColourAssignment::HostBlack;
    let mut games = Vec::new();
    for g in 0..plan.games {
        let base = |k: usize| instances.lock().unwrap()[k % 3].clone();
        let black = Client::sign_up(&base(g), &format!("black{g}")).await;
        let white = Client::sign_up(&base(g + 1), &format!("white{g}")).await;
        for p in [&black, &white] {
            for other in instances.lock().unwrap().iter() {
                p.share_session_with(other);
            }
        }
        let room = match crate::started_room(&black, &white, "chaos", &settings).await {
            Ok(room) => room,
            Err(e) => {
                let instances: Vec<(String, Option<String>)> =
                    sqlx::query_as("SELECT id, address FROM server_instances").fetch_all(&db).await.unwrap_or_default();
                return Err(format!("{e}; leases {:?}; instances {instances:?}", lease_owners(&db).await));
            }
        };
        games.push((room, [black, white]));
    }

    let tally = Arc::new(Tally::default());
    let done = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let mut watchers = Vec::new();
    for s in 0..plan.spectators {
        let room = games[s % games.len()].0;
        watchers.push(tokio::spawn(spectate(room, s, instances.clone(), tally.clone(), done.clone())));
    }
    let mut plays = Vec::new();
    for (room, players) in games.clone() {
        plays.push((room, tokio::spawn(play(players, room, plan.moves, instances.clone(), tally.clone()))));
    }

    let mut reports = Vec::new();
    for fault in &plan.faults {
        let since = Instant::now();
        while tally.acked.load(Ordering::Relaxed) < fault.after() {
            if since.elapsed() > STALL || plays.iter().all(|(_, t)| t.is_finished()) {
                let mut why = Vec::new();
                for (_, t) in plays.iter_mut().filter(|(_, t)| t.is_finished()) {
                    if let Ok(Err(e)) = t.await {
                        why.push(e);
                    }
                }
                return Err(format!("the games did not reach {} moves for {fault:?}: {why:?}", fault.after()));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let owners = lease_owners(&db).await?;
        let at_moves = tally.acked.load(Ordering::Relaxed);
        let at = Instant::now();
        let (name, rooms): (String, Vec<i64>) = match fault {
            Fault::Kill { .. } => {
                // The busiest owner (outside the namespace: the partition needs that one).
                let outside = if netns.is_some() { 2 } else { 3 };
                let mut by: BTreeMap<usize, Vec<i64>> = BTreeMap::new();
                for (room, owner) in &owners {
                    if let Some(i) = owner.strip_prefix('i').and_then(|i| i.parse().ok()).filter(|i| *i < outside) {
                        by.entry(i).or_default().push(*room);
                    }
                }
                let (victim, rooms) = by.into_iter().max_by_key(|(_, r)| r.len()).unwrap_or((0, Vec::new()));
                let killed = servers[victim].take().ok_or("no instance to kill")?;
                instances.lock().unwrap().retain(|b| *b != killed.base);
                let _ = killed.kill();
                (format!("kill -9 of i{victim}"), rooms)
            }
            Fault::RestartDatabase { command, .. } => {
                let status = std::process::Command::new("sh").arg("-c").arg(command).status();
                match status {
                    Ok(s) if s.success() => {}
                    other => return Err(format!("database restart: {other:?}")),
                }
                ("database restart".into(), owners.keys().copied().collect())
            }
            Fault::Partition { seconds, .. } => {
                let ns = netns.as_ref().ok_or("no namespace")?;
                ns.partition()?;
                let rooms: Vec<i64> = owners.iter().filter(|(_, o)| o.as_str() == "i2").map(|(r, _)| *r).collect();
                // Taken over while it is cut off.
                let recovered = recovered_after(&tally, &rooms, at, &plays).await;
                tokio::time::sleep(Duration::from_secs(*seconds).saturating_sub(at.elapsed())).await;
                ns.heal()?;
                reports.push(FaultReport {
                    fault: format!("partition of i2 for {seconds} s"),
                    at_moves,
                    rooms: rooms.len(),
                    recovered_s: recovered,
                });
                continue;
            }
        };
        let recovered = recovered_after(&tally, &rooms, at, &plays).await;
        reports.push(FaultReport { fault: name, at_moves, rooms: rooms.len(), recovered_s: recovered });
        // The killed instance comes back under its name (its rooms have new owners by now).
        if let Some(i) = servers.iter().position(Option::is_none) {
            let url = Some(plan.database_url.clone());
            let restarted = ServerProcess::start_in(&plan.server_bin, &dirs[i], &format!("i{i}"), url, place(i)).await;
            instances.lock().unwrap().push(restarted.base.clone());
            servers[i] = Some(restarted);
        }
    }

    let mut played = BTreeMap::new();
    let mut failures = Vec::new();
    for (room, task) in plays {
        match task.await {
            Ok(Ok(moves)) => {
                played.insert(room, moves);
            }
            Ok(Err(e)) => failures.push(e),
            Err(e) => failures.push(format!("room {room}: the driver failed: {e}")),
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    done.store(true, Ordering::Relaxed);
    let mut spectator_gaps = 0;
    for w in watchers {
        spectator_gaps += w.await.unwrap_or(1);
    }

    let (mut acked_lost, mut log_gaps, mut double_owned) = (0, 0, 0);
    for (room, moves) in &played {
        let rows: Vec<(i64, String, String, Option<i64>)> =
            sqlx::query_as("SELECT seq, kind, body, lease_epoch FROM match_events WHERE room_id = $1 ORDER BY seq")
                .bind(room)
                .fetch_all(&db)
                .await
                .map_err(|e| format!("room {room}'s log: {e}"))?;
        let logged: Vec<Acked> = rows
            .iter()
            .filter(|r| r.1 == "move_played")
            .filter_map(|r| {
                let e: Value = serde_json::from_str(&r.2).ok()?;
                Some((e["move_number"].as_u64()? as u32, e["at"]["x"].as_i64()?, e["at"]["y"].as_i64()?))
            })
            .collect();
        for m in moves.iter().filter(|m| !logged.contains(m)) {
            acked_lost += 1;
            failures.push(format!("room {room}: acknowledged move {m:?} is not in the log"));
        }
        if rows.iter().enumerate().any(|(i, r)| r.0 != i as i64 + 1) {
            log_gaps += 1;
            failures.push(format!("room {room}: its log's numbers have a gap or a repeat"));
        }
        let epochs: Vec<i64> = rows.iter().filter_map(|r| r.3).collect();
        if epochs.windows(2).any(|w| w[1] < w[0]) {
            double_owned += 1;
            failures.push(format!("room {room}: an older lease wrote after a newer one: {epochs:?}"));
        }
    }
    if spectator_gaps > 0 {
        failures.push(format!("spectators missed {spectator_gaps} events"));
    }
    let mut trips = std::mem::take(&mut *tally.round_trips.lock().unwrap());
    trips.sort();
    let moves_acked = tally.acked.load(Ordering::Relaxed);
    let answers_500 = tally.answers_500.lock().unwrap().clone();
    db.close().await;
    drop(servers);
    Ok(Report {
        games: plan.games,
        spectators: plan.spectators,
        seconds,
        moves_acked,
        moves_per_s: moves_acked as f64 / seconds,
        p50_ms: percentile(&trips, 0.5),
        p99_ms: percentile(&trips, 0.99),
        max_ms: percentile(&trips, 1.0),
        answered_500: tally.faults_500.load(Ordering::Relaxed),
        answers_500,
        unanswered: tally.unanswered.load(Ordering::Relaxed),
        spectator_msgs: tally.spectator_msgs.load(Ordering::Relaxed),
        spectator_reconnects: tally.reconnects.load(Ordering::Relaxed),
        faults: reports,
        acked_lost,
        log_gaps,
        double_owned_rooms: double_owned,
        spectator_gaps,
        failures,
    })
}

/// Each room's lease owner now.
async fn lease_owners(db: &sqlx::PgPool) -> Result<BTreeMap<i64, String>, String> {
    let rows: Vec<(i64, String)> = sqlx::query_as("SELECT room_id, owner FROM room_leases")
        .fetch_all(db)
        .await
        .map_err(|e| format!("leases: {e}"))?;
    Ok(rows.into_iter().collect())
}

/// Seconds from `at` until every one of `rooms` had a move acknowledged after it (rooms whose
/// game ended meanwhile count as recovered).
async fn recovered_after(tally: &Tally, rooms: &[i64], at: Instant, plays: &[(i64, Driver)]) -> f64 {
    loop {
        let last = tally.last_ack.lock().unwrap().clone();
        let pending = rooms.iter().any(|r| {
            let finished = plays.iter().any(|(room, t)| room == r && t.is_finished());
            !finished && last.get(r).is_none_or(|t| *t < at)
        });
        if !pending || at.elapsed() > STALL {
            return at.elapsed().as_secs_f64();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
