//! `/account`: the signed-in person's password and open sign-ins (each can be ended from
//! here); `/reset?token=…`: a new password through an administrator's one-time link.

use crate::sync_hydrate::IntoAnySync;
use leptos::{prelude::*, task::spawn_local};
use leptos_router::hooks::use_query_map;

use super::{
    header::fmt_time,
    room::conduct::{refusal_text, SanctionItem},
};
use crate::{
    accounts::LoginView,
    api::{
        account::{end_login, end_other_logins, my_logins, ChangePassword, ResetPassword},
        conduct::my_sanctions,
        match_command,
    },
    tr, AppError,
};
use wire::{commands::Command, conduct::SanctionEntry};

fn error_line(e: AppError) -> impl IntoView {
    view! { <p class="error" role="alert">{move || crate::text::app_error(crate::i18n::use_lang().get(), &e)}</p> }
}

#[component]
pub fn AccountPage() -> impl IntoView {
    let change = ServerAction::<ChangePassword>::new();
    // Re-read the sign-ins after a password change (it ends the others) and after ending one.
    let ended = RwSignal::new(0u32);
    let logins = crate::pages::resource(move || (change.version().get(), ended.get()), |_| my_logins());
    let failed = RwSignal::new(None::<AppError>);
    let end = move |id: Option<String>| {
        spawn_local(async move {
            let done = match id {
                Some(id) => end_login(id).await,
                None => end_other_logins().await.map(|_| ()),
            };
            failed.set(done.err());
            ended.update(|n| *n += 1);
        });
    };
    view! {
        <crate::pages::TopBar/>
        <main class="page account-page" data-testid="account">
            <h1>{move || tr!("me.title")}</h1>
            <section aria-labelledby="password-title">
                <h2 id="password-title">{move || tr!("me.password_title")}</h2>
                <ActionForm action=change attr:class="card form" attr:id="password-form">
                    <label>{move || tr!("me.current_password")}
                        <input type="password" name="current_password" autocomplete="current-password" required/>
                    </label>
                    <label>{move || tr!("account.password_range")}
                        <input type="password" name="new_password" autocomplete="new-password" required minlength="10" maxlength="128"/>
                    </label>
                    <label>{move || tr!("account.password_again")}
                        <input type="password" name="new_password_again" autocomplete="new-password" required/>
                    </label>
                    <button type="submit" class="primary">{move || tr!("me.change_password")}</button>
                </ActionForm>
                {move || change.value().get().map(|r| match r {
                    Ok(n) => view! {
                        <p class="ok" role="status" data-testid="password-changed">{tr!("me.password_changed", n = n)}</p>
                    }.into_any_sync(),
                    Err(e) => error_line(e).into_any_sync(),
                })}
            </section>
            <section aria-labelledby="logins-title">
                <h2 id="logins-title">{move || tr!("me.logins_title")}</h2>
                <Suspense fallback=|| view! { <p>"…"</p> }>
                    {move || Suspend::new(async move {
                        match logins.await {
                            Ok(list) => {
                                let others = list.iter().filter(|l| !l.current).count();
                                view! {
                                    <div class="table-wrap"><table class="logins" data-testid="logins">
                                        <thead><tr>
                                            <th>{move || tr!("me.login_when")}</th>
                                            <th>{move || tr!("me.login_device")}</th>
                                            <th>{move || tr!("me.login_address")}</th>
                                            <th></th>
                                        </tr></thead>
                                        <tbody>{list.into_iter().map(|l| login_row(l, end)).collect_view()}</tbody>
                                    </table></div>
                                    <p><button data-testid="end-others" disabled={others == 0} on:click=move |_| end(None)>
                                        {move || tr!("me.end_others")}</button></p>
                                }.into_any_sync()
                            }
                            Err(e) => error_line(e).into_any_sync(),
                        }
                    })}
                </Suspense>
                {move || failed.get().map(error_line)}
            </section>
            <MySanctions/>
            <p><a href="/">{move || tr!("nav.home")}</a></p>
        </main>
    }
}

/// The sanctions on this account (003 §6.6): each with its reasons and appeals, and the
/// appeal form while one may be made (a restricted spectator appeals from here: the room
/// itself refuses them).
#[component]
fn MySanctions() -> impl IntoView {
    let done = RwSignal::new(0u32);
    let list = crate::pages::resource(move || done.get(), |_| my_sanctions());
    view! {
        <section aria-labelledby="sanctions-title" data-testid="my-sanctions">
            <h2 id="sanctions-title">{move || tr!("conduct.history")}</h2>
            <Suspense fallback=|| view! { <p>"…"</p> }>
                {move || Suspend::new(async move {
                    match list.await {
                        Ok(items) if items.is_empty() => view! { <p class="hint" data-testid="no-sanctions">{tr!("conduct.none")}</p> }.into_any_sync(),
                        Ok(items) => view! {
                            <ol class="sanction-history">
                                {items.into_iter().map(|e| view! { <SanctionEntryItem entry=e done=done/> }).collect_view()}
                            </ol>
                        }.into_any_sync(),
                        Err(e) => error_line(e).into_any_sync(),
                    }
                })}
            </Suspense>
        </section>
    }
}

