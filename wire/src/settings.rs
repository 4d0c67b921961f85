//! Match settings: what two players agree on before play.
//!
//! Pure domain code (serde + engine only), compiled into both the server and the browser.
//! One [`MatchSettings`] value is the complete agreement of a room, in the flat form that is
//! sent, stored and shown. It is validated with [`MatchSettings::validate`], which reports
//! *every* problem (field, value, allowed range and clause) or yields the preset's validated
//! [`MatchRules`] (`rules`: [`SpaceRules`] or [`ClassicRules`]) that the match procedure works
//! from, so that no Space code sees byo-yomi and no Classic code hours per side;
//! [`MatchRules::settings`] gives the flat form back. The engine's types come from
//! [`MatchRules::engine_rules`] (or [`MatchSettings::engine_rules`]) and
//! [`MatchSettings::geometry`].
//!
//! Sources: the Space rules `003` (§1.1–1.5 board, time, agreement, special rules,
//! versioned common rules; §4.1/§4.3 komi and bonus; §5 undo; §6.1 disconnection;
//! §6.4 outside assistance; §10.1–10.2 scoring wait) and the Classic preset `000`
//! (§2 option table with ranges and defaults; §4 handicap; §7 house rules; §8.5 timers).
//!
//! Presets decide which values are allowed:
//! * **Space** (003): any valid box (default 19×19×19), komi ≥ 0 in steps of 0.5 to an agreed
//!   recipient, optional capture/dead-stone bonus, the Space scoring formula and the
//!   immediate-repetition rule, 1–5 whole hours per side (may differ, no byo-yomi), undo by
//!   consent (no allowance to agree), no draw offers, a fixed five-minute disconnection wait.
//! * **Classic** (000 §2): flat 9/13/19 boards, komi −10..10 added to White, territory or area
//!   scoring, positional superko or the Korean ko rule, handicap, none/byo-yomi/Fischer time,
//!   undo allowance, draw offers, scoring deadline and disconnection grace from fixed sets.
//!
//! ## Komi representation
//! Komi is stored in half points (`komi_half_points`, an `i32`). For Space it is ≥ 0 and goes to
//! `komi_to` (003 §4.3). For Classic it is the value *added to White* (000 §2) and may be
//! negative; `komi_to` must then be White. The engine's [`Komi`] is non-negative only, so
//! [`MatchSettings::engine_rules`] maps a negative Classic komi `−k` to komi `k` for Black
//! (the score difference is identical: White −k ⇔ Black +k).

use engine::{
    Axis, BoxSpec, Color, Geometry, GeometryError, KoRule, Komi, LabelError, LabelKind, LabelSet, Rules, ScoringMethod,
};
use serde::{Deserialize, Serialize};
use std::fmt;

mod defaults;
mod limits;
mod permits;
mod rules;
mod validate;
pub use super::mode::RoomMode;
pub use super::referee::ReviewPolicy;
pub use defaults::classic_default_komi_half_points;
pub use limits::*;
pub use permits::{Permit, Permits};
pub use rules::{ClassicRules, ClassicTime, ClockRule, MatchRules, SpaceHours, SpaceRules};
pub use validate::format_half_points;
pub use validate::{classic_size, describe_box};

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

/// Which rule set the match is played under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::EnumString)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Preset {
    /// The Space rules (003): 3D boxes.
    Space,
    /// Classic baduk (000): flat 9/13/19.
    Classic,
}

