//! The common rules' versions, the site's defaults, retention runs and the learning archive
//! (`crate::governance`; migration 0009). Versions and defaults are append-only rows; an
//! administrator's change is logged in the same transaction.
//!
//! A purge (`purge_room`) deletes a finished room's events, viewers and queue items in one
//! transaction — first copying a countable game's log into the learning archive — after any
//! append in flight (`leases::hold_appends`). The room's row stays, which reports and the
//! administrators' log point at, marked `purged_at_ms`; an append to it is refused.

use crate::data::{on, Cols, Neutral};

use super::{
    audit::{append, Logged},
    internal, write_tx, Db,
};
use crate::{audit::AuditAction, data::shipped_rules as seed, AppError};
use wire::governance::{Permits, Precedent, RetentionReport, RulesVersion, RunTrigger, SiteDefaults, VersionEntry};

fn json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, AppError> {
    serde_json::from_str(text).map_err(|e| {
        tracing::error!(error = %e, "stored governance JSON does not read");
        AppError::Internal
    })
}

fn to_json<T: serde::Serialize>(v: &T) -> Result<String, AppError> {
    serde_json::to_string(v).map_err(|_| AppError::Internal)
}

const VERSION_COLUMNS: &str = "SELECT c.version, c.created_at_ms, u.username AS created_by, c.clauses, c.permits, \
     c.precedent FROM common_rules c LEFT JOIN users u ON u.id = c.created_by";

fn version_row(r: &impl Cols) -> Result<RulesVersion, AppError> {
    let precedent: Option<String> = r.col("precedent")?;
    let version: i64 = r.col("version")?;
    Ok(RulesVersion {
        version: u32::try_from(version).map_err(|_| AppError::Internal)?,
        created_ms: r.col("created_at_ms")?,
        created_by: r.col("created_by")?,
        clauses: json(&r.col::<String>("clauses")?)?,
        permits: json(&r.col::<String>("permits")?)?,
        precedent: precedent.as_deref().map(json).transpose()?,
    })
}

/// A room past its retention: id, name, when it ended, its retention in days.
pub struct DueRoom {
    pub room_id: i64,
    pub name: String,
    pub ended_ms: i64,
    pub retention_days: u32,
}

impl Db {
    /// Stores each text of the common rules the program ships that the database lacks, as
    /// the next version (at every start; of instances starting together on one database,
    /// the first stores them — the write lock makes the others find them). A shipped version
    /// is one no precedent made; the database has them in shipping order. Returns how many
    /// were stored.
    pub(super) async fn ship_common_rules(&self, now: i64) -> Result<usize, AppError> {
        let mut tx = write_tx(self).await?;
        let stored = on!(&mut tx, t => sqlx::query("SELECT COUNT(*) AS n FROM common_rules WHERE precedent IS NULL")
            .fetch_one(&mut **t)
            .await.map(Neutral::neutral))
        .map_err(internal)?
        .col::<i64>("n")?;
        let stored = usize::try_from(stored).unwrap_or(usize::MAX);
        if stored >= seed::shipped().len() {
            return Ok(0);
        }
        let latest = on!(&mut tx, t => sqlx::query(&format!("{VERSION_COLUMNS} ORDER BY c.version DESC LIMIT 1"))
            .fetch_optional(&mut **t)
            .await.map(|r| r.map(Neutral::neutral)))
        .map_err(internal)?;
        let mut latest = latest.as_ref().map(version_row).transpose()?;
        let mut added = 0;
        for clauses in seed::shipped().skip(stored) {
            let next = seed::next_shipped(latest.as_ref(), clauses, now);
            on!(&mut tx, t => sqlx::query(
                "INSERT INTO common_rules (version, created_at_ms, created_by, clauses, permits, precedent) \
                 VALUES ($1, $2, CAST(NULL AS BIGINT), $3, $4, CAST(NULL AS TEXT))",
            )
            .bind(i64::from(next.version))
            .bind(now)
            .bind(to_json(&next.clauses)?)
            .bind(to_json(&next.permits)?)
            .execute(&mut **t)
            .await.map(|r| r.rows_affected()))
            .map_err(internal)?;
            latest = Some(next);
            added += 1;
        }
        tx.commit().await?;
        Ok(added)
    }

