//! Level 2 (003 §11.4): Monte-Carlo tree search with the evaluator as prior.
//!
//! * Selection: PUCT with RAVE/AMAF — a child's value is a blend of its own
//!   win rate and its all-moves-as-first win rate (weight
//!   `β = sqrt(K / (3n + K))`, [`RAVE_K`]), plus [`C_PUCT`] × prior ×
//!   sqrt(N) / (1 + n). The prior is the softmax of the evaluator's scores
//!   (weights · features) over the legal moves ([`PRIOR_TEMPERATURE`]).
//! * Tree moves are played on a [`Game`], so every tree move is legal under
//!   the game's own repetition rule; own-eye fills are left out as at level 1.
//! * Playouts: [`policy_playout`] on the fast board (capture / atari escape,
//!   MoGo 3×3 patterns on flat boards, no large self-atari, immediate
//!   repetition rule), scored by area count
//!   of the final board plus the komi of `game.rules()`.
//! * The result is the most visited root move. Deterministic for a fixed seed
//!   and playout count (one ChaCha8 stream drives everything; `stop` only
//!   ends the loop early).

use super::evaluator::{self, Candidate};
use super::ownership::{black_margin, estimate_dead, margin_without};
use super::{Choice, Level, PassReason, Weights};
use crate::board::Color;
use crate::game::{Game, Move, Phase};
use crate::geometry::Point;
use crate::playout::{area_count, policy_playout, Patterns3};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Boxes with more points than this fall back to level 1: a playout costs
/// time proportional to the points (three moves per point at most), and at
/// 13×13×7 and beyond a second buys too few playouts to beat the evaluator
/// alone. 19×19 (361) and 9×9×9 (729) are searched.
pub const MAX_SEARCH_POINTS: usize = 1000;

/// RAVE equivalence parameter: at `n = K/3` visits own results and AMAF
/// results weigh the same (`β = 1/√2`).
pub const RAVE_K: f32 = 600.0;
/// Weight of the prior-driven exploration term.
pub const C_PUCT: f32 = 0.6;
/// Softmax temperature of the prior over evaluator scores.
pub const PRIOR_TEMPERATURE: f64 = 1.0;
/// A node is expanded on its second visit (the first visit only plays out).
pub const EXPAND_VISITS: u32 = 1;
/// Playouts used to find dead stones before passing after the opponent's pass.
pub const DECIDE_PLAYOUTS: u32 = 128;
/// The computer passes after the opponent's pass only when it is ahead by
/// more than this: one point of slack for a dame or a seki the estimate and
/// the final count may see differently.
pub const DECIDED_MARGIN: f64 = 1.0;

/// Limits of one search (the time limit is the caller's `stop`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    pub max_playouts: u32,
}

impl SearchLimits {
    /// A generous cap for time-limited play: `stop` ends the search first.
    pub const TIMED: SearchLimits = SearchLimits { max_playouts: 1_000_000 };
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits::TIMED
    }
}

#[derive(Clone, Debug)]
struct Node {
    /// The move that led here (unused at the root).
    mv: u16,
    prior: f32,
    visits: u32,
    /// Wins of the player who moved into this node.
    wins: f32,
    amaf_visits: f32,
    amaf_wins: f32,
    first_child: u32,
    n_children: u32,
    expanded: bool,
}

impl Node {
    fn new(mv: u16, prior: f32) -> Node {
        Node {
            mv,
            prior,
            visits: 0,
            wins: 0.0,
            amaf_visits: 0.0,
            amaf_wins: 0.0,
            first_child: 0,
            n_children: 0,
            expanded: false,
        }
    }
}

struct Tree {
    nodes: Vec<Node>,
}

impl Tree {
    /// Children of `node` for the candidates, priors by softmax of scores.
    fn expand(&mut self, node: usize, cands: &[Candidate]) {
        let first = self.nodes.len() as u32;
        if !cands.is_empty() {
            let max = cands.iter().map(|c| c.2).fold(f64::NEG_INFINITY, f64::max);
            let ex: Vec<f64> = cands.iter().map(|c| ((c.2 - max) / PRIOR_TEMPERATURE).exp()).collect();
            let sum: f64 = ex.iter().sum();
            for (c, e) in cands.iter().zip(ex) {
                self.nodes.push(Node::new(c.0 .0, (e / sum) as f32));
            }
        }
        let n = &mut self.nodes[node];
        n.first_child = first;
        n.n_children = cands.len() as u32;
        n.expanded = true;
    }