#[component]
fn SanctionEntryItem(entry: SanctionEntry, done: RwSignal<u32>) -> impl IntoView {
    let evidence = RwSignal::new(String::new());
    let failed = RwSignal::new(None::<AppError>);
    let (room, number) = (entry.room_id, entry.sanction.number);
    let appeal = move || {
        let text = evidence.get_untracked();
        spawn_local(async move {
            match match_command(room, Command::Appeal { sanction: number, evidence: text }).await {
                Ok(_) => done.update(|n| *n += 1),
                Err(e) => failed.set(Some(e)),
            }
        });
    };
    let until = entry.sanction.appeal_until_ms();
    let first = entry.sanction.exceptions.is_empty();
    view! {
        <li class="card" data-testid="my-sanction" data-room=room.to_string() data-number=number.to_string()>
            <p><a href=format!("/rooms/{room}")>{tr!("conduct.in_room", room = entry.room_name.clone())}</a></p>
            <SanctionItem s=entry.sanction.clone()/>
            {match entry.appeal_refusal {
                None => view! {
                    <form class="appeal-form" data-testid="appeal-form" on:submit=move |e| { e.prevent_default(); appeal(); }>
                        {first.then(|| view! { <p class="hint">{tr!("conduct.appeal_until", until = fmt_time(until))}</p> })}
                        <label>{move || tr!("conduct.evidence")}
                            <textarea data-testid="appeal-evidence" required maxlength="2000" rows="3"
                                prop:value=evidence on:input=move |e| evidence.set(event_target_value(&e))></textarea>
                        </label>
                        <button type="submit" data-testid="appeal-send">{move || tr!("conduct.appeal")}</button>
                    </form>
                }.into_any_sync(),
                Some(r) => view! { <p class="hint" data-testid="appeal-closed">{refusal_text(&r)}</p> }.into_any_sync(),
            }}
            {move || failed.get().map(error_line)}
        </li>
    }
}

fn login_row(l: LoginView, end: impl Fn(Option<String>) + Copy + 'static) -> impl IntoView {
    let device = l.agent.clone().unwrap_or_else(|| tr!("me.unknown_device"));
    let id = l.id.clone();
    view! {
        <tr data-testid="login" class:current=l.current>
            <td class="when">{fmt_time(l.created_at_ms)}</td>
            <td class="agent" title=device.clone()>{device.clone()}</td>
            <td>{l.address.clone().unwrap_or_default()}</td>
            <td>{if l.current {
                view! { <span class="tag" data-testid="this-login">{move || tr!("me.this_login")}</span> }.into_any_sync()
            } else {
                view! { <button data-testid="end-login" on:click=move |_| end(Some(id.clone()))>{move || tr!("me.end_login")}</button> }.into_any_sync()
            }}</td>
        </tr>
    }
}

#[component]
pub fn ResetPage() -> impl IntoView {
    let token = move || use_query_map().read().get("token").unwrap_or_default();
    let action = ServerAction::<ResetPassword>::new();
    view! {
        <crate::pages::TopBar no_badges=true/>
        <main class="page narrow" data-testid="reset">
            <h1>{move || tr!("reset.title")}</h1>
            <ActionForm action=action attr:class="card form" attr:id="reset-form">
                <input type="hidden" name="token" prop:value=token/>
                <label>{move || tr!("account.password_range")}
                    <input type="password" name="password" autocomplete="new-password" required minlength="10" maxlength="128"/>
                </label>
                <label>{move || tr!("account.password_again")}
                    <input type="password" name="password_again" autocomplete="new-password" required/>
                </label>
                <button type="submit" class="primary">{move || tr!("reset.set")}</button>
            </ActionForm>
            {move || action.value().get().map(|r| match r {
                Ok(name) => view! {
                    <p class="ok" role="status" data-testid="reset-done">{tr!("reset.done", name = name)}" "
                        <a href="/">{tr!("nav.home")}</a></p>
                }.into_any_sync(),
                Err(e) => error_line(e).into_any_sync(),
            })}
        </main>
    }
}
