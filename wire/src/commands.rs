//! What participants and administrators can ask of a room, and why a request is refused.
//! Shared with the browser, which sends the same commands through server functions.

use serde::{Deserialize, Serialize};

use super::events::{Colour, FaultCause, MarkKind, StoredEvent, Xyz};
use super::referee::{ChainOpinion, ChainRuling, CorrectionProposal, RegionRuling};
use crate::Role;

/// A new room: its number and the invitation codes for the first and second seat (shown
/// once; only digests are stored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreatedRoom {
    pub room_id: i64,
    pub invite_codes: [String; 2],
}

/// Answer to an accepted command: the room's new version and the events it produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CommandReply {
    pub version: i64,
    pub events: Vec<StoredEvent>,
}

/// Where a room stands (serde, `as_str` and `FromStr`: `open`, `waiting_ready`, `playing`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::EnumString)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum RoomPhase {
    /// Seats filling and settings being confirmed (003 §1.3).
    Open,
    /// Colours fixed; waiting for both players' Ready (003 §1.6, §6.3).
    WaitingReady,
    Playing,
    /// Counting (003 §3.4–3.7, §4.2–4.6; 000 §5.5). Clocks stopped.
    Scoring,
    /// Held for the administrator (003 §3.6, §6.1); only an administrator resumes it.
    Held,
    /// Both consented to the latest statement; the administrator reviews it before the
    /// result is final (003 §2.7, review required).
    AwaitingReview,
    Finished,
    /// Closed by its creator before play: no game, no result.
    Cancelled,
}

impl RoomPhase {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
    /// Whether a player may resign now: any time after the settings are agreed until the end
    /// (the server's rule; the room offers Resign exactly then).
    pub fn accepts_resignation(self) -> bool {
        !matches!(self, RoomPhase::Open | RoomPhase::Finished | RoomPhase::Cancelled)
    }
}

/// Who is asking — sending a command, watching a room or reading its record: a signed-in
/// user as the server knows them from their session (anonymous visitors have none). Their
/// account role is all the server knows of them beyond their name; whether they play in a
/// room follows from the room's seats, not from this.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Requester {
    pub user_id: i64,
    pub username: String,
    pub role: Role,
}

impl Requester {
    /// May rule, hold and decide (003 §1.5, §3.6, §6.1).
    pub fn is_admin(&self) -> bool {
        self.role.is_admin()
    }
}

