//! Training of the eight weights and held-out metrics (003 §12.2–12.4).
//!
//! # Objective
//!
//! Every [`MoveSample`](super::samples::MoveSample) gives one pair per kept
//! alternative: (chosen move, alternative), with the feature difference
//! `Δ = f_chosen − f_alt`. The model is logistic in that difference:
//!
//! ```text
//! P(chosen ≻ alt) = σ(w · Δ),   σ(z) = 1 / (1 + e^(−z))
//! ```
//!
//! Training minimises the mean log loss over the training pairs plus an L2
//! term: `L(w) = mean(−ln σ(w · Δ)) + (l2 / 2) · |w|²`, by mini-batch Adam
//! (β₁ = 0.9, β₂ = 0.999, ε = 1e-8; step [`TrainConfig::learning_rate`],
//! batches of [`TrainConfig::batch_size`] pairs in an order shuffled each
//! epoch). After every step each weight is clamped to ±[`WEIGHT_BOUND`], so
//! the result can always be exported. Everything is seeded and
//! deterministic: the same games, start weights and config give the same
//! weights, bit for bit.
//!
//! # Split and caps
//!
//! Games without pairs take no part (listed in [`TrainOutcome::empty_games`]);
//! at least two games with pairs are needed (003 §12.2). They are split by
//! whole game (003 §12.3): `h = round(n · holdout_share)`, clamped to
//! `1..=n−1`, games are held out, drawn by a seeded shuffle; the rest train.
//! The pair caps ([`MAX_TRAIN_PAIRS`], [`MAX_HOLDOUT_PAIRS`] at most) are
//! processing limits, not deletions: when a side offers more pairs, a seeded
//! uniform selection of exactly the cap is used and both numbers are
//! reported ([`PairCounts`]). Random streams: `ChaCha8Rng::seed_from_u64(seed)`
//! with stream 1 for the split, 2 for the training selection, 3 for the
//! held-out selection and 4 for the batch order, so changing a cap does not
//! change the split.
//!
//! # Metrics (held-out pairs only; 003 §12.4: they do not prove strength)
//!
//! With `z = w · Δ` for each held-out pair:
//! * **accuracy** (move preference) — share of pairs with `z > 0`, a tie
//!   (`z = 0`, e.g. an alternative with the same features) counting ½;
//! * **log loss** — mean of `−ln σ(z)` (natural log; ln 2 ≈ 0.693 for w = 0);
//! * **top-1** — per held-out move: 1 if no kept alternative scores higher
//!   and `t` tie, counted `1/(1+t)`, else 0; averaged over moves;
//! * **mean rank** — per move `1 + (alternatives scoring higher) + ½ (ties)`,
//!   averaged over moves (1 = always the best). Ranks are among the
//!   alternatives *kept* (the sample policy and the held-out cap keep a
//!   subset on large boxes), so compare them within one run, not across runs.
//!
//! Epoch 0 in the reports is the start weights, before any step.

use super::model::{
    SourceGame, TrainMetricsSummary, MAX_EPOCHS, MAX_HOLDOUT_PAIRS, MAX_TRAIN_PAIRS, MIN_EPOCHS, WEIGHT_BOUND,
};
use super::samples::{below, GameSamples};
use super::{Feature, Weights, FEATURE_COUNT};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Settings of one training run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainConfig {
    /// 1–50 (003 §12.3).
    pub epochs: u32,
    pub seed: u64,
    /// Share of games held out, 0.05–0.95 (default 0.25).
    pub holdout_share: f64,
    /// Adam step size, above 0 and at most 1 (default 0.05).
    pub learning_rate: f64,
    /// L2 coefficient, 0–1 (default 1e-4).
    pub l2: f64,
    /// Pairs per step, 1–20,000 (default 256).
    pub batch_size: u32,
    /// Training pairs used at most, 1–20,000 (default 20,000).
    pub max_train_pairs: u32,
    /// Held-out pairs used at most, 1–10,000 (default 10,000).
    pub max_holdout_pairs: u32,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 20,
            seed: 0,
            holdout_share: 0.25,
            learning_rate: 0.05,
            l2: 1e-4,
            batch_size: 256,
            max_train_pairs: MAX_TRAIN_PAIRS,
            max_holdout_pairs: MAX_HOLDOUT_PAIRS,
        }
    }
}

