//! The standard random-playout workload, shared by the criterion benches
//! and the GTP `--bench-playouts` mode.
//!
//! Uniformly random legal moves that do not fill a single-point own eye (an
//! empty point whose existing neighbours are all own stones); pass when no
//! such move exists; stop after two consecutive passes or 3×points moves;
//! immediate-repetition rule (003 §2.3).
//!
//! [`policy_playout`] is the computer's variant: the same candidate lists
//! and repetition test, with a light policy on top (capture and atari
//! escape around the last move, no self-atari of two or more stones) and a
//! seeded ChaCha8 RNG.

use crate::board::{Board, Color};
use crate::geometry::{Axis, Geometry, Point};
use rand_chacha::rand_core::Rng as _;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Small deterministic PRNG (splitmix64); no dependency, same on wasm.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

/// Short alias.
pub type Rng = SplitMix64;

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0; returns 0 for n == 0).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// Totals of one or more playouts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayoutStats {
    pub playouts: u64,
    /// Moves including passes.
    pub moves: u64,
    /// Stones captured.
    pub captured: u64,
    /// Candidate points examined (accepted or rejected).
    pub probes: u64,
}

/// Per-colour lists of empty points that are not that colour's
/// single-point eye, maintained incrementally during a playout so that own
/// eyes are never probed.
struct Candidates {
    list: [Vec<u16>; 2],
    pos: [Vec<u16>; 2],
}

const ABSENT: u16 = u16::MAX;

impl Candidates {
    fn new(board: &Board) -> Candidates {
        let n = board.len();
        if board.empty_count() == n {
            // Empty board (every playout's start): every point that has a
            // neighbour is a candidate for both colours; a point without
            // neighbours (1×1×1) is both colours' eye.
            let geom = board.geometry();
            let list: Vec<u16> = (0..n).filter(|&a| !geom.nbrs(a).is_empty()).map(|a| a as u16).collect();
            let mut pos = vec![ABSENT; n];
            for (i, &a) in list.iter().enumerate() {
                pos[a as usize] = i as u16;
            }
            return Candidates { list: [list.clone(), list], pos: [pos.clone(), pos] };
        }
        let mut c = Candidates {
            list: [Vec::with_capacity(n), Vec::with_capacity(n)],
            pos: [vec![ABSENT; n], vec![ABSENT; n]],
        };
        for p in board.empty_points() {
            if board.deg() == 4 {
                c.refresh::<4>(board, p.index());
            } else {
                c.refresh::<6>(board, p.index());
            }
        }
        c
    }
    /// Put `a` into list `k` (`want`) or take it out, whichever applies.
    #[inline(always)]
    fn set(&mut self, k: usize, a: usize, want: bool) {
        let list = &mut self.list[k];
        let pos = &mut self.pos[k][..];
        let have = pos[a] != ABSENT;
        if want && !have {
            pos[a] = list.len() as u16;
            list.push(a as u16);
        } else if !want && have {
            let i = pos[a] as usize;
            let moved = list.pop().unwrap_or(a as u16);
            if moved as usize != a {
                list[i] = moved;
                pos[moved as usize] = i as u16;
            }
            pos[a] = ABSENT;
        }
    }
    #[inline]
    fn refresh<const D: usize>(&mut self, board: &Board, a: usize) {
        let empty = board.cell(a) == crate::board::EMPTY;
        // One neighbour scan for both colours' eye status (the wall cell
        // has both colour bits set).
        let (mut all_b, mut all_w) = (empty, empty);
        if empty {
            for q in board.row::<D>(a) {
                let c = board.cell(q as usize);
                all_b &= c & crate::board::BLACK != 0;
                all_w &= c & crate::board::WHITE != 0;
            }
        }
        self.set(0, a, empty && !all_b);
        self.set(1, a, empty && !all_w);
    }
    #[inline]
    fn drop_point(&mut self, k: usize, a: usize) {
        self.set(k, a, false);
    }
    /// After colour `k` (cell value `me`) placed at `p`: `p` leaves both
    /// lists; an empty neighbour can only have become an eye of the mover
    /// (before the move `p` was empty, so no neighbour was anybody's eye).
    #[inline]
    fn after_place<const D: usize>(&mut self, board: &Board, p: usize, k: usize, me: u8) {
        self.drop_point(0, p);
        self.drop_point(1, p);
        for q in board.row::<D>(p) {
            let q = q as usize;
            if board.cell(q) == crate::board::EMPTY && board.surrounded_by::<D>(q, me) {
                self.drop_point(k, q);
            }
        }
    }
    /// Remove the element at index `i` of list `k` (the last element moves there).
    #[inline]
    fn remove_at(&mut self, k: usize, i: usize) {
        let a = self.list[k][i] as usize;
        self.set(k, a, false);
    }
    #[inline]
    fn swap(&mut self, k: usize, i: usize, j: usize) {
        let list = &mut self.list[k][..];
        let pos = &mut self.pos[k][..];
        list.swap(i, j);
        pos[list[i] as usize] = i as u16;
        pos[list[j] as usize] = j as u16;
    }
}

