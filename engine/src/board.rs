//! The fast board, in the spirit of KataGo's `board.h`.
//!
//! * Chains are circular linked lists (`next`), every stone knows its chain
//!   head, and the head stores the stone count and the liberty count. All of
//!   it is maintained incrementally: a move costs time proportional to the
//!   chains it touches (003 §2.2 captures, merges), never a whole-board scan.
//! * The Zobrist hash is updated incrementally (keys from the `zobrist`
//!   module, cached per point in the geometry).
//! * The list of empty points is maintained incrementally too (O(1) per
//!   change), so legal-point queries and playouts only visit empty points.
//!
//! * Neighbour loops use fixed-width padded rows (4 on flat boards, 6 in
//!   3D) whose missing entries point to a wall cell past the last point;
//!   the hot functions are monomorphised for the width.
//!
//! Memory: 1 + 6×2 bytes per point = 13 bytes, i.e. ≈ 203 KB for 25³
//! (the geometry's neighbour tables are shared behind an `Arc`; the padded
//! rows are shared by all boards of one size).

use crate::geometry::{Geometry, Point};
use crate::zobrist;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

/// A player colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Color {
    Black,
    White,
}

impl Color {
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    #[inline]
    pub(crate) const fn cell(self) -> u8 {
        match self {
            Color::Black => BLACK,
            Color::White => WHITE,
        }
    }
    #[inline]
    pub(crate) const fn idx(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }
    pub(crate) const fn from_cell(c: u8) -> Option<Color> {
        match c {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }
    /// `"B"` / `"W"`.
    pub const fn letter(self) -> &'static str {
        match self {
            Color::Black => "B",
            Color::White => "W",
        }
    }
    /// The English name, for protocol and developer messages (GTP, errors); people read
    /// colours through the app's i18n catalogue.
    pub const fn english(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }
}

pub(crate) const EMPTY: u8 = 0;
pub(crate) const BLACK: u8 = 1;
pub(crate) const WHITE: u8 = 2;
/// The sentinel cell past the last point (index `len()`): the padded
/// neighbour rows of [`Board`] point there for missing neighbours.
/// `WALL & BLACK != 0` and `WALL & WHITE != 0`, so "every neighbour slot is
/// own stone or wall" is one test per slot.
pub(crate) const WALL: u8 = 3;

/// What a stone move would do, computed without touching the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveEffect {
    /// Number of opponent stones captured.
    pub captured: u32,
    /// If exactly one stone is captured, where it is.
    pub single_capture: Option<Point>,
    /// Hash of the arrangement after the move.
    pub hash_after: u64,
}

/// Basic (rule-independent) reasons a stone cannot go somewhere (003 §2.1–2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BasicIllegal {
    OffBoard,
    Occupied,
    Suicide,
}

/// The board: stones, chains, liberties, hash.
#[derive(Clone, Debug)]
pub struct Board {
    geom: Arc<Geometry>,
    /// Neighbour rows padded to `deg` entries with the wall index `len()`
    /// (valid neighbours first, same order as [`Geometry::neighbours`]);
    /// `deg` is 4 when no point has more than four neighbours (every flat
    /// board), else 6. Fixed-length rows let the hot loops unroll without
    /// per-point neighbour counts. Derived from the geometry and shared by
    /// boards of the same size (see `padded_rows`), like the geometry's own tables.
    adj: Arc<[u16]>,
    deg: usize,
    /// One cell per point plus the wall cell at index `len()`.
    cells: Vec<u8>,
    head: Vec<u16>,
    next: Vec<u16>,
    /// Liberty count, valid at chain heads.
    libs: Vec<u16>,
    /// Stone count, valid at chain heads.
    count: Vec<u16>,
    empties: Vec<u16>,
    empty_pos: Vec<u16>,
    hash: u64,
    stones: [u32; 2],
}

impl PartialEq for Board {
    /// Two boards are equal when they have the same geometry and the same
    /// stones (the internal chain representation may differ).
    fn eq(&self, other: &Board) -> bool {
        *self.geom == *other.geom && self.cells == other.cells
    }
}
impl Eq for Board {}

