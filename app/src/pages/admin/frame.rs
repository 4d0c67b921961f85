//! The frame every page of the console shares: the top bar, the page's title, what it loaded
//! shown once loaded — and to anyone but an administrator the refusal instead (the server
//! refuses them the data anyway), or the error that stopped the loading.

use leptos::prelude::*;
use serde::{de::DeserializeOwned, Serialize};

use crate::{api::current_user, pages::resource::Json, sync_hydrate::IntoAnySync, tr, AppError};

/// An administrator's page: the top bar, the title (catalogue key `title`), then `children`.
#[component]
pub fn AdminFrame(testid: &'static str, title: &'static str, children: Children) -> impl IntoView {
    view! {
        <crate::pages::TopBar/>
        <main class="page admin" data-testid=testid>
            <h1>{move || crate::i18n::text(crate::i18n::use_lang().get(), title)}</h1>
            {children()}
        </main>
    }
}

/// What an administrator's page loaded (`for_admin`), shown by `body` once there: the refusal
/// for anyone else, the error if loading failed.
#[component]
pub fn Loaded<T, V, F>(data: Resource<Result<Option<T>, AppError>, Json>, body: F) -> impl IntoView
where
    T: Serialize + DeserializeOwned + Clone + Send + Sync + 'static,
    V: IntoView + 'static,
    F: Fn(T) -> V + Clone + Send + Sync + 'static,
{
    view! {
        <Suspense fallback=|| view! { <p>"…"</p> }>
            {move || {
                let body = body.clone();
                Suspend::new(async move {
                    match data.await {
                        Ok(Some(v)) => body(v).into_any_sync(),
                        Ok(None) => refusal().into_any_sync(),
                        Err(e) => view! {
                            <p class="error" role="alert">{move || error_text(&e)}</p>
                        }.into_any_sync(),
                    }
                })
            }}
        </Suspense>
    }
}

/// `load`'s data for an administrator; `None` for anyone else, who reads [`refusal`] (the
/// server refuses them the data anyway).
pub async fn for_admin<T, F>(load: impl FnOnce() -> F) -> Result<Option<T>, AppError>
where
    F: std::future::Future<Output = Result<T, AppError>>,
{
    let me = current_user().await?;
    if !me.as_ref().is_some_and(|m| m.role.is_admin()) {
        return Ok(None);
    }
    Ok(Some(load().await?))
}

/// A refusal in the page's language.
pub fn error_text(e: &AppError) -> String {
    crate::text::app_error(crate::i18n::use_lang().get(), e)
}

/// What a visitor who is not an administrator reads instead of the console.
pub fn refusal() -> impl IntoView {
    view! { <p class="error" role="alert" data-testid="admin-refused">{move || tr!("admin.refused")}</p> }
}
