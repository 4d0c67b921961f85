//! Finding a game over the real server: an open challenge seats its creator and is listed
//! until someone takes the free seat; a player may leave before both confirm (the
//! confirmations start again) and the creator may cancel before play; the games under way are
//! listed for anyone, and each player's games are sorted by what waits for them. Who may do
//! each of it, and the refusals.

use crate::support::*;
use serde_json::{json, Value};
use wire::{
    commands::Command,
    settings::{ColourAssignment, RoomAccess},
};

async fn lobby(p: &Player) -> Value {
    let (status, body) = p.form("/api/lobby", &[]).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

async fn my_games(p: &Player) -> Value {
    let (status, body) = p.form("/api/my_games", &[]).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// The home page's lobby buttons (`lobby_command`): the room command without its events.
async fn lobby_command(p: &Player, room: i64, action: &str) -> (u16, Value) {
    p.post("/api/lobby_command", json!({"room_id": room, "action": action})).await
}

fn ids(list: &Value) -> Vec<i64> {
    list.as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect()
}

fn open_classic() -> wire::settings::MatchSettings {
    let mut s = classic_9(ColourAssignment::HostBlack);
    s.access = RoomAccess::Open;
    s
}

#[tokio::test]
async fn an_open_challenge_is_listed_taken_left_and_cancelled() {
    let Table { srv, base, alice, bob, _dir, .. } = Table::new().await;
    let carol = Player::sign_up(&base, "carol").await;
    let anonymous = Player::new(&base);

    // Created open: the creator waits in the first seat; anyone sees the challenge.
    let room = alice.create_room("Open 9", &open_classic()).await.unwrap()["room_id"].as_i64().unwrap();
    let v = view(&base, room).await;
    assert_eq!((v["phase"].as_str(), v["seats"].clone()), (Some("open"), json!(["alice", null])));
    let l = lobby(&anonymous).await;
    assert_eq!(ids(&l["open"]), [room]);
    let listed = &l["open"][0];
    assert_eq!((listed["creator"].as_str(), listed["listing"]["access"].as_str()), (Some("alice"), Some("open")));
    assert_eq!(listed["listing"]["time"]["kind"], "byoyomi", "{listed}");
    // A room by invitation is not listed, and its seats are not for the taking.
    let invited = alice.create_room("By invitation", &classic_9(ColourAssignment::HostBlack)).await.unwrap();
    let invited = invited["room_id"].as_i64().unwrap();
    assert_eq!(ids(&lobby(&anonymous).await["open"]), [room]);
    let (status, e) = carol.cmd(invited, Command::TakeSeat).await;
    assert_eq!((status, e["error"].as_str()), (403, Some("by_invitation_only")), "{e}");

    // Taking the free seat needs an account; then the challenge leaves the list.
    let (status, _) = anonymous.cmd(room, Command::TakeSeat).await;
    assert_eq!(status, 401);
    assert_eq!(lobby_command(&anonymous, room, "take_seat").await.0, 401, "the home page's button too");
    let (status, e) = alice.cmd(room, Command::TakeSeat).await;
    assert_eq!((status, e["error"].as_str()), (409, Some("already_seated")));
    let (status, e) = lobby_command(&bob, room, "sit_anywhere").await;
    assert_eq!(status, 400, "not a lobby action: {e}");
    // Bob takes it from the home page.
    assert_eq!(lobby_command(&bob, room, "take_seat").await, (200, Value::Null));
    assert_eq!(view(&base, room).await["seats"], json!(["alice", "bob"]));
    assert!(ids(&lobby(&anonymous).await["open"]).is_empty());
    let (status, e) = carol.cmd(room, Command::TakeSeat).await;
    assert_eq!((status, e["error"].as_str()), (409, Some("seat_taken")));
    assert_eq!(ids(&my_games(&bob).await["waiting_for_you"]), [room], "bob confirms the settings");

    // Leaving before both confirm: the seat is free again and confirmations start over.
    alice.ok(room, Command::Confirm).await;
    let (status, e) = carol.cmd(room, Command::LeaveSeat).await;
    assert_eq!((status, e["error"].as_str()), (403, Some("not_a_player")));
    bob.ok(room, Command::LeaveSeat).await;
    let v = view(&base, room).await;
    assert_eq!((v["seats"].clone(), v["confirmed"].clone()), (json!(["alice", null]), json!([false, false])));
    assert_eq!(ids(&lobby(&anonymous).await["open"]), [room], "listed again");
    assert!(ids(&my_games(&bob).await["waiting_for_you"]).is_empty());

    // Only the creator cancels, and only before play; a cancelled room takes nothing more.
    carol.ok(room, Command::TakeSeat).await;
    let (status, e) = carol.cmd(room, Command::CancelRoom).await;
    assert_eq!((status, e["error"].as_str()), (403, Some("not_the_creator")));
    let (status, e) = lobby_command(&carol, room, "cancel_room").await;
    assert_eq!((status, e["error"].as_str()), (403, Some("not_the_creator")));
    assert_eq!(lobby_command(&alice, room, "cancel_room").await, (200, Value::Null));
    let v = view(&base, room).await;
    assert_eq!(v["phase"], "cancelled");
    let (status, e) = carol.cmd(room, Command::Confirm).await;
    assert_eq!((status, e["error"].as_str()), (409, Some("wrong_phase")));
    assert!(ids(&lobby(&anonymous).await["open"]).is_empty());
    let mine = my_games(&alice).await;
    assert!(!ids(&mine["in_play"]).contains(&room) && !ids(&mine["waiting_for_you"]).contains(&room));

    // Open only for a match between two people.
    let mut one_device = open_classic();
    one_device.mode = wire::mode::RoomMode::OneDevice { second_player: "Min".into() };
    let e = alice.create_room("x", &one_device).await.unwrap_err();
    assert!(e.contains("400") && e.contains("access: open is not allowed"), "{e}");
    srv.stop().await;
}

#[tokio::test]
async fn games_under_way_are_listed_for_anyone_and_sorted_for_their_players() {
    let Table { srv, base, alice, bob, _dir, .. } = Table::new().await;
    let anonymous = Player::new(&base);
    let room = alice.create_room("Open 9", &open_classic()).await.unwrap()["room_id"].as_i64().unwrap();
    bob.ok(room, Command::TakeSeat).await;
    alice.ok(room, Command::Confirm).await;
    bob.ok(room, Command::Confirm).await;
    alice.ok(room, Command::Ready).await;
    bob.ok(room, Command::Ready).await;
    played(&alice, &bob, room, json!({"type": "move", "at": {"x": 3, "y": 3, "z": 1}}), 1).await;

    let live = lobby(&anonymous).await["live"].clone();
    assert_eq!(ids(&live), [room]);
    let listing = &live[0]["listing"];
    assert_eq!(listing["move_number"], 1);
    assert_eq!(
        listing["seats"],
        json!([{"kind": "person", "username": "alice"}, {"kind": "person", "username": "bob"}])
    );
    assert_eq!(listing["black"], "first", "host Black");
    // White (bob) is to move: his game waits for him, alice's is under way.
    assert_eq!(ids(&my_games(&bob).await["waiting_for_you"]), [room]);
    assert_eq!(ids(&my_games(&alice).await["in_play"]), [room]);
    assert_eq!(my_games(&anonymous).await, json!({"waiting_for_you": [], "in_play": [], "finished": []}));

    // Finished: off the live list, among each player's finished games with its result.
    bob.ok(room, Command::Resign).await;
    assert!(ids(&lobby(&anonymous).await["live"]).is_empty());
    let finished = my_games(&alice).await["finished"].clone();
    assert_eq!(ids(&finished), [room]);
    assert_eq!(finished[0]["listing"]["result"]["winner"], "black", "{finished}");

    // Profiles: anyone reads the counts; the sanctions only the player and
    // administrators.
    let profile = |p: &Player, name: &str| {
        let (p, name) = (p.clone(), name.to_string());
        async move {
            let (status, body) = p.form("/api/player_profile", &[("username", name.as_str())]).await;
            (status, serde_json::from_str::<Value>(&body).unwrap_or(Value::Null))
        }
    };
    let (status, a) = profile(&anonymous, "alice").await;
    assert_eq!(status, 200, "{a}");
    assert_eq!(
        a["counts"],
        json!([{"preset": "classic", "mode": "match", "played": 1, "won": 1, "lost": 0,
        "drawn": 0, "void": 0, "other": 0}])
    );
    assert_eq!((ids(&a["recent"]), a["sanctions"].clone()), (vec![room], Value::Null));
    let (_, b) = profile(&bob, "bob").await;
    assert_eq!((b["counts"][0]["lost"].as_u64(), b["sanctions"].clone()), (Some(1), json!([])), "his own");
    assert_eq!(profile(&bob, "alice").await.1["sanctions"], Value::Null, "not another's");
    let (status, e) = profile(&anonymous, "nobody").await;
    assert_eq!((status, e["error"].as_str()), (404, Some("no_player")), "{e}");

    // The listing survives a restart (it is stored with the events), and a room loaded
    // again writes it anew only when it differs.
    let dir = _dir;
    srv.stop().await;
    let srv = Running::start(dir.path()).await;
    let after = Player::new(&srv.base);
    assert!(ids(&lobby(&after).await["live"]).is_empty());
    let alice = alice.at(&srv.base);
    assert_eq!(ids(&my_games(&alice).await["finished"]), [room]);
    srv.stop().await;

    // A room closed before lists existed has no listing: the next start lists it from its log.
    let db = RawDb::open(dir.path()).await;
    let sql = "UPDATE rooms SET listing = NULL WHERE id = $1";
    db.exec(sql, sql, &[room]).await;
    db.close().await;
    let srv = Running::start(dir.path()).await;
    let alice = alice.at(&srv.base);
    for _ in 0..200 {
        if !my_games(&alice).await["finished"][0]["listing"].is_null() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let finished = my_games(&alice).await["finished"].clone();
    assert_eq!((ids(&finished), finished[0]["listing"]["result"]["winner"].as_str()), (vec![room], Some("black")));
    srv.stop().await;
}
