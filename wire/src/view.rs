//! What a viewer is told about a room right now (a full state, sent on request or to a
//! reconnecting client too far behind). Built on the server per viewer, shared with the
//! browser. Nothing secret is in it (no RNG seed, no invitation digests, no position
//! history), and the hints of 000 §8.3 go only to the player to move.

use serde::{Deserialize, Serialize};

use crate::ByColour;

use super::{
    clocks::ClockView,
    commands::RoomPhase,
    events::{Attention, Colour, FaultCause, HoldReason, Mark, ScoreSummary, Xyz},
    settings::MatchSettings,
};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PendingUndo {
    pub colour: Colour,
    pub move_number: u32,
    /// Moves an acceptance takes back: 2 in Classic when the opponent has replied (000 §8.2).
    pub plies: u8,
    /// No answer by then refuses it (003 §5.2).
    pub expires_at_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FaultView {
    pub cause: FaultCause,
    pub since_ms: i64,
    /// The reconnection wait ends then (003 §6.1; 000 §8.5).
    pub wait_ends_at_ms: i64,
}

/// Proposals only (003 §3.4, §3.12): the engine's suggestions beside the players' marks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Suggestions {
    /// Chains the heuristics of 000 §5.5 take for dead.
    pub dead: Vec<Vec<Xyz>>,
    /// Empty regions that may be seki (000 §5.6).
    pub seki: Vec<Vec<Xyz>>,
    /// Per chain (by one stone): its life-space candidates, each an empty region bordered by
    /// that chain alone (003 §3.2, §3.9).
    pub life_spaces: Vec<(Xyz, Vec<Vec<Xyz>>)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScoringView {
    pub statement: u64,
    pub marks: Vec<Mark>,
    pub score: ScoreSummary,
    /// The statement number each side (Black, White) consented to.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Option<u64>>))]
    pub consents: ByColour<Option<u64>>,
    pub started_ms: i64,
    /// Classic: the deadline after which marks stand as agreed (000 §8.5); Space: when the
    /// administrator is notified (003 §10.2), if announced.
    pub deadline_ms: Option<i64>,
    /// One character per point in index order (x fastest, then y, then z): `b`/`w` stone,
    /// `B`/`W` territory, `u` beside unresolved chains, `s` seki, `n` neutral.
    pub ownership: String,
    pub suggestions: Suggestions,
}

/// Convenience information for the player to move only (000 §8.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Hints {
    /// Empty points where the player to move may not play, and why.
    pub illegal: Vec<(Xyz, engine::IllegalKind)>,
    /// The player's own chains in atari (when the room enables atari warnings).
    pub atari: Vec<Vec<Xyz>>,
}

// Read by hand (below): serde's derive reads a flattened field through its private buffer,
// which compiles the score's reader a second time into the room's WASM (the `tag_first` crate).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ResultView {
    /// How it ended, flattened on the wire: `reason`, `winner`, `margin_half`, `method`.
    #[serde(flatten)]
    pub result: engine::GameResult,
    pub score: Option<ScoreSummary>,
    pub statement: Option<u64>,
}

/// `ResultView`'s fields beside the flattened result.
#[derive(Default)]
struct ResultSiblings {
    score: Option<Option<ScoreSummary>>,
    statement: Option<Option<u64>>,
}

