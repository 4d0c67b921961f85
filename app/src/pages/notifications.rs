//! `/notifications`: the signed-in user's notifications, newest first, each a sentence of
//! the catalogue (`notice.<kind>`) with its room and time; "mark all read".

use crate::sync_hydrate::IntoAnySync;
use leptos::{prelude::*, task::spawn_local};

use super::header::{fmt_time, Badges};
use crate::{
    api::referee::{mark_notices_read, my_notices},
    tr,
};
use wire::referee::{Notice, NoticeKind};

/// A notification's sentence in the page's language.
pub fn notice_text(n: &Notice) -> String {
    let room = n.room_name.clone().or_else(|| n.room_id.map(|id| format!("#{id}"))).unwrap_or_default();
    let detail = n.detail.clone().unwrap_or_default();
    let kind: &'static str = n.kind.into();
    // A new queue item names its kind: told in words, not as a code.
    let detail = match n.kind {
        NoticeKind::NewQueueItem if !detail.is_empty() => super::words::tr_dyn(&format!("queue.{detail}")),
        NoticeKind::ReportDecided if !detail.is_empty() => super::words::tr_dyn(&format!("case.outcome.{detail}")),
        _ => detail,
    };
    // Conduct notices carry their reasons; those stored before they did read as they were.
    let with_reasons = !detail.is_empty()
        && matches!(n.kind, NoticeKind::Sanctioned | NoticeKind::AppealOpened | NoticeKind::AppealDecided);
    let key = if with_reasons { format!("notice.{kind}.reasons") } else { format!("notice.{kind}") };
    super::words::tr_dyn_with(&key, &[("room", &room), ("detail", &detail)])
}

#[component]
pub fn NotificationsPage() -> impl IntoView {
    let data = crate::pages::resource(|| (), |_| my_notices());
    let marking = RwSignal::new(false);
    // Taken here: a task after an await runs outside the component.
    let badges = use_context::<Badges>();
    let mark_all = move |_| {
        marking.set(true);
        spawn_local(async move {
            let _ = mark_notices_read(None).await;
            marking.set(false);
            data.refetch();
            if let Some(b) = badges {
                b.load();
            }
        });
    };
    view! {
        <crate::pages::TopBar/>
        <main class="page notifications" data-testid="notifications">
            <h1>{move || tr!("notice.title")}</h1>
            <Suspense fallback=|| view! { <p>"…"</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(n) if n.items.is_empty() => view! {
                            <p class="empty" data-testid="notices-empty">{move || tr!("notice.none")}</p>
                        }.into_any_sync(),
                        Ok(n) => {
                            let mut items = n.items;
                            items.sort_by(|a, b| b.at_ms.cmp(&a.at_ms).then(b.id.cmp(&a.id)));
                            view! {
                                <p>
                                    <span data-testid="notices-unread">{move || tr!("notice.unread", n = n.unread)}</span>" "
                                    <button data-testid="mark-all-read" disabled=move || marking.get() || n.unread == 0
                                        on:click=mark_all>{move || tr!("notice.mark_all_read")}</button>
                                </p>
                                <ul class="notices" data-testid="notice-list">
                                    {items.into_iter().map(|item| {
                                        let text = item.clone();
                                        let kind: &'static str = item.kind.into();
                                        let href = item.room_id.map(|id| format!("/rooms/{id}"));
                                        view! {
                                            <li class:unread=!item.read data-testid="notice-item" data-kind=kind>
                                                <time>{fmt_time(item.at_ms)}</time>" "
                                                {match href {
                                                    Some(h) => view! { <a href=h data-testid="notice-room">{move || notice_text(&text)}</a> }.into_any_sync(),
                                                    None => view! { <span>{move || notice_text(&text)}</span> }.into_any_sync(),
                                                }}
                                            </li>
                                        }
                                    }).collect_view()}
                                </ul>
                            }.into_any_sync()
                        }
                        Err(e) => view! {
                            <p class="error" role="alert">{move || crate::text::app_error(crate::i18n::use_lang().get(), &e)}</p>
                        }.into_any_sync(),
                    }
                })}
            </Suspense>
            <p><a href="/">{move || tr!("nav.home")}</a></p>
        </main>
    }
}
