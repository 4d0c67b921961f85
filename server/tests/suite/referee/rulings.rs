//! Disputes ruled, objected, re-ruled and reviewed; regions ruled neutral; calls; cancelled time losses; corrections; damaged records.

use super::*;

#[tokio::test]
async fn a_space_dispute_is_queued_claimed_ruled_objected_reruled_reviewed_and_final() {
    let t = Table::new().await;
    let referee = admin(&t.srv, "referee").await;
    let second = Player::sign_up(&t.base, "second_admin").await;
    let room = space_in_scoring(&t).await;
    // White marks Black's chain dead; Black disputes (003 §3.6): nothing is removed.
    t.bob.ok(room, json!({"type": "mark", "at": at(2, 1, 1), "kind": "dead"})).await;
    t.alice
        .ok(
            room,
            json!({"type": "state_opinion", "at": at(2, 2, 1), "opinion": "alive",
        "reasons": "two separate eyes at 1,1,1 and 3,1,1"}),
        )
        .await;
    t.bob
        .ok(
            room,
            json!({"type": "state_opinion", "at": at(2, 1, 1), "opinion": "dead",
        "reasons": "the eyes can be filled from above"}),
        )
        .await;
    t.alice.ok(room, json!({"type": "dispute", "reason": "my chain lives"})).await;
    let v = view(&t.base, room).await;
    assert_eq!(v["phase"], "held");
    assert_eq!(v["referee"]["opinions"].as_array().unwrap().len(), 2, "both players' opinions: {v}");
    let q = queue(&referee).await;
    assert_eq!(kinds_in(&q, room), ["scoring_dispute"]);

    // Claims: one administrator takes it; the other sees the claim and cannot take it.
    let (status, e) =
        referee.post("/api/v1/admin/queue/claim", json!({"room_id": room, "kind": "scoring_dispute"})).await;
    assert_eq!((status, e["claimed_by"].as_str()), (200, Some("referee")), "{e}");
    // A player is no administrator, whatever they try.
    let (status, e) =
        t.alice.post("/api/v1/admin/queue/claim", json!({"room_id": room, "kind": "scoring_dispute"})).await;
    assert_eq!((status, e["error"].as_str()), (403, Some("admin_only")));
    let _ = second; // a player account: only the setup link makes administrators
    assert!(notices(&t.alice).await.contains(&"item_claimed".to_string()));

    // The header's badges: the queue's length for administrators only, the unread count for
    // anyone signed in, nothing for a visitor.
    let mine = badges(&t.alice).await;
    let unread = t.alice.get_json("/api/v1/notifications").await["unread"].clone();
    assert!(unread.as_i64().unwrap() >= 1, "alice has unread notices");
    assert_eq!(mine["unread"], unread, "the bell counts what the notifications page lists as unread: {mine}");
    assert_eq!(mine["queue"], Value::Null, "a player is not shown the queue: {mine}");
    assert_eq!(badges(&referee).await["queue"], 1);
    assert_eq!(badges(&Player::new(&t.base)).await, Value::Null);

    // The desk lists the chain with its coordinates and its two life-space candidates.
    let desk = referee.get_json(&format!("/api/v1/admin/rooms/{room}/desk")).await;
    assert_documented("DeskView", &desk);
    let chain = desk["chains"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["stones"].as_array().unwrap().contains(&at(2, 1, 1)))
        .cloned()
        .expect("black chain listed");
    assert_eq!(chain["life_spaces"].as_array().unwrap().len(), 2, "{chain}");
    assert_eq!(chain["mark"], "dead");
    assert!(!desk["timeline"].as_array().unwrap().is_empty());

    // Alive with one cited space is refused, naming the chain and what is missing.
    let rule = |chains: Value, reasons: &str| json!({"type": "admin_ruling", "chains": chains, "reasons": reasons});
    let one = json!([{"at": at(2, 1, 1), "verdict": {"kind": "alive", "spaces": [at(1, 1, 1)]}}]);
    let (status, e) = referee.cmd(room, rule(one, "one eye")).await;
    assert_eq!((status, e["error"].as_str()), (422, Some("bad_ruling")), "{e}");
    assert_eq!(e["detail"]["why"]["code"], "needs_two_safe_spaces", "{e}");
    assert_eq!((e["detail"]["why"]["cited"].as_u64(), e["detail"]["why"]["candidates"].as_u64()), (Some(1), Some(2)));
    let not_space = json!([{"at": at(2, 1, 1), "verdict": {"kind": "alive", "spaces": [at(1, 1, 1), at(3, 3, 3)]}}]);
    let (status, e) = referee.cmd(room, rule(not_space, "x")).await;
    assert_eq!((status, e["detail"]["why"]["code"].as_str()), (422, Some("not_a_life_space")), "{e}");
    // A player cannot rule.
    let two = json!([{"at": at(2, 1, 1), "verdict": {"kind": "alive", "spaces": [at(1, 1, 1), at(3, 1, 1)]}}]);
    let (status, e) = t.alice.cmd(room, rule(two.clone(), "mine")).await;
    assert_eq!((status, e["error"].as_str()), (403, Some("admin_only")));
    referee.ok(room, rule(two, "two independent safe spaces: 1,1,1 and 3,1,1 (003 §3.2)")).await;
    let v = view(&t.base, room).await;
    assert_eq!(v["phase"], "scoring");
    let ruling = &v["referee"]["rulings"][0];
    assert_eq!(ruling["reasons"], "two independent safe spaces: 1,1,1 and 3,1,1 (003 §3.2)");
    assert_eq!(ruling["chains"][0]["verdict"]["spaces"][1], at(3, 1, 1));
    assert!(v["scoring"]["marks"].as_array().unwrap().is_empty(), "the dead mark is gone: {v}");
    let n1 = v["scoring"]["statement"].as_u64().unwrap();
    assert_eq!(v["scoring"]["consents"], json!([null, null]));
    assert!(notices(&t.bob).await.contains(&"ruling".to_string()));

    // White objects once; the room waits for review; a second objection is refused.
    t.bob.ok(room, json!({"type": "object_to_ruling", "reasons": "the eye at 3,1,1 is false"})).await;
    let v = view(&t.base, room).await;
    assert_eq!((v["phase"].as_str(), v["hold"]["kind"].as_str()), (Some("held"), Some("ruling_objection")));
    assert_eq!(kinds_in(&queue(&referee).await, room), ["ruling_objection"]);
    let (status, e) = t.bob.cmd(room, json!({"type": "object_to_ruling", "reasons": "again"})).await;
    assert_eq!((status, e["error"].as_str()), (409, Some("wrong_phase")), "held: {e}");
    // Confirmed with reasons: a new statement, consents cleared.
    referee.ok(room, json!({"type": "admin_confirm_ruling", "reasons": "3,1,1 is bordered by the chain alone"})).await;
    let v = view(&t.base, room).await;
    let n2 = v["scoring"]["statement"].as_u64().unwrap();
    assert!(n2 > n1);
    assert_eq!(v["referee"]["rulings"][0]["confirmed"], "3,1,1 is bordered by the chain alone");
    let (status, e) = t.bob.cmd(room, json!({"type": "object_to_ruling", "reasons": "again"})).await;
    assert_eq!((status, e["detail"]["why"]["code"].as_str()), (409, Some("already_objected")), "{e}");

    // Both consent: Space needs the administrator's review first (003 §2.7).
    t.alice.ok(room, json!({"type": "consent", "statement": n2})).await;
    t.bob.ok(room, json!({"type": "consent", "statement": n2})).await;
    let v = view(&t.base, room).await;
    assert_eq!(v["phase"], "awaiting_review");
    assert_eq!(kinds_in(&queue(&referee).await, room), ["awaiting_review"]);
    let (status, _) =
        t.alice.cmd(room, json!({"type": "admin_confirm_statement", "statement": n2, "reasons": "x"})).await;
    assert_eq!(status, 403);
    referee.ok(room, json!({"type": "admin_confirm_statement", "statement": n2, "reasons": "counted: correct"})).await;
    let v = view(&t.base, room).await;
    assert_eq!((v["phase"].as_str(), v["result"]["statement"].as_u64()), (Some("finished"), Some(n2)));
    assert!(kinds_in(&queue(&referee).await, room).is_empty(), "nothing left in the queue");
    assert!(notices(&t.alice).await.contains(&"decision".to_string()));
    // The rulings are in the stored record.
    let (status, record) = t.alice.get(&format!("/api/v1/rooms/{room}/record")).await;
    assert_eq!(status, 200);
    assert!(record.contains("two independent safe spaces") && record.contains("ruling_confirmed"));
    t.srv.stop().await;
}