    /// The version rooms created now pin, with what it permits.
    pub async fn current_rules(&self) -> Result<(u32, Permits), AppError> {
        let row = on!(self.pool(), p => sqlx::query("SELECT version, permits FROM common_rules ORDER BY version DESC LIMIT 1")
            .fetch_one(p)
            .await.map(Neutral::neutral))
            .map_err(internal)?;
        let v: i64 = row.col("version")?;
        let permits = json(&row.col::<String>("permits")?)?;
        Ok((u32::try_from(v).map_err(|_| AppError::Internal)?, permits))
    }

    /// One version in full (`None`: no such version).
    pub async fn rules_version(&self, version: u32) -> Result<Option<RulesVersion>, AppError> {
        on!(self.pool(), p => sqlx::query(&format!("{VERSION_COLUMNS} WHERE c.version = $1"))
            .bind(i64::from(version))
            .fetch_optional(p)
            .await.map(Neutral::neutral))
        .map_err(internal)?
        .as_ref()
        .map(version_row)
        .transpose()
    }

    /// Every version, newest first, with the precedent that made it.
    pub async fn rules_versions(&self) -> Result<Vec<VersionEntry>, AppError> {
        let rows = on!(self.pool(), p => sqlx::query("SELECT version, created_at_ms, precedent FROM common_rules ORDER BY version DESC")
            .fetch_all(p)
            .await.map(Neutral::neutral))
            .map_err(internal)?;
        rows.iter()
            .map(|r| {
                let precedent: Option<String> = r.col("precedent")?;
                Ok(VersionEntry {
                    version: u32::try_from(r.col::<i64>("version")?).map_err(|_| AppError::Internal)?,
                    created_ms: r.col("created_at_ms")?,
                    precedent: precedent.as_deref().map(json).transpose()?,
                })
            })
            .collect()
    }

