//! (filled by the learning helper: see mod.rs)