#[tokio::test]
async fn a_region_ruled_neutral_changes_the_score() {
    // 003 §4.2: mere contact does not award territory.
    let t = Table::new().await;
    let referee = admin(&t.srv, "referee").await;
    let room = started_room(&t.alice, &t.bob, classic_9(wire::settings::ColourAssignment::HostBlack)).await;
    played(&t.alice, &t.bob, room, mv(5, 5, 1), 1).await;
    played(&t.bob, &t.alice, room, json!({"type": "pass"}), 2).await;
    t.alice.ok(room, json!({"type": "pass"})).await;
    let v = view(&t.base, room).await;
    assert_eq!(v["scoring"]["score"]["black"]["territory"], 80, "{v}");
    t.bob.ok(room, json!({"type": "dispute", "reason": "one stone cannot hold the board"})).await;
    referee
        .ok(
            room,
            json!({"type": "admin_ruling", "chains": [], "regions": [{"at": at(1, 1, 1), "verdict": "neutral"}],
            "reasons": "not safe from invasion (003 §4.2)"}),
        )
        .await;
    let v = view(&t.base, room).await;
    assert_eq!(v["scoring"]["score"]["black"]["territory"], 0, "{v}");
    assert_eq!(v["scoring"]["score"]["neutral"][2], 80);
    assert_eq!(v["scoring"]["marks"][0]["kind"], "neutral");
    // A region ruling names an empty point.
    let (status, e) = referee
        .cmd(
            room,
            json!({"type": "admin_ruling", "chains": [], "regions": [{"at": at(5, 5, 1), "verdict": "neutral"}],
            "reasons": "x"}),
        )
        .await;
    assert_eq!((status, e["detail"]["why"]["code"].as_str()), (422, Some("not_empty")), "{e}");
    t.srv.stop().await;
}

