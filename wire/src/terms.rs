//! The words every message about a room uses: the seats and colours, a point of the box
//! (`Xyz`), a mark and its kind, the score's totals, why a room is held or a player's
//! clock stopped, and what the room asks an administrator's attention for. Below the
//! events, commands, views and rulings that are made of them.

use serde::{Deserialize, Serialize};

/// The two places at the table. Colours are fixed only at the start (nigiri or as agreed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    /// The seat of the room's creator (the "host" of 000 §2 `hostBlack`/`hostWhite`).
    First,
    Second,
}

impl Seat {
    pub fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }
    pub fn index(self) -> usize {
        match self {
            Seat::First => 0,
            Seat::Second => 1,
        }
    }
}

/// Stone colour: the engine's own type (serde `"black"` / `"white"`), one type across the
/// engine, the stored log and the wire.
pub use engine::Color as Colour;

/// Actual board coordinates (003 §7.1), as sent and shown: always an object `{"x","y","z"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Xyz {
    pub x: i64,
    pub y: i64,
    pub z: i64,
}

/// Only a map is a point: the derived impl would also take `[x, y, z]`, which the API's
/// contract does not have.
impl<'de> Deserialize<'de> for Xyz {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Fields {
            x: i64,
            y: i64,
            z: i64,
        }
        struct MapOnly;
        impl<'de> serde::de::Visitor<'de> for MapOnly {
            type Value = Xyz;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a point {\"x\", \"y\", \"z\"}")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Xyz, A::Error> {
                let Fields { x, y, z } = Fields::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(Xyz { x, y, z })
            }
        }
        d.deserialize_map(MapOnly)
    }
}

impl std::fmt::Display for Xyz {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{},{}", self.x, self.y, self.z)
    }
}

/// The text form back: "x,y,z", spaces allowed around each number.
impl std::str::FromStr for Xyz {
    type Err = ();
    fn from_str(s: &str) -> Result<Xyz, ()> {
        let n: Vec<i64> = s.split(',').map(|p| p.trim().parse().map_err(|_| ())).collect::<Result<_, _>>()?;
        match n[..] {
            [x, y, z] => Ok(Xyz { x, y, z }),
            _ => Err(()),
        }
    }
}

/// Why play is held.
// Read by `tag_first::tag_first!` below, not serde's derive (it buffers internally tagged enums).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, strum::EnumDiscriminants)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
#[strum_discriminants(
    name(HoldReasonCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum HoldReason {
    /// The server restarted; every acknowledged action is intact (003 §6.1). Play resumes
    /// after both players' Ready.
    ServerRestart,
    /// A player did not come back within the reconnection wait (003 §6.1, §4.6).
    Disconnection { colour: Colour },
    /// Players disagree on life and death (003 §3.6).
    ScoringDispute { colour: Colour, reason: String },
    /// An administrator held the match.
    Administrator { reasons: String },
    /// A player called the administrator during play (003 §1.4).
    PlayerCall { colour: Colour, reason: String },
    /// A player objected to a ruling; it waits for review (003 §3.6).
    RulingObjection { colour: Colour, reasons: String },
    /// The stored log does not replay from event `seq` (003 §6.2). Never stored: a room is
    /// found so when it is loaded, and stays so until an administrator repairs it.
    DamagedRecord { seq: i64, why: String },
}

tag_first::tag_first!(HoldReason, HoldReasonCode, "kind"; ServerRestart, Disconnection { colour }, ScoringDispute { colour, reason }, Administrator { reasons }, PlayerCall { colour, reason }, RulingObjection { colour, reasons }, DamagedRecord { seq, why });

/// Why a player's connection is considered lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum FaultCause {
    /// The player's last live connection closed (003 §6.1).
    Disconnected,
    /// The player's device did not acknowledge a move within ten seconds (003 §5.6).
    AcknowledgementTimeout,
}

/// What the administrator is told about (003 §1.6, §6.3, §10.2): a notice, never an
/// automatic loss or consent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Attention {
    /// Five minutes without both players' Ready (003 §1.6, §6.3).
    ReadinessTimeout,
    /// A player did not reconnect in time; the match is held (003 §6.1).
    Disconnection,
    /// Players disagree in scoring (003 §3.6).
    ScoringDispute,
    /// The announced scoring wait passed without agreement (003 §10.2).
    ScoringWait,
}

/// What a scoring mark says about the chain or region it names (003 §3.4–3.7; 000 §5.5–5.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum MarkKind {
    /// The whole chain is a dead-stone candidate.
    Dead,
    /// The chain is kept on the board unresolved, by agreement (003 §3.7).
    Unresolved,
    /// The empty region is seki (000 §5.6).
    Seki,
    /// The empty region is nobody's territory: not safe from invasion (003 §4.2).
    Neutral,
}

/// One side's part of a score statement (003 §4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SideTotals {
    pub stones: u32,
    pub territory: u32,
    pub captures: u32,
    pub dead_captured: u32,
    pub bonus: u32,
    pub komi_half: i64,
    pub handicap_compensation_half: i64,
    pub total_half: i64,
}

/// The scored content of a statement, as recorded with it and with each consent (003 §8.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScoreSummary {
    pub black: SideTotals,
    pub white: SideTotals,
    /// Neutral points: beside unresolved chains, seki, general (003 §9.5 order).
    pub neutral: [u32; 3],
    /// What the statement would make the result: winner, margin and method (003 §4.3).
    pub result: engine::GameResult,
    pub dead_stones: Vec<Xyz>,
    pub unresolved_stones: Vec<Xyz>,
}

/// A mark in force: the point named, what it says, and who made it (`None`: a ruling).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Mark {
    pub at: Xyz,
    pub kind: MarkKind,
    pub by: Option<Colour>,
}

#[cfg(test)]
mod tests {
    use super::Xyz;

    #[test]
    fn a_point_reads_back_from_its_text() {
        let p = Xyz { x: -2, y: 10, z: 1 };
        assert_eq!(p.to_string().parse::<Xyz>(), Ok(p));
        assert_eq!(" 3 , 4,5 ".parse::<Xyz>(), Ok(Xyz { x: 3, y: 4, z: 5 }));
        for bad in ["", "1,2", "1,2,3,4", "a,2,3", "1,,3"] {
            assert!(bad.parse::<Xyz>().is_err(), "{bad}");
        }
    }
}
