//! The administrators' log (003 §1.5: every ruling with reasons, all of it recorded): one
//! append-only list of what administrators did, to accounts and in rooms, with actor,
//! time, target, reasons and what changed. Room actions are logged in the same
//! transaction as their events (`Event::audited`), account actions with their change.
//! Storage: `app::data::audit`.

use serde::{Deserialize, Serialize};

/// What an administrator did (`audit_log.action`).
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
pub enum AuditAction {
    // Accounts.
    RoleChanged,
    AccountDisabled,
    AccountEnabled,
    ResetLinkIssued,
    // Rooms (003 §1.5, §2.7, §3.6, §4.7, §5.7, §6.1–6.3).
    RoomHeld,
    RoomResumed,
    Ruling,
    RulingConfirmed,
    StatementConfirmed,
    TimeLossDecided,
    CorrectionReferred,
    CorrectionProposed,
    CorrectionClosed,
    RecordRepaired,
    Decided,
    // Conduct (003 §6.4–6.7).
    Sanctioned,
    AppealExceptionOpened,
    AppealDecided,
    /// A report case closed without a sanction (reports are the administrators' business).
    ReportDismissed,
    // The desk and learning (003 §1.6, §12.4–12.6).
    QueueItemClaimed,
    ModelImported,
    /// A training run started: its settings, the games it uses and the rooms it paused.
    TrainingStarted,
    ModelTrained,
    ProgramMatchStarted,
    // Governance (003 §1.5, §9.7, §10.1).
    PrecedentAdded,
    SiteDefaultsChanged,
    RetentionRun,
}

impl AuditAction {
    /// Recorded in a room's own log too (a room event), so part of its record for those who
    /// may read it; the desk's claims are the administrators' business only.
    pub fn in_room_record(self) -> bool {
        !matches!(
            self,
            AuditAction::QueueItemClaimed
                | AuditAction::ReportDismissed
                | AuditAction::PrecedentAdded
                | AuditAction::SiteDefaultsChanged
                | AuditAction::RetentionRun
                | AuditAction::TrainingStarted
        )
    }
}

/// One entry of the log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuditEntry {
    pub id: i64,
    pub at_ms: i64,
    pub actor: String,
    pub action: AuditAction,
    pub target_user: Option<String>,
    pub room_id: Option<i64>,
    pub reasons: String,
    /// What it was before, where something changed (an account's role, say).
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub before: Option<serde_json::Value>,
    /// What it is after: the new value, or the room event that recorded the action.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub after: Option<serde_json::Value>,
}

/// Which entries to list; every field narrows, none given lists all.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
pub struct AuditFilter {
    /// The administrator's user name (as typed: compared like sign-in names).
    pub actor: Option<String>,
    pub room: Option<i64>,
    pub action: Option<AuditAction>,
    /// From this server time (ms since the Unix epoch), inclusive.
    pub from_ms: Option<i64>,
    /// Up to this server time, exclusive.
    pub to_ms: Option<i64>,
}

/// The most entries one listing returns (newest first); exports take them all.
pub const PAGE_ROWS: i64 = 200;
