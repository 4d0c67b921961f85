//! Governance on the server: the service administrators and rooms call (`service`) and the
//! record-retention job (`retention`). The common-rules texts the program ships are read at
//! the first start by the storage (`crate::data::shipped_rules`). The
//! wire types (versions, clauses, precedents, permits, site defaults, retention reports) are
//! `wire::governance`, re-exported here; storage is `crate::data::governance`.
//!
//! A precedent makes the next version; a room pins the version in force when it is created,
//! and its special rules must stay within that version's `Permits`.

pub use wire::governance::*;

#[cfg(feature = "ssr")]
pub mod retention;
#[cfg(feature = "ssr")]
pub mod service;