/// Run one playout on `board` (from its current position), `first` to move.
/// Returns the number of moves made (passes included).
pub fn random_playout(board: &mut Board, first: Color, rng: &mut Rng, stats: &mut PlayoutStats) -> u64 {
    playout_with(board, first, rng, stats, |_, _, _| {})
}

/// [`random_playout`] with a callback after every move (`None` = pass),
/// given the board after the move.
pub fn playout_with(
    board: &mut Board,
    first: Color,
    rng: &mut Rng,
    stats: &mut PlayoutStats,
    on_move: impl FnMut(Color, Option<Point>, &Board),
) -> u64 {
    // Monomorphised for the padded neighbour-row width (4 on flat boards).
    if board.deg() == 4 {
        playout_impl::<4>(board, first, rng, stats, on_move)
    } else {
        playout_impl::<6>(board, first, rng, stats, on_move)
    }
}

fn playout_impl<const D: usize>(
    board: &mut Board,
    first: Color,
    rng: &mut Rng,
    stats: &mut PlayoutStats,
    mut on_move: impl FnMut(Color, Option<Point>, &Board),
) -> u64 {
    let max_moves = 3 * board.len() as u64;
    let mut cand = Candidates::new(board);
    let mut captured: Vec<Point> = Vec::new();
    let mut to_move = first;
    let mut passes = 0;
    let mut moves = 0u64;
    // 003 §2.3, decided exactly without hashing: a stone move restores the
    // arrangement from just before the opponent's most recent move iff that
    // move was a stone at `q` that captured exactly one stone, at `s`, and
    // this move is at `s` and captures exactly the stone `q`. (Proof: the
    // point played must have been emptied by the opponent's move, so it is
    // in the set S it captured; the opponent's stone `q` must go again, so
    // it is in the set C this move captures; any other point of S or C
    // would differ between the two arrangements, hence S = {s}, C = {q}.)
    // Playouts alternate strictly, so the opponent's most recent move is the
    // previous move; `ko` describes it.
    let mut ko: Option<(usize, usize)> = None;
    while moves < max_moves {
        let k = to_move.idx();
        let me = to_move.cell();
        let mut window = cand.list[k].len();
        let mut chosen: Option<usize> = None;
        while window > 0 {
            let i = rng.below(window);
            stats.probes += 1;
            let p = cand.list[k][i] as usize;
            let qc = board.quick_check::<D>(p, me);
            let ok = match qc {
                Ok(false) => true,
                // Only a capture can restore an earlier arrangement.
                Ok(true) => match ko {
                    Some((s, q)) if s == p => !board.captures_exactly_stone::<D>(p, me, q),
                    _ => true,
                },
                Err(_) => false,
            };
            if ok {
                chosen = Some(p);
                break;
            }
            window -= 1;
            cand.swap(k, i, window);
            // An opponent's single-point eye is playable only while an
            // adjacent chain is in atari; drop it until that happens (see
            // the atari re-activation in `place_and_update`).
            if qc.is_err() && board.surrounded_by::<D>(p, 3 - me) {
                cand.remove_at(k, window);
            }
        }
        moves += 1;
        match chosen {
            Some(p) => {
                passes = 0;
                stats.captured += place_and_update::<D>(board, &mut cand, p, to_move, &mut captured) as u64;
                ko = if captured.len() == 1 { Some((captured[0].index(), p)) } else { None };
                on_move(to_move, Some(Point(p as u16)), board);
            }
            None => {
                ko = None;
                on_move(to_move, None, board);
                passes += 1;
                if passes >= 2 {
                    break;
                }
            }
        }
        to_move = to_move.opponent();
    }
    stats.playouts += 1;
    stats.moves += moves;
    moves
}

