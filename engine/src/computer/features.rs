//! The eight features of a candidate stone move (003 §12.3 "eight evaluation
//! weights"), for any box: flat (four neighbours) or 3D (six), down to
//! 1×1×1 and odd shapes.
//!
//! Every feature is computed from the current board without playing the
//! move: the chains next to the candidate and their liberty counts are
//! maintained incrementally by [`Board`], so a candidate costs a few
//! neighbour reads. Only chains with at most [`LIB_CAP`] liberties ever need
//! their liberty *points* (to count the new chain's liberties exactly up to
//! the cap); those lists are gathered once per position in one pass over the
//! empty points.
//!
//! The values, in [`Feature`](super::Feature) order:
//!
//! 0. **Captures** — `log2(1 + stones captured)`: 1 for one stone, 2 for
//!    three, 3 for seven. Taking stones is the most direct gain; the log keeps
//!    a hundred-stone capture from swamping every other term.
//! 1. **SavesAtari** — `log2(1 + stones)` of own chains in atari (next to the
//!    candidate, so their last liberty is the candidate) that end with at
//!    least two liberties. Saving a threatened chain is the commonest urgent
//!    defence.
//! 2. **SelfAtari** — `log2(1 + size of the new chain)` when the new chain is
//!    left with exactly one liberty (after its captures), else 0. Putting a
//!    big chain in atari usually loses it; the size makes a one-stone throw-in
//!    cheap and a large self-atari expensive.
//! 3. **PutsInAtari** — `log2(1 + stones)` of opponent chains that go from
//!    two liberties to one. A threat the opponent must answer.
//! 4. **Liberties** — liberties of the new chain, capped at [`LIB_CAP`] and
//!    divided by it (0..=1). Stones with room to breathe are hard to attack.
//! 5. **NearLastMove** — `max(0, 5 − d) / 4` where `d` is the Manhattan
//!    distance (all three axes) to the previous move of either colour; 0 when
//!    there is none or it was a pass. Local answers to the last move are
//!    usually the urgent ones (the classic "proximity" heuristic).
//! 6. **SurfaceDistance** — a bump over the candidate's line
//!    `e` = distance to the nearest face of the box, 0 on the first line:
//!    `e = 0 → 0`, `1 → 0.5`, `2, 3 → 1`, `≥ 4 → 0.75`. Axes of length 1
//!    do not count: on a flat board (depth 1) `e` is the distance to the
//!    edge within x and y, so the third and fourth lines score best, as in
//!    classic opening theory; in a 3D box it is the distance to the nearest
//!    of its six faces (a 9×9×3 slab's middle layer is one in from the top
//!    and bottom faces). First-line stones have the fewest liberties in every
//!    shape, which is why a positive weight on this bump predicts good moves
//!    cheaply. On a 1×1×1 box no axis counts and the value is 0.
//! 7. **FillsOwnEye** — 1 when every existing neighbour of the candidate is
//!    an own stone (a single-point own eye, as in the playouts), else 0.
//!    Filling one's own eye throws away a liberty that can never be taken and
//!    may kill the group.

use super::{Feature, FeatureVector, FEATURE_COUNT};
use crate::board::{Board, Color, EMPTY, WALL};
use crate::game::{Game, Move};
use crate::geometry::Point;

/// The cap (and divisor) of the [`Feature::Liberties`] value.
pub const LIB_CAP: usize = 6;

/// Adds liberty `x` to the first `nl` entries of `libs` unless present or full.
#[inline]
fn add(x: u16, libs: &mut [u16; LIB_CAP], nl: &mut usize) {
    if *nl < LIB_CAP && !libs[..*nl].contains(&x) {
        libs[*nl] = x;
        *nl += 1;
    }
}

/// `log2(1 + n)`: the scaling of the stone-count features.
#[inline]
fn log_count(n: u32) -> f32 {
    (1.0 + n as f32).log2()
}

/// The [`Feature::SurfaceDistance`] bump by line (0 = first line).
#[inline]
fn surface_bump(e: usize) -> f32 {
    match e {
        0 => 0.0,
        1 => 0.5,
        2 | 3 => 1.0,
        _ => 0.75,
    }
}

