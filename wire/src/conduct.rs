//! Conduct (003 §6.4–6.7): reports, sanctions and appeals, as players, spectators and the
//! administrator see them. Sanctions live in the room's own log (`Event::Sanctioned` and
//! the appeal events), so they are in its record, replay with it and are folded into its
//! state; reports are kept beside the rooms (`data::conduct`): who reported is for the
//! administrators only.

use serde::{Deserialize, Serialize};

use super::terms::Colour;

/// Seven days from the notice of a sanction to appeal it (003 §6.6).
pub const APPEAL_DAYS: u32 = 7;
pub const APPEAL_WINDOW_MS: i64 = APPEAL_DAYS as i64 * 24 * 3600 * 1000;

/// What a report or sanction is about (003 §6.4–6.5).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::EnumIter,
)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Category {
    /// Outside assistance or real-time advice beyond the agreed scope (003 §6.4).
    OutsideAssistance,
    /// Deliberate communication delay (003 §5.6: delay alone never proves intent).
    DeliberateDelay,
    AbusiveBehaviour,
    Other,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// The measure an administrator takes (003 §6.5, §6.7).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::EnumIter,
)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Penalty {
    /// A player is warned; the result stands.
    Warning,
    /// A player loses the match.
    Loss,
    /// The match is void: it counts for neither player.
    Void,
    /// A spectator may no longer watch this match (other matches are not affected).
    ViewingRestricted,
}

impl Penalty {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Whether this measure is for a player (otherwise for a spectator).
    pub fn for_player(self) -> bool {
        !matches!(self, Penalty::ViewingRestricted)
    }

    /// Whether it sets the match's result.
    pub fn sets_result(self) -> bool {
        matches!(self, Penalty::Loss | Penalty::Void)
    }
}

/// Who a sanction is for, as the room records it.
// Read by `tag_first::tag_first!` below, not serde's derive (it buffers internally tagged enums).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, strum::EnumDiscriminants)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[strum_discriminants(
    name(SubjectCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum Subject {
    Player { colour: Colour },
    Spectator { user_id: i64, username: String },
}

tag_first::tag_first!(deny_unknown_fields Subject, SubjectCode, "kind"; Player { colour }, Spectator { user_id, username });

/// Who an administrator names for a sanction (a spectator by account name; the server
/// finds the account).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Target {
    Player { colour: Colour },
    Spectator { username: String },
}

/// Where a sanction stands (003 §6.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum SanctionStatus {
    InForce,
    /// Appealed: suspended until the administrator decides.
    UnderReview,
    /// The appeal was decided and the sanction stands.
    Upheld,
    /// The appeal was decided and the sanction is lifted.
    Lifted,
}

impl SanctionStatus {
    /// Whether the sanction applies now (under review it is suspended).
    pub fn applies(self) -> bool {
        matches!(self, SanctionStatus::InForce | SanctionStatus::Upheld)
    }
}

/// An appeal as filed: the evidence, and the administrator's exception when it was a
/// second or late one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AppealRecord {
    pub evidence: String,
    pub at_ms: i64,
    /// The decision on it: upheld or not, with reasons.
    pub upheld: Option<bool>,
    pub reasons: Option<String>,
    pub decided_ms: Option<i64>,
}

/// An exception the administrator opened for one more appeal on new evidence (003 §6.6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AppealException {
    pub reasons: String,
    pub at_ms: i64,
}

/// A sanction in a room, with its appeals, as the room shows it to everyone who watches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SanctionRecord {
    /// 1, 2, … in this room.
    pub number: u32,
    pub subject: Subject,
    /// The name of the sanctioned player or spectator when it was imposed.
    pub name: String,
    pub penalty: Penalty,
    pub category: Category,
    pub reasons: String,
    /// The administrator's stated findings (required for deliberate delay, 003 §5.6).
    pub findings: Option<String>,
    /// The notice: the seven days of 003 §6.6 count from here.
    pub at_ms: i64,
    /// The result before a loss or void replaced it (`None`: the match was in play).
    pub result_before: Option<engine::GameResult>,
    pub status: SanctionStatus,
    pub appeals: Vec<AppealRecord>,
    pub exceptions: Vec<AppealException>,
}

impl SanctionRecord {
    /// The last moment an appeal is accepted without an exception.
    pub fn appeal_until_ms(&self) -> i64 {
        self.at_ms + APPEAL_WINDOW_MS
    }

