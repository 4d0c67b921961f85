//! Reports and who watched (`report_cases`, `reports`, `room_viewers`; 003 §6.4–6.5).
//! Sanctions are room events (`matches::conduct`); this is what is kept beside the rooms.

use crate::data::{on, Cols, Neutral};

use super::{
    audit::{append, Logged},
    internal, write_tx, Db,
};
use crate::{audit::AuditAction, AppError};
use wire::conduct::{CaseOutcome, Category, ReportCase, ReportLine};

/// A report to store: its case is the open one about `subject` (`None`: the match) in the
/// room, or a new one.
pub struct ReportRow<'a> {
    pub room_id: i64,
    pub subject: Option<i64>,
    pub reporter: i64,
    pub category: Category,
    pub description: &'a str,
    pub seq: i64,
}

impl Db {
    /// A signed-in account opened the room's live stream (the first time is kept).
    pub async fn note_viewer(&self, room_id: i64, user_id: i64, now: i64) -> Result<(), AppError> {
        on!(self.pool(), p => sqlx::query("INSERT INTO room_viewers (room_id, user_id, first_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
            .bind(room_id)
            .bind(user_id)
            .bind(now)
            .execute(p)
            .await.map(|r| r.rows_affected()))
            .map_err(internal)?;
        Ok(())
    }

    pub async fn has_viewed(&self, room_id: i64, user_id: i64) -> Result<bool, AppError> {
        let n: i64 = on!(self.pool(), p => sqlx::query_scalar("SELECT COUNT(*) FROM room_viewers WHERE room_id = $1 AND user_id = $2")
            .bind(room_id)
            .bind(user_id)
            .fetch_one(p)
            .await)
            .map_err(internal)?;
        Ok(n > 0)
    }

    /// Stores a report in its case; answers the case and whether it is new.
    pub async fn add_report(&self, r: &ReportRow<'_>, now: i64) -> Result<(i64, bool), AppError> {
        let mut tx = write_tx(self).await?;
        let open: Option<i64> = on!(&mut tx, t => sqlx::query_scalar(
            "SELECT id FROM report_cases WHERE room_id = $1 AND subject_user_id IS NOT DISTINCT FROM $2 AND decided_at_ms IS NULL",
        )
        .bind(r.room_id)
        .bind(r.subject)
        .fetch_optional(&mut **t)
        .await)
        .map_err(internal)?;
        let (case, new) = match open {
            Some(id) => (id, false),
            None => {
                let id: i64 = on!(&mut tx, t => sqlx::query_scalar(
                    "INSERT INTO report_cases (room_id, subject_user_id, opened_at_ms) VALUES ($1, $2, $3) RETURNING id",
                )
                .bind(r.room_id)
                .bind(r.subject)
                .bind(now)
                .fetch_one(&mut **t)
                .await)
                .map_err(internal)?;
                (id, true)
            }
        };
        on!(&mut tx, t => sqlx::query(
            "INSERT INTO reports (case_id, reporter_id, category, description, at_seq, at_ms) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(case)
        .bind(r.reporter)
        .bind(r.category.as_str())
        .bind(r.description)
        .bind(r.seq)
        .bind(now)
        .execute(&mut **t)
        .await.map(|r| r.rows_affected()))
        .map_err(internal)?;
        tx.commit().await?;
        Ok((case, new))
    }

    /// Open cases oldest first, then the latest decided ones (at most `decided` of them).
    pub async fn report_cases(&self, decided: i64) -> Result<Vec<(ReportCase, Option<i64>)>, AppError> {
        let ids: Vec<i64> = on!(self.pool(), p => sqlx::query_scalar(
            "SELECT id FROM (SELECT id, 0 AS k, opened_at_ms AS t FROM report_cases WHERE decided_at_ms IS NULL \
             UNION ALL SELECT id, 1, -decided_at_ms FROM (SELECT id, decided_at_ms FROM report_cases \
             WHERE decided_at_ms IS NOT NULL ORDER BY decided_at_ms DESC LIMIT $1) AS decided) AS cases ORDER BY k, t, id",
        )
        .bind(decided)
        .fetch_all(p)
        .await)
        .map_err(internal)?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(c) = self.report_case(id).await? {
                out.push(c);
            }
        }
        Ok(out)
    }

    /// A case with its subject's account (`None`: the match itself).
    pub async fn report_case(&self, id: i64) -> Result<Option<(ReportCase, Option<i64>)>, AppError> {
        let Some(row) = on!(self.pool(), p => sqlx::query(
            "SELECT c.id, c.room_id, r.name AS room_name, u.username AS subject, c.subject_user_id, \
             c.opened_at_ms, c.outcome, c.sanction, c.reasons, c.decided_at_ms \
             FROM report_cases c JOIN rooms r ON r.id = c.room_id LEFT JOIN users u ON u.id = c.subject_user_id \
             WHERE c.id = $1",
        )
        .bind(id)
        .fetch_optional(p)
        .await.map(Neutral::neutral))
        .map_err(internal)?
        else {
            return Ok(None);
        };
        let lines = on!(self.pool(), p => sqlx::query(
            "SELECT u.username, p.category, p.description, p.at_seq, p.at_ms FROM reports p \
             JOIN users u ON u.id = p.reporter_id WHERE p.case_id = $1 ORDER BY p.id",
        )
        .bind(id)
        .fetch_all(p)
        .await.map(Neutral::neutral))
        .map_err(internal)?;
        let reports = lines
            .iter()
            .map(|l| {
                let category: String = l.col("category")?;
                Ok(ReportLine {
                    reporter: l.col("username")?,
                    category: category.parse().map_err(|_| AppError::Internal)?,
                    description: l.col("description")?,
                    seq: l.col("at_seq")?,
                    at_ms: l.col("at_ms")?,
                })
            })
            .collect::<Result<Vec<_>, AppError>>()?;
        let outcome: Option<String> = row.col("outcome")?;
        let sanction: Option<i64> = row.col("sanction")?;
        let subject_id: Option<i64> = row.col("subject_user_id")?;
        let case = ReportCase {
            id: row.col("id")?,
            room_id: row.col("room_id")?,
            room_name: row.col("room_name")?,
            subject: row.col("subject")?,
            subject_colour: None,
            opened_ms: row.col("opened_at_ms")?,
            reports,
            outcome: outcome.and_then(|o| o.parse().ok()),
            sanction: sanction.and_then(|n| u32::try_from(n).ok()),
            reasons: row.col("reasons")?,
            decided_ms: row.col("decided_at_ms")?,
        };
        Ok(Some((case, subject_id)))
    }

    /// The subject account of an open case (`Ok(None)` inside: about the match).
    pub async fn open_case_subject(&self, id: i64) -> Result<Option<(i64, Option<i64>)>, AppError> {
        let row =
            on!(self.pool(), p => sqlx::query("SELECT room_id, subject_user_id FROM report_cases WHERE id = $1 AND decided_at_ms IS NULL")
                .bind(id)
                .fetch_optional(p)
                .await.map(Neutral::neutral))
                .map_err(internal)?;
        row.map(|r| Ok((r.col("room_id")?, r.col("subject_user_id")?))).transpose()
    }

    /// Closes an open case; answers its reporters (none when it was no longer open). A
    /// dismissal is logged here; a sanction was logged with its room event.
    pub async fn decide_case(
        &self,
        id: i64,
        admin: i64,
        outcome: CaseOutcome,
        sanction: Option<u32>,
        reasons: &str,
        now: i64,
    ) -> Result<Vec<i64>, AppError> {
        let mut tx = write_tx(self).await?;
        let room: Option<(i64, Option<i64>)> = on!(&mut tx, t => sqlx::query_as(
            "UPDATE report_cases SET decided_at_ms = $1, decided_by = $2, outcome = $3, sanction = $4, reasons = $5 \
             WHERE id = $6 AND decided_at_ms IS NULL RETURNING room_id, subject_user_id",
        )
        .bind(now)
        .bind(admin)
        .bind(<&str>::from(outcome))
        .bind(sanction.map(i64::from))
        .bind(reasons)
        .bind(id)
        .fetch_optional(&mut **t)
        .await)
        .map_err(internal)?;
        let Some((room_id, subject)) = room else {
            return Ok(Vec::new());
        };
        if outcome == CaseOutcome::Dismissed {
            let e = Logged {
                actor: admin,
                action: AuditAction::ReportDismissed,
                target_user: subject,
                room_id: Some(room_id),
                reasons,
            };
            append(&mut tx.conn(), now, &e, None, Some(&serde_json::json!({ "case": id }))).await?;
        }
        let reporters: Vec<i64> =
            on!(&mut tx, t => sqlx::query_scalar("SELECT DISTINCT reporter_id FROM reports WHERE case_id = $1 ORDER BY reporter_id")
                .bind(id)
                .fetch_all(&mut **t)
                .await)
                .map_err(internal)?;
        tx.commit().await?;
        Ok(reporters)
    }

    /// Rooms whose log holds a sanction (for conduct histories).
    pub async fn rooms_with_sanctions(&self) -> Result<Vec<i64>, AppError> {
        on!(self.pool(), p => sqlx::query_scalar("SELECT DISTINCT room_id FROM match_events WHERE kind = 'sanctioned' ORDER BY room_id DESC")
            .fetch_all(p)
            .await)
            .map_err(internal)
    }
}
