//! Backup and restore (003 §12.7), with the real binary: `space-baduk backup DIR` while two
//! players are moving and acknowledging, then `space-baduk restore DIR` into a new data
//! folder, and a server started on it. Checked:
//!
//! * every action acknowledged before the backup began is in the restored log, and the
//!   restored log is exactly the start of the original one (a consistent copy, not torn);
//! * the restored game comes back held and goes on after both players are Ready;
//! * refusals, each with its message: a restore into the folder of a running server, over
//!   an existing database without `--replace`, from a tampered backup; a backup into a
//!   folder that holds one already, or of a folder with no database.

use std::{path::Path, process::Output, time::Duration};

use serde_json::Value;
use testclient::Client;
use tokio::sync::watch;
use wire::{
    commands::Command,
    settings::{ColourAssignment, MatchSettings},
};

use crate::crash::{colour_of, drive, move_to, point_of, start, Position, SIZE};

/// `space-baduk --data-dir DATA ARGS…`, run to its end.
async fn task(data: &Path, args: &[&str]) -> Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_space-baduk"));
    for (k, _) in std::env::vars() {
        if k.starts_with("SPACE_BADUK_") {
            cmd.env_remove(k);
        }
    }
    cmd.arg("--data-dir").arg(data).args(args);
    tokio::task::spawn_blocking(move || cmd.output().expect("the binary runs")).await.unwrap()
}

