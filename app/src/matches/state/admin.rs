//! What the administrator can do to a match (003 §1.5, §3.6, §6.1–6.3): hold it, resume it,
//! rule on life and death, decide it. Every ruling carries reasons and is recorded; the
//! caller is checked to be an administrator before any of this runs.

use super::{check_reasons, MatchState, Phase};
use crate::matches::commands::PhaseNeeded;
use crate::matches::{
    commands::{Command, MatchError, RoomPhase},
    events::{Event, HoldReason, Mark, MarkKind},
};

impl MatchState {
    pub(super) fn admin(&mut self, cmd: &Command) -> Result<Vec<Event>, MatchError> {
        match cmd {
            Command::AdminHold { reasons } => {
                let reasons = check_reasons("reasons", reasons)?;
                if !matches!(self.phase(), RoomPhase::WaitingReady | RoomPhase::Playing | RoomPhase::Scoring) {
                    return Err(self.wrong_phase(PhaseNeeded::StartedNotHeld));
                }
                Ok(vec![Event::Held { reason: HoldReason::Administrator { reasons } }])
            }
            Command::AdminResume { reasons } => {
                let reasons = check_reasons("reasons", reasons)?;
                if self.phase() != RoomPhase::Held {
                    return Err(self.wrong_phase(PhaseNeeded::Held));
                }
                Ok(vec![Event::Resumed { reasons }])
            }
            Command::AdminRuling { dead, seki, unresolved, reasons, finalize } => {
                let reasons = check_reasons("reasons", reasons)?;
                let in_scoring = matches!(self.phase, Phase::Scoring(_) | Phase::Held { scoring: Some(_), .. });
                if !in_scoring {
                    return Err(self.wrong_phase(PhaseNeeded::ScoringOrHeldInScoring));
                }
                let mut marks = Vec::new();
                for (list, kind) in [(dead, MarkKind::Dead), (unresolved, MarkKind::Unresolved), (seki, MarkKind::Seki)]
                {
                    for at in list {
                        self.check_mark(*at, kind)?;
                        marks.push(Mark { at: *at, kind, by: None });
                    }
                }
                let statement = self.statement_event(marks.clone());
                let mut events = vec![Event::Ruling { marks, reasons, finalize: *finalize }, statement];
                if *finalize {
                    // Apply to a copy to learn the final statement the ruling makes.
                    let mut probe = self.clone();
                    for e in &events {
                        probe.note(e, self.last_event_ms);
                    }
                    events.push(probe.final_score()?);
                }
                Ok(events)
            }
            Command::AdminDecide { winner, reasons } => {
                let reasons = check_reasons("reasons", reasons)?;
                if matches!(self.phase(), RoomPhase::Open | RoomPhase::Finished) {
                    return Err(self.wrong_phase(PhaseNeeded::StartedUnfinished));
                }
                Ok(vec![
                    Event::Decided { winner: *winner, reasons },
                    Event::Ended {
                        result: engine::GameResult::Decision { winner: *winner },
                        score: None,
                        statement: None,
                    },
                ])
            }
            _ => Err(MatchError::Internal),
        }
    }
}
