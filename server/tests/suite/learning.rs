//! Local learning over the real server (003 §12): the models' list, export and checked
//! import; eligibility of finished games; training runs that pause the games in play and
//! make a new model while the old ones stay.

use crate::support::*;
use serde_json::{json, Value};
use wire::{commands::Command, mode::RoomMode, settings::MatchSettings};

fn mv(x: i64, y: i64) -> Value {
    json!({"type": "move", "at": {"x": x, "y": y, "z": 1}})
}

/// A one-device 9×9 game played to a counted result: Black walls off the left side.
pub(crate) async fn scored_game(p: &Player, seed_x: i64) -> i64 {
    let mut s = MatchSettings::classic_default(9);
    s.mode = RoomMode::OneDevice { second_player: "Kim".into() };
    s.colours = wire::settings::ColourAssignment::HostBlack;
    let room = p.create_room("learn", &s).await.unwrap()["room_id"].as_i64().unwrap();
    p.ok(room, Command::Ready).await;
    p.ok(room, Command::Ready).await;
    let black: Vec<(i64, i64)> = (1..=9).map(|y| (seed_x, y)).collect();
    let white: Vec<(i64, i64)> = (1..=9).map(|y| (seed_x + 2, y)).collect();
    let mut n = 0;
    for (b, w) in black.iter().zip(&white) {
        for at in [b, w] {
            p.ok(room, mv(at.0, at.1)).await;
            n += 1;
            p.ok(room, Command::Acknowledge { move_number: n }).await;
        }
    }
    p.ok(room, json!({"type": "pass"})).await;
    p.ok(room, Command::Acknowledge { move_number: n + 1 }).await;
    p.ok(room, json!({"type": "pass"})).await;
    let st = p.view(room).await["scoring"]["statement"].as_u64().unwrap();
    p.ok(room, Command::Consent { statement: st }).await;
    p.ok(room, Command::Consent { statement: st }).await;
    let v = p.view(room).await;
    assert_eq!(v["result"]["reason"], "score", "{v}");
    room
}

async fn training(admin: &Player) -> Value {
    admin.get_json("/api/v1/admin/training").await
}

#[tokio::test]
async fn models_export_and_import_with_checked_fields() {
    let t = Table::new().await;
    let admin = admin(&t.srv, "referee").await;
    let list = Player::new(&t.base).get_json("/api/v1/models").await;
    assert_eq!(list[0]["version"], 1, "{list}");
    assert_eq!(list[0]["source"], "builtin");
    let fp = list[0]["fingerprint"].as_str().unwrap().to_string();
    let (status, file) = Player::new(&t.base).get("/api/v1/models/1").await;
    assert_eq!(status, 200, "{file}");
    let file: Value = serde_json::from_str(&file).unwrap();
    assert_eq!(file["format"], "space-baduk-model");
    assert_eq!(file["fingerprint"], fp.as_str());
    assert_eq!(file["weights"].as_object().unwrap().len(), 8);
    assert!(!file.to_string().contains("invite"), "no secrets in a model file: {file}");
    // A player may not import; an administrator may, as a new model with the same weights.
    let (status, body) = t.alice.post("/api/v1/models", &file).await;
    assert_eq!((status, body["error"].as_str()), (403, Some("admin_only")), "{body}");
    let (status, body) = admin.post("/api/v1/models", &file).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!((body["version"].as_u64(), body["source"].as_str()), (Some(2), Some("imported")));
    assert_eq!(body["fingerprint"], fp.as_str());
    let log = admin.get_json("/api/v1/admin/audit?action=model_imported").await;
    let named =
        format!("{} version {}", file["provenance"]["model_id"].as_str().unwrap(), file["provenance"]["version"]);
    assert!(log[0]["reasons"].as_str().unwrap().starts_with(&named), "the file names itself in the log: {log}");
    // Each bad field is named.
    let refused = |f: &dyn Fn(&mut Value)| {
        let mut bad = file.clone();
        f(&mut bad);
        bad
    };
    for (bad, field) in [
        (refused(&|v| v["weights"]["captures"] = json!(1e9)), "weights.captures"),
        (refused(&|v| v["fingerprint"] = json!(format!("sha256:{}", "0".repeat(64)))), "fingerprint"),
        (refused(&|v| v["format_version"] = json!(7)), "format_version"),
        (refused(&|v| v["weights"]["bogus"] = json!(1.0)), "weights.bogus"),
        (refused(&|v| v["format"] = json!("other")), "format"),
    ] {
        let (status, body) = admin.post("/api/v1/models", &bad).await;
        assert_eq!((status, body["error"].as_str()), (422, Some("bad_model_file")), "{field}: {body}");
        assert_eq!(body["detail"]["field"], field, "{body}");
    }
    assert_eq!(t.srv.base, t.base);
    let (status, _) = Player::new(&t.base).get("/api/v1/models/99").await;
    assert_eq!(status, 404);
    let _ = t.srv.stop().await;
}