    /// Adds `make(latest)`'s precedent as the next version, logged with it; `make` sees the
    /// latest version inside the write transaction (two administrators adding at once get
    /// two versions, one after the other) and may refuse.
    pub async fn add_precedent(
        &self,
        actor: i64,
        now: i64,
        make: impl FnOnce(&RulesVersion) -> Result<RulesVersion, AppError>,
    ) -> Result<RulesVersion, AppError> {
        let mut tx = write_tx(self).await?;
        let latest = on!(&mut tx, t => sqlx::query(&format!("{VERSION_COLUMNS} ORDER BY c.version DESC LIMIT 1"))
            .fetch_one(&mut **t)
            .await.map(Neutral::neutral))
        .map_err(internal)?;
        let latest = version_row(&latest)?;
        let next = make(&latest)?;
        let precedent: &Precedent = next.precedent.as_ref().ok_or(AppError::Internal)?;
        on!(&mut tx, t => sqlx::query(
            "INSERT INTO common_rules (version, created_at_ms, created_by, clauses, permits, precedent) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(i64::from(next.version))
        .bind(now)
        .bind(actor)
        .bind(to_json(&next.clauses)?)
        .bind(to_json(&next.permits)?)
        .bind(to_json(precedent)?)
        .execute(&mut **t)
        .await.map(|r| r.rows_affected()))
        .map_err(internal)?;
        let room_id = precedent.ruling.map(|r| r.room_id);
        let logged = Logged {
            actor,
            action: AuditAction::PrecedentAdded,
            target_user: None,
            room_id,
            reasons: &precedent.reasons,
        };
        let before = serde_json::json!({ "version": latest.version });
        let after = serde_json::json!({ "version": next.version, "clause": precedent.clause, "text": precedent.text,
            "ruling": precedent.ruling });
        append(&mut tx.conn(), now, &logged, Some(&before), Some(&after)).await?;
        tx.commit().await?;
        Ok(next)
    }

    /// The defaults in force (the newest row; none: the program's).
    pub async fn site_defaults(&self) -> Result<SiteDefaults, AppError> {
        let row = on!(self.pool(), p => sqlx::query(
            "SELECT d.retention_days, d.scoring_wait_min, d.set_at_ms, u.username, d.reasons FROM site_defaults d \
             JOIN users u ON u.id = d.set_by ORDER BY d.id DESC LIMIT 1",
        )
        .fetch_optional(p)
        .await.map(Neutral::neutral))
        .map_err(internal)?;
        let Some(r) = row else { return Ok(SiteDefaults::program()) };
        let days: i64 = r.col("retention_days")?;
        let wait: i64 = r.col("scoring_wait_min")?;
        Ok(SiteDefaults {
            retention_days: u32::try_from(days).map_err(|_| AppError::Internal)?,
            scoring_wait_min: u32::try_from(wait).map_err(|_| AppError::Internal)?,
            set_ms: Some(r.col("set_at_ms")?),
            set_by: Some(r.col("username")?),
            reasons: Some(r.col("reasons")?),
        })
    }

    /// Announces new defaults (checked by the caller), logged with before and after.
    pub async fn set_site_defaults(
        &self,
        actor: i64,
        retention_days: u32,
        scoring_wait_min: u32,
        reasons: &str,
        now: i64,
    ) -> Result<(), AppError> {
        let mut tx = write_tx(self).await?;
        // What was in force, read under the write lock (two announcements at once log each
        // other's values as before and after, in order).
        let before: Option<(i64, i64)> =
            on!(&mut tx, t => sqlx::query_as("SELECT retention_days, scoring_wait_min FROM site_defaults ORDER BY id DESC LIMIT 1")
                .fetch_optional(&mut **t)
                .await)
                .map_err(internal)?;
        let program = SiteDefaults::program();
        let before = before.unwrap_or((i64::from(program.retention_days), i64::from(program.scoring_wait_min)));
        on!(&mut tx, t => sqlx::query(
            "INSERT INTO site_defaults (retention_days, scoring_wait_min, set_at_ms, set_by, reasons) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(i64::from(retention_days))
        .bind(i64::from(scoring_wait_min))
        .bind(now)
        .bind(actor)
        .bind(reasons)
        .execute(&mut **t)
        .await.map(|r| r.rows_affected()))
        .map_err(internal)?;
        let logged =
            Logged { actor, action: AuditAction::SiteDefaultsChanged, target_user: None, room_id: None, reasons };
        let shown = |d: i64, w: i64| serde_json::json!({ "retention_days": d, "scoring_wait_min": w });
        let after = shown(i64::from(retention_days), i64::from(scoring_wait_min));
        append(&mut tx.conn(), now, &logged, Some(&shown(before.0, before.1)), Some(&after)).await?;
        tx.commit().await
    }

    /// Finished rooms whose stored record is past its retention at `now`, oldest end first.
    pub async fn rooms_past_retention(&self, now: i64) -> Result<Vec<DueRoom>, AppError> {
        let rows = on!(self.pool(), p => sqlx::query(
            "SELECT id, name, ended_at_ms, retention_days FROM rooms WHERE status = 'finished' \
             AND purged_at_ms IS NULL AND retention_days > 0 AND ended_at_ms IS NOT NULL \
             AND ended_at_ms + retention_days * 86400000 <= $1 ORDER BY ended_at_ms, id",
        )
        .bind(now)
        .fetch_all(p)
        .await.map(Neutral::neutral))
        .map_err(internal)?;
        rows.iter()
            .map(|r| {
                Ok(DueRoom {
                    room_id: r.col("id")?,
                    name: r.col("name")?,
                    ended_ms: r.col("ended_at_ms")?,
                    retention_days: u32::try_from(r.col::<i64>("retention_days")?).map_err(|_| AppError::Internal)?,
                })
            })
            .collect()
    }

    /// Whether a report about room `id` is still undecided.
    pub async fn has_open_report(&self, room_id: i64) -> Result<bool, AppError> {
        on!(self.pool(), p => sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM report_cases WHERE room_id = $1 AND decided_at_ms IS NULL")
            .bind(room_id)
            .fetch_one(p)
            .await)
            .map(|n| n > 0)
            .map_err(internal)
    }

    /// When room `id`'s stored record was deleted under its retention, if it was.
    pub async fn purged_at(&self, room_id: i64) -> Result<Option<i64>, AppError> {
        Ok(on!(self.pool(), p => sqlx::query_scalar::<_, Option<i64>>("SELECT purged_at_ms FROM rooms WHERE id = $1")
            .bind(room_id)
            .fetch_optional(p)
            .await)
        .map_err(internal)?
        .flatten())
    }

    /// Deletes room `id`'s stored record, first copying its log into the learning archive
    /// when `archive` (003 §12.7), in one transaction. Only a finished room not yet deleted
    /// whose log still ends at `last_seq` (what the caller judged); `false`: nothing done.
    pub async fn purge_room(&self, room_id: i64, last_seq: i64, archive: bool, now: i64) -> Result<bool, AppError> {
        let mut tx = write_tx(self).await?;
        // Appends (group commit, no turn among writers) first: the log read next is whole.
        super::leases::hold_appends(&mut tx, room_id).await?;
        let seen: Option<i64> =
            on!(&mut tx, t => sqlx::query_scalar("SELECT MAX(seq) FROM match_events WHERE room_id = $1")
            .bind(room_id)
            .fetch_one(&mut **t)
            .await)
            .map_err(internal)?;
        if seen != Some(last_seq) {
            return Ok(false);
        }
        let done = on!(&mut tx, t => sqlx::query(
            "UPDATE rooms SET purged_at_ms = $1 WHERE id = $2 AND status = 'finished' AND purged_at_ms IS NULL",
        )
        .bind(now)
        .bind(room_id)
        .execute(&mut **t)
        .await.map(|r| r.rows_affected()))
        .map_err(internal)?;
        if done == 0 {
            return Ok(false);
        }
        if archive {
            // No invitation digests in the archive; the nigiri seed stays (the draw replays).
            on!(&mut tx, t => {
                let sql = format!(
                    "INSERT INTO learning_archive (room_id, seq, at_ms, body) \
                     SELECT room_id, seq, at_ms, CASE WHEN seq = 1 THEN {redacted} ELSE body END \
                     FROM match_events WHERE room_id = $1",
                    redacted = dialect::WITHOUT_INVITATIONS
                );
                sqlx::query(&sql).bind(room_id).execute(&mut **t).await.map(|r| r.rows_affected())
            })
            .map_err(internal)?;
        }
        for sql in [
            "DELETE FROM match_events WHERE room_id = $1",
            "DELETE FROM room_viewers WHERE room_id = $1",
            "DELETE FROM queue_items WHERE room_id = $1",
        ] {
            on!(&mut tx, t => sqlx::query(sql).bind(room_id).execute(&mut **t).await.map(|r| r.rows_affected()))
                .map_err(internal)?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Games in the learning archive, oldest first.
    pub async fn archived_games(&self) -> Result<Vec<i64>, AppError> {
        on!(self.pool(), p => sqlx::query_scalar("SELECT DISTINCT room_id FROM learning_archive ORDER BY room_id")
            .fetch_all(p)
            .await)
        .map_err(internal)
    }

    /// Records a run; an administrator's is logged in their log too.
    pub async fn record_retention_run(
        &self,
        report: &RetentionReport,
        run_by: Option<(i64, &str)>,
    ) -> Result<(), AppError> {
        let mut tx = write_tx(self).await?;
        on!(&mut tx, t => sqlx::query("INSERT INTO retention_runs (at_ms, trigger, run_by, report) VALUES ($1, $2, $3, $4)")
            .bind(report.at_ms)
            .bind(<&str>::from(report.trigger))
            .bind(run_by.map(|(id, _)| id))
            .bind(to_json(report)?)
            .execute(&mut **t)
            .await.map(|r| r.rows_affected()))
            .map_err(internal)?;
        if let Some((actor, reasons)) = run_by {
            let logged = Logged { actor, action: AuditAction::RetentionRun, target_user: None, room_id: None, reasons };
            let after = serde_json::json!({
                "deleted": report.deleted.iter().map(|i| i.room_id).collect::<Vec<_>>(),
                "kept": report.kept.iter().map(|i| i.room_id).collect::<Vec<_>>(),
            });
            append(&mut tx.conn(), report.at_ms, &logged, None, Some(&after)).await?;
        }
        tx.commit().await
    }

    /// The latest runs, newest first.
    pub async fn retention_runs(&self, limit: i64) -> Result<Vec<RetentionReport>, AppError> {
        let rows: Vec<String> =
            on!(self.pool(), p => sqlx::query_scalar("SELECT report FROM retention_runs ORDER BY id DESC LIMIT $1")
            .bind(limit)
            .fetch_all(p)
            .await)
            .map_err(internal)?;
        rows.iter().map(|r| json(r)).collect()
    }

    /// Whether the last scheduled or started run is at least `every_ms` old (or none ran).
    pub async fn retention_due(&self, now: i64, every_ms: i64) -> Result<bool, AppError> {
        let last: Option<i64> =
            on!(self.pool(), p => sqlx::query_scalar("SELECT MAX(at_ms) FROM retention_runs WHERE trigger <> $1")
            .bind(<&str>::from(RunTrigger::DryRun))
            .fetch_one(p)
            .await)
            .map_err(internal)?;
        Ok(last.is_none_or(|t| now - t >= every_ms))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wire::governance::Clause;

    async fn versions(db: &Db) -> Vec<RulesVersion> {
        let mut out = Vec::new();
        for entry in db.rules_versions().await.unwrap() {
            out.push(db.rules_version(entry.version).await.unwrap().unwrap());
        }
        out
    }

    fn texts(clauses: &[Clause]) -> Vec<(&str, &str)> {
        clauses.iter().map(|c| (c.id.as_str(), c.text.as_str())).collect()
    }

    /// A new database gets every shipped text in order; one from before a revision, whose
    /// administrators have since added precedent, gets the revision once, as the version
    /// after theirs, keeping their precedent and permits.
    #[tokio::test]
    async fn shipped_texts_are_stored_once_each_as_the_next_version_keeping_precedent() {
        let dir = std::env::temp_dir().join(format!("sb-rules-{}", super::super::secrets::random_hex::<8>().unwrap()));
        let shipped: Vec<_> = seed::shipped().collect();
        let db = Db::open(&dir).await.unwrap();
        let fresh = versions(&db).await;
        assert_eq!(fresh.iter().map(|v| v.version).collect::<Vec<_>>(), vec![2, 1], "newest first");
        for (v, clauses) in fresh.iter().rev().zip(&shipped) {
            assert_eq!((v.created_by.as_deref(), &v.precedent), (None, &None), "version {}", v.version);
            assert_eq!(texts(&v.clauses), texts(clauses), "version {}", v.version);
        }
        assert_eq!(db.current_rules().await.unwrap().0, 2);

        // As a database from before the revision: version 1 shipped, version 2 made by an
        // administrator's precedent with narrower permits.
        on!(db.pool(), p => sqlx::query("DELETE FROM common_rules WHERE version = 2").execute(p).await.map(|r| r.rows_affected()))
            .unwrap();
        on!(db.pool(), p => sqlx::query(
            "INSERT INTO users (username, password_hash, role, created_at_ms) VALUES ('referee', 'x', 'admin', 0)",
        )
        .execute(p)
        .await.map(|r| r.rows_affected()))
        .unwrap();
        let made = db.add_precedent(1, 20, |latest| Ok(seed::with_a_precedent(latest).0)).await.unwrap();
        let precedent = made.precedent.clone().unwrap();
        assert_eq!(made.version, 2);
        db.close().await;

        let db = Db::open(&dir).await.unwrap();
        let after = versions(&db).await;
        assert_eq!(after.iter().map(|v| v.version).collect::<Vec<_>>(), vec![3, 2, 1]);
        let (revision, theirs) = (&after[0], &after[1]);
        assert_eq!((revision.created_by.as_deref(), &revision.precedent), (None, &None));
        assert_eq!(theirs.created_by.as_deref(), Some("referee"));
        assert_eq!(texts(&revision.clauses), texts(&shipped[1]), "the revision's own texts");
        assert_eq!(revision.permits, made.permits, "the permits precedent set stay");
        for c in &revision.clauses {
            let kept: &[Precedent] = if c.id == "003 §3.6" { std::slice::from_ref(&precedent) } else { &[] };
            assert_eq!(c.precedents, kept, "{}", c.id);
        }
        db.close().await;

        // Stored once: a later start adds nothing.
        let db = Db::open(&dir).await.unwrap();
        assert_eq!(db.rules_versions().await.unwrap().len(), 3);
        assert_eq!(db.current_rules().await.unwrap().0, 3);
        db.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }
}
