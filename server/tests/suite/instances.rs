//! Several server instances on one database. Each room is owned by one instance at a time
//! under a lease; another instance follows it — its views and live events are read from the
//! log — and forwards its commands to the owner (503, with the wait, when no owner can be
//! reached); an owner whose lease was taken cannot write (fencing: refused, nothing stored);
//! when an owner stops renewing, another instance takes its rooms over by itself, loading
//! them as after a server failure (held, 003 §6.1–6.3). Sessions and the sign-in throttle are
//! the database's, shared by all instances.

use app::{
    clock::Clock,
    data::leases::{Previous, Taking},
};
use wire::{commands::Command, events::Xyz, settings::ColourAssignment};

use crate::{memory::in_memory, support::*};

const LEASE_MS: i64 = app::data::leases::LEASE_MS;

fn at(x: i64, y: i64) -> Command {
    Command::Move { at: Xyz { x, y, z: 1 } }
}

async fn moves_stored(db: &RawDb, room: i64) -> i64 {
    db.scalar("SELECT COUNT(*) FROM match_events WHERE room_id = $1 AND kind = 'move_played'", &[room]).await
}

async fn lease_owner(db: &RawDb, room: i64) -> String {
    db.scalar("SELECT owner FROM room_leases WHERE room_id = $1", &[room]).await
}

/// Instances `a` and `b` on one new database, with one manual clock. On PostgreSQL they
/// start together (both run the migrations and store the first common rules: one does); the
/// embedded file is one instance's (the data folder's lock), so there b starts after a.
async fn two_instances() -> (tempfile::TempDir, app::clock::ManualClock, Running, Running, RawDb) {
    let dir = tempfile::tempdir().unwrap();
    let (clock, shared) = manual_clock();
    let (a, b) = if testclient::test_database_url(dir.path()).is_some() {
        tokio::join!(
            Running::start_instance(dir.path(), shared.clone(), "a"),
            Running::start_instance(dir.path(), shared, "b")
        )
    } else {
        let a = Running::start_instance(dir.path(), shared.clone(), "a").await;
        (a, Running::start_instance(dir.path(), shared, "b").await)
    };
    let db = RawDb::open(dir.path()).await;
    (dir, clock, a, b, db)
}

