//! The settings' JSON form, and the engine rules they map to.

use super::*;

// --- serde ------------------------------------------------------------------------------------

#[test]
fn json_round_trip() {
    let mut fancy = MatchSettings {
        komi_half_points: 7,
        komi_to: Color::Black,
        capture_bonus: true,
        board: BoxSpec { x: Axis::new(-2, 2), y: Axis::one_to(7), z: Axis::one_to(3) },
        time: TimeControl::SpaceHours { black: 2, white: 4 },
        colours: ColourAssignment::HostWhite,
        special_rules: vec![note("교대로 초대 코드를 쓴다"), SpecialRule::UndoLimit { per_player: 2 }],
        common_rules_version: Some(3),
        record_retention_days: Some(365),
        assistance: AssistanceScope::Agreed {
            assistants: vec![
                helper("KataGo 1.15"),
                Assistant {
                    name: "홍길동".into(),
                    kind: AssistantKind::Person,
                    helps: AssistedPlayer::Guest,
                    extent: AssistanceExtent::ScoringReview,
                },
            ],
        },
        ..space()
    };
    ok(&fancy);
    let cases = [
        space(),
        classic(),
        fancy.clone(),
        MatchSettings {
            time: TimeControl::classic_default_fischer(9),
            undo: UndoAllowance::Off,
            ..MatchSettings::classic_default(9)
        },
        MatchSettings { time: TimeControl::classic_default_none(), undo: UndoAllowance::Unlimited, ..classic() },
    ];
    for s in cases {
        let j = serde_json::to_string(&s).unwrap();
        let back: MatchSettings = serde_json::from_str(&j).unwrap();
        assert_eq!(back, s, "{j}");
    }
    // The wire format is stable and readable.
    let v = serde_json::to_value(classic()).unwrap();
    assert_eq!(v["preset"], "classic");
    assert_eq!(v["komi_half_points"], 13);
    assert_eq!(v["komi_to"], "white");
    assert_eq!(v["scoring"], "territory");
    assert_eq!(v["ko"], "positional_superko");
    assert_eq!(v["time"], serde_json::json!({"kind": "byoyomi", "main_s": 1200, "period_s": 30, "periods": 3}));
    assert_eq!(v["undo"], serde_json::json!({"limited": 3}));
    assert_eq!(v["colours"], "nigiri");
    assert_eq!(v["assistance"], serde_json::json!({"kind": "none"}));
    fancy.undo = UndoAllowance::Unlimited;
    assert_eq!(serde_json::to_value(fancy).unwrap()["undo"], "unlimited");
}

#[test]
fn unknown_fields_are_refused() {
    let mut v = serde_json::to_value(space()).unwrap();
    v["byo_yomi"] = serde_json::json!(true);
    let e = serde_json::from_value::<MatchSettings>(v).unwrap_err().to_string();
    assert!(e.contains("unknown field `byo_yomi`"), "{e}");

    let mut v = serde_json::to_value(classic()).unwrap();
    v["time"]["overtime"] = serde_json::json!(5);
    assert!(serde_json::from_value::<MatchSettings>(v).is_err());

    let mut v = serde_json::to_value(MatchSettings {
        assistance: AssistanceScope::Agreed { assistants: vec![helper("a")] },
        ..space()
    })
    .unwrap();
    v["assistance"]["assistants"][0]["phone"] = serde_json::json!("123");
    assert!(serde_json::from_value::<MatchSettings>(v).is_err());

    // A missing field is refused too (no silent defaults in an agreement).
    let mut v = serde_json::to_value(space()).unwrap();
    v.as_object_mut().unwrap().remove("komi_to");
    assert!(serde_json::from_value::<MatchSettings>(v).is_err());
}

// --- engine mapping ---------------------------------------------------------------------------

#[test]
fn engine_rules_for_space() {
    // 003: immediate rule, Space formula; agreed bonus and komi recipient.
    assert_eq!(space().engine_rules().unwrap(), Rules::space());
    let s = MatchSettings { komi_half_points: 13, komi_to: Color::Black, capture_bonus: true, ..space() };
    let r = s.engine_rules().unwrap();
    assert_eq!((r.ko, r.scoring, r.capture_bonus), (KoRule::Immediate, ScoringMethod::Space, true));
    assert_eq!((r.komi.half_points(), r.komi_to, r.handicap), (13, Color::Black, 0));
    let g = MatchSettings { board: BoxSpec { x: Axis::new(-2, 2), y: Axis::one_to(7), z: Axis::one_to(3) }, ..space() }
        .geometry()
        .unwrap();
    assert_eq!(g.dims(), (5, 7, 3));
    assert_eq!(space().geometry().unwrap().len(), 6859);
    // The engine accepts them together.
    let game = Game::new(space().geometry().unwrap(), space().engine_rules().unwrap()).unwrap();
    assert_eq!(game.to_move(), Color::Black);
}

#[test]
fn engine_rules_for_classic() {
    // 000 §2 presets match the engine's.
    assert_eq!(classic().engine_rules().unwrap(), Rules::classic());
    let area = MatchSettings { scoring: ScoringMethod::Area, komi_half_points: 15, ..classic() };
    assert_eq!(area.engine_rules().unwrap(), Rules::classic_area());
    let h4 = MatchSettings { handicap: 4, komi_half_points: 1, colours: ColourAssignment::HostBlack, ..classic() };
    assert_eq!(h4.engine_rules().unwrap(), Rules::classic_handicap(4));
    // Handicap stones are placed and White moves first (000 §4).
    let game = Game::new(h4.geometry().unwrap(), h4.engine_rules().unwrap()).unwrap();
    assert_eq!(game.to_move(), Color::White);
    assert_eq!(game.board().stone_count(Color::Black), 4);
    assert_eq!(game.phase(), Phase::Playing);
    // Korean ko rule carried over.
    let k = MatchSettings { ko: KoRule::Korean, ..classic() };
    assert_eq!(k.engine_rules().unwrap().ko, KoRule::Korean);
    // Negative komi (White −3.5) is komi 3.5 for Black in the engine; zero stays with White.
    let neg = MatchSettings { komi_half_points: -7, ..classic() };
    let r = neg.engine_rules().unwrap();
    assert_eq!((r.komi.half_points(), r.komi_to), (7, Color::Black));
    let zero = MatchSettings { komi_half_points: 0, ..classic() };
    let r = zero.engine_rules().unwrap();
    assert_eq!((r.komi.half_points(), r.komi_to), (0, Color::White));
    assert_eq!(MatchSettings::classic_default(13).geometry().unwrap().dims(), (13, 13, 1));
}
