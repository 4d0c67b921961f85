//! Criterion benches of the learning code (003 §12.1–12.3): rebuilding the
//! samples of a 300-move 19×19 game, and training on 20,000 pairs for
//! 50 epochs.
//! Run: `cargo bench -p engine --bench learning`; the medians are in
//! `target/criterion/<group>/<bench>/new/estimates.json` (`median.point_estimate`, ns).

use criterion::{criterion_group, criterion_main, Criterion};
use engine::computer::samples::{samples_from_record, AlternativePolicy, FinalPosition, GameSamples, MoveSample};
use engine::computer::train::{train, Control, TrainConfig};
use engine::computer::{Weights, FEATURE_COUNT};
use engine::playout::SplitMix64;
use engine::{Color, Game, Geometry, Move, Rules};
use std::hint::black_box;
use std::time::Duration;

/// A classic 19×19 game of `moves` random legal moves (no own-eye fills;
/// passes only when nothing else is legal).
fn random_game(moves: u32, seed: u64) -> Game {
    let mut g = Game::new(Geometry::flat(19, 19).unwrap(), Rules::classic()).unwrap();
    let mut rng = SplitMix64::new(seed);
    while g.move_number() < moves && g.phase() == engine::Phase::Playing {
        let c = g.to_move();
        let legal: Vec<_> = g.legal_points(c).into_iter().filter(|&p| !g.board().is_single_point_eye(p, c)).collect();
        let mv = if legal.is_empty() { Move::Pass } else { Move::Place(legal[rng.below(legal.len())]) };
        g.play(c, mv).unwrap();
    }
    g
}

fn sample_rebuild(c: &mut Criterion) {
    let g = random_game(300, 7);
    assert_eq!(g.move_number(), 300);
    let (record, fin) = (g.record(), FinalPosition::of(&g));
    let mut grp = c.benchmark_group("samples");
    grp.sample_size(20).measurement_time(Duration::from_secs(8));
    grp.bench_function("rebuild_19x19_300_moves", |b| {
        b.iter(|| {
            let s = samples_from_record(black_box(&record), Color::Black, &fin, AlternativePolicy::DEFAULT, 1).unwrap();
            black_box(s.pair_count())
        })
    });
    grp.finish();
}

/// 8 synthetic games × 100 moves × 40 alternatives: 24,000 training pairs
/// offered (the cap keeps 20,000) and 8,000 held out.
fn synthetic_games() -> Vec<GameSamples> {
    let mut rng = SplitMix64::new(3);
    let mut f = |chosen: bool| {
        let mut v = [0.0f32; FEATURE_COUNT];
        for x in &mut v {
            *x = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        }
        v[0] += if chosen { 0.5 } else { 0.0 };
        v
    };
    (0..8)
        .map(|_| GameSamples {
            winner: Color::Black,
            policy: AlternativePolicy::All,
            seed: 0,
            undone: 0,
            moves: (0..100)
                .map(|k| MoveSample {
                    chosen: f(true),
                    alternatives: (0..40).map(|_| f(false)).collect(),
                    legal_moves: 41,
                    move_number: 2 * k + 1,
                })
                .collect(),
        })
        .collect()
}

fn training(c: &mut Criterion) {
    let games = synthetic_games();
    let cfg = TrainConfig { epochs: 50, seed: 1, ..TrainConfig::default() };
    let start = Weights([0.0; FEATURE_COUNT]);
    let out = train(&games, &start, &cfg, &mut |_| Control::Continue).unwrap();
    assert_eq!(out.pairs.train_used, 20_000);
    let mut grp = c.benchmark_group("train");
    grp.sample_size(10).measurement_time(Duration::from_secs(10));
    grp.bench_function("20000_pairs_50_epochs", |b| {
        b.iter(|| {
            let out = train(black_box(&games), &start, &cfg, &mut |_| Control::Continue).unwrap();
            black_box(out.weights)
        })
    });
    grp.finish();
}

criterion_group!(benches, sample_rebuild, training);
criterion_main!(benches);
