//! Program matches over the real server (003 §12.4): an administrator starts a series
//! between a model at two levels; the games run one after another as ordinary rooms with
//! the computer in both seats, colours swapped, identical settings and automatically
//! agreed marks, and the report tallies wins with each game's record.

use crate::support::*;
use serde_json::{json, Value};
use wire::{
    events::Colour,
    mode::{ComputerSeat, RoomMode},
    settings::MatchSettings,
};

fn request(games: u32, settings: &MatchSettings) -> Value {
    json!({
        "a": {"level": 2, "move_ms": 100},
        "b": {"level": 1, "move_ms": 100},
        "games": games,
        "settings": settings,
    })
}

/// Follows the series to its end; each count waits for the administrator's review (003
/// §12.4), who confirms the programs' statement.
async fn to_the_end(admin: &Player, id: i64) -> Value {
    let path = format!("/api/v1/admin/program-matches/{id}");
    let mut reviewed = 0;
    for _ in 0..1200 {
        let r = admin.get_json(&path).await;
        if r["finished"] == true {
            assert_eq!(reviewed, 2, "both counts were reviewed: {r}");
            return r;
        }
        for g in r["games"].as_array().unwrap().iter().filter(|g| g["phase"] == "awaiting_review") {
            let room = g["room_id"].as_i64().unwrap();
            assert!(g["result"].is_null(), "not final before the review: {g}");
            let n = admin.view(room).await["scoring"]["statement"].as_u64().unwrap();
            let confirm = json!({"type": "admin_confirm_statement", "statement": n, "reasons": "marks checked"});
            admin.ok(room, confirm).await;
            reviewed += 1;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the series did not finish: {}", admin.get_json(&path).await);
}

#[tokio::test]
async fn a_series_plays_swapped_colours_to_counted_results_and_tallies_them() {
    let t = Table::new().await;
    let admin = admin(&t.srv, "referee").await;
    let mut settings = MatchSettings::classic_default(9);
    // GNU Go's comparison settings (area scoring, komi 7), shared by every game.
    settings.komi_half_points = 14;
    settings.scoring = serde_json::from_value(json!("area")).unwrap();
    let (status, started) = admin.post("/api/v1/admin/program-matches", request(2, &settings)).await;
    assert_eq!(status, 201, "{started}");
    assert_documented("ProgramMatch", &started);
    let id = started["id"].as_i64().unwrap();
    assert_eq!(started["a"]["model"]["version"], 1, "the built-in model, pinned: {started}");
    assert_eq!(started["games_planned"], 2);
    let report = to_the_end(&admin, id).await;
    assert_documented("ProgramMatch", &report);
    let games = report["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{report}");
    assert_eq!(games[0]["a_colour"], "black", "A is Black in the odd games");
    assert_eq!(games[1]["a_colour"], "white", "and White in the even ones");
    let wins = report["wins_a"].as_u64().unwrap() + report["wins_b"].as_u64().unwrap();
    assert_eq!(wins + report["no_winner"].as_u64().unwrap(), 2, "{report}");
    let mut shared = Vec::new();
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["phase"], "finished");
        assert!(g["moves"].as_u64().unwrap() > 10, "a real game: {g}");
        let room = g["room_id"].as_i64().unwrap();
        let v = admin.view(room).await;
        // The room says what it is, with both seats the computer's and the series' number.
        let mode = &v["settings"]["mode"];
        assert_eq!(mode["kind"], "program_game", "{v}");
        assert_eq!((mode["series"].as_i64(), mode["game"].as_u64()), (Some(id), Some(i as u64 + 1)));
        let first: ComputerSeat = serde_json::from_value(mode["first"].clone()).unwrap();
        assert_eq!(first.level, 2);
        assert_eq!(first.colour, if i == 0 { Colour::Black } else { Colour::White });
        assert_eq!(first.model.as_ref().map(|m| m.version), Some(1));
        // A finished count: the marks were agreed automatically, and flagged.
        if v["result"]["reason"] == "score" {
            assert_eq!(g["marks_auto_agreed"], true, "{g}");
            let consents = &v["scoring"]["consents"];
            assert_eq!(consents[0], consents[1], "both programs consented to the same statement: {v}");
        }
        // The series keeps each final result itself (its report loads no finished room).
        for key in ["reason", "winner", "margin_half", "method"] {
            assert_eq!(g["result"][key], v["result"][key], "{key}: {g} {v}");
        }
        assert_eq!(g["moves"], v["move_number"]);
        let winner = g["winner"].as_str();
        let a_won = v["result"]["winner"].as_str() == g["a_colour"].as_str();
        match winner {
            Some("a") => assert!(a_won, "{g} {v}"),
            Some("b") => assert!(!a_won, "{g} {v}"),
            _ => assert!(v["result"]["winner"].is_null(), "{g} {v}"),
        }
        // Every command went through the room's log, without an account acting.
        let events = admin.get_json(&format!("/api/v1/rooms/{room}/events")).await;
        let events = events.as_array().unwrap();
        let moves = events.iter().filter(|e| e["event"]["type"] == "move_played").count();
        assert!(moves > 10, "moves are in the log");
        // The series' administrator created the room and its seats; from the start on only
        let start = events.iter().position(|e| e["event"]["type"] == "started").unwrap();
        // the programs act, until the administrator's review confirms the count.
        let acted: Vec<&str> = events[start + 1..]
            .iter()
            .filter(|e| !e["actor"].is_null())
            .map(|e| e["event"]["type"].as_str().unwrap())
            .collect();
        assert_eq!(acted, ["statement_confirmed", "ended"], "only programs play and count");
        let (status, _) = admin.get(&format!("/api/v1/rooms/{room}/record")).await;
        assert_eq!(status, 200, "the administrator reads the record");
        let mut s: MatchSettings = serde_json::from_value(v["settings"].clone()).unwrap();
        // The seats and the colours they fix are each game's own.
        s.mode = RoomMode::Match;
        s.colours = wire::settings::ColourAssignment::Nigiri;
        shared.push(s);
    }
    assert_eq!(shared[0], shared[1], "identical settings apart from the seats");
    assert_eq!(shared[0].komi_half_points, 14);
    // The list shows it too; a player reads none of it.
    let list = admin.get_json("/api/v1/admin/program-matches").await;
    assert_eq!(list[0]["id"], id);
    let (status, body) = t.alice.get(&format!("/api/v1/admin/program-matches/{id}")).await;
    assert_eq!(status, 403, "{body}");
    let _ = t.srv.stop().await;
}

