//! Position analysis: chains and liberties, six-connected empty components,
//! life-space candidates per chain, and the suggestion heuristics for dead
//! stones (000 §5.5) and seki (000 §5.6).
//!
//! Everything here is a **candidate, never a verdict** (003 §3.2, §3.12):
//! the count of enclosed empty components is reported separately from the
//! number of points in them, separate chains never pool their spaces
//! (003 §3.2, §9.2), and an inner group inside an outer enclosure is judged
//! on its own (003 §3.8, §3.11). Final life and death is decided by the
//! players or an administrator and enters scoring as marks.

use crate::board::{Board, Color};
use crate::geometry::Point;
use serde::{Deserialize, Serialize};

/// A chain (돌무리): six-connected stones of one colour (003 §3.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainInfo {
    pub color: Color,
    /// Sorted stones.
    pub stones: Vec<Point>,
    /// Sorted liberties.
    pub liberties: Vec<Point>,
}

/// A six-connected component of empty points (003 §3.9, §4.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmptyComponent {
    /// Sorted points.
    pub points: Vec<Point>,
    pub touches_black: bool,
    pub touches_white: bool,
    /// Indices (into [`Analysis::chains`]) of the chains bordering it, sorted.
    pub bordering_chains: Vec<usize>,
}

/// One life-space candidate (사활 공간 후보) of a chain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LifeSpace {
    /// Index into [`Analysis::empty`].
    pub component: usize,
    pub points: Vec<Point>,
    pub count: usize,
}

/// Life-space candidates of one chain: the empty components bordered by
/// this chain alone (003 §3.2, §3.9–3.10). `spaces.len()` is the number of
/// candidate eyes, `total_points` the number of empty points in them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainSpaces {
    pub chain: usize,
    pub color: Color,
    pub spaces: Vec<LifeSpace>,
    pub total_points: usize,
}

/// Chains, liberties and empty components of a board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Analysis {
    pub chains: Vec<ChainInfo>,
    pub empty: Vec<EmptyComponent>,
    /// Chain index per point (`u32::MAX` for empty points).
    chain_of: Vec<u32>,
    /// Empty-component index per point (`u32::MAX` for stones).
    empty_of: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl Analysis {
    /// Analyse a board (O(points)).
    pub fn new(board: &Board) -> Analysis {
        let g = board.geometry();
        let n = g.len();
        let mut chain_of = vec![NONE; n];
        let mut empty_of = vec![NONE; n];
        let mut chains = Vec::new();
        let mut empty = Vec::new();
        let mut stack = Vec::new();
        for p in g.points() {
            let i = p.index();
            if chain_of[i] != NONE || empty_of[i] != NONE {
                continue;
            }
            match board.stone_at(p) {
                Some(c) => {
                    let id = chains.len() as u32;
                    let mut stones = board.chain_stones(p);
                    stones.sort_unstable();
                    for s in &stones {
                        chain_of[s.index()] = id;
                    }
                    chains.push(ChainInfo { color: c, stones, liberties: board.chain_liberties(p) });
                }
                None => {
                    let id = empty.len() as u32;
                    empty_of[i] = id;
                    stack.push(p);
                    let mut pts = Vec::new();
                    while let Some(s) = stack.pop() {
                        pts.push(s);
                        for &q in g.neighbours(s) {
                            if board.stone_at(q).is_none() && empty_of[q.index()] == NONE {
                                empty_of[q.index()] = id;
                                stack.push(q);
                            }
                        }
                    }
                    pts.sort_unstable();
                    empty.push(EmptyComponent {
                        points: pts,
                        touches_black: false,
                        touches_white: false,
                        bordering_chains: Vec::new(),
                    });
                }
            }
        }
        // Borders (second pass, once chains are numbered).
        for comp in empty.iter_mut() {
            let mut b = Vec::new();
            for &p in &comp.points {
                for &q in g.neighbours(p) {
                    let c = chain_of[q.index()];
                    if c != NONE {
                        b.push(c as usize);
                    }
                }
            }
            b.sort_unstable();
            b.dedup();
            comp.touches_black = b.iter().any(|&c| chains[c].color == Color::Black);
            comp.touches_white = b.iter().any(|&c| chains[c].color == Color::White);
            comp.bordering_chains = b;
        }
        Analysis { chains, empty, chain_of, empty_of }
    }

    /// Index of the chain through `p`.
    pub fn chain_at(&self, p: Point) -> Option<usize> {
        self.chain_of.get(p.index()).copied().filter(|&c| c != NONE).map(|c| c as usize)
    }
    /// Index of the empty component containing `p`.
    pub fn empty_at(&self, p: Point) -> Option<usize> {
        self.empty_of.get(p.index()).copied().filter(|&c| c != NONE).map(|c| c as usize)
    }

    /// Life-space candidates of chain `chain`: empty components bordered
    /// by that chain only (003 §3.2: separate chains never pool spaces).
    pub fn life_spaces(&self, chain: usize) -> ChainSpaces {
        let color = self.chains.get(chain).map_or(Color::Black, |c| c.color);
        let mut comps: Vec<usize> = Vec::new();
        if let Some(ch) = self.chains.get(chain) {
            for &l in &ch.liberties {
                if let Some(e) = self.empty_at(l) {
                    if self.empty[e].bordering_chains == [chain] && !comps.contains(&e) {
                        comps.push(e);
                    }
                }
            }
        }
        comps.sort_unstable();
        let spaces: Vec<LifeSpace> = comps
            .into_iter()
            .map(|e| LifeSpace { component: e, points: self.empty[e].points.clone(), count: self.empty[e].points.len() })
            .collect();
        let total_points = spaces.iter().map(|s| s.count).sum();
        ChainSpaces { chain, color, spaces, total_points }
    }

    /// Life-space candidates of every chain.
    pub fn all_life_spaces(&self) -> Vec<ChainSpaces> {
        (0..self.chains.len()).map(|c| self.life_spaces(c)).collect()
    }
}

