//! The presets' default agreements (003 §1.1–1.2, 000 §2) and what is read off an agreement
//! (its Classic size, the summary of its labels).

use super::*;

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
            common_rules_version: None,
            record_retention_days: None,
            labels: CoordLabels::default(),
            review: ReviewPolicy::Required,
            mode: RoomMode::Match,
            access: RoomAccess::Invitation,
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
            common_rules_version: None,
            record_retention_days: None,
            labels: CoordLabels::default(),
            review: ReviewPolicy::WhenDisputed,
            mode: RoomMode::Match,
            access: RoomAccess::Invitation,
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

impl MatchSettings {
    /// Trims notes and assistant names and drops empty notes — what a form should do before
    /// `validate`. Nothing else changes.
    pub fn normalized(mut self) -> MatchSettings {
        self.special_rules = std::mem::take(&mut self.special_rules)
            .into_iter()
            .filter_map(|r| match r {
                SpecialRule::Note { text } => {
                    let text = text.trim().to_string();
                    (!text.is_empty()).then_some(SpecialRule::Note { text })
                }
                other => Some(other),
            })
            .collect();
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

    /// The engine rules for this match, after a full [`validate`](Self::validate)
    /// (see [`MatchRules::engine_rules`]).
    pub fn engine_rules(&self) -> Result<Rules, SettingsError> {
        Ok(self.validate()?.engine_rules())
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
    /// The box as shown in the summary: `19×19×19 (x 1..19, y 1..19, z 1..19)`.
    pub fn describe_box(&self) -> String {
        describe_box(&self.board)
    }

    /// The Classic size, if the board is a canonical flat 9/13/19.
    pub fn classic_size(&self) -> Option<u16> {
        classic_size(&self.board)
    }

    /// Non-numeric labels in the summary: `X A…E, Y i…v, Z 가…마`.
    pub fn labels_summary(&self) -> Option<String> {
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
}
