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
use std::collections::HashMap;

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
            .map(|e| LifeSpace {
                component: e,
                points: self.empty[e].points.clone(),
                count: self.empty[e].points.len(),
            })
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
/// 000 §5.5. Suggestions only — candidates, never verdicts (003 §3.2,
/// §3.12); players confirm (003 §3.5).
///
/// **(a) Capturable** — the chain has one liberty, the opponent may play
/// there (no suicide), and the capture cannot be retaken at once: it takes
/// more than one stone, or the capturing stone keeps another liberty (an
/// empty neighbour or a connection to an own chain with a second liberty).
///
/// **(b) Enclosed without two eyes** — "상대 영역(상대 돌로만 둘러싸인 빈
/// 영역)에 완전히 갇혀 있고 그 영역 안에서 두 눈이 없는 연결". For a chain X of
/// colour C and its opponent O:
/// * the *region* R(X) is the six-connected component of points **not**
///   occupied by O (empty points and C stones) that contains X — by
///   construction it is bounded only by O stones and the board edge;
/// * X is *shut in* when R(X) touches at least one O stone and, for every O
///   chain Y bordering R(X), with R(Y) Y's own region (the component of
///   points not occupied by C that contains Y): R(X) is strictly smaller
///   than R(Y), and R(Y) reaches empty points outside R(X) — Y's wall
///   separates R(X) from other space, so the enclosure is the opponent's
///   area, not X's (on an open board R(Y) holds no empty point outside
///   R(X), and nobody is shut in);
/// * the *eyes* are the empty components inside R(X) bordered by C stones
///   only (서로 떨어진 단독 빈 영역); X is suggested when it has fewer than two.
///
/// The size comparison replaces an earlier "region under half the board"
/// cut-off, which both hid dead stones inside enclosures larger than half
/// the board and depended on board size. It makes the heuristic
/// one-sided: when X is suggested under (b), no O chain bounding R(X) is
/// suggested under (b) (if Y bounds R(X), some C chain in R(X) bounds R(Y),
/// and the two strict inequalities would contradict). A living group whose
/// territory is a single empty component inside a larger opposing area can
/// still be suggested; players correct suggestions (000 §5.5 "오판이 있어도
/// 플레이어가 고치면 되므로").
pub fn dead_stone_candidates(board: &Board) -> Vec<DeadCandidate> {
    let an = Analysis::new(board);
    dead_candidates_with(board, &an)
}

/// Regions of one colour C: components of points not occupied by C's opponent.
struct Regions {
    /// Region index per point (`NONE` on opponent stones).
    of: Vec<u32>,
    size: Vec<usize>,
    /// Empty points in the region.
    empties: Vec<usize>,
    /// Empty components inside the region bordered by C stones only.
    eyes: Vec<usize>,
    /// Opponent chains (indices into [`Analysis::chains`]) bordering the region, sorted.
    bordering: Vec<Vec<usize>>,
}

fn regions_of(board: &Board, an: &Analysis, color: Color) -> Regions {
    let g = board.geometry();
    let opp = color.opponent();
    let mut of = vec![NONE; g.len()];
    let (mut size, mut eyes, mut bordering) = (Vec::new(), Vec::new(), Vec::new());
    let mut stack = Vec::new();
    for p in g.points() {
        if of[p.index()] != NONE || board.stone_at(p) == Some(opp) {
            continue;
        }
        let id = size.len() as u32;
        of[p.index()] = id;
        stack.push(p);
        let (mut k, mut border) = (0usize, Vec::new());
        while let Some(s) = stack.pop() {
            k += 1;
            for &q in g.neighbours(s) {
                if board.stone_at(q) == Some(opp) {
                    border.extend(an.chain_at(q));
                } else if of[q.index()] == NONE {
                    of[q.index()] = id;
                    stack.push(q);
                }
            }
        }
        border.sort_unstable();
        border.dedup();
        size.push(k);
        eyes.push(0);
        bordering.push(border);
    }
    for comp in &an.empty {
        let only_own = match color {
            Color::Black => comp.touches_black && !comp.touches_white,
            Color::White => comp.touches_white && !comp.touches_black,
        };
        if let (true, Some(&p)) = (only_own, comp.points.first()) {
            if let Some(e) = eyes.get_mut(of[p.index()] as usize) {
                *e += 1;
            }
        }
    }
    let mut empties = vec![0usize; size.len()];
    for p in g.points() {
        if board.stone_at(p).is_none() {
            if let Some(e) = empties.get_mut(of[p.index()] as usize) {
                *e += 1;
            }
        }
    }
    Regions { of, size, empties, eyes, bordering }
}

fn dead_candidates_with(board: &Board, an: &Analysis) -> Vec<DeadCandidate> {
    let g = board.geometry();
    let mut out = Vec::new();
    let regions = [regions_of(board, an, Color::Black), regions_of(board, an, Color::White)];
    // shared[C][(r, ry)]: empty points lying both in C's region r and in the
    // opponent's region ry.
    let mut shared: [HashMap<(u32, u32), usize>; 2] = Default::default();
    for p in g.points() {
        if board.stone_at(p).is_none() {
            let (b, w) = (regions[0].of[p.index()], regions[1].of[p.index()]);
            *shared[0].entry((b, w)).or_insert(0) += 1;
            *shared[1].entry((w, b)).or_insert(0) += 1;
        }
    }
    for ch in an.chains.iter() {
        let opp = ch.color.opponent();
        let Some(&first) = ch.stones.first() else {
            continue;
        };
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
                                    captured = captured.saturating_add(board.chain_len(q));
                                }
                            }
                        }
                    }
                }
                if captured > 1 || safe {
                    out.push(DeadCandidate {
                        color: ch.color,
                        stones: ch.stones.clone(),
                        reason: DeadReason::Capturable,
                    });
                    continue;
                }
            }
        }
        // (b) shut inside the opponent's area without two eyes.
        let own = &regions[ch.color.idx()];
        let other = &regions[opp.idx()];
        let r = own.of[first.index()];
        let (Some(&size), Some(&eyes), Some(border)) =
            (own.size.get(r as usize), own.eyes.get(r as usize), own.bordering.get(r as usize))
        else {
            continue;
        };
        let shut_in = !border.is_empty()
            && border.iter().all(|&y| {
                let Some(ry) = an.chains.get(y).and_then(|yc| yc.stones.first()).map(|s| other.of[s.index()]) else {
                    return false;
                };
                let (ysize, yempties) = match (other.size.get(ry as usize), other.empties.get(ry as usize)) {
                    (Some(&a), Some(&b)) => (a, b),
                    _ => return false,
                };
                let common = shared[ch.color.idx()].get(&(r, ry)).copied().unwrap_or(0);
                ysize > size && yempties > common
            });
        if shut_in && eyes < 2 {
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
            let outside: Vec<Point> =
                ch.liberties.iter().copied().filter(|l| comp.points.binary_search(l).is_err()).collect();
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
