//! Scoring from final marks: territory (000 §6.2), area (000 §6.3) and the
//! Space formula (003 §4.1), with the neutral-point classes of 003 §4.3 /
//! §9.5.
//!
//! Procedure (000 §6.1 with 003 §3.7):
//! 1. Chains marked dead are removed (their points become empty); chains
//!    marked unresolved stay and count as stones.
//! 2. Empty points are split into six-connected components.
//! 3. Each component is classified exactly once, in this order (003 §9.5):
//!    touching an unresolved chain → neutral *unresolved-related*
//!    (003 §3.7); marked seki → neutral *seki* (territory scoring, and in
//!    every method when it touches both colours; 000 §5.6, 003 §3.3);
//!    touching exactly one colour → that colour's territory; otherwise
//!    neutral *general* (touching both colours or none, 003 §4.2).

use crate::board::Color;
use crate::game::Game;
use crate::geometry::Point;
use crate::result::GameResult;
use crate::rules::ScoringMethod;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Agreed final marks. Any point of a chain marks the whole chain; any
/// point of an empty region (after dead stones are removed) marks the whole
/// region.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoringMarks {
    /// Chains confirmed dead (003 §3.5, 000 §5.5).
    pub dead: Vec<Point>,
    /// Seki regions (000 §5.6, 003 §3.3).
    pub seki: Vec<Point>,
    /// Chains kept unresolved by agreement (003 §3.7).
    pub unresolved: Vec<Point>,
    /// Empty regions ruled neutral: not safe from invasion, so no territory even where
    /// they touch one colour only (003 §4.2: mere contact does not award territory).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub neutral: Vec<Point>,
}

/// Invalid marks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum ScoringError {
    #[error("mark at point index {index} is off the board")]
    OffBoard { index: u32 },
    #[error("dead/unresolved mark at {point} is on an empty point; it must name a stone")]
    NotAStone { point: Point },
    #[error("chain at {point} is marked both dead and unresolved")]
    Conflict { point: Point },
    #[error("seki mark at {point} is on a living stone; it must name an empty region")]
    SekiOnStone { point: Point },
    #[error("neutral mark at {point} is on a living stone; it must name an empty region")]
    NeutralOnStone { point: Point },
    #[error("the game is already over")]
    GameOver,
}

/// A score in half points, serialised as a JSON number (e.g. `36.5`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HalfPoints(pub i64);

impl HalfPoints {
    pub fn points(self) -> f64 {
        self.0 as f64 / 2.0
    }
    pub fn from_points(n: i64) -> HalfPoints {
        HalfPoints(n * 2)
    }
}
impl fmt::Display for HalfPoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.0 < 0 { "-" } else { "" };
        let a = self.0.unsigned_abs();
        if a.is_multiple_of(2) {
            write!(f, "{s}{}", a / 2)
        } else {
            write!(f, "{s}{}.5", a / 2)
        }
    }
}
impl Serialize for HalfPoints {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.points())
    }
}
impl<'de> Deserialize<'de> for HalfPoints {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = f64::deserialize(d)?;
        let h = v * 2.0;
        if !v.is_finite() || h.fract() != 0.0 || h.abs() > 1e15 {
            return Err(serde::de::Error::custom("score must be a multiple of 0.5"));
        }
        Ok(HalfPoints(h as i64))
    }
}

/// Per-point classification in a score statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PointClass {
    BlackStone,
    WhiteStone,
    BlackTerritory,
    WhiteTerritory,
    /// 003 §3.7: empty space touching an unresolved chain.
    NeutralUnresolved,
    /// 003 §3.3 / 000 §5.6: shared seki space (or seki eyes under territory scoring).
    NeutralSeki,
    /// Touching both colours or none (dame).
    NeutralGeneral,
}

impl PointClass {
    /// Owner of the point for display (stones and territory).
    pub fn owner(self) -> Option<Color> {
        match self {
            PointClass::BlackStone | PointClass::BlackTerritory => Some(Color::Black),
            PointClass::WhiteStone | PointClass::WhiteTerritory => Some(Color::White),
            _ => None,
        }
    }
}

/// One side's breakdown (003 §4.3: stones, territory, bonuses, komi, totals shown separately).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideScore {
    /// Stones of this colour kept on the board (including unresolved ones).
    pub stones: u32,
    /// Empty points (incl. removed dead stones) in this side's territory.
    pub territory: u32,
    /// Opponent stones this side captured during play.
    pub captures: u32,
    /// Opponent stones confirmed dead at the end.
    pub dead_captured: u32,
    /// Points this method awards for `captures + dead_captured`
    /// (territory scoring always; area/Space only with the capture bonus).
    pub bonus: u32,
    pub komi: HalfPoints,
    /// 000 §6.3: area scoring gives White one point per handicap stone.
    pub handicap_compensation: HalfPoints,
    pub total: HalfPoints,
}

/// Point counts of the neutral classes (003 §4.3, §9.5); each point once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NeutralCounts {
    pub unresolved: u32,
    pub seki: u32,
    pub general: u32,
}

