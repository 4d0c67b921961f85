//! The parts of the room's panel: clocks from server time, the confirm button beside the
//! coordinate entry, pass and resign with confirmation, undo and scoring requests, Classic
//! draw offers (each shown only in the phase and turn where it can be used), the move list
//! with illegal attempts told apart, and the number of watchers. Spectators see no controls.

use crate::sync_hydrate::IntoAnySync;
use leptos::prelude::*;
use wire::commands::RoomPhase;

use super::{colour_text, event_line, label, Notice, RoomCtx};
use crate::tr;
use wire::{
    commands::Command,
    events::{Colour, Xyz},
    settings::{Preset, TimeControl},
};

fn fmt_ms(ms: f64) -> String {
    let s = (ms.max(0.0) / 1000.0).ceil() as i64;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// `2` of `3` periods left: "●●○".
fn period_dots(left: u32, total: u32) -> String {
    (0..total.max(left)).map(|k| if k < left { '●' } else { '○' }).collect()
}

/// One side's clock as shown now: server snapshot minus the time since it was taken.
pub(super) fn clock_text(ctx: RoomCtx, c: Colour) -> String {
    let now = ctx.now.get();
    ctx.view.with(|v| {
        let k = &v.clocks;
        let i = c;
        let elapsed =
            if k.running == Some(c) { (now - ctx.offset.get() - v.server_time_ms as f64).max(0.0) } else { 0.0 };
        match k.control {
            TimeControl::Byoyomi { period_s, periods, .. } => {
                let left = k.turn_left_ms.filter(|_| k.running == Some(c)).map(|t| t as f64 - elapsed);
                let main = k.main_ms[i] as f64 - elapsed;
                // 000 §9: the periods left as dots (● left, ○ used).
                let dots = period_dots(k.periods_left[i], periods);
                if main > 0.0 {
                    format!("{} + {dots} {period_s}s", fmt_ms(main))
                } else {
                    // In byo-yomi: the current period's seconds.
                    let period = period_s as f64 * 1000.0;
                    let in_period = left.map(|l| l % period).filter(|x| *x > 0.0).unwrap_or(period);
                    format!("{} {dots} {period_s}s", fmt_ms(in_period))
                }
            }
            TimeControl::None { .. } => match k.running {
                Some(r) if r == c => fmt_ms(k.main_ms[i] as f64 - elapsed),
                _ => "—".into(),
            },
            _ => fmt_ms(k.main_ms[i] as f64 - elapsed),
        }
    })
}

/// 000 §9: after the opponent's pass, passing too ends play; with area scoring the neutral
/// points are filled first (000 §6.3).
#[component]
pub(super) fn PassGuidance() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let text = move || {
        ctx.view.with(|v| {
            let me = v.your_colour?;
            let opponent_passed =
                v.phase == RoomPhase::Playing && v.to_move == me && v.last_pass_by.is_some_and(|c| c != me);
            opponent_passed.then(|| match v.settings.scoring {
                engine::ScoringMethod::Area => tr!("room.opponent_passed_area"),
                _ => tr!("room.opponent_passed"),
            })
        })
    };
    view! {
        {move || text().map(|t| view! { <p class="hint guidance" data-testid="pass-guidance" role="status">{t}</p> })}
    }
}

pub(super) fn hold_text(h: &wire::events::HoldReason) -> String {
    use wire::events::HoldReason::*;
    match h {
        ServerRestart => tr!("hold.restart"),
        Disconnection { colour } => tr!("hold.disconnection", who = colour_text(*colour)),
        ScoringDispute { reason, .. } => tr!("hold.dispute", why = reason.clone()),
        Administrator { reasons } => tr!("hold.admin", why = reasons.clone()),
        PlayerCall { colour, reason } => tr!("hold.player_call", who = colour_text(*colour), why = reason.clone()),
        RulingObjection { colour, reasons } => {
            tr!("hold.ruling_objection", who = colour_text(*colour), why = reasons.clone())
        }
        DamagedRecord { seq, .. } => tr!("hold.damaged", seq = seq.to_string()),
    }
}

