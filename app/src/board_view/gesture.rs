//! Pointer gestures on a 3D view as a pure state machine. The renderer translates the
//! browser's pointer and wheel events into [`Input`]s (plain numbers: pointer id, button,
//! position in the canvas' CSS px) and applies the [`Intent`]s that come out; keys map
//! through [`key`]. No browser types, so it is compiled and tested natively.
//!
//! - A press that never gets more than [`TAP_SLOP`] px from where it began is a tap: its
//!   release selects the point under it. One that goes further is a drag and never selects
//!   (003 §7.5: a rotation drag must not place a stone), even if it comes back.
//! - A one-pointer drag rotates the view, whatever the button (003 §7.3: left and right
//!   drags both rotate). It turns from the first pixel, so a tap's jitter turns it as much.
//! - Region-selection drag mode (003 §7.3), taken when a press begins: the drag draws a
//!   rectangle instead ([`Gesture::rect`]) and its release yields it; it never rotates or
//!   selects. A press within the slop is still a tap.
//! - A second pointer makes a pinch: the change of distance between two pointers zooms.
//!   Nothing taps or yields a rectangle again until every pointer is lifted; a finger left
//!   after a pinch rotates (in region-selection mode it does nothing).
//! - A cancelled pointer (`pointercancel`, `pointerleave`) leaves without a tap.
//! - The wheel zooms ([`Orbit::wheel_factor`]).
//! - A press held still for [`HOLD_MS`] (the renderer's timer sends [`Input::Held`]) is a
//!   long press: it yields [`Intent::Hold`] at once, and its release then does nothing; a
//!   finger added meanwhile changes nothing. A timer of an earlier press (a quick tap, then
//!   a press again) is told apart by its press number and ignored.

use super::orbit::Orbit;

/// A press that moves more than this (CSS px) from where it started is a drag.
pub const TAP_SLOP: f32 = 6.0;
/// How long a press must stay within the slop to be a long press (the renderer's timer).
pub const HOLD_MS: i32 = 550;
/// How far (in drag px) an arrow key turns the view.
pub const KEY_STEP: f32 = 12.0;

/// What the renderer feeds the machine. Positions are the canvas' CSS px from its top left.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Input {
    /// A pointer pressed. `button` as in the DOM (0 main, 1 middle, 2 secondary); every button
    /// does the same (003 §7.3).
    Down { id: i32, button: i16, x: f32, y: f32 },
    /// A pointer moved (pressed or not: one that is not pressed is ignored).
    Move { id: i32, x: f32, y: f32 },
    /// A pointer lifted.
    Up { id: i32, x: f32, y: f32 },
    /// A pointer gone without lifting (cancelled, or left the canvas).
    Cancel { id: i32 },
    /// A wheel turned by `dy` px (positive: towards the user, zooms out).
    Wheel { dy: f32 },
    /// [`HOLD_MS`] have passed since pointer `id` was pressed, as press number `press`
    /// ([`Gesture::presses`] right after that press): a timer of an earlier press is stale.
    Held { id: i32, press: u32 },
}

/// What the renderer should do.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Intent {
    /// Select the point under (x, y).
    Tap { x: f32, y: f32 },
    /// A long press at (x, y): isolate the chain under it.
    Hold { x: f32, y: f32 },
    /// Turn the view as for a drag of (dx, dy) px ([`Orbit::drag`]).
    Orbit { dx: f32, dy: f32 },
    /// Multiply the camera distance by `factor` (< 1 zooms in).
    Zoom { factor: f32 },
    /// A finished region-selection drag over `rect` = [x0, y0, x1, y1] (from the press to
    /// the release; corners in either order).
    Region { rect: [f32; 4] },
}

/// Where a gesture is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Phase {
    /// No pointer pressed.
    Idle,
    /// One pointer pressed, never further than the slop from `start`: lifted, it taps.
    Press { start: [f32; 2], region: bool },
    /// One pointer that went beyond the slop: rotating, or drawing the rectangle if
    /// `region`; never taps.
    Drag { start: [f32; 2], region: bool },
    /// Two or more pointers: pinch zoom.
    Pinch { region: bool },
    /// One pointer left of a pinch: it rotates unless `region`; never taps.
    AfterPinch { region: bool },
    /// A long press that has given its intent: nothing more until every pointer is lifted.
    Held,
}

