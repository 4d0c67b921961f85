//! The Space preset's fields (003 §1.1–1.3, §4.3, §7.1): the box per axis as start and end
//! coordinates with a live preview and point count, cube shortcuts, hours per side, komi and
//! its recipient, the capture bonus, and coordinate labels.

use crate::sync_hydrate::IntoAnySync;
use engine::{Axis, BoxSpec, Color, LabelKind};
use leptos::prelude::*;

use super::{
    draft::{Draft, NumberField},
    problems::{FieldProblems, Unreadable},
    KOMI,
};
use crate::tr;
use wire::settings::{CoordLabels, SettingProblem, TimeControl};

/// The coordinate labels chosen (003 §7.1): one built-in kind for the three axes, a kind per
/// axis, or a custom list per axis.
#[derive(Clone, Copy)]
pub struct LabelChoice {
    pub kind: RwSignal<String>,
    pub per_axis: [RwSignal<LabelKind>; 3],
    pub custom: [RwSignal<String>; 3],
}

impl LabelChoice {
    pub fn new() -> LabelChoice {
        LabelChoice {
            kind: RwSignal::new("numeric".into()),
            per_axis: std::array::from_fn(|_| RwSignal::new(LabelKind::Numeric)),
            custom: std::array::from_fn(|_| RwSignal::new(String::new())),
        }
    }

    /// The labels as settings (tracked, so the summary and the checks follow the fields).
    pub fn value(&self) -> CoordLabels {
        let kind = |k| CoordLabels::Builtin { x: k, y: k, z: k };
        match self.kind.get().as_str() {
            "english" => kind(LabelKind::English),
            "korean" => kind(LabelKind::Korean),
            "per_axis" => {
                let [x, y, z] = self.per_axis.map(|k| k.get());
                CoordLabels::Builtin { x, y, z }
            }
            "custom" => {
                let list = |i: usize| self.custom[i].get().split_whitespace().map(String::from).collect();
                CoordLabels::Custom { x: list(0), y: list(1), z: list(2) }
            }
            _ => CoordLabels::default(),
        }
    }
}

/// Sets every axis to 1..n (the cube shortcuts).
pub fn set_cube(d: Draft, n: u16) {
    let a = Axis::one_to(i64::from(n));
    d.s.update(|s| s.board = BoxSpec { x: a, y: a, z: a });
}

/// The box's lengths and point count, or `None` while an axis is not a valid one.
fn box_size(b: BoxSpec) -> Option<(i64, i64, i64, i64)> {
    let len = |a: Axis| (a.end >= a.start).then(|| a.end - a.start + 1);
    let (x, y, z) = (len(b.x)?, len(b.y)?, len(b.z)?);
    Some((x, y, z, x * y * z))
}