impl Board {
    /// An empty board.
    pub fn new(geom: Arc<Geometry>) -> Board {
        let n = geom.len();
        let (adj, deg) = padded_rows(&geom);
        let mut cells = vec![EMPTY; n + 1];
        cells[n] = WALL;
        Board {
            adj,
            deg,
            cells,
            head: (0..=n as u16).collect(),
            next: (0..=n as u16).collect(),
            libs: vec![0; n + 1],
            count: vec![0; n + 1],
            empties: (0..n as u16).collect(),
            empty_pos: (0..n as u16).collect(),
            hash: 0,
            stones: [0, 0],
            geom,
        }
    }

    /// Number of points (the wall cell excluded).
    #[inline(always)]
    fn n(&self) -> usize {
        self.cells.len() - 1
    }
    /// Padded neighbour row width (4 or 6), see [`Board`].
    #[inline(always)]
    pub(crate) fn deg(&self) -> usize {
        self.deg
    }
    /// The padded neighbour row of point `p`; `D` must equal [`Board::deg`].
    #[inline(always)]
    pub(crate) fn row<const D: usize>(&self, p: usize) -> [u16; D] {
        row::<D>(&self.adj, p)
    }

    /// Remove every stone.
    pub fn clear(&mut self) {
        let n = self.n();
        self.cells[..n].fill(EMPTY);
        self.empties.clear();
        for i in 0..n {
            self.head[i] = i as u16;
            self.next[i] = i as u16;
            self.empties.push(i as u16);
            self.empty_pos[i] = i as u16;
        }
        self.libs.fill(0);
        self.count.fill(0);
        self.hash = 0;
        self.stones = [0, 0];
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geom
    }
    pub fn geometry_arc(&self) -> &Arc<Geometry> {
        &self.geom
    }
    pub fn len(&self) -> usize {
        self.n()
    }
    pub fn is_empty(&self) -> bool {
        self.n() == 0
    }

    /// The stone at `p`, `None` when empty or off the board.
    #[inline]
    pub fn stone_at(&self, p: Point) -> Option<Color> {
        self.cells[..self.n()].get(p.index()).and_then(|&c| Color::from_cell(c))
    }
    /// Cell value at an index taken from this board's geometry.
    #[inline(always)]
    pub(crate) fn cell(&self, p: usize) -> u8 {
        self.cells[p]
    }
    /// Liberty count of the chain through stone index `p`.
    #[inline(always)]
    fn libs_at(&self, p: usize) -> u16 {
        self.libs[self.head[p] as usize]
    }

