//! Match settings: what two players agree on before play (issue 4 item 2).
//!
//! Pure domain code (serde + engine only), compiled into both the server and the browser.
//! One [`MatchSettings`] value is the complete agreement of a room; it is validated with
//! [`MatchSettings::validate`], which reports *every* problem (field, value, allowed
//! range and clause), and turned into the engine's types with
//! [`MatchSettings::engine_rules`] and [`MatchSettings::geometry`].
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

// ---------------------------------------------------------------------------------------------
// Constants (with their clauses)
// ---------------------------------------------------------------------------------------------

/// The common rules in force for matches created now (003 header: integrated review release
/// 1.9.1-rc1). 003 §1.5: a match keeps the version it started with.
pub const CURRENT_COMMON_RULES_VERSION: &str = "1.9.1-rc1";
/// Every common-rules version this program can interpret. Stored matches keep their version
/// (003 §1.5), so an older entry must stay here when a new version is added.
pub const KNOWN_COMMON_RULES_VERSIONS: &[&str] = &[CURRENT_COMMON_RULES_VERSION];

/// Space komi: 0 ..= the engine's maximum (1000 points), in half points (003 §4.3; the seed
/// sets no upper bound, the engine's [`Komi::MAX_POINTS`] is used).
pub const SPACE_KOMI_MAX_HALF: i32 = 2 * Komi::MAX_POINTS as i32;
/// Classic komi −10 ..= 10 in steps of 0.5 (000 §2), in half points.
pub const CLASSIC_KOMI_MIN_HALF: i32 = -20;
pub const CLASSIC_KOMI_MAX_HALF: i32 = 20;
/// Classic board sizes (000 §2 `boardSize`).
pub const CLASSIC_SIZES: [u16; 3] = [9, 13, 19];
/// Space time limit per side: 1..=5 whole hours (003 §1.2).
pub const SPACE_HOURS_MIN: u32 = 1;
pub const SPACE_HOURS_MAX: u32 = 5;
/// Classic time options (000 §2).
pub const CLASSIC_MAIN_MAX_S: u32 = 3600;
pub const CLASSIC_PERIOD_S: [u32; 4] = [10, 20, 30, 60];
pub const CLASSIC_PERIODS_MIN: u32 = 1;
pub const CLASSIC_PERIODS_MAX: u32 = 5;
pub const CLASSIC_INCREMENT_MAX_S: u32 = 30;
pub const CLASSIC_IDLE_LIMIT_S: [u32; 2] = [300, 600];
/// Classic undo allowance counts (000 §2 `undo`: off / 1 / 3 / unlimited).
pub const CLASSIC_UNDO_COUNTS: [u32; 2] = [1, 3];
/// Classic dead-stone review limit (000 §2 `scoringDeadlineSec`, §8.5).
pub const CLASSIC_SCORING_DEADLINE_S: [u32; 3] = [120, 180, 300];
/// Classic disconnection grace (000 §2 `disconnectGraceSec`, §8.5).
pub const CLASSIC_DISCONNECT_GRACE_S: [u32; 3] = [60, 120, 300];
/// Space disconnection wait: five minutes, then the match is held (003 §6.1).
pub const SPACE_DISCONNECT_WAIT_S: u32 = 300;
/// Space scoring-wait alert: 0–10,080 minutes (003 §10.1), whole minutes; on expiry the
/// administrator decides, never automatic consent (003 §10.2).
pub const SPACE_SCORING_WAIT_MAX_S: u32 = 10_080 * 60;
/// Space scoring-wait default (the seed leaves the number blank for the administrator,
/// 003 §10.1; 30 minutes is this program's choice).
pub const SPACE_SCORING_WAIT_DEFAULT_S: u32 = 30 * 60;
/// Special rules (003 §1.4): at most this many entries, each at most this many characters.
pub const MAX_SPECIAL_RULES: usize = 10;
pub const MAX_SPECIAL_RULE_CHARS: usize = 200;
/// Agreed assistants (003 §6.4): at most this many, names at most this many characters.
pub const MAX_ASSISTANTS: usize = 4;
pub const MAX_ASSISTANT_NAME_CHARS: usize = 80;
/// Longest common-rules version text accepted before the known-version check.
const MAX_VERSION_CHARS: usize = 32;

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

/// Which rule set the match is played under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// The Space rules (003): 3D boxes.
    Space,
    /// Classic baduk (000): flat 9/13/19.
    Classic,
}

impl Preset {
    pub const fn as_str(self) -> &'static str {
        match self {
            Preset::Space => "space",
            Preset::Classic => "classic",
        }
    }
    const fn name_en(self) -> &'static str {
        match self {
            Preset::Space => "Space",
            Preset::Classic => "Classic",
        }
    }
}

/// Time limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
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

/// How colours are decided (000 §2 `colorAssignment`; 003 §1.2 colours agreed beforehand —
/// agreeing to draw lots is an agreement too). With nigiri the server draws with a seeded
/// ChaCha RNG and records the seed (000 §8.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ColourAssignment {
    Nigiri,
    HostBlack,
    HostWhite,
}

/// Undo allowance per player. Every request needs the opponent's consent (003 §5.1, 000 §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum UndoAllowance {
    Off,
    /// At most `n` accepted undos per player; Classic allows n ∈ {1, 3} (000 §2).
    Limited(u32),
    Unlimited,
}

/// Who an agreed assistant is (003 §6.4: "another person or program").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum AssistantKind {
    Person,
    Program,
}

/// Whom an agreed assistant may help.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
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
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
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
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
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
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AssistanceScope {
    /// No outside help at all (the default: help without prior agreement is prohibited).
    #[serde(deserialize_with = "super::commands::no_fields")]
    None,
    /// Help from exactly the recorded assistants, each within its recorded extent.
    Agreed { assistants: Vec<Assistant> },
}

