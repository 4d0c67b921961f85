//! Matches: settings agreed before play, the event log, the per-room state machine, the
//! actor that owns a live room, and the service both the UI and the participant API call.
//! (`settings`, `events` and `view` are shared with the browser; the rest is server-only.)

pub mod clocks;
pub mod commands;
pub mod conduct;
pub mod events;
pub mod listing;
pub mod live_view;
pub mod mode;
pub mod packed;
pub mod referee;
pub mod replay;
pub mod settings;
pub mod view;

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
pub mod state;
#[cfg(feature = "ssr")]
pub(crate) mod store;
#[cfg(feature = "ssr")]
pub mod upgrade;