impl Preset {
    /// The serde name: `space` / `classic`.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// Time limits.
// Read by `tag_first::tag_first!` below, not serde's derive (it buffers internally tagged enums).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, strum::EnumDiscriminants)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[strum_discriminants(
    name(TimeControlCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum TimeControl {
    /// Space (003 §1.2): each side 1–5 whole hours, may differ; no byo-yomi.
    SpaceHours { black: u32, white: u32 },
    /// Classic `none` (000 §2): no clock; a move is due within `idle_limit_s` (300 | 600).
    None { idle_limit_s: u32 },
    /// Classic `byoyomi` (000 §2): main time 0..=3600 s, periods of 10|20|30|60 s, 1..=5 periods.
    Byoyomi { main_s: u32, period_s: u32, periods: u32 },
    /// Classic `fischer` (000 §2): main time 0..=3600 s (> 0, see `validate`), 0..=30 s per move.
    Fischer { main_s: u32, increment_s: u32 },
}

tag_first::tag_first!(deny_unknown_fields TimeControl, TimeControlCode, "kind"; SpaceHours { black, white }, None { idle_limit_s }, Byoyomi { main_s, period_s, periods }, Fischer { main_s, increment_s });

impl TimeControl {
    /// 000 §2 default main time per board size: 9 → 180 s, 13 → 600 s, 19 → 1200 s
    /// (other sizes, which Classic refuses anyway, get the 19 value).
    pub const fn classic_default_main_s(size: u16) -> u32 {
        match size {
            9 => 180,
            13 => 600,
            _ => 1200,
        }
    }
    /// 000 §2 default: byo-yomi, the size's main time, 3 × 30 s.
    pub const fn classic_default_byoyomi(size: u16) -> TimeControl {
        TimeControl::Byoyomi { main_s: Self::classic_default_main_s(size), period_s: 30, periods: 3 }
    }
    /// 000 §2 defaults for `fischer`: the size's main time, 10 s per move.
    pub const fn classic_default_fischer(size: u16) -> TimeControl {
        TimeControl::Fischer { main_s: Self::classic_default_main_s(size), increment_s: 10 }
    }
    /// 000 §2 default for `none`: idle limit 600 s.
    pub const fn classic_default_none() -> TimeControl {
        TimeControl::None { idle_limit_s: 600 }
    }
    const fn kind_str(&self) -> &'static str {
        match self {
            TimeControl::SpaceHours { .. } => "space_hours",
            TimeControl::None { .. } => "none",
            TimeControl::Byoyomi { .. } => "byoyomi",
            TimeControl::Fischer { .. } => "fischer",
        }
    }
}

/// Who may take a match's free seat: the holders of the invitation links, or anyone signed
/// in, from the open challenges list. Open rooms seat their creator at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, strum::IntoStaticStr)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum RoomAccess {
    #[default]
    Invitation,
    Open,
}

/// How colours are decided (000 §2 `colorAssignment`; 003 §1.2 colours agreed beforehand —
/// agreeing to draw lots is an agreement too). With nigiri the server draws with a seeded
/// ChaCha RNG and records the seed (000 §8.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ColourAssignment {
    Nigiri,
    HostBlack,
    HostWhite,
}

/// Undo allowance per player. Every request needs the opponent's consent (003 §5.1, 000 §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum UndoAllowance {
    Off,
    /// At most `n` accepted undos per player; Classic allows n ∈ {1, 3} (000 §2).
    Limited(u32),
    Unlimited,
}

/// Who an agreed assistant is (003 §6.4: "another person or program").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum AssistantKind {
    Person,
    Program,
}

/// Whom an agreed assistant may help.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum AssistedPlayer {
    /// The player who created the room.
    Host,
    /// The invited player.
    Guest,
    Both,
}

/// What an agreed assistant may do (003 §6.4: "within what scope"); anything beyond it is
/// prohibited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum AssistanceExtent {
    /// Explaining the rules and the controls only; no advice on moves or positions.
    RulesAndControls,
    /// Help with life-and-death and territory review in the scoring phase only.
    ScoringReview,
    /// Advice on moves and positions during play and scoring.
    FullAdvice,
}

/// One agreed assistant: who may assist, whom, and within what scope (003 §6.4).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Assistant {
    /// The person's name or the program's name and version; trimmed, 1..=80 characters.
    pub name: String,
    pub kind: AssistantKind,
    pub helps: AssistedPlayer,
    pub extent: AssistanceExtent,
}