/// The complete agreement of a match (003 §1.3; 000 §2). Nothing in it changes after the start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
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
    /// Special rules agreed for this match, within what the common rules permit (003 §1.3,
    /// §1.4). Free text for the record; Classic has none (its house rules are options, 000 §7).
    pub special_rules: Vec<String>,
    pub assistance: AssistanceScope,
    /// The common-rules version the match is played under (003 §1.5).
    pub common_rules_version: String,
    /// How coordinates are named (003 §7.1). Absent in rooms stored before labels existed:
    /// numeric.
    #[serde(default)]
    pub labels: CoordLabels,
}

/// Longest custom label (characters): labels are typed into the X/Y/Z fields.
pub const MAX_LABEL_CHARS: usize = 6;

/// How coordinates are named on each axis (003 §7.1, §9.4): a built-in kind per axis
/// (numeric = the actual coordinates, English letters, Korean syllables) or a custom list
/// per axis. Labels are case-sensitive and unique per axis; they name points and never move
/// them, and they are fixed with the settings once play begins. Classic boards use vertex
/// notation (000 §3) and keep numeric labels here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum CoordLabels {
    Builtin { x: LabelKind, y: LabelKind, z: LabelKind },
    Custom { x: Vec<String>, y: Vec<String>, z: Vec<String> },
}

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
    Labels,
}

impl Field {
    pub const fn as_str(self) -> &'static str {
        match self {
            Field::Preset => "preset",
            Field::Board => "board",
            Field::KomiHalfPoints => "komi_half_points",
            Field::KomiTo => "komi_to",
            Field::CaptureBonus => "capture_bonus",
            Field::Scoring => "scoring",
            Field::Ko => "ko",
            Field::Handicap => "handicap",
            Field::Time => "time",
            Field::Colours => "colours",
            Field::Undo => "undo",
            Field::DrawOffer => "draw_offer",
            Field::AtariWarning => "atari_warning",
            Field::ScoringDeadlineS => "scoring_deadline_s",
            Field::DisconnectGraceS => "disconnect_grace_s",
            Field::SpecialRules => "special_rules",
            Field::Assistance => "assistance",
            Field::CommonRulesVersion => "common_rules_version",
            Field::Labels => "labels",
        }
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

// ---------------------------------------------------------------------------------------------
// Defaults
// ---------------------------------------------------------------------------------------------

impl MatchSettings {
    /// Space defaults: 19×19×19 axes 1..19 (003 §1.1), komi 0 to White, no bonus, 1 hour each
    /// (003 §1.2 gives the range, not a default), nigiri, undo by consent, no hints, no
    /// special rules, no assistance, the current common rules.
    pub fn space_default() -> MatchSettings {
        MatchSettings {
            preset: Preset::Space,
            board: BoxSpec::DEFAULT,
            komi_half_points: 0,
            komi_to: Color::White,
            capture_bonus: false,
            scoring: ScoringMethod::Space,
            ko: KoRule::Immediate,
            handicap: 0,
            time: TimeControl::SpaceHours { black: 1, white: 1 },
            colours: ColourAssignment::Nigiri,
            undo: UndoAllowance::Unlimited,
            draw_offer: false,
            atari_warning: false,
            scoring_deadline_s: SPACE_SCORING_WAIT_DEFAULT_S,
            disconnect_grace_s: SPACE_DISCONNECT_WAIT_S,
            special_rules: Vec::new(),
            assistance: AssistanceScope::None,
            common_rules_version: CURRENT_COMMON_RULES_VERSION.to_string(),
            labels: CoordLabels::default(),
        }
    }

