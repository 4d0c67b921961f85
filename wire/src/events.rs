//! What happens in a room, as an append-only sequence of events (lichess-style): the stored
//! log is the truth; a room's state is the fold of its events (see `state`).

use serde::{Deserialize, Serialize};

use super::referee::{ChainOpinion, ChainRuling, RegionRuling};
use super::settings::MatchSettings;

pub use super::terms::{
    Attention, Colour, FaultCause, HoldReason, Mark, MarkKind, ScoreSummary, Seat, SideTotals, Xyz,
};

/// Who fills a seat without an invitation (the event [`Event::SeatFilled`]).
// Read by `tag_first::tag_first!` below, not serde's derive (it buffers internally tagged enums).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, strum::EnumDiscriminants)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
#[strum_discriminants(
    name(FilledByCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum FilledBy {
    /// A person playing on the account `host`'s device (one device; practice alternating
    /// both colours), by the name entered for them.
    Guest { host: i64, name: String },
    /// The basic computer of the room's settings (`mode.computer`).
    Computer,
}

tag_first::tag_first!(FilledBy, FilledByCode, "kind"; Guest { host, name }, Computer);

/// One move taken back (000 §8.2): a stone at `at`, or a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TakenMove {
    pub colour: Colour,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Xyz>,
}

fn one_ply() -> u8 {
    1
}

fn is_one_ply(n: &u8) -> bool {
    *n == 1
}

