//! The views: shared then personalised, and kept by the browser from live events.

use super::*;

/// The actor computes the viewer-independent part of the view once per version and adds
/// each viewer's part at request time: that must equal the view computed for the viewer
/// directly, for players and spectators, later in time, in play and in scoring.
#[test]
fn a_shared_view_personalised_later_equals_the_view_computed_for_the_viewer() {
    let viewer = caller;
    let check = |t: &T| {
        let shared = t.s.shared_view(5, 3);
        for who in [None, Some(viewer(HOST)), Some(viewer(GUEST)), Some(viewer(STRANGER))] {
            for later in [0, 1_500, 61_000] {
                let mut v = shared.clone();
                t.s.personalise(&mut v, who.as_ref(), t.now + later);
                let direct = t.s.view(5, who.as_ref(), t.now + later, 3);
                assert_eq!(serde_json::to_value(&v).unwrap(), serde_json::to_value(&direct).unwrap());
            }
        }
    };
    let mut t = T::started(space_box(5));
    t.play(HOST, at(3, 3, 3));
    t.advance(2_000);
    check(&t);
    assert!(t.s.view(5, Some(&viewer(GUEST)), t.now, 3).hints.is_some(), "hints for the player to move");
    let mut t = T::space_scoring();
    check(&t);
    t.ok(HOST, Command::Mark { at: at(1, 1, 1), kind: MarkKind::Dead });
    check(&t);
}

/// A browser that applies the moves, acknowledgements, passes and illegal attempts it is
/// sent (each commit's fields with its last event) holds exactly the view the server would
/// send it — a spectator's and each player's (with the hints of the player to move), on a
/// flat board (with a capture) and in a box.
#[test]
fn a_view_kept_by_applying_live_events_is_the_servers_view() {
    use wire::{
        live_view::{applied_in_browser, LiveFields},
        view::RoomView,
    };
    let sorted = |mut v: RoomView| {
        v.stones.sort_by_key(|(p, _)| (p.x, p.y, p.z));
        v
    };
    for (settings, z) in [(classic9(), 1), (space_box(3), 2)] {
        let mut t = T::started(settings);
        let viewers = [None, Some(caller(HOST)), Some(caller(GUEST))];
        let mut kept: Vec<RoomView> = viewers.iter().map(|v| t.s.view(1, v.as_ref(), t.now, 0)).collect();
        // Black 2,1 and 1,2 (on the flat board: taking White's 1,1); White tries the
        // occupied 2,1, then passes.
        let script = [
            (HOST, Command::Move { at: at(2, 1, z) }),
            (GUEST, Command::Acknowledge { move_number: 1 }),
            (GUEST, Command::Move { at: at(1, 1, z) }),
            (HOST, Command::Acknowledge { move_number: 2 }),
            (HOST, Command::Move { at: at(1, 2, z) }),
            (GUEST, Command::Acknowledge { move_number: 3 }),
            (GUEST, Command::Move { at: at(2, 1, z) }),
            (GUEST, Command::Pass),
            (HOST, Command::Acknowledge { move_number: 4 }),
            (HOST, Command::Move { at: at(3, 3, z) }),
        ];
        for (who, command) in script {
            t.now += 1_500;
            let from = t.log.len();
            let _ = t.cmd(who, command.clone());
            let new = t.log[from..].to_vec();
            assert!(!new.is_empty(), "{command:?} made no event");
            for (i, e) in new.iter().enumerate() {
                assert!(applied_in_browser(&e.event), "{:?} is not applied in the browser", e.event);
                // Both players watch: the hints come along.
                let fields = (i + 1 == new.len()).then(|| t.s.live_fields(t.now, true));
                for view in &mut kept {
                    if let Some(f) = &fields {
                        assert!(!f.lacks_hints_for(view));
                    }
                    view.apply_live(&e.event, fields.clone());
                }
            }
            for (view, viewer) in kept.iter().zip(&viewers) {
                let server = t.s.view(1, viewer.as_ref(), t.now, 0);
                // What a reconnecting stream sends from this view: the commit's own fields.
                let fields = t.s.live_fields(t.now, server.hints.is_some());
                assert_eq!(LiveFields::from_view(&server), fields, "after {command:?}, seen by {viewer:?}");
                assert_eq!(sorted(view.clone()), sorted(server), "after {command:?}, seen by {viewer:?}");
            }
            // Without the hints (the player to move not watching), that player's page asks.
            let bare = t.s.live_fields(t.now, false);
            let mover = if t.s.to_move() == kept[1].your_colour.unwrap() { &kept[1] } else { &kept[2] };
            assert!(bare.lacks_hints_for(mover) && !bare.lacks_hints_for(&kept[0]));
        }
        let kept = &kept[0];
        // On the flat board 1,1 has two neighbours, both Black's; in the box it has four.
        assert_eq!(kept.captures[Colour::Black], u32::from(z == 1), "Black took a stone on the flat board");
        assert_eq!(kept.illegal_attempts, 1);
    }
}