/// Place a stone of `to_move` at empty point `p` (a checked move) and bring
/// the candidate lists up to date; the captured points are left in
/// `captured`. Returns the number of stones captured.
#[inline]
fn place_and_update<const D: usize>(
    board: &mut Board,
    cand: &mut Candidates,
    p: usize,
    to_move: Color,
    captured: &mut Vec<Point>,
) -> u32 {
    let k = to_move.idx();
    let me = to_move.cell();
    captured.clear();
    let n = board.place_at::<D>(p, to_move, Some(captured));
    cand.after_place::<D>(board, p, k, me);
    // Neighbours of a captured stone are other captured stones or
    // capturing stones (the chain had no liberty), so only the
    // captured points themselves change status.
    for &s in captured.iter() {
        cand.refresh::<D>(board, s.index());
    }
    // Chains that may have just entered atari: the new chain and
    // the opponent chains next to it (each once). Their last
    // liberty may be a dropped eye.
    if board.libs_of(p) == 1 {
        if let Some(x) = board.first_liberty::<D>(p) {
            cand.refresh::<D>(board, x);
        }
    }
    let opp = 3 - me;
    let mut seen = [u16::MAX; 6];
    let mut ns = 0usize;
    for q in board.row::<D>(p) {
        let q = q as usize;
        if board.cell(q) == opp && board.libs_of(q) == 1 {
            let h = board.head_of(q);
            if seen[..ns].contains(&h) {
                continue;
            }
            seen[ns] = h;
            ns += 1;
            if let Some(x) = board.first_liberty::<D>(q) {
                cand.refresh::<D>(board, x);
            }
        }
    }
    n
}

/// MoGo's 3×3 playout patterns (Gelly et al. 2006) in the form of michi
/// (P. Baudiš): the candidate is the centre; `X`/`O` a stone of either
/// colour and the other, `x`/`o` anything but that colour's stone, `.`
/// empty, `#` off the board, `?` anything. Every rotation, reflection and
/// colour swap matches. Flat boards only: a 3D point has no 3×3 ring.
const PATTERNS_3X3: [[&str; 3]; 13] = [
    ["XOX", "...", "???"], // hane: enclosing hane
    ["XO.", "...", "?.?"], // hane: non-cutting hane
    ["XO?", "X..", "x.?"], // hane: magari
    [".O.", "X..", "..."], // katatsuke / diagonal attachment
    ["XO?", "O.o", "?o?"], // cut: unprotected cut
    ["XO?", "O.X", "???"], // cut: peeped cut
    ["?X?", "O.O", "ooo"], // cut 2 (de)
    ["OX?", "o.O", "???"], // cut keima
    ["X.?", "O.?", "##?"], // side: chase
    ["OX?", "X.O", "###"], // side: block side cut
    ["?X?", "x.O", "###"], // side: block side connection
    ["?XO", "x.x", "###"], // side: sagari
    ["?OX", "X.O", "###"], // side: cut
];