#[tokio::test]
async fn a_call_during_play_holds_the_clocks_until_both_are_ready() {
    // 003 §1.4: clocks stop; play resumes after the decision and both players' Ready.
    let t = Table::new().await;
    let referee = admin(&t.srv, "referee").await;
    let room = started_room(&t.alice, &t.bob, space_box(5)).await;
    played(&t.alice, &t.bob, room, mv(1, 1, 1), 1).await;
    t.clock.advance_ms(10_000);
    t.bob.ok(room, json!({"type": "call_administrator", "reason": "the special rule contradicts §2.3"})).await;
    let held = view(&t.base, room).await;
    assert_eq!((held["phase"].as_str(), held["hold"]["kind"].as_str()), (Some("held"), Some("player_call")));
    assert_eq!(kinds_in(&queue(&referee).await, room), ["player_call"]);
    t.clock.advance_ms(600_000);
    let later = view(&t.base, room).await;
    assert_eq!(later["clocks"]["main_ms"], held["clocks"]["main_ms"], "the clocks stopped");
    let (status, _) = t.bob.cmd(room, mv(2, 2, 2)).await;
    assert_eq!(status, 409);
    referee.ok(room, json!({"type": "admin_resume", "reasons": "the common rule applies (003 §1.4)"})).await;
    assert_eq!(view(&t.base, room).await["phase"], "waiting_ready");
    assert!(notices(&t.bob).await.contains(&"resume_notice".to_string()));
    t.alice.ok(room, json!({"type": "ready"})).await;
    t.bob.ok(room, json!({"type": "ready"})).await;
    played(&t.bob, &t.alice, room, mv(2, 2, 2), 2).await;
    assert!(kinds_in(&queue(&referee).await, room).is_empty());
    t.srv.stop().await;
}