/// What each typed coordinate may be, first–last: a flat board's column letters and row
/// numbers ("A–J", "1–9" on 9×9; 000 §9), a room's own labels, or the box's numbers (003 §7.1).
pub(super) fn entry_ranges(v: &wire::view::RoomView) -> [String; 3] {
    let b = v.settings.board;
    let numbers = |a: engine::Axis| format!("{}–{}", a.start, a.end);
    if let Some(names) = super::label_set(v) {
        let span = |a| {
            let list = names.axis(a);
            format!("{}–{}", list.first().cloned().unwrap_or_default(), list.last().cloned().unwrap_or_default())
        };
        return [span(engine::AxisName::X), span(engine::AxisName::Y), span(engine::AxisName::Z)];
    }
    if b.z.start == b.z.end {
        // A vertex is column letters then the row number ("J9"): its letters are the column.
        let column = |x| {
            let vertex = super::label(v, Xyz { x, y: b.y.start, z: b.z.start });
            vertex.trim_end_matches(|c: char| c.is_ascii_digit()).to_string()
        };
        let rows = format!("1–{}", b.y.end - b.y.start + 1);
        return [format!("{}–{}", column(b.x.start), column(b.x.end)), rows, numbers(b.z)];
    }
    [numbers(b.x), numbers(b.y), numbers(b.z)]
}