    /// Zobrist hash of the stone arrangement (colour-to-move not included).
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Number of stones of a colour on the board.
    pub fn stone_count(&self, c: Color) -> u32 {
        self.stones[c.idx()]
    }
    pub fn empty_count(&self) -> usize {
        self.empties.len()
    }
    /// The empty points (in no particular order).
    pub fn empty_points(&self) -> impl Iterator<Item = Point> + '_ {
        self.empties.iter().map(|&p| Point(p))
    }
    /// Head (representative) of the chain through a stone.
    #[inline]
    pub fn chain_head(&self, p: Point) -> Option<Point> {
        match self.cells[..self.n()].get(p.index()) {
            Some(&c) if c != EMPTY => Some(Point(self.head[p.index()])),
            _ => None,
        }
    }
    /// Liberties of the chain through `p` (0 for empty / off-board).
    #[inline]
    pub fn liberties(&self, p: Point) -> u32 {
        self.chain_head(p).map_or(0, |h| self.libs[h.index()] as u32)
    }
    /// Stones in the chain through `p`.
    pub fn chain_len(&self, p: Point) -> u32 {
        self.chain_head(p).map_or(0, |h| self.count[h.index()] as u32)
    }
    /// Every stone of the chain through `p` (ring order).
    pub fn chain_stones(&self, p: Point) -> Vec<Point> {
        let mut out = Vec::new();
        if let Some(h) = self.chain_head(p) {
            let h = h.index();
            let mut s = h;
            loop {
                out.push(Point(s as u16));
                s = self.next[s] as usize;
                if s == h {
                    break;
                }
            }
        }
        out
    }
    /// The liberty points of the chain through `p`, sorted.
    pub fn chain_liberties(&self, p: Point) -> Vec<Point> {
        let mut libs: Vec<Point> = Vec::new();
        for s in self.chain_stones(p) {
            for &q in self.geom.nbrs(s.index()) {
                if self.cells[q.index()] == EMPTY {
                    libs.push(q);
                }
            }
        }
        libs.sort_unstable();
        libs.dedup();
        libs
    }

    #[inline(always)]
    fn remove_empty(&mut self, p: usize) {
        let i = self.empty_pos[p] as usize;
        let last = self.empties.len() - 1;
        let moved = self.empties[last];
        self.empties[i] = moved;
        self.empty_pos[moved as usize] = i as u16;
        self.empties.pop();
    }
    /// Rule-independent check of a stone move: off-board, occupied, suicide
    /// (003 §2.2). Computes captures and the resulting hash without mutating.
    #[inline]
    pub(crate) fn move_effect(&self, p: Point, c: Color) -> Result<MoveEffect, BasicIllegal> {
        let pi = p.index();
        if pi >= self.n() {
            return Err(BasicIllegal::OffBoard);
        }
        if self.cells[pi] != EMPTY {
            return Err(BasicIllegal::Occupied);
        }
        let me = c.cell();
        let mut has_lib = false;
        let mut cap_heads = [u16::MAX; 6];
        let mut ncap = 0usize;
        for &q in self.geom.nbrs(pi) {
            let q = q.index();
            let cq = self.cells[q];
            if cq == EMPTY {
                has_lib = true;
            } else {
                let h = self.head[q];
                let l = self.libs[h as usize];
                if cq == me {
                    if l > 1 {
                        has_lib = true;
                    }
                } else if l == 1 && !cap_heads[..ncap].contains(&h) {
                    cap_heads[ncap] = h;
                    ncap += 1;
                }
            }
        }
        if ncap == 0 && !has_lib {
            return Err(BasicIllegal::Suicide);
        }
        let mut hash = self.hash ^ self.geom.zkey(pi, me);
        let mut captured = 0u32;
        let mut single = None;
        for &h in &cap_heads[..ncap] {
            let h = h as usize;
            captured += self.count[h] as u32;
            single = Some(Point(h as u16));
            let them = self.cells[h];
            let mut s = h;
            loop {
                hash ^= self.geom.zkey(s, them);
                s = self.next[s] as usize;
                if s == h {
                    break;
                }
            }
        }
        Ok(MoveEffect { captured, single_capture: if captured == 1 { single } else { None }, hash_after: hash })
    }

    /// The next stone of the chain ring through stone `p` (back to `p` after
    /// the last one).
    #[inline(always)]
    pub(crate) fn next_stone(&self, p: usize) -> usize {
        self.next[p] as usize
    }

    /// Some liberty of the chain through stone `p` (walks the chain).
    /// `D` must equal [`Board::deg`].
    pub(crate) fn first_liberty<const D: usize>(&self, p: usize) -> Option<usize> {
        let cells = &self.cells[..];
        let next = &self.next[..];
        if cells[p] == EMPTY {
            return None;
        }
        let mut s = p;
        loop {
            for q in self.row::<D>(s) {
                if cells[q as usize] == EMPTY {
                    return Some(q as usize);
                }
            }
            s = next[s] as usize;
            if s == p {
                return None;
            }
        }
    }
    /// Head of the chain through stone index `p`.
    #[inline(always)]
    pub(crate) fn head_of(&self, p: usize) -> u16 {
        self.head[p]
    }
    #[inline]
    pub(crate) fn libs_of(&self, p: usize) -> u16 {
        self.libs[self.head[p] as usize]
    }

    /// Cheap rule-independent check: `Ok(true)` if the move is possible and
    /// captures, `Ok(false)` if possible without capture (no hashing).
    /// `D` must equal [`Board::deg`].
    #[inline(always)]
    pub(crate) fn quick_check<const D: usize>(&self, pi: usize, me: u8) -> Result<bool, BasicIllegal> {
        let cells = &self.cells[..];
        let head = &self.head[..];
        let libs = &self.libs[..];
        if cells[pi] != EMPTY {
            return Err(BasicIllegal::Occupied);
        }
        let mut has_lib = false;
        let mut captures = false;
        for q in self.row::<D>(pi) {
            let q = q as usize;
            let cq = cells[q];
            if cq == EMPTY {
                has_lib = true;
            } else if cq != WALL {
                let l = libs[head[q] as usize];
                if cq == me {
                    has_lib |= l > 1;
                } else {
                    captures |= l == 1;
                }
            }
        }
        if captures || has_lib {
            Ok(captures)
        } else {
            Err(BasicIllegal::Suicide)
        }
    }

    /// Whether a stone of cell value `me` at empty point `p` would capture
    /// exactly one stone, the stone at `q` (the exact immediate-repetition
    /// test of the playout, 003 §2.3). `D` must equal [`Board::deg`].
    #[inline]
    pub(crate) fn captures_exactly_stone<const D: usize>(&self, p: usize, me: u8, q: usize) -> bool {
        let opp = 3 - me;
        if self.cells[q] != opp || self.libs_at(q) != 1 || self.count[self.head[q] as usize] != 1 {
            return false;
        }
        let hq = self.head[q];
        let mut adjacent = false;
        for r in self.row::<D>(p) {
            let r = r as usize;
            if self.cells[r] == opp {
                if self.head[r] == hq {
                    adjacent = true;
                } else if self.libs_at(r) == 1 {
                    return false;
                }
            }
        }
        adjacent
    }

    /// The opponent stones a stone of colour `c` at empty point `p` would
    /// capture, sorted (used to confirm a hash match exactly; not hot).
    pub(crate) fn capture_set(&self, p: Point, c: Color) -> Vec<Point> {
        let opp = c.opponent().cell();
        let mut heads: Vec<u16> = Vec::new();
        let mut out = Vec::new();
        for &q in self.geom.nbrs(p.index()) {
            let q = q.index();
            if self.cells[q] == opp && self.libs_at(q) == 1 && !heads.contains(&self.head[q]) {
                let h = self.head[q];
                heads.push(h);
                out.extend(self.chain_stones(Point(h)));
            }
        }
        out.sort_unstable();
        out
    }

    /// A copy of the cell values (0 empty, 1 black, 2 white), one per point.
    pub(crate) fn cells_snapshot(&self) -> Box<[u8]> {
        self.cells[..self.n()].into()
    }

    /// Whether every existing neighbour of `p` is a stone of cell value `me`
    /// (`p` itself not checked). `D` must equal [`Board::deg`].
    #[inline(always)]
    pub(crate) fn surrounded_by<const D: usize>(&self, p: usize, me: u8) -> bool {
        let cells = &self.cells[..];
        let mut all = true;
        for q in self.row::<D>(p) {
            all &= cells[q as usize] & me != 0;
        }
        all
    }

    /// True when `p` is empty and every existing neighbour is a stone of `c`
    /// (a single-point own eye, as in the standard playout workload).
    #[inline]
    pub fn is_single_point_eye(&self, p: Point, c: Color) -> bool {
        let pi = p.index();
        if self.cells[..self.n()].get(pi) != Some(&EMPTY) {
            return false;
        }
        let me = c.cell();
        self.geom.nbrs(pi).iter().all(|q| self.cell(q.index()) == me)
    }

    /// Place a stone if it is on the board, on an empty point and not a
    /// suicide (003 §2.1–2.2; no repetition rule at this level). Returns the
    /// number of captured stones (appended to `captured_out` when given), or
    /// `None` when the move is impossible.
    pub fn place(&mut self, p: Point, c: Color, captured_out: Option<&mut Vec<Point>>) -> Option<u32> {
        self.move_effect(p, c).ok()?;
        Some(self.place_unchecked(p, c, captured_out))
    }

    /// Place a stone without the suicide check, capturing opponent chains
    /// left without liberties (003 §2.2). The caller guarantees that the
    /// move is not a suicide (see [`Board::is_legal_basic`]); off-board and
    /// occupied points are ignored (returns 0).
    /// Returns the number of stones captured; captured points are appended
    /// to `captured_out` when given.
    pub(crate) fn place_unchecked(&mut self, p: Point, c: Color, captured_out: Option<&mut Vec<Point>>) -> u32 {
        let pi = p.index();
        if pi >= self.n() || self.cells[pi] != EMPTY {
            return 0;
        }
        if self.deg == 4 {
            self.place_at::<4>(pi, c, captured_out)
        } else {
            self.place_at::<6>(pi, c, captured_out)
        }
    }

    /// [`Board::place_unchecked`] for an empty on-board point `pi`;
    /// `D` must equal [`Board::deg`].
    #[inline]
    pub(crate) fn place_at<const D: usize>(
        &mut self,
        pi: usize,
        c: Color,
        captured_out: Option<&mut Vec<Point>>,
    ) -> u32 {
        let me = c.cell();
        self.remove_empty(pi);
        self.stones[c.idx()] += 1;
        // Split borrows: the arrays live in registers as plain slices, so
        // writes to one of them do not force reloads of the others.
        let Board { geom, adj, cells, head, next, libs, count, hash, .. } = self;
        let geom: &Geometry = geom;
        let adj: &[u16] = adj;
        let cells = &mut cells[..];
        let head = &mut head[..];
        let next = &mut next[..];
        let libs = &mut libs[..];
        let count = &mut count[..];
        cells[pi] = me;
        *hash ^= geom.zkey(pi, me);

        // One pass over the neighbours: distinct adjacent chains (each loses
        // the liberty `p`), empty neighbours, the largest own chain (the
        // merge base; the first one wins ties), and whether something dies.
        let nb = row::<D>(adj, pi);
        let mut heads = [u16::MAX; 6];
        let mut nh = 0usize;
        let mut n_empty = 0u16;
        let mut base = u16::MAX;
        let mut base_count = 0u16;
        let mut n_own = 0usize;
        let mut capture = false;
        for q in nb {
            let q = q as usize;
            let cq = cells[q];
            if cq == EMPTY {
                n_empty += 1;
                continue;
            }
            if cq == WALL {
                continue;
            }
            let h = head[q];
            if heads[..nh].contains(&h) {
                continue;
            }
            heads[nh] = h;
            nh += 1;
            let hi = h as usize;
            libs[hi] -= 1;
            if cq == me {
                n_own += 1;
                if count[hi] > base_count {
                    base = h;
                    base_count = count[hi];
                }
            } else if libs[hi] == 0 {
                capture = true;
            }
        }

        if n_own == 0 {
            head[pi] = pi as u16;
            next[pi] = pi as u16;
            count[pi] = 1;
            libs[pi] = n_empty;
        } else {
            // Add p to base b. Its empty neighbours are new liberties unless b
            // already touches them (p is not yet labelled as b).
            let b = base;
            let bi = b as usize;
            head[pi] = u16::MAX;
            let mut added = 0u16;
            if n_empty > 0 {
                for q in nb {
                    let q = q as usize;
                    if cells[q] == EMPTY && !is_liberty_of::<D>(adj, head, q, b) {
                        added += 1;
                    }
                }
            }
            head[pi] = b;
            next[pi] = next[bi];
            next[bi] = pi as u16;
            count[bi] += 1;
            // Merge every other own chain into b, walking only the smaller chains.
            if n_own > 1 {
                for &h in &heads[..nh] {
                    let hi = h as usize;
                    if h == b || cells[hi] != me {
                        continue;
                    }
                    let mut s = hi;
                    loop {
                        for q in row::<D>(adj, s) {
                            let q = q as usize;
                            if cells[q] == EMPTY && !is_liberty_of::<D>(adj, head, q, b) {
                                added += 1;
                            }
                        }
                        head[s] = b;
                        s = next[s] as usize;
                        if s == hi {
                            break;
                        }
                    }
                    // Splice the rings.
                    next.swap(bi, hi);
                    count[bi] += count[hi];
                }
            }
            libs[bi] += added;
        }

        // Capture opponent chains without liberties.
        if !capture {
            return 0;
        }
        let mut total = 0u32;
        let mut out = captured_out;
        for &h in &heads[..nh] {
            let hi = h as usize;
            let ch = self.cells[hi];
            if ch != EMPTY && ch != me && self.libs[hi] == 0 {
                total += self.remove_chain::<D>(hi, out.as_deref_mut());
            }
        }
        total
    }

    /// Remove the chain with head `h`; adjacent chains gain liberties.
    fn remove_chain<const D: usize>(&mut self, h: usize, out: Option<&mut Vec<Point>>) -> u32 {
        let them = self.cells[h];
        let col = if them == BLACK { 0 } else { 1 };
        // The chain had no liberty, so every neighbour of its stones is one
        // of its own stones (emptied below), a stone of `capturer` or the wall.
        let capturer = 3 - them;
        let Board { geom, adj, cells, head, next, libs, empties, empty_pos, hash, .. } = self;
        let geom: &Geometry = geom;
        let adj: &[u16] = adj;
        let cells = &mut cells[..];
        let head = &mut head[..];
        let next = &mut next[..];
        let libs = &mut libs[..];
        let empty_pos = &mut empty_pos[..];
        let mut n = 0u32;
        let mut hsh = *hash;
        let mut s = h;
        loop {
            cells[s] = EMPTY;
            hsh ^= geom.zkey(s, them);
            empty_pos[s] = empties.len() as u16;
            empties.push(s as u16);
            n += 1;
            s = next[s] as usize;
            if s == h {
                break;
            }
        }
        *hash = hsh;
        if let Some(o) = out {
            let start = empties.len() - n as usize;
            o.extend(empties[start..].iter().map(|&x| Point(x)));
        }
        self.stones[col] -= n;
        // Every removed stone is a new liberty of each distinct chain next to it.
        let mut s = h;
        loop {
            let mut seen = [u16::MAX; 6];
            let mut ns = 0usize;
            for q in row::<D>(adj, s) {
                let q = q as usize;
                if cells[q] == capturer {
                    let hq = head[q];
                    if !seen[..ns].contains(&hq) {
                        seen[ns] = hq;
                        ns += 1;
                        libs[hq as usize] += 1;
                    }
                }
            }
            let nx = next[s] as usize;
            head[s] = s as u16;
            next[s] = s as u16;
            s = nx;
            if s == h {
                break;
            }
        }
        n
    }

    /// Off-board / occupied / suicide check only (no repetition rule).
    pub fn is_legal_basic(&self, p: Point, c: Color) -> bool {
        self.move_effect(p, c).is_ok()
    }

    /// Set cells directly and rebuild every chain (used for setup stones and
    /// for undo/replay; O(points)). Returns `false` and leaves the board
    /// unchanged if some chain would have no liberty.
    pub fn set_cells(&mut self, changes: &[(Point, Option<Color>)]) -> bool {
        let mut cells = self.cells.clone();
        for &(p, c) in changes {
            if let Some(x) = cells[..self.n()].get_mut(p.index()) {
                *x = c.map_or(EMPTY, Color::cell);
            }
        }
        let old = std::mem::replace(&mut self.cells, cells);
        self.rebuild();
        if self.has_chain_without_liberty() {
            self.cells = old;
            self.rebuild();
            return false;
        }
        true
    }

    fn has_chain_without_liberty(&self) -> bool {
        (0..self.n()).any(|i| self.cells[i] != EMPTY && self.head[i] as usize == i && self.libs[i] == 0)
    }

    /// Recompute chains, liberties, counts, hash and the empty list from the cells.
    pub(crate) fn rebuild(&mut self) {
        let n = self.n();
        let geom = Arc::clone(&self.geom);
        self.empties.clear();
        self.hash = 0;
        self.stones = [0, 0];
        let mut visited = vec![false; n];
        let mut stack: Vec<usize> = Vec::new();
        let mut mark = vec![u32::MAX; n];
        for i in 0..n {
            let c = self.cells[i];
            if c == EMPTY {
                self.empty_pos[i] = self.empties.len() as u16;
                self.empties.push(i as u16);
                self.head[i] = i as u16;
                self.next[i] = i as u16;
                continue;
            }
            self.hash ^= zobrist::stone_key(i, c);
            self.stones[(c - 1) as usize] += 1;
            if visited[i] {
                continue;
            }
            // Flood fill the chain, linking it into a ring headed by i.
            visited[i] = true;
            stack.push(i);
            let mut members: Vec<usize> = Vec::new();
            let mut libs = 0u16;
            while let Some(s) = stack.pop() {
                members.push(s);
                for &q in geom.nbrs(s) {
                    let q = q.index();
                    if self.cells[q] == c && !visited[q] {
                        visited[q] = true;
                        stack.push(q);
                    } else if self.cells[q] == EMPTY && mark[q] != i as u32 {
                        mark[q] = i as u32;
                        libs += 1;
                    }
                }
            }
            for (k, &s) in members.iter().enumerate() {
                self.head[s] = i as u16;
                self.next[s] = members[(k + 1) % members.len()] as u16;
            }
            self.count[i] = members.len() as u16;
            self.libs[i] = libs;
        }
    }

    /// Hash recomputed from scratch (for checks and tests).
    pub fn recompute_hash(&self) -> u64 {
        let mut h = 0;
        for (i, &c) in self.cells[..self.n()].iter().enumerate() {
            if c != EMPTY {
                h ^= zobrist::stone_key(i, c);
            }
        }
        h
    }

    /// Verify every incremental structure against a from-scratch rebuild.
    /// Returns a description of the first inconsistency.
    pub fn check_consistency(&self) -> Result<(), String> {
        let mut fresh = self.clone();
        fresh.rebuild();
        if fresh.hash != self.hash {
            return Err("hash differs from recomputed hash".into());
        }
        if fresh.stones != self.stones {
            return Err(format!("stone counts {:?} vs recomputed {:?}", self.stones, fresh.stones));
        }
        let mut e1 = self.empties.clone();
        e1.sort_unstable();
        let mut e2 = fresh.empties.clone();
        e2.sort_unstable();
        if e1 != e2 {
            return Err("empty list differs".into());
        }
        for (k, &p) in self.empties.iter().enumerate() {
            if self.empty_pos[p as usize] as usize != k {
                return Err(format!("empty_pos broken at {p}"));
            }
        }
        for i in 0..self.n() {
            if self.cells[i] == EMPTY {
                continue;
            }
            let p = Point(i as u16);
            // Same partition into chains.
            let h1 = self.head[i] as usize;
            let h2 = fresh.head[i] as usize;
            let mut a = self.chain_stones(p);
            let mut b = fresh.chain_stones(p);
            a.sort_unstable();
            b.sort_unstable();
            if a != b {
                return Err(format!("chain through {i} differs"));
            }
            if self.count[h1] != fresh.count[h2] {
                return Err(format!("stone count of chain {i}: {} vs {}", self.count[h1], fresh.count[h2]));
            }
            if self.libs[h1] != fresh.libs[h2] {
                return Err(format!("liberties of chain {i}: {} vs {}", self.libs[h1], fresh.libs[h2]));
            }
            if self.libs[h1] == 0 {
                return Err(format!("chain through {i} has no liberty"));
            }
        }
        Ok(())
    }

    /// Bytes of heap memory used by this board's own arrays.
    pub fn heap_bytes(&self) -> usize {
        self.cells.capacity()
            + 2 * (self.head.capacity()
                + self.next.capacity()
                + self.libs.capacity()
                + self.count.capacity()
                + self.empties.capacity()
                + self.empty_pos.capacity())
    }

    /// Heads of all chains with exactly one liberty (atari), sorted.
    pub fn chains_in_atari(&self) -> Vec<Point> {
        (0..self.n())
            .filter(|&i| self.cells[i] != EMPTY && self.head[i] as usize == i && self.libs[i] == 1)
            .map(|i| Point(i as u16))
            .collect()
    }

    /// Render a depth-1 board as ASCII (`X` black, `O` white, `.` empty),
    /// top row first; deeper boards are rendered layer by layer.
    pub fn to_ascii(&self) -> String {
        let (w, h, d) = self.geom.dims();
        let mut s = String::new();
        for z in 0..d {
            if d > 1 {
                s.push_str(&format!("z={}\n", self.geom.spec().z.start + z as i64));
            }
            for y in 0..h {
                for x in 0..w {
                    let i = (z * h + y) * w + x;
                    s.push(match self.cells[i] {
                        BLACK => 'X',
                        WHITE => 'O',
                        _ => '.',
                    });
                }
                s.push('\n');
            }
        }
        s
    }
}

