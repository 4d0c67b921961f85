//! A command in, its events out: who may give it, in which phase, and the procedure that
//! decides it; accepted events are applied before the answer.

use super::*;

/// The result of handling a command: events to store (possibly even when refused: an
/// illegal attempt is recorded, 003 §2.5) and the answer for the caller.
#[derive(Debug)]
pub struct Decision {
    pub events: Vec<Event>,
    pub outcome: Result<(), MatchError>,
}

impl Decision {
    pub(super) fn refuse(e: MatchError) -> Self {
        Decision { events: Vec::new(), outcome: Err(e) }
    }
}

impl MatchState {
    /// Validates `cmd` from `caller`, received at `now`. Accepted events are already applied
    /// to `self` on return.
    pub fn handle(&mut self, caller: &Requester, cmd: &Command, now: i64) -> Decision {
        // Moves and passes are validated by playing them on the engine (no second pass).
        if let Command::Move { .. } | Command::Pass = cmd {
            let colour = match self.acting_seat(caller.user_id, cmd) {
                None => return Decision::refuse(MatchError::NotAPlayer),
                Some(seat) => match self.colour_of_seat(seat) {
                    Some(c) => c,
                    None => return Decision::refuse(self.wrong_phase(PhaseNeeded::Playing)),
                },
            };
            let at = if let Command::Move { at } = cmd { Some(*at) } else { None };
            return self.play(colour, at, now);
        }
        let decided = self.decide(caller, cmd, now);
        match decided {
            Ok(Decision { events, outcome }) => self.accept(events, outcome, now),
            Err(e) => Decision::refuse(e),
        }
    }

    /// Validates `cmd` from the computer player for its seat playing `colour`: the same
    /// procedure, engine and events as a person's command (003 §11.4: "validated like a
    /// human").
    pub fn handle_computer(&mut self, colour: Colour, cmd: &Command, now: i64) -> Decision {
        let Some(seat) = self.computer_seats().find(|s| self.colour_of_seat(*s) == Some(colour)) else {
            return Decision::refuse(MatchError::NotAPlayer);
        };
        if let Some(HoldReason::DamagedRecord { seq, .. }) = self.hold() {
            return Decision::refuse(MatchError::RecordDamaged { seq: *seq });
        }
        if let Command::Move { .. } | Command::Pass = cmd {
            let at = if let Command::Move { at } = cmd { Some(*at) } else { None };
            return self.play(colour, at, now);
        }
        match self.decide_for_seat(seat, cmd, now) {
            Ok(Decision { events, outcome }) => self.accept(events, outcome, now),
            Err(e) => Decision::refuse(e),
        }
    }

    /// Decides a command's events without applying them (moves excepted: see `play`).
    pub(super) fn decide(&mut self, caller: &Requester, cmd: &Command, now: i64) -> Result<Decision, MatchError> {
        use Command::*;
        match cmd {
            AdminHold { .. }
            | AdminResume { .. }
            | AdminRuling { .. }
            | AdminConfirmRuling { .. }
            | AdminConfirmStatement { .. }
            | AdminTimeLossDecision { .. }
            | AdminProposeCorrection { .. }
            | AdminCloseCorrection { .. }
            | AdminRepair { .. }
            | AdminDecide { .. }
            | AdminOpenAppeal { .. }
            | AdminDecideAppeal { .. } => {
                if !caller.is_admin() {
                    return Err(MatchError::AdminOnly);
                }
                return self.admin(cmd, now).map(ok);
            }
            // Names are resolved to accounts first: [`MatchState::sanction`].
            AdminSanction { .. } => return Err(MatchError::Internal),
            Join { code } => return self.join(caller, code).map(ok),
            TakeSeat => return self.take_seat(caller).map(ok),
            LeaveSeat => return self.leave_seat(caller).map(ok),
            CancelRoom => return self.cancel_room(caller).map(ok),
            // 003 §4.7: a player or an administrator refers an error.
            RequestCorrection { reasons } if caller.is_admin() && self.seat_of(caller.user_id).is_none() => {
                return self.request_correction(None, reasons).map(ok);
            }
            _ => {}
        }
        // A damaged log takes nothing but its repair (003 §6.2).
        if let Some(HoldReason::DamagedRecord { seq, .. }) = self.hold() {
            return Err(MatchError::RecordDamaged { seq: *seq });
        }
        // A spectator appeals too: the sanctioned person, seated or not (003 §6.6).
        if let Appeal { sanction, evidence } = cmd {
            return self.appeal(caller, *sanction, evidence, now).map(ok);
        }
        let seat = self.acting_seat(caller.user_id, cmd).ok_or(MatchError::NotAPlayer)?;
        self.decide_for_seat(seat, cmd, now)
    }

