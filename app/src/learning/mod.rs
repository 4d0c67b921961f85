//! Local learning (003 §12): learning samples from this server's finished games, training
//! runs of the computer's eight weights, and the model files and participant programs that
//! carry a model elsewhere. The wire types are `wire::learning` and `wire::programs`
//! (re-exported here); the work is server-only.

pub use wire::learning::*;
pub use wire::programs;

#[cfg(feature = "ssr")]
pub mod participant;
#[cfg(feature = "ssr")]
pub mod program_runs;
#[cfg(feature = "ssr")]
pub mod service;