/// Codes (two bits per ring point: cell value, 3 = off the board) of the
/// 3×3 neighbourhoods that match a pattern; built once.
fn pattern_table() -> &'static [bool] {
    static TABLE: std::sync::OnceLock<Box<[bool]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![false; 1 << 16].into_boxed_slice();
        // Ring order: row-major 3×3 without the centre.
        let ring = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)];
        for pat in PATTERNS_3X3 {
            let g: Vec<Vec<char>> = pat.iter().map(|r| r.chars().collect()).collect();
            for sym in 0..8 {
                let at = |r: usize, c: usize| {
                    let (mut r, mut c) = (r, c);
                    if sym & 4 != 0 {
                        c = 2 - c;
                    }
                    for _ in 0..(sym & 3) {
                        (r, c) = (c, 2 - r);
                    }
                    g[r][c]
                };
                for (a, b) in [(1u8, 2u8), (2, 1)] {
                    let sets: Vec<Vec<u8>> = ring
                        .iter()
                        .map(|&(r, c)| match at(r, c) {
                            'X' => vec![a],
                            'O' => vec![b],
                            '.' => vec![0],
                            'x' => vec![0, b, 3],
                            'o' => vec![0, a, 3],
                            '#' => vec![3],
                            _ => vec![0, 1, 2, 3],
                        })
                        .collect();
                    let mut codes = vec![0usize];
                    for (i, set) in sets.iter().enumerate() {
                        codes =
                            codes.iter().flat_map(|&c| set.iter().map(move |&v| c | (v as usize) << (2 * i))).collect();
                    }
                    for c in codes {
                        t[c] = true;
                    }
                }
            }
        }
        t
    })
}

/// The 3×3 pattern matcher of one flat geometry for [`policy_playout`].
#[derive(Clone, Debug)]
pub struct Patterns3 {
    /// The eight ring points of each point (row-major, the wall index off the board).
    ring: Vec<[u16; 8]>,
    table: &'static [bool],
}

impl Patterns3 {
    /// `None` for boxes deeper than 1 (the patterns are planar).
    pub fn new(geom: &Geometry) -> Option<Patterns3> {
        if !geom.is_flat() {
            return None;
        }
        let (w, h, _) = geom.dims();
        let n = geom.len() as u16;
        let ring = (0..geom.len())
            .map(|p| {
                let (x, y) = ((p % w) as i64, (p / w) as i64);
                let mut r = [n; 8];
                let mut k = 0;
                for dy in -1..=1i64 {
                    for dx in -1..=1i64 {
                        if dx == 0 && dy == 0 {
                            continue;
                        }
                        let (nx, ny) = (x + dx, y + dy);
                        if nx >= 0 && ny >= 0 && (nx as usize) < w && (ny as usize) < h {
                            r[k] = (ny as usize * w + nx as usize) as u16;
                        }
                        k += 1;
                    }
                }
                r
            })
            .collect();
        Some(Patterns3 { ring, table: pattern_table() })
    }

    /// Whether the neighbourhood of empty point `p` matches a pattern.
    #[inline]
    fn matches(&self, board: &Board, p: usize) -> bool {
        let mut code = 0usize;
        for (i, &q) in self.ring[p].iter().enumerate() {
            code |= (board.cell(q as usize) as usize) << (2 * i);
        }
        self.table[code]
    }
}

/// Uniform in `0..n` from a 32-bit ChaCha draw (0 for `n` = 0).
#[inline(always)]
fn below_chacha(rng: &mut ChaCha8Rng, n: usize) -> usize {
    ((u64::from(rng.next_u32()) * n as u64) >> 32) as usize
}

/// The computer's playout (see the module documentation): `first` moves
/// first on `board`; `last` is the previous move (the opponent's), which the
/// policy answers. Stops after two consecutive passes or 3×points moves.
/// `on_move` sees every stone move (colour, point) in order.
///
/// The policy, in order: (1) capture the chain of the previous move or a
/// chain that attacks an own chain it put in atari; (2) extend an own chain
/// it put in atari when that leaves at least two liberties; (3) on flat
/// boards with `patterns`, a move next to the previous one that matches a
/// MoGo 3×3 pattern ([`Patterns3`]) and is no self-atari; (4) a uniformly
/// random non-eye move, refusing moves that leave a new chain of two or more
/// stones in atari without capturing (these are how MoGo-style playouts keep
/// groups alive and shapes sensible long enough for the result to mean
/// something); pass when nothing is left. A one-stone self-atari stays
/// allowed in (4) (throw-ins kill eyes).
pub fn policy_playout(
    board: &mut Board,
    first: Color,
    last: Option<Point>,
    patterns: Option<&Patterns3>,
    rng: &mut ChaCha8Rng,
    on_move: impl FnMut(Color, Point),
) -> u64 {
    let patterns = patterns.filter(|p| p.ring.len() == board.len());
    if board.deg() == 4 {
        policy_impl::<4>(board, first, last, patterns, rng, on_move)
    } else {
        policy_impl::<6>(board, first, last, patterns, rng, on_move)
    }
}

