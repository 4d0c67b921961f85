//! The referee's desk beside a room's board (003 §3.2–3.6, §4.7, §5.7, §6.2, §8.4): the
//! room's items, every chain with its coordinates, surface and interior stones, liberties
//! and life-space candidates, both players' opinions, the statement, the server's
//! timeline, and the administrator's actions — each with its reasons.

use crate::sync_hydrate::IntoAnySync;
use leptos::{prelude::*, task::spawn_local};

use crate::{
    api::referee::admin_desk,
    pages::{
        header::fmt_time,
        room::{
            label,
            reasons::{send_reasoned, Reasons},
            Notice, RoomCtx,
        },
        words::{colour_text, tr_dyn},
    },
    tr,
};

use wire::{
    commands::Command,
    events::{Colour, Xyz},
    referee::{ChainDetail, ChainRuling, ChainVerdict, CorrectionProposal, RegionRuling, RegionVerdict},
    view::DeskView,
};

fn xyz_id(p: Xyz) -> String {
    format!("{}-{}-{}", p.x, p.y, p.z)
}

fn clock(ms: i64) -> String {
    let s = (ms.max(0) + 999) / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// What the ruling form holds: a verdict per chain ("" = not ruled), the cited spaces (by
/// chain and one point of the space) and the regions.
#[derive(Clone, Copy)]
struct RulingDraft {
    verdicts: RwSignal<Vec<(Xyz, String)>>,
    cites: RwSignal<Vec<(Xyz, Xyz)>>,
    regions: RwSignal<Vec<RegionRuling>>,
}

impl RulingDraft {
    fn verdict(self, chain: Xyz) -> String {
        self.verdicts.with(|v| v.iter().find(|(c, _)| *c == chain).map(|(_, s)| s.clone()).unwrap_or_default())
    }
    fn set_verdict(self, chain: Xyz, s: String) {
        self.verdicts.update(|v| {
            v.retain(|(c, _)| *c != chain);
            if !s.is_empty() {
                v.push((chain, s));
            }
        });
    }
    fn toggle_cite(self, chain: Xyz, space: Xyz, on: bool) {
        self.cites.update(|v| {
            v.retain(|(c, p)| !(*c == chain && *p == space));
            if on {
                v.push((chain, space));
            }
        });
    }
    fn chains(self) -> Vec<ChainRuling> {
        let cites = self.cites.get_untracked();
        self.verdicts
            .get_untracked()
            .into_iter()
            .filter_map(|(at, s)| {
                let verdict = match s.as_str() {
                    "alive" => ChainVerdict::Alive {
                        spaces: cites.iter().filter(|(c, _)| *c == at).map(|(_, p)| *p).collect(),
                    },
                    "seki" => ChainVerdict::Seki,
                    "dead" => ChainVerdict::Dead,
                    "unresolved" => ChainVerdict::Unresolved,
                    _ => return None,
                };
                Some(ChainRuling { at, verdict })
            })
            .collect()
    }
}

#[component]
pub fn DeskPanel() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let admin = move || ctx.me.with(|m| m.as_ref().is_some_and(|m| m.role.is_admin()));
    let desk = RwSignal::new(None::<Result<DeskView, String>>);
    let lang = crate::i18n::use_lang();
    // Fetched in the browser, again after every change of the room.
    Effect::new(move |_| {
        let _version = ctx.view.with(|v| v.version);
        if !admin() {
            return;
        }
        let id = ctx.id;
        spawn_local(async move {
            let r = admin_desk(id).await.map_err(|e| crate::text::app_error(lang.get_untracked(), &e));
            desk.try_set(Some(r));
        });
    });
    let draft = RulingDraft {
        verdicts: RwSignal::new(Vec::new()),
        cites: RwSignal::new(Vec::new()),
        regions: RwSignal::new(Vec::new()),
    };
    view! {
        <section class="desk" data-testid="referee-desk" aria-label=move || tr!("desk.title")>
            <h2>{move || tr!("desk.title")}</h2>
            <Show when=admin fallback=|| super::refusal()>
                {move || ctx.notice.get().map(|n| match n {
                    Notice::Info(t) => view! { <p class="notice" data-testid="desk-notice" role="status">{t}</p> }.into_any_sync(),
                    Notice::Error(t) => view! { <p class="notice error" data-testid="desk-notice" role="alert">{t}</p> }.into_any_sync(),
                })}
                {move || match desk.get() {
                    None => view! { <p>"…"</p> }.into_any_sync(),
                    Some(Err(e)) => view! { <p class="error" role="alert" data-testid="desk-error">{e}</p> }.into_any_sync(),
                    Some(Ok(d)) => view! {
                        <Items desk=d.clone()/>
                        <Chains chains=d.chains.clone() draft=draft/>
                        <Timeline desk=d/>
                    }.into_any_sync(),
                }}
                <Opinions/>
                <StatementInfo/>
                <RulingForm draft=draft/>
                <Actions draft=draft/>
                <super::conduct::DeskConduct/>
            </Show>
        </section>
    }
}

