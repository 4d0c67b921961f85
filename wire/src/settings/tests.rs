//! Tests of the match settings (003 §1.1–1.5, §4.3, §5.1, §6.1, §6.4, §10.1;
//! 000 §2, §4, §7, §8.5).

use super::*;
use engine::{Game, Phase};
use proptest::prelude::*;

fn space() -> MatchSettings {
    MatchSettings::space_default()
}
fn classic() -> MatchSettings {
    MatchSettings::classic_default(19)
}

/// The messages of a refused setting.
fn messages(s: &MatchSettings) -> Vec<String> {
    match s.validate() {
        Ok(_) => Vec::new(),
        Err(e) => e.problems.iter().map(ToString::to_string).collect(),
    }
}

/// Asserts that `s` is refused with exactly this one message.
#[track_caller]
fn refused_with(s: &MatchSettings, msg: &str) {
    assert_eq!(messages(s), vec![msg.to_string()]);
}

#[track_caller]
fn ok(s: &MatchSettings) {
    assert!(s.validate().is_ok(), "{:?}", messages(s));
}

// --- defaults ---------------------------------------------------------------------------------

#[test]
fn defaults_are_valid() {
    // 003 §1.1 default board 19×19×19; 000 §2 defaults per size.
    let s = space();
    ok(&s);
    assert_eq!(s.board, BoxSpec::DEFAULT);
    assert_eq!(s.common_rules_version, None, "pinned by the server at creation");
    assert_eq!(s.record_retention_days, None, "the site's default, pinned at creation");
    for (size, main) in [(9u16, 180u32), (13, 600), (19, 1200)] {
        let c = MatchSettings::classic_default(size);
        ok(&c);
        // 000 §2: byo-yomi, main per size, 30 s × 3; komi 6.5 territory; undo 3; 180 / 120 s.
        assert_eq!(c.time, TimeControl::Byoyomi { main_s: main, period_s: 30, periods: 3 });
        assert_eq!(
            (c.komi_half_points, c.komi_to, c.scoring, c.ko),
            (13, Color::White, ScoringMethod::Territory, KoRule::PositionalSuperko)
        );
        assert_eq!((c.undo, c.draw_offer, c.atari_warning), (UndoAllowance::Limited(3), true, true));
        assert_eq!((c.scoring_deadline_s, c.disconnect_grace_s, c.colours), (180, 120, ColourAssignment::Nigiri));
        assert_eq!(Geometry::from_spec(c.board).unwrap().dims(), (size as usize, size as usize, 1));
    }
    // Unsupported size: settings are built, validation refuses them (000 §2).
    refused_with(
        &MatchSettings::classic_default(11),
        "board: 11×11×1 (x 1..11, y 1..11, z 1..1) is not allowed; allowed 9×9, 13×13 or 19×19 flat boards (axes 1..n, depth 1) for the Classic preset (000 §2)",
    );
}

#[test]
fn classic_default_komi_and_time_helpers() {
    // 000 §2 / §4 step 4: 6.5 territory, 7.5 area, 0.5 handicap.
    assert_eq!(classic_default_komi_half_points(ScoringMethod::Territory, 0), 13);
    assert_eq!(classic_default_komi_half_points(ScoringMethod::Area, 0), 15);
    assert_eq!(classic_default_komi_half_points(ScoringMethod::Area, 4), 1);
    assert_eq!(classic_default_komi_half_points(ScoringMethod::Territory, 2), 1);
    assert_eq!(TimeControl::classic_default_fischer(13), TimeControl::Fischer { main_s: 600, increment_s: 10 });
    assert_eq!(TimeControl::classic_default_none(), TimeControl::None { idle_limit_s: 600 });
}

// --- komi -------------------------------------------------------------------------------------

