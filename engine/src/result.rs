//! Game results and their summaries (000 §6.5, §8.6; 003 §4.1).

use crate::board::Color;
use crate::rules::ScoringMethod;
use serde::{Deserialize, Serialize};

/// Why the game ended (000 §8.6 `reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultReason {
    /// Decided by counting.
    Score,
    /// Counting gave equal totals (빅/무승부; 003 §4.1, 000 §6.5).
    Jigo,
    /// The loser resigned (불계).
    Resign,
    /// The loser ran out of time.
    Time,
    /// Both players agreed to a draw.
    DrawAgreed,
    /// Draw by repetition (000 §5.3 korean: third occurrence).
    Repetition,
}

/// A finished game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameResult {
    /// `None` for every kind of draw.
    pub winner: Option<Color>,
    pub reason: ResultReason,
    /// Winning margin in half points (score results only).
    pub margin_half: Option<u32>,
    /// Scoring method (score and jigo results only).
    pub method: Option<ScoringMethod>,
}

impl GameResult {
    /// Result of counting, from both totals in half points.
    pub fn from_totals(method: ScoringMethod, black_half: i64, white_half: i64) -> GameResult {
        let diff = black_half - white_half;
        let margin = u32::try_from(diff.unsigned_abs()).unwrap_or(u32::MAX);
        if diff == 0 {
            GameResult { winner: None, reason: ResultReason::Jigo, margin_half: Some(0), method: Some(method) }
        } else {
            GameResult {
                winner: Some(if diff > 0 { Color::Black } else { Color::White }),
                reason: ResultReason::Score,
                margin_half: Some(margin),
                method: Some(method),
            }
        }
    }
    pub fn resignation(loser: Color) -> GameResult {
        GameResult { winner: Some(loser.opponent()), reason: ResultReason::Resign, margin_half: None, method: None }
    }
    pub fn time_loss(loser: Color) -> GameResult {
        GameResult { winner: Some(loser.opponent()), reason: ResultReason::Time, margin_half: None, method: None }
    }
    pub fn draw_agreed() -> GameResult {
        GameResult { winner: None, reason: ResultReason::DrawAgreed, margin_half: None, method: None }
    }
    pub fn repetition() -> GameResult {
        GameResult { winner: None, reason: ResultReason::Repetition, margin_half: None, method: None }
    }

    pub fn is_draw(&self) -> bool {
        self.winner.is_none()
    }

    /// Margin in points (e.g. 2.5).
    pub fn margin(&self) -> Option<f64> {
        self.margin_half.map(|h| h as f64 / 2.0)
    }

    /// Korean summary as in 000 §6.5 / §8.6: "흑 2집 반 승" (territory),
    /// "흑 1.5점 승" (area / Space formula), "백 불계승", "흑 시간승",
    /// "무승부", "무승부 (합의)", "무승부 (반복)".
    pub fn summary_ko(&self) -> String {
        match (self.reason, self.winner) {
            (ResultReason::Score, Some(w)) => {
                let h = self.margin_half.unwrap_or(0);
                let m = match self.method {
                    Some(ScoringMethod::Territory) => match (h / 2, h % 2) {
                        (0, _) => "반집".to_string(),
                        (n, 0) => format!("{n}집"),
                        (n, _) => format!("{n}집 반"),
                    },
                    _ => format!("{}점", fmt_half(h)),
                };
                format!("{} {} 승", w.korean(), m)
            }
            (ResultReason::Resign, Some(w)) => format!("{} 불계승", w.korean()),
            (ResultReason::Time, Some(w)) => format!("{} 시간승", w.korean()),
            (ResultReason::DrawAgreed, _) => "무승부 (합의)".to_string(),
            (ResultReason::Repetition, _) => "무승부 (반복)".to_string(),
            _ => "무승부".to_string(),
        }
    }

    /// English summary: "Black wins by 2.5 points", "White wins by
    /// resignation", "Black wins on time", "Draw (jigo)", ...
    pub fn summary_en(&self) -> String {
        match (self.reason, self.winner) {
            (ResultReason::Score, Some(w)) => {
                let h = self.margin_half.unwrap_or(0);
                let unit = if h == 2 { "point" } else { "points" };
                format!("{} wins by {} {}", w.english(), fmt_half(h), unit)
            }
            (ResultReason::Resign, Some(w)) => format!("{} wins by resignation", w.english()),
            (ResultReason::Time, Some(w)) => format!("{} wins on time", w.english()),
            (ResultReason::DrawAgreed, _) => "Draw by agreement".to_string(),
            (ResultReason::Repetition, _) => "Draw by repetition".to_string(),
            _ => "Draw (jigo)".to_string(),
        }
    }

    /// SGF `RE` value: `B+2.5`, `W+R`, `B+T`, `0` for any draw.
    pub fn sgf(&self) -> String {
        match (self.reason, self.winner) {
            (ResultReason::Score, Some(w)) => {
                format!("{}+{}", w.letter(), fmt_half(self.margin_half.unwrap_or(0)))
            }
            (ResultReason::Resign, Some(w)) => format!("{}+R", w.letter()),
            (ResultReason::Time, Some(w)) => format!("{}+T", w.letter()),
            _ => "0".to_string(),
        }
    }
}

/// "2.5", "3", "0.5".
pub(crate) fn fmt_half(h: u32) -> String {
    if h.is_multiple_of(2) {
        format!("{}", h / 2)
    } else {
        format!("{}.5", h / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn korean_and_english_summaries_000_s8_6() {
        // 000 §6.5 / §8.6: "흑 2집 반 승" (territory), "흑 1.5점 승" (area), "백 불계승".
        let t = GameResult::from_totals(ScoringMethod::Territory, 78, 73);
        assert_eq!(t.summary_ko(), "흑 2집 반 승");
        assert_eq!(t.summary_en(), "Black wins by 2.5 points");
        assert_eq!(t.sgf(), "B+2.5");
        let a = GameResult::from_totals(ScoringMethod::Area, 90, 87);
        assert_eq!(a.summary_ko(), "흑 1.5점 승");
        let half = GameResult::from_totals(ScoringMethod::Territory, 10, 11);
        assert_eq!(half.summary_ko(), "백 반집 승");
        assert_eq!(GameResult::from_totals(ScoringMethod::Territory, 10, 14).summary_ko(), "백 2집 승");
        assert_eq!(GameResult::resignation(Color::Black).summary_ko(), "백 불계승");
        assert_eq!(GameResult::resignation(Color::Black).sgf(), "W+R");
        assert_eq!(GameResult::time_loss(Color::White).summary_ko(), "흑 시간승");
        assert_eq!(GameResult::time_loss(Color::White).summary_en(), "Black wins on time");
        let j = GameResult::from_totals(ScoringMethod::Space, 20, 20);
        assert_eq!(
            (j.reason, j.winner, j.summary_ko(), j.sgf()),
            (ResultReason::Jigo, None, "무승부".to_string(), "0".to_string())
        );
        assert_eq!(GameResult::repetition().summary_en(), "Draw by repetition");
        assert_eq!(GameResult::draw_agreed().summary_ko(), "무승부 (합의)");
        assert_eq!(GameResult::from_totals(ScoringMethod::Area, 2, 0).summary_en(), "Black wins by 1 point");
    }
}
