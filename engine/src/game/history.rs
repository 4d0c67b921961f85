//! Repetition history of a [`super::Game`]: the journal of cell changes and
//! the arrangements and situations seen so far (003 §2.3, 000 §5.3).
//!
//! Repetition is decided exactly: the 64-bit Zobrist hash is only the fast
//! filter, and every hash match is confirmed by comparing the arrangements
//! themselves. Earlier arrangements are not stored; a *mark* (the length of
//! the cell-change journal at that time) identifies one, and the arrangement
//! at a mark is the current one with the journal's later changes undone —
//! the comparison costs only the points changed since then.

use super::Move;
use crate::board::{Board, Color, EMPTY};
use crate::geometry::Point;
use crate::rules::KoRule;
use crate::zobrist::side_key;
use std::collections::hash_map::Entry;
use std::collections::HashMap;

/// One step of the effective history, replayed by undo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    Move(Color, Move),
    Resume(Color),
    EnterScoring,
}

/// One (arrangement, colour to move) situation for the korean rule, with
/// the mark of its most recent occurrence so that a hash match can be
/// confirmed exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Situation {
    pub(super) to_move: Color,
    pub(super) mark: u32,
    pub(super) count: u32,
}

/// Which of the repetition maps a rule set reads. Only those are kept: each
/// costs tens of bytes per move, and a server holds many long games at once.
/// The journal is always kept (the marks of `before_last` and of the maps
/// point into it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Kept {
    /// `seen`: every arrangement (000 §5.3 positional superko).
    pub(super) arrangements: bool,
    /// `situations`: occurrences of (arrangement, colour to move) (000 §5.3 korean).
    pub(super) situations: bool,
}

impl Kept {
    pub(super) fn for_rule(ko: KoRule) -> Kept {
        match ko {
            // 003 §2.3: only the arrangement before the opponent's last move.
            KoRule::Immediate => Kept { arrangements: false, situations: false },
            KoRule::PositionalSuperko => Kept { arrangements: true, situations: false },
            KoRule::Korean => Kept { arrangements: false, situations: true },
        }
    }
}

/// The journal and what was seen since the last reset (setup or start).
/// Fields are visible to the parent module so that its tests can plant hash
/// collisions.
#[derive(Clone, Debug, Default)]
pub(super) struct History {
    /// Every cell change of the effective history since the last reset, in
    /// order, as (point, cell value before the change).
    pub(super) journal: Vec<(u16, u8)>,
    /// Arrangement (hash, mark) just before each colour's most recent move (003 §2.3).
    pub(super) before_last: [Option<(u64, u32)>; 2],
    /// Every arrangement so far (000 §5.3 positional superko): hash → mark
    /// of its newest occurrence.
    pub(super) seen: HashMap<u64, u32>,
    /// Further arrangements whose hash collides with one in `seen` (hash,
    /// mark); practically always empty.
    pub(super) seen_extra: Vec<(u64, u32)>,
    /// Occurrences of (arrangement, colour to move) (000 §5.3 korean),
    /// keyed by hash ^ side key.
    pub(super) situations: HashMap<u64, Situation>,
    /// Further situations whose key collides with one in `situations`.
    pub(super) situations_extra: Vec<(u64, Situation)>,
}

/// The journal is left out: it only gives meaning to the marks, and two
/// games with equal boards and equal marks reached them the same way.
impl PartialEq for History {
    fn eq(&self, o: &History) -> bool {
        self.before_last == o.before_last
            && self.seen == o.seen
            && self.seen_extra == o.seen_extra
            && self.situations == o.situations
            && self.situations_extra == o.situations_extra
    }
}

impl History {
    /// Forget everything; the current arrangement with `to_move` to move is
    /// the first occurrence (in the maps that `ko` reads).
    pub(super) fn reset(&mut self, hash: u64, to_move: Color, ko: KoRule) {
        let kept = Kept::for_rule(ko);
        self.journal.clear();
        self.seen.clear();
        self.seen_extra.clear();
        self.situations.clear();
        self.situations_extra.clear();
        if kept.arrangements {
            self.seen.insert(hash, 0);
        }
        if kept.situations {
            self.situations.insert(hash ^ side_key(to_move.idx()), Situation { to_move, mark: 0, count: 1 });
        }
        self.before_last = [None, None];
    }

    /// The mark of the current arrangement.
    pub(super) fn mark(&self) -> u32 {
        self.journal.len() as u32
    }

    /// `c` is about to move from the arrangement with hash `hash` (003 §2.3).
    pub(super) fn before_move(&mut self, c: Color, hash: u64) {
        self.before_last[c.idx()] = Some((hash, self.mark()));
    }

    /// `c` placed a stone at `p` and removed the opponent stones `captured`.
    pub(super) fn journal_place(&mut self, p: Point, c: Color, captured: &[Point]) {
        self.journal.push((p.0, EMPTY));
        let them = c.opponent().cell();
        self.journal.extend(captured.iter().map(|s| (s.0, them)));
    }

    /// Whether `c` playing at empty `p` (capturing `caps()`, sorted) would
    /// restore the arrangement from just before `opponent`'s most recent move
    /// (003 §2.3). `caps` is only computed on a hash match.
    pub(super) fn restores_before_last(
        &self,
        board: &Board,
        opponent: Color,
        hash_after: u64,
        (p, c): (Point, Color),
        caps: impl FnOnce() -> Vec<Point>,
    ) -> bool {
        match self.before_last[opponent.idx()] {
            Some((h, mark)) if h == hash_after => self.matches_mark(board, mark, Some((p, c, &caps()))),
            _ => false,
        }
    }

