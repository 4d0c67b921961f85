//! Accounts over the real server and its server functions: a password change (the current
//! password required) ends the other sign-ins; a person lists and ends their sign-ins;
//! administrators promote, demote, disable and enable accounts and issue one-time reset
//! links, each with reasons and in the administrators' log; the last active administrator
//! stays one; nobody else may do any of it.

use serde_json::{json, Value};
use testclient::PASSWORD;

use crate::support::*;

const NEW_PASSWORD: &str = "a much newer passphrase";

/// A server function with form fields (their default encoding): status and JSON answer.
async fn call(p: &Player, endpoint: &str, fields: &[(&str, &str)]) -> (u16, Value) {
    let (status, body) = p.form(&format!("/api/{endpoint}"), fields).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// A server function taking JSON.
async fn call_json(p: &Player, endpoint: &str, body: Value) -> (u16, Value) {
    p.post(&format!("/api/{endpoint}"), body).await
}

/// A second, separate sign-in (its own cookies) through the participant API.
async fn sign_in(base: &str, name: &str, password: &str) -> (Player, u16, Value) {
    let p = Player::new(base);
    let (status, body) = p.post("/api/v1/session", json!({ "username": name, "password": password })).await;
    (p, status, body)
}

async fn signed_in(p: &Player) -> bool {
    p.get("/api/v1/session").await.0 == 200
}

fn refused(answer: &(u16, Value), status: u16, error: &str) {
    assert_eq!((answer.0, answer.1["error"].as_str()), (status, Some(error)), "{}", answer.1);
}

#[tokio::test]
async fn a_password_change_needs_the_current_one_and_ends_the_other_sign_ins() {
    let Table { _dir, srv: _srv, base, alice, bob, .. } = Table::new().await;
    let (phone, status, _) = sign_in(&base, "alice", PASSWORD).await;
    assert_eq!(status, 200);

    // Both sign-ins are listed, this one marked.
    let (status, logins) = call(&alice, "my_logins", &[]).await;
    assert_eq!(status, 200, "{logins}");
    let logins = logins.as_array().unwrap().clone();
    assert_eq!(logins.len(), 2, "{logins:?}");
    assert_eq!(logins.iter().filter(|l| l["current"] == true).count(), 1);
    // Signing in again on the same session replaces its login rather than adding one.
    let (status, _) = alice.post("/api/v1/session", json!({ "username": "alice", "password": PASSWORD })).await;
    assert_eq!(status, 200);
    let (_, again) = call(&alice, "my_logins", &[]).await;
    assert_eq!(again.as_array().unwrap().len(), 2, "{again}");

    let change = |current: &'static str, new: &'static str, again: &'static str| {
        let alice = alice.clone();
        async move {
            call(
                &alice,
                "change_password",
                &[("current_password", current), ("new_password", new), ("new_password_again", again)],
            )
            .await
        }
    };
    let wrong = change("not the password", NEW_PASSWORD, NEW_PASSWORD).await;
    refused(&wrong, 400, "invalid_input");
    assert_eq!(
        (wrong.1["detail"]["field"].as_str(), wrong.1["detail"]["problem"]["kind"].as_str()),
        (Some("current_password"), Some("wrong_password"))
    );
    let differ = change(PASSWORD, NEW_PASSWORD, "something else entirely").await;
    assert_eq!(differ.1["detail"]["field"], "password_again", "{}", differ.1);
    let short = change(PASSWORD, "short", "short").await;
    assert_eq!(short.1["detail"]["problem"], json!({"kind": "length", "min": 10, "max": 128, "got": 5}));
    assert!(signed_in(&phone).await, "refused changes end nothing");

    let done = change(PASSWORD, NEW_PASSWORD, NEW_PASSWORD).await;
    assert_eq!(done, (200, json!(1)), "one other sign-in ended");
    assert!(!signed_in(&phone).await, "the phone's sign-in ended");
    assert!(signed_in(&alice).await, "the sign-in that changed it stays");
    assert_eq!(sign_in(&base, "alice", PASSWORD).await.1, 401, "the old password no longer works");
    assert_eq!(sign_in(&base, "alice", NEW_PASSWORD).await.1, 200);

    // Nobody changes a password without being signed in.
    let anonymous = Player::new(&base);
    let fields = [("current_password", PASSWORD), ("new_password", NEW_PASSWORD), ("new_password_again", NEW_PASSWORD)];
    refused(&call(&anonymous, "change_password", &fields).await, 401, "not_signed_in");
    assert_eq!(sign_in(&base, "bob", PASSWORD).await.1, 200, "bob's password is untouched");
    drop(bob);
}

