//! Dead-stone estimates from seeded playouts (003 §4 scoring proposals).
use crate::game::Game;
use crate::geometry::Point;

/// Stones judged dead.
pub fn estimate_dead(_game: &Game, _playouts: u32, _seed: u64) -> Vec<Point> {
    Vec::new()
}
