//! The JSON record example in README.md ("JSON format, version 1") is a real
//! version-1 record: it parses, replays, and round-trips.

use engine::{replay_json, GameRecord, Phase, RecordError, RECORD_VERSION};

fn readme_example() -> String {
    let readme = include_str!("../README.md");
    let start = readme.find("**JSON format, version 1**").expect("README documents the JSON format");
    let rest = &readme[start..];
    let open = rest.find("```json\n").expect("JSON example block") + "```json\n".len();
    let close = rest[open..].find("```").expect("closed JSON block");
    rest[open..open + close].to_string()
}

#[test]
fn readme_json_record_example_replays() {
    let json = readme_example();
    let rec = GameRecord::from_json(&json).unwrap();
    assert_eq!(rec.version, RECORD_VERSION);
    let g = rec.replay().unwrap();
    // The example ends with a score action: the game is over, scored by the Space formula.
    assert_eq!(g.phase(), Phase::Over);
    let r = g.result().unwrap();
    // Black's stone at 5,5 holds the whole empty board: 81 points to 0.
    assert_eq!(
        r,
        engine::GameResult::Score {
            winner: engine::Color::Black,
            margin_half: 162,
            method: engine::ScoringMethod::Space
        }
    );
    // Replay is deterministic: the record of the replayed game is the record itself.
    assert_eq!(g.record(), rec);
    assert_eq!(replay_json(&g.record().to_json()).unwrap(), g);
    // Another version is refused rather than guessed at.
    let v2 = json.replacen("\"version\": 1", "\"version\": 2", 1);
    assert!(matches!(replay_json(&v2), Err(RecordError::Version { found: 2, .. })));
}
