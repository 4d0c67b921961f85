//! The fold: how one stored event changes a room. Live play and replay both go through it
//! (`fold_engine` for the engine's part, `note` for the rest), so they cannot disagree.

use super::*;

impl MatchState {
    /// Folds one stored event, accepted at `at_ms`, into the state, including its effect
    /// on the engine. Live play goes through the same two steps (`fold_engine`, then
    /// `note`); replay also checks that the engine captures what the log says it did.
    pub fn apply(&mut self, e: &Event, at_ms: i64) -> Result<(), String> {
        if let Some(o) = self.fold_engine(e)? {
            let n = o.move_number;
            match e {
                Event::MovePlayed { move_number, captured, .. } => {
                    let got: Vec<Xyz> = o.captured.iter().map(|p| self.xyz(*p)).collect();
                    if *move_number != n || *captured != got {
                        return Err(format!("move {move_number} captures {got:?} as move {n}, not {captured:?}"));
                    }
                }
                Event::Passed { move_number, .. } if *move_number != n => {
                    return Err(format!("pass {move_number} is move {n} on the board"));
                }
                _ => {}
            }
        }
        self.note(e, at_ms);
        Ok(())
    }

    /// The event's effect on the engine; for a move or pass, the engine's outcome.
    pub(super) fn fold_engine(&mut self, e: &Event) -> Result<Option<engine::PlayOutcome>, String> {
        let g = &mut self.game;
        match e {
            Event::MovePlayed { colour, at, .. } => {
                let p = g.geometry().index_of(at.x, at.y, at.z).ok_or_else(|| format!("{at} off the board"))?;
                return g.play(*colour, engine::Move::Place(p)).map(Some).map_err(|e| e.to_string());
            }
            Event::Passed { colour, .. } => {
                return g.play(*colour, engine::Move::Pass).map(Some).map_err(|e| e.to_string());
            }
            Event::Resigned { colour } => {
                g.resign(*colour).map_err(|e| e.to_string())?;
            }
            Event::TimeExpired { colour } => {
                g.time_loss(*colour).map_err(|e| e.to_string())?;
            }
            Event::UndoAccepted { .. } => {
                g.undo().map_err(|e| e.to_string())?;
            }
            Event::TakenBack { moves, .. } => {
                for m in moves {
                    let (c, mv) = g.take_back().map_err(|e| e.to_string())?;
                    let at = match mv {
                        engine::Move::Place(p) => Some(xyz_of(g.geometry(), p)),
                        engine::Move::Pass => None,
                    };
                    if (c, at) != (m.colour, m.at) {
                        return Err(format!("took back {c:?} {at:?}, the event names {:?} {:?}", m.colour, m.at));
                    }
                }
            }
            Event::TimeLossDecided { cancelled: true, .. } => {
                g.cancel_time_loss().map_err(|e| e.to_string())?;
            }
            Event::ScoringEntered if g.phase() == engine::Phase::Playing => {
                g.enter_scoring().map_err(|e| e.to_string())?;
            }
            Event::PlayContinued { requested_by } => {
                g.resume(*requested_by).map_err(|e| e.to_string())?;
            }
            Event::Ended { result, statement, .. } if !g.is_over() => {
                if *result == engine::GameResult::DrawAgreed {
                    g.agree_draw().map_err(|e| e.to_string())?;
                } else if statement.is_some() {
                    let marks =
                        self.phase.scoring().map(|s| scoring::engine_marks(g.geometry(), &s.marks)).unwrap_or_default();
                    g.finish_by_score(&marks).map_err(|e| e.to_string())?;
                }
            }
            _ => {}
        }
        Ok(None)
    }