#[test]
fn space_komi_boundaries() {
    // 003 §4.3: 0 or positive multiples of 0.5, to either colour; engine maximum 1000.
    for k in [0, 1, 13, 2000] {
        for to in [Color::Black, Color::White] {
            ok(&MatchSettings { komi_half_points: k, komi_to: to, ..space() });
        }
    }
    refused_with(
        &MatchSettings { komi_half_points: -2, ..space() },
        "komi: -1 is out of range; allowed 0 to 1000 in steps of 0.5 for the Space preset (003 §4.3)",
    );
    refused_with(
        &MatchSettings { komi_half_points: -1, ..space() },
        "komi: -0.5 is out of range; allowed 0 to 1000 in steps of 0.5 for the Space preset (003 §4.3)",
    );
    refused_with(
        &MatchSettings { komi_half_points: 2001, ..space() },
        "komi: 1000.5 is out of range; allowed 0 to 1000 in steps of 0.5 for the Space preset (003 §4.3)",
    );
}

#[test]
fn classic_komi_boundaries() {
    // 000 §2: −10..10 in steps of 0.5, added to White.
    for k in [-20, -1, 0, 13, 20] {
        ok(&MatchSettings { komi_half_points: k, ..classic() });
    }
    refused_with(
        &MatchSettings { komi_half_points: -21, ..classic() },
        "komi: -10.5 is out of range; allowed -10 to 10 in steps of 0.5 for the Classic preset (000 §2)",
    );
    refused_with(
        &MatchSettings { komi_half_points: 21, ..classic() },
        "komi: 10.5 is out of range; allowed -10 to 10 in steps of 0.5 for the Classic preset (000 §2)",
    );
    refused_with(
        &MatchSettings { komi_to: Color::Black, ..classic() },
        "komi_to: black is not allowed; allowed white for the Classic preset (komi is added to White; a negative komi favours Black) (000 §2)",
    );
}

// --- board ------------------------------------------------------------------------------------

#[test]
fn space_accepts_unequal_odd_axes_and_refuses_bad_ones() {
    // 003 §1.1: odd lengths 1..=25, unequal allowed, endpoints need not be odd, |v| ≤ 1,000,000.
    for b in [
        BoxSpec { x: Axis::new(-2, 2), y: Axis::new(0, 6), z: Axis::new(1, 1) },
        BoxSpec { x: Axis::one_to(25), y: Axis::one_to(1), z: Axis::new(999_998, 1_000_000) },
        BoxSpec { x: Axis::new(-1_000_000, -999_976), y: Axis::one_to(25), z: Axis::one_to(25) },
    ] {
        ok(&MatchSettings { board: b, ..space() });
    }
    refused_with(
        &MatchSettings { board: BoxSpec { x: Axis::one_to(4), ..BoxSpec::DEFAULT }, ..space() },
        "board.x: length 4 (1..4) is not allowed; allowed odd lengths 1 to 25 (003 §1.1)",
    );
    refused_with(
        &MatchSettings { board: BoxSpec { y: Axis::one_to(27), ..BoxSpec::DEFAULT }, ..space() },
        "board.y: length 27 (1..27) is not allowed; allowed odd lengths 1 to 25 (003 §1.1)",
    );
    refused_with(
        &MatchSettings { board: BoxSpec { z: Axis::new(1_000_000, 1_000_001), ..BoxSpec::DEFAULT }, ..space() },
        "board.z: endpoint 1000001 is out of range; allowed endpoints from -1000000 to 1000000 (003 §1.1)",
    );
    refused_with(
        &MatchSettings { board: BoxSpec { x: Axis::new(5, 3), ..BoxSpec::DEFAULT }, ..space() },
        "board.x: start 5 after end 3 is not allowed; allowed start ≤ end (003 §1.1)",
    );
    // All three axes bad: three problems.
    let bad = BoxSpec { x: Axis::one_to(2), y: Axis::new(i64::MIN, i64::MAX), z: Axis::new(0, -1) };
    let e = MatchSettings { board: bad, ..space() }.validate().unwrap_err();
    let paths: Vec<&str> = e.problems.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths, ["board.x", "board.y", "board.z"]);
}

