//! GTP version 2 (Go Text Protocol) with GNU Go / KataGo compatible extras
//! and the 3D `space_*` extension. See README "GTP".
//!
//! [`parse`] handles command lines and responses; [`GtpEngine`] keeps the
//! game and dispatches commands. The engine does no I/O itself: the binary
//! `space-baduk-gtp` feeds it lines and supplies a file loader for `loadsgf`.

pub mod engine;
pub mod parse;

pub use engine::{ComputerPlayer, FileLoader, GtpEngine, StopFactory};
