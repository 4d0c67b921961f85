//! What the computer seat does next (003 §11.4). Pure: the actor asks after every commit and
//! either hands the command straight back to [`MatchState::handle_computer`] (answers that
//! need no thought) or thinks on a blocking thread first (a move, or its dead-stone proposal
//! when counting starts). Either way the command goes through the same validation, events
//! and record as a person's.

use super::*;
use wire::events::MarkKind;

/// The computer's next step.
#[derive(Debug, Clone, PartialEq)]
pub enum ComputerStep {
    /// A command to give now for the computer playing `colour`.
    Give(Colour, Command),
    /// Think about a move for `colour` on `game` (the room's game as of `version`).
    Move { colour: Colour, version: i64 },
    /// Counting began: propose the chains it takes for dead, then consent.
    ProposeDead { colour: Colour, version: i64 },
}

/// A program game that has not ended after this many moves per point of the box is ended
/// by passes (a bound on two programs that keep capturing; 003 §12.4 asks for a result).
const PROGRAM_GAME_MOVES_PER_POINT: u32 = 3;

impl MatchState {
    /// The computer's next step, if one of its seats has one now.
    pub fn computer_step(&self) -> Option<ComputerStep> {
        let colours: Vec<Colour> = self.computer_colours().collect();
        colours.into_iter().find_map(|c| self.computer_step_for(c))
    }

    fn computer_step_for(&self, colour: Colour) -> Option<ComputerStep> {
        let me = colour;
        let give = |c| Some(ComputerStep::Give(colour, c));
        let program_game = self.rules.mode().is_program_game();
        let facing_person = self.holder_of(opponent(colour)) != Some(&Occupant::Computer);
        match &self.phase {
            // Only programs play: nobody else presses Ready for them (after a restart too).
            Phase::WaitingReady(r) if program_game && !r.ready[me] => give(Command::Ready),
            Phase::Playing => {
                // 003 §5.6: its "device" shows every move at once.
                if let Some((c, n)) = self.awaiting_ack {
                    return if c == colour { give(Command::Acknowledge { move_number: n }) } else { None };
                }
                // It waits while play is suspended; a Classic disconnection suspends nothing
                // (000 §8.5), so it plays on against an absent person.
                if self.suspension().is_some() {
                    return None;
                }
                // Undo by consent (003 §5.1): the computer grants the person's request.
                if self.undo.is_some_and(|u| u.colour != colour) {
                    return give(Command::AnswerUndo { accept: true });
                }
                if self.draw.pending_by.is_some_and(|c| c != colour) {
                    return give(Command::AnswerDraw { accept: false });
                }
                // 003 §2.7: asked to count, it agrees.
                let n = self.game.move_number();
                if self.scoring_requests[opponent(colour)] == Some(n) && self.scoring_requests[me] != Some(n) {
                    return give(Command::RequestScoring);
                }
                if self.to_move() != colour {
                    return None;
                }
                // 003 §11.4: it passes after the person passes, leading to counting.
                let passed = matches!(self.game.last_move(), Some((c, engine::Move::Pass)) if c != colour);
                if passed && facing_person {
                    return give(Command::Pass);
                }
                let cap = PROGRAM_GAME_MOVES_PER_POINT.saturating_mul(self.game.geometry().len() as u32);
                if program_game && n >= cap {
                    return give(Command::Pass);
                }
                Some(ComputerStep::Move { colour, version: self.version })
            }
            Phase::Scoring(s) => {
                if s.consents[me] == Some(s.statement) {
                    return None;
                }
                // A program game's marks are Black's estimate; White agrees to them
                // automatically once Black consented (the mode flags them as auto-agreed).
                if program_game && colour == Colour::White {
                    let black_agreed = s.consents[Colour::Black] == Some(s.statement);
                    return if black_agreed { give(Command::Consent { statement: s.statement }) } else { None };
                }
                let marked = s.marks.iter().any(|m| m.by == Some(colour));
                // Once per counting: its proposal, then its consent (it proposes and consents
                // again only when counting starts afresh).
                if !marked && s.consents[me].is_none() {
                    return Some(ComputerStep::ProposeDead { colour, version: self.version });
                }
                give(Command::Consent { statement: s.statement })
            }
            _ => None,
        }
    }

    /// The Mark commands proposing `dead` (points of stones the computer takes for dead), one
    /// per chain, or only the consent when it proposes none.
    pub fn dead_proposal(&self, dead: &[engine::Point]) -> Vec<Command> {
        let board = self.game.board();
        let marks = self.scoring().map(|s| s.marks.clone()).unwrap_or_default();
        let mut seen: Vec<engine::Point> = Vec::new();
        let mut cmds = Vec::new();
        for &p in dead {
            let Some(head) = board.chain_head(p) else { continue };
            if seen.contains(&head) {
                continue;
            }
            // A Classic mark takes the whole 000 §5.5 group: a second mark in the same group
            // would toggle the first off.
            let covered = match self.rules {
                wire::settings::MatchRules::Classic(_) => self.classic_group(p, &marks),
                wire::settings::MatchRules::Space(_) => vec![p],
            };
            seen.extend(covered.into_iter().filter_map(|q| board.chain_head(q)));
            cmds.push(Command::Mark { at: self.xyz(p), kind: MarkKind::Dead });
        }
        cmds
    }
}
