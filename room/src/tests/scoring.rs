//! Entering scoring, marks, statements and consents, disputes, Classic's toggles and deadline.

use super::*;

#[test]
fn both_scoring_requests_on_the_same_position_enter_scoring_and_a_move_clears_them() {
    // 003 §2.7.
    let mut t = T::started(space_box(5));
    t.play(HOST, at(1, 1, 1));
    t.ok(HOST, Command::RequestScoring);
    assert_eq!(t.s.phase(), RoomPhase::Playing, "one request stops nothing");
    t.play(GUEST, at(5, 5, 5));
    assert_eq!(t.s.scoring_requests, ByColour::both(None));
    t.ok(GUEST, Command::RequestScoring);
    assert_eq!(t.err(GUEST, Command::RequestScoring), MatchError::AlreadyDone);
    // Each player may cancel their own request.
    t.ok(GUEST, Command::CancelScoringRequest);
    assert!(matches!(t.err(GUEST, Command::CancelScoringRequest), MatchError::NoPendingRequest { .. }));
    t.ok(GUEST, Command::RequestScoring);
    let e = t.ok(HOST, Command::RequestScoring);
    assert_eq!(T::kinds(&e), ["scoring_requested", "scoring_entered", "statement_issued"]);
    assert_eq!(t.s.phase(), RoomPhase::Scoring);
    assert!(!t.s.clocks.is_running());
    assert_eq!(t.s.scoring().unwrap().statement, 1);
    t.assert_replays();
}

#[test]
fn space_scoring_marks_statements_and_consents() {
    // 003 §3.4–3.5, §4.5–4.6.
    let mut t = T::space_scoring();
    assert_eq!(t.s.phase(), RoomPhase::Scoring);
    // Undo is refused in scoring (003 §4.4).
    assert!(matches!(t.err(HOST, Command::RequestUndo), MatchError::UndoNotAllowed { .. }));
    // Marking a chain issues a new statement; the mark names the whole chain.
    let e = t.ok(HOST, Command::Mark { at: at(5, 5, 5), kind: MarkKind::Dead });
    assert_eq!(T::kinds(&e), ["mark_added", "statement_issued"]);
    let n = t.s.scoring().unwrap().statement;
    assert_eq!(n, 2);
    assert!(
        matches!(t.err(HOST, Command::Mark { at: at(2, 2, 2), kind: MarkKind::Dead }), MatchError::BadMark { .. }),
        "no stone there"
    );
    // 003 §3.5: White cannot withdraw Black's mark.
    assert!(matches!(t.err(GUEST, Command::Unmark { at: at(5, 5, 5) }), MatchError::NotYourMark { .. }));
    // Consent binds to a number; a stale number is refused.
    assert!(matches!(t.err(GUEST, Command::Consent { statement: 1 }), MatchError::StaleStatement { latest: 2, .. }));
    t.ok(GUEST, Command::Consent { statement: n });
    t.ok(GUEST, Command::WithdrawConsent);
    t.ok(GUEST, Command::Consent { statement: n });
    // A change issues a new number and clears consents.
    t.ok(HOST, Command::Unmark { at: at(5, 5, 5) });
    let sc = t.s.scoring().unwrap();
    assert_eq!((sc.statement, sc.consents), (3, ByColour::both(None)));
    t.ok(HOST, Command::Mark { at: at(5, 5, 5), kind: MarkKind::Dead });
    t.ok(HOST, Command::Consent { statement: 4 });
    let e = t.ok(GUEST, Command::Consent { statement: 4 });
    // 003 §2.7 (review required, the Space default): two consents wait for the review; a
    // consent may still be withdrawn until the result is final (003 §4.6).
    assert_eq!(T::kinds(&e), ["consented", "review_requested"]);
    assert_eq!(t.s.phase(), RoomPhase::AwaitingReview);
    t.ok(GUEST, Command::WithdrawConsent);
    assert_eq!(t.s.phase(), RoomPhase::Scoring);
    t.ok(GUEST, Command::Consent { statement: 4 });
    assert_eq!(t.s.phase(), RoomPhase::AwaitingReview);
    let confirm = |n| Command::AdminConfirmStatement { statement: n, reasons: "counted again: correct".into() };
    assert_eq!(t.err(HOST, confirm(4)), MatchError::AdminOnly);
    assert!(matches!(t.err(ADMIN, confirm(3)), MatchError::StaleStatement { latest: 4, .. }));
    let e = t.ok(ADMIN, confirm(4));
    assert_eq!(T::kinds(&e), ["statement_confirmed", "ended"]);
    match &t.s.ended {
        Some(Event::Ended { result, statement, score: Some(score) }) => {
            assert_eq!((result.winner(), *statement), (Some(Colour::Black), Some(4)));
            assert_eq!(score.dead_stones, vec![at(5, 5, 5)]);
            assert_eq!(score.black.stones, 1);
        }
        other => panic!("not ended by score: {other:?}"),
    }
    t.assert_replays();
}