#[tokio::test]
async fn a_cancelled_time_loss_restores_board_turn_and_both_clocks() {
    // 003 §5.7: objection within seven days; under review; cancelled → restored, held
    // until both are Ready; an upheld one stands; a late one is refused.
    let t = Table::new().await;
    let referee = admin(&t.srv, "referee").await;
    let room = started_room(&t.alice, &t.bob, space_box(5)).await;
    played(&t.alice, &t.bob, room, mv(1, 1, 1), 1).await;
    t.clock.advance_ms(120_000);
    played(&t.bob, &t.alice, room, mv(5, 5, 5), 2).await;
    t.clock.advance_ms(60_000);
    played(&t.alice, &t.bob, room, mv(2, 2, 2), 3).await;
    let before = view(&t.base, room).await;
    // White's hour runs out (White had used two minutes).
    t.clock.advance_ms(3_600_000);
    let v = until_view(&t.alice, room, |v| v["phase"] == "finished").await;
    assert_eq!((v["result"]["reason"].as_str(), v["result"]["winner"].as_str()), (Some("time"), Some("black")), "{v}");
    let (status, e) = t.bob.cmd(room, json!({"type": "object_to_time_loss", "reasons": ""})).await;
    assert_eq!((status, e["error"].as_str()), (400, Some("invalid_input")));
    t.bob.ok(room, json!({"type": "object_to_time_loss", "reasons": "my device showed move 3 only at the end"})).await;
    let v = view(&t.base, room).await;
    assert_eq!(v["under_review"], true);
    assert_eq!(kinds_in(&queue(&referee).await, room), ["time_loss_objection"]);
    let desk = referee.get_json(&format!("/api/v1/admin/rooms/{room}/desk")).await;
    let timeline = desk["timeline"].as_array().unwrap();
    assert!(timeline.iter().any(|e| e["kind"] == "move_acknowledged"));
    assert!(timeline.iter().any(|e| e["kind"] == "time_expired"));
    let (status, _) =
        t.bob.cmd(room, json!({"type": "admin_time_loss_decision", "cancel": true, "reasons": "x"})).await;
    assert_eq!(status, 403);
    referee
        .ok(
            room,
            json!({"type": "admin_time_loss_decision", "cancel": true,
            "reasons": "move 3 was acknowledged late by the server (timeline)"}),
        )
        .await;
    let v = view(&t.base, room).await;
    assert_eq!(v["phase"], "waiting_ready");
    assert_eq!(
        (v["stones"].clone(), v["to_move"].clone(), v["move_number"].clone()),
        (before["stones"].clone(), before["to_move"].clone(), before["move_number"].clone())
    );
    assert_eq!(v["clocks"]["main_ms"], before["clocks"]["main_ms"], "both clocks as at the start of White's turn");
    assert_eq!(v["result"], Value::Null);
    assert_eq!(v["under_review"], false);
    t.alice.ok(room, json!({"type": "ready"})).await;
    t.bob.ok(room, json!({"type": "ready"})).await;
    played(&t.bob, &t.alice, room, mv(4, 4, 4), 4).await;

    // Upheld: the result stands with the decision and its reasons attached.
    let room3 = started_room(&t.alice, &t.bob, space_box(5)).await;
    t.clock.advance_ms(3_600_001);
    until_view(&t.alice, room3, |v| v["phase"] == "finished").await;
    t.alice.ok(room3, json!({"type": "object_to_time_loss", "reasons": "I was on the move"})).await;
    referee
        .ok(
            room3,
            json!({"type": "admin_time_loss_decision", "cancel": false,
            "reasons": "no move was received before the deadline (timeline)"}),
        )
        .await;
    let v = view(&t.base, room3).await;
    assert_eq!((v["phase"].as_str(), v["result"]["reason"].as_str()), (Some("finished"), Some("time")));
    assert_eq!(v["referee"]["time_loss"]["cancelled"], false);
    assert_eq!(v["referee"]["time_loss"]["reasons"], "no move was received before the deadline (timeline)");
    assert_eq!(v["under_review"], false);
    assert!(kinds_in(&queue(&referee).await, room3).is_empty());

    // Late: eight days after the end.
    let room2 = started_room(&t.alice, &t.bob, space_box(5)).await;
    t.clock.advance_ms(3_600_001);
    until_view(&t.alice, room2, |v| v["phase"] == "finished").await;
    t.clock.advance_ms(8 * 86_400_000);
    let (status, e) = t.alice.cmd(room2, json!({"type": "object_to_time_loss", "reasons": "late"})).await;
    assert_eq!((status, e["detail"]["why"]["code"].as_str()), (409, Some("too_late")), "{e}");
    t.srv.stop().await;
}

