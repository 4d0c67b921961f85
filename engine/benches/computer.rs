//! Criterion benches of the basic computer: the features of all legal moves
//! and a level-1 move on a 25×25×25 midgame position, a level-2 move on 9×9
//! with a fixed playout count.
//! Run: `cargo bench -p engine --bench computer`.

use criterion::{criterion_group, criterion_main, Criterion};
use engine::computer::features::all_features;
use engine::computer::{choose_move, evaluator, Level, SearchLimits, DEFAULT_WEIGHTS};
use engine::Geometry;
use std::hint::black_box;

mod common;
use common::random_game;

fn cube_midgame(c: &mut Criterion) {
    // 25³ with 5,000 moves: about a third of the points hold stones.
    let g = random_game(Geometry::cube(25).unwrap(), 5000, 7);
    let color = g.to_move();
    let mut grp = c.benchmark_group("computer_25cubed");
    grp.sample_size(20);
    grp.bench_function("all_features", |b| b.iter(|| black_box(all_features(black_box(&g), color).len())));
    grp.bench_function("level1_move", |b| {
        b.iter(|| black_box(evaluator::choose(black_box(&g), color, &DEFAULT_WEIGHTS, 3).mv))
    });
    grp.finish();
}

fn level2_9x9(c: &mut Criterion) {
    let g = random_game(Geometry::flat(9, 9).unwrap(), 20, 11);
    let color = g.to_move();
    let mut grp = c.benchmark_group("computer_9x9");
    grp.sample_size(10);
    grp.bench_function("level2_move_2000_playouts", |b| {
        b.iter(|| {
            let limits = SearchLimits { max_playouts: 2000 };
            black_box(choose_move(&g, color, &DEFAULT_WEIGHTS, Level::Search, 5, limits, &mut || false).mv)
        })
    });
    grp.finish();
}

criterion_group!(benches, cube_midgame, level2_9x9);
criterion_main!(benches);
