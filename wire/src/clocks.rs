//! Match clocks (003 §1.2, §5.2, §5.4–5.5; 000 §2, §8.2, §8.5). Pure arithmetic over server
//! receipt times: the room's state tells the clock when a turn runs and when it pauses; the
//! clock says how much time is left and when it runs out. Shared with the browser, which
//! shows the same numbers from a snapshot.
//!
//! The clocks run on a [`ClockRule`], which only validated settings make: one preset's time,
//! so a Space clock never has byo-yomi and a Classic clock never hours per side. The view
//! shows the flat [`TimeControl`] of the settings.
//!
//! A turn may run in several stretches (an undo request pauses it, 003 §5.2); time is
//! settled against main time and byo-yomi only when the turn ends, so a pause does not
//! reset a byo-yomi period.

use serde::{Deserialize, Serialize};

use crate::ByColour;

use super::{
    settings::{ClassicTime, ClockRule, SpaceHours, TimeControl},
    terms::Colour,
};

/// The turn being timed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnClock {
    pub colour: Colour,
    /// Time used in earlier stretches of this turn.
    pub used_ms: i64,
    /// When the current stretch started; `None` while paused.
    pub running_since: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchClocks {
    pub rule: ClockRule,
    /// Main time left, by colour (Black, White).
    pub main_ms: ByColour<i64>,
    /// Byo-yomi periods left (000 §8.1 `periodsLeft`); 0 for other controls.
    pub periods_left: ByColour<u32>,
    pub turn: Option<TurnClock>,
}

/// The turn's time ran out (003 §5.4; 000 §8.5 `timeLoss`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expired {
    pub colour: Colour,
}

impl MatchClocks {
    pub fn new(rule: ClockRule) -> MatchClocks {
        let (main, periods) = match rule {
            // 003 §1.2: hours per side, may differ.
            ClockRule::Space(SpaceHours { black, white }) => {
                (ByColour::new(black as i64 * 3_600_000, white as i64 * 3_600_000), 0)
            }
            ClockRule::Classic(t) => match t {
                ClassicTime::None { .. } => (ByColour::both(0), 0),
                ClassicTime::Byoyomi { main_s, periods, .. } => (ByColour::both(main_s as i64 * 1000), periods),
                ClassicTime::Fischer { main_s, .. } => (ByColour::both(main_s as i64 * 1000), 0),
            },
        };
        MatchClocks { rule, main_ms: main, periods_left: ByColour::both(periods), turn: None }
    }

    /// Everything `colour` may still use in one turn from its start: main time plus every
    /// byo-yomi period (000 §8.5 `deadline`), or the idle limit without a clock.
    pub fn turn_budget_ms(&self, colour: Colour) -> i64 {
        let i = colour;
        match self.rule {
            ClockRule::Space(_) | ClockRule::Classic(ClassicTime::Fischer { .. }) => self.main_ms[i],
            ClockRule::Classic(ClassicTime::Byoyomi { period_s, .. }) => {
                self.main_ms[i] + self.periods_left[i] as i64 * period_s as i64 * 1000
            }
            ClockRule::Classic(ClassicTime::None { idle_limit_s }) => idle_limit_s as i64 * 1000,
        }
    }

    /// Time used in the current turn up to `now`.
    pub fn used_in_turn(&self, now: i64) -> i64 {
        self.turn.map_or(0, |t| t.used_ms + t.running_since.map_or(0, |s| (now - s).max(0)))
    }

    /// Starts (or continues, if it is already `colour`'s turn) the turn's clock at `now`.
    pub fn run(&mut self, colour: Colour, now: i64) {
        match &mut self.turn {
            Some(t) if t.colour == colour => {
                if t.running_since.is_none() {
                    t.running_since = Some(now);
                }
            }
            _ => self.turn = Some(TurnClock { colour, used_ms: 0, running_since: Some(now) }),
        }
    }

