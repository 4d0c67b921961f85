//! Stored records stay private (003 §8.1), on the real server and SQLite file: live viewing
//! is open to all, but the stored events (`GET …/events`, the stream's replay) and the
//! record downloads only to the two players, administrators and viewers both players
//! approved — during play and after the end. Approvals name accounts by id; user names are
//! unique under NFC + full case folding.

use serde_json::{json, Value};
use wire::settings::ColourAssignment;

use crate::support::*;
use testclient::Ws;

fn mv(x: i64, y: i64, z: i64) -> Value {
    json!({"type": "move", "at": {"x": x, "y": y, "z": z}})
}

/// Everyone of the access matrix, with whether they may read the stored record.
struct Cast {
    who: Vec<(&'static str, Player, bool)>,
}

impl Cast {
    fn get(&self, name: &str) -> &Player {
        &self.who.iter().find(|(n, _, _)| *n == name).expect("in the cast").1
    }
}

/// `GET path` as JSON (status, body).
async fn get_json(p: &Player, path: &str) -> (u16, Value) {
    let (status, body) = p.get(path).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// HTTP `events`, `record` and `record.sgf`: exactly those who may read get them; the
/// anonymous visitor is refused as such (401 for the downloads, 403 for the events).
async fn check_http(cast: &Cast, room: i64, version: i64, stage: &str) {
    for (name, p, may) in &cast.who {
        let ctx = format!("{stage}: {name}");
        let (status, log) = get_json(p, &format!("/api/v1/rooms/{room}/events?after=0")).await;
        if *may {
            assert_eq!(status, 200, "{ctx}: {log}");
            let log = log.as_array().unwrap();
            assert_eq!(
                (log[0]["seq"].as_i64(), log[0]["event"]["type"].as_str()),
                (Some(1), Some("room_created")),
                "{ctx}"
            );
            assert_eq!(log.last().unwrap()["seq"].as_i64(), Some(version), "{ctx}: the whole log");
            let (status, tail) = get_json(p, &format!("/api/v1/rooms/{room}/events?after={}", version - 1)).await;
            assert_eq!((status, tail.as_array().map(Vec::len)), (200, Some(1)), "{ctx}: after=N");
        } else {
            assert_eq!((status, log["error"].as_str()), (403, Some("record_not_allowed")), "{ctx}: {log}");
            let (status, body) = get_json(p, &format!("/api/v1/rooms/{room}/events?after={}", version - 1)).await;
            assert_eq!((status, body["error"].as_str()), (403, Some("record_not_allowed")), "{ctx}: after=N");
        }
        for path in [format!("/api/v1/rooms/{room}/record"), format!("/api/v1/rooms/{room}/record.sgf")] {
            let (status, body) = p.get(&path).await;
            match (*may, *name) {
                (true, _) => assert_eq!(status, 200, "{ctx}: {path}: {body}"),
                (false, "anonymous") => assert_eq!(status, 401, "{ctx}: {path}: {body}"),
                (false, _) => {
                    assert_eq!(status, 403, "{ctx}: {path}: {body}");
                    assert!(body.contains("record_not_allowed"), "{ctx}: {body}");
                }
            }
        }
    }
    // A missing room stays a 404, for anyone, before any access question.
    for (name, p, _) in &cast.who {
        let (status, body) = get_json(p, "/api/v1/rooms/9999/events?after=0").await;
        assert_eq!((status, body["error"].as_str()), (404, Some("room_not_found")), "{stage}: {name}");
    }
}

/// Opens everyone's stream with `?after=0` (some of those without access with another
/// `after`: it makes no difference) and checks what it starts with. Returns the open
/// streams with the version they joined at.
async fn open_streams(cast: &Cast, room: i64, version: i64, stage: &str) -> Vec<(&'static str, bool, Ws, i64)> {
    let mut out = Vec::new();
    for (i, (name, p, may)) in cast.who.iter().enumerate() {
        let ctx = format!("{stage}: {name}");
        let after = if *may { 0 } else { [0, 1, version][i % 3] };
        let mut ws = p.stream(room, after).await;
        if *may {
            // The whole stored log, from the room's creation.
            let got = read_until(&mut ws, |m| m["event"]["seq"].as_i64() == Some(version)).await;
            let seqs: Vec<i64> = got.iter().map(|m| m["event"]["seq"].as_i64().expect("events only")).collect();
            assert_eq!(seqs, (1..=version).collect::<Vec<_>>(), "{ctx}: the replay is the whole log");
            assert_eq!(event_type(&got[0]), "room_created", "{ctx}");
        } else {
            let first = read_until(&mut ws, |_| true).await.remove(0);
            assert_eq!(first["type"], "snapshot", "{ctx}: a snapshot first, not the log: {first}");
            assert_documented("RoomView", &first["room"]);
            assert_eq!(first["room"]["version"].as_i64(), Some(version), "{ctx}: the room as it is");
            assert_eq!(first["room"]["may_read_record"], false, "{ctx}");
        }
        out.push((*name, *may, ws, version));
    }
    out
}

/// Reads every stream up to the live event `seq` (of type `kind`): those with access get
/// exactly the events after their replay; the others nothing at or before the version they
/// joined at, and the live events after it.
async fn live_reaches_everyone(streams: &mut [(&'static str, bool, Ws, i64)], seq: i64, kind: &str, stage: &str) {
    for (name, _may, ws, joined) in streams.iter_mut() {
        let ctx = format!("{stage}: {name}");
        let got = read_until(ws, |m| m["event"]["seq"].as_i64() == Some(seq)).await;
        let seqs: Vec<i64> = got.iter().map(|m| m["event"]["seq"].as_i64().expect("events only")).collect();
        assert!(seqs.iter().all(|s| s > joined), "{ctx}: no stored event of before the join: {seqs:?}");
        assert_eq!(seqs, (*joined + 1..=seq).collect::<Vec<_>>(), "{ctx}: every live event, in order");
        assert_eq!(event_type(got.last().unwrap()), kind, "{ctx}");
        *joined = seq;
    }
}

#[tokio::test]
async fn stored_events_and_records_are_for_players_administrators_and_approved_viewers() {
    let Table { srv, base, alice, bob, _dir, .. } = Table::new().await;
    let referee = admin(&srv, "referee").await;
    let carol = Player::sign_up(&base, "carol").await; // a signed-in stranger
    let dave = Player::sign_up(&base, "dave").await; // approved by both players
    let erin = Player::sign_up(&base, "erin").await; // approved by Black only
    Player::sign_up(&base, "frank").await;
    let room = started_room(&alice, &bob, classic_9(ColourAssignment::HostBlack)).await;

    // Approvals: by name, looked up by its key (any case); only players approve.
    alice.ok(room, json!({"type": "approve_record_viewer", "username": "Dave"})).await;
    let (status, body) = carol.cmd(room, json!({"type": "approve_record_viewer", "username": "carol"})).await;
    assert_eq!((status, body["error"].as_str()), (403, Some("not_a_player")));
    let (status, body) = alice.cmd(room, json!({"type": "approve_record_viewer", "username": "nobody_here"})).await;
    assert_eq!((status, body["error"].as_str()), (422, Some("unknown_user")), "{body}");
    assert_eq!(body["detail"]["username"], "nobody_here");
    let (status, body) = alice.cmd(room, json!({"type": "approve_record_viewer", "username": "DAVE"})).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("already_done")), "the same account: {body}");
    let r = bob.ok(room, json!({"type": "approve_record_viewer", "username": "DAVE"})).await;
    let approved = &r["events"][0]["event"];
    assert_eq!((approved["username"].as_str(), approved["colour"].as_str()), (Some("dave"), Some("white")));
    assert!(approved["user_id"].as_i64().is_some(), "recorded by account: {approved}");
    alice.ok(room, json!({"type": "approve_record_viewer", "username": "erin"})).await;
    played(&alice, &bob, room, mv(3, 3, 1), 1).await;

    let anonymous = Player::new(&base);
    let cast = Cast {
        who: vec![
            ("anonymous", anonymous, false),
            ("stranger", carol, false),
            ("approved by both", dave, true),
            ("approved by one", erin, false),
            ("black", alice.clone(), true),
            ("white", bob.clone(), true),
            ("administrator", referee, true),
        ],
    };
    // Everyone's view says whether they may download, and who is approved by whom.
    for (name, p, may) in &cast.who {
        let v = p.view(room).await;
        assert_documented("RoomView", &v);
        assert_eq!(v["may_read_record"], *may, "{name}");
        assert_eq!(
            v["record_viewers"],
            json!([{"username": "dave", "approved": [true, true]}, {"username": "erin", "approved": [true, false]}]),
            "{name}"
        );
    }

    // During play.
    let version = view(&base, room).await["version"].as_i64().unwrap();
    check_http(&cast, room, version, "playing").await;
    let mut streams = open_streams(&cast, room, version, "playing").await;
    played(&bob, &alice, room, mv(7, 7, 1), 2).await;
    live_reaches_everyone(&mut streams, version + 2, "move_acknowledged", "playing").await;

    // The end: a resignation, seen live by everyone.
    let r = alice.ok(room, json!({"type": "resign"})).await;
    let ended = r["events"].as_array().unwrap().last().unwrap()["seq"].as_i64().unwrap();
    live_reaches_everyone(&mut streams, ended, "ended", "ending").await;
    drop(streams);

    // After the end: those without access get the final board and result only.
    let version = until_view(&alice, room, |v| v["phase"] == "finished").await["version"].as_i64().unwrap();
    check_http(&cast, room, version, "finished").await;
    let mut streams = open_streams(&cast, room, version, "finished").await;
    for (name, may, _, _) in &streams {
        if !*may {
            // Opened again to look at the snapshot itself.
            let mut ws = cast.get(name).stream(room, 0).await;
            let first = read_until(&mut ws, |_| true).await.remove(0);
            let room_view = &first["room"];
            assert_eq!((first["type"].as_str(), room_view["phase"].as_str()), (Some("snapshot"), Some("finished")));
            assert_eq!(room_view["result"]["reason"], "resign", "{name}: the result: {room_view}");
            assert_eq!(room_view["result"]["winner"], "white", "{name}");
            assert_eq!(room_view["stones"].as_array().unwrap().len(), 2, "{name}: the final board");
        }
    }
    // Later live events still reach everyone (an approval after the end, say).
    let r = bob.ok(room, json!({"type": "approve_record_viewer", "username": "frank"})).await;
    let seq = r["events"][0]["seq"].as_i64().unwrap();
    live_reaches_everyone(&mut streams, seq, "record_viewer_approved", "finished").await;
    // Erin, approved by Black only, is approved by White now and may read.
    bob.ok(room, json!({"type": "approve_record_viewer", "username": "Erin"})).await;
    let erin = cast.get("approved by one");
    assert_eq!(erin.get(&format!("/api/v1/rooms/{room}/record")).await.0, 200);
    assert_eq!(erin.get(&format!("/api/v1/rooms/{room}/events?after=0")).await.0, 200);
    let mut ws = erin.stream(room, 0).await;
    assert_eq!(event_type(&read_until(&mut ws, |_| true).await[0]), "room_created", "the replay, now");
    srv.stop().await;
}

/// Signs in by name (any case or form of it); the signed-in user.
async fn sign_in(base: &str, name: &str) -> (Player, Value) {
    let p = Player::new(base);
    let (status, me) = p.post("/api/v1/session", json!({"username": name, "password": testclient::PASSWORD})).await;
    assert_eq!(status, 200, "sign in as {name}: {me}");
    (p, me)
}

/// A sign-up's answer: `Ok(())` or the refusal's (status, error, problem kind).
async fn sign_up(base: &str, name: &str) -> Result<(), (u16, String, String)> {
    let pw = testclient::PASSWORD;
    let (status, body) =
        Player::new(base).form("/api/sign_up", &[("username", name), ("password", pw), ("password_again", pw)]).await;
    if status == 200 {
        return Ok(());
    }
    let v: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    assert_eq!(v["detail"]["field"], "username", "{body}");
    Err((status, text(&v["error"]), text(&v["detail"]["problem"]["kind"])))
}

#[tokio::test]
async fn user_names_are_one_name_under_full_case_folding_and_approvals_name_accounts() {
    let dir = tempfile::tempdir().unwrap();
    let srv = Running::start(dir.path()).await;
    let base = srv.base.clone();
    let taken = Err((400, "invalid_input".to_string(), "taken".to_string()));
    // Beyond ASCII: Ä/ä are one letter, ß folds to ss, a decomposed Ä is the composed one.
    assert_eq!(sign_up(&base, "Ärger_x").await, Ok(()));
    assert_eq!(sign_up(&base, "ärger_x").await, taken);
    assert_eq!(sign_up(&base, "ÄRGER_X").await, taken);
    assert_eq!(sign_up(&base, "A\u{308}rger_x").await, taken);
    assert_eq!(sign_up(&base, "STRASSE").await, Ok(()));
    assert_eq!(sign_up(&base, "straße").await, taken);
    assert_eq!(sign_up(&base, "Straße_2").await, Ok(()));
    assert_eq!(sign_up(&base, "STRASSE_2").await, taken);
    assert_eq!(sign_up(&base, "arger_x").await, Ok(()), "a different letter is a different name");
    // Signing in finds the account under any form of its name.
    let (_, me) = sign_in(&base, "ärger_x").await;
    let original = me["id"].as_i64().unwrap();
    assert_eq!(me["username"], "Ärger_x");
    assert_eq!(sign_in(&base, "A\u{308}RGER_X").await.1["id"].as_i64(), Some(original));
    assert_eq!(sign_in(&base, "strasse").await.1["username"], "STRASSE");
    let alice = Player::sign_up(&base, "alice").await;
    let bob = Player::sign_up(&base, "bob").await;
    srv.stop().await;

    // An account from before names were keyed, differing from another only in case: its
    // key is the other's, so it keeps none (migration 0003), and signs in by its exact name.
    // Such accounts exist only in SQLite files older than keys (PostgreSQL's user names are
    // caseless under Unicode from its first migration: the row cannot even be written).
    let db = RawDb::open(dir.path()).await;
    if db.is_postgres() {
        db.close().await;
        return;
    }
    let sql = "INSERT INTO users (username, password_hash, role, created_at_ms) \
               SELECT 'ärger_x', password_hash, 'player', 0 FROM users WHERE username = 'Ärger_x'";
    db.exec(sql, sql, &[]).await;
    db.close().await;
    let srv = Running::start(dir.path()).await;
    let base = srv.base.clone();
    let (namesake, me) = sign_in(&base, "ärger_x").await;
    let namesake_id = me["id"].as_i64().unwrap();
    assert_ne!(namesake_id, original, "the exact name signs in to its own account");
    let (original_player, me) = sign_in(&base, "ÄRGER_X").await;
    assert_eq!(me["id"].as_i64(), Some(original), "other forms mean the keyed account");

    // Approving one never lets the other read: access is by account id.
    let (alice, bob) = (alice.at(&base), bob.at(&base));
    let room = started_room(&alice, &bob, classic_9(ColourAssignment::HostBlack)).await;
    let r = alice.ok(room, json!({"type": "approve_record_viewer", "username": "ÄRGER_X"})).await;
    assert_eq!(r["events"][0]["event"]["user_id"].as_i64(), Some(original), "{r}");
    bob.ok(room, json!({"type": "approve_record_viewer", "username": "Ärger_x"})).await;
    assert_eq!(original_player.get(&format!("/api/v1/rooms/{room}/record")).await.0, 200);
    assert_eq!(original_player.get(&format!("/api/v1/rooms/{room}/events?after=0")).await.0, 200);
    let (status, body) = namesake.get(&format!("/api/v1/rooms/{room}/record")).await;
    assert_eq!(status, 403, "the namesake reads nothing: {body}");
    assert_eq!(namesake.get(&format!("/api/v1/rooms/{room}/events?after=0")).await.0, 403);
    assert_eq!(namesake.view(room).await["may_read_record"], false);
    let mut ws = namesake.stream(room, 0).await;
    assert_eq!(read_until(&mut ws, |_| true).await[0]["type"], "snapshot");
    srv.stop().await;
}
