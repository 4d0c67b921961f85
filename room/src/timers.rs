//! What time and connections do to a match: clocks running out (003 §5.4; 000 §8.5), the
//! ten-second acknowledgement (003 §5.6), the one-minute undo answer (003 §5.2), the
//! reconnection wait (003 §6.1, §4.6; 000 §8.5), the five-minute readiness notice (003 §1.6,
//! §6.3) and the scoring deadline (000 §8.5) or scoring-wait notice (003 §10.2).
//!
//! The owner asks `next_deadline`, sleeps until then (or until a command arrives), and
//! calls `tick` with the current time; the events `tick` yields are stored like any other,
//! so a replay needs no clock.

use super::{ended, MatchState, Phase};
use wire::{
    commands::RoomPhase,
    events::{Attention, Colour, Event, FaultCause, HoldReason},
    settings::MatchRules,
};

/// 003 §5.6: a move not acknowledged within ten seconds is a connection fault.
pub const ACK_TIMEOUT_MS: i64 = 10_000;
/// 003 §5.2: an undo request unanswered for a minute is refused.
pub const UNDO_ANSWER_MS: i64 = 60_000;
/// 003 §1.6, §6.3: five minutes without both players' Ready notifies the administrator.
pub const READINESS_WAIT_MS: i64 = 300_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Timer {
    ClockExpiry(Colour),
    AckTimeout(Colour),
    UndoAnswer,
    ReconnectionWait(Colour),
    ReadinessWait,
    ScoringDeadline,
}

impl MatchState {
    fn timers(&self) -> Vec<(i64, Timer)> {
        let mut t = Vec::new();
        match &self.phase {
            Phase::Playing => {
                if let Some((at, c)) = self.clocks.deadline() {
                    t.push((at, Timer::ClockExpiry(c)));
                }
                if let Some((c, _)) = self.awaiting_ack {
                    if self.faults[c].is_none() {
                        t.push((self.ack_since_ms + ACK_TIMEOUT_MS, Timer::AckTimeout(c)));
                    }
                }
                if let Some(u) = self.undo {
                    t.push((u.since_ms + UNDO_ANSWER_MS, Timer::UndoAnswer));
                }
            }
            Phase::WaitingReady(r) => {
                if !r.alerted {
                    t.push((r.since_ms + READINESS_WAIT_MS, Timer::ReadinessWait));
                }
            }
            Phase::Scoring(s) => {
                let limit_s = match &self.rules {
                    // 000 §8.5: the dead-stone review limit, then auto-agree.
                    MatchRules::Classic(c) => Some(c.scoring_deadline_s()),
                    // 003 §10.1–10.2: the agreed scoring-wait alert, sent once.
                    MatchRules::Space(sp) => sp.scoring_wait_s().filter(|_| !s.alerted),
                };
                if let Some(limit_s) = limit_s {
                    t.push((s.started_ms + limit_s as i64 * 1000, Timer::ScoringDeadline));
                }
            }
            Phase::Open | Phase::Held { .. } | Phase::AwaitingReview(_) | Phase::Finished { .. } | Phase::Cancelled => {
            }
        }
        if matches!(self.phase, Phase::Playing | Phase::Scoring(_)) {
            // 003 §6.1 five minutes; 000 §8.5 the agreed grace.
            let wait_ms = self.rules.reconnection_wait_s() as i64 * 1000;
            for c in [Colour::Black, Colour::White] {
                // 000 §8.5: a Classic player's absence counts when they must act — in play,
                // on their turn (at once if the grace ended while the opponent thought).
                let must_act =
                    !(self.absent_in_classic(c) && self.phase() == RoomPhase::Playing && self.to_move() != c);
                if let Some(f) = self.faults[c].filter(|_| must_act) {
                    t.push((f.since_ms + wait_ms, Timer::ReconnectionWait(c)));
                }
            }
        }
        t
    }

    /// When `tick` next has something to do.
    pub fn next_deadline(&self) -> Option<i64> {
        self.timers().into_iter().map(|(at, _)| at).min()
    }