    /// Stops the running stretch at `now`, keeping the turn's used time.
    pub fn pause(&mut self, now: i64) {
        if let Some(t) = &mut self.turn {
            if let Some(s) = t.running_since.take() {
                t.used_ms += (now - s).max(0);
            }
        }
    }

    pub fn is_running(&self) -> bool {
        self.turn.is_some_and(|t| t.running_since.is_some())
    }

    /// When the running turn's time runs out.
    pub fn deadline(&self) -> Option<(i64, Colour)> {
        let t = self.turn?;
        let since = t.running_since?;
        Some((since + self.turn_budget_ms(t.colour) - t.used_ms, t.colour))
    }

    /// Has the turn's time run out by `now`? A move received at or after the deadline is
    /// too late (003 §5.4: the server's receipt time decides).
    pub fn expired_at(&self, now: i64) -> Option<Expired> {
        let t = self.turn?;
        (self.used_in_turn(now) >= self.turn_budget_ms(t.colour)).then_some(Expired { colour: t.colour })
    }

    /// Ends the turn at `now` (a move or pass by its colour, or an undo that takes the turn
    /// away): charges its time to main time and byo-yomi; with `moved`, Fischer adds the
    /// increment. No time is ever refunded (003 §5.1).
    pub fn settle(&mut self, now: i64, moved: bool) {
        self.pause(now);
        let Some(t) = self.turn.take() else { return };
        let i = t.colour;
        let used = t.used_ms;
        match self.rule {
            ClockRule::Space(_) => self.main_ms[i] = (self.main_ms[i] - used).max(0),
            ClockRule::Classic(ClassicTime::None { .. }) => {}
            ClockRule::Classic(ClassicTime::Fischer { increment_s, .. }) => {
                self.main_ms[i] = (self.main_ms[i] - used).max(0);
                if moved {
                    self.main_ms[i] += increment_s as i64 * 1000;
                }
            }
            ClockRule::Classic(ClassicTime::Byoyomi { period_s, .. }) => {
                // 000 §8.2: main time first; a turn that fits in one period keeps it, each
                // period overrun uses one up.
                let over = used - self.main_ms[i];
                if over <= 0 {
                    self.main_ms[i] -= used;
                } else {
                    self.main_ms[i] = 0;
                    let period = period_s as i64 * 1000;
                    let spent = ((over - 1) / period) as u32;
                    self.periods_left[i] = self.periods_left[i].saturating_sub(spent);
                }
            }
        }
    }

    /// What a viewer is shown at `now`: each side's remaining time as if its turn ended now.
    pub fn snapshot(&self, now: i64) -> ClockView {
        let mut main = self.main_ms;
        let mut periods = self.periods_left;
        if let Some(t) = self.turn {
            let mut probe = self.clone();
            probe.settle(now, false);
            let i = t.colour;
            main[i] = probe.main_ms[i];
            periods[i] = probe.periods_left[i];
            if let ClockRule::Classic(ClassicTime::None { .. }) = self.rule {
                main[i] = (self.turn_budget_ms(t.colour) - self.used_in_turn(now)).max(0);
            }
        }
        ClockView {
            control: self.rule.control(),
            main_ms: main,
            periods_left: periods,
            running: self.turn.filter(|t| t.running_since.is_some()).map(|t| t.colour),
            turn_left_ms: self.turn.map(|t| (self.turn_budget_ms(t.colour) - self.used_in_turn(now)).max(0)),
            at_ms: now,
        }
    }
}

