//! The versioned serde JSON game record.
//!
//! # Format (version 1)
//!
//! ```json
//! {
//!   "version": 1,
//!   "geometry": {"x":{"start":1,"end":9},"y":{"start":1,"end":9},"z":{"start":1,"end":1}},
//!   "rules": {"ko":"immediate","scoring":"space","capture_bonus":false,
//!             "komi":0.0,"komi_to":"white","handicap":0},
//!   "setup": [{"color":"black","at":{"x":3,"y":3,"z":1}}],
//!   "first_to_move": "black",
//!   "actions": [
//!     {"type":"play","color":"black","at":{"x":5,"y":5,"z":1}},
//!     {"type":"illegal","color":"white","pass":false,"at":{"x":5,"y":5,"z":1},"index":null,"reason":"occupied"},
//!     {"type":"undo","color":"black","at":{"x":5,"y":5,"z":1}},
//!     {"type":"pass","color":"black"},
//!     {"type":"resume","by":"white"},
//!     {"type":"enter_scoring"},
//!     {"type":"score","marks":{"dead":[],"seki":[],"unresolved":[]}},
//!     {"type":"resign","color":"white"},
//!     {"type":"time_loss","color":"black"},
//!     {"type":"draw_agreed"}
//!   ]
//! }
//! ```
//!
//! * Coordinates are actual coordinates (`x`, `y`, `z`), never indices.
//! * `setup` lists every setup stone, including the handicap stones that
//!   `rules.handicap` places (000 §4); a handicap point missing from the
//!   list was cleared during setup.
//! * `illegal` entries are attempts that were refused and not counted
//!   (003 §2.5); on replay they are attempted again and must be refused for
//!   the same reason. `index` is only used for an off-board raw index.
//! * `undo` names the stone move that was undone (003 §5.3); the move itself
//!   stays earlier in the list.
//! * Replaying applies every action in order through the same [`Game`] API,
//!   so the replayed game equals the original, log included.

use crate::board::Color;
use crate::game::scoring::ScoringMarks;
use crate::game::{Game, IllegalKind, Move, SetupError};
use crate::geometry::{BoxSpec, Coord, Geometry, Point};
use crate::rules::Rules;
use serde::{Deserialize, Serialize};

/// Current record format version.
pub const RECORD_VERSION: u32 = 1;

/// A setup stone (SGF AB/AW).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupStone {
    pub color: Color,
    pub at: Coord,
}

/// Final scoring marks by coordinates (any point of a chain / region marks all of it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarksRecord {
    pub dead: Vec<Coord>,
    pub seki: Vec<Coord>,
    pub unresolved: Vec<Coord>,
    /// Regions ruled neutral (003 §4.2); absent in records made before they existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub neutral: Vec<Coord>,
}

impl MarksRecord {
    pub fn from_marks(g: &Geometry, m: &ScoringMarks) -> MarksRecord {
        let conv = |v: &[Point]| v.iter().filter_map(|&p| g.coords_of(p)).collect();
        MarksRecord {
            dead: conv(&m.dead),
            seki: conv(&m.seki),
            unresolved: conv(&m.unresolved),
            neutral: conv(&m.neutral),
        }
    }
    /// Back to points; the first coordinate outside the board is returned as error.
    pub fn to_marks(&self, g: &Geometry) -> Result<ScoringMarks, Coord> {
        let conv = |v: &[Coord]| -> Result<Vec<Point>, Coord> { v.iter().map(|&c| g.point_at(c).ok_or(c)).collect() };
        Ok(ScoringMarks {
            dead: conv(&self.dead)?,
            seki: conv(&self.seki)?,
            unresolved: conv(&self.unresolved)?,
            neutral: conv(&self.neutral)?,
        })
    }
}

/// One entry of the action log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// A counted stone move.
    Play {
        color: Color,
        at: Coord,
    },
    /// A counted pass.
    Pass {
        color: Color,
    },
    /// A refused attempt, not counted (003 §2.5).
    Illegal {
        color: Color,
        pass: bool,
        at: Option<Coord>,
        index: Option<u32>,
        reason: IllegalKind,
    },
    /// Undo of the stone move by `color` at `at` (003 §5.1, §5.3).
    Undo {
        color: Color,
        at: Coord,
    },
    /// A move by `color` taken back (000 §8.2): a stone at `at`, or a pass (`at` absent).
    TakeBack {
        color: Color,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Coord>,
    },
    /// Play resumed from the scoring phase; the opponent of `by` moves.
    Resume {
        by: Color,
    },
    /// Scoring entered by agreement.
    EnterScoring,
    /// Finished by counting with these marks.
    Score {
        marks: MarksRecord,
    },
    Resign {
        color: Color,
    },
    TimeLoss {
        color: Color,
    },
    DrawAgreed,
}

