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
    let splits: std::collections::HashSet<Vec<usize>> = (0..20).map(|s| split_games(&eligible, 0.25, s).1).collect();
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
    let cfg = TrainConfig { epochs: 1, seed: 5, max_train_pairs: 1000, max_holdout_pairs: 300, ..Default::default() };
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
    use crate::game::scoring::ScoringMarks;
    use crate::game::{Game, Move};
    use crate::geometry::Geometry;
    use crate::rules::Rules;
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
        let s =
            samples_from_record(&g.record(), winner, &FinalPosition::of(&g), AlternativePolicy::DEFAULT, seed).unwrap();
        assert_eq!(s.moves.len(), 20);
        games.push(s);
    }
    assert!(games.len() >= 2);
    let start = crate::computer::DEFAULT_WEIGHTS;
    let out =
        train(&games, &start, &TrainConfig { epochs: 3, ..Default::default() }, &mut |_| Control::Continue).unwrap();
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