    /// Classic defaults for a `size`×`size` board (000 §2): territory, komi 6.5 to White,
    /// positional superko, no handicap, byo-yomi with the size's main time and 3 × 30 s,
    /// nigiri, undo 3, draw offers and atari warnings on, scoring deadline 180 s, disconnection
    /// grace 120 s. A size other than 9/13/19 yields settings that `validate` refuses.
    pub fn classic_default(size: u16) -> MatchSettings {
        let n = i64::from(size);
        MatchSettings {
            preset: Preset::Classic,
            board: BoxSpec { x: Axis::one_to(n), y: Axis::one_to(n), z: Axis::one_to(1) },
            komi_half_points: classic_default_komi_half_points(ScoringMethod::Territory, 0),
            komi_to: Color::White,
            capture_bonus: false,
            scoring: ScoringMethod::Territory,
            ko: KoRule::PositionalSuperko,
            handicap: 0,
            time: TimeControl::classic_default_byoyomi(size),
            colours: ColourAssignment::Nigiri,
            undo: UndoAllowance::Limited(3),
            draw_offer: true,
            atari_warning: true,
            scoring_deadline_s: 180,
            disconnect_grace_s: 120,
            special_rules: Vec::new(),
            assistance: AssistanceScope::None,
            common_rules_version: CURRENT_COMMON_RULES_VERSION.to_string(),
            labels: CoordLabels::default(),
        }
    }
}

/// The Classic default komi in half points (000 §2, §4 step 4): handicap games 0.5, even games
/// 6.5 with territory and 7.5 with area scoring.
pub const fn classic_default_komi_half_points(scoring: ScoringMethod, handicap: u32) -> i32 {
    if handicap >= 2 {
        1
    } else {
        match scoring {
            ScoringMethod::Area => 15,
            _ => 13,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

/// Collects problems.
struct Problems(Vec<SettingProblem>);

impl Problems {
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        field: Field,
        path: impl Into<String>,
        value: impl fmt::Display,
        kind: ProblemKind,
        allowed: impl Into<String>,
        clause: &str,
    ) {
        self.0.push(SettingProblem {
            field,
            path: path.into(),
            value: value.to_string(),
            kind,
            allowed: allowed.into(),
            clause: clause.to_string(),
        });
    }
    fn range(
        &mut self,
        field: Field,
        path: impl Into<String>,
        value: impl fmt::Display,
        allowed: impl Into<String>,
        clause: &str,
    ) {
        self.push(field, path, value, ProblemKind::OutOfRange, allowed, clause);
    }
    fn not_allowed(
        &mut self,
        field: Field,
        path: impl Into<String>,
        value: impl fmt::Display,
        allowed: impl Into<String>,
        clause: &str,
    ) {
        self.push(field, path, value, ProblemKind::NotAllowed, allowed, clause);
    }
}

/// Half points as people read them: `13` → `6.5`, `-2` → `-1`, `0` → `0`.
pub fn format_half_points(half: i64) -> String {
    let sign = if half < 0 { "-" } else { "" };
    let a = half.unsigned_abs();
    if a.is_multiple_of(2) {
        format!("{sign}{}", a / 2)
    } else {
        format!("{sign}{}.5", a / 2)
    }
}

/// A text value for a message: quoted, control characters escaped, long texts shortened.
fn show_text(s: &str) -> String {
    const SHOW: usize = 40;
    let n = s.chars().count();
    if n > SHOW {
        let head: String = s.chars().take(SHOW).collect();
        format!("{head:?}… ({n} characters)")
    } else {
        format!("{s:?}")
    }
}

/// Length of an axis without overflow (raw input may hold any i64).
fn axis_len(a: Axis) -> i128 {
    i128::from(a.end) - i128::from(a.start) + 1
}

fn describe_box(b: &BoxSpec) -> String {
    format!(
        "{}×{}×{} (x {}..{}, y {}..{}, z {}..{})",
        axis_len(b.x),
        axis_len(b.y),
        axis_len(b.z),
        b.x.start,
        b.x.end,
        b.y.start,
        b.y.end,
        b.z.start,
        b.z.end
    )
}

/// The Classic size of a canonical flat board (axes 1..n, 1..n, 1..1 with n ∈ {9, 13, 19}).
fn classic_size(b: &BoxSpec) -> Option<u16> {
    CLASSIC_SIZES.into_iter().find(|&n| {
        let a = Axis::one_to(i64::from(n));
        b.x == a && b.y == a && b.z == Axis::one_to(1)
    })
}

const fn ko_str(k: KoRule) -> &'static str {
    match k {
        KoRule::Immediate => "immediate",
        KoRule::PositionalSuperko => "positional_superko",
        KoRule::Korean => "korean",
    }
}

const fn scoring_str(s: ScoringMethod) -> &'static str {
    match s {
        ScoringMethod::Area => "area",
        ScoringMethod::Territory => "territory",
        ScoringMethod::Space => "space",
    }
}

const fn colour_str(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

const fn colours_str(c: ColourAssignment) -> &'static str {
    match c {
        ColourAssignment::Nigiri => "nigiri",
        ColourAssignment::HostBlack => "host_black",
        ColourAssignment::HostWhite => "host_white",
    }
}

fn undo_str(u: UndoAllowance) -> String {
    match u {
        UndoAllowance::Off => "off".to_string(),
        UndoAllowance::Limited(n) => format!("limited({n})"),
        UndoAllowance::Unlimited => "unlimited".to_string(),
    }
}

fn list(values: &[u32]) -> String {
    let parts: Vec<String> = values.iter().map(u32::to_string).collect();
    match parts.len() {
        0 => String::new(),
        1 => parts[0].clone(),
        n => format!("{} or {}", parts[..n - 1].join(", "), parts[n - 1]),
    }
}

/// A free-text entry: trimmed, non-empty, at most `max` characters, no control characters.
fn check_text(p: &mut Problems, field: Field, path: String, s: &str, max: usize, clause: &str) {
    if s.trim().is_empty() {
        p.not_allowed(field, path, show_text(s), "non-empty text", clause);
        return;
    }
    if s.trim() != s {
        p.not_allowed(field, path.clone(), show_text(s), "text without leading or trailing spaces", clause);
    }
    let n = s.chars().count();
    if n > max {
        p.range(field, path.clone(), format!("a text of {n} characters"), format!("1 to {max} characters"), clause);
    }
    if s.chars().any(char::is_control) {
        p.not_allowed(field, path, show_text(s), "text without control characters (line breaks, tabs)", clause);
    }
}

impl MatchSettings {
    /// Checks every setting against its preset and returns all problems found.
    /// Never panics, whatever the values.
    pub fn validate(&self) -> Result<(), SettingsError> {
        let mut p = Problems(Vec::new());
        self.check_board(&mut p);
        self.check_komi(&mut p);
        self.check_scoring_and_ko(&mut p);
        self.check_handicap_and_colours(&mut p);
        self.check_time(&mut p);
        self.check_undo_draw(&mut p);
        self.check_deadlines(&mut p);
        self.check_special_rules(&mut p);
        self.check_assistance(&mut p);
        self.check_version(&mut p);
        self.check_labels(&mut p);
        if p.0.is_empty() {
            Ok(())
        } else {
            Err(SettingsError { problems: p.0 })
        }
    }

    fn check_board(&self, p: &mut Problems) {
        match self.preset {
            Preset::Space => {
                // 003 §1.1 / §9.3: each axis integer endpoints within ±1,000,000, start ≤ end,
                // odd length 1..=25; unequal lengths allowed. The engine is the authority: each
                // axis is checked on its own so that every bad axis is reported.
                let one = Axis::one_to(1);
                for (name, axis) in [("x", self.board.x), ("y", self.board.y), ("z", self.board.z)] {
                    let path = format!("board.{name}");
                    match Geometry::new(axis, one, one) {
                        Ok(_) => {}
                        Err(GeometryError::EndpointOutOfRange { value, .. }) => p.range(
                            Field::Board,
                            path,
                            format!("endpoint {value}"),
                            "endpoints from -1000000 to 1000000",
                            "003 §1.1",
                        ),
                        Err(GeometryError::StartAfterEnd { start, end, .. }) => p.not_allowed(
                            Field::Board,
                            path,
                            format!("start {start} after end {end}"),
                            "start ≤ end",
                            "003 §1.1",
                        ),
                        Err(GeometryError::BadLength { start, end, length, .. }) => p.not_allowed(
                            Field::Board,
                            path,
                            format!("length {length} ({start}..{end})"),
                            "odd lengths 1 to 25",
                            "003 §1.1",
                        ),
                    }
                }
            }
            Preset::Classic => {
                // 000 §2 boardSize 9 / 13 / 19: flat boards with the standard axes.
                if classic_size(&self.board).is_none() {
                    p.not_allowed(
                        Field::Board,
                        "board",
                        describe_box(&self.board),
                        "9×9, 13×13 or 19×19 flat boards (axes 1..n, depth 1) for the Classic preset",
                        "000 §2",
                    );
                }
            }
        }
    }