#[tokio::test]
async fn one_instance_owns_a_room_the_others_follow_it_and_take_it_over_when_the_owner_stops() {
    let (_dir, clock, a, b, db) = two_instances().await;
    let alice = Player::sign_up(&a.base, "alice").await;
    let bob = Player::sign_up(&a.base, "bob").await;
    let room = started_room(&alice, &bob, classic_9(ColourAssignment::HostBlack)).await;
    played(&alice, &bob, room, at(3, 3), 1).await;
    assert_eq!(lease_owner(&db, room).await, "a");

    // The same sessions on instance b (one cookie jar; the sessions are in the database).
    let (alice_b, bob_b) = (alice.at(&b.base), bob.at(&b.base));
    assert_eq!(alice_b.get_json("/api/v1/session").await["username"], "alice");
    // b follows the room: its view is the log's, and its spectators get the moves live.
    assert_eq!(view(&b.base, room).await["move_number"], 1);
    let mut watcher = Player::new(&b.base).stream(room, 0).await;
    read_until(&mut watcher, |m| m["type"] == "snapshot").await;
    // A command sent to b is forwarded to a, the owner, which decides it.
    let (status, body) = bob_b.cmd(room, at(3, 3)).await;
    assert_eq!((status, body["error"].as_str()), (422, Some("illegal")), "a's refusal, through b: {body}");
    played(&bob_b, &alice, room, at(4, 4), 2).await;
    let seen = read_until(&mut watcher, |m| event_type(m) == "move_played").await;
    assert_eq!(seen.last().unwrap()["event"]["event"]["move_number"], 2);
    assert_eq!(lease_owner(&db, room).await, "a", "forwarded, not taken");
    assert_eq!(moves_stored(&db, room).await, 2);
    // Only an instance that read a's peer key from the database can forward to it.
    let forward = format!("{}/internal/v1/rooms/{room}/commands", a.base);
    let caller = serde_json::json!({"user_id": 1, "username": "alice", "role": "player"});
    let body = serde_json::json!({"kind": "command", "caller": caller, "cmd": {"type": "pass"}});
    let http = Player::new(&a.base).http;
    for key in [None, Some("0123456789abcdef0123456789abcdef")] {
        let mut req = http.post(&forward).json(&body);
        if let Some(k) = key {
            req = req.header("x-space-baduk-peer", k);
        }
        let r = req.send().await.unwrap();
        assert_eq!(r.status(), 403, "forwarded without a's key ({key:?})");
    }
    assert_eq!(moves_stored(&db, room).await, 2);
    // A room b has never loaded: its commands go to a without b loading it (no follower is
    // made just to learn that another instance owns the room).
    let other = started_room(&alice, &bob, classic_9(ColourAssignment::HostBlack)).await;
    let before = in_memory(&b.base).await;
    played(&alice_b, &bob_b, other, at(3, 3), 1).await;
    played(&bob_b, &alice_b, other, at(4, 4), 2).await;
    assert_eq!(in_memory(&b.base).await, before, "b loaded nothing for the forwarded commands");
    assert_eq!(lease_owner(&db, other).await, "a");

    // A third instance, c, takes the lease (as if it had found a's lapsed).
    let now = clock.now_ms();
    let sql = "UPDATE room_leases SET owner = 'c', epoch = epoch + 1, expires_at_ms = $1 WHERE room_id = $2";
    assert_eq!(db.exec(sql, sql, &[now + LEASE_MS, room]).await, 1);
    // a's actor still holds the room in memory and takes the move — but its append is
    // fenced: refused, and nothing stored; c cannot be reached, so the caller waits.
    let (status, body) = alice.cmd(room, at(5, 5)).await;
    assert_eq!((status, body["error"].as_str()), (503, Some("served_elsewhere")), "{body}");
    let wait = body["detail"]["retry_after_s"].as_i64().unwrap();
    assert!((1..=LEASE_MS / 1000).contains(&wait), "{body}");
    assert_eq!(moves_stored(&db, room).await, 2, "a fenced append stored nothing");
    assert_eq!(alice_b.cmd(room, at(5, 5)).await.0, 503);

    // c never renews, and a stops too. Once c's lease lapses, b takes the room over by
    // itself — as after a server failure, so the game is held until both are ready.
    a.stop().await;
    clock.advance_ms(LEASE_MS + 1);
    drop(watcher);
    let held = "SELECT COUNT(*) FROM match_events WHERE room_id = $1 AND kind = 'held'";
    for _ in 0..500 {
        if lease_owner(&db, room).await == "b" && db.scalar::<i64>(held, &[room]).await == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(lease_owner(&db, room).await, "b", "b took the room over by itself");
    let mut player = alice_b.stream(room, 2).await;
    let got = read_until(&mut player, |m| event_type(m) == "held").await;
    assert_eq!(got.last().unwrap()["event"]["event"]["reason"]["kind"], "server_restart");
    let (status, body) = alice_b.cmd(room, at(5, 5)).await;
    assert_eq!(status, 409, "{body}");
    alice_b.ok(room, Command::Ready).await;
    bob_b.ok(room, Command::Ready).await;
    played(&alice_b, &bob_b, room, at(5, 5), 3).await;
    assert_eq!(moves_stored(&db, room).await, 3);
    let v = view(&b.base, room).await;
    assert_eq!((v["move_number"].as_i64(), v["phase"].as_str()), (Some(3), Some("playing")), "{v}");
    db.close().await;
    b.stop().await;
}

/// The sign-in throttle counts failures in the database: guessing on one instance is
/// throttled on the next. A sign-out on one instance ends the session on all of them: the
/// login ends in the database and, on PostgreSQL, the doorbell tells the other instances'
/// caches (the embedded database has one instance, and no bell).
#[tokio::test]
async fn the_throttle_and_sign_outs_are_shared_by_the_instances() {
    let (_dir, _clock, a, b, db) = two_instances().await;
    let kim = Player::sign_up(&a.base, "kim").await;
    let guess = serde_json::json!({ "username": "kim", "password": "not the password" });
    for i in 0..app::data::throttle::FREE_FAILURES {
        let on = if i % 2 == 0 { &a.base } else { &b.base };
        assert_eq!(Player::new(on).post("/api/v1/session", &guess).await.0, 401);
    }
    for base in [&a.base, &b.base] {
        let (status, body) = Player::new(base).post("/api/v1/session", &guess).await;
        assert_eq!((status, body["error"].as_str()), (429, Some("throttled")), "{body}");
    }

    let kim_b = kim.at(&b.base);
    assert_eq!(kim_b.get("/api/v1/session").await.0, 200);
    assert_eq!(kim.http.delete(format!("{}/api/v1/session", a.base)).send().await.unwrap().status(), 204);
    assert_eq!(kim.get("/api/v1/session").await.0, 401);
    if db.is_postgres() {
        let mut status = 200;
        for _ in 0..200 {
            status = kim_b.get("/api/v1/session").await.0;
            if status == 401 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert_eq!(status, 401, "signed out on a, still signed in on b");
    }
    db.close().await;
    a.stop().await;
    b.stop().await;
}

async fn complete_setup(base: &str, token: &str, name: &str) -> (u16, String) {
    let p = testclient::PASSWORD;
    let fields = [("token", token), ("username", name), ("password", p), ("password_again", p)];
    Player::new(base).form("/api/complete_setup", &fields).await
}

/// Instances started beside each other on a new database each print a first-administrator
/// link, and each link works until one of them is used — then none does (one first
/// administrator). Started one after the other here, so that the first instance's link is the
/// older one (the link a lone restarted instance prints still revokes its own earlier ones:
/// `foundation`).
#[tokio::test]
async fn every_starting_instance_s_setup_link_works_until_one_is_used() {
    let dir = tempfile::tempdir().unwrap();
    let (_clock, shared) = manual_clock();
    let a = Running::start_instance(dir.path(), shared.clone(), "a").await;
    let b = Running::start_instance(dir.path(), shared, "b").await;
    let token = |r: &Running| r.setup_url.as_ref().expect("a setup link").split("token=").nth(1).unwrap().to_string();
    let (older, newer) = (token(&a), token(&b));
    assert_ne!(older, newer);
    let (status, body) = complete_setup(&a.base, &older, "root").await;
    assert_eq!(status, 200, "a's link, older than b's, still works: {body}");
    let (status, body) = complete_setup(&b.base, &newer, "root2").await;
    assert_eq!(status, 403, "b's link stopped working once a's made the administrator: {body}");
    assert!(body.contains("bad_setup_token"), "{body}");
    a.stop().await;
    b.stop().await;
}

/// A player watching through another instance counts as connected at the owner; when that
/// instance stops renewing (killed, cut off), the streams it told of are gone with it and the
/// player is disconnected (003 §6.1) — not left connected forever. A close told after that
/// changes nothing.
#[tokio::test]
async fn the_streams_of_an_instance_that_stopped_renewing_are_closed_at_the_owner() {
    let dir = tempfile::tempdir().unwrap();
    let (clock, shared) = manual_clock();
    let a = Running::start_instance(dir.path(), shared, "a").await;
    let db = RawDb::open(dir.path()).await;
    let alice = Player::sign_up(&a.base, "alice").await;
    let bob = Player::sign_up(&a.base, "bob").await;
    let room = started_room(&alice, &bob, classic_9(ColourAssignment::HostBlack)).await;
    let alice_id: i64 = db.scalar("SELECT id FROM users WHERE username = 'alice'", &[]).await;
    // Another instance, "ghost", holds a stream of Alice's and tells a, the owner.
    let sql = "INSERT INTO server_instances (id, address, peer_key, seen_at_ms) VALUES ('ghost', NULL, 'k', $1)";
    assert_eq!(db.exec(sql, sql, &[clock.now_ms()]).await, 1);
    let key: String = db.scalar("SELECT peer_key FROM server_instances WHERE id = 'a'", &[]).await;
    let tell = |connected: bool| {
        let body =
            serde_json::json!({"kind": "presence", "user_id": alice_id, "connected": connected, "from": "ghost"});
        Player::new(&a.base)
            .http
            .post(format!("{}/internal/v1/rooms/{room}/commands", a.base))
            .header("x-space-baduk-peer", key.clone())
            .json(&body)
            .send()
    };
    assert_eq!(tell(true).await.unwrap().status(), 200);
    let lost = "SELECT COUNT(*) FROM match_events WHERE room_id = $1 AND kind = 'connection_lost'";
    assert_eq!(db.scalar::<i64>(lost, &[room]).await, 0, "connected through ghost");

    // ghost never renews; a's next renewal after a whole lease finds it gone.
    clock.advance_ms(LEASE_MS + app::data::leases::RENEW_EVERY_MS + 1);
    let mut seen = 0;
    for _ in 0..500 {
        seen = db.scalar::<i64>(lost, &[room]).await;
        if seen > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(seen, 1, "Alice's only stream went with ghost: she is disconnected");
    // ghost's own close, late (it was cut off, not dead), is not counted twice.
    assert_eq!(tell(false).await.unwrap().status(), 200);
    assert_eq!(db.scalar::<i64>(lost, &[room]).await, 1);
    let v = view(&a.base, room).await;
    assert_eq!(v["phase"], "playing", "{v}");
    db.close().await;
    a.stop().await;
}

/// Takings of one lapsed lease at once (row locks, no turn among all writers on PostgreSQL):
/// exactly one instance takes it, under the next epoch, and every other is told who holds it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takings_of_one_lease_at_once_give_it_to_exactly_one_instance() {
    let dir = tempfile::tempdir().unwrap();
    let (clock, shared) = manual_clock();
    let a = Running::start_instance(dir.path(), shared, "a").await;
    let raw = RawDb::open(dir.path()).await;
    let alice = Player::sign_up(&a.base, "alice").await;
    let bob = Player::sign_up(&a.base, "bob").await;
    let room = started_room(&alice, &bob, classic_9(ColourAssignment::HostBlack)).await;
    let epoch: i64 = raw.scalar("SELECT epoch FROM room_leases WHERE room_id = $1", &[room]).await;
    a.stop().await;

    let url = testclient::test_database_url(dir.path());
    let db = app::data::Db::open_configured(url.as_deref(), dir.path()).await.unwrap();
    // Rounds, each long after the lease of the round before lapsed.
    let mut winner = String::from("a");
    for round in 1..=10 {
        let later = clock.now_ms() + round * 10 * LEASE_MS;
        let takers = (0..8).map(|i| {
            let db = db.clone();
            tokio::spawn(async move { (format!("x{i}"), db.take_lease(room, &format!("x{i}"), later).await.unwrap()) })
        });
        // All spawned before any is awaited.
        let takers: Vec<_> = takers.collect();
        let mut taken = Vec::new();
        let mut told = Vec::new();
        for t in takers {
            match t.await.unwrap() {
                (me, Taking::Taken { lease, previous }) => taken.push((me, lease.epoch, previous)),
                (_, Taking::HeldBy { owner, .. }) => told.push(owner),
                (me, other) => panic!("{me}: {other:?}"),
            }
        }
        assert_eq!(taken.len(), 1, "round {round}: one taker: {taken:?}");
        let (won, new_epoch, previous) = taken.pop().unwrap();
        let expected = if won == winner { Previous::Mine } else { Previous::Lapsed };
        assert_eq!((new_epoch, previous), (epoch + round, expected), "round {round}, after {winner}");
        assert!(told.iter().all(|o| *o == won), "the others are told {won} holds it: {told:?}");
        assert_eq!(lease_owner(&raw, room).await, won);
        winner = won;
    }
    db.close().await;
    raw.close().await;
}

/// An administrator watching the queue on one instance sees a call made in a room another
/// instance owns (the doorbell rings for the queue as for events; PostgreSQL only).
#[tokio::test]
async fn the_administrators_stream_on_one_instance_hears_the_queue_change_on_another() {
    let (_dir, _clock, a, b, db) = two_instances().await;
    if testclient::test_database_url(_dir.path()).is_none() {
        return; // The embedded database has one instance and no doorbell.
    }
    let referee = admin(&a, "referee").await;
    let alice = Player::sign_up(&a.base, "alice").await;
    let bob = Player::sign_up(&a.base, "bob").await;
    let room = started_room(&alice, &bob, classic_9(ColourAssignment::HostBlack)).await;
    assert_eq!(lease_owner(&db, room).await, "a");
    let mut ws = admin_stream(&referee, &b.base).await;
    let first = next_json(&mut ws).await.unwrap();
    assert_eq!(first["items"].as_array().map(Vec::len), Some(0), "{first}");
    alice.ok(room, serde_json::json!({"type": "call_administrator", "reason": "a fault"})).await;
    let second = next_json(&mut ws).await.expect("b's stream woken by a's change");
    let kinds: Vec<&str> = second["items"].as_array().unwrap().iter().filter_map(|i| i["kind"].as_str()).collect();
    assert_eq!(kinds, ["player_call"], "{second}");
    db.close().await;
    a.stop().await;
    b.stop().await;
}
