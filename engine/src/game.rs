//! Game state and history, kept apart from the board (like KataGo's
//! `boardhistory.h`): turn, phase, prisoners, repetition bookkeeping, undo,
//! and the action log that becomes the game record.

use crate::board::{BasicIllegal, Board, Color, MoveEffect, EMPTY};
use crate::geometry::{Coord, Geometry, Point};
use crate::labels::{handicap_points, HandicapError};
use crate::record::{Action, GameRecord, RECORD_VERSION};
use crate::result::GameResult;
use crate::rules::{KoRule, Rules};
use crate::zobrist::side_key;
use serde::{Deserialize, Serialize};
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::Arc;

/// A move: place a stone or pass (003 §2.1, §2.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Move {
    Place(Point),
    Pass,
}

/// Phase of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Moves are accepted.
    Playing,
    /// Two consecutive passes happened (003 §2.7, 000 §5.4); waiting for
    /// life-and-death review and scoring (or [`Game::resume`]).
    Scoring,
    /// Finished; see [`Game::result`].
    Over,
}

/// Which repetition rule rejected a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RepetitionKind {
    /// 003 §2.3: would restore the arrangement from just before the
    /// opponent's most recent move.
    Immediate,
    /// 000 §5.3: would recreate an arrangement seen earlier in the game.
    Superko,
    /// 003 §5.3: would recreate the arrangement that was just undone.
    AfterUndo,
}

/// Why a move was rejected. Every board-related variant carries the point
/// and its actual coordinates (003 §2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum IllegalMove {
    #[error("illegal move at {at}: the point is occupied")]
    Occupied { point: Point, at: Coord },
    #[error("illegal move at {at}: suicide (the stone would have no liberty and captures nothing)")]
    Suicide { point: Point, at: Coord },
    #[error("illegal move at {at}: repetition ({})", match kind {
        RepetitionKind::Immediate => "restores the arrangement from before the opponent's last move",
        RepetitionKind::Superko => "recreates an earlier arrangement",
        RepetitionKind::AfterUndo => "recreates the arrangement that was just undone",
    })]
    Repetition { kind: RepetitionKind, point: Point, at: Coord },
    #[error("illegal move at {at}: ko (a single stone may not be retaken immediately)")]
    Ko { point: Point, at: Coord },
    #[error("illegal move: point index {index} is off the board")]
    OffBoard { index: u32 },
    #[error("illegal move: it is {}'s turn, not {}'s", to_move.english(), color.english())]
    NotYourTurn { color: Color, to_move: Color },
    #[error("illegal move: the game is not in play (phase {phase:?})")]
    NotInPlay { phase: Phase },
}

/// Flat list of rejection kinds, with stable words for protocols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IllegalKind {
    Occupied,
    Suicide,
    Repetition,
    Superko,
    UndoRepetition,
    Ko,
    OffBoard,
    NotYourTurn,
    NotInPlay,
}

impl IllegalKind {
    /// A single word: `occupied`, `suicide`, `repetition`, `superko`,
    /// `undo_repetition`, `ko`, `off_board`, `not_your_turn`, `not_in_play`.
    pub const fn as_str(self) -> &'static str {
        match self {
            IllegalKind::Occupied => "occupied",
            IllegalKind::Suicide => "suicide",
            IllegalKind::Repetition => "repetition",
            IllegalKind::Superko => "superko",
            IllegalKind::UndoRepetition => "undo_repetition",
            IllegalKind::Ko => "ko",
            IllegalKind::OffBoard => "off_board",
            IllegalKind::NotYourTurn => "not_your_turn",
            IllegalKind::NotInPlay => "not_in_play",
        }
    }
}

impl IllegalMove {
    pub const fn kind(&self) -> IllegalKind {
        match self {
            IllegalMove::Occupied { .. } => IllegalKind::Occupied,
            IllegalMove::Suicide { .. } => IllegalKind::Suicide,
            IllegalMove::Repetition { kind: RepetitionKind::Immediate, .. } => IllegalKind::Repetition,
            IllegalMove::Repetition { kind: RepetitionKind::Superko, .. } => IllegalKind::Superko,
            IllegalMove::Repetition { kind: RepetitionKind::AfterUndo, .. } => IllegalKind::UndoRepetition,
            IllegalMove::Ko { .. } => IllegalKind::Ko,
            IllegalMove::OffBoard { .. } => IllegalKind::OffBoard,
            IllegalMove::NotYourTurn { .. } => IllegalKind::NotYourTurn,
            IllegalMove::NotInPlay { .. } => IllegalKind::NotInPlay,
        }
    }
    /// The reason word (see [`IllegalKind::as_str`]).
    pub const fn reason_word(&self) -> &'static str {
        self.kind().as_str()
    }
    /// The point concerned, if any.
    pub const fn point(&self) -> Option<Point> {
        match *self {
            IllegalMove::Occupied { point, .. }
            | IllegalMove::Suicide { point, .. }
            | IllegalMove::Repetition { point, .. }
            | IllegalMove::Ko { point, .. } => Some(point),
            _ => None,
        }
    }
}

