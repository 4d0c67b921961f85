//! The modes over the real server (003 §1.2, §11.1–11.7): two people on one device, an
//! administrator's practice (both colours, or against the computer), a player against the
//! computer, and practice paused by a restart. The computer's moves go through the same
//! commands, events and record as a person's.

use crate::support::*;
use serde_json::{json, Value};
use wire::{
    commands::Command,
    events::Colour,
    mode::{ComputerSeat, Opponent, RoomMode},
    settings::MatchSettings,
};

fn mv(x: i64, y: i64) -> Value {
    json!({"type": "move", "at": {"x": x, "y": y, "z": 1}})
}

fn computer(colour: Colour, level: u8) -> ComputerSeat {
    ComputerSeat { colour, level, move_ms: 100, model_id: None, model: None, seed: 0 }
}

fn classic_with(mode: RoomMode) -> MatchSettings {
    let mut s = MatchSettings::classic_default(9);
    s.mode = mode;
    s
}

async fn create(p: &Player, settings: &MatchSettings) -> i64 {
    let created = p.create_room("mode", settings).await.expect("room created");
    created["room_id"].as_i64().unwrap()
}

async fn events(p: &Player, room: i64) -> Vec<Value> {
    p.get_json(&format!("/api/v1/rooms/{room}/events")).await.as_array().cloned().unwrap()
}

fn types(events: &[Value]) -> Vec<String> {
    events.iter().map(|e| e["event"]["type"].as_str().unwrap_or_default().to_string()).collect()
}

#[tokio::test]
async fn one_device_holds_both_seats_and_acts_for_each_colour_in_turn() {
    let t = Table::new().await;
    let a = &t.alice;
    let mode = RoomMode::OneDevice { second_player: "  Grandpa Kim ".into() };
    let mut settings = classic_with(mode);
    settings.colours = wire::settings::ColourAssignment::HostBlack;
    let room = create(a, &settings).await;
    let v = view(&t.base, room).await;
    assert_eq!(v["phase"], "waiting_ready");
    assert_eq!(v["settings"]["mode"], json!({"kind": "one_device", "second_player": "Grandpa Kim"}));
    assert_eq!(v["black"], "alice");
    assert_eq!(v["white"], "Grandpa Kim");
    // Readiness on one screen, each colour in turn: Black first, then White.
    assert_eq!(a.view(room).await["your_colour"], "black");
    a.ok(room, Command::Ready).await;
    let v = a.view(room).await;
    assert_eq!(v["ready"], json!([true, false]));
    assert_eq!(v["your_colour"], "white", "the screen now asks for White's Ready");
    a.ok(room, Command::Ready).await;
    assert_eq!(a.view(room).await["phase"], "playing");
    // Moves alternate; the same device acknowledges each for the other colour.
    a.ok(room, mv(3, 3)).await;
    a.ok(room, Command::Acknowledge { move_number: 1 }).await;
    a.ok(room, mv(7, 7)).await;
    a.ok(room, Command::Acknowledge { move_number: 2 }).await;
    let v = a.view(room).await;
    assert_eq!(v["move_number"], 2);
    assert_eq!(v["your_colour"], "black");
    // Undo: White (who made the latest stone move) asks, Black answers — on one screen.
    a.ok(room, Command::RequestUndo).await;
    assert_eq!(a.view(room).await["undo"]["colour"], "white");
    a.ok(room, Command::AnswerUndo { accept: true }).await;
    let v = a.view(room).await;
    assert_eq!(v["move_number"], 1);
    assert_eq!(v["to_move"], "white");
    // Another account is no player here.
    let (status, body) = t.bob.cmd(room, mv(5, 5)).await;
    assert_eq!((status, body["error"].as_str()), (403, Some("not_a_player")), "{body}");
    // Both pass; counting; both consents from the one screen.
    a.ok(room, json!({"type": "pass"})).await;
    a.ok(room, Command::Acknowledge { move_number: 2 }).await;
    a.ok(room, json!({"type": "pass"})).await;
    let v = a.view(room).await;
    assert_eq!(v["phase"], "scoring");
    let statement = v["scoring"]["statement"].as_u64().unwrap();
    a.ok(room, Command::Consent { statement }).await;
    assert_eq!(a.view(room).await["scoring"]["consents"], json!([statement, null]));
    a.ok(room, Command::Consent { statement }).await;
    let v = view(&t.base, room).await;
    assert_eq!(v["phase"], "finished");
    assert_eq!(v["result"]["reason"], "score");
    // The record says so.
    let rec = a.get_json(&format!("/api/v1/rooms/{room}/record")).await;
    assert_eq!(rec["settings"]["mode"]["kind"], "one_device", "{rec}");
    let _ = t.srv.stop().await;
}