/// Selection by coordinates beside the confirm button, and the move commands (003
/// §2.4–2.7), for a player in play. Place stone shows while a point is selected on this
/// player's turn (003 §2.6: a selection on the opponent's turn is for looking, and says so);
/// Pass on this player's turn; undo, counting and draw requests while play goes on; Resign
/// wherever the rules take it (`RoomPhase::accepts_resignation`). Nothing is left disabled.
#[component]
pub(super) fn MoveControls() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let playing_player = move || ctx.view.with(|v| v.your_colour.is_some() && v.phase == RoomPhase::Playing);
    let my_turn = move || ctx.view.with(|v| v.your_colour == Some(v.to_move) && v.phase == RoomPhase::Playing);
    let looking_back = move || ctx.back.get() > 0;
    // The move controls (with Resign among them) show for a player in play on the live position.
    let move_controls = move || playing_player() && !looking_back();
    let (x, y, z) = (RwSignal::new(String::new()), RwSignal::new(String::new()), RwSignal::new(String::new()));
    // The typed fields follow the selection however it was made (a tap, a typed point), so
    // they never show the previous point's values.
    Effect::new(move |_| {
        if let Some(at) = ctx.selection.get() {
            let [ax, ay, az] = ctx.view.with_untracked(|v| axis_labels(v, at));
            x.set(ax);
            y.set(ay);
            z.set(az);
        }
    });
    let confirming = RwSignal::new(None::<&'static str>);
    let flat = ctx.is_flat();
    let can_one_tap = ctx.view.with_untracked(|v| {
        v.settings.preset == Preset::Classic && v.settings.board.x.end - v.settings.board.x.start == 8
    });
    // 003 §7.3: X/Y/Z fields select a point; bad input names the allowed range and clears
    // the previous selection (003 §7.7).
    let select_typed = move || {
        let b = ctx.view.with_untracked(|v| v.settings.board);
        let geometry = ctx.view.with_untracked(|v| v.settings.geometry().ok());
        let names = ctx.view.with_untracked(super::label_set);
        let parse = |s: String, lo: i64, hi: i64, axis: &str| -> Result<i64, String> {
            let t = s.trim();
            // 003 §7.1, §9.4: the room's labels, matched exactly (case-sensitive).
            if let Some(names) = &names {
                let a = match axis {
                    "x" => engine::AxisName::X,
                    "y" => engine::AxisName::Y,
                    _ => engine::AxisName::Z,
                };
                let list = names.axis(a);
                return match list.iter().position(|l| l == t) {
                    Some(k) => Ok(lo + k as i64),
                    None => {
                        let allowed = format!(
                            "{}–{}",
                            list.first().cloned().unwrap_or_default(),
                            list.last().cloned().unwrap_or_default()
                        );
                        Err(tr!("room.bad_label", axis = axis.to_uppercase(), value = t, allowed = allowed))
                    }
                };
            }
            if flat && axis == "x" {
                if let Some(g) = &geometry {
                    if let Ok(p) = engine::labels::parse_classic_vertex(g, &format!("{t}1")) {
                        return g.coords_of(p).map(|c| c.x).ok_or_default();
                    }
                }
            }
            match t.parse::<i64>() {
                Ok(n) if (lo..=hi).contains(&n) => Ok(n),
                _ => Err(tr!("room.bad_coordinate", axis = axis.to_uppercase(), value = t, lo = lo, hi = hi)),
            }
        };
        let z_value = if flat { Ok(b.z.start) } else { parse(z.get_untracked(), b.z.start, b.z.end, "z") };
        let yv = if flat && names.is_none() {
            // Classic rows count from the bottom.
            parse(y.get_untracked(), 1, b.y.end - b.y.start + 1, "y").map(|row| b.y.end - row + 1)
        } else {
            parse(y.get_untracked(), b.y.start, b.y.end, "y")
        };
        match (parse(x.get_untracked(), b.x.start, b.x.end, "x"), yv, z_value) {
            (Ok(x), Ok(y), Ok(z)) => ctx.tap(Xyz { x, y, z }),
            (a, b2, c) => {
                ctx.selection.set(None);
                let msg = [a.err(), b2.err(), c.err()].into_iter().flatten().collect::<Vec<_>>().join(" ");
                ctx.notice.set(Some(Notice::Error(msg)));
            }
        }
    };
    let ask = move |what: &'static str| confirming.set(Some(what));
    let ranges = ctx.view.with_untracked(entry_ranges);
    let resignable =
        move || ctx.view.with(|v| v.your_colour.is_some() && v.phase.accepts_resignation() && v.result.is_none());
    view! {
        <Show when=move_controls>
            <div class="move-controls" data-testid="move-controls">
                <p class="selection" data-testid="selection">
                    {move || match ctx.selection.get() {
                        Some(at) => tr!("room.selected", at = ctx.view.with(|v| label(v, at))),
                        None if my_turn() => tr!("table.select_point"),
                        None => tr!("room.nothing_selected"),
                    }}
                    {move || (!my_turn()).then(|| view! { " · "<span class="hint">{tr!("table.looking_only")}</span> })}
                </p>
                <div class="place-row">
                    <Show when=move || my_turn() && ctx.selection.get().is_some()>
                        <button class="confirm-move" data-testid="confirm-move" disabled=move || ctx.busy.get()
                            on:click=move |_| ctx.confirm()>
                            {move || if ctx.busy.get() { tr!("room.sending") } else { tr!("room.confirm_move") }}
                        </button>
                    </Show>
                    <form class="coord-entry" on:submit=move |e| { e.prevent_default(); select_typed(); }>
                        // A flat board names its columns and rows as Go players do (000 §9).
                        <label>{if flat { tr!("room.column", range = ranges[0].clone()) } else { format!("X ({})", ranges[0]) }}
                            <input data-testid="coord-x" size="3" prop:value=x on:input=move |e| x.set(event_target_value(&e))/></label>
                        <label>{if flat { tr!("room.row", range = ranges[1].clone()) } else { format!("Y ({})", ranges[1]) }}
                            <input data-testid="coord-y" size="3" prop:value=y on:input=move |e| y.set(event_target_value(&e))/></label>
                        {(!flat).then(|| view! {
                            <label>{format!("Z ({})", ranges[2])}<input data-testid="coord-z" size="3" prop:value=z on:input=move |e| z.set(event_target_value(&e))/></label>
                        })}
                        <button type="submit" data-testid="coord-select">{move || tr!("room.select")}</button>
                    </form>
                </div>
                <div class="buttons move-buttons">
                    <Show when=my_turn>
                        <button data-testid="pass" on:click=move |_| ask("pass")>{move || tr!("room.pass")}</button>
                    </Show>
                    <button data-testid="request-undo" on:click=move |_| ctx.send(Command::RequestUndo)>{move || tr!("room.request_undo")}</button>
                    {move || {
                        let mine = ctx.view.with(|v| v.your_colour.is_some_and(|c| v.scoring_requests[c].is_some()));
                        if mine {
                            view! { <button data-testid="cancel-scoring" on:click=move |_| ctx.send(Command::CancelScoringRequest)>{tr!("room.cancel_scoring")}</button> }.into_any_sync()
                        } else {
                            view! { <button data-testid="request-scoring" on:click=move |_| ctx.send(Command::RequestScoring)>{tr!("room.request_scoring")}</button> }.into_any_sync()
                        }
                    }}
                    {move || ctx.view.with(|v| v.settings.draw_offer && v.draw_offer_by.is_none()).then(|| view! {
                        <button data-testid="offer-draw" on:click=move |_| ctx.send(Command::OfferDraw)>{tr!("room.offer_draw")}</button>
                    })}
                    // In the row of move buttons during play (000 §9: pass, undo, draw,
                    // resign at the bottom of a phone's first screen); on its own elsewhere.
                    <button class="danger resign" data-testid="resign" on:click=move |_| ask("resign")>{move || tr!("room.resign")}</button>
                </div>
            </div>
        </Show>
        <Show when=move || resignable() && !move_controls()>
            <div class="buttons resign-row">
                <button class="danger" data-testid="resign" on:click=move |_| ask("resign")>{move || tr!("room.resign")}</button>
            </div>
        </Show>
        // Pass and resign ask again before they are sent (003 §2.7).
        {move || confirming.get().map(|what| view! {
            <div class="confirm-box" role="alertdialog" data-testid="confirm-box">
                <p>{if what == "pass" { tr!("room.really_pass") } else { tr!("room.really_resign") }}</p>
                <button class="primary" data-testid="confirm-yes" on:click=move |_| {
                    confirming.set(None);
                    ctx.send(if what == "pass" { Command::Pass } else { Command::Resign });
                }>{tr!("room.yes")}</button>
                <button data-testid="confirm-no" on:click=move |_| confirming.set(None)>{tr!("room.no")}</button>
            </div>
        })}
        {move || (can_one_tap && playing_player()).then(|| view! {
            <label class="one-tap"><input type="checkbox" prop:checked=ctx.one_tap
                on:change=move |e| ctx.one_tap.set(event_target_checked(&e))/>{tr!("room.one_tap")}</label>
        })}
    }
}