    /// The events time causes by `now`, applied and returned in order.
    pub fn tick(&mut self, now: i64) -> Vec<Event> {
        let mut out = Vec::new();
        // Each round handles the earliest due timer; its events may cancel or create others.
        for _ in 0..8 {
            let Some((_, timer)) = self.timers().into_iter().filter(|(at, _)| *at <= now).min_by_key(|(at, _)| *at)
            else {
                break;
            };
            let events = self.on_timer(timer, now);
            if events.is_empty() {
                break;
            }
            let d = self.accept(events, Ok(()), now);
            if d.outcome.is_err() {
                break;
            }
            out.extend(d.events);
        }
        out
    }

    fn on_timer(&self, timer: Timer, now: i64) -> Vec<Event> {
        match timer {
            Timer::ClockExpiry(c) => {
                if self.clocks.expired_at(now).is_some_and(|x| x.colour == c) {
                    vec![Event::TimeExpired { colour: c }, ended(&engine::GameResult::time_loss(c), None)]
                } else {
                    Vec::new()
                }
            }
            Timer::AckTimeout(c) => {
                vec![Event::ConnectionLost { colour: c, cause: FaultCause::AcknowledgementTimeout }]
            }
            Timer::UndoAnswer => {
                self.undo.map(|u| vec![Event::UndoExpired { move_number: u.move_number }]).unwrap_or_default()
            }
            Timer::ReadinessWait => vec![Event::AttentionNeeded { attention: Attention::ReadinessTimeout }],
            Timer::ReconnectionWait(c) => {
                let mut events = vec![Event::ReconnectionExpired { colour: c }];
                match (&self.rules, self.phase()) {
                    // 003 §6.1, §4.6: no automatic loss; the administrator decides.
                    (MatchRules::Space(_), _) => {
                        events.push(Event::Held { reason: HoldReason::Disconnection { colour: c } });
                        events.push(Event::AttentionNeeded { attention: Attention::Disconnection });
                    }
                    // 000 §8.5: the absent player's timeout — a time loss in play …
                    (MatchRules::Classic(_), RoomPhase::Playing) => {
                        events.push(Event::TimeExpired { colour: c });
                        events.push(ended(&engine::GameResult::time_loss(c), None));
                    }
                    // … and, in scoring, taken to agree to the current marks.
                    (MatchRules::Classic(_), _) => events.extend(self.deemed_consents(&[c])),
                }
                events
            }
            Timer::ScoringDeadline => match &self.rules {
                // 003 §10.2: a notice, never automatic consent or loss.
                MatchRules::Space(_) => vec![Event::AttentionNeeded { attention: Attention::ScoringWait }],
                // 000 §8.5: whoever has not agreed is taken to agree; the marks stand.
                MatchRules::Classic(_) => {
                    let mut events = vec![Event::ScoringDeadlinePassed];
                    events.extend(self.deemed_consents(&[Colour::Black, Colour::White]));
                    events
                }
            },
        }
    }

    /// Consents on behalf of `who` to the statement in force, and the end if both agree.
    fn deemed_consents(&self, who: &[Colour]) -> Vec<Event> {
        let Some(s) = self.scoring() else {
            return Vec::new();
        };
        let mut consents = s.consents;
        let mut events = Vec::new();
        for &c in who {
            if consents[c] != Some(s.statement) {
                consents[c] = Some(s.statement);
                events.push(Event::Consented {
                    colour: c,
                    statement: s.statement,
                    black_total_half: s.score.black.total_half,
                    white_total_half: s.score.white.total_half,
                });
            }
        }
        if consents.iter().all(|x| *x == Some(s.statement)) {
            if let Ok(e) = self.both_consented(s.statement) {
                events.push(e);
            }
        }
        events
    }

    /// A player's last live connection closed (`connected == false`) or one opened again.
    /// Returns the events to store (already applied).
    pub fn presence(&mut self, colour: Colour, connected: bool, now: i64) -> Vec<Event> {
        let fault = self.faults[colour];
        let events = if connected {
            match fault {
                Some(f) if f.cause == FaultCause::Disconnected => {
                    vec![Event::Reconnected { colour }]
                }
                _ => Vec::new(),
            }
        } else if matches!(self.phase, Phase::Playing | Phase::Scoring(_)) && fault.is_none() {
            vec![Event::ConnectionLost { colour, cause: FaultCause::Disconnected }]
        } else {
            Vec::new()
        };
        self.accept(events, Ok(()), now).events
    }
}
