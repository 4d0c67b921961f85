//! `/admin/learning` (003 §12.3–12.6): the models kept so far with their export links, the
//! import of a model file, and training runs with their held-out metrics drawn as they come.
//! Administrators only (the server refuses everyone else the import and the runs).

use crate::sync_hydrate::IntoAnySync;
use leptos::{prelude::*, task::spawn_local};

use super::error_text;

use crate::{
    api::learning::{import_model, list_models, start_training, training_run},
    learning::{EpochPoint, ModelSummary, RunState, TrainingRequest, TrainingStatus, EPOCHS},
    tr, AppError,
};

#[component]
pub fn LearningPage() -> impl IntoView {
    // What the page loads is only whether the reader is an administrator: the parts load
    // their own data. (A `bool`, not `()`: `Some(())` is `null` in JSON and would read back
    // in the browser as `None`, the refusal — a page that never hydrates.)
    let data = crate::pages::resource(|| (), |_| super::for_admin(|| async { Ok::<_, AppError>(true) }));
    view! {
        <super::AdminFrame testid="learning" title="learning.title">
            <p class="hint">{move || tr!("learning.metrics_caveat")}</p>
            <super::Loaded data body=|_: bool| view! { <Models/><Train/><super::programs::ProgramMatches/> }/>
            <p><a href="/admin">{move || tr!("admin.title")}</a></p>
        </super::AdminFrame>
    }
}

/// The models (003 §12.5) with their files, and the import (003 §12.6).
#[component]
fn Models() -> impl IntoView {
    let models = crate::pages::resource(|| (), |_| list_models());
    let file = RwSignal::new(String::new());
    let answer = RwSignal::new(None::<Result<ModelSummary, AppError>>);
    let import = move || {
        let json = file.get_untracked();
        spawn_local(async move {
            let r = import_model(json).await;
            if r.is_ok() {
                models.refetch();
            }
            answer.set(Some(r));
        });
    };
    view! {
        <section class="card" data-testid="models">
            <h2>{move || tr!("learning.models")}</h2>
            <p class="hint">{move || tr!("learning.fingerprint_note")}</p>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match models.await {
                        Ok(list) => view! {
                            <div class="table-wrap"><table class="models">
                                <thead><tr>
                                    <th>{tr!("learning.version")}</th><th>{tr!("learning.source")}</th>
                                    <th>{tr!("learning.fingerprint")}</th><th>{tr!("learning.games")}</th>
                                    <th>{tr!("learning.accuracy")}</th><th>{tr!("learning.files")}</th>
                                </tr></thead>
                                <tbody>
                                    {list.into_iter().map(|m| view! {
                                        <tr data-testid="model-row">
                                            <td>{format!("{} (#{})", m.version, m.id)}</td>
                                            <td>{crate::i18n::text(crate::i18n::use_lang().get(), &format!("learning.source.{}", <&str>::from(m.source)))}</td>
                                            <td><code title=m.fingerprint.clone()>{m.fingerprint.chars().take(19).collect::<String>()}"…"</code></td>
                                            <td>{m.source_games}</td>
                                            <td>{m.holdout_accuracy.map(|a| format!("{:.1} %", a * 100.0)).unwrap_or_else(|| "—".into())}</td>
                                            <td>
                                                <a href=format!("/api/v1/models/{}", m.id) download>"JSON"</a>" · "
                                                <a href=format!("/api/v1/models/{}/participant.js", m.id) download>{tr!("learning.participant")}</a>
                                            </td>
                                        </tr>
                                    }).collect_view()}
                                </tbody>
                            </table></div>
                        }.into_any_sync(),
                        Err(e) => view! { <p class="error" role="alert">{error_text(&e)}</p> }.into_any_sync(),
                    }
                })}
            </Suspense>
            <form class="form" on:submit=move |e| { e.prevent_default(); import(); }>
                <label>{move || tr!("learning.import")}
                    <textarea data-testid="model-file" rows="4" prop:value=file on:input=move |e| file.set(event_target_value(&e))></textarea>
                </label>
                <button type="submit" data-testid="import-model">{move || tr!("learning.import_button")}</button>
            </form>
            {move || answer.get().map(|r| match r {
                Ok(m) => view! { <p role="status">{tr!("learning.imported", version = m.version)}</p> }.into_any_sync(),
                Err(e) => view! { <p class="error" role="alert">{error_text(&e)}</p> }.into_any_sync(),
            })}
        </section>
    }
}

