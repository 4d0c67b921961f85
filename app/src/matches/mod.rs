//! Matches: settings agreed before play, the event log, the per-room state machine, the
//! actor that owns a live room, and the service both the UI and the participant API call.
//!
//! Shared with the browser, from the `wire` crate (re-exported here under their old paths):
//! `settings`, `commands`, `events`, `view`, `clocks`, `mode`, `referee`, `conduct`, `listing`,
//! `replay`, and what the room's live stream carries (`live_view`, `packed`).
//!
//! Server only (`ssr`):
//! - `state`: the `room` crate — the pure state machine (commands to events, the fold,
//!   timers) and its projection into the wire's views;
//! - `actor`: one task per live room, with `computer` (its computer seat) and `published`
//!   (each event as sent to every viewer);
//! - `group_commit` and `store`: the one writer and the event log in SQL; `upgrade`: older
//!   stored formats read into the current one;
//! - `service`: what the UI and the API call; `desk`, `reports`, `record`.

pub use wire::{clocks, commands, conduct, events, listing, live_view, mode, packed, referee, replay, settings, view};

#[cfg(feature = "ssr")]
pub mod actor;
#[cfg(feature = "ssr")]
mod computer;
#[cfg(feature = "ssr")]
pub mod desk;
#[cfg(feature = "ssr")]
pub(crate) mod group_commit;
#[cfg(feature = "ssr")]
pub mod published;
#[cfg(feature = "ssr")]
pub mod record;
#[cfg(feature = "ssr")]
pub mod reports;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub use ::room as state;
#[cfg(feature = "ssr")]
pub(crate) mod store;
#[cfg(feature = "ssr")]
pub mod upgrade;
