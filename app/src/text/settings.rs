//! The agreed settings as people read them, one line per item (the summary both players
//! confirm, 003 §1.3; the same lines in the room and the record).

use engine::{KoRule, ScoringMethod};

use super::{colour, duration, t, t_with};
use crate::i18n::Lang;
use wire::settings::{
    format_half_points, AssistanceExtent, AssistanceScope, AssistantKind, AssistedPlayer, ColourAssignment,
    MatchSettings, Preset, SpecialRule, TimeControl, UndoAllowance,
};

/// "Byo-yomi: 10 min, then 3 × 30 s" and the like.
pub fn time_control(lang: Lang, time: &TimeControl) -> String {
    let tw = |key: &str, params: &[(&str, &str)]| t_with(lang, key, params);
    let dur = |v: u32| duration(lang, v);
    match *time {
        TimeControl::SpaceHours { black, white } => {
            tw("summary.time_space", &[("black", &black.to_string()), ("white", &white.to_string())])
        }
        TimeControl::None { idle_limit_s } => tw("summary.time_none", &[("idle", &dur(idle_limit_s))]),
        TimeControl::Byoyomi { main_s, period_s, periods } => tw(
            "summary.time_byoyomi",
            &[("main", &dur(main_s)), ("period", &dur(period_s)), ("periods", &periods.to_string())],
        ),
        TimeControl::Fischer { main_s, increment_s } => {
            tw("summary.time_fischer", &[("main", &dur(main_s)), ("increment", &dur(increment_s))])
        }
    }
}

/// The repetition rule in words.
pub fn ko_rule(lang: Lang, ko: KoRule) -> String {
    t(
        lang,
        match ko {
            KoRule::Immediate => "summary.ko_immediate",
            KoRule::PositionalSuperko => "summary.ko_superko",
            KoRule::Korean => "summary.ko_korean",
        },
    )
}

/// The rules being played, shortly, for the room during play: komi, scoring, ko and time.
pub fn play_summary(lang: Lang, s: &MatchSettings) -> Vec<String> {
    let (half, to) = s.effective_komi();
    let komi = if half == 0 {
        t(lang, "summary.no_komi")
    } else {
        t_with(lang, "summary.komi", &[("komi", &format_half_points(i64::from(half))), ("to", &colour(lang, to))])
    };
    let scoring = match (s.preset, s.scoring) {
        (Preset::Space, _) => "summary.short_scoring_space",
        (Preset::Classic, ScoringMethod::Area) => "summary.short_scoring_area",
        (Preset::Classic, _) => "summary.short_scoring_territory",
    };
    let ko = match s.ko {
        KoRule::Immediate => "summary.short_ko_immediate",
        KoRule::PositionalSuperko => "summary.short_ko_superko",
        KoRule::Korean => "summary.short_ko_korean",
    };
    let time = match s.time {
        TimeControl::SpaceHours { black, white } => {
            t_with(lang, "summary.short_time_space", &[("black", &black.to_string()), ("white", &white.to_string())])
        }
        _ => time_control(lang, &s.time),
    };
    vec![komi, t(lang, scoring), t(lang, ko), time]
}

/// A listed room's rules in one line: komi, handicap and the repetition rule.
pub fn listing_rules(lang: Lang, l: &wire::listing::Listing) -> String {
    let mut parts = vec![if l.komi_half_points == 0 {
        t(lang, "summary.no_komi")
    } else {
        t_with(
            lang,
            "summary.komi",
            &[("komi", &format_half_points(i64::from(l.komi_half_points))), ("to", &colour(lang, l.komi_to))],
        )
    }];
    if l.handicap > 0 {
        parts.push(t_with(lang, "summary.handicap", &[("n", &l.handicap.to_string())]));
    }
    parts.push(ko_rule(lang, l.ko));
    parts.join(" · ")
}

