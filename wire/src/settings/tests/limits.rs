//! The limits of each setting: defaults, komi, the board, the preset's fixed rules, handicap, time, undo, draw offers and deadlines.

use super::*;

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
