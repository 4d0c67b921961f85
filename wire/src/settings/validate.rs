//! Validation: every problem of a [`MatchSettings`] at once (field, value, allowed range,
//! clause), per preset; settings without a problem become their preset's [`MatchRules`].

use super::*;

mod agreement;

/// Collects problems.
struct Problems(Vec<SettingProblem>);

impl Problems {
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

pub fn describe_box(b: &BoxSpec) -> String {
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
pub fn classic_size(b: &BoxSpec) -> Option<u16> {
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
    /// Checks every setting against its preset and returns all problems found, or, when
    /// there is none, the preset's validated [`MatchRules`] (whose
    /// [`settings`](MatchRules::settings) equal `self`). Never panics, whatever the values.
    pub fn validate(&self) -> Result<MatchRules, SettingsError> {
        let mut p = Problems(Vec::new());
        self.check_board(&mut p);
        self.check_komi(&mut p);
        self.check_scoring_and_ko(&mut p);
        self.check_handicap_and_colours(&mut p);
        let time = self.check_time(&mut p);
        self.check_undo_draw(&mut p);
        self.check_deadlines(&mut p);
        self.check_special_rules(&mut p);
        self.check_assistance(&mut p);
        self.check_version(&mut p);
        self.check_labels(&mut p);
        self.check_mode(&mut p);
        match time {
            // `check_time` reports a problem whenever it finds no time of the preset.
            Some(time) if p.0.is_empty() => self.assemble(time),
            _ => Err(SettingsError { problems: p.0 }),
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

    /// The preset's time (003 §1.2; 000 §2), or `None` with the problem reported. Only a
    /// Space preset yields [`ClockRule::Space`], only a Classic one [`ClockRule::Classic`].
    fn check_time(&self, p: &mut Problems) -> Option<ClockRule> {
        let before = p.0.len();
        let time = match (self.preset, self.time) {
            (Preset::Space, TimeControl::SpaceHours { black, white }) => {
                // 003 §1.2: 1–5 whole hours each, may differ.
                for (name, v) in [("black", black), ("white", white)] {
                    if !(SPACE_HOURS_MIN..=SPACE_HOURS_MAX).contains(&v) {
                        p.range(Field::Time, format!("time.{name}"), v, "1 to 5 whole hours", "003 §1.2");
                    }
                }
                Some(ClockRule::Space(SpaceHours { black, white }))
            }
            (Preset::Space, t) => {
                p.not_allowed(
                    Field::Time,
                    "time.kind",
                    t.kind_str(),
                    "space_hours for the Space preset (1 to 5 whole hours each, no byo-yomi)",
                    "003 §1.2",
                );
                None
            }
            (Preset::Classic, TimeControl::SpaceHours { .. }) => {
                p.not_allowed(
                    Field::Time,
                    "time.kind",
                    "space_hours",
                    "none, byoyomi or fischer for the Classic preset",
                    "000 §2",
                );
                None
            }
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
                Some(ClockRule::Classic(ClassicTime::None { idle_limit_s }))
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
                Some(ClockRule::Classic(ClassicTime::Byoyomi { main_s, period_s, periods }))
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
                Some(ClockRule::Classic(ClassicTime::Fischer { main_s, increment_s }))
            }
        };
        time.filter(|_| p.0.len() == before)
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
}