/// The padded neighbour rows of a geometry and their width (see [`Board`]).
/// They depend only on the box dimensions, so one table per size is shared
/// process-wide (weakly held: freed with the last board of that size).
fn padded_rows(geom: &Geometry) -> (Arc<[u16]>, usize) {
    type Cache = Mutex<HashMap<(usize, usize, usize), (Weak<[u16]>, usize)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = geom.dims();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((w, deg)) = cache.get(&key) {
        if let Some(adj) = w.upgrade() {
            return (adj, *deg);
        }
    }
    let n = geom.len();
    let deg = if (0..n).all(|p| geom.nbrs(p).len() <= 4) { 4 } else { 6 };
    let mut adj = vec![n as u16; n * deg];
    for p in 0..n {
        for (k, q) in geom.nbrs(p).iter().enumerate() {
            adj[p * deg + k] = q.0;
        }
    }
    let adj: Arc<[u16]> = adj.into();
    cache.retain(|_, (w, _)| w.strong_count() > 0);
    cache.insert(key, (Arc::downgrade(&adj), deg));
    (adj, deg)
}

/// The padded neighbour row of `p` (see [`Board`]).
#[inline(always)]
fn row<const D: usize>(adj: &[u16], p: usize) -> [u16; D] {
    let mut r = [0u16; D];
    r.copy_from_slice(&adj[p * D..p * D + D]);
    r
}

