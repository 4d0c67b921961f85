//! The Classic preset's fields (000 §2, every row): board, scoring, komi, handicap with its
//! placement previewed (000 §4), ko, time control with the defaults per board size, undo
//! allowance, draw offers, scoring deadline and disconnection grace.

use crate::sync_hydrate::IntoAnySync;
use engine::{Axis, BoxSpec, Geometry, KoRule, ScoringMethod};
use leptos::prelude::*;

use super::{
    draft::{Draft, NumberField},
    problems::FieldProblems,
    KOMI,
};
use crate::tr;
use wire::settings::{
    SettingProblem, TimeControl, UndoAllowance, CLASSIC_DISCONNECT_GRACE_S, CLASSIC_IDLE_LIMIT_S, CLASSIC_PERIOD_S,
    CLASSIC_SCORING_DEADLINE_S,
};

/// Sets the board to `n`×`n` and the time to that size's defaults of the chosen kind (000 §2:
/// main time 3 / 10 / 20 minutes for 9 / 13 / 19).
pub fn set_size(d: Draft, n: u16) {
    d.s.update(|s| {
        let a = Axis::one_to(i64::from(n));
        s.board = BoxSpec { x: a, y: a, z: Axis::one_to(1) };
        s.time = match s.time {
            TimeControl::Fischer { .. } => TimeControl::classic_default_fischer(n),
            TimeControl::None { .. } => TimeControl::classic_default_none(),
            _ => TimeControl::classic_default_byoyomi(n),
        };
        // 000 §2: 9×9 takes at most five handicap stones.
        if n == 9 && s.handicap > 5 {
            s.handicap = 5;
        }
    });
    d.classic_changed();
}

