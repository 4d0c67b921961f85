//! A result as people read it (000 §6.5, §8.6: "흑 2집 반 승", "백 불계승").

use engine::{GameResult, ScoringMethod};

use super::{colour, t, t_with};
use crate::i18n::Lang;

/// The margin: territory counts 집 with 반 for the half point (000 §6.5); area and the
/// Space formula count points.
fn margin(lang: Lang, h: u32, method: ScoringMethod) -> String {
    let (whole, half) = (h / 2, h % 2 == 1);
    let n = whole.to_string();
    let key = match (method, whole, half) {
        (ScoringMethod::Territory, 0, _) => "result.margin.territory_half_only",
        (ScoringMethod::Territory, _, true) => "result.margin.territory_and_half",
        (ScoringMethod::Territory, 1, false) => "result.margin.territory_one",
        (ScoringMethod::Territory, _, false) => "result.margin.territory",
        (_, 1, false) => "result.margin.points_one",
        (_, _, true) => "result.margin.points_and_half",
        (_, _, false) => "result.margin.points",
    };
    t_with(lang, key, &[("n", &n)])
}

/// A result as a list shows it: the sentence, marked while it is under review (003 §6.6).
pub fn listed_result(lang: Lang, r: &GameResult, under_review: bool) -> String {
    let sentence = result(lang, r);
    if under_review {
        format!("{sentence} ({})", t(lang, "referee.under_review"))
    } else {
        sentence
    }
}

/// The whole result in one sentence.
pub fn result(lang: Lang, r: &GameResult) -> String {
    let who = |c| colour(lang, c);
    match *r {
        GameResult::Score { winner, margin_half, method } => {
            t_with(lang, "result.score", &[("winner", &who(winner)), ("margin", &margin(lang, margin_half, method))])
        }
        GameResult::Jigo { .. } => t(lang, "result.jigo"),
        GameResult::Resign { winner } => t_with(lang, "result.resign", &[("winner", &who(winner))]),
        GameResult::Time { winner } => t_with(lang, "result.time", &[("winner", &who(winner))]),
        GameResult::DrawAgreed => t(lang, "result.draw_agreed"),
        GameResult::Repetition => t(lang, "result.repetition"),
        GameResult::Decision { winner: Some(w) } => t_with(lang, "result.decision", &[("winner", &who(w))]),
        GameResult::Decision { winner: None } => t(lang, "result.decision_no_winner"),
        GameResult::Void => t(lang, "result.void"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Color::{Black, White};

    #[test]
    fn korean_and_english_results_000_s6_5_s8_6() {
        let score = |w, h, m| GameResult::Score { winner: w, margin_half: h, method: m };
        let both = |r: GameResult| (result(Lang::KO, &r), result(Lang::EN, &r));
        use ScoringMethod::*;
        assert_eq!(both(score(Black, 5, Territory)), ("흑 2집 반 승".into(), "Black wins by 2.5 points".into()));
        assert_eq!(both(score(White, 1, Territory)).0, "백 반집 승");
        assert_eq!(both(score(White, 4, Territory)).0, "백 2집 승");
        assert_eq!(both(score(Black, 3, Area)), ("흑 1.5점 승".into(), "Black wins by 1.5 points".into()));
        assert_eq!(both(score(Black, 2, Space)).1, "Black wins by 1 point");
        assert_eq!(both(score(Black, 2, Territory)), ("흑 1집 승".into(), "Black wins by 1 point".into()));
        assert_eq!(both(GameResult::resignation(Black)), ("백 불계승".into(), "White wins by resignation".into()));
        assert_eq!(both(GameResult::time_loss(White)), ("흑 시간승".into(), "Black wins on time".into()));
        assert_eq!(both(GameResult::Jigo { method: Space }), ("무승부".into(), "Draw (jigo)".into()));
        assert_eq!(both(GameResult::DrawAgreed).0, "무승부 (합의)");
        assert_eq!(both(GameResult::Repetition).1, "Draw by repetition");
        assert_eq!(both(GameResult::Decision { winner: Some(White) }).0, "관리자 판정: 백 승");
        assert_eq!(both(GameResult::Decision { winner: None }).1, "Administrator decision: no winner");
        assert_ne!(both(GameResult::Void).0, both(GameResult::Void).1);
    }
}
