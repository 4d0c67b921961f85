//! The validated form of [`MatchSettings`]: one type per preset, as a chess library validates
//! a setup into a position. [`MatchSettings`] stays the wire and storage form (the stored
//! event log and the room view carry it unchanged); [`MatchSettings::validate`] is the only
//! way to a [`MatchRules`], and [`MatchRules::settings`] gives the flat form back, equal to
//! the settings it was validated from.
//!
//! A Space match sees only what 003 lets it agree (hours per side, 003 §1.2; the agreed komi
//! recipient and bonus, 003 §1.3, §4.3; the scoring-wait alert, 003 §10.1; special rules and
//! labels, 003 §1.4, §7.1); a Classic match only the options of 000 §2 (none/byo-yomi/Fischer
//! time, undo allowance, draw offers, the scoring deadline and the disconnection grace). The
//! values a preset fixes (the Space ko rule and formula, undo by consent, the five-minute
//! disconnection wait; Classic's komi to White, numeric labels) are not stored at all.

use super::*;

/// Space time (003 §1.2): each side 1–5 whole hours, may differ; no byo-yomi.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpaceHours {
    pub black: u32,
    pub white: u32,
}

/// Classic time (000 §2): no clock with an idle limit, byo-yomi or Fischer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClassicTime {
    /// No clock; a move is due within `idle_limit_s` (300 | 600).
    None { idle_limit_s: u32 },
    /// Main time 0..=3600 s, periods of 10|20|30|60 s, 1..=5 periods.
    Byoyomi { main_s: u32, period_s: u32, periods: u32 },
    /// Main time 1..=3600 s, 0..=30 s added after each move.
    Fischer { main_s: u32, increment_s: u32 },
}

/// What the match clocks run on: one preset's time, never a mixture (a Space clock has no
/// byo-yomi, a Classic clock no hours per side). The match state takes it from its validated
/// rules ([`MatchRules::clock`]); the values are only range-checked on that path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClockRule {
    Space(SpaceHours),
    Classic(ClassicTime),
}

impl ClockRule {
    /// The flat wire form (shown with the clocks).
    pub fn control(self) -> TimeControl {
        match self {
            ClockRule::Space(SpaceHours { black, white }) => TimeControl::SpaceHours { black, white },
            ClockRule::Classic(ClassicTime::None { idle_limit_s }) => TimeControl::None { idle_limit_s },
            ClockRule::Classic(ClassicTime::Byoyomi { main_s, period_s, periods }) => {
                TimeControl::Byoyomi { main_s, period_s, periods }
            }
            ClockRule::Classic(ClassicTime::Fischer { main_s, increment_s }) => {
                TimeControl::Fischer { main_s, increment_s }
            }
        }
    }
}

/// Validated settings of a match: the preset decides which terms exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchRules {
    Space(SpaceRules),
    Classic(ClassicRules),
}

/// A Space match (003). Only [`MatchSettings::validate`] makes one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpaceRules {
    /// 003 §1.1: odd axes 1..=25 within ±1,000,000.
    pub(super) board: BoxSpec,
    /// 003 §4.3: zero or a positive multiple of 0.5, to the agreed colour.
    pub(super) komi: Komi,
    pub(super) komi_to: Color,
    /// 003 §1.3, §4.1.
    pub(super) capture_bonus: bool,
    pub(super) hours: SpaceHours,
    pub(super) colours: ColourAssignment,
    /// Program help both players agreed to (003 §6.4).
    pub(super) atari_warning: bool,
    /// 003 §10.1: 0..=604800 s in whole minutes; 0 = no alert.
    pub(super) scoring_wait_s: u32,
    pub(super) special_rules: Vec<SpecialRule>,
    pub(super) assistance: AssistanceScope,
    pub(super) common_rules_version: Option<u32>,
    pub(super) record_retention_days: Option<u32>,
    pub(super) labels: CoordLabels,
    pub(super) review: ReviewPolicy,
    pub(super) mode: RoomMode,
    pub(super) access: RoomAccess,
}

