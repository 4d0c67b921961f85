//! The referee's side of a match (003 §1.4–1.6, §2.7, §3.2–3.6, §4.4–4.7, §5.7, §6.2,
//! §8.4–8.5): rulings per chain with cited safe spaces, the players' opinions and
//! objections, review before finalization, time-loss objections, corrections after the end,
//! and the queue of what waits for an administrator. Shared with the browser: the room view
//! carries these records so that both players see every ruling's reasons.

use serde::{Deserialize, Serialize};

use crate::ByColour;

use super::terms::{Colour, Mark, ScoreSummary, Xyz};

/// When the administrator reviews a counted result before it is final (003 §2.7).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ReviewPolicy {
    /// Two consents to the latest statement wait for the administrator's confirmation
    /// (003 §2.7: the Space default).
    Required,
    /// Two consents make the result final; the administrator rules only on a dispute (the
    /// Classic behaviour and default; also rooms stored before the setting existed).
    #[default]
    WhenDisputed,
}

/// An administrator's verdict on one chain (003 §3.2–3.3, §3.6, §8.4).
// Read by `tag_first::tag_first!` below, not serde's derive (it buffers internally tagged enums).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, strum::EnumDiscriminants)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[strum_discriminants(
    name(ChainVerdictCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum ChainVerdict {
    /// Alive: only by citing at least two independent safe spaces, each one of the chain's
    /// life-space candidates named by any of its points (003 §3.2, §8.4).
    Alive { spaces: Vec<Xyz> },
    /// Alive by the seki exception, without two safe spaces (003 §3.3).
    Seki,
    /// Dead: removed and counted as captured (003 §3.5, §4.1).
    Dead,
    /// Kept on the board unresolved, by agreement (003 §3.7).
    Unresolved,
}

tag_first::tag_first!(deny_unknown_fields ChainVerdict, ChainVerdictCode, "kind"; Alive { spaces }, Seki, Dead, Unresolved);

/// A ruling on the chain that has a stone at `at`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ChainRuling {
    pub at: Xyz,
    pub verdict: ChainVerdict,
}

/// What an empty region is ruled to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum RegionVerdict {
    /// Not safe from invasion: nobody's territory, even touching one colour only (003 §4.2).
    Neutral,
    /// Shared seki space (003 §3.3; 000 §5.6).
    Seki,
}

/// A ruling on the empty region that contains `at`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RegionRuling {
    pub at: Xyz,
    pub verdict: RegionVerdict,
}

/// A player's view of a chain, stated with reasons before or during a dispute (003 §3.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ChainOpinion {
    Alive,
    Dead,
    Seki,
}

/// An opinion in force: one per player and chain (a new one replaces the old).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Opinion {
    pub colour: Colour,
    /// The chain's first stone (smallest point index): one key per chain.
    pub chain: Xyz,
    pub opinion: ChainOpinion,
    pub reasons: String,
    pub at_ms: i64,
}

/// A ruling as recorded and shown to both players (003 §3.6, §8.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RulingRecord {
    /// 1, 2, … in the order the rulings were made in this room.
    pub number: u32,
    pub chains: Vec<ChainRuling>,
    pub regions: Vec<RegionRuling>,
    pub reasons: String,
    pub at_ms: i64,
    /// The statement the ruling issued.
    pub statement: u64,
    /// A later confirmation of this ruling after an objection, with its reasons.
    pub confirmed: Option<String>,
}

/// An objection to a ruling or to a time loss, with reasons (003 §3.6, §5.7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Objection {
    pub colour: Colour,
    pub reasons: String,
    pub at_ms: i64,
}

/// The administrator's decision on an objection to a time loss (003 §5.7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TimeLossReview {
    pub objection: Objection,
    /// `None` while under review; `Some(true)`: the loss was cancelled and play restored.
    pub cancelled: Option<bool>,
    pub reasons: Option<String>,
}

/// What a correction proposes (003 §4.7): corrected marks (a new statement is counted from
/// them) or a corrected result where the error was in the calculation or the record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum CorrectionProposal {
    Marks { dead: Vec<Xyz>, seki: Vec<Xyz>, unresolved: Vec<Xyz>, neutral: Vec<Xyz> },
    Result { result: engine::GameResult },
}

/// A proposed correction as both players answer it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProposedCorrection {
    pub result: engine::GameResult,
    /// With corrected marks: the corrected statement's number, marks and score.
    pub statement: Option<u64>,
    pub marks: Option<Vec<Mark>>,
    pub score: Option<ScoreSummary>,
    pub reasons: String,
    pub at_ms: i64,
    /// Each side's answer (Black, White): the correction applies only after two yeses.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Option<bool>>))]
    pub answers: ByColour<Option<bool>>,
}

/// A referral of a calculation or record error after the end (003 §4.7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CorrectionCase {
    /// The player who referred it; `None`: an administrator.
    pub by: Option<Colour>,
    pub reasons: String,
    pub at_ms: i64,
    pub proposal: Option<ProposedCorrection>,
    /// Refusals so far, each with who refused (the item went back to the queue).
    pub refused_by: Vec<Colour>,
}

/// One correction's outcome, kept with the original result (003 §4.7, §8.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CorrectionOutcome {
    pub original: engine::GameResult,
    /// `None`: closed without a change (the original result stays).
    pub corrected: Option<engine::GameResult>,
    pub reasons: String,
    pub at_ms: i64,
}

