//! One value for each colour — Black's and White's — indexed by the colour itself, so that no
//! code turns a colour into an array index. On the wire and in the stored log it is the
//! two-element array `[black, white]` it replaced.

use std::ops::{Index, IndexMut};

use engine::Color;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ByColour<T> {
    pub black: T,
    pub white: T,
}

impl<T> ByColour<T> {
    pub const fn new(black: T, white: T) -> Self {
        ByColour { black, white }
    }

    /// Each colour's value, made from the colour (Black's first).
    pub fn from_fn(mut f: impl FnMut(Color) -> T) -> Self {
        let black = f(Color::Black);
        ByColour { black, white: f(Color::White) }
    }

    /// The same value for both.
    pub fn both(v: T) -> Self
    where
        T: Clone,
    {
        ByColour { black: v.clone(), white: v }
    }

    pub fn get(&self, c: Color) -> &T {
        match c {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    pub fn get_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }

    /// Each value mapped, Black's first.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByColour<U> {
        let black = f(self.black);
        ByColour { black, white: f(self.white) }
    }

    /// Black's value, then White's.
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        [&self.black, &self.white].into_iter()
    }

    /// Whether both values satisfy `f`.
    pub fn all(&self, mut f: impl FnMut(&T) -> bool) -> bool {
        f(&self.black) && f(&self.white)
    }
}

impl<T> Index<Color> for ByColour<T> {
    type Output = T;
    fn index(&self, c: Color) -> &T {
        self.get(c)
    }
}

impl<T> IndexMut<Color> for ByColour<T> {
    fn index_mut(&mut self, c: Color) -> &mut T {
        self.get_mut(c)
    }
}

impl<T> From<[T; 2]> for ByColour<T> {
    fn from([black, white]: [T; 2]) -> Self {
        ByColour { black, white }
    }
}

impl<T> From<ByColour<T>> for [T; 2] {
    fn from(b: ByColour<T>) -> Self {
        [b.black, b.white]
    }
}

impl<T: Serialize> Serialize for ByColour<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (&self.black, &self.white).serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ByColour<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <[T; 2]>::deserialize(d).map(ByColour::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wire_form_is_the_array_black_then_white() {
        let b = ByColour::new(Some(3u32), None);
        assert_eq!(serde_json::to_string(&b).unwrap(), "[3,null]");
        assert_eq!(serde_json::from_str::<ByColour<Option<u32>>>("[3,null]").unwrap(), b);
        assert!(serde_json::from_str::<ByColour<u32>>("[1,2,3]").is_err());
        assert!(serde_json::from_str::<ByColour<u32>>("[1]").is_err());
    }

    #[test]
    fn indexed_by_colour() {
        let mut b = ByColour::both(0);
        b[Color::White] += 2;
        assert_eq!((b[Color::Black], b[Color::White]), (0, 2));
        assert_eq!(b.map(|n| n + 1), ByColour::new(1, 3));
        assert_eq!(ByColour::from_fn(|c| c), ByColour::new(Color::Black, Color::White));
        assert!(b.all(|n| *n < 3) && !b.all(|n| *n > 0));
    }
}