// Read by `tag_first!` below, not serde's derive: the browser reads events from every
// stream message and record, and the derive's buffering doubled their reader in the room's
// WASM (the `tag_first` crate).
#[derive(Debug, Clone, PartialEq, Serialize, strum::IntoStaticStr, strum::EnumDiscriminants)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
#[strum_discriminants(
    name(EventCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum Event {
    RoomCreated {
        name: String,
        settings: MatchSettings,
        created_by: i64,
    },
    SeatTaken {
        seat: Seat,
        user_id: i64,
        username: String,
    },
    /// The seat's holder left before play; both confirmations are withdrawn.
    SeatLeft {
        seat: Seat,
    },
    /// The creator closed the room before play.
    RoomCancelled {
        by: i64,
    },
    /// A seat filled when the room was created without an invitation: the second player on
    /// the creator's device, or the basic computer (003 §1.2, §11.1–11.4).
    SeatFilled {
        seat: Seat,
        by: FilledBy,
    },
    /// A seated player accepts the room's settings (003 §1.3). Both are needed to start.
    SettingsConfirmed {
        seat: Seat,
    },
    /// Colours fixed (by nigiri with the room's secret seed, or as agreed).
    Started {
        black: Seat,
    },
    /// A player's device shows the board and the player pressed Ready (003 §1.6, §6.3).
    Ready {
        colour: Colour,
    },
    /// Both are ready: play (and, later, Black's clock) runs.
    PlayResumed,
    MovePlayed {
        colour: Colour,
        at: Xyz,
        move_number: u32,
        captured: Vec<Xyz>,
    },
    /// Rejected by the rules: recorded and shown, not counted (003 §2.5).
    IllegalAttempt {
        colour: Colour,
        at: Xyz,
        reason: engine::IllegalKind,
    },
    /// The opponent's device displays the move (003 §2.4, §5.5).
    MoveAcknowledged {
        colour: Colour,
        move_number: u32,
    },
    Passed {
        colour: Colour,
        move_number: u32,
    },
    Resigned {
        colour: Colour,
    },
    /// The mover's time ran out (003 §5.4; 000 §8.5); `Ended` follows.
    TimeExpired {
        colour: Colour,
    },
    UndoRequested {
        colour: Colour,
        move_number: u32,
        /// How many moves an acceptance takes back: 1, or in Classic 2 when the opponent has
        /// replied to the requester's move (000 §8.2). Absent in logs from before: 1.
        #[serde(default = "one_ply", skip_serializing_if = "is_one_ply")]
        plies: u8,
    },
    /// The opponent agreed: the stone at `at` (move `move_number`) is taken back (003 §5.1).
    UndoAccepted {
        colour: Colour,
        move_number: u32,
        at: Xyz,
        undone_colour: Colour,
    },
    /// Classic (000 §8.2): the opponent agreed and `moves` (latest first) are taken back —
    /// the requester's own last move, stone or pass, after the reply when there was one.
    TakenBack {
        colour: Colour,
        move_number: u32,
        moves: Vec<TakenMove>,
    },
    UndoRefused {
        colour: Colour,
        move_number: u32,
    },
    /// No answer within a minute: refused (003 §5.2).
    UndoExpired {
        move_number: u32,
    },
    /// A new move or pass while waiting cancels the request (003 §5.2), or the requester
    /// withdrew it (`by`).
    UndoCancelled {
        move_number: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<Colour>,
    },
    /// A player asks to count on this position (003 §2.7).
    ScoringRequested {
        colour: Colour,
        move_number: u32,
    },
    ScoringRequestCancelled {
        colour: Colour,
    },
    DrawOffered {
        colour: Colour,
    },
    /// `by_move`: the other side played instead of answering (000 §8.2).
    DrawDeclined {
        colour: Colour,
        by_move: bool,
    },
    DrawOfferCancelled {
        colour: Colour,
    },
    /// Two consecutive passes or both requests: counting starts; clocks stop (003 §2.7).
    ScoringEntered,
    MarkAdded {
        colour: Colour,
        mark: Mark,
        stones: Vec<Xyz>,
    },
    /// A mark withdrawn by its maker (or, Classic, toggled off by either player).
    MarkWithdrawn {
        colour: Colour,
        mark: Mark,
    },
    /// A new score statement: marks or scoring changed; earlier consents are void (003 §4.5).
    StatementIssued {
        number: u64,
        marks: Vec<Mark>,
        score: ScoreSummary,
    },
    Consented {
        colour: Colour,
        statement: u64,
        black_total_half: i64,
        white_total_half: i64,
    },
    ConsentWithdrawn {
        colour: Colour,
        statement: u64,
        black_total_half: i64,
        white_total_half: i64,
    },
    /// Classic: scoring abandoned; play goes on, the requester's opponent to move (000 §5.5).
    PlayContinued {
        requested_by: Colour,
    },
    /// Classic: the scoring deadline passed; whoever had not agreed is taken to agree (000 §8.5).
    ScoringDeadlinePassed,
    ConnectionLost {
        colour: Colour,
        cause: FaultCause,
    },
    Reconnected {
        colour: Colour,
    },
    /// The reconnection wait ran out (003 §6.1; 000 §8.5).
    ReconnectionExpired {
        colour: Colour,
    },
    /// The administrator is notified.
    AttentionNeeded {
        attention: Attention,
    },
    Held {
        reason: HoldReason,
    },
    /// An administrator resumed a held match.
    Resumed {
        reasons: String,
    },
    /// A player's opinion on a chain, with reasons (003 §3.6).
    OpinionStated {
        colour: Colour,
        chain: Xyz,
        opinion: ChainOpinion,
        reasons: String,
    },
    /// An administrator's ruling (003 §3.6, §8.4–8.5), with reasons: the verdict on each
    /// chain and region and the marks in force after it; its statement follows. Rulings
    /// stored before per-chain verdicts have only `marks` (and may have finalized).
    Ruling {
        marks: Vec<Mark>,
        reasons: String,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        finalize: bool,
        #[serde(default)]
        chains: Vec<ChainRuling>,
        #[serde(default)]
        regions: Vec<RegionRuling>,
    },
    /// A player objects to ruling `ruling`; the room is held for review (003 §3.6).
    RulingObjected {
        colour: Colour,
        ruling: u32,
        reasons: String,
    },
    /// The administrator confirms ruling `ruling` after an objection; its marks are issued
    /// again as a new statement.
    RulingConfirmed {
        ruling: u32,
        reasons: String,
    },
    /// Review required: both consented to `statement`; it waits for the administrator
    /// (003 §2.7).
    ReviewRequested {
        statement: u64,
    },
    /// The administrator confirmed `statement`; `Ended` follows (003 §2.7).
    StatementConfirmed {
        statement: u64,
        reasons: String,
    },
    /// A player objects to the loss on time (003 §5.7): the result is under review.
    TimeLossObjected {
        colour: Colour,
        reasons: String,
    },
    /// The administrator's decision on it. Cancelled: the position, the player to move and
    /// both clocks as at the start of the turn that ran out; play waits for both Ready.
    TimeLossDecided {
        cancelled: bool,
        reasons: String,
    },
    /// A calculation or record error referred after the end (`by: None`: an administrator).
    CorrectionRequested {
        by: Option<Colour>,
        reasons: String,
    },
    /// The administrator's corrected result (and statement, where the marks were wrong).
    CorrectionProposed {
        result: engine::GameResult,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        statement: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        marks: Option<Vec<Mark>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        score: Option<Box<ScoreSummary>>,
        reasons: String,
    },
    /// A player's renewed consent to the proposed correction, or their refusal (003 §4.7).
    CorrectionAnswered {
        colour: Colour,
        accept: bool,
    },
    /// Both consented: the corrected result replaces the original, which stays recorded.
    CorrectionApplied {
        result: engine::GameResult,
    },
    /// Closed without a change: the original result stays.
    CorrectionClosed {
        reasons: String,
    },
    /// A damaged log repaired (003 §6.2): events after `resume_after` up to this one are
    /// set aside (kept, not replayed); the room goes on from event `resume_after`.
    RecordRepaired {
        resume_after: i64,
        reasons: String,
    },
    /// An administrator ended the match (`Ended` follows).
    Decided {
        winner: Option<Colour>,
        reasons: String,
    },
    /// An administrator's sanction with reasons (003 §6.5, §6.7); a loss or void of a match
    /// in play is followed by `Ended`, of a finished one replaces its result.
    Sanctioned {
        number: u32,
        subject: super::conduct::Subject,
        name: String,
        penalty: super::conduct::Penalty,
        category: super::conduct::Category,
        reasons: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        findings: Option<String>,
    },
    /// The sanctioned person appeals with evidence: the sanction is suspended and a result
    /// it set is under review (003 §6.6).
    AppealFiled {
        number: u32,
        evidence: String,
    },
    /// The administrator opens one more appeal (a second or late one) on new evidence.
    AppealExceptionOpened {
        number: u32,
        reasons: String,
    },
    /// The final decision on the appeal; it applies without the players' renewed consent.
    /// Lifting a loss or void restores the result before it, or `result` when the
    /// sanction ended the match in play.
    AppealDecided {
        number: u32,
        upheld: bool,
        reasons: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        result: Option<engine::GameResult>,
    },
    /// A player approves the account `user_id` (named `username` then) to read the stored
    /// record (003 §8.1). Approvals stored before they named the account have no `user_id`
    /// and grant nothing: a bare name cannot say which account was meant.
    RecordViewerApproved {
        colour: Colour,
        username: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        user_id: Option<i64>,
    },
    Ended {
        result: engine::GameResult,
        /// The agreed statement, when the game was counted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        score: Option<Box<ScoreSummary>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        statement: Option<u64>,
    },
}

tag_first::tag_first!(Event, EventCode, "type";
    RoomCreated { name, settings, created_by },
    SeatTaken { seat, user_id, username },
    SeatLeft { seat },
    RoomCancelled { by },
    SeatFilled { seat, by },
    SettingsConfirmed { seat },
    Started { black },
    Ready { colour },
    PlayResumed,
    MovePlayed { colour, at, move_number, captured },
    IllegalAttempt { colour, at, reason },
    MoveAcknowledged { colour, move_number },
    Passed { colour, move_number },
    Resigned { colour },
    TimeExpired { colour },
    UndoRequested { colour, move_number, plies = one_ply() },
    UndoAccepted { colour, move_number, at, undone_colour },
    TakenBack { colour, move_number, moves },
    UndoRefused { colour, move_number },
    UndoExpired { move_number },
    UndoCancelled { move_number, by = Default::default() },
    ScoringRequested { colour, move_number },
    ScoringRequestCancelled { colour },
    DrawOffered { colour },
    DrawDeclined { colour, by_move },
    DrawOfferCancelled { colour },
    ScoringEntered,
    MarkAdded { colour, mark, stones },
    MarkWithdrawn { colour, mark },
    StatementIssued { number, marks, score },
    Consented { colour, statement, black_total_half, white_total_half },
    ConsentWithdrawn { colour, statement, black_total_half, white_total_half },
    PlayContinued { requested_by },
    ScoringDeadlinePassed,
    ConnectionLost { colour, cause },
    Reconnected { colour },
    ReconnectionExpired { colour },
    AttentionNeeded { attention },
    Held { reason },
    Resumed { reasons },
    OpinionStated { colour, chain, opinion, reasons },
    Ruling { marks, reasons, finalize = Default::default(), chains = Default::default(), regions = Default::default() },
    RulingObjected { colour, ruling, reasons },
    RulingConfirmed { ruling, reasons },
    ReviewRequested { statement },
    StatementConfirmed { statement, reasons },
    TimeLossObjected { colour, reasons },
    TimeLossDecided { cancelled, reasons },
    CorrectionRequested { by, reasons },
    CorrectionProposed { result, statement = Default::default(), marks = Default::default(), score = Default::default(), reasons },
    CorrectionAnswered { colour, accept },
    CorrectionApplied { result },
    CorrectionClosed { reasons },
    RecordRepaired { resume_after, reasons },
    Decided { winner, reasons },
    Sanctioned { number, subject, name, penalty, category, reasons, findings = Default::default() },
    AppealFiled { number, evidence },
    AppealExceptionOpened { number, reasons },
    AppealDecided { number, upheld, reasons, result = Default::default() },
    RecordViewerApproved { colour, username, user_id = Default::default() },
    Ended { result, score = Default::default(), statement = Default::default() },
);

impl Event {
    /// The short name stored beside the JSON body (for queries and logs): the serde tag.
    pub fn kind(&self) -> &'static str {
        self.into()
    }

    /// An administrator's action with its reasons, for the administrators' log; `None` for
    /// what players and the server do. Only administrators' commands make these events
    /// (`MatchState::admin`), so the event alone says it.
    pub fn audited(&self) -> Option<(crate::audit::AuditAction, &str)> {
        use crate::audit::AuditAction as A;
        Some(match self {
            Event::Held { reason: HoldReason::Administrator { reasons } } => (A::RoomHeld, reasons),
            Event::Resumed { reasons } => (A::RoomResumed, reasons),
            Event::Ruling { reasons, .. } => (A::Ruling, reasons),
            Event::RulingConfirmed { reasons, .. } => (A::RulingConfirmed, reasons),
            Event::StatementConfirmed { reasons, .. } => (A::StatementConfirmed, reasons),
            Event::TimeLossDecided { reasons, .. } => (A::TimeLossDecided, reasons),
            Event::CorrectionRequested { by: None, reasons } => (A::CorrectionReferred, reasons),
            Event::CorrectionProposed { reasons, .. } => (A::CorrectionProposed, reasons),
            Event::CorrectionClosed { reasons } => (A::CorrectionClosed, reasons),
            Event::RecordRepaired { reasons, .. } => (A::RecordRepaired, reasons),
            Event::Decided { reasons, .. } => (A::Decided, reasons),
            Event::Sanctioned { reasons, .. } => (A::Sanctioned, reasons),
            Event::AppealExceptionOpened { reasons, .. } => (A::AppealExceptionOpened, reasons),
            Event::AppealDecided { reasons, .. } => (A::AppealDecided, reasons),
            _ => return None,
        })
    }
}