/// The agreed scope of outside assistance (003 §6.4). Spectators' real-time advice is never
/// allowed, whatever is agreed here (and there is no channel for it).
// Read by `tag_first::tag_first!` below, not serde's derive (it buffers internally tagged enums).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, strum::EnumDiscriminants)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[strum_discriminants(
    name(AssistanceScopeCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum AssistanceScope {
    /// No outside help at all (the default: help without prior agreement is prohibited).
    None,
    /// Help from exactly the recorded assistants, each within its recorded extent.
    Agreed { assistants: Vec<Assistant> },
}

tag_first::tag_first!(deny_unknown_fields AssistanceScope, AssistanceScopeCode, "kind"; None, Agreed { assistants });

/// A special rule of the agreement (003 §1.3, §1.4): a kind the pinned common-rules version
/// permits ([`crate::governance::Permits`]), with its value.
// Read by `tag_first::tag_first!` below, not serde's derive (it buffers internally tagged enums).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, strum::EnumDiscriminants)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[strum_discriminants(
    name(SpecialRuleCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum SpecialRule {
    /// Each player may have at most this many undos accepted (003 §5.1 leaves undo unlimited,
    /// each by consent; the match may agree to fewer). 0: no undo at all.
    UndoLimit { per_player: u32 },
    /// A free note for the record; it changes no rule the program applies.
    Note { text: String },
}

tag_first::tag_first!(deny_unknown_fields SpecialRule, SpecialRuleCode, "kind"; UndoLimit { per_player }, Note { text });

impl SpecialRule {
    pub fn kind(&self) -> SpecialRuleKind {
        match self {
            SpecialRule::UndoLimit { .. } => SpecialRuleKind::UndoLimit,
            SpecialRule::Note { .. } => SpecialRuleKind::Note,
        }
    }
}

/// The kinds of special rule (what a common-rules version may permit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::EnumIter)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum SpecialRuleKind {
    UndoLimit,
    Note,
}

impl SpecialRuleKind {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// Special rules as stored: tagged rules, or (rooms from before kinds existed) plain texts,
/// which read as notes. Read by a visitor, not `#[serde(untagged)]`, which buffers each rule
/// and compiles its reader a second time into the browser's bundle.
fn special_rules_compat<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<SpecialRule>, D::Error> {
    struct Stored(SpecialRule);
    impl<'de> Deserialize<'de> for Stored {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> serde::de::Visitor<'de> for V {
                type Value = Stored;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a special rule, or a text")
                }
                fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Stored, E> {
                    Ok(Stored(SpecialRule::Note { text: text.to_string() }))
                }
                fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Stored, A::Error> {
                    SpecialRule::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(Stored)
                }
            }
            d.deserialize_any(V)
        }
    }
    Ok(Vec::<Stored>::deserialize(d)?.into_iter().map(|s| s.0).collect())
}

/// A version number, or the text `"1.9.1-rc1"` of rooms stored before versions were data
/// (the seed release the first version restates). A visitor, as above.
fn version_compat<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    struct Version(u32);
    impl<'de> Deserialize<'de> for Version {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl serde::de::Visitor<'_> for V {
                type Value = Version;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a version number")
                }
                fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Version, E> {
                    u32::try_from(n)
                        .map(Version)
                        .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(n), &self))
                }
                fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Version, E> {
                    u32::try_from(n).map(Version).map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(n), &self))
                }
                fn visit_str<E: serde::de::Error>(self, t: &str) -> Result<Version, E> {
                    if t == SEED_RULES_RELEASE {
                        Ok(Version(1))
                    } else {
                        Err(E::custom(format!("common_rules_version {t:?}: expected a version number")))
                    }
                }
            }
            d.deserialize_any(V)
        }
    }
    Ok(Option::<Version>::deserialize(d)?.map(|v| v.0))
}