    fn check_komi(&self, p: &mut Problems) {
        let k = self.komi_half_points;
        let shown = format_half_points(i64::from(k));
        match self.preset {
            Preset::Space => {
                // 003 §4.3: zero or a positive multiple of 0.5, to an agreed recipient.
                if !(0..=SPACE_KOMI_MAX_HALF).contains(&k) {
                    p.range(
                        Field::KomiHalfPoints,
                        "komi",
                        shown,
                        format!("0 to {} in steps of 0.5 for the Space preset", Komi::MAX_POINTS),
                        "003 §4.3",
                    );
                }
                // Either colour may receive komi (003 §4.3).
            }
            Preset::Classic => {
                // 000 §2: −10 to 10 in steps of 0.5, added to White.
                if !(CLASSIC_KOMI_MIN_HALF..=CLASSIC_KOMI_MAX_HALF).contains(&k) {
                    p.range(
                        Field::KomiHalfPoints,
                        "komi",
                        shown,
                        "-10 to 10 in steps of 0.5 for the Classic preset",
                        "000 §2",
                    );
                }
                if self.komi_to != Color::White {
                    p.not_allowed(
                        Field::KomiTo,
                        "komi_to",
                        colour_str(self.komi_to),
                        "white for the Classic preset (komi is added to White; a negative komi favours Black)",
                        "000 §2",
                    );
                }
            }
        }
    }

    fn check_scoring_and_ko(&self, p: &mut Problems) {
        match self.preset {
            Preset::Space => {
                if self.scoring != ScoringMethod::Space {
                    p.not_allowed(
                        Field::Scoring,
                        "scoring",
                        scoring_str(self.scoring),
                        "space for the Space preset",
                        "003 §4.1",
                    );
                }
                if self.ko != KoRule::Immediate {
                    p.not_allowed(Field::Ko, "ko", ko_str(self.ko), "immediate for the Space preset", "003 §2.3");
                }
                // capture_bonus: either value (003 §1.3, §4.1).
            }
            Preset::Classic => {
                if !matches!(self.scoring, ScoringMethod::Territory | ScoringMethod::Area) {
                    p.not_allowed(
                        Field::Scoring,
                        "scoring",
                        scoring_str(self.scoring),
                        "territory or area for the Classic preset",
                        "000 §2",
                    );
                }
                if !matches!(self.ko, KoRule::PositionalSuperko | KoRule::Korean) {
                    p.not_allowed(
                        Field::Ko,
                        "ko",
                        ko_str(self.ko),
                        "positional_superko or korean for the Classic preset",
                        "000 §2",
                    );
                }
                // 000 §6.2 territory counts prisoners anyway, §6.3 area ignores them; 000 has no
                // bonus option.
                if self.capture_bonus {
                    p.not_allowed(
                        Field::CaptureBonus,
                        "capture_bonus",
                        "true",
                        "false for the Classic preset (territory counts prisoners, area does not)",
                        "000 §2",
                    );
                }
            }
        }
    }

    fn check_handicap_and_colours(&self, p: &mut Problems) {
        let h = self.handicap;
        match self.preset {
            Preset::Space => {
                // 003 has no handicap stones; Black plays first on an empty board (003 §1.2).
                if h != 0 {
                    p.range(Field::Handicap, "handicap", h, "0 for the Space preset", "003 §1.2");
                }
            }
            Preset::Classic => {
                // 000 §2: 0, 2..=9 (9×9: 0, 2..=5).
                let nine = classic_size(&self.board) == Some(9);
                let max = if nine { 5 } else { 9 };
                if h == 1 || h > max {
                    let allowed = if nine { "0 or 2 to 5 on 9×9" } else { "0 or 2 to 9" };
                    p.range(Field::Handicap, "handicap", h, allowed, "000 §2");
                }
                // 000 §2 colorAssignment / §4 step 1: in a handicap game the host decides who
                // takes Black (the weaker player), so no nigiri.
                if h >= 2 && self.colours == ColourAssignment::Nigiri {
                    p.not_allowed(
                        Field::Colours,
                        "colours",
                        colours_str(self.colours),
                        "host_black or host_white in a handicap game",
                        "000 §2",
                    );
                }
            }
        }
    }

    fn check_time(&self, p: &mut Problems) {
        match (self.preset, self.time) {
            (Preset::Space, TimeControl::SpaceHours { black, white }) => {
                // 003 §1.2: 1–5 whole hours each, may differ.
                for (name, v) in [("black", black), ("white", white)] {
                    if !(SPACE_HOURS_MIN..=SPACE_HOURS_MAX).contains(&v) {
                        p.range(Field::Time, format!("time.{name}"), v, "1 to 5 whole hours", "003 §1.2");
                    }
                }
            }
            (Preset::Space, t) => p.not_allowed(
                Field::Time,
                "time.kind",
                t.kind_str(),
                "space_hours for the Space preset (1 to 5 whole hours each, no byo-yomi)",
                "003 §1.2",
            ),
            (Preset::Classic, TimeControl::SpaceHours { .. }) => p.not_allowed(
                Field::Time,
                "time.kind",
                "space_hours",
                "none, byoyomi or fischer for the Classic preset",
                "000 §2",
            ),
            (Preset::Classic, TimeControl::None { idle_limit_s }) => {
                if !CLASSIC_IDLE_LIMIT_S.contains(&idle_limit_s) {
                    p.not_allowed(
                        Field::Time,
                        "time.idle_limit_s",
                        idle_limit_s,
                        list(&CLASSIC_IDLE_LIMIT_S),
                        "000 §2",
                    );
                }
            }
            (Preset::Classic, TimeControl::Byoyomi { main_s, period_s, periods }) => {
                if main_s > CLASSIC_MAIN_MAX_S {
                    p.range(Field::Time, "time.main_s", main_s, "0 to 3600 seconds", "000 §2");
                }
                if !CLASSIC_PERIOD_S.contains(&period_s) {
                    p.not_allowed(Field::Time, "time.period_s", period_s, list(&CLASSIC_PERIOD_S), "000 §2");
                }
                if !(CLASSIC_PERIODS_MIN..=CLASSIC_PERIODS_MAX).contains(&periods) {
                    p.range(Field::Time, "time.periods", periods, "1 to 5", "000 §2");
                }
            }
            (Preset::Classic, TimeControl::Fischer { main_s, increment_s }) => {
                if main_s > CLASSIC_MAIN_MAX_S {
                    p.range(Field::Time, "time.main_s", main_s, "0 to 3600 seconds", "000 §2");
                } else if main_s == 0 {
                    // 000 §8.5: the Fischer deadline is the remaining main time; with 0 the
                    // first player loses on time before any move (the increment comes after).
                    p.not_allowed(
                        Field::Time,
                        "time.main_s",
                        0,
                        "1 to 3600 seconds with fischer (the increment is added only after a move)",
                        "000 §8.5",
                    );
                }
                if increment_s > CLASSIC_INCREMENT_MAX_S {
                    p.range(Field::Time, "time.increment_s", increment_s, "0 to 30 seconds", "000 §2");
                }
            }
        }
    }