/// A Classic match (000). Only [`MatchSettings::validate`] makes one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassicRules {
    /// 9, 13 or 19: a flat board with axes 1..n (000 §2).
    pub(super) size: u16,
    /// Komi as the engine counts it: the agreed komi added to White, or its absolute value
    /// to Black when negative (000 §2; see the settings module docs).
    pub(super) komi: Komi,
    pub(super) komi_to: Color,
    /// Territory or area (000 §2).
    pub(super) scoring: ScoringMethod,
    /// Positional superko or the Korean rule (000 §2, §5.3).
    pub(super) ko: KoRule,
    /// 0 or 2..=9; 9×9: 0 or 2..=5 (000 §2, §4).
    pub(super) handicap: u8,
    pub(super) time: ClassicTime,
    pub(super) colours: ColourAssignment,
    pub(super) undo: UndoAllowance,
    pub(super) draw_offer: bool,
    pub(super) atari_warning: bool,
    /// 120 | 180 | 300 s, then auto-agree (000 §2, §8.5).
    pub(super) scoring_deadline_s: u32,
    /// 60 | 120 | 300 s, then a time loss (000 §2, §8.5).
    pub(super) disconnect_grace_s: u32,
    pub(super) assistance: AssistanceScope,
    pub(super) common_rules_version: Option<u32>,
    pub(super) record_retention_days: Option<u32>,
    pub(super) review: ReviewPolicy,
    pub(super) mode: RoomMode,
    pub(super) access: RoomAccess,
}

impl SpaceRules {
    pub fn hours(&self) -> SpaceHours {
        self.hours
    }
    /// The scoring-wait alert (003 §10.1–10.2), if one was agreed (a wait of 0 is none).
    pub fn scoring_wait_s(&self) -> Option<u32> {
        (self.scoring_wait_s > 0).then_some(self.scoring_wait_s)
    }
    pub fn special_rules(&self) -> &[SpecialRule] {
        &self.special_rules
    }
    /// The agreed undo limit per player, if a special rule set one (003 §1.4, §5.1).
    pub fn undo_limit(&self) -> Option<u32> {
        self.special_rules.iter().find_map(|r| match r {
            SpecialRule::UndoLimit { per_player } => Some(*per_player),
            SpecialRule::Note { .. } => None,
        })
    }
    pub fn labels(&self) -> &CoordLabels {
        &self.labels
    }
}

impl ClassicRules {
    pub fn size(&self) -> u16 {
        self.size
    }
    pub fn time(&self) -> ClassicTime {
        self.time
    }
    /// The undo allowance per player (000 §2).
    pub fn undo(&self) -> UndoAllowance {
        self.undo
    }
    /// Whether draw offers are on (000 §2, §8.2).
    pub fn draw_offer(&self) -> bool {
        self.draw_offer
    }
    /// The dead-stone review limit (000 §2, §8.5).
    pub fn scoring_deadline_s(&self) -> u32 {
        self.scoring_deadline_s
    }
    /// The disconnection grace (000 §2, §8.5).
    pub fn disconnect_grace_s(&self) -> u32 {
        self.disconnect_grace_s
    }
    /// The agreed komi in half points, added to White (000 §2); negative favours Black.
    fn komi_half_points(&self) -> i32 {
        let k = i32::try_from(self.komi.half_points()).unwrap_or(i32::MAX);
        if self.komi_to == Color::White {
            k
        } else {
            -k
        }
    }
}

impl MatchRules {
    pub fn preset(&self) -> Preset {
        match self {
            MatchRules::Space(_) => Preset::Space,
            MatchRules::Classic(_) => Preset::Classic,
        }
    }

    /// The box: the agreed one (003 §1.1) or the flat n×n board (000 §2).
    pub fn board(&self) -> BoxSpec {
        match self {
            MatchRules::Space(s) => s.board,
            MatchRules::Classic(c) => {
                let n = Axis::one_to(i64::from(c.size));
                BoxSpec { x: n, y: n, z: Axis::one_to(1) }
            }
        }
    }

    /// What the clocks run on.
    pub fn clock(&self) -> ClockRule {
        match self {
            MatchRules::Space(s) => ClockRule::Space(s.hours),
            MatchRules::Classic(c) => ClockRule::Classic(c.time),
        }
    }

    /// How colours are decided (003 §1.2; 000 §2).
    pub fn colours(&self) -> ColourAssignment {
        match self {
            MatchRules::Space(s) => s.colours,
            MatchRules::Classic(c) => c.colours,
        }
    }

    /// Who sits at the table (003 §1.2, §11).
    pub fn mode(&self) -> &RoomMode {
        match self {
            MatchRules::Space(s) => &s.mode,
            MatchRules::Classic(c) => &c.mode,
        }
    }