#[tokio::test]
async fn training_needs_two_eligible_games_pauses_play_and_makes_a_new_model() {
    let t = Table::new().await;
    let admin = admin(&t.srv, "referee").await;
    // Only the administrator trains.
    let (status, _) = t.alice.post("/api/v1/admin/training", json!({"epochs": 3, "seed": 1})).await;
    assert_eq!(status, 403);
    // Eligible: counted results with a winner. Excluded: resignation, unfinished.
    let first = scored_game(&t.alice, 4).await;
    let refused = admin.post("/api/v1/admin/training", json!({"epochs": 3, "seed": 1})).await;
    assert_eq!(refused.0, 409, "{}", refused.1);
    assert_eq!(refused.1["detail"]["why"]["kind"], "too_few_games", "{}", refused.1);
    assert_eq!(refused.1["detail"]["why"]["have"], 1);
    let second = scored_game(&t.bob, 5).await;
    let resigned = started_room(&t.alice, &t.bob, classic_9(wire::settings::ColourAssignment::HostBlack)).await;
    t.alice.ok(resigned, Command::Resign).await;
    let in_play = started_room(&t.alice, &t.bob, classic_9(wire::settings::ColourAssignment::HostBlack)).await;
    played(&t.alice, &t.bob, in_play, mv(3, 3), 1).await;
    // Epochs out of range; a game in play needs the confirmation and reasons.
    let (status, body) = admin.post("/api/v1/admin/training", json!({"epochs": 51, "seed": 1})).await;
    assert_eq!((status, body["detail"]["why"]["kind"].as_str()), (409, Some("epochs_out_of_range")), "{body}");
    let (status, body) = admin.post("/api/v1/admin/training", json!({"epochs": 3, "seed": 1})).await;
    assert_eq!((status, body["detail"]["why"]["kind"].as_str()), (409, Some("pause_not_confirmed")), "{body}");
    let req = json!({"epochs": 3, "seed": 7, "confirm_pause": true, "reasons": "training the computer"});
    let (status, body) = admin.post("/api/v1/admin/training", &req).await;
    assert_eq!(status, 202, "{body}");
    let eligible: Vec<i64> =
        body["eligible"].as_array().unwrap().iter().map(|g| g["room_id"].as_i64().unwrap()).collect();
    assert_eq!(eligible, vec![first, second]);
    let kinds: Vec<(i64, String)> = body["excluded"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["room_id"].as_i64().unwrap(), e["kind"].as_str().unwrap().to_string()))
        .collect();
    assert!(kinds.contains(&(resigned, "resignation".into())), "{kinds:?}");
    assert!(kinds.contains(&(in_play, "unfinished".into())), "{kinds:?}");
    assert_eq!(body["paused_rooms"], json!([in_play]));
    // The run finishes; every epoch (0 = the start weights) has held-out metrics.
    let mut status = training(&admin).await;
    for _ in 0..500 {
        if status["state"] == "finished" || status["state"] == "failed" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        status = training(&admin).await;
    }
    assert_eq!(status["state"], "finished", "{status}");
    let epochs = status["epochs"].as_array().unwrap();
    assert_eq!(epochs.iter().map(|e| e["epoch"].as_u64().unwrap()).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
    for e in epochs {
        let acc = e["accuracy"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&acc) && e["mean_rank"].as_f64().unwrap() >= 1.0, "{e}");
    }
    assert_eq!(status["model"]["version"], 2);
    assert_eq!(status["model"]["source"], "trained");
    assert_eq!(status["model"]["source_games"], 2);
    // The old model stays; the paused game was held and is resumed as after any hold.
    let models = admin.get_json("/api/v1/models").await;
    assert_eq!(models.as_array().unwrap().len(), 2);
    let log = t.alice.get_json(&format!("/api/v1/rooms/{in_play}/events")).await;
    let kinds: Vec<&str> = log.as_array().unwrap().iter().map(|e| e["event"]["type"].as_str().unwrap()).collect();
    assert!(kinds.ends_with(&["held", "resumed"]), "{kinds:?}");
    let v = until_view(&t.alice, in_play, |v| v["phase"] == "waiting_ready").await;
    assert_eq!(v["move_number"], 1);
    // The administrators' log: the run's start (settings, games, paused rooms) and the model
    // it made, both with the reasons given.
    let log = admin.get_json("/api/v1/admin/audit").await;
    let entry = |action: &str| log.as_array().unwrap().iter().find(|e| e["action"] == action).cloned().unwrap();
    let started = entry("training_started");
    assert_eq!(
        (started["reasons"].as_str(), started["after"]["rooms_to_pause"].clone()),
        (Some("training the computer"), json!([in_play]))
    );
    assert_eq!((started["after"]["epochs"].as_u64(), started["after"]["games"].as_u64()), (Some(3), Some(2)));
    let trained = entry("model_trained");
    assert_eq!(
        (trained["reasons"].as_str(), trained["after"]["version"].as_i64()),
        (Some("training the computer"), Some(2))
    );
    let _ = t.srv.stop().await;
}