    /// Bookkeeping outside the engine, then the clocks follow the new state.
    pub(super) fn note(&mut self, e: &Event, t: i64) {
        match e {
            Event::RoomCreated { .. } => {}
            Event::SeatTaken { seat, user_id, username } => {
                let holder = SeatHolder { user_id: *user_id, username: username.clone() };
                self.seats[seat.index()] = Some(Occupant::Person(holder));
            }
            Event::SeatFilled { seat, by } => {
                self.seats[seat.index()] = Some(match by {
                    FilledBy::Guest { host, name } => Occupant::Guest { host: *host, name: name.clone() },
                    FilledBy::Computer => Occupant::Computer,
                });
            }
            Event::SettingsConfirmed { seat } => self.confirmed[seat.index()] = true,
            Event::SeatLeft { seat } => {
                self.seats[seat.index()] = None;
                // People confirm again; the computer's confirmation, given at creation, stays.
                let computer = |i: usize| matches!(self.seats[i], Some(Occupant::Computer));
                self.confirmed = [self.confirmed[0] && computer(0), self.confirmed[1] && computer(1)];
            }
            Event::RoomCancelled { .. } => self.phase = Phase::Cancelled,
            Event::Started { black, .. } => {
                self.black = Some(*black);
                self.wait_for_ready(t);
            }
            Event::Ready { colour } => {
                if let Phase::WaitingReady(r) = &mut self.phase {
                    r.ready[*colour] = true;
                }
            }
            Event::PlayResumed => {
                self.phase = Phase::Playing;
                // The acknowledgement wait, if any, starts afresh now that both devices are back.
                self.ack_since_ms = t;
            }
            Event::MovePlayed { colour, move_number, .. } | Event::Passed { colour, move_number } => {
                self.clocks.settle(t, true);
                self.awaiting_ack = Some((opponent(*colour), *move_number));
                self.ack_since_ms = t;
                self.scoring_requests = ByColour::both(None);
                self.draw.plays[*colour] += 1;
                self.undo = None;
                if matches!(e, Event::MovePlayed { .. }) {
                    self.undo_barred = None;
                }
            }
            Event::MoveAcknowledged { .. } => self.awaiting_ack = None,
            Event::IllegalAttempt { .. } => self.illegal_attempts += 1,
            Event::Resigned { .. } | Event::TimeExpired { .. } => {}
            Event::UndoRequested { colour, move_number, plies } => {
                self.undo =
                    Some(UndoRequest { colour: *colour, move_number: *move_number, plies: *plies, since_ms: t });
            }
            Event::UndoAccepted { colour, .. } | Event::TakenBack { colour, .. } => {
                // The answerer's opponent asked; the interrupted turn is charged, not refunded.
                self.clocks.settle(t, false);
                self.undos_used[opponent(*colour)] += 1;
                self.undo = None;
                self.awaiting_ack = None;
            }
            Event::UndoRefused { move_number, .. } | Event::UndoExpired { move_number } => {
                self.undo = None;
                self.undo_barred = Some(*move_number);
            }
            Event::UndoCancelled { move_number, by } => {
                self.undo = None;
                // Withdrawn like refused: not asked again for the same move (003 §5.2), so
                // asking and withdrawing cannot stop a clock for longer than one answer time.
                if by.is_some() {
                    self.undo_barred = Some(*move_number);
                }
            }
            Event::ScoringRequested { colour, move_number } => {
                self.scoring_requests[*colour] = Some(*move_number);
            }
            Event::ScoringRequestCancelled { colour } => self.scoring_requests[*colour] = None,
            Event::DrawOffered { colour } => self.draw.pending_by = Some(*colour),
            Event::DrawDeclined { colour, .. } => {
                let offerer = opponent(*colour);
                self.draw.pending_by = None;
                self.draw.declined_at[offerer] = Some(self.draw.plays[offerer]);
            }
            Event::DrawOfferCancelled { .. } => self.draw.pending_by = None,
            Event::ScoringEntered => {
                // The first statement follows at once (the same instant).
                self.phase = Phase::Scoring(ScoringState::entered(t));
                self.awaiting_ack = None;
                self.undo = None;
                self.scoring_requests = ByColour::both(None);
                self.draw.pending_by = None;
            }
            Event::MarkAdded { mark, .. } => {
                if let Some(s) = self.phase.scoring_mut() {
                    s.marks.push(mark.clone());
                }
            }
            Event::MarkWithdrawn { mark, .. } => {
                if let Some(s) = self.phase.scoring_mut() {
                    s.marks.retain(|m| m != mark);
                }
            }
            Event::StatementIssued { number, marks, score } => {
                // Only in scoring; consents given before are void (003 §4.5).
                if let Some(s) = self.phase.scoring_mut() {
                    s.marks = marks.clone();
                    s.statement = *number;
                    s.score = score.clone();
                    s.consents = ByColour::both(None);
                }
                self.next_statement = number + 1;
            }
            Event::Consented { colour, statement, .. } => {
                if let Some(s) = self.phase.scoring_mut() {
                    s.consents[*colour] = Some(*statement);
                }
            }
            Event::ConsentWithdrawn { colour, .. } => {
                if let Some(s) = self.phase.scoring_mut() {
                    s.consents[*colour] = None;
                }
                // 003 §4.6: withdrawn before the result is final — counting goes on.
                if let Phase::AwaitingReview(_) = self.phase {
                    self.referee.awaiting_review = None;
                    if let Some(s) = self.phase.take_scoring() {
                        self.phase = Phase::Scoring(s);
                    }
                }
            }
            Event::PlayContinued { .. } => {
                self.phase = Phase::Playing;
                self.awaiting_ack = None;
            }
            Event::ScoringDeadlinePassed => {}
            Event::ConnectionLost { colour, cause } => {
                self.faults[*colour] = Some(Fault { cause: *cause, since_ms: t });
            }
            Event::Reconnected { colour } => {
                self.faults[*colour] = None;
                // 000 §8.5: a Classic game went on; the returning device gets the full
                // acknowledgement time from now for the move it missed.
                if matches!(self.rules, MatchRules::Classic(_)) {
                    self.ack_since_ms = t;
                }
                // Play resumes from the server's record after both players' Ready (003 §6.2);
                // a Classic game never stopped (000 §8.5).
                if matches!(self.phase, Phase::Playing)
                    && matches!(self.rules, MatchRules::Space(_))
                    && self.faults.iter().all(Option::is_none)
                {
                    self.wait_for_ready(t);
                }
            }
            Event::ReconnectionExpired { colour } => self.faults[*colour] = None,
            Event::AttentionNeeded { attention } => {
                self.attention = Some(*attention);
                match attention {
                    Attention::ReadinessTimeout => {
                        if let Phase::WaitingReady(r) = &mut self.phase {
                            r.alerted = true;
                        }
                    }
                    Attention::ScoringWait => {
                        if let Some(s) = self.phase.scoring_mut() {
                            s.alerted = true;
                        }
                    }
                    Attention::Disconnection | Attention::ScoringDispute => {}
                }
            }
            Event::Held { reason } => match reason {
                HoldReason::ServerRestart => {
                    // Nothing after the last stored event is known: stop the clocks there.
                    self.clocks.pause(self.last_event_ms);
                    self.faults = ByColour::both(None);
                    self.wait_for_ready(t);
                }
                _ => {
                    // Scoring goes on when resumed; play waits for both players' Ready.
                    let scoring = self.phase.take_scoring();
                    self.phase = Phase::Held { reason: reason.clone(), scoring, since_ms: t };
                    self.faults = ByColour::both(None);
                    self.undo = None;
                }
            },
            Event::Resumed { .. } => {
                self.attention = None;
                match self.phase.take_scoring() {
                    Some(s) => self.phase = Phase::Scoring(s),
                    None => self.wait_for_ready(t),
                }
            }
            Event::Ruling { chains, regions, reasons, .. } => {
                self.attention = None;
                let r = &mut self.referee;
                r.rulings.push(wire::referee::RulingRecord {
                    number: r.rulings.len() as u32 + 1,
                    chains: chains.clone(),
                    regions: regions.clone(),
                    reasons: reasons.clone(),
                    at_ms: t,
                    statement: self.next_statement,
                    confirmed: None,
                });
                r.ruling_objection = None;
                r.awaiting_review = None;
                // The ruling's statement follows at once.
                let s = self.phase.take_scoring().unwrap_or_else(|| ScoringState::entered(t));
                self.phase = Phase::Scoring(s);
            }
            Event::RulingConfirmed { ruling, reasons } => {
                let r = &mut self.referee;
                if let Some(rec) = r.rulings.iter_mut().find(|x| x.number == *ruling) {
                    rec.confirmed = Some(reasons.clone());
                    rec.statement = self.next_statement;
                }
                r.ruling_objection = None;
                // Its marks are issued again as the next statement.
                if let Some(s) = self.phase.take_scoring() {
                    self.phase = Phase::Scoring(s);
                }
            }
            Event::OpinionStated { colour, chain, opinion, reasons } => {
                let ops = &mut self.referee.opinions;
                ops.retain(|o| !(o.colour == *colour && o.chain == *chain));
                ops.push(wire::referee::Opinion {
                    colour: *colour,
                    chain: *chain,
                    opinion: *opinion,
                    reasons: reasons.clone(),
                    at_ms: t,
                });
            }
            Event::RulingObjected { colour, ruling, reasons } => {
                let r = &mut self.referee;
                r.objected[*colour] = Some(*ruling);
                r.ruling_objection =
                    Some(wire::referee::Objection { colour: *colour, reasons: reasons.clone(), at_ms: t });
            }
            Event::ReviewRequested { statement } => {
                self.referee.awaiting_review = Some(wire::referee::ReviewWait { statement: *statement, since_ms: t });
                if let Some(s) = self.phase.take_scoring() {
                    self.phase = Phase::AwaitingReview(s);
                }
            }
            Event::StatementConfirmed { .. } => self.referee.awaiting_review = None,
            Event::TimeLossObjected { colour, reasons } => {
                self.referee.time_loss = Some(wire::referee::TimeLossReview {
                    objection: wire::referee::Objection { colour: *colour, reasons: reasons.clone(), at_ms: t },
                    cancelled: None,
                    reasons: None,
                });
            }
            Event::TimeLossDecided { cancelled, reasons } => {
                if let Some(tl) = &mut self.referee.time_loss {
                    tl.cancelled = Some(*cancelled);
                    tl.reasons = Some(reasons.clone());
                }
                if *cancelled {
                    // 003 §5.7: the turn that ran out is played again with the time its
                    // player had at its start (its used time is not charged).
                    self.clocks.turn = None;
                    self.ended = None;
                    self.referee.ended_ms = None;
                    self.phase = Phase::Playing;
                    self.wait_for_ready(t);
                }
            }
            Event::CorrectionRequested { by, reasons } => {
                self.referee.correction = Some(wire::referee::CorrectionCase {
                    by: *by,
                    reasons: reasons.clone(),
                    at_ms: t,
                    proposal: None,
                    refused_by: Vec::new(),
                });
            }
            Event::CorrectionProposed { result, statement, marks, score, reasons } => {
                if let Some(c) = &mut self.referee.correction {
                    c.proposal = Some(wire::referee::ProposedCorrection {
                        result: *result,
                        statement: *statement,
                        marks: marks.clone(),
                        score: score.as_deref().cloned(),
                        reasons: reasons.clone(),
                        at_ms: t,
                        answers: ByColour::both(None),
                    });
                }
                if let Some(n) = statement {
                    self.next_statement = n + 1;
                }
            }
            Event::CorrectionAnswered { colour, accept } => {
                if let Some(c) = &mut self.referee.correction {
                    if let Some(p) = &mut c.proposal {
                        p.answers[*colour] = Some(*accept);
                    }
                    if !*accept {
                        // 003 §4.7: the original stays; the item returns to the queue.
                        c.refused_by.push(*colour);
                        c.proposal = None;
                    }
                }
            }
            Event::CorrectionApplied { result } => {
                let case = self.referee.correction.take();
                let proposal = case.and_then(|c| c.proposal);
                if let Some(Event::Ended { result: original, score, statement }) = self.ended.take() {
                    let (score, statement) = match &proposal {
                        Some(p) if p.statement.is_some() => (p.score.clone().map(Box::new), p.statement),
                        _ => (score, statement),
                    };
                    if let (Some(p), Some(sc)) = (&proposal, self.phase.scoring_mut()) {
                        if let (Some(marks), Some(n), Some(summary)) = (&p.marks, p.statement, &p.score) {
                            sc.marks = marks.clone();
                            sc.statement = n;
                            sc.score = summary.clone();
                        }
                    }
                    self.referee.corrections.push(wire::referee::CorrectionOutcome {
                        original,
                        corrected: Some(*result),
                        reasons: proposal.map(|p| p.reasons).unwrap_or_default(),
                        at_ms: t,
                    });
                    self.ended = Some(Event::Ended { result: *result, score, statement });
                }
            }
            Event::CorrectionClosed { reasons } => {
                self.referee.correction = None;
                if let Some(original) = self.result() {
                    self.referee.corrections.push(wire::referee::CorrectionOutcome {
                        original,
                        corrected: None,
                        reasons: reasons.clone(),
                        at_ms: t,
                    });
                }
            }
            Event::RecordRepaired { .. } => {
                // Back to where the last replayable event left the room (003 §6.2).
                let scoring = self.phase.take_scoring();
                self.phase = if self.ended.is_some() {
                    Phase::Finished { scoring }
                } else if let Some(s) = scoring {
                    Phase::Scoring(s)
                } else if self.black.is_some() {
                    Phase::Playing
                } else {
                    Phase::Open
                };
                if matches!(self.phase, Phase::Playing) {
                    self.clocks.pause(self.last_event_ms);
                    self.wait_for_ready(t);
                }
            }
            Event::Decided { .. } => {}
            Event::Sanctioned { .. }
            | Event::AppealFiled { .. }
            | Event::AppealExceptionOpened { .. }
            | Event::AppealDecided { .. } => self.note_conduct(e, t),
            // 003 §8.1: an approval stored before approvals named the account (no `user_id`)
            // grants nothing; the players approve the account again.
            Event::RecordViewerApproved { user_id: None, .. } => {}
            Event::RecordViewerApproved { colour, username, user_id: Some(id) } => {
                let i = *colour;
                match self.record_viewers.iter_mut().find(|v| v.user_id == *id) {
                    Some(v) => v.approved[i] = true,
                    None => {
                        let mut approved = ByColour::both(false);
                        approved[i] = true;
                        self.record_viewers.push(RecordViewer { user_id: *id, username: username.clone(), approved });
                    }
                }
            }
            Event::Ended { .. } => {
                self.phase = Phase::Finished { scoring: self.phase.take_scoring() };
                self.awaiting_ack = None;
                self.undo = None;
                self.faults = ByColour::both(None);
                self.attention = None;
                self.draw.pending_by = None;
                self.referee.ended_ms = Some(t);
                self.referee.awaiting_review = None;
                self.ended = Some(e.clone());
            }
        }
        self.sync_clocks(t);
        self.last_event = Some(e.clone());
        self.last_event_ms = self.last_event_ms.max(t);
    }
}
