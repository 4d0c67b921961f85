//! Set-up shared by the engine's benches (each bench file is its own crate: `mod common;`).

use engine::playout::SplitMix64;
use engine::{Game, Geometry, Move, Rules};

/// A game of `moves` uniformly random legal moves that fill no own single-point eye
/// (passes when none), on the Space rules.
pub fn random_game(geom: Geometry, moves: usize, seed: u64) -> Game {
    let mut g = Game::new(geom, Rules::space()).unwrap();
    let mut rng = SplitMix64::new(seed);
    for _ in 0..moves {
        let c = g.to_move();
        let empties: Vec<_> = g.board().empty_points().collect();
        let mut played = false;
        for _ in 0..64 {
            if empties.is_empty() {
                break;
            }
            let p = empties[rng.below(empties.len())];
            if !g.board().is_single_point_eye(p, c) && g.play(c, Move::Place(p)).is_ok() {
                played = true;
                break;
            }
        }
        if !played && g.play(c, Move::Pass).is_err() {
            break;
        }
        if g.phase() != engine::Phase::Playing {
            break;
        }
    }
    g
}