    /// Who may take the free seat.
    pub fn access(&self) -> RoomAccess {
        match self {
            MatchRules::Space(s) => s.access,
            MatchRules::Classic(c) => c.access,
        }
    }

    /// Whether a counted result waits for the administrator's review (003 §2.7).
    pub fn review(&self) -> ReviewPolicy {
        match self {
            MatchRules::Space(s) => s.review,
            MatchRules::Classic(c) => c.review,
        }
    }

    /// Atari warnings for the player to move (000 §8.3; in Space agreed program help, 003 §6.4).
    pub fn atari_warning(&self) -> bool {
        match self {
            MatchRules::Space(s) => s.atari_warning,
            MatchRules::Classic(c) => c.atari_warning,
        }
    }

    /// How long a disconnected player may take to come back: five minutes in Space, then the
    /// administrator decides (003 §6.1); the agreed grace in Classic, then a time loss
    /// (000 §8.5).
    pub fn reconnection_wait_s(&self) -> u32 {
        match self {
            MatchRules::Space(_) => SPACE_DISCONNECT_WAIT_S,
            MatchRules::Classic(c) => c.disconnect_grace_s,
        }
    }

    /// The engine's rules. Space: immediate repetition, the Space formula, the agreed bonus
    /// and komi/recipient. Classic: the chosen ko rule and scoring, no bonus, komi to White
    /// (negative → Black), handicap.
    pub fn engine_rules(&self) -> Rules {
        match self {
            MatchRules::Space(s) => Rules {
                ko: KoRule::Immediate,
                scoring: ScoringMethod::Space,
                capture_bonus: s.capture_bonus,
                komi: s.komi,
                komi_to: s.komi_to,
                handicap: 0,
            },
            MatchRules::Classic(c) => Rules {
                ko: c.ko,
                scoring: c.scoring,
                capture_bonus: false,
                komi: c.komi,
                komi_to: c.komi_to,
                handicap: c.handicap,
            },
        }
    }

    /// The flat wire and storage form, equal to the settings these rules were validated from.
    pub fn settings(&self) -> MatchSettings {
        match self {
            MatchRules::Space(s) => MatchSettings {
                preset: Preset::Space,
                board: s.board,
                komi_half_points: i32::try_from(s.komi.half_points()).unwrap_or(i32::MAX),
                komi_to: s.komi_to,
                capture_bonus: s.capture_bonus,
                scoring: ScoringMethod::Space,
                ko: KoRule::Immediate,
                handicap: 0,
                time: ClockRule::Space(s.hours).control(),
                colours: s.colours,
                undo: UndoAllowance::Unlimited,
                draw_offer: false,
                atari_warning: s.atari_warning,
                scoring_deadline_s: s.scoring_wait_s,
                disconnect_grace_s: SPACE_DISCONNECT_WAIT_S,
                special_rules: s.special_rules.clone(),
                assistance: s.assistance.clone(),
                common_rules_version: s.common_rules_version,
                record_retention_days: s.record_retention_days,
                labels: s.labels.clone(),
                review: s.review,
                mode: s.mode.clone(),
                access: s.access,
            },
            MatchRules::Classic(c) => MatchSettings {
                preset: Preset::Classic,
                board: self.board(),
                komi_half_points: c.komi_half_points(),
                komi_to: Color::White,
                capture_bonus: false,
                scoring: c.scoring,
                ko: c.ko,
                handicap: u32::from(c.handicap),
                time: ClockRule::Classic(c.time).control(),
                colours: c.colours,
                undo: c.undo,
                draw_offer: c.draw_offer,
                atari_warning: c.atari_warning,
                scoring_deadline_s: c.scoring_deadline_s,
                disconnect_grace_s: c.disconnect_grace_s,
                special_rules: Vec::new(),
                assistance: c.assistance.clone(),
                common_rules_version: c.common_rules_version,
                record_retention_days: c.record_retention_days,
                labels: CoordLabels::default(),
                review: c.review,
                mode: c.mode.clone(),
                access: c.access,
            },
        }
    }
}

impl TryFrom<&MatchSettings> for MatchRules {
    type Error = SettingsError;
    fn try_from(s: &MatchSettings) -> Result<MatchRules, SettingsError> {
        s.validate()
    }
}

