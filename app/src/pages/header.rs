//! The bar at the top of every page (`TopBar`): the brand, a link home; what the page puts
//! beside it (a room's name, the home page's account); the badges and the switches. The
//! badges are the notifications bell with the unread count for signed-in users, and for
//! administrators the length of the referee's queue. Filled in the browser after load and
//! every 30 s (the server renders none, so a page never waits for them); a page that changes
//! them asks for a reload.

use leptos::{prelude::*, task::spawn_local};

use crate::{
    api::referee::{header_badges, BadgeCounts},
    tr,
};

/// The badges' state, shared by the whole app (provided in `App`).
#[derive(Clone, Copy)]
pub struct Badges(pub RwSignal<Option<BadgeCounts>>);

impl Badges {
    pub fn provide() {
        provide_context(Badges(RwSignal::new(None)));
    }

    /// Fetches the counts again (after the page read or changed them).
    pub fn load(self) {
        spawn_local(async move {
            // A failed fetch keeps what is shown; the next one is 30 s away.
            if let Ok(counts) = header_badges().await {
                self.0.try_set(counts);
            }
        });
    }
}

/// The queue's live length on the dashboard replaces the fetched one at once.
pub fn set_queue_len(n: usize) {
    if let Some(b) = use_context::<Badges>() {
        b.0.update(|c| {
            if let Some(c) = c {
                c.queue = Some(n);
            }
        });
    }
}

/// The top bar of every page but a room's (`room::top_bar`): `children` stand after the
/// brand, then the badges and the language switch; `no_badges` is for pages of someone not
/// signed in.
#[component]
pub fn TopBar(
    #[prop(optional)] children: Option<Children>,
    #[prop(optional)] no_badges: bool,
    /// The home page's brand carries the Korean name too.
    #[prop(optional)]
    home: bool,
) -> impl IntoView {
    view! {
        <header class="topbar">
            <Brand home=home/>
            {children.map(|c| c())}
            {(!no_badges).then(|| view! { <HeaderBadges/> })}
            <super::LangSwitch/>
        </header>
    }
}

/// The brand, a link home.
#[component]
pub fn Brand(#[prop(optional)] home: bool) -> impl IntoView {
    view! { <a class="brand" href="/">"Space Baduk"{home.then(|| view! { <span class="sub">" 공간 바둑"</span> })}</a> }
}

#[component]
pub fn HeaderBadges() -> impl IntoView {
    let badges = use_context::<Badges>().unwrap_or_else(|| Badges(RwSignal::new(None)));
    // In the browser only: on load and every 30 s.
    Effect::new(move |prev: Option<()>| {
        if prev.is_none() {
            badges.load();
            if let Ok(h) = set_interval_with_handle(move || badges.load(), std::time::Duration::from_secs(30)) {
                on_cleanup(move || h.clear());
            }
        }
    });
    view! {
        <span class="badges">
            {move || badges.0.get().map(|c| view! {
                <a class="bell" class:unread={c.unread > 0} href="/notifications" data-testid="notifications-bell"
                   aria-label=tr!("notice.bell", n = c.unread)>
                    // Drawn, not an emoji: not every system font has a bell.
                    <svg class="icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
                        <path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1z"/>
                    </svg>
                    <span class="count" data-testid="unread-count">{c.unread}</span>
                </a>
                {c.queue.map(|n| view! {
                    <a class="queue-badge" class:waiting={n > 0} href="/admin" data-testid="queue-badge"
                       aria-label=tr!("queue.badge", n = n)>
                        <span aria-hidden="true">"⚖"</span>
                        <span class="count" data-testid="queue-count">{n}</span>
                    </a>
                })}
            })}
        </span>
    }
}

use crate::text::calendar::date_time;

/// A server time as `YYYY-MM-DD HH:MM` and the time zone's name from the catalogue (UTC:
/// the same on the server and in the browser).
pub fn fmt_time(ms: i64) -> String {
    let (date, time) = date_time(ms);
    tr!("time.utc", date = date, time = time)
}

/// To the millisecond, as the server received it (the timeline of 003 §5.6–5.7, §10.4).
pub fn fmt_time_ms(ms: i64) -> String {
    let (date, _) = date_time(ms);
    let t = ms.rem_euclid(86_400_000);
    let time = format!("{:02}:{:02}:{:02}.{:03}", t / 3_600_000, t / 60_000 % 60, t / 1000 % 60, t % 1000);
    tr!("time.utc", date = date, time = time)
}

/// The time now in ms (the browser's clock there, the server's here).
pub fn now_ms() -> i64 {
    #[cfg(feature = "hydrate")]
    {
        js_sys::Date::now() as i64
    }
    #[cfg(not(feature = "hydrate"))]
    {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
    }
}

/// How long ago, in the page's language ("3 min", "2 h", "4 d").
pub fn age_text(since_ms: i64, now: i64) -> String {
    let m = ((now - since_ms).max(0) / 60_000) as u64;
    if m < 60 {
        tr!("time.minutes", n = m)
    } else if m < 48 * 60 {
        tr!("time.hours", n = m / 60)
    } else {
        tr!("time.days", n = m / 1440)
    }
}
