//! Entry points shared by the cargo-fuzz targets (`engine/fuzz`) and the
//! no-panic property tests: each takes arbitrary bytes, must never panic on
//! bad input, and panics (an assertion, which the fuzzer reports) when a
//! round trip does not give back what it was given.

use crate::game::record::GameRecord;
use crate::gtp::GtpEngine;
use crate::rules::Rules;
use crate::sgf::{export_sgf, game_from_sgf, import_sgf, parse_sgf, write_sgf};

/// SGF text → [`crate::sgf::SgfGame`] → SGF text → parse again: the same
/// `SgfGame`, and printing it again gives the same text. Then the replayed
/// game → SGF → replay: the same game, and the same SGF text.
pub fn sgf(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(g) = parse_sgf(&text) else {
        return;
    };
    let printed = write_sgf(&g);
    let reparsed = parse_sgf(&printed).unwrap_or_else(|e| panic!("printed SGF does not parse ({e}):\n{printed}"));
    assert_eq!(reparsed, g, "SGF → text → SGF changed the game; text:\n{printed}");
    assert_eq!(write_sgf(&reparsed), printed, "printing is not stable");

    let Ok(imp) = game_from_sgf(&g, Rules::classic(), None) else {
        return;
    };
    let exported = export_sgf(&imp.game, &imp.info).unwrap_or_else(|e| panic!("a flat game must export: {e}"));
    let back = import_sgf(&exported, Rules::classic(), None)
        .unwrap_or_else(|e| panic!("exported SGF does not replay ({e}):\n{exported}"));
    assert_eq!(back.game, imp.game, "game → SGF → game changed the game; SGF:\n{exported}");
    assert_eq!(back.game.log(), imp.game.log(), "game → SGF → game changed the action log");
    let again = export_sgf(&back.game, &back.info).unwrap_or_else(|e| panic!("re-export failed: {e}"));
    assert_eq!(again, exported, "export is not stable");
}

/// JSON game record → replay → record: the same record; its JSON parses
/// back to the same record and replays to the same game.
pub fn record_json(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(rec) = GameRecord::from_json(&text) else {
        return;
    };
    let Ok(game) = rec.replay() else {
        return;
    };
    let out = game.record();
    assert_eq!(out, rec, "record → game → record changed the record");
    let json = out.to_json();
    let parsed =
        GameRecord::from_json(&json).unwrap_or_else(|e| panic!("printed record does not parse ({e}):\n{json}"));
    assert_eq!(parsed, out, "record → JSON → record changed the record:\n{json}");
    let again =
        crate::game::record::replay_json(&json).unwrap_or_else(|e| panic!("printed record does not replay ({e})"));
    assert_eq!(again, game, "JSON → game changed the game");
    assert_eq!(again.log(), game.log());
}

/// Each line through a fresh GTP engine (no file access).
pub fn gtp(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut e = GtpEngine::new(1);
    for line in text.lines().take(200) {
        let _ = e.handle_line(line);
        if e.should_quit() {
            break;
        }
    }
}