/// What the progress callback returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    /// Stop now; the outcome keeps the weights of the epoch just reported.
    Stop,
}

/// Held-out metrics of one set of weights (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeldOutMetrics {
    pub accuracy: f64,
    pub log_loss: f64,
    pub top1: f64,
    pub mean_rank: f64,
    /// Held-out moves with at least one used pair.
    pub moves: u32,
    pub pairs: u32,
}

/// The state after one epoch (epoch 0: the start weights).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpochReport {
    pub epoch: u32,
    pub weights: Weights,
    /// Mean log loss over the used training pairs (without the L2 term).
    pub train_log_loss: f64,
    pub holdout: HeldOutMetrics,
}

/// Pairs offered by each side's games and pairs used (at most the caps).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairCounts {
    pub train_available: u64,
    pub train_used: u32,
    pub holdout_available: u64,
    pub holdout_used: u32,
}

/// The result of [`train`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainOutcome {
    /// The weights after the last epoch run.
    pub weights: Weights,
    /// Epoch 0 (start weights) and every epoch run, in order.
    pub epochs: Vec<EpochReport>,
    /// Indices into the `games` argument, sorted; never overlapping.
    pub train_games: Vec<usize>,
    pub holdout_games: Vec<usize>,
    /// Games that offered no pair (no winner moves, or no alternatives).
    pub empty_games: Vec<usize>,
    pub pairs: PairCounts,
    /// Whether the callback stopped the run before the configured epochs.
    pub stopped: bool,
}

impl TrainOutcome {
    /// The numbers a model file records; `None` when no epoch was run.
    pub fn summary(&self) -> Option<TrainMetricsSummary> {
        let (first, last) = (self.epochs.first()?, self.epochs.last()?);
        if last.epoch == 0 {
            return None;
        }
        Some(TrainMetricsSummary {
            epochs: last.epoch,
            train_games: self.train_games.len() as u32,
            holdout_games: self.holdout_games.len() as u32,
            train_pairs_available: self.pairs.train_available,
            train_pairs: self.pairs.train_used,
            holdout_pairs_available: self.pairs.holdout_available,
            holdout_pairs: self.pairs.holdout_used,
            start_holdout_accuracy: first.holdout.accuracy,
            start_holdout_log_loss: first.holdout.log_loss,
            holdout_accuracy: last.holdout.accuracy,
            holdout_log_loss: last.holdout.log_loss,
            holdout_top1: last.holdout.top1,
            holdout_mean_rank: last.holdout.mean_rank,
        })
    }

    /// The model file's source games: `ids[i]` is the (room, statement) of
    /// `games[i]`; games that took part are listed in index order with their
    /// side. `None` if `ids` is shorter than an index used.
    pub fn source_games(&self, ids: &[(String, u32)]) -> Option<Vec<SourceGame>> {
        let mut all: Vec<(usize, bool)> = self.train_games.iter().map(|&i| (i, false)).collect();
        all.extend(self.holdout_games.iter().map(|&i| (i, true)));
        all.sort_unstable();
        all.into_iter()
            .map(|(i, held_out)| {
                ids.get(i).map(|(room, st)| SourceGame { room: room.clone(), statement: *st, held_out })
            })
            .collect()
    }
}

