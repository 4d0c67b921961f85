//! What the server and the browser say to each other about rooms: the commands a player or an
//! administrator sends, the events a room stores and publishes, the settings agreed before
//! play and their validation, the views of a room, the fields the live stream carries with
//! its events (`packed` is their compact form), the refusals with their codes, and the one
//! hand-written reader for the tagged enums among them (`decode`).
//!
//! Compiled into the server and into the browser's bundle: nothing here does I/O, reads a
//! clock or draws a random number, and no server-only crate is a dependency (`make test`
//! checks the browser build's tree). Making these values from a room's state is the
//! server's (`app::matches::state`).

pub mod audit;
pub mod by_colour;
pub mod clocks;
pub mod commands;
pub mod conduct;
pub mod decode;
pub mod events;
pub mod governance;
pub mod learning;
pub mod listing;
pub mod live_view;
pub mod mode;
pub mod packed;
pub mod programs;
pub mod referee;
pub mod replay;
pub mod role;
pub mod settings;
pub mod terms;
pub mod view;

pub use by_colour::ByColour;
pub use role::Role;
