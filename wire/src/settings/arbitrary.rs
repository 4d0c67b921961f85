//! Arbitrary settings for property tests: any values at all (`any_settings`) and every
//! combination of allowed ones (`valid_settings`). Shared with the crates above, whose tests
//! feed the same values to what they make of settings (the summaries in words).

use proptest::prelude::*;

use super::*;
pub fn any_axis() -> impl Strategy<Value = Axis> {
    prop_oneof![
        (any::<i64>(), any::<i64>()).prop_map(|(a, b)| Axis::new(a, b)),
        (-30i64..30, 0i64..30).prop_map(|(s, l)| Axis::new(s, s + l - 1)),
    ]
}

pub fn any_time() -> impl Strategy<Value = TimeControl> {
    prop_oneof![
        (any::<u32>(), any::<u32>()).prop_map(|(black, white)| TimeControl::SpaceHours { black, white }),
        any::<u32>().prop_map(|idle_limit_s| TimeControl::None { idle_limit_s }),
        (any::<u32>(), any::<u32>(), any::<u32>())
            .prop_map(|(main_s, period_s, periods)| { TimeControl::Byoyomi { main_s, period_s, periods } }),
        (any::<u32>(), any::<u32>()).prop_map(|(main_s, increment_s)| TimeControl::Fischer { main_s, increment_s }),
    ]
}

pub fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), "[ a-z\\t\\n가]{0,5}", "x{195,205}"]
}

pub fn any_assistance() -> impl Strategy<Value = AssistanceScope> {
    let assistant = (any_text(), any::<bool>(), 0u8..3, 0u8..3).prop_map(|(name, person, h, x)| Assistant {
        name,
        kind: if person { AssistantKind::Person } else { AssistantKind::Program },
        helps: [AssistedPlayer::Host, AssistedPlayer::Guest, AssistedPlayer::Both][h as usize],
        extent: [AssistanceExtent::RulesAndControls, AssistanceExtent::ScoringReview, AssistanceExtent::FullAdvice]
            [x as usize],
    });
    prop_oneof![
        Just(AssistanceScope::None),
        prop::collection::vec(assistant, 0..7).prop_map(|assistants| AssistanceScope::Agreed { assistants }),
    ]
}

prop_compose! {
    pub fn any_settings()(
        classic in any::<bool>(),
        (x, y, z) in (any_axis(), any_axis(), any_axis()),
        komi_half_points in prop_oneof![any::<i32>(), -30i32..30],
        black in any::<bool>(),
        capture_bonus in any::<bool>(),
        scoring in 0u8..3,
        ko in 0u8..3,
        handicap in prop_oneof![any::<u32>(), 0u32..12],
        time in any_time(),
        colours in 0u8..3,
        undo in prop_oneof![Just(UndoAllowance::Off), Just(UndoAllowance::Unlimited), any::<u32>().prop_map(UndoAllowance::Limited)],
        (draw_offer, atari_warning) in (any::<bool>(), any::<bool>()),
        (scoring_deadline_s, disconnect_grace_s) in (any::<u32>(), any::<u32>()),
        special_rules in prop::collection::vec(
            prop_oneof![any_text().prop_map(|text| SpecialRule::Note { text }), any::<u32>().prop_map(|per_player| SpecialRule::UndoLimit { per_player })],
            0..13,
        ),
        assistance in any_assistance(),
        common_rules_version in prop::option::of(any::<u32>()),
        record_retention_days in prop::option::of(prop_oneof![any::<u32>(), 0u32..40_000]),
        labels in any_labels(),
        review_required in any::<bool>(),
        mode in any_mode(),
        open in any::<bool>(),
    ) -> MatchSettings {
        MatchSettings {
            preset: if classic { Preset::Classic } else { Preset::Space },
            board: BoxSpec { x, y, z },
            komi_half_points,
            komi_to: if black { Color::Black } else { Color::White },
            capture_bonus,
            scoring: [ScoringMethod::Area, ScoringMethod::Territory, ScoringMethod::Space][scoring as usize],
            ko: [KoRule::Immediate, KoRule::PositionalSuperko, KoRule::Korean][ko as usize],
            handicap,
            time,
            colours: [ColourAssignment::Nigiri, ColourAssignment::HostBlack, ColourAssignment::HostWhite][colours as usize],
            undo,
            draw_offer,
            atari_warning,
            scoring_deadline_s,
            disconnect_grace_s,
            special_rules,
            assistance,
            common_rules_version,
            record_retention_days,
            labels,
            review: if review_required { ReviewPolicy::Required } else { ReviewPolicy::WhenDisputed },
            mode,
            access: if open { RoomAccess::Open } else { RoomAccess::Invitation },
        }
    }
}

