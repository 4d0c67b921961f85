//! Views that hydrate synchronously even where the framework asks for async hydration
//! (so that no async hydration code is compiled into the browser's bundle).
//!
//! The lazy routes make Leptos hydrate the whole app with `hydrate_async`, which awaits a
//! route's chunk before hydrating its page. Once the chunk is there, nothing inside a page
//! needs to wait: no page nests a lazy route, and the renderer's lazy chunk is started from
//! an effect, not during hydration. But every view type reached through `hydrate_async`,
//! and every view put in an `AnyView` (which stores a pointer to its `hydrate_async`), got
//! an async state machine compiled beside its synchronous `hydrate`: measured, 29% of the
//! room page's chunk and 6% of the first download were such state machines.
//!
//! [`SyncHydrate`] cuts that chain: it is the view it wraps in every respect but one —
//! asked for async hydration, it runs the synchronous one (the trait's default). Pages are
//! wrapped where the router meets them (`lazy_routes`, the home route), and views become
//! `AnyView`s through [`IntoAnySync::into_any_sync`], never `into_any` (the lint forbids it).

use leptos::prelude::*;
use leptos::tachys::{
    html::attribute::{any_attribute::AnyAttribute, Attribute},
    hydration::Cursor,
    ssr::StreamBuilder,
    view::{add_attr::AddAnyAttr, Position, PositionState, Render, RenderHtml},
};

/// `T`, hydrated synchronously when async hydration is asked for (see the module).
pub struct SyncHydrate<T>(pub T);

impl<T: Render> Render for SyncHydrate<T> {
    type State = T::State;

    fn build(self) -> Self::State {
        self.0.build()
    }

    fn rebuild(self, state: &mut Self::State) {
        self.0.rebuild(state)
    }
}

impl<T: RenderHtml> RenderHtml for SyncHydrate<T> {
    type AsyncOutput = SyncHydrate<T::AsyncOutput>;
    type Owned = SyncHydrate<T::Owned>;

    const MIN_LENGTH: usize = T::MIN_LENGTH;
    const EXISTS: bool = T::EXISTS;

    fn dry_resolve(&mut self) {
        self.0.dry_resolve();
    }

    async fn resolve(self) -> Self::AsyncOutput {
        SyncHydrate(self.0.resolve().await)
    }

    fn html_len(&self) -> usize {
        self.0.html_len()
    }

    fn to_html_with_buf(
        self,
        buf: &mut String,
        position: &mut Position,
        escape: bool,
        mark_branches: bool,
        extra_attrs: Vec<AnyAttribute>,
    ) {
        self.0.to_html_with_buf(buf, position, escape, mark_branches, extra_attrs);
    }

    fn to_html_async_with_buf<const OUT_OF_ORDER: bool>(
        self,
        buf: &mut StreamBuilder,
        position: &mut Position,
        escape: bool,
        mark_branches: bool,
        extra_attrs: Vec<AnyAttribute>,
    ) where
        Self: Sized,
    {
        self.0.to_html_async_with_buf::<OUT_OF_ORDER>(buf, position, escape, mark_branches, extra_attrs);
    }

    fn hydrate<const FROM_SERVER: bool>(self, cursor: &Cursor, position: &PositionState) -> Self::State {
        self.0.hydrate::<FROM_SERVER>(cursor, position)
    }

    // `hydrate_async` is the trait's default: `async { self.hydrate::<true>(…) }`. That is
    // the point of this type; `T::hydrate_async` is never instantiated through it.

    fn into_owned(self) -> Self::Owned {
        SyncHydrate(self.0.into_owned())
    }
}

impl<T: AddAnyAttr> AddAnyAttr for SyncHydrate<T> {
    type Output<SomeNewAttr: Attribute> = SyncHydrate<T::Output<SomeNewAttr>>;

    fn add_any_attr<NewAttr: Attribute>(self, attr: NewAttr) -> Self::Output<NewAttr>
    where
        Self::Output<NewAttr>: RenderHtml,
    {
        SyncHydrate(self.0.add_any_attr(attr))
    }
}

/// `into_any` through [`SyncHydrate`]: the `AnyView` every page and branch is made with.
pub trait IntoAnySync {
    fn into_any_sync(self) -> AnyView;
}

impl<T: IntoView + 'static> IntoAnySync for T {
    fn into_any_sync(self) -> AnyView {
        #[allow(clippy::disallowed_methods)] // the one place `into_any` is meant
        SyncHydrate(self).into_any()
    }
}