/// This browser's choices for the room: capture animation and sounds.
#[component]
pub(super) fn Preferences() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    view! {
        <details class="prefs" data-testid="prefs">
            <summary>{move || tr!("table.preferences")}</summary>
            <div class="buttons">
                <label class="one-tap"><input type="checkbox" data-testid="animate" prop:checked=ctx.animate
                    on:change=move |e| ctx.animate.set(event_target_checked(&e))/>{move || tr!("ui.animations")}</label>
                <super::sound::SoundSwitch/>
            </div>
        </details>
    }
}

trait OkOrDefault<T> {
    fn ok_or_default(self) -> Result<T, String>;
}
impl<T> OkOrDefault<T> for Option<T> {
    fn ok_or_default(self) -> Result<T, String> {
        self.ok_or_else(String::new)
    }
}

/// Pending requests: undo (003 §5.2), counting (003 §2.7), draw offers (000 §8.2).
#[component]
pub(super) fn Requests() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let undo = move || {
        ctx.view.with(|v| {
            let u = v.undo.clone()?;
            let mine = v.your_colour == Some(u.colour);
            let answerable = v.your_colour.is_some() && !mine;
            Some((u, answerable, mine))
        })
    };
    view! {
        {move || undo().map(|(u, answerable, mine)| view! {
            <div class="request" data-testid="undo-request" role="alert">
                <p>{if u.plies == 2 {
                    tr!("room.undo_asked_two", who = colour_text(u.colour))
                } else {
                    tr!("room.undo_asked", who = colour_text(u.colour), n = u.move_number)
                }}</p>
                {answerable.then(|| view! {
                    <button class="primary" data-testid="undo-accept" on:click=move |_| ctx.send(Command::AnswerUndo { accept: true })>{tr!("room.accept")}</button>
                    <button data-testid="undo-refuse" on:click=move |_| ctx.send(Command::AnswerUndo { accept: false })>{tr!("room.refuse")}</button>
                })}
                {mine.then(|| view! {
                    <button data-testid="undo-cancel" on:click=move |_| ctx.send(Command::CancelUndo)>{tr!("room.cancel_undo")}</button>
                })}
            </div>
        })}
        {move || ctx.view.with(|v| {
            let asked: Vec<String> = [Colour::Black, Colour::White].into_iter()
                .filter(|c| v.scoring_requests[*c].is_some()).map(colour_text).collect();
            (!asked.is_empty() && v.phase == RoomPhase::Playing).then(|| view! {
                <p class="request" data-testid="scoring-requests">{tr!("room.scoring_asked", who = asked.join(", "))}</p>
            })
        })}
        {move || ctx.view.with(|v| v.draw_offer_by.map(|by| {
            let answerable = v.your_colour.is_some() && v.your_colour != Some(by);
            let mine = v.your_colour == Some(by);
            view! {
                <div class="request" data-testid="draw-offer">
                    <p>{tr!("room.draw_offered", who = colour_text(by))}</p>
                    {answerable.then(|| view! {
                        <button class="primary" on:click=move |_| ctx.send(Command::AnswerDraw { accept: true })>{tr!("room.accept")}</button>
                        <button on:click=move |_| ctx.send(Command::AnswerDraw { accept: false })>{tr!("room.refuse")}</button>
                    })}
                    {mine.then(|| view! { <button on:click=move |_| ctx.send(Command::CancelDrawOffer)>{tr!("room.cancel")}</button> })}
                </div>
            }
        }))}
    }
}

