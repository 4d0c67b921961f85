//! Local learning on the server (003 §12): which finished games are eligible, their samples
//! rebuilt from the stored logs, training runs (games in play paused first), and the models'
//! export and import. Methods of [`MatchService`]: training holds and resumes rooms through
//! the same administrator commands as the referee's console.

use engine::computer::{
    model::{ModelFile, ModelFileError},
    samples::{samples_from_record, AlternativePolicy, FinalPosition, GameSamples},
    train::{train, Control, TrainConfig, TrainError},
};

use super::{
    EpochPoint, Exclusion, ExclusionKind, GameRef, ModelSummary, RunState, TrainingRefusal, TrainingRequest,
    TrainingStatus, EPOCHS,
};
use crate::{
    data::{
        models::{ModelRow, ModelSource},
        rfc3339,
    },
    matches::service::MatchService,
    AppError,
};
use room::{Command, MatchState};
use wire::commands::Requester;

/// An eligible game with what training needs from it.
struct Eligible {
    game: GameRef,
    state: MatchState,
}

/// Whether a finished room's game may go to the learning archive when its record is deleted
/// (003 §12.7): what training could use.
pub(crate) fn learnable(room_id: i64, log: &crate::data::room_log::CheckedLog) -> bool {
    judge(room_id, log).is_ok()
}

/// Whether a finished game's log may train (003 §12.2), or why not.
fn judge(room_id: i64, log: &crate::data::room_log::CheckedLog) -> Result<Eligible, ExclusionKind> {
    if log.damage.is_some() {
        return Err(ExclusionKind::Damaged);
    }
    let state = MatchState::replay(&log.events, log.secrets.clone()).map_err(|_| ExclusionKind::Damaged)?;
    let statement = match (state.result(), &state.ended) {
        (Some(engine::GameResult::Score { .. }), Some(wire::events::Event::Ended { statement: Some(n), .. })) => *n,
        (Some(r), _) if r.is_draw() => return Err(ExclusionKind::Draw),
        (Some(engine::GameResult::Resign { .. }), _) => return Err(ExclusionKind::Resignation),
        (Some(engine::GameResult::Time { .. }), _) => return Err(ExclusionKind::Time),
        _ => return Err(ExclusionKind::NoScoredWinner),
    };
    if state.referee.under_review() {
        return Err(ExclusionKind::UnderReview);
    }
    let mode = state.rules.mode().tag();
    if mode == wire::mode::ModeTag::ProgramMatch {
        return Err(ExclusionKind::ProgramGame);
    }
    Ok(Eligible { game: GameRef { room_id, statement, mode }, state })
}

pub fn summary(m: &ModelRow) -> ModelSummary {
    let provenance: serde_json::Value = serde_json::from_str(&m.provenance).unwrap_or_default();
    let metric = |k: &str| provenance["metrics"][k].as_f64();
    ModelSummary {
        id: m.id,
        version: m.version,
        source: m.source,
        fingerprint: m.fingerprint.clone(),
        weights: m.weights.0,
        created_at_ms: m.created_at_ms,
        source_games: provenance["source_games"].as_array().map_or(0, |a| a.len() as u32),
        holdout_accuracy: metric("holdout_accuracy"),
        holdout_log_loss: metric("holdout_log_loss"),
        note: provenance["note"].as_str().map(String::from),
    }
}

fn bad_file(e: &ModelFileError) -> AppError {
    AppError::BadModelFile { field: e.field().to_string(), why: e.to_string() }
}

impl MatchService {
    /// Every model, newest first (the built-in one is stored on first use).
    pub async fn models(&self) -> Result<Vec<ModelSummary>, AppError> {
        self.db().builtin_model(self.clock().now_ms()).await?;
        Ok(self.db().models().await?.iter().map(summary).collect())
    }