#[component]
fn Items(desk: DeskView) -> impl IntoView {
    view! {
        <ul class="desk-items" data-testid="desk-items">
            {desk.items.into_iter().map(|e| {
                let kind = e.kind.as_str();
                view! {
                    <li data-kind=kind>{move || tr_dyn(&format!("queue.{kind}"))}" · "{fmt_time(e.since_ms)}
                        {e.claimed_by.clone().map(|by| view! { " · "{move || tr!("admin.claimed_by")}": "{by.clone()}})}
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}

/// Every chain: colour, coordinates, counts, liberties, life-space candidates (each one a
/// checkbox to cite it), the mark in force and the verdict to rule.
#[component]
fn Chains(chains: Vec<ChainDetail>, draft: RulingDraft) -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    view! {
        <table class="desk-chains" data-testid="desk-chains">
            <thead><tr>
                <th>{move || tr!("desk.chain")}</th><th>{move || tr!("desk.stones")}</th>
                <th>{move || tr!("desk.liberties")}</th><th>{move || tr!("desk.life_spaces")}</th>
                <th>{move || tr!("desk.mark")}</th><th>{move || tr!("desk.verdict")}</th>
            </tr></thead>
            <tbody>
                {chains.into_iter().map(|c| {
                    let at = c.at;
                    let id = xyz_id(at);
                    let coords = ctx.view.with_untracked(|v| c.stones.iter().map(|p| label(v, *p)).collect::<Vec<_>>().join(" "));
                    let head = ctx.view.with_untracked(|v| label(v, at));
                    let mark = c.mark.map(|m| match m {
                        wire::events::MarkKind::Dead => "scoring.dead",
                        wire::events::MarkKind::Unresolved => "scoring.unresolved",
                        wire::events::MarkKind::Seki => "scoring.seki",
                        wire::events::MarkKind::Neutral => "verdict.neutral",
                    });
                    let colour = c.colour;
                    let spaces = c.life_spaces.clone();
                    view! {
                        <tr data-testid=format!("chain-{id}")>
                            <td><span class=if colour == Colour::Black { "dot black" } else { "dot white" } aria-hidden="true"></span>
                                {move || colour_text(colour)}" "<strong>{head.clone()}</strong>
                                <div class="coords">{coords.clone()}</div></td>
                            <td>{move || tr!("desk.stone_counts", n = c.count, surface = c.surface_stones, interior = c.interior_stones)}</td>
                            <td>{c.liberties}</td>
                            <td>
                                {spaces.into_iter().map(|s| {
                                    let first = s.points.first().copied();
                                    let pts = ctx.view.with_untracked(|v| s.points.iter().map(|p| label(v, *p)).collect::<Vec<_>>().join(" "));
                                    first.map(|p| view! {
                                        <label class="space">
                                            <input type="checkbox" data-testid="cite-space" data-chain=xyz_id(at) data-space=xyz_id(p)
                                                prop:checked=move || draft.cites.with(|v| v.contains(&(at, p)))
                                                on:change=move |e| draft.toggle_cite(at, p, event_target_checked(&e))/>
                                            {move || tr!("desk.space", n = s.count)}" "<span class="coords">{pts.clone()}</span>
                                        </label>
                                    })
                                }).collect_view()}
                            </td>
                            <td>{move || mark.map(tr_dyn).unwrap_or_else(|| "—".into())}</td>
                            <td>
                                <select data-testid=format!("verdict-{id}") aria-label=move || tr!("desk.verdict")
                                    prop:value=move || draft.verdict(at)
                                    on:change=move |e| draft.set_verdict(at, event_target_value(&e))>
                                    <option value="">{move || tr!("desk.not_ruled")}</option>
                                    <option value="alive">{move || tr!("verdict.alive")}</option>
                                    <option value="seki">{move || tr!("verdict.seki")}</option>
                                    <option value="dead">{move || tr!("verdict.dead")}</option>
                                    <option value="unresolved">{move || tr!("verdict.unresolved")}</option>
                                </select>
                            </td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
}

/// Both players' opinions with their reasons (003 §3.6).
#[component]
fn Opinions() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    view! {
        <h3>{move || tr!("desk.opinions")}</h3>
        <ul class="opinions" data-testid="desk-opinions">
            {move || ctx.view.with(|v| v.referee.opinions.iter().map(|o| {
                let opinion: &'static str = o.opinion.into();
                view! {
                    <li>{colour_text(o.colour)}" · "{label(v, o.chain)}" · "{tr_dyn(&format!("verdict.{opinion}"))}
                        " — "<q>{o.reasons.clone()}</q></li>
                }
            }).collect_view())}
        </ul>
    }
}

#[component]
fn StatementInfo() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    view! {
        <p data-testid="desk-statement">
            {move || ctx.view.with(|v| {
                let mut parts = Vec::new();
                if let Some(s) = &v.scoring {
                    parts.push(tr!("scoring.statement", n = s.statement));
                    parts.push(crate::text::result(crate::i18n::use_lang().get(), &s.score.result));
                }
                if let Some(w) = &v.referee.awaiting_review {
                    parts.push(tr!("desk.awaiting_review", n = w.statement));
                }
                if let Some(r) = &v.result {
                    parts.push(crate::text::result(crate::i18n::use_lang().get(), &r.result));
                }
                if parts.is_empty() { "—".to_string() } else { parts.join(" · ") }
            })}
        </p>
    }
}

#[component]
fn Timeline(desk: DeskView) -> impl IntoView {
    view! {
        <details class="timeline" open>
            <summary>{move || tr!("desk.timeline")}</summary>
            // A <details> does not scroll its own content: the table scrolls in this box.
            <div class="scroll">
            <table data-testid="desk-timeline">
                <thead><tr>
                    <th>"#"</th><th>{move || tr!("desk.time")}</th><th>{move || tr!("desk.event")}</th>
                    <th>{move || tr!("desk.move")}</th><th>{move || colour_text(Colour::Black)}</th><th>{move || colour_text(Colour::White)}</th>
                </tr></thead>
                <tbody>
                    {desk.timeline.into_iter().map(|t| view! {
                        <tr class:hold=t.kind.contains("held") || t.kind.contains("hold")>
                            <td>{t.seq}</td><td>{crate::pages::header::fmt_time_ms(t.at_ms)}</td><td><code>{t.kind.clone()}</code></td>
                            <td>{t.move_number}</td><td>{clock(t.clocks_ms.black)}</td><td>{clock(t.clocks_ms.white)}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            </div>
        </details>
    }
}

#[component]
fn RulingForm(draft: RulingDraft) -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let reasons = RwSignal::new(String::new());
    let region_at = RwSignal::new(String::new());
    let region_kind = RwSignal::new("neutral".to_string());
    let add_region = move || {
        let text = region_at.get_untracked();
        let at =
            text.parse::<Xyz>()
                .ok()
                .or_else(|| if text.trim().is_empty() { ctx.selection.get_untracked() } else { None });
        let Some(at) = at else {
            ctx.notice.set(Some(Notice::Error(tr!("desk.bad_point"))));
            return;
        };
        let verdict = if region_kind.get_untracked() == "seki" { RegionVerdict::Seki } else { RegionVerdict::Neutral };
        draft.regions.update(|r| {
            r.retain(|x| x.at != at);
            r.push(RegionRuling { at, verdict });
        });
        region_at.set(String::new());
    };
    view! {
        <form class="ruling-form" data-testid="ruling-form" on:submit=move |e| {
            e.prevent_default();
            send_reasoned(ctx, reasons, |reasons| Some(Command::AdminRuling {
                chains: draft.chains(),
                regions: draft.regions.get_untracked(),
                reasons,
            }));
        }>
            <h3>{move || tr!("desk.ruling")}</h3>
            <p class="hint">{move || tr!("desk.ruling_hint")}</p>
            <div class="regions">
                <label>{move || tr!("desk.region_point")}
                    <input data-testid="region-at" size="8" placeholder="x,y,z" prop:value=region_at
                        on:input=move |e| region_at.set(event_target_value(&e))/></label>
                <select data-testid="region-verdict" aria-label=move || tr!("desk.region_verdict") prop:value=region_kind
                    on:change=move |e| region_kind.set(event_target_value(&e))>
                    <option value="neutral">{move || tr!("verdict.neutral")}</option>
                    <option value="seki">{move || tr!("scoring.seki")}</option>
                </select>
                <button type="button" data-testid="add-region" on:click=move |_| add_region()>{move || tr!("desk.add_region")}</button>
                <ul data-testid="regions">
                    {move || draft.regions.get().into_iter().map(|r| {
                        let at = r.at;
                        let kind = if r.verdict == RegionVerdict::Seki { "scoring.seki" } else { "verdict.neutral" };
                        view! { <li>{ctx.view.with(|v| label(v, at))}" — "{tr_dyn(kind)}" "
                            <button type="button" data-testid="remove-region" on:click=move |_| draft.regions.update(|x| x.retain(|q| q.at != at))>
                                {tr!("desk.remove")}</button></li> }
                    }).collect_view()}
                </ul>
            </div>
            <Reasons value=reasons/>
            <button type="submit" class="primary" data-testid="send-ruling" disabled=move || ctx.busy.get()>{move || tr!("desk.send_ruling")}</button>
        </form>
    }
}

/// One action: a title, optional fields, the reasons and its button.
#[component]
fn Action(
    testid: &'static str,
    title: &'static str,
    make: Callback<String, Option<Command>>,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let reasons = RwSignal::new(String::new());
    view! {
        <form class="action" data-testid=format!("action-{testid}") on:submit=move |e| {
            e.prevent_default();
            send_reasoned(ctx, reasons, |r| make.run(r));
        }>
            <h3>{move || tr_dyn(title)}</h3>
            {children.map(|c| c())}
            <Reasons value=reasons/>
            <button type="submit" data-testid=format!("send-{testid}") disabled=move || ctx.busy.get()>{move || tr_dyn(title)}</button>
        </form>
    }
}

#[component]
fn Actions(draft: RulingDraft) -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let correction_kind = RwSignal::new("result".to_string());
    let cancel_loss = RwSignal::new("cancel".to_string());
    let winner = RwSignal::new("black".to_string());
    let margin = RwSignal::new(String::new());
    let decide = RwSignal::new("none".to_string());
    let colour = |s: &str| match s {
        "black" => Some(Colour::Black),
        "white" => Some(Colour::White),
        _ => None,
    };
    let propose = move |reasons: String| {
        if correction_kind.get_untracked() == "marks" {
            // Corrected marks from the ruling form: dead and unresolved chains, seki and
            // neutral regions; a new statement is counted from them (003 §4.7).
            let chains = draft.verdicts.get_untracked();
            let regions = draft.regions.get_untracked();
            let with = |k: &str| chains.iter().filter(|(_, v)| v == k).map(|(at, _)| *at).collect::<Vec<_>>();
            let region = |k: RegionVerdict| regions.iter().filter(|r| r.verdict == k).map(|r| r.at).collect::<Vec<_>>();
            let correction = CorrectionProposal::Marks {
                dead: with("dead"),
                seki: region(RegionVerdict::Seki),
                unresolved: with("unresolved"),
                neutral: region(RegionVerdict::Neutral),
            };
            return Some(Command::AdminProposeCorrection { correction, reasons });
        }
        let method = ctx.view.with_untracked(|v| v.settings.scoring);
        let half = margin.get_untracked().trim().replace(',', ".").parse::<f64>().ok().map(|m| (m * 2.0).round());
        let result = match (colour(&winner.get_untracked()), half) {
            (_, Some(0.0)) => engine::GameResult::Jigo { method },
            (None, _) => engine::GameResult::Jigo { method },
            (Some(c), Some(h)) if h > 0.0 => engine::GameResult::Score {
                winner: if c == Colour::Black { engine::Color::Black } else { engine::Color::White },
                margin_half: h as u32,
                method,
            },
            _ => {
                ctx.notice.set(Some(Notice::Error(tr!("desk.bad_margin"))));
                return None;
            }
        };
        Some(Command::AdminProposeCorrection { correction: CorrectionProposal::Result { result }, reasons })
    };
    let statement = move || {
        ctx.view.with_untracked(|v| {
            v.referee.awaiting_review.map(|w| w.statement).or_else(|| v.scoring.as_ref().map(|s| s.statement))
        })
    };
    view! {
        <div class="actions" data-testid="desk-actions">
            <Action testid="hold" title="desk.hold" make=Callback::new(|reasons| Some(Command::AdminHold { reasons }))/>
            <Action testid="resume" title="desk.resume" make=Callback::new(|reasons| Some(Command::AdminResume { reasons }))/>
            <Action testid="confirm-ruling" title="desk.confirm_ruling" make=Callback::new(|reasons| Some(Command::AdminConfirmRuling { reasons }))/>
            <Action testid="confirm-statement" title="desk.confirm_statement"
                make=Callback::new(move |reasons| statement().map(|statement| Command::AdminConfirmStatement { statement, reasons }))/>
            <Action testid="time-loss" title="desk.time_loss"
                make=Callback::new(move |reasons| Some(Command::AdminTimeLossDecision { cancel: cancel_loss.get_untracked() == "cancel", reasons }))>
                <select data-testid="time-loss-choice" aria-label=move || tr!("desk.time_loss") prop:value=cancel_loss
                    on:change=move |e| cancel_loss.set(event_target_value(&e))>
                    <option value="cancel">{move || tr!("desk.cancel_loss")}</option>
                    <option value="uphold">{move || tr!("desk.uphold_loss")}</option>
                </select>
            </Action>
            <Action testid="propose-correction" title="desk.propose_correction" make=Callback::new(propose)>
                <select data-testid="correction-kind" aria-label=move || tr!("desk.correction_kind") prop:value=correction_kind
                    on:change=move |e| correction_kind.set(event_target_value(&e))>
                    <option value="result">{move || tr!("desk.correction_result")}</option>
                    <option value="marks">{move || tr!("desk.correction_marks")}</option>
                </select>
                <select data-testid="correction-winner" aria-label=move || tr!("desk.winner") prop:value=winner
                    on:change=move |e| winner.set(event_target_value(&e))>
                    <option value="black">{move || colour_text(Colour::Black)}</option>
                    <option value="white">{move || colour_text(Colour::White)}</option>
                    <option value="none">{move || tr!("desk.jigo")}</option>
                </select>
                <label>{move || tr!("desk.margin")}
                    <input data-testid="correction-margin" size="5" inputmode="decimal" prop:value=margin
                        on:input=move |e| margin.set(event_target_value(&e))/></label>
            </Action>
            <Action testid="close-correction" title="desk.close_correction" make=Callback::new(|reasons| Some(Command::AdminCloseCorrection { reasons }))/>
            <Action testid="repair" title="desk.repair" make=Callback::new(|reasons| Some(Command::AdminRepair { reasons }))/>
            <Action testid="decide" title="desk.decide"
                make=Callback::new(move |reasons| Some(Command::AdminDecide { winner: colour(&decide.get_untracked()), reasons }))>
                <select data-testid="decide-winner" aria-label=move || tr!("desk.winner") prop:value=decide
                    on:change=move |e| decide.set(event_target_value(&e))>
                    <option value="black">{move || colour_text(Colour::Black)}</option>
                    <option value="white">{move || colour_text(Colour::White)}</option>
                    <option value="none">{move || tr!("desk.no_winner")}</option>
                </select>
            </Action>
        </div>
    }
}