/// What a successful move did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayOutcome {
    pub color: Color,
    pub mv: Move,
    /// Opponent stones removed by this move (003 §2.2).
    pub captured: Vec<Point>,
    /// Official move number of this move (passes count; illegal attempts
    /// and undone moves do not, 003 §2.5).
    pub move_number: u32,
    /// Phase after the move (e.g. `Scoring` after two passes).
    pub phase: Phase,
    /// Set when the move ended the game (korean triple repetition).
    pub result: Option<GameResult>,
}

/// Why an undo was refused (003 §5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum UndoError {
    #[error("nothing to undo")]
    NothingToUndo,
    #[error("a pass cannot be undone (003 §5.1)")]
    LastWasPass,
    #[error("undo is not allowed in phase {phase:?} (003 §4.4, §5.1)")]
    NotInPlay { phase: Phase },
}

/// What an undo restored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UndoOutcome {
    /// Colour and point of the undone stone move; that colour is to move again.
    pub color: Color,
    pub point: Point,
}

/// Problems with setup stones or handicap.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum SetupError {
    #[error("setup stones can only be placed before the first move")]
    GameStarted,
    #[error("setup point index {index} is off the board")]
    OffBoard { index: u32 },
    #[error("setup would leave a chain without liberties")]
    NoLiberties,
    #[error(transparent)]
    Handicap(#[from] HandicapError),
}

/// Phase-changing actions refused in the current phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("not allowed in phase {phase:?}")]
pub struct PhaseError {
    pub phase: Phase,
}

/// A chain with one liberty (000 §9 atari warnings).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AtariChain {
    pub color: Color,
    pub stones: Vec<Point>,
    pub liberty: Point,
}

/// One step of the effective history, replayed by undo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Move(Color, Move),
    Resume(Color),
    EnterScoring,
}

/// One (arrangement, colour to move) situation for the korean rule, with
/// the journal length at its most recent occurrence (see [`Game`]'s
/// `journal`) so that a hash match can be confirmed exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Situation {
    to_move: Color,
    mark: u32,
    count: u32,
}

/// A game: board + rules + history.
///
/// Repetition (003 §2.3, §5.3; 000 §5.3) is decided exactly: the 64-bit
/// Zobrist hash is only the fast filter, and every hash match is confirmed
/// by comparing the arrangements themselves. Earlier arrangements are not
/// stored; a *mark* (the length of the cell-change `journal` at that time)
/// identifies one, and the arrangement at a mark is the current one with
/// the journal's later changes undone — the comparison costs only the
/// points changed since then. The arrangement an undo removed is kept as a
/// snapshot (undo is rare).
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    board: Board,
    setup: Vec<(Point, Color)>,
    first_to_move: Color,
    to_move: Color,
    phase: Phase,
    result: Option<GameResult>,
    /// Stones captured BY each colour during play.
    captures: [u32; 2],
    consecutive_passes: u32,
    move_number: u32,
    steps: Vec<Step>,
    /// Every cell change of the effective history since the last reset, in
    /// order, as (point, cell value before the change).
    journal: Vec<(u16, u8)>,
    /// Arrangement (hash, mark) just before each colour's most recent move (003 §2.3).
    before_last: [Option<(u64, u32)>; 2],
    /// Every arrangement so far (000 §5.3 positional superko): hash → mark
    /// of its newest occurrence.
    seen: HashMap<u64, u32>,
    /// Further arrangements whose hash collides with one in `seen` (hash,
    /// mark); practically always empty.
    seen_extra: Vec<(u64, u32)>,
    /// Occurrences of (arrangement, colour to move) (000 §5.3 korean),
    /// keyed by hash ^ side key.
    situations: HashMap<u64, Situation>,
    /// Further situations whose key collides with one in `situations`.
    situations_extra: Vec<(u64, Situation)>,
    /// Korean simple ko: (point, colour that may not play there).
    ko: Option<(Point, Color)>,
    /// 003 §5.3: arrangement (hash, cells) that the next stone move may not recreate.
    undo_restriction: Option<(u64, Box<[u8]>)>,
    log: Vec<Action>,
}

impl PartialEq for Game {
    fn eq(&self, o: &Game) -> bool {
        self.rules == o.rules
            && self.board == o.board
            && self.setup == o.setup
            && self.first_to_move == o.first_to_move
            && self.to_move == o.to_move
            && self.phase == o.phase
            && self.result == o.result
            && self.captures == o.captures
            && self.consecutive_passes == o.consecutive_passes
            && self.move_number == o.move_number
            && self.steps == o.steps
            && self.before_last == o.before_last
            && self.seen == o.seen
            && self.seen_extra == o.seen_extra
            && self.situations == o.situations
            && self.situations_extra == o.situations_extra
            && self.ko == o.ko
            && self.undo_restriction == o.undo_restriction
    }
}

