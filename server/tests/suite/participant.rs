//! The exported participant program (003 §12.6) on the real server: the one-file JavaScript
//! program made by `app::learning::participant::script`, run by Node.js as a child process,
//! signs in, takes the invited seat of a 9×9 Classic room facing the server's computer and
//! plays the whole game with the model it embeds, acknowledging the computer's moves, through
//! the count to the result. Every one of its moves is checked against the `participant`
//! crate's ranking of the position as the server had it.
//!
//! Needs `node` (20 or later) on PATH and the WASM of `scripts/build-participant.sh` (`make
//! unit` builds it first).

use std::{
    path::{Path, PathBuf},
    process::{Child, Command as Process, Stdio},
    time::{Duration, Instant},
};

use crate::support::*;
use app::learning::participant::{load_wasm, script, ParticipantModel};
use engine::computer::{model::fingerprint, DEFAULT_WEIGHTS};
use serde_json::{json, Value};
use wire::{
    events::Colour,
    mode::{ComputerSeat, Opponent, RoomMode},
    settings::MatchSettings,
};

/// The build step's module (`scripts/build-participant.sh`).
fn wasm() -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/participant/participant.wasm");
    load_wasm(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn default_model() -> ParticipantModel {
    ParticipantModel {
        id: 1,
        version: 1,
        fingerprint: fingerprint(&DEFAULT_WEIGHTS),
        weights: DEFAULT_WEIGHTS.0,
        level: 1,
    }
}

/// The program, written to a temporary directory.
fn program(dir: &Path, model: &ParticipantModel) -> PathBuf {
    let path = dir.join("participant.js");
    std::fs::write(&path, script(&wasm(), model).expect("a program for the default model")).unwrap();
    path
}

fn node(program: &Path, args: &[&str], password: Option<&str>, log: &Path) -> Child {
    let mut cmd = Process::new("node");
    cmd.arg(program).args(args).env_remove("SPACE_BADUK_PASSWORD").stdin(Stdio::null());
    if let Some(pw) = password {
        cmd.env("SPACE_BADUK_PASSWORD", pw);
    }
    let out = std::fs::File::create(log).unwrap();
    let err = out.try_clone().unwrap();
    cmd.stdout(out).stderr(err).spawn().unwrap_or_else(|e| panic!("cannot start node (Node.js 20 is needed): {e}"))
}

/// Waits (bounded, without blocking the server's runtime) until the program ends; its status.
async fn wait(child: &mut Child, limit: Duration) -> Result<i32, String> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Ok(status.code().unwrap_or(-1));
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("the participant program did not end within {limit:?}"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Runs the program to its end (bounded); its status and output.
async fn run(program: &Path, args: &[&str], log: &Path) -> (i32, String) {
    let mut child = node(program, args, None, log);
    let status = wait(&mut child, Duration::from_secs(30)).await;
    let out = std::fs::read_to_string(log).unwrap_or_default();
    (status.unwrap_or_else(|e| panic!("{e}\n{out}")), out)
}

/// Rebuilds the game from the room's events and checks each of White's (the program's)
/// moves: it is the best move of the `participant` ranking for the position, the seed and the
/// server's illegal points — what the program asked its engine. Returns White's stone moves.
fn check_every_move(log: &[Value], settings: &MatchSettings, seed: u32) -> usize {
    let mut game = engine::Game::new(settings.geometry().unwrap(), settings.engine_rules().unwrap()).unwrap();
    let geometry = game.geometry().clone();
    let point = |at: &Value| {
        let c = |k: &str| at[k].as_i64().unwrap();
        geometry.index_of(c("x"), c("y"), c("z")).unwrap()
    };
    let mut checked = 0;
    let mut last: Option<Value> = None;
    for e in log.iter().map(|e| &e["event"]) {
        let colour = match e["colour"].as_str() {
            Some("black") => engine::Color::Black,
            Some("white") => engine::Color::White,
            _ => continue,
        };
        match e["type"].as_str().unwrap() {
            "move_played" => {
                if colour == engine::Color::White {
                    let stones: Vec<Value> = geometry
                        .points()
                        .filter_map(|p| {
                            let c = geometry.coords_of(p)?;
                            let col = game.stone_at(p)?;
                            Some(json!([{"x": c.x, "y": c.y, "z": c.z}, col]))
                        })
                        .collect();
                    let illegal: Vec<Value> = game
                        .illegal_points(colour)
                        .into_iter()
                        .filter_map(|(p, _)| geometry.coords_of(p))
                        .map(|c| json!({"x": c.x, "y": c.y, "z": c.z}))
                        .collect();
                    let n = game.move_number();
                    let request = json!({
                        "board": settings.board,
                        "stones": stones,
                        "to_move": "white",
                        "last_move": last,
                        "last_pass": n > 0 && last.is_none(),
                        "weights": DEFAULT_WEIGHTS.0,
                        "level": 1,
                        "seed": seed.wrapping_add(n),
                        "excluded": illegal,
                    });
                    let ranking =
                        participant::rank(&participant::Request::from_json(&request.to_string()).unwrap()).unwrap();
                    let best = ranking.moves.first().map(|m| json!({"x": m.at.x, "y": m.at.y, "z": m.at.z}));
                    assert_eq!(best.as_ref(), Some(&e["at"]), "move {}: not the model's choice", n + 1);
                    checked += 1;
                }
                game.play(colour, engine::Move::Place(point(&e["at"]))).unwrap();
                last = Some(e["at"].clone());
            }
            "passed" => {
                game.play(colour, engine::Move::Pass).unwrap();
                last = None;
            }
            _ => {}
        }
    }
    checked
}

#[tokio::test]
async fn the_participant_program_plays_a_whole_game_against_the_servers_computer() {
    let t = Table::new().await;
    let dir = tempfile::tempdir().unwrap();
    let js = program(dir.path(), &default_model());
    // 9×9 Classic; the computer holds Black, the invited seat (the program) plays White.
    let mut settings = MatchSettings::classic_default(9);
    let computer = ComputerSeat { colour: Colour::Black, level: 1, move_ms: 100, model_id: None, model: None, seed: 0 };
    settings.mode = RoomMode::VsComputer { computer, opponent: Opponent::Invited };
    let created = t.alice.create_room("participant", &settings).await.expect("room created");
    let room = created["room_id"].as_i64().unwrap();
    let code = created["invite_codes"][1].as_str().unwrap();
    // The invitation link gives server, room and code; the password comes from the environment.
    let link = format!("{}/rooms/{room}?code={code}", t.base);
    let seed = 4_242_u32;
    let log_path = dir.path().join("participant.log");
    let mut child = node(
        &js,
        &["--user", "bob", "--code", &link, "--seed", &seed.to_string()],
        Some(testclient::PASSWORD),
        &log_path,
    );

    // The whole game: the program's moves, the computer's answers, the count, the result.
    let status = match wait(&mut child, Duration::from_secs(240)).await {
        Ok(status) => status,
        Err(e) => {
            let v = t.alice.view(room).await;
            panic!("{e}: {v}\n{}", std::fs::read_to_string(&log_path).unwrap_or_default());
        }
    };
    let out = std::fs::read_to_string(&log_path).unwrap();
    assert_eq!(status, 0, "the program failed:\n{out}");
    let v = view(&t.base, room).await;
    assert_eq!((v["phase"].as_str(), v["white"].as_str()), (Some("finished"), Some("bob")), "{v}");
    assert_eq!(v["result"]["reason"], "score", "{v}");
    let winner = v["result"]["winner"].as_str().unwrap_or("none");
    assert!(out.contains("signed in to") && out.contains("as bob"), "{out}");
    assert!(out.contains(&format!("finished: score, winner {winner}")), "{out}");
    assert!(out.contains("scoring: consented to statement"), "{out}");

    // Everything went through the room's log: the program acknowledged each of the
    // computer's moves, and each of its moves is the model's choice.
    let log = t.bob.get_json(&format!("/api/v1/rooms/{room}/events?after=0")).await;
    let log = log.as_array().unwrap();
    let by = |kind: &str, colour: &str| {
        log.iter().filter(|e| e["event"]["type"] == kind && e["event"]["colour"] == colour).count()
    };
    // Each of the computer's moves is acknowledged by White's device, except a pass that
    // ended play (scoring follows at once, nothing waits for an acknowledgement).
    let acknowledged: Vec<u64> = log
        .iter()
        .filter(|e| e["event"]["type"] == "move_acknowledged" && e["event"]["colour"] == "white")
        .filter_map(|e| e["event"]["move_number"].as_u64())
        .collect();
    for (i, e) in log.iter().enumerate() {
        let e = &e["event"];
        let computers = e["colour"] == "black" && (e["type"] == "move_played" || e["type"] == "passed");
        let ended_play = log.get(i + 1).is_some_and(|next| next["event"]["type"] == "scoring_entered");
        if computers && !ended_play {
            let n = e["move_number"].as_u64().unwrap();
            assert!(acknowledged.contains(&n), "move {n} of the computer was not acknowledged");
        }
    }
    let program_moves = check_every_move(log, &settings, seed);
    assert_eq!(program_moves, by("move_played", "white"));
    assert!(program_moves >= 10, "a whole game, not a few moves: {program_moves} moves");
    assert_eq!(out.matches("(white): ").count(), program_moves + by("passed", "white"), "{out}");
    let consented = log.iter().any(|e| e["event"]["type"] == "consented" && e["event"]["colour"] == "white");
    assert!(consented, "the program did not consent to the count");
    t.srv.stop().await;
}

#[tokio::test]
async fn the_program_says_what_is_missing_and_a_wrong_password_is_an_error() {
    let t = Table::new().await;
    let dir = tempfile::tempdir().unwrap();
    let js = program(dir.path(), &default_model());
    let log = dir.path().join("out.log");

    let (status, out) = run(&js, &["--help"], &log).await;
    assert_eq!(status, 0, "{out}");
    assert!(out.contains("usage: node participant.js --server URL"), "{out}");
    let (status, out) = run(&js, &["--user", "bob", "--password", "x"], &log).await;
    assert_eq!((status, out.contains("error: missing server")), (1, true), "{out}");
    let (status, out) = run(&js, &["--server", &t.base, "--user", "bob", "--password", "x", "--code", "c"], &log).await;
    assert_eq!((status, out.contains("missing room")), (1, true), "{out}");
    let (status, out) = run(&js, &["--colour", "black"], &log).await;
    assert_eq!((status, out.contains("unknown argument --colour")), (1, true), "{out}");
    let args = ["--server", &t.base, "--user", "bob", "--password", "wrong", "--code", "c", "--room", "1"];
    let (status, out) = run(&js, &args, &log).await;
    assert_eq!((status, out.contains("401 bad_credentials")), (1, true), "{out}");
    // A code for no seat of the room: the server's refusal, said as such.
    let created = t.alice.create_room("r", &MatchSettings::classic_default(9)).await.unwrap();
    let room = created["room_id"].as_i64().unwrap().to_string();
    let args =
        ["--server", &t.base, "--user", "bob", "--password", testclient::PASSWORD, "--code", "0000", "--room", &room];
    let (status, out) = run(&js, &args, &log).await;
    assert_eq!((status, out.contains("403 bad_invite_code")), (1, true), "{out}");
    t.srv.stop().await;
}
