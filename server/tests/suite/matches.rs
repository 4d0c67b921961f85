//! A match through the participant API on the real server and a real SQLite file: rooms
//! and invitations, confirmation, readiness, moves validated by the engine, illegal attempts
//! recorded, acknowledgements, passes into scoring, resignation, the spectator stream (a
//! snapshot, then live events) and a player's with gap replay, restart durability, and bad
//! input. Who may read the stored record: `records.rs`; what the API document says and that the
//! server keeps to it: `api_document.rs`.

use serde_json::{json, Value};
use wire::settings::{ColourAssignment, MatchSettings};

use crate::support::*;
use testclient::{read_writes_until, reqwest, stream_url, tokio_tungstenite};

#[tokio::test]
async fn a_classic_game_from_invitation_to_resignation() {
    let dir = tempfile::tempdir().unwrap();
    let srv = Running::start(dir.path()).await;
    let base = srv.base.clone();
    let alice = Player::sign_up(&base, "alice").await;
    let bob = Player::sign_up(&base, "bob").await;
    let dave = Player::sign_up(&base, "dave").await;

    // 003 §1.3: the room and its settings; codes per seat.
    let (status, created) = alice
        .post("/api/v1/rooms", json!({ "name": "friendly", "settings": classic_9(ColourAssignment::HostBlack) }))
        .await;
    assert_eq!(status, 201, "{created}");
    let room = created["room_id"].as_i64().unwrap();
    let codes = [
        created["invite_codes"][0].as_str().unwrap().to_string(),
        created["invite_codes"][1].as_str().unwrap().to_string(),
    ];

    // Anonymous visitors cannot act; a wrong code is refused.
    let anon = reqwest::Client::new();
    let r = anon
        .post(format!("{base}/api/v1/rooms/{room}/commands"))
        .json(&json!({"type": "join", "code": codes[1]}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
    let (status, body) = dave.cmd(room, json!({"type": "join", "code": "0000"})).await;
    assert_eq!((status, body["error"].as_str()), (403, Some("bad_invite_code")));

    assert_eq!(alice.cmd(room, json!({"type": "join", "code": codes[0]})).await.0, 200);
    let (status, body) = alice.cmd(room, json!({"type": "join", "code": codes[1]})).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("already_seated")));
    assert_eq!(bob.cmd(room, json!({"type": "join", "code": codes[1]})).await.0, 200);
    let (status, body) = dave.cmd(room, json!({"type": "join", "code": codes[1]})).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("seat_taken")));

    // A spectator watches live: the room as it is, never the stored log (003 §8.1).
    let ws_url = format!("{}/api/v1/rooms/{room}/stream?after=0", base.replace("http://", "ws://"));
    let (mut spectator, _) = tokio_tungstenite::connect_async(&ws_url).await.expect("spectator connects");
    let first = read_until(&mut spectator, |_| true).await.remove(0);
    assert_eq!((first["type"].as_str(), &first["room"]["seats"]), (Some("snapshot"), &json!(["alice", "bob"])));
    // A player follows from the start: the stored log, with no secrets in it.
    let mut history_stream = alice.stream(room, 0).await;
    let history =
        read_until(&mut history_stream, |v| event_type(v) == "seat_taken" && v["event"]["event"]["username"] == "bob")
            .await;
    drop(history_stream); // before the start: no disconnection
    assert_eq!(event_type(&history[0]), "room_created");
    let created = history[0]["event"]["event"].as_object().unwrap();
    assert!(!created.contains_key("invite_sha256") && !created.contains_key("nigiri_seed"), "no secrets: {created:?}");

    // Both confirm → started; moves before Ready are refused.
    assert_eq!(alice.cmd(room, json!({"type": "confirm"})).await.0, 200);
    let (status, started) = bob.cmd(room, json!({"type": "confirm"})).await;
    assert_eq!(status, 200);
    assert_eq!(started["events"][1]["event"]["type"], "started");
    let (status, body) = alice.cmd(room, json!({"type": "move", "at": {"x": 3, "y": 3, "z": 1}})).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("wrong_phase")));
    assert_eq!(alice.cmd(room, json!({"type": "ready"})).await.0, 200);
    let (_, r) = bob.cmd(room, json!({"type": "ready"})).await;
    assert_eq!(r["events"][1]["event"]["type"], "play_resumed");

    // Dave is no player: refused.
    let (status, body) = dave.cmd(room, json!({"type": "pass"})).await;
    assert_eq!((status, body["error"].as_str()), (403, Some("not_a_player")));

    // Black (alice, host) moves; White may not move before acknowledging (003 §5.5).
    let (status, r) = alice.cmd(room, json!({"type": "move", "at": {"x": 3, "y": 3, "z": 1}})).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["events"][0]["event"]["move_number"], 1);
    let (status, body) = bob.cmd(room, json!({"type": "move", "at": {"x": 4, "y": 4, "z": 1}})).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("awaiting_acknowledgement")));
    let (status, body) = bob.cmd(room, json!({"type": "acknowledge", "move_number": 2})).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("nothing_to_acknowledge")));
    assert_eq!(bob.cmd(room, json!({"type": "acknowledge", "move_number": 1})).await.0, 200);

    // An illegal attempt is refused with coordinate and reason, recorded, and does not
    // advance the move number or change the turn (003 §2.5).
    let (status, body) = bob.cmd(room, json!({"type": "move", "at": {"x": 3, "y": 3, "z": 1}})).await;
    assert_eq!((status, body["error"].as_str()), (422, Some("illegal")), "{body}");
    assert_eq!(body["detail"]["reason"], "occupied");
    assert!(body["message"].as_str().unwrap().contains("3,3,1"), "{body}");
    let v = view(&base, room).await;
    assert_eq!(
        (v["move_number"].as_u64(), v["to_move"].as_str(), v["illegal_attempts"].as_u64()),
        (Some(1), Some("white"), Some(1))
    );
    // Out of range coordinates name the allowed ranges.
    let (status, body) = bob.cmd(room, json!({"type": "move", "at": {"x": 10, "y": 3, "z": 1}})).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("off_board")));
    assert_eq!(body["detail"]["x_range"], "1..9");
    // Wrong turn.
    let (status, body) = alice.cmd(room, json!({"type": "move", "at": {"x": 5, "y": 5, "z": 1}})).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("not_your_turn")));

    let spectator_saw = read_until(&mut spectator, |v| event_type(v) == "illegal_attempt").await;
    let attempt = &spectator_saw.last().unwrap()["event"]["event"];
    assert_eq!((attempt["colour"].as_str(), attempt["reason"].as_str()), (Some("white"), Some("occupied")));
    // The view's fields ride with the event: what a browser applies itself, without a fetch.
    let live = &spectator_saw.last().unwrap()["live"];
    assert_eq!(live["version"], spectator_saw.last().unwrap()["event"]["seq"], "{live}");
    assert_eq!((live["illegal_attempts"].as_u64(), live["to_move"].as_str()), (Some(1), Some("white")));

    assert_eq!(bob.cmd(room, json!({"type": "move", "at": {"x": 4, "y": 4, "z": 1}})).await.0, 200);
    assert_eq!(alice.cmd(room, json!({"type": "acknowledge", "move_number": 2})).await.0, 200);

    // A reconnecting player gets exactly the gap after its last event (kept open to the end:
    // a player's closed stream is a disconnection); a spectator the room as it is instead.
    let v = view(&base, room).await;
    let version = v["version"].as_i64().unwrap();
    let mut late = bob.stream(room, version - 2).await;
    let gap = read_until(&mut late, |v| v["event"]["seq"].as_i64() == Some(version)).await;
    assert_eq!(gap.len(), 2);
    assert_eq!(gap[0]["event"]["seq"].as_i64(), Some(version - 1));
    // The gap's last event brings the view's fields (the page's turn and clocks current).
    assert!(gap[0]["live"].is_null(), "{}", gap[0]);
    let live = &gap[1]["live"];
    assert_eq!(
        (live["version"].as_i64(), live["move_number"].as_u64(), live["to_move"].as_str()),
        (Some(version), Some(2), Some("black")),
        "{live}"
    );
    let mut late_spectator = testclient::spectate(&base, room, version - 2).await.unwrap();
    let first = read_until(&mut late_spectator, |_| true).await.remove(0);
    assert_eq!((first["type"].as_str(), first["room"]["version"].as_i64()), (Some("snapshot"), Some(version)));

    // Passes: two in a row enter scoring (003 §2.7).
    assert_eq!(alice.cmd(room, json!({"type": "pass"})).await.0, 200);
    assert_eq!(bob.cmd(room, json!({"type": "acknowledge", "move_number": 3})).await.0, 200);
    let (_, r) = bob.cmd(room, json!({"type": "pass"})).await;
    assert_eq!(r["events"][1]["event"]["type"], "scoring_entered", "{r}");
    assert_eq!(view(&base, room).await["phase"], "scoring");

    // Resignation ends the game: a typed result, no sentences in the log (000 §8.6).
    let (_, r) = bob.cmd(room, json!({"type": "resign"})).await;
    let ended = &r["events"][1]["event"];
    assert_eq!(ended["type"], "ended");
    assert_eq!(ended["result"], json!({"reason": "resign", "winner": "black"}));
    let (status, _) = alice.cmd(room, json!({"type": "pass"})).await;
    assert_eq!(status, 409, "nothing after the end");

    // The stored events are the record's: for the players, not for anyone watching (003 §8.1).
    let r = reqwest::get(format!("{base}/api/v1/rooms/{room}/events?after=0")).await.unwrap();
    assert_eq!(r.status(), 403);
    assert_eq!(error_of(r).await.0, "record_not_allowed");
    let (status, _) = dave.get(&format!("/api/v1/rooms/{room}/events?after=0")).await;
    assert_eq!(status, 403, "a signed-in stranger neither");
    let log = alice.get_json(&format!("/api/v1/rooms/{room}/events?after=0")).await;
    let kinds: Vec<&str> = log.as_array().unwrap().iter().map(|e| e["event"]["type"].as_str().unwrap()).collect();
    assert_eq!(kinds.iter().filter(|k| **k == "illegal_attempt").count(), 1);
    assert_eq!(*kinds.last().unwrap(), "ended");
    srv.stop().await;
}

