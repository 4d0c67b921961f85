//! The reasons a ruling, a sanction, an objection or an appeal carries (003 §1.5: every ruling
//! with reasons both players see): the text box, and sending a command made from them.

use leptos::prelude::*;

use super::{Notice, RoomCtx};
use crate::tr;
use wire::commands::Command;

/// Reasons: 1–2000 characters (the server checks them again).
pub const REASONS_MAX: usize = 2000;

/// A textarea for the reasons every action carries.
#[component]
pub fn Reasons(value: RwSignal<String>) -> impl IntoView {
    view! {
        <label class="reasons">{move || tr!("desk.reasons")}
            <textarea data-testid="reasons" required minlength="1" maxlength=REASONS_MAX.to_string() rows="2"
                prop:value=value on:input=move |e| value.set(event_target_value(&e))></textarea>
        </label>
    }
}

/// Sends `cmd` built from the reasons; on success the reasons are cleared.
pub fn send_reasoned(ctx: RoomCtx, reasons: RwSignal<String>, make: impl FnOnce(String) -> Option<Command>) {
    let r = reasons.get_untracked();
    let n = r.trim().chars().count();
    if n == 0 || r.chars().count() > REASONS_MAX {
        ctx.notice.set(Some(Notice::Error(tr!("desk.reasons_needed", max = REASONS_MAX))));
        return;
    }
    if let Some(cmd) = make(r) {
        ctx.send_and(cmd, move |ok| {
            if ok {
                reasons.set(String::new());
            }
        });
    }
}