/// Distance to the nearest face of the box, over the axes longer than 1
/// (see [`Feature::SurfaceDistance`]); `None` when no axis counts.
fn surface_distance(dims: (usize, usize, usize), off: (usize, usize, usize)) -> Option<usize> {
    let axes = [(dims.0, off.0), (dims.1, off.1), (dims.2, off.2)];
    axes.iter().filter(|(len, _)| *len > 1).map(|&(len, i)| i.min(len - 1 - i)).min()
}

/// Per-position data shared by all candidates: the liberty lists of chains
/// with at most [`LIB_CAP`] liberties, and the previous move.
pub(crate) struct Context<'a> {
    board: &'a Board,
    me: u8,
    /// Liberties of the chain whose head is the index, valid when that chain
    /// has at most [`LIB_CAP`] liberties.
    lib_lists: Vec<[u16; LIB_CAP]>,
    last: Option<(usize, usize, usize)>,
    dims: (usize, usize, usize),
}

impl<'a> Context<'a> {
    pub(crate) fn new(game: &'a Game, color: Color) -> Context<'a> {
        let board = game.board();
        let last = match game.last_move() {
            Some((_, Move::Place(p))) => board.geometry().offsets_of(p),
            _ => None,
        };
        Context::for_board(board, color, last)
    }

    /// A context for a bare board, `last` the offsets of the previous move.
    pub(crate) fn for_board(board: &'a Board, color: Color, last: Option<(usize, usize, usize)>) -> Context<'a> {
        let n = board.len();
        let mut lib_lists = vec![[0u16; LIB_CAP]; n];
        let mut fill = vec![0u8; n];
        let geom = board.geometry();
        for e in board.empty_points() {
            let mut seen = [u16::MAX; 6];
            let mut ns = 0;
            for &q in geom.nbrs(e.index()) {
                let q = q.index();
                if board.cell(q) == EMPTY {
                    continue;
                }
                let h = board.head_of(q);
                if seen[..ns].contains(&h) {
                    continue;
                }
                seen[ns] = h;
                ns += 1;
                let h = h as usize;
                if usize::from(board.libs_of(h)) <= LIB_CAP {
                    let k = fill[h] as usize;
                    if k < LIB_CAP {
                        lib_lists[h][k] = e.0;
                        fill[h] += 1;
                    }
                }
            }
        }
        Context { board, me: color.cell(), lib_lists, last, dims: geom.dims() }
    }

    /// The features of the (legal) stone move at `p`.
    #[inline]
    pub(crate) fn features(&self, p: Point) -> FeatureVector {
        if self.board.deg() == 4 {
            self.features_d::<4>(p.index())
        } else {
            self.features_d::<6>(p.index())
        }
    }

    fn features_d<const D: usize>(&self, p: usize) -> FeatureVector {
        let b = self.board;
        let nb = b.row::<D>(p);
        let mut empties = [0u16; 6];
        let mut ne = 0;
        let mut own = [u16::MAX; 6];
        let mut n_own = 0;
        let mut opp = [u16::MAX; 6];
        let mut n_opp = 0;
        let mut eye = true;
        for q in nb {
            let c = b.cell(q as usize);
            eye &= c & self.me != 0;
            if c == EMPTY {
                empties[ne] = q;
                ne += 1;
            } else if c != WALL {
                let h = b.head_of(q as usize);
                if c == self.me {
                    if !own[..n_own].contains(&h) {
                        own[n_own] = h;
                        n_own += 1;
                    }
                } else if !opp[..n_opp].contains(&h) {
                    opp[n_opp] = h;
                    n_opp += 1;
                }
            }
        }
        let size = |h: u16| b.chain_len(Point(h));
        let mut f = [0f32; FEATURE_COUNT];

        let mut captured = 0u32;
        let mut in_atari = 0u32;
        for &h in &opp[..n_opp] {
            match b.libs_of(h as usize) {
                1 => captured += size(h),
                2 => in_atari += size(h),
                _ => {}
            }
        }

        // Liberties of the new chain, exact up to LIB_CAP.
        let mut libs = [0u16; LIB_CAP];
        let mut nl = 0usize;
        for &e in &empties[..ne] {
            add(e, &mut libs, &mut nl);
        }
        let mut new_size = 1u32;
        let mut saved = 0u32;
        for &h in &own[..n_own] {
            let l = usize::from(b.libs_of(h as usize));
            new_size += size(h);
            if l == 1 {
                saved += size(h);
            }
            if nl >= LIB_CAP {
                continue;
            }
            if l > LIB_CAP {
                // Loses only the candidate point: at least LIB_CAP remain.
                nl = LIB_CAP;
            } else {
                for &x in &self.lib_lists[h as usize][..l] {
                    if x as usize != p {
                        add(x, &mut libs, &mut nl);
                    }
                }
            }
        }
        if captured > 0 && nl < LIB_CAP {
            // A captured stone becomes a liberty when it touches the new chain.
            let touches_new = |s: usize| {
                nb.contains(&(s as u16))
                    || b.row::<D>(s)
                        .iter()
                        .any(|&r| b.cell(r as usize) == self.me && own[..n_own].contains(&b.head_of(r as usize)))
            };
            for &h in &opp[..n_opp] {
                if b.libs_of(h as usize) == 1 {
                    for s in b.chain_stones(Point(h)) {
                        if touches_new(s.index()) {
                            add(s.0, &mut libs, &mut nl);
                        }
                    }
                }
            }
        }

        f[Feature::Captures.index()] = log_count(captured);
        f[Feature::SavesAtari.index()] = if nl >= 2 { log_count(saved) } else { 0.0 };
        f[Feature::SelfAtari.index()] = if nl == 1 { log_count(new_size) } else { 0.0 };
        f[Feature::PutsInAtari.index()] = log_count(in_atari);
        f[Feature::Liberties.index()] = nl as f32 / LIB_CAP as f32;
        let (w, h, _) = self.dims;
        let off = (p % w, (p / w) % h, p / (w * h));
        if let Some(l) = self.last {
            let d = off.0.abs_diff(l.0) + off.1.abs_diff(l.1) + off.2.abs_diff(l.2);
            f[Feature::NearLastMove.index()] = 5usize.saturating_sub(d) as f32 / 4.0;
        }
        f[Feature::SurfaceDistance.index()] = surface_distance(self.dims, off).map_or(0.0, surface_bump);
        f[Feature::FillsOwnEye.index()] = if eye { 1.0 } else { 0.0 };
        f
    }
}

/// The eight features of the stone move of `color` at `p` (see the module
/// documentation). `p` should be a legal move; for an occupied or off-board
/// point the result is all zeros.
pub fn features(game: &Game, color: Color, p: Point) -> FeatureVector {
    if game.board().stone_at(p).is_some() || !game.geometry().contains(p) {
        return [0.0; FEATURE_COUNT];
    }
    Context::new(game, color).features(p)
}

/// Every legal stone move of `color` (sorted by point) with its features.
pub fn all_features(game: &Game, color: Color) -> Vec<(Point, FeatureVector)> {
    let legal = game.legal_points(color);
    if legal.is_empty() {
        return Vec::new();
    }
    let ctx = Context::new(game, color);
    legal.into_iter().map(|p| (p, ctx.features(p))).collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::geometry::Geometry;
    use crate::rules::Rules;

    /// A flat game from rows (top row = y 1): `X` black, `O` white, `.` empty.
    pub(crate) fn diagram(rows: &[&str]) -> Game {
        let h = rows.len() as i64;
        let w = rows[0].len() as i64;
        let mut game = Game::new(Geometry::flat(w, h).unwrap(), Rules::space()).unwrap();
        let mut changes = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let p = game.geometry().index_of(x as i64 + 1, y as i64 + 1, 1).unwrap();
                match ch {
                    'X' => changes.push((p, Some(Color::Black))),
                    'O' => changes.push((p, Some(Color::White))),
                    _ => {}
                }
            }
        }
        game.set_stones(&changes).unwrap();
        game
    }