#[tokio::test]
async fn nigiri_is_recorded_and_a_restart_holds_the_game_until_both_are_ready() {
    let dir = tempfile::tempdir().unwrap();
    let srv = Running::start(dir.path()).await;
    let base = srv.base.clone();
    let alice = Player::sign_up(&base, "alice").await;
    let bob = Player::sign_up(&base, "bob").await;
    let (_, created) =
        alice.post("/api/v1/rooms", json!({ "name": "nigiri", "settings": classic_9(ColourAssignment::Nigiri) })).await;
    let room = created["room_id"].as_i64().unwrap();
    alice.cmd(room, json!({"type": "join", "code": created["invite_codes"][0]})).await;
    bob.cmd(room, json!({"type": "join", "code": created["invite_codes"][1]})).await;
    alice.cmd(room, json!({"type": "confirm"})).await;
    let (_, r) = bob.cmd(room, json!({"type": "confirm"})).await;
    let started = &r["events"][1]["event"];
    assert_eq!(started["type"], "started");
    assert!(started["nigiri_seed"].is_null(), "the seed is never sent to clients");
    let (black, white) = if started["black"] == "first" { (&alice, &bob) } else { (&bob, &alice) };
    black.cmd(room, json!({"type": "ready"})).await;
    white.cmd(room, json!({"type": "ready"})).await;
    assert_eq!(black.cmd(room, json!({"type": "move", "at": {"x": 5, "y": 5, "z": 1}})).await.0, 200);
    srv.stop().await;

    // The seed is in the stored log (the room_created row, beside the public event: auditable),
    // and the draw replays from it.
    let db = RawDb::open(dir.path()).await;
    let body = async |kind: &str| {
        let sql = format!("SELECT body FROM match_events WHERE room_id = $1 AND kind = '{kind}'");
        serde_json::from_str::<Value>(&db.scalar::<String>(&sql, &[room]).await).unwrap()
    };
    let seed = body("room_created").await["nigiri_seed"].as_u64().expect("seed recorded");
    let replayed = room::nigiri(seed);
    assert_eq!(serde_json::to_value(replayed).unwrap(), body("started").await["black"]);
    db.close().await;

    // Restart: the move is intact and play waits for both players' Ready (003 §6.1–6.3).
    let srv = Running::start(dir.path()).await;
    let base = srv.base.clone();
    let v = view(&base, room).await;
    assert_eq!(v["phase"], "waiting_ready");
    assert_eq!(v["move_number"], 1);
    assert_eq!(v["stones"].as_array().unwrap().len(), 1);
    srv.stop().await;
}