fn said(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// A refusal: exit code 1 and `words` in what it printed.
fn refused(out: &Output, words: &str) {
    assert_eq!(out.status.code(), Some(1), "refused: {}", said(out));
    assert!(String::from_utf8_lossy(&out.stderr).contains(words), "expected {words:?} in: {}", said(out));
}

async fn log(player: &Client, room: i64) -> Vec<Value> {
    player.get_json(&format!("/api/v1/rooms/{room}/events?after=0")).await.as_array().unwrap().clone()
}

fn events_of<'a>(log: &'a [Value], kind: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
    log.iter().map(|e| &e["event"]).filter(move |e| e["type"] == kind)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_during_play_restores_every_acknowledged_action() {
    let root = tempfile::tempdir().unwrap();
    let (live, saved, restored) = (root.path().join("live"), root.path().join("saved"), root.path().join("restored"));
    if let Some(url) = testclient::test_database_url(&live) {
        // On PostgreSQL the data is not in the folder: both tasks refuse, saying what to use.
        for args in [vec!["backup", saved.to_str().unwrap()], vec!["restore", saved.to_str().unwrap()]] {
            let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_space-baduk"));
            cmd.arg("--data-dir").arg(&live).arg("--database-url").arg(&url).args(&args);
            let out = tokio::task::spawn_blocking(move || cmd.output().expect("the binary runs")).await.unwrap();
            assert_eq!(out.status.code(), Some(2), "{}", said(&out));
            assert!(said(&out).contains("pg_dump"), "{}", said(&out));
        }
        assert!(!saved.exists(), "nothing was written");
        return;
    }
    let server = start(&live).await;
    let black = Client::sign_up(&server.base, "alice").await;
    let white = Client::sign_up(&server.base, "bob").await;
    let mut settings = MatchSettings::classic_default(SIZE as u16);
    settings.colours = ColourAssignment::HostBlack;
    let room = testclient::started_room(&black, &white, "kept", &settings).await.expect("room set up");

    // Play runs throughout; the backup starts once 40 actions are acknowledged.
    let (progress, mut seen) = watch::channel(0usize);
    let driver = tokio::spawn(drive(
        black.clone(),
        white.clone(),
        room,
        Position { next: 1, pending_ack: None },
        Some(120),
        progress,
    ));
    tokio::time::timeout(Duration::from_secs(120), seen.wait_for(|done| *done >= 40)).await.unwrap().unwrap();
    let answered_before = *seen.borrow();
    let out = task(&live, &["backup", saved.to_str().unwrap()]).await;
    assert!(out.status.success(), "backup: {}", said(&out));
    let answered_after = *seen.borrow();
    eprintln!("{} (actions answered: {answered_before} when it began, {answered_after} when it ended)", said(&out));
    let rec = driver.await.unwrap();
    assert!(rec.unexpected.is_empty(), "play beside the backup: {rec:?}");
    let original = log(&black, room).await;

    // Only a stopped server's folder can be restored into.
    refused(&task(&live, &["restore", saved.to_str().unwrap()]).await, "is using");
    // The backup folder is taken now; and a folder without a database has nothing to back up.
    refused(&task(&live, &["backup", saved.to_str().unwrap()]).await, "already holds a backup");
    let empty = root.path().join("empty");
    refused(&task(&empty, &["backup", root.path().join("nothing").to_str().unwrap()]).await, "no Space Baduk database");

    let out = task(&restored, &["restore", saved.to_str().unwrap()]).await;
    assert!(out.status.success(), "restore: {}", said(&out));
    // Over an existing database only with --replace, which keeps the old one aside.
    refused(&task(&restored, &["restore", saved.to_str().unwrap()]).await, "pass --replace");
    let out = task(&restored, &["restore", "--replace", saved.to_str().unwrap()]).await;
    assert!(out.status.success(), "restore --replace: {}", said(&out));
    let aside: Vec<_> = std::fs::read_dir(&restored)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("replaced-"))
        .collect();
    assert_eq!(aside.len(), 1, "the replaced database is kept");
    assert!(aside[0].path().join(app::data::DB_FILE).is_file());

    // A backup whose manifest does not match its copy is refused.
    let tampered = root.path().join("tampered");
    std::fs::create_dir(&tampered).unwrap();
    std::fs::copy(saved.join(app::data::DB_FILE), tampered.join(app::data::DB_FILE)).unwrap();
    let manifest: Value = serde_json::from_slice(&std::fs::read(saved.join("backup.json")).unwrap()).unwrap();
    let mut wrong = manifest.clone();
    wrong["events"] = (manifest["events"].as_i64().unwrap() + 1).into();
    std::fs::write(tampered.join("backup.json"), wrong.to_string()).unwrap();
    refused(&task(&root.path().join("other"), &["restore", tampered.to_str().unwrap()]).await, "is damaged");

    // The restored server: the same accounts and sessions, the game as of the backup.
    drop(server);
    let server = start(&restored).await;
    let (black, white) = (black.at(&server.base), white.at(&server.base));
    let back = log(&black, room).await;
    let kept = manifest["events"].as_i64().unwrap() as usize; // the one room's events
    assert!(back.len() > kept, "the restart's hold follows the copied events");
    assert_eq!(back[..kept], original[..kept], "the restored log is the start of the original, event for event");
    assert!(
        back[kept..].iter().all(|e| e["event"]["type"] == "held"),
        "only the restart's hold is new: {:?}",
        &back[kept..]
    );

    // Acknowledged before the backup began: moves and acknowledgements alternate from move 1.
    let (moves, acks) = (answered_before.div_ceil(2) as u64, (answered_before / 2) as u64);
    let stored_moves: Vec<u64> = events_of(&back, "move_played").map(|e| e["move_number"].as_u64().unwrap()).collect();
    let stored_acks: Vec<u64> =
        events_of(&back, "move_acknowledged").map(|e| e["move_number"].as_u64().unwrap()).collect();
    assert!(stored_moves.len() as u64 >= moves && stored_acks.len() as u64 >= acks, "{moves} moves, {acks} acks");
    assert!(stored_moves.iter().copied().eq(1..=stored_moves.len() as u64));
    assert!(stored_acks.iter().copied().eq(1..=stored_acks.len() as u64));
    for e in events_of(&back, "move_played") {
        let n = e["move_number"].as_u64().unwrap() as u32;
        assert_eq!(
            (e["colour"].as_str().unwrap(), (e["at"]["x"].as_i64().unwrap(), e["at"]["y"].as_i64().unwrap())),
            (colour_of(n), point_of(n))
        );
    }

    // Play goes on from the restored position once both are Ready.
    assert_eq!(black.cmd(room, Command::Ready).await.0, 200);
    assert_eq!(white.cmd(room, Command::Ready).await.0, 200);
    let view = black.view(room).await;
    assert_eq!(view["phase"], "playing", "{view}");
    let next = stored_moves.len() as u32 + 1;
    let mover = if colour_of(next) == "black" { &black } else { &white };
    if view["awaiting_ack"].is_null() {
        let (status, body) = mover.cmd(room, move_to(next)).await;
        assert_eq!(status, 200, "move {next} after the restore: {body}");
    }
}
