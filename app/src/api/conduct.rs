//! Server functions for conduct (003 §6.4–6.7): reports by players and signed-in
//! spectators, the administrators' report cases and sanctions, each person's sanction
//! history. Appeals and the administrator's answers to them are room commands
//! (`match_command`: `appeal`, `admin_open_appeal`, `admin_decide_appeal`).

use leptos::prelude::*;

use crate::AppError;

use wire::conduct::{Category, NewReport, Penalty, ReportCase, SanctionEntry, SanctionRecord, Target};

#[cfg(feature = "ssr")]
use super::{account::admin, play::service, play::signed_in};

/// Reports a player, a spectator or the match (signed in; a player of the room or a
/// spectator who watched it). Answers the report case it joined.
#[server(endpoint = "file_report", input = server_fn::codec::Json)]
pub async fn file_report(report: NewReport) -> Result<i64, AppError> {
    service()?.file_report(&signed_in().await?, &report).await
}

/// The signed-in person's sanctions, newest first, with whether each may be appealed now.
#[server(endpoint = "my_sanctions")]
pub async fn my_sanctions() -> Result<Vec<SanctionEntry>, AppError> {
    let me = signed_in().await?;
    service()?.sanctions_of(me.user_id).await
}

/// An account's sanctions (administrators only).
#[server(endpoint = "admin_account_sanctions")]
pub async fn admin_account_sanctions(user_id: i64) -> Result<Vec<SanctionEntry>, AppError> {
    admin().await?;
    service()?.sanctions_of(user_id).await
}

/// Open report cases, then the latest decided (administrators only).
#[server(endpoint = "admin_report_cases")]
pub async fn admin_report_cases() -> Result<Vec<ReportCase>, AppError> {
    service()?.report_cases(&admin().await?).await
}

/// Closes a report case without a sanction, with reasons (administrators only).
#[server(endpoint = "admin_dismiss_report")]
pub async fn admin_dismiss_report(case: i64, reasons: String) -> Result<(), AppError> {
    service()?.dismiss_report(&admin().await?, case, &reasons).await
}

/// Imposes a sanction in a room with reasons (and findings for delay), closing the report
/// case it answers if one is given (administrators only).
#[server(endpoint = "admin_sanction", input = server_fn::codec::Json)]
pub async fn admin_sanction(
    room_id: i64,
    target: Target,
    penalty: Penalty,
    category: Category,
    reasons: String,
    findings: Option<String>,
    case: Option<i64>,
) -> Result<SanctionRecord, AppError> {
    let req = crate::matches::service::reports::SanctionRequest {
        room_id,
        target,
        penalty,
        category,
        reasons,
        findings,
        case,
    };
    service()?.impose_sanction(&admin().await?, req).await
}
