//! Validation never panics, and every allowed value starts a game.

use super::*;
use proptest::prelude::*;

// --- never panics -----------------------------------------------------------------------------

use crate::settings::arbitrary::{any_settings, valid_settings};

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// validate, the engine conversions and serde never panic (the summaries: `app::text`); an error always
    /// lists at least one problem, and success of validate implies the conversions succeed.
    #[test]
    fn never_panics_on_arbitrary_values(s in any_settings()) {
        let v = s.validate();
        let _ = s.clone().normalized().validate();
        match &v {
            Ok(_) => {
                prop_assert!(s.engine_rules().is_ok());
                prop_assert!(s.geometry().is_ok());
            }
            Err(e) => {
                prop_assert!(!e.problems.is_empty());
                prop_assert!(!e.to_string().is_empty());
                prop_assert!(s.engine_rules().is_err());
            }
        }
        let j = serde_json::to_string(&s).unwrap();
        let back: MatchSettings = serde_json::from_str(&j).unwrap();
        prop_assert_eq!(back, s);
    }

    /// Arbitrary text as JSON never panics the deserialiser + validation.
    #[test]
    fn never_panics_on_arbitrary_json(text in any::<String>()) {
        if let Ok(s) = serde_json::from_str::<MatchSettings>(&text) {
            let _ = s.validate();
        }
    }

    /// Every combination of allowed values is accepted, and the engine can start the game.
    #[test]
    fn allowed_values_validate_and_start_a_game(s in valid_settings()) {
        prop_assert!(s.validate().is_ok(), "{:?}", s.validate().err().map(|e| e.to_string()));
        // The validated rules give back exactly the settings they came from.
        prop_assert_eq!(s.validate().unwrap().settings(), s.clone());
        let rules = s.engine_rules().unwrap();
        let geometry = s.geometry().unwrap();
        prop_assert_eq!(geometry.spec(), s.board);
        let game = Game::new(geometry, rules);
        prop_assert!(game.is_ok(), "{:?}", game.err());
        let game = game.unwrap();
        prop_assert_eq!(game.to_move(), if s.handicap >= 2 { Color::White } else { Color::Black });
    }
}

// --- coordinate labels (003 §7.1, §9.4) ---------------------------------------------------------