/// Everything refereed in a room, as the room view shows it to everyone who watches.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RefereeRecord {
    pub opinions: Vec<Opinion>,
    pub rulings: Vec<RulingRecord>,
    /// An objection to the latest ruling, waiting for review.
    pub ruling_objection: Option<Objection>,
    /// The number of the ruling each side (Black, White) objected to: once per ruling.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Option<u32>>))]
    pub objected: ByColour<Option<u32>>,
    pub time_loss: Option<TimeLossReview>,
    pub correction: Option<CorrectionCase>,
    pub corrections: Vec<CorrectionOutcome>,
    /// When the game ended (the seven days of 003 §5.7 count from here).
    pub ended_ms: Option<i64>,
    /// After both consents with review required: the statement awaiting confirmation.
    pub awaiting_review: Option<ReviewWait>,
    /// Sanctions in this match, with their appeals (003 §6.5–6.7).
    #[serde(default)]
    pub sanctions: Vec<super::conduct::SanctionRecord>,
}

/// A statement both consented to, waiting for the administrator (003 §2.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReviewWait {
    pub statement: u64,
    pub since_ms: i64,
}

impl RefereeRecord {
    /// The result is not settled while an objection or correction is open (003 §4.7, §5.7).
    pub fn under_review(&self) -> bool {
        self.time_loss.as_ref().is_some_and(|t| t.cancelled.is_none())
            || self.correction.is_some()
            || self.appeal_on_result()
    }

    /// An appeal under review of a sanction that set the result (003 §6.6).
    pub fn appeal_on_result(&self) -> bool {
        self.sanctions
            .iter()
            .any(|s| s.status == super::conduct::SanctionStatus::UnderReview && s.penalty.sets_result())
    }
}

/// What an item in the administrator's queue waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::EnumString)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum QueueKind {
    /// Players disagree on life and death (003 §3.6).
    ScoringDispute,
    /// A player's connection failed and the wait ran out (003 §5.6, §6.1).
    ConnectionHold,
    /// Both players' Ready missing five minutes after the notice (003 §1.6, §6.3).
    ReadinessTimeout,
    /// A player called the administrator during play (003 §1.4).
    PlayerCall,
    /// The announced scoring wait passed (003 §10.2).
    ScoringWait,
    /// A player objects to a loss on time (003 §5.7).
    TimeLossObjection,
    /// A calculation or record error referred after the end (003 §4.7).
    CorrectionRequest,
    /// A player objects to a ruling (003 §3.6).
    RulingObjection,
    /// The stored log could not be replayed (003 §6.2).
    DamagedRecord,
    /// Both players consented; the administrator reviews before it is final (003 §2.7).
    AwaitingReview,
    /// Held by an administrator, waiting for their resumption.
    AdministratorHold,
    /// A sanctioned person appealed (003 §6.6).
    Appeal,
}

impl QueueKind {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// One thing waiting in a room, as the room's state says (the queue is derived from the
/// rooms; only claims are kept beside it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoomItem {
    pub kind: QueueKind,
    pub since_ms: i64,
}

/// An item of the administrator's queue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QueueEntry {
    pub room_id: i64,
    pub room_name: String,
    pub kind: QueueKind,
    pub since_ms: i64,
    /// The administrator handling it, if one claimed it.
    pub claimed_by: Option<String>,
    pub claimed_at_ms: Option<i64>,
}

/// What a notification tells its reader (the sentence is the catalogue's `notice.<kind>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::EnumString)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum NoticeKind {
    /// A ruling in your game (003 §3.6).
    Ruling,
    /// A decision in your game: a ruling confirmed, a statement confirmed, a time loss
    /// decided, a correction applied or closed, a match decided, a record repaired.
    Decision,
    /// Your opponent objected to a ruling.
    Objection,
    /// A correction awaits your renewed consent (003 §4.7).
    CorrectionAwaitsConsent,
    /// The administrator resumed your game: press Ready (003 §1.6, §6.3).
    ResumeNotice,
    /// An administrator took up your game's item (`detail`: their name).
    ItemClaimed,
    /// For administrators: a new item in the queue (`detail`: its kind).
    NewQueueItem,
    /// You were sanctioned in this match, with reasons; you may appeal (003 §6.6).
    Sanctioned,
    /// The administrator opened one more appeal of your sanction.
    AppealOpened,
    /// Your appeal was received: the sanction is suspended while it is reviewed.
    AppealReceived,
    /// The decision on your appeal.
    AppealDecided,
    /// The report you filed was decided.
    ReportDecided,
}

/// One notification as its reader sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Notice {
    pub id: i64,
    pub room_id: Option<i64>,
    pub room_name: Option<String>,
    pub kind: NoticeKind,
    pub detail: Option<String>,
    pub at_ms: i64,
    pub read: bool,
}

/// One life-space candidate of a chain, as the referee's desk lists it (003 §3.2, §8.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SpaceDetail {
    pub points: Vec<Xyz>,
    pub count: u32,
}

/// A chain as the referee's desk shows it: every coordinate, how many of its stones lie on
/// the box's surface and inside it, its liberties and its life-space candidates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChainDetail {
    /// The chain's key: its first stone.
    pub at: Xyz,
    pub colour: Colour,
    pub stones: Vec<Xyz>,
    pub count: u32,
    pub surface_stones: u32,
    pub interior_stones: u32,
    pub liberties: u32,
    pub life_spaces: Vec<SpaceDetail>,
    /// The mark in force on it, if any.
    pub mark: Option<super::terms::MarkKind>,
}

/// One stored event on the server's timeline of a room (003 §5.6–5.7, §6.1): when it was
/// received, who caused it, and both clocks right after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TimelineEntry {
    pub seq: i64,
    pub at_ms: i64,
    pub actor: Option<i64>,
    /// The event's type (`move_played`, `move_acknowledged`, `connection_lost`, …).
    pub kind: String,
    pub move_number: u32,
    /// Main time left for Black and White after the event.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<i64>))]
    pub clocks_ms: ByColour<i64>,
    pub running: Option<Colour>,
}