/// A complete score statement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreStatement {
    pub method: ScoringMethod,
    /// Whether stones on the board count (area and Space formula).
    pub stones_counted: bool,
    pub black: SideScore,
    pub white: SideScore,
    /// Absolute difference of the totals.
    pub margin: HalfPoints,
    pub result: GameResult,
    pub neutral: NeutralCounts,
    /// Per point, in index order.
    pub ownership: Vec<PointClass>,
    /// Removed dead stones (sorted).
    pub dead_stones: Vec<Point>,
    /// Stones retained unresolved by agreement (sorted; 003 §3.7 — their life is not proven).
    pub unresolved_stones: Vec<Point>,
}

impl ScoreStatement {
    /// GTP `final_score` form: `B+3.5`, `W+0.5` or `0`.
    pub fn gtp_result(&self) -> String {
        match self.result.winner() {
            Some(w) => format!("{}+{}", w.letter(), self.margin),
            None => "0".into(),
        }
    }
    pub fn side(&self, c: Color) -> &SideScore {
        match c {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }
}

/// Score a game with its own rules and the given marks.
pub fn score(game: &Game, marks: &ScoringMarks) -> Result<ScoreStatement, ScoringError> {
    score_with(game, marks, game.rules().scoring)
}

/// GTP-style quick count (`final_score`) under the game's own scoring
/// method: every stone alive, each empty component touching exactly one
/// colour belongs to it; then territory (000 §6.2: territory + prisoners),
/// area (000 §6.3: stones + territory, plus prisoners with the capture bonus,
/// plus handicap compensation) or the Space formula (003 §4.1), with the
/// game's komi and recipient.
pub fn score_simple(game: &Game) -> ScoreStatement {
    score_simple_with(game, game.rules().scoring)
}

/// [`score_simple`] with area counting whatever the game's method.
pub fn score_simple_area(game: &Game) -> ScoreStatement {
    score_simple_with(game, ScoringMethod::Area)
}

fn score_simple_with(game: &Game, method: ScoringMethod) -> ScoreStatement {
    // Empty marks cannot be invalid.
    score_with(game, &ScoringMarks::default(), method).unwrap_or_else(|_| empty_statement(game, method))
}

fn empty_statement(game: &Game, method: ScoringMethod) -> ScoreStatement {
    ScoreStatement {
        method,
        stones_counted: method != ScoringMethod::Territory,
        black: SideScore::default(),
        white: SideScore::default(),
        margin: HalfPoints(0),
        result: GameResult::from_totals(method, 0, 0),
        neutral: NeutralCounts::default(),
        ownership: vec![PointClass::NeutralGeneral; game.geometry().len()],
        dead_stones: Vec::new(),
        unresolved_stones: Vec::new(),
    }
}

const FREE: u8 = 0;
const B_ALIVE: u8 = 1;
const W_ALIVE: u8 = 2;
const B_UNRES: u8 = 3;
const W_UNRES: u8 = 4;

/// Score with an explicit method (the game's komi, recipient, handicap and
/// capture-bonus settings apply).
pub fn score_with(game: &Game, marks: &ScoringMarks, method: ScoringMethod) -> Result<ScoreStatement, ScoringError> {
    let caps = [game.captures(Color::Black), game.captures(Color::White)];
    score_board(game.board(), game.rules(), caps, marks, method)
}

/// Score a bare position: `captures[0]` / `captures[1]` are the stones
/// captured during play by Black / White (e.g. prisoners stored with an
/// imported position). The rules supply komi, recipient, handicap and the
/// capture-bonus setting.
pub fn score_board(
    board: &crate::board::Board,
    rules: &crate::rules::Rules,
    captures: [u32; 2],
    marks: &ScoringMarks,
    method: ScoringMethod,
) -> Result<ScoreStatement, ScoringError> {
    let g = board.geometry();
    let n = g.len();
    // state per point
    let mut st = vec![FREE; n];
    for p in g.points() {
        st[p.index()] = match board.stone_at(p) {
            Some(Color::Black) => B_ALIVE,
            Some(Color::White) => W_ALIVE,
            None => FREE,
        };
    }
    let mut dead_mask = vec![false; n];
    let mut dead_stones = Vec::new();
    let mut dead_count = [0u32; 2];
    for &p in &marks.dead {
        if !g.contains(p) {
            return Err(ScoringError::OffBoard { index: p.0 as u32 });
        }
        let c = board.stone_at(p).ok_or(ScoringError::NotAStone { point: p })?;
        if dead_mask[p.index()] {
            continue;
        }
        for s in board.chain_stones(p) {
            dead_mask[s.index()] = true;
            st[s.index()] = FREE;
            dead_stones.push(s);
            dead_count[c.idx()] += 1;
        }
    }
    let mut unresolved_stones = Vec::new();
    for &p in &marks.unresolved {
        if !g.contains(p) {
            return Err(ScoringError::OffBoard { index: p.0 as u32 });
        }
        let c = board.stone_at(p).ok_or(ScoringError::NotAStone { point: p })?;
        if dead_mask[p.index()] {
            return Err(ScoringError::Conflict { point: p });
        }
        let u = if c == Color::Black { B_UNRES } else { W_UNRES };
        if st[p.index()] == u {
            continue;
        }
        for s in board.chain_stones(p) {
            st[s.index()] = u;
            unresolved_stones.push(s);
        }
    }
    let mut seki_mask = vec![false; n];
    for &p in &marks.seki {
        if !g.contains(p) {
            return Err(ScoringError::OffBoard { index: p.0 as u32 });
        }
        if st[p.index()] != FREE {
            return Err(ScoringError::SekiOnStone { point: p });
        }
        seki_mask[p.index()] = true;
    }
    let mut neutral_mask = vec![false; n];
    for &p in &marks.neutral {
        if !g.contains(p) {
            return Err(ScoringError::OffBoard { index: p.0 as u32 });
        }
        if st[p.index()] != FREE {
            return Err(ScoringError::NeutralOnStone { point: p });
        }
        neutral_mask[p.index()] = true;
    }

    // Classify.
    let mut own = vec![PointClass::NeutralGeneral; n];
    let mut visited = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut comp: Vec<usize> = Vec::new();
    let mut stones = [0u32; 2];
    let mut territory = [0u32; 2];
    let mut neutral = NeutralCounts::default();
    for i in 0..n {
        match st[i] {
            B_ALIVE | B_UNRES => {
                own[i] = PointClass::BlackStone;
                stones[0] += 1;
                continue;
            }
            W_ALIVE | W_UNRES => {
                own[i] = PointClass::WhiteStone;
                stones[1] += 1;
                continue;
            }
            _ => {}
        }
        if visited[i] {
            continue;
        }
        visited[i] = true;
        stack.push(i);
        comp.clear();
        let (mut tb, mut tw, mut tu, mut seki, mut ruled_neutral) = (false, false, false, false, false);
        while let Some(s) = stack.pop() {
            comp.push(s);
            seki |= seki_mask[s];
            ruled_neutral |= neutral_mask[s];
            for &q in g.neighbours(Point(s as u16)) {
                let q = q.index();
                match st[q] {
                    FREE => {
                        if !visited[q] {
                            visited[q] = true;
                            stack.push(q);
                        }
                    }
                    B_ALIVE => tb = true,
                    W_ALIVE => tw = true,
                    B_UNRES => {
                        tb = true;
                        tu = true
                    }
                    _ => {
                        tw = true;
                        tu = true
                    }
                }
            }
        }
        let single = match (tb, tw) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        };
        let class = if tu {
            PointClass::NeutralUnresolved
        } else if seki && (method == ScoringMethod::Territory || single.is_none()) {
            PointClass::NeutralSeki
        } else if ruled_neutral {
            PointClass::NeutralGeneral
        } else {
            match single {
                Some(Color::Black) => PointClass::BlackTerritory,
                Some(Color::White) => PointClass::WhiteTerritory,
                None => PointClass::NeutralGeneral,
            }
        };
        let k = comp.len() as u32;
        match class {
            PointClass::BlackTerritory => territory[0] += k,
            PointClass::WhiteTerritory => territory[1] += k,
            PointClass::NeutralUnresolved => neutral.unresolved += k,
            PointClass::NeutralSeki => neutral.seki += k,
            _ => neutral.general += k,
        }
        for &s in &comp {
            own[s] = class;
        }
    }