fn five() -> MatchSettings {
    MatchSettings { board: BoxSpec { x: Axis::one_to(5), y: Axis::one_to(5), z: Axis::one_to(5) }, ..space() }
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[test]
fn labels_default_to_numbers_and_rooms_stored_without_them_read_as_numeric() {
    assert!(space().labels.is_numeric());
    let mut json = serde_json::to_value(space()).unwrap();
    json.as_object_mut().unwrap().remove("labels");
    let back: MatchSettings = serde_json::from_value(json).unwrap();
    assert_eq!(back.labels, CoordLabels::default());
}

#[test]
fn builtin_and_custom_labels_map_to_the_same_points() {
    let english = CoordLabels::Builtin { x: LabelKind::English, y: LabelKind::Korean, z: LabelKind::Numeric };
    ok(&MatchSettings { labels: english.clone(), ..five() });
    let custom =
        CoordLabels::Custom { x: words("a A b B c"), y: words("i ii iii iv v"), z: words("가 나 다 라 마") };
    let s = MatchSettings { labels: custom.clone(), ..five() };
    ok(&s);
    let g = s.geometry().unwrap();
    let set = custom.label_set(&g).unwrap();
    // Case-sensitive: "A" and "a" are different lines of X.
    assert_eq!(set.parse(&g, "A,iii,가").unwrap(), g.index_of(2, 3, 1).unwrap());
    assert_eq!(set.parse(&g, "a,iii,가").unwrap(), g.index_of(1, 3, 1).unwrap());
    assert!(set.parse(&g, "C,i,가").is_err());
    let b = english.label_set(&g).unwrap();
    assert_eq!(b.format(&g, g.index_of(2, 3, 4).unwrap()).unwrap(), "B,다,4");
}

#[test]
fn custom_labels_are_refused_with_the_axis_and_the_rule() {
    let dup = CoordLabels::Custom { x: words("a b c d a"), y: words("1 2 3 4 5"), z: words("1 2 3 4 5") };
    let m = messages(&MatchSettings { labels: dup, ..five() });
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(m[0].starts_with("labels.x: \"a\" is not allowed") && m[0].contains("(003 §7.1, §9.4)"), "{m:?}");
    let short = CoordLabels::Custom { x: words("a b c d e"), y: words("1 2 3 4"), z: words("1 2 3 4 5") };
    let m = messages(&MatchSettings { labels: short, ..five() });
    assert!(m[0].starts_with("labels.y: 4 labels is not allowed") && m[0].contains("has 5 lines"), "{m:?}");
    let long = CoordLabels::Custom { x: words("a b c d abcdefg"), y: words("1 2 3 4 5"), z: words("1 2 3 4 5") };
    refused_with(
        &MatchSettings { labels: long, ..five() },
        "labels.x[4]: \"abcdefg\" is out of range; allowed 1 to 6 characters without control characters (003 §7.1)",
    );
    refused_with(
        &MatchSettings {
            labels: CoordLabels::Builtin { x: LabelKind::English, y: LabelKind::English, z: LabelKind::English },
            ..classic()
        },
        "labels: non-numeric labels is not allowed; allowed numeric (Classic boards use vertices) (000 §3)",
    );
}

#[test]
fn modes_are_checked_with_their_ranges() {
    use crate::mode::{ComputerSeat, Opponent, RoomMode};
    let with = |mode: RoomMode| {
        let mut s = MatchSettings::classic_default(9);
        s.mode = mode;
        s.validate().err().map(|e| e.problems.into_iter().map(|p| (p.path, p.allowed)).collect::<Vec<_>>())
    };
    let seat =
        |level, move_ms| ComputerSeat { colour: Color::Black, level, move_ms, model_id: None, model: None, seed: 0 };
    assert_eq!(with(RoomMode::OneDevice { second_player: "Kim".into() }), None);
    assert_eq!(
        with(RoomMode::OneDevice { second_player: "   ".into() }),
        Some(vec![("mode.second_player".into(), "1..=40 characters".into())])
    );
    assert_eq!(with(RoomMode::VsComputer { computer: seat(2, 1000), opponent: Opponent::Creator }), None);
    assert_eq!(
        with(RoomMode::Practice { computer: Some(seat(3, 50)) }),
        Some(vec![
            ("mode.computer.level".into(), "1..=2".into()),
            ("mode.computer.move_ms".into(), "100..=10000 ms".into())
        ])
    );
    // A program game: both seats checked, and they play opposite colours.
    let program = |a: ComputerSeat, b: ComputerSeat| RoomMode::ProgramGame {
        first: Box::new(a),
        second: Box::new(b),
        series: 1,
        game: 1,
    };
    let white = ComputerSeat { colour: Color::White, ..seat(1, 100) };
    assert_eq!(with(program(seat(2, 1000), white.clone())), None);
    assert_eq!(
        with(program(seat(2, 1000), seat(1, 100))),
        Some(vec![("mode.second.colour".into(), "the other colour".into())])
    );
    assert_eq!(
        with(program(seat(0, 1000), ComputerSeat { move_ms: 20_000, ..white })),
        Some(vec![
            ("mode.first.level".into(), "1..=2".into()),
            ("mode.second.move_ms".into(), "100..=10000 ms".into())
        ])
    );
    // Rooms stored before modes existed read as matches.
    let mut v = serde_json::to_value(MatchSettings::classic_default(9)).unwrap();
    v.as_object_mut().unwrap().remove("mode");
    let old: MatchSettings = serde_json::from_value(v).unwrap();
    assert_eq!(old.mode, RoomMode::Match);
}