/// Why a chain is suggested as dead (000 §5.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeadReason {
    /// (a) One liberty; the opponent can take it there and the capture
    /// cannot be retaken at once.
    Capturable,
    /// (b) Shut inside an area bounded by opponent stones, without two
    /// separate eyes there.
    EnclosedWithoutTwoEyes,
}

/// A dead-stone suggestion: a whole chain (003 §3.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeadCandidate {
    pub color: Color,
    pub stones: Vec<Point>,
    pub reason: DeadReason,
}

/// Dead-stone suggestions by the simple, deterministic heuristics of
/// 000 §5.5. Suggestions only; players confirm (003 §3.5).
pub fn dead_stone_candidates(board: &Board) -> Vec<DeadCandidate> {
    let an = Analysis::new(board);
    dead_candidates_with(board, &an)
}

fn dead_candidates_with(board: &Board, an: &Analysis) -> Vec<DeadCandidate> {
    let g = board.geometry();
    let n = g.len();
    let mut out = Vec::new();
    // One region marking per colour: regions of different colours overlap on empty points.
    let mut region_marks = [vec![NONE; n], vec![NONE; n]];
    let mut region_dead = vec![false; an.chains.len()];
    let mut stack = Vec::new();
    for (ci, ch) in an.chains.iter().enumerate() {
        let opp = ch.color.opponent();
        // (a) one liberty, capturable there without immediate recapture.
        if ch.liberties.len() == 1 {
            let l = ch.liberties[0];
            if board.is_legal_basic(l, opp) {
                // Without simulating: the capture can be retaken at once only
                // when exactly one stone is taken and the capturing stone is
                // then alone with the single liberty where that stone was.
                let mut heads: Vec<Point> = Vec::new();
                let mut captured = 0u32;
                let mut safe = false;
                for &q in g.neighbours(l) {
                    match board.stone_at(q) {
                        None => safe = true,
                        Some(c) if c == opp => safe |= board.liberties(q) >= 2,
                        Some(_) => {
                            if let Some(h) = board.chain_head(q) {
                                if board.liberties(q) == 1 && !heads.contains(&h) {
                                    heads.push(h);
                                    captured += board.chain_len(q);
                                }
                            }
                        }
                    }
                }
                if captured > 1 || safe {
                    out.push(DeadCandidate { color: ch.color, stones: ch.stones.clone(), reason: DeadReason::Capturable });
                    continue;
                }
            }
        }
        // (b) region of (empty ∪ own colour) around the chain.
        let region_mark = &mut region_marks[ch.color.idx()];
        let r = region_mark[ch.stones[0].index()];
        if r != NONE {
            // Same region as an earlier chain: same verdict.
            if region_dead[r as usize] {
                out.push(DeadCandidate {
                    color: ch.color,
                    stones: ch.stones.clone(),
                    reason: DeadReason::EnclosedWithoutTwoEyes,
                });
            }
            continue;
        }
        let mut size = 0usize;
        let mut touches_opp = false;
        let mut eyes = 0usize;
        let mut counted_comp: Vec<usize> = Vec::new();
        stack.push(ch.stones[0]);
        region_mark[ch.stones[0].index()] = ci as u32;
        while let Some(p) = stack.pop() {
            size += 1;
            if let Some(e) = an.empty_at(p) {
                if !counted_comp.contains(&e) {
                    counted_comp.push(e);
                    let comp = &an.empty[e];
                    let only_own = match ch.color {
                        Color::Black => comp.touches_black && !comp.touches_white,
                        Color::White => comp.touches_white && !comp.touches_black,
                    };
                    if only_own {
                        eyes += 1;
                    }
                }
            }
            for &q in g.neighbours(p) {
                match board.stone_at(q) {
                    Some(c) if c == opp => touches_opp = true,
                    _ => {
                        if region_mark[q.index()] == NONE {
                            region_mark[q.index()] = ci as u32;
                            stack.push(q);
                        }
                    }
                }
            }
        }
        if touches_opp && size * 2 < n && eyes < 2 {
            region_dead[ci] = true;
            out.push(DeadCandidate {
                color: ch.color,
                stones: ch.stones.clone(),
                reason: DeadReason::EnclosedWithoutTwoEyes,
            });
        }
    }
    out.sort_by_key(|d| d.stones[0]);
    out
}

