//! A room's top bar (the game's page and its replay): the brand, the room's name in the
//! middle, and the badges and switches grouped at the end, with the large-text switch where a
//! game is played. Kept apart from the other pages' `TopBar` so that the large-text switch
//! is compiled into the room's chunk, not into every page's first download.

use leptos::prelude::*;

use crate::pages::{header::Brand, HeaderBadges, LangSwitch};

/// The room's bar: `children` (the room's name) take the middle.
#[component]
pub fn RoomTopBar(children: Children, #[prop(optional)] text_size: bool) -> impl IntoView {
    view! {
        <header class="topbar">
            <Brand/>
            {children()}
            <span class="top-actions">
                <HeaderBadges/>
                {text_size.then(|| view! { <TextSizeSwitch/> })}
                <LangSwitch/>
            </span>
        </header>
    }
}

/// Large-text mode: the whole page scales, since sizes are in rem. The choice is
/// remembered in this browser.
#[component]
pub fn TextSizeSwitch() -> impl IntoView {
    let large = RwSignal::new(false);
    #[cfg(feature = "hydrate")]
    {
        let apply = |on: bool| {
            if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
                let _ = if on { el.class_list().add_1("large-text") } else { el.class_list().remove_1("large-text") };
            }
            if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
                let _ = s.set_item("sb_large_text", if on { "1" } else { "0" });
            }
        };
        Effect::new(move |prev: Option<()>| {
            if prev.is_none() {
                let saved = web_sys::window()
                    .and_then(|w| w.local_storage().ok().flatten())
                    .and_then(|s| s.get_item("sb_large_text").ok().flatten());
                large.set(saved.as_deref() == Some("1"));
            }
            apply(large.get());
        });
    }
    view! {
        <button class="lang" data-testid="text-size" aria-pressed=move || large.get().to_string()
            on:click=move |_| large.update(|l| *l = !*l)>
            {move || crate::tr!("ui.large_text")}
        </button>
    }
}