    let caps = captures;
    // dead_captured for a side = opponent's dead stones.
    let dead_captured = [dead_count[1], dead_count[0]];
    let stones_counted = method != ScoringMethod::Territory;
    let bonus_on = method == ScoringMethod::Territory || rules.capture_bonus;
    let mut sides = [SideScore::default(), SideScore::default()];
    for k in 0..2 {
        let s = &mut sides[k];
        s.stones = stones[k];
        s.territory = territory[k];
        s.captures = caps[k];
        s.dead_captured = dead_captured[k];
        s.bonus = if bonus_on { caps[k] + dead_captured[k] } else { 0 };
    }
    sides[rules.komi_to.idx()].komi = HalfPoints(rules.komi.half_points() as i64);
    if method == ScoringMethod::Area && rules.handicap > 0 {
        sides[Color::White.idx()].handicap_compensation = HalfPoints::from_points(rules.handicap as i64);
    }
    for s in sides.iter_mut() {
        let base = s.territory as i64 + s.bonus as i64 + if stones_counted { s.stones as i64 } else { 0 };
        s.total = HalfPoints(base * 2 + s.komi.0 + s.handicap_compensation.0);
    }
    dead_stones.sort_unstable();
    unresolved_stones.sort_unstable();
    let result = GameResult::from_totals(method, sides[0].total.0, sides[1].total.0);
    Ok(ScoreStatement {
        method,
        stones_counted,
        black: sides[0],
        white: sides[1],
        margin: HalfPoints((sides[0].total.0 - sides[1].total.0).abs()),
        result,
        neutral,
        ownership: own,
        dead_stones,
        unresolved_stones,
    })
}

#[cfg(test)]
mod tests;