/// What a participant can ask of a room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Take the seat that `code` invites to.
    Join {
        code: String,
    },
    /// Accept the room's settings (both seats must).
    #[serde(deserialize_with = "no_fields")]
    Confirm,
    /// My device shows the board; start (or resume) when both are ready.
    #[serde(deserialize_with = "no_fields")]
    Ready,
    /// Place a stone at actual coordinates.
    Move {
        at: Xyz,
    },
    /// My device displays move `move_number` (the opponent's move or pass).
    Acknowledge {
        move_number: u32,
    },
    #[serde(deserialize_with = "no_fields")]
    Pass,
    #[serde(deserialize_with = "no_fields")]
    Resign,
    /// Ask to undo the most recent stone move (003 §5.1).
    #[serde(deserialize_with = "no_fields")]
    RequestUndo,
    /// The opponent's answer to a pending undo request (003 §5.2).
    AnswerUndo {
        accept: bool,
    },
    /// Take the free seat of an open room.
    #[serde(deserialize_with = "no_fields")]
    TakeSeat,
    /// Give up one's seat before both players confirmed the settings.
    #[serde(deserialize_with = "no_fields")]
    LeaveSeat,
    /// The creator closes the room before play.
    #[serde(deserialize_with = "no_fields")]
    CancelRoom,
    /// The requester withdraws their pending undo request.
    #[serde(deserialize_with = "no_fields")]
    CancelUndo,
    /// Ask to count now; both asking on the same position enters scoring (003 §2.7).
    #[serde(deserialize_with = "no_fields")]
    RequestScoring,
    /// Withdraw one's own scoring request (003 §2.7).
    #[serde(deserialize_with = "no_fields")]
    CancelScoringRequest,
    /// Classic draw offer (000 §8.2) and its answer / withdrawal.
    #[serde(deserialize_with = "no_fields")]
    OfferDraw,
    AnswerDraw {
        accept: bool,
    },
    #[serde(deserialize_with = "no_fields")]
    CancelDrawOffer,
    /// Scoring: mark the chain (dead, unresolved) or the empty region (seki) at `at`.
    /// Classic toggles: marking a marked chain or region again removes the mark (000 §5.5).
    Mark {
        at: Xyz,
        kind: MarkKind,
    },
    /// Scoring: withdraw a mark (Space: only one's own, 003 §3.5).
    Unmark {
        at: Xyz,
    },
    /// Scoring: consent to statement `statement` (003 §4.5); it must be the latest.
    Consent {
        statement: u64,
    },
    /// Scoring: withdraw one's consent before the result is final (003 §4.6).
    #[serde(deserialize_with = "no_fields")]
    WithdrawConsent,
    /// Scoring: disagree and ask for the administrator (003 §3.6).
    Dispute {
        reason: String,
    },
    /// Classic: leave scoring and play on; the opponent moves first (000 §5.5 step 5).
    #[serde(deserialize_with = "no_fields")]
    ResumePlay,
    /// Both players must approve a user before they may read the stored record (003 §8.1).
    ApproveRecordViewer {
        username: String,
    },

    /// A player's opinion on the chain at `at`, with reasons, before or during a dispute
    /// (003 §3.6). A new opinion on the same chain replaces the old one.
    StateOpinion {
        at: Xyz,
        opinion: ChainOpinion,
        reasons: String,
    },
    /// Object once to the latest ruling, with reasons: it goes back to the administrator
    /// (003 §3.6).
    ObjectToRuling {
        reasons: String,
    },
    /// Call the administrator during play (a conflict of special and common rules, a
    /// suspected fault): the clocks stop and the game is held (003 §1.4).
    CallAdministrator {
        reason: String,
    },
    /// Object to a loss on time within seven days of the end (003 §5.7).
    ObjectToTimeLoss {
        reasons: String,
    },
    /// Refer a calculation or record error after the end (003 §4.7); administrators too.
    RequestCorrection {
        reasons: String,
    },
    /// A player's renewed consent to (or refusal of) the proposed correction (003 §4.7).
    AnswerCorrection {
        accept: bool,
    },
    /// The sanctioned person (player or spectator) appeals sanction `sanction` with evidence,
    /// once, within seven days of its notice (003 §6.6).
    Appeal {
        sanction: u32,
        evidence: String,
    },

    // Administrator only (003 §1.5, §3.6, §6.1–6.3): every action carries reasons.
    /// Hold the match (clocks stop).
    AdminHold {
        reasons: String,
    },
    /// Resume a held match: play waits for both players' Ready; scoring goes on.
    AdminResume {
        reasons: String,
    },
    /// Rule per chain and region (003 §3.2–3.3, §3.6, §8.4): issues a new numbered statement
    /// and clears consents; both players are asked to consent to it (003 §4.5).
    AdminRuling {
        chains: Vec<ChainRuling>,
        #[serde(default)]
        regions: Vec<RegionRuling>,
        reasons: String,
    },
    /// Answer an objection by confirming the latest ruling with reasons (a new ruling is
    /// the other answer).
    AdminConfirmRuling {
        reasons: String,
    },
    /// Review required: confirm the statement both players consented to; the result is
    /// final (003 §2.7).
    AdminConfirmStatement {
        statement: u64,
        reasons: String,
    },
    /// Decide an objection to a time loss: `cancel` restores board, turn and both clocks
    /// from the server's records and play resumes after both players' Ready (003 §5.7).
    AdminTimeLossDecision {
        cancel: bool,
        reasons: String,
    },
    /// Propose a corrected result for a referred error; it applies after both players
    /// consent again (003 §4.7).
    AdminProposeCorrection {
        correction: CorrectionProposal,
        reasons: String,
    },
    /// Close a referred error without a change: the original result stays (003 §4.7).
    AdminCloseCorrection {
        reasons: String,
    },
    /// A room whose stored log does not replay: resume from the last event that does
    /// (003 §6.2). Ending it instead is `AdminDecide` after this.
    AdminRepair {
        reasons: String,
    },
    /// End a match by decision (`winner: null` = no winner).
    AdminDecide {
        winner: Option<Colour>,
        reasons: String,
    },
    /// Sanction a player (warning, loss, void) or a spectator (viewing restricted) with
    /// reasons; for deliberate delay `findings` are required (003 §5.6, §6.5, §6.7).
    AdminSanction {
        target: super::conduct::Target,
        penalty: super::conduct::Penalty,
        category: super::conduct::Category,
        reasons: String,
        #[serde(default)]
        findings: Option<String>,
    },
    /// Open one more appeal of `sanction` on new evidence (a second or late one; 003 §6.6).
    AdminOpenAppeal {
        sanction: u32,
        reasons: String,
    },
    /// The final decision on the appeal under review. Lifting a loss or void that ended the
    /// match in play needs the `result` that applies instead.
    AdminDecideAppeal {
        sanction: u32,
        uphold: bool,
        reasons: String,
        #[serde(default)]
        result: Option<engine::GameResult>,
    },
}

