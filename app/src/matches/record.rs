//! The stored record of a match as downloaded (003 §8.1–8.2, §12.7): the agreement, the
//! players, every event with its server time and actor (moves with captures, passes, undos,
//! illegal attempts flagged, consents and withdrawals with statement numbers and scores,
//! rulings with reasons), the result, and the engine's replayable game record. SGF is
//! offered for flat boards. Secrets (nigiri seed, invitation digests) are never included.

use serde::Serialize;

use wire::{events::StoredEvent, settings::MatchSettings};

use room::MatchState;

/// The format version of the downloaded JSON.
pub const ROOM_RECORD_VERSION: u32 = 1;

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct RoomRecord {
    pub format: &'static str,
    pub version: u32,
    pub room_id: i64,
    pub name: String,
    pub settings: MatchSettings,
    pub black: Option<String>,
    pub white: Option<String>,
    pub phase: wire::commands::RoomPhase,
    /// How the game ended, once finished.
    pub result: Option<engine::GameResult>,
    /// The result is not settled yet: an objection, a correction or an appeal of a
    /// sanction that set it is under review (003 §4.7, §5.7, §6.6).
    pub under_review: bool,
    /// The result and the agreed settings in words, in every catalogue language (the
    /// events themselves hold codes and numbers only).
    pub text: std::collections::BTreeMap<&'static str, RecordText>,
    pub events: Vec<StoredEvent>,
    /// The administrators' log entries about this room (their actions, with reasons),
    /// oldest first.
    pub audit: Vec<crate::audit::AuditEntry>,
    /// The engine's replayable record (JSON record v1, engine/README.md).
    #[cfg_attr(feature = "ssr", schema(value_type = Object))]
    pub game: engine::record::GameRecord,
    /// FF[4] SGF for flat boards; `None` for 3D boxes.
    pub sgf: Option<String>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct RecordText {
    pub result: Option<String>,
    pub settings: Vec<String>,
}

impl RoomRecord {
    pub fn build(
        room_id: i64,
        s: &MatchState,
        log: &[StoredEvent],
        audit: Vec<crate::audit::AuditEntry>,
    ) -> RoomRecord {
        let black = s.holder_of(wire::events::Colour::Black).map(|h| h.name().to_string());
        let white = s.holder_of(wire::events::Colour::White).map(|h| h.name().to_string());
        let sgf = s.game.geometry().is_flat().then(|| {
            let info = engine::sgf::replay::SgfInfo {
                black_player: black.clone(),
                white_player: white.clone(),
                ..Default::default()
            };
            engine::sgf::replay::export_sgf(&s.game, &info).ok()
        });
        let settings = s.settings();
        RoomRecord {
            format: "space-baduk-room-record",
            version: ROOM_RECORD_VERSION,
            room_id,
            name: s.name.clone(),
            settings: settings.clone(),
            black,
            white,
            phase: s.phase(),
            result: s.result(),
            under_review: s.referee.under_review(),
            text: crate::i18n::Lang::all()
                .into_iter()
                .map(|lang| {
                    let result = s.result().map(|r| crate::text::listed_result(lang, &r, s.referee.under_review()));
                    (lang.code(), RecordText { result, settings: crate::text::settings_summary(lang, &settings) })
                })
                .collect(),
            events: log.to_vec(),
            audit,
            game: s.game.record(),
            sgf: sgf.flatten(),
        }
    }
}
