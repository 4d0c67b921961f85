//! Writes the golden vectors of `engine/tests/data/golden/` (format and
//! purpose: `engine/tests/data/README.md`). Each file is one seeded random
//! game: at every turn a uniformly chosen legal point that is not the
//! mover's own single-point eye, a pass with probability 1/64 (never two in a
//! row by choice), and a pass when no such point is left.
//!
//! ```text
//! cargo run -p engine --release --example golden_vectors -- engine/tests/data/golden
//! ```

#[path = "../tests/golden_format/mod.rs"]
mod golden_format;

use engine::playout::SplitMix64;
use engine::{Axis, BoxSpec, KoRule, Move, Phase};
use golden_format::{check, move_line, Header};

/// File name, axes (actual coordinates), repetition rule, seed, move cap.
type Spec = (&'static str, [(i64, i64); 3], KoRule, u64, usize);

const SPECS: &[Spec] = &[
    ("flat-9x9-seed1", [(1, 9), (1, 9), (1, 1)], KoRule::Immediate, 1, 243),
    ("flat-9x9-seed2", [(1, 9), (1, 9), (1, 1)], KoRule::Immediate, 2, 243),
    ("flat-13x13-seed3", [(1, 13), (1, 13), (1, 1)], KoRule::Immediate, 3, 507),
    ("flat-19x19-seed4", [(1, 19), (1, 19), (1, 1)], KoRule::Immediate, 4, 500),
    ("flat-9x9-superko-seed9", [(1, 9), (1, 9), (1, 1)], KoRule::PositionalSuperko, 9, 243),
    ("flat-9x9-korean-seed10", [(1, 9), (1, 9), (1, 1)], KoRule::Korean, 10, 243),
    ("box-5x5x5-seed5", [(1, 5), (1, 5), (1, 5)], KoRule::Immediate, 5, 375),
    ("box-3x7x5-seed6", [(-1, 1), (0, 6), (3, 7)], KoRule::Immediate, 6, 315),
    ("box-9x9x9-seed7", [(1, 9), (1, 9), (1, 9)], KoRule::Immediate, 7, 300),
    ("line-25x1x1-seed8", [(1, 25), (1, 1), (1, 1)], KoRule::Immediate, 8, 75),
];

fn generate(&(name, axes, ko, seed, cap): &Spec) -> String {
    let [x, y, z] = axes.map(|(a, b)| Axis::new(a, b));
    let mut header = Header { spec: BoxSpec { x, y, z }, ko, seed, moves: 0 };
    let mut game = header.new_game().unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut rng = SplitMix64::new(seed);
    let mut lines = Vec::new();
    while lines.len() < cap && game.phase() == Phase::Playing {
        let c = game.to_move();
        let candidates: Vec<_> =
            game.legal_points(c).into_iter().filter(|&p| !game.board().is_single_point_eye(p, c)).collect();
        let pass = candidates.is_empty() || (game.consecutive_passes() == 0 && rng.below(64) == 0);
        let mv = if pass { Move::Pass } else { Move::Place(candidates[rng.below(candidates.len())]) };
        game.play(c, mv).unwrap_or_else(|e| panic!("{name}: a legal move was refused: {e}"));
        lines.push(move_line(lines.len() + 1, c, mv, &game));
    }
    header.moves = lines.len();
    let mut text = format!(
        "# Golden vectors: one seeded random game (format: engine/tests/data/README.md).\n\
         # Written by `cargo run -p engine --release --example golden_vectors -- engine/tests/data/golden`.\n{}",
        header.write()
    );
    for l in &lines {
        text.push_str(l);
        text.push('\n');
    }
    // The file must read back and replay as written.
    let h = check(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(h, header, "{name}: header");
    text
}

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "engine/tests/data/golden".into());
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{dir}: {e}"));
    for spec in SPECS {
        let text = generate(spec);
        let path = format!("{dir}/{}.txt", spec.0);
        std::fs::write(&path, &text).unwrap_or_else(|e| panic!("{path}: {e}"));
        println!("{path}: {} bytes", text.len());
    }
}