impl Game {
    /// A new game. With `rules.handicap ≥ 2` the handicap stones of 000 §4
    /// are placed for Black and White moves first.
    pub fn new(geometry: Geometry, rules: Rules) -> Result<Game, SetupError> {
        Game::with_geometry(Arc::new(geometry), rules)
    }

    /// Same as [`Game::new`] with a shared geometry.
    pub fn with_geometry(geom: Arc<Geometry>, rules: Rules) -> Result<Game, SetupError> {
        let hp = handicap_points(&geom, rules.handicap)?;
        let board = Board::new(geom);
        let mut g = Game {
            rules,
            board,
            setup: Vec::new(),
            first_to_move: Color::Black,
            to_move: Color::Black,
            phase: Phase::Playing,
            result: None,
            captures: [0, 0],
            consecutive_passes: 0,
            move_number: 0,
            steps: Vec::new(),
            journal: Vec::new(),
            before_last: [None, None],
            seen: HashMap::new(),
            seen_extra: Vec::new(),
            situations: HashMap::new(),
            situations_extra: Vec::new(),
            ko: None,
            undo_restriction: None,
            log: Vec::new(),
        };
        if !hp.is_empty() {
            let changes: Vec<(Point, Option<Color>)> = hp.iter().map(|&p| (p, Some(Color::Black))).collect();
            g.set_stones(&changes)?;
            g.first_to_move = Color::White;
            g.to_move = Color::White;
        }
        g.reset_history();
        Ok(g)
    }

    fn reset_history(&mut self) {
        self.journal.clear();
        self.seen.clear();
        self.seen_extra.clear();
        self.situations.clear();
        self.situations_extra.clear();
        self.seen.insert(self.board.hash(), 0);
        self.situations.insert(
            self.board.hash() ^ side_key(self.to_move.idx()),
            Situation { to_move: self.to_move, mark: 0, count: 1 },
        );
        self.before_last = [None, None];
        self.ko = None;
    }