pub fn any_mode() -> impl Strategy<Value = crate::mode::RoomMode> {
    use crate::mode::{ComputerSeat, Opponent, RoomMode};
    let computer = (any::<bool>(), any::<u8>(), any::<u32>(), prop::option::of(any::<i64>())).prop_map(
        |(black, level, move_ms, model_id)| ComputerSeat {
            colour: if black { Color::Black } else { Color::White },
            level,
            move_ms,
            model_id,
            model: None,
            seed: 0,
        },
    );
    prop_oneof![
        Just(RoomMode::Match),
        any_text().prop_map(|second_player| RoomMode::OneDevice { second_player }),
        prop::option::of(computer.clone()).prop_map(|computer| RoomMode::Practice { computer }),
        (computer.clone(), any::<bool>()).prop_map(|(computer, invited)| RoomMode::VsComputer {
            computer,
            opponent: if invited { Opponent::Invited } else { Opponent::Creator },
        }),
        (computer.clone(), computer, any::<i64>(), any::<u32>()).prop_map(|(first, second, series, game)| {
            RoomMode::ProgramGame { first: Box::new(first), second: Box::new(second), series, game }
        }),
    ]
}

pub fn any_labels() -> impl Strategy<Value = CoordLabels> {
    let kind = || prop_oneof![Just(LabelKind::Numeric), Just(LabelKind::English), Just(LabelKind::Korean)];
    let list = || prop::collection::vec(any::<String>(), 0..30);
    prop_oneof![
        Just(CoordLabels::default()),
        (kind(), kind(), kind()).prop_map(|(x, y, z)| CoordLabels::Builtin { x, y, z }),
        (list(), list(), list()).prop_map(|(x, y, z)| CoordLabels::Custom { x, y, z }),
    ]
}

/// Settings drawn only from the allowed values of either preset.
pub fn valid_settings() -> impl Strategy<Value = MatchSettings> {
    let odd = || (0i64..13, -1000i64..1000).prop_map(|(h, s)| Axis::new(s, s + 2 * h));
    let space = (
        (odd(), odd(), odd()),
        0i32..=2000,
        any::<bool>(),
        any::<bool>(),
        (1u32..=5, 1u32..=5),
        (0u32..=10080).prop_map(|m| m * 60),
    )
        .prop_map(|((x, y, z), k, black, bonus, (b, w), wait)| MatchSettings {
            board: BoxSpec { x, y, z },
            komi_half_points: k,
            komi_to: if black { Color::Black } else { Color::White },
            capture_bonus: bonus,
            time: TimeControl::SpaceHours { black: b, white: w },
            scoring_deadline_s: wait,
            ..MatchSettings::space_default()
        });
    let classic = (
        prop::sample::select(vec![9u16, 13, 19]),
        -20i32..=20,
        any::<bool>(),
        any::<bool>(),
        0u32..=9,
        prop_oneof![
            (0u32..=3600, prop::sample::select(CLASSIC_PERIOD_S.to_vec()), 1u32..=5)
                .prop_map(|(main_s, period_s, periods)| TimeControl::Byoyomi { main_s, period_s, periods }),
            (1u32..=3600, 0u32..=30).prop_map(|(main_s, increment_s)| TimeControl::Fischer { main_s, increment_s }),
            prop::sample::select(CLASSIC_IDLE_LIMIT_S.to_vec())
                .prop_map(|idle_limit_s| TimeControl::None { idle_limit_s }),
        ],
    )
        .prop_map(|(size, k, area, korean, h, time)| {
            let max = if size == 9 { 5 } else { 9 };
            let handicap = if h == 1 || h > max { 0 } else { h };
            MatchSettings {
                komi_half_points: k,
                scoring: if area { ScoringMethod::Area } else { ScoringMethod::Territory },
                ko: if korean { KoRule::Korean } else { KoRule::PositionalSuperko },
                handicap,
                colours: if handicap > 0 { ColourAssignment::HostBlack } else { ColourAssignment::Nigiri },
                time,
                ..MatchSettings::classic_default(size)
            }
        });
    prop_oneof![space, classic]
}
