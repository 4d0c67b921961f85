//! Finished games and replay over the real server: a record's steps name moves, illegal
//! attempts and undos as such; the room rebuilt after any step has that step's stones,
//! captures and clocks; only those who may read the record replay it (003 §8.1); the archive
//! lists a player's finished games by the filters asked, and those both players approved them
//! to read; an administrator's all.

use serde_json::{json, Value};
use wire::{commands::Command, settings::ColourAssignment};

use crate::support::*;

fn mv(x: i64, y: i64) -> Value {
    json!({"type": "move", "at": {"x": x, "y": y, "z": 1}})
}

#[tokio::test]
async fn a_record_replays_step_by_step_for_those_who_may_read_it() {
    let Table { srv, base, alice, bob, _dir, clock } = Table::new().await;
    let carol = Player::sign_up(&base, "carol").await;
    let anonymous = Player::new(&base);
    let room = started_room(&alice, &bob, classic_9(ColourAssignment::HostBlack)).await;
    played(&alice, &bob, room, mv(3, 3), 1).await;
    clock.advance_ms(5_000);
    played(&bob, &alice, room, mv(5, 5), 2).await;
    // An illegal attempt (occupied) is recorded, not counted; then an undo by consent.
    let (status, _) = alice.cmd(room, mv(5, 5)).await;
    assert_eq!(status, 422);
    played(&alice, &bob, room, mv(7, 7), 3).await;
    alice.ok(room, Command::RequestUndo).await;
    bob.ok(room, Command::AnswerUndo { accept: true }).await;
    played(&alice, &bob, room, mv(3, 7), 3).await;
    alice.ok(room, Command::Resign).await;

    let (status, steps) = alice.post("/api/replay_steps", json!({"room_id": room})).await;
    assert_eq!(status, 200, "{steps}");
    let kinds: Vec<&str> = steps.as_array().unwrap().iter().map(|s| s["kind"]["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["start", "move", "move", "illegal", "move", "undo", "move", "resigned", "ended"], "{steps}");

    // After move 2: two stones, Black's clock charged nothing, White's the five seconds.
    let seq = |i: usize| steps[i]["seq"].as_i64().unwrap();
    let (status, v) = bob.post("/api/replay_frame", json!({"room_id": room, "seq": seq(2)})).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!((v["move_number"].as_u64(), v["stones"].as_array().unwrap().len()), (Some(2), 2));
    let main = |v: &Value, i: usize| v["clocks"]["main_ms"][i].as_i64().unwrap();
    assert!(main(&v, 1) < main(&v, 0), "White's clock ran: {}", v["clocks"]);
    // After the undo: the stone at 7,7 is gone again; at the end, the result.
    let (_, v) = alice.post("/api/replay_frame", json!({"room_id": room, "seq": seq(5)})).await;
    assert_eq!(v["stones"].as_array().unwrap().len(), 2, "{v}");
    let (_, v) = alice.post("/api/replay_frame", json!({"room_id": room, "seq": seq(8)})).await;
    assert_eq!(v["result"]["reason"].as_str(), Some("resign"), "{}", v["result"]);
    assert_eq!(v["your_colour"], Value::Null, "a replay is nobody's seat");

    // A step that is not in the record is named with the range.
    let (status, e) = alice.post("/api/replay_frame", json!({"room_id": room, "seq": 9_999})).await;
    assert_eq!((status, e["error"].as_str()), (400, Some("invalid_input")), "{e}");
    // Nobody else replays it (003 §8.1); an anonymous visitor is asked to sign in.
    let (status, e) = carol.post("/api/replay_steps", json!({"room_id": room})).await;
    assert_eq!((status, e["error"].as_str()), (403, Some("record_not_allowed")), "{e}");
    let (status, _) = carol.post("/api/replay_frame", json!({"room_id": room, "seq": seq(2)})).await;
    assert_eq!(status, 403);
    let (status, _) = anonymous.post("/api/replay_steps", json!({"room_id": room})).await;
    assert_eq!(status, 401);
    let (status, e) = alice.post("/api/replay_steps", json!({"room_id": 424_242})).await;
    assert_eq!((status, e["error"].as_str()), (404, Some("room_not_found")), "{e}");

    // The archive: alice's games by outcome and rules; carol has none; an administrator sees all.
    let archive = |p: &Player, filter: Value| {
        let p = p.clone();
        async move {
            let (status, list) = p.post("/api/archive", json!({ "filter": filter })).await;
            assert_eq!(status, 200, "{list}");
            list.as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect::<Vec<_>>()
        }
    };
    assert_eq!(archive(&alice, json!({})).await, [room]);
    assert_eq!(archive(&alice, json!({"outcome": "lost", "preset": "classic", "size": 9})).await, [room]);
    assert!(archive(&alice, json!({"outcome": "won"})).await.is_empty());
    assert_eq!(archive(&bob, json!({"outcome": "won", "player": "ALI"})).await, [room]);
    assert!(archive(&carol, json!({})).await.is_empty());
    // Once both players approve carol as a reader (003 §8.1), the game is in her archive
    // and she may replay it; one approval is not enough.
    alice.ok(room, json!({"type": "approve_record_viewer", "username": "carol"})).await;
    assert!(archive(&carol, json!({})).await.is_empty(), "one player's approval");
    bob.ok(room, json!({"type": "approve_record_viewer", "username": "carol"})).await;
    assert_eq!(archive(&carol, json!({})).await, [room]);
    let (status, _) = carol.post("/api/replay_steps", json!({"room_id": room})).await;
    assert_eq!(status, 200);
    let admin = admin(&srv, "referee").await;
    assert_eq!(archive(&admin, json!({})).await, [room]);
    let (status, e) = alice.post("/api/archive", json!({"filter": {"size": 26}})).await;
    assert_eq!((status, e["error"].as_str()), (400, Some("invalid_input")), "{e}");
    let (status, _) = anonymous.post("/api/archive", json!({"filter": {}})).await;
    assert_eq!(status, 401);
}
