//! Crash durability: the real server binary is killed with SIGKILL in the middle of a game,
//! while moves and acknowledgements are in flight, and restarted on the same data directory —
//! four times, at different points of the game. After each restart:
//!
//! * every move and acknowledgement whose 200 reply arrived before the kill is in the room's
//!   log with the same number, colour and coordinates (an action is acknowledged only once it
//!   is committed: 003 §6.1 "preserve the last confirmed board");
//! * at most the one request that was in flight may have been committed without its reply;
//! * the board rebuilt from the log is exactly the board those moves make;
//! * the game comes back held (a `held` event, reason `server_restart`, appended by the
//!   server) and moves are refused until both players are ready again (003 §6.1–6.3);
//! * after both `ready`s play continues from the stored position.
//!
//! Nothing here depends on timing: the kill is triggered by a count of 200 replies or of
//! events seen on a spectator's stream, the assertions allow for either outcome of the one
//! request in flight, and the only waits are bounded waits for the server to come up (and a
//! generous guard against a hang).
//!
//! Checked to catch the fault it is about: with the room actor changed to answer before
//! committing, the first cycle fails ("acknowledgement of move 30 lost in the crash").

use std::{collections::BTreeSet, os::unix::process::ExitStatusExt, path::Path, time::Duration};

use serde_json::{json, Value};
use testclient::{futures_util::StreamExt, tokio_tungstenite::tungstenite::Message, Client, ServerProcess};
use tokio::sync::watch;
use wire::{
    commands::Command,
    settings::{ColourAssignment, MatchSettings},
};