#[tokio::test]
async fn a_person_ends_their_own_sign_ins_and_no_one_else_s() {
    let Table { _dir, srv: _srv, base, alice, bob, .. } = Table::new().await;
    let (tablet, _, _) = sign_in(&base, "alice", PASSWORD).await;
    let (laptop, _, _) = sign_in(&base, "alice", PASSWORD).await;
    let ids = |list: &Value, current: bool| -> Vec<String> {
        list.as_array()
            .unwrap()
            .iter()
            .filter(|l| l["current"] == current)
            .map(|l| l["id"].as_str().unwrap().to_string())
            .collect()
    };
    let (_, list) = call(&tablet, "my_logins", &[]).await;
    let this = ids(&list, true).pop().unwrap();
    let others = ids(&list, false);
    assert_eq!(others.len(), 2);

    refused(&call_json(&tablet, "end_login", json!({ "id": this })).await, 400, "invalid_input");
    // Bob cannot end Alice's sign-ins, even knowing an id.
    refused(&call_json(&bob, "end_login", json!({ "id": others[0] })).await, 400, "invalid_input");
    refused(&call_json(&Player::new(&base), "end_login", json!({ "id": others[0] })).await, 401, "not_signed_in");
    assert!(signed_in(&alice).await && signed_in(&laptop).await);

    // Ending one: the laptop's (the newest other).
    let (_, laptop_list) = call(&laptop, "my_logins", &[]).await;
    let laptop_id = ids(&laptop_list, true).pop().unwrap();
    assert_eq!(call_json(&tablet, "end_login", json!({ "id": laptop_id })).await.0, 200);
    assert!(!signed_in(&laptop).await && signed_in(&alice).await && signed_in(&tablet).await);
    // Ending it again: no longer open.
    refused(&call_json(&tablet, "end_login", json!({ "id": laptop_id })).await, 400, "invalid_input");

    // All the others.
    assert_eq!(call(&tablet, "end_other_logins", &[]).await, (200, json!(1)));
    assert!(!signed_in(&alice).await && signed_in(&tablet).await);
    let (_, list) = call(&tablet, "my_logins", &[]).await;
    assert_eq!(list.as_array().unwrap().len(), 1);

    // Signing out ends the login too: the session id is no use afterwards.
    assert_eq!(tablet.http.delete(format!("{base}/api/v1/session")).send().await.unwrap().status(), 204);
    assert!(!signed_in(&tablet).await);
}

