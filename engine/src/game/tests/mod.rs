//! Game tests written as ASCII diagrams (`X` black, `O` white, `.` empty;
//! top row first; coordinates below are zero-based column/row offsets).

use super::*;
use crate::game::scoring::ScoringMarks;
use crate::labels::HandicapError;

pub(crate) fn game_from(diagram: &str, rules: Rules) -> Game {
    let rows: Vec<String> = diagram
        .lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<String>())
        .filter(|l| !l.is_empty())
        .collect();
    let h = rows.len();
    let w = rows[0].chars().count();
    let geom = Geometry::flat(w as i64, h as i64).expect("odd board size in test diagram");
    let mut g = Game::new(geom, rules).unwrap();
    let mut changes = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        assert_eq!(row.chars().count(), w, "ragged diagram");
        for (x, c) in row.chars().enumerate() {
            let p = g.geometry().point_from_offsets(x, y, 0).unwrap();
            match c {
                'X' => changes.push((p, Some(Color::Black))),
                'O' => changes.push((p, Some(Color::White))),
                _ => {}
            }
        }
    }
    g.set_stones(&changes).unwrap();
    g
}

pub(crate) fn at(g: &Game, x: usize, y: usize) -> Point {
    g.geometry().point_from_offsets(x, y, 0).unwrap()
}

fn place(g: &mut Game, c: Color, x: usize, y: usize) -> Result<PlayOutcome, IllegalMove> {
    let p = at(g, x, y);
    g.play(c, Move::Place(p))
}

fn ascii(g: &Game) -> String {
    g.board().to_ascii()
}

fn diagram(s: &str) -> String {
    s.lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<String>())
        .filter(|l| !l.is_empty())
        .map(|l| l + "\n")
        .collect()
}

/// Two kos. Ko 1: White (2,2) capturable by Black at (3,2).
/// Ko 2: Black (5,6) capturable by White at (6,6).
const DOUBLE_KO: &str = "
    . . . . . . . . .
    . . X O . . . . .
    . X O . O . . . .
    . . X O . . . . .
    . . . . . . . . .
    . . . . . O X . .
    . . . . O X . X .
    . . . . . O X . .
    . . . . . . . . .";

fn flat5() -> Arc<Geometry> {
    Arc::new(Geometry::flat(5, 5).unwrap())
}

fn pt(g: &Game, x: usize, y: usize) -> Point {
    g.geometry().point_from_offsets(x, y, 0).unwrap()
}

/// A game with B (1,1), W (3,3) played; Black to move.
fn opened(rules: Rules) -> Game {
    let mut g = Game::with_geometry(flat5(), rules).unwrap();
    g.play(Color::Black, Move::Place(pt(&g, 1, 1))).unwrap();
    g.play(Color::White, Move::Place(pt(&g, 3, 3))).unwrap();
    g
}

mod captures;
mod exact_repetition;
mod log_and_marks;
mod phases_and_undo;
mod repetition;
mod triple_ko;
