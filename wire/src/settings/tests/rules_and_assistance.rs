//! Special rules within the version's permits, assistance, the version and retention, and every problem collected at once.

use super::*;

// --- special rules, assistance, version -------------------------------------------------------

#[test]
fn special_rules_bounds() {
    // 003 §1.4: at most ten; notes bounded, trimmed, non-empty text; one undo limit.
    let ten: Vec<SpecialRule> = (0..10).map(|i| note(&format!("rule {i}"))).collect();
    ok(&MatchSettings { special_rules: ten.clone(), ..space() });
    let mut eleven = ten;
    eleven.push(note("rule 10"));
    refused_with(
        &MatchSettings { special_rules: eleven, ..space() },
        "special_rules: 11 entries is out of range; allowed 0 to 10 entries (003 §1.4)",
    );
    ok(&MatchSettings { special_rules: vec![note(&"가".repeat(200))], ..space() });
    refused_with(
        &MatchSettings { special_rules: vec![note(&"a".repeat(201))], ..space() },
        "special_rules[0].text: a text of 201 characters is out of range; allowed 1 to 200 characters (003 §1.4)",
    );
    refused_with(
        &MatchSettings { special_rules: vec![note("ok"), note("   ")], ..space() },
        "special_rules[1].text: \"   \" is not allowed; allowed non-empty text (003 §1.4)",
    );
    refused_with(
        &MatchSettings { special_rules: vec![note(" padded")], ..space() },
        "special_rules[0].text: \" padded\" is not allowed; allowed text without leading or trailing spaces (003 §1.4)",
    );
    refused_with(
        &MatchSettings { special_rules: vec![note("a\nb")], ..space() },
        "special_rules[0].text: \"a\\nb\" is not allowed; allowed text without control characters (line breaks, tabs) (003 §1.4)",
    );
    refused_with(
        &MatchSettings { special_rules: vec![note("same"), note("same")], ..space() },
        "special_rules[1].text: \"same\" is not allowed; allowed each note once (003 §1.4)",
    );
    let limit = |n| SpecialRule::UndoLimit { per_player: n };
    ok(&MatchSettings { special_rules: vec![limit(2), note("x")], ..space() });
    refused_with(
        &MatchSettings { special_rules: vec![limit(2), limit(3)], ..space() },
        "special_rules[1]: 3 is not allowed; allowed one undo limit (003 §1.4)",
    );
    // 000 §7: Classic has no special rules.
    refused_with(
        &MatchSettings { special_rules: vec![note("x")], ..classic() },
        "special_rules: 1 entries is not allowed; allowed none for the Classic preset (house rules are options) (000 §7)",
    );
    // normalized() trims notes and drops empties, making the settings valid.
    let n = MatchSettings { special_rules: vec![note("  a  "), note(""), limit(1)], ..space() }.normalized();
    assert_eq!(n.special_rules, vec![note("a"), limit(1)]);
    ok(&n);
}

#[test]
fn special_rules_within_the_versions_permits() {
    // 003 §1.4: only kinds the pinned version permits, within its bounds; the clause named
    // is the permit's (003 §5.1 for undo).
    let permits = Permits::first();
    let s = MatchSettings { special_rules: vec![SpecialRule::UndoLimit { per_player: 10 }, note("n")], ..space() };
    assert_eq!(s.check_permits(1, &permits), Ok(()));
    let s = MatchSettings { special_rules: vec![SpecialRule::UndoLimit { per_player: 11 }], ..space() };
    assert_eq!(
        s.check_permits(3, &permits).unwrap_err().to_string(),
        "special_rules[0].per_player: 11 is out of range; allowed 0 to 10 per player under common rules version 3 \
         (003 §1.4) (003 §5.1)"
    );
    let notes_only =
        Permits { kinds: permits.kinds.iter().filter(|p| p.kind == SpecialRuleKind::Note).cloned().collect() };
    let s = MatchSettings { special_rules: vec![SpecialRule::UndoLimit { per_player: 1 }], ..space() };
    assert_eq!(
        s.check_permits(2, &notes_only).unwrap_err().to_string(),
        "special_rules[0]: undo_limit is not allowed; allowed the kinds common rules version 2 permits: note (003 §1.4)"
    );
}

#[test]
fn stored_free_text_rules_and_the_release_name_read_as_notes_and_version_1() {
    // Rooms stored before special rules had kinds and versions were numbers still load.
    let mut v = serde_json::to_value(space()).unwrap();
    v["special_rules"] = serde_json::json!(["교대로 초대 코드를 쓴다", {"kind": "undo_limit", "per_player": 2}]);
    v["common_rules_version"] = serde_json::json!("1.9.1-rc1");
    let s: MatchSettings = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(s.special_rules, vec![note("교대로 초대 코드를 쓴다"), SpecialRule::UndoLimit { per_player: 2 }]);
    assert_eq!(s.common_rules_version, Some(1));
    // The same from text, as the browser reads it.
    let text = serde_json::to_string(&v).unwrap();
    assert_eq!(serde_json::from_str::<MatchSettings>(&text).unwrap(), s);
    v["common_rules_version"] = serde_json::json!("0.1");
    assert!(serde_json::from_value::<MatchSettings>(v.clone()).is_err());
    v["common_rules_version"] = serde_json::json!(1);
    v["special_rules"] = serde_json::json!([7]);
    let e = serde_json::from_value::<MatchSettings>(v).unwrap_err().to_string();
    assert!(e.contains("expected a special rule, or a text"), "{e}");
}

