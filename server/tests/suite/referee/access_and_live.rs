//! Who may act as the administrator, the administrators' stream, and faults and consents during live play.

use super::*;

#[tokio::test]
async fn only_an_administrator_may_do_what_an_administrator_does() {
    // Every administrator action, tried by an anonymous visitor, a signed-in stranger, a
    // spectator following the room, each player and an administrator: only the last passes
    // the authorization (it may still be refused for the room's phase, never as forbidden).
    let t = Table::new().await;
    let referee = admin(&t.srv, "referee").await;
    let stranger = Player::sign_up(&t.base, "stranger").await;
    let spectator = Player::sign_up(&t.base, "spectator").await;
    let room = started_room(&t.alice, &t.bob, space_box(5)).await;
    let _watching = spectator.stream(room, 0).await;
    let r = "reasons";
    let commands = [
        json!({"type": "admin_hold", "reasons": r}),
        json!({"type": "admin_resume", "reasons": r}),
        json!({"type": "admin_ruling", "chains": [{"at": at(1, 1, 1), "verdict": {"kind": "dead"}}], "reasons": r}),
        json!({"type": "admin_confirm_ruling", "reasons": r}),
        json!({"type": "admin_confirm_statement", "statement": 1, "reasons": r}),
        json!({"type": "admin_time_loss_decision", "cancel": true, "reasons": r}),
        json!({"type": "admin_propose_correction", "reasons": r,
            "correction": {"kind": "result", "result": {"reason": "resign", "winner": "white"}}}),
        json!({"type": "admin_close_correction", "reasons": r}),
        json!({"type": "admin_repair", "reasons": r}),
        json!({"type": "admin_decide", "winner": null, "reasons": r}),
    ];
    let anonymous = Player::new(&t.base);
    for c in &commands {
        assert_eq!(anonymous.cmd(room, c).await.0, 401, "anonymous: {c}");
        for (who, p) in [("stranger", &stranger), ("spectator", &spectator), ("black", &t.alice), ("white", &t.bob)] {
            let (status, e) = p.cmd(room, c).await;
            assert_eq!((status, e["error"].as_str()), (403, Some("admin_only")), "{who}: {c}");
        }
        let (status, e) = referee.cmd(room, c).await;
        assert!(status != 401 && status != 403, "administrator: {c} → {status} {e}");
    }
    // The administrator's routes.
    for path in ["/api/v1/admin/queue", &format!("/api/v1/admin/rooms/{room}/desk"), "/api/v1/admin/attention"] {
        assert_eq!(anonymous.get(path).await.0, 401, "{path}");
        for p in [&stranger, &spectator, &t.alice, &t.bob] {
            assert_eq!(p.get(path).await.0, 403, "{path}");
        }
        assert_eq!(referee.get(path).await.0, 200, "{path}");
    }
    let claim = json!({"room_id": room, "kind": "administrator_hold"});
    assert_eq!(anonymous.post("/api/v1/admin/queue/claim", &claim).await.0, 401);
    assert_eq!(t.alice.post("/api/v1/admin/queue/claim", &claim).await.0, 403);
    // The administrator's live queue refuses anyone else before the upgrade.
    let ws = t.base.replace("http", "ws") + "/api/v1/admin/stream";
    assert!(tokio_tungstenite_connect(&ws).await.is_err(), "anonymous admin stream refused");
    // Notifications are per user and need a session.
    assert_eq!(anonymous.get("/api/v1/notifications").await.0, 401);
    t.srv.stop().await;
}

async fn tokio_tungstenite_connect(url: &str) -> Result<(), ()> {
    testclient::tokio_tungstenite::connect_async(url).await.map(|_| ()).map_err(|_| ())
}

#[tokio::test]
async fn the_administrators_stream_sends_the_queue_at_once_and_after_each_change() {
    let t = Table::new().await;
    let referee = admin(&t.srv, "referee").await;
    let room = started_room(&t.alice, &t.bob, space_box(5)).await;
    let mut ws = admin_stream(&referee, &t.base).await;
    let first = next_json(&mut ws).await.unwrap();
    assert_eq!((first["type"].as_str(), first["items"].as_array().map(Vec::len)), (Some("queue"), Some(0)));
    t.alice.ok(room, json!({"type": "call_administrator", "reason": "a fault"})).await;
    let second = next_json(&mut ws).await.unwrap();
    assert_eq!(kinds_in(second["items"].as_array().unwrap(), room), ["player_call"]);
    t.srv.stop().await;
}