#[component]
pub(super) fn Notices() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    view! {
        {move || ctx.notice.get().map(|n| match n {
            Notice::Info(t) => view! { <p class="notice" data-testid="notice" role="status">{t}</p> }.into_any_sync(),
            Notice::Error(t) => view! { <p class="notice error" data-testid="notice" role="alert">{t}</p> }.into_any_sync(),
        })}
    }
}

/// Moves, passes, undos and illegal attempts (flagged, not numbered; 003 §2.5, §8.2), folded
/// under its heading. A viewer who may not read the stored record (003 §8.1) is told why the
/// list starts where it does: with the moves since they arrived.
#[component]
pub(super) fn MoveList() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let partial = move || ctx.view.with(|v| !v.may_read_record && v.move_number > 0);
    view! {
        <details class="moves" data-testid="moves" prop:open=super::wide_screen>
            <summary>{move || tr!("room.moves")}</summary>
            <Show when=partial>
                <p class="hint" data-testid="moves-since-arrival">{move || tr!("table.moves_since_arrival")}</p>
            </Show>
            <ul data-testid="move-list">
                {move || {
                    let lines: Vec<(String, bool)> = ctx.events.with(|es| ctx.view.with(|v| {
                        es.iter().rev().filter_map(|e| event_line(v, &e.event)).take(200).collect()
                    }));
                    lines.into_iter().map(|(t, illegal)| view! { <li class:illegal=illegal>{t}</li> }).collect_view()
                }}
            </ul>
        </details>
    }
}

#[component]
pub(super) fn Footer() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    // After the end the links head the action zone instead (`actions::EndRecord`).
    let links_here = move || ctx.view.with(|v| v.may_read_record && v.phase != RoomPhase::Finished);
    view! {
        <p class="footer-line">
            <span data-testid="watchers">{move || tr!("room.watchers", n = ctx.view.with(|v| v.watchers))}</span>
            " · "<a href="/rules" target="_blank" data-testid="rules-link">{move || tr!("rules.link")}</a>
            {move || links_here().then(|| view! { " · "<RecordLinks/> })}
        </p>
    }
}

/// The stored record's replay and downloads (003 §8.1): for everyone who may download
/// (`RoomView::may_read_record`), and nobody else — the caller asks.
#[component]
pub(super) fn RecordLinks() -> impl IntoView {
    let ctx = expect_context::<RoomCtx>();
    let id = ctx.id;
    view! {
        <a href=format!("/rooms/{id}/replay") data-testid="replay-link">{move || tr!("replay.open")}</a>
        " · "<a href=format!("/api/v1/rooms/{id}/record") download="" data-testid="record-json">{move || tr!("room.record_json")}</a>
        {ctx.is_flat().then(|| view! { " · "<a href=format!("/api/v1/rooms/{id}/record.sgf") download="" data-testid="record-sgf">"SGF"</a> })}
    }
}

/// A point's name on each axis as the coordinate fields take it: the room's labels, a Classic
/// board's column letter and row number, or the coordinates themselves.
pub(super) fn axis_labels(v: &wire::view::RoomView, at: Xyz) -> [String; 3] {
    let b = v.settings.board;
    if let Some(names) = super::label_set(v) {
        let name = |a: engine::AxisName, k: i64| names.axis(a).get(k as usize).cloned().unwrap_or_default();
        return [
            name(engine::AxisName::X, at.x - b.x.start),
            name(engine::AxisName::Y, at.y - b.y.start),
            name(engine::AxisName::Z, at.z - b.z.start),
        ];
    }
    if b.z.start == b.z.end {
        let vertex = engine::Geometry::from_spec(b)
            .ok()
            .and_then(|g| g.index_of(at.x, at.y, at.z).and_then(|p| engine::labels::classic_vertex(&g, p)));
        if let Some(vertex) = vertex {
            let split = vertex.find(|c: char| c.is_ascii_digit()).unwrap_or(vertex.len());
            return [vertex[..split].to_string(), vertex[split..].to_string(), at.z.to_string()];
        }
    }
    [at.x.to_string(), at.y.to_string(), at.z.to_string()]
}