#[component]
pub fn SpaceFields(draft: Draft, problems: Memo<Vec<SettingProblem>>, labels: LabelChoice) -> impl IntoView {
    let d = draft;
    let s = d.s;
    let axis_field = move |name: &'static str, pick: fn(&mut BoxSpec) -> &mut Axis| {
        let get = move |end: bool| {
            Signal::derive(move || {
                let mut b = s.with(|s| s.board);
                let a = *pick(&mut b);
                if end {
                    a.end
                } else {
                    a.start
                }
            })
        };
        let set = move |end: bool| {
            Callback::new(move |v: i64| {
                s.update(|s| {
                    let a = pick(&mut s.board);
                    if end {
                        a.end = v
                    } else {
                        a.start = v
                    }
                })
            })
        };
        let (start_id, end_id) = match name {
            "x" => ("axis-x-start", "axis-x-end"),
            "y" => ("axis-y-start", "axis-y-end"),
            _ => ("axis-z-start", "axis-z-end"),
        };
        let path = match name {
            "x" => "board.x",
            "y" => "board.y",
            _ => "board.z",
        };
        view! {
            <div class="axis-range" data-testid=format!("axis-{name}")>
                <span class="axis-name">{name.to_uppercase()}</span>
                <label>{move || tr!("new.axis_start")}
                    <NumberField draft=d testid=start_id value=get(false) set=set(false) min=-1_000_000 max=1_000_000/>
                </label>
                <label>{move || tr!("new.axis_end")}
                    <NumberField draft=d testid=end_id value=get(true) set=set(true) min=-1_000_000 max=1_000_000/>
                </label>
                <span class="hint" data-testid=format!("axis-{name}-length")>{move || {
                    let mut b = s.with(|s| s.board);
                    let a = *pick(&mut b);
                    tr!("new.axis_length", n = a.end.saturating_sub(a.start).saturating_add(1))
                }}</span>
                <FieldProblems problems=problems path=path/>
            </div>
        }
    };
    let hours = move |black: bool| {
        Signal::derive(move || match s.with(|s| s.time) {
            TimeControl::SpaceHours { black: b, white: w } => i64::from(if black { b } else { w }),
            _ => 1,
        })
    };
    let set_hours = move |black: bool| {
        Callback::new(move |v: i64| {
            let v = u32::try_from(v).unwrap_or(u32::MAX);
            s.update(|s| {
                if let TimeControl::SpaceHours { black: b, white: w } = &mut s.time {
                    if black {
                        *b = v
                    } else {
                        *w = v
                    }
                }
            })
        })
    };
    view! {
        <fieldset class="preset-fields" data-testid="space-fields">
            <legend>{move || tr!("new.space_box")}</legend>
            <p class="hint">{move || tr!("new.box_hint")}</p>
            {axis_field("x", |b| &mut b.x)}
            {axis_field("y", |b| &mut b.y)}
            {axis_field("z", |b| &mut b.z)}
            <BoxPreview board=Signal::derive(move || s.with(|s| s.board))/>
            <div class="hours">
                <label>{move || tr!("new.hours_black")}
                    <NumberField draft=d testid="hours-black" value=hours(true) set=set_hours(true) min=1 max=5/>
                    <FieldProblems problems=problems path="time.black"/>
                </label>
                <label>{move || tr!("new.hours_white")}
                    <NumberField draft=d testid="hours-white" value=hours(false) set=set_hours(false) min=1 max=5/>
                    <FieldProblems problems=problems path="time.white"/>
                </label>
            </div>
            <label>{move || tr!("new.komi_space")}
                <input data-testid=KOMI inputmode="decimal" prop:value=d.komi_text
                    on:input=move |e| d.set_komi_text(event_target_value(&e))/>
                <Unreadable bad=d.is_unreadable(KOMI) testid=KOMI/>
                <FieldProblems problems=problems path="komi"/>
            </label>
            <label>{move || tr!("new.komi_to")}
                <select data-testid="komi-to" prop:value=move || if s.with(|s| s.komi_to) == Color::Black { "black" } else { "white" }
                    on:change=move |e| s.update(|s| s.komi_to = if event_target_value(&e) == "black" { Color::Black } else { Color::White })>
                    <option value="white">{move || tr!("colour.white")}</option>
                    <option value="black">{move || tr!("colour.black")}</option>
                </select>
            </label>
            <label class="check">
                <input type="checkbox" data-testid="capture-bonus" prop:checked=move || s.with(|s| s.capture_bonus)
                    on:change=move |e| s.update(|s| s.capture_bonus = event_target_checked(&e))/>
                {move || tr!("new.capture_bonus")}
            </label>
            <label>{move || tr!("new.labels")}
                <select data-testid="labels" on:change=move |e| labels.kind.set(event_target_value(&e))>
                    <option value="numeric" selected>{move || tr!("new.labels_numeric")}</option>
                    <option value="english">{move || tr!("new.labels_english")}</option>
                    <option value="korean">{move || tr!("new.labels_korean")}</option>
                    <option value="per_axis">{move || tr!("new.labels_per_axis")}</option>
                    <option value="custom">{move || tr!("new.labels_custom")}</option>
                </select>
                <FieldProblems problems=problems path="labels"/>
            </label>
            <Show when=move || labels.kind.get() == "per_axis">
                {["X", "Y", "Z"].into_iter().zip(labels.per_axis).map(|(axis, k)| view! {
                    <label>{axis}
                        <select data-testid=format!("labels-kind-{}", axis.to_lowercase())
                            on:change=move |e| k.set(match event_target_value(&e).as_str() {
                                "english" => LabelKind::English,
                                "korean" => LabelKind::Korean,
                                _ => LabelKind::Numeric,
                            })>
                            <option value="numeric">{move || tr!("new.labels_numeric")}</option>
                            <option value="english">{move || tr!("new.labels_english")}</option>
                            <option value="korean">{move || tr!("new.labels_korean")}</option>
                        </select>
                    </label>
                }).collect_view()}
            </Show>
            <Show when=move || labels.kind.get() == "custom">
                <p class="hint">{move || tr!("new.labels_custom_hint")}</p>
                {["X", "Y", "Z"].into_iter().zip(labels.custom).map(|(axis, v)| view! {
                    <label>{axis}
                        <input data-testid=format!("labels-{}", axis.to_lowercase()) prop:value=v
                            on:input=move |e| v.set(event_target_value(&e))/>
                    </label>
                }).collect_view()}
            </Show>
        </fieldset>
    }
}

