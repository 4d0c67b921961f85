//! Governance: the common rules as versioned data with precedent (003 §1.3–1.5), the site's
//! announced defaults and record retention (003 §9.7, §10.1–10.2, §12.7) — the wire types.
//! The texts the program ships, their storage, the service and the retention job are the
//! app's (`app::governance`, `app::data::governance`).
//!
//! A precedent makes the next version; a room pins the version in force when it is created,
//! and its special rules must stay within that version's `Permits`.

use serde::{Deserialize, Serialize};

use crate::referee::QueueKind;
pub use crate::settings::{Permit, Permits};

/// One clause of the common rules, as the version states it, with the precedents added to
/// it (003 §1.5), oldest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Clause {
    /// The citation, `003 §1.4` or `000 §5.3`.
    pub id: String,
    pub title: String,
    pub text: String,
    #[serde(default)]
    pub precedents: Vec<Precedent>,
}

/// A precedent an administrator added to the common rules (003 §1.5): under which clause,
/// what it says, why, and the ruling it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Precedent {
    pub clause: String,
    pub text: String,
    pub reasons: String,
    pub ruling: Option<RulingRef>,
    /// The version it made.
    pub version: u32,
    pub at_ms: i64,
    pub by: String,
}

/// The ruling a precedent came from: an administrator's event in a room's log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RulingRef {
    pub room_id: i64,
    /// The event number of the ruling in that room.
    pub seq: i64,
}

/// A version of the common rules in full.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RulesVersion {
    pub version: u32,
    pub created_ms: i64,
    /// The administrator who added its precedent (`None`: the version the program ships).
    pub created_by: Option<String>,
    pub clauses: Vec<Clause>,
    pub permits: Permits,
    /// The precedent that made this version from the one before.
    pub precedent: Option<Precedent>,
}

/// A version as listed: number, date and the precedent that made it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VersionEntry {
    pub version: u32,
    pub created_ms: i64,
    pub precedent: Option<Precedent>,
}

/// The common rules page: one version in full and the list of all of them, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CommonRules {
    /// The version in force for rooms created now.
    pub current: u32,
    pub shown: RulesVersion,
    pub versions: Vec<VersionEntry>,
}

/// A new precedent as an administrator enters it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct NewPrecedent {
    /// A clause of the current version, as cited: `003 §3.6`.
    pub clause: String,
    pub text: String,
    pub reasons: String,
    pub ruling: Option<RulingRef>,
}

/// Record retention when nothing else was agreed: kept for ever (0), until an
/// administrator announces otherwise.
pub const PROGRAM_RETENTION_DAYS: u32 = 0;
/// The scoring-wait alert when nothing else was announced (003 §10.1 leaves it blank).
pub const PROGRAM_SCORING_WAIT_MIN: u32 = 30;
/// The scoring-wait alert's range in minutes (003 §10.1).
pub const SCORING_WAIT_MIN_MAX: u32 = 10_080;

/// The site's defaults for new rooms, announced before play (003 §9.7, §10.1): each room
/// may agree otherwise before play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SiteDefaults {
    /// 0–36,500 days after the end; 0 = kept for ever.
    pub retention_days: u32,
    /// 0–10,080 minutes (Space: the scoring-wait alert, 003 §10.2).
    pub scoring_wait_min: u32,
    /// The configuration/notice date (`None`: the program's own defaults, never changed).
    pub set_ms: Option<i64>,
    pub set_by: Option<String>,
    pub reasons: Option<String>,
}

impl SiteDefaults {
    pub fn program() -> SiteDefaults {
        SiteDefaults {
            retention_days: PROGRAM_RETENTION_DAYS,
            scoring_wait_min: PROGRAM_SCORING_WAIT_MIN,
            set_ms: None,
            set_by: None,
            reasons: None,
        }
    }
}

/// What a new room is created under: the version in force, its permits, the site's defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Agreements {
    pub version: u32,
    pub permits: Permits,
    pub defaults: SiteDefaults,
}

/// Why a finished room's record is kept past its retention (003 §9.7: dispute records are
/// kept until resolved).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RetentionHold {
    /// Something waits for an administrator: a dispute, review, objection, correction or
    /// appeal (the room's queue item).
    OpenItem { item: QueueKind },
    /// The result is under review (a correction awaiting consent, an objection).
    UnderReview,
    /// A report about this match is not decided.
    OpenReport,
    /// A sanction here may still be appealed (003 §6.6: seven days).
    AppealWindow { until_ms: i64 },
    /// The log does not replay (a damaged record waits for repair).
    Damaged,
}

/// A room a retention run deleted (or, in a dry run, would delete).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RetentionItem {
    pub room_id: i64,
    pub name: String,
    pub ended_ms: i64,
    pub retention_days: u32,
    /// Whether its game went to the learning archive first (003 §12.7).
    pub archived: bool,
    /// Why it is kept (empty: deleted).
    pub holds: Vec<RetentionHold>,
}

/// Who started a retention run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::EnumString)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum RunTrigger {
    /// The server's start.
    Start,
    /// The daily schedule.
    Daily,
    /// An administrator, from the dashboard.
    Administrator,
    /// A dry run: nothing deleted (the dashboard's report).
    DryRun,
}

/// What one retention run did (or a dry run would do).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RetentionReport {
    pub at_ms: i64,
    pub trigger: RunTrigger,
    /// Past their retention and deleted (a dry run: would be).
    pub deleted: Vec<RetentionItem>,
    /// Past their retention but kept, each with why.
    pub kept: Vec<RetentionItem>,
}

/// The dashboard's retention section: the defaults, a dry run now and the latest runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RetentionStatus {
    pub defaults: SiteDefaults,
    pub dry_run: RetentionReport,
    pub runs: Vec<RetentionReport>,
}
