//! Governance over the real server (003 §1.3–1.5, §9.7, §10.1, §12.7; a real SQLite file,
//! the manual clock): a precedent makes a new common-rules version that only rooms created
//! afterwards pin; special rules outside the version's permits refused before play, and an
//! agreed undo limit enforced; the site's defaults announced and pinned; retention deleting
//! old records but never disputed ones, the learning archive kept apart; who may do any of
//! it.

use crate::support::*;
use app::clock::Clock;
use serde_json::{json, Value};
use wire::{
    commands::Command,
    settings::{ColourAssignment, MatchSettings, SpecialRule},
};

const DAY_MS: i64 = 86_400_000;

async fn server_fn(p: &Player, endpoint: &str, fields: &[(&str, &str)]) -> (u16, Value) {
    let (status, body) = p.form(&format!("/api/{endpoint}"), fields).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

async fn precedent(admin: &Player, clause: &str, ruling: Option<(i64, i64)>) -> (u16, Value) {
    let ruling = ruling.map(|(room_id, seq)| json!({"room_id": room_id, "seq": seq}));
    let body = json!({"precedent": {"clause": clause, "text": "A chain whose only life spaces are shared in seki lives.",
        "reasons": "ruled this way in a disputed count", "ruling": ruling}});
    admin.post("/api/admin_add_precedent", body).await
}

async fn room_settings(p: &Player, room: i64) -> Value {
    p.view(room).await["settings"].clone()
}

fn mv3(x: i64, y: i64, z: i64) -> Value {
    json!({"type": "move", "at": {"x": x, "y": y, "z": z}})
}

async fn audit_actions(admin: &Player) -> Vec<String> {
    let v = admin.get_json("/api/v1/admin/audit").await;
    v.as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn a_precedent_makes_a_version_only_later_rooms_pin_and_special_rules_stay_in_scope() {
    let Table { _dir, srv, base, alice, bob, .. } = Table::new().await;
    let referee = admin(&srv, "referee").await;
    let anonymous = Player::new(&base);

    // Anyone reads the rules and what a room agrees under: the program ships version 1
    // (docs/rules-v1.md) and its revision, version 2 (docs/rules.md), in force.
    let (status, a) = server_fn(&anonymous, "agreements", &[]).await;
    assert_eq!((status, a["version"].as_u64()), (200, Some(2)), "{a}");
    assert_eq!(a["permits"]["kinds"][0]["kind"], "undo_limit", "{a}");
    assert_eq!((a["defaults"]["retention_days"].as_u64(), a["defaults"]["set_ms"].as_i64()), (Some(0), None));
    let (status, r) = server_fn(&anonymous, "common_rules", &[]).await;
    assert_eq!((status, r["current"].as_u64()), (200, Some(2)), "{r}");
    assert_eq!(r["versions"].as_array().unwrap().len(), 2, "{r}");
    let clauses = r["shown"]["clauses"].as_array().unwrap();
    assert!(clauses.iter().any(|c| c["id"] == "003 §3.6" && c["title"] == "Disagreement and administrator review"));

    // A room created now pins version 2 and the site's retention (the program's: for ever).
    let old = started_room(&alice, &bob, space_box(3)).await;
    let s = room_settings(&alice, old).await;
    assert_eq!((s["common_rules_version"].as_u64(), s["record_retention_days"].as_u64()), (Some(2), Some(0)), "{s}");

    // Only an administrator adds precedent; the clause must be one of the version's, the
    // ruling an administrator's action in that room.
    let (status, e) = precedent(&alice, "003 §3.6", None).await;
    assert_eq!((status, e["error"].as_str()), (403, Some("admin_only")), "{e}");
    let (status, e) = precedent(&anonymous, "003 §3.6", None).await;
    assert_eq!((status, e["error"].as_str()), (401, Some("not_signed_in")), "{e}");
    let (status, e) = precedent(&referee, "003 §99.1", None).await;
    assert_eq!((status, e["error"].as_str(), e["detail"]["version"].as_u64()), (422, Some("not_a_clause"), Some(2)));
    let (status, e) = precedent(&referee, "003 §3.6", Some((old, 1))).await;
    assert_eq!((status, e["error"].as_str()), (422, Some("not_a_ruling")), "room_created is no ruling: {e}");
    referee.ok(old, Command::AdminHold { reasons: "looking at a claim".into() }).await;
    let held_at = referee.view(old).await["version"].as_i64().unwrap();
    let (status, v) = precedent(&referee, "003 §3.6", Some((old, held_at))).await;
    assert_eq!((status, v["version"].as_u64()), (200, Some(3)), "{v}");
    assert_eq!(v["precedent"]["by"], "referee");
    let c36 = v["clauses"].as_array().unwrap().iter().find(|c| c["id"] == "003 §3.6").unwrap().clone();
    assert_eq!(c36["precedents"][0]["ruling"], json!({"room_id": old, "seq": held_at}));
    assert!(audit_actions(&referee).await.contains(&"precedent_added".to_string()));

    // Rooms created afterwards pin version 3; the room already created keeps version 2.
    let new = started_room(&alice, &bob, space_box(3)).await;
    assert_eq!(room_settings(&alice, new).await["common_rules_version"], 3);
    assert_eq!(room_settings(&alice, old).await["common_rules_version"], 2);
    let record = alice.get_json(&format!("/api/v1/rooms/{old}/record")).await;
    assert!(record.to_string().contains("\"common_rules_version\":2"), "the record keeps its version");
    // An agreement made under version 2 is renewed under version 3 before play (003 §1.5).
    let mut stale = space_box(3);
    stale.common_rules_version = Some(2);
    let e = alice.create_room("stale", &stale).await.unwrap_err();
    assert!(e.contains("common_rules_version: 2 is not allowed") && e.contains("003 §1.5"), "{e}");
    // Every version is readable, the earlier one without the precedent.
    let (_, r) = server_fn(&anonymous, "common_rules", &[("version", "2")]).await;
    assert_eq!((r["current"].as_u64(), r["shown"]["version"].as_u64()), (Some(3), Some(2)));
    assert_eq!(r["versions"].as_array().unwrap().len(), 3);
    let c = r["shown"]["clauses"].as_array().unwrap().iter().find(|c| c["id"] == "003 §3.6").unwrap().clone();
    assert_eq!(c["precedents"], json!([]));
    let (status, e) = server_fn(&anonymous, "common_rules", &[("version", "9")]).await;
    assert_eq!(
        (status, e["error"].as_str(), e["detail"]["current"].as_u64()),
        (404, Some("no_rules_version"), Some(3))
    );
    // The same for programs, documented.
    let v1 = anonymous.get_json("/api/v1/rules/1").await;
    assert_documented("CommonRules", &v1);
    assert_eq!((v1["shown"]["version"].as_u64(), v1["current"].as_u64()), (Some(1), Some(3)));
    assert_eq!(anonymous.get_json("/api/v1/rules").await["shown"]["version"], 3);
    let a = anonymous.get_json("/api/v1/agreements").await;
    assert_documented("Agreements", &a);
    assert_eq!(a["version"], 3);
    for (path, status) in [("/api/v1/rules/0", 400), ("/api/v1/rules/4294967296", 400), ("/api/v1/rules/4", 404)] {
        assert_eq!(anonymous.get(path).await.0, status, "{path}");
    }

    // 003 §1.4: a special rule outside the version's bounds is refused before play, naming
    // the clause; within them it is agreed and applied.
    let mut wide = space_box(3);
    wide.special_rules = vec![SpecialRule::UndoLimit { per_player: 11 }];
    let e = alice.create_room("wide", &wide).await.unwrap_err();
    assert!(e.contains("special_rules[0].per_player: 11 is out of range") && e.contains("003 §5.1"), "{e}");
    let mut one = space_box(3);
    one.special_rules =
        vec![SpecialRule::UndoLimit { per_player: 1 }, SpecialRule::Note { text: "tea at move 50".into() }];
    let room = started_room(&alice, &bob, one).await;
    played(&alice, &bob, room, mv3(1, 1, 1), 1).await;
    alice.ok(room, Command::RequestUndo).await;
    bob.ok(room, Command::AnswerUndo { accept: true }).await;
    played(&alice, &bob, room, mv3(2, 2, 2), 1).await;
    let (status, e) = alice.cmd(room, Command::RequestUndo).await;
    assert_eq!((status, e["error"].as_str()), (409, Some("undo_not_allowed")), "{e}");
    assert_eq!(e["detail"]["why"], json!({"code": "all_used", "allowance": 1}), "{e}");
    srv.stop().await;
}

#[tokio::test]
async fn retention_deletes_old_records_but_never_disputed_ones_and_keeps_the_learning_archive() {
    let Table { _dir, clock, srv, base, alice, bob } = Table::new().await;
    let referee = admin(&srv, "referee").await;
    let carol = Player::sign_up(&base, "carol").await;

    // Site defaults: administrators only, ranges typed, announced with a date.
    let set = |p: &Player, days: &str, wait: &str| {
        let p = p.clone();
        let (days, wait) = (days.to_string(), wait.to_string());
        async move {
            server_fn(
                &p,
                "admin_set_site_defaults",
                &[
                    ("retention_days", &days),
                    ("scoring_wait_min", &wait),
                    ("reasons", "a month is what the club announced"),
                ],
            )
            .await
        }
    };
    let (status, e) = set(&alice, "30", "60").await;
    assert_eq!((status, e["error"].as_str()), (403, Some("admin_only")), "{e}");
    let (status, e) = set(&referee, "36501", "60").await;
    assert_eq!((status, e["detail"]["field"].as_str()), (400, Some("retention_days")), "{e}");
    assert_eq!(e["detail"]["problem"], json!({"kind": "range", "min": 0, "max": 36500, "got": 36501}), "{e}");
    let (status, e) = set(&referee, "30", "10081").await;
    assert_eq!((status, e["detail"]["field"].as_str()), (400, Some("scoring_wait_min")), "{e}");
    let (status, d) = set(&referee, "30", "60").await;
    assert_eq!((status, d["retention_days"].as_u64(), d["set_by"].as_str()), (200, Some(30), Some("referee")), "{d}");
    assert_eq!(d["set_ms"].as_i64(), Some(clock.now_ms()));
    let log = referee.get_json("/api/v1/admin/audit?action=site_defaults_changed").await;
    assert_eq!(log[0]["before"], json!({"retention_days": 0, "scoring_wait_min": 30}), "{log}");
    assert_eq!(log[0]["after"], json!({"retention_days": 30, "scoring_wait_min": 60}), "{log}");

    // Four finished games, each pinned to 30 days, and one kept for ever.
    let resigned = |host: Player, guest: Player, s: MatchSettings| async move {
        let room = started_room(&host, &guest, s).await;
        host.ok(room, Command::Resign).await;
        room
    };
    let plain = resigned(alice.clone(), bob.clone(), classic_9(ColourAssignment::HostBlack)).await;
    assert_eq!(room_settings(&alice, plain).await["record_retention_days"], 30);
    let mut forever = classic_9(ColourAssignment::HostBlack);
    forever.record_retention_days = Some(0);
    let forever = resigned(alice.clone(), bob.clone(), forever).await;
    let reported = resigned(alice.clone(), bob.clone(), classic_9(ColourAssignment::HostBlack)).await;
    let (status, _) = bob
        .post(
            "/api/file_report",
            json!({"report": {"room_id": reported, "about": {"kind": "player", "colour": "black"},
            "category": "abusive_behaviour", "description": "insults in the chat", "seq": 1}}),
        )
        .await;
    assert_eq!(status, 200);
    // A referred error after the end waits for the administrator (003 §4.7).
    let referred = resigned(alice.clone(), bob.clone(), classic_9(ColourAssignment::HostBlack)).await;
    bob.ok(referred, json!({"type": "request_correction", "reasons": "the result is wrong"})).await;
    let learned = crate::learning::scored_game(&carol, 4).await;
    let learned_too = crate::learning::scored_game(&carol, 5).await;
    let in_play = started_room(&alice, &bob, classic_9(ColourAssignment::HostBlack)).await;

    // Nothing is due yet.
    let (status, st) = server_fn(&referee, "admin_retention", &[]).await;
    assert_eq!(status, 200, "{st}");
    assert_eq!(
        (st["dry_run"]["deleted"].as_array().unwrap().len(), st["dry_run"]["kept"].as_array().unwrap().len()),
        (0, 0)
    );
    let (status, e) = server_fn(&alice, "admin_retention", &[]).await;
    assert_eq!((status, e["error"].as_str()), (403, Some("admin_only")));

    // 31 days later the daily run (on the server's clock) deletes what is due and keeps
    // what is disputed, each with why.
    clock.advance_ms(31 * DAY_MS);
    let run = ran(&referee, "daily", clock.now_ms()).await;
    let rooms =
        |r: &Value| -> Vec<i64> { r.as_array().unwrap().iter().map(|i| i["room_id"].as_i64().unwrap()).collect() };
    assert_eq!(rooms(&run["deleted"]), vec![plain, learned, learned_too], "{run}");
    assert_eq!(rooms(&run["kept"]), vec![reported, referred], "{run}");
    let holds = |id: i64| run["kept"].as_array().unwrap().iter().find(|i| i["room_id"] == id).unwrap()["holds"].clone();
    assert_eq!(holds(reported), json!([{"kind": "open_report"}]));
    assert_eq!(holds(referred)[0], json!({"kind": "open_item", "item": "correction_request"}));
    assert_eq!(run["deleted"][1]["archived"], true, "a counted game goes to the learning archive");
    assert_eq!(run["deleted"][0]["archived"], false, "a resignation teaches nothing");
    for room in [plain, learned] {
        let (status, body) = alice.get(&format!("/api/v1/rooms/{room}")).await;
        assert_eq!(status, 410, "{body}");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            (body["error"].as_str(), body["detail"]["at_ms"].as_i64()),
            (Some("record_deleted"), run["at_ms"].as_i64())
        );
        let (status, _) = carol.get(&format!("/api/v1/rooms/{room}/record")).await;
        assert_eq!(status, 410);
    }
    // Kept: the disputed ones, the one kept for ever, the game that was in play.
    for room in [reported, referred, forever, in_play] {
        assert_eq!(alice.view(room).await["room_id"], room);
    }
    // The game left in play ran out of time on the way: its month starts now.
    assert_eq!(alice.view(in_play).await["result"]["reason"], "time");
    // The learning archive kept the counted games: training still finds both.
    let req = json!({"epochs": 1, "seed": 3, "confirm_pause": true, "reasons": "training after the clean-up"});
    let (status, body) = referee.post("/api/v1/admin/training", &req).await;
    assert_eq!(status, 202, "{body}");
    let eligible: Vec<i64> =
        body["eligible"].as_array().unwrap().iter().map(|g| g["room_id"].as_i64().unwrap()).collect();
    assert_eq!(eligible, vec![learned, learned_too]);

    // Once the report is decided, the dry run lists the game, deleting nothing; a run by an
    // administrator (with reasons, logged) takes it.
    let (_, cases) = server_fn(&referee, "admin_report_cases", &[]).await;
    let case = cases[0]["id"].as_i64().unwrap().to_string();
    let (status, _) =
        server_fn(&referee, "admin_dismiss_report", &[("case", &case), ("reasons", "no insult found")]).await;
    assert_eq!(status, 200);
    let (_, st) = server_fn(&referee, "admin_retention", &[]).await;
    assert_eq!(rooms(&st["dry_run"]["deleted"]), vec![reported], "{st}");
    assert_eq!(alice.view(reported).await["room_id"], reported, "a dry run deletes nothing");
    let (status, e) = server_fn(&alice, "admin_run_retention", &[("reasons", "monthly")]).await;
    assert_eq!(status, 403, "{e}");
    let (status, run) = server_fn(&referee, "admin_run_retention", &[("reasons", "the monthly clean-up")]).await;
    assert_eq!(status, 200, "{run}");
    assert_eq!((rooms(&run["deleted"]), run["trigger"].as_str()), (vec![reported], Some("administrator")));
    assert!(audit_actions(&referee).await.contains(&"retention_run".to_string()));
    assert_eq!(alice.get(&format!("/api/v1/rooms/{reported}")).await.0, 410);

    // A stopped server runs it at start, before serving (003 §9.7).
    let later = {
        let room = started_room(&alice, &bob, classic_9(ColourAssignment::HostBlack)).await;
        alice.ok(room, Command::Resign).await;
        room
    };
    srv.stop().await;
    clock.advance_ms(31 * DAY_MS);
    let srv = Running::start_with_clock(_dir.path(), std::sync::Arc::new(clock.clone())).await;
    let (alice, referee) = (alice.at(&srv.base), referee.at(&srv.base));
    assert_eq!(alice.get(&format!("/api/v1/rooms/{later}")).await.0, 410, "deleted at start");
    let (_, st) = server_fn(&referee, "admin_retention", &[]).await;
    let deleted = rooms(&st["runs"][0]["deleted"]);
    assert_eq!((st["runs"][0]["trigger"].as_str(), deleted), (Some("start"), vec![in_play, later]));

    // A sanction's appeal window keeps the record past its retention (003 §6.6): warned 25
    // days after the end, the game is still kept on day 31, with the window's end.
    let bob = bob.at(&srv.base);
    let warned = started_room(&alice, &bob, classic_9(ColourAssignment::HostBlack)).await;
    alice.ok(warned, Command::Resign).await;
    clock.advance_ms(25 * DAY_MS);
    ran(&referee, "daily", clock.now_ms()).await;
    let warning = json!({"room_id": warned, "target": {"kind": "player", "colour": "white"}, "penalty": "warning",
        "category": "abusive_behaviour", "reasons": "insults after the game"});
    let (status, e) = referee.post("/api/admin_sanction", warning).await;
    assert_eq!(status, 200, "{e}");
    let until = clock.now_ms() + 7 * DAY_MS;
    clock.advance_ms(6 * DAY_MS);
    let run = ran(&referee, "daily", clock.now_ms()).await;
    assert_eq!(rooms(&run["kept"]), vec![referred, warned], "{run}");
    assert_eq!(run["kept"][1]["holds"], json!([{"kind": "appeal_window", "until_ms": until}]));
    assert_eq!(alice.view(warned).await["room_id"], warned);
    srv.stop().await;
}

/// The newest retention run, once one by `trigger` at `at_ms` is listed (the schedule runs
/// beside the test, so it is waited for).
async fn ran(admin: &Player, trigger: &str, at_ms: i64) -> Value {
    for _ in 0..200 {
        let (_, st) = server_fn(admin, "admin_retention", &[]).await;
        if st["runs"][0]["trigger"] == trigger && st["runs"][0]["at_ms"] == at_ms {
            return st["runs"][0].clone();
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("no {trigger} retention run");
}
