//! Earlier positions of a live game, from the events the page holds (a player's or a
//! record reader's page holds the whole log; a spectator who may not read the record holds
//! the events since arriving). Positions are worked out backwards from the position shown
//! now, so no engine and no starting position are needed: a move is taken off (its stone
//! lifted, its captures put back), an undo is put back (the stone it removed returns, and
//! the captures of the move it undid are lifted again). Stepping back stops at the first
//! event it cannot reverse — an undo of a move the page never saw.

use wire::events::{Colour, Event, StoredEvent, Xyz};

/// One position a player can step back to: the board after event `seq`, the move that
/// made it (when it was a stone) and what that move captured.
#[derive(Debug, Clone, PartialEq)]
pub struct Position {
    pub seq: i64,
    pub move_number: u32,
    pub stones: Vec<(Xyz, Colour)>,
    pub last: Option<Xyz>,
    pub captured: Vec<Xyz>,
}

/// A move as the position's history keeps it: who, where (none for a pass), what it took.
type Played = (Colour, Option<Xyz>, Vec<Xyz>);

/// A change of position in the log: a stone (with its captures), a pass, or an undo of
/// earlier stones. `undoes` pairs an undo with the moves it took back (their captures come
/// back onto the board when it is reversed), `None` where the page never saw them.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    Stone { colour: Colour, at: Xyz, captured: Vec<Xyz>, move_number: u32 },
    Pass { move_number: u32 },
    Undo { taken: Option<Vec<Played>>, move_number: u32 },
}

/// The position-changing events of `events`, in order, with each undo paired with what it
/// undid (a stack of the moves seen).
fn steps(events: &[StoredEvent]) -> Vec<(i64, Step)> {
    let mut played: Vec<Played> = Vec::new();
    let mut out = Vec::new();
    for e in events {
        let step = match &e.event {
            Event::MovePlayed { colour, at, captured, move_number } => {
                played.push((*colour, Some(*at), captured.clone()));
                Step::Stone { colour: *colour, at: *at, captured: captured.clone(), move_number: *move_number }
            }
            Event::Passed { colour, move_number } => {
                played.push((*colour, None, Vec::new()));
                Step::Pass { move_number: *move_number }
            }
            Event::UndoAccepted { at, undone_colour, move_number, .. } => {
                let taken = match played.pop() {
                    Some(m) if m.1 == Some(*at) && m.0 == *undone_colour => Some(vec![m]),
                    _ => None,
                };
                Step::Undo { taken, move_number: move_number.saturating_sub(1) }
            }
            Event::TakenBack { moves, move_number, .. } => {
                let mut taken = Some(Vec::new());
                for m in moves {
                    match played.pop() {
                        Some(p) if p.0 == m.colour && p.1 == m.at => {
                            if let Some(t) = taken.as_mut() {
                                t.push(p);
                            }
                        }
                        _ => taken = None,
                    }
                }
                Step::Undo { taken, move_number: move_number.saturating_sub(moves.len() as u32) }
            }
            _ => continue,
        };
        out.push((e.seq, step));
    }
    out
}

/// Whether `e` changes the position (a stone, a pass, an undo): a step of the history.
#[cfg(any(feature = "hydrate", test))]
pub fn changes_position(e: &Event) -> bool {
    is_change(e)
}

fn is_change(e: &Event) -> bool {
    matches!(e, Event::MovePlayed { .. } | Event::Passed { .. } | Event::UndoAccepted { .. } | Event::TakenBack { .. })
}

/// How many steps back the page can go from the position shown now.
pub fn depth(events: &[StoredEvent]) -> usize {
    depth_of(&steps(events))
}

fn depth_of(steps: &[(i64, Step)]) -> usize {
    // An undo whose moves were never seen cannot be reversed: history stops after it.
    steps.iter().rev().position(|(_, st)| matches!(st, Step::Undo { taken: None, .. })).unwrap_or(steps.len())
}

impl Step {
    /// The move number of the position before this step.
    fn number_before(&self) -> u32 {
        match self {
            Step::Stone { move_number, .. } | Step::Pass { move_number } => move_number.saturating_sub(1),
            Step::Undo { taken, move_number } => move_number + taken.as_ref().map_or(0, |t| t.len() as u32),
        }
    }
}

