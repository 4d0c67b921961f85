//! Rooms nobody needs give back their actors: a finished room nobody watches is released
//! after ten idle minutes of the server's clock and comes back the same from its log when
//! asked; a watched one stays. `/healthz` says how many rooms are in memory.

use std::time::{Duration, Instant};

use wire::{commands::Command, events::Xyz, settings::ColourAssignment};

use crate::support::*;

pub(crate) async fn in_memory(base: &str) -> i64 {
    Player::new(base).get_json("/healthz").await["rooms_in_memory"].as_i64().expect("rooms_in_memory")
}

/// What must be the same after the room comes back from its log.
fn kept(v: &serde_json::Value) -> serde_json::Value {
    serde_json::json!([v["version"], v["phase"], v["stones"], v["result"], v["captures"], v["move_number"]])
}

#[tokio::test]
async fn an_idle_finished_room_gives_back_its_actor_and_comes_back_the_same() {
    let Table { _dir, clock, srv, base, alice, bob } = Table::new().await;
    let quiet = started_room(&alice, &bob, classic_9(ColourAssignment::HostBlack)).await;
    let watched = started_room(&alice, &bob, classic_9(ColourAssignment::HostBlack)).await;
    for room in [quiet, watched] {
        played(&alice, &bob, room, Command::Move { at: Xyz { x: 3, y: 3, z: 1 } }, 1).await;
        bob.ok(room, Command::Resign).await;
    }
    let before = view(&base, quiet).await;
    assert_eq!(before["phase"], "finished", "{before}");
    // A spectator watches the other room (its snapshot means its presence was counted first).
    let mut ws = Player::new(&base).stream(watched, 0).await;
    read_until(&mut ws, |m| m["type"] == "snapshot").await;
    assert_eq!(in_memory(&base).await, 2);

    // Nine minutes: both stay.
    clock.advance_ms(9 * 60 * 1000);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(in_memory(&base).await, 2, "released before ten idle minutes");

    // Past ten: the unwatched one is released at the next minute's sweep.
    clock.advance_ms(2 * 60 * 1000);
    let deadline = Instant::now() + Duration::from_secs(10);
    while in_memory(&base).await != 1 {
        assert!(Instant::now() < deadline, "the idle room was not released");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Asked for again, it is loaded from its log, as it was.
    let after = view(&base, quiet).await;
    assert_eq!(kept(&after), kept(&before));
    assert_eq!(in_memory(&base).await, 2);
    let (status, record) = alice.get(&format!("/api/v1/rooms/{quiet}/record")).await;
    assert_eq!(status, 200, "{record}");
    drop(ws);
    srv.stop().await;
}