pub fn settings_summary(lang: Lang, s: &MatchSettings) -> Vec<String> {
    let tw = |key: &str, params: &[(&str, &str)]| t_with(lang, key, params);
    let dur = |v: u32| duration(lang, v);
    let on_off = |on: bool| t(lang, if on { "summary.on" } else { "summary.off" });
    let mut l = Vec::new();
    let preset = t(lang, &format!("preset.{}", s.preset.as_str()));
    l.push(match s.common_rules_version {
        Some(v) => tw("summary.rules", &[("preset", &preset), ("version", &v.to_string())]),
        None => tw("summary.rules_current", &[("preset", &preset)]),
    });
    l.extend(mode_line(lang, &s.mode));
    l.push(match (s.preset, s.classic_size()) {
        (Preset::Classic, Some(n)) => tw("summary.board_classic", &[("n", &n.to_string())]),
        _ => tw("summary.board_box", &[("box", &s.describe_box())]),
    });
    if let Some(names) = s.labels_summary() {
        l.push(tw("summary.labels", &[("labels", &names)]));
    }
    let (half, to) = s.effective_komi();
    l.push(if half == 0 {
        t(lang, "summary.no_komi")
    } else {
        tw("summary.komi", &[("komi", &format_half_points(i64::from(half))), ("to", &colour(lang, to))])
    });
    l.push(match (s.preset, s.scoring) {
        (Preset::Space, _) => tw(
            "summary.scoring_space",
            &[("bonus", &t(lang, if s.capture_bonus { "summary.bonus_on" } else { "summary.bonus_off" }))],
        ),
        (Preset::Classic, ScoringMethod::Area) => t(lang, "summary.scoring_area"),
        (Preset::Classic, _) => t(lang, "summary.scoring_territory"),
    });
    l.push(ko_rule(lang, s.ko));
    if s.handicap > 0 {
        l.push(tw("summary.handicap", &[("n", &s.handicap.to_string())]));
    }
    l.push(time_control(lang, &s.time));
    // 003 §2.7: whether the referee reviews a counted result before it is final.
    l.push(t(lang, &format!("summary.review.{}", <&str>::from(s.review))));
    l.push(t(
        lang,
        match s.colours {
            ColourAssignment::Nigiri => "summary.colours_nigiri",
            ColourAssignment::HostBlack => "summary.colours_host_black",
            ColourAssignment::HostWhite => "summary.colours_host_white",
        },
    ));
    l.push(match (s.preset, s.undo) {
        (Preset::Space, _) => t(lang, "summary.undo_space"),
        (_, UndoAllowance::Off) => t(lang, "summary.undo_off"),
        (_, UndoAllowance::Limited(n)) => tw("summary.undo_limited", &[("n", &n.to_string())]),
        (_, UndoAllowance::Unlimited) => t(lang, "summary.undo_unlimited"),
    });
    if s.preset == Preset::Classic {
        l.push(tw(
            "summary.draw_offers",
            &[("state", &t(lang, if s.draw_offer { "summary.draw_allowed" } else { "summary.draw_off" }))],
        ));
    }
    l.push(tw("summary.atari_warning", &[("state", &on_off(s.atari_warning))]));
    l.push(match s.preset {
        Preset::Space => tw("summary.scoring_wait_space", &[("d", &dur(s.scoring_deadline_s))]),
        Preset::Classic => tw("summary.scoring_deadline_classic", &[("d", &dur(s.scoring_deadline_s))]),
    });
    l.push(match s.preset {
        Preset::Space => tw("summary.disconnect_space", &[("d", &dur(s.disconnect_grace_s))]),
        Preset::Classic => tw("summary.disconnect_classic", &[("d", &dur(s.disconnect_grace_s))]),
    });
    if s.special_rules.is_empty() {
        l.push(t(lang, "summary.special_rules_none"));
    }
    for r in &s.special_rules {
        l.push(match r {
            SpecialRule::Note { text } => tw("summary.special_rule", &[("rule", text)]),
            SpecialRule::UndoLimit { per_player: 0 } => t(lang, "summary.special_undo_none"),
            SpecialRule::UndoLimit { per_player } => {
                tw("summary.special_undo_limit", &[("n", &per_player.to_string())])
            }
        });
    }
    // 003 §9.7, §10.1: retention announced before play.
    l.push(match s.record_retention_days {
        Some(0) => t(lang, "summary.retention_forever"),
        Some(days) => tw("summary.retention_days", &[("days", &days.to_string())]),
        None => t(lang, "summary.retention_site_default"),
    });
    match &s.assistance {
        AssistanceScope::None => l.push(t(lang, "summary.assistance_none")),
        AssistanceScope::Agreed { assistants } => {
            for a in assistants {
                let kind = match a.kind {
                    AssistantKind::Person => "summary.assistant_person",
                    AssistantKind::Program => "summary.assistant_program",
                };
                let helps = match a.helps {
                    AssistedPlayer::Host => "summary.assists_host",
                    AssistedPlayer::Guest => "summary.assists_guest",
                    AssistedPlayer::Both => "summary.assists_both",
                };
                let extent = match a.extent {
                    AssistanceExtent::RulesAndControls => "summary.extent_rules",
                    AssistanceExtent::ScoringReview => "summary.extent_scoring",
                    AssistanceExtent::FullAdvice => "summary.extent_full",
                };
                l.push(tw(
                    "summary.assistant",
                    &[
                        ("name", &a.name),
                        ("kind", &t(lang, kind)),
                        ("helps", &t(lang, helps)),
                        ("extent", &t(lang, extent)),
                    ],
                ));
            }
        }
    }
    l
}

