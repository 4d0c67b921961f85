//! Game results (000 §6.5, §8.6; 003 §4.1, §6.5): one variant per way a game ends, each with
//! exactly the data that ending has — a resignation always has a winner, a draw never does.
//! No sentences here: people read results through the app's i18n catalogue.

use crate::board::Color;
use crate::rules::ScoringMethod;
use serde::Serialize;

/// A finished game's result. The serde tag `reason` and its names are those of the stored
/// event logs (000 §8.6 `reason`).
// Read by `tag_first!` below, not serde's derive (the `tag_first` crate says why: smaller WASM).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, strum::EnumDiscriminants)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[serde(tag = "reason", rename_all = "snake_case")]
#[strum_discriminants(
    name(GameResultCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum GameResult {
    /// Decided by counting; `margin_half` > 0 (half points).
    Score { winner: Color, margin_half: u32, method: ScoringMethod },
    /// Counting gave equal totals (빅/무승부; 003 §4.1, 000 §6.5).
    Jigo { method: ScoringMethod },
    /// The loser resigned (불계).
    Resign { winner: Color },
    /// The loser ran out of time (003 §5.4; 000 §8.5).
    Time { winner: Color },
    /// Both players agreed to a draw (000 §8.2).
    DrawAgreed,
    /// Draw by repetition (000 §5.3 Korean ko: the third occurrence).
    Repetition,
    /// An administrator decided the match (003 §1.5, §6.3); `None`: no winner.
    #[serde(rename = "administrator")]
    #[strum_discriminants(strum(serialize = "administrator"))]
    Decision { winner: Option<Color> },
    /// The match is void: it does not count for either player (003 §6.5).
    Void,
}

tag_first::tag_first!(GameResult, GameResultCode, "reason";
    Score { winner, margin_half, method },
    Jigo { method },
    Resign { winner },
    Time { winner },
    DrawAgreed,
    Repetition,
    Decision { winner },
    Void,
);

impl GameResult {
    /// One result of each kind (a decision with and without a winner), for the tests that
    /// must cover every kind (the JSON reader's, the API document's).
    #[doc(hidden)]
    pub fn one_of_each(method: ScoringMethod) -> [GameResult; 9] {
        [
            GameResult::Score { winner: Color::White, margin_half: 13, method },
            GameResult::Jigo { method },
            GameResult::Resign { winner: Color::Black },
            GameResult::Time { winner: Color::White },
            GameResult::DrawAgreed,
            GameResult::Repetition,
            GameResult::Decision { winner: Some(Color::Black) },
            GameResult::Decision { winner: None },
            GameResult::Void,
        ]
    }

    /// Result of counting, from both totals in half points.
    pub fn from_totals(method: ScoringMethod, black_half: i64, white_half: i64) -> GameResult {
        let diff = black_half - white_half;
        if diff == 0 {
            return GameResult::Jigo { method };
        }
        GameResult::Score {
            winner: if diff > 0 { Color::Black } else { Color::White },
            margin_half: u32::try_from(diff.unsigned_abs()).unwrap_or(u32::MAX),
            method,
        }
    }
    pub fn resignation(loser: Color) -> GameResult {
        GameResult::Resign { winner: loser.opponent() }
    }
    pub fn time_loss(loser: Color) -> GameResult {
        GameResult::Time { winner: loser.opponent() }
    }
    pub const fn draw_agreed() -> GameResult {
        GameResult::DrawAgreed
    }
    pub const fn repetition() -> GameResult {
        GameResult::Repetition
    }

    /// The winner; `None` for every kind of draw, a decision without winner and a void match.
    pub fn winner(&self) -> Option<Color> {
        match *self {
            GameResult::Score { winner, .. } | GameResult::Resign { winner } | GameResult::Time { winner } => {
                Some(winner)
            }
            GameResult::Decision { winner } => winner,
            GameResult::Jigo { .. } | GameResult::DrawAgreed | GameResult::Repetition | GameResult::Void => None,
        }
    }

    pub fn is_draw(&self) -> bool {
        matches!(self, GameResult::Jigo { .. } | GameResult::DrawAgreed | GameResult::Repetition)
    }

    /// Winning margin in half points (counted results only; 0 for jigo).
    pub fn margin_half(&self) -> Option<u32> {
        match *self {
            GameResult::Score { margin_half, .. } => Some(margin_half),
            GameResult::Jigo { .. } => Some(0),
            _ => None,
        }
    }

    /// Margin in points (e.g. 2.5).
    pub fn margin(&self) -> Option<f64> {
        self.margin_half().map(|h| f64::from(h) / 2.0)
    }

    /// SGF `RE` value (FF[4]): `B+2.5`, `W+R`, `B+T`, `0` for a draw, `B+F`/`W+F` for a
    /// decision with a winner (forfeit), `Void` for no result.
    pub fn sgf(&self) -> String {
        match *self {
            GameResult::Score { winner, margin_half, .. } => format!("{}+{}", winner.letter(), fmt_half(margin_half)),
            GameResult::Resign { winner } => format!("{}+R", winner.letter()),
            GameResult::Time { winner } => format!("{}+T", winner.letter()),
            GameResult::Decision { winner: Some(w) } => format!("{}+F", w.letter()),
            GameResult::Jigo { .. } | GameResult::DrawAgreed | GameResult::Repetition => "0".to_string(),
            GameResult::Decision { winner: None } | GameResult::Void => "Void".to_string(),
        }
    }
}

/// "2.5", "3", "0.5".
pub fn fmt_half(h: u32) -> String {
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
    fn counted_results_carry_winner_margin_and_method_000_s6_5() {
        let t = GameResult::from_totals(ScoringMethod::Territory, 78, 73);
        assert_eq!(t, GameResult::Score { winner: Color::Black, margin_half: 5, method: ScoringMethod::Territory });
        assert_eq!((t.sgf(), t.margin(), t.is_draw()), ("B+2.5".to_string(), Some(2.5), false));
        let j = GameResult::from_totals(ScoringMethod::Space, 20, 20);
        assert_eq!(
            (j, j.winner(), j.sgf(), j.is_draw()),
            (GameResult::Jigo { method: ScoringMethod::Space }, None, "0".into(), true)
        );
        assert_eq!(GameResult::from_totals(ScoringMethod::Area, 0, 1).winner(), Some(Color::White));
    }

    #[test]
    fn other_endings_and_their_sgf() {
        assert_eq!(GameResult::resignation(Color::Black).sgf(), "W+R");
        assert_eq!(GameResult::time_loss(Color::White).winner(), Some(Color::Black));
        assert_eq!(GameResult::time_loss(Color::White).sgf(), "B+T");
        assert_eq!(GameResult::Decision { winner: Some(Color::White) }.sgf(), "W+F");
        assert_eq!(GameResult::Decision { winner: None }.winner(), None);
        assert!(!GameResult::Void.is_draw());
        assert_eq!(GameResult::Void.sgf(), "Void");
        assert!(GameResult::Repetition.is_draw() && GameResult::DrawAgreed.is_draw());
    }

    #[test]
    fn wire_names_are_the_stored_reason_codes() {
        let j = |r: GameResult| serde_json::to_value(r).unwrap();
        assert_eq!(
            j(GameResult::resignation(Color::White)),
            serde_json::json!({"reason": "resign", "winner": "black"})
        );
        assert_eq!(
            j(GameResult::Decision { winner: None }),
            serde_json::json!({"reason": "administrator", "winner": null})
        );
        assert_eq!(j(GameResult::DrawAgreed), serde_json::json!({"reason": "draw_agreed"}));
        let s = j(GameResult::from_totals(ScoringMethod::Area, 3, 0));
        assert_eq!(s, serde_json::json!({"reason": "score", "winner": "black", "margin_half": 3, "method": "area"}));
        assert_eq!(serde_json::from_value::<GameResult>(s).unwrap().margin_half(), Some(3));
    }
}

#[cfg(test)]
/// `GameResult` read through `tag_first!` (the reader the browser uses): every variant, and
/// the tag anywhere in the object.
mod read_back_tests {
    use strum::IntoEnumIterator;

    use crate::board::Color;
    use crate::result::{GameResult, GameResultCode};
    use crate::rules::ScoringMethod;

    fn samples() -> [GameResult; 9] {
        GameResult::one_of_each(ScoringMethod::Area)
    }

    #[test]
    fn every_variant_reads_back_from_its_text_and_from_a_reordered_object() {
        let mut seen = std::collections::BTreeSet::new();
        for r in samples() {
            let text = serde_json::to_string(&r).unwrap();
            assert_eq!(serde_json::from_str::<GameResult>(&text).unwrap(), r, "{text}");
            // A `Value` map sorts its keys: `reason` is no longer first.
            let v = serde_json::to_value(r).unwrap();
            assert_eq!(serde_json::from_value::<GameResult>(v.clone()).unwrap(), r, "{v}");
            seen.insert(v["reason"].as_str().unwrap().to_string());
        }
        let names = <GameResultCode as strum::VariantNames>::VARIANTS;
        assert_eq!(names.len(), GameResultCode::iter().count());
        let all: std::collections::BTreeSet<String> = names.iter().map(|s| s.to_string()).collect();
        assert_eq!(seen, all, "a sample for every variant, each named as serde writes it");
    }

    #[test]
    fn the_tag_may_come_anywhere_in_the_text() {
        let r: GameResult =
            serde_json::from_str(r#"{"winner":"black","method":"area","margin_half":3,"reason":"score"}"#).unwrap();
        assert_eq!(r, GameResult::Score { winner: Color::Black, margin_half: 3, method: ScoringMethod::Area });
    }

    #[test]
    fn bad_objects_are_refused_naming_what_is_wrong() {
        let err = |t: &str| serde_json::from_str::<GameResult>(t).unwrap_err().to_string();
        assert!(err(r#"{"reason":"checkmate"}"#).contains("unknown variant `checkmate`"));
        assert!(err(r#"{"reason":"resign"}"#).contains("missing field `winner`"));
        assert!(err(r#"{"reason":"resign","winner":"black","winner":"white"}"#).contains("duplicate field `winner`"));
        assert!(err(r#"{"winner":"black"}"#).contains("missing field `reason`"));
        assert!(err(r#"{"reason":"resign","winner":"black","reason":"time"}"#).contains("duplicate field `reason`"));
        assert!(err(r#"{}"#).contains("missing field `reason`"));
        assert!(err(r#"{"reason":"resign","winner":"red"}"#).contains("unknown variant `red`"));
        // Read again with the tag moved first: the message has no position in that text.
        let e = err(r#"{"winner":"red","reason":"resign"}"#);
        assert_eq!(e, "unknown variant `red`, expected `black` or `white`");
        assert!(err(r#"[1]"#).contains("invalid type"));
    }

    #[test]
    fn unknown_fields_are_ignored_and_a_missing_option_is_none() {
        let r: GameResult = serde_json::from_str(r#"{"reason":"resign","winner":"white","note":{"a":[1,2]}}"#).unwrap();
        assert_eq!(r, GameResult::Resign { winner: Color::White });
        let r: GameResult = serde_json::from_str(r#"{"reason":"administrator"}"#).unwrap();
        assert_eq!(r, GameResult::Decision { winner: None });
    }
}