/// Clocks as shown: remaining main time (with `none`, the idle time left in the turn),
/// byo-yomi periods, which clock runs, and the whole time left in the current turn, all at
/// server time `at_ms`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClockView {
    pub control: TimeControl,
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<i64>))]
    pub main_ms: ByColour<i64>,
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<u32>))]
    pub periods_left: ByColour<u32>,
    pub running: Option<Colour>,
    pub turn_left_ms: Option<i64>,
    pub at_ms: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    const B: Colour = Colour::Black;
    const W: Colour = Colour::White;

    #[test]
    fn space_hours_charge_used_time_only_while_running() {
        // 003 §1.2: hours per side, may differ; 003 §5.2: paused while waiting.
        let mut c = MatchClocks::new(ClockRule::Space(SpaceHours { black: 1, white: 2 }));
        assert_eq!(c.main_ms, ByColour::new(3_600_000, 7_200_000));
        c.run(B, 0);
        c.pause(10_000);
        assert_eq!(c.deadline(), None);
        c.run(B, 50_000); // the pause is not charged
        assert_eq!(c.deadline(), Some((50_000 + 3_600_000 - 10_000, B)));
        c.settle(55_000, true);
        assert_eq!(c.main_ms[B], 3_600_000 - 15_000);
        assert_eq!(c.turn, None);
    }

    #[test]
    fn byoyomi_keeps_a_period_used_within_it_and_spends_one_per_overrun() {
        // 000 §8.2 clock handling.
        let mut c = MatchClocks::new(ClockRule::Classic(ClassicTime::Byoyomi { main_s: 10, period_s: 30, periods: 3 }));
        c.run(B, 0);
        c.settle(25_000, true); // 10 s main + 15 s of a period: period kept
        assert_eq!((c.main_ms[B], c.periods_left[B]), (0, 3));
        c.run(B, 100_000);
        c.settle(100_000 + 30_000, true); // exactly one period: kept
        assert_eq!(c.periods_left[B], 3);
        c.run(B, 200_000);
        c.settle(200_000 + 61_000, true); // two whole periods overrun
        assert_eq!(c.periods_left[B], 1);
        c.run(B, 300_000);
        assert_eq!(c.deadline(), Some((330_000, B)));
        assert_eq!(c.expired_at(329_999), None);
        assert_eq!(c.expired_at(330_000), Some(Expired { colour: B }));
    }

    #[test]
    fn byoyomi_period_is_not_reset_by_a_pause() {
        let mut c = MatchClocks::new(ClockRule::Classic(ClassicTime::Byoyomi { main_s: 0, period_s: 10, periods: 1 }));
        c.run(W, 0);
        c.pause(8_000);
        c.run(W, 20_000);
        assert_eq!(c.deadline(), Some((22_000, W)));
    }

    #[test]
    fn fischer_adds_the_increment_after_a_move_only() {
        let mut c = MatchClocks::new(ClockRule::Classic(ClassicTime::Fischer { main_s: 60, increment_s: 10 }));
        c.run(B, 0);
        c.settle(5_000, true);
        assert_eq!(c.main_ms[B], 65_000);
        c.run(B, 0);
        c.settle(5_000, false);
        assert_eq!(c.main_ms[B], 60_000);
    }

    #[test]
    fn no_clock_means_an_idle_limit_per_turn() {
        // 000 §8.5: `none` → turnStartedAt + idleLimitSec.
        let mut c = MatchClocks::new(ClockRule::Classic(ClassicTime::None { idle_limit_s: 300 }));
        c.run(W, 1_000);
        assert_eq!(c.deadline(), Some((301_000, W)));
        c.settle(2_000, true);
        c.run(W, 10_000);
        assert_eq!(c.deadline(), Some((310_000, W)), "a new turn gets the whole limit again");
    }

    #[test]
    fn snapshot_shows_the_running_side_as_if_its_turn_ended_now() {
        let mut c = MatchClocks::new(ClockRule::Classic(ClassicTime::Byoyomi { main_s: 5, period_s: 10, periods: 2 }));
        c.run(B, 0);
        let v = c.snapshot(7_000);
        assert_eq!(
            (v.main_ms, v.periods_left, v.running, v.turn_left_ms),
            (ByColour::new(0, 5_000), ByColour::new(2, 2), Some(B), Some(18_000))
        );
    }
}