/// The mode, as the agreement states it (none for an ordinary match; 003 §1.2, §11.1).
fn mode_line(lang: Lang, mode: &wire::mode::RoomMode) -> Option<String> {
    use wire::mode::RoomMode;
    Some(match mode {
        RoomMode::Match => return None,
        RoomMode::OneDevice { second_player } => {
            t_with(lang, "summary.mode.one_device", &[("name", second_player.as_str())])
        }
        RoomMode::Practice { computer: None } => t(lang, "summary.mode.practice_alone"),
        RoomMode::Practice { computer: Some(c) } => {
            t_with(lang, "summary.mode.practice_computer", &[("computer", &computer_name(lang, c))])
        }
        RoomMode::VsComputer { computer: c, .. } => {
            t_with(lang, "summary.mode.vs_computer", &[("computer", &computer_name(lang, c))])
        }
        RoomMode::ProgramGame { first, second, series, game } => t_with(
            lang,
            "summary.mode.program_game",
            &[
                ("series", &series.to_string()),
                ("game", &game.to_string()),
                ("a", &computer_name(lang, first)),
                ("b", &computer_name(lang, second)),
            ],
        ),
    })
}

/// "the basic computer (Black, level 2, 1 s per move, model 3 v3)".
pub fn computer_name(lang: Lang, c: &wire::mode::ComputerSeat) -> String {
    computer_text(lang, c, Some(c.colour))
}

/// The computer beside its colour's name: "the basic computer (level 2, 1 s per move, model 3
/// v3)" — the colour is already said.
pub fn computer_name_short(lang: Lang, c: &wire::mode::ComputerSeat) -> String {
    computer_text(lang, c, None)
}

fn computer_text(lang: Lang, c: &wire::mode::ComputerSeat, with_colour: Option<engine::Color>) -> String {
    let (id, version) = c
        .model
        .as_ref()
        .map_or((String::from("–"), String::from("–")), |m| (m.id.to_string(), m.version.to_string()));
    let (level, time) = (c.level.to_string(), duration_ms(c.move_ms));
    let mut params = vec![("level", level.as_str()), ("time", time.as_str()), ("id", &id), ("version", &version)];
    let shown = with_colour.map(|k| colour(lang, k));
    let key = match &shown {
        Some(name) => {
            params.push(("colour", name));
            "computer.name"
        }
        None => "computer.name_short",
    };
    t_with(lang, key, &params)
}

fn duration_ms(ms: u32) -> String {
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", f64::from(ms) / 1000.0)
    }
}