/// Liberties (capped at 3) and stone count of the chain a stone of cell
/// value `me` at empty `p` would make; captured neighbours count as
/// liberties (a lower bound for large captures, exact enough for the policy).
fn libs_after<const D: usize>(board: &Board, p: usize, me: u8) -> (usize, u32) {
    const CAP: usize = 3;
    let mut libs = [u16::MAX; CAP];
    let mut nl = 0usize;
    let mut add = |x: u16, nl: &mut usize| {
        if *nl < CAP && !libs[..*nl].contains(&x) {
            libs[*nl] = x;
            *nl += 1;
        }
    };
    let mut heads = [u16::MAX; 6];
    let mut nh = 0usize;
    let mut size = 1u32;
    let nb = board.row::<D>(p);
    for q in nb {
        let c = board.cell(q as usize);
        if c == crate::board::EMPTY {
            add(q, &mut nl);
        } else if c == me {
            let h = board.head_of(q as usize);
            if !heads[..nh].contains(&h) {
                heads[nh] = h;
                nh += 1;
                size += board.chain_len(Point(h));
            }
        } else if c != crate::board::WALL && board.libs_of(q as usize) == 1 {
            add(q, &mut nl);
        }
    }
    for &h in &heads[..nh] {
        if nl >= CAP {
            break;
        }
        if usize::from(board.libs_of(h as usize)) > CAP {
            nl = CAP;
            break;
        }
        let h = h as usize;
        let mut s = h;
        loop {
            for r in board.row::<D>(s) {
                if r as usize != p && board.cell(r as usize) == crate::board::EMPTY {
                    add(r, &mut nl);
                }
            }
            s = board.next_stone(s);
            if s == h || nl >= CAP {
                break;
            }
        }
    }
    (nl, size)
}

/// Liberties of opponent chains (cell `opp`) in atari next to the chain
/// through stone `c`: the captures that rescue it. Walks at most `limit` stones.
fn rescue_captures<const D: usize>(board: &Board, c: usize, opp: u8, out: &mut Vec<usize>, limit: usize) {
    let mut s = c;
    for _ in 0..limit {
        for r in board.row::<D>(s) {
            let r = r as usize;
            if board.cell(r) == opp && board.libs_of(r) == 1 {
                if let Some(x) = board.first_liberty::<D>(r) {
                    if !out.contains(&x) {
                        out.push(x);
                    }
                }
            }
        }
        s = board.next_stone(s);
        if s == c {
            break;
        }
    }
}