    /// Decides `cmd` given for `seat` (by its person, or by the computer player).
    pub(super) fn decide_for_seat(&mut self, seat: Seat, cmd: &Command, now: i64) -> Result<Decision, MatchError> {
        use Command::*;
        if matches!(cmd, Confirm) {
            return self.confirm(seat).map(ok);
        }
        let colour = self.colour_of_seat(seat).ok_or_else(|| self.wrong_phase(PhaseNeeded::Started))?;
        match cmd {
            Join { .. }
            | TakeSeat
            | LeaveSeat
            | CancelRoom
            | Confirm
            | Move { .. }
            | Pass
            | AdminHold { .. }
            | AdminResume { .. }
            | AdminRuling { .. }
            | AdminConfirmRuling { .. }
            | AdminConfirmStatement { .. }
            | AdminTimeLossDecision { .. }
            | AdminProposeCorrection { .. }
            | AdminCloseCorrection { .. }
            | AdminRepair { .. }
            | AdminDecide { .. }
            | AdminSanction { .. }
            | AdminOpenAppeal { .. }
            | AdminDecideAppeal { .. }
            | Appeal { .. } => Err(MatchError::Internal),
            StateOpinion { at, opinion, reasons } => self.state_opinion(colour, *at, *opinion, reasons, now).map(ok),
            ObjectToRuling { reasons } => self.object_to_ruling(colour, reasons).map(ok),
            CallAdministrator { reason } => self.call_administrator(colour, reason).map(ok),
            ObjectToTimeLoss { reasons } => self.object_to_time_loss(colour, reasons, now).map(ok),
            RequestCorrection { reasons } => self.request_correction(Some(colour), reasons).map(ok),
            AnswerCorrection { accept } => self.answer_correction(colour, *accept).map(ok),
            Ready => self.ready(colour).map(ok),
            Acknowledge { move_number } => self.acknowledge(colour, *move_number).map(ok),
            Resign => self.resign(colour).map(ok),
            RequestUndo => self.request_undo(colour).map(ok),
            AnswerUndo { accept } => self.answer_undo(colour, *accept).map(ok),
            CancelUndo => self.cancel_undo(colour).map(ok),
            RequestScoring => self.request_scoring(colour).map(ok),
            CancelScoringRequest => self.cancel_scoring_request(colour).map(ok),
            OfferDraw => self.offer_draw(colour).map(ok),
            AnswerDraw { accept } => self.answer_draw(colour, *accept).map(ok),
            CancelDrawOffer => self.cancel_draw(colour).map(ok),
            Mark { at, kind } => self.mark(colour, *at, *kind).map(ok),
            Unmark { at } => self.unmark(colour, *at).map(ok),
            Consent { statement } => self.consent(colour, *statement).map(ok),
            WithdrawConsent => self.withdraw_consent(colour).map(ok),
            Dispute { reason } => self.dispute(colour, reason).map(ok),
            ResumePlay => self.continue_play(colour).map(ok),
            // Names are resolved to accounts first: [`MatchState::approve_record_viewer`].
            ApproveRecordViewer { .. } => Err(MatchError::Internal),
        }
    }

    /// Applies decided events. If one fails to apply (a bug), the state is marked
    /// `poisoned`: the owner rebuilds it from the stored log, which holds none of them.
    pub(super) fn accept(&mut self, events: Vec<Event>, outcome: Result<(), MatchError>, now: i64) -> Decision {
        for e in &events {
            if let Err(why) = self.apply(e, now) {
                debug_assert!(false, "decided event failed to apply: {why}");
                self.poisoned = true;
                return Decision::refuse(MatchError::Internal);
            }
        }
        Decision { events, outcome }
    }
}

pub(super) fn ok(events: Vec<Event>) -> Decision {
    Decision { events, outcome: Ok(()) }
}
