//! Chains and liberties among the stones a page shows (003 §2.2), for what the page tells of
//! them: a chain marked or isolated, its liberties ringed and counted, the ataris a move
//! made. The server decides everything that matters; these only describe the position.

use wire::{
    events::{Colour, Xyz},
    view::RoomView,
};

const SIX: [(i64, i64, i64); 6] = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)];

/// A position: its stones by point (chains in a full 25³ box run to thousands of stones) and
/// its box.
struct Position {
    stones: std::collections::HashMap<Xyz, Colour>,
    board: engine::BoxSpec,
}

impl Position {
    fn of(stones: &[(Xyz, Colour)], board: engine::BoxSpec) -> Position {
        Position { stones: stones.iter().copied().collect(), board }
    }
    fn at(&self, p: Xyz) -> Option<Colour> {
        self.stones.get(&p).copied()
    }
    fn inside(&self, p: Xyz) -> bool {
        let b = self.board;
        (b.x.start..=b.x.end).contains(&p.x)
            && (b.y.start..=b.y.end).contains(&p.y)
            && (b.z.start..=b.z.end).contains(&p.z)
    }
    fn chain(&self, p: Xyz) -> Vec<Xyz> {
        let Some(c) = self.at(p) else { return Vec::new() };
        let mut seen = std::collections::HashSet::from([p]);
        let mut order = vec![p];
        let mut i = 0;
        while i < order.len() {
            for n in neighbours(order[i]) {
                if self.at(n) == Some(c) && seen.insert(n) {
                    order.push(n);
                }
            }
            i += 1;
        }
        order
    }
    fn liberties(&self, chain: &[Xyz]) -> Vec<Xyz> {
        let mut seen = std::collections::HashSet::new();
        chain
            .iter()
            .flat_map(|q| neighbours(*q))
            .filter(|n| self.inside(*n) && self.at(*n).is_none() && seen.insert(*n))
            .collect()
    }
}

fn neighbours(p: Xyz) -> impl Iterator<Item = Xyz> {
    SIX.into_iter().map(move |d| Xyz { x: p.x + d.0, y: p.y + d.1, z: p.z + d.2 })
}

/// The same-colour six-connected chain through `p` in a view's stones (empty if `p` is).
pub fn chain_of(v: &RoomView, p: Xyz) -> Vec<Xyz> {
    Position::of(&v.stones, v.settings.board).chain(p)
}

/// The empty six-neighbours of `chain` inside the box.
pub fn liberties(v: &RoomView, chain: &[Xyz]) -> Vec<Xyz> {
    Position::of(&v.stones, v.settings.board).liberties(chain)
}

/// The chains at and around `at` (the stone just played and its neighbours) left with one
/// liberty: each by one of its stones, its colour and its size. (The browser announces them.)
#[cfg(feature = "hydrate")]
pub fn ataris_around(v: &RoomView, at: Xyz) -> Vec<(Xyz, Colour, usize)> {
    ataris_in(&Position::of(&v.stones, v.settings.board), at)
}

#[cfg(any(feature = "hydrate", test))]
fn ataris_in(pos: &Position, at: Xyz) -> Vec<(Xyz, Colour, usize)> {
    let mut seen: Vec<Xyz> = Vec::new();
    let mut out = Vec::new();
    for p in std::iter::once(at).chain(neighbours(at)) {
        let Some(c) = pos.at(p) else { continue };
        if seen.contains(&p) {
            continue;
        }
        let chain = pos.chain(p);
        seen.extend(chain.iter().copied());
        if pos.liberties(&chain).len() == 1 {
            out.push((p, c, chain.len()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_liberties_and_ataris_in_the_box() {
        use Colour::{Black, White};
        let xyz = |x, y, z| Xyz { x, y, z };
        // White at the corner 1,1,1 with Black on two of its three sides: one liberty left.
        let stones = [
            (xyz(1, 1, 1), White),
            (xyz(2, 1, 1), Black),
            (xyz(1, 2, 1), Black),
            (xyz(3, 3, 3), Black),
            (xyz(3, 3, 4), Black),
        ];
        let a = engine::Axis::one_to(5);
        let pos = Position::of(&stones, engine::BoxSpec { x: a, y: a, z: a });
        let corner = xyz(1, 1, 1);
        assert_eq!(pos.chain(corner), vec![corner]);
        assert_eq!(pos.liberties(&[corner]), vec![xyz(1, 1, 2)]);
        let pair = pos.chain(xyz(3, 3, 4));
        assert_eq!(pair.len(), 2);
        assert_eq!(pos.liberties(&pair).len(), 10);
        assert_eq!(ataris_in(&pos, xyz(1, 2, 1)), vec![(corner, White, 1)]);
        assert!(ataris_in(&pos, xyz(3, 3, 3)).is_empty());
        assert!(pos.chain(xyz(5, 5, 5)).is_empty(), "an empty point is no chain");
    }
}
