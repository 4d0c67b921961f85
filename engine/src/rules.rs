//! Rules as independent settings, with the named presets `Space` (003) and
//! `Classic` (000).

use crate::board::Color;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Repetition rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum KoRule {
    /// 003 §2.3 (Space default): a stone move may not recreate the
    /// arrangement that existed just before the opponent's most recent move;
    /// older arrangements may recur; a pass is always legal.
    Immediate,
    /// 000 §5.3 (Classic default): a stone move may not recreate any
    /// arrangement that occurred earlier in the game (colour to move ignored).
    PositionalSuperko,
    /// 000 §5.3 `korean`: simple ko only; the third occurrence of the same
    /// arrangement with the same player to move ends the game as a draw by
    /// repetition.
    Korean,
}

/// Scoring method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ScoringMethod {
    /// 000 §6.3: stones + territory + komi (+ handicap compensation to White);
    /// seki eyes count for the enclosing colour (000 §5.6).
    Area,
    /// 000 §6.2: territory + prisoners (captured and dead) + komi; seki eyes
    /// are not territory (000 §5.6).
    Territory,
    /// 003 §4.1: retained stones + territory, +1 to the opponent per captured
    /// or confirmed-dead stone when the bonus was agreed, + komi to the agreed
    /// recipient; equal totals draw.
    Space,
}

/// Komi in half points: zero or a positive multiple of 0.5 (003 §4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Komi(u32);

/// Komi text or value that is negative, not a multiple of 0.5, or too large.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("komi {given:?} is not allowed; komi must be 0 or a positive multiple of 0.5 up to 1000 (003 §4.3)")]
pub struct KomiError {
    pub given: String,
}

impl Komi {
    pub const ZERO: Komi = Komi(0);
    /// Largest komi accepted (in points).
    pub const MAX_POINTS: u32 = 1000;

    pub fn from_half_points(half: u32) -> Result<Komi, KomiError> {
        if half > 2 * Self::MAX_POINTS {
            return Err(KomiError { given: format!("{}", half as f64 / 2.0) });
        }
        Ok(Komi(half))
    }
    pub fn half_points(self) -> u32 {
        self.0
    }
    pub fn points(self) -> f64 {
        self.0 as f64 / 2.0
    }
    /// From a float such as 6.5 (exact multiples of 0.5 only).
    pub fn from_f64(v: f64) -> Result<Komi, KomiError> {
        let h = v * 2.0;
        if !v.is_finite() || v < 0.0 || h.fract() != 0.0 || h > (2 * Self::MAX_POINTS) as f64 {
            return Err(KomiError { given: v.to_string() });
        }
        Ok(Komi(h as u32))
    }
    /// Parse `"6.5"`, `"7"`, `"0"`, `"7.0"`.
    pub fn parse(s: &str) -> Result<Komi, KomiError> {
        let t = s.trim();
        let err = || KomiError { given: s.to_string() };
        let (int, frac) = match t.split_once('.') {
            Some((a, b)) => (a, b),
            None => (t, ""),
        };
        if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        let whole: u32 = int.parse().map_err(|_| err())?;
        let frac = frac.trim_end_matches('0');
        let half = match frac {
            "" => 0,
            "5" => 1,
            _ => return Err(err()),
        };
        let h = whole.checked_mul(2).and_then(|w| w.checked_add(half)).ok_or_else(err)?;
        Komi::from_half_points(h).map_err(|_| err())
    }
}

impl fmt::Display for Komi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_multiple_of(2) {
            write!(f, "{}", self.0 / 2)
        } else {
            write!(f, "{}.5", self.0 / 2)
        }
    }
}

impl Serialize for Komi {
    /// Serialised as a JSON number (e.g. `6.5`).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.points())
    }
}

impl<'de> Deserialize<'de> for Komi {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = f64::deserialize(d)?;
        Komi::from_f64(v).map_err(serde::de::Error::custom)
    }
}