#[tokio::test]
async fn refusals_name_what_is_wrong_and_who_may_start() {
    let t = Table::new().await;
    let admin = admin(&t.srv, "referee").await;
    let settings = MatchSettings::classic_default(9);
    let path = "/api/v1/admin/program-matches";
    let (status, body) = t.alice.post(path, request(2, &settings)).await;
    assert_eq!((status, body["error"].as_str()), (403, Some("admin_only")), "{body}");
    let (status, body) = Player::new(&t.base).get(path).await;
    assert_eq!(status, 401, "{body}");
    let (status, body) = t.alice.get(path).await;
    assert_eq!(status, 403, "{body}");
    for games in [0, 3, 102] {
        let (status, body) = admin.post(path, request(games, &settings)).await;
        assert_eq!(status, 400, "{games}: {body}");
        assert_eq!(body["detail"]["field"], "games", "{body}");
        assert!(body["message"].as_str().unwrap().contains("2") && body["message"].as_str().unwrap().contains("100"));
    }
    let mut bad = request(2, &settings);
    bad["b"]["level"] = json!(3);
    let (status, body) = admin.post(path, bad).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["message"].as_str().unwrap().contains("mode.second.level"), "{body}");
    let mut missing = request(2, &settings);
    missing["a"]["model_id"] = json!(99);
    let (status, body) = admin.post(path, missing).await;
    assert_eq!((status, body["error"].as_str()), (404, Some("no_model")), "{body}");
    let (status, body) = admin.get(&format!("{path}/77")).await;
    assert_eq!(status, 404, "{body}");
    assert!(body.contains("no_program_match"), "{body}");
    let (status, body) = admin.get(&format!("{path}/0")).await;
    assert_eq!(status, 400, "{body}");
    // A program game is made by its series only, never by the new-room API.
    let mut s = settings.clone();
    let seat = |colour| ComputerSeat { colour, level: 1, move_ms: 100, model_id: None, model: None, seed: 0 };
    let (first, second) = (Box::new(seat(Colour::Black)), Box::new(seat(Colour::White)));
    s.mode = RoomMode::ProgramGame { first, second, series: 1, game: 1 };
    let refused = admin.create_room("sneaky", &s).await.unwrap_err();
    assert!(refused.contains("program match"), "{refused}");
    assert!(admin.get_json(path).await.as_array().unwrap().is_empty(), "nothing was started");
    let _ = t.srv.stop().await;
}

#[tokio::test]
async fn a_series_goes_on_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let srv = Running::start(dir.path()).await;
    let admin = admin(&srv, "referee").await;
    let mut req = request(2, &MatchSettings::classic_default(9));
    req["a"]["move_ms"] = json!(1000);
    let (status, started) = admin.post("/api/v1/admin/program-matches", req).await;
    assert_eq!(status, 201, "{started}");
    let id = started["id"].as_i64().unwrap();
    let path = format!("/api/v1/admin/program-matches/{id}");
    let room = 'first: {
        for _ in 0..300 {
            let r = admin.get_json(&path).await;
            if r["games"][0]["moves"].as_u64().unwrap_or(0) >= 2 {
                break 'first r["games"][0]["room_id"].as_i64().unwrap();
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("the first game did not start");
    };
    srv.stop().await;
    let srv = Running::start(dir.path()).await;
    let admin = admin.at(&srv.base);
    let before = admin.view(room).await["move_number"].as_u64().unwrap();
    // The series is resumed at start, and its game goes on from where it stood.
    let v = until_view(&admin, room, |v| v["move_number"].as_u64().unwrap() > before + 1).await;
    assert_eq!(v["phase"], "playing", "{v}");
    let r = admin.get_json(&path).await;
    assert_eq!(r["finished"], false);
    assert_eq!(r["games"].as_array().unwrap().len(), 1, "no second game while the first plays: {r}");
    srv.stop().await;
}