/// The settings' tagged enums are read tag first (the `tag_first` crate): the tag anywhere,
/// unknown fields refused naming the allowed ones, on unit variants too.
#[test]
fn tagged_settings_read_in_any_key_order_and_refuse_unknown_fields() {
    let t: TimeControl = serde_json::from_str(r#"{"period_s":30,"main_s":0,"kind":"byoyomi","periods":3}"#).unwrap();
    assert_eq!(t, TimeControl::Byoyomi { main_s: 0, period_s: 30, periods: 3 });
    let e = serde_json::from_str::<TimeControl>(r#"{"kind":"fischer","main_s":60,"increment":5}"#).unwrap_err();
    assert!(e.to_string().contains("unknown field `increment`, expected `main_s` or `increment_s`"), "{e}");
    let e = serde_json::from_str::<AssistanceScope>(r#"{"kind":"none","assistants":[]}"#).unwrap_err();
    assert!(e.to_string().contains("unknown field `assistants`, there are no fields"), "{e}");
    let e = serde_json::from_str::<TimeControl>(r#"{"kind":"hourglass"}"#).unwrap_err();
    assert!(
        e.to_string()
            .contains("unknown variant `hourglass`, expected one of `space_hours`, `none`, `byoyomi`, `fischer`"),
        "{e}"
    );
}

#[test]
fn assistance_scope() {
    // 003 §6.4: help only as agreed, recording who and within what scope.
    for s in [space(), classic()] {
        ok(&MatchSettings {
            assistance: AssistanceScope::Agreed { assistants: vec![helper("Coach Kim")] },
            ..s.clone()
        });
        let four = (0..4).map(|i| helper(&format!("p{i}"))).collect();
        ok(&MatchSettings { assistance: AssistanceScope::Agreed { assistants: four }, ..s });
    }
    refused_with(
        &MatchSettings { assistance: AssistanceScope::Agreed { assistants: vec![] }, ..space() },
        "assistance.assistants: an empty list is not allowed; allowed 1 to 4 named assistants (or kind none) (003 §6.4)",
    );
    let five = (0..5).map(|i| helper(&format!("p{i}"))).collect();
    refused_with(
        &MatchSettings { assistance: AssistanceScope::Agreed { assistants: five }, ..space() },
        "assistance.assistants: 5 entries is out of range; allowed 1 to 4 assistants (003 §6.4)",
    );
    refused_with(
        &MatchSettings {
            assistance: AssistanceScope::Agreed { assistants: vec![helper("x".repeat(81).as_str())] },
            ..space()
        },
        "assistance.assistants[0].name: a text of 81 characters is out of range; allowed 1 to 80 characters (003 §6.4)",
    );
    refused_with(
        &MatchSettings {
            assistance: AssistanceScope::Agreed { assistants: vec![helper("a"), helper("a")] },
            ..space()
        },
        "assistance.assistants[1].name: \"a\" is not allowed; allowed each assistant once (003 §6.4)",
    );
}

#[test]
fn version_and_retention_ranges() {
    // 003 §1.5: versions count from 1; 003 §10.1: retention 0–36,500 days.
    refused_with(
        &MatchSettings { common_rules_version: Some(0), ..space() },
        "common_rules_version: 0 is out of range; allowed 1 or more (003 §1.5)",
    );
    ok(&MatchSettings { common_rules_version: Some(7), record_retention_days: Some(36_500), ..space() });
    ok(&MatchSettings { record_retention_days: Some(0), ..classic() });
    refused_with(
        &MatchSettings { record_retention_days: Some(36_501), ..classic() },
        "record_retention_days: 36501 is out of range; allowed 0 to 36500 days (0 = kept for ever) (003 §10.1)",
    );
}

#[test]
fn all_problems_are_collected() {
    let s = MatchSettings {
        komi_half_points: -2,
        draw_offer: true,
        handicap: 3,
        time: TimeControl::SpaceHours { black: 0, white: 9 },
        disconnect_grace_s: 60,
        common_rules_version: Some(0),
        ..space()
    };
    let e = s.validate().unwrap_err();
    let paths: Vec<&str> = e.problems.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(
        paths,
        ["komi", "handicap", "time.black", "time.white", "draw_offer", "disconnect_grace_s", "common_rules_version"]
    );
    assert!(e.concerns(Field::Time) && !e.concerns(Field::Board));
    // Display: one line per problem.
    let text = e.to_string();
    assert_eq!(text.lines().count(), 7);
    assert!(text
        .starts_with("komi: -1 is out of range; allowed 0 to 1000 in steps of 0.5 for the Space preset (003 §4.3)\n"));
    // The engine conversions refuse invalid settings with the same problems.
    assert_eq!(s.engine_rules().unwrap_err(), e);
    assert_eq!(s.geometry().unwrap_err(), e);
}