/// A Classic 9×9 game ended by two consents (no review there): Black 5,5 alone.
async fn classic_finished(t: &Table) -> i64 {
    let room = started_room(&t.alice, &t.bob, classic_9(wire::settings::ColourAssignment::HostBlack)).await;
    played(&t.alice, &t.bob, room, mv(5, 5, 1), 1).await;
    played(&t.bob, &t.alice, room, json!({"type": "pass"}), 2).await;
    t.alice.ok(room, json!({"type": "pass"})).await;
    let n = view(&t.base, room).await["scoring"]["statement"].as_u64().unwrap();
    t.alice.ok(room, json!({"type": "consent", "statement": n})).await;
    t.bob.ok(room, json!({"type": "consent", "statement": n})).await;
    assert_eq!(view(&t.base, room).await["phase"], "finished");
    room
}

#[tokio::test]
async fn a_correction_applies_after_two_renewed_consents_and_a_refusal_keeps_the_original() {
    // 003 §4.7.
    let t = Table::new().await;
    let referee = admin(&t.srv, "referee").await;
    let room = classic_finished(&t).await;
    let original = view(&t.base, room).await["result"].clone();
    let (status, _) = t.alice.cmd(room, json!({"type": "pass"})).await;
    assert_eq!(status, 409, "ordinary play stays blocked after the end");
    t.bob.ok(room, json!({"type": "request_correction", "reasons": "komi was entered wrongly"})).await;
    assert_eq!(view(&t.base, room).await["under_review"], true);
    assert_eq!(kinds_in(&queue(&referee).await, room), ["correction_request"]);
    let propose = json!({"type": "admin_propose_correction", "reasons": "komi error: White wins by resignation",
        "correction": {"kind": "result", "result": {"reason": "resign", "winner": "white"}}});
    let (status, _) = t.bob.cmd(room, propose.clone()).await;
    assert_eq!(status, 403);
    referee.ok(room, propose.clone()).await;
    assert!(kinds_in(&queue(&referee).await, room).is_empty(), "waiting for the players now");
    assert!(notices(&t.alice).await.contains(&"correction_awaits_consent".to_string()));
    t.alice.ok(room, json!({"type": "answer_correction", "accept": true})).await;
    assert_eq!(view(&t.base, room).await["result"], original, "one consent is not enough");
    t.bob.ok(room, json!({"type": "answer_correction", "accept": true})).await;
    let v = view(&t.base, room).await;
    assert_eq!((v["result"]["reason"].as_str(), v["result"]["winner"].as_str()), (Some("resign"), Some("white")));
    let history = &v["referee"]["corrections"][0];
    assert_eq!(history["original"]["winner"], original["winner"]);
    assert_eq!(history["reasons"], "komi error: White wins by resignation");
    assert_eq!(v["under_review"], false);

    // Refused: the original stays and the item returns to the queue; closing keeps it too.
    let room = classic_finished(&t).await;
    let original = view(&t.base, room).await["result"].clone();
    referee.ok(room, json!({"type": "request_correction", "reasons": "checking the count"})).await;
    referee.ok(room, propose).await;
    t.alice.ok(room, json!({"type": "answer_correction", "accept": false})).await;
    let (status, _) = t.bob.cmd(room, json!({"type": "answer_correction", "accept": true})).await;
    assert_eq!(status, 409, "nothing left to answer");
    assert_eq!(view(&t.base, room).await["result"], original);
    assert_eq!(kinds_in(&queue(&referee).await, room), ["correction_request"]);
    referee.ok(room, json!({"type": "admin_close_correction", "reasons": "Black refused; the count stands"})).await;
    let v = view(&t.base, room).await;
    assert_eq!((v["result"].clone(), v["referee"]["corrections"][0]["corrected"].clone()), (original, Value::Null));
    t.srv.stop().await;
}