    fn check_undo_draw(&self, p: &mut Problems) {
        match self.preset {
            Preset::Space => {
                // 003 §5.1: either player may request undo of the last stone move; the opponent
                // consents. No allowance is agreed.
                if self.undo != UndoAllowance::Unlimited {
                    p.not_allowed(
                        Field::Undo,
                        "undo",
                        undo_str(self.undo),
                        "unlimited for the Space preset (every request needs the opponent's consent)",
                        "003 §5.1",
                    );
                }
                // 003 has no draw by agreement: a draw only from equal totals (003 §4.1).
                if self.draw_offer {
                    p.not_allowed(Field::DrawOffer, "draw_offer", "true", "false for the Space preset", "003 §4.1");
                }
            }
            Preset::Classic => {
                // 000 §2 undo: off / 1 / 3 / unlimited per player.
                if let UndoAllowance::Limited(n) = self.undo {
                    if !CLASSIC_UNDO_COUNTS.contains(&n) {
                        p.not_allowed(Field::Undo, "undo.limited", n, "1 or 3 (or undo off / unlimited)", "000 §2");
                    }
                }
            }
        }
    }

    fn check_deadlines(&self, p: &mut Problems) {
        let sd = self.scoring_deadline_s;
        let dg = self.disconnect_grace_s;
        match self.preset {
            Preset::Space => {
                if sd > SPACE_SCORING_WAIT_MAX_S {
                    p.range(
                        Field::ScoringDeadlineS,
                        "scoring_deadline_s",
                        sd,
                        "0 to 604800 seconds (0 to 10080 minutes) for the Space preset",
                        "003 §10.1",
                    );
                } else if !sd.is_multiple_of(60) {
                    p.not_allowed(
                        Field::ScoringDeadlineS,
                        "scoring_deadline_s",
                        sd,
                        "whole minutes (multiples of 60 seconds) for the Space preset",
                        "003 §10.1",
                    );
                }
                if dg != SPACE_DISCONNECT_WAIT_S {
                    p.not_allowed(
                        Field::DisconnectGraceS,
                        "disconnect_grace_s",
                        dg,
                        "300 for the Space preset (five minutes, then the administrator decides)",
                        "003 §6.1",
                    );
                }
            }
            Preset::Classic => {
                if !CLASSIC_SCORING_DEADLINE_S.contains(&sd) {
                    p.not_allowed(
                        Field::ScoringDeadlineS,
                        "scoring_deadline_s",
                        sd,
                        list(&CLASSIC_SCORING_DEADLINE_S),
                        "000 §2",
                    );
                }
                if !CLASSIC_DISCONNECT_GRACE_S.contains(&dg) {
                    p.not_allowed(
                        Field::DisconnectGraceS,
                        "disconnect_grace_s",
                        dg,
                        list(&CLASSIC_DISCONNECT_GRACE_S),
                        "000 §2",
                    );
                }
            }
        }
    }

    fn check_special_rules(&self, p: &mut Problems) {
        let rules = &self.special_rules;
        if self.preset == Preset::Classic {
            // 000 §7: Classic's house rules are the options themselves.
            if !rules.is_empty() {
                p.not_allowed(
                    Field::SpecialRules,
                    "special_rules",
                    format!("{} entries", rules.len()),
                    "none for the Classic preset (house rules are options)",
                    "000 §7",
                );
            }
            return;
        }
        // 003 §1.4: special rules only within what the common rules permit; recorded as
        // bounded, tidy text (their content is checked by the players and the administrator).
        if rules.len() > MAX_SPECIAL_RULES {
            p.range(
                Field::SpecialRules,
                "special_rules",
                format!("{} entries", rules.len()),
                format!("0 to {MAX_SPECIAL_RULES} entries"),
                "003 §1.4",
            );
        }
        for (i, r) in rules.iter().enumerate().take(MAX_SPECIAL_RULES + 1) {
            check_text(p, Field::SpecialRules, format!("special_rules[{i}]"), r, MAX_SPECIAL_RULE_CHARS, "003 §1.4");
            if rules[..i].iter().any(|earlier| earlier.trim() == r.trim()) && !r.trim().is_empty() {
                p.not_allowed(
                    Field::SpecialRules,
                    format!("special_rules[{i}]"),
                    show_text(r),
                    "each rule once",
                    "003 §1.4",
                );
            }
        }
    }

