//! The computer seat's turn: what it does at once, and its thought arriving from the blocking
//! thread.

use super::*;

impl super::Actor {
    /// Lets the computer seat act while it has something to do at once; a move or a proposal
    /// that needs thought is started on a blocking thread and arrives as a [`Thought`].
    ///
    /// [`Thought`]: crate::matches::computer::Thought
    pub(super) async fn drive_computer(&mut self) {
        use room::ComputerStep;
        // Bounded: each step is a different command of a finite procedure.
        for _ in 0..8 {
            if self.computer.blocked(self.state.version) {
                return;
            }
            let Some(step) = self.state.computer_step() else { return };
            match step {
                ComputerStep::Give(colour, cmd) => {
                    if !self.computer_gives(colour, vec![cmd]).await {
                        return;
                    }
                }
                ComputerStep::Move { .. } | ComputerStep::ProposeDead { .. } => {
                    self.computer.think(step, &self.state, &self.db).await;
                    return;
                }
            }
        }
    }

    /// Gives the computer's commands in order; false if one was refused (then it stops and
    /// says why in the log: a refusal of its own command is a bug, never a person's fault).
    pub(super) async fn computer_gives(&mut self, colour: wire::events::Colour, cmds: Vec<Command>) -> bool {
        for cmd in cmds {
            let now = self.clock.now_ms();
            let decision = self.state.handle_computer(colour, &cmd, now);
            let refused = decision.outcome.clone().err();
            if !decision.events.is_empty() && self.commit(decision.events, None, now).await.is_err() {
                return false;
            }
            if let Some(e) = refused {
                tracing::warn!(room_id = self.room_id, ?cmd, error = ?e, "the computer's command was refused");
                self.computer.refused(self.state.version);
                return false;
            }
        }
        true
    }

    pub(super) async fn on_thought(&mut self, thought: crate::matches::computer::Thought) {
        let colour = thought.colour;
        let Some(cmds) = self.computer.finished(thought, &self.state) else { return };
        self.computer_gives(colour, cmds).await;
    }
}