    fn at(game: &Game, x: i64, y: i64) -> Point {
        game.geometry().index_of(x, y, 1).unwrap()
    }

    fn f(game: &Game, c: Color, x: i64, y: i64, k: Feature) -> f32 {
        features(game, c, at(game, x, y))[k.index()]
    }

    #[test]
    fn capture_counts_the_stones_taken() {
        // The white pair (2,2)-(2,3) has two liberties, (3,2) and (3,3).
        let g = diagram(&[
            ".X...", //
            "XO...", //
            "XO...", //
            ".X...", //
            ".....",
        ]);
        // Black at (3,2) puts it in atari.
        assert_eq!(f(&g, Color::Black, 3, 2, Feature::Captures), 0.0);
        assert_eq!(f(&g, Color::Black, 3, 2, Feature::PutsInAtari), log_count(2));
        let g = diagram(&[
            ".X...", //
            "XOX..", //
            "XO...", //
            ".X...", //
            ".....",
        ]);
        assert_eq!(f(&g, Color::Black, 3, 3, Feature::Captures), log_count(2));
        assert_eq!(f(&g, Color::Black, 3, 3, Feature::Captures), (3f32).log2());
        // Capturing frees (2,3) next to the stone and (2,2) next to its
        // partner (3,2): with (4,3), (3,4), (3,1), (4,2) that makes six.
        assert_eq!(f(&g, Color::Black, 3, 3, Feature::Liberties), 1.0);
        assert_eq!(f(&g, Color::Black, 3, 3, Feature::SelfAtari), 0.0);
        // Elsewhere nothing is captured.
        assert_eq!(f(&g, Color::Black, 5, 5, Feature::Captures), 0.0);
    }

