//! The referee's console over the real server (HTTP and WebSocket, a real SQLite file, the
//! manual clock): the queue and its claims, rulings per chain (003 §3.2–3.6, §8.4), regions
//! ruled neutral (§4.2), review before finalization (§2.7), calls during play (§1.4),
//! time-loss objections (§5.7), corrections after the end (§4.7), damaged records (§6.2),
//! notifications, and who may do any of it.

use crate::support::*;
use serde_json::{json, Value};

fn mv(x: i64, y: i64, z: i64) -> Value {
    json!({"type": "move", "at": {"x": x, "y": y, "z": z}})
}

fn at(x: i64, y: i64, z: i64) -> Value {
    json!({"x": x, "y": y, "z": z})
}

async fn queue(admin: &Player) -> Vec<Value> {
    let v = admin.get_json("/api/v1/admin/queue").await;
    let entries = v.as_array().cloned().unwrap_or_else(|| panic!("the queue is a list: {v}"));
    // Each entry as the document promises it (an empty queue has nothing to check).
    for e in &entries {
        assert_documented("QueueEntry", e);
    }
    entries
}

fn kinds_in(q: &[Value], room: i64) -> Vec<String> {
    q.iter().filter(|e| e["room_id"] == room).map(|e| e["kind"].as_str().unwrap_or_default().to_string()).collect()
}

/// The header's badge counts (`header_badges`, the server function every page's header asks).
async fn badges(p: &Player) -> Value {
    let (status, body) = p.form("/api/header_badges", &[]).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

async fn notices(p: &Player) -> Vec<String> {
    let v = p.get_json("/api/v1/notifications").await;
    v["items"].as_array().unwrap().iter().map(|n| n["kind"].as_str().unwrap().to_string()).collect()
}

/// A Space 5×5×5 game in scoring: Black owns a chain at 1,1,1–2,1,1 with two separate eyes
/// in the corner layer, White one stone at 5,5,5; both passed.
async fn space_in_scoring(t: &Table) -> i64 {
    let room = started_room(&t.alice, &t.bob, space_box(5)).await;
    let (b, w) = (&t.alice, &t.bob);
    let mut n = 0;
    // Black: a wall on z = 1 leaving the points 1,1,1 and 3,1,1 empty inside it.
    let black = [(2, 1, 1), (1, 2, 1), (2, 2, 1), (3, 2, 1), (4, 1, 1), (1, 1, 2), (2, 1, 2), (3, 1, 2), (4, 2, 1)];
    let white = [(5, 5, 5), (5, 5, 4), (5, 4, 5), (4, 5, 5), (5, 5, 3), (5, 3, 5), (3, 5, 5), (4, 4, 5), (4, 5, 4)];
    for (bs, ws) in black.iter().zip(white.iter()) {
        n += 1;
        played(b, w, room, mv(bs.0, bs.1, bs.2), n).await;
        n += 1;
        played(w, b, room, mv(ws.0, ws.1, ws.2), n).await;
    }
    n += 1;
    played(b, w, room, json!({"type": "pass"}), n).await;
    w.ok(room, json!({"type": "pass"})).await;
    assert_eq!(view(&t.base, room).await["phase"], "scoring");
    room
}

mod access_and_live;
mod rulings;
