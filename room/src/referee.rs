//! What players ask of the referee (003 §1.4, §3.6, §4.7, §5.7): opinions on chains,
//! objections to rulings and to time losses, calls during play, referred errors after the
//! end and their renewed consent — and the queue items a room's state implies.

use super::{check_reasons, opponent, MatchState, Phase};
use wire::conduct::SanctionStatus;
use wire::{
    commands::{MatchError, ObjectionRefusal, PendingKind, PhaseNeeded, RoomPhase},
    events::{Colour, Event, HoldReason, Xyz},
    referee::{ChainOpinion, QueueKind, RoomItem},
};

/// 003 §5.7: an objection to a time loss within seven days of the end.
pub const TIME_LOSS_OBJECTION_DAYS: u32 = 7;
const DAY_MS: i64 = 86_400_000;

impl MatchState {
    /// The chain at `at` by its key (its first stone), or why `at` names none.
    pub(crate) fn chain_key(&self, at: Xyz) -> Result<Xyz, MatchError> {
        let p = self.point(at)?;
        let stones = self.game.board().chain_stones(p);
        stones
            .into_iter()
            .min()
            .map(|q| self.xyz(q))
            .ok_or(MatchError::BadMark { at, why: wire::commands::MarkProblem::NoStone })
    }

    pub(super) fn state_opinion(
        &mut self,
        colour: Colour,
        at: Xyz,
        opinion: ChainOpinion,
        reasons: &str,
        _now: i64,
    ) -> Result<Vec<Event>, MatchError> {
        let reasons = check_reasons("reasons", reasons)?;
        if self.scoring().is_none() || matches!(self.phase, Phase::Finished { .. }) {
            return Err(self.wrong_phase(PhaseNeeded::ScoringOrHeldInScoring));
        }
        let chain = self.chain_key(at)?;
        Ok(vec![Event::OpinionStated { colour, chain, opinion, reasons }])
    }

    /// 003 §3.6: once per ruling and player; the room waits for the administrator's review.
    pub(super) fn object_to_ruling(&mut self, colour: Colour, reasons: &str) -> Result<Vec<Event>, MatchError> {
        let reasons = check_reasons("reasons", reasons)?;
        let Some(latest) = self.referee.rulings.last().map(|r| r.number) else {
            return Err(MatchError::ObjectionNotAllowed { why: ObjectionRefusal::NoRuling });
        };
        if !matches!(self.phase, Phase::Scoring(_) | Phase::AwaitingReview(_)) {
            return Err(self.wrong_phase(PhaseNeeded::Scoring));
        }
        if self.referee.objected[colour] == Some(latest) {
            return Err(MatchError::ObjectionNotAllowed { why: ObjectionRefusal::AlreadyObjected });
        }
        Ok(vec![
            Event::RulingObjected { colour, ruling: latest, reasons: reasons.clone() },
            Event::Held { reason: HoldReason::RulingObjection { colour, reasons } },
        ])
    }

    /// 003 §1.4: a conflict raised during play stops the clocks and waits for a decision.
    pub(super) fn call_administrator(&mut self, colour: Colour, reason: &str) -> Result<Vec<Event>, MatchError> {
        let reason = check_reasons("reason", reason)?;
        if !matches!(self.phase, Phase::Playing | Phase::WaitingReady(_)) {
            return Err(self.wrong_phase(PhaseNeeded::InPlay));
        }
        Ok(vec![Event::Held { reason: HoldReason::PlayerCall { colour, reason } }])
    }

    /// 003 §5.7: after a loss on time, within seven days, once.
    pub(super) fn object_to_time_loss(
        &mut self,
        colour: Colour,
        reasons: &str,
        now: i64,
    ) -> Result<Vec<Event>, MatchError> {
        let reasons = check_reasons("reasons", reasons)?;
        if self.phase() != RoomPhase::Finished {
            return Err(self.wrong_phase(PhaseNeeded::Finished));
        }
        if !matches!(self.result(), Some(engine::GameResult::Time { .. })) {
            return Err(MatchError::ObjectionNotAllowed { why: ObjectionRefusal::NotATimeLoss });
        }
        if self.referee.time_loss.is_some() {
            return Err(MatchError::ObjectionNotAllowed { why: ObjectionRefusal::AlreadyObjected });
        }
        let ended = self.referee.ended_ms.unwrap_or(self.last_event_ms);
        if now - ended > i64::from(TIME_LOSS_OBJECTION_DAYS) * DAY_MS {
            return Err(MatchError::ObjectionNotAllowed {
                why: ObjectionRefusal::TooLate { limit_days: TIME_LOSS_OBJECTION_DAYS },
            });
        }
        Ok(vec![Event::TimeLossObjected { colour, reasons }])
    }