#[test]
fn a_space_dispute_holds_scoring_for_the_administrators_ruling() {
    // 003 §3.6: hold, rule with reasons, shown to both; §3.7 unresolved kept by ruling.
    let mut t = T::space_scoring();
    t.ok(HOST, Command::Mark { at: at(5, 5, 5), kind: MarkKind::Dead });
    let e = t.ok(GUEST, Command::Dispute { reason: "my stone at 5,5,5 lives".into() });
    assert_eq!(T::kinds(&e), ["held", "attention_needed"]);
    assert_eq!(t.s.phase(), RoomPhase::Held);
    assert!(matches!(t.err(GUEST, Command::Consent { statement: 2 }), MatchError::WrongPhase { .. }));
    assert_eq!(
        t.err(
            HOST,
            Command::AdminRuling {
                chains: vec![ChainRuling { at: at(5, 5, 5), verdict: ChainVerdict::Dead }],
                regions: vec![],
                reasons: "x".into(),
            }
        ),
        MatchError::AdminOnly
    );
    let e = t.ok(
        ADMIN,
        Command::AdminRuling {
            chains: vec![ChainRuling { at: at(5, 5, 5), verdict: ChainVerdict::Unresolved }],
            regions: vec![],
            reasons: "neither side proved life or death; kept unresolved (003 §3.7)".into(),
        },
    );
    assert_eq!(T::kinds(&e), ["ruling", "statement_issued"]);
    // 003 §4.5: the ruling's statement needs both consents; 003 §2.7: then the review.
    let n = t.s.scoring().unwrap().statement;
    t.ok(HOST, Command::Consent { statement: n });
    let e = t.ok(GUEST, Command::Consent { statement: n });
    assert_eq!(T::kinds(&e), ["consented", "review_requested"]);
    assert_eq!(t.s.phase(), RoomPhase::AwaitingReview);
    let e = t.ok(ADMIN, Command::AdminConfirmStatement { statement: n, reasons: "checked".into() });
    assert_eq!(T::kinds(&e), ["statement_confirmed", "ended"]);
    match &t.s.ended {
        Some(Event::Ended { score: Some(score), .. }) => assert_eq!(score.unresolved_stones, vec![at(5, 5, 5)]),
        other => panic!("{other:?}"),
    }
    t.assert_replays();
}