/// A complete game record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    pub version: u32,
    pub geometry: BoxSpec,
    pub rules: Rules,
    pub setup: Vec<SetupStone>,
    pub first_to_move: Color,
    pub actions: Vec<Action>,
}

/// Why a record could not be replayed. `action` is the 1-based position in
/// `actions` (0 for problems before the first action).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("record JSON is malformed: {0}")]
    Json(String),
    #[error("unsupported record version {found}; this engine reads version {supported}")]
    Version { found: u32, supported: u32 },
    #[error("invalid geometry: {0}")]
    Geometry(#[from] crate::geometry::GeometryError),
    #[error("invalid setup: {0}")]
    Setup(#[from] SetupError),
    #[error("setup stone at {0} is off the board")]
    SetupOffBoard(Coord),
    #[error("action {action}: coordinate {at} is off the board")]
    OffBoard { action: usize, at: Coord },
    #[error("action {action}: {source}")]
    Illegal {
        action: usize,
        #[source]
        source: crate::game::IllegalMove,
    },
    #[error("action {action}: recorded as an illegal attempt ({expected:?}) but replay gave {found}")]
    AttemptMismatch { action: usize, expected: IllegalKind, found: String },
    #[error("action {action}: {message}")]
    Invalid { action: usize, message: String },
}

impl GameRecord {
    /// Parse JSON (never panics).
    pub fn from_json(s: &str) -> Result<GameRecord, RecordError> {
        serde_json::from_str(s).map_err(|e| RecordError::Json(e.to_string()))
    }
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Replay every action in order and return the resulting game.
    pub fn replay(&self) -> Result<Game, RecordError> {
        if self.version != RECORD_VERSION {
            return Err(RecordError::Version { found: self.version, supported: RECORD_VERSION });
        }
        let geom = Geometry::from_spec(self.geometry)?;
        let mut game = Game::new(geom, self.rules)?;
        let mut changes: Vec<(Point, Option<Color>)> = Vec::with_capacity(self.setup.len());
        for s in &self.setup {
            let p = game.geometry().point_at(s.at).ok_or(RecordError::SetupOffBoard(s.at))?;
            // One entry per point, as the engine writes it (otherwise the
            // replayed game's record would differ from this one).
            if changes.iter().any(|&(q, _)| q == p) {
                return Err(RecordError::Invalid { action: 0, message: format!("setup names {} twice", s.at) });
            }
            changes.push((p, Some(s.color)));
        }
        for &(p, _) in game.setup_stones().to_vec().iter() {
            if !changes.iter().any(|&(q, _)| q == p) {
                changes.push((p, None));
            }
        }
        if !changes.is_empty() {
            game.set_stones(&changes)?;
        }
        // Setup stones keep their recorded order.
        game.reorder_setup(&changes);
        if game.first_to_move() != self.first_to_move {
            game.set_first_to_move(self.first_to_move)?;
        }
        for (k, a) in self.actions.iter().enumerate() {
            let n = k + 1;
            let invalid = |m: String| RecordError::Invalid { action: n, message: m };
            let point = |at: Coord| game.geometry().point_at(at).ok_or(RecordError::OffBoard { action: n, at });
            match a {
                Action::Play { color, at } => {
                    let p = point(*at)?;
                    game.play_explicit(*color, Move::Place(p))
                        .map_err(|e| RecordError::Illegal { action: n, source: e })?;
                }
                Action::Pass { color } => {
                    game.play_explicit(*color, Move::Pass)
                        .map_err(|e| RecordError::Illegal { action: n, source: e })?;
                }
                Action::Illegal { color, pass, at, index, reason } => {
                    let mv = if *pass {
                        Move::Pass
                    } else {
                        match (at, index) {
                            (Some(c), _) => Move::Place(point(*c)?),
                            (None, Some(i)) if *i >= game.geometry().len() as u32 && *i <= u16::MAX as u32 => {
                                Move::Place(Point(*i as u16))
                            }
                            _ => return Err(invalid("illegal attempt without a valid location".into())),
                        }
                    };
                    let r = if *reason == IllegalKind::NotYourTurn {
                        game.play(*color, mv)
                    } else {
                        game.play_explicit(*color, mv)
                    };
                    match r {
                        Err(e) if e.kind() == *reason => {}
                        Err(e) => {
                            return Err(RecordError::AttemptMismatch {
                                action: n,
                                expected: *reason,
                                found: e.to_string(),
                            })
                        }
                        Ok(_) => {
                            return Err(RecordError::AttemptMismatch {
                                action: n,
                                expected: *reason,
                                found: "a legal move".into(),
                            })
                        }
                    }
                }
                Action::Undo { color, at } => {
                    let p = point(*at)?;
                    let u = game.undo().map_err(|e| invalid(e.to_string()))?;
                    if u.color != *color || u.point != p {
                        return Err(invalid(format!(
                            "undo names {} {} but the last stone move was {} {}",
                            color.english(),
                            at,
                            u.color.english(),
                            game.geometry().coords_of(u.point).unwrap_or(Coord::new(0, 0, 0))
                        )));
                    }
                }
                // The engine logs what it took back; the check below compares the two.
                Action::TakeBack { .. } => {
                    game.take_back().map_err(|e| invalid(e.to_string()))?;
                }
                Action::Resume { by } => game.resume(*by).map_err(|e| invalid(e.to_string()))?,
                Action::EnterScoring => game.enter_scoring().map_err(|e| invalid(e.to_string()))?,
                Action::Score { marks } => {
                    let m = marks.to_marks(game.geometry()).map_err(|c| RecordError::OffBoard { action: n, at: c })?;
                    game.finish_by_score(&m).map_err(|e| invalid(e.to_string()))?;
                }
                Action::Resign { color } => {
                    game.resign(*color).map_err(|e| invalid(e.to_string()))?;
                }
                Action::TimeLoss { color } => {
                    game.time_loss(*color).map_err(|e| invalid(e.to_string()))?;
                }
                Action::DrawAgreed => {
                    game.agree_draw().map_err(|e| invalid(e.to_string()))?;
                }
            }
            // Each action has one spelling, the one the engine logs (e.g. a
            // refused pass carries no location): a record that replays is
            // exactly the record of the game it replays to.
            let logged = game.last_action();
            if logged.as_ref() != Some(a) {
                return Err(invalid(format!("not in the engine's form: recorded {a:?}, replay logs {logged:?}")));
            }
        }
        Ok(game)
    }
}

/// Parse and replay a JSON record in one step.
pub fn replay_json(s: &str) -> Result<Game, RecordError> {
    GameRecord::from_json(s)?.replay()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;

    fn base() -> GameRecord {
        let g = Game::new(Geometry::flat(5, 5).unwrap(), Rules::space()).unwrap();
        g.record()
    }
    fn play(c: Color, x: i64, y: i64) -> Action {
        Action::Play { color: c, at: Coord::new(x, y, 1) }
    }

    #[test]
    fn bad_records_name_the_action_and_never_panic() {
        assert!(matches!(GameRecord::from_json("{"), Err(RecordError::Json(_))));
        assert!(matches!(replay_json("[1,2,3]"), Err(RecordError::Json(_))));
        let mut r = base();
        r.version = 99;
        assert_eq!(r.replay().unwrap_err(), RecordError::Version { found: 99, supported: 1 });
        let mut r = base();
        r.geometry.x.end = 4;
        assert!(matches!(r.replay(), Err(RecordError::Geometry(_))));
        let mut r = base();
        r.actions = vec![play(Color::Black, 1, 1), play(Color::White, 9, 9)];
        assert_eq!(r.replay().unwrap_err(), RecordError::OffBoard { action: 2, at: Coord::new(9, 9, 1) });
        let mut r = base();
        r.actions = vec![play(Color::Black, 1, 1), play(Color::White, 2, 2), play(Color::Black, 1, 1)];
        let e = r.replay().unwrap_err();
        assert!(matches!(e, RecordError::Illegal { action: 3, .. }), "{e:?}");
        assert!(e.to_string().starts_with("action 3:"), "{e}");
        let mut r = base();
        r.actions = vec![Action::Illegal {
            color: Color::Black,
            pass: false,
            at: Some(Coord::new(1, 1, 1)),
            index: None,
            reason: IllegalKind::Occupied,
        }];
        assert!(matches!(r.replay(), Err(RecordError::AttemptMismatch { action: 1, .. })));
        let mut r = base();
        r.actions = vec![play(Color::Black, 1, 1), Action::Undo { color: Color::White, at: Coord::new(1, 1, 1) }];
        assert!(matches!(r.replay(), Err(RecordError::Invalid { action: 2, .. })));
        let mut r = base();
        r.actions =
            vec![Action::Pass { color: Color::Black }, Action::Undo { color: Color::Black, at: Coord::new(1, 1, 1) }];
        assert!(matches!(r.replay(), Err(RecordError::Invalid { action: 2, .. })));
        let mut r = base();
        r.actions = vec![Action::Resign { color: Color::Black }, Action::DrawAgreed];
        assert!(matches!(r.replay(), Err(RecordError::Invalid { action: 2, .. })));
        let mut r = base();
        r.setup = vec![SetupStone { color: Color::Black, at: Coord::new(0, 0, 0) }];
        assert!(matches!(r.replay(), Err(RecordError::SetupOffBoard(_))));
        let mut r = base();
        r.actions =
            vec![Action::Score { marks: MarksRecord { dead: vec![Coord::new(3, 3, 1)], ..Default::default() } }];
        assert!(matches!(r.replay(), Err(RecordError::Invalid { action: 1, .. })));
    }

    /// Found by the `record_json` fuzz target once it compared round trips:
    /// records the engine never writes used to replay, and the replayed
    /// game's record then differed from them. They are refused instead.
    #[test]
    fn only_the_engines_own_spelling_replays() {
        let stone = |x, y| SetupStone { color: Color::Black, at: Coord::new(x, y, 1) };
        let mut r = base();
        r.setup = vec![stone(2, 2), stone(4, 4), stone(4, 4)];
        let e = r.replay().unwrap_err();
        assert_eq!(e, RecordError::Invalid { action: 0, message: "setup names 4,4,1 twice".into() });
        r.setup = vec![stone(2, 2), SetupStone { color: Color::White, at: Coord::new(2, 2, 1) }];
        assert!(matches!(r.replay(), Err(RecordError::Invalid { action: 0, .. })));
        r.setup = vec![stone(4, 4), stone(2, 2)];
        assert_eq!(r.replay().unwrap().record(), r, "order is kept");

        // A refused pass has no location; a refused stone move names it once.
        let pass_attempt = |at: Option<Coord>, index: Option<u32>| Action::Illegal {
            color: Color::Black,
            pass: true,
            at,
            index,
            reason: IllegalKind::NotInPlay,
        };
        let mut r = base();
        r.actions = vec![Action::Resign { color: Color::White }, pass_attempt(None, None)];
        assert_eq!(r.replay().unwrap().record(), r);
        r.actions[1] = pass_attempt(Some(Coord::new(1, 1, 1)), None);
        assert!(matches!(r.replay(), Err(RecordError::Invalid { action: 2, .. })));
        r.actions[1] = pass_attempt(None, Some(30));
        assert!(matches!(r.replay(), Err(RecordError::Invalid { action: 2, .. })));
        let mut r = base();
        let attempt = |index| Action::Illegal {
            color: Color::Black,
            pass: false,
            at: Some(Coord::new(1, 1, 1)),
            index,
            reason: IllegalKind::Occupied,
        };
        r.actions = vec![play(Color::Black, 1, 1), Action::Pass { color: Color::White }, attempt(None)];
        assert_eq!(r.replay().unwrap().record(), r);
        r.actions[2] = attempt(Some(0));
        assert!(matches!(r.replay(), Err(RecordError::Invalid { action: 3, .. })));
    }

    #[test]
    fn record_json_is_documented_shape() {
        let mut g = Game::new(Geometry::flat(5, 5).unwrap(), Rules::space()).unwrap();
        let p = g.geometry().index_of(3, 3, 1).unwrap();
        g.play(Color::Black, Move::Place(p)).unwrap();
        let _ = g.play(Color::White, Move::Place(p));
        g.undo().unwrap_or_else(|_| unreachable!());
        let j = g.record().to_json();
        assert!(j.contains(r#""version":1"#), "{j}");
        assert!(j.contains(r#"{"type":"play","color":"black","at":{"x":3,"y":3,"z":1}}"#), "{j}");
        assert!(j.contains(r#""type":"illegal","color":"white","pass":false,"at":{"x":3,"y":3,"z":1},"index":null,"reason":"occupied""#), "{j}");
        assert!(j.contains(r#"{"type":"undo","color":"black","at":{"x":3,"y":3,"z":1}}"#), "{j}");
        let back = replay_json(&j).unwrap();
        assert_eq!(back, g);
    }
}