#[test]
fn classic_refuses_non_flat_and_non_standard_boards() {
    // 000 §2: flat 9 / 13 / 19 only.
    for b in [
        BoxSpec { x: Axis::one_to(19), y: Axis::one_to(19), z: Axis::one_to(3) },
        BoxSpec { x: Axis::new(0, 18), y: Axis::new(0, 18), z: Axis::one_to(1) },
        BoxSpec { x: Axis::one_to(9), y: Axis::one_to(13), z: Axis::one_to(1) },
        BoxSpec { x: Axis::one_to(11), y: Axis::one_to(11), z: Axis::one_to(1) },
        BoxSpec::DEFAULT,
    ] {
        let e = MatchSettings { board: b, ..classic() }.validate().unwrap_err();
        assert_eq!(e.problems.len(), 1, "{e}");
        assert_eq!(e.problems[0].field, Field::Board);
        assert_eq!(e.problems[0].clause, "000 §2");
    }
    refused_with(
        &MatchSettings { board: BoxSpec { x: Axis::one_to(19), y: Axis::one_to(19), z: Axis::one_to(3) }, ..classic() },
        "board: 19×19×3 (x 1..19, y 1..19, z 1..3) is not allowed; allowed 9×9, 13×13 or 19×19 flat boards (axes 1..n, depth 1) for the Classic preset (000 §2)",
    );
}

// --- rules choices ----------------------------------------------------------------------------

#[test]
fn preset_fixes_scoring_ko_and_bonus() {
    // 003 §4.1 / §2.3: Space formula and immediate rule; 000 §2 Classic choices.
    refused_with(
        &MatchSettings { ko: KoRule::PositionalSuperko, ..space() },
        "ko: positional_superko is not allowed; allowed immediate for the Space preset (003 §2.3)",
    );
    refused_with(
        &MatchSettings { scoring: ScoringMethod::Area, ..space() },
        "scoring: area is not allowed; allowed space for the Space preset (003 §4.1)",
    );
    refused_with(
        &MatchSettings { ko: KoRule::Immediate, ..classic() },
        "ko: immediate is not allowed; allowed positional_superko or korean for the Classic preset (000 §2)",
    );
    refused_with(
        &MatchSettings { scoring: ScoringMethod::Space, ..classic() },
        "scoring: space is not allowed; allowed territory or area for the Classic preset (000 §2)",
    );
    refused_with(
        &MatchSettings { capture_bonus: true, ..classic() },
        "capture_bonus: true is not allowed; allowed false for the Classic preset (territory counts prisoners, area does not) (000 §2)",
    );
    ok(&MatchSettings { capture_bonus: true, ..space() }); // 003 §1.3
    ok(&MatchSettings { ko: KoRule::Korean, scoring: ScoringMethod::Area, komi_half_points: 15, ..classic() });
}

#[test]
fn handicap_boundaries_and_colours() {
    // 000 §2: 0, 2..=9; 9×9 0, 2..=5; handicap games: host chooses (no nigiri).
    let hb = ColourAssignment::HostBlack;
    for h in [0, 2, 9] {
        ok(&MatchSettings { handicap: h, colours: hb, ..classic() });
    }
    refused_with(
        &MatchSettings { handicap: 1, colours: hb, ..classic() },
        "handicap: 1 is out of range; allowed 0 or 2 to 9 (000 §2)",
    );
    refused_with(
        &MatchSettings { handicap: 10, colours: hb, ..classic() },
        "handicap: 10 is out of range; allowed 0 or 2 to 9 (000 §2)",
    );
    let nine = MatchSettings::classic_default(9);
    ok(&MatchSettings { handicap: 5, colours: ColourAssignment::HostWhite, ..nine.clone() });
    refused_with(
        &MatchSettings { handicap: 6, colours: hb, ..nine },
        "handicap: 6 is out of range; allowed 0 or 2 to 5 on 9×9 (000 §2)",
    );
    refused_with(
        &MatchSettings { handicap: 2, ..classic() },
        "colours: nigiri is not allowed; allowed host_black or host_white in a handicap game (000 §2)",
    );
    refused_with(
        &MatchSettings { handicap: 2, ..space() },
        "handicap: 2 is out of range; allowed 0 for the Space preset (003 §1.2)",
    );
}

