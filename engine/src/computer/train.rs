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
mod tests {
    use super::*;
    use crate::board::Color;
    use crate::computer::samples::{AlternativePolicy, MoveSample};
    use crate::computer::FeatureVector;
    use rand_chacha::rand_core::Rng;

    fn unit(r: &mut ChaCha8Rng) -> f32 {
        (r.next_u32() >> 8) as f32 / (1u32 << 24) as f32
    }

    /// `n` games of `moves` samples with `alts` alternatives each. Feature
    /// `key` alone decides: the chosen move has 1 there, every alternative 0;
    /// the other features are noise in [0, 1).
    fn synthetic(n: usize, moves: usize, alts: usize, key: Feature, seed: u64) -> Vec<GameSamples> {
        let mut r = ChaCha8Rng::seed_from_u64(seed);
        let vec = |r: &mut ChaCha8Rng, chosen: bool| -> FeatureVector {
            let mut f = [0.0; FEATURE_COUNT];
            for x in &mut f {
                *x = unit(r);
            }
            f[key.index()] = if chosen { 1.0 } else { 0.0 };
            f
        };
        (0..n)
            .map(|_| GameSamples {
                winner: Color::Black,
                policy: AlternativePolicy::All,
                seed: 0,
                undone: 0,
                moves: (0..moves)
                    .map(|k| MoveSample {
                        chosen: vec(&mut r, true),
                        alternatives: (0..alts).map(|_| vec(&mut r, false)).collect(),
                        legal_moves: alts as u32 + 1,
                        move_number: 2 * k as u32 + 1,
                    })
                    .collect(),
            })
            .collect()
    }

    fn run(games: &[GameSamples], cfg: &TrainConfig) -> Result<TrainOutcome, TrainError> {
        train(games, &Weights([0.0; FEATURE_COUNT]), cfg, &mut |_| Control::Continue)
    }

    #[test]
    fn the_split_never_puts_a_game_on_both_sides() {
        for n in 2..=13usize {
            let eligible: Vec<usize> = (0..n).map(|i| 3 * i + 1).collect();
            for seed in 0..40 {
                for share in [0.05, 0.25, 0.5, 0.95] {
                    let (train, hold) = split_games(&eligible, share, seed);
                    assert!(!train.is_empty() && !hold.is_empty(), "n {n} seed {seed}");
                    assert!(train.iter().all(|g| !hold.contains(g)), "n {n} seed {seed}");
                    let mut all = [train.clone(), hold.clone()].concat();
                    all.sort_unstable();
                    assert_eq!(all, eligible);
                    assert!(train.windows(2).all(|w| w[0] < w[1]) && hold.windows(2).all(|w| w[0] < w[1]));
                    let h = ((n as f64 * share).round() as usize).clamp(1, n - 1);
                    assert_eq!(hold.len(), h);
                }
            }
        }
        // The seed decides which games are held out.
        let eligible: Vec<usize> = (0..12).collect();
        let splits: std::collections::HashSet<Vec<usize>> =
            (0..20).map(|s| split_games(&eligible, 0.25, s).1).collect();
        assert!(splits.len() > 10, "{splits:?}");
    }

    #[test]
    fn training_learns_the_deciding_feature() {
        let games = synthetic(8, 30, 20, Feature::SavesAtari, 3);
        let cfg = TrainConfig { epochs: 15, seed: 11, ..TrainConfig::default() };
        let mut seen = Vec::new();
        let out = train(&games, &Weights([0.0; FEATURE_COUNT]), &cfg, &mut |r| {
            seen.push(r.epoch);
            Control::Continue
        })
        .unwrap();
        assert_eq!(seen, (0..=15).collect::<Vec<_>>());
        assert_eq!(out.epochs.len(), 16);
        let (first, last) = (out.epochs[0], out.epochs[15]);
        // All weights 0: every pair ties.
        assert_eq!(first.holdout.accuracy, 0.5);
        assert!((first.holdout.log_loss - std::f64::consts::LN_2).abs() < 1e-12);
        assert_eq!(first.holdout.mean_rank, 1.0 + 0.5 * 20.0);
        let w = out.weights.0;
        let key = w[Feature::SavesAtari.index()];
        assert!(key > 2.0, "{w:?}");
        assert!(w.iter().enumerate().all(|(i, x)| i == Feature::SavesAtari.index() || x.abs() < key / 2.0), "{w:?}");
        assert!(last.holdout.accuracy > 0.99, "{:?}", last.holdout);
        assert!(last.holdout.top1 > 0.95, "{:?}", last.holdout);
        assert!(last.holdout.mean_rank < 1.1, "{:?}", last.holdout);
        assert!(last.holdout.log_loss < 0.2, "{:?}", last.holdout);
        assert!(last.train_log_loss < first.train_log_loss);
        assert!(!out.stopped);
        let s = out.summary().unwrap();
        assert_eq!(s.epochs, 15);
        assert_eq!(s.holdout_accuracy, last.holdout.accuracy);
        assert_eq!(s.start_holdout_accuracy, 0.5);
        assert_eq!((s.train_games, s.holdout_games), (6, 2));
    }