/// An event as stored: its number in the room's sequence (the room's version), when the
/// server accepted it, and who caused it (`None`: the server itself).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StoredEvent {
    pub seq: i64,
    pub at_ms: i64,
    pub actor: Option<i64>,
    pub event: Event,
}

/// The server-only facts of a room, stored with its `room_created` event (in the same row)
/// and never sent: no event, view or record type has a field for them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomSecrets {
    /// SHA-256 of each seat's invitation code (the codes themselves are shown once).
    pub invite_sha256: [String; 2],
    /// The ChaCha seed that draws the colours with nigiri, drawn from the OS when the room is
    /// created and recorded so that the draw can be audited and replayed. Rooms created before
    /// it existed recorded theirs in their `started` row instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nigiri_seed: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_administrators_actions_are_audited() {
        let reasons = || "because".to_string();
        let held = Event::Held { reason: HoldReason::Administrator { reasons: reasons() } };
        assert_eq!(held.audited(), Some((crate::audit::AuditAction::RoomHeld, "because")));
        assert_eq!(
            Event::Decided { winner: None, reasons: reasons() }.audited(),
            Some((crate::audit::AuditAction::Decided, "because"))
        );
        // A player's referral and the server's own hold are not administrators' actions.
        let referred = Event::CorrectionRequested { by: Some(Colour::Black), reasons: reasons() };
        assert_eq!(referred.audited(), None);
        assert_eq!(Event::Held { reason: HoldReason::ServerRestart }.audited(), None);
        let by_admin = Event::CorrectionRequested { by: None, reasons: reasons() };
        assert_eq!(by_admin.audited(), Some((crate::audit::AuditAction::CorrectionReferred, "because")));
    }

    fn back(e: &Event) -> Event {
        serde_json::from_str(&serde_json::to_string(e).unwrap()).unwrap()
    }

    /// `Event` is read by `tag_first!` (the wire form is serde's derive): the fields serde
    /// leaves out or defaults come back as they were, the results inside read too, and an
    /// object with its keys sorted (a `serde_json::Value`'s) reads the same.
    #[test]
    fn events_read_back_as_written_with_defaults_and_in_any_key_order() {
        let xyz = |x, y, z| Xyz { x, y, z };
        let result =
            engine::GameResult::Score { winner: Colour::White, margin_half: 3, method: engine::ScoringMethod::Area };
        let samples = vec![
            Event::PlayResumed,
            Event::MovePlayed { colour: Colour::White, at: xyz(1, 2, 3), move_number: 7, captured: vec![xyz(1, 1, 1)] },
            Event::UndoRequested { colour: Colour::Black, move_number: 4, plies: 1 },
            Event::UndoRequested { colour: Colour::Black, move_number: 4, plies: 2 },
            Event::UndoCancelled { move_number: 4, by: None },
            Event::Ruling { marks: vec![], reasons: "r".into(), finalize: false, chains: vec![], regions: vec![] },
            Event::CorrectionProposed { result, statement: None, marks: None, score: None, reasons: "x".into() },
            Event::AppealDecided { number: 2, upheld: true, reasons: "y".into(), result: Some(result) },
            Event::Held { reason: HoldReason::PlayerCall { colour: Colour::White, reason: "z".into() } },
        ];
        for e in &samples {
            assert_eq!(&back(e), e);
            let sorted = serde_json::to_value(e).unwrap();
            assert_eq!(&serde_json::from_value::<Event>(sorted).unwrap(), e);
        }
        // The defaults as written by serde's derive: `plies` 1 and the flags left out.
        assert!(!serde_json::to_string(&samples[2]).unwrap().contains("plies"));
        let e: Event = serde_json::from_str(r#"{"type":"ruling","marks":[],"reasons":"r"}"#).unwrap();
        assert_eq!(e, samples[5]);
    }

    #[test]
    fn an_event_without_a_required_field_or_of_an_unknown_kind_is_refused() {
        let err = |t: &str| serde_json::from_str::<Event>(t).unwrap_err().to_string();
        assert!(err(r#"{"type":"passed","colour":"black"}"#).contains("missing field `move_number`"));
        assert!(err(r#"{"type":"teleported"}"#).contains("unknown variant `teleported`"));
    }
}
