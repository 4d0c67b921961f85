//! Who may read the stored record (003 §8.1), on the room page: each player approves a
//! viewer by user name (both players must), and everyone sees who is approved by whom. The
//! download links themselves are in the panel's footer, shown to whoever may download
//! (`RoomView::may_read_record`): players, administrators and viewers both players approved.

use crate::sync_hydrate::IntoAnySync;
use leptos::{prelude::*, task::spawn_local};

use super::{colour_text, describe_error, RoomCtx};
use crate::{api::match_command, tr};
use wire::{
    commands::{Command, RoomPhase},
    events::Colour,
    view::RecordViewerView,
};

/// One approval as read: by both players, or by one and awaiting the other.
fn approval_line(r: &RecordViewerView) -> String {
    let name = r.username.clone();
    match [r.approved.black, r.approved.white] {
        [true, true] => tr!("record.approved", name = name),
        [black, _] => {
            let (by, other) = if black { (Colour::Black, Colour::White) } else { (Colour::White, Colour::Black) };
            tr!("record.pending", name = name, by = colour_text(by), other = colour_text(other))
        }
    }
}

#[component]
pub fn RecordViewers() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let started = move || ctx.view.with(|v| v.phase != RoomPhase::Open);
    // Players approve; those who may read see the list too, and so does anyone once there is one.
    let shown = move || {
        started() && ctx.view.with(|v| v.your_colour.is_some() || v.may_read_record || !v.record_viewers.is_empty())
    };
    let name = RwSignal::new(String::new());
    let busy = RwSignal::new(false);
    // The last answer: Ok(confirmation) or Err(refusal), in the page's language.
    let answer = RwSignal::new(None::<Result<String, String>>);
    let approve = move || {
        let username = name.get_untracked().trim().to_string();
        if busy.get_untracked() {
            return;
        }
        busy.set(true);
        spawn_local(async move {
            let r = match_command(ctx.id, Command::ApproveRecordViewer { username: username.clone() }).await;
            busy.set(false);
            match r {
                Ok(_) => {
                    name.set(String::new());
                    answer.set(Some(Ok(tr!("record.done", name = username))));
                }
                Err(e) => answer.set(Some(Err(describe_error(&e)))),
            }
            ctx.refresh();
        });
    };
    view! {
        <Show when=shown>
            <section class="record-viewers" data-testid="record-viewers" aria-label=move || tr!("record.title")>
                <h3>{move || tr!("record.title")}</h3>
                <p class="hint">{move || tr!("record.rule")}</p>
                <ul data-testid="record-viewer-list">
                    {move || {
                        let lines: Vec<String> = ctx.view.with(|v| v.record_viewers.iter().map(approval_line).collect());
                        if lines.is_empty() {
                            view! { <li class="none">{tr!("record.none")}</li> }.into_any_sync()
                        } else {
                            lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view().into_any_sync()
                        }
                    }}
                </ul>
                <Show when=move || ctx.my_colour().is_some()>
                    <form class="approve-viewer" on:submit=move |e| { e.prevent_default(); approve(); }>
                        <label>{move || tr!("record.viewer_name")}
                            <input data-testid="record-viewer-name" autocomplete="off" prop:value=name
                                on:input=move |e| name.set(event_target_value(&e))/>
                        </label>
                        <button type="submit" data-testid="record-viewer-approve" disabled=move || busy.get()>
                            {move || tr!("record.approve")}
                        </button>
                    </form>
                    {move || answer.get().map(|a| match a {
                        Ok(t) => view! { <p class="notice" data-testid="record-viewer-answer" role="status">{t}</p> }.into_any_sync(),
                        Err(t) => view! { <p class="notice error" data-testid="record-viewer-answer" role="alert">{t}</p> }.into_any_sync(),
                    })}
                </Show>
            </section>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn approvals_read_as_both_or_one_awaiting_the_other() {
        let owner = Owner::new();
        owner.with(|| {
            provide_context(crate::i18n::UiLang(RwSignal::new(crate::i18n::Lang::EN)));
            let r = |approved| RecordViewerView { username: "dave".into(), approved };
            assert_eq!(approval_line(&r([true, true].into())), "dave: approved by both players");
            assert_eq!(approval_line(&r([true, false].into())), "dave: approved by Black, waiting for White");
            assert_eq!(approval_line(&r([false, true].into())), "dave: approved by White, waiting for Black");
        });
    }
}
