//! What pages say in the reader's language beyond fixed keys: a key built at run time (with
//! or without parameters), a colour's name, a room phase's name. Every page uses them; the
//! sentences themselves are the catalogue's (`crate::text`, `app/locales`).

use leptos::prelude::*;

use crate::tr;

use wire::{commands::RoomPhase, events::Colour};

/// The name of colour `c`.
pub fn colour_text(c: Colour) -> String {
    match c {
        Colour::Black => tr!("colour.black"),
        Colour::White => tr!("colour.white"),
    }
}

pub fn phase_text(phase: RoomPhase) -> String {
    tr_dyn(&format!("phase.{}", phase.as_str()))
}

/// Translates a key built at run time.
pub fn tr_dyn(key: &str) -> String {
    crate::i18n::text(crate::i18n::use_lang().get(), key)
}

/// Translates a key built at run time, with parameters.
pub fn tr_dyn_with(key: &str, params: &[(&str, &str)]) -> String {
    crate::text::t_with(crate::i18n::use_lang().get(), key, params)
}