fn policy_impl<const D: usize>(
    board: &mut Board,
    first: Color,
    last: Option<Point>,
    patterns: Option<&Patterns3>,
    rng: &mut ChaCha8Rng,
    mut on_move: impl FnMut(Color, Point),
) -> u64 {
    let max_moves = 3 * board.len() as u64;
    let mut cand = Candidates::new(board);
    let mut captured: Vec<Point> = Vec::new();
    let mut urgent: Vec<usize> = Vec::new();
    let mut to_move = first;
    let mut last = last.map(|p| p.index()).filter(|&p| p < board.len());
    let mut passes = 0;
    let mut moves = 0u64;
    // The immediate-repetition test of `playout_impl` (003 §2.3).
    let mut ko: Option<(usize, usize)> = None;
    let legal = |board: &Board, p: usize, me: u8, ko: Option<(usize, usize)>| match board.quick_check::<D>(p, me) {
        Ok(false) => Some(false),
        Ok(true) => match ko {
            Some((s, q)) if s == p && board.captures_exactly_stone::<D>(p, me, q) => None,
            _ => Some(true),
        },
        Err(_) => None,
    };
    while moves < max_moves {
        let k = to_move.idx();
        let me = to_move.cell();
        let opp = 3 - me;
        let mut chosen: Option<usize> = None;

        // (1), (2): answer the previous move.
        if let Some(lm) = last.filter(|&l| board.cell(l) == opp) {
            urgent.clear();
            if board.libs_of(lm) == 1 {
                if let Some(x) = board.first_liberty::<D>(lm) {
                    urgent.push(x);
                }
            }
            let mut seen = [u16::MAX; 6];
            let mut ns = 0usize;
            for q in board.row::<D>(lm) {
                let q = q as usize;
                if board.cell(q) != me || board.libs_of(q) != 1 {
                    continue;
                }
                let h = board.head_of(q);
                if seen[..ns].contains(&h) {
                    continue;
                }
                seen[ns] = h;
                ns += 1;
                rescue_captures::<D>(board, q, opp, &mut urgent, 64);
                if let Some(x) = board.first_liberty::<D>(q) {
                    if libs_after::<D>(board, x, me).0 >= 2 && !urgent.contains(&x) {
                        urgent.push(x);
                    }
                }
            }
            while !urgent.is_empty() {
                let i = below_chacha(rng, urgent.len());
                let p = urgent.swap_remove(i);
                if legal(board, p, me, ko).is_some() {
                    chosen = Some(p);
                    break;
                }
            }
        }

        // (3): a 3×3 pattern move next to the previous move.
        if let (None, Some(pat), Some(lm)) = (chosen, patterns, last) {
            urgent.clear();
            for &q in &pat.ring[lm] {
                let q = q as usize;
                if q < board.len() && board.cell(q) == crate::board::EMPTY && pat.matches(board, q) {
                    urgent.push(q);
                }
            }
            while !urgent.is_empty() {
                let p = urgent.swap_remove(below_chacha(rng, urgent.len()));
                if legal(board, p, me, ko).is_some()
                    && !board.surrounded_by::<D>(p, me)
                    && libs_after::<D>(board, p, me).0 >= 2
                {
                    chosen = Some(p);
                    break;
                }
            }
        }

        // (4): random non-eye move without a large self-atari.
        if chosen.is_none() {
            let mut window = cand.list[k].len();
            while window > 0 {
                let i = below_chacha(rng, window);
                let p = cand.list[k][i] as usize;
                let ok = match legal(board, p, me, ko) {
                    Some(true) => true,
                    Some(false) => {
                        let (l, size) = libs_after::<D>(board, p, me);
                        l >= 2 || size == 1
                    }
                    None => false,
                };
                if ok {
                    chosen = Some(p);
                    break;
                }
                window -= 1;
                cand.swap(k, i, window);
                if board.quick_check::<D>(p, me).is_err() && board.surrounded_by::<D>(p, opp) {
                    cand.remove_at(k, window);
                }
            }
        }
        moves += 1;
        match chosen {
            Some(p) => {
                passes = 0;
                place_and_update::<D>(board, &mut cand, p, to_move, &mut captured);
                ko = if captured.len() == 1 { Some((captured[0].index(), p)) } else { None };
                last = Some(p);
                on_move(to_move, Point(p as u16));
            }
            None => {
                ko = None;
                last = None;
                passes += 1;
                if passes >= 2 {
                    break;
                }
            }
        }
        to_move = to_move.opponent();
    }
    moves
}

