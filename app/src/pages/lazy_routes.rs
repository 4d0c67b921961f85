//! The pages left out of the first download, to keep it small
//! (docs/decisions/0004-a-small-browser-download.md). Each is a lazy route: its view is a WASM
//! chunk of its own that the router fetches on the way to the page, and that a server-rendered
//! page names in a `<link rel=preload>` so that hydration does not wait for it. Only the home
//! page (with sign-in, the lobby and the player's games) and the header are in the first
//! download; every other page comes when first visited. The 3D renderer is split out
//! separately (`board_view::renderer::start`): a board fetches it once the page has hydrated
//! (`crate::hydrated`), so that it is not part of the page's first download.
//!
//! One block per page, written out. `#[lazy_route]` names each chunk after the route's
//! type, so a `macro_rules!` generating these blocks should give distinct chunks too. It has
//! not been tried, because only a split release build and the browser tests can show that
//! it works.

use crate::sync_hydrate::IntoAnySync;
use leptos::prelude::*;
use leptos_router::{lazy_route, LazyRoute};

/// A lazy route whose page also waits for the texts outside the first download
/// (`i18n::catalogue::LATER`), fetched beside its chunk. The router uses every page as
/// `Lazy<Later<…Route>>`.
pub struct Later<R>(R);

impl<R: LazyRoute> LazyRoute for Later<R> {
    fn data() -> Self {
        Later(R::data())
    }
    async fn view(this: Self) -> AnyView {
        // Reached by a link, the texts and the chunk come side by side (each at once when
        // `preload` had them).
        both(crate::i18n::catalogue::later_texts(), R::preload()).await;
        R::view(this.0).await
    }
    // Both before the view: hydrating a server-rendered page, the router awaits this and then
    // polls `view` once; a view still waiting for its texts then would not match the page.
    async fn preload() {
        both(crate::i18n::catalogue::later_texts(), R::preload()).await
    }
}

/// Awaits two futures side by side (a hand-written `futures::join!`: one function, where the
/// crate would be a new dependency of the bundle).
async fn both(a: impl std::future::Future<Output = ()>, b: impl std::future::Future<Output = ()>) {
    use std::task::Poll;
    let (mut a, mut b) = (std::pin::pin!(a), std::pin::pin!(b));
    let (mut a_done, mut b_done) = (false, false);
    std::future::poll_fn(|cx| {
        a_done = a_done || a.as_mut().poll(cx).is_ready();
        b_done = b_done || b.as_mut().poll(cx).is_ready();
        if a_done && b_done {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    })
    .await
}

pub struct RoomRoute;
#[lazy_route]
impl LazyRoute for RoomRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::RoomPage/> }.into_any_sync()
    }
}

pub struct ReplayRoute;
#[lazy_route]
impl LazyRoute for ReplayRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::ReplayPage/> }.into_any_sync()
    }
}

pub struct NewRoomRoute;
#[lazy_route]
impl LazyRoute for NewRoomRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::NewRoomPage/> }.into_any_sync()
    }
}

pub struct SgfViewRoute;
#[lazy_route]
impl LazyRoute for SgfViewRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::SgfViewPage/> }.into_any_sync()
    }
}

pub struct BoardBenchRoute;
#[lazy_route]
impl LazyRoute for BoardBenchRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::BoardBenchPage/> }.into_any_sync()
    }
}

pub struct AdminRoute;
#[lazy_route]
impl LazyRoute for AdminRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::AdminPage/> }.into_any_sync()
    }
}

pub struct AdminRoomRoute;
#[lazy_route]
impl LazyRoute for AdminRoomRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::AdminRoomPage/> }.into_any_sync()
    }
}

pub struct LearningRoute;
#[lazy_route]
impl LazyRoute for LearningRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::LearningPage/> }.into_any_sync()
    }
}

pub struct AccountsAdminRoute;
#[lazy_route]
impl LazyRoute for AccountsAdminRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::AccountsAdminPage/> }.into_any_sync()
    }
}

pub struct AuditLogRoute;
#[lazy_route]
impl LazyRoute for AuditLogRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::AuditLogPage/> }.into_any_sync()
    }
}

pub struct GovernanceRoute;
#[lazy_route]
impl LazyRoute for GovernanceRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::GovernancePage/> }.into_any_sync()
    }
}

pub struct SetupRoute;
#[lazy_route]
impl LazyRoute for SetupRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::SetupPage/> }.into_any_sync()
    }
}

pub struct SignUpRoute;
#[lazy_route]
impl LazyRoute for SignUpRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::SignUpPage/> }.into_any_sync()
    }
}

pub struct ArchiveRoute;
#[lazy_route]
impl LazyRoute for ArchiveRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::ArchivePage/> }.into_any_sync()
    }
}

pub struct NotificationsRoute;
#[lazy_route]
impl LazyRoute for NotificationsRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::NotificationsPage/> }.into_any_sync()
    }
}

pub struct ProfileRoute;
#[lazy_route]
impl LazyRoute for ProfileRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::ProfilePage/> }.into_any_sync()
    }
}

pub struct AccountRoute;
#[lazy_route]
impl LazyRoute for AccountRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::AccountPage/> }.into_any_sync()
    }
}

pub struct ResetRoute;
#[lazy_route]
impl LazyRoute for ResetRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::ResetPage/> }.into_any_sync()
    }
}

pub struct RulesRoute;
#[lazy_route]
impl LazyRoute for RulesRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::RulesPage/> }.into_any_sync()
    }
}

pub struct CommonRulesRoute;
#[lazy_route]
impl LazyRoute for CommonRulesRoute {
    fn data() -> Self {
        Self
    }
    fn view(_this: Self) -> AnyView {
        view! { <super::CommonRulesPage/> }.into_any_sync()
    }
}