#[tokio::test]
async fn administrators_manage_accounts_with_reasons_and_every_action_is_logged() {
    let Table { _dir, srv, base, alice, bob, clock } = Table::new().await;
    let root = admin(&srv, "root").await;
    let (_, page) = call(&root, "admin_accounts", &[]).await;
    let id_of = |page: &Value, name: &str| -> i64 {
        page.as_array().unwrap().iter().find(|a| a["username"] == name).unwrap()["id"].as_i64().unwrap()
    };
    let (alice_id, bob_id, root_id) = (id_of(&page, "alice"), id_of(&page, "bob"), id_of(&page, "root"));
    let log_of = |who: &Player| {
        let who = who.clone();
        async move { call_json(&who, "admin_log", json!({ "filter": {} })).await.1 }
    };
    assert_eq!(log_of(&root).await, json!([]));
    let change = |who: &Player, user: i64, change: Value, reasons: &str| {
        let (who, reasons) = (who.clone(), reasons.to_string());
        async move {
            call_json(&who, "admin_change_account", json!({ "user_id": user, "change": change, "reasons": reasons }))
                .await
        }
    };
    let promote = json!({ "kind": "role", "role": "admin" });
    let demote = json!({ "kind": "role", "role": "player" });
    let disable = json!({ "kind": "disabled", "disabled": true });
    let enable = json!({ "kind": "disabled", "disabled": false });

    // Only administrators; a player is refused each action, a visitor is asked to sign in.
    for (who, status, error) in [(&bob, 403, "admin_only"), (&Player::new(&base), 401, "not_signed_in")] {
        refused(&call(who, "admin_accounts", &[]).await, status, error);
        refused(&change(who, bob_id, promote.clone(), "I say so").await, status, error);
        refused(
            &call_json(who, "admin_reset_link", json!({ "user_id": alice_id, "reasons": "x" })).await,
            status,
            error,
        );
    }

    // The last active administrator can be neither demoted nor disabled.
    refused(&change(&root, root_id, demote.clone(), "stepping down").await, 409, "last_administrator");
    refused(&change(&root, root_id, disable.clone(), "leaving").await, 409, "last_administrator");
    // Reasons are required; an unknown account is named; a change to what is already so is refused.
    let no_reasons = change(&root, bob_id, promote.clone(), "  ").await;
    assert_eq!(no_reasons.1["detail"]["field"], "reasons", "{}", no_reasons.1);
    refused(&change(&root, 9999, promote.clone(), "who?").await, 404, "no_account");
    refused(&change(&root, bob_id, demote.clone(), "already").await, 400, "invalid_input");

    // Promotion: bob is an administrator, and can then act as one.
    let (status, bob_now) = change(&root, bob_id, promote.clone(), "runs the Tuesday league").await;
    assert_eq!((status, bob_now["role"].as_str()), (200, Some("admin")), "{bob_now}");
    assert_eq!(call(&bob, "admin_accounts", &[]).await.0, 200);
    // Two administrators: root may step down, and then bob is the last.
    assert_eq!(change(&bob, root_id, demote.clone(), "root asked to step down").await.0, 200);
    refused(&change(&bob, bob_id, demote.clone(), "me too").await, 409, "last_administrator");
    refused(&call(&root, "admin_accounts", &[]).await, 403, "admin_only");

    // Disabling: every sign-in ends, signing in is refused with the reason, the games stay.
    let room = started_room(&alice, &root, classic_9(wire::settings::ColourAssignment::HostBlack)).await;
    let (status, state) = change(&bob, alice_id, disable.clone(), "abusive chat in room 1").await;
    assert_eq!(status, 200, "{state}");
    assert!(state["disabled_at_ms"].is_i64() && state["logins"] == 0, "{state}");
    assert!(!signed_in(&alice).await);
    let (_, status, body) = sign_in(&base, "alice", PASSWORD).await;
    refused(&(status, body), 403, "account_disabled");
    assert_eq!(sign_in(&base, "alice", "wrong password!").await.1, 401, "a wrong password says only that");
    let v = view(&base, room).await;
    assert_eq!(v["seats"][0], "alice", "her game stays: {v}");
    assert_eq!(change(&bob, alice_id, enable.clone(), "appeal upheld").await.0, 200);
    let (alice, status, _) = sign_in(&base, "alice", PASSWORD).await;
    assert_eq!(status, 200);

    // A reset link: shown once, works once, ends every sign-in; earlier links and late use fail.
    let link = |reasons: &'static str| {
        let bob = bob.clone();
        async move { call_json(&bob, "admin_reset_link", json!({ "user_id": alice_id, "reasons": reasons })).await }
    };
    let (status, first) = link("forgot the password (asked by mail)").await;
    assert_eq!(status, 200, "{first}");
    let (_, second) = link("asked again").await;
    let token = |l: &Value| l["path"].as_str().unwrap().split("token=").nth(1).unwrap().to_string();
    let reset = |token: String| {
        let base = base.clone();
        async move {
            call(
                &Player::new(&base),
                "reset_password",
                &[("token", &token), ("password", NEW_PASSWORD), ("password_again", NEW_PASSWORD)],
            )
            .await
        }
    };
    refused(&reset(token(&first)).await, 403, "bad_reset_link");
    assert_eq!(reset(token(&second)).await, (200, json!("alice")));
    assert!(!signed_in(&alice).await, "a reset ends every sign-in");
    assert_eq!(sign_in(&base, "alice", NEW_PASSWORD).await.1, 200);
    refused(&reset(token(&second)).await, 403, "bad_reset_link");
    // A password change retires a link not yet used.
    let (_, stale) = link("asked before remembering it").await;
    let fields = [("current_password", NEW_PASSWORD), ("new_password", PASSWORD), ("new_password_again", PASSWORD)];
    let (alice, _, _) = sign_in(&base, "alice", NEW_PASSWORD).await;
    assert_eq!(call(&alice, "change_password", &fields).await.0, 200);
    refused(&reset(token(&stale)).await, 403, "bad_reset_link");
    let (_, late) = link("once more").await;
    clock.advance_ms(app::accounts::RESET_LINK_VALID_MS);
    refused(&reset(token(&late)).await, 403, "bad_reset_link");
    let page = log_of(&bob).await;
    assert!(
        page.as_array().unwrap().iter().all(|e| !e.to_string().contains(&token(&late))),
        "the log never holds a token"
    );

    // The log: every action, newest first, with actor, target, reasons, before and after.
    let log: Vec<(String, String, String, String)> = page
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .map(|e| {
            (
                e["actor"].as_str().unwrap().into(),
                e["action"].as_str().unwrap().into(),
                e["target_user"].as_str().unwrap().into(),
                e["reasons"].as_str().unwrap().into(),
            )
        })
        .collect();
    let row = |a: &str, act: &str, t: &str, r: &str| (a.to_string(), act.to_string(), t.to_string(), r.to_string());
    assert_eq!(
        log,
        vec![
            row("root", "role_changed", "bob", "runs the Tuesday league"),
            row("bob", "role_changed", "root", "root asked to step down"),
            row("bob", "account_disabled", "alice", "abusive chat in room 1"),
            row("bob", "account_enabled", "alice", "appeal upheld"),
            row("bob", "reset_link_issued", "alice", "forgot the password (asked by mail)"),
            row("bob", "reset_link_issued", "alice", "asked again"),
            row("bob", "reset_link_issued", "alice", "asked before remembering it"),
            row("bob", "reset_link_issued", "alice", "once more"),
        ]
    );
    let first_entry = page.as_array().unwrap().last().unwrap();
    assert_eq!(
        (&first_entry["before"], &first_entry["after"]),
        (&json!({"role": "player"}), &json!({"role": "admin"}))
    );
}