    // ------------------------------------------------------------------
    // Accessors

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn geometry(&self) -> &Geometry {
        self.board.geometry()
    }
    pub fn geometry_arc(&self) -> &Arc<Geometry> {
        self.board.geometry_arc()
    }
    pub fn to_move(&self) -> Color {
        self.to_move
    }
    pub fn first_to_move(&self) -> Color {
        self.first_to_move
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// True once the game has a result.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }
    pub fn stone_at(&self, p: Point) -> Option<Color> {
        self.board.stone_at(p)
    }
    /// Number of opponent stones captured by `c` during play.
    pub fn captures(&self, c: Color) -> u32 {
        self.captures[c.idx()]
    }
    /// Official move count (stone moves and passes; undone moves excluded).
    pub fn move_number(&self) -> u32 {
        self.move_number
    }
    pub fn consecutive_passes(&self) -> u32 {
        self.consecutive_passes
    }
    /// The counted moves in order.
    pub fn moves(&self) -> Vec<(Color, Move)> {
        self.steps
            .iter()
            .filter_map(|s| match *s {
                Step::Move(c, m) => Some((c, m)),
                _ => None,
            })
            .collect()
    }
    /// Setup stones (handicap and AB/AW).
    pub fn setup_stones(&self) -> &[(Point, Color)] {
        &self.setup
    }
    /// The action log (every action, including illegal attempts and undos).
    pub fn log(&self) -> &[Action] {
        &self.log
    }
    /// 003 §5.3: whether the special after-undo restriction is active.
    pub fn undo_restriction_active(&self) -> bool {
        self.undo_restriction.is_some()
    }
    /// Korean simple-ko point for the player to move, if any.
    pub fn ko_point(&self) -> Option<Point> {
        self.ko.filter(|&(_, c)| c == self.to_move).map(|(p, _)| p)
    }
    /// Hash of the stone arrangement.
    pub fn hash(&self) -> u64 {
        self.board.hash()
    }
    fn coord(&self, p: Point) -> Coord {
        self.geometry().coords_of(p).unwrap_or(Coord::new(0, 0, 0))
    }

    /// The serde game record (003 §2.5, §5.3: includes illegal attempts and undos).
    pub fn record(&self) -> GameRecord {
        let g = self.geometry();
        GameRecord {
            version: RECORD_VERSION,
            geometry: g.spec(),
            rules: self.rules,
            setup: self.setup.iter().map(|&(p, c)| crate::record::SetupStone { color: c, at: self.coord(p) }).collect(),
            first_to_move: self.first_to_move,
            actions: self.log.clone(),
        }
    }

    // ------------------------------------------------------------------
    // Setup

    /// Put or remove setup stones (SGF AB/AW/AE) before the first move.
    /// No captures happen; a setup that would leave a chain without
    /// liberties is refused.
    pub fn set_stones(&mut self, changes: &[(Point, Option<Color>)]) -> Result<(), SetupError> {
        if !self.steps.is_empty() || self.move_number > 0 {
            return Err(SetupError::GameStarted);
        }
        for &(p, _) in changes {
            if !self.geometry().contains(p) {
                return Err(SetupError::OffBoard { index: p.0 as u32 });
            }
        }
        if !self.board.set_cells(changes) {
            return Err(SetupError::NoLiberties);
        }
        for &(p, c) in changes {
            self.setup.retain(|&(q, _)| q != p);
            if let Some(c) = c {
                self.setup.push((p, c));
            }
        }
        self.reset_history();
        Ok(())
    }

    /// Put the setup list in the order of `changes` (record replay).
    pub(crate) fn reorder_setup(&mut self, changes: &[(Point, Option<Color>)]) {
        let mut v = Vec::with_capacity(self.setup.len());
        for &(p, c) in changes {
            if let Some(c) = c {
                if self.setup.contains(&(p, c)) {
                    v.push((p, c));
                }
            }
        }
        if v.len() == self.setup.len() {
            self.setup = v;
        }
    }

    /// One setup stone (`None` clears the point).
    pub fn set_stone(&mut self, p: Point, c: Option<Color>) -> Result<(), SetupError> {
        self.set_stones(&[(p, c)])
    }

    /// Choose who moves first (SGF `PL`), before the first move.
    pub fn set_first_to_move(&mut self, c: Color) -> Result<(), SetupError> {
        if !self.steps.is_empty() || self.move_number > 0 {
            return Err(SetupError::GameStarted);
        }
        self.first_to_move = c;
        self.to_move = c;
        self.reset_history();
        Ok(())
    }

    // ------------------------------------------------------------------
    // Legality

    /// Full rule check of a stone move by `c`, as if `c` were to move now
    /// (turn and phase are not checked here).
    fn check_place(&self, c: Color, p: Point) -> Result<MoveEffect, IllegalMove> {
        let eff = match self.board.move_effect(p, c) {
            Ok(e) => e,
            Err(BasicIllegal::OffBoard) => return Err(IllegalMove::OffBoard { index: p.0 as u32 }),
            Err(BasicIllegal::Occupied) => return Err(IllegalMove::Occupied { point: p, at: self.coord(p) }),
            Err(BasicIllegal::Suicide) => return Err(IllegalMove::Suicide { point: p, at: self.coord(p) }),
        };
        let rep = |kind| IllegalMove::Repetition { kind, point: p, at: self.coord(p) };
        // Hash matches are confirmed exactly; the capture set is only
        // computed then.
        let caps = || self.board.capture_set(p, c);
        // 003 §5.3: the undone arrangement may not be recreated by the next stone move.
        if let Some((h, cells)) = &self.undo_restriction {
            if *h == eff.hash_after && self.after_move_equals_cells(p, c, &caps(), cells) {
                return Err(rep(RepetitionKind::AfterUndo));
            }
        }
        match self.rules.ko {
            KoRule::Immediate => {
                // 003 §2.3.
                if let Some((h, mark)) = self.before_last[c.opponent().idx()] {
                    if h == eff.hash_after && self.matches_mark(mark, Some((p, c, &caps()))) {
                        return Err(rep(RepetitionKind::Immediate));
                    }
                }
            }
            KoRule::PositionalSuperko => {
                // 000 §5.3.
                let h = eff.hash_after;
                if let Some(&m) = self.seen.get(&h) {
                    let caps = caps();
                    let marks = std::iter::once(m).chain(self.seen_extra.iter().filter(|e| e.0 == h).map(|e| e.1));
                    if marks.into_iter().any(|m| self.matches_mark(m, Some((p, c, &caps)))) {
                        return Err(rep(RepetitionKind::Superko));
                    }
                }
            }
            KoRule::Korean => {
                // 000 §5.3 korean: simple ko only.
                if eff.captured == 1 && self.ko == Some((p, c)) {
                    return Err(IllegalMove::Ko { point: p, at: self.coord(p) });
                }
            }
        }
        Ok(eff)
    }

    /// Whether the arrangement at journal length `mark` equals the current
    /// arrangement, or — with `mv = Some((p, c, captured))`, `captured`
    /// sorted — the arrangement after `c` plays at empty `p` capturing
    /// `captured`. Costs the changes since `mark`, not the board size.
    fn matches_mark(&self, mark: u32, mv: Option<(Point, Color, &[Point])>) -> bool {
        matches_mark(&self.journal, &self.board, mark, mv)
    }
    /// Whether `c` playing at empty `p` and capturing `captured` (sorted)
    /// leaves exactly the arrangement `cells`.
    fn after_move_equals_cells(&self, p: Point, c: Color, captured: &[Point], cells: &[u8]) -> bool {
        cells.len() == self.board.len()
            && cells.iter().enumerate().all(|(x, &v)| {
                let after = if x == p.index() {
                    c.cell()
                } else if captured.binary_search(&Point(x as u16)).is_ok() {
                    EMPTY
                } else {
                    self.board.cell(x)
                };
                v == after
            })
    }

    /// Why `c` may not play at `p` now, or `None` if the move is legal.
    /// Turn order is not considered (ask about either colour); the phase is.
    pub fn illegal_reason(&self, c: Color, p: Point) -> Option<IllegalMove> {
        if self.phase != Phase::Playing {
            return Some(IllegalMove::NotInPlay { phase: self.phase });
        }
        self.check_place(c, p).err()
    }

    /// Whether `c` may play `mv` now (turn order not considered).
    pub fn is_legal(&self, c: Color, mv: Move) -> bool {
        match mv {
            Move::Pass => self.phase == Phase::Playing,
            Move::Place(p) => self.illegal_reason(c, p).is_none(),
        }
    }

    /// All empty points where `c` may legally play, sorted.
    pub fn legal_points(&self, c: Color) -> Vec<Point> {
        if self.phase != Phase::Playing {
            return Vec::new();
        }
        // Index order is sorted order; empty cells are skipped cheaply.
        self.geometry()
            .points()
            .filter(|&p| self.board.stone_at(p).is_none() && self.check_place(c, p).is_ok())
            .collect()
    }

    /// Empty points where `c` may not play, with reasons (000 §8.3), sorted.
    pub fn illegal_points(&self, c: Color) -> Vec<(Point, IllegalMove)> {
        if self.phase != Phase::Playing {
            return Vec::new();
        }
        self.geometry()
            .points()
            .filter(|&p| self.board.stone_at(p).is_none())
            .filter_map(|p| self.check_place(c, p).err().map(|e| (p, e)))
            .collect()
    }

    /// Chains with exactly one liberty (000 §9 atari warnings), optionally of one colour.
    pub fn chains_in_atari(&self, color: Option<Color>) -> Vec<AtariChain> {
        self.board
            .chains_in_atari()
            .into_iter()
            .filter_map(|h| {
                let c = self.board.stone_at(h)?;
                if color.is_some_and(|x| x != c) {
                    return None;
                }
                let liberty = *self.board.chain_liberties(h).first()?;
                let mut stones = self.board.chain_stones(h);
                stones.sort_unstable();
                Some(AtariChain { color: c, stones, liberty })
            })
            .collect()
    }

    // ------------------------------------------------------------------
    // Moves

    /// Play `mv` for `c`, who must be the player to move.
    pub fn play(&mut self, c: Color, mv: Move) -> Result<PlayOutcome, IllegalMove> {
        if self.phase == Phase::Playing && c != self.to_move {
            let e = IllegalMove::NotYourTurn { color: c, to_move: self.to_move };
            self.log_illegal(c, mv, e);
            return Err(e);
        }
        self.play_explicit(c, mv)
    }

    /// Play `mv` for `c` regardless of whose turn it is (records with an
    /// explicit colour per move, GTP `play`); every other rule applies.
    /// Afterwards the opponent of `c` is to move.
    pub fn play_explicit(&mut self, c: Color, mv: Move) -> Result<PlayOutcome, IllegalMove> {
        if self.phase != Phase::Playing {
            let e = IllegalMove::NotInPlay { phase: self.phase };
            self.log_illegal(c, mv, e);
            return Err(e);
        }
        if let Move::Place(p) = mv {
            if let Err(e) = self.check_place(c, p) {
                self.log_illegal(c, mv, e);
                return Err(e);
            }
        }
        let captured = self.apply(c, mv);
        self.log.push(match mv {
            Move::Pass => Action::Pass { color: c },
            Move::Place(p) => Action::Play { color: c, at: self.coord(p) },
        });
        Ok(PlayOutcome {
            color: c,
            mv,
            captured,
            move_number: self.move_number,
            phase: self.phase,
            result: self.result,
        })
    }

    /// Fast path: play without the repetition rules, turn or phase checks
    /// (for replaying trusted move lists). Off-board, occupied and suicide
    /// are still refused, because they would corrupt the board. Not logged
    /// as an attempt when refused.
    pub fn play_unchecked(&mut self, c: Color, mv: Move) -> Result<u32, IllegalMove> {
        if let Move::Place(p) = mv {
            match self.board.move_effect(p, c) {
                Ok(_) => {}
                Err(BasicIllegal::OffBoard) => return Err(IllegalMove::OffBoard { index: p.0 as u32 }),
                Err(BasicIllegal::Occupied) => return Err(IllegalMove::Occupied { point: p, at: self.coord(p) }),
                Err(BasicIllegal::Suicide) => return Err(IllegalMove::Suicide { point: p, at: self.coord(p) }),
            }
        }
        let before = self.captures[c.idx()];
        self.apply_inner(c, mv, None);
        self.log.push(match mv {
            Move::Pass => Action::Pass { color: c },
            Move::Place(p) => Action::Play { color: c, at: self.coord(p) },
        });
        Ok(self.captures[c.idx()] - before)
    }

    fn log_illegal(&mut self, c: Color, mv: Move, e: IllegalMove) {
        let (at, index) = match mv {
            Move::Pass => (None, None),
            Move::Place(p) => match self.geometry().coords_of(p) {
                Some(x) => (Some(x), None),
                None => (None, Some(p.0 as u32)),
            },
        };
        self.log.push(Action::Illegal { color: c, pass: mv == Move::Pass, at, index, reason: e.kind() });
    }

    fn apply(&mut self, c: Color, mv: Move) -> Vec<Point> {
        let mut captured = Vec::new();
        self.apply_inner(c, mv, Some(&mut captured));
        captured.sort_unstable();
        captured
    }

    /// Apply a move known to be structurally possible and update history.
    fn apply_inner(&mut self, c: Color, mv: Move, captured: Option<&mut Vec<Point>>) {
        let before = self.board.hash();
        self.before_last[c.idx()] = Some((before, self.journal.len() as u32));
        match mv {
            Move::Place(p) => {
                let mut local = Vec::new();
                let out = match captured {
                    Some(v) => v,
                    None => &mut local,
                };
                let start = out.len();
                let n = self.board.place_unchecked(p, c, Some(out));
                self.captures[c.idx()] += n;
                self.journal.push((p.0, EMPTY));
                let them = c.opponent().cell();
                self.journal.extend(out[start..].iter().map(|s| (s.0, them)));
                self.ko = None;
                if self.rules.ko == KoRule::Korean
                    && n == 1
                    && self.board.chain_len(p) == 1
                    && self.board.liberties(p) == 1
                {
                    self.ko = Some((out[start], c.opponent()));
                }
                // 003 §5.3: a valid stone move lifts the after-undo restriction.
                self.undo_restriction = None;
                self.consecutive_passes = 0;
            }
            Move::Pass => {
                self.ko = None;
                self.consecutive_passes += 1;
            }
        }
        self.move_number += 1;
        self.steps.push(Step::Move(c, mv));
        self.to_move = c.opponent();
        let h = self.board.hash();
        let mark = self.journal.len() as u32;
        // Hash matches are confirmed exactly; a confirmed mark moves to the
        // newest occurrence so that later confirmations stay short.
        let Game { journal, board, seen, seen_extra, situations, situations_extra, to_move, .. } = self;
        let same = |m: u32| matches_mark(journal, board, m, None);
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
        let key = h ^ side_key(to_move.idx());
        let fresh = Situation { to_move: *to_move, mark, count: 0 };
        // A known situation occurs once more (passes repeat one without
        // changing the journal, so the mark alone cannot tell).
        let sit = match situations.entry(key) {
            Entry::Vacant(v) => v.insert(fresh),
            Entry::Occupied(o) => {
                let s = o.into_mut();
                if s.to_move == *to_move && same(s.mark) {
                    s
                } else if let Some(e) =
                    situations_extra.iter_mut().find(|e| e.0 == key && e.1.to_move == *to_move && same(e.1.mark))
                {
                    &mut e.1
                } else {
                    situations_extra.push((key, fresh));
                    &mut situations_extra.last_mut().expect("just pushed").1
                }
            }
        };
        sit.mark = mark;
        sit.count += 1;
        let cnt = sit.count;
        if self.rules.ko == KoRule::Korean && cnt >= 3 {
            // 000 §5.3 korean: third occurrence → draw by repetition.
            self.phase = Phase::Over;
            self.result = Some(GameResult::repetition());
        } else if self.consecutive_passes >= 2 {
            // 003 §2.7, 000 §5.4: two consecutive passes → scoring.
            self.phase = Phase::Scoring;
        }
    }

    /// Undo the most recent stone move (003 §5.1, §5.3): stones, prisoners
    /// and turn are restored; the undone move stays in the record; the
    /// undone arrangement may not be recreated by the next stone move (a pass
    /// keeps that restriction, a different valid stone move lifts it).
    pub fn undo(&mut self) -> Result<UndoOutcome, UndoError> {
        if self.phase != Phase::Playing {
            return Err(UndoError::NotInPlay { phase: self.phase });
        }
        let (c, p) = match self.steps.last() {
            None => return Err(UndoError::NothingToUndo),
            Some(Step::Move(c, Move::Place(p))) => (*c, *p),
            Some(_) => return Err(UndoError::LastWasPass),
        };
        let undone = (self.board.hash(), self.board.cells_snapshot());
        let mut steps = std::mem::take(&mut self.steps);
        steps.pop();
        self.rebuild_from(&steps);
        self.undo_restriction = Some(undone);
        self.log.push(Action::Undo { color: c, at: self.coord(p) });
        Ok(UndoOutcome { color: c, point: p })
    }

    /// Rebuild all state from setup and a list of steps (all known legal).
    fn rebuild_from(&mut self, steps: &[Step]) {
        let changes: Vec<(Point, Option<Color>)> = self.setup.iter().map(|&(p, c)| (p, Some(c))).collect();
        self.board.clear();
        // Setup was accepted before, so this cannot fail.
        let _ = self.board.set_cells(&changes);
        self.to_move = self.first_to_move;
        self.phase = Phase::Playing;
        self.result = None;
        self.captures = [0, 0];
        self.consecutive_passes = 0;
        self.move_number = 0;
        self.steps.clear();
        self.undo_restriction = None;
        self.reset_history();
        for &s in steps {
            match s {
                Step::Move(c, mv) => self.apply_inner(c, mv, None),
                Step::Resume(by) => self.resume_inner(by),
                Step::EnterScoring => self.enter_scoring_inner(),
            }
        }
    }

    // ------------------------------------------------------------------
    // Phase changes and endings

    /// Leave the scoring phase and continue play (000 §5.5 step 5): the
    /// opponent of the requesting player moves first.
    pub fn resume(&mut self, requested_by: Color) -> Result<(), PhaseError> {
        if self.phase != Phase::Scoring {
            return Err(PhaseError { phase: self.phase });
        }
        self.resume_inner(requested_by);
        self.log.push(Action::Resume { by: requested_by });
        Ok(())
    }
    fn resume_inner(&mut self, by: Color) {
        self.phase = Phase::Playing;
        self.consecutive_passes = 0;
        self.to_move = by.opponent();
        self.ko = None;
        self.steps.push(Step::Resume(by));
    }

    /// Enter scoring by agreement (003 §2.7: both players requested scoring
    /// on the same position).
    pub fn enter_scoring(&mut self) -> Result<(), PhaseError> {
        if self.phase != Phase::Playing {
            return Err(PhaseError { phase: self.phase });
        }
        self.enter_scoring_inner();
        self.log.push(Action::EnterScoring);
        Ok(())
    }
    fn enter_scoring_inner(&mut self) {
        self.phase = Phase::Scoring;
        self.steps.push(Step::EnterScoring);
    }

    fn end(&mut self, r: GameResult, a: Action) -> Result<GameResult, PhaseError> {
        if self.phase == Phase::Over {
            return Err(PhaseError { phase: self.phase });
        }
        self.phase = Phase::Over;
        self.result = Some(r);
        self.log.push(a);
        Ok(r)
    }
    /// `loser` resigns (003 §2.7).
    pub fn resign(&mut self, loser: Color) -> Result<GameResult, PhaseError> {
        self.end(GameResult::resignation(loser), Action::Resign { color: loser })
    }
    /// `loser` ran out of time (003 §5.4).
    pub fn time_loss(&mut self, loser: Color) -> Result<GameResult, PhaseError> {
        self.end(GameResult::time_loss(loser), Action::TimeLoss { color: loser })
    }
    /// Both players agreed to a draw.
    pub fn agree_draw(&mut self) -> Result<GameResult, PhaseError> {
        self.end(GameResult::draw_agreed(), Action::DrawAgreed)
    }

    /// Finish the game by counting with the agreed final marks (003 §4,
    /// 000 §6). Allowed in the playing and scoring phases.
    pub fn finish_by_score(
        &mut self,
        marks: &crate::scoring::ScoringMarks,
    ) -> Result<crate::scoring::ScoreStatement, crate::scoring::ScoringError> {
        if self.phase == Phase::Over {
            return Err(crate::scoring::ScoringError::GameOver);
        }
        let st = crate::scoring::score(self, marks)?;
        let rec = crate::record::MarksRecord::from_marks(self.geometry(), marks);
        self.phase = Phase::Over;
        self.result = Some(st.result);
        self.log.push(Action::Score { marks: rec });
        Ok(st)
    }
}

#[cfg(test)]
pub(crate) mod tests;

/// See [`Game::matches_mark`]; a free function so that it can run while a
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

/// Exact repetition: a hash match alone never makes a move illegal (or a
/// game a draw); the arrangements are compared. Collisions of the 64-bit
/// hash cannot be found by search, so these tests plant a colliding entry
/// (the hash of the move's result, attached to a different arrangement)
/// directly in the history.
#[cfg(test)]
mod exact_repetition_tests {
    use super::*;

