//! The reduced chaos run (issue 15 §4, the test command's share of it): three server
//! processes on one PostgreSQL database, two games played through all three at random (each
//! action sent to any instance: a follower forwards it to the room's owner), and the instance
//! that owns the most rooms killed with SIGKILL in the middle. Its players' requests go to the
//! others (503 while its leases live: the dead owner cannot be reached); when its leases
//! lapse the survivors take its rooms over by themselves — held as after a server failure,
//! both players ready again — and play goes on. When `scripts/test-postgres.sh` runs it (alone,
//! with `SPACE_BADUK_TEST_PG_RESTART`), PostgreSQL itself is restarted later in the games:
//! requests fail while it is down and play goes on once it is back. Afterwards, from the
//! database:
//!
//! * every move whose 200 reply arrived is in its room's log, with its number and point
//!   (acknowledged actions lost: 0);
//! * each room's log numbers its events 1, 2, 3… without a gap or a repeat;
//! * each room has one lease row, held by a live instance.
//!
//! The figures (actions, takeover time) are printed. On SQLite the test does nothing: the
//! embedded file has one instance (the data folder's lock).

use std::{
    collections::BTreeMap,
    path::Path,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use app::matches::{commands::Command, settings::ColourAssignment, settings::MatchSettings};
use serde_json::Value;
use testclient::{Client, ServerProcess};

use crate::{
    crash::{colour_of, move_to, point_of, SIZE},
    support::RawDb,
};

const GAMES: usize = 2;
/// Moves each game plays; the kill comes after [`KILL_AFTER`] moves in all.
const MOVES: u32 = 24;
const KILL_AFTER: usize = 12;
/// The database restart (when the test command can do it) comes after this many moves.
const RESTART_AFTER: usize = 34;
/// Longer than a lease (15 s) and a renewal (5 s): a stalled game fails after this.
const STALL: Duration = Duration::from_secs(60);

/// The live instances' base URLs (the killed one is taken out).
type Bases = Arc<Mutex<Vec<String>>>;

/// Moves acknowledged, and requests answered 500 (while the database restarts).
#[derive(Default)]
struct Tally {
    acked: usize,
    faults: usize,
}
type Counts = Arc<Mutex<Tally>>;

fn any(bases: &Bases, k: usize) -> String {
    let b = bases.lock().unwrap();
    b[k % b.len()].clone()
}

/// Plays `room` to [`MOVES`] moves through random live instances; returns the move numbers
/// whose 200 reply arrived. A refused or unanswered request is asked again elsewhere; a held
/// game (a takeover) is made ready by both players.
async fn play(players: [Client; 2], room: i64, bases: Bases, counts: Counts) -> Vec<(u32, i64, i64)> {
    let mut got = Vec::new();
    let mut k = room as usize;
    let mut last_progress = Instant::now();
    loop {
        assert!(last_progress.elapsed() < STALL, "room {room} stalled: {}", any(&bases, k));
        k = k.wrapping_mul(31).wrapping_add(7);
        let base = any(&bases, k);
        let at = |p: &Client| p.at(&base);
        let (status, v) = match at(&players[0]).http.get(format!("{base}/api/v1/rooms/{room}")).send().await {
            Ok(r) => (r.status().as_u16(), r.json::<Value>().await.unwrap_or(Value::Null)),
            Err(_) => (0, Value::Null),
        };
        if status != 200 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        let moves = v["move_number"].as_u64().unwrap_or(0) as u32;
        if moves >= MOVES && v["awaiting_ack"].is_null() {
            return got;
        }
        let answer = match (v["phase"].as_str(), &v["awaiting_ack"]) {
            (Some("waiting_ready"), _) => {
                for p in &players {
                    let _ = at(p).try_cmd(room, &Command::Ready).await;
                }
                continue;
            }
            (Some("playing"), Value::Array(a)) => {
                let (colour, n) = (a[0].as_str().unwrap_or(""), a[1].as_u64().unwrap_or(0) as u32);
                let p = if colour == "black" { &players[0] } else { &players[1] };
                at(p).try_cmd(room, &Command::Acknowledge { move_number: n }).await.map(|a| (a, None))
            }
            (Some("playing"), _) => {
                let n = moves + 1;
                let p = if colour_of(n) == "black" { &players[0] } else { &players[1] };
                at(p).try_cmd(room, &move_to(n)).await.map(|a| (a, Some(n)))
            }
            (phase, _) => panic!("room {room} in {phase:?}: {v}"),
        };
        match answer {
            Ok(((200, _), Some(n))) => {
                let (x, y) = point_of(n);
                got.push((n, x, y));
                counts.lock().unwrap().acked += 1;
                last_progress = Instant::now();
            }
            Ok(((200, _), None)) => last_progress = Instant::now(),
            // Another instance's answer about an owner it cannot reach, a view that was a step
            // behind, or the database restarting (a fault while it is down): ask again.
            Ok(((503 | 409, _), _)) | Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            Ok(((500, _), _)) => {
                counts.lock().unwrap().faults += 1;
                tokio::time::sleep(Duration::from_millis(100)).await
            }
            Ok(((status, body), _)) => panic!("room {room}: {status} {body}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_instances_lose_no_acknowledged_move_when_one_is_killed() {
    let dirs: Vec<tempfile::TempDir> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let Some(url) = testclient::test_database_url(dirs[0].path()) else {
        eprintln!("chaos: PostgreSQL only (the embedded database has one instance)");
        return;
    };
    let bin = Path::new(env!("CARGO_BIN_EXE_space-baduk"));
    let mut servers = Vec::new();
    for (i, dir) in dirs.iter().enumerate() {
        servers.push(Some(ServerProcess::start_instance(bin, dir.path(), &format!("i{i}"), Some(url.clone())).await));
    }
    let bases: Bases = Arc::new(Mutex::new(servers.iter().flatten().map(|s| s.base.clone()).collect()));
    let db = RawDb::open(dirs[0].path()).await;

    let mut settings = MatchSettings::classic_default(SIZE as u16);
    settings.colours = ColourAssignment::HostBlack;
    let mut games = Vec::new();
    for g in 0..GAMES {
        let host_base = any(&bases, g);
        let black = Client::sign_up(&host_base, &format!("black{g}")).await;
        let white = Client::sign_up(&any(&bases, g + 1), &format!("white{g}")).await;
        let room = testclient::started_room(&black, &white, "chaos", &settings).await.expect("room set up");
        games.push((room, [black, white]));
    }

    let counts: Counts = Default::default();
    let acked = || counts.lock().unwrap().acked;
    let mut tasks = Vec::new();
    for (room, players) in games.clone() {
        tasks.push((room, tokio::spawn(play(players, room, bases.clone(), counts.clone()))));
    }
    // Kill the instance owning the most rooms, mid-game.
    while acked() < KILL_AFTER {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut owned: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for (room, _) in &games {
        let owner: String = db.scalar("SELECT owner FROM room_leases WHERE room_id = $1", &[*room]).await;
        owned.entry(owner).or_default().push(*room);
    }
    let (victim, its_rooms) = owned.into_iter().max_by_key(|(_, rooms)| rooms.len()).unwrap();
    let n = its_rooms.len();
    let index: usize = victim.trim_start_matches('i').parse().unwrap();
    let killed = servers[index].take().unwrap();
    bases.lock().unwrap().retain(|b| *b != killed.base);
    let killed_at = Instant::now();
    let acked_before = acked();
    let _ = killed.kill();

    // The database restarts under the survivors.
    let restart = std::env::var("SPACE_BADUK_TEST_PG_RESTART").ok();
    let mut restarted_after = None;
    if let Some(cmd) = &restart {
        let since = Instant::now();
        while acked() < RESTART_AFTER {
            assert!(since.elapsed() < STALL, "the games stalled before the restart");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        restarted_after = Some(acked());
        let status = std::process::Command::new("sh").arg("-c").arg(cmd).status().expect("pg_ctl runs");
        assert!(status.success(), "PostgreSQL restarted: {status}");
    }

    let mut played = BTreeMap::new();
    for (room, task) in tasks {
        played.insert(room, task.await.expect("a game's driver"));
    }
    let total = acked();
    for (room, moves) in &played {
        // Acknowledged moves lost: none.
        let sql = "SELECT body FROM match_events WHERE room_id = $1 AND kind = 'move_played' ORDER BY seq";
        let rows: Vec<String> = db.column(sql, &[*room]).await;
        let logged: Vec<(u32, i64, i64)> = rows
            .iter()
            .map(|b| {
                let e: Value = serde_json::from_str(b).unwrap();
                (
                    e["move_number"].as_u64().unwrap() as u32,
                    e["at"]["x"].as_i64().unwrap(),
                    e["at"]["y"].as_i64().unwrap(),
                )
            })
            .collect();
        for m in moves {
            assert!(logged.contains(m), "room {room}: acknowledged move {m:?} lost; the log has {logged:?}");
        }
        // No gap, no repeat.
        let seqs: Vec<i64> = db.column("SELECT seq FROM match_events WHERE room_id = $1 ORDER BY seq", &[*room]).await;
        assert_eq!(seqs, (1..=seqs.len() as i64).collect::<Vec<_>>(), "room {room}: its log's numbers");
        let owner: String = db.scalar("SELECT owner FROM room_leases WHERE room_id = $1", &[*room]).await;
        assert_ne!(owner, victim, "room {room} still owned by the killed instance");
        // The killed instance's rooms were taken over as after a server failure.
        let sql = "SELECT COUNT(*) FROM match_events WHERE room_id = $1 AND kind = 'held'";
        let held: i64 = db.scalar(sql, &[*room]).await;
        assert_eq!(held > 0, its_rooms.contains(room), "room {room}: held {held} times");
    }
    eprintln!(
        "chaos: {GAMES} games on 3 instances, {total} moves acknowledged ({acked_before} before the kill of {victim}, \
         owner of {n} rooms; PostgreSQL restarted after {restarted_after:?}; {} requests answered 500), 0 lost, \
         all games done {:.1} s after the kill",
        counts.lock().unwrap().faults,
        killed_at.elapsed().as_secs_f64()
    );
    db.close().await;
    for s in servers.into_iter().flatten() {
        let _ = s.kill();
    }
}