/// A complete rule set. Every field is independent; use the presets for the
/// documented defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    pub ko: KoRule,
    pub scoring: ScoringMethod,
    /// 003 §1.3 / §4.1: each captured or confirmed-dead stone earns the
    /// capturer one point. Used by `Space` and `Area`; `Territory` always
    /// counts prisoners (000 §6.2).
    pub capture_bonus: bool,
    pub komi: Komi,
    /// Who receives komi (003 §4.3: agreed per match).
    pub komi_to: Color,
    /// Number of handicap stones (000 §4): 0 or 2..=9 (2..=5 on 9×9).
    pub handicap: u8,
}

impl Rules {
    /// The Space preset (003): immediate repetition rule, Space formula,
    /// no capture bonus, komi 0 to White, no handicap.
    pub const fn space() -> Rules {
        Rules {
            ko: KoRule::Immediate,
            scoring: ScoringMethod::Space,
            capture_bonus: false,
            komi: Komi(0),
            komi_to: Color::White,
            handicap: 0,
        }
    }

    /// The Classic preset (000 §2): positional superko, territory scoring,
    /// komi 6.5 to White, no handicap.
    pub const fn classic() -> Rules {
        Rules {
            ko: KoRule::PositionalSuperko,
            scoring: ScoringMethod::Territory,
            capture_bonus: false,
            komi: Komi(13),
            komi_to: Color::White,
            handicap: 0,
        }
    }

    /// Classic with `n` handicap stones (000 §4 step 4): komi 0.5.
    pub const fn classic_handicap(n: u8) -> Rules {
        let mut r = Rules::classic();
        r.handicap = n;
        r.komi = Komi(1);
        r
    }

    /// Classic area scoring (000 §7 중국식): komi 7.5.
    pub const fn classic_area() -> Rules {
        let mut r = Rules::classic();
        r.scoring = ScoringMethod::Area;
        r.komi = Komi(15);
        r
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::space()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi_parsing_half_point_steps() {
        // 003 §4.3: 0 or positive multiples of 0.5; negative not used.
        assert_eq!(Komi::parse("6.5").unwrap().half_points(), 13);
        assert_eq!(Komi::parse("7").unwrap().half_points(), 14);
        assert_eq!(Komi::parse("7.50").unwrap().half_points(), 15);
        assert_eq!(Komi::parse("0").unwrap(), Komi::ZERO);
        for bad in ["-0.5", "6.3", "", ".5", "abc", "1e3", "99999999999", "2000.5"] {
            assert!(Komi::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Komi::parse("6.5").unwrap().to_string(), "6.5");
        assert_eq!(Komi::parse("7").unwrap().to_string(), "7");
        assert!(Komi::from_f64(-1.0).is_err());
        assert!(Komi::from_f64(f64::NAN).is_err());
        let j = serde_json::to_string(&Rules::classic()).unwrap();
        assert!(j.contains("\"komi\":6.5"), "{j}");
        let back: Rules = serde_json::from_str(&j).unwrap();
        assert_eq!(back, Rules::classic());
        assert!(serde_json::from_str::<Rules>(&j.replace("6.5", "6.25")).is_err());
    }

    #[test]
    fn presets() {
        // 003 §2.3 immediate default; 000 §2 territory + positional superko + 6.5.
        let s = Rules::space();
        assert_eq!(
            (s.ko, s.scoring, s.komi, s.komi_to),
            (KoRule::Immediate, ScoringMethod::Space, Komi::ZERO, Color::White)
        );
        let c = Rules::classic();
        assert_eq!(
            (c.ko, c.scoring, c.komi.to_string()),
            (KoRule::PositionalSuperko, ScoringMethod::Territory, "6.5".into())
        );
        assert_eq!(Rules::classic_area().komi.to_string(), "7.5");
        assert_eq!(Rules::classic_handicap(3).komi.to_string(), "0.5");
    }
}