#[tokio::test]
async fn bad_requests_get_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let srv = Running::start(dir.path()).await;
    let base = srv.base.clone();
    let alice = Player::sign_up(&base, "alice").await;
    let r = alice
        .http
        .post(format!("{base}/api/v1/rooms"))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    assert_eq!(r.json::<Value>().await.unwrap()["error"], "malformed_json");
    let (status, body) =
        alice.post("/api/v1/rooms", json!({"name": "x", "settings": {"preset": "space"}, "extra": 1})).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("invalid_json")), "{body}");
    let (status, body) = alice
        .post(
            "/api/v1/rooms",
            json!({"name": "", "settings": serde_json::to_value(MatchSettings::space_default()).unwrap()}),
        )
        .await;
    assert_eq!((status, body["error"].as_str()), (400, Some("invalid_input")), "{body}");
    let (status, body) = alice.cmd(99, json!({"type": "fly"})).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("invalid_json")), "{body}");
    let (status, body) = alice.cmd(99, json!({"type": "pass"})).await;
    assert_eq!((status, body["error"].as_str()), (404, Some("room_not_found")));
    let huge = "x".repeat(server::api::MAX_BODY_BYTES + 1);
    let r = alice
        .http
        .post(format!("{base}/api/v1/rooms"))
        .header("content-type", "application/json")
        .body(format!("{{\"name\":\"{huge}\"}}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 413);
    assert_eq!(error_of(r).await, ("body_too_large".into(), json!({"limit_bytes": server::api::MAX_BODY_BYTES})));
    let r = alice.http.post(format!("{base}/api/v1/rooms")).body("{}").send().await.unwrap();
    assert_eq!(r.status(), 415);
    assert_eq!(error_of(r).await, ("content_type".into(), json!({"expected": "application/json"})));

    // What axum's extractors refuse is the same typed error: room ids are 1..=i64::MAX.
    for id in ["abc", "9223372036854775808", "1.5", "0", "-3"] {
        for path in [format!("/api/v1/rooms/{id}"), format!("/api/v1/rooms/{id}/events")] {
            let r = alice.http.get(format!("{base}{path}")).send().await.unwrap();
            assert_eq!(r.status(), 400, "{path}");
            let (code, detail) = error_of(r).await;
            assert_eq!((code.as_str(), &detail["field"]), ("invalid_input", &json!("id")), "{path}");
            assert!(detail["why"].as_str().unwrap().contains("9223372036854775807"), "names the range: {detail}");
        }
    }
    let (status, created) =
        alice.post("/api/v1/rooms", json!({ "name": "r", "settings": classic_9(ColourAssignment::HostBlack) })).await;
    assert_eq!(status, 201);
    let room = created["room_id"].as_i64().unwrap();
    for after in ["x", "-1", "1.5", "99999999999999999999"] {
        let r = alice.http.get(format!("{base}/api/v1/rooms/{room}/events?after={after}")).send().await.unwrap();
        assert_eq!(r.status(), 400, "after={after}");
        assert_eq!(error_of(r).await.1["field"], "after");
    }
    for batch in ["yes", "1", "TRUE", "", "PACKED", "pack"] {
        let r = alice.http.get(format!("{base}/api/v1/rooms/{room}/stream?batch={batch}")).send().await.unwrap();
        assert_eq!(r.status(), 400, "batch={batch}");
        let (code, detail) = error_of(r).await;
        assert_eq!((code.as_str(), &detail["field"]), ("invalid_input", &json!("batch")), "batch={batch}");
        assert!(detail["why"].as_str().unwrap().contains("packed, true or false"), "names what is allowed: {detail}");
    }
    // A room that does not exist is 404 whatever `after` says; a real one past its end is []
    // (for a player: the stored events are the record's, 003 §8.1).
    for after in [0, 1, 50] {
        let r = alice.http.get(format!("{base}/api/v1/rooms/9999/events?after={after}")).send().await.unwrap();
        assert_eq!(r.status(), 404, "after={after}");
        assert_eq!(error_of(r).await.0, "room_not_found");
    }
    let r = alice.http.get(format!("{base}/api/v1/rooms/{room}/events?after=50")).send().await.unwrap();
    assert_eq!(error_of(r).await.0, "record_not_allowed", "the room's creator is no player yet");
    alice.ok(room, json!({"type": "join", "code": created["invite_codes"][0]})).await;
    let r = alice.http.get(format!("{base}/api/v1/rooms/{room}/events?after=50")).send().await.unwrap();
    assert_eq!((r.status().as_u16(), r.text().await.unwrap()), (200, "[]".to_string()));

    // Commands: unknown fields are refused for commands without fields too; a point is an
    // object, never an array.
    let code = created["invite_codes"][0].clone();
    for bad in [
        json!({"type": "pass", "foo": 1}),
        json!({"type": "confirm", "code": code}),
        json!({"type": "join", "code": code, "foo": 1}),
        json!({"type": "move", "at": [9, 9, 9]}),
        json!({"type": "move", "at": {"x": 1, "y": 1, "z": 1, "w": 1}}),
    ] {
        let (status, body) = alice.cmd(room, bad.clone()).await;
        assert_eq!((status, body["error"].as_str()), (400, Some("invalid_json")), "{bad} → {body}");
    }
    // Refusals always carry an object `detail`, even those without fields.
    let r = reqwest::Client::new().post(format!("{base}/api/v1/rooms/{room}/commands")).json(&json!({"type": "pass"}));
    let r = r.send().await.unwrap();
    assert_eq!(r.status(), 401);
    assert_eq!(error_of(r).await, ("not_signed_in".into(), json!({})));
    // Unknown routes and methods of the API are JSON refusals too (not the HTML 404 page).
    let r = alice.http.get(format!("{base}/api/v1/roomz")).send().await.unwrap();
    assert_eq!(r.status(), 404);
    assert_eq!(error_of(r).await, ("no_route".into(), json!({"path": "/api/v1/roomz"})));
    let r = alice.http.put(format!("{base}/api/v1/rooms/{room}")).send().await.unwrap();
    assert_eq!(r.status(), 405);
    assert_eq!(error_of(r).await, ("method_not_allowed".into(), json!({"method": "PUT"})));
    // The stream is a WebSocket: a plain GET is a 400 too, not plain text.
    let r = alice.http.get(format!("{base}/api/v1/rooms/{room}/stream")).send().await.unwrap();
    assert_eq!(r.status(), 400);
    assert_eq!(error_of(r).await.0, "bad_request");
    srv.stop().await;
}

/// The code and detail of an error answer, checking its shape on the way.
async fn error_of(r: reqwest::Response) -> (String, Value) {
    assert_eq!(r.headers().get("content-type").unwrap(), "application/json");
    let v: Value = r.json().await.unwrap();
    assert!(v["message"].is_string() && v["detail"].is_object(), "{v}");
    (v["error"].as_str().unwrap().to_string(), v["detail"].clone())
}

/// A burst of moves reaches a spectator, whose writes are paced, and a player, whose are not,
/// whole: every event once, in order.
#[tokio::test]
async fn a_burst_reaches_spectators_and_players_whole_and_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let srv = Running::start(dir.path()).await;
    let base = srv.base.clone();
    let alice = Player::sign_up(&base, "alice").await;
    let bob = Player::sign_up(&base, "bob").await;
    let room = started_room(&alice, &bob, classic_9(ColourAssignment::HostBlack)).await;
    let start = view(&base, room).await["version"].as_i64().unwrap();
    // A spectator who reads packed messages (as the browser does), one who reads one message
    // per event, a player who reads one message per event and one who reads packed messages.
    let mut spectator = testclient::spectate(&base, room, 0).await.unwrap();
    let first = read_until(&mut spectator, |_| true).await.remove(0);
    assert_eq!((first["type"].as_str(), first["room"]["version"].as_i64()), (Some("snapshot"), Some(start)));
    let (mut unbatched, _) =
        testclient::tokio_tungstenite::connect_async(stream_url(&base, room, start)).await.unwrap();
    let mut player = bob.stream(room, start).await;
    let mut packed_player = alice.stream_packed(room, start).await;

    // Twenty moves on rows 1, 3 and 5 (every stone keeps a liberty), each acknowledged.
    for n in 1..=20u32 {
        let (x, y) = ((n - 1) % 9 + 1, 2 * ((n - 1) / 9) + 1);
        let (mover, other) = if n % 2 == 1 { (&alice, &bob) } else { (&bob, &alice) };
        played(mover, other, room, json!({"type": "move", "at": {"x": x, "y": y, "z": 1}}), n).await;
    }
    let end = view(&base, room).await["version"].as_i64().unwrap();
    assert!(end >= start + 40, "a move and an acknowledgement each: {start} → {end}");
    for (who, ws) in [
        ("spectator", &mut spectator),
        ("unbatched spectator", &mut unbatched),
        ("player", &mut player),
        ("packed player", &mut packed_player),
    ] {
        let writes = read_writes_until(ws, |v| v["event"]["seq"].as_i64() == Some(end)).await;
        // Several events in one WebSocket message only for the clients that asked for packed
        // messages; the player's are written as they are committed, so they may come one by one.
        let batched = writes.iter().filter(|w| w.len() > 1).count();
        match who {
            "spectator" => assert!(batched > 0, "the spectator's burst came in packed messages"),
            "packed player" => {
                // Each message ends with the fields as of its last event (every commit here is
                // one event): the view after each write, with nothing paced.
                for w in &writes {
                    let last = w.last().unwrap();
                    assert!(!last["live"].is_null(), "the packed player's message ends with the view's fields: {w:?}");
                }
            }
            _ => assert_eq!(batched, 0, "the {who} reads one event per message"),
        }
        let got: Vec<Value> = writes.into_iter().flatten().collect();
        let seqs: Vec<i64> = got.iter().filter_map(|v| v["event"]["seq"].as_i64()).collect();
        assert_eq!(seqs, (start + 1..=end).collect::<Vec<_>>(), "the {who}'s stream");
        // Packed or not, each event is the stored one: its time, actor and content.
        let stored = bob.get_json(&format!("/api/v1/rooms/{room}/events?after={start}")).await;
        let streamed: Vec<&Value> = got.iter().filter(|v| v["type"] == "event").map(|v| &v["event"]).collect();
        assert_eq!(streamed, stored.as_array().unwrap().iter().collect::<Vec<_>>(), "the {who}'s events as stored");
        assert_eq!(got.last().unwrap()["live"]["move_number"], 20, "the {who} sees the view after the burst");
        // Every commit here is one event. The player gets each with the view's fields; the
        // spectator's writes hold several, and only a write's last event carries them.
        let without: Vec<i64> =
            got.iter().filter(|v| v["live"].is_null()).filter_map(|v| v["event"]["seq"].as_i64()).collect();
        match who {
            "player" => assert_eq!(without, Vec::<i64>::new(), "the player's events each with the fields"),
            "packed player" => {}
            _ => assert!(!without.is_empty(), "the spectator's burst came in shared writes"),
        }
    }
    srv.stop().await;
}