// --- time -------------------------------------------------------------------------------------

#[test]
fn space_hours_boundaries() {
    // 003 §1.2: 1–5 whole hours each, may differ; no byo-yomi.
    for (b, w) in [(1, 1), (5, 5), (1, 5), (3, 2)] {
        ok(&MatchSettings { time: TimeControl::SpaceHours { black: b, white: w }, ..space() });
    }
    refused_with(
        &MatchSettings { time: TimeControl::SpaceHours { black: 0, white: 1 }, ..space() },
        "time.black: 0 is out of range; allowed 1 to 5 whole hours (003 §1.2)",
    );
    refused_with(
        &MatchSettings { time: TimeControl::SpaceHours { black: 1, white: 6 }, ..space() },
        "time.white: 6 is out of range; allowed 1 to 5 whole hours (003 §1.2)",
    );
    refused_with(
        &MatchSettings { time: TimeControl::classic_default_byoyomi(19), ..space() },
        "time.kind: byoyomi is not allowed; allowed space_hours for the Space preset (1 to 5 whole hours each, no byo-yomi) (003 §1.2)",
    );
    refused_with(
        &MatchSettings { time: TimeControl::SpaceHours { black: 1, white: 1 }, ..classic() },
        "time.kind: space_hours is not allowed; allowed none, byoyomi or fischer for the Classic preset (000 §2)",
    );
}

#[test]
fn classic_time_boundaries() {
    // 000 §2 timeControl ranges.
    let by = |main_s, period_s, periods| MatchSettings {
        time: TimeControl::Byoyomi { main_s, period_s, periods },
        ..classic()
    };
    for (m, p, n) in [(0, 10, 1), (3600, 60, 5), (1200, 20, 3), (180, 30, 2)] {
        ok(&by(m, p, n));
    }
    refused_with(&by(3601, 30, 3), "time.main_s: 3601 is out of range; allowed 0 to 3600 seconds (000 §2)");
    refused_with(&by(600, 15, 3), "time.period_s: 15 is not allowed; allowed 10, 20, 30 or 60 (000 §2)");
    refused_with(&by(600, 30, 0), "time.periods: 0 is out of range; allowed 1 to 5 (000 §2)");
    refused_with(&by(600, 30, 6), "time.periods: 6 is out of range; allowed 1 to 5 (000 §2)");

    let fi = |main_s, increment_s| MatchSettings { time: TimeControl::Fischer { main_s, increment_s }, ..classic() };
    for (m, i) in [(1, 0), (3600, 30), (600, 10)] {
        ok(&fi(m, i));
    }
    refused_with(&fi(600, 31), "time.increment_s: 31 is out of range; allowed 0 to 30 seconds (000 §2)");
    refused_with(&fi(3601, 0), "time.main_s: 3601 is out of range; allowed 0 to 3600 seconds (000 §2)");
    // 000 §8.5: Fischer deadline = remaining main time, so 0 would lose at once.
    refused_with(
        &fi(0, 30),
        "time.main_s: 0 is not allowed; allowed 1 to 3600 seconds with fischer (the increment is added only after a move) (000 §8.5)",
    );

    for idle in [300, 600] {
        ok(&MatchSettings { time: TimeControl::None { idle_limit_s: idle }, ..classic() });
    }
    refused_with(
        &MatchSettings { time: TimeControl::None { idle_limit_s: 900 }, ..classic() },
        "time.idle_limit_s: 900 is not allowed; allowed 300 or 600 (000 §2)",
    );
}