    fn flat5() -> Arc<Geometry> {
        Arc::new(Geometry::flat(5, 5).unwrap())
    }
    fn pt(g: &Game, x: usize, y: usize) -> Point {
        g.geometry().point_from_offsets(x, y, 0).unwrap()
    }
    /// A game with B (1,1), W (3,3) played; Black to move.
    fn opened(rules: Rules) -> Game {
        let mut g = Game::with_geometry(flat5(), rules).unwrap();
        g.play(Color::Black, Move::Place(pt(&g, 1, 1))).unwrap();
        g.play(Color::White, Move::Place(pt(&g, 3, 3))).unwrap();
        g
    }

    #[test]
    fn immediate_rule_needs_the_same_arrangement_not_just_the_hash() {
        let mut g = opened(Rules::space());
        let p = pt(&g, 2, 2);
        let h = g.board.move_effect(p, Color::Black).unwrap().hash_after;
        // Plant: "before White's last move the hash was h" — at mark 0, the
        // empty board, which is not the arrangement after B (2,2).
        g.before_last[Color::White.idx()] = Some((h, 0));
        assert_eq!(g.illegal_reason(Color::Black, p), None);
        assert!(g.legal_points(Color::Black).contains(&p));
        // Marks compare arrangements, not hashes: after B (2,2) the current
        // arrangement matches its own mark and not the empty board's.
        g.play(Color::Black, Move::Place(p)).unwrap();
        assert!(g.matches_mark(g.journal.len() as u32, None));
        assert!(!g.matches_mark(0, None));
    }