/// One settings problem as people read it: the value, why it is refused, what is allowed and
/// the clause (the allowed range is the validator's words, shared by the API's errors).
pub fn problem(lang: Lang, p: &wire::settings::SettingProblem) -> String {
    use wire::settings::ProblemKind;
    let key = match p.kind {
        ProblemKind::OutOfRange => "new.problem.out_of_range",
        ProblemKind::NotAllowed => "new.problem.not_allowed",
    };
    t_with(lang, key, &[("value", &p.value), ("allowed", &p.allowed), ("clause", &p.clause)])
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use wire::settings::arbitrary::any_settings;

    use super::*;

    fn space() -> MatchSettings {
        MatchSettings::space_default()
    }
    fn classic() -> MatchSettings {
        MatchSettings::classic_default(19)
    }

    #[test]
    fn summaries() {
        let sum = |s: &MatchSettings, l| settings_summary(l, s);
        let ko = sum(&classic(), Lang::KO);
        assert!(ko.contains(&"덤 6.5 (백)".to_string()), "{ko:?}");
        assert!(ko.contains(&"판: 19줄 (19×19)".to_string()), "{ko:?}");
        assert!(ko.contains(&"시간: 기본 20분 + 초읽기 30초 3회".to_string()), "{ko:?}");
        assert!(ko.contains(&"무르기: 1인당 3회 (상대 동의)".to_string()), "{ko:?}");
        let en = sum(&classic(), Lang::EN);
        assert!(en.contains(&"Komi 6.5 to White".to_string()), "{en:?}");
        assert!(en.contains(&"Time: 20 min + byo-yomi 3 × 30 s".to_string()), "{en:?}");
        assert!(en.contains(&"Disconnection grace: 2 min (then loss on time)".to_string()), "{en:?}");
        assert_eq!(ko.len(), en.len());

        let neg = MatchSettings { komi_half_points: -7, ..classic() };
        assert!(sum(&neg, Lang::KO).contains(&"덤 3.5 (흑)".to_string()));
        assert!(sum(&neg, Lang::EN).contains(&"Komi 3.5 to Black".to_string()));

        let s = MatchSettings { time: TimeControl::SpaceHours { black: 2, white: 3 }, ..space() };
        let ko = sum(&s, Lang::KO);
        assert!(ko.contains(&"덤 없음".to_string()), "{ko:?}");
        assert!(ko.contains(&"시간: 흑 2시간, 백 3시간 (초읽기 없음)".to_string()), "{ko:?}");
        assert!(ko.contains(&"판: 19×19×19 (x 1..19, y 1..19, z 1..19)".to_string()), "{ko:?}");
        assert!(ko.contains(&"연결 끊김: 5분 대기 후 관리자 판단".to_string()), "{ko:?}");
        let en = sum(&s, Lang::EN);
        assert!(en.contains(&"Time: Black 2 h, White 3 h (no byo-yomi)".to_string()), "{en:?}");
        assert!(en.contains(&"Outside assistance: none (no advice from spectators)".to_string()), "{en:?}");
        assert!(
            en.contains(&"Rules: Space (the common rules in force when the room is created)".to_string()),
            "{en:?}"
        );
        let pinned = MatchSettings {
            common_rules_version: Some(3),
            record_retention_days: Some(365),
            special_rules: vec![SpecialRule::UndoLimit { per_player: 2 }, SpecialRule::UndoLimit { per_player: 0 }],
            ..s
        };
        let en = sum(&pinned, Lang::EN);
        for line in [
            "Rules: Space (common rules 3)",
            "Record retention: 365 days after the end (dispute records are kept until resolved)",
            "Special rule: at most 2 undos per player",
            "Special rule: no undo",
        ] {
            assert!(en.contains(&line.to_string()), "{line}: {en:?}");
        }
        let ko = sum(&pinned, Lang::KO);
        assert!(ko.contains(&"기록 보존: 대국이 끝난 뒤 365일 (분쟁 기록은 해결될 때까지 보존)".to_string()), "{ko:?}");
        assert!(sum(&MatchSettings { record_retention_days: Some(0), ..space() }, Lang::EN)
            .contains(&"Record retention: kept for ever".to_string()));
        assert_eq!(duration(Lang::KO, 90), "1분 30초");
        assert_eq!(duration(Lang::EN, 3600), "1 h");
        assert_eq!(duration(Lang::EN, 0), "0 s");
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        /// The summaries never panic, whatever the settings (valid or not).
        #[test]
        fn summaries_never_panic_on_arbitrary_values(s in any_settings()) {
            let _ = settings_summary(Lang::KO, &s);
            let _ = settings_summary(Lang::EN, &s);
        }
    }
}