/// The administrators' log holds room actions too (logged with their events), filters by
/// administrator, room, action and time, exports as JSON and CSV, and each room's part is
/// in its record. Only administrators read it.
#[tokio::test]
async fn the_log_holds_room_actions_filters_and_exports() {
    use wire::commands::Command;
    let Table { _dir, srv, base, alice, bob, clock } = Table::new().await;
    let root = admin(&srv, "root").await;
    let room = started_room(&alice, &bob, classic_9(wire::settings::ColourAssignment::HostBlack)).await;
    let other = started_room(&bob, &alice, classic_9(wire::settings::ColourAssignment::HostBlack)).await;
    let t0 = 1_800_000_000_000i64;
    root.ok(room, Command::AdminHold { reasons: "checking a report of advice".into() }).await;
    clock.advance_ms(60_000);
    root.ok(room, Command::AdminResume { reasons: "no advice found".into() }).await;
    clock.advance_ms(60_000);
    // A player's call holds the room and puts an item in the queue; claiming it is an action
    // too (logged once).
    alice.ok(other, Command::CallAdministrator { reason: "my opponent is being coached".into() }).await;
    clock.advance_ms(60_000);
    for _ in 0..2 {
        let (status, body) =
            root.post("/api/v1/admin/queue/claim", json!({ "room_id": other, "kind": "player_call" })).await;
        assert_eq!(status, 200, "{body}");
    }
    root.ok(other, Command::AdminResume { reasons: "the other room: no coaching seen".into() }).await;
    let (_, page) = call(&root, "admin_accounts", &[]).await;
    let bob_id = page.as_array().unwrap().iter().find(|a| a["username"] == "bob").unwrap()["id"].as_i64().unwrap();
    let promote =
        json!({ "user_id": bob_id, "change": { "kind": "role", "role": "admin" }, "reasons": "second referee" });
    assert_eq!(call_json(&root, "admin_change_account", promote).await.0, 200);

    let list = |q: &str| {
        let root = root.clone();
        let q = q.to_string();
        async move {
            let (status, body) = root.get(&format!("/api/v1/admin/audit{q}")).await;
            assert_eq!(status, 200, "{q}: {body}");
            let v: Value = serde_json::from_str(&body).unwrap();
            v.as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap().to_string()).collect::<Vec<_>>()
        }
    };
    assert_eq!(list("").await, ["role_changed", "room_resumed", "queue_item_claimed", "room_resumed", "room_held"]);
    assert_eq!(list(&format!("?room={room}")).await, ["room_resumed", "room_held"]);
    assert_eq!(list("?action=room_resumed").await, ["room_resumed", "room_resumed"]);
    assert_eq!(list("?actor=ROOT&action=role_changed").await, ["role_changed"]);
    assert_eq!(list("?actor=bob").await, Vec::<String>::new());
    assert_eq!(list(&format!("?from_ms={}&to_ms={}", t0 + 60_000, t0 + 120_000)).await, ["room_resumed"]);
    assert_eq!(list(&format!("?room={other}")).await, ["room_resumed", "queue_item_claimed"]);
    // The server function the page uses: the same entries, with reasons and the event.
    let (status, entries) = call_json(&root, "admin_log", json!({ "filter": { "room": room } })).await;
    assert_eq!(status, 200, "{entries}");
    let held = &entries[1];
    assert_eq!((held["actor"].as_str(), held["reasons"].as_str()), (Some("root"), Some("checking a report of advice")));
    assert_eq!(held["after"]["type"], "held", "the event that recorded it: {held}");

    // Unreadable filters are refused naming the problem.
    let (status, body) = root.get("/api/v1/admin/audit?action=nonsense").await;
    assert!(status == 400 && body.contains("action"), "{status} {body}");

    // CSV: a header and one row per entry, reasons quoted as needed.
    let (status, csv) = root.get(&format!("/api/v1/admin/audit.csv?room={room}")).await;
    assert_eq!(status, 200);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "id,at,at_ms,actor,action,target_user,room_id,reasons,before,after");
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(lines[1].contains(",root,room_resumed,,") && lines[1].contains("no advice found"), "{}", lines[1]);

    // The room's record carries its part of the log, oldest first, for its players.
    let record = alice.get_json(&format!("/api/v1/rooms/{room}/record")).await;
    let actions: Vec<&str> =
        record["audit"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["room_held", "room_resumed"]);
    assert_documented("RoomRecord", &record);

    // Only administrators.
    for (who, status) in [(&alice, 403), (&Player::new(&base), 401)] {
        for path in ["/api/v1/admin/audit", "/api/v1/admin/audit.csv"] {
            assert_eq!(who.get(path).await.0, status, "{path}");
        }
        assert_eq!(call_json(who, "admin_log", json!({ "filter": {} })).await.0, status);
    }
}

