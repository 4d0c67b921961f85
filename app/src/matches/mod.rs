//! Rooms at run time, on the server: the actor that owns a live room, and the service both the
//! UI and the participant API call. What a room is (its state machine and the views made from
//! it) is the `room` crate; what is said about it on the wire is the `wire` crate; its event log
//! is `crate::data::room_log`.
//!
//! - `actor`: one task per live room, with `computer` (its computer seat) and `published`
//!   (each event as sent to every viewer);
//! - `service`: what the UI and the API call (the registry of live rooms, leases and
//!   forwarding between instances, room creation, the desk's facade);
//! - `desk` (the administrators' queue), `record` (the stored record's texts); reports and
//!   sanctions are the service's (`service::reports`).

pub mod actor;
mod computer;
pub mod desk;
pub mod published;
pub mod record;
pub mod service;

use wire::commands::MatchError;

use crate::AppError;

/// Storage failures are logged where they happen; callers learn only whether to ask again
/// (the database did not answer: 503) or that it was internal.
pub(crate) fn from_app(e: AppError) -> MatchError {
    match e {
        AppError::DatabaseUnavailable { retry_after_s } => {
            MatchError::DatabaseUnavailable { retry_after_s: u32::try_from(retry_after_s).unwrap_or(u32::MAX) }
        }
        _ => MatchError::Internal,
    }
}