    fn check_assistance(&self, p: &mut Problems) {
        let AssistanceScope::Agreed { assistants } = &self.assistance else {
            return;
        };
        // 003 §6.4: agreed help records who may assist and within what scope.
        if assistants.is_empty() {
            p.not_allowed(
                Field::Assistance,
                "assistance.assistants",
                "an empty list",
                "1 to 4 named assistants (or kind none)",
                "003 §6.4",
            );
        }
        if assistants.len() > MAX_ASSISTANTS {
            p.range(
                Field::Assistance,
                "assistance.assistants",
                format!("{} entries", assistants.len()),
                format!("1 to {MAX_ASSISTANTS} assistants"),
                "003 §6.4",
            );
        }
        for (i, a) in assistants.iter().enumerate().take(MAX_ASSISTANTS + 1) {
            let path = format!("assistance.assistants[{i}].name");
            check_text(p, Field::Assistance, path.clone(), &a.name, MAX_ASSISTANT_NAME_CHARS, "003 §6.4");
            if !a.name.trim().is_empty() && assistants[..i].iter().any(|b| b.name.trim() == a.name.trim()) {
                p.not_allowed(Field::Assistance, path, show_text(&a.name), "each assistant once", "003 §6.4");
            }
        }
    }

    fn check_labels(&self, p: &mut Problems) {
        if self.preset == Preset::Classic {
            // 000 §3: columns A–T without I and rows from the bottom.
            if !self.labels.is_numeric() {
                p.not_allowed(
                    Field::Labels,
                    "labels",
                    "non-numeric labels",
                    "numeric (Classic boards use vertices)",
                    "000 §3",
                );
            }
            return;
        }
        let CoordLabels::Custom { x, y, z } = &self.labels else { return };
        for (name, list) in [("x", x), ("y", y), ("z", z)] {
            for (i, l) in list.iter().enumerate() {
                let n = l.chars().count();
                if n > MAX_LABEL_CHARS || l.chars().any(char::is_control) {
                    p.range(
                        Field::Labels,
                        format!("labels.{name}[{i}]"),
                        show_text(l),
                        format!("1 to {MAX_LABEL_CHARS} characters without control characters"),
                        "003 §7.1",
                    );
                }
            }
        }
        // The engine checks count, uniqueness and form; a bad box is reported by check_board.
        if let Ok(g) = Geometry::from_spec(self.board) {
            if let Err(e) = self.labels.label_set(&g) {
                let (axis, value) = match &e {
                    LabelError::WrongCount { axis, given, .. } => (*axis, format!("{given} labels")),
                    LabelError::Duplicate { axis, label } | LabelError::Malformed { axis, label } => {
                        (*axis, show_text(label))
                    }
                };
                let path = format!("labels.{}", axis.to_string().to_lowercase());
                p.not_allowed(Field::Labels, path, value, e.to_string(), "003 §7.1, §9.4");
            }
        }
    }

    fn check_version(&self, p: &mut Problems) {
        // 003 §1.5: the match keeps the common-rules version it started with; it must be one
        // this program can interpret.
        let v = &self.common_rules_version;
        if !KNOWN_COMMON_RULES_VERSIONS.contains(&v.as_str()) {
            let shown = if v.chars().count() > MAX_VERSION_CHARS { show_text(v) } else { format!("{v:?}") };
            p.not_allowed(
                Field::CommonRulesVersion,
                "common_rules_version",
                shown,
                KNOWN_COMMON_RULES_VERSIONS.join(", "),
                "003 §1.5",
            );
        }
    }

    /// Trims special rules and assistant names and drops empty special rules — what a form
    /// should do before `validate`. Nothing else changes.
    pub fn normalized(mut self) -> MatchSettings {
        self.special_rules =
            self.special_rules.iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
        if let AssistanceScope::Agreed { assistants } = &mut self.assistance {
            for a in assistants {
                a.name = a.name.trim().to_string();
            }
        }
        self
    }

    // -----------------------------------------------------------------------------------------
    // Engine types
    // -----------------------------------------------------------------------------------------

    /// Komi as the engine sees it: a non-negative value and its recipient. A negative Classic
    /// komi (White −k) becomes k for Black. Values are clamped only for invalid settings.
    pub fn effective_komi(&self) -> (u32, Color) {
        let k = i64::from(self.komi_half_points);
        let to = if k < 0 { self.komi_to.opponent() } else { self.komi_to };
        (u32::try_from(k.unsigned_abs()).unwrap_or(u32::MAX), to)
    }

    /// The engine rules for this match, after a full [`validate`](Self::validate).
    /// Space: immediate repetition, Space formula, the agreed bonus and komi/recipient.
    /// Classic: the chosen ko rule and scoring, no bonus, komi to White (negative → Black),
    /// handicap.
    pub fn engine_rules(&self) -> Result<Rules, SettingsError> {
        self.validate()?;
        let (half, komi_to) = self.effective_komi();
        let komi = Komi::from_half_points(half).map_err(|e| SettingsError {
            problems: vec![SettingProblem {
                field: Field::KomiHalfPoints,
                path: "komi".into(),
                value: format_half_points(i64::from(self.komi_half_points)),
                kind: ProblemKind::OutOfRange,
                allowed: e.to_string(),
                clause: "003 §4.3".into(),
            }],
        })?;
        Ok(match self.preset {
            Preset::Space => Rules {
                ko: KoRule::Immediate,
                scoring: ScoringMethod::Space,
                capture_bonus: self.capture_bonus,
                komi,
                komi_to,
                handicap: 0,
            },
            Preset::Classic => Rules {
                ko: self.ko,
                scoring: self.scoring,
                capture_bonus: false,
                komi,
                komi_to,
                // Validated: 0..=9.
                handicap: u8::try_from(self.handicap).unwrap_or(0),
            },
        })
    }

    /// The validated board of this match, after a full [`validate`](Self::validate).
    pub fn geometry(&self) -> Result<Geometry, SettingsError> {
        self.validate()?;
        Geometry::from_spec(self.board).map_err(|e| SettingsError {
            problems: vec![SettingProblem {
                field: Field::Board,
                path: "board".into(),
                value: describe_box(&self.board),
                kind: ProblemKind::NotAllowed,
                allowed: e.to_string(),
                clause: "003 §1.1".into(),
            }],
        })
    }

    // -----------------------------------------------------------------------------------------
    // Summaries for the agreement screen
    // -----------------------------------------------------------------------------------------

