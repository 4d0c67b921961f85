//! Record retention (003 §9.7, §10.1, §12.7): a finished room's stored record is deleted
//! once its agreed retention has passed since the end — never while anything about it is
//! open (a dispute, review, objection, correction, report, appeal or appeal window). A game
//! training could use goes to the learning archive first, which retention never touches.
//! Runs at start and daily; every run is recorded, and a dry run is the dashboard's report.

use super::{RetentionHold, RetentionItem, RetentionReport, RetentionStatus, RunTrigger};
use crate::{matches::service::MatchService, AppError};
use room::MatchError;
use wire::commands::Requester;

/// How often the scheduled run comes.
pub const EVERY_MS: i64 = 24 * 3600 * 1000;
/// Runs listed on the dashboard.
const RUNS_SHOWN: i64 = 10;

/// What one read of a due room's log decided.
struct Judgement {
    holds: Vec<RetentionHold>,
    last_seq: i64,
    archive: bool,
}

impl MatchService {
    /// Judges room `id` (finished, past its retention) from one read of its log: why it
    /// must be kept at `now` (empty: it may go), the last event number seen, and whether its
    /// game goes to the learning archive.
    async fn retention_judgement(&self, room_id: i64, now: i64) -> Result<Judgement, AppError> {
        let mut j = Judgement { holds: Vec::new(), last_seq: 0, archive: false };
        if self.db().has_open_report(room_id).await? {
            j.holds.push(RetentionHold::OpenReport);
        }
        let Some(log) = self.db().load_log_checked(room_id).await? else { return Ok(j) };
        j.last_seq = log.last_seq;
        let state = match log.damage {
            None => room::MatchState::replay(&log.events, log.secrets.clone()).ok(),
            Some(_) => None,
        };
        let Some(state) = state else {
            j.holds.push(RetentionHold::Damaged);
            return Ok(j);
        };
        let holds = &mut j.holds;
        holds.extend(state.queue_items().into_iter().map(|i| RetentionHold::OpenItem { item: i.kind }));
        if state.referee.under_review() {
            holds.push(RetentionHold::UnderReview);
        }
        if let Some(until_ms) = state
            .referee
            .sanctions
            .iter()
            .filter(|s| s.appeal_refusal(now).is_none())
            .map(|s| s.appeal_until_ms())
            .max()
        {
            holds.push(RetentionHold::AppealWindow { until_ms });
        }
        j.archive = j.holds.is_empty() && crate::learning::service::learnable(room_id, &log);
        Ok(j)
    }

    /// What a run at the service's time deletes (`delete`) or would delete, and what it
    /// keeps with why.
    async fn retention_pass(&self, trigger: RunTrigger, delete: bool) -> Result<RetentionReport, AppError> {
        let now = self.now_ms();
        let mut report = RetentionReport { at_ms: now, trigger, deleted: Vec::new(), kept: Vec::new() };
        for due in self.db().rooms_past_retention(now).await? {
            let Judgement { holds, last_seq, archive } = self.retention_judgement(due.room_id, now).await?;
            let item = RetentionItem {
                room_id: due.room_id,
                name: due.name,
                ended_ms: due.ended_ms,
                retention_days: due.retention_days,
                archived: archive,
                holds,
            };
            if !item.holds.is_empty() {
                report.kept.push(item);
                continue;
            }
            if delete {
                // The actor goes first; the purge deletes only the log judged here (an event
                // appended since, a referral say, keeps the record for the next run), and an
                // append after it is refused.
                self.forget(due.room_id).await;
                if !self.db().purge_room(due.room_id, last_seq, item.archived, now).await? {
                    continue;
                }
                tracing::info!(
                    room_id = due.room_id,
                    archived = item.archived,
                    "stored record deleted under its retention"
                );
            }
            report.deleted.push(item);
        }
        Ok(report)
    }

    /// A retention run, recorded (and, started by an administrator, logged with reasons).
    pub async fn run_retention(
        &self,
        trigger: RunTrigger,
        by: Option<(&Requester, &str)>,
    ) -> Result<RetentionReport, AppError> {
        let report = self.retention_pass(trigger, true).await?;
        self.db().record_retention_run(&report, by.map(|(who, reasons)| (who.user_id, reasons))).await?;
        Ok(report)
    }

    /// An administrator's run from the dashboard, with reasons.
    pub async fn run_retention_now(&self, who: &Requester, reasons: &str) -> Result<RetentionReport, AppError> {
        if !who.is_admin() {
            return Err(MatchError::AdminOnly.into());
        }
        let reasons = AppError::check_text("reasons", reasons)?;
        self.run_retention(RunTrigger::Administrator, Some((who, &reasons))).await
    }

    /// The dashboard's section (administrators only): the defaults, a dry run now, the
    /// latest runs.
    pub async fn retention_status(&self, who: &Requester) -> Result<RetentionStatus, AppError> {
        if !who.is_admin() {
            return Err(MatchError::AdminOnly.into());
        }
        Ok(RetentionStatus {
            defaults: self.db().site_defaults().await?,
            dry_run: self.retention_pass(RunTrigger::DryRun, false).await?,
            runs: self.db().retention_runs(RUNS_SHOWN).await?,
        })
    }

    /// The scheduled run: at start, then whenever a day has passed since the last one
    /// (checked hourly by the server's clock, so a manual clock drives it in tests).
    pub async fn retention_tick(&self, trigger: RunTrigger) {
        let due = match trigger {
            RunTrigger::Start => Ok(true),
            _ => self.db().retention_due(self.now_ms(), EVERY_MS).await,
        };
        match due {
            Ok(true) => match self.run_retention(trigger, None).await {
                Ok(r) => tracing::info!(deleted = r.deleted.len(), kept = r.kept.len(), "retention run"),
                Err(e) => tracing::error!(error = %e, "retention run failed"),
            },
            Ok(false) => {}
            Err(e) => tracing::error!(error = %e, "retention schedule unreadable"),
        }
    }
}