    #[test]
    fn saving_a_chain_in_atari() {
        let g = diagram(&[
            ".....", //
            ".OXO.", //
            "..O..", //
            ".....", //
            ".....",
        ]);
        // Black (3,2) has one liberty, (3,1). Extending there gives 2 (2,1),(4,1).
        assert_eq!(f(&g, Color::Black, 3, 1, Feature::SavesAtari), 1.0);
        assert_eq!(f(&g, Color::Black, 3, 1, Feature::Liberties), 2.0 / 6.0);
        assert_eq!(f(&g, Color::Black, 3, 1, Feature::SelfAtari), 0.0);
        // White there captures instead.
        assert_eq!(f(&g, Color::White, 3, 1, Feature::Captures), 1.0);
        // A move that does not touch the chain saves nothing.
        assert_eq!(f(&g, Color::Black, 5, 5, Feature::SavesAtari), 0.0);
    }

    #[test]
    fn extending_into_a_dead_end_is_self_atari_not_a_save() {
        let g = diagram(&[
            "O.X..", //
            "OXO..", //
            ".O...", //
            ".....", //
            ".....",
        ]);
        // Black (2,2) is in atari at (2,1); extending gives the pair (2,1),(2,2)
        // touching (3,1) Black too: chain {(2,1),(2,2),(3,1)} libs: (4,1).
        assert_eq!(f(&g, Color::Black, 2, 1, Feature::SavesAtari), 0.0);
        assert_eq!(f(&g, Color::Black, 2, 1, Feature::SelfAtari), log_count(3));
        assert_eq!(f(&g, Color::Black, 2, 1, Feature::Liberties), 1.0 / 6.0);
    }

    #[test]
    fn single_stone_self_atari_and_liberties() {
        let g = diagram(&[
            ".O...", //
            "O....", //
            ".....", //
            ".....", //
            ".....",
        ]);
        // (3,1) on the edge next to White: liberties (4,1), (3,2).
        assert_eq!(f(&g, Color::Black, 3, 1, Feature::Liberties), 2.0 / 6.0);
        assert_eq!(f(&g, Color::Black, 3, 3, Feature::Liberties), 4.0 / 6.0);
        let g = diagram(&[
            ".O...", //
            "..O..", //
            ".....", //
            ".....", //
            ".....",
        ]);
        // Black at (3,1): (2,1) and (3,2) are White, (4,1) is the one liberty.
        assert_eq!(f(&g, Color::Black, 3, 1, Feature::SelfAtari), 1.0);
        assert_eq!(f(&g, Color::Black, 3, 1, Feature::Liberties), 1.0 / 6.0);
    }

