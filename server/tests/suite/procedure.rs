//! The match procedure over HTTP and WebSocket on the real server and SQLite file, with a
//! manual clock (no sleeping through minutes): clocks and the acknowledgement fault, holds
//! and the administrator, undo by consent, scoring with numbered statements, disconnection
//! through a player's stream, per-viewer hints, and who may download the stored record.

use serde_json::{json, Value};
use wire::settings::ColourAssignment;

use crate::support::*;
use testclient::{reqwest, tokio_tungstenite};

fn mv(x: i64, y: i64, z: i64) -> Value {
    json!({"type": "move", "at": {"x": x, "y": y, "z": z}})
}

#[tokio::test]
async fn an_unacknowledged_move_holds_the_match_until_the_administrator_resumes_it() {
    // 003 §5.5–5.6, §6.1, §6.3.
    let Table { clock, srv, base, alice, bob, _dir, .. } = Table::new().await;
    let admin = admin(&srv, "referee").await;
    let room = started_room(&alice, &bob, space_box(5)).await;
    let mut spectator =
        tokio_tungstenite::connect_async(format!("{}/api/v1/rooms/{room}/stream", base.replace("http://", "ws://")))
            .await
            .unwrap()
            .0;

    let v = alice.view(room).await;
    assert_eq!((v["clocks"]["running"].as_str(), v["clocks"]["main_ms"][0].as_i64()), (Some("black"), Some(3_600_000)));
    clock.advance_ms(3_000);
    alice.ok(room, mv(1, 1, 1)).await;
    let v = alice.view(room).await;
    assert!(v["clocks"]["running"].is_null(), "White's clock waits for White's device");
    assert_eq!(v["clocks"]["main_ms"][0], 3_597_000);

    // Ten seconds without the acknowledgement: a connection fault; play is suspended.
    clock.advance_ms(10_000);
    read_until(&mut spectator, |m| event_type(m) == "connection_lost").await;
    let (status, body) = alice.cmd(room, json!({"type": "request_undo"})).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("suspended")), "{body}");

    // Five more minutes: held for the administrator, who is notified — no automatic loss.
    clock.advance_ms(300_000);
    let seen = read_until(&mut spectator, |m| event_type(m) == "attention_needed").await;
    assert!(seen.iter().any(|m| event_type(m) == "held"));
    assert_eq!(alice.view(room).await["phase"], "held");
    let (status, _) = bob.get("/api/v1/admin/attention").await;
    assert_eq!(status, 403);
    let (status, listed) = admin.get("/api/v1/admin/attention").await;
    assert_eq!(status, 200);
    let listed: Value = serde_json::from_str(&listed).unwrap();
    assert_eq!(listed[0]["room_id"], room);
    assert_eq!(listed[0]["attention"], "disconnection");

    // Only the administrator resumes, with reasons; then both players' Ready.
    let (status, body) = alice.cmd(room, json!({"type": "admin_resume", "reasons": "mine"})).await;
    assert_eq!((status, body["error"].as_str()), (403, Some("admin_only")));
    let (status, body) = admin.cmd(room, json!({"type": "admin_resume", "reasons": ""})).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("invalid_input")));
    admin.ok(room, json!({"type": "admin_resume", "reasons": "Bob's network failed; board confirmed by both"})).await;
    assert_eq!(alice.view(room).await["phase"], "waiting_ready");
    alice.ok(room, json!({"type": "ready"})).await;
    bob.ok(room, json!({"type": "ready"})).await;
    bob.ok(room, json!({"type": "acknowledge", "move_number": 1})).await;
    clock.advance_ms(1_000);
    let v = bob.view(room).await;
    assert_eq!((v["clocks"]["running"].as_str(), v["clocks"]["main_ms"][1].as_i64()), (Some("white"), Some(3_599_000)));
    srv.stop().await;
}

