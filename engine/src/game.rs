//! Game state and history, kept apart from the board (like KataGo's
//! `boardhistory.h`): turn, phase, prisoners, repetition bookkeeping, undo,
//! and the action log that becomes the game record.
//!
//! This file is [`Game`], its values and play; refusals are in `errors`, the
//! repetition journal in `history`, setup stones in `setup`, the action log
//! and the record it becomes in `log`, phase changes and endings in `endings`.
//!
//! A server holds many long games at once, so a game keeps little per move:
//! only the repetition maps its ko rule reads (none for Space's immediate ko;
//! `history`), and its action log in 16-byte entries (`Logged`) instead of
//! 96-byte actions (figures: docs/performance.md, "Server memory").

mod endings;
mod errors;
mod history;
mod log;
pub mod record;
pub mod scoring;
mod setup;

pub use errors::{IllegalKind, IllegalMove, PhaseError, RepetitionKind, SetupError, UndoError};

use crate::board::{BasicIllegal, Board, Color, MoveEffect};
use crate::game::record::{Action, GameRecord, RECORD_VERSION};
use crate::geometry::{Coord, Geometry, Point};
use crate::labels::handicap_points;
use crate::result::GameResult;
use crate::rules::{KoRule, Rules};
use history::{after_move_equals_cells, History, Step};
use serde::{Deserialize, Serialize};
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

/// What an undo restored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UndoOutcome {
    /// Colour and point of the undone stone move; that colour is to move again.
    pub color: Color,
    pub point: Point,
}

/// A chain with one liberty (000 §9 atari warnings).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AtariChain {
    pub color: Color,
    pub stones: Vec<Point>,
    pub liberty: Point,
}

/// A game: board + rules + history.
///
/// Repetition (003 §2.3, §5.3; 000 §5.3) is decided exactly (see the
/// `history` module): the Zobrist hash is only a filter, every match is
/// confirmed by comparing arrangements.
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
    /// Journal, arrangements and situations since the last reset.
    history: History,
    /// Korean simple ko: (point, colour that may not play there).
    ko: Option<(Point, Color)>,
    /// 003 §5.3: arrangement (hash, cells) that the next stone move may not recreate.
    undo_restriction: Option<(u64, Box<[u8]>)>,
    log: Vec<Logged>,
}

/// One entry of the action log as kept: points, not coordinates, and the rare large entries
/// boxed. A game holds one per move and attempt, and a server many long games at once:
/// 16 bytes here against 96 for an [`Action`]. [`Game::log`] gives the actions.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Logged {
    Play(Color, Point),
    Pass(Color),
    /// A refused attempt (003 §2.5); an off-board point keeps its index.
    Illegal(Color, Move, IllegalKind),
    Undo(Color, Point),
    Other(Box<Action>),
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
            && self.history == o.history
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
            history: History::default(),
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
        self.history.reset(self.board.hash(), self.to_move, self.rules.ko);
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
    /// The moves since play started or last resumed from scoring, oldest first: what
    /// [`Game::take_back`] may remove.
    pub fn moves_since_resumption(&self) -> Vec<(Color, Move)> {
        let from = self.steps.iter().rposition(|s| !matches!(s, Step::Move(..))).map_or(0, |i| i + 1);
        self.steps[from..]
            .iter()
            .filter_map(|s| match *s {
                Step::Move(c, m) => Some((c, m)),
                _ => None,
            })
            .collect()
    }

    /// The last counted move: `moves().last()` without copying the list (it is read for
    /// every event a room publishes, and a 25³ game has tens of thousands of moves).
    pub fn last_move(&self) -> Option<(Color, Move)> {
        self.steps.iter().rev().find_map(|s| match *s {
            Step::Move(c, m) => Some((c, m)),
            _ => None,
        })
    }
    /// The last move since play started or last resumed from scoring:
    /// `moves_since_resumption().last()` without copying the list.
    pub fn last_move_since_resumption(&self) -> Option<(Color, Move)> {
        match self.steps.last() {
            Some(&Step::Move(c, m)) => Some((c, m)),
            _ => None,
        }
    }

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
            if *h == eff.hash_after && after_move_equals_cells(&self.board, p, c, &caps(), cells) {
                return Err(rep(RepetitionKind::AfterUndo));
            }
        }
        match self.rules.ko {
            KoRule::Immediate => {
                // 003 §2.3.
                if self.history.restores_before_last(&self.board, c.opponent(), eff.hash_after, (p, c), caps) {
                    return Err(rep(RepetitionKind::Immediate));
                }
            }
            KoRule::PositionalSuperko => {
                // 000 §5.3.
                if self.history.seen_before(&self.board, eff.hash_after, (p, c), caps) {
                    return Err(rep(RepetitionKind::Superko));
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
            Move::Pass => Logged::Pass(c),
            Move::Place(p) => Logged::Play(c, p),
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
            Move::Pass => Logged::Pass(c),
            Move::Place(p) => Logged::Play(c, p),
        });
        Ok(self.captures[c.idx()] - before)
    }

    fn log_illegal(&mut self, c: Color, mv: Move, e: IllegalMove) {
        self.log.push(Logged::Illegal(c, mv, e.kind()));
    }

    fn apply(&mut self, c: Color, mv: Move) -> Vec<Point> {
        let mut captured = Vec::new();
        self.apply_inner(c, mv, Some(&mut captured));
        captured.sort_unstable();
        captured
    }

    /// Apply a move known to be structurally possible and update history.
    fn apply_inner(&mut self, c: Color, mv: Move, captured: Option<&mut Vec<Point>>) {
        self.history.before_move(c, self.board.hash());
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
                self.history.journal_place(p, c, &out[start..]);
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
        let cnt = self.history.record_position(&self.board, self.board.hash(), self.to_move, self.rules.ko);
        if self.consecutive_passes >= 2 {
            // 003 §2.7, 000 §5.4: two consecutive passes → scoring (a second
            // pass never repeats a situation through a move anyway).
            self.phase = Phase::Scoring;
        } else if self.rules.ko == KoRule::Korean && cnt >= 3 {
            // 000 §5.3 korean: third occurrence through moves → draw by repetition.
            self.phase = Phase::Over;
            self.result = Some(GameResult::repetition());
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
        self.log.push(Logged::Undo(c, p));
        Ok(UndoOutcome { color: c, point: p })
    }

    /// Take back the most recent move, a stone or a pass (000 §8.2, the Classic preset: the
    /// requester's own last move, after the opponent's reply when there is one). The rest is
    /// replayed from the start, so prisoners and the repetition history are exact. Unlike
    /// [`Game::undo`] (003 §5.1, §5.3) a pass may be taken back and no special repetition
    /// restriction follows; only a move since play last started or resumed qualifies.
    pub fn take_back(&mut self) -> Result<(Color, Move), UndoError> {
        if self.phase != Phase::Playing {
            return Err(UndoError::NotInPlay { phase: self.phase });
        }
        let Some(&Step::Move(c, mv)) = self.steps.last() else {
            return Err(UndoError::NothingToUndo);
        };
        let mut steps = std::mem::take(&mut self.steps);
        steps.pop();
        self.rebuild_from(&steps);
        let at = match mv {
            Move::Place(p) => Some(self.coord(p)),
            Move::Pass => None,
        };
        self.log_other(Action::TakeBack { color: c, at });
        Ok((c, mv))
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
}

#[cfg(test)]
pub(crate) mod tests;