/// The position `back` steps before the one shown now (`stones`, after the last event), or
/// `None` when the page cannot go that far. Live (`back` 0) costs nothing.
pub fn position(stones: &[(Xyz, Colour)], events: &[StoredEvent], back: usize) -> Option<Position> {
    if back == 0 {
        return None;
    }
    let all = steps(events);
    if back > depth_of(&all) {
        return None;
    }
    let mut board: Vec<(Xyz, Colour)> = stones.to_vec();
    let lift = |board: &mut Vec<(Xyz, Colour)>, p: Xyz| board.retain(|(q, _)| *q != p);
    let put = |board: &mut Vec<(Xyz, Colour)>, p: Xyz, c: Colour| {
        if !board.iter().any(|(q, _)| *q == p) {
            board.push((p, c));
        }
    };
    for (_, step) in all.iter().rev().take(back) {
        match step {
            Step::Stone { colour, at, captured, .. } => {
                lift(&mut board, *at);
                for p in captured {
                    put(&mut board, *p, colour.opponent());
                }
            }
            Step::Pass { .. } => {}
            Step::Undo { taken, .. } => {
                // Put the undone moves back, earliest first (they are listed latest first).
                for (colour, at, captured) in taken.iter().flatten().rev() {
                    for p in captured {
                        lift(&mut board, *p);
                    }
                    if let Some(at) = at {
                        put(&mut board, *at, *colour);
                    }
                }
            }
        }
    }
    // The position reached is the one after the step before those taken off; stepped back
    // past every step the page holds (a spectator's log starts on arrival), the one before
    // the first of them.
    let (seq, move_number, last, captured) = match all.iter().rev().nth(back) {
        Some((seq, Step::Stone { at, captured, move_number, .. })) => (*seq, *move_number, Some(*at), captured.clone()),
        Some((seq, Step::Pass { move_number } | Step::Undo { move_number, .. })) => {
            (*seq, *move_number, None, Vec::new())
        }
        None => {
            let (seq, first) = &all[all.len() - back];
            (seq - 1, first.number_before(), None, Vec::new())
        }
    };
    board.sort_by_key(|(p, _)| (p.z, p.y, p.x));
    Some(Position { seq, move_number, stones: board, last, captured })
}

/// The points the last stone move emptied by capture, if the last position-changing event
/// the page holds is that move.
pub fn last_captures(events: &[StoredEvent]) -> Vec<Xyz> {
    match last_change(events) {
        Some(Event::MovePlayed { captured, .. }) => captured.clone(),
        _ => Vec::new(),
    }
}

/// The last position-changing event (read from the end: a long game's log is not walked on
/// every move).
fn last_change(events: &[StoredEvent]) -> Option<&Event> {
    events.iter().rev().map(|e| &e.event).find(|e| is_change(e))
}

/// Where the last stone move the page holds was played, if the last position-changing event
/// is a stone move.
pub fn last_move(events: &[StoredEvent]) -> Option<Xyz> {
    match last_change(events) {
        Some(Event::MovePlayed { at, .. }) => Some(*at),
        _ => None,
    }
}