    /// A model as its JSON file (003 §12.6): format, weights, fingerprint, provenance —
    /// never passwords, invitation codes or raw records (003 §12.7).
    pub async fn export_model(&self, id: i64) -> Result<String, AppError> {
        let m = self.db().model(id).await?.ok_or(AppError::NoModel { id })?;
        let mut provenance: serde_json::Value = serde_json::from_str(&m.provenance).unwrap_or_default();
        if !provenance.is_object() {
            provenance = serde_json::json!({});
        }
        provenance["model_id"] = format!("model-{}", m.id).into();
        provenance["version"] = m.version.into();
        provenance["created_at"] = rfc3339(m.created_at_ms).into();
        if provenance.get("source_games").is_none() {
            provenance["source_games"] = serde_json::json!([]);
        }
        let names = engine::computer::Feature::ALL.map(<&str>::from);
        let weights: serde_json::Map<String, serde_json::Value> =
            names.iter().zip(m.weights.0).map(|(n, w)| ((*n).to_string(), w.into())).collect();
        let doc = serde_json::json!({
            "format": engine::computer::model::MODEL_FORMAT,
            "format_version": engine::computer::model::MODEL_FORMAT_VERSION,
            "weights": weights,
            "fingerprint": m.fingerprint,
            "provenance": provenance,
        });
        // Checked like an import: what leaves is what another server accepts.
        let file = ModelFile::from_json(&doc.to_string()).map_err(|e| {
            tracing::error!(model = id, error = %e, "a stored model does not export");
            AppError::Internal
        })?;
        Ok(file.to_json_pretty())
    }

    /// Imports a model file as a new model (administrators only; 003 §12.6): format, every
    /// number and the fingerprint are checked, each refusal naming the field.
    pub async fn import_model(&self, who: &Requester, json: &str) -> Result<ModelSummary, AppError> {
        if !who.is_admin() {
            return Err(AppError::Match(room::MatchError::AdminOnly));
        }
        let file = ModelFile::from_json(json).map_err(|e| bad_file(&e))?;
        let p = &file.provenance;
        let stored = serde_json::json!({
            "source_games": p.source_games,
            "metrics": p.metrics,
            "trained_from": p.trained_from,
            "note": format!("imported: {} version {} ({})", p.model_id, p.version, p.created_at),
        });
        // The file's own account of itself stands as the import's reasons in the log.
        let reasons = format!("{} version {} ({})", p.model_id, p.version, p.created_at);
        let row = self
            .db()
            .insert_model(
                ModelSource::Imported,
                &file.weights,
                &stored.to_string(),
                self.clock().now_ms(),
                Some((who.user_id, &reasons)),
            )
            .await?;
        Ok(summary(&row))
    }

    /// Which finished games training may use (003 §12.2), and why the others are left out.
    pub async fn eligible_games(&self) -> Result<(Vec<GameRef>, Vec<Exclusion>), AppError> {
        let (eligible, excluded) = self.scan_games().await?;
        Ok((eligible.into_iter().map(|e| e.game).collect(), excluded))
    }

    async fn scan_games(&self) -> Result<(Vec<Eligible>, Vec<Exclusion>), AppError> {
        let mut eligible = Vec::new();
        let mut excluded = Vec::new();
        let mut sort = |room_id, judged: Result<Eligible, ExclusionKind>| match judged {
            Ok(e) => eligible.push(e),
            Err(kind) => excluded.push(Exclusion { room_id, kind }),
        };
        for (room_id, finished) in self.db().room_ids_with_status().await? {
            if !finished {
                sort(room_id, Err(ExclusionKind::Unfinished));
                continue;
            }
            // A room whose record retention deleted is read from the learning archive below.
            let Some(log) = self.db().load_log_checked(room_id).await? else { continue };
            sort(room_id, judge(room_id, &log));
        }
        // 003 §12.7: the learning archive is kept apart from room retention.
        for room_id in self.db().archived_games().await? {
            if let Some(log) = self.db().load_archived_log(room_id).await? {
                sort(room_id, judge(room_id, &log));
            }
        }
        eligible.sort_by_key(|e| e.game.room_id);
        Ok((eligible, excluded))
    }

