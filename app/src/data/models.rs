//! The computer's models (003 §12.5): appended, never changed. The first, built-in model
//! carries the engine's default weights, so a fresh server has a computer to play.

use crate::data::{on, Cols, Neutral};
use engine::computer::{model::fingerprint, Weights, DEFAULT_WEIGHTS};

use super::{internal, Db};
use crate::AppError;

pub use wire::learning::ModelSource;

/// One stored model.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelRow {
    pub id: i64,
    pub version: u32,
    pub source: ModelSource,
    pub weights: Weights,
    pub fingerprint: String,
    /// The provenance as stored (JSON text of the engine's model-file provenance).
    pub provenance: String,
    pub created_at_ms: i64,
    pub created_by: Option<i64>,
}

fn row_to_model(r: &impl Cols) -> Result<ModelRow, AppError> {
    let weights: String = r.col("weights")?;
    let weights: [f64; 8] = serde_json::from_str(&weights).map_err(|e| {
        tracing::error!(error = %e, "stored model weights do not parse");
        AppError::Internal
    })?;
    let source: String = r.col("source")?;
    Ok(ModelRow {
        id: r.col("id")?,
        version: r.col::<i64>("version")? as u32,
        source: source.parse().map_err(|_| AppError::Internal)?,
        weights: Weights(weights),
        fingerprint: r.col("fingerprint")?,
        provenance: r.col("provenance")?,
        created_at_ms: r.col("created_at_ms")?,
        created_by: r.col("created_by")?,
    })
}

const COLUMNS: &str = "id, version, source, weights, fingerprint, provenance, created_at_ms, created_by";

impl Db {
    /// Stores a new model with the next version number.
    pub async fn insert_model(
        &self,
        source: ModelSource,
        weights: &Weights,
        provenance: &str,
        now: i64,
        by: Option<(i64, &str)>,
    ) -> Result<ModelRow, AppError> {
        let mut tx = super::write_tx(self).await?;
        let version: i64 = on!(&mut tx, t => sqlx::query_scalar("SELECT COALESCE(MAX(version), 0) + 1 FROM models")
            .fetch_one(&mut **t)
            .await)
        .map_err(internal)?;
        let weights_json = serde_json::to_string(&weights.0).map_err(|_| AppError::Internal)?;
        let id: i64 = on!(&mut tx, t => sqlx::query_scalar(
            "INSERT INTO models (version, source, weights, fingerprint, provenance, created_at_ms, created_by) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(version)
        .bind(<&str>::from(source))
        .bind(weights_json)
        .bind(fingerprint(weights))
        .bind(provenance)
        .bind(now)
        .bind(by.map(|(id, _)| id))
        .fetch_one(&mut **t)
        .await)
        .map_err(internal)?;
        // An administrator's import or training run is in their log with the model it made.
        let action = match source {
            ModelSource::Imported => Some(crate::audit::AuditAction::ModelImported),
            ModelSource::Trained => Some(crate::audit::AuditAction::ModelTrained),
            ModelSource::Builtin => None,
        };
        if let (Some((actor, reasons)), Some(action)) = (by, action) {
            let logged = super::audit::Logged { actor, action, target_user: None, room_id: None, reasons };
            let after = serde_json::json!({ "model_id": id, "version": version, "fingerprint": fingerprint(weights) });
            super::audit::append(&mut tx.conn(), now, &logged, None, Some(&after)).await?;
        }
        tx.commit().await?;
        self.model(id).await?.ok_or(AppError::Internal)
    }

    /// Every model, newest first.
    pub async fn models(&self) -> Result<Vec<ModelRow>, AppError> {
        let rows = on!(self.pool(), p => sqlx::query(&format!("SELECT {COLUMNS} FROM models ORDER BY version DESC"))
            .fetch_all(p)
            .await.map(Neutral::neutral))
        .map_err(internal)?;
        rows.iter().map(row_to_model).collect()
    }

    pub async fn model(&self, id: i64) -> Result<Option<ModelRow>, AppError> {
        let row = on!(self.pool(), p => sqlx::query(&format!("SELECT {COLUMNS} FROM models WHERE id = $1"))
            .bind(id)
            .fetch_optional(p)
            .await.map(Neutral::neutral))
        .map_err(internal)?;
        row.as_ref().map(row_to_model).transpose()
    }

    pub async fn model_weights(&self, id: i64) -> Result<Option<Weights>, AppError> {
        Ok(self.model(id).await?.map(|m| m.weights))
    }

    /// The built-in model, stored on first use.
    pub async fn builtin_model(&self, now: i64) -> Result<ModelRow, AppError> {
        let id: Option<i64> =
            on!(self.pool(), p => sqlx::query_scalar("SELECT id FROM models WHERE source = 'builtin' ORDER BY version LIMIT 1")
                .fetch_optional(p)
                .await)
                .map_err(internal)?;
        if let Some(id) = id {
            return self.model(id).await?.ok_or(AppError::Internal);
        }
        let provenance = serde_json::json!({ "note": "the engine's default weights" }).to_string();
        self.insert_model(ModelSource::Builtin, &DEFAULT_WEIGHTS, &provenance, now, None).await
    }
}