#[tokio::test]
async fn undo_scoring_and_the_stored_record_over_http() {
    // 003 §5.1–5.2, §3.4–3.5, §4.5, §8.1–8.2; 000 §8.3 hints.
    let Table { srv, base, alice, bob, _dir, .. } = Table::new().await;
    let dave = Player::sign_up(&base, "dave").await;
    let room = started_room(&alice, &bob, classic_9(ColourAssignment::HostBlack)).await;

    // Hints only for the player to move (000 §8.3).
    assert!(alice.view(room).await["hints"].is_object());
    assert!(bob.view(room).await["hints"].is_null());
    assert!(view(&base, room).await["hints"].is_null());

    played(&alice, &bob, room, mv(3, 3, 1), 1).await;
    // Undo by consent; a spectator cannot answer for a player.
    alice.ok(room, json!({"type": "request_undo"})).await;
    let (status, body) = dave.cmd(room, json!({"type": "answer_undo", "accept": true})).await;
    assert_eq!((status, body["error"].as_str()), (403, Some("not_a_player")));
    let r = bob.ok(room, json!({"type": "answer_undo", "accept": true})).await;
    assert_eq!(r["events"][0]["event"]["type"], "taken_back", "000 §8.2: Black's own move");
    let v = view(&base, room).await;
    assert_eq!((v["move_number"].as_u64(), v["to_move"].as_str()), (Some(0), Some("black")));

    played(&alice, &bob, room, mv(4, 4, 1), 1).await;
    played(&bob, &alice, room, mv(6, 6, 1), 2).await;
    played(&alice, &bob, room, json!({"type": "pass"}), 3).await;
    bob.ok(room, json!({"type": "pass"})).await;
    let v = view(&base, room).await;
    assert_eq!((v["phase"].as_str(), v["scoring"]["statement"].as_u64()), (Some("scoring"), Some(1)));
    assert_eq!(v["scoring"]["ownership"].as_str().unwrap().len(), 81);

    // Marks make new statements; consent binds to the latest number.
    let r = alice.ok(room, json!({"type": "mark", "at": {"x": 6, "y": 6, "z": 1}, "kind": "dead"})).await;
    assert_eq!(r["events"][1]["event"]["number"], 2);
    let (status, body) = bob.cmd(room, json!({"type": "consent", "statement": 1})).await;
    assert_eq!(
        (status, body["error"].as_str(), body["detail"]["latest"].as_u64()),
        (409, Some("stale_statement"), Some(2))
    );
    let (status, body) = dave.cmd(room, json!({"type": "consent", "statement": 2})).await;
    assert_eq!((status, body["error"].as_str()), (403, Some("not_a_player")));
    alice.ok(room, json!({"type": "consent", "statement": 2})).await;
    let r = bob.ok(room, json!({"type": "consent", "statement": 2})).await;
    let ended = &r["events"][1]["event"];
    assert_eq!(
        (ended["type"].as_str(), ended["result"]["winner"].as_str(), ended["statement"].as_u64()),
        (Some("ended"), Some("black"), Some(2))
    );

    // The stored record: players yes; others only when both players approve (003 §8.1).
    let (status, body) = alice.get(&format!("/api/v1/rooms/{room}/record")).await;
    assert_eq!(status, 200);
    let record: Value = serde_json::from_str(&body).unwrap();
    let kinds: Vec<&str> =
        record["events"].as_array().unwrap().iter().map(|e| e["event"]["type"].as_str().unwrap()).collect();
    for k in ["undo_requested", "taken_back", "mark_added", "statement_issued", "consented", "ended"] {
        assert!(kinds.contains(&k), "record lacks {k}: {kinds:?}");
    }
    assert!(!body.contains("nigiri_seed\":1") && !body.contains("invite_sha256\":[\"0"), "no secrets");
    let (status, sgf) = bob.get(&format!("/api/v1/rooms/{room}/record.sgf")).await;
    assert_eq!(status, 200);
    assert!(sgf.starts_with("(;") && sgf.contains("SZ[9]") && sgf.contains("PB[alice]"), "{sgf}");
    let anon = reqwest::get(format!("{base}/api/v1/rooms/{room}/record")).await.unwrap();
    assert_eq!(anon.status(), 401);
    let (status, body) = dave.get(&format!("/api/v1/rooms/{room}/record")).await;
    assert_eq!(status, 403, "{body}");
    alice.ok(room, json!({"type": "approve_record_viewer", "username": "Dave"})).await;
    assert_eq!(dave.get(&format!("/api/v1/rooms/{room}/record")).await.0, 403, "one approval is not enough");
    bob.ok(room, json!({"type": "approve_record_viewer", "username": "dave"})).await;
    assert_eq!(dave.get(&format!("/api/v1/rooms/{room}/record")).await.0, 200);
    assert_eq!(dave.get(&format!("/api/v1/rooms/{room}/record.sgf")).await.0, 200);
    srv.stop().await;
}

