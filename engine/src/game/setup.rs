//! Setup stones (handicap, SGF AB/AW/AE) and who moves first, before the first move.

use super::*;

impl Game {
    /// Put or remove setup stones (SGF AB/AW/AE) before the first move.
    /// No captures happen; a setup that would leave a chain without
    /// liberties is refused.
    pub fn set_stones(&mut self, changes: &[(Point, Option<Color>)]) -> Result<(), SetupError> {
        if !self.steps.is_empty() || self.move_number > 0 {
            return Err(SetupError::GameStarted);
        }
        for &(p, _) in changes {
            if !self.geometry().contains(p) {
                return Err(SetupError::OffBoard { index: p.0 as u32 });
            }
        }
        if !self.board.set_cells(changes) {
            return Err(SetupError::NoLiberties);
        }
        for &(p, c) in changes {
            self.setup.retain(|&(q, _)| q != p);
            if let Some(c) = c {
                self.setup.push((p, c));
            }
        }
        self.reset_history();
        Ok(())
    }

    /// Put the setup list in the order of `changes` (record replay).
    pub(crate) fn reorder_setup(&mut self, changes: &[(Point, Option<Color>)]) {
        let mut v = Vec::with_capacity(self.setup.len());
        for &(p, c) in changes {
            if let Some(c) = c {
                if self.setup.contains(&(p, c)) {
                    v.push((p, c));
                }
            }
        }
        if v.len() == self.setup.len() {
            self.setup = v;
        }
    }

    /// One setup stone (`None` clears the point).
    pub fn set_stone(&mut self, p: Point, c: Option<Color>) -> Result<(), SetupError> {
        self.set_stones(&[(p, c)])
    }

    /// Choose who moves first (SGF `PL`), before the first move.
    pub fn set_first_to_move(&mut self, c: Color) -> Result<(), SetupError> {
        if !self.steps.is_empty() || self.move_number > 0 {
            return Err(SetupError::GameStarted);
        }
        self.first_to_move = c;
        self.to_move = c;
        self.reset_history();
        Ok(())
    }
}
