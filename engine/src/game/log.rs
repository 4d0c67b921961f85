//! The action log, kept compactly (`Logged`) and read back as actions, and the game record it
//! becomes (003 §2.5, §5.3: illegal attempts and undos included).

use super::*;

impl Game {
    /// The action log (every action, including illegal attempts and undos).
    pub fn log(&self) -> Vec<Action> {
        self.log.iter().map(|l| self.action(l)).collect()
    }
    /// The log's last action.
    pub fn last_action(&self) -> Option<Action> {
        self.log.last().map(|l| self.action(l))
    }
    fn action(&self, l: &Logged) -> Action {
        match *l {
            Logged::Play(color, p) => Action::Play { color, at: self.coord(p) },
            Logged::Pass(color) => Action::Pass { color },
            Logged::Illegal(color, mv, reason) => {
                let (at, index) = match mv {
                    Move::Pass => (None, None),
                    Move::Place(p) => match self.geometry().coords_of(p) {
                        Some(x) => (Some(x), None),
                        None => (None, Some(p.0 as u32)),
                    },
                };
                Action::Illegal { color, pass: mv == Move::Pass, at, index, reason }
            }
            Logged::Undo(color, p) => Action::Undo { color, at: self.coord(p) },
            Logged::Other(ref a) => (**a).clone(),
        }
    }
    /// Logs one of the rare actions (boxed: they are few, and `Score` is large).
    pub(super) fn log_other(&mut self, a: Action) {
        self.log.push(Logged::Other(Box::new(a)));
    }

    /// The serde game record (003 §2.5, §5.3: includes illegal attempts and undos).
    pub fn record(&self) -> GameRecord {
        let g = self.geometry();
        GameRecord {
            version: RECORD_VERSION,
            geometry: g.spec(),
            rules: self.rules,
            setup: self
                .setup
                .iter()
                .map(|&(p, c)| crate::game::record::SetupStone { color: c, at: self.coord(p) })
                .collect(),
            first_to_move: self.first_to_move,
            actions: self.log(),
        }
    }
}