/// Start a run and follow it (003 §12.3–12.4).
#[component]
fn Train() -> impl IntoView {
    let epochs = RwSignal::new(20u32);
    let seed = RwSignal::new(1u64);
    let confirm = RwSignal::new(false);
    let reasons = RwSignal::new(String::new());
    let status = RwSignal::new(None::<TrainingStatus>);
    let error = RwSignal::new(None::<AppError>);
    let poll = move || {
        spawn_local(async move {
            match training_run().await {
                Ok(s) => status.set(Some(s)),
                Err(e) => error.set(Some(e)),
            }
        })
    };
    // While a run is under way the page asks twice a second.
    #[cfg(feature = "hydrate")]
    {
        poll();
        let handle = set_interval_with_handle(
            move || {
                let running = status
                    .get_untracked()
                    .is_some_and(|s| matches!(s.state, RunState::Collecting | RunState::Training));
                if running {
                    poll();
                }
            },
            std::time::Duration::from_millis(500),
        );
        if let Ok(h) = handle {
            on_cleanup(move || h.clear());
        }
    }
    let start = move || {
        let request = TrainingRequest {
            epochs: epochs.get_untracked(),
            seed: seed.get_untracked(),
            start_model: None,
            confirm_pause: confirm.get_untracked(),
            reasons: reasons.get_untracked(),
        };
        error.set(None);
        spawn_local(async move {
            match start_training(request).await {
                Ok(s) => status.set(Some(s)),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let _ = poll;
    view! {
        <section class="card" data-testid="training">
            <h2>{move || tr!("learning.train")}</h2>
            <form class="form" on:submit=move |e| { e.prevent_default(); start(); }>
                <label>{move || tr!("learning.epochs", min = *EPOCHS.start(), max = *EPOCHS.end())}
                    <input type="number" data-testid="epochs" min=*EPOCHS.start() max=*EPOCHS.end() prop:value=move || epochs.get().to_string()
                        on:input=move |e| if let Ok(n) = event_target_value(&e).parse() { epochs.set(n) }/>
                </label>
                <label>{move || tr!("learning.seed")}
                    <input type="number" data-testid="seed" min="0" prop:value=move || seed.get().to_string()
                        on:input=move |e| if let Ok(n) = event_target_value(&e).parse() { seed.set(n) }/>
                </label>
                <label class="check">
                    <input type="checkbox" data-testid="confirm-pause" prop:checked=confirm on:change=move |e| confirm.set(event_target_checked(&e))/>
                    {move || tr!("learning.confirm_pause")}
                </label>
                <label>{move || tr!("learning.reasons")}
                    <input data-testid="pause-reasons" maxlength="2000" prop:value=reasons on:input=move |e| reasons.set(event_target_value(&e))/>
                </label>
                <button type="submit" class="primary" data-testid="start-training">{move || tr!("learning.start")}</button>
            </form>
            {move || error.get().map(|e| view! { <p class="error" role="alert">{error_text(&e)}</p> })}
            {move || status.get().filter(|s| s.state != RunState::Idle).map(|s| view! { <Progress status=s/> })}
        </section>
    }
}

#[component]
fn Progress(status: TrainingStatus) -> impl IntoView {
    let done = status.epochs.iter().map(|e| e.epoch).max().unwrap_or(0);
    let state =
        crate::i18n::text(crate::i18n::use_lang().get(), &format!("learning.state.{}", run_state(status.state)));
    let excluded = status.excluded.len();
    view! {
        <p role="status" data-testid="training-state">
            {state}" · "{tr!("learning.progress", done = done, total = status.epochs_planned)}
            " · "{tr!("learning.eligible", n = status.eligible.len(), excluded = excluded)}
        </p>
        {status.pairs.map(|p| view! {
            <p class="hint">{tr!("learning.pairs", train = p[1], train_all = p[0], held = p[3], held_all = p[2])}</p>
        })}
        <Chart points=status.epochs.clone() planned=status.epochs_planned/>
        {status.model.map(|m| view! {
            <p data-testid="trained-model">{tr!("learning.made", version = m.version, fingerprint = m.fingerprint)}</p>
        })}
        {status.refusal.map(|r| view! {
            <p class="error" role="alert">{crate::text::learning::refusal(crate::i18n::use_lang().get(), &r)}</p>
        })}
    }
}

fn run_state(s: RunState) -> &'static str {
    match s {
        RunState::Idle => "idle",
        RunState::Collecting => "collecting",
        RunState::Training => "training",
        RunState::Finished => "finished",
        RunState::Failed => "failed",
    }
}

/// Held-out accuracy and top-1 share (0–100 %) and log loss (scaled to its largest value)
/// per epoch, as an SVG line chart.
#[component]
fn Chart(points: Vec<EpochPoint>, planned: u32) -> impl IntoView {
    const W: f64 = 480.0;
    const H: f64 = 200.0;
    const PAD: f64 = 30.0;
    let max_epoch = f64::from(planned.max(1));
    let max_loss = points.iter().map(|p| p.log_loss).fold(0.0_f64, f64::max).max(1e-9);
    let x = move |e: u32| PAD + f64::from(e) / max_epoch * (W - 2.0 * PAD);
    let y = move |v: f64| H - PAD - v.clamp(0.0, 1.0) * (H - 2.0 * PAD);
    let line = |f: &dyn Fn(&EpochPoint) -> f64| {
        points.iter().map(|p| format!("{:.1},{:.1}", x(p.epoch), y(f(p)))).collect::<Vec<_>>().join(" ")
    };
    let accuracy = line(&|p| p.accuracy);
    let top1 = line(&|p| p.top1);
    let loss = line(&|p| p.log_loss / max_loss);
    let ticks: Vec<u32> = (0..=planned).step_by(((planned / 5).max(1)) as usize).collect();
    view! {
        <figure class="chart" data-testid="training-chart">
            <svg viewBox=format!("0 0 {W} {H}") role="img" aria-label=tr!("learning.chart")>
                <line x1=PAD y1=H - PAD x2=W - PAD y2=H - PAD class="axis"/>
                <line x1=PAD y1=PAD x2=PAD y2=H - PAD class="axis"/>
                <text x="2" y=PAD + 4.0 class="tick">"100%"</text>
                <text x="2" y=H - PAD class="tick">"0"</text>
                {ticks.into_iter().map(|e| view! { <text x=x(e) y=H - 10.0 class="tick" text-anchor="middle">{e}</text> }).collect_view()}
                <polyline points=accuracy class="series accuracy" data-testid="series-accuracy"/>
                <polyline points=top1 class="series top1"/>
                <polyline points=loss class="series loss"/>
            </svg>
            <figcaption>
                <span class="key accuracy">{tr!("learning.series_accuracy")}</span>" "
                <span class="key top1">{tr!("learning.series_top1")}</span>" "
                <span class="key loss">{tr!("learning.series_loss", max = format!("{max_loss:.3}"))}</span>
            </figcaption>
        </figure>
    }
}