/// When each cycle's SIGKILL is sent. Two windows are exercised:
/// * `Replies(n)`: as soon as the players got the n-th 200 reply of the cycle. The driver is
///   already sending its next request, which dies in flight, usually before it is committed.
///   Odd and even n, so that request is an acknowledgement or a move.
/// * `Seen(kind, n)`: as soon as a spectator's stream shows the cycle's n-th event of `kind`.
///   Events are broadcast after the commit and just before the reply, so the kill lands
///   between commit and reply: stored, maybe not acknowledged to the player.
#[derive(Clone, Copy, Debug)]
enum Kill {
    Replies(usize),
    Seen(&'static str, usize),
}
const CYCLES: [Kill; 4] =
    [Kill::Replies(60), Kill::Seen("move_played", 17), Kill::Replies(47), Kill::Seen("move_acknowledged", 12)];
/// Actions played after the last restart, to show play goes on.
const FINAL_ACTIONS: usize = 12;

// The walk of moves (odd moves Black's): Black fills rows 1, 5, 9, 13, 17 and White rows 3, 7,
// 11, 15, 19, left to right. The even rows stay empty, so every chain keeps liberties: no
// capture, no suicide, no repetition — every move is legal.
pub(crate) use testclient::chaos::{colour_of, move_to, point_of, SIZE};

/// The real binary on `data_dir` (a port of its own each time). A kill is timed by what a
/// spectator has seen, so the spectator's stream is not paced: it sees each event as soon as
/// it is committed (those waiting together come in one batch message).
pub(crate) async fn start(data_dir: &Path) -> ServerProcess {
    ServerProcess::start_with(Path::new(env!("CARGO_BIN_EXE_space-baduk")), data_dir, &["--spectator-pace-ms", "0"])
        .await
}

/// SIGKILL, and a check that it is what ended the server.
fn sigkill(server: ServerProcess) {
    let status = server.kill();
    assert_eq!(status.signal(), Some(9), "the server died of SIGKILL, not otherwise: {status:?}");
}

async fn get(base: &str, path: &str) -> Value {
    Client::new(base).get_json(path).await
}

/// What the players saw acknowledged (200 received) in one cycle.
#[derive(Default, Debug)]
pub(crate) struct Record {
    /// (move number, colour, x, y) of each move whose 200 reply arrived.
    pub(crate) moves: Vec<(u32, String, i64, i64)>,
    /// Move numbers whose acknowledgement got its 200 reply.
    pub(crate) acks: Vec<u32>,
    /// Anything other than 200 or a dead connection: a failure of the test.
    pub(crate) unexpected: Vec<String>,
}

/// Where play stands: the next move's number and an acknowledgement still owed, if any
/// (colour of the acknowledging player, move number).
#[derive(Clone, Debug)]
pub(crate) struct Position {
    pub(crate) next: u32,
    pub(crate) pending_ack: Option<(String, u32)>,
}

/// Plays moves and acknowledgements alternately until the server stops answering or
/// `stop_after` actions were acknowledged. Reports the count of acknowledged actions on
/// `progress` after each 200.
pub(crate) async fn drive(
    black: Client,
    white: Client,
    room: i64,
    mut at: Position,
    stop_after: Option<usize>,
    progress: watch::Sender<usize>,
) -> Record {
    let mut rec = Record::default();
    let mut done = 0usize;
    let player = |colour: &str| if colour == "black" { &black } else { &white };
    loop {
        if stop_after.is_some_and(|n| done >= n) {
            return rec;
        }
        if let Some((colour, n)) = at.pending_ack.clone() {
            // 003 §5.5: the opponent's device acknowledges before anyone moves again.
            match player(&colour).try_cmd(room, &Command::Acknowledge { move_number: n }).await {
                Err(_) => return rec, // killed with the request in flight
                Ok((200, _)) => {
                    rec.acks.push(n);
                    at.pending_ack = None;
                }
                Ok((status, body)) => {
                    rec.unexpected.push(format!("acknowledge {n}: {status} {body}"));
                    return rec;
                }
            }
        } else {
            let n = at.next;
            if n > 190 {
                rec.unexpected.push("the fixed walk ran out of moves".into());
                return rec;
            }
            let (x, y) = point_of(n);
            let colour = colour_of(n);
            match player(colour).try_cmd(room, &move_to(n)).await {
                Err(_) => return rec,
                Ok((200, body)) => {
                    let e = &body["events"][0]["event"];
                    if e["type"] != "move_played" || e["move_number"] != n || e["at"] != json!({"x": x, "y": y, "z": 1})
                    {
                        rec.unexpected.push(format!("move {n}: reply {body}"));
                        return rec;
                    }
                    rec.moves.push((n, colour.to_string(), x, y));
                    let opponent = if colour == "black" { "white" } else { "black" };
                    at = Position { next: n + 1, pending_ack: Some((opponent.to_string(), n)) };
                }
                Ok((status, body)) => {
                    rec.unexpected.push(format!("move {n}: {status} {body}"));
                    return rec;
                }
            }
        }
        done += 1;
        progress.send_replace(done);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_actions_survive_sigkill_and_the_game_resumes_after_ready() {
    let data = tempfile::tempdir().unwrap();
    let mut server = start(data.path()).await;
    let mut black = Client::sign_up(&server.base, "alice").await;
    let mut white = Client::sign_up(&server.base, "bob").await;

    // Alice hosts and plays Black, so who moves is known without reading the draw.
    let mut settings = MatchSettings::classic_default(SIZE as u16);
    settings.colours = ColourAssignment::HostBlack;
    let room = testclient::started_room(&black, &white, "crash", &settings).await.expect("room set up");
    assert_eq!(get(&server.base, &format!("/api/v1/rooms/{room}")).await["phase"], "playing");

    let mut position = Position { next: 1, pending_ack: None };
    // Everything acknowledged so far, across all cycles.
    let mut acknowledged_moves: Vec<(u32, String, i64, i64)> = Vec::new();
    let mut acknowledged_acks: Vec<u32> = Vec::new();

    for (cycle, &kill) in CYCLES.iter().enumerate() {
        // A spectator follows from the room's current version (for `Kill::Seen`).
        let version = get(&server.base, &format!("/api/v1/rooms/{room}")).await["version"].as_i64().unwrap();
        let mut spectator = testclient::spectate(&server.base, room, version).await.expect("spectator connects");
        let (progress, mut seen) = watch::channel(0usize);
        let driver = tokio::spawn(drive(black.clone(), white.clone(), room, position.clone(), None, progress));
        let reached = tokio::time::timeout(Duration::from_secs(300), async {
            match kill {
                Kill::Replies(n) => seen.wait_for(|done| *done >= n).await.is_ok(),
                Kill::Seen(kind, n) => {
                    let mut count = 0;
                    while let Some(Ok(msg)) = spectator.next().await {
                        if let Message::Text(t) = msg {
                            // A write of several events is one batch message.
                            for v in testclient::unbatch(serde_json::from_str(&t).unwrap()) {
                                if v["event"]["event"]["type"] == kind {
                                    count += 1;
                                    if count == n {
                                        return true;
                                    }
                                }
                            }
                        }
                    }
                    false
                }
            }
        })
        .await
        .expect("play makes progress");
        sigkill(server);
        drop(spectator);
        let rec = driver.await.unwrap();
        assert!(reached && rec.unexpected.is_empty(), "cycle {cycle}: play failed before the kill: {rec:?}");
        acknowledged_moves.extend(rec.moves.iter().cloned());
        acknowledged_acks.extend(rec.acks.iter().copied());

        // Restart on the same data directory (and another port).
        server = start(data.path()).await;
        let base = server.base.clone();
        (black, white) = (black.at(&base), white.at(&base));

        // The sessions were committed too: both players are still signed in.
        for p in [&black, &white] {
            let (status, me) = p.get("/api/v1/session").await;
            assert_eq!(status, 200, "still signed in after the crash: {me}");
        }

        // 003 §6.1: every acknowledged move is in the log, same number,
        // colour and coordinates; the log's moves are exactly the walk 1..=n with no gap.
        // The stored log is for the players (003 §8.1).
        let log = black.get_json(&format!("/api/v1/rooms/{room}/events?after=0")).await;
        let log = log.as_array().unwrap();
        let stored_moves: Vec<(u32, String, i64, i64)> = log
            .iter()
            .map(|e| &e["event"])
            .filter(|e| e["type"] == "move_played")
            .map(|e| {
                assert_eq!(e["at"]["z"], 1);
                assert_eq!(e["captured"], json!([]), "the walk never captures");
                (
                    e["move_number"].as_u64().unwrap() as u32,
                    e["colour"].as_str().unwrap().to_string(),
                    e["at"]["x"].as_i64().unwrap(),
                    e["at"]["y"].as_i64().unwrap(),
                )
            })
            .collect();
        for (i, (n, colour, x, y)) in stored_moves.iter().enumerate() {
            assert_eq!(*n, i as u32 + 1, "cycle {cycle}: moves numbered without gaps");
            assert_eq!((colour.as_str(), (*x, *y)), (colour_of(*n), point_of(*n)), "cycle {cycle}: move {n} as played");
        }
        for m in &acknowledged_moves {
            assert!(stored_moves.contains(m), "cycle {cycle}: acknowledged move {m:?} lost in the crash");
        }
        let acked_max = acknowledged_moves.last().map_or(0, |m| m.0);
        let stored_max = stored_moves.len() as u32;
        // Only the request in flight at the kill may have been committed without its reply.
        assert!(
            stored_max == acked_max || stored_max == acked_max + 1,
            "cycle {cycle}: {stored_max} moves stored, {acked_max} acknowledged"
        );
        let stored_acks: Vec<u32> = log
            .iter()
            .map(|e| &e["event"])
            .filter(|e| e["type"] == "move_acknowledged")
            .map(|e| e["move_number"].as_u64().unwrap() as u32)
            .collect();
        eprintln!(
            "cycle {cycle}: {kill:?}: {} actions answered; moves: {stored_max} stored, {acked_max} answered; \
             acknowledgements: {} stored, {} answered",
            rec.moves.len() + rec.acks.len(),
            stored_acks.len(),
            acknowledged_acks.len()
        );
        for n in &acknowledged_acks {
            assert!(stored_acks.contains(n), "cycle {cycle}: acknowledgement of move {n} lost in the crash");
        }
        // At most one unanswered request per crash can have been committed.
        assert!(
            stored_acks.len() <= acknowledged_acks.len() + cycle + 1,
            "cycle {cycle}: acknowledgements from nowhere"
        );
        assert!(!log.iter().any(|e| e["event"]["type"] == "illegal_attempt" || e["event"]["type"] == "ended"));

        // The restart appended exactly one `held` (server_restart) per crash, by the server
        // itself, as the room's last event.
        let held: Vec<&Value> = log.iter().filter(|e| e["event"]["type"] == "held").collect();
        assert_eq!(held.len(), cycle + 1, "cycle {cycle}: one hold per restart");
        let last = log.last().unwrap();
        assert_eq!(
            last["event"],
            json!({"type": "held", "reason": {"kind": "server_restart"}}),
            "cycle {cycle}: {last}"
        );
        assert!(last["actor"].is_null(), "the hold is the server's own event");
        let seqs: Vec<i64> = log.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
        assert_eq!(seqs, (1..=log.len() as i64).collect::<Vec<_>>(), "the event log has no gap");

        // The board rebuilt from the log is the board of the stored moves (003 §6.2).
        let view = get(&base, &format!("/api/v1/rooms/{room}")).await;
        assert_eq!(view["phase"], "waiting_ready", "cycle {cycle}: held until both are ready");
        assert_eq!(view["ready"], json!([false, false]));
        assert_eq!(view["move_number"].as_u64(), Some(u64::from(stored_max)));
        assert_eq!(view["version"].as_i64(), Some(log.len() as i64));
        let stones: BTreeSet<(i64, i64, String)> = view["stones"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| (s[0]["x"].as_i64().unwrap(), s[0]["y"].as_i64().unwrap(), s[1].as_str().unwrap().to_string()))
            .collect();
        let expected: BTreeSet<(i64, i64, String)> =
            (1..=stored_max).map(|n| (point_of(n).0, point_of(n).1, colour_of(n).to_string())).collect();
        assert_eq!(stones, expected, "cycle {cycle}: the board after the restart");
        let next = stored_max + 1;
        assert_eq!(view["to_move"], colour_of(next));

        // 003 §6.3: no move until both players are ready again.
        let mover = if colour_of(next) == "black" { &black } else { &white };
        let (status, body) = mover.cmd(room, move_to(next)).await;
        assert_eq!((status, body["error"].as_str()), (409, Some("wrong_phase")), "cycle {cycle}: {body}");
        // Ready in a different order each time.
        let (first, second) = if cycle % 2 == 0 { (&black, &white) } else { (&white, &black) };
        assert_eq!(first.cmd(room, Command::Ready).await.0, 200);
        let (status, r) = second.cmd(room, Command::Ready).await;
        assert_eq!(status, 200, "{r}");
        assert_eq!(r["events"][1]["event"]["type"], "play_resumed", "{r}");

        // What the state machine owes after a hold: both Readys stand for "my device shows
        // the board", so the hold clears any acknowledgement that was pending at the crash.
        // Follow the server's view rather than assume it.
        let view = get(&base, &format!("/api/v1/rooms/{room}")).await;
        assert_eq!(view["phase"], "playing");
        let pending_ack = match &view["awaiting_ack"] {
            Value::Null => None,
            v => Some((v[0].as_str().unwrap().to_string(), v[1].as_u64().unwrap() as u32)),
        };
        position = Position { next, pending_ack };
    }

    // Play goes on after the last restart.
    let (progress, _seen) = watch::channel(0usize);
    let rec = drive(black.clone(), white.clone(), room, position.clone(), Some(FINAL_ACTIONS), progress).await;
    assert!(rec.unexpected.is_empty(), "play after the last restart: {rec:?}");
    assert_eq!(rec.moves.len() + rec.acks.len(), FINAL_ACTIONS);
    let view = get(&server.base, &format!("/api/v1/rooms/{room}")).await;
    let expected_moves = position.next - 1 + rec.moves.len() as u32;
    assert_eq!(view["move_number"].as_u64(), Some(u64::from(expected_moves)));
    assert_eq!(view["stones"].as_array().unwrap().len() as u32, expected_moves);
    sigkill(server);
}