/// Two administrators demoting each other at the same moment: exactly one succeeds and an
/// administrator remains (the check and the change are one write transaction, so neither
/// reads a state the other is about to change).
#[tokio::test]
async fn two_demotions_at_once_leave_one_administrator() {
    let Table { _dir, srv, bob, .. } = Table::new().await;
    let root = admin(&srv, "root").await;
    let (_, list) = call(&root, "admin_accounts", &[]).await;
    let id =
        |name: &str| list.as_array().unwrap().iter().find(|a| a["username"] == name).unwrap()["id"].as_i64().unwrap();
    let (root_id, bob_id) = (id("root"), id("bob"));
    let change = |role: &str, user: i64, reasons: &str| json!({ "user_id": user, "change": { "kind": "role", "role": role }, "reasons": reasons });
    assert_eq!(call_json(&root, "admin_change_account", change("admin", bob_id, "second referee")).await.0, 200);
    for round in 0..5 {
        let (a, b) = tokio::join!(
            call_json(&root, "admin_change_account", change("player", bob_id, "you step down")),
            call_json(&bob, "admin_change_account", change("player", root_id, "no, you do")),
        );
        // Exactly one wins. The other is refused as the last administrator when both were
        // administrators as their requests were checked, or as no longer one when the winner
        // committed first; never a fault, never both.
        assert_eq!([a.0, b.0].iter().filter(|s| **s == 200).count(), 1, "round {round}: {} / {}", a.1, b.1);
        let loser = if a.0 == 200 { &b } else { &a };
        assert!(
            (loser.0, loser.1["error"].as_str()) == (409, Some("last_administrator"))
                || (loser.0, loser.1["error"].as_str()) == (403, Some("admin_only")),
            "round {round}: {}",
            loser.1
        );
        // Both administrators again for the next round.
        let (winner, demoted) = if a.0 == 200 { (&root, bob_id) } else { (&bob, root_id) };
        assert_eq!(call_json(winner, "admin_change_account", change("admin", demoted, "back again")).await.0, 200);
    }
    let (_, list) = call(&root, "admin_accounts", &[]).await;
    let admins = list.as_array().unwrap().iter().filter(|a| a["role"] == "admin").count();
    assert_eq!(admins, 2);
}