    /// 003 §4.7: ordinary edits stay blocked after the end; an error is referred instead.
    pub(super) fn request_correction(&mut self, by: Option<Colour>, reasons: &str) -> Result<Vec<Event>, MatchError> {
        let reasons = check_reasons("reasons", reasons)?;
        if self.phase() != RoomPhase::Finished {
            return Err(self.wrong_phase(PhaseNeeded::Finished));
        }
        if self.referee.correction.is_some() {
            return Err(MatchError::AlreadyDone);
        }
        Ok(vec![Event::CorrectionRequested { by, reasons }])
    }

    /// 003 §4.7: the correction applies only after both players consent again.
    pub(super) fn answer_correction(&mut self, colour: Colour, accept: bool) -> Result<Vec<Event>, MatchError> {
        let proposal = self.referee.correction.as_ref().and_then(|c| c.proposal.as_ref());
        let Some(p) = proposal else {
            return Err(MatchError::NoPendingRequest { what: PendingKind::CorrectionProposal });
        };
        if p.answers[colour].is_some() {
            return Err(MatchError::AlreadyDone);
        }
        let mut events = vec![Event::CorrectionAnswered { colour, accept }];
        let other = p.answers[opponent(colour)];
        if accept && other == Some(true) {
            events.push(Event::CorrectionApplied { result: p.result });
        }
        Ok(events)
    }

    /// What in this room waits for an administrator, and since when (the queue is derived
    /// from the rooms, so it cannot disagree with them).
    pub fn queue_items(&self) -> Vec<RoomItem> {
        let mut out = Vec::new();
        let mut item = |kind, since_ms| out.push(RoomItem { kind, since_ms });
        match &self.phase {
            Phase::Held { reason, since_ms, .. } => match reason {
                HoldReason::ScoringDispute { .. } => item(QueueKind::ScoringDispute, *since_ms),
                HoldReason::Disconnection { .. } => item(QueueKind::ConnectionHold, *since_ms),
                HoldReason::PlayerCall { .. } => item(QueueKind::PlayerCall, *since_ms),
                HoldReason::RulingObjection { .. } => item(QueueKind::RulingObjection, *since_ms),
                HoldReason::DamagedRecord { .. } => item(QueueKind::DamagedRecord, *since_ms),
                HoldReason::Administrator { .. } => item(QueueKind::AdministratorHold, *since_ms),
                HoldReason::ServerRestart => {}
            },
            Phase::WaitingReady(r) if r.alerted => {
                item(QueueKind::ReadinessTimeout, r.since_ms + super::READINESS_WAIT_MS)
            }
            Phase::Scoring(s) if s.alerted => {
                let wait = match &self.rules {
                    wire::settings::MatchRules::Space(sp) => sp.scoring_wait_s().unwrap_or(0),
                    wire::settings::MatchRules::Classic(_) => 0,
                };
                item(QueueKind::ScoringWait, s.started_ms + i64::from(wait) * 1000)
            }
            Phase::AwaitingReview(_) => {
                item(QueueKind::AwaitingReview, self.referee.awaiting_review.map_or(self.last_event_ms, |r| r.since_ms))
            }
            Phase::Finished { .. } => {
                if let Some(t) = self.referee.time_loss.as_ref().filter(|t| t.cancelled.is_none()) {
                    item(QueueKind::TimeLossObjection, t.objection.at_ms);
                }
                // Waiting for the administrator's proposal (again, after a refusal).
                if let Some(c) = self.referee.correction.as_ref().filter(|c| c.proposal.is_none()) {
                    item(QueueKind::CorrectionRequest, c.at_ms);
                }
            }
            _ => {}
        }
        // 003 §6.6: an appeal waits for the administrator in any phase.
        let appeal = self.referee.sanctions.iter().filter(|s| s.status == SanctionStatus::UnderReview);
        if let Some(since) = appeal.filter_map(|s| s.appeals.last().map(|a| a.at_ms)).min() {
            item(QueueKind::Appeal, since);
        }
        out
    }
}