#[tokio::test]
async fn a_players_closed_stream_is_a_disconnection_and_reconnecting_needs_both_ready() {
    // 003 §6.1–6.3: clocks stop while a player is away; resume after both are Ready.
    let Table { clock, srv, alice, bob, _dir, .. } = Table::new().await;
    let room = started_room(&alice, &bob, space_box(5)).await;
    let _alice_stream = alice.stream(room, 0).await;
    let bob_stream = bob.stream(room, 0).await;
    drop(bob_stream);
    let v = until_view(&alice, room, |v| !v["faults"][1].is_null()).await;
    assert_eq!(v["faults"][1]["cause"], "disconnected");
    assert!(v["clocks"]["running"].is_null(), "both clocks stop");
    let (status, body) = alice.cmd(room, mv(1, 1, 1)).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("suspended")));
    clock.advance_ms(60_000);
    let _bob_again = bob.stream(room, 0).await;
    let v = until_view(&alice, room, |v| v["phase"] == "waiting_ready").await;
    assert_eq!(v["clocks"]["main_ms"][0], 3_600_000, "the time away is not charged");
    alice.ok(room, json!({"type": "ready"})).await;
    bob.ok(room, json!({"type": "ready"})).await;
    alice.ok(room, mv(1, 1, 1)).await;
    // A 3D box has no SGF form.
    let (status, body) = alice.get(&format!("/api/v1/rooms/{room}/record.sgf")).await;
    assert_eq!(status, 422, "{body}");
    srv.stop().await;
}

#[tokio::test]
async fn the_ui_server_functions_are_a_second_adapter_over_the_same_rooms() {
    // Server functions and the participant API share one domain layer.
    let Table { srv, base, alice, bob, _dir, .. } = Table::new().await;
    let (status, created) = alice
        .post("/api/create_match", json!({"name": "via ui", "settings": classic_9(ColourAssignment::HostBlack)}))
        .await;
    assert_eq!(status, 200, "{created}");
    let room = created["room_id"].as_i64().unwrap();
    let codes = created["invite_codes"].clone();
    let fn_cmd = |p: &Player, c: Value| {
        let (http, base) = (p.http.clone(), p.base.clone());
        async move {
            let r = http
                .post(format!("{base}/api/match_command"))
                .json(&json!({"room_id": room, "command": c}))
                .send()
                .await
                .unwrap();
            (r.status().as_u16(), r.json::<Value>().await.unwrap())
        }
    };
    assert_eq!(fn_cmd(&alice, json!({"type": "join", "code": codes[0]})).await.0, 200);
    // The API sees the same room; the server function sees the API's join.
    bob.ok(room, json!({"type": "join", "code": codes[1]})).await;
    let (status, v) = alice.post("/api/match_view", json!({"room_id": room})).await;
    assert_eq!((status, v["seats"][1].as_str()), (200, Some("bob")));
    for c in ["confirm", "ready"] {
        for p in [&alice, &bob] {
            assert_eq!(fn_cmd(p, json!({"type": c})).await.0, 200, "{c}");
        }
    }
    assert_eq!(fn_cmd(&alice, mv(3, 3, 1)).await.0, 200);
    bob.ok(room, json!({"type": "acknowledge", "move_number": 1})).await;
    // Typed refusals come through the server function too.
    let (status, body) = fn_cmd(&bob, mv(3, 3, 1)).await;
    assert_eq!((status, body["error"].as_str()), (422, Some("illegal")), "the participant API's status and body");
    assert_eq!(body["detail"]["reason"], "occupied", "{body}");
    // Anonymous callers cannot act.
    let (status, body) = {
        let r = reqwest::Client::new()
            .post(format!("{base}/api/match_command"))
            .json(&json!({"room_id": room, "command": {"type": "pass"}}))
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.json::<Value>().await.unwrap())
    };
    assert_eq!((status, body["error"].as_str()), (401, Some("not_signed_in")), "{body}");
    srv.stop().await;
}