/// Serde skips `deny_unknown_fields` for unit variants of a tagged enum: this makes
/// `{"type":"pass","foo":1}` an error like an unknown field of any other command (used as
/// `#[serde(deserialize_with = "no_fields")]` on each unit variant).
pub(crate) fn no_fields<'de, D: serde::Deserializer<'de>>(d: D) -> Result<(), D::Error> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct NoFields {}
    NoFields::deserialize(d).map(|NoFields {}| ())
}

/// Reasons given with rulings and disputes: 1..=2000 characters.
pub const REASONS_LEN: std::ops::RangeInclusive<usize> = 1..=2000;

/// The user name in a record-viewer approval: 1..=40 characters once trimmed (003 §8.1).
pub const APPROVED_NAME_LEN: std::ops::RangeInclusive<usize> = 1..=40;

/// Why a command was refused. Client mistakes carry enough to correct them; `Internal`
/// hides server faults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, strum::EnumDiscriminants, thiserror::Error)]
#[serde(tag = "error", rename_all = "snake_case")]
// Read by hand (`crate::decode`), not by serde's derive: a smaller browser bundle.
#[strum_discriminants(
    name(MatchErrorCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum MatchError {
    #[error("no such room")]
    RoomNotFound,
    #[error("the invitation code is not valid for this room")]
    BadInviteCode,
    #[error("that seat is already taken")]
    SeatTaken,
    #[error("you already hold a seat in this room")]
    AlreadySeated,
    /// The room's seats go to the holders of its invitation links.
    #[error("this room is by invitation: its seats are taken with the invitation links")]
    ByInvitationOnly,
    #[error("only the room's creator may cancel it")]
    NotTheCreator,
    #[error("only the two seated players may do this")]
    NotAPlayer,
    #[error("only an administrator may do this")]
    AdminOnly,
    #[error("not possible while the room is {phase:?}; needs {needed:?}")]
    WrongPhase { phase: RoomPhase, needed: PhaseNeeded },
    #[error("play is suspended: {colour:?}'s connection fault ({cause:?})")]
    Suspended { colour: Colour, cause: FaultCause },
    #[error("already done")]
    AlreadyDone,
    #[error("it is {to_move:?}'s turn")]
    NotYourTurn { to_move: Colour },
    #[error("waiting for {colour:?}'s device to acknowledge move {move_number}")]
    AwaitingAcknowledgement { colour: Colour, move_number: u32 },
    #[error("nothing to acknowledge at move {move_number}")]
    NothingToAcknowledge { move_number: u32 },
    #[error("{at} is off the board; allowed x {x_range}, y {y_range}, z {z_range}")]
    OffBoard { at: Xyz, x_range: String, y_range: String, z_range: String },
    #[error("illegal move at {at}: {}", reason.as_str())]
    Illegal { at: Xyz, reason: engine::IllegalKind },
    #[error("{colour:?}'s time ran out; the game is lost on time (003 §5.4)")]
    TimeExpired { colour: Colour },
    #[error("undo not possible: {why:?}")]
    UndoNotAllowed { why: UndoRefusal },
    #[error("draw offer not possible: {why:?}")]
    DrawOfferNotAllowed { why: DrawRefusal },
    #[error("there is no pending {what:?}")]
    NoPendingRequest { what: PendingKind },
    #[error("cannot mark {at}: {why:?}")]
    BadMark { at: Xyz, why: MarkProblem },
    #[error("the mark at {at} is not yours to withdraw (003 §3.5)")]
    NotYourMark { at: Xyz },
    #[error("statement {given} is not the latest; the latest is {latest} (003 §4.5)")]
    StaleStatement { given: u64, latest: u64 },
    #[error("{field}: must be {min}–{max} characters, got {got}")]
    InvalidInput { field: String, min: usize, max: usize, got: usize },
    /// A record-viewer approval names a user nobody signed up as (003 §8.1).
    #[error("username: no account is named {username:?}")]
    UnknownUser { username: String },
    #[error(
        "the stored record is open to the players, the administrator and viewers both players approved (003 §8.1)"
    )]
    RecordNotAllowed,
    /// The match's stored record was deleted under its agreed retention (003 §9.7, §10.1).
    #[error("this match's record was deleted under its retention")]
    RecordDeleted { at_ms: i64 },
    #[error("ruling on {at}: {why:?}")]
    BadRuling { at: Xyz, why: RulingProblem },
    #[error("objection not possible: {why:?}")]
    ObjectionNotAllowed { why: ObjectionRefusal },
    #[error(
        "the stored record of this room does not replay from event {seq}; an administrator repairs it first (003 §6.2)"
    )]
    RecordDamaged { seq: i64 },
    /// 003 §6.5: this account's viewing of this match is restricted by sanction `sanction`.
    #[error("your viewing of this match is restricted (sanction {sanction}); other matches are open to you")]
    ViewingRestricted { sanction: u32 },
    #[error("this room has no sanction {number}")]
    NoSanction { number: u32 },
    #[error("only the sanctioned person may appeal sanction {number}")]
    NotYourSanction { number: u32 },
    #[error("appeal not possible: {why:?}")]
    AppealNotAllowed { why: super::conduct::AppealRefusal },
    #[error("sanction not possible: {why:?}")]
    BadSanction { why: super::conduct::SanctionProblem },
    /// Another server instance owns this room now; asked again, the request reaches it.
    #[error("this room is served by another server instance; try again in {retry_after_s} s")]
    ServedElsewhere { retry_after_s: u32 },
    /// The database did not answer (restarting, cut off): the command was not stored; asked
    /// again, it is decided afresh. The same answer as the app's `AppError::DatabaseUnavailable`.
    #[error("the database cannot be reached just now; try again in {retry_after_s} s")]
    DatabaseUnavailable { retry_after_s: u32 },
    #[error("internal error")]
    Internal,
}