    /// The labels of each axis, first to last, when they are not the plain numbers.
    fn labels_summary(&self) -> Option<String> {
        if self.labels.is_numeric() {
            return None;
        }
        let g = Geometry::from_spec(self.board).ok()?;
        let set = self.labels.label_set(&g).ok()?;
        let axis = |a: engine::AxisName| {
            let l = set.axis(a);
            format!(
                "{} {}…{}",
                a.as_str().to_uppercase(),
                l.first().map_or("", String::as_str),
                l.last().map_or("", String::as_str)
            )
        };
        Some([engine::AxisName::X, engine::AxisName::Y, engine::AxisName::Z].map(axis).join(", "))
    }

    /// The agreement in Korean, one line per item (e.g. `덤 6.5 (백)`).
    pub fn summary_ko(&self) -> Vec<String> {
        let mut l = Vec::new();
        let preset = match self.preset {
            Preset::Space => "공간 바둑",
            Preset::Classic => "일반 바둑",
        };
        l.push(format!("규칙: {preset} (공통 규칙 {})", self.common_rules_version));
        l.push(match (self.preset, classic_size(&self.board)) {
            (Preset::Classic, Some(n)) => format!("판: {n}줄 ({n}×{n})"),
            _ => format!("판: {}", describe_box(&self.board)),
        });
        if let Some(names) = self.labels_summary() {
            l.push(format!("좌표 표기 (대소문자 구분): {names}"));
        }
        let (half, to) = self.effective_komi();
        l.push(if half == 0 {
            "덤 없음".to_string()
        } else {
            format!("덤 {} ({})", format_half_points(i64::from(half)), to.korean())
        });
        l.push(match self.preset {
            Preset::Space => format!(
                "계가: 공간 바둑 공식 (돌 + 영역), 따낸 돌·사석 가산 {}",
                if self.capture_bonus { "있음 (한 돌당 1점)" } else { "없음" }
            ),
            Preset::Classic => match self.scoring {
                ScoringMethod::Area => "계가: 영역 계산 (중국식)".to_string(),
                _ => "계가: 집 계산 (한국·일본식)".to_string(),
            },
        });
        l.push(match self.ko {
            KoRule::Immediate => "반복 금지: 직전 배치 반복 금지".to_string(),
            KoRule::PositionalSuperko => "패: 동형 반복 금지".to_string(),
            KoRule::Korean => "패: 한국식 (단순 패, 같은 국면 세 번째에 무승부)".to_string(),
        });
        if self.handicap > 0 {
            l.push(format!("치석 {}점 (백이 먼저 둠)", self.handicap));
        }
        l.push(match self.time {
            TimeControl::SpaceHours { black, white } => {
                format!("시간: 흑 {black}시간, 백 {white}시간 (초읽기 없음)")
            }
            TimeControl::None { idle_limit_s } => {
                format!("시간: 제한 없음 (무응답 한도 {})", dur_ko(idle_limit_s))
            }
            TimeControl::Byoyomi { main_s, period_s, periods } => {
                format!("시간: 기본 {} + 초읽기 {} {periods}회", dur_ko(main_s), dur_ko(period_s))
            }
            TimeControl::Fischer { main_s, increment_s } => {
                format!("시간: 기본 {} + 한 수당 {} (피셔)", dur_ko(main_s), dur_ko(increment_s))
            }
        });
        l.push(
            match self.colours {
                ColourAssignment::Nigiri => "흑백: 돌 가리기 (무작위)",
                ColourAssignment::HostBlack => "흑백: 방장이 흑",
                ColourAssignment::HostWhite => "흑백: 방장이 백",
            }
            .to_string(),
        );
        l.push(match (self.preset, self.undo) {
            (Preset::Space, _) => "무르기: 마지막 돌 착수 한 수, 상대 동의 시".to_string(),
            (_, UndoAllowance::Off) => "무르기: 없음".to_string(),
            (_, UndoAllowance::Limited(n)) => format!("무르기: 1인당 {n}회 (상대 동의)"),
            (_, UndoAllowance::Unlimited) => "무르기: 무제한 (상대 동의)".to_string(),
        });
        if self.preset == Preset::Classic {
            l.push(format!("무승부 제안: {}", if self.draw_offer { "허용" } else { "없음" }));
        }
        l.push(format!("단수 경고: {}", if self.atari_warning { "켬" } else { "끔" }));
        l.push(match self.preset {
            Preset::Space => format!("계가 대기 알림: {} (지나면 관리자 판단)", dur_ko(self.scoring_deadline_s)),
            Preset::Classic => format!("사석 확인 제한: {} (지나면 현재 표시에 동의)", dur_ko(self.scoring_deadline_s)),
        });
        l.push(match self.preset {
            Preset::Space => format!("연결 끊김: {} 대기 후 관리자 판단", dur_ko(self.disconnect_grace_s)),
            Preset::Classic => format!("연결 끊김 유예: {} (지나면 시간패)", dur_ko(self.disconnect_grace_s)),
        });
        if self.special_rules.is_empty() {
            l.push("특별 규칙: 없음".to_string());
        } else {
            for r in &self.special_rules {
                l.push(format!("특별 규칙: {r}"));
            }
        }
        match &self.assistance {
            AssistanceScope::None => l.push("외부 도움: 없음 (관전자 훈수 금지)".to_string()),
            AssistanceScope::Agreed { assistants } => {
                for a in assistants {
                    let kind = match a.kind {
                        AssistantKind::Person => "사람",
                        AssistantKind::Program => "프로그램",
                    };
                    let helps = match a.helps {
                        AssistedPlayer::Host => "방장",
                        AssistedPlayer::Guest => "참가자",
                        AssistedPlayer::Both => "양측",
                    };
                    let extent = match a.extent {
                        AssistanceExtent::RulesAndControls => "규칙·조작 설명만",
                        AssistanceExtent::ScoringReview => "계가 검토만",
                        AssistanceExtent::FullAdvice => "수에 대한 조언",
                    };
                    l.push(format!("외부 도움: {} ({kind}, {helps}, {extent})", a.name));
                }
            }
        }
        l
    }

