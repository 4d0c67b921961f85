//! The eight features of a candidate move (003 §12.3), for any box.