    /// The current or last training run.
    pub fn training_status(&self) -> TrainingStatus {
        self.training().status()
    }

    /// Starts a training run (administrators only; 003 §12.3): refused before anything is
    /// paused unless there are two eligible games, the epochs are 1–50 and, with games in
    /// play, the administrator confirmed pausing them (with reasons both players see).
    pub async fn start_training(&self, who: &Requester, req: TrainingRequest) -> Result<TrainingStatus, AppError> {
        if !who.is_admin() {
            return Err(AppError::Match(room::MatchError::AdminOnly));
        }
        let refuse = |why| Err(AppError::TrainingRefused { why });
        if !EPOCHS.contains(&req.epochs) {
            return refuse(TrainingRefusal::EpochsOutOfRange {
                got: req.epochs,
                min: *EPOCHS.start(),
                max: *EPOCHS.end(),
            });
        }
        if matches!(self.training().status().state, RunState::Collecting | RunState::Training) {
            return refuse(TrainingRefusal::AlreadyRunning);
        }
        let (eligible, excluded) = self.scan_games().await?;
        if eligible.len() < 2 {
            return refuse(TrainingRefusal::TooFewGames { have: eligible.len() as u32, need: 2 });
        }
        let in_play = self.db().rooms_in_play().await?;
        if !in_play.is_empty() && !req.confirm_pause {
            return refuse(TrainingRefusal::PauseNotConfirmed { games_in_play: in_play.len() as u32 });
        }
        let reasons = req.reasons.trim().to_string();
        if !in_play.is_empty() {
            let n = reasons.chars().count();
            let range = room::REASONS_LEN;
            if !range.contains(&n) {
                let problem = crate::error::InputProblem::Length {
                    min: *range.start() as u64,
                    max: *range.end() as u64,
                    got: n as u64,
                };
                return Err(AppError::input("reasons", problem));
            }
        }
        let start = match req.start_model {
            Some(id) => self.db().model(id).await?.ok_or(AppError::NoModel { id })?,
            None => self.db().builtin_model(self.clock().now_ms()).await?,
        };
        // Logged before anything is held or marked running, so a failed write leaves nothing
        // half started.
        let started = serde_json::json!({
            "epochs": req.epochs, "seed": req.seed, "start_model": start.id,
            "games": eligible.len(), "rooms_to_pause": in_play,
        });
        let now = self.clock().now_ms();
        self.db().log_action(now, who.user_id, crate::audit::AuditAction::TrainingStarted, &reasons, &started).await?;
        self.training().update(|s| {
            *s = TrainingStatus {
                state: RunState::Collecting,
                epochs_planned: req.epochs,
                eligible: eligible.iter().map(|e| e.game.clone()).collect(),
                excluded,
                ..Default::default()
            }
        });
        // 003 §12.3: games in play are held (clocks stop) while training runs.
        let mut paused = Vec::new();
        for room in in_play {
            let hold = Command::AdminHold { reasons: reasons.clone() };
            if self.command(room, who.clone(), hold).await.is_ok() {
                paused.push(room);
            }
        }
        self.training().update(|s| s.paused_rooms = paused.clone());
        let this = self.clone();
        let who = who.clone();
        tokio::spawn(async move {
            let outcome = this.run_training(eligible, start, req).await;
            let stored = match outcome {
                Ok((weights, provenance)) => this
                    .db()
                    .insert_model(
                        ModelSource::Trained,
                        &weights,
                        &provenance,
                        this.clock().now_ms(),
                        Some((who.user_id, &reasons)),
                    )
                    .await
                    .map(|row| summary(&row)),
                Err(e) => Err(e),
            };
            // Resumed as after any hold: play waits for both players' Ready.
            for room in paused {
                let resume = Command::AdminResume { reasons: reasons.clone() };
                if let Err(e) = this.command(room, who.clone(), resume).await {
                    tracing::error!(room, error = ?e, "a room paused for training did not resume");
                }
            }
            this.training().update(|s| match stored {
                Ok(model) => {
                    s.state = RunState::Finished;
                    s.model = Some(model);
                }
                Err(AppError::TrainingRefused { why }) => {
                    s.state = RunState::Failed;
                    s.refusal = Some(why);
                }
                Err(_) => s.state = RunState::Failed,
            });
        });
        Ok(self.training().status())
    }