    fn select(&self, node: usize) -> usize {
        let parent = &self.nodes[node];
        let sqrt_n = (parent.visits as f32).sqrt().max(1.0);
        let parent_q = if parent.visits > 0 { 1.0 - parent.wins / parent.visits as f32 } else { 0.5 };
        let start = parent.first_child as usize;
        let mut best = start;
        let mut best_v = f32::NEG_INFINITY;
        for i in start..start + parent.n_children as usize {
            let c = &self.nodes[i];
            let n = c.visits as f32;
            let q = if c.visits > 0 { c.wins / n } else { parent_q };
            let v = if c.amaf_visits > 0.0 {
                let rq = c.amaf_wins / c.amaf_visits;
                let beta = (RAVE_K / (3.0 * n + RAVE_K)).sqrt();
                (1.0 - beta) * q + beta * rq
            } else {
                q
            };
            let v = v + C_PUCT * c.prior * sqrt_n / (1.0 + n);
            if v > best_v {
                best_v = v;
                best = i;
            }
        }
        best
    }
}

/// Level 2: Monte-Carlo tree search for `color` (see the module
/// documentation), at most `limits.max_playouts` playouts, ending early when
/// `stop()` (polled before every playout) says so. Falls back to level 1 on
/// boxes over [`MAX_SEARCH_POINTS`] points (`fell_back` set).
///
/// Passes when no legal stone move is left or every one only fills an own
/// eye, and when the opponent has just passed and the area count of the
/// board, with the stones estimated dead over [`DECIDE_PLAYOUTS`] playouts
/// removed, already wins by more than [`DECIDED_MARGIN`] (the game is
/// decided; 003 §11.4).
pub fn search(
    game: &Game,
    color: Color,
    w: &Weights,
    seed: u64,
    limits: SearchLimits,
    stop: &mut dyn FnMut() -> bool,
) -> Choice {
    if game.phase() != Phase::Playing {
        return Choice::pass(PassReason::NotInPlay, 0, Level::Search);
    }
    if game.geometry().len() > MAX_SEARCH_POINTS {
        let mut c = evaluator::choose(game, color, w, seed);
        c.fell_back = true;
        return c;
    }
    let (cands, legal) = match evaluator::candidates(game, color, w) {
        Ok(x) => x,
        Err((reason, legal)) => return Choice::pass(reason, legal, Level::Search),
    };
    let mut used = 0u32;
    if game.consecutive_passes() > 0 && game.last_move().map(|m| m.0) == Some(color.opponent()) {
        let n = DECIDE_PLAYOUTS.min(limits.max_playouts);
        let dead = estimate_dead(game, n, seed ^ 0xDEAD);
        used = n;
        let m = margin_without(game.board(), &dead, game);
        let ours = if color == Color::Black { m } else { -m };
        if ours > DECIDED_MARGIN {
            let mut c = Choice::pass(PassReason::GameDecided, legal, Level::Search);
            c.playouts = n;
            c.win_rate = Some(1.0);
            return c;
        }
    }

    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut tree = Tree { nodes: vec![Node::new(u16::MAX, 1.0)] };
    tree.expand(0, &cands);
    let n_points = game.board().len();
    // AMAF bookkeeping: the colour (cell value) that first played each point
    // after the node being updated.
    let mut first_play = vec![0u8; n_points];
    let mut path: Vec<usize> = Vec::with_capacity(64);
    let mut path_colors: Vec<Color> = Vec::with_capacity(64);
    let mut playouts = 0u32;
    let mut board = game.board().clone();
    let patterns = Patterns3::new(game.geometry());
    while playouts < limits.max_playouts.saturating_sub(used) && !stop() {
        // Selection and expansion, on a copy of the game.
        let mut g = game.clone();
        let mut to_move = color;
        let mut node = 0usize;
        path.clear();
        path_colors.clear();
        path.push(0);
        path_colors.push(color.opponent());
        let mut last: Option<Point> = None;
        loop {
            if !tree.nodes[node].expanded {
                if tree.nodes[node].visits < EXPAND_VISITS {
                    break;
                }
                match evaluator::candidates(&g, to_move, w) {
                    Ok((c, _)) => tree.expand(node, &c),
                    Err(_) => tree.expand(node, &[]),
                }
            }
            if tree.nodes[node].n_children == 0 {
                break;
            }
            let child = tree.select(node);
            let p = Point(tree.nodes[child].mv);
            if g.play_explicit(to_move, Move::Place(p)).is_err() {
                // Cannot happen (children are legal moves of this very
                // position); stop descending rather than corrupt the tree.
                break;
            }
            path.push(child);
            path_colors.push(to_move);
            last = Some(p);
            to_move = to_move.opponent();
            node = child;
        }

        // Playout from the leaf.
        board.clone_from(g.board());
        first_play.fill(0);
        policy_playout(&mut board, to_move, last, patterns.as_ref(), &mut rng, |c, p| {
            let slot = &mut first_play[p.index()];
            if *slot == 0 {
                *slot = c.cell();
            }
        });
        playouts += 1;
        let (b, wh) = area_count(&board);
        let m = black_margin(game, b, wh);
        let black_result = if m > 0.0 {
            1.0
        } else if m < 0.0 {
            0.0
        } else {
            0.5
        };

        // Backup, deepest node first, so that `first_play` holds the moves
        // made after the node being updated.
        for i in (0..path.len()).rev() {
            let nd = path[i];
            let mover = path_colors[i];
            let r = if mover == Color::Black { black_result } else { 1.0 - black_result };
            let (start, count) = {
                let n = &mut tree.nodes[nd];
                n.visits += 1;
                n.wins += r;
                (n.first_child as usize, n.n_children as usize)
            };
            // AMAF for the children: moves of the player to move at `nd`.
            let child_color = mover.opponent();
            let cr = 1.0 - r;
            for c in &mut tree.nodes[start..start + count] {
                if first_play[c.mv as usize] == child_color.cell() {
                    c.amaf_visits += 1.0;
                    c.amaf_wins += cr;
                }
            }
            if i > 0 {
                first_play[tree.nodes[nd].mv as usize] = mover.cell();
            }
        }
    }

    // The most visited root move (ties: the better win rate, then the prior).
    let root = &tree.nodes[0];
    let start = root.first_child as usize;
    let kids = &tree.nodes[start..start + root.n_children as usize];
    let best = kids
        .iter()
        .max_by(|a, b| {
            a.visits
                .cmp(&b.visits)
                .then(a.wins.partial_cmp(&b.wins).unwrap_or(std::cmp::Ordering::Equal))
                .then(a.prior.partial_cmp(&b.prior).unwrap_or(std::cmp::Ordering::Equal))
                .then(b.mv.cmp(&a.mv))
        })
        .unwrap_or(&kids[0]);
    let p = Point(best.mv);
    let score = cands.iter().find(|c| c.0 == p).map(|c| c.2);
    Choice {
        mv: Move::Place(p),
        score,
        considered: legal,
        level: Level::Search,
        fell_back: false,
        playouts: playouts + used,
        win_rate: (best.visits > 0).then(|| f64::from(best.wins / best.visits as f32)),
        pass_reason: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::computer::features::tests::diagram;
    use crate::computer::DEFAULT_WEIGHTS;
    use crate::geometry::{Axis, Geometry};
    use crate::rules::Rules;
    use proptest::prelude::*;

    fn run(g: &Game, c: Color, seed: u64, n: u32) -> Choice {
        search(g, c, &DEFAULT_WEIGHTS, seed, SearchLimits { max_playouts: n }, &mut || false)
    }

    #[test]
    fn same_seed_same_search() {
        let g = Game::new(Geometry::flat(7, 7).unwrap(), Rules::classic()).unwrap();
        let a = run(&g, Color::Black, 5, 300);
        assert_eq!(a, run(&g, Color::Black, 5, 300));
        assert_eq!(a.playouts, 300);
        assert_eq!(a.level, Level::Search);
        assert!(g.is_legal(Color::Black, a.mv));
    }

    #[test]
    fn stop_is_polled() {
        let g = Game::new(Geometry::flat(9, 9).unwrap(), Rules::classic()).unwrap();
        let mut calls = 0;
        let c = search(&g, Color::Black, &DEFAULT_WEIGHTS, 1, SearchLimits { max_playouts: 10_000 }, &mut || {
            calls += 1;
            calls > 40
        });
        assert_eq!(c.playouts, 40);
        assert!(matches!(c.mv, Move::Place(_)));
    }

    #[test]
    fn takes_or_saves_the_big_group_in_atari() {
        // Black's five stones have one liberty, (1,2); a stone there captures
        // them for White, or captures (1,1) and (1,3) and escapes for Black.
        let g = diagram(&[
            "OXO......", //
            ".XO......", //
            "OXO......", //
            "XXO......", //
            "OOO......", //
            ".........", //
            ".........", //
            ".........", //
            ".........",
        ]);
        let key = g.geometry().index_of(1, 2, 1).unwrap();
        assert_eq!(g.board().chain_liberties(g.geometry().index_of(2, 2, 1).unwrap()), vec![key]);
        assert_eq!(run(&g, Color::White, 3, 1500).mv, Move::Place(key));
        assert_eq!(run(&g, Color::Black, 3, 1500).mv, Move::Place(key));
    }

    #[test]
    fn falls_back_on_large_boxes() {
        let g = Game::new(Geometry::cube(11).unwrap(), Rules::space()).unwrap();
        let c = run(&g, Color::Black, 0, 100);
        assert!(c.fell_back);
        assert_eq!(c.level, Level::Evaluator);
        assert_eq!(c.playouts, 0);
    }

    #[test]
    fn passes_after_the_opponent_when_ahead() {
        // Black owns most of the board; White passed.
        let mut g = diagram(&[
            "..X.O", //
            "..X.O", //
            "..X.O", //
            "..X.O", //
            "..X.O",
        ]);
        g.play(Color::Black, Move::Place(g.geometry().index_of(1, 3, 1).unwrap())).unwrap();
        g.play(Color::White, Move::Pass).unwrap();
        let c = run(&g, Color::Black, 0, 500);
        assert_eq!((c.mv, c.pass_reason), (Move::Pass, Some(PassReason::GameDecided)));
        g.play(Color::Black, c.mv).unwrap();
        assert_eq!(g.phase(), Phase::Scoring);
    }

    #[test]
    fn keeps_playing_after_the_opponent_passes_when_behind() {
        let mut g = diagram(&[
            "..X.O", //
            "..X.O", //
            "..X.O", //
            "..X.O", //
            "..X.O",
        ]);
        g.play(Color::Black, Move::Pass).unwrap();
        let c = run(&g, Color::White, 0, 300);
        assert!(matches!(c.mv, Move::Place(_)), "{c:?}");
    }

    fn arb_box() -> impl Strategy<Value = Geometry> {
        (0i64..=2, 0i64..=2, 0i64..=1).prop_map(|(x, y, z)| {
            Geometry::new(Axis::one_to(2 * x + 1), Axis::one_to(2 * y + 1), Axis::one_to(2 * z + 1)).unwrap()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// Whole games of search against search on small boxes: every move is
        /// legal, and the game ends.
        #[test]
        fn search_moves_are_legal(geom in arb_box(), seed in any::<u64>(), ko in 0usize..3) {
            let mut rules = Rules::space();
            rules.ko = [crate::KoRule::Immediate, crate::KoRule::PositionalSuperko, crate::KoRule::Korean][ko];
            let mut g = Game::new(geom, rules).unwrap();
            for i in 0..(3 * g.geometry().len() + 4) {
                if g.phase() != Phase::Playing {
                    break;
                }
                let c = g.to_move();
                let ch = run(&g, c, seed.wrapping_add(i as u64), 40);
                prop_assert!(g.is_legal(c, ch.mv), "{:?}", ch);
                if ch.mv == Move::Pass {
                    prop_assert!(ch.pass_reason.is_some());
                }
                g.play(c, ch.mv).unwrap();
            }
        }
    }
}