#[component]
pub fn ClassicFields(draft: Draft, problems: Memo<Vec<SettingProblem>>) -> impl IntoView {
    let d = draft;
    let s = d.s;
    let size_memo = Memo::new(move |_| s.with(|s| s.classic_size().unwrap_or(19)));
    let size = move || size_memo.get();
    let handicaps = move || {
        let max = if size() == 9 { 5 } else { 9 };
        std::iter::once(0).chain(2..=max).collect::<Vec<u32>>()
    };
    let time_kind = move || match s.with(|s| s.time) {
        TimeControl::None { .. } => "none",
        TimeControl::Fischer { .. } => "fischer",
        _ => "byoyomi",
    };
    view! {
        <fieldset class="preset-fields" data-testid="classic-fields">
            <legend>{move || tr!("new.classic_rules")}</legend>
            <label>{move || tr!("new.scoring")}
                <select data-testid="scoring" prop:value=move || if s.with(|s| s.scoring) == ScoringMethod::Area { "area" } else { "territory" }
                    on:change=move |e| {
                        let m = if event_target_value(&e) == "area" { ScoringMethod::Area } else { ScoringMethod::Territory };
                        s.update(|s| s.scoring = m);
                        d.classic_changed();
                    }>
                    <option value="territory">{move || tr!("summary.scoring_territory")}</option>
                    <option value="area">{move || tr!("summary.scoring_area")}</option>
                </select>
                <FieldProblems problems=problems path="scoring"/>
            </label>
            <label>{move || tr!("new.handicap")}
                <select data-testid="handicap" prop:value={move || s.with(|s| s.handicap).to_string()}
                    on:change=move |e| {
                        let h = event_target_value(&e).parse().unwrap_or(0);
                        s.update(|s| s.handicap = h);
                        d.classic_changed();
                    }>
                    {move || handicaps().into_iter().map(|h| view! {
                        <option value=h.to_string() selected=move || s.with(|s| s.handicap) == h>
                            {if h == 0 { tr!("new.handicap_none") } else { h.to_string() }}
                        </option>
                    }).collect_view()}
                </select>
                <FieldProblems problems=problems path="handicap"/>
            </label>
            <Show when=move || { s.with(|s| s.handicap) >= 2 }>
                <HandicapPreview size=Signal::derive(size) stones=Signal::derive(move || s.with(|s| s.handicap))/>
            </Show>
            <label>{move || tr!("new.komi_classic")}
                <input data-testid=KOMI inputmode="decimal" prop:value=d.komi_text
                    on:input=move |e| d.set_komi_text(event_target_value(&e))/>
                <span class="hint">{move || tr!("new.komi_classic_hint")}</span>
                <super::problems::Unreadable bad=d.is_unreadable(KOMI) testid=KOMI/>
                <FieldProblems problems=problems path="komi"/>
            </label>
            <label>{move || tr!("new.ko")}
                <select data-testid="ko" prop:value=move || if s.with(|s| s.ko) == KoRule::Korean { "korean" } else { "positional_superko" }
                    on:change=move |e| s.update(|s| s.ko = if event_target_value(&e) == "korean" { KoRule::Korean } else { KoRule::PositionalSuperko })>
                    <option value="positional_superko">{move || tr!("summary.ko_superko")}</option>
                    <option value="korean">{move || tr!("summary.ko_korean")}</option>
                </select>
                <FieldProblems problems=problems path="ko"/>
            </label>
            <label>{move || tr!("new.time_kind")}
                <select data-testid="time-kind" prop:value=time_kind
                    on:change=move |e| {
                        let n = size();
                        let t = match event_target_value(&e).as_str() {
                            "none" => TimeControl::classic_default_none(),
                            "fischer" => TimeControl::classic_default_fischer(n),
                            _ => TimeControl::classic_default_byoyomi(n),
                        };
                        s.update(|s| s.time = t);
                    }>
                    <option value="byoyomi">{move || tr!("new.time_byoyomi")}</option>
                    <option value="fischer">{move || tr!("new.time_fischer")}</option>
                    <option value="none">{move || tr!("new.time_none")}</option>
                </select>
            </label>
            <TimeFields draft=d problems=problems/>
            <label>{move || tr!("new.undo")}
                <select data-testid="undo" prop:value=move || undo_value(s.with(|s| s.undo))
                    on:change=move |e| {
                        let u = match event_target_value(&e).as_str() {
                            "off" => UndoAllowance::Off,
                            "1" => UndoAllowance::Limited(1),
                            "unlimited" => UndoAllowance::Unlimited,
                            _ => UndoAllowance::Limited(3),
                        };
                        s.update(|s| s.undo = u);
                    }>
                    <option value="off">{move || tr!("summary.undo_off")}</option>
                    <option value="1">{move || tr!("summary.undo_limited", n = 1)}</option>
                    <option value="3">{move || tr!("summary.undo_limited", n = 3)}</option>
                    <option value="unlimited">{move || tr!("summary.undo_unlimited")}</option>
                </select>
                <FieldProblems problems=problems path="undo"/>
            </label>
            <label class="check">
                <input type="checkbox" data-testid="draw-offer" prop:checked=move || s.with(|s| s.draw_offer)
                    on:change=move |e| s.update(|s| s.draw_offer = event_target_checked(&e))/>
                {move || tr!("new.draw_offer")}
            </label>
            <label>{move || tr!("new.scoring_deadline")}
                <select data-testid="scoring-deadline" prop:value=move || s.with(|s| s.scoring_deadline_s).to_string()
                    on:change=move |e| if let Ok(v) = event_target_value(&e).parse() { s.update(|s| s.scoring_deadline_s = v) }>
                    {CLASSIC_SCORING_DEADLINE_S.into_iter().map(|v| view! {
                        <option value=v.to_string() selected=move || s.with(|s| s.scoring_deadline_s) == v>{move || crate::text::duration(crate::i18n::use_lang().get(), v)}</option>
                    }).collect_view()}
                </select>
                <FieldProblems problems=problems path="scoring_deadline_s"/>
            </label>
            <label>{move || tr!("new.disconnect_grace")}
                <select data-testid="disconnect-grace" prop:value=move || s.with(|s| s.disconnect_grace_s).to_string()
                    on:change=move |e| if let Ok(v) = event_target_value(&e).parse() { s.update(|s| s.disconnect_grace_s = v) }>
                    {CLASSIC_DISCONNECT_GRACE_S.into_iter().map(|v| view! {
                        <option value=v.to_string() selected=move || s.with(|s| s.disconnect_grace_s) == v>{move || crate::text::duration(crate::i18n::use_lang().get(), v)}</option>
                    }).collect_view()}
                </select>
                <FieldProblems problems=problems path="disconnect_grace_s"/>
            </label>
        </fieldset>
    }
}

