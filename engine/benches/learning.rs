//! Criterion benches of the learning code (issue 13 §4, §5; 003 §12.1–12.3):
//! rebuilding the samples of a 300-move 19×19 game, and training on 20,000
//! pairs for 50 epochs.
//! Run: `cargo bench -p engine --bench learning`; the medians are in
//! `target/criterion/<group>/<bench>/new/estimates.json` (`median.point_estimate`, ns).

use criterion::{criterion_group, criterion_main, Criterion};
use engine::computer::samples::{samples_from_record, AlternativePolicy, FinalPosition};
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

criterion_group!(benches, sample_rebuild);
criterion_main!(benches);