    #[test]
    fn superko_needs_the_same_arrangement_not_just_the_hash() {
        let mut g = opened(Rules::classic());
        let p = pt(&g, 2, 2);
        let h = g.board.move_effect(p, Color::Black).unwrap().hash_after;
        g.seen.insert(h, 0); // the empty board…
        g.seen_extra.push((h, 1)); // …and the board after B (1,1)
        assert_eq!(g.illegal_reason(Color::Black, p), None);
        g.play(Color::Black, Move::Place(p)).unwrap();
        // The colliding hash now holds a third, distinct arrangement.
        assert_eq!(g.seen[&h], 0);
        assert_eq!(g.seen_extra, vec![(h, 1), (h, 3)]);
    }

    #[test]
    fn korean_count_needs_the_same_arrangement_not_just_the_hash() {
        let mut r = Rules::classic();
        r.ko = KoRule::Korean;
        let mut g = opened(r);
        let p = pt(&g, 2, 2);
        let h = g.board.move_effect(p, Color::Black).unwrap().hash_after;
        // Two earlier "occurrences" of the situation after B (2,2), White to
        // move — but with the empty board's arrangement.
        let key = h ^ side_key(Color::White.idx());
        g.situations.insert(key, Situation { to_move: Color::White, mark: 0, count: 2 });
        g.play(Color::Black, Move::Place(p)).unwrap();
        assert_eq!(g.phase(), Phase::Playing, "a hash collision is not a third occurrence");
        assert_eq!(g.situations[&key].count, 2);
        assert_eq!(g.situations_extra, vec![(key, Situation { to_move: Color::White, mark: 3, count: 1 })]);
    }

