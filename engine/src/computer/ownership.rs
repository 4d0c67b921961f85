//! Dead-stone estimates from seeded playouts, for the computer's proposal
//! of dead stones in scoring (003 §4) and for the marks of program-only
//! matches. An estimate, not a ruling: 003 §11.4 promises no full
//! life-and-death reading, and people review the marks.

use crate::board::{Board, Color};
use crate::game::{Game, Move};
use crate::geometry::Point;
use crate::playout::{owners, policy_playout, Patterns3};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A stone is estimated dead when the opponent owns its point at the end of
/// more than this share of the playouts (a clear majority, so that stones in
/// seki or unsettled fights, which end up either way, stay alive).
pub const DEAD_SHARE: f64 = 0.6;

/// Per point, the share of `playouts` seeded playouts from the current
/// position (the player to move first) that end with the point owned by
/// Black and by White (see [`crate::playout::owners`]).
pub fn ownership(game: &Game, playouts: u32, seed: u64) -> Vec<(f32, f32)> {
    let n = game.board().len();
    let mut counts = vec![(0u32, 0u32); n];
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let last = match game.last_move() {
        Some((_, Move::Place(p))) => Some(p),
        _ => None,
    };
    let mut board = game.board().clone();
    let pat = Patterns3::new(game.geometry());
    for _ in 0..playouts {
        board.clone_from(game.board());
        policy_playout(&mut board, game.to_move(), last, pat.as_ref(), &mut rng, |_, _| {});
        for (c, o) in counts.iter_mut().zip(owners(&board)) {
            match o {
                1 => c.0 += 1,
                2 => c.1 += 1,
                _ => {}
            }
        }
    }
    let total = playouts.max(1) as f32;
    counts.into_iter().map(|(b, w)| (b as f32 / total, w as f32 / total)).collect()
}

/// Stones whose point goes to the opponent in more than [`DEAD_SHARE`] of
/// `playouts` seeded playouts from the current position, sorted. Empty for
/// zero playouts. Deterministic for a fixed seed.
pub fn estimate_dead(game: &Game, playouts: u32, seed: u64) -> Vec<Point> {
    if playouts == 0 {
        return Vec::new();
    }
    let own = ownership(game, playouts, seed);
    let board = game.board();
    game.geometry()
        .points()
        .filter(|&p| {
            let (b, w) = own[p.index()];
            match board.stone_at(p) {
                Some(Color::Black) => f64::from(w) > DEAD_SHARE,
                Some(Color::White) => f64::from(b) > DEAD_SHARE,
                None => false,
            }
        })
        .collect()
}

/// Black's area-count margin of `board` once `dead` stones are removed,
/// komi included (positive: Black ahead).
pub(crate) fn margin_without(board: &Board, dead: &[Point], game: &Game) -> f64 {
    let mut b = board.clone();
    let changes: Vec<(Point, Option<Color>)> = dead.iter().map(|&p| (p, None)).collect();
    // Removing stones never leaves a chain without liberties.
    let _ = b.set_cells(&changes);
    let (bl, wh) = crate::playout::area_count(&b);
    black_margin(game, bl, wh)
}

/// Black's margin from area points, with the komi of the game's rules.
pub(crate) fn black_margin(game: &Game, black: u32, white: u32) -> f64 {
    let r = game.rules();
    let komi = r.komi.points();
    let k = if r.komi_to == Color::White { -komi } else { komi };
    f64::from(black) - f64::from(white) + k
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::computer::features::tests::diagram;

    #[test]
    fn a_stone_in_atari_inside_the_opponents_area_is_dead() {
        // A settled position: Black's group on the left and White's on the
        // right both have many eyes; White's stone at (3,3) sits in atari in
        // Black's area and cannot escape.
        let g = diagram(&[
            ".X.X.XOO.", //
            "XXXXXXO.O", //
            ".XO.XXOOO", //
            "XXXXXXO.O", //
            ".X.XXXOOO", //
            "XXXXXXO.O", //
            ".X.X.XOO.", //
            "XXXXXXO.O", //
            ".X.X.XOOO",
        ]);
        let dead = estimate_dead(&g, 200, 7);
        let lone = g.geometry().index_of(3, 3, 1).unwrap();
        assert_eq!(dead, vec![lone], "{:?}", dead);
        // Same seed, same answer.
        assert_eq!(estimate_dead(&g, 200, 7), dead);
        assert!(estimate_dead(&g, 0, 7).is_empty());
    }

    #[test]
    fn margin_counts_area_and_komi() {
        let g = diagram(&[
            "..X.O", //
            "..X.O", //
            "..X.O", //
            "..X.O", //
            "..X.O",
        ]);
        // Black: 15 (columns 1–3), White: 5, column 4 is dame; Space komi 0.
        assert_eq!(margin_without(g.board(), &[], &g), 10.0);
        let o = g.geometry().index_of(5, 1, 1).unwrap();
        assert_eq!(margin_without(g.board(), &[o], &g), 11.0);
    }
}
