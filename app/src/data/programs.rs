//! Program matches (003 §12.4): the series and which room is which of its games.

use crate::data::{on, Cols, Neutral};
use serde::{Deserialize, Serialize};

use super::{internal, Db};
use wire::programs::PinnedContestant;

use crate::AppError;
use wire::settings::MatchSettings;

/// What a series plays, fixed when it starts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeriesPlan {
    pub a: PinnedContestant,
    pub b: PinnedContestant,
    pub games: u32,
    pub settings: MatchSettings,
}

/// One stored series.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesRow {
    pub id: i64,
    pub plan: SeriesPlan,
    pub created_at_ms: i64,
    pub created_by: i64,
    pub finished_at_ms: Option<i64>,
    /// The games, in order.
    pub rooms: Vec<SeriesRoom>,
}

/// One game of a series; `result` and `moves` once it is final.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesRoom {
    pub game: u32,
    pub room_id: i64,
    pub result: Option<(engine::GameResult, u32)>,
}

impl Db {
    /// A new series, in its administrator's log with its plan.
    pub async fn insert_series(&self, plan: &SeriesPlan, now: i64, by: i64) -> Result<i64, AppError> {
        let plan_json = serde_json::to_value(plan).map_err(|_| AppError::Internal)?;
        let mut tx = super::write_tx(self).await?;
        let id: i64 = on!(&mut tx, t => sqlx::query_scalar(
            "INSERT INTO program_matches (plan, created_at_ms, created_by) VALUES ($1, $2, $3) RETURNING id",
        )
        .bind(plan_json.to_string())
        .bind(now)
        .bind(by)
        .fetch_one(&mut **t)
        .await)
        .map_err(internal)?;
        let logged = super::audit::Logged {
            actor: by,
            action: crate::audit::AuditAction::ProgramMatchStarted,
            target_user: None,
            room_id: None,
            reasons: "",
        };
        let after = serde_json::json!({ "program_match": id, "plan": plan_json });
        super::audit::append(&mut tx.conn(), now, &logged, None, Some(&after)).await?;
        tx.commit().await?;
        Ok(id)
    }

    pub async fn add_series_game(&self, series: i64, game: u32, room_id: i64) -> Result<(), AppError> {
        on!(self.pool(), p => sqlx::query("INSERT INTO program_match_games (series_id, game, room_id) VALUES ($1, $2, $3)")
            .bind(series)
            .bind(i64::from(game))
            .bind(room_id)
            .execute(p)
            .await.map(|r| r.rows_affected()))
            .map_err(internal)?;
        Ok(())
    }

    /// Records a finished game's result (once; the room's log stays the authority).
    pub async fn finish_series_game(
        &self,
        series: i64,
        game: u32,
        result: &engine::GameResult,
        moves: u32,
    ) -> Result<(), AppError> {
        let result = serde_json::to_string(result).map_err(|_| AppError::Internal)?;
        on!(self.pool(), p => sqlx::query(
            "UPDATE program_match_games SET result = $1, moves = $2 WHERE series_id = $3 AND game = $4 AND result IS NULL",
        )
        .bind(result)
        .bind(i64::from(moves))
        .bind(series)
        .bind(i64::from(game))
        .execute(p)
        .await.map(|r| r.rows_affected()))
        .map_err(internal)?;
        Ok(())
    }

    pub async fn finish_series(&self, series: i64, now: i64) -> Result<(), AppError> {
        on!(self.pool(), p => sqlx::query("UPDATE program_matches SET finished_at_ms = $1 WHERE id = $2 AND finished_at_ms IS NULL")
            .bind(now)
            .bind(series)
            .execute(p)
            .await.map(|r| r.rows_affected()))
            .map_err(internal)?;
        Ok(())
    }

    /// Every series, newest first.
    pub async fn series_list(&self) -> Result<Vec<SeriesRow>, AppError> {
        let ids: Vec<i64> = on!(self.pool(), p => sqlx::query_scalar("SELECT id FROM program_matches ORDER BY id DESC")
            .fetch_all(p)
            .await)
        .map_err(internal)?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            out.extend(self.series(id).await?);
        }
        Ok(out)
    }

    /// The series not yet finished (resumed at start).
    pub async fn unfinished_series(&self) -> Result<Vec<i64>, AppError> {
        on!(self.pool(), p => sqlx::query_scalar("SELECT id FROM program_matches WHERE finished_at_ms IS NULL ORDER BY id")
            .fetch_all(p)
            .await)
            .map_err(internal)
    }

    pub async fn series(&self, id: i64) -> Result<Option<SeriesRow>, AppError> {
        let Some(r) =
            on!(self.pool(), p => sqlx::query("SELECT id, plan, created_at_ms, created_by, finished_at_ms FROM program_matches WHERE id = $1")
                .bind(id)
                .fetch_optional(p)
                .await.map(Neutral::neutral))
                .map_err(internal)?
        else {
            return Ok(None);
        };
        let plan: String = r.col("plan")?;
        let plan: SeriesPlan = serde_json::from_str(&plan).map_err(|e| {
            tracing::error!(series = id, error = %e, "a stored program match plan does not parse");
            AppError::Internal
        })?;
        let rows: Vec<(i64, i64, Option<String>, Option<i64>)> = on!(self.pool(), p => sqlx::query_as(
            "SELECT game, room_id, result, moves FROM program_match_games WHERE series_id = $1 ORDER BY game",
        )
        .bind(id)
        .fetch_all(p)
        .await)
        .map_err(internal)?;
        let mut rooms = Vec::with_capacity(rows.len());
        for (game, room_id, result, moves) in rows {
            let result = match (result, moves) {
                (Some(r), Some(m)) => Some((
                    serde_json::from_str(&r).map_err(|e| {
                        tracing::error!(series = id, game, error = %e, "a stored program game result does not parse");
                        AppError::Internal
                    })?,
                    m as u32,
                )),
                _ => None,
            };
            rooms.push(SeriesRoom { game: game as u32, room_id, result });
        }
        Ok(Some(SeriesRow {
            id,
            plan,
            created_at_ms: r.col("created_at_ms")?,
            created_by: r.col("created_by")?,
            finished_at_ms: r.col("finished_at_ms")?,
            rooms,
        }))
    }
}