/// The owner of every point of a (finished playout) board: a stone's colour
/// for a stone, the bordering colour for an empty region bordered by one
/// colour only, else nobody (cell values: 0 nobody, 1 Black, 2 White).
pub fn owners(board: &Board) -> Vec<u8> {
    let n = board.len();
    let geom = board.geometry();
    let mut own: Vec<u8> = (0..n).map(|p| board.cell(p)).collect();
    let mut seen = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut region: Vec<usize> = Vec::new();
    for start in board.empty_points() {
        let start = start.index();
        if seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        region.clear();
        let mut borders = 0u8;
        while let Some(s) = stack.pop() {
            region.push(s);
            for &q in geom.nbrs(s) {
                let q = q.index();
                let c = board.cell(q);
                if c == crate::board::EMPTY {
                    if !seen[q] {
                        seen[q] = true;
                        stack.push(q);
                    }
                } else {
                    borders |= c;
                }
            }
        }
        if borders == crate::board::BLACK || borders == crate::board::WHITE {
            for &s in &region {
                own[s] = borders;
            }
        }
    }
    own
}

/// Area count of a board (see [`owners`]): (Black, White) points.
pub fn area_count(board: &Board) -> (u32, u32) {
    let own = owners(board);
    let b = own.iter().filter(|&&c| c == crate::board::BLACK).count() as u32;
    let w = own.iter().filter(|&&c| c == crate::board::WHITE).count() as u32;
    (b, w)
}

/// Run `n` playouts from an empty board of the given board's geometry.
pub fn run_playouts(board: &mut Board, n: u64, seed: u64) -> PlayoutStats {
    let mut rng = Rng::new(seed);
    let mut stats = PlayoutStats::default();
    for _ in 0..n {
        board.clear();
        random_playout(board, Color::Black, &mut rng, &mut stats);
    }
    stats
}

/// A reusable playout runner for one geometry (empty start, Black first).
#[derive(Clone, Debug)]
pub struct Playouts {
    board: Board,
}

impl Playouts {
    pub fn new(geom: Arc<Geometry>) -> Playouts {
        Playouts { board: Board::new(geom) }
    }
    /// Run `n` playouts with `rng`.
    pub fn run(&mut self, n: u64, rng: &mut SplitMix64) -> PlayoutStats {
        let mut stats = PlayoutStats::default();
        for _ in 0..n {
            self.board.clear();
            random_playout(&mut self.board, Color::Black, rng, &mut stats);
        }
        stats
    }
    /// The board after the last playout.
    pub fn board(&self) -> &Board {
        &self.board
    }
}

