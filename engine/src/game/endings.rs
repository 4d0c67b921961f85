//! Phase changes and endings: resuming from scoring, entering it, resignation, time loss and
//! its cancellation, an agreed draw, and the count that finishes a game (003 §4, 000 §6).

use super::*;

impl Game {
    /// Leave the scoring phase and continue play (000 §5.5 step 5): the
    /// opponent of the requesting player moves first.
    pub fn resume(&mut self, requested_by: Color) -> Result<(), PhaseError> {
        if self.phase != Phase::Scoring {
            return Err(PhaseError { phase: self.phase });
        }
        self.resume_inner(requested_by);
        self.log_other(Action::Resume { by: requested_by });
        Ok(())
    }
    pub(super) fn resume_inner(&mut self, by: Color) {
        self.phase = Phase::Playing;
        self.consecutive_passes = 0;
        self.to_move = by.opponent();
        self.ko = None;
        self.steps.push(Step::Resume(by));
    }

    /// Enter scoring by agreement (003 §2.7: both players requested scoring
    /// on the same position).
    pub fn enter_scoring(&mut self) -> Result<(), PhaseError> {
        if self.phase != Phase::Playing {
            return Err(PhaseError { phase: self.phase });
        }
        self.enter_scoring_inner();
        self.log_other(Action::EnterScoring);
        Ok(())
    }
    pub(super) fn enter_scoring_inner(&mut self) {
        self.phase = Phase::Scoring;
        self.steps.push(Step::EnterScoring);
    }

    fn end(&mut self, r: GameResult, a: Action) -> Result<GameResult, PhaseError> {
        if self.phase == Phase::Over {
            return Err(PhaseError { phase: self.phase });
        }
        self.phase = Phase::Over;
        self.result = Some(r);
        self.log_other(a);
        Ok(r)
    }
    /// `loser` resigns (003 §2.7).
    pub fn resign(&mut self, loser: Color) -> Result<GameResult, PhaseError> {
        self.end(GameResult::resignation(loser), Action::Resign { color: loser })
    }
    /// `loser` ran out of time (003 §5.4).
    pub fn time_loss(&mut self, loser: Color) -> Result<GameResult, PhaseError> {
        self.end(GameResult::time_loss(loser), Action::TimeLoss { color: loser })
    }
    /// An administrator cancelled the time loss that ended the game (003 §5.7): play goes
    /// on from the same position with the same player to move. Refused unless the game
    /// ended by `time_loss` and nothing came after it.
    pub fn cancel_time_loss(&mut self) -> Result<(), PhaseError> {
        match self.log.last() {
            Some(Logged::Other(a)) if matches!(**a, Action::TimeLoss { .. }) && self.phase == Phase::Over => {
                self.log.pop();
                self.phase = Phase::Playing;
                self.result = None;
                Ok(())
            }
            _ => Err(PhaseError { phase: self.phase }),
        }
    }
    /// Both players agreed to a draw.
    pub fn agree_draw(&mut self) -> Result<GameResult, PhaseError> {
        self.end(GameResult::draw_agreed(), Action::DrawAgreed)
    }

    /// Finish the game by counting with the agreed final marks (003 §4,
    /// 000 §6). Allowed in the playing and scoring phases.
    pub fn finish_by_score(
        &mut self,
        marks: &crate::game::scoring::ScoringMarks,
    ) -> Result<crate::game::scoring::ScoreStatement, crate::game::scoring::ScoringError> {
        if self.phase == Phase::Over {
            return Err(crate::game::scoring::ScoringError::GameOver);
        }
        let st = crate::game::scoring::score(self, marks)?;
        let rec = crate::game::record::MarksRecord::from_marks(self.geometry(), marks);
        self.phase = Phase::Over;
        self.result = Some(st.result);
        self.log_other(Action::Score { marks: rec });
        Ok(st)
    }
}