/// Why a ruling is refused (003 §3.2–3.3, §8.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, strum::EnumDiscriminants, strum::IntoStaticStr)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "code", rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
// Read by hand (`crate::decode`), not by serde's derive: a smaller browser bundle.
#[strum_discriminants(
    name(RulingProblemCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum RulingProblem {
    /// A chain ruling names an empty point.
    NoStone,
    /// A region ruling names a stone.
    NotEmpty,
    /// Alive needs two independent safe spaces from the chain's candidates, or seki.
    NeedsTwoSafeSpaces { cited: u32, candidates: u32 },
    /// A cited point is not in any of the chain's life-space candidates.
    NotALifeSpace { space: Xyz },
    /// The same chain, region or space is named twice.
    Repeated,
}

/// Why an objection is refused (003 §3.6, §5.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::EnumDiscriminants, strum::IntoStaticStr)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "code", rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
// Read by hand (`crate::decode`), not by serde's derive: a smaller browser bundle.
#[strum_discriminants(
    name(ObjectionRefusalCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum ObjectionRefusal {
    /// There is no ruling to object to.
    NoRuling,
    /// Once per ruling (or time loss).
    AlreadyObjected,
    /// The game did not end on time.
    NotATimeLoss,
    /// Within seven days of the end (003 §5.7).
    TooLate { limit_days: u32 },
}

/// What a refused command needed the room to be doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum PhaseNeeded {
    Open,
    BothSeated,
    WaitingReady,
    Started,
    StartedUnfinished,
    StartedNotHeld,
    Playing,
    Scoring,
    ScoringOrHeldInScoring,
    /// Resuming play from scoring exists in Classic only (000 §5.5).
    ClassicScoring,
    Held,
    AwaitingReview,
    Finished,
    /// Play or waiting for Ready (a call to the administrator, 003 §1.4).
    InPlay,
}

/// Why an undo request is refused (003 §5.1–5.3, §4.4; 000 §8.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::EnumDiscriminants, strum::IntoStaticStr)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "code", rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
// Read by hand (`crate::decode`), not by serde's derive: a smaller browser bundle.
#[strum_discriminants(
    name(UndoRefusalCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum UndoRefusal {
    InScoring,
    OffInThisMatch,
    AllUsed { allowance: u32 },
    AlreadyPending,
    NoMove,
    PassCannotBeUndone,
    AlreadyRefused,
}

/// Why a draw offer is refused (000 §8.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::EnumDiscriminants, strum::IntoStaticStr)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "code", rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
// Read by hand (`crate::decode`), not by serde's derive: a smaller browser bundle.
#[strum_discriminants(
    name(DrawRefusalCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum DrawRefusal {
    OffInThisMatch,
    OfferPending { by: Colour },
    TooSoon { needed: u32, so_far: u32 },
}

/// The request a command answers or withdraws, when there is none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum PendingKind {
    UndoFromOpponent,
    OwnUndo,
    OwnScoringRequest,
    DrawFromOpponent,
    OwnDrawOffer,
    OwnConsent,
    /// An administrator answers an objection that is open.
    RulingObjection,
    TimeLossObjection,
    /// A referred error (003 §4.7) / a proposed correction to answer.
    CorrectionRequest,
    CorrectionProposal,
    /// Review required: consents waiting for confirmation.
    Review,
    /// A damaged record to repair (003 §6.2).
    DamagedRecord,
}

/// Why a scoring mark cannot be made or withdrawn (003 §3.4–3.5; 000 §5.5–5.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::EnumDiscriminants, strum::IntoStaticStr)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "code", rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
// Read by hand (`crate::decode`), not by serde's derive: a smaller browser bundle.
#[strum_discriminants(
    name(MarkProblemCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum MarkProblem {
    /// Dead and unresolved marks name a chain.
    NoStone,
    /// Seki marks name an empty region.
    NotEmpty,
    /// Space: another mark is there; its maker (`None`: a ruling) must withdraw it first.
    MarkedOtherwise {
        kind: MarkKind,
        by: Option<Colour>,
    },
    NothingMarked,
}