/// The last `n` stone moves still on the board's history (not undone), latest first, with
/// their move numbers: what the page numbers on request.
pub fn recent_moves(events: &[StoredEvent], n: usize) -> Vec<(Xyz, u32)> {
    let mut played: Vec<Option<(Xyz, u32)>> = Vec::new();
    for (_, step) in steps(events) {
        match step {
            Step::Stone { at, move_number, .. } => played.push(Some((at, move_number))),
            Step::Pass { .. } => played.push(None),
            Step::Undo { taken, .. } => {
                for _ in 0..taken.map_or(1, |t| t.len()) {
                    played.pop();
                }
            }
        }
    }
    played.into_iter().rev().flatten().take(n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wire::events::TakenMove;

    fn p(x: i64, y: i64, z: i64) -> Xyz {
        Xyz { x, y, z }
    }
    fn ev(seq: i64, event: Event) -> StoredEvent {
        StoredEvent { seq, at_ms: 0, actor: None, event }
    }
    fn stone(seq: i64, colour: Colour, at: Xyz, n: u32, captured: Vec<Xyz>) -> StoredEvent {
        ev(seq, Event::MovePlayed { colour, at, move_number: n, captured })
    }
    fn sorted(mut v: Vec<(Xyz, Colour)>) -> Vec<(Xyz, Colour)> {
        v.sort_by_key(|(p, _)| (p.z, p.y, p.x));
        v
    }
    use Colour::{Black, White};

    #[test]
    fn stepping_back_lifts_each_stone_and_puts_its_captures_back() {
        // Black captures White's stone at 1,1,1 with the move at 1,2,1.
        let events = vec![
            stone(1, White, p(1, 1, 1), 1, vec![]),
            stone(2, Black, p(2, 1, 1), 2, vec![]),
            ev(3, Event::Passed { colour: White, move_number: 3 }),
            stone(4, Black, p(1, 2, 1), 4, vec![p(1, 1, 1)]),
        ];
        let now = vec![(p(2, 1, 1), Black), (p(1, 2, 1), Black)];
        assert_eq!(depth(&events), 4);
        let one = position(&now, &events, 1).unwrap();
        assert_eq!(one.seq, 3);
        assert_eq!(one.move_number, 3);
        assert_eq!(one.last, None);
        assert_eq!(one.stones, sorted(vec![(p(1, 1, 1), White), (p(2, 1, 1), Black)]));
        let two = position(&now, &events, 2).unwrap();
        assert_eq!((two.seq, two.last, two.stones.len()), (2, Some(p(2, 1, 1)), 2));
        let start = position(&now, &events, 4).unwrap();
        assert!(start.stones.is_empty());
        assert_eq!(start.seq, 0);
        assert_eq!(position(&now, &events, 5), None);
        assert_eq!(position(&now, &events, 0), None);
        assert_eq!(last_captures(&events), vec![p(1, 1, 1)]);
        assert_eq!(last_move(&events), Some(p(1, 2, 1)));
        assert!(events.iter().all(|e| changes_position(&e.event)));
        assert!(!changes_position(&Event::ScoringEntered));
    }

    #[test]
    fn an_undo_is_reversed_with_the_captures_of_the_move_it_undid() {
        let events = vec![
            stone(1, White, p(1, 1, 1), 1, vec![]),
            stone(2, Black, p(1, 2, 1), 2, vec![p(1, 1, 1)]),
            ev(3, Event::UndoAccepted { colour: White, move_number: 2, at: p(1, 2, 1), undone_colour: Black }),
        ];
        // After the undo White's stone is back and Black's is gone.
        let now = vec![(p(1, 1, 1), White)];
        let before_undo = position(&now, &events, 1).unwrap();
        assert_eq!(before_undo.stones, vec![(p(1, 2, 1), Black)]);
        assert_eq!(before_undo.last, Some(p(1, 2, 1)));
        assert_eq!(position(&now, &events, 2).unwrap().stones, vec![(p(1, 1, 1), White)]);
        assert!(recent_moves(&events, 5) == vec![(p(1, 1, 1), 1)], "the undone move is not numbered");
    }

    #[test]
    fn a_classic_take_back_of_two_moves_is_reversed_in_order() {
        let events = vec![
            stone(1, Black, p(1, 1, 1), 1, vec![]),
            stone(2, White, p(2, 2, 1), 2, vec![]),
            ev(
                3,
                Event::TakenBack {
                    colour: White,
                    move_number: 2,
                    moves: vec![
                        TakenMove { colour: White, at: Some(p(2, 2, 1)) },
                        TakenMove { colour: Black, at: Some(p(1, 1, 1)) },
                    ],
                },
            ),
        ];
        let back = position(&[], &events, 1).unwrap();
        assert_eq!(back.stones, sorted(vec![(p(1, 1, 1), Black), (p(2, 2, 1), White)]));
    }

    #[test]
    fn history_stops_at_an_undo_of_a_move_the_page_never_saw() {
        // A late spectator: the undone move came before the page opened.
        let events = vec![
            ev(7, Event::UndoAccepted { colour: White, move_number: 5, at: p(3, 3, 3), undone_colour: Black }),
            stone(8, Black, p(4, 4, 4), 5, vec![]),
        ];
        assert_eq!(depth(&events), 1);
        let now = vec![(p(4, 4, 4), Black), (p(1, 1, 1), White)];
        assert_eq!(position(&now, &events, 1).unwrap().stones, vec![(p(1, 1, 1), White)]);
        assert_eq!(position(&now, &events, 2), None);
    }

    #[test]
    fn a_spectators_log_steps_back_to_the_position_it_arrived_at() {
        // The page opened after move 40: its log holds moves 41 to 43.
        let events: Vec<_> = (41..=43).map(|n| stone(n + 100, Black, p(n - 40, 1, 1), n as u32, vec![])).collect();
        let now = vec![(p(1, 1, 1), Black), (p(2, 1, 1), Black), (p(3, 1, 1), Black), (p(9, 9, 9), White)];
        let arrival = position(&now, &events, 3).unwrap();
        assert_eq!((arrival.move_number, arrival.seq, arrival.last), (40, 140, None));
        assert_eq!(arrival.stones, vec![(p(9, 9, 9), White)]);
    }

    #[test]
    fn the_last_moves_are_numbered_latest_first() {
        let events: Vec<_> =
            (1..=7).map(|n| stone(n, if n % 2 == 1 { Black } else { White }, p(n, 1, 1), n as u32, vec![])).collect();
        let recent = recent_moves(&events, 3);
        assert_eq!(recent, vec![(p(7, 1, 1), 7), (p(6, 1, 1), 6), (p(5, 1, 1), 5)]);
    }
}