fn undo_value(u: UndoAllowance) -> String {
    match u {
        UndoAllowance::Off => "off".into(),
        UndoAllowance::Limited(n) => n.to_string(),
        UndoAllowance::Unlimited => "unlimited".into(),
    }
}

/// The fields of the chosen time control (000 §2): main time in minutes, byo-yomi period and
/// count, Fischer increment, or the idle limit without a clock.
#[component]
fn TimeFields(draft: Draft, problems: Memo<Vec<SettingProblem>>) -> impl IntoView {
    let d = draft;
    let s = d.s;
    let time = move || s.with(|s| s.time);
    let main_min = Signal::derive(move || match time() {
        TimeControl::Byoyomi { main_s, .. } | TimeControl::Fischer { main_s, .. } => i64::from(main_s / 60),
        _ => 0,
    });
    let set_main = Callback::new(move |m: i64| {
        let v = u32::try_from(m.saturating_mul(60)).unwrap_or(u32::MAX);
        s.update(|s| match &mut s.time {
            TimeControl::Byoyomi { main_s, .. } | TimeControl::Fischer { main_s, .. } => *main_s = v,
            _ => {}
        })
    });
    let periods = Signal::derive(move || match time() {
        TimeControl::Byoyomi { periods, .. } => i64::from(periods),
        _ => 0,
    });
    let set_periods = Callback::new(move |n: i64| {
        s.update(|s| {
            if let TimeControl::Byoyomi { periods, .. } = &mut s.time {
                *periods = u32::try_from(n).unwrap_or(u32::MAX);
            }
        })
    });
    let increment = Signal::derive(move || match time() {
        TimeControl::Fischer { increment_s, .. } => i64::from(increment_s),
        _ => 0,
    });
    let set_increment = Callback::new(move |n: i64| {
        s.update(|s| {
            if let TimeControl::Fischer { increment_s, .. } = &mut s.time {
                *increment_s = u32::try_from(n).unwrap_or(u32::MAX);
            }
        })
    });
    let lang = crate::i18n::use_lang();
    // Re-rendered when the kind changes only: a field being typed in keeps its focus.
    let kind = Memo::new(move |_| std::mem::discriminant(&s.with(|s| s.time)));
    let period = move || match time() {
        TimeControl::Byoyomi { period_s, .. } => period_s,
        _ => 0,
    };
    let idle = move || match time() {
        TimeControl::None { idle_limit_s } => idle_limit_s,
        _ => 0,
    };
    move || {
        // Read, not only tracked: a memo is recomputed (and compared) when it is read.
        let _ = kind.get();
        match s.with_untracked(|s| s.time) {
            TimeControl::Byoyomi { .. } => view! {
                <label>{move || tr!("new.main_minutes")}
                    <NumberField draft=d testid="main-minutes" value=main_min set=set_main min=0 max=60/>
                    <FieldProblems problems=problems path="time.main_s"/>
                </label>
                <label>{move || tr!("new.period_length")}
                    <select data-testid="period-length" prop:value={move || period().to_string()}
                        on:change=move |e| if let Ok(v) = event_target_value(&e).parse() {
                            s.update(|s| if let TimeControl::Byoyomi { period_s, .. } = &mut s.time { *period_s = v })
                        }>
                        {CLASSIC_PERIOD_S.into_iter().map(|v| view! {
                            <option value=v.to_string() selected={move || v == period()}>{move || crate::text::duration(lang.get(), v)}</option>
                        }).collect_view()}
                    </select>
                    <FieldProblems problems=problems path="time.period_s"/>
                </label>
                <label>{move || tr!("new.periods")}
                    <NumberField draft=d testid="periods" value=periods set=set_periods min=1 max=5/>
                    <FieldProblems problems=problems path="time.periods"/>
                </label>
            }.into_any_sync(),
            TimeControl::Fischer { .. } => view! {
                <label>{move || tr!("new.main_minutes")}
                    <NumberField draft=d testid="main-minutes" value=main_min set=set_main min=1 max=60/>
                    <FieldProblems problems=problems path="time.main_s"/>
                </label>
                <label>{move || tr!("new.increment")}
                    <NumberField draft=d testid="increment" value=increment set=set_increment min=0 max=30/>
                    <FieldProblems problems=problems path="time.increment_s"/>
                </label>
            }.into_any_sync(),
            TimeControl::None { .. } => view! {
                <label>{move || tr!("new.idle_limit")}
                    <select data-testid="idle-limit" prop:value={move || idle().to_string()}
                        on:change=move |e| if let Ok(v) = event_target_value(&e).parse() {
                            s.update(|s| s.time = TimeControl::None { idle_limit_s: v })
                        }>
                        {CLASSIC_IDLE_LIMIT_S.into_iter().map(|v| view! {
                            <option value=v.to_string() selected={move || v == idle()}>{move || crate::text::duration(lang.get(), v)}</option>
                        }).collect_view()}
                    </select>
                </label>
            }.into_any_sync(),
            TimeControl::SpaceHours { .. } => ().into_any_sync(),
        }
    }
}