    /// Whether `c` playing at empty `p` (capturing `caps()`, sorted) would
    /// recreate any arrangement seen since the reset (000 §5.3).
    pub(super) fn seen_before(
        &self,
        board: &Board,
        hash_after: u64,
        (p, c): (Point, Color),
        caps: impl FnOnce() -> Vec<Point>,
    ) -> bool {
        let Some(&m) = self.seen.get(&hash_after) else {
            return false;
        };
        let caps = caps();
        let extra = self.seen_extra.iter().filter(|e| e.0 == hash_after).map(|e| e.1);
        std::iter::once(m).chain(extra).any(|m| self.matches_mark(board, m, Some((p, c, &caps))))
    }

    /// Note the current arrangement (hash `h`) with `to_move` to move in the
    /// maps that `ko` reads, and return how often that situation has occurred
    /// through moves (000 §5.3 korean; 0 under the other rules). A recurrence
    /// counts only if a stone moved since the situation's previous occurrence: one repeated by passes alone (pass,
    /// pass, resume, pass, pass — 000 §5.5 step 5) is the same occurrence,
    /// not a cycle. Hash matches are confirmed exactly; a confirmed mark
    /// moves to the newest occurrence so that later confirmations stay short.
    pub(super) fn record_position(&mut self, board: &Board, h: u64, to_move: Color, ko: KoRule) -> u32 {
        let kept = Kept::for_rule(ko);
        let mark = self.mark();
        let History { journal, seen, seen_extra, situations, situations_extra, .. } = self;
        let same = |m: u32| matches_mark(journal, board, m, None);
        if kept.arrangements {
            match seen.entry(h) {
                Entry::Vacant(v) => {
                    v.insert(mark);
                }
                Entry::Occupied(mut o) => {
                    if same(*o.get()) {
                        *o.get_mut() = mark;
                    } else if let Some(e) = seen_extra.iter_mut().find(|e| e.0 == h && same(e.1)) {
                        e.1 = mark;
                    } else {
                        seen_extra.push((h, mark));
                    }
                }
            }
        }
        if !kept.situations {
            return 0;
        }
        let key = h ^ side_key(to_move.idx());
        let fresh = Situation { to_move, mark, count: 0 };
        // A known situation occurs once more (passes repeat one without
        // changing the journal, so the mark alone cannot tell).
        let sit = match situations.entry(key) {
            Entry::Vacant(v) => v.insert(fresh),
            Entry::Occupied(o) => {
                let s = o.into_mut();
                if s.to_move == to_move && same(s.mark) {
                    s
                } else if let Some(e) =
                    situations_extra.iter_mut().find(|e| e.0 == key && e.1.to_move == to_move && same(e.1.mark))
                {
                    &mut e.1
                } else {
                    situations_extra.push((key, fresh));
                    &mut situations_extra.last_mut().expect("just pushed").1
                }
            }
        };
        // Marks are journal lengths: equal marks mean no stone moved in between.
        if sit.count == 0 || sit.mark != mark {
            sit.count += 1;
        }
        sit.mark = mark;
        sit.count
    }

    /// Whether the arrangement at `mark` equals the current arrangement, or —
    /// with `mv = Some((p, c, captured))`, `captured` sorted — the arrangement
    /// after `c` plays at empty `p` capturing `captured`. Costs the changes
    /// since `mark`, not the board size.
    pub(super) fn matches_mark(&self, board: &Board, mark: u32, mv: Option<(Point, Color, &[Point])>) -> bool {
        matches_mark(&self.journal, board, mark, mv)
    }
}

/// See [`History::matches_mark`]; a free function so that it can run while a
/// history map is borrowed mutably.
fn matches_mark(journal: &[(u16, u8)], board: &Board, mark: u32, mv: Option<(Point, Color, &[Point])>) -> bool {
    let since = &journal[(mark as usize).min(journal.len())..];

    // Where the arrangement at `mark` differs from now: the first
    // recorded old value of each point changed since.
    let mut then: HashMap<u16, u8> = HashMap::with_capacity(since.len());
    for &(x, old) in since {
        then.entry(x).or_insert(old);
    }
    let (p, me, captured) = match mv {
        Some((p, c, caps)) => (Some(p.0), c.cell(), caps),
        None => (None, EMPTY, &[][..]),
    };
    // A point the move changes must also have changed since `mark`.
    if p.is_some_and(|p| !then.contains_key(&p)) || captured.iter().any(|s| !then.contains_key(&s.0)) {
        return false;
    }
    then.iter().all(|(&x, &old)| {
        let after = if Some(x) == p {
            me
        } else if captured.binary_search(&Point(x)).is_ok() {
            EMPTY
        } else {
            board.cell(x as usize)
        };
        old == after
    })
}

/// Whether `c` playing at empty `p` and capturing `captured` (sorted) leaves
/// exactly the arrangement `cells` (003 §5.3: the arrangement an undo
/// removed, kept as a snapshot because undo is rare).
pub(super) fn after_move_equals_cells(board: &Board, p: Point, c: Color, captured: &[Point], cells: &[u8]) -> bool {
    cells.len() == board.len()
        && cells.iter().enumerate().all(|(x, &v)| {
            let after = if x == p.index() {
                c.cell()
            } else if captured.binary_search(&Point(x as u16)).is_ok() {
                EMPTY
            } else {
                board.cell(x)
            };
            v == after
        })
}