// --- undo, draw, deadlines --------------------------------------------------------------------

#[test]
fn undo_and_draw_offer() {
    // 000 §2: off / 1 / 3 / unlimited. 003 §5.1: Space undo by consent, no allowance.
    for u in [UndoAllowance::Off, UndoAllowance::Limited(1), UndoAllowance::Limited(3), UndoAllowance::Unlimited] {
        ok(&MatchSettings { undo: u, ..classic() });
    }
    refused_with(
        &MatchSettings { undo: UndoAllowance::Limited(2), ..classic() },
        "undo.limited: 2 is not allowed; allowed 1 or 3 (or undo off / unlimited) (000 §2)",
    );
    refused_with(
        &MatchSettings { undo: UndoAllowance::Off, ..space() },
        "undo: off is not allowed; allowed unlimited for the Space preset (every request needs the opponent's consent) (003 §5.1)",
    );
    ok(&MatchSettings { draw_offer: false, ..classic() });
    refused_with(
        &MatchSettings { draw_offer: true, ..space() },
        "draw_offer: true is not allowed; allowed false for the Space preset (003 §4.1)",
    );
    // Atari warning: option in both (000 §2; 003 §6.4 agreed program help).
    ok(&MatchSettings { atari_warning: true, ..space() });
    ok(&MatchSettings { atari_warning: false, ..classic() });
}

#[test]
fn deadline_boundaries() {
    // 000 §2: scoring deadline 120/180/300, disconnection grace 60/120/300.
    for d in [120, 180, 300] {
        ok(&MatchSettings { scoring_deadline_s: d, ..classic() });
    }
    for g in [60, 120, 300] {
        ok(&MatchSettings { disconnect_grace_s: g, ..classic() });
    }
    refused_with(
        &MatchSettings { scoring_deadline_s: 240, ..classic() },
        "scoring_deadline_s: 240 is not allowed; allowed 120, 180 or 300 (000 §2)",
    );
    refused_with(
        &MatchSettings { disconnect_grace_s: 90, ..classic() },
        "disconnect_grace_s: 90 is not allowed; allowed 60, 120 or 300 (000 §2)",
    );
    // 003 §10.1: scoring-wait alert 0–10,080 minutes; 003 §6.1: five-minute wait.
    for d in [0, 60, 604_800] {
        ok(&MatchSettings { scoring_deadline_s: d, ..space() });
    }
    refused_with(
        &MatchSettings { scoring_deadline_s: 604_860, ..space() },
        "scoring_deadline_s: 604860 is out of range; allowed 0 to 604800 seconds (0 to 10080 minutes) for the Space preset (003 §10.1)",
    );
    refused_with(
        &MatchSettings { scoring_deadline_s: 90, ..space() },
        "scoring_deadline_s: 90 is not allowed; allowed whole minutes (multiples of 60 seconds) for the Space preset (003 §10.1)",
    );
    refused_with(
        &MatchSettings { disconnect_grace_s: 120, ..space() },
        "disconnect_grace_s: 120 is not allowed; allowed 300 for the Space preset (five minutes, then the administrator decides) (003 §6.1)",
    );
}

// --- special rules, assistance, version -------------------------------------------------------

fn note(t: &str) -> SpecialRule {
    SpecialRule::Note { text: t.to_string() }
}

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

/// The settings' tagged enums are read tag first (`engine::tag_first`): the tag anywhere,
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

fn helper(name: &str) -> Assistant {
    Assistant {
        name: name.into(),
        kind: AssistantKind::Program,
        helps: AssistedPlayer::Both,
        extent: AssistanceExtent::RulesAndControls,
    }
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

// --- never panics -----------------------------------------------------------------------------

use super::arbitrary::{any_settings, valid_settings};

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