/// The state machine; one per view.
#[derive(Debug, Clone, PartialEq)]
pub struct Gesture {
    /// Region-selection drag mode (003 §7.3), read when a press begins.
    pub region_select: bool,
    phase: Phase,
    /// Pressed pointers in the order they came, with their last position.
    pointers: Vec<(i32, [f32; 2])>,
    /// Presses so far (any pointer): tells a long-press timer's own press from a later one.
    presses: u32,
}

impl Default for Gesture {
    fn default() -> Self {
        Gesture::new(false)
    }
}

fn distance(a: [f32; 2], b: [f32; 2]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

impl Gesture {
    pub fn new(region_select: bool) -> Gesture {
        Gesture { region_select, phase: Phase::Idle, pointers: Vec::new(), presses: 0 }
    }

    /// The number of presses so far; the renderer's long-press timer carries it.
    pub fn presses(&self) -> u32 {
        self.presses
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The rectangle a region-selection drag shows now ([x0, y0, x1, y1], from the press to
    /// the pointer), or none.
    pub fn rect(&self) -> Option<[f32; 4]> {
        match (self.phase, self.pointers.first()) {
            (Phase::Press { start, region: true } | Phase::Drag { start, region: true }, Some(&(_, at)))
                if at != start =>
            {
                Some([start[0], start[1], at[0], at[1]])
            }
            _ => None,
        }
    }

    /// One event in, at most one intent out.
    pub fn handle(&mut self, input: Input) -> Option<Intent> {
        match input {
            Input::Down { id, x, y, .. } => {
                self.down(id, [x, y]);
                None
            }
            Input::Move { id, x, y } => self.moved(id, [x, y]),
            Input::Up { id, x, y } => self.up(id, [x, y]),
            Input::Cancel { id } => {
                self.lift(id);
                None
            }
            Input::Wheel { dy } => Some(Intent::Zoom { factor: Orbit::wheel_factor(dy) }),
            Input::Held { id, press } => self.held(id, press),
        }
    }

    fn held(&mut self, id: i32, press: u32) -> Option<Intent> {
        if press != self.presses {
            return None;
        }
        let i = self.index(id)?;
        match self.phase {
            Phase::Press { region: false, .. } if self.pointers.len() == 1 => {
                self.phase = Phase::Held;
                let [x, y] = self.pointers[i].1;
                Some(Intent::Hold { x, y })
            }
            _ => None,
        }
    }

    fn index(&self, id: i32) -> Option<usize> {
        self.pointers.iter().position(|(i, _)| *i == id)
    }

    fn region(&self) -> bool {
        match self.phase {
            Phase::Idle | Phase::Held => self.region_select,
            Phase::Press { region, .. }
            | Phase::Drag { region, .. }
            | Phase::Pinch { region }
            | Phase::AfterPinch { region } => region,
        }
    }

    fn down(&mut self, id: i32, at: [f32; 2]) {
        // A pointer pressed again without our seeing it lifted starts afresh.
        if let Some(i) = self.index(id) {
            self.pointers.remove(i);
        }
        self.pointers.push((id, at));
        self.presses = self.presses.wrapping_add(1);
        self.phase = if self.pointers.len() == 1 {
            Phase::Press { start: at, region: self.region_select }
        } else if self.phase == Phase::Held {
            // A finger added to a long press: nothing until every pointer is lifted.
            Phase::Held
        } else {
            Phase::Pinch { region: self.region() }
        };
    }

    fn moved(&mut self, id: i32, at: [f32; 2]) -> Option<Intent> {
        let i = self.index(id)?;
        let last = std::mem::replace(&mut self.pointers[i].1, at);
        let (dx, dy) = (at[0] - last[0], at[1] - last[1]);
        let orbit = (dx != 0.0 || dy != 0.0).then_some(Intent::Orbit { dx, dy });
        match self.phase {
            Phase::Press { start, region } | Phase::Drag { start, region } => {
                if distance(start, at) > TAP_SLOP {
                    self.phase = Phase::Drag { start, region };
                }
                if region {
                    None
                } else {
                    orbit
                }
            }
            Phase::AfterPinch { region } => {
                if region {
                    None
                } else {
                    orbit
                }
            }
            Phase::Pinch { .. } if self.pointers.len() == 2 => {
                let other = self.pointers[1 - i].1;
                let (before, after) = (distance(last, other), distance(at, other));
                (before > 1.0 && after > 1.0 && before != after).then(|| Intent::Zoom { factor: before / after })
            }
            Phase::Pinch { .. } | Phase::Idle | Phase::Held => None,
        }
    }

    fn up(&mut self, id: i32, at: [f32; 2]) -> Option<Intent> {
        self.index(id)?;
        let phase = self.phase;
        self.lift(id);
        match phase {
            Phase::Press { start, region } if distance(start, at) > TAP_SLOP => {
                region.then_some(Intent::Region { rect: [start[0], start[1], at[0], at[1]] })
            }
            Phase::Press { .. } => Some(Intent::Tap { x: at[0], y: at[1] }),
            Phase::Drag { start, region: true } => Some(Intent::Region { rect: [start[0], start[1], at[0], at[1]] }),
            _ => None,
        }
    }

    /// The pointer is gone: what is left of the gesture goes on without it.
    fn lift(&mut self, id: i32) {
        let Some(i) = self.index(id) else { return };
        self.pointers.remove(i);
        let region = self.region();
        self.phase = match self.pointers.len() {
            0 => Phase::Idle,
            _ if self.phase == Phase::Held => Phase::Held,
            1 => Phase::AfterPinch { region },
            _ => Phase::Pinch { region },
        };
    }
}

/// Keyboard: the arrows turn the view, + and − zoom (the view is usable without a pointer).
pub fn key(key: &str) -> Option<Intent> {
    Some(match key {
        "ArrowLeft" => Intent::Orbit { dx: -KEY_STEP, dy: 0.0 },
        "ArrowRight" => Intent::Orbit { dx: KEY_STEP, dy: 0.0 },
        "ArrowUp" => Intent::Orbit { dx: 0.0, dy: -KEY_STEP },
        "ArrowDown" => Intent::Orbit { dx: 0.0, dy: KEY_STEP },
        "+" | "=" => Intent::Zoom { factor: 0.9 },
        "-" | "_" => Intent::Zoom { factor: 1.1 },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEFT: i16 = 0;
    const RIGHT: i16 = 2;

    fn down(id: i32, x: f32, y: f32) -> Input {
        Input::Down { id, button: LEFT, x, y }
    }
    fn mv(id: i32, x: f32, y: f32) -> Input {
        Input::Move { id, x, y }
    }
    fn up(id: i32, x: f32, y: f32) -> Input {
        Input::Up { id, x, y }
    }

    /// Feeds the inputs in order; every intent that came out.
    fn run(g: &mut Gesture, inputs: &[Input]) -> Vec<Intent> {
        inputs.iter().filter_map(|i| g.handle(*i)).collect()
    }

    #[test]
    fn a_press_held_still_is_a_long_press_and_its_release_does_not_tap() {
        let mut g = Gesture::new(false);
        let held = |press| Input::Held { id: 1, press };
        let out = run(&mut g, &[down(1, 50.0, 50.0), mv(1, 52.0, 51.0), held(1), up(1, 52.0, 51.0)]);
        assert!(out.contains(&Intent::Hold { x: 52.0, y: 51.0 }), "{out:?}");
        assert_eq!(taps(&out), 0);
        assert_eq!(g.phase(), Phase::Idle);
        // The timer of a press that became a drag, of a pinch, or of a lifted pointer is ignored.
        let out = run(&mut g, &[down(1, 50.0, 50.0), mv(1, 80.0, 50.0), held(2), up(1, 80.0, 50.0)]);
        assert!(!out.iter().any(|i| matches!(i, Intent::Hold { .. })));
        let out = run(&mut g, &[down(1, 0.0, 0.0), down(2, 10.0, 0.0), held(3)]);
        assert!(!out.iter().any(|i| matches!(i, Intent::Hold { .. })));
        let mut g = Gesture::new(false);
        let out = run(&mut g, &[down(1, 0.0, 0.0), up(1, 0.0, 0.0), held(1)]);
        assert_eq!((taps(&out), out.len()), (1, 1));
        // In region-selection mode a long press is no gesture of its own.
        let mut g = Gesture::new(true);
        assert!(run(&mut g, &[down(1, 0.0, 0.0), held(1)]).is_empty());
    }

    #[test]
    fn a_timer_from_an_earlier_press_does_not_make_a_new_press_long() {
        // A quick tap, pressed again at once with the same pointer: the first press's timer
        // fires during the second.
        let mut g = Gesture::new(false);
        let out =
            run(&mut g, &[down(1, 0.0, 0.0), up(1, 0.0, 0.0), down(1, 0.0, 0.0), Input::Held { id: 1, press: 1 }]);
        assert_eq!((taps(&out), out.len()), (1, 1), "{out:?}");
        assert_eq!(g.handle(Input::Held { id: 1, press: g.presses() }), Some(Intent::Hold { x: 0.0, y: 0.0 }));
    }

    #[test]
    fn a_finger_added_to_a_long_press_neither_zooms_nor_taps() {
        let mut g = Gesture::new(false);
        let out = run(
            &mut g,
            &[
                down(1, 0.0, 0.0),
                Input::Held { id: 1, press: 1 },
                down(2, 50.0, 0.0),
                mv(2, 90.0, 0.0),
                up(2, 90.0, 0.0),
            ],
        );
        assert_eq!(out, vec![Intent::Hold { x: 0.0, y: 0.0 }]);
        assert_eq!(g.phase(), Phase::Held);
        assert_eq!(g.handle(up(1, 0.0, 0.0)), None);
        assert_eq!(g.phase(), Phase::Idle);
    }

    fn taps(out: &[Intent]) -> usize {
        out.iter().filter(|i| matches!(i, Intent::Tap { .. })).count()
    }

    fn turned(out: &[Intent]) -> (f32, f32) {
        out.iter().fold((0.0, 0.0), |(x, y), i| match i {
            Intent::Orbit { dx, dy } => (x + dx, y + dy),
            _ => (x, y),
        })
    }

    #[test]
    fn a_press_without_movement_taps_where_it_is_lifted() {
        let mut g = Gesture::default();
        assert_eq!(run(&mut g, &[down(1, 40.0, 30.0), up(1, 40.0, 30.0)]), vec![Intent::Tap { x: 40.0, y: 30.0 }]);
        assert_eq!(g.phase(), Phase::Idle);
    }

    #[test]
    fn small_jitter_stays_a_tap() {
        let mut g = Gesture::default();
        // Up to 6 px from the start, back and forth (a path much longer than 6 px).
        let out = run(
            &mut g,
            &[
                down(1, 100.0, 100.0),
                mv(1, 103.0, 102.0),
                mv(1, 97.0, 99.0),
                mv(1, 106.0, 100.0),
                mv(1, 100.0, 94.0),
                mv(1, 104.0, 101.0),
            ],
        );
        assert_eq!(taps(&out), 0, "nothing taps before the release");
        assert!(matches!(g.phase(), Phase::Press { .. }));
        // The view follows the jitter (as it always did), and the release taps.
        assert_eq!(turned(&out), (4.0, 1.0));
        assert_eq!(g.handle(up(1, 104.0, 101.0)), Some(Intent::Tap { x: 104.0, y: 101.0 }));
    }

    #[test]
    fn seven_px_is_a_drag_that_never_taps() {
        let mut g = Gesture::default();
        let out = run(&mut g, &[down(1, 100.0, 100.0), mv(1, 107.0, 100.0)]);
        assert_eq!(out, vec![Intent::Orbit { dx: 7.0, dy: 0.0 }]);
        assert!(matches!(g.phase(), Phase::Drag { region: false, .. }));
        // Coming back to the start does not make it a tap again.
        let out = run(&mut g, &[mv(1, 100.0, 100.0), up(1, 100.0, 100.0)]);
        assert_eq!(out, vec![Intent::Orbit { dx: -7.0, dy: 0.0 }]);
        assert_eq!(g.phase(), Phase::Idle);
        // Diagonal: 5 px and 5 px is 7.07 px away.
        let out = run(&mut g, &[down(2, 0.0, 0.0), mv(2, 5.0, 5.0), up(2, 5.0, 5.0)]);
        assert_eq!(taps(&out), 0);
    }

    #[test]
    fn a_release_beyond_the_slop_is_a_drag_even_without_a_move_before_it() {
        let mut g = Gesture::default();
        assert_eq!(run(&mut g, &[down(1, 0.0, 0.0), up(1, 20.0, 0.0)]), vec![]);
    }

    #[test]
    fn right_drag_rotates_like_a_left_drag() {
        for button in [LEFT, RIGHT] {
            let mut g = Gesture::default();
            let out = run(
                &mut g,
                &[
                    Input::Down { id: 1, button, x: 10.0, y: 10.0 },
                    mv(1, 30.0, 15.0),
                    mv(1, 50.0, 25.0),
                    up(1, 50.0, 25.0),
                ],
            );
            assert_eq!(out, vec![Intent::Orbit { dx: 20.0, dy: 5.0 }, Intent::Orbit { dx: 20.0, dy: 10.0 }]);
        }
    }

    #[test]
    fn moves_of_a_pointer_that_is_not_pressed_do_nothing() {
        let mut g = Gesture::default();
        assert_eq!(run(&mut g, &[mv(1, 10.0, 10.0), mv(1, 90.0, 10.0), up(1, 90.0, 10.0)]), vec![]);
        assert_eq!(g.phase(), Phase::Idle);
    }

    #[test]
    fn a_second_finger_turns_a_drag_into_a_pinch_and_nothing_taps_after_it() {
        let mut g = Gesture::default();
        let out = run(&mut g, &[down(1, 100.0, 100.0), mv(1, 102.0, 100.0)]);
        assert_eq!(out, vec![Intent::Orbit { dx: 2.0, dy: 0.0 }]);
        assert_eq!(g.handle(down(2, 200.0, 100.0)), None);
        assert_eq!(g.phase(), Phase::Pinch { region: false });
        // Moving apart from 98 to 196 px zooms in by half; the pinch does not rotate.
        assert_eq!(g.handle(mv(2, 298.0, 100.0)), Some(Intent::Zoom { factor: 0.5 }));
        // Closer again zooms out.
        assert_eq!(g.handle(mv(1, 200.0, 100.0)), Some(Intent::Zoom { factor: 2.0 }));
        // Both lifted where they were pressed: still no tap.
        let out = run(&mut g, &[mv(1, 100.0, 100.0), mv(2, 200.0, 100.0), up(2, 200.0, 100.0), up(1, 100.0, 100.0)]);
        assert_eq!(taps(&out), 0);
        assert_eq!(turned(&out), (0.0, 0.0));
        assert_eq!(g.phase(), Phase::Idle);
        // The next press is a tap again.
        assert_eq!(run(&mut g, &[down(3, 5.0, 5.0), up(3, 5.0, 5.0)]), vec![Intent::Tap { x: 5.0, y: 5.0 }]);
    }

    #[test]
    fn lifting_one_finger_of_a_pinch_does_not_tap() {
        let mut g = Gesture::default();
        let out = run(&mut g, &[down(1, 100.0, 100.0), down(2, 200.0, 100.0), up(1, 100.0, 100.0)]);
        assert_eq!(out, vec![]);
        assert_eq!(g.phase(), Phase::AfterPinch { region: false });
        // The finger left turns the view but never taps, however little it moved.
        assert_eq!(g.handle(mv(2, 203.0, 100.0)), Some(Intent::Orbit { dx: 3.0, dy: 0.0 }));
        assert_eq!(g.handle(up(2, 203.0, 100.0)), None);
        // Lifting the first finger pressed or the second makes no difference.
        let out =
            run(&mut g, &[down(1, 100.0, 100.0), down(2, 200.0, 100.0), up(2, 200.0, 100.0), up(1, 100.0, 100.0)]);
        assert_eq!(out, vec![]);
        // A finger put down again during what is left of a pinch pinches again.
        let out = run(&mut g, &[down(1, 0.0, 0.0), down(2, 100.0, 0.0), up(2, 100.0, 0.0), down(3, 50.0, 0.0)]);
        assert_eq!(out, vec![]);
        assert_eq!(g.phase(), Phase::Pinch { region: false });
        assert_eq!(g.handle(mv(3, 25.0, 0.0)), Some(Intent::Zoom { factor: 2.0 }));
        assert_eq!(run(&mut g, &[up(1, 0.0, 0.0), up(3, 25.0, 0.0)]), vec![]);
        assert_eq!(g.phase(), Phase::Idle);
    }

    #[test]
    fn three_fingers_do_nothing_until_one_is_lifted() {
        let mut g = Gesture::default();
        let out = run(&mut g, &[down(1, 0.0, 0.0), down(2, 100.0, 0.0), down(3, 0.0, 100.0), mv(2, 200.0, 0.0)]);
        assert_eq!(out, vec![]);
        // Pointers 1 and 2 are now 200 px apart; moving 2 to 100 px zooms out by two.
        assert_eq!(g.handle(up(3, 0.0, 100.0)), None);
        assert_eq!(g.handle(mv(2, 100.0, 0.0)), Some(Intent::Zoom { factor: 2.0 }));
    }

    #[test]
    fn a_cancelled_pointer_leaves_without_a_tap() {
        let mut g = Gesture::default();
        assert_eq!(run(&mut g, &[down(1, 10.0, 10.0), Input::Cancel { id: 1 }]), vec![]);
        assert_eq!(g.phase(), Phase::Idle);
        // A release after it (or a `pointerleave` after a release) is not a tap either.
        assert_eq!(run(&mut g, &[up(1, 10.0, 10.0), Input::Cancel { id: 1 }]), vec![]);
        // One finger of a pinch cancelled: the other goes on as after a pinch.
        let out = run(&mut g, &[down(1, 0.0, 0.0), down(2, 100.0, 0.0), Input::Cancel { id: 2 }, up(1, 0.0, 0.0)]);
        assert_eq!(out, vec![]);
        // A cancelled region drag yields no rectangle and hides the one shown.
        let mut g = Gesture::new(true);
        run(&mut g, &[down(1, 0.0, 0.0), mv(1, 50.0, 50.0)]);
        assert!(g.rect().is_some());
        assert_eq!(run(&mut g, &[Input::Cancel { id: 1 }, up(1, 50.0, 50.0)]), vec![]);
        assert_eq!(g.rect(), None);
    }

    #[test]
    fn a_region_drag_yields_a_rectangle_and_neither_rotates_nor_selects() {
        let mut g = Gesture::new(true);
        assert_eq!(g.handle(down(1, 10.0, 10.0)), None);
        assert_eq!(g.rect(), None, "nothing to show before the pointer moves");
        let out = run(&mut g, &[mv(1, 13.0, 12.0), mv(1, 50.0, 40.0)]);
        assert_eq!(out, vec![], "no rotation");
        assert_eq!(g.rect(), Some([10.0, 10.0, 50.0, 40.0]));
        assert_eq!(g.phase(), Phase::Drag { start: [10.0, 10.0], region: true });
        // Back near the start: still a drag, the rectangle follows.
        assert_eq!(g.handle(mv(1, 12.0, 11.0)), None);
        assert_eq!(g.rect(), Some([10.0, 10.0, 12.0, 11.0]));
        // The release yields the rectangle from the press to the release, and hides it.
        assert_eq!(g.handle(up(1, 60.0, 45.0)), Some(Intent::Region { rect: [10.0, 10.0, 60.0, 45.0] }));
        assert_eq!(g.rect(), None);
        assert_eq!(g.phase(), Phase::Idle);
        // Any direction, any button.
        let out = run(
            &mut g,
            &[Input::Down { id: 2, button: RIGHT, x: 90.0, y: 90.0 }, mv(2, 20.0, 30.0), up(2, 20.0, 30.0)],
        );
        assert_eq!(out, vec![Intent::Region { rect: [90.0, 90.0, 20.0, 30.0] }]);
    }

    #[test]
    fn in_region_mode_a_press_within_the_slop_still_taps() {
        let mut g = Gesture::new(true);
        let out = run(&mut g, &[down(1, 10.0, 10.0), mv(1, 14.0, 13.0), up(1, 14.0, 13.0)]);
        assert_eq!(out, vec![Intent::Tap { x: 14.0, y: 13.0 }]);
        assert_eq!(g.rect(), None);
    }

    #[test]
    fn in_region_mode_a_pinch_zooms_and_the_finger_left_does_nothing() {
        let mut g = Gesture::new(true);
        run(&mut g, &[down(1, 0.0, 0.0), mv(1, 30.0, 0.0)]);
        assert!(g.rect().is_some());
        assert_eq!(g.handle(down(2, 130.0, 0.0)), None);
        assert_eq!(g.rect(), None, "the rectangle goes when the pinch begins");
        assert_eq!(g.handle(mv(2, 230.0, 0.0)), Some(Intent::Zoom { factor: 0.5 }));
        let out = run(&mut g, &[up(2, 230.0, 0.0), mv(1, 90.0, 40.0), up(1, 90.0, 40.0)]);
        assert_eq!(out, vec![], "no rotation, no rectangle, no tap");
    }

    #[test]
    fn the_mode_is_taken_when_the_press_begins() {
        let mut g = Gesture::new(false);
        g.handle(down(1, 0.0, 0.0));
        g.region_select = true;
        let out = run(&mut g, &[mv(1, 40.0, 0.0), up(1, 40.0, 0.0)]);
        assert_eq!(out, vec![Intent::Orbit { dx: 40.0, dy: 0.0 }]);
        g.handle(down(1, 0.0, 0.0));
        g.region_select = false;
        let out = run(&mut g, &[mv(1, 40.0, 0.0), up(1, 40.0, 0.0)]);
        assert_eq!(out, vec![Intent::Region { rect: [0.0, 0.0, 40.0, 0.0] }]);
    }

    #[test]
    fn a_press_seen_twice_starts_afresh() {
        let mut g = Gesture::default();
        // The release of the first press was lost (e.g. outside the window).
        let out = run(&mut g, &[down(1, 0.0, 0.0), mv(1, 50.0, 0.0), down(1, 80.0, 80.0), up(1, 80.0, 80.0)]);
        assert_eq!(out, vec![Intent::Orbit { dx: 50.0, dy: 0.0 }, Intent::Tap { x: 80.0, y: 80.0 }]);
    }

    #[test]
    fn the_wheel_zooms_and_leaves_a_press_alone() {
        let mut g = Gesture::default();
        let Some(Intent::Zoom { factor }) = g.handle(Input::Wheel { dy: -100.0 }) else { panic!("no zoom") };
        assert!(factor < 1.0, "wheel up zooms in");
        let Some(Intent::Zoom { factor }) = g.handle(Input::Wheel { dy: 100.0 }) else { panic!("no zoom") };
        assert!(factor > 1.0, "wheel down zooms out");
        let out = run(&mut g, &[down(1, 0.0, 0.0), Input::Wheel { dy: 50.0 }, up(1, 0.0, 0.0)]);
        assert_eq!(out[1], Intent::Tap { x: 0.0, y: 0.0 });
    }

    #[test]
    fn keys_turn_and_zoom() {
        assert_eq!(key("ArrowLeft"), Some(Intent::Orbit { dx: -KEY_STEP, dy: 0.0 }));
        assert_eq!(key("ArrowDown"), Some(Intent::Orbit { dx: 0.0, dy: KEY_STEP }));
        assert_eq!(key("+"), Some(Intent::Zoom { factor: 0.9 }));
        assert_eq!(key("_"), Some(Intent::Zoom { factor: 1.1 }));
        assert_eq!(key("a"), None);
    }
}