/// The complete agreement of a match (003 §1.3; 000 §2). Nothing in it changes after the start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct MatchSettings {
    pub preset: Preset,
    /// The box (003 §1.1); Classic: flat 9/13/19 with axes 1..n and depth 1 (000 §2).
    pub board: BoxSpec,
    /// Komi in half points. Space: ≥ 0, to `komi_to` (003 §4.3). Classic: −20..=20 (−10..10
    /// points), added to White (000 §2). See the module docs for the engine mapping.
    pub komi_half_points: i32,
    /// Who receives komi. Space: agreed (003 §4.3). Classic: White (000 §2).
    pub komi_to: Color,
    /// Each captured or confirmed-dead stone earns one point (003 §1.3, §4.1). Space only.
    pub capture_bonus: bool,
    /// Space: `space` (003 §4.1). Classic: `territory` | `area` (000 §2).
    pub scoring: ScoringMethod,
    /// Space: `immediate` (003 §2.3). Classic: `positional_superko` | `korean` (000 §2, §5.3).
    pub ko: KoRule,
    /// Classic: 0 or 2..=9 (9×9: 0 or 2..=5) (000 §2, §4). Space: 0.
    pub handicap: u32,
    pub time: TimeControl,
    pub colours: ColourAssignment,
    /// Classic: per player (000 §2). Space: `unlimited` — any request, each by consent (003 §5.1).
    pub undo: UndoAllowance,
    /// Classic draw offers (000 §2, §8.2). Space: false (003 knows no draw by agreement).
    pub draw_offer: bool,
    /// Atari warning hint to the player to move (000 §2, §8.3). In Space this is program help
    /// that both players agree to and record before the match (003 §6.4).
    pub atari_warning: bool,
    /// Classic: dead-stone review limit 120|180|300 s, then auto-agree (000 §2, §8.5).
    /// Space: the scoring-wait alert announced beforehand, 0..=604800 s in whole minutes; on
    /// expiry the administrator decides (003 §9.7, §10.1, §10.2).
    pub scoring_deadline_s: u32,
    /// Classic: 60|120|300 s, then a time loss (000 §2, §8.5). Space: 300 s, then the match is
    /// held for the administrator (003 §6.1).
    pub disconnect_grace_s: u32,
    /// Special rules agreed for this match, chosen among the kinds the pinned common-rules
    /// version permits, within its bounds (003 §1.3, §1.4); Classic has none (its house
    /// rules are options, 000 §7). Rooms stored when these were free text read them as notes.
    #[serde(deserialize_with = "special_rules_compat")]
    pub special_rules: Vec<SpecialRule>,
    pub assistance: AssistanceScope,
    /// The common-rules version the match is played under (003 §1.5). `None` in a request:
    /// the version in force when the room is created, which the server pins; a number must
    /// be that version. Rooms stored before versions were data hold `"1.9.1-rc1"`: version 1.
    #[serde(default, deserialize_with = "version_compat")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<u32>, minimum = 1))]
    pub common_rules_version: Option<u32>,
    /// Days the stored record is kept after the match ends, 0 = for ever (003 §9.7, §10.1:
    /// 0–36,500). `None` in a request: the site's default when the room is created, which
    /// the server pins. Rooms stored before retention existed are kept for ever.
    #[serde(default)]
    pub record_retention_days: Option<u32>,
    /// How coordinates are named (003 §7.1). Absent in rooms stored before labels existed:
    /// numeric.
    #[serde(default)]
    pub labels: CoordLabels,
    /// Whether the administrator reviews a counted result before it is final (003 §2.7):
    /// `required` is the Space default, `when_disputed` the Classic one. Absent (rooms stored
    /// before it existed, or a client that leaves it out): `when_disputed`.
    #[serde(default)]
    pub review: ReviewPolicy,
    /// Who sits at the table: a match, one device, practice or against the computer (003
    /// §1.2, §11). Absent (rooms stored before modes existed): a match.
    #[serde(default)]
    pub mode: RoomMode,
    /// By invitation (absent: rooms stored before open challenges) or open to anyone signed
    /// in; only a match between two people may be open.
    #[serde(default)]
    pub access: RoomAccess,
}