/// Why training did not run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TrainError {
    /// 003 §12.2: at least two eligible games (with at least one pair each).
    #[error("training needs at least {need} games with learning pairs; {have} given")]
    TooFewGames { have: usize, need: usize },
    /// 003 §12.3: 1–50 epochs.
    #[error("epochs: {got} is outside {min} to {max}")]
    EpochsOutOfRange { got: u32, min: u32, max: u32 },
    #[error("{field}: {value} is outside {min} to {max}")]
    BadConfig { field: &'static str, value: f64, min: f64, max: f64 },
    /// A start weight is not finite or beyond ±100.
    #[error("start weight {feature}: {value} is outside -{bound} to {bound}", bound = WEIGHT_BOUND)]
    BadStart { feature: &'static str, value: f64 },
    /// No game offers a single pair.
    #[error("the games offer no learning pairs (no winner moves with alternatives)")]
    NoPairs,
    /// A stored sample holds a value that is not a finite number.
    #[error("game {game}, move sample {sample}: a feature value is not finite")]
    NonFinite { game: usize, sample: usize },
}

/// The least number of games (003 §12.2).
pub const MIN_GAMES: usize = 2;

const SPLIT_STREAM: u64 = 1;
const TRAIN_PICK_STREAM: u64 = 2;
const HOLDOUT_PICK_STREAM: u64 = 3;
const ORDER_STREAM: u64 = 4;

fn rng(seed: u64, stream: u64) -> ChaCha8Rng {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    r.set_stream(stream);
    r
}

fn check_config(cfg: &TrainConfig) -> Result<(), TrainError> {
    if !(MIN_EPOCHS..=MAX_EPOCHS).contains(&cfg.epochs) {
        return Err(TrainError::EpochsOutOfRange { got: cfg.epochs, min: MIN_EPOCHS, max: MAX_EPOCHS });
    }
    let real = |field, value: f64, min: f64, max: f64, open_min: bool| {
        let ok = value.is_finite() && value <= max && if open_min { value > min } else { value >= min };
        if ok {
            Ok(())
        } else {
            Err(TrainError::BadConfig { field, value, min, max })
        }
    };
    real("holdout_share", cfg.holdout_share, 0.05, 0.95, false)?;
    real("learning_rate", cfg.learning_rate, 0.0, 1.0, true)?;
    real("l2", cfg.l2, 0.0, 1.0, false)?;
    let int = |field, value: u32, max: u32| real(field, value.into(), 1.0, max.into(), false);
    int("batch_size", cfg.batch_size, MAX_TRAIN_PAIRS)?;
    int("max_train_pairs", cfg.max_train_pairs, MAX_TRAIN_PAIRS)?;
    int("max_holdout_pairs", cfg.max_holdout_pairs, MAX_HOLDOUT_PAIRS)?;
    Ok(())
}

/// The whole-game split (see the module documentation): `(train, holdout)`,
/// each sorted, from the indices in `eligible` (at least two).
pub fn split_games(eligible: &[usize], holdout_share: f64, seed: u64) -> (Vec<usize>, Vec<usize>) {
    let n = eligible.len();
    if n < 2 {
        return (eligible.to_vec(), Vec::new());
    }
    let h = ((n as f64 * holdout_share).round() as usize).clamp(1, n - 1);
    let mut order = eligible.to_vec();
    let mut r = rng(seed, SPLIT_STREAM);
    for k in (1..n).rev() {
        order.swap(k, below(&mut r, k as u64 + 1) as usize);
    }
    let (hold, train) = order.split_at(h);
    let (mut hold, mut train) = (hold.to_vec(), train.to_vec());
    hold.sort_unstable();
    train.sort_unstable();
    (train, hold)
}

/// `k` distinct numbers of `0..n` (`k ≤ n`), uniform, sorted (Floyd's algorithm).
fn choose_sorted(n: u64, k: u64, r: &mut ChaCha8Rng) -> Vec<u64> {
    let mut set = std::collections::HashSet::with_capacity(k as usize);
    for j in n - k..n {
        let t = below(r, j + 1);
        if !set.insert(t) {
            set.insert(j);
        }
    }
    let mut v: Vec<u64> = set.into_iter().collect();
    v.sort_unstable();
    v
}

/// The used pairs of one side: differences, and per move the range of its pairs.
struct Pairs {
    delta: Vec<[f32; FEATURE_COUNT]>,
    moves: Vec<(u32, u32)>,
    available: u64,
}

fn collect(games: &[GameSamples], which: &[usize], cap: u32, r: &mut ChaCha8Rng) -> Pairs {
    let available: u64 = which.iter().map(|&g| games[g].pair_count()).sum();
    let picked = (available > u64::from(cap)).then(|| choose_sorted(available, cap.into(), r));
    let mut next = picked.as_ref().map(|v| v.iter().copied().peekable());
    let mut p = Pairs { delta: Vec::new(), moves: Vec::new(), available };
    let mut index = 0u64;
    for &g in which {
        for m in &games[g].moves {
            let start = p.delta.len() as u32;
            for a in &m.alternatives {
                let keep = match next.as_mut() {
                    None => true,
                    Some(it) => it.next_if_eq(&index).is_some(),
                };
                index += 1;
                if keep {
                    let mut d = [0.0f32; FEATURE_COUNT];
                    for (k, x) in d.iter_mut().enumerate() {
                        *x = m.chosen[k] - a[k];
                    }
                    p.delta.push(d);
                }
            }
            let end = p.delta.len() as u32;
            if end > start {
                p.moves.push((start, end));
            }
        }
    }
    p
}

#[inline]
fn dot(w: &[f64; FEATURE_COUNT], d: &[f32; FEATURE_COUNT]) -> f64 {
    let mut s = 0.0;
    for k in 0..FEATURE_COUNT {
        s += w[k] * f64::from(d[k]);
    }
    s
}

/// −ln σ(z), computed without overflow.
#[inline]
fn softplus_neg(z: f64) -> f64 {
    (-z).max(0.0) + (-z.abs()).exp().ln_1p()
}

#[inline]
fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

fn mean_log_loss(w: &Weights, delta: &[[f32; FEATURE_COUNT]]) -> f64 {
    if delta.is_empty() {
        return 0.0;
    }
    delta.iter().map(|d| softplus_neg(dot(&w.0, d))).sum::<f64>() / delta.len() as f64
}

/// The held-out metrics of `w` (see the module documentation).
fn evaluate(w: &Weights, p: &Pairs) -> HeldOutMetrics {
    let (mut right, mut loss) = (0.0, 0.0);
    let (mut top1, mut rank) = (0.0, 0.0);
    for &(s, e) in &p.moves {
        let (mut higher, mut ties) = (0u32, 0u32);
        for d in &p.delta[s as usize..e as usize] {
            let z = dot(&w.0, d);
            loss += softplus_neg(z);
            if z > 0.0 {
                right += 1.0;
            } else if z == 0.0 {
                right += 0.5;
                ties += 1;
            } else {
                higher += 1;
            }
        }
        if higher == 0 {
            top1 += 1.0 / f64::from(1 + ties);
        }
        rank += 1.0 + f64::from(higher) + 0.5 * f64::from(ties);
    }
    let (n, m) = (p.delta.len().max(1) as f64, p.moves.len().max(1) as f64);
    HeldOutMetrics {
        accuracy: right / n,
        log_loss: loss / n,
        top1: top1 / m,
        mean_rank: if p.moves.is_empty() { 1.0 } else { rank / m },
        moves: p.moves.len() as u32,
        pairs: p.delta.len() as u32,
    }
}

/// Train from `start` on `games` (see the module documentation). After the
/// start weights and after every epoch, the held-out metrics are passed to
/// `on_epoch`, which may stop the run.
pub fn train(
    games: &[GameSamples],
    start: &Weights,
    cfg: &TrainConfig,
    on_epoch: &mut dyn FnMut(&EpochReport) -> Control,
) -> Result<TrainOutcome, TrainError> {
    check_config(cfg)?;
    if games.len() < MIN_GAMES {
        return Err(TrainError::TooFewGames { have: games.len(), need: MIN_GAMES });
    }
    for f in Feature::ALL {
        let value = start.0[f.index()];
        if !value.is_finite() || value.abs() > WEIGHT_BOUND {
            return Err(TrainError::BadStart { feature: f.into(), value });
        }
    }
    for (g, s) in games.iter().enumerate() {
        for (k, m) in s.moves.iter().enumerate() {
            if !m.chosen.iter().chain(m.alternatives.iter().flatten()).all(|x| x.is_finite()) {
                return Err(TrainError::NonFinite { game: g, sample: k });
            }
        }
    }
    let (eligible, empty_games): (Vec<usize>, Vec<usize>) = (0..games.len()).partition(|&g| games[g].pair_count() > 0);
    if eligible.is_empty() {
        return Err(TrainError::NoPairs);
    }
    if eligible.len() < MIN_GAMES {
        return Err(TrainError::TooFewGames { have: eligible.len(), need: MIN_GAMES });
    }
    let (train_games, holdout_games) = split_games(&eligible, cfg.holdout_share, cfg.seed);
    let tr = collect(games, &train_games, cfg.max_train_pairs, &mut rng(cfg.seed, TRAIN_PICK_STREAM));
    let ho = collect(games, &holdout_games, cfg.max_holdout_pairs, &mut rng(cfg.seed, HOLDOUT_PICK_STREAM));
    let pairs = PairCounts {
        train_available: tr.available,
        train_used: tr.delta.len() as u32,
        holdout_available: ho.available,
        holdout_used: ho.delta.len() as u32,
    };

    let mut w = *start;
    let report = |epoch, w: &Weights| EpochReport {
        epoch,
        weights: *w,
        train_log_loss: mean_log_loss(w, &tr.delta),
        holdout: evaluate(w, &ho),
    };
    let mut epochs = vec![report(0, &w)];
    let mut stopped = on_epoch(&epochs[0]) == Control::Stop;

    // Adam state.
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let (mut m, mut v) = ([0.0f64; FEATURE_COUNT], [0.0f64; FEATURE_COUNT]);
    let (mut b1t, mut b2t) = (1.0f64, 1.0f64);
    let mut order: Vec<u32> = (0..tr.delta.len() as u32).collect();
    let mut order_rng = rng(cfg.seed, ORDER_STREAM);
    let batch = cfg.batch_size as usize;
    let mut epoch = 0;
    while !stopped && epoch < cfg.epochs {
        epoch += 1;
        for k in (1..order.len()).rev() {
            order.swap(k, below(&mut order_rng, k as u64 + 1) as usize);
        }
        for chunk in order.chunks(batch) {
            let mut g = [0.0f64; FEATURE_COUNT];
            for &i in chunk {
                let d = &tr.delta[i as usize];
                // d/dw of −ln σ(w·Δ) = −(1 − σ(w·Δ)) Δ
                let c = sigmoid(dot(&w.0, d)) - 1.0;
                for k in 0..FEATURE_COUNT {
                    g[k] += c * f64::from(d[k]);
                }
            }
            let inv = 1.0 / chunk.len() as f64;
            b1t *= b1;
            b2t *= b2;
            for k in 0..FEATURE_COUNT {
                let gk = g[k] * inv + cfg.l2 * w.0[k];
                m[k] = b1 * m[k] + (1.0 - b1) * gk;
                v[k] = b2 * v[k] + (1.0 - b2) * gk * gk;
                let step = cfg.learning_rate * (m[k] / (1.0 - b1t)) / ((v[k] / (1.0 - b2t)).sqrt() + eps);
                w.0[k] = (w.0[k] - step).clamp(-WEIGHT_BOUND, WEIGHT_BOUND);
            }
        }
        let r = report(epoch, &w);
        epochs.push(r);
        stopped = on_epoch(&r) == Control::Stop;
    }
    Ok(TrainOutcome {
        weights: w,
        stopped: stopped && epoch < cfg.epochs,
        epochs,
        train_games,
        holdout_games,
        empty_games,
        pairs,
    })
}

#[cfg(test)]
mod tests;