/// A seki suggestion (000 §5.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SekiCandidate {
    /// Colour whose stones alone enclose `region`.
    pub color: Color,
    /// The enclosed empty region (sorted).
    pub region: Vec<Point>,
    /// Shared liberties (dame) outside the region (sorted).
    pub shared_liberties: Vec<Point>,
}

/// Seki suggestions by 000 §5.6: an empty region R bordered only by colour
/// C, where some bordering C chain without two eyes has all liberties
/// outside R on dame that are also liberties of living opponent chains
/// (living = not a dead-stone candidate).
pub fn seki_candidates(board: &Board) -> Vec<SekiCandidate> {
    let an = Analysis::new(board);
    let dead = dead_candidates_with(board, &an);
    let mut is_dead = vec![false; an.chains.len()];
    for d in &dead {
        if let Some(c) = an.chain_at(d.stones[0]) {
            is_dead[c] = true;
        }
    }
    let g = board.geometry();
    let mut out = Vec::new();
    for comp in an.empty.iter() {
        let color = match (comp.touches_black, comp.touches_white) {
            (true, false) => Color::Black,
            (false, true) => Color::White,
            _ => continue,
        };
        for &ci in &comp.bordering_chains {
            let ch = &an.chains[ci];
            if an.life_spaces(ci).spaces.len() >= 2 {
                continue;
            }
            let outside: Vec<Point> = ch.liberties.iter().copied().filter(|l| comp.points.binary_search(l).is_err()).collect();
            if outside.is_empty() {
                continue;
            }
            let all_shared = outside.iter().all(|&l| {
                g.neighbours(l).iter().any(|&q| {
                    board.stone_at(q) == Some(color.opponent()) && an.chain_at(q).is_some_and(|oc| !is_dead[oc])
                })
            });
            if all_shared {
                out.push(SekiCandidate { color, region: comp.points.clone(), shared_liberties: outside });
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
