//! Conduct over the real server (HTTP and WebSocket, a real SQLite file, the manual clock;
//! 003 §5.6, §6.4–6.7): reports by players and signed-in spectators merged per person and
//! match, a hold while investigating, a warning, an appeal within seven days that suspends
//! the sanction and puts the result under review, the final decision, a second appeal
//! refused until an exception is opened; a spectator's viewing restricted on the stream and
//! the views; a void result; and who may do any of it.

use crate::support::*;
use serde_json::{json, Value};

const DAY_MS: i64 = 86_400_000;

async fn report(p: &Player, room: i64, about: Value, category: &str, seq: i64) -> (u16, Value) {
    let body = json!({"report": {"room_id": room, "about": about, "category": category,
        "description": "gives moves in the chat", "seq": seq}});
    p.post("/api/file_report", body).await
}

async fn server_fn(p: &Player, endpoint: &str, fields: &[(&str, &str)]) -> (u16, Value) {
    let (status, body) = p.form(&format!("/api/{endpoint}"), fields).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

async fn sanction(admin: &Player, body: Value) -> (u16, Value) {
    admin.post("/api/admin_sanction", body).await
}

async fn notices(p: &Player) -> Vec<String> {
    let v = p.get_json("/api/v1/notifications").await;
    v["items"].as_array().unwrap().iter().map(|n| n["kind"].as_str().unwrap().to_string()).collect()
}

fn mv(x: i64, y: i64) -> Value {
    json!({"type": "move", "at": {"x": x, "y": y, "z": 1}})
}

async fn audit_actions(admin: &Player, room: i64) -> Vec<String> {
    let v = admin.get_json(&format!("/api/v1/admin/audit?room={room}")).await;
    v.as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn report_hold_warning_appeal_review_decision_and_a_second_appeal_on_an_exception() {
    let Table { _dir, clock, srv, base, alice, bob } = Table::new().await;
    let referee = admin(&srv, "referee").await;
    let carol = Player::sign_up(&base, "carol").await;
    let nobody = Player::sign_up(&base, "nobody").await;
    let room = started_room(&alice, &bob, classic_9(wire::settings::ColourAssignment::HostBlack)).await;
    played(&alice, &bob, room, mv(3, 3), 1).await;
    // carol watches (signed in): she may report, and be reported.
    let _watch = carol.stream(room, 0).await;
    let version =
        until_view(&alice, room, |v| v["version"].as_i64().unwrap_or(0) > 0).await["version"].as_i64().unwrap();

    // Who may report: not anonymous, not an account that never watched, not about oneself,
    // not at an event the room does not have.
    let anonymous = Player::new(&base);
    let (status, e) = report(&anonymous, room, json!({"kind": "player", "colour": "white"}), "other", 1).await;
    assert_eq!((status, e["error"].as_str()), (401, Some("not_signed_in")), "{e}");
    let (status, e) = report(&nobody, room, json!({"kind": "player", "colour": "white"}), "other", 1).await;
    assert_eq!(
        (status, e["error"].as_str(), e["detail"]["why"]["code"].as_str()),
        (403, Some("report_refused"), Some("not_a_viewer")),
        "{e}"
    );
    let (status, e) = report(&alice, room, json!({"kind": "player", "colour": "black"}), "other", 1).await;
    assert_eq!((status, e["detail"]["why"]["code"].as_str()), (422, Some("yourself")), "{e}");
    let (status, e) = report(&alice, room, json!({"kind": "player", "colour": "white"}), "other", version + 5).await;
    assert_eq!((status, e["detail"]["why"]["code"].as_str()), (422, Some("no_such_event")), "{e}");
    assert_eq!(e["detail"]["why"]["max"].as_i64(), Some(version));
    let (status, e) = report(&alice, room, json!({"kind": "spectator", "username": "nobody"}), "other", 1).await;
    assert_eq!((status, e["detail"]["why"]["code"].as_str()), (422, Some("not_a_spectator")), "{e}");
    let (status, e) = alice
        .post(
            "/api/file_report",
            json!({"report": {"room_id": room, "about": {"kind": "match"},
            "category": "other", "description": "  ", "seq": 1}}),
        )
        .await;
    assert_eq!((status, e["detail"]["field"].as_str()), (400, Some("description")), "{e}");

    // Two reports about bob in this match merge into one case listing both reporters; a
    // report never stops the match.
    let (status, first) =
        report(&alice, room, json!({"kind": "player", "colour": "white"}), "abusive_behaviour", version).await;
    assert_eq!(status, 200, "{first}");
    let (status, second) =
        report(&carol, room, json!({"kind": "player", "colour": "white"}), "outside_assistance", 2).await;
    assert_eq!((status, &second), (200, &first), "one case per person and match");
    let (_, about_match) = report(&carol, room, json!({"kind": "match"}), "other", 2).await;
    assert_ne!(about_match, first, "the match itself is another case");
    assert_eq!(view(&base, room).await["phase"], "playing", "a report alone never stops the match");
    assert!(notices(&referee).await.contains(&"new_queue_item".to_string()));

    // Only administrators see the cases.
    let (status, e) = server_fn(&alice, "admin_report_cases", &[]).await;
    assert_eq!((status, e["error"].as_str()), (403, Some("admin_only")), "{e}");
    let (status, cases) = server_fn(&referee, "admin_report_cases", &[]).await;
    assert_eq!(status, 200, "{cases}");
    let case = cases.as_array().unwrap().iter().find(|c| c["id"] == first).cloned().unwrap();
    assert_eq!(case["subject"], "bob");
    assert_eq!(case["subject_colour"], "white");
    let reporters: Vec<&str> =
        case["reports"].as_array().unwrap().iter().map(|r| r["reporter"].as_str().unwrap()).collect();
    assert_eq!(reporters, ["alice", "carol"]);
    assert_eq!(case["reports"][1]["category"], "outside_assistance");
    assert_eq!(case["reports"][1]["seq"], 2);

    // The administrator holds the match while investigating: the clocks stop.
    referee.ok(room, json!({"type": "admin_hold", "reasons": "investigating a report"})).await;
    let held = view(&base, room).await;
    assert_eq!(held["phase"], "held");
    let clocks_at_hold = held["clocks"].clone();
    clock.advance_ms(60_000);
    assert_eq!(view(&base, room).await["clocks"]["main_ms"], clocks_at_hold["main_ms"], "no clock runs while held");

    // A player may not sanction; an administrator's sanction needs reasons; a sanction for
    // delay needs findings (003 §5.6).
    let warn = |reasons: &str, category: &str, findings: Value| {
        json!({"room_id": room, "target": {"kind": "player", "colour": "white"}, "penalty": "warning",
            "category": category, "reasons": reasons, "findings": findings, "case": first})
    };
    let (status, e) = sanction(&alice, warn("rude", "abusive_behaviour", Value::Null)).await;
    assert_eq!((status, e["error"].as_str()), (403, Some("admin_only")), "{e}");
    let (status, e) = sanction(&referee, warn(" ", "abusive_behaviour", Value::Null)).await;
    assert_eq!((status, e["detail"]["field"].as_str()), (400, Some("reasons")), "{e}");
    let (status, e) = sanction(&referee, warn("slow on purpose", "deliberate_delay", Value::Null)).await;
    assert_eq!((status, e["detail"]["why"]["code"].as_str()), (422, Some("findings_required")), "{e}");
    let spectator_penalty = json!({"room_id": room, "target": {"kind": "player", "colour": "white"},
        "penalty": "viewing_restricted", "category": "other", "reasons": "x"});
    let (status, e) = sanction(&referee, spectator_penalty).await;
    assert_eq!((status, e["detail"]["why"]["code"].as_str()), (422, Some("penalty_not_for_target")), "{e}");

    let (status, s) =
        sanction(&referee, warn("insults in the chat at moves 1–2", "abusive_behaviour", Value::Null)).await;
    assert_eq!(status, 200, "{s}");
    assert_eq!(
        (s["number"].as_u64(), s["penalty"].as_str(), s["status"].as_str()),
        (Some(1), Some("warning"), Some("in_force"))
    );
    let notice_ms = s["at_ms"].as_i64().unwrap();
    // The case is closed with the sanction; both reporters are told.
    for p in [&alice, &carol] {
        assert!(notices(p).await.contains(&"report_decided".to_string()));
    }
    let told = notices(&bob).await;
    assert!(told.contains(&"sanctioned".to_string()), "{told:?}");
    let (_, e) =
        server_fn(&referee, "admin_dismiss_report", &[("case", &first.to_string()), ("reasons", "again")]).await;
    assert_eq!(e["error"], "no_report_case", "a decided case is not open: {e}");
    // The warning is in the room, with reasons, for everyone who watches.
    let v = view(&base, room).await;
    assert_eq!(v["referee"]["sanctions"][0]["reasons"], "insults in the chat at moves 1–2");
    assert_eq!(v["referee"]["sanctions"][0]["name"], "bob");

    // Continuation approved: play resumes from the board, turn and time before the hold
    // once both players are Ready.
    referee.ok(room, json!({"type": "admin_resume", "reasons": "warning given; play on"})).await;
    assert_eq!(view(&base, room).await["phase"], "waiting_ready");
    alice.ok(room, json!({"type": "ready"})).await;
    bob.ok(room, json!({"type": "ready"})).await;
    let resumed = view(&base, room).await;
    assert_eq!((resumed["phase"].as_str(), resumed["to_move"].as_str()), (Some("playing"), Some("white")));
    assert_eq!(resumed["clocks"]["main_ms"], clocks_at_hold["main_ms"], "time as just before the hold");

    // The appeal: only the sanctioned player, with evidence, within seven days.
    let appeal = |evidence: &str| json!({"type": "appeal", "sanction": 1, "evidence": evidence});
    let (status, e) = alice.cmd(room, appeal("not me")).await;
    assert_eq!((status, e["error"].as_str()), (403, Some("not_your_sanction")), "{e}");
    let (status, e) = bob.cmd(room, json!({"type": "appeal", "sanction": 9, "evidence": "x"})).await;
    assert_eq!((status, e["error"].as_str()), (404, Some("no_sanction")), "{e}");
    clock.advance_ms(6 * DAY_MS);
    bob.ok(room, appeal("the chat log shows the words were my opponent's")).await;
    let mine = |p: &Player| {
        let p = p.clone();
        async move {
            let (status, list) = server_fn(&p, "my_sanctions", &[]).await;
            assert_eq!(status, 200, "{list}");
            list
        }
    };
    let list = mine(&bob).await;
    assert_eq!(list[0]["sanction"]["status"], "under_review", "suspended during review: {list}");
    assert_eq!(list[0]["appeal_refusal"]["code"], "under_review");
    assert!(mine(&alice).await.as_array().unwrap().is_empty(), "alice has no sanctions");
    let q = referee.get_json("/api/v1/admin/queue").await;
    assert!(q.as_array().unwrap().iter().any(|e| e["room_id"] == room && e["kind"] == "appeal"), "{q}");
    let (status, e) = bob.cmd(room, appeal("again")).await;
    assert_eq!((status, e["detail"]["why"]["code"].as_str()), (409, Some("under_review")), "{e}");

    // The decision applies with reasons, without the players' consent.
    let (status, e) =
        alice.cmd(room, json!({"type": "admin_decide_appeal", "sanction": 1, "uphold": true, "reasons": "x"})).await;
    assert_eq!((status, e["error"].as_str()), (403, Some("admin_only")), "{e}");
    referee
        .ok(
            room,
            json!({"type": "admin_decide_appeal", "sanction": 1, "uphold": true,
            "reasons": "the server's log shows bob's words"}),
        )
        .await;
    let list = mine(&bob).await;
    assert_eq!(list[0]["sanction"]["status"], "upheld");
    assert_eq!(list[0]["sanction"]["appeals"][0]["reasons"], "the server's log shows bob's words");
    assert!(notices(&bob).await.contains(&"appeal_decided".to_string()));
    // Every step is in the appellant's notifications, the reasons with them.
    let told = bob.get_json("/api/v1/notifications").await;
    let detail =
        |kind: &str| told["items"].as_array().unwrap().iter().find(|n| n["kind"] == kind).unwrap()["detail"].clone();
    assert_eq!(detail("appeal_decided"), "the server's log shows bob's words");
    assert_eq!(detail("appeal_received"), Value::Null);
    assert!(detail("sanctioned").as_str().is_some_and(|r| !r.is_empty()), "{told}");

    // A second appeal is refused, and so is a late one, until the administrator opens an
    // exception on new evidence (recorded with reasons).
    let (status, e) = bob.cmd(room, appeal("once more")).await;
    assert_eq!((status, e["detail"]["why"]["code"].as_str()), (409, Some("already_appealed")), "{e}");
    clock.advance_ms(2 * DAY_MS);
    let (_, e) = bob.cmd(room, appeal("once more")).await;
    assert_eq!(e["detail"]["why"]["code"], "already_appealed", "{e}");
    referee.ok(room, json!({"type": "admin_open_appeal", "sanction": 1, "reasons": "new chat log supplied"})).await;
    assert!(notices(&bob).await.contains(&"appeal_opened".to_string()));
    bob.ok(room, appeal("a full chat export")).await;
    referee
        .ok(
            room,
            json!({"type": "admin_decide_appeal", "sanction": 1, "uphold": false, "reasons": "the export clears bob"}),
        )
        .await;
    let list = mine(&bob).await;
    assert_eq!(list[0]["sanction"]["status"], "lifted");
    assert_eq!(list[0]["sanction"]["exceptions"][0]["reasons"], "new chat log supplied");
    assert!(list[0]["sanction"]["at_ms"].as_i64() == Some(notice_ms));

    // The other case is dismissed with reasons; its reporter is told.
    let (status, e) = server_fn(
        &referee,
        "admin_dismiss_report",
        &[("case", &about_match.to_string()), ("reasons", "nothing found")],
    )
    .await;
    assert_eq!(status, 200, "{e}");
    // An administrator sees bob's history; a player does not.
    let bob_id = list[0]["sanction"]["subject"].clone();
    assert_eq!(bob_id["kind"], "player");
    let (status, e) = server_fn(&alice, "admin_account_sanctions", &[("user_id", "3")]).await;
    assert_eq!((status, e["error"].as_str()), (403, Some("admin_only")), "{e}");

    // Every administrator's step is in the log and in the room's record.
    let actions = audit_actions(&referee, room).await;
    for a in
        ["room_held", "sanctioned", "room_resumed", "appeal_decided", "appeal_exception_opened", "report_dismissed"]
    {
        assert!(actions.iter().any(|x| x == a), "{a} logged: {actions:?}");
    }
    let record = alice.get_json(&format!("/api/v1/rooms/{room}/record")).await;
    let kinds: Vec<&str> =
        record["events"].as_array().unwrap().iter().filter_map(|e| e["event"]["type"].as_str()).collect();
    for k in ["sanctioned", "appeal_filed", "appeal_decided", "appeal_exception_opened"] {
        assert!(kinds.contains(&k), "{k} in the record: {kinds:?}");
    }
    let record_audit: Vec<&str> =
        record["audit"].as_array().unwrap().iter().filter_map(|e| e["action"].as_str()).collect();
    assert!(record_audit.contains(&"sanctioned") && !record_audit.contains(&"report_dismissed"), "{record_audit:?}");
    drop(srv);
}

#[tokio::test]
async fn a_restricted_spectator_is_refused_on_the_stream_and_the_views_of_that_match_only() {
    let Table { _dir, srv, base, alice, bob, .. } = Table::new().await;
    let referee = admin(&srv, "referee").await;
    let dave = Player::sign_up(&base, "dave").await;
    let room = started_room(&alice, &bob, classic_9(wire::settings::ColourAssignment::HostBlack)).await;
    let other = started_room(&alice, &bob, classic_9(wire::settings::ColourAssignment::HostBlack)).await;
    let mut ws = dave.stream(room, 0).await;
    read_until(&mut ws, |m| m["type"] == "snapshot" || m["type"] == "event").await;
    // A player cannot be restricted as a spectator; an unknown name is refused.
    let restrict = |who: &str| {
        json!({"room_id": room, "target": {"kind": "spectator", "username": who}, "penalty": "viewing_restricted",
            "category": "outside_assistance", "reasons": "real-time advice to Black"})
    };
    let (status, e) = sanction(&referee, restrict("alice")).await;
    assert_eq!((status, e["detail"]["why"]["code"].as_str()), (422, Some("is_a_player")), "{e}");
    let (status, e) = sanction(&referee, restrict("ghost")).await;
    assert_eq!((status, e["error"].as_str()), (422, Some("unknown_user")), "{e}");
    let (status, s) = sanction(&referee, restrict("dave")).await;
    assert_eq!(status, 200, "{s}");
    // The open stream says why and closes.
    let got = read_until(&mut ws, |m| m["type"] == "refused").await;
    assert_eq!(got.last().unwrap()["error"]["error"], "viewing_restricted");
    // A new stream, the view and the record are refused with the sanction's number.
    assert_eq!(dave.try_stream(room, 0).await.err(), Some(403));
    let (status, body) = dave.get(&format!("/api/v1/rooms/{room}")).await;
    assert_eq!(status, 403, "{body}");
    let e: Value = serde_json::from_str(&body).unwrap();
    assert_eq!((e["error"].as_str(), e["detail"]["sanction"].as_u64()), (Some("viewing_restricted"), Some(1)));
    let (status, e) = dave.post("/api/match_view", json!({"room_id": room})).await;
    assert_eq!((status, e["error"].as_str()), (403, Some("viewing_restricted")), "{e}");
    let (status, e) = dave.get(&format!("/api/v1/rooms/{room}/record")).await;
    assert_eq!(status, 403, "{e}");
    // Other matches, and everyone else, are unaffected.
    assert_eq!(dave.view(other).await["room_id"], other);
    assert!(dave.try_stream(other, 0).await.is_ok());
    assert_eq!(view(&base, room).await["room_id"], room);
    // Under appeal the restriction is suspended.
    dave.ok(room, json!({"type": "appeal", "sanction": 1, "evidence": "I only watched"})).await;
    assert_eq!(dave.view(room).await["room_id"], room);
    let mut ws = dave.stream(room, 0).await;
    read_until(&mut ws, |m| m["type"] == "snapshot" || m["type"] == "event").await;
    // Upheld, it applies again at once: the stream opened during the review closes too.
    referee
        .ok(
            room,
            json!({"type": "admin_decide_appeal", "sanction": 1, "uphold": true, "reasons": "advice seen in the log"}),
        )
        .await;
    let got = read_until(&mut ws, |m| m["type"] == "refused").await;
    assert_eq!(got.last().unwrap()["error"]["detail"]["sanction"], 1);
    assert_eq!(dave.get(&format!("/api/v1/rooms/{room}")).await.0, 403);
    drop(srv);
}

#[tokio::test]
async fn a_void_match_is_its_own_result_and_lifting_it_restores_the_result_before() {
    let Table { _dir, clock, srv, base, alice, bob } = Table::new().await;
    let referee = admin(&srv, "referee").await;
    let room = started_room(&alice, &bob, classic_9(wire::settings::ColourAssignment::HostBlack)).await;
    // A void in play ends the match as void: not "no winner".
    let void = json!({"room_id": room, "target": {"kind": "player", "colour": "black"}, "penalty": "void",
        "category": "outside_assistance", "reasons": "engine assistance shown by the log"});
    let (status, s) = sanction(&referee, void).await;
    assert_eq!(status, 200, "{s}");
    let v = view(&base, room).await;
    assert_eq!((v["phase"].as_str(), v["result"]["reason"].as_str()), (Some("finished"), Some("void")), "{v}");
    // Lifting a void that ended play needs the result that applies.
    alice.ok(room, json!({"type": "appeal", "sanction": 1, "evidence": "I played alone"})).await;
    assert_eq!(view(&base, room).await["under_review"], true, "the result is under review during the appeal");
    // Everywhere the result shows: the lists and the record say so too.
    let (status, list) = alice.post("/api/archive", json!({"filter": {}})).await;
    assert_eq!(status, 200, "{list}");
    let row = list.as_array().unwrap().iter().find(|r| r["id"] == room).unwrap().clone();
    assert_eq!(
        (row["listing"]["result"]["reason"].as_str(), row["listing"]["under_review"].as_bool()),
        (Some("void"), Some(true))
    );
    let rec = alice.get_json(&format!("/api/v1/rooms/{room}/record")).await;
    assert_eq!(rec["under_review"], true);
    assert!(rec["text"]["en"]["result"].as_str().unwrap().ends_with("(under review)"), "{}", rec["text"]);
    let (status, e) = referee
        .cmd(room, json!({"type": "admin_decide_appeal", "sanction": 1, "uphold": false, "reasons": "cleared"}))
        .await;
    assert_eq!((status, e["detail"]["why"]["code"].as_str()), (422, Some("result_required")), "{e}");
    referee
        .ok(
            room,
            json!({"type": "admin_decide_appeal", "sanction": 1, "uphold": false, "reasons": "cleared",
            "result": {"reason": "administrator", "winner": null}}),
        )
        .await;
    let v = view(&base, room).await;
    assert_eq!((v["result"]["reason"].as_str(), v["under_review"].as_bool()), (Some("administrator"), Some(false)));
    assert_eq!(alice.get_json(&format!("/api/v1/rooms/{room}/record")).await["under_review"], false);

    // A loss after the end replaces the result; lifted, the result before is back.
    let room2 = started_room(&alice, &bob, classic_9(wire::settings::ColourAssignment::HostBlack)).await;
    bob.ok(room2, json!({"type": "resign"})).await;
    let loss = json!({"room_id": room2, "target": {"kind": "player", "colour": "black"}, "penalty": "loss",
        "category": "outside_assistance", "reasons": "assisted"});
    let (status, _) = sanction(&referee, loss).await;
    assert_eq!(status, 200);
    let v = view(&base, room2).await;
    assert_eq!(
        (v["result"]["reason"].as_str(), v["result"]["winner"].as_str()),
        (Some("administrator"), Some("white")),
        "{v}"
    );
    // The administrators' log keeps the result it replaced.
    let log = referee.get_json(&format!("/api/v1/admin/audit?room={room2}&action=sanctioned")).await;
    assert_eq!(log[0]["before"]["result"], json!({"reason": "resign", "winner": "black"}), "{log}");
    assert_eq!(
        (log[0]["before"]["phase"].as_str(), log[0]["after"]["penalty"].as_str()),
        (Some("finished"), Some("loss"))
    );
    // Late: more than seven days after the notice.
    clock.advance_ms(7 * DAY_MS + 1);
    let (status, e) = alice.cmd(room2, json!({"type": "appeal", "sanction": 1, "evidence": "late"})).await;
    assert_eq!((status, e["detail"]["why"]["code"].as_str()), (409, Some("too_late")), "{e}");
    assert_eq!(e["detail"]["why"]["limit_days"], 7);
    referee
        .ok(room2, json!({"type": "admin_open_appeal", "sanction": 1, "reasons": "new evidence after a week"}))
        .await;
    alice.ok(room2, json!({"type": "appeal", "sanction": 1, "evidence": "the witness statement"})).await;
    referee
        .ok(room2, json!({"type": "admin_decide_appeal", "sanction": 1, "uphold": false, "reasons": "cleared"}))
        .await;
    let v = view(&base, room2).await;
    assert_eq!(
        (v["result"]["reason"].as_str(), v["result"]["winner"].as_str()),
        (Some("resign"), Some("black")),
        "the result before: {v}"
    );
    drop(srv);
}

#[tokio::test]
async fn only_an_administrator_may_rule_on_conduct_rules_retention_accounts_and_the_log() {
    // Every administrator action of conduct, governance, accounts and the log, tried by an
    // anonymous visitor (401), a signed-in stranger, a spectator following the room and each
    // player (403 admin_only); an administrator passes the authorization (the action may
    // still be refused for what it names, never as forbidden).
    let Table { _dir, srv, base, alice, bob, .. } = Table::new().await;
    let referee = admin(&srv, "referee").await;
    let stranger = Player::sign_up(&base, "stranger").await;
    let spectator = Player::sign_up(&base, "spectator").await;
    let room = started_room(&alice, &bob, classic_9(wire::settings::ColourAssignment::HostBlack)).await;
    let _watching = spectator.stream(room, 0).await;
    let anonymous = Player::new(&base);
    let (_, accounts) = server_fn(&referee, "admin_accounts", &[]).await;
    let alice_id =
        accounts.as_array().unwrap().iter().find(|a| a["username"] == "alice").unwrap()["id"].as_i64().unwrap();
    let r = "reasons";
    let json_fns = [
        (
            "admin_sanction",
            json!({"room_id": room, "target": {"kind": "player", "colour": "black"},
            "penalty": "warning", "category": "abusive_behaviour", "reasons": r}),
        ),
        (
            "admin_add_precedent",
            json!({"precedent": {"clause": "003 §3.6", "text": "t", "reasons": r, "ruling": null}}),
        ),
        (
            "admin_change_account",
            json!({"user_id": alice_id, "change": {"kind": "disabled", "disabled": true}, "reasons": r}),
        ),
        ("admin_reset_link", json!({"user_id": alice_id, "reasons": r})),
        ("admin_log", json!({"filter": {}})),
    ];
    let user = alice_id.to_string();
    let form_fns: [(&str, Vec<(&str, &str)>); 7] = [
        ("admin_report_cases", vec![]),
        ("admin_dismiss_report", vec![("case", "1"), ("reasons", r)]),
        ("admin_account_sanctions", vec![("user_id", &user)]),
        ("admin_accounts", vec![]),
        ("admin_set_site_defaults", vec![("retention_days", "30"), ("scoring_wait_min", "60"), ("reasons", r)]),
        ("admin_retention", vec![]),
        ("admin_run_retention", vec![("reasons", r)]),
    ];
    let others = [("stranger", &stranger), ("spectator", &spectator), ("black", &alice), ("white", &bob)];
    for (name, body) in &json_fns {
        let path = format!("/api/{name}");
        assert_eq!(anonymous.post(&path, body).await.0, 401, "anonymous: {name}");
        for (who, p) in others {
            let (status, e) = p.post(&path, body).await;
            assert_eq!((status, e["error"].as_str()), (403, Some("admin_only")), "{who}: {name} {e}");
        }
    }
    for (name, fields) in &form_fns {
        assert_eq!(server_fn(&anonymous, name, fields).await.0, 401, "anonymous: {name}");
        for (who, p) in others {
            let (status, e) = server_fn(p, name, fields).await;
            assert_eq!((status, e["error"].as_str()), (403, Some("admin_only")), "{who}: {name} {e}");
        }
    }
    // The room's conduct commands: a sanction to appeal first, so the administrator's try is
    // judged on what it names.
    let (status, _) = sanction(&referee, json_fns[0].1.clone()).await;
    assert_eq!(status, 200);
    for c in [
        json!({"type": "admin_open_appeal", "sanction": 1, "reasons": r}),
        json!({"type": "admin_decide_appeal", "sanction": 1, "uphold": true, "reasons": r}),
        json!({"type": "admin_hold", "reasons": r}),
    ] {
        assert_eq!(anonymous.cmd(room, &c).await.0, 401, "anonymous: {c}");
        for (who, p) in others {
            let (status, e) = p.cmd(room, &c).await;
            assert_eq!((status, e["error"].as_str()), (403, Some("admin_only")), "{who}: {c}");
        }
        let (status, e) = referee.cmd(room, &c).await;
        assert!(status != 401 && status != 403, "administrator: {c} → {status} {e}");
    }
    // The log's routes, and the administrator's own answers.
    for path in ["/api/v1/admin/audit", "/api/v1/admin/audit.csv"] {
        assert_eq!(anonymous.get(path).await.0, 401, "{path}");
        for (_, p) in others {
            assert_eq!(p.get(path).await.0, 403, "{path}");
        }
        assert_eq!(referee.get(path).await.0, 200, "{path}");
    }
    for (name, fields) in &form_fns[..1] {
        assert_eq!(server_fn(&referee, name, fields).await.0, 200, "administrator: {name}");
    }
    // Reports: players and signed-in spectators only.
    let (status, _) = report(&anonymous, room, json!({"kind": "match"}), "other", 1).await;
    assert_eq!(status, 401);
    let (status, e) = report(&stranger, room, json!({"kind": "match"}), "other", 1).await;
    assert_eq!(status, 403, "a stranger who never watched: {e}");
    let (status, e) = report(&spectator, room, json!({"kind": "match"}), "other", 1).await;
    assert_eq!(status, 200, "a spectator following the room: {e}");
    srv.stop().await;
}