    /// Rebuilds the samples (refusing games whose replay does not reproduce the final board
    /// and turn) and trains, reporting every epoch. Returns the weights and the provenance.
    async fn run_training(
        &self,
        eligible: Vec<Eligible>,
        start: ModelRow,
        req: TrainingRequest,
    ) -> Result<(engine::computer::Weights, String), AppError> {
        let training = self.training();
        let job = move || {
            let mut games: Vec<GameSamples> = Vec::new();
            let mut ids: Vec<(String, u32)> = Vec::new();
            for (i, e) in eligible.iter().enumerate() {
                let Some(winner) = e.state.result().and_then(|r| r.winner()) else { continue };
                // The engine's own record of the stored log, replayed with every rule and
                // compared with the board and turn the room's log arrived at (003 §12.1).
                let record = e.state.game.record();
                let expected = FinalPosition::of(&e.state.game);
                match samples_from_record(&record, winner, &expected, AlternativePolicy::DEFAULT, req.seed ^ i as u64) {
                    Ok(s) => {
                        games.push(s);
                        ids.push((format!("room-{}", e.game.room_id), e.game.statement as u32));
                    }
                    Err(err) => {
                        tracing::warn!(room = e.game.room_id, error = %err, "samples refused");
                        let room_id = e.game.room_id;
                        training.update(|s| {
                            s.excluded.push(Exclusion { room_id, kind: ExclusionKind::ReplayMismatch });
                        });
                    }
                }
            }
            training.update(|s| s.state = RunState::Training);
            let cfg = TrainConfig { epochs: req.epochs, seed: req.seed, ..TrainConfig::default() };
            let mut on_epoch = |r: &engine::computer::train::EpochReport| {
                let point = EpochPoint {
                    epoch: r.epoch,
                    accuracy: r.holdout.accuracy,
                    log_loss: r.holdout.log_loss,
                    top1: r.holdout.top1,
                    mean_rank: r.holdout.mean_rank,
                    train_log_loss: r.train_log_loss,
                };
                training.update(|s| s.epochs.push(point));
                Control::Continue
            };
            let outcome = train(&games, &start.weights, &cfg, &mut on_epoch).map_err(|e| match e {
                TrainError::TooFewGames { have, need } => AppError::TrainingRefused {
                    why: TrainingRefusal::TooFewGames { have: have as u32, need: need as u32 },
                },
                TrainError::EpochsOutOfRange { got, min, max } => {
                    AppError::TrainingRefused { why: TrainingRefusal::EpochsOutOfRange { got, min, max } }
                }
                TrainError::NoPairs => AppError::TrainingRefused { why: TrainingRefusal::NoPairs },
                other => {
                    tracing::error!(error = %other, "training refused its configuration");
                    AppError::Internal
                }
            })?;
            training.update(|s| {
                s.pairs = Some([
                    outcome.pairs.train_available,
                    u64::from(outcome.pairs.train_used),
                    outcome.pairs.holdout_available,
                    u64::from(outcome.pairs.holdout_used),
                ])
            });
            let provenance = serde_json::json!({
                "source_games": outcome.source_games(&ids).unwrap_or_default(),
                "metrics": outcome.summary(),
                "trained_from": engine::computer::model::fingerprint(&start.weights),
                "note": format!("trained from model {} version {}, {} epochs, seed {}", start.id, start.version, req.epochs, req.seed),
            });
            Ok((outcome.weights, provenance.to_string()))
        };
        tokio::task::spawn_blocking(job).await.map_err(|_| AppError::Internal)?
    }
}