    /// Whether the sanctioned person may appeal at `now`: not while one is under review;
    /// the first within seven days; another (or a late one) only on an exception.
    pub fn appeal_refusal(&self, now: i64) -> Option<AppealRefusal> {
        if self.status == SanctionStatus::UnderReview {
            return Some(AppealRefusal::UnderReview);
        }
        if self.appeals.len() > self.exceptions.len() {
            return Some(AppealRefusal::AlreadyAppealed);
        }
        // An exception opens one more appeal whatever the date.
        if !self.exceptions.is_empty() || now <= self.appeal_until_ms() {
            return None;
        }
        Some(AppealRefusal::TooLate { limit_days: APPEAL_DAYS, until_ms: self.appeal_until_ms() })
    }
}

/// Why an appeal is refused (003 §6.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::EnumDiscriminants, strum::IntoStaticStr)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "code", rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
// Read by hand (`crate::decode`), not by serde's derive: a smaller browser bundle.
#[strum_discriminants(
    name(AppealRefusalCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum AppealRefusal {
    /// Once per sanction, unless the administrator opens an exception on new evidence.
    AlreadyAppealed,
    /// Within seven days of the notice.
    TooLate { limit_days: u32, until_ms: i64 },
    /// The appeal filed is still being reviewed.
    UnderReview,
    /// There is no appeal under review to decide.
    NothingToDecide,
}

/// Why a sanction cannot be imposed as asked (003 §5.6, §6.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::EnumDiscriminants, strum::IntoStaticStr)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "code", rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
// Read by hand (`crate::decode`), not by serde's derive: a smaller browser bundle.
#[strum_discriminants(
    name(SanctionProblemCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter, strum::IntoStaticStr),
    strum(serialize_all = "snake_case")
)]
pub enum SanctionProblem {
    /// A warning, loss or void is for a player; a viewing restriction for a spectator.
    PenaltyNotForTarget,
    /// The named account plays in this match: it is not a spectator.
    IsAPlayer,
    /// The seat holds no person (the computer or nobody).
    NoPerson,
    /// Delay alone never proves intent: a sanction for delay needs stated findings.
    FindingsRequired,
    /// A loss or void needs a started match.
    NotStarted,
    /// Lifting a loss or void that ended the match in play needs the result that applies.
    ResultRequired,
    /// This spectator's viewing is already restricted.
    AlreadyRestricted,
}

/// What is reported (003 §6.4): a player, a spectator of the match, or the match itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ReportAbout {
    Match,
    Player { colour: Colour },
    Spectator { username: String },
}

/// A report as filed (the room and the event number it refers to).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct NewReport {
    pub room_id: i64,
    pub about: ReportAbout,
    pub category: Category,
    pub description: String,
    /// The event the report refers to (the room's version when the reporter looked).
    pub seq: i64,
}

/// Why a report is refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, strum::EnumDiscriminants, strum::IntoStaticStr)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "code", rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
// Read by hand (`crate::decode`), not by serde's derive: a smaller browser bundle.
#[strum_discriminants(
    name(ReportRefusalCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum ReportRefusal {
    /// Only the match's players and signed-in spectators who watched it report.
    NotAViewer,
    /// Nobody reports themselves.
    Yourself,
    /// The named account did not watch this match (or plays in it).
    NotASpectator { username: String },
    /// The seat holds no person.
    NoPerson,
    /// The event number is not in this room's log.
    NoSuchEvent { max: i64 },
}

/// One reporter's report in a case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportLine {
    pub reporter: String,
    pub category: Category,
    pub description: String,
    pub seq: i64,
    pub at_ms: i64,
}

/// How a case ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::EnumString)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum CaseOutcome {
    Dismissed,
    /// A sanction was imposed (its number in the room).
    Sanctioned,
}

/// Reports about one person (or the match) in one match, merged into one queue item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportCase {
    pub id: i64,
    pub room_id: i64,
    pub room_name: String,
    /// `None`: the match itself.
    pub subject: Option<String>,
    /// The subject's colour when they play in the match.
    pub subject_colour: Option<Colour>,
    pub opened_ms: i64,
    pub reports: Vec<ReportLine>,
    pub outcome: Option<CaseOutcome>,
    pub sanction: Option<u32>,
    pub reasons: Option<String>,
    pub decided_ms: Option<i64>,
}

/// A sanction on someone's history (their own, or an administrator looking).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SanctionEntry {
    pub room_id: i64,
    pub room_name: String,
    pub sanction: SanctionRecord,
    /// Whether its subject may appeal now (and if not, why).
    pub appeal_refusal: Option<AppealRefusal>,
}