#[test]
fn classic_scoring_toggles_marks_resumes_play_and_auto_agrees_at_the_deadline() {
    // 000 §5.5 steps 2–5, §8.5.
    let mut t = T::started(classic9());
    t.play(HOST, at(3, 3, 1));
    t.play(GUEST, at(7, 7, 1));
    t.pass(HOST);
    t.pass(GUEST);
    t.ok(GUEST, Command::Mark { at: at(3, 3, 1), kind: MarkKind::Dead });
    t.ok(HOST, Command::Mark { at: at(3, 3, 1), kind: MarkKind::Dead }); // toggles off
    assert!(t.s.scoring().unwrap().marks.is_empty());
    // Step 5: resuming play drops the marks; the requester's opponent moves first.
    t.ok(HOST, Command::ResumePlay);
    assert_eq!((t.s.phase(), t.s.to_move()), (RoomPhase::Playing, Colour::White));
    t.play(GUEST, at(5, 5, 1));
    t.pass(HOST);
    t.pass(GUEST);
    let started = t.s.scoring().unwrap().started_ms;
    t.ok(HOST, Command::Mark { at: at(5, 5, 1), kind: MarkKind::Dead });
    let n = t.s.scoring().unwrap().statement;
    t.ok(HOST, Command::Consent { statement: n });
    assert_eq!(t.s.scoring().unwrap().started_ms, started);
    let e = t.advance(180_000);
    assert_eq!(T::kinds(&e), ["scoring_deadline_passed", "consented", "ended"]);
    assert!(matches!(&t.s.ended, Some(Event::Ended { statement: Some(s), .. }) if *s == n));
    t.assert_replays();
}

#[test]
fn a_classic_mark_covers_the_whole_group_through_empty_points() {
    // 000 §5.5 step 2: Black walls off column 5, White column 6; two white stones left inside
    // Black's side, apart, form one group through the empty points between them.
    let mut t = T::started(classic9());
    for y in 1..=9 {
        t.play(HOST, at(5, y, 1));
        t.play(GUEST, at(6, y, 1));
    }
    t.pass(HOST);
    t.play(GUEST, at(2, 2, 1));
    t.pass(HOST);
    t.play(GUEST, at(3, 4, 1));
    t.pass(HOST);
    t.pass(GUEST);
    // The computer, proposing both stones, marks the group once (a second mark would undo it).
    let both = [t.s.point(at(2, 2, 1)).unwrap(), t.s.point(at(3, 4, 1)).unwrap()];
    assert_eq!(t.s.dead_proposal(&both).len(), 1);
    let e = t.ok(HOST, Command::Mark { at: at(2, 2, 1), kind: MarkKind::Dead });
    assert_eq!(T::kinds(&e), ["mark_added", "mark_added", "statement_issued"]);
    let dead = |t: &T| {
        let mut d = t.s.scoring().unwrap().score.dead_stones.clone();
        d.sort_by_key(|p| (p.x, p.y, p.z));
        d
    };
    assert_eq!(dead(&t), vec![at(2, 2, 1), at(3, 4, 1)]);
    // White's wall is another group: not reached through Black's wall.
    assert!(!dead(&t).contains(&at(6, 1, 1)));
    // Tapping the other stone of the group with the same mark removes the whole group's marks.
    let e = t.ok(GUEST, Command::Mark { at: at(3, 4, 1), kind: MarkKind::Dead });
    assert_eq!(T::kinds(&e), ["mark_withdrawn", "mark_withdrawn", "statement_issued"]);
    assert!(t.s.scoring().unwrap().marks.is_empty());
    t.assert_replays();
}

#[test]
fn korean_ko_resumed_play_ends_in_scoring_again_not_a_repetition_draw() {
    // 000 §5.5 step 5 with koRule=korean (000 §5.3): the arrangement recurs after each
    // resume only through passes, which is not a triple repetition; every two passes
    // enter scoring again.
    let mut settings = classic9();
    settings.ko = engine::KoRule::Korean;
    let mut t = T::started(settings);
    t.play(HOST, at(3, 3, 1));
    t.play(GUEST, at(7, 7, 1));
    t.pass(HOST);
    t.pass(GUEST);
    for (round, asker) in [(1, HOST), (2, GUEST), (3, HOST)] {
        assert_eq!(t.s.phase(), RoomPhase::Scoring, "round {round}");
        t.ok(asker, Command::ResumePlay);
        let first = if t.s.to_move() == Colour::Black { HOST } else { GUEST };
        assert_eq!(first, other(asker), "the requester's opponent moves first");
        t.pass(first);
        t.pass(other(first));
        assert_eq!((t.s.phase(), t.s.ended.is_none()), (RoomPhase::Scoring, true), "round {round}: no draw");
    }
    t.assert_replays();
}