#[tokio::test]
async fn practice_is_the_administrators_and_one_ready_stands_for_both_colours() {
    let t = Table::new().await;
    let admin = admin(&t.srv, "referee").await;
    let settings = classic_with(RoomMode::Practice { computer: None });
    // 003 §11.2: a player cannot open practice.
    let refused = t.alice.create_room("p", &settings).await.unwrap_err();
    assert!(refused.contains("403") && refused.contains("admin_only"), "{refused}");
    let room = create(&admin, &settings).await;
    let v = view(&t.base, room).await;
    assert_eq!(v["phase"], "waiting_ready");
    assert_eq!(v["settings"]["mode"]["kind"], "practice");
    // One Ready for both colours (003 §11.2).
    admin.ok(room, Command::Ready).await;
    assert_eq!(admin.view(room).await["phase"], "playing");
    admin.ok(room, mv(3, 3)).await;
    admin.ok(room, Command::Acknowledge { move_number: 1 }).await;
    admin.ok(room, mv(4, 4)).await;
    admin.ok(room, Command::Acknowledge { move_number: 2 }).await;
    // Two moves in one turn are impossible: the turn passed (003 §11.3).
    let v = admin.view(room).await;
    assert_eq!((v["to_move"].as_str(), v["move_number"].as_u64()), (Some("black"), Some(2)));
    // Illegal stays illegal: an occupied point is refused and recorded.
    let (status, body) = admin.cmd(room, mv(3, 3)).await;
    assert_eq!((status, body["error"].as_str()), (422, Some("illegal")), "{body}");
    // Undo for the other colour (003 §11.6). On a Classic board the Classic undo applies
    // (000 §8.2): a pass is one's own move and is taken back too.
    admin.ok(room, Command::RequestUndo).await;
    admin.ok(room, Command::AnswerUndo { accept: true }).await;
    assert_eq!(admin.view(room).await["move_number"], 1);
    admin.ok(room, json!({"type": "pass"})).await;
    admin.ok(room, Command::Acknowledge { move_number: 2 }).await;
    admin.ok(room, Command::RequestUndo).await;
    admin.ok(room, Command::AnswerUndo { accept: true }).await;
    let v = admin.view(room).await;
    assert_eq!((v["move_number"].as_u64(), v["to_move"].as_str()), (Some(1), Some("white")), "the pass taken back");
    let _ = t.srv.stop().await;
}

/// Plays the person's side: a few moves on free points, acknowledging the computer's.
async fn play_against_computer(p: &Player, room: i64, human: &str, moves: &[(i64, i64)]) -> Value {
    for &(x, y) in moves {
        let v =
            until_view(p, room, |v| v["to_move"] == human && v["awaiting_ack"].is_null() && v["phase"] == "playing")
                .await;
        let occupied = v["stones"].as_array().unwrap().iter().any(|s| s[0]["x"] == x && s[0]["y"] == y);
        if occupied {
            continue;
        }
        let n = v["move_number"].as_u64().unwrap() as u32;
        let reply = p.cmd(room, mv(x, y)).await;
        if reply.0 != 200 {
            continue; // e.g. a point the computer's stones made suicide
        }
        // The computer's device shows the move at once; its answer follows.
        let v = until_view(p, room, |v| v["move_number"].as_u64() == Some(u64::from(n) + 2)).await;
        let m = v["move_number"].as_u64().unwrap() as u32;
        p.ok(room, Command::Acknowledge { move_number: m }).await;
    }
    p.view(room).await
}