/// Longest custom label (characters): labels are typed into the X/Y/Z fields.
pub const MAX_LABEL_CHARS: usize = 6;

/// How coordinates are named on each axis (003 §7.1, §9.4): a built-in kind per axis
/// (numeric = the actual coordinates, English letters, Korean syllables) or a custom list
/// per axis. Labels are case-sensitive and unique per axis; they name points and never move
/// them, and they are fixed with the settings once play begins. Classic boards use vertex
/// notation (000 §3) and keep numeric labels here.
// Read by `tag_first::tag_first!` below, not serde's derive (it buffers internally tagged enums).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, strum::EnumDiscriminants)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[strum_discriminants(
    name(CoordLabelsCode),
    derive(strum::EnumString, strum::VariantNames, strum::EnumIter),
    strum(serialize_all = "snake_case")
)]
pub enum CoordLabels {
    Builtin { x: LabelKind, y: LabelKind, z: LabelKind },
    Custom { x: Vec<String>, y: Vec<String>, z: Vec<String> },
}

tag_first::tag_first!(deny_unknown_fields CoordLabels, CoordLabelsCode, "kind"; Builtin { x, y, z }, Custom { x, y, z });

impl Default for CoordLabels {
    fn default() -> Self {
        CoordLabels::Builtin { x: LabelKind::Numeric, y: LabelKind::Numeric, z: LabelKind::Numeric }
    }
}

impl CoordLabels {
    /// Numeric on every axis: labels are the actual coordinates.
    pub fn is_numeric(&self) -> bool {
        *self == CoordLabels::default()
    }

    /// The validated label set for a geometry.
    pub fn label_set(&self, g: &Geometry) -> Result<LabelSet, LabelError> {
        match self {
            CoordLabels::Builtin { x, y, z } => Ok(LabelSet::builtin(g, [*x, *y, *z])),
            CoordLabels::Custom { x, y, z } => LabelSet::custom(g, x.clone(), y.clone(), z.clone()),
        }
    }
}

/// Which setting a problem concerns (the JSON field name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Field {
    Preset,
    Board,
    KomiHalfPoints,
    KomiTo,
    CaptureBonus,
    Scoring,
    Ko,
    Handicap,
    Time,
    Colours,
    Undo,
    DrawOffer,
    AtariWarning,
    ScoringDeadlineS,
    DisconnectGraceS,
    SpecialRules,
    Assistance,
    CommonRulesVersion,
    RecordRetentionDays,
    Labels,
    Mode,
}

impl Field {
    /// The JSON field name (the serde name).
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// Whether a value lies outside a numeric range or is not one of the permitted values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    OutOfRange,
    NotAllowed,
}

/// One violated constraint: `"{path}: {value} is out of range; allowed {allowed} ({clause})"`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SettingProblem {
    pub field: Field,
    /// Where exactly, for display and form highlighting: `komi`, `time.black`, `board.x`,
    /// `special_rules[2]`, `assistance.assistants[0].name`.
    pub path: String,
    /// The offending value as shown to people (komi in points, texts quoted and shortened).
    pub value: String,
    pub kind: ProblemKind,
    /// The allowed range or set, in words.
    pub allowed: String,
    /// The clause that sets the constraint, e.g. `003 §1.2`.
    pub clause: String,
}

impl fmt::Display for SettingProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ProblemKind::OutOfRange => "out of range",
            ProblemKind::NotAllowed => "not allowed",
        };
        write!(f, "{}: {} is {what}; allowed {} ({})", self.path, self.value, self.allowed, self.clause)
    }
}

/// All problems found in one [`MatchSettings`] (never empty when returned as an error).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingsError {
    pub problems: Vec<SettingProblem>,
}

impl SettingsError {
    /// Whether some problem concerns `field`.
    pub fn concerns(&self, field: Field) -> bool {
        self.problems.iter().any(|p| p.field == field)
    }
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SettingsError {}

#[cfg(any(test, feature = "arbitrary"))]
pub mod arbitrary;
#[cfg(test)]
mod tests;