impl MatchSettings {
    /// Builds the rules of settings that passed every check. `time` is what `check_time`
    /// found: its variant is the preset's.
    pub(super) fn assemble(&self, time: ClockRule) -> Result<MatchRules, SettingsError> {
        let (half, komi_to) = self.effective_komi();
        // Checked by `check_komi`: within the engine's range for either preset.
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
        Ok(match time {
            ClockRule::Space(hours) => MatchRules::Space(SpaceRules {
                board: self.board,
                komi,
                komi_to,
                capture_bonus: self.capture_bonus,
                hours,
                colours: self.colours,
                atari_warning: self.atari_warning,
                scoring_wait_s: self.scoring_deadline_s,
                special_rules: self.special_rules.clone(),
                assistance: self.assistance.clone(),
                common_rules_version: self.common_rules_version,
                record_retention_days: self.record_retention_days,
                labels: self.labels.clone(),
                review: self.review,
                mode: self.mode.clone(),
                access: self.access,
            }),
            ClockRule::Classic(time) => MatchRules::Classic(ClassicRules {
                // Checked by `check_board`: a canonical 9/13/19 board.
                size: classic_size(&self.board).unwrap_or(19),
                komi,
                komi_to,
                scoring: self.scoring,
                ko: self.ko,
                // Checked by `check_handicap_and_colours`: 0..=9.
                handicap: u8::try_from(self.handicap).unwrap_or(0),
                time,
                colours: self.colours,
                undo: self.undo,
                draw_offer: self.draw_offer,
                atari_warning: self.atari_warning,
                scoring_deadline_s: self.scoring_deadline_s,
                disconnect_grace_s: self.disconnect_grace_s,
                assistance: self.assistance.clone(),
                common_rules_version: self.common_rules_version,
                record_retention_days: self.record_retention_days,
                review: self.review,
                mode: self.mode.clone(),
                access: self.access,
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(s: &MatchSettings) -> MatchRules {
        s.validate().unwrap_or_else(|e| panic!("{s:?}: {e}"))
    }

    /// Valid variations of both presets beyond their defaults, one per term a preset agrees.
    fn variations() -> Vec<MatchSettings> {
        let space = MatchSettings::space_default;
        let classic = MatchSettings::classic_default;
        let five = BoxSpec { x: Axis::new(-2, 2), y: Axis::one_to(5), z: Axis::one_to(1) };
        let assistant = Assistant {
            name: "KataGo 1.15".into(),
            kind: AssistantKind::Program,
            helps: AssistedPlayer::Guest,
            extent: AssistanceExtent::ScoringReview,
        };
        let agreed = AssistanceScope::Agreed { assistants: vec![assistant] };
        vec![
            // 003 §1.1, §1.2, §1.3, §4.3, §6.4, §7.1, §10.1.
            MatchSettings { board: five, ..space() },
            MatchSettings { komi_half_points: 15, komi_to: Color::Black, capture_bonus: true, ..space() },
            MatchSettings { time: TimeControl::SpaceHours { black: 2, white: 5 }, ..space() },
            MatchSettings { colours: ColourAssignment::HostWhite, atari_warning: true, ..space() },
            MatchSettings { scoring_deadline_s: 0, ..space() },
            MatchSettings { scoring_deadline_s: SPACE_SCORING_WAIT_MAX_S, ..space() },
            MatchSettings {
                special_rules: vec![SpecialRule::Note { text: "no pass before move 10".into() }],
                ..space()
            },
            MatchSettings { assistance: agreed.clone(), ..space() },
            MatchSettings {
                board: five,
                labels: CoordLabels::Builtin { x: LabelKind::English, y: LabelKind::Korean, z: LabelKind::Numeric },
                ..space()
            },
            // 000 §2.
            MatchSettings { komi_half_points: -7, ..classic(9) },
            MatchSettings { komi_half_points: 0, ..classic(13) },
            MatchSettings { scoring: ScoringMethod::Area, ko: KoRule::Korean, ..classic(19) },
            MatchSettings { handicap: 4, komi_half_points: 1, colours: ColourAssignment::HostBlack, ..classic(19) },
            MatchSettings { time: TimeControl::classic_default_fischer(9), ..classic(9) },
            MatchSettings { time: TimeControl::classic_default_none(), ..classic(13) },
            MatchSettings { undo: UndoAllowance::Off, draw_offer: false, atari_warning: false, ..classic(19) },
            MatchSettings { undo: UndoAllowance::Limited(1), ..classic(19) },
            MatchSettings { undo: UndoAllowance::Unlimited, ..classic(9) },
            MatchSettings { scoring_deadline_s: 300, disconnect_grace_s: 60, ..classic(19) },
            MatchSettings { assistance: agreed, ..classic(19) },
        ]
    }

    #[test]
    fn each_preset_validates_into_its_own_variant() {
        assert!(matches!(rules(&MatchSettings::space_default()), MatchRules::Space(_)));
        for size in CLASSIC_SIZES {
            let r = rules(&MatchSettings::classic_default(size));
            let MatchRules::Classic(c) = &r else { panic!("{r:?}") };
            assert_eq!((c.size(), r.preset()), (size, Preset::Classic));
        }
        for s in variations() {
            assert_eq!(rules(&s).preset(), s.preset, "{s:?}");
        }
    }

    #[test]
    fn the_validated_rules_give_back_the_same_flat_settings() {
        let defaults =
            [MatchSettings::space_default()].into_iter().chain(CLASSIC_SIZES.map(MatchSettings::classic_default));
        for s in defaults.chain(variations()) {
            let r = rules(&s);
            assert_eq!(r.settings(), s);
            assert_eq!(MatchRules::try_from(&s), Ok(r.clone()));
            // The serialised wire form is unchanged by the round trip.
            assert_eq!(serde_json::to_value(r.settings()).unwrap(), serde_json::to_value(&s).unwrap());
            assert_eq!(Ok(r.engine_rules()), s.engine_rules());
            assert_eq!(r.board(), s.board);
        }
    }

    #[test]
    fn a_space_clock_has_hours_only_and_a_classic_clock_no_hours() {
        // 003 §1.2: no byo-yomi in Space; 000 §2: none / byo-yomi / Fischer in Classic.
        let space =
            MatchSettings { time: TimeControl::SpaceHours { black: 3, white: 1 }, ..MatchSettings::space_default() };
        assert_eq!(rules(&space).clock(), ClockRule::Space(SpaceHours { black: 3, white: 1 }));
        let byo = MatchSettings { time: TimeControl::classic_default_byoyomi(19), ..MatchSettings::space_default() };
        let e = byo.validate().unwrap_err();
        assert!(e.concerns(Field::Time) && e.problems.len() == 1, "{e}");

        let fischer =
            MatchSettings { time: TimeControl::classic_default_fischer(13), ..MatchSettings::classic_default(13) };
        assert_eq!(rules(&fischer).clock(), ClockRule::Classic(ClassicTime::Fischer { main_s: 600, increment_s: 10 }));
        let hours =
            MatchSettings { time: TimeControl::SpaceHours { black: 1, white: 1 }, ..MatchSettings::classic_default(9) };
        let e = hours.validate().unwrap_err();
        assert!(e.concerns(Field::Time) && e.problems.len() == 1, "{e}");
        // Other problems are still all reported alongside a time of the wrong preset.
        let both = MatchSettings { handicap: 3, ..byo };
        assert_eq!(both.validate().unwrap_err().problems.len(), 2);
    }

    #[test]
    fn terms_a_preset_fixes_come_from_the_preset() {
        // 003 §6.1: five minutes in Space; 000 §2: the agreed grace in Classic.
        assert_eq!(rules(&MatchSettings::space_default()).reconnection_wait_s(), SPACE_DISCONNECT_WAIT_S);
        let c = MatchSettings { disconnect_grace_s: 60, ..MatchSettings::classic_default(19) };
        assert_eq!(rules(&c).reconnection_wait_s(), 60);
        // 003 §10.1: a wait of 0 is no alert.
        let MatchRules::Space(s) = rules(&MatchSettings { scoring_deadline_s: 0, ..MatchSettings::space_default() })
        else {
            panic!("space")
        };
        assert_eq!(s.scoring_wait_s(), None);
        // 000 §2: a negative komi is the engine's komi for Black.
        let neg = rules(&MatchSettings { komi_half_points: -7, ..MatchSettings::classic_default(9) }).engine_rules();
        assert_eq!((neg.komi.half_points(), neg.komi_to), (7, Color::Black));
    }
}