#[tokio::test]
async fn a_player_plays_the_computer_to_the_end() {
    let t = Table::new().await;
    let a = &t.alice;
    let settings =
        classic_with(RoomMode::VsComputer { computer: computer(Colour::Black, 1), opponent: Opponent::Creator });
    let room = create(a, &settings).await;
    let v = view(&t.base, room).await;
    // The model is pinned at creation (003 §12.5): the built-in model, version 1.
    let pinned = &v["settings"]["mode"]["computer"]["model"];
    assert_eq!(pinned["version"], 1, "{v}");
    assert!(pinned["fingerprint"].as_str().unwrap().starts_with("sha256:"), "{pinned}");
    assert_eq!(v["white"], "alice");
    assert_eq!(v["black"], "computer");
    // The person's start: the computer is ready, and moves first as Black.
    a.ok(room, Command::Ready).await;
    let v = until_view(a, room, |v| v["move_number"] == 1).await;
    assert_eq!(v["to_move"], "white");
    a.ok(room, Command::Acknowledge { move_number: 1 }).await;
    let v = play_against_computer(a, room, "white", &[(3, 3), (7, 7), (3, 7), (7, 3), (5, 5)]).await;
    assert!(v["move_number"].as_u64().unwrap() >= 6, "{v}");
    // 003 §11.4: it passes after the person passes, and counting starts.
    let v = until_view(a, room, |v| v["to_move"] == "white" && v["awaiting_ack"].is_null()).await;
    let n = v["move_number"].as_u64().unwrap();
    a.ok(room, json!({"type": "pass"})).await;
    let v = until_view(a, room, |v| v["phase"] == "scoring" && v["scoring"]["consents"][0].is_u64()).await;
    // It proposed its marks and consented to the latest statement; the person consents too.
    let statement = v["scoring"]["statement"].as_u64().unwrap();
    assert_eq!(v["scoring"]["consents"][0].as_u64(), Some(statement));
    a.ok(room, Command::Consent { statement }).await;
    let v = until_view(a, room, |v| v["phase"] == "finished").await;
    assert_eq!(v["result"]["reason"], "score");
    // Every computer move is an ordinary event of the log: moves, passes, acknowledgements.
    let log = events(a, room).await;
    let kinds = types(&log);
    assert!(kinds.iter().filter(|k| *k == "move_played").count() as u64 >= n / 2);
    assert!(kinds.contains(&"passed".to_string()) && kinds.contains(&"consented".to_string()));
    let computer_moves = log.iter().filter(|e| e["event"]["type"] == "move_played" && e["event"]["colour"] == "black");
    for e in computer_moves {
        assert!(e["actor"].is_null(), "the computer acts as no account: {e}");
    }
    let _ = t.srv.stop().await;
}

#[tokio::test]
async fn practice_against_the_computer_and_a_restart_pauses_it() {
    let dir = tempfile::tempdir().unwrap();
    let srv = Running::start(dir.path()).await;
    let admin = admin(&srv, "referee").await;
    let settings = classic_with(RoomMode::Practice { computer: Some(computer(Colour::White, 2)) });
    let room = create(&admin, &settings).await;
    admin.ok(room, Command::Ready).await;
    admin.ok(room, mv(5, 5)).await;
    // The search answers within its time per move and the administrator's device shows it.
    let v = until_view(&admin, room, |v| v["move_number"] == 2).await;
    assert_eq!(v["to_move"], "black");
    admin.ok(room, Command::Acknowledge { move_number: 2 }).await;
    let base = srv.base.clone();
    srv.stop().await;
    // 003 §11.7: after a restart the practice game waits until the administrator is ready.
    let srv = Running::start(dir.path()).await;
    let admin = admin_again(&srv, &admin).await;
    let v = admin.view(room).await;
    assert_eq!(v["phase"], "waiting_ready", "{v}");
    assert_eq!(v["move_number"], 2);
    let (status, body) = admin.cmd(room, mv(3, 3)).await;
    assert_eq!(status, 409, "no move while paused: {body}");
    admin.ok(room, Command::Ready).await;
    let v = admin.view(room).await;
    assert_eq!(v["phase"], "playing");
    // The computer's seed is drawn per room, so its answer may be anywhere: play a free point.
    let taken = |x: i64, y: i64| v["stones"].as_array().unwrap().iter().any(|s| s[0]["x"] == x && s[0]["y"] == y);
    let (x, y) = [(3, 3), (7, 7), (3, 7)].into_iter().find(|&(x, y)| !taken(x, y)).unwrap();
    admin.ok(room, mv(x, y)).await;
    let v = until_view(&admin, room, |v| v["move_number"] == 4).await;
    assert_eq!(v["to_move"], "black");
    let _ = base;
    srv.stop().await;
}

/// The same administrator signed in on a restarted server.
async fn admin_again(srv: &Running, before: &Player) -> Player {
    before.at(&srv.base)
}
