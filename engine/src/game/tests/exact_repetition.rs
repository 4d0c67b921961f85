//! Exact repetition: a hash match alone never makes a move illegal or a game a draw.

use super::*;

// ---------------------------------------------------------------------------
// Exact repetition: a hash match alone never makes a move illegal (or a game
// a draw); the arrangements are compared. Collisions of the 64-bit hash
// cannot be found by search, so these tests plant a colliding entry (the hash
// of the move's result, attached to a different arrangement) directly in the
// history.

#[test]
fn immediate_rule_needs_the_same_arrangement_not_just_the_hash() {
    let mut g = opened(Rules::space());
    let p = pt(&g, 2, 2);
    let h = g.board.move_effect(p, Color::Black).unwrap().hash_after;
    // Plant: "before White's last move the hash was h" — at mark 0, the
    // empty board, which is not the arrangement after B (2,2).
    g.history.before_last[Color::White.idx()] = Some((h, 0));
    assert_eq!(g.illegal_reason(Color::Black, p), None);
    assert!(g.legal_points(Color::Black).contains(&p));
    // Marks compare arrangements, not hashes: after B (2,2) the current
    // arrangement matches its own mark and not the empty board's.
    g.play(Color::Black, Move::Place(p)).unwrap();
    assert!(g.history.matches_mark(&g.board, g.history.mark(), None));
    assert!(!g.history.matches_mark(&g.board, 0, None));
}

#[test]
fn superko_needs_the_same_arrangement_not_just_the_hash() {
    let mut g = opened(Rules::classic());
    let p = pt(&g, 2, 2);
    let h = g.board.move_effect(p, Color::Black).unwrap().hash_after;
    g.history.seen.insert(h, 0); // the empty board…
    g.history.seen_extra.push((h, 1)); // …and the board after B (1,1)
    assert_eq!(g.illegal_reason(Color::Black, p), None);
    g.play(Color::Black, Move::Place(p)).unwrap();
    // The colliding hash now holds a third, distinct arrangement.
    assert_eq!(g.history.seen[&h], 0);
    assert_eq!(g.history.seen_extra, vec![(h, 1), (h, 3)]);
}

#[test]
fn korean_count_needs_the_same_arrangement_not_just_the_hash() {
    let mut r = Rules::classic();
    r.ko = KoRule::Korean;
    let mut g = opened(r);
    let p = pt(&g, 2, 2);
    let h = g.board.move_effect(p, Color::Black).unwrap().hash_after;
    // Two earlier "occurrences" of the situation after B (2,2), White to
    // move — but with the empty board's arrangement.
    let key = h ^ crate::zobrist::side_key(Color::White.idx());
    g.history.situations.insert(key, history::Situation { to_move: Color::White, mark: 0, count: 2 });
    g.play(Color::Black, Move::Place(p)).unwrap();
    assert_eq!(g.phase(), Phase::Playing, "a hash collision is not a third occurrence");
    assert_eq!(g.history.situations[&key].count, 2);
    assert_eq!(
        g.history.situations_extra,
        vec![(key, history::Situation { to_move: Color::White, mark: 3, count: 1 })]
    );
}

#[test]
fn after_undo_restriction_needs_the_same_arrangement_not_just_the_hash() {
    let mut g = opened(Rules::space());
    let q = pt(&g, 2, 2);
    g.play(Color::Black, Move::Place(q)).unwrap();
    g.undo().unwrap();
    assert!(g.undo_restriction_active());
    // The real undone arrangement is refused…
    assert_eq!(g.illegal_reason(Color::Black, q).map(|e| e.kind()), Some(IllegalKind::UndoRepetition));
    // …but a different move whose result merely has the restricted hash is not.
    let p = pt(&g, 0, 4);
    let h = g.board.move_effect(p, Color::Black).unwrap().hash_after;
    let cells = g.undo_restriction.as_ref().unwrap().1.clone();
    g.undo_restriction = Some((h, cells));
    assert_eq!(g.illegal_reason(Color::Black, p), None);
    g.play(Color::Black, Move::Place(p)).unwrap();
    assert!(!g.undo_restriction_active());
}