    #[test]
    fn training_moves_a_wrong_start_weight() {
        // Start with the deciding weight at −5: the held-out accuracy starts
        // low and ends high.
        let games = synthetic(6, 20, 10, Feature::Captures, 8);
        let mut start = Weights([0.0; FEATURE_COUNT]);
        start.0[Feature::Captures.index()] = -5.0;
        let cfg = TrainConfig { epochs: 30, seed: 2, learning_rate: 0.1, ..TrainConfig::default() };
        let out = train(&games, &start, &cfg, &mut |_| Control::Continue).unwrap();
        assert!(out.epochs[0].holdout.accuracy < 0.01, "{:?}", out.epochs[0].holdout);
        assert!(out.weights.0[Feature::Captures.index()] > 1.0, "{:?}", out.weights);
        assert!(out.epochs.last().unwrap().holdout.accuracy > 0.99);
    }

    #[test]
    fn fixed_seed_fixed_result() {
        let games = synthetic(5, 10, 12, Feature::Liberties, 1);
        let cfg = TrainConfig { epochs: 5, seed: 42, batch_size: 16, ..TrainConfig::default() };
        let a = run(&games, &cfg).unwrap();
        let b = run(&games, &cfg).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.weights.0.map(f64::to_bits), b.weights.0.map(f64::to_bits));
        let c = run(&games, &TrainConfig { seed: 43, ..cfg }).unwrap();
        assert_ne!(a.weights, c.weights);
    }

    #[test]
    fn caps_limit_the_pairs_used_and_count_the_rest() {
        // 6 games × 40 moves × 50 alternatives = 12,000 pairs.
        let games = synthetic(6, 40, 50, Feature::PutsInAtari, 4);
        let cfg =
            TrainConfig { epochs: 1, seed: 5, max_train_pairs: 1000, max_holdout_pairs: 300, ..Default::default() };
        let out = run(&games, &cfg).unwrap();
        let side = |g: &[usize]| g.iter().map(|&i| games[i].pair_count()).sum::<u64>();
        assert_eq!(out.pairs.train_available, side(&out.train_games));
        assert_eq!(out.pairs.holdout_available, side(&out.holdout_games));
        assert_eq!(out.pairs.train_available + out.pairs.holdout_available, 12_000);
        assert_eq!(out.pairs.train_used, 1000);
        assert_eq!(out.pairs.holdout_used, 300);
        assert_eq!(out.epochs[1].holdout.pairs, 300);
        assert!(out.epochs[1].holdout.moves <= 300);
        // Under the caps everything is used.
        let out = run(&games, &TrainConfig { epochs: 1, ..Default::default() }).unwrap();
        assert_eq!(u64::from(out.pairs.train_used), out.pairs.train_available);
        assert_eq!(u64::from(out.pairs.holdout_used), out.pairs.holdout_available);
        // The 003 §12.3 limits cannot be raised.
        for (cfg, field) in [
            (TrainConfig { max_train_pairs: 20_001, ..Default::default() }, "max_train_pairs"),
            (TrainConfig { max_holdout_pairs: 10_001, ..Default::default() }, "max_holdout_pairs"),
            (TrainConfig { max_train_pairs: 0, ..Default::default() }, "max_train_pairs"),
            (TrainConfig { holdout_share: 1.0, ..Default::default() }, "holdout_share"),
            (TrainConfig { learning_rate: 0.0, ..Default::default() }, "learning_rate"),
            (TrainConfig { learning_rate: f64::NAN, ..Default::default() }, "learning_rate"),
            (TrainConfig { l2: -1e-3, ..Default::default() }, "l2"),
            (TrainConfig { batch_size: 0, ..Default::default() }, "batch_size"),
        ] {
            match run(&games, &cfg) {
                Err(TrainError::BadConfig { field: f, .. }) => assert_eq!(f, field),
                other => panic!("{field}: {other:?}"),
            }
        }
    }

    #[test]
    fn the_pair_selection_is_uniform_and_seeded() {
        let mut r = rng(1, 9);
        let mut count = vec![0u32; 10];
        for _ in 0..4000 {
            let v = choose_sorted(10, 3, &mut r);
            assert_eq!(v.len(), 3);
            assert!(v.windows(2).all(|w| w[0] < w[1]));
            for x in v {
                count[x as usize] += 1;
            }
        }
        assert!(count.iter().all(|&c| (1080..1320).contains(&c)), "{count:?}");
        assert_eq!(choose_sorted(5, 5, &mut r), [0, 1, 2, 3, 4]);
    }

    #[test]
    fn refusals() {
        let games = synthetic(3, 2, 2, Feature::Captures, 0);
        let cfg = TrainConfig::default();
        assert_eq!(run(&[], &cfg).unwrap_err(), TrainError::TooFewGames { have: 0, need: 2 });
        assert_eq!(run(&games[..1], &cfg).unwrap_err(), TrainError::TooFewGames { have: 1, need: 2 });
        for got in [0, 51] {
            assert_eq!(
                run(&games, &TrainConfig { epochs: got, ..cfg }).unwrap_err(),
                TrainError::EpochsOutOfRange { got, min: 1, max: 50 }
            );
        }
        let mut empty = games.clone();
        for g in &mut empty {
            g.moves.iter_mut().for_each(|m| m.alternatives.clear());
        }
        assert_eq!(run(&empty, &cfg).unwrap_err(), TrainError::NoPairs);
        empty[2] = games[2].clone();
        assert_eq!(run(&empty, &cfg).unwrap_err(), TrainError::TooFewGames { have: 1, need: 2 });
        empty[0] = games[0].clone();
        let out = run(&empty, &cfg).unwrap();
        assert_eq!(out.empty_games, [1]);
        assert_eq!([out.train_games.clone(), out.holdout_games.clone()].concat().len(), 2);
        let mut bad = Weights([0.0; FEATURE_COUNT]);
        bad.0[Feature::FillsOwnEye.index()] = 101.0;
        assert_eq!(
            train(&games, &bad, &cfg, &mut |_| Control::Continue).unwrap_err(),
            TrainError::BadStart { feature: "fills_own_eye", value: 101.0 }
        );
        let mut nan = games.clone();
        nan[1].moves[1].alternatives[0][3] = f32::NAN;
        assert_eq!(run(&nan, &cfg).unwrap_err(), TrainError::NonFinite { game: 1, sample: 1 });
    }

    #[test]
    fn the_callback_can_stop() {
        let games = synthetic(4, 5, 5, Feature::Captures, 0);
        let cfg = TrainConfig { epochs: 10, ..TrainConfig::default() };
        let out = train(&games, &Weights([0.0; 8]), &cfg, &mut |r| {
            if r.epoch == 2 {
                Control::Stop
            } else {
                Control::Continue
            }
        })
        .unwrap();
        assert!(out.stopped);
        assert_eq!(out.epochs.iter().map(|e| e.epoch).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(out.weights, out.epochs[2].weights);
        let out = train(&games, &Weights([0.0; 8]), &cfg, &mut |_| Control::Stop).unwrap();
        assert_eq!(out.weights, Weights([0.0; 8]));
        assert_eq!(out.summary(), None);
    }

    #[test]
    fn metrics_by_hand() {
        // One move with three alternatives; w = (1, 0, …).
        let d = |x: f32| {
            let mut v = [0.0; FEATURE_COUNT];
            v[0] = x;
            v
        };
        let p = Pairs { delta: vec![d(2.0), d(0.0), d(-1.0), d(1.0)], moves: vec![(0, 3), (3, 4)], available: 4 };
        let mut w = Weights([0.0; FEATURE_COUNT]);
        w.0[0] = 1.0;
        let m = evaluate(&w, &p);
        assert_eq!(m.pairs, 4);
        assert_eq!(m.moves, 2);
        assert_eq!(m.accuracy, (1.0 + 0.5 + 0.0 + 1.0) / 4.0);
        let ll = |z: f64| (1.0 + (-z).exp()).ln();
        assert!((m.log_loss - (ll(2.0) + ll(0.0) + ll(-1.0) + ll(1.0)) / 4.0).abs() < 1e-12);
        // Move 1: one alternative higher, one tie → rank 2.5, not top; move 2: rank 1, top.
        assert_eq!(m.mean_rank, (2.5 + 1.0) / 2.0);
        assert_eq!(m.top1, 0.5);
        assert!((softplus_neg(-800.0) - 800.0).abs() < 1e-9 && softplus_neg(800.0) < 1e-300);
        assert!(sigmoid(-800.0) >= 0.0 && sigmoid(800.0) == 1.0);
    }

    #[test]
    fn weights_stay_within_the_model_bound() {
        // A huge step on separable data would run away without the clamp.
        let games = synthetic(4, 20, 10, Feature::Captures, 6);
        let cfg = TrainConfig { epochs: 50, learning_rate: 1.0, l2: 0.0, batch_size: 1, ..Default::default() };
        let out = run(&games, &cfg).unwrap();
        assert!(out.weights.0.iter().all(|w| w.abs() <= WEIGHT_BOUND), "{:?}", out.weights);
        assert!(crate::computer::model::check_weights(&out.weights, "weights").is_ok());
    }

    #[test]
    fn source_games_name_each_side() {
        let games = synthetic(4, 3, 3, Feature::Captures, 0);
        let out = run(&games, &TrainConfig { epochs: 1, ..Default::default() }).unwrap();
        let ids: Vec<(String, u32)> = (0..4).map(|i| (format!("{}", 10 + i), i as u32 + 1)).collect();
        let s = out.source_games(&ids).unwrap();
        assert_eq!(s.len(), 4);
        for (i, g) in s.iter().enumerate() {
            assert_eq!(g.room, format!("{}", 10 + i));
            assert_eq!(g.held_out, out.holdout_games.contains(&i));
        }
        assert_eq!(out.source_games(&ids[..2]), None);
    }

    /// Records → samples → training → a model file that validates.
    #[test]
    fn from_records_to_a_model_file() {
        use crate::computer::model::{ModelFile, Provenance};
        use crate::computer::samples::{samples_from_record, FinalPosition};
        use crate::game::{Game, Move};
        use crate::geometry::Geometry;
        use crate::rules::Rules;
        use crate::scoring::ScoringMarks;
        let mut games = Vec::new();
        for seed in 0..4u64 {
            let mut g = Game::new(Geometry::flat(9, 9).unwrap(), Rules::classic()).unwrap();
            let mut r = ChaCha8Rng::seed_from_u64(seed);
            while g.move_number() < 40 {
                let c = g.to_move();
                let legal = g.legal_points(c);
                let mv = if legal.is_empty() {
                    Move::Pass
                } else {
                    Move::Place(legal[below(&mut r, legal.len() as u64) as usize])
                };
                g.play(c, mv).unwrap();
            }
            g.finish_by_score(&ScoringMarks::default()).unwrap();
            let Some(winner) = g.result().and_then(|r| r.winner()) else { continue };
            let s = samples_from_record(&g.record(), winner, &FinalPosition::of(&g), AlternativePolicy::DEFAULT, seed)
                .unwrap();
            assert_eq!(s.moves.len(), 20);
            games.push(s);
        }
        assert!(games.len() >= 2);
        let start = crate::computer::DEFAULT_WEIGHTS;
        let out = train(&games, &start, &TrainConfig { epochs: 3, ..Default::default() }, &mut |_| Control::Continue)
            .unwrap();
        let ids: Vec<(String, u32)> = (0..games.len()).map(|i| (format!("{}", i + 1), 1)).collect();
        let p = Provenance {
            model_id: "m-2".into(),
            version: 2,
            created_at: "2025-12-01T10:00:00+09:00".into(),
            source_games: out.source_games(&ids).unwrap(),
            metrics: out.summary(),
            trained_from: Some(crate::computer::model::fingerprint(&start)),
            note: None,
        };
        let m = ModelFile::new(out.weights, p).unwrap();
        assert_eq!(ModelFile::from_json(&m.to_json()).unwrap(), m);
    }
}
