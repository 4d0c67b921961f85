//! Level 2 (003 §11.4): Monte-Carlo tree search with the evaluator as prior.
use super::{Choice, Weights};
use crate::board::Color;
use crate::game::Game;

/// Limits of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    pub max_playouts: u32,
}

/// Placeholder until the search lands: level 1.
pub fn search(
    game: &Game,
    color: Color,
    w: &Weights,
    seed: u64,
    _l: SearchLimits,
    _s: &mut dyn FnMut() -> bool,
) -> Choice {
    super::evaluator::choose(game, color, w, seed)
}