/// The box drawn in oblique projection with its lengths and point count, following the
/// axis fields as they are typed (003 §1.1).
#[component]
fn BoxPreview(board: Signal<BoxSpec>) -> impl IntoView {
    move || match box_size(board.get()) {
        Some((x, y, z, points)) => {
            // Front face x × y, depth drawn at 30° and half scale; the longest side 120 units.
            let k = 120.0 / (x.max(y).max(z) as f64);
            let (w, h, dz) = (x as f64 * k, y as f64 * k, z as f64 * k * 0.5);
            let (dx, dy) = (dz * 0.866, dz * 0.5);
            let (ox, oy) = (10.0, 10.0 + dy);
            let front = format!("{ox},{oy} {},{oy} {},{} {ox},{}", ox + w, ox + w, oy + h, oy + h);
            let top = format!("{ox},{oy} {},{} {},{} {},{oy}", ox + dx, oy - dy, ox + w + dx, oy - dy, ox + w);
            let side = format!(
                "{},{oy} {},{} {},{} {},{}",
                ox + w,
                ox + w + dx,
                oy - dy,
                ox + w + dx,
                oy + h - dy,
                ox + w,
                oy + h
            );
            let b = board.get();
            view! {
                <figure class="box-preview" data-testid="box-preview">
                    <svg viewBox=format!("0 0 {} {}", w + dx + 20.0, h + dy + 20.0) role="img"
                        aria-label=move || tr!("new.box_points", x = x, y = y, z = z, points = points)>
                        <polygon points=top class="face top"/>
                        <polygon points=side class="face side"/>
                        <polygon points=front class="face front"/>
                    </svg>
                    <figcaption data-testid="box-points">
                        {move || tr!("new.box_points", x = x, y = y, z = z, points = points)}<br/>
                        <span class="hint">{format!("x {}..{} · y {}..{} · z {}..{}", b.x.start, b.x.end, b.y.start, b.y.end, b.z.start, b.z.end)}</span>
                    </figcaption>
                </figure>
            }
            .into_any_sync()
        }
        None => ().into_any_sync(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_preview_counts_the_points_of_any_box() {
        let b = BoxSpec { x: Axis::new(-3, 3), y: Axis::new(0, 4), z: Axis::new(5, 7) };
        assert_eq!(box_size(b), Some((7, 5, 3, 105)));
        let backwards = BoxSpec { x: Axis::new(3, -3), ..b };
        assert_eq!(box_size(backwards), None);
    }
}
