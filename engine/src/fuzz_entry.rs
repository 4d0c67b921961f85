//! Entry points shared by the cargo-fuzz targets (`engine/fuzz`) and the
//! no-panic property tests: each takes arbitrary bytes and must never panic.

use crate::gtp::GtpEngine;
use crate::rules::Rules;

/// SGF text → [`crate::sgf::SgfGame`] → replay → SGF text → parse again.
pub fn sgf(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(g) = crate::sgf::parse_sgf(&text) {
        let again = crate::sgf::write_sgf(&g);
        let _ = crate::sgf::parse_sgf(&again);
        if let Ok(imp) = crate::sgf::game_from_sgf(&g, Rules::classic(), None) {
            if let Ok(out) = crate::sgf::export_sgf(&imp.game, &imp.info) {
                let _ = crate::sgf::import_sgf(&out, Rules::classic(), None);
            }
        }
    }
}

/// JSON game record → replay → JSON.
pub fn record_json(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(rec) = crate::record::GameRecord::from_json(&text) {
        if let Ok(game) = rec.replay() {
            let _ = game.record().to_json();
        }
    }
    let _ = crate::record::replay_json(&text);
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
