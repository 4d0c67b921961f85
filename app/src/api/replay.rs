//! The replay of a stored record, for those who may read it (003 §8.1): its steps, and
//! the room as it stood after any one of them.

use leptos::prelude::*;

use crate::AppError;

use wire::{replay::ReplayStep, view::RoomView};

/// The steps of a room's record, oldest first.
#[server(endpoint = "replay_steps", input = server_fn::codec::Json)]
pub async fn replay_steps(room_id: i64) -> Result<Vec<ReplayStep>, AppError> {
    let (_, log) = super::play::service()?.record_log(room_id, super::play::signed_in().await?).await?;
    Ok(wire::replay::steps(&log))
}

/// The room after event `seq` of its record, with the clocks as they read then.
#[server(endpoint = "replay_frame", input = server_fn::codec::Json)]
pub async fn replay_frame(room_id: i64, seq: i64) -> Result<RoomView, AppError> {
    let (state, log) = super::play::service()?.record_log(room_id, super::play::signed_in().await?).await?;
    use room::ReplayedToError;
    state.replayed_to(room_id, &log, seq).map_err(|e| match e {
        ReplayedToError::NoSuchEvent { got, max } => {
            AppError::input("seq", crate::error::InputProblem::Range { min: 1, max, got })
        }
        ReplayedToError::Damaged(e) => {
            tracing::error!(room_id, seq = e.seq, why = %e.why, "a stored log does not replay");
            AppError::Internal
        }
    })
}