    #[test]
    fn liberties_of_a_merged_chain_are_counted_once_and_capped() {
        let g = diagram(&[
            ".......", //
            ".X.X...", //
            ".......", //
            ".......", //
            ".......",
        ]);
        // (3,2) joins both stones: liberties (2,1),(4,1),(1,2),(5,2),(2,3),(3,3),(4,3),(3,1)
        // = 8 ≥ cap.
        assert_eq!(f(&g, Color::Black, 3, 2, Feature::Liberties), 1.0);
        let g = diagram(&[
            "X.X", //
            "OOO", //
            "...",
        ]);
        // Black (2,1) joins (1,1),(3,1): each had its one liberty at (2,1).
        // New chain: no liberty → illegal for Black; for White it is a capture of both.
        assert_eq!(f(&g, Color::White, 2, 1, Feature::Captures), log_count(2));
        assert!(!g.is_legal(Color::Black, Move::Place(at(&g, 2, 1))));
    }

    #[test]
    fn closeness_to_the_previous_move() {
        let mut g = diagram(&[".........", ".........", ".........", ".........", "........."]);
        assert_eq!(f(&g, Color::Black, 5, 3, Feature::NearLastMove), 0.0);
        g.play(Color::Black, Move::Place(at(&g, 5, 3))).unwrap();
        assert_eq!(f(&g, Color::White, 5, 2, Feature::NearLastMove), 1.0);
        assert_eq!(f(&g, Color::White, 6, 2, Feature::NearLastMove), 0.75);
        assert_eq!(f(&g, Color::White, 8, 3, Feature::NearLastMove), 0.5);
        assert_eq!(f(&g, Color::White, 9, 3, Feature::NearLastMove), 0.25);
        assert_eq!(f(&g, Color::White, 1, 1, Feature::NearLastMove), 0.0);
        g.play(Color::White, Move::Pass).unwrap();
        assert_eq!(f(&g, Color::Black, 5, 2, Feature::NearLastMove), 0.0);
    }

    #[test]
    fn surface_distance_on_a_flat_board_prefers_the_third_and_fourth_lines() {
        let g = diagram(&["..........."; 11]);
        let line = |x| f(&g, Color::Black, x, 6, Feature::SurfaceDistance);
        assert_eq!([line(1), line(2), line(3), line(4), line(5)], [0.0, 0.5, 1.0, 1.0, 0.75]);
        // The nearer edge decides: (3,1) is on the first line.
        assert_eq!(f(&g, Color::Black, 3, 1, Feature::SurfaceDistance), 0.0);
    }

    #[test]
    fn surface_distance_in_3d_counts_every_face() {
        let game = Game::new(Geometry::cube(9).unwrap(), Rules::space()).unwrap();
        let geo = game.geometry();
        let sd = |x, y, z| features(&game, Color::Black, geo.index_of(x, y, z).unwrap())[6];
        assert_eq!(sd(5, 5, 1), 0.0); // on a face
        assert_eq!(sd(5, 5, 2), 0.5);
        assert_eq!(sd(5, 5, 3), 1.0);
        assert_eq!(sd(5, 5, 5), 0.75); // the centre, four layers in
        assert_eq!(sd(3, 5, 5), 1.0);
        // A 9×9×3 slab: the middle layer is one in from the top and bottom faces.
        let slab = Game::new(
            Geometry::new(crate::Axis::one_to(9), crate::Axis::one_to(9), crate::Axis::one_to(3)).unwrap(),
            Rules::space(),
        )
        .unwrap();
        let sp = |x, y, z| features(&slab, Color::Black, slab.geometry().index_of(x, y, z).unwrap())[6];
        assert_eq!([sp(5, 5, 2), sp(5, 5, 1), sp(2, 5, 2)], [0.5, 0.0, 0.5]);
        // 3D: six neighbours, so a lone interior stone has six liberties.
        assert_eq!(sd(5, 5, 5), 0.75);
        assert_eq!(features(&game, Color::Black, geo.index_of(5, 5, 5).unwrap())[4], 1.0);
        assert_eq!(features(&game, Color::Black, geo.index_of(1, 1, 1).unwrap())[4], 0.5);
    }