#[tokio::test]
async fn racing_requests_are_decided_in_server_receipt_order() {
    // 003 §9.6: an undo approval racing a new move — whichever the server received first
    // wins, and the other is re-checked against the new state. Duplicated requests are
    // refused without effect.
    let Table { srv, base, alice, bob, _dir, .. } = Table::new().await;
    let mut orders = std::collections::HashSet::new();
    for round in 0..6 {
        let room = started_room(&alice, &bob, space_box(5)).await;
        played(&alice, &bob, room, mv(1, 1, 1), 1).await;
        // Duplicates: the same acknowledgement or request twice.
        let (status, body) = bob.cmd(room, json!({"type": "acknowledge", "move_number": 1})).await;
        assert_eq!((status, body["error"].as_str()), (409, Some("nothing_to_acknowledge")));
        played(&bob, &alice, room, mv(5, 5, 5), 2).await;
        bob.ok(room, json!({"type": "request_undo"})).await;
        let (status, body) = bob.cmd(room, json!({"type": "request_undo"})).await;
        assert_eq!((status, body["error"].as_str()), (409, Some("undo_not_allowed")));
        // Alice answers and moves at once.
        let (answer, moved) = if round % 2 == 0 {
            tokio::join!(alice.cmd(room, json!({"type": "answer_undo", "accept": true})), alice.cmd(room, mv(2, 2, 2)))
        } else {
            let (m, a) = tokio::join!(
                alice.cmd(room, mv(2, 2, 2)),
                alice.cmd(room, json!({"type": "answer_undo", "accept": true}))
            );
            (a, m)
        };
        let log = alice.get_json(&format!("/api/v1/rooms/{room}/events?after=0")).await;
        let kinds: Vec<&str> = log.as_array().unwrap().iter().map(|e| e["event"]["type"].as_str().unwrap()).collect();
        let undone = kinds.contains(&"undo_accepted");
        let cancelled = kinds.contains(&"undo_cancelled");
        assert!(undone != cancelled, "exactly one order happened: {kinds:?}");
        if undone {
            // Answer first: the stone is gone and it is White's turn again, so the move is refused.
            assert_eq!(answer.0, 200);
            assert_eq!((moved.0, moved.1["error"].as_str()), (409, Some("not_your_turn")), "{moved:?}");
            assert_eq!(view(&base, room).await["move_number"], 1);
        } else {
            // Move first: it cancels the request, so there is nothing left to answer.
            assert_eq!(moved.0, 200);
            assert_eq!((answer.0, answer.1["error"].as_str()), (409, Some("no_pending_request")), "{answer:?}");
            assert_eq!(view(&base, room).await["move_number"], 3);
        }
        orders.insert(undone);
    }
    srv.stop().await;
    // Both orders are legitimate; the check above holds whichever arrived first.
    assert!(!orders.is_empty());
}

#[tokio::test]
async fn classic_draw_offers_and_the_scoring_deadline_over_http() {
    // 000 §8.2 draw offers; 000 §5.5, §8.5 the scoring deadline agrees the current marks.
    let Table { clock, srv, base, alice, bob, _dir, .. } = Table::new().await;
    let dave = Player::sign_up(&base, "dave").await;
    let room = started_room(&alice, &bob, classic_9(ColourAssignment::HostBlack)).await;

    alice.ok(room, json!({"type": "offer_draw"})).await;
    let (status, body) = dave.cmd(room, json!({"type": "answer_draw", "accept": true})).await;
    assert_eq!((status, body["error"].as_str()), (403, Some("not_a_player")));
    assert_eq!(view(&base, room).await["draw_offer_by"], "black");
    bob.ok(room, json!({"type": "answer_draw", "accept": false})).await;
    let (status, body) = alice.cmd(room, json!({"type": "offer_draw"})).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("draw_offer_not_allowed")), "five own moves first");

    // Two passes into scoring; Black marks White's stone; nobody agrees in time.
    played(&alice, &bob, room, mv(3, 3, 1), 1).await;
    played(&bob, &alice, room, mv(7, 7, 1), 2).await;
    played(&alice, &bob, room, json!({"type": "pass"}), 3).await;
    bob.ok(room, json!({"type": "pass"})).await;
    alice.ok(room, json!({"type": "mark", "at": {"x": 7, "y": 7, "z": 1}, "kind": "dead"})).await;
    let n = view(&base, room).await["scoring"]["statement"].as_u64().unwrap();
    clock.advance_ms(179_000);
    assert_eq!(view(&base, room).await["phase"], "scoring");
    clock.advance_ms(1_000);
    let v = until_view(&alice, room, |v| v["phase"] == "finished").await;
    assert_eq!((v["result"]["statement"].as_u64(), v["result"]["winner"].as_str()), (Some(n), Some("black")));
    srv.stop().await;
}