    #[test]
    fn after_undo_restriction_needs_the_same_arrangement_not_just_the_hash() {
        let mut g = opened(Rules::space());
        let q = pt(&g, 2, 2);
        g.play(Color::Black, Move::Place(q)).unwrap();
        g.undo().unwrap();
        assert!(g.undo_restriction_active());
        // The real undone arrangement is refused…
        assert_eq!(g.illegal_reason(Color::Black, q).map(|e| e.kind()), Some(IllegalKind::UndoRepetition));
        // …but a different move whose result merely has the restricted hash is not.
        let p = pt(&g, 0, 4);
        let h = g.board.move_effect(p, Color::Black).unwrap().hash_after;
        let cells = g.undo_restriction.as_ref().unwrap().1.clone();
        g.undo_restriction = Some((h, cells));
        assert_eq!(g.illegal_reason(Color::Black, p), None);
        g.play(Color::Black, Move::Place(p)).unwrap();
        assert!(!g.undo_restriction_active());
    }

    #[test]
    fn marks_follow_captures_and_recaptures() {
        // A ko on a 5×5 board: the journal reconstructs earlier arrangements
        // exactly through captures.
        //   . X O . .
        //   X . X O .
        //   . X O . .
        let mut g = Game::with_geometry(flat5(), Rules::classic()).unwrap();
        let stones = [
            (1, 0, Color::Black),
            (0, 1, Color::Black),
            (2, 1, Color::Black),
            (1, 2, Color::Black),
            (2, 0, Color::White),
            (3, 1, Color::White),
            (2, 2, Color::White),
        ];
        let changes: Vec<_> = stones.iter().map(|&(x, y, c)| (pt(&g, x, y), Some(c))).collect();
        g.set_stones(&changes).unwrap();
        g.set_first_to_move(Color::White).unwrap();
        let start_mark = g.journal.len() as u32;
        g.play(Color::White, Move::Place(pt(&g, 1, 1))).unwrap(); // captures (2,1)
        assert_eq!(g.captures(Color::White), 1);
        // Black's immediate retake would recreate the start: superko.
        let e = g.illegal_reason(Color::Black, pt(&g, 2, 1)).unwrap();
        assert_eq!(e.kind(), IllegalKind::Superko);
        assert!(g.matches_mark(start_mark, Some((pt(&g, 2, 1), Color::Black, &[pt(&g, 1, 1)]))));
        assert!(!g.matches_mark(start_mark, None));
        // Under the immediate rule the same retake is refused as "repetition".
        let mut s = Game::with_geometry(flat5(), Rules::space()).unwrap();
        s.set_stones(&changes).unwrap();
        s.set_first_to_move(Color::White).unwrap();
        s.play(Color::White, Move::Place(pt(&s, 1, 1))).unwrap();
        assert_eq!(s.illegal_reason(Color::Black, pt(&s, 2, 1)).map(|e| e.kind()), Some(IllegalKind::Repetition));
        s.play(Color::Black, Move::Place(pt(&s, 4, 4))).unwrap();
        s.play(Color::White, Move::Place(pt(&s, 4, 0))).unwrap();
        // Two moves later the retake is allowed again (003 §2.3).
        assert_eq!(s.illegal_reason(Color::Black, pt(&s, 2, 1)), None);
    }
}