    #[test]
    fn filling_an_own_eye() {
        let g = diagram(&[
            ".X...", //
            "X.X..", //
            ".X...", //
            ".....", //
            ".....",
        ]);
        assert_eq!(f(&g, Color::Black, 2, 2, Feature::FillsOwnEye), 1.0);
        assert_eq!(f(&g, Color::Black, 1, 1, Feature::FillsOwnEye), 1.0); // corner: both neighbours Black
        assert_eq!(f(&g, Color::Black, 3, 3, Feature::FillsOwnEye), 0.0);
        assert_eq!(f(&g, Color::White, 4, 4, Feature::FillsOwnEye), 0.0);
    }

    #[test]
    fn tiny_and_odd_boxes() {
        // 1×1×1: the only point has no neighbours, so no stone move is legal.
        let g = Game::new(Geometry::cube(1).unwrap(), Rules::space()).unwrap();
        assert!(all_features(&g, Color::Black).is_empty());
        // 1×3×1 strip and a 3×1×3 wall.
        let g = Game::new(Geometry::flat(1, 3).unwrap(), Rules::space()).unwrap();
        let all = all_features(&g, Color::Black);
        assert_eq!(all.len(), 3);
        assert!(all.iter().all(|(_, v)| v.iter().all(|x| x.is_finite() && *x >= 0.0)));
        let g = Game::new(
            Geometry::new(crate::Axis::one_to(3), crate::Axis::one_to(1), crate::Axis::one_to(3)).unwrap(),
            Rules::space(),
        )
        .unwrap();
        assert_eq!(all_features(&g, Color::White).len(), 9);
    }

    #[test]
    fn all_features_agree_with_single_calls_and_legal_points() {
        let mut g = Game::new(Geometry::flat(7, 7).unwrap(), Rules::space()).unwrap();
        let mut rng = 12345u64;
        for _ in 0..40 {
            let c = g.to_move();
            let legal = g.legal_points(c);
            if legal.is_empty() {
                break;
            }
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let p = legal[(rng >> 33) as usize % legal.len()];
            g.play(c, Move::Place(p)).unwrap();
            let all = all_features(&g, g.to_move());
            assert_eq!(all.iter().map(|x| x.0).collect::<Vec<_>>(), g.legal_points(g.to_move()));
            for (p, v) in all {
                assert_eq!(v, features(&g, g.to_move(), p));
            }
        }
    }

    #[test]
    fn liberties_match_the_played_board() {
        // The liberty and self-atari features agree with actually playing the move.
        for geom in [Geometry::flat(7, 7).unwrap(), Geometry::cube(3).unwrap()] {
            let mut g = Game::new(geom, Rules::space()).unwrap();
            let mut rng = 99u64;
            for _ in 0..30 {
                let c = g.to_move();
                for (p, v) in all_features(&g, c) {
                    let mut after = g.clone();
                    after.play(c, Move::Place(p)).unwrap();
                    let libs = after.board().liberties(p) as usize;
                    assert_eq!(v[Feature::Liberties.index()], libs.min(LIB_CAP) as f32 / LIB_CAP as f32);
                    assert_eq!(v[Feature::SelfAtari.index()] > 0.0, libs == 1);
                    let caught = g.board().stone_count(c.opponent()) - after.board().stone_count(c.opponent());
                    assert_eq!(v[Feature::Captures.index()], log_count(caught));
                }
                let legal = g.legal_points(c);
                if legal.is_empty() {
                    break;
                }
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                g.play(c, Move::Place(legal[(rng >> 33) as usize % legal.len()])).unwrap();
            }
        }
    }
}
