//! Criterion benches: play+capture (random playouts), legal-point set,
//! scoring of a full 25³ board, record replay.
//! Run: `cargo bench -p engine --bench engine`.

use criterion::{criterion_group, criterion_main, Criterion};
use engine::playout::{random_playout, PlayoutStats, Playouts, SplitMix64};
use engine::{replay_json, score_simple_area, Board, Color, Game, Geometry, Rules};
use std::hint::black_box;
use std::sync::Arc;

mod common;
use common::random_game;

fn playouts(c: &mut Criterion) {
    let mut grp = c.benchmark_group("play_capture");
    for (name, geom) in [("19x19x1", Geometry::flat(19, 19).unwrap()), ("9x9x1", Geometry::flat(9, 9).unwrap())] {
        let mut runner = Playouts::new(Arc::new(geom));
        let mut rng = SplitMix64::new(1);
        grp.bench_function(format!("playout_{name}"), |b| b.iter(|| black_box(runner.run(1, &mut rng))));
    }
    grp.sample_size(20);
    let geom = Arc::new(Geometry::cube(25).unwrap());
    let mut runner = Playouts::new(geom.clone());
    let mut rng = SplitMix64::new(2);
    grp.bench_function("playout_25x25x25", |b| b.iter(|| black_box(runner.run(1, &mut rng))));
    // Moves per playout, for converting the medians above into moves per second.
    for (name, g) in [("19x19x1", Arc::new(Geometry::flat(19, 19).unwrap())), ("25x25x25", geom)] {
        let mut b = Board::new(g);
        let mut rng = SplitMix64::new(3);
        let mut st = PlayoutStats::default();
        for _ in 0..20 {
            b.clear();
            random_playout(&mut b, Color::Black, &mut rng, &mut st);
        }
        eprintln!("moves per playout {name}: {:.1}", st.moves as f64 / st.playouts as f64);
    }
    grp.finish();
}

fn legal_points(c: &mut Criterion) {
    let g = random_game(Geometry::cube(25).unwrap(), 6000, 4);
    let color = g.to_move();
    c.bench_function("legal_points_25x25x25_midgame", |b| b.iter(|| black_box(g.legal_points(color))));
    let g19 = random_game(Geometry::flat(19, 19).unwrap(), 150, 5);
    c.bench_function("legal_points_19x19_midgame", |b| b.iter(|| black_box(g19.legal_points(Color::Black))));
}

fn scoring(c: &mut Criterion) {
    // A full 25³ board: the end of a random playout (every point filled except eyes).
    let geom = Arc::new(Geometry::cube(25).unwrap());
    let mut runner = Playouts::new(geom.clone());
    let mut rng = SplitMix64::new(6);
    runner.run(1, &mut rng);
    let board = runner.board().clone();
    let mut g = Game::with_geometry(geom, Rules::space()).unwrap();
    let changes: Vec<_> = board.geometry().points().map(|p| (p, board.stone_at(p))).filter(|x| x.1.is_some()).collect();
    g.set_stones(&changes).unwrap();
    eprintln!("25³ scoring board: {} empty of {}", g.board().empty_count(), g.geometry().len());
    c.bench_function("score_full_25x25x25", |b| b.iter(|| black_box(score_simple_area(&g))));
}

fn replay(c: &mut Criterion) {
    let g = random_game(Geometry::flat(19, 19).unwrap(), 300, 7);
    let json = g.record().to_json();
    eprintln!("replay record: {} actions", g.log().len());
    c.bench_function("replay_json_19x19_300", |b| b.iter(|| black_box(replay_json(&json).unwrap())));
    let moves = g.moves();
    c.bench_function("replay_moves_19x19_300", |b| {
        b.iter(|| {
            let mut r = Game::new(Geometry::flat(19, 19).unwrap(), Rules::space()).unwrap();
            for &(c, m) in &moves {
                r.play(c, m).unwrap();
            }
            black_box(r)
        })
    });
}

criterion_group!(benches, playouts, legal_points, scoring, replay);
criterion_main!(benches);