/// The handicap stones where 000 §4 places them, on a small board of the chosen size, each
/// named by its vertex (Q16, D4…), so the player sees the placement before agreeing.
#[component]
fn HandicapPreview(size: Signal<u16>, stones: Signal<u32>) -> impl IntoView {
    const CELL: f64 = 10.0;
    let drawn = move || {
        let n = size.get();
        let geom = Geometry::flat(i64::from(n), i64::from(n)).ok()?;
        let at = |p| geom.coords_of(p).map(|c| (c.x as f64 * CELL, c.y as f64 * CELL));
        let stars: Vec<(f64, f64)> = engine::star_points(&geom).into_iter().filter_map(at).collect();
        let count = u8::try_from(stones.get()).ok()?;
        let placed: Vec<(f64, f64, String)> = engine::handicap_points(&geom, count)
            .ok()?
            .into_iter()
            .filter_map(|p| {
                let (x, y) = at(p)?;
                Some((x, y, engine::classic_vertex(&geom, p)?))
            })
            .collect();
        Some((n, stars, placed))
    };
    move || {
        drawn().map(|(n, stars, placed)| {
            let end = f64::from(n) * CELL;
            let names = placed.iter().map(|(_, _, v)| v.clone()).collect::<Vec<_>>().join(", ");
            let lines = (1..=n).map(|i| {
                let v = f64::from(i) * CELL;
                view! {
                    <line x1=CELL y1=v x2=end y2=v class="grid"/>
                    <line x1=v y1=CELL x2=v y2=end class="grid"/>
                }
            }).collect_view();
            view! {
                <figure class="handicap-preview" data-testid="handicap-preview">
                    <svg viewBox=format!("0 0 {} {}", end + CELL, end + CELL) role="img"
                        aria-label=move || tr!("new.handicap_placement", stones = names.clone())>
                        <rect x="0" y="0" width=end + CELL height=end + CELL class="wood"/>
                        {lines}
                        {stars.into_iter().map(|(x, y)| view! { <circle cx=x cy=y r="1.4" class="star"/> }).collect_view()}
                        {placed.iter().cloned().map(|(x, y, v)| view! {
                            <circle cx=x cy=y r=CELL * 0.45 class="stone black" data-testid="handicap-stone" data-vertex=v/>
                        }).collect_view()}
                    </svg>
                    <figcaption class="hint">{placed.iter().map(|(_, _, v)| v.clone()).collect::<Vec<_>>().join(" · ")}</figcaption>
                </figure>
            }
        })
    }
}