impl<'de> tag_first::Siblings<'de> for ResultSiblings {
    fn read<A: serde::de::MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        use tag_first::field;
        match key {
            "score" => field(&mut self.score, "score", map)?,
            "statement" => field(&mut self.statement, "statement", map)?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

impl<'de> Deserialize<'de> for ResultView {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use tag_first::{read, Read};
        match read::<D, engine::GameResult, _>(d, ResultSiblings::default())? {
            (Read::Done(result), s) => {
                Ok(ResultView { result, score: s.score.flatten(), statement: s.statement.flatten() })
            }
            (Read::Reordered(text), _) => tag_first::reread(&text),
        }
    }
}

/// A user approved to read the stored record, and by whom (Black, White): it takes both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecordViewerView {
    pub username: String,
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<bool>))]
    pub approved: ByColour<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoomView {
    pub room_id: i64,
    /// The room's version: the number of the last event included.
    pub version: i64,
    /// Server time the view was made at (clocks are computed for it).
    pub server_time_ms: i64,
    pub name: String,
    pub phase: RoomPhase,
    pub settings: MatchSettings,
    /// User names in the first and second seat.
    pub seats: [Option<String>; 2],
    pub confirmed: [bool; 2],
    /// User name playing Black and White, once started.
    pub black: Option<String>,
    pub white: Option<String>,
    /// The viewer's colour, if the viewer is a seated player of a started game.
    pub your_colour: Option<Colour>,
    /// Ready flags (Black, White).
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<bool>))]
    pub ready: ByColour<bool>,
    pub to_move: Colour,
    pub move_number: u32,
    pub stones: Vec<(Xyz, Colour)>,
    pub last_move: Option<Xyz>,
    /// Stones captured by Black and by White.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<u32>))]
    pub captures: ByColour<u32>,
    pub clocks: ClockView,
    /// The colour whose device must still acknowledge a move, and the move's number.
    pub awaiting_ack: Option<(Colour, u32)>,
    pub undo: Option<PendingUndo>,
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<u32>))]
    pub undos_used: ByColour<u32>,
    /// Move number at which Black / White asked to count (003 §2.7).
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Option<u32>>))]
    pub scoring_requests: ByColour<Option<u32>>,
    pub draw_offer_by: Option<Colour>,
    pub scoring: Option<ScoringView>,
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Option<FaultView>>))]
    pub faults: ByColour<Option<FaultView>>,
    pub hold: Option<HoldReason>,
    /// Since when the room is held (server time), while it is.
    #[serde(default)]
    pub hold_since_ms: Option<i64>,
    pub attention: Option<Attention>,
    pub result: Option<ResultView>,
    pub illegal_attempts: u32,
    pub hints: Option<Hints>,
    /// Users approved to read the stored record, with each colour's approval (003 §8.1).
    pub record_viewers: Vec<RecordViewerView>,
    /// This viewer may read and download the stored record: a player, an administrator or
    /// a viewer both players approved (003 §8.1).
    pub may_read_record: bool,
    /// Open live connections to this room (players and spectators).
    pub watchers: usize,
    /// Every ruling with its reasons, the opinions, objections and corrections (003 §3.6,
    /// §4.7, §5.7): shown to everyone who watches.
    #[serde(default)]
    pub referee: super::referee::RefereeRecord,
    /// The result is not settled while an objection or correction is open.
    #[serde(default)]
    pub under_review: bool,
    /// The viewer created this room (and may cancel it before play).
    #[serde(default)]
    pub you_created: bool,
    /// Who passed, when the last move was a pass (000 §9: "pass too to finish").
    #[serde(default)]
    pub last_pass_by: Option<Colour>,
    /// Whether Black's and White's player has this room open now (a live connection to it),
    /// as the room's server counts them when the view is made.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<bool>))]
    pub present: ByColour<bool>,
}

/// What the administrator sees beside the board of a room with an item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeskView {
    pub room: RoomView,
    /// Marked chains and chains with an opinion first, then the others (at most 200).
    pub chains: Vec<super::referee::ChainDetail>,
    /// The latest events (at most 300), oldest first.
    pub timeline: Vec<super::referee::TimelineEntry>,
    pub items: Vec<super::referee::QueueEntry>,
}

#[cfg(test)]
mod result_view_tests {
    use super::*;

    /// `ResultView` is read by hand (the result flattened beside `score` and `statement`):
    /// as written, and with its keys sorted (a `serde_json::Value`'s), where `reason` is
    /// neither first in the view nor in the score's result.
    #[test]
    fn a_result_view_reads_back_in_any_key_order() {
        let result =
            engine::GameResult::Score { winner: Colour::Black, margin_half: 5, method: engine::ScoringMethod::Area };
        let totals = crate::events::SideTotals {
            stones: 1,
            territory: 2,
            captures: 3,
            dead_captured: 4,
            bonus: 0,
            komi_half: 13,
            handicap_compensation_half: 0,
            total_half: 33,
        };
        let score = ScoreSummary {
            black: totals,
            white: totals,
            neutral: [0, 1, 2],
            result,
            dead_stones: vec![],
            unresolved_stones: vec![],
        };
        for v in [
            ResultView { result, score: Some(score), statement: Some(3) },
            ResultView { result: engine::GameResult::Void, score: None, statement: None },
        ] {
            let text = serde_json::to_string(&v).unwrap();
            assert_eq!(serde_json::from_str::<ResultView>(&text).unwrap(), v, "{text}");
            assert_eq!(serde_json::from_value::<ResultView>(serde_json::to_value(&v).unwrap()).unwrap(), v);
        }
        assert!(serde_json::from_str::<ResultView>(r#"{"reason":"void","statement":1,"statement":2}"#).is_err());
    }
}