/// Whether empty point `q` is adjacent to the chain with head `h` (a stone
/// index). An empty point or the wall is its own head, never `h`, so the
/// head alone decides.
#[inline(always)]
fn is_liberty_of<const D: usize>(adj: &[u16], head: &[u16], q: usize, h: u16) -> bool {
    let mut found = false;
    for r in row::<D>(adj, q) {
        found |= head[r as usize] == h;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(n: i64) -> Board {
        Board::new(Arc::new(Geometry::flat(n, n).unwrap()))
    }

    #[test]
    fn incremental_liberties_merge_and_capture() {
        // 003 §2.2: liberties and capture of a whole chain.
        let mut b = flat(5);
        let g = b.geometry_arc().clone();
        let p = |x, y| g.index_of(x, y, 1).unwrap();
        b.place_unchecked(p(2, 2), Color::Black, None);
        assert_eq!(b.liberties(p(2, 2)), 4);
        b.place_unchecked(p(3, 2), Color::Black, None);
        assert_eq!(b.liberties(p(2, 2)), 6);
        assert_eq!(b.chain_len(p(3, 2)), 2);
        for q in [p(1, 2), p(4, 2), p(2, 1), p(3, 1), p(2, 3)] {
            b.place_unchecked(q, Color::White, None);
            b.check_consistency().unwrap();
        }
        assert_eq!(b.liberties(p(2, 2)), 1);
        let mut caps = Vec::new();
        let n = b.place_unchecked(p(3, 3), Color::White, Some(&mut caps));
        assert_eq!(n, 2);
        caps.sort();
        assert_eq!(caps, vec![p(2, 2), p(3, 2)]);
        assert_eq!(b.stone_count(Color::Black), 0);
        b.check_consistency().unwrap();
        assert_eq!(b.hash(), b.recompute_hash());
    }

    #[test]
    fn interior_liberties_count_in_3d() {
        // 003 §2.2: surface stones count interior liberties too.
        let g = Arc::new(Geometry::cube(3).unwrap());
        let mut b = Board::new(g.clone());
        let c = g.index_of(2, 2, 2).unwrap();
        b.place_unchecked(c, Color::Black, None);
        assert_eq!(b.liberties(c), 6);
        let corner = g.index_of(1, 1, 1).unwrap();
        b.place_unchecked(corner, Color::White, None);
        assert_eq!(b.liberties(corner), 3);
        let face = g.index_of(2, 2, 1).unwrap(); // surface point touching the centre
        b.place_unchecked(face, Color::Black, None);
        assert_eq!(b.liberties(face), 4 + 5); // face point has 4 surface libs; centre keeps 5
        b.check_consistency().unwrap();
    }

    #[test]
    fn state_size_under_256_kib_for_25_cubed() {
        let b = Board::new(Arc::new(Geometry::cube(25).unwrap()));
        assert!(b.heap_bytes() + std::mem::size_of::<Board>() < 256 * 1024, "{}", b.heap_bytes());
    }

    #[test]
    fn set_cells_rejects_chains_without_liberties() {
        let mut b = flat(3);
        let g = b.geometry_arc().clone();
        let p = |x, y| g.index_of(x, y, 1).unwrap();
        assert!(b.set_cells(&[(p(2, 1), Some(Color::White)), (p(1, 2), Some(Color::White))]));
        assert!(!b.set_cells(&[(p(1, 1), Some(Color::Black))]));
        assert_eq!(b.stone_at(p(1, 1)), None);
        b.check_consistency().unwrap();
    }
}
