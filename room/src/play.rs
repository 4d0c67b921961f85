//! Play: moves and passes (003 §2.4–2.7, §5.4–5.5), undo by consent (003 §5.1–5.3; 000 §2
//! allowance), requests to count (003 §2.7) and Classic draw offers (000 §8.2).
//!
//! A move or pass is checked in this order: the caller's seat, the phase and any hold or
//! suspension, the opponent's acknowledgement of the previous move, the turn, the clock (a late
//! move loses on time), then the engine, which plays it (an illegal attempt is recorded as an
//! event; the turn and the clock stay).

use super::{ended, opponent, Decision, MatchState};
use wire::commands::{DrawRefusal, PendingKind, PhaseNeeded, UndoRefusal};
use wire::{
    commands::{MatchError, RoomPhase},
    events::{Colour, Event, TakenMove, Xyz},
    settings::{MatchRules, UndoAllowance},
};

/// A new draw offer needs this many of one's own moves since one's last declined offer.
const DRAW_OFFER_SPACING: u32 = 5;

impl MatchState {
    /// Common preconditions of acting in play.
    fn require_play(&self) -> Result<(), MatchError> {
        if self.phase() != RoomPhase::Playing {
            return Err(self.wrong_phase(PhaseNeeded::Playing));
        }
        match self.suspension() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// A stone move (`Some`) or a pass (`None`) by `colour`, received at `now`.
    pub(super) fn play(&mut self, colour: Colour, at: Option<Xyz>, now: i64) -> Decision {
        if let Err(e) = self.require_play() {
            return Decision::refuse(e);
        }
        // 003 §5.5, §9.6: no move before the opponent's device shows the previous one —
        // refused, not queued.
        if let Some((c, n)) = self.awaiting_ack {
            return Decision::refuse(MatchError::AwaitingAcknowledgement { colour: c, move_number: n });
        }
        if colour != self.to_move() {
            return Decision::refuse(MatchError::NotYourTurn { to_move: self.to_move() });
        }
        // 003 §5.4: the server's receipt time decides; a late move is refused and the game
        // is lost on time from the last confirmed board.
        if self.clocks.expired_at(now).is_some_and(|x| x.colour == colour) {
            let loss = engine::GameResult::time_loss(colour);
            let events = vec![Event::TimeExpired { colour }, ended(&loss, None)];
            return self.accept(events, Err(MatchError::TimeExpired { colour }), now);
        }
        let mv = match at {
            None => engine::Move::Pass,
            Some(xyz) => match self.point(xyz) {
                Ok(p) => engine::Move::Place(p),
                Err(e) => return Decision::refuse(e),
            },
        };
        if let engine::Move::Place(p) = mv {
            if let Some(illegal) = self.game.illegal_reason(colour, p) {
                // 003 §2.5: recorded and shown; the turn and the clock stay.
                let at = at.unwrap_or(Xyz { x: 0, y: 0, z: 0 });
                let reason = illegal.kind();
                let event = Event::IllegalAttempt { colour, at, reason };
                return self.accept(vec![event], Err(MatchError::Illegal { at, reason }), now);
            }
        }
        // What the move settles first: a pending undo is cancelled (003 §5.2), the
        // opponent's draw offer declined (000 §8.2).
        let mut events = Vec::new();
        if let Some(u) = self.undo {
            events.push(Event::UndoCancelled { move_number: u.move_number, by: None });
        }
        if self.draw.pending_by == Some(opponent(colour)) {
            events.push(Event::DrawDeclined { colour, by_move: true });
        }
        for e in &events {
            self.note(e, now);
        }
        // The fold plays it (as replay will); its number and captures come from the engine.
        let mut played = match at {
            Some(at) => Event::MovePlayed { colour, at, move_number: 0, captured: Vec::new() },
            None => Event::Passed { colour, move_number: 0 },
        };
        let outcome = match self.fold_engine(&played) {
            Ok(Some(o)) => o,
            other => {
                tracing::error!(outcome = ?other, "a move checked legal was refused by the engine");
                self.poisoned = true;
                return Decision::refuse(MatchError::Internal);
            }
        };
        match &mut played {
            Event::MovePlayed { move_number, captured, .. } => {
                *move_number = outcome.move_number;
                *captured = outcome.captured.iter().map(|p| self.xyz(*p)).collect();
            }
            Event::Passed { move_number, .. } => *move_number = outcome.move_number,
            _ => {}
        }
        self.note(&played, now);
        events.push(played);
        let mut after = Vec::new();
        if outcome.phase == engine::Phase::Scoring {
            after.push(Event::ScoringEntered);
            after.push(self.statement_event(Vec::new()));
        }
        if let Some(result) = &outcome.result {
            after.push(ended(result, None));
        }
        // The engine already holds the move; the rest goes through the ordinary path.
        let rest = self.accept(after, Ok(()), now);
        events.extend(rest.events);
        Decision { events, outcome: rest.outcome }
    }

    pub(super) fn request_undo(&mut self, colour: Colour) -> Result<Vec<Event>, MatchError> {
        let not = |why| MatchError::UndoNotAllowed { why };
        if self.phase() == RoomPhase::Scoring {
            return Err(not(UndoRefusal::InScoring));
        }
        self.require_play()?;
        match &self.rules {
            // 003 §5.1: any request, each by the opponent's consent — unless the agreement's
            // special rules set a limit (003 §1.4).
            MatchRules::Space(sp) => match sp.undo_limit() {
                Some(0) => return Err(not(UndoRefusal::OffInThisMatch)),
                Some(n) if self.undos_used[colour] >= n => {
                    return Err(not(UndoRefusal::AllUsed { allowance: n }));
                }
                _ => {}
            },
            // 000 §2 `undo`: the agreed allowance per player.
            MatchRules::Classic(c) => {
                let used = self.undos_used[colour];
                match c.undo() {
                    UndoAllowance::Off => return Err(not(UndoRefusal::OffInThisMatch)),
                    UndoAllowance::Limited(n) if used >= n => {
                        return Err(not(UndoRefusal::AllUsed { allowance: n }));
                    }
                    UndoAllowance::Limited(_) | UndoAllowance::Unlimited => {}
                }
            }
        }
        if self.undo.is_some() {
            return Err(not(UndoRefusal::AlreadyPending));
        }
        let plies = match &self.rules {
            // 003 §5.1: the most recent stone move, whoever made it; never a pass.
            MatchRules::Space(_) => match self.game.last_move() {
                None => return Err(not(UndoRefusal::NoMove)),
                Some((_, engine::Move::Pass)) => return Err(not(UndoRefusal::PassCannotBeUndone)),
                Some(_) => 1,
            },
            // 000 §8.2: the requester's own last move, stone or pass, and the reply after it.
            MatchRules::Classic(_) => self.classic_plies(colour).ok_or(not(UndoRefusal::NoMove))?,
        };
        let n = self.game.move_number();
        if self.undo_barred == Some(n) {
            return Err(not(UndoRefusal::AlreadyRefused));
        }
        Ok(vec![Event::UndoRequested { colour, move_number: n, plies }])
    }

    /// How many moves taking back `colour`'s own last move removes (000 §8.2): 1 when it is
    /// the last move, 2 when the opponent has replied; `None` without an own move since play
    /// started or resumed.
    fn classic_plies(&self, colour: Colour) -> Option<u8> {
        let recent = self.game.moves_since_resumption();
        recent.iter().rev().take(2).position(|(c, _)| *c == colour).map(|i| i as u8 + 1)
    }

    pub(super) fn answer_undo(&mut self, colour: Colour, accept: bool) -> Result<Vec<Event>, MatchError> {
        let req = self
            .undo
            .filter(|u| u.colour != colour)
            .ok_or(MatchError::NoPendingRequest { what: PendingKind::UndoFromOpponent })?;
        if !accept {
            return Ok(vec![Event::UndoRefused { colour, move_number: req.move_number }]);
        }
        if let MatchRules::Classic(_) = &self.rules {
            // Any move since the request cancelled it, so the count asked for still holds.
            let recent = self.game.moves_since_resumption();
            let moves: Vec<TakenMove> = recent
                .iter()
                .rev()
                .take(req.plies as usize)
                .map(|&(c, mv)| TakenMove {
                    colour: c,
                    at: match mv {
                        engine::Move::Place(p) => Some(self.xyz(p)),
                        engine::Move::Pass => None,
                    },
                })
                .collect();
            if moves.len() != req.plies as usize {
                return Err(MatchError::Internal);
            }
            return Ok(vec![Event::TakenBack { colour, move_number: req.move_number, moves }]);
        }
        let Some((undone, engine::Move::Place(p))) = self.game.last_move() else {
            return Err(MatchError::Internal);
        };
        Ok(vec![Event::UndoAccepted { colour, move_number: req.move_number, at: self.xyz(p), undone_colour: undone }])
    }

    /// The requester withdraws a pending undo request.
    pub(super) fn cancel_undo(&mut self, colour: Colour) -> Result<Vec<Event>, MatchError> {
        let req = self
            .undo
            .filter(|u| u.colour == colour)
            .ok_or(MatchError::NoPendingRequest { what: PendingKind::OwnUndo })?;
        Ok(vec![Event::UndoCancelled { move_number: req.move_number, by: Some(colour) }])
    }

    /// 003 §2.7: both players asking on the same position enters scoring; one request
    /// stops nothing, and a move or pass clears requests.
    pub(super) fn request_scoring(&mut self, colour: Colour) -> Result<Vec<Event>, MatchError> {
        self.require_play()?;
        let n = self.game.move_number();
        if self.scoring_requests[colour] == Some(n) {
            return Err(MatchError::AlreadyDone);
        }
        let mut events = vec![Event::ScoringRequested { colour, move_number: n }];
        if self.scoring_requests[opponent(colour)] == Some(n) {
            events.push(Event::ScoringEntered);
            events.push(self.statement_event(Vec::new()));
        }
        Ok(events)
    }

    pub(super) fn cancel_scoring_request(&mut self, colour: Colour) -> Result<Vec<Event>, MatchError> {
        self.require_play()?;
        if self.scoring_requests[colour].is_none() {
            return Err(MatchError::NoPendingRequest { what: PendingKind::OwnScoringRequest });
        }
        Ok(vec![Event::ScoringRequestCancelled { colour }])
    }

    pub(super) fn offer_draw(&mut self, colour: Colour) -> Result<Vec<Event>, MatchError> {
        let not = |why| MatchError::DrawOfferNotAllowed { why };
        match &self.rules {
            // 000 §2 `drawOffer`, §8.2.
            MatchRules::Classic(c) if c.draw_offer() => {}
            // 003 knows no draw by agreement (003 §4.1); Classic may turn offers off.
            MatchRules::Classic(_) | MatchRules::Space(_) => return Err(not(DrawRefusal::OffInThisMatch)),
        }
        self.require_play()?;
        if let Some(by) = self.draw.pending_by {
            return Err(not(DrawRefusal::OfferPending { by }));
        }
        let i = colour;
        if let Some(at) = self.draw.declined_at[i] {
            let since = self.draw.plays[i] - at;
            if since < DRAW_OFFER_SPACING {
                // 000 §8.2: after a declined offer, five own moves first.
                return Err(not(DrawRefusal::TooSoon { needed: DRAW_OFFER_SPACING, so_far: since }));
            }
        }
        Ok(vec![Event::DrawOffered { colour }])
    }

    pub(super) fn answer_draw(&mut self, colour: Colour, accept: bool) -> Result<Vec<Event>, MatchError> {
        if self.draw.pending_by != Some(opponent(colour)) {
            return Err(MatchError::NoPendingRequest { what: PendingKind::DrawFromOpponent });
        }
        if !accept {
            return Ok(vec![Event::DrawDeclined { colour, by_move: false }]);
        }
        Ok(vec![ended(&engine::GameResult::draw_agreed(), None)])
    }

    pub(super) fn cancel_draw(&mut self, colour: Colour) -> Result<Vec<Event>, MatchError> {
        if self.draw.pending_by != Some(colour) {
            return Err(MatchError::NoPendingRequest { what: PendingKind::OwnDrawOffer });
        }
        Ok(vec![Event::DrawOfferCancelled { colour }])
    }
}