#[tokio::test]
async fn a_damaged_log_is_queued_held_and_repaired() {
    // 003 §6.2: not silently skipped; held with clocks stopped; repaired from the last
    // event that replays; it stays repaired across restarts.
    let dir = tempfile::tempdir().unwrap();
    let (clock, shared) = manual_clock();
    let srv = Running::start_with_clock(dir.path(), shared.clone()).await;
    let referee = admin(&srv, "referee").await;
    let (alice, bob) = (Player::sign_up(&srv.base, "alice").await, Player::sign_up(&srv.base, "bob").await);
    let room = started_room(&alice, &bob, space_box(5)).await;
    played(&alice, &bob, room, mv(1, 1, 1), 1).await;
    played(&bob, &alice, room, mv(5, 5, 5), 2).await;
    let good = view(&srv.base, room).await;
    played(&alice, &bob, room, mv(2, 2, 2), 3).await;
    srv.stop().await;
    // Damage: Black's third move is rewritten onto an occupied point.
    let db = RawDb::open(dir.path()).await;
    let seq: i64 = db
        .scalar(
            "SELECT seq FROM match_events WHERE room_id = $1 AND kind = 'move_played' ORDER BY seq DESC LIMIT 1",
            &[room],
        )
        .await;
    db.exec(
        "UPDATE match_events SET body = json_set(body, '$.at.x', 1, '$.at.y', 1, '$.at.z', 1) WHERE room_id = $1 AND seq = $2",
        "UPDATE match_events SET body = jsonb_set(body::jsonb, '{at}', '{\"x\": 1, \"y\": 1, \"z\": 1}'::jsonb)::text \
         WHERE room_id = $1 AND seq = $2",
        &[room, seq],
    )
    .await;
    db.close().await;
    clock.advance_ms(60_000);
    let srv = Running::start_with_clock(dir.path(), shared.clone()).await;
    let referee = referee.at(&srv.base);
    let (alice, bob) = (alice.at(&srv.base), bob.at(&srv.base));
    let v = view(&srv.base, room).await;
    assert_eq!((v["phase"].as_str(), v["hold"]["kind"].as_str()), (Some("held"), Some("damaged_record")), "{v}");
    assert_eq!(v["hold"]["seq"], seq);
    assert_eq!(v["stones"], good["stones"], "the room as the events before the damage left it");
    assert_eq!(kinds_in(&queue(&referee).await, room), ["damaged_record"]);
    let (status, e) = alice.cmd(room, json!({"type": "ready"})).await;
    assert_eq!((status, e["error"].as_str()), (409, Some("record_damaged")), "{e}");
    let (status, e) = referee.cmd(room, json!({"type": "admin_decide", "winner": null, "reasons": "x"})).await;
    assert_eq!((status, e["error"].as_str()), (409, Some("record_damaged")), "repair first: {e}");
    let (status, _) = alice.cmd(room, json!({"type": "admin_repair", "reasons": "x"})).await;
    assert_eq!(status, 403);
    referee.ok(room, json!({"type": "admin_repair", "reasons": "resume from move 2; move 3 is unreadable"})).await;
    let v = view(&srv.base, room).await;
    assert_eq!(v["phase"], "waiting_ready");
    assert_eq!(v["move_number"], 2);
    srv.stop().await;
    // Restarted again: the set-aside event is skipped, the room replays.
    let srv = Running::start_with_clock(dir.path(), shared).await;
    let (alice, bob) = (alice.at(&srv.base), bob.at(&srv.base));
    alice.ok(room, json!({"type": "ready"})).await;
    bob.ok(room, json!({"type": "ready"})).await;
    played(&alice, &bob, room, mv(3, 3, 3), 3).await;
    assert_eq!(view(&srv.base, room).await["move_number"], 3);
    srv.stop().await;
}