#[tokio::test]
async fn a_disconnection_in_scoring_suspends_consents_then_queues_the_room() {
    // 003 §4.6, §6.1: consent processing is suspended; after five minutes the room is held
    // and queued; a consent given before stays only while the statement is unchanged.
    let t = Table::new().await;
    let referee = admin(&t.srv, "referee").await;
    let room = space_in_scoring(&t).await;
    let n = view(&t.base, room).await["scoring"]["statement"].as_u64().unwrap();
    t.alice.ok(room, json!({"type": "consent", "statement": n})).await;
    let ws = t.bob.stream(room, 0).await;
    until_view(&t.alice, room, |v| v["watchers"].as_u64() >= Some(1)).await;
    drop(ws);
    until_view(&t.alice, room, |v| v["faults"][1]["cause"] == "disconnected").await;
    let (status, e) = t.bob.cmd(room, json!({"type": "consent", "statement": n})).await;
    assert_eq!((status, e["error"].as_str()), (409, Some("suspended")), "{e}");
    assert_eq!(view(&t.base, room).await["scoring"]["consents"][0], n, "Black's consent stands meanwhile");
    t.clock.advance_ms(300_000);
    let v = until_view(&t.alice, room, |v| v["phase"] == "held").await;
    assert_eq!(v["hold"]["kind"], "disconnection");
    assert_eq!(kinds_in(&queue(&referee).await, room), ["connection_hold"]);
    t.srv.stop().await;
}

#[tokio::test]
async fn the_clock_keeps_running_after_an_illegal_attempt() {
    // 003 §2.5, §8.6: an illegal attempt is recorded and refused; the mover's time runs on.
    let t = Table::new().await;
    let room = started_room(&t.alice, &t.bob, space_box(5)).await;
    played(&t.alice, &t.bob, room, mv(1, 1, 1), 1).await;
    t.clock.advance_ms(5_000);
    let (status, e) = t.bob.cmd(room, mv(1, 1, 1)).await;
    assert_eq!((status, e["detail"]["reason"].as_str()), (422, Some("occupied")), "{e}");
    t.clock.advance_ms(5_000);
    let v = view(&t.base, room).await;
    assert_eq!((v["clocks"]["running"].as_str(), v["illegal_attempts"].as_u64()), (Some("white"), Some(1)));
    assert_eq!(v["clocks"]["main_ms"][1], 3_600_000 - 10_000, "ten seconds charged to White");
    t.srv.stop().await;
}

#[tokio::test]
async fn a_consent_survives_a_reconnection_when_the_statement_is_unchanged() {
    // 003 §4.6: the consent binds to its number; coming back in time changes nothing.
    let t = Table::new().await;
    let room = space_in_scoring(&t).await;
    let n = view(&t.base, room).await["scoring"]["statement"].as_u64().unwrap();
    t.alice.ok(room, json!({"type": "consent", "statement": n})).await;
    let ws = t.bob.stream(room, 0).await;
    until_view(&t.alice, room, |v| v["watchers"].as_u64() >= Some(1)).await;
    drop(ws);
    until_view(&t.alice, room, |v| v["faults"][1]["cause"] == "disconnected").await;
    t.clock.advance_ms(200_000);
    let _back = t.bob.stream(room, 0).await;
    let v = until_view(&t.alice, room, |v| v["faults"][1].is_null()).await;
    assert_eq!((v["phase"].as_str(), v["scoring"]["statement"].as_u64()), (Some("scoring"), Some(n)));
    assert_eq!(v["scoring"]["consents"][0], n, "Black's consent survived");
    t.bob.ok(room, json!({"type": "consent", "statement": n})).await;
    assert_eq!(view(&t.base, room).await["phase"], "awaiting_review");
    t.srv.stop().await;
}

#[tokio::test]
async fn time_expiry_and_a_disconnection_are_decided_in_the_order_the_server_received_them() {
    // 003 §10.4, §5.4, §6.1: expiry first — the loss stands and the disconnection after it
    // changes nothing; disconnection first — the clock stops, no loss, and after the wait
    // the game is held for the administrator.
    let t = Table::new().await;
    let room = started_room(&t.alice, &t.bob, space_box(5)).await;
    played(&t.alice, &t.bob, room, mv(1, 1, 1), 1).await;
    let ws = t.bob.stream(room, 0).await;
    until_view(&t.alice, room, |v| v["watchers"].as_u64() >= Some(1)).await;
    t.clock.advance_ms(3_600_000);
    until_view(&t.alice, room, |v| v["phase"] == "finished").await;
    drop(ws);
    t.clock.advance_ms(600_000);
    let v = view(&t.base, room).await;
    assert_eq!((v["result"]["reason"].as_str(), v["hold"].clone()), (Some("time"), Value::Null));

    let room = started_room(&t.alice, &t.bob, space_box(5)).await;
    played(&t.alice, &t.bob, room, mv(1, 1, 1), 1).await;
    let ws = t.bob.stream(room, 0).await;
    until_view(&t.alice, room, |v| v["watchers"].as_u64() >= Some(1)).await;
    t.clock.advance_ms(3_599_000);
    drop(ws);
    until_view(&t.alice, room, |v| v["faults"][1]["cause"] == "disconnected").await;
    t.clock.advance_ms(10_000);
    let v = view(&t.base, room).await;
    assert_eq!((v["phase"].as_str(), v["clocks"]["running"].clone()), (Some("playing"), Value::Null), "{v}");
    assert_eq!(v["clocks"]["main_ms"][1], 1_000, "White's last second is kept");
    t.clock.advance_ms(300_000);
    let v = until_view(&t.alice, room, |v| v["phase"] == "held").await;
    assert_eq!((v["hold"]["kind"].as_str(), v["result"].clone()), (Some("disconnection"), Value::Null));
    t.srv.stop().await;
}