    /// The agreement in English, one line per item (e.g. `Komi 6.5 to White`).
    pub fn summary_en(&self) -> Vec<String> {
        let mut l = Vec::new();
        l.push(format!("Rules: {} (common rules {})", self.preset.name_en(), self.common_rules_version));
        l.push(match (self.preset, classic_size(&self.board)) {
            (Preset::Classic, Some(n)) => format!("Board: {n}×{n}"),
            _ => format!("Board: {}", describe_box(&self.board)),
        });
        if let Some(names) = self.labels_summary() {
            l.push(format!("Coordinate labels (case-sensitive): {names}"));
        }
        let (half, to) = self.effective_komi();
        l.push(if half == 0 {
            "No komi".to_string()
        } else {
            format!("Komi {} to {}", format_half_points(i64::from(half)), to.english())
        });
        l.push(match self.preset {
            Preset::Space => format!(
                "Scoring: Space formula (stones + territory), capture and dead-stone bonus {}",
                if self.capture_bonus { "on (1 point per stone)" } else { "off" }
            ),
            Preset::Classic => match self.scoring {
                ScoringMethod::Area => "Scoring: area (Chinese)".to_string(),
                _ => "Scoring: territory (Korean/Japanese)".to_string(),
            },
        });
        l.push(match self.ko {
            KoRule::Immediate => "Repetition: the immediately preceding arrangement may not recur".to_string(),
            KoRule::PositionalSuperko => "Ko: positional superko".to_string(),
            KoRule::Korean => "Ko: Korean (simple ko; third repetition of a position is a draw)".to_string(),
        });
        if self.handicap > 0 {
            l.push(format!("Handicap {} stones (White moves first)", self.handicap));
        }
        l.push(match self.time {
            TimeControl::SpaceHours { black, white } => {
                format!("Time: Black {black} h, White {white} h (no byo-yomi)")
            }
            TimeControl::None { idle_limit_s } => {
                format!("Time: no limit (idle limit {})", dur_en(idle_limit_s))
            }
            TimeControl::Byoyomi { main_s, period_s, periods } => {
                format!("Time: {} + byo-yomi {periods} × {}", dur_en(main_s), dur_en(period_s))
            }
            TimeControl::Fischer { main_s, increment_s } => {
                format!("Time: {} + {} per move (Fischer)", dur_en(main_s), dur_en(increment_s))
            }
        });
        l.push(
            match self.colours {
                ColourAssignment::Nigiri => "Colours: nigiri (drawn at random)",
                ColourAssignment::HostBlack => "Colours: host plays Black",
                ColourAssignment::HostWhite => "Colours: host plays White",
            }
            .to_string(),
        );
        l.push(match (self.preset, self.undo) {
            (Preset::Space, _) => "Undo: the last stone move, if the opponent consents".to_string(),
            (_, UndoAllowance::Off) => "Undo: off".to_string(),
            (_, UndoAllowance::Limited(n)) => format!("Undo: {n} per player (opponent consents)"),
            (_, UndoAllowance::Unlimited) => "Undo: unlimited (opponent consents)".to_string(),
        });
        if self.preset == Preset::Classic {
            l.push(format!("Draw offers: {}", if self.draw_offer { "allowed" } else { "off" }));
        }
        l.push(format!("Atari warning: {}", if self.atari_warning { "on" } else { "off" }));
        l.push(match self.preset {
            Preset::Space => {
                format!("Scoring wait alert: {} (then the administrator decides)", dur_en(self.scoring_deadline_s))
            }
            Preset::Classic => format!(
                "Dead-stone review limit: {} (then the current marks are agreed)",
                dur_en(self.scoring_deadline_s)
            ),
        });
        l.push(match self.preset {
            Preset::Space => {
                format!("Disconnection: {} wait, then the administrator decides", dur_en(self.disconnect_grace_s))
            }
            Preset::Classic => format!("Disconnection grace: {} (then loss on time)", dur_en(self.disconnect_grace_s)),
        });
        if self.special_rules.is_empty() {
            l.push("Special rules: none".to_string());
        } else {
            for r in &self.special_rules {
                l.push(format!("Special rule: {r}"));
            }
        }
        match &self.assistance {
            AssistanceScope::None => l.push("Outside assistance: none (no advice from spectators)".to_string()),
            AssistanceScope::Agreed { assistants } => {
                for a in assistants {
                    let kind = match a.kind {
                        AssistantKind::Person => "person",
                        AssistantKind::Program => "program",
                    };
                    let helps = match a.helps {
                        AssistedPlayer::Host => "helps the host",
                        AssistedPlayer::Guest => "helps the guest",
                        AssistedPlayer::Both => "helps both players",
                    };
                    let extent = match a.extent {
                        AssistanceExtent::RulesAndControls => "rules and controls only",
                        AssistanceExtent::ScoringReview => "scoring review only",
                        AssistanceExtent::FullAdvice => "advice on moves",
                    };
                    l.push(format!("Outside assistance: {} ({kind}, {helps}, {extent})", a.name));
                }
            }
        }
        l
    }
}

/// `1200` → `20분`, `90` → `1분 30초`, `3600` → `1시간`, `45` → `45초`.
fn dur_ko(s: u32) -> String {
    let (h, m, sec) = (s / 3600, (s % 3600) / 60, s % 60);
    let mut parts = Vec::new();
    if h > 0 {
        parts.push(format!("{h}시간"));
    }
    if m > 0 {
        parts.push(format!("{m}분"));
    }
    if sec > 0 || parts.is_empty() {
        parts.push(format!("{sec}초"));
    }
    parts.join(" ")
}

/// `1200` → `20 min`, `90` → `1 min 30 s`, `3600` → `1 h`, `45` → `45 s`.
fn dur_en(s: u32) -> String {
    let (h, m, sec) = (s / 3600, (s % 3600) / 60, s % 60);
    let mut parts = Vec::new();
    if h > 0 {
        parts.push(format!("{h} h"));
    }
    if m > 0 {
        parts.push(format!("{m} min"));
    }
    if sec > 0 || parts.is_empty() {
        parts.push(format!("{sec} s"));
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests;