/// Parse `"XxYxZ"` (e.g. `19x19x1`, `25x25x25`; axes 1..X, 1..Y, 1..Z) or
/// `"N"` (an N×N flat board).
pub fn parse_board_spec(s: &str) -> Result<Geometry, String> {
    let parts: Vec<&str> = s.trim().split(['x', 'X']).collect();
    let nums: Result<Vec<i64>, _> = parts.iter().map(|p| p.trim().parse::<i64>()).collect();
    let nums = nums.map_err(|_| format!("board must look like 19x19x1 (X x Y x Z), got '{s}'"))?;
    let r = match nums.as_slice() {
        [n] => Geometry::flat(*n, *n),
        [x, y] => Geometry::flat(*x, *y),
        [x, y, z] => Geometry::new(Axis::one_to(*x), Axis::one_to(*y), Axis::one_to(*z)),
        _ => return Err(format!("board must look like 19x19x1 (X x Y x Z), got '{s}'")),
    };
    r.map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playouts_terminate_and_keep_the_board_consistent() {
        for g in [Geometry::flat(9, 9).unwrap(), Geometry::cube(5).unwrap()] {
            let mut b = Board::new(Arc::new(g));
            let mut rng = Rng::new(7);
            let mut st = PlayoutStats::default();
            for _ in 0..20 {
                b.clear();
                let m = random_playout(&mut b, Color::Black, &mut rng, &mut st);
                assert!(m <= 3 * b.len() as u64);
                b.check_consistency().unwrap();
                // The end position has no legal non-eye move for both sides or hit the cap.
            }
            assert_eq!(st.playouts, 20);
            assert!(st.captured > 0);
        }
    }

    #[test]
    fn playout_moves_are_exactly_the_legal_non_eye_moves() {
        // Cross-check the incremental candidate lists against the checked
        // Game API (immediate rule, 003 §2.3): every chosen move is legal and
        // not an own single-point eye; a pass happens only when no such move exists.
        use crate::game::{Game, Move};
        use crate::rules::Rules;
        for (geom, seed) in
            [(Geometry::flat(7, 7).unwrap(), 11), (Geometry::cube(3).unwrap(), 12), (Geometry::flat(9, 9).unwrap(), 13)]
        {
            let geom = Arc::new(geom);
            let mut b = Board::new(geom.clone());
            let mut rng = Rng::new(seed);
            let mut st = PlayoutStats::default();
            for _ in 0..6 {
                b.clear();
                let mut game = Game::with_geometry(geom.clone(), Rules::space()).unwrap();
                playout_with(&mut b, Color::Black, &mut rng, &mut st, |c, mv, after| {
                    let eye_free: Vec<Point> =
                        game.legal_points(c).into_iter().filter(|&p| !game.board().is_single_point_eye(p, c)).collect();
                    match mv {
                        Some(p) => {
                            assert!(eye_free.contains(&p), "illegal or eye move chosen");
                            game.play_explicit(c, Move::Place(p)).unwrap();
                        }
                        None => {
                            assert!(eye_free.is_empty(), "passed with {} moves available", eye_free.len());
                            if game.phase() == crate::game::Phase::Playing {
                                game.play_explicit(c, Move::Pass).unwrap();
                            }
                        }
                    }
                    assert!(*after == *game.board());
                });
            }
            assert!(st.moves > 100 && st.captured > 0);
        }
    }

    #[test]
    fn policy_playout_moves_are_legal_and_fill_own_eyes_only_to_escape() {
        use crate::game::{Game, Move};
        use crate::rules::Rules;
        use rand_chacha::rand_core::SeedableRng;
        for geom in [Geometry::flat(9, 9).unwrap(), Geometry::cube(3).unwrap(), Geometry::flat(1, 5).unwrap()] {
            let geom = Arc::new(geom);
            let pat = Patterns3::new(&geom);
            assert_eq!(pat.is_some(), geom.is_flat());
            let mut rng = ChaCha8Rng::seed_from_u64(5);
            let mut total = 0;
            for _ in 0..8 {
                let mut b = Board::new(geom.clone());
                let mut game = Game::with_geometry(geom.clone(), Rules::space()).unwrap();
                policy_playout(&mut b, Color::Black, None, pat.as_ref(), &mut rng, |c, p| {
                    // Passes are silent: catch up on them before checking.
                    if game.to_move() != c {
                        game.play(game.to_move(), Move::Pass).unwrap();
                    }
                    // An own eye is filled only to rescue a chain in atari.
                    let bd = game.board();
                    if bd.is_single_point_eye(p, c) {
                        assert!(geom.neighbours(p).iter().any(|&q| bd.liberties(q) == 1), "own eye filled");
                    }
                    game.play(c, Move::Place(p)).unwrap();
                    total += 1;
                });
                assert!(b == *game.board());
                b.check_consistency().unwrap();
            }
            assert!(total > 0);
        }
    }

    #[test]
    fn patterns_match_a_hane_and_not_an_empty_neighbourhood() {
        let geom = Geometry::flat(5, 5).unwrap();
        let pat = Patterns3::new(&geom).unwrap();
        let mut b = Board::new(Arc::new(geom.clone()));
        let p = |x, y| geom.index_of(x, y, 1).unwrap();
        assert!(!pat.matches(&b, p(3, 3).index()));
        // "XO." / "..." / "?.?": Black (2,2), White (3,2) above the candidate (3,3)... as the
        // non-cutting hane, rotated: the candidate is diagonal to X and below O.
        b.place(p(2, 2), Color::Black, None).unwrap();
        b.place(p(3, 2), Color::White, None).unwrap();
        assert!(pat.matches(&b, p(3, 3).index()));
        assert!(!pat.matches(&b, p(5, 5).index()));
    }

    #[test]
    fn rng_below_is_in_range() {
        let mut r = Rng::new(1);
        for n in 1..200 {
            assert!(r.below(n) < n);
        }
        assert_eq!(r.below(0), 0);
    }
}
